"""The C++ call examples (调用示例) of the companion instructions' doc pages, pasted into kernels and run from
source: Fill, DataCopyPad, DataCopy L1 -> BiasTable / Fixpipe Buffer / GM, SetFixPipeConfig,
SetFixpipeNz2ndFlag, SetFixpipePreQuantFlag, DataCopy L0C -> GM / L1 (DataCopyCO12DstParams), Fixpipe
L0C -> L1 and the atomic-add ordering example.

As in tests/program/test_program_docs.py, each SNIPPET is the page's example as the page gives it (comments
dropped); the kernel around it adds only the GM binding and what the page leaves to its complete example
(the tensors and sizes it names, the helper it calls, and — where a block shows statements of several
functions at once, as the DataCopy（L0C到GM）block does — one member function per part). L0C contents arrive
by `preload`, computed here. Expected bytes come from the pages' own descriptions or from numpy
(`golden_deq` / `golden_b8`: tests/support/fixpipe_goldens.py, written from 随路量化.md and Huawei's
generators; `nz` / `zz`: 关键分形格式详解.md) — never from ascsim's output.
"""

from __future__ import annotations

import numpy as np
import pytest
from support.doc_fractals import nz
from support.doc_kernels import run_kernel
from support.fixpipe_goldens import SIGN, golden_b8, golden_deq

from ascsim.machine.memory import MARKER
from ascsim.program import Output

HELPERS = """
__aicore__ inline uint32_t CeilDivision(uint32_t a, uint32_t b) { return (a + b - 1) / b; }
constexpr uint32_t CUBE_BLOCK = 16;
"""
CEIL_ALIGN = """
__aicore__ inline uint32_t CeilAlign(uint32_t a, uint32_t b) { return (a + b - 1) / b * b; }
"""


def _f32bits(x: float) -> int:
    return int(np.array([x], np.float32).view(np.uint32)[0])


# -- Fill.md 调用示例: 16 x 16 floats set to 1 in 32-B blocks

FILL = """
uint32_t mLength = 16;
uint32_t kLength = 16;
Fill(leftMatrix, {1, static_cast<uint16_t>(mLength * kLength * sizeof(float) / 32), 0, 1});
"""


@pytest.mark.parametrize("chip,pos", [("a2", "A1"), ("950", "A1"), ("a2", "A2")])
def test_fill_example(chip: str, pos: str) -> None:
    """"给leftMatrix填充mLength * kLength长度的数据为1，按32B的颗粒度进行填充": 32 blocks of 32 B — an L1
    tensor (表3: "L1 Buffer ... 每一个block（数据块）大小是32B") — so 256 floats = 1.0 and the next byte
    untouched. The same call on an L0A tensor fills 32 blocks of 512 B (表3: "L0A Buffer ... 512B"), 4096
    floats, past the 256 the tensor declares (a HazardWarning)."""
    src = f"""
using namespace AscendC;
extern "C" __global__ __aicore__ void k(GM_ADDR unused)
{{
    AscendC::LocalTensor<float> leftMatrix(AscendC::TPosition::{pos}, 0, 256);
{FILL}
}}
"""
    run = run_kernel(src, chip, {})
    mem = run.core.memory("L0A" if pos == "A2" else "L1").data
    nbytes = 1024 if pos == "A1" else 32 * 512
    np.testing.assert_array_equal(mem[:nbytes].view(np.float32), np.ones(nbytes // 4, np.float32))
    assert mem[nbytes] == MARKER


# -- DataCopyPad（GMToL1非对齐数据搬运）.md 调用示例: Normal and Compact (950)

PAD_NORMAL = """
constexpr uint32_t srcElemCount = 144;
constexpr uint32_t dstElemCount = 192;
AscendC::GlobalTensor<int8_t> srcGm;
srcGm.SetGlobalBuffer((__gm__ int8_t *)src, srcElemCount);
AscendC::LocalTensor<int8_t> dstLocal(AscendC::TPosition::A1, 0, dstElemCount);
AscendC::DataCopyExtParams copyParams;
copyParams.blockCount = 3;
copyParams.blockLen = 48;
copyParams.srcStride = 0;
copyParams.dstStride = 0;
copyParams.rsv = 0;
AscendC::DataCopyPadExtParams<int8_t> padParams;
padParams.isPad = false;
padParams.leftPadding = 0;
padParams.rightPadding = 16;
padParams.paddingValue = static_cast<int8_t>(0);
AscendC::DataCopyPad<int8_t, AscendC::PaddingMode::Normal>(dstLocal, srcGm, copyParams, padParams);
"""
PAD_COMPACT = """
constexpr uint32_t srcElemCount = 144;
constexpr uint32_t dstElemCount = 160;
AscendC::GlobalTensor<int8_t> srcGm;
srcGm.SetGlobalBuffer((__gm__ int8_t *)src, srcElemCount);
AscendC::LocalTensor<int8_t> dstLocal(AscendC::TPosition::A1, 0, dstElemCount);
AscendC::DataCopyExtParams copyParams;
copyParams.blockCount = 3;
copyParams.blockLen = 48;
copyParams.srcStride = 0;
copyParams.dstStride = 0;
copyParams.rsv = 0;
AscendC::DataCopyPadExtParams<int8_t> padParams;
padParams.isPad = false;
padParams.paddingValue = static_cast<int8_t>(0);
AscendC::DataCopyPad<int8_t, AscendC::PaddingMode::Compact>(dstLocal, srcGm, copyParams, padParams);
"""


@pytest.mark.parametrize("mode", ["Normal", "Compact"])
def test_data_copy_pad_examples(mode: str) -> None:
    """Normal: "每块48B有效数据右侧补16B，3块共192B"; Compact: "3块有效数据共144B，只在最后右侧补16B". With
    isPad = false the pad bytes are "随机值" (the never-set pad register: ascsim's marker byte)."""
    x = np.arange(1, 145, dtype=np.int8)
    snippet = PAD_NORMAL if mode == "Normal" else PAD_COMPACT
    src = f'extern "C" __global__ __aicore__ void k(GM_ADDR src)\n{{\n{snippet}\n}}\n'
    run = run_kernel(src, "950", {"src": x})
    l1 = run.core.memory("L1").data
    if mode == "Normal":
        rows = l1[:192].reshape(3, 64)
        np.testing.assert_array_equal(rows[:, :48].view(np.int8), x.reshape(3, 48))
        assert (rows[:, 48:] == MARKER).all()
    else:
        np.testing.assert_array_equal(l1[:144].view(np.int8), x)
        assert (l1[144:160] == MARKER).all()
    assert (l1[192 if mode == "Normal" else 160 :][:64] == MARKER).all()


# -- DataCopy（L1ToBiasTable-Buffer数据搬运）.md 调用示例: SplitBias, both __NPU_ARCH__ branches

BT_STMTS = """
AscendC::LocalTensor<outputType> bias1Local(AscendC::TPosition::C1, c1Addr, biasSizeAlign);
AscendC::LocalTensor<outputType> bias2Local(AscendC::TPosition::C2, c2Addr, biasSizeAlign);
if constexpr (SCENARIO_NUM == 4) {
    SplitBias(bias1Local, bias2Local);
}
"""
BT_FUNC = """
__aicore__ inline void SplitBias(AscendC::LocalTensor<outputType> bias1Local,
                                AscendC::LocalTensor<outputType> bias2Local)
{
#if defined(__NPU_ARCH__) && (__NPU_ARCH__ == 3510)
    AscendC::DataCopyParams c12c2Params =
        {1, static_cast<uint16_t>(biasSizeAlign * sizeof(outputType) / 32), 0, 0};
#else
    AscendC::DataCopyParams c12c2Params =
        {1, static_cast<uint16_t>(biasSizeAlign * sizeof(outputType) / 64), 0, 0};
#endif
    AscendC::DataCopy(bias2Local, bias1Local, c12c2Params);
}
"""


@pytest.mark.parametrize("chip", ["a2", "950"])
def test_bias_table_example(chip: str) -> None:
    """c1Addr = 128 KB, c2Addr = 0, SCENARIO_NUM = 4; the bias reaches L1 from GM (the example's CopyIn).
    BiasTable then holds the biasSizeAlign floats (blockLen counts 64 B on A2, 32 B on 950)."""
    bias = np.arange(64, dtype=np.float32) - 20.5
    src = f"""
constexpr int SCENARIO_NUM = 4;
template <typename outputType>
class KernelBias {{
public:
    __aicore__ inline void Process(GM_ADDR b)
    {{
        biasGM.SetGlobalBuffer((__gm__ outputType*)b, biasSizeAlign);
        AscendC::LocalTensor<outputType> l1(AscendC::TPosition::C1, c1Addr, biasSizeAlign);
        AscendC::DataCopy(l1, biasGM, biasSizeAlign);
        AscendC::PipeBarrier<PIPE_ALL>();
{BT_STMTS}
    }}
{BT_FUNC}
    uint32_t c1Addr = 128 * 1024, c2Addr = 0, biasSizeAlign = 64;
    AscendC::GlobalTensor<outputType> biasGM;
}};
extern "C" __global__ __aicore__ void k(GM_ADDR b)
{{
    KernelBias<float> op;
    op.Process(b);
}}
"""
    run = run_kernel(src, chip, {"b": bias})
    np.testing.assert_array_equal(run.core.memory("BT").data[:256].view(np.float32), bias)


# -- DataCopy（L1ToFixpipe-Buffer数据搬运）.md 调用示例 (scenario 2: VDEQF16)

FB_SNIPPET = """
AscendC::LocalTensor<uint64_t> quantAlphaTensor(AscendC::TPosition::C1, c1Addr, N);
if constexpr (scenarioNum == 2 || scenarioNum == 4 || scenarioNum == 6) {
    CopyQuantAlphaGmToL1(quantAlphaTensor);
}
if constexpr (scenarioNum == 2) {
    intriParams.quantPre = QuantMode_t::VDEQF16;
} else if constexpr (scenarioNum == 4) {
    intriParams.quantPre = QuantMode_t::VQF322B8_PRE;
} else {
    intriParams.quantPre = QuantMode_t::VREQ8;
}
AscendC::LocalTensor<uint64_t> fbTensor(AscendC::TPosition::C2PIPE2GM, fbAddr, N);
uint16_t burstLen = CeilAlign(n * sizeof(uint64_t), 128) / 128;
AscendC::DataCopyParams dataCopyParams(1, burstLen, 0, 0);
AscendC::DataCopy(fbTensor, quantAlphaTensor, dataCopyParams);
AscendC::SetFixPipeConfig(fbTensor);
"""


@pytest.mark.parametrize("chip", ["a2", "950"])
def test_fixpipe_buffer_example(chip: str) -> None:
    """c1Addr = 0, fbAddr = 0, N = n = 256: burstLen 16 (x 128 B) moves the 256 quant words into the Fixpipe
    Buffer, and SetFixPipeConfig points FPC at address 0."""
    words = (np.arange(256, dtype=np.uint64) * 977) | np.uint64(SIGN)
    src = CEIL_ALIGN + f"""
constexpr int scenarioNum = 2;
class KernelFb {{
public:
    __aicore__ inline void Process(GM_ADDR q)
    {{
        quantAlphaGM.SetGlobalBuffer((__gm__ uint64_t*)q, N);
{FB_SNIPPET}
    }}
    __aicore__ inline void CopyQuantAlphaGmToL1(AscendC::LocalTensor<uint64_t> t)
    {{
        AscendC::DataCopy(t, quantAlphaGM, N);
        AscendC::PipeBarrier<PIPE_ALL>();
    }}
    uint32_t c1Addr = 0, fbAddr = 0, N = 256, n = 256;
    AscendC::FixpipeParamsV220 intriParams;
    AscendC::GlobalTensor<uint64_t> quantAlphaGM;
}};
extern "C" __global__ __aicore__ void k(GM_ADDR q)
{{
    KernelFb op;
    op.Process(q);
}}
"""
    run = run_kernel(src, chip, {"q": words})
    np.testing.assert_array_equal(run.core.memory("FB").data[:2048].view("<u8"), words)
    assert run.core.regs.fpc_quant == 0


# -- SetFixPipeConfig.md 调用示例: SetFPC with queue-allocated tensors

SETFPC = """
__aicore__ inline void SetFPC(const LocalTensor <int32_t>& reluPreTensor,
                              const LocalTensor <int32_t>& quantPreTensor)
{
    AscendC::LocalTensor<uint64_t> workA1 = inQueueDeqA1.AllocTensor<uint64_t>();
    uint16_t deqSize = 128;
    AscendC::DataCopy(workA1, deqGlobal, deqSize);
    AscendC::LocalTensor<uint64_t> deqFB = inQueueDeqFB.AllocTensor<uint64_t>();
    uint16_t fbufBurstLen = deqSize / 128;
    AscendC::DataCopyParams dataCopyParams(1, fbufBurstLen, 0, 0);
    AscendC::DataCopy(deqFB, workA1, dataCopyParams);
    AscendC::SetFixPipeConfig(deqFB);
    AscendC::PipeBarrier<PIPE_FIX>();
}
"""


def test_set_fixpipe_config_example() -> None:
    """deqSize = 128 words reach L1; fbufBurstLen = 128 / 128 = 1 moves the first 128 B (16 words) to the
    Fixpipe Buffer tensor the queue gave out; FPC holds that tensor's address (SetFixPipeConfig.md).
    The snippet has no flag between the GM -> L1 copy (MTE2) and the L1 -> Fixpipe Buffer copy (FIX), which
    the DataCopy（L0C到GM）page's example puts there (SetFlag / WaitFlag<MTE2_FIX>): the sync checker says
    so."""
    words = np.arange(1, 129, dtype=np.uint64) << np.uint64(13)
    src = f"""
using namespace AscendC;
class KernelFpc {{
public:
    __aicore__ inline void Process(GM_ADDR deq)
    {{
        deqGlobal.SetGlobalBuffer((__gm__ uint64_t*)deq, 128);
        pipe.InitBuffer(inQueueDeqA1, 1, 128 * sizeof(uint64_t));
        pipe.InitBuffer(inQueueDeqFB, 1, 128 * sizeof(uint64_t));
        AscendC::LocalTensor<int32_t> none;
        SetFPC(none, none);
    }}
{SETFPC}
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::TPosition::C1, 1> inQueueDeqA1;
    AscendC::TQue<AscendC::TPosition::C2PIPE2GM, 1> inQueueDeqFB;
    AscendC::GlobalTensor<uint64_t> deqGlobal;
}};
extern "C" __global__ __aicore__ void k(GM_ADDR deq)
{{
    KernelFpc op;
    op.Process(deq);
}}
"""
    run = run_kernel(src, "a2", {"deq": words}, synced=False)
    assert [r.kind for r in run.sync_reports] == ["RAW"]
    assert "DataCopy (FIX) reads L1" in run.sync_reports[0].message
    assert "with no WaitFlag<MTE2_FIX> between them" in run.sync_reports[0].message
    fpc = run.core.regs.fpc_quant
    fb = run.core.memory("FB").data
    np.testing.assert_array_equal(fb[fpc : fpc + 128].view("<u8"), words[:16])
    assert (fb[fpc + 128 : fpc + 256] == MARKER).all()


# -- SetFixpipeNz2ndFlag.md / SetFixpipePreQuantFlag.md 调用示例: the registers they write

NZ2ND_FLAG = """
uint16_t ndNum = 2;
uint16_t srcNdStride = 2;
uint16_t dstNdStride = 1;
AscendC::SetFixpipeNz2ndFlag(ndNum, srcNdStride, dstNdStride);
"""
PREQUANT_FLAG = """
float tmp = (float)0.5;
uint64_t deqScalar = static_cast<uint64_t>(*reinterpret_cast<int32_t*>(&tmp));
AscendC::SetFixpipePreQuantFlag(deqScalar);
AscendC::PipeBarrier<PIPE_FIX>();
"""


@pytest.mark.parametrize("chip", ["a2", "950"])
def test_fixpipe_register_setter_examples(chip: str) -> None:
    """ND_PARA = (ndNum 2, srcNdStride 2, dstNdStride 1); QUANT_PRE = the float bits of 0.5 (0x3F000000)."""
    src = f'extern "C" __global__ __aicore__ void k(GM_ADDR unused)\n{{\n{NZ2ND_FLAG}\n{PREQUANT_FLAG}\n}}\n'
    run = run_kernel(src, chip, {})
    assert run.core.regs.nd_para == (2, 2, 1)
    assert run.core.regs.quant_pre == 0x3F000000 == _f32bits(0.5)


# -- DataCopy（L0C到GM数据搬运）.md 调用示例 一 (DEQF16 scalar, ReLU, NZ2ND) and 二 (VDEQF16 from the Fixpipe
#    Buffer, ReLU, NZ out)

L0C2GM_1 = """
    float quantScalar = 2.0;
    uint64_t deqScalar = static_cast<uint64_t>(*reinterpret_cast<int32_t*>(&quantScalar));
    AscendC::SetFixpipePreQuantFlag(deqScalar);
    AscendC::DataCopyCO12DstParams intriParams;
    intriParams.nSize = n;
    intriParams.mSize = m;
    intriParams.srcStride = CeilAlign(m, CUBE_BLOCK);
    intriParams.dstStride = n;
    intriParams.quantPre = QuantMode_t::DEQF16;
    intriParams.reluPre = 1;
    intriParams.nz2ndEn = true;
    AscendC::DataCopy(cGM, cLocal, intriParams);
"""
L0C2GM_2_COPYIN = """
    uint16_t burstLen = CeilAlign(n * sizeof(uint64_t), 128) / AscendC::ONE_BLK_SIZE;
    AscendC::DataCopyParams intriParams{ 1, burstLen, 0, 0 };
    AscendC::DataCopy(quantAlphaTensor, quantAlphaGM, intriParams);
    AscendC::SetFlag<AscendC::HardEvent::MTE2_FIX>(EVENT_ID0);
    AscendC::WaitFlag<AscendC::HardEvent::MTE2_FIX>(EVENT_ID0);
"""
L0C2GM_2_COPYOUT = """
    uint16_t fbufBurstLen = CeilAlign(deqDataSize, 128) / 128;
    AscendC::DataCopyParams dataCopyParams(1, fbufBurstLen, 0, 0);
    AscendC::DataCopy(fbTensor, quantAlphaTensor, dataCopyParams);
    AscendC::SetFixPipeConfig(fbTensor);
    AscendC::DataCopyCO12DstParams intriParams;
    intriParams.nSize = CeilAlign(n, CUBE_BLOCK);
    intriParams.mSize = m;
    intriParams.srcStride = CeilAlign(m, CUBE_BLOCK);
    intriParams.dstStride = m * C0_SIZE / AscendC::ONE_BLK_SIZE;
    intriParams.quantPre = QuantMode_t::VDEQF16;
    intriParams.reluPre = 1;
    AscendC::DataCopy(cGM, cLocal, intriParams);
"""
L0C_KERNEL = CEIL_ALIGN + HELPERS + """
constexpr uint32_t C0_SIZE = 32;
class KernelOut {
public:
    __aicore__ inline void Init(GM_ADDR c, GM_ADDR q)
    {
        cGM.SetGlobalBuffer((__gm__ half*)c, m * n);
        quantAlphaGM.SetGlobalBuffer((__gm__ uint64_t*)q, n);
    }
    __aicore__ inline void CopyIn()
    {
COPYIN
    }
    __aicore__ inline void CopyOut()
    {
COPYOUT
    }
    uint32_t m = 32, n = 48, deqDataSize = 48 * sizeof(uint64_t);
    AscendC::LocalTensor<int32_t> cLocal{AscendC::TPosition::CO1, 0, 32 * 48};
    AscendC::LocalTensor<uint64_t> quantAlphaTensor{AscendC::TPosition::C1, 0, 48};
    AscendC::LocalTensor<uint64_t> fbTensor{AscendC::TPosition::C2PIPE2GM, 0, 48};
    AscendC::GlobalTensor<half> cGM;
    AscendC::GlobalTensor<uint64_t> quantAlphaGM;
};
extern "C" __global__ __aicore__ void k(GM_ADDR c, GM_ADDR q)
{
    KernelOut op;
    op.Init(c, q);
    op.CopyIn();
    op.CopyOut();
}
"""


def _l0c_int32(m: int, n: int) -> np.ndarray:
    rng = np.random.default_rng(m * n)
    return (rng.integers(-3, 3, (m, 64)) @ rng.integers(-3, 3, (64, n))).astype(np.int32) * 37


@pytest.mark.parametrize("chip", ["a2", "950"])
@pytest.mark.parametrize("example", [1, 2])
def test_data_copy_l0c_to_gm_examples(chip: str, example: int) -> None:
    """一: C (int32, 32 x 48) * 2.0 with Normal ReLU, half, row-major (dstStride = n). The ND_PARA register
    is the C++ API's default (ndNum 1) — the page's complete example never changes it. 二: the same C with a
    per-column scale from the Fixpipe Buffer, written Nz (16-column blocks m * 32 B apart)."""
    m, n = 32, 48
    c = _l0c_int32(m, n)
    words = np.array([_f32bits(0.25 * (1 + j % 5)) for j in range(n)], np.uint64)
    copy_in = "" if example == 1 else L0C2GM_2_COPYIN
    copy_out = L0C2GM_1 if example == 1 else L0C2GM_2_COPYOUT
    src = L0C_KERNEL.replace("COPYIN", copy_in).replace("COPYOUT", copy_out)
    preload = {"L0C": {0: nz(c, 16).astype(np.int32).tobytes()}}
    run = run_kernel(src, chip, {"c": Output("half", (m * n,)), "q": words}, preload=preload)
    got = run.outputs["c"]
    if example == 1:
        want = golden_deq(c, np.uint64(_f32bits(2.0)), relu=True).ravel()
    else:
        want = nz(golden_deq(c, words, relu=True), 16)
    np.testing.assert_array_equal(got.view(np.uint16), want.view(np.uint16))


# -- DataCopy（L0C到L1数据搬运）.md and Fixpipe（L0C到L1数据搬运）.md 调用示例: QF322B8_PRE into L1 (int8 NZ)

L0C2L1_DATACOPY = """
    constexpr uint16_t c0Size = 32;
    AscendC::DataCopyCO12DstParams dataCopyParams;
    dataCopyParams.dstStride = baseM * c0Size * sizeof(outputType) / AscendC::ONE_BLK_SIZE;
    dataCopyParams.mSize = baseM;
    dataCopyParams.srcStride = CeilAlign(baseM, CUBE_BLOCK);
    dataCopyParams.nSize = baseN;
    dataCopyParams.quantPre = QuantMode_t::QF322B8_PRE;
    uint64_t deqScalar = static_cast<uint64_t>(*reinterpret_cast<int32_t*>(&quantScalar));
    constexpr bool sign = (AscendC::IsSameType<outputType, int8_t>::value) ? true : false;
    deqScalar = (deqScalar & ~(static_cast<uint64_t>(1) << 46)) | (static_cast<uint64_t>(sign) << 46);
    AscendC::SetFixpipePreQuantFlag(deqScalar);
    AscendC::DataCopy(c1Local, c, dataCopyParams);
"""
L0C2L1_FIXPIPE = """
    AscendC::LocalTensor<outputType> c1Local(AscendC::TPosition::C1, c1Addr, cSizeAlignL1);
#if defined(__NPU_ARCH__) && (__NPU_ARCH__ == 2201)
    uint16_t c0Size = 32;
    AscendC::FixpipeParamsV220 fixpipeParams;
    fixpipeParams.dstStride = baseM * c0Size * sizeof(outputType) / AscendC::ONE_BLK_SIZE;
    fixpipeParams.mSize = baseM;
    fixpipeParams.srcStride = CeilAlign(baseM, CUBE_BLOCK);
    fixpipeParams.nSize = baseN;
    fixpipeParams.quantPre = QuantMode_t::QF322B8_PRE;
    uint64_t deqScalar = static_cast<uint64_t>(*reinterpret_cast<int32_t *>(&quantScalar));
    constexpr bool sign = (AscendC::IsSameType<outputType, int8_t>::value) ? true : false;
    deqScalar = (deqScalar & ~(static_cast<uint64_t>(1) << 46)) | (static_cast<uint64_t>(sign) << 46);
    fixpipeParams.deqScalar = deqScalar;
    AscendC::Fixpipe<outputType, l0cType, AscendC::CFG_NZ>(c1Local, c, fixpipeParams);
#elif defined(__NPU_ARCH__) && (__NPU_ARCH__ == 3510)
    uint16_t c0Size = 32;
    AscendC::FixpipeParamsArch3510<AscendC::CO2Layout::NZ> fixpipeParams;
    fixpipeParams.dstStride = baseM * c0Size;
    fixpipeParams.mSize = baseM;
    fixpipeParams.srcStride = CeilAlign(baseM, CUBE_BLOCK);
    fixpipeParams.nSize = baseN;
    fixpipeParams.quantPre = QuantMode_t::QF322B8_PRE;
    uint64_t deqScalar = static_cast<uint64_t>(*reinterpret_cast<int32_t *>(&quantScalar));
    constexpr bool sign = (AscendC::IsSameType<outputType, int8_t>::value) ? true : false;
    deqScalar = (deqScalar & ~(static_cast<uint64_t>(1) << 46)) | (static_cast<uint64_t>(sign) << 46);
    fixpipeParams.deqScalar = deqScalar;
    AscendC::Fixpipe<outputType, l0cType, AscendC::CFG_NZ>(c1Local, c, fixpipeParams);
#endif
"""


@pytest.mark.parametrize("chip", ["a2", "950"])
@pytest.mark.parametrize("form", ["DataCopy", "Fixpipe"])
def test_l0c_to_l1_int8_examples(chip: str, form: str) -> None:
    """float C (32 x 64) * quantScalar 2.0, Sign bit set for int8_t: int8 NZ in L1 with 16 x 32 fractals
    (Int8-Channel-Merge.md), 32-column blocks baseM * 32 B apart."""
    m, n = 32, 64
    rng = np.random.default_rng(3)
    cf = (rng.standard_normal((m, n)) * 40).astype(np.float32)
    decl = "" if form == "Fixpipe" else (
        "    AscendC::LocalTensor<outputType> c1Local(AscendC::TPosition::C1, c1Addr, cSizeAlignL1);\n")
    body = L0C2L1_FIXPIPE if form == "Fixpipe" else L0C2L1_DATACOPY
    src = CEIL_ALIGN + HELPERS + f"""
template <typename outputType, typename l0cType>
class KernelL1 {{
public:
    __aicore__ inline void CopyOut()
    {{
{decl}{body}
    }}
    uint32_t baseM = {m}, baseN = {n}, c1Addr = 0, cSizeAlignL1 = {m * n};
    float quantScalar = 2.0;
    AscendC::LocalTensor<l0cType> c{{AscendC::TPosition::CO1, 0, {m * n}}};
}};
extern "C" __global__ __aicore__ void k(GM_ADDR unused)
{{
    KernelL1<int8_t, float> op;
    op.CopyOut();
}}
"""
    run = run_kernel(src, chip, {}, preload={"L0C": {0: nz(cf, 16).astype(np.float32).tobytes()}})
    want = nz(golden_b8(cf, np.uint64(_f32bits(2.0) | SIGN), relu=False).astype(np.int8), 32)
    np.testing.assert_array_equal(run.core.memory("L1").data[: m * n].view(np.int8), want)


# -- DataCopy（L1ToGM高维切分数据搬运）.md 调用示例 (A2 / A3)

L1GM = """
constexpr uint32_t srcElemCount = 112;
constexpr uint32_t dstElemCount = 128;
AscendC::LocalTensor<half> srcLocal(AscendC::TPosition::A1, a1Addr, srcElemCount);
AscendC::GlobalTensor<half> dstGm;
dstGm.SetGlobalBuffer((__gm__ half *)dst, dstElemCount);
AscendC::DataCopyParams repeatParams;
repeatParams.blockCount = 2;
repeatParams.blockLen = 3;
repeatParams.srcGap = 1;
repeatParams.dstGap = 2;
AscendC::DataCopy(dstGm, srcLocal, repeatParams);
"""


@pytest.mark.parametrize("chip", ["a2", "a3"])
def test_l1_to_gm_example(chip: str) -> None:
    """图2: "48个有效half + 16个跳过half + 48个有效half" in L1; GM gets two blocks of 48 halfs with 32 halfs
    between them left as they were."""
    x = np.arange(112, dtype=np.float16) - 50
    src = f"""
extern "C" __global__ __aicore__ void k(GM_ADDR img, GM_ADDR dst)
{{
    constexpr uint32_t a1Addr = 0;
    AscendC::GlobalTensor<half> imgGm;
    imgGm.SetGlobalBuffer((__gm__ half *)img, 128);
    AscendC::LocalTensor<half> staged(AscendC::TPosition::A1, a1Addr, 128);
    AscendC::DataCopy(staged, imgGm, 128);
    AscendC::SetFlag<AscendC::HardEvent::MTE2_MTE3>(EVENT_ID0);
    AscendC::WaitFlag<AscendC::HardEvent::MTE2_MTE3>(EVENT_ID0);
{L1GM}
}}
"""
    before = np.full(128, 7, np.float16)
    run = run_kernel(src, chip, {"img": np.pad(x, (0, 16)), "dst": before})
    got = run.read_gm("dst", "half")
    np.testing.assert_array_equal(got[:48], x[:48])
    np.testing.assert_array_equal(got[48:80], before[48:80])
    np.testing.assert_array_equal(got[80:], x[64:112])


# -- 原子操作/关键特性说明.md 调用示例 (scenarioNum = 1): ordered atomic adds on one core

ATOMIC_ORDER = """
AscendC::DataCopy(dstGlobal, src0Local, DATA_LENGTH);
AscendC::PipeBarrier<PIPE_MTE3>();
AscendC::SetAtomicAdd<float>();
AscendC::DataCopy(dstGlobal, src2Local, DATA_LENGTH);
AscendC::PipeBarrier<PIPE_MTE3>();
AscendC::DataCopy(dstGlobal, src3Local, DATA_LENGTH);
AscendC::PipeBarrier<PIPE_MTE3>();
AscendC::DataCopy(dstGlobal, src1Local, DATA_LENGTH);
AscendC::DisableDmaAtomic();
"""


def test_atomic_add_order_example_from_l1() -> None:
    """"GM结果：data0 + data2 + data3 + data1", summed in float32 in that order. The page's tensors are UB
    tensors of a vector core; on the cube core the same copies run from L1 (SetAtomicAdd.md: A2/A3 paths
    "UB/L0C Buffer/L1 Buffer->GM"), so the kernel declares them in A1 — the only change."""
    n = 256
    rng = np.random.default_rng(8)
    data = [(rng.standard_normal(n) * 10 ** rng.integers(0, 6, n)).astype(np.float32) for _ in range(4)]
    src = f"""
constexpr uint32_t DATA_LENGTH = {n};
extern "C" __global__ __aicore__ void k(GM_ADDR s, GM_ADDR d)
{{
    AscendC::GlobalTensor<float> srcGlobal, dstGlobal;
    srcGlobal.SetGlobalBuffer((__gm__ float*)s, 4 * DATA_LENGTH);
    dstGlobal.SetGlobalBuffer((__gm__ float*)d, DATA_LENGTH);
    AscendC::LocalTensor<float> src0Local(AscendC::TPosition::A1, 0, DATA_LENGTH);
    AscendC::LocalTensor<float> src1Local(AscendC::TPosition::A1, 1 * DATA_LENGTH * 4, DATA_LENGTH);
    AscendC::LocalTensor<float> src2Local(AscendC::TPosition::A1, 2 * DATA_LENGTH * 4, DATA_LENGTH);
    AscendC::LocalTensor<float> src3Local(AscendC::TPosition::A1, 3 * DATA_LENGTH * 4, DATA_LENGTH);
    AscendC::DataCopy(src0Local, srcGlobal, 4 * DATA_LENGTH);
    AscendC::SetFlag<AscendC::HardEvent::MTE2_MTE3>(EVENT_ID0);
    AscendC::WaitFlag<AscendC::HardEvent::MTE2_MTE3>(EVENT_ID0);
{ATOMIC_ORDER}
}}
"""
    run = run_kernel(src, "a2", {"s": np.concatenate(data), "d": Output("float", (n,))})
    want = data[0].copy()
    for i in (2, 3, 1):
        want = (want + data[i]).astype(np.float32)  # float32 sums, rounded after each add
    np.testing.assert_array_equal(run.outputs["d"], want)
