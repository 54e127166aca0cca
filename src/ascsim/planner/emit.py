"""A plan as files: the scenario (TOML, docs/scenarios.md) with its GM inputs as raw byte files (the bytes
the verification run wrote into GM), and the C++ kernel `ascsim cpp --kernel` makes of that scenario (the
text the C++ front-end reads back, docs/cpp_frontend.md) — so `ascsim run plan.toml` and
`ascsim run plan.cpp --gm NAME_addr=data/NAME.bin ...` replay the very calls the verification ran, on the
very data."""

from __future__ import annotations

import dataclasses
import math
from enum import Enum
from pathlib import Path
from typing import Any

import numpy as np

from ..dtypes import to_bytes
from .program import Call, Program


def toml_value(v: Any) -> str:
    """One value in TOML: bools, numbers, strings, arrays, inline tables (nested structs with their type)."""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, Enum):
        return f'"{v.name}"'
    if isinstance(v, (int, np.integer)):
        return str(int(v))
    if isinstance(v, (float, np.floating)):
        f = float(v)
        if math.isnan(f):
            return "nan"
        if math.isinf(f):
            return "inf" if f > 0 else "-inf"
        return repr(f)
    if isinstance(v, str):
        return '"' + v.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(toml_value(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{ " + ", ".join(f"{k} = {toml_value(x)}" for k, x in v.items()) + " }"
    if dataclasses.is_dataclass(v):
        return toml_value(struct_table(v))
    raise TypeError(f"no TOML form for {v!r}")


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


def step_lines(c: Call) -> str:
    """One `[[steps]]` entry."""
    lines = ["[[steps]]", f"call = {toml_value(c.call)}"]
    for role, ref in c.args.items():
        lines.append(f"{role} = {toml_value(_ref(ref))}")
    if c.params is not None:
        lines.append(f"params = {toml_value(c.params)}")
    for k, v in (c.extra or {}).items():
        lines.append(f"{k} = {toml_value(v)}")
    if c.note:
        lines.append(f"note = {toml_value(c.note)}")
    return "\n".join(lines)


def scenario_text(prog: Program, data: dict[str, str], header: str = "") -> str:
    """The program as a scenario; `data` maps GM input tensors to their raw byte file (relative to the
    scenario)."""
    out = [f"# {ln}" if ln else "#" for ln in header.splitlines()]
    out += [f"description = {toml_value(prog.description)}", f"chip = {toml_value(prog.chip)}", ""]
    for d in prog.tensors.values():
        out.append(f"[tensors.{d.name}]" + (f"  # {d.note}" if d.note else ""))
        out.append(f"position = {toml_value(d.position)}")
        out.append(f"dtype = {toml_value(d.dtype.name)}")
        out.append(f"length = {d.length}")
        if d.offset is not None:
            out.append(f"offset = {d.offset}")
        if d.name in data:
            out.append(f"init = {{ raw = {toml_value(data[d.name])} }}")
        out.append("")
    for c in prog.calls:
        out += [step_lines(c), ""]
    if prog.outputs:
        out.append("[save]")
        out += [f"{name} = {toml_value(name + '.npy')}" for name in prog.outputs]
    return "\n".join(out) + "\n"


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
