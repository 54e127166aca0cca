"""The blocked matrix-multiply loop nest every plan runs, and its cost in closed form.

C (M x N) = A (M x K) · B (K x N), tiled on two levels like a cube kernel's block loop:

- L1 blocks: A is split into blocks of M x K (a matrix block, or for conv2d a slice of output rows and
  channel groups of the feature map), B into blocks of K x N; A and B share the K blocking. One buffer of
  each sits in L1; a block is copied from GM only when the loop needs a different one than it holds.
- L0 tiles: inside its blocks each axis is cut into tiles of mt / nt / kt (the last tile of a block may
  be shorter). An output tile (mt x nt) lives in L0C while its K tiles are loaded into L0A / L0B and
  multiplied (the first initialises C, the others accumulate), then Fixpipe writes it to GM.

    for o in outer tiles:              # order "mn": M outer, N inner; "nm": the other way
        for i in inner tiles:
            for k in K tiles:
                [DataCopy the A block of (m, k) to L1 unless it is the one there]
                [DataCopy the B block of (k, n) to L1 unless it is the one there]
                [load the A tile (m, k) into L0A unless it is the one there]
                [load the B tile (k, n) into L0B unless it is the one there]
                Mmad (init on the first K tile)
            Fixpipe (mt x nt) -> GM

`Gemm.cost()` counts the same loop's calls and bytes without building it: within one output tile the K
tiles change every step, so a block / tile survives to the next output tile only when its axis has a single
K block / K tile and the next output tile shares its M (A) or N (B) position — a rule that gives the
closed forms in `_reuse`. tests/planner/test_planner.py checks them against the built programs.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from typing import Any, Protocol

from ..machine.layouts import R0
from .movers import bias_bt_copy, bias_gm_copy, fixpipe_call, mmad_call
from .program import Call, Program


@dataclass(frozen=True)
class Block:
    """An L1 block along one axis: absolute start, extent, and what the operand needs to copy it."""

    start: int
    ext: int
    meta: Any = None


@dataclass(frozen=True)
class Seg:
    """An L0 tile along one axis: its block, its offset inside the block, extent, absolute start."""

    blk: int
    off: int
    ext: int
    start: int


@lru_cache(maxsize=4096)
def segments(blocks: tuple[Block, ...], tile: int) -> tuple[Seg, ...]:
    """Cut every block into tiles of `tile` (the last one of a block may be shorter)."""
    return tuple(Seg(i, o, min(tile, b.ext - o), b.start + o) for i, b in enumerate(blocks)
                 for o in range(0, b.ext, tile))


@lru_cache(maxsize=4096)
def even_blocks(total: int, size: int) -> tuple[Block, ...]:
    """`total` cut into blocks of `size` (the last one shorter)."""
    return tuple(Block(s, min(size, total - s)) for s in range(0, total, size))


class Operand(Protocol):
    """A mover of one operand: L1 blocks (axes p x q: A = M x K, B = K x N) and L0 tiles."""

    def copy(self, pb: Block, qb: Block) -> tuple[Any, list[Call]]: ...

    def load(self, blk: Any, p_off: int, pe: int, q_off: int, qe: int) -> tuple[list[Call], int, bool]: ...


@dataclass
class Cost:
    """What a plan moves and issues: per category (calls, bytes written), plus the memory footprints."""

    calls: dict[str, int] = field(default_factory=dict)
    bytes: dict[str, int] = field(default_factory=dict)

    def add(self, cat: str, calls: int, nbytes: int) -> None:
        self.calls[cat] = self.calls.get(cat, 0) + calls
        self.bytes[cat] = self.bytes.get(cat, 0) + nbytes

    @property
    def total_calls(self) -> int:
        return sum(self.calls.values())

    @property
    def total_bytes(self) -> int:
        """Bytes written: by the data movers (GM -> L1 -> L0 -> GM) and by the cube into L0C (a C tile per K
        step: splitting K finer costs accumulator traffic)."""
        return sum(self.bytes.values())


#: Cost categories, in pipeline order: GM->L1 copies of A and B, L1->L0A, L1->L0B, bias (GM->L1->BT),
#: Mmad, Fixpipe.
CATEGORIES = ("gm_l1_a", "gm_l1_b", "l1_l0a", "l1_l0b", "bias", "mmad", "fixpipe")


@dataclass
class Gemm:
    """One blocked C = A·B: axes (blocks along M, N, K), tile sizes, loop order and the two movers."""

    m_blocks: tuple[Block, ...]
    n_blocks: tuple[Block, ...]
    k_blocks: tuple[Block, ...]
    mt: int
    nt: int
    kt: int
    order: str
    a: Operand
    b: Operand
    c_gm: str
    l0c: str
    n_total: int  # GM row length of C
    csize: int  # bytes of an L0C element
    out_bytes: int  # bytes of a GM C element
    chip: Any
    k_mmad: Callable[[int], int] = staticmethod(lambda k: k)  # type: ignore[assignment]
    bias: tuple[str, str, str, int] | None = None  # (GM, L1, BT tensor, GM length) of the bias vector
    deq_word: int | None = None  # Fixpipe DEQF16 scale word

    @cached_property
    def m_segs(self) -> tuple[Seg, ...]:
        return segments(self.m_blocks, self.mt)

    @cached_property
    def n_segs(self) -> tuple[Seg, ...]:
        return segments(self.n_blocks, self.nt)

    @cached_property
    def k_segs(self) -> tuple[Seg, ...]:
        return segments(self.k_blocks, self.kt)

    # -- the program -------------------------------------------------------------------------------
    def emit(self, prog: Program) -> None:
        """Append the loop nest's calls to `prog`."""
        outer, inner = (self.m_segs, self.n_segs) if self.order == "mn" else (self.n_segs, self.m_segs)
        cur_a = cur_b = l0a = l0b = None
        a_blk = b_blk = None
        ha = nb = R0
        kda = False
        calls = prog.calls
        cur_bias = None
        if self.bias is not None:
            bgm, bl1, bbt, blen = self.bias
            calls.append(bias_gm_copy(bgm, bl1, blen, self.csize * 8))
        for o in outer:
            for i in inner:
                ms, ns = (o, i) if self.order == "mn" else (i, o)
                for kn, ks in enumerate(self.k_segs):
                    key = (ms.blk, ks.blk)
                    if key != cur_a:
                        a_blk, cs = self.a.copy(self.m_blocks[ms.blk], self.k_blocks[ks.blk])
                        calls += cs
                        cur_a = key
                    key = (ks.blk, ns.blk)
                    if key != cur_b:
                        b_blk, cs = self.b.copy(self.k_blocks[ks.blk], self.n_blocks[ns.blk])
                        calls += cs
                        cur_b = key
                    key = (ms.start, ks.start)
                    if key != l0a:
                        cs, ha, kda = self.a.load(a_blk, ms.off, ms.ext, ks.off, ks.ext)
                        calls += cs
                        l0a = key
                    key = (ks.start, ns.start)
                    if key != l0b:
                        cs, nb, _ = self.b.load(b_blk, ks.off, ks.ext, ns.off, ns.ext)
                        calls += cs
                        l0b = key
                    a_name, b_name = self.a.l0, self.b.l0  # type: ignore[attr-defined]
                    bt = None
                    if self.bias is not None and kn == 0:
                        bt = self.bias[2]
                        if ns.start != cur_bias:
                            calls.append(bias_bt_copy(self.chip, self.bias[1], ns.start, bt, nb,
                                                      self.csize * 8))
                            cur_bias = ns.start
                    calls.append(mmad_call(self.l0c, a_name, b_name, ha, nb, self.k_mmad(ks.ext), kda,
                                           kn == 0, self.csize, bt))
                dst = (self.c_gm, ms.start * self.n_total + ns.start)
                calls.append(fixpipe_call(self.chip, dst, self.l0c, ms.ext, ns.ext, ha, self.n_total,
                                          self.out_bytes, self.deq_word))

    # -- the same loop, counted ------------------------------------------------------------------------
    def _copy_cost(self, side: str, pb: Block, qb: Block) -> tuple[int, int]:
        op = self.a if side == "a" else self.b
        return copy_cost(op, pb, qb)

    def tile_load(self, side: str, pe: int, qe: int) -> tuple[int, int, int, int]:
        """(calls, bytes, pitch, footprint bytes) of loading one pe x qe tile (origin-independent)."""
        op = self.a if side == "a" else self.b
        blocks = (self.m_blocks, self.k_blocks) if side == "a" else (self.k_blocks, self.n_blocks)
        return tile_cost(op, pe, qe, blocks[0][0], blocks[1][0])

    def cost(self) -> Cost:
        """Calls and bytes per category of `emit`'s program, in closed form (module docstring)."""
        mn = self.order == "mn"
        nmt, nnt, nkt = len(self.m_segs), len(self.n_segs), len(self.k_segs)
        nkb = len(self.k_blocks)
        out = Cost()
        m_per_blk = Counter(s.blk for s in self.m_segs)
        n_per_blk = Counter(s.blk for s in self.n_segs)
        # GM -> L1. A: blocks (mb, kb); B: blocks (kb, nb).
        for side, pbl, tiles_per, other_tiles, outer in (
                ("a", self.m_blocks, m_per_blk, nnt, mn), ("b", self.n_blocks, n_per_blk, nmt, not mn)):
            for j, pb in enumerate(pbl):
                for kb in self.k_blocks:
                    blocks = (pb, kb) if side == "a" else (kb, pb)
                    c, nbytes = self._copy_cost(side, *blocks)
                    times = _reuse(nkb, tiles_per[j], other_tiles, len(pbl), outer)
                    out.add(f"gm_l1_{side}", c * times, nbytes * times)
        # L1 -> L0: A tiles (m seg, k seg), B tiles (k seg, n seg).
        m_ext = Counter(s.ext for s in self.m_segs)
        n_ext = Counter(s.ext for s in self.n_segs)
        k_ext = Counter(s.ext for s in self.k_segs)
        for side, p_ext, n_p, other, outer in (("a", m_ext, nmt, nnt, mn), ("b", n_ext, nnt, nmt, not mn)):
            for pe, cp in p_ext.items():
                for ke, ck in k_ext.items():
                    args = (pe, ke) if side == "a" else (ke, pe)
                    c, nbytes, _, _ = self.tile_load(side, *args)
                    # every (p tile, k tile) pair is loaded once per visit; visits as for one-tile blocks
                    times = cp * ck * _reuse(nkt, 1, other, n_p, outer)
                    out.add(f"l1_l0{side}", c * times, nbytes * times)
        # Mmad and Fixpipe
        mm = 0
        for me, cm in m_ext.items():
            ha = self.tile_load("a", me, self.k_segs[0].ext)[2]
            for ne, cn in n_ext.items():
                nb = self.tile_load("b", self.k_segs[0].ext, ne)[2]
                mm += cm * cn * _align16(ha) * _align16(nb) * self.csize
                out.add("fixpipe", cm * cn, cm * cn * me * ne * self.out_bytes)
        out.add("mmad", nmt * nnt * nkt, mm * nkt)
        if self.bias is not None:  # one GM -> L1 copy, then an L1 -> BT copy whenever the N tile changes
            out.add("bias", 1, self.bias[3] * self.csize)
            for ne, cn in n_ext.items():
                nb = self.tile_load("b", self.k_segs[0].ext, ne)[2]
                times = cn * _reuse(1, 1, nmt, nnt, not mn)
                out.add("bias", times, times * nb * self.csize)
        return out


def _reuse(nkb: int, tiles_in_blk: int, other_tiles: int, n_blocks: int, outer: bool) -> int:
    """How many times one block (or tile) of an operand is brought in, for the loop of `Gemm.emit`.

    nkb: K blocks (K tiles for L0); tiles_in_blk: output tiles along this operand's own axis inside the
    block; other_tiles: output tiles along the other axis; n_blocks: blocks along the operand's own axis;
    outer: whether the operand's own axis is the outer loop. With several K steps every output tile walks
    them all, so the block is fetched for each of its output tiles; with one K step it stays while the loop
    stays on it: once if its axis is outer, else once per outer tile unless it is the only block."""
    if nkb > 1:
        return tiles_in_blk * other_tiles
    if outer:
        return 1
    return other_tiles if n_blocks > 1 else 1


def copy_cost(op: Any, pb: Block, qb: Block) -> tuple[int, int]:
    """(calls, bytes) of copying one L1 block, cached on the operand (`op.cache`)."""
    key = ("copy", op.cost_key(pb, qb))
    hit = op.cache.get(key)
    if hit is None:
        _, cs = op.copy(pb, qb)
        hit = op.cache[key] = (len(cs), sum(c.nbytes for c in cs))
    return hit


def tile_cost(op: Any, pe: int, qe: int, pb: Block, qb: Block) -> tuple[int, int, int, int]:
    """(calls, bytes, pitch, footprint bytes) of loading a pe x qe tile (from a block pb x qb that holds it;
    counts do not depend on the origin), cached on the operand."""
    key = ("load", pe, qe)
    hit = op.cache.get(key)
    if hit is None:
        blk, _ = op.copy(pb, qb)
        cs, pitch, _ = op.load(blk, 0, pe, 0, qe)
        foot = max(c.args["dst"][1] * op.dt.bits // 8 + max(c.nbytes, c.span) for c in cs)
        hit = op.cache[key] = (len(cs), sum(c.nbytes for c in cs), pitch, foot)
    return hit


def _align16(x: int) -> int:
    return -(-x // R0) * R0

