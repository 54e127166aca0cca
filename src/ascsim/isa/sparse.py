"""4:2 structured sparsity on Atlas A2/A3: LoadDataWithSparse, MmadWithSparse and the offline helpers.

Semantics (docs/load_data_with_sparse.md; 矩阵计算的搬入/LoadDataWithSparse.md, Mmad计算/MmadWithSparse.md,
矩阵计算分形介绍/辅助矩阵分形格式详解.md "4选2稀疏索引矩阵", 矩阵计算输入搬运约束.md; seed 004):

- The original weight matrix B (K x N, int8) has at most 2 nonzeros in every group of 4 consecutive
  K rows. Densifying keeps 2 values per group: dense B is (K/2) x N, dense row kd = 2g + s (group g,
  slot s), and each dense element gets a 2-bit index code in 0..2 (`densify_2to4`).
- Dense B lives in L1 as Zn with 32 x 16 int8 fractals (512 B). The codes live in L1 as Zn with 16 x 8
  byte fractals (128 B), one-to-one with the B fractals; a byte holds the codes of 4 consecutive dense
  rows of one column, code j in bits [2j+1:2j] (the doc's "reversed order": written MSB-first the
  digits of codes 1 2 0 1 read 1 0 2 1, i.e. byte 0x49) (`pack_sparse_index`).
- LoadDataWithSparse copies B fractal startIndex+i (512 B) to L0B fractal i and index fractal
  startIndex+i (128 B) into the sparse index buffer (a quarter of L0B).
- MmadWithSparse computes C[m][n] = sum_kd A[m][row(kd, n)] * Bd[kd][n], A being the full M x K int8
  matrix in L0A (Zz, K1 = ceil(k/32) over the original k), C int32 in L0C (Nz).

Choices where the docs leave a gap (reported to the lead for docs/divergences.md):
- Index-buffer address = L0B dst byte offset / 4, for the load and for MmadWithSparse (divergences.md S2).
- LoadData2DParams: srcStride/sid/dstGap/addrMode ignored ("其余参数未使用，无需配置"); ifTranspose=true
  rejected ("不支持转置功能"); startIndex in [0, 65535], repeatTimes in [0, 255], 0 = NOP.
- Slot-1 selection = element max(idx0, idx1 + 1): matches every row of MmadWithSparse.md 表2, so code
  pair (2, 0) selects element 2 twice ("X/X"), not element 1 (docs/divergences.md S4).
- Index code 3 in the used region is rejected by MmadWithSparse (codes "必须在{0, 1, 2}范围内").
- k need not be a multiple of 4: Kd = 2*ceil(k/4) dense rows are read and selected rows >= k (A's
  padding) contribute 0. m = 1 is not GEMV. cmatrixSource=true reads the bias row from BT address 0
  (as `ascsim.isa.mmad` does for the no-bias overload); int32 results saturate (Mmad.md 约束说明).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial

import numpy as np

from ..base.errors import ParamRangeError, UnsupportedError, cpp_rejects, doc_forbids
from ..engine.boundary import Extent, PreparedCall, copy_blocks, lookup, run_call
from ..engine.cache import PLANS
from ..engine.plan import Plan
from ..engine.record import ExecReport
from ..engine.state import CoreState
from ..machine import checks
from ..machine.layouts import R0, cdiv
from ..machine.memory import LocalTensor
from ..params import LoadData2DParams, MmadParams
from .mmad import VARIANTS, MmadSpec, reader, region
from .mmad import call as mmad_call

LOAD = "LoadDataWithSparse"
MMAD = "MmadWithSparse"

B_FRACTAL = 512  # bytes of one dense int8 Zn fractal (32 K x 16 N)
IDX_FRACTAL = 128  # bytes of one index fractal (16 N x 8 bytes = 16 x 32 two-bit codes)
K0 = 32  # int8 C0: dense rows per B fractal
IDX_RATIO = B_FRACTAL // IDX_FRACTAL  # index-buffer offset = L0B offset / 4 (docs/divergences.md S2)


# -- offline helpers: densify and pack --------------------------------------------------------------


def densify_2to4(b: np.ndarray, *, allow_overfull: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """Densify a 4:2-sparse int8 matrix B (K x N) into (dense, codes), both (ceil(K/4)*2) x N.

    Per group of 4 rows and per column, following the 稠密化算法 table of 辅助矩阵分形格式详解.md
    (4选2稀疏索引矩阵), X/Y being the nonzeros in row order:
    two nonzeros at p < q -> codes (p, q-1), dense (X, Y); one nonzero at p < 3 -> (p, 0), dense (X, 0);
    one nonzero at p = 3 -> (0, 2), dense (0, X); none -> (0, 0), dense (0, 0).
    K need not be a multiple of 4: the last group is padded with zero rows.
    A group with 3 or 4 nonzeros raises ParamRangeError, unless `allow_overfull`, which keeps the first
    two nonzeros (the rule MmadWithSparse.md 约束说明 states for the hardware).
    """
    instr = "densify_2to4"
    b = np.asarray(b)
    if b.ndim != 2:
        raise ParamRangeError(f"{instr}: b must be a 2-D K x N matrix, but got shape {b.shape}")
    if b.dtype != np.int8:
        raise ParamRangeError(f"{instr}: b must have dtype int8, but got {b.dtype}")
    k, n = b.shape
    g = cdiv(k, 4)
    padded = np.zeros((g * 4, n), dtype=np.int8)
    padded[:k] = b
    grp = padded.reshape(g, 4, n)
    nz = grp != 0
    count = nz.sum(axis=1)  # (g, n)
    if not allow_overfull and (count > 2).any():
        gi, ni = np.argwhere(count > 2)[0]
        raise ParamRangeError(
            f"{instr}: b must have at most 2 nonzeros in every group of 4 rows, but rows "
            f"{4 * gi}..{4 * gi + 3} of column {ni} hold {count[gi, ni]}")
    # Positions of the first and second nonzero (4 = none): argmax over a cumulative count.
    cum = np.cumsum(nz, axis=1)
    first = np.where(count >= 1, np.argmax(cum >= 1, axis=1), 4)
    second = np.where(count >= 2, np.argmax(cum >= 2, axis=1), 4)
    c0 = np.zeros((g, n), dtype=np.uint8)
    c1 = np.zeros((g, n), dtype=np.uint8)
    p0 = np.zeros((g, n), dtype=np.int64)  # element taken for dense slot 0
    p1 = np.ones((g, n), dtype=np.int64)  # element taken for dense slot 1
    two = count >= 2
    c0[two], c1[two] = first[two], second[two] - 1
    p0[two], p1[two] = first[two], second[two]
    one_lo = (count == 1) & (first < 3)
    c0[one_lo] = first[one_lo]
    p0[one_lo] = first[one_lo]
    one_hi = (count == 1) & (first == 3)
    c1[one_hi] = 2
    p1[one_hi] = 3
    rows = np.arange(g)[:, None]
    cols = np.arange(n)[None, :]
    v0 = np.where(count >= 1, grp[rows, p0, cols], 0)
    v1 = np.where(two | one_hi, grp[rows, p1, cols], 0)
    dense = np.stack([v0, v1], axis=1).reshape(2 * g, n).astype(np.int8)
    codes = np.stack([c0, c1], axis=1).reshape(2 * g, n)
    return dense, codes


def index_byte_offset(kd, n, n_cols: int):
    """Byte of the packed index of dense element (kd, n): Zn with 128-B fractals, one-to-one with the
    512-B B fractals (辅助矩阵分形格式详解.md 格式转换过程: (K1, N1, N0, K0), 4 codes per byte)."""
    return ((kd // K0) * cdiv(n_cols, R0) + n // R0) * IDX_FRACTAL + (n % R0) * (K0 // 4) + (kd % K0) // 4


def pack_sparse_index(codes: np.ndarray) -> np.ndarray:
    """Pack 2-bit codes (Kd x N, values 0..2) into the L1 Zn index layout, as a uint8 array.

    Code of dense row kd sits in bits [2j+1:2j] of its byte, j = kd % 4 (LoadDataWithSparse.md 功能说明
    "逆序排布"; seed 004). Kd is padded to a multiple of 32 and N to a multiple of 16 with code 0.
    """
    instr = "pack_sparse_index"
    codes = np.asarray(codes)
    if codes.ndim != 2:
        raise ParamRangeError(f"{instr}: codes must be a 2-D Kd x N matrix, but got shape {codes.shape}")
    if codes.size and (codes.min() < 0 or codes.max() > 2):
        raise ParamRangeError(f"{instr}: codes must be in 0..2, but got values in "
                              f"[{codes.min()}, {codes.max()}]")
    kd_n, n_n = codes.shape
    out = np.zeros(cdiv(kd_n, K0) * cdiv(n_n, R0) * IDX_FRACTAL, dtype=np.uint8)
    kd, n = np.meshgrid(np.arange(kd_n), np.arange(n_n), indexing="ij")
    shifted = (codes.astype(np.uint8) << (2 * (kd % 4)).astype(np.uint8)).astype(np.uint8)
    np.bitwise_or.at(out, index_byte_offset(kd, n, n_n).ravel(), shifted.ravel())
    return out


def unpack_sparse_index(raw: np.ndarray, kd_rows: int, n_cols: int) -> np.ndarray:
    """Inverse of `pack_sparse_index`: the Kd x N code matrix from packed Zn index bytes."""
    kd, n = np.meshgrid(np.arange(kd_rows), np.arange(n_cols), indexing="ij")
    byte = np.asarray(raw, dtype=np.uint8)[index_byte_offset(kd, n, n_cols)]
    return ((byte >> (2 * (kd % 4)).astype(np.uint8)) & 3).astype(np.uint8)


# -- LoadDataWithSparse -----------------------------------------------------------------------------


@dataclass(frozen=True)
class SparseLoadSpec:
    """Effective LoadDataWithSparse parameters (the plan cache key)."""

    startIndex: int
    repeatTimes: int


def plan_sparse_load(spec: SparseLoadSpec) -> tuple[Plan, Plan]:
    """(data plan, index plan): iteration i copies B fractal startIndex+i (512 B) to L0B fractal i and
    index fractal startIndex+i (128 B) to index fractal i (LoadDataWithSparse.md 图1: consecutive
    fractals, no stride). Element-level provenance for explain/draw, built on demand (`PLANS`)."""
    return PLANS.memo(("sparse", spec), lambda: _plan_sparse_load(spec))


def _plan_sparse_load(spec: SparseLoadSpec) -> tuple[Plan, Plan]:
    plans = []
    for size, what in ((B_FRACTAL, "data"), (IDX_FRACTAL, "index")):
        i = np.arange(spec.repeatTimes)[:, None]
        j = np.arange(size)[None, :]
        dst = i * size + j
        src = (spec.startIndex + i) * size + j
        plans.append(Plan.build(LOAD, 8, dst, src, info={"spec": spec, "part": what}))
    return _Pair(plans)


class _Pair(tuple):
    """The two plans of one load (a tuple that reports its size to the byte-capped cache)."""

    @property
    def nbytes(self) -> int:
        return sum(p.nbytes for p in self)


def index_buffer_tensor(core: CoreState, l0b: LocalTensor, length: int) -> LocalTensor:
    """The sparse-index-buffer view that belongs to L0B tensor `l0b`: byte offset = L0B offset / 4
    (docs/divergences.md S2: the docs give no address; the official example uses offset 0 for both)."""
    return LocalTensor(core.memory("SPARSE_IDX"), "SPARSE_IDX", l0b.offset // IDX_RATIO, "uint8_t", length)


def load_data_with_sparse(core: CoreState, dst: LocalTensor, src: LocalTensor, idx: LocalTensor,
                          params: LoadData2DParams) -> ExecReport:
    """`LoadDataWithSparse(dst, src, idx, loadDataParam)` (doc: LoadDataWithSparse.md).

    Only startIndex and repeatTimes are used; srcStride, sid, dstGap and addrMode are "未使用，无需配置"
    and ignored; ifTranspose=true is rejected ("不支持转置功能"). Through the call boundary: the index
    buffer (at the L0B address / 4) is a fourth operand, checked and recorded like the others.
    """
    pk = params.key() if params.__class__ is LoadData2DParams else None
    key = None if pk is None else (LOAD, core.chip.key, dst.memory.name, src.memory.name, idx.memory.name,
                                   dst.dtype.name, src.dtype.name, idx.dtype.name, pk)
    prep = lookup(key, lambda: _prepared_load(core, dst, src, idx, params))
    if prep.run is None:
        return run_call(core, prep, (dst, src, idx))
    # operand 3: the index buffer region of this L0B destination (in bounds exactly when the L0B
    # destination is: both scale by 4; sized to fit the buffer, so its extent check names any overrun)
    room = core.memory("SPARSE_IDX").size - dst.offset // IDX_RATIO
    idx_dst = index_buffer_tensor(core, dst, max(0, min(prep.spec.repeatTimes * IDX_FRACTAL, room)))
    return run_call(core, prep, (dst, src, idx, idx_dst))


def _prepared_load(core: CoreState, dst: LocalTensor, src: LocalTensor, idx: LocalTensor,
                   params: LoadData2DParams
                   ) -> PreparedCall:
    core.chip.check(LOAD, instr=LOAD)
    # LoadDataWithSparseImpl (asc-devkit kernel_operator_mm_base_impl.h, 2201): CheckTensorPhyPosition,
    # CheckTensorAlignment and enable_if<int8_t / uint8_t> — by memory: idx may be tagged A1 or B1 (P1)
    checks.position(LOAD, "dst", dst, ("L0B",), checks.PHYSICAL_POSITION)
    checks.position(LOAD, "src", src, ("L1",), checks.PHYSICAL_POSITION)
    checks.position(LOAD, "idx", idx, ("L1",), checks.PHYSICAL_POSITION)
    for what, t, want in (("dst", dst, "int8_t"), ("src", src, "int8_t"), ("idx", idx, "uint8_t")):
        if t.dtype.name != want:
            raise UnsupportedError(
                f"{LOAD}: {what} dtype must be {want}, but got {t.dtype.name}",
                basis=cpp_rejects("enable_if int8_t / uint8_t on LoadDataWithSparse"))
    core.chip.check(LOAD, "int8_t", "L1", "L0B", instr=LOAD)
    core.chip.check(LOAD, "uint8_t", "L1", "SPARSE_IDX", instr=LOAD)
    start = checks.field(LOAD, "startIndex", params.startIndex, 16, ctype="uint16_t")
    rep = checks.field(LOAD, "repeatTimes", params.repeatTimes, 8, ctype="uint8_t")
    if checks.flag(LOAD, "ifTranspose", params.ifTranspose):
        # the C++ API never passes ifTranspose to load_cbuf_to_cb_sp; the doc forbids it (divergence D9)
        raise UnsupportedError(
            f"{LOAD}: ifTranspose must be false (LoadDataWithSparse.md 约束说明: 不支持转置功能), but got "
            "True",
            basis=doc_forbids("LoadDataWithSparse.md 约束说明: 不支持转置功能", "D9"))
    aligns = ((0, 512, "dst (L0B)"), (1, 32, "src (L1)"), (2, 32, "idx (L1)"))
    if rep == 0:
        return PreparedCall(LOAD, aligns=aligns)  # doc: repeatTimes = 0 is a NOP
    spec = SparseLoadSpec(start, rep)
    n = rep * (B_FRACTAL + IDX_FRACTAL)
    return PreparedCall(LOAD, spec, planner=lambda: plan_sparse_load(spec)[0], aligns=aligns,
                    extents=(Extent(0, 0, rep * B_FRACTAL, True, "destination"),
                             Extent(1, start * B_FRACTAL, (start + rep) * B_FRACTAL, False, "source"),
                             Extent(3, 0, rep * IDX_FRACTAL, True, "destination (sparse index buffer)"),
                             Extent(2, start * IDX_FRACTAL, (start + rep) * IDX_FRACTAL, False, "source")),
                    run=partial(_run_load, start, rep), counts=(n, n, 0))


def _run_load(start: int, rep: int, core: CoreState, ops) -> None:
    dst, src, idx, idx_dst = ops
    copy_blocks(dst.memory, dst.offset, 0, src.memory, src.offset + start * B_FRACTAL, 0, 1, rep * B_FRACTAL)
    copy_blocks(idx_dst.memory, idx_dst.offset, 0, idx.memory, idx.offset + start * IDX_FRACTAL, 0, 1,
                rep * IDX_FRACTAL)


# -- MmadWithSparse ---------------------------------------------------------------------------------


def sparse_rows(codes: np.ndarray) -> np.ndarray:
    """Original K row selected for each dense element (Kd x N) from its codes (MmadWithSparse.md 表2).

    Slot 0 (even kd) takes element idx0 of its group; slot 1 takes element max(idx0, idx1 + 1). The max
    reproduces every row of 表2, including (2'b10, 2'b00) -> "X/X" at element 2 and (2'b01, 2'b00) ->
    "X/X" at element 1, where a plain idx1 + 1 would give element 1 for (2, 0) (docs/divergences.md S4).
    """
    g = 4 * (np.arange(codes.shape[0]) // 2)[:, None]
    idx0 = codes[0::2].astype(np.int64)
    idx1 = codes[1::2].astype(np.int64)
    rows = np.empty(codes.shape, dtype=np.int64)
    rows[0::2] = idx0
    rows[1::2] = np.maximum(idx0, idx1 + 1)
    return g + rows


def sparse_codes(idx: LocalTensor, kd: int, n: int) -> np.ndarray:
    """The Kd x N index codes in the sparse index buffer `idx`, read as one view of its bytes: Zn of
    16 x 8-byte fractals [Kd1][N1][n % 16][(kd % 32) // 4], code of kd in bits [2j+1:2j], j = kd % 4
    (`index_byte_offset`; LoadDataWithSparse.md "逆序排布")."""
    kd1, n1 = cdiv(kd, K0), cdiv(n, R0)
    raw = region(idx, kd1 * n1 * IDX_FRACTAL).reshape(kd1, n1, R0, K0 // 4)
    codes = (raw[..., None] >> np.array([0, 2, 4, 6], np.uint8)) & 3  # [..., kd % 4]
    return codes.transpose(0, 3, 4, 1, 2).reshape(kd1 * K0, n1 * R0)[:kd, :n]


def expand_sparse_b(dense: np.ndarray, codes: np.ndarray) -> np.ndarray:
    """The 2*Kd x N matrix B the selection multiplies A by: row 4g + r holds the dense values whose codes
    select element r of group g (`sparse_rows`); two slots selecting one element ("X/X") add up."""
    kd, n = dense.shape
    g = kd // 2
    pos = sparse_rows(codes).reshape(g, 2, n) - 4 * np.arange(g)[:, None, None]  # element 0..3 in the group
    hit = pos[:, :, None, :] == np.arange(4)[None, None, :, None]  # (g, slot, element, n)
    return (dense.reshape(g, 2, 1, n) * hit).sum(axis=1).reshape(4 * g, n)


def _sparse_operands(spec: MmadSpec) -> Callable[[Sequence[LocalTensor]], tuple[np.ndarray, np.ndarray]]:
    """A (Zz over the original k) and the expanded B; refuses an index code 3 before anything is written."""
    m, n, k, kd = spec.m, spec.n, spec.k, spec.b_rows
    read_a = reader(spec.a, spec.a_layout, m, k, spec.blas)
    read_bd = reader(spec.b, "ZN", kd, n, "int64")

    def read(ops: Sequence[LocalTensor]) -> tuple[np.ndarray, np.ndarray]:
        _, a, b, _, idx = ops
        codes = sparse_codes(idx, kd, n)
        if (codes > 2).any():
            bad_kd, bad_n = (int(v) for v in np.argwhere(codes > 2)[0])
            byte = idx.offset + int(index_byte_offset(bad_kd, bad_n, n))
            raise ParamRangeError(
                f"{MMAD}: sparse index code of dense element (kd={bad_kd}, n={bad_n}) must be 0, 1 or 2, "
                f"but got 3 (SPARSE_IDX byte 0x{byte:x}; was it loaded with LoadDataWithSparse?)",
                                  basis=doc_forbids('LoadDataWithSparse.md: 索引必须在{0,1,2}范围内', 'S6'))
        # Selected rows >= k fall in A's fractal padding, which Mmad ignores: they contribute 0.
        return read_a(a), expand_sparse_b(read_bd(b), codes)[:k].astype(spec.blas)

    return read


def _index_bytes(spec: MmadSpec) -> int:
    """Bytes of the index fractals one call reads (one per dense B fractal)."""
    return cdiv(spec.b_rows, K0) * cdiv(spec.n, R0) * IDX_FRACTAL


def _sparse_extras(spec: MmadSpec) -> list[tuple[Extent, int]]:
    return [(Extent(4, 0, _index_bytes(spec), False, "sparse index buffer"), spec.b_rows * spec.n // 4)]


def _sparse_ops(core: CoreState, spec: MmadSpec, a: LocalTensor, b: LocalTensor) -> tuple[LocalTensor]:
    return (index_buffer_tensor(core, b, _index_bytes(spec)),)


def mmad_with_sparse(core: CoreState, c: LocalTensor, a: LocalTensor, b: LocalTensor, params: MmadParams
                     ) -> ExecReport:
    """`MmadWithSparse(dst, fm, filter, mmadParams)` (doc: Mmad计算/MmadWithSparse.md).

    C[m][n] (+)= sum_kd A[m][row(kd, n)] * Bd[kd][n] for kd < 2*ceil(k/4), row() from `sparse_rows` on
    the codes in the sparse index buffer at L0B offset / 4. A is read as Zz with K1 = ceil(k/32) over the
    original k; selected rows >= k fall in A's fractal padding, which Mmad ignores, so they contribute 0.
    m = 1 is not GEMV ("MmadWithSparse接口不支持Gemv模式"): A stays Zz. Validation (the MmadWithSparse row
    of `ascsim.isa.mmad.VARIANTS`), the initial value of C and the int32 saturation are Mmad's
    (cmatrixSource=true reads the bias row from BT address 0); everything runs through the call boundary.
    """
    return mmad_call(VARIANTS[MMAD], core, c, a, b, params, None, _sparse_operands, _sparse_extras,
                     _sparse_ops)
