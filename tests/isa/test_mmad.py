"""Mmad against numpy references written from the doc layouts (Mmad.md 表1/表2, GEMV.md, K-方向对齐约束.md).

Operands are placed with the simple `ascsim.layouts` converters (Zz / Nz for A, Zn for B, Nz 16x16 for C)
and the result is compared with `a @ b` in numpy: int64 for integers (saturated to int32), float64 rounded
once to float32 for floats (the arithmetic model documented in ascsim/isa/mmad.py). Padding elements of
partial fractals are filled with a sentinel, so a reader that strays into them produces a wrong result.
"""

from __future__ import annotations

import warnings
import zlib

import en_dtypes
import ml_dtypes
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from support.state import untouched

from ascsim import (
    AlignmentError,
    BoundsError,
    Core,
    HazardError,
    HazardWarning,
    MmadParams,
    ParamRangeError,
    UnsupportedError,
)
from ascsim.machine import layouts as L
from ascsim.machine.chips import get_chip
from ascsim.machine.dtypes import get_dtype
from ascsim.machine.memory import MARKER

CHIPS = ("a2", "ascend950")
COMBOS = [(chip, combo) for chip in CHIPS for combo in sorted(get_chip(chip).apis["Mmad"].combos)]

# Value types used to draw representable inputs (ml_dtypes / en_dtypes casts quantise for us).
_FLOAT_NP = {
    "half": np.float16, "bfloat16_t": ml_dtypes.bfloat16, "float": np.float32,
    "fp8_e4m3fn_t": ml_dtypes.float8_e4m3fn, "fp8_e5m2_t": ml_dtypes.float8_e5m2,
    "hifloat8_t": en_dtypes.hifloat8,
}
_INT_RANGE = {"int8_t": (-128, 127), "int4b_t": (-8, 7)}


def draw(name: str, shape: tuple[int, int], rng: np.random.Generator) -> np.ndarray:
    """Representable values of dtype `name` as float64 / int64."""
    if name in _INT_RANGE:
        lo, hi = _INT_RANGE[name]
        return rng.integers(lo, hi + 1, shape).astype(np.int64)
    x = rng.standard_normal(shape) * 3
    return x.astype(_FLOAT_NP[name]).astype(np.float64)


def sentinel(name: str) -> float:
    return 7 if name == "int4b_t" else 64  # exact in every operand type; never part of a valid element


def ref_matmul(a: np.ndarray, b: np.ndarray, c_name: str) -> np.ndarray:
    if c_name == "int32_t":
        return np.clip(a.astype(np.int64) @ b.astype(np.int64), -(2**31), 2**31 - 1)
    return (a.astype(np.float64) @ b.astype(np.float64)).astype(np.float32)


def place_a(core: Core, name: str, a: np.ndarray, k_align: bool = False, gemv: bool = False):
    """A in L0A in the documented layout: Zz (K1 = ceil(k/C0), or ceil(k/16)*2 with kDirectionAlign),
    Nz (column stride ceil(m/16)) on 950, ND in GEMV mode."""
    dt = get_dtype(name)
    m, k = a.shape
    if gemv:
        flat = a.ravel()
    elif core.chip.l0a_format == "ZZ":
        cols = L.align(k, 16) if k_align else k
        wide = np.full((m, cols), sentinel(name), dtype=np.float64)
        wide[:, :k] = a
        flat = L.nd_to_zz(wide, dt.c0, fill=sentinel(name))
    else:
        flat = L.nd_to_nz(a, dt.c0, fill=sentinel(name))
    return core.tensor("A2", name, flat.size, data=flat)


def place_b(core: Core, name: str, b: np.ndarray):
    flat = L.nd_to_zn(b, get_dtype(name).c0, fill=sentinel(name))
    return core.tensor("B2", name, flat.size, data=flat)


def c_tensor(core: Core, name: str, m: int, n: int, data: np.ndarray | None = None):
    t = core.tensor("CO1", name, L.align(m, 16) * L.align(n, 16))
    if data is not None:
        t.write(L.nd_to_nz(data, 16))
    return t


def read_c(c, m: int, n: int) -> np.ndarray:
    return L.nz_to_nd(c.read(), m, n, 16)


def valid_c_bytes(c, m: int, n: int) -> np.ndarray:
    """Mask of the L0C bytes of the valid m x n region (C element = 4 bytes)."""
    r, col = np.meshgrid(np.arange(m), np.arange(n), indexing="ij")
    offs = L.nz_offset(r, col, m, 16).ravel()
    mask = np.zeros(c.nbytes, dtype=bool)
    for i in range(4):
        mask[offs * 4 + i] = True
    return mask


# ------------------------------------------------------------------------------------------------ dtypes


@pytest.mark.parametrize(("chip", "combo"), COMBOS, ids=[f"{c}-{'-'.join(x)}" for c, x in COMBOS])
@pytest.mark.parametrize(("m", "n", "k"), [(16, 16, 64), (20, 40, 70), (33, 17, 5)], ids=str)
def test_every_dtype_pair(chip: str, combo: tuple[str, str, str], m: int, n: int, k: int) -> None:
    an, bn, cn = combo
    rng = np.random.default_rng(zlib.crc32(f"{chip}{combo}{m}".encode()))
    core = Core(chip)
    a, b = draw(an, (m, k), rng), draw(bn, (k, n), rng)
    ta, tb, tc = place_a(core, an, a), place_b(core, bn, b), c_tensor(core, cn, m, n)
    rep = core.mmad(tc, ta, tb, MmadParams(m, n, k))
    np.testing.assert_array_equal(read_c(tc, m, n), ref_matmul(a, b, cn))
    # only the valid m x n region of C is written (docs/divergences.md M6)
    untouched = tc.bytes()[~valid_c_bytes(tc, m, n)]
    assert (untouched == MARKER).all()
    assert rep.bytes_written == m * n * 4


def test_float_sum_rounds_once() -> None:
    """1 + 2^-24 + 2^-24: float64 accumulation rounds once to 1 + 2^-23 (float32 running sums give 1)."""
    core = Core("a2")
    a = np.array([[1.0, 2.0**-24, 2.0**-24]])
    a2 = np.vstack([a, a])  # m = 2 avoids GEMV
    b = np.ones((3, 1))
    c = c_tensor(core, "float", 2, 1)
    core.mmad(c, place_a(core, "float", a2), place_b(core, "float", b), MmadParams(2, 1, 3))
    assert read_c(c, 2, 1)[0, 0] == np.float32(1 + 2.0**-23)


@settings(max_examples=40, deadline=None)
@given(chip=st.sampled_from(CHIPS), m=st.integers(2, 70), n=st.integers(1, 70), k=st.integers(1, 90),
       combo_i=st.integers(0, 100), seed=st.integers(0, 2**16))
def test_random_shapes(chip: str, m: int, n: int, k: int, combo_i: int, seed: int) -> None:
    combos = sorted(get_chip(chip).apis["Mmad"].combos)
    an, bn, cn = combos[combo_i % len(combos)]
    rng = np.random.default_rng(seed)
    core = Core(chip)
    a, b = draw(an, (m, k), rng), draw(bn, (k, n), rng)
    tc = c_tensor(core, cn, m, n)
    core.mmad(tc, place_a(core, an, a), place_b(core, bn, b), MmadParams(m, n, k))
    np.testing.assert_array_equal(read_c(tc, m, n), ref_matmul(a, b, cn))


# ------------------------------------------------------------------------------------------- kDirectionAlign


@pytest.mark.parametrize("k", [20, 36, 44, 8])
def test_k_direction_align_a2(k: int) -> None:
    """float Zz: kDirectionAlign=true pitches K by ceil(k/16)*2 fractals, false by ceil(k/8)."""
    rng = np.random.default_rng(k)
    m, n = 24, 20
    a, b = draw("float", (m, k), rng), draw("float", (k, n), rng)
    for flag in (False, True):
        core = Core("a2")
        tc = c_tensor(core, "float", m, n)
        core.mmad(tc, place_a(core, "float", a, k_align=flag), place_b(core, "float", b),
                  MmadParams(m, n, k, kDirectionAlign=flag))
        np.testing.assert_array_equal(read_c(tc, m, n), ref_matmul(a, b, "float"))


def test_k_direction_align_matters_for_float_only() -> None:
    """With k = 20 the two pitches differ (3 vs 4 fractals): reading an aligned layout without the flag
    must give a different result; half has C0 = 16 so the flag changes nothing."""
    rng = np.random.default_rng(1)
    m, n, k = 24, 16, 20
    a, b = draw("float", (m, k), rng), draw("float", (k, n), rng)
    core = Core("a2")
    tc = c_tensor(core, "float", m, n)
    core.mmad(tc, place_a(core, "float", a, k_align=True), place_b(core, "float", b), MmadParams(m, n, k))
    assert not np.array_equal(read_c(tc, m, n), ref_matmul(a, b, "float"))
    ah, bh = draw("half", (m, k), rng), draw("half", (k, n), rng)
    core = Core("a2")
    tc = c_tensor(core, "float", m, n)
    p = MmadParams(m, n, k, kDirectionAlign=True)
    core.mmad(tc, place_a(core, "half", ah), place_b(core, "half", bh), p)
    np.testing.assert_array_equal(read_c(tc, m, n), ref_matmul(ah, bh, "float"))


def test_k_direction_align_950_is_noop() -> None:
    rng = np.random.default_rng(2)
    m, n, k = 20, 18, 20
    a, b = draw("float", (m, k), rng), draw("float", (k, n), rng)
    core = Core("ascend950")
    tc = c_tensor(core, "float", m, n)
    p = MmadParams(m, n, k, kDirectionAlign=True)
    core.mmad(tc, place_a(core, "float", a), place_b(core, "float", b), p)
    np.testing.assert_array_equal(read_c(tc, m, n), ref_matmul(a, b, "float"))


def test_k_direction_align_rejected_where_false_only() -> None:
    core = Core("atlas200i500a2")
    ta, tb = core.tensor("A2", "float", 256), core.tensor("B2", "float", 256)
    tc = core.tensor("CO1", "float", 256)
    with pytest.raises(UnsupportedError, match=r"^Mmad: kDirectionAlign must be false"):
        core.mmad(tc, ta, tb, MmadParams(16, 16, 8, kDirectionAlign=True))


# ---------------------------------------------------------------------------------- init / accumulate / bias


def _setup(chip: str, an: str, cn: str, m: int = 20, n: int = 24, k: int = 40, seed: int = 0):
    rng = np.random.default_rng(seed)
    core = Core(chip)
    a, b = draw(an, (m, k), rng), draw(an, (k, n), rng)
    prior = (rng.integers(-1000, 1000, (m, n)) if cn == "int32_t" else rng.standard_normal((m, n)).astype(
        np.float32)).astype(np.float64)
    tc = c_tensor(core, cn, m, n, prior)
    return core, a, b, prior, place_a(core, an, a), place_b(core, an, b), tc, (m, n, k)


def _exact(a, b, init, cn):
    """Reference with the initial value added before the single rounding."""
    if cn == "int32_t":
        return np.clip(a.astype(np.int64) @ b.astype(np.int64) + init.astype(np.int64), -(2**31), 2**31 - 1)
    return (a @ b + init).astype(np.float32)


PAIRS = [(chip, an, cn) for chip in CHIPS for an, cn in (("int8_t", "int32_t"), ("half", "float"))]


@pytest.mark.parametrize(("chip", "an", "cn"), PAIRS)
def test_init_overwrites(chip: str, an: str, cn: str) -> None:
    core, a, b, prior, ta, tb, tc, (m, n, k) = _setup(chip, an, cn)
    core.mmad(tc, ta, tb, MmadParams(m, n, k))
    np.testing.assert_array_equal(read_c(tc, m, n), ref_matmul(a, b, cn))


@pytest.mark.parametrize(("chip", "an", "cn"), PAIRS)
@pytest.mark.parametrize("how", ["initval_false", "isBias"])
def test_accumulate(chip: str, an: str, cn: str, how: str) -> None:
    core, a, b, prior, ta, tb, tc, (m, n, k) = _setup(chip, an, cn)
    p = MmadParams(m, n, k, cmatrixInitVal=False) if how == "initval_false" else MmadParams(m, n, k, True)
    core.mmad(tc, ta, tb, p)
    np.testing.assert_array_equal(read_c(tc, m, n), _exact(a, b, prior, cn))


@pytest.mark.parametrize(("chip", "an", "cn"), PAIRS)
def test_bias_tensor_in_bt(chip: str, an: str, cn: str) -> None:
    core, a, b, prior, ta, tb, tc, (m, n, k) = _setup(chip, an, cn)
    bias_v = np.arange(n, dtype=np.float64) * 3 - 20
    bias = core.tensor("C2", cn, n, data=bias_v)
    core.mmad(tc, ta, tb, MmadParams(m, n, k, cmatrixInitVal=False), bias)
    np.testing.assert_array_equal(read_c(tc, m, n), _exact(a, b, np.broadcast_to(bias_v, (m, n)), cn))


@pytest.mark.parametrize("chip", CHIPS)
def test_cmatrix_source_without_bias_reads_bt_address_0(chip: str) -> None:
    core, a, b, prior, ta, tb, tc, (m, n, k) = _setup(chip, "half", "float")
    bias_v = np.linspace(-4, 4, n)
    core.tensor("C2", "float", n, offset=0, data=bias_v)
    core.mmad(tc, ta, tb, MmadParams(m, n, k, cmatrixInitVal=False, cmatrixSource=True))
    expect = _exact(a, b, np.broadcast_to(bias_v.astype(np.float32).astype(np.float64), (m, n)), "float")
    np.testing.assert_array_equal(read_c(tc, m, n), expect)


def test_bias_in_co1_accumulates_onto_c() -> None:
    core, a, b, prior, ta, tb, tc, (m, n, k) = _setup("a2", "half", "float")
    core.mmad(tc, ta, tb, MmadParams(m, n, k, cmatrixInitVal=False), tc)
    np.testing.assert_array_equal(read_c(tc, m, n), _exact(a, b, prior, "float"))


def test_bias_with_initval_true_is_ignored_with_hazard() -> None:
    core, a, b, prior, ta, tb, tc, (m, n, k) = _setup("a2", "half", "float")
    bias = core.tensor("C2", "float", n, data=np.ones(n))
    with pytest.warns(HazardWarning, match="bias is ignored"):
        core.mmad(tc, ta, tb, MmadParams(m, n, k), bias)
    np.testing.assert_array_equal(read_c(tc, m, n), ref_matmul(a, b, "float"))


def test_int32_saturates() -> None:
    """Integer results saturate ("对于整数类型只有饱和模式", Mmad.md 约束说明)."""
    core = Core("a2")
    m, n, k = 2, 1, 32
    a = np.full((m, k), 127)
    b = np.full((k, n), 127)
    tc = c_tensor(core, "int32_t", m, n, np.array([[2**31 - 100], [-(2**31) + 5]], dtype=np.float64))
    a[1] = -127
    p = MmadParams(m, n, k, cmatrixInitVal=False)
    core.mmad(tc, place_a(core, "int8_t", a), place_b(core, "int8_t", b), p)
    np.testing.assert_array_equal(read_c(tc, m, n).ravel(), [2**31 - 1, -(2**31)])


# ------------------------------------------------------------------------------------------------ NOP, GEMV


@pytest.mark.parametrize("mnk", [(0, 16, 16), (16, 0, 16), (16, 16, 0)])
def test_zero_is_nop(mnk: tuple[int, int, int]) -> None:
    core = Core("a2")
    ta = core.tensor("A2", "half", 256, data=np.ones(256))
    tb = core.tensor("B2", "half", 256, data=np.ones(256))
    tc = core.tensor("CO1", "float", 256)
    rep = core.mmad(tc, ta, tb, MmadParams(*mnk))
    assert (core.memory("L0C").data == MARKER).all()
    assert rep.bytes_written == 0


@pytest.mark.parametrize("chip", CHIPS)
@pytest.mark.parametrize(("an", "cn"), [("half", "float"), ("int8_t", "int32_t"), ("float", "float")])
def test_gemv_reads_a_as_nd(chip: str, an: str, cn: str) -> None:
    """m = 1: A is k contiguous elements (GEMV.md 特性约束 1); C keeps Nz with M1 = 1 (1 KB per 1x16)."""
    rng = np.random.default_rng(5)
    n, k = 50, 70
    a, b = draw(an, (1, k), rng), draw(an, (k, n), rng)
    core = Core(chip)
    tc = c_tensor(core, cn, 1, n)
    core.mmad(tc, place_a(core, an, a, gemv=True), place_b(core, an, b), MmadParams(1, n, k))
    flat = tc.read()
    offs = (np.arange(n) // 16) * 256 + np.arange(n) % 16
    np.testing.assert_array_equal(flat[offs], ref_matmul(a, b, cn)[0])


def test_disable_gemv_950_reads_nz() -> None:
    rng = np.random.default_rng(6)
    n, k = 20, 40
    a, b = draw("half", (1, k), rng), draw("half", (k, n), rng)
    core = Core("ascend950")
    tc = c_tensor(core, "float", 1, n)
    core.mmad(tc, place_a(core, "half", a), place_b(core, "half", b), MmadParams(1, n, k, disableGemv=True))
    np.testing.assert_array_equal(read_c(tc, 1, n), ref_matmul(a, b, "float"))


def test_disable_gemv_rejected_on_a2() -> None:
    core = Core("a2")
    ta, tb = core.tensor("A2", "half", 256), core.tensor("B2", "half", 256)
    tc = core.tensor("CO1", "float", 256)
    with pytest.raises(UnsupportedError, match=r"^Mmad: disableGemv exists on Ascend 950 only"):
        core.mmad(tc, ta, tb, MmadParams(1, 16, 16, disableGemv=True))


# ------------------------------------------------------------------------------------------------ errors


def _operands(core: Core, an="half", bn="half", cn="float", c_off=None, a_off=None):
    ta = core.tensor("A2", an, 1024, offset=a_off, data=np.ones(1024))
    tb = core.tensor("B2", bn, 1024, data=np.ones(1024))
    tc = core.tensor("CO1", cn, 1024, offset=c_off)
    return ta, tb, tc


ERRORS = [
    ("a2", dict(an="fp8_e4m3fn_t", bn="fp8_e4m3fn_t"), MmadParams(16, 16, 32), UnsupportedError,
     r"^Mmad: dtype combination \(fp8_e4m3fn_t, fp8_e4m3fn_t, float\) is not supported"),
    ("ascend950", dict(an="int4b_t", bn="int4b_t", cn="int32_t"), MmadParams(16, 16, 64), UnsupportedError,
     r"^Mmad: dtype combination \(int4b_t, int4b_t, int32_t\)"),
    ("a2", dict(an="half", bn="bfloat16_t"), MmadParams(16, 16, 16), UnsupportedError,
     r"^Mmad: dtype combination \(half, bfloat16_t, float\)"),
    ("a2", dict(cn="half"), MmadParams(16, 16, 16), UnsupportedError,
     r"^Mmad: dtype combination \(half, half, half\)"),
    ("a2", {}, MmadParams(4096, 16, 16), ParamRangeError, r"^Mmad: m must be in \[0, 4095\], but got 4096"),
    ("a2", {}, MmadParams(16, 16, 5000), ParamRangeError, r"^Mmad: k must be in \[0, 4095\], but got 5000"),
    ("a2", {}, MmadParams(16, -1, 16), ParamRangeError, r"^Mmad: n must be in \[0, 4095\], but got -1"),
    ("a2", dict(c_off=512), MmadParams(16, 16, 16), AlignmentError,
     r"^Mmad: dst \(C\) address must be 1024-byte aligned"),
    ("a2", dict(a_off=32), MmadParams(16, 16, 16), AlignmentError,
     r"^Mmad: fm \(A\) address must be 512-byte aligned"),
    ("a2", {}, MmadParams(16, 16, 16, unitFlag=1), ParamRangeError, r"^Mmad: unitFlag must be 0, 2 or 3"),
]


@pytest.mark.parametrize(("chip", "kw", "params", "exc", "msg"), ERRORS, ids=lambda x: str(x)[:40])
def test_errors_leave_memory_untouched(chip, kw, params, exc, msg) -> None:
    core = Core(chip)
    ta, tb, tc = _operands(core, **kw)
    with untouched(core), pytest.raises(exc, match=msg):
        core.mmad(tc, ta, tb, params)


# -- positions and the bias operand: build(core) -> the refused call


def _a_not_in_l0a(core: Core):
    ta, tb, tc = _operands(core)
    wrong = core.tensor("B2", "half", 1024)
    return lambda: core.mmad(tc, wrong, tb, MmadParams(16, 16, 16))


def _c_not_in_l0c(core: Core):
    ta, tb, tc = _operands(core)
    return lambda: core.mmad(core.tensor("A1", "float", 256), ta, tb, MmadParams(16, 16, 16))


def _bias_dtype(core: Core):
    ta, tb, tc = _operands(core)
    return lambda: core.mmad(tc, ta, tb, MmadParams(16, 16, 16, cmatrixInitVal=False),
                             core.tensor("C2", "int32_t", 16))


def _bias_alignment(core: Core):
    ta, tb, tc = _operands(core)
    return lambda: core.mmad(tc, ta, tb, MmadParams(16, 16, 16, cmatrixInitVal=False),
                             core.tensor("C2", "float", 16, offset=32))


def _bias_with_int4(core: Core):
    ta4 = core.tensor("A2", "int4b_t", 1024)
    tb4 = core.tensor("B2", "int4b_t", 1024)
    tc4 = core.tensor("CO1", "int32_t", 256)
    return lambda: core.mmad(tc4, ta4, tb4, MmadParams(16, 16, 64, cmatrixInitVal=False),
                             core.tensor("C2", "int32_t", 16))


def _cmatrix_source(core: Core):
    return lambda: core.mmad(core.tensor("CO1", "float", 256), core.tensor("A2", "half", 256),
                             core.tensor("B2", "half", 256),
                             MmadParams(16, 16, 16, cmatrixInitVal=False, cmatrixSource=True))


OPERAND_ERRORS = [
    pytest.param("a2", _a_not_in_l0a, UnsupportedError, r"^Mmad: fm \(A\) must be in L0A",
                 id="A-not-in-L0A"),
    pytest.param("a2", _c_not_in_l0c, UnsupportedError, r"^Mmad: dst \(C\) must be in L0C",
                 id="C-not-in-L0C"),
    pytest.param("a2", _bias_dtype, UnsupportedError, r"^Mmad: bias dtype must equal the dst dtype float",
                 id="bias-dtype"),
    pytest.param("a2", _bias_alignment, AlignmentError, r"^Mmad: bias \(BT\) address must be 64-byte aligned",
                 id="bias-alignment"),
    pytest.param("a2", _bias_with_int4, UnsupportedError,
                 r"^Mmad: bias with int4b_t operands is not supported", id="bias-with-int4"),
    pytest.param("training", _cmatrix_source, UnsupportedError, r"^Mmad: cmatrixSource must be false on",
                 id="cmatrixSource-on-training"),
]


@pytest.mark.parametrize(("chip", "build", "exc", "match"), OPERAND_ERRORS)
def test_operand_errors(chip: str, build, exc, match: str) -> None:
    core = Core(chip)
    call = build(core)
    with pytest.raises(exc, match=match):
        call()


def test_out_of_memory_is_bounds_error_and_untouched() -> None:
    core = Core("a2")
    size = core.memory("L0A").size
    ta = core.tensor("A2", "half", 256, offset=size - 512)
    tb = core.tensor("B2", "half", 4096)
    tc = core.tensor("CO1", "float", 64 * 64)
    with untouched(core), pytest.raises(BoundsError, match=r"^Mmad: A \(L0A\): bytes"):
        core.mmad(tc, ta, tb, MmadParams(64, 64, 64))


def test_past_tensor_is_hazard_and_strict_raises_untouched() -> None:
    rng = np.random.default_rng(3)
    m, n, k = 32, 32, 16
    a, b = draw("half", (m, k), rng), draw("half", (k, n), rng)
    for strict in (False, True):
        core = Core("a2", strict=strict)
        ta, tb = place_a(core, "half", a), place_b(core, "half", b)
        tc = core.tensor("CO1", "float", 256)  # one fractal; C needs four
        if strict:
            with untouched(core), pytest.raises(HazardError, match=r"^Mmad: writes 4096 B of C \(L0C\)"):
                core.mmad(tc, ta, tb, MmadParams(m, n, k))
        else:
            with pytest.warns(HazardWarning, match=r"past the LocalTensor"):
                core.mmad(tc, ta, tb, MmadParams(m, n, k))
            full = core.tensor("CO1", "float", 1024, offset=tc.offset)
            np.testing.assert_array_equal(read_c(full, m, n), ref_matmul(a, b, "float"))


def test_no_hazard_for_exact_tensors() -> None:
    rng = np.random.default_rng(4)
    core = Core("ascend950")
    a, b = draw("half", (20, 40), rng), draw("half", (40, 24), rng)
    tc = c_tensor(core, "float", 20, 24)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        core.mmad(tc, place_a(core, "half", a), place_b(core, "half", b), MmadParams(20, 24, 40))
