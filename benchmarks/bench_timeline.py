"""What the timeline costs: scheduling a recorded stream, side by side with the run that recorded it.

(a) events scheduled per second for a ping-pong stream built by hand (copy, flags, two loads, Mmad, per K
    tile), at 10k and 200k events — the scheduler is linear in the events;
(b) the ping-pong matmul of examples/ (`matmul_pingpong.cpp`, A2): its run (build cached) and its
    `run.timeline()` with the trace written, as a ratio.

Medians of repeats; `--quick` runs fewer. Run: python benchmarks/bench_timeline.py
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

import numpy as np

from ascsim.engine.timeline import Instr, SetFlag, WaitFlag, schedule
from ascsim.machine.costs import cost_model
from ascsim.program import load_kernel
from ascsim.program.run import Output

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


def pingpong_stream(tiles: int) -> list:
    ev: list = [SetFlag("M_MTE1", 0), SetFlag("M_MTE1", 1)]
    for t in range(tiles):
        b = t % 2
        ev += [Instr("MTE2", "DataCopy", "GM->L1", nbytes=32768), SetFlag("MTE2_MTE1", b),
               WaitFlag("MTE2_MTE1", b), WaitFlag("M_MTE1", b),
               Instr("MTE1", "LoadData", "L1->L0A", nbytes=16384),
               Instr("MTE1", "LoadData", "L1->L0B", nbytes=16384), SetFlag("MTE1_M", b),
               WaitFlag("MTE1_M", b),
               Instr("M", "Mmad", shape=(128, 64, 128), dtype="half"), SetFlag("M_MTE1", b)]
    return ev + [WaitFlag("M_MTE1", 0), WaitFlag("M_MTE1", 1)]


def median(fn, n: int) -> float:
    out = []
    for _ in range(n):
        t = time.perf_counter()
        fn()
        out.append(time.perf_counter() - t)
    return statistics.median(out)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true")
    args = ap.parse_args()
    reps = 3 if args.quick else 7
    model = cost_model("a2")
    print("(a) scheduling a hand-built ping-pong stream")
    for tiles in (1_000, 20_000):
        ev = pingpong_stream(tiles)
        s = median(lambda ev=ev: schedule(ev, model), reps)
        print(f"  {len(ev):>8,} events: {s * 1e3:8.1f} ms  = {len(ev) / s:>10,.0f} events/s")
    print("(b) examples/matmul_pingpong.cpp on A2: the run vs its timeline")
    a = np.ones((32, 128), np.float16)
    b = np.ones((128, 32), np.float16)
    k = load_kernel(EXAMPLES / "matmul_pingpong.cpp", chip="a2")
    gm = {"a": a, "b": b, "c": Output("float", (32, 32))}
    run_s = median(lambda: k.run(gm=gm), reps)
    run = k.run(gm=gm)
    out = Path(tempfile.mkdtemp()) / "trace.json"
    tl_s = median(lambda: run.timeline().save(out), reps)
    print(f"  run {run_s * 1e3:8.1f} ms   timeline + trace.json {tl_s * 1e3:8.1f} ms   ratio "
          f"{tl_s / run_s:.3f}")


if __name__ == "__main__":
    main()
