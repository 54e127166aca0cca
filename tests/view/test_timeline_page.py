"""The timeline's Gantt page in headless Chromium (DOM queries and real mouse events, tests/support/cdp.py):
one row per pipe per core, a bar per call whose hover names its source line, an arrow per flag from its
SetFlag to its WaitFlag. The stream is built by hand (two cores), so the expected rows, bars and arrows are
counted from it, not from the page."""

from __future__ import annotations

import json
import math

import pytest
from support.cdp import browser_session
from support.paths import EXAMPLES, SRC
from support.trace_events import check_trace

from ascsim.base.errors import AscsimError
from ascsim.engine.timeline import Barrier, Instr, SetFlag, WaitFlag
from ascsim.isa.table import pipe_of
from ascsim.scenario import load_scenario, run_scenario, tomllib  # tomllib: stdlib on 3.11+, tomli on 3.10
from ascsim.view.timeline import timeline_of

CORE0 = [Instr("MTE2", "DataCopy", "GM->L1", nbytes=8192, where="k.cpp:10"),
         SetFlag("MTE2_MTE1", 0, "k.cpp:11"), WaitFlag("MTE2_MTE1", 0, "k.cpp:12"),
         Instr("MTE1", "LoadData", "L1->L0A", nbytes=4096, where="k.cpp:13"),
         SetFlag("MTE1_M", 0, "k.cpp:14"), WaitFlag("MTE1_M", 0, "k.cpp:15"),
         Instr("M", "Mmad", shape=(64, 64, 64), dtype="half", where="k.cpp:16"),
         SetFlag("M_FIX", 0, "k.cpp:17"), WaitFlag("M_FIX", 0, "k.cpp:18"),
         Instr("FIX", "Fixpipe", "L0C->GM", nbytes=16384, where="k.cpp:19"), Barrier("ALL", "k.cpp:20")]
CORE1 = [Instr("MTE2", "DataCopy", "GM->L1", nbytes=4096, where="k.cpp:10"), Barrier("ALL", "k.cpp:21")]
PIPES = ["S", "MTE2", "MTE1", "M", "FIX"]


@pytest.fixture(scope="module")
def tl():
    return timeline_of({0: CORE0, 1: CORE1}, "a2", title="hand-built")


@pytest.fixture(scope="module")
def browser():
    yield from browser_session(pytest.skip)


def test_rows_bars_and_arrows(tmp_path, browser, tl) -> None:
    page = tl.save(tmp_path / "timeline.html")
    browser.open(page.as_uri())
    rows = browser.eval("Array.from(document.querySelectorAll('g.row')).map(g => g.dataset.core + ':' + "
                        "g.dataset.pipe)")
    assert rows == [f"{c}:{p}" for c in (0, 1) for p in PIPES]
    bars = browser.eval("Array.from(document.querySelectorAll('rect.bar')).map(r => r.dataset.where)")
    calls = [e.where for stream in (CORE0, CORE1) for e in stream if isinstance(e, (Instr, Barrier))]
    assert bars == calls
    arrows = browser.eval("Array.from(document.querySelectorAll('line.flag')).map(l => l.dataset.flag + ' ' "
                          "+ l.dataset.setter + ' ' + l.dataset.waiter)")
    assert arrows == ["MTE2_MTE1(0) k.cpp:11 k.cpp:12", "MTE1_M(0) k.cpp:14 k.cpp:15",
                      "M_FIX(0) k.cpp:17 k.cpp:18"]
    # an arrow goes from its SetFlag's row to its WaitFlag's row, forward in time
    geo = browser.eval("Array.from(document.querySelectorAll('line.flag')).map(l => [l.x1.baseVal.value, "
                       "l.y1.baseVal.value, l.x2.baseVal.value, l.y2.baseVal.value])")
    for x1, y1, x2, y2 in geo:
        assert x2 >= x1 and y2 > y1  # MTE2 above MTE1 above M above FIX


def test_hovering_a_bar_shows_its_call_and_source_line(tmp_path, browser, tl) -> None:
    page = tl.save(tmp_path / "timeline.html")
    browser.open(page.as_uri())
    for where, call in (("k.cpp:16", "Mmad"), ("k.cpp:19", "Fixpipe L0C->GM")):
        xy = browser.eval(f"(() => {{ const r = document.querySelector('rect.bar[data-where=\"{where}\"]')"
                          ".getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2]; })()")
        browser.move_mouse(*xy)
        tip = browser.eval("document.getElementById('tip').textContent")
        assert where in tip and call in tip, tip
        assert browser.eval("getComputedStyle(document.getElementById('tip')).display") == "block"
    fix = browser.eval("document.querySelector('rect.bar[data-where=\"k.cpp:19\"]').dataset.bytes")
    assert fix == "16384"


def test_the_summary_table_and_the_standalone_svg(tmp_path, browser, tl) -> None:
    page = tl.save(tmp_path / "timeline.html")
    browser.open(page.as_uri())
    pipes = browser.eval("Array.from(document.querySelectorAll('table.pipes tr[data-pipe]')).map(r => "
                         "r.dataset.pipe)")
    assert pipes == PIPES
    assert browser.eval("document.querySelector('.total').textContent") == f"{tl.total:,.1f}"
    svg = tl.save(tmp_path / "timeline.svg")
    browser.open(svg.as_uri())
    titles = browser.eval("Array.from(document.querySelectorAll('rect.bar title')).map(t => t.textContent)")
    assert any("k.cpp:16" in t and "Mmad" in t for t in titles)


def test_the_notebook_repr_and_the_trace(tmp_path, tl) -> None:
    html = tl._repr_html_()
    assert "<svg" in html and "table class='pipes'" in html and "Critical path" in html
    doc = json.loads(tl.save(tmp_path / "trace.json").read_text(encoding="utf-8"))
    check_trace(doc)
    assert {e["pid"] for e in doc["traceEvents"] if e["ph"] == "X"} == {0, 1}
    fix = next(e for e in doc["traceEvents"] if e["ph"] == "X" and e["name"] == "Fixpipe")
    # its duration: latency + bytes / bandwidth of the a2 table's L0C->GM, in microseconds at its clock
    m = tl.model
    assert fix["dur"] == pytest.approx(round((m.path("L0C->GM").latency_cycles + 16384 /
                                               m.path("L0C->GM").bytes_per_cycle) / m.clock_mhz, 6))
    assert fix["args"]["bytes"] == 16384 and fix["args"]["source"] == "k.cpp:19"


def test_a_bad_output_name_is_refused(tmp_path, tl) -> None:
    with pytest.raises(AscsimError, match=r"\.json"):
        tl.save(tmp_path / "timeline.png")
    with pytest.raises(AscsimError, match="cannot write"):
        tl.save(tmp_path / "no" / "such" / "dir" / "t.json")


def test_a_scenario_runs_its_steps_one_after_another() -> None:
    """examples/matmul.toml through ScenarioRun.timeline(): each step then a PIPE_ALL, so the total is the
    sum over the steps of (its modelled time + barrier_cycles), each step's time computed here from the
    a2 table's TOML and the step's report (bytes) or params (Mmad m, k, n)."""
    run = run_scenario(load_scenario(EXAMPLES / "matmul.toml"))
    raw = tomllib.loads((SRC / "ascsim" / "machine" / "cost_models" / "a2.toml").read_text(encoding="utf-8"))
    want = 0.0
    for r in run.results:
        rep = r.report
        if rep is None or pipe_of(r.step.call, rep.writes[0][0] if rep.writes else None,
                                  rep.reads[0][0] if rep.reads else None, "a2") is None:
            continue
        if r.step.call == "Mmad":
            p = r.step.raw["params"]
            t = raw["mmad"]["latency_cycles"] + math.ceil(p["m"] / 16) * math.ceil(p["k"] / 16) * math.ceil(
                p["n"] / 16)
        else:
            path = raw["path"][f"{rep.reads[0][0]}->{rep.writes[0][0]}"]
            t = path["latency_cycles"] + max(rep.bytes_written, rep.bytes_read) / path["bytes_per_cycle"]
        want += t + raw["sync"]["barrier_cycles"]
    tl = run.timeline()
    assert tl.total == pytest.approx(want)
    assert [w.flag for w in tl.waits if w.pipe == "S"]  # the scalar unit waits at each PIPE_ALL
