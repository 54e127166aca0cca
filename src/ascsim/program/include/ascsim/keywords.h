// The bisheng (CCE) keywords and macros an Ascend C source uses, made plain C++ for a CPU build.
// Written for ascsim. Memory-space qualifiers carry no meaning here: every address a program holds is
// a host address (GM) or a byte offset inside a simulated on-chip buffer (LocalTensor).
#pragma once

#include <cstdint>

#define __aicore__
#define __global__ __attribute__((annotate("ascsim.global")))
#define __forceinline__ inline
#define __gm__
#define __ubuf__
#define __cbuf__
#define __ca__
#define __cb__
#define __cc__
#define __fbuf__
#define __ssbuf__
#define __BLOCK_LOCAL__
#define __WORKGROUP_LOCAL__
#define __inout_pipe__(x)
#define __in_pipe__(x)
#define __out_pipe__(x)
#define __simd_vf__
#define __simd_callee__
#define __cube__
#define __vector__ __attribute__((annotate("ascsim.vector")))  // a vector-core kernel: ascsim refuses it
#define __mix__(a, b)
#define __sync_alias__
#define __sync_noalias__
#define __check_sync_alias__

#define GM_ADDR __gm__ uint8_t*
// The kernel type (Kernel-Tiling/设置Kernel类型): an AIV-only kernel runs on the vector cores, which ascsim
// does not model, so saying so stops the run; the others run their cube (AIC) side.
enum KernelMetaType {
    KERNEL_TYPE_AIV_ONLY = 0,
    KERNEL_TYPE_AIC_ONLY,
    KERNEL_TYPE_MIX_AIV_1_0,
    KERNEL_TYPE_MIX_AIC_1_0,
    KERNEL_TYPE_MIX_AIC_1_1,
    KERNEL_TYPE_MIX_AIC_1_2,
    KERNEL_TYPE_AICORE,
    KERNEL_TYPE_VECTORCORE,
    KERNEL_TYPE_MIX_AICORE,
    KERNEL_TYPE_MIX_VECTOR_CORE,
    KERNEL_TYPE_MAX,
};
namespace ascsim {
namespace rt {
void kernel_type(int type, const char* file, unsigned line);
}
}  // namespace ascsim
#define KERNEL_TASK_TYPE(key, value) ::ascsim::rt::kernel_type(value, __FILE__, __LINE__)
#define KERNEL_TASK_TYPE_DEFAULT(value) ::ascsim::rt::kernel_type(value, __FILE__, __LINE__)
#define ENABLE_FEATURE_FOR_COMPILE(...)

#ifndef likely
#define likely(x) __builtin_expect(!!(x), 1)
#endif
#ifndef unlikely
#define unlikely(x) __builtin_expect(!!(x), 0)
#endif

// The device compiler's scalar min / max, which device code calls unqualified (catlass
// gemm/block/block_swizzle.hpp: min(streamkBlocks * loopsMNK.k(), blockDim)). Plain functions per scalar
// type, so a template a program brings into scope (std::min, tla::min) is preferred only where it fits
// better.
#define ASCSIM_SCALAR_MIN_MAX(T)                                                   \
    __aicore__ constexpr inline T min(T a, T b) { return a < b ? a : b; }          \
    __aicore__ constexpr inline T max(T a, T b) { return a > b ? a : b; }
ASCSIM_SCALAR_MIN_MAX(int32_t)
ASCSIM_SCALAR_MIN_MAX(uint32_t)
ASCSIM_SCALAR_MIN_MAX(int64_t)
ASCSIM_SCALAR_MIN_MAX(uint64_t)
ASCSIM_SCALAR_MIN_MAX(float)
#undef ASCSIM_SCALAR_MIN_MAX
