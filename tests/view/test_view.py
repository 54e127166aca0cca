"""The notebook face and the CLI polish of issue 11: readings at use (ExecReport.notes), Python-first
explain/draw, History, draw options, fix-suggesting errors. References: the divergences.md conditions
written out here, and explain.provenance for what a picture outlines."""

from __future__ import annotations

import re

import numpy as np
import pytest
from support.operands import load3d_operands
from support.paths import EXAMPLES

from ascsim import Core, History, LoadData3DParamsV2, LoadDataRepeatParamWithStride
from ascsim.base.errors import AscsimError
from ascsim.cli import main
from ascsim.scenario import load_scenario, run_scenario
from ascsim.view.draw import build_picture
from ascsim.view.explain import provenance, step_view

P0 = [0, 0, 0, 0]


def load(chip: str, c: int, h: int, w: int, p: LoadData3DParamsV2, core: Core | None = None):
    core = core or Core(chip)
    x = np.zeros((c, h, w), dtype=np.float16)
    fmap, l0a = load3d_operands(core, x, 16384, src_len=x.size + 64)
    return core, core.load_data(l0a, fmap, p)


@pytest.mark.parametrize(("case", "params", "chans", "rows"), [
    ("plain", LoadData3DParamsV2(P0, 4, 4, 16, 16, 16, 0, 0, 1, 1, 1, 1, 1, 1), 16, []),
    ("L4 mStartPt 3", LoadData3DParamsV2(P0, 8, 8, 16, 16, 16, 0, 3, 1, 1, 1, 1, 1, 1), 16, ["L4"]),
    ("L5 packed tail", LoadData3DParamsV2(P0, 4, 4, 20, 20, 16, 0, 0, 1, 1, 1, 1, 1, 1), 20, ["L5", "L7"]),
    ("L7 partial", LoadData3DParamsV2(P0, 4, 4, 16, 16, 10, 0, 0, 1, 1, 1, 1, 1, 1), 16, ["L7"]),
    ("L8 past HoWo", LoadData3DParamsV2(P0, 3, 3, 16, 16, 16, 0, 0, 1, 1, 1, 1, 1, 1), 16, ["L8"]),
])
def test_readings_flagged_at_use(case, params, chans, rows):
    """L4: mStartPt % 16; L5: channels % C0 (packed tail); L7: mExtension % 16 or kExtension % C0; L8: a row
    m >= Ho*Wo (docs/divergences.md). A2, half."""
    _, rep = load("a2", chans, params.l1H, params.l1W, params)
    assert [n for n in rep.notes if n in ("L4", "L5", "L7", "L8")] == rows


def test_950_unset_dst_stride_is_flagged():
    core, rep = load("950", 16, 4, 4, LoadData3DParamsV2(P0, 4, 4, 16, 16, 16, 0, 0, 1, 1, 1, 1, 1, 1))
    assert "L9" in rep.notes
    core.set_load_data_repeat(LoadDataRepeatParamWithStride(0, 1, 0, 1))
    _, rep = load("950", 16, 4, 4, LoadData3DParamsV2(P0, 4, 4, 16, 16, 16, 0, 0, 1, 1, 1, 1, 1, 1),
                  core)
    assert "L9" not in rep.notes


def test_report_explains_and_draws_itself():
    core = Core("a2")
    x = np.arange(16 * 4 * 4).reshape(16, 4, 4).astype(np.float16)
    fmap, l0a = load3d_operands(core, x, 1024)
    rep = core.load_data(l0a, fmap, LoadData3DParamsV2(P0, 4, 4, 16, 64, 16, 0, 0, 1, 1, 2, 2, 1, 1))
    text = rep.explain(dst=5 * 16 + 3)  # Zz: row m 5 = (ho 1, wo 2) (Wo = 3), column k 3 = (kh 0, kw 0, c 3)
    assert "c 3 h 1 w 2" in text and "img2col (m 5, k 3)" in text
    svg = rep._repr_svg_()
    assert svg.lstrip().startswith("<?xml") and 'id="dst-fractal-0"' in svg
    assert "Load3Dv2" in rep._repr_html_()
    assert "[" in repr(l0a) and "never written" in repr(core.tensor("A2", "half", 16))


def test_history_keeps_the_bytes_a_later_call_overwrote():
    core = Core("a2")
    core.history = History()
    fmap, l0a = load3d_operands(core, np.arange(256).reshape(16, 4, 4), 256)
    core.load_data(l0a, fmap, LoadData3DParamsV2(P0, 4, 4, 16, 16, 16, 0, 0, 1, 1, 1, 1, 1, 1))
    first = l0a.read().copy()
    l0a.write(np.zeros(256))
    core.load_data(l0a, fmap, LoadData3DParamsV2(P0, 4, 4, 16, 16, 16, 0, 0, 1, 1, 1, 1, 1, 1))
    l0a.write(np.full(256, 7))
    view = core.history[0].view()
    np.testing.assert_array_equal(view.dst.read(), first)  # the state right after call 0
    assert len(core.history) == 2 and "call 0" in core.history[0].draw()


def test_focus_outlines_the_receptive_field():
    """--focus m=5 on examples/load3d_v2_basic.toml: the outlined source pixels are exactly the (h, w)
    explain.provenance gives for row m = 5's reads."""
    run = run_scenario(load_scenario(EXAMPLES / "load3d_v2_basic.toml"))
    pic = build_picture(step_view(run, 0), focus="m=5", region="all")
    src, dst = pic.rows[0]
    (xs, ys, _, style), = src.outlines
    assert style == "focus"
    got = {(int(x), int(y)) for x, y in zip(xs, ys, strict=True)}
    prov = provenance(run, 0, [e for e in range(2048) if (e % 256) // 16 == 5])  # Zz: row 5 of each fractal
    wx, wy, ok = src.locate(np.array([d["src_index"] for d in prov if d["status"] == "read"]))
    assert ok.all() and got == set(zip(wx.tolist(), wy.tolist(), strict=True))
    # and those cells are the pixels (h, w) row m = 5 reads: 4 kernel points x 2 channel groups at most
    assert len(got) == len({(d["c1"], d["h"], d["w"]) for d in prov if d["status"] == "read"})


@pytest.mark.parametrize("labels", ["source", "logical", "value", "index", "none"])
def test_label_modes_and_region(tmp_path, labels):
    out = tmp_path / "x.svg"
    assert main(["draw", str(EXAMPLES / "load3d_v2_basic.toml"), "-o", str(out), "--region", "0",
                 "--labels", labels]) == 0
    text = out.read_text()
    assert re.findall(r'id="dst-fractal-(\d+)"', text) == ["0"]
    if labels == "logical":
        assert ">5,3<" in text or ">5<" in text  # (m, k) of row 5, column 3 (one line or two)


def test_cli_step_optional_and_command_names(tmp_path, capsys):
    assert main(["explain", str(EXAMPLES / "load3d_v2_basic.toml")]) == 0
    assert main(["draw", str(EXAMPLES / "matmul.toml"), "-o", str(tmp_path / "m.svg")]) == 2
    assert "draw: matmul.toml has 8 steps that move data" in capsys.readouterr().err
    mm = [i for i, s in enumerate(load_scenario(EXAMPLES / "matmul.toml").steps) if s.call == "Mmad"][0]
    out = str(tmp_path / "m.svg")
    assert main(["draw", str(EXAMPLES / "matmul.toml"), "--step", str(mm), "-o", out]) == 2
    assert f"draw: step {mm} (Mmad)" in capsys.readouterr().err


@pytest.mark.parametrize(("make", "hint"), [
    (lambda: Core("a22"), "did you mean 'a2'?"),
    (lambda: Core("a2").tensor("L0A", "half", 16), "the TPosition for L0A is A2"),
    (lambda: Core("a2").tensor("A1", "hlaf", 16), "did you mean 'half'?"),
    (lambda: load("a2", 4, 4, 4, LoadData3DParamsV2(P0, 4, 4, 3, 16, 16, 0, 0, 1, 1, 1, 1, 1, 1)),
     "pad the map to 4 channels"),
    (lambda: load("a2", 4, 224, 224, LoadData3DParamsV2([3, 3, 3, 3], 224, 224, 4, 196, 256, 0, 0, 2, 2, 7, 7,
                                                         1, 1)), "the largest mExtension that fits"),
])
def test_errors_suggest_the_fix(make, hint):
    with pytest.raises(AscsimError, match=re.escape(hint)):
        make()


def test_scenario_field_did_you_mean(tmp_path, capsys):
    text = (EXAMPLES / "load3d_v2_basic.toml").read_text().replace("kExtension =", "kExtention =")
    (tmp_path / "s.toml").write_text(text)
    assert main(["run", str(tmp_path / "s.toml")]) == 2
    assert "did you mean 'kExtension'?" in capsys.readouterr().err
