"""Fill / InitConstValue (doc: 矩阵搬入辅助配置接口/Fill.md; asc-devkit dav_*/kernel_operator_mm_impl.h).

References: the doc's worked parameter sets and its call example (literal tests), a slow loop interpreter
written from 表3 (`reference_fill`, hypothesis), and two kernels transliterated from Huawei's code — the
official fill example (examples/01_simd_cpp_api/06_compatibility_guide/fill: Fill L0A/L0B with 1 on A2, Fill
L1 + LoadData on 950, then Mmad; its golden is ones @ ones) and the matmul scheduler's padding pattern
(impl/adv_api/detail/matmul/.../copy_tile_to_cube_common.h: InitConstValue zeroes the pad tile before the
ND2NZ copy), each checked with numpy.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ascsim import Core, DocConflictError, HazardError, HazardWarning
from ascsim.base.errors import AlignmentError, ParamRangeError, UnsupportedError
from ascsim.isa.fill import BLOCK, REPEAT_ONLY, reference_fill
from ascsim.machine.dtypes import Bits
from ascsim.machine.layouts import nd_to_nz, nz_to_nd
from ascsim.machine.memory import MARKER
from ascsim.params import FixpipeParamsV220, InitConstValueParams, LoadData2DParamsV2, MmadParams, Nd2NzParams


def _blocks_written(repeat: int, blocks: int, gap: int) -> list[int]:
    return [r * (blocks + gap) + b for r in range(repeat) for b in range(blocks)]


# ============================================================ literal tests from Fill.md


def test_doc_call_example_fills_m_times_k_floats_with_one():
    """调用示例: Fill(leftMatrix, {1, mLength * kLength * sizeof(float) / 32, 0, 1}) — "给leftMatrix填充
    mLength * kLength长度的数据为1，按32B的颗粒度进行填充" (an L1 tensor; 32-B blocks)."""
    core = Core("a2")
    m = k = 16
    left = core.tensor("A1", "float", 2 * m * k)
    core.init_const_value(left, InitConstValueParams(1, m * k * 4 // 32, 0, 1))
    got = left.read()
    assert (got[: m * k] == 1.0).all()
    assert (left.bytes()[m * k * 4 :] == MARKER).all()  # one repeat of 32 blocks, nothing more


def test_doc_figure1_l1_repeat5_block3_gap5():
    """功能说明 图1: "repeatTimes=5表示按照行方向迭代5次，
    blockNum=3表示每次repeat对列方向的3块32Byte数据块清0，
    dstGap=5表示相邻repeat之间间隔5个数据块" (L1)."""
    core = Core("a2")
    t = core.tensor("B1", "half", 40 * 16, data=np.full(640, 7.0))
    core.init_const_value(t, InitConstValueParams(5, 3, 5, 0))
    blocks = t.read().reshape(40, 16)
    zero = _blocks_written(5, 3, 5)
    assert zero == [0, 1, 2, 8, 9, 10, 16, 17, 18, 24, 25, 26, 32, 33, 34]
    for b in range(40):
        assert (blocks[b] == (0 if b in zero else 7)).all(), b


def test_doc_figure2_l0a_repeat5_block2_gap3():
    """图2: L0A, "blockNum=2表示每次repeat对列方向的2块512Byte数据块清0，
    dstGap=3表示相邻repeat之间间隔3个数据块"."""
    core = Core("a2")
    t = core.tensor("A2", "half", 25 * 256, data=np.full(25 * 256, -1.0))
    core.init_const_value(t, InitConstValueParams(5, 2, 3, 0))
    blocks = t.read().reshape(25, 256)
    zero = set(_blocks_written(5, 2, 3))
    for b in range(25):
        assert (blocks[b] == (0 if b in zero else -1)).all(), b


@pytest.mark.parametrize("p", [InitConstValueParams(0, 4, 0, 1), InitConstValueParams(4, 0, 0, 1)],
                         ids=["repeatTimes0", "blockNum0"])
def test_zero_repeat_or_block_is_a_nop(p):
    """表3: "repeatTimes = 0 / blockNum = 0表示不执行，该指令将被视为NOP"."""
    core = Core("a2")
    t = core.tensor("A1", "half", 1024)
    assert core.init_const_value(t, p).bytes_written == 0
    assert (t.bytes() == MARKER).all()


@pytest.mark.parametrize("name", ["repeatTimes", "blockNum", "dstGap"])
def test_ranges_32767(name):
    """表3: every field ∈ [0, 32767] (CheckInitConstValueParams checks the same)."""
    core = Core("a2")
    t = core.tensor("A1", "half", 1024)
    p = InitConstValueParams(1, 1, 0, 0)
    setattr(p, name, 32768)
    with pytest.raises(ParamRangeError, match=rf"^Fill: {name} must be in \[0, 32767\], but got 32768"):
        core.init_const_value(t, p)
    assert (t.bytes() == MARKER).all()


# ============================================================ chips, positions, dtypes, alignment


@pytest.mark.parametrize("chip,pos,dtype,ok", [
    ("a2", "A1", "half", True), ("a2", "A2", "float", True), ("a2", "B2", "int32_t", True),
    ("a3", "B1", "bfloat16_t", True), ("atlas200i500a2", "A2", "uint16_t", True),
    ("ascend950", "A1", "float", True), ("ascend950", "A2", "half", False),
    ("ascend950", "B2", "half", False),
    ("training", "A2", "half", True), ("training", "A1", "half", False), ("training", "A2", "int16_t", False),
    ("inference_aicore", "A1", "int16_t", True), ("inference_aicore", "A2", "float", False),
    ("kirin_x90", "A1", "int8_t", True), ("kirin_9030", "A1", "int8_t", False), ("a2", "A1", "int8_t", False),
])  # fmt: skip
def test_chip_positions_and_dtypes(chip, pos, dtype, ok):
    """Fill.md 数据类型 id10-id17 and 约束说明 (950: L1 only, id20); the training series has no L1 form
    (dav_c100 InitL1BufferCal reports it unsupported)."""
    core = Core(chip)
    t = core.tensor(pos, dtype, 2048)
    if ok:
        core.init_const_value(t, InitConstValueParams(1, 1, 0, 1))
        return
    with pytest.raises(UnsupportedError, match=r"^Fill: (dst must be in|dtype )"):
        core.init_const_value(t, InitConstValueParams(1, 1, 0, 1))
    assert (t.bytes() == MARKER).all()


# (chip, position, dtype, length, params, exception, message pattern)
REFUSALS = [
    pytest.param("ascend950", "A2", "half", 256, InitConstValueParams(1, 1, 0, 0), UnsupportedError,
                 r"the C\+\+ API rejects this: InitL0ANzMatrixCal", id="950-L0A-names-the-C++-check"),
    # dav_m200 InitL1BufferCal: ASCENDC_CHECK_VALUE_RANGE(repeatTimes, 0, UINT8_MAX)
    pytest.param("inference_aicore", "A1", "half", 256, InitConstValueParams(256, 1, 0, 0), ParamRangeError,
                 r"^Fill: repeatTimes must be in \[0, 255\], but got 256", id="310P-repeatTimes-256"),
    pytest.param("a2", "A1", "int16_t", 64, InitConstValueParams(1, 1, 0, 70000), ParamRangeError,
                 r"^Fill: initValue must be representable as int16_t", id="initValue-70000-int16"),
]


@pytest.mark.parametrize(("chip", "pos", "dtype", "n", "params", "exc", "match"), REFUSALS)
def test_refusals(chip: str, pos: str, dtype: str, n: int, params, exc, match: str):
    core = Core(chip)
    with pytest.raises(exc, match=match):
        core.init_const_value(core.tensor(pos, dtype, n), params)


@pytest.mark.parametrize("pos,align", [("A1", 32), ("A2", 512), ("B2", 512)])
def test_alignment(pos, align):
    """约束说明: L0A/L0B 512-B aligned, L1 32-B aligned (FillImpl CheckTensorAlign)."""
    core = Core("a2")
    t = core.tensor(pos, "half", 4096)
    with pytest.raises(AlignmentError, match=rf"^Fill: dst \(\w+\) address must be {align}-byte aligned"):
        core.init_const_value(t[8], InitConstValueParams(1, 1, 0, 0))
    core.init_const_value(t[align // 2], InitConstValueParams(1, 1, 0, 0))


def test_repeat_only_form_310p_and_training():
    """约束说明 id18/id19: only repeatTimes and initValue; "每次迭代处理固定数据量（512字节），迭代间无间隔" —
    blockNum and dstGap are not read (the report notes divergence F2)."""
    for chip, pos in (("inference_aicore", "A1"), ("training", "B2")):
        core = Core(chip)
        t = core.tensor(pos, "half", 4 * 256)
        report = core.init_const_value(t, InitConstValueParams(3, 7, 9, 2.5))
        got = t.read()
        assert (got[: 3 * 256] == 2.5).all() and (t.bytes()[3 * 512 :] == MARKER).all()
        assert report.notes == ["F2"]
    assert REPEAT_ONLY == {"training", "inference_aicore"}


# ============================================================ values


def test_value_bit_patterns():
    """The C++ API passes initValue's bits (GetScalarBitcodeToHalf / GetScalarBitcodeValue): int16 -1 is
    0xFFFF, float -0.0 is 0x80000000, and `Bits` stores a pattern as is (half -inf 0xFC00)."""
    core = Core("a2")
    for dtype, value, raw in (("int16_t", -1, 0xFFFF), ("uint16_t", 65535, 0xFFFF),
                              ("float", -0.0, 0x80000000),
                              ("half", Bits(0xFC00), 0xFC00), ("bfloat16_t", 1.0, 0x3F80)):
        t = core.tensor("A1", dtype, 64)
        core.init_const_value(t, InitConstValueParams(1, 1, 0, value))  # one 32-B block
        n = 32 * 8 // t.dtype.bits
        assert (t.read_raw()[:n] == raw).all(), dtype


def test_past_tensor_is_a_hazard_strict_error():
    core = Core("a2")
    t = core.tensor("A1", "half", 16)  # 32 B; the call writes 64 B
    with pytest.warns(HazardWarning, match="^Fill: writes 64 B"):
        core.init_const_value(t, InitConstValueParams(1, 2, 0, 0))
    strict = Core("a2", strict=True)
    t = strict.tensor("A1", "half", 16)
    with pytest.raises(HazardError, match="^Fill: writes 64 B"):
        strict.init_const_value(t, InitConstValueParams(1, 2, 0, 0))
    assert (t.bytes() == MARKER).all()
    assert not issubclass(HazardError, DocConflictError)


# ============================================================ fast path == reference


@settings(max_examples=40, deadline=None)
@given(chip=st.sampled_from(["a2", "inference_aicore", "ascend950"]), pos=st.sampled_from(["A1", "A2"]),
       dtype=st.sampled_from(["half", "int16_t", "uint16_t"]), repeat=st.integers(0, 6),
       blocks=st.integers(0, 4), gap=st.integers(0, 3), value=st.integers(-3, 3))
def test_fast_equals_reference(chip, pos, dtype, repeat, blocks, gap, value):
    if chip == "ascend950":
        pos = "A1"
    core = Core(chip)
    t = core.tensor(pos, dtype, 16384)
    before = t.bytes().copy()
    if dtype == "uint16_t":
        value = abs(value)
    p = InitConstValueParams(repeat, blocks, gap, value)
    core.init_const_value(t, p)
    pattern = np.array([value], dtype=t.dtype.value_dtype).view(np.uint8).tobytes()
    exp = reference_fill(t.memory.name, chip in REPEAT_ONLY, p, before, pattern)
    np.testing.assert_array_equal(t.bytes(), exp)
    assert BLOCK[t.memory.name] in (32, 512)


# ============================================================ kernels transliterated


def test_official_fill_example_a2_l0a_l0b():
    """fill.asc on Atlas A2 (__NPU_ARCH__ 2201): Fill L0A (M*K*2/512 blocks of 1) and L0B, Mmad M=128 N=64
    K=128,
    Fixpipe NZ2ND float; gen_data.py's golden is ones(128,128) @ ones(128,64) = 128 everywhere."""
    m, n, k = 128, 64, 128
    core = Core("a2")
    a2 = core.tensor("A2", "half", m * k, offset=0)
    b2 = core.tensor("B2", "half", k * n, offset=0)
    co1 = core.tensor("CO1", "float", m * n, offset=0)
    core.init_const_value(a2, InitConstValueParams(1, m * k * 2 // 512, 0, 1.0))
    core.init_const_value(b2, InitConstValueParams(1, k * n * 2 // 512, 0, 1.0))
    core.mmad(co1, a2, b2, MmadParams(m, n, k))
    out = core.global_tensor("float", m * n)
    core.fixpipe(out, co1, FixpipeParamsV220(n, m, m, n, ndNum=1, srcNdStride=2, dstNdStride=m * n))
    golden = np.ones((m, k), np.float32) @ np.ones((k, n), np.float32)
    np.testing.assert_array_equal(out.read().reshape(m, n), golden)


def test_official_fill_example_950_via_l1():
    """fill.asc on 950: no L0A/L0B fill instruction, so Fill A1/B1 ({1, M*K*2/32, 0, 1}) and
    LoadData2DParamsV2
    into L0A / L0B (B with ifTranspose), then the same Mmad and golden."""
    m, n, k = 128, 64, 128
    core = Core("ascend950")
    a1 = core.tensor("A1", "half", m * k)
    b1 = core.tensor("B1", "half", k * n)
    core.init_const_value(a1, InitConstValueParams(1, m * k * 2 // 32, 0, 1))
    core.init_const_value(b1, InitConstValueParams(1, k * n * 2 // 32, 0, 1))
    a2 = core.tensor("A2", "half", m * k)
    b2 = core.tensor("B2", "half", k * n)
    core.load_data(a2, a1, LoadData2DParamsV2(0, 0, m // 16, k * 2 // 32, m // 16, m // 16))
    n_align, k_align = n * 2 // 32, k // 16
    core.load_data(b2, b1, LoadData2DParamsV2(0, 0, k_align, n_align, k_align, n_align, ifTranspose=True))
    co1 = core.tensor("CO1", "float", m * n)
    core.mmad(co1, a2, b2, MmadParams(m, n, k))
    got = nz_to_nd(co1.read(), m, n, 16)
    np.testing.assert_array_equal(got, np.full((m, n), 128.0, np.float32))


def test_padded_tile_zero_filled_by_init_const_value():
    """The matmul scheduler pattern (copy_tile_to_cube_common.h): InitConstValue zeroes the L1 tile, then
    ND2NZ copies the valid 20 x 40 part; the 12 pad rows of the 32-row Nz tile are zeros, so an Mmad with
    m = 32 gives zero rows 20..31 — compared with numpy on the zero-padded A."""
    core = Core("a2")
    rng = np.random.default_rng(3)
    m, k, n, mp = 20, 48, 16, 32
    a = rng.integers(-4, 5, (m, k)).astype(np.float16)
    b = rng.integers(-4, 5, (k, n)).astype(np.float16)
    tile = core.tensor("A1", "half", mp * k)
    # InitConstValue(padTensor, {1, len / 32, 0, 0})
    core.init_const_value(tile, InitConstValueParams(1, mp * k * 2 // 32, 0, 0))
    gm = core.global_tensor("half", a)
    core.data_copy(tile, gm, Nd2NzParams(1, m, k, 0, k, mp, 1, 0))
    a_pad = np.zeros((mp, k), np.float16)
    a_pad[:m] = a
    np.testing.assert_array_equal(tile.read(), nd_to_nz(a_pad, 16))
    # the same tile without the fill keeps the marker in its pad rows
    raw_tile = core.tensor("A1", "half", mp * k)
    core.data_copy(raw_tile, gm, Nd2NzParams(1, m, k, 0, k, mp, 1, 0))
    assert (nz_to_nd(raw_tile.read_raw(), mp, k, 16)[m:] == MARKER * 0x101).all()
    # and Mmad over the padded rows: rows m.. are zero
    from ascsim.machine.layouts import nd_to_zn, nd_to_zz

    a2 = core.tensor("A2", "half", mp * k, data=nd_to_zz(nz_to_nd(tile.read(), mp, k, 16), 16))
    b2 = core.tensor("B2", "half", k * n, data=nd_to_zn(b, 16))
    c = core.tensor("CO1", "float", mp * n)
    core.mmad(c, a2, b2, MmadParams(mp, n, k))
    got = nz_to_nd(c.read(), mp, n, 16)
    np.testing.assert_array_equal(got, a_pad.astype(np.float32) @ b.astype(np.float32))
