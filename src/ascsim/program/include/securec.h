// securec.h, as ascsim provides it: the bounds-checked memory functions of the secure C library that CANN
// host programs include (catlass examples/58_ascend950_fp8_mx_batch_matmul includes it). Written for
// ascsim: each returns EOK (0) on success and a nonzero error when the destination is null or too small.
#pragma once

#include <cstddef>
#include <cstring>

typedef int errno_t;
#ifndef EOK
#define EOK 0
#endif

inline errno_t memcpy_s(void* dest, size_t destMax, const void* src, size_t count) {
    if (dest == nullptr || src == nullptr || count > destMax) return 1;
    std::memcpy(dest, src, count);
    return EOK;
}
inline errno_t memmove_s(void* dest, size_t destMax, const void* src, size_t count) {
    if (dest == nullptr || src == nullptr || count > destMax) return 1;
    std::memmove(dest, src, count);
    return EOK;
}
inline errno_t memset_s(void* dest, size_t destMax, int c, size_t count) {
    if (dest == nullptr || count > destMax) return 1;
    std::memset(dest, c, count);
    return EOK;
}
