// The bisheng (CCE) keywords and macros an Ascend C source uses, made plain C++ for a CPU build.
// Written for ascsim. Memory-space qualifiers carry no meaning here: every address a program holds is
// a host address (GM) or a byte offset inside a simulated on-chip buffer (LocalTensor).
#pragma once

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
#define __vector__
#define __mix__(a, b)
#define __sync_alias__
#define __sync_noalias__
#define __check_sync_alias__

#define GM_ADDR __gm__ uint8_t*
#define KERNEL_TASK_TYPE(key, value)
#define KERNEL_TASK_TYPE_DEFAULT(value)
#define ENABLE_FEATURE_FOR_COMPILE(...)

#ifndef likely
#define likely(x) __builtin_expect(!!(x), 1)
#endif
#ifndef unlikely
#define unlikely(x) __builtin_expect(!!(x), 0)
#endif
