"""How far apart are Mmad's two float accumulation modes? (docs/mmad.md "How exact is float Mmad")

`Core(mmad_accumulate="float64")` (default) rounds the exact float64 sum once; `"float32"` adds the
products in
float32 in K order like a float32 reference matmul. For half inputs (m = n = 16) this prints, per K, the
largest
distance between the two results in float32 ulps (of the float64-mode result) and the share of elements that
differ, and the largest difference relative to eps32 * sum |a_i b_i| (the scale of float32 summation error),
for N(0, 1) data and for data with heavy cancellation (a large +x / -x pair per row plus small terms).

    PYTHONPATH=src python benchmarks/mmad_accumulate.py
"""

from __future__ import annotations

import numpy as np

from ascsim import Core
from ascsim.machine.layouts import nd_to_zn, nd_to_zz, nz_to_nd
from ascsim.params import MmadParams


def run(mode: str, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    m, k = a.shape
    n = b.shape[1]
    core = Core("a2", mmad_accumulate=mode)
    kp = -(-k // 16) * 16
    l0a = core.tensor("A2", "half", 16 * kp, data=nd_to_zz(a, 16))
    l0b = core.tensor("B2", "half", kp * n, data=nd_to_zn(b, 16))
    c = core.tensor("CO1", "float", m * n)
    core.mmad(c, l0a, l0b, MmadParams(m, n, k))
    return nz_to_nd(c.read(), m, n, 16)


def ulps(x: np.ndarray, ref: np.ndarray) -> np.ndarray:
    spacing = np.spacing(np.abs(ref).astype(np.float32))
    return np.abs(x.astype(np.float64) - ref.astype(np.float64)) / spacing


def main() -> None:
    rng = np.random.default_rng(0)
    print(f"{'data':14} {'K':>5} {'max ulp':>9} {'median ulp':>10} {'elements differing':>19} "
          f"{'max |diff| / (eps32 * sum|a*b|)':>32}")
    for kind in ("normal", "cancellation"):
        for k in (64, 256, 1024, 2048):  # L0B holds at most 2048 x 16 halves
            a = rng.standard_normal((16, k)).astype(np.float16)
            b = rng.standard_normal((k, 16)).astype(np.float16)
            if kind == "cancellation":
                a[:, 0], a[:, 1] = 1000, -1000
                b[0] = b[1]  # 1000*b[1] - 1000*b[1] cancels exactly
                a[:, 2:] *= np.float16(0.01)
            f64, f32 = run("float64", a, b), run("float32", a, b)
            d = ulps(f32, f64)
            scale = np.abs(a.astype(np.float64)) @ np.abs(b.astype(np.float64)) * np.finfo(np.float32).eps
            rel = np.max(np.abs(f32.astype(np.float64) - f64) / scale)
            print(f"{kind:14} {k:5d} {d.max():9.0f} {np.median(d):10.1f} {np.mean(f32 != f64):18.0%} "
                  f"{rel:32.3f}")


if __name__ == "__main__":
    main()
