// ascsim_scalar.h - C++17 scalar element types matching ascsim's element types bit for bit.
//
// Header-only. Types (Ascend C spellings): half, bfloat16_t, fp8_e4m3fn_t, fp8_e5m2_t, hifloat8_t,
// fp8_e8m0_t, fp4x2_e2m1_t, fp4x2_e1m2_t, mx_fp8_e4m3_t, mx_fp8_e5m2_t, int4b_t. They live in namespace
// ascsim and are also declared in the global namespace and in namespace AscendC (define
// ASCSIM_SCALAR_NO_GLOBAL_NAMES to get only ascsim::...).
//
// Every encoder is a port of ascsim's Python encoder (ascsim/machine/dtypes.py `to_raw`), which takes a
// float64; a float or an integer argument is first widened to double, as `to_raw` does with
// `astype(np.float64)` (a long double is narrowed to double first, so it can round twice):
//   half, bfloat16_t, fp8_e4m3fn_t, fp8_e5m2_t, fp4x2_e2m1_t, fp4x2_e1m2_t, mx_fp8_*
//       one round-to-nearest-even from the double (ascsim's `_quantize`; ml_dtypes <= 0.6 rounds a float64
//       twice, through float32, for bfloat16 and fp8, ml_dtypes 0.7 once). Overflow: half / bfloat16_t / fp8_e5m2_t -> +-Inf;
//       fp8_e4m3fn_t -> NaN (0x7F | sign, it has no Inf, as ml_dtypes); fp4 -> +-max (saturate, as
//       ml_dtypes / en_dtypes). NaN: half keeps numpy's double->half payload rule
//       (sign | 0x7C00 | top 10 fraction bits, 0x7C01 if those are 0); bfloat16_t -> 0x7FC0 | sign,
//       fp8_e5m2_t -> 0x7E | sign, fp8_e4m3fn_t -> 0x7F | sign (ml_dtypes); fp4 -> 0x0 (number-formats
//       section 2, ascsim overrides ml_dtypes' 0x8).
//   hifloat8_t
//       ascsim's table encoder: ties away from zero on the value grid, |x| >= 1.25 * 2^15 -> +-Inf
//       (0x6F / 0xEF), |x| < 1.5 * 2^-23 -> 0x00 whatever the sign, NaN -> 0x80.
//   fp8_e8m0_t
//       ascsim's encoder: round to nearest between powers of two with ties to the even code (so 3.0 ->
//       2.0, as ml_dtypes 0.5; ml_dtypes >= 0.6 rounds ties up), +Inf and overflow -> 0xFE (ml_dtypes: NaN),
//       NaN -> 0xFF, below 2^-127 -> 0x00.
//       ascsim rejects x <= 0; here (a choice) the sign is ignored, as Ascend's bf16 -> e8m0 Cast doc
//       does for -Inf ("+/-inf or |x| above the maximum -> 0xFE"), and +-0 -> 0x00 (the smallest code).
//   int4b_t
//       like Ascend C's integer_sub_type<4, true>: an integer keeps its low 4 bits (two's complement
//       wrap); a floating value is truncated toward zero and then wrapped (NaN, +-Inf and values outside
//       long long -> 0: a choice; ascsim only accepts integral values in [-8, 7]).
//
// Decoding (operator float) is exact for every code. NaN codes decode as: half / bfloat16_t with their
// payload (numpy / ml_dtypes), the fp8 types, e8m0 and hifloat8 as the quiet NaN 0x7FC00000 | sign
// (hifloat8's single NaN 0x80 -> +NaN, as en_dtypes).
//
// Arithmetic (a choice, see the report): + - * / on two values of one type are computed in float and the
// result is rounded back to the type with the type's encoder. For half and bfloat16_t this is the
// correctly rounded IEEE result (float has at least 2p+2 bits); it is what ml_dtypes does for bfloat16
// and the fp8 types. The Ascend C CPU-debug library (hicann/asc-tools cpudebug kernel_fp16.h/.cpp) does
// half + - * in integer soft-float; for every finite result it gives the same bits as this (checked on
// 2.8 million random pairs; / differs only in the sign of a zero quotient), but its conversions
// saturate (Inf, NaN, |x| >= 2^17 -> +-65504; [65520, 2^17) -> 0x7FFF) and its == is bitwise (NaN == NaN). It has
// no operators on its bfloat16 / fp8 / hif8 / fp4 / e8m0 types beyond + - (bf16), so there `a * b` is a float.
// A NaN operand gives the first NaN operand, quieted (x86's rule, made independent of operand order).
// Mixed operands follow C's usual arithmetic conversions as for a native _Float16:
//   T op T -> T;  T op integer -> T (the integer converted to float, the result rounded to T);
//   T op float -> float;  T op double -> double;  T op U (two different ascsim float types) -> float.
// Comparisons compare exact values (IEEE: NaN is unordered, +0 == -0): T vs T / float / other type in
// float, T vs double or an integer in double. Unary minus flips the sign bit for the IEEE-like types
// (IEEE negate: the float computation for every non-NaN value, and it keeps NaN payloads); for hifloat8 and
// fp8_e8m0_t it is -float(x) re-encoded (hifloat8: 0x00 and 0x80 stay; e8m0: unchanged, having no sign).
//
// Sub-byte types: ascsim treats an fp4x2_e2m1_t / fp4x2_e1m2_t / int4b_t *element* as one 4-bit value,
// packed two per byte in memory (element 2i in bits 3..0, element 2i+1 in bits 7..4). The C++ object
// here is one such element: sizeof 1, the value in the low nibble of `bits` (as Ascend C's int4b_t
// `storage` and the CPU-debug Fp4e2m1T `val`); value operations ignore and clear the high nibble.
// pack_nibbles() / low_nibble() / high_nibble() build and take apart a packed byte.
//
// Raw bits: every type has a public `bits` member (uint16_t for the 16-bit types, uint8_t otherwise),
// T::from_bits(b), x.raw(), x.set_raw(b), and the free functions ascsim::to_bits / from_bits<T> / set_bits.
//
// Needs __builtin_bit_cast (clang >= 9, gcc >= 11) for the constexpr conversions.

#ifndef ASCSIM_SCALAR_H
#define ASCSIM_SCALAR_H

#include <cstdint>
#include <type_traits>

#if defined(__has_builtin)
#if __has_builtin(__builtin_bit_cast)
#define ASCSIM_SCALAR_HAS_BIT_CAST 1
#endif
#endif
#ifndef ASCSIM_SCALAR_HAS_BIT_CAST
#error "ascsim_scalar.h needs __builtin_bit_cast (clang >= 9 or gcc >= 11)"
#endif

namespace ascsim {
namespace detail {

template <class To, class From>
constexpr To bit_cast(const From& from) noexcept {
    static_assert(sizeof(To) == sizeof(From), "bit_cast: sizes differ");
    return __builtin_bit_cast(To, from);
}

constexpr float f32_from_bits(std::uint32_t b) noexcept { return bit_cast<float>(b); }
constexpr std::uint64_t f64_bits(double d) noexcept { return bit_cast<std::uint64_t>(d); }
constexpr double f64_from_bits(std::uint64_t b) noexcept { return bit_cast<double>(b); }

constexpr std::uint32_t F32_QNAN = 0x7FC00000u;
constexpr std::uint32_t F32_INF = 0x7F800000u;
constexpr std::uint64_t F64_FRAC_MASK = 0x000FFFFFFFFFFFFFull;

// NaN operands of T op T: the result is the first NaN operand, quieted. That is x86 SSE's rule for `a op b`
// (and what numpy computes), made explicit so that a compiler swapping the operands of + or * cannot change
// which payload (and sign) survives.
constexpr bool nan_operand(float a, float b) noexcept { return a != a || b != b; }
constexpr float first_nan(float a, float b) noexcept {
    return f32_from_bits((a != a ? bit_cast<std::uint32_t>(a) : bit_cast<std::uint32_t>(b)) | 0x00400000u);
}

// An integer operand: an integral type or an unscoped enumeration (implicitly convertible to int).
template <class I>
struct is_int_like
    : std::integral_constant<bool, std::is_integral<I>::value ||
                                       (std::is_enum<I>::value && std::is_convertible<I, int>::value)> {};

// A built-in operand of a comparison: a floating-point type or an integer operand.
template <class A>
struct is_cmp_operand
    : std::integral_constant<bool, std::is_floating_point<A>::value || is_int_like<A>::value> {};

// ------------------------------------------------------------------------------------------------
// IEEE-style minifloats: S | E(EB) | M(MB), exponent bias BIAS, subnormals when E == 0.

enum class Special { ieee, fn, finite };  // Inf + NaNs at E all ones | NaN only at S.1..1.1..1 | neither
enum class NanIn { numpy_payload, quiet, zero };  // how a NaN input is encoded
enum class NanOut { payload, quiet };             // how a NaN code is decoded

template <class S, int EB, int MB, int BIAS, Special K, NanIn NI, NanOut NO>
struct minifloat_fmt {
    using storage = S;
    static constexpr int ebits = EB;
    static constexpr int mbits = MB;
    static constexpr int bias = BIAS;
    static constexpr std::uint32_t sign_bit = 1u << (EB + MB);
    static constexpr std::uint32_t code_mask = (sign_bit << 1) - 1u;
    static constexpr std::uint32_t mag_mask = sign_bit - 1u;
    static constexpr std::uint32_t man_mask = (1u << MB) - 1u;
    static constexpr std::uint32_t emax_field = (1u << EB) - 1u;
    static constexpr std::uint32_t inf_code = emax_field << MB;  // Special::ieee only
    static constexpr std::uint32_t max_finite =
        K == Special::ieee ? inf_code - 1u : (K == Special::fn ? mag_mask - 1u : mag_mask);
    static constexpr std::uint32_t qnan_code = K == Special::fn ? mag_mask : (inf_code | (1u << (MB - 1)));

    // m * 2^(1 - BIAS - MB) as float subnormal bits is m << (1 - BIAS - MB + 149); clamped for the formats
    // whose subnormals are all float normals (the branch using it is then never taken)
    static constexpr int float_subnormal_shift =
        (1 - BIAS - MB + 149 >= 0 && 1 - BIAS - MB + 149 < 32) ? 1 - BIAS - MB + 149 : 0;

    static constexpr std::uint32_t overflow(std::uint32_t sign) noexcept {
        return K == Special::ieee ? (sign | inf_code) : (K == Special::fn ? (sign | qnan_code) : (sign | max_finite));
    }

    static constexpr std::uint32_t encode_nan(std::uint32_t sign, std::uint64_t frac) noexcept {
        if (NI == NanIn::zero) return 0u;
        if (NI == NanIn::quiet) return sign | qnan_code;
        // numpy npy_doublebits_to_halfbits: keep the top MB fraction bits, stay a NaN
        std::uint32_t c = inf_code | static_cast<std::uint32_t>(frac >> (52 - MB));
        if ((c & man_mask) == 0u) c |= 1u;
        return sign | c;
    }

    // double -> code: round to nearest even on the format's grid (ascsim `_quantize` + exact cast).
    static constexpr std::uint32_t encode(double x) noexcept {
        const std::uint64_t b = f64_bits(x);
        const std::uint32_t sign = (b >> 63) ? sign_bit : 0u;
        const int dexp = static_cast<int>((b >> 52) & 0x7FFu);
        const std::uint64_t frac = b & F64_FRAC_MASK;
        if (dexp == 0x7FF) return frac != 0 ? encode_nan(sign, frac) : overflow(sign);
        if (dexp == 0) return sign;  // +-0, or a double subnormal: far below half the smallest step
        const int e = dexp - 1023;   // x = sig * 2^(e - 52), sig in [2^52, 2^53)
        const std::uint64_t sig = frac | (1ull << 52);
        const int qe = (e > 1 - BIAS ? e : 1 - BIAS) - MB;  // exponent of the grid step at x
        const int sh = qe - (e - 52);                       // bits of sig below the step (>= 52 - MB)
        if (sh >= 54) return sign;                          // |x| < step / 2
        std::uint64_t n = sig >> sh;
        const std::uint64_t rem = sig & ((1ull << sh) - 1u);
        const std::uint64_t halfway = 1ull << (sh - 1);
        if (rem > halfway || (rem == halfway && (n & 1u))) ++n;
        if (n == 0) return sign;
        // E field = qe + MB + BIAS (1 on the subnormal grid); n's hidden bit carries into E naturally
        const std::int64_t mag = (static_cast<std::int64_t>(qe + MB + BIAS) << MB) + static_cast<std::int64_t>(n) -
                                 (static_cast<std::int64_t>(1) << MB);
        if (mag > static_cast<std::int64_t>(max_finite)) return overflow(sign);
        return sign | static_cast<std::uint32_t>(mag);
    }

    static constexpr float decode(std::uint32_t code) noexcept {
        const std::uint32_t c = code & code_mask;
        const std::uint32_t sign = (c & sign_bit) ? 0x80000000u : 0u;
        const std::uint32_t e = (c >> MB) & emax_field;
        const std::uint32_t m = c & man_mask;
        if (K == Special::ieee && e == emax_field) {
            if (m == 0u) return f32_from_bits(sign | F32_INF);
            return f32_from_bits(NO == NanOut::payload ? (sign | F32_INF | (m << (23 - MB))) : (sign | F32_QNAN));
        }
        if (K == Special::fn && e == emax_field && m == man_mask) return f32_from_bits(sign | F32_QNAN);
        if (e == 0u) {
            if (m == 0u) return f32_from_bits(sign);
            int p = 0;  // highest set bit of m
            while ((m >> (p + 1)) != 0u) ++p;
            const int fe = 1 - BIAS - MB + p;
            if (fe >= -126)
                return f32_from_bits(sign | (static_cast<std::uint32_t>(fe + 127) << 23) | ((m ^ (1u << p)) << (23 - p)));
            return f32_from_bits(sign | (m << float_subnormal_shift));  // a float subnormal (bf16 only)
        }
        const int fe = static_cast<int>(e) - BIAS;
        return f32_from_bits(sign | (static_cast<std::uint32_t>(fe + 127) << 23) | (m << (23 - MB)));
    }

    static constexpr std::uint32_t negate(std::uint32_t code) noexcept { return (code & code_mask) ^ sign_bit; }
};

struct half_fmt : minifloat_fmt<std::uint16_t, 5, 10, 15, Special::ieee, NanIn::numpy_payload, NanOut::payload> {};
struct bf16_fmt : minifloat_fmt<std::uint16_t, 8, 7, 127, Special::ieee, NanIn::quiet, NanOut::payload> {};
struct e4m3fn_fmt : minifloat_fmt<std::uint8_t, 4, 3, 7, Special::fn, NanIn::quiet, NanOut::quiet> {};
struct e5m2_fmt : minifloat_fmt<std::uint8_t, 5, 2, 15, Special::ieee, NanIn::quiet, NanOut::quiet> {};
struct e2m1_fmt : minifloat_fmt<std::uint8_t, 2, 1, 1, Special::finite, NanIn::zero, NanOut::quiet> {};
struct e1m2_fmt : minifloat_fmt<std::uint8_t, 1, 2, 1, Special::finite, NanIn::zero, NanOut::quiet> {};
struct mx_e4m3_fmt : e4m3fn_fmt {};  // Load2DMX destination tags: same encoding, distinct C++ types
struct mx_e5m2_fmt : e5m2_fmt {};

// ------------------------------------------------------------------------------------------------
// fp8_e8m0_t: 8-bit unsigned exponent, value 2^(E - 127), 0xFF NaN (number-formats section 6).

struct e8m0_fmt {
    using storage = std::uint8_t;
    static constexpr std::uint32_t code_mask = 0xFFu;

    static constexpr std::uint32_t encode(double x) noexcept {
        const std::uint64_t b = f64_bits(x);
        const int dexp = static_cast<int>((b >> 52) & 0x7FFu);
        const std::uint64_t frac = b & F64_FRAC_MASK;
        if (dexp == 0x7FF) return frac != 0 ? 0xFFu : 0xFEu;  // NaN | +-Inf
        if (dexp == 0) return 0x00u;                           // +-0 and double subnormals: below 2^-127
        int code = dexp - 1023 + 127;                          // |x| = 2^(dexp - 1023) * (1 + frac / 2^52)
        const std::uint64_t half_frac = 1ull << 51;           // mantissa 1.5
        if (frac > half_frac || (frac == half_frac && (code & 1))) ++code;
        if (code < 0) code = 0;
        if (code > 0xFE) code = 0xFE;
        return static_cast<std::uint32_t>(code);
    }

    static constexpr float decode(std::uint32_t code) noexcept {
        const std::uint32_t c = code & 0xFFu;
        if (c == 0xFFu) return f32_from_bits(F32_QNAN);
        if (c == 0u) return f32_from_bits(0x00400000u);  // 2^-127, a float subnormal
        return f32_from_bits(c << 23);
    }

    static constexpr std::uint32_t negate(std::uint32_t code) noexcept { return encode(-static_cast<double>(decode(code))); }
};

// ------------------------------------------------------------------------------------------------
// hifloat8_t (HiF8): tapered precision, number-formats section 1.

constexpr float hif8_value(std::uint32_t code) noexcept {
    const std::uint32_t c = code & 0xFFu;
    if (c == 0x80u) return f32_from_bits(F32_QNAN);
    const std::uint32_t sign = (c & 0x80u) ? 0x80000000u : 0u;
    const std::uint32_t b = c & 0x7Fu;
    if (b == 0x6Fu) return f32_from_bits(sign | F32_INF);
    int d = 0;            // stored exponent bits
    std::uint32_t rest = 0;  // E and M fields
    int mb = 3;           // mantissa bits
    if (b >> 5) {
        d = (b >> 5) == 3u ? 4 : ((b >> 5) == 2u ? 3 : 2);
        rest = b & 0x1Fu;
        mb = 5 - d;
    } else if (b >> 4) {
        d = 1;
        rest = b & 0xFu;
    } else if (b >> 3) {
        d = 0;
        rest = b & 0x7u;
    } else {  // Dot 0000: denormal mode, value 2^(M - 23); M = 0 is zero
        const std::uint32_t m = b & 7u;
        if (m == 0u) return f32_from_bits(sign);
        return f32_from_bits(sign | ((m + 104u) << 23));  // exponent field (m - 23) + 127
    }
    const std::uint32_t m = rest & ((1u << mb) - 1u);
    const std::uint32_t ef = rest >> mb;
    int ex = 0;
    if (d > 0) {
        const int mag = static_cast<int>((1u << (d - 1)) | (ef & ((1u << (d - 1)) - 1u)));  // hidden top bit
        ex = (ef >> (d - 1)) ? -mag : mag;                                                  // sign-magnitude
    }
    return f32_from_bits(sign | (static_cast<std::uint32_t>(ex + 127) << 23) | (m << (23 - mb)));
}

struct hif8_tables {
    double mid[127];        // decision points between consecutive positive grid values (sorted)
    std::uint8_t code[128];  // codes of the sorted positive grid (0x00 ... 0x6E, then 0x6F = Inf)
};

constexpr hif8_tables make_hif8_tables() noexcept {
    hif8_tables t{};
    double v[128] = {};
    std::uint8_t k[128] = {};
    int n = 0;
    for (std::uint32_t c = 0; c < 128u; ++c) {
        if (c == 0x6Fu) continue;
        const double val = static_cast<double>(hif8_value(c));
        int i = n++;  // insertion sort by value
        while (i > 0 && v[i - 1] > val) {
            v[i] = v[i - 1];
            k[i] = k[i - 1];
            --i;
        }
        v[i] = val;
        k[i] = static_cast<std::uint8_t>(c);
    }
    v[127] = 1.5 * 32768.0;  // 0x6F (Inf) sits where 1.5 * 2^15 would be: |x| >= 1.25 * 2^15 -> Inf
    k[127] = 0x6Fu;
    for (int i = 0; i < 127; ++i) t.mid[i] = (v[i] + v[i + 1]) / 2.0;
    t.mid[0] = 1.5 / 8388608.0;  // |x| < 1.5 * 2^-23 -> 0x00 (Huawei's reference converter)
    for (int i = 0; i < 128; ++i) t.code[i] = k[i];
    return t;
}

inline constexpr hif8_tables hif8_table = make_hif8_tables();

struct hif8_fmt {
    using storage = std::uint8_t;
    static constexpr std::uint32_t code_mask = 0xFFu;

    static constexpr std::uint32_t encode(double x) noexcept {
        if (x != x) return 0x80u;
        const double a = f64_from_bits(f64_bits(x) & 0x7FFFFFFFFFFFFFFFull);
        int lo = 0, hi = 127;  // number of decision points <= a (ties go up: away from zero)
        while (lo < hi) {
            const int mid = (lo + hi) / 2;
            if (hif8_table.mid[mid] <= a)
                lo = mid + 1;
            else
                hi = mid;
        }
        std::uint32_t code = hif8_table.code[lo];
        if (x < 0 && code != 0u) code |= 0x80u;
        return code;
    }

    static constexpr float decode(std::uint32_t code) noexcept { return hif8_value(code); }

    static constexpr std::uint32_t negate(std::uint32_t code) noexcept { return encode(-static_cast<double>(decode(code))); }
};

}  // namespace detail

// ----------------------------------------------------------------------------------------------------
// The float types.

template <class Fmt>
struct basic_float;

template <class T>
struct is_ascsim_float : std::false_type {};
template <class Fmt>
struct is_ascsim_float<basic_float<Fmt>> : std::true_type {};

#define ASCSIM_SCALAR_ARITH(op)                                                                      \
    friend constexpr basic_float operator op(basic_float a, basic_float b) noexcept {                \
        const float fa = static_cast<float>(a), fb = static_cast<float>(b);                          \
        return basic_float(detail::nan_operand(fa, fb) ? detail::first_nan(fa, fb) : fa op fb);      \
    }                                                                                                \
    template <class I, std::enable_if_t<detail::is_int_like<I>::value, int> = 0>                     \
    friend constexpr basic_float operator op(basic_float a, I b) noexcept {                          \
        const float fa = static_cast<float>(a);                                                      \
        return basic_float(fa != fa ? detail::first_nan(fa, fa) : fa op static_cast<float>(b));      \
    }                                                                                                \
    template <class I, std::enable_if_t<detail::is_int_like<I>::value, int> = 0>                     \
    friend constexpr basic_float operator op(I a, basic_float b) noexcept {                          \
        const float fb = static_cast<float>(b);                                                      \
        return basic_float(fb != fb ? detail::first_nan(fb, fb) : static_cast<float>(a) op fb);      \
    }                                                                                                \
    template <class F, std::enable_if_t<std::is_floating_point<F>::value, int> = 0>                  \
    friend constexpr F operator op(basic_float a, F b) noexcept {                                    \
        return static_cast<F>(static_cast<float>(a)) op b;                                           \
    }                                                                                                \
    template <class F, std::enable_if_t<std::is_floating_point<F>::value, int> = 0>                  \
    friend constexpr F operator op(F a, basic_float b) noexcept {                                    \
        return a op static_cast<F>(static_cast<float>(b));                                           \
    }                                                                                                \
    template <class G, std::enable_if_t<!std::is_same<G, Fmt>::value, int> = 0>                      \
    friend constexpr float operator op(basic_float a, basic_float<G> b) noexcept {                   \
        return static_cast<float>(a) op static_cast<float>(b);                                       \
    }

#define ASCSIM_SCALAR_CMP(op)                                                                        \
    friend constexpr bool operator op(basic_float a, basic_float b) noexcept {                       \
        return static_cast<float>(a) op static_cast<float>(b);                                       \
    }                                                                                                \
    template <class A, std::enable_if_t<detail::is_cmp_operand<A>::value, int> = 0>                  \
    friend constexpr bool operator op(basic_float a, A b) noexcept {                                 \
        using W = std::conditional_t<std::is_floating_point<A>::value, A, double>;                   \
        return static_cast<W>(static_cast<float>(a)) op static_cast<W>(b);                           \
    }                                                                                                \
    template <class A, std::enable_if_t<detail::is_cmp_operand<A>::value, int> = 0>                  \
    friend constexpr bool operator op(A a, basic_float b) noexcept {                                 \
        using W = std::conditional_t<std::is_floating_point<A>::value, A, double>;                   \
        return static_cast<W>(a) op static_cast<W>(static_cast<float>(b));                           \
    }                                                                                                \
    template <class G, std::enable_if_t<!std::is_same<G, Fmt>::value, int> = 0>                      \
    friend constexpr bool operator op(basic_float a, basic_float<G> b) noexcept {                    \
        return static_cast<float>(a) op static_cast<float>(b);                                       \
    }

template <class Fmt>
struct basic_float {
    using format = Fmt;
    using storage_type = typename Fmt::storage;

    storage_type bits;  // the raw code (fp4: the value in bits 3..0)

    basic_float() = default;  // like a built-in float: uninitialised unless value-initialised (T x{})
    constexpr basic_float(float f) noexcept : bits(enc(static_cast<double>(f))) {}
    constexpr basic_float(double d) noexcept : bits(enc(d)) {}
    constexpr basic_float(long double d) noexcept : bits(enc(static_cast<double>(d))) {}
    template <class I, std::enable_if_t<detail::is_int_like<I>::value, int> = 0>
    constexpr basic_float(I i) noexcept : bits(enc(static_cast<double>(i))) {}
    template <class G, std::enable_if_t<!std::is_same<G, Fmt>::value, int> = 0>
    constexpr basic_float(basic_float<G> other) noexcept : bits(enc(static_cast<double>(static_cast<float>(other)))) {}

    static constexpr basic_float from_bits(storage_type b) noexcept {
        basic_float r{};
        r.bits = b;
        return r;
    }
    constexpr storage_type raw() const noexcept { return bits; }
    constexpr void set_raw(storage_type b) noexcept { bits = b; }

    constexpr operator float() const noexcept { return Fmt::decode(bits); }
    // `if (x)`, `x ? a : b`, `!x`: x != 0 as for a float (NaN is true), without a float -> bool conversion
    explicit constexpr operator bool() const noexcept { return Fmt::decode(bits) != 0.0f; }

    ASCSIM_SCALAR_ARITH(+)
    ASCSIM_SCALAR_ARITH(-)
    ASCSIM_SCALAR_ARITH(*)
    ASCSIM_SCALAR_ARITH(/)
    ASCSIM_SCALAR_CMP(==)
    ASCSIM_SCALAR_CMP(!=)
    ASCSIM_SCALAR_CMP(<)
    ASCSIM_SCALAR_CMP(<=)
    ASCSIM_SCALAR_CMP(>)
    ASCSIM_SCALAR_CMP(>=)

    friend constexpr basic_float operator+(basic_float a) noexcept { return a; }
    friend constexpr basic_float operator-(basic_float a) noexcept {
        return from_bits(static_cast<storage_type>(Fmt::negate(a.bits)));
    }

    template <class U>
    constexpr basic_float& operator+=(const U& b) noexcept { return *this = basic_float(*this + b); }
    template <class U>
    constexpr basic_float& operator-=(const U& b) noexcept { return *this = basic_float(*this - b); }
    template <class U>
    constexpr basic_float& operator*=(const U& b) noexcept { return *this = basic_float(*this * b); }
    template <class U>
    constexpr basic_float& operator/=(const U& b) noexcept { return *this = basic_float(*this / b); }
    constexpr basic_float& operator++() noexcept { return *this += 1; }
    constexpr basic_float& operator--() noexcept { return *this -= 1; }
    constexpr basic_float operator++(int) noexcept {
        basic_float old = *this;
        *this += 1;
        return old;
    }
    constexpr basic_float operator--(int) noexcept {
        basic_float old = *this;
        *this -= 1;
        return old;
    }

private:
    static constexpr storage_type enc(double d) noexcept { return static_cast<storage_type>(Fmt::encode(d)); }
};

#undef ASCSIM_SCALAR_ARITH
#undef ASCSIM_SCALAR_CMP

using half = basic_float<detail::half_fmt>;
using bfloat16_t = basic_float<detail::bf16_fmt>;
using fp8_e4m3fn_t = basic_float<detail::e4m3fn_fmt>;
using fp8_e5m2_t = basic_float<detail::e5m2_fmt>;
using hifloat8_t = basic_float<detail::hif8_fmt>;
using fp8_e8m0_t = basic_float<detail::e8m0_fmt>;
using fp4x2_e2m1_t = basic_float<detail::e2m1_fmt>;
using fp4x2_e1m2_t = basic_float<detail::e1m2_fmt>;
using mx_fp8_e4m3_t = basic_float<detail::mx_e4m3_fmt>;
using mx_fp8_e5m2_t = basic_float<detail::mx_e5m2_fmt>;

// ----------------------------------------------------------------------------------------------------
// int4b_t: Ascend C's integer_sub_type<4, true>. No operators of its own, as in Ascend C: arithmetic and
// comparisons go through the implicit conversion to int8_t (so `a + b` is an int); assigning back wraps.

struct int4b_t {
    std::uint8_t bits;  // the value's two's-complement nibble in bits 3..0

    int4b_t() = default;
    template <class I, std::enable_if_t<detail::is_int_like<I>::value, int> = 0>
    constexpr int4b_t(I v) noexcept : bits(static_cast<std::uint8_t>(static_cast<unsigned long long>(v) & 0xFu)) {}
    template <class F, std::enable_if_t<std::is_floating_point<F>::value, int> = 0>
    constexpr int4b_t(F v) noexcept : bits(from_floating(v)) {}
    template <class G>
    constexpr int4b_t(basic_float<G> v) noexcept : bits(from_floating(static_cast<float>(v))) {}

    static constexpr int4b_t from_bits(std::uint8_t b) noexcept {
        int4b_t r{};
        r.bits = b;
        return r;
    }
    constexpr std::uint8_t raw() const noexcept { return bits; }
    constexpr void set_raw(std::uint8_t b) noexcept { bits = b; }

    constexpr operator std::int8_t() const noexcept {  // sign extension
        return static_cast<std::int8_t>(static_cast<int>((bits & 0xFu) ^ 0x8u) - 8);
    }

    template <class U>
    constexpr int4b_t& operator+=(const U& b) noexcept { return *this = int4b_t(static_cast<int>(*this) + b); }
    template <class U>
    constexpr int4b_t& operator-=(const U& b) noexcept { return *this = int4b_t(static_cast<int>(*this) - b); }
    template <class U>
    constexpr int4b_t& operator*=(const U& b) noexcept { return *this = int4b_t(static_cast<int>(*this) * b); }
    template <class U>
    constexpr int4b_t& operator/=(const U& b) noexcept { return *this = int4b_t(static_cast<int>(*this) / b); }
    constexpr int4b_t& operator++() noexcept { return *this += 1; }
    constexpr int4b_t& operator--() noexcept { return *this -= 1; }
    constexpr int4b_t operator++(int) noexcept {
        int4b_t old = *this;
        *this += 1;
        return old;
    }
    constexpr int4b_t operator--(int) noexcept {
        int4b_t old = *this;
        *this -= 1;
        return old;
    }

private:
    template <class F>
    static constexpr std::uint8_t from_floating(F v) noexcept {
        // trunc toward zero, then wrap; NaN, +-Inf and |v| >= 2^63 (no long long value) -> 0
        const F lim = static_cast<F>(9223372036854775808.0);  // 2^63
        if (!(v > -lim && v < lim)) return 0u;
        return static_cast<std::uint8_t>(static_cast<unsigned long long>(static_cast<long long>(v)) & 0xFu);
    }
};

// ----------------------------------------------------------------------------------------------------
// Raw bits and nibble packing.

template <class T>
struct is_ascsim_scalar : std::integral_constant<bool, is_ascsim_float<T>::value || std::is_same<T, int4b_t>::value> {};

template <class T, std::enable_if_t<is_ascsim_scalar<T>::value, int> = 0>
constexpr auto to_bits(T x) noexcept -> decltype(x.bits) {
    return x.bits;
}
template <class T, std::enable_if_t<is_ascsim_scalar<T>::value, int> = 0>
constexpr T from_bits(decltype(T{}.bits) b) noexcept {
    return T::from_bits(b);
}
template <class T, std::enable_if_t<is_ascsim_scalar<T>::value, int> = 0>
constexpr void set_bits(T& x, decltype(T{}.bits) b) noexcept {
    x.bits = b;
}

template <class T>
struct is_nibble_type : std::integral_constant<bool, std::is_same<T, int4b_t>::value ||
                                                         std::is_same<T, fp4x2_e2m1_t>::value ||
                                                         std::is_same<T, fp4x2_e1m2_t>::value> {};

// One byte holding two 4-bit elements: element 0 (`lo`) in bits 3..0, element 1 (`hi`) in bits 7..4.
template <class T, std::enable_if_t<is_nibble_type<T>::value, int> = 0>
constexpr std::uint8_t pack_nibbles(T lo, T hi) noexcept {
    return static_cast<std::uint8_t>((lo.bits & 0xFu) | ((hi.bits & 0xFu) << 4));
}
template <class T, std::enable_if_t<is_nibble_type<T>::value, int> = 0>
constexpr T low_nibble(std::uint8_t byte) noexcept {
    return T::from_bits(static_cast<std::uint8_t>(byte & 0xFu));
}
template <class T, std::enable_if_t<is_nibble_type<T>::value, int> = 0>
constexpr T high_nibble(std::uint8_t byte) noexcept {
    return T::from_bits(static_cast<std::uint8_t>(byte >> 4));
}

static_assert(sizeof(half) == 2 && alignof(half) == 2, "half layout");
static_assert(sizeof(bfloat16_t) == 2 && alignof(bfloat16_t) == 2, "bfloat16_t layout");
static_assert(sizeof(fp8_e4m3fn_t) == 1 && sizeof(fp8_e5m2_t) == 1 && sizeof(hifloat8_t) == 1 &&
                  sizeof(fp8_e8m0_t) == 1 && sizeof(fp4x2_e2m1_t) == 1 && sizeof(fp4x2_e1m2_t) == 1 &&
                  sizeof(mx_fp8_e4m3_t) == 1 && sizeof(mx_fp8_e5m2_t) == 1 && sizeof(int4b_t) == 1,
              "8-bit layouts");
static_assert(std::is_trivially_copyable<half>::value && std::is_standard_layout<half>::value, "half traits");
static_assert(std::is_trivially_copyable<int4b_t>::value && std::is_standard_layout<int4b_t>::value, "int4b_t traits");

}  // namespace ascsim

#ifndef ASCSIM_SCALAR_NO_GLOBAL_NAMES
using ascsim::bfloat16_t;
using ascsim::fp4x2_e1m2_t;
using ascsim::fp4x2_e2m1_t;
using ascsim::fp8_e4m3fn_t;
using ascsim::fp8_e5m2_t;
using ascsim::fp8_e8m0_t;
using ascsim::half;
using ascsim::hifloat8_t;
using ascsim::int4b_t;
using ascsim::mx_fp8_e4m3_t;
using ascsim::mx_fp8_e5m2_t;
namespace AscendC {
using ::ascsim::bfloat16_t;
using ::ascsim::fp4x2_e1m2_t;
using ::ascsim::fp4x2_e2m1_t;
using ::ascsim::fp8_e4m3fn_t;
using ::ascsim::fp8_e5m2_t;
using ::ascsim::fp8_e8m0_t;
using ::ascsim::half;
using ::ascsim::hifloat8_t;
using ::ascsim::int4b_t;
using ::ascsim::mx_fp8_e4m3_t;
using ::ascsim::mx_fp8_e5m2_t;
}  // namespace AscendC
#endif

#endif  // ASCSIM_SCALAR_H
