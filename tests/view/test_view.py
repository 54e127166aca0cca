"""The notebook face and the CLI polish of issue 11: readings at use (ExecReport.notes), Python-first
explain/draw, History, draw options, fix-suggesting errors. References: the divergences.md conditions
written out here, and explain.provenance for what a picture outlines."""

from __future__ import annotations

import inspect
import re
import traceback

import numpy as np
import pytest
from support.operands import load3d_operands
from support.paths import EXAMPLES

from ascsim import (
    Core,
    History,
    LoadData3DParamsV2,
    LoadData3DParamsV2Pro,
    LoadDataRepeatParamWithStride,
    ascendc,
)
from ascsim.base.errors import AscsimError
from ascsim.cli import main
from ascsim.machine.layouts import chw_to_fmap_l1
from ascsim.params import LoadData2dTransposeParams
from ascsim.scenario import load_scenario, run_scenario
from ascsim.view import step
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
    svg = rep.draw()
    assert str(svg).lstrip().startswith("<?xml") and 'id="dst-fractal-0"' in svg
    page = rep._repr_html_()  # the notebook face: the summary and the same picture inline, no XML prolog
    assert "Load3Dv2" in page and 'id="dst-fractal-0"' in page and "<svg" in page and "<?xml" not in page
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

# -- issue 19: the notebook face, names in the user's words, tracebacks that end at the user's line ------

STEM = LoadData3DParamsV2([1, 1, 1, 1], 6, 6, 16, 144, 16, 0, 0, 1, 1, 3, 3, 1, 1)


def named_load3d(core: Core | None = None):
    """docs/python.md's call: a 16 x 6 x 6 half map named "fmap" into an L0A tensor named "col"."""
    core = core or Core("a2")
    x = np.arange(16 * 6 * 6).reshape(16, 6, 6).astype(np.float16)
    fmap = core.tensor("A1", "half", x.size, data=chw_to_fmap_l1(x, 16), name="fmap")
    col = core.tensor("A2", "half", 16 * 144, name="col")
    return core, fmap, col, core.load_data(col, fmap, STEM)


def test_tensor_names_reach_explain_and_the_picture():
    """The names given to core.tensor are what explain lines and picture captions call the operands (not
    "A2@0x0"); a tensor taken from a named one says where it starts; repr shows the name."""
    core, fmap, col, rep = named_load3d()
    text = rep.explain()
    assert "dst col (L0A 0x0000, half)  <-  src fmap (L1 0x0000, half)" in text
    assert "A2@0x" not in text and "A1@0x" not in text
    svg = str(rep.draw())
    assert "destination col (L0A @0x0" in svg and "source fmap (L1 feature map" in svg
    assert repr(col).startswith("LocalTensor<half>(col: A2/L0A @0x0, 2304 elems")
    assert col[256].name == "col[256:]" and col.reinterpret("int8_t").name == "col"
    line = rep.explain(dst=7 * 16)  # Zz fractal 0 row 7 col 0 = m 7 (ho 1, wo 1), k 0: pixel (h 0, w 0)
    assert line.splitlines()[-1].endswith("<- fmap[0] L1 0x0000: c 0 h 0 w 0 (c1 0, c0 0)  "
                                          "img2col (m 7, k 0) = (ho 1, wo 1, kh 0, kw 0)")
    # an unnamed tensor keeps its place as its name; the same addresses named otherwise are named otherwise
    _, rep2 = core, core.load_data(core.tensor("A2", "half", 2304, offset=0), fmap, STEM)
    assert "dst A2@0x0 (L0A" in rep2.explain()
    assert "dst col (L0A" in rep.explain()
    with pytest.raises(AscsimError, match="name must be a string"):
        core.tensor("A2", "half", 16, name=3)


def test_scenario_names_reach_the_reports():
    """A scenario's tensors carry their [tensors.NAME]: the step's own ExecReport explains with them."""
    run = run_scenario(load_scenario(EXAMPLES / "transpose_int8_a2.toml"))
    text = run.results[0].report.explain()
    assert "dst dst (L0B 0x0000, int8_t)  <-  src src (L1 0x0000, int8_t)" in text
    assert "LoadData2dTransposeParams{startIndex=0, repeatTimes=3, srcStride=1, dstGap=1, dstFracGap=0, " \
           "addrMode=0}" in text


def test_explain_and_draw_show_the_struct_the_user_passed():
    """The summary and the picture's call block name the C++ struct and its fields as passed (the CLI's
    words), not the internal spec (`Img2colSpec (effective values)`, `TransposeSpec{...}`)."""
    _, _, _, rep = named_load3d()
    head = rep.explain().splitlines()[0]
    assert ("LoadData3DParamsV2{padList=[1, 1, 1, 1], l1H=6, l1W=6, channelSize=16, kExtension=144, "
            "mExtension=16, kStartPt=0, mStartPt=0, strideW=1, strideH=1, filterW=3, filterH=3") in head
    assert "Spec" not in head and "effective values" not in head
    svg = str(rep.draw())
    assert "LoadData3DParamsV2" in svg and "kExtension = 144" in svg and "Img2colSpec" not in svg
    core = Core("a2")
    src = core.tensor("B1", "int8_t", 3072, data=np.arange(3072) % 128, name="weights")
    dst = core.tensor("B2", "int8_t", 3072, name="wT")
    t = core.load_data_with_transpose(dst, src, LoadData2dTransposeParams(0, 3, 1, 1, 0))
    text = t.explain()
    assert "LoadData2dTransposeParams{startIndex=0, repeatTimes=3, srcStride=1, dstGap=1" in text
    assert "TransposeSpec" not in text and "dst wT (L0B" in text and "src weights (L1" in text


def _doc_ext(k_ext: int, m_ext: int, k_start: int, m_start: int) -> int:
    """extConfig as LoadData_3D.md 表5 defines it (seed 001, line 153)."""
    return (m_start << 48) | (k_start << 32) | (m_ext << 16) | k_ext


def _doc_filter(sw: int, sh: int, fw: int, fh: int, dw: int, dh: int) -> int:
    """filterConfig as LoadData_3D.md 表5 defines it (seed 001, line 154)."""
    return (dh << 40) | (dw << 32) | (fh << 24) | (fw << 16) | (sh << 8) | sw


@pytest.mark.parametrize(("ext", "flt"), [
    ((144, 16, 0, 0), (1, 1, 3, 3, 1, 1)),
    ((0x1234, 0x0567, 0x0089, 0xABCD), (1, 2, 3, 4, 5, 6)),
    ((0xFFFF, 0, 0xFFFF, 0), (255, 0, 255, 0, 255, 0)),
])
def test_v2pro_words_decode_into_the_doc_fields(ext, flt):
    """Hand-packed words (the doc's formula) decode into exactly the fields packed; the properties agree."""
    p = LoadData3DParamsV2Pro(16, extConfig=_doc_ext(*ext), filterConfig=_doc_filter(*flt))
    d = p.packed()
    assert d["extConfig"] == dict(zip(("kExtension", "mExtension", "kStartPt", "mStartPt"), ext, strict=True))
    assert d["filterConfig"] == dict(zip(("strideW", "strideH", "filterW", "filterH", "dilationFilterW",
                                          "dilationFilterH"), flt, strict=True))
    assert [p.kExtension, p.mExtension, p.kStartPt, p.mStartPt] == list(ext)
    assert LoadData3DParamsV2Pro.pack_ext(*ext) == _doc_ext(*ext)
    assert LoadData3DParamsV2Pro.pack_filter(*flt) == _doc_filter(*flt)


def test_v2pro_call_shows_its_decoded_words():
    """The issue's extConfig = 1048720 (= 16 << 16 | 144) is shown with its fields (report and scenario)."""
    run = run_scenario(load_scenario(EXAMPLES / "load3d_v2pro_repeat.toml"))
    want = "extConfig=1048720 (kExtension=144, mExtension=16, kStartPt=0, mStartPt=0)"
    assert want in run.results[3].report.explain().splitlines()[0]
    assert want in step(run, 3).explain().splitlines()[0]
    assert "filterW=3, filterH=3" in step(run, 3).explain().splitlines()[0]
    svg = str(step(run, 3).draw(region="0"))
    assert "extConfig = 1048720" in svg and "    .kExtension = 144" in svg and "    .mExtension = 16" in svg
    assert "    .filterW = 3" in svg


def test_draw_and_explain_return_display_objects(tmp_path):
    """draw() is a Drawing: the SVG text as a str (what it returned before), a short repr, the picture
    inline in _repr_html_ (no XML prolog), .save(.svg | .png); explain() an Explanation whose repr is its
    text; out= still writes the file and returns its path."""
    _, _, _, rep = named_load3d()
    d = rep.draw(region="0-1")
    assert isinstance(d, str) and str(d).lstrip().startswith("<?xml") and "</svg>" in d
    assert len(repr(d)) < 200 and "Drawing" in repr(d)
    page = d._repr_html_()
    assert page.count("<svg") == 1 and "<?xml" not in page and "<!DOCTYPE" not in page
    assert d.save(tmp_path / "a.svg").read_text() == str(d)
    png = d.save(tmp_path / "a.png").read_bytes()
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    with pytest.raises(AscsimError, match="must end in .svg or .png"):
        d.save(tmp_path / "a.jpg")
    assert rep.draw(tmp_path / "b.svg", region="0-1") == tmp_path / "b.svg"
    e = rep.explain(dst=37)
    assert isinstance(e, str) and repr(e) == str(e) and "dst[37]" in e


def test_history_and_scenario_steps_show_pictures():
    core = Core("a2")
    core.history = History()
    named_load3d(core)
    page = core.history[0]._repr_html_()
    assert "<svg" in page and "destination col" in page and "history call 0" in page
    run = run_scenario(load_scenario(EXAMPLES / "load3d_v2_basic.toml"))
    assert "<svg" in step(run, 0)._repr_html_()
    mm = run_scenario(load_scenario(EXAMPLES / "matmul.toml"))
    i = next(r.step.index for r in mm.results if r.step.call == "Mmad")
    assert "<svg" not in mm.results[i].report._repr_html_() and "Mmad" in mm.results[i].report._repr_html_()


def test_drawing_options_are_keyword_checked():
    """Every draw option is a named keyword: a typo is Python's TypeError naming it (before, **kw dropped
    it silently); a bad labels value is refused with did-you-mean before the picture is built."""
    core, _, _, rep = named_load3d()
    core.history = History()
    rep2 = core.load_data(core.tensor("A2", "half", 2304, offset=0), core.tensor("A1", "half", 576), STEM)
    run = run_scenario(load_scenario(EXAMPLES / "load3d_v2_basic.toml"))
    for draw in (rep.draw, core.history[0].draw, step(run, 0).draw, rep2.draw):
        with pytest.raises(TypeError, match="unexpected keyword argument 'lables'"):
            draw(lables="value")
    for explain in (rep.explain, core.history[0].explain):
        with pytest.raises(TypeError, match="unexpected keyword argument 'fractl'"):
            explain(fractl=1)
    with pytest.raises(AscsimError, match=r"labels must be .* but got 'valeu' \(did you mean 'value'\?\)"):
        rep.draw(labels="valeu")
    assert list(inspect.signature(rep.draw).parameters) == ["out", "region", "labels", "focus", "cumulative",
                                                            "src_layout", "src_shape"]


def _bad_load3d():
    core, fmap, col, _ = named_load3d()
    core.load_data(col, fmap, LoadData3DParamsV2([1, 1, 1, 1], 6, 6, 16, 160, 16, 0, 0, 1, 1, 3, 3, 1, 1))


def test_refusal_traceback_ends_at_the_users_line(monkeypatch):
    """A refused call raised from a public entry carries only the caller's frames (here: this file's);
    ASCSIM_TRACEBACK=full keeps ascsim's frames."""
    monkeypatch.delenv("ASCSIM_TRACEBACK", raising=False)
    core, fmap, col, _ = named_load3d()
    bad = LoadData3DParamsV2([1, 1, 1, 1], 6, 6, 16, 160, 16, 0, 0, 1, 1, 3, 3, 1, 1)
    calls = [lambda: core.load_data(col, fmap, bad), lambda: ascendc.LoadData(col, fmap, bad),
             lambda: core.run([(core.load_data, col, fmap, bad)]), lambda: core.tensor("A2", "hlaf", 16),
             lambda: Core("a22"), lambda: core.load_data(col, fmap, STEM).draw(region="99")]
    for call in calls:
        with pytest.raises(AscsimError) as e:
            call()
        frames = traceback.extract_tb(e.value.__traceback__)
        assert 1 <= len(frames) <= 2 and all(f.filename == __file__ for f in frames), frames
    with pytest.raises(AscsimError) as e:
        _bad_load3d()
    frames = traceback.extract_tb(e.value.__traceback__)
    assert [f.name for f in frames] == ["test_refusal_traceback_ends_at_the_users_line", "_bad_load3d"]
    monkeypatch.setenv("ASCSIM_TRACEBACK", "full")
    with pytest.raises(AscsimError) as e:
        _bad_load3d()
    frames = traceback.extract_tb(e.value.__traceback__)
    inside = [f for f in frames if "/ascsim/" in f.filename.replace("\\", "/")
              or f.filename.startswith("<ascsim")]
    assert len(frames) > 4 and len(inside) >= 3 and frames[1].name == "_bad_load3d"
