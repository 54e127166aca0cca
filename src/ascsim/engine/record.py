"""The record an executed instruction leaves in `Core.log`: counts, hazards, byte ranges, and where its
operands lay — light enough to keep 100,000 of, with the element-level plan rebuilt on demand."""

from __future__ import annotations

import weakref
from collections.abc import Callable
from typing import Any, NamedTuple

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

    @classmethod
    def of(cls, t: LocalTensor | None) -> Operand | None:
        return None if t is None else cls(t.position, t.offset, t.dtype, t.length, weakref.ref(t.memory))

    def tensor(self) -> LocalTensor | None:
        """The operand as a LocalTensor again (None once its memory is gone)."""
        mem = self.memory()
        return None if mem is None else LocalTensor(mem, self.position, self.offset, self.dtype, self.length)


#: The renderer behind ExecReport.explain / draw / _repr_svg_ / _repr_html_. `ascsim.view`, which lives
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

    In a notebook a report shows itself as a picture (`_repr_svg_`) and `report.explain()` says where every
    destination element came from; both are rendered by `ascsim.view` from the plan and the operands.
    """

    __slots__ = ("instr", "bytes_written", "bytes_read", "pad_elements", "hazards", "notes", "reads",
                 "writes", "_plan", "planner", "dst", "src", "pad_pattern", "boundary")

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

    def explain(self, dst: int | None = None, fractal: int | None = None, **kw: Any) -> str:
        """Where the destination elements came from (`ascsim.view.explain_report`)."""
        return _report_view().explain_report(self, dst=dst, fractal=fractal, **kw)

    def draw(self, out: Any = None, **kw: Any) -> Any:
        """The picture of this call (`ascsim.view.draw_report`): to a file (.svg / .png) or as SVG text."""
        return _report_view().draw_report(self, out, **kw)

    def _repr_svg_(self) -> str | None:
        return _report_view().report_svg(self)

    def _repr_html_(self) -> str | None:
        return _report_view().report_html(self)

    def __repr__(self) -> str:
        extra = f", hazards={self.hazards!r}" if self.hazards else ""
        notes = f", notes={self.notes!r}" if self.notes else ""
        return (f"ExecReport({self.instr!r}, bytes_written={self.bytes_written}, "
                f"bytes_read={self.bytes_read}, pad_elements={self.pad_elements}{extra}{notes})")
