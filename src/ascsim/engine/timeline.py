"""The schedule: when each instruction of a kernel runs on its pipe, given a cost model — pure, no I/O.

The model (docs/timeline.md; the sync pages' model, 核内同步能力概述.md, which the sync checker checks):

- the scalar unit issues every call in program order, `issue_cycles` each; an instruction cannot start
  before it was issued (scalar dependence);
- each pipe runs its instructions one at a time, in the order they were issued: an instruction starts when
  its pipe is free, it was issued, and every happens-before predecessor has finished;
- `SetFlag<P_Q>(id)` fires when pipe P's earlier work is done; `WaitFlag<P_Q>(id)` holds pipe Q's later
  instructions until that flag fired (+ `flag_cycles`); the scalar unit issues on meanwhile, so the SetFlag
  may come later in program order (its pipe's later calls are then held until it comes). A WaitFlag on
  PIPE_S stops the scalar unit itself. A TQue's EnQue / DeQue / AllocTensor / FreeTensor are such flags
  (ascsim.engine.sync);
- `PipeBarrier<PIPE_X>` is an entry of pipe X (`barrier_cycles`; X runs one call at a time in this model, so
  it orders nothing more); `PipeBarrier<PIPE_ALL>` stops the scalar unit until every pipe drained
  (PipeBarrier(ISASI).md 约束说明), then `barrier_cycles`;
- an instruction's `after` lists earlier events (indices into the stream) it must follow besides these
  (for streams built by hand, e.g. by the planner).

Cores are independent: each core's stream is scheduled alone and the total is the slowest core's; GM
bandwidth shared between cores, cross-core flags and SyncAll's waits across cores are not modelled
(SyncAll orders its own core as a PIPE_ALL barrier).

API:

    from ascsim.engine.timeline import Instr, SetFlag, WaitFlag, Barrier, schedule
    from ascsim.machine.costs import cost_model
    events = [Instr("MTE2", "DataCopy", "GM->L1", nbytes=32768),
              SetFlag("MTE2_MTE1", 0), WaitFlag("MTE2_MTE1", 0),
              Instr("MTE1", "LoadData", "L1->L0A", nbytes=16384), ...]
    s = schedule(events, cost_model("a2"))            # or schedule({0: events0, 1: events1}, model)
    s.total_cycles, s.pipes["MTE2"].busy, s.critical_path, s.waits

An `Instr` with `cycles` set takes exactly that long (the model is not asked). `Recorder` builds the stream
from the sync checker's calls (`SyncChecker.recorder`); `events_of(recorder)` gives it per core.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..base.errors import AscsimError
from ..machine.costs import MMAD_KINDS, CostModel
from . import sync

#: The sync checker's pipes (engine.sync.PIPES), in the order a timeline shows them: the data's way
#: through the cube core, the scalar unit first.
PIPES = ("S", "MTE2", "MTE1", "M", "FIX", "MTE3", "V")


class ScheduleError(AscsimError):
    """A stream that cannot be scheduled (a wait whose flag never comes, an unknown pipe)."""


@dataclass(frozen=True)
class Instr:
    """One instruction on `pipe`: `kind` its C++ API name, `path` "SRC->DST" of a move (the cost table's
    key), `nbytes` the bytes it moves, `fractals` (or `shape` = (m, k, n)) and `dtype` (A's element type) a
    Mmad's work (ascsim.machine.costs), `after`
    the indices of earlier events it must also follow, `cycles` a fixed duration (None: the model's)."""

    pipe: str
    kind: str
    path: str = ""
    nbytes: int = 0
    fractals: int = 0
    dtype: str = ""
    where: str = ""
    after: tuple[int, ...] = ()
    cycles: float | None = None
    shape: tuple[int, ...] = ()  # a Mmad's (m, k, n): its fractals from the model when `fractals` is 0


@dataclass(frozen=True)
class FlagEvent:
    """A flag call: `event` a HardEvent "SRC_DST", `id` its event id, `origin` the API that made it."""

    event: str
    id: object = 0
    where: str = ""
    origin: str = ""


@dataclass(frozen=True)
class SetFlag(FlagEvent):
    """SetFlag<event>(id) (`origin`: SetFlag, EnQue, FreeTensor, ...)."""

    origin: str = "SetFlag"


@dataclass(frozen=True)
class WaitFlag(FlagEvent):
    """WaitFlag<event>(id) (`origin`: WaitFlag, DeQue, AllocTensor, ...)."""

    origin: str = "WaitFlag"


@dataclass(frozen=True)
class Barrier:
    """PipeBarrier<PIPE_X> (`pipe` "ALL" for PIPE_ALL)."""

    pipe: str
    where: str = ""


Event = Instr | SetFlag | WaitFlag | Barrier


@dataclass
class Item:
    """One scheduled event: its core, pipe, [start, end) in cycles, and what it waited for. `cause` is the
    item whose end decided the start (None: the issue of the call), for the critical path."""

    index: int  # place in its core's stream
    core: int
    pipe: str
    kind: str  # the instruction's name, or SetFlag / WaitFlag / PipeBarrier (the origin for queue flags)
    start: float
    end: float
    where: str = ""
    event: Event | None = None
    issued: float = 0.0
    cause: Item | None = field(default=None, repr=False)
    label: str = ""
    setter: Item | None = field(default=None, repr=False)  # a wait's SetFlag (PIPE_ALL: the last call)

    @property
    def cycles(self) -> float:
        return self.end - self.start


@dataclass(frozen=True)
class Wait:
    """A pipe held: `pipe` of `core` waited `cycles` from `start` at `waiter` (a WaitFlag, a PipeBarrier
    or an `after` dependence) for `setter` (the SetFlag, or the call that drained last)."""

    core: int
    pipe: str
    flag: str  # "MTE2_MTE1(0)", "PIPE_ALL", "after #3"
    start: float
    cycles: float
    waiter: str  # source line of the WaitFlag / barrier
    setter: str  # source line of the SetFlag / the last call the barrier waited for


@dataclass(frozen=True)
class PipeStats:
    busy: float
    waiting: float
    idle: float


@dataclass
class Schedule:
    """The result: `items` per core in stream order, `total_cycles`, per pipe busy / waiting / idle summed
    over the cores (`pipes`; `core_pipes[core]` each core's), `waits`, `critical_path` (items, first to
    last, of the core that ends last)."""

    items: dict[int, list[Item]]
    total_cycles: float
    pipes: dict[str, PipeStats]
    core_pipes: dict[int, dict[str, PipeStats]]
    waits: list[Wait]
    critical_path: list[Item]
    model: CostModel

    @property
    def total_us(self) -> float:
        return self.model.to_us(self.total_cycles)


def event_pipes(event: str) -> tuple[str, str]:
    """The sync checker's reading of a HardEvent (source pipe, waiting pipe), refused as a ScheduleError:
    a hand-built stream is the schedule's input."""
    try:
        return sync.event_pipes(event)
    except ValueError as e:
        raise ScheduleError(str(e)) from None


def _check_pipe(p: str) -> None:
    if p not in PIPES:
        raise ScheduleError(f"unknown pipe {p!r}; known: {', '.join(PIPES)}")


class _Core:
    """The scheduler of one core's stream (the state the events move)."""

    def __init__(self, core: int, model: CostModel) -> None:
        self.core, self.m = core, model
        self.issue = 0.0  # when the scalar unit issues its next call
        self.issue_cause: Item | None = None  # the item that last held the scalar unit
        self.free = dict.fromkeys(PIPES, 0.0)
        self.last: dict[str, Item | None] = dict.fromkeys(PIPES)
        self.flags: dict[tuple[str, object], deque[Item]] = {}
        self.held: dict[str, tuple[WaitFlag, int, float]] = {}  # pipe -> its pending wait
        self.backlog: dict[str, list[tuple[int, Event, float]]] = {}
        self.items: list[Item | None] = []
        self.waits: list[Wait] = []
        self.wait_time = dict.fromkeys(PIPES, 0.0)

    # -- helpers
    def _place(self, i: int, ev: Event, pipe: str, kind: str, t_issue: float, dur: float,
               deps: Sequence[tuple[float, Item | None]] = (), label: str = "") -> tuple[Item, float]:
        """Put an entry on `pipe`, starting at max(pipe free, issue, deps); returns it and the time it was
        ready but for its deps (what it waited from)."""
        ready, cause = self.free[pipe], self.last[pipe]
        if t_issue > ready:  # issue-bound: the scalar unit's last hold decided the issue time
            ready, cause = t_issue, self.issue_cause
        start = ready
        for t, c in deps:
            if t > start:
                start, cause = t, c
        it = Item(i, self.core, pipe, kind, start, start + dur, getattr(ev, "where", ""), ev, t_issue, cause,
                  label)
        self.free[pipe] = it.end
        self.last[pipe] = it
        self.items[i] = it
        return it, ready

    def _hold_scalar(self, until: float, cause: Item) -> None:
        """The scalar unit stops until `until` (a scalar call, a WaitFlag on PIPE_S, PIPE_ALL)."""
        if until >= self.issue:
            self.issue, self.issue_cause = until, cause

    # -- events
    def run(self, events: Sequence[Event]) -> None:
        self.items = [None] * len(events)
        for i, ev in enumerate(events):
            t = self.issue
            self.issue += self.m.issue_cycles
            self._dispatch(i, ev, t)
        if self.held:
            pipe, (w, i, _) = next(iter(self.held.items()))
            raise ScheduleError(f"{w.where or f'event {i}'}: {w.origin}<{w.event}>({w.id}) holds pipe "
                                f"{pipe} on core {self.core} and no SetFlag<{w.event}>({w.id}) comes: the "
                                "kernel hangs")

    def _pipe_of(self, ev: Event) -> str:
        if isinstance(ev, Instr):
            return ev.pipe
        if isinstance(ev, SetFlag):
            return event_pipes(ev.event)[0]
        if isinstance(ev, WaitFlag):
            return event_pipes(ev.event)[1]
        return ev.pipe

    def _dispatch(self, i: int, ev: Event, t: float) -> None:
        pipe = self._pipe_of(ev)
        if pipe != "ALL":
            _check_pipe(pipe)
        if pipe in self.held:
            self.backlog[pipe].append((i, ev, t))
            return
        self._execute(i, ev, t)

    def _execute(self, i: int, ev: Event, t: float) -> None:
        if isinstance(ev, Instr):
            self._instr(i, ev, t)
        elif isinstance(ev, SetFlag):
            self._set(i, ev, t)
        elif isinstance(ev, WaitFlag):
            self._wait(i, ev, t)
        elif isinstance(ev, Barrier):
            self._barrier(i, ev, t)
        else:
            raise ScheduleError(f"event {i}: {ev!r} is not an Instr, SetFlag, WaitFlag or Barrier")

    def _instr(self, i: int, ev: Instr, t: float) -> None:
        if ev.cycles is not None:
            dur = float(ev.cycles)
        else:
            fractals = ev.fractals
            if ev.shape and not fractals:
                fractals = self.m.mmad_fractals(*ev.shape, ev.dtype)
            dur = self.m.cycles(ev.kind, ev.pipe, ev.path, ev.nbytes, fractals, ev.dtype)
        deps = []
        for j in ev.after:
            dep = self.items[j] if 0 <= j < i else None
            if dep is None:
                raise ScheduleError(f"event {i} ({ev.kind}): after={j} names no earlier scheduled event")
            deps.append((dep.end, dep))
        label = ev.kind + (f" {ev.path}" if ev.path else "") + (
            " {}x{}x{}".format(*ev.shape) if ev.shape else "")
        it, ready = self._place(i, ev, ev.pipe, ev.kind, t, dur, deps, label)
        if it.start > ready and it.cause is not None:
            self._waited(ev.pipe, f"after #{it.cause.index}", ready, it.start, ev.where, it.cause.where)
        if ev.pipe == "S":  # the scalar unit runs it itself: nothing issues meanwhile
            self._hold_scalar(it.end, it)

    def _set(self, i: int, ev: SetFlag, t: float) -> None:
        src, dst = event_pipes(ev.event)
        it, _ = self._place(i, ev, src, ev.origin, t, 0.0, label=f"{ev.origin}<{ev.event}>({ev.id})")
        key = (ev.event, ev.id)
        self.flags.setdefault(key, deque()).append(it)
        pend = self.held.get(dst)
        if pend is not None and (pend[0].event, pend[0].id) == key:
            w, j, tw = pend
            del self.held[dst]
            self._wait(j, w, tw)
            q = self.backlog.pop(dst, [])
            while q:
                k, e2, t2 = q.pop(0)
                self._execute(k, e2, t2)
                if dst in self.held:
                    self.backlog[dst] = q + self.backlog.get(dst, [])
                    return

    def _wait(self, i: int, ev: WaitFlag, t: float) -> None:
        src, dst = event_pipes(ev.event)
        key = (ev.event, ev.id)
        q = self.flags.get(key)
        if not q:
            if dst == "S":
                raise ScheduleError(f"{ev.where or f'event {i}'}: {ev.origin}<{ev.event}>({ev.id}) stops the "
                                    "scalar unit before any SetFlag of it: the kernel hangs")
            self.held[dst] = (ev, i, t)
            self.backlog[dst] = []
            return
        setter = q.popleft()
        seen = setter.end + self.m.flag_cycles
        it, ready = self._place(i, ev, dst, ev.origin, t, 0.0, [(seen, setter)],
                                f"{ev.origin}<{ev.event}>({ev.id})")
        it.setter = setter
        if it.start > ready:
            self._waited(dst, f"{ev.event}({ev.id})", ready, it.start, ev.where, setter.where)
        if dst == "S":
            self._hold_scalar(it.end, it)

    def _barrier(self, i: int, ev: Barrier, t: float) -> None:
        if ev.pipe != "ALL":
            self._place(i, ev, ev.pipe, "PipeBarrier", t, self.m.barrier_cycles,
                        label=f"PipeBarrier<PIPE_{ev.pipe}>")
            return
        if self.held:
            pipe, (w, _, _) = next(iter(self.held.items()))
            raise ScheduleError(f"{ev.where}: PipeBarrier<PIPE_ALL> waits for pipe {pipe}, held at "
                                f"{w.where} by {w.origin}<{w.event}>({w.id}) whose SetFlag has not been "
                                "issued: the kernel hangs")
        last = max((x for x in self.last.values() if x is not None), key=lambda x: (x.end, -x.index),
                   default=None)
        drained = max(self.free.values())
        # the barrier is the scalar unit's: it waits from its issue until every pipe drained
        it, ready = self._place(i, ev, "S", "PipeBarrier", t, self.m.barrier_cycles,
                                [(drained, last)], "PipeBarrier<PIPE_ALL>")
        it.setter = last
        if it.start > ready and last is not None:
            self._waited("S", "PIPE_ALL", ready, it.start, ev.where, last.where)
        for p in PIPES:
            self.free[p] = max(self.free[p], it.end)
        self._hold_scalar(it.end, it)

    def _waited(self, pipe: str, flag: str, a: float, b: float, waiter: str, setter: str) -> None:
        self.waits.append(Wait(self.core, pipe, flag, a, b - a, waiter, setter))
        self.wait_time[pipe] += b - a


def schedule(events: Sequence[Event] | Mapping[int, Sequence[Event]], model: CostModel) -> Schedule:
    """Schedule one core's events (a sequence) or several cores' (core -> events), each independently."""
    streams = dict(events) if isinstance(events, Mapping) else {0: events}
    items: dict[int, list[Item]] = {}
    waits: list[Wait] = []
    done: dict[int, _Core] = {}
    for core in sorted(streams):
        c = _Core(core, model)
        c.run(list(streams[core]))
        items[core] = [x for x in c.items if x is not None]
        waits += c.waits
        done[core] = c
    end = {core: max((x.end for x in its), default=0.0) for core, its in items.items()}
    total = max(end.values(), default=0.0)
    core_pipes = {}
    for core, its in items.items():
        c = done[core]
        stats = {}
        for p in PIPES:
            busy = sum((x.cycles for x in its if x.pipe == p and isinstance(x.event, Instr)), 0.0)
            waiting = c.wait_time[p]
            stats[p] = PipeStats(busy, waiting, max(total - busy - waiting, 0.0))
        core_pipes[core] = stats
    pipes = {p: PipeStats(*(sum(getattr(core_pipes[c][p], f) for c in core_pipes)
                            for f in ("busy", "waiting", "idle"))) for p in PIPES}
    critical: list[Item] = []
    if items:
        last_core = max(end, key=lambda c: (end[c], -c))
        its = items[last_core]
        if its:
            node: Item | None = max(its, key=lambda x: (x.end, -x.index))
            while node is not None:
                critical.append(node)
                node = node.cause
            critical.reverse()
    return Schedule(items, total, pipes, core_pipes, waits, critical, model)


# -- from the sync checker's calls ------------------------------------------------------------------------
#: Events one Recorder keeps (bounded memory: a core past it records no more and its timeline is refused).
MAX_EVENTS = 2_000_000


class Recorder:
    """The event stream of one core, recorded beside its sync checker (`SyncChecker(recorder=...)`): the
    checker calls these in issue order with what it checks (a PipeCall; flags; barriers). The calls the
    chip's C++ API makes no-ops (AIC_NOOP_EVENTS, the 950's barriers) are not recorded: they order
    nothing. Past `limit` events it stops recording (`overflow`)."""

    def __init__(self, limit: int = MAX_EVENTS) -> None:
        self.events: list[Event] = []
        self.limit = limit
        self.overflow = False

    def _add(self, ev: Event) -> None:
        if len(self.events) >= self.limit:
            self.overflow = True
            return
        self.events.append(ev)

    def stream(self) -> list[Event]:
        """The recorded events (refused when some were not recorded)."""
        if self.overflow:
            raise ScheduleError(f"the run made more than {self.limit:,} calls on one core; the timeline "
                                "keeps at most that many (ascsim.engine.timeline.MAX_EVENTS)")
        return self.events

    def instruction(self, call: Any) -> None:
        self._add(instr_of_call(call))

    def set_flag(self, event: str, event_id: object, where: str, origin: str) -> None:
        self._add(SetFlag(event, event_id, where, origin))

    def wait_flag(self, event: str, event_id: object, where: str, origin: str) -> None:
        self._add(WaitFlag(event, event_id, where, origin))

    def barrier(self, pipe: str, where: str) -> None:
        self._add(Barrier(pipe, where))


def instr_of_call(call: Any) -> Instr:
    """An Instr from a checked call (ascsim.engine.sync.PipeCall): its pipe; its path from the memories it
    read and wrote (`fill->DST` with no source); its bytes, the larger of those read and written (the report's
    counts; without a report, the accesses' bytes); a Mmad's
    fractals from its params' m / k / n and A's dtype (the call's report's `src` operand)."""
    reads = [a for a in call.accesses if not a.write]
    writes = [a for a in call.accesses if a.write]
    if call.pipe == "M" or call.name in MMAD_KINDS:
        p = call.params
        rep = getattr(call, "report", None)
        src = getattr(rep, "src", None)
        dtype = getattr(getattr(src, "dtype", None), "name", "")
        m, k, n = (int(getattr(p, f, 0) or 0) for f in ("m", "k", "n"))
        return Instr("M", call.name, "", 0, 0, dtype, call.where, shape=(m, k, n))
    src = reads[0].memory if reads else "fill"
    dst = writes[0].memory if writes else (reads[0].memory if reads else "")
    rep = getattr(call, "report", None)
    if rep is not None and (rep.bytes_written or rep.bytes_read):  # the bytes moved, not the spans' gaps
        nbytes = max(rep.bytes_written, rep.bytes_read)
    else:
        nbytes = max(sum(a.nbytes for a in reads), sum(a.nbytes for a in writes))
    return Instr(call.pipe, call.name, f"{src}->{dst}" if call.pipe != "S" else "", nbytes, 0, "", call.where)
