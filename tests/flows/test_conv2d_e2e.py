"""End-to-end: img2col convolution on the simulated cube (`ascsim.flows.conv2d`: Load3D v2 -> L0A/L0B,
LoadData2D for int8 B on A2, Mmad, L0C readback) equals `torch.nn.functional.conv2d`.

int8 -> int32 must match exactly. half / bfloat16 -> float32: the inputs are exactly representable, so
the only difference from torch's float32 conv is accumulation rounding; the bound used is
2^-20 * conv(|x|, |w|) per output (a few float32 ulps of the absolute sum, allowing one rounding per
K tile on the simulator and torch's own float32 accumulation).
"""

from __future__ import annotations

import ml_dtypes
import numpy as np
import pytest
import torch
import torch.nn.functional as F
from support.operands import load3d_operands

from ascsim import Core, LoadData3DParamsV2, ParamRangeError
from ascsim.flows import conv2d
from ascsim.machine import layouts as L
from ascsim.machine.memory import MARKER

CHIPS = ("a2", "ascend950")
DTYPES = ("int8", "half", "bfloat16")

# (Cin, H, W, Cout, Kh, Kw, stride, pad, dilation, tiles)
SHAPES = {
    "c20-3x2-s21-d21": (20, 9, 7, 24, 3, 2, (2, 1), (1, 2), (2, 1), None),
    "c3-3x3-pad1": (3, 8, 8, 8, 3, 3, 1, 1, 1, None),
    "c16-s2-d2-cout33": (16, 11, 10, 33, 3, 3, 2, 2, 2, None),
    "c20-tiled-mnk": (20, 9, 9, 40, 3, 3, 1, 1, 1, (16, 32, 32)),  # M, N and K all split; M tail of 1 row
    "c8-1x1-output": (8, 3, 3, 5, 3, 3, 1, 0, 1, None),  # Ho = Wo = 1: m = 1 must not become GEMV
    "c36-1x5": (36, 5, 12, 16, 1, 5, (1, 2), (0, 2), 1, (32, 32, 64)),
}


def _inputs(dtype: str, shape, seed: int):
    cin, h, w, cout, kh, kw = shape[:6]
    rng = np.random.default_rng(seed)
    if dtype == "int8":
        return (rng.integers(-128, 128, (1, cin, h, w)).astype(np.float64),
                rng.integers(-128, 128, (cout, cin, kh, kw)).astype(np.float64))
    cast = np.float16 if dtype == "half" else ml_dtypes.bfloat16
    x = rng.standard_normal((1, cin, h, w)).astype(cast).astype(np.float64)
    wt = rng.standard_normal((cout, cin, kh, kw)).astype(cast).astype(np.float64)
    return x, wt


@pytest.mark.parametrize("name", list(SHAPES))
@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("chip", CHIPS)
def test_conv2d_matches_torch(chip: str, dtype: str, name: str) -> None:
    shape = SHAPES[name]
    stride, pad, dilation, tiles = shape[6:]
    x, w = _inputs(dtype, shape, seed=len(name) * 7 + len(dtype))
    y, stats = conv2d(Core(chip), x, w, stride=stride, pad=pad, dilation=dilation, dtype=dtype, tiles=tiles)
    xt, wt = torch.from_numpy(x), torch.from_numpy(w)
    if dtype == "int8":
        ref = F.conv2d(xt, wt, stride=stride, padding=pad, dilation=dilation).numpy()  # float64: exact
        assert y.dtype == np.int32
        np.testing.assert_array_equal(y, ref.astype(np.int64))
    else:
        ref = F.conv2d(xt.float(), wt.float(), stride=stride, padding=pad, dilation=dilation).numpy()
        scale = F.conv2d(xt.abs(), wt.abs(), stride=stride, padding=pad, dilation=dilation).numpy()
        assert y.dtype == np.float32 and y.shape == ref.shape
        assert (np.abs(y - ref) <= 2.0**-20 * scale + 1e-30).all()
    assert stats["instructions"]["Mmad"] == stats["tiles"]
    b_loads = "LoadData2D" if (chip, dtype) == ("a2", "int8") else "Load3Dv2"
    assert stats["instructions"].get(b_loads, 0) >= stats["tiles"]


def test_tiled_k_accumulates_in_l0c() -> None:
    """Splitting K over several Mmads (init, then accumulate) gives the same int32 result as one tile."""
    x, w = _inputs("int8", SHAPES["c20-tiled-mnk"], 3)
    one, s1 = conv2d(Core("a2"), x, w, dtype="int8")
    many, s2 = conv2d(Core("a2"), x, w, dtype="int8", tiles=(16, 32, 32))
    np.testing.assert_array_equal(one, many)
    assert s2["tiles"] > s1["tiles"]


@pytest.mark.parametrize(("chip", "dtype"), [("a2", "half"), ("ascend950", "half"), ("ascend950", "int8"),
                                              ("a2", "float")])
def test_load3d_to_l0b_writes_zn_of_the_stored_matrix(chip: str, dtype: str) -> None:
    """The recipe conv2d relies on: B (K x N) stored as a feature map with l1H = 1, l1W = K, channelSize =
    N (i.e. Nz(B) in L1), Load3D'd into L0B, gives exactly Zn(B) — Mmad's B operand (Mmad.md 表1/表2)."""
    core = Core(chip)
    c0 = core.tensor("A1", dtype, 1).dtype.c0
    k, n = 64, 2 * c0  # K rows (multiple of 32 for the 950 b8 rule), N columns
    b = (np.arange(k * n).reshape(k, n) % 97 - 48).astype(np.float64)
    fm = np.ascontiguousarray(b.T[:, None, :])  # (C = N, H = 1, W = K): X[n, 0, k] = B[k, n]
    src, dst = load3d_operands(core, fm, k * n, dst_pos="B2", dtype=dtype, c0=c0)
    core.load_data(dst, src, LoadData3DParamsV2([0, 0, 0, 0], 1, k, n, n - 8, k - 32, 0, 0))
    got = dst.read()
    expect = L.nd_to_zn(b, c0)
    kk, nn = np.meshgrid(np.arange(k - 32), np.arange(n - 8), indexing="ij")
    offs = L.zn_offset(kk, nn, n - 8, c0).ravel()
    # Zn of the (k-32) x (n-8) window, N1 = ceil((n-8)/16)
    np.testing.assert_array_equal(got[offs], b[: k - 32, : n - 8].ravel())
    written = np.zeros(dst.length, dtype=bool)
    written[offs] = True
    assert (dst.bytes().reshape(dst.length, -1)[~written] == MARKER).all()  # nothing else written
    # and for the full matrix it is byte-identical to layouts.nd_to_zn
    full = core.tensor("B2", dtype, k * n)
    core.load_data(full, src, LoadData3DParamsV2([0, 0, 0, 0], 1, k, n, n, k, 0, 0))
    np.testing.assert_array_equal(full.read(), expect)


def test_conv2d_rejects_batches() -> None:
    with pytest.raises(ParamRangeError, match=r"^conv2d: x_nchw must have shape \(1, C, H, W\)"):
        conv2d(Core("a2"), np.zeros((2, 4, 5, 5)), np.zeros((4, 4, 3, 3)))
