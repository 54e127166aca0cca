// The enums and constants of the cube API, in the C++ API's declaration order (docs/cpp.md "Headers"),
// each named for the bridge (the engine takes enum values by name).
#pragma once

#include <cstdint>

#include "ascsim/encode.h"

// The arch families whose C++ API differs (the headers' own #if tests use these).
#if defined(__NPU_ARCH__) && (__NPU_ARCH__ == 3510 || __NPU_ARCH__ == 5102)
#define ASCSIM_ARCH_3510 1
#else
#define ASCSIM_ARCH_3510 0
#endif
#if defined(__NPU_ARCH__) && __NPU_ARCH__ == 2201
#define ASCSIM_ARCH_2201 1
#else
#define ASCSIM_ARCH_2201 0
#endif

// Compiler (bisheng) builtin enums, global in Ascend C.
enum pipe_t : uint8_t {
    PIPE_S = 0,
    PIPE_V,
    PIPE_M,
    PIPE_MTE1,
    PIPE_MTE2,
    PIPE_MTE3,
    PIPE_ALL,
    PIPE_MTE4,
    PIPE_MTE5,
    PIPE_V2,
    PIPE_FIX,
    PIPE_V_CUBE,
};
enum event_t : uint8_t { EVENT_ID0 = 0, EVENT_ID1, EVENT_ID2, EVENT_ID3, EVENT_ID4, EVENT_ID5, EVENT_ID6, EVENT_ID7 };
// QuantMode_t in the doc's order (Fixpipe（L0C到GM数据搬运）.md 表3); unscoped, as the docs show it.
enum QuantMode_t : uint8_t {
    NoQuant = 0,
    F322F16,
    F322BF16,
    DEQF16,
    VDEQF16,
    QF322B8_PRE,
    VQF322B8_PRE,
    REQ8,
    VREQ8,
    QF322FP8_PRE,
    VQF322FP8_PRE,
    QF322HIF8_PRE,
    VQF322HIF8_PRE,
    QF322HIF8_PRE_HYBRID,
    VQF322HIF8_PRE_HYBRID,
    QS322BF16_PRE,
    VQS322BF16_PRE,
    QF322F16_PRE,
    VQF322F16_PRE,
    QF322BF16_PRE,
    VQF322BF16_PRE,
    QF322F32_PRE,
    VQF322F32_PRE,
};
ASCSIM_ENUM_NAMES(pipe_t, "pipe_t", PIPE_S, PIPE_V, PIPE_M, PIPE_MTE1, PIPE_MTE2, PIPE_MTE3, PIPE_ALL, PIPE_MTE4,
                  PIPE_MTE5, PIPE_V2, PIPE_FIX, PIPE_V_CUBE)
ASCSIM_ENUM_NAMES(QuantMode_t, "QuantMode_t", NoQuant, F322F16, F322BF16, DEQF16, VDEQF16, QF322B8_PRE,
                  VQF322B8_PRE, REQ8, VREQ8, QF322FP8_PRE, VQF322FP8_PRE, QF322HIF8_PRE, VQF322HIF8_PRE,
                  QF322HIF8_PRE_HYBRID, VQF322HIF8_PRE_HYBRID, QS322BF16_PRE, VQS322BF16_PRE, QF322F16_PRE,
                  VQF322F16_PRE, QF322BF16_PRE, VQF322BF16_PRE, QF322F32_PRE, VQF322F32_PRE)

namespace AscendC {
using ::QuantMode_t;  // programs spell it both ways (AscendC::QuantMode_t::F322F16 and QuantMode_t::F322F16)
constexpr int32_t MIX = 0;
constexpr int32_t AIC = 1;
constexpr int32_t AIV = 2;

enum class TPosition : uint8_t {
    GM = 0,
    A1,
    A2,
    B1,
    B2,
    C1,
    C2,
    CO1,
    CO2,
    VECIN,
    VECOUT,
    VECCALC,
    LCM = VECCALC,
    SPM,
    SHM = SPM,
    TSCM,
    C2PIPE2GM,
    C2PIPE2LOCAL,
    MAX,
};
using QuePosition = TPosition;

enum class HardEvent : uint8_t {
    MTE2_MTE1 = 0,
    MTE1_MTE2,
    MTE1_M,
    M_MTE1,
    MTE2_V,
    V_MTE2,
    MTE3_V,
    V_MTE3,
    M_V,
    V_M,
    V_V,
    MTE3_MTE1,
    MTE1_MTE3,
    MTE1_V,
    MTE2_M,
    M_MTE2,
    V_MTE1,
    M_FIX,
    FIX_M,
    MTE3_MTE2,
    MTE2_MTE3,
    S_V,
    V_S,
    S_MTE2,
    MTE2_S,
    S_MTE3,
    MTE3_S,
    MTE2_FIX,
    FIX_MTE2,
    FIX_S,
    M_S,
    FIX_MTE3,
    MTE1_FIX,
    FIX_MTE1,
    FIX_FIX,
    MAX,
};
using TEventID = int8_t;
constexpr TEventID INVALID_TEVENTID = -1;

enum class FmatrixMode : uint8_t { FMATRIX_LEFT = 0, FMATRIX_RIGHT = 1 };
enum class CO2Layout : uint8_t { NZ = 0, ROW_MAJOR, COLUMN_MAJOR };
enum class PaddingMode : uint8_t { Normal = 0, Compact };
enum class ReluMode : uint8_t { NO_RELU = 0, NORMAL_RELU, SCALAR_RELU, VECTOR_RELU };
enum class ClipReluMode : uint8_t { NOCLIP_RELU = 0, CLIP_RELU };
enum class MaskMode : uint8_t { NORMAL = 0, COUNTER };
enum class RoundMode : uint8_t {
    CAST_NONE = 0,
    CAST_RINT,
    CAST_FLOOR,
    CAST_CEIL,
    CAST_ROUND,
    CAST_TRUNC,
    CAST_ODD,
    CAST_HYBRID,
    CAST_EVEN,
    CAST_ZERO,
    UNKNOWN = 0xFF,
};
enum class CacheMode : uint8_t { CACHE_MODE_DISABLE = 0, CACHE_MODE_NORMAL = 1, CACHE_MODE_LAST = 2, CACHE_MODE_PERSISTENT = 4 };
enum class CacheRwMode : uint8_t { READ = 1, WRITE = 2, RW = 3 };
enum class HF32Mode { ENABLE, DISABLE };  // (the C++ API's order)
enum class HF32TransMode { NEAREST_ZERO, NEAREST_EVEN };
enum class AtomicDtype : uint8_t { ATOMIC_NONE = 0, ATOMIC_F32, ATOMIC_F16, ATOMIC_S16, ATOMIC_S32, ATOMIC_S8, ATOMIC_BF16 };
enum class AtomicOp : uint8_t { ATOMIC_SUM = 0 };
enum class MemDsbT : uint8_t { ALL = 0, DDR, UB, SEQ };

constexpr int32_t ONE_BLK_SIZE = 32;
constexpr int32_t ONE_BLOCK_SIZE = 32;
constexpr int32_t BLOCK_CUBE = 16;
constexpr int32_t CUBE_MAX_SIZE = 256;
constexpr int32_t ONE_REPEAT_BYTE_SIZE = 256;
constexpr int32_t VECTOR_REG_WIDTH = 256;
constexpr int32_t DEFAULT_REPEAT_STRIDE = 8;
constexpr int32_t DEFAULT_BLK_STRIDE = 1;
constexpr int32_t DEFAULT_DATA_COPY_NBURST = 1;
constexpr int32_t DEFAULT_DATA_COPY_STRIDE = 0;
constexpr int32_t PAD_SIZE = 4;
constexpr int32_t QUE_MAX_EVENT = 8;
constexpr uint64_t MASK_PLACEHOLDER = 0;
constexpr uint32_t TOTAL_L0A_SIZE = 64 * 1024;
constexpr uint32_t TOTAL_L0B_SIZE = 64 * 1024;

// ---- the vector unit's enums and constants: declared for the vector API (ascsim/unmodelled.h), which
// ascsim does not model; the C++ API's names, values and order (kernel_utils_mode.h, kernel_reg.h,
// kernel_struct_gather.h, kernel_struct_transpose.h, utils/common_types.h).
constexpr int32_t DEFAULT_BLK_NUM = 8;
constexpr int32_t NCHW_CONV_ADDR_LIST_SIZE = 16;
enum class CMPMODE : uint8_t { LT = 0, GT, EQ, LE, GE, NE };
enum class SELMODE : uint8_t { VSEL_CMPMASK_SPR = 0, VSEL_TENSOR_SCALAR_MODE, VSEL_TENSOR_TENSOR_MODE };
enum class DeqScale : uint8_t { DEQ_NONE = 0, DEQ, VDEQ, DEQ8, VDEQ8, DEQ16, VDEQ16 };
enum class ReduceMode : uint8_t { REDUCE_MAX = 0, REDUCE_MIN, REDUCE_SUM };
enum class ReduceOrder : uint8_t { ORDER_VALUE_INDEX = 0, ORDER_INDEX_VALUE, ORDER_ONLY_VALUE, ORDER_ONLY_INDEX };
enum class ReduceType { NONE = -1, SUM = 0, MAX, MIN };
enum class CacheLine : uint64_t { SINGLE_CACHE_LINE = 0, ENTIRE_DATA_CACHE };
enum class DcciDst : uint64_t { CACHELINE_ALL = 0, CACHELINE_UB, CACHELINE_OUT, CACHELINE_ATOMIC };
enum class GatherMaskMode : uint8_t { VERSION_V1 = 0, VERSION_V2 = 1 };
#if ASCSIM_ARCH_2201
constexpr GatherMaskMode defaultGatherMaskMode = GatherMaskMode::VERSION_V2;
#else
constexpr GatherMaskMode defaultGatherMaskMode = GatherMaskMode::VERSION_V1;
#endif
constexpr GatherMaskMode defaultGahterMaskMode = defaultGatherMaskMode;  // (the C++ API's misspelling too)
enum class TransposeType : uint8_t {
    TRANSPOSE_TYPE_NONE,
    TRANSPOSE_NZ2ND_0213,
    TRANSPOSE_NZ2NZ_0213,
    TRANSPOSE_NZ2NZ_012_WITH_N,
    TRANSPOSE_NZ2ND_012_WITH_N,
    TRANSPOSE_NZ2ND_012_WITHOUT_N,
    TRANSPOSE_NZ2NZ_012_WITHOUT_N,
    TRANSPOSE_ND2ND_ONLY,
    TRANSPOSE_ND_UB_GM,
    TRANSPOSE_GRAD_ND_UB_GM,
    TRANSPOSE_ND2ND_B16,
    TRANSPOSE_NCHW2NHWC,
    TRANSPOSE_NHWC2NCHW,
#if ASCSIM_ARCH_3510
    TRANSPOSE_ND2ND_021,
    TRANSPOSE_ND2ND_102,
    TRANSPOSE_ND2ND_210,
    TRANSPOSE_ND2NZ_WITH_INTLV,
#endif
};
}  // namespace AscendC

ASCSIM_ENUM_NAMES(AscendC::TPosition, "TPosition", GM, A1, A2, B1, B2, C1, C2, CO1, CO2, VECIN, VECOUT, VECCALC,
                  SPM, TSCM, C2PIPE2GM, C2PIPE2LOCAL, MAX)
ASCSIM_ENUM_NAMES(AscendC::HardEvent, "HardEvent", MTE2_MTE1, MTE1_MTE2, MTE1_M, M_MTE1, MTE2_V, V_MTE2, MTE3_V,
                  V_MTE3, M_V, V_M, V_V, MTE3_MTE1, MTE1_MTE3, MTE1_V, MTE2_M, M_MTE2, V_MTE1, M_FIX, FIX_M,
                  MTE3_MTE2, MTE2_MTE3, S_V, V_S, S_MTE2, MTE2_S, S_MTE3, MTE3_S, MTE2_FIX, FIX_MTE2, FIX_S, M_S,
                  FIX_MTE3, MTE1_FIX, FIX_MTE1, FIX_FIX, MAX)
ASCSIM_ENUM_NAMES(AscendC::FmatrixMode, "FmatrixMode", FMATRIX_LEFT, FMATRIX_RIGHT)
ASCSIM_ENUM_NAMES(AscendC::CO2Layout, "CO2Layout", NZ, ROW_MAJOR, COLUMN_MAJOR)
ASCSIM_ENUM_NAMES(AscendC::PaddingMode, "PaddingMode", Normal, Compact)
