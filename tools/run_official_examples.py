#!/usr/bin/env python3
"""Run Huawei's official cube examples (asc-devkit) as whole programs through ascsim's compiled path.

    python tools/run_official_examples.py /tmp/asc-devkit                 # every example, scenario, chip
    python tools/run_official_examples.py /tmp/asc-devkit -k mmad -k fixpipe_l0c2gm:4@950
    python tools/run_official_examples.py /tmp/asc-devkit --cold --json results.json

For each case (example, SCENARIO_NUM, chip) the driver does what the example's README says, with ascsim in
place of the CANN toolchain and the device: in a fresh scratch directory it runs the example's own
scripts/gen_data.py (inputs under input/, the golden under output/), builds the .asc file as written with
ascsim's headers (`-D SCENARIO_NUM=N` and the other definitions the example's CMakeLists.txt passes), runs its
main there (it reads input/*.bin and writes output/output.bin relative to its working directory) and
finally runs the example's scripts/verify_result.py with the arguments its README gives. A case passes
when the program exits 0 and the example's verification prints "test pass". Building and running here is
what `ascsim run <example>.asc --chip CHIP -D SCENARIO_NUM=N` does (ascsim.program.load_program + run).

The table below is only what each example's CMakeLists.txt and README state (which SCENARIO_NUM values,
which NPU architectures, which extra definitions, how the scripts are called); nothing of the examples
themselves is in this file. The checkout is given on the command line and stays outside the repository
(`git clone <asc-devkit mirror> /tmp/asc-devkit`).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import warnings
from dataclasses import asdict, dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "src"))  # this checkout's ascsim, not an installed one

#: Where the cube examples live in an asc-devkit checkout.
MATRIX_DIR = Path("examples/01_simd_cpp_api/03_basic_api/03_matrix_compute")


@dataclass(frozen=True)
class Example:
    """One example directory: its scenarios per ascsim chip (from CMakeLists.txt: dav-2201 is ascsim's a2,
    dav-3510 its 950), and how its README calls gen_data.py / verify_result.py ({n} is the scenario)."""

    name: str
    scenarios: dict[str, tuple[int | None, ...]]
    gen_args: tuple[str, ...] = ("-scenarioNum={n}",)
    verify_args: tuple[str, ...] = ("-scenarioNum={n}", "output/output.bin", "output/golden.bin")
    arch_define: str | None = None  # a definition CMakeLists.txt sets to the architecture's number

    @property
    def source(self) -> str:
        return f"{self.name}.asc"


def _r(a: int, b: int) -> tuple[int, ...]:
    return tuple(range(a, b + 1))


NO_SCENARIO_ARG = ("output/output.bin", "output/golden.bin")

EXAMPLES: tuple[Example, ...] = (
    # CMakeLists.txt: dav-2201 only, SCENARIO_NUM 1-14.
    Example("load_data_l12l0", {"a2": _r(1, 14)}),
    # dav-2201 and dav-3510, SCENARIO_NUM 1-4; 4 "only supports dav-2201".
    Example("mmad", {"a2": _r(1, 4), "950": _r(1, 3)}),
    # dav-2201 and dav-3510, SCENARIO_NUM 1-5.
    Example("mmad_load3dv2", {"a2": _r(1, 5), "950": _r(1, 5)}),
    # dav-3510 only, SCENARIO_NUM 1-7.
    Example("load_data_2dv2_l12l0", {"950": _r(1, 7)}),
    # dav-3510 only, SCENARIO_NUM 1-6; the README verifies without -scenarioNum.
    Example("load_data_2dmx_l12l0", {"950": _r(1, 6)}, verify_args=NO_SCENARIO_ARG),
    # dav-3510 only, SCENARIO_NUM 1-4; the README verifies without -scenarioNum.
    Example("mmad_mx", {"950": _r(1, 4)}, verify_args=NO_SCENARIO_ARG),
    # dav-2201 only, no SCENARIO_NUM.
    Example("mmad_with_sparse", {"a2": (None,)}, gen_args=(), verify_args=NO_SCENARIO_ARG),
    # dav-3510 only, SCENARIO_NUM 1-6.
    Example("load_data_with_stride", {"950": _r(1, 6)}),
    # dav-2201 and dav-3510, SCENARIO_NUM 1-7; 3 "only supports dav-3510".
    Example("fixpipe_l0c2gm", {"a2": (1, 2, 4, 5, 6, 7), "950": _r(1, 7)}, verify_args=NO_SCENARIO_ARG),
    # dav-2201 and dav-3510, SCENARIO_NUM 1-4; CMakeLists.txt adds -DASC_ARCHITECTURES=<2201|3510>, and the
    # README passes the scenario as verify_result.py's third argument.
    Example("fixpipe_l0c2l1", {"a2": _r(1, 4), "950": _r(1, 4)},
            verify_args=("output/output.bin", "output/golden.bin", "{n}"), arch_define="ASC_ARCHITECTURES"),
)


@dataclass
class Result:
    example: str
    scenario: int | None
    chip: str
    build_s: float | None = None
    cached: bool = False
    run_s: float | None = None
    returncode: int | None = None
    verify: str = "not run"  # "pass", "FAIL", "not run"
    note: str = ""
    warnings: list[str] = field(default_factory=list)  # the engine's hazards and doc conflicts
    sync: list[str] = field(default_factory=list)  # sync and cross-core race findings

    @property
    def passed(self) -> bool:
        return self.verify == "pass"


def _fmt(args: tuple[str, ...], n: int | None) -> list[str]:
    return [a.format(n=n) for a in args]


def _tail(text: str, lines: int = 6) -> str:
    return " | ".join(ln.strip() for ln in text.strip().splitlines()[-lines:] if ln.strip())


def run_case(root: Path, ex: Example, n: int | None, chip: str, work: Path, timeout: float) -> Result:
    """Generate the example's data, build and run its program, verify its output (see the docstring)."""
    from ascsim.base.errors import AscsimError
    from ascsim.machine.chips import get_chip
    from ascsim.program import load_program

    res = Result(ex.name, n, chip)
    exdir = root / MATRIX_DIR / ex.name
    scratch = work / ex.name / chip / (f"s{n}" if n is not None else "s")
    shutil.rmtree(scratch, ignore_errors=True)
    scratch.mkdir(parents=True)
    gen = subprocess.run([sys.executable, str(exdir / "scripts" / "gen_data.py"), *_fmt(ex.gen_args, n)],
                         cwd=scratch, capture_output=True, text=True, timeout=600)
    if gen.returncode != 0:
        res.note = f"gen_data.py failed: {_tail(gen.stderr or gen.stdout)}"
        return res
    (scratch / "output").mkdir(exist_ok=True)
    defines = {"SCENARIO_NUM": str(n)} if n is not None else {}
    if ex.arch_define:
        defines[ex.arch_define] = str(get_chip(chip).arch)
    t0 = time.monotonic()
    try:
        prog = load_program(exdir / ex.source, chip, includes=[str(exdir)], defines=defines)
    except AscsimError as e:
        res.build_s = time.monotonic() - t0
        res.note = f"build: {_tail(str(e), 12)}"
        return res
    res.build_s = time.monotonic() - t0
    res.cached = prog.built.cached
    t1 = time.monotonic()
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            run = prog.run(cwd=scratch, timeout=timeout, capture=True)
    except AscsimError as e:
        res.run_s = time.monotonic() - t1
        res.note = f"run: {_tail(str(e), 12)}"
        return res
    res.run_s = time.monotonic() - t1
    res.returncode = run.returncode
    res.warnings = sorted({str(w.message) for w in caught})
    res.sync = [str(x) for x in (*run.sync_reports, *run.race_reports)]
    if run.returncode != 0:
        res.note = f"exit {run.returncode}: {_tail(run.stderr or run.stdout)}"
    verify = [sys.executable, str(exdir / "scripts" / "verify_result.py"), *_fmt(ex.verify_args, n)]
    ver = subprocess.run(verify, cwd=scratch, capture_output=True, text=True, timeout=600)
    ok = ver.returncode == 0 and "test pass" in ver.stdout
    res.verify = "pass" if ok else "FAIL"
    if not ok:
        res.note = (res.note + "; " if res.note else "") + f"verify: {_tail(ver.stdout + ver.stderr, 4)}"
    return res


def _selected(ex: Example, n: int | None, chip: str, keys: list[str]) -> bool:
    """-k NAME[:SCENARIO][@CHIP] (several -k: any)."""
    if not keys:
        return True
    for k in keys:
        k, _, c = k.partition("@")
        name, _, s = k.partition(":")
        if name == ex.name and (not s or s == str(n)) and (not c or c == chip):
            return True
    return False


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("devkit", type=Path, help="an asc-devkit checkout (not inside this repository)")
    ap.add_argument("-k", dest="keys", action="append", default=[],
                    help="only NAME[:SCENARIO][@CHIP] (repeatable), e.g. mmad:2@950")
    ap.add_argument("--work", type=Path, help="scratch directory (default: a new temporary one)")
    ap.add_argument("--cold", action="store_true", help="build with an empty ascsim cache (compile times)")
    ap.add_argument("--timeout", type=float, default=600.0, help="seconds per program run")
    ap.add_argument("--json", type=Path, help="write the results as JSON")
    ap.add_argument("--list", action="store_true", help="list the cases and stop")
    a = ap.parse_args(argv)
    root = a.devkit.resolve()
    if not (root / MATRIX_DIR).is_dir():
        ap.error(f"{root}: no {MATRIX_DIR} (give an asc-devkit checkout)")
    cases = [(ex, n, chip) for ex in EXAMPLES for chip, ns in ex.scenarios.items() for n in ns
             if _selected(ex, n, chip, a.keys)]
    if a.list:
        for ex, n, chip in cases:
            print(f"{ex.name}:{n}@{chip}" if n is not None else f"{ex.name}@{chip}")
        return 0
    work = a.work or Path(tempfile.mkdtemp(prefix="ascsim-official-"))
    if a.cold:
        os.environ["ASCSIM_CACHE"] = str(Path(tempfile.mkdtemp(prefix="ascsim-cache-")))
    results: list[Result] = []
    print("| example | scenario | chip | build s | run s | verify | hazards | sync | note |")
    print("|---|---|---|---|---|---|---|---|---|")
    for ex, n, chip in cases:
        r = run_case(root, ex, n, chip, work, a.timeout)
        results.append(r)
        b = "-" if r.build_s is None else f"{r.build_s:.1f}" + (" (cached)" if r.cached else "")
        s = "-" if r.run_s is None else f"{r.run_s:.2f}"
        note = r.note.replace("|", "/")[:300]
        print(f"| {r.example} | {r.scenario if r.scenario is not None else '-'} | {r.chip} | {b} | {s} | "
              f"{r.verify} | {len(r.warnings)} | {len(r.sync)} | {note} |", flush=True)
    passed = sum(r.passed for r in results)
    print(f"\n{passed} / {len(results)} cases pass (scratch: {work})")
    if a.json:
        a.json.write_text(json.dumps([asdict(r) for r in results], indent=1))
    return 0 if passed == len(results) else 1


if __name__ == "__main__":
    sys.exit(main())
