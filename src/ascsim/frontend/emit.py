"""Traced kernel run -> scenario file, and scenario -> complete kernel file (the C++ round trip).

`scenario_text(run, name)`: every instruction and register setter the kernel executed becomes a scenario
step, in order, with its arguments as they were at the call. Tensors: the views the calls used are
grouped by (memory, TPosition, element type); each group becomes one scenario tensor spanning the views
(on-chip: at its address; GM: its own buffer, initialised with the GM bytes the kernel started with,
covering every byte the calls read), and each argument refers to its group with an element index.
Limits (docs/cpp_frontend.md): a GM region written through one element type and read back through another
is two scenario tensors; scalar SetValue writes and the companion calls without a scenario step are
refused with NotImplementedFeature.

`scenario_kernel(sc)`: the `ascsim cpp` statements of every step wrapped in a kernel: one entry whose
GM_ADDR parameters are the scenario's GM tensors, LocalTensors at the addresses the scenario gives them.
Running it through the front-end reproduces `ascsim run` of the scenario byte for byte
(tests/frontend/test_frontend_roundtrip.py).
"""

from __future__ import annotations

import dataclasses
from enum import Enum
from pathlib import Path
from typing import Any

import numpy as np

from ..base.errors import NotImplementedFeature
from ..engine.sync import call_accesses
from ..isa.table import INSTRUCTIONS, STRUCT, TENSOR
from ..machine.memory import LocalTensor
from ..scenario.writer import to_toml
from .kernel import KernelRun

_ARGS = [a for ins in INSTRUCTIONS for f in ins.forms for a in f.op.args]
#: The step keys that name tensors, those a call writes, and those that hold params structs (from the
#: instruction table).
_TENSOR_KEYS = tuple(dict.fromkeys(a.step_key for a in _ARGS if a.kind == TENSOR))
_WRITTEN_KEYS = frozenset(a.step_key for a in _ARGS if a.kind == TENSOR and a.writes)
_STRUCT_KEYS = frozenset(a.step_key for a in _ARGS if a.kind == STRUCT)


@dataclasses.dataclass
class _Group:
    name: str
    mem: str
    position: str
    dtype: Any
    start: int
    end: int


def _key(t: LocalTensor, run: KernelRun) -> tuple:
    """Views of one memory, TPosition and element type share a scenario tensor; in GM, also of one kernel
    parameter's buffer."""
    buf = run.gm.buffer_at(t.offset) if t.position == "GM" else None
    return (t.memory.name, t.position, t.dtype.name, buf.name if buf is not None else "")


def _groups(run: KernelRun) -> dict[tuple, _Group]:
    groups: dict[tuple, _Group] = {}
    used: set[str] = set()
    for call in run.trace:
        if call.name == "SetValue":
            raise NotImplementedFeature(
                f"{call.loc}: SetValue writes a scalar the scenario format cannot "
                "express; --emit-scenario refuses kernels that use it"
            )
        if call.step is None:
            raise NotImplementedFeature(f"{call.loc}: {call.name} in this form has no scenario step yet")
        for k in _TENSOR_KEYS:
            t = call.step.get(k)
            if not isinstance(t, LocalTensor):
                continue
            root = call.roots.get(id(t), "") or k
            lo, hi = t.offset, t.offset + t.nbytes
            if t.position == "GM" and call.report is not None:  # extend over what the call really read
                for a in call_accesses(call.report, [], [t]):
                    hi = max(hi, a.end)
            g = groups.get(_key(t, run))
            if g is None:
                name = _unique(root, used)
                groups[_key(t, run)] = _Group(name, t.memory.name, t.position, t.dtype, lo, hi)
            else:
                g.start, g.end = min(g.start, lo), max(g.end, hi)
    return groups


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
    if isinstance(v, (np.integer,)):
        return int(v)
    if isinstance(v, (np.floating,)):
        return float(v)
    return v


def _struct(p: Any) -> dict:
    """A params struct as a scenario table {type = ..., field = value, ...}."""
    d: dict[str, Any] = {"type": type(p).__name__}
    if hasattr(p, "FIELDS") or type(p).__name__ == "SetFMatrixBitModeParams":
        d["config0"] = p.config0
        if hasattr(p, "config1"):
            d["config1"] = p.config1
        if hasattr(p, "ifTranspose"):
            d["ifTranspose"] = bool(p.ifTranspose)
        return d
    for f in dataclasses.fields(p):
        v = getattr(p, f.name)
        if v is None:
            continue
        d[f.name] = _value(v)
    return d


def scenario_data(run: KernelRun, data_dir: Path, rel: str) -> dict:
    """The scenario of a traced run as a dict (GM initial bytes written to `data_dir`, referred to as
    `rel/<name>.bin`)."""
    groups = _groups(run)
    tensors: dict[str, dict] = {}
    written: set[str] = set()
    for g in groups.values():
        length = max(1, (g.end - g.start) * 8 // g.dtype.bits)
        spec: dict[str, Any] = {"position": g.position, "dtype": g.dtype.name, "length": length}
        if g.mem == "GM":
            data_dir.mkdir(parents=True, exist_ok=True)
            nbytes = (length * g.dtype.bits + 7) // 8
            (data_dir / f"{g.name}.bin").write_bytes(run.gm.initial[g.start : g.start + nbytes].tobytes())
            spec["init"] = {"raw": f"{rel}/{g.name}.bin"}
        else:
            spec["offset"] = g.start
        tensors[g.name] = spec
    steps = []
    for call in run.trace:
        s: dict[str, Any] = {}
        for k, v in call.step.items():
            if isinstance(v, LocalTensor):
                g = groups[_key(v, run)]
                s[k] = _ref(v, g)
                if k in _WRITTEN_KEYS and g.mem == "GM":
                    written.add(g.name)
            elif k in _STRUCT_KEYS:
                s[k] = _struct(v) if not isinstance(v, (int, float)) else v
            else:
                s[k] = _value(v)
        s["note"] = f"{call.loc.short} {call.name}"
        steps.append(s)
    tpl = run.template.items()
    return {
        "description": f"traced from {run.entry} ({', '.join(f'{k}={_tv(v)}' for k, v in tpl)})"
        if run.template
        else f"traced from {run.entry}",
        "chip": run.core.chip.key,
        "tensors": tensors,
        "steps": steps,
        "save": {n: f"{n}.npy" for n in sorted(written)},
    }


def _tv(v: Any) -> str:
    return str(getattr(v, "v", getattr(v, "name", v)))


def write_scenario(run: KernelRun, path: str | Path) -> Path:
    """Write the traced run as a TOML scenario (GM inputs in `<stem>_data/`)."""
    path = Path(path)
    data_dir = path.parent / f"{path.stem}_data"
    doc = scenario_data(run, data_dir, data_dir.name)
    path.write_text(to_toml(doc), encoding="utf-8")
    return path


# -- scenario -> kernel -----------------------------------------------------------------------------------


