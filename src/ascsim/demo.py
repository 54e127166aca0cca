"""`ascsim demo`: a conv2d layer through Load3D + Mmad on real chip profiles, checked against numpy."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np


def conv2d_reference(x: np.ndarray, w: np.ndarray, stride: int, pad: int, dilation: int) -> np.ndarray:
    """Plain numpy conv2d (N=1, NCHW x OIHW), accumulated in float64 / int64."""
    _, c, h, wd = x.shape
    o, _, kh, kw = w.shape
    acc = np.float64 if x.dtype.kind == "f" or x.dtype.name == "bfloat16" else np.int64
    xp = np.pad(x[0].astype(acc), ((0, 0), (pad, pad), (pad, pad)))
    ho = (h + 2 * pad - (dilation * (kh - 1) + 1)) // stride + 1
    wo = (wd + 2 * pad - (dilation * (kw - 1) + 1)) // stride + 1
    y = np.zeros((o, ho, wo), dtype=acc)
    wt = w.astype(acc)
    for i in range(kh):
        for j in range(kw):
            patch = xp[:, i * dilation : i * dilation + stride * ho : stride,
                       j * dilation : j * dilation + stride * wo : stride]
            y += np.einsum("chw,oc->ohw", patch, wt[:, :, i, j])
    return y[None]


@dataclass
class DemoRow:
    name: str
    chip: str
    dtype: str
    instructions: str
    bytes_moved: int
    max_error: float
    ok: bool
    seconds: float


def _conv_case(chip: str, dtype: str, rng: np.random.Generator) -> DemoRow:
    from .core import Core
    from .dtypes import get_dtype
    from .flows import conv2d

    c, h, w, o, k = 64, 28, 28, 64, 3
    dt = get_dtype(dtype)
    if dt.kind == "int":
        x = rng.integers(-8, 8, (1, c, h, w)).astype(np.int8)
        wt = rng.integers(-8, 8, (o, c, k, k)).astype(np.int8)
    else:
        x = rng.standard_normal((1, c, h, w)).astype(dt.value_dtype)
        wt = (rng.standard_normal((o, c, k, k)) / 8).astype(dt.value_dtype)
    t0 = time.perf_counter()
    y, stats = conv2d(Core(chip), x, wt, stride=1, pad=1, dilation=1, dtype=dt.name)
    secs = time.perf_counter() - t0
    ref = conv2d_reference(x, wt, 1, 1, 1)
    err = float(np.max(np.abs(np.asarray(y, dtype=np.float64) - ref)))
    tol = 0.0 if dt.kind == "int" else 1e-3 * float(np.max(np.abs(ref)))
    instr = ", ".join(f"{v} {k}" for k, v in stats["instructions"].items())
    return DemoRow(f"conv2d 1x{c}x{h}x{w} -> {o}, {k}x{k} pad 1", chip, dt.name, instr,
                   int(stats["bytes_moved"]), err, err <= tol, secs)


def cases() -> list[Callable[[np.random.Generator], DemoRow]]:
    out: list[Callable[[np.random.Generator], DemoRow]] = []
    for chip in ("a2", "ascend950"):
        for dtype in ("half", "int8_t"):
            out.append(lambda rng, chip=chip, dtype=dtype: _conv_case(chip, dtype, rng))
    return out


def run_demo(print_fn: Callable[[str], None] = print) -> int:
    """Run every case, print a table, return the exit code (1 on any mismatch)."""
    rng = np.random.default_rng(2026)
    rows = [case(rng) for case in cases()]
    head = f"{'case':38} {'chip':10} {'dtype':8} {'bytes moved':>12} {'max error':>10} {'time':>7}  result"
    print_fn(head)
    print_fn("-" * len(head))
    for r in rows:
        print_fn(f"{r.name:38} {r.chip:10} {r.dtype:8} {r.bytes_moved:12,d} {r.max_error:10.3g} "
                 f"{r.seconds:6.2f}s  {'PASS' if r.ok else 'FAIL'}")
        print_fn(f"{'':38} instructions: {r.instructions}")
    failed = [r for r in rows if not r.ok]
    print_fn(f"\n{len(rows) - len(failed)} passed, {len(failed)} failed")
    return 1 if failed else 0
