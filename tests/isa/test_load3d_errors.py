"""Every Load3D / load-register validation rule: its exception class, the start of its message, and
no partial write (every memory byte-identical, registers unchanged) after the failing call.

Rules come from LoadData_3D.md (表3 v1, 表4 v2, 表5 v2Pro, 约束说明), LoadData_3D_BitMode.md / seed 000
(表4/表5), seed 001, 矩阵搬入辅助配置接口/{SetFmatrix, SetLoadDataPaddingValue, SetLoadDataRepeat,
SetLoadDataRepeatWithStride, SetLoadDataBoundary}.md and 矩阵计算输入搬运约束.md (对齐约束); the chosen
semantics are docs/load3d.md and docs/divergences.md. Each row's id names the rule; its comment cites the doc.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial

import numpy as np
import pytest
from support.basis import assert_basis
from support.state import assert_memories_unchanged, memories, untouched

from ascsim import (
    AlignmentError,
    BoundsError,
    Core,
    DocConflictError,
    HazardError,
    HazardWarning,
    IsResetLoad3dConfig,
    Load3DBitModeParam,
    LoadData3DParamsV1,
    LoadData3DParamsV2,
    LoadData3DParamsV2Pro,
    LoadDataRepeatParam,
    LoadDataRepeatParamWithStride,
    OverlapError,
    ParamRangeError,
    UnsupportedError,
)
from ascsim.machine.dtypes import get_dtype, pad_pattern
from ascsim.machine.registers import Fmatrix

KH = KW = 3  # baseline: C0 channels, 4x4 map, pads 1, 3x3 kernel -> Ho = Wo = 4, M = 16, K = 9*C0


def c0_of(dtype: str) -> int:
    return 256 // get_dtype(dtype).bits


def fill_random(t, seed: int = 0) -> None:
    """Self-describing-enough source: random raw bit patterns (no marker bytes by construction)."""
    rng = np.random.default_rng(seed)
    hi = 1 << t.dtype.bits
    t.write_raw(rng.integers(0, min(hi, 1 << 16), size=t.length).astype(np.int64) % hi)


def fmap(
    core: Core,
    dtype: str = "half",
    pos: str = "A1",
    channels: int | None = None,
    h: int = 4,
    w: int = 4,
    offset: int | None = None,
    length: int | None = None,
):
    c = channels or c0_of(dtype)
    n = length if length is not None else c * h * w
    t = core.tensor(pos, dtype, n, offset=offset)
    fill_random(t)
    return t


def l0(
    core: Core, dtype: str = "half", pos: str = "A2", length: int | None = None, offset: int | None = None
):
    return core.tensor(
        pos, dtype, length if length is not None else 16 * KH * KW * c0_of(dtype), offset=offset
    )


def v2(dtype: str = "half", **kw) -> LoadData3DParamsV2:
    c0 = c0_of(dtype)
    base = dict(
        padList=[1, 1, 1, 1],
        l1H=4,
        l1W=4,
        channelSize=c0,
        kExtension=KH * KW * c0,
        mExtension=16,
        kStartPt=0,
        mStartPt=0,
        strideW=1,
        strideH=1,
        filterW=KW,
        filterH=KH,
        dilationFilterW=1,
        dilationFilterH=1,
        padValue=0,
    )
    base.update(kw)
    return LoadData3DParamsV2(**base)


def v1(**kw) -> LoadData3DParamsV1:
    base = dict(padList=[0, 0, 0, 0], l1H=2, l1W=8, filterW=1, filterH=1, repeatMode=1, repeatTime=1)
    base.update(kw)
    return LoadData3DParamsV1(**base)


def bitmode(dtype: str = "half", **fields) -> Load3DBitModeParam:
    p = Load3DBitModeParam(v2(dtype))
    for name, value in fields.items():
        p.set(name, value)
    return p


def load_v2(dtype: str = "half", dst_pos: str = "A2", config=None, fmap_kw=None, dst_kw=None, **kw):
    """Thunk factory: allocate a feature map and a destination, return the LoadData call."""

    def make(core: Core) -> Callable[[], object]:
        src = fmap(core, dtype, **(fmap_kw or {}))
        dst = l0(core, dtype, dst_pos, **(dst_kw or {}))
        return lambda: core.load_data(dst, src, v2(dtype, **kw), config)

    return make


def load_v2pro(dtype: str = "half", **kw):
    def make(core: Core) -> Callable[[], object]:
        if core.chip.supports("SetFmatrix"):
            core.set_fmatrix(4, 4, [1, 1, 1, 1])
        src, dst = fmap(core, dtype), l0(core, dtype)
        p = LoadData3DParamsV2Pro.from_v2(v2(dtype))
        for k, v in kw.items():
            setattr(p, k, v)
        return lambda: core.load_data(dst, src, p)

    return make


def load_bitmode(
    dtype: str = "half",
    dst_pos: str | None = "A2",
    src_pos: str | None = "A1",
    tensors: tuple[str, str] = ("A2", "A1"),
    l1H: int = 4,
    **fields,
):
    def make(core: Core) -> Callable[[], object]:
        if core.chip.supports("SetFmatrix"):
            core.set_fmatrix(l1H, 4, [1, 1, 1, 1])  # BitMode reads l1H/l1W/padList from FMATRIX
        src, dst = fmap(core, dtype, tensors[1], h=l1H), l0(core, dtype, tensors[0])
        p = bitmode(dtype, **fields)
        return lambda: core.load_data(dst, src, p, dst_pos=dst_pos, src_pos=src_pos)

    return make


def load_v1(dtype: str = "half", **kw):
    def make(core: Core) -> Callable[[], object]:
        src = fmap(core, dtype, h=2, w=8)
        dst = l0(core, dtype, length=16 * c0_of(dtype) * 4)
        return lambda: core.load_data(dst, src, v1(**kw))

    return make


def load_with(params: Callable[[], object], src_kw: dict, dst_kw: dict):
    """Thunk factory with free-form tensors: fmap(**src_kw), l0(**dst_kw), LoadData(params())."""

    def make(core: Core) -> Callable[[], object]:
        src, dst = fmap(core, **src_kw), l0(core, **dst_kw)
        return lambda: core.load_data(dst, src, params())

    return make


def with_repeat(make, **rep):
    """Set the repeat register first (part of the pre-state), then the load."""

    def wrapped(core: Core) -> Callable[[], object]:
        core.set_load_data_repeat(LoadDataRepeatParam(**rep))
        return make(core)

    return wrapped


def reg_call(method: str, *args):
    def make(core: Core) -> Callable[[], object]:
        return lambda: getattr(core, method)(*args)

    return make


@dataclass
class Case:
    id: str
    chip: str
    make: Callable[[Core], Callable[[], object]]
    exc: type[Exception]
    match: str
    strict: bool = False
    marks: list = field(default_factory=list)


R = ParamRangeError
U = UnsupportedError
half_c0_forms = r"4, 8, N\*16, N\*16\+4, N\*16\+8 \(N >= 1\)"

CASES = [
    # ---- v2 field ranges (LoadData_3D.md 表4) ----------------------------------------------------
    Case(
        "v2-padList-entry>255",
        "a2",
        load_v2(padList=[1, 256, 1, 1]),
        R,
        r"^Load3Dv2: padList\[1\] must be in \[0, 255\], but got 256",
    ),
    Case(
        "v2-padList-not-4-entries",
        "a2",
        load_v2(padList=[1, 1, 1]),
        R,
        r"^Load3Dv2: padList must have 4 entries \[left, right, top, bottom\], but got \[1, 1, 1\]",
    ),
    Case(
        "v2-l1H>32767", "a2", load_v2(l1H=32768), R, r"^Load3Dv2: l1H must be in \[0, 32767\], but got 32768"
    ),
    Case("v2-l1W<0", "a2", load_v2(l1W=-1), R, r"^Load3Dv2: l1W must be in \[0, 32767\], but got -1"),
    Case(
        "v2-l1H-not-integer",
        "a2",
        load_v2(l1H=3.5),
        R,
        r"^Load3Dv2: l1H must be an integer in \[0, 32767\], but got 3\.5",
    ),
    Case(
        "v2-channelSize>65535",
        "a2",
        load_v2(channelSize=65536),
        R,
        r"^Load3Dv2: channelSize must be in \[0, 65535\], but got 65536",
    ),
    Case(
        "v2-kExtension>65535",
        "a2",
        load_v2(kExtension=65536),
        R,
        r"^Load3Dv2: kExtension must be in \[0, 65535\], but got 65536",
    ),
    Case(
        "v2-mExtension>65535",
        "a2",
        load_v2(mExtension=65536),
        R,
        r"^Load3Dv2: mExtension must be in \[0, 65535\], but got 65536",
    ),
    Case(
        "v2-kStartPt>65535",
        "a2",
        load_v2(kStartPt=65536),
        R,
        r"^Load3Dv2: kStartPt must be in \[0, 65535\], but got 65536",
    ),
    Case(
        "v2-mStartPt>32767",
        "a2",
        load_v2(mStartPt=32768),
        R,
        r"^Load3Dv2: mStartPt must be in \[0, 32767\], but got 32768",
    ),
    # 表4 writes [0, 63] for the strides; 0 has no meaning (Ho = .../0): ascsim takes [1, 63] (表3, BitMode).
    Case("v2-strideW=0", "a2", load_v2(strideW=0), R, r"^Load3Dv2: strideW must be in \[1, 63\], but got 0"),
    Case(
        "v2-strideH>63", "a2", load_v2(strideH=64), R, r"^Load3Dv2: strideH must be in \[1, 63\], but got 64"
    ),
    Case(
        "v2-filterW>255",
        "a2",
        load_v2(filterW=256),
        R,
        r"^Load3Dv2: filterW must be in \[0, 255\], but got 256",
    ),
    Case(
        "v2-filterH<0", "a2", load_v2(filterH=-1), R, r"^Load3Dv2: filterH must be in \[0, 255\], but got -1"
    ),
    Case(
        "v2-dilationFilterW=0",
        "a2",
        load_v2(dilationFilterW=0),
        R,
        r"^Load3Dv2: dilationFilterW must be in \[1, 255\], but got 0",
    ),
    Case(
        "v2-dilationFilterH>255",
        "a2",
        load_v2(dilationFilterH=256),
        R,
        r"^Load3Dv2: dilationFilterH must be in \[1, 255\], but got 256",
    ),
    Case(
        "v2-enTranspose-not-bool",
        "a2",
        load_v2(enTranspose=2),
        R,
        r"^Load3Dv2: enTranspose must be a bool \(true/false\), but got 2",
    ),
    Case(
        "v2-filterSizeW-not-bool",
        "a2",
        load_v2(filterSizeW=3),
        R,
        r"^Load3Dv2: filterSizeW must be a bool \(true/false\), but got 3",
    ),
    Case(  # the right bank is executed (catlass does this); strict mode refuses the doc conflict (L11)
        "v2-fMatrixCtrl-true-strict",
        "a2",
        load_v2(fMatrixCtrl=True),
        DocConflictError,
        r"^Load3Dv2: the doc page forbids this \(LoadData_3D.md 表4 fMatrixCtrl: 当前只支持设置为false\)",
        strict=True,
    ),
    Case(
        "v2-padValue-not-representable",
        "a2",
        load_v2("int8_t", padValue=300),
        R,
        r"^Load3Dv2: padValue must be representable as int8_t, but got 300",
    ),
    # filterW = 0 with filterSizeW = true is Kw = 256, not a NOP: the 256-wide filter exceeds the 4+2 map.
    Case(
        "v2-filterW=0+filterSizeW-is-not-NOP",
        "a2",
        load_v2(filterW=0, filterSizeW=True),
        R,
        r"^Load3Dv2: the dilated filter \(3x256, dilation 1x1\) is larger than the padded feature map",
    ),
    # ---- channelSize forms (约束说明 channelsize_constraint; 表5) ------------------------------------
    Case(
        "v2-channelSize-half-12",
        "a2",
        load_v2(channelSize=12, kExtension=108),
        R,
        r"^Load3Dv2: channelSize for half must be one of " + half_c0_forms + ", but got 12",
    ),
    Case(
        "v2-channelSize-half-20+2",
        "a2",
        load_v2(channelSize=18),
        R,
        r"^Load3Dv2: channelSize for half must be one of .*, but got 18",
    ),
    Case(
        "v2-channelSize-float-6",
        "a2",
        load_v2("float", channelSize=6, kExtension=54),
        R,
        r"^Load3Dv2: channelSize for float must be one of 4, N\*8, N\*8\+4 \(N >= 1\), but got 6",
    ),
    Case(
        "v2-channelSize-int8-44",
        "a2",
        load_v2("int8_t", channelSize=44),
        R,
        r"^Load3Dv2: channelSize for int8_t must be one of 4, 8, 16, N\*32, N\*32\+4, N\*32\+8, N\*32\+16 "
        r"\(N >= 1\), but got 44",
    ),
    Case(
        "v2-channelSize-int4-4",
        "a2",
        load_v2("int4b_t", channelSize=4, kExtension=36),
        R,
        r"^Load3Dv2: channelSize for int4b_t must be one of 8, 16, 32, N\*64, N\*64\+8, N\*64\+16, N\*64\+32 "
        r"\(N >= 1\), but got 4",
    ),
    # ---- window multiples and place (表4 kStartPt/kExtension/mExtension) ---------------------------
    Case(
        "v2-kStartPt-not-C0-half",
        "a2",
        load_v2(kStartPt=8, kExtension=16),
        R,
        r"^Load3Dv2: kStartPt must be a multiple of 16 \(C0 of half\), but got 8",
    ),
    Case(
        "v2-kStartPt-not-C0-float",
        "a2",
        load_v2("float", kStartPt=4, kExtension=8),
        R,
        r"^Load3Dv2: kStartPt must be a multiple of 8 \(C0 of float\), but got 4",
    ),
    Case(
        "v2-kStartPt-not-C0-int8",
        "a2",
        load_v2("int8_t", kStartPt=16, kExtension=32),
        R,
        r"^Load3Dv2: kStartPt must be a multiple of 32 \(C0 of int8_t\), but got 16",
    ),
    Case(
        "v2-kExtension-not-C0-inside",
        "a2",
        load_v2(kExtension=24),
        R,
        r"^Load3Dv2: kExtension must be a multiple of 16 for half unless the window reaches the right-most "
        r"fractal \(column 128 of 144\), but got 24",
    ),
    Case(
        "v2-kExtension-not-C0-int4",
        "a2",
        load_v2("int4b_t", kExtension=96),
        R,
        r"^Load3Dv2: kExtension must be a multiple of 64 for int4b_t unless",
    ),
    Case(
        "v2-mExtension-not-16-inside-strict",  # executed with a DocConflictWarning otherwise (L22)
        "a2",
        load_v2(l1H=8, mExtension=8),
        DocConflictError,
        r"^Load3Dv2: the doc page forbids this \(LoadData_3D.md 表4 mExtension: 如果不覆盖最下侧的分形, "
        r"应为16的倍数; got 8 ending at row 8 of Ho\*Wo = 32\)",
        strict=True,
    ),
    Case(
        "v2-mExtension-not-16-int8-strict",
        "a2",
        load_v2("int8_t", l1H=8, mExtension=12),
        DocConflictError,
        r"^Load3Dv2: the doc page forbids this \(LoadData_3D.md 表4 mExtension",
        strict=True,
    ),
    Case(
        "v2-K-window-past-C*Kh*Kw",
        "a2",
        load_v2(kStartPt=144, kExtension=16),
        R,
        r"^Load3Dv2: the K window reaches column 159, past the img2col width C\*Kh\*Kw = 16\*3\*3 = 144",
    ),
    # repeatMode 1 shifts K by repeatStride*32/size = 32 columns: 2nd window [32, 160) (SetLoadDataRepeat.md)
    Case(
        "v2-K-window-past-by-repeat",
        "a2",
        with_repeat(load_v2(kExtension=128), repeatStride=2, repeatTime=2, repeatMode=1),
        R,
        r"^Load3Dv2: the K window reaches column 159, past the img2col width",
    ),
    Case(
        "v2-filter-larger-than-padded-map",
        "a2",
        load_v2(padList=[0, 0, 0, 0], l1H=2, l1W=2),
        R,
        r"^Load3Dv2: the dilated filter \(3x3, dilation 1x1\) is larger than the padded feature map "
        r"\(2x2, pads \[0, 0, 0, 0\]\), so Ho x Wo = 0 x 0",
    ),
    Case(
        "v2-dilated-filter-larger",
        "a2",
        load_v2(dilationFilterH=3),
        R,
        r"^Load3Dv2: the dilated filter \(3x3, dilation 3x1\) is larger than the padded feature map",
    ),
    # ---- chip / dtype / path (数据类型, 约束说明 id30/id38/id39, 产品支持情况) -------------------------
    Case(
        "v2-enTranspose-int8-L0A-a2",
        "a2",
        load_v2("int8_t", enTranspose=True),
        U,
        r"^Load3Dv2: enTranspose=true is not supported for int8_t to L0A on Atlas A2",
    ),
    Case(
        "v2-enTranspose-int4-L0A-a3",
        "a3",
        load_v2("int4b_t", enTranspose=True),
        U,
        r"^Load3Dv2: enTranspose=true is not supported for int4b_t to L0A on Atlas A3",
    ),
    Case(
        "v2-L0B-b8-a2",
        "a2",
        load_v2("int8_t", "B2", fmap_kw={"pos": "B1"}),
        U,
        r"^Load3Dv2: dtype int8_t on path L1->L0B is not supported by Load3Dv2 on Atlas A2",
    ),
    Case(
        "v2-L0B-b4-a3",
        "a3",
        load_v2("int4b_t", "B2", fmap_kw={"pos": "B1"}),
        U,
        r"^Load3Dv2: dtype int4b_t on path L1->L0B is not supported by Load3Dv2 on Atlas A3",
    ),
    Case(
        "v2-dtype-hif8-a2",
        "a2",
        load_v2("hifloat8_t"),
        U,
        r"^Load3Dv2: dtype hifloat8_t on path L1->L0A is not supported by Load3Dv2 on Atlas A2",
    ),
    Case(
        "v2-dtype-int4-950",
        "950",
        load_v2("int4b_t"),
        U,
        r"^Load3Dv2: dtype int4b_t on path L1->L0A is not supported by Load3Dv2 on Atlas 350",
    ),
    Case(
        "v2-dtype-bf16-310P",
        "inference_aicore",
        load_v2("bfloat16_t"),
        U,
        r"^Load3Dv2: dtype bfloat16_t on path L1->L0A is not supported by Load3Dv2 on Atlas inference",
    ),
    Case(
        "v2-dtype-float-kirinX90",
        "kirin_x90",
        load_v2("float"),
        U,
        r"^Load3Dv2: dtype float on path L1->L0A is not supported by Load3Dv2 on Kirin X90",
    ),
    Case(
        "v2-not-on-training",
        "training",
        load_v2(),
        U,
        r"^Load3Dv2: API Load3Dv2 is not supported on Atlas training series",
    ),
    Case(
        "v2-not-on-kirin9030",
        "kirin_9030",
        load_v2(),
        U,
        r"^Load3Dv2: API Load3Dv2 is not supported on Kirin 9030",
    ),
    # ---- positions, alignment, dtypes of the tensors (功能说明 数据通路; 约束说明; 输入搬运约束 对齐约束)
    Case(
        "v2-src-not-L1",
        "a2",
        load_v2(fmap_kw={"pos": "B2"}),
        U,
        r"^Load3Dv2: src must be in L1, but got TPosition B2 \(L0B\)",
    ),
    Case(
        "v2-dst-not-L0",
        "a2",
        load_v2(dst_pos="B1"),
        U,
        r"^Load3Dv2: dst must be in L0A or L0B, but got TPosition B1 \(L1\)",
    ),
    Case(
        "v2-src-not-32B-aligned",
        "a2",
        load_v2(fmap_kw={"offset": 1040}),
        AlignmentError,
        r"^Load3Dv2: src \(L1\) address must be 32-byte aligned in L1, but got 0x410",
    ),
    Case(
        "v2-dst-not-512B-aligned",
        "a2",
        load_v2(dst_kw={"offset": 256}),
        AlignmentError,
        r"^Load3Dv2: dst \(L0\) address must be 512-byte aligned in L0A, but got 0x100",
    ),
    Case(
        "v2-dst-src-dtype-mismatch",
        "a2",
        load_with(v2, {"dtype": "bfloat16_t"}, {"dtype": "half"}),
        U,
        r"^Load3Dv2: dst and src must have the same dtype, but got half and bfloat16_t",
    ),
    # ---- physical bounds (plan checks before writing) ----------------------------------------------
    Case(
        "v2-dst-past-L0A-end",
        "a2",
        load_v2(dst_kw={"offset": 65536 - 1024, "length": 512}),
        BoundsError,
        r"^Load3Dv2: destination: bytes \[64512, 69120\) lie outside L0A \(size 65536 B\)",
    ),
    Case(
        "v2-src-past-L1-end",
        "a2",
        load_v2(fmap_kw={"offset": 524288 - 64, "length": 32}),
        BoundsError,
        r"^Load3Dv2: source: bytes \[524224, 524736\) lie outside L1 \(size 524288 B\)",
    ),
    Case(
        "v2-src-start-beyond-boundary",
        "a2",
        lambda core: (core.set_load_data_boundary(2048), load_v2(fmap_kw={"offset": 4096})(core))[1],
        BoundsError,
        r"^Load3Dv2: src address must be below the L1 boundary 2048 B \(SetLoadDataBoundary\), "
        r"but got 0x1000",
    ),
    # ---- hazards in strict mode (write past the dst LocalTensor / read past the src LocalTensor) -------
    Case(
        "v2-strict-b32-L0B-footprint",
        "a2",
        load_v2(
            "float",
            "B2",
            fmap_kw={"pos": "B1", "channels": 24, "h": 1, "w": 16},
            dst_kw={"length": 384},
            padList=[0, 0, 0, 0],
            l1H=1,
            l1W=16,
            channelSize=24,
            kExtension=24,
            filterW=1,
            filterH=1,
        ),
        HazardError,
        r"^Load3Dv2: writes 1792 B from B2@0x0, past the destination LocalTensor \(1536 B\)",
        strict=True,
    ),
    Case(
        "v2-strict-src-tensor-too-short",
        "a2",
        load_v2(fmap_kw={"length": 128}),
        HazardError,
        r"^Load3Dv2: reads 512 B from A1@0x0, past the source LocalTensor \(256 B\)",
        strict=True,
    ),
    # ---- 950: dstStride and b8 squares (SetLoadDataRepeat 表2; 约束说明 id39; docs/load3d.md) -----------
    Case(
        "950-dstStride-too-small-L0A",
        "950",
        with_repeat(load_v2(l1H=8, mExtension=32), dstStride=1),
        OverlapError,
        r"^Load3Dv2: dstStride \(Nz column stride\) must be >= 2 fractals for this window, but got 1",
    ),
    Case(
        "950-dstStride-too-small-L0B",
        "950",
        with_repeat(
            load_v2("half", "B2", fmap_kw={"pos": "B1", "channels": 48}, channelSize=48, kExtension=432),
            dstStride=26,
        ),
        OverlapError,
        r"^Load3Dv2: dstStride \(Nz column stride\) must be >= 27 fractals for this window, but got 26",
    ),
    Case(
        "950-b8-transposed-M-not-32",
        "950",
        load_v2("int8_t", enTranspose=True),
        R,
        r"^Load3Dv2: transposed b8 loads move 32x32 squares, so the M window \(16 rows\) must be a "
        r"multiple of 32",
    ),
    Case(
        "950-b8-L0B-M-not-32",
        "950",
        load_v2("int8_t", "B2", fmap_kw={"pos": "B1"}),
        R,
        r"^Load3Dv2: transposed b8 loads move 32x32 squares",
    ),
    # ---- v2Pro (表5) ------------------------------------------------------------------------------
    Case(
        "v2pro-extConfig-negative",
        "a2",
        load_v2pro(extConfig=-1),
        R,
        r"^Load3Dv2Pro: extConfig must be in \[0, 18446744073709551615\], but got -1",
    ),
    Case(
        "v2pro-filterConfig-over-64-bits",
        "a2",
        load_v2pro(filterConfig=1 << 64),
        R,
        r"^Load3Dv2Pro: filterConfig must be in \[0, 18446744073709551615\]",
    ),
    Case(
        "v2pro-strideW=0",
        "a2",
        load_v2pro(filterConfig=LoadData3DParamsV2Pro.pack_filter(0, 1, 3, 3)),
        R,
        r"^Load3Dv2Pro: strideW must be in \[1, 63\], but got 0",
    ),
    Case(
        "v2pro-fMatrixCtrl-strict", "a2", load_v2pro(fMatrixCtrl=True), DocConflictError,
        r"^Load3Dv2Pro: the doc page forbids this \(LoadData_3D.md 表4 fMatrixCtrl", strict=True,
    ),
    Case(
        "v2pro-kExtension-not-C0",
        "a2",
        load_v2pro(extConfig=LoadData3DParamsV2Pro.pack_ext(24, 16)),
        R,
        r"^Load3Dv2Pro: kExtension must be a multiple of 16 for half unless",
    ),
    Case(
        "v2pro-channelSize-form",
        "a2",
        load_v2pro(channelSize=18),
        R,
        r"^Load3Dv2Pro: channelSize for half must be one of",
    ),
    Case(
        "v2pro-enTranspose-b8-a2",
        "a2",
        load_v2pro("int8_t", enTranspose=True),
        U,
        r"^Load3Dv2Pro: enTranspose=true is not supported for int8_t to L0A",
    ),
    Case(
        "v2pro-not-on-training",
        "training",
        load_v2pro(),
        U,
        r"^Load3Dv2Pro: API Load3Dv2Pro is not supported on Atlas training",
    ),
    # ---- BitMode (950 only; LoadData_3D_BitMode.md, seed 000 表4/表5) -------------------------------
    Case(
        "bitmode-not-on-a2",
        "a2",
        load_bitmode(),
        U,
        r"^Load3DBitMode: API Load3DBitMode is not supported on Atlas A2",
    ),
    Case(
        "bitmode-Dst-template-missing",
        "950",
        load_bitmode(dst_pos=None),
        R,
        r"^Load3DBitMode: the Dst TPosition template argument is required \(one of A2, B2\)",
    ),
    Case(
        "bitmode-Src-template-missing",
        "950",
        load_bitmode(src_pos=None),
        R,
        r"^Load3DBitMode: the Src TPosition template argument is required \(one of A1, B1\)",
    ),
    Case(
        "bitmode-Dst-not-L0",
        "950",
        load_bitmode(dst_pos="A1"),
        U,
        r"^Load3DBitMode: Dst TPosition must be one of A2, B2, but got A1",
    ),
    Case(
        "bitmode-Dst-does-not-match-tensor",
        "950",
        load_bitmode(dst_pos="B2"),
        U,
        r"^Load3DBitMode: Dst TPosition B2 does not match the tensor in L0A",
    ),

    Case(
        "bitmode-strideW=0",
        "950",
        load_bitmode(strideW=0),
        R,
        r"^Load3DBitMode: strideW must be in \[1, 63\], but got 0",
    ),
    Case(
        "bitmode-kPos-not-C0",
        "950",
        load_bitmode(kStartPt=8, kExtension=16),
        R,
        r"^Load3DBitMode: kPos must be a multiple of 16 \(C0 of half\), but got 8",
    ),
    Case(
        "bitmode-kStep-not-C0",
        "950",
        load_bitmode(kExtension=40),
        R,
        r"^Load3DBitMode: kStep must be a multiple of 16 for half unless",
    ),
    Case(
        "bitmode-mStep-not-16-strict",
        "950",
        load_bitmode(l1H=8, mExtension=8),  # Ho*Wo = 32: rows [0, 8) stop short of the bottom fractal
        DocConflictError,
        r"^Load3DBitMode: the doc page forbids this \(LoadData_3D.md 表4 mStep: 如果不覆盖最下侧的分形",
        strict=True,
    ),
    Case(
        "bitmode-fmatrixCtrl-strict",
        "950",
        load_bitmode(fmatrixCtrl=1),
        DocConflictError,
        r"^Load3DBitMode: the doc page forbids this \(LoadData_3D.md 表4 fmatrixCtrl",
        strict=True,
    ),
    Case(
        "bitmode-channelSize-form",
        "950",
        load_bitmode(channelSize=6),
        R,
        r"^Load3DBitMode: channelSize for half must be one of",
    ),
    Case(
        "bitmode-dtype-int4",
        "950",
        load_bitmode("int4b_t"),
        U,
        r"^Load3DBitMode: dtype int4b_t on path L1->L0A is not supported",
    ),
    # ---- v1 (表3; Atlas training / inference AI Core only) ------------------------------------------
    Case("v1-not-on-a2", "a2", load_v1(), U, r"^Load3Dv1: API Load3Dv1 is not supported on Atlas A2"),
    Case("v1-not-on-950", "950", load_v1(), U, r"^Load3Dv1: API Load3Dv1 is not supported on Atlas 350"),
    Case(
        "v1-dtype-float",
        "inference_aicore",
        load_v1("float"),
        U,
        r"^Load3Dv1: dtype float on path L1->L0A is not supported by Load3Dv1",
    ),
    Case(
        "v1-dtype-bf16-training",
        "training",
        load_v1("bfloat16_t"),
        U,
        r"^Load3Dv1: dtype bfloat16_t on path L1->L0A is not supported by Load3Dv1",
    ),
    Case(
        "v1-l1H=0",
        "training",
        load_v1(l1H=0),
        R,
        r"^Load3Dv1: l1H and l1W must be in \[1, 32767\], but got 0 x 8",
    ),
    Case(
        "v1-c1Index>4095",
        "training",
        load_v1(c1Index=4096),
        R,
        r"^Load3Dv1: c1Index must be in \[0, 4095\], but got 4096",
    ),
    Case(
        "v1-fetchFilterW>254",
        "training",
        load_v1(fetchFilterW=255),
        R,
        r"^Load3Dv1: fetchFilterW must be in \[0, 254\], but got 255",
    ),
    Case(
        "v1-fetchFilterH>=filterH",
        "training",
        load_v1(fetchFilterH=1),
        R,
        r"^Load3Dv1: fetchFilterH must be < the filter size 1, but got 1",
    ),
    Case(
        "v1-leftTopW<-255",
        "training",
        load_v1(leftTopW=-256),
        R,
        r"^Load3Dv1: leftTopW must be in \[-255, 32767\], but got -256",
    ),
    Case(
        "v1-leftTopH>32767",
        "training",
        load_v1(leftTopH=32768),
        R,
        r"^Load3Dv1: leftTopH must be in \[-255, 32767\], but got 32768",
    ),
    Case(
        "v1-strideW=0",
        "training",
        load_v1(strideW=0),
        R,
        r"^Load3Dv1: strideW must be in \[1, 63\], but got 0",
    ),
    Case(
        "v1-filterW=0",
        "training",
        load_v1(filterW=0),
        R,
        r"^Load3Dv1: filterW must be in \[1, 255\], but got 0",
    ),
    Case(
        "v1-dilationFilterH>255",
        "training",
        load_v1(dilationFilterH=256),
        R,
        r"^Load3Dv1: dilationFilterH must be in \[1, 255\], but got 256",
    ),
    Case(
        "v1-jumpStride=0",
        "training",
        load_v1(jumpStride=0),
        R,
        r"^Load3Dv1: jumpStride must be in \[1, 127\], but got 0",
    ),
    Case(
        "v1-leftTopW-past-the-edge",
        "training",
        load_v1(leftTopW=8),
        R,
        r"^Load3Dv1: leftTopW must leave the dilated filter inside the padded width \(<= l1W - 1 \+ padRight",
    ),
    Case(
        "v1-jumpStride>127",
        "inference_aicore",
        load_v1(jumpStride=128),
        R,
        r"^Load3Dv1: jumpStride must be in \[1, 127\], but got 128",
    ),
    Case(
        "v1-repeatMode=2",
        "training",
        load_v1(repeatMode=2),
        R,
        r"^Load3Dv1: repeatMode must be in \[0, 1\], but got 2",
    ),
    Case(
        "v1-repeatTime=0",
        "training",
        load_v1(repeatTime=0),
        R,
        r"^Load3Dv1: repeatTime must be in \[1, 255\], but got 0",
    ),
    Case("v1-cSize=2", "training", load_v1(cSize=2), R, r"^Load3Dv1: cSize must be in \[0, 1\], but got 2"),
    Case(
        "v1-cSize-with-c1Index",
        "training",
        load_v1(cSize=1, c1Index=1),
        R,
        r"^Load3Dv1: c1Index must be 0 with cSize=1 \(one packed channel group\), but got 1",
    ),
    Case(
        "v1-padList-entry>255",
        "training",
        load_v1(padList=[0, 0, 256, 0]),
        R,
        r"^Load3Dv1: padList\[2\] must be in \[0, 255\], but got 256",
    ),
    Case(
        "v1-dst-not-512B-aligned",
        "training",
        load_with(v1, {"h": 2, "w": 8}, {"length": 1024, "offset": 512 + 32}),
        AlignmentError,
        r"^Load3Dv1: dst \(L0\) address must be 512-byte aligned in L0A, but got 0x220",
    ),
    # ---- register APIs (矩阵搬入辅助配置接口) --------------------------------------------------------
    Case(
        "SetFmatrix-l1H=0",
        "a2",
        reg_call("set_fmatrix", 0, 4, [0, 0, 0, 0]),
        R,
        r"^SetFmatrix: l1H must be in \[1, 32767\], but got 0",
    ),
    Case(
        "SetFmatrix-l1W>32767",
        "a2",
        reg_call("set_fmatrix", 4, 32768, [0, 0, 0, 0]),
        R,
        r"^SetFmatrix: l1W must be in \[1, 32767\], but got 32768",
    ),
    Case(
        "SetFmatrix-pad>255",
        "a2",
        reg_call("set_fmatrix", 4, 4, [0, 0, 0, 256]),
        R,
        r"^SetFmatrix: padList\[3\] must be in \[0, 255\], but got 256",
    ),
    Case(
        "SetFmatrix-FMATRIX_RIGHT-strict",
        "a2",
        reg_call("set_fmatrix", 4, 4, [0, 0, 0, 0], "FMATRIX_RIGHT"),
        DocConflictError,
        r"^SetFmatrix: the doc page forbids this \(SetFmatrix.md 表1 fmatrixMode: 当前只支持FMATRIX_LEFT\)",
        strict=True,
    ),
    Case(  # asc-devkit dav_m200 Load3DSetFMatrixBCal: ASCENDC_REPORT_NOT_SUPPORT
        "SetFmatrix-FMATRIX_RIGHT-310p",
        "inference_aicore",
        reg_call("set_fmatrix", 4, 4, [0, 0, 0, 0], "FMATRIX_RIGHT"),
        U,
        r"^SetFmatrix: FmatrixMode FMATRIX_RIGHT is not available on Atlas inference series AI Core "
        r"\(the C\+\+ API rejects this: Load3DSetFMatrixBCal",
    ),
    Case(
        "SetFmatrix-mode-unknown",
        "a2",
        reg_call("set_fmatrix", 4, 4, [0, 0, 0, 0], "FMATRIX_TOP"),
        U,
        r"^SetFmatrix: FmatrixMode must be FMATRIX_LEFT or FMATRIX_RIGHT, but got 'FMATRIX_TOP'",
    ),
    Case(
        "SetFmatrix-not-on-training",
        "training",
        reg_call("set_fmatrix", 4, 4, [0, 0, 0, 0]),
        U,
        r"^SetFmatrix: API SetFmatrix is not supported on Atlas training",
    ),
    Case(
        "SetLoadDataPaddingValue-int4",
        "a2",
        reg_call("set_padding_value", 1, "int4b_t"),
        U,
        r"^SetLoadDataPaddingValue: dtype int4b_t is not supported by SetLoadDataPaddingValue on Atlas A2",
    ),
    Case(
        "SetLoadDataPaddingValue-float-kirinX90",
        "kirin_x90",
        reg_call("set_padding_value", 1.0, "float"),
        U,
        r"^SetLoadDataPaddingValue: dtype float is not supported by SetLoadDataPaddingValue on Kirin X90",
    ),
    Case(
        "SetLoadDataPaddingValue-out-of-int8",
        "a2",
        reg_call("set_padding_value", 300, "int8_t"),
        R,
        r"^SetLoadDataPaddingValue: padValue must be representable as int8_t, but got 300",
    ),
    Case(
        "SetLoadDataRepeat-repeatStride>65535",
        "a2",
        reg_call("set_load_data_repeat", LoadDataRepeatParam(65536, 1, 0)),
        R,
        r"^SetLoadDataRepeat: repeatStride must be in \[0, 65535\], but got 65536",
    ),
    Case(
        "SetLoadDataRepeat-repeatTime>255",
        "a2",
        reg_call("set_load_data_repeat", LoadDataRepeatParam(0, 256, 0)),
        R,
        r"^SetLoadDataRepeat: repeatTime must be in \[0, 255\], but got 256",
    ),
    Case(
        "SetLoadDataRepeat-repeatMode=2",
        "a2",
        reg_call("set_load_data_repeat", LoadDataRepeatParam(0, 1, 2)),
        R,
        r"^SetLoadDataRepeat: repeatMode must be in \[0, 1\], but got 2",
    ),
    Case(
        "SetLoadDataRepeat-dstStride-on-a2",
        "a2",
        reg_call("set_load_data_repeat", LoadDataRepeatParam(0, 1, 0, 2)),
        U,
        r"^SetLoadDataRepeat: dstStride exists on Ascend 950 only, but got 2 on Atlas A2",
    ),
    Case(
        "SetLoadDataRepeat-dstStride<0-950",
        "950",
        reg_call("set_load_data_repeat", LoadDataRepeatParam(0, 1, 0, -1)),
        R,
        r"^SetLoadDataRepeat: dstStride must be in \[0, 65535\], but got -1",
    ),
    Case(
        "SetLoadDataRepeat-not-on-310P",
        "inference_aicore",
        reg_call("set_load_data_repeat", LoadDataRepeatParam()),
        U,
        r"^SetLoadDataRepeat: API SetLoadDataRepeat is not supported on Atlas inference series AI Core",
    ),
    Case(
        "SetLoadDataRepeatWithStride-not-on-a2",
        "a2",
        reg_call("set_load_data_repeat", LoadDataRepeatParamWithStride(0, 1, 0, 1)),
        U,
        r"^SetLoadDataRepeatWithStride: API SetLoadDataRepeatWithStride is not supported on Atlas A2",
    ),
    Case(
        "SetLoadDataRepeatWithStride-repeatTime<0",
        "950",
        reg_call("set_load_data_repeat", LoadDataRepeatParamWithStride(0, -1, 0, 1)),
        R,
        r"^SetLoadDataRepeatWithStride: repeatTime must be in \[0, 255\], but got -1",
    ),
    Case(
        "SetLoadDataBoundary-1..1023",
        "a2",
        reg_call("set_load_data_boundary", 1000),
        R,
        r"^SetLoadDataBoundary: boundaryValue must be 0 \(off\) or >= 1024 \(1-1023 are undefined\), "
        r"but got 1000",
    ),
    Case(
        "SetLoadDataBoundary-negative",
        "a3",
        reg_call("set_load_data_boundary", -1),
        R,
        r"^SetLoadDataBoundary: boundaryValue must be in \[0, 524288\], but got -1",
    ),
    Case(
        "SetLoadDataBoundary-not-on-950",
        "950",
        reg_call("set_load_data_boundary", 2048),
        U,
        r"^SetLoadDataBoundary: API SetLoadDataBoundary is not supported on Atlas 350",
    ),
    Case(
        "SetLoadDataBoundary-not-on-200I500A2",
        "atlas200i500a2",
        reg_call("set_load_data_boundary", 2048),
        U,
        r"^SetLoadDataBoundary: API SetLoadDataBoundary is not supported on Atlas 200I/500 A2",
    ),
]


def _prime_registers(core: Core) -> None:
    """A distinctive register state, so a call that wrongly committed its own values would show."""
    if core.chip.supports("SetFmatrix"):
        core.set_fmatrix(7, 9, [2, 2, 2, 2])
    if core.chip.supports("SetLoadDataPaddingValue", "half"):
        core.set_padding_value(5.0, "half")


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_rule_raises_and_changes_nothing(case: Case) -> None:
    core = Core(case.chip, strict=case.strict)
    _prime_registers(core)
    call = case.make(core)
    with untouched(core, regs=True), pytest.raises(case.exc, match=case.match) as ei:
        call()
    assert_basis(ei.value)


def test_case_ids_unique() -> None:
    ids = [c.id for c in CASES]
    assert len(ids) == len(set(ids))


def test_bitmode_field_width_overflow() -> None:
    """Bit fields of Load3DBitModeParam truncate in C++; ascsim refuses (seed 000 表5: strideW is 6 bits)."""
    p = Load3DBitModeParam()
    with pytest.raises(
        ParamRangeError,
        match=r"^Load3DBitModeParam: strideW is a 6-bit field, must be in "
        r"\[0, 63\], but got 64",
    ):
        p.SetStrideW(64)
    assert p.GetConfig1() == 0
    with pytest.raises(ParamRangeError, match=r"^Load3DBitModeParam: config0 must fit in 64 bits"):
        Load3DBitModeParam(-1)


def test_v2pro_pack_overflow() -> None:
    with pytest.raises(
        ParamRangeError, match=r"^LoadData3DParamsV2Pro\.extConfig: kExtension is a 16-bit field"
    ):
        LoadData3DParamsV2Pro.pack_ext(65536, 16)
    with pytest.raises(
        ParamRangeError, match=r"^LoadData3DParamsV2Pro\.filterConfig: filterW is a 8-bit field"
    ):
        LoadData3DParamsV2Pro.pack_filter(filterW=256)


# ---- allowed values just inside each rule (so the rules above are not over-eager) ------------------------

ACCEPTED = [
    ("kExtension-covers-last-fractal", "a2", load_v2(kExtension=136)),  # 136 > 128: reaches the last fractal
    ("kExtension-not-C0-from-last-fractal", "a2", load_v2(kStartPt=128, kExtension=8)),
    ("mExtension-covers-bottom-fractal", "a2", load_v2(l1H=8, mStartPt=16, mExtension=8, fmap_kw={"h": 8})),
    ("mExtension-b32-no-multiple", "a2", load_v2("float", l1H=8, mExtension=8, fmap_kw={"h": 8})),
    ("M-window-past-Ho*Wo", "a2", load_v2(mStartPt=16, mExtension=16)),
    ("mStartPt-unaligned", "a2", load_v2(l1H=8, mStartPt=3, mExtension=16, fmap_kw={"h": 8})),
    # b32 transposed footprint is M' x align(K', 16) = 16 x 80 (docs/load3d.md), so declare that much
    (
        "enTranspose-ignored-for-L0B-int32",
        "a2",
        load_v2("int32_t", "B2", fmap_kw={"pos": "B1"}, dst_kw={"length": 16 * 80}, enTranspose=True),
    ),
    ("enTranspose-b32-L0A-a2", "a2", load_v2("float", dst_kw={"length": 16 * 80}, enTranspose=True)),
    (
        "enTranspose-b8-L0A-950-M32",
        "950",
        load_v2(
            "int8_t", l1H=8, mExtension=32, enTranspose=True, fmap_kw={"h": 8}, dst_kw={"length": 32 * 288}
        ),
    ),
    ("dilation-fits", "a2", load_v2(dilationFilterH=2)),  # (3-1)*2+1 = 5 <= 4+2
    ("v2pro-mStartPt-16-bit", "a2", load_v2pro(extConfig=LoadData3DParamsV2Pro.pack_ext(144, 16, 0, 40000))),
    ("bitmode-B1->B2", "950", load_bitmode(dst_pos="B2", src_pos="B1", tensors=("B2", "B1"))),
    # P3: A1 and B1 are both L1; Dst alone selects the memory written (template libraries tag L1 as A1)
    ("bitmode-A1->B2", "950", load_bitmode(dst_pos="B2", tensors=("B2", "A1"))),
    ("v1-training", "training", load_v1()),
]


@pytest.mark.parametrize(("name", "chip", "make"), ACCEPTED, ids=[a[0] for a in ACCEPTED])
def test_rule_boundary_accepted(name: str, chip: str, make) -> None:
    core = Core(chip, strict=True)  # strict: no hazard either
    report = make(core)()
    assert report.bytes_written > 0


CHANNEL_FORMS = {  # doc: LoadData_3D.md channelsize_constraint (A2/A3/950/200I-500 A2/Kirin X90)
    "float": ([4, 8, 12, 16, 20], [1, 2, 6, 10]),
    "half": ([4, 8, 16, 20, 24, 32, 36, 40], [2, 12, 18, 28]),
    "int8_t": ([4, 8, 16, 32, 36, 40, 48, 64], [2, 12, 24, 44, 56]),
    "int4b_t": ([8, 16, 32, 64, 72, 80, 96, 128], [4, 24, 48, 112]),
}


CHANNEL_CASES = [(dtype, c, c in good) for dtype, (good, bad) in CHANNEL_FORMS.items() for c in good + bad]


@pytest.mark.parametrize(("dtype", "c", "ok"), CHANNEL_CASES,
                         ids=[f"{d}-c={c}-{'ok' if ok else 'refused'}" for d, c, ok in CHANNEL_CASES])
def test_channel_size_forms(dtype: str, c: int, ok: bool) -> None:
    """Every documented form is accepted, every other count rejected before anything is written."""
    c0 = c0_of(dtype)
    core = Core("a2")
    make = load_with(
        partial(v2, dtype, channelSize=c, kExtension=9 * c),
        {"dtype": dtype, "channels": c},
        {"dtype": dtype, "length": 16 * -(-9 * c // c0) * c0},
    )
    call = make(core)
    if ok:
        call()
    else:
        with untouched(core, regs=True), pytest.raises(
                ParamRangeError, match=rf"^Load3Dv2: channelSize for {dtype} must be one of"):
            call()


# ---- NOPs: destination untouched, registers still written when isSetFMatrix / isSetPadding --------------

NOPS = [
    ("l1H=0", {"l1H": 0}),
    ("l1W=0", {"l1W": 0}),
    ("channelSize=0", {"channelSize": 0}),
    ("kExtension=0", {"kExtension": 0}),
    ("mExtension=0", {"mExtension": 0}),
    ("filterW=0-no-filterSizeW", {"filterW": 0}),
    ("filterH=0-no-filterSizeH", {"filterH": 0}),
    ("repeatTime=0", {}),
]


@pytest.mark.parametrize("set_regs", [True, False], ids=["isSet=true", "isSet=false"])
@pytest.mark.parametrize(("name", "kw"), NOPS, ids=[n[0] for n in NOPS])
def test_v2_nop(name: str, kw: dict, set_regs: bool) -> None:
    """doc: LoadData_3D.md 表4 / 约束说明 (NOP fields), SetLoadDataRepeat.md (repeatTime = 0)."""
    core = Core("a2")
    if set_regs or name not in ("l1H=0", "l1W=0"):
        # with isSetFMatrix=false a struct l1H/l1W of 0 is ignored; the NOP then comes from the power-on
        # FMATRIX (l1H = l1W = 0), so only prime the registers where that does not matter.
        _prime_registers(core)
    if name == "repeatTime=0":
        core.set_load_data_repeat(LoadDataRepeatParam(0, 0, 0))
    src, dst = fmap(core), l0(core)
    p = v2(padList=[3, 1, 4, 1], padValue=-2.5, **kw)
    before_mem, before_regs = memories(core), copy.deepcopy(core.regs)
    if not set_regs and name in ("l1H=0", "l1W=0"):  # a NOP from a never-set FMATRIX is flagged
        with pytest.warns(HazardWarning, match=r"^Load3Dv2: NOP because the FMATRIX register holds l1H = 0"):
            report = core.load_data(dst, src, p, IsResetLoad3dConfig(set_regs, set_regs))
    else:
        report = core.load_data(dst, src, p, IsResetLoad3dConfig(set_regs, set_regs))
    assert_memories_unchanged(core, before_mem)
    assert report.bytes_written == 0
    if set_regs:  # the C++ API writes FMATRIX / PADDING before issuing the (NOP) instruction
        assert core.regs.fmatrix_left == Fmatrix(p.l1H, p.l1W, (3, 1, 4, 1))
        assert core.regs.padding == pad_pattern("half", -2.5) == 0xC100
        assert core.regs.repeat == before_regs.repeat
    else:
        assert core.regs == before_regs


@pytest.mark.parametrize("kind", ["v2pro", "bitmode"])
def test_register_only_forms_nop_on_empty_fmatrix(kind: str) -> None:
    """v2Pro / BitMode read l1H/l1W from FMATRIX; the power-on value 0 makes them NOPs."""
    core = Core("950")
    src, dst = fmap(core), l0(core)
    p = LoadData3DParamsV2Pro.from_v2(v2()) if kind == "v2pro" else bitmode()
    before_mem, before_regs = memories(core), copy.deepcopy(core.regs)
    with pytest.warns(HazardWarning, match=r"NOP because the FMATRIX register holds l1H = 0, l1W = 0"):
        core.load_data(dst, src, p, dst_pos="A2", src_pos="A1")
    assert_memories_unchanged(core, before_mem)
    assert core.regs == before_regs


def test_unset_fmatrix_nop_is_an_error_in_strict_mode() -> None:
    core = Core("950", strict=True)
    src, dst = fmap(core), l0(core)
    before_mem, before_regs = memories(core), copy.deepcopy(core.regs)
    with pytest.raises(HazardError, match=r"^Load3Dv2Pro: NOP because the FMATRIX register"):
        core.load_data(dst, src, LoadData3DParamsV2Pro.from_v2(v2()))
    assert_memories_unchanged(core, before_mem)
    assert core.regs == before_regs


# ---- hazards ------------------------------------------------------------------------------------------


def _b32_l0b(core: Core, x: np.ndarray):
    """float C=24, 1x16 map, 1x1 kernel: W is 16 x 24 (W[m][k] = x[k, 0, m]); dst declared M'*K' = 384."""
    src = core.tensor("B1", "float", x.size)
    # NC1HWC0 with C0 = 8 written straight from the definition (docs/layouts.md NC1HWC0).
    src.write(x.reshape(3, 8, 1, 16).transpose(0, 2, 3, 1).ravel())
    dst = core.tensor("B2", "float", 16 * 24)
    p = v2(
        "float",
        padList=[0, 0, 0, 0],
        l1H=1,
        l1W=16,
        channelSize=24,
        kExtension=24,
        mExtension=16,
        filterW=1,
        filterH=1,
    )
    return dst, src, p


def test_b32_l0b_footprint_warns_and_writes() -> None:
    """docs/load3d.md b32 rule: footprint M'*Kp (Kp = 32) exceeds a LocalTensor of M'*K' elements."""
    core = Core("a2")
    x = np.arange(24 * 16, dtype=np.float32).reshape(24, 1, 16)
    dst, src, p = _b32_l0b(core, x)
    with pytest.warns(
        HazardWarning,
        match=r"^Load3Dv2: writes 1792 B from B2@0x0, past the destination "
        r"LocalTensor \(1536 B\)",
    ):
        core.load_data(dst, src, p)
    l0b = core.memories["L0B"].data.view(np.float32)
    # docs/load3d.md example: M' = 16, K' = 24 -> W[9][20] lands at element 417 (past the tensor).
    assert l0b[417] == x[20, 0, 9]
    for m in range(16):  # L0B b32: ((m//8)*Kp + k)*8 + m%8, Kp = 32
        for k in range(24):
            assert l0b[((m // 8) * 32 + k) * 8 + m % 8] == x[k, 0, m]
    # rows k in [K', Kp) are not written (docs/load3d.md): they keep the marker
    gap = core.memories["L0B"].data[(24 * 8) * 4 : (32 * 8) * 4]
    assert (gap == 0xCD).all()


def test_b32_l0b_footprint_strict_raises() -> None:
    core = Core("a2", strict=True)
    _prime_registers(core)
    x = np.arange(24 * 16, dtype=np.float32).reshape(24, 1, 16)
    dst, src, p = _b32_l0b(core, x)
    with untouched(core, regs=True), pytest.raises(
            HazardError, match=r"^Load3Dv2: writes 1792 B from B2@0x0, past the destination"):
        core.load_data(dst, src, p)


def test_b32_l0b_multiple_of_16_no_hazard() -> None:
    """kExtension a multiple of 16 (here 16 of 24 channels) fits M'*K' exactly: no hazard even in strict."""
    core = Core("a2", strict=True)
    x = np.arange(24 * 16, dtype=np.float32).reshape(24, 1, 16)
    dst, src, p = _b32_l0b(core, x)
    p.kExtension = 16
    dst = core.tensor("B2", "float", 16 * 16)
    core.load_data(dst, src, p)


def test_transposed_b8_window_past_l0a_is_refused_before_any_plan(monkeypatch) -> None:
    """Fuzz finding (issue 9, rejection time): a transposed hifloat8 LoadDataWithStride whose 32x32 squares
    reach past L0A although rows x cols bytes would fit was refused only after its element plan was built
    (~10 ms). The destination extent is now the exact arithmetic one (`load3d.dst_end`): no plan is built."""
    from ascsim.base.errors import BoundsError
    from ascsim.isa import load3d
    from ascsim.params import LoadDataRepeatParam

    def no_plan(*_a, **_k):
        raise AssertionError("a plan was built for a call refused by its extent")

    monkeypatch.setattr(load3d, "units_img2col", no_plan)
    monkeypatch.setattr(load3d, "plan_img2col", no_plan)
    core = Core("950")
    core.set_load_data_repeat(LoadDataRepeatParam(0, 1, 0, 128))
    src = core.tensor("A1", "hifloat8_t", 640, offset=30880)
    dst = core.tensor("A2", "hifloat8_t", 65536, offset=0)
    p = LoadData3DParamsV2([0, 2, 1, 0], 5, 4, 8, 16, 4096, 0, 23, 1, 1, 1, 2, 2, 2, True, False, 0.5)
    before = core.memory("L0A").data.copy()
    msg = r"LoadDataWithStride: destination: bytes \[0, 8323584\) lie outside L0A"
    with pytest.raises(BoundsError, match=msg):
        core.load_data_with_stride(dst, src, p)
    assert (core.memory("L0A").data == before).all()
