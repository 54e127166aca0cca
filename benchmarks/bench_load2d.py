"""2D-load speed: LoadDataWithTranspose next to LoadData 2D, measured side by side in one run.

Everything runs with a warm plan cache and reports medians of several repeats, as ratios:
(a) one-fractal calls per second, for an empty Python function call (the floor), LoadDataWithTranspose
    (V1 half, A2) and LoadData 2D (LoadData2DParams half, A2), target >= 50,000 calls/s;
(b) one call moving a full 64 KB L0B tile / a numpy copy of 64 KB, per dtype, target <= 20x.

Run: python benchmarks/bench_load2d.py
"""

from __future__ import annotations

import warnings

import numpy as np
from timing import median_time  # benchmarks/timing.py (run the scripts from any directory)

from ascsim import Core
from ascsim.params import LoadData2DParams, LoadData2dTransposeParams, LoadData2dTransposeParamsV2

L0B = 64 * 1024
BITS = {"int4b_t": 4, "int8_t": 8, "half": 16, "float": 32}
N_F = {4: 4, 8: 2, 16: 1, 32: 2}  # fractals per transposed square (LoadDataWithTranspose.md 分形转置)


def _tensors(chip: str, dtype: str, src_pos: str, dst_pos: str, nbytes: int = L0B):
    core = Core(chip)
    n = nbytes * 8 // BITS[dtype]
    src = core.tensor(src_pos, dtype, n)
    raw = np.random.default_rng(0).integers(0, 1 << min(BITS[dtype], 16), n)
    src.write_raw(raw.astype(src.dtype.raw_dtype))
    dst = core.tensor(dst_pos, dtype, n)
    return core, src, dst


def _calls_per_second(fn, core: Core | None = None) -> float:
    def batch():
        for _ in range(50):
            fn()
        if core is not None:
            core.log.clear()  # Core keeps an ExecReport per call; do not let the list grow for ever

    return 50 / median_time(batch, repeat=15, number=20)


# -- (a) one-fractal throughput ---------------------------------------------------------------------------


def empty_call_rate() -> float:
    def empty(dst, src, params):
        return None

    return _calls_per_second(lambda: empty(None, None, None))


def transpose_one_fractal_rate(chip: str = "a2") -> float:
    core, src, dst = _tensors(chip, "half", "B1", "B2", 512)
    p = LoadData2dTransposeParams(0, 1, 1, 0, 0)
    return _calls_per_second(lambda: core.load_data_with_transpose(dst, src, p), core)


def load2d_one_fractal_rate(chip: str = "a2") -> float:
    """LoadData 2D (isa/load2d.py): one half fractal L1 -> L0A. Raises ImportError if the module is absent."""
    import ascsim.isa.load2d  # noqa: F401  (registers the LoadData2DParams overload)

    core, src, dst = _tensors(chip, "half", "A1", "A2", 512)
    p = LoadData2DParams(0, 1, 0, 0, 0, False, 0)
    return _calls_per_second(lambda: core.load_data(dst, src, p), core)


# -- (b) a full 64 KB L0B tile per call ----------------------------------------------------------------------


def numpy_copy_64k() -> float:
    a = np.zeros(L0B, np.uint8)
    b = np.empty_like(a)
    return median_time(lambda: np.copyto(b, a), repeat=21, number=500)


def transpose_tile_time(chip: str, dtype: str, v2: bool = False) -> float:
    """LoadDataWithTranspose filling all 128 L0B fractals: dense output, dstGap = n_f - 1."""
    core, src, dst = _tensors(chip, dtype, "B1", "B2")
    n_f = N_F[BITS[dtype]]
    rep = 128 // n_f
    p = (LoadData2dTransposeParamsV2(0, rep, n_f, n_f - 1, 0, 0) if v2
         else LoadData2dTransposeParams(0, rep, 1, n_f - 1, 0))

    def call():
        core.load_data_with_transpose(dst, src, p)
        core.log.clear()

    return median_time(call, repeat=15, number=50)


def load2d_tile_time(chip: str = "a2", dtype: str = "half") -> float:
    """LoadData 2D moving 128 fractals L1 -> L0B in one call (no transpose)."""
    import ascsim.isa.load2d  # noqa: F401

    core, src, dst = _tensors(chip, dtype, "B1", "B2")
    p = LoadData2DParams(0, 128, 1, 0, 0, False, 0)

    def call():
        core.load_data(dst, src, p)
        core.log.clear()

    return median_time(call, repeat=15, number=50)


def main() -> None:
    warnings.simplefilter("ignore")
    print("(a) one-fractal call throughput, warm plan cache (target >= 50,000 calls/s)")
    floor = empty_call_rate()
    rows = [("empty Python function call (floor)", floor)]
    rows.append(("LoadDataWithTranspose half, 1 fractal (A2)", transpose_one_fractal_rate()))
    try:
        rows.append(("LoadData 2D half, 1 fractal L1->L0A (A2)", load2d_one_fractal_rate()))
    except ImportError as e:  # ascsim.isa.load2d not there yet: enable by adding the module
        print(f"    LoadData 2D skipped: {e}")
    print(f"    {'call':46s} {'calls/s':>12s} {'floor / call':>13s}")
    for name, rate in rows:
        print(f"    {name:46s} {rate:12,.0f} {floor / rate:12.1f}x")

    print("(b) one call filling the 64 KB L0B / numpy copy of 64 KB (target <= 20x)")
    t_copy = numpy_copy_64k()
    print(f"    numpy 64 KB copy: {t_copy * 1e6:.2f} us")
    print(f"    {'call':46s} {'us/call':>10s} {'ratio':>8s}")
    tiles = [(f"LoadDataWithTranspose {d} (A2)", lambda d=d: transpose_tile_time("a2", d)) for d in BITS]
    tiles += [(f"LoadDataWithTranspose V2 {d} (950)", lambda d=d: transpose_tile_time("ascend950", d, True))
              for d in ("int8_t", "half", "float")]
    tiles.append(("LoadData 2D half, 128 fractals (A2)", load2d_tile_time))
    for name, fn in tiles:
        try:
            t = fn()
        except ImportError as e:
            print(f"    {name:46s} skipped: {e}")
            continue
        print(f"    {name:46s} {t * 1e6:10.1f} {t / t_copy:7.1f}x")


if __name__ == "__main__":
    main()
