"""`ascsim port` / `ascsim diff` (ascsim.scenario.port).

Every example scenario is ported between the A2/A3 family and Ascend 950 where its calls have an
equivalent: both runs must give the same final outputs (GM tensors and saved tensors byte for byte; an L0A
tile, whose fractal order is Zz on A2 and Nz on 950, fractal by fractal), and porting back must reproduce
every byte of the original run. What cannot be ported is refused with the step, the rule and its doc.
"""

from __future__ import annotations

import warnings
from pathlib import Path

import numpy as np
import pytest
from support.paths import EXAMPLES

from ascsim.cli import main
from ascsim.machine.chips import get_chip
from ascsim.scenario import load_scenario, run_scenario
from ascsim.scenario.port import PortError, compare_outputs, diff, port, scenario_text

FILES = sorted(EXAMPLES.glob("*.toml"))

#: examples whose calls have no equivalent on the other family, and the words of the refusal
NOT_PORTABLE = {
    "load2d_v2_transpose": "a transposed LoadData2DParamsV2 window has no LoadData2D v1 form",
    "load3d_boundary_a2": "SetLoadDataBoundary does not exist on Atlas 350",
    "load3d_v1_seed": "Load3D v1 does not exist on Atlas 350",
    "load_data_with_stride_950": "the dstStride 4 set by SetLoadDataRepeatWithStride differs",
    "mx_matmul": "dtype fp8_e4m3fn_t is used by no instruction of Atlas A2",
    "sparse_matmul": "LoadDataWithSparse does not exist on Atlas 350",
}


def _other(chip: str) -> str:
    return "a2" if chip == "ascend950" else "ascend950"


def _run(path: Path):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # hazards some examples exercise on purpose
        return run_scenario(load_scenario(path))


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_port_example_and_back(path: Path, tmp_path: Path) -> None:
    chip = load_scenario(path).chip
    to = _other(chip)
    if path.stem in NOT_PORTABLE:
        with pytest.raises(PortError, match=rf"^port {path.name} to .*: (steps|tensors)\[?.*"
                                            rf"{NOT_PORTABLE[path.stem][:40]}"):
            port(path, to)
        return
    there = port(path, to)
    out = tmp_path / f"{path.stem}_{to}.toml"
    out.write_text(scenario_text(there.raw, path.parent, tmp_path), encoding="utf-8")
    a, b = _run(path), _run(out)
    assert b.scenario.chip == get_chip(to).key
    cmp = compare_outputs(a, b, there.tiles, get_chip(to).l0a_format)
    assert cmp, "nothing compared"
    assert all(c.same for c in cmp), [c for c in cmp if not c.same]
    # and back: every tensor byte for byte as the original run
    back = port(out, chip)
    again = tmp_path / f"{path.stem}_back.toml"
    again.write_text(scenario_text(back.raw, tmp_path, tmp_path), encoding="utf-8")
    c = _run(again)
    for name, t in a.tensors.items():
        assert np.array_equal(t.bytes(), c.tensors[name].bytes()), name


def test_port_command_reports_changes(tmp_path: Path, capsys) -> None:
    out = tmp_path / "mm950.toml"
    assert main(["port", str(EXAMPLES / "matmul.toml"), "--to", "950", "-o", str(out)]) == 0
    text = capsys.readouterr().out
    assert ("steps[3] (LoadData): L0A fractal row 1 of a 2 x 3-fractal tile: dst index 768 -> 256, dstGap 0 "
            "-> 1 (ZZ -> NZ)") in text
    assert "FixpipeParamsV220 -> FixpipeParamsArch3510" in text
    assert "c_gm: identical (bytes)" in text
    assert 'chip = "ascend950"' in out.read_text()


def test_port_refusal_exits_2(capsys) -> None:
    assert main(["port", str(EXAMPLES / "sparse_matmul.toml"), "--to", "950"]) == 2
    err = capsys.readouterr().err
    assert "steps[1] (LoadDataWithSparse): LoadDataWithSparse does not exist on Atlas 350" in err


def test_diff_names_the_first_differing_byte(tmp_path: Path, capsys) -> None:
    src = (EXAMPLES / "load3d_v2_basic.toml").read_text(encoding="utf-8")
    a, b = tmp_path / "a.toml", tmp_path / "b.toml"
    a.write_text(src, encoding="utf-8")
    b.write_text(src.replace("padList = [1, 1, 1, 1]", "padList = [0, 1, 1, 1]"), encoding="utf-8")
    steps, cmp = diff(a, a)
    assert not any(s.first for s in steps) and all(c.same for c in cmp)
    steps, cmp = diff(a, b)
    first = next(s for s in steps if s.first)
    assert first.first.startswith("L0A byte 0x")
    assert "\n    a: dst[" in first.first and "\n    b: dst[" in first.first  # each run's explain line
    assert main(["diff", str(a), str(b)]) == 1
    out = capsys.readouterr().out
    assert "!= [0] LoadData: L0A byte 0x" in out and "l0a: DIFFERENT" in out
