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
pair of lines is counted, not repeated. The history is kept per 4 KB page of GM (an access is split at page
boundaries, so a check looks only at the entries of the pages it touches); memory is bounded: past
`PAGE_CAP` entries on a page, the entries every other block is ordered after are dropped and the rest merged
per (block, pipe, line, direction) — their bytes united, at the later call number (a superset: a race may then
be reported where a block's two calls were ordered differently, never missed).
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from dataclasses import dataclass, field

from .sync import Access, Runs, SyncError, SyncReport, SyncWarning, coalesce

#: GM bytes per page of the history (2**PAGE_BITS) and the entries a page keeps before it is compacted.
PAGE_BITS = 12
PAGE_CAP = 128


class GmRaceWarning(SyncWarning):
    """Two blocks' unordered accesses to the same GM bytes (a cross-core race)."""


class GmRaceError(SyncError):
    """Strict mode: the first cross-core race."""


@dataclass
class GmRaceReport(SyncReport):
    """One cross-core race: kind RAW / WAR / WAW, the message, the two source lines (this call's first),
    the two blocks of the first occurrence (this call's first)."""

    blocks: tuple[int, ...] = ()


class _Entry:
    """One access's bytes on one page: sorted absolute runs (`lo` / `hi` their bounds)."""

    __slots__ = ("block", "pipe", "seq", "runs", "lo", "hi", "write", "atomic", "name", "where")

    def __init__(self, block: int, pipe: str, seq: int, runs: Runs, write: bool, atomic: bool, name: str,
                 where: str) -> None:
        self.block, self.pipe, self.seq, self.runs = block, pipe, seq, runs
        self.lo, self.hi, self.write = runs[0][0], runs[-1][1], write
        self.atomic, self.name, self.where = atomic, name, where  # atomic: an atomic write


def split_pages(acc: Access) -> dict[int, Runs]:
    """The access's absolute byte runs, cut at the page boundaries: page -> its runs there."""
    first = acc.start >> PAGE_BITS
    if (acc.end - 1) >> PAGE_BITS == first:
        return {first: tuple(acc.spans())}
    pieces: dict[int, list[tuple[int, int]]] = {}
    for lo, hi in acc.spans():
        while lo < hi:
            page = lo >> PAGE_BITS
            end = min(hi, (page + 1) << PAGE_BITS)
            pieces.setdefault(page, []).append((lo, end))
            lo = end
    return {page: tuple(runs) for page, runs in pieces.items()}


def shared(ra: Runs, rb: Runs) -> tuple[int, int] | None:
    """The span of the bytes two sorted absolute run lists share (first shared byte, one past the last)."""
    i = j = 0
    na, nb = len(ra), len(rb)
    first = last = -1
    while i < na and j < nb:
        alo, ahi = ra[i]
        blo, bhi = rb[j]
        if ahi <= blo:
            i += 1
            continue
        if bhi <= alo:
            j += 1
            continue
        if first < 0:
            first = alo if alo > blo else blo
        last = ahi if ahi < bhi else bhi
        if ahi <= bhi:
            i += 1
        else:
            j += 1
    return None if first < 0 else (first, last)


def _union(entries: Sequence[_Entry]) -> Runs:
    spans = sorted(r for e in entries for r in e.runs)
    out: list[tuple[int, int]] = []
    for lo, hi in spans:
        if out and lo <= out[-1][1]:
            out[-1] = (out[-1][0], max(out[-1][1], hi))
        else:
            out.append((lo, hi))
    return tuple(coalesce(out))


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
        # page -> (its written entries, its read entries): a read is checked against writes only
        self.pages: dict[int, tuple[list[_Entry], list[_Entry]]] = {}
        self.counts: dict[tuple[int, str], int] = {}  # (block, pipe) -> calls (when the server gives no seq)
        self.sets: dict[int, dict[int, list[dict[tuple[int, str], int]]]] = {}  # flag -> block -> releases
        self.waits: dict[tuple[int, int], int] = {}  # (block, flag) -> waits done

    def finish(self) -> None:
        """The end of the launch."""
        self.pages.clear()

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
        hits: dict[tuple, list] = {}  # (kind, lines) -> [entry, lo, hi, write, atomic]: one report per call
        for acc in accesses:
            if acc.end <= acc.start:
                continue
            write = acc.write
            atomic_w = atomic and write
            for page, runs in split_pages(acc).items():
                lists = self.pages.get(page)
                if lists is None:
                    lists = self.pages[page] = ([], [])
                lo, hi = runs[0][0], runs[-1][1]
                for e in (lists[0] + lists[1]) if write else lists[0]:
                    if e.hi <= lo or hi <= e.lo or e.block == block or (e.atomic and atomic_w):
                        continue
                    if known.get((e.block, e.pipe), 0) >= e.seq:
                        continue
                    if len(runs) == 1 == len(e.runs):
                        span: tuple[int, int] | None = (max(lo, e.lo), min(hi, e.hi))
                    else:
                        span = shared(runs, e.runs)
                    if span is None:
                        continue
                    kind = "RAW" if e.write and not write else "WAR" if write and not e.write else "WAW"
                    hit = hits.get((kind, (where, e.where)))
                    if hit is None:
                        hits[(kind, (where, e.where))] = [e, span[0], span[1], write, atomic_w]
                    else:
                        hit[1], hit[2] = min(hit[1], span[0]), max(hit[2], span[1])
                mine = lists[0] if write else lists[1]
                mine.append(_Entry(block, pipe, seq, runs, write, atomic_w, name, where))
                if len(mine) > PAGE_CAP:
                    self._compact(mine)
        for (kind, lines), (e, lo, hi, write, atomic_w) in hits.items():
            self._race(kind, lines, block, name, write, atomic_w, e, lo, hi)

    def _ordered(self, e: _Entry) -> bool:
        """Is every other block's next call ordered after entry `e`?"""
        key = (e.block, e.pipe)
        return all(self.recv[x].get(key, 0) >= e.seq for x in range(self.block_dim) if x != e.block)

    def _compact(self, entries: list[_Entry]) -> None:
        """Drop a page list's entries every other block is ordered after; past PAGE_CAP / 2, merge the rest
        per (block, pipe, line, call, direction, atomic) at the latest call number (in place)."""
        entries[:] = [e for e in entries if not self._ordered(e)]
        if len(entries) > PAGE_CAP // 2:
            groups: dict[tuple, list[_Entry]] = {}
            for e in entries:
                groups.setdefault((e.block, e.pipe, e.where, e.name, e.write, e.atomic), []).append(e)
            entries[:] = [es[0] if len(es) == 1 else
                          _Entry(blk, pipe, max(e.seq for e in es), _union(es), write, atomic, name, where)
                          for (blk, pipe, where, name, write, atomic), es in groups.items()]

    def _race(self, kind: str, lines: tuple[str, str], block: int, name: str, write: bool, atomic: bool,
              e: _Entry, lo: int, hi: int) -> None:
        where = lines[0]
        verb = "writes" if write else "reads"
        past = "written" if e.write else "read"
        msg = (f"{where}: block {block} {name} {verb} GM [{lo}, {hi}) {past} by block {e.block} {e.name} at "
               f"{e.where}, and no cross-core sync (SyncAll, CrossCoreSetFlag / CrossCoreWaitFlag) orders "
               "them")
        if write and e.write and (atomic or e.atomic):
            msg += f" (only block {block if atomic else e.block}'s write is atomic)"
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
        own = {p: n for (b, p), n in self.counts.items() if b == block} if known is None else known
        for p, n in own.items():
            if n > snap.get((block, p), 0):
                snap[(block, p)] = n
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

    def sync_all(self, blocks: Sequence[int]) -> None:
        """Every block reached SyncAll: whatever came before is ordered before whatever comes after."""
        self.pages.clear()
