// TPipe, TQue / TQueBind and TBuf: buffer addresses and the event ids of the queues, as the C++ runtime
// gives them (资源管理/TPipe, TQue, TBuf pages; the C++ API's TPipe / TQueBind implementation — facts in
// docs/cpp.md "TPipe and queues"). The addresses are computed here; every SetFlag / WaitFlag a queue
// issues, and every event id the pipe hands out, goes to the engine's sync checker. Written for ascsim.
#pragma once

#include <cstdint>

#include "ascsim/encode.h"
#include "ascsim/enums.h"
#include "ascsim/sync.h"
#include "ascsim/tensor.h"

namespace AscendC {
class TPipe;
}

namespace ascsim {
namespace rt {

// The physical buffers a TPipe allocates from (one cursor each).
enum class Pool : uint8_t { L1 = 0, L0A, L0B, L0C, BT, FB, UB, NONE, COUNT };

constexpr Pool pool_of(::AscendC::TPosition p) {
    using P = ::AscendC::TPosition;
    return p == P::A1 || p == P::B1 || p == P::C1 || p == P::TSCM || p == P::SPM ? Pool::L1
           : p == P::A2                                                      ? Pool::L0A
           : p == P::B2                                                      ? Pool::L0B
           : p == P::CO1                                                     ? Pool::L0C
           : p == P::C2                                                      ? Pool::BT
           : p == P::C2PIPE2GM                                               ? Pool::FB
           : p == P::VECIN || p == P::VECOUT || p == P::VECCALC              ? Pool::UB
                                                                             : Pool::NONE;
}

// A queue's logical (source, destination) positions: TQue<pos> is TQueBind<src, dst>.
constexpr ::AscendC::TPosition que_src(::AscendC::TPosition p) {
    using P = ::AscendC::TPosition;
    return p == P::A1 || p == P::B1 || p == P::C1 || p == P::VECIN ? P::GM
           : p == P::A2                                            ? P::A1
           : p == P::B2                                            ? P::B1
           : p == P::C2                                            ? P::C1
           : p == P::C2PIPE2GM                                     ? P::B1
                                                                   : p;
}
constexpr ::AscendC::TPosition que_dst(::AscendC::TPosition p) {
    using P = ::AscendC::TPosition;
    return p == P::CO1 ? P::CO2 : p == P::CO2 || p == P::VECOUT ? P::GM : p;
}

// The queue's forward (EnQue / DeQue) and backward (FreeTensor / AllocTensor) events.
struct QueEvents {
    ::AscendC::HardEvent forward;
    ::AscendC::HardEvent backward;
};
constexpr QueEvents que_events(::AscendC::TPosition src, ::AscendC::TPosition dst) {
    using P = ::AscendC::TPosition;
    using E = ::AscendC::HardEvent;
    return src == P::GM && (dst == P::A1 || dst == P::B1 || dst == P::C1) ? QueEvents{E::MTE2_MTE1, E::MTE1_MTE2}
           : (src == P::A1 && dst == P::A2) || (src == P::B1 && dst == P::B2) || (src == P::C1 && dst == P::C2)
               ? QueEvents{E::MTE1_M, E::M_MTE1}
           : src == P::B1 && dst == P::C2PIPE2GM           ? QueEvents{E::MTE1_FIX, E::FIX_MTE1}
           : src == P::CO1 && dst == P::CO2                ? QueEvents{E::M_FIX, E::FIX_M}
           : src == P::GM && (dst == P::A2 || dst == P::B2) ? QueEvents{E::MTE2_M, E::M_MTE2}
           : src == P::GM && dst == P::VECIN               ? QueEvents{E::MTE2_V, E::V_MTE2}
           : src == P::VECOUT && dst == P::GM              ? QueEvents{E::V_MTE3, E::MTE3_V}
                                                           : QueEvents{E::MAX, E::MAX};
}

inline void runtime_error(const char* message, Site site) {
    Call c("runtime_error", site);
    c.str(message);
    c.send();
}

inline void event_note(const char* op, ::AscendC::HardEvent e, int id, const char* owner, Site site) {
    Call c(op, site);
    put(c, e);
    c.i64(id).str(owner);
    c.send();
}

// The core's current TPipe (GetTPipePtr): one per block, so per thread.
inline ::AscendC::TPipe*& tpipe_ptr() {
    static thread_local ::AscendC::TPipe* pipe = nullptr;
    return pipe;
}

}  // namespace rt
}  // namespace ascsim

namespace AscendC {

constexpr int32_t QBUF_MAX_LEN = 64;

template <TPosition pos>
class TBuf;

// One queue: its blocks' addresses and state, the handles in flight and their event ids.
template <TPosition src, TPosition dst, int32_t depth, auto mask = 0>
class TQueBind {
public:
    static constexpr TPosition kPos = (dst == TPosition::GM || dst == TPosition::CO2) ? src : dst;
    static constexpr ::ascsim::rt::QueEvents kEvents = ::ascsim::rt::que_events(src, dst);

    template <class T>
    __aicore__ inline LocalTensor<T> AllocTensor(ASCSIM_SITE) {
        int n = bufNum_;
        for (int k = 0; k < n; ++k) {
            int i = (cursor_ + k) % (n ? n : 1);
            if (state_[i] == FREE) {
                cursor_ = (i + 1) % n;
                state_[i] = OCCUPIED;
                if (freeId_[i] >= 0) {
                    ::ascsim::rt::flag("wait_flag", kEvents.backward, freeId_[i], "AllocTensor", ascsim_site);
                    release(kEvents.backward, freeId_[i], ascsim_site);
                    freeId_[i] = -1;
                }
                return tensor_of<T>(i);
            }
        }
        ::ascsim::rt::runtime_error(n == 0 ? "AllocTensor on a queue that was never given buffers (TPipe::InitBuffer)"
                                           : "AllocTensor: every buffer of the queue is in use (none was freed with "
                                             "FreeTensor); the device would wait here forever",
                                    ascsim_site);
        return LocalTensor<T>();
    }
    template <class T>
    __aicore__ inline void FreeTensor(LocalTensor<T>& t, ASCSIM_SITE) {
        int i = slot_of(t.address_.bufferAddr);
        if (i < 0) {
            ::ascsim::rt::runtime_error("FreeTensor: the tensor is not a buffer of this queue", ascsim_site);
            return;
        }
        if (kEvents.backward != HardEvent::MAX) {
            int id = alloc(kEvents.backward, ascsim_site);
            ::ascsim::rt::flag("set_flag", kEvents.backward, id, "FreeTensor", ascsim_site);
            freeId_[i] = id;
        }
        state_[i] = FREE;
    }
    template <class T>
    __aicore__ inline bool EnQue(const LocalTensor<T>& t, ASCSIM_SITE) {
        if (used_ >= depth) {
            ::ascsim::rt::runtime_error("EnQue: the queue already holds `depth` tensors", ascsim_site);
            return false;
        }
        int id = -1;
        if (kEvents.forward != HardEvent::MAX) {
            id = alloc(kEvents.forward, ascsim_site);
            ::ascsim::rt::flag("set_flag", kEvents.forward, id, "EnQue", ascsim_site);
        }
        int tail = (head_ + used_) % kMaxDepth;
        inQue_[tail] = t.address_;
        inId_[tail] = id;
        ++used_;
        return true;
    }
    template <class T>
    __aicore__ inline LocalTensor<T> DeQue(ASCSIM_SITE) {
        LocalTensor<T> t;
        if (used_ == 0) {
            ::ascsim::rt::runtime_error("DeQue on an empty queue: the device would wait here forever", ascsim_site);
            return t;
        }
        t.address_ = inQue_[head_];
        int id = inId_[head_];
        head_ = (head_ + 1) % kMaxDepth;
        --used_;
        if (id >= 0) {
            ::ascsim::rt::flag("wait_flag", kEvents.forward, id, "DeQue", ascsim_site);
            release(kEvents.forward, id, ascsim_site);
        }
        return t;
    }
    __aicore__ inline bool VacantInQue() const { return used_ < depth; }
    __aicore__ inline bool HasTensorInQue() const { return used_ > 0; }
    __aicore__ inline int32_t GetTensorCountInQue() const { return used_; }
    __aicore__ inline bool HasIdleBuffer() const {
        for (int i = 0; i < bufNum_; ++i)
            if (state_[i] == FREE) return true;
        return false;
    }
    __aicore__ inline void FreeAllEvent(ASCSIM_SITE) {
        for (int i = 0; i < bufNum_; ++i)
            if (freeId_[i] >= 0) {
                ::ascsim::rt::flag("wait_flag", kEvents.backward, freeId_[i], "FreeAllEvent", ascsim_site);
                release(kEvents.backward, freeId_[i], ascsim_site);
                freeId_[i] = -1;
            }
    }

    // (TPipe) the queue's blocks: `num` blocks of `len` bytes from byte address `addr`.
    void ascsim_init(TPipe* pipe, int num, uint32_t addr, uint32_t len) {
        pipe_ = pipe;
        bufNum_ = num;
        for (int i = 0; i < num && i < QBUF_MAX_LEN; ++i) {
            addr_[i] = addr + static_cast<uint32_t>(i) * len;
            state_[i] = FREE;
            freeId_[i] = -1;
        }
        len_ = len;
    }
    // (TPipe's destructor) wait the free flags of blocks left FREE, as the C++ runtime does.
    void ascsim_drain(::ascsim::rt::Site site) { FreeAllEvent(site); }

protected:
    enum State : uint8_t { FREE = 0, OCCUPIED };
    static constexpr int kMaxDepth = 64;

    template <class T>
    LocalTensor<T> tensor_of(int i) const {
        LocalTensor<T> t;
        t.address_.logicPos = static_cast<uint8_t>(kPos);
        t.address_.bufferAddr = addr_[i];
        t.address_.dataLen = len_;
        return t;
    }
    int slot_of(uint32_t addr) const {
        for (int i = 0; i < bufNum_; ++i)
            if (addr_[i] == addr) return i;
        return -1;
    }
    int alloc(HardEvent e, ::ascsim::rt::Site site);
    void release(HardEvent e, int id, ::ascsim::rt::Site site);

    TPipe* pipe_ = nullptr;
    int bufNum_ = 0;
    uint32_t len_ = 0;
    uint32_t addr_[QBUF_MAX_LEN] = {};
    State state_[QBUF_MAX_LEN] = {};
    int freeId_[QBUF_MAX_LEN] = {};
    int cursor_ = 0;
    TBuffAddr inQue_[kMaxDepth] = {};
    int inId_[kMaxDepth] = {};
    int head_ = 0;
    int used_ = 0;

    friend class TPipe;
};

template <TPosition pos, int32_t depth, auto mask = 0>
class TQue : public TQueBind<::ascsim::rt::que_src(pos), ::ascsim::rt::que_dst(pos), depth, mask> {};

template <TPosition pos = TPosition::LCM>
class TBuf {
public:
    template <class T>
    __aicore__ inline LocalTensor<T> Get() const {
        LocalTensor<T> t;
        t.address_.logicPos = static_cast<uint8_t>(pos);
        t.address_.bufferAddr = addr_;
        t.address_.dataLen = len_;
        return t;
    }
    template <class T>
    __aicore__ inline LocalTensor<T> Get(uint32_t len) const {
        LocalTensor<T> t = Get<T>();
        t.address_.dataLen = static_cast<uint32_t>(::ascsim::rt::bytes_of<PrimT<T>>(len));
        return t;
    }
    template <class T>
    __aicore__ inline LocalTensor<T> GetWithOffset(uint32_t size, uint32_t bufOffset) const {
        LocalTensor<T> t = Get<T>();
        t.address_.bufferAddr = addr_ + bufOffset;
        t.address_.dataLen = static_cast<uint32_t>(::ascsim::rt::bytes_of<PrimT<T>>(size));
        return t;
    }
    template <class T>
    __aicore__ inline LocalTensor<T> AllocTensor() const {
        return Get<T>();
    }
    template <class T>
    __aicore__ inline LocalTensor<T> DeQue() const {
        return Get<T>();
    }
    template <class T>
    __aicore__ inline void FreeTensor(LocalTensor<T>&) const {}
    template <class T>
    __aicore__ inline bool EnQue(const LocalTensor<T>&) const {
        return true;
    }

    void ascsim_init(uint32_t addr, uint32_t len) {
        addr_ = addr;
        len_ = len;
    }

private:
    uint32_t addr_ = 0;
    uint32_t len_ = 0;
};

class TPipe {
public:
    __aicore__ inline TPipe(ASCSIM_SITE) : site_(ascsim_site) {
        ::ascsim::rt::tpipe_ptr() = this;
        InitSocState(ascsim_site);
        Init(ascsim_site);
    }
    __aicore__ inline ~TPipe() {
        if (!destroyed_) Destroy(site_);  // at the line that constructed the TPipe
        if (::ascsim::rt::tpipe_ptr() == this) ::ascsim::rt::tpipe_ptr() = nullptr;
    }
    __aicore__ inline void Init(ASCSIM_SITE) {
        for (auto& c : cursor_) c = 0;
        for (auto& p : events_) p = 0;
        drains_ = 0;
        destroyed_ = false;
#if defined(__NPU_ARCH__) && (__NPU_ARCH__ == 2201 || __NPU_ARCH__ == 3510 || __NPU_ARCH__ == 3002 || \
                              __NPU_ARCH__ == 5102 || __NPU_ARCH__ == 3003 || __NPU_ARCH__ == 3113)
        // the cube core's TPipe keeps M_MTE1 ids 0, 1 and 2 for itself and sets them (the C++ runtime)
        for (int id = 0; id < 3; ++id) {
            int got = alloc(HardEvent::M_MTE1, "TPipe", ascsim_site);
            ::ascsim::rt::flag("set_flag", HardEvent::M_MTE1, got, "TPipe", ascsim_site);
        }
        reserved_ = true;
#endif
    }

    template <class Q>
    __aicore__ inline bool InitBuffer(Q& que, uint8_t num, uint32_t len, ASCSIM_SITE) {
        uint32_t size = (len + 31u) / 32u * 32u;
        auto p = static_cast<int>(::ascsim::rt::pool_of(Q::kPos));
        if (num == 0 || num > QBUF_MAX_LEN) {
            ::ascsim::rt::runtime_error("TPipe::InitBuffer: num must be in [1, 64]", ascsim_site);
            return false;
        }
        que.ascsim_init(this, num, cursor_[p], size);
        cursor_[p] += static_cast<uint32_t>(num) * size;
        if (drains_ < kMaxQueues) drain_[drains_++] = {&que, &drain_one<Q>};
        return true;
    }
    template <TPosition pos>
    __aicore__ inline bool InitBuffer(TBuf<pos>& buf, uint32_t len, ASCSIM_SITE) {
        (void)ascsim_site;
        uint32_t size = (len + 31u) / 32u * 32u;
        auto p = static_cast<int>(::ascsim::rt::pool_of(pos));
        buf.ascsim_init(cursor_[p], size);
        cursor_[p] += size;
        return true;
    }

    template <HardEvent evt>
    __aicore__ inline TEventID AllocEventID(ASCSIM_SITE) {
        return static_cast<TEventID>(alloc(evt, "AllocEventID", ascsim_site));
    }
    template <HardEvent evt>
    __aicore__ inline void ReleaseEventID(TEventID id, ASCSIM_SITE) {
        release(evt, id, ascsim_site);
    }
    template <HardEvent evt>
    __aicore__ inline TEventID FetchEventID(ASCSIM_SITE) {
        return FetchEventID(evt, ascsim_site);
    }
    __aicore__ inline TEventID FetchEventID(HardEvent evt, ASCSIM_SITE) {
        (void)ascsim_site;
        uint64_t used = events_[static_cast<int>(evt)];
        for (int id = 0; id < QUE_MAX_EVENT; ++id)
            if (!(used >> id & 1)) return static_cast<TEventID>(id);
        return static_cast<TEventID>(QUE_MAX_EVENT);  // unchecked on the device
    }

    __aicore__ inline void Destroy(ASCSIM_SITE) {
        if (destroyed_) return;
        destroyed_ = true;
        for (int i = 0; i < drains_; ++i) drain_[i].fn(drain_[i].que, ascsim_site);
        if (reserved_) {
            for (int id = 0; id < 3; ++id) {
                ::ascsim::rt::flag("wait_flag", HardEvent::M_MTE1, id, "TPipe", ascsim_site);
                release(HardEvent::M_MTE1, id, ascsim_site);
            }
            reserved_ = false;
        }
        pipe_barrier(PIPE_ALL, ascsim_site);
    }
    __aicore__ inline void Reset(ASCSIM_SITE) { Init(ascsim_site); }

    // (queues) the event pool: the lowest free id of the event, 0..7.
    int alloc(HardEvent e, const char* owner, ::ascsim::rt::Site site) {
        uint64_t& used = events_[static_cast<int>(e)];
        for (int id = 0; id < QUE_MAX_EVENT; ++id)
            if (!(used >> id & 1)) {
                used |= 1ULL << id;
                ::ascsim::rt::event_note("event_alloc", e, id, owner, site);
                return id;
            }
        ::ascsim::rt::runtime_error("TPipe: all 8 ids of the event are in use (AllocEventID / the queues' EnQue and "
                                    "FreeTensor take one each until DeQue / AllocTensor gives it back)",
                                    site);
        return QUE_MAX_EVENT - 1;
    }
    void release(HardEvent e, int id, ::ascsim::rt::Site site) {
        if (id < 0 || id >= 64) return;
        events_[static_cast<int>(e)] &= ~(1ULL << id);
        ::ascsim::rt::event_note("event_release", e, id, "", site);
    }

private:
    template <class Q>
    static void drain_one(void* q, ::ascsim::rt::Site site) {
        static_cast<Q*>(q)->ascsim_drain(site);
    }
    static constexpr int kMaxQueues = 64;
    struct Drain {
        void* que;
        void (*fn)(void*, ::ascsim::rt::Site);
    };
    uint32_t cursor_[static_cast<int>(::ascsim::rt::Pool::COUNT)] = {};
    uint64_t events_[static_cast<int>(HardEvent::MAX) + 1] = {};
    Drain drain_[kMaxQueues] = {};
    int drains_ = 0;
    bool reserved_ = false;
    bool destroyed_ = false;
    ::ascsim::rt::Site site_;
};

template <TPosition src, TPosition dst, int32_t depth, auto mask>
int TQueBind<src, dst, depth, mask>::alloc(HardEvent e, ::ascsim::rt::Site site) {
    if (!pipe_) {
        ::ascsim::rt::runtime_error("a queue used before TPipe::InitBuffer gave it buffers", site);
        return 0;
    }
    return pipe_->alloc(e, "queue", site);
}
template <TPosition src, TPosition dst, int32_t depth, auto mask>
void TQueBind<src, dst, depth, mask>::release(HardEvent e, int id, ::ascsim::rt::Site site) {
    if (pipe_) pipe_->release(e, id, site);
}

}  // namespace AscendC

inline AscendC::TPipe* GetTPipePtr() { return ::ascsim::rt::tpipe_ptr(); }
