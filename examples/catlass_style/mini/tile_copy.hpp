// mini: the tile copies, one class template per data path, specialised per arch (partial specialisations)
// and per element type (explicit specialisations), as catlass's tile/ headers do.
#pragma once

#include "mini/arch.hpp"

namespace mini::tile {

// GM (row-major, `ld` elements per row) -> L1 Nz tile whose fractal columns are `c0Stride` rows high
template <class ArchTag, class Element>
struct CopyGmToL1 {
    __aicore__ inline void operator()(const AscendC::LocalTensor<Element>& dst,
                                      const AscendC::GlobalTensor<Element>& src, uint32_t rows, uint32_t cols,
                                      uint32_t ld, uint32_t c0Stride) const {
        // Nd2NzParams{ndNum, nValue, dValue, srcNdMatrixStride, srcDValue, dstNzC0Stride, dstNzNStride,
        //             dstNzMatrixStride}
        AscendC::DataCopy(dst, src, AscendC::Nd2NzParams{1, rows, cols, 0, ld, c0Stride, 1, 0});  // mini:copy-in
    }
};

// L1 Nz A tile (c0Stride rows per fractal column) -> L0A, the m x k window at column k0 that Mmad reads
template <class ArchTag, class Element>
struct CopyL1ToL0A;

// A2: L0A is Zz — one LoadData 2D per 16-row block, each taking the block's k fractals
template <class Element>
struct CopyL1ToL0A<arch::AtlasA2, Element> {
    __aicore__ inline void operator()(const AscendC::LocalTensor<Element>& dst,
                                      const AscendC::LocalTensor<Element>& src, uint32_t mRound, uint32_t kRound,
                                      uint32_t k0, uint32_t c0Stride) const {
        constexpr uint32_t C0 = ElementTraits<Element>::C0;
        AscendC::LoadData2DParams params;
        params.repeatTimes = kRound / C0;
        params.srcStride = c0Stride / 16;
        params.ifTranspose = false;
        for (uint32_t i = 0; i < mRound / 16; ++i) {
            params.startIndex = (k0 / C0) * (c0Stride / 16) + i;
            AscendC::LoadData(dst[i * (kRound / C0) * FractalElems<Element>()], src, params);  // mini:load-a-zz
        }
    }
};

// 950: L0A is Nz — one Load3D v2 over the tile seen as a 1 x c0Stride feature map of kTile channels
template <class Element>
struct CopyL1ToL0A<arch::Ascend950, Element> {
    __aicore__ inline void operator()(const AscendC::LocalTensor<Element>& dst,
                                      const AscendC::LocalTensor<Element>& src, uint32_t mRound, uint32_t kRound,
                                      uint32_t k0, uint32_t c0Stride, uint32_t kTile) const {
        uint8_t noPad[4] = {0, 0, 0, 0};
        // LoadData3DParamsV2{padList, l1H, l1W, channelSize, kExtension, mExtension, kStartPt, mStartPt,
        //                    strideW, strideH, filterW, filterH, dilationW, dilationH, enTranspose, enSmallK,
        //                    padValue}
        AscendC::LoadData3DParamsV2<Element> params(noPad, 1, c0Stride, kTile, kRound, mRound, k0, 0, 1, 1, 1, 1,
                                                    1, 1, false, false, 0);
        AscendC::LoadData(dst, src, params);  // mini:load-a-nz
    }
};

// L1 Nz B tile (c0Stride rows per fractal column) -> L0B Zn, the k x n window at row k0: on both arches
// a Load3D v2 over B^T seen as a 1 x c0Stride feature map of nTile channels
template <class ArchTag, class Element>
struct CopyL1ToL0B {
    __aicore__ inline void operator()(const AscendC::LocalTensor<Element>& dst,
                                      const AscendC::LocalTensor<Element>& src, uint32_t kRound, uint32_t nRound,
                                      uint32_t k0, uint32_t c0Stride, uint32_t nTile) const {
        uint8_t noPad[4] = {0, 0, 0, 0};
        AscendC::LoadData3DParamsV2<Element> params(noPad, 1, c0Stride, nTile, nRound, kRound, 0, k0, 1, 1, 1, 1,
                                                    1, 1, false, false, 0);
        AscendC::LoadData(dst, src, params);  // mini:load-b
    }
};

// L0C (Nz, mRound rows per fractal column) -> GM row-major (`ld` elements per row): one specialisation per
// arch, as the Fixpipe params struct differs (each arch's C++ API declares only its own struct, so these
// stay templates: the other arch's body is never instantiated)
template <class ArchTag, class ElementC>
struct CopyL0CToGm;

template <class ElementC>
struct CopyL0CToGm<arch::AtlasA2, ElementC> {
    __aicore__ inline void operator()(const AscendC::GlobalTensor<ElementC>& dst,
                                      const AscendC::LocalTensor<ElementC>& src,
                                      uint32_t m, uint32_t n, uint32_t mRound, uint32_t ld) const {
        AscendC::FixpipeParamsV220 params;
        params.nSize = n;
        params.mSize = m;
        params.srcStride = mRound;
        params.dstStride = ld;
        params.ndNum = 1;
        AscendC::Fixpipe<ElementC, ElementC, AscendC::CFG_ROW_MAJOR>(dst, src, params);  // mini:copy-out-a2
    }
};

template <class ElementC>
struct CopyL0CToGm<arch::Ascend950, ElementC> {
    __aicore__ inline void operator()(const AscendC::GlobalTensor<ElementC>& dst,
                                      const AscendC::LocalTensor<ElementC>& src,
                                      uint32_t m, uint32_t n, uint32_t mRound, uint32_t ld) const {
        AscendC::FixpipeParamsArch3510<AscendC::CO2Layout::ROW_MAJOR> params;
        params.nSize = n;
        params.mSize = m;
        params.srcStride = mRound;
        params.dstStride = ld;
        AscendC::Fixpipe<ElementC, ElementC, AscendC::CFG_ROW_MAJOR>(dst, src, params);  // mini:copy-out-950
    }
};

}  // namespace mini::tile
