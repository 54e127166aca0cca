"""Fractal layouts (Zz, Nz, Zn) and feature-map layouts (NC1HWC0), as offset formulas and converters.

A fractal is 512 B: 16 rows x C0 columns with C0 = 32 B / element size (doc: 矩阵计算分形介绍/
关键分形格式详解.md). In "Zz"/"Nz"/"Zn" the first letter orders the fractals (Z row-major, N
column-major) and the second orders elements inside a fractal. The offset functions accept numpy
arrays so instruction plans can map whole index grids at once; the converters build or read the
bytes a kernel would hold.
"""

from __future__ import annotations

import numpy as np

R0 = 16  # rows of every A-side / NZ fractal


def cdiv(a: int, b: int) -> int:
    """ceil(a / b) for integers."""
    return -(-a // b)


def align(a: int, b: int) -> int:
    """`a` rounded up to a multiple of `b`."""
    return cdiv(a, b) * b


# -- offset formulas (elements) ---------------------------------------------------------------------


def zz_offset(r, c, cols: int, c0: int):
    """Zz: fractals row-major, elements row-major; `cols` is the logical column count."""
    return ((r // R0) * cdiv(cols, c0) + c // c0) * (R0 * c0) + (r % R0) * c0 + c % c0


def nz_offset(r, c, rows: int, c0: int, stride: int | None = None):
    """Nz: fractals column-major with column stride `stride` fractals (default ceil(rows/16))."""
    s = cdiv(rows, R0) if stride is None else stride
    return ((c // c0) * s + r // R0) * (R0 * c0) + (r % R0) * c0 + c % c0


def zn_offset(k, n, cols: int, k0: int):
    """Zn for a K x N matrix B: fractals row-major over (k//k0, n//16), inside [n%16][k%k0].

    Byte-identical to Nz(B^T) with column stride ceil(N/16) (docs/layouts.md "Identities"; tested).
    """
    return ((k // k0) * cdiv(cols, R0) + n // R0) * (R0 * k0) + (n % R0) * k0 + k % k0


def nc1hwc0_offset(c, h, w, height: int, width: int, c0: int):
    """NC1HWC0 with N = 1: (((c//C0)*H + h)*W + w)*C0 + c%C0."""
    return (((c // c0) * height + h) * width + w) * c0 + c % c0


# -- converters -------------------------------------------------------------------------------------


def _scatter(x: np.ndarray, offsets: np.ndarray, size: int, fill) -> np.ndarray:
    out = np.full(size, fill, dtype=x.dtype)
    out[offsets.ravel()] = x.ravel()
    return out


def grid(rows: int, cols: int) -> tuple[np.ndarray, np.ndarray]:
    """Row and column index of every element of a rows x cols matrix (two rows x cols arrays)."""
    return np.meshgrid(np.arange(rows), np.arange(cols), indexing="ij")


def nd_to_zz(x: np.ndarray, c0: int, fill=0) -> np.ndarray:
    """Row-major matrix -> flat Zz (partial fractals padded with `fill`)."""
    rows, cols = x.shape
    r, c = grid(rows, cols)
    return _scatter(x, zz_offset(r, c, cols, c0), align(rows, R0) * align(cols, c0), fill)


def zz_to_nd(flat: np.ndarray, rows: int, cols: int, c0: int) -> np.ndarray:
    r, c = grid(rows, cols)
    return np.asarray(flat)[zz_offset(r, c, cols, c0)]


def nd_to_nz(x: np.ndarray, c0: int, stride: int | None = None, fill=0) -> np.ndarray:
    """Row-major matrix -> flat Nz with column stride `stride` fractals (default ceil(rows/16))."""
    rows, cols = x.shape
    s = cdiv(rows, R0) if stride is None else stride
    r, c = grid(rows, cols)
    return _scatter(x, nz_offset(r, c, rows, c0, s), s * R0 * align(cols, c0), fill)


def nz_to_nd(flat: np.ndarray, rows: int, cols: int, c0: int, stride: int | None = None) -> np.ndarray:
    r, c = grid(rows, cols)
    return np.asarray(flat)[nz_offset(r, c, rows, c0, stride)]


def nd_to_zn(b: np.ndarray, k0: int, fill=0) -> np.ndarray:
    """K x N matrix B -> flat Zn (the L0B layout)."""
    k_rows, n_cols = b.shape
    k, n = grid(k_rows, n_cols)
    return _scatter(b, zn_offset(k, n, n_cols, k0), align(k_rows, k0) * align(n_cols, R0), fill)


def zn_to_nd(flat: np.ndarray, k_rows: int, n_cols: int, k0: int) -> np.ndarray:
    k, n = grid(k_rows, n_cols)
    return np.asarray(flat)[zn_offset(k, n, n_cols, k0)]


def nchw_to_nc1hwc0(x: np.ndarray, c0: int, fill=0) -> np.ndarray:
    """(N, C, H, W) -> (N, C1, H, W, C0), the last C0 group padded with `fill`."""
    n, c, h, w = x.shape
    c1 = cdiv(c, c0)
    padded = np.full((n, c1 * c0, h, w), fill, dtype=x.dtype)
    padded[:, :c] = x
    return np.ascontiguousarray(padded.reshape(n, c1, c0, h, w).transpose(0, 1, 3, 4, 2))


def nc1hwc0_to_nchw(y: np.ndarray, channels: int) -> np.ndarray:
    n, c1, h, w, c0 = y.shape
    return np.ascontiguousarray(y.transpose(0, 1, 4, 2, 3).reshape(n, c1 * c0, h, w)[:, :channels])


# -- the Load3D feature-map layout with a small channel tail ---------------------------------------


def channel_groups(channels: int, c0: int) -> list[tuple[int, int]]:
    """Channel groups of a Load3D feature map in L1: (first channel, channels in the group).

    Whole groups hold C0 channels. A remainder (the documented channelSize forms 4, 8, 16N+4, ...)
    is one last group holding just those channels per pixel, packed ("4 channel aligned", doc:
    LoadData_3D.md 约束说明 / 数据格式说明; ascsim's reading, see docs/divergences.md).
    """
    groups = [(g * c0, c0) for g in range(channels // c0)]
    if channels % c0:
        groups.append((channels - channels % c0, channels % c0))
    return groups


def chw_to_fmap_l1(x: np.ndarray, c0: int) -> np.ndarray:
    """(C, H, W) -> flat Load3D L1 layout: NC1HWC0 groups, then a packed tail group."""
    c, h, w = x.shape
    parts = [np.ascontiguousarray(x[s : s + n].transpose(1, 2, 0)).ravel() for s, n in channel_groups(c, c0)]
    return np.concatenate(parts) if parts else x.ravel()


def fmap_l1_offset(c, h, w, channels: int, height: int, width: int, c0: int):
    """Element offset of channel c at (h, w) in the `chw_to_fmap_l1` layout."""
    full = channels - channels % c0
    tail = channels % c0
    c = np.asarray(c)
    in_full = c < full
    full_off = nc1hwc0_offset(c, h, w, height, width, c0)
    tail_off = full * height * width + (np.asarray(h) * width + w) * max(tail, 1) + (c - full)
    return np.where(in_full, full_off, tail_off)
