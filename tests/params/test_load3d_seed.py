"""The seed example (seeds 000 / 001 调用示例) and the bit-packed Load3D parameter forms.

Seed: C1 = 2, H = W = 4, Kh = Kw = 2, dilation 2, pads 1, strides 1, half -> Ho = Wo = 4 and an img2col
matrix of 16 rows x C1*Kh*Kw*C0 = 128 columns = fmRepeat = 8 fractals. Oracles: torch unfold and a
hand-written numpy loop. Bit layouts are typed in from seed 000 表4 / 表5 and LoadData_3D.md 表5.
"""

from __future__ import annotations

import numpy as np
import pytest
import torch
import torch.nn.functional as F

from ascsim.base.errors import ParamRangeError, UnsupportedError
from ascsim.core import Core
from ascsim.machine.layouts import nchw_to_nc1hwc0
from ascsim.params import Load3DBitModeParam, LoadData3DParamsV1, LoadData3DParamsV2, LoadData3DParamsV2Pro

C1, H, W, KH, KW, C0, DIL, PAD = 2, 4, 4, 2, 2, 16, 2, 1
HO = WO = (H + 2 * PAD - ((KH - 1) * DIL + 1)) // 1 + 1  # = 4
FM_REPEAT = C1 * KH * KW  # 8 fractals of 16 x 16

# seed 001 调用示例: { padList, H, W, 0, 0, 0, -1, -1, strideW, strideH, Kw, Kh, dilationW, dilationH, 1, 0,
# fmRepeat, 0, (half)(0) }
SEED_V1 = LoadData3DParamsV1([1, 1, 1, 1], 4, 4, 0, 0, 0, -1, -1, 1, 1, 2, 2, 2, 2, 1, 0, 8, 0, 0.0)
# The same load as a V2 struct (the seed's V2 brace list mixes in v1 fields; LoadData_3D_BitMode.md's is
# the V2 order): whole 16 x 128 img2col matrix.
SEED_V2 = LoadData3DParamsV2([1, 1, 1, 1], 4, 4, C1 * C0, FM_REPEAT * C0, HO * WO, 0, 0, 1, 1, KW, KH, DIL,
                             DIL, False, False, 0.0)


def seed_input() -> np.ndarray:
    return (1 + np.arange(C1 * C0 * H * W)).reshape(C1 * C0, H, W).astype(np.float64)  # exact in half


def torch_expected(x: np.ndarray) -> np.ndarray:
    """16 x 128 img2col matrix, columns (c1, kh, kw, c0), from torch unfold."""
    u = F.unfold(F.pad(torch.from_numpy(x)[None], (PAD,) * 4, value=0.0), (KH, KW), dilation=DIL)[0]
    u = u.reshape(C1, C0, KH, KW, HO * WO).permute(4, 0, 2, 3, 1)  # (m, c1, kh, kw, c0)
    return u.reshape(HO * WO, FM_REPEAT * C0).numpy()


def numpy_expected(x: np.ndarray) -> np.ndarray:
    """The same matrix by hand: W[m][((c1*Kh + kh)*Kw + kw)*C0 + c0] = X[c1*C0 + c0, h, w] or 0."""
    out = np.zeros((HO * WO, FM_REPEAT * C0))
    for ho in range(HO):
        for wo in range(WO):
            for c1 in range(C1):
                for kh in range(KH):
                    for kw in range(KW):
                        h, w = ho + kh * DIL - PAD, wo + kw * DIL - PAD
                        for c0 in range(C0):
                            col = ((c1 * KH + kh) * KW + kw) * C0 + c0
                            out[ho * WO + wo, col] = x[c1 * C0 + c0, h, w] if 0 <= h < H and 0 <= w < W else 0
    return out


def fractals(flat: np.ndarray) -> np.ndarray:
    """8 consecutive 16 x 16 fractals (jumpStride 1; also Zz / Nz of a 16-row matrix) -> 16 x 128."""
    return flat[: FM_REPEAT * 256].reshape(FM_REPEAT, 16, C0).transpose(1, 0, 2).reshape(16, FM_REPEAT * C0)


def test_oracles_agree() -> None:
    x = seed_input()
    assert np.array_equal(torch_expected(x), numpy_expected(x))
    # spot check: row 0 (ho 0, wo 0), kernel point (c1 0, kh 1, kw 1) reads X[c, 1, 1]
    assert numpy_expected(x)[0, 3 * C0 + 2] == x[2, 1, 1]


def _load(core: Core, params, **kw) -> np.ndarray:
    x = seed_input()
    l1 = nchw_to_nc1hwc0(x[None], C0).ravel()
    src = core.tensor("A1", "half", l1.size, data=l1)
    dst = core.tensor("A2", "half", FM_REPEAT * 256)
    core.load_data(dst, src, params, **kw)
    return dst.read().astype(np.float64)


def test_seed_v1_inference_aicore() -> None:
    got = fractals(_load(Core("inference_aicore"), SEED_V1))
    x = seed_input()
    assert np.array_equal(got, torch_expected(x))
    assert np.array_equal(got, numpy_expected(x))


def test_seed_bitmode_ascend950() -> None:
    core = Core("ascend950")
    core.set_fmatrix(4, 4, [1, 1, 1, 1])  # BitMode reads l1H / l1W / padList from the FMATRIX register
    bm = Load3DBitModeParam(SEED_V2)
    got = fractals(_load(core, bm, dst_pos="A2", src_pos="A1"))  # 950 L0A: Nz with 1 fractal row
    x = seed_input()
    assert np.array_equal(got, torch_expected(x))
    assert np.array_equal(got, numpy_expected(x))


def test_bitmode_unsupported_on_a2() -> None:
    core = Core("a2")
    src = core.tensor("A1", "half", 512)
    dst = core.tensor("A2", "half", 2048)
    before = dst.bytes().copy()
    with pytest.raises(UnsupportedError, match=r"^Load3DBitMode"):
        core.load_data(dst, src, Load3DBitModeParam(SEED_V2), dst_pos="A2", src_pos="A1")
    assert (dst.bytes() == before).all()


# ---------------------------------------------------------------- Load3DBitModeParam (seed 000 表4 / 表5)

# (setter suffix, config word, mask of the field) typed in from the tables: 表4 kStep/mStep/kPos/mPos are
# 16 bits each from the lowest; 表5 strideW 6, strideH 6, Wk 8, Hk 8, dilationW 8, dilationH 8, filterW 1,
# filterH 1, transpose 1, fmatrixCtrl 1, sizeChannel 16 bits, from the lowest.
BIT_TABLE = [
    ("KExtension", 0, 0x0000_0000_0000_FFFF),
    ("MExtension", 0, 0x0000_0000_FFFF_0000),
    ("KStartPt", 0, 0x0000_FFFF_0000_0000),
    ("MStartPt", 0, 0xFFFF_0000_0000_0000),
    ("StrideW", 1, 0x0000_0000_0000_003F),
    ("StrideH", 1, 0x0000_0000_0000_0FC0),
    ("FilterW", 1, 0x0000_0000_000F_F000),
    ("FilterH", 1, 0x0000_0000_0FF0_0000),
    ("DilationFilterW", 1, 0x0000_000F_F000_0000),
    ("DilationFilterH", 1, 0x0000_0FF0_0000_0000),
    ("FilterSizeW", 1, 0x0000_1000_0000_0000),
    ("FilterSizeH", 1, 0x0000_2000_0000_0000),
    ("Transpose", 1, 0x0000_4000_0000_0000),
    ("FmatrixCtrl", 1, 0x0000_8000_0000_0000),
    ("ChannelSize", 1, 0xFFFF_0000_0000_0000),
]


@pytest.mark.parametrize(("name", "word", "mask"), BIT_TABLE, ids=[b[0] for b in BIT_TABLE])
def test_bitmode_field_positions(name: str, word: int, mask: int) -> None:
    low = (mask & -mask).bit_length() - 1
    width = mask.bit_count()
    bm = Load3DBitModeParam()
    getattr(bm, "Set" + name)((1 << width) - 1)
    words = [bm.GetConfig0(), bm.GetConfig1()]
    assert words[word] == mask
    assert words[1 - word] == 0
    assert getattr(bm, "Get" + name)() == (1 << width) - 1
    getattr(bm, "Set" + name)(1)
    assert [bm.GetConfig0(), bm.GetConfig1()][word] == 1 << low
    with pytest.raises(ParamRangeError, match=r"^Load3DBitModeParam: "):
        getattr(bm, "Set" + name)(1 << width)
    assert [bm.GetConfig0(), bm.GetConfig1()][word] == 1 << low  # a rejected set changes nothing


def test_bitmode_from_v2_packs_fields_and_drops_fmatrix_fields() -> None:
    a = LoadData3DParamsV2([1, 2, 3, 4], 7, 9, 20, 48, 32, 16, 5, 2, 3, 4, 5, 6, 7, True, False, 1.5, True,
                           False)
    b = LoadData3DParamsV2([0, 0, 0, 0], 100, 200, 20, 48, 32, 16, 5, 2, 3, 4, 5, 6, 7, True, False, -3.0,
                           True, False)
    bm = Load3DBitModeParam(a)
    assert bm == Load3DBitModeParam(b)  # padList / l1H / l1W / padValue do not reach the words
    assert bm.GetConfig0() == (5 << 48) | (16 << 32) | (32 << 16) | 48
    assert bm.GetConfig1() == ((20 << 48) | (1 << 46) | (1 << 44) | (7 << 36) | (6 << 28) | (5 << 20)
                               | (4 << 12) | (3 << 6) | 2)
    assert (bm.GetStrideW(), bm.GetStrideH(), bm.GetFilterW(), bm.GetFilterH()) == (2, 3, 4, 5)
    assert (bm.GetDilationFilterW(), bm.GetDilationFilterH(), bm.GetChannelSize()) == (6, 7, 20)
    assert (bm.GetFilterSizeW(), bm.GetFilterSizeH(), bm.GetTranspose(), bm.GetFmatrixCtrl()) == (1, 0, 1, 0)
    raw = Load3DBitModeParam(bm.GetConfig0(), bm.GetConfig1())
    assert raw == bm


def test_bitmode_seed_words() -> None:
    bm = Load3DBitModeParam(SEED_V2)
    assert bm.GetConfig0() == (16 << 16) | 128
    assert bm.GetConfig1() == (32 << 48) | (2 << 36) | (2 << 28) | (2 << 20) | (2 << 12) | (1 << 6) | 1


# ---------------------------------------------------------------- v2Pro (LoadData_3D.md 表5)


def test_v2pro_default_filter_config() -> None:
    assert LoadData3DParamsV2Pro().filterConfig == 0x10101010101
    assert LoadData3DParamsV2Pro().extConfig == 0
    # the V2 defaults (strides / filters / dilations 1) pack to the same word
    assert LoadData3DParamsV2Pro.from_v2(LoadData3DParamsV2()).filterConfig == 0x10101010101


def test_v2pro_packing_formulas() -> None:
    m_start, k_start, m_ext, k_ext = 0x1234, 0xABCD, 0x0F0F, 0x8001
    ext = (m_start << 48) | (k_start << 32) | (m_ext << 16) | k_ext  # 表5 extConfig
    assert LoadData3DParamsV2Pro.pack_ext(k_ext, m_ext, k_start, m_start) == ext
    dh, dw, fh, fw, sh, sw = 0x81, 0x7F, 0xFE, 0x03, 0x3F, 0x21
    filt = (dh << 40) | (dw << 32) | (fh << 24) | (fw << 16) | (sh << 8) | sw  # 表5 filterConfig
    assert LoadData3DParamsV2Pro.pack_filter(sw, sh, fw, fh, dw, dh) == filt
    v2 = LoadData3DParamsV2([0, 0, 0, 0], 1, 1, 16, k_ext, m_ext, k_start, m_start, sw, sh, fw, fh, dw, dh)
    pro = LoadData3DParamsV2Pro.from_v2(v2)
    assert (pro.extConfig, pro.filterConfig) == (ext, filt)
    assert (pro.kExtension, pro.mExtension, pro.kStartPt, pro.mStartPt) == (k_ext, m_ext, k_start, m_start)
    assert (pro.strideW, pro.strideH, pro.filterW, pro.filterH, pro.dilationFilterW, pro.dilationFilterH) == (
        sw, sh, fw, fh, dw, dh)
    with pytest.raises(ParamRangeError, match=r"^LoadData3DParamsV2Pro.filterConfig: strideW"):
        LoadData3DParamsV2Pro.pack_filter(256)
