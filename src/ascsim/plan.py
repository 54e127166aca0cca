"""Access plans: what every data-movement instruction compiles to, and the one executor that runs them.

A plan lists, for each destination element the instruction writes, the source element it reads or
"pad". Offsets are in elements of the instruction's dtype, relative to the dst / src tensor starts,
in program order. `Plan.build` coarsens the element lists into the largest byte units (32 B C0 blocks
when the layout allows) so execution is two vectorised gathers over byte memory. Bounds and hazard
checks run on the plan's extents before any byte is written, so a failing instruction leaves memory
untouched.
"""

from __future__ import annotations

import sys
import warnings
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from typing import TypeVar

import numpy as np

from .dtypes import pack_nibbles, unpack_nibbles
from .errors import AscsimError, BoundsError, DocConflictError, DocConflictWarning, HazardError, HazardWarning
from .memory import LocalTensor

PAD = -1
_UNITS = (32, 16, 8, 4, 2, 1)
_T = TypeVar("_T")


def frozen_offsets(a: np.ndarray) -> np.ndarray:
    """A contiguous, read-only int64 copy of an offset array (safe to share from a cache)."""
    a = np.ascontiguousarray(a, dtype=np.int64)
    a.flags.writeable = False
    return a


@dataclass(frozen=True, eq=False)
class Plan:
    """A frozen access plan. `dst`/`src` are element offsets (src PAD = -1) in program order."""

    instr: str
    bits: int
    dst: np.ndarray
    src: np.ndarray
    unit: int  # bytes per moved unit; 0 = nibble-granular (4-bit data that does not pair up)
    dst_units: np.ndarray  # unit indices written from the source
    src_units: np.ndarray  # unit indices read, parallel to dst_units
    pad_units: np.ndarray  # unit indices written with the pad pattern
    dst_end: int  # bytes: one past the last destination byte written (relative to dst start)
    src_end: int  # bytes: one past the last source byte read (relative to src start)
    info: dict = field(default_factory=dict)
    # When the written units tile [0, n) exactly, one np.take(out=...) does the whole move:
    # `dense_src` holds a source unit per destination unit (pads point at unit 0, then get overwritten).
    dense_src: np.ndarray | None = None
    n_pad: int = 0

    @classmethod
    def build(cls, instr: str, bits: int, dst, src, info: dict | None = None) -> Plan:
        dst = np.asarray(dst, dtype=np.int64).ravel()
        src = np.asarray(src, dtype=np.int64).ravel()
        # Later writes win (program order): keep the last write of each destination element.
        order = np.argsort(dst, kind="stable")
        d, s = dst[order], src[order]
        if d.size > 1 and (d[1:] == d[:-1]).any():
            last = np.r_[d[1:] != d[:-1], True]
            d, s = d[last], s[last]
        unit, du, su, pu = _coarsen(bits, d, s)
        valid = s >= 0
        dst_end = byte_end(d, bits)
        src_end = byte_end(s[valid], bits)
        dense = None
        n_units = du.size + pu.size
        if unit and n_units and dst_end == n_units * unit:  # every unit of [0, dst_end) is written
            dense = np.zeros(n_units, dtype=np.intp)  # intp: what ndarray.take indexes with, no conversion
            dense[du] = su
            dense.flags.writeable = False
        f = frozen_offsets
        return cls(instr, bits, f(dst), f(src), unit, f(du), f(su), f(pu),
                   dst_end, src_end, dict(info or {}), dense, int((~valid).sum()))

    def __repr__(self) -> str:
        from .explain import plan_repr

        return plan_repr(self)

    def _repr_html_(self) -> str:
        from .explain import plan_repr_html

        return plan_repr_html(self)

    @property
    def n_elements(self) -> int:
        return int(np.unique(self.dst).size)

    def dst_index_map(self, size: int) -> np.ndarray:
        """Array of length `size`: for each dst element the src element it ends up holding (PAD = -1,
        -2 = not written)."""
        out = np.full(size, -2, dtype=np.int64)
        ok = self.dst < size
        out[self.dst[ok]] = self.src[ok]
        return out


def byte_end(offsets: np.ndarray, bits: int) -> int:
    """Bytes from the tensor start to one past the last element in `offsets` (0 when empty)."""
    return 0 if offsets.size == 0 else ((int(offsets.max()) + 1) * bits + 7) // 8


def _coarsen(bits: int, d: np.ndarray, s: np.ndarray):
    """Largest unit (bytes) such that elements group into whole, aligned, contiguous runs."""
    for u in _UNITS:
        n = u * 8 // bits
        if n == 0 or d.size % n:
            continue
        if n == 1:
            return u, d[s >= 0], s[s >= 0], d[s < 0]
        dd, ss = d.reshape(-1, n), s.reshape(-1, n)
        step = np.arange(n)
        if not ((dd[:, 0] % n == 0).all() and (dd == dd[:, :1] + step).all()):
            continue
        pad = (ss < 0).all(axis=1)
        run = (ss[:, 0] % n == 0) & (ss == ss[:, :1] + step).all(axis=1)
        if not (pad | run).all():
            continue
        return u, dd[~pad, 0] // n, ss[~pad, 0] // n, dd[pad, 0] // n
    return 0, d[s >= 0], s[s >= 0], d[s < 0]  # 4-bit data that does not pair into bytes


def pad_block(unit: int, bits: int, pattern: int) -> np.ndarray:
    """`unit` bytes holding the pad bit pattern repeated (4-bit patterns fill both nibbles)."""
    if bits == 4:
        byte = (pattern & 0xF) | (pattern & 0xF) << 4
        return np.full(max(unit, 1), byte, dtype=np.uint8)
    one = np.array([pattern & ((1 << bits) - 1)], dtype=f"<u{bits // 8}").view(np.uint8)
    return np.tile(one, unit // one.size)


class PreparedCache(dict):
    """Validated, value-only results of instruction calls (spec, pad pattern, ...), keyed by everything
    they depend on (chip, memories, dtypes, params snapshot, registers).

    Callers look up with `get` (the hot path stays one dict lookup) and store with `add` only after the
    validation returned, so a bad call raises every time and never enters the cache. Calls repeat few
    shapes, so the cache simply empties itself when it outgrows `maxsize`.
    """

    def __init__(self, maxsize: int = 4096) -> None:
        super().__init__()
        self.maxsize = maxsize

    def add(self, key: Hashable, value: _T) -> _T:
        """Store `value` under `key` (emptying a full cache first) and return it."""
        if len(self) > self.maxsize:
            self.clear()
        self[key] = value
        return value


@dataclass(slots=True)
class ExecReport:
    """What one executed instruction did (for summaries, `explain`, benchmarks)."""

    instr: str
    bytes_written: int = 0
    bytes_read: int = 0
    pad_elements: int = 0
    hazards: list[str] = field(default_factory=list)
    plan: Plan | None = field(default=None, repr=False)
    # divergences.md rows (e.g. "L7") whose reading this result depends on, shown at the point of use
    notes: list[str] = field(default_factory=list)


def check_plan(plan: Plan, dst: LocalTensor, src: LocalTensor | None, strict: bool) -> list[str]:
    """Bounds (errors) and hazards (warnings, or errors when strict). Runs before any write."""
    dst.memory.check_range(dst.offset, plan.dst_end, f"{plan.instr}: destination")
    if src is not None and plan.src_end:
        src.memory.check_range(src.offset, plan.src_end, f"{plan.instr}: source")
    if plan.dst_end <= dst.nbytes and (src is None or plan.src_end <= src.nbytes):
        return []
    hazards = []
    if plan.dst_end > dst.nbytes:
        hazards.append(
            f"{plan.instr}: writes {plan.dst_end} B from {dst.position}@0x{dst.offset:x}, past the "
            f"destination LocalTensor ({dst.nbytes} B); the chip does this, the tensor does not cover it"
        )
    if src is not None and plan.src_end > src.nbytes:
        hazards.append(
            f"{plan.instr}: reads {plan.src_end} B from {src.position}@0x{src.offset:x}, past the "
            f"source LocalTensor ({src.nbytes} B)"
        )
    report_hazards(hazards, strict)
    return hazards


def report_hazards(hazards: list[str], strict: bool) -> None:
    """Raise the first hazard as HazardError when `strict`, else warn each one as a HazardWarning
    attributed to the first caller outside ascsim (the user's line, whichever family raised it)."""
    for h in hazards:
        if strict:
            raise HazardError(h)
        warnings.warn(h, HazardWarning, stacklevel=user_stacklevel())


def doc_conflict(instr: str, doc_rule: str, row: str, strict: bool) -> str:
    """Report a call the doc page forbids but the C++ API executes: a DocConflictWarning (or, strict, a
    DocConflictError) quoting `doc_rule` and naming divergence `row`. Returns the message, for the
    report's `hazards`."""
    msg = (f"{instr}: the doc page forbids this ({doc_rule}); executed as the C++ API does "
           f"(ascsim reading: docs/divergences.md {row})")
    if strict:
        raise DocConflictError(msg)
    warnings.warn(msg, DocConflictWarning, stacklevel=user_stacklevel())
    return msg


def with_basis(fn: Callable[[], _T], basis: str) -> _T:
    """Run a shared validator (checks.*, ChipProfile.check) and append this call's basis to its refusal —
    "the C++ API rejects this: ..." or "the doc page forbids this: ...; ascsim reading: divergence "
                                       "Xn" — keeping
    the message start (issue 7's message rule)."""
    try:
        return fn()
    except AscsimError as e:
        raise type(e)(f"{e} ({basis})") from None


def user_stacklevel() -> int:
    """`stacklevel` that makes a warning issued by the calling function point at the first frame outside
    the ascsim package."""
    frame, level = sys._getframe(1), 1
    while frame is not None and frame.f_globals.get("__name__", "").startswith("ascsim"):
        frame, level = frame.f_back, level + 1
    return level


_VOID = {u: np.dtype(f"V{u}") for u in _UNITS}
_PAD_BLOCKS: dict[tuple[int, int, int], np.ndarray] = {}


def _pad_unit(u: int, bits: int, pattern: int) -> np.ndarray:
    key = (u, bits, pattern)
    blk = _PAD_BLOCKS.get(key)
    if blk is None:
        blk = _PAD_BLOCKS[key] = pad_block(u, bits, pattern).view(f"V{u}")[0]
    return blk


def execute(plan: Plan, dst: LocalTensor, src: LocalTensor | None, pad_pattern: int = 0,
            strict: bool = False, boundary: int = 0) -> ExecReport:
    """Run `plan`: check everything, then gather from `src` and scatter into `dst`.

    `boundary` (bytes, 0 = off) wraps source reads past it back to the start of the memory
    (SetLoadDataBoundary on A2/A3).
    """
    if boundary and src is not None and plan.src_units.size and src.offset >= boundary:
        # doc: SetLoadDataBoundary.md 约束说明 — the source start must lie inside the boundary.
        raise BoundsError(f"{plan.instr}: src address must be below the L1 boundary {boundary} B "
                          f"(SetLoadDataBoundary), but got 0x{src.offset:x} ({src.offset} B)")
    # With a boundary, source reads wrap inside [0, boundary) (a ring buffer), so the unwrapped source
    # extent says nothing about bounds: only the destination is checked then.
    chk_src = None if boundary else src
    dmem = dst.memory
    if (dst.offset + plan.dst_end > dmem.size or plan.dst_end > dst.nbytes or dst.offset < 0
            or (chk_src is not None
                and (src.offset + plan.src_end > src.memory.size or plan.src_end > src.nbytes))):
        hazards = check_plan(plan, dst, chk_src, strict)  # the slow path raises or warns with the details
    else:
        hazards = []
    u = plan.unit
    if u == 0:
        _execute_nibbles(plan, dst, src, pad_pattern, boundary)
    else:
        vu = _VOID[u]
        dview = dst.memory.data[dst.offset : dst.offset + plan.dst_end].view(vu)
        if plan.src_units.size:
            if boundary:
                # doc: SetLoadDataBoundary.md — past the boundary, reading restarts at the L1 start.
                step = np.arange(u)
                absb = (src.offset + plan.src_units[:, None] * u + step) % boundary
                dbytes = dst.memory.data[dst.offset : dst.offset + plan.dst_end]
                dbytes[(plan.dst_units[:, None] * u + step).ravel()] = src.memory.data[absb.ravel()]
            else:
                sview = src.memory.data[src.offset : src.offset + plan.src_end].view(vu)
                if plan.dense_src is not None:
                    # indices are in range by construction (src_end bounds them): skip numpy's check;
                    # the method form skips np.take's Python wrappers (this is the per-call hot path)
                    sview.take(plan.dense_src, out=dview, mode="clip")
                else:
                    dview[plan.dst_units] = sview[plan.src_units]
        if plan.pad_units.size:
            dview[plan.pad_units] = _pad_unit(u, plan.bits, pad_pattern)
    written = plan.dst.size * plan.bits // 8
    return ExecReport(plan.instr, written, written - plan.n_pad * plan.bits // 8, plan.n_pad, hazards, plan)


def _execute_nibbles(plan: Plan, dst: LocalTensor, src: LocalTensor | None, pad: int, boundary: int):
    nbytes = plan.dst_end
    region = dst.memory.data[dst.offset : dst.offset + nbytes]
    nib = unpack_nibbles(region)
    if plan.src_units.size:
        if boundary:  # reads wrap modulo the boundary (SetLoadDataBoundary.md); element 2i = low nibble
            su = plan.src_units
            byte = src.memory.data[(src.offset + su // 2) % boundary]
            nib[plan.dst_units] = np.where(su % 2 == 1, byte >> 4, byte & 0xF)
        else:
            s = src.memory.data[src.offset : src.offset + plan.src_end]
            nib[plan.dst_units] = unpack_nibbles(s)[plan.src_units]
    nib[plan.pad_units] = pad & 0xF
    region[:] = pack_nibbles(nib)
