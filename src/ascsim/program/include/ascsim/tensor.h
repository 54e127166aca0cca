// LocalTensor and GlobalTensor: what a kernel holds of on-chip buffers and GM, with the C++ API's members
// (catlass reads `address_` directly) and methods. A LocalTensor is a position, a byte offset in that
// position's buffer and a byte length; its bytes live in the engine. A GlobalTensor is a host pointer
// into the shared GM mapping. Written for ascsim.
#pragma once

#include <cstdint>
#include <cstring>

#include "ascsim/encode.h"
#include "ascsim/enums.h"
#include "ascsim/params.h"
#include "ascsim/types.h"

namespace AscendC {

using TBufHandle = uint8_t*;

struct TBuffAddr {
    uint32_t dataLen = 0;     // bytes
    uint32_t bufferAddr = 0;  // byte offset in the position's buffer
    TBufHandle bufferHandle = nullptr;
    uint8_t logicPos = 0;  // a TPosition
};

template <class T>
class LocalTensor {
public:
    using PrimType = PrimT<T>;

    LocalTensor() {}
    // A tensor at a fixed address of a position's buffer, `tileSize` elements (LocalTensor.md).
    LocalTensor(TPosition pos, uint32_t addr, uint32_t tileSize) {
        address_.logicPos = static_cast<uint8_t>(pos);
        address_.bufferAddr = addr;
        address_.dataLen = static_cast<uint32_t>(::ascsim::rt::bytes_of<PrimType>(tileSize));
    }

    LocalTensor operator[](uint32_t offset) const {
        LocalTensor r = *this;
        uint32_t shift = static_cast<uint32_t>(::ascsim::rt::bytes_of<PrimType>(offset));
        r.address_.bufferAddr += shift;
        r.address_.dataLen = address_.dataLen > shift ? address_.dataLen - shift : 0;
        return r;
    }

    template <class U>
    LocalTensor<U> ReinterpretCast() const {
        LocalTensor<U> r;
        r.address_ = address_;
        return r;
    }

    // The byte address in the buffer (the device build's GetPhyAddr; CPU-debug returns a pointer).
    uint64_t GetPhyAddr() const { return address_.bufferAddr; }
    uint64_t GetPhyAddr(uint32_t offset) const { return address_.bufferAddr + ::ascsim::rt::bytes_of<PrimType>(offset); }

    PrimType GetValue(uint32_t index, ASCSIM_SITE) const {
        ::ascsim::rt::Call c("get_value", ascsim_site);
        put_self(c);
        c.u64(index);
        PrimType v{};
        c.send_for_value(&v, sizeof v);
        return v;
    }
    template <class S>
    void SetValue(uint32_t index, S value, ASCSIM_SITE) const {
        PrimType v = static_cast<PrimType>(value);
        ::ascsim::rt::Call c("set_value", ascsim_site);
        put_self(c);
        c.u64(index);
        c.bits(::ascsim::rt::type_name<PrimType>(), raw_of(v));
        c.send();
    }

    int32_t GetPosition() const { return address_.logicPos; }
    void SetSize(uint32_t size) { address_.dataLen = static_cast<uint32_t>(::ascsim::rt::bytes_of<PrimType>(size)); }
    uint32_t GetSize() const {
        return static_cast<uint32_t>(uint64_t(address_.dataLen) * 8 / ::ascsim::rt::ElementBits<PrimType>::value);
    }
    uint32_t GetLength() const { return address_.dataLen; }
    void SetBufferLen(uint32_t len) { address_.dataLen = len; }
    void SetAddr(const TBuffAddr& a) { address_ = a; }
    void SetUserTag(int32_t tag) { userTag_ = tag; }
    int32_t GetUserTag() const { return userTag_; }

    TBuffAddr address_;

    void put_self(::ascsim::rt::Call& c) const {
        c.local(address_.logicPos, ::ascsim::rt::type_name<PrimType>(), address_.bufferAddr, address_.dataLen);
    }

private:
    static unsigned long long raw_of(const PrimType& v) {
        unsigned long long r = 0;
        std::memcpy(&r, &v, sizeof v < sizeof r ? sizeof v : sizeof r);
        return r;
    }
    int32_t userTag_ = 0;
};

template <class T>
class GlobalTensor {
public:
    using PrimType = PrimT<T>;

    GlobalTensor() {}
    void SetGlobalBuffer(__gm__ PrimType* buffer, uint64_t bufferSize) {
        address_ = buffer;
        oriAddress_ = buffer;
        bufferSize_ = bufferSize;
    }
    void SetGlobalBuffer(__gm__ PrimType* buffer) {
        address_ = buffer;
        oriAddress_ = buffer;
        bufferSize_ = 0;  // unknown: up to the end of the allocation
    }
    const __gm__ PrimType* GetPhyAddr() const { return address_; }
    __gm__ PrimType* GetPhyAddr(uint64_t offset) const { return address_ + offset; }
    uint64_t GetSize() const { return bufferSize_; }

    PrimType GetValue(uint64_t offset, ASCSIM_SITE) const {
        ::ascsim::rt::Call c("gm_get_value", ascsim_site);
        put_self(c);
        c.u64(offset);
        PrimType v{};
        c.send_for_value(&v, sizeof v);
        return v;
    }
    void SetValue(uint64_t offset, PrimType value, ASCSIM_SITE) {
        unsigned long long raw = 0;
        std::memcpy(&raw, &value, sizeof value < sizeof raw ? sizeof value : sizeof raw);
        ::ascsim::rt::Call c("gm_set_value", ascsim_site);
        put_self(c);
        c.u64(offset);
        c.bits(::ascsim::rt::type_name<PrimType>(), raw);
        c.send();
    }
    __gm__ PrimType& operator()(uint64_t offset) { return address_[offset]; }

    // `offset` counts elements: a 4-bit type moves half a byte per element, rounded down as the C++ API's
    // `offset / INT4_TWO` (asc-devkit impl/basic_api/kernel_tensor_impl.h:1651-1673), not one byte
    GlobalTensor operator[](uint64_t offset) const {
        GlobalTensor r = *this;
        r.address_ = reinterpret_cast<__gm__ PrimType*>(reinterpret_cast<__gm__ uint8_t*>(address_) +
                                                         offset * ::ascsim::rt::ElementBits<PrimType>::value / 8);
        return r;
    }
    template <class U>
    GlobalTensor<U> ReinterpretCast() const {
        GlobalTensor<U> r;
        r.SetGlobalBuffer(reinterpret_cast<__gm__ PrimT<U>*>(address_),
                          bufferSize_ * sizeof(PrimType) / sizeof(PrimT<U>));
        return r;
    }
    template <CacheRwMode rw = CacheRwMode::RW>
    void SetL2CacheHint(CacheMode mode) {
        cacheMode_ = mode;
    }

    void put_self(::ascsim::rt::Call& c) const { c.global(::ascsim::rt::type_name<PrimType>(), address_, bufferSize_); }

    __gm__ PrimType* address_ = nullptr;
    __gm__ PrimType* oriAddress_ = nullptr;
    uint64_t bufferSize_ = 0;
    CacheMode cacheMode_ = CacheMode::CACHE_MODE_NORMAL;
};

}  // namespace AscendC

namespace ascsim {
namespace rt {
template <class T>
void put(Call& c, const ::AscendC::LocalTensor<T>& t) {
    t.put_self(c);
}
template <class T>
void put(Call& c, const ::AscendC::GlobalTensor<T>& t) {
    t.put_self(c);
}
}  // namespace rt
}  // namespace ascsim
