// acl/acl.h, as ascsim provides it: the host runtime calls Ascend C programs use, on the simulated device.
// Devices, contexts and streams are tokens (one device, execution is synchronous); device memory is the
// engine's GM, shared with this process, so aclrtMemcpy is a memcpy. Written for ascsim from the calls'
// documented behaviour (docs/cpp.md "Host runtime").
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "ascsim/bridge.h"

typedef int aclError;
typedef void* aclrtStream;
typedef void* aclrtContext;
typedef void* aclrtEvent;
typedef int32_t aclrtRunMode;

constexpr aclError ACL_SUCCESS = 0;
constexpr aclError ACL_ERROR_NONE = 0;
constexpr aclError ACL_ERROR_INVALID_PARAM = 100000;
constexpr aclError ACL_ERROR_RT_PARAM_INVALID = 107000;
constexpr aclError ACL_ERROR_BAD_ALLOC = 200000;

enum aclrtMemMallocPolicy {
    ACL_MEM_MALLOC_HUGE_FIRST = 0,
    ACL_MEM_MALLOC_HUGE_ONLY,
    ACL_MEM_MALLOC_NORMAL_ONLY,
    ACL_MEM_MALLOC_HUGE_FIRST_P2P,
    ACL_MEM_MALLOC_HUGE_ONLY_P2P,
    ACL_MEM_MALLOC_NORMAL_ONLY_P2P,
};
enum aclrtMemcpyKind {
    ACL_MEMCPY_HOST_TO_HOST = 0,
    ACL_MEMCPY_HOST_TO_DEVICE,
    ACL_MEMCPY_DEVICE_TO_HOST,
    ACL_MEMCPY_DEVICE_TO_DEVICE,
    ACL_MEMCPY_DEFAULT,
};

namespace ascsim {
namespace rt {
inline aclError memcpy_checked(void* dst, size_t destMax, const void* src, size_t count, aclrtMemcpyKind kind) {
    if (count > destMax || (count && (!dst || !src))) return ACL_ERROR_INVALID_PARAM;
    bool dst_dev = kind == ACL_MEMCPY_HOST_TO_DEVICE || kind == ACL_MEMCPY_DEVICE_TO_DEVICE;
    bool src_dev = kind == ACL_MEMCPY_DEVICE_TO_HOST || kind == ACL_MEMCPY_DEVICE_TO_DEVICE;
    if (kind == ACL_MEMCPY_DEFAULT) {
        dst_dev = gm_contains(dst, count);
        src_dev = gm_contains(src, count);
    }
    if ((dst_dev && !gm_contains(dst, count)) || (src_dev && !gm_contains(src, count))) {
        std::fprintf(stderr, "aclrtMemcpy: %zu bytes %s device memory outside every aclrtMalloc allocation\n", count,
                     dst_dev && !gm_contains(dst, count) ? "to" : "from");
        return ACL_ERROR_RT_PARAM_INVALID;
    }
    std::memmove(dst, src, count);
    return ACL_SUCCESS;
}
}  // namespace rt
}  // namespace ascsim

inline aclError aclInit(const char* = nullptr) { return ACL_SUCCESS; }
inline aclError aclFinalize() { return ACL_SUCCESS; }
inline aclError aclrtSetDevice(int32_t) { return ACL_SUCCESS; }
inline aclError aclrtResetDevice(int32_t) { return ACL_SUCCESS; }
inline aclError aclrtGetDevice(int32_t* id) {
    if (id) *id = 0;
    return ACL_SUCCESS;
}
inline aclError aclrtGetDeviceCount(uint32_t* n) {
    if (n) *n = 1;
    return ACL_SUCCESS;
}
inline aclError aclrtCreateContext(aclrtContext* ctx, int32_t) {
    static int token;
    if (ctx) *ctx = &token;
    return ACL_SUCCESS;
}
inline aclError aclrtDestroyContext(aclrtContext) { return ACL_SUCCESS; }
inline aclError aclrtSetCurrentContext(aclrtContext) { return ACL_SUCCESS; }
inline aclError aclrtCreateStream(aclrtStream* stream) {
    static int token;
    if (stream) *stream = &token;
    return ACL_SUCCESS;
}
inline aclError aclrtDestroyStream(aclrtStream) { return ACL_SUCCESS; }
inline aclError aclrtSynchronizeStream(aclrtStream, ASCSIM_SITE) {
    ::ascsim::rt::gm_sync(ascsim_site);
    return ACL_SUCCESS;
}
inline aclError aclrtSynchronizeDevice(ASCSIM_SITE) {
    ::ascsim::rt::gm_sync(ascsim_site);
    return ACL_SUCCESS;
}
inline aclError aclrtMalloc(void** ptr, size_t size, aclrtMemMallocPolicy = ACL_MEM_MALLOC_HUGE_FIRST, ASCSIM_SITE) {
    if (!ptr) return ACL_ERROR_INVALID_PARAM;
    *ptr = ::ascsim::rt::gm_malloc(size, ascsim_site);
    return *ptr ? ACL_SUCCESS : ACL_ERROR_BAD_ALLOC;
}
inline aclError aclrtFree(void* ptr, ASCSIM_SITE) {
    return ::ascsim::rt::gm_free(ptr, ascsim_site) == 0 ? ACL_SUCCESS : ACL_ERROR_INVALID_PARAM;
}
inline aclError aclrtMallocHost(void** ptr, size_t size) {
    if (!ptr) return ACL_ERROR_INVALID_PARAM;
    *ptr = std::malloc(size ? size : 1);
    return *ptr ? ACL_SUCCESS : ACL_ERROR_BAD_ALLOC;
}
inline aclError aclrtFreeHost(void* ptr) {
    std::free(ptr);
    return ACL_SUCCESS;
}
inline aclError aclrtMemcpy(void* dst, size_t destMax, const void* src, size_t count, aclrtMemcpyKind kind) {
    return ::ascsim::rt::memcpy_checked(dst, destMax, src, count, kind);
}
inline aclError aclrtMemcpyAsync(void* dst, size_t destMax, const void* src, size_t count, aclrtMemcpyKind kind,
                                 aclrtStream) {
    return ::ascsim::rt::memcpy_checked(dst, destMax, src, count, kind);
}
inline aclError aclrtMemset(void* dst, size_t destMax, int32_t value, size_t count) {
    if (count > destMax || !::ascsim::rt::gm_contains(dst, count)) return ACL_ERROR_INVALID_PARAM;
    std::memset(dst, value, count);
    return ACL_SUCCESS;
}
// The FFTS address catlass passes to mix kernels on 2201; the engine's cross-core flags need none.
inline aclError aclrtGetHardwareSyncAddr(void** addr) {
    if (addr) *addr = nullptr;
    return ACL_SUCCESS;
}
inline const char* aclGetRecentErrMsg() { return ""; }
