"""Shared timing helper for the benchmark scripts: medians of batches, after one warm-up call."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable


def median_time(fn: Callable[[], object], repeat: int = 15, number: int = 200) -> float:
    """Median seconds per call over `repeat` batches of `number` calls (after one warm-up call)."""
    fn()
    samples = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        for _ in range(number):
            fn()
        samples.append((time.perf_counter() - t0) / number)
    return statistics.median(samples)
