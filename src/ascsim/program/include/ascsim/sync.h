// In-core and cross-core synchronisation, system variables and the SoC reset: the engine's sync checker
// sees every flag (docs/cpp.md "Checks"). Written for ascsim from the sync pages (同步控制/) and the C++
// API's declarations.
#pragma once

#include <cstdint>
#include <cstdio>

#include "ascsim/encode.h"
#include "ascsim/enums.h"
#include "ascsim/tensor.h"

namespace ascsim {
namespace rt {
inline void flag(const char* op, ::AscendC::HardEvent event, int32_t id, const char* origin, Site site) {
    Call c(op, site);
    put(c, event);
    c.i64(id).str(origin);
    c.send();
}
}  // namespace rt
}  // namespace ascsim

namespace AscendC {

template <HardEvent event>
__aicore__ inline void SetFlag(int32_t eventID, ASCSIM_SITE) {
    ::ascsim::rt::flag("set_flag", event, eventID, "SetFlag", ascsim_site);
}
template <HardEvent event>
__aicore__ inline void WaitFlag(int32_t eventID, ASCSIM_SITE) {
    ::ascsim::rt::flag("wait_flag", event, eventID, "WaitFlag", ascsim_site);
}
template <pipe_t pipe>
__aicore__ inline void PipeBarrier(ASCSIM_SITE) {
#if ASCSIM_ARCH_3510
    static_assert(pipe != PIPE_S, "PipeBarrier<PIPE_S> is not supported (PipeBarrier(ISASI).md)");
#endif
    ::ascsim::rt::Call c("pipe_barrier", ascsim_site);
    ::ascsim::rt::put(c, pipe);
    c.send();
}
template <MemDsbT arg0>
__aicore__ inline void DataSyncBarrier(ASCSIM_SITE) {
    ::ascsim::rt::not_modelled("DataSyncBarrier", ascsim_site);
}

template <pipe_t src, pipe_t dst>
class TQueSync {
public:
    __aicore__ inline void SetFlag(TEventID id, ASCSIM_SITE) {
        static_assert(src != dst, "TQueSync: the two pipes must differ");
        ::ascsim::rt::Call c("pipe_flag", ascsim_site);
        ::ascsim::rt::put(c, src);
        ::ascsim::rt::put(c, dst);
        c.i64(id).str("SetFlag");
        c.send();
    }
    __aicore__ inline void WaitFlag(TEventID id, ASCSIM_SITE) {
        ::ascsim::rt::Call c("pipe_flag", ascsim_site);
        ::ascsim::rt::put(c, src);
        ::ascsim::rt::put(c, dst);
        c.i64(id).str("WaitFlag");
        c.send();
    }
};

// ---- cross-core (同步控制/核间同步) ---------------------------------------------------------------------------
template <uint8_t modeId, pipe_t pipe>
__aicore__ inline void CrossCoreSetFlag(uint16_t flagId, ASCSIM_SITE) {
    ::ascsim::rt::Call c("cross_set", ascsim_site);
    c.u64(modeId);
    ::ascsim::rt::put(c, pipe);
    c.u64(flagId);
    c.send();
}
template <uint8_t modeId = 0, pipe_t pipe = PIPE_S>
__aicore__ inline void CrossCoreWaitFlag(uint16_t flagId, ASCSIM_SITE) {
    ::ascsim::rt::Call c("cross_wait", ascsim_site);
    c.u64(modeId);
    ::ascsim::rt::put(c, pipe);
    c.u64(flagId);
    c.send();
}
struct SyncAllConfig {
    pipe_t triggerPipe;
    pipe_t waitPipe;
};
constexpr SyncAllConfig DEFAULT_SYNC_ALL_CONFIG = {PIPE_ALL, PIPE_ALL};
#if ASCSIM_ARCH_3510
template <bool isAIVOnly = true, const SyncAllConfig& config = DEFAULT_SYNC_ALL_CONFIG>
__aicore__ inline void SyncAll(ASCSIM_SITE) {
    ::ascsim::rt::Call c("sync_all", ascsim_site);
    c.boolean(isAIVOnly);
    c.send();
}
#else
template <bool isAIVOnly = true>
__aicore__ inline void SyncAll(ASCSIM_SITE) {
    ::ascsim::rt::Call c("sync_all", ascsim_site);
    c.boolean(isAIVOnly);
    c.send();
}
#endif
// The soft SyncAll (GM / UB workspaces) returns at once on the cube core (the C++ API).
template <bool isAIVOnly = true>
__aicore__ inline void SyncAll(const GlobalTensor<int32_t>&, const LocalTensor<int32_t>&, const int32_t = 0,
                               ASCSIM_SITE) {
    (void)ascsim_site;
}
template <bool isAIVOnly = true>
__aicore__ inline void IBSet(const GlobalTensor<int32_t>&, const LocalTensor<int32_t>&, int32_t, int32_t,
                             ASCSIM_SITE) {
    ::ascsim::rt::not_modelled("IBSet", ascsim_site);
}
template <bool isAIVOnly = true>
__aicore__ inline void IBWait(const GlobalTensor<int32_t>&, const LocalTensor<int32_t>&, int32_t, int32_t,
                              ASCSIM_SITE) {
    ::ascsim::rt::not_modelled("IBWait", ascsim_site);
}
// The FFTS base address catlass passes on 2201 (SetSyncBaseAddr): the engine's cross-core flags need none.
__aicore__ inline void SetSyncBaseAddr(uint64_t) {}

using MutexID = uint8_t;
class Mutex {
public:
    template <pipe_t pipe>
    __aicore__ static inline void Lock(MutexID, ASCSIM_SITE) {
        ::ascsim::rt::not_modelled("Mutex::Lock", ascsim_site);
    }
    template <pipe_t pipe>
    __aicore__ static inline void Unlock(MutexID, ASCSIM_SITE) {
        ::ascsim::rt::not_modelled("Mutex::Unlock", ascsim_site);
    }
};

// ---- system variables (系统变量访问) ---------------------------------------------------------------------------
__aicore__ inline int64_t GetBlockIdx() { return ::ascsim::rt::block_idx(); }
__aicore__ inline int64_t GetBlockNum() { return ::ascsim::rt::block_num(); }
__aicore__ inline int64_t GetSubBlockIdx() { return 0; }  // 0 on the cube core (the C++ API)
__aicore__ inline int64_t GetSubBlockNum() { return 1; }
__aicore__ inline int64_t GetTaskRatio() { return 1; }  // 1 on the cube core (the C++ API)
__aicore__ inline int64_t GetTaskRation() { return 1; }
__aicore__ constexpr inline int32_t GetDataBlockSizeInBytes() { return ONE_BLK_SIZE; }
__aicore__ constexpr inline uint32_t GetVecLen() { return VECTOR_REG_WIDTH; }
// (kernel_utils_ceil_oom_que.h: int32_t operands, 0 for a zero divisor)
__aicore__ constexpr inline int32_t CeilDivision(int32_t num1, int32_t num2) {
    return num2 == 0 ? 0 : (num1 + num2 - 1) / num2;
}

// InitSocState: resets the atomic mode (and, on the 2201 cube core, the 3-D load L1 size and padding).
__aicore__ inline void InitSocState(ASCSIM_SITE) {
    ::ascsim::rt::Call c("init_soc_state", ascsim_site);
    c.send();
}

}  // namespace AscendC

// The CCE intrinsic `pipe_barrier` some libraries call directly.
inline void pipe_barrier(pipe_t pipe, ASCSIM_SITE) {
    ::ascsim::rt::Call c("pipe_barrier", ascsim_site);
    ::ascsim::rt::put(c, pipe);
    c.send();
}
