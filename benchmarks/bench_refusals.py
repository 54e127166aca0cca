"""How fast absurd calls are refused (issue 9's target: about 10 ms, before any work): a 2 GiB GM copy, a
DataCopy with every stride at its maximum, a Fixpipe of 65535 ND matrices — the median time of the
refusal (BoundsError), each sample cold (the call caches emptied first, as for a call never seen), against
an accepted, equally cold one-block DataCopy on the same core.

Run: python benchmarks/bench_refusals.py
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable

from ascsim import Core
from ascsim.base.errors import AscsimError
from ascsim.engine.boundary import CALLS
from ascsim.engine.cache import PLANS
from ascsim.params import DataCopyParams, FixpipeParamsV220


def _refused(fn: Callable[[], object], repeat: int = 21) -> float:
    samples = []
    for _ in range(repeat):
        CALLS.clear()
        PLANS.clear()
        t0 = time.perf_counter()
        try:
            fn()
        except AscsimError:
            pass
        else:
            raise SystemExit("the call was accepted")
        samples.append(time.perf_counter() - t0)
    return statistics.median(samples)


def main() -> None:
    core = Core("a2")
    g_huge = core.global_tensor("half", 2**30)
    g, l1 = core.global_tensor("half", 256), core.tensor("A1", "half", 256)
    c, gf = core.tensor("CO1", "float", 256), core.global_tensor("float", 256)
    cases = {
        "DataCopy of 2 GiB GM": lambda: core.data_copy(l1, g_huge, 2**30),
        "DataCopy, every stride maximal": lambda: core.data_copy(l1, g,
                                                                 DataCopyParams(4095, 65535, 65535, 65535)),
        "Fixpipe of 65535 ND matrices": lambda: core.fixpipe(gf, c, FixpipeParamsV220(
            4095, 8192, 65535, 2**32 - 1, ndNum=65535, srcNdStride=512, dstNdStride=65535)),
    }
    ok = statistics.median(_time_ok(core, l1, g) for _ in range(21))
    print(f"an accepted one-block DataCopy GM -> L1: {ok * 1e3:.3f} ms")
    for name, fn in cases.items():
        t = _refused(fn)
        print(f"{name:34s} refused in {t * 1e3:7.3f} ms ({t / ok:6.1f} x the accepted call)")


def _time_ok(core: Core, l1: object, g: object) -> float:
    CALLS.clear()
    PLANS.clear()
    t0 = time.perf_counter()
    core.data_copy(l1, g, 16)
    return time.perf_counter() - t0


if __name__ == "__main__":
    main()
