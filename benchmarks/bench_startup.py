"""Start-up time of the command line: `ascsim --help` and `ascsim chips` (target <= 0.3 s), against an empty
`python -c pass` in the same run. Medians of interleaved runs; run from the repository root:

    python benchmarks/bench_startup.py [--repeat N]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

SRC = str(Path(__file__).resolve().parent.parent / "src")
CASES = {"python -c pass": [sys.executable, "-c", "pass"],
         "ascsim --help": [sys.executable, "-m", "ascsim", "--help"],
         "ascsim chips": [sys.executable, "-m", "ascsim", "chips"],
         "ascsim chips a2": [sys.executable, "-m", "ascsim", "chips", "a2"]}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--repeat", type=int, default=7)
    args = ap.parse_args()
    env = dict(os.environ, PYTHONPATH=SRC)
    times: dict[str, list[float]] = {k: [] for k in CASES}
    for _ in range(args.repeat):
        for name, cmd in CASES.items():
            t = time.perf_counter()
            subprocess.run(cmd, env=env, stdout=subprocess.DEVNULL, check=True)
            times[name].append(time.perf_counter() - t)
    for name, ts in times.items():
        med = statistics.median(ts)
        mark = "" if name.startswith("python") else ("  ok (<= 0.3 s)" if med <= 0.3 else "  SLOW (> 0.3 s)")
        print(f"{name:18} {med * 1000:7.0f} ms{mark}")


if __name__ == "__main__":
    main()
