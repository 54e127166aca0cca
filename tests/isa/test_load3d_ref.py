"""Load3D fast path (plans) == the slow reference interpreter (ascsim.isa.load3d_ref), on raw codes.

Property tests over random img2col geometries (pads, strides, dilations, non-square filters,
filterSize +256), channel forms (doc: LoadData_3D.md channelsize_constraint id36/id37), windows,
partial last fractals, enTranspose, the repeat register (SetLoadDataRepeat.md) and the 950
dstStride, for L0A and L0B on every chip profile that documents Load3Dv2; v2Pro and BitMode equal
their V2 twin; v1 on the Atlas training / inference AI Core profiles.

Self-describing inputs: the L1 source holds distinct raw codes (its own element index, skipping the
pad code) and the rest of memory keeps the 0xCD marker, so the whole destination memory is compared
— elements the instruction must not touch included. The case generators and the two runners are
tests/support/load3d_cases.py (test_load3d_torch.py and engine/test_gather_grid.py draw the same cases).
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from support.load3d_cases import (
    V2_TARGETS,
    V1Case,
    V2Case,
    check_v1,
    check_v2,
    source_codes,
    v1_cases,
    v2_cases,
)

from ascsim.isa.load3d_ref import channel_groups_ref, fmap_offset_ref, ref_load3d_v1, ref_load3d_v2
from ascsim.machine.chips import get_chip
from ascsim.machine.dtypes import get_dtype
from ascsim.params import LoadData3DParamsV1, LoadData3DParamsV2

SETTINGS = settings(max_examples=40, deadline=None)


# ------------------------------------------------------------------------------------------- tests


def test_every_v2_chip_is_covered() -> None:
    chips = {c for c, _ in V2_TARGETS}
    assert {"a2", "a3", "ascend950", "atlas200i500a2", "inference_aicore", "kirin_x90"} <= chips


@pytest.mark.parametrize(("chip", "dst"), V2_TARGETS, ids=[f"{c}-{d}" for c, d in V2_TARGETS])
def test_v2_fast_path_equals_reference(chip: str, dst: str) -> None:
    @SETTINGS
    @given(case=v2_cases(chip, dst))
    def run(case: V2Case) -> None:
        check_v2(case)

    run()


REPEAT_TARGETS = [(c, d) for c, d in V2_TARGETS if get_chip(c).supports("SetLoadDataRepeat")]


@pytest.mark.parametrize(("chip", "dst"), REPEAT_TARGETS, ids=[f"{c}-{d}" for c, d in REPEAT_TARGETS])
def test_v2_repeat_register_equals_reference(chip: str, dst: str) -> None:
    """SetLoadDataRepeat with repeatTime 2..3 in both modes: the repeats form one big matrix (Repeat Mode)."""

    @settings(max_examples=15, deadline=None)
    @given(case=v2_cases(chip, dst, force_repeat=True))
    def run(case: V2Case) -> None:
        check_v2(case)

    run()


@pytest.mark.parametrize(("chip", "dst"), V2_TARGETS, ids=[f"{c}-{d}" for c, d in V2_TARGETS])
def test_v2pro_equals_v2_reference(chip: str, dst: str) -> None:
    """v2Pro takes l1H/l1W/padList/padValue from SetFmatrix / SetLoadDataPaddingValue (表5)."""

    @settings(max_examples=15, deadline=None)
    @given(case=v2_cases(chip, dst))
    def run(case: V2Case) -> None:
        check_v2(case, "v2pro")

    run()


@pytest.mark.parametrize("dst", ["L0A", "L0B"])
def test_bitmode_equals_v2_reference_on_950(dst: str) -> None:
    """Load3DBitModeParam(v2) with the registers set equals the V2 reference (seed 000)."""

    @settings(max_examples=20, deadline=None)
    @given(case=v2_cases("ascend950", dst))
    def run(case: V2Case) -> None:
        check_v2(case, "bitmode")

    run()


RIGHT_TARGETS = [(c, d) for c, d in V2_TARGETS if c not in ("inference_aicore",)]


@pytest.mark.parametrize(("chip", "dst"), RIGHT_TARGETS, ids=[f"{c}-{d}" for c, d in RIGHT_TARGETS])
def test_v2_right_fmatrix_equals_reference(chip: str, dst: str) -> None:
    """fMatrixCtrl = true with the geometry in the right bank (SetFmatrix FMATRIX_RIGHT) equals the reference
    (divergence L11); v2 with isSetFMatrix = false, v2Pro and (950) BitMode."""

    flavors = ["v2", "v2pro"] + ["bitmode"] * (chip == "ascend950")

    @settings(max_examples=10, deadline=None)
    @given(case=v2_cases(chip, dst), flavor=st.sampled_from(flavors))
    def run(case: V2Case, flavor: str) -> None:
        check_v2(case, flavor, bank="right")

    run()


# Explicit filterSize +256 examples (表4 filterSizeW/H: "将卷积核width增加256个元素") with a wide
# feature map (l1W = 260) rather than big pads.
@pytest.mark.parametrize("chip", ["a2", "ascend950", "inference_aicore"])
def test_filter_size_256_wide_map(chip: str) -> None:
    # half, 4 channels, l1W 260, Kw = 256 + 1 -> Wo = 4; kernel column k = kw*4 + c.
    p = LoadData3DParamsV2([0, 0, 1, 0], 2, 260, 4, 64, 16, 960, 0, 1, 1, 1, 2, 1, 1, False, False, 2.0,
                           True, False)
    check_v2(V2Case(chip, "half", "L0A", p, (0, 1, 0), 0))
    # Kh = 256 + 0 (filterH = 0 with filterSizeH is *not* a NOP) over a tall map, L0B.
    p = LoadData3DParamsV2([1, 0, 0, 0], 258, 2, 8, 48, 16, 2000, 0, 1, 1, 1, 0, 1, 1, False, False, 2.0,
                           False, True)
    check_v2(V2Case(chip, "half", "L0B", p, (0, 1, 0), 0))


def test_filter_size_256_reference_picks_expected_pixels() -> None:
    """Hand check of the reference itself: Kw = 257 over l1W = 260 (Wo = 4), one channel group of 4:
    column k -> kw = k // 4, c = k % 4; rows past Wo continue into ho = 1, outside l1H = 1 -> pad."""
    dt = get_dtype("half")
    codes = source_codes(dt, 4 * 260, 0x7777)
    out = ref_load3d_v2("a2", dt, "L0A", codes, 1, 260, [0, 0, 0, 0], 4, 20, 16, 1008, 0, 1, 1, 1, 1, 1, 1,
                        True, False, False, 0x7777, (0, 1, 0), 0, np.zeros(512, np.uint16))
    written = np.zeros(512, bool)
    for m in range(16):
        for cc in range(20):  # kExtension 20 reaches the right edge (C*Kh*Kw = 1028): partial fractal
            k = 1008 + cc
            kw, c = k // 4, k % 4
            ho, wo = divmod(m, 4)
            want = 0x7777 if ho >= 1 or wo + kw >= 260 else codes[(wo + kw) * 4 + c]
            off = (cc // 16) * 256 + m * 16 + cc % 16  # Zz(16 x 20): two fractals side by side
            assert out[off] == want, (m, cc)
            written[off] = True
    assert (out[~written] == 0).all()  # the rest of the partial fractal is untouched


def test_reference_nop_cases() -> None:
    """约束说明: any of l1H/l1W/channelSize/kExtension/mExtension = 0, filterW = 0 without filterSizeW,
    repeatTime = 0 -> the destination is unchanged."""
    init = np.arange(512, dtype=np.uint16)
    base = dict(l1H=2, l1W=2, padList=[0, 0, 0, 0], channelSize=16, kExtension=16, mExtension=16, kStartPt=0,
                mStartPt=0, strideW=1, strideH=1, filterW=1, filterH=1, dilationW=1, dilationH=1,
                filterSizeW=False, filterSizeH=False, enTranspose=False, pad_value=0, dst_init=init)
    fmap = np.arange(64, dtype=np.uint16) + 1000
    for change in ({"l1H": 0}, {"l1W": 0}, {"channelSize": 0}, {"kExtension": 0}, {"mExtension": 0},
                   {"filterW": 0}, {"filterH": 0}, {"repeat": (0, 0, 0)}):
        out = ref_load3d_v2("a2", "half", "L0A", fmap, **{**base, **change})
        assert (out == init).all(), change
    assert not (ref_load3d_v2("a2", "half", "L0A", fmap, **base) == init).all()


def test_reference_l1_layout_and_groups() -> None:
    """divergence L5 / layouts.md NC1HWC0 example: half C = 20, H = 2, W = 3: (c 18, h 1, w 2) -> tail."""
    assert channel_groups_ref(20, 16) == [(0, 16), (16, 4)]
    assert channel_groups_ref(32, 16) == [(0, 16), (16, 16)]
    assert fmap_offset_ref(5, 1, 2, 20, 2, 3, 16) == ((0 * 2 + 1) * 3 + 2) * 16 + 5
    assert fmap_offset_ref(18, 1, 2, 20, 2, 3, 16) == 16 * 6 + (1 * 3 + 2) * 4 + 2


def test_reference_concepts_worked_example() -> None:
    """docs/load3d.md img2col example: half C 16, 3x3, pads 1, Kh = Kw = 2: W[5][37] is X(c 5, h 1, w 0)."""
    dt = get_dtype("half")
    codes = source_codes(dt, 16 * 9, 0)
    out = ref_load3d_v2("a2", dt, "L0A", codes, 3, 3, [1, 1, 1, 1], 16, 64, 16, 0, 0, 1, 1, 2, 2, 1, 1,
                        False, False, False, 0, (0, 1, 0), 0, np.zeros(1024, np.uint16))
    # Zz(16 x 64): (r 5, c 37) -> fractal (0, 2): 2*256 + 5*16 + 5
    assert out[2 * 256 + 5 * 16 + 5] == codes[(1 * 3 + 0) * 16 + 5]


# ------------------------------------------------------------------------------------------- v1


SEED_V1 = LoadData3DParamsV1([1, 1, 1, 1], 4, 4, 0, 0, 0, -1, -1, 1, 1, 2, 2, 2, 2, 1, 0, 8, 0, 0.0)


@pytest.mark.parametrize("chip", ["training", "inference_aicore"])
def test_v1_fast_path_equals_reference(chip: str) -> None:
    @settings(max_examples=40, deadline=None)
    @given(case=v1_cases(chip))
    @example(case=V1Case(chip, "half", "L0A", SEED_V1, 2))
    def run(case: V1Case) -> None:
        check_v1(case)

    run()


def test_v1_reference_csize_hand_example() -> None:
    """cSize = 1 (b16: 4 channels per pixel, packed (H, W, 4)): column j reads kernel point j // 4,
    channel j % 4; repeatMode 0 advances C0/4 = 4 kernel points per repeat (divergence L13)."""
    dt = get_dtype("half")
    codes = np.arange(1, 3 * 3 * 4 + 1, dtype=np.uint16)  # X[c, h, w] at (h*3 + w)*4 + c
    out = ref_load3d_v1("inference_aicore", dt, "L0A", codes, 3, 3, [0, 0, 0, 0], 0, 0, 0, 0, 0, 1, 1, 2, 2,
                        1, 1, 1, 0, 2, 1, 0, np.zeros(512, np.uint16))
    # Kh = Kw = 2 -> 4 kernel points; repeat 0 covers points 0..3, repeat 1 points 4..7 (all pad = 0).
    # Positions: Wo = 2 (windows at w 0, 1), then wrap: p -> (p // 2, p % 2).
    for i in range(16):
        hs, ws = i // 2, i % 2
        for j in range(16):
            kh, kw, c = (j // 4) // 2, (j // 4) % 2, j % 4
            h, w = hs + kh, ws + kw
            want = codes[(h * 3 + w) * 4 + c] if h < 3 and w < 3 else 0
            assert out[i * 16 + j] == want, (i, j)
    assert (out[256:] == 0).all()


@pytest.mark.parametrize(("chip", "dst"), [("a2", "L0A"), ("ascend950", "L0A"), ("a2", "L0B")],
                         ids=["a2-L0A", "ascend950-L0A", "a2-L0B"])
def test_v2_arithmetic_block_path_equals_reference(chip: str, dst: str, monkeypatch) -> None:
    """Maps too large for the cached padded-index image (IMAGE_CAP) compute the source blocks from the
    coordinates instead: that path, forced here for every map, also matches the reference interpreter."""
    from ascsim.engine.boundary import CALLS
    from ascsim.engine.cache import PLANS
    from ascsim.isa import load3d

    monkeypatch.setattr(load3d, "IMAGE_CAP", 0)

    @settings(max_examples=25, deadline=None)
    @given(case=v2_cases(chip, dst))
    def run(case: V2Case) -> None:
        CALLS.clear()  # no unit plan built by the image path may be reused
        PLANS.clear()
        check_v2(case)

    try:
        run()
    finally:
        CALLS.clear()
        PLANS.clear()
