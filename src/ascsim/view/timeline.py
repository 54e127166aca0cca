"""The predicted pipe timeline, where people look: a Chrome trace-event file (Perfetto, chrome://tracing),
a self-contained SVG / HTML Gantt, and a `Timeline` that shows itself in a notebook.

    tl = run.timeline()                     # a ProgramRun or a ScenarioRun; cost_model= a path or dict
    tl.total, tl.total_us, tl.pipes["M"].busy, tl.critical_path, tl.waits
    tl.save("trace.json")                   # or .html / .svg

The times are the idealised cost model's (ascsim.machine.costs, ascsim.engine.timeline; docs/timeline.md),
never cycle-accurate.
"""

from __future__ import annotations

import html
import json
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from ..base.errors import AscsimError
from ..engine.sync import PipeCall, call_accesses
from ..engine.timeline import (
    PIPES,
    Barrier,
    Event,
    Instr,
    Item,
    PipeStats,
    Schedule,
    SetFlag,
    Wait,
    WaitFlag,
    instr_of_call,
    schedule,
)
from ..isa import table
from ..machine.chips import get_chip
from ..machine.costs import CostModel, cost_model
from ..scenario import run as _scenario_run

#: Bars a Gantt draws at most (beyond: the first ones, and a note; the trace file keeps them all).
MAX_BARS = 20_000

#: The colour of each pipe's bars.
COLOURS = {"S": "#888888", "MTE2": "#4e79a7", "MTE1": "#59a14f", "M": "#e15759", "FIX": "#f28e2b",
           "MTE3": "#76b7b2", "V": "#b07aa1"}


class Timeline:
    """A schedule with its chip and title: the numbers (`total` cycles, `total_us`, `pipes`, `waits`,
    `critical_path`, `items`) and its renderings (`trace`, `svg`, `html`, `save`)."""

    def __init__(self, sched: Schedule, title: str = "") -> None:
        self.schedule = sched
        self.model: CostModel = sched.model
        self.title = title

    # -- the numbers
    @property
    def total(self) -> float:
        """Total predicted cycles (the slowest core's)."""
        return self.schedule.total_cycles

    @property
    def total_us(self) -> float:
        return self.schedule.total_us

    @property
    def pipes(self) -> dict[str, PipeStats]:
        return self.schedule.pipes

    @property
    def waits(self) -> list[Wait]:
        return self.schedule.waits

    @property
    def critical_path(self) -> list[Item]:
        return self.schedule.critical_path

    @property
    def items(self) -> dict[int, list[Item]]:
        return self.schedule.items

    def used_pipes(self) -> list[str]:
        """The pipes any core used, in PIPES order (the cube core's main pipes always)."""
        used = {x.pipe for its in self.items.values() for x in its}
        return [p for p in PIPES if p in used or p in ("S", "MTE2", "MTE1", "M", "FIX")]

    def summary(self) -> str:
        """A few lines: total, per pipe busy / waiting / idle, the largest waits."""
        t = self.total or 1.0
        lines = [f"predicted: {self.total:,.1f} cycles = {self.total_us:,.3f} us at "
                 f"{self.model.clock_mhz:g} MHz ({self.model.origin}; an idealised model, docs/timeline.md)"]
        for p in self.used_pipes():
            st = self.pipes[p]
            lines.append(f"  {p:<5} busy {st.busy:>12,.1f} ({st.busy / t:6.1%})  waiting "
                         f"{st.waiting:>12,.1f} ({st.waiting / t:6.1%})  idle {st.idle:>12,.1f}")
        for w in top_waits(self.waits, 5):
            lines.append(f"  wait  {w.pipe} of core {w.core} {w.cycles:,.1f} cycles on {w.flag}: {w.waiter} "
                         f"for {w.setter}")
        return "\n".join(lines)

    def __repr__(self) -> str:
        return f"Timeline({self.title!r}, total={self.total:,.1f} cycles)"

    # -- renderings
    def trace(self) -> dict[str, Any]:
        return trace_events(self)

    def trace_json(self) -> str:
        """The trace as text: byte-identical for the same schedule (sorted keys, fixed rounding)."""
        return json.dumps(self.trace(), sort_keys=True, separators=(",", ":"), ensure_ascii=False) + "\n"

    def svg(self) -> str:
        return gantt_svg(self)

    def html(self) -> str:
        return page_html(self)

    def _repr_html_(self) -> str:
        return summary_html(self) + gantt_svg(self) + details_html(self)

    def save(self, path: str | Path) -> Path:
        """Write the trace (.json), the Gantt page (.html) or the Gantt picture (.svg)."""
        p = Path(path)
        suffix = p.suffix.lower()
        if suffix == ".json":
            text = self.trace_json()
        elif suffix in (".html", ".htm"):
            text = self.html()
        elif suffix == ".svg":
            text = self.svg()
        else:
            raise AscsimError(f"timeline: {p.name}: give a .json (Chrome trace), .html or .svg file")
        try:
            p.write_text(text, encoding="utf-8")
        except OSError as e:
            raise AscsimError(f"timeline: cannot write {p} ({e.strerror or e})") from None
        return p


def top_waits(waits: Sequence[Wait], n: int) -> list[Wait]:
    return sorted(waits, key=lambda w: (-w.cycles, w.core, w.start))[:n]


# -- building -----------------------------------------------------------------------------------------------
def _model(chip: str, model: CostModel | str | Path | Mapping[str, Any] | None) -> CostModel:
    if isinstance(model, CostModel):
        return model
    return cost_model(chip, override=model)


def timeline_of(streams: Mapping[int, Sequence[Event]], chip: str,
                model: CostModel | str | Path | Mapping[str, Any] | None = None, title: str = "") -> Timeline:
    """The timeline of per-core event streams (`model`: a CostModel, or an override of the chip's table)."""
    return Timeline(schedule(streams, _model(chip, model)), title)


def scenario_events(run: Any) -> list[Event]:
    """A scenario run's steps as a stream: each executed call, then a PipeBarrier<PIPE_ALL> — a scenario's
    steps run one after another (the C++ `ascsim cpp` writes puts PIPE_ALL after each, scenario/cpp.py)."""
    chip = get_chip(run.scenario.chip).key
    name = Path(run.scenario.path).name if run.scenario.path else "scenario"
    out: list[Event] = []
    for r in run.results:
        rep = r.report
        if rep is None:
            continue
        acc = call_accesses(rep, [], [])
        dst = next((a.memory for a in acc if a.write), None)
        src = next((a.memory for a in acc if not a.write), None)
        pipe = table.pipe_of(r.step.call, dst, src, chip)
        if pipe is None:
            continue
        where = f"{name} {r.step.line or f'steps[{r.step.index}]'}"
        # the struct the step's call was given (Core's methods record it on the report): a Mmad's m / k / n
        call = PipeCall(r.step.call, pipe, where, acc, rep.params, rep)
        out += [instr_of_call(call), Barrier("ALL", where)]
    return out


def scenario_timeline(run: Any, model: CostModel | str | Path | Mapping[str, Any] | None = None) -> Timeline:
    """The timeline of a ScenarioRun (ascsim.scenario.run)."""
    name = Path(run.scenario.path).name if run.scenario.path else "scenario"
    return timeline_of({0: scenario_events(run)}, run.scenario.chip, model, title=name)


# -- the trace-event file -----------------------------------------------------------------------------------
def _us(model: CostModel, cycles: float) -> float:
    return round(model.to_us(cycles), 6)


def _args(it: Item) -> dict[str, Any]:
    ev = it.event
    out: dict[str, Any] = {"call": it.label or it.kind, "source": it.where, "cycles": round(it.cycles, 3),
                           "start_cycle": round(it.start, 3)}
    if isinstance(ev, Instr):
        out["bytes"] = ev.nbytes
        if ev.path:
            out["path"] = ev.path
        if ev.shape:
            out["mkn"] = list(ev.shape)
            out["dtype"] = ev.dtype
    return out


def trace_events(tl: Timeline) -> dict[str, Any]:
    """The Chrome trace-event format ("Trace Event Format", the JSON Object Format): complete events "X"
    (pid = core, tid = pipe, ts / dur in microseconds), flow events "s" / "f" from each SetFlag to the
    WaitFlag it released, metadata "M" naming the processes and threads."""
    m = tl.model
    pipes = tl.used_pipes()
    tid = {p: i for i, p in enumerate(pipes)}
    events: list[dict[str, Any]] = []
    for core in sorted(tl.items):
        events.append({"ph": "M", "name": "process_name", "pid": core, "tid": 0,
                       "args": {"name": f"core {core}"}})
        events.append({"ph": "M", "name": "process_sort_index", "pid": core, "tid": 0,
                       "args": {"sort_index": core}})
        for p in pipes:
            events.append({"ph": "M", "name": "thread_name", "pid": core, "tid": tid[p],
                           "args": {"name": f"PIPE_{p}"}})
            events.append({"ph": "M", "name": "thread_sort_index", "pid": core, "tid": tid[p],
                           "args": {"sort_index": tid[p]}})
    flow = 0
    for core in sorted(tl.items):
        for it in tl.items[core]:
            events.append({"ph": "X", "name": it.kind, "cat": f"PIPE_{it.pipe}", "pid": core,
                           "tid": tid[it.pipe], "ts": _us(m, it.start), "dur": _us(m, it.cycles),
                           "args": _args(it)})
            src = it.setter
            if isinstance(it.event, WaitFlag) and src is not None:
                flow += 1
                name = f"{it.event.event}({it.event.id})"
                events.append({"ph": "s", "name": name, "cat": "flag", "id": flow, "pid": core,
                               "tid": tid[src.pipe], "ts": _us(m, src.end)})
                events.append({"ph": "f", "bp": "e", "name": name, "cat": "flag", "id": flow, "pid": core,
                               "tid": tid[it.pipe], "ts": _us(m, it.end)})
    return {"traceEvents": events, "displayTimeUnit": "ns",
            "otherData": {"tool": "ascsim timeline", "title": tl.title, "cost_model": m.origin,
                          "clock_mhz": m.clock_mhz, "total_cycles": round(tl.total, 3),
                          "note": "an idealised cost model, not cycle-accurate (docs/timeline.md)"}}


# -- the Gantt ----------------------------------------------------------------------------------------------
ROW_H, LABEL_W, WIDTH, TOP = 22, 120, 1200, 28


def _esc(s: Any) -> str:
    return html.escape(str(s), quote=True)


def _hover(it: Item) -> str:
    a = _args(it)
    parts = [f"{a['call']}", f"{a['source'] or '?'}", f"core {it.core} PIPE_{it.pipe}",
             f"cycles {it.start:,.1f} - {it.end:,.1f} ({it.cycles:,.1f})"]
    if "bytes" in a and a["bytes"]:
        parts.append(f"{a['bytes']:,} bytes")
    return " | ".join(parts)


def gantt_svg(tl: Timeline) -> str:
    """One row per pipe per core; a bar per instruction (and barrier), its <title> and data attributes the
    call, source line and bytes; a line from each SetFlag to the WaitFlag it released."""
    pipes = tl.used_pipes()
    cores = sorted(tl.items)
    rows = {(c, p): i for i, (c, p) in enumerate((c, p) for c in cores for p in pipes)}
    height = TOP + ROW_H * len(rows) + 30
    span = tl.total or 1.0
    scale = (WIDTH - LABEL_W - 10) / span

    def x(t: float) -> float:
        return round(LABEL_W + t * scale, 2)

    def y(core: int, pipe: str) -> float:
        return TOP + ROW_H * rows[(core, pipe)]

    out = [f'<svg xmlns="http://www.w3.org/2000/svg" class="ascsim-timeline" width="{WIDTH}" '
           f'height="{height}" viewBox="0 0 {WIDTH} {height}" font-family="sans-serif" font-size="11">',
           '<defs><marker id="arrow" viewBox="0 0 6 6" refX="6" refY="3" markerWidth="6" markerHeight="6" '
           'orient="auto"><path d="M0,0 L6,3 L0,6 z" fill="#333"/></marker></defs>',
           f'<text x="4" y="16" font-weight="bold">{_esc(tl.title)} — {tl.total:,.1f} cycles '
           f'({tl.total_us:,.3f} us), idealised model</text>']
    axis_y = TOP + ROW_H * len(rows)
    for k in range(6):  # a cycle axis under the rows
        t = span * k / 5
        out.append(f'<g class="tick"><line x1="{x(t)}" y1="{TOP}" x2="{x(t)}" y2="{axis_y + 4}" '
                   'stroke="#ddd"/>'
                   f'<text x="{x(t)}" y="{axis_y + 16}" text-anchor="{"end" if k == 5 else "middle"}">'
                   f'{t:,.0f}</text></g>')
    out.append(f'<text x="4" y="{axis_y + 16}">cycles</text>')
    for (c, p), i in rows.items():
        yy = TOP + ROW_H * i
        out.append(f'<g class="row" data-core="{c}" data-pipe="{p}"><rect x="0" y="{yy}" width="{WIDTH}" '
                   f'height="{ROW_H}" fill="{"#f7f7f7" if i % 2 else "#ffffff"}"/>'
                   f'<text x="4" y="{yy + 15}">core {c} PIPE_{p}</text></g>')
    drawn = 0
    arrows = []
    for c in cores:
        for it in tl.items[c]:
            if drawn >= MAX_BARS:
                break
            ev = it.event
            if isinstance(ev, (SetFlag, WaitFlag)):
                if isinstance(ev, WaitFlag) and it.setter is not None:
                    s = it.setter
                    arrows.append(
                        f'<line class="flag" data-flag="{_esc(ev.event)}({_esc(ev.id)})" '
                        f'data-setter="{_esc(s.where)}" data-waiter="{_esc(it.where)}" x1="{x(s.end)}" '
                        f'y1="{y(c, s.pipe) + ROW_H / 2}" x2="{x(it.end)}" y2="{y(c, it.pipe) + ROW_H / 2}" '
                        f'stroke="#333" stroke-width="0.8" marker-end="url(#arrow)"><title>'
                        f'{_esc(ev.origin)}&lt;{_esc(ev.event)}&gt;({_esc(ev.id)}): {_esc(s.where)} → '
                        f'{_esc(it.where)}</title></line>')
                continue
            drawn += 1
            colour = "#cccccc" if isinstance(ev, Barrier) else COLOURS.get(it.pipe, "#999")
            w = max(round(it.cycles * scale, 2), 1.0)
            a = _args(it)
            out.append(f'<rect class="bar" x="{x(it.start)}" y="{y(c, it.pipe) + 3}" width="{w}" '
                       f'height="{ROW_H - 6}" fill="{colour}" stroke="#fff" stroke-width="0.5" '
                       f'data-core="{c}" data-pipe="{it.pipe}" '
                       f'data-call="{_esc(a["call"])}" data-where="{_esc(it.where)}" '
                       f'data-bytes="{a.get("bytes", 0)}" data-cycles="{a["cycles"]}">'
                       f'<title>{_esc(_hover(it))}</title></rect>')
    out += arrows
    if drawn >= MAX_BARS:
        out.append(f'<text x="4" y="{height - 6}">first {MAX_BARS:,} bars drawn; the trace file has them all'
                   '</text>')
    out.append("</svg>")
    return "\n".join(out)


def summary_html(tl: Timeline) -> str:
    """The total and the per-pipe table (above the Gantt)."""
    t = tl.total or 1.0
    rows = "".join(
        f"<tr data-pipe='{p}'><td>PIPE_{p}</td><td>{st.busy:,.1f}</td><td>{st.busy / t:.1%}</td>"
        f"<td>{st.waiting:,.1f}</td><td>{st.idle:,.1f}</td></tr>"
        for p in tl.used_pipes() for st in (tl.pipes[p],))
    return (
        f"<div class='ascsim-timeline-summary'><p><b>{_esc(tl.title)}</b>: predicted "
        f"<span class='total'>{tl.total:,.1f}</span> cycles = {tl.total_us:,.3f} us at "
        f"{tl.model.clock_mhz:g} MHz ({_esc(tl.model.origin)}) — an idealised cost model, not "
        "cycle-accurate (docs/timeline.md)</p>"
        "<table class='pipes'><tr><th>pipe</th><th>busy</th><th>busy %</th><th>waiting</th><th>idle</th></tr>"
        f"{rows}</table></div>")


def details_html(tl: Timeline) -> str:
    """The largest waits (flag, waiter and setter lines) and the critical path (below the Gantt)."""
    crit = _critical_rows(tl.critical_path)
    waits = "".join(f"<tr><td>core {w.core} PIPE_{_esc(w.pipe)}</td><td>{_esc(w.flag)}</td>"
                    f"<td>{w.cycles:,.1f}</td><td>{_esc(w.waiter)}</td><td>{_esc(w.setter)}</td></tr>"
                    for w in top_waits(tl.waits, 10))
    return (
        "<div class='ascsim-timeline-details'><p>Largest waits</p><table class='waits'><tr><th>pipe</th>"
        "<th>flag</th><th>cycles</th>"
        f"<th>waiter</th><th>setter</th></tr>{waits}</table>"
        f"<p>Critical path ({len(tl.critical_path)} entries)</p><table class='critical'><tr><th>call</th>"
        f"<th>source</th><th>pipe</th><th>times</th><th>cycles</th></tr>{crit}</table></div>")


def _critical_rows(path: Sequence[Item]) -> str:
    """Consecutive entries of one call site on one pipe as one row (a loop's calls stay readable)."""
    groups: list[list[Item]] = []
    for it in path:
        if groups and groups[-1][0].where == it.where and groups[-1][0].pipe == it.pipe \
                and groups[-1][0].kind == it.kind:
            groups[-1].append(it)
        else:
            groups.append([it])
    return "".join(f"<tr><td>{_esc(g[0].label or g[0].kind)}</td><td>{_esc(g[0].where)}</td>"
                   f"<td>PIPE_{g[0].pipe}</td><td>{len(g)}</td><td>{sum(x.cycles for x in g):,.1f}</td></tr>"
                   for g in groups)


PAGE_SCRIPT = """
const tip = document.getElementById('tip');
document.querySelectorAll('rect.bar').forEach(function (r) {
  r.addEventListener('mouseover', function (e) {
    tip.textContent = r.dataset.call + ' | ' + r.dataset.where + ' | core ' + r.dataset.core + ' PIPE_' +
      r.dataset.pipe + ' | ' + r.dataset.cycles + ' cycles | ' + r.dataset.bytes + ' bytes';
    tip.style.display = 'block';
    tip.style.left = (e.pageX + 12) + 'px';
    tip.style.top = (e.pageY + 12) + 'px';
  });
  r.addEventListener('mouseout', function () { tip.style.display = 'none'; });
});
"""


def page_html(tl: Timeline) -> str:
    """A self-contained page: the summary, the Gantt, a hover box naming the call under the mouse."""
    return (
        "<!DOCTYPE html><html><head><meta charset='utf-8'>"
        f"<title>{_esc(tl.title)} — ascsim timeline</title><style>"
        "body{font-family:sans-serif;margin:16px} table{border-collapse:collapse;margin:4px 0 12px}"
        "td,th{border:1px solid #ccc;padding:2px 6px;font-size:12px;text-align:left}"
        "#tip{position:absolute;display:none;background:#ffffe0;border:1px solid #999;padding:4px;"
        "font-size:12px;pointer-events:none}"
        "rect.bar:hover{stroke:#000;stroke-width:1}</style></head><body>"
        f"{summary_html(tl)}<div class='gantt'>{gantt_svg(tl)}</div>{details_html(tl)}<div id='tip'></div>"
        f"<script>{PAGE_SCRIPT}</script></body></html>\n")


_scenario_run.TIMELINE_VIEW = sys.modules[__name__]  # ScenarioRun.timeline's slot (scenario.run)
