// Kernel launches. ascsim's build rewrites each `kernel<<<blockDim, l2ctrl, stream>>>(args...)`, in the
// program and in the headers it includes, into
//     ::ascsim::rt::launch(::ascsim::rt::Launch("kernel", file, line, blockDim, l2ctrl, stream),
//                          [&](auto&&... a) { kernel(a...); }, args...);
// The arguments are evaluated once, on the host, as a launch does; each block then calls the kernel with
// its own copy of them. Written for ascsim; it uses no standard header beyond <type_traits> (a kernel
// file should not pay for <tuple> or <string> when it does not use them).
#pragma once

#include <cstdint>
#include <initializer_list>
#include <type_traits>

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

// The launch's arguments, stored once (a minimal tuple).
template <unsigned I, class T>
struct Slot {
    T value;
};
template <unsigned... I>
struct Seq {};
template <unsigned N, unsigned... I>
struct MakeSeq : MakeSeq<N - 1, N - 1, I...> {};
template <unsigned... I>
struct MakeSeq<0, I...> {
    using type = Seq<I...>;
};
template <class S, class... T>
struct PackImpl;
template <unsigned... I, class... T>
struct PackImpl<Seq<I...>, T...> : Slot<I, T>... {
    template <class... A>
    explicit PackImpl(A&&... a) : Slot<I, T>{static_cast<A&&>(a)}... {}
    template <class F>
    void call(F& f) const {
        PackImpl copy = *this;  // each block its own copy of the arguments
        f(static_cast<Slot<I, T>&>(copy).value...);
    }
};
template <class... T>
using Pack = PackImpl<typename MakeSeq<sizeof...(T)>::type, T...>;

template <class Body, class Args>
struct LaunchContext {
    Body* body;
    const Args* args;
    static void run(void* p) {
        auto* ctx = static_cast<LaunchContext*>(p);
        ctx->args->call(*ctx->body);
    }
};

template <class Body, class... A>
void launch(const Launch& l, Body&& body, A&&... args) {
    using Args = Pack<typename std::decay<A>::type...>;
    Args values(static_cast<A&&>(args)...);
    typename std::decay<Body>::type fn(static_cast<Body&&>(body));
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
        Call c("not_a_gm_param", Site{"<driver>", 0});
        c.str(name);
        c.send();
        return P{};
    }
}

template <class... P, unsigned... I>
int drive_kernel_impl(const char* callee, void (*f)(P...), const char* const* names, Seq<I...>) {
    launch(Launch(callee, "<driver>", 0, kernel_blocks()), [&](auto&&... a) { f(a...); },
           bind_param<P>(names[I])...);
    return 0;
}

template <class... P>
int drive_kernel(const char* callee, void (*f)(P...), std::initializer_list<const char*> names) {
    return drive_kernel_impl(callee, f, names.begin(), typename MakeSeq<sizeof...(P)>::type{});
}

}  // namespace rt
}  // namespace ascsim
