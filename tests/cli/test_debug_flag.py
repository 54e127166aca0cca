"""`ascsim --debug` shows the whole traceback of a refusal, ascsim's own frames included; without it the
refusal is one line. (Refusals raised through the Python API keep only the caller's frames unless
ASCSIM_TRACEBACK=full, tests/view/test_view.py; --debug is the command line's way to ask for them.)"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from support.paths import EXAMPLES


def _bad_copy(tmp_path: Path) -> Path:
    text = (EXAMPLES / "load3d_v2_basic.toml").read_text()
    assert "kExtension = 128 " in text
    bad = tmp_path / "bad.toml"
    bad.write_text(text.replace("kExtension = 128 ", "kExtension = 70000 ", 1))
    return bad


def _run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "ascsim", *args], capture_output=True, text=True)


def test_debug_shows_the_engine_frames_and_the_default_is_one_line(tmp_path: Path) -> None:
    bad = _bad_copy(tmp_path)
    plain = _run("run", str(bad))
    assert plain.returncode == 2 and "kExtension" in plain.stderr
    assert len(plain.stderr.strip().splitlines()) == 1 and "Traceback" not in plain.stderr
    debug = _run("--debug", "run", str(bad))
    assert debug.returncode != 0 and "Traceback" in debug.stderr and "kExtension" in debug.stderr
    frames = [ln for ln in debug.stderr.splitlines() if ln.lstrip().startswith('File "')]
    # below the scenario runner: the call boundary / instruction frames a trimmed traceback drops
    deep = ("/ascsim/isa/", "/ascsim/engine/", "/ascsim/params/")
    assert any(d in f for f in frames for d in deep), frames
