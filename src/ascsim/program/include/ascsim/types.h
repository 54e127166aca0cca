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
