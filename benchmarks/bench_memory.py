"""Memory stays bounded: RSS growth after N distinct calls of each family (issue 8 target: <= 256 MB
after 100,000 distinct calls of any family).

Each family issues calls whose parameters never repeat (a sweep the caches cannot reuse), with the
default `Core` (light log records, byte-capped caches). Prints the resident-set growth per family, each
measured in a fresh process.

Run: python benchmarks/bench_memory.py [--calls 100000] [--quick]   (quick = 10,000 calls)
"""

from __future__ import annotations

import argparse
import gc
import resource
import subprocess
import sys
import warnings
from collections.abc import Callable, Iterator

import numpy as np

from ascsim import Core, LoadData3DParamsV2
from ascsim.machine.layouts import chw_to_fmap_l1
from ascsim.params import (
    DataCopyExtParams,
    DataCopyPadExtParams,
    DataCopyParams,
    FixpipeParamsV220,
    InitConstValueParams,
    LoadData2DMxParams,
    LoadData2DParams,
    LoadData2DParamsV2,
    LoadData2dTransposeParams,
    MmadParams,
    Nd2NzParams,
    QuantMode_t,
)


def _rss_mb() -> float:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * resource.getpagesize() / 2**20


def _load3d(core: Core) -> Iterator[Callable[[], object]]:
    c, h, w = 32, 64, 64
    x = np.zeros((c, h, w), np.float16)
    src = core.tensor("A1", "half", x.size, data=chw_to_fmap_l1(x, 16))
    dst = core.tensor("A2", "half", 16 * 1024)
    i = 0
    while True:  # distinct (mStartPt, kStartPt, mExtension) triples
        m0, k0, me = i % 3000, 16 * (i // 3000 % 8), 16 * (1 + i // 24000 % 8)
        p = LoadData3DParamsV2([1, 1, 1, 1], h, w, c, 128, me, k0, m0, 1, 1, 3, 3, 1, 1)
        yield lambda p=p: core.load_data(dst, src, p)
        i += 1


def _load2d(core: Core) -> Iterator[Callable[[], object]]:
    src = core.tensor("A1", "half", 256 * 1024)
    dst = core.tensor("A2", "half", 32 * 1024)
    i = 0
    while True:
        p = LoadData2DParams(i % 500, 1 + i // 500 % 64, 1 + i // 32000 % 4, 0, 0, False, 0)  # inside L1
        yield lambda p=p: core.load_data(dst, src, p)
        i += 1


def _transpose(core: Core) -> Iterator[Callable[[], object]]:
    src = core.tensor("B1", "int8_t", 512 * 1024)
    dst = core.tensor("B2", "int8_t", 64 * 1024)
    i = 0
    while True:
        # start, repeat, stride, dstFracGap: 120,000 distinct calls inside L1 / L0B
        p = LoadData2dTransposeParams(i % 200, 1 + i // 200 % 60, i // 12000 % 5, 1, i // 60000 % 2)
        yield lambda p=p: core.load_data_with_transpose(dst, src, p)
        i += 1


def _datacopy(core: Core) -> Iterator[Callable[[], object]]:
    g = core.global_tensor("half", 1 << 20)
    l1 = core.tensor("A1", "half", 256 * 1024)
    i = 0
    while True:
        p = DataCopyParams(1 + i % 64, 1 + i // 64 % 64, i // 4096 % 32, 0)
        yield lambda p=p: core.data_copy(l1, g, p)
        i += 1


def _fixpipe(core: Core) -> Iterator[Callable[[], object]]:
    l0c = core.tensor("CO1", "float", 32 * 1024)
    g = core.global_tensor("float", 1 << 22)
    i = 0
    while True:
        n, m = 16 * (1 + i % 8), 1 + i // 8 % 128
        p = FixpipeParamsV220(n, m, 128, n + i // 1024)
        yield lambda p=p: core.fixpipe(g, l0c, p)
        i += 1


def _mmad(core: Core) -> Iterator[Callable[[], object]]:
    a = core.tensor("A2", "half", 32 * 1024)
    b = core.tensor("B2", "half", 32 * 1024)
    c = core.tensor("CO1", "float", 32 * 1024)
    i = 0
    while True:
        p = MmadParams(1 + i % 64, 1 + i // 64 % 64, 1 + i // 4096 % 64, 0, False, True)
        yield lambda p=p: core.mmad(c, a, b, p)
        i += 1


def _sweep(params: Callable[[int], tuple], call: Callable[..., object]) -> Iterator[Callable[[], object]]:
    """Calls `call(*params(i))` for i = 0, 1, 2, ...: one distinct call shape each."""
    i = 0
    while True:
        args = params(i)
        yield lambda args=args: call(*args)
        i += 1


def _transpose_int4(core: Core) -> Iterator[Callable[[], object]]:
    src = core.tensor("B1", "int4b_t", 1024 * 1024)
    dst = core.tensor("B2", "int4b_t", 128 * 1024)
    # up to 16 squares of 2 KB (start, repeat, stride, dstGap, dstFracGap): 100,800 calls
    return _sweep(lambda i: (dst, src, LoadData2dTransposeParams(
        i % 150, 1 + i // 150 % 16, i // 2400 % 7, 3 + i // 16800 % 3, i // 50400 % 2)),
        core.load_data_with_transpose)


def _sparse(core: Core) -> Iterator[Callable[[], object]]:
    src, idx = core.tensor("B1", "int8_t", 256 * 1024), core.tensor("B1", "uint8_t", 64 * 1024)
    dst = core.tensor("B2", "int8_t", 32 * 1024)
    # srcStride: unused by the instruction, still in the key
    return _sweep(lambda i: (dst, src, idx, LoadData2DParams(i % 400, 1 + i // 400 % 64, i // 25600)),
                  core.load_data_with_sparse)


def _mx(core: Core) -> Iterator[Callable[[], object]]:
    src, smx = core.tensor("A1", "fp8_e4m3fn_t", 256 * 1024), core.tensor("A1", "fp8_e8m0_t", 16 * 1024)
    dst = core.tensor("A2", "mx_fp8_e4m3_t", 32 * 1024)
    return _sweep(lambda i: (dst, src, smx, LoadData2DParamsV2(i % 20, i // 20 % 10, 1 + i // 200 % 8,
                                                               1 + i // 1600 % 8, 20, 8),
                             LoadData2DMxParams(i // 12800 % 8, 0, 2, 2, 4, 2)), core.load_data_mx)


def _nd2nz(core: Core) -> Iterator[Callable[[], object]]:
    g = core.global_tensor("half", 1 << 20)
    l1 = core.tensor("A1", "half", 128 * 1024)
    return _sweep(lambda i: (l1, g, Nd2NzParams(1 + i % 4, 1 + i // 4 % 64, 1 + i // 256 % 256, 8192,
                                                256 + i // 65536, 64, 1, 16384)), core.data_copy)


def _pad(core: Core) -> Iterator[Callable[[], object]]:
    g = core.global_tensor("half", 1 << 20)
    l1 = core.tensor("A1", "half", 256 * 1024)
    pad = DataCopyPadExtParams(True, 1, 1, 0)
    return _sweep(lambda i: (l1, g, DataCopyExtParams(1 + i % 64, 2 * (1 + i // 64 % 512), i // 32768 % 8, 0),
                             pad), core.data_copy_pad)


def _fill(core: Core) -> Iterator[Callable[[], object]]:
    t = core.tensor("A1", "half", 256 * 1024)
    return _sweep(lambda i: (t, InitConstValueParams(1 + i % 64, 1 + i // 64 % 64, i // 4096 % 8,
                                                     float(i % 3))), core.init_const_value)


def _fixpipe_quant(core: Core) -> Iterator[Callable[[], object]]:
    l0c = core.tensor("CO1", "int32_t", 32 * 1024)
    g = core.global_tensor("int8_t", 1 << 22)
    def params(i: int) -> tuple:  # distinct deqScalar words: each a new call shape
        n, m, word = 16 * (1 + i % 8), 1 + i // 8 % 128, 0x3E000000 | 1 << 46 | (i // 1024) << 13
        return g, l0c, FixpipeParamsV220(n, m, 128, n, False, QuantMode_t.REQ8, word)

    return _sweep(params, core.fixpipe)


FAMILIES = {"Load3D v2": _load3d, "LoadData 2D": _load2d, "LoadDataWithTranspose": _transpose,
            "DataCopy": _datacopy, "Fixpipe": _fixpipe, "Mmad": _mmad,
            "LoadDataWithTranspose int4": _transpose_int4, "LoadDataWithSparse": _sparse, "Load2DMX": _mx,
            "DataCopy ND2NZ": _nd2nz, "DataCopyPad": _pad, "Fill": _fill, "Fixpipe REQ8": _fixpipe_quant}
#: Families whose instruction exists on another chip than A2.
CHIPS = {"Load2DMX": "ascend950", "DataCopyPad": "ascend950"}


def measure(name: str, n: int) -> str:
    """RSS growth of this process over n calls of one family (run in a fresh process: freed memory the
    allocator keeps would hide the next family's growth)."""
    core = Core(CHIPS.get(name, "a2"))
    calls = FAMILIES[name](core)
    for _ in range(50):  # warm the import / allocation paths first
        next(calls)()
    gc.collect()
    before = _rss_mb()
    for _ in range(n):
        next(calls)()
    gc.collect()
    return f"    {name:28} +{_rss_mb() - before:7.1f} MB  (log holds {len(core.log):,} records)"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--calls", type=int, default=100_000)
    ap.add_argument("--quick", action="store_true", help="10,000 calls per family")
    ap.add_argument("--only", nargs="*", help="families whose name contains one of these words")
    ap.add_argument("--family", help=argparse.SUPPRESS)  # the child process measuring one family
    args = ap.parse_args()
    n = 10_000 if args.quick else args.calls
    warnings.simplefilter("ignore")
    if args.family:
        print(measure(args.family, n), flush=True)
        return
    print(f"RSS growth after {n:,} distinct calls per family, each in its own process (target <= 256 MB at "
          f"100,000)", flush=True)
    for name in FAMILIES:
        if args.only and not any(w.lower() in name.lower() for w in args.only):
            continue
        if subprocess.run([sys.executable, __file__, "--calls", str(n), "--family", name]).returncode:
            print(f"    {name:28} failed (see above)", flush=True)


if __name__ == "__main__":
    main()
