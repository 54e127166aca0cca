"""Operands the tests build again and again.

`load3d_operands` is the Load3D setup: a (C, H, W) array placed as the feature map in L1 (the layout
`ascsim.machine.layouts.chw_to_fmap_l1` writes, docs/layouts.md: NC1HWC0 with C0 channels innermost) and the
destination tensor in L0A or L0B; the LoadData3DParamsV2 stays with each test, since it is what the test is
about.
"""

from __future__ import annotations

import numpy as np

from ascsim.machine.layouts import chw_to_fmap_l1
from ascsim.machine.memory import memory_of


def fmap_l1(core, x: np.ndarray, *, pos: str = "A1", dtype="half", c0: int = 16, length: int | None = None,
            offset: int | None = None):
    """The (C, H, W) array `x` as a Load3D feature map in L1 at TPosition `pos`: a `dtype` tensor of `length`
    elements (default x.size) at byte `offset` (default: the next free one)."""
    n = x.size if length is None else length
    return core.tensor(pos, dtype, n, offset=offset, data=chw_to_fmap_l1(x, c0))


def load3d_operands(core, x: np.ndarray, dst_len: int | None = None, *, dst_pos: str = "A2",
                    src_pos: str | None = None, dtype="half", c0: int = 16, src_len: int | None = None,
                    src_offset: int | None = None, dst_offset: int | None = None):
    """A Load3D's (src, dst): `x` as the feature map (`fmap_l1`; in A1 for an L0A destination, B1 for L0B,
    unless `src_pos` is given) and a `dtype` destination of `dst_len` elements at `dst_pos` (default: the
    whole L0A / L0B memory)."""
    src = fmap_l1(core, x, pos=src_pos or ("B1" if dst_pos == "B2" else "A1"), dtype=dtype, c0=c0,
                  length=src_len, offset=src_offset)
    if dst_len is None:
        dst_len = core.memory(memory_of(dst_pos)).size * 8 // src.dtype.bits
    return src, core.tensor(dst_pos, dtype, dst_len, offset=dst_offset)
