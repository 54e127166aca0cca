"""The notebook face: explain and draw any executed call from Python, and a history to look back with.

* Every `ExecReport` (what `core.load_data(...)` and the other instructions return) has `.explain()`
  (an `Explanation`: text) and `.draw()` (a `Drawing`: the SVG text, shown as the picture) and, in a
  notebook, shows itself as its summary and picture (`_repr_html_`, the SVG inline: notebooks prefer
  text/html over image/svg+xml) — rendered here from the report's plan, the operands it records (under
  the names the user gave them) and the params struct it was given.
* `core.history = History()` (opt-in) records, per call from then on, the registers and the bytes the
  call read and wrote, so `core.history[n].draw()` shows the state right after call n even after later
  calls overwrote it. Memory stays bounded (`max_bytes`; the oldest calls' bytes are dropped first).
* `step(run, n)`: the same face for step n of a scenario run (its tensor names and layouts).
* `tensor_html(t)`: a LocalTensor as an HTML table of its fractals (values; `_` = never written).

Layering (docs/architecture.md "The layers", "Pictures import downward"): this module sits above `explain` and
`draw`; `ascsim.engine.plan` (where ExecReport lives, below the instructions) never imports it — it calls the
functions below through the `engine.record.REPORT_VIEW` slot this module fills when imported.
"""

from __future__ import annotations

import copy
import dataclasses
import html
import sys
from collections import deque
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from ..base.errors import AscsimError, BoundsError, UnsupportedError, public_entry
from ..engine import record as _record
from ..machine.layouts import cdiv
from ..machine.memory import MARKER, LocalTensor, Memory, short_value
from ..scenario import TensorSpec
from .draw import Drawing, draw_view, inline_svg, run_others
from .explain import Explanation, StepView, explain_view, reading_lines, second_part, step_view, struct_fields

# -- ExecReport -> StepView ---------------------------------------------------------------------------------


def _spec_params(plan: Any) -> dict:
    spec = plan.info.get("spec")
    if spec is None or not dataclasses.is_dataclass(spec):
        return {}
    d = {"type": f"{type(spec).__name__} (effective values)"}
    d.update({f.name: getattr(spec, f.name) for f in dataclasses.fields(spec)
              if f.name not in ("dtype", "bits")})
    return d


def _owner(report: Any) -> Any:
    mem = report.dst.memory() if report.dst is not None else None
    return getattr(mem, "owner", None)


def _src_spec(src: LocalTensor | None, layout: str | None, shape: Sequence[int] | None) -> Any:
    if src is None or layout is None:
        return None

    if layout not in ("flat", "nz", "zz", "zn") or shape is None or len(shape) != 2:
        raise UnsupportedError(f"explain: src_layout must be flat, nz, zz or zn with a 2-D src_shape, "
                               f"but got {layout!r} {shape!r}")
    return TensorSpec("src", src.position, src.dtype, src.length, layout=layout, shape=tuple(shape))


def operand_name(t: LocalTensor | None) -> str:
    """What pictures and explanations call an operand: the name the user gave it, else its place."""
    if t is None:
        return ""
    return t.name if t.name is not None else f"{t.position}@0x{t.offset:x}"


def report_view(report: Any, *, index: int = -1, dst: LocalTensor | None = None,
                src: LocalTensor | None = None, regs: Any = None, regs_note: str = "",
                src_layout: str | None = None, src_shape: Sequence[int] | None = None,
                who: str = "explain") -> StepView:
    """A StepView of one ExecReport: its plan, its operands (or `dst` / `src`, e.g. snapshots), the
    registers (`regs`, default: the core's current ones), the params struct the call was given."""
    plan = report.plan
    if plan is None:
        raise UnsupportedError(f"{who}: {report.instr} records no access plan (a NOP, or it computes rather "
                               "than moves: explain/draw show data moves)")
    if report.dst is None:
        raise UnsupportedError(f"{who}: this {report.instr} report does not record its operands")
    dst = dst if dst is not None else report.dst.tensor()
    src = src if src is not None else (report.src.tensor() if report.src is not None else None)
    if dst is None:
        raise UnsupportedError(f"{who}: the destination memory of this {report.instr} call no longer exists")
    owner = _owner(report)
    if regs is None and owner is not None:
        regs, regs_note = owner.regs, "current"
    # the struct the user passed, under its C++ name (else, for a call not made through Core, the spec)
    params = struct_fields(report.params) if report.params is not None else _spec_params(plan)
    return StepView(index, report.instr, {"params": params}, plan, dst, src, operand_name(dst),
                    operand_name(src), 0, 0, _src_spec(src, src_layout, src_shape), report.pad_pattern,
                    report.boundary, notes=tuple(report.notes), regs=regs,
                    regs_note=regs_note or "after this call", params=report.params, unit="call")


def _log_position(report: Any) -> tuple[int, list[tuple[str, Any]]]:
    """The report's index in its core's log and the calls before it (for "written by another call")."""
    owner = _owner(report)
    log = list(owner.log) if owner is not None else []
    for i in range(len(log) - 1, -1, -1):
        if log[i] is report:
            return i, [(f"call {j} ({r.instr})", r) for j, r in enumerate(log[:i])]
    return -1, []


def explain_report(report: Any, dst: int | None = None, fractal: int | None = None, *,
                   src_layout: str | None = None, src_shape: Sequence[int] | None = None) -> Explanation:
    """`report.explain()`: the summary, then one element (`dst`) or one destination fractal (`fractal`,
    default: the first written). `src_layout` / `src_shape` give the source matrix layout."""
    idx, _ = _log_position(report)
    view = report_view(report, index=idx, src_layout=src_layout, src_shape=src_shape)
    return explain_view(view, dst, fractal)


def draw_report(report: Any, out: str | Path | None = None, *, region: str | Sequence[int] | None = None,
                labels: str = "auto", focus: str | None = None, cumulative: bool = False,
                src_layout: str | None = None, src_shape: Sequence[int] | None = None) -> Path | Drawing:
    """`report.draw()`: a Drawing (the SVG text), or a file with `out` (.svg / .png). Options as
    `ascsim draw` (region, labels, focus, cumulative) plus src_layout / src_shape."""
    idx, others = _log_position(report)
    view = report_view(report, index=idx, who="draw", src_layout=src_layout, src_shape=src_shape)
    return draw_view(view, out, region=region, labels=labels, focus=focus, cumulative=cumulative,
                     others=others)


def picture_html(head: str, draw: Callable[[], Any], drawable: bool) -> str:
    """The notebook face of a call: its one-line summary (HTML) and, when it moves data, its picture
    inline; a picture that cannot be made (its memory is gone) leaves the summary and why."""
    body = ""
    if drawable:
        try:
            body = inline_svg(str(draw()))
        except AscsimError as e:
            body = f"<div style='font-family:monospace'>(no picture: {html.escape(str(e))})</div>"
    return f"<div class='ascsim-call'>{head}{body}</div>"


def report_head(report: Any) -> str:
    """A report's summary as HTML: instruction, bytes, pads, hazards, readings."""
    rows = [f"<b>{html.escape(report.instr)}</b>: wrote {report.bytes_written:,} B, "
            f"read {report.bytes_read:,} B, {report.pad_elements:,} pad elements"]
    rows += [f"<span style='color:#b35900'>hazard: {html.escape(h)}</span>" for h in report.hazards]
    rows += [html.escape(ln) for ln in reading_lines(report.notes)]
    return "<div style='font-family:monospace'>" + "<br>".join(rows) + "</div>"


def report_html(report: Any) -> str:
    """Notebook face of a report: the summary, then the picture (none for a NOP or Mmad)."""
    return picture_html(report_head(report), lambda: draw_report(report),
                        report.plan is not None and report.dst is not None)


# -- history -------------------------------------------------------------------------------------------------


@dataclasses.dataclass
class _Entry:
    report: Any
    regs: Any
    dst: tuple[int, np.ndarray] | None  # (absolute byte offset, bytes after the call) of the region written
    src: tuple[int, np.ndarray] | None  # (absolute byte offset, bytes read)

    @property
    def nbytes(self) -> int:
        return sum(part[1].nbytes for part in (self.dst, self.src) if part is not None)


class History:
    """Opt-in record of a core's calls: `core.history = History()`; then `core.history[n]` is call n (from
    the moment it was attached) with `.explain()` / `.draw()` showing the state right after it.

    Per call it keeps the registers (a shallow copy: their fields are immutable values) and copies of the
    bytes the call wrote (its destination extent) and read (its source extent). When the copies exceed
    `max_bytes` the oldest calls lose theirs (they can still be explained, with current memory contents).
    """
    def __init__(self, max_bytes: int = 256 << 20) -> None:
        self.max_bytes = int(max_bytes)
        self.entries: deque[_Entry] = deque()
        self.nbytes = 0
        self.start = 0  # calls dropped from the front

    def record(self, report: Any, regs: Any) -> None:
        """Core's hook: called after every instruction (ascsim.core.Core._logged)."""
        plan = report.plan
        dst = src = None
        if plan is not None and report.dst is not None:
            dst = self._copy(report.dst, plan.dst_end)
            if report.src is not None and plan.src_end:
                src = self._copy(report.src, plan.src_end, report.boundary)
        e = _Entry(report, copy.copy(regs), dst, src)
        self.entries.append(e)
        self.nbytes += e.nbytes
        while self.nbytes > self.max_bytes and self.entries:
            old = next((x for x in self.entries if x.nbytes), None)
            if old is None:
                break
            self.nbytes -= old.nbytes
            old.dst = old.src = None

    @staticmethod
    def _copy(op: Any, nbytes: int, boundary: int = 0) -> tuple[int, np.ndarray] | None:
        mem = op.memory()
        if mem is None:
            return None
        # with a SetLoadDataBoundary the reads wrap inside [0, boundary): keep that whole ring
        lo, end = (0, min(boundary, mem.size)) if boundary else (op.offset, min(op.offset + nbytes, mem.size))
        return lo, mem.data[lo:end].copy()

    def __len__(self) -> int:
        return len(self.entries)

    def __getitem__(self, n: int) -> HistoryStep:
        if not -len(self.entries) <= n < len(self.entries):
            raise BoundsError(f"history: call must be in [0, {len(self.entries) - 1}], but got {n}")
        return HistoryStep(self, n % len(self.entries))

    def __repr__(self) -> str:
        return f"<History: {len(self.entries)} calls, {self.nbytes:,} B of copies (max {self.max_bytes:,})>"


def _snapshot(op: Any, saved: tuple[int, np.ndarray] | None) -> LocalTensor | None:
    """The operand over a private memory holding only the saved bytes (the rest: the fill marker)."""
    mem = op.memory()
    if saved is None:
        return op.tensor()
    lo, data = saved
    size = max(lo + data.size, op.offset + (op.length * op.dtype.bits + 7) // 8)
    snap = Memory(op.memory().name if mem is not None else "?", size, getattr(getattr(mem, "owner", None),
                                                                                "fill", MARKER))
    snap.owner = getattr(mem, "owner", None)
    snap.data[lo : lo + data.size] = data
    return LocalTensor(snap, op.position, op.offset, op.dtype, op.length, name=op.name)


class HistoryStep:
    """Call n of a History: explain / draw it as it was right after the call; in a notebook, its picture."""
    def __init__(self, history: History, n: int) -> None:
        self.history, self.n = history, n
        self.entry = history.entries[n]
        self.report = self.entry.report

    def view(self, who: str = "explain", *, src_layout: str | None = None,
             src_shape: Sequence[int] | None = None) -> StepView:
        e = self.entry
        dst = _snapshot(e.report.dst, e.dst) if e.report.dst is not None else None
        src = _snapshot(e.report.src, e.src) if e.report.src is not None else None
        return report_view(e.report, index=self.n, dst=dst, src=src, regs=e.regs, regs_note="after this call",
                           who=who, src_layout=src_layout, src_shape=src_shape)

    def _others(self) -> list[tuple[str, Any]]:
        return [(f"call {i} ({x.report.instr})", x.report) for i, x in enumerate(self.history.entries)
                if i < self.n]

    @public_entry
    def explain(self, dst: int | None = None, fractal: int | None = None, *, src_layout: str | None = None,
                src_shape: Sequence[int] | None = None) -> Explanation:
        """As `ExecReport.explain`, with the bytes and registers right after the call."""
        return explain_view(self.view(src_layout=src_layout, src_shape=src_shape), dst, fractal)

    @public_entry
    def draw(self, out: str | Path | None = None, *, region: str | Sequence[int] | None = None,
             labels: str = "auto", focus: str | None = None, cumulative: bool = False,
             src_layout: str | None = None, src_shape: Sequence[int] | None = None) -> Path | Drawing:
        """As `ExecReport.draw`, with the bytes and registers right after the call."""
        return draw_view(self.view("draw", src_layout=src_layout, src_shape=src_shape), out, region=region,
                         labels=labels, focus=focus, cumulative=cumulative, others=self._others())

    def _repr_html_(self) -> str:
        head = f"<div style='font-family:monospace'>history call {self.n}:</div>" + report_head(self.report)
        return picture_html(head, self.draw, self.report.plan is not None and self.report.dst is not None)

    def __repr__(self) -> str:
        return f"<history call {self.n}: {self.report!r}>"


# -- scenario steps -----------------------------------------------------------------------------------------


class ScenarioStep:
    """Step n of a ScenarioRun with the scenario's names and layouts: `.explain()`, `.draw()`, the notebook
    picture."""
    def __init__(self, run: Any, n: int, part: str = "data") -> None:
        self.run, self.n, self.part = run, n, part

    def view(self, who: str = "explain") -> StepView:
        return step_view(self.run, self.n, self.part, who=who)

    @public_entry
    def explain(self, dst: int | None = None, fractal: int | None = None) -> Explanation:
        """As `ascsim explain FILE --step N` (`--dst`, `--fractal`)."""
        return explain_view(self.view(), dst, fractal)

    @public_entry
    def draw(self, out: str | Path | None = None, *, region: str | Sequence[int] | None = None,
             labels: str = "auto", focus: str | None = None, cumulative: bool = False) -> Path | Drawing:
        """As `ascsim draw FILE --step N` (a Drawing without `out`)."""
        return draw_view(self.view("draw"), out, region=region, labels=labels, focus=focus,
                         cumulative=cumulative, others=run_others(self.run, self.n))

    def _repr_html_(self) -> str:
        rep = self.run.results[self.n].report
        head = f"<div style='font-family:monospace'>{html.escape(self.run.results[self.n].summary)}</div>"
        return picture_html(head, self.draw, rep is not None and rep.plan is not None)

    def __repr__(self) -> str:
        return f"<scenario step {self.n}: {self.run.results[self.n].summary}>"


@public_entry
def step(run: Any, n: int, part: str = "data") -> ScenarioStep:
    """Step `n` of a ScenarioRun (`part`: "index" / "scales" for LoadDataWithSparse / Load2DMX)."""
    if part != "data" and second_part(run.results[n].step) != part:
        raise UnsupportedError(f"explain: step {n} has no {part!r} part")
    return ScenarioStep(run, n, part)


# -- LocalTensor as HTML ------------------------------------------------------------------------------------


def tensor_html(t: LocalTensor, max_fractals: int = 8, rows: int = 4, cols: int = 8) -> str:
    """A LocalTensor as a row of 512-B fractals (16 x C0), each showing its top-left `rows` x `cols` values;
    bytes still holding the fill marker show as `_` (never written)."""
    c0 = 256 // t.dtype.bits
    fe = 16 * c0
    nf = cdiv(t.length, fe) if t.length else 0
    shown = min(nf, max_fractals)
    n = min(t.length, shown * fe)
    vals = t.read(n) if shown else np.zeros(0)
    raw = t.bytes()
    fill = getattr(t.memory.owner, "fill", MARKER)
    bits = t.dtype.bits
    cells = []
    for f in range(shown):
        trs = []
        for r in range(min(rows, 16)):
            tds = []
            for c in range(min(cols, c0)):
                e = f * fe + r * c0 + c
                if e >= vals.size:
                    v = ""
                else:
                    b = raw[e // 2 : e // 2 + 1] if bits == 4 else raw[e * bits // 8 : (e + 1) * bits // 8]
                    v = "_" if (b == fill).all() else short_value(vals[e].item())
                tds.append(f"<td style='padding:0 3px;text-align:right'>{html.escape(v)}</td>")
            trs.append("<tr>" + "".join(tds) + "<td>&hellip;</td></tr>")
        inner = "".join(trs) + "<tr><td colspan='99'>&vellip;</td></tr>"
        cells.append(f"<td style='vertical-align:top;border:1px solid #888;padding:2px'>"
                     f"<div style='font-weight:bold'>F{f} @0x{t.offset + f * 512:x}</div>"
                     f"<table style='font-family:monospace;font-size:smaller'>{inner}</table></td>")
    more = f"<td>&hellip; {nf - shown} more fractal(s)</td>" if nf > shown else ""
    head = html.escape(repr(t).split(" [")[0])
    return (f"<div><div style='font-family:monospace'>{head}: {nf} fractal(s) of 16 x {c0}; _ = never "
            f"written</div><table style='border-collapse:collapse'><tr>{''.join(cells)}{more}</tr>"
            f"</table></div>")


_record.REPORT_VIEW = sys.modules[__name__]
