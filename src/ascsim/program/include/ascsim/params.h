// The params structs of the cube API: members, defaults and constructors as the C++ API declares them
// (non-aggregates where it has constructors, so a brace list is a constructor call with the C++ API's
// arities and narrowing rules), per arch where the C++ API differs. Each is reflected for the bridge
// with its members in the order the engine's dataclass (ascsim.params) lists them; a test checks the two
// lists agree (tests/program/test_headers.py). Written for ascsim from the docs and the C++ API's facts
// (docs/cpp.md "Headers"; docs/divergences.md rows C* for the members ascsim reads differently).
#pragma once

#include <cstdint>

#include "ascsim/encode.h"
#include "ascsim/enums.h"
#include "ascsim/generated.h"
#include "ascsim/types.h"

namespace AscendC {

template <class T>
struct PrimTHelper {
    using type = T;
};
template <class T>
using PrimT = typename PrimTHelper<T>::type;

// The pad value type of the 3-D load params on 950: the 8-bit float types carry their raw byte.
template <class T>
struct GetPadValueType {
#if ASCSIM_ARCH_3510
    using Type = typename std::conditional<sizeof(T) == 1 && !std::is_integral<T>::value, uint8_t, T>::type;
#else
    using Type = T;
#endif
};

// ---- 2-D loads ------------------------------------------------------------------------------------------
struct LoadData2DParams {
    LoadData2DParams() {}
    LoadData2DParams(const uint16_t startIndexIn, const uint8_t repeatTimesIn, const uint16_t srcStrideIn,
                     const uint8_t sidIn, const uint16_t dstGapIn, const bool ifTransposeIn, const uint8_t addrModeIn)
        : startIndex(startIndexIn), dstGap(dstGapIn), srcStride(srcStrideIn), ifTranspose(ifTransposeIn),
          repeatTimes(repeatTimesIn), sid(sidIn), addrMode(addrModeIn) {}
    uint16_t startIndex = 0;
    uint16_t dstGap = 0;
    uint16_t srcStride = 0;
    bool ifTranspose = false;
    uint8_t repeatTimes = 0;
    uint8_t sid = 0;
    uint8_t addrMode = 0;
};
using LoadData2dParams = LoadData2DParams;

struct LoadData2DParamsV2 {
    LoadData2DParamsV2() {}
    LoadData2DParamsV2(const uint32_t mStartPositionIn, const uint32_t kStartPositionIn, const uint16_t mStepIn,
                       const uint16_t kStepIn, const int32_t srcStrideIn, const uint16_t dstStrideIn,
                       const bool ifTransposeIn, const uint8_t sidIn)
        : mStartPosition(mStartPositionIn), kStartPosition(kStartPositionIn), mStep(mStepIn), kStep(kStepIn),
          srcStride(srcStrideIn), dstStride(dstStrideIn), ifTranspose(ifTransposeIn), sid(sidIn) {}
    uint32_t mStartPosition = 0;
    uint32_t kStartPosition = 0;
    uint16_t mStep = 0;
    uint16_t kStep = 0;
    int32_t srcStride = 0;
    uint16_t dstStride = 0;
    bool ifTranspose = false;
    uint8_t sid = 0;
};

struct LoadData2dTransposeParams {
    LoadData2dTransposeParams() {}
    LoadData2dTransposeParams(const uint16_t startIndexIn, const uint8_t repeatTimesIn, const uint16_t srcStrideIn,
                              const uint16_t dstGapIn, const uint16_t dstFracGapIn, const uint8_t addrModeIn)
        : startIndex(startIndexIn), repeatTimes(repeatTimesIn), srcStride(srcStrideIn), dstGap(dstGapIn),
          dstFracGap(dstFracGapIn), addrMode(addrModeIn) {}
    LoadData2dTransposeParams(const uint16_t startIndexIn, const uint8_t repeatTimesIn, const uint16_t srcStrideIn,
                              const uint16_t dstGapIn, const uint16_t dstFracGapIn)
        : startIndex(startIndexIn), repeatTimes(repeatTimesIn), srcStride(srcStrideIn), dstGap(dstGapIn),
          dstFracGap(dstFracGapIn) {}
    uint16_t startIndex = 0;
    uint8_t repeatTimes = 0;
    uint16_t srcStride = 0;
    uint16_t dstGap = 0;
    uint16_t dstFracGap = 0;
    uint8_t addrMode = 0;
};

struct LoadData2dTransposeParamsV2 {
    LoadData2dTransposeParamsV2() {}
    LoadData2dTransposeParamsV2(const uint16_t startIndexIn, const uint8_t repeatTimesIn, const uint16_t srcStrideIn,
                                const uint16_t dstGapIn, const uint16_t dstFracGapIn, const uint16_t srcFracGapIn)
        : startIndex(startIndexIn), repeatTimes(repeatTimesIn), srcStride(srcStrideIn), dstGap(dstGapIn),
          dstFracGap(dstFracGapIn), srcFracGap(srcFracGapIn) {}
    LoadData2dTransposeParamsV2(const uint16_t startIndexIn, const uint8_t repeatTimesIn, const uint16_t srcStrideIn,
                                const uint16_t dstGapIn, const uint16_t dstFracGapIn, const uint16_t srcFracGapIn,
                                const uint8_t addrModeIn)
        : startIndex(startIndexIn), repeatTimes(repeatTimesIn), srcStride(srcStrideIn), dstGap(dstGapIn),
          dstFracGap(dstFracGapIn), srcFracGap(srcFracGapIn), addrMode(addrModeIn) {}
    uint16_t startIndex = 0;
    uint8_t repeatTimes = 0;
    uint16_t srcStride = 0;
    uint16_t dstGap = 0;
    uint16_t dstFracGap = 0;
    uint16_t srcFracGap = 0;
    uint8_t addrMode = 0;
};

struct LoadData2DMxParams {
    LoadData2DMxParams() {}
    LoadData2DMxParams(const uint16_t xStartPositionIn, const uint16_t yStartPositionIn, const uint8_t xStepIn,
                       const uint8_t yStepIn, const uint16_t srcStrideIn, const uint16_t dstStrideIn) {
        xStartPosition = xStartPositionIn;
        yStartPosition = yStartPositionIn;
        xStep = xStepIn;
        yStep = yStepIn;
        srcStride = srcStrideIn;
        dstStride = dstStrideIn;
    }
    uint16_t xStartPosition = 0;
    uint16_t yStartPosition = 0;
    uint8_t xStep = 0;
    uint8_t yStep = 0;
    uint16_t srcStride = 0;
    uint16_t dstStride = 0;
};

// ---- 3-D loads ------------------------------------------------------------------------------------------
template <class T>
struct LoadData3DParamsV1 {
    using PadT = typename GetPadValueType<T>::Type;
    LoadData3DParamsV1() {
        for (int i = 0; i < PAD_SIZE; ++i) padList[i] = 0;
    }
    LoadData3DParamsV1(const uint8_t padListIn[PAD_SIZE], const uint16_t l1HIn, const uint16_t l1WIn,
                       const uint16_t c1IndexIn, const uint8_t fetchFilterWIn, const uint8_t fetchFilterHIn,
                       const int16_t leftTopWIn, const int16_t leftTopHIn, const uint8_t strideWIn,
                       const uint8_t strideHIn, const uint8_t filterWIn, const uint8_t filterHIn,
                       const uint8_t dilationFilterWIn, const uint8_t dilationFilterHIn, const uint8_t jumpStrideIn,
                       const uint8_t repeatModeIn, const uint8_t repeatTimeIn, const uint8_t cSizeIn,
                       const T padValueIn)
        : strideW(strideWIn), strideH(strideHIn), filterW(filterWIn), filterH(filterHIn),
          dilationFilterW(dilationFilterWIn), dilationFilterH(dilationFilterHIn), jumpStride(jumpStrideIn),
          repeatMode(repeatModeIn), repeatTime(repeatTimeIn), cSize(cSizeIn), padValue(pad_of(padValueIn)),
          fetchFilterW(fetchFilterWIn), fetchFilterH(fetchFilterHIn), l1H(l1HIn), l1W(l1WIn), c1Index(c1IndexIn),
          leftTopW(leftTopWIn), leftTopH(leftTopHIn) {
        for (int i = 0; i < PAD_SIZE; ++i) padList[i] = padListIn[i];
    }
    uint8_t padList[PAD_SIZE] = {0};
    uint8_t strideW = 0;
    uint8_t strideH = 0;
    uint8_t filterW = 0;
    uint8_t filterH = 0;
    uint8_t dilationFilterW = 0;
    uint8_t dilationFilterH = 0;
    uint8_t jumpStride = 0;
    uint8_t repeatMode = 0;
    uint8_t repeatTime = 0;
    uint8_t cSize = 0;
    PadT padValue = 0;
    uint8_t fetchFilterW = 0;
    uint8_t fetchFilterH = 0;
    uint16_t l1H = 0;
    uint16_t l1W = 0;
    uint16_t c1Index = 0;
    int16_t leftTopW = 0;
    int16_t leftTopH = 0;

private:
    static PadT pad_of(const T& v) {
        PadT p{};
        std::memcpy(&p, &v, sizeof(p) < sizeof(v) ? sizeof(p) : sizeof(v));
        return p;
    }
};

template <class T>
struct LoadData3DParamsV2 {
    using PadT = typename GetPadValueType<T>::Type;
    LoadData3DParamsV2() {
        for (int i = 0; i < PAD_SIZE; ++i) padList[i] = 0;
    }
    LoadData3DParamsV2(const uint8_t padListIn[PAD_SIZE], const uint16_t l1HIn, const uint16_t l1WIn,
                       const uint16_t channelSizeIn, const uint16_t kExtensionIn, const uint16_t mExtensionIn,
                       const uint16_t kStartPtIn, const uint16_t mStartPtIn, const uint8_t strideWIn,
                       const uint8_t strideHIn, const uint8_t filterWIn, const uint8_t filterHIn,
                       const uint8_t dilationFilterWIn, const uint8_t dilationFilterHIn, const bool enTransposeIn,
                       const bool enSmallKIn, const T padValueIn)
        : l1H(l1HIn), l1W(l1WIn), channelSize(channelSizeIn), kExtension(kExtensionIn), mExtension(mExtensionIn),
          kStartPt(kStartPtIn), mStartPt(mStartPtIn), strideW(strideWIn), strideH(strideHIn), filterW(filterWIn),
          filterH(filterHIn), dilationFilterW(dilationFilterWIn), dilationFilterH(dilationFilterHIn),
          enTranspose(enTransposeIn), enSmallK(enSmallKIn), padValue(pad_of(padValueIn)) {
        for (int i = 0; i < PAD_SIZE; ++i) padList[i] = padListIn[i];
    }
    LoadData3DParamsV2(const uint8_t padListIn[PAD_SIZE], const uint16_t l1HIn, const uint16_t l1WIn,
                       const uint16_t channelSizeIn, const uint16_t kExtensionIn, const uint16_t mExtensionIn,
                       const uint16_t kStartPtIn, const uint16_t mStartPtIn, const uint8_t strideWIn,
                       const uint8_t strideHIn, const uint8_t filterWIn, const uint8_t filterHIn,
                       const uint8_t dilationFilterWIn, const uint8_t dilationFilterHIn, const bool enTransposeIn,
                       const bool enSmallKIn, const T padValueIn, const bool filterSizeWIn, const bool filterSizeHIn,
                       const bool fMatrixCtrlIn)
        : LoadData3DParamsV2(padListIn, l1HIn, l1WIn, channelSizeIn, kExtensionIn, mExtensionIn, kStartPtIn,
                             mStartPtIn, strideWIn, strideHIn, filterWIn, filterHIn, dilationFilterWIn,
                             dilationFilterHIn, enTransposeIn, enSmallKIn, padValueIn) {
        filterSizeW = filterSizeWIn;
        filterSizeH = filterSizeHIn;
        fMatrixCtrl = fMatrixCtrlIn;
    }
    uint8_t padList[PAD_SIZE] = {0};
    uint16_t l1H = 0;
    uint16_t l1W = 0;
    uint16_t channelSize = 0;
    uint16_t kExtension = 0;
    uint16_t mExtension = 0;
    uint16_t kStartPt = 0;
    uint16_t mStartPt = 0;
    uint8_t strideW = 1;
    uint8_t strideH = 1;
    uint8_t filterW = 1;
    uint8_t filterH = 1;
    uint8_t dilationFilterW = 1;
    uint8_t dilationFilterH = 1;
    bool enTranspose = false;
    bool enSmallK = false;
    PadT padValue = 0;
    bool filterSizeW = false;
    bool filterSizeH = false;
    bool fMatrixCtrl = false;

private:
    static PadT pad_of(const T& v) {
        PadT p{};
        std::memcpy(&p, &v, sizeof(p) < sizeof(v) ? sizeof(p) : sizeof(v));
        return p;
    }
};

struct LoadData3DParamsV2Pro {
    LoadData3DParamsV2Pro() {}
    LoadData3DParamsV2Pro(const uint16_t channelSizeIn, const bool enTransposeIn, const bool enSmallKIn,
                          const bool filterSizeWIn, const bool filterSizeHIn, const bool fMatrixCtrlIn,
                          const uint64_t extConfigIn, const uint64_t filterConfigIn)
        : channelSize(channelSizeIn), enTranspose(enTransposeIn), enSmallK(enSmallKIn), filterSizeW(filterSizeWIn),
          filterSizeH(filterSizeHIn), fMatrixCtrl(fMatrixCtrlIn), extConfig(extConfigIn),
          filterConfig(filterConfigIn) {}
    uint16_t channelSize = 0;
    bool enTranspose = false;
    bool enSmallK = false;
    bool filterSizeW = false;
    bool filterSizeH = false;
    bool fMatrixCtrl = false;
    uint64_t extConfig = 0;
    uint64_t filterConfig = 0x10101010101ULL;
};

struct IsResetLoad3dConfig {
    constexpr IsResetLoad3dConfig(const bool isSetFMatrixIn, const bool isSetPaddingIn)
        : isSetFMatrix(isSetFMatrixIn), isSetPadding(isSetPaddingIn) {}
    bool isSetFMatrix = true;
    bool isSetPadding = true;
};
constexpr IsResetLoad3dConfig IS_RESER_LOAD3D_DEFAULT_CONFIG = {true, true};

struct LoadDataRepeatParam {
    LoadDataRepeatParam() {}
#if defined(__NPU_ARCH__) && (__NPU_ARCH__ == 3102 || __NPU_ARCH__ == 5102)
    LoadDataRepeatParam(const uint16_t repeatStrideIn, const uint8_t repeatTimeIn, const uint8_t repeatModeIn,
                        const uint16_t dstStrideIn)
        : repeatStride(repeatStrideIn), repeatTime(repeatTimeIn), repeatMode(repeatModeIn), dstStride(dstStrideIn) {}
    uint16_t repeatStride = 0;
    uint8_t repeatTime = 1;
    uint8_t repeatMode = 0;
    uint16_t dstStride = 0;
#else
    LoadDataRepeatParam(const uint16_t repeatStrideIn, const uint8_t repeatTimeIn, const uint8_t repeatModeIn)
        : repeatStride(repeatStrideIn), repeatTime(repeatTimeIn), repeatMode(repeatModeIn) {}
    uint16_t repeatStride = 0;
    uint8_t repeatTime = 1;
    uint8_t repeatMode = 0;
    uint8_t reserved = 0;
#endif
};

struct LoadDataRepeatParamWithStride {
    LoadDataRepeatParamWithStride() {}
    LoadDataRepeatParamWithStride(const uint16_t repeatStrideIn, const uint8_t repeatTimeIn,
                                  const uint8_t repeatModeIn, const uint16_t dstStrideIn)
        : repeatStride(repeatStrideIn), repeatTime(repeatTimeIn), repeatMode(repeatModeIn), dstStride(dstStrideIn) {}
    uint16_t repeatStride = 0;
    uint8_t repeatTime = 1;
    uint8_t repeatMode = 0;
    uint16_t dstStride = 0;
};

// ---- bit-mode params (950): raw words with one accessor per bit field ----------------------------------
// The fields' places come from the engine's tables (ascsim.params, through generated.h).
namespace ascsim_detail {
inline uint64_t field_get(uint64_t w, unsigned lo, unsigned width) {
    return width >= 64 ? w : (w >> lo) & ((1ULL << width) - 1);
}
inline void field_set(uint64_t& w, unsigned lo, unsigned width, uint64_t v) {
    uint64_t mask = (width >= 64 ? ~0ULL : ((1ULL << width) - 1)) << lo;
    w = (w & ~mask) | ((v << lo) & mask);
}
}  // namespace ascsim_detail

#define ASCSIM_BITFIELD(NAME, TYPE, SPEC)                                                          \
    void Set##NAME(TYPE v) {                                                                       \
        ascsim_detail::field_set(SPEC.word ? config1 : config0, SPEC.lo, SPEC.width,               \
                                 static_cast<uint64_t>(v));                                        \
    }                                                                                              \
    TYPE Get##NAME() const {                                                                       \
        return static_cast<TYPE>(ascsim_detail::field_get(SPEC.word ? config1 : config0, SPEC.lo, SPEC.width)); \
    }

class Load3DBitModeParam {
public:
    Load3DBitModeParam() : config0(0), config1(0) {}
    template <class T>
    Load3DBitModeParam(const LoadData3DParamsV2<T>& p) {
        SetKExtension(p.kExtension);
        SetMExtension(p.mExtension);
        SetKStartPt(p.kStartPt);
        SetMStartPt(p.mStartPt);
        SetStrideW(p.strideW);
        SetStrideH(p.strideH);
        SetFilterW(p.filterW);
        SetFilterH(p.filterH);
        SetDilationFilterW(p.dilationFilterW);
        SetDilationFilterH(p.dilationFilterH);
        SetFilterSizeW(p.filterSizeW);
        SetFilterSizeH(p.filterSizeH);
        SetTranspose(p.enTranspose);
        SetFMatrixCtrl(p.fMatrixCtrl);
        SetChannelSize(p.channelSize);
    }
    ASCSIM_BITFIELD(KExtension, uint16_t, ::ascsim::gen::Load3DBitMode::kExtension)
    ASCSIM_BITFIELD(MExtension, uint16_t, ::ascsim::gen::Load3DBitMode::mExtension)
    ASCSIM_BITFIELD(KStartPt, uint16_t, ::ascsim::gen::Load3DBitMode::kStartPt)
    ASCSIM_BITFIELD(MStartPt, uint16_t, ::ascsim::gen::Load3DBitMode::mStartPt)
    ASCSIM_BITFIELD(StrideW, uint8_t, ::ascsim::gen::Load3DBitMode::strideW)
    ASCSIM_BITFIELD(StrideH, uint8_t, ::ascsim::gen::Load3DBitMode::strideH)
    ASCSIM_BITFIELD(FilterW, uint8_t, ::ascsim::gen::Load3DBitMode::filterW)
    ASCSIM_BITFIELD(FilterH, uint8_t, ::ascsim::gen::Load3DBitMode::filterH)
    ASCSIM_BITFIELD(DilationFilterW, uint8_t, ::ascsim::gen::Load3DBitMode::dilationFilterW)
    ASCSIM_BITFIELD(DilationFilterH, uint8_t, ::ascsim::gen::Load3DBitMode::dilationFilterH)
    ASCSIM_BITFIELD(FilterSizeW, bool, ::ascsim::gen::Load3DBitMode::filterSizeW)
    ASCSIM_BITFIELD(FilterSizeH, bool, ::ascsim::gen::Load3DBitMode::filterSizeH)
    ASCSIM_BITFIELD(Transpose, bool, ::ascsim::gen::Load3DBitMode::transpose)
    ASCSIM_BITFIELD(FMatrixCtrl, bool, ::ascsim::gen::Load3DBitMode::fmatrixCtrl)
    ASCSIM_BITFIELD(ChannelSize, uint16_t, ::ascsim::gen::Load3DBitMode::channelSize)
    void SetConfig0(uint64_t v) { config0 = v; }
    void SetConfig1(uint64_t v) { config1 = v; }
    uint64_t GetConfig0() const { return config0; }
    uint64_t GetConfig1() const { return config1; }
    uint64_t config0 = 0;  // private unions in the C++ API; public here for the bridge
    uint64_t config1 = 0;
};

class Load2DBitModeParam {
public:
    Load2DBitModeParam() : config0(0), config1(0), ifTranspose(false) {}
    Load2DBitModeParam(const LoadData2DParamsV2& p) {
        SetMStartPosition(p.mStartPosition);
        SetKStartPosition(p.kStartPosition);
        SetMStep(p.mStep);
        SetKStep(p.kStep);
        SetSrcStride(p.srcStride);
        SetDstStride(p.dstStride);
        ifTranspose = p.ifTranspose;
    }
    ASCSIM_BITFIELD(MStartPosition, uint32_t, ::ascsim::gen::Load2DBitMode::mStartPosition)
    ASCSIM_BITFIELD(KStartPosition, uint32_t, ::ascsim::gen::Load2DBitMode::kStartPosition)
    ASCSIM_BITFIELD(MStep, uint16_t, ::ascsim::gen::Load2DBitMode::mStep)
    ASCSIM_BITFIELD(KStep, uint16_t, ::ascsim::gen::Load2DBitMode::kStep)
    ASCSIM_BITFIELD(SrcStride, int32_t, ::ascsim::gen::Load2DBitMode::srcStride)
    ASCSIM_BITFIELD(DstStride, uint16_t, ::ascsim::gen::Load2DBitMode::dstStride)
    void SetIfTranspose(bool v) { ifTranspose = v; }
    uint64_t GetIfTranspose() const { return ifTranspose; }
    void SetConfig0(uint64_t v) { config0 = v; }
    void SetConfig1(uint64_t v) { config1 = v; }
    uint64_t GetConfig0() const { return config0; }
    uint64_t GetConfig1() const { return config1; }
    uint64_t config0 = 0;
    uint64_t config1 = 0;
    bool ifTranspose = false;
};

class SetFMatrixBitModeParams {
public:
    SetFMatrixBitModeParams() : config0(0) {}
    template <class T>
    SetFMatrixBitModeParams(const LoadData3DParamsV2<T>& p) {  // l1H and l1W only, as the C++ API (L20)
        SetL1H(p.l1H);
        SetL1W(p.l1W);
    }
    void SetL1H(uint16_t v) { set(::ascsim::gen::FmatrixBitMode::l1H, v); }
    void SetL1W(uint16_t v) { set(::ascsim::gen::FmatrixBitMode::l1W, v); }
    void SetPadList(const uint8_t pads[PAD_SIZE]) {
        set(::ascsim::gen::FmatrixBitMode::padList0, pads[0]);
        set(::ascsim::gen::FmatrixBitMode::padList1, pads[1]);
        set(::ascsim::gen::FmatrixBitMode::padList2, pads[2]);
        set(::ascsim::gen::FmatrixBitMode::padList3, pads[3]);
    }
    void SetConfig0(uint64_t v) { config0 = v; }
    uint64_t GetConfig0() const { return config0; }
    uint64_t config0 = 0;

private:
    void set(::ascsim::gen::BitField f, uint64_t v) { ascsim_detail::field_set(config0, f.lo, f.width, v); }
};

// ---- Mmad and Fill -----------------------------------------------------------------------------------------
struct MmadParams {
    MmadParams() {}
    MmadParams(const uint16_t mIn, const uint16_t nIn, const uint16_t kIn, const bool isBiasIn, const int32_t fmOffsetIn,
               const bool enSsparseIn, const bool enWinogradAIn, const bool enWinogradBIn)
        : m(mIn), n(nIn), k(kIn), isBias(isBiasIn), fmOffset(fmOffsetIn), enSsparse(enSsparseIn),
          enWinogradA(enWinogradAIn), enWinogradB(enWinogradBIn) {}
    MmadParams(const uint16_t mIn, const uint16_t nIn, const uint16_t kIn, const uint8_t unitFlagIn,
               const bool cmatrixSourceIn, const bool cmatrixInitValIn)
        : m(mIn), n(nIn), k(kIn), unitFlag(unitFlagIn), cmatrixSource(cmatrixSourceIn),
          cmatrixInitVal(cmatrixInitValIn) {}
    uint16_t m = 0;
    uint16_t n = 0;
    uint16_t k = 0;
    bool isBias = false;
    int32_t fmOffset = 0;
    bool enSsparse = false;
    bool enWinogradA = false;
    bool enWinogradB = false;
    uint8_t unitFlag = 0;
    bool kDirectionAlign = false;
    bool cmatrixSource = false;
    bool cmatrixInitVal = true;
#if ASCSIM_ARCH_3510
    bool disableGemv = false;
#endif
};

template <class T>
struct InitConstValueParams {
    InitConstValueParams() {}
    InitConstValueParams(const uint16_t repeatTimesIn, const uint16_t blockNumIn, const uint16_t dstGapIn,
                         const T initValueIn)
        : repeatTimes(repeatTimesIn), blockNum(blockNumIn), dstGap(dstGapIn), initValue(initValueIn) {}
    InitConstValueParams(const uint16_t repeatTimesIn, const T initValueIn)
        : repeatTimes(repeatTimesIn), initValue(initValueIn) {}
    uint16_t repeatTimes = 0;
    uint16_t blockNum = 0;
    uint16_t dstGap = 0;
    T initValue = 0;
};

// ---- data copies -----------------------------------------------------------------------------------------
struct DataCopyParams {
    DataCopyParams() {}
    DataCopyParams(const uint16_t count, const uint16_t len, const uint16_t srcStrideIn, const uint16_t dstStrideIn)
        : blockCount(count), blockLen(len), srcStride(srcStrideIn), dstStride(dstStrideIn) {}
    uint16_t blockCount = DEFAULT_DATA_COPY_NBURST;
    uint16_t blockLen = 0;
    union {
        uint16_t srcGap = 0;
        uint16_t srcStride;
    };
    union {
        uint16_t dstGap = 0;
        uint16_t dstStride;
    };
};

struct Nd2NzParams {
#if ASCSIM_ARCH_3510
    using DValue = uint32_t;
    using SrcStride = uint64_t;
    using MatrixStride = uint32_t;
#else
    using DValue = uint16_t;
    using SrcStride = uint16_t;
    using MatrixStride = uint16_t;
#endif
    Nd2NzParams() {}
    Nd2NzParams(const uint16_t ndNumIn, const uint16_t nValueIn, const DValue dValueIn,
                const SrcStride srcNdMatrixStrideIn, const SrcStride srcDValueIn, const uint16_t dstNzC0StrideIn,
                const uint16_t dstNzNStrideIn, const MatrixStride dstNzMatrixStrideIn)
        : ndNum(ndNumIn), nValue(nValueIn), dValue(dValueIn), srcNdMatrixStride(srcNdMatrixStrideIn),
          srcDValue(srcDValueIn), dstNzC0Stride(dstNzC0StrideIn), dstNzNStride(dstNzNStrideIn),
          dstNzMatrixStride(dstNzMatrixStrideIn) {}
    uint16_t ndNum = 0;
    uint16_t nValue = 0;
    DValue dValue = 0;
    SrcStride srcNdMatrixStride = 0;
    SrcStride srcDValue = 0;
    uint16_t dstNzC0Stride = 0;
    uint16_t dstNzNStride = 0;
    MatrixStride dstNzMatrixStride = 0;
};

struct Dn2NzParams {
    Dn2NzParams() {}
    Dn2NzParams(const uint16_t dnNumIn, const uint16_t nValueIn, const uint32_t dValueIn,
                const uint64_t srcDnMatrixStrideIn, const uint64_t srcDValueIn, const uint16_t dstNzC0StrideIn,
                const uint16_t dstNzNStrideIn, const uint32_t dstNzMatrixStrideIn)
        : dnNum(dnNumIn), nValue(nValueIn), dValue(dValueIn), srcDnMatrixStride(srcDnMatrixStrideIn),
          srcDValue(srcDValueIn), dstNzC0Stride(dstNzC0StrideIn), dstNzNStride(dstNzNStrideIn),
          dstNzMatrixStride(dstNzMatrixStrideIn) {}
    uint16_t dnNum = 0;
    uint16_t nValue = 0;
    uint32_t dValue = 0;
    uint64_t srcDnMatrixStride = 0;
    uint64_t srcDValue = 0;
    uint16_t dstNzC0Stride = 0;
    uint16_t dstNzNStride = 0;
    uint32_t dstNzMatrixStride = 0;
};

struct DataCopyCO12DstParams {
    DataCopyCO12DstParams() {}
    DataCopyCO12DstParams(const uint16_t nSizeIn, const uint16_t mSizeIn, const uint32_t dstStrideIn,
                          const uint16_t srcStrideIn, const QuantMode_t quantPreIn, const uint8_t reluPreIn,
                          const bool channelSplitIn, const bool nz2ndEnIn)
        : nSize(nSizeIn), mSize(mSizeIn), dstStride(dstStrideIn), srcStride(srcStrideIn), quantPre(quantPreIn),
          reluPre(reluPreIn), channelSplit(channelSplitIn), nz2ndEn(nz2ndEnIn) {}
    uint8_t sid = 0;
    uint16_t nSize = 0;
    uint16_t mSize = 0;
    uint32_t dstStride = 0;
    uint16_t srcStride = 0;
    uint8_t unitFlag = 0;
    uint8_t clipReluPre = 0;
    uint8_t eltWiseOp = 0;
    QuantMode_t quantPre = QuantMode_t::NoQuant;
    uint8_t reluPre = 0;
    bool channelSplit = false;
    bool nz2ndEn = false;
};

struct DataCopyExtParams {
#if ASCSIM_ARCH_3510
    using Stride = int64_t;
#else
    using Stride = uint32_t;
#endif
    DataCopyExtParams() {}
    DataCopyExtParams(const uint16_t count, const uint32_t len, const Stride srcStrideIn, const Stride dstStrideIn,
                      const uint32_t rsvIn)
        : blockCount(count), blockLen(len), srcStride(srcStrideIn), dstStride(dstStrideIn), rsv(rsvIn) {}
    uint16_t blockCount = DEFAULT_DATA_COPY_NBURST;
    uint32_t blockLen = 0;
    Stride srcStride = DEFAULT_DATA_COPY_STRIDE;
    Stride dstStride = DEFAULT_DATA_COPY_STRIDE;
    uint32_t rsv = 0;
};

template <class T>
struct DataCopyPadExtParams {
    using PadT = typename GetPadValueType<T>::Type;
    DataCopyPadExtParams() {}
    DataCopyPadExtParams(const bool isPadIn, const uint8_t leftPadIn, const uint8_t rightPadIn, T padValue)
        : isPad(isPadIn), leftPadding(leftPadIn), rightPadding(rightPadIn) {
        std::memcpy(&paddingValue, &padValue, sizeof(PadT) < sizeof(T) ? sizeof(PadT) : sizeof(T));
    }
    bool isPad = false;
    uint8_t leftPadding = 0;
    uint8_t rightPadding = 0;
    PadT paddingValue = 0;
};

struct DataCopyPadParams {
    DataCopyPadParams() {}
    DataCopyPadParams(const bool isPadIn, const uint8_t leftPadIn, const uint8_t rightPadIn, const uint64_t valueIn)
        : isPad(isPadIn), leftPadding(leftPadIn), rightPadding(rightPadIn), paddingValue(valueIn) {}
    bool isPad = false;
    uint8_t leftPadding = 0;
    uint8_t rightPadding = 0;
    uint64_t paddingValue = 0;
};

// ---- Fixpipe -----------------------------------------------------------------------------------------------
struct FixpipeConfig {
    constexpr FixpipeConfig(CO2Layout formatIn) : format(formatIn) {}
    constexpr FixpipeConfig(CO2Layout formatIn, bool isToUBIn) : format(formatIn), isToUB(isToUBIn) {}
    CO2Layout format;
    bool isToUB = false;  // only 950 reads it (the C++ API drops it on 2201)
};
constexpr FixpipeConfig CFG_NZ = {CO2Layout::NZ};
constexpr FixpipeConfig CFG_ROW_MAJOR = {CO2Layout::ROW_MAJOR};
constexpr FixpipeConfig CFG_COLUMN_MAJOR = {CO2Layout::COLUMN_MAJOR};

struct FixpipeParamsV220 {
    FixpipeParamsV220() {}
    FixpipeParamsV220(const uint16_t nSizeIn, const uint16_t mSizeIn, const uint16_t srcStrideIn,
                      const uint32_t dstStrideIn, const bool reluEnIn)
        : nSize(nSizeIn), mSize(mSizeIn), srcStride(srcStrideIn), dstStride(dstStrideIn), reluEn(reluEnIn) {}
    FixpipeParamsV220(const uint16_t nSizeIn, const uint16_t mSizeIn, const uint16_t srcStrideIn,
                      const uint32_t dstStrideIn, const bool reluEnIn, const QuantMode_t quantPreIn,
                      const int64_t deqScalarIn, const uint16_t ndNumIn, const uint16_t srcNdStrideIn,
                      const uint16_t dstNdStrideIn, const uint8_t unitFlagIn)
        : nSize(nSizeIn), mSize(mSizeIn), srcStride(srcStrideIn), dstStride(dstStrideIn), quantPre(quantPreIn),
          deqScalar(static_cast<uint64_t>(deqScalarIn)), ndNum(ndNumIn), srcNdStride(srcNdStrideIn),
          dstNdStride(dstNdStrideIn), reluEn(reluEnIn), unitFlag(unitFlagIn) {}
    FixpipeParamsV220(const uint16_t nSizeIn, const uint16_t mSizeIn, const uint16_t srcStrideIn,
                      const uint32_t dstStrideIn, const bool reluEnIn, const QuantMode_t quantPreIn,
                      const int64_t deqScalarIn, const uint16_t ndNumIn, const uint16_t srcNdStrideIn,
                      const uint16_t dstNdStrideIn, const uint8_t unitFlagIn, const bool isChannelSplitIn)
        : FixpipeParamsV220(nSizeIn, mSizeIn, srcStrideIn, dstStrideIn, reluEnIn, quantPreIn, deqScalarIn, ndNumIn,
                            srcNdStrideIn, dstNdStrideIn, unitFlagIn) {
        isChannelSplit = isChannelSplitIn;
    }
    uint16_t nSize = 0;
    uint16_t mSize = 0;
    uint16_t srcStride = 0;
    uint32_t dstStride = 0;
    QuantMode_t quantPre = QuantMode_t::NoQuant;
    uint64_t deqScalar = 0;  // no initialiser in the C++ API (indeterminate); 0 here (divergence B1)
    uint16_t ndNum = 1;
    uint16_t srcNdStride = 0;
    uint16_t dstNdStride = 0;
    bool reluEn = false;
    uint8_t unitFlag = 0;
    bool isChannelSplit = false;
};
using FixpipeParamsM300 = FixpipeParamsV220;
using FixpipeParamsM310 = FixpipeParamsV220;

#if ASCSIM_ARCH_3510
struct Nz2NdParams {
    Nz2NdParams() {}
    Nz2NdParams(const uint16_t ndNumIn, const uint16_t srcNdStrideIn, const uint32_t dstNdStrideIn)
        : ndNum(ndNumIn), srcNdStride(srcNdStrideIn), dstNdStride(dstNdStrideIn) {}
    uint16_t ndNum = 1;
    uint16_t srcNdStride = 0;
    uint32_t dstNdStride = 0;
};
#else
struct Nz2NdParams {
    Nz2NdParams() {}
    Nz2NdParams(const bool nz2ndEnIn, const uint16_t ndNumIn, const uint16_t srcNdStrideIn,
                const uint16_t dstNdStrideIn, const uint16_t originalNSizeIn)
        : nz2ndEn(nz2ndEnIn), ndNum(ndNumIn), srcNdStride(srcNdStrideIn), dstNdStride(dstNdStrideIn),
          originalNSize(originalNSizeIn) {}
    bool nz2ndEn = false;
    uint16_t ndNum = 1;
    uint16_t srcNdStride = 0;
    uint16_t dstNdStride = 0;
    uint16_t originalNSize = 0;
};
#endif

struct Nz2DnParams {
    Nz2DnParams() {}
    Nz2DnParams(const uint16_t dnNumIn, const uint16_t srcNzMatrixStrideIn, const uint32_t dstDnMatrixStrideIn,
                const uint16_t srcNzC0StrideIn)
        : dnNum(dnNumIn), srcNzMatrixStride(srcNzMatrixStrideIn), dstDnMatrixStride(dstDnMatrixStrideIn),
          srcNzC0Stride(srcNzC0StrideIn) {}
    uint16_t dnNum = 1;
    uint16_t srcNzMatrixStride = 0;
    uint32_t dstDnMatrixStride = 0;
    uint16_t srcNzC0Stride = 0;
};

template <CO2Layout format>
struct TransformParams {
    using PARAMS = uint8_t;
};
template <>
struct TransformParams<CO2Layout::ROW_MAJOR> {
    using PARAMS = Nz2NdParams;
};
template <>
struct TransformParams<CO2Layout::COLUMN_MAJOR> {
    using PARAMS = Nz2DnParams;
};

template <CO2Layout format = CO2Layout::ROW_MAJOR>
struct FixpipeParamsArch3510 {
    FixpipeParamsArch3510() {}
    FixpipeParamsArch3510(const uint16_t nSizeIn, const uint16_t mSizeIn, const uint16_t srcStrideIn,
                          const uint32_t dstStrideIn)
        : nSize(nSizeIn), mSize(mSizeIn), srcStride(srcStrideIn), dstStride(dstStrideIn) {}
    ReluMode preReluMode = ReluMode::NO_RELU;
    ClipReluMode preClipReluMode = ClipReluMode::NOCLIP_RELU;
    uint64_t reluScalar = 0;
    uint64_t vectorRelu = 0;
    uint16_t nSize = 0;
    uint16_t mSize = 0;
    uint16_t srcStride = 0;
    uint32_t dstStride = 0;
    QuantMode_t quantPre = QuantMode_t::NoQuant;
    uint64_t deqScalar = 0;
    bool reluEn = false;
    uint8_t unitFlag = 0;
    uint8_t dualDstCtl = 0;
    bool subBlockId = false;
    typename TransformParams<format>::PARAMS params{};
    bool isChannelSplit = false;
};

template <CO2Layout format = CO2Layout::ROW_MAJOR>
struct FixpipeParamsC310 : public FixpipeParamsArch3510<format> {
    FixpipeParamsC310() {}
    FixpipeParamsC310(const uint16_t nSizeIn, const uint16_t mSizeIn, const uint16_t srcStrideIn,
                      const uint32_t dstStrideIn)
        : FixpipeParamsArch3510<format>(nSizeIn, mSizeIn, srcStrideIn, dstStrideIn) {}
};

// ---- the vector unit's params structs: declared so the vector API (ascsim/unmodelled.h) takes what
// programs pass it (brace lists included); ascsim does not model the vector unit, so no struct here is
// reflected for the bridge. Members, defaults and constructor arities are the C++ API's
// (kernel_struct_binary.h, kernel_struct_unary.h, kernel_struct_brcb.h, kernel_struct_data_copy.h,
// kernel_struct_gather.h, kernel_struct_transpose.h).
struct BinaryConfig {
    int8_t scalarTensorIndex = 1;
};
constexpr BinaryConfig DEFAULT_BINARY_CONFIG = {1};
struct BinaryDefaultType {};

struct BinaryRepeatParams {
    BinaryRepeatParams() {}
    BinaryRepeatParams(uint8_t dstBlk, uint8_t src0Blk, uint8_t src1Blk, uint8_t dstRep, uint8_t src0Rep,
                       uint8_t src1Rep)
        : dstBlkStride(dstBlk), src0BlkStride(src0Blk), src1BlkStride(src1Blk), dstRepStride(dstRep),
          src0RepStride(src0Rep), src1RepStride(src1Rep) {}
    uint32_t blockNumber = DEFAULT_BLK_NUM;
    uint8_t dstBlkStride = DEFAULT_BLK_STRIDE;
    uint8_t src0BlkStride = DEFAULT_BLK_STRIDE;
    uint8_t src1BlkStride = DEFAULT_BLK_STRIDE;
    uint8_t dstRepStride = DEFAULT_REPEAT_STRIDE;
    uint8_t src0RepStride = DEFAULT_REPEAT_STRIDE;
    uint8_t src1RepStride = DEFAULT_REPEAT_STRIDE;
    bool repeatStrideMode = false;
    bool strideSizeMode = false;
};

struct UnaryRepeatParams {
    UnaryRepeatParams() {}
    UnaryRepeatParams(uint16_t dstBlk, uint16_t srcBlk, uint8_t dstRep, uint8_t srcRep)
        : dstBlkStride(dstBlk), srcBlkStride(srcBlk), dstRepStride(dstRep), srcRepStride(srcRep) {}
    UnaryRepeatParams(uint16_t dstBlk, uint16_t srcBlk, uint8_t dstRep, uint8_t srcRep, bool half)
        : dstBlkStride(dstBlk), srcBlkStride(srcBlk), dstRepStride(dstRep), srcRepStride(srcRep), halfBlock(half) {}
    uint32_t blockNumber = DEFAULT_BLK_NUM;
    uint16_t dstBlkStride = DEFAULT_BLK_STRIDE;
    uint16_t srcBlkStride = DEFAULT_BLK_STRIDE;
    uint8_t dstRepStride = DEFAULT_REPEAT_STRIDE;
    uint8_t srcRepStride = DEFAULT_REPEAT_STRIDE;
    bool repeatStrideMode = false;
    bool strideSizeMode = false;
    bool halfBlock = false;
};

struct BrcbRepeatParams {
    BrcbRepeatParams() {}
    BrcbRepeatParams(uint16_t dstBlk, uint16_t dstRep) : dstRepStride(dstRep), dstBlkStride(dstBlk) {}
    uint32_t blockNumber = DEFAULT_BLK_NUM;
    uint16_t dstRepStride = DEFAULT_REPEAT_STRIDE;
    uint16_t dstBlkStride = DEFAULT_BLK_STRIDE;
    uint8_t src0BlkStride = DEFAULT_BLK_STRIDE;
    uint8_t src1BlkStride = DEFAULT_BLK_STRIDE;
    uint8_t src0RepStride = DEFAULT_REPEAT_STRIDE;
    uint8_t src1RepStride = DEFAULT_REPEAT_STRIDE;
    bool repeatStrideMode = false;
    bool strideSizeMode = false;
};

struct CopyRepeatParams {
    CopyRepeatParams() {}
    CopyRepeatParams(uint16_t dst, uint16_t src, uint16_t dstRepeat, uint16_t srcRepeat)
        : dstStride(dst), srcStride(src), dstRepeatSize(dstRepeat), srcRepeatSize(srcRepeat) {}
    uint16_t dstStride = DEFAULT_DATA_COPY_STRIDE;
    uint16_t srcStride = DEFAULT_DATA_COPY_STRIDE;
    uint16_t dstRepeatSize = DEFAULT_REPEAT_STRIDE;
    uint16_t srcRepeatSize = DEFAULT_REPEAT_STRIDE;
};

struct GatherRepeatParams {
    GatherRepeatParams() {}
    GatherRepeatParams(uint8_t dstBlk, uint8_t dstRep) : dstRepStride(dstRep), dstBlkStride(dstBlk) {}
    uint32_t blockNumber = DEFAULT_BLK_NUM;
    uint16_t dstRepStride = DEFAULT_REPEAT_STRIDE;
    uint8_t dstBlkStride = DEFAULT_BLK_STRIDE;
    uint8_t src0BlkStride = DEFAULT_BLK_STRIDE;
    uint8_t src1BlkStride = DEFAULT_BLK_STRIDE;
    uint8_t src0RepStride = DEFAULT_REPEAT_STRIDE;
    uint8_t src1RepStride = DEFAULT_REPEAT_STRIDE;
    bool repeatStrideMode = false;
    bool strideSizeMode = false;
};

struct GatherMaskParams {
    GatherMaskParams() {}
    GatherMaskParams(uint8_t src0Blk, uint16_t repeats, uint16_t src0Rep, uint8_t src1Rep)
        : src0BlockStride(src0Blk), repeatTimes(repeats), src0RepeatStride(src0Rep), src1RepeatStride(src1Rep) {}
    uint8_t src0BlockStride = DEFAULT_BLK_STRIDE;
    uint16_t repeatTimes = 0;
    uint16_t src0RepeatStride = DEFAULT_REPEAT_STRIDE;
    uint8_t src1RepeatStride = DEFAULT_REPEAT_STRIDE;
};

struct TransDataTo5HDParams {
    constexpr TransDataTo5HDParams() = default;
    constexpr TransDataTo5HDParams(bool dstHigh, bool srcHigh, uint8_t repeats, uint16_t dstRep, uint16_t srcRep)
        : dstHighHalf(dstHigh), srcHighHalf(srcHigh), repeatTimes(repeats), dstRepStride(dstRep),
          srcRepStride(srcRep) {}
    bool dstHighHalf = false;
    bool srcHighHalf = false;
    uint8_t repeatTimes = 1;
    uint16_t dstRepStride = 0;
    uint16_t srcRepStride = 0;
};

struct TransposeParamsExt {
    constexpr TransposeParamsExt() = default;
    constexpr TransposeParamsExt(uint16_t n, uint16_t c, uint16_t h, uint16_t w, TransposeType type)
        : nSize(n), cSize(c), hSize(h), wSize(w), transposeType(type) {}
    uint16_t nSize = 0;
    uint16_t cSize = 0;
    uint16_t hSize = 0;
    uint16_t wSize = 0;
    TransposeType transposeType = TransposeType::TRANSPOSE_ND2ND_B16;
};

// The vector unit's per-op configs (reg_compute/kernel_reg_compute_utils.h): template arguments of Exp, Ln,
// Div, Sqrt, ... on 950.
#define ASCSIM_ALGO_CONFIG(NAME, CONST, ...)            \
    enum class NAME##Algo { INTRINSIC = 0, __VA_ARGS__ }; \
    struct NAME##Config {                                 \
        NAME##Algo algo = NAME##Algo::INTRINSIC;          \
    };                                                    \
    constexpr NAME##Config CONST = {NAME##Algo::INTRINSIC};
ASCSIM_ALGO_CONFIG(Exp, DEFAULT_EXP_CONFIG, PRECISION_1ULP_FTZ_TRUE, PRECISION_1ULP_FTZ_FALSE)
ASCSIM_ALGO_CONFIG(Ln, DEFAULT_LN_CONFIG, PRECISION_1ULP_FTZ_TRUE, PRECISION_1ULP_FTZ_FALSE)
ASCSIM_ALGO_CONFIG(Reciprocal, DEFAULT_RECIPROCAL_CONFIG, PRECISION_1ULP_FTZ_TRUE, PRECISION_1ULP_FTZ_FALSE)
ASCSIM_ALGO_CONFIG(Div, DEFAULT_DIV_CONFIG, DIFF_COMPENSATION, PRECISION_1ULP_FTZ_TRUE, PRECISION_0ULP_FTZ_TRUE,
                   PRECISION_0ULP_FTZ_FALSE, PRECISION_1ULP_FTZ_FALSE)
ASCSIM_ALGO_CONFIG(Sqrt, DEFAULT_SQRT_CONFIG, FAST_INVERSE, PRECISION_1ULP_FTZ_TRUE, PRECISION_0ULP_FTZ_FALSE,
                   PRECISION_1ULP_FTZ_FALSE)
ASCSIM_ALGO_CONFIG(Rsqrt, DEFAULT_RSQRT_CONFIG, FAST_INVERSE, PRECISION_1ULP_FTZ_TRUE, PRECISION_0ULP_FTZ_FALSE,
                   PRECISION_1ULP_FTZ_FALSE)
#undef ASCSIM_ALGO_CONFIG

}  // namespace AscendC

// The bridge sees each struct with the engine's field order (ascsim.params).
ASCSIM_REFLECT(AscendC::LoadData2DParams, startIndex, repeatTimes, srcStride, sid, dstGap, ifTranspose, addrMode)
ASCSIM_REFLECT(AscendC::LoadData2DParamsV2, mStartPosition, kStartPosition, mStep, kStep, srcStride, dstStride,
               ifTranspose, sid)
ASCSIM_REFLECT(AscendC::LoadData2dTransposeParams, startIndex, repeatTimes, srcStride, dstGap, dstFracGap, addrMode)
ASCSIM_REFLECT(AscendC::LoadData2dTransposeParamsV2, startIndex, repeatTimes, srcStride, dstGap, dstFracGap,
               srcFracGap, addrMode)
ASCSIM_REFLECT(AscendC::LoadData2DMxParams, xStartPosition, yStartPosition, xStep, yStep, srcStride, dstStride)
ASCSIM_REFLECT_T((template <class T>), (AscendC::LoadData3DParamsV1<T>), "LoadData3DParamsV1", padList, l1H, l1W,
                 c1Index, fetchFilterW, fetchFilterH, leftTopW, leftTopH, strideW, strideH, filterW, filterH,
                 dilationFilterW, dilationFilterH, jumpStride, repeatMode, repeatTime, cSize, padValue)
ASCSIM_REFLECT_T((template <class T>), (AscendC::LoadData3DParamsV2<T>), "LoadData3DParamsV2", padList, l1H, l1W,
                 channelSize, kExtension, mExtension, kStartPt, mStartPt, strideW, strideH, filterW, filterH,
                 dilationFilterW, dilationFilterH, enTranspose, enSmallK, padValue, filterSizeW, filterSizeH,
                 fMatrixCtrl)
ASCSIM_REFLECT(AscendC::LoadData3DParamsV2Pro, channelSize, enTranspose, enSmallK, filterSizeW, filterSizeH,
               fMatrixCtrl, extConfig, filterConfig)
ASCSIM_REFLECT(AscendC::IsResetLoad3dConfig, isSetFMatrix, isSetPadding)
#if defined(__NPU_ARCH__) && (__NPU_ARCH__ == 3102 || __NPU_ARCH__ == 5102)
ASCSIM_REFLECT(AscendC::LoadDataRepeatParam, repeatStride, repeatTime, repeatMode, dstStride)
#else
ASCSIM_REFLECT(AscendC::LoadDataRepeatParam, repeatStride, repeatTime, repeatMode)
#endif
ASCSIM_REFLECT(AscendC::LoadDataRepeatParamWithStride, repeatStride, repeatTime, repeatMode, dstStride)
ASCSIM_REFLECT(AscendC::Load3DBitModeParam, config0, config1)
ASCSIM_REFLECT(AscendC::Load2DBitModeParam, config0, config1, ifTranspose)
ASCSIM_REFLECT(AscendC::SetFMatrixBitModeParams, config0)
#if ASCSIM_ARCH_3510
ASCSIM_REFLECT(AscendC::MmadParams, m, n, k, isBias, fmOffset, enSsparse, enWinogradA, enWinogradB, unitFlag,
               kDirectionAlign, cmatrixSource, cmatrixInitVal, disableGemv)
#else
ASCSIM_REFLECT(AscendC::MmadParams, m, n, k, isBias, fmOffset, enSsparse, enWinogradA, enWinogradB, unitFlag,
               kDirectionAlign, cmatrixSource, cmatrixInitVal)
#endif
ASCSIM_REFLECT_T((template <class T>), (AscendC::InitConstValueParams<T>), "InitConstValueParams", repeatTimes,
                 blockNum, dstGap, initValue)
ASCSIM_REFLECT(AscendC::DataCopyParams, blockCount, blockLen, srcStride, dstStride)
ASCSIM_REFLECT(AscendC::Nd2NzParams, ndNum, nValue, dValue, srcNdMatrixStride, srcDValue, dstNzC0Stride,
               dstNzNStride, dstNzMatrixStride)
ASCSIM_REFLECT(AscendC::Dn2NzParams, dnNum, nValue, dValue, srcDnMatrixStride, srcDValue, dstNzC0Stride,
               dstNzNStride, dstNzMatrixStride)
ASCSIM_REFLECT(AscendC::DataCopyCO12DstParams, nSize, mSize, dstStride, srcStride, quantPre, reluPre, channelSplit,
               nz2ndEn, sid, unitFlag, clipReluPre, eltWiseOp)
ASCSIM_REFLECT(AscendC::DataCopyExtParams, blockCount, blockLen, srcStride, dstStride, rsv)
ASCSIM_REFLECT_T((template <class T>), (AscendC::DataCopyPadExtParams<T>), "DataCopyPadExtParams", isPad,
                 leftPadding, rightPadding, paddingValue)
ASCSIM_REFLECT(AscendC::FixpipeConfig, format, isToUB)
ASCSIM_REFLECT(AscendC::FixpipeParamsV220, nSize, mSize, srcStride, dstStride, reluEn, quantPre, deqScalar, ndNum,
               srcNdStride, dstNdStride, unitFlag, isChannelSplit)
#if ASCSIM_ARCH_3510
ASCSIM_REFLECT(AscendC::Nz2NdParams, ndNum, srcNdStride, dstNdStride)
#else
ASCSIM_REFLECT(AscendC::Nz2NdParams, nz2ndEn, ndNum, srcNdStride, dstNdStride, originalNSize)
#endif
ASCSIM_REFLECT(AscendC::Nz2DnParams, dnNum, srcNzMatrixStride, dstDnMatrixStride, srcNzC0Stride)
ASCSIM_REFLECT_T((template <AscendC::CO2Layout F>), (AscendC::FixpipeParamsArch3510<F>), "FixpipeParamsArch3510",
                 nSize, mSize, srcStride, dstStride, quantPre, deqScalar, reluEn, unitFlag, params, dualDstCtl,
                 subBlockId, isChannelSplit, preReluMode, preClipReluMode, reluScalar, vectorRelu)
ASCSIM_REFLECT_T((template <AscendC::CO2Layout F>), (AscendC::FixpipeParamsC310<F>), "FixpipeParamsArch3510",
                 nSize, mSize, srcStride, dstStride, quantPre, deqScalar, reluEn, unitFlag, params, dualDstCtl,
                 subBlockId, isChannelSplit, preReluMode, preClipReluMode, reluScalar, vectorRelu)
ASCSIM_ENUM_NAMES(AscendC::ReluMode, "ReluMode", NO_RELU, NORMAL_RELU, SCALAR_RELU, VECTOR_RELU)
ASCSIM_ENUM_NAMES(AscendC::ClipReluMode, "ClipReluMode", NOCLIP_RELU, CLIP_RELU)
