"""A program: the tensors a kernel declares and the calls it makes, in order — the one form the planner
emits and that the flows execute, the scenario writer prints and the C++ printer turns into statements.

A `Call` names a scenario call (`DataCopy`, `LoadData`, `LoadDataWithTranspose`, `Mmad`, `Fixpipe`, ...),
its tensor arguments as (tensor name, element index) — `l0a[256]` in C++ — and its parameter struct, so
the same record runs on a `Core` (`Program.run`) and prints as a scenario step (`planner.emit`). Each call
also carries the pipe it issues on and the bytes it writes, which the planner's cost model sums.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..core import Core
from ..engine.record import ExecReport
from ..isa.table import BY_NAME, REQUIRED, TENSOR, pipe_of
from ..machine.dtypes import DType
from ..machine.memory import LocalTensor
from ..scenario.writer import scenario_toml


@dataclass
class TensorDecl:
    """A tensor the program declares: TPosition, dtype, length (elements), byte offset in its memory
    (None for GM: its own buffer), initial values (GM inputs: the flat values as laid out), a comment."""

    name: str
    position: str
    dtype: DType
    length: int
    offset: int | None = None
    data: np.ndarray | None = None
    note: str = ""


@dataclass(slots=True)
class Call:
    """One call: scenario call name, tensor arguments role -> (tensor, element index), params struct,
    extra scenario keys (e.g. DataCopy GM->BT `config`), pipe, bytes written and a comment."""

    call: str
    args: dict[str, tuple[str, int]]
    params: Any = None
    nbytes: int = 0
    note: str = ""
    extra: dict | None = None
    dst_mem: str = ""  # memory written ("L1", "L0A", ...), for the report's bytes per level
    span: int = 0  # bytes from dst the call may touch when more than nbytes (whole fractals), for capacity
    src_mem: str = ""  # memory read, for the pipe of a data move

    @property
    def pipe(self) -> str:
        """The pipe it issues on (the instruction table's; register setters on the scalar pipe)."""
        return pipe_of(self.call, self.dst_mem or None, self.src_mem or None) or "S"


@dataclass
class Program:
    """Tensors then calls; `outputs` names the GM tensors a run produces."""

    chip: str
    tensors: dict[str, TensorDecl] = field(default_factory=dict)
    calls: list[Call] = field(default_factory=list)
    outputs: tuple[str, ...] = ()
    description: str = ""
    _bound: weakref.WeakKeyDictionary = field(default_factory=weakref.WeakKeyDictionary, repr=False,
                                              compare=False)

    def declare(self, name: str, position: str, dtype: DType, length: int, offset: int | None = None,
                data: np.ndarray | None = None, note: str = "") -> str:
        self.tensors[name] = TensorDecl(name, position, dtype, int(length), offset, data, note)
        return name

    def bind(self, core: Core, data: dict[str, np.ndarray] | None = None) -> dict[str, LocalTensor]:
        """The declared tensors on `core`, GM inputs written with `data` (or their declared data). A core
        that ran this program before gets the same tensors back, so repeated runs (a flow called in a loop)
        do not allocate GM again and again."""
        out = self._bound.get(core)
        if out is None:
            out = {}
            for d in self.tensors.values():
                if d.position == "GM":
                    out[d.name] = core.global_tensor(d.dtype, d.length)
                else:
                    out[d.name] = core.tensor(d.position, d.dtype, d.length, offset=d.offset)
            self._bound[core] = out
        for d in self.tensors.values():
            values = (data or {}).get(d.name, d.data)
            if values is not None:
                write_values(out[d.name], values)
        return out

    def run(self, core: Core, tensors: dict[str, LocalTensor] | None = None
            ) -> tuple[dict[str, LocalTensor], list[ExecReport]]:
        """Execute every call on `core` (as one `Core.run`, which batches consecutive loads into one
        gather); returns the bound tensors and one report per call."""
        tensors = self.bind(core) if tensors is None else tensors
        views: dict[tuple[str, int], LocalTensor] = {}

        def view(ref: tuple[str, int]) -> LocalTensor:
            t = views.get(ref)
            if t is None:
                base = tensors[ref[0]]
                t = views[ref] = base[ref[1]] if ref[1] else base
            return t

        return tensors, core.run(_step(core, c, view) for c in self.calls)

    def count(self) -> dict[str, int]:
        """Calls per instruction name (LoadData split by params struct)."""
        out: dict[str, int] = {}
        for c in self.calls:
            k = instr_name(c)
            out[k] = out.get(k, 0) + 1
        return out


def write_values(t: LocalTensor, data: np.ndarray) -> None:
    """Store values into a tensor; an array already of the dtype's value type is stored as its bit patterns
    (no float64 round trip: a 1024 x 1024 half matrix is a 2 MB copy)."""
    dt = t.dtype
    data = np.asarray(data)
    if not dt.is_4bit and data.dtype == dt.value_dtype:
        t.write_raw(np.ascontiguousarray(data).ravel().view(dt.raw_dtype))
    else:
        t.write(data)


def instr_name(c: Call) -> str:
    """The instruction a call runs, as ExecReport.instr spells it for the common forms."""
    if c.call == "LoadData":
        return _LOAD_NAMES.get(type(c.params).__name__, "LoadData")
    return c.call


_LOAD_NAMES = {"LoadData3DParamsV2": "Load3Dv2", "LoadData2DParams": "LoadData2D",
               "LoadData2DParamsV2": "LoadData2Dv2"}


def _step(core: Core, c: Call, view: Callable) -> tuple:
    """The `Core.run` step (method, arguments) a call becomes: its form's arguments in order, tensors from
    their views, the params struct, the rest at their defaults (the instruction table)."""
    form = BY_NAME[c.call].form_for(c.args)
    args = []
    for a in form.op.args:
        if a.keyword:
            break
        key = a.step_key
        args.append(view(c.args[key]) if a.kind == TENSOR and key in c.args else c.params if key == "params"
                    else None if a.default is REQUIRED else a.default)
    while args and args[-1] is None and form.op.args[len(args) - 1].default is None:
        args.pop()
    return (getattr(core, form.op.method), *args)


def run_calls(core: Core, tensors: dict[str, LocalTensor], calls: Iterable[Call]) -> list[ExecReport]:
    """Execute calls against already bound tensors (the single-tile flows use this)."""
    prog = Program(core.chip.key, calls=list(calls))
    return prog.run(core, tensors)[1]


def _ref(ref: tuple[str, int]) -> Any:
    name, index = ref
    return name if not index else {"tensor": name, "index": index}


def scenario_text(prog: Program, data: dict[str, str], header: str = "") -> str:
    """The program as a scenario; `data` maps GM input tensors to their raw byte file (relative to the
    scenario)."""
    tensors = {}
    for d in prog.tensors.values():
        t: dict[str, Any] = {"position": d.position, "dtype": d.dtype.name, "length": d.length}
        if d.offset is not None:
            t["offset"] = d.offset
        if d.name in data:
            t["init"] = {"raw": data[d.name]}
        tensors[d.name] = t
    steps = []
    for c in prog.calls:
        s: dict[str, Any] = {"call": c.call, **{role: _ref(ref) for role, ref in c.args.items()}}
        if c.params is not None:
            s["params"] = c.params
        s.update(c.extra or {})
        if c.note:
            s["note"] = c.note
        steps.append(s)
    doc = {"description": prog.description, "chip": prog.chip, "tensors": tensors, "steps": steps,
           "save": {name: f"{name}.npy" for name in prog.outputs}}
    return scenario_toml(doc, header, {d.name: d.note for d in prog.tensors.values() if d.note})
