"""The long run of the compiled-path fuzzer: N mutated Ascend C files through `ascsim run` (and every
K-th through the Python API), a summary table at the end.

    PYTHONPATH=src python tools/fuzz_programs.py -n 2000 --seed 1 --jobs 2

Each case is a seed of tests/fuzz/program_mutations.py with one to three mutators applied, written to a
scratch folder and run as `python -m ascsim.cli run FILE --chip a2 -q --timeout T --compile-timeout C
[--gm ...]` under a measuring wrapper (the whole process tree's memory, a hard outer timeout of
T + C + 60 s). A case passes when it exits 0, 1 or 2, prints no Python traceback and no "internal error",
ends before the outer timeout and stays under 2 GiB. Builds go to scratch caches, ascsim's and zig's
(removed at the end; the unmutated seeds warm them first, and must run cleanly). `--extremes` runs the
hand-picked cases too. Failing cases are copied to --keep (default ./fuzz-failures) with their stderr; a
case replays with `--replay "Case(...)"` (the label the table prints).

Recorded runs (2 shared cores):

    2026-12-02, -n 2000 --seed 1 --jobs 2 --timeout 5 --compile-timeout 20 --api-every 10 --extremes:
    extreme                           rc      s    MiB  outcome
    empty_file                         2    4.3    133  build: entry: ascsim: /tmp/ascsim-fuzz-programs-ll
    non_utf8_code                      2    4.6    133  build: preprocess: ascsim: /tmp/ascsim-fuzz-progra
    non_utf8_string_literal            0    5.3    171  ok:
    literal_of_a_million               0    4.4    217  ok:
    exponential_macro                  2   19.6   1029  build: preprocess: ascsim: /tmp/ascsim-fuzz-progra
    template_depth_bomb                2    5.2    163  build: compile: ascsim: /tmp/ascsim-fuzz-programs-
    template_exponential_bomb          2   24.2    881  build: compile timeout: ascsim: /tmp/ascsim-fuzz-p
    while_1_in_kernel                  2    7.5    160  run: timeout: ascsim: k.cpp: the program ran past
    while_1_in_main                    2   10.1    191  run: timeout: ascsim: k.cpp: the program ran past
    infinite_recursion                 2    6.1    172  run: SIGSEGV: ascsim: k.cpp: the program ended wit
    static_array_of_1_gib              0    5.4    171  ok:
    initialised_array_of_1_gib         2    6.9    172  build: compile: ascsim: /tmp/ascsim-fuzz-programs-
    heap_touched_past_the_limit        2    7.4    191  run: SIGABRT: libc++abi: terminating due to uncaug
    gm_of_3_gib                        0    7.6    191  ok:
    huge_block_dim_launch              2    6.2    191  run: refused: k.cpp:107: mm<<<100000, ...>>>: bloc
    negative_mmad_m                    2    5.1    171  run: refused: k.cpp:48:5: Mmad: m must be in [0, 4
    nan_literals                       0    5.3    174  ok: k.cpp:12: warning: DataCopy (MTE2) writes L1 [
    deep_nesting                       2    4.9    165  build: compile: ascsim: /tmp/ascsim-fuzz-programs-
    exit_with_the_runtime_status       2    4.5    166  run: exit status: ascsim: k.cpp: the program exite
    2000 cases (2200 runs) in 4366 s; seed 1, --timeout 5, --compile-timeout 20, 2 job(s)
    outcome                            runs   max s  max MiB
    cli: build: compile                 735    20.6     1519
    cli: ok                             507    11.5      249
    cli: run: refused                   242     8.5     1250
    cli: run: timeout                   127    15.7     1268
    cli: build: preprocess              115    22.7     1029
    cli: build: entry                    86     6.8      186
    cli: run: SIGSEGV                    81     9.5      224
    api: build: compile                  75    22.2     1517
    api: ok                              54     6.6      102
    cli: run: exit status                38     8.8      233
    cli: build: compile timeout          22    26.6     1503
    api: run: refused                    18     4.5      102
    cli: run: SIGABRT                    17     7.4     1245
    api: build: preprocess               11     8.5     1028
    api: run: timeout                    11     8.3     1268
    api: run: SIGSEGV                     9     1.7      100
    cli: run: signal                      9     5.4      192
    api: build: entry                     6     3.7      102
    cli: run: binding                     6     2.8      191
    cli: run: bridge                      6     5.1     1247
    api: run: exit status                 5     1.9      102
    cli: run: SIGKILL                     4     2.0      171
    api: build: compile timeout           3    23.1      144
    api: build: no main                   3     1.5       85
    cli: run: deadlock                    3     5.7      191
    api: run: SIGABRT                     2     1.9      102
    cli: run: SIGILL                      2     2.9      191
    api: run: SIGKILL                     1     1.3      102
    api: run: bridge                      1     3.2      102
    api: run: signal                      1     3.4       85
    all                                2200    26.6     1519
    extremes failing: 0 of 19
    failures: 0
"""

from __future__ import annotations

import argparse
import ast
import os
import random
import shutil
import signal
import sys
import tempfile
import time
from collections import defaultdict
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests" / "fuzz"))

import program_mutations as pm  # noqa: E402

LIMIT = 2 << 30


def _env(work: Path) -> dict[str, str]:
    """Builds go to scratch caches: ascsim's (an executable per case) and zig's (two objects per link)."""
    src = str(ROOT / "src")
    path = os.environ.get("PYTHONPATH")
    return {**os.environ, "PYTHONPATH": src + (os.pathsep + path if path else ""),
            "ASCSIM_CACHE": str(work / "cache"), "ZIG_GLOBAL_CACHE_DIR": str(work / "zig")}


def warm_up(work: Path, env: dict[str, str], timeout: float) -> bool:
    """Each seed, unmutated, with a long --compile-timeout: the scratch caches get zig's libc++ and ascsim's
    runtime (minutes, once), and every seed must run cleanly."""
    ok = True
    for name, text in pm.SEEDS.items():
        folder = Path(tempfile.mkdtemp(prefix="seed-", dir=work))
        path = folder / "k.cpp"
        path.write_text(text, encoding="utf-8")
        o = pm.run_measured(pm.cli_argv(path, pm.Case(name, (), 0), folder, timeout, 900), timeout + 960,
                            env=env, cwd=folder)
        print(f"seed {name}: rc={o.rc} {o.elapsed:.1f} s {o.memory / 2**20:.0f} MiB", flush=True)
        ok = ok and o.rc == 0 and not o.failures(LIMIT)
        shutil.rmtree(folder, ignore_errors=True)
    return ok


def run_case(case: pm.Case, work: Path, env: dict[str, str], timeout: float, compile_timeout: float,
             api: bool) -> list[tuple[str, pm.Outcome]]:
    """The CLI run of `case` (and the API run when `api`): [(face, outcome)]."""
    folder = Path(tempfile.mkdtemp(prefix="case-", dir=work))
    try:
        path = folder / "k.cpp"
        path.write_bytes(case.text())
        outer = timeout + compile_timeout + 60
        runs = [("cli", pm.run_measured(pm.cli_argv(path, case, folder, timeout, compile_timeout), outer,
                                        env=env, cwd=folder))]
        if api:
            runs.append(("api", pm.run_measured(pm.api_argv(path, case, folder, timeout, compile_timeout),
                                                outer, env=env, cwd=folder)))
        return runs
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def run_extremes(work: Path, env: dict[str, str], timeout: float, compile_timeout: float) -> int:
    """The hand-picked cases of program_mutations.EXTREMES, each with the outcome it must have."""
    bad = 0
    print(f"{'extreme':32s} {'rc':>3s} {'s':>6s} {'MiB':>6s}  outcome")
    for name, case in pm.EXTREMES.items():
        folder = Path(tempfile.mkdtemp(prefix="extreme-", dir=work))
        path = folder / "k.cpp"
        path.write_bytes(case.source)
        t = case.timeout or timeout
        argv = [*pm.cli_argv(path, pm.Case(case.seed_name, (), 0), folder, t, compile_timeout), *case.options]
        o = pm.run_measured(argv, t + compile_timeout + 60, env=env, cwd=folder)
        problems = o.failures(LIMIT)
        if case.expect == ("",) and o.rc != 0:
            problems.append("did not run to its end")
        elif case.expect != ("",) and not any(e in o.stderr for e in case.expect):
            problems.append(f"says none of {case.expect}")
        bad += bool(problems)
        line = (o.stderr.strip().splitlines() or [""])[0 if o.rc else -1][:90]
        print(f"{name:32s} {o.rc:3d} {o.elapsed:6.1f} {o.memory / 2**20:6.0f}  {o.kind}: {line}"
              + (f"  <-- FAIL: {'; '.join(problems)}" if problems else ""), flush=True)
        shutil.rmtree(folder, ignore_errors=True)
    return bad


def _keep(keep: Path, case: pm.Case, face: str, o: pm.Outcome, i: int) -> None:
    keep.mkdir(parents=True, exist_ok=True)
    stem = keep / f"case{i:05d}-{face}"
    stem.with_suffix(".cpp").write_bytes(case.text())
    stem.with_suffix(".txt").write_text(f"{case.label}\nface: {face}\nfailures: {o.failures(LIMIT)}\n"
                                        f"rc={o.rc} elapsed={o.elapsed:.1f}s memory={o.memory}\n"
                                        f"--- stderr\n{o.stderr}\n--- stdout\n{o.stdout[-4000:]}\n")


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("-n", "--cases", type=int, default=200)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--timeout", type=float, default=10.0, help="the program's --timeout (s)")
    p.add_argument("--compile-timeout", type=float, default=60.0, help="the build's --compile-timeout (s)")
    p.add_argument("--jobs", type=int, default=1)
    p.add_argument("--api-every", type=int, default=5, help="every K-th case also through the Python API")
    p.add_argument("--keep", type=Path, default=Path("fuzz-failures"))
    p.add_argument("--extremes", action="store_true", help="run the hand-picked cases first")
    p.add_argument("--replay", help='one case, e.g. "Case(\'program\', (\'endless_loop\',), 123)"')
    args = p.parse_args(argv)

    if args.replay:
        parts = ast.literal_eval(args.replay.removeprefix("Case"))
        blocks = None
        if len(parts) > 3 and isinstance(parts[3], int):
            blocks = parts[3]
        cases = [pm.Case(parts[0], tuple(parts[1]), parts[2], blocks)]
    else:
        rng = random.Random(args.seed)
        cases = [pm.random_case(rng) for _ in range(args.cases)]
    work = Path(tempfile.mkdtemp(prefix="ascsim-fuzz-programs-"))
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))  # (the scratch folder still goes)
    env = _env(work)
    t0 = time.monotonic()
    stats: dict[str, list[pm.Outcome]] = defaultdict(list)
    failures: list[tuple[pm.Case, str, pm.Outcome]] = []
    done = 0
    extreme_failures = 0
    try:
        if not warm_up(work, env, args.timeout):
            print("a seed does not run cleanly: no fuzzing")
            return 1
        if args.extremes:
            extreme_failures = run_extremes(work, env, args.timeout, args.compile_timeout)

        def one(i: int) -> tuple[int, list[tuple[str, pm.Outcome]]]:
            return i, run_case(cases[i], work, env, args.timeout, args.compile_timeout,
                               args.api_every > 0 and i % args.api_every == 0)

        with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as ex:
            for i, runs in ex.map(one, range(len(cases))):
                done += 1
                for face, o in runs:
                    stats[f"{face}: {o.kind}"].append(o)
                    bad = o.failures(LIMIT)
                    if bad:
                        failures.append((cases[i], face, o))
                        _keep(args.keep, cases[i], face, o, i)
                        print(f"FAIL {cases[i].label} [{face}]: {'; '.join(bad)}\n    "
                              + "\n    ".join(o.stderr.strip().splitlines()[-3:]), flush=True)
                if done % 50 == 0:
                    print(f"... {done}/{len(cases)} cases, {len(failures)} failures, "
                          f"{time.monotonic() - t0:.0f} s", flush=True)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    wall = time.monotonic() - t0
    every = [o for os_ in stats.values() for o in os_]
    print(f"\n{len(cases)} cases ({len(every)} runs) in {wall:.0f} s; seed {args.seed}, --timeout "
          f"{args.timeout:g}, --compile-timeout {args.compile_timeout:g}, {args.jobs} job(s)")
    print(f"{'outcome':32s} {'runs':>6s} {'max s':>7s} {'max MiB':>8s}")
    for kind in sorted(stats, key=lambda k: (-len(stats[k]), k)):
        os_ = stats[kind]
        print(f"{kind:32s} {len(os_):6d} {max(o.elapsed for o in os_):7.1f} "
              f"{max(o.memory for o in os_) / 2**20:8.0f}")
    if every:
        print(f"{'all':32s} {len(every):6d} {max(o.elapsed for o in every):7.1f} "
              f"{max(o.memory for o in every) / 2**20:8.0f}")
    if args.extremes:
        print(f"extremes failing: {extreme_failures} of {len(pm.EXTREMES)}")
    print(f"failures: {len(failures)}")
    for case, face, o in failures:
        print(f"  {case.label} [{face}]: {'; '.join(o.failures(LIMIT))}")
    return 1 if failures or extreme_failures else 0


if __name__ == "__main__":
    sys.exit(main())
