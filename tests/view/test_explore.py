"""`ascsim explore`: the page is loaded in headless Chromium (Debian's package; .ci/run installs it), a real
mouse move over a destination element must outline that element and the source element it read, and show
the element's line from `explain` (computed here through `explain.provenance`, a separate code path from
the page's precomputed arrays). Skipped only where no Chromium executable exists."""

from __future__ import annotations

import numpy as np
import pytest
from support.cdp import Browser, find_chromium
from support.paths import EXAMPLES

from ascsim.cli import main
from ascsim.scenario import load_scenario, run_scenario
from ascsim.view.draw import _dst_panel, _src_panel, build_picture, drawn_fractals, groups_of
from ascsim.view.explain import describe, provenance, step_view

CHROMIUM = find_chromium()


@pytest.fixture(scope="module")
def browser():
    if CHROMIUM is None:
        pytest.skip("no Chromium executable on PATH (Debian: apt-get install chromium; .ci/run does it)")
    b = Browser(CHROMIUM)
    yield b
    b.close()


@pytest.mark.parametrize(("example", "elements"), [
    ("load3d_v2_basic", [0, 37, 200, 255]),        # img2col: pads and reads
    ("transpose_int8_a2", [0, 1, 33, 511]),        # a transpose: the source cell moves across
])
def test_hover_highlights_source_and_explains(tmp_path, browser, example, elements):
    path = EXAMPLES / f"{example}.toml"
    out = tmp_path / "page.html"
    assert main(["explore", str(path), "-o", str(out)]) == 0
    run = run_scenario(load_scenario(path))
    step = next(r.step.index for r in run.results if r.report is not None and r.report.plan is not None)
    view = step_view(run, step)
    pic = build_picture(view)  # the page's layout: the same picture `draw` makes
    src_panel = pic.rows[0][0]
    browser.open(out.as_uri())
    assert browser.eval("document.querySelectorAll('#pic svg').length") == 1
    for e in elements:
        xy = browser.eval(f"window.ascsimCell({e})")
        assert xy is not None, f"element {e} is not drawn"
        browser.move_mouse(*xy)
        shown = browser.eval("document.getElementById('info').textContent")
        d = provenance(run, step, [e])[0]
        assert shown == describe(d)
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


def test_step_navigation(tmp_path, browser):
    """conv2d.toml has several data-moving steps: the page shows one at a time, the buttons walk them."""
    out = tmp_path / "conv.html"
    assert main(["explore", str(EXAMPLES / "conv2d.toml"), "-o", str(out)]) == 0
    browser.open(out.as_uri())
    first = browser.eval("document.getElementById('stepname').textContent")
    browser.eval("document.getElementById('next').click()")
    second = browser.eval("document.getElementById('stepname').textContent")
    assert first != second and "2 of" in second
    assert "registers after the step" in browser.eval("document.getElementById('side').textContent")


def test_page_is_self_contained(tmp_path):
    """No network: no external scripts, stylesheets or images."""
    out = tmp_path / "p.html"
    assert main(["explore", str(EXAMPLES / "load3d_v2_basic.toml"), "-o", str(out)]) == 0
    text = out.read_text()
    import re

    assert not re.search(r"""(src|href)\s*=\s*["']?(https?:|//)|url\(\s*["']?https?:|<link|import\(""", text)


def test_region_drawn_is_a_subset():
    run = run_scenario(load_scenario(EXAMPLES / "load3d_v2_basic.toml"))
    g = groups_of(step_view(run, 0))
    d = _dst_panel(g, drawn_fractals(g)[:2], "x", None, "")
    assert d.width == 2 * 16 + 1
    assert _src_panel(g, np.arange(512)) is not None
