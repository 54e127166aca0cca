"""LoadDataWithStride (950): Load3D v2 whose Nz column stride comes from SetLoadDataRepeatWithStride.

doc: LoadDataWithStride.md 功能说明 ("本接口本质上实现功能和LoadData（卷积数据搬运）接口一致",
"必须配置该参数").
Checked against the slow reference interpreter (isa/load3d_ref.py), which is written from the doc text.
"""

from __future__ import annotations

import numpy as np
import pytest
from support.operands import load3d_operands
from support.state import untouched

from ascsim import Core, LoadData3DParamsV2, LoadDataRepeatParamWithStride, ParamRangeError, UnsupportedError
from ascsim.isa.load3d_ref import ref_load3d_v2


def _setup(chip: str, dst_pos: str):
    core = Core(chip)
    x = np.random.default_rng(5).standard_normal((32, 5, 6)).astype(np.float16)
    src, dst = load3d_operands(core, x, 16 * 1024, dst_pos=dst_pos, src_pos="A1")
    return core, src, dst


# (l1H, l1W) = (5, 6), 3x3 filter, pad 1: Ho*Wo = 30 rows; K = 32*9 = 288 columns
P = LoadData3DParamsV2([1, 1, 1, 1], 5, 6, 32, 96, 32, 16, 0, 1, 1, 3, 3, 1, 1)


@pytest.mark.parametrize("dst_pos,stride", [("A2", 2), ("A2", 5), ("B2", 6), ("B2", 9)])
def test_matches_reference_with_register_stride(dst_pos: str, stride: int) -> None:
    core, src, dst = _setup("ascend950", dst_pos)
    core.set_load_data_repeat(LoadDataRepeatParamWithStride(dstStride=stride))
    before = dst.read_raw()
    core.load_data_with_stride(dst, src, P)
    want = ref_load3d_v2("ascend950", "half", dst_pos, src.read_raw(), 5, 6, [1, 1, 1, 1], 32, 96, 32, 16, 0,
                         1, 1, 3, 3, 1, 1, False, False, False, 0.0, (0, 1, 0), stride, before)
    np.testing.assert_array_equal(dst.read_raw(), want)


def test_requires_the_stride_register() -> None:
    core, src, dst = _setup("ascend950", "A2")
    with untouched(core), pytest.raises(ParamRangeError, match=r"^LoadDataWithStride: dstStride must be set"):
        core.load_data_with_stride(dst, src, P)


def test_only_on_950() -> None:
    core, src, dst = _setup("a2", "A2")
    with pytest.raises(UnsupportedError, match=r"^LoadDataWithStride"):
        core.load_data_with_stride(dst, src, P)


def test_mstartpt_range_is_the_v2_one() -> None:
    """LoadDataWithStride.md 表: mStartPt ∈ [0, 32767] (as for LoadData_3D.md 表4)."""
    core, src, dst = _setup("ascend950", "A2")
    core.set_load_data_repeat(LoadDataRepeatParamWithStride(dstStride=2))
    p = LoadData3DParamsV2([1, 1, 1, 1], 5, 6, 32, 96, 32, 16, 32768, 1, 1, 3, 3, 1, 1)
    msg = r"^LoadDataWithStride: mStartPt must be in \[0, 32767\], but got 32768"
    with pytest.raises(ParamRangeError, match=msg):
        core.load_data_with_stride(dst, src, p)
