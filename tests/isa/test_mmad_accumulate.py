"""`Core(mmad_accumulate="float32")`: float Mmad summed in float32 in K order (docs/mmad.md, divergence M7).

References: a float32 loop over K written here (acc = float32(acc + float32(a_k * b_k))), the slow
`reference_accumulate_f32`, and the classic bound for recursive float32 summation, |fl(s) - s| <=
(K - 1) * eps32 * sum|a_k b_k| (+ the product roundings), against the exact float64 mode.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ascsim import Core
from ascsim.base.errors import ParamRangeError
from ascsim.isa.mmad import accumulate_f32, reference_accumulate_f32
from ascsim.machine.layouts import nd_to_zn, nd_to_zz, nz_to_nd
from ascsim.params import DataCopyParams, MmadParams


def _mmad(core: Core, a: np.ndarray, b: np.ndarray, dtype: str = "half", init=None, bias=None) -> np.ndarray:
    m, k = a.shape
    n = b.shape[1]
    c0 = 16 if dtype in ("half", "bfloat16_t") else 8
    za, zb = nd_to_zz(a, c0), nd_to_zn(b, c0)
    l0a = core.tensor("A2", dtype, za.size, data=za)
    l0b = core.tensor("B2", dtype, zb.size, data=zb)
    c = core.tensor("CO1", "float", 4096)
    p = MmadParams(m, n, k)
    bt = None
    if init is not None:
        from ascsim.machine.layouts import nd_to_nz

        c.write(nd_to_nz(init, 16))
        p.cmatrixInitVal = False
    if bias is not None:
        b1 = core.tensor("C1", "float", n, data=bias)
        bt = core.tensor("C2", "float", n)
        core.data_copy(bt, b1, DataCopyParams(1, n * 4 // 64, 0, 0))
        p.cmatrixInitVal = False
    report = core.mmad(c, l0a, l0b, p, bt)
    return nz_to_nd(c.read(), m, n, 16), report


def _k_order_f32(a: np.ndarray, b: np.ndarray, init: np.ndarray | None = None) -> np.ndarray:
    acc = np.zeros((a.shape[0], b.shape[1]), np.float32) if init is None else init.astype(np.float32).copy()
    a32, b32 = a.astype(np.float32), b.astype(np.float32)
    for k in range(a.shape[1]):
        acc = (acc + np.outer(a32[:, k], b32[k]).astype(np.float32)).astype(np.float32)
    return acc


@pytest.mark.parametrize("dtype", ["half", "bfloat16_t", "float"])
def test_float32_mode_is_k_order_float32(dtype):
    rng = np.random.default_rng(1)
    vt = {"half": np.float16, "float": np.float32}.get(dtype)
    import ml_dtypes

    vt = vt or ml_dtypes.bfloat16
    a = rng.standard_normal((16, 64)).astype(vt)
    b = rng.standard_normal((64, 32)).astype(vt)
    got, report = _mmad(Core("a2", mmad_accumulate="float32"), a, b, dtype)
    np.testing.assert_array_equal(got, _k_order_f32(a, b))
    assert report.notes == ["M7"]
    exact, report = _mmad(Core("a2"), a, b, dtype)  # the default: one rounding of the exact sum
    np.testing.assert_array_equal(exact, (a.astype(np.float64) @ b.astype(np.float64)).astype(np.float32))
    assert report.notes == []


def test_float32_mode_starts_from_c_or_the_bias():
    rng = np.random.default_rng(2)
    a = rng.standard_normal((16, 32)).astype(np.float16)
    b = rng.standard_normal((32, 16)).astype(np.float16)
    init = rng.standard_normal((16, 16)).astype(np.float32) * 1000
    got, _ = _mmad(Core("a2", mmad_accumulate="float32"), a, b, init=init)
    np.testing.assert_array_equal(got, _k_order_f32(a, b, init))
    bias = rng.standard_normal(16).astype(np.float32) * 1000
    got, _ = _mmad(Core("a2", mmad_accumulate="float32"), a, b, bias=bias)
    np.testing.assert_array_equal(got, _k_order_f32(a, b, np.broadcast_to(bias, (16, 16))))


def test_the_two_modes_stay_within_the_float32_summation_bound():
    """The measured gap (benchmarks/mmad_accumulate.py, docs/mmad.md) is about eps32 * sum|a b|; the classic
    bound for K-term recursive summation is K * eps32 * sum|a b|."""
    rng = np.random.default_rng(3)
    k = 1024
    a = rng.standard_normal((16, k)).astype(np.float16)
    b = rng.standard_normal((k, 16)).astype(np.float16)
    f32, _ = _mmad(Core("a2", mmad_accumulate="float32"), a, b)
    f64, _ = _mmad(Core("a2"), a, b)
    scale = np.abs(a.astype(np.float64)) @ np.abs(b.astype(np.float64)) * np.finfo(np.float32).eps
    assert (np.abs(f32.astype(np.float64) - f64) <= k * scale).all()
    assert (f32 != f64).any()  # the modes really differ


def test_integer_mmad_ignores_the_mode():
    rng = np.random.default_rng(4)
    a = rng.integers(-128, 128, (16, 32)).astype(np.int8)
    b = rng.integers(-128, 128, (32, 16)).astype(np.int8)
    core = Core("a2", mmad_accumulate="float32")
    l0a = core.tensor("A2", "int8_t", 512, data=nd_to_zz(a, 32))
    l0b = core.tensor("B2", "int8_t", 512, data=nd_to_zn(b, 32))
    c = core.tensor("CO1", "int32_t", 256)
    assert core.mmad(c, l0a, l0b, MmadParams(16, 16, 32)).notes == []
    np.testing.assert_array_equal(nz_to_nd(c.read(), 16, 16, 16), a.astype(np.int64) @ b.astype(np.int64))


def test_bad_mode():
    with pytest.raises(ParamRangeError, match=r"^Core: mmad_accumulate must be one of float64, float32"):
        Core("a2", mmad_accumulate="float16")


@settings(max_examples=25, deadline=None)
@given(m=st.integers(1, 5), n=st.integers(1, 5), k=st.integers(1, 12), seed=st.integers(0, 999),
       with_init=st.booleans())
def test_fast_equals_reference(m, n, k, seed, with_init):
    rng = np.random.default_rng(seed)
    a = rng.standard_normal((m, k)) * 10.0 ** rng.integers(-3, 4, (m, k))
    b = rng.standard_normal((k, n))
    init = rng.standard_normal((m, n)).astype(np.float32) if with_init else None
    np.testing.assert_array_equal(accumulate_f32(a, b, init), reference_accumulate_f32(a, b, init))
