"""A plan as files: the scenario (TOML, docs/scenarios.md) with its GM inputs as raw byte files (the bytes
the verification run wrote into GM), and the C++ kernel `ascsim cpp --kernel` makes of that scenario (the
kernel the compiled path builds, docs/cpp.md) — so `ascsim run plan.toml` and
`ascsim run plan.cpp --gm NAME_addr=data/NAME.bin ...` replay the very calls the verification ran, on the
very data."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from ..machine.dtypes import to_bytes
from ..program import load_kernel
from ..scenario import build, load_scenario
from ..scenario.cpp import scenario_kernel
from ..scenario.writer import scenario_toml
from .program import Program


def _ref(ref: tuple[str, int]) -> Any:
    name, index = ref
    return name if not index else {"tensor": name, "index": index}


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
    """Build and run an emitted kernel with the scenario's GM inputs; returns the bytes of every GM tensor
    after the run (by scenario tensor name)."""
    sc = load_scenario(scenario_path)
    init = build(sc)
    gm = {f"{n}_addr": init.tensors[n].bytes().tobytes() for n, t in sc.tensors.items() if t.position == "GM"}
    run = load_kernel(cpp_path, sc.chip).run(gm=gm)
    return {n: run.read_gm(f"{n}_addr")[: t.nbytes] for n, t in init.tensors.items() if t.position == "GM"}


def write_plan(plan: Any, out_dir: str | Path, inputs: dict[str, np.ndarray], report: str = ""
               ) -> dict[str, Path]:
    """Write plan.toml, data/<tensor>.bin (the bytes of the GM inputs for `inputs`), plan.cpp (a complete
    kernel whose GM parameters are <tensor>_addr) and report.txt into out_dir; returns the paths by kind."""
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
