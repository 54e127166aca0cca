// Sparse matmul on A2 (MmadWithSparse.md, LoadDataWithSparse.md): C (M x N, int32) = A (M x K, int8) @ B,
// where B (K x N) keeps at most 2 nonzeros in every 4 consecutive K values. B arrives densified (K/2 x N,
// laid out as Zn fractals) with its 2-bit index codes (4 per byte); LoadDataWithSparse moves both into L0B,
// MmadWithSparse picks the A elements the codes name.
//
//   ascsim run examples/sparse_matmul.cpp --chip a2 --gm a=examples/data/sk_a.npy --gm b=examples/data/sk_b_zn.npy \
//        --gm idx=examples/data/sk_idx.npy --gm c=c.npy:int32_t:64x64

#include "kernel_operator.h"

constexpr uint16_t M = 64, K = 128, N = 64;
constexpr uint32_t FRAC = 16 * 32;     // int8 fractal: 16 rows x 32 bytes

extern "C" __global__ __aicore__ void sparse_matmul(GM_ADDR a, GM_ADDR b, GM_ADDR idx, GM_ADDR c)
{
    AscendC::GlobalTensor<int8_t> aGM, bGM;
    AscendC::GlobalTensor<uint8_t> idxGM;
    AscendC::GlobalTensor<int32_t> cGM;
    aGM.SetGlobalBuffer((__gm__ int8_t*)a, M * K);
    bGM.SetGlobalBuffer((__gm__ int8_t*)b, K / 2 * N);
    idxGM.SetGlobalBuffer((__gm__ uint8_t*)idx, K / 8 * N);
    cGM.SetGlobalBuffer((__gm__ int32_t*)c, M * N);

    const uint32_t bSize = K / 2 * N;
    AscendC::LocalTensor<int8_t> a1(AscendC::TPosition::A1, 0, M * K);
    AscendC::LocalTensor<int8_t> b1(AscendC::TPosition::B1, 64 * 1024, bSize);
    AscendC::LocalTensor<uint8_t> idx1(AscendC::TPosition::B1, 128 * 1024, bSize / 4);
    AscendC::LocalTensor<int8_t> a2(AscendC::TPosition::A2, 0, M * K);
    AscendC::LocalTensor<int8_t> b2(AscendC::TPosition::B2, 0, bSize);
    AscendC::LocalTensor<int32_t> c1(AscendC::TPosition::CO1, 0, M * N);

    // A: ND -> Nz (fractal columns of M rows); dense B and its codes: plain copies (32-B blocks)
    AscendC::DataCopy(a1, aGM, AscendC::Nd2NzParams{1, M, K, 0, K, M, 1, 0});
    AscendC::DataCopy(b1, bGM, {1, static_cast<uint16_t>(bSize / 32), 0, 0});
    AscendC::DataCopy(idx1, idxGM, {1, static_cast<uint16_t>(bSize / 4 / 32), 0, 0});
    AscendC::SetFlag<AscendC::HardEvent::MTE2_MTE1>(EVENT_ID0);
    AscendC::WaitFlag<AscendC::HardEvent::MTE2_MTE1>(EVENT_ID0);

    // A: Nz -> Zz, one LoadData per 16-row block
    AscendC::LoadData2DParams aParams;
    aParams.repeatTimes = K / 32;
    aParams.srcStride = M / 16;
    for (int i = 0; i < M / 16; ++i) {
        AscendC::LoadData(a2[i * (K / 32) * FRAC], a1[i * FRAC], aParams);
    }
    // B: dense Zn fractals + index -> L0B in one call
    AscendC::LoadData2DParams bParams;
    bParams.repeatTimes = bSize / FRAC;
    AscendC::LoadDataWithSparse(b2, b1, idx1, bParams);
    AscendC::SetFlag<AscendC::HardEvent::MTE1_M>(EVENT_ID0);
    AscendC::WaitFlag<AscendC::HardEvent::MTE1_M>(EVENT_ID0);

    AscendC::MmadWithSparse(c1, a2, b2, {M, N, K, false, 0, false, false, false});
    AscendC::SetFlag<AscendC::HardEvent::M_FIX>(EVENT_ID0);
    AscendC::WaitFlag<AscendC::HardEvent::M_FIX>(EVENT_ID0);

    AscendC::FixpipeParamsV220 fixParams;
    fixParams.nSize = N;
    fixParams.mSize = M;
    fixParams.srcStride = M;
    fixParams.dstStride = N;
    AscendC::Fixpipe(cGM, c1, fixParams);
}
