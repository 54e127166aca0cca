"""The search: enumerate legal tilings and loads, keep those that fit every memory, pick the cheapest.

Cost (docs/planner.md): every call and byte of the plan's loop nest, counted in closed form by
`schedule.Gemm.cost` — bytes written GM->L1, L1->L0A, L1->L0B, L1->BT, into L0C by Mmad (one C tile per K
step) and L0C->GM, and the number of calls. The objective turns them into one number:

- time (default): the kernel's predicted time (planner.timing, the timeline's cost model) of every
  candidate (up to TIME_POOL), the balanced cost breaking ties;
- balanced: bytes + 512 x calls (one call costs as much as moving one 512-B fractal);
- traffic: bytes first, calls break ties;
- instructions: calls first, bytes break ties.

Candidates: L0 tiles mt / nt / kt are the balanced sizes align(ceil(D / t), g) of each dimension D
(g = the load granularity: 16-row fractals for img2col rows, a transpose square or 32 rows elsewhere); for
each (mt, nt) that fits L0C, the largest kt that fits L0A and L0B (and K itself); both loop orders; and L1
blockings that either keep all of K in L1 (the outer operand's block stays while the inner one streams,
the inner one as large as L1 allows) or split K (blocks as large as L1 allows). Loads: the doc's preferred
legal load of each operand first; then at the chosen tiling every legal load is priced and the cheapest
kept (the search reruns if that changes the loads).
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from functools import lru_cache
from types import SimpleNamespace

from ..base.errors import AscsimError, ParamRangeError, UnsupportedError
from ..core import Core
from ..isa.quant import deq_word
from ..machine.chips import ChipProfile, get_chip
from ..machine.dtypes import DType, get_dtype
from ..machine.layouts import R0, align, cdiv
from ..params import LoadData3DParamsV2, MmadParams
from .movers import API, PREFERENCE, fixpipe_call, fmap_slice_aligned, gran, legal_loads, why_illegal
from .operands import FmapOperand, MatrixOperand
from .problems import ConvProblem, MatmulProblem, acc_type
from .program import run_calls
from .schedule import Block, Cost, Gemm, even_blocks
from .timing import predict

OBJECTIVES = ("time", "balanced", "bytes", "traffic", "instructions")
CALL_BYTES = 512  # balanced objective: one call weighs as much as one 512-B fractal
#: objective "time": up to TIME_POOL candidates, the best by the balanced cost first, are scheduled
#: (planner.timing, a stream of TIME_CAP output tiles per core, the rest extrapolated) and the fastest kept.
#: The pool holds every candidate of the acceptance problems (at most 97 there): a pool of the 8 best by
#: balanced missed the fastest by up to 1.74x (divergence N15); the bound keeps the search bounded.
TIME_POOL = 256
TIME_CAP = 4


def score(cost: Cost, objective: str) -> tuple[int, int]:
    b, c = cost.total_bytes, cost.total_calls
    if objective in ("traffic", "bytes"):
        return b, c
    if objective == "instructions":
        return c, b
    return b + CALL_BYTES * c, c


@dataclass(frozen=True)
class Choice:
    """One point of the search space. conv2d: m_blk = output rows per feature-map slice, k_blk = channels
    per block, channels = the Load3D channelSize, b_trans = weights stored as Bᵀ (Cout x K)."""
    mt: int
    nt: int
    kt: int
    m_blk: int
    n_blk: int
    k_blk: int
    order: str
    a_load: str
    b_load: str
    b_trans: bool = False
    channels: int = 0


def sizes(total: int, g: int, limit: int = 24) -> list[int]:
    """Balanced tile sizes of a dimension, largest first: min(total, align(ceil(total/t), g)) for tile counts
    t = 1..8 and the counts that give tiles near g, 2g, 4g, ... (so small tiles of a big dimension are
    candidates too); at most `limit` of them."""
    counts = set(range(1, 9))
    s = g
    while s < total:
        counts.add(cdiv(total, s))
        s *= 2
    out = sorted({min(total, align(cdiv(total, t), g)) for t in counts}, reverse=True)
    return out[:limit]


def largest(pred: Callable[[int], bool], step: int, total: int) -> int:
    """The largest multiple of `step` (or `total` itself) for which pred holds (pred monotone), or 0."""
    if pred(total):
        return total
    lo, hi = 0, cdiv(total, step) - 1  # multiples 1..hi are below total
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if pred(mid * step):
            lo = mid
        else:
            hi = mid - 1
    return lo * step


# ==================================================================================================
# The shared machinery: build a Gemm for a choice, check capacity, cost it
# ==================================================================================================


class _Search:
    """Per-problem state: chip, dtype, operands (cached per load / layout so their cost caches persist)."""
    instr = "plan"

    def __init__(self, chip: ChipProfile, dt: DType, objective: str, bias: bool = False, buffers: int = 2
                 ) -> None:
        if objective not in OBJECTIVES:
            raise ParamRangeError(f"{self.instr}: objective must be one of {', '.join(OBJECTIVES)}, but got "
                                  f"{objective!r}")
        self.chip, self.dt, self.objective = chip, dt, objective
        self.ct = acc_type(dt)
        self.mem = chip.memory_sizes
        self.bias = bias
        # ping-pong: two A / B blocks in L1 and two tiles in L0A / L0B (L0C and the BiasTable stay single)
        self.buffers = buffers
        self._ops: dict = {}
        self.evaluated = 0

    def gemm(self, ch: Choice) -> Gemm:
        raise NotImplementedError

    def fits(self, g: Gemm) -> str | None:
        """None if the plan fits every memory, else which one it overflows."""
        l0a = max(g.tile_load("a", me, ke)[3] for me in _exts(g.m_segs) for ke in _exts(g.k_segs))
        l0b = max(g.tile_load("b", ke, ne)[3] for ke in _exts(g.k_segs) for ne in _exts(g.n_segs))
        nb_ = self.buffers
        if l0a * nb_ > self.mem["L0A"]:
            return f"L0A ({nb_} x {l0a} B > {self.mem['L0A']} B)"
        if l0b * nb_ > self.mem["L0B"]:
            return f"L0B ({nb_} x {l0b} B > {self.mem['L0B']} B)"
        ha = max(g.tile_load("a", me, g.k_segs[0].ext)[2] for me in _exts(g.m_segs))
        nb = max(g.tile_load("b", g.k_segs[0].ext, ne)[2] for ne in _exts(g.n_segs))
        l0c = align(ha, R0) * align(nb, R0) * self.ct.bits // 8
        if l0c > self.mem["L0C"]:
            return f"L0C ({l0c} B > {self.mem['L0C']} B)"
        if self.bias and nb * self.ct.bits // 8 > self.mem["BT"]:
            return f"BT ({nb * self.ct.bits // 8} B > {self.mem['BT']} B)"
        l1 = self.l1_bytes(g)
        if l1 > self.mem["L1"]:
            return f"L1 ({l1} B > {self.mem['L1']} B)"
        return None

    def l1_bytes(self, g: Gemm) -> int:
        """L1 in use: `buffers` slots of the A and B blocks, plus the bias."""
        r = self.l1_regions(g)
        return self.buffers * (r["a"] + r["b"]) + r.get("bias", 0)

    def l1_regions(self, g: Gemm) -> dict[str, int]:
        """Bytes of the A and B block buffers in L1 (each the largest block, 512-B aligned)."""
        bits = self.dt.bits
        a = max(g.a.l1_length(mb, kb) for mb in _distinct(g.m_blocks) for kb in _distinct(g.k_blocks))
        b = max(g.b.l1_length(kb, nb) for kb in _distinct(g.k_blocks) for nb in _distinct(g.n_blocks))
        out = {"a": align(a * bits // 8, 512), "b": align(b * bits // 8, 512)}
        if self.bias:
            out["bias"] = align(bias_length(g.n_total) * self.ct.bits // 8, 512)
        return out

    def evaluate(self, ch: Choice) -> tuple[tuple[int, int], Gemm, Cost] | None:
        try:
            g = self.gemm(ch)
            if self.fits(g) is not None:
                return None
        except AscsimError:
            return None
        self.evaluated += 1
        cost = g.cost()
        return score(cost, self.objective), g, cost

    def best(self, choices: Iterator[Choice]) -> tuple[Choice, Gemm, Cost] | None:
        if self.objective == "time":
            pool = sorted(((r[0], n, ch, r[1], r[2]) for n, ch in enumerate(choices)
                           if (r := self.evaluate(ch)) is not None), key=lambda x: x[:2])[:TIME_POOL]
            if not pool:
                return None
            return min(pool, key=lambda x: (self.predicted(x[2], x[3]), x[:2]))[2:]
        top = None
        for ch in choices:
            r = self.evaluate(ch)
            if r is not None and (top is None or r[0] < top[0]):
                top = (r[0], ch, r[1], r[2])
        return None if top is None else top[1:]

    def predicted(self, ch: Choice, g: Gemm) -> float:
        """The kernel's predicted cycles for one candidate (planner.timing, capped stream)."""
        kind = "matmul" if isinstance(self.p, MatmulProblem) else "conv2d"  # type: ignore[attr-defined]
        view = SimpleNamespace(gemm=g, choice=ch, chip=self.chip, dt=self.dt, kind=kind,
                               problem=self.p)  # type: ignore[attr-defined]
        return predict(view, buffering="double" if self.buffers == 2 else "single", cap=TIME_CAP).cycles

    def resolve_load(self, side: str, trans: bool, load: str) -> tuple[str, ...]:
        return resolve_load(self.instr, self.chip, self.dt, side, trans, load)

    def load_reasons(self, side: str, trans: bool, chosen: str, ch: Choice) -> str:
        """Why this load: the others' refusals (doc-cited) and, for the legal ones, their price here."""
        what = ("A" if side == "a" else "B") + (" stored transposed" if trans else "")
        parts = []
        mine = self.evaluate(ch)
        for ld in PREFERENCE[self.chip.l0a_format]:
            if ld == chosen:
                continue
            why = why_illegal(self.chip, self.dt, side, trans, ld)
            if why is not None:
                parts.append(f"{API[ld]}: {why}")
                continue
            r = self.evaluate(replace(ch, **{f"{side}_load": ld}))
            if r is None:
                parts.append(f"{API[ld]} is legal but does not fit")
            elif mine is not None and r[0] == mine[0]:
                parts.append(f"{API[ld]} is legal and costs the same (the doc's preferred order decides, "
                             "表5)")
            else:
                parts.append(f"{API[ld]} is legal but costs {r[2].total_calls} calls / "
                             f"{r[2].total_bytes:,} B")
        head = f"{what} ({self.dt.name}) on {self.chip.name} -> {API[chosen]}"
        return head + (": " + "; ".join(parts) if parts else " (the only load)")

    def refine_loads(self, ch: Choice, a_loads: tuple[str, ...], b_loads: tuple[str, ...]) -> Choice:
        """At a chosen tiling, price every legal load pair and keep the cheapest."""
        found = self.best(replace(ch, a_load=la, b_load=lb) for la in a_loads for lb in b_loads)
        return ch if found is None else found[0]


def resolve_load(instr: str, chip: ChipProfile, dt: DType, side: str, trans: bool, load: str
                 ) -> tuple[str, ...]:
    """The loads to try for one operand: the forced one (checked) or every legal one, preferred first."""
    legal = legal_loads(chip, dt, side, trans)
    name = f"{side}_load"
    if load != "auto" and load not in API:
        raise ParamRangeError(f"{instr}: {name} must be 'auto' or one of {', '.join(API)}, but got {load!r}")
    if load == "auto":
        if not legal:
            raise UnsupportedError(
                f"{instr}: {name} 'auto' found no load for {'A' if side == 'a' else 'B'} "
                f"({dt.name}, {side}_trans={trans}) on {chip.name}: "
                + "; ".join(f"{ld}: {why_illegal(chip, dt, side, trans, ld)}"
                            for ld in PREFERENCE[chip.l0a_format]))
        return legal
    why = why_illegal(chip, dt, side, trans, load)
    if why is not None:
        raise UnsupportedError(f"{instr}: {name} must be one of {', '.join(legal) or 'none'} for {dt.name} "
                               f"with {side}_trans={trans} on {chip.name}, but got {load!r}: {why}")
    return (load,)


def _exts(segs) -> set[int]:
    return {s.ext for s in segs}


def _distinct(blocks: tuple[Block, ...]) -> list[Block]:
    """Blocks with distinct extents / metadata kinds (their lengths are what the L1 budget needs)."""
    seen, out = set(), []
    for b in blocks:
        key = b.ext if b.meta is None else (b.ext, b.meta[1:] if len(b.meta) == 3 else b.meta)
        if key not in seen:
            seen.add(key)
            out.append(b)
    return out


# ==================================================================================================
# matmul
# ==================================================================================================


class MatmulSearch(_Search):
    def __init__(self, p: MatmulProblem, objective: str, instr: str, buffers: int = 2) -> None:
        self.instr = instr
        self.p = p
        super().__init__(get_chip(p.chip), p.dt, objective, p.bias, buffers)
        self.chip.check_combo("Mmad", (self.dt.name, self.dt.name, self.ct.name), instr=instr)
        for on, what, err in ((p.bias, "--bias", bias_error), (p.quant, f"--quant {p.quant}", deq_error)):
            why = err(self.chip.key, self.dt.name) if on else None
            if why is not None:
                raise UnsupportedError(f"{instr}: {what} with {self.dt.name} operands on {self.chip.name} is "
                                       f"refused by the instruction itself: {why}")

    def operand(self, side: str, load: str) -> MatrixOperand:
        key = (side, load)
        op = self._ops.get(key)
        if op is None:
            p, dt = self.p, self.dt
            trans = p.a_trans if side == "a" else p.b_trans
            rows, cols = ((p.k, p.m) if trans else (p.m, p.k)) if side == "a" else \
                ((p.n, p.k) if trans else (p.k, p.n))
            pitch = cols + (cols % 2 if dt.is_4bit else 0)
            # b32 squares on A2/A3 need the 16-row banded L1 layout (Nz "当且仅当Row==16")
            banded = self.chip.l0a_format == "ZZ" and dt.bits == 32 and load == "transpose"
            op = MatrixOperand(side, self.chip, dt, load, trans, f"{side}_gm", pitch, f"{side}1", f"{side}2",
                               banded)
            self._ops[key] = op
        return op

    def gemm(self, ch: Choice) -> Gemm:
        p = self.p
        return Gemm(even_blocks(p.m, ch.m_blk), even_blocks(p.n, ch.n_blk), even_blocks(p.k, ch.k_blk),
                    ch.mt, ch.nt, ch.kt, ch.order, self.operand("a", ch.a_load), self.operand("b", ch.b_load),
                    "c_gm", "c0", p.n, self.ct.bits // 8, 2 if p.quant else self.ct.bits // 8, self.chip,
                    k_mmad=(lambda k: align(k, 2)) if self.dt.is_4bit else (lambda k: k),
                    bias=("bias_gm", "bias1", "bias2", bias_length(p.n)) if p.bias else None,
                    deq_word=deq_word(p.scale) if p.quant else None)

    def l0_tiles(self, g_tile: int) -> Iterator[tuple[int, int]]:
        p = self.p
        for mt in sizes(p.m, g_tile):
            for nt in sizes(p.n, g_tile):
                yield mt, nt

    def choices(self, la: str, lb: str, tiles: tuple[int, int, int] | None) -> Iterator[Choice]:
        p = self.p
        g = gran(self.dt)
        pairs = [(tiles[0], tiles[1])] if tiles else list(self.l0_tiles(g))
        for mt, nt in pairs:
            kts = [tiles[2]] if tiles else self._kts(mt, nt, la, lb, g)
            for kt in kts:
                for order in ("mn", "nm"):
                    for mb, nb, kb in self._l1_options(mt, nt, kt, order, la, lb):
                        yield Choice(mt, nt, kt, mb, nb, kb, order, la, lb, p.b_trans)

    def _kts(self, mt: int, nt: int, la: str, lb: str, g: int) -> list[int]:
        """The largest kt that fits L0A and L0B for this (mt, nt), and all of K when that fits too."""
        p = self.p
        ch = Choice(mt, nt, p.k, mt, nt, p.k, "mn", la, lb)

        def ok(kt: int) -> bool:
            gm = self.gemm(replace(ch, kt=kt, k_blk=kt))
            a = gm.tile_load("a", mt, kt)
            b = gm.tile_load("b", kt, nt)
            return a[3] * self.buffers <= self.mem["L0A"] and b[3] * self.buffers <= self.mem["L0B"]

        best = largest(ok, g, p.k)
        if not best:
            return []
        return [min(p.k, align(cdiv(p.k, cdiv(p.k, best)), g))]  # balanced: same tile count, less tail

    def _l1_options(self, mt: int, nt: int, kt: int, order: str, la: str, lb: str
                    ) -> Iterator[tuple[int, int, int]]:
        p = self.p
        base = Choice(mt, nt, kt, mt, nt, kt, order, la, lb)

        def fits(mb: int, nb: int, kb: int) -> bool:
            g = self.gemm(replace(base, m_blk=mb, n_blk=nb, k_blk=kb))
            return self.l1_bytes(g) <= self.mem["L1"]

        seen = set()
        # K resident: the outer operand's block holds one tile row; the inner one grows as L1 allows
        if order == "mn":
            nb = largest(lambda x: fits(mt, x, p.k), nt, p.n)
            if nb:
                seen.add((mt, nb, p.k))
                mb = largest(lambda x: fits(x, nb, p.k), mt, p.m)
                seen.add((mb, nb, p.k))
        else:
            mb = largest(lambda x: fits(x, nt, p.k), mt, p.m)
            if mb:
                seen.add((mb, nt, p.k))
                nb = largest(lambda x: fits(mb, x, p.k), nt, p.n)
                seen.add((mb, nb, p.k))
        # K split: one tile row / column per block, K blocks as large as L1 allows
        kb = largest(lambda x: fits(mt, nt, x), kt, p.k)
        if kb and kb < p.k:
            seen.add((mt, nt, kb))
        yield from sorted(seen)


# ==================================================================================================
# conv2d
# ==================================================================================================


def bias_length(n: int) -> int:
    """Elements of the bias vector in GM / L1: n padded so every L1 -> BT copy of a tile (up to 64 values
    past its start) stays inside, a whole number of 32-B blocks."""
    return align(n, 64) + 64


def _trial(chip: str, run: Callable) -> str | None:
    """Run `run(core)` on a scratch core: None if the validators accept it, else their message."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            run(Core(chip))
    except AscsimError as e:
        return str(e)
    return None


@lru_cache(maxsize=64)
def bias_error(chip: str, dtype: str) -> str | None:
    """Whether Mmad takes a BiasTable bias with these operands (asked of Mmad itself, one 16 x 16 tile)."""
    dt = get_dtype(dtype)
    ct = acc_type(dt)

    def run(core) -> None:
        a, b = core.tensor("A2", dt, R0 * dt.c0), core.tensor("B2", dt, R0 * dt.c0)
        c, bias = core.tensor("CO1", ct, R0 * R0), core.tensor("C2", ct, R0)
        core.mmad(c, a, b, MmadParams(R0, R0, dt.c0, cmatrixInitVal=False), bias)

    return _trial(chip, run)


@lru_cache(maxsize=64)
def deq_error(chip: str, dtype: str) -> str | None:
    """Whether Fixpipe dequantises this dtype's L0C result with DEQF16 (asked of Fixpipe itself)."""
    ct = acc_type(get_dtype(dtype))

    def run(core) -> None:
        ts = {"c": core.tensor("CO1", ct, R0 * R0), "y": core.global_tensor("half", R0 * R0)}
        run_calls(core, ts, [fixpipe_call(core.chip, ("y", 0), "c", R0, R0, R0, R0, 2, deq_word(1.0))])

    return _trial(chip, run)


@lru_cache(maxsize=512)
def channel_size_error(chip: str, dtype: str, c: int) -> str | None:
    """None if Load3D v2 accepts channelSize = c for this chip and dtype, else its refusal — asked of the
    validator itself through a one-pixel call on a scratch core (the planner never restates a rule)."""
    core = Core(chip)
    dt = get_dtype(dtype)
    src = core.tensor("A1", dt, align(c, dt.c0))
    dst = core.tensor("A2", dt, R0 * align(c, dt.c0))
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            core.load_data(dst, src, LoadData3DParamsV2([0, 0, 0, 0], 1, 1, c, c, R0, 0, 0, padValue=0))
    except AscsimError as e:
        return str(e)
    return None


class ConvSearch(_Search):
    def __init__(self, p: ConvProblem, objective: str, instr: str, buffers: int = 2) -> None:
        self.instr = instr
        self.p = p
        super().__init__(get_chip(p.chip), p.dt, objective, buffers=buffers)
        self.chip.check_combo("Mmad", (self.dt.name, self.dt.name, self.ct.name), instr=instr)
        self.chip.check("Load3Dv2", self.dt.name, "L1", "L0A", instr=instr)

    def channel_options(self) -> list[int]:
        """channelSize candidates: the smallest Load3D accepts >= C, and C rounded up to whole C0 groups."""
        c, c0 = self.p.c, self.dt.c0
        out = []
        for cand in range(c, c + c0 + 1):
            if channel_size_error(self.chip.key, self.dt.name, cand) is None:
                out.append(cand)
                break
        if not out:  # pragma: no cover - every dtype has the N*C0 forms
            raise ParamRangeError(f"{self.instr}: no channelSize >= {c} is accepted by Load3D for "
                                  f"{self.dt.name}")
        if out[0] % c0:
            out.append(align(c, c0))
        return out

    def a_operand(self, channels: int) -> FmapOperand:
        key = ("a", channels)
        op = self._ops.get(key)
        if op is None:
            p = self.p
            per32 = 256 // self.dt.bits
            op = FmapOperand(self.dt, "x_gm", "a1", "a2", channels, p.h, p.w, p.out_h, p.out_w, (p.kh, p.kw),
                             p.pads, p.stride, p.dilation, align(channels * p.h * p.w, per32))
            self._ops[key] = op
        return op

    def b_operand(self, channels: int, trans: bool, load: str) -> MatrixOperand:
        key = ("b", channels, trans, load)
        op = self._ops.get(key)
        if op is None:
            p = self.p
            k = channels * p.kh * p.kw
            cols = k if trans else p.cout
            banded = self.chip.l0a_format == "ZZ" and self.dt.bits == 32 and load == "transpose"
            op = MatrixOperand("b", self.chip, self.dt, load, trans, "w_gm", cols, "b1", "b2", banded)
            self._ops[key] = op
        return op

    def gemm(self, ch: Choice) -> Gemm:
        p = self.p
        a = self.a_operand(ch.channels)
        return Gemm(a.m_blocks(p.n, ch.m_blk), even_blocks(p.cout, ch.n_blk), a.k_blocks(ch.k_blk),
                    ch.mt, ch.nt, ch.kt, ch.order, a, self.b_operand(ch.channels, ch.b_trans, ch.b_load),
                    "y_gm", "c0", p.cout, self.ct.bits // 8, self.ct.bits // 8, self.chip)

    def choices(self, layouts: list[tuple[bool, str]], chans: list[int], tiles: tuple[int, int, int] | None
                ) -> Iterator[Choice]:
        p = self.p
        g = gran(self.dt)
        hw = p.out_h * p.out_w
        for chan in chans:
            k = chan * p.kh * p.kw
            mts = [tiles[0]] if tiles else sizes(hw, R0, 16)
            nts = [tiles[1]] if tiles else sizes(p.cout, g, 8)
            for b_trans, lb in layouts:
                for mt in mts:
                    for nt in nts:
                        base = Choice(mt, nt, g, p.out_h, nt, chan, "mn", "load3d", lb, b_trans, chan)
                        kts = [tiles[2]] if tiles else self._kts(base, k, g)
                        for kt in kts:
                            for order in ("mn", "nm"):
                                yield from self._l1_options(replace(base, kt=kt, order=order))

    def _kts(self, base: Choice, k: int, g: int) -> list[int]:
        def ok(kt: int) -> bool:
            gm = self.gemm(replace(base, kt=kt))
            a = gm.tile_load("a", base.mt, min(kt, k))
            b = gm.tile_load("b", min(kt, k), base.nt)
            return a[3] * self.buffers <= self.mem["L0A"] and b[3] * self.buffers <= self.mem["L0B"]

        best = largest(ok, g, k)
        return [min(k, align(cdiv(k, cdiv(k, best)), g))] if best else []

    def _l1_options(self, base: Choice) -> Iterator[Choice]:
        p = self.p
        c0 = self.dt.c0

        def fits(rows: int, nb: int, cb: int) -> bool:
            g = self.gemm(replace(base, m_blk=rows, n_blk=nb, k_blk=cb))
            return self.l1_bytes(g) <= self.mem["L1"] and self._aligned(chan, rows, cb)

        seen = set()
        chan = base.channels
        for nb in (p.cout, base.nt):  # weights resident, or one N tile at a time
            rows = largest(lambda r, nb=nb: fits(r, nb, chan), 1, p.out_h)
            if rows:
                seen.add((rows, nb, chan))
        # channel blocks: one output-row slice and N tile per block, as many channels as fit
        rows = min(p.out_h, cdiv(base.mt, p.out_w))
        cb = largest(lambda c: fits(rows, base.nt, c), c0, chan)
        if cb and cb < chan:
            seen.add((rows, base.nt, cb))
        for rows, nb, cb in sorted(seen):
            yield replace(base, m_blk=rows, n_blk=nb, k_blk=cb)

    def _aligned(self, chan: int, rows: int, cb: int) -> bool:
        """Every slice of `rows` output rows starts its packed tail group on a 32-B boundary (movers)."""
        p = self.p
        a = self.a_operand(chan)
        if not chan % self.dt.c0 or rows >= p.out_h:
            return True
        return all(fmap_slice_aligned(self.dt, chan, min(chan, c + cb), p.w,
                                      a.input_rows(h, min(p.out_h, h + rows))[0])
                   for h in range(0, p.out_h, rows) for c in range(0, chan, cb))
