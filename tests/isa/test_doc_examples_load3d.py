"""Every call example (调用示例) and worked number of the Load3D-family docs, run literally through ascsim.

Pages (ascendc-docs/矩阵计算（ISASI）/): 矩阵计算的搬入/LoadData_3D.md, LoadData_3D_BitMode.md,
LoadDataWithStride.md, L1-L0A-B内存结构介绍.md, 矩阵计算输入搬运约束.md, 总体说明.md;
矩阵搬入辅助配置接口/SetFmatrix.md, SetFmatrixBitMode.md, SetLoadDataRepeat.md,
SetLoadDataRepeatWithStride.md, SetLoadDataPaddingValue.md, SetLoadDataBoundary.md; 矩阵计算分形介绍/*.md;
seeds 000 / 001.

Oracles are written here from the doc text only (never from ascsim's code):
- img2col (LoadData_3D.md 数据格式说明): the filter slides Wo steps along W, then one step along H; row
  m = ho*Wo + wo; a row lists, per kernel point (kh, kw; kw fastest), the Ci values of that point. With
  several C0 groups the group is the outermost column index (docs/load3d.md, pseudocode load3d.py; the
  doc narrative only has Ci < C0).
- fractal layouts (关键分形格式详解.md): Zz (M1,K1,M0,K0), Nz (N1,M1,M0,N0), Zn (K1,N1,N0,K0), by the
  page's own pad -> reshape -> transpose formulas; NC1HWC0 as "C split into C1 parts of C0".
- every input is a self-describing code (arange), compared as raw bit patterns; destination positions the
  docs leave unspecified (partial fractals, rows past Ho*Wo) are marked UNSPEC and not compared.
"""

from __future__ import annotations

import numpy as np
import pytest
from support.state import assert_memories_unchanged, memories

from ascsim import (
    AlignmentError,
    AscsimError,
    Core,
    DocConflictError,
    DocConflictWarning,
    HazardWarning,
    IsResetLoad3dConfig,
    Load3DBitModeParam,
    LoadData3DParamsV1,
    LoadData3DParamsV2,
    LoadData3DParamsV2Pro,
    LoadDataRepeatParam,
    LoadDataRepeatParamWithStride,
    ParamRangeError,
    UnsupportedError,
)
from ascsim.machine.dtypes import get_dtype
from ascsim.machine.memory import MARKER
from ascsim.machine.registers import Fmatrix

UNSPEC = -1
MARKER_HALF = MARKER * 0x101  # a half element of never-written memory
# `static constexpr IsResetLoad3dConfig LOAD3D_CONFIG = {false, false}`
NO_RESET = IsResetLoad3dConfig(False, False)


# ------------------------------------------------------------------ oracles straight from the doc text


def cdiv(a: int, b: int) -> int:
    return -(-a // b)


def codes(n: int, bits: int) -> np.ndarray:
    """Self-describing nonzero raw codes 1, 2, ... (0 is kept for the pad value 0)."""
    return (np.arange(n) % ((1 << bits) - 1) + 1).astype(np.int64)


def nc1hwc0(x: np.ndarray, c0: int, fill: int = 0) -> np.ndarray:
    """关键分形格式详解.md NC1HWC0: NHWC split along C into C1 parts of C0 (last part padded to C0)."""
    c, h, w = x.shape
    c1 = cdiv(c, c0)
    padded = np.full((c1 * c0, h, w), fill, dtype=np.int64)
    padded[:c] = x
    return padded.reshape(c1, c0, h, w).transpose(0, 2, 3, 1).ravel()


def img2col(x: np.ndarray, pads=(0, 0, 0, 0), strides=(1, 1), ksize=(1, 1), dils=(1, 1), pad_code: int = 0,
            group: int | None = None) -> np.ndarray:
    """(Ho*Wo) x (C*Kh*Kw) img2col matrix of a (C, H, W) map. pads [left, right, top, bottom];
    strides/ksize/dils as (W, H). Columns: channel group outermost, then kh, kw, channel."""
    c, h, w = x.shape
    left, right, top, bottom = pads
    (sw, sh), (kw_n, kh_n), (dw, dh) = strides, ksize, dils
    group = group or c
    ho = (h + top + bottom - ((kh_n - 1) * dh + 1)) // sh + 1
    wo = (w + left + right - ((kw_n - 1) * dw + 1)) // sw + 1
    rows = []
    for oh in range(ho):
        for ow in range(wo):
            row = []
            for g in range(0, c, group):
                for kh in range(kh_n):
                    for kw in range(kw_n):
                        ih, iw = oh * sh + kh * dh - top, ow * sw + kw * dw - left
                        inside = 0 <= ih < h and 0 <= iw < w
                        chans = range(g, min(g + group, c))
                        row += [int(x[cc, ih, iw]) if inside else pad_code for cc in chans]
            rows.append(row)
    return np.array(rows, dtype=np.int64)


def _pad2(mat: np.ndarray, rows: int, cols: int) -> np.ndarray:
    out = np.full((rows, cols), UNSPEC, dtype=np.int64)
    out[: mat.shape[0], : mat.shape[1]] = mat
    return out


def zz(mat: np.ndarray, k0: int) -> np.ndarray:
    """(M, K) -> pad -> (M1, M0, K1, K0) -> transpose -> (M1, K1, M0, K0) (Zz, M0 = 16)."""
    m1, k1 = cdiv(mat.shape[0], 16), cdiv(mat.shape[1], k0)
    return _pad2(mat, m1 * 16, k1 * k0).reshape(m1, 16, k1, k0).transpose(0, 2, 1, 3).ravel()


def nz(mat: np.ndarray, n0: int, stride: int | None = None) -> np.ndarray:
    """(M, N) -> pad -> (M1, M0, N1, N0) -> transpose -> (N1, M1, M0, N0) (Nz, M0 = 16); `stride` pads
    M1 (the fractal column height, the 950 dstStride)."""
    m1, n1 = stride or cdiv(mat.shape[0], 16), cdiv(mat.shape[1], n0)
    return _pad2(mat, m1 * 16, n1 * n0).reshape(m1, 16, n1, n0).transpose(2, 0, 1, 3).ravel()


def zn(mat: np.ndarray, k0: int) -> np.ndarray:
    """(K, N) -> pad -> (K1, K0, N1, N0) -> transpose -> (K1, N1, N0, K0) (Zn, N0 = 16)."""
    k1, n1 = cdiv(mat.shape[0], k0), cdiv(mat.shape[1], 16)
    return _pad2(mat, k1 * k0, n1 * 16).reshape(k1, k0, n1, 16).transpose(0, 2, 3, 1).ravel()


def check(got: np.ndarray, want: np.ndarray) -> None:
    """Compare the positions the docs specify (want != UNSPEC)."""
    assert got.size >= want.size
    mask = want != UNSPEC
    assert mask.any()
    np.testing.assert_array_equal(got[: want.size][mask], want[mask])


def run(core: Core, dtype: str, src_flat: np.ndarray, dst_pos: str, params, dst_len: int, *, config=None,
        stride: bool = False, bitmode: bool = False, src_offset: int | None = None) -> np.ndarray:
    """Put raw codes in L1 (A1/B1), issue the load, return the destination's raw codes."""
    src_pos = "A1" if dst_pos == "A2" else "B1"
    src = core.tensor(src_pos, dtype, len(src_flat), offset=src_offset)
    src.write_raw(src_flat)
    dst = core.tensor(dst_pos, dtype, dst_len)
    if stride:
        core.load_data_with_stride(dst, src, params, config)
    elif bitmode:
        core.load_data(dst, src, params, dst_pos=dst_pos, src_pos=src_pos)
    else:
        core.load_data(dst, src, params, config)
    return dst.read_raw().astype(np.int64)


def fresh_dst(core: Core, dtype: str, dst_pos: str, n: int):
    return core.tensor(dst_pos, dtype, n)


def marker(dtype: str) -> int:
    return int.from_bytes(b"\xcd" * (get_dtype(dtype).bits // 8), "little")


# ================================================================== LoadData_3D.md

# 调用示例: A is transposed, GM holds [k, m] (ND), L1 holds it as NZ, b32; LoadData v2 with enTranspose
# writes Zz(A) to L0A. k, m, fractalShape, fractalNum are not defined in the snippet: k = 40, m = 24 (both
# not multiples of 16), fractalShape = {16, 8} (b32 fractal), fractalNum = 2 (two 16x8 fractals per square).
K_EX, M_EX = 40, 24
K_AL, M_AL = cdiv(K_EX, 16) * 16, cdiv(M_EX, 8) * 8  # CeilAlign(k, 16) = 48, CeilAlign(m, 8) = 24


def _example_a_t() -> tuple[np.ndarray, np.ndarray]:
    """GM A^T [k, m] (ND) and its L1 NZ image (padding rows/cols zero, like ND2NZ's zero fill)."""
    a_t = codes(K_EX * M_EX, 32).reshape(K_EX, M_EX)
    padded = np.zeros((K_AL, M_AL), dtype=np.int64)
    padded[:K_EX, :M_EX] = a_t
    return padded, nz(padded, 8)


def _example_params(fractal_num: int = 2) -> LoadData3DParamsV2:
    p = LoadData3DParamsV2()
    p.l1H = 1
    p.l1W = K_AL  # CeilAlign(k, fractalShape[0])
    p.channelSize = M_AL  # CeilAlign(m, fractalShape[1])
    p.kExtension = M_AL
    p.mExtension = cdiv(K_EX, 8 * fractal_num) * 8 * fractal_num  # CeilAlign(k, fractalShape[1] * fractalNum)
    p.strideW = p.strideH = p.filterW = p.filterH = p.dilationFilterW = p.dilationFilterH = 1
    p.filterSizeW = p.filterSizeH = False
    p.enTranspose = True
    p.fMatrixCtrl = False
    return p


@pytest.mark.parametrize("fractal_num", [2, 1])
def test_l3d_example_transposed_b32_a_to_zz_a2(fractal_num: int) -> None:
    """LoadData_3D.md 调用示例 (A2): "在写入L0A Buffer之前会先分别将A矩阵高度和宽度轴向16、8对齐，接着该指令
    会将整个A矩阵进行转置并且每一个分形也转置，最终写入到L0A Buffer的A矩阵是ZZ排布". fractalNum = 1 gives
    mExtension = CeilAlign(40, 8) = 40: the height is still aligned to 16, so a Zz row of A spans 48 / 8 = 6
    fractals (columns 40-47 unspecified)."""
    a_t, l1 = _example_a_t()
    m_ext = _example_params(fractal_num).mExtension
    got = run(Core("a2"), "float", l1, "A2", _example_params(fractal_num), 2 * 6 * 128)
    # img2col of a 1 x k' map with m' channels and a 1x1 kernel is A^T itself; the L0A holds Zz(A), 16x8.
    assert np.array_equal(img2col(a_t.T.reshape(M_AL, 1, K_AL)), a_t)
    check(got, zz(_pad2(a_t[:m_ext].T, M_AL, cdiv(m_ext, 16) * 16), 8))


def test_l3d_ci4_narrative_row_of_36() -> None:
    """LoadData_3D.md 数据格式说明 (and seed 001): Ci = 4, fmap in L1 shaped (Hi, Wi, Ci); "LoadData首先在输入
    数据的Ci维度搬运对应于00的4个数，然后搬运对应于01的四个数，最终这一行的大小为Hk*Wk*Ci即3*3*4=36个数";
    Wo*Ho rows. Hi = Wi = 5 (not given) -> Ho = Wo = 3, 9 rows."""
    x = codes(4 * 5 * 5, 16).reshape(4, 5, 5)
    l1 = x.transpose(1, 2, 0).ravel()  # (Hi, Wi, Ci)
    p = LoadData3DParamsV2([0, 0, 0, 0], 5, 5, 4, 36, 9, 0, 0, 1, 1, 3, 3, 1, 1)
    got = run(Core("a2"), "half", l1, "A2", p, 16 * 48)
    want = img2col(x, ksize=(3, 3))
    assert want.shape == (9, 36)
    assert list(want[0, :8]) == [*x[:, 0, 0], *x[:, 0, 1]]  # "00" then "01"
    assert list(want[1, :4]) == list(x[:, 0, 1])  # second row: the filter moved one step along W
    check(got, zz(want, 16))


def test_l3d_c0_is_32_for_int8() -> None:
    """LoadData_3D.md 数据格式说明: "C0是固定值为16（对于u8/s8类型为32），C1=C/C0" (fractal 16x32 in L0A).
    C = 64 (C1 = 2), 3x3 map, 2x2 kernel -> Ho = Wo = 2, 4 rows x 256 columns."""
    x = codes(64 * 3 * 3, 8).reshape(64, 3, 3)
    p = LoadData3DParamsV2([0, 0, 0, 0], 3, 3, 64, 256, 4, 0, 0, 1, 1, 2, 2, 1, 1)
    got = run(Core("a2"), "int8_t", nc1hwc0(x, 32), "A2", p, 16 * 256)
    check(got, zz(img2col(x, ksize=(2, 2), group=32), 32))


# 关键特性说明 / 使用LoadData完成2D格式数据的搬运: N = 1, 1x1 kernel, no pad, stride 1, dilation 1 -> the
# img2col matrix is the L1 Nz matrix. An M x K half matrix A sits in L1 as NC1HWC0 with H = 1, W = M, C = K.
M2, K2 = 32, 48


def _two_d(bits: int = 16) -> tuple[np.ndarray, np.ndarray, LoadData3DParamsV2]:
    c0 = 256 // bits
    a = codes(M2 * K2, bits).reshape(M2, K2)
    return a, nz(a, c0), LoadData3DParamsV2([0, 0, 0, 0], 1, M2, K2, K2, M2, 0, 0, 1, 1, 1, 1, 1, 1)


def test_l3d_2d_non_transposed_a2_nz_to_zz() -> None:
    """非转置场景 A2/A3: "从L1 Buffer上的NZ分形排布转换成L0A Buffer中所需的ZZ分形排布"."""
    a, l1, p = _two_d()
    assert np.array_equal(l1, nc1hwc0(a.T.reshape(K2, 1, M2), 16))  # NC1HWC0 with H = 1 is Nz
    check(run(Core("a2"), "half", l1, "A2", p, M2 * K2), zz(a, 16))


def test_l3d_2d_non_transposed_950_nz_unchanged() -> None:
    """非转置场景 950: "L1 Buffer上的分形排布就是L0A Buffer中所需的NZ分形排布，LoadData不会进行分形排布转换";
    dstStride set through SetLoadDataRepeat (约束说明 id29) to the 2 fractal rows of A."""
    a, l1, p = _two_d()
    core = Core("950")
    core.set_load_data_repeat(LoadDataRepeatParam(0, 1, 0, dstStride=M2 // 16))
    got = run(core, "half", l1, "A2", p, M2 * K2)
    np.testing.assert_array_equal(got, l1)


def test_l3d_2d_transposed_b16_a2_l0a() -> None:
    """转置场景 A2 b16 L0A: "除了每个分形矩阵自身会被转置，每个分形矩阵在整个二维特征图中的位置也会被转置"."""
    a, l1, p = _two_d()
    p.enTranspose = True
    got = run(Core("a2"), "half", l1, "A2", p, M2 * K2)
    want = zz(a.T, 16)
    check(got, want)
    # fractal (i, j) of A lands, transposed, at fractal (j, i) of a 3 x 2 fractal grid
    blk = got.reshape(K2 // 16, M2 // 16, 16, 16)
    np.testing.assert_array_equal(blk[2, 1], a[16:32, 32:48].T)


def test_l3d_2d_transposed_b16_950_l0a() -> None:
    """转置场景 950 b16 L0A: the transposed matrix in NZ (dst_layout id35), dstStride = its 3 fractal rows."""
    a, l1, p = _two_d()
    p.enTranspose = True
    core = Core("950")
    core.set_load_data_repeat(LoadDataRepeatParam(0, 1, 0, dstStride=K2 // 16))
    check(run(core, "half", l1, "A2", p, M2 * K2), nz(a.T, 16))


@pytest.mark.parametrize("chip", ["a2", "950"])
@pytest.mark.parametrize("dtype", ["half", "float"])
@pytest.mark.parametrize("en_transpose", [False, True])
def test_l3d_l0b_is_zn_and_ignores_entranspose(chip: str, dtype: str, en_transpose: bool) -> None:
    """约束说明: L1->L0B "会自动进行转置，不需要配置enTranspose，此时enTranspose参数无效"; dst_layout: L0B ZN
    on A2/A3 and 950 (b16 16x16, b32 16x8 fractals: Zn with K0 = C0). 950 dstStride = ceil(K'/16)."""
    bits = get_dtype(dtype).bits
    a, l1, p = _two_d(bits)
    p.channelSize = p.kExtension = K2
    p.enTranspose = en_transpose
    core = Core(chip)
    if chip == "950":
        core.set_load_data_repeat(LoadDataRepeatParam(0, 1, 0, dstStride=K2 // 16))
    got = run(core, dtype, nc1hwc0(a.T.reshape(K2, 1, M2), 256 // bits), "B2", p, M2 * K2)
    check(got, zn(a, 256 // bits))


def test_l3d_950_b8_transposed_square() -> None:
    """转置场景 950 b8: "2个连续的16×32的分形拼接为一个32×32的方块矩阵，再进行转置并拆分为2个16×32的分形"."""
    a = codes(32 * 32, 8).reshape(32, 32)
    p = LoadData3DParamsV2([0, 0, 0, 0], 1, 32, 32, 32, 32, 0, 0, 1, 1, 1, 1, 1, 1, True)
    core = Core("950")
    core.set_load_data_repeat(LoadDataRepeatParam(0, 1, 0, dstStride=2))
    got = run(core, "int8_t", nz(a, 32), "A2", p, 32 * 32)
    square_t = a.T  # the two source fractals a[0:16], a[16:32] stacked, transposed
    np.testing.assert_array_equal(got, np.concatenate([square_t[:16].ravel(), square_t[16:].ravel()]))


# Repeat Mode: repeatMode 0 shifts the window by repeatStride*16 rows, mode 1 by repeatStride*32/sizeof(T)
# columns (SetLoadDataRepeat.md); with enTranspose
# "重复过程中的所有分块矩阵将被视为一个整体大矩阵". The figures are missing, so the window sizes are
# chosen here; the b32 examples use repeatStride=2, repeatTime=3 as the text says (and dstStride=3 on 950).


def _repeat_case(c: int, h: int, w: int, bits: int) -> tuple[np.ndarray, np.ndarray]:
    x = codes(c * h * w, bits).reshape(c, h, w)
    return img2col(x, group=256 // bits), nc1hwc0(x, 256 // bits)


def _big(wmat: np.ndarray, mode: int, m_ext: int, k_ext: int, stride: int, times: int, unit: int
         ) -> np.ndarray:
    if mode == 0:
        return np.concatenate([wmat[r * stride * 16: r * stride * 16 + m_ext, :k_ext] for r in range(times)])
    return np.concatenate([wmat[:m_ext, r * stride * unit: r * stride * unit + k_ext] for r in range(times)],
                          axis=1)


def test_l3d_repeat_m_transposed_b32_a2() -> None:
    """Repeat Mode (A2): b32, repeatMode=0, repeatStride=2, repeatTime=3, with enTranspose. 16-channel 8x12
    float map, 1x1 kernel: 96 x 16 img2col; windows rows 0-15, 32-47, 64-79 form a 48 x 16 matrix."""
    wmat, l1 = _repeat_case(16, 8, 12, 32)
    core = Core("a2")
    core.set_load_data_repeat(LoadDataRepeatParam(2, 3, 0))
    p = LoadData3DParamsV2([0, 0, 0, 0], 8, 12, 16, 16, 16, 0, 0, 1, 1, 1, 1, 1, 1, True)
    got = run(core, "float", l1, "A2", p, 48 * 16)
    check(got, zz(_big(wmat, 0, 16, 16, 2, 3, 8).T, 8))


def test_l3d_repeat_k_transposed_b32_a2() -> None:
    """Repeat Mode (A2): b32, repeatMode=1, repeatStride=2 (x 32/sizeof(float) = 16 columns), repeatTime=3,
    enTranspose. 40-channel 4x4 map: windows K 0-7, 16-23, 32-39 -> 16 x 24, stored as Zz of its 24 x 16
    transpose (rows 24-31 of the last fractal row unspecified)."""
    wmat, l1 = _repeat_case(40, 4, 4, 32)
    core = Core("a2")
    core.set_load_data_repeat(LoadDataRepeatParam(2, 3, 1))
    p = LoadData3DParamsV2([0, 0, 0, 0], 4, 4, 40, 8, 16, 0, 0, 1, 1, 1, 1, 1, 1, True)
    got = run(core, "float", l1, "A2", p, 32 * 16)
    check(got, zz(_big(wmat, 1, 16, 8, 2, 3, 8).T, 8))


@pytest.mark.parametrize("mode", [0, 1])
def test_l3d_repeat_non_transposed_half_a2(mode: int) -> None:
    """Repeat Mode (A2) M方向 / K方向 repeat without transposition: repeatStride=2, repeatTime=2, half
    (K unit 16). 48-channel 6x8 map, 1x1 kernel: 48 x 48 img2col."""
    wmat, l1 = _repeat_case(48, 6, 8, 16)
    core = Core("a2")
    core.set_load_data_repeat(LoadDataRepeatParam(2, 2, mode))
    p = LoadData3DParamsV2([0, 0, 0, 0], 6, 8, 48, 16, 16, 0, 0, 1, 1, 1, 1, 1, 1)
    got = run(core, "half", l1, "A2", p, 32 * 16)
    check(got, zz(_big(wmat, mode, 16, 16, 2, 2, 16), 16))


@pytest.mark.parametrize("mode", [0, 1])
def test_l3d_repeat_transposed_b32_950_dststride_3(mode: int) -> None:
    """Repeat Mode (950): b32, repeatMode=0/1, repeatStride=2, repeatTime=3, dstStride=3, enTranspose.
    48-channel 8x12 float map, 1x1 kernel. Mode 0: kExt = 48, windows of 16 rows; mode 1: kExt = 16,
    windows K 0-15, 16-31, 32-47. Either way the whole matrix^T has 48 rows = dstStride 3 fractal rows."""
    wmat, l1 = _repeat_case(48, 8, 12, 32)
    k_ext = 48 if mode == 0 else 16
    core = Core("950")
    core.set_load_data_repeat(LoadDataRepeatParam(2, 3, mode, dstStride=3))
    p = LoadData3DParamsV2([0, 0, 0, 0], 8, 12, 48, k_ext, 16, 0, 0, 1, 1, 1, 1, 1, 1, True)
    got = run(core, "float", l1, "A2", p, 48 * 48)
    check(got, nz(_big(wmat, mode, 16, k_ext, 2, 3, 8).T, 8, 3))


# 约束说明 / 表4


@pytest.mark.parametrize("field,value", [("l1H", 0), ("l1W", 0), ("channelSize", 0), ("kExtension", 0),
                                         ("mExtension", 0), ("filterW", 0), ("filterH", 0)])
def test_l3d_nop_cases(field: str, value: int) -> None:
    """约束说明: "当l1H/l1W/channelSize/kExtension/mExtension中的任意一个值为0时，该指令不会被执行";
    "当filterW为0且filterSizeW为false或者当filterH为0且filterSizeH为false时，该指令不会被执行"."""
    core = Core("a2")
    x = codes(16 * 16, 16)
    src = core.tensor("A1", "half", x.size)
    src.write_raw(x)
    dst = core.tensor("A2", "half", 256)
    p = LoadData3DParamsV2([0, 0, 0, 0], 4, 4, 16, 16, 16)
    setattr(p, field, value)
    core.load_data(dst, src, p)
    assert (dst.bytes() == 0xCD).all()


@pytest.mark.parametrize("filter_w", [0, 1])
def test_l3d_filter_size_w_adds_256(filter_w: int) -> None:
    """表4 filterSizeW: "是否在filterW的基础上将卷积核width增加256个元素". Kernel width 256 + filterW on a
    1 x (256 + filterW) 16-channel map: one output position; the last kernel point reads pixel
    (0, 255 + filterW)."""
    kw = 256 + filter_w
    x = codes(16 * kw, 16).reshape(16, 1, kw)
    p = LoadData3DParamsV2([0, 0, 0, 0], 1, kw, 16, 16, 1, (kw - 1) * 16, 0, 1, 1, filter_w, 1, 1, 1,
                           filterSizeW=True)
    got = run(Core("a2"), "half", nc1hwc0(x, 16), "A2", p, 256)
    assert list(got[:16]) == list(x[:, 0, kw - 1])


@pytest.mark.parametrize(("src_off", "dst_off"), [(1024 + 16, 2048), (1024, 2048 + 256)],
                         ids=["src-16-B-past-32", "dst-256-B-past-512"])
def test_l3d_alignment_src32_dst512(src_off: int, dst_off: int) -> None:
    """约束说明 / 总体说明 表1 / 矩阵计算输入搬运约束 对齐约束: L1 source 32-B aligned, L0A/L0B destination
    512-B aligned."""
    core = Core("a2")
    p = LoadData3DParamsV2([0, 0, 0, 0], 4, 4, 16, 16, 16)
    x = codes(256, 16)
    ok = run(core, "half", x, "A2", p, 256, src_offset=32)  # 32-B aligned source works
    check(ok, zz(x.reshape(16, 16), 16))
    src = core.tensor("A1", "half", 256, offset=src_off)
    dst = core.tensor("A2", "half", 256, offset=dst_off)
    snap = memories(core)
    with pytest.raises(AlignmentError, match=r"^Load3Dv2: "):
        core.load_data(dst, src, p)
    assert_memories_unchanged(core, snap)


A2_L0A = ["int4b_t", "int8_t", "uint8_t", "half", "bfloat16_t", "int32_t", "uint32_t", "float"]
A2_L0B = ["half", "bfloat16_t", "int32_t", "uint32_t", "float"]
D950 = ["int8_t", "uint8_t", "hifloat8_t", "fp8_e5m2_t", "fp8_e4m3fn_t", "half", "bfloat16_t", "int32_t",
        "uint32_t", "float"]
DTYPE_CASES = ([("a2", "A2", d) for d in A2_L0A] + [("a2", "B2", d) for d in A2_L0B]
               + [("950", "A2", d) for d in D950] + [("950", "B2", d) for d in D950])


@pytest.mark.parametrize("chip,dst_pos,dtype", DTYPE_CASES)
def test_l3d_dtype_tables(chip: str, dst_pos: str, dtype: str) -> None:
    """LoadData_3D.md 数据类型 + 矩阵计算输入搬运约束 表3 (A2) / 表4 (950): a 1x1 load of C0 channels of a 4x8
    map (32 x C0 img2col) into L0A (A2 Zz, 950 Nz) or L0B (Zn)."""
    bits = get_dtype(dtype).bits
    c0 = 256 // bits
    x = codes(c0 * 32, bits).reshape(c0, 4, 8)
    core = Core(chip)
    if chip == "950":
        stride = 2 if dst_pos == "A2" else cdiv(c0, 16)
        core.set_load_data_repeat(LoadDataRepeatParam(0, 1, 0, dstStride=stride))
    p = LoadData3DParamsV2([0, 0, 0, 0], 4, 8, c0, c0, 32)
    wmat = img2col(x)
    want = zn(wmat, c0) if dst_pos == "B2" else (zz(wmat, c0) if chip == "a2" else nz(wmat, c0))
    check(run(core, dtype, nc1hwc0(x, c0), dst_pos, p, want.size), want)


@pytest.mark.parametrize("chip,dst_pos,dtype,transpose", [
    ("a2", "B2", "int8_t", False),  # 约束说明 id30: "L1 Buffer->L0B Buffer通路不支持b4/b8类型数据"
    ("a2", "B2", "int4b_t", False),
    ("a2", "B2", "uint8_t", False),
    ("a2", "A2", "int8_t", True),  # "转置场景下，L1 Buffer->L0A Buffer通路不支持b8数据类型"
    ("a3", "A2", "uint8_t", True),
    ("950", "A2", "int4b_t", False),  # 表4 (950) lists no b4
])
def test_l3d_dtype_rejections(chip: str, dst_pos: str, dtype: str, transpose: bool) -> None:
    """约束说明 id30 / 矩阵计算输入搬运约束 表3-表5 ("A转置 b8: LoadDataWithTranspose" only, "B不转置 b4/b8:
    LoadDataWithTranspose" only)."""
    core = Core(chip)
    c0 = get_dtype(dtype).c0
    src = core.tensor("A1" if dst_pos == "A2" else "B1", dtype, c0 * 16)
    dst = core.tensor(dst_pos, dtype, c0 * 16)
    snap = memories(core)
    with pytest.raises(UnsupportedError, match=r"^Load3Dv2: "):
        core.load_data(dst, src, LoadData3DParamsV2([0, 0, 0, 0], 4, 4, c0, c0, 16, enTranspose=transpose))
    assert_memories_unchanged(core, snap)


CHANNEL_CASES = ([("half", c, True) for c in (4, 8, 16, 20, 24, 32, 48)]
                 + [("half", c, False) for c in (2, 6, 12, 28)]
                 + [("float", c, True) for c in (4, 8, 12, 16, 20)]
                 + [("float", c, False) for c in (2, 6, 10)]
                 + [("int8_t", c, True) for c in (4, 8, 16, 32, 36, 40, 48, 64)]
                 + [("int8_t", c, False) for c in (12, 24, 44)]
                 + [("int4b_t", c, True) for c in (8, 16, 32, 64, 72, 80, 96)]
                 + [("int4b_t", c, False) for c in (4, 24, 48)])


@pytest.mark.parametrize("dtype,channels,ok", CHANNEL_CASES)
def test_l3d_channel_size_forms(dtype: str, channels: int, ok: bool) -> None:
    """约束说明 channelsize_constraint (A2): b32 4, N*8, N*8+4; b16 4, 8, N*16, N*16+4, N*16+8; b8 4, 8, 16,
    32*N, N*32+4, N*32+8, N*32+16; b4 8, 16, 32, N*64, N*64+8, N*64+16, N*64+32."""
    core = Core("a2")
    src = core.tensor("A1", dtype, channels * 16)
    dst = core.tensor("A2", dtype, 16 * 128)
    p = LoadData3DParamsV2([0, 0, 0, 0], 4, 4, channels, channels, 16)
    if ok:
        core.load_data(dst, src, p)
    else:
        with pytest.raises(ParamRangeError, match=r"^Load3Dv2: channelSize"):
            core.load_data(dst, src, p)


def _w32x32(dtype: str = "half") -> tuple[np.ndarray, np.ndarray]:
    """A 32-channel 4x8 map, 1x1 kernel: a 32 x 32 img2col matrix."""
    bits = get_dtype(dtype).bits
    x = codes(32 * 32, bits).reshape(32, 4, 8)
    return img2col(x, group=256 // bits), nc1hwc0(x, 256 // bits)


@pytest.mark.parametrize("dtype,k_start,k_ext,m_start,m_ext,ok", [
    ("half", 0, 8, 0, 16, False),  # kExtension not a multiple of 16, window not at the right-most fractal
    ("half", 16, 8, 0, 16, True),  # ... but it may be when it covers the right-most fractal
    ("half", 8, 16, 0, 16, False),  # kStartPt: multiple of 16 for b16
    ("float", 8, 8, 0, 16, True),  # kStartPt / kExtension: multiples of 8 for b32
    ("half", 0, 16, 0, 8, "conflict"),  # mExtension: multiple of 16 unless it covers the bottom fractal
    ("half", 0, 16, 24, 8, True),
    ("float", 0, 8, 0, 8, True),  # "b32类型无要求"
    ("half", 0, 16, 5, 16, True),  # mStartPt: [0, 32767], no multiple stated
])
def test_l3d_window_multiples(dtype: str, k_start: int, k_ext: int, m_start: int, m_ext: int, ok: bool
                              ) -> None:
    """表4 kExtension / mExtension / kStartPt / mStartPt; destination row i holds img2col row mStartPt + i.
    A window height that is not a multiple of 16 above the bottom fractal is what shipped 950 conv kernels
    load: executed, only the window's rows written, with a DocConflictWarning (divergence L22)."""
    wmat, l1 = _w32x32(dtype)
    c0 = get_dtype(dtype).c0
    p = LoadData3DParamsV2([0, 0, 0, 0], 4, 8, 32, k_ext, m_ext, k_start, m_start)
    core = Core("a2")
    if ok == "conflict":
        with pytest.warns(DocConflictWarning, match=r"^Load3Dv2: the doc page forbids this \(LoadData_3D.md "
                          r"表4 mExtension: 如果不覆盖最下侧的分形, 应为16的倍数"):
            got = run(core, dtype, l1, "A2", p, 1024)
        check(got, zz(wmat[m_start: m_start + m_ext, k_start: k_start + k_ext], c0))
        assert (got[m_ext * c0: 16 * c0] == MARKER_HALF).all()  # rows 8-15 of the fractal keep their bytes
        with pytest.raises(DocConflictError):
            run(Core("a2", strict=True), dtype, l1, "A2", p, 1024)
        return
    if not ok:
        src = core.tensor("A1", dtype, l1.size)
        dst = core.tensor("A2", dtype, 1024)
        with pytest.raises(ParamRangeError, match=r"^Load3Dv2: (kExtension|kStartPt|mExtension)"):
            core.load_data(dst, src, p)
        return
    got = run(core, dtype, l1, "A2", p, 1024)
    check(got, zz(wmat[m_start: m_start + m_ext, k_start: k_start + k_ext], c0))


def test_l3d_v2pro_packed_words() -> None:
    """表5 LoadData3DParamsV2Pro: extConfig / filterConfig built with the doc's shift formulas; l1H, l1W,
    padList and padValue come from SetFmatrix / SetLoadDataPaddingValue (the struct has none). Geometry of the
    BitMode example: 4x4 map, pads 1, 2x2 kernel, dilation 2 -> 16 x 64, whole matrix."""
    x = codes(16 * 16, 16).reshape(16, 4, 4)
    core = Core("a2")
    core.set_fmatrix(4, 4, [1, 1, 1, 1])
    core.set_padding_value(0, "half")
    m_start, k_start, m_ext, k_ext = 0, 0, 16, 64
    ext = (m_start << 48) | (k_start << 32) | (m_ext << 16) | k_ext
    dil_h, dil_w, f_h, f_w, s_h, s_w = 2, 2, 2, 2, 1, 1
    filt = (dil_h << 40) | (dil_w << 32) | (f_h << 24) | (f_w << 16) | (s_h << 8) | s_w
    got = run(core, "half", nc1hwc0(x, 16), "A2", LoadData3DParamsV2Pro(16, extConfig=ext, filterConfig=filt),
              16 * 64)
    check(got, zz(img2col(x, (1, 1, 1, 1), (1, 1), (2, 2), (2, 2)), 16))


def test_l3d_v2pro_default_filter_config() -> None:
    """表5: filterConfig "默认值为0X10101010101" = dilations, filter sizes and strides all 1."""
    pro = LoadData3DParamsV2Pro(16, extConfig=(16 << 16) | 16)
    assert pro.filterConfig == 0x10101010101
    assert [(pro.filterConfig >> s) & 0xFF for s in (0, 8, 16, 24, 32, 40)] == [1] * 6
    x = codes(16 * 16, 16).reshape(16, 4, 4)
    core = Core("a2")
    core.set_fmatrix(4, 4, [0, 0, 0, 0])
    check(run(core, "half", nc1hwc0(x, 16), "A2", pro, 256), zz(img2col(x), 16))


@pytest.mark.xfail(strict=True, reason="docs/divergences.md L10: ascsim follows LoadData_3D.md "
                   "entranspose_constraint (b16/b32 on A2) over 表5's 'only for A2 with half'")
def test_l3d_v2pro_entranspose_half_only() -> None:
    """表5 enTranspose: "仅在目的TPosition为A2，且源操作数为half类型时有效" -> for float it has no effect."""
    x = codes(8 * 16, 32).reshape(8, 4, 4)
    core = Core("a2")
    core.set_fmatrix(4, 4, [0, 0, 0, 0])
    pro = LoadData3DParamsV2Pro(8, enTranspose=True, extConfig=(16 << 16) | 8)
    check(run(core, "float", nc1hwc0(x, 8), "A2", pro, 256), zz(img2col(x), 8))


# ================================================================== LoadData_3D_BitMode.md

BM_PARAM = LoadData3DParamsV2([1, 1, 1, 1], 4, 4, 16, 16, 16, 0, 0, 1, 1, 2, 2, 2, 2, False, False, 0.0,
                              False, False, False)


def _bitmode_example(set_fmatrix: bool) -> None:
    x = codes(16 * 16, 16).reshape(16, 4, 4)
    core = Core("950")
    if set_fmatrix:  # not in the snippet: BitMode carries no l1H/l1W/padList (docs/divergences.md L2)
        core.set_fmatrix(4, 4, [1, 1, 1, 1])
        core.set_load_data_repeat(LoadDataRepeatParam(0, 1, 0, dstStride=1))
    got = run(core, "half", nc1hwc0(x, 16), "A2", Load3DBitModeParam(BM_PARAM), 256, bitmode=True)
    wmat = img2col(x, (1, 1, 1, 1), (1, 1), (2, 2), (2, 2))
    assert wmat.shape == (16, 64)  # Ho = Wo = (4 + 2 - 3) + 1 = 4
    check(got, nz(wmat[:16, :16], 16))


def test_bitmode_example_with_setfmatrix() -> None:
    """LoadData_3D_BitMode.md 调用示例 (950; half; H = W = 4, C0 = 16, 2x2 kernel, dilation 2, pads 1):
    kExtension = C0, mExtension = H*W -> the first kernel point's 16 channels for all 16 output positions,
    Nz in L0A. Gap filled: SetFmatrix(4, 4, padList) and dstStride = 1 before the call."""
    _bitmode_example(True)


@pytest.mark.xfail(strict=True, reason="docs/divergences.md L2: BitMode reads the FMATRIX register; the "
                   "snippet never calls SetFmatrix, so the fresh register (l1H = 0) makes the call a NOP")
def test_bitmode_example_literal() -> None:
    """The snippet exactly as written (no SetFmatrix): ascsim flags the NOP with a HazardWarning."""
    with pytest.warns(HazardWarning, match=r"^Load3DBitMode: NOP because the FMATRIX register"):
        _bitmode_example(False)


@pytest.mark.xfail(strict=True, reason="docs/divergences.md L10: per-chip enTranspose rule (b8/b16/b32 on "
                   "950) over the BitMode table's 'only for A2 with half'")
def test_bitmode_transpose_half_only() -> None:
    """表5 transpose: "仅在目的TPosition为A2，且源操作数为half类型时有效" -> ignored for float."""
    x = codes(8 * 16, 32).reshape(8, 4, 4)
    core = Core("950")
    core.set_fmatrix(4, 4, [0, 0, 0, 0])
    bm = Load3DBitModeParam(LoadData3DParamsV2([0, 0, 0, 0], 4, 4, 8, 8, 16, enTranspose=True))
    check(run(core, "float", nc1hwc0(x, 8), "A2", bm, 256, bitmode=True), nz(img2col(x), 8))


@pytest.mark.xfail(strict=True, reason="docs/divergences.md L3: channelSize up to 65535 (LoadData_3D.md 表4) "
                   "although LoadData_3D_BitMode.md 表5 gives sizeChannel ∈ [1, 63]")
def test_bitmode_size_channel_range() -> None:
    """表5 sizeChannel: "取值范围：sizeChannel∈[1, 63]" -> 64 is out of range."""
    core = Core("950")
    core.set_fmatrix(4, 4, [0, 0, 0, 0])
    src = core.tensor("A1", "half", 64 * 16)
    dst = core.tensor("A2", "half", 1024)
    with pytest.raises(ParamRangeError):
        core.load_data(dst, src, Load3DBitModeParam(LoadData3DParamsV2([0, 0, 0, 0], 4, 4, 64, 64, 16)),
                       dst_pos="A2", src_pos="A1")


@pytest.mark.xfail(strict=True, reason="docs/divergences.md L19: mPos ∈ [0, 65535] (seed 000, 16-bit field) "
                   "over LoadData_3D_BitMode.md 表4's [0, 32767]")
def test_bitmode_mpos_range() -> None:
    """表4 mPos: "取值范围[0, 32767]"."""
    core = Core("950")
    core.set_fmatrix(4, 4, [0, 0, 0, 0])
    src = core.tensor("A1", "half", 256)
    dst = core.tensor("A2", "half", 256)
    with pytest.raises(ParamRangeError, match="mPos"):
        bm = Load3DBitModeParam(LoadData3DParamsV2([0, 0, 0, 0], 4, 4, 16, 16, 16, 0, 40000))
        core.load_data(dst, src, bm, dst_pos="A2", src_pos="A1")


# ============================================================ LoadDataWithStride.md / SetLoadDataRepeat*.md


def test_load_data_with_stride_example_950() -> None:
    """LoadDataWithStride.md / SetLoadDataRepeatWithStride.md 调用示例: the LoadData_3D example's A-transposed
    b32 load on 950 with repeatTime = 1, repeatStride = 1, repeatMode = 0, dstStride = CeilDivision(m, 16)
    ("输出矩阵K轴方向偏移"): L0A holds Nz(A), 16x8 fractals, columns 2 fractals apart."""
    a_t, l1 = _example_a_t()
    core = Core("950")
    rp = LoadDataRepeatParamWithStride()
    rp.repeatTime, rp.repeatStride, rp.repeatMode, rp.dstStride = 1, 1, 0, cdiv(M_EX, 16)
    core.set_load_data_repeat(rp)
    got = run(core, "float", l1, "A2", _example_params(), 2 * 6 * 128, stride=True)
    check(got, nz(a_t.T, 8, 2))


def test_set_load_data_repeat_example_950() -> None:
    """SetLoadDataRepeat.md 调用示例 on 950 (dstStride = CeilDivision(m, 16) through SetLoadDataRepeat, then
    LoadData v2): same result as LoadDataWithStride."""
    a_t, l1 = _example_a_t()
    core = Core("950")
    rp = LoadDataRepeatParam()
    rp.repeatTime, rp.repeatStride, rp.repeatMode, rp.dstStride = 1, 1, 0, cdiv(M_EX, 16)
    core.set_load_data_repeat(rp)
    check(run(core, "float", l1, "A2", _example_params(), 2 * 6 * 128), nz(a_t.T, 8, 2))


def test_set_load_data_repeat_dststride_not_on_a2() -> None:
    """SetLoadDataRepeat.md dstStride参数支持度说明: "针对Atlas A2 ..., 不支持该参数" (ascsim rejects it)."""
    core = Core("a2")
    with pytest.raises(UnsupportedError, match=r"^SetLoadDataRepeat: dstStride"):
        core.set_load_data_repeat(LoadDataRepeatParam(1, 1, 0, dstStride=2))


def test_repeat_param_defaults() -> None:
    """表2: repeatStride 默认值为0, repeatTime 默认值为1, repeatMode 默认值为0 ("使用默认构造值")."""
    for cls in (LoadDataRepeatParam, LoadDataRepeatParamWithStride):
        p = cls()
        assert (p.repeatStride, p.repeatTime, p.repeatMode) == (0, 1, 0)


@pytest.mark.parametrize("chip,unit", [("a2", 16), ("a3", 16), ("atlas200i500a2", 32)])
def test_repeat_mode1_unit_per_chip(chip: str, unit: int) -> None:
    """SetLoadDataRepeat.md 约束说明: repeatMode 1 moves repeatStride x 32/sizeof(T) elements on A2/A3/950 and
    64/sizeof(T) on Atlas 200I/500 A2. half, repeatStride 1, repeatTime 2, kExtension 16."""
    x = codes(64 * 16, 16).reshape(64, 4, 4)
    core = Core(chip)
    core.set_load_data_repeat(LoadDataRepeatParam(1, 2, 1))
    got = run(core, "half", nc1hwc0(x, 16), "A2", LoadData3DParamsV2([0, 0, 0, 0], 4, 4, 64, 16, 16), 512)
    check(got, zz(_big(img2col(x, group=16), 1, 16, 16, 1, 2, unit), 16))


def test_repeat_time_zero_is_nop() -> None:
    """SetLoadDataRepeat.md 约束说明: "repeatTime=0表示LoadData不执行搬运，被视为NOP"."""
    core = Core("a2")
    core.set_load_data_repeat(LoadDataRepeatParam(0, 0, 0))
    src = core.tensor("A1", "half", 256)
    src.write_raw(codes(256, 16))
    dst = core.tensor("A2", "half", 256)
    core.load_data(dst, src, LoadData3DParamsV2([0, 0, 0, 0], 4, 4, 16, 16, 16))
    assert (dst.bytes() == 0xCD).all()


def test_load_data_with_stride_requires_register() -> None:
    """LoadDataWithStride.md 约束说明: "必须使用辅助配置接口SetLoadDataRepeatWithStride配置dstStride参数"."""
    core = Core("950")
    src = core.tensor("A1", "half", 256)
    dst = core.tensor("A2", "half", 256)
    snap = memories(core)
    with pytest.raises(ParamRangeError, match=r"^LoadDataWithStride: dstStride"):
        core.load_data_with_stride(dst, src, LoadData3DParamsV2([0, 0, 0, 0], 4, 4, 16, 16, 16))
    assert_memories_unchanged(core, snap)


@pytest.mark.parametrize("dst_pos,ok", [("A2", True), ("B2", False)])
def test_load_data_with_stride_int8_paths(dst_pos: str, ok: bool) -> None:
    """LoadDataWithStride.md 数据类型: A1->A2 includes int8_t; B1->B2 lists only half, bfloat16_t, int32_t,
    uint32_t, float. LoadData_3D.md / IN-CON 表4 allow b8 into L0B on 950, the C++ static_assert takes it and
    asc-devkit's load_data_with_stride example loads int8 B this way: executed as Nz(W^T) (the L0B layout)
    with a DocConflictWarning, strict -> DocConflictError (divergence L23)."""
    wmat, l1 = _w32x32("int8_t")
    core = Core("950")
    core.set_load_data_repeat(LoadDataRepeatParamWithStride(0, 1, 0, 2))
    p = LoadData3DParamsV2([0, 0, 0, 0], 4, 8, 32, 32, 32)
    if ok:
        check(run(core, "int8_t", l1, dst_pos, p, 1024, stride=True), nz(wmat, 32, 2))
        return
    with pytest.warns(DocConflictWarning, match=r"^LoadDataWithStride: the doc page forbids this "
                      r"\(LoadDataWithStride.md 数据类型: B1->B2 lists"):
        got = run(core, "int8_t", l1, dst_pos, p, 1024, stride=True)
    check(got, nz(wmat.T, 32, 2))
    strict = Core("950", strict=True)
    strict.set_load_data_repeat(LoadDataRepeatParamWithStride(0, 1, 0, 2))
    with pytest.raises(DocConflictError, match=r"^LoadDataWithStride: the doc page forbids this"):
        run(strict, "int8_t", l1, dst_pos, p, 1024, stride=True)


# ================================================================== SetFmatrix.md / SetFmatrixBitMode.md /
#                                                                    SetLoadDataPaddingValue.md

KN = 32  # K and N of the SetFmatrix example (undefined there); equal, since SetFmatrix(N, 1, ...) is paired
#          with a struct whose l1H is K


def _setfmatrix_params() -> LoadData3DParamsV2:
    p = LoadData3DParamsV2()
    p.l1W, p.l1H, p.channelSize, p.kExtension, p.mExtension = 1, KN, KN, KN, KN
    p.kStartPt = p.mStartPt = 0
    p.strideW = p.strideH = p.filterW = p.filterH = p.dilationFilterW = p.dilationFilterH = 1
    p.enTranspose, p.enSmallK, p.padValue = True, False, 0
    p.filterSizeW, p.filterSizeH, p.fMatrixCtrl = 0, 0, 0
    return p


@pytest.mark.parametrize("arch", ["2201", "3510"])
def test_setfmatrix_example(arch: str) -> None:
    """SetFmatrix.md 调用示例 (set_loaddata_boundary sample): the right matrix B [K, N] (half) in L1 as Nz
    (NC1HWC0 with H = K, W = 1, C = N) loaded to L0B with LOAD3D_CONFIG = {false, false} after
    SetFmatrix(N, 1, {0,0,0,0}, FMATRIX_LEFT). 2201 (A2): SetLoadDataRepeat({0, 1, 0}),
    SetLoadDataBoundary(0), SetLoadDataPaddingValue(0), LoadData. 3510 (950):
    SetLoadDataRepeatWithStride({0, 1, 0, DivCeil(N, 16)}), SetLoadDataPaddingValue(0), LoadDataWithStride.
    L0B is Zn(B)."""
    b = codes(KN * KN, 16).reshape(KN, KN)
    core = Core("a2" if arch == "2201" else "950")
    core.set_fmatrix(KN, 1, [0, 0, 0, 0], "FMATRIX_LEFT")
    if arch == "2201":
        core.set_load_data_repeat(LoadDataRepeatParam(0, 1, 0))
        core.set_load_data_boundary(0)
    else:
        core.set_load_data_repeat(LoadDataRepeatParamWithStride(0, 1, 0, cdiv(KN, 16)))
    core.set_padding_value(0, "half")
    got = run(core, "half", nz(b, 16), "B2", _setfmatrix_params(), KN * KN, config=NO_RESET,
              stride=arch == "3510")
    check(got, zn(b, 16))


@pytest.mark.parametrize("args", [(0, 4, [0, 0, 0, 0]), (4, 32768, [0, 0, 0, 0]), (4, 4, [0, 256, 0, 0])],
                         ids=["l1H=0", "l1W=32768", "padList[1]=256"])
def test_setfmatrix_ranges(args: tuple) -> None:
    """SetFmatrix.md 表1: l1H, l1W ∈ [1, 32767]; padList entries ∈ [0, 255]."""
    core = Core("a2")
    core.set_fmatrix(32767, 1, [255, 0, 0, 0])
    assert (core.regs.fmatrix_left.l1H, core.regs.fmatrix_left.l1W) == (32767, 1)
    with pytest.raises(ParamRangeError, match=r"^SetFmatrix: (l1H|l1W|padList)"):
        core.set_fmatrix(*args)
    assert core.regs.fmatrix_left.l1H == 32767  # rejected calls change nothing


def test_setfmatrix_mode() -> None:
    """SetFmatrix.md 表1: "当前只支持FMATRIX_LEFT" (the range refusals: test_setfmatrix_ranges)."""
    core = Core("a2")
    core.set_fmatrix(32767, 1, [255, 0, 0, 0])
    assert (core.regs.fmatrix_left.l1H, core.regs.fmatrix_left.l1W) == (32767, 1)
    # "当前只支持FMATRIX_LEFT": catlass writes the right bank anyway; executed with a DocConflictWarning (L11)
    with pytest.warns(DocConflictWarning,
                      match=r"^SetFmatrix: the doc page forbids this \(SetFmatrix.md 表1"):
        core.set_fmatrix(4, 5, [0, 0, 0, 0], "FMATRIX_RIGHT")
    assert core.regs.fmatrix_right == Fmatrix(4, 5, (0, 0, 0, 0))
    assert core.regs.fmatrix_left.l1H == 32767


def test_setfmatrix_struct_fields_ignored_with_config_false() -> None:
    """LoadData_3D.md 表1 / SetFmatrix.md 功能说明: with isSetFMatrix = false
    "该接口传入的FeatureMap的属性描述不生效" -> a struct with wrong l1H / l1W / padList loads what
    SetFmatrix describes."""
    x = codes(16 * 16, 16).reshape(16, 4, 4)
    core = Core("a2")
    core.set_fmatrix(4, 4, [1, 1, 1, 1])
    p = LoadData3DParamsV2([3, 3, 3, 3], 1, 2, 16, 64, 16, 0, 0, 1, 1, 2, 2, 2, 2)
    got = run(core, "half", nc1hwc0(x, 16), "A2", p, 1024, config=IsResetLoad3dConfig(False, True))
    check(got, zz(img2col(x, (1, 1, 1, 1), (1, 1), (2, 2), (2, 2)), 16))


def test_setfmatrix_bitmode_page_example_a2() -> None:
    """SetFmatrixBitMode.md 调用示例 (its uncommented SetFmatrix form): channelSize 32, H = W = 4, 2x2
    kernel, dilation 2, pads 0, LOAD3D_CONFIG {false, false}, {padList, H, W, channelSize, k, howoRound, 0, 0,
    1, 1, Kw, Kh, dilationW, dilationH, false, false, 0}. Gaps: k = C*Kh*Kw = 128, howoRound = Ho*Wo = 4
    rounded up to 16. Run on A2, where every call of the snippet exists (SetLoadDataBoundary is 不支持 on
    950). Rows 4-15 lie past Ho*Wo (undocumented, docs/divergences.md L8) and are not compared."""
    x = codes(32 * 16, 16).reshape(32, 4, 4)
    core = Core("a2")
    core.set_fmatrix(4, 4, [0, 0, 0, 0], "FMATRIX_LEFT")
    core.set_padding_value(0, "half")
    core.set_load_data_repeat(LoadDataRepeatParam(0, 1, 0))
    core.set_load_data_boundary(0)
    p = LoadData3DParamsV2([0, 0, 0, 0], 4, 4, 32, 128, 16, 0, 0, 1, 1, 2, 2, 2, 2, False, False, 0)
    got = run(core, "half", nc1hwc0(x, 16), "A2", p, 16 * 128, config=NO_RESET)
    wmat = img2col(x, ksize=(2, 2), dils=(2, 2), group=16)
    assert wmat.shape == (4, 128)
    check(got, zz(wmat, 16))


def test_setfmatrix_bitmode_page_example_boundary_call_on_950() -> None:
    """The same snippet sits on a 950-only page but calls SetLoadDataBoundary, which SetLoadDataBoundary.md
    lists as 不支持 on Ascend 950: ascsim follows the product table."""
    with pytest.raises(UnsupportedError, match=r"^SetLoadDataBoundary"):
        Core("950").set_load_data_boundary(0)


def test_setfmatrix_bitmode_params() -> None:
    """SetFmatrixBitMode.md 表3 + 调用示例 (commented form): SetFMatrixBitModeParams.SetL1H / SetL1W /
    SetPadList pack l1H [15:0], l1W [31:16], padList0..3 8 bits each from bit 32; SetFmatrix(param,
    FMATRIX_LEFT) then behaves like SetFmatrix(H, W, padList)."""
    from ascsim import params as ascsim_params
    from ascsim.ascendc import FmatrixMode, SetFmatrix, use

    cls = getattr(ascsim_params, "SetFMatrixBitModeParams", None)
    assert cls is not None, "SetFMatrixBitModeParams (SetFmatrixBitMode.md) is not provided by ascsim.params"
    param = cls()
    param.SetL1H(4)
    param.SetL1W(5)
    param.SetPadList([1, 2, 3, 4])
    assert param.GetConfig0() == 4 | (5 << 16) | (1 << 32) | (2 << 40) | (3 << 48) | (4 << 56)
    core = Core("950")
    with use(core):
        SetFmatrix(param, FmatrixMode.FMATRIX_LEFT)
    assert (core.regs.fmatrix_left.l1H, core.regs.fmatrix_left.l1W) == (4, 5)
    assert tuple(core.regs.fmatrix_left.padList) == (1, 2, 3, 4)


@pytest.mark.parametrize("is_set_padding,pad", [(False, 7.0), (True, 3.0)])
def test_set_load_data_padding_value(is_set_padding: bool, pad: float) -> None:
    """SetLoadDataPaddingValue.md: with isSetPadding = false the value set here pads;
    "设置为true时，本接口设置的填充值不生效" (the struct's padValue pads). Register 7.0, struct 3.0
    (the snippet's 0 cannot tell them apart); 2x2 half map, 16 channels, 3x3 kernel, pads 1."""
    x = codes(16 * 4, 16).reshape(16, 2, 2)
    core = Core("a2")
    core.set_padding_value(7.0, "half")
    p = LoadData3DParamsV2([1, 1, 1, 1], 2, 2, 16, 144, 4, 0, 0, 1, 1, 3, 3, 1, 1, False, False, 3.0)
    cfg = IsResetLoad3dConfig(True, is_set_padding)
    got = run(core, "half", nc1hwc0(x, 16), "A2", p, 16 * 144, config=cfg)
    pad_code = int(np.array(pad, dtype=np.float16).view(np.uint16))
    check(got, zz(img2col(x, (1, 1, 1, 1), ksize=(3, 3), pad_code=pad_code), 16))


# ================================================================== SetLoadDataBoundary.md


def _boundary_layout(core: Core, start: int, size_b: int, boundary_b: int = 1024
                     ) -> tuple[np.ndarray, object]:
    """A 16-channel 4x4 half map (512 B) whose first part sits at L1[start:boundary_b] and the rest at L1[0:],
    so that it is contiguous only if reads past byte `boundary_b` wrap to the start of L1."""
    x = codes(256, 16).reshape(16, 4, 4)
    flat = nc1hwc0(x, 16)
    head = (boundary_b - start) // 2
    core.tensor("A1", "half", head, offset=start).write_raw(flat[:head])
    core.tensor("A1", "half", 256 - head, offset=0).write_raw(flat[head:])
    return x, core.tensor("A1", "half", size_b // 2, offset=start)


def test_boundary_wraps_v2_bytes() -> None:
    """功能说明: "源操作数在L1 Buffer上的地址超出设置的边界，则会从L1 Buffer起始地址开始读取数据";
    v2 unit: byte. Boundary 1024 (the documented minimum)."""
    core = Core("a2")
    core.set_load_data_boundary(1024)
    x, src = _boundary_layout(core, 768, 512)
    dst = core.tensor("A2", "half", 256)
    core.load_data(dst, src, LoadData3DParamsV2([0, 0, 0, 0], 4, 4, 16, 16, 16))
    check(dst.read_raw().astype(np.int64), zz(img2col(x), 16))


def test_boundary_v1_unit_32_bytes() -> None:
    """表1: "LoadData v1指令：单位是32字节" -> boundaryValue 1024 = 32 KB (Atlas 推理系列产品 AI Core).
    (1024 is the smallest value 约束说明 allows; ascsim reads that minimum on the raw value, whatever
    the unit.)"""
    core = Core("inference_aicore")
    core.set_load_data_boundary(1024)
    x, src = _boundary_layout(core, 32768 - 256, 512, 32768)
    dst = core.tensor("A2", "half", 256)
    core.load_data(dst, src, LoadData3DParamsV1([0, 0, 0, 0], 4, 4, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 0, 1))
    check(dst.read_raw().astype(np.int64), zz(img2col(x), 16))


def test_boundary_zero_means_whole_l1() -> None:
    """约束说明: "如果boundaryValue设置为0，则表示无边界，可使用整个A1/B1" (SetLoadDataBoundary(0) of the
    snippets)."""
    core = Core("a2")
    core.set_load_data_boundary(0)
    x = codes(256, 16).reshape(16, 4, 4)
    got = run(core, "half", nc1hwc0(x, 16), "A2", LoadData3DParamsV2([0, 0, 0, 0], 4, 4, 16, 16, 16), 256,
              src_offset=768)
    check(got, zz(img2col(x), 16))


def test_boundary_start_must_be_inside() -> None:
    """约束说明: "LoadData指令的A1/B1初始地址要在设置的边界内"."""
    core = Core("a2")
    core.set_load_data_boundary(1024)
    src = core.tensor("A1", "half", 256, offset=1024)
    dst = core.tensor("A2", "half", 256)
    snap = memories(core)
    with pytest.raises(AscsimError, match=r"^Load3Dv2: "):
        core.load_data(dst, src, LoadData3DParamsV2([0, 0, 0, 0], 4, 4, 16, 16, 16))
    assert_memories_unchanged(core, snap)


@pytest.mark.parametrize("chip,value,exc", [("a2", 512, ParamRangeError), ("950", 1024, UnsupportedError),
                                            ("atlas200i500a2", 1024, UnsupportedError)])
def test_boundary_rejections(chip: str, value: int, exc: type) -> None:
    """约束说明: "边界值大小最小值要求是1024，如果设置1~1023值是未定义行为" (ascsim rejects, divergences L18);
    产品支持情况: 950 and Atlas 200I/500 A2 不支持."""
    with pytest.raises(exc, match=r"^SetLoadDataBoundary"):
        Core(chip).set_load_data_boundary(value)


# ================================================================== seeds 000 / 001

SEED_X = codes(32 * 16, 16).reshape(32, 4, 4)  # C1 = 2, C0 = 16, H = W = 4


def _seed_want() -> np.ndarray:
    return img2col(SEED_X, (1, 1, 1, 1), (1, 1), (2, 2), (2, 2), group=16)  # 16 x 128


@pytest.mark.parametrize("chip", ["inference_aicore", "training"])
def test_seed001_v1_example(chip: str) -> None:
    """Seed 001 Examples (v1: { padList, H, W, 0, 0, 0, -1, -1, strideW, strideH, Kw, Kh, dilationW,
    dilationH, 1, 0, fmRepeat, 0, (half)(0)}); fmRepeat undefined -> C1*Kh*Kw = 8 repeats, one kernel
    point's C0 channels each (表3 repeatMode 0: "增加卷积核窗口中的点，对应在目的矩阵上往w维度方向增长"),
    jumpStride 1: the 16 x 128 img2col matrix as 8 consecutive fractals."""
    p = LoadData3DParamsV1([1, 1, 1, 1], 4, 4, 0, 0, 0, -1, -1, 1, 1, 2, 2, 2, 2, 1, 0, 8, 0, 0.0)
    check(run(Core(chip), "half", nc1hwc0(SEED_X, 16), "A2", p, 8 * 256), zz(_seed_want(), 16))


def test_seed000_bitmode_corrected_950() -> None:
    """Seed 000 example with the V2 field order of LoadData_3D_BitMode.md (docs/divergences.md L1) on the only
    chip it supports (950), whole 16 x 128 window; SetFmatrix added (L2)."""
    core = Core("950")
    core.set_fmatrix(4, 4, [1, 1, 1, 1])
    core.set_load_data_repeat(LoadDataRepeatParam(0, 1, 0, dstStride=1))
    v2 = LoadData3DParamsV2([1, 1, 1, 1], 4, 4, 32, 128, 16, 0, 0, 1, 1, 2, 2, 2, 2, False, False, 0.0)
    got = run(core, "half", nc1hwc0(SEED_X, 16), "A2", Load3DBitModeParam(v2), 8 * 256, bitmode=True)
    check(got, nz(_seed_want(), 16))


@pytest.mark.xfail(strict=True, reason="docs/divergences.md L1: the seed 000 example runs BitMode on the "
                   "inference AI Core (not supported by its own table) with 19 v1-style values in a V2 "
                   "struct")
def test_seed000_literal() -> None:
    """Seed 000 调用示例 exactly: LoadData3DParamsV2 param = { padList, H, W, 0, 0, 0, -1, -1, strideW,
    strideH, Kw, Kh, dilationW, dilationH, 1, 0, fmRepeat, 0, (half)(0)} on Atlas 推理系列产品 AI Core
    (fmRepeat = 8). It fails already at Load3DBitModeParam(param): kStartPt = -1 does not fit the 16-bit
    field (in C++ the brace-init narrowing of -1 into uint16_t would not compile either)."""
    v2 = LoadData3DParamsV2([1, 1, 1, 1], 4, 4, 0, 0, 0, -1, -1, 1, 1, 2, 2, 2, 2, 1, 0, 8, 0, 0.0)
    got = run(Core("inference_aicore"), "half", nc1hwc0(SEED_X, 16), "A2", Load3DBitModeParam(v2), 8 * 256,
              bitmode=True)
    check(got, zz(_seed_want(), 16))


def test_v1_repeat_mode1_walks_window_positions() -> None:
    """LoadData_3D.md 表3 repeatMode 1: "每次迭代，增加滑动窗口左上坐标，对应在目的矩阵上往h维度方向增长"; the
    kernel point is fixed at (fetchFilterH, fetchFilterW) = (2, 1). 16-channel 4x8 map, 3x3 kernel, pads 1
    (leftTop = -1): 32 window positions = 2 repeats of 16 rows."""
    x = codes(16 * 32, 16).reshape(16, 4, 8)
    p = LoadData3DParamsV1([1, 1, 1, 1], 4, 8, 0, 1, 2, -1, -1, 1, 1, 3, 3, 1, 1, 1, 1, 2, 0, 0.0)
    got = run(Core("inference_aicore"), "half", nc1hwc0(x, 16), "A2", p, 512)
    point = (2 * 3 + 1) * 16
    check(got, zz(img2col(x, (1, 1, 1, 1), ksize=(3, 3))[:, point: point + 16], 16))


def test_v1_csize_ci4_row_of_36() -> None:
    """Seed 001 Load3d Data Formats / LoadData_3D.md 数据格式说明 with v1 cSize (表3 "cSize = 4（b16）";
    约束说明: feature map 4-channel aligned): Ci = 4 in L1 as (Hi, Wi, Ci), 3x3 kernel: "load3dv1 first
    fetches four values corresponding to 00 ... followed by four values corresponding to 01 ...
    3 × 3 × 4 = 36". Hi = Wi = 6 -> 16 rows; 3 repeats cover the 36 columns (columns 36-47 unspecified)."""
    x = codes(4 * 36, 16).reshape(4, 6, 6)
    p = LoadData3DParamsV1([0, 0, 0, 0], 6, 6, 0, 0, 0, 0, 0, 1, 1, 3, 3, 1, 1, 1, 0, 3, 1, 0.0)
    got = run(Core("inference_aicore"), "half", x.transpose(1, 2, 0).ravel(), "A2", p, 3 * 256)
    check(got, zz(img2col(x, ksize=(3, 3)), 16))


# ================================================================== L1-L0A-B内存结构介绍.md


@pytest.mark.parametrize("chip", ["a2", "a3", "950"])
def test_memory_structure_sizes(chip: str) -> None:
    """L1: "总容量为512K字节，由16个Bank组成。每个Bank的容量为32K字节，由1024行组成，每行的宽度为32字节"
    (19-bit address); L0A/L0B: "总容量为64K字节，只包含1个Bank，有128行，每行的宽度为512字节" (16-bit)."""
    mem = Core(chip).memories
    assert mem["L1"].size == 16 * 1024 * 32 == 1 << 19
    assert mem["L0A"].size == mem["L0B"].size == 128 * 512 == 1 << 16


# ================================================================== 矩阵计算分形介绍


def test_fractal_nd_to_nz_20x28_printed_values() -> None:
    """关键分形格式详解.md Nz格式转换详解与示例: the (20, 28) half tensor, the page's own numpy code, the
    printed values, and ascsim.layouts.nd_to_nz."""
    from ascsim.machine.layouts import nd_to_nz

    tensor_a = (np.arange(20 * 28) * np.ones(20 * 28, dtype="float16")).reshape(20, 28)
    n0, m0 = 16, 16
    n1, m1 = (28 + n0 - 1) // n0, (20 + m0 - 1) // m0
    tensor_b = np.pad(tensor_a, [[0, m1 * m0 - 20], [0, n1 * n0 - 28]])
    tensor_b = tensor_b.reshape((m1, m0, n1, n0)).transpose((2, 0, 1, 3))
    assert tensor_b.shape == (2, 2, 16, 16)
    assert list(tensor_b[0, 0, 0, :3]) == [0, 1, 2] and list(tensor_b[0, 0, 0, -3:]) == [13, 14, 15]
    assert list(tensor_b[0, 0, 1, :3]) == [28, 29, 30] and list(tensor_b[0, 0, 2, :3]) == [56, 57, 58]
    assert not tensor_b[0, 1, -3:].any()  # rows 29-31: the printed zero rows closing the first N1 block
    assert list(tensor_b[1, 0, 0, :3]) == [16, 17, 18] and list(tensor_b[1, 0, 0, -3:]) == [0, 0, 0]
    assert list(tensor_b[1, 0, 1, :3]) == [44, 45, 46] and list(tensor_b[1, 0, 2, :3]) == [72, 73, 74]
    np.testing.assert_array_equal(nd_to_nz(tensor_a, 16), tensor_b.ravel())


def test_fractal_nd_to_nz_40x56_is_3x4_fractals() -> None:
    """关键分形格式详解.md ND格式: M = 40, K = 56 half -> padded to 48 x 64, "数据被重组为3 x 4个分形块"."""
    from ascsim.machine.layouts import nd_to_nz

    a = np.arange(1, 40 * 56 + 1).reshape(40, 56)
    flat = nd_to_nz(a, 16)
    assert flat.size == 3 * 4 * 256
    np.testing.assert_array_equal(flat, np.where(nz(a, 16) == UNSPEC, 0, nz(a, 16)))


@pytest.mark.parametrize("k0", [8, 16, 32, 64])
def test_fractal_zz_zn_formulas(k0: int) -> None:
    """Zz (M1,K1,M0,K0) and Zn (K1,N1,N0,K0) as the page's formulas, K0 = 8/16/32/64 for 32/16/8/4-bit."""
    from ascsim.machine.layouts import nd_to_zn, nd_to_zz

    a = np.arange(1, 40 * 150 + 1).reshape(40, 150)
    np.testing.assert_array_equal(nd_to_zz(a, k0, fill=UNSPEC), zz(a, k0))
    b = a.T.copy()  # K = 150, N = 40
    np.testing.assert_array_equal(nd_to_zn(b, k0, fill=UNSPEC), zn(b, k0))


def test_fractal_nc1hwc0_pads_last_group() -> None:
    """关键分形格式详解.md NC1HWC0: "C0固定为32Byte，C1=C/C0，如果结果不整除，最后一份数据需要padding到C0"."""
    from ascsim.machine.layouts import nchw_to_nc1hwc0

    for dtype, c in (("half", 20), ("int8_t", 40), ("float", 12)):
        c0 = 32 * 8 // get_dtype(dtype).bits
        x = np.arange(1, c * 6 + 1).reshape(c, 2, 3)
        y = nchw_to_nc1hwc0(x[None], c0)
        assert y.shape == (1, cdiv(c, c0), 2, 3, c0)
        np.testing.assert_array_equal(y.ravel(), nc1hwc0(x, c0))


@pytest.mark.xfail(strict=True, reason="docs/divergences.md L5: ascsim stores a channelSize remainder as a "
                   "packed last group, not the C0-padded NC1HWC0 group of 关键分形格式详解.md")
def test_l3d_channel_tail_on_padded_nc1hwc0() -> None:
    """LoadData_3D.md 数据格式说明 requires the feature map in NC1HWC0 (linking 关键分形格式详解.md, which
    pads the last C1 group to C0); channelSize 20 = 16 + 4 is allowed for half. So channels 16-19 are read
    from a 16-wide pixel stride."""
    x = codes(20 * 16, 16).reshape(20, 4, 4)
    p = LoadData3DParamsV2([0, 0, 0, 0], 4, 4, 20, 20, 16)
    got = run(Core("a2"), "half", nc1hwc0(x, 16, fill=0), "A2", p, 512)
    check(got, zz(img2col(x, group=16), 16))


def test_sparse_index_byte_example() -> None:
    """辅助矩阵分形格式详解.md 4选2稀疏索引矩阵: "生成的索引数据为1 2 0 1 ，
    索引数据在GM地址中的排布从高位到低位为1 0 2 1" -> one uint8 0b01_00_10_01."""
    from ascsim.isa.sparse import pack_sparse_index

    packed = pack_sparse_index(np.array([[1], [2], [0], [1]]))
    assert packed[0] == 0b01001001


# (B elements 0..3, index 0, index 1) of the 稠密化算法 table; X = 5, Y = 7, "-" = 0 (one of the zeros).
DENSIFY_TABLE = [((0, 0, 5, 7), 2, 2), ((0, 5, 0, 7), 1, 2), ((5, 0, 0, 7), 0, 2), ((0, 5, 7, 0), 1, 1),
                 ((5, 0, 7, 0), 0, 1), ((5, 7, 0, 0), 0, 0), ((0, 0, 0, 5), 0, 2), ((0, 0, 5, 0), 2, 0),
                 ((0, 5, 0, 0), 1, 0), ((5, 0, 0, 0), 0, 0), ((0, 0, 0, 0), 0, 0)]


@pytest.mark.parametrize("elems,i0,i1", DENSIFY_TABLE)
def test_sparse_densify_table(elems: tuple[int, ...], i0: int, i1: int) -> None:
    """The 稠密化算法 table of 辅助矩阵分形格式详解.md: the two codes per group of 4;
    "稠密化的B矩阵是过滤掉2个零的稠密矩阵" -> dense = the nonzeros in order, zero-filled; a lone nonzero
    in element 3 can only be reached by the second index ("第2个非零元素在后3个元素中的相对位置"), so it
    sits in the second slot."""
    from ascsim.isa.sparse import densify_2to4

    dense, idx = densify_2to4(np.array(elems, dtype=np.int8).reshape(4, 1))
    assert (int(idx[0, 0]), int(idx[1, 0])) == (i0, i1)
    nonzero = [e for e in elems if e]
    want = (0, nonzero[0]) if elems == (0, 0, 0, 5) else tuple((nonzero + [0, 0])[:2])
    assert (int(dense[0, 0]), int(dense[1, 0])) == want


def test_mx_scale_fractal_offsets() -> None:
    """辅助矩阵分形格式详解.md MX: scaleA (M, K/32) Zz with 16x2 fractals, (M1,K1,M0,K0); scaleB (K/32, N)
    Nn with 2x16 fractals, (N1,K1,N0,K0)."""
    from ascsim.isa.mx import scale_offset

    m, k = 40, 256
    kb_n = k // 32
    sa = np.arange(m * kb_n).reshape(m, kb_n)  # element id
    m1, k1 = cdiv(m, 16), cdiv(kb_n, 2)
    a_layout = _pad2(sa, m1 * 16, k1 * 2).reshape(m1, 16, k1, 2).transpose(0, 2, 1, 3).ravel()
    rows, kbs = np.meshgrid(np.arange(m), np.arange(kb_n), indexing="ij")
    np.testing.assert_array_equal(a_layout[scale_offset(rows, kbs, k)], sa)
    sb = sa.T.copy()  # (K/32, N) with N = 40
    b_layout = _pad2(sb, k1 * 2, m1 * 16).reshape(k1, 2, m1, 16).transpose(2, 0, 3, 1).ravel()
    np.testing.assert_array_equal(b_layout[scale_offset(rows, kbs, k)], sa)
