"""Load3D windows whose height is not a multiple of 16 in the middle of the map (divergence L22).

LoadData_3D.md 表4 mExtension: "如果不覆盖最下侧的分形，对于b4、b8、b16类型，应为16的倍数". Huawei's 950 conv
kernels load hoL0 * Wo rows at a time anyway: ops-nn conv/common/op_kernel/arch35/conv_instr_m_mode_impl.h
(LoadAL0ToolsMMode: xm_.bf.mExtension_ = currentML0_ = the unaligned m, mStartPt_ = posM, dstStride =
currentML0Align_ / 16 via SetLoadDataRepeatWithStride, then LoadData<A2, A1>(al0, al1, Load3DBitModeParam))
with the FMATRIX bottom pad left at 255 (conv2d_v2_instr_base_impl.h SetLoad3dFMatrix: padList starts as
{MAX_PAD_R x 4} and only left / right / top are overwritten), so no window ever reaches the bottom fractal.
Weights go B1 -> B2 with Load2DBitModeParam (conv_instr_impl.h LoadBL0Tools::FullLoadBL0: mStep = N/16,
kStep = K/k0, srcStride = nBL1/16, dstStride = mStep, no transpose).

ascsim executes such a window with a DocConflictWarning: only the window's rows are written (the rest of
the last fractal keeps its bytes), so Mmad with any m <= mExtension gives the img2col rows — compared here
with torch.nn.functional.conv2d; the hypothesis tests in test_load3d_ref.py compare the same windows with
the slow reference interpreter.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest
import torch
import torch.nn.functional as F
from support.conv_layouts import C0, fmap_nc1hwc0, weights_bt_nz

from ascsim import (
    Core,
    DocConflictError,
    DocConflictWarning,
    Load3DBitModeParam,
    LoadData3DParamsV2,
    LoadData3DParamsV2Pro,
    LoadDataRepeatParamWithStride,
    MmadParams,
)
from ascsim.machine.memory import MARKER
from ascsim.params import Load2DBitModeParam


def l0c_rows(flat: np.ndarray, m: int, n: int) -> np.ndarray:
    """C (m x n) from L0C Nz (16x16 fractals, M1 = ceil(m/16) rows per fractal column; Mmad.md 表1)."""
    m1 = -(-m // 16)
    out = np.zeros((m, n))
    for i in range(m):
        for j in range(n):
            out[i, j] = flat[((j // 16) * m1 * 16 + i) * 16 + j % 16]
    return out


def conv_950_m_mode(x: np.ndarray, wt: np.ndarray, pad: int, ho_l0: int, mmad_m_aligned: bool,
                    strict: bool = False) -> tuple[np.ndarray, list[str]]:
    """The ops-nn M-mode loop: chunks of ho_l0 * Wo output rows, each Load3DBitMode'd mid-map and Mmad'ed."""
    cin, h, w = x.shape
    cout, _, kh, kw = wt.shape
    ho, wo = h + 2 * pad - kh + 1, w + 2 * pad - kw + 1
    core = Core("950", strict=strict)
    c1 = -(-cin // C0)
    al1 = core.tensor("A1", "half", c1 * h * w * C0, data=fmap_nc1hwc0(x))
    bt, n, k = weights_bt_nz(wt)
    bl1 = core.tensor("B1", "half", bt.size, data=bt)
    bl0 = core.tensor("B2", "half", bt.size)
    bp = Load2DBitModeParam()
    bp.SetMStartPosition(0)
    bp.SetKStartPosition(0)
    bp.SetMStep(n // 16)
    bp.SetKStep(k // C0)
    bp.SetSrcStride(n // 16)
    bp.SetDstStride(n // 16)
    bp.SetIfTranspose(False)
    core.load_data(bl0, bl1, bp, dst_pos="B2", src_pos="B1")
    # SetLoad3dFMatrix: padList = {left, right, top, MAX_PAD_R}; Load3DSetPaddingCal(offsetx = 0)
    core.set_fmatrix(h, w, [pad, pad, pad, 255])
    core.set_padding_value(0, "half")
    out = np.zeros((ho * wo, cout))
    notes: list[str] = []
    m_total = ho * wo
    for pos_m in range(0, m_total, ho_l0 * wo):
        m = min(ho_l0 * wo, m_total - pos_m)
        m_align = -(-m // 16) * 16
        core.set_load_data_repeat(LoadDataRepeatParamWithStride(0, 1, 0, m_align // 16))
        al0 = core.tensor("A2", "half", m_align * k, offset=0)
        al0.memory.data[: al0.nbytes] = MARKER  # fresh marker, so unwritten rows show
        cl0 = core.tensor("CO1", "float", m_align * n, offset=0)
        p = Load3DBitModeParam(LoadData3DParamsV2(
            [0, 0, 0, 0], 0, 0, c1 * C0, k, m, 0, pos_m, 1, 1, kw, kh, 1, 1))
        rep = core.load_data(al0, al1, p, dst_pos="A2", src_pos="A1")
        notes += rep.notes
        if m != m_align:  # rows m..m_align-1 of the last fractal are not written: they keep the marker
            raw = al0.bytes().reshape(k // C0, m_align, C0 * 2)
            assert (raw[:, m:, :] == MARKER).all()
        mm = m_align if mmad_m_aligned else m
        core.mmad(cl0, al0, bl0, MmadParams(mm, n, k))
        out[pos_m:pos_m + m] = l0c_rows(cl0.read(), mm, n)[:m, :cout]
    return out.T.reshape(cout, ho, wo), notes


@pytest.mark.parametrize("mmad_m_aligned", [False, True], ids=["m=mExtension", "m=aligned"])
@pytest.mark.parametrize("cin,h,w,cout,k,pad,ho_l0", [
    (16, 9, 10, 16, 3, 1, 4),  # Ho*Wo = 90: chunks of 40, 40, 10 rows (mStartPt 0, 40, 80)
    (20, 6, 12, 24, 3, 1, 1),  # Wo = 12 rows per chunk; Cin padded to 32, Cout to 32
])
def test_950_conv_partial_windows_match_torch(cin, h, w, cout, k, pad, ho_l0, mmad_m_aligned) -> None:
    rng = np.random.default_rng(cin * h + w)
    x = rng.standard_normal((cin, h, w)).astype(np.float16).astype(np.float64)
    wt = rng.standard_normal((cout, cin, k, k)).astype(np.float16).astype(np.float64)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        y, notes = conv_950_m_mode(x, wt, pad, ho_l0, mmad_m_aligned)
    msgs = {str(c.message) for c in caught}
    assert msgs and all(m.startswith("Load3DBitMode: the doc page forbids this (LoadData_3D.md 表4 mStep: "
                                     "如果不覆盖最下侧的分形, 应为16的倍数") for m in msgs)
    assert all(issubclass(c.category, DocConflictWarning) for c in caught)
    assert notes and "L22" in set(notes) <= {"L22", "L4", "L7", "L8"}  # + the readings the window rests on
    ref = F.conv2d(torch.from_numpy(x)[None], torch.from_numpy(wt), padding=pad)[0].numpy()
    scale = F.conv2d(torch.from_numpy(np.abs(x))[None], torch.from_numpy(np.abs(wt)), padding=pad)[0].numpy()
    assert y.shape == ref.shape
    assert (np.abs(y - ref) <= 2.0**-20 * scale + 1e-30).all()


def test_950_conv_partial_window_strict_is_an_error() -> None:
    x = np.ones((16, 9, 10))
    wt = np.ones((16, 16, 3, 3))
    with pytest.raises(DocConflictError, match=r"^Load3DBitMode: the doc page forbids this \(LoadData_3D.md "
                       r"表4 mStep: 如果不覆盖最下侧的分形, 应为16的倍数; got 40 ending at row 40"):
        conv_950_m_mode(x, wt, 1, 4, False, strict=True)


@pytest.mark.parametrize("form", ["v2", "v2pro", "with_stride"])
def test_every_v2_form_accepts_a_mid_map_window(form: str) -> None:
    """v2 / v2Pro / LoadDataWithStride take the same 40-row window; the first 40 rows equal BitMode's."""
    x = np.arange(16 * 9 * 10, dtype=np.float64).reshape(16, 9, 10) % 251
    results = []
    for f in ("bitmode", form):
        core = Core("950")
        al1 = core.tensor("A1", "half", x.size, data=fmap_nc1hwc0(x))
        core.set_fmatrix(9, 10, [1, 1, 1, 255])
        core.set_padding_value(0, "half")
        core.set_load_data_repeat(LoadDataRepeatParamWithStride(0, 1, 0, 3))
        al0 = core.tensor("A2", "half", 48 * 144)
        p = LoadData3DParamsV2([1, 1, 1, 255], 9, 10, 16, 144, 40, 0, 40, 1, 1, 3, 3, 1, 1)
        with pytest.warns(DocConflictWarning, match=r"mExtension|mStep"):
            if f == "bitmode":
                core.load_data(al0, al1, Load3DBitModeParam(p), dst_pos="A2", src_pos="A1")
            elif f == "v2":
                core.load_data(al0, al1, p)
            elif f == "v2pro":
                core.load_data(al0, al1, LoadData3DParamsV2Pro.from_v2(p))
            else:
                core.load_data_with_stride(al0, al1, p)
        results.append(al0.bytes().copy())
    np.testing.assert_array_equal(results[0], results[1])
