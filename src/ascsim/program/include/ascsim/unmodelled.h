// Names of the Ascend C API that ascsim declares, so programs using them compile, but does not model:
// calling one stops the run with NotImplementedFeature naming it and the call site. Written for ascsim.
//
// ascsim runs the cube core's data path; what lives here is mostly the vector unit (the AIV side of a mix
// kernel: its element-wise, reduce, cast, compare/select, mask and copy calls; the 950 register-level
// MicroAPI), declared with the C++ API's overload sets (template parameters with their defaults, argument
// lists, per arch where that matters to overload resolution) so that a program that names them compiles
// as it does with the C++ API — brace lists become the repeat-params structs (ascsim/params.h), explicit
// template arguments bind as they do there. Each call site is the program's line (ASCSIM_SITE).
// Facts from the C++ API's headers (include/basic_api/kernel_operator_vec_*_intf.h, kernel_common.h,
// kernel_operator_cache_intf.h, kernel_operator_common_intf.h, reg_compute/*); no code from them.
#pragma once

#include "ascsim/encode.h"
#include "ascsim/enums.h"
#include "ascsim/params.h"
#include "ascsim/tensor.h"

// A function template taking anything: declared so code naming it compiles; calling it stops the run.
#define ASCSIM_UNMODELLED_FN(NAME)                                                  \
    template <class... T, class... A>                                               \
    __aicore__ inline void NAME(A&&...) {                                           \
        ::ascsim::rt::not_modelled(#NAME, ::ascsim::rt::Site{__FILE__, __LINE__});  \
    }

// The body of every declaration below: stop the run at the caller's line.
#define ASCSIM_STOP(API) ::ascsim::rt::not_modelled(API, ascsim_site)

namespace AscendC {

// ---- masks (kernel_common.h) ---------------------------------------------------------------------------------
template <class T, MaskMode mode = MaskMode::NORMAL>
__aicore__ inline void SetVectorMask(const uint64_t maskHigh, const uint64_t maskLow, ASCSIM_SITE) {
    ASCSIM_STOP("SetVectorMask");
}
template <class T, MaskMode mode = MaskMode::NORMAL>
__aicore__ inline void SetVectorMask(int32_t len, ASCSIM_SITE) {
    ASCSIM_STOP("SetVectorMask");
}
__aicore__ inline void ResetMask(ASCSIM_SITE) { ASCSIM_STOP("ResetMask"); }
__aicore__ inline void SetMaskCount(ASCSIM_SITE) { ASCSIM_STOP("SetMaskCount"); }
__aicore__ inline void SetMaskNorm(ASCSIM_SITE) { ASCSIM_STOP("SetMaskNorm"); }

// ---- element-wise: unary (kernel_operator_vec_unary_intf.h) -------------------------------------------------
// Each op has a mask-array form, a mask-bits form (both with a repeat count and UnaryRepeatParams) and a
// count form.
#define ASCSIM_VEC_UNARY(NAME, ...)                                                                            \
    template <class T, bool isSetMask = true __VA_ARGS__>                                                      \
    __aicore__ inline void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, uint64_t mask[],         \
                                const uint8_t repeatTime, const UnaryRepeatParams& repeatParams, ASCSIM_SITE) { \
        ASCSIM_STOP(#NAME);                                                                                    \
    }                                                                                                          \
    template <class T, bool isSetMask = true __VA_ARGS__>                                                      \
    __aicore__ inline void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, uint64_t mask,           \
                                const uint8_t repeatTime, const UnaryRepeatParams& repeatParams, ASCSIM_SITE) { \
        ASCSIM_STOP(#NAME);                                                                                    \
    }                                                                                                          \
    template <class T __VA_ARGS__>                                                                             \
    __aicore__ inline void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t& count,    \
                                ASCSIM_SITE) {                                                                 \
        ASCSIM_STOP(#NAME);                                                                                    \
    }
#if ASCSIM_ARCH_3510
// (on 950 the transcendental ops take an algorithm config as their last template parameter)
ASCSIM_VEC_UNARY(Exp, , const ExpConfig& config = DEFAULT_EXP_CONFIG)
ASCSIM_VEC_UNARY(Ln, , const LnConfig& config = DEFAULT_LN_CONFIG)
ASCSIM_VEC_UNARY(Reciprocal, , const ReciprocalConfig& config = DEFAULT_RECIPROCAL_CONFIG)
ASCSIM_VEC_UNARY(Rsqrt, , const RsqrtConfig& config = DEFAULT_RSQRT_CONFIG)
ASCSIM_VEC_UNARY(Sqrt, , const SqrtConfig& config = DEFAULT_SQRT_CONFIG)
#else
ASCSIM_VEC_UNARY(Exp)
ASCSIM_VEC_UNARY(Ln)
ASCSIM_VEC_UNARY(Reciprocal)
ASCSIM_VEC_UNARY(Rsqrt)
ASCSIM_VEC_UNARY(Sqrt)
#endif
ASCSIM_VEC_UNARY(Relu)
ASCSIM_VEC_UNARY(Abs)
ASCSIM_VEC_UNARY(Not)
#undef ASCSIM_VEC_UNARY
template <class T, class U>
__aicore__ inline void Abs(const LocalTensor<T>& dst, const LocalTensor<U>& src, const int32_t& count, ASCSIM_SITE) {
    ASCSIM_STOP("Abs");
}
template <class T>
__aicore__ inline void Neg(const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint32_t count, ASCSIM_SITE) {
    ASCSIM_STOP("Neg");
}

// ---- element-wise: binary (kernel_operator_vec_binary_intf.h) -----------------------------------------------
#define ASCSIM_VEC_BINARY(NAME, ...)                                                                           \
    template <class T, bool isSetMask = true __VA_ARGS__>                                                      \
    __aicore__ inline void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1, \
                                uint64_t mask[], const uint8_t repeatTime, const BinaryRepeatParams& repeatParams, \
                                ASCSIM_SITE) {                                                                 \
        ASCSIM_STOP(#NAME);                                                                                    \
    }                                                                                                          \
    template <class T, bool isSetMask = true __VA_ARGS__>                                                      \
    __aicore__ inline void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1, \
                                uint64_t mask, const uint8_t repeatTime, const BinaryRepeatParams& repeatParams, \
                                ASCSIM_SITE) {                                                                 \
        ASCSIM_STOP(#NAME);                                                                                    \
    }                                                                                                          \
    template <class T __VA_ARGS__>                                                                             \
    __aicore__ inline void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1, \
                                const int32_t& count, ASCSIM_SITE) {                                           \
        ASCSIM_STOP(#NAME);                                                                                    \
    }
ASCSIM_VEC_BINARY(Add)
ASCSIM_VEC_BINARY(Sub)
ASCSIM_VEC_BINARY(Mul)
#if ASCSIM_ARCH_3510
ASCSIM_VEC_BINARY(Div, , const DivConfig& config = DEFAULT_DIV_CONFIG)
#else
ASCSIM_VEC_BINARY(Div)
#endif
ASCSIM_VEC_BINARY(Max)
ASCSIM_VEC_BINARY(Min)
ASCSIM_VEC_BINARY(And)
ASCSIM_VEC_BINARY(Or)
ASCSIM_VEC_BINARY(AddRelu)
ASCSIM_VEC_BINARY(SubRelu)
ASCSIM_VEC_BINARY(FusedMulAdd)
ASCSIM_VEC_BINARY(FusedMulAddRelu)
ASCSIM_VEC_BINARY(MulAddRelu)
#undef ASCSIM_VEC_BINARY

// Binary ops whose destination type differs from the sources' (T dst, U sources).
#define ASCSIM_VEC_BINARY_TU(NAME, COUNT)                                                                      \
    template <class T, class U, bool isSetMask = true>                                                         \
    __aicore__ inline void NAME(const LocalTensor<T>& dst, const LocalTensor<U>& src0, const LocalTensor<U>& src1, \
                                uint64_t mask[], const uint8_t repeatTime, const BinaryRepeatParams& repeatParams, \
                                ASCSIM_SITE) {                                                                 \
        ASCSIM_STOP(#NAME);                                                                                    \
    }                                                                                                          \
    template <class T, class U, bool isSetMask = true>                                                         \
    __aicore__ inline void NAME(const LocalTensor<T>& dst, const LocalTensor<U>& src0, const LocalTensor<U>& src1, \
                                uint64_t mask, const uint8_t repeatTime, const BinaryRepeatParams& repeatParams, \
                                ASCSIM_SITE) {                                                                 \
        ASCSIM_STOP(#NAME);                                                                                    \
    }                                                                                                          \
    template <class T, class U>                                                                                \
    __aicore__ inline void NAME(const LocalTensor<T>& dst, const LocalTensor<U>& src0, const LocalTensor<U>& src1, \
                                COUNT count, ASCSIM_SITE) {                                                    \
        ASCSIM_STOP(#NAME);                                                                                    \
    }
ASCSIM_VEC_BINARY_TU(MulAddDst, const int32_t&)
ASCSIM_VEC_BINARY_TU(AddDeqRelu, const int32_t&)
ASCSIM_VEC_BINARY_TU(AddReluCast, const uint32_t)
ASCSIM_VEC_BINARY_TU(SubReluCast, const uint32_t)
#undef ASCSIM_VEC_BINARY_TU
template <bool isSetMask = true>
__aicore__ inline void AddDeqRelu(const LocalTensor<half>& dst, const LocalTensor<int32_t>& src0,
                                  const LocalTensor<int32_t>& src1, uint64_t mask[], const uint8_t repeatTime,
                                  const BinaryRepeatParams& repeatParams, ASCSIM_SITE) {
    ASCSIM_STOP("AddDeqRelu");
}
template <bool isSetMask = true>
__aicore__ inline void AddDeqRelu(const LocalTensor<half>& dst, const LocalTensor<int32_t>& src0,
                                  const LocalTensor<int32_t>& src1, uint64_t mask, const uint8_t repeatTime,
                                  const BinaryRepeatParams& repeatParams, ASCSIM_SITE) {
    ASCSIM_STOP("AddDeqRelu");
}
__aicore__ inline void AddDeqRelu(const LocalTensor<half>& dst, const LocalTensor<int32_t>& src0,
                                  const LocalTensor<int32_t>& src1, const int32_t& count, ASCSIM_SITE) {
    ASCSIM_STOP("AddDeqRelu");
}
template <class T>
__aicore__ inline void Prelu(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,
                             const uint32_t count, ASCSIM_SITE) {
    ASCSIM_STOP("Prelu");
}
template <class T>
__aicore__ inline void AbsSub(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,
                              const uint32_t count, ASCSIM_SITE) {
    ASCSIM_STOP("AbsSub");
}
template <class T, class U>
__aicore__ inline void ExpSub(const LocalTensor<T>& dst, const LocalTensor<U>& src0, const LocalTensor<U>& src1,
                              const uint32_t count, ASCSIM_SITE) {
    ASCSIM_STOP("ExpSub");
}
template <class T>
__aicore__ inline void Mull(const LocalTensor<T>& dst0, const LocalTensor<T>& dst1, const LocalTensor<T>& src0,
                            const LocalTensor<T>& src1, const uint32_t count, ASCSIM_SITE) {
    ASCSIM_STOP("Mull");
}

// ---- element-wise: tensor and scalar (kernel_operator_vec_binary_scalar_intf.h) -----------------------------
// The scalar is a T, or (second set) any U that is T's primitive type; 950 adds forms whose operands may be
// a scalar on either side (dst, src0, src1 of any type).
#define ASCSIM_SAME_PRIM(T, U) typename std::enable_if<std::is_same<PrimT<T>, U>::value, bool>::type = true
#define ASCSIM_VEC_SCALAR(NAME, EXTRA, EXTRA_DEFAULT)                                                          \
    template <class T, bool isSetMask = true>                                                                  \
    __aicore__ inline void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const T& scalarValue,    \
                                uint64_t mask[], const uint8_t repeatTime, const UnaryRepeatParams& repeatParams \
                                EXTRA_DEFAULT, ASCSIM_SITE) {                                                  \
        ASCSIM_STOP(#NAME);                                                                                    \
    }                                                                                                          \
    template <class T, class U, bool isSetMask = true, ASCSIM_SAME_PRIM(T, U)>                                 \
    __aicore__ inline void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const U& scalarValue,    \
                                uint64_t mask[], const uint8_t repeatTime, const UnaryRepeatParams& repeatParams \
                                EXTRA, ASCSIM_SITE) {                                                          \
        ASCSIM_STOP(#NAME);                                                                                    \
    }                                                                                                          \
    template <class T, bool isSetMask = true>                                                                  \
    __aicore__ inline void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const T& scalarValue,    \
                                uint64_t mask, const uint8_t repeatTime, const UnaryRepeatParams& repeatParams  \
                                EXTRA_DEFAULT, ASCSIM_SITE) {                                                  \
        ASCSIM_STOP(#NAME);                                                                                    \
    }                                                                                                          \
    template <class T, class U, bool isSetMask = true, ASCSIM_SAME_PRIM(T, U)>                                 \
    __aicore__ inline void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const U& scalarValue,    \
                                uint64_t mask, const uint8_t repeatTime, const UnaryRepeatParams& repeatParams  \
                                EXTRA, ASCSIM_SITE) {                                                          \
        ASCSIM_STOP(#NAME);                                                                                    \
    }                                                                                                          \
    template <class T, bool isSetMask = true>                                                                  \
    __aicore__ inline void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const T& scalarValue,    \
                                const int32_t& count, ASCSIM_SITE) {                                           \
        ASCSIM_STOP(#NAME);                                                                                    \
    }                                                                                                          \
    template <class T, class U, bool isSetMask = true, ASCSIM_SAME_PRIM(T, U)>                                 \
    __aicore__ inline void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const U& scalarValue,    \
                                const int32_t& count, ASCSIM_SITE) {                                           \
        ASCSIM_STOP(#NAME);                                                                                    \
    }
#define ASCSIM_VEC_SCALAR_ANY(NAME)                                                                            \
    template <class T = BinaryDefaultType, bool isSetMask = true, const BinaryConfig& config = DEFAULT_BINARY_CONFIG, \
              class U, class S, class V>                                                                       \
    __aicore__ inline void NAME(const U& dst, const S& src0, const V& src1, uint64_t mask[],                   \
                                const uint8_t repeatTime, const UnaryRepeatParams& repeatParams, ASCSIM_SITE) { \
        ASCSIM_STOP(#NAME);                                                                                    \
    }                                                                                                          \
    template <class T = BinaryDefaultType, bool isSetMask = true, const BinaryConfig& config = DEFAULT_BINARY_CONFIG, \
              class U, class S, class V>                                                                       \
    __aicore__ inline void NAME(const U& dst, const S& src0, const V& src1, uint64_t mask,                     \
                                const uint8_t repeatTime, const UnaryRepeatParams& repeatParams, ASCSIM_SITE) { \
        ASCSIM_STOP(#NAME);                                                                                    \
    }                                                                                                          \
    template <class T = BinaryDefaultType, bool isSetMask = true, const BinaryConfig& config = DEFAULT_BINARY_CONFIG, \
              class U, class S, class V>                                                                       \
    __aicore__ inline void NAME(const U& dst, const S& src0, const V& src1, const int32_t& count, ASCSIM_SITE) { \
        ASCSIM_STOP(#NAME);                                                                                    \
    }
#define ASCSIM_NOTHING
#define ASCSIM_COMMA ,
ASCSIM_VEC_SCALAR(Adds, ASCSIM_NOTHING, ASCSIM_NOTHING)
ASCSIM_VEC_SCALAR(Muls, ASCSIM_NOTHING, ASCSIM_NOTHING)
ASCSIM_VEC_SCALAR(Maxs, ASCSIM_NOTHING, ASCSIM_NOTHING)
ASCSIM_VEC_SCALAR(Mins, ASCSIM_NOTHING, ASCSIM_NOTHING)
ASCSIM_VEC_SCALAR(LeakyRelu, ASCSIM_NOTHING, ASCSIM_NOTHING)
ASCSIM_VEC_SCALAR(ShiftLeft, ASCSIM_NOTHING, ASCSIM_NOTHING)
ASCSIM_VEC_SCALAR(ShiftRight, ASCSIM_COMMA bool roundEn, ASCSIM_COMMA bool roundEn = false)
#if ASCSIM_ARCH_3510
ASCSIM_VEC_SCALAR_ANY(Adds)
ASCSIM_VEC_SCALAR_ANY(Muls)
ASCSIM_VEC_SCALAR_ANY(Maxs)
ASCSIM_VEC_SCALAR_ANY(Mins)
ASCSIM_VEC_SCALAR_ANY(Subs)
ASCSIM_VEC_SCALAR_ANY(Divs)
ASCSIM_VEC_SCALAR_ANY(Ands)
ASCSIM_VEC_SCALAR_ANY(Ors)
#endif
#undef ASCSIM_VEC_SCALAR_ANY
#undef ASCSIM_VEC_SCALAR
#undef ASCSIM_SAME_PRIM
// Shifts by a tensor of amounts (count form).
template <class T, class U>
__aicore__ inline void ShiftLeft(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<U>& src1,
                                 const int32_t& count, ASCSIM_SITE) {
    ASCSIM_STOP("ShiftLeft");
}
template <class T, class U>
__aicore__ inline void ShiftRight(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<U>& src1,
                                  const int32_t& count, ASCSIM_SITE) {
    ASCSIM_STOP("ShiftRight");
}

// ---- Axpy (kernel_operator_vec_ternary_scalar_intf.h) -------------------------------------------------------
template <class T, class U, bool isSetMask = true>
__aicore__ inline void Axpy(const LocalTensor<T>& dst, const LocalTensor<U>& src, const U& scalarValue, uint64_t mask,
                            const uint8_t repeatTime, const UnaryRepeatParams& repeatParams, ASCSIM_SITE) {
    ASCSIM_STOP("Axpy");
}
template <class T, class U, bool isSetMask = true>
__aicore__ inline void Axpy(const LocalTensor<T>& dst, const LocalTensor<U>& src, const U& scalarValue,
                            uint64_t mask[], const uint8_t repeatTime, const UnaryRepeatParams& repeatParams,
                            ASCSIM_SITE) {
    ASCSIM_STOP("Axpy");
}
template <class T, class U>
__aicore__ inline void Axpy(const LocalTensor<T>& dst, const LocalTensor<U>& src, const U& scalarValue,
                            const int32_t& count, ASCSIM_SITE) {
    ASCSIM_STOP("Axpy");
}

// ---- casts (kernel_operator_vec_vconv_intf.h) ---------------------------------------------------------------
template <class T, class U, bool isSetMask = true>
__aicore__ inline void Cast(const LocalTensor<T>& dst, const LocalTensor<U>& src, const RoundMode& roundMode,
                            const uint64_t mask[], const uint8_t repeatTime, const UnaryRepeatParams& repeatParams,
                            ASCSIM_SITE) {
    ASCSIM_STOP("Cast");
}
template <class T, class U, bool isSetMask = true>
__aicore__ inline void Cast(const LocalTensor<T>& dst, const LocalTensor<U>& src, const RoundMode& roundMode,
                            const uint64_t mask, const uint8_t repeatTime, const UnaryRepeatParams& repeatParams,
                            ASCSIM_SITE) {
    ASCSIM_STOP("Cast");
}
template <class T, class U>
__aicore__ inline void Cast(const LocalTensor<T>& dst, const LocalTensor<U>& src, const RoundMode& roundMode,
                            const uint32_t count, ASCSIM_SITE) {
    ASCSIM_STOP("Cast");
}
#define ASCSIM_VEC_DEQ(NAME)                                                                                   \
    template <class T, class U, bool isSetMask = true, bool isVecDeq = true, bool halfBlock = true>            \
    __aicore__ inline void NAME(const LocalTensor<T>& dst, const LocalTensor<U>& src, const uint64_t mask[],   \
                                uint8_t repeatTime, const UnaryRepeatParams& repeatParams, ASCSIM_SITE) {      \
        ASCSIM_STOP(#NAME);                                                                                    \
    }                                                                                                          \
    template <class T, class U, bool isSetMask = true, bool isVecDeq = true, bool halfBlock = true>            \
    __aicore__ inline void NAME(const LocalTensor<T>& dst, const LocalTensor<U>& src, const int32_t mask,      \
                                uint8_t repeatTime, const UnaryRepeatParams& repeatParams, ASCSIM_SITE) {      \
        ASCSIM_STOP(#NAME);                                                                                    \
    }                                                                                                          \
    template <class T, class U, bool isVecDeq = true, bool halfBlock = true>                                   \
    __aicore__ inline void NAME(const LocalTensor<T>& dst, const LocalTensor<U>& src, const uint32_t count,    \
                                ASCSIM_SITE) {                                                                 \
        ASCSIM_STOP(#NAME);                                                                                    \
    }
ASCSIM_VEC_DEQ(CastDeq)
ASCSIM_VEC_DEQ(CastDequant)
#undef ASCSIM_VEC_DEQ
template <class T, RoundMode roundMode>
__aicore__ inline void Truncate(const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint32_t count,
                                ASCSIM_SITE) {
    ASCSIM_STOP("Truncate");
}
struct VdeqInfo;
__aicore__ inline void SetDeqScale(half scale, ASCSIM_SITE) { ASCSIM_STOP("SetDeqScale"); }
__aicore__ inline void SetDeqScale(float scale, int16_t offset, bool signMode, ASCSIM_SITE) {
    ASCSIM_STOP("SetDeqScale");
}
template <class T>
__aicore__ inline void SetDeqScale(const LocalTensor<T>& vdeq, const VdeqInfo& vdeqInfo, ASCSIM_SITE) {
    ASCSIM_STOP("SetDeqScale");
}

// ---- Duplicate, Interleave (kernel_operator_vec_duplicate_intf.h) -------------------------------------------
template <class T, bool isSetMask = true>
__aicore__ inline void Duplicate(const LocalTensor<T>& dst, const T& scalarValue, uint64_t mask,
                                 const uint8_t repeatTime, const uint16_t dstBlockStride,
                                 const uint8_t dstRepeatStride, ASCSIM_SITE) {
    ASCSIM_STOP("Duplicate");
}
template <class T, bool isSetMask = true>
__aicore__ inline void Duplicate(const LocalTensor<T>& dst, const T& scalarValue, uint64_t mask[],
                                 const uint8_t repeatTime, const uint16_t dstBlockStride,
                                 const uint8_t dstRepeatStride, ASCSIM_SITE) {
    ASCSIM_STOP("Duplicate");
}
template <class T>
__aicore__ inline void Duplicate(const LocalTensor<T>& dst, const T& scalarValue, const int32_t& count,
                                 ASCSIM_SITE) {
    ASCSIM_STOP("Duplicate");
}
#if ASCSIM_ARCH_3510
template <class T>
__aicore__ inline void Duplicate(const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t& count,
                                 ASCSIM_SITE) {
    ASCSIM_STOP("Duplicate");
}
template <class T>
__aicore__ inline void Interleave(const LocalTensor<T>& dst0, const LocalTensor<T>& dst1, const LocalTensor<T>& src0,
                                  const LocalTensor<T>& src1, const int32_t count, ASCSIM_SITE) {
    ASCSIM_STOP("Interleave");
}
template <class T>
__aicore__ inline void DeInterleave(const LocalTensor<T>& dst0, const LocalTensor<T>& dst1,
                                    const LocalTensor<T>& src0, const LocalTensor<T>& src1, const int32_t count,
                                    ASCSIM_SITE) {
    ASCSIM_STOP("DeInterleave");
}
template <class T>
__aicore__ inline void DeInterleave(const LocalTensor<T>& dst0, const LocalTensor<T>& dst1, const LocalTensor<T>& src,
                                    const int32_t srcCount, ASCSIM_SITE) {
    ASCSIM_STOP("DeInterleave");
}
#endif

// ---- compare and select (kernel_operator_vec_cmpsel_intf.h) -------------------------------------------------
template <class T, class U, bool isSetMask = true>
__aicore__ inline void Compare(const LocalTensor<U>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,
                               CMPMODE cmpMode, const uint64_t mask[], uint8_t repeatTime,
                               const BinaryRepeatParams& repeatParams, ASCSIM_SITE) {
    ASCSIM_STOP("Compare");
}
template <class T, class U, bool isSetMask = true>
__aicore__ inline void Compare(const LocalTensor<U>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,
                               CMPMODE cmpMode, const uint64_t mask, uint8_t repeatTime,
                               const BinaryRepeatParams& repeatParams, ASCSIM_SITE) {
    ASCSIM_STOP("Compare");
}
template <class T, bool isSetMask = true>
__aicore__ inline void Compare(const LocalTensor<T>& src0, const LocalTensor<T>& src1, CMPMODE cmpMode,
                               const uint64_t mask[], const BinaryRepeatParams& repeatParams, ASCSIM_SITE) {
    ASCSIM_STOP("Compare");
}
template <class T, bool isSetMask = true>
__aicore__ inline void Compare(const LocalTensor<T>& src0, const LocalTensor<T>& src1, CMPMODE cmpMode,
                               const uint64_t mask, const BinaryRepeatParams& repeatParams, ASCSIM_SITE) {
    ASCSIM_STOP("Compare");
}
template <class T, class U>
__aicore__ inline void Compare(const LocalTensor<U>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,
                               CMPMODE cmpMode, uint32_t count, ASCSIM_SITE) {
    ASCSIM_STOP("Compare");
}
template <class T>
__aicore__ inline void GetCmpMask(const LocalTensor<T>& dst, ASCSIM_SITE) {
    ASCSIM_STOP("GetCmpMask");
}
template <class T>
__aicore__ inline void SetCmpMask(const LocalTensor<T>& src, ASCSIM_SITE) {
    ASCSIM_STOP("SetCmpMask");
}
#define ASCSIM_VEC_CMP_SCALAR(NAME)                                                                            \
    template <class T, class U, bool isSetMask = true>                                                         \
    __aicore__ inline void NAME(const LocalTensor<U>& dst, const LocalTensor<T>& src0, const T src1Scalar,     \
                                CMPMODE cmpMode, const uint64_t mask[], uint8_t repeatTime,                    \
                                const UnaryRepeatParams& repeatParams, ASCSIM_SITE) {                          \
        ASCSIM_STOP(#NAME);                                                                                    \
    }                                                                                                          \
    template <class T, class U, bool isSetMask = true>                                                         \
    __aicore__ inline void NAME(const LocalTensor<U>& dst, const LocalTensor<T>& src0, const T src1Scalar,     \
                                CMPMODE cmpMode, const uint64_t mask, uint8_t repeatTime,                      \
                                const UnaryRepeatParams& repeatParams, ASCSIM_SITE) {                          \
        ASCSIM_STOP(#NAME);                                                                                    \
    }                                                                                                          \
    template <class T, class U>                                                                                \
    __aicore__ inline void NAME(const LocalTensor<U>& dst, const LocalTensor<T>& src0, const T src1Scalar,     \
                                CMPMODE cmpMode, uint32_t count, ASCSIM_SITE) {                                \
        ASCSIM_STOP(#NAME);                                                                                    \
    }
ASCSIM_VEC_CMP_SCALAR(Compares)
ASCSIM_VEC_CMP_SCALAR(CompareScalar)
#undef ASCSIM_VEC_CMP_SCALAR
template <class T, class U, bool isSetMask = true>
__aicore__ inline void Select(const LocalTensor<T>& dst, const LocalTensor<U>& selMask, const LocalTensor<T>& src0,
                              const LocalTensor<T>& src1, SELMODE selMode, uint64_t mask[], uint8_t repeatTime,
                              const BinaryRepeatParams& repeatParams, ASCSIM_SITE) {
    ASCSIM_STOP("Select");
}
template <class T, class U, bool isSetMask = true>
__aicore__ inline void Select(const LocalTensor<T>& dst, const LocalTensor<U>& selMask, const LocalTensor<T>& src0,
                              const LocalTensor<T>& src1, SELMODE selMode, uint64_t mask, uint8_t repeatTime,
                              const BinaryRepeatParams& repeatParams, ASCSIM_SITE) {
    ASCSIM_STOP("Select");
}
template <class T, SELMODE selMode>
__aicore__ inline void Select(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,
                              uint8_t repeatTime, const BinaryRepeatParams& repeatParams, ASCSIM_SITE) {
    ASCSIM_STOP("Select");
}
template <class T, class U>
__aicore__ inline void Select(const LocalTensor<T>& dst, const LocalTensor<U>& selMask, const LocalTensor<T>& src0,
                              uint8_t repeatTime, const BinaryRepeatParams& repeatParams, ASCSIM_SITE) {
    ASCSIM_STOP("Select");
}
template <class T, class U>
__aicore__ inline void Select(const LocalTensor<T>& dst, const LocalTensor<U>& selMask, const LocalTensor<T>& src0,
                              const LocalTensor<T>& src1, SELMODE selMode, uint32_t count, ASCSIM_SITE) {
    ASCSIM_STOP("Select");
}
template <class T, class U, bool isSetMask = true>
__aicore__ inline void Select(const LocalTensor<T>& dst, const LocalTensor<U>& selMask, const LocalTensor<T>& src0,
                              T src1, SELMODE selMode, uint64_t mask[], uint8_t repeatTime,
                              const BinaryRepeatParams& repeatParams, ASCSIM_SITE) {
    ASCSIM_STOP("Select");
}
template <class T, class U, bool isSetMask = true>
__aicore__ inline void Select(const LocalTensor<T>& dst, const LocalTensor<U>& selMask, const LocalTensor<T>& src0,
                              T src1, SELMODE selMode, uint64_t mask, uint8_t repeatTime,
                              const BinaryRepeatParams& repeatParams, ASCSIM_SITE) {
    ASCSIM_STOP("Select");
}
template <class T, class U>
__aicore__ inline void Select(const LocalTensor<T>& dst, const LocalTensor<U>& selMask, const LocalTensor<T>& src0,
                              T src1, SELMODE selMode, uint32_t count, ASCSIM_SITE) {
    ASCSIM_STOP("Select");
}

// ---- reductions (kernel_operator_vec_reduce_intf.h) ---------------------------------------------------------
#define ASCSIM_VEC_BLOCK_REDUCE(NAME)                                                                          \
    template <class T, bool isSetMask = true>                                                                  \
    __aicore__ inline void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t repeatTime, \
                                const int32_t mask, const int32_t dstRepStride, const int32_t srcBlkStride,    \
                                const int32_t srcRepStride, ASCSIM_SITE) {                                     \
        ASCSIM_STOP(#NAME);                                                                                    \
    }                                                                                                          \
    template <class T, bool isSetMask = true>                                                                  \
    __aicore__ inline void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t repeatTime, \
                                const uint64_t mask[], const int32_t dstRepStride, const int32_t srcBlkStride, \
                                const int32_t srcRepStride, ASCSIM_SITE) {                                     \
        ASCSIM_STOP(#NAME);                                                                                    \
    }
ASCSIM_VEC_BLOCK_REDUCE(BlockReduceSum)
ASCSIM_VEC_BLOCK_REDUCE(BlockReduceMax)
ASCSIM_VEC_BLOCK_REDUCE(BlockReduceMin)
ASCSIM_VEC_BLOCK_REDUCE(PairReduceSum)
#undef ASCSIM_VEC_BLOCK_REDUCE
template <class T, bool isSetMask = true, class U = T>
__aicore__ inline void RepeatReduceSum(const LocalTensor<U>& dst, const LocalTensor<T>& src, const int32_t repeatTime,
                                       const int32_t mask, const int32_t dstBlkStride, const int32_t srcBlkStride,
                                       const int32_t dstRepStride, const int32_t srcRepStride, ASCSIM_SITE) {
    ASCSIM_STOP("RepeatReduceSum");
}
template <class T, bool isSetMask = true, class U = T>
__aicore__ inline void WholeReduceSum(const LocalTensor<U>& dst, const LocalTensor<T>& src, const uint64_t mask[],
                                      const int32_t repeatTime, const int32_t dstRepStride,
                                      const int32_t srcBlkStride, const int32_t srcRepStride, ASCSIM_SITE) {
    ASCSIM_STOP("WholeReduceSum");
}
template <class T, bool isSetMask = true, class U = T>
__aicore__ inline void WholeReduceSum(const LocalTensor<U>& dst, const LocalTensor<T>& src, const int32_t mask,
                                      const int32_t repeatTime, const int32_t dstRepStride,
                                      const int32_t srcBlkStride, const int32_t srcRepStride, ASCSIM_SITE) {
    ASCSIM_STOP("WholeReduceSum");
}
#define ASCSIM_VEC_WHOLE_REDUCE(NAME)                                                                          \
    template <class T, bool isSetMask = true>                                                                  \
    __aicore__ inline void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint64_t mask[],   \
                                const int32_t repeatTime, const int32_t dstRepStride, const int32_t srcBlkStride, \
                                const int32_t srcRepStride, ReduceOrder order = ReduceOrder::ORDER_VALUE_INDEX, \
                                ASCSIM_SITE) {                                                                 \
        ASCSIM_STOP(#NAME);                                                                                    \
    }                                                                                                          \
    template <class T, bool isSetMask = true>                                                                  \
    __aicore__ inline void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t mask,      \
                                const int32_t repeatTime, const int32_t dstRepStride, const int32_t srcBlkStride, \
                                const int32_t srcRepStride, ReduceOrder order = ReduceOrder::ORDER_VALUE_INDEX, \
                                ASCSIM_SITE) {                                                                 \
        ASCSIM_STOP(#NAME);                                                                                    \
    }
ASCSIM_VEC_WHOLE_REDUCE(WholeReduceMax)
ASCSIM_VEC_WHOLE_REDUCE(WholeReduceMin)
#undef ASCSIM_VEC_WHOLE_REDUCE
#define ASCSIM_VEC_REDUCE(NAME, INDEX, INDEX_ARG)                                                              \
    template <class T>                                                                                         \
    __aicore__ inline void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src,                          \
                                const LocalTensor<T>& sharedTmpBuffer, const int32_t mask, const int32_t repeatTime, \
                                const int32_t srcRepStride INDEX_ARG, ASCSIM_SITE) {                           \
        ASCSIM_STOP(#NAME);                                                                                    \
    }                                                                                                          \
    template <class T>                                                                                         \
    __aicore__ inline void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src,                          \
                                const LocalTensor<T>& sharedTmpBuffer, const uint64_t mask[],                  \
                                const int32_t repeatTime, const int32_t srcRepStride INDEX_ARG, ASCSIM_SITE) { \
        ASCSIM_STOP(#NAME);                                                                                    \
    }
ASCSIM_VEC_REDUCE(ReduceMax, 1, ASCSIM_COMMA bool calIndex = 0)
ASCSIM_VEC_REDUCE(ReduceMin, 1, ASCSIM_COMMA bool calIndex = 0)
ASCSIM_VEC_REDUCE(ReduceSum, 0, ASCSIM_NOTHING)
#undef ASCSIM_VEC_REDUCE
template <class T>
__aicore__ inline void ReduceMax(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                                 const LocalTensor<T>& sharedTmpBuffer, const int32_t count, bool calIndex = 0,
                                 ASCSIM_SITE) {
    ASCSIM_STOP("ReduceMax");
}
template <class T>
__aicore__ inline void ReduceMin(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                                 const LocalTensor<T>& sharedTmpBuffer, const int32_t count, bool calIndex = 0,
                                 ASCSIM_SITE) {
    ASCSIM_STOP("ReduceMin");
}
template <class T, bool isSetMask = true>
__aicore__ inline void ReduceSum(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                                 const LocalTensor<T>& sharedTmpBuffer, const int32_t count, ASCSIM_SITE) {
    ASCSIM_STOP("ReduceSum");
}
template <class T>
__aicore__ inline void GetReduceMaxMinCount(T& maxMinValue, T& maxMinIndex, ASCSIM_SITE) {
    ASCSIM_STOP("GetReduceMaxMinCount");
}
template <class T>
__aicore__ inline void GetReduceMaxMinCount(T& maxMinValue, ASCSIM_SITE) {
    ASCSIM_STOP("GetReduceMaxMinCount");
}
template <class T>
__aicore__ inline T GetAccVal(ASCSIM_SITE) {
    ASCSIM_STOP("GetAccVal");
}

// ---- broadcast, copy, gather, transpose (the vec_brcb / data_copy / vec_gather / vec_transpose headers) -----
template <class T>
__aicore__ inline void Brcb(const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint8_t repeatTime,
                            const BrcbRepeatParams& repeatParams, ASCSIM_SITE) {
    ASCSIM_STOP("Brcb");
}
template <class T, bool isSetMask = true>
__aicore__ inline void Copy(const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint64_t mask[],
                            const uint8_t repeatTime, const CopyRepeatParams& repeatParams, ASCSIM_SITE) {
    ASCSIM_STOP("Copy");
}
template <class T, bool isSetMask = true>
__aicore__ inline void Copy(const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint64_t mask,
                            const uint8_t repeatTime, const CopyRepeatParams& repeatParams, ASCSIM_SITE) {
    ASCSIM_STOP("Copy");
}
template <class T, bool isSetMask = true>
__aicore__ inline void Copy(const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint32_t count, ASCSIM_SITE) {
    ASCSIM_STOP("Copy");
}
template <class T>
__aicore__ inline void Gatherb(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<uint32_t>& offset,
                               const uint8_t repeatTime, const GatherRepeatParams& repeatParams, ASCSIM_SITE) {
    ASCSIM_STOP("Gatherb");
}
template <class T>
__aicore__ inline void Gather(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                              const LocalTensor<uint32_t>& srcOffset, const uint32_t srcBaseOffset,
                              const uint64_t mask, const uint8_t repeatTime, const uint16_t dstRepStride,
                              ASCSIM_SITE) {
    ASCSIM_STOP("Gather");
}
template <class T>
__aicore__ inline void Gather(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                              const LocalTensor<uint32_t>& srcOffset, const uint32_t srcBaseOffset,
                              const uint64_t mask[], const uint8_t repeatTime, const uint16_t dstRepStride,
                              ASCSIM_SITE) {
    ASCSIM_STOP("Gather");
}
template <class T>
__aicore__ inline void Gather(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                              const LocalTensor<uint32_t>& srcOffset, const uint32_t srcBaseOffset,
                              const uint32_t count, ASCSIM_SITE) {
    ASCSIM_STOP("Gather");
}
template <class T, class U, GatherMaskMode mode = defaultGatherMaskMode>
__aicore__ inline void GatherMask(const LocalTensor<T>& dst, const LocalTensor<T>& src0,
                                  const LocalTensor<U>& src1Pattern, const bool reduceMode, const uint32_t mask,
                                  const GatherMaskParams& gatherMaskParams, uint64_t& rsvdCnt, ASCSIM_SITE) {
    ASCSIM_STOP("GatherMask");
}
template <class T, GatherMaskMode mode = defaultGatherMaskMode>
__aicore__ inline void GatherMask(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const uint8_t src1Pattern,
                                  const bool reduceMode, const uint32_t mask, const GatherMaskParams& gatherMaskParams,
                                  uint64_t& rsvdCnt, ASCSIM_SITE) {
    ASCSIM_STOP("GatherMask");
}
template <class T>
__aicore__ inline void Transpose(const LocalTensor<T>& dst, const LocalTensor<T>& src, ASCSIM_SITE) {
    ASCSIM_STOP("Transpose");
}
template <class T>
__aicore__ inline void Transpose(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                                 const LocalTensor<uint8_t>& sharedTmpBuffer, const TransposeParamsExt& transposeParams,
                                 ASCSIM_SITE) {
    ASCSIM_STOP("Transpose");
}
template <class T>
__aicore__ inline void TransDataTo5HD(const LocalTensor<T> (&dstList)[NCHW_CONV_ADDR_LIST_SIZE],
                                      const LocalTensor<T> (&srcList)[NCHW_CONV_ADDR_LIST_SIZE],
                                      const TransDataTo5HDParams& nchwconvParams, ASCSIM_SITE) {
    ASCSIM_STOP("TransDataTo5HD");
}
template <class T>
__aicore__ inline void TransDataTo5HD(uint64_t dstList[NCHW_CONV_ADDR_LIST_SIZE],
                                      uint64_t srcList[NCHW_CONV_ADDR_LIST_SIZE],
                                      const TransDataTo5HDParams& nchwconvParams, ASCSIM_SITE) {
    ASCSIM_STOP("TransDataTo5HD");
}
template <class T>
__aicore__ inline void TransDataTo5HD(const LocalTensor<uint64_t>& dst, const LocalTensor<uint64_t>& src,
                                      const TransDataTo5HDParams& nchwconvParams, ASCSIM_SITE) {
    ASCSIM_STOP("TransDataTo5HD");
}

// ---- control registers and caches (kernel_operator_common_intf.h, kernel_operator_cache_intf.h) ----------
template <int8_t startBit, int8_t endBit>
__aicore__ inline void SetCtrlSpr(int64_t value, ASCSIM_SITE) {
    ASCSIM_STOP("SetCtrlSpr");
}
template <int8_t startBit, int8_t endBit>
__aicore__ inline int64_t GetCtrlSpr(ASCSIM_SITE) {
    ASCSIM_STOP("GetCtrlSpr");
}
template <int8_t startBit, int8_t endBit>
__aicore__ inline void ResetCtrlSpr(ASCSIM_SITE) {
    ASCSIM_STOP("ResetCtrlSpr");
}
// GM has no data cache in ascsim (the program and the engine share one coherent mapping), so cleaning and
// invalidating it changes nothing; the UB form is the vector unit's.
template <class T, CacheLine entireType, DcciDst dcciDst>
__aicore__ inline void DataCacheCleanAndInvalid(const GlobalTensor<T>&) {}
template <class T, CacheLine entireType>
__aicore__ inline void DataCacheCleanAndInvalid(const GlobalTensor<T>&) {}
template <class T, CacheLine entireType, DcciDst dcciDst>
__aicore__ inline void DataCacheCleanAndInvalid(const LocalTensor<T>&, ASCSIM_SITE) {
    ASCSIM_STOP("DataCacheCleanAndInvalid(LocalTensor)");
}
// An instruction-cache prefetch: no data effect.
__aicore__ inline void ICachePreLoad(const int64_t) {}
__aicore__ inline int64_t GetICachePreloadStatus(ASCSIM_SITE) { ASCSIM_STOP("GetICachePreloadStatus"); }

}  // namespace AscendC

#undef ASCSIM_NOTHING
#undef ASCSIM_COMMA
