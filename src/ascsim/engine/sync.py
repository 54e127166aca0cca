"""Sync checking: which pipe runs each instruction, the happens-before order the kernel's SetFlag /
WaitFlag / PipeBarrier / queue calls build, and the races and unpaired flags that order leaves.

Reference for what to report: Huawei's msSanitizer racecheck (unordered conflicting accesses between
pipes) and synccheck (unpaired SetFlag/WaitFlag). The model is the one the sync pages state
(同步控制/核内同步/核内同步能力概述.md, SetFlag-WaitFlag(ISASI).md, PipeBarrier(ISASI).md):

- each pipe (PIPE_MTE2 GM->L1, PIPE_MTE1 L1->L0A/L0B, PIPE_M the cube, PIPE_FIX L0C->GM/L1, PIPE_MTE3,
  PIPE_S, PIPE_V) executes its own instructions in program order, concurrently with the other pipes
  (which pipe runs which call is the instruction table's `pipe_of`, ascsim.isa.table);
- `SetFlag<P_Q>(id)` runs once every earlier instruction of pipe P has finished and raises flag
  (P_Q, id); `WaitFlag<P_Q>(id)` holds pipe Q's later instructions until that flag is up, then lowers it.
  The scalar unit issues on while Q waits, so the SetFlag may come later in program order than its
  WaitFlag (the checker then holds Q's later calls back until it comes, docs/divergences.md R12); a wait
  whose SetFlag never comes, or that a PipeBarrier<PIPE_ALL> or the scalar pipe itself would have to
  wait for, is a hang;
- `PipeBarrier<PIPE_X>` orders pipe X's earlier instructions before its later ones; `PIPE_ALL` orders
  everything before everything after; PipeBarrier<PIPE_S> is refused (PipeBarrier(ISASI).md 约束说明);
- a TQue's EnQue / DeQue are SetFlag / WaitFlag of the queue's forward event, FreeTensor / AllocTensor of
  its backward event (asc-devkit impl/basic_api/kernel_tquebind_impl.h EnQue/DeQue/FreeBuffer/AllocBuffer,
  events from kernel_event.h GetQueEvt); their ids come from the TPipe's pool, so a SetFlag / WaitFlag
  written with an id a queue holds collides with it (SetFlag-WaitFlag(ISASI).md 约束说明: in a TPipe
  kernel ids come from AllocEventID / FetchEventID);
- on the cube core the C++ API's SetFlag / WaitFlag of events between pipes the cube core lacks return at
  once (`AIC_NOOP_EVENTS`), and on the 950 so do PipeBarrier<PIPE_MTE3> / <PIPE_V>: they order nothing.

Happens-before is tracked with one vector clock per pipe: `vc[Q][P] = n` means the next instruction of
pipe Q is ordered after the completion of the first n instructions of pipe P. Two accesses to overlapping
bytes, at least one a write, from different pipes, with no such order between them, are a race. Within a
pipe, order is program order (docs/divergences.md R9), except for the two pipes whose pages say overlapping
copies need a PipeBarrier (MTE2, MTE3: DataCopy（GMToL1连续数据搬运）.md 约束说明) and the Mmad page's rule
for small accumulating Mmads (Mmad.md 约束说明 同步优化说明, `MMAD_BARRIER_RULE`).

Accesses are the bytes a call really touched: an `Access` is a byte span with, when the call's plan says
it has gaps (a strided copy, rows of a tile), its sorted runs (`call_accesses`); two accesses conflict only
where their runs overlap. Runs are capped at `MAX_RUNS` per access by closing the smallest gaps (a
superset: the checker may then report a conflict in a gap, never miss one).
"""

from __future__ import annotations

import warnings
from bisect import bisect_right
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..base.errors import HazardError, HazardWarning, UnsupportedError, doc_forbids
from ..machine.chips import get_chip
from ..machine.memory import LocalTensor

PIPES = ("S", "V", "M", "MTE1", "MTE2", "MTE3", "FIX")

#: Pipes whose same-pipe copies to overlapping bytes need a PipeBarrier (the DataCopy pages'
#: 约束说明: "目的地址存在重叠，需要...PipeBarrier<PIPE_MTE2>/<PIPE_MTE3>"); every other pipe is in order.
UNORDERED_PIPES = frozenset({"MTE2", "MTE3"})

#: HardEvents whose SetFlag / WaitFlag the C++ API skips on the cube core (AIC): events of pipes the cube
#: core does not have (asc-devkit impl/basic_api/kernel_operator_block_sync_intf_impl.h:64-76 and 90-101,
#: `if ASCEND_IS_AIC { if constexpr (event == ...) return; }`); on arch 3510 the list also holds the MTE3
#: and S pairs below (the same lines, `#if __NPU_ARCH__ == 3510`). TQueSync<src, dst> calls set_flag /
#: wait_flag directly (kernel_tquesync_impl.h) and is not filtered.
AIC_NOOP_EVENTS = frozenset({"MTE2_V", "V_MTE2", "MTE3_V", "V_MTE3", "V_V", "S_V", "V_S"})
AIC_NOOP_EVENTS_3510 = AIC_NOOP_EVENTS | {"MTE2_MTE3", "MTE3_MTE2", "MTE3_S", "S_MTE3"}

#: Pipes whose PipeBarrier does nothing on the 950 cube core (asc-devkit impl/basic_api/kernel_reg.h:58-78:
#: `if ASCEND_IS_AIC { if constexpr (pipe == PIPE_MTE3) return; }` and `if constexpr (pipe != PIPE_V)
#: pipe_barrier(pipe)`).
NOOP_BARRIERS_3510 = frozenset({"MTE3", "V"})

#: The Mmad page's rule for accumulating Mmads, as it is written (Mmad.md 约束说明, 同步优化说明).
MMAD_BARRIER_RULE = ("Mmad.md 同步优化说明: \"当计算量小于阈值时，需要插入PipeBarrier(PIPE_M)\", "
                     "阈值公式 (m / 16) * (n / 16) < 10")

#: Most runs one access keeps (more are merged across their smallest gaps, a superset of the bytes).
MAX_RUNS = 256

#: History entries kept per memory before same-line entries are merged (bounded memory; see `_compact`).
HISTORY_CAP = 512

#: Origins of the flags the user's code sets / waits for itself (the others are the queues' and TPipe's).
USER_SETS = frozenset({"SetFlag", "TQueSync::SetFlag"})
USER_WAITS = frozenset({"WaitFlag", "TQueSync::WaitFlag"})


class SyncWarning(HazardWarning):
    """A race or an unpaired flag found by the sync checker."""


class SyncError(HazardError):
    """Strict mode: the first race or unpaired flag."""


Runs = tuple[tuple[int, int], ...]


@dataclass(frozen=True)
class Access:
    """The bytes one call touched in `memory`, read or written: the span [start, end) and, when the call
    skipped bytes inside it, `runs` — sorted, disjoint [lo, hi) byte runs relative to `start` (the first
    starts at 0, the last ends at end - start). None: the whole span."""

    memory: str
    start: int
    end: int
    write: bool
    runs: Runs | None = None

    def spans(self) -> Iterator[tuple[int, int]]:
        """The absolute byte runs."""
        if self.runs is None:
            yield self.start, self.end
            return
        s = self.start
        for lo, hi in self.runs:
            yield s + lo, s + hi

    @property
    def nbytes(self) -> int:
        return self.end - self.start if self.runs is None else sum(hi - lo for lo, hi in self.runs)


def overlap_span(a: Access, b: Access) -> tuple[int, int] | None:
    """The bytes two accesses both touch, as the span from the first shared byte to one past the last
    (None when they share none: other memories, or only each other's gaps)."""
    if a.memory != b.memory or a.end <= b.start or b.end <= a.start:
        return None
    if a.runs is None and b.runs is None:
        return max(a.start, b.start), min(a.end, b.end)
    if a.runs is None or (b.runs is not None and len(a.runs) < len(b.runs)):
        a, b = b, a  # a: the one with more runs, searched; b: walked
    assert a.runs is not None
    base, runs = a.start, a.runs
    n = len(runs)
    first = last = None
    for lo, hi in b.spans():
        i = bisect_right(runs, (lo - base, 1 << 62)) - 1  # the last run of a starting at or before lo
        if i < 0 or runs[i][1] + base <= lo:
            i += 1
        while i < n and runs[i][0] + base < hi:
            x, y = max(lo, runs[i][0] + base), min(hi, runs[i][1] + base)
            if x < y:
                if first is None:
                    first = x
                last = y
            i += 1
    return None if first is None else (first, last)  # type: ignore[return-value]


def coalesce(runs: Sequence[tuple[int, int]], limit: int = MAX_RUNS) -> list[tuple[int, int]]:
    """Sorted disjoint runs, at most `limit` of them: the smallest gaps are closed first (a superset)."""
    runs = list(runs)
    if len(runs) <= limit:
        return runs
    gaps = sorted(range(len(runs) - 1), key=lambda i: (runs[i + 1][0] - runs[i][1], i))
    close = set(gaps[: len(runs) - limit])
    out = []
    lo, hi = runs[0]
    for i in range(len(runs) - 1):
        if i in close:
            hi = runs[i + 1][1]
        else:
            out.append((lo, hi))
            lo, hi = runs[i + 1]
    out.append((lo, hi))
    return out


def union_runs(*accesses: Access) -> list[tuple[int, int]]:
    """The absolute runs of the bytes any of `accesses` touches, merged (sorted, disjoint)."""
    spans = sorted(s for a in accesses for s in a.spans())
    out: list[tuple[int, int]] = []
    for lo, hi in spans:
        if out and lo <= out[-1][1]:
            out[-1] = (out[-1][0], max(out[-1][1], hi))
        else:
            out.append((lo, hi))
    return out


def access_of(memory: str, runs: Sequence[tuple[int, int]], write: bool) -> Access:
    """An Access over absolute, sorted, disjoint `runs` (capped at MAX_RUNS)."""
    runs = coalesce(runs)
    start, end = runs[0][0], runs[-1][1]
    if len(runs) == 1:
        return Access(memory, start, end, write)
    return Access(memory, start, end, write, tuple((lo - start, hi - start) for lo, hi in runs))


def element_runs(offsets: np.ndarray, bits: int) -> list[tuple[int, int]]:
    """Byte runs [lo, hi) holding the elements at `offsets` (element indices of `bits`-bit elements)."""
    if offsets.size == 0:
        return []
    if bits % 8 == 0:
        unit, u = bits // 8, np.unique(offsets)
    else:  # sub-byte elements (4-bit): the bytes holding them
        unit, u = 1, np.unique(offsets * bits // 8)
    breaks = np.flatnonzero(np.diff(u) != 1)
    starts = u[np.r_[0, breaks + 1]] * unit
    ends = (u[np.r_[breaks, u.size - 1]] + 1) * unit
    return list(zip(starts.tolist(), ends.tolist(), strict=True))


def tensor_range(t: LocalTensor, nbytes: int | None = None) -> tuple[int, int]:
    n = t.nbytes if nbytes is None else nbytes
    return t.offset, t.offset + n


#: planner id -> (the planner, {("dst" | "src", bits): runs relative to the operand}) — the exact byte runs
#: of a prepared call, computed once per PreparedCall (its planner is shared by all its calls).
_PLAN_RUNS: dict[int, tuple[Any, dict[tuple[str, int], list[tuple[int, int]]]]] = {}
_PLAN_RUNS_MAX = 4096


def _plan_runs(report: Any) -> dict[tuple[str, int], list[tuple[int, int]]] | None:
    """The byte runs of a report's plan for its destination and source, in the plan's element width and in
    the operands' (a Fixpipe plan counts destination elements of the destination's type); None without a
    plan."""
    planner = getattr(report, "planner", None)
    if planner is None:
        return None
    hit = _PLAN_RUNS.get(id(planner))
    if hit is not None and hit[0] is planner:
        return hit[1]
    try:
        plan = report.plan
    except Exception:  # noqa: BLE001 - the checker must not fail a call its plan rebuild cannot explain
        plan = None
    if plan is None:
        return None
    out: dict[tuple[str, int], list[tuple[int, int]]] = {}
    dst, src = getattr(report, "dst", None), getattr(report, "src", None)
    valid = plan.src[plan.src >= 0]
    for side, offs, op in (("dst", plan.dst, dst), ("src", valid, src)):
        for bits in {plan.bits, getattr(getattr(op, "dtype", None), "bits", plan.bits)}:
            out[(side, bits)] = element_runs(offs, bits)
    if len(_PLAN_RUNS) >= _PLAN_RUNS_MAX:
        _PLAN_RUNS.pop(next(iter(_PLAN_RUNS)))
    _PLAN_RUNS[id(planner)] = (planner, out)
    return out


def _refined(memory: str, a: int, b: int, write: bool, op: Any, side: str,
             runs: dict[tuple[str, int], list[tuple[int, int]]] | None) -> Access:
    """The recorded span [a, b) of an operand, narrowed to the plan's runs when the plan accounts for
    exactly that span (same start, same extent); the span itself otherwise."""
    if runs is None or op is None or op.offset != a:
        return Access(memory, a, b, write)
    for (s, _), rel in runs.items():
        if s != side or not rel or rel[-1][1] != b - a or rel[0][0] < 0:
            continue
        if len(rel) == 1 and rel[0] == (0, b - a):
            return Access(memory, a, b, write)
        return access_of(memory, [(a + lo, a + hi) for lo, hi in rel], write)
    return Access(memory, a, b, write)


def call_accesses(
    report: object, writes: Sequence[LocalTensor], reads: Sequence[LocalTensor]
) -> list[Access]:
    """THE adapter from an executed call to the bytes it read and wrote.

    When the call's ExecReport carries its byte ranges (`report.writes` / `report.reads`: (memory, start,
    end) tuples filled by the call boundary, ascsim.engine.boundary), those are used, each narrowed to the
    exact runs of the call's plan (`report.planner`, the destination and source element offsets) when the
    range is the destination's or source's and the plan covers exactly it — so a strided copy into one row
    block of a matrix touches that block's rows only. The runs are computed once per prepared call.
    Otherwise the accesses are derived from the call's tensor arguments: the destinations are written and
    the sources read over the tensor's bytes, narrowed to the plan's extents (`plan.dst_end` /
    `plan.src_end`) when the report has a plan. A call that reports no bytes moved (a NOP) touches nothing.
    """
    recorded = getattr(report, "accesses", None)
    if recorded:
        return [a if isinstance(a, Access) else Access(*a) for a in recorded]
    # the call boundary's records: (memory, start, end) byte ranges written / read (ascsim.engine.boundary)
    rec_w, rec_r = getattr(report, "writes", ()), getattr(report, "reads", ())
    if rec_w or rec_r:
        runs = _plan_runs(report)
        dst, src = getattr(report, "dst", None), getattr(report, "src", None)
        src_runs = None if getattr(report, "boundary", 0) else runs  # reads wrapping at the L1 boundary
        return ([_refined(m, a, b, True, dst, "dst", runs) for m, a, b in rec_w]
                + [_refined(m, a, b, False, src, "src", src_runs) for m, a, b in rec_r])
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
    """One executed instruction as the checker sees it (`params`: its params struct, e.g. MmadParams)."""

    name: str
    pipe: str
    where: str
    accesses: Sequence[Access]
    params: Any = None
    report: Any = None  # its ExecReport, when it has one (the timeline reads a Mmad's dtype from it)


def unit_flag(call: PipeCall) -> bool:
    """Whether a Mmad or a move out of L0C runs with unitFlag 2 or 3: Mmad.md 参数说明 unitFlag
    ("控制Mmad指令和Fixpipe指令细粒度的并行 ... 须将...unitFlag值设置为2或3"; UnitFlag.md):
    the hardware then moves each fractal out once it is computed, so two such calls on L0C need no flag
    between them (docs/divergences.md R24)."""
    return call.pipe in ("M", "FIX") and getattr(call.params, "unitFlag", 0) in (2, 3)


@dataclass
class SyncReport:
    """One finding: kind is RAW / WAR / WAW / mmad-barrier / reordered / unpaired-set / unpaired-wait /
    hang / double-set / event-collision / never-dequeued."""

    kind: str
    message: str
    lines: tuple[str, ...]
    count: int = 1


class _Rec:
    """One access in the history (its span and direction copied out: the hot loop reads them)."""

    __slots__ = ("pipe", "seq", "acc", "name", "where", "issue", "start", "end", "write", "unit", "frozen")

    def __init__(self, pipe: str, seq: int, acc: Access, name: str, where: str, issue: int = 0,
                 unit: bool = False, frozen: frozenset[str] = frozenset()) -> None:
        self.pipe, self.seq, self.acc, self.name, self.where = pipe, seq, acc, name, where
        self.issue = issue  # the call's place in program order
        self.start, self.end, self.write = acc.start, acc.end, acc.write
        self.unit = unit  # a Mmad / Fixpipe with unitFlag 2 or 3 (`unit_flag`)
        # pipes every later access of which is ordered after this one (`_prune` folds accesses only the
        # pipes that had not touched the memory yet can still race with into one such record)
        self.frozen = frozen


@dataclass
class _Flag:
    value: dict[str, int]
    where: str
    origin: str


@dataclass
class _Pending:
    """A WaitFlag whose flag was not up when its pipe reached it: the pipe holds everything after it."""

    key: tuple[str, int]
    where: str
    origin: str


@dataclass
class SyncChecker:
    """Feed it the kernel's instructions and sync calls in program order; it reports as it goes.

    `chip`: the chip's key or alias (the cube core's no-op events and barriers are the chip's C++ API's).
    """

    strict: bool = False
    chip: str = ""
    reports: list[SyncReport] = field(default_factory=list)
    #: Sees every call this checker is fed, in issue order, minus the chip's no-ops (the timeline's
    #: ascsim.engine.timeline.Recorder): one walk feeds both.
    recorder: Any = None

    def __post_init__(self) -> None:
        self.count = dict.fromkeys(PIPES, 0)
        self.vc = {p: dict.fromkeys(PIPES, 0) for p in PIPES}
        self.flags: dict[tuple, _Flag] = {}
        self.history: dict[str, dict[str, list[_Rec]]] = {}  # memory -> pipe -> its accesses, in order
        self._seen: dict[tuple, SyncReport] = {}
        self.blocked: dict[str, _Pending] = {}  # pipe -> the WaitFlag it is held at
        self.backlog: dict[str, list[tuple]] = {}  # pipe -> its calls issued since (run when released)
        self.allocated: dict[tuple[str, int], tuple[str, str]] = {}  # (event, id) -> (owner, where)
        self.noops: dict[str, str] = {}  # no-op event / barrier -> where it was called (for the messages)
        self.issued = 0  # calls issued so far (program order)
        self._releasing: tuple[_Pending, str] | None = None  # the wait and SetFlag a held pipe goes on at
        arch = get_chip(self.chip).arch if self.chip else ""
        self.arch = arch
        self.noop_events = AIC_NOOP_EVENTS_3510 if arch == "3510" else AIC_NOOP_EVENTS
        self.noop_barriers = NOOP_BARRIERS_3510 if arch == "3510" else frozenset()

    # -- instructions ---------------------------------------------------------------------------------
    def instruction(self, call: PipeCall) -> int:
        """Check one executed call; returns its number on its pipe (1 for the pipe's first call), which
        `release_point` counts in (a call of a pipe held at a WaitFlag is checked when the pipe goes on)."""
        p = call.pipe
        self._pipe(p)
        self.issued += 1
        if self.recorder is not None:
            self.recorder.instruction(call)
        if p in self.blocked:
            q = self.backlog[p]
            q.append(("ins", call, self.issued))
            return self.count[p] + sum(1 for op in q if op[0] == "ins")
        self._instruction(call, self.issued)
        return self.count[p]

    def _instruction(self, call: PipeCall, issue: int = 0) -> None:
        p = call.pipe
        unit = unit_flag(call)
        seq = self.count[p] + 1
        self.count[p] = seq
        known = self.vc[p]
        for acc in call.accesses:
            lo, hi, write = acc.start, acc.end, acc.write
            if hi <= lo:
                continue
            by_pipe = self.history.setdefault(acc.memory, {})
            last_mmad = None  # the latest Mmad write this read may accumulate onto (MMAD_BARRIER_RULE)
            for q, recs in by_pipe.items():
                if q == p and p not in UNORDERED_PIPES and not (p == "M" and not write):
                    continue  # in order: a pipe's own earlier calls never race with it
                kq = known[q]
                for r in recs:
                    if r.end <= lo or hi <= r.start or not (r.write or write) or p in r.frozen:
                        continue
                    if unit and r.unit and q != p:
                        continue  # Mmad and Fixpipe both with unitFlag: the hardware orders them per fractal
                    if q == p:
                        if r.seq == seq:
                            continue  # the call's own other access
                        if p == "M":  # in order; the page's rule for accumulating Mmads
                            if r.write and acc.memory == "L0C" and overlap_span(acc, r.acc) is not None:
                                last_mmad = r
                            continue
                        if not (r.write and write):
                            continue  # a same-pipe copy only conflicts with an overlapping destination
                    if kq >= r.seq:
                        if r.issue > issue and self._releasing is not None:
                            span = overlap_span(acc, r.acc)
                            if span is not None:
                                self._reordered(call, acc, r, span)
                        continue
                    span = overlap_span(acc, r.acc)
                    if span is not None:
                        self._race(call, acc, r, span)
            if last_mmad is not None:
                self._mmad_rule(call, acc, last_mmad)
            mine = by_pipe.get(p)
            if mine is None:
                mine = by_pipe[p] = []
            mine.append(_Rec(p, seq, acc, call.name, call.where, issue, unit))
            if len(mine) > HISTORY_CAP:
                self._prune(acc.memory, p)

    def _mmad_rule(self, call: PipeCall, acc: Access, r: _Rec) -> None:
        """A small Mmad accumulating into L0C an earlier Mmad wrote, with nothing (a PipeBarrier<PIPE_M>, or
        flags through another pipe) ordering the earlier Mmad's completion before it (MMAD_BARRIER_RULE)."""
        m, n = getattr(call.params, "m", None), getattr(call.params, "n", None)
        if m is None or n is None or self.vc["M"]["M"] >= r.seq:
            return
        size = (int(m) // 16) * (int(n) // 16)
        if size >= 10:
            return
        span = overlap_span(acc, r.acc)
        if span is None:
            return
        self._report(
            "mmad-barrier",
            f"{call.where}: {call.name} (M) accumulates into L0C [{span[0]}, {span[1]}) written by {r.name} "
            f"at {r.where} with no PipeBarrier<PIPE_M> between them; {MMAD_BARRIER_RULE}, here "
            f"({m} / 16) * ({n} / 16) = {size}",
            (call.where, r.where),
        )

    def _reordered(self, call: PipeCall, acc: Access, r: _Rec, span: tuple[int, int]) -> None:
        """A call held at a WaitFlag conflicts with a call issued after it that the SetFlag orders before
        it: the device runs them in the other order than the program's, which is the order ascsim runs."""
        assert self._releasing is not None
        pend, set_where = self._releasing
        event, eid = pend.key
        verb = "writes" if acc.write else "reads"
        other = "writes" if r.acc.write else "reads"
        self._report(
            "reordered",
            f"{call.where}: {call.name} ({call.pipe}) {verb} {acc.memory} [{span[0]}, {span[1]}), which "
            f"{r.name} at {r.where} ({r.pipe}), issued after it, {other} first on the device: {call.name} is "
            f"held by {pend.origin}<{event}>({eid}) at {pend.where} until the SetFlag at {set_where}; ascsim "
            "runs calls in program order, so its result is not the device's (docs/divergences.md R12)",
            (call.where, r.where),
        )

    def _race(self, call: PipeCall, acc: Access, r: _Rec, span: tuple[int, int]) -> None:
        kind = "RAW" if r.acc.write and not acc.write else "WAR" if acc.write and not r.acc.write else "WAW"
        lo, hi = span
        verb = "writes" if acc.write else "reads"
        past = "written" if r.acc.write else "read"
        if r.pipe == call.pipe:
            need = f"PipeBarrier<PIPE_{r.pipe}>"
            noop, what = self.noops.get(f"PIPE_{r.pipe}"), need
        else:
            need = f"WaitFlag<{r.pipe}_{call.pipe}>"
            noop, what = self.noops.get(f"{r.pipe}_{call.pipe}"), f"SetFlag / WaitFlag<{r.pipe}_{call.pipe}>"
        msg = (
            f"{call.where}: {call.name} ({call.pipe}) {verb} {acc.memory} [{lo}, {hi}) {past} by {r.name} "
            f"at {r.where} ({r.pipe}) with no {need} between them"
        )
        if noop is not None:
            msg += (f" ({what}, as at {noop}, does nothing on this chip's cube core: the C++ API returns at "
                    "once, docs/divergences.md R22)")
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

    def _prune(self, memory: str, pipe: str) -> None:
        """Bound a pipe's history in `memory` without losing a race.

        An access every other pipe's later calls are ordered after can race with nothing to come: dropped.
        One that every pipe which has touched `memory` so far is ordered after can race only with a pipe
        touching it for the first time (a cube kernel's V / MTE3 / S never touch L1, and they never sync
        with the cube pipes, so they would hold every access back): those are folded into one record per
        direction, marked `frozen` for the pipes already ordered after them — the rest still check it, as a
        superset (the union of its bytes at the latest call number). Past HISTORY_CAP / 2 what is left is
        merged line by line (`_compact`)."""
        vc = self.vc
        by_pipe = self.history[memory]
        own = vc[pipe][pipe] if pipe in UNORDERED_PIPES or pipe == "M" else self.count[pipe]
        floor = min(min(vc[q][pipe] for q in PIPES if q != pipe), own)
        users = [q for q in by_pipe if q != pipe]  # pipes that touched `memory` (their keys stay)
        settled = min(min((vc[q][pipe] for q in users), default=own), own)
        keep: list[_Rec] = []
        fold: dict[tuple[bool, frozenset[str]], list[_Rec]] = {}
        now = frozenset((*users, pipe))
        for r in by_pipe[pipe]:
            if r.seq <= floor:
                continue
            if r.seq <= settled and not r.unit:
                fold.setdefault((r.write, now | r.frozen), []).append(r)
            else:
                keep.append(r)
        for (write, frozen), rs in fold.items():
            last = max(rs, key=lambda r: r.seq)
            acc = last.acc if len(rs) == 1 else access_of(memory, union_runs(*(r.acc for r in rs)), write)
            keep.append(_Rec(pipe, last.seq, acc, last.name, last.where, last.issue, frozen=frozen))
        keep.sort(key=lambda r: r.seq)
        if len(keep) > HISTORY_CAP // 2:
            keep = _compact(keep)
        by_pipe[pipe] = keep

    @staticmethod
    def _pipe(p: str) -> None:
        if p not in PIPES:
            raise ValueError(f"unknown pipe {p!r}; known: {', '.join(PIPES)}")

    # -- sync calls -----------------------------------------------------------------------------------
    def set_flag(self, event: str, event_id: object, where: str, origin: str = "SetFlag") -> None:
        src, dst = event_pipes(event)
        if origin == "SetFlag" and event in self.noop_events:
            self.noops[event] = where
            return
        if self.recorder is not None:
            self.recorder.set_flag(event, event_id, where, origin)
        key = (event, event_id)
        collided = origin in USER_SETS and self._collision(key, where, origin)
        if src in self.blocked:
            self.backlog[src].append(("set", event, event_id, where, origin, collided))
            return
        self._set(event, event_id, where, origin, collided)

    def _set(self, event: str, event_id: object, where: str, origin: str, collided: bool = False) -> None:
        src, dst = event_pipes(event)
        key = (event, event_id)
        value = dict(self.vc[src])
        value[src] = self.count[src]
        pend = self.blocked.get(dst)
        if pend is not None and pend.key == key:  # the pipe held at its WaitFlag goes on
            del self.blocked[dst]
            self._join(dst, value)
            outer, self._releasing = self._releasing, (pend, where)
            try:
                self._drain(dst)
            finally:
                self._releasing = outer
            return
        old = self.flags.get(key)
        if old is not None and origin in USER_SETS and not collided:
            self._report(
                "double-set",
                f"{where}: SetFlag<{event}>({event_id}) sets a flag that is already "
                f"set (by {old.origin} at {old.where}) with no WaitFlag in between; the sync page "
                f"calls this undefined (SetFlag-WaitFlag(ISASI).md 约束说明)",
                (where, old.where),
            )
        self.flags[key] = _Flag(value, where, origin)

    def wait_flag(self, event: str, event_id: object, where: str, origin: str = "WaitFlag") -> None:
        _, dst = event_pipes(event)
        if origin == "WaitFlag" and event in self.noop_events:
            self.noops[event] = where
            return
        if self.recorder is not None:
            self.recorder.wait_flag(event, event_id, where, origin)
        key = (event, event_id)
        if origin in USER_WAITS:
            self._collision(key, where, origin)
        if dst in self.blocked:
            self.backlog[dst].append(("wait", event, event_id, where, origin))
            return
        self._wait(event, event_id, where, origin)

    def _wait(self, event: str, event_id: object, where: str, origin: str) -> None:
        _, dst = event_pipes(event)
        key = (event, event_id)
        flag = self.flags.pop(key, None)
        if flag is not None:
            self._join(dst, flag.value)
            return
        if dst == "S":  # the scalar unit itself would stop, so the SetFlag could never be issued
            self._report(
                "hang",
                f"{where}: {origin}<{event}>({event_id}) stops the scalar pipe until "
                f"SetFlag<{event}>({event_id}), which no call before it has issued and which the stopped "
                "scalar unit can no longer issue: the kernel hangs",
                (where,),
            )
            return
        self.blocked[dst] = _Pending(key, where, origin)
        self.backlog[dst] = []

    def _join(self, pipe: str, value: dict[str, int]) -> None:
        vc = self.vc[pipe]
        for p, n in value.items():
            if n > vc[p]:
                vc[p] = n

    def _drain(self, pipe: str) -> None:
        """Run the calls a pipe held back, in order, until it is held at a WaitFlag again."""
        q = self.backlog.pop(pipe, [])
        while q:
            op = q.pop(0)
            kind = op[0]
            if kind == "ins":
                self._instruction(op[1], op[2])
            elif kind == "set":
                self._set(*op[1:])
            elif kind == "wait":
                self._wait(*op[1:])
            else:
                self._barrier(op[1])
            if pipe in self.blocked:
                self.backlog[pipe] = q + self.backlog[pipe]
                return

    def _release(self, pipe: str) -> None:
        """A pipe held at a WaitFlag whose SetFlag will not come: it goes on with nothing ordered."""
        self.blocked.pop(pipe, None)
        outer, self._releasing = self._releasing, None
        try:
            self._drain(pipe)
        finally:
            self._releasing = outer

    def barrier(self, pipe: str, where: str = "") -> None:
        """PipeBarrier<PIPE_X> (pipe "ALL" for PIPE_ALL)."""
        if pipe == "S":
            raise UnsupportedError(
                "PipeBarrier<PIPE_S> is not supported",
                basis=doc_forbids("PipeBarrier(ISASI).md 约束说明: \"Scalar流水之间的同步由硬件自动保证，"
                                  "PipeBarrier接口不支持PIPE_S单流水的同步\"", "R21"))
        if pipe == "ALL":
            while self.blocked:  # PIPE_ALL waits for every pipe, and the scalar unit with it
                held, pend = next(iter(self.blocked.items()))
                event, eid = pend.key
                self._report(
                    "hang",
                    f"{where}: PipeBarrier<PIPE_ALL> waits for pipe {held}, which is held at {pend.where} by "
                    f"{pend.origin}<{event}>({eid}) whose SetFlag<{event}>({eid}) has not been issued; the "
                    "scalar unit stops at the barrier, so it never will: the kernel hangs",
                    (where, pend.where),
                )
                self._release(held)
            if self.recorder is not None:
                self.recorder.barrier(pipe, where)
            self._barrier("ALL")
            return
        self._pipe(pipe)
        if pipe in self.noop_barriers:
            self.noops[f"PIPE_{pipe}"] = where
            return
        if self.recorder is not None:
            self.recorder.barrier(pipe, where)
        if pipe in self.blocked:
            self.backlog[pipe].append(("barrier", pipe))
            return
        self._barrier(pipe)

    def _barrier(self, pipe: str) -> None:
        if pipe == "ALL":  # everything before is ordered before everything after: nothing left to race
            for q in PIPES:
                self.vc[q] = dict(self.count)
            self.history.clear()
            return
        self.vc[pipe][pipe] = self.count[pipe]

    def release_point(self, pipe: str) -> dict[str, int]:
        """What of this core is complete when pipe `pipe` (or "ALL") reaches its current point: pipe ->
        calls done (`instruction`'s numbers). The scalar pipe's calls are counted in: the scalar unit issued
        them before it issued the call asking (a cross-core CrossCoreSetFlag on `pipe`)."""
        if pipe == "ALL":
            return dict(self.count)
        value = dict(self.vc[pipe])
        value[pipe] = self.count[pipe]
        value["S"] = self.count["S"]
        return value

    # -- the TPipe's event ids ------------------------------------------------------------------------
    def alloc_event(self, pipe_pair: str, event_id: int, origin: str, where: str) -> None:
        """The TPipe hands out id `event_id` of HardEvent `pipe_pair` (origin "queue", "TPipe" or
        "AllocEventID")."""
        key = (pipe_pair, event_id)
        if origin != "AllocEventID":
            flag = self.flags.get(key)
            if flag is not None and flag.origin in USER_SETS:
                self._report(
                    "event-collision",
                    f"{where}: the TPipe gives {_owner(origin)} id {event_id} of {pipe_pair} (its lowest "
                    f"free id) while {flag.origin}<{pipe_pair}>({event_id}) at {flag.where} holds it; in a "
                    "TPipe kernel event ids come from AllocEventID / FetchEventID "
                    "(SetFlag-WaitFlag(ISASI).md 约束说明)",
                    (where, flag.where),
                )
        self.allocated[key] = (origin, where)

    def release_event(self, pipe_pair: str, event_id: int, where: str) -> None:
        self.allocated.pop((pipe_pair, event_id), None)

    def _collision(self, key: tuple[str, Any], where: str, origin: str) -> bool:
        """A user's SetFlag / WaitFlag on an id the TPipe holds for a queue or for itself."""
        held = self.allocated.get(key)
        if held is None or held[0] == "AllocEventID":
            return False
        event, eid = key
        self._report(
            "event-collision",
            f"{where}: {origin}<{event}>({eid}) uses id {eid} of {event}, which the TPipe holds for "
            f"{_owner(held[0])} (taken at {held[1]}); in a TPipe kernel event ids come from AllocEventID / "
            "FetchEventID (SetFlag-WaitFlag(ISASI).md 约束说明)",
            (where, held[1]),
        )
        return True

    def finish(self) -> None:
        """End of the kernel: waits never satisfied, flags the user set and never waited for, queues never
        dequeued."""
        while self.blocked:
            held, pend = next(iter(self.blocked.items()))
            event, eid = pend.key
            self._report(
                "unpaired-wait",
                f"{pend.where}: {pend.origin}<{event}>({eid}) has no SetFlag<{event}>({eid}) before it or "
                f"after it: pipe {held} waits for it forever (SetFlag-WaitFlag(ISASI).md 约束说明: "
                "必须成对使用)",
                (pend.where,),
            )
            self._release(held)
        for (event, event_id), flag in self.flags.items():
            if flag.origin in USER_SETS:
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


def _owner(origin: str) -> str:
    if origin == "TPipe":
        return ("itself (the cube core's TPipe keeps M_MTE1 ids 0-2 set from its construction to its "
                "destruction, kernel_tpipe_impl.h)")
    return "a queue" if origin == "queue" else origin


def _compact(recs: list[_Rec]) -> list[_Rec]:
    """Merge the entries of one (pipe, line, call, direction) into one: the union of their bytes at the
    latest call number (bounded memory; a superset — ordered-before is judged by the latest)."""
    groups: dict[tuple, list[_Rec]] = {}
    for r in recs:
        groups.setdefault((r.pipe, r.where, r.name, r.acc.write, r.frozen), []).append(r)
    out = []
    for (pipe, where, name, write, frozen), rs in groups.items():
        if len(rs) == 1:
            out.append(rs[0])
            continue
        acc = access_of(rs[0].acc.memory, union_runs(*(r.acc for r in rs)), write)
        out.append(_Rec(pipe, max(r.seq for r in rs), acc, name, where, frozen=frozen))
    out.sort(key=lambda r: r.seq)
    return out


def event_pipes(event: str) -> tuple[str, str]:
    """HardEvent `MTE2_MTE1` -> ("MTE2", "MTE1"): source pipe, waiting pipe."""
    parts = event.split("_")
    if len(parts) != 2 or not all(p in PIPES for p in parts):
        raise ValueError(f"HardEvent {event!r} is not <source pipe>_<waiting pipe> of {', '.join(PIPES)}")
    return parts[0], parts[1]


def format_reports(reports: Iterable[SyncReport]) -> list[str]:
    """One line per report (`... (3 times)` when a loop repeated it)."""
    return [r.message + (f" ({r.count} times)" if r.count > 1 else "") for r in reports]
