// mini: a small template library written in catlass's style (arch tags, shape types, element traits),
// for ascsim's examples and tests. Not catlass: its own code, written to exercise what catlass's headers
// use — class templates with partial and explicit specialisations (also in class scope), inheritance,
// if constexpr, static_assert, SFINAE and type traits — on the compiled C++ path.
#pragma once

#include "kernel_operator.h"

#include <type_traits>

namespace mini {

// ---- arch tags: the chip a kernel is compiled for, from __NPU_ARCH__ (as catlass's arch headers do) ------
namespace arch {
struct AtlasA2 {
    static constexpr uint32_t NPU_ARCH = 2201;
};
struct Ascend950 {
    static constexpr uint32_t NPU_ARCH = 3510;
};
#if defined(__NPU_ARCH__) && __NPU_ARCH__ == 3510
using Current = Ascend950;
#else
using Current = AtlasA2;
#endif
}  // namespace arch

// ---- shapes -----------------------------------------------------------------------------------------------
template <uint32_t M_, uint32_t N_, uint32_t K_>
struct GemmShape {
    static constexpr uint32_t M = M_;
    static constexpr uint32_t N = N_;
    static constexpr uint32_t K = K_;
    static_assert(M_ % 16 == 0 && N_ % 16 == 0 && K_ % 16 == 0, "tile shapes are whole 16 x 16 fractals");
};

// a problem shape known at run time; constexpr so it can sit in constant expressions
struct GemmCoord {
    uint32_t m = 0, n = 0, k = 0;
    constexpr GemmCoord() = default;
    constexpr GemmCoord(uint32_t m_, uint32_t n_, uint32_t k_) : m(m_), n(n_), k(k_) {}
};

__aicore__ constexpr uint32_t CeilDiv(uint32_t a, uint32_t b) { return (a + b - 1) / b; }
__aicore__ constexpr uint32_t RoundUp(uint32_t a, uint32_t b) { return CeilDiv(a, b) * b; }

// ---- element traits: an explicit specialisation per element type ------------------------------------------
template <class T>
struct ElementTraits;  // no primary: an unsupported element type does not compile

template <>
struct ElementTraits<half> {
    using Accumulator = float;
    static constexpr uint32_t C0 = 16;  // elements of one fractal row (32 bytes)
};
template <>
struct ElementTraits<bfloat16_t> {
    using Accumulator = float;
    static constexpr uint32_t C0 = 16;
};
template <>
struct ElementTraits<int8_t> {
    using Accumulator = int32_t;
    static constexpr uint32_t C0 = 32;
};

// SFINAE: does T have traits (an Accumulator type)?
template <class T, class = void>
struct HasTraits : std::false_type {};
template <class T>
struct HasTraits<T, std::void_t<typename ElementTraits<T>::Accumulator>> : std::true_type {};

template <class T, std::enable_if_t<HasTraits<T>::value, int> = 0>
__aicore__ constexpr uint32_t FractalElems() {
    return 16 * ElementTraits<T>::C0;
}

}  // namespace mini
