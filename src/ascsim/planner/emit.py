"""A plan as files: the scenario (TOML, docs/scenarios.md) with its GM inputs as raw byte files (the bytes
the verification run wrote into GM), and the C++ kernel `ascsim cpp --kernel` makes of that scenario (the
text the C++ front-end reads back, docs/cpp_frontend.md) — so `ascsim run plan.toml` and
`ascsim run plan.cpp --gm NAME_addr=data/NAME.bin ...` replay the very calls the verification ran, on the
very data."""

from __future__ import annotations

import dataclasses
from enum import Enum
from pathlib import Path
from typing import Any

import numpy as np

from ..dtypes import to_bytes
from .program import Program


def plain(v: Any) -> Any:
    """A value as TOML-ready Python: enum members by name, numpy scalars as numbers, params structs (nested
    ones too) as scenario tables."""
    if isinstance(v, Enum):
        return v.name
    if isinstance(v, np.generic):
        return v.item()
    if dataclasses.is_dataclass(v) and not isinstance(v, type):
        return plain(struct_table(v))
    if isinstance(v, (list, tuple)):
        return [plain(x) for x in v]
    if isinstance(v, dict):
        return {k: plain(x) for k, x in v.items()}
    return v


def toml_value(v: Any) -> str:
    """One value in TOML (the C++ front-end's scenario writer, after `plain`)."""
    from ..frontend.emit import toml_value as write  # one TOML value writer for every emitted scenario

    return write(plain(v))


def struct_table(p: Any) -> dict[str, Any]:
    """A params struct as a scenario table {type = NAME, field = value, ...}: the fields that differ from the
    C++ default (omitted fields take it, docs/scenarios.md)."""
    out: dict[str, Any] = {"type": type(p).__name__}
    default = type(p)()
    for f in dataclasses.fields(p):
        v = getattr(p, f.name)
        if v != getattr(default, f.name) or f.name in ("padList",):
            out[f.name] = v
    return out


def _ref(ref: tuple[str, int]) -> Any:
    name, index = ref
    return name if not index else {"tensor": name, "index": index}


def scenario_toml(doc: dict, header: str = "", notes: dict[str, str] | None = None) -> str:
    """A scenario document as TOML text (`frontend.emit.to_toml`), its values made TOML-ready by `plain`,
    `header` as leading comment lines and `notes` as comments on tensor tables."""
    from ..frontend.emit import to_toml

    return to_toml(doc, header, notes, toml_value)


def scenario_text(prog: Program, data: dict[str, str], header: str = "") -> str:
    """The program as a scenario; `data` maps GM input tensors to their raw byte file (relative to the
    scenario)."""
    tensors = {}
    for d in prog.tensors.values():
        t: dict[str, Any] = {"position": d.position, "dtype": d.dtype.name, "length": d.length}
        if d.offset is not None:
            t["offset"] = d.offset
        if d.name in data:
            t["init"] = {"raw": data[d.name]}
        tensors[d.name] = t
    steps = []
    for c in prog.calls:
        s: dict[str, Any] = {"call": c.call, **{role: _ref(ref) for role, ref in c.args.items()}}
        if c.params is not None:
            s["params"] = c.params
        s.update(c.extra or {})
        if c.note:
            s["note"] = c.note
        steps.append(s)
    doc = {"description": prog.description, "chip": prog.chip, "tensors": tensors, "steps": steps,
           "save": {name: f"{name}.npy" for name in prog.outputs}}
    return scenario_toml(doc, header, {d.name: d.note for d in prog.tensors.values() if d.note})


def run_cpp(scenario_path: str | Path, cpp_path: str | Path) -> dict[str, bytes]:
    """Run an emitted kernel through the C++ front-end with the scenario's GM inputs; returns the bytes of
    every GM tensor after the run (by scenario tensor name)."""
    from ..frontend import Kernel
    from ..scenario import build, load_scenario

    sc = load_scenario(scenario_path)
    init = build(sc)
    gm = {f"{n}_addr": init.tensors[n].bytes().tobytes() for n, t in sc.tensors.items() if t.position == "GM"}
    run = Kernel(cpp_path, sc.chip).run(gm=gm)
    return {n: run.gm.read(f"{n}_addr")[: t.nbytes] for n, t in init.tensors.items() if t.position == "GM"}


def write_plan(plan: Any, out_dir: str | Path, inputs: dict[str, np.ndarray], report: str = ""
               ) -> dict[str, Path]:
    """Write plan.toml, data/<tensor>.bin (the bytes of the GM inputs for `inputs`), plan.cpp (a complete
    kernel whose GM parameters are <tensor>_addr) and report.txt into out_dir; returns the paths by kind."""
    from ..frontend.emit import scenario_kernel
    from ..scenario import load_scenario

    out = Path(out_dir)
    (out / "data").mkdir(parents=True, exist_ok=True)
    files: dict[str, str] = {}
    for name, values in plan.gm_inputs(inputs).items():
        rel = f"data/{name}.bin"
        raw = to_bytes(plan.program.tensors[name].dtype, np.asarray(values, dtype=np.float64).ravel())
        (out / rel).write_bytes(raw.tobytes())
        files[name] = rel
    header = "\n".join(["ascsim plan: the calls of this plan, replayable with `ascsim run plan.toml`;",
                        "the GM inputs are the verification run's bytes (data/*.bin).", "",
                        *report.splitlines()])
    paths = {"scenario": out / "plan.toml", "cpp": out / "plan.cpp", "report": out / "report.txt"}
    paths["scenario"].write_text(scenario_text(plan.program, files, header), encoding="utf-8")
    paths["cpp"].write_text(scenario_kernel(load_scenario(paths["scenario"])), encoding="utf-8")
    paths["report"].write_text(report + "\n", encoding="utf-8")
    return paths
