// How C++ values become bridge arguments: scalars, enums (by name), element types (by ascsim's dtype
// name), params structs (by their reflected fields) and arrays. Written for ascsim.
#pragma once

#include <cstdint>
#include <cstring>
#include <type_traits>

#include "ascsim/bridge.h"

namespace ascsim {
namespace rt {

// ---- element types: the dtype name the engine knows them by (ascsim.machine.dtypes) -------------------
template <class T, class = void>
struct TypeName {
    static constexpr const char* value = "unknown";
};
#define ASCSIM_TYPE_NAME(T, NAME)                   \
    template <>                                     \
    struct TypeName<T, void> {                      \
        static constexpr const char* value = NAME;  \
    };
ASCSIM_TYPE_NAME(int8_t, "int8_t")
ASCSIM_TYPE_NAME(uint8_t, "uint8_t")
ASCSIM_TYPE_NAME(int16_t, "int16_t")
ASCSIM_TYPE_NAME(uint16_t, "uint16_t")
ASCSIM_TYPE_NAME(int32_t, "int32_t")
ASCSIM_TYPE_NAME(uint32_t, "uint32_t")
ASCSIM_TYPE_NAME(int64_t, "int64_t")
ASCSIM_TYPE_NAME(uint64_t, "uint64_t")
ASCSIM_TYPE_NAME(float, "float")
ASCSIM_TYPE_NAME(double, "double")
ASCSIM_TYPE_NAME(bool, "bool")
ASCSIM_TYPE_NAME(void, "uint8_t")
template <class T>
struct TypeName<const T, void> : TypeName<T> {};
// (outside namespace ascsim::rt, for types declared elsewhere)
#define ASCSIM_TYPE_NAME_OUTER(T, NAME) \
    namespace ascsim {                  \
    namespace rt {                      \
    ASCSIM_TYPE_NAME(T, NAME)           \
    }                                   \
    }

template <class T>
constexpr const char* type_name() {
    return TypeName<typename std::remove_cv<T>::type>::value;
}

// ---- enums: sent by type and member name (the engine takes enums by name) ------------------------------
// An enum with an EnumNames specialisation goes by name; any other enum by its value.
template <class E>
struct EnumNames {
    static constexpr const char* type = nullptr;
    static const char* name(E) { return nullptr; }
};

// ---- params structs: a Reflect specialisation lists the fields in declaration order ----------------------
template <class S, class = void>
struct Reflect {
    static constexpr bool defined = false;
};

template <class T, class = void>
struct IsReflected : std::false_type {};
template <class T>
struct IsReflected<T, typename std::enable_if<Reflect<T>::defined>::type> : std::true_type {};

// ---- put: one argument ---------------------------------------------------------------------------------------
struct None {};

inline void put(Call& c, None) { c.none(); }
inline void put(Call& c, std::nullptr_t) { c.none(); }
inline void put(Call& c, bool v) { c.boolean(v); }
inline void put(Call& c, const char* s) { c.str(s); }

template <class T>
typename std::enable_if<std::is_integral<T>::value && !std::is_same<T, bool>::value>::type put(Call& c, T v) {
    if (std::is_signed<T>::value)
        c.i64(static_cast<long long>(v));
    else
        c.u64(static_cast<unsigned long long>(v));
}

template <class T>
typename std::enable_if<std::is_floating_point<T>::value>::type put(Call& c, T v) {
    c.f64(static_cast<double>(v));
}

template <class E>
typename std::enable_if<std::is_enum<E>::value>::type put(Call& c, E v) {
    const char* n = EnumNames<E>::name(v);
    if (EnumNames<E>::type && n)
        c.enumv(EnumNames<E>::type, n);
    else
        c.i64(static_cast<long long>(v));
}

// An element type with a raw-bits representation (half, bfloat16_t, the fp8 / fp4 types, int4b_t): its bits.
template <class T>
auto put(Call& c, const T& v) -> decltype(v.raw(), void()) {
    c.bits(type_name<T>(), static_cast<unsigned long long>(v.raw()));
}

template <class T, size_t N>
void put(Call& c, const T (&a)[N]) {
    c.array_begin(static_cast<unsigned>(N));
    for (size_t i = 0; i < N; ++i) put(c, a[i]);
}

template <class S>
typename std::enable_if<IsReflected<S>::value>::type put(Call& c, const S& s) {
    static const unsigned id = struct_type(Reflect<S>::name, Reflect<S>::fields);
    c.struct_begin(id);
    Reflect<S>::each(s, [&c](const auto& field) { put(c, field); });
}

}  // namespace rt
}  // namespace ascsim

// ---- the reflection macros --------------------------------------------------------------------------------
// ASCSIM_REFLECT(Type, field, field, ...) for a plain struct; ASCSIM_REFLECT_T((template <class T>),
// (Type<T>), "Type", field, ...) for a class template. Up to 64 fields (or enum members).
#define ASCSIM_PP_CAT_(a, b) a##b
#define ASCSIM_PP_CAT(a, b) ASCSIM_PP_CAT_(a, b)
// clang-format off
#define ASCSIM_PP_NARG(...) ASCSIM_PP_NARG_(__VA_ARGS__, ASCSIM_PP_RSEQ())
#define ASCSIM_PP_NARG_(...) ASCSIM_PP_ARG_N(__VA_ARGS__)
#define ASCSIM_PP_ARG_N(_1, _2, _3, _4, _5, _6, _7, _8, _9, _10, _11, _12, _13, _14, _15, _16, _17, _18, _19, _20, _21, _22, _23, _24, _25, _26, _27, _28, _29, _30, _31, _32, _33, _34, _35, _36, _37, _38, _39, _40, _41, _42, _43, _44, _45, _46, _47, _48, _49, _50, _51, _52, _53, _54, _55, _56, _57, _58, _59, _60, _61, _62, _63, _64, N, ...) N
#define ASCSIM_PP_RSEQ() 64, 63, 62, 61, 60, 59, 58, 57, 56, 55, 54, 53, 52, 51, 50, 49, 48, 47, 46, 45, 44, 43, 42, 41, 40, 39, 38, 37, 36, 35, 34, 33, 32, 31, 30, 29, 28, 27, 26, 25, 24, 23, 22, 21, 20, 19, 18, 17, 16, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0
#define ASCSIM_F1(m, x) m(x)
#define ASCSIM_F2(m, x, ...) m(x) ASCSIM_F1(m, __VA_ARGS__)
#define ASCSIM_F3(m, x, ...) m(x) ASCSIM_F2(m, __VA_ARGS__)
#define ASCSIM_F4(m, x, ...) m(x) ASCSIM_F3(m, __VA_ARGS__)
#define ASCSIM_F5(m, x, ...) m(x) ASCSIM_F4(m, __VA_ARGS__)
#define ASCSIM_F6(m, x, ...) m(x) ASCSIM_F5(m, __VA_ARGS__)
#define ASCSIM_F7(m, x, ...) m(x) ASCSIM_F6(m, __VA_ARGS__)
#define ASCSIM_F8(m, x, ...) m(x) ASCSIM_F7(m, __VA_ARGS__)
#define ASCSIM_F9(m, x, ...) m(x) ASCSIM_F8(m, __VA_ARGS__)
#define ASCSIM_F10(m, x, ...) m(x) ASCSIM_F9(m, __VA_ARGS__)
#define ASCSIM_F11(m, x, ...) m(x) ASCSIM_F10(m, __VA_ARGS__)
#define ASCSIM_F12(m, x, ...) m(x) ASCSIM_F11(m, __VA_ARGS__)
#define ASCSIM_F13(m, x, ...) m(x) ASCSIM_F12(m, __VA_ARGS__)
#define ASCSIM_F14(m, x, ...) m(x) ASCSIM_F13(m, __VA_ARGS__)
#define ASCSIM_F15(m, x, ...) m(x) ASCSIM_F14(m, __VA_ARGS__)
#define ASCSIM_F16(m, x, ...) m(x) ASCSIM_F15(m, __VA_ARGS__)
#define ASCSIM_F17(m, x, ...) m(x) ASCSIM_F16(m, __VA_ARGS__)
#define ASCSIM_F18(m, x, ...) m(x) ASCSIM_F17(m, __VA_ARGS__)
#define ASCSIM_F19(m, x, ...) m(x) ASCSIM_F18(m, __VA_ARGS__)
#define ASCSIM_F20(m, x, ...) m(x) ASCSIM_F19(m, __VA_ARGS__)
#define ASCSIM_F21(m, x, ...) m(x) ASCSIM_F20(m, __VA_ARGS__)
#define ASCSIM_F22(m, x, ...) m(x) ASCSIM_F21(m, __VA_ARGS__)
#define ASCSIM_F23(m, x, ...) m(x) ASCSIM_F22(m, __VA_ARGS__)
#define ASCSIM_F24(m, x, ...) m(x) ASCSIM_F23(m, __VA_ARGS__)
#define ASCSIM_F25(m, x, ...) m(x) ASCSIM_F24(m, __VA_ARGS__)
#define ASCSIM_F26(m, x, ...) m(x) ASCSIM_F25(m, __VA_ARGS__)
#define ASCSIM_F27(m, x, ...) m(x) ASCSIM_F26(m, __VA_ARGS__)
#define ASCSIM_F28(m, x, ...) m(x) ASCSIM_F27(m, __VA_ARGS__)
#define ASCSIM_F29(m, x, ...) m(x) ASCSIM_F28(m, __VA_ARGS__)
#define ASCSIM_F30(m, x, ...) m(x) ASCSIM_F29(m, __VA_ARGS__)
#define ASCSIM_F31(m, x, ...) m(x) ASCSIM_F30(m, __VA_ARGS__)
#define ASCSIM_F32(m, x, ...) m(x) ASCSIM_F31(m, __VA_ARGS__)
#define ASCSIM_F33(m, x, ...) m(x) ASCSIM_F32(m, __VA_ARGS__)
#define ASCSIM_F34(m, x, ...) m(x) ASCSIM_F33(m, __VA_ARGS__)
#define ASCSIM_F35(m, x, ...) m(x) ASCSIM_F34(m, __VA_ARGS__)
#define ASCSIM_F36(m, x, ...) m(x) ASCSIM_F35(m, __VA_ARGS__)
#define ASCSIM_F37(m, x, ...) m(x) ASCSIM_F36(m, __VA_ARGS__)
#define ASCSIM_F38(m, x, ...) m(x) ASCSIM_F37(m, __VA_ARGS__)
#define ASCSIM_F39(m, x, ...) m(x) ASCSIM_F38(m, __VA_ARGS__)
#define ASCSIM_F40(m, x, ...) m(x) ASCSIM_F39(m, __VA_ARGS__)
#define ASCSIM_F41(m, x, ...) m(x) ASCSIM_F40(m, __VA_ARGS__)
#define ASCSIM_F42(m, x, ...) m(x) ASCSIM_F41(m, __VA_ARGS__)
#define ASCSIM_F43(m, x, ...) m(x) ASCSIM_F42(m, __VA_ARGS__)
#define ASCSIM_F44(m, x, ...) m(x) ASCSIM_F43(m, __VA_ARGS__)
#define ASCSIM_F45(m, x, ...) m(x) ASCSIM_F44(m, __VA_ARGS__)
#define ASCSIM_F46(m, x, ...) m(x) ASCSIM_F45(m, __VA_ARGS__)
#define ASCSIM_F47(m, x, ...) m(x) ASCSIM_F46(m, __VA_ARGS__)
#define ASCSIM_F48(m, x, ...) m(x) ASCSIM_F47(m, __VA_ARGS__)
#define ASCSIM_F49(m, x, ...) m(x) ASCSIM_F48(m, __VA_ARGS__)
#define ASCSIM_F50(m, x, ...) m(x) ASCSIM_F49(m, __VA_ARGS__)
#define ASCSIM_F51(m, x, ...) m(x) ASCSIM_F50(m, __VA_ARGS__)
#define ASCSIM_F52(m, x, ...) m(x) ASCSIM_F51(m, __VA_ARGS__)
#define ASCSIM_F53(m, x, ...) m(x) ASCSIM_F52(m, __VA_ARGS__)
#define ASCSIM_F54(m, x, ...) m(x) ASCSIM_F53(m, __VA_ARGS__)
#define ASCSIM_F55(m, x, ...) m(x) ASCSIM_F54(m, __VA_ARGS__)
#define ASCSIM_F56(m, x, ...) m(x) ASCSIM_F55(m, __VA_ARGS__)
#define ASCSIM_F57(m, x, ...) m(x) ASCSIM_F56(m, __VA_ARGS__)
#define ASCSIM_F58(m, x, ...) m(x) ASCSIM_F57(m, __VA_ARGS__)
#define ASCSIM_F59(m, x, ...) m(x) ASCSIM_F58(m, __VA_ARGS__)
#define ASCSIM_F60(m, x, ...) m(x) ASCSIM_F59(m, __VA_ARGS__)
#define ASCSIM_F61(m, x, ...) m(x) ASCSIM_F60(m, __VA_ARGS__)
#define ASCSIM_F62(m, x, ...) m(x) ASCSIM_F61(m, __VA_ARGS__)
#define ASCSIM_F63(m, x, ...) m(x) ASCSIM_F62(m, __VA_ARGS__)
#define ASCSIM_F64(m, x, ...) m(x) ASCSIM_F63(m, __VA_ARGS__)
// clang-format on
#define ASCSIM_FOR_EACH(m, ...) ASCSIM_PP_CAT(ASCSIM_F, ASCSIM_PP_NARG(__VA_ARGS__))(m, __VA_ARGS__)
#define ASCSIM_REFLECT_FIELD_(f) g(s.f);
#define ASCSIM_PP_UNPAREN_(...) __VA_ARGS__
#define ASCSIM_PP_UNPAREN(x) ASCSIM_PP_UNPAREN_ x

#define ASCSIM_REFLECT(T, ...)                                       \
    namespace ascsim {                                               \
    namespace rt {                                                   \
    template <>                                                      \
    struct Reflect<T, void> {                                        \
        static constexpr bool defined = true;                        \
        static constexpr const char* name = #T;                      \
        static constexpr const char* fields = #__VA_ARGS__;          \
        template <class G>                                           \
        static void each(const T& s, G&& g) {                        \
            ASCSIM_FOR_EACH(ASCSIM_REFLECT_FIELD_, __VA_ARGS__)      \
        }                                                            \
    };                                                               \
    }                                                                \
    }

#define ASCSIM_REFLECT_T(TPL, T, NAME, ...)                              \
    namespace ascsim {                                                   \
    namespace rt {                                                       \
    ASCSIM_PP_UNPAREN(TPL)                                               \
    struct Reflect<ASCSIM_PP_UNPAREN(T), void> {                         \
        static constexpr bool defined = true;                            \
        static constexpr const char* name = NAME;                        \
        static constexpr const char* fields = #__VA_ARGS__;              \
        template <class G>                                               \
        static void each(const ASCSIM_PP_UNPAREN(T) & s, G&& g) {        \
            ASCSIM_FOR_EACH(ASCSIM_REFLECT_FIELD_, __VA_ARGS__)          \
        }                                                                \
    };                                                                   \
    }                                                                    \
    }

// ASCSIM_ENUM_NAMES(Type, "TypeName", A, B, C...): members by name for the bridge (values may be sparse).
#define ASCSIM_ENUM_CASE_(m) \
    case E::m:               \
        return #m;
#define ASCSIM_ENUM_NAMES(T, NAME, ...)                                  \
    namespace ascsim {                                                   \
    namespace rt {                                                       \
    template <>                                                          \
    struct EnumNames<T> {                                                \
        using E = T;                                                     \
        static constexpr const char* type = NAME;                        \
        static const char* name(E v) {                                   \
            switch (v) { ASCSIM_FOR_EACH(ASCSIM_ENUM_CASE_, __VA_ARGS__) \
                default: return nullptr; }                               \
        }                                                                \
    };                                                                   \
    }                                                                    \
    }
