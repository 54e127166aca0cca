"""The predicted time of a plan's kernel: the event stream of planner.kernel's loop, built analytically (no
run), scheduled by the timeline's cost model (ascsim.engine.timeline, ascsim.machine.costs).

The stream is the busiest core's (the first: it gets ceil(tiles / blocks) output tiles) in the kernel's
order — the same block / tile reuse, the same SetFlag / WaitFlag pairs, or a PipeBarrier<PIPE_ALL> after
every call — with each routine's calls as instructions of their pipe and bytes (a routine's calls share
the bytes evenly; counts and totals from the plan's closed-form costs, schedule.copy_cost / tile_cost).

Bounded: a core with more than `cap` output tiles is scheduled for `cap` and `cap / 2` tiles and the rest
extrapolated at the steady-state rate between the two (the loop body repeats; docs/planner.md
"Predicted time"). Cores are independent in the timeline model (no shared GM bandwidth), so the kernel's
time is that core's.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from ..engine.timeline import Barrier, Instr, SetFlag, WaitFlag, schedule
from ..machine.costs import cost_model
from ..machine.layouts import cdiv
from .kernel import axes_of
from .schedule import copy_cost, tile_cost

CAP = 16  # output tiles scheduled per prediction before extrapolating


@dataclass(frozen=True)
class Prediction:
    """Predicted cycles / microseconds of the kernel (its busiest core), and the stream's size."""

    cycles: float
    us: float
    tiles: int  # output tiles of the busiest core
    simulated: int  # of them scheduled (the rest extrapolated)
    busy: dict[str, float]  # pipe -> busy cycles of the scheduled part

    def line(self) -> str:
        extra = "" if self.simulated == self.tiles else f", {self.simulated} scheduled, the rest extrapolated"
        return (f"{self.us:,.1f} us ({self.cycles:,.0f} cycles; {self.tiles} output tile(s) on the busiest "
                f"core{extra})")


@lru_cache(maxsize=16)
def _model(chip: str) -> Any:
    return cost_model(chip)


def _group(pipe: str, kind: str, path: str, calls: int, nbytes: int, barriers: bool) -> list:
    per = nbytes // max(calls, 1)
    out: list = []
    for _ in range(calls):
        out.append(Instr(pipe, kind, path, nbytes=per))
        if barriers:
            out.append(Barrier("ALL"))
    return out


def stream(plan: Any, *, buffering: str = "double", sync: str = "flags", blocks: int | None = None,
           tiles: int | None = None) -> tuple[list, int]:
    """(events of the busiest core for its first `tiles` output tiles, that core's output tile count)."""
    g = plan.gemm
    m, n, k = axes_of(plan)
    bufs = 2 if buffering == "double" else 1
    flags = sync == "flags"
    blocks = blocks or plan.chip.aic_cores
    total = m.count * n.count
    per = cdiv(total, blocks)
    mine = min(per, total)
    todo = mine if tiles is None else min(tiles, mine)
    outer, inner = (m, n) if plan.choice.order == "mn" else (n, m)
    dt = plan.dt.name
    ev: list = []

    def S(e: str, i: int) -> None:
        if flags:
            ev.append(SetFlag(e, i))

    def W(e: str, i: int) -> None:
        if flags:
            ev.append(WaitFlag(e, i))

    for s in range(bufs):
        S("MTE1_MTE2", s)
        S("MTE1_MTE2", 2 + s)
        S("M_MTE1", s)
        S("M_MTE1", 2 + s)
    S("FIX_M", 0)
    bias = g.bias is not None
    if bias:
        S("M_MTE1", 4)
        ev += _group("MTE2", "DataCopy", "GM->L1", 1, g.bias[3] * g.csize, not flags)
        S("MTE2_MTE1", 4)
        W("MTE2_MTE1", 4)
    cur = {"a": None, "b": None, "l0a": None, "l0b": None, "bt": None}
    slot = {"a": 0, "b": 0, "l0a": 0, "l0b": 0}
    base = {"a": 0, "b": 2, "l0a": 0, "l0b": 2}
    kp = [k.locate(i) for i in range(k.count)]

    def fill(name: str, key: tuple, rel: str, group: list) -> bool:
        if cur[name] == key:
            return False
        if cur[name] is not None:
            S(rel, base[name] + slot[name])
        slot[name] = (slot[name] + 1) % bufs
        cur[name] = key
        W(rel, base[name] + slot[name])
        ev.extend(group)
        return True

    for t in range(todo):
        o, i = divmod(t, inner.count)
        mp, np_ = (outer.locate(o), inner.locate(i)) if outer is m else (inner.locate(i), outer.locate(o))
        for ki, kq in enumerate(kp):
            mb, kb, nb = g.m_blocks[mp["block"]], g.k_blocks[kq["block"]], g.n_blocks[np_["block"]]
            loaded = False
            c, nbytes = copy_cost(g.a, mb, kb)
            copy = _group("MTE2", "DataCopy", "GM->L1", c, nbytes, not flags)
            if fill("a", (mp["block"], kq["block"]), "MTE1_MTE2", copy):
                S("MTE2_MTE1", slot["a"])
                W("MTE2_MTE1", slot["a"])
            c, nbytes = copy_cost(g.b, kb, nb)
            copy = _group("MTE2", "DataCopy", "GM->L1", c, nbytes, not flags)
            if fill("b", (kq["block"], np_["block"]), "MTE1_MTE2", copy):
                S("MTE2_MTE1", 2 + slot["b"])
                W("MTE2_MTE1", 2 + slot["b"])
            ca, ba, ha, _ = tile_cost(g.a, mp["ext"], kq["ext"], mb, kb)
            loaded |= fill("l0a", (mp["start"], kq["start"]), "M_MTE1",
                           _group("MTE1", "LoadData", "L1->L0A", ca, ba, not flags))
            cb, bb, pitch, _ = tile_cost(g.b, kq["ext"], np_["ext"], kb, nb)
            loaded |= fill("l0b", (kq["start"], np_["start"]), "M_MTE1",
                           _group("MTE1", "LoadData", "L1->L0B", cb, bb, not flags))
            if bias and ki == 0 and cur["bt"] != np_["start"]:
                W("M_MTE1", 4)
                cur["bt"] = np_["start"]
                ev += _group("MTE1", "DataCopy", "L1->BT", 1, pitch * g.csize, not flags)
                loaded = True
                bt_copied = True
            else:
                bt_copied = False
            if loaded:
                S("MTE1_M", 0)
                W("MTE1_M", 0)
            if ki == 0:
                W("FIX_M", 0)
            small = (ha // 16) * (pitch // 16) < 10
            if flags and ki and small:
                ev.append(Barrier("M"))
            ev.append(Instr("M", "Mmad", shape=(ha, g.k_mmad(kq["ext"]), pitch), dtype=dt))
            if not flags:
                ev.append(Barrier("ALL"))
            if bt_copied:
                S("M_MTE1", 4)
        S("M_FIX", 0)
        W("M_FIX", 0)
        ev += _group("FIX", "Fixpipe", "L0C->GM", 1, mp["ext"] * np_["ext"] * g.out_bytes, not flags)
        S("FIX_M", 0)
    for name, rel in (("a", "MTE1_MTE2"), ("b", "MTE1_MTE2"), ("l0a", "M_MTE1"), ("l0b", "M_MTE1")):
        if cur[name] is not None:
            S(rel, base[name] + slot[name])
    for s in range(bufs):
        W("MTE1_MTE2", s)
        W("MTE1_MTE2", 2 + s)
        W("M_MTE1", s)
        W("M_MTE1", 2 + s)
    W("FIX_M", 0)
    if bias:
        W("M_MTE1", 4)
    return ev, mine


def predict(plan: Any, *, buffering: str = "double", sync: str = "flags", blocks: int | None = None,
            cap: int = CAP) -> Prediction:
    """The kernel's predicted time (module docstring)."""
    model = _model(plan.chip.key)
    ev, mine = stream(plan, buffering=buffering, sync=sync, blocks=blocks, tiles=cap)
    s = schedule(ev, model)
    cycles = s.total_cycles
    simulated = min(cap, mine)
    if mine > cap:
        half = max(1, cap // 2)
        s2 = schedule(stream(plan, buffering=buffering, sync=sync, blocks=blocks, tiles=half)[0], model)
        rate = (s.total_cycles - s2.total_cycles) / (cap - half)
        cycles = s.total_cycles + rate * (mine - cap)
    busy = {p: st.busy for p, st in s.pipes.items() if st.busy}
    return Prediction(cycles, model.to_us(cycles), mine, simulated, busy)
