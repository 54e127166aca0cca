"""The plan report: tiles, bytes per memory level, instructions per pipe, occupancy, and why each choice."""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

from .program import instr_name

if TYPE_CHECKING:
    from .plans import Plan, Verification

#: cost categories -> the transfer they count
LEVELS = {"gm_l1_a": "GM -> L1 (A)", "gm_l1_b": "GM -> L1 (B)", "l1_l0a": "L1 -> L0A", "l1_l0b": "L1 -> L0B",
          "bias": "bias -> L1, BT", "mmad": "Mmad -> L0C", "fixpipe": "L0C -> GM"}
_PIPE_NAMES = {"MTE2": "MTE2 (GM -> L1)", "MTE1": "MTE1 (L1 -> L0A/L0B)", "M": "M (cube)",
               "FIX": "FIX (L0C -> GM)", "S": "S (scalar)"}


def _kb(n: int) -> str:
    return f"{n / 1024:,.1f} KB" if n >= 1024 else f"{n} B"


def measured(plan: Plan, v: Verification) -> dict[str, int]:
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


def format_report(plan: Plan, v: Verification | None = None) -> str:
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
    lines += ["", "why"]
    lines += [f"  - {r}" for r in plan.reasons]
    if v is not None:
        lines += ["", v.line()]
    return "\n".join(lines)
