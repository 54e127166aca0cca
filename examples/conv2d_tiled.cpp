// Tiled conv2d (N = 1, half in, float out) with the img2col data path of LoadData_3D.md: the feature map
// sits in L1 as NC1HWC0, Load3D v2 unfolds one (M, K) window of img2col(x) into L0A per tile; the weights
// sit in L1 as B^T in the same layout (l1H = 1, l1W = K: the 2-D use of Load3D), and a Load3D v2 into L0B
// gives Mmad its Zn(B) tile; Mmad accumulates the K tiles in L0C; Fixpipe writes each M tile of
// y = img2col(x) @ B to GM as rows of an (Ho*Wo) x Cout row-major matrix (NHWC).
//
// Runs on A2/A3 and on 950: only the Fixpipe parameter struct differs (FixpipeParamsV220 vs
// FixpipeParamsArch3510), chosen with __NPU_ARCH__ as the official examples do; L0A's layout (Zz on A2,
// Nz on 950) is the instructions' business.
//
//   ascsim run examples/conv2d_tiled.cpp --chip 950 --gm x=examples/data/ct_x_l1.npy --gm w=examples/data/ct_w_l1.npy --gm y=y.npy:float:64x32
//   ascsim run examples/conv2d_tiled.cpp --chip a2 --gm x=examples/data/ct_x_l1.npy --gm w=examples/data/ct_w_l1.npy --gm y=y.npy:float:64x32
// GM inputs (examples/make_data.py): x as NC1HWC0 (C1 x H x W x 16 half), w as B^T in NC1HWC0 form (Cout/16 x 1 x K x 16 half), K = C * KH * KW in img2col column order.

#include "kernel_operator.h"

constexpr uint32_t C = 32, H = 8, W = 8;         // input channels, height, width
constexpr uint32_t COUT = 32, KH = 3, KW = 3;    // output channels, kernel
constexpr uint32_t PAD = 1, STRIDE = 1;
constexpr uint32_t HO = (H + 2 * PAD - KH) / STRIDE + 1;
constexpr uint32_t WO = (W + 2 * PAD - KW) / STRIDE + 1;
constexpr uint32_t M = HO * WO;                   // img2col rows
constexpr uint32_t K = C * KH * KW;               // img2col columns
constexpr uint32_t MT = 32;                       // M tile
constexpr uint32_t KT = 96;                       // K tile (a multiple of 32)

class KernelConv2d {
public:
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR w, GM_ADDR y)
    {
        xGM.SetGlobalBuffer((__gm__ half*)x, C * H * W);
        wGM.SetGlobalBuffer((__gm__ half*)w, COUT * K);
        yGM.SetGlobalBuffer((__gm__ float*)y, M * COUT);
    }

    __aicore__ inline void Process()
    {
        AscendC::LocalTensor<half> fmap(AscendC::TPosition::A1, 0, C * H * W);
        AscendC::LocalTensor<half> wL1(AscendC::TPosition::B1, C * H * W * sizeof(half), COUT * K);
        AscendC::LocalTensor<half> a2(AscendC::TPosition::A2, 0, MT * KT);
        AscendC::LocalTensor<half> b2(AscendC::TPosition::B2, 0, KT * COUT);
        AscendC::LocalTensor<float> c1(AscendC::TPosition::CO1, 0, MT * COUT);

        AscendC::DataCopy(fmap, xGM, C * H * W);
        AscendC::DataCopy(wL1, wGM, COUT * K);
        AscendC::SetFlag<AscendC::HardEvent::MTE2_MTE1>(EVENT_ID0);
        AscendC::WaitFlag<AscendC::HardEvent::MTE2_MTE1>(EVENT_ID0);

        uint8_t padList[4] = {PAD, PAD, PAD, PAD};     // left, right, top, bottom
        uint8_t noPad[4] = {0, 0, 0, 0};
        for (uint32_t m0 = 0; m0 < M; m0 += MT) {
            for (uint32_t k0 = 0; k0 < K; k0 += KT) {
                if (m0 + k0 > 0) {
                    AscendC::WaitFlag<AscendC::HardEvent::M_MTE1>(EVENT_ID0);  // Mmad done with L0A/L0B
                }
                // LoadData3DParamsV2{padList, l1H, l1W, channelSize, kExtension, mExtension, kStartPt,
                //                    mStartPt, strideW, strideH, filterW, filterH, dilationW, dilationH,
                //                    enTranspose, enSmallK, padValue}
                AscendC::LoadData3DParamsV2<half> aParams(padList, H, W, C, KT, MT, k0, m0, STRIDE, STRIDE, KW,
                                                          KH, 1, 1, false, false, 0);
                AscendC::LoadData(a2, fmap, aParams);
                AscendC::LoadData3DParamsV2<half> bParams(noPad, 1, K, COUT, COUT, KT, 0, k0, 1, 1, 1, 1, 1, 1,
                                                          false, false, 0);
                AscendC::LoadData(b2, wL1, bParams);
                AscendC::SetFlag<AscendC::HardEvent::MTE1_M>(EVENT_ID0);
                AscendC::WaitFlag<AscendC::HardEvent::MTE1_M>(EVENT_ID0);
                if (k0 == 0 && m0 > 0) {
                    AscendC::WaitFlag<AscendC::HardEvent::FIX_M>(EVENT_ID0);   // Fixpipe done with L0C
                }
                AscendC::MmadParams mmadParams;
                mmadParams.m = MT;
                mmadParams.n = COUT;
                mmadParams.k = KT;
                mmadParams.cmatrixInitVal = k0 == 0;
                AscendC::Mmad(c1, a2, b2, mmadParams);
                AscendC::SetFlag<AscendC::HardEvent::M_MTE1>(EVENT_ID0);
            }
            AscendC::SetFlag<AscendC::HardEvent::M_FIX>(EVENT_ID0);
            AscendC::WaitFlag<AscendC::HardEvent::M_FIX>(EVENT_ID0);
            CopyOut(c1, m0);
            if (m0 + MT < M) {
                AscendC::SetFlag<AscendC::HardEvent::FIX_M>(EVENT_ID0);
            }
        }
        AscendC::WaitFlag<AscendC::HardEvent::M_MTE1>(EVENT_ID0);
    }

private:
    __aicore__ inline void CopyOut(AscendC::LocalTensor<float>& c1, uint32_t m0)
    {
#if defined(__NPU_ARCH__) && (__NPU_ARCH__ == 3510)
        AscendC::FixpipeParamsArch3510<AscendC::CO2Layout::ROW_MAJOR> params;
#else
        AscendC::FixpipeParamsV220 params;
        params.ndNum = 1;
#endif
        params.nSize = COUT;
        params.mSize = MT;
        params.srcStride = MT;
        params.dstStride = COUT;
        AscendC::Fixpipe<float, float, AscendC::CFG_ROW_MAJOR>(yGM[m0 * COUT], c1, params);
    }

    AscendC::GlobalTensor<half> xGM;
    AscendC::GlobalTensor<half> wGM;
    AscendC::GlobalTensor<float> yGM;
};

extern "C" __global__ __aicore__ void conv2d_tiled(GM_ADDR x, GM_ADDR w, GM_ADDR y)
{
    KernelConv2d op;
    op.Init(x, w, y);
    op.Process();
}
