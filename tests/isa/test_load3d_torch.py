"""Load3D img2col == torch.nn.functional.unfold, rearranged to the doc's column order.

torch is an oracle independent of both ascsim's plans and its reference interpreter: the input is
padded with `padValue` by `F.pad`, unfolded by `F.unfold`, and the (C, Kh, Kw) rows are regrouped into
the doc's columns (channel group, kh, kw, channel-in-group) (LoadData_3D.md 数据格式说明: "LoadData首先在
输入数据的Ci维度搬运对应于00的4个数，然后搬运对应于01的四个数"; docs/load3d.md). The destination is read
back with the `ascsim.layouts` converters for the layout docs/load3d.md assigns to the chip / position /
transpose.
"""

from __future__ import annotations

import numpy as np
import pytest
import torch
import torch.nn.functional as F
from hypothesis import given, settings
from hypothesis import strategies as st
from support.load3d_cases import V2_TARGETS, V1Case, V2Case, v1_cases, v2_cases
from support.operands import load3d_operands

from ascsim.core import Core
from ascsim.machine.chips import get_chip
from ascsim.machine.dtypes import get_dtype
from ascsim.machine.layouts import nz_to_nd, zz_to_nd
from ascsim.params import LoadData3DParamsV1, LoadData3DParamsV2, LoadDataRepeatParam

TORCH_DTYPES = ("half", "bfloat16_t", "float", "int8_t", "uint8_t")
PAD = {"half": -2.5, "bfloat16_t": -2.5, "float": -2.5, "int8_t": -7, "uint8_t": 250}


def _cdiv(a: int, b: int) -> int:
    return -(-a // b)


def feature_map(dtype: str, c: int, h: int, w: int) -> np.ndarray:
    """Distinct exactly-representable values (small integers), never equal to the pad value."""
    n = c * h * w
    span = {"half": 2000, "float": 100000}.get(dtype, 200)
    v = 1 + np.arange(n) % span
    if dtype == "int8_t":
        v = np.where(np.arange(n) % 2 == 1, -v % 100 - 1, v % 100)  # both signs, |v| < 101
    return v.reshape(c, h, w).astype(np.float64)


def torch_img2col(x: np.ndarray, pads, strides, dils, kh: int, kw: int, pad_value: float, c0: int,
                  rows: int) -> np.ndarray:
    """W (at least `rows` rows) in the doc's column order; rows past Ho*Wo come from extra bottom padding,
    i.e. "rows m >= Ho*Wo just continue the formula" (divergence L8)."""
    left, right, top, bottom = pads
    sw, sh = strides
    dw, dh = dils
    c, h, w = x.shape
    wo = (w + left + right - ((kw - 1) * dw + 1)) // sw + 1
    ho = (h + top + bottom - ((kh - 1) * dh + 1)) // sh + 1
    extra = max(0, _cdiv(rows - ho * wo, wo))
    t = torch.from_numpy(x)[None]
    t = F.pad(t, (left, right, top, bottom + extra * sh), value=pad_value)
    u = F.unfold(t, (kh, kw), dilation=(dh, dw), stride=(sh, sw))[0]  # (C*Kh*Kw, L), rows c-major
    u = u.reshape(c, kh, kw, -1)
    blocks, cs = [], 0
    while cs < c:  # whole C0 groups, then the packed remainder group (divergence L5)
        n = min(c0, c - cs)
        blocks.append(u[cs : cs + n].permute(3, 1, 2, 0).reshape(-1, kh * kw * n))
        cs += n
    return torch.cat(blocks, dim=1).numpy()


def wsel_from(W: np.ndarray, case: V2Case, c0: int) -> np.ndarray:
    """The window, with the repeat register's repeats concatenated along M (mode 0) or K (mode 1)."""
    p = case.p
    rs, rt, mode = case.repeat
    unit = c0 * (2 if case.chip == "atlas200i500a2" else 1)  # SetLoadDataRepeat 约束说明 (310B: 64/size)
    parts = []
    for r in range(rt):
        m0 = p.mStartPt + (r * rs * 16 if mode == 0 else 0)
        k0 = p.kStartPt + (r * rs * unit if mode == 1 else 0)
        parts.append(W[m0 : m0 + p.mExtension, k0 : k0 + p.kExtension])
    return np.concatenate(parts, axis=0 if mode == 0 else 1)


def read_back(flat: np.ndarray, case: V2Case, rows: int, cols: int, c0: int) -> np.ndarray:
    """Wsel from the destination, via the layouts of docs/load3d.md."""
    is950 = case.chip == "ascend950"
    transposed = case.dst == "L0B" or case.p.enTranspose
    if transposed:
        if is950:
            s = case.dst_stride or _cdiv(cols, 16)
            return nz_to_nd(flat, cols, rows, c0, stride=s).T
        if case.dst == "L0B":  # Zn(Wsel) = Nz(Wsel^T) with column stride ceil(Kc/16)
            return nz_to_nd(flat, cols, rows, c0, stride=_cdiv(cols, 16)).T
        # Zz(Wsel^T): transposition works on 16-row squares, so a fractal row holds ceil(M'/16) squares
        # (docs/load3d.md b32 formula; for b16 this is the same as ceil(M'/C0) fractals)
        return zz_to_nd(flat, cols, _cdiv(rows, 16) * 16, c0)[:, :rows].T
    if is950:
        return nz_to_nd(flat, rows, cols, c0, stride=case.dst_stride or _cdiv(rows, 16))
    return zz_to_nd(flat, rows, cols, c0)


def run_v2_vs_torch(case: V2Case) -> None:
    p = case.p
    dt = get_dtype(case.dtype)
    c0 = dt.c0
    p.padValue = PAD[case.dtype]
    x = feature_map(case.dtype, p.channelSize, p.l1H, p.l1W)
    core = Core(case.chip)
    a_side = case.dst == "L0A"
    src, dst = load3d_operands(core, x, dst_pos="A2" if a_side else "B2", dtype=dt, c0=c0, src_offset=0,
                               dst_offset=0)  # the whole L0A / L0B
    rs, rt, mode = case.repeat
    if (rs, rt, mode, case.dst_stride) != (0, 1, 0, 0):
        core.set_load_data_repeat(LoadDataRepeatParam(rs, rt, mode, case.dst_stride))
    before = dst.read_raw()
    core.load_data(dst, src, p)
    if rt == 0:  # SetLoadDataRepeat: "repeatTime=0表示...不执行搬运"
        assert (dst.read_raw() == before).all()
        return
    kh, kw = p.filterH + 256 * p.filterSizeH, p.filterW + 256 * p.filterSizeW
    need = p.mStartPt + p.mExtension + (rs * 16 * (rt - 1) if mode == 0 else 0)
    W = torch_img2col(x, p.padList, (p.strideW, p.strideH), (p.dilationFilterW, p.dilationFilterH), kh, kw,
                      float(p.padValue), c0, need)
    want = wsel_from(W, case, c0)
    got = read_back(dst.read().astype(np.float64), case, *want.shape, c0)
    if not np.array_equal(got, want):
        bad = np.argwhere(got != want)[0]
        raise AssertionError(f"{case}: Wsel{tuple(bad)} = {got[tuple(bad)]}, torch says {want[tuple(bad)]}")


TORCH_TARGETS = [(c, d) for c, d in V2_TARGETS
                 if set(TORCH_DTYPES) & get_chip(c).dtypes_for("Load3Dv2", "L1", d)]


@pytest.mark.parametrize(("chip", "dst"), TORCH_TARGETS, ids=[f"{c}-{d}" for c, d in TORCH_TARGETS])
def test_v2_img2col_equals_torch_unfold(chip: str, dst: str) -> None:
    dtypes = sorted(set(TORCH_DTYPES) & get_chip(chip).dtypes_for("Load3Dv2", "L1", dst))

    @settings(max_examples=20, deadline=None)
    @given(case=v2_cases(chip, dst, dtypes))
    def run(case: V2Case) -> None:
        run_v2_vs_torch(case)

    run()


def test_torch_oracle_matches_concepts_example() -> None:
    """The oracle itself on the docs/load3d.md img2col example: half C 16, 3x3, pads 1, Kh = Kw = 2:
    W[5][37] = X(5, 1, 0)."""
    x = feature_map("half", 16, 3, 3)
    W = torch_img2col(x, [1, 1, 1, 1], (1, 1), (1, 1), 2, 2, -2.5, 16, 16)
    assert W.shape == (16, 64)
    assert W[5, 37] == x[5, 1, 0]
    assert W[0, 0] == -2.5  # (ho 0, wo 0, kh 0, kw 0) sits in the top-left padding


def test_v2_explicit_tail_group_and_partial_fractals_a2() -> None:
    """half, channelSize 20 (one 16-group + a packed 4-group), kExtension to the right edge (partial K
    fractal), mExtension to the bottom (partial M fractal), enTranspose."""
    for en_t in (False, True):
        p = LoadData3DParamsV2([1, 0, 2, 1], 5, 4, 20, 180 - 64, 9 - 5, 64, 5, 1, 2, 3, 3, 1, 1, en_t)
        run_v2_vs_torch(V2Case("a2", "half", "L0A", p, (0, 1, 0), 0))


# ------------------------------------------------------------------------------------------- v1


def run_v1_vs_torch(case: V1Case) -> None:
    """v1 with leftTop = -pads and full C0 groups: position p is img2col row p and kernel point
    (c1, kh, kw) is the C0-column block ((c1*Kh + kh)*Kw + kw) of W (divergence L13)."""
    p = case.p
    dt = get_dtype(case.dtype)
    c0 = dt.c0
    left, right, top, bottom = p.padList
    p.leftTopW, p.leftTopH, p.cSize = -left, -top, 0
    p.padValue = PAD[case.dtype]
    x = feature_map(case.dtype, case.c1 * c0, p.l1H, p.l1W)
    core = Core(case.chip)
    a_side = case.dst == "L0A"
    src, dst = load3d_operands(core, x, dst_pos="A2" if a_side else "B2", dtype=dt, c0=c0, src_offset=0,
                               dst_offset=0)  # the whole L0A / L0B
    core.load_data(dst, src, p)
    flat = dst.read().astype(np.float64)
    W = torch_img2col(x, p.padList, (p.strideW, p.strideH), (p.dilationFilterW, p.dilationFilterH), p.filterH,
                      p.filterW, float(p.padValue), c0, 16 * p.repeatTime)
    start = (p.c1Index * p.filterH + p.fetchFilterH) * p.filterW + p.fetchFilterW
    for r in range(p.repeatTime):
        if p.repeatMode == 0:  # "每次repeat会改变在filter窗口中读取数据点的位置，然后跳到下一个C0的位置"
            want = W[0:16, (start + r) * c0 : (start + r + 1) * c0]
        else:  # "filter窗口中读取数据的位置保持不变，每个repeat在feature map中前进C0个元素" (16 windows)
            want = W[16 * r : 16 * r + 16, start * c0 : (start + 1) * c0]
        base = r * p.jumpStride * 16 * c0  # jumpStride: "迭代之间，目的操作数首地址步长" (fractals)
        got = flat[base : base + 16 * c0].reshape(16, c0)
        assert np.array_equal(got, want), f"{case}: repeat {r} differs"


@pytest.mark.parametrize("chip", ["training", "inference_aicore"])
def test_v1_img2col_equals_torch_unfold(chip: str) -> None:
    @settings(max_examples=30, deadline=None)
    @given(case=v1_cases(chip), mode=st.integers(0, 1))
    def run(case: V1Case, mode: int) -> None:
        case.p.repeatMode = mode
        if mode == 0:  # keep the kernel points inside the C1 groups that exist
            p = case.p
            left_points = case.c1 * p.filterH * p.filterW - (
                (p.c1Index * p.filterH + p.fetchFilterH) * p.filterW + p.fetchFilterW)
            p.repeatTime = max(1, min(p.repeatTime, left_points))
        run_v1_vs_torch(case)

    run()


def test_v1_seed_geometry_repeat_mode_1() -> None:
    """Seed 001 geometry walked the other way: repeatMode 1, kernel point (c1 1, kh 1, kw 0), jumpStride 2."""
    p = LoadData3DParamsV1([1, 1, 1, 1], 4, 4, 1, 0, 1, -1, -1, 1, 1, 2, 2, 2, 2, 2, 1, 2, 0, 0.0)
    run_v1_vs_torch(V1Case("inference_aicore", "half", "L0A", p, 2))
