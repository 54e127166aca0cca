"""`ascsim explore`: the page is loaded in headless Chromium (Debian's package; .ci/run installs it) and
driven with real mouse events (Chrome DevTools Protocol, tests/support/cdp.py); what the page shows is read
back from its DOM and compared with readings taken here by other paths:

* registers per step: the scenario run in Python up to that step (`run_scenario(upto=N)`, what
  `ascsim draw --step N` does), and the values written in the scenario file;
* numbering: `ascsim run`'s per-step summary lines;
* hover both ways: `explain.provenance` for every destination element (a separate code path from the
  page's precomputed arrays) and the picture's panel geometry (`Panel.locate`);
* zoom / pan / region: the SVG viewBox, the fractals the region holds, the labels drawn for its cells.

Skipped only where no Chromium executable exists."""

from __future__ import annotations

import json
import re

import numpy as np
import pytest
from support.cdp import browser_session
from support.paths import EXAMPLES

from ascsim.cli import main
from ascsim.scenario import load_scenario, run_scenario
from ascsim.view.draw import _dst_panel, _src_panel, build_picture, drawn_fractals, groups_of
from ascsim.view.explain import describe, provenance, step_view
from ascsim.view.explore import MAX_LINES

SHIFT = 8  # CDP modifier bit


@pytest.fixture(scope="module")
def browser():
    yield from browser_session(pytest.skip)


def _page(tmp_path, example: str) -> str:
    out = tmp_path / f"{example}.html"
    assert main(["explore", str(EXAMPLES / f"{example}.toml"), "-o", str(out)]) == 0
    return out.as_uri()


def _text(browser, id_: str) -> str:
    return browser.eval(f"document.getElementById({id_!r}).textContent")


def _overview(example: str, step: int):
    """The run up to `step` and the page's picture of it (the whole destination, as `draw --region all`)."""
    run = run_scenario(load_scenario(EXAMPLES / f"{example}.toml"), upto=step)
    view = step_view(run, step)
    return run, build_picture(view, region="all")


# -- (a) the state shown is the state of that step -----------------------------------------------------------


def test_registers_are_those_of_each_step(tmp_path, browser):
    """Regression (issue 19): every step showed the registers at the end of the run (step 0 of conv2d.toml
    showed step 1's FMATRIX l1H=1, l1W=144). Each step must show the FMATRIX it ran with: the values of the
    run stopped at that step, which are the file's own l1H/l1W for these two Load3D v2 steps (6 x 6 image,
    then the 1 x 144 weights)."""
    sc = load_scenario(EXAMPLES / "conv2d.toml")
    browser.open(_page(tmp_path, "conv2d"))
    for step, from_file in ((0, (6, 6)), (1, (1, 144))):
        fm = run_scenario(sc, upto=step).core.regs.fmatrix_left
        assert (fm.l1H, fm.l1W) == from_file == (sc.steps[step].raw["params"]["l1H"],
                                                 sc.steps[step].raw["params"]["l1W"])
        browser.eval(f"document.querySelector('#steps li[data-step=\"{step}\"]').click()")
        side = _text(browser, "side")
        assert re.search(rf"fmatrix_left: l1H={fm.l1H}, l1W={fm.l1W},", side), side
        # the picture's own register block says the same (matplotlib writes SVG text as text)
        svg = browser.eval("document.querySelector('#pic svg').outerHTML")
        assert f"l1H={fm.l1H}, l1W={fm.l1W}" in svg
    browser.eval("document.querySelector('#steps li[data-step=\"3\"]').click()")  # after the run: step 1's
    assert "fmatrix_left: l1H=1, l1W=144," in _text(browser, "side")


def test_memories_listed_are_those_the_step_touched(tmp_path, browser):
    """Step 2 (Mmad) has no picture but lists what it read (l0a, l0b) and wrote (l0c), and its registers."""
    browser.open(_page(tmp_path, "conv2d"))
    browser.eval("document.querySelector('#steps li[data-step=\"2\"]').click()")
    side = _text(browser, "side")
    reads = side.split("memories read:")[1].split("memories written:")[0]
    writes = side.split("memories written:")[1].split("registers after step 2:")[0]
    assert re.search(r"L0A 0x0000-.*: l0a", reads) and re.search(r"L0B 0x0000-.*: l0b", reads)
    assert re.search(r"L0C 0x0000-.*: l0c", writes) and "l0a" not in writes
    assert browser.eval("document.querySelectorAll('#pic svg').length") == 0
    assert "Mmad" in _text(browser, "nopic")


# -- (b) numbering as the CLI's ------------------------------------------------------------------------------


@pytest.mark.parametrize("example", ["conv2d", "load3d_stem_224"])
def test_steps_and_numbering_match_ascsim_run(tmp_path, browser, capsys, example):
    assert main(["run", str(EXAMPLES / f"{example}.toml"), "--out", str(tmp_path)]) == 0
    cli = [ln for ln in capsys.readouterr().out.splitlines() if re.match(r"\[\d+\] ", ln)]
    browser.open(_page(tmp_path, example))
    items = browser.eval("[...document.querySelectorAll('#steps li')].map(li => [li.dataset.step, "
                         "li.textContent])")
    assert [int(n) for n, _ in items] == list(range(len(cli)))
    assert [t for _, t in items] == cli
    for n in range(len(cli)):
        browser.eval(f"document.querySelectorAll('#steps li')[{n}].click()")
        name = _text(browser, "stepname")
        assert name.startswith(f"step {n}: ") and f"({len(cli)} steps: 0-{len(cli) - 1})" in name
        assert "call " not in name
        assert browser.eval("document.querySelector('#steps li.cur').dataset.step") == str(n)
    browser.eval("document.querySelectorAll('#steps li')[0].click()")  # the arrow keys walk the list
    browser.eval("document.dispatchEvent(new KeyboardEvent('keydown', {key: 'ArrowRight'}))")
    assert browser.eval("document.querySelector('#steps li.cur').dataset.step") == str(min(1, len(cli) - 1))


# -- (c) zoom, pan, region -----------------------------------------------------------------------------------


def _viewbox(browser) -> list[float]:
    return [float(v) for v in browser.eval("document.querySelector('#pic svg').getAttribute('viewBox')")
            .split()]


def test_zoom_pan_and_reset(tmp_path, browser):
    browser.open(_page(tmp_path, "load3d_stem_224"))
    full = _viewbox(browser)
    r = browser.eval("(() => { const r = document.getElementById('view').getBoundingClientRect();"
                     " return [r.left + r.width / 2, r.top + r.height / 2]; })()")
    browser.mouse("mouseWheel", *r, deltaX=0, deltaY=-100)  # wheel up: zoom in about the pointer
    z = _viewbox(browser)
    assert z[2] == pytest.approx(full[2] / 1.25) and z[3] == pytest.approx(full[3] / 1.25)
    under = browser.eval(f"(() => {{ const p = toSvg({r[0]}, {r[1]}); return [p.x, p.y]; }})()")
    browser.mouse("mouseWheel", *r, deltaX=0, deltaY=-100)
    after = browser.eval(f"(() => {{ const p = toSvg({r[0]}, {r[1]}); return [p.x, p.y]; }})()")
    z = _viewbox(browser)
    scale = browser.eval("document.querySelector('#pic svg').getScreenCTM().a")
    assert after == pytest.approx(under, abs=1 / scale)  # the point under the pointer stays (within 1 px)
    browser.drag(r, (r[0] + 100, r[1] + 40))  # drag right/down: the view moves left/up in picture units
    p = _viewbox(browser)
    assert p[0] == pytest.approx(z[0] - 100 / scale, rel=1e-3) and p[1] == pytest.approx(z[1] - 40 / scale,
                                                                                          rel=1e-3)
    assert p[2:] == pytest.approx(z[2:])
    browser.eval("document.getElementById('zout').click()")
    assert _viewbox(browser)[2] == pytest.approx(p[2] * 1.5)
    browser.eval("document.getElementById('reset').click()")
    assert _viewbox(browser) == pytest.approx(full)
    browser.eval("document.dispatchEvent(new KeyboardEvent('keydown', {key: '+'}))")
    assert _viewbox(browser)[2] == pytest.approx(full[2] / 1.5)
    browser.eval("document.dispatchEvent(new KeyboardEvent('keydown', {key: '0'}))")
    assert _viewbox(browser) == pytest.approx(full)


def test_overview_thumbnail_moves_the_view(tmp_path, browser):
    """The thumbnail holds the whole picture; a click on it centres the view there, and its box is what the
    view shows (it shrinks as the view zooms in)."""
    browser.open(_page(tmp_path, "load3d_stem_224"))
    browser.eval("document.getElementById('zin').click(); document.getElementById('zin').click()")
    full = json.loads(browser.eval("JSON.stringify(full)"))
    m = browser.eval("(() => { const r = document.getElementById('mini').getBoundingClientRect();"
                     " return [r.left, r.top, r.width, r.height]; })()")
    assert m[3] == pytest.approx(m[2] * full[3] / full[2], abs=2)  # the whole picture, to scale
    fx, fy = 0.7, 0.4
    browser.mouse("mousePressed", m[0] + fx * m[2], m[1] + fy * m[3], button="left", buttons=1, clickCount=1)
    browser.mouse("mouseReleased", m[0] + fx * m[2], m[1] + fy * m[3], button="left", buttons=0, clickCount=1)
    vb = _viewbox(browser)
    k = full[2] / m[2]  # picture units per thumbnail pixel
    assert vb[0] + vb[2] / 2 == pytest.approx(fx * full[2], abs=k) and vb[1] + vb[3] / 2 == pytest.approx(
        fy * m[3] * k, abs=k)
    box = browser.eval("(() => { const b = document.getElementById('minibox').getBoundingClientRect();"
                       " return [b.width, b.height]; })()")
    shown = browser.eval("(() => { const r = document.getElementById('view').getBoundingClientRect();"
                         " return [toSvg(r.right, r.bottom).x - toSvg(r.left, r.top).x]; })()")[0]
    assert box[0] == pytest.approx(shown / k, abs=2)
    browser.eval("document.getElementById('zin').click()")
    assert browser.eval("document.getElementById('minibox').getBoundingClientRect().width") == pytest.approx(
        box[0] / 1.5, abs=2)


def _fractal_cells(pic, f: int):
    """Destination elements of fractal f that the picture draws, and their (col, row) cells."""
    fe = pic.view.frac_elems
    elems = np.arange(f * fe, (f + 1) * fe)
    x, y, ok = pic.rows[0][1].locate(elems)
    return elems[ok], x[ok], y[ok]


def _check_region(browser, run, pic, fractals: list[int]) -> None:
    """The page says it shows these fractals, the view covers their cells, and every element of them that
    reads the source carries its source (h, w) label as `explain` gives it."""
    assert browser.eval("document.querySelector('#pic svg').dataset.region") == ",".join(map(str, fractals))
    vb = _viewbox(browser)
    dst = json.loads(browser.eval("JSON.stringify(STEPS[cur].pic.dst)"))
    labels = dict(browser.eval("[...document.querySelectorAll('#labels text[data-side=dst]')]"
                               ".map(t => [t.dataset.e, t.textContent])"))
    want = []
    for f in fractals:
        elems, x, y = _fractal_cells(pic, f)
        assert (dst["x"] + x.min() * dst["cell"] >= vb[0] - 1e-6
                and dst["x"] + (x.max() + 1) * dst["cell"] <= vb[0] + vb[2] + 1e-6)
        assert (dst["y"] + y.min() * dst["cell"] >= vb[1] - 1e-6
                and dst["y"] + (y.max() + 1) * dst["cell"] <= vb[1] + vb[3] + 1e-6)
        want += elems.tolist()
    read = [d for d in provenance(run, 0, want) if d["status"] == "read"]
    assert read, "choose fractals that read the image"
    for d in read:
        assert labels.get(str(d["dst_index"])) == f"{d['h']},{d['w']}", d["dst_index"]


def test_region_by_rectangle_and_by_range(tmp_path, browser):
    """The 224 x 224 stem opens on all 104 fractals; a shift-drag over fractal 45's cells (corner to
    corner) selects fractal 45 and zooms to it with its labels; typing 46-47 selects those."""
    run, pic = _overview("load3d_stem_224", 0)
    browser.open(_page(tmp_path, "load3d_stem_224"))
    assert len(drawn_fractals(pic.g)) == 104
    elems, x, y = _fractal_cells(pic, 45)
    first = elems[np.lexsort((x, y))[0]]
    last = elems[np.lexsort((-x, -y))[0]]
    a, b = browser.eval(f"window.ascsimCell({int(first)})"), browser.eval(f"window.ascsimCell({int(last)})")
    browser.drag(a, b, modifiers=SHIFT)
    _check_region(browser, run, pic, [45])
    browser.eval("document.getElementById('rfrom').value = 46; document.getElementById('rto').value = 47;"
                 " document.getElementById('rshow').click()")
    _check_region(browser, run, pic, [46, 47])
    assert "fractals 46-47 (2)" in _text(browser, "region")


# -- (d) reverse hover: a source cell -> every destination element that read it ----------------------------


def _outlined(browser) -> list[tuple[int, int]]:
    return [tuple(int(v) for v in cr) for cr in browser.eval(
        "[...document.querySelectorAll('#hl-rev rect')].map(r => [r.dataset.col, r.dataset.row])")]


@pytest.mark.parametrize("example", [
    "load3d_stem_224",    # img2col: one image pixel feeds many (m, k) places
    "load3d_v2_basic",
    "transpose_int8_a2",  # a transpose: one reader each
])
def test_reverse_hover_outlines_every_reader(tmp_path, browser, example):
    """Hover the source cell read by the first, a middle and the last reading destination element."""
    run, pic = _overview(example, 0)
    src_p, dst_p = pic.rows[0]
    n_dst = pic.view.n_dst
    prov = provenance(run, 0, list(range(n_dst)))
    reads = np.array([d["src_index"] if d["status"] == "read" else -1 for d in prov])
    browser.open(_page(tmp_path, example))
    reading = np.flatnonzero(reads >= 0)
    for e in reading[[0, reading.size // 2, -1]]:
        s = int(reads[e])
        (cx,), (cy,), _ = src_p.locate(np.array([s]))
        # a cell can stand for several source elements (a feature-map pixel of a channel group)
        cand = np.unique(reads[reads >= 0])
        sx, sy, ok = src_p.locate(cand)
        same = set(cand[ok & (sx == cx) & (sy == cy)].tolist())
        readers = {i for i in range(n_dst) if reads[i] in same}
        browser.move_mouse(*browser.eval(f"window.ascsimSrcCell({int(cx)}, {int(cy)})"))
        got = {int(dst_p.elements[r, c]) for c, r in _outlined(browser)}
        assert got == readers and len(_outlined(browser)) == len(readers)
        assert browser.eval("document.getElementById('info').dataset.count") == str(len(readers))
        assert f"read by {len(readers)} destination element" in _text(browser, "info")


# -- (e) destination -> source hover ------------------------------------------------------------------------


@pytest.mark.parametrize(("example", "step", "elements"), [
    ("load3d_v2_basic", 0, [0, 37, 200, 255]),        # img2col: pads and reads
    ("transpose_int8_a2", 0, [0, 1, 33, 511]),        # a transpose: the source cell moves across
    ("conv2d", 1, [0, 17, 2303]),                     # a later step of a run
])
def test_hover_highlights_source_and_explains(tmp_path, browser, example, step, elements):
    run, pic = _overview(example, step)
    src_panel = pic.rows[0][0]
    browser.open(_page(tmp_path, example))
    browser.eval(f"document.querySelector('#steps li[data-step=\"{step}\"]').click()")
    assert browser.eval("document.querySelectorAll('#pic svg').length") == 1
    for e in elements:
        xy = browser.eval(f"window.ascsimCell({e})")
        assert xy is not None, f"element {e} is not drawn"
        browser.move_mouse(*xy)
        d = provenance(run, step, [e])[0]
        assert _text(browser, "info") == describe(d)
        assert browser.eval("document.getElementById('info').dataset.element") == str(e)
        hl = browser.eval("(() => { const r = document.querySelector('#hl-dst');"
                          " return [r.dataset.col, r.dataset.row]; })()")
        x, y, ok = pic.rows[0][1].locate(np.array([e]))
        assert ok[0] and [int(v) for v in hl] == [int(x[0]), int(y[0])]
        src_hl = browser.eval("(() => { const r = document.querySelector('#hl-src'); return r && "
                              "r.style.display !== 'none' ? [r.dataset.col, r.dataset.row] : null; })()")
        if d["status"] == "read":
            sx, sy, sok = src_panel.locate(np.array([d["src_index"]]))
            assert sok[0] and [int(v) for v in src_hl] == [int(sx[0]), int(sy[0])]
        else:
            assert src_hl is None  # a pad reads nothing


# -- (f) the second row of a two-part instruction: the index / scale part ------------------------------------


def _hl(browser, id_: str) -> list[int] | None:
    """(col, row) of the outline `id_` (hl-dst / hl-src), None when hidden."""
    got = browser.eval(f"(() => {{ const r = document.querySelector('#{id_}'); return r && "
                       "r.style.display !== 'none' ? [r.dataset.col, r.dataset.row] : null; })()")
    return None if got is None else [int(v) for v in got]


@pytest.mark.parametrize(("example", "step", "part"), [
    ("sparse_matmul", 1, "index"),   # LoadDataWithSparse: 128-B index fractals -> the sparse index buffer
    ("mx_matmul", 0, "scales"),      # Load2DMX: scaleA -> L0A_MX
    ("mx_matmul", 1, "scales"),      # Load2DMX: scaleB -> L0B_MX
])
def test_second_row_hovers_both_ways(tmp_path, browser, example, step, part):
    """Hovering a destination cell of the second row outlines the source cell of the element
    `explain --part` names (explain.provenance with part=, located on the picture's second-row source panel)
    and shows its explain line; hovering a second-row source cell outlines exactly the destination elements
    whose provenance reads it."""
    run, pic = _overview(example, step)
    assert len(pic.rows) == 2
    src_p, dst_p = pic.rows[1]
    n_dst = step_view(run, step, part).n_dst
    prov = provenance(run, step, list(range(n_dst)), part=part)
    assert {d["part"] for d in prov} == {part}
    reads = np.array([d["src_index"] if d["status"] == "read" else -1 for d in prov])
    reading = np.flatnonzero(reads >= 0)
    assert reading.size
    browser.open(_page(tmp_path, example))
    browser.eval(f"document.querySelector('#steps li[data-step=\"{step}\"]').click()")
    for e in reading[[0, 1, reading.size // 2, -1]].tolist():
        browser.move_mouse(*browser.eval(f"window.ascsimCell({e}, 1)"))
        assert _text(browser, "info") == describe(prov[e])
        assert browser.eval("document.getElementById('info').dataset.part") == part
        x, y, ok = dst_p.locate(np.array([e]))
        assert ok[0] and _hl(browser, "hl-dst") == [int(x[0]), int(y[0])]
        sx, sy, sok = src_p.locate(np.array([reads[e]]))
        assert sok[0] and _hl(browser, "hl-src") == [int(sx[0]), int(sy[0])]
        # reverse: that source cell -> every destination element of this part that read an element drawn there
        cand = np.unique(reads[reading])
        cx, cy, cok = src_p.locate(cand)
        same = set(cand[cok & (cx == sx[0]) & (cy == sy[0])].tolist())
        readers = {i for i in range(n_dst) if reads[i] in same}
        browser.move_mouse(*browser.eval(f"window.ascsimSrcCell({int(sx[0])}, {int(sy[0])}, 1)"))
        got = _outlined(browser)
        assert {int(dst_p.elements[r, c]) for c, r in got} == readers and len(got) == len(readers)
        assert browser.eval("document.getElementById('info').dataset.count") == str(len(readers))
        assert _text(browser, "info").startswith(f"{part} source cell")
    # the first row still hovers as before (its element 0 and its own explain line)
    browser.move_mouse(*browser.eval("window.ascsimCell(0)"))
    assert browser.eval("document.getElementById('info').dataset.part") == "data"
    assert _text(browser, "info") == describe(provenance(run, step, [0])[0])


# -- (g) a compiled program's page ---------------------------------------------------------------------------


def test_program_page_loads_and_hovers(tmp_path, browser, capsys):
    """`ascsim explore matmul_pingpong.cpp` (the bindings of its header comment): the page loads without
    an uncaught exception or console error, lists one entry per call `ascsim run` prints, and hovering
    destination elements of call 4 (LoadDataWithTranspose) outlines the source cell of the element
    `ascsim explain --call 4 --dst I` names, located on the picture of the program's emitted scenario."""
    cpp = EXAMPLES / "matmul_pingpong.cpp"
    header = cpp.read_text().splitlines()
    cmd = next(ln for ln in header if ln.startswith("//   ascsim run ")).split()[4:]
    gm = [a.replace("c.npy", str(tmp_path / "c.npy")) for a in cmd]
    trace = tmp_path / "trace.toml"
    assert main(["run", str(cpp), *gm, "--emit-scenario", str(trace)]) == 0
    calls = [ln for ln in capsys.readouterr().out.splitlines() if re.match(r"\[\d+\] ", ln)]
    page = tmp_path / "p.html"
    assert main(["explore", str(cpp), *gm, "-o", str(page)]) == 0
    browser.open(page.as_uri())
    assert browser.errors == []
    assert browser.eval("document.querySelectorAll('#steps li').length") == len(calls) > 4
    browser.eval("document.querySelector('#steps li[data-step=\"4\"]').click()")
    assert _text(browser, "stepname").startswith("call 4: LoadDataWithTranspose")
    run = run_scenario(load_scenario(trace), upto=4)
    src_p = build_picture(step_view(run, 4), region="all").rows[0][0]
    for e in (0, 17, 300):
        assert main(["explain", str(cpp), "--call", "4", "--dst", str(e), *gm]) == 0
        line = next(ln for ln in capsys.readouterr().out.splitlines() if ln.startswith(f"dst[{e}] "))
        s = int(re.search(r"<- b1\[(\d+)\]", line).group(1))
        browser.move_mouse(*browser.eval(f"window.ascsimCell({e})"))
        assert _text(browser, "info") == line
        sx, sy, ok = src_p.locate(np.array([s]))
        assert ok[0] and _hl(browser, "hl-src") == [int(sx[0]), int(sy[0])]
    assert browser.errors == []
    # the listener does hear an error: one thrown on purpose after the checks
    browser.eval("setTimeout(() => { throw new Error('ascsim-probe'); }, 0)")
    browser.eval("new Promise((ok) => setTimeout(ok, 50))")
    browser.eval("1")
    assert any("ascsim-probe" in json.dumps(x) for x in browser.errors)


# -- the page itself ----------------------------------------------------------------------------------------


def test_page_is_self_contained(tmp_path):
    """No network: no external scripts, stylesheets or images."""
    out = tmp_path / "p.html"
    assert main(["explore", str(EXAMPLES / "load3d_v2_basic.toml"), "-o", str(out)]) == 0
    text = out.read_text()
    assert not re.search(r"""(src|href)\s*=\s*["']?(https?:|//)|url\(\s*["']?https?:|<link|import\(""", text)


def test_page_size_is_bounded(tmp_path):
    """The 224 x 224 stem (25,088 elements written) keeps at most MAX_LINES explain lines and stays under
    3 MB (measured 1.6 MB)."""
    out = tmp_path / "stem.html"
    assert main(["explore", str(EXAMPLES / "load3d_stem_224.toml"), "-o", str(out)]) == 0
    text = out.read_text()
    steps = json.loads(re.search(r"const STEPS = (.*);\n", text).group(1))
    assert len(steps[0]["pic"]["lines"]) == MAX_LINES
    assert out.stat().st_size < 3_000_000


def test_bad_output_name_is_one_line(tmp_path, capsys):
    assert main(["explore", str(EXAMPLES / "conv2d.toml"), "-o", str(tmp_path / "page.txt")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "must end in .html" in err
    assert not (tmp_path / "page.txt").exists()


def test_region_drawn_is_a_subset():
    run = run_scenario(load_scenario(EXAMPLES / "load3d_v2_basic.toml"))
    g = groups_of(step_view(run, 0))
    d = _dst_panel(g, drawn_fractals(g)[:2], "x", None, "")
    assert d.width == 2 * 16 + 1
    assert _src_panel(g, np.arange(512)) is not None
