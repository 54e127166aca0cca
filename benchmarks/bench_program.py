"""The compiled C++ path, measured side by side in one run.

(a) the bridge's cost per API call: a kernel making N one-fractal LoadData 2D calls (and N register
    setters), minus the same kernel making none, per call — against the same call made from Python on a
    `Core` (what the engine itself costs);
(b) a kernel with a 10^6-iteration scalar loop (native code: it never crosses the bridge) against the
    same kernel with 10 and with 10^8 iterations (the per-iteration cost);
(c) a 1024 x 1024 x 1024 half matmul on 24 cube cores end to end (examples/catlass_style/basic_matmul.cpp:
    256 output tiles, its main's own float64 golden check included): the compile with an empty build cache
    (ascsim's runtime object included; the compiler's own libc++ cache warm), the cached build, the run.

Run: python benchmarks/bench_program.py [--quick]
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import sys
import tempfile
import time
import warnings
from pathlib import Path

import numpy as np
from timing import median_time

from ascsim import Core
from ascsim.params import LoadData2DParams
from ascsim.program import load_kernel, load_program

ROOT = Path(__file__).resolve().parent.parent
CALLS_KERNEL = r"""
#include "kernel_operator.h"
extern "C" __global__ __aicore__ void calls(GM_ADDR unused)
{
    AscendC::LocalTensor<half> l1(AscendC::TPosition::A1, 0, 256);
    AscendC::LocalTensor<half> l0a(AscendC::TPosition::A2, 0, 256);
    AscendC::LoadData2DParams p;
    p.repeatTimes = 1;
    for (int i = 0; i < CALLS; ++i) {
#if SETTER
        AscendC::SetLoadDataPaddingValue<half>(half(1.0));
#else
        AscendC::LoadData(l0a, l1, p);
#endif
    }
}
"""
LOOP_KERNEL = r"""
#include "kernel_operator.h"
extern "C" __global__ __aicore__ void loop(GM_ADDR out)
{
    AscendC::GlobalTensor<uint32_t> o;
    o.SetGlobalBuffer((__gm__ uint32_t*)out, 8);
    volatile uint32_t acc = 0;
    for (uint32_t i = 0; i < ITERS; ++i) {
        acc = acc * 1664525u + i;
    }
    o.SetValue(0, acc);
}
"""


def _kernel(tmp: Path, name: str, text: str, **defines: int) -> object:
    path = tmp / f"{name}.cpp"
    path.write_text(text)
    return load_kernel(path, "a2", defines={k: str(v) for k, v in defines.items()})


def _run_seconds(prog: object, repeat: int, **kw: object) -> float:
    samples = []
    for _ in range(repeat):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            samples.append(prog.run(capture=True, **kw).seconds)  # type: ignore[attr-defined]
    return statistics.median(samples)


def bridge(tmp: Path, repeat: int, n: int) -> None:
    print(f"(a) the bridge, per call ({n} calls, median of {repeat} runs)")
    for setter, what in ((0, "LoadData 2D, one fractal L1 -> L0A"), (1, "SetLoadDataPaddingValue")):
        base = _kernel(tmp, f"calls0_{setter}", CALLS_KERNEL, CALLS=0, SETTER=setter)
        many = _kernel(tmp, f"calls_{setter}", CALLS_KERNEL, CALLS=n, SETTER=setter)
        gm = {"unused": np.zeros(8, np.uint8)}
        t0 = _run_seconds(base, repeat, gm=gm)
        t1 = _run_seconds(many, repeat, gm=gm)
        per = (t1 - t0) / n
        core = Core("a2")
        l1 = core.tensor("A1", "half", 256)
        l0a = core.tensor("A2", "half", 256)
        p = LoadData2DParams(repeatTimes=1)
        if setter:
            py = median_time(lambda core=core: core.set_padding_value(1.0, dtype="half"), number=2000)
        else:
            py = median_time(lambda core=core, l0a=l0a, l1=l1, p=p: core.load_data(l0a, l1, p), number=2000)
        print(f"    {what:38s} C++ {per * 1e6:7.1f} us/call   Python Core {py * 1e6:7.1f} us/call   "
              f"ratio {per / py:5.2f}x   (run of 0 calls: {t0 * 1e3:.0f} ms)")


def scalar_loop(tmp: Path, repeat: int) -> None:
    print(f"(b) a 10^6-iteration scalar loop in the kernel (median of {repeat} runs)")
    gm = {"out": np.zeros(8, np.uint32)}
    t = {n: _run_seconds(_kernel(tmp, f"loop{n}", LOOP_KERNEL, ITERS=n), repeat, gm=gm)
         for n in (10, 1_000_000, 100_000_000)}
    per = (t[100_000_000] - t[10]) / 1e8
    print(f"    run with 10 iterations {t[10] * 1e3:6.1f} ms   10^6 {t[1_000_000] * 1e3:6.1f} ms   "
          f"10^8 {t[100_000_000] * 1e3:6.1f} ms   ({per * 1e9:.2f} ns per iteration: the 10^6 loop costs "
          f"{per * 1e6 * 1e3:.1f} ms)")


def matmul(tmp: Path, repeat: int) -> None:
    print("(c) 1024 x 1024 x 1024 half matmul, 24 cube cores, examples/catlass_style/basic_matmul.cpp (A2)")
    src = ROOT / "examples" / "catlass_style" / "basic_matmul.cpp"
    work = tmp / "mm"
    (work / "input").mkdir(parents=True)
    (work / "output").mkdir()
    rng = np.random.default_rng(0)
    rng.standard_normal((1024, 1024)).astype(np.float16).tofile(work / "input" / "a.bin")
    rng.standard_normal((1024, 1024)).astype(np.float16).tofile(work / "input" / "b.bin")
    old = os.environ.get("ASCSIM_CACHE")
    cache = tmp / "cache"
    os.environ["ASCSIM_CACHE"] = str(cache)
    try:
        t0 = time.perf_counter()
        prog = load_program(src, "a2")
        cold = time.perf_counter() - t0
        t0 = time.perf_counter()
        prog = load_program(src, "a2")
        cached = time.perf_counter() - t0
        runs = []
        for _ in range(repeat):
            t0 = time.perf_counter()
            run = prog.run(args=["1024", "1024", "1024"], cwd=work, capture=True)
            runs.append(time.perf_counter() - t0)
    finally:
        if old is None:
            os.environ.pop("ASCSIM_CACHE", None)
        else:
            os.environ["ASCSIM_CACHE"] = old
        shutil.rmtree(cache, ignore_errors=True)
    calls = len(run.trace)
    ok = "Compare success." in run.stdout
    print(f"    compile, empty cache {cold:6.2f} s   cached build {cached * 1e3:6.0f} ms   "
          f"run {statistics.median(runs):6.2f} s (median of {repeat}; {calls} API calls, "
          f"{run.stdout.split(',')[0]}, {'Compare success.' if ok else 'COMPARE FAILED'})")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--quick", action="store_true", help="fewer repeats")
    a = ap.parse_args()
    repeat = 3 if a.quick else 7
    with tempfile.TemporaryDirectory(prefix="ascsim-bench-") as d:
        tmp = Path(d)
        bridge(tmp, repeat, 2000 if a.quick else 20000)
        scalar_loop(tmp, repeat)
        matmul(tmp, 1 if a.quick else 3)
    sys.stdout.flush()


if __name__ == "__main__":
    main()
