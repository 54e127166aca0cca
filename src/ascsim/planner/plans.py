"""`plan_matmul` / `plan_conv2d`: search, then hold the winner as a `TilePlan` — its program (the calls), its
cost, the reasons for each choice, and the means to run and verify it."""

from __future__ import annotations

import dataclasses
import warnings
from collections import Counter
from dataclasses import dataclass, field
from functools import cached_property, lru_cache

import numpy as np

from ..base.errors import AscsimError, ParamRangeError
from ..core import Core
from ..engine.record import ExecReport
from ..machine.dtypes import DType, get_dtype
from ..machine.layouts import R0, align
from ..machine.memory import LocalTensor
from .movers import API, gran
from .problems import ConvProblem, MatmulProblem, fmap_gm, matrix_gm, weights_to_b
from .program import Program, instr_name
from .schedule import Cost, Gemm
from .search import CALL_BYTES, TIME_POOL, Choice, ConvSearch, MatmulSearch, channel_size_error
from .timing import predict


@dataclass
class Verification:
    """A verification run: PASS when every element is within `tolerance` of the reference."""
    passed: bool
    max_error: float
    reference: str
    tolerance: str
    result: np.ndarray
    reports: list[ExecReport] = field(repr=False, default_factory=list)
    gm: dict[str, bytes] = field(repr=False, default_factory=dict)  # output tensors' GM bytes

    def line(self) -> str:
        verdict = "PASS" if self.passed else "FAIL"
        return (f"verification: {verdict} vs {self.reference}, max |error| {self.max_error:.3g} "
                f"({self.tolerance})")


@dataclass
class TilePlan:
    """A chosen plan: the problem, the winning `Choice`, its loop nest (`gemm`), estimated cost, reasons."""
    problem: MatmulProblem | ConvProblem
    choice: Choice
    gemm: Gemm
    cost: Cost
    reasons: list[str]
    objective: str
    candidates: int
    l1_regions: dict[str, int]
    buffers: int = 2  # slots per level the search reserved (L1 A / B blocks, L0A / L0B tiles)

    @property
    def kind(self) -> str:
        return "matmul" if isinstance(self.problem, MatmulProblem) else "conv2d"

    @property
    def dt(self) -> DType:
        return self.problem.dt

    @property
    def chip(self):
        return self.gemm.chip

    @cached_property
    def program(self) -> Program:
        """Tensors and calls (GM inputs without data: `gm_inputs` gives them)."""
        p, dt, chip = self.problem, self.dt, self.chip
        ct = get_dtype("int32_t" if dt.kind == "int" else "float")
        mem = chip.memory_sizes
        prog = Program(chip.key, description=f"{p.describe()} on {chip.name}, planned by ascsim plan "
                                             f"({self.objective})")
        if isinstance(p, MatmulProblem):
            sa, sb = _stored_shapes(p)
            prog.declare("a_gm", "GM", dt, sa[0] * _pitch(dt, sa[1]), note=f"A{'ᵀ' if p.a_trans else ''} "
                         f"{sa[0]} x {sa[1]} row-major")
            prog.declare("b_gm", "GM", dt, sb[0] * _pitch(dt, sb[1]), note=f"B{'ᵀ' if p.b_trans else ''} "
                         f"{sb[0]} x {sb[1]} row-major")
            out_t = get_dtype("half") if p.quant else ct
            prog.declare("c_gm", "GM", out_t, p.m * p.n, note=f"C {p.m} x {p.n} row-major")
            prog.outputs = ("c_gm",)
            if p.bias:
                prog.declare("bias_gm", "GM", ct, self.gemm.bias[3], note=f"bias, {p.n} values (zero padded)")
        else:
            chan = self.choice.channels
            per32 = 256 // dt.bits
            prog.declare("x_gm", "GM", dt, p.n * align(chan * p.h * p.w, per32) + per32,
                         note=f"x: {p.n} image(s) of {chan} channels, Load3D L1 layout (NC1HWC0 + tail)")
            k = chan * p.kh * p.kw
            prog.declare("w_gm", "GM", dt, k * p.cout,
                         note=f"weights as {'Bᵀ (Cout x K)' if self.choice.b_trans else 'B (K x Cout)'}, "
                              f"K = {chan}*{p.kh}*{p.kw} in img2col column order")
            prog.declare("y_gm", "GM", ct, p.n * p.out_h * p.out_w * p.cout,
                         note="y as (N*Ho*Wo) x Cout row-major (NHWC)")
            prog.outputs = ("y_gm",)
        a_bytes = self.l1_regions["a"]
        prog.declare("a1", "A1", dt, a_bytes * 8 // dt.bits, 0, note="L1 buffer of A blocks")
        prog.declare("b1", "B1", dt, self.l1_regions["b"] * 8 // dt.bits, a_bytes,
                     note="L1 buffer of B blocks")
        prog.declare("a2", "A2", dt, mem["L0A"] * 8 // dt.bits, 0, note="L0A")
        prog.declare("b2", "B2", dt, mem["L0B"] * 8 // dt.bits, 0, note="L0B")
        prog.declare("c0", "CO1", ct, mem["L0C"] * 8 // ct.bits, 0, note="L0C")
        if "bias" in self.l1_regions:
            prog.declare("bias1", "C1", ct, self.gemm.bias[3], a_bytes + self.l1_regions["b"],
                         note="L1 copy of the bias")
            prog.declare("bias2", "C2", ct, mem["BT"] * 8 // ct.bits, 0, note="BiasTable")
        self.gemm.emit(prog)
        return prog

    # -- data --------------------------------------------------------------------------------------
    def gm_inputs(self, inputs: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
        """The GM tensors' contents for logical inputs (matmul: a m x k, b k x n; conv2d: x NCHW, w OIHW)."""
        p, dt = self.problem, self.dt
        if isinstance(p, MatmulProblem):
            sa, sb = p.stored(np.asarray(inputs["a"]), np.asarray(inputs["b"]))
            out = {"a_gm": matrix_gm(dt, sa)[0].ravel(), "b_gm": matrix_gm(dt, sb)[0].ravel()}
            if p.bias:
                bias = np.zeros(self.gemm.bias[3])
                bias[: p.n] = inputs["bias"]
                out["bias_gm"] = bias
            return out
        chan = self.choice.channels
        x = np.asarray(inputs["x"])
        b = weights_to_b(np.asarray(inputs["w"], dtype=np.float64), chan, dt.c0)
        return {"x_gm": fmap_gm(dt, x, chan)[0], "w_gm": (b.T if self.choice.b_trans else b).ravel()}

    def output(self, tensors: dict[str, LocalTensor]) -> np.ndarray:
        """The result as the user sees it: C (m x n) or y (N, Co, Ho, Wo); int32 or float32."""
        p = self.problem
        if isinstance(p, MatmulProblem):
            out = tensors["c_gm"].read().reshape(p.m, p.n)
            if p.quant:
                return out.astype(np.float16)
        else:
            y = tensors["y_gm"].read().reshape(p.n, p.out_h * p.out_w, p.cout)
            out = y.transpose(0, 2, 1).reshape(p.n, p.cout, p.out_h, p.out_w)
        return out.astype(np.int32 if self.dt.kind == "int" else np.float32)

    def bind(self, core: Core, inputs: dict[str, np.ndarray]) -> dict[str, LocalTensor]:
        """The program's tensors on `core`, GM inputs written from the logical inputs."""
        return self.program.bind(core, self.gm_inputs(inputs))

    def run(self, core: Core, inputs: dict[str, np.ndarray]) -> tuple[np.ndarray, list[ExecReport]]:
        """Execute the program on `core` for logical inputs; returns (result, one report per call)."""
        tensors, reports = self._run(core, inputs)
        return self.output(tensors), reports

    def _run(self, core: Core, inputs: dict[str, np.ndarray]
             ) -> tuple[dict[str, LocalTensor], list[ExecReport]]:
        tensors = self.bind(core, inputs)
        return self.program.run(core, tensors)

    def verify(self, inputs: dict[str, np.ndarray] | None = None, seed: int = 0, strict: bool = True
               ) -> Verification:
        """Run the plan on a fresh core (strict: hazards and doc conflicts are errors) and compare with the
        independent reference (planner.problems)."""
        p = self.problem
        inputs = p.random_inputs(seed) if inputs is None else inputs
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            tensors, reports = self._run(Core(p.chip, strict=strict), inputs)
        got = self.output(tensors)
        gm = {n: tensors[n].bytes().tobytes() for n in self.program.outputs}
        ref = p.reference(inputs)
        tol = p.tolerance(inputs)
        err = np.abs(got.astype(np.float64) - ref)
        ok = bool((err <= tol).all())
        name = "numpy matmul (int64 / float64)" if isinstance(p, MatmulProblem) else _conv_ref_name()
        tol_s = "exact" if np.isscalar(tol) and tol == 0 else "tolerance 2^-22*K*(|a|.|b|) per element"
        return Verification(ok, float(err.max()) if err.size else 0.0, name, tol_s, got, reports, gm)

    # -- report ------------------------------------------------------------------------------------
    def occupancy(self) -> dict[str, tuple[int, int]]:
        """(bytes used, capacity) per memory: `buffers` slots of the L1 blocks and L0A / L0B tiles."""
        g, mem = self.gemm, self.chip.memory_sizes
        ms, ns, ks = ({s.ext for s in segs} for segs in (g.m_segs, g.n_segs, g.k_segs))
        l0a = max(g.tile_load("a", m, k)[3] for m in ms for k in ks)
        l0b = max(g.tile_load("b", k, n)[3] for n in ns for k in ks)
        ha = max(g.tile_load("a", m, g.k_segs[0].ext)[2] for m in ms)
        nb = max(g.tile_load("b", g.k_segs[0].ext, n)[2] for n in ns)
        r, nb_ = self.l1_regions, self.buffers
        out = {"L1": (nb_ * (r["a"] + r["b"]) + r.get("bias", 0), mem["L1"]), "L0A": (nb_ * l0a, mem["L0A"]),
               "L0B": (nb_ * l0b, mem["L0B"]), "L0C": (align(ha, R0) * align(nb, R0) * g.csize, mem["L0C"])}
        if g.bias is not None:
            out["BT"] = (nb * g.csize, mem["BT"])
        return out

    def report(self, verification: Verification | None = None) -> str:
        return format_report(self, verification)


def _conv_ref_name() -> str:
    try:
        import torch  # noqa: F401
    except ImportError:  # pragma: no cover
        return "numpy direct convolution (float64 / exact ints)"
    return "torch.nn.functional.conv2d (float64)"


def _stored_shapes(p: MatmulProblem) -> tuple[tuple[int, int], tuple[int, int]]:
    return ((p.k, p.m) if p.a_trans else (p.m, p.k)), ((p.n, p.k) if p.b_trans else (p.k, p.n))


def _pitch(dt: DType, cols: int) -> int:
    return cols + (cols % 2 if dt.is_4bit else 0)


# ==================================================================================================
# the entry points
# ==================================================================================================


def _check_tiles(instr: str, tiles, dims: tuple[int, int, int], step: tuple[int, int, int]
                 ) -> tuple[int, int, int]:
    t = tuple(int(v) for v in tiles)
    if len(t) != 3:
        raise ParamRangeError(f"{instr}: tiles must be (mt, nt, kt), but got {tiles!r}")
    for name, v, full, g in zip(("mt", "nt", "kt"), t, dims, step, strict=True):
        if v < 1 or (v % g and v < full):
            raise ParamRangeError(f"{instr}: tiles {name} must be a multiple of {g} or >= the whole "
                                  f"dimension ({full}), but got {v}")
    return t  # type: ignore[return-value]


@lru_cache(maxsize=64)
def plan_matmul(problem: MatmulProblem, *, a_load: str = "auto", b_load: str = "auto",
                tiles: tuple[int, int, int] | None = None, objective: str = "time",
                instr: str = "plan matmul", tile_step: int | None = None, buffering: str = "double"
                ) -> TilePlan:
    """Search the tilings and loads of a matmul (planner.search) and return the cheapest `TilePlan`.

    a_load / b_load force a load ("load2d", "transpose", "load3d", "load2dv2"); tiles force (mt, nt, kt)
    (multiples of `tile_step`, default the dtype's granularity, or >= the whole dimension)."""
    p = problem
    s = MatmulSearch(p, objective, instr, _buffers(instr, buffering))
    la_all = s.resolve_load("a", p.a_trans, a_load)
    lb_all = s.resolve_load("b", p.b_trans, b_load)
    if tiles is not None:
        st = tile_step or gran(s.dt)
        tiles = _check_tiles(instr, tiles, (p.m, p.n, p.k), (st, st, st))
    found = s.best(s.choices(la_all[0], lb_all[0], tiles))
    if found is not None and (len(la_all) > 1 or len(lb_all) > 1):
        ch = s.refine_loads(found[0], la_all, lb_all)
        if (ch.a_load, ch.b_load) != (la_all[0], lb_all[0]):
            found = s.best(s.choices(ch.a_load, ch.b_load, tiles)) or found
    if found is None:
        raise ParamRangeError(f"{instr}: no tiling of {p.describe()} fits the memories of {s.chip.name}"
                              + (f" with tiles (mt, nt, kt) = {tiles}" if tiles else ""))
    ch, g, cost = found
    n = s.evaluated  # before the reasons price the alternatives
    reasons = [s.load_reasons("a", p.a_trans, ch.a_load, ch), s.load_reasons("b", p.b_trans, ch.b_load, ch)]
    reasons += _tiling_reasons(s, ch, g, n, tiles is not None)
    return TilePlan(p, ch, g, cost, reasons, objective, n, s.l1_regions(g), s.buffers)


def _buffers(instr: str, buffering: str) -> int:
    if buffering not in ("double", "single"):
        raise ParamRangeError(f"{instr}: buffering must be 'double' or 'single', but got {buffering!r}")
    return 2 if buffering == "double" else 1


@lru_cache(maxsize=64)
def plan_conv2d(problem: ConvProblem, *, tiles: tuple[int, int, int] | None = None,
                objective: str = "time", instr: str = "plan conv2d", b_load: str = "auto",
                weights: str = "auto", buffering: str = "double") -> TilePlan:
    """Search the tilings, channel padding, weight layout and B load of a conv2d and return the cheapest
    `TilePlan`. tiles force (mt, nt, kt) (multiples of 16, 32,
                                          32 or >= the whole dimension); weights forces the
    GM weight layout ("b": K x Cout, "bt": Cout x K)."""
    p = problem
    s = ConvSearch(p, objective, instr, _buffers(instr, buffering))
    if tiles is not None:  # img2col rows by fractal rows; B's N and K by 32 (a b8 square, 950 b8 Load3D rows)
        tiles = _check_tiles(instr, tiles, (p.out_h * p.out_w, p.cout, p.c * p.kh * p.kw), (R0, 32, 32))
    chans = s.channel_options()
    layouts = []
    for bt in (True, False):
        if weights != "auto" and bt != (weights == "bt"):
            continue
        try:
            lbs = s.resolve_load("b", bt, b_load)
        except AscsimError:
            if weights != "auto":
                raise
            continue
        layouts.append((bt, lbs))
    if not layouts:
        raise ParamRangeError(f"{instr}: no load moves the weights of {s.dt.name} on {s.chip.name}")
    found = s.best(s.choices([(bt, lbs[0]) for bt, lbs in layouts], chans, tiles))
    if found is not None:
        all_b = [(bt, lb) for bt, lbs in layouts for lb in lbs]
        refined = s.best(dataclasses.replace(found[0], b_trans=bt, b_load=lb) for bt, lb in all_b)
        new, old = refined[0] if refined else None, found[0]
        if new is not None and (new.b_trans, new.b_load) != (old.b_trans, old.b_load):
            found = s.best(s.choices([(new.b_trans, new.b_load)], chans, tiles)) or found
    if found is None:
        raise ParamRangeError(f"{instr}: no tiling of {p.describe()} fits the memories of {s.chip.name}"
                              + (f" with tiles (mt, nt, kt) = {tiles}" if tiles else ""))
    ch, g, cost = found
    n = s.evaluated
    reasons = [_channel_reason(s, ch), _weights_reason(s, ch, layouts),
               s.load_reasons("b", ch.b_trans, ch.b_load, ch)]
    reasons += _tiling_reasons(s, ch, g, n, tiles is not None)
    return TilePlan(p, ch, g, cost, reasons, objective, n, s.l1_regions(g), s.buffers)


def plan_for(problem: MatmulProblem | ConvProblem, choice: Choice, objective: str = "time",
             buffering: str = "double") -> TilePlan:
    """The plan of one given point of the search space (no search): tests and docs use it to run a
    particular blocking. Raises ParamRangeError when it does not fit the memories."""
    instr = "plan"
    s = (MatmulSearch if isinstance(problem, MatmulProblem) else ConvSearch)(problem, objective, instr,
                                                                               _buffers(instr, buffering))
    c0 = problem.dt.c0
    if isinstance(problem, ConvProblem) and choice.k_blk % c0 and choice.k_blk < choice.channels:
        raise ParamRangeError(f"{instr}: channel blocks must be whole C0 groups ({c0} channels of "
                              f"{problem.dt.name}) or all channels, but got k_blk = {choice.k_blk}")
    g = s.gemm(choice)
    over = s.fits(g)
    if over is not None:
        raise ParamRangeError(f"{instr}: {choice} overflows {over}")
    return TilePlan(problem, choice, g, g.cost(), ["the choice was given by the caller"], objective, 1,
                s.l1_regions(g), s.buffers)


# -- reasons --------------------------------------------------------------------------------------------


def _tiling_reasons(s, ch: Choice, g: Gemm, candidates: int, forced: bool) -> list[str]:
    nm, nn, nk = len(g.m_segs), len(g.n_segs), len(g.k_segs)
    obj = {"balanced": f"bytes + {CALL_BYTES} x calls", "traffic": "bytes, then calls",
           "bytes": "bytes, then calls", "instructions": "calls, then bytes",
           "time": (f"the kernel's predicted time, up to {TIME_POOL} candidates scheduled, the cheapest by "
                    f"bytes + {CALL_BYTES} x calls first")}[s.objective]
    head = ("tiles forced by the caller" if forced else
            f"the best of {candidates} candidates that fit every memory (objective: {obj})")
    out = [f"L0 tiles mt x nt x kt = {ch.mt} x {ch.nt} x {ch.kt}: {nm} x {nn} output tiles, {nk} K "
           f"step(s) each; {head}"]
    kb = len(g.k_blocks)
    outer = "M" if ch.order == "mn" else "N"
    what_a = "feature-map slice" if isinstance(s, ConvSearch) else "A block"
    if kb == 1:
        out.append(f"L1: all of K in one block, so the outer ({outer}) operand's block stays while the loop "
                   f"walks the other; {len(g.m_blocks)} {what_a}(s), {len(g.n_blocks)} B block(s)")
    else:
        out.append(f"L1: K split into {kb} blocks (the operands do not fit L1 whole along K); each output "
                   f"tile streams its {what_a}s and B blocks")
    if isinstance(s, ConvSearch) and len(g.m_blocks) > s.p.n:
        out.append("feature-map slices of output rows carry their own top / bottom padding (divergence N3)")
    if nk == 1:
        out.append("L0: one K step per output tile, so the outer operand's L0 tile is reused across the "
                   "inner loop")
    return out


def _channel_reason(s: ConvSearch, ch: Choice) -> str:
    c, chan, c0 = s.p.c, ch.channels, s.dt.c0
    if chan == c:
        return f"channelSize {chan}: Load3D accepts {c} channels of {s.dt.name} as they are"
    err = channel_size_error_text(s, c)
    why = f"Load3D refuses channelSize {c} ({err})" if err else f"{chan} = whole C0 groups of {c0}"
    why += "; asked of the validator, divergence N5"
    tail = "packed tail group" if chan % c0 else "whole C0 groups"
    return f"channelSize {chan} for {c} input channels ({tail}; zero channels appended): {why}"


def channel_size_error_text(s: ConvSearch, c: int) -> str | None:

    return channel_size_error(s.chip.key, s.dt.name, c)


def _weights_reason(s: ConvSearch, ch: Choice, layouts) -> str:
    lay = "Bᵀ (Cout x K: the OIHW weights flattened)" if ch.b_trans else "B (K x Cout)"
    others = [bt for bt, _ in layouts if bt != ch.b_trans]
    alt = "" if others else "; the other layout has no legal load here"
    what = "a plain fractal copy (表5 B转置)" if ch.b_trans else "a transposing load (表5 B不转置)"
    return f"weights stored in GM as {lay}: L1->L0B is {what} with {API[ch.b_load]}{alt} (divergence N6)"


# -- the report: tiles, bytes per memory level, instructions per pipe, occupancy, and why each choice --

#: cost categories -> the transfer they count
LEVELS = {"gm_l1_a": "GM -> L1 (A)", "gm_l1_b": "GM -> L1 (B)", "l1_l0a": "L1 -> L0A", "l1_l0b": "L1 -> L0B",
          "bias": "bias -> L1, BT", "mmad": "Mmad -> L0C", "fixpipe": "L0C -> GM"}
_PIPE_NAMES = {"MTE2": "MTE2 (GM -> L1)", "MTE1": "MTE1 (L1 -> L0A/L0B)", "M": "M (cube)",
               "FIX": "FIX (L0C -> GM)", "S": "S (scalar)"}


def _kb(n: int) -> str:
    return f"{n / 1024:,.1f} KB" if n >= 1024 else f"{n} B"


def measured(plan: TilePlan, v: Verification) -> dict[str, int]:
    """Bytes each category's calls wrote in the verification run (ExecReport.bytes_written)."""
    out: dict[str, int] = Counter()
    for call, rep in zip(plan.program.calls, v.reports, strict=True):
        out[category(call)] += rep.bytes_written
    return dict(out)


def category(call) -> str:
    if call.call == "DataCopy":
        if call.dst_mem == "BT" or call.args["dst"][0] == "bias1":
            return "bias"
        return "gm_l1_a" if call.args["dst"][0] == "a1" else "gm_l1_b"
    if call.call == "Mmad":
        return "mmad"
    if call.call == "Fixpipe":
        return "fixpipe"
    return "l1_l0a" if call.dst_mem == "L0A" else "l1_l0b"


def format_report(plan: TilePlan, v: Verification | None = None) -> str:
    ch, g, cost = plan.choice, plan.gemm, plan.cost
    prog = plan.program
    lines = [f"ascsim plan: {plan.problem.describe()} on {plan.chip.name}",
             f"objective: {plan.objective} (docs/planner.md; divergence N1); {plan.candidates} candidate(s) "
             "fit every memory", "", "tiles"]
    order = "M outer, N inner" if ch.order == "mn" else "N outer, M inner"
    lines.append(f"  L0 tile (mt x nt x kt): {ch.mt} x {ch.nt} x {ch.kt}; {len(g.m_segs)} x {len(g.n_segs)} "
                 f"output tiles, {len(g.k_segs)} K step(s); loop order {order}")
    if plan.kind == "conv2d":
        p = plan.problem
        lines.append(f"  L1 blocks: feature-map slices of {ch.m_blk} output row(s) x {ch.k_blk} channel(s) "
                     f"(channelSize {ch.channels}); weights {ch.channels * p.kh * p.kw} x {ch.n_blk} "
                     "(K x Cout)")
    else:
        lines.append(f"  L1 blocks: A {ch.m_blk} x {ch.k_blk} (m x k), B {ch.k_blk} x {ch.n_blk} (k x n)")
    lines.append(f"  loads: A {ch.a_load}, B {ch.b_load}")
    meas = measured(plan, v) if v is not None else None
    lines += ["", "bytes moved per level" + (" (measured in the verification run; estimate)" if meas else
                                             " (estimate)")]
    for cat, label in LEVELS.items():
        if cat not in cost.bytes:
            continue
        est = cost.bytes.get(cat, 0)
        val = f"{meas.get(cat, 0):>14,} B; {est:,} B" if meas else f"{est:>14,} B"
        lines.append(f"  {label:14} {val}")
    lines += ["", "instructions per pipe"]
    by_pipe: dict[str, Counter] = {}
    for c in prog.calls:
        by_pipe.setdefault(c.pipe, Counter())[instr_name(c)] += 1
    for pipe in ("MTE2", "MTE1", "M", "FIX", "S"):
        if pipe in by_pipe:
            items = ", ".join(f"{k} {n}" for k, n in sorted(by_pipe[pipe].items()))
            lines.append(f"  {_PIPE_NAMES[pipe]:22} {sum(by_pipe[pipe].values()):>7,}: {items}")
    lines.append(f"  {'total':22} {len(prog.calls):>7,} (estimate {cost.total_calls:,})")
    lines += ["", "memory occupancy (peak bytes in use / capacity)"]
    for mem, (used, size) in plan.occupancy().items():
        lines.append(f"  {mem:4} {_kb(used):>10} of {_kb(size):>9} ({100 * used / size:5.1f} %)")
    lines += tail_lines(plan) + kernel_lines(plan)
    lines += ["", "why"]
    lines += [f"  - {r}" for r in plan.reasons]
    if v is not None:
        lines += ["", v.line()]
    return "\n".join(lines)


def tail_lines(plan: TilePlan) -> list[str]:
    """The tile shapes the loop runs: per axis the extents (a block's last tile is min(tile, remaining)),
    then every distinct Mmad shape m x n x k (valid rows / columns) with how often it runs."""
    g, ch = plan.gemm, plan.choice
    out = ["", "tile shapes (ragged tails = min(tile, remaining) at the end of a block)"]
    counts = {}
    for name, segs, full in (("M", g.m_segs, ch.mt), ("N", g.n_segs, ch.nt), ("K", g.k_segs, ch.kt)):
        c = Counter(s.ext for s in segs)
        counts[name] = c
        parts = [f"{n} x {e}" + ("" if e == min(full, max(c)) else " (tail)") for e, n in
                 sorted(c.items(), reverse=True)]
        out.append(f"  {name}: {', '.join(parts)}")
    shapes = Counter()
    for me, cm in counts["M"].items():
        for ne, cn in counts["N"].items():
            for ke, ck in counts["K"].items():
                shapes[me, ne, ke] = cm * cn * ck
    top = max(shapes)
    for (me, ne, ke), n in sorted(shapes.items(), key=lambda x: (-x[1], x[0])):
        tag = "full tile" if (me, ne, ke) == top else "ragged"
        out.append(f"  Mmad {me} x {ne} x {ke} (m x n x k): {n:,} time(s) ({tag})")
    return out


def kernel_lines(plan: TilePlan) -> list[str]:
    """The emitted kernel (planner.kernel) and its predicted time for each buffering / sync variant
    (planner.timing; the what-if of docs/planner.md)."""
    blocks = plan.chip.aic_cores
    out = ["", f"kernel (plan.cpp: loops, {blocks} blocks; predicted by the timeline cost model, "
           "docs/timeline.md)"]
    variants = [("double", "flags"), ("single", "flags"), ("double", "barriers"), ("single", "barriers")]
    if plan.buffers < 2:
        variants = [v for v in variants if v[0] == "single"]
    base = None
    for buffering, sync in variants:
        pr = predict(plan, buffering=buffering, sync=sync)
        base = base or pr.cycles
        name = f"{'ping-pong' if buffering == 'double' else 'single-buffered'}, " \
               f"{'SetFlag / WaitFlag' if sync == 'flags' else 'PipeBarrier<PIPE_ALL> per call'}"
        ratio = "" if pr.cycles == base else f" ({pr.cycles / base:.2f}x)"
        out.append(f"  {name:50} {pr.line()}{ratio}")
    return out
