// printf and DumpTensor on the device: printf prints at once; DumpTensor asks the engine for the
// tensor's values (they live there) and prints them. Written for ascsim.
#pragma once

#include <cstdio>

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
