"""The register setters of the load path (SetFmatrix, SetLoadDataPaddingValue, SetLoadDataRepeat,
SetLoadDataBoundary) and the checks of the values they take, shared with the instructions that write the
same registers themselves (Load3D's IsResetLoad3dConfig, Fill's and DataCopyPad's pad values)."""

from __future__ import annotations

import struct
from collections.abc import Sequence

import numpy as np

from ..base import coerce
from ..base.diagnostics import basis_on, doc_conflict
from ..base.errors import (
    NotImplementedFeature,
    ParamRangeError,
    UnsupportedError,
    cpp_rejects,
    doc_forbids,
    hw_cannot,
)
from ..engine.state import CoreState
from ..machine import checks
from ..machine.dtypes import Bits, DType, get_dtype, pad_pattern, scalar_dtype
from ..machine.registers import AtomicMode, Fmatrix, RepeatConfig
from ..params import LoadDataRepeatParam, LoadDataRepeatParamWithStride, SetFMatrixBitModeParams
from ..params.load3d import pad_list


def scalar_type(instr: str, name: str, value: object, dtype: DType | str | None) -> DType:
    """The T of a templated scalar argument: `dtype` if given, else the type of a numpy scalar `value`;
    a plain Python number without `dtype` is refused rather than guessed."""
    if dtype is not None:
        return get_dtype(dtype)
    dt = scalar_dtype(value)
    if dt is None:
        kind = "a bit pattern (Bits)" if isinstance(value, Bits) else f"a plain {type(value).__name__}"
        raise ParamRangeError(f"{instr}: the type T of {name} is needed, but {name} is {kind} "
                              f"({coerce.show(value)}); pass dtype=... or a numpy scalar such as "
                              "np.float16(...)")
    return dt


def checked_pad_pattern(instr: str, dt: DType, value: object, name: str = "padValue", basis: str = "") -> int:
    """Bit pattern of a scalar argument (padValue, initValue, ...) as a T, re-raising an unrepresentable value
    under the instruction's name (with the refusal's `basis` appended when given)."""
    t = value.__class__
    if t is int or t is float:  # memoised: a tiling sweep's cold calls repeat the same pad value
        key = (dt.name, value) if t is int else (dt.name, struct.pack("<d", value))  # -0.0, NaN payloads
        bits = _PAD_PATTERNS.get(key)
        if bits is None:
            bits = _pad_pattern_checked(instr, dt, value, name, basis)  # raises: nothing memoised
            if len(_PAD_PATTERNS) >= 1024:
                _PAD_PATTERNS.clear()
            _PAD_PATTERNS[key] = bits
        return bits
    return _pad_pattern_checked(instr, dt, value, name, basis)


_PAD_PATTERNS: dict[tuple, int] = {}


def _pad_pattern_checked(instr: str, dt: DType, value: object, name: str, basis: str) -> int:
    try:
        return pad_pattern(dt, value)
    except ParamRangeError as e:
        tail = basis or hw_cannot(f"the {'PADDING ' if name == 'padValue' else ''}register holds a "
                                  f"{dt.name} bit pattern")
        raise ParamRangeError(f"{instr}: {name} must be representable as {dt.name}, but got "
                              f"{coerce.show(value)} ({e})", basis=tail) from None


#: Chips whose C++ API cannot write the right FMATRIX bank (Load3DSetFMatrixBCal reports "not supported").
_NO_RIGHT_FMATRIX = {"inference_aicore": "dav_m200", "training": "dav_c100"}


def fmatrix_bank(instr: str, mode: object) -> str:
    """"left" / "right" for an FmatrixMode (name, enum or 0 / 1)."""
    v = getattr(mode, "value", mode)
    i = None if isinstance(v, (bool, np.bool_)) else coerce.as_int(v)  # an enum class takes no bool
    if i is not None:
        m = "0" if i == 0 else "1" if i == 1 else ""
    else:
        m = v.upper() if isinstance(v, str) else ""
    bank = {"FMATRIX_LEFT": "left", "LEFT": "left", "0": "left", "FMATRIX_RIGHT": "right", "RIGHT": "right",
            "1": "right"}.get(m.removeprefix("FMATRIXMODE.").removeprefix("FMATRIXMODE::"))
    if bank is None:
        raise UnsupportedError(f"{instr}: FmatrixMode must be FMATRIX_LEFT or FMATRIX_RIGHT, "
                               f"but got {coerce.show(mode)}",
                               basis=cpp_rejects("enum class FmatrixMode"))
    return bank


def checked_pad_list(instr: str, padList: Sequence[int]) -> tuple[int, int, int, int]:
    """padList [left, right, top, bottom] as a checked tuple (each in [0, 255], doc: SetFmatrix.md 表1)."""
    if padList.__class__ in (list, tuple) and len(padList) == 4 and all(
            v.__class__ is int and 0 <= v <= 255 for v in padList):  # type: ignore[union-attr]
        return tuple(padList)  # type: ignore[return-value]  # the common case, without building messages
    return tuple(checks.field(instr, f"padList[{i}]", v, 8, ctype="uint8_t")  # type: ignore[return-value]
                 for i, v in enumerate(pad_list(instr, padList)))


def set_fmatrix(core: CoreState, l1H: int, l1W: int, padList: Sequence[int],
                mode: str = "FMATRIX_LEFT") -> None:
    """SetFmatrix(l1H, l1W, padList, FmatrixMode) (doc: SetFmatrix.md). FMATRIX_RIGHT writes the right
    bank, which Load3D reads with fMatrixCtrl = true; the doc says only FMATRIX_LEFT is supported, so
    it is a DocConflictWarning (divergence L11)."""
    _set_fmatrix(core, "SetFmatrix", l1H, l1W, padList, mode)


def set_fmatrix_bitmode(core: CoreState, param: SetFMatrixBitModeParams, mode: str = "FMATRIX_LEFT") -> None:
    """SetFmatrix(SetFMatrixBitModeParams, FmatrixMode) (950; SetFmatrixBitMode.md 表3)."""
    checks.struct("SetFmatrixBitMode", "param", param, (SetFMatrixBitModeParams,))
    d = param.as_dict()
    _set_fmatrix(core, "SetFmatrixBitMode", d["l1H"], d["l1W"], [d[f"padList{i}"] for i in range(4)], mode)


def _set_fmatrix(core: CoreState, instr: str, l1H: int, l1W: int, padList: Sequence[int], mode: str) -> None:
    core.chip.check(instr, instr=instr)
    # SetFmatrix.md 表1: l1H/l1W in [1, 32767]; the C++ API checks the same range (the bit-mode
    # struct, a packed word, is not checked by the C++ API, so there the range is the doc's).
    basis = (cpp_rejects("SetFmatrix: ASCENDC_CHECK_VALUE_RANGE(l1H/l1W, MIN_LOAD3D_L1, MAX_LOAD3D_L1)")
             if instr == "SetFmatrix"
             else doc_forbids("SetFmatrixBitMode.md 表3 l1H/l1W in [1, 32767]", "L3"))
    h = checks.in_range(instr, "l1H", l1H, 1, 32767, basis)
    w = checks.in_range(instr, "l1W", l1W, 1, 32767, basis)
    pads = checked_pad_list(instr, padList)
    fm = Fmatrix(h, w, pads)
    if fmatrix_bank(instr, mode) == "left":
        core.regs.fmatrix_left = fm
        return
    if core.chip.key in _NO_RIGHT_FMATRIX:
        raise UnsupportedError(
            f"{instr}: FmatrixMode FMATRIX_RIGHT is not available on {core.chip.name}",
            basis=cpp_rejects("Load3DSetFMatrixBCal: ASCENDC_REPORT_NOT_SUPPORT on "
                        f"{_NO_RIGHT_FMATRIX[core.chip.key]}"))
    doc_conflict(instr, "SetFmatrix.md 表1 fmatrixMode: 当前只支持FMATRIX_LEFT", "L11", core.strict)
    core.regs.fmatrix_right = fm


def set_padding_value(core: CoreState, value: float, dtype: DType | str | None = None) -> None:
    """SetLoadDataPaddingValue<T>(padValue): stores the value's bit pattern.

    T is `dtype`, or the type of a numpy scalar value (`np.float16(-8.82)`, `ml_dtypes.bfloat16(1)`);
    a plain Python number needs `dtype`. `value` may be `ascsim.Bits(0x...)`, a raw bit pattern."""
    instr = "SetLoadDataPaddingValue"
    dt = scalar_type(instr, "padValue", value, dtype)
    core.chip.check(instr, dt.name, instr=instr)  # doc: SetLoadDataPaddingValue.md 数据类型
    core.regs.padding = checked_pad_pattern(instr, dt, value)


def set_load_data_repeat(core: CoreState, p: LoadDataRepeatParam | LoadDataRepeatParamWithStride) -> None:
    """SetLoadDataRepeat / SetLoadDataRepeatWithStride (doc: SetLoadDataRepeat*.md)."""
    with_stride = isinstance(p, LoadDataRepeatParamWithStride)
    instr = "SetLoadDataRepeatWithStride" if with_stride else "SetLoadDataRepeat"
    checks.struct(instr, "params", p, (LoadDataRepeatParam, LoadDataRepeatParamWithStride))
    core.chip.check(instr, instr=instr)
    # kernel_struct_mm.h LoadDataRepeatParam: uint16_t repeatStride, uint8_t repeatTime / repeatMode,
    # uint16_t dstStride; the register packs repeatMode in one bit (SetLoadDataRepeat.md 表2: 0 / 1).
    rs = checks.field(instr, "repeatStride", p.repeatStride, 16, ctype="uint16_t")
    rt = checks.field(instr, "repeatTime", p.repeatTime, 8, ctype="uint8_t")
    rm = checks.in_range(instr, "repeatMode", p.repeatMode, 0, 1, hw_cannot("1-bit repeatMode"))
    ds = checks.field(instr, "dstStride", p.dstStride, 16, ctype="uint16_t")
    if ds and core.chip.key != "ascend950":
        raise UnsupportedError(
            f"{instr}: dstStride exists on Ascend 950 only, but got {ds} on {core.chip.name}",
            basis=cpp_rejects("LoadDataRepeatParam has no dstStride member on this arch"))
    core.regs.repeat = RepeatConfig(rs, rt, rm, ds)


def set_load_data_boundary(core: CoreState, value: int) -> None:
    """SetLoadDataBoundary(boundaryValue) (A2/A3): L1 reads past it wrap to the start of L1."""
    instr = "SetLoadDataBoundary"
    core.chip.check(instr, instr=instr)
    v = checks.in_range(instr, "boundaryValue", value, 0, core.memory("L1").size,
                        hw_cannot("the boundary is an L1 address"))
    if 0 < v < 1024:
        raise ParamRangeError(
            f"{instr}: boundaryValue must be 0 (off) or >= 1024 (1-1023 are undefined), but got {v}",
            basis=doc_forbids("SetLoadDataBoundary.md 约束说明: 设置1~1023值是未定义行为", "L18"))
    core.regs.boundary = v


def commit_load3d_registers(core: CoreState, fm: Fmatrix | None, pad: int | None) -> None:
    """The FMATRIX / PADDING writes of a Load3D call whose IsResetLoad3dConfig asks for them."""
    # an equal value keeps the register's object, so cache keys holding it compare by identity
    if fm is not None and fm is not core.regs.fmatrix_left and fm != core.regs.fmatrix_left:
        core.regs.fmatrix_left = fm
    if pad is not None:
        core.regs.padding = pad


def set_atomic_add(core: CoreState, dtype: DType | str) -> None:
    """`SetAtomicAdd<T>()`: later moves into GM add onto what is there (原子操作/SetAtomicAdd.md)."""
    _set_atomic(core, "add", dtype)


def set_atomic_max(core: CoreState, dtype: DType | str) -> None:
    """`SetAtomicMax<T>()`: later moves into GM keep the larger of the moved and the present value
    (原子操作/SetAtomicMax(ISASI).md)."""
    _set_atomic(core, "max", dtype)


def set_atomic_min(core: CoreState, dtype: DType | str) -> None:
    """`SetAtomicMin<T>()`: later moves into GM keep the smaller value (原子操作/SetAtomicMin(ISASI).md)."""
    _set_atomic(core, "min", dtype)


def _set_atomic(core: CoreState, op: str, dtype: DType | str) -> None:
    instr = f"SetAtomic{op.capitalize()}"
    dt = get_dtype(dtype)
    page = f"{instr}.md" if op == "add" else f"{instr}(ISASI).md"
    basis_on(lambda: core.chip.check(instr, dt.name, instr=instr), doc_forbids(f"{page} 数据类型", "C20"))
    core.regs.atomic = AtomicMode(op, dt.name)


def set_atomic_none(core: CoreState) -> None:
    """`SetAtomicNone()` / `DisableDmaAtomic()`: moves into GM overwrite again (DisableDmaAtomic.md)."""
    core.regs.atomic = None


# -- the cube's mode registers that change no byte ascsim computes -------------------------------------------
#
# Mmad's HF32 mode rounds FP32 operands to HF32 before the multiply: a byte effect ascsim does not model, so
# only its default (off) is accepted. The layout-transform bit (SetMMLayoutTransform / SetMMRowMajor /
# SetMMColumnMajor) chooses whether the cube walks N before M or M before N when it issues the fractal
# products of one Mmad (kernel_operator_mm_intf_impl.h: SetMMRowMajor is SetMMLayoutTransform(true)); every
# product lands in its own L0C fractal and the K accumulation order within one fractal is the same either
# way, so the bytes of L0C do not depend on it: ascsim accepts both values and changes nothing.


def set_hf32_mode(core: CoreState, mode: object) -> None:
    """`SetHF32Mode(bool)` / `SetHF32Mode(HF32Mode)`: false / DISABLE is the default and changes nothing;
    true / ENABLE (FP32 operands rounded to HF32 in Mmad) is not modelled."""
    on = coerce.flag("SetHF32Mode", "hf32Mode", mode, cpp_rejects("SetHF32Mode takes a bool or HF32Mode"))
    if on:
        raise NotImplementedFeature("SetHF32Mode(true): Mmad's HF32 mode (FP32 operands rounded to HF32 "
                                    "before the multiply) is not modelled; ascsim runs Mmad in FP32 only")


def set_hf32_trans_mode(core: CoreState, mode: object) -> None:
    """`SetHF32TransMode(bool)` / `SetHF32TransMode(HF32TransMode)`: the rounding HF32 mode uses; with
    HF32 mode off (the only mode ascsim runs, see set_hf32_mode) it changes no byte: both values pass."""
    coerce.flag("SetHF32TransMode", "hf32TransMode", mode, cpp_rejects("SetHF32TransMode takes a bool or "
                                                                       "HF32TransMode"))


def set_mm_layout_transform(core: CoreState, mode: object) -> None:
    """`SetMMLayoutTransform(bool)`: the order (N first or M first) in which Mmad issues its fractal products.
    It changes no byte of L0C (each product has its own fractal; see the comment above), so ascsim accepts
    both values and keeps no state for it."""
    coerce.flag("SetMMLayoutTransform", "mmLayoutMode", mode,
                cpp_rejects("SetMMLayoutTransform takes a bool"))


def set_mm_row_major(core: CoreState) -> None:
    """`SetMMRowMajor()` (= SetMMLayoutTransform(true)): Mmad's issue order only, no byte effect."""


def set_mm_column_major(core: CoreState) -> None:
    """`SetMMColumnMajor()` (= SetMMLayoutTransform(false)): Mmad's issue order only, no byte effect."""
