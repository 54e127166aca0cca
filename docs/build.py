"""The docs build: regenerate every picture in docs/img.

* Each `ascsim draw examples/X.toml --step N -o docs/img/Y.svg [options]` written in docs/*.md or README.md
  is run as written (options end at the closing backtick).
* docs/python.md's pictures come from the notebook workflow it shows (`python_images` below: the same
  code, run for real).

    PYTHONPATH=src python docs/build.py
"""

from __future__ import annotations

import re
import shlex
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
COMMAND = re.compile(r"ascsim (draw examples/[\w-]+\.toml --step \d+ -o docs/img/[\w-]+\.svg[^`\n]*)")
#: pictures made by python_images (tests/cli/test_examples.py accepts them as generated)
PYTHON_IMAGES = ("python_report.svg", "python_history.svg")


def draw_commands() -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for page in [*sorted((ROOT / "docs").glob("*.md")), ROOT / "README.md"]:
        for cmd in COMMAND.findall(page.read_text(encoding="utf-8")):
            args = shlex.split(cmd.strip())
            out[args[args.index("-o") + 1]] = args
    return out


def python_images() -> None:
    """docs/python.md, run: a Load3D call drawn from its ExecReport, and a history entry after an
    overwrite."""
    import numpy as np

    from ascsim import Core, History, LoadData3DParamsV2
    from ascsim.machine.layouts import chw_to_fmap_l1

    core = Core("a2")
    core.history = History()
    x = np.arange(16 * 6 * 6).reshape(16, 6, 6).astype(np.float16)
    fmap = core.tensor("A1", "half", x.size, data=chw_to_fmap_l1(x, 16), name="fmap")
    l0a = core.tensor("A2", "half", 16 * 144, name="l0a")
    report = core.load_data(l0a, fmap, LoadData3DParamsV2([1, 1, 1, 1], 6, 6, 16, 144, 16, 0, 0, 1, 1, 3, 3,
                                                          1, 1))
    report.draw(ROOT / "docs" / "img" / "python_report.svg", region="3-5", focus="m=7")
    core.load_data(l0a, fmap, LoadData3DParamsV2([0, 0, 0, 0], 6, 6, 16, 16, 16, 0, 0, 1, 1, 1, 1, 1, 1))
    core.history[0].draw(ROOT / "docs" / "img" / "python_history.svg", region="0-1", labels="value")


def main() -> int:
    from ascsim.cli import main as cli

    for target, args in sorted(draw_commands().items()):
        print("ascsim", " ".join(args))
        if cli([*args[:1], str(ROOT / args[1]), *args[2:args.index("-o") + 1], str(ROOT / target),
                *args[args.index("-o") + 2:]]) != 0:
            return 1
    python_images()
    return 0


if __name__ == "__main__":
    sys.exit(main())
