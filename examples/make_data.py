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

The C++ examples' GM inputs (their header comments give the commands; tests/program/test_program_examples.py
runs them as written):

* conv2d_tiled.cpp:  ct_x (1, C 32, H 8, W 8) half and ct_w (Cout 32, C 32, 3, 3) half, the logical
  tensors; ct_x_l1 = x as NC1HWC0 (C1 2, H, W, C0 16: 数据格式 NC1HWC0, C split into C1 groups of
  C0 = 32 B / 2 B) and ct_w_l1 = B^T in the same form with H = 1, W = K (Cout/16, K, 16), where B is
  K x Cout with K = C * 3 * 3 in img2col column order (channel group, kh, kw, channel in group:
  LoadData_3D.md 数据格式说明).
* sparse_matmul.cpp:  sk_a (64 x 128) int8; sk_b (128 x 64) int8 with at most 2 nonzeros in every 4
  consecutive K values (the logical weights); sk_b_zn its densified 64 x 64 matrix as Zn fractals (K0 = 32)
  and sk_idx the 2-bit index codes in the same Zn order, 4 a byte, lowest bits first (辅助矩阵分形格式详解.md
  4选2稀疏索引矩阵; LoadDataWithSparse.md).
* mx_matmul.cpp:  mx2_a (32 x 128) fp8_e4m3fn codes and mx2_bt (48 x 128) fp8_e5m2 codes (B^T), as uint8;
  mx2_sa (32 x 4) and mx2_sbt (48 x 4) e8m0 scale codes (one per 32 K values; scale 2^(E-127)), as uint8.
* catlass_style/basic_matmul.cpp:  catlass/input/a.bin (100 x 300) and b.bin (300 x 70), row-major half
  (raw: the program reads them itself), for `-- 100 70 300`.
* matmul_pingpong.cpp / matmul_tque.cpp need no files: `--gm a=random:half:32x128:1` (docs/cpp.md).
"""

from __future__ import annotations

from pathlib import Path

import ml_dtypes
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


def conv_tiled_inputs(rng: np.random.Generator) -> dict[str, np.ndarray]:
    c, h, w, cout, kh, kw, c0 = 32, 8, 8, 32, 3, 3, 16
    x = rng.integers(-2, 3, (1, c, h, w)).astype(np.float16)
    wt = rng.integers(-2, 3, (cout, c, kh, kw)).astype(np.float16)
    x_l1 = x[0].reshape(c // c0, c0, h, w).transpose(0, 2, 3, 1)  # (C1, C0, H, W) -> (C1, H, W, C0)
    # B[k, co]: k = (channel group * KH*KW + kh*KW + kw) * C0 + channel in group
    b = wt.reshape(cout, c // c0, c0, kh * kw).transpose(1, 3, 2, 0).reshape(c * kh * kw, cout)
    w_l1 = b.T.reshape(cout // c0, c0, c * kh * kw).transpose(0, 2, 1)  # B^T (Cout, K) as (Cout1, K, C0)
    return {"ct_x": x, "ct_w": wt, "ct_x_l1": np.ascontiguousarray(x_l1),
            "ct_w_l1": np.ascontiguousarray(w_l1)}


def sparse_cpp_inputs(rng: np.random.Generator) -> dict[str, np.ndarray]:
    m, k, n = 64, 128, 64
    a = rng.integers(-128, 128, (m, k)).astype(np.int8)
    b = rng.integers(-128, 128, (k, n)).astype(np.int8)
    keep = np.zeros((k // 4, 4, n), dtype=bool)
    for g in range(k // 4):
        for j in range(n):
            keep[g, rng.choice(4, size=rng.integers(0, 3), replace=False), j] = True
    b = np.where(keep.reshape(k, n), b, 0).astype(np.int8)
    dense, codes = densify_2to4(b)  # (K/2, N) values and their (K/2, N) 2-bit position codes
    return {"sk_a": a, "sk_b": b, "sk_b_zn": _zn(dense, 32), "sk_idx": _pack4(_zn(codes, 32))}


def _zn(x: np.ndarray, k0: int) -> np.ndarray:
    """(K, N) -> Zn: (K1, K0, N1, 16) -> (K1, N1, 16, K0), flat (关键分形格式详解.md)."""
    k, n = x.shape
    return np.ascontiguousarray(x.reshape(k // k0, k0, n // 16, 16).transpose(0, 2, 3, 1)).ravel()


def _pack4(codes: np.ndarray) -> np.ndarray:
    """2-bit codes, 4 a byte, the first in the lowest bits."""
    c = codes.astype(np.uint8).reshape(-1, 4)
    return (c[:, 0] | c[:, 1] << 2 | c[:, 2] << 4 | c[:, 3] << 6).astype(np.uint8)


def mx_cpp_inputs(rng: np.random.Generator) -> dict[str, np.ndarray]:
    m, n, k = 32, 48, 128
    steps = np.arange(-8, 9) / 2  # -4 .. 4 in halves: exact in e4m3 and e5m2
    a = rng.choice(steps, (m, k)).astype(ml_dtypes.float8_e4m3fn).view(np.uint8)
    bt = rng.choice(steps, (n, k)).astype(ml_dtypes.float8_e5m2).view(np.uint8)
    return {"mx2_a": a, "mx2_bt": bt, "mx2_sa": rng.integers(124, 131, (m, k // 32)).astype(np.uint8),
            "mx2_sbt": rng.integers(124, 131, (n, k // 32)).astype(np.uint8)}


#: catlass_style/basic_matmul.cpp's inputs (m, n, k) = (100, 70, 300): raw .bin files in its folder.
CATLASS = DATA / "catlass" / "input"


def catlass_inputs(rng: np.random.Generator) -> dict[str, np.ndarray]:
    m, n, k = 100, 70, 300
    return {"a": rng.integers(-4, 5, (m, k)).astype(np.float16),
            "b": rng.integers(-4, 5, (k, n)).astype(np.float16)}


def make_all() -> dict[str, np.ndarray]:
    """Every .npy of examples/data by name (the catlass .bin inputs: `make_catlass`)."""
    out: dict[str, np.ndarray] = {}
    for i, fn in enumerate((conv_inputs, matmul_inputs, sparse_inputs, mx_inputs, quant_inputs,
                            conv_tiled_inputs, sparse_cpp_inputs, mx_cpp_inputs)):
        out.update(fn(np.random.default_rng(1000 + i)))
    return out


def make_catlass() -> dict[str, np.ndarray]:
    return catlass_inputs(np.random.default_rng(2000))


def main() -> None:
    DATA.mkdir(exist_ok=True)
    for name, arr in make_all().items():
        np.save(DATA / f"{name}.npy", arr)
        print(f"wrote {DATA / name}.npy {arr.shape} {arr.dtype}")
    CATLASS.mkdir(parents=True, exist_ok=True)
    for name, arr in make_catlass().items():
        arr.tofile(CATLASS / f"{name}.bin")
        print(f"wrote {CATLASS / name}.bin {arr.shape} {arr.dtype}")


if __name__ == "__main__":
    main()
