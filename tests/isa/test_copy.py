"""DataCopy GM->L1 (plain, ND2NZ, DN2NZ) and Fixpipe L0C->GM (NZ2ND, NZ2NZ, NZ2DN).

References: numpy written from the doc formulas (docs/gm_copies.md; DataCopy（GMToL1…）.md 表3, NZ2ND.md,
NZ2NZ.md, NZ2DN.md), the docs' worked examples, ascsim.layouts converters, and numpy / ml_dtypes
round-to-nearest-even casts for quantPre F322F16 / F322BF16.
"""

from __future__ import annotations

import ml_dtypes
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ascsim import Core
from ascsim.base.errors import (
    AlignmentError,
    BoundsError,
    HazardError,
    OverlapError,
    ParamRangeError,
    UnsupportedError,
)
from ascsim.isa.copy import data_copy, fixpipe, reference_fixpipe, reference_nz_copy
from ascsim.machine import layouts
from ascsim.machine.memory import MARKER
from ascsim.params import (
    CFG_COLUMN_MAJOR,
    CFG_NZ,
    CFG_ROW_MAJOR,
    DataCopyParams,
    Dn2NzParams,
    FixpipeConfig,
    FixpipeParamsArch3510,
    FixpipeParamsV220,
    Nd2NzParams,
    Nz2DnParams,
    Nz2NdParams,
    QuantMode_t,
)

MARK16 = MARKER | MARKER << 8


def nz_expected(kind: str, src: np.ndarray, dst: np.ndarray, c0: int, num, n, d, sm, sd, c0s, ns, dm):
    """ND2NZ / DN2NZ straight from 表3, vectorised over (i, r, c)."""
    out = dst.copy()
    i, r, c = np.meshgrid(np.arange(num), np.arange(n), np.arange(layouts.align(d, c0)), indexing="ij")
    off = i * dm + (c // c0) * c0s * c0 + r * ns * c0 + c % c0
    s = i * sm + (r * sd + c if kind == "ND" else c * sd + r)
    for k in range(num):  # program order: matrix k after k-1
        sel = i == k
        vals = np.where(c[sel] < d, src[np.where(c[sel] < d, s[sel], 0)], 0)
        out[off[sel]] = vals
    return out


# ============================================================================ plain DataCopy


def test_count_copy_rounds_down_to_32_bytes():
    core = Core("a2")
    x = np.arange(100, dtype=np.float16)
    g = core.global_tensor("half", x)
    l1 = core.tensor("A1", "half", 128)
    rep = data_copy(core, l1, g, 100)  # 200 B -> 192 B = 96 halfs (doc 约束说明)
    got = l1.read_raw()
    assert np.array_equal(l1.read()[:96], x[:96])
    assert (got[96:] == MARK16).all()
    assert rep.bytes_written == 192


def test_datacopyparams_doc_example_noncontiguous():
    """高维切分 doc 图2: 112 halfs = 48 valid + 16 skipped + 48 valid; dst gap of 32 halfs."""
    core = Core("a2")
    x = np.arange(112, dtype=np.float16)
    g = core.global_tensor("half", x)
    l1 = core.tensor("A1", "half", 128)
    p = DataCopyParams()
    p.blockCount, p.blockLen, p.srcGap, p.dstGap = 2, 3, 1, 2
    assert (p.srcStride, p.dstStride) == (1, 2)
    data_copy(core, l1, g, p)
    got = l1.read()
    assert np.array_equal(got[:48], x[:48])
    assert (l1.read_raw()[48:80] == MARK16).all()
    assert np.array_equal(got[80:128], x[64:112])


def test_datacopyparams_contiguous_and_nop():
    core = Core("ascend950")
    x = np.arange(128, dtype=np.int32)
    g = core.global_tensor("int32_t", x)
    l1 = core.tensor("B1", "int32_t", 128)
    data_copy(core, l1, g, DataCopyParams(0, 16, 0, 0))
    data_copy(core, l1, g, DataCopyParams(4, 0, 0, 0))
    data_copy(core, l1, g, 0)
    assert (l1.bytes() == MARKER).all()
    data_copy(core, l1, g, DataCopyParams(1, 16, 0, 0))  # 512 B = 128 int32
    assert np.array_equal(l1.read(), x)


@pytest.mark.parametrize("chip,dtype,msg", [
    ("a2", "int4b_t", "DataCopy: dtype int4b_t is not supported"),
    ("atlas200i500a2", "half", "DataCopy: GM->L1 DataCopy is not supported"),
    ("inference_aicore", "bfloat16_t", "DataCopy: dtype bfloat16_t is not supported"),
])
def test_plain_copy_unsupported(chip, dtype, msg):
    core = Core(chip)
    g = core.global_tensor(dtype, 256)
    l1 = core.tensor("A1", dtype, 256)
    with pytest.raises(UnsupportedError, match=f"^{msg}"):
        data_copy(core, l1, g, 256)
    assert (l1.bytes() == MARKER).all()


def _at_gm_end(core, l1, g):
    at_end = core.tensor("GM", "half", 64, offset=core.gm.size - 128)  # the last 128 B of GM
    data_copy(core, l1, at_end, DataCopyParams(2, 4, 0, 0))


# (call(core, l1, g), exception, message pattern) on a2: g a half GM tensor of 64, l1 an L1 tensor of 256
PLAIN_COPY_ERRORS = [
    pytest.param(lambda core, l1, g: data_copy(core, l1, g, DataCopyParams(4096, 1, 0, 0)), ParamRangeError,
                 r"^DataCopy: blockCount must be in \[0, 4095\], but got 4096", id="blockCount-4096"),
    # 256 B from a 128-B GM tensor: GM is one byte space, so the read past the tensor is a hazard (G1)
    pytest.param(lambda core, l1, g: Core("a2", strict=True).data_copy(l1, g, DataCopyParams(2, 4, 0, 0)),
                 HazardError, "^DataCopy: reads 256 B from GM", id="read-past-the-GM-tensor-strict"),
    pytest.param(_at_gm_end, BoundsError, "^DataCopy: source", id="source-past-the-end-of-GM"),
    pytest.param(lambda core, l1, g: data_copy(core, l1[8], g, 64), AlignmentError, "^DataCopy: dst",
                 id="dst-alignment"),
    pytest.param(lambda core, l1, g: data_copy(core, l1, g, "64"), UnsupportedError,
                 "^DataCopy: params must be", id="params-a-string"),
]


@pytest.mark.parametrize(("call", "exc", "match"), PLAIN_COPY_ERRORS)
def test_plain_copy_errors_leave_memory(call, exc, match: str):
    core = Core("a2")
    g = core.global_tensor("half", 64)
    l1 = core.tensor("A1", "half", 256)
    with pytest.raises(exc, match=match):
        call(core, l1, g)
    assert (l1.bytes() == MARKER).all()


# ============================================================================ ND2NZ


def _nd_case(chip, dtype, x, p, dst_len):
    core = Core(chip)
    g = core.global_tensor(dtype, x)
    l1 = core.tensor("A1", dtype, dst_len)
    before = l1.read_raw()
    rep = data_copy(core, l1, g, p)
    return core, l1, g, before, rep


def test_nd2nz_doc_continuous_example():
    """ND2NZ 连续搬运: half, nValue 16, dValue 23, srcDValue 32, dstNzC0Stride 16, dstNzNStride 1."""
    x = np.arange(16 * 32, dtype=np.float16)
    p = Nd2NzParams(1, 16, 23, 0, 32, 16, 1, 0)
    _, l1, g, before, _ = _nd_case("a2", "half", x, p, 512)
    exp = nz_expected("ND", g.read_raw(), before, 16, 1, 16, 23, 0, 32, 16, 1, 0)
    got = l1.read_raw()
    assert np.array_equal(got, exp)
    nz = l1.read().reshape(2, 16, 16)
    assert np.array_equal(nz[0], x.reshape(16, 32)[:, :16])
    assert np.array_equal(nz[1][:, :7], x.reshape(16, 32)[:, 16:23])
    assert (nz[1][:, 7:] == 0).all()  # zero-filled to 32 B


def test_nd2nz_doc_noncontinuous_example():
    """ND2NZ 非连续搬运: ndNum 2, nValue 8, dValue 23, srcNdMatrixStride 384, srcDValue 32,
    dstNzC0Stride 37, dstNzNStride 2, dstNzMatrixStride 320."""
    x = np.arange(2 * 384, dtype=np.float16)
    p = Nd2NzParams(2, 8, 23, 384, 32, 37, 2, 320)
    _, l1, g, before, _ = _nd_case("a2", "half", x, p, 2048)
    exp = nz_expected("ND", g.read_raw(), before, 16, 2, 8, 23, 384, 32, 37, 2, 320)
    assert np.array_equal(l1.read_raw(), exp)
    got = l1.read()
    # spot checks from the figure's geometry: matrix 1, row 3, column 20 -> 320 + 37*16 + 3*32 + 4
    assert got[320 + 37 * 16 + 3 * 32 + 4] == x[384 + 3 * 32 + 20]
    assert (l1.read_raw()[16:32] == MARK16).all()  # dstNzNStride 2: the odd rows are gaps


@pytest.mark.parametrize("chip,dtype,c0", [
    ("a2", "half", 16), ("a3", "int8_t", 32), ("a2", "float", 8), ("ascend950", "bfloat16_t", 16),
    ("ascend950", "fp8_e4m3fn_t", 32),
])
def test_nd2nz_round_trip_equals_layouts(chip, dtype, c0):
    """The doc's call example (m=40, k=56, dstNzC0Stride = CeilAlign(m, 16), dstNzNStride 1) vs nd_to_nz."""
    m, k = 40, 56
    rng = np.random.default_rng(1)
    x = rng.integers(-50, 50, size=(m, k)).astype(np.float32)
    core = Core(chip)
    g = core.global_tensor(dtype, x)
    xv = g.read().reshape(m, k)
    l1 = core.tensor("A1", dtype, 48 * layouts.align(k, c0))
    data_copy(core, l1, g, Nd2NzParams(1, m, k, 0, k, 48, 1, 0))
    got = l1.read()
    assert np.array_equal(layouts.nz_to_nd(got, m, k, c0), xv)
    ref = layouts.nd_to_nz(xv, c0, stride=3)
    r, c = np.meshgrid(np.arange(m), np.arange(layouts.align(k, c0)), indexing="ij")
    written = layouts.nz_offset(r, c, 48, c0, 3)
    assert np.array_equal(got[written], ref[written])  # includes the zero-filled columns k..align(k)
    rows = np.arange(m, 48)  # rows beyond nValue are not written
    unwritten = layouts.nz_offset(rows[:, None], np.arange(layouts.align(k, c0))[None, :], 48, c0, 3).ravel()
    size = 32 // c0
    assert (l1.bytes()[(unwritten[:, None] * size + np.arange(size)).ravel()] == MARKER).all()


def test_nd2nz_int4_uses_b8_units():
    """b4: 'ND2NZ过程中数据是基于b8类型进行处理，因此参数需要根据b8类型进行设置' — 64 nibbles = 32 bytes."""
    rng = np.random.default_rng(2)
    x = rng.integers(-8, 8, size=(16, 64))
    core = Core("a2")
    g = core.global_tensor("int4b_t", x)
    l1 = core.tensor("B1", "int4b_t", 16 * 64)
    data_copy(core, l1, g, Nd2NzParams(1, 16, 32, 0, 32, 16, 1, 0))  # dValue/srcDValue in bytes
    assert np.array_equal(l1.read(), layouts.nd_to_nz(x, 64).astype(np.int8))


def test_nd2nz_matrix_strides_zero():
    """dstNzMatrixStride 0: each NZ matrix overwrites the first (last wins); srcNdMatrixStride 0 repeats."""
    x = np.arange(2 * 16 * 16, dtype=np.float16)
    _, l1, _, _, _ = _nd_case("a2", "half", x, Nd2NzParams(2, 16, 16, 256, 16, 1, 1, 0), 256)
    assert np.array_equal(l1.read(), x[256:])
    _, l1, _, _, _ = _nd_case("a2", "half", x, Nd2NzParams(2, 16, 16, 0, 16, 1, 1, 256), 512)
    assert np.array_equal(l1.read(), np.concatenate([x[:256], x[:256]]))


@pytest.mark.parametrize("field", ["ndNum", "nValue", "dValue"])
def test_nd2nz_nop(field):
    core = Core("a2")
    g = core.global_tensor("half", 256)
    l1 = core.tensor("A1", "half", 256)
    p = Nd2NzParams(1, 16, 16, 0, 16, 1, 1, 0)
    setattr(p, field, 0)
    p.srcDValue = 0  # not read by a NOP
    assert data_copy(core, l1, g, p).bytes_written == 0
    assert (l1.bytes() == MARKER).all()


@pytest.mark.parametrize("chip,p,exc,msg", [
    ("a2", Nd2NzParams(1, 16385, 16, 0, 16, 1, 1, 0), ParamRangeError,
     r"DataCopyND2NZ: nValue must be in \[0, 16384\], but got 16385"),
    ("a2", Nd2NzParams(1, 16, 16, 0, 0, 1, 1, 0), ParamRangeError,
     r"DataCopyND2NZ: srcDValue must be in \[1, "),
    ("a2", Nd2NzParams(1, 16, 16, 0, 16, 0, 1, 0), ParamRangeError,
     r"DataCopyND2NZ: dstNzC0Stride must be in"),
    ("a2", Nd2NzParams(1, 16, 32, 0, 32, 8, 1, 0), OverlapError, "DataCopyND2NZ: dstNzC0Stride must keep"),
    ("a2", Nd2NzParams(1, 16, 16, 0, 64, 16, 1, 0), HazardError, "DataCopyND2NZ: reads 1952 B from GM"),
    ("a2", Nd2NzParams(1, 16, 16, 0, 16, 1, 2000, 0), BoundsError, "DataCopyND2NZ: destination"),
    ("a2", Dn2NzParams(1, 16, 16, 0, 16, 16, 1, 0), UnsupportedError,
     "DataCopyDN2NZ: API DataCopyDN2NZ is not supported on Atlas A2"),
    ("atlas200i500a2", Nd2NzParams(1, 16, 16, 0, 16, 16, 1, 0), UnsupportedError,
     "DataCopyND2NZ: API DataCopyND2NZ is not supported"),
])
def test_nd2nz_errors_leave_memory(chip, p, exc, msg):
    core = Core(chip, strict=True)  # strict: a read past the GM tensor (inside GM) is an error too (G1)
    g = core.global_tensor("half", 256 + 512)
    l1 = core.tensor("A1", "half", 512)
    with pytest.raises(exc, match="^" + msg):
        data_copy(core, l1, g[512], p)
    assert (l1.bytes() == MARKER).all()


ND2NZ = Nd2NzParams(1, 16, 32, 0, 32, 1, 1, 0)
# (chip, L1 tensor length, call(core, l1, g), exception, message pattern); g an int8 GM tensor of 512
ND2NZ_OPERAND_ERRORS = [
    pytest.param("inference_aicore", 512, lambda core, l1, g: data_copy(core, l1, g, ND2NZ), UnsupportedError,
                 "^DataCopyND2NZ: dtype int8_t on path GM->L1 is not", id="int8-on-310P"),
    pytest.param("a2", 1024, lambda core, l1, g: data_copy(core, l1[16], g, ND2NZ), AlignmentError,
                 "^DataCopyND2NZ: dst", id="dst-alignment"),
    pytest.param("a2", 1024, lambda core, l1, g: data_copy(core, l1, l1[512], ND2NZ), UnsupportedError,
                 "^DataCopyND2NZ: src must be in GM", id="src-in-L1"),
    pytest.param("a2", 1024,
                 lambda core, l1, g: data_copy(core, l1, core.global_tensor("uint8_t", 512), ND2NZ),
                 UnsupportedError, "^DataCopyND2NZ: dst and src must have the same dtype",
                 id="dtype-mismatch"),
    pytest.param("a2", 1024, lambda core, l1, g: data_copy(core, l1, g, ND2NZ, enable_small_c0=True),
                 NotImplementedError, "^DataCopyND2NZ: enableSmallC0", id="enableSmallC0"),
]


@pytest.mark.parametrize(("chip", "n_l1", "call", "exc", "match"), ND2NZ_OPERAND_ERRORS)
def test_nd2nz_operand_errors(chip: str, n_l1: int, call, exc, match: str):
    core = Core(chip)
    g = core.global_tensor("int8_t", 512)
    l1 = core.tensor("A1", "int8_t", n_l1)
    with pytest.raises(exc, match=match):
        call(core, l1, g)
    assert (l1.bytes() == MARKER).all()


# ============================================================================ DN2NZ (950)


def test_dn2nz_doc_call_example_equals_nd_to_nz():
    """DN2NZ 调用示例: A (m=40 x k=56) stored transposed; nValue 40, dValue 56, srcDValue 40."""
    m, k = 40, 56
    a = np.arange(m * k, dtype=np.float16).reshape(m, k)
    core = Core("ascend950")
    g = core.global_tensor("half", a.T.copy())
    l1 = core.tensor("A1", "half", 48 * 64)
    data_copy(core, l1, g, Dn2NzParams(1, 40, 56, 0, 40, 48, 1, 0))
    got = l1.read()
    assert np.array_equal(layouts.nz_to_nd(got, m, k, 16), a)
    r, c = np.meshgrid(np.arange(m), np.arange(64), indexing="ij")
    off = layouts.nz_offset(r, c, 48, 16, 3)
    assert np.array_equal(got[off], layouts.nd_to_nz(a, 16, stride=3)[off])


def test_dn2nz_doc_noncontinuous_example():
    """DN2NZ 非连续搬运: dnNum 2, nValue 8, dValue 23, srcDnMatrixStride 400, srcDValue 16, 37, 2, 320."""
    x = np.arange(800, dtype=np.float16)
    core = Core("ascend950")
    g = core.global_tensor("half", x)
    l1 = core.tensor("A1", "half", 2048)
    before = l1.read_raw()
    data_copy(core, l1, g, Dn2NzParams(2, 8, 23, 400, 16, 37, 2, 320))
    exp = nz_expected("DN", g.read_raw(), before, 16, 2, 8, 23, 400, 16, 37, 2, 320)
    assert np.array_equal(l1.read_raw(), exp)


def test_dn2nz_fp4_not_implemented():
    core = Core("ascend950")
    g = core.global_tensor("fp4x2_e2m1_t", 512)
    l1 = core.tensor("A1", "fp4x2_e2m1_t", 512)
    with pytest.raises(NotImplementedError, match="^DataCopyDN2NZ: 4-bit DN2NZ"):
        data_copy(core, l1, g, Dn2NzParams(1, 16, 16, 0, 16, 16, 1, 0))


# ============================================================================ hypothesis: fast == slow


@st.composite
def nz_params(draw, kind):
    c0 = 16
    n = draw(st.integers(1, 20))
    d = draw(st.integers(1, 40))
    ns = draw(st.integers(1, 3))
    c0s = draw(st.integers(n * ns, n * ns + 4))  # blocks never overlap inside a matrix
    num = draw(st.integers(1, 3))
    extent = (layouts.cdiv(d, c0) - 1) * c0s * c0 + (n - 1) * ns * c0 + c0
    dm = draw(st.sampled_from([0, extent, extent + 32, max(1, extent // 2)]))  # incl. overlapping matrices
    sd = draw(st.integers(d if kind == "ND" else n, 48))
    sm = draw(st.integers(0, 64))
    cls = Nd2NzParams if kind == "ND" else Dn2NzParams
    return cls(num, n, d, sm, sd, c0s, ns, dm)


@settings(max_examples=40, deadline=None)
@given(kind=st.sampled_from(["ND", "DN"]), data=st.data())
def test_nz_copy_fast_equals_reference(kind, data):
    p = data.draw(nz_params(kind))
    core = Core("ascend950")
    num = p.ndNum if kind == "ND" else p.dnNum
    sm = p.srcNdMatrixStride if kind == "ND" else p.srcDnMatrixStride
    src_len = (num - 1) * sm + (p.nValue if kind == "ND" else p.dValue) * p.srcDValue + 16
    g = core.global_tensor("half", np.arange(src_len) % 2048)
    l1 = core.tensor("A1", "half", 16384)
    before = l1.read_raw()
    data_copy(core, l1, g, p)
    exp = reference_nz_copy(kind + "2NZ", p, g.read_raw(), before, 16)
    assert np.array_equal(l1.read_raw(), exp)


# ============================================================================ Fixpipe


def _l0c(core, c_nd: np.ndarray, dtype="float", rows=None):
    m = c_nd.shape[0]
    s = layouts.cdiv(rows or m, 16)
    flat = layouts.nd_to_nz(c_nd, 16, stride=s)
    return core.tensor("CO1", dtype, flat.size, data=flat), s * 16


SPECIAL = np.array([1 + 2**-11, 1 + 3 * 2**-11, 65504.0, 65520.0, 1 + 2**-8, 1 + 3 * 2**-8, 3.0e38, -0.0,
                    np.inf, 2**-25, 2**-24 * 1.5, 1e-40], dtype=np.float32)


def _c_matrix(m, n, dtype):
    rng = np.random.default_rng(m * 1000 + n)
    if dtype == "int32_t":
        return rng.integers(-(2**31), 2**31, size=(m, n), dtype=np.int64).astype(np.int32)
    c = (rng.standard_normal((m, n)) * 100).astype(np.float32)
    c.ravel()[: SPECIAL.size] = SPECIAL
    return c


CASTS = [("float", "float", QuantMode_t.NoQuant, np.float32),
         ("int32_t", "int32_t", QuantMode_t.NoQuant, np.int32),
         ("float", "half", QuantMode_t.F322F16, np.float16),
         ("float", "bfloat16_t", QuantMode_t.F322BF16, ml_dtypes.bfloat16)]


@pytest.mark.parametrize("chip", ["a2", "ascend950"])
@pytest.mark.parametrize("sdt,ddt,mode,npdt", CASTS, ids=[f"{c[0]}-{c[1]}" for c in CASTS])
def test_fixpipe_nz2nd_round_trip_and_casts(chip, sdt, ddt, mode, npdt):
    m, n = 40, 48
    c = _c_matrix(m, n, sdt)
    core = Core(chip)
    src, stride = _l0c(core, c, sdt)
    out = core.global_tensor(ddt, m * n)
    cls = FixpipeParamsV220 if chip == "a2" else FixpipeParamsArch3510
    # srcStride = CeilAlign(m, 16) as in the doc's call example
    fixpipe(core, out, src, cls(nSize=n, mSize=m, srcStride=stride, dstStride=n, quantPre=mode))
    got = out.read().reshape(m, n)
    with np.errstate(over="ignore"):  # 3e38 / 65520 overflow to inf in half, as RNE says
        exp = layouts.nz_to_nd(src.read(), m, n, 16).astype(npdt)  # numpy / ml_dtypes RNE (CAST_RINT)
        direct = c.astype(npdt)
    assert np.array_equal(got.view(f"u{got.itemsize}"), exp.view(f"u{exp.itemsize}"))
    assert np.array_equal(got.view(f"u{got.itemsize}"), direct.view(f"u{got.itemsize}"))


def test_fixpipe_half_rne_ties():
    c = np.zeros((16, 16), np.float32)
    c[0, :4] = [1 + 2**-11, 1 + 3 * 2**-11, 65520.0, 2**-25]
    core = Core("a2")
    src, _ = _l0c(core, c)
    out = core.global_tensor("half", 256)
    fixpipe(core, out, src, FixpipeParamsV220(16, 16, 1, 16, quantPre=QuantMode_t.F322F16))
    assert out.read()[:4].tolist() == [1.0, 1 + 2**-9, np.inf, 0.0]  # ties to even; overflow -> inf


def test_fixpipe_nz2nd_partial_n():
    """nSize 50 (not a multiple of 16, as the examples pass): only 50 columns per row are written."""
    m, n = 20, 50
    c = _c_matrix(m, n, "float")
    core = Core("a2")
    src, stride = _l0c(core, c)
    out = core.global_tensor("float", m * 64)
    fixpipe(core, out, src, FixpipeParamsV220(nSize=n, mSize=m, srcStride=stride, dstStride=64))
    got = out.read_raw().reshape(m, 64)
    assert np.array_equal(got[:, :n].view(np.float32), c)
    assert (got[:, n:] == 0xCDCDCDCD).all()


def _nd_example_expected(src_vals, dst_raw, unit):
    """NZ2ND.md 使用示例 from the pseudocode: ndNum 2, n 32, m 48, srcStride 64, dstStride 64,
    srcNdStride 256 (x unit elements), dstNdStride 4096."""
    out = dst_raw.copy()
    for i in range(2):
        for j in range(48):
            for n in range(32):
                out[i * 4096 + j * 64 + n] = src_vals[i * 256 * unit + (n // 16) * 64 * 16 + j * 16 + n % 16]
    return out


def test_fixpipe_nz2nd_doc_example_950():
    core = Core("ascend950")
    src = core.tensor("CO1", "float", 6144, data=np.arange(6144, dtype=np.float32))
    out = core.global_tensor("float", 8192)
    before = out.read_raw()
    p = FixpipeParamsArch3510(nSize=32, mSize=48, srcStride=64, dstStride=64,
                              params=Nz2NdParams(2, 256, 4096))
    fixpipe(core, out, src, p, CFG_ROW_MAJOR)
    assert np.array_equal(out.read_raw(), _nd_example_expected(src.read_raw(), before, 16))


def test_fixpipe_nz2nd_doc_example_v220_unit_reading():
    """V220 srcNdStride is in 16*C0_Size (表4, divergences.md C4): the doc example's 256 then points 256 KB
    into a 128-KB L0C, which ascsim reports as out of bounds."""
    core = Core("a2")
    src = core.tensor("CO1", "float", 6144, data=np.arange(6144, dtype=np.float32))
    out = core.global_tensor("float", 8192)
    p = FixpipeParamsV220(nSize=32, mSize=48, srcStride=64, dstStride=64, ndNum=2, srcNdStride=256,
                          dstNdStride=4096)
    with pytest.raises(BoundsError, match="^Fixpipe: source"):
        fixpipe(core, out, src, p)
    assert (out.bytes() == MARKER).all()
    p.srcNdStride = 1  # one 16x16 fractal = 256 elements
    p.srcStride, p.mSize, p.nSize = 1, 16, 16
    fixpipe(core, out, src, p)
    got = out.read_raw().view(np.float32).reshape(2, 64, 64)
    s = src.read()
    assert np.array_equal(got[0, :16, :16], s[:256].reshape(16, 16))
    assert np.array_equal(got[1, :16, :16], s[256:512].reshape(16, 16))  # matrix 1 = the next fractal


@pytest.mark.parametrize("chip", ["a2", "ascend950"])
def test_fixpipe_nz2nz_doc_example(chip):
    """NZ2NZ.md: nSize 48, mSize 24, srcStride 64; dstStride 40 (x32 B, V220) or 40*16 elements (950)."""
    core = Core(chip)
    src = core.tensor("CO1", "float", 3 * 64 * 16, data=np.arange(3 * 1024, dtype=np.float32) / 8)
    out = core.global_tensor("half", 3 * 640)
    before = out.read_raw()
    if chip == "a2":
        p = FixpipeParamsV220(nSize=48, mSize=24, srcStride=64, dstStride=40, quantPre=QuantMode_t.F322F16)
    else:
        p = FixpipeParamsArch3510(nSize=48, mSize=24, srcStride=64, dstStride=640, quantPre="F322F16")
    fixpipe(core, out, src, p, CFG_NZ)
    exp = before.view(np.float16).copy()
    s = src.read()
    for j in range(24):
        for k in range(3):
            exp[j * 16 + k * 640 : j * 16 + k * 640 + 16] = s[j * 16 + k * 1024 : j * 16 + k * 1024 + 16]
    assert np.array_equal(out.read_raw(), exp.view(np.uint16))
    assert (out.read_raw()[24 * 16 : 640] == MARK16).all()  # dummy rows 24..39 are dropped


def test_fixpipe_nz2dn_doc_example():
    """NZ2DN.md: dnNum 2, nSize 32, mSize 48, srcStride 80, dstStride 80, srcNzMatrixStride 240,
    dstDnMatrixStride 3840, srcNzC0Stride 1 — DN = C^T row-major with rows of dstStride."""
    core = Core("ascend950")
    src = core.tensor("CO1", "int32_t", 6144, data=np.arange(6144))
    out = core.global_tensor("int32_t", 2 * 3840)
    p = FixpipeParamsArch3510(nSize=32, mSize=48, srcStride=80, dstStride=80,
                              params=Nz2DnParams(2, 240, 3840, 1))
    fixpipe(core, out, src, p, CFG_COLUMN_MAJOR)
    got = out.read().reshape(2, 48, 80)
    s = src.read()
    for h in range(2):
        c = layouts.nz_to_nd(s[h * 240 * 16 :], 48, 32, 16, stride=5)  # srcStride 80 rows = 5 fractals
        assert np.array_equal(got[h, :32, :48], c.T)
    assert (out.read_raw().reshape(2, 48, 80)[:, :32, 48:] == 0xCDCDCDCD).all()


def test_fixpipe_nop_and_ndnum_warning():
    core = Core("a2")
    src, _ = _l0c(core, np.ones((16, 16), np.float32))
    out = core.global_tensor("float", 256)
    assert fixpipe(core, out, src, FixpipeParamsV220(16, 0, 1, 16)).bytes_written == 0
    with pytest.warns(UserWarning, match="^Fixpipe: ndNum=0"):
        fixpipe(core, out, src, FixpipeParamsV220(16, 16, 1, 16, ndNum=0))
    assert (out.bytes() == MARKER).all()


def _fp(**kw):
    base = {"nSize": 16, "mSize": 16, "srcStride": 1, "dstStride": 16}
    base.update(kw)
    return FixpipeParamsV220(**base)


@pytest.mark.parametrize("chip,ddt,p,cfg,exc,msg", [
    ("a2", "float", _fp(isChannelSplit=True), CFG_ROW_MAJOR, UnsupportedError,
     "Fixpipe: isChannelSplit needs NZ output"),
    ("ascend950", "half", FixpipeParamsArch3510(16, 16, 1, 16, quantPre=QuantMode_t.QF322F16_PRE),
     CFG_ROW_MAJOR,
     NotImplementedError, "Fixpipe: quantPre QF322F16_PRE .* is not implemented"),
    ("a2", "half", _fp(quantPre=QuantMode_t.QF322F16_PRE), CFG_ROW_MAJOR, UnsupportedError,
     "Fixpipe: quantPre QF322F16_PRE exists on Ascend 950 only"),
    ("a2", "half", _fp(), CFG_ROW_MAJOR, ParamRangeError, "Fixpipe: quantPre NoQuant copies float unchanged"),
    ("a2", "bfloat16_t", _fp(quantPre=QuantMode_t.F322F16), CFG_ROW_MAJOR, ParamRangeError,
     "Fixpipe: quantPre F322F16 casts float to half"),
    ("a2", "float", _fp(quantPre=99), CFG_ROW_MAJOR, ParamRangeError,
     "Fixpipe: quantPre must be a QuantMode_t"),
    ("a2", "fp8_e4m3fn_t", _fp(), CFG_ROW_MAJOR, UnsupportedError,
     r"Fixpipe: dtype combination \(float, fp8_e4m3fn_t\) is not supported"),
    ("a2", "float", FixpipeParamsArch3510(16, 16, 1, 16), CFG_ROW_MAJOR, UnsupportedError,
     "Fixpipe: intriParams FixpipeParamsArch3510"),
    ("a2", "float", _fp(), CFG_COLUMN_MAJOR, UnsupportedError, "Fixpipe: config CFG_COLUMN_MAJOR"),
    ("a2", "float", _fp(), FixpipeConfig(isToUB=True), NotImplementedError, "Fixpipe: config.isToUB"),
    ("a2", "float", _fp(nSize=4096), CFG_ROW_MAJOR, ParamRangeError,
     r"Fixpipe: nSize must be in \[0, 4095\]"),
    ("a2", "float", _fp(mSize=8193), CFG_ROW_MAJOR, ParamRangeError,
     r"Fixpipe: mSize must be in \[0, 8192\]"),
    ("a2", "float", _fp(dstStride=0), CFG_ROW_MAJOR, ParamRangeError, r"Fixpipe: dstStride must be in \[1, "),
    ("a2", "float", _fp(unitFlag=1), CFG_ROW_MAJOR, ParamRangeError, "Fixpipe: unitFlag must be 0, 2 or 3"),
    ("a2", "float", _fp(nSize=24), CFG_NZ, ParamRangeError, "Fixpipe: nSize must be a multiple of 16"),
    ("a2", "float", _fp(nSize=32, dstStride=31), CFG_ROW_MAJOR, OverlapError, "Fixpipe: dstStride"),
    ("a2", "float", _fp(ndNum=2, dstNdStride=0), CFG_ROW_MAJOR, OverlapError, "Fixpipe: dstNdStride"),
    ("a2", "float", _fp(nSize=32, srcStride=1, dstStride=4), CFG_NZ, OverlapError, "Fixpipe: dstStride"),
    ("a2", "float", _fp(dstStride=2**31), CFG_ROW_MAJOR, BoundsError, "Fixpipe: destination"),
    ("ascend950", "float", FixpipeParamsArch3510(16, 16, 1, 16, params=Nz2DnParams(1, 0, 0, 0)),
     CFG_COLUMN_MAJOR, ParamRangeError, r"Fixpipe: srcNzC0Stride must be in \[1, 65535\]"),
    ("ascend950", "float", FixpipeParamsArch3510(16, 16, 1, 16, params=Nz2DnParams()), CFG_ROW_MAJOR,
     ParamRangeError, "Fixpipe: params must be Nz2NdParams for CO2Layout::ROW_MAJOR"),
])
def test_fixpipe_errors_leave_memory(chip, ddt, p, cfg, exc, msg):
    core = Core(chip)
    src, _ = _l0c(core, np.ones((16, 16), np.float32))
    out = core.global_tensor(ddt, 512)
    snap = src.bytes().copy()
    with pytest.raises(exc, match="^" + msg):
        fixpipe(core, out, src, p, cfg)
    assert (out.bytes() == MARKER).all()
    assert np.array_equal(src.bytes(), snap)


# (call(core, out, src, p), exception, message pattern) on a2: src an L0C float tensor of 1024, out a GM one
FIXPIPE_OPERAND_ERRORS = [
    pytest.param(lambda core, out, src, p: fixpipe(core, out, src[8], p), AlignmentError,
                 r"^Fixpipe: src \(L0C\) address must be 64-byte aligned", id="src-alignment"),
    pytest.param(lambda core, out, src, p: fixpipe(core, out[4], src, p, CFG_NZ), AlignmentError,
                 r"^Fixpipe: dst \(NZ in GM\)", id="NZ-dst-alignment"),
    pytest.param(lambda core, out, src, p: fixpipe(core, out, out, p), UnsupportedError,
                 "^Fixpipe: src must be in L0C", id="src-in-GM"),
    pytest.param(lambda core, out, src, p: fixpipe(core, out, src, p,
                                                   cbuf_workspace=core.tensor("C1", "uint64_t", 16)),
                 ParamRangeError, "^Fixpipe: quantPre must be VDEQF16, VQF322B8_PRE or VREQ8",
                 id="workspace-without-a-vector-mode"),
]


def _fixpipe_operands():
    core = Core("a2")
    src = core.tensor("CO1", "float", 1024)
    out = core.global_tensor("float", 1024)
    return core, out, src, _fp()


@pytest.mark.parametrize(("call", "exc", "match"), FIXPIPE_OPERAND_ERRORS)
def test_fixpipe_operand_errors(call, exc, match: str):
    core, out, src, p = _fixpipe_operands()
    with pytest.raises(exc, match=match):
        call(core, out, src, p)
    assert (out.bytes() == MARKER).all()


def test_fixpipe_nd_dst_needs_only_element_alignment():
    core, out, src, p = _fixpipe_operands()
    fixpipe(core, out[3], src, p)  # ND destinations need only 1-byte (element) alignment


@st.composite
def fixpipe_case(draw):
    chip = draw(st.sampled_from(["a2", "ascend950"]))
    fmt = draw(st.sampled_from(["ND", "NZ"] + (["DN"] if chip == "ascend950" else [])))
    sdt, ddt, mode, _ = draw(st.sampled_from(CASTS))
    m = draw(st.integers(1, 40))
    n = draw(st.integers(1, 40)) if fmt != "NZ" else 16 * draw(st.integers(1, 3))
    src_stride = draw(st.integers(0, 4))
    num = draw(st.integers(1, 3)) if fmt != "NZ" else 1
    kw = {"nSize": n, "mSize": m, "srcStride": src_stride, "quantPre": mode}
    dsz = 2 if ddt in ("half", "bfloat16_t") else 4
    if fmt == "ND":
        ds = draw(st.integers(n, n + 5))
        kw["dstStride"] = ds
        sub = {"ndNum": num, "srcNdStride": draw(st.integers(0, 3)),
               "dstNdStride": m * ds + draw(st.integers(0, 9))}
    elif fmt == "DN":
        ds = draw(st.integers(m, m + 5))
        kw["dstStride"] = ds
        sub = {"dnNum": num, "srcNzMatrixStride": draw(st.integers(0, 20)),
               "dstDnMatrixStride": n * ds + draw(st.integers(0, 9)),
               "srcNzC0Stride": draw(st.integers(1, 3))}
    else:
        blk = m * 16 + 16 * draw(st.integers(0, 3))
        kw["dstStride"] = blk if chip == "ascend950" else layouts.cdiv(blk * dsz, 32)
        sub = {}
    if chip == "a2":
        p = FixpipeParamsV220(**kw, **sub)
    else:
        extra = Nz2NdParams(**sub) if fmt == "ND" else Nz2DnParams(**sub) if fmt == "DN" else None
        p = FixpipeParamsArch3510(**kw, params=extra)
    cfg = {"ND": CFG_ROW_MAJOR, "NZ": CFG_NZ, "DN": CFG_COLUMN_MAJOR}[fmt]
    return chip, cfg, sdt, ddt, p


@settings(max_examples=50, deadline=None)
@given(case=fixpipe_case())
def test_fixpipe_fast_equals_reference(case):
    chip, cfg, sdt, ddt, p = case
    core = Core(chip)
    rng = np.random.default_rng(p.mSize * 7 + p.nSize)
    vals = rng.integers(-1000, 1000, 16384) if sdt == "int32_t" else rng.standard_normal(16384) * 300
    src = core.tensor("CO1", sdt, 16384, data=vals)
    out = core.global_tensor(ddt, 20000)
    before = out.read()
    fixpipe(core, out, src, p, cfg)
    exp = reference_fixpipe(p, cfg.format, src.read(), before, ddt)
    got = out.read()
    assert np.array_equal(got.view(f"u{got.itemsize}"), exp.view(f"u{exp.itemsize}"))
