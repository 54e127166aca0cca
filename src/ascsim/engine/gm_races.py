"""Cross-core GM races: two blocks of a launch touching the same GM bytes, at least one writing, with no
cross-core sync ordering them — what Huawei's msSanitizer racecheck reports between cores.

The server (ascsim.program.server) feeds it, in the order the deterministic scheduler runs the blocks:

- `access(block, accesses, atomic, name, where, pipe, seq)`: the GM bytes of every modelled call and of
  every scalar GetValue / SetValue on a GlobalTensor, with the call's pipe and its number on that pipe in
  the block's in-core checker (ascsim.engine.sync.SyncChecker.instruction);
- `cross_set(block, flag, mode, where, pipe, known)` / `cross_wait(block, flag, mode, where)`: a
  CrossCoreSetFlag on `pipe` releases what of its core is complete when that pipe gets there (`known`, the
  in-core checker's `release_point`: CrossCoreSetFlag(ISASI).md "AIC/AIV在完成本核前置位的pipe流水任务后，
  调用该接口"), plus everything the core itself had received; a CrossCoreWaitFlag "阻塞本核后续指令的下发",
  so everything the core issues after it is ordered after every core's matching set (mode 0: a round
  completes when every cube core has set the flag, as the server schedules it);
- `sync_all(blocks)`: every block reached SyncAll (a PipeBarrier<PIPE_ALL> and a hardware barrier across
  the cores, asc-devkit impl/basic_api/dav_c220/kernel_operator_sync_impl.h SyncAllImpl): everything before
  it is ordered before everything after it, so the history starts over;
- `begin_launch(block_dim)` / `finish()` around each launch (launches on a stream run one after another).

Order is a vector clock per block over (block, pipe) components: access n of pipe P on block b is ordered
before block c's later calls when c has received (b, P) >= n. Two blocks' accesses to overlapping bytes
(the exact runs of `Access`, ascsim.engine.sync), at least one a write, unordered, are a race — unless both
are atomic writes (SetAtomicAdd / Max / Min: the hardware serialises the read-modify-writes, 原子操作/
SetAtomicAdd.md), which accumulate. Reports name both blocks, both calls and both source lines; a repeated
pair of lines is counted, not repeated. Memory is bounded: a block's accesses from one line, pipe and
direction between two of its releases are merged into one entry (their bytes united, capped at MAX_RUNS
runs, at the later call number — a superset, so a race may be reported in a merged gap, never missed), and
entries every other block is ordered after are dropped.
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from dataclasses import dataclass, field

from .sync import Access, SyncError, SyncReport, SyncWarning, access_of, overlap_span, union_runs

#: Entries kept before the ones every other block is ordered after are dropped.
HISTORY_CAP = 2048


class GmRaceWarning(SyncWarning):
    """Two blocks' unordered accesses to the same GM bytes (a cross-core race)."""


class GmRaceError(SyncError):
    """Strict mode: the first cross-core race."""


@dataclass
class GmRaceReport(SyncReport):
    """One cross-core race: kind RAW / WAR / WAW, the message, the two source lines (this call's first),
    the two blocks of the first occurrence (this call's first)."""

    blocks: tuple[int, ...] = ()


@dataclass
class _Entry:
    block: int
    pipe: str
    seq: int
    acc: Access
    atomic: bool  # an atomic write
    name: str
    where: str
    epoch: int  # the block's releases before it (entries of one epoch may merge)


@dataclass
class GmRaceChecker:
    """Cross-core race checking of one program run (see the module docstring)."""

    strict: bool = False
    reports: list[GmRaceReport] = field(default_factory=list)

    def __post_init__(self) -> None:
        self._seen: dict[tuple, GmRaceReport] = {}
        self.begin_launch(0)

    # -- the launch -------------------------------------------------------------------------------------
    def begin_launch(self, block_dim: int) -> None:
        """A new launch of `block_dim` blocks: nothing of an earlier launch can race with it."""
        self.block_dim = block_dim
        self.recv: list[dict[tuple[int, str], int]] = [{} for _ in range(block_dim)]
        self.history: list[_Entry] = []
        self.last: dict[tuple, _Entry] = {}  # (block, pipe, where, name, write, atomic) -> its newest entry
        self.epoch = [0] * block_dim
        self.counts: dict[tuple[int, str], int] = {}  # (block, pipe) -> calls (when the server gives no seq)
        self.sets: dict[int, dict[int, list[dict[tuple[int, str], int]]]] = {}  # flag -> block -> releases
        self.waits: dict[tuple[int, int], int] = {}  # (block, flag) -> waits done

    def finish(self) -> None:
        """The end of the launch."""
        self.history.clear()
        self.last.clear()

    # -- accesses ---------------------------------------------------------------------------------------
    def access(self, block: int, accesses: Sequence[Access], atomic: bool = False, name: str = "",
               where: str = "", pipe: str | None = None, seq: int | None = None) -> None:
        """Block `block`'s call `name` at `where` touched these GM bytes (`atomic`: under SetAtomicAdd /
        Max / Min, which makes its writes atomic). `pipe` / `seq`: the call's pipe and number on it (the
        in-core checker's); without them the call is numbered here and a release covers all of it."""
        pipe = pipe or "?"
        if seq is None:
            seq = self.counts.get((block, pipe), 0) + 1
        self.counts[(block, pipe)] = max(seq, self.counts.get((block, pipe), 0))
        known = self.recv[block]
        for acc in accesses:
            if acc.end <= acc.start:
                continue
            atomic_w = atomic and acc.write
            for e in self.history:
                if e.block == block or not (e.acc.write or acc.write) or (e.atomic and atomic_w):
                    continue
                if e.acc.end <= acc.start or acc.end <= e.acc.start:
                    continue
                if known.get((e.block, e.pipe), 0) >= e.seq:
                    continue
                span = overlap_span(acc, e.acc)
                if span is not None:
                    self._race(block, acc, atomic_w, name, where, e, span)
            self._record(block, pipe, seq, acc, atomic_w, name, where)

    def _record(self, block: int, pipe: str, seq: int, acc: Access, atomic: bool, name: str, where: str
                ) -> None:
        key = (block, pipe, where, name, acc.write, atomic)
        prev = self.last.get(key)
        if prev is not None and prev.epoch == self.epoch[block]:
            prev.acc = access_of(acc.memory, union_runs(prev.acc, acc), acc.write)
            prev.seq = max(prev.seq, seq)
            return
        e = _Entry(block, pipe, seq, acc, atomic, name, where, self.epoch[block])
        self.history.append(e)
        self.last[key] = e
        if len(self.history) > HISTORY_CAP:
            self._prune()

    def _prune(self) -> None:
        """Drop the entries every other block's later calls are ordered after."""
        def ordered(e: _Entry) -> bool:
            return all(self.recv[x].get((e.block, e.pipe), 0) >= e.seq
                       for x in range(self.block_dim) if x != e.block)

        self.history = [e for e in self.history if not ordered(e)]
        alive = {id(e) for e in self.history}
        self.last = {k: e for k, e in self.last.items() if id(e) in alive}

    def _race(self, block: int, acc: Access, atomic: bool, name: str, where: str, e: _Entry,
              span: tuple[int, int]) -> None:
        kind = "RAW" if e.acc.write and not acc.write else "WAR" if acc.write and not e.acc.write else "WAW"
        verb = "writes" if acc.write else "reads"
        past = "written" if e.acc.write else "read"
        lo, hi = span
        msg = (f"{where}: block {block} {name} {verb} GM [{lo}, {hi}) {past} by block {e.block} {e.name} at "
               f"{e.where}, and no cross-core sync (SyncAll, CrossCoreSetFlag / CrossCoreWaitFlag) orders "
               "them")
        if acc.write and e.acc.write and (atomic or e.atomic):
            msg += f" (only block {block if atomic else e.block}'s write is atomic)"
        lines = (where, e.where)
        key = (kind, lines)
        seen = self._seen.get(key)
        if seen is not None:
            seen.count += 1
            return
        rep = GmRaceReport(kind, msg, lines, blocks=(block, e.block))
        self._seen[key] = rep
        self.reports.append(rep)
        if self.strict:
            raise GmRaceError(msg)
        warnings.warn(msg, GmRaceWarning, stacklevel=2)

    # -- cross-core sync --------------------------------------------------------------------------------
    def _release(self, block: int, known: dict[str, int] | None) -> dict[tuple[int, str], int]:
        """What block `block` hands on now: what it received, and its own calls `known` (pipe -> calls
        done; None: all of them)."""
        snap = dict(self.recv[block])
        if known is None:
            own = {p: n for (b, p), n in self.counts.items() if b == block}
        else:
            own = known
        for p, n in own.items():
            if n > snap.get((block, p), 0):
                snap[(block, p)] = n
        self.epoch[block] += 1
        return snap

    def cross_set(self, block: int, flag: int, mode: int = 0, where: str = "", pipe: str | None = None,
                  known: dict[str, int] | None = None) -> None:
        """CrossCoreSetFlag<mode, pipe>(flag) of block `block` (`known`: what its pipe has completed)."""
        self.sets.setdefault(flag, {}).setdefault(block, []).append(self._release(block, known))

    def cross_wait(self, block: int, flag: int, mode: int = 0, where: str = "") -> None:
        """Block `block` goes on past CrossCoreWaitFlag<mode>(flag): its round r is complete, so it is
        ordered after every block's r-th CrossCoreSetFlag of the flag."""
        r = self.waits.get((block, flag), 0)
        self.waits[(block, flag)] = r + 1
        recv = self.recv[block]
        for releases in self.sets.get(flag, {}).values():
            if len(releases) > r:
                for k, n in releases[r].items():
                    if n > recv.get(k, 0):
                        recv[k] = n
        if len(self.history) > HISTORY_CAP // 2:
            self._prune()

    def sync_all(self, blocks: Sequence[int]) -> None:
        """Every block reached SyncAll: whatever came before is ordered before whatever comes after."""
        for b in blocks:
            if 0 <= b < self.block_dim:
                self.epoch[b] += 1
        self.history.clear()
        self.last.clear()
