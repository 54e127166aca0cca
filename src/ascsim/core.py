"""`Core`: one AI Core of one chip — its memories and registers (`engine.state.CoreState`) and one method
per instruction of the instruction table (`isa.table`).

Registers modelled (docs/registers.md): FMATRIX left/right (l1H, l1W, padList), PADDING (raw bit
pattern), the Load3D repeat config (repeatStride, repeatTime, repeatMode, dstStride on 950), the L1
boundary (A2/A3), and the Fixpipe / atomic / DataCopyPad registers (ND_PARA, QUANT_PRE, FPC quant
address, the atomic-add type, MOV_PAD_VAL). Every instruction validates everything first, then writes
registers / memory, so a rejected call changes nothing.

The methods are generated from the table's operations (as `dataclasses` generates `__init__`): each has
the operation's Python signature and docstring, checks its tensor and struct operands as the table
declares them (a C++ call with a non-tensor or a struct no overload takes does not compile), runs the
family function and logs its record. Generated code keeps the per-call cost of the hot path what a
hand-written method costs (a LoadData 2D call is ~2 µs in all).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any

from .base.errors import BARE_RERAISE_TRIMS, AscsimError, public_entry, trim
from .engine.boundary import Batch
from .engine.record import ExecReport, name_operands
from .engine.state import MMAD_ACCUMULATE, CoreOptions, CoreState
from .isa import table
from .isa.table import REQUIRED, STRUCT, TENSOR, Op
from .machine import checks
from .machine.memory import LocalTensor

__all__ = ["Core", "CoreOptions", "MMAD_ACCUMULATE"]


class Core(CoreState):
    """A simulated AI Core. `Core("a2")`, `Core("950", strict=True)`.

    strict: hazards (e.g. a write past the destination LocalTensor inside the memory) raise
    `HazardError` instead of warning.
    keep_plans: every record in `log` keeps its element-level plan (otherwise `report.plan` rebuilds
    it on demand, and the log stays light).
    mmad_accumulate: how a float Mmad sums (MMAD_ACCUMULATE; docs/mmad.md "How exact is float Mmad").
    fill: the byte fresh memory holds. `options=CoreOptions(...)` gives them all at once.

    One method per instruction of `ascsim.isa.table` (`load_data`, `mmad`, `data_copy`, `fixpipe`,
    `set_fmatrix`, ...), each taking the C++ call's operands in the C++ order.
    """

    @public_entry
    def run(self, steps: Iterable[Sequence[Any]]) -> list[ExecReport]:
        """Execute a sequence of calls — `core.run([(core.load_data, dst, src, p), ("mmad", c, a, b, mp)])`,
        each step a callable (or a Core method name) followed by its arguments — batching consecutive
        LoadData gathers into one gather per run of compatible calls (`ascsim.engine.boundary.Batch`).

        The result is the same bytes, registers, records and warnings as calling the steps one by one; a
        step that fails raises after every step before it has executed, and changes nothing itself.
        Reading memory between steps needs separate `run` calls (or plain calls)."""
        plain = self.batch is not None or self.history is not None  # nested, or History needs each write
        batch = None if plain else Batch()
        self.batch = self.batch if plain else batch
        reports = []
        try:
            for step in steps:
                fn, *args = step
                if isinstance(fn, str):
                    fn = getattr(self, fn)
                if batch is not None and getattr(fn, "__func__", None) not in _BATCHABLE:
                    batch.flush()  # only the LoadData gathers queue; anything else runs in order
                reports.append(fn(*args))
        finally:
            if batch is not None:
                self.batch = None
                batch.flush()
        return reports


# -- the methods, from the instruction table -----------------------------------------------------------------


def _method_source(op: Op) -> str:
    """The source of `Core.<op.method>`: signature, operand checks, the family call, the log."""
    params, call = ["self"], ["self"]
    kw_only = False
    for a in op.args:
        if a.keyword and not kw_only:
            params.append("*")
            kw_only = True
        params.append(a.name if a.default is REQUIRED else f"{a.name}=_d_{a.name}")
        call.append(a.name)
    msg = "instr" if any(a.name == "instr" for a in op.args) else repr(op.instr)
    body = []
    tensors = [a for a in op.args if a.kind == TENSOR]
    if tensors:  # the fast test first: a check that passes builds no message
        fast = " or ".join(f"({a.name} is not None and {a.name}.__class__ is not _LT)" if a.optional
                           else f"{a.name}.__class__ is not _LT" for a in tensors)
        optional = tuple(a.cpp_name for a in tensors if a.optional)
        named = ", ".join(f"{a.cpp_name}={a.name}" for a in tensors)
        body += [f"    if {fast}:", f"        _tensors({msg}, {optional!r}, {named})"]
    for a in op.args:
        if a.kind == STRUCT and a.check and a.structs:
            guard = f"{a.name}.__class__ not in _s_{a.name}"
            if a.optional:
                guard = f"{a.name} is not None and {guard}"
            body += [f"    if {guard}:", f"        _struct({msg}, {a.cpp_name!r}, {a.name}, _s_{a.name})"]
    if op.dispatch is not None:
        body += ["    fn = _dispatch.get(params.__class__)",
                 "    if fn is None:",
                 f"        raise _no_overload({msg}, params, _dispatch)",
                 f"    report = fn({', '.join(call)})"]
    else:
        body.append(f"    report = _run({', '.join(call)})")
    if not op.setter:
        named = " or ".join(f"({a.name} is not None and {a.name}.name is not None)" if a.optional
                            else f"{a.name}.name is not None" for a in tensors)
        if named:  # the names the user gave the tensors (the placement's operands are shared, unnamed)
            body += [f"    if {named}:", f"        _named(report, {', '.join(a.name for a in tensors)})"]
        struct = next((a for a in op.args if a.kind == STRUCT and a.name == "params"), None) or next(
            (a for a in op.args if a.kind == STRUCT), None)
        if struct is not None:  # the struct the user passed, for explain / draw
            body.append(f"    report.params = {struct.name}")
    body.append("    return report" if op.setter else "    return self._logged(report)")
    # refusals reach the caller with the caller's frames only (base.errors.trim; ASCSIM_TRACEBACK=full)
    inner = "\n".join("    " + ln for ln in body)
    reraise = "raise" if BARE_RERAISE_TRIMS else "raise _e"
    return (f"def {op.method}({', '.join(params)}):\n    try:\n{inner}\n"
            f"    except _AscsimError as _e:\n        _trim(_e)\n        {reraise}\n")


def _method(op: Op) -> Callable[..., Any]:
    namespace: dict[str, Any] = {
        "__name__": __name__,  # warnings skip ascsim's frames (base.diagnostics.user_stacklevel)
        "_LT": LocalTensor, "_tensors": checks.tensors, "_struct": checks.struct, "_run": op.run,
        "_dispatch": op.dispatch, "_no_overload": table.no_overload, "_named": name_operands,
        "_AscsimError": AscsimError, "_trim": trim,
        **{f"_d_{a.name}": a.default for a in op.args if a.default is not REQUIRED},
        **{f"_s_{a.name}": frozenset(a.structs) for a in op.args if a.kind == STRUCT},
    }
    exec(compile(_method_source(op), f"<ascsim.Core.{op.method}>", "exec"), namespace)  # noqa: S102
    fn = namespace[op.method]
    fn.__doc__ = op.doc
    fn.__qualname__ = f"Core.{op.method}"
    fn.__module__ = __name__
    return fn


for _op in table.operations():
    setattr(Core, _op.method, _method(_op))

#: Core methods whose calls `Core.run` may queue (gather-type instructions executed by boundary.run_gather).
_BATCHABLE = frozenset(getattr(Core, op.method) for op in table.operations() if op.gather)
