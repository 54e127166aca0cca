"""The Ascend C side of the interpreter: API objects (LocalTensor / GlobalTensor methods, TPipe, TQue,
TQueBind, TBuf), calls through the binding table of `api` to the `ascsim.ascendc` facade, and the sync
calls (SetFlag / WaitFlag / PipeBarrier, and the flags a queue's EnQue / DeQue / FreeTensor / AllocTensor
stand for) handed to the sync checker."""

from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import Any

import numpy as np
from tree_sitter import Node

from .. import ascendc
from ..base.errors import HazardWarning, NotImplementedFeature
from ..engine.record import ExecReport
from ..engine.sync import Access, PipeCall, call_accesses
from ..isa.table import pipe_of
from ..machine.memory import LocalTensor, memory_of
from . import api as A
from .cells import UNINIT, Scope, TraceCall, first_line, show
from .cvalues import BOOL, INT32, SCALARS, UINT32, UINT64, Num, TypeVal, convert, scalar_type
from .runtime import QUE_LOGIC, GmPtr, Pipe, Queue, RuntimeFault, Unset, queue_events
from .syntax import field as fld
from .syntax import named, text


class ApiCalls:
    """Mixed into `Interp`: everything that touches the Ascend C API."""

    def _api_object(self, typ: TypeVal, args: list, node: Node) -> Any:
        name = typ.ref
        if name in ("LocalTensor", "GlobalTensor"):
            dt = self._elem(typ, node)
            if name == "GlobalTensor" or not args:
                if args:
                    raise RuntimeFault("GlobalTensor<T> takes no constructor arguments (use SetGlobalBuffer)")
                return Unset(name, dt)
            if len(args) != 3:
                raise RuntimeFault(
                    f"LocalTensor<{dt.name}>(TPosition, address, length) takes 3 arguments, "
                    f"but got {len(args)}"
                )
            pos, addr, length = args
            if not (isinstance(pos, A.EnumVal) and pos.enum == "TPosition"):
                raise RuntimeFault(
                    f"LocalTensor<{dt.name}>: the first argument must be a TPosition, but got {pos}"
                )
            mem = self.core.memory(memory_of(pos.member))
            return LocalTensor(mem, pos.member, int(addr), dt, int(length))
        if name == "TPipe":
            self._pipe = Pipe(dict(self.core.chip.memory_sizes))
            return self._pipe
        if name in ("TQue", "TQueBind", "TBuf"):
            return self._queue(typ, node)
        raise RuntimeFault(f"{typ.name} cannot be constructed here")

    def _queue(self, typ: TypeVal, node: Node) -> Queue:
        args = typ.args
        pos = [a.member for a in args if isinstance(a, A.EnumVal) and a.enum == "TPosition"]
        depths = [int(a) for a in args if isinstance(a, Num)]
        if typ.ref == "TBuf":
            p = pos[0] if pos else "VECCALC"
            return Queue(typ.name, p, p, 0, is_tbuf=True)
        if typ.ref == "TQue":
            if len(pos) != 1:
                raise RuntimeFault(f"{typ.name}: TQue<TPosition, depth> needs one TPosition")
            src, dst = QUE_LOGIC.get(pos[0], (None, None))
            if src is None:
                raise RuntimeFault(f"{typ.name}: a TQue at {pos[0]} is not a cube-side queue ascsim models")
        else:
            if len(pos) != 2:
                raise RuntimeFault(f"{typ.name}: TQueBind<src, dst, depth> needs two TPositions")
            src, dst = pos
        queue_events(src, dst)
        return Queue(typ.name, src, dst, depths[0] if depths else 1)

    def _elem(self, typ: TypeVal, node: Node):
        if not typ.args or not isinstance(typ.args[0], TypeVal):
            raise self.err(node, f"{typ.name} needs an element type")
        t = typ.args[0]
        if t.dtype is None:
            raise NotImplementedFeature(f"{typ.name}: ascsim has no {t.name} element type")
        return t.dtype

    # ================================================================================== the API
    def _api_call(self, name: str, targs: list, argn: list[Node], scope: Scope, node: Node) -> Any:
        if name in A.SYNC_CALLS:
            return self._sync(name, targs, argn, scope, node)
        if name in A.NO_OPS:
            self._args(argn, scope)
            return None
        if name in A.QUERIES:
            return Num(A.QUERIES[name], INT32)
        if name in A.SCALAR_HELPERS:
            return self._scalar_helper(name, argn, scope, node)
        if name == "assert":
            if argn and not self.truth(self.eval(argn[0], scope), argn[0]):
                raise self.err(node, f"assert({first_line(argn[0])}) failed")
            return None
        bind = A.API.get(name)
        if bind is None:
            if name in A.UNMODELLED:
                self.guard(node, lambda: _raise(A.unmodelled(name)))
            raise self.w.unsupported(fld(node, "function"), f"call to '{name}'")
        args = self._args(argn, scope, bind.brace(len(argn)))
        for a, n in zip(args, argn, strict=False):
            if isinstance(a, Unset):
                raise self.err(n, str(a.fault(name)))
        loc = self.where(node)
        prepared = self.guard(node, lambda: bind.adapt(targs, args))
        fn = self.guard(node, lambda: A.facade(bind))
        fargs = [A.plain(a) for a in prepared.args]
        fkw = {k: A.plain(v) for k, v in prepared.kwargs.items()}
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            with ascendc.use(self.core):
                report = self.guard(node, lambda: _call_facade(fn, fargs, fkw, name))
        for w in caught:
            msg = f"{loc}: {w.message}"
            self.warnings.append(msg)
            warnings.warn(
                msg, w.category if issubclass(w.category, HazardWarning) else HazardWarning, stacklevel=2
            )
        rep = report if isinstance(report, ExecReport) else None
        if not bind.setter:
            dst = prepared.writes[0].memory.name if prepared.writes else None
            src = prepared.reads[0].memory.name if prepared.reads else None
            pipe = pipe_of(name, dst, src, self.core.chip.key)
            if pipe is not None:
                acc = call_accesses(rep, prepared.writes, prepared.reads)
                self.guard(node, lambda: self.sync.instruction(PipeCall(name, pipe, loc.short, acc)))
        step = dict(prepared.step) if prepared.step is not None else None
        if step is not None:
            step = {k: A.snapshot(v) for k, v in step.items()}
        roots = {id(a): _root(n) for a, n in zip(args, argn, strict=False) if isinstance(a, LocalTensor)}
        self.trace.append(TraceCall(len(self.trace), name, loc, step, rep, roots))
        return None

    def _scalar_helper(self, name: str, argn: list[Node], scope: Scope, node: Node) -> Num:
        """AscendC::DivCeil / Ceil / ConstCeil / AlignUp: uint32_t arithmetic, as their C++ definitions."""
        args = self._args(argn, scope)
        if len(args) != 2 or not all(isinstance(a, Num) for a in args):
            raise self.err(node, f"{name} takes two integers (uint32_t a, uint32_t b)")
        a, b = (convert(x.v, UINT32) for x in args)
        if b == 0:
            raise self.err(node, f"{name}: division by zero")
        return Num(convert(A.SCALAR_HELPERS[name](a, b), UINT32), UINT32)

    def _sync(self, name: str, targs: list, argn: list[Node], scope: Scope, node: Node) -> None:
        where = self.where(node).short
        if name == "PipeBarrier":
            if len(targs) != 1 or not isinstance(targs[0], A.EnumVal) or targs[0].enum != "pipe_t":
                raise self.err(
                    node, "PipeBarrier takes one pipe_t template argument (PIPE_MTE1, PIPE_ALL, ...)"
                )
            self.guard(node, lambda: self.sync.barrier(targs[0].member))
            return None
        if len(targs) != 1 or not isinstance(targs[0], A.EnumVal) or targs[0].enum != "HardEvent":
            raise self.err(node, f"{name} takes one HardEvent template argument (HardEvent::MTE2_MTE1, ...)")
        args = self._args(argn, scope)
        if len(args) != 1 or not isinstance(args[0], Num):
            raise self.err(node, f"{name} takes one event id (EVENT_ID0 ... EVENT_ID7)")
        eid = int(args[0].v)
        if not 0 <= eid <= 7:
            raise self.err(
                argn[0],
                f"{name}: the event id must be in [0, 7], but got {eid} (SetFlag-WaitFlag"
                "(ISASI).md 约束说明)",
            )
        event = targs[0].member
        if name == "SetFlag":
            self.guard(node, lambda: self.sync.set_flag(event, eid, where))
        else:
            self.guard(node, lambda: self.sync.wait_flag(event, eid, where))
        return None

    def _builtin_method(
        self, cell: Any, obj: Any, m: str, targs: list, argn: list[Node], scope: Scope, node: Node
    ) -> Any:
        """Methods of API objects: tensors, queues, TPipe, params structs."""
        if obj is UNINIT:
            raise self.err(
                node, f"'{first_line(fld(fld(node, 'function'), 'argument'))}' is used before it is assigned"
            )
        if isinstance(obj, (LocalTensor, Unset)):
            return self._tensor_method(cell, obj, m, targs, argn, scope, node)
        if isinstance(obj, Queue):
            return self._queue_method(obj, m, targs, argn, scope, node)
        if isinstance(obj, Pipe):
            return self._pipe_method(obj, m, argn, scope, node)
        fn = getattr(obj, m, None) if m[:1].isupper() else None
        if callable(fn) and (A.struct_fields(type(obj)) or hasattr(obj, "config0")):
            args = [A.plain(a) for a in self._args(argn, scope)]
            r = self.guard(node, lambda: fn(*args))
            return (
                Num(r, UINT64)
                if isinstance(r, int) and not isinstance(r, bool)
                else Num(r, BOOL)
                if isinstance(r, bool)
                else None
            )
        raise self.err(node, f"'{m}' of {show(obj)} is not supported by ascsim's C++ front-end")

    def _tensor_method(
        self, cell: Any, t: Any, m: str, targs: list, argn: list[Node], scope: Scope, node: Node
    ) -> Any:
        args = self._args(argn, scope)
        if m == "SetGlobalBuffer":
            if not isinstance(t, Unset) and not (isinstance(t, LocalTensor) and t.position == "GM"):
                raise self.err(node, "SetGlobalBuffer is a GlobalTensor method")
            if len(args) not in (1, 2) or not isinstance(args[0], (GmPtr, Unset)) and args[0] is not None:
                raise self.err(node, "SetGlobalBuffer takes a __gm__ pointer (and a size)")
            p = args[0]
            if p is None or isinstance(p, Unset):
                cell.set(Unset("GlobalTensor", t.dtype, getattr(p, "param", "") or "nullptr"))
                return None
            if p.space is None:
                cell.set(Unset("GlobalTensor", t.dtype, p.param))
                return None
            length = int(args[1]) if len(args) == 2 else None
            cell.set(self.guard(node, lambda: p.tensor(t.dtype, length)))
            return None
        if isinstance(t, Unset):
            if t.param and m in ("GetPhyAddr",):
                return GmPtr(None, 0, t.dtype, t.param)
            if t.param and m == "ReinterpretCast":
                return Unset(t.kind, self._targ_dtype(targs, node, m), t.param)
            raise self.err(node, str(t.fault(m)))
        if m == "ReinterpretCast":
            dt = self._targ_dtype(targs, node, m)
            return self.guard(node, lambda: t.reinterpret(dt))
        if m == "GetPhyAddr":
            if t.position == "GM":
                return GmPtr(self.gm, t.offset, t.dtype, "")
            return Num(t.offset, UINT64)
        if m in ("GetSize", "GetLength"):
            return Num(t.length if m == "GetSize" else t.nbytes, UINT32)
        if m == "GetPosition":
            return A.EnumVal("TPosition", t.position)
        if m in ("GetValue", "SetValue"):
            return self._scalar_access(t, m, args, node)
        raise self.err(node, f"LocalTensor method '{m}' is not supported by ascsim's C++ front-end")

    def _targ_dtype(self, targs: list, node: Node, m: str):
        if len(targs) != 1 or not isinstance(targs[0], TypeVal) or targs[0].dtype is None:
            raise self.err(node, f"{m}<T> needs an element type ascsim models")
        return targs[0].dtype

    def _scalar_access(self, t: LocalTensor, m: str, args: list, node: Node) -> Any:
        """GetValue(i) / SetValue(i, v): one element on the scalar pipe (PIPE_S)."""
        if not args or not isinstance(args[0], Num):
            raise self.err(node, f"{m} takes an element index")
        i = int(args[0].v)
        if not 0 <= i < t.length:
            raise self.err(node, f"{m}({i}) is outside the tensor's {t.length} elements")
        e = self.guard(node, lambda: t[i])
        nb = max(1, t.dtype.bits // 8)
        acc = [(t.memory.name, e.offset, e.offset + nb, m == "SetValue")]
        self.guard(
            node, lambda: self.sync.instruction(PipeCall(m, "S", self.where(node).short,
                                                         [_acc(*a) for a in acc]))
        )
        if m == "GetValue":
            v = e.bytes()[:8].view(t.dtype.value_dtype)[0] if t.dtype.bits == 64 else e.read(1)[0]
            ct = SCALARS.get(t.dtype.name)
            if ct is None:
                raise self.err(node, f"GetValue on {t.dtype.name} is not supported by ascsim's C++ front-end")
            return Num(convert(v.item() if hasattr(v, "item") else v, ct), ct)
        if len(args) != 2:
            raise self.err(node, "SetValue takes (index, value)")
        self.trace.append(TraceCall(len(self.trace), "SetValue", self.where(node), None, None, {}))
        ct = SCALARS.get(t.dtype.name)
        if ct is None or not isinstance(args[1], Num):
            raise self.err(
                node,
                f"SetValue of {show(args[1])} into {t.dtype.name} is not supported by ascsim's C++ front-end",
            )
        v = self.guard(node, lambda: convert(args[1].v, ct))  # SetValue(index, T value): C++ converts to T
        if t.dtype.bits == 64:  # the front-end's own 64-bit element types: bytes by numpy
            e.bytes()[:8] = np.array([v], dtype=t.dtype.value_dtype).view(np.uint8)
        else:
            self.guard(node, lambda: e.write([v]))
        return None

    def _queue_method(self, q: Queue, m: str, targs: list, argn: list[Node], scope: Scope, node: Node) -> Any:
        args = self._args(argn, scope)
        where = self.where(node).short
        fwd, back = queue_events(q.src, q.dst) if not q.is_tbuf else ("", "")
        if not q.blocks:
            raise self.err(node, f"{q.name}.{m}: the queue has no buffers (call pipe.InitBuffer first)")
        if q.is_tbuf:
            if m not in ("Get", "GetWithOffset"):
                raise self.err(node, f"TBuf method '{m}' is not supported by ascsim's C++ front-end")
            dt = self._targ_dtype(targs, node, m)
            b = q.blocks[0]
            off = int(args[1]) if m == "GetWithOffset" else 0
            length = int(args[0]) if args else b.nbytes * 8 // dt.bits
            mem = self.core.memory(q.memory)
            return self.guard(node, lambda: LocalTensor(mem, q.position, b.addr + off, dt, length))
        if m == "AllocTensor":
            dt = self._targ_dtype(targs, node, m)
            for _ in range(len(q.blocks)):
                i = q.cursor
                q.cursor = (q.cursor + 1) % len(q.blocks)
                b = q.blocks[i]
                if b.state == "free":
                    b.state = "occupied"
                    if b.freed_at:
                        self.sync.wait_flag(back, ("que", id(q), i), where, "AllocTensor")
                        b.freed_at = ""
                    mem = self.core.memory(q.memory)
                    return LocalTensor(mem, q.position, b.addr, dt, b.nbytes * 8 // dt.bits)
            raise self.err(
                node,
                f"{q.name}.AllocTensor: every buffer is in use (FreeTensor the tensors first; "
                "the C++ loop would spin forever; docs/divergences.md R3)",
            )
        t = args[0] if args else None
        if m == "EnQue":
            i = self.guard(node, lambda: q.block_of(t))
            if len(q.fifo) >= max(q.depth, 1):
                raise self.err(
                    node,
                    f"{q.name}.EnQue: the queue already holds {len(q.fifo)} tensors (depth "
                    f"{q.depth}); the C++ API checks usedCount < depth",
                )
            q.blocks[i].state = "enqueued"
            q.fifo.append(i)
            self.sync.set_flag(fwd, ("que", id(q), i), where, "EnQue")
            return Num(True, BOOL)
        if m == "DeQue":
            dt = self._targ_dtype(targs, node, m)
            if not q.fifo:
                raise self.err(node, f"{q.name}.DeQue: the queue is empty (no EnQue before it)")
            i = q.fifo.pop(0)
            q.blocks[i].state = "dequeued"
            self.sync.wait_flag(fwd, ("que", id(q), i), where, "DeQue")
            b = q.blocks[i]
            return LocalTensor(self.core.memory(q.memory), q.position, b.addr, dt, b.nbytes * 8 // dt.bits)
        if m == "FreeTensor":
            i = self.guard(node, lambda: q.block_of(t))
            b = q.blocks[i]
            if b.state == "free":
                raise self.err(node, f"{q.name}.FreeTensor: the buffer is already free")
            b.state = "free"
            b.freed_at = where
            self.sync.set_flag(back, ("que", id(q), i), where, "FreeTensor")
            return None
        if m in ("HasTensorInQue", "GetTensorCountInQue", "VacantInQue", "HasIdleBuffer"):
            n = len(q.fifo)
            vals = {
                "HasTensorInQue": n > 0,
                "GetTensorCountInQue": n,
                "VacantInQue": n < max(q.depth, 1),
                "HasIdleBuffer": any(b.state == "free" for b in q.blocks),
            }
            v = vals[m]
            return Num(v, BOOL) if isinstance(v, bool) else Num(v, INT32)
        raise self.err(node, f"TQue method '{m}' is not supported by ascsim's C++ front-end")

    def _pipe_method(self, p: Pipe, m: str, argn: list[Node], scope: Scope, node: Node) -> Any:
        args = self._args(argn, scope)
        if m == "InitBuffer":
            if not args or not isinstance(args[0], Queue):
                raise self.err(node, "InitBuffer takes a TQue / TQueBind / TBuf first")
            q = args[0]
            if q.is_tbuf:
                if len(args) != 2:
                    raise self.err(node, "InitBuffer(tbuf, len) takes 2 arguments")
                self.guard(node, lambda: p.init_buffer(q, 1, int(args[1])))
            else:
                if len(args) != 3 or not all(isinstance(a, Num) for a in args[1:]):
                    raise self.w.unsupported(node, "InitBuffer with explicit addresses (Std::tuple)")
                self.guard(node, lambda: p.init_buffer(q, int(args[1]), int(args[2])))
            return Num(True, BOOL)
        if m in ("Init", "Destroy", "DestroyWithoutPipeAll"):
            return None
        if m == "Reset":
            p.cursor.clear()
            return None
        raise self.err(node, f"TPipe method '{m}' is not supported by ascsim's C++ front-end")


def _call_facade(fn: Callable, args: list, kw: dict, name: str) -> Any:
    try:
        return fn(*args, **kw)
    except TypeError as e:
        raise RuntimeFault(f"{name}: these arguments do not fit ascsim's {name} ({e})") from None


def _acc(mem: str, start: int, end: int, write: bool) -> Access:
    return Access(mem, start, end, write)


def dtype_type(dt: Any) -> TypeVal:
    tv = scalar_type(dt.name)
    return tv if tv is not None else TypeVal("elem", dt.name, None, dt, max(1, dt.bits // 8))


def _root(node: Node) -> str:
    """The variable an argument expression starts from (`a2Local[i * off]` -> a2Local)."""
    while node.type in (
        "subscript_expression",
        "call_expression",
        "field_expression",
        "parenthesized_expression",
        "cast_expression",
        "pointer_expression",
    ):
        if node.type == "field_expression":
            arg = fld(node, "argument")
            if arg.type == "this":
                return text(fld(node, "field"))
            if node.parent is not None and node.parent.type == "call_expression":
                node = arg
                continue
            return text(fld(node, "field"))
        nxt = fld(node, "argument") or fld(node, "function") or fld(node, "value")
        if nxt is None:
            inner = named(node)
            if not inner:
                break
            nxt = inner[0]
        node = nxt
    return text(node) if node.type == "identifier" else ""


def _raise(e: Exception) -> None:
    raise e
