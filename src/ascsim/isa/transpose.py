"""LoadDataWithTranspose (LoadData2dTransposeParams and ...V2): validate -> plan -> execute.

Semantics (docs/load_data_with_transpose.md; LoadDataWithTranspose.md 功能说明, 分形转置, 表3/表4; seed 002):
each iteration reads one *square* built from n_f source fractals (512 B each), transposes it and
writes it back as n_f fractals.

| width | fractal | n_f | square S                                  | output fractal j          |
| b16   | 16x16   | 1   | S = F0                                    | S^T                       |
| b8    | 16x32   | 2   | 32x32, F_j = rows 16j..16j+15 (stacked)   | rows 16j..16j+15 of S^T   |
| b4    | 16x64   | 4   | 64x64, F_j = rows 16j..16j+15 (stacked)   | rows 16j..16j+15 of S^T   |
| b32   | 16x8    | 2   | 16x16, F_j = cols 8j..8j+7 (side by side) | cols 8j..8j+7 of S^T      |

Iteration i (0-based) reads source fractal F_j and writes destination fractal D_j:
  V1: F_j = (startIndex ± i*srcStride) * n_f + j                  (startIndex/srcStride count squares)
  V2: F_j = startIndex ± i*srcStride + j*(srcFracGap + 1)          (they count fractals, 表4)
  D_j = i*(dstGap + 1) + j*(dstFracGap + 1)                        (dstFracGap has no effect for b16)
with "-" when addrMode is true (decrement, 表3 控制地址更新方式). repeatTimes = 0 is a NOP (V1; V2's
表4 range is [1, 255]). b32 in V2 also takes 2 fractals per iteration (docs/divergences.md T4; 表4 says 4).
Overlapping destination fractals ("开发者需要保证目的操作数转置后的分形没有重叠") are executed in program
order — iteration by iteration, fractal by fractal, later writes win, as the hardware iterates — with a
HazardWarning naming the colliding writes (strict: HazardError; divergence T9).

Positions are physical memories (divergence P2): the source is any L1 tensor (A1 or B1 — template libraries
tag every L1 buffer A1), the destination L0A or L0B; which dtypes each destination takes is the chip's.

`load_data_with_transpose` goes through the call boundary (`ascsim.engine.boundary.run_call`): validation once
per call shape (the prepared call holds the fractal walk, its extents computed arithmetically, and the
overlap hazard), then a square-at-a-time executor (`_Squares`) that never builds an element plan. The
element-level `Plan` (`plan_transpose`,
                      provenance for explain/draw; `ascsim.engine.plan.execute` runs it to the
same bytes) is built only when a report's `plan` is asked for; `ref_load_data_with_transpose` is the slow
reference written as loops straight from the doc text.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from functools import lru_cache, partial

import numpy as np

from ..base.diagnostics import report_hazards
from ..base.errors import ParamRangeError, UnsupportedError, cpp_rejects, doc_forbids, hw_cannot
from ..engine.boundary import Extent, PreparedCall, lookup, run_call
from ..engine.cache import PLANS
from ..engine.plan import Plan
from ..engine.record import ExecReport
from ..machine import checks
from ..machine.memory import LocalTensor
from ..params import LoadData2dTransposeParams, LoadData2dTransposeParamsV2

INSTR = "LoadDataWithTranspose"
U16 = 65535

#: bits -> (n_f fractals per square, square side in elements, fractals stacked vertically?)
GEOMETRY: dict[int, tuple[int, int, bool]] = {
    4: (4, 64, True),  # doc 分形转置: 4 x 16x64 -> 64x64 (docs/divergences.md T2)
    8: (2, 32, True),  # 2 x 16x32 -> 32x32
    16: (1, 16, True),  # 1 x 16x16
    32: (2, 16, False),  # 2 x 16x8 side by side -> 16x16 (IN-CON 分形约束 "Nz当且仅当Row==16")
}


@dataclass(frozen=True)
class TransposeSpec:
    """Effective, validated fractal walk of one call (the plan-cache key). All steps in fractals."""

    bits: int
    repeat: int
    first: int  # source fractal F_0 of iteration 0
    step: int  # source fractal step between iterations (negative = addrMode decrement)
    frac_step: int  # source fractal step between F_j and F_j+1 inside an iteration
    dst_step: int  # dstGap + 1
    dst_frac_step: int  # dstFracGap + 1 (1 for b16, where it has no effect)

    def fractals(self) -> tuple[np.ndarray, np.ndarray]:
        """(source, destination) fractal index arrays, shape (repeat, n_f)."""
        n_f = GEOMETRY[self.bits][0]
        i = np.arange(self.repeat, dtype=np.int64)[:, None]
        j = np.arange(n_f, dtype=np.int64)[None, :]
        return self.first + i * self.step + j * self.frac_step, i * self.dst_step + j * self.dst_frac_step


def plan_transpose(spec: TransposeSpec) -> Plan:
    """Element-level plan: for every element T[a][b] of each transposed square, its dst and src offsets
    (provenance for explain/draw, built on demand and kept in the byte-capped `PLANS`)."""
    return PLANS.memo(("transpose", spec), lambda: _plan_transpose(spec))


def _plan_transpose(spec: TransposeSpec) -> Plan:
    n_f, side, stacked = GEOMETRY[spec.bits]
    frac_elems = 4096 // spec.bits  # 512 B
    src_f, dst_f = spec.fractals()
    a, b = np.meshgrid(np.arange(side), np.arange(side), indexing="ij")  # T = S^T, T[a][b] = S[b][a]
    if stacked:  # fractal rows of C0 = side elements; fractal j holds square rows 16j..16j+15
        dst = dst_f[:, a // 16] * frac_elems + (a % 16) * side + b
        src = src_f[:, b // 16] * frac_elems + (b % 16) * side + a
    else:  # b32: 16 rows x 8 cols per fractal; fractal j holds square cols 8j..8j+7
        dst = dst_f[:, b // 8] * frac_elems + a * 8 + b % 8
        src = src_f[:, a // 8] * frac_elems + b * 8 + a % 8
    return Plan.build(INSTR, spec.bits, dst, src, info={
        "spec": spec, "src_fractals": src_f, "dst_fractals": dst_f,
        # first fractal when the iterations read / write one contiguous run of fractals (fast path)
        "src_run": _run_start(src_f), "dst_run": _run_start(dst_f)})


def _run_start(f: np.ndarray) -> int | None:
    flat = f.ravel()
    return int(flat[0]) if (np.diff(flat) == 1).all() else None


# -- validation ---------------------------------------------------------------------------------------


def _check_memories(src: LocalTensor, dst: LocalTensor) -> None:
    """The source is L1, the destination L0A or L0B — by memory, not TPosition tag: the C++ API checks the
    physical memory only (CheckLoadDataWithTranspose: CheckTensorPhyPosition), so the seed's "B1->B2" (950,
    int4b_t) reads as L1->L0B and an int4 load from an L1 tensor tagged A1 is legal (divergence P2)."""
    if src.memory.name != "L1":
        raise UnsupportedError(f"{INSTR}: src must be a LocalTensor in TPosition A1 or B1 (L1), "
                               f"but got TPosition {src.position} ({src.memory.name})",
                               basis=checks.PHYSICAL_POSITION)
    if dst.memory.name not in ("L0A", "L0B"):
        raise UnsupportedError(f"{INSTR}: dst must be a LocalTensor in TPosition A2 or B2 "
                               f"(L0A/L0B), but got TPosition {dst.position} ({dst.memory.name})",
                               basis=checks.PHYSICAL_POSITION)


def _check_positions(chip, v2: bool, dtype: str, src_mem: str, dst_mem: str) -> None:
    """Path and dtype per chip (doc: LoadDataWithTranspose.md 表2, 数据类型; seed 002 表1/2)."""
    if v2:
        chip.check("LoadDataWithTransposeV2", dtype, src_mem, dst_mem, instr=INSTR)
    chip.check("LoadDataWithTranspose", dtype, src_mem, dst_mem, instr=INSTR)


def _walk(v2: bool, fields: tuple, bits: int) -> TransposeSpec | None:
    """Range-check the struct fields and turn them into a fractal walk; None = NOP."""
    n_f = GEOMETRY[bits][0]
    r = checks.in_range
    f = checks.field  # kernel_struct_mm.h LoadData2dTransposeParams[V2] member types
    if v2:
        start, rep, stride, dst_gap, dst_frac_gap, src_frac_gap, addr_mode = fields
        src_frac_gap = f(INSTR, "srcFracGap", src_frac_gap, 16, ctype="uint16_t")
        rep = r(INSTR, "repeatTimes", rep, 1, 255,  # 表4: [1, 255]
                doc_forbids("LoadDataWithTranspose.md 表4 repeatTimes ∈ [1, 255]", "T6"))
    else:
        start, rep, stride, dst_gap, dst_frac_gap, addr_mode = fields
        src_frac_gap = 0
        rep = f(INSTR, "repeatTimes", rep, 8, ctype="uint8_t")  # 表3: [0, 255], 0 = NOP
    start = f(INSTR, "startIndex", start, 16, ctype="uint16_t")
    stride = f(INSTR, "srcStride", stride, 16, ctype="uint16_t")
    dst_gap = f(INSTR, "dstGap", dst_gap, 16, ctype="uint16_t")
    dst_frac_gap = f(INSTR, "dstFracGap", dst_frac_gap, 16, ctype="uint16_t")
    dec = checks.flag(INSTR, "addrMode", addr_mode)
    if rep == 0:
        return None
    if dec and start - (rep - 1) * stride < 0:
        unit = "fractal" if v2 else "square"
        raise ParamRangeError(
            f"{INSTR}: addrMode=true (decrement) walks the source to {unit} startIndex - "
            f"(repeatTimes-1)*srcStride = {start} - {rep - 1}*{stride} = {start - (rep - 1) * stride}; "
            f"it must stay >= 0", basis=hw_cannot('a source fractal below the tensor start'))
    unit = 1 if v2 else n_f  # V1 counts squares of n_f fractals, V2 counts fractals (表3 / 表4)
    if n_f == 1:  # b16: one fractal per iteration, the intra-iteration gaps have no effect (表3, 表4)
        src_frac_gap = dst_frac_gap = 0
    return TransposeSpec(bits, rep, start * unit, (-stride if dec else stride) * unit, src_frac_gap + 1,
                         dst_gap + 1, dst_frac_gap + 1)


def overlap_hazard(spec: TransposeSpec) -> str | None:
    """约束说明: "开发者需要保证目的操作数转置后的分形没有重叠". The hardware simply writes in program order,
    so ascsim does too (later writes win) and reports the collisions (divergence T9); None without any."""
    n_f = GEOMETRY[spec.bits][0]
    _, dst_f = spec.fractals()
    flat = dst_f.ravel()
    uniq, counts = np.unique(flat, return_counts=True)
    if uniq.size == flat.size:
        return None
    dup = uniq[counts > 1]
    f = int(dup[0])
    writers = [divmod(int(k), n_f) for k in np.flatnonzero(flat == f)]
    who = " and ".join(f"iteration {i} fractal {j}" for i, j in writers)
    return (f"{INSTR}: dstGap={spec.dst_step - 1} with dstFracGap={spec.dst_frac_step - 1} writes "
            f"{int(dup.size)} destination fractal(s) more than once: fractal {f} by {who}; executed in "
            f"program order, the last write wins (约束说明: 开发者需要保证目的操作数转置后的分形没有重叠; "
            f"e.g. dstGap >= {n_f - 1} with dstFracGap = 0 keeps them apart; docs/divergences.md T9)")


def load_data_with_transpose(core, dst: LocalTensor, src: LocalTensor,
                             params: LoadData2dTransposeParams | LoadData2dTransposeParamsV2) -> ExecReport:
    """`LoadDataWithTranspose(dst, src, loadDataParams)` (doc: LoadDataWithTranspose.md).

    Checks (all before any write): struct type, dtype match, per-chip TPositions/path/dtype, field ranges,
    addrMode walk, destination overlap (cached per call shape), alignment (dst 512 B, src 32 B: 约束说明)
    and physical bounds (per placement).
    """
    tp = params.__class__
    if tp is not LoadData2dTransposeParams and tp is not LoadData2dTransposeParamsV2:
        raise UnsupportedError(
            f"{INSTR}: loadDataParams must be LoadData2dTransposeParams or LoadData2dTransposeParamsV2, but "
            f"got {tp.__name__}", basis=cpp_rejects(f"no LoadDataWithTranspose overload takes {tp.__name__}"))
    pk = params.key()
    key = None if pk is None else (INSTR, core.chip.key, tp, src.memory.name, dst.memory.name, dst.dtype.name,
                                   src.dtype.name, pk)
    # SetLoadDataBoundary applies to LoadData (卷积数据搬运) only (SetLoadDataBoundary.md), so no boundary.
    return run_call(core, lookup(key, lambda: _prepared(core, tp is LoadData2dTransposeParamsV2, params, dst,
                                                        src)), (dst, src))


def _fields(v2: bool, p) -> tuple:
    if v2:
        return (p.startIndex, p.repeatTimes, p.srcStride, p.dstGap, p.dstFracGap, p.srcFracGap, p.addrMode)
    return (p.startIndex, p.repeatTimes, p.srcStride, p.dstGap, p.dstFracGap, p.addrMode)


def _report(hazard: str, core) -> list[str]:
    report_hazards([hazard], core.strict)  # strict: HazardError before any write
    return [hazard]


def _prepared(core, v2: bool, params, dst: LocalTensor, src: LocalTensor) -> PreparedCall:
    """Everything that depends only on the call's static shape: checks, the fractal walk, its extents
    (arithmetic: no plan is built) and the overlap hazard to report on every call."""
    dt = dst.dtype
    if src.dtype is not dt and src.dtype != dt:
        checks.same_dtype(INSTR, dst, src)
    if src.memory.name != "L1" or dst.memory.name not in ("L0A", "L0B"):
        _check_memories(src, dst)
    _check_positions(core.chip, v2, dt.name, src.memory.name, dst.memory.name)
    fields = _fields(v2, params)
    spec = _walk(v2, fields, dt.bits)
    aligns = ((0, 512, "dst (L0)"), (1, 32, "src (L1)"))
    if spec is None:
        return PreparedCall(INSTR, aligns=aligns)
    n_f = GEOMETRY[spec.bits][0]
    # b16 square units (T1); addrMode down (T3); overlapping outputs in program order (T9)
    notes = [row for row, on in (("T1", not v2 and spec.bits == 16 and (fields[0] or fields[2] != 1)),
                                 ("T3", fields[-1] == 1)) if on]
    hazard = overlap_hazard(spec)
    if hazard:
        notes.append("T9")
    # extents from the walk's end points (steps >= 0 except a decrementing srcStride, which _walk bounded)
    last = spec.repeat - 1
    dst_end = (last * spec.dst_step + (n_f - 1) * spec.dst_frac_step + 1) * 512
    src_lo = spec.first + min(0, last * spec.step)
    src_hi = spec.first + max(0, last * spec.step) + (n_f - 1) * spec.frac_step
    n = spec.repeat * n_f * 512
    sq = _Squares(spec)
    prep = PreparedCall(INSTR, spec, planner=partial(plan_transpose, spec), aligns=aligns, notes=notes,
                    warnings=(partial(_report, hazard),) if hazard else (),
                    extents=(Extent(0, 0, dst_end, True, "destination"),
                             Extent(1, src_lo * 512, (src_hi + 1) * 512, False, "source")),
                    run=sq.run, counts=(n, n, 0))
    prep.nbytes += sq.nbytes  # the fractal lists of a walk that is not one run (charged to CALLS)
    return prep


class _Squares:
    """The square-at-a-time executor of one call shape (same result as `ascsim.engine.plan.execute` of the
    element plan; tests/isa/test_transpose.py checks both agree).

    Why not the generic executor: a transpose cannot coarsen past one element (a nibble for b4), so a
    gather moves element by element (~30x a memcpy for b8, ~200x for b4). Here the fractal lists drive
    three numpy steps: take the source fractals (a view when they are one run), transpose every square in
    one strided copy (b4: the `_b4_squares` pipeline, writing the destination itself), store whole
    fractals (straight into the destination when they are one run)."""

    __slots__ = ("bits", "r", "n_f", "src", "dst", "src_end", "dst_end", "keep")

    def __init__(self, spec: TransposeSpec) -> None:
        src_f, dst_f = spec.fractals()
        self.bits, (self.r, self.n_f) = spec.bits, src_f.shape
        self.src_end, self.dst_end = (int(src_f.max()) + 1) * 512, (int(dst_f.max()) + 1) * 512
        # one run of fractals: its first fractal (a plain int, nothing held); else the fractal list
        s0, d0 = _run_start(src_f), _run_start(dst_f)
        self.src: int | np.ndarray = s0 if s0 is not None else np.array(src_f, dtype=np.intp)
        self.keep: np.ndarray | None = None
        if d0 is not None:
            self.dst: int | np.ndarray = d0
        else:
            # program order (divergence T9): of several writes to one fractal keep the last (numpy does
            # not promise an order for repeated indices in one assignment)
            flat = dst_f.ravel()
            last = np.sort(flat.size - 1 - np.unique(flat[::-1], return_index=True)[1])
            self.dst, self.keep = np.array(flat[last], dtype=np.intp), last.astype(np.intp)

    @property
    def nbytes(self) -> int:
        return sum(a.nbytes + 112 for a in (self.src, self.dst, self.keep) if isinstance(a, np.ndarray))

    def run(self, core, ops) -> None:
        dst, src = ops[0], ops[1]
        r, n_f = self.r, self.n_f
        n = r * n_f * 512
        sdata = src.memory.data
        if self.src.__class__ is int:
            s0 = src.offset + 512 * self.src
            blocks = sdata[s0 : s0 + n].reshape(r, n_f, 512)
        else:
            blocks = sdata[src.offset : src.offset + self.src_end].reshape(-1, 512)[self.src]
        if self.dst.__class__ is int:
            d0 = dst.offset + 512 * self.dst
            _store_squares(self.bits, blocks, dst.memory.data[d0 : d0 + n].reshape(r, n_f, 512))
            return
        tmp = np.empty((r, n_f, 512), dtype=np.uint8)
        _store_squares(self.bits, blocks, tmp)
        region = dst.memory.data[dst.offset : dst.offset + self.dst_end].reshape(-1, 512)
        region[self.dst] = tmp.reshape(-1, 512)[self.keep]


def _store_squares(bits: int, blocks: np.ndarray, out: np.ndarray) -> None:
    """Transpose the (R, n_f, 512) source fractals `blocks` into the C-contiguous (R, n_f, 512) `out`."""
    if bits == 4:
        _b4_squares(blocks, out)
    else:
        np.copyto(_as_squares(bits, out), transposed_view(bits, blocks))


def _as_squares(bits: int, blocks: np.ndarray) -> np.ndarray:
    """View (R, n_f, 512) fractal bytes with the axes `transposed_view` produces."""
    r = blocks.shape[0]
    if bits == 16:
        return blocks.view("<u2").reshape(r, 16, 16)
    if bits == 8:
        return blocks.reshape(r, 32, 32)
    if bits == 32:
        return blocks.view("<u4").reshape(r, 2, 2, 8, 8)
    return blocks.reshape(r, 32, 2, 32)


def transposed_view(bits: int, blocks: np.ndarray) -> np.ndarray:
    """(R, n_f, 512) source fractal bytes -> an array whose C order is the destination fractal bytes.

    Implements the GEOMETRY table; the result is usually a strided view, copied once by the caller.
    """
    r = blocks.shape[0]
    if bits == 16:  # S = F0 (16x16) -> S^T
        return blocks.view("<u2").reshape(r, 16, 16).transpose(0, 2, 1)
    if bits == 8:  # S = F0 over F1 (32x32) -> S^T, split into fractals by rows
        return blocks.reshape(r, 32, 32).transpose(0, 2, 1)
    if bits == 32:
        # F[jj, row, a0] holds S[row, 8jj + a0]; out_j[a, c] = S^T[a, 8j + c] = F[a // 8, 8j + c, a % 8]:
        # index F as (jj, j, c, a0) and reorder to (j, jj, a0, c).
        return blocks.view("<u4").reshape(r, 2, 2, 8, 8).transpose(0, 2, 1, 4, 3)
    # b4: computed (not a view) by the pipeline below; (R, m, a % 2, k) = the 64 output rows a = 2m + a % 2.
    out = np.empty((r, 4, 512), dtype=np.uint8)
    _b4_squares(blocks, out)
    return out.reshape(r, 32, 2, 32)


# -- b4: the 64x64 nibble transpose in numpy ------------------------------------------------------------
#
# Byte B[row, m] of a square holds S[row, 2m] (low nibble) and S[row, 2m+1] (high nibble); output byte
# O[a, k] = S[2k, a] | S[2k+1, a] << 4 (docs/number_formats.md §4, module docstring). With row = 2k + p and
# a = 2m + q: O[2m+q, k] = nibble q of B[2k, m] | nibble q of B[2k+1, m] << 4. So the job is (1) a 2x2
# nibble swap between the p = 0 and p = 1 bytes of each (k, m) - X' = lo X | lo Y << 4, Y' = hi X | hi Y << 4
# - and (2) moving byte (k, p, m) of the square to (m, p, k) (the X'/Y' bytes become rows 2m/2m+1).
#
# numpy copies bytes one per cycle (a strided 64 KB byte transpose alone is ~20 us) and each ufunc call
# costs ~0.6 us, so the pipeline uses only calls that are fast on this data: u64 copies with long inner
# loops, SWAR on two contiguous halves, and u16 -> u8 casts (SIMD truncation). Byte address bits of one
# call (R squares, k = k43 k210, m = m43 m210 with m210 the byte inside a u64 word):
#   source  (R, k43, k210, p, m43, m210)
#   W1: u64 copy  -> Z  (p, k43, R, m43, k210, m210)      p on top: the swap works on two contiguous halves
#   SWAR: X = Z[p=0], Y = Z[p=1] -> X', Y' (delta swap of the high nibble of X with the low nibble of Y)
#   U: "unshuffle" moves the lowest address bits to the top with SIMD u32/u16 -> u8 casts in one call:
#      byte 4i + j of a u32 view at byte offset j -> row j of the output (j = m1 m0), then the same with
#      u16 for m2: the byte bits m2 m1 m0 leave, k0 k1 k2 enter -> T (m2, m1, m0, p, k43, R, m43, k210)
#   W2: u64 copy  -> dst (R, m43, m210, p, k43, k210)
# The last U leaves a gap between T's two halves: without it W2 reads 64 words at power-of-two strides
# that share 4 L1 sets and thrash (8 us instead of 4 for 64 KB).

_LO_NIBBLES = np.uint64(0x0F0F0F0F0F0F0F0F)
_FOUR = np.uint64(4)
_GAP = 136  # bytes between T's halves (not a multiple of 64, see above)


class _B4Work:
    """Scratch buffers and the fixed views into them for R squares (building a view costs ~1 us)."""

    def __init__(self, r: int) -> None:
        n = 2048 * r
        h, q = n // 2, n // 16
        a = np.empty(n + 8, np.uint8)  # Z (+8: the views at byte offsets 1..3 read up to 3 bytes past)
        b = np.empty(n + 8, np.uint8)  # swap temp, then the u32 unshuffle's output
        c = np.empty(n + _GAP, np.uint8)  # T
        za = a[:n].view("<u8")
        self.z = za.reshape(2, 4, r, 4, 8)  # W1 destination (p, k43, R, m43, k210)
        self.x, self.y, self.t = za[:q], za[q:], b[:h].view("<u8")[:q]
        # (source view, output view) per unshuffle; row j of the source = the u32 / u16 at bytes 4i + j /
        # 2i + j, whose u8 cast (truncation) is byte 4i + j / 2i + j
        self.unshuffles = [(np.ndarray((4, n // 4), "<u4", buffer=a, strides=(1, 4)), b[:n].reshape(4, -1)),
                           (np.ndarray((2, h), "<u2", buffer=b, strides=(1, 2)),
                            np.ndarray((2, h), np.uint8, buffer=c, strides=(h + _GAP, 1)))]
        # T (m2, m1, m0, p, k43, R, m43) words, read in destination order (R, m43, m2, m1, m0, p, k43)
        self.t_in_dst_order = np.ndarray((2, 2, 2, 2, 4, r, 4), "<u8", buffer=c,
                                         strides=(h + _GAP, n // 4, n // 8, n // 16, n // 64, 32, 8)
                                         ).transpose(5, 6, 0, 1, 2, 3, 4)


@lru_cache(maxsize=8)
def _b4_work(r: int, thread: int) -> _B4Work:
    """Per (square count, thread): a call never shares scratch with a concurrent call in another thread."""
    return _B4Work(r)


def _b4_squares(blocks: np.ndarray, out: np.ndarray) -> None:
    """b4 squares: (R, 4, 512) source fractal bytes -> C-contiguous `out` (R x 2048 bytes) = the destination
    fractals of each square (rows 16j..16j+15 of S^T in fractal j). Pipeline: see the comment above."""
    r = blocks.shape[0]
    w = _b4_work(r, threading.get_ident())
    np.copyto(w.z, blocks.view("<u8").reshape(r, 4, 8, 2, 4).transpose(3, 1, 0, 4, 2))
    x, y, t = w.x, w.y, w.t  # t = ((X >> 4) ^ Y) & 0x0F..; Y ^= t; X ^= t << 4 (swap hi X <-> lo Y)
    np.right_shift(x, _FOUR, out=t)
    np.bitwise_xor(t, y, out=t)
    np.bitwise_and(t, _LO_NIBBLES, out=t)
    np.bitwise_xor(y, t, out=y)
    np.left_shift(t, _FOUR, out=t)
    np.bitwise_xor(x, t, out=x)
    for pairs, halves in w.unshuffles:
        np.copyto(halves, pairs, casting="unsafe")
    np.copyto(out.view("<u8").reshape(r, 4, 2, 2, 2, 2, 4), w.t_in_dst_order)


# -- reference interpreter ----------------------------------------------------------------------------


def ref_load_data_with_transpose(dtype_bits: int, params, src: np.ndarray, dst: np.ndarray) -> np.ndarray:
    """Slow reference: plain loops over the doc's wording. Raw element arrays (4-bit: one nibble each)
    relative to the tensor starts; returns the new destination. No validation beyond what the loops need.
    """
    n_f, side, stacked = GEOMETRY[dtype_bits]
    c0 = 256 // dtype_bits  # elements per 32-B fractal row
    frac = 16 * c0  # elements per 512-B fractal
    frows, fcols = 16, c0
    v2 = isinstance(params, LoadData2dTransposeParamsV2)
    out = np.array(dst, copy=True)
    for i in range(params.repeatTimes):
        # 表3: startIndex = 方块矩阵ID; srcStride = 相邻迭代间 ... 单位是拼接后的方块矩阵的大小;
        # addrMode true: 递减，每次迭代在前一个地址的基础上减去srcStride.
        # 表4 (V2): startIndex 第几个分形; srcStride 单位为单个分形512字节; srcFracGap 迭代内源分形间隔.
        delta = -params.srcStride if params.addrMode else params.srcStride
        if v2:
            sources = [params.startIndex + i * delta + j * (params.srcFracGap + 1) for j in range(n_f)]
        else:
            square = params.startIndex + i * delta
            sources = [square * n_f + j for j in range(n_f)]
        # "源操作数中n个连续的分形将被合并为1个方块矩阵"
        sq = [[None] * side for _ in range(side)]
        for j, f in enumerate(sources):
            for r in range(frows):
                for c in range(fcols):
                    v = src[f * frac + r * fcols + c]
                    if stacked:  # b4/b8/b16: fractal j = square rows 16j..16j+15
                        sq[16 * j + r][c] = v
                    else:  # b32: "2个连续的16*8分形 ... 合并为1个16*16的方块矩阵" side by side
                        sq[r][8 * j + c] = v
        # "基于方块矩阵做转置"
        t = [[sq[c][r] for c in range(side)] for r in range(side)]
        # "转置后分裂为n个分形": dstGap from the end of the iteration's first fractal to the next one's
        # first fractal; dstFracGap between fractals inside an iteration (b16: one fractal, no effect).
        for j in range(n_f):
            d = i * (params.dstGap + 1) + j * (params.dstFracGap + 1)
            for r in range(frows):
                for c in range(fcols):
                    v = t[16 * j + r][c] if stacked else t[r][8 * j + c]
                    out[d * frac + r * fcols + c] = v
    return out


__all__ = ["GEOMETRY", "INSTR", "TransposeSpec", "load_data_with_transpose", "plan_transpose",
           "ref_load_data_with_transpose"]
