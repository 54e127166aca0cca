"""Load3D speed, measured side by side in one run with a warm plan cache (ratios, medians).

(a) one Load3D v2 call filling a full 64 KB L0A tile (half, 3x3, pad 1) / a numpy copy of 64 KB
(b) a ResNet-style layer (56x56x64, 3x3, pad 1) tiled into L0A-sized calls: total Load3D time /
    a numpy copy of the same total bytes
(c) the slow reference interpreter / the fast path, for one smaller call

Run: python benchmarks/bench_load3d.py
"""

from __future__ import annotations

import warnings

import numpy as np
from timing import median_time  # benchmarks/timing.py (run the scripts from any directory)

from ascsim import Core, LoadData3DParamsV2
from ascsim.machine.layouts import chw_to_fmap_l1


def setup(chip: str, c: int, h: int, w: int):
    core = Core(chip)
    x = np.random.default_rng(0).standard_normal((c, h, w)).astype(np.float16)
    src = core.tensor("A1", "half", x.size, data=chw_to_fmap_l1(x, 16))
    dst = core.tensor("A2", "half", 32 * 1024)  # the whole 64 KB L0A
    return core, src, dst


def bench_full_tile(chip: str = "a2") -> float:
    c, h, w = 64, 56, 56
    core, src, dst = setup(chip, c, h, w)
    k, m = 512, 64  # 64 rows x 512 img2col columns x 2 B = 64 KB exactly
    p = LoadData3DParamsV2([1, 1, 1, 1], h, w, c, k, m, 0, 0, 1, 1, 3, 3, 1, 1)
    t_load = median_time(lambda: core.load_data(dst, src, p))
    a = np.zeros(64 * 1024, np.uint8)
    b = np.empty_like(a)
    t_copy = median_time(lambda: np.copyto(b, a))
    ratio = t_load / t_copy
    print(f"(a) {chip}: one Load3D v2 call, 64 KB L0A tile: {t_load * 1e6:8.1f} us; numpy 64 KB copy "
          f"{t_copy * 1e6:6.2f} us; ratio {ratio:5.1f}x (target <= 20x)")
    return ratio


def bench_layer(chip: str = "a2") -> float:
    c, h, w = 64, 56, 56
    core, src, dst = setup(chip, c, h, w)
    k_total, m_total = c * 9, h * w  # 576 x 3136
    m_tile = (64 * 1024 // 2) // k_total // 16 * 16  # 48 rows x 576 cols fit 64 KB
    calls = [LoadData3DParamsV2([1, 1, 1, 1], h, w, c, k_total, min(m_tile, m_total - m0), 0, m0, 1, 1, 3, 3)
             for m0 in range(0, m_total, m_tile)]

    def layer():
        for p in calls:
            core.load_data(dst, src, p)

    t_layer = median_time(layer, repeat=9, number=1)
    total = m_total * k_total * 2
    a = np.zeros(total, np.uint8)
    b = np.empty_like(a)
    t_copy = median_time(lambda: np.copyto(b, a), repeat=9, number=3)
    ratio = t_layer / t_copy
    print(f"(b) {chip}: ResNet layer 56x56x64 3x3 pad 1, {len(calls)} Load3D calls, {total / 1e6:.1f} MB: "
          f"{t_layer * 1e3:7.2f} ms; numpy copy of the same bytes {t_copy * 1e3:6.3f} ms; "
          f"ratio {ratio:5.1f}x (target <= 8x)")
    return ratio


def bench_reference(chip: str = "a2") -> float:
    from ascsim.isa.load3d_ref import ref_load3d_v2

    c, h, w = 16, 8, 8
    core, src, dst = setup(chip, c, h, w)
    k, m = 144, 64
    p = LoadData3DParamsV2([1, 1, 1, 1], h, w, c, k, m, 0, 0, 1, 1, 3, 3)
    fmap = src.read_raw()
    init = dst.read_raw(m * k)
    t_fast = median_time(lambda: core.load_data(dst, src, p))

    def ref():
        ref_load3d_v2(core.chip, "half", "L0A", fmap, h, w, [1, 1, 1, 1], c, k, m, 0, 0, 1, 1, 3, 3, 1, 1,
                      False, False, False, 0, (0, 1, 0), 0, init)

    t_ref = median_time(ref, repeat=3, number=1)
    ratio = t_ref / t_fast
    print(f"(c) {chip}: reference interpreter {t_ref * 1e3:8.2f} ms vs fast path {t_fast * 1e6:7.1f} us "
          f"for a {m}x{k} half window: ratio {ratio:7.0f}x (target >= 100x)")
    return ratio


if __name__ == "__main__":
    warnings.simplefilter("ignore")
    for chip in ("a2", "ascend950"):
        bench_full_tile(chip)
        bench_layer(chip)
    try:
        bench_reference("a2")
    except ImportError as e:  # the reference module is optional for (a)/(b)
        print(f"(c) skipped: {e}")
