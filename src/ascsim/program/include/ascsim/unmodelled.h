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

namespace ascsim {
namespace rt {
// The first argument of a call that takes anything: converting to it records the call's source line (a
// default argument of the conversion is evaluated where the argument is written).
struct AnyArg {
    template <class T>
    AnyArg(const T&, Site s = Site{__builtin_FILE(), __builtin_LINE(), __builtin_COLUMN()}) : site(s) {}
    Site site;
};
}  // namespace rt
}  // namespace ascsim

// A function taking any arguments, for names whose C++ API form is a compiler intrinsic (no declaration to
// follow): declared so code naming it compiles; calling it stops the run at the caller's line.
#define ASCSIM_UNMODELLED_FN(NAME)                                                         \
    __aicore__ inline void NAME(ASCSIM_SITE) { ::ascsim::rt::not_modelled(#NAME, ascsim_site); } \
    template <class... A>                                                                  \
    __aicore__ inline void NAME(::ascsim::rt::AnyArg first, A&&...) {                      \
        ::ascsim::rt::not_modelled(#NAME, first.site);                                     \
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


// ---- the 950 register-level vector API: AscendC::Reg, also spelt AscendC::MicroAPI (reg_compute/*) --------
// Its register types, enums and the calls catlass's headers make, with the C++ API's template heads and
// argument lists; every call stops the run.
namespace Reg {
enum class RegLayout { UNKNOWN = -1, ZERO, ONE, TWO, THREE };
enum class SatMode { UNKNOWN = -1, NO_SAT, SAT };
enum class IndexOrder { INCREASE_ORDER, DECREASE_ORDER };
enum class MaskMergeMode { UNKNOWN, MERGING, ZEROING };
enum class HighLowPart { LOWEST, HIGHEST };
enum class PostLiteral { POST_MODE_NORMAL, POST_MODE_UPDATE };
enum class MaskPattern { ALL, VL1, VL2, VL3, VL4, VL8, VL16, VL32, VL64, VL128, M3, M4, H, Q, ALLF = 15 };
enum class LoadDist {
    DIST_NORM,
    DIST_BRC_B8,
    DIST_BRC_B16,
    DIST_BRC_B32,
    DIST_US_B8 = 6,
    DIST_US_B16,
    DIST_DS_B8,
    DIST_DS_B16,
    DIST_BDINTLV,
    DIST_DINTLV_B8,
    DIST_DINTLV_B16,
    DIST_UNPACK_B8,
    DIST_UNPACK_B16,
    DIST_BLK,
    DIST_E2B_B16,
    DIST_E2B_B32,
    DIST_UNPACK_B32,
    DIST_DINTLV_B32,
    DIST_UNPACK4_B8,
    DIST_SPLT4CHN_B8,
    DIST_SPLT2CHN_B8,
    DIST_SPLT2CHN_B16,
};
enum class MaskDist { DIST_NORM, DIST_US = 1, DIST_DS = 2, DIST_PACK = 1 };
enum class StoreDist {
    DIST_NORM_B8,
    DIST_NORM_B16,
    DIST_NORM_B32,
    DIST_FIRST_ELEMENT_B8,
    DIST_FIRST_ELEMENT_B16,
    DIST_FIRST_ELEMENT_B32,
    DIST_PACK_B16,
    DIST_PACK_B32,
    DIST_INTLV_B8,
    DIST_INTLV_B16,
    DIST_PACK_B64,
    DIST_INTLV_B32,
    DIST_PACK4_B32,
    DIST_MRG4CHN_B8,
    DIST_MRG2CHN_B8,
    DIST_MRG2CHN_B16,
    DIST_NORM
};
enum class MemType { VEC_STORE, VEC_LOAD, SCALAR_STORE, SCALAR_LOAD, VEC_ALL, SCALAR_ALL };
enum class DataCopyMode { DATA_BLOCK_COPY };
using ::AscendC::ReduceType;
struct DefaultType {};
struct CastTrait {
    RegLayout layoutMode = RegLayout::UNKNOWN;
    SatMode satMode = SatMode::UNKNOWN;
    MaskMergeMode mrgMode = MaskMergeMode::UNKNOWN;
    RoundMode roundMode = RoundMode::UNKNOWN;
};
constexpr CastTrait castTrait = {RegLayout::UNKNOWN, SatMode::UNKNOWN, MaskMergeMode::UNKNOWN, RoundMode::UNKNOWN};
struct RegTrait {
    int REG_NUM = 1;
};
constexpr RegTrait RegTraitNumOne = {1};
constexpr RegTrait RegTraitNumTwo = {2};

// The registers: opaque here (their values would live in the vector unit ascsim does not run).
template <class T, const RegTrait& regTrait = RegTraitNumOne>
struct RegTensor {
    RegTensor() {}
    using ActualT = T;
    static constexpr RegTrait trait = regTrait;
    static constexpr int REG_NUM = trait.REG_NUM;
};
struct MaskReg {};
struct AddrReg {};
struct UnalignReg {};
using UnalignRegForLoad = UnalignReg;
using UnalignRegForStore = UnalignReg;

template <class T, MaskPattern mode = MaskPattern::ALL, const RegTrait& regTrait = RegTraitNumOne>
__aicore__ inline MaskReg CreateMask(ASCSIM_SITE) {
    ASCSIM_STOP("Reg::CreateMask");
}
template <class T, const RegTrait& regTrait = RegTraitNumOne>
__aicore__ inline MaskReg UpdateMask(uint32_t& scalarValue, ASCSIM_SITE) {
    ASCSIM_STOP("Reg::UpdateMask");
}
template <class T>
__aicore__ inline AddrReg CreateAddrReg(uint16_t index0, uint32_t stride0, ASCSIM_SITE) {
    ASCSIM_STOP("Reg::CreateAddrReg");
}
template <class T>
__aicore__ inline AddrReg CreateAddrReg(uint16_t index0, uint32_t stride0, uint16_t index1, uint32_t stride1,
                                        ASCSIM_SITE) {
    ASCSIM_STOP("Reg::CreateAddrReg");
}
template <class T>
__aicore__ inline AddrReg CreateAddrReg(uint16_t index0, uint32_t stride0, uint16_t index1, uint32_t stride1,
                                        uint16_t index2, uint32_t stride2, ASCSIM_SITE) {
    ASCSIM_STOP("Reg::CreateAddrReg");
}
template <class T>
__aicore__ inline AddrReg CreateAddrReg(uint16_t index0, uint32_t stride0, uint16_t index1, uint32_t stride1,
                                        uint16_t index2, uint32_t stride2, uint16_t index3, uint32_t stride3,
                                        ASCSIM_SITE) {
    ASCSIM_STOP("Reg::CreateAddrReg");
}
template <MemType src, MemType dst>
__aicore__ inline void LocalMemBar(ASCSIM_SITE) {
    ASCSIM_STOP("Reg::LocalMemBar");
}

// loads and stores between UB and registers
template <class T = DefaultType, LoadDist dist = LoadDist::DIST_NORM, class U>
__aicore__ inline void LoadAlign(U& dstReg, __ubuf__ T* srcAddr, ASCSIM_SITE) {
    ASCSIM_STOP("Reg::LoadAlign");
}
template <class T = DefaultType, PostLiteral postMode, LoadDist dist = LoadDist::DIST_NORM, class U>
__aicore__ inline void LoadAlign(U& dstReg, __ubuf__ T*& srcAddr, int32_t postUpdateStride, ASCSIM_SITE) {
    ASCSIM_STOP("Reg::LoadAlign");
}
template <class T = DefaultType, LoadDist dist = LoadDist::DIST_NORM, class U>
__aicore__ inline void LoadAlign(U& dstReg, __ubuf__ T* srcAddr, AddrReg offset, ASCSIM_SITE) {
    ASCSIM_STOP("Reg::LoadAlign");
}
template <class T = DefaultType, LoadDist dist, class U>
__aicore__ inline void LoadAlign(U& dstReg0, U& dstReg1, __ubuf__ T* srcAddr, ASCSIM_SITE) {
    ASCSIM_STOP("Reg::LoadAlign");
}
template <class T = DefaultType, LoadDist dist, class U>
__aicore__ inline void LoadAlign(U& dstReg0, U& dstReg1, __ubuf__ T* srcAddr, AddrReg offset, ASCSIM_SITE) {
    ASCSIM_STOP("Reg::LoadAlign");
}
template <class T = DefaultType, DataCopyMode dataMode, class U>
__aicore__ inline void LoadAlign(U& dstReg, __ubuf__ T* srcAddr, uint32_t dataBlockStride, MaskReg& mask,
                                 ASCSIM_SITE) {
    ASCSIM_STOP("Reg::LoadAlign");
}
template <class T = DefaultType, DataCopyMode dataMode, PostLiteral postMode, class U>
__aicore__ inline void LoadAlign(U& dstReg, __ubuf__ T*& srcAddr, uint32_t dataBlockStride, uint32_t repeatStride,
                                 MaskReg& mask, ASCSIM_SITE) {
    ASCSIM_STOP("Reg::LoadAlign");
}
template <class T, MaskDist dist = MaskDist::DIST_NORM>
__aicore__ inline void LoadAlign(MaskReg& mask, __ubuf__ T* srcAddr, ASCSIM_SITE) {
    ASCSIM_STOP("Reg::LoadAlign");
}
template <class T, MaskDist dist = MaskDist::DIST_NORM>
__aicore__ inline void LoadAlign(MaskReg& mask, __ubuf__ T* srcAddr, AddrReg offset, ASCSIM_SITE) {
    ASCSIM_STOP("Reg::LoadAlign");
}
template <class T = DefaultType, StoreDist dist = StoreDist::DIST_NORM, class U>
__aicore__ inline void StoreAlign(__ubuf__ T* dstAddr, U& srcReg, MaskReg& mask, ASCSIM_SITE) {
    ASCSIM_STOP("Reg::StoreAlign");
}
template <class T = DefaultType, PostLiteral postMode, StoreDist dist = StoreDist::DIST_NORM, class U>
__aicore__ inline void StoreAlign(__ubuf__ T*& dstAddr, U& srcReg, int32_t postUpdateStride, MaskReg& mask,
                                  ASCSIM_SITE) {
    ASCSIM_STOP("Reg::StoreAlign");
}
template <class T = DefaultType, StoreDist dist = StoreDist::DIST_NORM, class U>
__aicore__ inline void StoreAlign(__ubuf__ T* dstAddr, U& srcReg, AddrReg offset, MaskReg& mask, ASCSIM_SITE) {
    ASCSIM_STOP("Reg::StoreAlign");
}
template <class T = DefaultType, StoreDist dist, class U>
__aicore__ inline void StoreAlign(__ubuf__ T* dstAddr, U& srcReg0, U& srcReg1, MaskReg& mask, ASCSIM_SITE) {
    ASCSIM_STOP("Reg::StoreAlign");
}
template <class T = DefaultType, DataCopyMode dataMode, class U>
__aicore__ inline void StoreAlign(__ubuf__ T* dstAddr, U& srcReg, uint32_t dataBlockStride, MaskReg& mask,
                                  ASCSIM_SITE) {
    ASCSIM_STOP("Reg::StoreAlign");
}
template <class T = DefaultType, DataCopyMode dataMode, PostLiteral postMode, class U>
__aicore__ inline void StoreAlign(__ubuf__ T*& dstAddr, U& srcReg, uint32_t dataBlockStride, uint32_t repeatStride,
                                  MaskReg& mask, ASCSIM_SITE) {
    ASCSIM_STOP("Reg::StoreAlign");
}
template <class T, MaskDist dist = MaskDist::DIST_NORM>
__aicore__ inline void StoreAlign(__ubuf__ T* dstAddr, MaskReg& mask, ASCSIM_SITE) {
    ASCSIM_STOP("Reg::StoreAlign");
}
template <class T>
__aicore__ inline void LoadUnAlignPre(UnalignRegForLoad& ureg, __ubuf__ T* srcAddr, ASCSIM_SITE) {
    ASCSIM_STOP("Reg::LoadUnAlignPre");
}
template <class T = DefaultType, PostLiteral postMode = PostLiteral::POST_MODE_UPDATE, class U>
__aicore__ inline void LoadUnAlign(U& dstReg, UnalignRegForLoad& ureg, __ubuf__ T*& srcAddr, uint32_t postUpdateStride,
                                   ASCSIM_SITE) {
    ASCSIM_STOP("Reg::LoadUnAlign");
}
template <class T = DefaultType, PostLiteral postMode = PostLiteral::POST_MODE_UPDATE, class U>
__aicore__ inline void StoreUnAlign(__ubuf__ T*& dstAddr, U& srcReg, UnalignRegForStore& ureg,
                                    uint32_t postUpdateStride, ASCSIM_SITE) {
    ASCSIM_STOP("Reg::StoreUnAlign");
}
template <class T, PostLiteral postMode = PostLiteral::POST_MODE_UPDATE>
__aicore__ inline void StoreUnAlignPost(__ubuf__ T*& dstAddr, UnalignRegForStore& ureg, int32_t postUpdateStride,
                                        ASCSIM_SITE) {
    ASCSIM_STOP("Reg::StoreUnAlignPost");
}

// element-wise on registers, under a mask
#define ASCSIM_REG_BINARY(NAME, MODE)                                                                          \
    template <class T = DefaultType, MODE mode = MaskMergeMode::ZEROING, class U>                              \
    __aicore__ inline void NAME(U& dstReg, U& srcReg0, U& srcReg1, MaskReg& mask, ASCSIM_SITE) {               \
        ASCSIM_STOP("Reg::" #NAME);                                                                            \
    }
ASCSIM_REG_BINARY(Add, MaskMergeMode)
ASCSIM_REG_BINARY(Sub, MaskMergeMode)
ASCSIM_REG_BINARY(Mul, MaskMergeMode)
ASCSIM_REG_BINARY(Div, auto)
ASCSIM_REG_BINARY(Max, MaskMergeMode)
ASCSIM_REG_BINARY(Min, MaskMergeMode)
ASCSIM_REG_BINARY(And, MaskMergeMode)
ASCSIM_REG_BINARY(Or, MaskMergeMode)
ASCSIM_REG_BINARY(Xor, MaskMergeMode)
ASCSIM_REG_BINARY(Prelu, MaskMergeMode)
ASCSIM_REG_BINARY(MulAddDst, MaskMergeMode)
ASCSIM_REG_BINARY(MulDstAdd, MaskMergeMode)
ASCSIM_REG_BINARY(AbsSub, MaskMergeMode)
#undef ASCSIM_REG_BINARY
#define ASCSIM_REG_SCALAR(NAME)                                                                                \
    template <class T = DefaultType, class U, MaskMergeMode mode = MaskMergeMode::ZEROING, class S>            \
    __aicore__ inline void NAME(S& dstReg, S& srcReg, U scalarValue, MaskReg& mask, ASCSIM_SITE) {             \
        ASCSIM_STOP("Reg::" #NAME);                                                                            \
    }
ASCSIM_REG_SCALAR(Adds)
ASCSIM_REG_SCALAR(Muls)
ASCSIM_REG_SCALAR(Maxs)
ASCSIM_REG_SCALAR(Mins)
ASCSIM_REG_SCALAR(ShiftLefts)
ASCSIM_REG_SCALAR(ShiftRights)
ASCSIM_REG_SCALAR(LeakyRelu)
ASCSIM_REG_SCALAR(Axpy)
#undef ASCSIM_REG_SCALAR
#define ASCSIM_REG_UNARY(NAME, MODE)                                                                           \
    template <class T = DefaultType, MODE mode = MaskMergeMode::ZEROING, class U>                              \
    __aicore__ inline void NAME(U& dstReg, U& srcReg, MaskReg& mask, ASCSIM_SITE) {                            \
        ASCSIM_STOP("Reg::" #NAME);                                                                            \
    }
ASCSIM_REG_UNARY(Relu, MaskMergeMode)
ASCSIM_REG_UNARY(Neg, MaskMergeMode)
ASCSIM_REG_UNARY(Not, MaskMergeMode)
ASCSIM_REG_UNARY(Exp, auto)
ASCSIM_REG_UNARY(Sqrt, auto)
ASCSIM_REG_UNARY(Ln, auto)
ASCSIM_REG_UNARY(Log, auto)
ASCSIM_REG_UNARY(Log2, auto)
ASCSIM_REG_UNARY(Log10, auto)
#undef ASCSIM_REG_UNARY
template <class T = DefaultType, MaskMergeMode mode = MaskMergeMode::ZEROING, class U>
__aicore__ inline void Abs(U& dstReg, U& srcReg, MaskReg& mask, ASCSIM_SITE) {
    ASCSIM_STOP("Reg::Abs");
}
template <class T = DefaultType, class U = DefaultType, MaskMergeMode mode = MaskMergeMode::ZEROING, class S, class V>
__aicore__ inline void Abs(S& dstReg, V& srcReg, MaskReg& mask, ASCSIM_SITE) {
    ASCSIM_STOP("Reg::Abs");
}
template <class T = DefaultType, class U = DefaultType, MaskMergeMode mode = MaskMergeMode::ZEROING, class S, class V>
__aicore__ inline void ShiftLeft(S& dstReg, S& srcReg0, V& srcReg1, MaskReg& mask, ASCSIM_SITE) {
    ASCSIM_STOP("Reg::ShiftLeft");
}
template <class T = DefaultType, class U = DefaultType, MaskMergeMode mode = MaskMergeMode::ZEROING, class S, class V>
__aicore__ inline void ShiftRight(S& dstReg, S& srcReg0, V& srcReg1, MaskReg& mask, ASCSIM_SITE) {
    ASCSIM_STOP("Reg::ShiftRight");
}
template <class T = DefaultType, class U>
__aicore__ inline void Add(MaskReg& carry, U& dstReg, U& srcReg0, U& srcReg1, MaskReg& mask, ASCSIM_SITE) {
    ASCSIM_STOP("Reg::Add");
}
template <class T = DefaultType, class U>
__aicore__ inline void Sub(MaskReg& carry, U& dstReg, U& srcReg0, U& srcReg1, MaskReg& mask, ASCSIM_SITE) {
    ASCSIM_STOP("Reg::Sub");
}
template <class T = DefaultType, class U>
__aicore__ inline void Mull(U& dstReg0, U& dstReg1, U& srcReg0, U& srcReg1, MaskReg& mask, ASCSIM_SITE) {
    ASCSIM_STOP("Reg::Mull");
}
template <class T = DefaultType, class U = DefaultType, RegLayout layout = RegLayout::ZERO,
          MaskMergeMode mode = MaskMergeMode::ZEROING, class S, class V>
__aicore__ inline void ExpSub(S& dstReg, V& srcReg0, V& srcReg1, MaskReg& mask, ASCSIM_SITE) {
    ASCSIM_STOP("Reg::ExpSub");
}
template <class T = DefaultType, CMPMODE mode = CMPMODE::EQ, class U>
__aicore__ inline void Compare(MaskReg& dst, U& srcReg0, U& srcReg1, MaskReg& mask, ASCSIM_SITE) {
    ASCSIM_STOP("Reg::Compare");
}
template <class T = DefaultType, CMPMODE mode = CMPMODE::EQ, class U, class S>
__aicore__ inline void Compares(MaskReg& dst, U& srcReg, S scalarValue, MaskReg& mask, ASCSIM_SITE) {
    ASCSIM_STOP("Reg::Compares");
}
template <class T = DefaultType, class U>
__aicore__ inline void Select(U& dstReg, U& srcReg0, U& srcReg1, MaskReg& mask, ASCSIM_SITE) {
    ASCSIM_STOP("Reg::Select");
}
template <class T = DefaultType, class U, class S>
__aicore__ inline void Duplicate(S& dstReg, U scalarValue, ASCSIM_SITE) {
    ASCSIM_STOP("Reg::Duplicate");
}
template <class T = DefaultType, MaskMergeMode mode = MaskMergeMode::ZEROING, class U, class S>
__aicore__ inline void Duplicate(S& dstReg, U scalarValue, MaskReg& mask, ASCSIM_SITE) {
    ASCSIM_STOP("Reg::Duplicate");
}
template <class T = DefaultType, HighLowPart pos = HighLowPart::LOWEST, MaskMergeMode mode = MaskMergeMode::ZEROING,
          class S>
__aicore__ inline void Duplicate(S& dstReg, S& srcReg, MaskReg& mask, ASCSIM_SITE) {
    ASCSIM_STOP("Reg::Duplicate");
}
template <class T = DefaultType, class U>
__aicore__ inline void Interleave(U& dstReg0, U& dstReg1, U& srcReg0, U& srcReg1, ASCSIM_SITE) {
    ASCSIM_STOP("Reg::Interleave");
}
template <class T = DefaultType, class U>
__aicore__ inline void DeInterleave(U& dstReg0, U& dstReg1, U& srcReg0, U& srcReg1, ASCSIM_SITE) {
    ASCSIM_STOP("Reg::DeInterleave");
}
template <ReduceType type = ReduceType::SUM, class T = DefaultType, class U = DefaultType,
          MaskMergeMode mode = MaskMergeMode::ZEROING, class S, class V>
__aicore__ inline void Reduce(S& dstReg, V srcReg, MaskReg mask, ASCSIM_SITE) {
    ASCSIM_STOP("Reg::Reduce");
}
template <ReduceType type = ReduceType::SUM, class T = DefaultType, class U = DefaultType,
          MaskMergeMode mode = MaskMergeMode::ZEROING, class S, class V>
__aicore__ inline void ReduceDataBlock(S& dstReg, V srcReg, MaskReg mask, ASCSIM_SITE) {
    ASCSIM_STOP("Reg::ReduceDataBlock");
}
template <class T = DefaultType, class U = DefaultType, const CastTrait& trait = castTrait, class S, class V>
__aicore__ inline void Cast(S& dstReg, V& srcReg, MaskReg& mask, ASCSIM_SITE) {
    ASCSIM_STOP("Reg::Cast");
}
template <class T = DefaultType, RoundMode roundMode = RoundMode::CAST_NONE,
          MaskMergeMode mode = MaskMergeMode::ZEROING, class S>
__aicore__ inline void Truncate(S& dstReg, S& srcReg, MaskReg& mask, ASCSIM_SITE) {
    ASCSIM_STOP("Reg::Truncate");
}
template <class T = DefaultType, MaskMergeMode mode = MaskMergeMode::MERGING, class U>
__aicore__ inline void Move(U& dstReg, U& srcReg, MaskReg mask, ASCSIM_SITE) {
    ASCSIM_STOP("Reg::Move");
}
template <class T = DefaultType, class U>
__aicore__ inline void Move(U& dstReg, U& srcReg, ASCSIM_SITE) {
    ASCSIM_STOP("Reg::Move");
}
template <class T = DefaultType, IndexOrder order = IndexOrder::INCREASE_ORDER, class U, class S>
__aicore__ inline void Arange(S& dstReg, U scalarValue, ASCSIM_SITE) {
    ASCSIM_STOP("Reg::Arange");
}
// on mask registers
__aicore__ inline void And(MaskReg& dst, MaskReg& src0, MaskReg& src1, MaskReg& mask, ASCSIM_SITE) {
    ASCSIM_STOP("Reg::And");
}
__aicore__ inline void Or(MaskReg& dst, MaskReg& src0, MaskReg& src1, MaskReg& mask, ASCSIM_SITE) {
    ASCSIM_STOP("Reg::Or");
}
__aicore__ inline void Xor(MaskReg& dst, MaskReg& src0, MaskReg& src1, MaskReg& mask, ASCSIM_SITE) {
    ASCSIM_STOP("Reg::Xor");
}
__aicore__ inline void Not(MaskReg& dst, MaskReg& src, MaskReg& mask, ASCSIM_SITE) { ASCSIM_STOP("Reg::Not"); }
__aicore__ inline void Select(MaskReg& dst, MaskReg& src0, MaskReg& src1, MaskReg& mask, ASCSIM_SITE) {
    ASCSIM_STOP("Reg::Select");
}
__aicore__ inline void Move(MaskReg& dst, MaskReg& src, MaskReg& mask, ASCSIM_SITE) { ASCSIM_STOP("Reg::Move"); }
__aicore__ inline void Move(MaskReg& dst, MaskReg& src, ASCSIM_SITE) { ASCSIM_STOP("Reg::Move"); }
template <class T>
__aicore__ inline void Interleave(MaskReg& dst0, MaskReg& dst1, MaskReg& src0, MaskReg& src1, ASCSIM_SITE) {
    ASCSIM_STOP("Reg::Interleave");
}
template <class T>
__aicore__ inline void DeInterleave(MaskReg& dst0, MaskReg& dst1, MaskReg& src0, MaskReg& src1, ASCSIM_SITE) {
    ASCSIM_STOP("Reg::DeInterleave");
}
}  // namespace Reg
namespace MicroAPI = Reg;

}  // namespace AscendC

// CCE intrinsics catlass's headers call directly (the 950 4-bit and MX-scale L1 -> L0 loads).
ASCSIM_UNMODELLED_FN(load_cbuf_to_ca_s4)
ASCSIM_UNMODELLED_FN(load_cbuf_to_cb_s4)
ASCSIM_UNMODELLED_FN(load_cbuf_to_ca_mx)
ASCSIM_UNMODELLED_FN(load_cbuf_to_cb_mx)

#undef ASCSIM_NOTHING
#undef ASCSIM_COMMA
