"""A plan as files: the scenario (TOML, docs/scenarios.md: the trace of the very calls the verification ran)
with its GM inputs as raw byte files (the bytes the verification run wrote into GM), and the looped C++
kernel of planner.kernel (the compiled path builds it, docs/cpp.md) — so `ascsim run plan.toml` and
`ascsim run plan.cpp --blocks N --gm NAME_addr=data/NAME.bin ...` reproduce the verification's bytes."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from ..machine.dtypes import to_bytes
from ..program import ProgramRun, load_kernel
from ..scenario import build, load_scenario
from .kernel import emit_kernel
from .program import scenario_text

__all__ = ["run_cpp", "run_kernel", "scenario_text", "write_plan"]


def run_kernel(scenario_path: str | Path, cpp_path: str | Path, blocks: int = 1, strict: bool = False
               ) -> tuple[dict[str, bytes], ProgramRun]:
    """Build and run an emitted kernel on `blocks` cores with the scenario's GM inputs; returns the bytes of
    every GM tensor after the run (by scenario tensor name) and the run (its sync / race findings)."""
    sc = load_scenario(scenario_path)
    init = build(sc)
    gm = {f"{n}_addr": init.tensors[n].bytes().tobytes() for n, t in sc.tensors.items() if t.position == "GM"}
    run = load_kernel(cpp_path, sc.chip).run(gm=gm, blocks=blocks, strict=strict, capture=True)
    out = {n: run.read_gm(f"{n}_addr")[: t.nbytes] for n, t in init.tensors.items() if t.position == "GM"}
    return out, run


def run_cpp(scenario_path: str | Path, cpp_path: str | Path, blocks: int = 1) -> dict[str, bytes]:
    """`run_kernel`'s GM bytes."""
    return run_kernel(scenario_path, cpp_path, blocks)[0]


def write_plan(plan: Any, out_dir: str | Path, inputs: dict[str, np.ndarray], report: str = "", *,
               buffering: str = "double", sync: str = "flags") -> dict[str, Path]:
    """Write plan.toml (the trace: one step per call), data/<tensor>.bin (the bytes of the GM inputs for
    `inputs`), plan.cpp (the looped multi-core kernel of planner.kernel, GM parameters <tensor>_addr) and
    report.txt into out_dir; returns the paths by kind."""
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
    paths["cpp"].write_text(emit_kernel(plan, buffering=buffering, sync=sync).text, encoding="utf-8")
    paths["report"].write_text(report + "\n", encoding="utf-8")
    return paths
