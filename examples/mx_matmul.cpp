// MX matmul on Ascend 950 (MmadMx.md, LoadData_2D_MX.md): C (M x N, float) = (A x 2^scaleA) @ (B x 2^scaleB)
// with A (M x K) and B^T (N x K) in fp8 (e4m3 / e5m2) and one fp8_e8m0_t scale per 32 K values.
// GM -> L1: A and B^T by ND2NZ; the scales by DN2NZ on a half view (two e8m0 scales per half), which gives
// the 16 x 2 scale fractals Load2DMX reads. One LoadData per operand moves data and scales together;
// MmadMx applies the scales; Fixpipe writes C row-major.
//
//   ascsim run examples/mx_matmul.cpp --chip 950 --gm a=examples/data/mx2_a.npy --gm sa=examples/data/mx2_sa.npy \
//        --gm b=examples/data/mx2_bt.npy --gm sb=examples/data/mx2_sbt.npy --gm c=c.npy:float:32x48

#include "kernel_operator.h"

template <typename TA, typename TB, uint32_t M, uint32_t N, uint32_t K>
class KernelMx {
public:
    __aicore__ inline void Init(GM_ADDR a, GM_ADDR sa, GM_ADDR b, GM_ADDR sb, GM_ADDR c)
    {
        aGM.SetGlobalBuffer((__gm__ TA*)a, M * K);
        bGM.SetGlobalBuffer((__gm__ TB*)b, N * K);
        scaleAGM.SetGlobalBuffer((__gm__ half*)sa, M * SCALE_K / 2);   // viewed as pairs of scales
        scaleBGM.SetGlobalBuffer((__gm__ half*)sb, N * SCALE_K / 2);
        cGM.SetGlobalBuffer((__gm__ float*)c, M * N);
    }

    __aicore__ inline void Process()
    {
        AscendC::LocalTensor<TA> a1(AscendC::TPosition::A1, 0, M * K);
        AscendC::LocalTensor<fp8_e8m0_t> sa1(AscendC::TPosition::A1, 64 * 1024, M * SCALE_K);
        AscendC::LocalTensor<TB> b1(AscendC::TPosition::B1, 128 * 1024, N * K);
        AscendC::LocalTensor<fp8_e8m0_t> sb1(AscendC::TPosition::B1, 192 * 1024, N * SCALE_K);
        AscendC::LocalTensor<TA> a2(AscendC::TPosition::A2, 0, M * K);
        AscendC::LocalTensor<TB> b2(AscendC::TPosition::B2, 0, N * K);
        AscendC::LocalTensor<float> c1(AscendC::TPosition::CO1, 0, M * N);

        AscendC::DataCopy(a1, aGM, AscendC::Nd2NzParams{1, M, K, 0, K, M, 1, 0});
        AscendC::DataCopy(b1, bGM, AscendC::Nd2NzParams{1, N, K, 0, K, N, 1, 0});
        auto sa16 = sa1.template ReinterpretCast<half>();
        auto sb16 = sb1.template ReinterpretCast<half>();
        // Dn2NzParams{dnNum, nValue, dValue, srcDnMatrixStride, srcDValue, dstNzC0Stride, dstNzNStride,
        //             dstNzMatrixStride}
        AscendC::DataCopy(sa16, scaleAGM, AscendC::Dn2NzParams{1, SCALE_K / 2, M, 0, SCALE_K / 2, SCALE_K / 2, 1, 0});
        AscendC::DataCopy(sb16, scaleBGM, AscendC::Dn2NzParams{1, SCALE_K / 2, N, 0, SCALE_K / 2, SCALE_K / 2, 1, 0});
        AscendC::SetFlag<AscendC::HardEvent::MTE2_MTE1>(EVENT_ID0);
        AscendC::WaitFlag<AscendC::HardEvent::MTE2_MTE1>(EVENT_ID0);

        // LoadData2DParamsV2{mStartPosition, kStartPosition, mStep, kStep, srcStride, dstStride, ifTranspose, sid}
        // LoadData2DMxParams{xStartPosition, yStartPosition, xStep, yStep, srcStride, dstStride}
        AscendC::LoadData2DParamsV2 aParams(0, 0, M / 16, K / 32, M / 16, M / 16, false, 0);
        AscendC::LoadData2DMxParams aMx(0, 0, M / 16, SCALE_K / 2, SCALE_K / 2, SCALE_K / 2);
        AscendC::LoadData(a2, a1, sa1, aParams, aMx);
        AscendC::LoadData2DParamsV2 bParams(0, 0, N / 16, K / 32, N / 16, N / 16, false, 0);
        AscendC::LoadData2DMxParams bMx(0, 0, N / 16, SCALE_K / 2, SCALE_K / 2, SCALE_K / 2);
        AscendC::LoadData(b2, b1, sb1, bParams, bMx);
        AscendC::SetFlag<AscendC::HardEvent::MTE1_M>(EVENT_ID0);
        AscendC::WaitFlag<AscendC::HardEvent::MTE1_M>(EVENT_ID0);

        AscendC::MmadParams mmadParams;
        mmadParams.m = M;
        mmadParams.n = N;
        mmadParams.k = K;
        AscendC::MmadMx(c1, a2, b2, mmadParams);
        AscendC::SetFlag<AscendC::HardEvent::M_FIX>(EVENT_ID0);
        AscendC::WaitFlag<AscendC::HardEvent::M_FIX>(EVENT_ID0);

        AscendC::FixpipeParamsArch3510<AscendC::CO2Layout::ROW_MAJOR> fixParams;
        fixParams.nSize = N;
        fixParams.mSize = M;
        fixParams.srcStride = M;
        fixParams.dstStride = N;
        AscendC::Fixpipe<float, float, AscendC::CFG_ROW_MAJOR>(cGM, c1, fixParams);
    }

private:
    static constexpr uint32_t SCALE_K = K / 32;   // one e8m0 scale per 32 K values
    AscendC::GlobalTensor<TA> aGM;
    AscendC::GlobalTensor<TB> bGM;
    AscendC::GlobalTensor<half> scaleAGM;
    AscendC::GlobalTensor<half> scaleBGM;
    AscendC::GlobalTensor<float> cGM;
};

extern "C" __global__ __aicore__ void mx_matmul(GM_ADDR a, GM_ADDR sa, GM_ADDR b, GM_ADDR sb, GM_ADDR c)
{
    KernelMx<fp8_e4m3fn_t, fp8_e5m2_t, 32, 48, 128> op;
    op.Init(a, sa, b, sb, c);
    op.Process();
}
