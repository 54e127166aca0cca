"""`ascsim explore`: one self-contained HTML page to explore every step of a scenario.

The page lists every step the way `ascsim run` numbers and summarises them (register-setting steps and
steps without an access plan included: they show their registers, not a picture). For a step that moves
data it shows the whole destination and source (the `--region all` picture `ascsim draw` makes, inline
SVG) in a viewport with zoom (wheel, buttons), pan (drag) and reset, and a thumbnail of the whole picture
that shows and moves the view; a region is chosen by shift-dragging a rectangle over the destination or
typing a fractal range, and the view zooms to it. Once cells are large
enough on screen their labels (source (h, w) / (row, col), as `draw --labels source`) are drawn for the
cells in view. Hovering a destination element outlines it and the source element it read and shows its
`explain` line; hovering a source cell outlines every destination element that read it, with the count.
The second row of a two-part instruction (LoadDataWithSparse's index part, Load2DMX's scale part, drawn
from `view.aux`) hovers the same way from its own hover map (what `explain --part index|scales` says).

State is that of the step: the scenario is replayed here and each step's page data is taken right after
the step ran (registers, memory contents, earlier writes), exactly what `ascsim draw/explain --step N`
see when they run the file up to step N — not the state at the end of the run.

No server and no network: the data is inline JSON and the script is plain JavaScript. Cell positions come
from the picture's placement (`draw.render` returns each panel's top-left cell corner and cell size in
inches; matplotlib's SVG user unit is the point, 72 per inch). Page size is bounded per step: at most
MAX_LINES explain lines (other elements get a shorter line built in the page from the hover map) and no
hover map past MAX_CELLS cells.
"""

from __future__ import annotations

import html
import json
import warnings
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from ..base.errors import ParamRangeError
from ..base.progress import Progress
from ..scenario import ScenarioRun, StepResult, build, summarize
from ..scenario.run import exec_step
from .draw import build_picture, cell_labels, groups_of, label_pass, register_lines, render, run_others
from .explain import (
    describe,
    format_summary,
    reading_lines,
    step_view,
    view_provenance,
    view_summary,
    with_names,
)

#: Explain lines embedded per step (each ~150 B).
MAX_LINES = 6_000
#: Cells of a picture's panels past which the page shows the picture without a hover map.
MAX_CELLS = 400_000


def _panel_json(placed: Any) -> dict:
    p = placed.panel
    return {"x": placed.x * 72, "y": placed.y * 72, "cell": placed.cell * 72, "w": p.width, "h": p.height}


def _memories(run: ScenarioRun, ranges: tuple) -> list[str]:
    """(memory, start, end) byte ranges as lines naming the scenario tensors they touch."""
    out = []
    for mem, lo, hi in ranges:
        names = [name for name, t in run.tensors.items() if t.memory.name == mem
                 and t.offset < hi and lo < t.offset + (t.length * t.dtype.bits + 7) // 8]
        out.append(f"{mem} 0x{lo:04x}-0x{max(hi - 1, lo):04x} ({hi - lo:,} B)"
                   + (f": {', '.join(names)}" if names else ""))
    return out


def _picture_data(run: ScenarioRun, view: Any, region: str | None) -> dict:
    """The overview picture of a data step's StepView with its hover maps, labels and explain lines: the
    first row's on the picture's own entry, a two-part instruction's second row's (index / scales) under
    "aux", both built by `_hover_map`."""
    n = view.index
    pic = build_picture(view, region=region or "all", others=run_others(run, n))
    label_pass(pic, "auto")
    svg, placed, _ = render(pic, None, "svg")
    by_panel = {id(pl.panel): pl for pl in placed}
    data: dict[str, Any] = {"svg": svg.decode(), "title": pic.title,
                            # the home view ends under the lowest panel (+ its channel-group captions)
                            "bottom": max((pl.y + pl.panel.height * pl.cell) * 72 for pl in placed) + 40}
    rows = [(view, pic.g, *pic.rows[0])]
    if len(pic.rows) > 1 and pic.rows[1][1] is not None:
        rows.append((view.aux, groups_of(view.aux), *pic.rows[1]))
    n_cells = sum(p.elements.size for row in rows for p in row[2:] if p is not None)
    budget = MAX_LINES
    for k, (v, g, src_p, dst_p) in enumerate(rows):
        m = _hover_map(v, g, src_p, dst_p, by_panel, budget, with_map=n_cells <= MAX_CELLS)
        budget -= len(m.get("lines", ()))
        if k == 0:
            data.update(m)
        else:
            data["aux"] = m
    if n_cells > MAX_CELLS:
        data["note"] = (f"{pic.rows[0][1].elements.size:,} destination cells: no hover map (past "
                        f"{MAX_CELLS:,} cells); narrow it with --region")
        return data
    slab, dlab = cell_labels(pic)  # the first row is (source, destination); the second row has no labels
    data.update({"dlab": dlab.ravel().tolist(), "notes": [x for x in pic.notes if x.startswith("magenta")]})
    if slab is not None:
        data["slab"] = slab.ravel().tolist()
    return data


def _hover_map(view: Any, g: Any, src_p: Any, dst_p: Any, by_panel: Mapping[int, Any], budget: int, *,
               with_map: bool) -> dict:
    """One row's hover map: its panels' placement, and per destination cell the element it shows, whether
    this step wrote it, its explain line (the first `budget` written elements) and the (col, row) of the
    source cell it read (-1: none). `with_map` False: the placement only (the page is past MAX_CELLS)."""
    data: dict[str, Any] = {"part": view.part, "fe": view.frac_elems, "dst": _panel_json(by_panel[id(dst_p)]),
                            "src": _panel_json(by_panel[id(src_p)]) if src_p is not None else None,
                            "labelled": dst_p.label_mode != "none"}
    if not with_map:
        return data
    cells = dst_p.elements.ravel()
    n_dst = g.src.size
    written = (cells >= 0) & (cells < n_dst)
    written &= g.src[np.clip(cells, 0, n_dst - 1)] != -2
    elems = cells[written]
    lines_of = np.full(cells.size, -1, dtype=np.int64)
    take = elems[: max(budget, 0)]
    lines = [describe(d) for d in view_provenance(view, take.tolist())] if take.size else []
    lines_of[np.flatnonzero(written)[: take.size]] = np.arange(take.size)
    srcx = np.full(cells.size, -1, dtype=np.int64)
    srcy = np.full(cells.size, -1, dtype=np.int64)
    if src_p is not None and elems.size:
        s = g.src[elems]
        read = s >= 0
        x, y, ok = src_p.locate(s[read])
        idx = np.flatnonzero(written)[read]
        srcx[idx[ok]], srcy[idx[ok]] = x[ok], y[ok]
    data.update({"cells": cells.tolist(), "written": written.astype(int).tolist(), "line": lines_of.tolist(),
                 "lines": lines, "srcx": srcx.tolist(), "srcy": srcy.tolist()})
    if src_p is not None:
        data["sel"] = src_p.elements.ravel().tolist()
    return data


def step_data(run: ScenarioRun, n: int, region: str | None = None,
              names: Mapping[str, str] | None = None) -> dict:
    """Everything the page needs for step n, from the run's state right now (call it right after step n
    ran: `write_explorer` does, while it replays the scenario). `names`: step n is a compiled program's
    call, its operands named as the call wrote them (`explain.with_names`)."""
    res = run.results[n]
    rep = res.report
    data: dict[str, Any] = {
        "step": n, "call": res.step.call, "line": res.step.line, "summary": res.summary,
        "registers": register_lines(run.core.regs),
        "reads": _memories(run, rep.reads) if rep is not None else [],
        "writes": _memories(run, rep.writes) if rep is not None else [],
        "readings": reading_lines(rep.notes) if rep is not None else [],
        "pic": None,
    }
    if rep is None:
        data["why"] = f"this {'step' if names is None else 'call'} sets registers: nothing to draw"
    elif rep.plan is None:
        data["why"] = (f"{rep.instr} records no access plan (a NOP, or it computes rather than moves): "
                       "nothing to draw")
    else:
        view = step_view(run, n, who="explore")
        if names is not None:
            view = with_names(view, names)
        data["explain"] = format_summary(view_summary(view))
        data["pic"] = _picture_data(run, view, region)
    return data


def replay(run: ScenarioRun, visit: Callable[[ScenarioRun, int], None]) -> None:
    """Run `run`'s scenario again from its initial tensors, calling visit(replayed run, n) right after
    step n; the run given has already gone through every step (errors and warnings were reported then, so
    the replay is quiet)."""
    again = build(run.scenario)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for step in run.scenario.steps[: len(run.results)]:
            report = exec_step(again, step)
            again.results.append(StepResult(step, report, summarize(step, report)))
            visit(again, step.index)


def write_explorer(run: ScenarioRun, out: str | Path, region: str | None = None, *,
                   calls: Sequence[Mapping[str, str]] | None = None, lines: Sequence[str] | None = None
                   ) -> Path:
    """Write the explorer page of a ScenarioRun to `out` (.html): every step of the run, each with the state
    it had when it ran. `region`: destination fractals per picture (default: all, as `draw --region`).
    `calls`: the run is a compiled program's traced run (program.emit), one operand-name mapping per call
    (`TraceCall.names`): the page then says "call N", as `ascsim run` / `draw --call N` do, and names the
    operands as the program's calls wrote them. `lines`: the step list's line per step instead of the
    scenario's summary (a program's: `ascsim run kernel.cpp`'s, with the call's file:line)."""
    out = Path(out)
    if out.suffix.lower() not in (".html", ".htm"):
        raise ParamRangeError(f"explore: out must end in .html, but got {out.name!r}")
    if not run.results:
        raise ParamRangeError(f"explore: {run.scenario.path.name} has no steps")
    steps: list[dict] = []
    # a page of a real-sized scenario renders for many seconds: say how far it is (a terminal only)
    with Progress(f"explore: drawing {out.name}", total=len(run.results)) as shown:

        def visit(again: ScenarioRun, n: int) -> None:
            steps.append(step_data(again, n, region, calls[n] if calls is not None else None))
            if lines is not None:
                steps[-1]["summary"] = lines[n]
            shown.update()

        replay(run, visit)
    title = html.escape(run.scenario.description or run.scenario.path.name)
    payload = json.dumps(steps, separators=(",", ":")).replace("</", "<\\/")
    unit = json.dumps("call" if calls is not None else "step")
    page = _PAGE.replace("{{TITLE}}", title).replace("{{UNIT}}", unit).replace("{{DATA}}", payload)
    out.write_text(page, encoding="utf-8")
    return out


_PAGE = r"""<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>ascsim explore: {{TITLE}}</title>
<style>
body{font-family:system-ui,sans-serif;margin:10px;color:#222}
#wrap{display:flex;gap:10px;align-items:flex-start}
#steps{list-style:none;margin:0;padding:0;width:300px;flex:none;font-family:monospace;font-size:12px;
  max-height:88vh;overflow:auto;border:1px solid #ddd}
#steps li{padding:4px 6px;border-bottom:1px solid #eee;cursor:pointer}
#steps li.cur{background:#ffe6f2;font-weight:bold}
#steps li.nopic{color:#777}
#main{flex:1;min-width:0}
#bar,#tools{display:flex;gap:6px;align-items:center;margin-bottom:5px;flex-wrap:wrap}
#tools input{width:4em}
#info{font-family:monospace;font-size:13px;min-height:2.6em;background:#f4f4f4;padding:4px 6px;
  white-space:pre-wrap}
#view{border:1px solid #ccc;height:66vh;overflow:hidden;position:relative;background:#fff;cursor:grab}
#view.sel{cursor:crosshair}
#mini{position:absolute;right:6px;top:6px;width:200px;border:1px solid #888;background:#fff;opacity:.92;
  cursor:pointer;overflow:hidden}
#mini img{width:100%;display:block;pointer-events:none}
#minibox{position:absolute;border:2px solid #ff0080;pointer-events:none;box-sizing:border-box}
#pic{width:100%;height:100%}
#pic svg{width:100%;height:100%;display:block;user-select:none}
#pic svg image{image-rendering:pixelated}
#pic svg path{vector-effect:non-scaling-stroke}
#side{font-family:monospace;font-size:12px;white-space:pre-wrap;background:#fafafa;padding:4px 6px}
.hl{fill:none;stroke:#ff0080;stroke-width:2.2;pointer-events:none;vector-effect:non-scaling-stroke}
.rev{fill:none;stroke:#0050ff;stroke-width:1.6;pointer-events:none;vector-effect:non-scaling-stroke}
#region-box{fill:none;stroke:#00a000;stroke-width:2;stroke-dasharray:6 3;pointer-events:none;
  vector-effect:non-scaling-stroke}
#rubber{fill:rgba(0,160,0,.12);stroke:#00a000;stroke-width:1;pointer-events:none;
  vector-effect:non-scaling-stroke}
.lab{font-family:sans-serif;text-anchor:middle;dominant-baseline:central;pointer-events:none;fill:#000}
</style></head><body>
<div id="bar"><button id="prev">&larr; prev</button><span id="stepname"></span>
<button id="next">next &rarr;</button></div>
<div id="wrap"><ol id="steps"></ol><div id="main">
<div id="tools"><button id="zin" title="zoom in (+)">+</button>
<button id="zout" title="zoom out (-)">&minus;</button>
<button id="reset" title="back to all the panels (0)">reset</button>
<button id="selmode" title="or shift-drag">select region</button>
fractals <input id="rfrom" type="number" min="0"> &ndash; <input id="rto" type="number" min="0">
<button id="rshow">show</button><span id="region"></span>
<span style="color:#777">wheel: zoom, drag: pan; hover a destination element or a source cell</span></div>
<div id="info">&nbsp;</div>
<div id="view"><div id="pic"></div>
<div id="mini" title="the whole picture: click or drag to move the view"><img id="miniimg" alt="">
<div id="minibox"></div></div></div>
<div id="side"></div>
</div></div>
<script>
"use strict";
const UNIT = {{UNIT}};  // "step" (a scenario) or "call" (a compiled program's traced run)
const STEPS = {{DATA}};
const NS = "http://www.w3.org/2000/svg";
let cur = 0, full = null, home = null, vb = null, miniDrag = false, revs = [], drag = null, selMode = false;
const $ = (id) => document.getElementById(id);
const svgEl = () => $("pic").querySelector("svg");
const P = () => STEPS[cur].pic;

function cellAt(panel, p) {  // SVG point -> [col, row] inside a panel, or null
  if (!panel) return null;
  const cx = Math.floor((p.x - panel.x) / panel.cell), cy = Math.floor((p.y - panel.y) / panel.cell);
  return (cx >= 0 && cy >= 0 && cx < panel.w && cy < panel.h) ? [cx, cy] : null;
}
function toSvg(x, y) {
  const svg = svgEl(), pt = svg.createSVGPoint(); pt.x = x; pt.y = y;
  return pt.matrixTransform(svg.getScreenCTM().inverse());
}
function rect(parent, panel, cx, cy, cls, id) {
  let r = id ? parent.querySelector("#" + id) : null;
  if (!r) { r = document.createElementNS(NS, "rect"); if (id) r.id = id; parent.appendChild(r); }
  r.setAttribute("class", cls);
  r.setAttribute("x", panel.x + cx * panel.cell); r.setAttribute("y", panel.y + cy * panel.cell);
  r.setAttribute("width", panel.cell); r.setAttribute("height", panel.cell);
  r.dataset.col = cx; r.dataset.row = cy; r.style.display = "";
  return r;
}
function layer(id) {
  const svg = svgEl(); let g = svg.querySelector("#" + id);
  if (!g) { g = document.createElementNS(NS, "g"); g.id = id; svg.appendChild(g); }
  return g;
}
function clearHl() {
  for (const id of ["hl-dst", "hl-src"]) {
    const r = svgEl().querySelector("#" + id); if (r) r.style.display = "none"; }
  layer("hl-rev").replaceChildren();
}

// -- hover: destination -> source, source -> every destination that read it. One mechanism for every row
// of panels: maps() is the picture's hover maps, the first row's (the picture's own entry) and, for a
// two-part instruction, the second row's (pic.aux: the index / scale part); revs[k] is map k's reverse map.
const maps = (pic) => pic && pic.cells ? (pic.aux && pic.aux.cells ? [pic, pic.aux] : [pic]) : [];
function shortLine(m, i, e) {
  const f = Math.floor(e / m.fe);
  const s = m.srcx[i] >= 0 ? " <- source cell (" + (m.dlab ? m.dlab[i] : "col " + m.srcx[i] + ", row " +
    m.srcy[i]) + ")" : "", part = m.part !== "data" ? " --part " + m.part : "";
  return "dst[" + e + "] (fractal " + f + ")" +
    (m.written[i] ? s || " <- pad" : ": not written by this " + UNIT) +
    "  [full line: ascsim explain FILE --" + UNIT + " " + STEPS[cur].step + part + " --dst " + e + "]";
}
function hover(ev) {
  const pic = P();
  if (drag || !pic || !pic.cells) return;
  const svg = svgEl(), p = toSvg(ev.clientX, ev.clientY), info = $("info");
  clearHl();
  const ms = maps(pic);
  for (let k = 0; k < ms.length; k++) {
    const m = ms[k];
    let c = cellAt(m.dst, p);
    if (c) {
      const i = c[1] * m.dst.w + c[0], e = m.cells[i];
      if (e < 0) { info.textContent = " "; return; }
      rect(svg, m.dst, c[0], c[1], "hl", "hl-dst");
      Object.assign(info.dataset, {element: e, side: "dst", part: m.part}); delete info.dataset.count;
      info.textContent = m.line[i] >= 0 ? m.lines[m.line[i]] :
        m.written[i] ? shortLine(m, i, e) : "dst[" + e + "]: not written by this " + UNIT;
      if (m.src && m.srcx[i] >= 0) rect(svg, m.src, m.srcx[i], m.srcy[i], "hl", "hl-src");
      return;
    }
    c = cellAt(m.src, p);
    if (!c) continue;
    const j = c[1] * m.src.w + c[0], readers = revs[k].get(j) || [];
    if (m.sel[j] < 0) { info.textContent = " "; return; }
    rect(svg, m.src, c[0], c[1], "hl", "hl-src");
    const g = layer("hl-rev");
    for (const i of readers) rect(g, m.dst, i % m.dst.w, Math.floor(i / m.dst.w), "rev");
    Object.assign(info.dataset, {element: m.sel[j], side: "src", part: m.part, count: readers.length});
    info.textContent = (m.part !== "data" ? m.part + " " : "") + "source cell (" +
      (m.slab && m.slab[j] || "col " + c[0] + ", row " + c[1]) + "), element " + m.sel[j] + ": read by " +
      readers.length + " destination element" + (readers.length === 1 ? "" : "s") + " (outlined blue)";
    return;
  }
}

// -- zoom / pan: the SVG viewBox; labels drawn for the cells in view once they are large enough
function setVB(v) {
  const minW = full[2] / 400;
  let w = Math.min(full[2] * 1.5, Math.max(minW, v[2])), h = v[3] * w / v[2];
  vb = [v[0], v[1], w, h];
  svgEl().setAttribute("viewBox", vb.join(" "));
  relabel();
  mini();
}
function mini() {  // the view's outline on the overview thumbnail
  const r = $("view").getBoundingClientRect(), lo = toSvg(r.left, r.top), hi = toSvg(r.right, r.bottom);
  const k = $("mini").clientWidth / full[2], b = $("minibox").style;
  b.left = (lo.x - full[0]) * k + "px"; b.top = (lo.y - full[1]) * k + "px";
  b.width = (hi.x - lo.x) * k + "px"; b.height = (hi.y - lo.y) * k + "px";
}
function miniGo(ev) {  // centre the view on the thumbnail point under the pointer
  const r = $("mini").getBoundingClientRect(), k = full[2] / r.width;
  const x = full[0] + (ev.clientX - r.left) * k, y = full[1] + (ev.clientY - r.top) * k;
  setVB([x - vb[2] / 2, y - vb[3] / 2, vb[2], vb[3]]);
}
function zoomAt(p, k) { setVB([p.x - (p.x - vb[0]) / k, p.y - (p.y - vb[1]) / k, vb[2] / k, vb[3] / k]); }
function zoomCentre(k) { zoomAt({x: vb[0] + vb[2] / 2, y: vb[1] + vb[3] / 2}, k); }
function span(a, b, o, cell, n) {  // cells [first, last] of a panel axis that [a, b] (picture units) covers
  return [Math.max(0, Math.floor((Math.min(a, b) - o) / cell)),
          Math.min(n - 1, Math.floor((Math.max(a, b) - o) / cell))];
}
function labelPanel(g, panel, labs, els, kind, lo, hi) {
  const scale = svgEl().getScreenCTM().a, px = panel.cell * scale;
  if (px < 14) return 0;
  const [c0, c1] = span(lo.x, hi.x, panel.x, panel.cell, panel.w);
  const [r0, r1] = span(lo.y, hi.y, panel.y, panel.cell, panel.h);
  if (c1 < c0 || r1 < r0 || (c1 - c0 + 1) * (r1 - r0 + 1) > 6000) return 0;
  let n = 0;
  for (let r = r0; r <= r1; r++) for (let c = c0; c <= c1; c++) {
    const i = r * panel.w + c, t = labs[i];
    if (!t) continue;
    const el = document.createElementNS(NS, "text");
    el.setAttribute("class", "lab"); el.setAttribute("x", panel.x + (c + 0.5) * panel.cell);
    el.setAttribute("y", panel.y + (r + 0.5) * panel.cell);
    el.setAttribute("font-size", Math.min(0.38 * panel.cell, 1.6 * panel.cell / t.length));
    el.dataset.side = kind; el.dataset.e = els[i]; el.textContent = t; g.appendChild(el); n++;
  }
  return n;
}
function relabel() {
  const pic = P(), g = layer("labels");
  g.replaceChildren();
  if (!pic.cells || pic.labelled) return;
  const r = $("view").getBoundingClientRect(), lo = toSvg(r.left, r.top), hi = toSvg(r.right, r.bottom);
  labelPanel(g, pic.dst, pic.dlab, pic.cells, "dst", lo, hi);
  if (pic.src) labelPanel(g, pic.src, pic.slab, pic.sel, "src", lo, hi);
}

// -- region: fractals [a, b] or a rectangle over the destination -> zoom to their cells
function selectFractals(list) {
  const pic = P(), want = new Set(list);
  let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
  pic.cells.forEach((e, i) => { if (e >= 0 && want.has(Math.floor(e / pic.fe))) {
    const cx = i % pic.dst.w, cy = Math.floor(i / pic.dst.w);
    x0 = Math.min(x0, cx); y0 = Math.min(y0, cy); x1 = Math.max(x1, cx); y1 = Math.max(y1, cy); } });
  if (x0 === Infinity) { $("region").textContent = " no such fractal drawn"; return false; }
  const d = pic.dst, bx = d.x + x0 * d.cell, by = d.y + y0 * d.cell;
  const bw = (x1 - x0 + 1) * d.cell, bh = (y1 - y0 + 1) * d.cell;
  const box = layer("region-layer"); box.replaceChildren();
  const r = document.createElementNS(NS, "rect"); r.id = "region-box";
  r.setAttribute("x", bx); r.setAttribute("y", by); r.setAttribute("width", bw); r.setAttribute("height", bh);
  box.appendChild(r);
  const m = d.cell;
  setVB([bx - m, by - m, bw + 2 * m, bh + 2 * m]);
  const s = [...want].sort((a, b) => a - b);
  svgEl().dataset.region = s.join(",");
  $("region").textContent = " fractals " + s[0] + (s.length > 1 ? "-" + s[s.length - 1] : "") +
    " (" + s.length + ")";
  return true;
}
function selectRect(a, b) {
  const pic = P(), d = pic.dst, want = new Set();
  const [c0, c1] = span(a.x, b.x, d.x, d.cell, d.w), [r0, r1] = span(a.y, b.y, d.y, d.cell, d.h);
  for (let r = r0; r <= r1; r++) for (let c = c0; c <= c1; c++) {
    const e = pic.cells[r * d.w + c]; if (e >= 0) want.add(Math.floor(e / pic.fe)); }
  if (want.size) selectFractals([...want]);
}
function down(ev) {
  if (ev.button !== 0 || !P()) return;
  ev.preventDefault();
  const p = toSvg(ev.clientX, ev.clientY);
  drag = {x: ev.clientX, y: ev.clientY, vb: vb.slice(), p: p, sel: (selMode || ev.shiftKey) && !!P().cells};
}
function move(ev) {
  if (!drag) return;
  if (drag.sel) {
    const q = toSvg(ev.clientX, ev.clientY), g = layer("region-layer");
    let r = g.querySelector("#rubber");
    if (!r) { r = document.createElementNS(NS, "rect"); r.id = "rubber"; g.appendChild(r); }
    r.setAttribute("x", Math.min(drag.p.x, q.x)); r.setAttribute("y", Math.min(drag.p.y, q.y));
    r.setAttribute("width", Math.abs(q.x - drag.p.x)); r.setAttribute("height", Math.abs(q.y - drag.p.y));
    return;
  }
  const k = svgEl().getScreenCTM().a;
  const v = drag.vb;
  setVB([v[0] - (ev.clientX - drag.x) / k, v[1] - (ev.clientY - drag.y) / k, v[2], v[3]]);
}
function up(ev) {
  if (!drag) return;
  const d = drag; drag = null;
  if (d.sel) { const r = svgEl().querySelector("#rubber"); if (r) r.remove();
    selectRect(d.p, toSvg(ev.clientX, ev.clientY)); }
}

// -- steps
function show(k) {
  cur = Math.max(0, Math.min(STEPS.length - 1, k));
  const s = STEPS[cur], pic = s.pic;
  for (const li of $("steps").children) li.classList.toggle("cur", +li.dataset.step === s.step);
  $("steps").children[cur].scrollIntoView({block: "nearest"});
  $("stepname").textContent = (pic ? pic.title : UNIT + " " + s.step + ": " + s.call) + "  (" +
    STEPS.length + " " + UNIT + "s: 0-" + (STEPS.length - 1) + ")";
  const mem = (h, xs) => xs.length ? "\n" + h + ":\n  " + xs.join("\n  ") : "";
  $("side").textContent = s.summary + (s.explain ? "\n\n" + s.explain : "") + mem("memories read", s.reads) +
    mem("memories written", s.writes) + "\n\nregisters after " + UNIT + " " + s.step + ":\n  " +
    s.registers.join("\n  ") + (s.readings.length ? "\n\n" + s.readings.join("\n") : "") +
    (pic && pic.notes && pic.notes.length ? "\n" + pic.notes.join("\n") : "") +
    (pic && pic.note ? "\n" + pic.note : "");
  $("info").textContent = " "; $("region").textContent = "";
  $("mini").style.display = pic ? "" : "none";
  if (!pic) {
    $("pic").innerHTML = "<p id='nopic' style='padding:1em'></p>";
    $("nopic").textContent = UNIT + " " + s.step + " (" + s.call + "): " + s.why;
    return;
  }
  $("pic").innerHTML = pic.svg;
  const svg = svgEl();
  full = svg.getAttribute("viewBox").split(/[ ,]+/).map(Number);
  home = [full[0], full[1], full[2], Math.min(full[3], pic.bottom)];  // the panels: text blocks are beside
  $("miniimg").src = "data:image/svg+xml;charset=utf-8," + encodeURIComponent(pic.svg);
  svg.removeAttribute("width"); svg.removeAttribute("height");
  revs = maps(pic).map((m) => { const rev = new Map();
    m.srcx.forEach((x, i) => { if (x >= 0) { const j = m.srcy[i] * m.src.w + x;
      if (!rev.has(j)) rev.set(j, []); rev.get(j).push(i); } });
    return rev; });
  setVB(home.slice());
  svg.addEventListener("mousemove", hover);
  svg.addEventListener("mousedown", down);
  svg.addEventListener("wheel", (ev) => { ev.preventDefault();
    zoomAt(toSvg(ev.clientX, ev.clientY), ev.deltaY < 0 ? 1.25 : 0.8); }, {passive: false});
}
STEPS.forEach((s, k) => { const li = document.createElement("li"); li.dataset.step = s.step;
  li.textContent = s.summary; if (!s.pic) li.classList.add("nopic"); li.onclick = () => show(k);
  $("steps").appendChild(li); });
// test hooks: client (x, y) of the centre of a destination element's / source cell's cell
function centre(panel, i) {
  const q = svgEl().createSVGPoint();
  q.x = panel.x + ((i % panel.w) + 0.5) * panel.cell;
  q.y = panel.y + (Math.floor(i / panel.w) + 0.5) * panel.cell;
  const r = q.matrixTransform(svgEl().getScreenCTM()); return [r.x, r.y];
}
// (row k: 0 = the first row of panels, 1 = a two-part instruction's second row)
window.ascsimCell = (e, k = 0) => { const m = maps(P())[k], i = m.cells.indexOf(e);
  return i < 0 ? null : centre(m.dst, i); };
window.ascsimSrcCell = (col, row, k = 0) => { const m = maps(P())[k];
  return centre(m.src, row * m.src.w + col); };
window.ascsimShow = show;
$("prev").onclick = () => show(cur - 1); $("next").onclick = () => show(cur + 1);
$("zin").onclick = () => zoomCentre(1.5); $("zout").onclick = () => zoomCentre(1 / 1.5);
$("reset").onclick = () => {
  layer("region-layer").replaceChildren(); delete svgEl().dataset.region; setVB(home.slice()); };
$("mini").addEventListener("mousedown", (ev) => { ev.preventDefault(); miniDrag = true; miniGo(ev); });
$("mini").addEventListener("mousemove", (ev) => { if (miniDrag) miniGo(ev); });
window.addEventListener("mouseup", () => { miniDrag = false; });
$("selmode").onclick = () => { selMode = !selMode; $("view").classList.toggle("sel", selMode); };
$("rshow").onclick = () => {
  const a = +$("rfrom").value, b = $("rto").value === "" ? a : +$("rto").value, l = [];
  for (let f = Math.min(a, b); f <= Math.max(a, b); f++) l.push(f);
  if (P() && P().cells) selectFractals(l); };
window.addEventListener("mousemove", move); window.addEventListener("mouseup", up);
document.addEventListener("keydown", (ev) => { if (ev.target.tagName === "INPUT") return;
  if (ev.key === "ArrowLeft" || ev.key === "ArrowUp") { show(cur - 1); ev.preventDefault(); }
  if (ev.key === "ArrowRight" || ev.key === "ArrowDown") { show(cur + 1); ev.preventDefault(); }
  if (P() && (ev.key === "+" || ev.key === "=")) zoomCentre(1.5);
  if (P() && ev.key === "-") zoomCentre(1 / 1.5);
  if (P() && ev.key === "0") $("reset").onclick(); });
show(0);
</script></body></html>
"""
