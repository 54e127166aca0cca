"""Kernels of several blocks, run as compiled programs and compared with numpy: a matmul whose output
tiles are shared out by `for (i = GetBlockIdx(); i < tiles; i += GetBlockNum())`, two phases separated by
SyncAll, a producer and a consumer block ordered by CrossCoreSetFlag / CrossCoreWaitFlag, and
accumulation across 4 blocks under SetAtomicAdd (int32 and float). Each also leaves the cross-core race
checker (ascsim.engine.gm_races) silent: its sync orders every shared GM byte. The same kernels with their
sync (or their atomic mode) removed are tests/program/test_program_races.py.

The sources of the expectations are the pages' definitions: Mmad C = A @ B (Mmad.md), Fixpipe NZ2ND
writing row-major tiles into a matrix of N columns (dstStride = N), SetAtomicAdd.md "将待拷贝的内容和GM已有
内容进行求和，然后将求和结果写入GM", SyncAll.md / CrossCoreSetFlag(ISASI).md (mode 0: "同步所有的AIC核，
直到所有的AIC核都执行到CrossCoreSetFlag时，CrossCoreWaitFlag后续的指令才会执行"). Inputs are small
integers so every float sum is exact and the order of the atomic adds cannot matter.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from support.doc_kernels import Kernel

from ascsim.program import Output

# -- the building blocks: one output tile of C = A @ B on one block ------------------------------------

TILE = """
#include "kernel_operator.h"

constexpr uint32_t M = {m}, N = {n}, K = {k}, TM = 32, TN = 32;
constexpr uint32_t TILES_N = N / TN, TILES = (M / TM) * TILES_N;

// C[rows r0.., cols c0..] (TM x TN, row-major with N columns) = A[r0.., k0 .. k0 + KT) @ B[k0 .., c0..]
template <uint32_t KT>
__aicore__ inline void Tile(const AscendC::GlobalTensor<half>& aGM, const AscendC::GlobalTensor<half>& bGM,
                            const AscendC::GlobalTensor<float>& cGM, uint32_t aOff, uint32_t bOff,
                            uint32_t cOff)
{{
    AscendC::LocalTensor<half> a1(AscendC::TPosition::A1, 0, TM * KT);
    AscendC::LocalTensor<half> b1(AscendC::TPosition::B1, 64 * 1024, KT * TN);
    AscendC::LocalTensor<half> a2(AscendC::TPosition::A2, 0, TM * KT);
    AscendC::LocalTensor<half> b2(AscendC::TPosition::B2, 0, KT * TN);
    AscendC::LocalTensor<float> c1(AscendC::TPosition::CO1, 0, TM * TN);
    // Nd2NzParams{{ndNum, nValue, dValue, srcNdMatrixStride, srcDValue, dstNzC0Stride, dstNzNStride,
    //             dstNzMatrixStride}}: a TM x KT window of A (K columns), a KT x TN window of B (N columns)
    AscendC::DataCopy(a1, aGM[aOff], AscendC::Nd2NzParams{{1, TM, KT, 0, K, TM, 1, 0}});
    AscendC::DataCopy(b1, bGM[bOff], AscendC::Nd2NzParams{{1, KT, TN, 0, N, KT, 1, 0}});
    AscendC::SetFlag<AscendC::HardEvent::MTE2_MTE1>(EVENT_ID0);
    AscendC::WaitFlag<AscendC::HardEvent::MTE2_MTE1>(EVENT_ID0);
    uint8_t noPad[4] = {{0, 0, 0, 0}};
#if defined(__NPU_ARCH__) && __NPU_ARCH__ == 3510
    // L0A is Nz on the 950: the A tile as a 1 x TM feature map of KT channels
    AscendC::LoadData3DParamsV2<half> pa(noPad, 1, TM, KT, KT, TM, 0, 0, 1, 1, 1, 1, 1, 1, false, false, 0);
    AscendC::LoadData(a2, a1, pa);
#else
    // L0A is Zz on the A2: per 16-row block, its KT / 16 fractals
    AscendC::LoadData2DParams pa;
    pa.repeatTimes = KT / 16;
    pa.srcStride = TM / 16;
    pa.ifTranspose = false;
    for (uint32_t i = 0; i < TM / 16; ++i) {{
        pa.startIndex = i;
        AscendC::LoadData(a2[i * (KT / 16) * 256], a1, pa);
    }}
#endif
    AscendC::LoadData3DParamsV2<half> pb(noPad, 1, KT, TN, TN, KT, 0, 0, 1, 1, 1, 1, 1, 1, false, false, 0);
    AscendC::LoadData(b2, b1, pb);
    AscendC::SetFlag<AscendC::HardEvent::MTE1_M>(EVENT_ID0);
    AscendC::WaitFlag<AscendC::HardEvent::MTE1_M>(EVENT_ID0);
    AscendC::MmadParams mp;
    mp.m = TM;
    mp.n = TN;
    mp.k = KT;
    mp.cmatrixInitVal = true;
    AscendC::Mmad(c1, a2, b2, mp);
    AscendC::SetFlag<AscendC::HardEvent::M_FIX>(EVENT_ID0);
    AscendC::WaitFlag<AscendC::HardEvent::M_FIX>(EVENT_ID0);
#if defined(__NPU_ARCH__) && __NPU_ARCH__ == 3510
    AscendC::FixpipeParamsArch3510<AscendC::CO2Layout::ROW_MAJOR> fp;
#else
    AscendC::FixpipeParamsV220 fp;
    fp.ndNum = 1;
#endif
    fp.nSize = TN;
    fp.mSize = TM;
    fp.srcStride = TM;
    fp.dstStride = N;
    AscendC::Fixpipe<float, float, AscendC::CFG_ROW_MAJOR>(cGM[cOff], c1, fp);  // tile:fixpipe
#ifndef TILE_NO_BARRIER
    AscendC::PipeBarrier<PIPE_ALL>();  // the next tile reuses every buffer
#endif
}}
"""

MATMUL = TILE + """
constexpr uint32_t LOOPS = TILES + {extra};
extern "C" __global__ __aicore__ void mm(GM_ADDR a, GM_ADDR b, GM_ADDR c)
{{
    AscendC::GlobalTensor<half> aGM, bGM;
    AscendC::GlobalTensor<float> cGM;
    aGM.SetGlobalBuffer((__gm__ half*)a, M * K);
    bGM.SetGlobalBuffer((__gm__ half*)b, K * N);
    cGM.SetGlobalBuffer((__gm__ float*)c, M * N);
    for (uint32_t i = AscendC::GetBlockIdx(); i < LOOPS; i += AscendC::GetBlockNum()) {{
        uint32_t t = i % TILES;
        uint32_t r0 = t / TILES_N * TM, c0 = t % TILES_N * TN;
        Tile<K>(aGM, bGM, cGM, r0 * K, c0, r0 * N + c0);
    }}
}}
"""

# Phase 1: block b computes output tile b into the workspace W. Phase 2: it reads the diagonal of the tile
# of block b + 1 (mod the block count) — bytes another block wrote — into out[b * 32 ..].
TWO_PHASE = TILE + """
extern "C" __global__ __aicore__ void two_phase(GM_ADDR a, GM_ADDR b, GM_ADDR w, GM_ADDR out)
{{
    AscendC::GlobalTensor<half> aGM, bGM;
    AscendC::GlobalTensor<float> wGM, outGM;
    aGM.SetGlobalBuffer((__gm__ half*)a, M * K);
    bGM.SetGlobalBuffer((__gm__ half*)b, K * N);
    wGM.SetGlobalBuffer((__gm__ float*)w, M * N);
    outGM.SetGlobalBuffer((__gm__ float*)out, TILES * TM);
    uint32_t me = AscendC::GetBlockIdx();
    uint32_t r0 = me / TILES_N * TM, c0 = me % TILES_N * TN;
    Tile<K>(aGM, bGM, wGM, r0 * K, c0, r0 * N + c0);
#ifndef NO_SYNC
    AscendC::SyncAll();  // phase:sync
#endif
    uint32_t next = (me + 1) % AscendC::GetBlockNum();
    uint32_t nr = next / TILES_N * TM, nc = next % TILES_N * TN;
    for (uint32_t j = 0; j < TM; ++j) {{
        float v = wGM.GetValue((nr + j) * N + nc + j);  // phase:read
        outGM.SetValue(me * TM + j, v);
    }}
}}
"""

# Block 0 produces W's first tile and raises flag 3 when its FIX pipe is done; block 1 (mode 0 wants every
# cube core's CrossCoreSetFlag) sets it too, waits for the round, then reads the tile's diagonal.
PRODUCER_CONSUMER = """
#define TILE_NO_BARRIER
""" + TILE + """
#ifndef SET_PIPE
#define SET_PIPE PIPE_FIX
#endif
extern "C" __global__ __aicore__ void pc(GM_ADDR a, GM_ADDR b, GM_ADDR w, GM_ADDR out)
{{
    AscendC::GlobalTensor<half> aGM, bGM;
    AscendC::GlobalTensor<float> wGM, outGM;
    aGM.SetGlobalBuffer((__gm__ half*)a, M * K);
    bGM.SetGlobalBuffer((__gm__ half*)b, K * N);
    wGM.SetGlobalBuffer((__gm__ float*)w, M * N);
    outGM.SetGlobalBuffer((__gm__ float*)out, TM);
    if (AscendC::GetBlockIdx() == 0) {{
        Tile<K>(aGM, bGM, wGM, 0, 0, 0);
        AscendC::CrossCoreSetFlag<0, SET_PIPE>(3);  // pc:set
    }} else {{
        AscendC::CrossCoreSetFlag<0, PIPE_FIX>(3);
#ifndef NO_WAIT
        AscendC::CrossCoreWaitFlag(3);  // pc:wait
#endif
        for (uint32_t j = 0; j < TM; ++j) {{
            outGM.SetValue(j, wGM.GetValue(j * N + j));  // pc:read
        }}
    }}
}}
"""

# Block b adds A[:, b*KS ..) @ B[b*KS .., :] into C under SetAtomicAdd<float> (K split over the blocks).
K_SPLIT = TILE + """
constexpr uint32_t KS = K / 4;
extern "C" __global__ __aicore__ void ksplit(GM_ADDR a, GM_ADDR b, GM_ADDR c)
{{
    AscendC::GlobalTensor<half> aGM, bGM;
    AscendC::GlobalTensor<float> cGM;
    aGM.SetGlobalBuffer((__gm__ half*)a, M * K);
    bGM.SetGlobalBuffer((__gm__ half*)b, K * N);
    cGM.SetGlobalBuffer((__gm__ float*)c, M * N);
    uint32_t k0 = AscendC::GetBlockIdx() * KS;
#ifndef NO_ATOMIC
    AscendC::SetAtomicAdd<float>();
#endif
    Tile<KS>(aGM, bGM, cGM, k0, k0 * N, 0);
    AscendC::SetAtomicNone();
}}
"""

# int32 on the A2: block b copies its slice of X into L1 and from there onto Y under SetAtomicAdd<int32_t>
# (DataCopy L1 -> GM, SetAtomicAdd.md 数据通路 "L1 Buffer->GM").
INT_ADD_A2 = """
#include "kernel_operator.h"
constexpr uint32_t LEN = 512;
extern "C" __global__ __aicore__ void acc(GM_ADDR x, GM_ADDR y)
{
    AscendC::GlobalTensor<int32_t> xGM, yGM;
    xGM.SetGlobalBuffer((__gm__ int32_t*)x, 4 * LEN);
    yGM.SetGlobalBuffer((__gm__ int32_t*)y, LEN);
    AscendC::LocalTensor<int32_t> buf(AscendC::TPosition::A1, 0, LEN);
    AscendC::DataCopy(buf, xGM[AscendC::GetBlockIdx() * LEN], LEN);
    AscendC::SetFlag<AscendC::HardEvent::MTE2_MTE3>(EVENT_ID0);
    AscendC::WaitFlag<AscendC::HardEvent::MTE2_MTE3>(EVENT_ID0);
#ifndef NO_ATOMIC
    AscendC::SetAtomicAdd<int32_t>();
#endif
    AscendC::DataCopy(yGM, buf, LEN);  // acc:store
    AscendC::SetAtomicNone();
}
"""

# int32 on the 950: an int8 K-split matmul (A and B through LoadDataWithStride, as
# tests/isa/test_int8_with_stride_matmul.py), Fixpipe int32 under SetAtomicAdd<int32_t>.
INT_KSPLIT_950 = """
#include "kernel_operator.h"
constexpr uint32_t M = 32, N = 32, K = 128, KS = 32;
extern "C" __global__ __aicore__ void acc(GM_ADDR a, GM_ADDR b, GM_ADDR c)
{
    AscendC::GlobalTensor<int8_t> aGM, bGM;
    AscendC::GlobalTensor<int32_t> cGM;
    aGM.SetGlobalBuffer((__gm__ int8_t*)a, M * K);
    bGM.SetGlobalBuffer((__gm__ int8_t*)b, K * N);
    cGM.SetGlobalBuffer((__gm__ int32_t*)c, M * N);
    uint32_t k0 = AscendC::GetBlockIdx() * KS;
    AscendC::LocalTensor<int8_t> a1(AscendC::TPosition::A1, 0, M * KS);
    AscendC::LocalTensor<int8_t> b1(AscendC::TPosition::B1, 128 * 1024, KS * N);
    AscendC::LocalTensor<int8_t> a2(AscendC::TPosition::A2, 0, M * KS);
    AscendC::LocalTensor<int8_t> b2(AscendC::TPosition::B2, 0, KS * N);
    AscendC::LocalTensor<int32_t> c1(AscendC::TPosition::CO1, 0, M * N);
    AscendC::DataCopy(a1, aGM[k0], AscendC::Nd2NzParams{1, M, KS, 0, K, M, 1, 0});
    AscendC::DataCopy(b1, bGM[k0 * N], AscendC::Nd2NzParams{1, KS, N, 0, N, KS, 1, 0});
    AscendC::SetFlag<AscendC::HardEvent::MTE2_MTE1>(EVENT_ID0);
    AscendC::WaitFlag<AscendC::HardEvent::MTE2_MTE1>(EVENT_ID0);
    AscendC::LoadData3DParamsV2<int8_t> pa;
    pa.l1H = 1;
    pa.l1W = M;
    pa.channelSize = KS;
    pa.kExtension = KS;
    pa.mExtension = M;
    pa.strideW = 1;
    pa.strideH = 1;
    pa.filterW = 1;
    pa.filterH = 1;
    pa.dilationFilterW = 1;
    pa.dilationFilterH = 1;
    pa.enTranspose = false;
    AscendC::SetLoadDataRepeatWithStride({0, 1, 0, M / 16});
    AscendC::LoadDataWithStride(a2, a1, pa);
    AscendC::LoadData3DParamsV2<int8_t> pb = pa;
    pb.l1W = KS;
    pb.channelSize = N;
    pb.kExtension = N;
    pb.mExtension = KS;
    pb.enTranspose = true;
    AscendC::SetLoadDataRepeatWithStride({0, 1, 0, N / 16});
    AscendC::LoadDataWithStride(b2, b1, pb);
    AscendC::SetFlag<AscendC::HardEvent::MTE1_M>(EVENT_ID0);
    AscendC::WaitFlag<AscendC::HardEvent::MTE1_M>(EVENT_ID0);
    AscendC::Mmad(c1, a2, b2, AscendC::MmadParams{M, N, KS, 0, false, true});
    AscendC::SetFlag<AscendC::HardEvent::M_FIX>(EVENT_ID0);
    AscendC::WaitFlag<AscendC::HardEvent::M_FIX>(EVENT_ID0);
    AscendC::FixpipeParamsArch3510<AscendC::CO2Layout::ROW_MAJOR> fp;
    fp.nSize = N;
    fp.mSize = M;
    fp.srcStride = M;
    fp.dstStride = N;
#ifndef NO_ATOMIC
    AscendC::SetAtomicAdd<int32_t>();
#endif
    AscendC::Fixpipe<int32_t, int32_t, AscendC::CFG_ROW_MAJOR>(cGM, c1, fp);  // acc:store
    AscendC::SetAtomicNone();
}
"""


def build(text: str, name: str, chip: str, defines: dict | None = None) -> Kernel:
    return Kernel(name, chip, defines, text_=text)


def run(kernel: Kernel, gm: dict, blocks: int, strict: bool = False):
    """Run quietly (the engine's warnings are the tests' to inspect in the reports)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return kernel.run(gm=gm, blocks=blocks, strict=strict)


def halves(shape: tuple[int, ...], seed: int) -> np.ndarray:
    """Small integers as half: every product and sum of the tests is exact in float32."""
    return np.random.default_rng(seed).integers(-3, 4, shape).astype(np.float16)


def exact(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return (a.astype(np.float64) @ b.astype(np.float64)).astype(np.float32)


def matmul_kernel(chip: str, m: int, n: int, k: int, extra: int = 0) -> Kernel:
    return build(MATMUL.format(m=m, n=n, k=k, extra=extra), "mm.cpp", chip)


def two_phase_kernel(chip: str, defines: dict | None = None) -> Kernel:
    return build(TWO_PHASE.format(m=64, n=64, k=64), "two_phase.cpp", chip, defines)


def producer_consumer_kernel(chip: str, defines: dict | None = None) -> Kernel:
    return build(PRODUCER_CONSUMER.format(m=32, n=32, k=64), "pc.cpp", chip, defines)


def k_split_kernel(chip: str, defines: dict | None = None) -> Kernel:
    return build(K_SPLIT.format(m=32, n=32, k=128), "ksplit.cpp", chip, defines)


def two_phase_inputs(seed: int = 1) -> tuple[np.ndarray, np.ndarray, dict]:
    a, b = halves((64, 64), seed), halves((64, 64), seed + 1)
    return a, b, {"a": a, "b": b, "w": Output("float", (64, 64)), "out": Output("float", (4 * 32,))}


def diagonals(w: np.ndarray, blocks: int) -> np.ndarray:
    """out[b * 32 + j] = W tile (b + 1) % blocks, element (j, j) (2 x 2 tiles of 32 x 32)."""
    out = []
    for b in range(blocks):
        t = (b + 1) % blocks
        r0, c0 = t // 2 * 32, t % 2 * 32
        out.append(np.diag(w[r0 : r0 + 32, c0 : c0 + 32]))
    return np.concatenate(out)


@pytest.mark.parametrize("chip", ["a2", "950"])
@pytest.mark.parametrize("blocks", [4, 3])
def test_tiles_shared_out_by_block_index_match_numpy(chip: str, blocks: int) -> None:
    """64 x 96 output, 6 tiles of 32 x 32: with 4 blocks, blocks 0 and 1 take two tiles each
    (i += GetBlockNum()); with 3, every block two. Every tile is written by one block only."""
    m, n, k = 64, 96, 64
    a, b = halves((m, k), 2), halves((k, n), 3)
    r = run(matmul_kernel(chip, m, n, k), {"a": a, "b": b, "c": Output("float", (m, n))}, blocks)
    np.testing.assert_array_equal(r.outputs["c"], exact(a, b))
    assert {t.block for t in r.trace} == set(range(blocks))
    fixpipes = [t.block for t in r.trace if t.name == "Fixpipe"]
    assert sorted(fixpipes) == sorted(i % blocks for i in range(6))
    assert r.sync_reports == []
    assert r.race_reports == []


def test_syncall_between_two_phases_on_a2() -> None:
    """SyncAll.md: every block's phase-1 tile is in W before any block reads another's in phase 2."""
    a, b, gm = two_phase_inputs()
    r = run(two_phase_kernel("a2"), gm, 4)
    w = exact(a, b)
    np.testing.assert_array_equal(r.outputs["w"], w)
    np.testing.assert_array_equal(r.outputs["out"], diagonals(w, 4))
    assert r.sync_reports == []
    assert r.race_reports == []


def test_cross_core_flag_orders_the_producer_before_the_consumer() -> None:
    """CrossCoreSetFlag<0, PIPE_FIX> after block 0's Fixpipe, CrossCoreWaitFlag on block 1 before it reads:
    block 1 waits (the scheduler runs block 0 first either way), and no race is left."""
    for chip in ("a2", "950"):
        a, b = halves((32, 64), 4), halves((64, 32), 5)
        gm = {"a": a, "b": b, "w": Output("float", (32, 32)), "out": Output("float", (32,))}
        r = run(producer_consumer_kernel(chip), gm, 2)
        w = exact(a, b)
        np.testing.assert_array_equal(r.outputs["w"], w)
        np.testing.assert_array_equal(r.outputs["out"], np.diag(w))
        assert r.sync_reports == [] and r.race_reports == [], chip


@pytest.mark.parametrize("chip", ["a2", "950"])
def test_atomic_add_across_four_blocks_float(chip: str) -> None:
    """C starts as C0; each of 4 blocks adds its K quarter's product under SetAtomicAdd<float>: C0 + A @ B
    exactly (small integers: no rounding, so the order of the adds cannot show)."""
    a, b = halves((32, 128), 6), halves((128, 32), 7)
    c0 = np.random.default_rng(8).integers(-50, 50, (32, 32)).astype(np.float32)
    r = run(k_split_kernel(chip), {"a": a, "b": b, "c": c0}, 4)
    np.testing.assert_array_equal(r.read_gm("c", "float", (32, 32)), c0 + exact(a, b))
    assert [t.block for t in r.trace if t.name == "Fixpipe"] == [0, 1, 2, 3]
    assert r.sync_reports == [] and r.race_reports == []


def test_atomic_add_across_four_blocks_int32_a2() -> None:
    """Y = Y0 + X0 + X1 + X2 + X3 in int32 (4 blocks, each DataCopy L1 -> GM under SetAtomicAdd<int32_t>)."""
    rng = np.random.default_rng(9)
    x = rng.integers(-(1 << 28), 1 << 28, 4 * 512).astype(np.int32)
    y0 = rng.integers(-(1 << 28), 1 << 28, 512).astype(np.int32)
    r = run(build(INT_ADD_A2, "acc.cpp", "a2"), {"x": x, "y": y0}, 4)
    want = y0.astype(np.int64) + x.reshape(4, 512).astype(np.int64).sum(0)
    np.testing.assert_array_equal(r.read_gm("y", "int32_t", (512,)), want)
    assert r.sync_reports == [] and r.race_reports == []


def test_atomic_add_across_four_blocks_int32_950() -> None:
    """C = C0 + A @ B with int8 A, B: each block's K quarter through L0C (int32) and Fixpipe under
    SetAtomicAdd<int32_t>; numpy's integer matmul."""
    rng = np.random.default_rng(10)
    a = rng.integers(-128, 128, (32, 128)).astype(np.int8)
    b = rng.integers(-128, 128, (128, 32)).astype(np.int8)
    c0 = rng.integers(-1000, 1000, (32, 32)).astype(np.int32)
    r = run(build(INT_KSPLIT_950, "acc.cpp", "950"), {"a": a, "b": b, "c": c0}, 4)
    want = c0.astype(np.int64) + a.astype(np.int64) @ b.astype(np.int64)
    np.testing.assert_array_equal(r.read_gm("c", "int32_t", (32, 32)), want)
    assert r.sync_reports == [] and r.race_reports == []
