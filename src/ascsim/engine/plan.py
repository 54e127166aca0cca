"""Access plans: what every data-movement instruction compiles to, and the one executor that runs them.

A plan lists, for each destination element the instruction writes, the source element it reads or
"pad". Offsets are in elements of the instruction's dtype, relative to the dst / src tensor starts,
in program order. `Plan.build` coarsens the element lists into the largest byte units (32 B C0 blocks
when the layout allows) so execution is two vectorised gathers over byte memory. Bounds and hazard
checks run on the plan's extents before any byte is written, so a failing instruction leaves memory
untouched.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TypeVar

import numpy as np

from ..base.diagnostics import report_hazards
from ..base.errors import (
    BoundsError,
)
from ..machine.dtypes import pack_nibbles, unpack_nibbles
from ..machine.memory import LocalTensor

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
    """A frozen element-level access plan (provenance): `dst`/`src` are element offsets relative to the
    dst / src tensor starts (src PAD = -1), one entry per element write in program order (a destination
    element written twice appears twice; the later write wins). explain/draw read it; execution uses its
    `units` form (built on first use), or a family's block-level `UnitPlan` built without it."""

    instr: str
    bits: int
    dst: np.ndarray
    src: np.ndarray
    dst_end: int  # bytes: one past the last destination byte written (relative to dst start)
    src_end: int  # bytes: one past the last source byte read (relative to src start)
    info: dict = field(default_factory=dict)
    n_pad: int = 0

    @classmethod
    def build(cls, instr: str, bits: int, dst, src, info: dict | None = None) -> Plan:
        f = frozen_offsets
        dst, src = f(np.asarray(dst).ravel()), f(np.asarray(src).ravel())
        valid = src >= 0
        return cls(instr, bits, dst, src, byte_end(dst, bits), byte_end(src[valid], bits), dict(info or {}),
                   int((~valid).sum()))

    def __repr__(self) -> str:
        """One line of counts (text only: pictures belong to the layers above, docs/architecture.md
        "Pictures import downward")."""
        written = int(np.unique(self.dst).size)
        unit = f"{self.unit}-B units" if self.unit else "4-bit elements"
        fe = 4096 // self.bits  # elements per 512-B fractal
        fractals = int(np.unique(self.dst // fe).size)
        ov = f", {self.dst.size - written} overwritten" if self.dst.size > written else ""
        return (f"<Plan {self.instr} b{self.bits}: {written} elements in {unit}, {self.n_pad} pad, "
                f"{fractals} fractals, dst {self.dst_end} B, src {self.src_end} B{ov}>")

    @property
    def units(self) -> UnitPlan:
        """The executable form: the element moves coarsened into the largest whole byte units."""
        up = self.info.get("_units")
        if up is None:
            # Later writes win (program order): keep the last write of each destination element.
            order = np.argsort(self.dst, kind="stable")
            d, s = self.dst[order], self.src[order]
            if d.size > 1 and (d[1:] == d[:-1]).any():
                last = np.r_[d[1:] != d[:-1], True]
                d, s = d[last], s[last]
            up = self.info["_units"] = UnitPlan.from_elements(self.instr, self.bits, d, s)
        return up

    @property
    def unit(self) -> int:
        return self.units.unit

    @property
    def n_elements(self) -> int:
        return int(np.unique(self.dst).size)

    @property
    def nbytes(self) -> int:
        """Approximate memory held (for the byte-capped caches)."""
        up = self.info.get("_units")
        return self.dst.nbytes + self.src.nbytes + (up.nbytes if up is not None else 0) + 256

    def dst_index_map(self, size: int) -> np.ndarray:
        """Array of length `size`: for each dst element the src element it ends up holding (PAD = -1,
        -2 = not written)."""
        out = np.full(size, -2, dtype=np.int64)
        ok = self.dst < size
        out[self.dst[ok]] = self.src[ok]
        return out


class UnitPlan:
    """An executable plan: moves of `unit`-byte blocks (1..32 B; 0 = single nibbles) from the source to
    the destination, unit indices relative to the tensor starts, PAD (-1) = the pad pattern.

    With `dense`, the written units tile [0, dst_end) and `src_units` lists a source unit per destination
    unit in order, so execution is ONE `take` into the destination view: the pad pattern sits in the
    source memory's spare block past its end (`Memory.pad_index`), and pad units index it.
    Absolute source indices are cached per (source offset, boundary).
    """

    __slots__ = ("instr", "bits", "unit", "_dst", "n_units", "src_units", "dst_end", "src_end", "n_pad",
                 "dense", "_abs")

    def __init__(self, instr: str, bits: int, unit: int, dst_units: np.ndarray | None,
                 src_units: np.ndarray, n_pad: int, dense: bool = False) -> None:
        """`dense=True` (with dst_units None) says the builder already lists one source unit per
        destination unit in order, so nothing needs checking or reordering."""
        self.instr, self.bits, self.unit, self.n_pad = instr, bits, unit, n_pad
        src_units = np.asarray(src_units, dtype=np.intp).ravel()
        if dense:
            n = src_units.size
            self.dense, self.dst_end, self.n_units = True, n * unit, n
            self.src_end = (int(src_units.max()) + 1) * unit if n else 0
            self._dst, self.src_units = None, src_units  # destination units 0..n-1, in order
            self.src_units.flags.writeable = False
            self._abs = {}
            return
        dst_units = np.asarray(dst_units, dtype=np.intp).ravel()
        n = self.n_units = dst_units.size
        per = unit if unit else 1  # nibble plans count nibbles
        self.dst_end = (int(dst_units.max()) + 1) * per if n else 0
        valid = src_units[src_units >= 0]
        self.src_end = (int(valid.max()) + 1) * per if valid.size else 0
        if unit == 0:
            self.dst_end, self.src_end = (self.dst_end + 1) // 2, (self.src_end + 1) // 2
        self.dense = bool(unit and n and self.dst_end == n * unit)
        if self.dense and not (dst_units[0] == 0 and (np.diff(dst_units) == 1).all()):
            ordered = np.empty(n, dtype=np.intp)  # every unit written exactly once: put them in order
            ordered[dst_units] = src_units
            src_units = ordered
        if self.dense:
            dst_units = None  # 0..n-1 in order (see `dst_units`)
        for a in (dst_units, src_units):
            if a is not None:
                a.flags.writeable = False
        self._dst, self.src_units = dst_units, src_units
        self._abs: dict[tuple[int, int, int], np.ndarray] = {}

    @classmethod
    def from_elements(cls, instr: str, bits: int, d: np.ndarray, s: np.ndarray) -> UnitPlan:
        """Coarsen sorted, de-duplicated element moves into the largest whole units."""
        unit, du, su = _coarsen(bits, d, s)
        return cls(instr, bits, unit, du, su, int((s < 0).sum()))

    @property
    def dst_units(self) -> np.ndarray:
        """Destination unit index of each move (a dense plan's 0..n-1 is built on demand: the warm path
        never needs it, and a cold call's memory is what it keeps)."""
        if self._dst is not None:
            return self._dst
        a = np.arange(self.n_units, dtype=np.intp)
        a.flags.writeable = False
        return a

    @property
    def nbytes(self) -> int:
        held = self._dst.nbytes if self._dst is not None else 0
        return held + self.src_units.nbytes + sum(a.nbytes for a in self._abs.values())

    def absolute(self, src_offset: int, boundary: int, pad_index: int) -> np.ndarray | None:
        """Source unit indices in the whole source buffer (pads -> `pad_index`), reads wrapped modulo
        `boundary` bytes; None when the offset/boundary do not fall on unit boundaries."""
        u = self.unit
        if src_offset % u or boundary % u:
            return None
        key = (src_offset, boundary, pad_index)
        a = self._abs.get(key)
        if a is None:
            a = self.src_units + src_offset // u
            if boundary:
                a %= boundary // u  # SetLoadDataBoundary.md: past the boundary, reads restart at 0
            if self.n_pad:
                a[self.src_units < 0] = pad_index
            a.flags.writeable = False
            if len(self._abs) >= 2:  # a kernel uses a few buffers per call shape (ping-pong)
                self._abs.clear()
            self._abs[key] = a
        return a


def byte_end(offsets: np.ndarray, bits: int) -> int:
    """Bytes from the tensor start to one past the last element in `offsets` (0 when empty)."""
    return 0 if offsets.size == 0 else ((int(offsets.max()) + 1) * bits + 7) // 8


def _coarsen(bits: int, d: np.ndarray, s: np.ndarray) -> tuple[int, np.ndarray, np.ndarray]:
    """Largest unit (bytes) such that elements group into whole, aligned, contiguous runs (or whole pad
    runs): (unit, dst unit indices, src unit indices with PAD for pad units). Unit 0 = nibbles."""
    for u in _UNITS:
        n = u * 8 // bits
        if n == 0 or d.size % n:
            continue
        if n == 1:
            return u, d, np.where(s >= 0, s, PAD)
        dd, ss = d.reshape(-1, n), s.reshape(-1, n)
        step = np.arange(n)
        if not ((dd[:, 0] % n == 0).all() and (dd == dd[:, :1] + step).all()):
            continue
        pad = (ss < 0).all(axis=1)
        run = (ss[:, 0] % n == 0) & (ss == ss[:, :1] + step).all(axis=1)
        if not (pad | run).all():
            continue
        return u, dd[:, 0] // n, np.where(pad, PAD, ss[:, 0] // n)
    return 0, d, np.where(s >= 0, s, PAD)  # 4-bit data that does not pair into bytes


def pad_block(unit: int, bits: int, pattern: int) -> np.ndarray:
    """`unit` bytes holding the pad bit pattern repeated (4-bit patterns fill both nibbles)."""
    if bits == 4:
        byte = (pattern & 0xF) | (pattern & 0xF) << 4
        return np.full(max(unit, 1), byte, dtype=np.uint8)
    one = np.array([pattern & ((1 << bits) - 1)], dtype=f"<u{bits // 8}").view(np.uint8)
    return np.tile(one, unit // one.size)


def check_plan(plan: Plan | UnitPlan, dst: LocalTensor, src: LocalTensor | None, strict: bool,
               report: bool = True) -> list[str]:
    """Bounds (errors) and hazards (warnings, or errors when strict; only returned when not `report`).
    Runs before any write."""
    dst.memory.check_range(dst.offset, plan.dst_end, f"{plan.instr}: destination")
    if src is not None and plan.src_end:
        src.memory.check_range(src.offset, plan.src_end, f"{plan.instr}: source", write=False)
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
    if report:
        report_hazards(hazards, strict)
    return hazards


VOID_UNITS = {u: np.dtype(f"V{u}") for u in _UNITS}
_PAD_BLOCKS: dict[tuple[int, int, int], np.ndarray] = {}


def pad_unit(u: int, bits: int, pattern: int) -> np.ndarray:
    key = (u, bits, pattern)
    blk = _PAD_BLOCKS.get(key)
    if blk is None:
        blk = _PAD_BLOCKS[key] = pad_block(u, bits, pattern)
    return blk


def check_units(up: Plan | UnitPlan, dst: LocalTensor, src: LocalTensor | None, strict: bool,
                boundary: int = 0, report: bool = True) -> list[str]:
    """Bounds (errors) and hazards (warnings / strict errors) of a plan at these tensors' addresses."""
    if boundary and src is not None and up.src_end and src.offset >= boundary:
        # doc: SetLoadDataBoundary.md 约束说明 — the source start must lie inside the boundary.
        raise BoundsError(f"{up.instr}: src address must be below the L1 boundary {boundary} B "
                          f"(SetLoadDataBoundary), but got 0x{src.offset:x} ({src.offset} B)")
    # With a boundary, source reads wrap inside [0, boundary) (a ring buffer), so the unwrapped source
    # extent says nothing about bounds: only the destination is checked then.
    chk_src = None if boundary else src
    if (dst.offset + up.dst_end > dst.memory.size or up.dst_end > dst.nbytes or dst.offset < 0
            or (chk_src is not None
                and (src.offset + up.src_end > src.memory.size or up.src_end > src.nbytes))):
        return check_plan(up, dst, chk_src, strict, report)  # the slow path raises or warns with details
    return []


def run_units(up: UnitPlan, dst: LocalTensor, src: LocalTensor | None, pad_pattern: int = 0,
              boundary: int = 0) -> None:
    """Execute an (already checked) unit plan: one gather from the source memory, pads included."""
    u = up.unit
    if u == 0:
        _execute_nibbles(up, dst, src, pad_pattern, boundary)
        return
    vu = VOID_UNITS[u]
    dview = dst.memory.data[dst.offset : dst.offset + up.dst_end].view(vu)
    if src is None:  # a fill: every unit is the pad block
        dview[up.dst_units] = pad_unit(u, up.bits, pad_pattern).view(vu)[0]
        return
    mem = src.memory
    pad_index = mem.pad_index(u, pad_unit(u, up.bits, pad_pattern), (u, up.bits, pad_pattern)) \
        if up.n_pad else 0
    idx = up.absolute(src.offset, boundary, pad_index)
    if idx is not None:
        full = mem.units(u)
        if up.dense and dst.memory is not mem:
            # indices are in range by construction (checked extents): skip numpy's check; the method
            # form skips np.take's Python wrappers (this is the per-call hot path)
            full.take(idx, out=dview, mode="clip")
        else:
            dview.put(up.dst_units, full.take(idx))  # put: ~3x faster than a fancy setitem
        return
    # a source offset / boundary off the unit grid: byte-wise (still one gather)
    step = np.arange(u)
    sb = src.offset + up.src_units[:, None] * u + step
    if boundary:
        sb %= boundary
    pad = np.broadcast_to(pad_unit(u, up.bits, pad_pattern), (up.src_units.size, u))
    vals = np.where(up.src_units[:, None] >= 0, mem._buf[np.clip(sb, 0, None)], pad)
    dst.memory.data[dst.offset + (up.dst_units[:, None] * u + step).ravel()] = vals.ravel()


def _execute_nibbles(up: UnitPlan, dst: LocalTensor, src: LocalTensor | None, pad: int, boundary: int):
    region = dst.memory.data[dst.offset : dst.offset + up.dst_end]
    nib = unpack_nibbles(region)
    valid = up.src_units >= 0
    su = up.src_units[valid]
    if su.size:
        if boundary:  # reads wrap modulo the boundary (SetLoadDataBoundary.md); element 2i = low nibble
            byte = src.memory.data[(src.offset + su // 2) % boundary]
            nib[up.dst_units[valid]] = np.where(su % 2 == 1, byte >> 4, byte & 0xF)
        else:
            s = src.memory.data[src.offset : src.offset + up.src_end]
            nib[up.dst_units[valid]] = unpack_nibbles(s)[su]
    nib[up.dst_units[~valid]] = pad & 0xF
    region[:] = pack_nibbles(nib)
