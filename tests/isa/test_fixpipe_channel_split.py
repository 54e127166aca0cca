"""F32 Channel Split: Fixpipe / DataCopy L0C -> GM NZ with 16x8 destination fractals.

References, none of them ascsim's own output:
- F32-Channel-Split.md 特性说明: "硬件就能够将16×16的分形矩阵转换为16×8的小z分形矩阵，此时每个16×16的分形矩阵
  将被拆分为2个独立的16×8的小z分形矩阵"; 图1 ([64, 32] -> 16 fractals of 16x8) and 图2 ([64, 24] -> three
  columns of 16x8 fractals, nSize a multiple of 8); NZ2NZ.md 特性约束 "小分形维度为16*8".
- The numpy golden of Huawei's fixpipe_l0c2gm example, scenario 7 (asc-devkit examples/01_simd_cpp_api/
  03_basic_api/03_matrix_compute/fixpipe_l0c2gm/scripts/gen_data.py: C (M x N float) reshaped
  (M/16, 16, N/8, 8) and transposed (2, 0, 1, 3)), restated here as index arithmetic.
- A slow loop reference written from the same sentences (`split_reference`), checked by hypothesis.
Restrictions: the C++ API asserts float -> float, NZ, GM-only (dav_c220 kernel_operator_fixpipe_v2_impl.h
CheckFixpipeL0C2GMParam / CheckFixpipeL0C2L1Param; dav_3510 kernel_operator_fixpipe_impl.h FixpipeL0cToOut /
FixpipeL0cToL1) and nSize % 8 (3510 CheckFixpipeParams); unitFlag and the DataCopy form's rules are the doc's
(divergence E2).
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from support.doc_kernels import Kernel

from ascsim import Core
from ascsim.base.errors import OverlapError, ParamRangeError, UnsupportedError
from ascsim.machine.memory import MARKER
from ascsim.params import (
    CFG_NZ,
    CFG_ROW_MAJOR,
    DataCopyCO12DstParams,
    FixpipeParamsArch3510,
    FixpipeParamsV220,
    QuantMode_t,
)
from ascsim.program import Output

MARK32 = int.from_bytes(bytes([MARKER] * 4), "little")


def l0c_nz(c: np.ndarray, stride: int) -> np.ndarray:
    """C (m x n) as L0C holds it: 16x16 fractals, column block j at j*stride*16 elements, row r at r*16."""
    m, n = c.shape
    out = np.zeros(((n + 15) // 16) * stride * 16, np.float32)
    for r in range(m):
        for col in range(n):
            out[(col // 16) * stride * 16 + r * 16 + col % 16] = c[r, col]
    return out


def split_reference(c_l0c: np.ndarray, m: int, n: int, src_stride: int, dst_block: int, dst: np.ndarray
                    ) -> np.ndarray:
    """Every 16x16 source fractal leaves as two independent 16x8 ones: column `col` of row `r` goes to
    8-column block col // 8 (dst_block elements apart), row r, position col % 8."""
    out = dst.copy()
    for r in range(m):
        for col in range(n):
            src = (col // 16) * src_stride * 16 + r * 16 + col % 16
            out[(col // 8) * dst_block + r * 8 + col % 8] = c_l0c[src]
    return out


def _params(chip: str, n: int, m: int, src_stride: int, dst_block: int, **kw):
    """dstStride: 32-B blocks in FixpipeParamsV220, elements in FixpipeParamsArch3510 (表3 / 表4)."""
    if chip == "a2":
        return FixpipeParamsV220(nSize=n, mSize=m, srcStride=src_stride, dstStride=dst_block * 4 // 32,
                                 isChannelSplit=True, **kw)
    return FixpipeParamsArch3510(nSize=n, mSize=m, srcStride=src_stride, dstStride=dst_block,
                                 isChannelSplit=True, **kw)


@pytest.mark.parametrize("chip", ["a2", "ascend950"])
@pytest.mark.parametrize("n", [32, 24], ids=["fig1-64x32", "fig2-64x24"])
def test_doc_figures(chip: str, n: int) -> None:
    """图1: [64, 32] becomes 16 fractals of 16x8 (4 column blocks x 4 row fractals); 图2: [64, 24] becomes
    three columns of 16x8 fractals, the 8 dirty L0C columns 24..31 are not moved."""
    m = 64
    rng = np.random.default_rng(n)
    c = rng.standard_normal((m, 32)).astype(np.float32)
    core = Core(chip)
    src = core.tensor("CO1", "float", 2 * 64 * 16, data=l0c_nz(c, 64))
    out = core.global_tensor("float", 4 * 512)
    core.fixpipe(out, src, _params(chip, n, m, 64, 512), CFG_NZ)
    got = out.read()
    blocks = n // 8
    for k in range(blocks):  # block k: the 64 rows x 8 columns C[:, 8k:8k+8], row-major
        np.testing.assert_array_equal(got[k * 512 : (k + 1) * 512].reshape(64, 8), c[:, 8 * k : 8 * k + 8])
    assert (out.read_raw()[blocks * 512 :] == MARK32).all()


@pytest.mark.parametrize("chip", ["a2", "ascend950"])
def test_datacopy_channel_split(chip: str) -> None:
    """DataCopy(gm, l0c, DataCopyCO12DstParams{..., channelSplit = true, nz2ndEn = false}): the same move
    (DataCopy（L0C到GM数据搬运）.md 表3 channelSplit; NZ dstStride in 32-B blocks on both chips: dav_3510
    DataCopyL0C2GMImpl converts it to elements)."""
    m, n = 32, 48
    c = np.arange(m * n, dtype=np.float32).reshape(m, n) / 4
    core = Core(chip)
    src = core.tensor("CO1", "float", 3 * 32 * 16, data=l0c_nz(c, 32))
    out = core.global_tensor("float", 6 * 256)
    p = DataCopyCO12DstParams(n, m, 32 * 8 * 4 // 32, 32, QuantMode_t.NoQuant, 0, True, False)
    core.data_copy(out, src, p)
    want = c.reshape(m, n // 8, 8).transpose(1, 0, 2).ravel()
    np.testing.assert_array_equal(out.read(), want)


@pytest.mark.parametrize("chip", ["a2", "950"])
def test_fixpipe_l0c2gm_scenario_7_kernel(chip: str) -> None:
    """A kernel written from the pattern of Huawei's fixpipe_l0c2gm example (scenario 7): half A / B through
    ND2NZ, LoadData2D into L0A / L0B (Zz / Zn), Mmad into float L0C, Fixpipe NZ with isChannelSplit; the
    result compared with numpy's matmul laid out as that example's golden (16 x 8 fractals, column block
    outermost)."""
    m, k, n = 32, 32, 32
    rng = np.random.default_rng(7)
    a = rng.uniform(-2, 2, (m, k)).astype(np.float16)
    b = rng.uniform(-2, 2, (k, n)).astype(np.float16)
    params = (
        "AscendC::FixpipeParamsV220 fp;\n    fp.dstStride = M * 8 * sizeof(float) / 32;"
        if chip == "a2" else
        "AscendC::FixpipeParamsArch3510<AscendC::CO2Layout::NZ> fp;\n    fp.dstStride = M * 8;"
    )
    src = f"""
constexpr uint32_t M = {m}, K = {k}, N = {n};
extern "C" __global__ __aicore__ void split(GM_ADDR a, GM_ADDR b, GM_ADDR c)
{{
    AscendC::GlobalTensor<half> aGM, bGM;
    AscendC::GlobalTensor<float> cGM;
    aGM.SetGlobalBuffer((__gm__ half*)a, M * K);
    bGM.SetGlobalBuffer((__gm__ half*)b, K * N);
    cGM.SetGlobalBuffer((__gm__ float*)c, M * N);
    AscendC::LocalTensor<half> a1(AscendC::TPosition::A1, 0, M * K);
    AscendC::LocalTensor<half> b1(AscendC::TPosition::B1, 64 * 1024, K * N);
    AscendC::LocalTensor<half> a2(AscendC::TPosition::A2, 0, M * K);
    AscendC::LocalTensor<half> b2(AscendC::TPosition::B2, 0, K * N);
    AscendC::LocalTensor<float> c1(AscendC::TPosition::CO1, 0, M * N);
    AscendC::DataCopy(a1, aGM, AscendC::Nd2NzParams{{1, M, K, 0, K, M, 1, 0}});
    AscendC::DataCopy(b1, bGM, AscendC::Nd2NzParams{{1, K, N, 0, N, K, 1, 0}});
    AscendC::SetFlag<AscendC::HardEvent::MTE2_MTE1>(EVENT_ID0);
    AscendC::WaitFlag<AscendC::HardEvent::MTE2_MTE1>(EVENT_ID0);
#if defined(__NPU_ARCH__) && (__NPU_ARCH__ == 3510)
    AscendC::LoadData2DParamsV2 la;  // 950's L0A holds Nz: one call, as the example's SplitA
    la.mStep = M / 16;
    la.kStep = K / 16;
    la.srcStride = M / 16;
    la.dstStride = M / 16;
    AscendC::LoadData(a2, a1, la);
#else
    for (uint32_t i = 0; i < M / 16; ++i) {{
        AscendC::LoadData(a2[i * K * 16], a1[i * 256],
                          AscendC::LoadData2DParams{{0, K / 16, M / 16, 0, 0, false, 0}});
    }}
#endif
    for (uint32_t i = 0; i < K / 16; ++i) {{
        AscendC::LoadData(b2[i * N * 16], b1[i * 256],
                          AscendC::LoadData2DParams{{0, N / 16, K / 16, 0, 0, true, 0}});
    }}
    AscendC::SetFlag<AscendC::HardEvent::MTE1_M>(EVENT_ID0);
    AscendC::WaitFlag<AscendC::HardEvent::MTE1_M>(EVENT_ID0);
    AscendC::Mmad(c1, a2, b2, AscendC::MmadParams{{M, N, K, 0, false, true}});
    AscendC::SetFlag<AscendC::HardEvent::M_FIX>(EVENT_ID0);
    AscendC::WaitFlag<AscendC::HardEvent::M_FIX>(EVENT_ID0);
    {params}
    fp.nSize = N;
    fp.mSize = M;
    fp.srcStride = M;
    fp.isChannelSplit = true;
    AscendC::Fixpipe<float, float, AscendC::CFG_NZ>(cGM, c1, fp);
}}
"""
    run = Kernel("split.cpp", chip, text_=src).run(gm={"a": a, "b": b, "c": Output("float", (m * n,))})
    assert run.sync_reports == []
    gold = a.astype(np.float64) @ b.astype(np.float64)
    want = np.empty(m * n)
    for r in range(m):
        for col in range(n):
            want[(col // 8) * m * 8 + r * 8 + col % 8] = gold[r, col]
    np.testing.assert_allclose(run.outputs["c"], want, rtol=1e-6, atol=1e-5)


def _fp(chip: str = "a2", **kw):
    base = dict(nSize=16, mSize=16, srcStride=1, dstStride=16, isChannelSplit=True)
    base.update(kw)
    return (FixpipeParamsV220 if chip == "a2" else FixpipeParamsArch3510)(**base)


@pytest.mark.parametrize("chip,ddt,dst_pos,p,cfg,exc,msg", [
    ("a2", "half", "GM", _fp(quantPre=QuantMode_t.F322F16), CFG_NZ, UnsupportedError,
     r"Fixpipe: isChannelSplit needs float -> float, but got float -> half \(the C\+\+ API rejects this"),
    ("a2", "float", "GM", _fp(), CFG_ROW_MAJOR, UnsupportedError,
     r"Fixpipe: isChannelSplit needs NZ output .* but got CFG_ROW_MAJOR \(the C\+\+ API rejects this"),
    ("ascend950", "half", "C1", _fp("ascend950", quantPre=QuantMode_t.F322F16), CFG_NZ, UnsupportedError,
     r"Fixpipe: isChannelSplit exists only for L0C -> GM, but got an L1 destination \(the C\+\+ API"),
    ("ascend950", "float", "GM", _fp("ascend950", nSize=20), CFG_NZ, ParamRangeError,
     r"Fixpipe: nSize must be a multiple of 8 with isChannelSplit .* but got 20 \(the C\+\+ API rejects"),
    ("a2", "float", "GM", _fp(unitFlag=2), CFG_NZ, ParamRangeError,
     r"Fixpipe: isChannelSplit needs unitFlag 0, but got 2 \(the doc page forbids this: F32-Channel-Split"
     r".*divergence E2\)"),
    ("a2", "float", "GM", _fp(nSize=32, dstStride=7), CFG_NZ, OverlapError,
     r"Fixpipe: dstStride must place the 8-column blocks at least mSize\*8 = 128 elements apart"),
])
def test_errors_leave_memory(chip, ddt, dst_pos, p, cfg, exc, msg) -> None:
    core = Core(chip)
    src = core.tensor("CO1", "float", 1024, data=np.ones(1024, np.float32))
    out = core.global_tensor(ddt, 1024) if dst_pos == "GM" else core.tensor(dst_pos, ddt, 1024)
    before = out.bytes().copy()
    with pytest.raises(exc, match="^" + msg):
        core.fixpipe(out, src, p, cfg)
    assert np.array_equal(out.bytes(), before)


def test_datacopy_channel_split_refusals() -> None:
    """The DataCopy form passes channelSplit to the hardware unchecked; ascsim keeps the page's rules."""
    core = Core("a2")
    src = core.tensor("CO1", "float", 1024, data=np.ones(1024, np.float32))
    out = core.global_tensor("half", 1024)
    core.set_fixpipe_nz2nd_flag(1, 0, 0)
    with pytest.raises(UnsupportedError, match=r"^DataCopy: channelSplit needs NZ output .*CFG_ROW_MAJOR "
                                               r"\(the doc page forbids this: F32-Channel-Split.md"):
        core.data_copy(out, src, DataCopyCO12DstParams(16, 16, 16, 1, QuantMode_t.F322F16, 0, True, True))
    with pytest.raises(UnsupportedError, match=r"^DataCopy: channelSplit needs float -> float.*E2"):
        core.data_copy(out, src, DataCopyCO12DstParams(16, 16, 16, 1, QuantMode_t.F322F16, 0, True, False))
    assert (out.bytes() == MARKER).all()


@st.composite
def split_case(draw):
    chip = draw(st.sampled_from(["a2", "ascend950"]))
    m = draw(st.integers(1, 40))
    n = 8 * draw(st.integers(1, 6))
    src_stride = draw(st.integers((m + 15) // 16, 4))
    dst_block = m * 8 + 8 * draw(st.integers(0, 3))  # V220 counts 32 B = 8 floats, so whole rows of 8
    return chip, m, n, src_stride, dst_block


@settings(max_examples=40, deadline=None)
@given(case=split_case())
def test_fast_equals_reference(case) -> None:
    chip, m, n, src_stride, dst_block = case
    core = Core(chip)
    vals = np.random.default_rng(m * 97 + n).standard_normal(4096).astype(np.float32) * 100
    src = core.tensor("CO1", "float", 4096, data=vals)
    out = core.global_tensor("float", 6 * dst_block + 64)
    before = out.read_raw().view(np.float32).copy()
    core.fixpipe(out, src, _params(chip, n, m, src_stride, dst_block), CFG_NZ)
    want = split_reference(vals, m, n, src_stride, dst_block, before)
    np.testing.assert_array_equal(out.read_raw(), want.view(np.uint32))
