"""The call examples (调用示例) and worked numbers of the 2D-load / Mmad / GM-copy pages, as literal tests.

Each test transcribes one example of ascendc-docs/矩阵计算（ISASI）/ (page and section in its docstring): the
C++ parameter values, loop counts and tensor offsets are copied as written, and the result is compared with
numpy built straight from the doc text — the fractal formulas of 关键分形格式详解.md / 辅助矩阵分形格式详解.md
("pad -> reshape -> transpose", written out in tests/support/doc_fractals.py), never ascsim's own layout
helpers. Examples that already have a literal test in test_load2d.py, test_transpose.py, test_sparse.py,
test_mx.py, test_mmad.py or test_copy.py are not repeated. Where a snippet leaves a value open (the L1
padding, a loop the sample hides), the smallest value consistent with the snippet's offsets is used and the
docstring says so.
"""

from __future__ import annotations

import numpy as np
import pytest
from support.doc_fractals import cdiv, doc_densify, nz, pad2, unlayout, zn, zz

from ascsim import AlignmentError, Core
from ascsim.params import (
    DataCopyParams,
    Dn2NzParams,
    FixpipeParamsArch3510,
    FixpipeParamsV220,
    Load2DBitModeParam,
    LoadData2DParams,
    LoadData2DParamsV2,
    LoadData2dTransposeParams,
    MmadParams,
)

MARKER = 0xCD  # fresh on-chip memory (README): bytes an instruction did not write keep it


def float_bound(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Mmad's accumulation order / internal precision are undocumented (divergences M2): allow 1e-6·K·|A||B|
    per element, far below the error of any misplaced or padding element."""
    return 1e-6 * a.shape[1] * (np.abs(a) @ np.abs(b)) + 1e-30


# ============================================================ LoadData_2D.md 关键特性说明


def test_load2d_8_float_fractals_to_l0b_in_two_calls() -> None:
    """LoadData_2D.md 非连续搬入, third example: 8 float fractals L1 -> L0B, 2 calls, each call moves src and
    dst by one fractal; repeatTimes 4, srcStride 2, dstGap 1. Call c writes dst fractals c, c+2, c+4, c+6
    from src fractals c, c+2, c+4, c+6, so the two calls interleave into a dense copy."""
    core = Core("a2", strict=True)
    vals = (np.arange(8)[:, None] * 1000 + np.arange(128)[None, :]).astype(np.float32)  # fractal f: f*1000+e
    src = core.tensor("B1", "float", 8 * 128, data=vals.ravel())
    dst = core.tensor("B2", "float", 8 * 128)
    p = LoadData2DParams()
    p.repeatTimes, p.srcStride, p.dstGap = 4, 2, 1
    core.load_data(dst[0], src[0], p)
    got = dst.bytes().reshape(8, 512)
    assert (got[1::2] == MARKER).all()  # after call 0 only the even fractals are written
    np.testing.assert_array_equal(dst.read().reshape(8, 128)[0::2], vals[0::2])
    core.load_data(dst[128], src[128], p)
    np.testing.assert_array_equal(dst.read().reshape(8, 128), vals)


def test_load2d_6_half_fractals_transposed_in_two_calls() -> None:
    """LoadData_2D.md 分形转置, second example: 6 half fractals L1 -> L0A with ifTranspose, 2 calls, each
    moving src and dst by one fractal; repeatTimes 3, srcStride 2, dstGap 1 -> every fractal lands in
    place, transposed."""
    core = Core("a2", strict=True)
    x = (np.arange(6 * 256) % 2048).astype(np.float16).reshape(6, 16, 16)  # exact in half
    src = core.tensor("A1", "half", 6 * 256, data=x.ravel())
    dst = core.tensor("A2", "half", 6 * 256)
    p = LoadData2DParams()
    p.repeatTimes, p.srcStride, p.dstGap, p.ifTranspose = 3, 2, 1, True
    for c in range(2):
        core.load_data(dst[c * 256], src[c * 256], p)
    np.testing.assert_array_equal(dst.read().reshape(6, 16, 16), x.transpose(0, 2, 1))


# ============================================================ LoadData_2D_BitMode.md 调用示例 示例二


def test_bitmode_example_2_setters() -> None:
    """LoadData_2D_BitMode.md 示例二: the Set functions build the same parameter as 示例一's struct, and the
    L1 -> L0A Nz2Nz load of a 32x32 half A (Nz, 2 M fractals) copies it unchanged."""
    core = Core("ascend950", strict=True)
    a = (np.arange(32 * 32) % 2048).astype(np.float16).reshape(32, 32)
    src = core.tensor("A1", "half", 4 * 256, data=nz(a, 16))
    dst = core.tensor("A2", "half", 4 * 256)
    bm = Load2DBitModeParam()
    bm.SetMStartPosition(0)
    bm.SetKStartPosition(0)
    bm.SetMStep(2)
    bm.SetKStep(2)
    bm.SetSrcStride(2)
    bm.SetDstStride(2)
    bm.SetIfTranspose(False)
    # 示例一 (LoadData2DParamsV2 -> Load2DBitModeParam) must give the same words
    v2 = LoadData2DParamsV2()
    v2.mStep, v2.kStep, v2.srcStride, v2.dstStride = 2, 2, 2, 2
    assert (bm.GetConfig0(), bm.GetConfig1()) == (Load2DBitModeParam(v2).GetConfig0(),
                                                   Load2DBitModeParam(v2).GetConfig1())
    core.load_data(dst, src, bm, dst_pos="A2", src_pos="A1")  # LoadData<A2, A1, half>
    np.testing.assert_array_equal(unlayout(dst.read(), nz, 32, 32, 16), a)


# ======================================================== LoadDataWithTranspose.md 调用示例 + Mmad + Fixpipe

M, K, N = 40, 70, 50  # "输入a矩阵 shape为[40,70]，输入b矩阵 shape为[70,50]"


def _ldwt_flow(dtype: str, rng: np.random.Generator):
    """Transcribes the int8 / half / float snippets. L1 contents are not shown in the snippets; they are
    the padded layouts the snippets' offsets imply (stated per case)."""
    core = Core("a2", strict=True)
    P = LoadData2dTransposeParams
    if dtype == "int8_t":
        a = rng.integers(-128, 128, (M, K)).astype(np.int8)
        b = rng.integers(-128, 128, (K, N)).astype(np.int8)
        fs, fnum = (16, 32 // 1), 2
    else:
        npt = np.float16 if dtype == "half" else np.float32
        a = rng.standard_normal((M, K)).astype(npt)
        b = rng.standard_normal((K, N)).astype(npt)
        fs, fnum = (16, 32 // (2 if dtype == "half" else 4)), (1 if dtype == "half" else 2)
    fsize = fs[0] * fs[1]
    c0 = fs[1]
    if dtype != "float":
        # A: "Nz -> Zz". L1 holds Nz(Aᵀ) (K rows, M cols); srcOffset = ceil(k/(16·fractalNum)) squares per
        # M column block, so Aᵀ's rows are padded to ceil(k/(16·fractalNum))·16·fractalNum.
        kp = cdiv(K, fs[0] * fnum) * fs[0] * fnum
        mp = cdiv(M, fs[1]) * fs[1]
        a1 = core.tensor("A1", dtype, kp * mp, data=nz(pad2(a.T, kp, mp), c0))
        dst_off = cdiv(K, fs[1]) * fsize * fnum
        src_off = cdiv(K, fs[0] * fnum) * fsize * fnum
        pa = P()
        pa.startIndex = 0
        pa.repeatTimes = cdiv(K, fs[0] * fnum)
        pa.srcStride = 1
        pa.dstGap = 0
        pa.dstFracGap = cdiv(K, fs[1]) - 1
        loops_a = cdiv(M, fs[1])
        a2 = core.tensor("A2", dtype, loops_a * dst_off)
        for i in range(loops_a):
            core.load_data_with_transpose(a2[i * dst_off], a1[i * src_off], pa)
        want_a = zz(pad2(a, loops_a * fs[1], cdiv(K, c0) * c0), c0)
        # B: "Nz -> Zn". L1 holds Nz(B) whose column stride is srcStride = ceil(k/(16·fractalNum)) squares.
        kpb = cdiv(K, fs[0] * fnum) * fs[0] * fnum
        npb = cdiv(N, fs[1]) * fs[1]
        b1 = core.tensor("B1", dtype, kpb * npb, data=nz(pad2(b, kpb, npb), c0))
        dst_off_b = cdiv(N, fs[0] * fnum) * fsize * fnum
        src_off_b = fsize * fnum
        pb = P()
        pb.startIndex = 0
        pb.repeatTimes = cdiv(N, fs[1])
        pb.srcStride = cdiv(K, fs[0] * fnum)
        pb.dstGap = 1 if dtype == "int8_t" else 0
        pb.dstFracGap = 0
        loops_b = cdiv(K, fs[0] * fnum)
        b2 = core.tensor("B2", dtype, loops_b * dst_off_b)
        for i in range(loops_b):
            core.load_data_with_transpose(b2[i * dst_off_b], b1[i * src_off_b], pb)
        want_b = zn(pad2(b, kpb, cdiv(N, 16) * 16), c0)
    else:
        # A: "Zz -> Zz" (约束说明: fp32 needs ZZ/ZN in L1 so two consecutive 16x8 fractals form a square).
        # L1 holds Zz(Aᵀ) with 16x8 fractals; srcStride = ceil(m/16) squares = 2·ceil(m/16) fractals per
        # fractal row, so Aᵀ's columns are padded to ceil(m/16)·16 and its rows to ceil(k/16)·16.
        a1 = core.tensor("A1", dtype, 80 * 48, data=zz(pad2(a.T, cdiv(K, 16) * 16, cdiv(M, 16) * 16), 8))
        dst_off = cdiv(K, fs[1] * fnum) * fsize * fnum
        src_off = fsize * fnum
        pa = P()
        pa.startIndex = 0
        pa.repeatTimes = cdiv(K, fs[1] * fnum)
        pa.srcStride = cdiv(M, fs[1] * fnum)
        pa.dstGap = 1
        pa.dstFracGap = 0
        loops_a = cdiv(M, fs[1] * fnum)
        a2 = core.tensor("A2", dtype, loops_a * dst_off)
        for i in range(loops_a):
            core.load_data_with_transpose(a2[i * dst_off], a1[i * src_off], pa)
        want_a = zz(pad2(a, loops_a * 16, cdiv(K, 16) * 16), 8)  # K pitch ceil(k/16)*16: kDirectionAlign
        # B: the snippet's comment says "Nz -> Zn", but srcOffsetB = ceil(n/16) squares per 16 K rows and
        # srcStride 1 square (two consecutive 16x8 fractals side by side) describe Zz(B) with 16x8 fractals.
        b1 = core.tensor("B1", dtype, 80 * 64, data=zz(pad2(b, cdiv(K, 16) * 16, cdiv(N, 16) * 16), 8))
        dst_off_b = cdiv(N, fs[0]) * fsize * fnum
        src_off_b = cdiv(N, fs[1] * fnum) * fsize * fnum
        pb = P()
        pb.startIndex = 0
        pb.repeatTimes = cdiv(N, fs[1] * fnum)
        pb.srcStride = 1
        pb.dstGap = 0
        pb.dstFracGap = cdiv(N, fs[0]) - 1
        loops_b = cdiv(K, fs[0])
        b2 = core.tensor("B2", dtype, loops_b * dst_off_b)
        for i in range(loops_b):
            core.load_data_with_transpose(b2[i * dst_off_b], b1[i * src_off_b], pb)
        want_b = zn(pad2(b, cdiv(K, 16) * 16, cdiv(N, 16) * 16), 8)
    return core, a, b, a2, b2, want_a, want_b


@pytest.mark.parametrize("dtype", ["int8_t", "half", "float"])
def test_ldwt_call_examples_40x70x50_then_mmad_and_fixpipe(dtype: str) -> None:
    """LoadDataWithTranspose.md 调用示例 (b8 / int8_t / half / float, A and B transposed): the A loop gives
    Zz(A), the B loop Zn(B); then Mmad (kDirectionAlign for float A loaded transposed, K-方向对齐约束.md)
    and the Fixpipe（L0C到GM数据搬运）.md 调用示例 (V220, ndNum 1, srcStride = CeilAlign(baseM, 16),
    nSize = dstStride = baseN) give C = A·B in GM, row-major."""
    core, a, b, a2, b2, want_a, want_b = _ldwt_flow(dtype, np.random.default_rng(len(dtype)))
    np.testing.assert_array_equal(a2.read(), want_a)
    np.testing.assert_array_equal(b2.read(), want_b)
    c_type = "int32_t" if dtype == "int8_t" else "float"
    c = core.tensor("CO1", c_type, cdiv(M, 16) * 16 * cdiv(N, 16) * 16)
    mp = MmadParams(M, N, K)
    mp.kDirectionAlign = dtype == "float"
    core.mmad(c, a2, b2, mp)
    gm = core.global_tensor(c_type, M * N)
    fp = FixpipeParamsV220()
    fp.ndNum, fp.srcNdStride, fp.dstNdStride = 1, 0, 0
    fp.mSize = M
    fp.srcStride = cdiv(M, 16) * 16  # CeilAlign(baseM, CUBE_BLOCK)
    fp.nSize = N
    fp.dstStride = N
    core.fixpipe(gm, c, fp)
    got = gm.read().reshape(M, N)
    if dtype == "int8_t":
        np.testing.assert_array_equal(got, a.astype(np.int64) @ b.astype(np.int64))
    else:
        a64, b64 = a.astype(np.float64), b.astype(np.float64)
        assert (np.abs(got - a64 @ b64) <= float_bound(a64, b64)).all()


def test_fixpipe_call_example_arch3510() -> None:
    """Fixpipe（L0C到GM数据搬运）.md 调用示例, __NPU_ARCH__ == 3510 branch: FixpipeParamsArch3510<ROW_MAJOR>
    with only mSize / srcStride / nSize / dstStride set, half A/B -> float C (here C of 40x50 placed in
    L0C by the Nz formula, M1 = ceil(40/16) = 3 fractal rows per column)."""
    core = Core("ascend950", strict=True)
    cm = np.random.default_rng(3).standard_normal((M, N)).astype(np.float32)
    c = core.tensor("CO1", "float", 48 * 64, data=nz(cm, 16))
    gm = core.global_tensor("float", M * N)
    fp = FixpipeParamsArch3510()
    fp.mSize, fp.srcStride, fp.nSize, fp.dstStride = M, cdiv(M, 16) * 16, N, N
    core.fixpipe(gm, c, fp)  # Fixpipe<float, float, CFG_ROW_MAJOR>
    np.testing.assert_array_equal(gm.read().reshape(M, N), cm)


# ============================================================ LoadDataWithSparse.md 图1 / MmadWithSparse.md


def test_sparse_load_figure_1_start_index_1_repeat_5() -> None:
    """LoadDataWithSparse.md 图1: startIndex = 1, repeatTimes = 5 moves 5 consecutive data fractals and 5
    consecutive 128-B index fractals, starting at fractal 1 (LoadData2DParams: "0为源操作数中第1个分形")."""
    core = Core("a2", strict=True)
    data = np.random.default_rng(8).integers(-128, 128, (7, 512)).astype(np.int8)
    src = core.tensor("B1", "int8_t", 7 * 512, data=data.ravel())
    codes = np.random.default_rng(4).integers(0, 3, (7 * 128, 4))
    idx_bytes = (codes * (4 ** np.arange(4))).sum(axis=1).astype(np.uint8)  # 4 codes of {0,1,2} per byte
    idx = core.tensor("B1", "uint8_t", 7 * 128, data=idx_bytes)
    dst = core.tensor("B2", "int8_t", 5 * 512)
    p = LoadData2DParams()
    p.startIndex, p.repeatTimes = 1, 5
    core.load_data_with_sparse(dst, src, idx, p)
    np.testing.assert_array_equal(dst.read().reshape(5, 512), data[1:6])
    buf = core.memory("SPARSE_IDX").data  # where the index fractals land is ascsim's choice (divergences S2)
    np.testing.assert_array_equal(buf[dst.offset // 4 : dst.offset // 4 + 5 * 128], idx_bytes[128:768])



def test_mmad_with_sparse_call_example_128x64x128() -> None:
    """MmadWithSparse.md 调用示例: m = 128, k = 64, n = 128, MmadWithSparse(c, a2, b2, {m, n, k, false, 0,
    false, false, false}). SplitA / SplitB are not shown: A goes to L0A as Zz, the dense B and its index
    (idxB1Local of bSize/4 bytes, index Zn with 16x32 codes = 128 B per fractal, 4 codes per byte in reverse
    order: "1 2 0 1" is stored high-to-low as "1 0 2 1") go through one LoadDataWithSparse of all
    fractals."""
    m, k, n = 128, 64, 128
    rng = np.random.default_rng(5)
    a = rng.integers(-128, 128, (m, k)).astype(np.int8)
    b = rng.integers(-128, 128, (k, n)).astype(np.int8)
    for g in range(k // 4):  # keep 0, 1 or 2 nonzeros per group of 4 along K
        for j in range(n):
            keep = rng.choice(4, rng.integers(0, 3), replace=False)
            b[4 * g + np.setdiff1d(np.arange(4), keep), j] = 0
    dense, codes = doc_densify(b)
    core = Core("a2", strict=True)
    b_size = dense.size
    a2 = core.tensor("A2", "int8_t", m * k, data=zz(a, 32))
    b1 = core.tensor("B1", "int8_t", b_size, data=zn(dense, 32))
    zcodes = zn(codes, 32).reshape(-1, 4)
    idx = core.tensor("B1", "uint8_t", b_size // 4, data=(zcodes * (4 ** np.arange(4))).sum(axis=1))
    b2 = core.tensor("B2", "int8_t", b_size)
    core.load_data_with_sparse(b2, b1, idx, LoadData2DParams(0, b_size // 512))
    c = core.tensor("CO1", "int32_t", m * n)
    core.mmad_with_sparse(c, a2, b2, MmadParams(m, n, k, False, 0, False, False, False))
    np.testing.assert_array_equal(unlayout(c.read(), nz, m, n, 16), a.astype(np.int64) @ b.astype(np.int64))


# ============================================================ Mmad.md 约束说明: M=30, K=70, N=40


@pytest.mark.parametrize("chip", ["a2", "ascend950"])
def test_mmad_m30_k70_n40_invalid_data_ignored(chip: str) -> None:
    """Mmad.md 约束说明: half, M=30, K=70, N=40 -> L0A holds 2x5 16x16 fractals, L0B 5x3, L0C 2x3; the
    bottom-right A fractal has only 14x6 valid elements, "其他无效数据在计算中会被忽略". Every padding element
    of A and B is NaN here, and the operand tensors are exactly those fractal counts (strict core: any
    access past them raises)."""
    rng = np.random.default_rng(6)
    a = rng.standard_normal((30, 70)).astype(np.float16)
    b = rng.standard_normal((70, 40)).astype(np.float16)
    core = Core(chip, strict=True)
    a_flat = zz(a, 16, fill=np.nan) if core.chip.l0a_format == "ZZ" else nz(a, 16, fill=np.nan)
    assert a_flat.size == 2 * 5 * 256
    ta = core.tensor("A2", "half", 2 * 5 * 256, data=a_flat)
    tb = core.tensor("B2", "half", 5 * 3 * 256, data=zn(b, 16, fill=np.nan))
    tc = core.tensor("CO1", "float", 2 * 3 * 256)
    core.mmad(tc, ta, tb, MmadParams(30, 40, 70))
    got = unlayout(tc.read(), nz, 30, 40, 16)
    a64, b64 = a.astype(np.float64), b.astype(np.float64)
    assert np.isfinite(got).all()
    assert (np.abs(got - a64 @ b64) <= float_bound(a64, b64)).all()


# ============================================================ GEMV.md


@pytest.mark.parametrize("chip", ["a2", "ascend950"])
@pytest.mark.parametrize(("k", "n"), [(256, 32), (64, 256)], ids=["advantage-k256-n32", "example-n256"])
def test_gemv_examples(chip: str, k: int, n: int) -> None:
    """GEMV.md. 使用优势: M=1, K=256, N=32 half — the 1x256 vector is one 16x16 fractal, moved L1 -> L0A by
    one LoadData call; m = 1 reads it as 256 contiguous halves. 使用示例: C of 1x256 is 16 sub-vectors of
    1x16, "占用16*1024B = 16384B(f162f32)，其中有效数据仅仅为16*64B". The example's K = 4096 is outside
    Mmad.md 表4 (k ∈ [0, 4095]) and its 4096x256 half B (2 MiB) does not fit L0B, so its K is reduced to 64
    here. The L0C tensor is exactly n/16 x 1024 B on a strict core."""
    rng = np.random.default_rng(k + n)
    a = rng.standard_normal(k).astype(np.float16)
    b = rng.standard_normal((k, n)).astype(np.float16)
    core = Core(chip, strict=True)
    fracs = cdiv(k, 256)  # the vector seen as 16x16 fractals (K = 64: one fractal, zero tail)
    a1 = core.tensor("A1", "half", fracs * 256, data=np.pad(a, (0, fracs * 256 - k)))
    a2 = core.tensor("A2", "half", fracs * 256)
    core.load_data(a2, a1, LoadData2DParams(0, fracs, 1))
    b2 = core.tensor("B2", "half", k * n, data=zn(b, 16))
    c = core.tensor("CO1", "float", (n // 16) * 1024 // 4)
    assert c.nbytes == (n // 16) * 1024
    mp = MmadParams()
    mp.m = 1  # "设置m = 1自动开启GEMV能力"
    mp.n = n
    mp.k = k
    core.mmad(c, a2, b2, mp)
    j = np.arange(n)
    got = c.read()[(j // 16) * 256 + j % 16]  # sub-vector j//16 at 1024 B * (j//16), valid lowest 64 B
    a64, b64 = a.astype(np.float64)[None, :], b.astype(np.float64)
    assert (np.abs(got - (a64 @ b64)[0]) <= float_bound(a64, b64)[0]).all()


def test_gemv_a_still_512_byte_aligned() -> None:
    """Mmad.md 约束说明 / GEMV.md 特性约束 1: "开启GEMV的情况下，A矩阵的起始地址仍要求512字节对齐"."""
    core = Core("a2")
    a = core.tensor("A2", "half", 256, offset=32)
    b = core.tensor("B2", "half", 256, data=np.ones(256))
    c = core.tensor("CO1", "float", 256)
    with pytest.raises(AlignmentError, match=r"^Mmad: fm \(A\) address must be 512-byte aligned"):
        core.mmad(c, a, b, MmadParams(1, 16, 16))
    assert (c.bytes() == MARKER).all()


# ============================================================ K-方向对齐约束.md: K=44 / K=36


@pytest.mark.parametrize(("k", "align", "pitch"),
                         [(44, True, 6), (36, True, 6), (44, False, 6), (36, False, 5)])
def test_k_direction_align_fractals_read(k: int, align: bool, pitch: int) -> None:
    """K-方向对齐约束.md (float, A2): kDirectionAlign=true aligns K to ceil(K/16)*16 (K=44 and K=36 -> 48),
    false to ceil(K/8)*8 (44 -> 48, 36 -> 40). "对于K=36的情况，虽然对齐后也是48，但只有其中的10个分形块会被
    读入CUBE": A (M = 32, two fractal rows, so the K pitch matters) and B (N = 16) are laid out with `pitch`
    K fractals of 16x8 / 8x16; every element past K — including the whole 6th K fractal of A and of B for
    K=36 with kDirectionAlign — is NaN, and the result must not see it."""
    m, n = 32, 16
    rng = np.random.default_rng(k)
    a = rng.standard_normal((m, k)).astype(np.float32)
    b = rng.standard_normal((k, n)).astype(np.float32)
    core = Core("a2", strict=True)
    ta = core.tensor("A2", "float", m * pitch * 8, data=zz(pad2(a, m, pitch * 8, np.nan), 8))
    tb = core.tensor("B2", "float", pitch * 8 * n, data=zn(pad2(b, pitch * 8, n, np.nan), 8))
    tc = core.tensor("CO1", "float", m * n)
    mp = MmadParams(m, n, k)
    mp.kDirectionAlign = align
    core.mmad(tc, ta, tb, mp)
    got = unlayout(tc.read(), nz, m, n, 16)
    a64, b64 = a.astype(np.float64), b.astype(np.float64)
    assert np.isfinite(got).all()
    assert (np.abs(got - a64 @ b64) <= float_bound(a64, b64)).all()


# ============================================================ DataCopy GM -> L1


def test_datacopy_contiguous_call_example_count_128() -> None:
    """DataCopy（GMToL1连续数据搬运）.md 调用示例: count = 128 halfs (256 B, 32-B aligned) from GM to an A1
    tensor at address 0; nothing past 256 B is written."""
    core = Core("a2", strict=True)
    x = np.arange(128).astype(np.float16)
    src = core.global_tensor("half", x)
    dst = core.tensor("A1", "half", 128, offset=0)
    rep = core.data_copy(dst, src, 128)
    np.testing.assert_array_equal(dst.read(), x)
    assert rep.bytes_written == 256
    assert (core.memory("L1").data[256:1024] == MARKER).all()


def test_datacopy_params_one_block_equals_count_copy() -> None:
    """DataCopy（GMToL1连续数据搬运）.md 图1 via the DataCopyParams form: blockCount 1, blockLen 8 (x32 B)
    moves the same 128 halfs."""
    core = Core("a2")
    x = np.arange(128).astype(np.float16)
    dst = core.tensor("A1", "half", 128)
    core.data_copy(dst, core.global_tensor("half", x), DataCopyParams(1, 8, 0, 0))
    np.testing.assert_array_equal(dst.read(), x)


def test_dn2nz_continuous_example() -> None:
    """DataCopy（GMToL1随路转换-DN2NZ搬运）.md 连续搬运: half, dnNum 1, nValue 16 (DN columns), dValue 23 (DN
    rows of srcDValue = 16 elements), dstNzC0Stride 16, dstNzNStride 1. Source row d becomes NZ column d,
    columns 23..31 are zero-filled to 32 B; Z blocks 16 x 32 B apart."""
    core = Core("ascend950", strict=True)
    x = np.arange(23 * 16).astype(np.float16)
    src = core.global_tensor("half", x)
    dst = core.tensor("A1", "half", 2 * 256)
    core.data_copy(dst, src, Dn2NzParams(1, 16, 23, 0, 16, 16, 1, 0))
    want = pad2(x.reshape(23, 16).T, 16, 32)  # logical 16 x 23 matrix, padded with zeros to C0
    np.testing.assert_array_equal(dst.read(), nz(want, 16))


def test_mx_scale_a_via_dn2nz_b16() -> None:
    """辅助矩阵分形格式详解.md MX scaleA: "若GM上scaleA矩阵为ND排布，可以通过ND2NZ.b16/DN2NZ.b16指令搬运到L1
    Buffer，确保L1 Buffer上分形为Zz排布". ND scaleA (M=20, K/32=8) e8m0, read as b16 (M x K/64), DN2NZ
    with nValue = K/64, dValue = M, srcDValue = K/64, dstNzC0Stride = K/64 gives the doc's Zz transform
    (M, K/32) -> pad -> (M1*16, K1*2) -> reshape (M1, 16, K1, 2) -> transpose (M1, K1, 16, 2)."""
    mm, kb = 20, 8
    s = np.random.default_rng(7).integers(0, 255, (mm, kb)).astype(np.uint8)
    core = Core("ascend950", strict=True)
    src = core.global_tensor("uint16_t", s.reshape(-1).view("<u2"))
    dst = core.tensor("A1", "uint16_t", 2 * (kb // 2) * 16)
    core.data_copy(dst, src, Dn2NzParams(1, kb // 2, mm, 0, kb // 2, kb // 2, 1, 0))
    want = pad2(s, 32, kb).reshape(2, 16, kb // 2, 2).transpose(0, 2, 1, 3).ravel()
    np.testing.assert_array_equal(dst.bytes(), want)


# ============================================================ buffer sizes stated on these pages


@pytest.mark.parametrize("chip", ["a2", "a3"])
def test_sparse_index_buffer_is_a_quarter_of_l0b(chip: str) -> None:
    """LoadDataWithSparse.md 约束说明: "存放索引矩阵的专用buffer空间大小为L0B Buffer大小的四分之一"."""
    core = Core(chip)
    assert core.memory("SPARSE_IDX").data.size * 4 == core.memory("L0B").data.size


def test_950_mx_and_mmad_buffer_sizes() -> None:
    """LoadData_2D_MX.md: "L0A_MX/L0B_MX Buffer的大小为4KB" (= L0A/L0B address / 16); MmadMx.md 约束说明:
    L0C 256KB, L0A 64KB, L0B 64KB, BT 4KB."""
    mem = {k: m.data.size for k, m in Core("ascend950").memories.items()}
    assert (mem["L0A_MX"], mem["L0B_MX"]) == (4096, 4096)
    assert (mem["L0A"] // 16, mem["L0B"] // 16) == (4096, 4096)
    assert (mem["L0C"], mem["L0A"], mem["L0B"], mem["BT"]) == (256 * 1024, 64 * 1024, 64 * 1024, 4 * 1024)
