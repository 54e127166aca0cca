"""Load3D (img2col): v2, v2Pro, Load3DBitMode and v1 — validate, plan, execute.

Semantics (docs/load3d.md "The img2col matrix", "Window and destination layouts"; doc: LoadData_3D.md,
seeds 000/001):
img2col matrix W has Ho*Wo rows (m = ho*Wo + wo) and K columns ordered (channel group, kh, kw, c).
W[m][k] = X[c, h, w] with h = ho*strideH + kh*dilationH - padTop, w = wo*strideW + kw*dilationW - padLeft,
or the pad value outside the feature map. The instruction takes the window
W[mStartPt : mStartPt+mExtension, kStartPt : kStartPt+kExtension] (repeats concatenate shifted windows
along M or K) and stores it in the destination's fractal layout:

| chip | dst | layout |
| A2/A3/310P/310B/Kirin | L0A | Zz(W), or Zz(W^T) with enTranspose |
| any                   | L0B | Zn(W) = Nz(W^T), column stride ceil(K'/16) (A2/A3) or dstStride (950) |
| 950                   | L0A | Nz(W) / Nz(W^T), column stride dstStride |

Only the window's elements are written; the rest of a partial fractal keeps its bytes — also for a window
whose height is not a multiple of 16 in the middle of the map (divergence L22).

fMatrixCtrl selects the FMATRIX bank the instruction reads: false = left, true = right (SetFmatrix with
FMATRIX_RIGHT). IsResetLoad3dConfig.isSetFMatrix always writes the left bank (the C++ API calls set_fmatrix
whatever fMatrixCtrl says), divergences L11 / L24.

Basis of each refusal (issue 7): the v2 / LoadDataWithStride checks the C++ API makes in
CheckLoadData3dParams, CheckLoadData3dv2Params, CheckLoadData3dv2ChannelSize and
CheckLoadData3dv2MatrixParams (kernel_operator_mm_check.h) say so; v2Pro and BitMode pass their words to
the hardware unchecked, so there the same rules are the doc's (LoadData_3D.md 表4 / 表5, divergence L25).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import partial

import numpy as np

from ..base.diagnostics import doc_conflict, report_hazards
from ..base.errors import (
    OverlapError,
    ParamRangeError,
    UnsupportedError,
    cpp_rejects,
    doc_forbids,
    hw_cannot,
)
from ..engine.boundary import PreparedCall, cached, lookup, run_gather
from ..engine.cache import PLANS
from ..engine.plan import PAD, Plan, UnitPlan
from ..engine.record import ExecReport
from ..engine.state import CoreState
from ..machine import checks
from ..machine.dtypes import DType
from ..machine.layouts import R0, align, cdiv, channel_groups, fmap_l1_offset, nz_offset, zz_offset
from ..machine.memory import LocalTensor
from ..machine.registers import Fmatrix
from ..params import (
    IS_RESER_LOAD3D_DEFAULT_CONFIG,
    IsResetLoad3dConfig,
    Load3DBitModeParam,
    LoadData3DParamsV1,
    LoadData3DParamsV2,
    LoadData3DParamsV2Pro,
)
from .registers import checked_pad_list, checked_pad_pattern, commit_load3d_registers

# Allowed channelSize remainders below one C0 group (doc: LoadData_3D.md channelsize_constraint).
SMALL_CHANNELS = {32: (4,), 16: (4, 8), 8: (4, 8, 16), 4: (8, 16, 32)}


@dataclass(frozen=True)
class Img2colSpec:
    """Everything that determines a v2-family plan: effective, validated values (the cache key)."""

    dtype: str
    bits: int
    layout: str  # "ZZ", "ZZ_T", "NZ", "NZ_T" (L0B is always NZ_T)
    l1H: int
    l1W: int
    pads: tuple[int, int, int, int]  # left, right, top, bottom
    channels: int
    kExtension: int
    mExtension: int
    kStartPt: int
    mStartPt: int
    strideW: int
    strideH: int
    kw: int  # effective filter width (filterW + 256*filterSizeW)
    kh: int
    dilationW: int
    dilationH: int
    repeatStride: int = 0
    repeatTime: int = 1
    repeatMode: int = 0
    repeatKUnit: int = 0  # elements per repeatStride unit along K
    dstStride: int = 0  # Nz column stride in fractals (NZ layouts)
    fmatrix: str = "left"  # the FMATRIX bank l1H / l1W / pads came from (fMatrixCtrl)

    @property
    def c0(self) -> int:
        return 256 // self.bits

    @property
    def out_hw(self) -> tuple[int, int]:
        left, right, top, bottom = self.pads
        ho = (self.l1H + top + bottom - ((self.kh - 1) * self.dilationH + 1)) // self.strideH + 1
        wo = (self.l1W + left + right - ((self.kw - 1) * self.dilationW + 1)) // self.strideW + 1
        return ho, wo

    @property
    def k_total(self) -> int:
        return self.channels * self.kh * self.kw

    @property
    def window_shape(self) -> tuple[int, int]:
        """(rows, columns) of the stored window: repeats extend M (repeatMode 0) or K (repeatMode 1)."""
        return (self.mExtension * (self.repeatTime if self.repeatMode == 0 else 1),
                self.kExtension * (self.repeatTime if self.repeatMode == 1 else 1))

    @property
    def dense_stride(self) -> int:
        """Nz column stride (fractals) of the densely stored window: its fractal rows (of W^T for NZ_T)."""
        rows, cols = self.window_shape
        return cdiv(cols, R0) if self.layout == "NZ_T" else cdiv(rows, R0)

    def window_rows(self) -> np.ndarray:
        """Global img2col row m of each destination row (repeats concatenated along M in mode 0)."""
        base = np.arange(self.mStartPt, self.mStartPt + self.mExtension)
        if self.repeatMode == 0 and self.repeatTime > 1:
            return np.concatenate([base + r * self.repeatStride * R0 for r in range(self.repeatTime)])
        return base

    def window_cols(self) -> np.ndarray:
        base = np.arange(self.kStartPt, self.kStartPt + self.kExtension)
        if self.repeatMode == 1 and self.repeatTime > 1:
            return np.concatenate([base + r * self.repeatStride * self.repeatKUnit
                                   for r in range(self.repeatTime)])
        return base


def readings(spec: Img2colSpec) -> list[str]:
    """docs/divergences.md rows this window's result rests on (arithmetic only: runs on every call)."""
    rows, cols = spec.window_shape
    ho, wo = spec.out_hw
    last_m = spec.mStartPt + spec.mExtension - 1 + (
        (spec.repeatTime - 1) * spec.repeatStride * R0 if spec.repeatMode == 0 else 0)
    out = ["L4"] if spec.mStartPt % R0 else []  # mStartPt off the 16-row grid
    if spec.channels % spec.c0:
        out.append("L5")  # packed channel tail
    if rows % R0 or cols % spec.c0:
        out.append("L7")  # partial fractals
    if last_m >= ho * wo:
        out.append("L8")  # rows past Ho*Wo
    return out


def _fit_hint(spec: Img2colSpec, dst: LocalTensor) -> str:
    """For a window that overflows its destination memory: the largest mExtension that fits."""
    if spec.layout not in ("ZZ", "NZ") or spec.repeatTime != 1:
        return ""
    row_block = R0 * align(spec.window_shape[1], spec.c0) * spec.bits // 8  # bytes per 16 window rows
    fits = (dst.memory.size - dst.offset) // row_block * R0
    return f"; the largest mExtension that fits from {dst.memory.name} 0x{dst.offset:x} is {fits}" if fits \
        else ""


def img2col_columns(spec: Img2colSpec, k: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(kh, kw, channel) of img2col columns k: order (channel group, kh, kw, channel in group)."""
    kh = np.empty_like(k)
    kw = np.empty_like(k)
    ch = np.empty_like(k)
    for first, n in channel_groups(spec.channels, spec.c0):
        base = first * spec.kh * spec.kw
        sel = (k >= base) & (k < base + n * spec.kh * spec.kw)
        j = k[sel] - base
        kh[sel], kw[sel], ch[sel] = j // (spec.kw * n), (j // n) % spec.kw, first + j % n
    return kh, kw, ch


def dst_offsets(layout: str, rows: np.ndarray, cols: np.ndarray, n_rows: int, n_cols: int, c0: int,
                stride: int) -> np.ndarray:
    """Destination element offset of window element (row, col) for each layout."""
    if layout == "ZZ":
        return zz_offset(rows, cols, n_cols, c0)
    if layout == "ZZ_T":
        # Transposition works on 16-row squares (b32: two 16x8 fractals side by side), so a fractal row of
        # Zz(W^T) holds ceil(M'/16) squares = 2*ceil(M'/16) b32 fractals (docs/load3d.md "Window and
        # destination layouts", b32).
        return zz_offset(cols, rows, align(n_rows, R0), c0)
    if layout == "NZ":
        return nz_offset(rows, cols, n_rows, c0, stride or None)
    return nz_offset(cols, rows, n_cols, c0, stride or None)  # NZ_T


def dst_end(spec: Img2colSpec) -> int:
    """Bytes from the destination start to one past the window's last element, by arithmetic: every layout's
    offset grows with the row and with the column, so the last element (rows-1, cols-1) lies furthest (the
    extent-first bounds check; `tests/isa/test_load3d_errors.py` compares it with the plans' extents)."""
    rows, cols = spec.window_shape
    last = dst_offsets(spec.layout, rows - 1, cols - 1, rows, cols, spec.c0, spec.dstStride)
    return -(-(int(last) + 1) * spec.bits // 8)


def plan_img2col(spec: Img2colSpec, instr: str = "Load3Dv2") -> Plan:
    """Element-level plan (provenance for explain/draw; the executable fallback of `units_img2col`)."""
    return PLANS.memo(("img2col", spec, instr), lambda: _plan_img2col(spec, instr))


def _plan_img2col(spec: Img2colSpec, instr: str) -> Plan:
    m = spec.window_rows()
    k = spec.window_cols()
    left, _, top, _ = spec.pads
    ho_n, wo_n = spec.out_hw
    kh, kw, ch = img2col_columns(spec, k)
    ho, wo = m // wo_n, m % wo_n
    h = ho[:, None] * spec.strideH + kh[None, :] * spec.dilationH - top
    w = wo[:, None] * spec.strideW + kw[None, :] * spec.dilationW - left
    valid = (h >= 0) & (h < spec.l1H) & (w >= 0) & (w < spec.l1W)
    src = np.where(valid, fmap_l1_offset(ch[None, :], np.clip(h, 0, None), np.clip(w, 0, None),
                                         spec.channels, spec.l1H, spec.l1W, spec.c0), -1)
    r, c = np.meshgrid(np.arange(m.size), np.arange(k.size), indexing="ij")
    dst = dst_offsets(spec.layout, r, c, m.size, k.size, spec.c0, spec.dstStride)
    return Plan.build(instr, spec.bits, dst, src, info={"spec": spec, "Ho": ho_n, "Wo": wo_n,
                                                        "rows": m.size, "cols": k.size})


#: Largest padded source-index image (entries) `_blocks_by_image` builds; larger maps use arithmetic.
IMAGE_CAP = 1 << 20


def _dense_order(spec: Img2colSpec, per_row: np.ndarray, per_block: np.ndarray, dense: bool
                 ) -> tuple[np.ndarray, np.ndarray]:
    """Broadcastable (row, column-block) operands, in destination order when the window is dense:
    (fractal row, column block, row in fractal) for Zz, (column block, fractal row, row) for Nz."""
    if not dense:
        return per_row[:, None], per_block[None, :]
    if spec.layout == "NZ":
        return per_row.reshape(1, -1, R0), per_block[:, None, None]
    return per_row.reshape(-1, 1, R0), per_block[None, :, None]


def _blocks_by_image(spec: Img2colSpec, ho: np.ndarray, wo: np.ndarray, g: np.ndarray, kh: np.ndarray,
                     kw: np.ndarray, dense: bool) -> np.ndarray | None:
    """Source block of each (row, column block), PAD outside the map, read from a cached image of the
    padded map's block indices: one add and one `take` per call (a cold call in a tiling sweep costs
    this). None when the image would exceed IMAGE_CAP entries."""
    left, right, top, bottom = spec.pads
    hp_n = max(top + spec.l1H + bottom, int(ho[-1] if ho.size else 0) * spec.strideH
               + (spec.kh - 1) * spec.dilationH + 1)  # rows past Ho*Wo (L8) read below the pads
    wp_n = left + spec.l1W + right
    groups = spec.channels // spec.c0
    if groups * hp_n * wp_n > IMAGE_CAP:
        return None
    img = PLANS.memo(("img2col-image", spec.l1H, spec.l1W, top, left, hp_n, wp_n, groups),
                     lambda: _ImageIndex(spec.l1H, spec.l1W, top, left, hp_n, wp_n, groups))
    per_row = ho * (spec.strideH * wp_n) + wo * spec.strideW
    per_block = g * (hp_n * wp_n) + kh * (spec.dilationH * wp_n) + kw * spec.dilationW
    r, b = _dense_order(spec, per_row, per_block, dense)
    return img.flat.take(r + b)


class _ImageIndex:
    """NC1HWC0 block index of every (group, padded h, padded w), PAD where the padding is."""

    def __init__(self, l1h: int, l1w: int, top: int, left: int, hp_n: int, wp_n: int, groups: int) -> None:
        img = np.full((groups, hp_n, wp_n), PAD, dtype=np.intp)
        h_in = min(l1h, hp_n - top)
        img[:, top : top + h_in, left : left + l1w] = np.arange(groups * l1h * l1w, dtype=np.intp).reshape(
            groups, l1h, l1w)[:, :h_in]
        self.flat = img.ravel()
        self.flat.flags.writeable = False
        self.nbytes = self.flat.nbytes


def _blocks_by_arithmetic(spec: Img2colSpec, ho: np.ndarray, wo: np.ndarray, g: np.ndarray,
                          kh: np.ndarray, kw: np.ndarray, dense: bool) -> np.ndarray:
    """`_blocks_by_image` computed from the coordinates (any map size)."""
    left, _, top, _ = spec.pads
    hb, hk = _dense_order(spec, ho * spec.strideH - top, kh * spec.dilationH, dense)
    wb, wk = _dense_order(spec, wo * spec.strideW - left, kw * spec.dilationW, dense)
    _, gg = _dense_order(spec, ho, g, dense)
    h, w = hb + hk, wb + wk
    # 0 <= h < H in one comparison: negative int64s are huge as uint64
    valid = (h.view(np.uint64) < spec.l1H) & (w.view(np.uint64) < spec.l1W)
    src = h * spec.l1W + w + gg * (spec.l1H * spec.l1W)
    src[~valid] = PAD
    return src


_COLUMNS: dict[tuple, tuple[np.ndarray, np.ndarray, np.ndarray] | None] = {}


def _column_blocks(spec: Img2colSpec) -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
    """(channel group, kh, kw) of each C0-column block of the window (kExtension a multiple of C0), or None
    when a block lies in the packed tail group. Memoised: a tiling sweep moves the M window only."""
    key = (spec.kStartPt, spec.kExtension, spec.repeatMode, spec.repeatTime, spec.repeatStride,
           spec.repeatKUnit, spec.c0, spec.kh, spec.kw, spec.channels)
    if key in _COLUMNS:
        return _COLUMNS[key]
    c0 = spec.c0
    starts = spec.window_cols()[::c0]
    g, rem = np.divmod(starts, c0 * spec.kh * spec.kw)  # whole groups: columns (g, kh, kw, c), c fastest
    out = None
    if not (starts >= (spec.channels - spec.channels % c0) * spec.kh * spec.kw).any():
        kh, kw = np.divmod(rem // c0, spec.kw)
        out = (g, kh, kw)
        for a in out:
            a.flags.writeable = False
    if starts.size <= 4096:  # (bounded: at most 64 entries of 3 small arrays)
        if len(_COLUMNS) >= 64:
            _COLUMNS.clear()
        _COLUMNS[key] = out
    return out


def units_img2col(spec: Img2colSpec, instr: str = "Load3Dv2") -> UnitPlan:
    """The executable plan, built directly in 32-B blocks where the window allows (non-transposed
    layouts, whole C0 channel groups, whole C0 column blocks), else coarsened from the element plan.

    In Zz(W) / Nz(W) a 32-B destination block is one window row and C0 consecutive columns; with whole
    channel groups those columns are one kernel point (kh, kw) of one group g, i.e. the C0 channels of
    one pixel: NC1HWC0 block (g*H + h)*W + w, or pad outside the map. (A cold call in a tiling sweep
    costs this function, so it works on (rows x column-blocks) arrays only.)
    """
    c0 = spec.c0
    if spec.layout not in ("ZZ", "NZ") or spec.kExtension % c0:
        return plan_img2col(spec, instr).units
    columns = _column_blocks(spec)
    if columns is None:  # a block in the packed tail group (L5)
        return plan_img2col(spec, instr).units
    g, kh, kw = columns
    rows = spec.window_rows()
    ho, wo = np.divmod(rows, spec.out_hw[1])
    r_n, kb_n = rows.size, g.size
    stride = spec.dstStride or cdiv(r_n, R0)
    dense = r_n % R0 == 0 and (spec.layout == "ZZ" or stride == r_n // R0)
    src = _blocks_by_image(spec, ho, wo, g, kh, kw, dense)
    if src is None:
        src = _blocks_by_arithmetic(spec, ho, wo, g, kh, kw, dense)
    n_pad = int(np.count_nonzero(src == PAD)) * c0
    if dense:
        return UnitPlan(instr, spec.bits, 32, None, src.ravel(), n_pad, dense=True)
    r = np.arange(r_n)[:, None]
    kb = np.arange(kb_n)
    if spec.layout == "ZZ":
        dst = ((r // R0) * kb_n + kb) * R0 + r % R0
    else:
        dst = (kb * stride + r // R0) * R0 + r % R0
    return UnitPlan(instr, spec.bits, 32, dst, src, n_pad)


# -- validation --------------------------------------------------------------------------------------


def _channel_forms(bits: int) -> str:
    c0 = 256 // bits
    small = SMALL_CHANNELS[bits]
    return ", ".join([*map(str, small), f"N*{c0}", *(f"N*{c0}+{s}" for s in small if s < c0)])


@dataclass(frozen=True)
class _Target:
    dst_mem: str
    layout: str
    transpose: bool


def _tensor_checks(instr: str, dst: LocalTensor, src: LocalTensor, align: bool = True) -> None:
    """Checks on the tensors themselves: memories, dtypes, and (unless the boundary checks it per
    placement) alignment."""
    if src.memory.name != "L1":
        checks.position(instr, "src", src, ("L1",), checks.PHYSICAL_POSITION)
    if dst.memory.name not in ("L0A", "L0B"):
        checks.position(instr, "dst", dst, ("L0A", "L0B"), checks.PHYSICAL_POSITION)
    if dst.dtype is not src.dtype:  # each guard is the cheap test; checks.* builds the error
        checks.same_dtype(instr, dst, src)
    if align and src.offset % 32:
        checks.aligned(instr, "src (L1)", src, 32, checks.ALIGNMENT)
    if align and dst.offset % 512:
        checks.aligned(instr, "dst (L0)", dst, 512, checks.ALIGNMENT)


def _target(core: CoreState, instr: str, api: str, dst_mem: str, dtype: DType, en_transpose: bool) -> _Target:
    """Check dtype/path support and transpose validity on this chip; choose the destination layout."""
    core.chip.check(api, dtype.name, "L1", dst_mem, instr=instr)
    nz = core.chip.l0a_format == "NZ"
    if dst_mem == "L0B":
        return _Target("L0B", "NZ_T", True)  # always transposed; enTranspose ignored (doc 表4)
    if en_transpose:
        if not core.chip.can_transpose(api, dtype.name, "L0A"):
            raise UnsupportedError(
                f"{instr}: enTranspose=true is not supported for {dtype.name} to L0A on {core.chip.name}",
                                   basis=doc_forbids('LoadData_3D.md entranspose_constraint', 'L10'))
        return _Target("L0A", "NZ_T" if nz else "ZZ_T", True)
    return _Target("L0A", "NZ" if nz else "ZZ", False)


#: The v2-family instructions whose fields the C++ API checks itself (CheckLoadData3dParams,
#: CheckLoadData3dv2Params, CheckLoadData3dv2ChannelSize, CheckLoadData3dv2MatrixParams); v2Pro and
#: Load3DBitMode hand their packed words to the hardware unchecked.
CPP_CHECKED = ("Load3Dv2", "LoadDataWithStride")
_F8 = ("hifloat8_t", "fp8_e5m2_t", "fp8_e4m3fn_t")


def _basis(instr: str, cpp_check: str, doc_rule: str, row: str = "L25") -> str:
    """The C++ check for v2 / LoadDataWithStride, else the doc rule (v2Pro / BitMode, divergence L25)."""
    return cpp_rejects(cpp_check) if instr in CPP_CHECKED else doc_forbids(doc_rule, row)


def _check_window(instr: str, spec: Img2colSpec, names: dict[str, str]) -> list[tuple[str, str]]:
    """kStartPt/kExtension/mExtension multiples and the window's place in W (doc: LoadData_3D.md 表4).

    Returns the doc conflicts of an accepted window: a height that is not a multiple of 16 and ends
    above the bottom fractal (shipped 950 conv kernels; divergence L22)."""
    c0 = spec.c0
    ho, wo = spec.out_hw
    if ho < 1 or wo < 1:
        raise ParamRangeError(
            f"{instr}: the dilated filter ({spec.kh}x{spec.kw}, dilation {spec.dilationH}x{spec.dilationW}) "
            f"is larger than the padded feature map ({spec.l1H}x{spec.l1W}, pads {list(spec.pads)}), "
            f"so Ho x Wo = {ho} x {wo}", basis=hw_cannot('the img2col matrix has no row'))
    k_end = spec.kStartPt + spec.kExtension
    last_col = (cdiv(spec.k_total, c0) - 1) * c0
    bad_k = spec.kExtension % c0 and k_end <= last_col
    if spec.kStartPt % c0 or bad_k:  # (the basis text is built only for a refusal)
        kbasis = _basis(instr, "CheckLoadData3dv2MatrixParams", "LoadData_3D.md 表4 kStartPt/kExtension")
        checks.multiple(instr, names["kStartPt"], spec.kStartPt, c0, f" (C0 of {spec.dtype})", kbasis)
        raise ParamRangeError(
            f"{instr}: {names['kExtension']} must be a multiple of {c0} for {spec.dtype} unless the window "
            f"reaches the right-most fractal (column {last_col} of {spec.k_total}), "
            f"but got {spec.kExtension}", basis=kbasis)
    last_k = spec.kStartPt + spec.kExtension - 1 + (  # arithmetic: no arrays on the validation path
        (spec.repeatTime - 1) * spec.repeatStride * spec.repeatKUnit if spec.repeatMode == 1 else 0)
    if last_k >= spec.k_total:
        raise ParamRangeError(
            f"{instr}: the K window reaches column {last_k}, past the img2col width "
            f"C*Kh*Kw = {spec.channels}*{spec.kh}*{spec.kw} = {spec.k_total} "
            f"({names['kStartPt']}={spec.kStartPt}, {names['kExtension']}={spec.kExtension})",
            basis=doc_forbids("LoadData_3D.md 表4: the K window lies inside the img2col matrix", "L8"))
    m_total = ho * wo
    last_row = (cdiv(m_total, R0) - 1) * R0
    if spec.bits != 32 and spec.mExtension % R0 and spec.mStartPt + spec.mExtension <= last_row:
        # The doc asks for a multiple of 16 here; the hardware writes the window's rows and shipped 950
        # conv kernels load hoL0 * Wo rows mid-map (Load3DBitMode, bottom pad 255): divergence L22.
        return [(f"LoadData_3D.md 表4 {names['mExtension']}: 如果不覆盖最下侧的分形, 应为16的倍数; got "
                 f"{spec.mExtension} ending at row {spec.mStartPt + spec.mExtension} of Ho*Wo = {m_total}",
                 "L22")]
    return []


def _check_dst_stride(instr: str, spec: Img2colSpec) -> None:
    """950 Nz destinations: dstStride must clear one fractal column; transposed b8 moves 32x32 squares."""
    rows = spec.window_shape[0]
    frac_rows = spec.dense_stride
    if spec.dstStride < frac_rows:
        raise OverlapError(
            f"{instr}: dstStride (Nz column stride) must be >= {frac_rows} fractals for this window, "
            f"but got {spec.dstStride}; fractal columns would overlap",
            basis=doc_forbids("SetLoadDataRepeat.md dstStride 输出矩阵K轴方向偏移: the order of overlapping "
                              "column writes is undocumented", "L9"))
    if spec.layout == "NZ_T" and spec.bits == 8 and rows % 32:
        raise ParamRangeError(
            f"{instr}: transposed b8 loads move 32x32 squares, so the M window ({rows} rows) must be a "
            f"multiple of 32",
            basis=doc_forbids("LoadData_3D.md 转置: 2个16×32的分形拼接为一个32×32的方块矩阵", "L7"))


# -- the v2 family -----------------------------------------------------------------------------------


def _v2_ranges(instr: str, p) -> dict[str, int]:
    """Range checks shared by v2 / v2Pro / BitMode (doc: LoadData_3D.md 表4; seed 000 表4/5)."""
    f = checks.field
    v2 = instr in CPP_CHECKED
    # v2: the C++ API checks strides (CheckLoadData3dParams) and dilations (CheckLoadData3dv2Params);
    # the packed words: a 0 has no defined meaning (divergence L3), wider values do not fit the field.
    def nonzero(name: str, hi: int, check: str, bits: int) -> int:
        value = getattr(p, name)
        if value.__class__ is int and 1 <= value <= hi:
            return value  # the common case, without building the refusal's basis text
        if v2:
            return checks.in_range(instr, name, value, 1, hi, cpp_rejects(check))
        if value == 0:
            return checks.in_range(instr, name, value, 1, hi,
                                   doc_forbids(f"LoadData_3D.md 表4 {name} >= 1", "L3"))
        return checks.in_range(instr, name, value, 1, hi, hw_cannot(f"{bits}-bit field"))

    return {
        "channelSize": f(instr, "channelSize", p.channelSize, 16, ctype="uint16_t"),
        "kExtension": f(instr, "kExtension", p.kExtension, 16, ctype="uint16_t"),
        "mExtension": f(instr, "mExtension", p.mExtension, 16, ctype="uint16_t"),
        "kStartPt": f(instr, "kStartPt", p.kStartPt, 16, ctype="uint16_t"),
        # LoadData_3D.md 表4 / LoadDataWithStride.md: [0, 32767] (CheckLoadData3dv2MatrixParams: UINT15_MAX);
        # the v2Pro/BitMode 16-bit fields: 65535
        "mStartPt": (f(instr, "mStartPt", p.mStartPt, 16) if not v2
                     else p.mStartPt if p.mStartPt.__class__ is int and 0 <= p.mStartPt <= 32767
                     else checks.in_range(instr, "mStartPt", p.mStartPt, 0, 32767,
                                          cpp_rejects("CheckLoadData3dv2MatrixParams: UINT15_MAX"))),
        "strideW": nonzero("strideW", 63, "CheckLoadData3dParams", 6),
        "strideH": nonzero("strideH", 63, "CheckLoadData3dParams", 6),
        "filterW": f(instr, "filterW", p.filterW, 8, ctype="uint8_t" if v2 else ""),
        "filterH": f(instr, "filterH", p.filterH, 8, ctype="uint8_t" if v2 else ""),
        "dilationFilterW": nonzero("dilationFilterW", 255, "CheckLoadData3dv2Params", 8),
        "dilationFilterH": nonzero("dilationFilterH", 255, "CheckLoadData3dv2Params", 8),
    }


def check_channel_size(instr: str, c: int, dt: DType) -> None:
    c0 = dt.c0
    small = SMALL_CHANNELS[dt.bits]
    if c in small or (c >= c0 and (c % c0 == 0 or c % c0 in small)):
        return
    basis = (cpp_rejects("CheckLoadData3dv2ChannelSize") if instr in CPP_CHECKED and dt.name not in _F8
             else doc_forbids("LoadData_3D.md channelsize_constraint", "L5"))
    fit = next(n for n in range(c + 1, c + 2 * c0 + 2)
               if n in small or (n >= c0 and (n % c0 == 0 or n % c0 in small)))
    raise ParamRangeError(f"{instr}: channelSize for {dt.name} must be one of "
                          f"{_channel_forms(dt.bits)} (N >= 1), but got {c}; pad the map to {fit} "
                          f"channels (zero channels) and pass channelSize = {fit}", basis=basis)


@dataclass(frozen=True)
class _CheckedWindow:
    """A validated call (cached per call key): the plan spec (None = NOP), the pad pattern, the register
    writes (FMATRIX left bank, PADDING), the bank read, and what to report on every call."""

    spec: Img2colSpec | None
    pad: int
    writes: tuple[Fmatrix | None, int | None]
    bank: str = "left"
    conflicts: tuple[tuple[str, str], ...] = ()  # (doc rule, divergence row): DocConflictWarning each call
    hazards: tuple[str, ...] = ()  # HazardWarning each call


def _prepare_v2_family(core: CoreState, instr: str, api: str, dst_mem: str, dtype: DType, p,
                       banks: tuple[Fmatrix, Fmatrix], names: dict[str, str]
                       ) -> tuple[Img2colSpec | None, str, list[tuple[str, str]]]:
    """Validate a v2 / v2Pro / BitMode call (struct decoded into V2-style fields) into its plan spec
    (None for a documented NOP), the FMATRIX bank it reads (`banks` = (left, right) as the call sees
    them) and its doc conflicts. Depends only on values, so the result is cached per call key."""
    v = _v2_ranges(instr, p)
    en_t = checks.flag(instr, names["enTranspose"], p.enTranspose)
    fsw = checks.flag(instr, "filterSizeW", p.filterSizeW)
    fsh = checks.flag(instr, "filterSizeH", p.filterSizeH)
    conflicts: list[tuple[str, str]] = []
    right = checks.flag(instr, names["fMatrixCtrl"], p.fMatrixCtrl)
    if right:  # the right bank (SetFmatrix FMATRIX_RIGHT); the doc says only false is supported (L11)
        conflicts.append((f"LoadData_3D.md 表4 {names['fMatrixCtrl']}: 当前只支持设置为false", "L11"))
    fm = banks[right]
    tgt = _target(core, instr, api, dst_mem, dtype, en_t)
    c = core.chip.doc_conflict(api, dtype.name, "L1", dst_mem)
    if c:
        conflicts.append(c)
    rep = core.regs.repeat
    nop = (fm.l1H == 0 or fm.l1W == 0 or v["channelSize"] == 0 or v["kExtension"] == 0
           or v["mExtension"] == 0 or (v["filterW"] == 0 and not fsw) or (v["filterH"] == 0 and not fsh)
           or rep.repeatTime == 0)
    is950 = core.chip.l0a_format == "NZ"
    spec = None
    if not nop:
        check_channel_size(instr, v["channelSize"], dtype)
        spec = Img2colSpec(
            dtype.name, dtype.bits, tgt.layout, fm.l1H, fm.l1W, fm.padList, v["channelSize"],
            v["kExtension"], v["mExtension"], v["kStartPt"], v["mStartPt"], v["strideW"], v["strideH"],
            v["filterW"] + 256 * fsw, v["filterH"] + 256 * fsh, v["dilationFilterW"], v["dilationFilterH"],
            rep.repeatStride, rep.repeatTime, rep.repeatMode,
            (64 if core.chip.key == "atlas200i500a2" else 32) * 8 // dtype.bits,
            fmatrix="right" if right else "left",
        )
        conflicts += _check_window(instr, spec, names)
        if is950 or tgt.dst_mem == "L0B":
            spec = _with_dst_stride(spec, rep.dstStride if is950 else 0)
            if is950:
                _check_dst_stride(instr, spec)
    return spec, "right" if right else "left", conflicts


def _run(core: CoreState, instr: str, dst: LocalTensor, src: LocalTensor, key: tuple | None, prepare,
         *args: object) -> ExecReport:
    """Look up (or validate and add) the prepared call for `key`, then run it through the boundary.

    `prepare(*args)` returns a `_CheckedWindow` after every value-dependent check, so a key is cached only
    once
    it validated; a bad call raises every time and changes nothing. (A function and its arguments rather
    than a closure: the warm path, a cache hit, builds nothing.) Doc conflicts and hazards are reported
    on every call (strict mode raises them, still before any byte or register changes); registers are
    committed only after the execution succeeded.
    """
    prep = cached(key)
    if prep is None:
        prep = lookup(key, lambda: _prepared(core, instr, dst, src, partial(prepare, *args)))
    return run_gather(core, prep, dst, src, core.regs.boundary)


def _conflict(instr: str, rule: str, row: str, core: CoreState) -> list[str]:
    return [doc_conflict(instr, rule, row, core.strict)]


def _hazards(hazards: tuple[str, ...], core: CoreState) -> list[str]:
    report_hazards(list(hazards), core.strict)
    return list(hazards)


def _prepared(core: CoreState, instr: str, dst: LocalTensor, src: LocalTensor, prepare) -> PreparedCall:
    _tensor_checks(instr, dst, src, align=False)
    pp: _CheckedWindow = prepare()
    fm_w, pad_w = pp.writes
    commit = None
    if fm_w is not None or pad_w is not None:
        def commit(core: CoreState) -> None:  # the C++ API writes the registers the call carries
            commit_load3d_registers(core, fm_w, pad_w)
    warn: list = [partial(_conflict, instr, rule, row) for rule, row in pp.conflicts]
    if pp.hazards:
        warn.append(partial(_hazards, pp.hazards))
    notes = [row for _, row in pp.conflicts]
    if pp.spec is None:  # NOP: the C++ API still writes the registers before issuing the instruction
        if fm_w is None or pp.bank == "right":
            warn.append(partial(_nop_hazard, instr, pp.bank))
        return PreparedCall(instr, commit=commit, warnings=warn, notes=notes)
    spec = pp.spec
    rows, cols = spec.window_shape
    notes += readings(spec)
    if core.chip.l0a_format == "NZ" and not core.regs.repeat.dstStride:
        notes.append("L9")  # 950 dstStride register not set: the dense stride
    return PreparedCall(instr, spec, units=partial(units_img2col, spec, instr),
                    planner=partial(plan_img2col, spec, instr), pad=pp.pad, commit=commit, warnings=warn,
                    notes=notes, min_dst=dst_end(spec), wrap=1, hint=partial(_fit_hint, spec),
                    aligns=((1, 32, "src (L1)"), (0, 512, "dst (L0)")))


def _nop_hazard(instr: str, bank: str, core: CoreState) -> list[str]:
    """A documented NOP the chip performs silently; most likely the FMATRIX was never set."""
    fm = core.regs.fmatrix_right if bank == "right" else core.regs.fmatrix_left
    if fm.l1H and fm.l1W:
        return []
    hz = [f"{instr}: NOP because the FMATRIX register holds l1H = {fm.l1H}, l1W = {fm.l1W} "
          f"(this call reads the {bank} bank from the register: call SetFmatrix"
          f"{' with FMATRIX_RIGHT' if bank == 'right' else ''} first)"]
    report_hazards(hz, core.strict)
    return hz


def _with_dst_stride(spec: Img2colSpec, reg: int) -> Img2colSpec:
    """Nz column stride: the 950 register when set, else the dense stride of the stored matrix."""
    return replace(spec, dstStride=reg or spec.dense_stride)


_V2_NAMES = {n: n for n in ("kStartPt", "kExtension", "mExtension", "mStartPt", "enTranspose", "fMatrixCtrl")}
_BM_NAMES = {"kStartPt": "kPos", "kExtension": "kStep", "mExtension": "mStep", "mStartPt": "mPos",
             "enTranspose": "transpose", "fMatrixCtrl": "fmatrixCtrl"}


def _config(instr: str, config: object) -> tuple[bool, bool]:
    """(isSetFMatrix, isSetPadding) of the IsResetLoad3dConfig template argument (None: the default)."""
    if config is None:
        config = IS_RESER_LOAD3D_DEFAULT_CONFIG
    elif config.__class__ is not IsResetLoad3dConfig:
        checks.struct(instr, "config", config, (IsResetLoad3dConfig,))
    sf, sp = config.isSetFMatrix, config.isSetPadding  # type: ignore[attr-defined]
    if (sf is not True and sf is not False) or (sp is not True and sp is not False):
        sf = checks.flag(instr, "config.isSetFMatrix", sf, cpp_rejects("bool isSetFMatrix"))
        sp = checks.flag(instr, "config.isSetPadding", sp, cpp_rejects("bool isSetPadding"))
    return sf, sp


def _resolve_registers(core: CoreState, instr: str, dt: DType, p: LoadData3DParamsV1 | LoadData3DParamsV2,
                       sf: bool, sp: bool) -> tuple[Fmatrix, int, tuple[Fmatrix | None, int | None]]:
    """Effective left FMATRIX and pad pattern, and what the call writes (IsResetLoad3dConfig isSetFMatrix /
    isSetPadding = sf / sp): the struct's l1H/l1W/padList go to the left bank (the C++ API's
    Load3DSetFMatrixCal calls set_fmatrix)."""
    fm, pad_w = None, None
    if sf:
        l1 = cpp_rejects("CheckLoadData3dParams: ASC_MAX_LOAD3D_L1")
        fm = Fmatrix(checks.in_range(instr, "l1H", p.l1H, 0, 32767, l1),
                     checks.in_range(instr, "l1W", p.l1W, 0, 32767, l1), checked_pad_list(instr, p.padList))
    if sp:
        pad_w = checked_pad_pattern(instr, dt, p.padValue)
    eff_fm = fm if fm is not None else core.regs.fmatrix_left
    eff_pad = pad_w if pad_w is not None else core.regs.padding
    return eff_fm, eff_pad, (fm, pad_w)


def _key(core: CoreState, instr: str, dst: LocalTensor, src: LocalTensor, pk: tuple | None,
         reads_fmatrix: bool = True, reads_padding: bool = True) -> tuple | None:
    """The prepared-call key of a Load3D call: operands, params, and the register state the call reads
    (only that: a call that carries its own FMATRIX / pad value does not miss the cache because an
    earlier call changed the register). None when the params have no key."""
    if pk is None:
        return None
    r = core.regs
    return (instr, dst.memory.name, dst.dtype.name, src.memory.name, src.dtype.name, pk, core.chip.key,
            r.fmatrix_left if reads_fmatrix else None, r.fmatrix_right, r.padding if reads_padding else None,
            r.repeat)


def _run_v2(core: CoreState, instr: str, dst: LocalTensor, src: LocalTensor, p: LoadData3DParamsV2,
            config: IsResetLoad3dConfig | None) -> ExecReport:
    """A LoadData3DParamsV2 call (`instr` is also its chip-table API key): FMATRIX / PADDING from the
    struct or the registers as IsResetLoad3dConfig says, then the v2 checks and plan."""
    sf, sp = _config(instr, config)
    key = _key(core, instr, dst, src, p.key(), not sf, not sp)
    if key is not None:
        key = (*key, sf, sp)
    return _run(core, instr, dst, src, key, _prepare_v2, core, instr, dst, p, sf, sp)


def _prepare_v2(core: CoreState, instr: str, dst: LocalTensor, p: LoadData3DParamsV2, sf: bool, sp: bool
                ) -> _CheckedWindow:
    fm, pad, writes = _resolve_registers(core, instr, dst.dtype, p, sf, sp)
    spec, bank, conflicts = _prepare_v2_family(core, instr, instr, dst.memory.name, dst.dtype, p,
                                               (fm, core.regs.fmatrix_right), _V2_NAMES)
    hazards = ()
    if bank == "right" and writes[0] is not None:
        hazards = (f"{instr}: isSetFMatrix = true writes the struct's l1H/l1W/padList "
                   f"({writes[0].l1H}, {writes[0].l1W}, {list(writes[0].padList)}) to the left FMATRIX, "
                   f"but fMatrixCtrl = true makes the load read the right bank; pass "
                   f"IsResetLoad3dConfig{{false, ...}} and SetFmatrix(..., FMATRIX_RIGHT) (the C++ API "
                   f"does the same; docs/divergences.md L24)",)
    return _CheckedWindow(spec, pad, writes, bank, tuple(conflicts), hazards)


def load3d_v2(core: CoreState, dst: LocalTensor, src: LocalTensor, p: LoadData3DParamsV2,
              config: IsResetLoad3dConfig | None = None, _dst_pos: str | None = None,
              _src_pos: str | None = None) -> ExecReport:
    """`LoadData<T, config>(dst, src, LoadData3DParamsV2)` (doc: LoadData_3D.md 表4)."""
    return _run_v2(core, "Load3Dv2", dst, src, p, config)


def load_data_with_stride(core: CoreState, dst: LocalTensor, src: LocalTensor, p: LoadData3DParamsV2,
                          config: IsResetLoad3dConfig | None = None) -> ExecReport:
    """`LoadDataWithStride(dst, src, LoadData3DParamsV2)` (950): Load3D v2 whose Nz column stride must
    come from SetLoadDataRepeatWithStride (doc: LoadDataWithStride.md 功能说明 / 约束说明)."""
    instr = "LoadDataWithStride"
    core.chip.check(instr, instr=instr)
    if core.regs.repeat.dstStride == 0:
        raise ParamRangeError(
            f"{instr}: dstStride must be set with SetLoadDataRepeatWithStride first (>= 1 fractal), but the "
            f"register holds 0", basis=doc_forbids("LoadDataWithStride.md 约束说明: 必须配置dstStride", "L9"))
    return _run_v2(core, instr, dst, src, p, config)


def _registers_only(core: CoreState, instr: str, api: str, dst: LocalTensor, p, names: dict[str, str]
                    ) -> _CheckedWindow:
    """v2Pro / BitMode: FMATRIX and PADDING always come from the registers; nothing is written."""
    spec, bank, conflicts = _prepare_v2_family(core, instr, api, dst.memory.name, dst.dtype, p,
                                               (core.regs.fmatrix_left, core.regs.fmatrix_right), names)
    return _CheckedWindow(spec, core.regs.padding, (None, None), bank, tuple(conflicts))


def load3d_v2pro(core: CoreState, dst: LocalTensor, src: LocalTensor, p: LoadData3DParamsV2Pro,
                 _config: object = None, _dst_pos: str | None = None, _src_pos: str | None = None
                 ) -> ExecReport:
    """v2Pro: no l1H/l1W/padList/padValue in the struct; they always come from the registers."""
    instr = "Load3Dv2Pro"
    return _run(core, instr, dst, src, _key(core, instr, dst, src, p.key()), _prepare_v2pro, core, dst, p)


def _prepare_v2pro(core: CoreState, dst: LocalTensor, p: LoadData3DParamsV2Pro) -> _CheckedWindow:
    instr = "Load3Dv2Pro"
    for word in ("extConfig", "filterConfig"):  # uint64_t in C++ (doc: LoadData_3D.md 表5)
        checks.field(instr, word, getattr(p, word), 64, ctype="uint64_t")
    return _registers_only(core, instr, "Load3Dv2Pro", dst, p, _V2_NAMES)


class _BitModeView:
    """Load3DBitModeParam read through V2 field names."""

    def __init__(self, bm: Load3DBitModeParam) -> None:
        d = bm.as_dict()
        self.__dict__.update(d)
        self.enTranspose = d["transpose"]
        self.fMatrixCtrl = d["fmatrixCtrl"]
        self.enSmallK = False


def load3d_bitmode(core: CoreState, dst: LocalTensor, src: LocalTensor, bm: Load3DBitModeParam,
                   _config: object = None, dst_pos: str | None = None, src_pos: str | None = None
                   ) -> ExecReport:
    """`LoadData<Dst, Src>(dst, src, Load3DBitModeParam)` (seed 000; Ascend 950 only).

    Dst (A2 / B2) selects L0A / L0B and Src (A1 / B1) names L1; any pair whose arguments match the
    tensors' memories is accepted — the seed's "A1->A2, B1->B2" read as L1->L0A / L1->L0B (divergence P3).
    """
    instr = "Load3DBitMode"
    core.chip.check("Load3DBitMode", instr=instr)
    checks.template_positions(instr, dst, src, dst_pos, src_pos)
    return _run(core, instr, dst, src, _key(core, instr, dst, src, bm.key()), _prepare_bitmode, core, dst, bm)


def _prepare_bitmode(core: CoreState, dst: LocalTensor, bm: Load3DBitModeParam) -> _CheckedWindow:
    return _registers_only(core, "Load3DBitMode", "Load3DBitMode", dst, _BitModeView(bm), _BM_NAMES)


# -- v1 ------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class V1Spec:
    dtype: str
    bits: int
    l1H: int
    l1W: int
    pads: tuple[int, int, int, int]
    c1Index: int
    fetchFilterW: int
    fetchFilterH: int
    leftTopW: int
    leftTopH: int
    strideW: int
    strideH: int
    filterW: int
    filterH: int
    dilationW: int
    dilationH: int
    jumpStride: int
    repeatMode: int
    repeatTime: int
    cSize: int

    @property
    def c0(self) -> int:
        return 256 // self.bits

    @property
    def channels_per_point(self) -> int:
        """Channels stored per pixel: C0, or 4 (b16) / 8 (b8) with the cSize packing."""
        return (4 if self.bits == 16 else 8) if self.cSize else self.c0


def v1_positions(spec: V1Spec, p: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Top-left (h, w) of sliding-window position p, walking from (leftTopH, leftTopW) along W and
    wrapping to w = -padLeft, h += strideH past the right edge (FMATRIX padRight)."""
    left, right, _, _ = spec.pads
    eff_w = (spec.filterW - 1) * spec.dilationW + 1
    last_w = spec.l1W + right - eff_w  # largest legal window start
    wo = max(0, (last_w + left) // spec.strideW + 1)
    n0 = max(0, (last_w - spec.leftTopW) // spec.strideW + 1)
    q = p - n0
    row = np.where(p < n0, 0, 1 + q // max(wo, 1))
    col_w = np.where(p < n0, spec.leftTopW + p * spec.strideW, -left + (q % max(wo, 1)) * spec.strideW)
    return spec.leftTopH + row * spec.strideH, col_w


def plan_v1(spec: V1Spec) -> Plan:
    """Repeat r writes one 16 x C0 fractal at dst fractal r*jumpStride (doc: LoadData_3D.md 表3)."""
    return PLANS.memo(("v1", spec), lambda: _plan_v1(spec))


def _plan_v1(spec: V1Spec) -> Plan:
    c0, cp = spec.c0, spec.channels_per_point
    pts_per_frac = c0 // cp
    r = np.arange(spec.repeatTime)
    i = np.arange(R0)
    j = np.arange(c0)
    start_pt = spec.fetchFilterH * spec.filterW + spec.fetchFilterW
    if spec.repeatMode == 0:  # walk kernel points (destination K); window positions fixed
        pos = np.broadcast_to(i[None, :], (r.size, R0))
        pt0 = start_pt + r * pts_per_frac
    else:  # walk window positions (destination M); kernel point fixed
        pos = r[:, None] * R0 + i[None, :]
        pt0 = np.full(r.size, start_pt)
    hs, ws = v1_positions(spec, pos)  # (R, 16)
    flat = pt0[:, None] + j[None, :] // cp  # (R, C0) kernel point of each column
    n_pts = spec.filterH * spec.filterW
    if spec.cSize:
        c1, in_kernel = np.full_like(flat, spec.c1Index), flat < n_pts
    else:
        c1, in_kernel = spec.c1Index + flat // n_pts, np.ones_like(flat, dtype=bool)
    kh, kw = (flat % n_pts) // spec.filterW, flat % spec.filterW
    c = j[None, :] % cp
    h = hs[:, :, None] + (kh * spec.dilationH)[:, None, :]
    w = ws[:, :, None] + (kw * spec.dilationW)[:, None, :]
    valid = (h >= 0) & (h < spec.l1H) & (w >= 0) & (w < spec.l1W) & in_kernel[:, None, :]
    plane = spec.l1H * spec.l1W * cp
    src = c1[:, None, :] * plane + (np.clip(h, 0, None) * spec.l1W + np.clip(w, 0, None)) * cp + c[:, None, :]
    src = np.where(valid, src, -1)
    dst = (r[:, None, None] * spec.jumpStride * R0 + i[None, :, None]) * c0 + j[None, None, :]
    return Plan.build("Load3Dv1", spec.bits, np.broadcast_to(dst, src.shape), src, info={"spec": spec})


def load3d_v1(core: CoreState, dst: LocalTensor, src: LocalTensor, p: LoadData3DParamsV1,
              config: IsResetLoad3dConfig | None = None, _dst_pos: str | None = None,
              _src_pos: str | None = None) -> ExecReport:
    """`LoadData<T, config>(dst, src, LoadData3DParamsV1)` (doc: LoadData_3D.md 表3; training / 310P)."""
    instr = "Load3Dv1"
    sf, sp = _config(instr, config)
    key = _key(core, instr, dst, src, p.key(), not sf, not sp)
    if key is not None:
        key = (*key, sf, sp)
    prep = cached(key) or lookup(key, lambda: _prepared_v1(core, instr, dst, src, p, sf, sp))
    # SetLoadDataBoundary counts in 32-B units for v1 (doc: SetLoadDataBoundary.md 表1).
    return run_gather(core, prep, dst, src, core.regs.boundary * 32)


def _prepared_v1(core: CoreState, instr: str, dst: LocalTensor, src: LocalTensor, p: LoadData3DParamsV1,
                 sf: bool, sp: bool) -> PreparedCall:
    cb = cpp_rejects("CheckLoadData3dv1Params")

    def r(name: str, value: object, lo: int, hi: int, basis: str = cb) -> int:
        return checks.in_range(instr, name, value, lo, hi, basis)

    fm, pad, (fm_w, pad_w) = _resolve_registers(core, instr, dst.dtype, p, sf, sp)
    v = {
        "c1Index": r("c1Index", p.c1Index, 0, 4095),
        "fetchFilterW": r("fetchFilterW", p.fetchFilterW, 0, 254),
        "fetchFilterH": r("fetchFilterH", p.fetchFilterH, 0, 254),
        "leftTopW": r("leftTopW", p.leftTopW, -255, 32767),
        "leftTopH": r("leftTopH", p.leftTopH, -255, 32767),
        "strideW": r("strideW", p.strideW, 1, 63, cpp_rejects("CheckLoadData3dParams")),
        "strideH": r("strideH", p.strideH, 1, 63, cpp_rejects("CheckLoadData3dParams")),
        "filterW": r("filterW", p.filterW, 1, 255),
        "filterH": r("filterH", p.filterH, 1, 255),
        "dilationW": r("dilationFilterW", p.dilationFilterW, 1, 255),
        "dilationH": r("dilationFilterH", p.dilationFilterH, 1, 255),
        "jumpStride": r("jumpStride", p.jumpStride, 1, 127),
        "repeatMode": r("repeatMode", p.repeatMode, 0, 1),
        "repeatTime": r("repeatTime", p.repeatTime, 1, 255),
        "cSize": r("cSize", p.cSize, 0, 1),
    }
    for name, lim in (("fetchFilterW", v["filterW"]), ("fetchFilterH", v["filterH"])):
        if v[name] >= lim:
            raise ParamRangeError(
                f"{instr}: {name} must be < the filter size {lim}, but got {v[name]}",
                basis=doc_forbids(f"LoadData_3D.md 表3 {name}: the start position inside the filter", "L13"))
    if v["cSize"] and v["c1Index"]:
        raise ParamRangeError(
            f"{instr}: c1Index must be 0 with cSize=1 (one packed channel group), but got {v['c1Index']}",
            basis=doc_forbids("LoadData_3D.md 表3 cSize: a 4-channel-aligned map, one packed group", "L13"))
    _tensor_checks(instr, dst, src, align=False)
    _target(core, instr, "Load3Dv1", dst.memory.name, dst.dtype, False)
    if fm.l1H < 1 or fm.l1W < 1:
        raise ParamRangeError(
            f"{instr}: l1H and l1W must be in [1, 32767], but got {fm.l1H} x {fm.l1W}",
            basis=doc_forbids("LoadData_3D.md 表3 l1H/l1W ∈ [1, 32767]", "L3"))
    # The first window must fit the padded width; past it the walk has no defined start (ascsim's v1
    # reading, docs/divergences.md L13).
    last_w = fm.l1W - 1 + fm.padList[1] - (v["filterW"] - 1) * v["dilationW"]
    if v["leftTopW"] > last_w:
        raise ParamRangeError(
            f"{instr}: leftTopW must leave the dilated filter inside the padded width "
            f"(<= l1W - 1 + padRight - (filterW - 1) * dilationFilterW = {last_w}), but got {v['leftTopW']}",
            basis=doc_forbids("LoadData_3D.md 表3 leftTopW: the window starts inside the padded map", "L13"))
    spec = V1Spec(dst.dtype.name, dst.dtype.bits, fm.l1H, fm.l1W, fm.padList, **v)
    commit = None
    if fm_w is not None or pad_w is not None:
        def commit(core: CoreState) -> None:  # after the execution: a rejected call changes no register
            commit_load3d_registers(core, fm_w, pad_w)
    # the destination extent, arithmetically: repeat r writes fractal r * jumpStride (checked before the plan)
    last = (spec.repeatTime - 1) * spec.jumpStride + 1
    return PreparedCall(instr, spec, units=lambda: plan_v1(spec).units, planner=partial(plan_v1, spec),
                        pad=pad,
                    commit=commit, min_dst=last * R0 * spec.c0 * spec.bits // 8, wrap=32,
                    aligns=((1, 32, "src (L1)"), (0, 512, "dst (L0)")))
