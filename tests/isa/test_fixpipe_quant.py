"""Fixpipe beyond the plain casts: (V)DEQF16, (V)QF322B8_PRE, (V)REQ8, ReLU, Int8 Channel Merge, the
cbufWorkspace overload, the Fixpipe registers with DataCopy CO1 -> GM, atomic add, L0C -> L1 and NZ2DN to an
unaligned GM address.

References (none of them ascsim's own output):
- `golden_*` (tests/support/fixpipe_goldens.py): numpy written from 随路量化.md 表1/表2 and
  随路量化与随路ReLU场景组合.md, following the steps of Huawei's generators asc-devkit
  examples/01_simd_cpp_api/03_basic_api/03_matrix_compute/fixpipe_l0c2gm/scripts/gen_data_s322s8.py,
  gen_data_s322f16.py, gen_data_f322s8.py and ops-nn matmul_quant_util.py (f32_2_s9, u64_to_offset): int32 ->
  float32; a float32 product with M1 (x >= 0) or M2 (x < 0); for 8-bit outputs np.round, clip [-256, 255], +
  offset, clip to int8 / uint8 by the Sign bit; for half outputs a cast. (gen_data_s322f16.py's saturation()
  rounds the half result to an integer, which only its integer data hides; ascsim follows the doc's
  dequantisation instead, divergence C13.)
- `isa.quant.reference_convert`: the same steps one element at a time (hypothesis).
- the fixpipe_l0c2gm kernel transliterated call by call (scenarios 4, 5, 6), its matmul checked against numpy.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from support.fixpipe_goldens import golden_b8, golden_deq, word

from ascsim import Core, DocConflictError, DocConflictWarning, HazardError, HazardWarning
from ascsim.base.errors import AlignmentError, NotImplementedFeature, ParamRangeError, UnsupportedError
from ascsim.isa import quant
from ascsim.machine.layouts import cdiv, nd_to_nz, nz_to_nd
from ascsim.machine.memory import MARKER
from ascsim.params import (
    CFG_COLUMN_MAJOR,
    CFG_NZ,
    CFG_ROW_MAJOR,
    DataCopyCO12DstParams,
    DataCopyParams,
    FixpipeParamsArch3510,
    FixpipeParamsV220,
    LoadData2DParams,
    LoadData2DParamsV2,
    MmadParams,
    Nd2NzParams,
    Nz2DnParams,
    QuantMode_t,
)

Q = QuantMode_t


def l0c(core: Core, c: np.ndarray, dtype: str):
    """C (m x n) into CO1 as Nz, column height align(m, 16)."""
    flat = nd_to_nz(c, 16)
    return core.tensor("CO1", dtype, flat.size, data=flat), cdiv(c.shape[0], 16) * 16


def _fp(chip: str, **kw):
    return FixpipeParamsArch3510(**kw) if chip == "ascend950" else FixpipeParamsV220(**kw)


# ============================================================ the numerics, literal and against the goldens


@pytest.mark.parametrize("chip", ["a2", "ascend950"])
@pytest.mark.parametrize("mode,relu", [(Q.REQ8, False), (Q.REQ8, True), (Q.DEQF16, False), (Q.DEQF16, True)])
def test_int32_modes_match_the_generators(chip, mode, relu):
    """gen_data_s322s8.py / gen_data_s322f16.py: C = int8 x int8 in [-3, 3), scalar quant, quant_scalar = 2,
    pre_relu_mode 0 (M2 = M1) or 1 (Normal ReLU, M2 = 0)."""
    rng = np.random.default_rng(9)
    x = rng.integers(-3, 3, (64, 64)) @ rng.integers(-3, 3, (64, 48))
    x = (x * 997).astype(np.int32)  # wider than the generator's data, so rounding and saturation both happen
    core = Core(chip)
    src, stride = l0c(core, x, "int32_t")
    dst_t = "half" if mode == Q.DEQF16 else "int8_t"
    out = core.global_tensor(dst_t, x.size)
    w = word(2.0 / 997 * 3)
    core.fixpipe(out, src, _fp(chip, nSize=48, mSize=64, srcStride=stride, dstStride=48, quantPre=mode,
                               deqScalar=w, reluEn=relu))
    got = out.read().reshape(64, 48)
    exp = golden_deq(x, np.uint64(w), relu) if mode == Q.DEQF16 else golden_b8(x, np.uint64(w), relu)
    if mode == Q.DEQF16:
        np.testing.assert_array_equal(got.view(np.uint16), exp.view(np.uint16))
    else:
        np.testing.assert_array_equal(got, exp)


def test_scale_is_read_as_1_8_10():
    """随路量化.md 表1: "硬件以(1, 8, 10)的格式 ... 13~22位为尾数位" — a scale 1 + 2^-11 acts as 1.0 (the
    Fixpipe page: clear the low 13 mantissa bits when generating goldens)."""
    core = Core("a2")
    src, s = l0c(core, np.full((16, 16), 2048, np.int32), "int32_t")
    out = core.global_tensor("half", 256)
    core.fixpipe(out, src, FixpipeParamsV220(16, 16, s, 16, quantPre=Q.DEQF16, deqScalar=word(1 + 2**-11)))
    assert (out.read() == 2048).all()  # 2048 * (1 + 2^-11) = 2049 would be representable in half


def test_offset_and_sign_fields():
    """表1: Offset (bits 45:37, a 9-bit integer) is added after the multiply; Sign = 0 saturates to uint8."""
    core = Core("a2")
    x = np.arange(-128, 128, dtype=np.int32).reshape(16, 16) * 3
    src, s = l0c(core, x, "int32_t")
    for dst, w in (("int8_t", word(0.5, offset=-5)), ("uint8_t", word(0.5, offset=100, signed=False))):
        out = core.global_tensor(dst, 256)
        core.fixpipe(out, src, FixpipeParamsV220(16, 16, s, 16, quantPre=Q.REQ8, deqScalar=w))
        np.testing.assert_array_equal(out.read().reshape(16, 16).astype(np.int64),
                                      golden_b8(x, np.uint64(w), False))
    # ties to even: 0.5 * 3 * k for odd k lands on .5
    assert golden_b8(np.array([[3]]), np.uint64(word(0.5)), False)[0, 0] == 2


def test_sign_bit_disagreeing_with_the_destination_is_a_hazard():
    """The hardware reads only the Sign bit; an int8 destination with Sign = 0 is almost surely a mistake."""
    core = Core("a2")
    src, s = l0c(core, np.full((16, 16), -40, np.int32), "int32_t")
    out = core.global_tensor("int8_t", 256)
    p = FixpipeParamsV220(16, 16, s, 16, quantPre=Q.REQ8, deqScalar=word(1.0, signed=False))
    with pytest.warns(HazardWarning, match="^Fixpipe: Sign"):
        core.fixpipe(out, src, p)
    assert (out.read() == 0).all()  # saturated as uint8: -40 -> 0
    strict = Core("a2", strict=True)
    src, s = l0c(strict, np.full((16, 16), -40, np.int32), "int32_t")
    out = strict.global_tensor("int8_t", 256)
    with pytest.raises(HazardError, match="^Fixpipe: Sign"):
        strict.fixpipe(out, src, p)
    assert (out.bytes() == MARKER).all()


@pytest.mark.parametrize("scale", [np.inf, np.nan, 1e-40])
def test_inf_nan_denormal_scales_are_refused(scale):
    """约束说明: "量化和ReLU参数不能为inf/nan和非规格化数"."""
    core = Core("a2")
    src, s = l0c(core, np.ones((16, 16), np.int32), "int32_t")
    out = core.global_tensor("half", 256)
    with pytest.raises(ParamRangeError,
                       match=r"^Fixpipe: the quantisation scale M1 .*the doc page forbids this"):
        core.fixpipe(out, src, FixpipeParamsV220(16, 16, s, 16, quantPre=Q.DEQF16, deqScalar=word(scale)))
    assert (out.bytes() == MARKER).all()


def test_mcb_is_not_modelled_on_2201_and_ignored_on_950():
    """表1 (2201): MCB (bit 36) shifts by N first — the doc and Huawei's generator disagree on N's encoding,
    so ascsim refuses it; 表2 (3510) has no MCB (bits 32-36 无效)."""
    w = word(1.0) | (1 << 36) | (3 << 32)
    core = Core("a2")
    src, s = l0c(core, np.full((16, 16), 100, np.int32), "int32_t")
    with pytest.raises(NotImplementedFeature, match="^Fixpipe: MCB = 1"):
        core.fixpipe(core.global_tensor("int8_t", 256), src, FixpipeParamsV220(16, 16, s, 16, quantPre=Q.REQ8,
                                                                               deqScalar=w))
    core = Core("ascend950")
    src, s = l0c(core, np.full((16, 16), 100, np.int32), "int32_t")
    out = core.global_tensor("int8_t", 256)
    core.fixpipe(out, src, FixpipeParamsArch3510(16, 16, s, 16, quantPre=Q.REQ8, deqScalar=w))
    assert (out.read() == 100).all()


def test_float_to_b8_nan_inf():
    """QF322B8_PRE: NaN -> 0, ±inf saturate (integer outputs only have the saturating mode, 约束说明)."""
    core = Core("a2")
    c = np.zeros((16, 16), np.float32)
    c[0, :4] = [np.nan, np.inf, -np.inf, 2.5]
    src, s = l0c(core, c, "float")
    out = core.global_tensor("int8_t", 256)
    core.fixpipe(out, src, FixpipeParamsV220(16, 16, s, 16, quantPre=Q.QF322B8_PRE, deqScalar=word(1.0)))
    assert out.read()[:4].tolist() == [0, 127, -128, 2]


def test_relu_on_casts_and_no_quant():
    """随路ReLU.md: Normal ReLU is y = max(0, x), also without quantisation (the example's scenario 6)."""
    for chip in ("a2", "ascend950"):
        core = Core(chip)
        c = np.linspace(-5, 5, 256, dtype=np.float32).reshape(16, 16)
        src, s = l0c(core, c, "float")
        for dst, mode in (("float", Q.NoQuant), ("half", Q.F322F16), ("bfloat16_t", Q.F322BF16)):
            out = core.global_tensor(dst, 256)
            core.fixpipe(out, src, _fp(chip, nSize=16, mSize=16, srcStride=s, dstStride=16, quantPre=mode,
                                       reluEn=True))
            np.testing.assert_array_equal(out.read().astype(np.float32).reshape(16, 16),
                                          np.maximum(c, 0).astype(out.dtype.value_dtype).astype(np.float32))
        ci = np.arange(-128, 128, dtype=np.int32).reshape(16, 16)
        srci, s = l0c(core, ci, "int32_t")
        out = core.global_tensor("int32_t", 256)
        core.fixpipe(out, srci, _fp(chip, nSize=16, mSize=16, srcStride=s, dstStride=16, reluEn=True))
        np.testing.assert_array_equal(out.read().reshape(16, 16), np.maximum(ci, 0))


@settings(max_examples=60, deadline=None)
@given(mode=st.sampled_from([Q.DEQF16, Q.REQ8, Q.QF322B8_PRE]), relu=st.booleans(),
       exp=st.integers(-20, 10), mant=st.integers(0, 1023), neg=st.booleans(), offset=st.integers(-256, 255),
       signed=st.booleans(), seed=st.integers(0, 2**16))
def test_convert_equals_reference(mode, relu, exp, mant, neg, offset, signed, seed):
    scale = (-1 if neg else 1) * 2.0**exp * (1 + mant / 1024)
    w = word(scale, offset, signed)
    rng = np.random.default_rng(seed)
    if mode == Q.QF322B8_PRE:
        x = (rng.standard_normal(64) * 10.0 ** rng.integers(-2, 6)).astype(np.float32)
        x[:4] = [np.nan, np.inf, -np.inf, -0.0]
        src, raw = "float", x.view(np.uint32)
    else:
        x = rng.integers(-2**31, 2**31, 64).astype(np.int32)
        x[:3] = [0, -1, 2**31 - 1]
        src, raw = "int32_t", x.view(np.uint32)
    from ascsim.machine.dtypes import get_dtype

    dst = get_dtype("half" if mode == Q.DEQF16 else ("int8_t" if signed else "uint8_t"))
    got = quant.convert(mode, get_dtype(src), dst, raw, np.full(64, w, np.uint64), relu)
    for i in range(64):
        ref = quant.reference_convert(mode, src, x[i].item(), w, relu)
        if mode == Q.DEQF16:
            assert got[i] == np.array([ref], np.float16).view(np.uint16)[0], (x[i], scale)
        else:
            assert got[i] == (ref & 0xFF), (x[i], scale)


# ============================================================ layouts: Int8 Channel Merge, NZ half, L1


@pytest.mark.parametrize("n", [32, 48])
def test_int8_nz_output_channel_merge(n):
    """Int8-Channel-Merge.md: NZ output of b8 merges pairs of 16x16 fractals into 16x32
    ("若N是16的奇数倍，则通道1
    至通道（N–16）将被合并，而最后16个通道保持不变"); gen_data_f322s8.py's NZ golden is
    reshape(M/16, 16, N/32, 32).transpose(2, 0, 1, 3)."""
    m = 32
    core = Core("a2")
    rng = np.random.default_rng(n)
    x = rng.integers(-300, 300, (m, n)).astype(np.int32)
    src, s = l0c(core, x, "int32_t")
    out = core.global_tensor("int8_t", m * 64)
    w = word(0.25)
    # dstStride M*32 B
    core.fixpipe(out, src, FixpipeParamsV220(n, m, s, m, quantPre=Q.REQ8, deqScalar=w), CFG_NZ)
    q = golden_b8(x, np.uint64(w), False).astype(np.int8)
    merged = n if n % 32 == 0 else n - 16
    exp = q[:, :merged].reshape(m // 16, 16, merged // 32, 32).transpose(2, 0, 1, 3).ravel()
    if merged < n:  # the last 16 columns stay a 16x16 fractal column, right after the merged ones
        exp = np.concatenate([exp, q[:, merged:].ravel()])
    np.testing.assert_array_equal(out.read()[: exp.size], exp)


def test_l0c_to_l1_nz_and_the_a2_rules():
    """Fixpipe（L0C到L1数据搬运）.md: A2 writes NZ into L1 (the C++ API rejects CFG_ROW_MAJOR:
    CheckFixpipeL0C2L1Param) and takes the quantising pairs only (float -> float is not listed)."""
    core = Core("a2")
    c = np.random.default_rng(1).standard_normal((32, 32)).astype(np.float32)
    src, s = l0c(core, c, "float")
    l1 = core.tensor("A1", "half", 32 * 32)
    core.fixpipe(l1, src, FixpipeParamsV220(32, 32, s, 32, quantPre=Q.F322F16), CFG_NZ)
    np.testing.assert_array_equal(l1.read(), nd_to_nz(c.astype(np.float16), 16))
    with pytest.raises(UnsupportedError, match=r"^Fixpipe: L0C->L1 writes NZ on .*the C\+\+ API rejects"):
        core.fixpipe(l1, src, FixpipeParamsV220(32, 32, s, 32, quantPre=Q.F322F16))
    with pytest.raises(UnsupportedError, match=r"^Fixpipe: dtype combination \(float, float\)"):
        core.fixpipe(core.tensor("A1", "float", 1024), src, FixpipeParamsV220(32, 32, s, 32), CFG_NZ)


def test_l0c_to_l1_nd_on_950_needs_whole_32_byte_rows():
    core = Core("ascend950")
    c = np.arange(16 * 24, dtype=np.int32).reshape(16, 24)
    src, s = l0c(core, c, "int32_t")
    l1 = core.tensor("A1", "int32_t", 16 * 24)
    core.fixpipe(l1, src, FixpipeParamsArch3510[CFG_ROW_MAJOR.format](24, 16, s, 24), CFG_ROW_MAJOR)
    np.testing.assert_array_equal(l1.read().reshape(16, 24), c)
    with pytest.raises(ParamRangeError,
                       match=r"^Fixpipe: nSize \* sizeof\(int32_t\) must be a multiple of 32"):
        core.fixpipe(l1, src, FixpipeParamsArch3510[CFG_ROW_MAJOR.format](20, 16, s, 24), CFG_ROW_MAJOR)


# ============================================================ the fixpipe_l0c2gm kernel, scenarios 4 / 5 / 6


def _example_kernel(chip: str, scenario: int):
    """fixpipe_l0c2gm.asc, transliterated: M = 128, K = 128 (two rounds of 64), N = 256; half A / B, ND2NZ to
    L1, LoadData2D (A2) / LoadData2DParamsV2 (950) to L0A, LoadData2D with ifTranspose to L0B, Mmad with
    cmatrixInitVal on round 0, then CopyOut of scenario 4 (QF322B8_PRE scalar, int8), 5 (VQF322B8_PRE with
    the quant tensor from GM via L1 as cbufWorkspace) or 6 (reluEn, float)."""
    m, k, n, rounds = 128, 128, 256, 2
    kb = k // rounds
    rng = np.random.default_rng(9)
    a = rng.uniform(-3, 3, (m, k)).astype(np.float16)
    b = rng.uniform(-3, 3, (k, n)).astype(np.float16)
    core = Core(chip)
    a_gm = core.global_tensor("half", np.ascontiguousarray(a.reshape(m, rounds, kb).transpose(1, 0, 2)))
    b_gm = core.global_tensor("half", b)
    a1 = core.tensor("A1", "half", m * kb, offset=0)
    b1 = core.tensor("B1", "half", kb * n, offset=128 * 1024)
    a2 = core.tensor("A2", "half", m * kb, offset=0)
    b2 = core.tensor("B2", "half", kb * n, offset=0)
    c = core.tensor("CO1", "float", m * n, offset=0)
    for r in range(rounds):
        core.data_copy(a1, a_gm[r * m * kb], Nd2NzParams(1, m, kb, 0, kb, m, 1, 0))
        core.data_copy(b1, b_gm[r * kb * n], Nd2NzParams(1, kb, n, 0, n, kb, 1, 0))
        if chip == "a2":
            for i in range(m // 16):  # Nz -> Zz
                core.load_data(a2[i * (kb // 16) * 256], a1[i * 256], LoadData2DParams(0, kb // 16, m // 16))
        else:
            core.load_data(a2, a1, LoadData2DParamsV2(0, 0, m // 16, kb // 16, m // 16, m // 16))
        for i in range(kb // 16):  # Nz -> Zn
            core.load_data(b2[i * (n // 16) * 256], b1[i * 256],
                           LoadData2DParams(0, n // 16, kb // 16, ifTranspose=True))
        core.mmad(c, a2, b2, MmadParams(m, n, kb, cmatrixInitVal=(r == 0)))
    c_nd = nz_to_nd(c.read(), m, n, 16)
    np.testing.assert_allclose(c_nd, a.astype(np.float64) @ b.astype(np.float64), rtol=1e-5, atol=1e-3)
    scalar = word(2.0)  # quantScalar = 2.0, the sign bit set for int8 (deqScalar | 1 << 46)
    if scenario == 4:
        out = core.global_tensor("int8_t", m * n)
        core.fixpipe(out, c, _fp(chip, mSize=m, srcStride=m, nSize=n, dstStride=n, quantPre=Q.QF322B8_PRE,
                                 deqScalar=scalar))
        exp = golden_b8(c_nd, np.uint64(scalar), False)
    elif scenario == 5:
        alpha = np.full(n, scalar, np.uint64)  # gen_data: 2.0's bits | 0x400000000000 per column
        q_gm = core.global_tensor("uint64_t", alpha)
        q_l1 = core.tensor("C1", "uint64_t", n, offset=0)
        core.data_copy(q_l1, q_gm, DataCopyParams(1, cdiv(n * 8, 128) * 128 // 32, 0, 0))
        out = core.global_tensor("int8_t", m * n)
        core.fixpipe(out, c, _fp(chip, mSize=m, srcStride=m, nSize=n, dstStride=n, quantPre=Q.VQF322B8_PRE),
                     CFG_ROW_MAJOR, q_l1)
        exp = golden_b8(c_nd, alpha, False)
    else:
        out = core.global_tensor("float", m * n)
        core.fixpipe(out, c, _fp(chip, mSize=m, srcStride=m, nSize=n, dstStride=n, reluEn=True))
        exp = np.maximum(c_nd, 0)
    return core, out.read().reshape(m, n), exp


@pytest.mark.parametrize("chip", ["a2", "ascend950"])
@pytest.mark.parametrize("scenario", [4, 5, 6])
def test_fixpipe_l0c2gm_example(chip, scenario):
    core, got, exp = _example_kernel(chip, scenario)
    np.testing.assert_array_equal(got.astype(np.float64), exp.astype(np.float64))
    if scenario == 5:  # the C++ API staged the quant vector in the Fixpipe Buffer at 0 and pointed FPC there
        chunk = 256 if chip == "a2" else 256  # n = 256 fits one chunk on both
        fb = core.memory("FB").data[: chunk * 8].view("<u8")
        assert (fb == word(2.0)).all() and core.regs.fpc_quant == 0


# ============================================================ registers: DataCopy CO1 -> GM, FPC, staging


def test_datacopy_co12dst_reads_the_registers_like_fixpipe_writes_them():
    """DataCopy（L0C到GM数据搬运）.md: with nz2ndEn the ND_PARA register (SetFixpipeNz2ndFlag), with a
    scalar mode
    QUANT_PRE (SetFixpipePreQuantFlag), with a vector mode the Fixpipe Buffer at FPC (SetFixPipeConfig)."""
    core = Core("a2")
    x = np.random.default_rng(4).integers(-2000, 2000, (32, 48)).astype(np.int32)
    src, s = l0c(core, x, "int32_t")
    w = word(1 / 16, offset=3)
    via_fixpipe = core.global_tensor("int8_t", x.size)
    core.fixpipe(via_fixpipe, src, FixpipeParamsV220(48, 32, s, 48, quantPre=Q.REQ8, deqScalar=w))
    assert core.regs.quant_pre == w and core.regs.nd_para == (1, 0, 0)
    core.set_fixpipe_nz2nd_flag(1, 0, 0)
    core.set_fixpipe_pre_quant_flag(w)
    via_copy = core.global_tensor("int8_t", x.size)
    core.data_copy(via_copy, src, DataCopyCO12DstParams(48, 32, 48, s, Q.REQ8, 0, False, True))
    np.testing.assert_array_equal(via_copy.read(), via_fixpipe.read())
    # vector mode through the Fixpipe Buffer
    words = np.array([word(1 / 8 + j / 1024) for j in range(48)], np.uint64)
    q_l1 = core.tensor("C1", "uint64_t", 48, data=words)
    fb = core.tensor("C2PIPE2GM", "uint64_t", 48, offset=256)
    core.data_copy(fb, q_l1, DataCopyParams(1, cdiv(48 * 8, 128), 0, 0))
    core.set_fixpipe_config(fb)
    assert core.regs.fpc_quant == 256
    out = core.global_tensor("int8_t", x.size)
    core.data_copy(out, src, DataCopyCO12DstParams(48, 32, 48, s, Q.VREQ8, 0, False, True))
    np.testing.assert_array_equal(out.read().reshape(32, 48), golden_b8(x, words, False))


def test_vector_mode_without_fpc_is_a_hazard():
    core = Core("a2")
    src, s = l0c(core, np.ones((16, 16), np.int32), "int32_t")
    core.memory("FB").data[:128] = np.full(16, word(1.0), np.uint64).view(np.uint8)
    out = core.global_tensor("int8_t", 256)
    with pytest.warns(HazardWarning, match="^Fixpipe: a vector quantPre reads the quant tensor at the FPC"):
        report = core.fixpipe(out, src, FixpipeParamsV220(16, 16, s, 16, quantPre=Q.VREQ8))
    assert report.notes == ["C18"] and (out.read() == 1).all()
    with pytest.raises(HazardError, match="^Fixpipe: a vector quantPre"):
        strict = Core("a2", strict=True)
        src, s = l0c(strict, np.ones((16, 16), np.int32), "int32_t")
        strict.fixpipe(strict.global_tensor("int8_t", 256), src,
                       FixpipeParamsV220(16, 16, s, 16, quantPre=Q.VREQ8))


@pytest.mark.parametrize(("chip", "call", "exc", "match"), [
    pytest.param("a2", lambda core: core.set_fixpipe_nz2nd_flag(2, 513, 16), ParamRangeError,
                 r"^SetFixpipeNz2ndFlag: srcNdStride must be in \[0, 512\]", id="Nz2ndFlag-srcNdStride-513"),
    pytest.param("a2",
                 lambda core: core.set_fixpipe_config(core.tensor("C2PIPE2GM", "uint64_t", 16, offset=64)),
                 AlignmentError, "^SetFixPipeConfig: quantPre", id="FixPipeConfig-alignment"),
    pytest.param("a2", lambda core: core.set_fixpipe_config(core.tensor("C1", "uint64_t", 16)),
                 UnsupportedError, "^SetFixPipeConfig: quantPre must be in FB", id="FixPipeConfig-in-L1"),
    pytest.param("training", lambda core: core.set_fixpipe_pre_quant_flag(0), UnsupportedError,
                 "^SetFixpipePreQuantFlag: API SetFixpipePreQuantFlag is not", id="PreQuantFlag-on-training"),
])
def test_register_setter_rules(chip: str, call, exc, match: str):
    core = Core(chip)
    with pytest.raises(exc, match=match):
        call(core)


# ============================================================ atomic add


@pytest.mark.parametrize("dtype,mode", [("float", Q.NoQuant), ("half", Q.F322F16), ("int32_t", Q.NoQuant)])
def test_atomic_add_accumulates_into_gm(dtype, mode):
    """SetAtomicAdd.md: "将待拷贝的内容和GM已有内容进行求和，然后将求和结果写入GM";
    DisableDmaAtomic / SetAtomicNone:
    "GM中原始数据将被新搬运数据完全覆盖"."""
    core = Core("a2")
    src_t = "int32_t" if dtype == "int32_t" else "float"
    c = (np.arange(256).reshape(16, 16) - 100).astype(np.int32 if src_t == "int32_t" else np.float32) / (
        1 if src_t == "int32_t" else 8)
    src, s = l0c(core, c.astype(np.int32) if src_t == "int32_t" else c, src_t)
    out = core.global_tensor(dtype, 256, )
    out.write(np.full(256, 3))
    p = FixpipeParamsV220(16, 16, s, 16, quantPre=mode)
    core.set_atomic_add(dtype)
    core.fixpipe(out, src, p)
    report = core.fixpipe(out, src, p)
    assert "C20" in report.notes
    one = c.astype(out.dtype.value_dtype).astype(np.float64).ravel()
    np.testing.assert_array_equal(out.read().astype(np.float64),
                                  (3 + one + one).astype(out.dtype.value_dtype))
    core.set_atomic_none()
    core.fixpipe(out, src, p)
    np.testing.assert_array_equal(out.read().astype(np.float64), one)


def test_atomic_add_rules():
    core = Core("a2")
    src, s = l0c(core, np.full((16, 16), 2**31 - 10, np.int32), "int32_t")
    out = core.global_tensor("int32_t", 256, )
    out.write(np.full(256, 100))
    core.set_atomic_add("int32_t")
    core.fixpipe(out, src, FixpipeParamsV220(16, 16, s, 16))
    assert (out.read() == 2**31 - 1).all()  # integers saturate (divergence C20)
    core.set_atomic_add("float")
    with pytest.raises(UnsupportedError, match="^Fixpipe: the atomic add type set by SetAtomicAdd<float>"):
        core.fixpipe(out, src, FixpipeParamsV220(16, 16, s, 16))
    with pytest.raises(UnsupportedError, match="^SetAtomicAdd: dtype int8_t .*SetAtomicAdd.md"):
        Core("inference_aicore").set_atomic_add("int8_t")
    l1 = core.tensor("A1", "half", 256)  # atomics act on GM destinations only
    core.set_atomic_add("half")
    c = np.ones((16, 16), np.float32)
    srcf, s = l0c(core, c, "float")
    core.fixpipe(l1, srcf, FixpipeParamsV220(16, 16, s, 16, quantPre=Q.F322F16), CFG_NZ)
    core.fixpipe(l1, srcf, FixpipeParamsV220(16, 16, s, 16, quantPre=Q.F322F16), CFG_NZ)
    assert (l1.read() == 1).all()


# ============================================================ behaviour 4: NZ2DN to an unaligned GM address


def test_nz2dn_to_unaligned_gm_address_nchw_conv_output():
    """A 950 conv kernel writes its NCHW output tile by tile at cout*HoWo + h*Wo + w (Fixpipe NZ2DN, DN row =
    one output channel): for Ho*Wo = 9 the second tile starts 5 floats into a row — not 32-B aligned, which
    表2 forbids ("DN ... 地址需满足32字节对齐") but the 3510 C++ API does not check for GM. Executed with a
    DocConflictWarning (divergence C9); strict makes it a DocConflictError."""
    cout, howo = 16, 9
    rng = np.random.default_rng(5)
    y = rng.standard_normal((howo, cout)).astype(np.float32)  # C = img2col (m = pixel) x weights (n = cout)
    core = Core("ascend950")
    gm = core.global_tensor("float", cout * howo)
    src_a, s = l0c(core, y[:5], "float")
    src_b, _ = l0c(core, y[5:], "float")
    for rows, src, first in ((5, src_a, 0), (4, src_b, 5)):
        p = FixpipeParamsArch3510(cout, rows, s, howo, params=Nz2DnParams(1, 0, 0, 1))
        if first % 8:
            with pytest.warns(DocConflictWarning, match=r"^Fixpipe: the doc page forbids this .*C9"):
                report = core.fixpipe(gm[first], src, p, CFG_COLUMN_MAJOR)
            assert report.notes == ["C9"]
        else:
            core.fixpipe(gm[first], src, p, CFG_COLUMN_MAJOR)
    np.testing.assert_array_equal(gm.read().reshape(cout, howo), y.T)  # NCHW: [cout][h*Wo + w]
    strict = Core("ascend950", strict=True)
    g2 = strict.global_tensor("float", cout * howo)
    src_b, s = l0c(strict, y[5:], "float")
    with pytest.raises(DocConflictError, match="^Fixpipe: the doc page forbids this"):
        strict.fixpipe(g2[5], src_b, FixpipeParamsArch3510(cout, 4, s, howo, params=Nz2DnParams(1, 0, 0, 1)),
                       CFG_COLUMN_MAJOR)
    assert (g2.bytes() == MARKER).all()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(AlignmentError, match=r"^Fixpipe: dst \(NZ in GM\).*divergence C9"):
            core.fixpipe(gm[5], src_b, FixpipeParamsArch3510(16, 4, s, 64), CFG_NZ)
