"""The C++-spelled facade (ascsim.ascendc): kernels transliterated line by line give the results numpy
computes from the doc definitions; SetFmatrix's bit-mode form packs its fields as SetFmatrixBitMode.md 表3.
"""

from __future__ import annotations

import numpy as np
import pytest
import torch
import torch.nn.functional as F
from support.operands import load3d_operands

import ascsim.ascendc as AscendC
from ascsim import AscsimError, Core, UnsupportedError
from ascsim.ascendc import (
    FmatrixMode,
    Load3DBitModeParam,
    LoadData2DParams,
    LoadData2dTransposeParams,
    LoadData3DParamsV2,
    LoadDataRepeatParamWithStride,
    MmadParams,
    SetFMatrixBitModeParams,
    TPosition,
    use,
)
from ascsim.machine.layouts import nd_to_nz, nz_to_nd, zz_to_nd


def img2col_ref(x: np.ndarray, k: int, pad: int, dilation: int) -> np.ndarray:
    """torch unfold rearranged to the doc's column order (c1, kh, kw, c0) with C0 = 16."""
    c = x.shape[0]
    u = F.unfold(torch.from_numpy(x.astype(np.float32))[None], k, dilation=dilation, padding=pad)[0]
    return u.reshape(c // 16, 16, k, k, -1).permute(4, 0, 2, 3, 1).reshape(u.shape[1], -1).numpy()


def test_seed_kernel_on_950_through_the_facade():
    """Seed 000/001 example, written as the kernel would be: SetFmatrix (bit-mode form) +
    LoadData<A2, A1, half>(bitModeParam); 950 L0A is Nz."""
    core = Core("ascend950")
    x = np.arange(32 * 16, dtype=np.float32).reshape(32, 4, 4).astype(np.float16)
    fm_a1, fm_a2 = load3d_operands(core, x, 16 * 128)
    pad_list = [1, 1, 1, 1]
    param = LoadData3DParamsV2(pad_list, 4, 4, 32, 128, 16, 0, 0, 1, 1, 2, 2, 2, 2, False, False, 0.0)
    with use(core):
        AscendC.SetFmatrix(SetFMatrixBitModeParams(param), FmatrixMode.FMATRIX_LEFT)
        AscendC.SetLoadDataPaddingValue(0.0, "half")
        AscendC.LoadData(fm_a2, fm_a1, Load3DBitModeParam(param), Dst=TPosition.A2, Src=TPosition.A1)
    got = nz_to_nd(fm_a2.read(), 16, 128, 16).astype(np.float32)
    np.testing.assert_array_equal(got, img2col_ref(x, 2, 1, 2))


def test_set_fmatrix_bitmode_fields():
    """SetFmatrixBitMode.md 表3: l1H [15:0], l1W [31:16], padList0..3 8 bits each from bit 32."""
    p = SetFMatrixBitModeParams()
    p.SetL1H(0x1234)
    assert p.GetConfig0() == 0x1234
    p.SetL1W(0x0ABC)
    assert p.GetConfig0() == 0x0ABC_1234
    p.SetPadList([1, 2, 3, 4])
    assert p.GetConfig0() == 0x04_03_02_01_0ABC_1234
    with pytest.raises(AscsimError, match=r"^SetFMatrixBitModeParams: l1H is a 16-bit field"):
        p.SetL1H(1 << 16)
    q = SetFMatrixBitModeParams(LoadData3DParamsV2([5, 6, 7, 8], 9, 10))
    assert q.as_dict() == {"l1H": 9, "l1W": 10, "padList0": 5, "padList1": 6, "padList2": 7, "padList3": 8}


def test_set_fmatrix_bitmode_only_on_950_and_l1h_range():
    core = Core("a2")
    with use(core), pytest.raises(UnsupportedError, match=r"^SetFmatrixBitMode"):
        AscendC.SetFmatrix(SetFMatrixBitModeParams(LoadData3DParamsV2([0, 0, 0, 0], 4, 4)))
    core = Core("ascend950")
    before = core.regs.fmatrix_left
    with use(core), pytest.raises(AscsimError, match=r"^SetFmatrixBitMode: l1H must be in \[1, 32767\]"):
        AscendC.SetFmatrix(SetFMatrixBitModeParams(LoadData3DParamsV2([0, 0, 0, 0], 0, 4)))
    assert core.regs.fmatrix_left == before


def test_matmul_kernel_on_a2_through_the_facade():
    """A (32 x 64 half, Nz in L1) -> L0A Zz with one LoadData2D per fractal row (LoadData_2D.md 调用示例);
    B stored as B^T (Nz, n-major) -> L0B Zn with LoadDataWithTranspose; Mmad; C read as Nz."""
    core = Core("a2")
    rng = np.random.default_rng(1)
    m, k, n = 32, 64, 16
    a = rng.integers(-4, 5, (m, k)).astype(np.float16)
    b = rng.integers(-4, 5, (k, n)).astype(np.float16)
    a1 = core.tensor("A1", "half", m * k, data=nd_to_nz(a, 16))
    b1 = core.tensor("B1", "half", k * n, data=nd_to_nz(b, 16))  # Nz of B (k rows): fractal (k1, 0) at k1
    a2 = core.tensor("A2", "half", m * k)
    b2 = core.tensor("B2", "half", k * n)
    c1 = core.tensor("CO1", "float", m * n)
    with use(core):
        for i in range(m // 16):  # Zz row i: Nz fractals i, i + M1, ... (startIndex i, srcStride M1)
            AscendC.LoadData(a2[i * (k // 16) * 256], a1, LoadData2DParams(i, k // 16, m // 16))
        # each 16x16 fractal of Nz(B) transposed = the Zn fractal (B's fractal (k1, 0) -> L0B fractal k1)
        AscendC.LoadDataWithTranspose(b2, b1, LoadData2dTransposeParams(0, k // 16, 1, 0, 0))
        AscendC.Mmad(c1, a2, b2, MmadParams(m, n, k))
    assert zz_to_nd(a2.read(), m, k, 16).tolist() == a.tolist()
    got = nz_to_nd(c1.read(), m, n, 16)
    np.testing.assert_array_equal(got, a.astype(np.float64) @ b.astype(np.float64))


def test_load_data_with_stride_facade_needs_the_register():
    core = Core("ascend950")
    x = np.ones((16, 4, 4), dtype=np.float16)
    src, dst = load3d_operands(core, x, 16 * 64, dst_pos="B2")
    p = LoadData3DParamsV2([0, 0, 0, 0], 4, 4, 16, 16, 16)
    with use(core):
        with pytest.raises(AscsimError, match=r"^LoadDataWithStride: dstStride must be set"):
            AscendC.LoadDataWithStride(dst, src, p)
        AscendC.SetLoadDataRepeatWithStride(LoadDataRepeatParamWithStride(dstStride=1))
        report = AscendC.LoadDataWithStride(dst, src, p)
    assert report.bytes_written == 16 * 16 * 2


def test_register_setters_need_a_core():
    with pytest.raises(AscsimError, match="no current Core"):
        AscendC.SetLoadDataPaddingValue(1.0)
