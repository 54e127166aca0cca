// Ping-pong matmul on A2: C (M x N, float) = A (M x K, half) @ B (K x N, half), K split into tiles of KT.
// GM ND -> L1 Nz (DataCopy Nd2Nz), then per K tile: L1 -> L0A (LoadData 2D, Zz) and L1 -> L0B
// (LoadDataWithTranspose, Zn) into one of two L0 buffers (ping / pong), Mmad accumulating into L0C,
// finally L0C -> GM (Fixpipe NZ2ND).
//
// The two L0 buffers let the loads of tile t+1 overlap the Mmad of tile t. The sync follows the sync
// pages' pattern (同步控制/核内同步): a MTE1_M flag per buffer says "loaded", an M_MTE1 flag per buffer says
// "Mmad done reading it", primed once before the loop and drained after it.
//
//   ascsim run examples/matmul_pingpong.cpp --chip a2 --gm a=random:half:32x128:1 --gm b=random:half:128x32:2 --gm c=c.npy:float:32x32
// (random: inputs, docs/cpp.md; tests/program/test_program_examples.py runs this command; test_program_sync.py breaks its sync.)

#include "kernel_operator.h"

constexpr uint32_t M = 32;
constexpr uint32_t N = 32;
constexpr uint32_t K = 128;
constexpr uint32_t KT = 32;             // K tile
constexpr uint32_t FRAC = 16 * 16;      // elements of one 16 x 16 half fractal

__aicore__ inline uint32_t CeilDiv(uint32_t a, uint32_t b) { return (a + b - 1) / b; }

class KernelMatmulPingPong {
public:
    __aicore__ inline void Init(GM_ADDR a, GM_ADDR b, GM_ADDR c)
    {
        aGM.SetGlobalBuffer((__gm__ half*)a, M * K);
        bGM.SetGlobalBuffer((__gm__ half*)b, K * N);
        cGM.SetGlobalBuffer((__gm__ float*)c, M * N);
    }

    __aicore__ inline void Process()
    {
        AscendC::LocalTensor<half> a1(AscendC::TPosition::A1, 0, M * K);
        AscendC::LocalTensor<half> b1(AscendC::TPosition::B1, M * K * sizeof(half), K * N);
        AscendC::LocalTensor<float> c1(AscendC::TPosition::CO1, 0, M * N);

        CopyIn(a1, b1);
        AscendC::SetFlag<AscendC::HardEvent::MTE2_MTE1>(EVENT_ID0);
        AscendC::WaitFlag<AscendC::HardEvent::MTE2_MTE1>(EVENT_ID0);

        // both L0 buffers start free
        AscendC::SetFlag<AscendC::HardEvent::M_MTE1>(EVENT_ID0);
        AscendC::SetFlag<AscendC::HardEvent::M_MTE1>(EVENT_ID1);
        for (uint32_t t = 0; t < K / KT; ++t) {
            uint32_t ping = t % 2;
            event_t ev = ping == 0 ? EVENT_ID0 : EVENT_ID1;
            AscendC::LocalTensor<half> a2(AscendC::TPosition::A2, ping * L0_BUF, M * KT);
            AscendC::LocalTensor<half> b2(AscendC::TPosition::B2, ping * L0_BUF, KT * N);

            AscendC::WaitFlag<AscendC::HardEvent::M_MTE1>(ev);   // the Mmad of tile t - 2 is done with it
            SplitA(a1, a2, t);
            SplitB(b1, b2, t);
            AscendC::SetFlag<AscendC::HardEvent::MTE1_M>(ev);
            AscendC::WaitFlag<AscendC::HardEvent::MTE1_M>(ev);
            AscendC::MmadParams mmadParams;
            mmadParams.m = M;
            mmadParams.n = N;
            mmadParams.k = KT;
            mmadParams.cmatrixInitVal = (t == 0);              // later tiles accumulate in L0C
            AscendC::Mmad(c1, a2, b2, mmadParams);
            AscendC::PipeBarrier<PIPE_M>();  // Mmad.md: accumulating Mmads of (m / 16) * (n / 16) < 10 need it
            AscendC::SetFlag<AscendC::HardEvent::M_MTE1>(ev);
        }
        AscendC::WaitFlag<AscendC::HardEvent::M_MTE1>(EVENT_ID0);
        AscendC::WaitFlag<AscendC::HardEvent::M_MTE1>(EVENT_ID1);

        AscendC::SetFlag<AscendC::HardEvent::M_FIX>(EVENT_ID0);
        AscendC::WaitFlag<AscendC::HardEvent::M_FIX>(EVENT_ID0);
        CopyOut(c1);
    }

private:
    __aicore__ inline void CopyIn(AscendC::LocalTensor<half>& a1, AscendC::LocalTensor<half>& b1)
    {
        // Nd2NzParams{ndNum, nValue, dValue, srcNdMatrixStride, srcDValue, dstNzC0Stride, dstNzNStride,
        //             dstNzMatrixStride}: one ND matrix, fractal columns M (resp. K) rows high
        AscendC::DataCopy(a1, aGM, AscendC::Nd2NzParams{1, M, K, 0, K, M, 1, 0});
        AscendC::DataCopy(b1, bGM, AscendC::Nd2NzParams{1, K, N, 0, N, K, 1, 0});
    }

    // Zz(A tile t): for each 16-row block i, the KT / 16 fractals of columns t*KT .. t*KT+KT-1. In Nz(A)
    // fractal (i, j) is number j * M / 16 + i.
    __aicore__ inline void SplitA(AscendC::LocalTensor<half>& a1, AscendC::LocalTensor<half>& a2, uint32_t t)
    {
        AscendC::LoadData2DParams params;
        params.repeatTimes = KT / 16;
        params.srcStride = M / 16;
        params.ifTranspose = false;
        for (uint32_t i = 0; i < M / 16; ++i) {
            params.startIndex = t * (KT / 16) * (M / 16) + i;
            AscendC::LoadData(a2[i * (KT / 16) * FRAC], a1, params);
        }
    }

    // Zn(B tile t): each 16 x 16 fractal of Nz(B) transposed, fractals row-major. One call per 16-row
    // block r of the tile reads fractals (t*KT/16 + r) + c * K/16 for c < N/16.
    __aicore__ inline void SplitB(AscendC::LocalTensor<half>& b1, AscendC::LocalTensor<half>& b2, uint32_t t)
    {
        AscendC::LoadData2dTransposeParams params;
        params.repeatTimes = N / 16;
        params.srcStride = K / 16;
        params.dstGap = 0;
        params.dstFracGap = 0;
        for (uint32_t r = 0; r < KT / 16; ++r) {
            params.startIndex = t * (KT / 16) + r;
            AscendC::LoadDataWithTranspose(b2[r * (N / 16) * FRAC], b1, params);
        }
    }

    __aicore__ inline void CopyOut(AscendC::LocalTensor<float>& c1)
    {
        AscendC::FixpipeParamsV220 params;
        params.nSize = N;
        params.mSize = M;
        params.srcStride = M;
        params.dstStride = N;
        params.ndNum = 1;
        AscendC::Fixpipe(cGM, c1, params);
    }

    static constexpr uint32_t L0_BUF = 32 * 1024;  // ping at 0, pong at 32 KB of L0A / L0B
    AscendC::GlobalTensor<half> aGM;
    AscendC::GlobalTensor<half> bGM;
    AscendC::GlobalTensor<float> cGM;
};

extern "C" __global__ __aicore__ void matmul_pingpong(GM_ADDR a, GM_ADDR b, GM_ADDR c)
{
    KernelMatmulPingPong op;
    op.Init(a, b, c);
    op.Process();
}
