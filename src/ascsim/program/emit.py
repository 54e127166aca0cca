"""A traced run as a scenario file (`ascsim run kernel.cpp --emit-scenario out.toml`; explain / draw
`--call N` go through it).

Every instruction and register call the program made becomes a scenario step, in order, with its
arguments as they were at the call. Tensors: the views the calls used are grouped by (memory, TPosition,
element type) — in GM also by allocation (a kernel-only file's `--gm` parameter, or an aclrtMalloc) —
and each group becomes one scenario tensor spanning its views: on chip at its address, in GM as its own
buffer initialised with the bytes GM held when the launch began, covering every byte the calls read.

Limits (docs/cpp.md "Traced runs"): one launch on one block (a scenario is one core); a GM region written
through one element type and read through another is two tensors; scalar SetValue writes have no step.
"""

from __future__ import annotations

import dataclasses
import re
from enum import Enum
from pathlib import Path
from typing import Any

import numpy as np

from ..base.errors import NotImplementedFeature
from ..engine.sync import call_accesses
from ..isa.table import INSTRUCTIONS, STRUCT, TENSOR
from ..machine.memory import LocalTensor
from ..scenario.writer import struct_table, to_toml

_ARGS = [a for ins in INSTRUCTIONS for f in ins.forms for a in f.op.args]
#: The step keys that name tensors, those a call writes, and those that hold params structs.
_TENSOR_KEYS = tuple(dict.fromkeys(a.step_key for a in _ARGS if a.kind == TENSOR))
_WRITTEN_KEYS = frozenset(a.step_key for a in _ARGS if a.kind == TENSOR and a.writes)
_STRUCT_KEYS = frozenset(a.step_key for a in _ARGS if a.kind == STRUCT)
#: A C++ argument that can name a scenario tensor as it is (not `a1[off]`, not `que.Get()`).
_IDENT = re.compile(r"[A-Za-z_]\w*")


@dataclasses.dataclass
class _Group:
    name: str
    mem: str
    position: str
    dtype: Any
    start: int
    end: int
    base: int  # GM: the allocation's start


def _check(run: Any) -> None:
    if run.launches != 1:
        raise NotImplementedFeature(f"--emit-scenario: the program made {run.launches} kernel launches; a "
                                    "scenario is one launch")
    blocks = {c.block for c in run.trace}
    if len(blocks) > 1:
        raise NotImplementedFeature(f"--emit-scenario: the launch ran calls on {len(blocks)} cores; a "
                                    "scenario is one core (run the kernel with one block)")
    for call in run.trace:
        if call.name == "SetValue":
            raise NotImplementedFeature(f"{call.where}: SetValue writes a scalar the scenario format cannot "
                                        "express; --emit-scenario refuses programs that use it")
        if call.step is None:
            raise NotImplementedFeature(f"{call.where}: {call.name} in this form has no scenario step yet")


def _base(run: Any, t: LocalTensor) -> int:
    """The GM allocation a tensor lies in (its start); 0 on chip."""
    if t.position != "GM":
        return 0
    hit = run.gm.allocation_of(t.offset)
    return hit[0] if hit is not None else t.offset


def _key(run: Any, t: LocalTensor) -> tuple:
    return (t.memory.name, t.position, t.dtype.name, _base(run, t))


def _groups(run: Any) -> dict[tuple, _Group]:
    """Tensor groups named after what they are: a GM group after its kernel parameter (a kernel-only file);
    any other group after the C++ variable its calls pass (`a1Local`: program.callsite) when they pass it
    under one plain identifier that no other group's calls use, else after its allocation ("gm0", "gm1",
    ... in allocation order) or its position and address ("b1_2000")."""
    groups: dict[tuple, _Group] = {}
    written: dict[tuple, set[str]] = {}  # group -> the plain identifiers its calls pass it as
    labels = {start: name for name, (start, _) in run.server.bindings.items()}
    for i, start in enumerate(sorted(run.gm.live)):
        labels.setdefault(start, f"gm{i}")
    used: set[str] = set(labels.values())
    taken: set[str] = set()  # names given to a group
    for call in run.trace:
        for k in _TENSOR_KEYS:
            t = call.step.get(k)
            if not isinstance(t, LocalTensor):
                continue
            lo, hi = t.offset, t.offset + t.nbytes
            base = _base(run, t)
            if t.position == "GM" and call.report is not None:  # extend over what the call really read
                for a in call_accesses(call.report, [], [t]):
                    hi = max(hi, a.end)
            key = _key(run, t)
            text = call.names.get(k, "")
            if _IDENT.fullmatch(text):
                written.setdefault(key, set()).add(text)
            g = groups.get(key)
            if g is None:
                name = labels.get(base, "") if t.position == "GM" else ""
                if not name or name in taken:  # (one allocation viewed as two element types: two tensors)
                    name = _unique(name or f"{t.position.lower()}_{t.offset:x}", used)
                taken.add(name)
                groups[key] = _Group(name, t.memory.name, t.position, t.dtype, lo, hi, base)
            else:
                g.start, g.end = min(g.start, lo), max(g.end, hi)
    _name_after_variables(groups, written, set(run.server.bindings))
    return groups


def _name_after_variables(groups: dict[tuple, _Group], written: dict[tuple, set[str]],
                          params: set[str]) -> None:
    """Rename the groups whose calls pass them under one identifier, unique among the groups (a scenario
    tensor's name must be a plain identifier and unique; a kernel parameter's group keeps its name)."""
    chosen = {key: next(iter(ids)) for key, ids in written.items()
              if len(ids) == 1 and not (groups[key].position == "GM" and groups[key].name in params)}
    claims: dict[str, int] = {}
    for n in chosen.values():
        claims[n] = claims.get(n, 0) + 1
    kept = {g.name for key, g in groups.items() if key not in chosen}
    for key, n in chosen.items():
        if claims[n] == 1 and (n not in kept or n == groups[key].name):
            groups[key].name = n


def _unique(base: str, used: set[str]) -> str:
    base = "".join(ch if ch.isalnum() or ch == "_" else "_" for ch in base) or "t"
    name, i = base, 2
    while name in used:
        name, i = f"{base}_{i}", i + 1
    used.add(name)
    return name


def _ref(t: LocalTensor, g: _Group) -> Any:
    index = (t.offset - g.start) * 8 // t.dtype.bits
    return g.name if index == 0 else {"tensor": g.name, "index": index}


def _value(v: Any) -> Any:
    if isinstance(v, Enum):
        return v.name if not isinstance(v.value, str) else v.value
    if dataclasses.is_dataclass(v) and not isinstance(v, type):
        return _struct(v)
    if isinstance(v, (list, tuple)):
        return [_value(x) for x in v]
    if isinstance(v, np.integer):
        return int(v)
    if isinstance(v, np.floating):
        return float(v)
    return v


def _struct(p: Any) -> dict:
    """A params struct as a scenario table (the bit-mode structs by their words)."""
    if not dataclasses.is_dataclass(p):
        d: dict[str, Any] = {"type": type(p).__name__, "config0": p.config0}
        if hasattr(p, "config1"):
            d["config1"] = p.config1
        if hasattr(p, "ifTranspose"):
            d["ifTranspose"] = bool(p.ifTranspose)
        return d
    return {k: _value(v) for k, v in struct_table(p).items()}


def scenario_data(run: Any, data_dir: Path, rel: str) -> dict:
    """The scenario of a traced run as a dict (GM initial bytes written to `data_dir`, referred to as
    `rel/<name>.bin`)."""
    _check(run)
    groups = _groups(run)
    initial = run.server.gm_at_launch
    tensors: dict[str, dict] = {}
    written: set[str] = set()
    for g in groups.values():
        length = max(1, (g.end - g.start) * 8 // g.dtype.bits)
        spec: dict[str, Any] = {"position": g.position, "dtype": g.dtype.name, "length": length}
        if g.mem == "GM":
            data_dir.mkdir(parents=True, exist_ok=True)
            nbytes = (length * g.dtype.bits + 7) // 8
            alloc = initial.get(g.base)
            lo = g.start - g.base
            raw = alloc[lo : lo + nbytes] if alloc is not None else np.zeros(nbytes, np.uint8)
            (data_dir / f"{g.name}.bin").write_bytes(np.asarray(raw, np.uint8).tobytes())
            spec["init"] = {"raw": f"{rel}/{g.name}.bin"}
        else:
            spec["offset"] = g.start
        tensors[g.name] = spec
    steps = []
    for call in run.trace:
        s: dict[str, Any] = {}
        for k, v in call.step.items():
            if isinstance(v, LocalTensor):
                g = groups[_key(run, v)]
                s[k] = _ref(v, g)
                if k in _WRITTEN_KEYS and g.mem == "GM":
                    written.add(g.name)
            elif k in _STRUCT_KEYS:
                s[k] = _struct(v) if not isinstance(v, (int, float)) else v
            else:
                s[k] = _value(v)
        s["note"] = f"{call.where} {call.name}"
        steps.append(s)
    return {
        "description": f"traced from {run.built.source.name}",
        "chip": run.chip.key,
        "tensors": tensors,
        "steps": steps,
        "save": {n: f"{n}.npy" for n in sorted(written)},
    }


def write_scenario(run: Any, path: str | Path) -> Path:
    """Write the traced run as a TOML scenario (GM inputs in `<stem>_data/`)."""
    path = Path(path)
    data_dir = path.parent / f"{path.stem}_data"
    doc = scenario_data(run, data_dir, data_dir.name)
    path.write_text(to_toml(doc), encoding="utf-8")
    return path
