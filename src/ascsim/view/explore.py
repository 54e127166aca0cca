"""`ascsim explore`: one self-contained HTML page to explore every data-moving step of a scenario.

The page holds, per step, the same picture `ascsim draw` makes (inline SVG) and a hover map built from the
picture's panels: hovering a destination element outlines it and the source element it read and shows the
`explain` line of that element; buttons / arrow keys step through the scenario; the register state after
the step and the readings it rests on are listed beside it. No server and no network: the data is inline
JSON and the script is a few dozen lines of plain JavaScript.

Cell positions are computed from the picture's placement (`draw.render` returns each panel's top-left
cell corner and cell size in inches; matplotlib's SVG user unit is the point, 72 per inch).
"""

from __future__ import annotations

import html
import json
from pathlib import Path
from typing import Any

import numpy as np

from ..base.errors import ParamRangeError
from .draw import build_picture, label_pass, render, run_others
from .explain import describe, format_summary, reading_lines, step_view, view_provenance, view_summary

#: Explain lines embedded per step (each ~150 B); elements past it show their run's fractal only.
MAX_LINES = 12_000


def _panel_json(placed: Any) -> dict:
    p = placed.panel
    return {"x": placed.x * 72, "y": placed.y * 72, "cell": placed.cell * 72, "w": p.width, "h": p.height}


def step_data(run: Any, n: int, region: str | None = None) -> dict | None:
    """Everything the page needs for step n (None: the step moves no data)."""
    res = run.results[n]
    if res.report is None or res.report.plan is None:
        return None
    view = step_view(run, n, who="explore")
    pic = build_picture(view, region=region, others=run_others(run, n))
    label_pass(pic, "auto")
    svg, placed, _ = render(pic, None, "svg")
    src_p, dst_p = pic.rows[0]
    by_panel = {id(pl.panel): pl for pl in placed}
    dst_pl = by_panel[id(dst_p)]
    cells = dst_p.elements.ravel()
    n_dst = pic.g.src.size
    ok = (cells >= 0) & (cells < n_dst)
    written = ok & (pic.g.src[np.clip(cells, 0, n_dst - 1)] != -2)
    elems = cells[written]
    lines_of = np.full(cells.size, -1, dtype=np.int64)
    lines: list[str] = []
    if elems.size:
        take = elems[:MAX_LINES]
        lines = [describe(d) for d in view_provenance(view, take.tolist())]
        lines_of[np.flatnonzero(written)[: take.size]] = np.arange(take.size)
    srcx = np.full(cells.size, -1, dtype=np.int64)
    srcy = np.full(cells.size, -1, dtype=np.int64)
    if src_p is not None and elems.size:
        s = pic.g.src[elems]
        read = s >= 0
        x, y, okk = src_p.locate(s[read])
        idx = np.flatnonzero(written)[read]
        srcx[idx[okk]], srcy[idx[okk]] = x[okk], y[okk]
    data = {
        "step": n, "title": pic.title, "svg": svg.decode(),
        "dst": _panel_json(dst_pl), "cells": cells.tolist(), "line": lines_of.tolist(), "lines": lines,
        "srcx": srcx.tolist(), "srcy": srcy.tolist(),
        "summary": format_summary(view_summary(view)),
        "registers": [ln for head, ls in pic.blocks if head.startswith("registers") for ln in ls],
        "notes": reading_lines(view.notes) + [n for n in pic.notes if n.startswith("magenta")],
    }
    if src_p is not None:
        data["src"] = _panel_json(by_panel[id(src_p)])
    return data


def write_explorer(run: Any, out: str | Path, region: str | None = None) -> Path:
    """Write the explorer page of a ScenarioRun to `out` (.html)."""
    out = Path(out)
    if out.suffix.lower() not in (".html", ".htm"):
        raise ParamRangeError(f"explore: out must end in .html, but got {out.name!r}")
    steps = [d for d in (step_data(run, i, region) for i in range(len(run.results))) if d is not None]
    if not steps:
        raise ParamRangeError(f"explore: {run.scenario.path.name} has no step that moves data")
    title = html.escape(run.scenario.description or run.scenario.path.name)
    payload = json.dumps(steps, separators=(",", ":")).replace("</", "<\\/")
    out.write_text(_PAGE.replace("{{TITLE}}", title).replace("{{DATA}}", payload), encoding="utf-8")
    return out


_PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>ascsim explore: {{TITLE}}</title>
<style>
body{font-family:system-ui,sans-serif;margin:12px;color:#222}
#bar{display:flex;gap:8px;align-items:center;margin-bottom:6px}
#info{font-family:monospace;font-size:13px;min-height:2.6em;background:#f4f4f4;padding:4px 6px;
  white-space:pre-wrap}
#side{font-family:monospace;font-size:12px;white-space:pre-wrap;background:#fafafa;padding:4px 6px}
#pic svg{max-width:100%;height:auto}
.hl{fill:none;stroke:#ff0080;stroke-width:2.2;pointer-events:none}
</style></head><body>
<div id="bar"><button id="prev">&larr; prev</button><span id="stepname"></span>
<button id="next">next &rarr;</button><span style="color:#777">hover a destination element</span></div>
<div id="info">&nbsp;</div>
<div id="pic"></div>
<div id="side"></div>
<script>
"use strict";
const STEPS = {{DATA}};
let cur = 0;
const $ = (id) => document.getElementById(id);
function cellAt(panel, p) {  // SVG point -> [col, row] inside a panel, or null
  const cx = Math.floor((p.x - panel.x) / panel.cell), cy = Math.floor((p.y - panel.y) / panel.cell);
  return (cx >= 0 && cy >= 0 && cx < panel.w && cy < panel.h) ? [cx, cy] : null;
}
function mark(svg, id, panel, cx, cy) {
  let r = svg.querySelector("#" + id);
  if (!r) { r = document.createElementNS("http://www.w3.org/2000/svg", "rect"); r.id = id;
            r.setAttribute("class", "hl"); svg.appendChild(r); }
  r.setAttribute("x", panel.x + cx * panel.cell); r.setAttribute("y", panel.y + cy * panel.cell);
  r.setAttribute("width", panel.cell); r.setAttribute("height", panel.cell);
  r.dataset.col = cx; r.dataset.row = cy; r.style.display = "";
}
function clear(svg) { for (const id of ["hl-dst", "hl-src"]) { const r = svg.querySelector("#" + id);
  if (r) r.style.display = "none"; } }
function hover(ev) {
  const s = STEPS[cur], svg = $("pic").querySelector("svg");
  const pt = svg.createSVGPoint(); pt.x = ev.clientX; pt.y = ev.clientY;
  const p = pt.matrixTransform(svg.getScreenCTM().inverse());
  const c = cellAt(s.dst, p);
  if (!c) { clear(svg); return; }
  const i = c[1] * s.dst.w + c[0], e = s.cells[i];
  if (e < 0) { clear(svg); $("info").textContent = " "; return; }
  mark(svg, "hl-dst", s.dst, c[0], c[1]);
  $("info").dataset.element = e;
  $("info").textContent = s.line[i] >= 0 ? s.lines[s.line[i]] : "dst[" + e + "]: not written by this step";
  const r = svg.querySelector("#hl-src");
  if (s.src && s.srcx[i] >= 0) mark(svg, "hl-src", s.src, s.srcx[i], s.srcy[i]);
  else if (r) r.style.display = "none";
}
function show(k) {
  cur = Math.max(0, Math.min(STEPS.length - 1, k));
  const s = STEPS[cur];
  $("pic").innerHTML = s.svg;
  $("stepname").textContent = "step " + s.step + " (" + (cur + 1) + " of " + STEPS.length + "): " + s.title;
  $("side").textContent = s.summary + "\\n\\nregisters after the step:\\n  " + s.registers.join("\\n  ") +
    (s.notes.length ? "\\n\\n" + s.notes.join("\\n") : "");
  $("info").textContent = " ";
  $("pic").querySelector("svg").addEventListener("mousemove", hover);
}
// test hook: client (x, y) of the centre of destination element e's cell
window.ascsimCell = function (e) {
  const s = STEPS[cur], i = s.cells.indexOf(e);
  if (i < 0) return null;
  const svg = $("pic").querySelector("svg"), m = svg.getScreenCTM();
  const pt = svg.createSVGPoint();
  pt.x = s.dst.x + ((i % s.dst.w) + 0.5) * s.dst.cell;
  pt.y = s.dst.y + (Math.floor(i / s.dst.w) + 0.5) * s.dst.cell;
  const q = pt.matrixTransform(m);
  return [q.x, q.y];
};
window.ascsimShow = show;
$("prev").onclick = () => show(cur - 1); $("next").onclick = () => show(cur + 1);
document.addEventListener("keydown", (ev) => { if (ev.key === "ArrowLeft") show(cur - 1);
  if (ev.key === "ArrowRight") show(cur + 1); });
show(0);
</script></body></html>
"""
