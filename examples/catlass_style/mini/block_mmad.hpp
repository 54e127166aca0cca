// mini: the block-level matmul — one output tile of C = A @ B through L1 (two buffers) and L0A / L0B (two
// buffers), accumulating in L0C, with the flags of the sync pages (同步控制/核内同步) between the pipes.
#pragma once

#include "mini/tile_copy.hpp"

namespace mini::block {

// What every block matmul holds: the on-chip buffers, laid out once (the base of BlockMmad).
template <class Element, class ElementC, class L1Tile, class L0Tile>
class BlockBuffers {
protected:
    static constexpr uint32_t L1_A = L1Tile::M * L1Tile::K;  // elements of one L1 A buffer
    static constexpr uint32_t L1_B = L1Tile::K * L1Tile::N;
    static constexpr uint32_t L0_A = L0Tile::M * L0Tile::K;
    static constexpr uint32_t L0_B = L0Tile::K * L0Tile::N;
    static_assert((2 * (L1_A + L1_B)) * sizeof(Element) <= 512 * 1024, "two L1 stages must fit L1");
    static_assert(2 * L0_A * sizeof(Element) <= 64 * 1024, "two L0A stages must fit L0A");

    __aicore__ inline BlockBuffers() {
        for (uint32_t s = 0; s < 2; ++s) {
            l1A[s] = AscendC::LocalTensor<Element>(AscendC::TPosition::A1, s * L1_A * sizeof(Element), L1_A);
            l1B[s] = AscendC::LocalTensor<Element>(AscendC::TPosition::B1, (2 * L1_A + s * L1_B) * sizeof(Element),
                                                   L1_B);
            l0A[s] = AscendC::LocalTensor<Element>(AscendC::TPosition::A2, s * L0_A * sizeof(Element), L0_A);
            l0B[s] = AscendC::LocalTensor<Element>(AscendC::TPosition::B2, s * L0_B * sizeof(Element), L0_B);
        }
        l0C = AscendC::LocalTensor<ElementC>(AscendC::TPosition::CO1, 0, L1Tile::M * L1Tile::N);
    }

    AscendC::LocalTensor<Element> l1A[2], l1B[2], l0A[2], l0B[2];
    AscendC::LocalTensor<ElementC> l0C;
};

template <class ArchTag, class L1Tile, class L0Tile, class Element>
class BlockMmad : public BlockBuffers<Element, typename ElementTraits<Element>::Accumulator, L1Tile, L0Tile> {
    using ElementC = typename ElementTraits<Element>::Accumulator;
    using Base = BlockBuffers<Element, ElementC, L1Tile, L0Tile>;
    static_assert(L1Tile::M == L0Tile::M && L1Tile::N == L0Tile::N, "the L0 tile splits K only");
    static_assert(L1Tile::K % L0Tile::K == 0, "L0 K steps divide the L1 K tile");

    // each ping-pong stage's event id: a member template explicitly specialised in class scope (the
    // form GCC rejects and clang accepts; catlass has 140 of them)
    template <uint32_t STAGE>
    struct Stage;
    template <>
    struct Stage<0> {
        static constexpr event_t EVENT = EVENT_ID0;
    };
    template <>
    struct Stage<1> {
        static constexpr event_t EVENT = EVENT_ID1;
    };
    __aicore__ static inline event_t EventOf(uint32_t s) { return s == 0 ? Stage<0>::EVENT : Stage<1>::EVENT; }

public:
    __aicore__ inline BlockMmad() {
        // every buffer starts free: prime the backward flags (drained in the destructor)
        AscendC::SetFlag<AscendC::HardEvent::MTE1_MTE2>(EVENT_ID0);
        AscendC::SetFlag<AscendC::HardEvent::MTE1_MTE2>(EVENT_ID1);
        AscendC::SetFlag<AscendC::HardEvent::M_MTE1>(EVENT_ID0);
        AscendC::SetFlag<AscendC::HardEvent::M_MTE1>(EVENT_ID1);
        AscendC::SetFlag<AscendC::HardEvent::FIX_M>(EVENT_ID0);
    }
    __aicore__ inline ~BlockMmad() {
        AscendC::WaitFlag<AscendC::HardEvent::MTE1_MTE2>(EVENT_ID0);
        AscendC::WaitFlag<AscendC::HardEvent::MTE1_MTE2>(EVENT_ID1);
        AscendC::WaitFlag<AscendC::HardEvent::M_MTE1>(EVENT_ID0);
        AscendC::WaitFlag<AscendC::HardEvent::M_MTE1>(EVENT_ID1);
        AscendC::WaitFlag<AscendC::HardEvent::FIX_M>(EVENT_ID0);
    }

    // C[m0 : m0 + shape.m, n0 : n0 + shape.n] = A[m0 :, :] @ B[:, n0 :] for one output tile
    __aicore__ inline void operator()(const AscendC::GlobalTensor<Element>& gmA,
                                      const AscendC::GlobalTensor<Element>& gmB,
                                      const AscendC::GlobalTensor<ElementC>& gmC, GemmCoord shape, GemmCoord problem) {
        const uint32_t mRound = RoundUp(shape.m, 16), nRound = RoundUp(shape.n, 16);
        bool first = true;
        for (uint32_t kL1 = 0; kL1 < shape.k; kL1 += L1Tile::K) {
            const uint32_t kTileL1 = shape.k - kL1 < L1Tile::K ? shape.k - kL1 : L1Tile::K;
            const uint32_t s1 = (kL1 / L1Tile::K) % 2;
            AscendC::WaitFlag<AscendC::HardEvent::MTE1_MTE2>(EventOf(s1));  // the L1 stage is free
            tile::CopyGmToL1<ArchTag, Element>{}(this->l1A[s1], gmA[kL1], shape.m, kTileL1, problem.k,
                                                   L1Tile::M);
            tile::CopyGmToL1<ArchTag, Element>{}(this->l1B[s1], gmB[kL1 * problem.n], kTileL1, shape.n, problem.n,
                                                   L1Tile::K);
            AscendC::SetFlag<AscendC::HardEvent::MTE2_MTE1>(EventOf(s1));
#ifndef MINI_SYNC_BUG
            AscendC::WaitFlag<AscendC::HardEvent::MTE2_MTE1>(EventOf(s1));  // mini:wait-copy-in
#endif
            for (uint32_t kL0 = 0; kL0 < kTileL1; kL0 += L0Tile::K) {
                const uint32_t kStep = kTileL1 - kL0 < L0Tile::K ? kTileL1 - kL0 : L0Tile::K;
                const uint32_t kRound = RoundUp(kStep, ElementTraits<Element>::C0);
                const uint32_t s0 = (kL0 / L0Tile::K) % 2;
                AscendC::WaitFlag<AscendC::HardEvent::M_MTE1>(EventOf(s0));  // the L0 stage is free
                if constexpr (ArchTag::NPU_ARCH == 3510) {
                    tile::CopyL1ToL0A<ArchTag, Element>{}(this->l0A[s0], this->l1A[s1], mRound, kRound, kL0,
                                                          L1Tile::M, L1Tile::K);
                } else {
                    tile::CopyL1ToL0A<ArchTag, Element>{}(this->l0A[s0], this->l1A[s1], mRound, kRound, kL0,
                                                          L1Tile::M);
                }
                tile::CopyL1ToL0B<ArchTag, Element>{}(this->l0B[s0], this->l1B[s1], kRound, nRound, kL0, L1Tile::K,
                                                      L1Tile::N);
                AscendC::SetFlag<AscendC::HardEvent::MTE1_M>(EventOf(s0));
                AscendC::WaitFlag<AscendC::HardEvent::MTE1_M>(EventOf(s0));
                if (first) {
                    AscendC::WaitFlag<AscendC::HardEvent::FIX_M>(EVENT_ID0);  // Fixpipe is done with L0C
                }
                AscendC::MmadParams params;
                // m = 1 would be GEMV (Mmad.md: A read as k contiguous elements, not Zz / Nz fractals): a
                // one-row tile computes two rows and Fixpipe writes the first
                params.m = shape.m == 1 ? 2 : shape.m;
                params.n = shape.n;
                params.k = kStep;
                params.cmatrixInitVal = first;
                AscendC::Mmad(this->l0C, this->l0A[s0], this->l0B[s0], params);  // mini:mmad
                // Mmad.md 同步优化说明: below (m / 16) * (n / 16) = 10 accumulating Mmads need a PIPE_M barrier
                // between them (the integer quotients of the Mmad's own m and n, as catlass's tile_mmad.hpp)
                if ((params.m / 16) * (params.n / 16) < 10) {
                    AscendC::PipeBarrier<PIPE_M>();
                }
                AscendC::SetFlag<AscendC::HardEvent::M_MTE1>(EventOf(s0));
                first = false;
            }
            AscendC::SetFlag<AscendC::HardEvent::MTE1_MTE2>(EventOf(s1));
        }
        AscendC::SetFlag<AscendC::HardEvent::M_FIX>(EVENT_ID0);
        AscendC::WaitFlag<AscendC::HardEvent::M_FIX>(EVENT_ID0);
        tile::CopyL0CToGm<ArchTag, ElementC>{}(gmC, this->l0C, shape.m, shape.n, mRound, problem.n);
        AscendC::SetFlag<AscendC::HardEvent::FIX_M>(EVENT_ID0);
    }
};

}  // namespace mini::block
