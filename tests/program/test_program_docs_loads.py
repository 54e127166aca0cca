"""More C++ call examples (调用示例) of the doc pages, pasted into kernels and run from source: the GM -> L1
copies (DataCopy 连续 / 高维切分 / DN2NZ, LoadData GM -> L1 2D and 2D V2), the Load3D register setters
(SetLoadDataBoundary, SetLoadDataPaddingValue, SetLoadDataRepeat, SetLoadDataRepeatWithStride — the same
block as LoadDataWithStride.md's), LoadData_2D_BitMode (both examples) and LoadData_3D_BitMode.

Conventions as in tests/program/test_program_docs.py (whose kernel and runner, tests/support/doc_kernels.py,
this file reuses): the snippet as the page prints it, comments dropped; the kernel adds the GM binding and
what the page leaves to its complete example. The Load3D setter pages elide the parameter block ("//
设置loadDataParams相关参数 ...") and describe it as LoadData_3D.md's NZ -> ZZ example (l1H = 1, l1W =
CeilAlign(k, 16), enTranspose): that block fills the "...". Expected bytes: the pages' narratives, the fractal
formulas of 关键分形格式详解.md (`nz`, `zz`) and numpy img2col — never ascsim's own output.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from support.doc_fractals import cdiv, nz, pad2, unlayout, zz
from support.doc_kernels import LOAD3D_FLOAT, K, Kernel, M, memory_view, run_doc_kernel, run_kernel

from ascsim import HazardWarning
from ascsim.machine.memory import MARKER
from ascsim.program import BuildError

MARK16 = MARKER | MARKER << 8


def _gm_to_l1(snippet: str, src: np.ndarray, chip: str = "a2"):
    text = f'extern "C" __global__ __aicore__ void k(GM_ADDR src)\n{{\n{snippet}\n}}\n'
    return run_kernel(text, chip, {"src": src}, quiet=False).core.memory("L1").data


# -- DataCopy（GMToL1连续数据搬运）.md and （GMToL1高维切分数据搬运）.md 调用示例

CONTIGUOUS = """
constexpr uint32_t copyCount = 128;
AscendC::GlobalTensor<half> srcGm;
srcGm.SetGlobalBuffer((__gm__ half *)src, copyCount);
AscendC::LocalTensor<half> dstLocal(AscendC::TPosition::A1, 0, copyCount);
AscendC::DataCopy(dstLocal, srcGm, copyCount);
"""
BLOCKS_CONTIGUOUS = """
constexpr uint32_t copyCount = 128;
AscendC::GlobalTensor<half> srcGm;
srcGm.SetGlobalBuffer((__gm__ half *)src, copyCount);
AscendC::LocalTensor<half> dstLocal(AscendC::TPosition::A1, 0, copyCount);
AscendC::DataCopyParams repeatParams;
repeatParams.blockCount = 1;
repeatParams.blockLen = 8;
repeatParams.srcGap = 0;
repeatParams.dstGap = 0;
AscendC::DataCopy(dstLocal, srcGm, repeatParams);
"""
BLOCKS_GAPS = """
constexpr uint32_t srcCount = 112;
constexpr uint32_t dstCount = 128;
AscendC::GlobalTensor<half> srcGm;
srcGm.SetGlobalBuffer((__gm__ half *)src, srcCount);
AscendC::LocalTensor<half> dstLocal(AscendC::TPosition::A1, 0, dstCount);
AscendC::DataCopyParams repeatParams;
repeatParams.blockCount = 2;
repeatParams.blockLen = 3;
repeatParams.srcGap = 1;
repeatParams.dstGap = 2;
AscendC::DataCopy(dstLocal, srcGm, repeatParams);
"""


@pytest.mark.parametrize("chip", ["a2", "950"])
@pytest.mark.parametrize("snippet", [CONTIGUOUS, BLOCKS_CONTIGUOUS], ids=["count", "one-block"])
def test_gm_to_l1_contiguous_examples(chip: str, snippet: str) -> None:
    """"count = 128，表示搬运128个half元素" / "blockLen = 8 ... 即256B，等于128个half"."""
    x = np.arange(128, dtype=np.float16) * 3 - 100
    l1 = _gm_to_l1(snippet, x, chip)
    np.testing.assert_array_equal(l1[:256].view(np.float16), x)
    assert (l1[256:288] == MARKER).all()


@pytest.mark.parametrize("chip", ["a2", "950"])
def test_gm_to_l1_gaps_example(chip: str) -> None:
    """"按“48个有效元素+16个跳过元素+48个有效元素”排布", "两个数据块之间预留32个half的间隔"."""
    x = np.arange(112, dtype=np.float16) - 60
    l1 = _gm_to_l1(BLOCKS_GAPS, x, chip).view(np.uint16)
    np.testing.assert_array_equal(l1[:48].view(np.float16), x[:48])
    assert (l1[48:80] == MARK16).all()
    np.testing.assert_array_equal(l1[80:128].view(np.float16), x[64:])


# -- DataCopy（GMToL1随路转换-DN2NZ搬运）.md 调用示例 (950): A (40 x 56) given transposed in GM

DN2NZ = """
AscendC::Dn2NzParams dn2nzA1Params;
dn2nzA1Params.dnNum = 1;
dn2nzA1Params.nValue = 40;
dn2nzA1Params.dValue = 56;
dn2nzA1Params.srcDnMatrixStride = 0;
dn2nzA1Params.srcDValue = 40;
dn2nzA1Params.dstNzC0Stride = CeilAlign(m, fractalShape[0]);
dn2nzA1Params.dstNzNStride = 1;
dn2nzA1Params.dstNzMatrixStride = 0;
AscendC::DataCopy(a1Local, aGM, dn2nzA1Params);
"""


def test_dn2nz_example() -> None:
    """m = 40, k = 56, fractalShape = {16, 16} (the page's comment): GM holds Aᵀ (56 rows of 40); L1 receives
    Nz(A) with its 40 rows in a 48-row column block (dstNzC0Stride = CeilAlign(40, 16))."""
    m, k = 40, 56
    a = (np.arange(m * k) % 1000).reshape(m, k).astype(np.float16)
    text = f"""
__aicore__ inline uint32_t CeilAlign(uint32_t a, uint32_t b) {{ return (a + b - 1) / b * b; }}
extern "C" __global__ __aicore__ void k(GM_ADDR src)
{{
    uint32_t m = 40, k = 56;
    uint32_t fractalShape[2] = {{16, 16}};
    AscendC::GlobalTensor<half> aGM;
    aGM.SetGlobalBuffer((__gm__ half *)src, m * k);
    AscendC::LocalTensor<half> a1Local(AscendC::TPosition::A1, 0, 48 * 64);
{DN2NZ}
}}
"""
    run = Kernel("dn.cpp", "950", text_=text).run(gm={"src": np.ascontiguousarray(a.T)})
    l1 = run.core.memory("L1").data.view(np.float16)
    np.testing.assert_array_equal(unlayout(l1, nz, m, 64, 16), pad2(a, m, 64))  # columns 56..63 zero-filled


# -- LoadData（GMToL1-2D矩阵搬运）.md (A2) and （GMToL1-2D矩阵搬运V2）.md (950) 调用示例

GM2L1_2D = """
uint32_t dstOffset = fractalSize;
uint32_t srcOffset = fractalSize;
AscendC::LoadData2DParams loadDataParams;
loadDataParams.repeatTimes = CeilDivision(k, fractalShape[1]);
loadDataParams.srcStride = CeilDivision(m, fractalShape[0]);
loadDataParams.dstGap = CeilDivision(m, fractalShape[0]) - 1;
for (uint16_t i = 0; i < CeilDivision(m, fractalShape[0]); ++i) {
    AscendC::LoadData(a1Local[i * dstOffset], aGM[i * srcOffset], loadDataParams);
}
"""
GM2L1_2D_V2 = """
constexpr uint32_t fractalElemCount = 256;
constexpr uint32_t srcElemCount = 25 * fractalElemCount;
constexpr uint32_t dstElemCount = 9 * fractalElemCount;
AscendC::GlobalTensor<half> srcGm;
srcGm.SetGlobalBuffer((__gm__ half *)src, srcElemCount);
AscendC::LocalTensor<half> dstLocal(AscendC::TPosition::A1, 0, dstElemCount);
AscendC::LoadData2DParamsV2 loadDataParams;
loadDataParams.mStartPosition = 2;
loadDataParams.kStartPosition = 2;
loadDataParams.mStep = 2;
loadDataParams.kStep = 3;
loadDataParams.srcStride = 5;
loadDataParams.dstStride = 3;
loadDataParams.ifTranspose = false;
loadDataParams.sid = 0;
AscendC::LoadData(dstLocal, srcGm, loadDataParams);
"""


def test_load_data_gm_to_l1_2d_example() -> None:
    """m = k = 32, fractalShape = {16, 16}, fractalSize = 256 (the page's comment): "Nz2Nz" — GM's Nz image
    of A lands in L1 unchanged (row block i: fractals i, i + 2 from GM to i, i + 2 in L1)."""
    a = (np.arange(32 * 32) - 500).reshape(32, 32).astype(np.float16)
    text = f"""
__aicore__ inline uint32_t CeilDivision(uint32_t a, uint32_t b) {{ return (a + b - 1) / b; }}
extern "C" __global__ __aicore__ void k(GM_ADDR src)
{{
    uint32_t m = 32, k = 32;
    uint32_t fractalShape[2] = {{16, 16}};
    uint32_t fractalSize = 256;
    AscendC::GlobalTensor<half> aGM;
    aGM.SetGlobalBuffer((__gm__ half *)src, m * k);
    AscendC::LocalTensor<half> a1Local(AscendC::TPosition::A1, 0, m * k);
{GM2L1_2D}
}}
"""
    l1 = Kernel("g.cpp", "a2", text_=text).run(gm={"src": nz(a, 16)}).core.memory("L1").data
    np.testing.assert_array_equal(l1[:2048].view(np.float16), nz(a, 16))


def test_load_data_gm_to_l1_2d_v2_example() -> None:
    """图1: an 80 x 80 half Nz matrix in GM (5 x 5 fractals); "从M轴第2个分形、K轴第2个32B块开始，搬运2个M方向
    分形、3个K方向32B块" into a 3 x 3-fractal L1 matrix (dstStride 3): fractal (i, j) of the window goes to
    j * 3 + i; the third M slot of each column is not written."""
    src = (np.arange(80 * 80) % 2000).reshape(80, 80).astype(np.float16)
    l1 = _gm_to_l1(GM2L1_2D_V2, nz(src, 16), "950")
    got = l1[: 9 * 512].view(np.uint16).reshape(9, 256)
    for j in range(3):
        for i in range(3):
            frac = got[j * 3 + i]
            if i == 2:
                assert (frac == MARK16).all()
                continue
            want = src[(2 + i) * 16 : (3 + i) * 16, (2 + j) * 16 : (3 + j) * 16].ravel()
            np.testing.assert_array_equal(frac.view(np.float16), want)


# -- SetLoadDataBoundary.md / SetLoadDataPaddingValue.md / SetLoadDataRepeat.md /
#    SetLoadDataRepeatWithStride.md (= LoadDataWithStride.md) 调用示例, "..." = LoadData_3D.md's parameters

PARAMS = LOAD3D_FLOAT.replace("<T>", "<float>").split("AscendC::LoadData(a2Local")[0]
BOUNDARY = """
AscendC::SetLoadDataBoundary(0);
AscendC::LoadData(a2Local, a1Local, loadDataParams);
"""
PADDING = """
static constexpr AscendC::IsResetLoad3dConfig LOAD3D_CONFIG = {false, false};
AscendC::SetLoadDataPaddingValue(0);
AscendC::LoadData<T, LOAD3D_CONFIG>(a2Local, a1Local, loadDataParams);
"""
REPEAT = """
AscendC::LoadDataRepeatParam repeatParams;
repeatParams.repeatTime = 1;
repeatParams.repeatStride = 1;
repeatParams.repeatMode = 0;
repeatParams.dstStride = CeilDivision(m, fractalShape[0]);
AscendC::SetLoadDataRepeat(repeatParams);
AscendC::LoadData(a2Local, a1Local, loadDataParams);
"""
# The C++ API's LoadDataRepeatParam has no dstStride on 950 (kernel_struct_mm.h:467-496: the 4-field form is
# 3102/5102 only; docs/divergences.md B4), so the page's statement does not compile; without it the plain
# LoadData writes the dense stride itself (dav_3510 kernel_operator_mm_impl.h:877-886), the same 3 fractals.
REPEAT_CPP = REPEAT.replace("repeatParams.dstStride = CeilDivision(m, fractalShape[0]);\n", "")
REPEAT_WITH_STRIDE = """
AscendC::LoadDataRepeatParamWithStride repeatParams;
repeatParams.repeatTime = 1;
repeatParams.repeatStride = 1;
repeatParams.repeatMode = 0;
repeatParams.dstStride = CeilDivision(m, fractalShape[0]);
AscendC::SetLoadDataRepeatWithStride(repeatParams);
AscendC::LoadDataWithStride(a2Local, a1Local, loadDataParams);
"""
CONTEXT = ("    uint32_t m = 40, k = 70;\n    uint32_t fractalShape[2] = {16, 8};\n"
           "    uint32_t fractalNum = 2;\n")
# SetLoadDataPaddingValue's page sends the FMATRIX to SetFmatrix.md's example: with {false, false} the
# register must hold the map (l1H = 1, l1W = CeilAlign(k, 16), no padding) before the call.
FMATRIX = ("    uint8_t padList[AscendC::PAD_SIZE] = {0, 0, 0, 0};\n"
           "    AscendC::SetFmatrix(1, 80, padList, AscendC::FmatrixMode::FMATRIX_LEFT);\n")


@pytest.mark.parametrize("chip,setter", [
    ("a2", BOUNDARY), ("a2", PADDING), ("950", PADDING), ("950", REPEAT_CPP), ("950", REPEAT_WITH_STRIDE),
], ids=["boundary-a2", "padding-a2", "padding-950", "repeat-950", "repeat-with-stride-950"])
def test_load3d_register_examples(chip: str, setter: str) -> None:
    """A given as [k, m] float (Nz of Aᵀ in L1), Load3D v2 with enTranspose: L0A holds A as the chip's L0A
    layout — Zz on A2, Nz on 950 (K blocks CeilDivision(m, 16) = 3 fractals apart, the dstStride the
    setters write)."""
    rng = np.random.default_rng(21)
    a = rng.integers(-1000, 1000, (M, K)).astype(np.float32)
    a1 = nz(pad2(a.T, cdiv(K, 16) * 16, cdiv(M, 8) * 8), 8)
    context = CONTEXT + (FMATRIX if setter is PADDING else "")
    run = run_doc_kernel(PARAMS + setter.replace("<T, ", "<float, "), "float", a1, np.zeros(8, np.float32),
                         chip=chip, context=context)
    l0 = memory_view(run, "L0A", np.float32, 48 * 96)
    got = unlayout(l0, zz if chip == "a2" else nz, 40, 80 if chip == "a2" else 96, 8)
    np.testing.assert_array_equal(got[:, :K], a)


def test_repeat_page_dst_stride_is_not_a_950_member_of_the_cpp_struct() -> None:
    """SetLoadDataRepeat.md 表2 gives LoadDataRepeatParam a dstStride on 950; the C++ API does not (the
    compiler names the member)."""
    rng = np.random.default_rng(21)
    a1 = nz(pad2(rng.integers(-9, 9, (K, M)).astype(np.float32), cdiv(K, 16) * 16, cdiv(M, 8) * 8), 8)
    with pytest.raises(BuildError, match="no member named 'dstStride' in 'AscendC::LoadDataRepeatParam'"):
        run_doc_kernel(PARAMS + REPEAT, "float", a1, np.zeros(8, np.float32), chip="950", context=CONTEXT)


# -- LoadData_2D_BitMode.md 调用示例 一 and 二 (950): a 32 x 32 half Nz matrix, L1 -> L0A Nz2Nz

BITMODE_1 = """
constexpr uint32_t fractalElemCount = 256;
constexpr uint32_t tensorElemCount = 4 * fractalElemCount;
AscendC::LocalTensor<half> srcLocal(AscendC::TPosition::A1, a1Addr, tensorElemCount);
AscendC::LocalTensor<half> dstLocal(AscendC::TPosition::A2, a2Addr, tensorElemCount);
AscendC::LoadData2DParamsV2 loadDataParams;
loadDataParams.mStartPosition = 0;
loadDataParams.kStartPosition = 0;
loadDataParams.mStep = 2;
loadDataParams.kStep = 2;
loadDataParams.srcStride = 2;
loadDataParams.dstStride = 2;
loadDataParams.ifTranspose = false;
loadDataParams.sid = 0;
AscendC::Load2DBitModeParam bitModeParams(loadDataParams);
AscendC::LoadData<AscendC::TPosition::A2, AscendC::TPosition::A1, half>(dstLocal, srcLocal, bitModeParams);
"""
BITMODE_2 = """
AscendC::Load2DBitModeParam bitModeParams;
bitModeParams.SetMStartPosition(0);
bitModeParams.SetKStartPosition(0);
bitModeParams.SetMStep(2);
bitModeParams.SetKStep(2);
bitModeParams.SetSrcStride(2);
bitModeParams.SetDstStride(2);
bitModeParams.SetIfTranspose(false);
AscendC::LoadData<AscendC::TPosition::A2, AscendC::TPosition::A1, half>(dstLocal, srcLocal, bitModeParams);
"""
TENSORS_2 = """
    AscendC::LocalTensor<half> srcLocal(AscendC::TPosition::A1, a1Addr, 1024);
    AscendC::LocalTensor<half> dstLocal(AscendC::TPosition::A2, a2Addr, 1024);
"""


@pytest.mark.parametrize("example", [1, 2])
def test_load_2d_bitmode_examples(example: int) -> None:
    """"L1上为NZ数据排布、shape为[M,K]的A矩阵 ... 完成L1 Buffer->L0A Buffer的Nz2Nz搬运": the four fractals
    arrive unchanged (950's L0A is Nz)."""
    a = (np.arange(1024) - 512).reshape(32, 32).astype(np.float16)
    decl = "" if example == 1 else TENSORS_2
    snippet = BITMODE_1 if example == 1 else BITMODE_2
    text = f"""
extern "C" __global__ __aicore__ void k(GM_ADDR src)
{{
    constexpr uint32_t a1Addr = 0, a2Addr = 0;
    AscendC::GlobalTensor<half> aGM;
    aGM.SetGlobalBuffer((__gm__ half *)src, 1024);
    AscendC::LocalTensor<half> staged(AscendC::TPosition::A1, a1Addr, 1024);
    AscendC::DataCopy(staged, aGM, 1024);
    AscendC::SetFlag<AscendC::HardEvent::MTE2_MTE1>(EVENT_ID0);
    AscendC::WaitFlag<AscendC::HardEvent::MTE2_MTE1>(EVENT_ID0);
{decl}{snippet}
}}
"""
    run = run_kernel(text, "950", {"src": nz(a, 16)}, name="b.cpp", quiet=False)
    np.testing.assert_array_equal(run.core.memory("L0A").data[:2048].view(np.float16), nz(a, 16))


# -- LoadData_3D_BitMode.md 调用示例 (950): 4 x 4 map, 16 channels, 2 x 2 kernel, dilation 2, pad 1

LOAD3D_BITMODE = """
uint16_t H = 4, W = 4;
uint8_t Kh = 2, Kw = 2;
uint16_t C0 = 16;
uint8_t dilationH = 2, dilationW = 2;
uint8_t padTop = 1, padBottom = 1, padLeft = 1, padRight = 1;
uint8_t strideH = 1, strideW = 1;
uint8_t padList[4] = {padLeft, padRight, padTop, padBottom};
AscendC::LoadData3DParamsV2<half> param = {
    padList, H, W, C0, C0, static_cast<uint16_t>(H * W), 0, 0,
    strideW, strideH, Kw, Kh, dilationW, dilationH,
    false, false, (half)0, false, false, false};
AscendC::Load3DBitModeParam paramBitMode(param);
AscendC::LoadData<AscendC::TPosition::A2, AscendC::TPosition::A1, half>(featureMapA2, featureMapA1,
                                                                        paramBitMode);
"""


@pytest.mark.parametrize("fmatrix", [False, True], ids=["as-printed", "with-SetFmatrix"])
def test_load3d_bitmode_example(fmatrix: bool) -> None:
    """Ho = Wo = (4 + 2 - 2·(2 - 1) - 1) + 1 = 4, so mExtension = H·W = 16 is every output pixel; kExtension =
    C0 = 16 is the kernel point (0, 0) only: row ho·4 + wo of the img2col matrix holds the 16 channels at
    (ho - 1, wo - 1), zero where that falls in the padding. L0A (950) is Nz: one 16 x 16 fractal.
    The Load3DBitModeParam built from the V2 struct carries no l1H / l1W / padList / padValue (the C++
    constructor keeps only the config words), and the page calls no SetFmatrix: as printed, the call reads an
    FMATRIX of zeros — the documented NOP, reported as a HazardWarning (divergence L2). With SetFmatrix /
    SetLoadDataPaddingValue for the same map before it (what the complete example must do), L0A holds the
    img2col rows."""
    rng = np.random.default_rng(22)
    x = rng.integers(-100, 100, (16, 4, 4)).astype(np.float16)  # (C, H, W)
    fmap = x.transpose(1, 2, 0).ravel()  # NC1HWC0 with C1 = 1
    want = np.zeros((16, 16), np.float16)
    for ho in range(4):
        for wo in range(4):
            h, w = ho - 1, wo - 1
            if 0 <= h < 4 and 0 <= w < 4:
                want[ho * 4 + wo] = x[:, h, w]
    setup = ("    uint8_t pads[4] = {1, 1, 1, 1};\n    AscendC::SetFmatrix(4, 4, pads, "
             "AscendC::FmatrixMode::FMATRIX_LEFT);\n    AscendC::SetLoadDataPaddingValue<half>(0);\n"
             if fmatrix else "")
    text = f"""
extern "C" __global__ __aicore__ void k(GM_ADDR src)
{{
    AscendC::GlobalTensor<half> fmGM;
    fmGM.SetGlobalBuffer((__gm__ half *)src, 256);
    AscendC::LocalTensor<half> featureMapA1(AscendC::TPosition::A1, 0, 256);
    AscendC::LocalTensor<half> featureMapA2(AscendC::TPosition::A2, 0, 256);
    AscendC::DataCopy(featureMapA1, fmGM, 256);
    AscendC::SetFlag<AscendC::HardEvent::MTE2_MTE1>(EVENT_ID0);
    AscendC::WaitFlag<AscendC::HardEvent::MTE2_MTE1>(EVENT_ID0);
{setup}{LOAD3D_BITMODE}
}}
"""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        run = Kernel("l3.cpp", "950", text_=text).run(gm={"src": fmap})
    assert run.sync_reports == []
    l0a = run.core.memory("L0A").data[:512]
    if not fmatrix:
        assert any(issubclass(c.category, HazardWarning) and "NOP" in str(c.message) for c in caught)
        assert (l0a == MARKER).all()
        return
    np.testing.assert_array_equal(l0a.view(np.float16), want.ravel())
