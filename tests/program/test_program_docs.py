"""The C++ call examples (调用示例) of the doc pages, pasted into a kernel and run from source.

Each SNIPPET below is the page's example statements as the page gives them (page and block named above it;
comments dropped); the kernel around it only adds what the page leaves to "the complete example": the
GM binding, the tensors the snippet names, the helpers it calls (CeilDivision, CeilAlign, DivCeil) and the
sizes it uses without defining. The L1 contents the snippets read arrive from GM by a plain DataCopy of an
image built here with the fractal formulas of 关键分形格式详解.md (`nz`, `zz`, `zn` of
tests/support/doc_fractals.py, written from that page), and what lands in L0 / L0C / GM is compared with
the same formulas or with numpy arithmetic — never with ascsim's own output.
"""

from __future__ import annotations

import numpy as np
import pytest
from support.doc_fractals import cdiv, doc_densify, nz, pad2, unlayout, zn, zz
from support.doc_kernels import HELPERS, LOAD3D_FLOAT, K, Kernel, M, N, memory_view, run_doc_kernel

from ascsim.program import Output

# -- LoadDataWithTranspose.md 调用示例, blocks 2 (int8_t), 3 (half), 4 (float): m = 40, k = 70, n = 50

LDWT_INT8 = """
uint16_t m = 40, k = 70, n = 50;
uint32_t fractalShape[2] = {16, 32 / sizeof(int8_t)};
uint32_t fractalNum = 2;
uint32_t fractalSize = fractalShape[0] * fractalShape[1];
uint32_t dstOffset = CeilDivision(k, fractalShape[1]) * fractalSize * fractalNum;
uint32_t srcOffset = CeilDivision(k, fractalShape[0] * fractalNum) * fractalSize * fractalNum;
AscendC::LoadData2dTransposeParams loadDataParams;
loadDataParams.startIndex = 0;
loadDataParams.repeatTimes = CeilDivision(k, fractalShape[0] * fractalNum);
loadDataParams.srcStride = 1;
loadDataParams.dstGap = 0;
loadDataParams.dstFracGap = CeilDivision(k, fractalShape[1]) - 1;
for (int i = 0; i < CeilDivision(m, fractalShape[1]); ++i) {
    AscendC::LoadDataWithTranspose(a2Local[i * dstOffset], a1Local[i * srcOffset], loadDataParams);
}
uint32_t dstOffsetB = CeilDivision(n, fractalShape[0] * fractalNum) * fractalSize * fractalNum;
uint32_t srcOffsetB = fractalSize * fractalNum;
AscendC::LoadData2dTransposeParams loadDataParamsB;
loadDataParamsB.startIndex = 0;
loadDataParamsB.repeatTimes = CeilDivision(n, fractalShape[1]);
loadDataParamsB.srcStride = CeilDivision(k, fractalShape[0] * fractalNum);
loadDataParamsB.dstGap = 1;
loadDataParamsB.dstFracGap = 0;
for (int i = 0; i < CeilDivision(k, fractalShape[0] * fractalNum); ++i) {
    AscendC::LoadDataWithTranspose(b2Local[i * dstOffsetB], b1Local[i * srcOffsetB], loadDataParamsB);
}
"""
LDWT_HALF = (
    LDWT_INT8.replace("sizeof(int8_t)", "sizeof(half)")
    .replace("fractalNum = 2", "fractalNum = 1")
    .replace("loadDataParamsB.dstGap = 1;", "loadDataParamsB.dstGap = 0;")
)
LDWT_FLOAT = """
uint32_t m = 40, k = 70, n = 50;
uint32_t fractalShape[2] = {16, 32 / sizeof(float)};
uint32_t fractalNum = 2;
uint32_t fractalSize = fractalShape[0] * fractalShape[1];
uint32_t dstOffset = CeilDivision(k, fractalShape[1] * fractalNum) * fractalSize * fractalNum;
uint32_t srcOffset = fractalSize * fractalNum;
AscendC::LoadData2dTransposeParams loadDataParams;
loadDataParams.startIndex = 0;
loadDataParams.repeatTimes = CeilDivision(k, fractalShape[1] * fractalNum);
loadDataParams.srcStride = CeilDivision(m, fractalShape[1] * fractalNum);
loadDataParams.dstGap = 1;
loadDataParams.dstFracGap = 0;
for (int i = 0; i < CeilDivision(m, fractalShape[1] * fractalNum); ++i) {
  AscendC::LoadDataWithTranspose(a2Local[i * dstOffset], a1Local[i * srcOffset], loadDataParams);
}
uint32_t dstOffsetB = CeilDivision(n, fractalShape[0]) * fractalSize * fractalNum;
uint32_t srcOffsetB = CeilDivision(n, fractalShape[1] * fractalNum) * fractalSize * fractalNum;
AscendC::LoadData2dTransposeParams loadDataParamsB;
loadDataParamsB.startIndex = 0;
loadDataParamsB.repeatTimes = CeilDivision(n, fractalShape[1] * fractalNum);
loadDataParamsB.srcStride = 1;
loadDataParamsB.dstGap = 0;
loadDataParamsB.dstFracGap = CeilDivision(n, fractalShape[0]) - 1;
for (int i = 0; i < CeilDivision(k, fractalShape[0]); ++i) {
    AscendC::LoadDataWithTranspose(b2Local[i * dstOffsetB], b1Local[i * srcOffsetB], loadDataParamsB);
}
"""
_NP = {"int8_t": np.int8, "half": np.float16, "float": np.float32}


@pytest.mark.parametrize(
    ("dtype", "snippet"),
    [("int8_t", LDWT_INT8), ("half", LDWT_HALF), ("float", LDWT_FLOAT)],
    ids=["int8", "half", "float"],
)
def test_load_data_with_transpose_examples(dtype: str, snippet: str) -> None:
    """The L1 images are the layouts the snippets' offsets imply (b8/b16: Nz(Aᵀ) and Nz(B) with K rows
    padded to whole squares; b32: Zz(Aᵀ), Zz(B) with 16x8 fractals, 约束说明); L0A must hold Zz(A), L0B
    Zn(B)."""
    rng = np.random.default_rng(len(dtype))
    a = rng.integers(-100, 100, (M, K)).astype(_NP[dtype])
    b = rng.integers(-100, 100, (K, N)).astype(_NP[dtype])
    c0 = 32 // np.dtype(_NP[dtype]).itemsize
    fnum = 1 if dtype == "half" else 2
    if dtype == "float":
        a1 = zz(pad2(a.T, cdiv(K, 16) * 16, cdiv(M, 16) * 16), 8)
        b1 = zz(pad2(b, cdiv(K, 16) * 16, cdiv(N, 16) * 16), 8)
        want_a = zz(pad2(a, cdiv(M, 16) * 16, cdiv(K, 16) * 16), 8)  # K pitch ceil(k/16)*16 (kDirectionAlign)
        want_b = zn(pad2(b, cdiv(K, 16) * 16, cdiv(N, 16) * 16), 8)
    else:
        kp = cdiv(K, 16 * fnum) * 16 * fnum
        a1 = nz(pad2(a.T, kp, cdiv(M, c0) * c0), c0)
        b1 = nz(pad2(b, kp, cdiv(N, c0) * c0), c0)
        want_a = zz(pad2(a, cdiv(M, c0) * c0, cdiv(K, c0) * c0), c0)
        want_b = zn(pad2(b, kp, cdiv(N, 16) * 16), c0)
    run = run_doc_kernel(snippet, dtype, a1, b1)
    np.testing.assert_array_equal(memory_view(run, "L0A", _NP[dtype], want_a.size), want_a)
    np.testing.assert_array_equal(memory_view(run, "L0B", _NP[dtype], want_b.size), want_b)


# -- LoadData_2D.md 调用示例 一 (A [m, k], no transpose) and 二 (A given as [k, m], ifTranspose)

LOAD2D_1 = """
uint32_t dstOffset = CeilDivision(k, fractalShape[1]) * fractalSize;
uint32_t srcOffset = fractalSize;
AscendC::LoadData2DParams loadDataParams;
loadDataParams.repeatTimes = CeilDivision(k, fractalShape[1]);
loadDataParams.srcStride = CeilDivision(m, fractalShape[0]);
loadDataParams.dstGap = 0;
loadDataParams.ifTranspose = false;
for (int i = 0; i < CeilDivision(m, fractalShape[0]); ++i) {
    AscendC::LoadData(a2Local[i * dstOffset], a1Local[i * srcOffset], loadDataParams);
}
"""
LOAD2D_2 = """
uint32_t dstOffset = CeilDivision(k, fractalShape[0]) * fractalSize;
uint32_t srcOffset = CeilDivision(k, fractalShape[0]) * fractalSize;
AscendC::LoadData2DParams loadDataParams;
loadDataParams.repeatTimes = CeilDivision(k, fractalShape[0]);
loadDataParams.srcStride = 1;
loadDataParams.dstGap = 0;
loadDataParams.ifTranspose = true;
for (int i = 0; i < CeilDivision(m, fractalShape[1]); ++i) {
    AscendC::LoadData(a2Local[i * dstOffset], a1Local[i * srcOffset], loadDataParams);
}
"""
CONTEXT_HALF = """
    uint32_t m = 40, k = 70;
    uint32_t fractalShape[2] = {16, 32 / sizeof(half)};
    uint32_t fractalSize = fractalShape[0] * fractalShape[1];
    uint32_t fractalNum = 1;
"""


@pytest.mark.parametrize("transposed", [False, True], ids=["example-1", "example-2-transposed"])
def test_load_data_2d_examples(transposed: bool) -> None:
    rng = np.random.default_rng(11)
    a = rng.integers(-1000, 1000, (M, K)).astype(np.float16)
    src = pad2(a.T, 80, 48) if transposed else pad2(a, 48, 80)
    a1 = nz(src, 16)
    run = run_doc_kernel(
        LOAD2D_2 if transposed else LOAD2D_1, "half", a1, np.zeros(16, np.float16), context=CONTEXT_HALF
    )
    want = zz(pad2(a, 48, 80), 16)
    np.testing.assert_array_equal(memory_view(run, "L0A", np.float16, want.size), want)


# -- LoadData_3D.md 调用示例: float A given as [k, m] (Nz), Load3D v2 with enTranspose writes Zz(A)
# (LOAD3D_FLOAT: tests/support/doc_kernels.py)


def test_load3d_transposed_float_example() -> None:
    """L1: Nz(Aᵀ) of the [k, m] input (K rows aligned to 16, M to 8); L0A: Zz(A) with K in 16-column
    squares (the enTranspose reading of LoadData_3D.md: rows of Aᵀ become columns)."""
    rng = np.random.default_rng(12)
    a = rng.integers(-1000, 1000, (M, K)).astype(np.float32)
    a1 = nz(pad2(a.T, cdiv(K, 16) * 16, cdiv(M, 8) * 8), 8)
    context = (
        "    using T = float;\n    uint32_t m = 40, k = 70;\n    uint32_t fractalShape[2] = {16, 8};\n"
        "    uint32_t fractalNum = 2;\n"
    )
    run = run_doc_kernel(
        LOAD3D_FLOAT.replace("<T>", "<float>"),
        "float",
        a1,
        np.zeros(8, np.float32),
        context=context.replace("    using T = float;\n", ""),
    )
    got = unlayout(memory_view(run, "L0A", np.float32, 48 * 80), zz, 40, 80, 8)
    np.testing.assert_array_equal(got[:, :K], a)


# -- LoadData_2D_V2.md 调用示例 (950): half A Nz -> Nz

LOAD2D_V2 = """
uint32_t m = 40;
uint32_t k = 70;
uint32_t fractalShape[2] = {16, 32 / sizeof(half)};
uint32_t fractalSize = fractalShape[0] * fractalShape[1];
uint16_t mStep = (m + fractalShape[0] - 1) / fractalShape[0];
AscendC::LoadData2DParamsV2 loadDataParams;
loadDataParams.mStep = mStep;
loadDataParams.kStep = (k + fractalShape[1] - 1) / fractalShape[1];
loadDataParams.srcStride = mStep;
loadDataParams.dstStride = mStep;
loadDataParams.ifTranspose = false;
AscendC::LoadData(a2Local, a1Local, loadDataParams);
"""


def test_load_data_2d_v2_example_950() -> None:
    rng = np.random.default_rng(13)
    a = rng.integers(-1000, 1000, (M, K)).astype(np.float16)
    a1 = nz(pad2(a, 48, 80), 16)
    run = run_doc_kernel(LOAD2D_V2, "half", a1, np.zeros(16, np.float16), chip="950")
    np.testing.assert_array_equal(memory_view(run, "L0A", np.float16, a1.size), a1)  # 950's L0A is Nz


# -- SetFmatrix.md 调用示例 (both __NPU_ARCH__ branches): B via FMATRIX + Load3D into L0B

SETFMATRIX = """
    AscendC::LoadData3DParamsV2<U> loadData3dParams;
    loadData3dParams.l1W = 1;
    loadData3dParams.l1H = K;
    loadData3dParams.channelSize = N;
    loadData3dParams.kExtension = N;
    loadData3dParams.mExtension = K;
    loadData3dParams.kStartPt = 0;
    loadData3dParams.mStartPt = 0;
    loadData3dParams.strideW = 1;
    loadData3dParams.strideH = 1;
    loadData3dParams.filterW = 1;
    loadData3dParams.filterH = 1;
    loadData3dParams.dilationFilterW = 1;
    loadData3dParams.dilationFilterH = 1;
    loadData3dParams.enTranspose = true;
    loadData3dParams.enSmallK = false;
    loadData3dParams.padValue = 0;
    loadData3dParams.filterSizeW = 0;
    loadData3dParams.filterSizeH = 0;
    loadData3dParams.fMatrixCtrl = false;
    uint8_t padList[AscendC::PAD_SIZE] = {0, 0, 0, 0};
    static constexpr AscendC::IsResetLoad3dConfig LOAD3D_CONFIG = {false, false};
    AscendC::SetFmatrix(N, 1, padList, AscendC::FmatrixMode::FMATRIX_LEFT);
#if defined(__NPU_ARCH__) && (__NPU_ARCH__ == 2201)
    AscendC::SetLoadDataRepeat({0, 1, 0});
    AscendC::SetLoadDataBoundary(0);
    AscendC::SetLoadDataPaddingValue(0);
    AscendC::LoadData<U, LOAD3D_CONFIG>(b2, rightMatrix, loadData3dParams);
#elif defined(__NPU_ARCH__) && (__NPU_ARCH__ == 3510)
    uint16_t dstStride = DivCeil(N, 16);
    AscendC::SetLoadDataRepeatWithStride({0, 1, 0, dstStride});
    AscendC::SetLoadDataPaddingValue(0);
    AscendC::LoadDataWithStride<U, LOAD3D_CONFIG>(b2, rightMatrix, loadData3dParams);
#endif
"""


@pytest.mark.parametrize("chip", ["a2", "950"])
def test_set_fmatrix_example(chip: str) -> None:
    """B (K x N, half) sits in L1 as a feature map of N channels, height 1... as the example sets it:
    FMATRIX l1H = N, l1W = 1 with isSetFMatrix = false, the params' l1H = K / l1W = 1 are ignored. The
    img2col window of K rows x N columns into L0B is Zn(B) (the doc's "right matrix" use)."""
    k_, n_ = 32, 32
    rng = np.random.default_rng(14)
    b = rng.integers(-1000, 1000, (k_, n_)).astype(np.float16)
    # l1H = N, l1W = 1 per FMATRIX: the fmap holds N "rows" h of C = N channels... as B^T in NC1HWC0:
    # [c1, h, w=0, c0] = value of output (h) for channel c: here h runs over K rows of B, channels over N.
    b1 = b.reshape(k_, n_ // 16, 16).transpose(1, 0, 2).ravel()
    context = "    using U = half;\n    uint32_t K = 32, N = 32;\n"
    run = run_doc_kernel(
        SETFMATRIX.replace("<U>", "<half>").replace("<U, ", "<half, "),
        "half",
        np.zeros(16, np.float16),
        b1,
        chip=chip,
        context=context.replace("    using U = half;\n", ""),
    )
    want = zn(b, 16)
    np.testing.assert_array_equal(memory_view(run, "L0B", np.float16, want.size), want)


# -- MmadWithSparse.md 调用示例: 128 x 64 x 128 int8

SPARSE = """
uint32_t m = 128;
uint32_t k = 64;
uint32_t n = 128;
AscendC::MmadWithSparse(c1Local, a2Local, b2Local, { m, n, k, false, 0, false, false, false });
"""


def test_mmad_with_sparse_example() -> None:
    """SplitA / SplitB are not shown by the page: A arrives in L0A as Zz(A), B's dense fractals and index
    through one LoadDataWithSparse (the example kernel's SplitB) — added around the pasted call."""
    m, k, n = 128, 64, 128
    rng = np.random.default_rng(15)
    a = rng.integers(-128, 128, (m, k)).astype(np.int8)
    b = rng.integers(-128, 128, (k, n)).astype(np.int8)
    for g in range(k // 4):
        for j in range(n):
            keep = rng.choice(4, rng.integers(0, 3), replace=False)
            b[4 * g + np.setdiff1d(np.arange(4), keep), j] = 0
    dense, codes = doc_densify(b)
    idx = (zn(codes, 32).reshape(-1, 4) * 4 ** np.arange(4)).sum(axis=1).astype(np.uint8)
    src = (
        HELPERS
        + f"""
extern "C" __global__ __aicore__ void k(GM_ADDR a, GM_ADDR b, GM_ADDR idx, GM_ADDR c)
{{
    AscendC::GlobalTensor<int8_t> aGM, bGM;
    AscendC::GlobalTensor<uint8_t> idxGM;
    AscendC::GlobalTensor<int32_t> cGM;
    aGM.SetGlobalBuffer((__gm__ int8_t*)a, {m * k});
    bGM.SetGlobalBuffer((__gm__ int8_t*)b, {dense.size});
    idxGM.SetGlobalBuffer((__gm__ uint8_t*)idx, {idx.size});
    cGM.SetGlobalBuffer((__gm__ int32_t*)c, {m * n});
    AscendC::LocalTensor<int8_t> a1Local(AscendC::TPosition::A1, 0, {m * k});
    AscendC::LocalTensor<int8_t> a2Local(AscendC::TPosition::A2, 0, {m * k});
    AscendC::LocalTensor<int8_t> b1Local(AscendC::TPosition::B1, 128 * 1024, {dense.size});
    AscendC::LocalTensor<uint8_t> idxB1Local(AscendC::TPosition::B1, 256 * 1024, {idx.size});
    AscendC::LocalTensor<int8_t> b2Local(AscendC::TPosition::B2, 0, {dense.size});
    AscendC::LocalTensor<int32_t> c1Local(AscendC::TPosition::CO1, 0, {m * n});
    AscendC::DataCopy(a1Local, aGM, {m * k});
    AscendC::DataCopy(b1Local, bGM, {dense.size});
    AscendC::DataCopy(idxB1Local, idxGM, {idx.size});
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::LoadData(a2Local, a1Local, AscendC::LoadData2DParams{{0, {m * k // 512}, 1, 0, 0, false, 0}});
    AscendC::LoadDataWithSparse(b2Local, b1Local, idxB1Local,
                                AscendC::LoadData2DParams{{0, {dense.size // 512}, 1, 0, 0, false, 0}});
    AscendC::PipeBarrier<PIPE_ALL>();
{SPARSE}
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::FixpipeParamsV220 fp;
    fp.nSize = n;
    fp.mSize = m;
    fp.srcStride = m;
    fp.dstStride = n;
    AscendC::Fixpipe(cGM, c1Local, fp);
}}
"""
    )
    run = Kernel("sparse.cpp", "a2", text_=src).run(
        gm={"a": zz(a, 32), "b": zn(dense, 32), "idx": idx, "c": Output("int32_t", (m, n))}
    )
    np.testing.assert_array_equal(run.outputs["c"], a.astype(np.int64) @ b.astype(np.int64))


# -- Fixpipe（L0C到GM数据搬运）.md 调用示例 (both branches) and DataCopy ND2NZ 调用示例

FIXPIPE_DECL = """
        AscendC::GlobalTensor<outputType> cGM;
"""
FIXPIPE_INIT = """
        cGM.SetGlobalBuffer((__gm__ outputType *)c);
"""
FIXPIPE = """
    #if defined(__NPU_ARCH__) && (__NPU_ARCH__ == 2201)
        AscendC::FixpipeParamsV220 fixpipeParams;
        fixpipeParams.ndNum = 1;
        fixpipeParams.srcNdStride = 0;
        fixpipeParams.dstNdStride = 0;
    #elif defined(__NPU_ARCH__) && (__NPU_ARCH__ == 3510)
        AscendC::FixpipeParamsArch3510<AscendC::CO2Layout::ROW_MAJOR> fixpipeParams;
    #endif
        fixpipeParams.mSize = baseM;
        fixpipeParams.srcStride = CeilAlign(baseM, CUBE_BLOCK);
        fixpipeParams.nSize = baseN;
        fixpipeParams.dstStride = baseN;
        AscendC::Fixpipe<outputType, l0cType, AscendC::CFG_ROW_MAJOR>(cGM, c, fixpipeParams);
"""
ND2NZ = """
AscendC::Nd2NzParams nd2nzA1Params;
nd2nzA1Params.ndNum = 1;
nd2nzA1Params.nValue = m;
nd2nzA1Params.dValue = k;
nd2nzA1Params.srcNdMatrixStride = 0;
nd2nzA1Params.srcDValue = k;
nd2nzA1Params.dstNzC0Stride = CeilAlign(m, fractalShape[0]);
nd2nzA1Params.dstNzNStride = 1;
nd2nzA1Params.dstNzMatrixStride = 0;
AscendC::DataCopy(a1Local, aGM, nd2nzA1Params);
"""


@pytest.mark.parametrize("chip", ["a2", "950"])
def test_datacopy_nd2nz_then_fixpipe_examples(chip: str) -> None:
    """ND2NZ of A (40 x 70 half) into L1 (checked against nz(A)), then C (40 x 50 float, placed in L0C as
    Nz) written back row-major by the Fixpipe example of this chip's branch. The Fixpipe block shows two
    functions of its example kernel at once (`c` is the GM pointer in the SetGlobalBuffer line and the L0C
    tensor in the Fixpipe call): its declaration is a member, its SetGlobalBuffer line runs in Init, the
    rest in CopyOut, as in the kernel the page links."""
    rng = np.random.default_rng(16)
    a = rng.integers(-1000, 1000, (M, K)).astype(np.float16)
    cm = rng.integers(-1000, 1000, (M, N)).astype(np.float32)
    src = (
        HELPERS
        + """
template <class outputType, class l0cType>
class KernelFixpipe {
public:
    __aicore__ inline void Init(GM_ADDR a, GM_ADDR c)
    {
        aGM.SetGlobalBuffer((__gm__ half*)a, m * k);
"""
        + FIXPIPE_INIT
        + """
    }
    __aicore__ inline void CopyIn()
    {
        AscendC::LocalTensor<half> a1Local(AscendC::TPosition::A1, 0, 48 * 80);
"""
        + ND2NZ
        + """
    }
    __aicore__ inline void CopyOut(AscendC::LocalTensor<l0cType>& c)
    {
"""
        + FIXPIPE
        + """
    }
    uint32_t m = 40, k = 70, baseM = 40, baseN = 50;
    uint32_t fractalShape[2] = {16, 16};
    AscendC::GlobalTensor<half> aGM;
"""
        + FIXPIPE_DECL
        + """
};
extern "C" __global__ __aicore__ void k(GM_ADDR a, GM_ADDR c)
{
    KernelFixpipe<float, float> op;
    op.Init(a, c);
    op.CopyIn();
    AscendC::LocalTensor<float> l0c(AscendC::TPosition::CO1, 0, 48 * 64);
    op.CopyOut(l0c);
}
"""
    )
    run = Kernel("fix.cpp", chip, text_=src).run(
        gm={"a": a, "c": Output("float", (M, N))},
        preload={"L0C": {0: nz(cm, 16).astype(np.float32).tobytes()}},
    )
    # ND2NZ writes the nValue rows (columns past dValue zero-filled to the C0 block); rows 40..47 untouched
    np.testing.assert_array_equal(
        unlayout(memory_view(run, "L1", np.float16, 48 * 80), nz, 40, 80, 16), pad2(a, 40, 80)
    )
    np.testing.assert_array_equal(run.outputs["c"], cm)
