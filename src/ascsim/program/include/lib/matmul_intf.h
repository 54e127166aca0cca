// lib/matmul_intf.h, as ascsim provides it: the high-level Matmul API (AscendC::Matmul and its types) is
// declared, not modelled. A kernel may declare Matmul objects, MatmulType / MatmulConfig / TCubeTiling
// values and name every method; calling a method (or REGIST_MATMUL_OBJ) stops the run with
// NotImplementedFeature naming it and the call site. Written for ascsim from the C++ API's declarations
// (include/adv_api/matmul/matmul_intf.h, matmul.h, matmul_config.h, tiling.h, matmul_tilingdata.h,
// impl/adv_api/detail/matmul/utils/matmul_type_def.h: names, template parameters, members); no code from
// them. Kept out of kernel_operator.h: only programs that include it pay for it.
#pragma once

#include "kernel_operator.h"

// The kernel-side tiling of one matmul (matmul_tilingdata.h: the fields in order, all int32_t).
struct TCubeTiling {
    int32_t usedCoreNum = 0, M = 0, N = 0, Ka = 0, Kb = 0, singleCoreM = 0, singleCoreN = 0, singleCoreK = 0;
    int32_t baseM = 0, baseN = 0, baseK = 0, depthA1 = 0, depthB1 = 0, stepM = 0, stepN = 0, isBias = 0;
    int32_t transLength = 0, iterateOrder = 0, shareMode = 0, shareL1Size = 0, shareL0CSize = 0, shareUbSize = 0;
    int32_t batchM = 0, batchN = 0, singleBatchM = 0, singleBatchN = 0, stepKa = 0, stepKb = 0;
    int32_t depthAL1CacheUB = 0, depthBL1CacheUB = 0, dbL0A = 0, dbL0B = 0, dbL0C = 0;
    int32_t ALayoutInfoB = 0, ALayoutInfoS = 0, ALayoutInfoN = 0, ALayoutInfoG = 0, ALayoutInfoD = 0;
    int32_t BLayoutInfoB = 0, BLayoutInfoS = 0, BLayoutInfoN = 0, BLayoutInfoG = 0, BLayoutInfoD = 0;
    int32_t CLayoutInfoB = 0, CLayoutInfoS1 = 0, CLayoutInfoN = 0, CLayoutInfoG = 0, CLayoutInfoS2 = 0;
    int32_t BatchNum = 0, mxTypePara = 0;
};

namespace AscendC {
namespace tiling {
using ::TCubeTiling;
}  // namespace tiling

enum class CubeFormat { ND = 0, NZ, ZN, ZZ, NN, ND_ALIGN, SCALAR, VECTOR, ROW_MAJOR = ND, COLUMN_MAJOR = 8 };
enum class LayoutMode { NONE = 0, BSNGD, SBNGD, BNGS1S2, NORMAL };
enum class BatchMode { NONE = 0, BATCH_LESS_THAN_L1, BATCH_LARGE_THAN_L1, SINGLE_LARGE_THAN_L1 };
enum BatchOutMode { SINGLE_BATCH = 0, MULTI_BATCH, DYNAMIC };
enum class IterateOrder { ORDER_M = 0, ORDER_N, UNDEF };
enum class ScheduleType { INNER_PRODUCT = 0, OUTER_PRODUCT };
enum IterateMode : uint8_t {
    ITERATE_MODE_NORMAL = 0b00000001,
    ITERATE_MODE_ALL = 0b00000010,
    ITERATE_MODE_BATCH = 0b00000100,
    ITERATE_MODE_N_BATCH = 0b00001000,
    ITERATE_MODE_DEFAULT = 0b11111111,
};
enum class DecompressionMode {
    DECOMP_NONE = 0b0000,
    DECOMP_2bitTo8bit = 0b0001,
    DECOMP_3bitTo8bit = 0b0010,
    DECOMP_4bitTo8bit = 0b0011,
    DECOMP_16bitTo64bit = 0b100,
    DECOMP_1bitTo8bit = 0b0101,
    DECOMP_1bitTo4bit = 0b0110,
    DECOMP_2bitTo4bit = 0b0111,
    DECOMP_3bitTo4bit = 0b1000,
};
constexpr uint32_t SHARED_CO1_BUFFER_SIZE = 64 * 1024;

// A matmul's compile-time configuration (matmul_config.h: the members and their defaults).
struct MatmulConfig {
    bool doNorm = false;
    bool doBasicBlock = false;
    bool doMultiDataLoad = false;
    uint32_t basicM = 0;
    uint32_t basicN = 0;
    uint32_t basicK = 0;
    bool intrinsicsCheck = false;
    bool isNBatch = false;
    bool enVecND2NZ = false;
    bool doSpecialBasicBlock = false;
    uint32_t doMTE2Preload = 0;
    uint32_t singleCoreM = 0;
    uint32_t singleCoreN = 0;
    uint32_t singleCoreK = 0;
    uint32_t stepM = 0;
    uint32_t stepN = 0;
    uint32_t baseMN = 0;
    uint32_t singleCoreMN = 0;
    bool enUnitFlag = true;
    bool isPerTensor = false;
    bool hasAntiQuantOffset = false;
    bool doIBShareNorm = false;
    bool doSpecialMDL = false;
    bool enableInit = true;
    BatchMode batchMode = BatchMode::NONE;
    bool enableEnd = true;
    bool enableGetTensorC = true;
    bool enableSetOrgShape = true;
    bool enableSetBias = true;
    bool enableSetTail = true;
    bool enableQuantVector = true;
    bool enableSetDefineData = true;
    uint8_t iterateMode = IterateMode::ITERATE_MODE_DEFAULT;
    bool enableReuse = true;
    bool enableUBReuse = false;
    bool enableL1CacheUB = false;
    bool intraBlockPartSum = false;
    IterateOrder iterateOrder{IterateOrder::UNDEF};
    ScheduleType scheduleType = ScheduleType::INNER_PRODUCT;
    bool enableDoubleCache = false;
    bool isBiasBatch = true;
    bool enableStaticPadZeros = false;
    bool isPartialOutput = false;
    bool enableMixDualMaster = false;
    bool isA2B2Shared = false;
    bool isEnableChannelSplit = false;
    bool enableKdimReorderLoad = false;
    bool isCO1Shared = false;
    uint32_t sharedCO1BufferSize = SHARED_CO1_BUFFER_SIZE;
    BatchOutMode bmmOutMode = BatchOutMode::SINGLE_BATCH;
    bool enableL1BankConflictOptimise = false;
    bool enableRelu = false;
    DecompressionMode decompMode = DecompressionMode::DECOMP_NONE;
};

// The configuration makers (tiling.h). Their many defaulted arguments are taken and ignored here: a
// configuration only matters to a Matmul, whose calls stop the run.
namespace ascsim_detail {
constexpr MatmulConfig matmul_config(bool norm, bool mdl, bool basic, bool ibshare, bool specialMdl) {
    MatmulConfig c{};
    c.doNorm = norm;
    c.doMultiDataLoad = mdl;
    c.doBasicBlock = basic;
    c.doIBShareNorm = ibshare;
    c.doSpecialMDL = specialMdl;
    return c;
}
}  // namespace ascsim_detail
template <class... A>
constexpr MatmulConfig GetNormalConfig(A...) {
    return ascsim_detail::matmul_config(true, false, false, false, false);
}
template <class... A>
constexpr MatmulConfig GetMDLConfig(A...) {
    return ascsim_detail::matmul_config(false, true, false, false, false);
}
template <class... A>
constexpr MatmulConfig GetSpecialMDLConfig(A...) {
    return ascsim_detail::matmul_config(false, false, false, false, true);
}
template <class... A>
constexpr MatmulConfig GetBasicConfig(A...) {
    return ascsim_detail::matmul_config(false, false, true, false, false);
}
template <class... A>
constexpr MatmulConfig GetIBShareNormConfig(A...) {
    return ascsim_detail::matmul_config(false, false, false, true, false);
}
constexpr MatmulConfig CFG_NORM = GetNormalConfig();
constexpr MatmulConfig CFG_MDL = GetMDLConfig();
constexpr MatmulConfig CFG_IBSHARE_NORM = GetIBShareNormConfig();

struct MatrixOffset {
    int32_t offset;
    int32_t row;
    int32_t col;
    int32_t height;
    int32_t width;
};

// One operand of a matmul: where it is, its format, its element type (matmul_type_def.h).
template <TPosition POSITION, CubeFormat FORMAT, class TYPE, bool ISTRANS = false,
          LayoutMode LAYOUT = LayoutMode::NONE, bool IBSHARE = false, TPosition SRCPOS = TPosition::GM>
struct MatmulType {
    constexpr static TPosition pos = POSITION;
    constexpr static CubeFormat format = FORMAT;
    using T = TYPE;
    constexpr static bool isTrans = ISTRANS;
    constexpr static LayoutMode layout = LAYOUT;
    constexpr static bool ibShare = IBSHARE;
    constexpr static TPosition srcPos = SRCPOS;
};

template <auto DataCopyOut = nullptr, auto CopyA1 = nullptr, auto CopyB1 = nullptr>
struct MatmulCallBackFunc {};
template <const auto& MM_CFG, class IMPL, class A_TYPE, class B_TYPE, class C_TYPE, class BIAS_TYPE>
struct MatmulPolicy {};

#define ASCSIM_MM_STOP(NAME) ::ascsim::rt::not_modelled("Matmul::" NAME, ascsim_site)

// The matmul object: constructing and holding one is free; every method stops the run.
template <class A_TYPE, class B_TYPE, class C_TYPE, class BIAS_TYPE = C_TYPE, const auto& MM_CFG = CFG_NORM,
          class MM_CB = MatmulCallBackFunc<nullptr, nullptr, nullptr>, class POLICY = void>
class Matmul {
public:
    using AType = A_TYPE;
    using BType = B_TYPE;
    using CType = C_TYPE;
    using BiasType = BIAS_TYPE;
    using SrcT = typename A_TYPE::T;
    using SrcAT = typename A_TYPE::T;
    using SrcBT = typename B_TYPE::T;
    using DstT = typename C_TYPE::T;
    using BiasT = typename BIAS_TYPE::T;
    using CallBack = MM_CB;

    __aicore__ inline Matmul() {}
    __aicore__ inline void Init(const TCubeTiling* cubeTiling, TPipe* tpipe = nullptr, ASCSIM_SITE) {
        ASCSIM_MM_STOP("Init");
    }
    __aicore__ inline void SetOrgShape(int orgM, int orgN, int orgK, ASCSIM_SITE) { ASCSIM_MM_STOP("SetOrgShape"); }
    __aicore__ inline void SetOrgShape(int orgM, int orgN, int orgKa, int orgKb, int orgKc = 0, ASCSIM_SITE) {
        ASCSIM_MM_STOP("SetOrgShape");
    }
    __aicore__ inline void SetSingleShape(int singleM, int singleN, int singleK, ASCSIM_SITE) {
        ASCSIM_MM_STOP("SetSingleShape");
    }
    __aicore__ inline void SetTail(int tailM = -1, int tailN = -1, int tailK = -1, ASCSIM_SITE) {
        ASCSIM_MM_STOP("SetTail");
    }
    __aicore__ inline void SetTensorA(const GlobalTensor<SrcAT>& gm, bool isTransposeA = false, ASCSIM_SITE) {
        ASCSIM_MM_STOP("SetTensorA");
    }
    __aicore__ inline void SetTensorA(const LocalTensor<SrcAT>& leftMatrix, bool isTransposeA = false, ASCSIM_SITE) {
        ASCSIM_MM_STOP("SetTensorA");
    }
    __aicore__ inline void SetTensorA(SrcAT aScalar, ASCSIM_SITE) { ASCSIM_MM_STOP("SetTensorA"); }
    __aicore__ inline void SetTensorB(const GlobalTensor<SrcBT>& gm, bool isTransposeB = false, ASCSIM_SITE) {
        ASCSIM_MM_STOP("SetTensorB");
    }
    __aicore__ inline void SetTensorB(const LocalTensor<SrcBT>& rightMatrix, bool isTransposeB = false,
                                      ASCSIM_SITE) {
        ASCSIM_MM_STOP("SetTensorB");
    }
    __aicore__ inline void SetTensorB(SrcBT bScalar, ASCSIM_SITE) { ASCSIM_MM_STOP("SetTensorB"); }
    __aicore__ inline void SetBias(const GlobalTensor<BiasT>& biasGlobal, ASCSIM_SITE) { ASCSIM_MM_STOP("SetBias"); }
    __aicore__ inline void SetBias(const LocalTensor<BiasT>& inputBias, ASCSIM_SITE) { ASCSIM_MM_STOP("SetBias"); }
    __aicore__ inline void DisableBias(ASCSIM_SITE) { ASCSIM_MM_STOP("DisableBias"); }
    __aicore__ inline void ClearBias(ASCSIM_SITE) { ASCSIM_MM_STOP("ClearBias"); }
    __aicore__ inline void SetBatchNum(int32_t batchA, int32_t batchB, ASCSIM_SITE) { ASCSIM_MM_STOP("SetBatchNum"); }
    __aicore__ inline void SetQuantScalar(const uint64_t quantScalar, ASCSIM_SITE) {
        ASCSIM_MM_STOP("SetQuantScalar");
    }
    __aicore__ inline void SetQuantVector(const GlobalTensor<uint64_t>& quantTensor, ASCSIM_SITE) {
        ASCSIM_MM_STOP("SetQuantVector");
    }
    __aicore__ inline void SetUserDefInfo(const uint64_t tilingPtr, ASCSIM_SITE) { ASCSIM_MM_STOP("SetUserDefInfo"); }
    template <class T>
    __aicore__ inline void SetSelfDefineData(T dataPtr, ASCSIM_SITE) {
        ASCSIM_MM_STOP("SetSelfDefineData");
    }
    template <bool sync = true>
    __aicore__ inline bool Iterate(bool enPartialSum = false, ASCSIM_SITE) {
        ASCSIM_MM_STOP("Iterate");
    }
    template <bool sync = true, class T>
    __aicore__ inline bool Iterate(bool enPartialSum, const LocalTensor<T>& localCmatrix, ASCSIM_SITE) {
        ASCSIM_MM_STOP("Iterate");
    }
    template <bool sync = true>
    __aicore__ inline void IterateAll(const GlobalTensor<DstT>& gm, uint8_t enAtomic = 0, bool enSequentialWrite = false,
                                      bool waitIterateAll = false, bool fakeMsg = false, ASCSIM_SITE) {
        ASCSIM_MM_STOP("IterateAll");
    }
    template <bool sync = true>
    __aicore__ inline void IterateAll(const LocalTensor<DstT>& ubCmatrix, uint8_t enAtomic = 0, ASCSIM_SITE) {
        ASCSIM_MM_STOP("IterateAll");
    }
    template <bool sync = true>
    __aicore__ inline void GetTensorC(const LocalTensor<DstT>& co2Local, uint8_t enAtomic = 0,
                                      bool enSequentialWrite = false, ASCSIM_SITE) {
        ASCSIM_MM_STOP("GetTensorC");
    }
    template <bool sync = true>
    __aicore__ inline void GetTensorC(const GlobalTensor<DstT>& gm, uint8_t enAtomic = 0,
                                      bool enSequentialWrite = false, ASCSIM_SITE) {
        ASCSIM_MM_STOP("GetTensorC");
    }
    template <bool sync = true>
    __aicore__ inline void GetTensorC(const GlobalTensor<DstT>& gm, const LocalTensor<DstT>& co2Local,
                                      uint8_t enAtomic = 0, bool enSequentialWrite = false, ASCSIM_SITE) {
        ASCSIM_MM_STOP("GetTensorC");
    }
    __aicore__ inline void End(ASCSIM_SITE) { ASCSIM_MM_STOP("End"); }
    __aicore__ inline void SetHF32(bool enableHF32 = false, int32_t transMode = 0, ASCSIM_SITE) {
        ASCSIM_MM_STOP("SetHF32");
    }
    __aicore__ inline void SetSubBlockIdx(uint8_t subBlockIdx, ASCSIM_SITE) { ASCSIM_MM_STOP("SetSubBlockIdx"); }
    template <class T>
    __aicore__ inline void SetWorkspace(__gm__ const T* addr, int size, ASCSIM_SITE) {
        ASCSIM_MM_STOP("SetWorkspace");
    }
    template <class T>
    __aicore__ inline void SetWorkspace(GlobalTensor<T>& addr, ASCSIM_SITE) {
        ASCSIM_MM_STOP("SetWorkspace");
    }
    __aicore__ inline void SetLocalWorkspace(const LocalTensor<uint8_t>& tmpBuffer, ASCSIM_SITE) {
        ASCSIM_MM_STOP("SetLocalWorkspace");
    }
};
#undef ASCSIM_MM_STOP

namespace ascsim_detail {
[[noreturn]] inline void regist_matmul_obj(::ascsim::rt::Site site) {
    ::ascsim::rt::not_modelled("REGIST_MATMUL_OBJ", site);
}
}  // namespace ascsim_detail
}  // namespace AscendC

// REGIST_MATMUL_OBJ(pipe, workspace, matmul, &tiling, ...): initialises the matmuls (and, on a mix kernel,
// their cube-side server): not modelled.
#define REGIST_MATMUL_OBJ(tpipe, workspace, ...) \
    ::AscendC::ascsim_detail::regist_matmul_obj(::ascsim::rt::Site{__FILE__, __LINE__})
#define REGIST_MATMUL_OBJ_STATIC REGIST_MATMUL_OBJ
#define REGIST_CUBE_OBJ REGIST_MATMUL_OBJ
