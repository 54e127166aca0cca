"""Element types of the Ascend cube: names, bit widths, codecs and byte packing (docs/number_formats.md).

Note on ml_dtypes / en_dtypes soundness (checked by tests/machine/test_dtypes.py against the
docs/number_formats.md tables and the formula decoders below): en_dtypes 0.0.4 ``hifloat8`` and
``float4_e1m2`` decode all 256 / 16 codes exactly as docs/number_formats.md §1 / §3 say, so they are used as
``value_dtype``.  Their *encoders* are not used as-is: en_dtypes' hifloat8 cast rounds |x| in [2^-23,
1.5*2^-23) up to ±2^-22, while Huawei's reference converter (§1, hif8.py) flushes |x| < 1.5*2^-23 to 0x00,
so hifloat8 encoding uses our own table-based TA ("round half away from zero") encoder.  ml_dtypes' float64
-> bfloat16 cast rounds twice (via float32), so every narrow float is first rounded to nearest-even in
float64 by ``_quantize`` and only then cast.  ml_dtypes maps NaN -> fp4 code 0x8 (-0); §2 says NaN -> 0, so
NaN is encoded as 0x0 for both fp4 types.  e8m0 uses its own encoder (§6: NaN -> 0xFF, overflow and +Inf ->
0xFE, RNE between powers of two, no zero or sign). """

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cache
from typing import Any

import en_dtypes
import ml_dtypes
import numpy as np

from ..base import coerce
from ..base.errors import ParamRangeError, UnsupportedError, did_you_mean

__all__ = [
    "DType", "get_dtype", "ALL_DTYPES", "to_raw", "from_raw", "decode", "pack_nibbles", "unpack_nibbles",
    "to_bytes", "from_bytes", "raw_from_bytes", "raw_to_bytes", "pad_pattern", "Bits", "UINT64",
    "INT4B", "INT8", "UINT8", "FP8_E4M3FN", "FP8_E5M2", "HIFLOAT8", "HALF", "BFLOAT16", "INT16", "UINT16",
    "INT32", "UINT32", "FLOAT", "FP4X2_E2M1", "FP4X2_E1M2", "FP8_E8M0", "MX_FP8_E4M3", "MX_FP8_E5M2",
]


@dataclass(frozen=True)
class DType:
    """One Ascend C element type. ``name`` is the canonical C++ name."""

    name: str
    bits: int
    kind: str  # "int" | "uint" | "float"
    value_dtype: np.dtype
    raw_dtype: np.dtype

    @property
    def size(self) -> float:
        """Bytes per element (0.5 for the 4-bit types)."""
        return self.bits / 8

    @property
    def c0(self) -> int:
        """Elements per 32-byte block."""
        return 256 // self.bits

    @property
    def is_4bit(self) -> bool:
        return self.bits == 4

    def __str__(self) -> str:
        return self.name


def _d(name: str, bits: int, kind: str, value: Any) -> DType:
    raw = {4: np.uint8, 8: np.uint8, 16: np.uint16, 32: np.uint32, 64: np.uint64}[bits]
    return DType(name, bits, kind, np.dtype(value), np.dtype(raw))


INT4B = _d("int4b_t", 4, "int", np.int8)
INT8 = _d("int8_t", 8, "int", np.int8)
UINT8 = _d("uint8_t", 8, "uint", np.uint8)
FP8_E4M3FN = _d("fp8_e4m3fn_t", 8, "float", ml_dtypes.float8_e4m3fn)
FP8_E5M2 = _d("fp8_e5m2_t", 8, "float", ml_dtypes.float8_e5m2)
HIFLOAT8 = _d("hifloat8_t", 8, "float", en_dtypes.hifloat8)
HALF = _d("half", 16, "float", np.float16)
BFLOAT16 = _d("bfloat16_t", 16, "float", ml_dtypes.bfloat16)
INT16 = _d("int16_t", 16, "int", np.int16)
UINT16 = _d("uint16_t", 16, "uint", np.uint16)
INT32 = _d("int32_t", 32, "int", np.int32)
UINT32 = _d("uint32_t", 32, "uint", np.uint32)
FLOAT = _d("float", 32, "float", np.float32)
FP4X2_E2M1 = _d("fp4x2_e2m1_t", 4, "float", ml_dtypes.float4_e2m1fn)
FP4X2_E1M2 = _d("fp4x2_e1m2_t", 4, "float", en_dtypes.float4_e1m2)
FP8_E8M0 = _d("fp8_e8m0_t", 8, "float", ml_dtypes.float8_e8m0fnu)
MX_FP8_E4M3 = _d("mx_fp8_e4m3_t", 8, "float", ml_dtypes.float8_e4m3fn)
MX_FP8_E5M2 = _d("mx_fp8_e5m2_t", 8, "float", ml_dtypes.float8_e5m2)
# Not a cube operand type: the quantisation words (QUANT_PRE, 随路量化.md 表1) that DataCopy moves into the
# Fixpipe Buffer and Fixpipe's cbufWorkspace hold. Kept out of ALL_DTYPES (the operand types).
UINT64 = _d("uint64_t", 64, "uint", np.uint64)

ALL_DTYPES: tuple[DType, ...] = (
    INT4B, INT8, UINT8, FP8_E4M3FN, FP8_E5M2, HIFLOAT8, HALF, BFLOAT16, INT16, UINT16, INT32, UINT32,
    FLOAT, FP4X2_E2M1, FP4X2_E1M2, FP8_E8M0, MX_FP8_E4M3, MX_FP8_E5M2,
)

_ALIASES: dict[str, DType] = {d.name: d for d in (*ALL_DTYPES, UINT64)}
_ALIASES["uint64"] = _ALIASES["u64"] = UINT64
for _dt, _names in {
    INT4B: ("int4", "int4b", "int4_t", "s4", "int4x2_t"),
    INT8: ("int8", "s8"),
    UINT8: ("uint8", "u8"),
    FP8_E4M3FN: ("e4m3", "e4m3fn", "fp8_e4m3", "fp8_e4m3fn", "float8_e4m3fn"),
    FP8_E5M2: ("e5m2", "fp8_e5m2", "float8_e5m2"),
    HIFLOAT8: ("hif8", "hifloat8", "hifloat8_t"),
    HALF: ("float16", "fp16", "f16", "half_t"),
    BFLOAT16: ("bf16", "bfloat16"),
    INT16: ("int16", "s16"),
    UINT16: ("uint16", "u16"),
    INT32: ("int32", "s32", "int"),
    UINT32: ("uint32", "u32"),
    FLOAT: ("float32", "fp32", "f32", "float_t"),
    FP4X2_E2M1: ("e2m1", "fp4_e2m1", "fp4x2_e2m1", "float4_e2m1", "float4_e2m1fn"),
    FP4X2_E1M2: ("e1m2", "fp4_e1m2", "fp4x2_e1m2", "float4_e1m2"),
    FP8_E8M0: ("e8m0", "fp8_e8m0", "float8_e8m0", "float8_e8m0fnu"),
    MX_FP8_E4M3: ("mx_fp8_e4m3", "mx_e4m3"),
    MX_FP8_E5M2: ("mx_fp8_e5m2", "mx_e5m2"),
}.items():
    for _n in _names:
        _ALIASES[_n] = _dt

# numpy value dtype -> DType (plain types win over int4b_t / MX tags sharing a value dtype).
_BY_NP: dict[np.dtype, DType] = {}
for _dt in ALL_DTYPES:
    if _dt not in (INT4B, MX_FP8_E4M3, MX_FP8_E5M2):
        _BY_NP.setdefault(_dt.value_dtype, _dt)
_BY_NP[np.dtype(ml_dtypes.int4)] = INT4B
_BY_NP[np.dtype(en_dtypes.float4_e2m1)] = FP4X2_E2M1
_BY_NP[np.dtype(en_dtypes.float8_e8m0)] = FP8_E8M0
_BY_NP[np.dtype(np.uint64)] = UINT64


def get_dtype(x: str | DType | np.dtype | type) -> DType:
    """Resolve a canonical name, alias, numpy/ml_dtypes/en_dtypes dtype or torch dtype to a DType."""
    if isinstance(x, DType):
        return x
    if isinstance(x, str):
        key = x.strip()
        hit = _ALIASES.get(key) or _ALIASES.get(key.lower())
        if hit is None and key.startswith("AscendC::"):
            hit = _ALIASES.get(key[len("AscendC::"):])
        if hit is not None:
            return hit
    elif type(x).__module__.startswith("torch"):
        hit = _ALIASES.get(str(x).removeprefix("torch."))
        if hit is not None:
            return hit
    else:
        try:
            hit = _BY_NP.get(np.dtype(x))
        except (TypeError, ValueError, OverflowError):  # not a dtype spec at all
            hit = None
        if hit is not None:
            return hit
    valid = ", ".join(d.name for d in ALL_DTYPES)
    hint = did_you_mean(x, list(_ALIASES)) if isinstance(x, str) else ""
    raise UnsupportedError(f"get_dtype: dtype must be one of [{valid}] (or an alias), but got "
                           f"{coerce.show(x)}{hint}")


# ---------------------------------------------------------------- formula decoders (docs/number_formats.md)

def _hif8_scalar(code: int) -> float:
    """HiF8 value of one code by the §1 field rules (Dot prefix, sign-magnitude exponent, DML)."""
    if code == 0x80:
        return float("nan")
    s = -1.0 if code & 0x80 else 1.0
    b = code & 0x7F
    if b == 0x6F:
        return s * float("inf")
    if b >> 5:  # Dot 11 / 10 / 01 -> D = 4 / 3 / 2
        d = {0b11: 4, 0b10: 3, 0b01: 2}[b >> 5]
        rest, mbits = b & 0x1F, 5 - d
    elif b >> 4:  # Dot 001
        d, rest, mbits = 1, b & 0xF, 3
    elif b >> 3:  # Dot 0001
        d, rest, mbits = 0, b & 0x7, 3
    else:  # Dot 0000: denormal mode, value 2^(M-23); M = 0 is zero
        m = b & 7
        return 0.0 if m == 0 else s * 2.0 ** (m - 23)
    m, e = rest & ((1 << mbits) - 1), rest >> mbits
    exp = 0
    if d:
        mag = (1 << (d - 1)) | (e & ((1 << (d - 1)) - 1))
        exp = -mag if e >> (d - 1) else mag
    return s * 2.0**exp * (1 + m / 2**mbits)


_HIF8_TABLE = np.array([_hif8_scalar(c) for c in range(256)], dtype=np.float64)


def _minifloat_decode(raw: np.ndarray, ebits: int, mbits: int, bias: int, special: str) -> np.ndarray:
    """IEEE-style formula decode. special: 'ieee' (Inf/NaN at max exp), 'fn' (only S1..1 NaN), 'none'."""
    r = raw.astype(np.int64)
    s = np.where((r >> (ebits + mbits)) & 1, -1.0, 1.0)
    e = (r >> mbits) & ((1 << ebits) - 1)
    m = (r & ((1 << mbits) - 1)).astype(np.float64)
    emax = (1 << ebits) - 1
    val = np.where(e == 0, np.ldexp(m, 1 - bias - mbits), np.ldexp(1.0 + m / 2**mbits, e - bias))
    val = s * val
    if special == "ieee":
        val = np.where(e == emax, np.where(m == 0, s * np.inf, np.nan), val)
    elif special == "fn":
        val = np.where((e == emax) & (m == (1 << mbits) - 1), np.nan, val)
    return val


_FMT: dict[str, tuple[int, int, int, str]] = {  # name -> (ebits, mbits, bias, special)
    "half": (5, 10, 15, "ieee"),
    "bfloat16_t": (8, 7, 127, "ieee"),
    "fp8_e4m3fn_t": (4, 3, 7, "fn"),
    "mx_fp8_e4m3_t": (4, 3, 7, "fn"),
    "fp8_e5m2_t": (5, 2, 15, "ieee"),
    "mx_fp8_e5m2_t": (5, 2, 15, "ieee"),
    "fp4x2_e2m1_t": (2, 1, 1, "none"),
    "fp4x2_e1m2_t": (1, 2, 1, "none"),
}


@cache
def _decode_table(name: str) -> np.ndarray:
    """Value of every code of a `_FMT` format, by `_minifloat_decode` (at most 2^16 entries), so decoding
    is one gather: Mmad decodes whole operands on every call."""
    ebits, mbits, bias, special = _FMT[name]
    table = _minifloat_decode(np.arange(1 << (1 + ebits + mbits)), ebits, mbits, bias, special)
    table.flags.writeable = False
    return table


def _check_raw(dt: DType, raw: Any) -> np.ndarray:
    r = np.asarray(raw)
    if r.dtype == dt.raw_dtype and not dt.is_4bit:
        return r
    if r.dtype.kind not in "iub":
        if r.size == 0:
            return r.astype(dt.raw_dtype)
        raise ParamRangeError(f"from_raw: raw bits for {dt.name} must be an integer array, but got {r.dtype}")
    hi = 15 if dt.is_4bit else (1 << dt.bits) - 1
    if r.size and (r.min() < 0 or r.max() > hi):
        raise ParamRangeError(f"from_raw: raw bits for {dt.name} must be in [0, {hi}], "
                              f"but got range [{r.min()}, {r.max()}]")
    return r.astype(dt.raw_dtype)


def decode(dtype: Any, raw: Any) -> np.ndarray:
    """Raw bit patterns -> float64 (float types, via the docs/number_formats.md formulas) or int64."""
    dt = get_dtype(dtype)
    r = _check_raw(dt, raw)
    if dt is INT4B:
        return (r.astype(np.int64) ^ 8) - 8  # §5 sign extension
    if dt.kind in ("int", "uint"):
        return r.view(dt.value_dtype).astype(np.int64)
    if dt is HIFLOAT8:
        return _HIF8_TABLE[r]
    if dt is FP8_E8M0:  # §6: 2^(E-127), 0xFF NaN
        return np.where(r == 0xFF, np.nan, np.ldexp(1.0, r.astype(np.int64) - 127))
    if dt is FLOAT:
        return r.view(np.float32).astype(np.float64)
    return _decode_table(dt.name)[r.ravel()].reshape(r.shape)


# ---------------------------------------------------------------- encoders

def _quantize(x: np.ndarray, mbits: int, bias: int) -> np.ndarray:
    """Round float64 finite values to nearest-even on the grid of an (mbits, bias) format (no overflow)."""
    out = x.copy()
    fin = np.isfinite(x) & (x != 0)
    a = np.abs(x[fin])
    _, e = np.frexp(a)
    q = np.ldexp(1.0, np.maximum(e - 1, 1 - bias) - mbits)
    out[fin] = np.copysign(np.round(a / q) * q, x[fin])
    return out


def _hif8_grid() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    pos = [(v, c) for c, v in enumerate(_HIF8_TABLE[:128]) if np.isfinite(v)]
    pos.sort()
    vals = np.array([v for v, _ in pos] + [1.5 * 2.0**15])  # 0x6F (Inf) sits where 1.5*2^15 would be
    codes = np.array([c for _, c in pos] + [0x6F], dtype=np.uint8)
    mids = (vals[:-1] + vals[1:]) / 2
    mids[0] = 1.5 * 2.0**-23  # §1 (Huawei's hif8.py): |x| < 1.5*2^-23 -> 0x00
    return vals, codes, mids


_HIF8_VALS, _HIF8_CODES, _HIF8_MIDS = _hif8_grid()


def _encode_hif8(x: np.ndarray) -> np.ndarray:
    """float64 -> HiF8 codes, CAST_ROUND (ties away from zero), |x| >= 1.25*2^15 -> Inf, NaN -> 0x80."""
    a = np.abs(x)
    idx = np.searchsorted(_HIF8_MIDS, np.where(np.isnan(a), 0, a), side="right")  # a >= mid -> upper
    code = _HIF8_CODES[np.minimum(idx, len(_HIF8_CODES) - 1)]
    code = np.where((x < 0) & (code != 0), code | 0x80, code).astype(np.uint8)
    return np.where(np.isnan(x), np.uint8(0x80), code).astype(np.uint8)


def _encode_e8m0(x: np.ndarray) -> np.ndarray:
    """float64 -> e8m0 (§6): RNE between powers of two, +Inf/overflow -> 0xFE, NaN -> 0xFF."""
    bad = ~np.isnan(x) & (x <= 0)
    if bad.any():
        raise ParamRangeError(f"to_raw: fp8_e8m0_t values must be > 0 or NaN (no zero, no sign), "
                              f"but got {x[bad][0]!r}")
    a = np.where(np.isfinite(x), x, 1.0)
    f, e = np.frexp(a)
    m = 2 * f  # a = m * 2^(e-1), m in [1, 2)
    code = e - 1 + 127
    code = code + ((m > 1.5) | ((m == 1.5) & (code % 2 == 1)))
    code = np.clip(code, 0, 0xFE)
    code = np.where(np.isposinf(x), 0xFE, code)
    return np.where(np.isnan(x), 0xFF, code).astype(np.uint8)


def _encode_int(dt: DType, v: np.ndarray) -> np.ndarray:
    if dt.bits == 64:  # uint64_t words: no wider integer to range-check in
        if v.dtype.kind == "f" or (v.dtype.kind == "i" and v.size and v.min() < 0):
            raise ParamRangeError(f"to_raw: {dt.name} values must be integers in [0, 2^64 - 1], but got "
                                  f"{v.dtype} data{' with negatives' if v.dtype.kind == 'i' else ''}")
        return v.astype(np.uint64)
    half_range = 1 << (dt.bits - 1)
    lo, hi = (-half_range, half_range - 1) if dt.kind == "int" else (0, (1 << dt.bits) - 1)
    if v.dtype.kind == "f":
        if not np.all(np.isfinite(v)) or not np.all(v == np.round(v)):
            raise ParamRangeError(f"to_raw: {dt.name} values must be integers, but got non-integral floats")
        if v.size and (v.min() < lo or v.max() > hi):  # checked before the int64 cast could wrap
            raise ParamRangeError(f"to_raw: {dt.name} values must be in [{lo}, {hi}], "
                                  f"but got range [{v.min():.17g}, {v.max():.17g}]")
    if v.dtype.kind == "u" and v.dtype.itemsize == 8:
        v = np.minimum(v, np.iinfo(np.int64).max)
    iv = v.astype(np.int64)
    if iv.size and (iv.min() < lo or iv.max() > hi):
        raise ParamRangeError(f"to_raw: {dt.name} values must be in [{lo}, {hi}], "
                              f"but got range [{iv.min()}, {iv.max()}]")
    mask = (1 << dt.bits) - 1
    return (iv & mask).astype(dt.raw_dtype)


def to_raw(dtype: Any, values: Any) -> np.ndarray:
    """Values -> raw bit patterns (raw_dtype). Floats round to nearest-even; hifloat8 ties away (§1)."""
    dt = get_dtype(dtype)
    v = np.asarray(values)
    if v.dtype == dt.value_dtype and dt is not INT4B:
        raw = v.view(dt.raw_dtype)
        return (raw & 0xF).astype(np.uint8) if dt.is_4bit else raw.copy()
    try:
        if dt.kind in ("int", "uint"):
            if v.dtype.kind not in "iufb" or (v.dtype.kind == "f" and v.dtype.itemsize < 4):
                v = v.astype(np.float64)
            return _encode_int(dt, v)
        x = v.astype(np.float64)
    except OverflowError:  # a Python int beyond any float (an object array)
        raise ParamRangeError(f"to_raw: {dt.name} values must fit a float64, but got an integer beyond "
                              "2^1024") from None
    with np.errstate(over="ignore", invalid="ignore"):
        return _encode_float(dt, x)


def _encode_float(dt: DType, x: np.ndarray) -> np.ndarray:
    if dt is HIFLOAT8:
        return _encode_hif8(x)
    if dt is FP8_E8M0:
        return _encode_e8m0(x)
    if dt is FLOAT or dt is HALF:  # numpy casts float64 directly with RNE
        return x.astype(dt.value_dtype).view(dt.raw_dtype)
    _, mbits, bias, _ = _FMT[dt.name]
    raw = _quantize(x, mbits, bias).astype(dt.value_dtype).view(dt.raw_dtype)
    if dt.is_4bit:
        raw = np.where(np.isnan(x), 0, raw & 0xF).astype(np.uint8)  # §2: NaN -> 0
    return raw


def from_raw(dtype: Any, raw: Any) -> np.ndarray:
    """Raw bit patterns -> value_dtype array (int4b_t sign-extended into int8)."""
    dt = get_dtype(dtype)
    r = _check_raw(dt, raw)
    if dt is INT4B:
        return ((r.astype(np.int8) ^ 8) - 8).astype(np.int8)
    return r.view(dt.value_dtype)


class Bits(int):
    """A raw bit pattern standing for a value, e.g. `Bits(0xFC00)` for half -inf: wherever ascsim takes a
    scalar value (pad values, InitConstValueParams.initValue) a `Bits` is stored as is instead of being
    encoded from a number."""

    def __repr__(self) -> str:
        return f"Bits(0x{int(self):x})"


def pad_pattern(dtype: Any, value: Any) -> int:
    """Raw bit pattern of one scalar value of T (padValue registers, initValue, paddingValue); a `Bits` value
    is the pattern itself. ParamRangeError for a value that is no real number (None, a string, a complex,
    an array: `ascsim.base.coerce.number`) or that T cannot represent (an int out of range, a non-integral or
    non-finite value for an integer T, an int too large for any float)."""
    dt = get_dtype(dtype)
    if isinstance(value, Bits):
        if not 0 <= value < (1 << dt.bits):
            hi = (1 << dt.bits) - 1
            raise ParamRangeError(f"pad_pattern: a {dt.name} bit pattern must be in [0, 0x{hi:x}], "
                                  f"but got {coerce.show(Bits(value))}")
        return int(value)
    v = coerce.number("pad_pattern", "the value", value, f"a number (a value of {dt.name})")
    if isinstance(v, np.generic):  # a numpy / ml_dtypes scalar: of T itself its bits are kept as they are
        return int(to_raw(dt, np.asarray([v]))[0])
    if dt.kind in ("int", "uint"):
        iv = coerce.as_int(v)
        if iv is None:  # a float: only an integral, finite one names an integer
            if not math.isfinite(v) or v != int(v):
                raise ParamRangeError(f"pad_pattern: {dt.name} values must be integers, but got {v!r}")
            iv = int(v)
        half_range = 1 << (dt.bits - 1)
        lo, hi = (-half_range, half_range - 1) if dt.kind == "int" else (0, (1 << dt.bits) - 1)
        if not lo <= iv <= hi:
            raise ParamRangeError(f"pad_pattern: {dt.name} values must be in [{lo}, {hi}], but got "
                                  f"{coerce.show(iv)}")
        return iv & ((1 << dt.bits) - 1)
    try:
        x = float(v)
    except OverflowError:
        raise ParamRangeError(f"pad_pattern: {coerce.show(v)} is too large for any float type") from None
    return int(to_raw(dt, np.asarray([x], dtype=np.float64))[0])


def scalar_dtype(value: Any) -> DType | None:
    """The DType of a numpy scalar (np.float16(1) -> half, ml_dtypes.bfloat16(1) -> bfloat16_t), else None."""
    if isinstance(value, np.generic):
        try:
            return get_dtype(value.dtype)
        except UnsupportedError:
            return None
    return None


# ---------------------------------------------------------------- bytes

def pack_nibbles(nibbles: Any) -> np.ndarray:
    """Nibbles (even count) -> bytes; element 2i in bits 3..0, element 2i+1 in bits 7..4 (§4)."""
    n = np.asarray(nibbles).ravel()
    if n.size % 2:
        raise ParamRangeError(f"pack_nibbles: nibble count must be even, but got {n.size}")
    if n.size and (n.min() < 0 or n.max() > 15):
        raise ParamRangeError(f"pack_nibbles: nibbles must be in [0, 15], "
                              f"but got range [{n.min()}, {n.max()}]")
    n = n.astype(np.uint8)
    return (n[0::2] | (n[1::2] << 4)).astype(np.uint8)


def unpack_nibbles(data: Any) -> np.ndarray:
    """Bytes -> nibbles (2 per byte, low nibble first, §4)."""
    b = np.asarray(data, dtype=np.uint8).ravel()
    out = np.empty(b.size * 2, dtype=np.uint8)
    out[0::2] = b & 0x0F
    out[1::2] = b >> 4
    return out


def raw_to_bytes(dtype: Any, raw: Any) -> np.ndarray:
    """Raw bit patterns -> little-endian uint8 bytes (4-bit: packed, odd count padded with a 0 nibble)."""
    dt = get_dtype(dtype)
    r = _check_raw(dt, raw).ravel()
    if dt.is_4bit:
        if r.size % 2:
            r = np.append(r, np.uint8(0))
        return pack_nibbles(r)
    return np.ascontiguousarray(r.astype(dt.raw_dtype.newbyteorder("<"))).view(np.uint8)


def raw_from_bytes(dtype: Any, data: Any, count: int | None = None) -> np.ndarray:
    """uint8 bytes -> raw_dtype array of `count` elements (default: all whole elements)."""
    dt = get_dtype(dtype)
    b = np.asarray(data, dtype=np.uint8).ravel()
    avail = b.size * 2 if dt.is_4bit else b.size // (dt.bits // 8)
    if count is None:
        if not dt.is_4bit and b.size % (dt.bits // 8):
            raise ParamRangeError(f"raw_from_bytes: byte count for {dt.name} must be a multiple of "
                                  f"{dt.bits // 8}, but got {b.size}")
        count = avail
    if count < 0 or count > avail:
        raise ParamRangeError(f"raw_from_bytes: count for {dt.name} must be in [0, {avail}], but got "
                              f"{coerce.show(count)}")
    if dt.is_4bit:
        return unpack_nibbles(b[: (count + 1) // 2])[:count]
    nb = count * (dt.bits // 8)
    return b[:nb].copy().view(dt.raw_dtype.newbyteorder("<")).astype(dt.raw_dtype)


def to_bytes(dtype: Any, values: Any) -> np.ndarray:
    """Values -> little-endian uint8 bytes (4-bit packed per §4)."""
    return raw_to_bytes(dtype, to_raw(dtype, values))


def from_bytes(dtype: Any, data: Any, count: int | None = None) -> np.ndarray:
    """uint8 bytes -> value_dtype array of `count` elements."""
    return from_raw(dtype, raw_from_bytes(dtype, data, count))
