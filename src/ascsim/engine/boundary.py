"""The call boundary every instruction passes through (docs/architecture.md "The call boundary").

    key -> prepared call (cached) -> placement (cached per core) -> execute -> record

* The **key** is a flat tuple of plain values: the family, the chip, the operands' memories and dtypes,
  the params struct's `key()` (cached on the struct; floats by bit pattern) and only the register state
  the call reads.
* A **PreparedCall** call is what one key compiles to, independent of addresses: the validated values
  (`spec`), the pad pattern, the register writes, the warnings repeated on every call, the divergence
  notes, a lower bound of the destination bytes written (checked against the memory before any plan is
  built, so an absurd call is refused in microseconds), and — built lazily on the first execution —
  the executable `UnitPlan`. A PreparedCall enters `CALLS` only after its validation returned, so a rejected
  call leaves nothing behind; `CALLS` is capped by bytes.
* A **placement** binds a PreparedCall to concrete tensors: alignment, exact bounds, hazards, the memory
  views and absolute gather indices. Placements are cached per core (kernels reuse a few buffers), so
  a warm call is a dict lookup and one `take`.
* The **record** (`ExecReport`) keeps counts, hazards, notes, the byte ranges read and written, and a
  planner that rebuilds the element-level plan on demand — never the plan itself unless
  `Core(keep_plans=True)`.

Families supply `prepare` (validation; raises AscsimError) and a units builder (gather families,
`run_gather`) or an executor (`run_call`: transposes, conversions, fills, two-destination loads);
everything after the cache lookup is written once, here. A second destination the hardware addresses from
an operand's address (the sparse index buffer at L0B / 4, the MX scales at L0A / 16, the Fixpipe Buffer a
Fixpipe stages its quant vector into) is one more operand the family passes in `ops`, with its own
extents: its bounds, hazards and byte ranges are checked and recorded like any other.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from typing import Any, NamedTuple

import numpy as np

from ..base.diagnostics import doc_conflict, report_hazards
from ..base.errors import AlignmentError, BoundsError, cpp_rejects
from ..machine.memory import SPARE, LocalTensor, Memory
from .cache import BoundedCache
from .plan import VOID_UNITS, Plan, UnitPlan, check_units, pad_unit, run_units
from .record import ExecReport, Operand

#: The C++ API's alignment check (the basis of a placement's AlignmentError; see
# ascsim.machine.checks.ALIGNMENT).
ALIGNMENT = cpp_rejects("CheckTensorAlignment")

#: PreparedCall calls of every family (one cache, capped by the bytes its plans hold).
CALLS = BoundedCache(64 << 20)

_CALLS = CALLS._d  # the hot path looks up the dict itself

#: What one cached call holds besides its unit plan, as measured with tracemalloc (the PreparedCall, its key,
#: spec, partials and extents): ~2 KB for a gather family, ~3 KB for a run_call family.
GATHER_BYTES, RUN_CALL_BYTES = 2048, 3072

#: Placements kept per core before the core's placement cache starts over (each holds gather indices).
PLACEMENTS_PER_CORE = 512


class PreparedCall:
    """One validated call shape (see the module docstring). Offset-independent and shared."""

    __slots__ = ("instr", "spec", "pad", "commit", "warnings", "notes", "planner", "_units_fn", "_units",
                 "min_dst", "wrap", "aligns", "hint", "nbytes", "extents", "run", "counts", "hazards_at",
                 "__weakref__")

    def __init__(self, instr: str, spec: Any = None, *, units: Callable[[], UnitPlan] | None = None,
                 planner: Callable[[], Plan] | None = None, pad: int = 0,
                 commit: Callable[[Any], None] | None = None, warnings: Sequence[Callable[[Any], Any]] = (),
                 notes: Sequence[str] = (), min_dst: int = 0, wrap: int = 0,
                 aligns: Sequence[tuple[int, int, str]] = (),
                 hint: Callable[[LocalTensor], str] | None = None,
                 extents: Sequence[Extent] = (), run: Callable[..., Any] | None = None,
                 counts: tuple[int, int, int] = (0, 0, 0),
                 hazards_at: Callable[[Sequence[LocalTensor | None]], list[str]] | None = None) -> None:
        self.instr = instr
        self.spec = spec
        self._units_fn = units
        self._units: UnitPlan | None = None
        self.planner = planner
        self.pad = pad
        self.commit = commit  # register writes of the call, applied after a successful execution
        self.warnings = tuple(warnings)  # callables(core) re-run on every call (they warn / raise)
        self.notes = tuple(notes)
        self.min_dst = min_dst  # bytes the call certainly writes from the dst start (extent-first check)
        self.wrap = wrap  # bytes per unit of the L1 boundary register this call honours (0 = none)
        # (operand index, alignment in bytes, what[, basis]) checked per placement (basis: ALIGNMENT unless
        # given, e.g. a doc-only alignment rule); a `run_call` family may give (doc rule, divergence row)
        # instead of a basis: a misalignment the doc page forbids but the C++ API executes, reported with a
        # DocConflictWarning instead of refused
        self.aligns = tuple(aligns)
        self.hint = hint  # dst -> text appended to a destination BoundsError (how to make it fit)
        # Non-gather families (`run_call`): the byte extents each operand is read / written over, computed
        # arithmetically from the validated values; the executor; (bytes written, bytes read, pad elements)
        self.extents = tuple(extents)
        self.run = run
        self.counts = counts
        # hazards that depend on where the operands lie (run_call: checked once per placement)
        self.hazards_at = hazards_at
        self.nbytes = RUN_CALL_BYTES if run is not None else GATHER_BYTES

    @property
    def nop(self) -> bool:
        return self._units_fn is None

    def units(self) -> UnitPlan:
        up = self._units
        if up is None:
            up = self._units = self._units_fn()  # type: ignore[misc]
            held = up.nbytes + 2 * up.src_units.nbytes  # + the absolute-index arrays it may cache
            self.nbytes += held
            CALLS.charge(held)
        return up


class Extent(NamedTuple):
    """Bytes [start, end) relative to operand `arg`'s start that a call reads or writes (`what` names the
    operand in messages: "A (L0A)", "destination", ...)."""

    arg: int
    start: int
    end: int
    write: bool
    what: str


class Placement:
    """A PreparedCall call bound to concrete tensors: everything checked, the gather ready to run."""

    __slots__ = ("hazards", "dview", "full", "idx", "dst_units", "mem", "pad_key", "pad_block", "reads",
                 "writes", "written", "read", "n_pad", "slow", "notes", "dst_op", "src_op", "dst_abs", "unit",
                 "dmem", "dst_start", "src_base", "uses", "grid")

    def gather(self, out: np.ndarray) -> None:
        """Units `idx` of the source into `out` (dense, another memory): one `take`, or — for a grid
        candidate (`uses` >= 0), from the second run of this placement on, when the indices are an affine
        grid (`affine_grid`) — one strided copy of the same units (an in-fractal transpose moves 2-byte
        units: a copy is ~2x faster than a take that reads an 8-byte index per element)."""
        if self.uses >= 0:
            self.uses += 1
            if self.uses == 2:
                self.grid = affine_grid(self.idx)
            g = self.grid
            if g is not None:
                first, shape, steps = g
                u = self.unit
                code = _CODES.get(u) or self.full.dtype
                np.copyto(out.view(code).reshape(shape),
                          np.ndarray(shape, code, self.full, first * u, tuple(st * u for st in steps)))
                return
        self.full.take(self.idx, out=out, mode="wrap")  # (PAD -1 wraps to the pad block)


#: Units a gather must move before a strided copy is tried for it (`Placement.gather`).
GRID_MIN_UNITS = 2048

_CODES = {1: np.dtype(np.uint8), 2: np.dtype("<u2"), 4: np.dtype("<u4"), 8: np.dtype("<u8")}


def affine_grid(idx: np.ndarray, max_dims: int = 8) -> tuple[int, tuple[int, ...], tuple[int, ...]] | None:
    """(first, shape, steps) with idx == first + sum(i_d * steps[d]) over the C-order multi-index of
    `shape` — the gather is then a strided view — or None. Checked element for element at every level, so
    a None only costs the `take` it would have been."""
    if idx.size < 2:
        return None
    dims: list[tuple[int, int]] = []  # innermost first
    cur = idx
    while cur.size > 1:
        if len(dims) == max_dims:
            return None
        d = np.diff(cur)
        off = np.flatnonzero(d != d[0])
        run = cur.size if off.size == 0 else int(off[0]) + 1
        if cur.size % run:
            return None
        rows = cur.reshape(-1, run)
        step = int(d[0])
        if rows.shape[0] > 1 and not (rows - rows[:, :1] == np.arange(run) * step).all():
            return None
        dims.append((run, step))
        cur = rows[:, 0]
    dims.reverse()
    return int(idx[0]), tuple(r for r, _ in dims), tuple(st for _, st in dims)


def _align_error(prep: PreparedCall, t: LocalTensor, align: int, what: str, basis: str = ALIGNMENT
                 ) -> AlignmentError:
    return AlignmentError(
        f"{prep.instr}: {what} address must be {align}-byte aligned in {t.memory.name}, but got "
        f"0x{t.offset:x} ({t.offset} B, {t.offset % align} past a boundary)", basis=basis)


def place(core, prep: PreparedCall, dst: LocalTensor, src: LocalTensor | None, boundary: int) -> Placement:
    """Check the prepared call at these tensors' addresses (alignment, extent-first bounds, exact bounds,
    hazards) and get the gather ready. Raises before anything is written."""
    ops = (dst, src)
    for i, align, what, *basis in prep.aligns:
        t = ops[i]
        if t is not None and t.offset % align:
            raise _align_error(prep, t, align, what, *basis)
    hint = "" if prep.hint is None else prep.hint(dst)
    try:  # before any plan is built (bounded work); a memory may narrow the range (allocated GM)
        dst.memory.check_range(dst.offset, prep.min_dst, f"{prep.instr}: destination")
    except BoundsError as e:
        raise BoundsError(f"{e}{hint}") from None
    up = prep.units()
    try:
        hazards = check_units(up, dst, src, False, boundary, report=False)  # hazards: reported per call
    except BoundsError as e:
        raise BoundsError(f"{e}{hint}") from None
    pl = Placement()
    pl.dst_op, pl.src_op = Operand.of(dst), Operand.of(src)
    pl.notes = list(prep.notes)
    if boundary and prep.wrap and src is not None and src.offset + up.src_end > boundary:
        pl.notes.append("L18")  # reads wrap at the L1 boundary (SetLoadDataBoundary)
    pl.hazards = hazards
    pl.n_pad = up.n_pad
    pl.written = (up.n_units * (up.unit * 8 or 4) + 7) // 8
    pl.read = pl.written - up.n_pad * up.bits // 8
    pl.writes = ((dst.memory.name, dst.offset, dst.offset + up.dst_end),)
    pl.reads = ((src.memory.name, src.offset, src.offset + up.src_end),) if src is not None and up.src_end \
        else ()
    pl.slow = True
    u = up.unit
    if u and src is not None:
        mem = src.memory
        pad_block = pad_unit(u, up.bits, prep.pad)
        pad_key = (u, up.bits, prep.pad)
        if not boundary and src.offset % u == 0:
            # the plan's own relative indices, taken from a view that starts at the source: PAD (-1)
            # wraps (mode="wrap") to the view's last unit, which is the pad block parked at the very end
            # of the buffer (Memory.pad_index) — no per-offset index array to build or keep
            base, idx = src.offset // u, up.src_units
        else:  # reads wrap at the L1 boundary: absolute indices, modulo the boundary
            base, idx = 0, up.absolute(src.offset, boundary, (len(mem._buf) - SPARE) // u)
        if idx is not None:
            pl.slow = False
            pl.mem, pl.idx, pl.src_base, pl.grid = mem, idx, base, None
            # a strided copy beats `take` only for many small units (measured: 2-byte units from ~2,000 on;
            # 32-byte units never), and never with pads (they index -1) or within one memory
            grid = u <= 8 and idx.size >= GRID_MIN_UNITS and not up.n_pad and dst.memory is not mem
            pl.uses = 0 if grid else -1
            pl.pad_key, pl.pad_block = (pad_key if up.n_pad else None), pad_block
            pl.full = mem.units(u)[base:]
            pl.dview = dst.memory.data[dst.offset : dst.offset + up.dst_end].view(VOID_UNITS[u])
            pl.unit, pl.dmem = u, dst.memory
            # the in-place `take` may not alias its input: same-memory moves scatter instead
            pl.dst_units = None if up.dense and dst.memory is not mem else up.dst_units
            # for batched execution, when the destination starts on the unit grid: the first destination
            # unit in the whole memory (one `take` writes a dense run), else every unit's index (a scatter)
            pl.dst_start = None if dst.offset % u else dst.offset // u
            pl.dst_abs = None if pl.dst_start is None or pl.dst_units is None else pl.dst_units + pl.dst_start
    return pl


def run_gather(core, prep: PreparedCall, dst: LocalTensor, src: LocalTensor | None, boundary: int = 0
               ) -> ExecReport:
    """The warm path of every gather-type instruction: placement lookup, warnings, one gather, record."""
    hz = None
    if prep.warnings:
        hz = [m for w in prep.warnings for m in w(core)] or None
    if prep._units_fn is None:  # a documented NOP (the call's register writes still happen)
        if prep.commit is not None:
            prep.commit(core)
        return ExecReport(prep.instr, hazards=hz, notes=list(prep.notes))
    if boundary and src is not None and boundary > src.memory.size:
        # past the memory's end (a v1 register counts 32-B units): no in-bounds read reaches it, and a
        # read past the end is a bounds error, not a wrap (issue 9: it used to crash with IndexError)
        boundary = 0
    if src is None:
        key = (prep, dst.memory, dst.offset, dst.length, dst.position, boundary)
    else:
        key = (prep, dst.memory, dst.offset, dst.length, dst.position, src.memory, src.offset, src.length,
               src.position, boundary)
    cache = core.placements
    pl = cache.get(key)
    if pl is None:
        pl = place(core, prep, dst, src, boundary)
        if len(cache) >= PLACEMENTS_PER_CORE:
            cache.clear()
        cache[key] = pl
    if pl.hazards:
        report_hazards(pl.hazards, core.strict)  # strict: raises here, before any byte is written
        hz = pl.hazards + hz if hz else list(pl.hazards)
    batch = core.batch
    if batch is not None and not pl.slow and pl.dst_start is not None and pl.idx.size <= BATCH_MAX_UNITS:
        batch.add(pl)  # executed at the batch's flush, in program order (see Batch)
    elif pl.slow:
        if batch is not None:
            batch.flush()
        run_units(prep._units, dst, src, prep.pad, boundary)  # type: ignore[arg-type]
    else:
        if batch is not None:
            batch.flush()
        mem = pl.mem
        if pl.pad_key is not None and mem._pad_key is not pl.pad_key:
            mem.pad_index(pl.pad_block.size, pl.pad_block, pl.pad_key)
        if pl.dst_units is None:
            if pl.uses < 0:  # `Placement.gather`'s take, inline: the per-call hot path
                pl.full.take(pl.idx, out=pl.dview, mode="wrap")  # (indices in range: checked extents)
            else:
                pl.gather(pl.dview)
        else:
            pl.dview.put(pl.dst_units, pl.full.take(pl.idx, mode="wrap"))  # put: ~3x faster than setitem
    if prep.commit is not None:
        prep.commit(core)
    # positional: keyword parsing would cost more than the rest of the record (the per-call hot path)
    notes = list(pl.notes) if pl.notes else None
    report = ExecReport(prep.instr, pl.written, pl.read, pl.n_pad, hz, None, notes, pl.reads, pl.writes,
                        prep.planner, pl.dst_op, pl.src_op, prep.pad, boundary)
    if core.keep_plans:
        report.keep_plan()
    return report


class Batch:
    """Gathers queued by `Core.run` and executed together: consecutive queued calls that share (source
    memory, destination memory, unit, pad block) and whose destinations follow each other (a loop filling
    a tile fractal by fractal) become ONE `take` over their concatenated source indices.

    Program order is kept: a queued call's reads happen before later calls' writes, which is right for
    every pair except a later call reading what an earlier queued call wrote (read-after-write) — such a
    call first flushes the queue. Later writes to the same bytes still win (runs execute in order).
    Only small gathers queue (`BATCH_MAX_UNITS`): what batching saves is `take`'s fixed cost per call
    (~0.9 µs), which a large gather's own time dwarfs while concatenating its indices costs more.
    """

    __slots__ = ("items",)

    def __init__(self) -> None:
        # every queued call shares the last one's source and destination memories (`add` flushes first
        # otherwise), so a call can read what the queue wrote only when it moves within one memory
        self.items: list[Placement] = []

    def add(self, pl: Placement) -> None:
        items = self.items
        if items:
            last = items[-1]
            if (len(items) >= BATCH_MAX_CALLS or last.mem is not pl.mem or last.dmem is not pl.dmem
                    or last.unit != pl.unit or last.pad_key != pl.pad_key or last.src_base != pl.src_base
                    or (pl.mem is pl.dmem and self._reads_queued(pl))):
                self.flush()
        self.items.append(pl)

    def _reads_queued(self, pl: Placement) -> bool:
        """Does `pl` read bytes a queued call writes (read-after-write within one memory)?"""
        reads = [(a, b) for _, a, b in pl.reads]
        return any(a < rb and ra < b for q in self.items for _, a, b in q.writes for ra, rb in reads)

    def flush(self) -> None:
        items = self.items
        if not items:
            return
        self.items = []
        first = items[0]
        mem, u = first.mem, first.unit
        if first.pad_key is not None and mem._pad_key is not first.pad_key:
            mem.pad_index(first.pad_block.size, first.pad_block, first.pad_key)
        full, dfull = mem.units(u)[first.src_base :], first.dmem.units(u)
        i, n = 0, len(items)
        while i < n:  # maximal runs of calls whose destinations follow each other: one take each
            p = items[i]
            if p.dst_units is not None:  # a destination with gaps: scatter (put keeps program order)
                dfull.put(p.dst_abs, full.take(p.idx, mode="wrap"))
                i += 1
                continue
            j, end = i + 1, p.dst_start + p.idx.size
            while j < n:
                q = items[j]
                if q.dst_units is not None or q.dst_start != end:
                    break
                end += q.idx.size
                j += 1
            if j == i + 1:
                p.gather(dfull[p.dst_start : end])
            else:
                full.take(np.concatenate([q.idx for q in items[i:j]]), out=dfull[p.dst_start : end],
                          mode="wrap")
            i = j


#: The largest gather (in units) `Core.run` queues, and the most calls one queue holds (bounding the
#: read-after-write scan and the concatenated index array).
BATCH_MAX_UNITS = 512
BATCH_MAX_CALLS = 256


class CallPlacement:
    """A non-gather PreparedCall call bound to concrete operands: checked extents, hazards, byte ranges."""

    __slots__ = ("hazards", "reads", "writes", "ops", "conflicts")


def _check_aligns(prep: PreparedCall, ops: Sequence[LocalTensor | None]) -> list[tuple[str, str]]:
    """Raise on the first misaligned operand; return the doc conflicts (rule, row) of the soft ones.

    An entry is (operand, alignment, what[, basis]): a basis string replaces the default one of the
    refusal; a (doc rule, row) pair makes it a DocConflictWarning (the C++ API executes it)."""
    conflicts: list[tuple[str, str]] = []
    for a in prep.aligns:
        t = ops[a[0]]
        if t is not None and t.offset % a[1]:
            if len(a) < 4 or isinstance(a[3], str):
                raise _align_error(prep, t, a[1], a[2], *a[3:])
            rule, row = a[3]
            conflicts.append((f"{rule}; the {a[2]} address is 0x{t.offset:x}", row))
    return conflicts


def place_call(prep: PreparedCall, ops: Sequence[LocalTensor | None]) -> CallPlacement:
    """Alignment, bounds and hazards of every extent of `prep` at these operands, in the order the extents
    are listed (a second destination the hardware addresses from another operand — the sparse index
    buffer, the MX scales, the Fixpipe Buffer — is one more operand the family passes). Raises before any
    write."""
    conflicts = _check_aligns(prep, ops)
    hazards: list[str] = []
    reads, writes = [], []
    for e in prep.extents:
        t = ops[e.arg]
        if t is None or e.end <= e.start:
            continue
        a, b = t.offset + e.start, t.offset + e.end
        t.memory.check_range(a, b - a, f"{prep.instr}: {e.what}", write=e.write)  # allocated GM may narrow it
        if e.end > t.nbytes or e.start < 0:
            verb = "writes" if e.write else "reads"
            at = f"{t.position}@0x{t.offset:x}"
            if e.what in ("destination", "source"):  # the words of plan.check_plan (message starts pinned)
                tail = "; the chip does this, the tensor does not cover it" if e.write else ""
                hazards.append(f"{prep.instr}: {verb} {e.end} B from {at}, past the {e.what} LocalTensor "
                               f"({t.nbytes} B){tail}")
            else:
                hazards.append(f"{prep.instr}: {verb} {e.end} B of {e.what} from {at}, past the LocalTensor "
                               f"({t.nbytes} B)")
        (writes if e.write else reads).append((t.memory.name, a, b))
    if prep.hazards_at is not None:
        hazards += prep.hazards_at(ops)
    pl = CallPlacement()
    pl.hazards, pl.reads, pl.writes, pl.conflicts = hazards, tuple(reads), tuple(writes), conflicts
    pl.ops = (Operand.of(ops[0]) if ops else None, Operand.of(ops[1]) if len(ops) > 1 else None)
    return pl


def run_call(core, prep: PreparedCall, ops: Sequence[LocalTensor | None]) -> ExecReport:
    """The warm path of every non-gather instruction (Fixpipe with conversions, transposes, fills, block
    copies, two-destination loads): placement lookup, warnings, hazards, the family's executor, record.

    `prep.run(core, ops)` executes (every check of the placement already done) and may return (bytes
    written, bytes read, pad elements[, hazards found while executing]) to override `prep.counts`; it must
    raise, if at all, before it writes."""
    hz = None
    if prep.warnings:
        hz = [m for w in prep.warnings for m in w(core)] or None
    notes = list(prep.notes) if prep.notes else None
    if prep.run is None:  # a documented NOP: alignment is still the C++ API's, the register writes happen
        conflicts = _check_aligns(prep, ops) if prep.aligns else ()
        if conflicts:
            hz = [doc_conflict(prep.instr, rule, row, core.strict) for rule, row in conflicts] + (hz or [])
            notes = (notes or []) + [row for _, row in conflicts]
        if prep.commit is not None:
            prep.commit(core)
        return ExecReport(prep.instr, hazards=hz, notes=notes)
    key = (prep, *[None if t is None else (t.memory, t.offset, t.length, t.position) for t in ops])
    cache = core.placements
    pl = cache.get(key)
    if pl is None:
        pl = place_call(prep, ops)
        if len(cache) >= PLACEMENTS_PER_CORE:
            cache.clear()
        cache[key] = pl
    if pl.conflicts:  # strict: DocConflictError here, before any byte is written
        hz = [doc_conflict(prep.instr, rule, row, core.strict) for rule, row in pl.conflicts] + (hz or [])
        notes = (notes or []) + [row for _, row in pl.conflicts]
    if pl.hazards:
        report_hazards(pl.hazards, core.strict)  # strict: raises here, before any byte is written
        hz = pl.hazards + hz if hz else list(pl.hazards)
    counts = prep.run(core, ops) or prep.counts
    if len(counts) > 3 and counts[3]:
        hz = (hz or []) + list(counts[3])
    if prep.commit is not None:
        prep.commit(core)
    report = ExecReport(prep.instr, counts[0], counts[1], counts[2], hz, None, notes, reads=pl.reads,
                        writes=pl.writes, planner=prep.planner, dst=pl.ops[0], src=pl.ops[1],
                        pad_pattern=prep.pad)
    if core.keep_plans:
        report.keep_plan()
    return report


def strided(mem: Memory, offset: int, shape: tuple[int, ...], strides: tuple[int, ...],
            dtype: Any = np.uint8) -> np.ndarray:
    """A writable view of `mem`'s bytes from byte `offset` with `shape` and byte `strides` (extents are
    checked before, so no check here; overlapping rows are allowed for reads)."""
    return np.ndarray(shape, dtype, buffer=mem._buf, offset=offset, strides=strides)


def copy_blocks(dst: Memory, d_off: int, d_pitch: int, src: Memory, s_off: int, s_pitch: int, count: int,
                block: int) -> None:
    """Block b (b < count) of `block` bytes from src byte s_off + b*s_pitch to dst byte d_off + b*d_pitch,
    in program order: where destination blocks overlap the later block wins. No plan: strided views."""
    if count <= 0 or block <= 0:
        return
    if count == 1 or (d_pitch == block and s_pitch == block):
        n = count * block
        dst._buf[d_off : d_off + n] = src._buf[s_off : s_off + n]
    elif d_pitch >= block:  # destination blocks apart: one strided copy
        np.copyto(strided(dst, d_off, (count, block), (d_pitch, 1)),
                  strided(src, s_off, (count, block), (s_pitch, 1)))
    elif d_pitch == 0:  # every block lands on the first: the last one stays
        last = s_off + (count - 1) * s_pitch
        dst._buf[d_off : d_off + block] = src._buf[last : last + block]
    else:  # overlapping destination blocks: one at a time, in order
        for b in range(count):
            s, d = s_off + b * s_pitch, d_off + b * d_pitch
            dst._buf[d : d + block] = src._buf[s : s + block]


def cached(key: Hashable | None) -> PreparedCall | None:
    """The prepared call for `key` if cached (None for a miss, no key, or an unhashable key)."""
    if key is None:
        return None
    try:
        return _CALLS.get(key)  # type: ignore[return-value]
    except TypeError:
        return None


def lookup(key: Hashable | None, prepare: Callable[[], PreparedCall]) -> PreparedCall:
    """The prepared call for `key`, validated and added on a miss (a failing `prepare` adds nothing).

    `key` None, or a key holding an unhashable value (a list where an int goes, ...), means "no key can
    represent this call": it is validated uncached, and validation names the bad value."""
    if key is None:
        return prepare()
    try:
        prep = _CALLS.get(key)
    except TypeError:
        return prepare()
    if prep is None:
        prep = CALLS.add(key, prepare())
    return prep  # type: ignore[return-value]


def float_key(v: float) -> bytes:
    """A float keyed by its bits (so -0.0 and 0.0, and NaN payloads, stay apart)."""
    return np.float64(v).tobytes()


__all__ = ["CALLS", "Extent", "PreparedCall", "Placement", "place", "place_call", "run_call", "run_gather",
           "lookup", "cached", "float_key", "strided", "copy_blocks", "Memory"]


def execute(plan: Plan | UnitPlan, dst: LocalTensor, src: LocalTensor | None, pad_pattern: int = 0,
            strict: bool = False, boundary: int = 0) -> ExecReport:
    """Check a plan's bounds and hazards, then run it (`run_units`); returns the record.

    `boundary` (bytes, 0 = off) wraps source reads past it back to the start of the memory
    (SetLoadDataBoundary on A2/A3).
    """
    up = plan.units if isinstance(plan, Plan) else plan
    hazards = check_units(up, dst, src, strict, boundary)
    run_units(up, dst, src, pad_pattern, boundary)
    written = (up.n_units * (up.unit * 8 or 4) + 7) // 8
    pad_bytes = up.n_pad * up.bits // 8
    return ExecReport(up.instr, written, written - pad_bytes, up.n_pad, hazards,
                      plan if isinstance(plan, Plan) else None).on(dst, src, pad_pattern, boundary)
