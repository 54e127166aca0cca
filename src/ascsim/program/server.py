"""The engine's side of the bridge: every request of a running program, executed on the simulated cores.

`Server.serve(channel)` reads the program's requests until it exits. Each call of the instruction table
runs on its block's `Core` (validation, execution, hazards: exactly as from Python or a scenario); sync
calls go to that block's `SyncChecker`; GM accesses of every block go to the cross-core race checker;
launches, SyncAll and cross-core flags are scheduled here (`Launch`); aclrtMalloc and friends are the
shared GM's. A refused call stops the program: the server records the error with its source line and
tells the program to quit.

Scheduling is deterministic: a launch runs block 0 until it ends or waits (SyncAll, CrossCoreWaitFlag),
then the next runnable block in index order, round and round; a wait is satisfied as soon as every
block it waits for has arrived. Nothing depends on the host's thread timing (docs/cpp.md "Many cores").
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from .. import params
from ..base.errors import AscsimError, HazardWarning, NotImplementedFeature, cpp_rejects
from ..core import Core
from ..engine.record import ExecReport
from ..engine.sync import Access, PipeCall, SyncChecker, SyncReport, SyncWarning, call_accesses
from ..engine.timeline import Recorder
from ..isa import table
from ..machine.chips import ChipProfile
from ..machine.dtypes import Bits as RawBits
from ..machine.dtypes import DType
from ..machine.memory import LocalTensor, SharedGlobalMemory
from . import protocol as P
from .values import Converter, ProgramError, dtype_of

#: The C++ names of the runtime's operations (for messages).
API_NAMES = {
    "gm_malloc": "aclrtMalloc", "gm_free": "aclrtFree", "sync_stream": "aclrtSynchronizeStream",
    "get_value": "GetValue", "set_value": "SetValue", "gm_get_value": "GlobalTensor::GetValue",
    "gm_set_value": "GlobalTensor::SetValue", "set_flag": "SetFlag", "wait_flag": "WaitFlag",
    "pipe_barrier": "PipeBarrier", "sync_all": "SyncAll", "cross_set": "CrossCoreSetFlag",
    "cross_wait": "CrossCoreWaitFlag", "event_alloc": "AllocEventID", "event_release": "ReleaseEventID",
    "init_soc_state": "InitSocState", "dump_tensor": "DumpTensor", "block_end": "the end of a block",
    "gm_param": "the binding of a kernel parameter", "kernel_config": "the kernel launch",
}

#: GM bytes a run keeps of the state at its first launch (a traced scenario's initial GM): a program's
#: giant allocations are not copied (an emitted scenario that needs one is refused).
SNAPSHOT_LIMIT = 128 << 20

#: How many cross-core flag counts a core may hold (CrossCoreSetFlag(ISASI).md: "计数范围为0-15").
CROSS_FLAG_MAX = 15


@dataclass
class TraceCall:
    """One executed instruction or register call: what `--emit-scenario`, explain and draw use."""

    index: int
    block: int
    name: str  # the C++ API name (LoadData, Mmad, ...)
    where: str  # file:line of the call
    step: dict | None  # the scenario step (tensors as LocalTensors)
    report: ExecReport | None


@dataclass
class Block:
    """One cube core of a launch."""

    index: int
    core: Core
    sync: SyncChecker
    state: str = "new"  # new | running | waiting | done
    waiting: Callable[[], bool] | None = None  # what would let it continue
    why: str = ""  # what it waits for, for a deadlock's message
    cross_waits: dict[int, int] = field(default_factory=dict)  # mode-0 flag -> waits completed


@dataclass
class Launch:
    callee: str
    where: str
    blocks: list[Block]
    current: int = 0
    sync_all_round: int = 0
    arrived: dict[int, int] = field(default_factory=dict)  # block -> SyncAll rounds reached
    cross_sets: dict[int, dict[int, int]] = field(default_factory=dict)  # flag -> block -> sets


class Stop(Exception):
    """The program must stop: `error` says why (None: a fault the program reported itself)."""

    def __init__(self, error: AscsimError | None) -> None:
        super().__init__(str(error))
        self.error = error


def _instruction_of(op: table.Op, kwargs: dict[str, Any]) -> tuple[table.Instruction, table.Form]:
    """The C++ API name and form an operation's call is (for messages, the trace and scenario steps)."""
    hit = None
    for ins in table.INSTRUCTIONS:
        for form in ins.forms:
            if form.op is not op:
                continue
            if form.fixed and any(kwargs.get(k, v) != v for k, v in form.fixed.items()):
                continue
            ok = all(isinstance(kwargs.get(n), tuple(ts)) for n, ts in form.structs.items() if n in kwargs)
            if form.when is not None and form.when not in {op.arg(n).step_key for n in kwargs}:
                continue
            if ok:
                return ins, form
            hit = hit or (ins, form)
    if hit is None:
        raise KeyError(op.method)
    return hit


class Server:
    """Serves one run of a program."""

    def __init__(self, chip: ChipProfile, *, strict: bool = False, gm_limit: int = 512 << 20,
                 bindings: dict[str, tuple[bytes | None, int]] | None = None, blocks: int = 1,
                 preload: dict[str, dict[int, bytes]] | None = None, sync_checker: Any = SyncChecker,
                 gm_races: Any = None, names: dict[str, str] | None = None) -> None:
        self.chip = chip
        self.strict = strict
        self.names = names or {}  # absolute source path -> the path as the user gave it
        self.vector_entries: set[str] = set()  # __vector__ kernels (the build found them)
        self.gm = SharedGlobalMemory(capacity=1 << 36, limit=gm_limit)
        self.ops: dict[int, str] = {}
        self.sites: dict[int, str] = {}  # file:line (sync findings, the trace)
        self.columns: dict[int, str] = {}  # file:line:column (errors and the instructions' warnings)
        self.at = ""  # the current call's file:line:column
        self.structs: dict[int, tuple[str, tuple[str, ...]]] = {}
        self.table_ops = {op.method: op for op in table.operations()}
        self.trace: list[TraceCall] = []
        self.warnings: list[str] = []
        self.sync_reports: list[SyncReport] = []
        self.error: AscsimError | None = None
        self.fault: tuple[int, int, int] | None = None  # (signal, address, block) the program reported
        self.last_call = ""  # "Name at file:line" of the last request, for a crash's message
        self.stopped = False  # the engine told the program to stop (it exits with QUIT_STATUS)
        self.launches = 0
        self.preload = preload or {}
        self.kernel_blocks = blocks
        self._sync_checker = sync_checker
        self.gm_races = gm_races
        self.launch: Launch | None = None
        self.last_blocks: list[Block] = []
        #: per launch, block -> the event stream its sync checker saw (the timeline, ascsim.engine.timeline)
        self.streams: list[dict[int, Recorder]] = []
        self.gm_at_launch: dict[int, np.ndarray] = {}
        self.gm_base = 0
        self.conv: Converter | None = None
        self.bindings: dict[str, tuple[int, int]] = {}  # kernel parameter -> (GM offset, bytes)
        self.unbound: dict[int, str] = {}
        self._pending_bindings = bindings or {}
        self.handlers: dict[str, Callable[[int, str, list], None]] = {
            "launch": self._launch, "block_end": self._block_end, "nested_launch": self._nested_launch,
            "set_flag": self._set_flag, "wait_flag": self._wait_flag, "pipe_flag": self._pipe_flag,
            "pipe_barrier": self._barrier, "event_alloc": self._event_alloc,
            "event_release": self._event_release,
            "get_value": self._get_value, "set_value": self._set_value,
            "gm_get_value": self._gm_get_value, "gm_set_value": self._gm_set_value,
            "sync_all": self._sync_all, "cross_set": self._cross_set, "cross_wait": self._cross_wait,
            "gm_malloc": self._gm_malloc, "gm_free": self._gm_free, "gm_param": self._gm_param,
            "kernel_config": self._kernel_config, "sync_stream": self._sync_stream,
            "not_modelled": self._not_modelled, "runtime_error": self._runtime_error,
            "not_a_gm_param": self._not_a_gm_param, "aiv_only": self._aiv_only,
            "init_soc_state": self._init_soc_state, "dump_tensor": self._dump_tensor,
        }

    # -- the loop -----------------------------------------------------------------------------------------
    def serve(self, ch: P.Channel) -> None:
        """Serve requests until the program closes its end (exits or dies) or must stop."""
        self.ch = ch
        while True:
            body = ch.read_frame()
            if body is None:
                return
            kind = body[0]
            r = P.Reader(body, 1)
            if kind == 0x43:  # C
                self._call(r)
            elif kind == 0x44:  # D
                self._define(r)
            elif kind == 0x48:  # H
                self._hello(r)
            elif kind == 0x46:  # F
                self.fault = (r.u32(), r.u64(), r.i32())
            else:
                raise P.BridgeError(f"unknown frame kind 0x{kind:02x}")
            if self.error is not None:
                self.stopped = True
                ch.stop()
                return

    def _hello(self, r: P.Reader) -> None:
        version, _pid, base, size = r.u32(), r.u32(), r.u64(), r.u64()
        if version != P.PROTOCOL_VERSION:
            raise P.BridgeError(f"the program speaks bridge version {version}, ascsim {P.PROTOCOL_VERSION}: "
                                "rebuild it")
        if size > self.gm.capacity:
            raise P.BridgeError("the program reserved more GM than the engine has")
        self.gm_base = base
        self.conv = Converter(self.gm, base, self.structs, self.unbound)
        for name, (data, nbytes) in self._pending_bindings.items():
            if data is None and nbytes == 0:
                self.unbound[self.gm.reserve(1 << 20)] = name
                continue
            start = self.gm.allocate(nbytes, f"--gm {name}", exact=True)
            if data is not None:
                self.gm.data[start : start + len(data)] = np.frombuffer(data, dtype=np.uint8)
            self.bindings[name] = (start, nbytes)
        self.gm_initial = {n: self.gm.data[s : s + b].copy() for n, (s, b) in self.bindings.items()}

    def _define(self, r: P.Reader) -> None:
        what, ident, name = r.u8(), r.u32(), r.str()
        if what == 0x6F:  # o
            self.ops[ident] = name
        elif what == 0x6C:  # l
            line, column = r.u32(), r.u32()
            path = self.names.get(name) or short_path(name)
            self.sites[ident] = f"{path}:{line}"
            self.columns[ident] = f"{path}:{line}:{column}" if column else f"{path}:{line}"
        elif what == 0x74:  # t
            fields_ = tuple(f.strip() for f in r.str().split(",") if f.strip())
            self.structs[ident] = (name.rsplit("::", 1)[-1], fields_)
        else:
            raise P.BridgeError(f"unknown definition kind 0x{what:02x}")

    def _call(self, r: P.Reader) -> None:
        block, op_id, site_id = r.i32(), r.u32(), r.u32()
        name = self.ops.get(op_id)
        where = self.sites.get(site_id, "?")
        self.at = self.columns.get(site_id, where)
        if name is None:
            raise P.BridgeError(f"operation {op_id} used before its definition")
        values = r.values(self.structs)
        api = "the launch of " + str(values[0]) if name == "launch" and values else API_NAMES.get(name, name)
        self.last_call = api if name == "launch" else f"{api} at {where}"
        try:
            op = self.table_ops.get(name)
            if op is not None:
                self._table_call(block, op, where, values)
            else:
                handler = self.handlers.get(name)
                if handler is None:
                    raise P.BridgeError(f"unknown operation {name!r}")
                try:
                    handler(block, where, [v.member if isinstance(v, P.Enum) else v for v in values])
                except (IndexError, TypeError, ValueError) as e:  # its values are not what the runtime sends
                    raise P.BridgeError(f"a malformed {API_NAMES.get(name, name)} request "
                                        f"({type(e).__name__}: {e})") from None
        except Stop as s:
            self.error = s.error
        except AscsimError as e:
            self.error = e if str(e).startswith(where) else e.relocated(f"{self.at}: ")

    # -- blocks
    # -----------------------------------------------------------------------------------------------
    def block(self, index: int, what: str) -> Block:
        if self.launch is None or index < 0:
            raise ProgramError(f"{what} is a device call, made on the host (outside a kernel launch)")
        if index >= len(self.launch.blocks):
            raise P.BridgeError(f"{what} from block {index} of a launch of {len(self.launch.blocks)}")
        return self.launch.blocks[index]

    def _warned(self, where: str, fn: Callable[[], Any]) -> Any:
        """Run `fn`, turning the engine's warnings into located ones (strict: the Core raises instead); a
        sync finding names its lines itself."""
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            out = fn()
        for w in caught:
            text = str(w.message)
            msg = text if issubclass(w.category, SyncWarning) else f"{where}: {text}"
            if msg not in self.warnings:
                self.warnings.append(msg)
            cat = w.category if issubclass(w.category, Warning) else HazardWarning
            warnings.warn(msg, cat, stacklevel=2)
        return out

    def _table_call(self, index: int, op: table.Op, where: str, values: list) -> None:
        if len(values) != len(op.args) or any(v is None for a, v in zip(op.args, values, strict=True)
                                              if not a.optional):
            raise P.BridgeError(f"a malformed {op.instr} request ({len(values)} values for its "
                                f"{len(op.args)} arguments)")
        b = self.block(index, op.instr)
        core = b.core
        assert self.conv is not None
        kwargs: dict[str, Any] = {}
        for a, v in zip(op.args, values, strict=False):
            if v is None:
                continue
            kwargs[a.name] = self.conv.value(core, v)
        ins, form = _instruction_of(op, kwargs)
        self.last_call = f"{ins.name} at {where}"
        atomic = core.regs.atomic is not None
        report = self._warned(self.at, lambda: getattr(core, op.method)(**kwargs))
        rep = report if isinstance(report, ExecReport) else None
        writes = [kwargs[a.name] for a in op.args if a.kind == table.TENSOR and a.writes
                  and isinstance(kwargs.get(a.name), LocalTensor)]
        reads = [kwargs[a.name] for a in op.args if a.kind == table.TENSOR and not a.writes
                 and isinstance(kwargs.get(a.name), LocalTensor)]
        if not ins.setter:
            dst = writes[0].memory.name if writes else None
            src = reads[0].memory.name if reads else None
            pipe = table.pipe_of(ins.name, dst, src, self.chip.key)
            if pipe is not None:
                acc = call_accesses(rep, writes, reads)
                call = PipeCall(ins.name, pipe, where, acc, kwargs.get("params"), rep)
                gm = [a for a in acc if a.memory == "GM"]
                self._sync(b, where, lambda: self._checked(b, call, gm, atomic))
        self.trace.append(TraceCall(len(self.trace), index, ins.name, where, _step(ins, form, kwargs), rep))
        self.ch.ok()

    def _sync(self, b: Block, where: str, fn: Callable[[], Any]) -> None:
        self._warned(where, fn)

    def _checked(self, b: Block, call: PipeCall, gm: list[Access], atomic: bool) -> None:
        """The in-core checker sees the call; the cross-core one its GM bytes, with its number on its pipe."""
        seq = b.sync.instruction(call)
        if self.gm_races is not None and gm:
            self.gm_races.access(b.index, gm, atomic=atomic, name=call.name, where=call.where, pipe=call.pipe,
                                 seq=seq)

    # -- launches -----------------------------------------------------------------------------------------
    def _launch(self, index: int, where: str, values: list) -> None:
        callee, dim = values[0], int(values[1])
        base = callee.split("<", 1)[0].split("::")[-1].strip()
        if base in self.vector_entries:
            raise NotImplementedFeature(f"{callee} is an AIV-only kernel (__vector__): it runs on the vector "
                                        "cores, which ascsim does not model (it runs the cube core)")
        if index >= 0:
            raise ProgramError(f"{callee}<<<...>>> launched from a kernel (block {index})")
        if dim == 0:
            raise ProgramError(f"{callee}<<<0, ...>>>: blockDim must be at least 1")
        limit = max(self.chip.aic_cores, 1) * 64
        if dim > limit:
            raise ProgramError(f"{callee}<<<{dim}, ...>>>: blockDim {dim} is more than ascsim runs "
                               f"({limit}: 64 waves of the chip's {self.chip.aic_cores} cube cores)")
        blocks = []
        for i in range(dim):
            core = Core(self.chip, strict=self.strict, gm=self.gm)
            for mem, chunks in self.preload.items():
                m = core.memory(mem)
                for addr, data in chunks.items():
                    m.check_range(addr, len(data), f"preload {mem}")
                    m.data[addr : addr + len(data)] = np.frombuffer(data, dtype=np.uint8)
            blocks.append(Block(i, core, self._new_checker()))
        self.launch = Launch(callee, where, blocks)
        self.streams.append({b.index: b.sync.recorder for b in blocks if getattr(b.sync, "recorder", None)})
        self.last_blocks = blocks
        self.launches += 1
        if self.launches == 1:  # what a traced run's scenario starts from (program.emit)
            self.gm_at_launch = gm_snapshot(self.gm)
        if self.gm_races is not None:
            self.gm_races.begin_launch(dim)
        blocks[0].state = "running"
        self.ch.switch(0)

    def _new_checker(self) -> Any:
        checker = self._sync_checker(strict=self.strict, chip=self.chip.key)
        if isinstance(checker, SyncChecker):
            checker.recorder = Recorder()
        return checker

    def _nested_launch(self, index: int, where: str, values: list) -> None:
        raise ProgramError(f"{values[0]}<<<...>>> launched from inside a kernel")

    def _block_end(self, index: int, where: str, values: list) -> None:
        launch = self.launch
        assert launch is not None
        b = launch.blocks[index]
        b.state = "done"
        self._sync(b, where, b.sync.finish)
        self.sync_reports.extend(b.sync.reports)
        nxt = self._next_block(index)
        if nxt is None:
            if self.gm_races is not None:
                self._warned(where, self.gm_races.finish)
            self.launch = None
            self.ch.launch_done()
            return
        self.ch.switch(nxt)

    def _next_block(self, after: int) -> int | None:
        """The next block to run in index order after `after` (new, or waiting and now able to go on)."""
        launch = self.launch
        assert launch is not None
        n = len(launch.blocks)
        for k in range(1, n + 1):
            b = launch.blocks[(after + k) % n]
            if b.state == "new" or (b.state == "waiting" and b.waiting is not None and b.waiting()):
                b.state = "running"
                b.waiting = None
                launch.current = b.index
                return b.index
        stuck = [b for b in launch.blocks if b.state == "waiting"]
        if stuck:
            raise ProgramError("deadlock: " + "; ".join(f"block {b.index} waits at {b.why}" for b in
            stuck[:4])
                               + (f" (and {len(stuck) - 4} more)" if len(stuck) > 4 else "")
                               + ", and no block can run to release them")
        return None

    def _wait(self, b: Block, can_go: Callable[[], bool], why: str) -> None:
        """Block `b` waits until `can_go()`; another block runs meanwhile."""
        if can_go():
            self.ch.ok()
            return
        b.state, b.waiting, b.why = "waiting", can_go, why
        nxt = self._next_block(b.index)
        if nxt is None:  # cannot happen: b itself is waiting, so _next_block raised
            raise ProgramError(f"deadlock at {why}")
        self.ch.switch(nxt)

    def _sync_all(self, index: int, where: str, values: list) -> None:
        b = self.block(index, "SyncAll")
        aiv_only = bool(values[0]) if values else True
        if not aiv_only:
            raise NotImplementedFeature("SyncAll<false> (cube and vector cores together) needs the vector "
                                        "cores, which ascsim does not run")
        if self.chip.key == "ascend950":
            # the 950 C++ API: SyncAll<isAIVOnly = true> does nothing on the cube core (docs/divergences.md
            # B5)
            self.ch.ok()
            return
        launch = self.launch
        assert launch is not None
        self._sync(b, where, lambda: b.sync.barrier("ALL", where))
        target = launch.arrived.get(index, 0) + 1
        launch.arrived[index] = target
        if self.gm_races is not None and all(launch.arrived.get(x.index, 0) >= target for x in launch.blocks):
            self.gm_races.sync_all([x.index for x in launch.blocks])
        self._wait(b, lambda: all(launch.arrived.get(x.index, 0) >= target for x in launch.blocks),
                   f"{where} (SyncAll)")

    def _cross_set(self, index: int, where: str, values: list) -> None:
        b = self.block(index, "CrossCoreSetFlag")
        mode, pipe, flag = int(values[0]), str(values[1]), int(values[2]) & 0xF
        self._cross_mode(mode, "CrossCoreSetFlag")
        if self.chip.key == "ascend950" and pipe in ("PIPE_MTE3", "PIPE_V"):
            self.ch.ok()  # a vector pipe: the 950 C++ API issues nothing on the cube core
            return
        launch = self.launch
        assert launch is not None
        sets = launch.cross_sets.setdefault(flag, {})
        sets[index] = sets.get(index, 0) + 1
        if self.gm_races is not None:
            pipe_name = pipe.removeprefix("PIPE_")
            self.gm_races.cross_set(index, flag, mode, where, pipe=pipe_name,
                                    known=b.sync.release_point(pipe_name))
        self.ch.ok()

    def _cross_wait(self, index: int, where: str, values: list) -> None:
        b = self.block(index, "CrossCoreWaitFlag")
        mode, pipe, flag = int(values[0]), str(values[1]), int(values[2]) & 0xF
        self._cross_mode(mode, "CrossCoreWaitFlag")
        if self.chip.key == "ascend950" and pipe in ("PIPE_MTE3", "PIPE_V"):
            self.ch.ok()
            return
        launch = self.launch
        assert launch is not None
        done = b.cross_waits.get(flag, 0)

        def rounds() -> int:  # mode 0: a round completes when every cube core has set the flag
            sets = launch.cross_sets.get(flag, {})
            return min((sets.get(x.index, 0) for x in launch.blocks), default=0)

        def can_go() -> bool:
            return rounds() > done

        if rounds() - done > CROSS_FLAG_MAX:
            raise ProgramError(f"CrossCoreWaitFlag({flag}): the flag's counter exceeds {CROSS_FLAG_MAX} "
                               "(CrossCoreSetFlag(ISASI).md: each counter counts 0-15)")

        def go() -> bool:
            if can_go():
                b.cross_waits[flag] = done + 1
                if self.gm_races is not None:
                    self.gm_races.cross_wait(index, flag, mode, where)
                return True
            return False

        self._wait(b, go, f"{where} (CrossCoreWaitFlag<{mode}>({flag}))")

    @staticmethod
    def _cross_mode(mode: int, api: str) -> None:
        if mode != 0:
            raise NotImplementedFeature(f"{api} mode {mode} synchronises a cube core with its vector "
                                        "cores, which ascsim does not run (mode 0, among the cube cores, is "
                                        "modelled)")

    # -- sync ---------------------------------------------------------------------------------------------
    def _set_flag(self, index: int, where: str, values: list) -> None:
        self._flag(index, where, values, wait=False)

    def _wait_flag(self, index: int, where: str, values: list) -> None:
        self._flag(index, where, values, wait=True)

    def _flag(self, index: int, where: str, values: list, wait: bool) -> None:
        b = self.block(index, "SetFlag / WaitFlag")
        event, eid, origin = str(values[0]), int(values[1]), str(values[2])
        if not 0 <= eid < 8:
            raise ProgramError(f"{origin}<HardEvent::{event}>({eid}): event ids are 0-7",
                               basis=cpp_rejects("SetFlagImpl eventID range check"))
        fn = b.sync.wait_flag if wait else b.sync.set_flag
        self._sync(b, where, lambda: fn(event, eid, where, origin))
        self.ch.ok()

    def _pipe_flag(self, index: int, where: str, values: list) -> None:
        """TQueSync<src, dst>::SetFlag / WaitFlag: the flag of event SRC_DST."""
        src, dst = str(values[0]).removeprefix("PIPE_"), str(values[1]).removeprefix("PIPE_")
        origin = str(values[3])
        self._flag(index, where, [f"{src}_{dst}", values[2], f"TQueSync::{origin}"],
                   wait=origin == "WaitFlag")

    def _barrier(self, index: int, where: str, values: list) -> None:
        b = self.block(index, "PipeBarrier")
        pipe = str(values[0]).removeprefix("PIPE_")
        self._sync(b, where, lambda: b.sync.barrier(pipe, where))
        self.ch.ok()

    def _event_alloc(self, index: int, where: str, values: list) -> None:
        b = self.block(index, "AllocEventID")
        pair, event_id, origin = str(values[0]), int(values[1]), str(values[2])
        self._sync(b, where, lambda: b.sync.alloc_event(pair, event_id, origin, where))
        self.ch.ok()

    def _event_release(self, index: int, where: str, values: list) -> None:
        b = self.block(index, "ReleaseEventID")
        self._sync(b, where, lambda: b.sync.release_event(str(values[0]), int(values[1]), where))
        self.ch.ok()

    # -- scalar accesses ------------------------------------------------------------------------------------
    @staticmethod
    def _check_index(t: LocalTensor, index: int, api: str) -> None:
        if not 0 <= index < len(t):
            raise ProgramError(f"{api}({index}): index out of range for a tensor of {len(t)} elements",
                               basis=cpp_rejects("the CPU-debug build's bounds assertion"))

    def _scalar(self, b: Block, where: str, t: LocalTensor, index: int, api: str, raw: int | None) -> bytes:
        """GetValue (raw None: returns the element's bytes) or SetValue (stores `raw`) on PIPE_S."""
        self._check_index(t, index, api)
        lo, hi = element_span(t, index)
        acc = [Access(t.memory.name, lo, hi, raw is not None)]
        if t.memory.name == "GM":
            t.memory.check_range(lo, hi - lo, f"GlobalTensor<{t.dtype.name}>::{api}({index})")
        gm = acc if t.memory.name == "GM" else []
        self._sync(b, where, lambda: self._checked(b, PipeCall(api, "S", where, acc), gm, False))
        if raw is None:
            return read_element(t, index)
        write_element(t, index, raw)
        self.trace.append(TraceCall(len(self.trace), b.index, api, where, None, None))
        return b""

    def _get_value(self, index: int, where: str, values: list) -> None:
        b = self.block(index, "GetValue")
        assert self.conv is not None
        t = self.conv.local(b.core, values[0])
        self.ch.value(self._scalar(b, where, t, int(values[1]), "GetValue", None))

    def _set_value(self, index: int, where: str, values: list) -> None:
        b = self.block(index, "SetValue")
        assert self.conv is not None
        t = self.conv.local(b.core, values[0])
        self._scalar(b, where, t, int(values[1]), "SetValue", values[2].raw)
        self.ch.ok()

    def _gm_tensor(self, values: list) -> LocalTensor:
        """A GlobalTensor's element access: a view from the element on (bounds: the allocation)."""
        assert self.conv is not None
        ref: P.GlobalRef = values[0]
        dt = dtype_of(ref.dtype)
        off = self.conv.gm_offset(ref.ptr, f"GlobalTensor<{dt.name}>")
        return _GmView(self.gm, off, dt, max(int(values[1]) + 1, 0))

    def _gm_get_value(self, index: int, where: str, values: list) -> None:
        b = self.block(index, "GlobalTensor::GetValue")
        self.ch.value(self._scalar(b, where, self._gm_tensor(values), int(values[1]), "GetValue", None))

    def _gm_set_value(self, index: int, where: str, values: list) -> None:
        b = self.block(index, "GlobalTensor::SetValue")
        self._scalar(b, where, self._gm_tensor(values), int(values[1]), "SetValue", values[2].raw)
        self.ch.ok()

    # -- host: device memory --------------------------------------------------------------------------------
    def _gm_malloc(self, index: int, where: str, values: list) -> None:
        size = int(values[0])
        if index >= 0:
            raise ProgramError("aclrtMalloc called from a kernel")
        if size == 0:  # aclrtMalloc.md: size must not be 0
            self.ch.value(P.u64s(0, 0))
            return
        try:
            start = self.gm.allocate(size, f"aclrtMalloc at {where}")
        except AscsimError as e:
            self.warnings.append(f"{where}: warning: {e}")
            self.ch.value(P.u64s(0, 0))
            return
        self.ch.value(P.u64s(start, self.gm.mapped_length(start)))

    def _gm_free(self, index: int, where: str, values: list) -> None:
        assert self.conv is not None
        off = int(values[0]) - self.gm_base
        if off not in self.gm.live:
            self.ch.value(P.u64s(1, 0))  # not an allocation: ACL_ERROR_INVALID_PARAM
            return
        self.ch.value(P.u64s(0, self.gm.free(off)))

    def _gm_param(self, index: int, where: str, values: list) -> None:
        name = str(values[0])
        if name in self.bindings:
            start, _ = self.bindings[name]
            self.ch.value(P.u64s(start, self.gm.mapped_length(start), start))
            return
        start = next((s for s, n in self.unbound.items() if n == name), None)
        if start is None:
            start = self.gm.reserve(1 << 20)
            self.unbound[start] = name
        self.ch.value(P.u64s(0, 0, start))

    def _kernel_config(self, index: int, where: str, values: list) -> None:
        self.ch.value(P.u64s(self.kernel_blocks))

    def _sync_stream(self, index: int, where: str, values: list) -> None:
        self.ch.ok()  # every call ran when it was made: the stream is always synchronised

    # -- the rest --------------------------------------------------------------------------------------------
    def _not_modelled(self, index: int, where: str, values: list) -> None:
        raise NotImplementedFeature(f"{values[0]} is declared by ascsim's headers but not modelled "
                                    "(docs/cpp.md \"What is modelled\")")

    def _aiv_only(self, index: int, where: str, values: list) -> None:
        raise NotImplementedFeature(f"an AIV-only kernel ({values[0]}): it runs on the vector cores, which "
                                    "ascsim does not model (it runs the cube core: AIC-only and mix kernels' "
                                    "cube side)")

    def _not_a_gm_param(self, index: int, where: str, values: list) -> None:
        raise ProgramError(f"kernel parameter '{values[0]}' is not a GM pointer: a kernel-only file's entry "
                           "takes GM pointers, bound with --gm NAME=FILE")

    def _runtime_error(self, index: int, where: str, values: list) -> None:
        raise ProgramError(str(values[0]))

    def _init_soc_state(self, index: int, where: str, values: list) -> None:
        b = self.block(index, "InitSocState")
        b.core.set_atomic_none()
        self.ch.ok()

    def _dump_tensor(self, index: int, where: str, values: list) -> None:
        b = self.block(index, "DumpTensor")
        assert self.conv is not None
        ref = values[0]
        t = self.conv.global_(ref) if isinstance(ref, P.GlobalRef) else self.conv.local(b.core, ref)
        n = min(len(t), int(values[2]))
        vals = t.read(n) if n else np.zeros(0)
        text = (f"DumpTensor: desc={int(values[1])}, addr={t.offset}, data type={t.dtype.name}, "
                f"position={t.position}, dump size={n}\n"
                + np.array2string(np.asarray(vals, dtype=np.float64 if t.dtype.kind == "float" else None),
                                  threshold=1 << 16, max_line_width=120) + "\n")
        self.ch.value(text.encode())


class NotKept:
    """A GM allocation too big to keep at the first launch (SNAPSHOT_LIMIT): reading it is an error."""

    def __init__(self, start: int, nbytes: int, label: str) -> None:
        self.start, self.nbytes, self.label = start, nbytes, label

    def __getitem__(self, key: Any) -> Any:
        raise AscsimError(f"GM allocation at {self.start} ({self.nbytes} B, {self.label or 'aclrtMalloc'}): "
                          f"ascsim keeps at most {SNAPSHOT_LIMIT >> 20} MiB of GM as it was at the launch, "
                          "so a scenario of this run cannot start from it")


def gm_snapshot(gm: SharedGlobalMemory) -> dict[int, Any]:
    """Every live GM allocation's bytes (start -> a copy), up to SNAPSHOT_LIMIT bytes in all (NotKept
    beyond)."""
    kept: dict[int, Any] = {}
    total = 0
    for start, n in sorted(gm.live.items()):
        if total + n > SNAPSHOT_LIMIT:
            kept[start] = NotKept(start, n, gm.labels.get(start, ""))
            continue
        kept[start] = gm.data[start : start + n].copy()
        total += n
    return kept


def _step(ins: table.Instruction, form: table.Form, kwargs: dict[str, Any]) -> dict:
    """The scenario step of a call (its tensors stay LocalTensors; the emitter names them)."""
    step: dict[str, Any] = {"call": ins.name}
    for a in form.step_args():
        if a.name in kwargs:
            step[a.step_key] = _step_value(a, kwargs[a.name])
    return step


def _step_value(a: table.Arg, v: Any) -> Any:
    """A call's value as a scenario step spells it (docs/scenarios.md)."""
    if a.step == "load3d_config":
        return {"isSetFMatrix": bool(v.isSetFMatrix), "isSetPadding": bool(v.isSetPadding)}
    if a.step == "fixpipe_config":
        for name in ("CFG_ROW_MAJOR", "CFG_NZ", "CFG_COLUMN_MAJOR"):
            if getattr(params, name) == v:
                return name
        return "CFG_ROW_MAJOR"
    if a.step == "padding_mode":
        return v.name
    if isinstance(v, RawBits):
        return v
    return v


def element_span(t: LocalTensor, index: int) -> tuple[int, int]:
    """The bytes [lo, hi) holding element `index` of `t` (a 4-bit element: its byte)."""
    lo = t.offset + index * t.dtype.bits // 8
    return lo, lo + max(1, t.dtype.bits // 8)


def read_element(t: LocalTensor, index: int) -> bytes:
    """Element `index`'s bits as the C++ object holds them (a 4-bit element in the low nibble)."""
    lo, hi = element_span(t, index)
    raw = t.memory.data[lo:hi].tobytes()
    if t.dtype.bits == 4:
        return bytes([(raw[0] >> (4 * (index % 2))) & 0xF])
    return raw


def write_element(t: LocalTensor, index: int, raw: int) -> None:
    lo, hi = element_span(t, index)
    if t.dtype.bits == 4:
        shift = 4 * (index % 2)
        old = int(t.memory.data[lo])
        t.memory.data[lo] = (old & ~(0xF << shift) & 0xFF) | ((raw & 0xF) << shift)
        return
    t.memory.data[lo:hi] = np.frombuffer(int(raw).to_bytes(8, "little")[: hi - lo], dtype=np.uint8)


class _GmView(LocalTensor):
    """A GlobalTensor's view for one element access: no allocation check at construction (the access
    itself is checked, against the allocation holding it)."""

    def __init__(self, memory: SharedGlobalMemory, offset: int, dtype: DType, length: int) -> None:
        self.memory, self.position, self.offset, self.dtype, self.length = memory, "GM", offset, dtype, length


def short_path(path: str) -> str:
    """A source path as messages show it: relative to the working directory when inside it."""
    try:
        p = Path(path)
        if p.is_absolute():
            rel = p.relative_to(Path.cwd())
            return str(rel)
    except (ValueError, OSError):
        pass
    return path


