"""Regenerate the .npy inputs of the example scenarios (examples/data/*.npy), reproducibly.

    python examples/make_data.py        # writes examples/data/*.npy (fixed seeds: same bytes every run)

Every input is small integers or exact binary fractions, so each element is exact in its dtype and the
flow results are exact too: tests/cli/test_examples.py compares them with numpy / torch bit for bit.

Files (logical shapes; a scenario lays them out itself with `layout = "fmap" | "zz" | "zn"` unless
noted):

* conv2d.toml:  conv_x (Cin 16, H 6, W 6) half; conv_w (Cout 16, Cin 16, 3, 3) half (the torch
  weight, for the test); conv_b (N 16, 1, K 144): B^T as a Load3D feature map — B is K x N with
  K = Cin*Kh*Kw in img2col column order (kh, kw, c) for one channel group (LoadData_3D.md
  数据格式说明; docs/load3d.md "The img2col matrix"), stored with l1H = 1, l1W = K, channelSize = N
  (docs/load3d.md "The 2-D use: loading an Nz matrix").
* matmul.toml:  mm_a (32 x 48) half, mm_b (48 x 32) half, both plain ND row-major (GM).
* sparse_matmul.toml:  sp_a (32 x 64) int8; sp_b (64 x 32) int8 with at most 2 nonzeros in every
  group of 4 rows (the original weights, for the test); sp_b_dense (32 x 32) and sp_idx (256 packed
  uint8, already in the L1 Zn index layout) from `ascsim.isa.sparse.densify_2to4` /
  `pack_sparse_index` (辅助矩阵分形格式详解.md 4选2稀疏索引矩阵; LoadDataWithSparse.md).
* mx_matmul.toml:  mx_a (32 x 128), mx_b (128 x 32) fp8_e4m3 values; mx_sa (32 x 4), mx_sb (4 x 32)
  e8m0 exponent codes E (scale 2^(E-127)), for the test; mx_sa_l1 / mx_sb_l1 the scales as values,
  already laid out in L1 as MmadMx wants them — scaleA Zz of [M, K/32] and scaleB Nn of [K/32, N]
  with 16 x 2 fractals (辅助矩阵分形格式详解.md MX 格式; written here with plain reshapes).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from ascsim.isa.sparse import densify_2to4, pack_sparse_index

DATA = Path(__file__).resolve().parent / "data"


def conv_inputs(rng: np.random.Generator) -> dict[str, np.ndarray]:
    cin, h, w, cout, kh, kw = 16, 6, 6, 16, 3, 3
    x = rng.integers(-4, 5, (cin, h, w)).astype(np.float16)
    wt = rng.integers(-3, 4, (cout, cin, kh, kw)).astype(np.float16)
    # B[k, n] with k = (kh*Kw + kw)*Cin + c: one channel group (Cin = C0 = 16), columns (kh, kw, c).
    b = wt.transpose(2, 3, 1, 0).reshape(kh * kw * cin, cout)
    return {"conv_x": x, "conv_w": wt, "conv_b": np.ascontiguousarray(b.T).reshape(cout, 1, kh * kw * cin)}


def matmul_inputs(rng: np.random.Generator) -> dict[str, np.ndarray]:
    return {"mm_a": rng.integers(-8, 9, (32, 48)).astype(np.float16),
            "mm_b": rng.integers(-8, 9, (48, 32)).astype(np.float16)}


def sparse_inputs(rng: np.random.Generator) -> dict[str, np.ndarray]:
    m, k, n = 32, 64, 32
    a = rng.integers(-128, 128, (m, k)).astype(np.int8)
    b = rng.integers(-128, 128, (k, n)).astype(np.int8)
    # keep 0, 1 or 2 random rows of every group of 4 (per column): a 2:4 structured-sparse B
    keep = np.zeros((k // 4, 4, n), dtype=bool)
    for g in range(k // 4):
        for j in range(n):
            keep[g, rng.choice(4, size=rng.integers(0, 3), replace=False), j] = True
    b = np.where(keep.reshape(k, n), b, 0).astype(np.int8)
    dense, codes = densify_2to4(b)
    return {"sp_a": a, "sp_b": b, "sp_b_dense": dense, "sp_idx": pack_sparse_index(codes)}


def _zz_16x2(s: np.ndarray) -> np.ndarray:
    """(R, C) -> Zz with 16 x 2 fractals: (R1, 16, C1, 2) -> (R1, C1, 16, 2)."""
    r, c = s.shape
    p = np.zeros((-(-r // 16) * 16, -(-c // 2) * 2), dtype=s.dtype)
    p[:r, :c] = s
    return p.reshape(-1, 16, p.shape[1] // 2, 2).transpose(0, 2, 1, 3).ravel()


def mx_inputs(rng: np.random.Generator) -> dict[str, np.ndarray]:
    m, k, n = 32, 128, 32
    steps = np.arange(-8, 9) / 2  # -4 .. 4 in halves: exact in fp8_e4m3
    a = rng.choice(steps, (m, k))
    b = rng.choice(steps, (k, n))
    sa = rng.integers(124, 131, (m, k // 32)).astype(np.uint8)  # 2^-3 .. 2^3
    sb = rng.integers(124, 131, (k // 32, n)).astype(np.uint8)
    val = lambda e: np.exp2(e.astype(np.float64) - 127)  # noqa: E731 - e8m0 code -> value
    return {"mx_a": a, "mx_b": b, "mx_sa": sa, "mx_sb": sb,
            # scaleA: Zz of [M, K/32]; scaleB: Nn of [K/32, N] = the bytes of Zz of scaleB^T
            "mx_sa_l1": val(_zz_16x2(sa)), "mx_sb_l1": val(_zz_16x2(np.ascontiguousarray(sb.T)))}


def quant_inputs(rng: np.random.Generator) -> dict[str, np.ndarray]:
    """int8 A (32 x 64), B stored transposed (Bᵀ: 32 x 64, so ND2NZ gives Zn(B)), int32 bias (32)."""
    return {"q_a": rng.integers(-128, 128, (32, 64)).astype(np.int8),
            "q_bt": rng.integers(-128, 128, (32, 64)).astype(np.int8),
            "q_bias": rng.integers(-20000, 20000, 32).astype(np.int32)}


def make_all() -> dict[str, np.ndarray]:
    out: dict[str, np.ndarray] = {}
    for i, fn in enumerate((conv_inputs, matmul_inputs, sparse_inputs, mx_inputs, quant_inputs)):
        out.update(fn(np.random.default_rng(1000 + i)))
    return out


def main() -> None:
    DATA.mkdir(exist_ok=True)
    for name, arr in make_all().items():
        np.save(DATA / f"{name}.npy", arr)
        print(f"wrote {DATA / name}.npy {arr.shape} {arr.dtype}")


if __name__ == "__main__":
    main()
