"""Whole flows against torch / numpy, measured side by side in one run (issue 8 targets).

(a) a ResNet layer (56x56x64 -> 64, 3x3, pad 1, half, A2) through Load3D + Mmad (`ascsim.flows.conv2d`)
    / torch conv2d in float32 on one thread — target <= 5x;
(b) a 1024^3 half matmul through the tiled matmul flow (`ascsim.flows_matmul.matmul`) / a numpy float32
    matmul on one thread — target <= 4x.
Each with its floor: the flow's whole product as one float64 (what Mmad forms) and one float32 GEMM.

BLAS and torch are held to one thread (threadpoolctl-free: the environment variables are set before
numpy loads, and torch.set_num_threads(1)). Each flow also reports the share of its time spent inside Mmad
(the core's `mmad` timed in one extra run). Run: python benchmarks/bench_flows.py [--quick]
"""

from __future__ import annotations

import os

for _v in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_v, "1")

import argparse  # noqa: E402
import statistics  # noqa: E402
import time  # noqa: E402
import warnings  # noqa: E402
from collections.abc import Callable  # noqa: E402

import numpy as np  # noqa: E402

from ascsim import Core  # noqa: E402
from ascsim.flows import conv2d  # noqa: E402
from ascsim.flows.matmul import matmul  # noqa: E402
from ascsim.isa.mmad import DECODED  # noqa: E402


def _best(fn: Callable[[], object], repeat: int) -> float:
    """Median of `repeat` timed runs (after one warm-up run). Mmad's decoded operands (`DECODED`, keyed by
    content) are dropped before each run, so no run reuses an operand decoded by an earlier run of the same
    data: each run decodes as a first run would (the prepared calls and placements stay warm)."""
    fn()
    times = []
    for _ in range(repeat):
        DECODED.clear()
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def _mmad_share(fn: Callable[[], object], core: Core) -> float:
    """Fraction of one run of `fn` spent in core.mmad (the flows execute through Core.run, which looks the
    method up on the core, so an instance attribute wraps it)."""
    spent = [0.0]
    inner = core.mmad

    def timed(*args: object, **kw: object) -> object:
        t0 = time.perf_counter()
        try:
            return inner(*args, **kw)
        finally:
            spent[0] += time.perf_counter() - t0

    core.mmad = timed  # type: ignore[method-assign]
    try:
        t0 = time.perf_counter()
        fn()
        total = time.perf_counter() - t0
    finally:
        del core.mmad
    return spent[0] / total


def bench_conv(repeat: int) -> None:
    import torch

    torch.set_num_threads(1)
    rng = np.random.default_rng(0)
    x = rng.standard_normal((1, 64, 56, 56)).astype(np.float16)
    w = (rng.standard_normal((64, 64, 3, 3)) * 0.05).astype(np.float16)
    tx, tw = torch.from_numpy(x.astype(np.float32)), torch.from_numpy(w.astype(np.float32))
    t_torch = _best(lambda: torch.nn.functional.conv2d(tx, tw, padding=1), repeat)
    core = Core("a2")
    t_sim = _best(lambda: conv2d(core, x, w, stride=1, pad=1, dtype="half"), repeat)
    y, _ = conv2d(core, x, w, stride=1, pad=1, dtype="half")
    err = float(np.abs(y - torch.nn.functional.conv2d(tx, tw, padding=1).numpy()).max())
    share = _mmad_share(lambda: conv2d(core, x, w, stride=1, pad=1, dtype="half"), core)
    print(f"(a) ResNet layer 56x56x64->64 3x3 pad 1 half (A2): ascsim {t_sim * 1e3:8.1f} ms, torch conv2d "
          f"(float32, 1 thread) {t_torch * 1e3:6.1f} ms: {t_sim / t_torch:5.1f}x (target <= 5x); "
          f"max |diff| {err:.2e}; Mmad {100 * share:.0f}% of the flow")
    _gemm_floor(56 * 56, 64 * 9, 64, t_torch, "torch conv2d", repeat)


def _gemm_floor(m: int, k: int, n: int, t_ref: float, ref: str, repeat: int) -> None:
    """The flow's whole product as one BLAS call, in float64 (what Mmad forms: exact products, one rounding
    per call, docs/divergences.md M-rows) and in float32 (what a float32-accumulation Mmad would cost): a
    floor under the flow, which also loads, decodes, accumulates and writes out."""
    rng = np.random.default_rng(2)
    parts = []
    for dt in (np.float64, np.float32):
        a, b = rng.standard_normal((m, k)).astype(dt), rng.standard_normal((k, n)).astype(dt)
        parts.append(f"{np.dtype(dt).name} {_best(lambda a=a, b=b: a @ b, max(repeat, 3)) / t_ref:4.1f}x")
    print(f"    floor: the product alone as one {m}x{k}x{n} GEMM / {ref}: {', '.join(parts)}")


def bench_matmul(repeat: int, size: int) -> None:
    rng = np.random.default_rng(1)
    a = rng.standard_normal((size, size)).astype(np.float16)
    b = rng.standard_normal((size, size)).astype(np.float16)
    a32, b32 = a.astype(np.float32), b.astype(np.float32)
    t_np = _best(lambda: a32 @ b32, repeat)
    core = Core("a2")
    try:
        t_sim = _best(lambda: matmul(core, a, b, dtype="half"), repeat)
    except Exception as e:  # the untiled flow cannot hold a large matmul in L1
        print(f"(b) {size}^3 half matmul (A2): not runnable: {type(e).__name__}: {e}")
        return
    c, _ = matmul(core, a, b, dtype="half")
    err = float(np.abs(c - a32 @ b32).max())
    share = _mmad_share(lambda: matmul(core, a, b, dtype="half"), core)
    print(f"(b) {size}^3 half matmul (A2): ascsim {t_sim * 1e3:8.1f} ms, numpy float32 (1 thread) "
          f"{t_np * 1e3:6.1f} ms: {t_sim / t_np:5.1f}x (target <= 4x); max |diff| {err:.2e}; Mmad "
          f"{100 * share:.0f}% of the flow")
    _gemm_floor(size, size, size, t_np, "numpy float32", repeat)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="one timed repeat")
    args = ap.parse_args()
    warnings.simplefilter("ignore")
    repeat = 1 if args.quick else 5
    bench_conv(repeat)
    bench_matmul(repeat, 1024)


if __name__ == "__main__":
    main()
