"""DataCopy L1 -> BiasTable (C1 -> C2) and L1 -> Fixpipe Buffer (C1 -> C2PIPE2GM), DataCopyPad GM -> L1, and
Mmad with a bias from the BiasTable end to end.

References: the doc pages' call examples (literal), byte-loop references (`reference_block_copy`,
`reference_data_copy_pad`) under hypothesis, catlass's CopyL1ToBT (include/catlass/gemm/tile/atlasa2/ and
ascend950/copy_l1_to_bt.hpp: blockLen = ceil(n / (64 or 32 B / sizeof(src))), rounded up to even only for
4-byte sources on 950), and numpy for the int8 matmul with bias + DEQF16.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ascsim import Core, DocConflictError, DocConflictWarning, HazardWarning
from ascsim.base.errors import AlignmentError, ParamRangeError, UnsupportedError
from ascsim.flows.quant import quant_matmul, quant_matmul_reference
from ascsim.isa.copy import reference_block_copy, reference_data_copy_pad
from ascsim.machine.dtypes import Bits
from ascsim.machine.layouts import nd_to_zn, nd_to_zz, nz_to_nd
from ascsim.machine.memory import MARKER
from ascsim.params import DataCopyExtParams, DataCopyPadExtParams, DataCopyParams, MmadParams, PaddingMode

# ============================================================ L1 -> BiasTable


@pytest.mark.parametrize("chip,unit", [("a2", 64), ("ascend950", 32)])
def test_bias_table_doc_example(chip, unit):
    """DataCopy（L1ToBiasTable-Buffer数据搬运）.md 调用示例: c1Addr = 128 KB, c2Addr = 0, c12c2Params =
    {1, biasSizeAlign * sizeof(outputType) / 32 (950) or / 64, 0, 0}."""
    core = Core(chip)
    n = 64
    bias = np.arange(n, dtype=np.float32) - 20.5
    b1 = core.tensor("C1", "float", n, offset=128 * 1024, data=bias)
    b2 = core.tensor("C2", "float", n, offset=0)
    core.data_copy(b2, b1, DataCopyParams(1, n * 4 // unit, 0, 0))
    np.testing.assert_array_equal(b2.read(), bias)


def test_bias_table_half_widens_to_float_and_units_count_source_bytes():
    """数据类型: src half, dst float (the C++ (T, U) overload sends convControl = 1). blockLen counts the
    source's bytes (catlass copy_l1_to_bt: ceil(n / (64 / sizeof(ElementSrc)))), so 64 halves = 2 blocks of
    64 B fill 256 B of BT (divergence C21)."""
    core = Core("a2")
    h = (np.arange(64) / 3).astype(np.float16)
    b1 = core.tensor("C1", "half", 64, data=h)
    b2 = core.tensor("C2", "float", 80)
    report = core.data_copy(b2, b1, DataCopyParams(1, 2, 0, 0))
    np.testing.assert_array_equal(b2.read()[:64], h.astype(np.float32))
    assert (b2.bytes()[256:] == MARKER).all() and report.bytes_written == 256


def test_bias_table_gaps_and_count():
    """srcGap in 32 B, dstGap in the chip's unit (64 B on A2), both end-to-start gaps (表3); the count form
    floors to whole units (kernel_operator_data_copy_intf_impl.h: count / (64 / sizeof(T)))."""
    core = Core("a2")
    src = core.tensor("C1", "int32_t", 128, data=np.arange(128))
    dst = core.tensor("C2", "int32_t", 128)
    before = dst.bytes().copy()
    core.data_copy(dst, src, DataCopyParams(2, 1, 2, 1))
    exp = reference_block_copy(2, 64, 64 + 64, 64 + 64, src.bytes(), before)
    np.testing.assert_array_equal(dst.bytes(), exp)
    dst2 = core.tensor("C2", "int32_t", 64)
    assert core.data_copy(dst2, src, 40).bytes_written == 128  # 40 int32 = 160 B -> 2 blocks of 64 B


@settings(max_examples=30, deadline=None)
@given(count=st.integers(1, 2), blen=st.integers(1, 2), sgap=st.integers(0, 3), dgap=st.integers(0, 1),
       widen=st.booleans())  # BT is 1 KB on A2
def test_bias_table_fast_equals_reference(count, blen, sgap, dgap, widen):
    core = Core("a2")
    sdt = "half" if widen else "float"
    src = core.tensor("C1", sdt, 2048, data=np.arange(2048) % 997 - 300)
    dst = core.tensor("C2", "float", 256)
    before = dst.bytes().copy()
    core.data_copy(dst, src, DataCopyParams(count, blen, sgap, dgap))
    sblock = blen * 64
    dblock = sblock * (2 if widen else 1)
    exp = reference_block_copy(count, sblock, sblock + sgap * 32, dblock + dgap * 64, src.bytes(), before,
                               widen)
    np.testing.assert_array_equal(dst.bytes(), exp)


def test_bias_table_950_odd_block_len():
    """约束说明 (950): "blockLen必须为偶数". The C++ API checks it only for 4-byte sources (dav_3510
    CopyCbufToBt), and catlass rounds up only for them: a half bias of 16 elements is one 32-B block —
    executed with a DocConflictWarning; odd with float is refused."""
    core = Core("ascend950")
    h = np.arange(16, dtype=np.float16)
    b1 = core.tensor("C1", "half", 16, data=h)
    b2 = core.tensor("C2", "float", 16)
    with pytest.warns(DocConflictWarning, match=r"^DataCopy: the doc page forbids this .*blockLen必须为偶数"):
        report = core.data_copy(b2, b1, DataCopyParams(1, 1, 0, 0))
    assert report.notes == ["C21"]
    np.testing.assert_array_equal(b2.read(), h.astype(np.float32))
    with pytest.raises(ParamRangeError, match=r"^DataCopy: blockLen must be even for float .*CopyCbufToBt"):
        core.data_copy(b2, core.tensor("C1", "float", 16), DataCopyParams(1, 1, 0, 0))
    strict = Core("ascend950", strict=True)
    with pytest.raises(DocConflictError):
        strict.data_copy(strict.tensor("C2", "float", 16), strict.tensor("C1", "half", 16),
                         DataCopyParams(1, 1, 0, 0))


@pytest.mark.parametrize("chip,src,dst,msg", [
    ("a2", "bfloat16_t", "float", r"^DataCopy: dtype bfloat16_t on path L1->BT is not supported"),
    ("a2", "float", "int32_t", r"^DataCopy: L1 -> BT converts .*the C\+\+ API rejects this"),
    ("a2", "half", "half", r"^DataCopy: L1 -> BT converts .*the doc page forbids this"),
    ("atlas200i500a2", "float", "float", r"^DataCopy: API DataCopyL12BT is not supported"),
])  # fmt: skip
def test_bias_table_refusals(chip, src, dst, msg):
    core = Core(chip)
    with pytest.raises(UnsupportedError, match=msg):
        core.data_copy(core.tensor("C2", dst, 32), core.tensor("C1", src, 32), DataCopyParams(1, 1, 0, 0))


def test_bias_table_alignment():
    core = Core("a2")
    with pytest.raises(AlignmentError, match=r"^DataCopy: dst \(BT\) address must be 64-byte aligned"):
        core.data_copy(core.tensor("C2", "float", 64)[8], core.tensor("C1", "float", 64), 16)


# ============================================================ L1 -> Fixpipe Buffer


@pytest.mark.parametrize("chip", ["a2", "ascend950"])
def test_fixpipe_buffer_doc_example(chip):
    """DataCopy（L1ToFixpipe-Buffer数据搬运）.md 调用示例: N = 256 quant words,
    burstLen = CeilAlign(256 * 8, 128) /
    128 = 16, {1, 16, 0, 0}. On 950 the C++ API doubles blockLen for its 64-B instruction unit
    (dav_3510 DataCopyL12FBImpl), so the API unit stays 128 B (divergence C22)."""
    core = Core(chip)
    words = np.arange(256, dtype=np.uint64) * 0x10001 + (1 << 46)
    q1 = core.tensor("C1", "uint64_t", 256, data=words)
    fb = core.tensor("C2PIPE2GM", "uint64_t", 256, offset=0)
    core.data_copy(fb, q1, DataCopyParams(1, 16, 0, 0))
    np.testing.assert_array_equal(fb.read(), words)


def test_fixpipe_buffer_gaps_run_head_to_head():
    """表3: srcGap / dstGap "前面一个数据块的头与后面数据块的头的间隔" (32 B / 128 B); 0 repeats the first
    source block / overwrites the first destination block."""
    core = Core("a2")
    q1 = core.tensor("C1", "uint64_t", 64, data=np.arange(64))
    fb = core.tensor("C2PIPE2GM", "uint64_t", 64)
    core.data_copy(fb, q1, DataCopyParams(2, 1, 8, 1))  # block 1 from src byte 256 to dst byte 128
    got = fb.read()
    np.testing.assert_array_equal(got[:16], np.arange(16))
    np.testing.assert_array_equal(got[16:32], np.arange(32, 48))
    fb2 = core.tensor("C2PIPE2GM", "uint64_t", 16)
    core.data_copy(fb2, q1, DataCopyParams(3, 1, 4, 0))  # dstGap 0: every block overwrites the first
    np.testing.assert_array_equal(fb2.read(), np.arange(32, 48))


def test_fixpipe_buffer_refusals():
    core = Core("a2")
    with pytest.raises(UnsupportedError, match=r"^DataCopy: dtype int32_t on path L1->FB is not supported"):
        core.data_copy(core.tensor("C2PIPE2GM", "int32_t", 32), core.tensor("C1", "int32_t", 32), 32)
    with pytest.raises(AlignmentError, match=r"^DataCopy: dst \(FB\) address must be 128-byte aligned"):
        core.data_copy(core.tensor("C2PIPE2GM", "uint64_t", 32)[8], core.tensor("C1", "uint64_t", 32), 16)


# ============================================================ Mmad with a bias from the BiasTable, end to end


@pytest.mark.parametrize("chip", ["a2", "ascend950"])
def test_int8_matmul_bias_deqf16_end_to_end(chip):
    """int8 x int8 + int32 bias (GM -> L1 -> BiasTable), Mmad with cmatrixInitVal = false, Fixpipe DEQF16 to
    half
    (flows_quant.quant_matmul transliterates the kernel), against numpy bit for bit."""
    rng = np.random.default_rng(11)
    m, k, n = 40, 96, 48
    a = rng.integers(-128, 128, (m, k)).astype(np.int8)
    b = rng.integers(-128, 128, (k, n)).astype(np.int8)
    bias = rng.integers(-50_000, 50_000, n).astype(np.int32)
    got, stats = quant_matmul(Core(chip), a, b, bias, 1 / 700)
    ref = quant_matmul_reference(a, b, bias, 1 / 700)
    np.testing.assert_array_equal(got.view(np.uint16), ref.view(np.uint16))
    assert stats["instructions"]["Fixpipe"] == 1


def test_mmad_bias_from_bt_with_half_widened():
    """half x half + half bias widened into BT as float: C = bias + A·B (Mmad.md 表4 cmatrixSource)."""
    core = Core("a2")
    rng = np.random.default_rng(2)
    a = rng.integers(-4, 4, (16, 32)).astype(np.float16)
    b = rng.integers(-4, 4, (32, 32)).astype(np.float16)
    bias = (np.arange(32) / 4).astype(np.float16)
    b1 = core.tensor("C1", "half", 32, data=bias)
    bt = core.tensor("C2", "float", 32)
    core.data_copy(bt, b1, DataCopyParams(1, 1, 0, 0))
    l0a = core.tensor("A2", "half", 512, data=nd_to_zz(a, 16))
    l0b = core.tensor("B2", "half", 1024, data=nd_to_zn(b, 16))
    c = core.tensor("CO1", "float", 512)
    core.mmad(c, l0a, l0b, MmadParams(16, 32, 32, cmatrixInitVal=False), bt)
    exp = a.astype(np.float64) @ b.astype(np.float64) + bias.astype(np.float64)
    np.testing.assert_array_equal(nz_to_nd(c.read(), 16, 32, 16), exp.astype(np.float32))


# ============================================================ DataCopyPad GM -> L1 (950)


def test_data_copy_pad_doc_normal_example():
    """Normal 模式调用示例: 3 blocks of 48 int8, rightPadding 16, isPad false —
    "每块48B有效数据右侧补16B，3块共192B";
    the pad bytes hold the pad register's value ("默认填充随机值"): never set here, so the marker (C23)."""
    core = Core("ascend950")
    src = core.global_tensor("int8_t", np.arange(144) - 72)
    dst = core.tensor("A1", "int8_t", 192, offset=0)
    report = core.data_copy_pad(dst, src, DataCopyExtParams(3, 48, 0, 0, 0),
                                DataCopyPadExtParams(False, 0, 16, 0),
                                PaddingMode.Normal)
    got = dst.bytes().reshape(3, 64)
    np.testing.assert_array_equal(got[:, :48].view(np.int8), (np.arange(144) - 72).reshape(3, 48))
    assert (got[:, 48:] == MARKER).all() and report.notes == ["C23"] and report.bytes_written == 192


def test_data_copy_pad_doc_compact_example():
    """Compact 模式调用示例: "3块有效数据共144B，只在最后右侧补16B" — 160 B; with isPad the pad value is
    written."""
    core = Core("ascend950")
    src = core.global_tensor("int8_t", np.arange(144) - 72)
    dst = core.tensor("A1", "int8_t", 160, offset=0)
    core.data_copy_pad(dst, src, DataCopyExtParams(3, 48, 0, 0, 0), DataCopyPadExtParams(True, 4, 4, -1),
                       PaddingMode.Compact)
    got = dst.read()
    np.testing.assert_array_equal(got[:144], np.arange(144) - 72)  # left / right padding do not apply
    assert (got[144:] == -1).all()
    assert core.regs.mov_pad == 0xFF


def test_data_copy_pad_register_persists_and_bits():
    """isPad = false reuses the pad register (set_mov_pad_val of an earlier call); a `Bits` value is a raw
    pattern (half -inf)."""
    core = Core("ascend950")
    src = core.global_tensor("half", np.arange(40))
    dst = core.tensor("A1", "half", 64)
    core.data_copy_pad(dst, src, DataCopyExtParams(2, 20, 0, 0, 0),
                       DataCopyPadExtParams(True, 2, 4, Bits(0xFC00)))
    raw = dst.read_raw()[:32].reshape(2, 16)  # 2 + 10 + 4 halves = 32 B per block
    assert (raw[:, :2] == 0xFC00).all() and (raw[:, 12:] == 0xFC00).all()
    np.testing.assert_array_equal(dst.read()[:32].reshape(2, 16)[:, 2:12], np.arange(20).reshape(2, 10))
    dst2 = core.tensor("A1", "half", 32)
    core.data_copy_pad(dst2, src, DataCopyExtParams(1, 20, 0, 0, 0), DataCopyPadExtParams(False, 0, 6, 0))
    assert (dst2.read_raw()[10:16] == 0xFC00).all()


@pytest.mark.parametrize("call,exc,msg", [
    (lambda c, g, t1: c.data_copy_pad(g, t1, DataCopyExtParams(1, 32, 0, 0, 0)), UnsupportedError,
     r"^DataCopyPad: L1 -> GM is not supported \(the C\+\+ API rejects this"),
    (lambda c, g, t1: c.data_copy_pad(t1, g, DataCopyExtParams(1, 33, 0, 0, 0)), ParamRangeError,
     r"^DataCopyPad: blockLen must be a multiple of sizeof\(half\)"),
    (lambda c, g, t1: c.data_copy_pad(t1, g, DataCopyExtParams(0, 32, 0, 0, 0)), ParamRangeError,
     r"^DataCopyPad: blockCount must be in \[1, 4095\].*the doc page forbids this"),
    (lambda c, g, t1: c.data_copy_pad(t1, g, DataCopyExtParams(1, 32, 0, 0, 0),
                                      DataCopyPadExtParams(True, 17)),
     ParamRangeError, r"^DataCopyPad: leftPadding must be at most 32 bytes"),
    (lambda c, g, t1: c.data_copy_pad(t1, g, DataCopyExtParams(1, 32, -33, 0, 0)), ParamRangeError,
     r"^DataCopyPad: srcStride must be in \[-32, "),
    (lambda c, g, t1: c.data_copy_pad(t1[8], g, DataCopyExtParams(1, 32, 0, 0, 0)), AlignmentError,
     r"^DataCopyPad: dst \(L1\) address must be 32-byte aligned"),
])  # fmt: skip
def test_data_copy_pad_refusals(call, exc, msg):
    core = Core("ascend950")
    g = core.global_tensor("half", 256)
    l1 = core.tensor("A1", "half", 256)
    with pytest.raises(exc, match=msg):
        call(core, g, l1)
    assert (l1.bytes() == MARKER).all()


def test_data_copy_pad_is_950_only():
    core = Core("a2")
    with pytest.raises(UnsupportedError, match="^DataCopyPad: API DataCopyPad is not supported on Atlas A2"):
        core.data_copy_pad(core.tensor("A1", "half", 64), core.global_tensor("half", 64),
                           DataCopyExtParams(1, 32, 0, 0, 0))


@settings(max_examples=40, deadline=None)
@given(mode=st.sampled_from([0, 1]), dtype=st.sampled_from(["int8_t", "half", "float"]),
       count=st.integers(1, 4),
       nelem=st.integers(1, 24), sgap=st.integers(-4, 40), dgap=st.integers(0, 2), left=st.integers(0, 8),
       right=st.integers(0, 8), seed=st.integers(0, 99))
def test_data_copy_pad_fast_equals_reference(mode, dtype, count, nelem, sgap, dgap, left, right, seed):
    core = Core("ascend950")
    size = {"int8_t": 1, "half": 2, "float": 4}[dtype]
    left, right = min(left, 32 // size), min(right, 32 // size)
    sgap = max(sgap * size, -nelem * size)
    rng = np.random.default_rng(seed)
    src = core.global_tensor(dtype, rng.integers(-100, 100, 4096))
    dst = core.tensor("A1", dtype, 8192 // size)
    before = dst.bytes().copy()
    p = DataCopyExtParams(count, nelem * size, sgap, dgap, 0)
    pad = DataCopyPadExtParams(True, left, right, 7)
    core.data_copy_pad(dst, src, p, pad, mode)
    pad_bytes = np.array([7], dtype=dst.dtype.value_dtype).view(np.uint8).tobytes()
    exp = reference_data_copy_pad(mode, p, pad, size, src.bytes(), before, pad_bytes)
    np.testing.assert_array_equal(dst.bytes(), exp)


def test_data_copy_pad_read_past_the_tensor_is_a_hazard():
    core = Core("ascend950")
    src = core.global_tensor("half", 16)
    dst = core.tensor("A1", "half", 64)
    with pytest.warns(HazardWarning, match="^DataCopyPad: reads 64 B from GM"):
        core.data_copy_pad(dst, src, DataCopyExtParams(1, 64, 0, 0, 0))
    strict = Core("ascend950", strict=True)
    src = strict.global_tensor("half", 16)
    dst = strict.tensor("A1", "half", 64)
    from ascsim import HazardError

    with pytest.raises(HazardError, match="^DataCopyPad: reads 64 B from GM"):
        strict.data_copy_pad(dst, src, DataCopyExtParams(1, 64, 0, 0, 0))
    assert (dst.bytes() == MARKER).all()
