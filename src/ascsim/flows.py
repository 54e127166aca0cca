"""Reusable end-to-end flows built from the simulated instructions (what a cube kernel body does).

`conv2d` is the img2col convolution of the docs (LoadData_3D.md 功能说明; CONCEPTS §3, §8):

1. the feature map (N = 1) is stored in L1 in the Load3D layout (`layouts.chw_to_fmap_l1`: NC1HWC0
   groups, a packed tail group for channelSize forms like 16N+4);
2. the weights become the B matrix (K x Cout) with K = channelSize*Kh*Kw in the img2col column order
   (channel group, kh, kw, channel-in-group) — /tmp/sem.md §2 / CONCEPTS §3.1 — so that
   img2col(X) @ B = conv(X, W);
3. B is stored in L1 as a Load3D feature map with l1H = 1, l1W = K (rows), channelSize = Cout
   (columns), i.e. Nz(B) with column height K: the "2-D use of Load3D" (CONCEPTS §3.9). A Load3D into
   L0B writes Nz(Wsel^T) = Zn(Wsel) with Wsel = the (k, n) window of B — exactly Mmad's Zn(B) operand;
4. per (M, N, K) tile: Load3D v2 the img2col window to L0A, Load3D v2 the B window to L0B, Mmad into
   L0C (the first K tile initialises C, the others accumulate), then C (Nz, 16x16 fractals) is read back.

int8 on chips whose Load3D cannot write int8 into L0B (A2/A3: LoadData_3D.md 数据类型) stores B in L1 as
Zn(B) (K padded to 32-row fractals) and copies each tile's fractal rows with LoadData2D (whole 512-B
fractals, CONCEPTS §4.1): source fractal (k1, n1) = k1*ceil(N/16) + n1, destination k1'*ceil(nt/16) + n1'.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

import numpy as np

from . import layouts
from .core import Core
from .dtypes import DType, get_dtype
from .errors import ParamRangeError
from .isa.load3d import check_channel_size
from .layouts import R0, align, cdiv
from .params import LoadData2DParams, LoadData3DParamsV2, MmadParams
from .plan import ExecReport

_KT = 32  # K tiles are multiples of 32: C0 for every cube dtype here and the 950 b8 32-row rule


def mmad_c_type(core: Core, dt: DType, instr: str) -> DType:
    """The Mmad C (L0C) type for dt x dt operands: int32_t for integers, float otherwise; raises if the
    chip does not document the combination (the Mmad combos of `ascsim.chips`, from Mmad.md)."""
    ct = get_dtype("int32_t" if dt.kind == "int" else "float")
    core.chip.check_combo("Mmad", (dt.name, dt.name, ct.name), instr=instr)
    return ct


def flow_stats(reports: Sequence[ExecReport], **extra: object) -> dict:
    """What a flow reports: instructions (count by kind), bytes_moved (bytes written), then `extra`."""
    return {"instructions": dict(Counter(r.instr for r in reports)),
            "bytes_moved": sum(r.bytes_written for r in reports), **extra}


def _pair(name: str, v: int | Sequence[int]) -> tuple[int, int]:
    if isinstance(v, (int, np.integer)):
        return int(v), int(v)
    t = tuple(int(x) for x in v)
    if len(t) != 2:
        raise ParamRangeError(f"conv2d: {name} must be an int or (h, w), but got {v!r}")
    return t  # type: ignore[return-value]


def _pads(pad: int | Sequence[int]) -> tuple[int, int, int, int]:
    """padList [left, right, top, bottom] from an int, torch-style (ph, pw) or a 4-entry padList."""
    if not isinstance(pad, (int, np.integer)) and len(tuple(pad)) == 4:
        return tuple(int(x) for x in pad)  # type: ignore[return-value]
    ph, pw = _pair("pad", pad)
    return pw, pw, ph, ph


def channel_size_for(channels: int, dt: DType) -> int:
    """Smallest documented Load3D channelSize >= `channels` (extra channels are zero)."""
    for c in range(channels, channels + dt.c0 + 1):
        try:
            check_channel_size("conv2d", c, dt)
            return c
        except ParamRangeError:
            continue
    raise ParamRangeError(f"conv2d: no valid channelSize for {channels} channels of {dt.name}")  # unreachable


def img2col_column(c: np.ndarray, kh: np.ndarray, kw: np.ndarray, channels: int, kh_n: int, kw_n: int,
                   c0: int) -> np.ndarray:
    """img2col column of (channel, kh, kw): group g starting at cs with n channels covers columns
    [Kh*Kw*cs, Kh*Kw*(cs+n)), inside it j = (kh*Kw + kw)*n + (c - cs) (/tmp/sem.md §2)."""
    out = np.zeros(np.shape(c), dtype=np.int64)
    for cs, n in layouts.channel_groups(channels, c0):
        sel = (c >= cs) & (c < cs + n)
        out = np.where(sel, kh_n * kw_n * cs + (kh * kw_n + kw) * n + (c - cs), out)
    return out


def weights_to_b(w_oihw: np.ndarray, channels: int, c0: int) -> np.ndarray:
    """(Cout, Cin, Kh, Kw) -> B (K x Cout), K = channels*Kh*Kw in the img2col column order."""
    cout, cin, kh_n, kw_n = w_oihw.shape
    b = np.zeros((channels * kh_n * kw_n, cout), dtype=np.float64)
    c, kh, kw = np.meshgrid(np.arange(cin), np.arange(kh_n), np.arange(kw_n), indexing="ij")
    cols = img2col_column(c, kh, kw, channels, kh_n, kw_n, c0)
    b[cols.ravel(), :] = w_oihw.transpose(1, 2, 3, 0).reshape(-1, cout)
    return b


def _choose_tiles(m: int, n: int, k: int, dt: DType, csize: int, l0ab: int, l0c: int,
                  tiles: tuple[int, int, int] | None) -> tuple[int, int, int]:
    """(mt, nt, kt): mt multiple of 16, nt multiple of 32 (or all of N), kt multiple of 32, all fitting
    L0A (mt x kt), L0B (kt x nt) and L0C (mt x nt of the C type)."""
    budget = l0ab * 8 // dt.bits  # elements per L0A / L0B
    if tiles is not None:
        mt, nt, kt = tiles
        if mt % R0 or kt % _KT or (nt % 32 and nt < n) or min(tiles) < 1:
            raise ParamRangeError(f"conv2d: tiles (mt, nt, kt) must be multiples of (16, 32, 32), "
                                  f"but got {tiles}")
    else:
        nt = min(align(n, R0), 128)
        kt = max(_KT, min(align(k, _KT), (budget // align(nt, R0)) // _KT * _KT, 512))
        mt = max(R0, min(align(m, R0), (budget // align(kt, dt.c0)) // R0 * R0, 256))
    if (align(mt, R0) * align(kt, dt.c0) > budget or align(kt, _KT) * align(nt, R0) > budget
            or align(mt, R0) * align(nt, R0) * csize > l0c):
        raise ParamRangeError(f"conv2d: tiles (mt, nt, kt) = {(mt, nt, kt)} do not fit L0A/L0B ({l0ab} B) "
                              f"and L0C ({l0c} B) for {dt.name}")
    return mt, nt, kt


def _load2d_b_tile(core: Core, l0b, b_l1, k1_0: int, k1_n: int, n1_0: int, n1_n: int, n1_all: int
                   ) -> list[ExecReport]:
    """Copy fractal rows k1_0 .. k1_0+k1_n-1, fractal columns n1_0 .. n1_0+n1_n-1 of an L1 Zn(B)
    (n1_all fractals per row) into L0B as a dense Zn tile: one LoadData2D per fractal row."""
    frac = 512 * 8 // l0b.dtype.bits
    return [core.load_data(l0b[i * n1_n * frac], b_l1, LoadData2DParams((k1_0 + i) * n1_all + n1_0, n1_n, 1))
            for i in range(k1_n)]


def conv2d(core: Core, x_nchw, w_oihw, stride: int | Sequence[int] = 1, pad: int | Sequence[int] = 1,
           dilation: int | Sequence[int] = 1, dtype: str = "half",
           tiles: tuple[int, int, int] | None = None) -> tuple[np.ndarray, dict]:
    """2-D convolution (no bias, groups = 1, N = 1) on the simulated cube: returns (y_nchw, stats).

    Inputs are rounded to `dtype` when written to L1; the result has the Mmad C type (int32 for int8,
    float32 otherwise). `tiles` forces (mt, nt, kt). stats: instructions (count by kind), bytes_moved
    (bytes written by the instructions), tiles (number of (m, n, k) tiles), tile_shape.
    """
    dt = get_dtype(dtype)
    ct = mmad_c_type(core, dt, "conv2d")
    x = np.asarray(x_nchw)
    w = np.asarray(w_oihw)
    if x.ndim != 4 or x.shape[0] != 1:
        raise ParamRangeError(f"conv2d: x_nchw must have shape (1, C, H, W), but got {x.shape}")
    if w.ndim != 4 or w.shape[1] != x.shape[1]:
        raise ParamRangeError(f"conv2d: w_oihw must have shape (Cout, {x.shape[1]}, Kh, Kw), "
                              f"but got {w.shape}")
    _, cin, h, wd = x.shape
    cout, _, kh, kw = w.shape
    sh, sw = _pair("stride", stride)
    dh, dw = _pair("dilation", dilation)
    pads = _pads(pad)
    left, right, top, bottom = pads
    ho = (h + top + bottom - ((kh - 1) * dh + 1)) // sh + 1
    wo = (wd + left + right - ((kw - 1) * dw + 1)) // sw + 1
    if ho < 1 or wo < 1:
        raise ParamRangeError(f"conv2d: output size {ho} x {wo} is empty")

    c0 = dt.c0
    chan = channel_size_for(cin, dt)  # A-side channelSize (zero channels appended)
    m_all, n_all, k_all = ho * wo, cout, chan * kh * kw
    n_pad = align(cout, c0)  # B-side channelSize: Cout padded to whole C0 groups with zeros
    k_pad = align(k_all, _KT)  # B rows padded so every K tile's B window is a multiple of 32 rows

    # -- L1: feature map, then B --------------------------------------------------------------------
    xp = np.zeros((chan, h, wd), dtype=np.float64)
    xp[:cin] = x[0]
    fmap = layouts.chw_to_fmap_l1(xp, c0)
    b = weights_to_b(w.astype(np.float64), chan, c0)
    bfm = np.zeros((n_pad, 1, k_pad), dtype=np.float64)
    bfm[:cout, 0, :k_all] = b.T
    b_by_load3d = core.chip.supports("Load3Dv2", dt.name, "B1", "B2")
    bpad = np.zeros((k_pad, cout), dtype=np.float64)
    bpad[:k_all] = b
    # Load3D source: Nz(B) with column height k_pad; LoadData2D source: Zn(B) (fractal copy).
    b_l1 = layouts.chw_to_fmap_l1(bfm, c0) if b_by_load3d else layouts.nd_to_zn(bpad, c0)
    l1 = core.memory("L1").size
    fm_bytes = align(fmap.size * dt.bits // 8, 32)
    if fm_bytes + b_l1.size * dt.bits // 8 > l1:
        raise NotImplementedError(f"conv2d: feature map ({fmap.size}) + weights ({b_l1.size}) elements of "
                                  f"{dt.name} exceed L1 ({l1} B); L1 tiling is not implemented")
    x_t = core.tensor("A1", dt, fmap.size, offset=0, data=fmap)
    b_t = core.tensor("B1", dt, b_l1.size, offset=fm_bytes, data=b_l1)

    l0ab = min(core.memory("L0A").size, core.memory("L0B").size)
    mt, nt, kt = _choose_tiles(m_all, n_all, k_all, dt, ct.bits // 8, l0ab, core.memory("L0C").size, tiles)

    reports: list[ExecReport] = []
    y = np.zeros((m_all, n_all), dtype=np.int64 if ct.kind == "int" else np.float64)
    n_tiles = 0
    for m0 in range(0, m_all, mt):
        # m = 1 would switch Mmad to GEMV (A read as ND, Mmad.md 约束说明); load one more img2col row
        # (rows past Ho*Wo continue the img2col formula) and keep m >= 2.
        mext = max(min(mt, m_all - m0), 2)
        for n0 in range(0, n_all, nt):
            next_ = min(nt, n_all - n0)
            c_t = core.tensor("CO1", ct, align(mext, R0) * align(next_, R0), offset=0)
            for k0 in range(0, k_all, kt):
                kext = min(kt, k_all - k0)
                a_t = core.tensor("A2", dt, align(mext, R0) * align(kext, c0), offset=0)
                reports.append(core.load_data(a_t, x_t, LoadData3DParamsV2(
                    list(pads), h, wd, chan, kext, mext, k0, m0, sw, sh, kw, kh, dw, dh, padValue=0)))
                b_rows = align(kext, _KT)
                l0b = core.tensor("B2", dt, align(b_rows, c0) * align(next_, R0), offset=0)
                if b_by_load3d:
                    reports.append(core.load_data(l0b, b_t, LoadData3DParamsV2(
                        [0, 0, 0, 0], 1, k_pad, n_pad, next_, b_rows, n0, k0, padValue=0)))
                else:
                    reports += _load2d_b_tile(core, l0b, b_t, k0 // c0, b_rows // c0, n0 // R0,
                                              cdiv(next_, R0), cdiv(n_all, R0))
                p = MmadParams(mext, next_, kext, cmatrixInitVal=(k0 == 0))  # later K tiles accumulate
                reports.append(core.mmad(c_t, a_t, l0b, p))
                n_tiles += 1
            flat = c_t.read()
            tile = layouts.nz_to_nd(flat, mext, next_, R0)
            rows = min(mext, m_all - m0)
            y[m0 : m0 + rows, n0 : n0 + next_] = tile[:rows]

    stats = flow_stats(reports, tiles=n_tiles, tile_shape=(mt, nt, kt))
    out = y.T.reshape(1, n_all, ho, wo)
    return out.astype(np.int32 if ct.kind == "int" else np.float32), stats


__all__ = ["conv2d", "weights_to_b", "img2col_column", "channel_size_for", "mmad_c_type", "flow_stats"]
