"""Issue 7 end to end: a 950 conv2d with NCHW output — Load3DBitMode windows of hoL0 * Wo rows in the middle
of the map (bottom pad 255), Mmad with m = the window height, Fixpipe NZ2DN written at
cout * HoWo + h * Wo + w — compared with torch.nn.functional.conv2d.

Transliterated from ops-nn's 950 conv kernels (the M mode): conv/common/op_kernel/arch35/
conv_instr_m_mode_impl.h — LoadAL0Tools (Load3DBitModeParam with mExtension = mStep = currentML0_, mStartPt =
posM, SetLoadDataRepeatWithStride dstStride = currentML0Align / 16), the weight load (Load2DBitModeParam per
nL0 block), and SetFixpipeIntriParams for CO2Layout::COLUMN_MAJOR (nSize = currentNL0_, mSize = currentML0_,
srcStride = AlignB(currentML0_, 16), dstStride = HoWo, dnNum = 1, srcNzC0Stride = 1), whose GM address is
out + cout0 * HoWo + posM; conv2d_v2_instr_base_impl.h SetLoad3dFMatrix (padList bottom = 255).

Two doc rules give way to that code, each a DocConflictWarning (strict: DocConflictError):
LoadData_3D.md 表4 "mExtension ... 如果不覆盖最下侧的分形 ... 应为16的倍数" (divergence L22) and
Fixpipe（L0C到GM数据搬运）.md 表2 "DN ... 地址需满足32字节对齐" (divergence C9). Their strict forms are
tested where the rules live (test_load3d_partial_window.py, test_fixpipe_quant.py).
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest
import torch
import torch.nn.functional as F
from hypothesis import given, settings
from hypothesis import strategies as st
from support.conv_layouts import C0, fmap_nc1hwc0, weights_bt_nz

from ascsim import (
    Core,
    DocConflictWarning,
    Load3DBitModeParam,
    LoadData3DParamsV2,
    LoadDataRepeatParamWithStride,
    MmadParams,
)
from ascsim.params import (
    CFG_COLUMN_MAJOR,
    FixpipeParamsArch3510,
    Load2DBitModeParam,
    Nz2DnParams,
    QuantMode_t,
)


def conv_950_nchw(x: np.ndarray, wt: np.ndarray, pad: int, ho_l0: int, n_l0: int, out_dtype: str):
    """One image: for every nL0 block of output channels and every chunk of ho_l0 * Wo output pixels, load
    the weights' block (B1 -> B2), the img2col window (A1 -> A2), Mmad, and Fixpipe NZ2DN into NCHW GM.
    Returns (y as (Cout, Ho, Wo), the Fixpipe GM byte addresses, every report's notes)."""
    cin, h, w = x.shape
    cout, _, kh, kw = wt.shape
    ho, wo = h + 2 * pad - kh + 1, w + 2 * pad - kw + 1
    howo = ho * wo
    core = Core("950")
    c1 = -(-cin // C0)
    al1 = core.tensor("A1", "half", c1 * h * w * C0, data=fmap_nc1hwc0(x))
    bt, n, k = weights_bt_nz(wt)
    bl1 = core.tensor("B1", "half", bt.size, data=bt)
    y = core.global_tensor(out_dtype, cout * howo)
    core.set_fmatrix(h, w, [pad, pad, pad, 255])  # SetLoad3dFMatrix: bottom stays MAX_PAD_R
    core.set_padding_value(0, "half")
    addrs, notes = [], []
    quant = QuantMode_t.F322F16 if out_dtype == "half" else QuantMode_t.NoQuant
    for n0 in range(0, n, n_l0):
        bl0 = core.tensor("B2", "half", n_l0 * k, offset=0)
        bp = Load2DBitModeParam()
        bp.SetMStartPosition(n0 // 16)
        bp.SetKStartPosition(0)
        bp.SetMStep(n_l0 // 16)
        bp.SetKStep(k // C0)
        bp.SetSrcStride(n // 16)
        bp.SetDstStride(n_l0 // 16)
        bp.SetIfTranspose(False)
        core.load_data(bl0, bl1, bp, dst_pos="B2", src_pos="B1")
        n_real = min(n_l0, cout - n0)
        for pos_m in range(0, howo, ho_l0 * wo):
            m = min(ho_l0 * wo, howo - pos_m)
            m_align = -(-m // 16) * 16
            core.set_load_data_repeat(LoadDataRepeatParamWithStride(0, 1, 0, m_align // 16))
            al0 = core.tensor("A2", "half", m_align * k, offset=0)
            cl0 = core.tensor("CO1", "float", m_align * n_l0, offset=0)
            p = Load3DBitModeParam(LoadData3DParamsV2(
                [0, 0, 0, 0], 0, 0, c1 * C0, k, m, 0, pos_m, 1, 1, kw, kh, 1, 1))
            notes += core.load_data(al0, al1, p, dst_pos="A2", src_pos="A1").notes
            core.mmad(cl0, al0, bl0, MmadParams(m, n_l0, k))
            fp = FixpipeParamsArch3510(nSize=n_real, mSize=m, srcStride=m_align, dstStride=howo,
                                       quantPre=quant,
                                       params=Nz2DnParams(1, n_l0 * m // 16, howo, 1))
            dst = y[n0 * howo + pos_m]
            addrs.append(dst.offset)
            notes += core.fixpipe(dst, cl0, fp, CFG_COLUMN_MAJOR).notes
    return y.read().reshape(cout, ho, wo), addrs, notes


CASES = [  # cin, h, w, cout, k, pad, ho_l0, n_l0, out dtype
    (16, 9, 10, 32, 3, 1, 4, 16, "half"),  # HoWo 90: windows 40 / 40 / 10 rows, two cout blocks
    (20, 6, 12, 24, 3, 1, 1, 16, "float"),  # windows of Wo = 12 rows; cout 24 = 16 + 8 (partial nSize)
]


@pytest.mark.parametrize("cin,h,w,cout,k,pad,ho_l0,n_l0,out_dtype", CASES,
                         ids=["half-40-row-windows", "float-12-row-windows"])
def test_950_conv2d_nchw_matches_torch(cin, h, w, cout, k, pad, ho_l0, n_l0, out_dtype) -> None:
    rng = np.random.default_rng(cin * w + cout)
    x = rng.standard_normal((cin, h, w)).astype(np.float16).astype(np.float64)
    wt = rng.standard_normal((cout, cin, k, k)).astype(np.float16).astype(np.float64)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        y, addrs, notes = conv_950_nchw(x, wt, pad, ho_l0, n_l0, out_dtype)
    unaligned = [a for a in addrs if a % 32]
    assert unaligned, "the case must write NCHW tiles at GM addresses that are not 32-B aligned"
    msgs = [str(c.message) for c in caught if issubclass(c.category, DocConflictWarning)]
    assert sum(m.startswith("Fixpipe: the doc page forbids this") for m in msgs) == len(unaligned)
    assert any(m.startswith("Load3DBitMode: the doc page forbids this") for m in msgs)
    assert {"C9", "L22"} <= set(notes)
    ref = F.conv2d(torch.from_numpy(x)[None], torch.from_numpy(wt), padding=pad)[0].numpy()
    if out_dtype == "half":  # one float sum per output, then RNE to half (F322F16)
        np.testing.assert_allclose(y, ref.astype(np.float16), rtol=2**-10, atol=2**-14)
    else:
        scale = F.conv2d(torch.from_numpy(np.abs(x))[None], torch.from_numpy(np.abs(wt)), padding=pad)[0]
        assert (np.abs(y - ref) <= 2.0**-20 * scale.numpy() + 1e-30).all()



def nz2dn_reference(src: np.ndarray, dst: np.ndarray, at: int, n_size: int, m_size: int, src_stride: int,
                    dst_stride: int, dn_num: int, src_mat: int, dst_mat: int, c0_stride: int) -> np.ndarray:
    """NZ2DN.md's pseudocode with byte addresses turned into element indices, starting at element `at`."""
    out = dst.copy()
    for h in range(dn_num):
        for i in range(-(-n_size // 16)):
            for j in range(16):
                if i * 16 + j >= n_size:
                    continue
                for k in range(m_size):
                    s = h * 16 * src_mat + i * 16 * src_stride + j + k * 16 * c0_stride
                    out[at + h * dst_mat + (i * 16 + j) * dst_stride + k] = src[s]
    return out


@settings(max_examples=30, deadline=None)
@given(data=st.data())
def test_nz2dn_at_any_gm_element_offset_equals_reference(data) -> None:
    """Behaviour 4 beyond the conv: NZ2DN tiles at every element offset, 32-B aligned or not; a misaligned
    one warns (C9) and writes what the pseudocode says."""
    dtype = data.draw(st.sampled_from(["float", "half"]))
    m = data.draw(st.integers(1, 40))
    n = data.draw(st.integers(1, 40))
    src_stride = data.draw(st.integers(-(-m // 16), 4))
    c0s = data.draw(st.integers(1, 2))
    dst_stride = m + data.draw(st.integers(0, 5))
    num = data.draw(st.integers(1, 2))
    dst_mat = n * dst_stride + data.draw(st.integers(0, 7))
    src_mat = data.draw(st.integers(0, 12))
    at = data.draw(st.integers(0, 40))
    core = Core("950")
    vals = np.random.default_rng(m * 41 + n).integers(-2000, 2000, 12288).astype(np.float32) / 8
    src = core.tensor("CO1", "float", 12288, data=vals)
    total = at + num * dst_mat + 64
    y = core.global_tensor(dtype, total)
    before = y.read_raw().view(np.float32 if dtype == "float" else np.float16).copy()
    fp = FixpipeParamsArch3510(nSize=n, mSize=m, srcStride=src_stride, dstStride=dst_stride,
                               quantPre=QuantMode_t.F322F16 if dtype == "half" else QuantMode_t.NoQuant,
                               params=Nz2DnParams(num, src_mat, dst_mat, c0s))
    misaligned = (y.offset + at * (4 if dtype == "float" else 2)) % 32 != 0
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        rep = core.fixpipe(y[at], src, fp, CFG_COLUMN_MAJOR)
    assert any(issubclass(c.category, DocConflictWarning) for c in caught) == misaligned
    assert ("C9" in rep.notes) == misaligned
    want = nz2dn_reference(vals.astype(before.dtype), before, at, n, m, src_stride, dst_stride, num, src_mat,
                           dst_mat, c0s)
    np.testing.assert_array_equal(y.read_raw(), want.view(y.read_raw().dtype))
