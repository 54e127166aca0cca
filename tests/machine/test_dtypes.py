"""Tests of ascsim.machine.dtypes against the tables of docs/number_formats.md and
ml_dtypes/en_dtypes."""
# The references (ml_dtypes/numpy casts) warn on NaN/overflow casts; those are expected here.

from __future__ import annotations

import math

import en_dtypes
import ml_dtypes
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ascsim.base.errors import ParamRangeError, UnsupportedError
from ascsim.machine import dtypes as D

pytestmark = pytest.mark.filterwarnings("ignore::RuntimeWarning")

NAN = math.nan
INF = math.inf
CODES8 = list(range(256))
CODES4 = list(range(16))
FLOAT_8_4 = [D.FP8_E4M3FN, D.FP8_E5M2, D.HIFLOAT8, D.FP8_E8M0, D.MX_FP8_E4M3, D.MX_FP8_E5M2,
             D.FP4X2_E2M1, D.FP4X2_E1M2]
SMALL = [D.INT4B, D.INT8, D.UINT8, *FLOAT_8_4]


def same(a: float, b: float) -> bool:
    """Equal including sign of zero, NaN == NaN."""
    if math.isnan(a) or math.isnan(b):
        return math.isnan(a) and math.isnan(b)
    return a == b and math.copysign(1, a) == math.copysign(1, b)


def dec1(dt: D.DType, code: int) -> float:
    return float(D.decode(dt, np.array([code]))[0])


# ---------------------------------------------------------------- hifloat8 (§1)

HIF8_DOC = [  # literal rows of §1 "Special values" and "Worked examples"
    (0x00, 0.0), (0x80, NAN), (0x6F, INF), (0xEF, -INF), (0x6E, 32768.0), (0x7E, 2.0**-15),
    (0x01, 2.0**-22), (0x08, 1.0), (0x0D, 1.625), (0x13, 2.75), (0x9C, -0.75), (0x2E, 14.0),
    (0x3A, 0.15625), (0x55, 0.0390625), (0xC4, -32.0), (0x61, 384.0), (0x87, -(2.0**-16)),
]


@pytest.mark.parametrize("code,value", HIF8_DOC, ids=[f"0x{c:02X}" for c, _ in HIF8_DOC])
def test_hif8_doc_examples(code: int, value: float) -> None:
    assert same(dec1(D.HIFLOAT8, code), value)


def _hif8_from_field_table() -> dict[int, float]:
    """Build code -> value by enumerating the §1 field table rows (Dot, D, M bits) and the DML row."""
    rows = [("11", 4, 1), ("10", 3, 2), ("01", 2, 3), ("001", 1, 3), ("0001", 0, 3)]
    out: dict[int, float] = {0x00: 0.0, 0x80: NAN, 0x6F: INF, 0xEF: -INF}
    for s in (0, 1):
        for dot, d, mb in rows:
            for e in range(2**d):
                for m in range(2**mb):
                    bits = f"{s}{dot}{e:0{d}b}" if d else f"{s}{dot}"
                    code = int(bits + f"{m:0{mb}b}", 2)
                    if code in out:
                        continue
                    ee = 0
                    if d:
                        ebits = f"{e:0{d}b}"
                        mag = int("1" + ebits[1:], 2)
                        ee = -mag if ebits[0] == "1" else mag
                    out[code] = (-1) ** s * 2.0**ee * (1 + m / 2**mb)
        for m in range(1, 8):  # DML: 0000 + M, value 2^(M-23)
            out[(s << 7) | m] = (-1) ** s * 2.0 ** (m - 23)
    assert len(out) == 256
    return out


HIF8_FIELDS = _hif8_from_field_table()


@pytest.mark.parametrize("code", CODES8, ids=[f"hif8-0x{c:02X}" for c in CODES8])
def test_hif8_every_code(code: int) -> None:
    mine = dec1(D.HIFLOAT8, code)
    assert same(mine, HIF8_FIELDS[code])
    ref = float(np.array([code], np.uint8).view(en_dtypes.hifloat8).astype(np.float64)[0])
    assert same(mine, ref)
    assert same(float(D.from_raw(D.HIFLOAT8, np.array([code])).astype(np.float64)[0]), mine)


def test_hif8_global_properties() -> None:
    v = D.decode(D.HIFLOAT8, np.arange(256))
    pos = v[(v > 0) & np.isfinite(v)]
    assert len(pos) == 126 and len(set(pos.tolist())) == 126
    assert pos.max() == 32768.0 and pos.min() == 2.0**-22
    for c in range(1, 128):
        assert same(v[c | 0x80], -v[c])
    assert np.all(np.isin(v[np.isfinite(v)], v[np.isfinite(v)].astype(np.float16).astype(np.float64)))


@pytest.mark.parametrize("x,code", [
    (1.0625, 0x09), (1.1875, 0x0A), (-1.0625, 0x89), (14.0, 0x2E), (NAN, 0x80), (-0.0, 0x00),
    (1.25 * 2**15, 0x6F), (1.2499 * 2**15, 0x6E), (-1e30, 0xEF), (INF, 0x6F),
    (1.5 * 2**-23, 0x01), (1.4999 * 2**-23, 0x00), (2.0**-23, 0x00), (-(2.0**-23), 0x00),
    (1.5 * 2**-16, 0x7E), (1.49 * 2**-16, 0x07),
], ids=lambda p: repr(p))
def test_hif8_encode_cast_round(x: float, code: int) -> None:
    assert D.pad_pattern(D.HIFLOAT8, x) == code


@settings(max_examples=300, deadline=None)
@given(st.floats(allow_nan=False, width=32))
def test_hif8_encoder_matches_en_dtypes_outside_underflow(x: float) -> None:
    if abs(x) < 2.0**-22:  # en_dtypes' underflow threshold differs from hif8.py (see dtypes.py note)
        return
    ref = int(np.array([x], np.float32).astype(en_dtypes.hifloat8).view(np.uint8)[0])
    assert D.pad_pattern(D.HIFLOAT8, x) == ref


# ---------------------------------------------------------------- fp4 (§2, §3)

E2M1_TABLE = [0.0, 0.5, 1.0, 1.5, 2.0, 3.0, 4.0, 6.0, -0.0, -0.5, -1.0, -1.5, -2.0, -3.0, -4.0, -6.0]
E1M2_TABLE = [0.0, 0.25, 0.5, 0.75, 1.0, 1.25, 1.5, 1.75, -0.0, -0.25, -0.5, -0.75, -1.0, -1.25, -1.5, -1.75]
E2M1_DOC_ROWS = {0x0: 0.0, 0x1: 0.5, 0x2: 1.0, 0x3: 1.5, 0x5: 3.0, 0x7: 6.0, 0x8: -0.0, 0xB: -1.5, 0xF: -6.0}
E1M2_DOC_ROWS = {0x0: 0.0, 0x1: 0.25, 0x3: 0.75, 0x4: 1.0, 0x6: 1.5, 0x7: 1.75, 0x8: -0.0, 0xA: -0.5,
                 0xF: -1.75}


@pytest.mark.parametrize("code", CODES4, ids=[f"e2m1-0x{c:X}" for c in CODES4])
def test_e2m1_every_code(code: int) -> None:
    mine = dec1(D.FP4X2_E2M1, code)
    assert same(mine, E2M1_TABLE[code])
    if code in E2M1_DOC_ROWS:
        assert same(mine, E2M1_DOC_ROWS[code])
    raw = np.array([code], np.uint8)
    assert same(mine, float(raw.view(ml_dtypes.float4_e2m1fn).astype(np.float64)[0]))
    assert same(mine, float(raw.view(en_dtypes.float4_e2m1).astype(np.float64)[0]))


@pytest.mark.parametrize("code", CODES4, ids=[f"e1m2-0x{c:X}" for c in CODES4])
def test_e1m2_every_code(code: int) -> None:
    mine = dec1(D.FP4X2_E1M2, code)
    assert same(mine, E1M2_TABLE[code])
    assert same(mine, (-1.0) ** (code >> 3) * (code & 7) * 0.25)
    if code in E1M2_DOC_ROWS:
        assert same(mine, E1M2_DOC_ROWS[code])
    assert same(mine, float(np.array([code], np.uint8).view(en_dtypes.float4_e1m2).astype(np.float64)[0]))


@pytest.mark.parametrize("dt", [D.FP4X2_E2M1, D.FP4X2_E1M2], ids=str)
def test_fp4_encode_specials(dt: D.DType) -> None:
    mx = 6.0 if dt is D.FP4X2_E2M1 else 1.75
    raw = D.to_raw(dt, [NAN, INF, -INF, 100.0, -100.0, mx, -0.0])
    assert raw.tolist() == [0x0, 0x7, 0xF, 0x7, 0xF, 0x7, 0x8]


def test_fp4_encode_rne() -> None:
    assert D.to_raw(D.FP4X2_E2M1, [0.25, 0.75, 1.25, 2.5, 5.0]).tolist() == [0x0, 0x2, 0x2, 0x4, 0x6]
    assert D.to_raw(D.FP4X2_E1M2, [0.125, 0.375, 0.625, -0.125]).tolist() == [0x0, 0x2, 0x2, 0x8]


# ---------------------------------------------------------------- e8m0 (§6)

E8M0_DOC = {0x00: 2.0**-127, 0x01: 2.0**-126, 0x7C: 0.125, 0x7F: 1.0, 0x80: 2.0, 0x85: 64.0,
            0xFE: 2.0**127, 0xFF: NAN}


@pytest.mark.parametrize("code", CODES8, ids=[f"e8m0-0x{c:02X}" for c in CODES8])
def test_e8m0_every_code(code: int) -> None:
    mine = dec1(D.FP8_E8M0, code)
    assert same(mine, NAN if code == 0xFF else 2.0 ** (code - 127))
    if code in E8M0_DOC:
        assert same(mine, E8M0_DOC[code])
    raw = np.array([code], np.uint8)
    assert same(mine, float(raw.view(ml_dtypes.float8_e8m0fnu).astype(np.float64)[0]))
    assert same(mine, float(raw.view(en_dtypes.float8_e8m0).astype(np.float64)[0]))


def test_e8m0_encode() -> None:
    got = D.to_raw(D.FP8_E8M0, [1.0, 0.75, 3.0, 1.6, INF, 1e300, NAN, 1e-300, 2.0**127])
    assert got.tolist() == [0x7F, 0x7E, 0x80, 0x80, 0xFE, 0xFE, 0xFF, 0x00, 0xFE]
    with pytest.raises(ParamRangeError, match="fp8_e8m0_t"):
        D.to_raw(D.FP8_E8M0, [0.0])
    with pytest.raises(ParamRangeError):
        D.to_raw(D.FP8_E8M0, [-2.0])


# ---------------------------------------------------------------- int4 (§5) and other ints

INT4_DOC = {0x0: 0, 0x1: 1, 0x7: 7, 0x8: -8, 0x9: -7, 0xE: -2, 0xF: -1}


@pytest.mark.parametrize("code", CODES4, ids=[f"int4-0x{c:X}" for c in CODES4])
def test_int4_every_code(code: int) -> None:
    mine = int(D.decode(D.INT4B, np.array([code]))[0])
    assert mine == (code - 16 if code & 8 else code)
    if code in INT4_DOC:
        assert mine == INT4_DOC[code]
    assert mine == int(D.from_raw(D.INT4B, np.array([code]))[0])
    assert mine == int(np.array([mine], np.int8).astype(ml_dtypes.int4).astype(np.int64)[0])
    assert int(D.to_raw(D.INT4B, [mine])[0]) == code


@pytest.mark.parametrize("dt,bad", [(D.INT4B, 8), (D.INT4B, -9), (D.INT8, 128), (D.UINT8, -1),
                                    (D.INT16, 1 << 15), (D.UINT32, 1 << 32), (D.INT32, 2.5)],
                         ids=lambda p: str(p))
def test_int_range_errors(dt: D.DType, bad: float) -> None:
    with pytest.raises(ParamRangeError, match=dt.name):
        D.to_raw(dt, [bad])


def test_int_bounds_ok() -> None:
    assert D.to_raw(D.INT8, [-128, 127, -1]).tolist() == [0x80, 0x7F, 0xFF]
    assert D.to_raw(D.UINT32, [0xFFFFFFFF]).tolist() == [0xFFFFFFFF]
    assert D.to_raw(D.INT32, [-(2**31)]).tolist() == [0x80000000]


# ---------------------------------------------------------------- fp8 / half / bf16 (§7, §8)

@pytest.mark.parametrize("dt,ref", [(D.FP8_E4M3FN, ml_dtypes.float8_e4m3fn),
                                    (D.FP8_E5M2, ml_dtypes.float8_e5m2),
                                    (D.MX_FP8_E4M3, ml_dtypes.float8_e4m3fn),
                                    (D.MX_FP8_E5M2, ml_dtypes.float8_e5m2),
                                    (D.HALF, np.float16), (D.BFLOAT16, ml_dtypes.bfloat16)],
                         ids=lambda p: str(p) if isinstance(p, D.DType) else "")
def test_formula_decoder_all_codes_vs_reference(dt: D.DType, ref: type) -> None:
    codes = np.arange(1 << dt.bits, dtype=dt.raw_dtype)
    mine = D.decode(dt, codes)
    theirs = codes.view(ref).astype(np.float64)
    np.testing.assert_array_equal(np.isnan(mine), np.isnan(theirs))
    ok = ~np.isnan(mine)
    np.testing.assert_array_equal(mine[ok], theirs[ok])
    np.testing.assert_array_equal(np.signbit(mine[ok]), np.signbit(theirs[ok]))


DOC_EXAMPLES = [
    (D.FP8_E4M3FN, 0x01, 2.0**-9), (D.FP8_E4M3FN, 0x08, 2.0**-6), (D.FP8_E4M3FN, 0x38, 1.0),
    (D.FP8_E4M3FN, 0x3C, 1.5), (D.FP8_E4M3FN, 0x7E, 448.0), (D.FP8_E4M3FN, 0xC0, -2.0),
    (D.FP8_E4M3FN, 0x80, -0.0), (D.FP8_E4M3FN, 0x7F, NAN), (D.FP8_E4M3FN, 0xFF, NAN),
    (D.FP8_E5M2, 0x01, 2.0**-16), (D.FP8_E5M2, 0x04, 2.0**-14), (D.FP8_E5M2, 0x3C, 1.0),
    (D.FP8_E5M2, 0x3E, 1.5), (D.FP8_E5M2, 0x7B, 57344.0), (D.FP8_E5M2, 0x7C, INF), (D.FP8_E5M2, 0xFC, -INF),
    (D.HALF, 0x3C00, 1.0), (D.HALF, 0x3E00, 1.5), (D.HALF, 0x0001, 2.0**-24), (D.HALF, 0x7BFF, 65504.0),
    (D.HALF, 0x7C00, INF), (D.HALF, 0xFC00, -INF), (D.HALF, 0x7E00, NAN), (D.HALF, 0x8000, -0.0),
    (D.BFLOAT16, 0x3F80, 1.0), (D.BFLOAT16, 0x3FE0, 1.75), (D.BFLOAT16, 0xC040, -3.0),
    (D.BFLOAT16, 0x0001, 2.0**-133), (D.BFLOAT16, 0x7F80, INF), (D.BFLOAT16, 0x7FC0, NAN),
]


@pytest.mark.parametrize("dt,code,value", DOC_EXAMPLES, ids=[f"{d}-0x{c:X}" for d, c, _ in DOC_EXAMPLES])
def test_doc_examples_fp8_half_bf16(dt: D.DType, code: int, value: float) -> None:
    assert same(dec1(dt, code), value)
    if not math.isnan(value):
        assert D.pad_pattern(dt, value) == code


def test_bf16_single_rounding_from_float64() -> None:
    # ml_dtypes rounds float64 -> float32 -> bfloat16 (double rounding); to_raw must not.
    assert D.pad_pattern(D.BFLOAT16, 1 + 2.0**-8 + 2.0**-40) == 0x3F81
    assert D.pad_pattern(D.BFLOAT16, 1 + 2.0**-8) == 0x3F80


@pytest.mark.parametrize("dt,ref", [(D.FP8_E4M3FN, ml_dtypes.float8_e4m3fn),
                                    (D.FP8_E5M2, ml_dtypes.float8_e5m2),
                                    (D.BFLOAT16, ml_dtypes.bfloat16), (D.HALF, np.float16),
                                    (D.FP4X2_E2M1, ml_dtypes.float4_e2m1fn)],
                         ids=lambda p: str(p) if isinstance(p, D.DType) else "")
@settings(max_examples=200, deadline=None)
@given(x=st.floats(allow_nan=False, width=32))
def test_encode_float32_inputs_match_reference(dt: D.DType, ref: type, x: float) -> None:
    theirs = int(np.array([x], np.float32).astype(ref).view(np.uint8 if dt.bits <= 8 else np.uint16)[0])
    assert D.pad_pattern(dt, np.float32(x)) == theirs


# ---------------------------------------------------------------- round trips

@pytest.mark.parametrize("dt", SMALL, ids=str)
def test_raw_value_round_trip_every_code(dt: D.DType) -> None:
    codes = np.arange(16 if dt.is_4bit else 256, dtype=np.uint8)
    vals = D.from_raw(dt, codes)
    assert vals.dtype == dt.value_dtype
    np.testing.assert_array_equal(D.to_raw(dt, vals), codes)  # value_dtype path: bit exact incl. NaN
    dec = D.decode(dt, codes)
    ok = ~np.isnan(dec) if dt.kind == "float" else np.ones(len(codes), bool)
    np.testing.assert_array_equal(D.to_raw(dt, dec[ok]), codes[ok])  # float64 encoder path


@pytest.mark.parametrize("dt", D.ALL_DTYPES, ids=str)
@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_bytes_round_trip(dt: D.DType, data: st.DataObject) -> None:
    hi = 15 if dt.is_4bit else (1 << dt.bits) - 1
    raw = np.array(data.draw(st.lists(st.integers(0, hi), max_size=40)), dtype=dt.raw_dtype)
    vals = D.from_raw(dt, raw)
    b = D.to_bytes(dt, vals)
    assert b.dtype == np.uint8
    assert b.size == ((len(raw) + 1) // 2 if dt.is_4bit else len(raw) * dt.bits // 8)
    back = D.from_bytes(dt, b, len(raw))
    assert back.dtype == dt.value_dtype
    np.testing.assert_array_equal(D.to_raw(dt, back), raw)
    np.testing.assert_array_equal(D.raw_from_bytes(dt, D.raw_to_bytes(dt, raw), len(raw)), raw)


def test_little_endian_bytes() -> None:
    assert D.to_bytes(D.HALF, [1.0]).tolist() == [0x00, 0x3C]
    assert D.to_bytes(D.UINT32, [0x11223344]).tolist() == [0x44, 0x33, 0x22, 0x11]
    assert D.from_bytes(D.BFLOAT16, np.array([0x80, 0x3F], np.uint8)).astype(float).tolist() == [1.0]
    with pytest.raises(ParamRangeError):
        D.from_bytes(D.HALF, np.zeros(3, np.uint8))
    with pytest.raises(ParamRangeError):
        D.from_bytes(D.HALF, np.zeros(4, np.uint8), 3)


# ---------------------------------------------------------------- nibble packing (§4)

def test_nibble_order_literal() -> None:
    assert D.pack_nibbles(np.array([0x1, 0x2], np.uint8)).tolist() == [0x21]
    assert D.unpack_nibbles(np.array([0x21, 0x7F], np.uint8)).tolist() == [0x1, 0x2, 0xF, 0x7]
    b = np.array([0x21, 0x7F], np.uint8)
    assert D.from_bytes(D.FP4X2_E2M1, b).astype(float).tolist() == [0.5, 1.0, -6.0, 6.0]
    assert D.from_bytes(D.FP4X2_E1M2, b).astype(float).tolist() == [0.25, 0.5, -1.75, 1.75]
    assert D.from_bytes(D.INT4B, b).tolist() == [1, 2, -1, 7]
    # int4 sample formula: byte = (x[j+1] << 4) | (x[j] & 0xF)
    assert D.to_bytes(D.INT4B, [1, 2, -1, 7]).tolist() == [0x21, 0x7F]
    assert D.to_bytes(D.INT4B, [3]).tolist() == [0x03]  # odd count padded with a 0 nibble
    assert D.from_bytes(D.INT4B, np.array([0xF3], np.uint8), 1).tolist() == [3]


@pytest.mark.parametrize("call", [
    pytest.param(lambda: D.pack_nibbles(np.array([1, 2, 3], np.uint8)), id="odd-count"),
    pytest.param(lambda: D.pack_nibbles(np.array([16, 0])), id="nibble-16"),
    pytest.param(lambda: D.from_raw(D.FP4X2_E2M1, np.array([16])), id="fp4-code-16"),
])
def test_pack_nibbles_errors(call) -> None:
    with pytest.raises(ParamRangeError):
        call()


# ---------------------------------------------------------------- DType and get_dtype

ALIASES = [
    ("half", D.HALF), ("float16", D.HALF), ("fp16", D.HALF), ("bf16", D.BFLOAT16), ("bfloat16", D.BFLOAT16),
    ("bfloat16_t", D.BFLOAT16), ("float", D.FLOAT), ("float32", D.FLOAT), ("fp32", D.FLOAT),
    ("int8", D.INT8), ("int8_t", D.INT8), ("int4", D.INT4B), ("int4b", D.INT4B), ("int4b_t", D.INT4B),
    ("hif8", D.HIFLOAT8), ("hifloat8", D.HIFLOAT8), ("e4m3", D.FP8_E4M3FN), ("fp8_e4m3fn_t", D.FP8_E4M3FN),
    ("e5m2", D.FP8_E5M2), ("e2m1", D.FP4X2_E2M1), ("fp4x2_e2m1_t", D.FP4X2_E2M1), ("e1m2", D.FP4X2_E1M2),
    ("e8m0", D.FP8_E8M0), ("fp8_e8m0_t", D.FP8_E8M0), ("mx_fp8_e4m3_t", D.MX_FP8_E4M3),
    ("mx_fp8_e5m2_t", D.MX_FP8_E5M2), ("AscendC::half", D.HALF), ("uint16_t", D.UINT16),
    ("int32", D.INT32), ("uint32_t", D.UINT32), ("int16", D.INT16), ("uint8", D.UINT8),
    (np.float16, D.HALF), (np.dtype(np.float32), D.FLOAT), (ml_dtypes.bfloat16, D.BFLOAT16),
    (np.int8, D.INT8), (np.uint8, D.UINT8), (np.int32, D.INT32), (np.uint32, D.UINT32),
    (ml_dtypes.float8_e4m3fn, D.FP8_E4M3FN), (ml_dtypes.float8_e5m2, D.FP8_E5M2),
    (en_dtypes.hifloat8, D.HIFLOAT8), (ml_dtypes.float4_e2m1fn, D.FP4X2_E2M1),
    (en_dtypes.float4_e1m2, D.FP4X2_E1M2), (ml_dtypes.float8_e8m0fnu, D.FP8_E8M0), (ml_dtypes.int4, D.INT4B),
    (D.HALF, D.HALF),
]


@pytest.mark.parametrize("alias,dt", ALIASES, ids=[getattr(a, "__name__", str(a)) for a, _ in ALIASES])
def test_get_dtype_aliases(alias: object, dt: D.DType) -> None:
    assert D.get_dtype(alias) is dt


def test_get_dtype_torch() -> None:
    torch = pytest.importorskip("torch")
    assert D.get_dtype(torch.bfloat16) is D.BFLOAT16
    assert D.get_dtype(torch.float16) is D.HALF
    assert D.get_dtype(torch.float8_e4m3fn) is D.FP8_E4M3FN


@pytest.mark.parametrize("bad", ["float64", "fp64", "", np.float64, np.complex64], ids=repr)
def test_get_dtype_error(bad: object) -> None:
    with pytest.raises(UnsupportedError) as ei:
        D.get_dtype(bad)  # type: ignore[arg-type]
    msg = str(ei.value)
    assert repr(bad) in msg and "hifloat8_t" in msg and "bfloat16_t" in msg


@pytest.mark.parametrize("dt", D.ALL_DTYPES, ids=str)
def test_dtype_properties(dt: D.DType) -> None:
    assert str(dt) == dt.name
    assert dt.c0 == 256 // dt.bits and dt.c0 * dt.size == 32
    assert dt.is_4bit == (dt.bits == 4)
    assert dt.raw_dtype.kind == "u" and dt.raw_dtype.itemsize == max(1, dt.bits // 8)
    assert D.get_dtype(dt.name) is dt


def test_constants() -> None:
    assert len(D.ALL_DTYPES) == 18 and len({d.name for d in D.ALL_DTYPES}) == 18
    assert (D.INT4B.size, D.INT4B.c0, D.HALF.c0, D.FLOAT.c0, D.INT8.c0) == (0.5, 64, 16, 8, 32)
    assert D.INT4B.value_dtype == np.int8 and D.HIFLOAT8.value_dtype == np.dtype(en_dtypes.hifloat8)


@pytest.mark.parametrize("dt,value,pattern", [
    (D.HALF, 1.0, 0x3C00), (D.BFLOAT16, 1.0, 0x3F80), (D.FLOAT, 1.0, 0x3F800000), (D.INT8, -1, 0xFF),
    (D.INT4B, -1, 0xF), (D.INT16, -2, 0xFFFE), (D.HIFLOAT8, 1.0, 0x08), (D.FP8_E4M3FN, 1.0, 0x38),
    (D.FP8_E8M0, 1.0, 0x7F), (D.FP4X2_E2M1, -6.0, 0xF), (D.HALF, -0.0, 0x8000), (D.UINT32, 7, 7),
], ids=lambda p: str(p))
def test_pad_pattern(dt: D.DType, value: float, pattern: int) -> None:
    got = D.pad_pattern(dt, value)
    assert type(got) is int and got == pattern
