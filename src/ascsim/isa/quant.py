"""Fixpipe's on-the-fly conversions (随路量化 / 随路ReLU): what happens to each L0C element on its way out.

Sources, in the order they were used (docs/divergences.md C12-C19 record every choice):
- 随路量化.md 表1 (arch 2201) / 表2 (arch 3510): the 64-bit quantisation word QUANT_PRE — M1 = bits
  [31:13] read as a float32 with the low 13 mantissa bits cleared ("硬件以(1, 8, 10)的格式"), N = bits
  [35:32], MCB = bit 36 (2201 only), Offset = bits [45:37] (a 9-bit integer), Sign = bit 46.
- 随路量化与随路ReLU场景组合.md 表1/表2: "M1为原始数据取值为正数时使用的随路系数，
  M2为原始数据取值为负数时使用的随路系数";
  no ReLU: M2 = M1; Normal ReLU: M2 = 0. 随路ReLU.md: Normal ReLU is `y = max(0, x)`.
- Huawei's goldens for these modes, read for the numerics (not copied): asc-devkit
  examples/.../fixpipe_l0c2gm/scripts/gen_data_s322s8.py (REQ8), gen_data_s322f16.py (DEQF16),
  gen_data_f322s8.py (QF322B8_PRE); ops-nn matmul/quant_batch_matmul_v3/tests/assets/qbmmv3_kernel_golden.py
  compute_requant and matmul/common/tests/st/arch35/matmul_quant_util.py f32_2_s9 / u64_to_offset. They agree:
  int32 -> float32, times the scale in float32 (a float32 product), then for 8-bit outputs round half to
  even (np.round), clip to [-256, 255] (the s9 range), add the signed 9-bit offset and clip to int8
  [-128, 127] when Sign = 1 or to uint8 [0, 255] when Sign = 0; for half outputs (DEQF16) the float32
  product is cast to half.

Modes: NoQuant, F322F16 / F322BF16 (CAST_RINT), DEQF16 / VDEQF16 (int32 -> half), QF322B8_PRE /
VQF322B8_PRE (float -> int8/uint8), REQ8 / VREQ8 (int32 -> int8/uint8). The V-forms take one word per
column of C (Quant_PRE_ADDR[i], i the column index), the others one word for the whole matrix.
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np

from ..base.errors import NotImplementedFeature, ParamRangeError, doc_forbids
from ..machine.dtypes import DType, to_raw
from ..params import QuantMode_t

M1_MASK = 0xFFFFE000  # bits [31:13]: the (1, 8, 10) float the hardware multiplies by
CASTS = {QuantMode_t.F322F16: "half", QuantMode_t.F322BF16: "bfloat16_t"}
DEQ = (QuantMode_t.DEQF16, QuantMode_t.VDEQF16)
B8_FROM_FLOAT = (QuantMode_t.QF322B8_PRE, QuantMode_t.VQF322B8_PRE)
B8_FROM_INT = (QuantMode_t.REQ8, QuantMode_t.VREQ8)
VECTOR = (QuantMode_t.VDEQF16, QuantMode_t.VQF322B8_PRE, QuantMode_t.VREQ8)
SCALAR = (QuantMode_t.DEQF16, QuantMode_t.QF322B8_PRE, QuantMode_t.REQ8)
#: Implemented modes -> the (L0C type, destination types) they convert (Fixpipe（L0C到GM数据搬运）.md 表3 and
#: the C++ CheckFixpipeQuantParams / CheckFixpipeL0C2GMParam pairs).
PAIRS: dict[QuantMode_t, tuple[str, tuple[str, ...]]] = {
    QuantMode_t.F322F16: ("float", ("half",)),
    QuantMode_t.F322BF16: ("float", ("bfloat16_t",)),
    QuantMode_t.DEQF16: ("int32_t", ("half",)),
    QuantMode_t.VDEQF16: ("int32_t", ("half",)),
    QuantMode_t.QF322B8_PRE: ("float", ("int8_t", "uint8_t")),
    QuantMode_t.VQF322B8_PRE: ("float", ("int8_t", "uint8_t")),
    QuantMode_t.REQ8: ("int32_t", ("int8_t", "uint8_t")),
    QuantMode_t.VREQ8: ("int32_t", ("int8_t", "uint8_t")),
}


# -- the quantisation word ---------------------------------------------------------------------------------


def m1(words: np.ndarray) -> np.ndarray:
    """The multiplier M1 of each word: bits [31:13] as a float32 (low 13 mantissa bits cleared)."""
    return (np.asarray(words, dtype=np.uint64) & np.uint64(M1_MASK)).astype(np.uint32).view(np.float32)


def offset9(words: np.ndarray) -> np.ndarray:
    """Offset: bits [45:37], a two's-complement 9-bit integer in [-256, 255]."""
    raw = ((np.asarray(words, dtype=np.uint64) >> np.uint64(37)) & np.uint64(0x1FF)).astype(np.int64)
    return np.where(raw & 0x100, raw - 0x200, raw)


def sign_bit(words: np.ndarray) -> np.ndarray:
    """Sign (bit 46): 1 = the 8-bit result is int8, 0 = uint8."""
    return ((np.asarray(words, dtype=np.uint64) >> np.uint64(46)) & np.uint64(1)).astype(bool)


def mcb(words: np.ndarray) -> np.ndarray:
    """MCB (bit 36, arch 2201): shift the int32 input right by N before converting it."""
    return ((np.asarray(words, dtype=np.uint64) >> np.uint64(36)) & np.uint64(1)).astype(bool)


def check_words(instr: str, mode: QuantMode_t, words: np.ndarray, arch2201: bool, what: str) -> None:
    """Refuse words the docs give no behaviour for: an inf/NaN/denormal M1 and, on arch 2201, MCB = 1."""
    w = np.asarray(words, dtype=np.uint64).ravel()
    scale = m1(w)
    bad = ~np.isfinite(scale) | ((scale != 0) & (np.abs(scale) < np.finfo(np.float32).tiny))
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        raise ParamRangeError(
            f"{instr}: the quantisation scale M1 (bits [31:13] of {what}) must be a finite normal float, but "
            f"got {float(scale[i])!r} from word 0x{int(w[i]):x}",
            basis=doc_forbids('Fixpipe（L0C到GM数据搬运）.md 约束说明 "量化和ReLU参数不能为inf/nan和'
                              '非规格化数"', "C14"))
    if arch2201 and mode not in B8_FROM_FLOAT and mcb(w).any():
        i = int(np.flatnonzero(mcb(w))[0])
        raise NotImplementedFeature(
            f"{instr}: MCB = 1 (bit 36 of {what}, word 0x{int(w[i]):x}: shift the int32 right by N first) "
            "is not modelled: 随路量化.md 表1 encodes N = 0b0000 as a shift of 1, Huawei's generator "
            "gen_data_s322s8.py shifts by N itself, and no shipped kernel settles it (divergence C15)")


# -- the conversions ---------------------------------------------------------------------------------------


class WordFields(NamedTuple):
    """What the 8-bit and half conversions read of the quantisation word(s), as float32 arrays: M1, the
    offset, and the saturation bounds of the offset result. The two saturations of the golden steps —
    clip to the s9 range [-256, 255], add the offset, clip to [lo, hi] = int8 / uint8 by Sign — are one
    clip of (value + offset) to [max(offset - 256, lo), min(offset + 255, hi)]; where those two intervals
    do not meet (a uint8 result with offset -256), every value lands on the same bound."""

    scale: np.ndarray
    offset: np.ndarray
    lo: np.ndarray
    hi: np.ndarray
    finite: bool  # every M1 finite: an int32 input then never gives a NaN product
    cast: str  # the narrowest exact cast of the result (int8 / uint8 when every bound allows, else int16)


def word_fields(words: np.ndarray) -> WordFields:
    """The fields of one word (a scalar) or one word per column (shape (n,))."""
    w = np.asarray(words, dtype=np.uint64)
    off = offset9(w)
    signed = sign_bit(w)
    lo8, hi8 = np.where(signed, -128, 0), np.where(signed, 127, 255)
    lo, hi = np.maximum(off - 256, lo8), np.minimum(off + 255, hi8)
    apart = lo > hi
    if apart.any():
        bound = np.where(off + 255 < lo8, lo8, hi8)
        lo, hi = np.where(apart, bound, lo), np.where(apart, bound, hi)
    scale = m1(w)
    cast = "int8" if lo.min() >= -128 and hi.max() <= 127 else "uint8" if lo.min() >= 0 else "int16"
    return WordFields(scale, off.astype(np.float32), lo.astype(np.float32), hi.astype(np.float32),
                      bool(np.isfinite(scale).all()), cast)


def convert(mode: QuantMode_t, src: DType, dst: DType, raw: np.ndarray, words: np.ndarray | None,
            relu: bool, fields: WordFields | None = None) -> np.ndarray:
    """L0C raw codes (float32 / int32 bits, any shape) -> destination raw codes.

    `words` holds the quantisation word(s) broadcastable against `raw` (one per column for the V modes:
    shape (n,) for raw of shape (..., n)); unused by NoQuant and the casts. `fields` = `word_fields(words)`
    when the caller has them already (a Fixpipe's scalar word, once per call shape): a one-fractal call
    runs this on every call, so it is a handful of whole-array ufuncs."""
    x = raw.view(np.float32) if src.name == "float" else raw.view(np.int32)
    if mode == QuantMode_t.NoQuant:
        if relu:  # Normal ReLU y = max(0, x) (随路ReLU.md); NaN stays NaN
            x = np.where(x < 0, np.zeros((), x.dtype), x)
        return np.ascontiguousarray(x).view(np.uint32)
    if mode in CASTS:
        if relu:
            x = np.where(x < 0, np.float32(0), x)
        return to_raw(dst, x.astype(np.float64))  # CAST_RINT; overflow -> inf (non-saturating, C6)
    f = fields if fields is not None else word_fields(np.asarray(words, dtype=np.uint64))
    xf = x.astype(np.float32)  # int32 -> float32 rounds to nearest even (above 2^24)
    with np.errstate(over="ignore", invalid="ignore"):
        # M1 for x >= 0, M2 otherwise: M2 = M1 without ReLU, 0 with Normal ReLU (场景组合 表1/表2); a float32
        # product, as both goldens form it (C13)
        y = np.multiply(xf, np.where(xf >= 0, f.scale, np.float32(0)) if relu else f.scale, out=xf)
    if mode in DEQ:
        with np.errstate(over="ignore"):
            return y.astype(np.float16).view(np.uint16)  # RNE, overflow -> inf (C6)
    # round half to even (NaN -> 0, C16), then the saturations and the offset (WordFields); every
    # intermediate is a small integer or +-inf, exact in float32
    r = np.rint(y, out=y)
    if src.name == "float" or not f.finite:
        np.copyto(r, np.float32(0), where=r != r)
    r += f.offset
    np.minimum(np.maximum(r, f.lo, out=r), f.hi, out=r)
    if f.cast == "int16":
        return r.astype(np.int16).astype(np.uint8)  # two's complement low byte
    return r.astype(f.cast).view(np.uint8)


def reference_convert(mode: QuantMode_t, src_name: str, value: float | int, word: int, relu: bool
                      ) -> float | int:
    """Slow reference for one element, written from 随路量化.md / 随路量化与随路ReLU场景组合.md and the
    goldens'
    steps (see the module docstring). Returns the destination value (a Python float for half outputs,
    an int for 8-bit ones; the caller encodes it)."""
    m1_bits = word & M1_MASK
    scale = float(np.uint32(m1_bits).view(np.float32))
    m2 = 0.0 if relu else scale
    offset = (word >> 37) & 0x1FF
    if offset >= 256:
        offset -= 512
    signed = (word >> 46) & 1
    xf = float(np.float32(value))  # int32 -> float32 (or the float itself)
    factor = scale if xf >= 0 else m2
    product = float(np.float32(xf * factor))  # rounded to float32 once: xf*factor is exact in float64
    if mode in DEQ:
        with np.errstate(over="ignore"):
            return float(np.float16(product))
    # round half to even (Python's round, like np.round), saturate to the s9 range; NaN -> 0
    q = 0 if math.isnan(product) else round(min(max(product, -256.0), 255.0))
    q += offset
    lo, hi = (-128, 127) if signed else (0, 255)
    return min(max(q, lo), hi)


def deq_word(scale: float) -> int:
    """The uint64 QUANT_PRE word of a DEQF16 scale: the float32 bits, low 13 mantissa bits cleared (as the
    hardware reads them, 随路量化.md 表1); the offset / sign fields stay 0."""
    return int(np.array([scale], np.float32).view(np.uint32)[0]) & M1_MASK
