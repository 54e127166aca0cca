"""Layout assertions (`ascsim.expect`, `[[expect]]` in scenarios).

References: torch.nn.functional.unfold for img2col (its column order (c, kh, kw) permuted to Load3D's
(channel group, kh, kw, c0) with a plain reshape), ascsim.layouts' converters and ascsim.isa.sparse's
densify (each a second implementation of the layout formulas / the densify table), and the instructions
themselves: a correct expectation passes, the same call with one parameter swapped fails and the report
names the first differing element with its explain line.
"""

from __future__ import annotations

import warnings
from pathlib import Path

import numpy as np
import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st
from support.operands import load3d_operands

from ascsim import Core, LoadData2DParams, LoadData2dTransposeParams, LoadData3DParamsV2
from ascsim.cli import main
from ascsim.expectations import LayoutMismatch, densify_2to4, expect, img2col, layout_offsets
from ascsim.isa.sparse import densify_2to4 as isa_densify
from ascsim.machine import layouts as L

# -- the builders -----------------------------------------------------------------------------------------


@pytest.mark.parametrize(("c", "kernel", "stride", "pad", "dil"), [
    (32, (3, 3), (1, 1), (1, 1, 1, 1), (1, 1)), (16, (2, 3), (2, 1), (0, 1, 2, 0), (1, 2)),
    (48, (1, 1), (1, 1), (0, 0, 0, 0), (1, 1))])
def test_img2col_matches_torch_unfold(c, kernel, stride, pad, dil) -> None:
    rng = np.random.default_rng(c)
    x = rng.standard_normal((c, 7, 9))
    got = img2col(x, kernel, stride, pad, dil, c0=16)
    left, right, top, bottom = pad
    xp = np.pad(x, ((0, 0), (top, bottom), (left, right)))
    u = torch.nn.functional.unfold(torch.from_numpy(xp[None]), kernel, dilation=dil, stride=stride)[0].numpy()
    kh, kw = kernel
    # torch: rows (c, kh, kw); Load3D: (c1, kh, kw, c0)
    ref = u.reshape(c // 16, 16, kh, kw, -1).transpose(4, 0, 2, 3, 1).reshape(u.shape[1], -1)
    np.testing.assert_array_equal(got, ref)


def test_img2col_small_channels_packed() -> None:
    """C = 20 (16 + a packed tail of 4, divergence L5): the tail group's columns are (kh, kw, c < 4)."""
    x = np.arange(20 * 4 * 4, dtype=np.float64).reshape(20, 4, 4)
    got = img2col(x, 3, pad=1, c0=16)
    for c in range(20):
        for a in range(3):
            for b in range(3):
                col = (a * 3 + b) * 16 + c if c < 16 else 9 * 16 + (a * 3 + b) * 4 + (c - 16)
                # row m = (ho, wo) = (1, 2): input (ho - 1 + a, wo - 1 + b)
                assert got[1 * 4 + 2, col] == x[c, a, 1 + b]


@settings(max_examples=40, deadline=None)
@given(rows=st.integers(1, 40), cols=st.integers(1, 70), c0=st.sampled_from([8, 16, 32]))
def test_layout_offsets_match_the_converters(rows: int, cols: int, c0: int) -> None:
    x = np.arange(rows * cols, dtype=np.float64).reshape(rows, cols) + 1
    for layout, conv in (("zz", L.nd_to_zz), ("nz", L.nd_to_nz), ("zn", L.nd_to_zn)):
        flat = conv(x, c0)
        offs = layout_offsets(layout, x.shape, c0)
        np.testing.assert_array_equal(flat[offs], x)


def test_fmap_offsets_match_the_converter() -> None:
    x = np.arange(20 * 3 * 5, dtype=np.float64).reshape(20, 3, 5) + 1
    flat = L.chw_to_fmap_l1(x, 16)
    np.testing.assert_array_equal(flat[layout_offsets("fmap", x.shape, 16)], x)


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 10_000), k=st.integers(1, 23), n=st.integers(1, 9))
def test_densify_matches_isa(seed: int, k: int, n: int) -> None:
    rng = np.random.default_rng(seed)
    b = np.zeros((k, n), dtype=np.int8)
    for g in range(0, k, 4):
        for j in range(n):
            rows = rng.choice(np.arange(g, min(g + 4, k)), rng.integers(0, min(2, min(g + 4, k) - g) + 1),
                              replace=False)
            b[rows, j] = rng.integers(1, 100, rows.size)
    np.testing.assert_array_equal(densify_2to4(b), isa_densify(b)[0])


# -- against the instructions --------------------------------------------------------------------------------


def _load3d(core: Core, x: np.ndarray, kernel: tuple[int, int], stride: tuple[int, int]):
    c, h, w = x.shape
    kh, kw = kernel
    sh, sw = stride
    ho, wo = (h + 2 - kh) // sh + 1, (w + 2 - kw) // sw + 1
    fm, l0a = load3d_operands(core, x, L.align(ho * wo, 16) * c * kh * kw)
    core.load_data(l0a, fm, LoadData3DParamsV2([1, 1, 1, 1], h, w, c, c * kh * kw, ho * wo, 0, 0, sw, sh, kw,
                                               kh, 1, 1))
    return l0a


def test_load3d_expectation_and_a_swapped_stride() -> None:
    x = (np.arange(16 * 6 * 7) % 251).reshape(16, 6, 7).astype(np.float64)
    core = Core("a2")
    l0a = _load3d(core, x, (3, 3), (2, 1))  # strideH = 2, strideW = 1
    r = expect(l0a, "zz", img2col(x, 3, stride=(2, 1), pad=1))
    assert r.ok and r.compared == 3 * 7 * 144
    with pytest.raises(LayoutMismatch) as e:
        expect(l0a, "zz", img2col(x, 3, stride=(1, 2), pad=1))  # the two strides swapped
    msg = str(e.value)
    assert msg.startswith("A2/L0A @0x0 as zz: ")
    first = e.value.result.first
    assert first is not None and first.memory == "L0A" and first.address == first.index * 2
    # the first differing element and its provenance, as explain prints it
    assert f"first: element {first.index} (L0A byte 0x{first.address:x}, fractal {first.fractal}) should " \
           f"hold ({first.logical[0]}, {first.logical[1]})" in msg
    assert "last written by Load3Dv2: dst[" in msg and "img2col (m " in msg
    svg = e.value.result.draw()
    assert svg.startswith("<?xml") and "fractal" in svg


def test_expect_on_950_nz_and_a_window() -> None:
    x = (np.arange(32 * 5 * 5) % 97).reshape(32, 5, 5).astype(np.float64)
    core = Core("ascend950")
    l0a = _load3d(core, x, (2, 2), (1, 1))
    full = img2col(x, 2, pad=1)
    assert expect(l0a, "nz", full).ok
    with pytest.raises(LayoutMismatch):
        expect(l0a, "zz", full)  # 950's L0A is Nz, not Zz
    # a window is laid out as a tile of its own: all rows and the first 128 columns of an Nz matrix sit where
    # they sit in the whole one; the first 16 rows as a tile have a column height of 16, not 48
    assert expect(l0a, "nz", full, rows=(0, 36), cols=(0, 128)).ok
    r = expect(l0a, "nz", full, rows=(0, 16), cols=(0, 128), check=False)
    assert not r.ok and r.first.logical[1] == 16  # the first element of the second column block


def test_load2d_transpose_into_l0b_is_zn_of_b() -> None:
    """LoadDataWithTranspose half: L1 Nz(B) -> L0B Zn(B) (examples/matmul.toml); LoadData2D without the
    transpose copies Nz fractals as they are, so Zn(B) fails and Zn(Bᵀ... ) of the raw fractals shows."""
    rng = np.random.default_rng(3)
    b = rng.integers(-50, 50, (48, 32)).astype(np.float64)
    core = Core("a2")
    b1 = core.tensor("B1", "half", b.size, data=L.nd_to_nz(b, 16))
    b2 = core.tensor("B2", "half", b.size)
    for k1 in range(3):
        core.load_data_with_transpose(b2[k1 * 2 * 256], b1[k1 * 256], LoadData2dTransposeParams(0, 2, 3))
    assert expect(b2, "zn", b).ok
    wrong = core.tensor("B2", "half", b.size, offset=b.size * 2)
    for k1 in range(3):  # the same fractals without the transpose (ifTranspose = false)
        core.load_data(wrong[k1 * 2 * 256], b1[k1 * 256], LoadData2DParams(0, 2, 3))
    with pytest.raises(LayoutMismatch, match=r"last written by LoadData2D"):
        expect(wrong, "zn", b)


def test_unwritten_element_is_named() -> None:
    core = Core("a2")
    t = core.tensor("A2", "half", 512)
    with pytest.raises(LayoutMismatch, match=r"no logged instruction wrote it \(it holds the fill marker"):
        expect(t, "nd", np.zeros((2, 256)))


def test_bad_arguments() -> None:
    from ascsim import ParamRangeError

    t = Core("a2").tensor("A2", "half", 256)
    with pytest.raises(ParamRangeError, match=r"^expect: layout must be one of nd, zz, nz, zn, fmap"):
        expect(t, "xx", np.zeros((16, 16)))
    with pytest.raises(ParamRangeError, match=r"^expect: layout 'zz' of a 32x16 window needs 512 elements"):
        expect(t, "zz", np.zeros((32, 16)))


# -- scenarios -----------------------------------------------------------------------------------------------

SCENARIO = """
description = "[[expect]] on a Load3D img2col and the feature map"
chip = "a2"
[tensors.x]
position = "A1"
dtype = "half"
shape = [16, 6, 6]
layout = "fmap"
init = "arange"
[tensors.l0a]
position = "A2"
dtype = "half"
length = 6912
[[steps]]
call = "LoadData"
dst = "l0a"
src = "x"
[steps.params]
type = "LoadData3DParamsV2"
padList = [1, 1, 1, 1]
l1H = 6
l1W = 6
channelSize = 16
kExtension = 144
mExtension = 36
filterW = 3
filterH = 3
[[expect]]
after = 0
tensor = "x"
layout = "fmap"
of = {{ tensor = "x" }}
[[expect]]
tensor = "l0a"
layout = "zz"
of = {{ img2col = "x", kernel = [3, 3], pad = [1, 1, 1, 1], stride = {stride} }}
"""


def test_scenario_expect_passes_and_fails(tmp_path: Path, capsys) -> None:
    good, bad = tmp_path / "good.toml", tmp_path / "bad.toml"
    good.write_text(SCENARIO.format(stride="[1, 1]"), encoding="utf-8")
    bad.write_text(SCENARIO.format(stride="[1, 2]"), encoding="utf-8")
    assert main(["run", str(good), "--out", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "expect: expect[0] (x as fmap of x, after step 0): all 576 elements match" in out
    assert "expect: expect[1] (l0a as zz of img2col(x), after step 0): all 5184 elements match" in out
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert main(["run", str(bad), "--out", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert "bad.toml: expect[1] (l0a as zz of img2col(x), after step 0): " in err
    assert "first: element 64 (L0A byte 0x80, fractal 0) should hold (4, 0) = 1 but holds 0; last written " \
           "by Load3Dv2" in err
    assert (tmp_path / "bad.expect.svg").exists()


def test_scenario_expect_schema_errors(tmp_path: Path) -> None:
    from ascsim.scenario import ScenarioError, load_scenario

    p = tmp_path / "s.toml"
    p.write_text(SCENARIO.format(stride="[1, 1]").replace('layout = "zz"', 'layout = "zy"'), encoding="utf-8")
    with pytest.raises(ScenarioError, match=r"^s.toml: expect\[1\].layout: unknown layout 'zy'"):
        load_scenario(p)
    p.write_text(SCENARIO.format(stride="[1, 1]").replace('img2col = "x"', 'img2col = "y"'), encoding="utf-8")
    with pytest.raises(ScenarioError, match=r"^s.toml: expect\[1\].of.img2col: no tensor named 'y'"):
        load_scenario(p)
