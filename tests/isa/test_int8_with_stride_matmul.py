"""Issue 7 behaviour 2 end to end: an int8 matmul on 950 whose B reaches L0B through LoadDataWithStride.

LoadDataWithStride.md 数据类型 lists half / bfloat16_t / int32_t / uint32_t / float for B1 -> B2;
LoadData_3D.md and the input-constraint table allow b8 into L0B on 950, the C++ static_assert takes it,
and Huawei's load_data_with_stride example (asc-devkit
examples/01_simd_cpp_api/03_basic_api/03_matrix_compute/load_data_with_stride, scenarios 1-2) does it:
B (K x N) arrives in L1 by ND2NZ with dstNzC0Stride = CeilAlign(K, 32), then LoadDataWithStride with
l1H = 1, l1W = mExtension = CeilAlign(K, 32), channelSize = kExtension = CeilAlign(N, 32) and
SetLoadDataRepeatWithStride dstStride = N / 16. ascsim executes it with a DocConflictWarning (divergence
L23; strict: tests/isa/test_doc_examples_load3d.py). The kernel below follows that pattern (A by the same
instruction into L0A, no transpose) and is compared with numpy's integer matmul; the hypothesis test
compares the L0B bytes with the slow reference interpreter (isa/load3d_ref.py).
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from support.doc_kernels import Kernel

from ascsim import Core, DocConflictWarning, LoadData3DParamsV2, LoadDataRepeatParamWithStride
from ascsim.isa.load3d_ref import ref_load3d_v2
from ascsim.program import Output

KERNEL = """
constexpr uint32_t M = {m}, K = {k}, N = {n};
extern "C" __global__ __aicore__ void mm(GM_ADDR a, GM_ADDR b, GM_ADDR c)
{{
    AscendC::GlobalTensor<int8_t> aGM, bGM;
    AscendC::GlobalTensor<int32_t> cGM;
    aGM.SetGlobalBuffer((__gm__ int8_t*)a, M * K);
    bGM.SetGlobalBuffer((__gm__ int8_t*)b, K * N);
    cGM.SetGlobalBuffer((__gm__ int32_t*)c, M * N);
    AscendC::LocalTensor<int8_t> a1(AscendC::TPosition::A1, 0, M * K);
    AscendC::LocalTensor<int8_t> b1(AscendC::TPosition::B1, 128 * 1024, K * N);
    AscendC::LocalTensor<int8_t> a2(AscendC::TPosition::A2, 0, M * K);
    AscendC::LocalTensor<int8_t> b2(AscendC::TPosition::B2, 0, K * N);
    AscendC::LocalTensor<int32_t> c1(AscendC::TPosition::CO1, 0, M * N);
    AscendC::DataCopy(a1, aGM, AscendC::Nd2NzParams{{1, M, K, 0, K, M, 1, 0}});
    AscendC::DataCopy(b1, bGM, AscendC::Nd2NzParams{{1, K, N, 0, N, K, 1, 0}});
    AscendC::SetFlag<AscendC::HardEvent::MTE2_MTE1>(EVENT_ID0);
    AscendC::WaitFlag<AscendC::HardEvent::MTE2_MTE1>(EVENT_ID0);
    AscendC::LoadData3DParamsV2<int8_t> pa;
    pa.l1H = 1;
    pa.l1W = M;
    pa.channelSize = K;
    pa.kExtension = K;
    pa.mExtension = M;
    pa.strideW = 1;
    pa.strideH = 1;
    pa.filterW = 1;
    pa.filterH = 1;
    pa.dilationFilterW = 1;
    pa.dilationFilterH = 1;
    pa.enTranspose = false;
    AscendC::SetLoadDataRepeatWithStride({{0, 1, 0, M / 16}});
    AscendC::LoadDataWithStride(a2, a1, pa);
    AscendC::LoadData3DParamsV2<int8_t> pb = pa;
    pb.l1W = K;
    pb.channelSize = N;
    pb.kExtension = N;
    pb.mExtension = K;
    pb.enTranspose = true;
    AscendC::SetLoadDataRepeatWithStride({{0, 1, 0, N / 16}});
    AscendC::LoadDataWithStride(b2, b1, pb);
    AscendC::SetFlag<AscendC::HardEvent::MTE1_M>(EVENT_ID0);
    AscendC::WaitFlag<AscendC::HardEvent::MTE1_M>(EVENT_ID0);
    AscendC::Mmad(c1, a2, b2, AscendC::MmadParams{{M, N, K, 0, false, true}});
    AscendC::SetFlag<AscendC::HardEvent::M_FIX>(EVENT_ID0);
    AscendC::WaitFlag<AscendC::HardEvent::M_FIX>(EVENT_ID0);
    AscendC::FixpipeParamsArch3510<AscendC::CO2Layout::ROW_MAJOR> fp;
    fp.nSize = N;
    fp.mSize = M;
    fp.srcStride = M;
    fp.dstStride = N;
    AscendC::Fixpipe<int32_t, int32_t, AscendC::CFG_ROW_MAJOR>(cGM, c1, fp);
}}
"""


@pytest.mark.parametrize("m,k,n", [(32, 64, 32), (48, 32, 64)])
def test_int8_matmul_b_through_load_data_with_stride(m: int, k: int, n: int) -> None:
    rng = np.random.default_rng(m + k + n)
    a = rng.integers(-128, 128, (m, k)).astype(np.int8)
    b = rng.integers(-128, 128, (k, n)).astype(np.int8)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        run = Kernel("mm.cpp", "950", text_=KERNEL.format(m=m, k=k, n=n)).run(
            gm={"a": a, "b": b, "c": Output("int32_t", (m, n))})
    conflicts = [str(c.message) for c in caught if issubclass(c.category, DocConflictWarning)]
    line = next(i for i, ln in enumerate(KERNEL.splitlines(), 1) if "LoadDataWithStride(b2" in ln)
    assert len(conflicts) == 1 and conflicts[0].startswith(
        f"mm.cpp:{line}:5: LoadDataWithStride: the doc page forbids this (LoadDataWithStride.md 数据类型: "
        "B1->B2 lists")
    assert run.sync_reports == []
    np.testing.assert_array_equal(run.outputs["c"], a.astype(np.int64) @ b.astype(np.int64))


@settings(max_examples=25, deadline=None)
@given(k32=st.integers(1, 3), n32=st.integers(1, 3), extra=st.integers(0, 2), pos=st.integers(0, 1))
def test_int8_into_l0b_equals_reference(k32: int, n32: int, extra: int, pos: int) -> None:
    """Random int8 B maps (H = 1, W = K, C = N; any dstStride >= N / 16) against ref_load3d_v2."""
    k, n = 32 * k32, 32 * n32
    core = Core("950")
    codes = np.random.default_rng(k * n + extra).integers(0, 256, k * n, dtype=np.uint8)
    src = core.tensor("B1", "int8_t", k * n)
    src.write_raw(codes)
    dst = core.tensor("B2", "int8_t", 32 * 1024)
    before = dst.read_raw()
    stride = n // 16 + extra
    core.set_load_data_repeat(LoadDataRepeatParamWithStride(0, 1, 0, stride))
    p = LoadData3DParamsV2([0, 0, 0, 0], 1, k, n, n, k - 32 * pos * (k32 > 1), 0, 32 * pos * (k32 > 1),
                           1, 1, 1, 1, 1, 1, True)
    with pytest.warns(DocConflictWarning, match="^LoadDataWithStride: the doc page forbids this"):
        core.load_data_with_stride(dst, src, p)
    want = ref_load3d_v2("ascend950", "int8_t", "B2", codes, 1, k, [0, 0, 0, 0], n, n, p.mExtension, 0,
                         p.mStartPt, 1, 1, 1, 1, 1, 1, False, False, True, 0, (0, 1, 0), stride, before)
    np.testing.assert_array_equal(dst.read_raw(), want)
