"""Load3D destination placement against the per-width formulas of docs/load3d.md "Window and destination
layouts" (typed in here literally, independent of ascsim.layouts), including the partial-fractal corners
the hypothesis tests rarely reach: b32 transposed with M' not a multiple of 16, and the b32 L0B K-padding
example.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ascsim import Core, LoadData3DParamsV2
from ascsim.machine.layouts import cdiv

MARK = 0xCDCDCDCD


def _run(chip: str, dst_pos: str, m_ext: int, k_ext: int, transpose: bool, l1w: int = 20, ch: int = 24):
    """float feature map 1 x l1w (H = 1), 1x1 filter: img2col W[m][k] = X[k, 0, m] (the 2-D use, §3.9);
    element codes = src element index + 1 so the destination shows where each element came from."""
    core = Core(chip)
    src = core.tensor("A1", "float", ch * l1w)
    src.write_raw(np.arange(1, ch * l1w + 1, dtype=np.uint32))
    dst = core.tensor(dst_pos, "float", 4096)
    p = LoadData3DParamsV2([0, 0, 0, 0], 1, l1w, ch, k_ext, m_ext, 0, 0, 1, 1, 1, 1, 1, 1, transpose)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        core.load_data(dst, src, p)
    return dst.read_raw()


def _w(m: int, k: int, l1w: int = 20) -> int:
    """Raw code of W[m][k] for the map above: channel k of pixel m in NC1HWC0 (C0 = 8) + 1."""
    return ((k // 8) * l1w + m) * 8 + k % 8 + 1


def test_b32_l0a_transposed_a2_partial_m():
    """A2/A3 L0A transposed b32 (docs/load3d.md): (((k//16)·⌈M'/16⌉ + m//16)·2 + (m%16)//8)·128 + (k%16)·8
    + m%8, with M' = 20 (b32 has no M multiple rule; the window reaches the bottom fractal)."""
    m_ext, k_ext = 20, 24
    out = _run("a2", "A2", m_ext, k_ext, True)
    for m in range(m_ext):
        for k in range(k_ext):
            off = (((k // 16) * cdiv(m_ext, 16) + m // 16) * 2 + (m % 16) // 8) * 128 + (k % 16) * 8 + m % 8
            assert out[off] == _w(m, k), (m, k, off)


@pytest.mark.parametrize("chip", ["a2", "ascend950"])
def test_b32_l0b_k_padding_example(chip: str):
    """docs/load3d.md example: M' = 16, K' = 24 (Kp = 32): W[9][20] goes to 417 in L0B; offsets
    ((m//8)·Kp + k)·8 + m%8; rows k in [K', Kp) are not written."""
    out = _run(chip, "B2", 16, 24, False)
    assert out[417] == _w(9, 20)
    for m in range(16):
        for k in range(32):
            off = ((m // 8) * 32 + k) * 8 + m % 8
            assert out[off] == (_w(m, k) if k < 24 else MARK), (m, k)


@settings(max_examples=60, deadline=None)
@given(layout=st.sampled_from(["ZZ", "ZZ_T", "NZ", "NZ_T"]), bits=st.sampled_from([8, 16, 32]),
       hw=st.tuples(st.integers(1, 6), st.integers(1, 6)),
       kernel=st.tuples(st.integers(1, 3), st.integers(1, 3)),
       groups=st.integers(1, 3), m_ext=st.integers(1, 40), m_start=st.integers(0, 20),
       k_blocks=st.integers(1, 4), extra_stride=st.integers(0, 3))
def test_extent_first_bound_is_the_plans_exact_extent(layout, bits, hw, kernel, groups, m_ext, m_start,
                                                      k_blocks, extra_stride) -> None:
    """The destination extent checked before any plan is built (`load3d.dst_end`, arithmetic) is exactly the
    element plan's extent (`plan_img2col`), for every layout — so a window that overflows its destination is
    refused without building a plan (a fuzz finding: a transposed b8 window whose 32x32 squares reach past
    L0A was refused only after its plan was built)."""
    from ascsim.isa.load3d import Img2colSpec, dst_end, plan_img2col

    c0 = 256 // bits
    kh, kw = kernel
    k_total = groups * c0 * kh * kw
    k_ext = min(k_blocks * c0, k_total)
    rows = m_ext
    dense = -(-rows // 16) if layout == "NZ" else -(-k_ext // 16) if layout == "NZ_T" else 0
    spec = Img2colSpec("x", bits, layout, hw[0], hw[1], (1, 1, 1, 1), groups * c0, k_ext, m_ext, 0, m_start,
                       1, 1, kw, kh, 1, 1, dstStride=dense + extra_stride if dense else 0)
    assert dst_end(spec) == plan_img2col(spec, "Load3Dv2").units.dst_end
