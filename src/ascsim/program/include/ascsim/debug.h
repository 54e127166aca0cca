// printf and DumpTensor on the device: printf prints at once; DumpTensor asks the engine for the
// tensor's values (they live there) and prints them. Written for ascsim.
#pragma once

#include <cassert>
#include <cstdio>
#include <cstdlib>

#include "ascsim/encode.h"
#include "ascsim/tensor.h"

namespace AscendC {
template <class... Args>
__aicore__ inline void printf(const char* fmt, Args... args) {
    std::printf(fmt, args...);
}
template <class... Args>
__aicore__ inline void PRINTF(const char* fmt, Args... args) {
    std::printf(fmt, args...);
}
template <class T>
__aicore__ inline void DumpTensor(const LocalTensor<T>& t, uint32_t desc, uint32_t dumpSize, ASCSIM_SITE) {
    ::ascsim::rt::Call c("dump_tensor", ascsim_site);
    ::ascsim::rt::put(c, t);
    c.u64(desc).u64(dumpSize);
    static char text[1 << 16];
    size_t n = c.send_for_value(text, sizeof text - 1);
    text[n] = 0;
    std::fputs(text, stdout);
}
template <class T>
__aicore__ inline void DumpTensor(const GlobalTensor<T>& t, uint32_t desc, uint32_t dumpSize, ASCSIM_SITE) {
    ::ascsim::rt::Call c("dump_tensor", ascsim_site);
    ::ascsim::rt::put(c, t);
    c.u64(desc).u64(dumpSize);
    static char text[1 << 16];
    size_t n = c.send_for_value(text, sizeof text - 1);
    text[n] = 0;
    std::fputs(text, stdout);
}
}  // namespace AscendC

// assert / ascendc_assert on the device: the C++ API takes `assert(expr)` and `assert(expr, fmt, args...)`
// from kernel_operator.h (it includes <cassert>, then redefines both as variadic macros, compiled out under
// NDEBUG or ASCENDC_DUMP == 0: asc-devkit include/utils/debug/asc_assert.h:23,52-59). ascsim's version
// prints the failed condition (and the message) and aborts, which the run reports as SIGABRT.
namespace ascsim {
namespace rt {
[[noreturn]] inline void assert_failed(const char* expr, const char* file, int line, const char* func) {
    std::fprintf(stderr, "%s:%d: %s: Assertion `%s' failed.\n", file, line, func, expr);
    std::fflush(stderr);
    std::abort();
}
template <class... Args>
[[noreturn]] inline void assert_failed(const char* expr, const char* file, int line, const char* func,
                                       const char* fmt, Args... args) {
    std::fprintf(stderr, "%s:%d: %s: Assertion `%s' failed: ", file, line, func, expr);
    std::fprintf(stderr, fmt, args...);
    std::fputc('\n', stderr);
    std::fflush(stderr);
    std::abort();
}
}  // namespace rt
}  // namespace ascsim
#undef assert
#undef ascendc_assert
#if !(defined(ASCENDC_DUMP) && ASCENDC_DUMP == 0) && !defined(NDEBUG)
#define ASCSIM_ASSERT_COND(expr, ...) expr
#define ASCSIM_ASSERT_REST(expr, ...) , ##__VA_ARGS__
#define assert(...)                                                                                  \
    (static_cast<bool>(ASCSIM_ASSERT_COND(__VA_ARGS__, 0)) ? void(0)                                 \
        : ::ascsim::rt::assert_failed(ASCSIM_ASSERT_TEXT(__VA_ARGS__), __FILE__, __LINE__,            \
                                      __PRETTY_FUNCTION__ ASCSIM_ASSERT_REST(__VA_ARGS__)))
#define ASCSIM_ASSERT_TEXT(expr, ...) #expr
#define ascendc_assert(...) assert(__VA_ARGS__)
#else
#define assert(...) ((void)0)
#define ascendc_assert(...) ((void)0)
#endif
