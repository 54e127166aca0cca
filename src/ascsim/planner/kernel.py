"""A plan as the C++ kernel a person would write: a tiling struct, loops over the output tiles split across
the cores (`GetBlockIdx` / `GetBlockNum`), ping-pong L1 and L0 buffers ordered by SetFlag / WaitFlag, and
the ragged tails computed in the loop (docs/planner.md "The kernel").

How the calls become code. The planner's movers (planner.movers) produce, for each L1 block and each L0
tile, the exact calls the verification runs. The kernel has one routine per kind of call group (copy an A
block, copy a B block, load an A tile, load a B tile, the bias to the BiasTable, Mmad, Fixpipe); each
routine is derived from *every* instance the loop visits:

- each instance has the run-time variables of its loop position (`TilePos` of the M, N and K axes: the
  tile's index in its block, its extent `ext` = min(tile, remaining), the block's extent, ...);
- every numeric field of every call (params fields, tensor element offsets) is fitted as an affine
  function of those variables — positions, and extents through `CeilDiv(ext, d)` forms (align(ext, 16) is
  16 * CeilDiv(ext, 16)); the plainest form first, so that it reads as a person would write it: a size
  field one extent form (`n.ext`, not a position term that matches the same instances), a position field
  one position, a padding one first / last flag; a bool field may follow a flag (`kFirst`: the first K
  step initialises L0C);
- when one formula does not fit every instance (another number of calls for a ragged tile, another
  padList for the first feature-map slice), the instances are split by their extents, then by the block's
  first / last flags, and as a last resort one by one: each group is one `if` branch. So the code grows
  with the number of distinct tile shapes, never with the number of tiles;
- consecutive calls of one form whose fields are affine in their index `j` become a `for` loop (a step
  may be j times an extent form: `b2[256 * j * CeilDiv(n.ext, 16)]`).

Every formula is checked against every instance before it is printed, and the emitted kernel's output is
compared with the verification run's bytes (tests/planner/test_kernel.py, tools/plan_kernels.py).

Sync ("flags"; 同步控制/核内同步, the pattern of examples/matmul_pingpong.cpp): an L1 slot is filled by
MTE2 after `WaitFlag<MTE1_MTE2>` (MTE1 done reading its previous block) and handed to MTE1 with
`MTE2_MTE1`; an L0A / L0B slot is filled by MTE1 after `WaitFlag<M_MTE1>` and handed to the cube with
`MTE1_M`; L0C (one buffer) goes to Fixpipe with `M_FIX` and back with `FIX_M`. Every event id is primed
once before the loop and drained after it. "barriers" replaces all of that by a `PipeBarrier<PIPE_ALL>`
after every call (the what-if of issue 20 item 5); "single" buffering uses one slot per level.
"""

from __future__ import annotations

import dataclasses
import re
import tempfile
from collections.abc import Iterable
from dataclasses import dataclass, field
from enum import Enum
from pathlib import Path
from typing import Any

import numpy as np

from ..base.errors import NotImplementedFeature, ParamRangeError
from ..machine.layouts import cdiv
from ..scenario import load_scenario
from ..scenario.cpp import step_to_cpp, struct_lines
from .movers import bias_bt_copy, bias_gm_copy, fixpipe_call, mmad_call
from .program import Call, Program, scenario_text

BUFFERINGS = ("double", "single")
SYNCS = ("flags", "barriers")
_DIVISORS = (2, 8, 16, 32, 64)  # CeilDiv(ext, d) forms a field may use (fractal rows, C0s, squares)
_NONE = "NONE"


# ==================================================================================================
# the loop's axes
# ==================================================================================================


@dataclass(frozen=True)
class Axis:
    """One axis of the blocked loop in closed form: `groups` groups (images along conv2d's M, else 1) of
    `group_ext` elements, cut into blocks of `blk` (a group's last block shorter), each cut into tiles of
    `tile` (a block's last tile shorter) — what the emitted `Locate` computes at run time."""

    name: str
    groups: int
    group_ext: int
    blk: int
    tile: int

    @property
    def bpg(self) -> int:
        return cdiv(self.group_ext, self.blk)

    @property
    def tpb(self) -> int:
        return cdiv(self.blk, self.tile)

    @property
    def tpg(self) -> int:
        return (self.bpg - 1) * self.tpb + cdiv(self.group_ext - (self.bpg - 1) * self.blk, self.tile)

    @property
    def count(self) -> int:
        return self.groups * self.tpg

    def locate(self, i: int) -> dict[str, int]:
        """The TilePos of tile i (the Python twin of the kernel's `Locate`)."""
        g, r = divmod(i, self.tpg)
        b = r // self.tpb
        blk_ext = min(self.blk, self.group_ext - b * self.blk)
        off = (r % self.tpb) * self.tile
        return {"group": g, "blkIdx": b, "block": g * self.bpg + b, "blkExt": blk_ext, "tile": r % self.tpb,
                "off": off, "ext": min(self.tile, blk_ext - off),
                "start": g * self.group_ext + b * self.blk + off,
                "first": int(b == 0), "last": int(b == self.bpg - 1)}

    def check(self, segs: tuple) -> None:
        got = [(p["block"], p["off"], p["ext"], p["start"]) for p in map(self.locate, range(self.count))]
        if got != [(s.blk, s.off, s.ext, s.start) for s in segs]:
            raise NotImplementedFeature(f"plan kernel: the {self.name} tiles of this plan do not follow the "
                                        "closed form groups x blocks x tiles the kernel loops over")

    def cxx(self) -> str:
        fields = (self.groups, self.group_ext, self.blk, self.tile, self.bpg, self.tpb, self.tpg)
        return "{" + ", ".join(map(str, fields)) + "}"


def axes_of(plan: Any) -> tuple[Axis, Axis, Axis]:
    g, ch = plan.gemm, plan.choice
    if plan.kind == "conv2d":
        p = plan.problem
        hw, kk = p.out_h * p.out_w, p.kh * p.kw
        m = Axis("M", p.n, hw, ch.m_blk * p.out_w, ch.mt)
        k = Axis("K", 1, ch.channels * kk, ch.k_blk * kk, ch.kt)
        n = Axis("N", 1, p.cout, ch.n_blk, ch.nt)
    else:
        p = plan.problem
        m, n, k = (Axis(a, 1, d, b, t) for a, d, b, t in (("M", p.m, ch.m_blk, ch.mt),
                                                            ("N", p.n, ch.n_blk, ch.nt),
                                                            ("K", p.k, ch.k_blk, ch.kt)))
    for ax, segs in ((m, g.m_segs), (n, g.n_segs), (k, g.k_segs)):
        ax.check(segs)
    return m, n, k


# ==================================================================================================
# fitting fields to the loop variables
# ==================================================================================================


@dataclass(frozen=True)
class Expr:
    """const + sum(coef * var) in C++ spelling."""

    const: int
    terms: tuple[tuple[int, str], ...] = ()

    def cxx(self) -> str:
        parts = []
        for c, v in self.terms:
            parts.append(v if c == 1 else f"{c} * {v}")
        text = " + ".join(parts)
        if self.const or not parts:
            text = f"{text} + {self.const}" if parts else str(self.const)
        return text.replace("+ -", "- ")


@dataclass(frozen=True)
class Flag:
    """A bool field: a constant, or a loop flag (possibly negated)."""

    text: str

    def cxx(self) -> str:
        return self.text


def _leaves(c: Call) -> tuple[tuple, dict[str, Any]]:
    """(skeleton, fields): what must be equal for two calls to share code, and the numeric / bool fields
    (tensor element offsets as '@role', params fields by dotted path, list elements as 'name#i')."""
    vals: dict[str, Any] = {f"@{role}": idx for role, (_, idx) in c.args.items()}
    skel: list[Any] = [c.call, tuple(sorted((r, n) for r, (n, _) in c.args.items())), repr(c.extra),
                       c.dst_mem, c.src_mem]

    def walk(obj: Any, path: str) -> None:
        skel.append(type(obj).__name__)
        for f in dataclasses.fields(obj):
            v = getattr(obj, f.name)
            key = path + f.name
            if dataclasses.is_dataclass(v):
                walk(v, key + ".")
            elif isinstance(v, list):
                skel.append((key, len(v)))
                for i, x in enumerate(v):
                    vals[f"{key}#{i}"] = x
            elif isinstance(v, bool) or (isinstance(v, int) and not isinstance(v, Enum)):
                vals[key] = v
            else:
                skel.append((key, repr(v)))

    if c.params is not None:
        walk(c.params, "")
    return tuple(skel), vals


def _columns(rows: list[dict[str, int]], names: Iterable[str]) -> dict[str, np.ndarray]:
    return {n: np.array([r[n] for r in rows], dtype=np.int64) for n in names}


def _independent(cols: list[tuple[str, np.ndarray]], n: int) -> list[tuple[str, np.ndarray]]:
    """The columns that are not constant and raise the rank (with the intercept), in order."""
    out: list[tuple[str, np.ndarray]] = []
    mat = np.ones((n, 1))
    for name, v in cols:
        if v.min() == v.max():
            continue
        trial = np.column_stack([mat, v])
        if np.linalg.matrix_rank(trial) > mat.shape[1]:
            mat = trial
            out.append((name, v))
    return out


# params fields that say where (a start, a position, an offset): fitted by one position first; a padding
# by one first / last flag first (a slice has its padding because it is the first or last); every other
# params field is a size or a stride, fitted by one extent form first, so that it reads `n.ext`, not an
# equivalent position term that happens to match the same instances
_WHERE = re.compile(r"start|pos|offset", re.IGNORECASE)
_PAD = re.compile(r"pad", re.IGNORECASE)


def _exact(y: np.ndarray, cols: list[tuple[str, np.ndarray]]) -> Expr | None:
    """y = const + sum(coef * col) with integer coefficients, exactly on every row; else None."""
    n = len(y)
    mat = np.column_stack([np.ones(n)] + [v for _, v in cols])
    coef, *_ = np.linalg.lstsq(mat.astype(np.float64), y.astype(np.float64), rcond=None)
    r = np.rint(coef).astype(np.int64)
    if not np.array_equal(mat.astype(np.int64) @ r, y):
        return None
    return Expr(int(r[0]), tuple((int(c), name) for c, (name, _) in zip(r[1:], cols, strict=True) if c))


def _single(y: np.ndarray, cols: list[tuple[str, np.ndarray]]) -> Expr | None:
    """The plainest exact fit of y by one column: no constant and a unit coefficient first (`m.last`
    rather than `1 - m.first`), then the columns' order."""
    fits = [e for _, v in cols if v.min() != v.max() for e in [_exact(y, [(_, v)])] if e is not None]
    if not fits:
        return None
    return min(fits, key=lambda e: (e.const != 0, abs(e.terms[0][0]) != 1 if e.terms else True))


def fit_int(y: np.ndarray, pos: list[tuple[str, np.ndarray]], forms: list[tuple[str, np.ndarray]],
            flags: list[tuple[str, np.ndarray]] = (), *, kind: str = "where") -> Expr | None:
    """y as an integer affine function of the loop variables, checked exactly on every row; None if there
    is none. A "size" field tries one extent form first, then one flag; a "pad" one flag, then one
    position; a "where" field one position, then one flag; then all the positions plus at most one extent
    form."""
    if y.min() == y.max():
        return Expr(int(y[0]))
    order = {"size": [forms, list(flags)], "pad": [list(flags), pos], "where": [pos, list(flags)]}[kind]
    for cols in order:
        e = _single(y, cols)
        if e is not None:
            return e
    base = _independent(pos, len(y))
    for extra in [None, *forms]:
        cols = base + ([extra] if extra is not None and extra[1].min() != extra[1].max() else [])
        if extra is not None and len(cols) == len(base):
            continue
        e = _exact(y, cols)
        if e is not None:
            return e
    return None


def fit_bool(y: np.ndarray, flags: list[tuple[str, np.ndarray]]) -> Flag | None:
    if y.min() == y.max():
        return Flag("true" if y[0] else "false")
    for name, v in flags:
        if np.array_equal(v.astype(bool), y.astype(bool)):
            return Flag(name)
        if np.array_equal(~v.astype(bool), y.astype(bool)):
            return Flag(f"!{name}")
    return None


@dataclass
class CallT:
    """One call of a routine: an example (its skeleton and constants) and the fields computed at run time."""

    call: Call
    exprs: dict[str, Expr | Flag]


@dataclass
class LoopT:
    """`count` consecutive calls of one form, field formulas in the loop index `j`."""

    count: int
    body: CallT


@dataclass
class Variant:
    cond: tuple[tuple[str, int], ...]
    items: list[CallT | LoopT]


@dataclass
class Vars:
    """A routine's loop variables: positions (affine terms), extents (through CeilDiv forms, and the keys
    instances are first split by), flags (bool fields, the second split)."""

    pos: tuple[str, ...]
    ext: tuple[str, ...]
    flags: tuple[str, ...] = ()
    divisors: tuple[int, ...] = _DIVISORS  # conv2d adds the output width (a block's rows of output)

    def forms(self, rows: list[dict[str, int]]) -> list[tuple[str, np.ndarray]]:
        out = []
        for e in self.ext:
            v = np.array([r[e] for r in rows], dtype=np.int64)
            out.append((e, v))
            out += [(f"CeilDiv({e}, {d})", -(-v // d)) for d in self.divisors]
        if rows and "j" in rows[0]:  # a folded loop's step may scale with an extent: j * CeilDiv(n.ext, 16)
            j = np.array([r["j"] for r in rows], dtype=np.int64)
            out += [(f"j * {name}", j * v) for name, v in list(out)]
        return out


def _fit_group(rows: list[dict[str, int]], calls: list[list[Call]], vs: Vars) -> list[CallT] | None:
    skels = [[_leaves(c) for c in cs] for cs in calls]
    first = [s for s, _ in skels[0]]
    if any([s for s, _ in sk] != first for sk in skels):
        return None
    pos = list(_columns(rows, vs.pos).items())
    forms = vs.forms(rows)
    flags = list(_columns(rows, vs.flags).items())
    out = []
    for ci, c in enumerate(calls[0]):
        exprs: dict[str, Expr | Flag] = {}
        for key, v0 in skels[0][ci][1].items():
            y = np.array([sk[ci][1][key] for sk in skels], dtype=np.int64)
            kind = ("where" if key.startswith("@") or _WHERE.search(key) else
                    "pad" if _PAD.search(key) else "size")
            e = fit_bool(y, flags) if isinstance(v0, bool) else fit_int(y, pos, forms, flags, kind=kind)
            if e is None:
                return None
            if not (isinstance(e, Expr) and not e.terms and e.const == v0) and not (
                    isinstance(e, Flag) and e.text == ("true" if v0 else "false")):
                exprs[key] = e
        out.append(CallT(c, exprs))
    return out


def _fold(rows: list[dict[str, int]], calls: list[list[Call]], items: list[CallT], vs: Vars
          ) -> list[CallT | LoopT]:
    """Runs of >= 2 consecutive calls of one skeleton whose fields are affine in the run index -> loops."""
    skel = [_leaves(c)[0] for c in calls[0]]
    out: list[CallT | LoopT] = []
    i = 0
    while i < len(items):
        j = i
        while j + 1 < len(items) and skel[j + 1] == skel[i]:
            j += 1
        n = j - i + 1
        if n >= 2:
            rr = [{**r, "j": t} for r in rows for t in range(n)]
            cc = [[cs[i + t]] for cs in calls for t in range(n)]
            body = _fit_group(rr, cc, dataclasses.replace(vs, pos=(*vs.pos, "j")))
            if body is not None:
                out.append(LoopT(n, body[0]))
                i = j + 1
                continue
        out.append(items[i])
        i += 1
    return out


def derive(name: str, instances: list[tuple[dict[str, int], list[Call]]], vs: Vars) -> list[Variant]:
    """The routine's variants: one formula set for all instances if possible, else split by extents, then
    by flags, then one instance at a time (module docstring)."""
    seen, uniq = set(), []
    for row, cs in instances:  # drop exact repeats (the same tile visited again)
        key = (tuple(sorted(row.items())), tuple(repr(_leaves(c)) for c in cs))
        if key not in seen:
            seen.add(key)
            uniq.append((row, cs))
    every = (*vs.pos, *vs.ext, *vs.flags)
    for keys in ((), vs.ext, (*vs.ext, *vs.flags), every):
        groups: dict[tuple, list[tuple[dict[str, int], list[Call]]]] = {}
        for row, cs in uniq:
            groups.setdefault(tuple(row[k] for k in keys), []).append((row, cs))
        variants = []
        for kv, members in groups.items():
            rows = [r for r, _ in members]
            calls = [cs for _, cs in members]
            items = _fit_group(rows, calls, vs)
            if items is None:
                break
            variants.append(Variant(tuple(zip(keys, kv, strict=True)), _fold(rows, calls, items, vs)))
        else:
            return variants
    raise NotImplementedFeature(f"plan kernel: the {name} calls are not a function of the loop variables "
                                f"{', '.join(every)}")


# ==================================================================================================
# printing
# ==================================================================================================


class _Printer:
    """C++ text of calls: the call line as `ascsim cpp` prints it (from a one-call scenario, cached per
    skeleton), the params struct rebuilt with the run-time fields."""

    def __init__(self, prog: Program) -> None:
        self.prog = prog
        self._lines: dict[tuple, list[str]] = {}
        self._tmp = Path(tempfile.mkdtemp(prefix="ascsim-plan-kernel-"))

    def example(self, c: Call) -> list[str]:
        key = _leaves(c)[0]
        hit = self._lines.get(key)
        if hit is None:
            names = {n for n, _ in c.args.values()}
            prog = Program(self.prog.chip, {n: d for n, d in self.prog.tensors.items() if n in names}, [c])
            prog.tensors = {n: dataclasses.replace(d, data=None) for n, d in prog.tensors.items()}
            path = self._tmp / f"call{len(self._lines)}.toml"
            path.write_text(scenario_text(prog, {}), encoding="utf-8")
            hit = self._lines[key] = step_to_cpp(load_scenario(path), 0).splitlines()
        return hit

    def call(self, t: CallT, after: list[str], before: dict[str, str] | None = None) -> list[str]:
        c = t.call
        lines = [ln for ln in self.example(c) if not ln.startswith("//")]
        head, call_line = lines[:-1], lines[-1]
        m = re.match(r"(\s*AscendC::\w+(?:<.*>)?)\((.*)\);$", call_line)
        if m is None:  # pragma: no cover - every call line has this form
            raise NotImplementedFeature(f"plan kernel: cannot read the call line {call_line!r}")
        args = m.group(2).split(", ")
        var = args[-1] if c.params is not None else None
        for role, (tname, _) in c.args.items():
            e = t.exprs.get(f"@{role}")
            idx = e.cxx() if e is not None else str(c.args[role][1]) if c.args[role][1] else ""
            ref = f"{tname}[{idx}]" if idx else tname
            args = [ref if a.split("[")[0] == tname else a for a in args]
        if c.params is not None and var is not None:
            exprs = self._struct_exprs(c, t.exprs)
            dt = next((self.prog.tensors[c.args[k][0]].dtype for k in ("src", "dst", "a") if k in c.args),
                      None)
            head = struct_lines(c.params, var, dt, chip=self.prog.chip, exprs=exprs)
        pre = [(before or {}).get(c.call, "")] if (before or {}).get(c.call) else []
        return head + pre + [f"{m.group(1)}({', '.join(args)});"] + after

    @staticmethod
    def _struct_exprs(c: Call, exprs: dict[str, Expr | Flag]) -> dict[str, str]:
        out: dict[str, str] = {}
        lists: dict[str, list[str]] = {}
        for key, e in exprs.items():
            if key.startswith("@"):
                continue
            if "#" in key:
                lists.setdefault(key.split("#")[0], [])
            else:
                out[key] = e.cxx()
        for name in lists:
            values = getattr(c.params, name)
            parts = [exprs[f"{name}#{i}"].cxx() if f"{name}#{i}" in exprs else str(int(v))
                     for i, v in enumerate(values)]
            out[name] = "{" + ", ".join(parts) + "}"
        return out


# ==================================================================================================
# the kernel
# ==================================================================================================


@dataclass
class Routine:
    name: str
    doc: str
    tensors: tuple[str, ...]
    variants: list[Variant]


@dataclass
class KernelText:
    """The emitted kernel and what it is made of."""

    text: str
    buffering: str
    sync: str
    routines: list[Routine] = field(default_factory=list)

    @property
    def lines(self) -> int:
        return self.text.count("\n")


_TILE_VARS = ("group", "blkIdx", "blkExt", "tile", "off", "ext", "start", "first", "last")


def _row(**axes: dict[str, int]) -> dict[str, int]:
    return {f"{a}.{k}": v for a, pos in axes.items() for k, v in pos.items() if k in _TILE_VARS}


def _instances(plan: Any, m: Axis, n: Axis, k: Axis) -> dict[str, list[tuple[dict[str, int], list[Call]]]]:
    """Every call group of the loop, with the loop variables it runs at."""
    g = plan.gemm
    mp = [m.locate(i) for i in range(m.count)]
    np_ = [n.locate(i) for i in range(n.count)]
    kp = [k.locate(i) for i in range(k.count)]
    out: dict[str, list] = {r: [] for r in ("CopyA", "CopyB", "LoadA", "LoadB", "CopyBias", "MmadTile",
                                            "FixpipeTile")}
    a_blk: dict[tuple[int, int], Any] = {}
    b_blk: dict[tuple[int, int], Any] = {}
    for mi, ms in enumerate(g.m_segs):  # one instance per block pair: its first tile's position
        for ki, ks in enumerate(g.k_segs):
            if (ms.blk, ks.blk) not in a_blk:
                a_blk[ms.blk, ks.blk], cs = g.a.copy(g.m_blocks[ms.blk], g.k_blocks[ks.blk])
                out["CopyA"].append((_row(m=mp[mi], k=kp[ki]), cs))
    for ni, ns in enumerate(g.n_segs):
        for ki, ks in enumerate(g.k_segs):
            if (ks.blk, ns.blk) not in b_blk:
                b_blk[ks.blk, ns.blk], cs = g.b.copy(g.k_blocks[ks.blk], g.n_blocks[ns.blk])
                out["CopyB"].append((_row(k=kp[ki], n=np_[ni]), cs))
    ha: dict[tuple[int, int], tuple[int, bool]] = {}
    nb: dict[tuple[int, int], int] = {}
    for mi, ms in enumerate(g.m_segs):
        for ki, ks in enumerate(g.k_segs):
            cs, h, kda = g.a.load(a_blk[ms.blk, ks.blk], ms.off, ms.ext, ks.off, ks.ext)
            ha[mi, ki] = (h, kda)
            out["LoadA"].append((_row(m=mp[mi], k=kp[ki]), cs))
    for ni, ns in enumerate(g.n_segs):
        for ki, ks in enumerate(g.k_segs):
            cs, w, _ = g.b.load(b_blk[ks.blk, ns.blk], ks.off, ks.ext, ns.off, ns.ext)
            nb[ki, ni] = w
            out["LoadB"].append((_row(k=kp[ki], n=np_[ni]), cs))
    bias = g.bias
    for mi, ms in enumerate(g.m_segs):
        for ni, ns in enumerate(g.n_segs):
            for ki, ks in enumerate(g.k_segs):
                h, kda = ha[mi, ki]
                first = ki == 0
                bt = bias[2] if bias is not None and first else None
                c = mmad_call(g.l0c, g.a.l0, g.b.l0, h, nb[ki, ni], g.k_mmad(ks.ext), kda, first, g.csize, bt)
                out["MmadTile"].append(({**_row(m=mp[mi], n=np_[ni], k=kp[ki]), "kFirst": int(first)}, [c]))
            h = ha[mi, 0][0]
            dst = (g.c_gm, ms.start * g.n_total + ns.start)
            fix = fixpipe_call(g.chip, dst, g.l0c, ms.ext, ns.ext, h, g.n_total, g.out_bytes, g.deq_word)
            out["FixpipeTile"].append((_row(m=mp[mi], n=np_[ni]), [fix]))
    if bias is not None:
        bgm, bl1, bbt, blen = bias
        out["BiasL1"] = [({}, [bias_gm_copy(bgm, bl1, blen, g.csize * 8)])]
        for ni, ns in enumerate(g.n_segs):
            out["CopyBias"].append((_row(n=np_[ni], k=kp[0]),
                                    [bias_bt_copy(g.chip, bl1, ns.start, bbt, nb[0, ni], g.csize * 8)]))
    return out


_VARS = {
    "CopyA": Vars(("m.group", "m.blkIdx", "k.blkIdx"), ("m.blkExt", "k.blkExt"), ("m.first", "m.last")),
    "CopyB": Vars(("k.blkIdx", "n.blkIdx"), ("k.blkExt", "n.blkExt")),
    "LoadA": Vars(("m.tile", "k.tile"), ("m.ext", "k.ext", "m.blkExt", "k.blkExt"), ("m.first", "m.last")),
    "LoadB": Vars(("k.tile", "n.tile"), ("k.ext", "n.ext", "k.blkExt", "n.blkExt")),
    "CopyBias": Vars(("n.start",), ("n.ext", "k.ext")),
    "BiasL1": Vars((), ()),
    "MmadTile": Vars((), ("m.ext", "n.ext", "k.ext"), ("kFirst",)),
    "FixpipeTile": Vars(("m.start", "n.start"), ("m.ext", "n.ext")),
}
_DOCS = {
    "CopyA": "GM -> L1: the A block of (m.block, k.block)",
    "CopyB": "GM -> L1: the B block of (k.block, n.block)",
    "LoadA": "L1 -> L0A: the A tile (m, k) of the block in L1",
    "LoadB": "L1 -> L0B: the B tile (k, n) of the block in L1",
    "CopyBias": "L1 -> BiasTable: the bias values of the N tile",
    "BiasL1": "GM -> L1: the whole bias vector, once",
    "MmadTile": "L0A x L0B -> L0C; the first K step initialises C (or adds the bias), later ones accumulate",
    "FixpipeTile": "L0C -> GM: the valid m.ext x n.ext block of the output tile",
}


def emit_kernel(plan: Any, *, buffering: str = "double", sync: str = "flags", entry: str = "plan_kernel"
                ) -> KernelText:
    """The plan as a looped, multi-core C++ kernel (module docstring). GM parameters: `<tensor>_addr`, as
    plan.toml names its GM tensors; run it with `ascsim run plan.cpp --blocks N --gm ...`."""
    if buffering not in BUFFERINGS:
        raise ParamRangeError(f"plan kernel: buffering must be one of {', '.join(BUFFERINGS)}, but got "
                              f"{buffering!r}")
    if sync not in SYNCS:
        raise ParamRangeError(f"plan kernel: sync must be one of {', '.join(SYNCS)}, but got {sync!r}")
    bufs = 2 if buffering == "double" else 1
    if bufs > getattr(plan, "buffers", 1):
        raise ParamRangeError("plan kernel: double buffering needs a plan searched for two buffers per level "
                              "(plan_matmul / plan_conv2d buffering='double')")
    m, n, k = axes_of(plan)
    prog = plan.program
    printer = _Printer(prog)
    inst = _instances(plan, m, n, k)
    divisors = (*_DIVISORS, plan.problem.out_w) if plan.kind == "conv2d" else _DIVISORS
    routines = [Routine(name, _DOCS[name], _tensor_names(cs),
                        derive(name, cs, dataclasses.replace(_VARS[name], divisors=divisors)))
                for name, cs in inst.items() if cs]
    flags = sync == "flags"
    g = plan.gemm
    text = _kernel_text(plan, prog, printer, routines, (m, n, k), bufs, flags, entry, g)
    return KernelText(text, buffering, sync, routines)


def _tensor_names(instances: list[tuple[dict[str, int], list[Call]]]) -> tuple[str, ...]:
    seen: list[str] = []
    for _, cs in instances:
        for c in cs:
            for name, _ in c.args.values():
                if name not in seen:
                    seen.append(name)
    return tuple(seen)


def _routine_text(r: Routine, prog: Program, printer: _Printer, flags: bool) -> list[str]:
    params = []
    for t in r.tensors:
        d = prog.tensors[t]
        kind = "GlobalTensor" if d.position == "GM" else "LocalTensor"
        params.append(f"AscendC::{kind}<{d.dtype.name}>& {t}")
    params += ["const TilePos& m", "const TilePos& n", "const TilePos& k", "bool kFirst"]
    after = [] if flags else ["AscendC::PipeBarrier<PIPE_ALL>();"]
    # Mmad.md 同步优化说明: a small Mmad accumulating onto an earlier one needs PipeBarrier<PIPE_M> first
    before = {"Mmad": "if (!kFirst && (mmadParams.m / 16) * (mmadParams.n / 16) < 10) "
                      "AscendC::PipeBarrier<PIPE_M>();"} if flags else None
    out = [f"// {r.name}: {r.doc} ({len(r.variants)} variant(s))",
           f"__aicore__ inline void {r.name}({', '.join(params)})", "{"]
    for vi, v in enumerate(r.variants):
        cond = " && ".join(f"{name} == {val}" for name, val in v.cond)
        ind = "    "
        if cond:
            out.append(f"    {'if' if vi == 0 else '} else if'} ({cond}) {{")
            ind = "        "
        for item in v.items:
            if isinstance(item, LoopT):
                out.append(f"{ind}for (uint32_t j = 0; j < {item.count}; ++j) {{")
                out += [f"{ind}    {ln}" for ln in printer.call(item.body, after, before)]
                out.append(f"{ind}}}")
            else:
                out.append(f"{ind}{{")
                out += [f"{ind}    {ln}" for ln in printer.call(item, after, before)]
                out.append(f"{ind}}}")
    if any(v.cond for v in r.variants):
        out.append("    }")
    out.append("}")
    return out


def _kernel_text(plan: Any, prog: Program, printer: _Printer, routines: list[Routine], axes: tuple[Axis, ...],
                 bufs: int, flags: bool, entry: str, g: Any) -> str:
    m, n, k = axes
    ch = plan.choice
    mem = plan.chip.memory_sizes
    gm = [d for d in prog.tensors.values() if d.position == "GM"]
    have = {r.name for r in routines}
    a_bytes, b_bytes = plan.l1_regions["a"], plan.l1_regions["b"]
    dt, ct = prog.tensors["a2"].dtype, prog.tensors["c0"].dtype
    outer, inner = ("m", "n") if ch.order == "mn" else ("n", "m")
    L = [f"// {plan.problem.describe()} on {plan.chip.name}: the kernel `ascsim plan` wrote for this plan",
         f"// ({'ping-pong L1 / L0 buffers' if bufs == 2 else 'one buffer per level'}, "
         f"{'SetFlag / WaitFlag' if flags else 'a PipeBarrier<PIPE_ALL> after every call'}; "
         "docs/planner.md).",
         f"// GM parameters: {', '.join(d.name + '_addr' for d in gm)}; output tiles are split over the "
         "blocks: ascsim run plan.cpp --blocks N --gm ...",
         '#include "kernel_operator.h"', "",
         "// One axis of the blocked loop: groups (images) x blocks x tiles; a block's last tile and a "
         "group's",
         "// last block may be shorter (the ragged tails).",
         "struct AxisTiling {",
         "    uint32_t groups, groupExt, blk, tile;  // sizes: groups of groupExt elements, blocks, tiles",
         "    uint32_t bpg, tpb, tpg;                // blocks per group, tiles per full block, tiles per "
         "group",
         "};",
         "struct PlanTiling {",
         "    AxisTiling m, n, k;  // M x N x K, C (M x N) = A (M x K) . B (K x N)",
         "    bool mOuter;         // loop order: M tiles outer, N tiles inner (else the other way)",
         "};",
         f"constexpr PlanTiling TILING = {{{m.cxx()}, {n.cxx()}, {k.cxx()}, "
         f"{'true' if outer == 'm' else 'false'}}};",
         f"constexpr uint32_t L1_BUFS = {bufs};  // A and B blocks in L1: ping-pong slots",
         f"constexpr uint32_t L0_BUFS = {bufs};  // A and B tiles in L0A / L0B",
         "constexpr uint32_t NONE = 0xFFFFFFFFu;", "",
         "// Where a tile is: filled in at run time from the tile's index along the axis.",
         "struct TilePos {",
         "    uint32_t group, blkIdx, block, blkExt;  // group, block in the group, global block, block "
         "extent",
         "    uint32_t tile, off, ext, start;        // tile in the block, offset in it, extent, absolute "
         "start",
         "    uint32_t first, last;                  // first / last block of its group",
         "};", "",
         "__aicore__ inline uint32_t CeilDiv(uint32_t a, uint32_t b) { return (a + b - 1) / b; }",
         "__aicore__ inline uint32_t Min(uint32_t a, uint32_t b) { return a < b ? a : b; }", "",
         "__aicore__ inline TilePos Locate(const AxisTiling& a, uint32_t idx)",
         "{",
         "    TilePos p;",
         "    p.group = idx / a.tpg;",
         "    uint32_t r = idx % a.tpg;",
         "    p.blkIdx = r / a.tpb;",
         "    p.block = p.group * a.bpg + p.blkIdx;",
         "    p.blkExt = Min(a.blk, a.groupExt - p.blkIdx * a.blk);",
         "    p.tile = r % a.tpb;",
         "    p.off = p.tile * a.tile;",
         "    p.ext = Min(a.tile, p.blkExt - p.off);  // min(tile, remaining): the ragged tail",
         "    p.start = p.group * a.groupExt + p.blkIdx * a.blk + p.off;",
         "    p.first = p.blkIdx == 0;",
         "    p.last = p.blkIdx == a.bpg - 1;",
         "    return p;",
         "}", ""]
    for r in routines:
        L += _routine_text(r, prog, printer, flags) + [""]
    params = ", ".join(f"GM_ADDR {d.name}_addr" for d in gm)
    L += [f'extern "C" __global__ __aicore__ void {entry}({params})', "{"]
    for d in gm:
        L += [f"    AscendC::GlobalTensor<{d.dtype.name}> {d.name};",
              f"    {d.name}.SetGlobalBuffer((__gm__ {d.dtype.name}*){d.name}_addr, {d.length});"]
    a_len, b_len = a_bytes * 8 // dt.bits, b_bytes * 8 // dt.bits
    l0a_len, l0b_len = mem["L0A"] // bufs * 8 // dt.bits, mem["L0B"] // bufs * 8 // dt.bits

    def slots(name: str, pos: str, base: int, step: int, length: int) -> str:
        items = ", ".join(f"AscendC::LocalTensor<{dt.name}>(AscendC::TPosition::{pos}, {base + s * step}, "
                          f"{length})" for s in range(bufs))
        return f"    AscendC::LocalTensor<{dt.name}> {name}Buf[{bufs}] = {{{items}}};"

    L += ["    // L1: A slots, then B slots (then the bias); L0A / L0B: one slot per half (double buffering)",
          slots("a1", "A1", 0, a_bytes, a_len), slots("b1", "B1", bufs * a_bytes, b_bytes, b_len),
          slots("a2", "A2", 0, mem["L0A"] // bufs, l0a_len),
          slots("b2", "B2", 0, mem["L0B"] // bufs, l0b_len),
          f"    AscendC::LocalTensor<{ct.name}> c0(AscendC::TPosition::CO1, 0, {mem['L0C'] * 8 // ct.bits});"]
    bias = g.bias is not None
    if bias:
        blen = prog.tensors["bias1"].length
        L += [f"    AscendC::LocalTensor<{ct.name}> bias1(AscendC::TPosition::C1, "
              f"{bufs * (a_bytes + b_bytes)}, {blen});",
              f"    AscendC::LocalTensor<{ct.name}> bias2(AscendC::TPosition::C2, 0, "
              f"{prog.tensors['bias2'].length});"]

    def fl(kind: str, ev: str, what: str = "") -> str:
        tail = f"  // {what}" if what else ""
        return f"AscendC::{kind}<AscendC::HardEvent::{ev}>" + "(static_cast<event_t>({}));" + tail

    def S(ev: str, idx: str, what: str = "") -> str:
        return fl("SetFlag", ev, what).replace("{}", idx)

    def W(ev: str, idx: str, what: str = "") -> str:
        return fl("WaitFlag", ev, what).replace("{}", idx)

    # event ids: L1 A slots 0-1, B slots 2-3, bias 4; L0A slots 0-1, L0B 2-3, BiasTable 4; L0C 0
    L += ["    const TilePos none{};",
          "    const uint32_t tiles = TILING.m.groups * TILING.m.tpg * TILING.n.groups * TILING.n.tpg;",
          "    const uint32_t kSteps = TILING.k.groups * TILING.k.tpg;",
          f"    const uint32_t inner = TILING.{inner}.groups * TILING.{inner}.tpg;",
          "    // the output tiles in loop order, split in contiguous chunks over the blocks (cores)",
          "    const uint32_t per = CeilDiv(tiles, static_cast<uint32_t>(AscendC::GetBlockNum()));",
          "    const uint32_t begin = Min(tiles, static_cast<uint32_t>(AscendC::GetBlockIdx()) * per);",
          "    const uint32_t end = Min(tiles, begin + per);",
          "    uint32_t aSlot = 0, bSlot = 0, l0aSlot = 0, l0bSlot = 0;  // the slots in use",
          "    uint32_t aM = NONE, aK = NONE, bK = NONE, bN = NONE;      // the blocks in L1",
          "    uint32_t l0aM = NONE, l0aK = NONE, l0bK = NONE, l0bN = NONE;  // the tiles in L0A / L0B",
          "    uint32_t btN = NONE;                                       // the N tile in the BiasTable"]
    if flags:
        L.append("    for (uint32_t s = 0; s < L1_BUFS; ++s) {  // every slot starts free")
        L += ["        " + S("MTE1_MTE2", "s"), "        " + S("MTE1_MTE2", "2 + s")]
        L += ["    }", "    for (uint32_t s = 0; s < L0_BUFS; ++s) {",
              "        " + S("M_MTE1", "s"), "        " + S("M_MTE1", "2 + s"), "    }",
              "    " + S("FIX_M", "0", "L0C starts free")]
        if bias:
            L.append("    " + S("M_MTE1", "4", "the BiasTable starts free"))
    if "BiasL1" in have:
        L.append("    BiasL1(bias1, bias_gm, none, none, none, true);")
        if flags:
            L += ["    " + S("MTE2_MTE1", "4"), "    " + W("MTE2_MTE1", "4")]
    mmad_t = "a2Buf[l0aSlot], b2Buf[l0bSlot]"
    L += ["    for (uint32_t t = begin; t < end; ++t) {",
          "        const uint32_t o = t / inner, i = t % inner;",
          f"        const TilePos m = Locate(TILING.m, {'o' if outer == 'm' else 'i'});",
          f"        const TilePos n = Locate(TILING.n, {'i' if outer == 'm' else 'o'});",
          "        bool btCopied = false;",
          "        for (uint32_t kIdx = 0; kIdx < kSteps; ++kIdx) {",
          "            const TilePos k = Locate(TILING.k, kIdx);",
          "            const bool kFirst = kIdx == 0;",
          "            bool loaded = false;"]

    def fill(cond: str, cur: list[str], new: list[str], slot: str, bufs_name: str, ev_base: str, rel_ev: str,
             call: str, what: str) -> list[str]:
        ev = f"{ev_base}{slot}" if ev_base else slot
        out = [f"            if ({cond}) {{  // {what}"]
        if flags:
            out.append(f"                if ({cur[0]} != NONE) " + S(rel_ev, ev, "done with the old one"))
        out.append(f"                {slot} = ({slot} + 1) % {bufs_name};")
        out.append(f"                {cur[0]} = {new[0]}; {cur[1]} = {new[1]};")
        if flags:
            out.append("                " + W(rel_ev, ev, "the slot is free"))
        out.append(f"                {call}")
        return out

    L += fill("m.block != aM || k.block != aK", ["aM", "aK"], ["m.block", "k.block"], "aSlot", "L1_BUFS", "",
              "MTE1_MTE2", "CopyA(a1Buf[aSlot], x_gm, m, n, k, kFirst);" if plan.kind == "conv2d" else
              "CopyA(a1Buf[aSlot], a_gm, m, n, k, kFirst);", "a new A block")
    if flags:
        L += ["                " + S("MTE2_MTE1", "aSlot"), "                " + W("MTE2_MTE1", "aSlot")]
    L.append("            }")
    L += fill("k.block != bK || n.block != bN", ["bK", "bN"], ["k.block", "n.block"], "bSlot", "L1_BUFS",
              "2 + ",
              "MTE1_MTE2", ("CopyB(b1Buf[bSlot], w_gm, m, n, k, kFirst);" if plan.kind == "conv2d" else
                            "CopyB(b1Buf[bSlot], b_gm, m, n, k, kFirst);"), "a new B block")
    if flags:
        L += ["                " + S("MTE2_MTE1", "2 + bSlot"),
              "                " + W("MTE2_MTE1", "2 + bSlot")]
    L.append("            }")
    L += fill("m.start != l0aM || k.start != l0aK", ["l0aM", "l0aK"], ["m.start", "k.start"], "l0aSlot",
              "L0_BUFS", "", "M_MTE1", "LoadA(a2Buf[l0aSlot], a1Buf[aSlot], m, n, k, kFirst);",
              "a new A tile")
    L += ["                loaded = true;", "            }"]
    L += fill("k.start != l0bK || n.start != l0bN", ["l0bK", "l0bN"], ["k.start", "n.start"], "l0bSlot",
              "L0_BUFS", "2 + ", "M_MTE1", "LoadB(b2Buf[l0bSlot], b1Buf[bSlot], m, n, k, kFirst);",
              "a new B tile")
    L += ["                loaded = true;", "            }"]
    if bias:
        L += ["            if (kFirst && n.start != btN) {  // the bias of a new N tile",
              *(["                " + W("M_MTE1", "4", "no Mmad reads the BiasTable any more")]
                if flags else []),
              "                btN = n.start;",
              "                CopyBias(bias2, bias1, m, n, k, kFirst);",
              "                btCopied = loaded = true;", "            }"]
        mmad_t += ", bias2"
    if flags:
        L += ["            if (loaded) {  // the cube waits for MTE1's loads",
              "                " + S("MTE1_M", "0"), "                " + W("MTE1_M", "0"), "            }",
              "            if (kFirst) " + W("FIX_M", "0", "Fixpipe is done with L0C")]
    L.append(f"            MmadTile(c0, {mmad_t}, m, n, k, kFirst);")
    if bias and flags:
        L += ["            if (kFirst && btCopied) " + S("M_MTE1", "4")]
    L.append("        }")
    if flags:
        L += ["        " + S("M_FIX", "0"), "        " + W("M_FIX", "0")]
    out_gm = "y_gm" if plan.kind == "conv2d" else "c_gm"
    L.append(f"        FixpipeTile({out_gm}, c0, m, n, none, true);")
    if flags:
        L.append("        " + S("FIX_M", "0"))
    L.append("    }")
    if flags:
        L += ["    // release the slots still held, then wait until every event is back (balanced flags)",
              "    if (aM != NONE) " + S("MTE1_MTE2", "aSlot"),
              "    if (bK != NONE) " + S("MTE1_MTE2", "2 + bSlot"),
              "    if (l0aM != NONE) " + S("M_MTE1", "l0aSlot"),
              "    if (l0bK != NONE) " + S("M_MTE1", "2 + l0bSlot"),
              "    for (uint32_t s = 0; s < L1_BUFS; ++s) {",
              "        " + W("MTE1_MTE2", "s"), "        " + W("MTE1_MTE2", "2 + s"), "    }",
              "    for (uint32_t s = 0; s < L0_BUFS; ++s) {",
              "        " + W("M_MTE1", "s"), "        " + W("M_MTE1", "2 + s"), "    }",
              "    " + W("FIX_M", "0")]
        if bias:
            L.append("    " + W("M_MTE1", "4"))
    L.append("}")
    return "\n".join(L) + "\n"
