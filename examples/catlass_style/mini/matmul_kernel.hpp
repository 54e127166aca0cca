// mini: the kernel (a block scheduler over output tiles, the multi-core loop over GetBlockIdx /
// GetBlockNum), its __global__ entry, and the host-side launch — the <<<...>>> lives here, in a library
// header, as in catlass.
#pragma once

#include "mini/block_mmad.hpp"

namespace mini {

namespace scheduler {
// output tiles in row-major order; `loop` is the tile number
template <class L1Tile>
struct IdentityScheduler {
    GemmCoord problem;
    __aicore__ constexpr IdentityScheduler(GemmCoord p) : problem(p) {}
    __aicore__ constexpr uint32_t TilesM() const { return CeilDiv(problem.m, L1Tile::M); }
    __aicore__ constexpr uint32_t TilesN() const { return CeilDiv(problem.n, L1Tile::N); }
#ifndef MINI_RACE_BUG
    __aicore__ constexpr uint32_t Loops() const { return TilesM() * TilesN(); }
#else
    // the bug: one loop too many, and it computes tile 0 again — on another block, with nothing ordering
    // the two blocks' writes of the same GM bytes (the values agree, so only a race checker sees it)
    __aicore__ constexpr uint32_t Loops() const { return TilesM() * TilesN() + 1; }
#endif
    // the output tile loop number `loop` computes
    __aicore__ inline GemmCoord TileOf(uint32_t loop) const {
        loop %= TilesM() * TilesN();
        return GemmCoord(loop / TilesN() * L1Tile::M, loop % TilesN() * L1Tile::N, 0);
    }
    __aicore__ inline GemmCoord ShapeOf(GemmCoord origin) const {
        uint32_t m = problem.m - origin.m < L1Tile::M ? problem.m - origin.m : L1Tile::M;
        uint32_t n = problem.n - origin.n < L1Tile::N ? problem.n - origin.n : L1Tile::N;
        return GemmCoord(m, n, problem.k);
    }
};
}  // namespace scheduler

namespace kernel {
template <class BlockMmad, class Scheduler, class Element>
class BasicMatmul {
public:
    using ElementC = typename ElementTraits<Element>::Accumulator;
    struct Params {
        GemmCoord problem;
        GM_ADDR a;
        GM_ADDR b;
        GM_ADDR c;
    };

    __aicore__ inline void operator()(const Params& p) {
        AscendC::GlobalTensor<Element> gmA, gmB;
        AscendC::GlobalTensor<ElementC> gmC;
        gmA.SetGlobalBuffer((__gm__ Element*)p.a, uint64_t(p.problem.m) * p.problem.k);
        gmB.SetGlobalBuffer((__gm__ Element*)p.b, uint64_t(p.problem.k) * p.problem.n);
        gmC.SetGlobalBuffer((__gm__ ElementC*)p.c, uint64_t(p.problem.m) * p.problem.n);
        Scheduler sched(p.problem);
        BlockMmad mmad;
        for (uint32_t loop = AscendC::GetBlockIdx(); loop < sched.Loops(); loop += AscendC::GetBlockNum()) {
            GemmCoord origin = sched.TileOf(loop);
            GemmCoord shape = sched.ShapeOf(origin);
            mmad(gmA[origin.m * p.problem.k], gmB[origin.n], gmC[origin.m * p.problem.n + origin.n], shape,
                 p.problem);
        }
    }
};
}  // namespace kernel

// the device entry: a template over the kernel, its parameters a struct passed by value
template <class Kernel>
__global__ __aicore__ void DeviceKernel(typename Kernel::Params params) {
    Kernel op;
    op(params);
}

// the host launch: blockDim = min(output tiles, cube cores)
using L1Tile = GemmShape<64, 64, 128>;
using L0Tile = GemmShape<64, 64, 64>;
using HalfMatmul = kernel::BasicMatmul<block::BlockMmad<arch::Current, L1Tile, L0Tile, half>,
                                       scheduler::IdentityScheduler<L1Tile>, half>;

inline uint32_t LaunchBasicMatmul(aclrtStream stream, uint32_t cores, GemmCoord problem, uint8_t* a, uint8_t* b,
                                  uint8_t* c) {
    typename HalfMatmul::Params params{problem, a, b, c};
    uint32_t tiles = scheduler::IdentityScheduler<L1Tile>(problem).Loops();
    uint32_t blockDim = tiles < cores ? tiles : cores;
    DeviceKernel<HalfMatmul><<<blockDim, nullptr, stream>>>(params);
    return blockDim;
}

}  // namespace mini
