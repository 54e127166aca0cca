// Kernel launches. ascsim's build rewrites each `kernel<<<blockDim, l2ctrl, stream>>>(args...)`, in the
// program and in the headers it includes, into
//     ::ascsim::rt::launch(::ascsim::rt::Launch("kernel", file, line, blockDim, l2ctrl, stream),
//                          [&](auto&&... a) { kernel(a...); }, args...);
// The arguments are evaluated once, on the host, as a launch does; each block then calls the kernel with
// its own copy of them. Written for ascsim.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>

#include "ascsim/bridge.h"

namespace ascsim {
namespace rt {

struct Launch {
    const char* callee;
    Site site;
    uint32_t block_dim;
    template <class D, class... Rest>
    Launch(const char* callee_in, const char* file, unsigned line, D block_dim_in, Rest&&...)
        : callee(callee_in), site{file, line}, block_dim(static_cast<uint32_t>(block_dim_in)) {}
};

template <class Body, class Args>
struct LaunchContext {
    Body* body;
    const Args* args;
    static void run(void* p) {
        auto* ctx = static_cast<LaunchContext*>(p);
        Args mine = *ctx->args;  // each block its own copy of the arguments
        std::apply(*ctx->body, mine);
    }
};

template <class Body, class... A>
void launch(const Launch& l, Body&& body, A&&... args) {
    using Args = std::tuple<typename std::decay<A>::type...>;
    Args values(std::forward<A>(args)...);
    typename std::decay<Body>::type fn(std::forward<Body>(body));
    LaunchContext<decltype(fn), Args> ctx{&fn, &values};
    launch_blocks(l.callee, l.site, l.block_dim, &LaunchContext<decltype(fn), Args>::run, &ctx);
}

// The main of a kernel-only file (ascsim run kernel.cpp --gm NAME=FILE): each GM pointer parameter bound
// by name (the engine placed the --gm files in GM), the entry launched on kernel_blocks() blocks.
template <class P>
P bind_param(const char* name) {
    if constexpr (std::is_pointer<P>::value) {
        return reinterpret_cast<P>(gm_param(name, Site{"<driver>", 0}));
    } else {
        Call c("runtime_error", Site{"<driver>", 0});
        std::string msg = std::string("kernel parameter '") + name +
                          "' is not a GM pointer: a kernel-only file takes GM pointers bound with --gm";
        c.str(msg.c_str());
        c.send();
        return P{};
    }
}

template <class... P, size_t... I>
int drive_kernel_impl(const char* callee, void (*f)(P...), const char* const* names, std::index_sequence<I...>) {
    launch(Launch(callee, "<driver>", 0, kernel_blocks()), [&](auto&&... a) { f(a...); },
           bind_param<P>(names[I])...);
    return 0;
}

template <class... P>
int drive_kernel(const char* callee, void (*f)(P...), std::initializer_list<const char*> names) {
    return drive_kernel_impl(callee, f, names.begin(), std::index_sequence_for<P...>{});
}

}  // namespace rt
}  // namespace ascsim
