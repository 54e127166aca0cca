// Matmul on A2 with the TPipe/TQue programming model (资源管理/TPipe, TQue): C (M x N, float) = A (M x K,
// half) @ B (K x N, half). Queues carry the sync: EnQue/DeQue order a producer before its consumer,
// FreeTensor/AllocTensor let a buffer be refilled once its consumer is done. The L0A/L0B queues have two
// buffers each (double buffering), so the loads of K tile t+1 go to the other buffer while Mmad reads tile t.
// Buffer addresses are the ones TPipe::InitBuffer gives (sequential per physical memory, see
// docs/cpp.md).
//
//   ascsim run examples/matmul_tque.cpp --chip a2 --gm a=random:half:32x128:1 --gm b=random:half:128x32:2 --gm c=c.npy:float:32x32

#include "kernel_operator.h"

template <uint32_t M, uint32_t N, uint32_t K, uint32_t KT>
class KernelMatmulTQue {
public:
    __aicore__ inline void Init(GM_ADDR a, GM_ADDR b, GM_ADDR c)
    {
        aGM.SetGlobalBuffer((__gm__ half*)a, M * K);
        bGM.SetGlobalBuffer((__gm__ half*)b, K * N);
        cGM.SetGlobalBuffer((__gm__ float*)c, M * N);
        pipe.InitBuffer(inQueueA1, 1, M * K * sizeof(half));
        pipe.InitBuffer(inQueueB1, 1, K * N * sizeof(half));
        pipe.InitBuffer(inQueueA2, 2, M * KT * sizeof(half));
        pipe.InitBuffer(inQueueB2, 2, KT * N * sizeof(half));
        pipe.InitBuffer(outQueueCO1, 1, M * N * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        CopyIn();
        AscendC::LocalTensor<half> a1 = inQueueA1.DeQue<half>();
        AscendC::LocalTensor<half> b1 = inQueueB1.DeQue<half>();
        AscendC::LocalTensor<float> c1 = outQueueCO1.AllocTensor<float>();
        for (uint32_t t = 0; t < K / KT; ++t) {
            SplitA(a1, t);
            SplitB(b1, t);
            Compute(c1, t);
        }
        outQueueCO1.EnQue(c1);
        inQueueA1.FreeTensor(a1);
        inQueueB1.FreeTensor(b1);
        CopyOut();
    }

private:
    __aicore__ inline void CopyIn()
    {
        AscendC::LocalTensor<half> a1 = inQueueA1.AllocTensor<half>();
        AscendC::LocalTensor<half> b1 = inQueueB1.AllocTensor<half>();
        AscendC::Nd2NzParams params;
        params.ndNum = 1;
        params.nValue = M;
        params.dValue = K;
        params.srcDValue = K;
        params.dstNzC0Stride = M;
        params.dstNzNStride = 1;
        AscendC::DataCopy(a1, aGM, params);
        params.nValue = K;
        params.dValue = N;
        params.srcDValue = N;
        params.dstNzC0Stride = K;
        AscendC::DataCopy(b1, bGM, params);
        inQueueA1.EnQue(a1);
        inQueueB1.EnQue(b1);
    }

    __aicore__ inline void SplitA(const AscendC::LocalTensor<half>& a1, uint32_t t)
    {
        AscendC::LocalTensor<half> a2 = inQueueA2.AllocTensor<half>();
        AscendC::LoadData2DParams params;
        params.repeatTimes = KT / 16;
        params.srcStride = M / 16;
        for (uint32_t i = 0; i < M / 16; ++i) {
            params.startIndex = t * (KT / 16) * (M / 16) + i;
            AscendC::LoadData(a2[i * (KT / 16) * 256], a1, params);
        }
        inQueueA2.EnQue(a2);
    }

    __aicore__ inline void SplitB(const AscendC::LocalTensor<half>& b1, uint32_t t)
    {
        AscendC::LocalTensor<half> b2 = inQueueB2.AllocTensor<half>();
        AscendC::LoadData2dTransposeParams params;
        params.repeatTimes = N / 16;
        params.srcStride = K / 16;
        for (uint32_t r = 0; r < KT / 16; ++r) {
            params.startIndex = t * (KT / 16) + r;
            AscendC::LoadDataWithTranspose(b2[r * (N / 16) * 256], b1, params);
        }
        inQueueB2.EnQue(b2);
    }

    __aicore__ inline void Compute(AscendC::LocalTensor<float>& c1, uint32_t t)
    {
        AscendC::LocalTensor<half> a2 = inQueueA2.DeQue<half>();
        AscendC::LocalTensor<half> b2 = inQueueB2.DeQue<half>();
        AscendC::MmadParams params;
        params.m = M;
        params.n = N;
        params.k = KT;
        params.cmatrixInitVal = t == 0;
        AscendC::Mmad(c1, a2, b2, params);
        AscendC::PipeBarrier<PIPE_M>();  // Mmad.md: accumulating Mmads of (m / 16) * (n / 16) < 10 need it
        inQueueA2.FreeTensor(a2);
        inQueueB2.FreeTensor(b2);
    }

    __aicore__ inline void CopyOut()
    {
        AscendC::LocalTensor<float> c1 = outQueueCO1.DeQue<float>();
        AscendC::FixpipeParamsV220 params;
        params.nSize = N;
        params.mSize = M;
        params.srcStride = M;
        params.dstStride = N;
        AscendC::Fixpipe(cGM, c1, params);
        outQueueCO1.FreeTensor(c1);
    }

    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::TPosition::A1, 1> inQueueA1;
    AscendC::TQue<AscendC::TPosition::B1, 1> inQueueB1;
    AscendC::TQue<AscendC::TPosition::A2, 1> inQueueA2;
    AscendC::TQue<AscendC::TPosition::B2, 1> inQueueB2;
    AscendC::TQue<AscendC::TPosition::CO1, 1> outQueueCO1;
    AscendC::GlobalTensor<half> aGM;
    AscendC::GlobalTensor<half> bGM;
    AscendC::GlobalTensor<float> cGM;
};

// The shape is the entry's template arguments: 32 x 32 x 128 unless `--template M=..,N=..,K=..` says otherwise.
template <uint32_t M = 32, uint32_t N = 32, uint32_t K = 128>
__global__ __aicore__ void matmul_tque(GM_ADDR a, GM_ADDR b, GM_ADDR c)
{
    KernelMatmulTQue<M, N, K, 32> op;
    op.Init(a, b, c);
    op.Process();
}
