"""Random Load3D cases and their two runs: the fast path (Core.load_data on self-describing raw codes) and
the slow reference interpreter (ascsim.isa.load3d_ref), written from the doc text.

`v2_cases(chip, dst)` draws img2col geometries (pads, strides, dilations, non-square filters, filterSize
+256), channel forms (LoadData_3D.md channelsize_constraint id36/id37), windows, partial last fractals,
enTranspose, the repeat register (SetLoadDataRepeat.md) and the 950 dstStride; `v1_cases(chip)` the v1
forms. The L1 source holds distinct raw codes (its own element index, skipping the pad code) and the rest of
memory keeps the 0xCD marker, so a whole destination memory can be compared.

Used by isa/test_load3d_ref.py (fast == reference), isa/test_load3d_torch.py (== torch unfold) and
engine/test_gather_grid.py (the affine-grid gather, warm).
"""

from __future__ import annotations

import copy
import warnings
from dataclasses import dataclass

import numpy as np
from hypothesis import strategies as st

from ascsim.base.errors import DocConflictWarning
from ascsim.core import Core
from ascsim.isa.load3d_ref import ref_load3d_v1, ref_load3d_v2
from ascsim.machine.chips import ALL_CHIPS, get_chip
from ascsim.machine.dtypes import DType, get_dtype, to_raw
from ascsim.machine.memory import LocalTensor
from ascsim.params import (
    IsResetLoad3dConfig,
    Load3DBitModeParam,
    LoadData3DParamsV1,
    LoadData3DParamsV2,
    LoadData3DParamsV2Pro,
    LoadDataRepeatParam,
)


def _cdiv(a: int, b: int) -> int:
    return -(-a // b)


# ------------------------------------------------------------------------------------------- cases

V2_TARGETS = sorted(
    (c.key, dst) for c in ALL_CHIPS for dst in ("L0A", "L0B") if c.supports("Load3Dv2", None, "L1", dst)
)


def _dtypes(chip: str, api: str, dst: str) -> list[str]:
    return sorted(get_chip(chip).dtypes_for(api, "L1", dst))


def channel_forms(chip: str, bits: int) -> list[int]:
    """channelSize values the doc allows (LoadData_3D.md id36 for 310P, id37 otherwise), N in 1..2."""
    ns = (1, 2)
    if chip == "inference_aicore":  # id36: "4，8，16，N*16+4，N*16+8" / "4，8，16，32，N*32+4，..."
        forms = {16: [4, 8, 16] + [16 * n + r for n in ns for r in (4, 8)],
                 8: [4, 8, 16, 32] + [32 * n + r for n in ns for r in (4, 8, 16)],
                 4: [8, 16, 32] + [64 * n + r for n in ns for r in (0, 8, 16, 32)]}
    else:  # id37
        forms = {32: [4] + [8 * n + r for n in ns for r in (0, 4)],
                 16: [4, 8] + [16 * n + r for n in ns for r in (0, 4, 8)],
                 8: [4, 8, 16] + [32 * n + r for n in ns for r in (0, 4, 8, 16)],
                 4: [8, 16, 32] + [64 * n + r for n in ns for r in (0, 8, 16, 32)]}
    return forms[bits]


def pad_value_for(dt: DType) -> float:
    return 1.5 if dt.kind == "float" else 3


def pad_code(dt: DType, value: float) -> int:
    return int(to_raw(dt, np.asarray([value]))[0])


def source_codes(dt: DType, n: int, pad: int) -> np.ndarray:
    """Element i holds code i (mod 2^bits - 1), shifted past the pad code so pad never looks like data."""
    codes = np.arange(n, dtype=np.int64) % ((1 << dt.bits) - 1)
    codes = np.where(codes >= pad, codes + 1, codes)
    return codes.astype(dt.raw_dtype)


@dataclass
class V2Case:
    chip: str
    dtype: str
    dst: str
    p: LoadData3DParamsV2
    repeat: tuple[int, int, int]  # (repeatStride, repeatTime, repeatMode)
    dst_stride: int  # 950 register value (0 = not set)

    @property
    def src_len(self) -> int:
        return self.p.channelSize * self.p.l1H * self.p.l1W


def _axis(draw, big: bool, max_pad: int = 3) -> tuple[int, int, int, int, int, int]:
    """(filter, filterSize, dilation, lo pad, hi pad, l1 extent) for one spatial axis, Ho/Wo >= 1."""
    if big:  # filterSize: kernel 256 + filter; the big pads keep the feature map itself tiny
        f, dil = draw(st.integers(0, 2)), 1
        k = 256 + f
        extent = draw(st.integers(1, 5))
        need = k - extent + draw(st.integers(0, 3))
        lo = draw(st.integers(max(0, need - 255), min(255, need)))
        return f, True, dil, lo, need - lo, extent
    f, dil = draw(st.integers(1, 4)), draw(st.integers(1, 3))
    lo, hi = draw(st.integers(0, max_pad)), draw(st.integers(0, max_pad))
    eff = (f - 1) * dil + 1
    extent = draw(st.integers(max(1, eff - lo - hi), max(1, eff - lo - hi) + 6))
    return f, False, dil, lo, hi, extent


def _footprint(chip: str, dst: str, transposed: bool, rows: int, cols: int, c0: int, dst_stride: int) -> int:
    """Elements spanned by the destination (upper bound) — only used to keep cases inside L0."""
    if chip == "ascend950" or dst == "L0B":
        sr, sc = (cols, rows) if (transposed or dst == "L0B") else (rows, cols)
        s = max(dst_stride, _cdiv(sr, 16))
        return s * 16 * _cdiv(sc, c0) * c0
    return _cdiv(rows, 16) * 16 * _cdiv(cols, c0) * c0 + 16 * c0 * 2


@st.composite
def v2_cases(draw, chip: str, dst: str, dtypes: list[str] | None = None,
             force_repeat: bool = False) -> V2Case:
    dtype = draw(st.sampled_from(dtypes or _dtypes(chip, "Load3Dv2", dst)))
    dt = get_dtype(dtype)
    c0 = dt.c0
    is950 = chip == "ascend950"
    big = draw(st.sampled_from(["none"] * 6 + ["w", "h"]))
    fw, szw, dw, left, right, l1W = _axis(draw, big == "w")
    fh, szh, dh, top, bottom, l1H = _axis(draw, big == "h")
    sw, sh = draw(st.integers(1, 3)), draw(st.integers(1, 3))
    C = draw(st.sampled_from(channel_forms(chip, dt.bits)))
    Kw, Kh = fw + 256 * szw, fh + 256 * szh
    Ho = (l1H + top + bottom - ((Kh - 1) * dh + 1)) // sh + 1
    Wo = (l1W + left + right - ((Kw - 1) * dw + 1)) // sw + 1
    m_tot, k_tot = Ho * Wo, C * Kh * Kw

    # K window: kStartPt a multiple of C0; kExtension a multiple of C0, or reaching the right edge
    # ("如果不覆盖最右侧的分形 ... 应为...的倍数；覆盖的情况则任何数据类型都无倍数要求").
    last_frac = (k_tot - 1) // c0
    if k_tot < c0 or (k_tot <= 65535 and draw(st.booleans())):  # kStartPt is 16-bit (表4)
        k_start = c0 * max(0, last_frac - draw(st.integers(0, 2)))
        k_ext = k_tot - k_start
    else:
        k_start = c0 * draw(st.integers(0, min(last_frac, 40)))
        k_start = min(k_start, (k_tot // c0 - 1) * c0)
        k_ext = c0 * draw(st.integers(1, min(3, (k_tot - k_start) // c0)))

    # M window: mStartPt anywhere (rows past Ho*Wo continue the formula, L8); mExtension a
    # multiple of 16 unless the window covers the bottom fractal (b32: no requirement).
    m_start = draw(st.integers(0, m_tot + 20))
    if draw(st.booleans()):
        m_ext = 16 * draw(st.integers(1, 3))
    elif dt.bits == 32 or draw(st.booleans()):
        # any height anywhere: b32 has no rule; for b4/b8/b16 a height that is not a multiple of 16 above the
        # bottom fractal is a DocConflictWarning (shipped 950 conv kernels, divergence L22)
        m_ext = draw(st.integers(1, 40))
    else:
        m_ext = max(1, m_tot - m_start) + draw(st.integers(0, 20))
        if m_ext > 48:
            m_ext = 16 * draw(st.integers(1, 3))
    if is950 and dt.bits == 8 and dst == "L0B":  # docs/load3d.md: b8 Nz(Wsel^T) moves 32x32 squares
        m_ext = 32 * draw(st.integers(1, 2))

    # Repeat register (SetLoadDataRepeat): repeatTime 0 is a NOP; keep every repeated K window
    # inside the img2col matrix.
    mode = draw(st.integers(0, 1))
    rt = draw(st.sampled_from([2, 3] if force_repeat else [1, 1, 2, 3, 1, 0]))
    rs = draw(st.integers(0, 2))
    if not get_chip(chip).supports("SetLoadDataRepeat"):  # no repeat register: the default (0, 1, 0)
        mode, rt, rs = 0, 1, 0
    unit = c0 * (2 if chip == "atlas200i500a2" else 1)
    if mode == 1:
        while rt > 1 and k_start + (rt - 1) * rs * unit + k_ext > k_tot:
            rt -= 1
    rows = m_ext * (rt if mode == 0 else 1)
    cols = k_ext * (rt if mode == 1 else 1)

    en_t = draw(st.booleans())
    if dst == "L0A":
        ok = get_chip(chip).can_transpose("Load3Dv2", dtype, "L0A")
        if not ok or (is950 and dt.bits == 8 and rows % 32):  # load3d.md: b8 transposed needs R % 32 == 0
            en_t = False
    transposed = en_t or dst == "L0B"
    ds = 0
    if is950 and draw(st.booleans()):
        ds = _cdiv(cols if transposed else rows, 16) + draw(st.integers(0, 2))
    limit = 65536 * 8 // dt.bits
    while rt > 1 and _footprint(chip, dst, transposed, rows, cols, c0, ds) > limit:
        rt -= 1
        rows = m_ext * (rt if mode == 0 else 1)
        cols = k_ext * (rt if mode == 1 else 1)
    if ds:
        ds = max(ds, _cdiv(cols if transposed else rows, 16))
    p = LoadData3DParamsV2([left, right, top, bottom], l1H, l1W, C, k_ext, m_ext, k_start, m_start, sw, sh,
                           fw, fh, dw, dh, en_t, False, pad_value_for(dt), szw, szh)
    return V2Case(chip, dtype, dst, p, (rs, rt, mode), ds)


# ------------------------------------------------------------------------------------------- runners


def run_fast(case: V2Case, flavor: str = "v2", bank: str = "left"
             ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Run the instruction through Core.load_data; return (source codes, dst before, dst after).

    bank = "right": the geometry goes to the right FMATRIX (SetFmatrix FMATRIX_RIGHT, fMatrixCtrl = true),
    the left bank holds a different map (it must not be read)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DocConflictWarning)  # L11 / L22: the cases below are executed
        return _run_fast(case, flavor, bank)


def setup_case(case: V2Case) -> tuple[Core, np.ndarray, LocalTensor, LocalTensor, np.ndarray]:
    """A core with the case's repeat register, its source tensor (holding the self-describing codes) and
    its destination (the whole L0 memory): (core, codes, src, dst, dst bytes before)."""
    core = Core(case.chip)
    dt = get_dtype(case.dtype)
    codes = source_codes(dt, case.src_len, pad_code(dt, case.p.padValue))
    a_side = case.dst == "L0A"
    src = core.tensor("A1" if a_side else "B1", dt, max(case.src_len, 2), offset=0)
    src.write_raw(codes)
    dst = core.tensor("A2" if a_side else "B2", dt, core.memory(case.dst).size * 8 // dt.bits, offset=0)
    rs, rt, mode = case.repeat
    if (rs, rt, mode, case.dst_stride) != (0, 1, 0, 0):
        core.set_load_data_repeat(LoadDataRepeatParam(rs, rt, mode, case.dst_stride))
    return core, codes, src, dst, dst.read_raw()


def _run_fast(case: V2Case, flavor: str, bank: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    core, codes, src, dst, before = setup_case(case)
    dt = get_dtype(case.dtype)
    p = case.p
    a_side = case.dst == "L0A"
    if bank == "right":
        p = copy.copy(p)
        p.fMatrixCtrl = True
        core.set_fmatrix(p.l1H, p.l1W, p.padList, "FMATRIX_RIGHT")
        core.set_fmatrix(p.l1H + 1, p.l1W + 2, [0, 0, 0, 0])  # a left bank that must not be read
    if flavor == "v2":
        core.load_data(dst, src, p, IsResetLoad3dConfig(bank == "left", True))
    else:
        if bank == "left":
            core.set_fmatrix(p.l1H, p.l1W, p.padList)
        if core.chip.supports("SetLoadDataPaddingValue", dt.name):
            core.set_padding_value(p.padValue, dt)
        else:  # fp8 on 950, int4 on A2: set the same low bits through uint8_t (the register holds a bit
            # pattern; the instruction reads the low bits of its element width)
            core.set_padding_value(pad_code(dt, p.padValue), "uint8_t")
        if flavor == "v2pro":
            core.load_data(dst, src, LoadData3DParamsV2Pro.from_v2(p))
        else:
            pos = ("A2", "A1") if a_side else ("B2", "B1")
            core.load_data(dst, src, Load3DBitModeParam(p), dst_pos=pos[0], src_pos=pos[1])
    return codes, before, dst.read_raw()


def run_ref(case: V2Case, codes: np.ndarray, before: np.ndarray) -> np.ndarray:
    p = case.p
    dt = get_dtype(case.dtype)
    return ref_load3d_v2(case.chip, dt, case.dst, codes, p.l1H, p.l1W, p.padList, p.channelSize,
                         p.kExtension, p.mExtension, p.kStartPt, p.mStartPt, p.strideW, p.strideH, p.filterW,
                         p.filterH, p.dilationFilterW, p.dilationFilterH, p.filterSizeW, p.filterSizeH,
                         p.enTranspose, pad_code(dt, p.padValue), case.repeat, case.dst_stride, before)


def assert_same(case: V2Case, got: np.ndarray, want: np.ndarray) -> None:
    bad = np.flatnonzero(got != want)
    if bad.size:
        i = int(bad[0])
        raise AssertionError(f"{case}: {bad.size} destination elements differ; first at element {i}: "
                             f"fast 0x{int(got[i]):x} vs reference 0x{int(want[i]):x}")


def check_v2(case: V2Case, flavor: str = "v2", bank: str = "left") -> None:
    codes, before, got = run_fast(case, flavor, bank)
    if bank == "left":
        assert_same(case, got, run_ref(case, codes, before))
        return
    # the reference picks the geometry from the banks itself (the left one holds another map)
    p, dt = case.p, get_dtype(case.dtype)
    banks = {"right": (p.l1H, p.l1W, p.padList), "left": (p.l1H + 1, p.l1W + 2, [0, 0, 0, 0])}
    want = ref_load3d_v2(case.chip, dt, case.dst, codes, 0, 0, [0, 0, 0, 0], p.channelSize, p.kExtension,
                         p.mExtension, p.kStartPt, p.mStartPt, p.strideW, p.strideH, p.filterW, p.filterH,
                         p.dilationFilterW, p.dilationFilterH, p.filterSizeW, p.filterSizeH, p.enTranspose,
                         pad_code(dt, p.padValue), case.repeat, case.dst_stride, before, fMatrixCtrl=True,
                         fmatrix_banks=banks)
    assert_same(case, got, want)


# ------------------------------------------------------------------------------------------- v1


@dataclass
class V1Case:
    chip: str
    dtype: str
    dst: str
    p: LoadData3DParamsV1
    c1: int  # C1 groups in the source (cSize = 0) — v1 has no channelSize


@st.composite
def v1_cases(draw, chip: str) -> V1Case:
    dtype = draw(st.sampled_from(["half", "int8_t", "uint8_t"]))
    dst = draw(st.sampled_from(["L0A", "L0B"]))
    dt = get_dtype(dtype)
    fw, _, dw, left, right, l1W = _axis(draw, False)
    fh, _, dh, top, bottom, l1H = _axis(draw, False)
    sw, sh = draw(st.integers(1, 3)), draw(st.integers(1, 3))
    c_size = draw(st.sampled_from([0, 0, 1]))
    c1 = 1 if c_size else draw(st.integers(1, 3))
    c1_index = 0 if c_size else draw(st.integers(0, c1 - 1))
    ffh, ffw = draw(st.integers(0, fh - 1)), draw(st.integers(0, fw - 1))
    # The first window must fit inside the padded width: where it does not, divergence L13 does not say
    # whether position 0 sits at leftTopW or already wraps (the fast path wraps; reported to the lead).
    last_w = l1W - 1 + right - (fw - 1) * dw
    lt_w = draw(st.sampled_from([-left, -left, draw(st.integers(-left, max(-left, min(2, last_w))))]))
    lt_h = draw(st.sampled_from([-top, -top, draw(st.integers(-top, 2))]))
    mode = draw(st.integers(0, 1))
    if mode == 0 and not c_size:  # stay inside the C1 groups that exist
        left_points = c1 * fh * fw - ((c1_index * fh + ffh) * fw + ffw)
        rt = draw(st.integers(1, min(8, left_points)))
    else:
        rt = draw(st.integers(1, 6))
    jump = draw(st.integers(1, 3))
    p = LoadData3DParamsV1([left, right, top, bottom], l1H, l1W, c1_index, ffw, ffh, lt_w, lt_h, sw, sh,
                           fw, fh, dw, dh, jump, mode, rt, c_size, pad_value_for(dt))
    return V1Case(chip, dtype, dst, p, c1)


def check_v1(case: V1Case) -> None:
    core = Core(case.chip)
    dt = get_dtype(case.dtype)
    p = case.p
    cp = {16: 4, 8: 8}[dt.bits] if p.cSize else dt.c0
    n = p.l1H * p.l1W * (cp if p.cSize else case.c1 * dt.c0)
    pad = pad_code(dt, p.padValue)
    codes = source_codes(dt, n, pad)
    a_side = case.dst == "L0A"
    src = core.tensor("A1" if a_side else "B1", dt, n, offset=0)
    src.write_raw(codes)
    dst = core.tensor("A2" if a_side else "B2", dt, core.memory(case.dst).size * 8 // dt.bits, offset=0)
    before = dst.read_raw()
    core.load_data(dst, src, p)
    got = dst.read_raw()
    want = ref_load3d_v1(case.chip, dt, case.dst, codes, p.l1H, p.l1W, p.padList, p.c1Index, p.fetchFilterW,
                         p.fetchFilterH, p.leftTopW, p.leftTopH, p.strideW, p.strideH, p.filterW, p.filterH,
                         p.dilationFilterW, p.dilationFilterH, p.jumpStride, p.repeatMode, p.repeatTime,
                         p.cSize, pad, before)
    bad = np.flatnonzero(got != want)
    if bad.size:
        i = int(bad[0])
        raise AssertionError(f"{case}: {bad.size} elements differ; first at {i}: fast 0x{int(got[i]):x} vs "
                             f"reference 0x{int(want[i]):x}")
