// Element types: ascsim's scalar types (ascsim/scalar.h: the same encodings as ascsim.machine.dtypes,
// bit for bit) under every spelling Ascend C programs use, and their dtype names on the bridge.
#pragma once

#include "ascsim/encode.h"
#include "ascsim/scalar.h"

// Spellings of the 950 narrow types (catlass numeric_size.hpp, the asc-devkit examples).
using float8_e4m3_t = ::ascsim::fp8_e4m3fn_t;
using float8_e5m2_t = ::ascsim::fp8_e5m2_t;
using float8_e8m0_t = ::ascsim::fp8_e8m0_t;
using float4_e2m1x2_t = ::ascsim::fp4x2_e2m1_t;
using float4_e1m2x2_t = ::ascsim::fp4x2_e1m2_t;

namespace AscendC {
using float8_e4m3_t = ::ascsim::fp8_e4m3fn_t;
using float8_e5m2_t = ::ascsim::fp8_e5m2_t;
using float8_e8m0_t = ::ascsim::fp8_e8m0_t;
using float4_e2m1x2_t = ::ascsim::fp4x2_e2m1_t;
using float4_e1m2x2_t = ::ascsim::fp4x2_e1m2_t;
}  // namespace AscendC

ASCSIM_TYPE_NAME_OUTER(::ascsim::half, "half")
ASCSIM_TYPE_NAME_OUTER(::ascsim::bfloat16_t, "bfloat16_t")
ASCSIM_TYPE_NAME_OUTER(::ascsim::fp8_e4m3fn_t, "fp8_e4m3fn_t")
ASCSIM_TYPE_NAME_OUTER(::ascsim::fp8_e5m2_t, "fp8_e5m2_t")
ASCSIM_TYPE_NAME_OUTER(::ascsim::hifloat8_t, "hifloat8_t")
ASCSIM_TYPE_NAME_OUTER(::ascsim::fp8_e8m0_t, "fp8_e8m0_t")
ASCSIM_TYPE_NAME_OUTER(::ascsim::fp4x2_e2m1_t, "fp4x2_e2m1_t")
ASCSIM_TYPE_NAME_OUTER(::ascsim::fp4x2_e1m2_t, "fp4x2_e1m2_t")
ASCSIM_TYPE_NAME_OUTER(::ascsim::mx_fp8_e4m3_t, "mx_fp8_e4m3_t")
ASCSIM_TYPE_NAME_OUTER(::ascsim::mx_fp8_e5m2_t, "mx_fp8_e5m2_t")
ASCSIM_TYPE_NAME_OUTER(::ascsim::int4b_t, "int4b_t")

namespace AscendC {
template <class T, class U>
struct IsSameType {
    static constexpr bool value = std::is_same<T, U>::value;
};

// Bits of one element (utils/kernel_utils_constants.h): 8 * sizeof, 4 for int4b_t, and on 950 for the
// packed fp4 pairs.
template <class T>
struct SizeOfBits {
    static constexpr uint32_t value = sizeof(T) * 8;
};
template <>
struct SizeOfBits<::ascsim::int4b_t> {
    static constexpr uint32_t value = 4;
};
#if defined(__NPU_ARCH__) && (__NPU_ARCH__ == 3510 || __NPU_ARCH__ == 5102)
template <>
struct SizeOfBits<::ascsim::fp4x2_e2m1_t> {
    static constexpr uint32_t value = 4;
};
template <>
struct SizeOfBits<::ascsim::fp4x2_e1m2_t> {
    static constexpr uint32_t value = 4;
};
#endif

// AscendC::Std: the C++ API's own <type_traits> / <algorithm> subset (utils/std/), here the standard
// library's under the C++ API's names.
namespace Std {
using std::add_const;
using std::add_cv;
using std::add_lvalue_reference;
using std::add_pointer;
using std::add_rvalue_reference;
using std::add_volatile;
using std::bool_constant;
using std::conditional;
using std::conditional_t;
using std::decay;
using std::decay_t;
using std::enable_if;
using std::enable_if_t;
using std::false_type;
using std::integral_constant;
using std::is_array;
using std::is_base_of;
using std::is_class;
using std::is_const;
using std::is_convertible;
using std::is_floating_point;
using std::is_function;
using std::is_integral;
using std::is_pointer;
using std::is_reference;
using std::is_same;
using std::is_same_v;
using std::is_union;
using std::is_void;
using std::remove_const;
using std::remove_cv;
using std::remove_cv_t;
using std::remove_extent;
using std::remove_pointer;
using std::remove_reference;
using std::remove_reference_t;
using std::remove_volatile;
using std::true_type;
template <class T>
struct remove_cvref {
    using type = std::remove_cv_t<std::remove_reference_t<T>>;
};
template <class T>
using remove_cvref_t = typename remove_cvref<T>::type;
template <class T, class U>
using IsSame = bool_constant<is_same_v<T, U>>;
template <class T, class... Ts>
struct is_one_of : bool_constant<(std::is_same_v<T, Ts> || ...)> {};
template <class T, class... Ts>
inline constexpr bool is_one_of_v = is_one_of<T, Ts...>::value;
template <class T, T V, T... Vs>
struct is_one_of_value : bool_constant<((V == Vs) || ...)> {};
template <class T, class U>
constexpr auto min(const T& a, const U& b) {
    return a < b ? a : b;
}
template <class T, class U>
constexpr auto max(const T& a, const U& b) {
    return a > b ? a : b;
}
}  // namespace Std
}  // namespace AscendC

namespace ascsim {
namespace rt {
// Bits per element: 4 for the packed types (two elements per byte), else 8 * sizeof.
template <class T>
struct ElementBits {
    static constexpr unsigned value = sizeof(T) * 8;
};
template <>
struct ElementBits<::ascsim::int4b_t> {
    static constexpr unsigned value = 4;
};
template <>
struct ElementBits<::ascsim::fp4x2_e2m1_t> {
    static constexpr unsigned value = 4;
};
template <>
struct ElementBits<::ascsim::fp4x2_e1m2_t> {
    static constexpr unsigned value = 4;
};
template <class T>
struct ElementBits<const T> : ElementBits<T> {};

// Bytes of n elements of T (4-bit types: two per byte).
template <class T>
constexpr uint64_t bytes_of(uint64_t n) {
    return (n * ElementBits<T>::value + 7) / 8;
}
}  // namespace rt
}  // namespace ascsim
