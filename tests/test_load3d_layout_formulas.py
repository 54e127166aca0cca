"""Load3D destination placement against the per-width formulas printed in CONCEPTS §3.2 (typed in here
literally, independent of ascsim.layouts), including the partial-fractal corners the hypothesis tests
rarely reach: b32 transposed with M' not a multiple of 16, and the b32 L0B K-padding example.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest

from ascsim import Core, LoadData3DParamsV2
from ascsim.layouts import cdiv

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
    """A2/A3 L0A transposed b32 (CONCEPTS §3.2): (((k//16)·⌈M'/16⌉ + m//16)·2 + (m%16)//8)·128 + (k%16)·8
    + m%8, with M' = 20 (b32 has no M multiple rule; the window reaches the bottom fractal)."""
    m_ext, k_ext = 20, 24
    out = _run("a2", "A2", m_ext, k_ext, True)
    for m in range(m_ext):
        for k in range(k_ext):
            off = (((k // 16) * cdiv(m_ext, 16) + m // 16) * 2 + (m % 16) // 8) * 128 + (k % 16) * 8 + m % 8
            assert out[off] == _w(m, k), (m, k, off)


@pytest.mark.parametrize("chip", ["a2", "ascend950"])
def test_b32_l0b_k_padding_example(chip: str):
    """CONCEPTS §3.2: M' = 16, K' = 24 (Kp = 32): W[9][20] goes to 417 in L0B; offsets
    ((m//8)·Kp + k)·8 + m%8; rows k in [K', Kp) are not written."""
    out = _run(chip, "B2", 16, 24, False)
    assert out[417] == _w(9, 20)
    for m in range(16):
        for k in range(32):
            off = ((m // 8) * 32 + k) * 8 + m % 8
            assert out[off] == (_w(m, k) if k < 24 else MARK), (m, k)
