"""The acceptance run of the planner's kernels (issue 20 item 4): for each problem, plan it, verify it
against numpy / torch, write the looped multi-core kernel, build and run it through the compiled path on
`--blocks` cores, and require (1) no sync or race finding, (2) the verification's GM output bytes exactly.
Prints one line per problem: calls of the verification trace, kernel line count, times.

    PYTHONPATH=src python tools/plan_kernels.py [--only SUBSTRING] [--blocks 24] [--skip-big]
        [--exact-sync-history]

Too slow for the suite on a 2-core machine (4096^3 and the stem through the compiled path); the suite runs
a representative ragged set (tests/planner/test_kernel.py). The recorded run is in docs/planner.md.
"""

from __future__ import annotations

import argparse
import itertools
import sys
import tempfile
import time
from collections import Counter

from ascsim.base.errors import AscsimError
from ascsim.engine import sync as sync_checker
from ascsim.planner import ConvProblem, MatmulProblem, plan_conv2d, plan_matmul
from ascsim.planner.emit import run_kernel, write_plan

CHIPS = ("a2", "ascend950")


def problems(skip_big: bool) -> list[MatmulProblem | ConvProblem]:
    out: list[MatmulProblem | ConvProblem] = []
    for chip in CHIPS:
        out.append(ConvProblem(chip, 1, 3, 224, 224, 64, 7, 7, (2, 2), (3, 3, 3, 3), (1, 1), "half"))
        out.append(ConvProblem(chip, 1, 256, 14, 14, 256, 3, 3, (1, 1), (1, 1, 1, 1), (1, 1), "half"))
        out.append(ConvProblem(chip, 1, 1024, 14, 14, 256, 1, 1, (1, 1), (0, 0, 0, 0), (1, 1), "half"))
        dtypes = ("int4b_t", "int8_t", "half", "bfloat16_t", "float")
        for dt, at, bt in itertools.product(dtypes, (False, True), (False, True)):
            if (chip == "ascend950" and dt == "int4b_t") or (dt == "int4b_t" and at):
                continue  # no int4 Mmad on 950; no load moves a transposed int4 A (表5)
            out.append(MatmulProblem(chip, 100, 70, 300, dt, at, bt))
        out.append(MatmulProblem(chip, 1000, 333, 777, "half"))
        if not skip_big:
            out.append(MatmulProblem(chip, 4096, 4096, 4096, "half"))
    return out


def run_one(p: MatmulProblem | ConvProblem, blocks: int) -> bool:
    t0 = time.perf_counter()
    plan = (plan_matmul if isinstance(p, MatmulProblem) else plan_conv2d)(p)
    inputs = p.random_inputs(7)
    v = plan.verify(inputs)
    t1 = time.perf_counter()
    with tempfile.TemporaryDirectory() as tmp:
        paths = write_plan(plan, tmp, inputs, plan.report(v))
        lines = paths["cpp"].read_text(encoding="utf-8").count("\n")
        t2 = time.perf_counter()
        try:
            gm, run = run_kernel(paths["scenario"], paths["cpp"], blocks)
        except AscsimError as e:  # a failing case is a FAIL line, and the list goes on
            print(f"FAIL {p.chip:9} {p.describe()[:88]:88} kernel {lines:>4} lines; "
                  f"the compiled run stopped: {e}", flush=True)
            return False
    t3 = time.perf_counter()
    same = all(gm[n] == raw for n, raw in v.gm.items())
    reports = [*run.sync_reports, *run.race_reports]
    findings = len(reports)
    ok = v.passed and same and not findings
    print(f"{'ok  ' if ok else 'FAIL'} {p.chip:9} {p.describe()[:88]:88} calls {len(plan.program.calls):>6,} "
          f"kernel {lines:>4} lines; verify {t1 - t0:6.1f} s, emit {t2 - t1:5.1f} s, "
          f"compiled run {t3 - t2:6.1f} s "
          f"on {blocks} blocks; bytes {'identical' if same else 'DIFFER'}, findings {findings}", flush=True)
    kinds = Counter(r.kind for r in reports)
    if reports:
        print(f"     findings by kind: {dict(kinds)}; first: {reports[0].message}", flush=True)
    return ok


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--only", default="", help="run only problems whose description contains this")
    ap.add_argument("--blocks", type=int, default=24, help="blocks (cores) of each launch (default 24)")
    ap.add_argument("--skip-big", action="store_true", help="leave out 4096^3")
    ap.add_argument("--exact-sync-history", action="store_true",
                    help="diagnostic: lift the sync checker's history cap (engine/sync.py HISTORY_CAP); past "
                    "it the checker merges old accesses into a superset, which can report conflicts that are "
                    "not there")
    args = ap.parse_args()
    if args.exact_sync_history:
        sync_checker.HISTORY_CAP = 10**9
    todo = [p for p in problems(args.skip_big) if args.only in f"{p.chip} {p.describe()}"]
    bad = sum(not run_one(p, args.blocks) for p in todo)
    print(f"{len(todo) - bad} of {len(todo)} pass")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
