"""Fractal layouts (Zz, Nz, Zn) and feature-map layouts (NC1HWC0, the Load3D L1 layout).

References: docs/layouts.md (offset formulas, identities, worked examples), citing
矩阵计算分形介绍/关键分形格式详解.md;
docs/divergences.md L5 for the Load3D channel tail. The naive offset functions below are written from those
formulas with plain integer arithmetic; the converters are checked against them and by round trips.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ascsim.machine.layouts import (
    align,
    cdiv,
    channel_groups,
    chw_to_fmap_l1,
    fmap_l1_offset,
    nc1hwc0_offset,
    nc1hwc0_to_nchw,
    nchw_to_nc1hwc0,
    nd_to_nz,
    nd_to_zn,
    nd_to_zz,
    nz_offset,
    nz_to_nd,
    zn_offset,
    zn_to_nd,
    zz_offset,
    zz_to_nd,
)

C0S = [8, 16, 32, 64]  # b32, b16, b8, b4


# ---- naive references (docs/layouts.md offset formulas) --------------------------------------------------


def ref_zz(r: int, c: int, cols: int, c0: int) -> int:
    return ((r // 16) * -(-cols // c0) + c // c0) * 16 * c0 + (r % 16) * c0 + c % c0


def ref_nz(r: int, c: int, stride: int, c0: int) -> int:
    return ((c // c0) * stride + r // 16) * 16 * c0 + (r % 16) * c0 + c % c0


def ref_zn(k: int, n: int, n_cols: int, k0: int) -> int:
    return ((k // k0) * -(-n_cols // 16) + n // 16) * 16 * k0 + (n % 16) * k0 + k % k0


# ---- worked examples -------------------------------------------------------------------------------------


def test_worked_example_float_20x20() -> None:
    """docs/layouts.md: float X 20x20 (R1 = 2, C1 = 3): (17, 10) is at 522 in Zz and 394 in Nz."""
    assert zz_offset(17, 10, 20, 8) == 522
    assert nz_offset(17, 10, 20, 8) == 394
    x = np.arange(400, dtype=np.float32).reshape(20, 20)
    assert nd_to_zz(x, 8)[522] == x[17, 10]
    assert nd_to_nz(x, 8)[394] == x[17, 10]


def test_worked_example_half_b_40x20() -> None:
    """layouts.md: half B 40x20 (K1 = 3, N1 = 2): (k 20, n 17) is at 788 in Zn; B^T(17, 20) at 788 in Nz."""
    assert zn_offset(20, 17, 20, 16) == 788
    assert nz_offset(17, 20, 20, 16, 2) == 788
    b = np.arange(800, dtype=np.float16).reshape(40, 20)
    assert nd_to_zn(b, 16)[788] == b[20, 17]


def test_worked_example_nc1hwc0() -> None:
    """docs/layouts.md NC1HWC0: half, C = 20, H = 2, W = 3: (n 0, c 18, h 1, w 2) -> 178."""
    assert nc1hwc0_offset(18, 1, 2, 2, 3, 16) == 178
    x = np.arange(20 * 6, dtype=np.int32).reshape(1, 20, 2, 3)
    assert nchw_to_nc1hwc0(x, 16).ravel()[178] == x[0, 18, 1, 2]


def test_helpers() -> None:
    assert (cdiv(0, 16), cdiv(1, 16), cdiv(16, 16), cdiv(17, 16)) == (0, 1, 1, 2)
    assert (align(0, 16), align(1, 16), align(32, 16), align(33, 32)) == (0, 16, 32, 64)


# ---- offsets vs the naive formulas (whole domain of small shapes) -----------------------------------------


@pytest.mark.parametrize("c0", C0S)
def test_offsets_match_reference(c0: int) -> None:
    rows, cols = 37, 2 * c0 + 5
    r, c = np.meshgrid(np.arange(rows), np.arange(cols), indexing="ij")
    zz = zz_offset(r, c, cols, c0)
    nz = nz_offset(r, c, rows, c0, 4)
    zn = zn_offset(r, c, cols, c0)
    for i in range(rows):
        for j in range(cols):
            assert zz[i, j] == ref_zz(i, j, cols, c0)
            assert nz[i, j] == ref_nz(i, j, 4, c0)
            assert zn[i, j] == ref_zn(i, j, cols, c0)


# ---- round trips and identities over hypothesis shapes ----------------------------------------------------

shapes = st.tuples(st.integers(1, 50), st.integers(1, 140), st.sampled_from(C0S))


def _matrix(rows: int, cols: int) -> np.ndarray:
    return np.arange(rows * cols, dtype=np.int64).reshape(rows, cols) + 1  # 0 is the fill value


@settings(max_examples=60, deadline=None)
@given(shapes)
def test_nd_zz_round_trip(shape) -> None:
    rows, cols, c0 = shape
    x = _matrix(rows, cols)
    flat = nd_to_zz(x, c0)
    assert flat.size == align(rows, 16) * align(cols, c0)
    np.testing.assert_array_equal(zz_to_nd(flat, rows, cols, c0), x)
    assert np.count_nonzero(flat) == x.size  # a bijection onto its cells: every value lands once


@settings(max_examples=60, deadline=None)
@given(shapes, st.integers(0, 3))
def test_nd_nz_round_trip(shape, extra: int) -> None:
    rows, cols, c0 = shape
    x = _matrix(rows, cols)
    s = cdiv(rows, 16) + extra  # any column stride >= R1
    flat = nd_to_nz(x, c0, stride=s)
    assert flat.size == s * 16 * align(cols, c0)
    np.testing.assert_array_equal(nz_to_nd(flat, rows, cols, c0, stride=s), x)
    assert np.count_nonzero(flat) == x.size
    i, j = rows - 1, cols - 1
    assert flat[ref_nz(i, j, s, c0)] == x[i, j]


@settings(max_examples=60, deadline=None)
@given(shapes)
def test_nd_zn_round_trip(shape) -> None:
    k, n, k0 = shape
    b = _matrix(k, n)
    flat = nd_to_zn(b, k0)
    assert flat.size == align(k, k0) * align(n, 16)
    np.testing.assert_array_equal(zn_to_nd(flat, k, n, k0), b)
    assert np.count_nonzero(flat) == b.size


@settings(max_examples=60, deadline=None)
@given(shapes)
def test_zn_equals_nz_of_transpose(shape) -> None:
    """docs/layouts.md identity: Zn(B) is byte-identical to Nz(B^T) with column stride N1 = ceil(N/16)."""
    k, n, k0 = shape
    b = _matrix(k, n)
    np.testing.assert_array_equal(nd_to_zn(b, k0), nd_to_nz(b.T, k0, stride=cdiv(n, 16)))


@settings(max_examples=60, deadline=None)
@given(shapes)
def test_zz_is_nz_with_fractals_reordered(shape) -> None:
    """docs/layouts.md: Zz(X) is Nz(X) with the fractal order changed from column-major to row-major."""
    rows, cols, c0 = shape
    x = _matrix(rows, cols)
    r1, c1 = cdiv(rows, 16), cdiv(cols, c0)
    zz = nd_to_zz(x, c0).reshape(r1, c1, 16 * c0)
    nz = nd_to_nz(x, c0).reshape(c1, r1, 16 * c0)
    np.testing.assert_array_equal(zz, nz.transpose(1, 0, 2))


def test_partial_fractal_fill() -> None:
    x = np.ones((3, 5), dtype=np.int16)
    flat = nd_to_zz(x, 16, fill=-7)
    assert flat.size == 16 * 16 and (flat == -7).sum() == 256 - 15


# ---- NC1HWC0 and the Load3D feature-map layout -------------------------------------------------------------


@settings(max_examples=40, deadline=None)
@given(st.integers(1, 3), st.integers(1, 70), st.integers(1, 4), st.integers(1, 5), st.sampled_from(C0S))
def test_nchw_nc1hwc0_round_trip(n: int, c: int, h: int, w: int, c0: int) -> None:
    x = np.arange(n * c * h * w, dtype=np.int64).reshape(n, c, h, w) + 1
    y = nchw_to_nc1hwc0(x, c0)
    assert y.shape == (n, cdiv(c, c0), h, w, c0)
    np.testing.assert_array_equal(nc1hwc0_to_nchw(y, c), x)
    flat = y.reshape(n, -1)
    for ci in range(c):  # layouts.md: (((n*C1 + c//C0)*H + h)*W + w)*C0 + c%C0, per image
        assert flat[n - 1][nc1hwc0_offset(ci, h - 1, w - 1, h, w, c0)] == x[n - 1, ci, h - 1, w - 1]
    assert (flat == 0).sum() == n * (cdiv(c, c0) * c0 - c) * h * w  # only the padded channels are fill


def ref_fmap_offset(c: int, h: int, w: int, channels: int, height: int, width: int, c0: int) -> int:
    """divergences L5: whole C0 groups in NC1HWC0, then one packed tail group of rem channels per pixel."""
    rem = channels % c0
    full = channels - rem
    if c < full:
        return (((c // c0) * height + h) * width + w) * c0 + c % c0
    return full * height * width + (h * width + w) * rem + (c - full)


@pytest.mark.parametrize(
    ("channels", "c0"),
    [(16, 16), (20, 16), (24, 16), (4, 16), (8, 16), (36, 32), (48, 32), (12, 8), (4, 8), (72, 64), (8, 64)],
)
def test_fmap_l1_layout_with_channel_tail(channels: int, c0: int) -> None:
    h, w = 3, 5
    x = np.arange(channels * h * w, dtype=np.int64).reshape(channels, h, w) + 1
    flat = chw_to_fmap_l1(x, c0)
    assert flat.size == x.size  # the tail group is packed, not padded to C0
    for c in range(channels):
        for hi in range(h):
            for wi in range(w):
                off = ref_fmap_offset(c, hi, wi, channels, h, w, c0)
                assert flat[off] == x[c, hi, wi]
                assert fmap_l1_offset(c, hi, wi, channels, h, w, c0) == off
    rem = channels % c0
    assert channel_groups(channels, c0) == [(g * c0, c0) for g in range(channels // c0)] + (
        [(channels - rem, rem)] if rem else []
    )
