"""The record an executed instruction leaves in `Core.log`: counts, hazards, byte ranges, and where its
operands lay — light enough to keep 100,000 of, with the element-level plan rebuilt on demand."""

from __future__ import annotations

import weakref
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, NamedTuple

from ..base.errors import public_entry
from ..machine.memory import LocalTensor
from .plan import Plan


class Operand(NamedTuple):
    """Where an operand of an executed instruction lay: enough to explain or draw the call later, without
    keeping its memory alive (a GM tensor owns its buffer; the log must stay light)."""

    position: str
    offset: int
    dtype: Any  # ascsim.machine.dtypes.DType
    length: int
    memory: Callable[[], Any]  # weak reference to the Memory
    name: str | None = None  # the name the user gave the tensor (`core.tensor(..., name=...)`)

    @classmethod
    def of(cls, t: LocalTensor | None) -> Operand | None:
        # unnamed: a placement's operands are shared by every call at these addresses (`name_operands`)
        return None if t is None else cls(t.position, t.offset, t.dtype, t.length, weakref.ref(t.memory))

    def tensor(self) -> LocalTensor | None:
        """The operand as a LocalTensor again (None once its memory is gone)."""
        mem = self.memory()
        return None if mem is None else LocalTensor(mem, self.position, self.offset, self.dtype, self.length,
                                                    name=self.name)

    def holds(self, t: LocalTensor) -> bool:
        """Is `t` this operand (same memory, place, type and length)?"""
        return (t.memory is self.memory() and t.offset == self.offset and t.length == self.length
                and t.position == self.position and t.dtype == self.dtype)


def name_operands(report: ExecReport, *tensors: LocalTensor | None) -> None:
    """Give the report's operands the names of the call's tensors (`Core`'s generated methods call this
    when a tensor has a name; the operands the placement cached stay unnamed)."""
    for slot in ("dst", "src"):
        op = getattr(report, slot)
        if op is None:
            continue
        t = next((t for t in tensors if t is not None and t.name is not None and op.holds(t)), None)
        if t is not None:
            setattr(report, slot, op._replace(name=t.name))


#: The renderer behind ExecReport.explain / draw / _repr_html_. `ascsim.view`, which lives
#: above explain and draw, registers itself here when imported (docs/architecture.md "Pictures import
#: downward": this module never imports the picture layers; `import ascsim` loads the view).
REPORT_VIEW: Any = None


VIEW_MODULE = "ascsim.view.history"


def _report_view() -> Any:
    if REPORT_VIEW is None:  # e.g. `from ascsim.core import Core` only: load the registered view layer
        import importlib

        importlib.import_module(VIEW_MODULE)
    return REPORT_VIEW


class ExecReport:
    """The record of one executed instruction — light enough to keep 100,000 of in `Core.log`.

    Holds counts, hazards, notes, the byte ranges read and written (`reads` / `writes`: tuples of
    (memory name, start, end) absolute byte addresses, for the sync checker), where its operands lay
    (`dst` / `src` as `Operand`, shared between the calls of one placement) and, instead of its plan, a
    small `planner` that rebuilds the element-level plan when `plan` is asked for (explain / draw).
    `Core(keep_plans=True)` keeps the plan itself.

    In a notebook a report shows itself as a picture (`_repr_html_`: the summary and the inline SVG; the
    text `repr` is the fallback) and `report.explain()` says where every destination element came from;
    both are rendered by `ascsim.view` from the plan, the operands and the params struct (`params`).
    """

    __slots__ = ("instr", "bytes_written", "bytes_read", "pad_elements", "hazards", "notes", "reads",
                 "writes", "_plan", "planner", "dst", "src", "pad_pattern", "boundary", "params")

    def __init__(self, instr: str, bytes_written: int = 0, bytes_read: int = 0, pad_elements: int = 0,
                 hazards: list[str] | None = None, plan: Plan | None = None, notes: list[str] | None = None,
                 reads: tuple = (), writes: tuple = (), planner: Callable[[], Plan] | None = None,
                 dst: Operand | None = None, src: Operand | None = None, pad_pattern: int = 0,
                 boundary: int = 0) -> None:
        self.instr = instr
        self.bytes_written = bytes_written
        self.bytes_read = bytes_read
        self.pad_elements = pad_elements
        self.hazards = [] if hazards is None else hazards
        self.notes = [] if notes is None else notes
        self.reads = reads
        self.writes = writes
        self._plan = plan
        self.planner = planner
        self.dst = dst
        self.src = src
        self.pad_pattern = pad_pattern
        self.boundary = boundary
        self.params: Any = None  # the params struct the call was given (set by Core's generated methods)

    @property
    def plan(self) -> Plan | None:
        """The element-level plan (rebuilt on demand; None for instructions without one)."""
        if self._plan is not None:
            return self._plan
        return None if self.planner is None else self.planner()

    @plan.setter
    def plan(self, value: Plan | None) -> None:
        self._plan = value

    def keep_plan(self) -> None:
        """Hold the plan itself (Core(keep_plans=True))."""
        if self._plan is None and self.planner is not None:
            self._plan = self.planner()

    def on(self, dst: LocalTensor | None, src: LocalTensor | None, pad_pattern: int = 0, boundary: int = 0
           ) -> ExecReport:
        """Record the operands the plan's offsets are relative to (returns self)."""
        self.dst, self.src = Operand.of(dst), Operand.of(src)
        self.pad_pattern, self.boundary = pad_pattern, boundary
        return self

    @public_entry
    def explain(self, dst: int | None = None, fractal: int | None = None, *, src_layout: str | None = None,
                src_shape: Sequence[int] | None = None) -> Any:
        """Where the destination elements came from, as text (`ascsim.view.history.explain_report`): the
        summary, then element `dst` or destination fractal `fractal` (default: the first written).
        `src_layout` ("flat", "nz", "zz", "zn") with a 2-D `src_shape` gives matrix (row, col) of a matrix
        source. An `Explanation`: a `str` that shows as text in a notebook."""
        return _report_view().explain_report(self, dst, fractal, src_layout=src_layout, src_shape=src_shape)

    @public_entry
    def draw(self, out: str | Path | None = None, *, region: str | Sequence[int] | None = None,
             labels: str = "auto", focus: str | None = None, cumulative: bool = False,
             src_layout: str | None = None, src_shape: Sequence[int] | None = None) -> Any:
        """The picture of this call (`ascsim.view.history.draw_report`; options as `ascsim draw`): written
        to `out` (.svg / .png; returns its Path) or, without `out`, a `Drawing` — the SVG text as a `str`
        that shows as the picture in a notebook (`.save(path)` writes it)."""
        return _report_view().draw_report(self, out, region=region, labels=labels, focus=focus,
                                          cumulative=cumulative, src_layout=src_layout, src_shape=src_shape)

    def _repr_html_(self) -> str:
        # the picture inline (notebooks prefer text/html over image/svg+xml, so the SVG lives in the HTML)
        return _report_view().report_html(self)

    def __repr__(self) -> str:
        extra = f", hazards={self.hazards!r}" if self.hazards else ""
        notes = f", notes={self.notes!r}" if self.notes else ""
        return (f"ExecReport({self.instr!r}, bytes_written={self.bytes_written}, "
                f"bytes_read={self.bytes_read}, pad_elements={self.pad_elements}{extra}{notes})")
