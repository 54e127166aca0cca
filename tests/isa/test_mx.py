"""Load2DMX (LoadData with srcMx + LoadData2DMxParams) and MmadMx against the doc text.

References: LoadData_2D_MX.md (表3, start-address formula, the xStep/yStep example), 辅助矩阵分形格式详解.md
(scaleA Zz / scaleB Nn transforms, copied below as numpy reshapes), MmadMx.md and
docs/number_formats.md §9 (C = (scaleA ⊗ A)(scaleB ⊗ B) + bias, 32 K elements per scale; tests/support/
mx_reference.py): element values decoded with ml_dtypes / en_dtypes, scales as 2^(E-127), matmul in float64.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from support.mx_reference import mx_reference, random_codes
from support.state import assert_refused_untouched as _untouched

from ascsim import Core
from ascsim.base.errors import (
    AlignmentError,
    BoundsError,
    NotImplementedFeature,
    ParamRangeError,
    UnsupportedError,
)
from ascsim.isa.load2d import ref_load2d_v2
from ascsim.isa.mx import load_data_mx, mmad_mx, ref_mx_scales
from ascsim.machine.dtypes import get_dtype, unpack_nibbles
from ascsim.machine.layouts import nd_to_nz, nz_to_nd
from ascsim.params import MmadParams
from ascsim.params.load2d import LoadData2DMxParams, LoadData2DParamsV2


def scale_a_l1(sa: np.ndarray) -> np.ndarray:
    """FRAC-AUX scaleA: (M, K/32) -> pad -> (M1*M0, K1*K0) -> reshape (M1, M0, K1, K0) -> transpose
    (M1, K1, M0, K0), M0 = 16, K0 = 2."""
    m, kb = sa.shape
    m1, k1 = -(-m // 16), -(-kb // 2)
    p = np.zeros((m1 * 16, k1 * 2), dtype=np.uint8)
    p[:m, :kb] = sa
    return p.reshape(m1, 16, k1, 2).transpose(0, 2, 1, 3).ravel()


def scale_b_l1(sb: np.ndarray) -> np.ndarray:
    """FRAC-AUX scaleB: (K/32, N) -> pad -> (K1*K0, N1*N0) -> reshape (K1, K0, N1, N0) -> transpose
    (N1, K1, N0, K0)."""
    kb, n = sb.shape
    k1, n1 = -(-kb // 2), -(-n // 16)
    p = np.zeros((k1 * 2, n1 * 16), dtype=np.uint8)
    p[:kb, :n] = sb
    return p.reshape(k1, 2, n1, 16).transpose(2, 0, 3, 1).ravel()


def run_mx_matmul(ta: str, tb: str, m: int, k: int, n: int, seed: int, b_transposed_load: bool,
                  ua: str | None = None, ub: str | None = None, bias=None, scale_lo=120, scale_hi=134):
    """GM-free flow: L1 (A Nz, B Nz or B^T Nz, scales Zz/Nn) -> Load2DMX -> MmadMx -> C (ND float)."""
    rng = np.random.default_rng(seed)
    a = random_codes(ta, (m, k), rng)
    b = random_codes(tb, (k, n), rng)
    sa = rng.integers(scale_lo, scale_hi, (m, k // 32)).astype(np.uint8)
    sb = rng.integers(scale_lo, scale_hi, (k // 32, n)).astype(np.uint8)
    core = Core("ascend950")
    ca, cb = get_dtype(ta).c0, get_dtype(tb).c0
    m1, n1, k64 = -(-m // 16), -(-n // 16), k // 64
    # A: Nz [m, k] (column stride M1) -> L0A Nz, no transpose.
    a1 = core.tensor("A1", ta, m1 * 16 * k)
    a1.write_raw(nd_to_nz(a, ca))
    sa1 = core.tensor("A1", "fp8_e8m0_t", m1 * 16 * k64 * 2, data=None)
    sa1.write_raw(scale_a_l1(sa))
    a2 = core.tensor("A2", ua or ta, m1 * 16 * k)
    load_data_mx(core, a2, a1, sa1, LoadData2DParamsV2(0, 0, m1, k // ca, m1, m1),
                 LoadData2DMxParams(0, 0, m1, k64, k64, k64))
    # B: either Nz [k, n] + transposed load (-> Zn(B)), or Nz [n, k] = B^T + plain load (Zn(B) = Nz(B^T)).
    sb1 = core.tensor("B1", "fp8_e8m0_t", n1 * 16 * k64 * 2)
    sb1.write_raw(scale_b_l1(sb))
    b2 = core.tensor("B2", ub or tb, n1 * 16 * k)
    if b_transposed_load:
        assert n % cb == 0
        b1 = core.tensor("B1", tb, k * n)
        b1.write_raw(nd_to_nz(b, cb))
        p = LoadData2DParamsV2(0, 0, k // 16, n // cb, k // 16, n // 16, True)
    else:
        b1 = core.tensor("B1", tb, n1 * 16 * k)
        b1.write_raw(nd_to_nz(b.T.copy(), cb))
        p = LoadData2DParamsV2(0, 0, n1, k // cb, n1, n1)
    load_data_mx(core, b2, b1, sb1, p, LoadData2DMxParams(0, 0, n1, k64, k64, k64))
    c = core.tensor("CO1", "float", m1 * n1 * 256)
    bt = None
    if bias is not None:
        bt = core.tensor("C2", "float", n, data=bias)
    mmad_mx(core, c, a2, b2, MmadParams(m, n, k, cmatrixInitVal=bias is None), bt)
    got = nz_to_nd(c.read(), m, n, 16)
    return got, mx_reference(ta, tb, a, sa, b, sb), core


FP8 = ["fp8_e4m3fn_t", "fp8_e5m2_t"]
FP4 = ["fp4x2_e2m1_t", "fp4x2_e1m2_t"]


@pytest.mark.parametrize("ta,tb", [(x, y) for x in FP8 for y in FP8])
def test_mxfp8_matmul(ta: str, tb: str) -> None:
    got, ref, _ = run_mx_matmul(ta, tb, 40, 128, 64, seed=hash((ta, tb)) % 1000, b_transposed_load=True,
                                ua={"fp8_e4m3fn_t": "mx_fp8_e4m3_t", "fp8_e5m2_t": "mx_fp8_e5m2_t"}[ta])
    np.testing.assert_allclose(got, ref.astype(np.float32), rtol=1e-6, atol=1e-30)


@pytest.mark.parametrize("ta,tb", [(x, y) for x in FP4 for y in FP4])
@pytest.mark.parametrize("b_tr", [False, True])
def test_mxfp4_matmul(ta: str, tb: str, b_tr: bool) -> None:
    got, ref, _ = run_mx_matmul(ta, tb, 32, 192, 64 if b_tr else 40, seed=7, b_transposed_load=b_tr)
    np.testing.assert_allclose(got, ref.astype(np.float32), rtol=1e-6, atol=1e-30)


def test_mxfp8_plain_u_and_bias() -> None:
    """U = T (LoadData_2D_MX.md 表1) is accepted too; a bias row is added to every row (MmadMx.md)."""
    bias = np.linspace(-3, 3, 48).astype(np.float32)
    got, ref, _ = run_mx_matmul("fp8_e5m2_t", "fp8_e4m3fn_t", 16, 64, 48, 3, False, bias=bias)
    np.testing.assert_allclose(got, (ref + bias).astype(np.float32), rtol=1e-6, atol=1e-6)


def test_scales_really_matter() -> None:
    """Same data, all scales 127 (= 1.0) vs random scales: the results differ, each matching its reference
    (guards against ignoring the scale buffers)."""
    e4 = "fp8_e4m3fn_t"
    got, ref, _ = run_mx_matmul(e4, e4, 16, 64, 32, 1, True, scale_lo=127, scale_hi=128)
    np.testing.assert_allclose(got, ref.astype(np.float32), rtol=1e-6)
    got2, ref2, _ = run_mx_matmul(e4, e4, 16, 64, 32, 1, True, scale_lo=100, scale_hi=150)
    assert not np.allclose(got2, got)
    np.testing.assert_allclose(got2, ref2.astype(np.float32), rtol=1e-6, atol=1e-30)


def test_e8m0_ff_is_nan() -> None:
    """e8m0 0xFF is NaN (number_formats.md §6): a NaN scale of A row 3, K-block 1 poisons C row 3 only."""
    m, k, n = 16, 64, 16
    core = Core("ascend950")
    a2 = core.tensor("A2", "fp8_e4m3fn_t", 16 * k)
    a2.write_raw(nd_to_nz(np.full((m, k), 0x38), 32))  # 1.0
    b2 = core.tensor("B2", "fp8_e4m3fn_t", k * 16)
    b2.write_raw(np.full(k * 16, 0x38))
    mxa = core.memory("L0A_MX")
    mxb = core.memory("L0B_MX")
    sa = np.full((m, 2), 127, dtype=np.uint8)
    sa[3, 1] = 0xFF
    mxa.data[: 32] = scale_a_l1(sa)
    mxb.data[: 32] = scale_b_l1(np.full((2, n), 127, dtype=np.uint8))
    c = core.tensor("CO1", "float", 256)
    mmad_mx(core, c, a2, b2, MmadParams(m, n, k))
    got = nz_to_nd(c.read(), m, n, 16)
    assert np.isnan(got[3]).all()
    np.testing.assert_array_equal(np.delete(got, 3, axis=0), 64.0)


def test_bias_sources() -> None:
    """Mmad's initial-value rules: cmatrixSource=true without a bias tensor reads the bias row from BT
    address 0; a bias tensor in CO1 means "accumulate onto L0C"."""
    got, ref, core = run_mx_matmul("fp4x2_e1m2_t", "fp4x2_e2m1_t", 16, 64, 32, 5, False)
    bt = core.tensor("C2", "float", 32, offset=0, data=np.arange(32, dtype=np.float32))
    c = core.tensor("CO1", "float", 512, offset=0)
    a2 = core.tensor("A2", "fp4x2_e1m2_t", 16 * 64, offset=0)
    b2 = core.tensor("B2", "fp4x2_e2m1_t", 32 * 64, offset=0)
    mmad_mx(core, c, a2, b2, MmadParams(16, 32, 64, cmatrixInitVal=False, cmatrixSource=True))
    expect = ref.astype(np.float32) + np.arange(32)
    np.testing.assert_allclose(nz_to_nd(c.read(), 16, 32, 16), expect, rtol=1e-6, atol=1e-6)
    mmad_mx(core, c, a2, b2, MmadParams(16, 32, 64, cmatrixInitVal=False), c)
    np.testing.assert_allclose(nz_to_nd(c.read(), 16, 32, 16), expect + ref, rtol=1e-6, atol=1e-6)
    del bt


def test_accumulate_and_nop() -> None:
    """cmatrixInitVal=false accumulates onto L0C; m/n/k = 0 is a NOP."""
    got, ref, core = run_mx_matmul("fp4x2_e2m1_t", "fp4x2_e2m1_t", 16, 64, 16, 11, False)
    c = core.tensor("CO1", "float", 256, offset=0)
    a2 = core.tensor("A2", "fp4x2_e2m1_t", 16 * 64, offset=0)
    b2 = core.tensor("B2", "fp4x2_e2m1_t", 16 * 64, offset=0)
    mmad_mx(core, c, a2, b2, MmadParams(16, 16, 64, cmatrixInitVal=False))
    np.testing.assert_allclose(nz_to_nd(c.read(), 16, 16, 16), 2 * ref.astype(np.float32), rtol=1e-6)
    before = c.bytes().copy()
    assert mmad_mx(core, c, a2, b2, MmadParams(0, 16, 64)).bytes_written == 0
    np.testing.assert_array_equal(c.bytes(), before)


# ---------------------------------------------------------------- Load2DMX data + scale copy


def test_scale_copy_doc_example_and_mx_address() -> None:
    """LoadData_2D_MX.md example: M = 48, K = 1344 -> xStep = M/16 = 3, yStep = K/32/2 = 21, strides 21;
    the scales land at L0A address / 16 ("L0A_MX Buffer Address = L0A Buffer Address / 16")."""
    core = Core("ascend950")
    rng = np.random.default_rng(0)
    sa = rng.integers(0, 255, (48, 42)).astype(np.uint8)
    smx = core.tensor("A1", "fp8_e8m0_t", 3 * 21 * 32)
    smx.write_raw(scale_a_l1(sa))
    src = core.tensor("A1", "fp8_e4m3fn_t", 16 * 32)
    dst = core.tensor("A2", "mx_fp8_e4m3_t", 48 * 1344 - 8192, offset=8192)  # A region from 8 KB on
    v2 = LoadData2DParamsV2(0, 0, 1, 1, 1, 1)
    load_data_mx(core, dst, src, smx, v2, LoadData2DMxParams(0, 0, 3, 21, 21, 21))
    mx = core.memory("L0A_MX").data
    np.testing.assert_array_equal(mx[512 : 512 + 2016], scale_a_l1(sa))
    assert (mx[:512] == 0xCD).all() and (mx[512 + 2016 :] == 0xCD).all()
    # scale (m, kb) at ((m//16)*K1 + kb//2)*32 + (m%16)*2 + kb%2 (MmadMx's reading, divergences.md X3)
    m, kb = 37, 29
    assert mx[512 + ((m // 16) * 21 + kb // 2) * 32 + (m % 16) * 2 + kb % 2] == sa[m, kb]


def test_q27_zero_steps_skip_only_their_half() -> None:
    core = Core("ascend950")
    rng = np.random.default_rng(1)
    src = core.tensor("A1", "fp4x2_e2m1_t", 4 * 1024)
    src.bytes()[:] = rng.integers(0, 256, src.nbytes, dtype=np.uint8)
    smx = core.tensor("A1", "fp8_e8m0_t", 128, data=None)
    smx.bytes()[:] = rng.integers(0, 255, 128, dtype=np.uint8)
    dst = core.tensor("A2", "fp4x2_e2m1_t", 4 * 1024)
    mx = core.memory("L0A_MX").data
    v2 = LoadData2DParamsV2(0, 0, 2, 2, 2, 2)
    load_data_mx(core, dst, src, smx, v2, LoadData2DMxParams(0, 0, 0, 2, 2, 2))
    np.testing.assert_array_equal(dst.bytes(), src.bytes())
    assert (mx == 0xCD).all()
    dst2 = core.tensor("A2", "fp4x2_e2m1_t", 4 * 1024)
    v2_nop = LoadData2DParamsV2(0, 0, 0, 2, 2, 2)
    load_data_mx(core, dst2, src, smx, v2_nop, LoadData2DMxParams(0, 0, 2, 2, 2, 2))
    assert (dst2.bytes() == 0xCD).all()
    np.testing.assert_array_equal(mx[dst2.offset // 16 : dst2.offset // 16 + 128], smx.bytes())


T_U = [("fp4x2_e2m1_t", "fp4x2_e2m1_t"), ("fp4x2_e1m2_t", "fp4x2_e1m2_t"), ("fp8_e4m3fn_t", "mx_fp8_e4m3_t"),
       ("fp8_e5m2_t", "mx_fp8_e5m2_t"), ("fp8_e4m3fn_t", "fp8_e4m3fn_t")]


@settings(max_examples=40, deadline=None)
@given(data=st.data())
def test_load2dmx_matches_reference(data) -> None:
    t, u = data.draw(st.sampled_from(T_U))
    d_mem = data.draw(st.sampled_from(["L0A", "L0B"]))
    bits = get_dtype(t).bits
    tr = data.draw(st.booleans())
    mult = {4: 4, 8: 2}[bits] if tr else 1
    m_step, k_step = data.draw(st.integers(1, 2)) * mult, data.draw(st.integers(1, 3))  # 0: test_q27_*
    m_start, k_start = data.draw(st.integers(0, 2)), data.draw(st.integers(0, 2))
    ss, ds = data.draw(st.integers(0, 6)), data.draw(st.integers(0, 6))
    xs, ys, xst, yst = (data.draw(st.integers(lo, 3)) for lo in (0, 0, 1, 1))
    mss, mds = data.draw(st.integers(0, 5)), data.draw(st.integers(0, 5))
    c0 = 256 // bits
    rows, cols = (k_step * c0 // 16, m_step * 16 // c0) if tr else (m_step, k_step)
    n_dst = max((cols - 1) * ds + rows, 0) + 1
    n_src = (k_start + k_step) * ss + m_start + m_step + 1
    mx_units = max((xst - 1) * mds + yst, 0)
    n_dst = max(n_dst, mx_units)  # the MX region (512 B / 16 = 32 B per fractal) must hold the scales
    core = Core("ascend950")
    rng = np.random.default_rng(data.draw(st.integers(0, 2**16)))
    src = core.tensor("A1", t, n_src * 1024 // (bits // 4))
    src.bytes()[:] = rng.integers(0, 256, src.nbytes, dtype=np.uint8)
    smx = core.tensor("A1", "fp8_e8m0_t", ((xs + xst) * mss + ys + yst + 1) * 32)
    smx.bytes()[:] = rng.integers(0, 256, smx.nbytes, dtype=np.uint8)
    dst = core.tensor({"L0A": "A2", "L0B": "B2"}[d_mem], u, n_dst * 1024 // (bits // 4))
    mx = core.memory(d_mem + "_MX").data
    el = (lambda b: unpack_nibbles(b)) if bits == 4 else (lambda b: b.copy())
    exp = el(dst.bytes())
    ref_load2d_v2(exp, el(src.bytes()), bits, m_start, k_start, m_step, k_step, ss, ds, tr)
    exp_mx = mx.copy()
    ref_mx_scales(exp_mx[dst.offset // 16 :], smx.bytes().copy(), xs, ys, xst, yst, mss, mds)
    load_data_mx(core, dst, src, smx, LoadData2DParamsV2(m_start, k_start, m_step, k_step, ss, ds, tr),
                 LoadData2DMxParams(xs, ys, xst, yst, mss, mds))
    np.testing.assert_array_equal(el(dst.bytes()), exp)
    np.testing.assert_array_equal(mx, exp_mx)


# ---------------------------------------------------------------- errors (memory untouched)


def _mx_setup(core: Core, t="fp8_e4m3fn_t", u="mx_fp8_e4m3_t", dst_offset=None, smx_dtype="fp8_e8m0_t"):
    src = core.tensor("A1", t, 4096)
    src.bytes()[:] = 7
    smx = core.tensor("A1", smx_dtype, 256)
    smx.bytes()[:] = 9
    dst = core.tensor("A2", u, 4096, offset=dst_offset)
    return dst, src, smx


V2OK = LoadData2DParamsV2(0, 0, 2, 2, 2, 2)
MXOK = LoadData2DMxParams(0, 0, 2, 2, 2, 2)


@pytest.mark.parametrize(
    "t,u,smx_dtype,v2,mxp,exc,start",
    [
        ("half", "half", "fp8_e8m0_t", V2OK, MXOK, UnsupportedError, "Load2DMX: src dtype T must be one of"),
        ("fp8_e4m3fn_t", "mx_fp8_e5m2_t", "fp8_e8m0_t", V2OK, MXOK, UnsupportedError,
         "Load2DMX: dst dtype U must be fp8_e4m3fn_t or mx_fp8_e4m3_t"),
        ("fp8_e5m2_t", "fp8_e4m3fn_t", "fp8_e8m0_t", V2OK, MXOK, UnsupportedError, "Load2DMX: dst dtype U"),
        ("fp4x2_e2m1_t", "fp4x2_e1m2_t", "fp8_e8m0_t", V2OK, MXOK, UnsupportedError,
         "Load2DMX: dst dtype U must be fp4x2_e2m1_t for src fp4x2_e2m1_t"),
        ("mx_fp8_e4m3_t", "mx_fp8_e4m3_t", "fp8_e8m0_t", V2OK, MXOK, UnsupportedError,
         "Load2DMX: src dtype T"),
        ("fp8_e4m3fn_t", "mx_fp8_e4m3_t", "uint8_t", V2OK, MXOK, UnsupportedError,
         "Load2DMX: srcMx dtype must be fp8_e8m0_t"),
        ("fp8_e4m3fn_t", "mx_fp8_e4m3_t", "fp8_e8m0_t", V2OK, LoadData2DMxParams(0, 0, 256, 1, 1, 1),
         ParamRangeError, "Load2DMX: xStep must be in [0, 255]"),
        ("fp8_e4m3fn_t", "mx_fp8_e4m3_t", "fp8_e8m0_t", V2OK, LoadData2DMxParams(0, 0, 1, 256, 1, 1),
         ParamRangeError, "Load2DMX: yStep must be in [0, 255]"),
        ("fp8_e4m3fn_t", "mx_fp8_e4m3_t", "fp8_e8m0_t", V2OK, LoadData2DMxParams(0, -1, 1, 1, 1, 1),
         ParamRangeError, "Load2DMX: yStartPosition must be in [0, 65535]"),
        ("fp8_e4m3fn_t", "mx_fp8_e4m3_t", "fp8_e8m0_t", V2OK, LoadData2DMxParams(0, 0, 1, 1, 1, 65536),
         ParamRangeError, "Load2DMX: dstStride must be in [0, 65535]"),
        ("fp8_e4m3fn_t", "mx_fp8_e4m3_t", "fp8_e8m0_t", LoadData2DParamsV2(0, 0, 3, 1, 3, 2, True), MXOK,
         ParamRangeError, "Load2DMX: mStep must be a multiple of 2"),
        ("fp4x2_e1m2_t", "fp4x2_e1m2_t", "fp8_e8m0_t", LoadData2DParamsV2(0, 0, 256, 1, 1, 1), MXOK,
         ParamRangeError, "Load2DMX: mStep must be in [0, 255]"),
    ],
)
def test_load2dmx_errors(t, u, smx_dtype, v2, mxp, exc, start) -> None:
    core = Core("ascend950")
    dst, src, smx = _mx_setup(core, t, u, smx_dtype=smx_dtype)
    _untouched(core, lambda: load_data_mx(core, dst, src, smx, v2, mxp), exc, start)


def test_load2dmx_scale_overflow_rejected_before_data_written() -> None:
    """The scale half would leave the 4 KB L0A_MX buffer: nothing is written, not even the data half."""
    core = Core("ascend950")
    dst, src, smx = _mx_setup(core, dst_offset=0)
    dst = core.tensor("A2", "mx_fp8_e4m3_t", 1024, offset=65536 - 1024)
    _untouched(core, lambda: load_data_mx(core, dst, src, smx, LoadData2DParamsV2(0, 0, 2, 1, 2, 2),
                                          LoadData2DMxParams(0, 0, 1, 4, 4, 4)), BoundsError,
               "Load2DMX: destination")


def test_load2dmx_positions_alignment_chip() -> None:
    core = Core("ascend950")
    dst, src, smx = _mx_setup(core)
    gm_mx = core.global_tensor("fp8_e8m0_t", 64)
    _untouched(core, lambda: load_data_mx(core, dst, src, gm_mx, V2OK, MXOK), UnsupportedError,
               "Load2DMX: srcMx must be in L1")
    bad_mx = core.tensor("A1", "fp8_e8m0_t", 64, offset=200000 + 16)
    _untouched(core, lambda: load_data_mx(core, dst, src, bad_mx, V2OK, MXOK), AlignmentError,
               "Load2DMX: srcMx (L1) address must be 32-byte aligned")
    l1_dst = core.tensor("A1", "mx_fp8_e4m3_t", 64)
    _untouched(core, lambda: load_data_mx(core, l1_dst, src, smx, V2OK, MXOK), UnsupportedError,
               "Load2DMX: dst must be in L0A or L0B")
    a2 = Core("a2")
    d, s = a2.tensor("A2", "int8_t", 512), a2.tensor("A1", "int8_t", 512)
    m = a2.tensor("A1", "uint8_t", 64)
    _untouched(a2, lambda: load_data_mx(a2, d, s, m, V2OK, MXOK), UnsupportedError,
               "Load2DMX: API Load2DMX is not supported")


def _mm_setup(core: Core, ta="fp8_e4m3fn_t", tb="fp8_e4m3fn_t", a_off=0, c_off=0):
    a = core.tensor("A2", ta, 64 * 64, offset=a_off)
    b = core.tensor("B2", tb, 64 * 64, offset=0)
    c = core.tensor("CO1", "float", 64 * 64, offset=c_off)
    return c, a, b


@pytest.mark.parametrize(
    "ta,tb,a_off,c_off,params,exc,start",
    [
        ("fp8_e4m3fn_t", "fp8_e4m3fn_t", 0, 0, MmadParams(16, 16, 96), ParamRangeError,
         "MmadMx: k must be a multiple of 64"),
        ("fp4x2_e2m1_t", "fp8_e4m3fn_t", 0, 0, MmadParams(16, 16, 64), UnsupportedError,
         "MmadMx: dtype combination (fp4x2_e2m1_t, fp8_e4m3fn_t, float)"),
        ("half", "half", 0, 0, MmadParams(16, 16, 64), UnsupportedError, "MmadMx: dtype combination"),
        ("fp8_e4m3fn_t", "fp8_e4m3fn_t", 512, 0, MmadParams(16, 16, 64), AlignmentError,
         "MmadMx: fm (L0A) address must be 1024-byte aligned"),
        ("fp8_e4m3fn_t", "fp8_e4m3fn_t", 0, 512, MmadParams(16, 16, 64), AlignmentError,
         "MmadMx: dst (L0C) address must be 1024-byte aligned"),
        ("fp8_e4m3fn_t", "fp8_e4m3fn_t", 0, 0, MmadParams(4096, 16, 64), ParamRangeError,
         "MmadMx: m must be in [0, 4095]"),
        ("fp8_e4m3fn_t", "fp8_e4m3fn_t", 0, 0, MmadParams(1, 16, 64), NotImplementedFeature,
         "MmadMx: m=1 selects GEMV"),
        ("fp4x2_e2m1_t", "fp4x2_e2m1_t", 0, 0, MmadParams(16, 16, 64, 0, 0, False, False, False, 1),
         ParamRangeError, "MmadMx: unitFlag must be 0, 2 or 3"),
        ("fp8_e4m3fn_t", "fp8_e4m3fn_t", 0, 0, MmadParams(16, 16, 64, 2), ParamRangeError,
         "MmadMx: isBias must be a bool"),
    ],
)
def test_mmadmx_errors(ta, tb, a_off, c_off, params, exc, start) -> None:
    core = Core("ascend950")
    c, a, b = _mm_setup(core, ta, tb, a_off, c_off)
    _untouched(core, lambda: mmad_mx(core, c, a, b, params), exc, start)


def test_mmadmx_fp4_512_alignment_ok_and_chip() -> None:
    """fp4 operands need only 512-B alignment (MmadMx.md 约束说明)."""
    core = Core("ascend950")
    c, a, b = _mm_setup(core, "fp4x2_e1m2_t", "fp4x2_e1m2_t", a_off=512)
    mmad_mx(core, c, a, b, MmadParams(16, 16, 64))
    a2 = Core("a2")
    c2 = a2.tensor("CO1", "float", 256)
    x, y = a2.tensor("A2", "int8_t", 512), a2.tensor("B2", "int8_t", 512)
    _untouched(a2, lambda: mmad_mx(a2, c2, x, y, MmadParams(16, 16, 64)), UnsupportedError,
               "MmadMx: API MmadMx is not supported")
