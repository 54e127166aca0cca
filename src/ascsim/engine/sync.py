"""Sync checking: which pipe runs each instruction, the happens-before order the kernel's SetFlag /
WaitFlag / PipeBarrier / queue calls build, and the races and unpaired flags that order leaves.

Reference for what to report: Huawei's msSanitizer racecheck (unordered conflicting accesses between
pipes) and synccheck (unpaired SetFlag/WaitFlag). The model is the one the sync pages state
(同步控制/核内同步/核内同步能力概述.md, SetFlag-WaitFlag(ISASI).md, PipeBarrier(ISASI).md):

- each pipe (PIPE_MTE2 GM->L1, PIPE_MTE1 L1->L0A/L0B, PIPE_M the cube, PIPE_FIX L0C->GM/L1, PIPE_MTE3,
  PIPE_S, PIPE_V) executes its own instructions in program order, concurrently with the other pipes
  (which pipe runs which call is the instruction table's `pipe_of`, ascsim.isa.table);
- `SetFlag<P_Q>(id)` runs once every earlier instruction of pipe P has finished and raises flag
  (P_Q, id); `WaitFlag<P_Q>(id)` holds pipe Q's later instructions until that flag is up, then lowers it;
- `PipeBarrier<PIPE_X>` orders pipe X's earlier instructions before its later ones; `PIPE_ALL` orders
  everything before everything after;
- a TQue's EnQue / DeQue are SetFlag / WaitFlag of the queue's forward event, FreeTensor / AllocTensor of
  its backward event (asc-devkit impl/basic_api/kernel_tquebind_impl.h EnQue/DeQue/FreeBuffer/AllocBuffer,
  events from kernel_event.h GetQueEvt).

Happens-before is tracked with one vector clock per pipe: `vc[Q][P] = n` means the next instruction of
pipe Q is ordered after the first n instructions of pipe P. Two accesses to overlapping bytes, at least
one a write, from different pipes, with no such order between them, are a race. Within a pipe, order is
program order (docs/divergences.md R9), except for the two pipes whose pages say overlapping copies need
a PipeBarrier (MTE2, MTE3: DataCopy（GMToL1连续数据搬运）.md 约束说明).
"""

from __future__ import annotations

import warnings
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from ..base.errors import HazardError, HazardWarning
from ..machine.memory import LocalTensor

PIPES = ("S", "V", "M", "MTE1", "MTE2", "MTE3", "FIX")

#: Pipes whose same-pipe copies to overlapping bytes need a PipeBarrier (the DataCopy pages'
#: 约束说明: "目的地址存在重叠，需要...PipeBarrier<PIPE_MTE2>/<PIPE_MTE3>"); every other pipe is in order.
UNORDERED_PIPES = frozenset({"MTE2", "MTE3"})

class SyncWarning(HazardWarning):
    """A race or an unpaired flag found by the sync checker."""


class SyncError(HazardError):
    """Strict mode: the first race or unpaired flag."""


@dataclass(frozen=True)
class Access:
    """One byte range a call touched: [start, end) in `memory`, read or written."""

    memory: str
    start: int
    end: int
    write: bool


def tensor_range(t: LocalTensor, nbytes: int | None = None) -> tuple[int, int]:
    n = t.nbytes if nbytes is None else nbytes
    return t.offset, t.offset + n


def call_accesses(
    report: object, writes: Sequence[LocalTensor], reads: Sequence[LocalTensor]
) -> list[Access]:
    """THE adapter from an executed call to the byte ranges it read and wrote.

    When the call's ExecReport carries its byte ranges (`report.writes` / `report.reads`: (memory, start,
    end) tuples filled by the call boundary, ascsim.engine.boundary), those are used. Otherwise they are
    derived
    from the
    call's tensor arguments: the destinations are written and the sources read over the tensor's bytes,
    narrowed to the plan's extents (`plan.dst_end` / `plan.src_end`) when the report has a plan. A call that
    reports no bytes moved (a NOP) touches nothing.
    """
    recorded = getattr(report, "accesses", None)
    if recorded:
        return [a if isinstance(a, Access) else Access(*a) for a in recorded]
    # the call boundary's records: (memory, start, end) byte ranges written / read (ascsim.engine.boundary)
    rec_w, rec_r = getattr(report, "writes", ()), getattr(report, "reads", ())
    if rec_w or rec_r:
        return [Access(m, a, b, True) for m, a, b in rec_w] + [Access(m, a, b, False) for m, a, b in rec_r]
    if (
        report is not None
        and not getattr(report, "bytes_written", 1)
        and not getattr(report, "bytes_read", 1)
        and getattr(report, "plan", None) is None
    ):
        return []
    plan = getattr(report, "plan", None)
    out = []
    for i, t in enumerate(writes):
        n = plan.dst_end if plan is not None and i == 0 else None
        out.append(Access(t.memory.name, *tensor_range(t, n), True))
    for i, t in enumerate(reads):
        n = plan.src_end if plan is not None and i == 0 and plan.src_end else None
        out.append(Access(t.memory.name, *tensor_range(t, n), False))
    return out


@dataclass
class PipeCall:
    """One executed instruction as the checker sees it."""

    name: str
    pipe: str
    where: str
    accesses: Sequence[Access]


@dataclass
class SyncReport:
    """One finding: kind is RAW / WAR / WAW / unpaired-set / unpaired-wait / double-set / never-dequeued."""

    kind: str
    message: str
    lines: tuple[str, ...]
    count: int = 1


@dataclass
class _Rec:
    pipe: str
    seq: int
    start: int
    end: int
    write: bool
    name: str
    where: str


@dataclass
class _Flag:
    value: dict[str, int]
    where: str
    origin: str


@dataclass
class SyncChecker:
    """Feed it the kernel's instructions and sync calls in program order; it reports as it goes."""

    strict: bool = False
    reports: list[SyncReport] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.count = dict.fromkeys(PIPES, 0)
        self.vc = {p: dict.fromkeys(PIPES, 0) for p in PIPES}
        self.flags: dict[tuple, _Flag] = {}
        self.history: dict[str, list[_Rec]] = {}
        self._seen: dict[tuple, SyncReport] = {}

    # -- instructions ---------------------------------------------------------------------------------
    def instruction(self, call: PipeCall) -> None:
        p = call.pipe
        self._pipe(p)
        seq = self.count[p] + 1
        self.count[p] = seq
        known = self.vc[p]
        for acc in call.accesses:
            if acc.end <= acc.start:
                continue
            recs = self.history.setdefault(acc.memory, [])
            for r in recs:
                if r.end <= acc.start or acc.end <= r.start or not (r.write or acc.write):
                    continue
                if r.pipe == p and p not in UNORDERED_PIPES:
                    continue
                if r.pipe == p and not (r.write and acc.write):
                    continue  # a same-pipe copy only conflicts with an overlapping copy destination
                if known[r.pipe] >= r.seq:
                    continue
                self._race(call, acc, r)
            recs.append(_Rec(p, seq, acc.start, acc.end, acc.write, call.name, call.where))
            if len(recs) > 512:
                self._prune(acc.memory)
        if p not in UNORDERED_PIPES:
            known[p] = seq

    def _race(self, call: PipeCall, acc: Access, r: _Rec) -> None:
        kind = "RAW" if r.write and not acc.write else "WAR" if acc.write and not r.write else "WAW"
        lo, hi = max(acc.start, r.start), min(acc.end, r.end)
        verb = "writes" if acc.write else "reads"
        past = "written" if r.write else "read"
        need = f"PipeBarrier<PIPE_{r.pipe}>" if r.pipe == call.pipe else f"WaitFlag<{r.pipe}_{call.pipe}>"
        msg = (
            f"{call.where}: {call.name} ({call.pipe}) {verb} {acc.memory} [{lo}, {hi}) {past} by {r.name} "
            f"at {r.where} ({r.pipe}) with no {need} between them"
        )
        self._report(kind, msg, (call.where, r.where))

    def _report(self, kind: str, msg: str, lines: tuple[str, ...]) -> None:
        key = (kind, lines)
        seen = self._seen.get(key)
        if seen is not None:
            seen.count += 1
            return
        rep = SyncReport(kind, msg, lines)
        self._seen[key] = rep
        self.reports.append(rep)
        if self.strict:
            raise SyncError(msg)
        warnings.warn(msg, SyncWarning, stacklevel=2)

    def _prune(self, memory: str) -> None:
        """Drop accesses every pipe is already ordered after (they can race with nothing to come)."""
        floor = {p: min(self.vc[q][p] for q in PIPES) for p in PIPES}
        self.history[memory] = [r for r in self.history[memory] if r.seq > floor[r.pipe]]

    @staticmethod
    def _pipe(p: str) -> None:
        if p not in PIPES:
            raise ValueError(f"unknown pipe {p!r}; known: {', '.join(PIPES)}")

    # -- sync calls -----------------------------------------------------------------------------------
    def set_flag(self, event: str, event_id: object, where: str, origin: str = "SetFlag") -> None:
        src, _ = event_pipes(event)
        key = (event, event_id)
        old = self.flags.get(key)
        if old is not None and origin == "SetFlag":
            self._report(
                "double-set",
                f"{where}: SetFlag<{event}>({event_id}) sets a flag that is already "
                f"set (by {old.origin} at {old.where}) with no WaitFlag in between; the sync page "
                f"calls this undefined (SetFlag-WaitFlag(ISASI).md 约束说明)",
                (where, old.where),
            )
        value = dict(self.vc[src])
        value[src] = self.count[src]
        self.flags[key] = _Flag(value, where, origin)

    def wait_flag(self, event: str, event_id: object, where: str, origin: str = "WaitFlag") -> None:
        _, dst = event_pipes(event)
        flag = self.flags.pop((event, event_id), None)
        if flag is None:
            self._report(
                "unpaired-wait",
                f"{where}: {origin}<{event}>({event_id}) has no SetFlag<{event}>"
                f"({event_id}) before it: pipe {dst} would wait for a later one or hang "
                "(docs/divergences.md R12)",
                (where,),
            )
            return
        vc = self.vc[dst]
        for p, n in flag.value.items():
            if n > vc[p]:
                vc[p] = n

    def barrier(self, pipe: str) -> None:
        """PipeBarrier<PIPE_X> (pipe "ALL" for PIPE_ALL)."""
        if pipe == "ALL":
            for q in PIPES:
                self.vc[q] = dict(self.count)
            return
        self._pipe(pipe)
        self.vc[pipe][pipe] = self.count[pipe]

    def finish(self) -> None:
        """End of the kernel: flags the user set and never waited for, queues never dequeued."""
        for (event, event_id), flag in self.flags.items():
            if flag.origin == "SetFlag":
                self._report(
                    "unpaired-set",
                    f"{flag.where}: SetFlag<{event}>({event_id}) has no matching "
                    f"WaitFlag<{event}>({event_id}); the sync page requires them in pairs "
                    "(SetFlag-WaitFlag(ISASI).md 约束说明)",
                    (flag.where,),
                )
            elif flag.origin == "EnQue":
                self._report(
                    "never-dequeued",
                    f"{flag.where}: EnQue puts a tensor in the queue that no DeQue "
                    "takes out, so nothing waits for it (docs/divergences.md R11)",
                    (flag.where,),
                )
        self.flags.clear()


def event_pipes(event: str) -> tuple[str, str]:
    """HardEvent `MTE2_MTE1` -> ("MTE2", "MTE1"): source pipe, waiting pipe."""
    parts = event.split("_")
    if len(parts) != 2 or not all(p in PIPES for p in parts):
        raise ValueError(f"HardEvent {event!r} is not <source pipe>_<waiting pipe> of {', '.join(PIPES)}")
    return parts[0], parts[1]


def format_reports(reports: Iterable[SyncReport]) -> list[str]:
    """One line per report (`... (3 times)` when a loop repeated it)."""
    return [r.message + (f" ({r.count} times)" if r.count > 1 else "") for r in reports]
