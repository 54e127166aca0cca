"""LoadDataWithSparse + MmadWithSparse + the 4:2 densify/pack helpers.

References are independent of ascsim's code paths: literal bytes worked by hand from the doc example
(LoadDataWithSparse.md 功能说明, seed 004, 辅助矩阵分形格式详解.md "从高位到低位为1 0 2 1"), the densify
table typed in from 辅助矩阵分形格式详解.md, the selection table typed in from MmadWithSparse.md 表2,
numpy's dense int matmul, and slow loops written from the doc text.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from support.basis import assert_basis
from support.state import assert_memories_unchanged, memories

from ascsim.base.errors import AlignmentError, BoundsError, HazardError, ParamRangeError, UnsupportedError
from ascsim.core import Core
from ascsim.isa.sparse import (
    densify_2to4,
    load_data_with_sparse,
    mmad_with_sparse,
    pack_sparse_index,
    unpack_sparse_index,
)
from ascsim.machine.layouts import cdiv, nd_to_zn, nd_to_zz, nz_to_nd
from ascsim.params import LoadData2DParams, MmadParams

# -- helpers ----------------------------------------------------------------------------------------


def sparse_b(rng: np.random.Generator, k: int, n: int, max_nz: int = 2) -> np.ndarray:
    """Random int8 K x N with 0..max_nz nonzeros (values != 0) per group of 4 rows and column."""
    g = cdiv(k, 4)
    out = np.zeros((g * 4, n), dtype=np.int8)
    for gi in range(g):
        for ni in range(n):
            cnt = rng.integers(0, max_nz + 1)
            pos = rng.choice(4, cnt, replace=False)
            vals = rng.integers(1, 128, cnt) * rng.choice([-1, 1], cnt)
            out[gi * 4 + pos, ni] = vals
    return out[:k]


def run_sparse_matmul(core: Core, a: np.ndarray, b: np.ndarray, l0b_offset: int = 0,
                      params: MmadParams | None = None, a_fill: int = 0) -> np.ndarray:
    """densify -> L1 (Zn data + Zn index) -> LoadDataWithSparse -> MmadWithSparse -> C (m x n)."""
    m, k = a.shape
    n = b.shape[1]
    dense, codes = densify_2to4(b)
    zn = nd_to_zn(dense, 32)
    idx = pack_sparse_index(codes)
    assert zn.size == idx.size * 4
    b1 = core.tensor("B1", "int8_t", zn.size, data=zn)
    i1 = core.tensor("B1", "uint8_t", idx.size, data=idx)
    b2 = core.tensor("B2", "int8_t", zn.size, offset=l0b_offset)
    load_data_with_sparse(core, b2, b1, i1, LoadData2DParams(0, zn.size // 512))
    za = nd_to_zz(a, 32, fill=a_fill)
    a2 = core.tensor("A2", "int8_t", za.size, data=za)
    c1 = core.tensor("CO1", "int32_t", cdiv(m, 16) * 16 * cdiv(n, 16) * 16)
    mmad_with_sparse(core, c1, a2, b2, params or MmadParams(m, n, k))
    return nz_to_nd(c1.read(), m, n, 16)


# -- the doc's worked example: index packing ---------------------------------------------------------


def test_seed_example_index_bytes_in_buffer():
    # Seed 004 / LoadDataWithSparse.md: indices 1 2 0 1 | 0 2 1 0 are laid out in the address as
    # "1 0 2 1" and "0 1 2 0"; 辅助矩阵分形格式详解.md says that order reads from the high bits to the low
    # bits. As 2-bit digits MSB first: 01 00 10 01 = 0x49 and 00 01 10 00 = 0x18.
    codes = np.array([1, 2, 0, 1, 0, 2, 1, 0], dtype=np.uint8)[:, None]  # dense rows 0..7 of column 0
    packed = pack_sparse_index(codes)
    assert packed.size == 128  # one 16 x 8-byte index fractal
    assert packed[0] == 0x49 and packed[1] == 0x18
    assert not packed[2:].any()
    core = Core("a2")
    i1 = core.tensor("B1", "uint8_t", 128, offset=4096, data=packed)
    b1 = core.tensor("B1", "int8_t", 512, offset=0, data=np.arange(512) % 100)
    b2 = core.tensor("B2", "int8_t", 512, offset=2048)
    load_data_with_sparse(core, b2, b1, i1, LoadData2DParams(0, 1))
    buf = core.memory("SPARSE_IDX").data
    # Index-buffer offset = L0B offset / 4 = 512 (ascsim's choice, docs/divergences.md S2).
    assert buf[512] == 0x49 and buf[513] == 0x18
    assert (buf[514:640] == 0).all()
    assert (buf[:512] == 0xCD).all() and (buf[640:] == 0xCD).all()
    assert np.array_equal(core.memory("L0B").data[2048:2560], np.arange(512) % 100)


def test_pack_index_position_by_hand():
    # Kd = 40, N = 20: N1 = 2. Code of (kd 37, n 18): fractal (37//32)*2 + 18//16 = 3 -> byte
    # 3*128 + (18%16)*8 + (37%32)//4 = 384 + 16 + 1 = 401, bits [3:2] (37 % 4 = 1).
    codes = np.zeros((40, 20), dtype=np.uint8)
    codes[37, 18] = 2
    packed = pack_sparse_index(codes)
    assert packed.size == 2 * 2 * 128
    expected = np.zeros(512, dtype=np.uint8)
    expected[401] = 0b1000
    assert np.array_equal(packed, expected)


def test_pack_unpack_round_trip():
    rng = np.random.default_rng(1)
    codes = rng.integers(0, 3, (70, 37)).astype(np.uint8)
    assert np.array_equal(unpack_sparse_index(pack_sparse_index(codes), 70, 37), codes)


# -- densify: the doc table ------------------------------------------------------------------------

# (group B elements 0..3, index 0, index 1, dense slot 0, dense slot 1) from 辅助矩阵分形格式详解.md.
DENSIFY_TABLE = [
    ((0, 0, 5, 7), 0b10, 0b10, 5, 7),
    ((0, 5, 0, 7), 0b01, 0b10, 5, 7),
    ((5, 0, 0, 7), 0b00, 0b10, 5, 7),
    ((0, 5, 7, 0), 0b01, 0b01, 5, 7),
    ((5, 0, 7, 0), 0b00, 0b01, 5, 7),
    ((5, 7, 0, 0), 0b00, 0b00, 5, 7),
    ((0, 0, 0, 5), 0b00, 0b10, 0, 5),
    ((0, 0, 5, 0), 0b10, 0b00, 5, 0),
    ((0, 5, 0, 0), 0b01, 0b00, 5, 0),
    ((5, 0, 0, 0), 0b00, 0b00, 5, 0),
    ((0, 0, 0, 0), 0b00, 0b00, 0, 0),
]


def test_densify_matches_doc_table():
    b = np.array([row[0] for row in DENSIFY_TABLE], dtype=np.int8).T  # 4 x 11: one group per column
    dense, codes = densify_2to4(b)
    assert np.array_equal(codes, np.array([[r[1] for r in DENSIFY_TABLE], [r[2] for r in DENSIFY_TABLE]]))
    assert np.array_equal(dense, np.array([[r[3] for r in DENSIFY_TABLE], [r[4] for r in DENSIFY_TABLE]]))


def test_densify_overfull_groups():
    b = np.array([[3], [0], [4], [5]], dtype=np.int8)
    with pytest.raises(ParamRangeError, match=r"^densify_2to4: b must have at most 2 nonzeros"):
        densify_2to4(b)
    dense, codes = densify_2to4(b, allow_overfull=True)  # first two nonzeros (MmadWithSparse.md 约束说明)
    assert dense[:, 0].tolist() == [3, 4] and codes[:, 0].tolist() == [0, 1]
    with pytest.raises(ParamRangeError, match=r"^densify_2to4: b must have dtype int8"):
        densify_2to4(b.astype(np.int16))
    with pytest.raises(ParamRangeError, match=r"^pack_sparse_index: codes must be in 0..2"):
        pack_sparse_index(np.full((4, 4), 3))


# -- end to end: sparse matmul == dense numpy matmul ------------------------------------------------


@pytest.mark.parametrize("m,k,n", [(16, 64, 16), (128, 64, 128), (20, 72, 40), (1, 32, 16), (33, 256, 17),
                                   (5, 6, 3), (16, 130, 48)])
def test_sparse_matmul_equals_dense(m, k, n):
    rng = np.random.default_rng(m * 10007 + k * 101 + n)
    a = rng.integers(-128, 128, (m, k)).astype(np.int8)
    b = sparse_b(rng, k, n)
    got = run_sparse_matmul(Core("a3"), a, b, a_fill=77)  # nonzero A padding must be ignored
    assert np.array_equal(got, a.astype(np.int64) @ b.astype(np.int64))


def test_sparse_matmul_extreme_values_and_offset():
    rng = np.random.default_rng(7)
    m, k, n = 32, 128, 32
    a = np.full((m, k), -128, dtype=np.int8)
    b = np.zeros((k, n), dtype=np.int8)
    b[0::4] = -128
    b[3::4] = -128
    got = run_sparse_matmul(Core("a2"), a, b, l0b_offset=8192)
    assert np.array_equal(got, a.astype(np.int64) @ b.astype(np.int64))
    a = rng.integers(-128, 128, (m, k)).astype(np.int8)
    b = sparse_b(rng, k, n)
    assert np.array_equal(run_sparse_matmul(Core("a2"), a, b, l0b_offset=512),
                          a.astype(np.int64) @ b.astype(np.int64))


def test_split_loads_with_start_index():
    # Load the two K fractal rows of B with two calls (startIndex = N1 for the second half).
    rng = np.random.default_rng(3)
    m, k, n = 16, 128, 32  # Kd = 64 -> 2 x 2 B fractals
    a = rng.integers(-128, 128, (m, k)).astype(np.int8)
    b = sparse_b(rng, k, n)
    dense, codes = densify_2to4(b)
    zn, idx = nd_to_zn(dense, 32), pack_sparse_index(codes)
    core = Core("a2")
    b1 = core.tensor("B1", "int8_t", zn.size, data=zn)
    i1 = core.tensor("B1", "uint8_t", idx.size, data=idx)
    b2 = core.tensor("B2", "int8_t", zn.size)
    load_data_with_sparse(core, b2, b1, i1, LoadData2DParams(0, 2))
    load_data_with_sparse(core, b2[1024], b1, i1, LoadData2DParams(2, 2, 7, 0, 3))  # strides ignored
    a2 = core.tensor("A2", "int8_t", m * k, data=nd_to_zz(a, 32))
    c1 = core.tensor("CO1", "int32_t", 16 * 32)
    mmad_with_sparse(core, c1, a2, b2, MmadParams(m, n, k))
    assert np.array_equal(nz_to_nd(c1.read(), m, n, 16), a.astype(np.int64) @ b.astype(np.int64))


def test_accumulate_bias_and_isbias():
    rng = np.random.default_rng(5)
    m, k, n = 16, 64, 16
    a = rng.integers(-128, 128, (m, k)).astype(np.int8)
    b = sparse_b(rng, k, n)
    ref = a.astype(np.int64) @ b.astype(np.int64)
    core = Core("a2")
    run_sparse_matmul(core, a, b)
    a2 = core.tensor("A2", "int8_t", m * k, offset=0)  # same places run_sparse_matmul used
    b2 = core.tensor("B2", "int8_t", k // 2 * n, offset=0)
    c1 = core.tensor("CO1", "int32_t", 256, offset=0)
    mmad_with_sparse(core, c1, a2, b2, MmadParams(m, n, k, cmatrixInitVal=False))  # C += A.B
    assert np.array_equal(nz_to_nd(c1.read(), m, n, 16), 2 * ref)
    mmad_with_sparse(core, c1, a2, b2, MmadParams(m, n, k, True))  # isBias=true accumulates too
    assert np.array_equal(nz_to_nd(c1.read(), m, n, 16), 3 * ref)
    bias = rng.integers(-1000, 1000, n).astype(np.int32)
    core.tensor("C2", "int32_t", n, offset=0, data=bias)
    mmad_with_sparse(core, c1, a2, b2, MmadParams(m, n, k, cmatrixSource=True, cmatrixInitVal=False))
    assert np.array_equal(nz_to_nd(c1.read(), m, n, 16), ref + bias[None, :])


def test_worked_single_group():
    # A row [1 2 3 4], B column (0 5 0 7): dense (5, 7), codes (1, 2) -> 2*5 + 4*7 = 38.
    a = np.zeros((16, 32), dtype=np.int8)
    a[0, :4] = [1, 2, 3, 4]
    b = np.zeros((32, 16), dtype=np.int8)
    b[:4, 0] = [0, 5, 0, 7]
    got = run_sparse_matmul(Core("a2"), a[:1], b[:, :1], params=MmadParams(1, 1, 4))
    assert got.tolist() == [[38]]


# -- the selection rule against 表2, including codes densify never emits --------------------------

# MmadWithSparse.md 表2: (index 0, index 1) -> A elements feeding dense slots 0 and 1 ("X/X" = both).
SELECT_TABLE = {(2, 2): (2, 3), (1, 2): (1, 3), (0, 2): (0, 3), (1, 1): (1, 2), (0, 1): (0, 2),
                (0, 0): (0, 1), (2, 0): (2, 2), (1, 0): (1, 1)}


def slow_mmad_reference(a: np.ndarray, dense: np.ndarray, codes: np.ndarray, k: int) -> np.ndarray:
    """C[m][n] = sum over groups of A[m][4g + e0] * Bd[2g][n] + A[m][4g + e1] * Bd[2g+1][n], (e0, e1) from
    表2; A columns >= k are padding (ignored)."""
    m, n = a.shape[0], dense.shape[1]
    c = np.zeros((m, n), dtype=np.int64)
    for mi in range(m):
        for ni in range(n):
            total = 0
            for g in range(dense.shape[0] // 2):
                e0, e1 = SELECT_TABLE[(int(codes[2 * g, ni]), int(codes[2 * g + 1, ni]))]
                for e, v in ((e0, dense[2 * g, ni]), (e1, dense[2 * g + 1, ni])):
                    if 4 * g + e < k:
                        total += int(a[mi, 4 * g + e]) * int(v)
            c[mi, ni] = total
    return c


@settings(max_examples=25, deadline=None)
@given(m=st.integers(1, 20), k=st.integers(1, 80), n=st.integers(1, 20), seed=st.integers(0, 2**32 - 1))
def test_mmad_arbitrary_codes_vs_table(m, k, n, seed):
    rng = np.random.default_rng(seed)
    kd = 2 * cdiv(k, 4)
    pairs = list(SELECT_TABLE)
    choice = rng.integers(0, len(pairs), (kd // 2, n))
    codes = np.zeros((kd, n), dtype=np.uint8)
    codes[0::2] = np.array([pairs[i][0] for i in choice.ravel()]).reshape(choice.shape)
    codes[1::2] = np.array([pairs[i][1] for i in choice.ravel()]).reshape(choice.shape)
    dense = rng.integers(-128, 128, (kd, n)).astype(np.int8)  # nonzero slot-1 values under (2,0) etc.
    a = rng.integers(-128, 128, (m, k)).astype(np.int8)
    core = Core("a2")
    zn, idx = nd_to_zn(dense, 32), pack_sparse_index(codes)
    b1 = core.tensor("B1", "int8_t", zn.size, data=zn)
    i1 = core.tensor("B1", "uint8_t", idx.size, data=idx)
    b2 = core.tensor("B2", "int8_t", zn.size)
    load_data_with_sparse(core, b2, b1, i1, LoadData2DParams(0, zn.size // 512))
    za = nd_to_zz(a, 32, fill=-3)
    a2 = core.tensor("A2", "int8_t", za.size, data=za)
    c1 = core.tensor("CO1", "int32_t", cdiv(m, 16) * cdiv(n, 16) * 256)
    mmad_with_sparse(core, c1, a2, b2, MmadParams(m, n, k))
    assert np.array_equal(nz_to_nd(c1.read(), m, n, 16), slow_mmad_reference(a, dense, codes, k))


# -- the load: fast path vs a slow loop from the doc text ------------------------------------------


def slow_load_reference(l1: np.ndarray, l0b: np.ndarray, idxbuf: np.ndarray, dst_off: int, src_off: int,
                        idx_off: int, start: int, rep: int) -> None:
    """"从源操作数src中第startIndex块数据分形开始搬运repeatTimes块连续的数据分形，从源操作数idx中第
    startIndex块index分形开始搬运repeatTimes块连续的index分形" (LoadDataWithSparse.md 图1)."""
    for i in range(rep):
        for j in range(512):
            l0b[dst_off + i * 512 + j] = l1[src_off + (start + i) * 512 + j]
        for j in range(128):
            idxbuf[dst_off // 4 + i * 128 + j] = l1[idx_off + (start + i) * 128 + j]


@settings(max_examples=40, deadline=None)
@given(start=st.integers(0, 40), rep=st.integers(0, 30), dst_frac=st.integers(0, 90),
       src_blk=st.integers(0, 200), idx_blk=st.integers(0, 200), seed=st.integers(0, 2**32 - 1))
def test_load_fast_vs_slow(start, rep, dst_frac, src_blk, idx_blk, seed):
    rng = np.random.default_rng(seed)
    core = Core("a2")
    l1 = core.memory("L1").data
    l1[:] = rng.integers(0, 256, l1.size, dtype=np.uint8)
    n_frac = start + rep
    src = core.tensor("B1", "int8_t", n_frac * 512, offset=src_blk * 32)
    idx = core.tensor("B1", "uint8_t", n_frac * 128, offset=200 * 32 + 71 * 512 + idx_blk * 32)
    dst = core.tensor("B2", "int8_t", rep * 512, offset=dst_frac * 512)
    exp_l0b = core.memory("L0B").data.copy()
    exp_idx = core.memory("SPARSE_IDX").data.copy()
    slow_load_reference(l1, exp_l0b, exp_idx, dst.offset, src.offset, idx.offset, start, rep)
    rpt = load_data_with_sparse(core, dst, src, idx, LoadData2DParams(start, rep))
    assert np.array_equal(core.memory("L0B").data, exp_l0b)
    assert np.array_equal(core.memory("SPARSE_IDX").data, exp_idx)
    assert rpt.bytes_written == rep * 640


# -- errors: message start pinned, memory untouched ------------------------------------------------


def _operands(core: Core, dst_off=0, src_off=0, idx_off=65536, dst_dt="int8_t", src_dt="int8_t",
              idx_dt="uint8_t", dst_pos="B2"):
    dst = core.tensor(dst_pos, dst_dt, 1024, offset=dst_off)
    src = core.tensor("B1", src_dt, 2048, offset=src_off, data=np.ones(2048))
    idx = core.tensor("B1", idx_dt, 512, offset=idx_off, data=np.ones(512))
    return dst, src, idx


LOAD_ERRORS = [
    ("repeat>255", {}, LoadData2DParams(0, 256), ParamRangeError,
     "LoadDataWithSparse: repeatTimes must be in [0, 255], but got 256"),
    ("start<0", {}, LoadData2DParams(-1, 1), ParamRangeError, "LoadDataWithSparse: startIndex must be in"),
    ("transpose", {}, LoadData2DParams(0, 1, ifTranspose=True), UnsupportedError,
     "LoadDataWithSparse: ifTranspose must be false"),
    ("src dtype", {"src_dt": "uint8_t"}, LoadData2DParams(0, 1), UnsupportedError,
     "LoadDataWithSparse: src dtype must be int8_t, but got uint8_t"),
    ("dst dtype", {"dst_dt": "half"}, LoadData2DParams(0, 1), UnsupportedError,
     "LoadDataWithSparse: dst dtype must be int8_t, but got half"),
    ("idx dtype", {"idx_dt": "int8_t"}, LoadData2DParams(0, 1), UnsupportedError,
     "LoadDataWithSparse: idx dtype must be uint8_t, but got int8_t"),
    ("dst pos", {"dst_pos": "A2"}, LoadData2DParams(0, 1), UnsupportedError,
     "LoadDataWithSparse: dst must be in L0B"),
    ("dst align", {"dst_off": 256}, LoadData2DParams(0, 1), AlignmentError,
     "LoadDataWithSparse: dst (L0B) address must be 512-byte aligned"),
    ("src align", {"src_off": 16}, LoadData2DParams(0, 1), AlignmentError,
     "LoadDataWithSparse: src (L1) address must be 32-byte aligned"),
    ("idx align", {"idx_off": 65536 + 48}, LoadData2DParams(0, 1), AlignmentError,
     "LoadDataWithSparse: idx (L1) address must be 32-byte aligned"),
]


@pytest.mark.parametrize("kw,params,exc,msg", [e[1:] for e in LOAD_ERRORS], ids=[e[0] for e in LOAD_ERRORS])
def test_load_errors(kw, params, exc, msg):
    core = Core("a2")
    dst, src, idx = _operands(core, **kw)
    snap = memories(core)
    with pytest.raises(exc) as ei:
        load_data_with_sparse(core, dst, src, idx, params)
    assert str(ei.value).startswith(msg), str(ei.value)
    assert_basis(ei.value)
    assert_memories_unchanged(core, snap)


@pytest.mark.parametrize("chip", ["ascend950", "training", "atlas200i500a2"])
def test_load_unsupported_chip(chip):
    core = Core(chip)
    dst = core.tensor("B2", "int8_t", 512)
    src = core.tensor("B1", "int8_t", 512, data=np.ones(512))
    idx = core.tensor("B1", "uint8_t", 128, data=np.ones(128))
    snap = memories(core)
    with pytest.raises(UnsupportedError,
                       match=r"^LoadDataWithSparse: API LoadDataWithSparse is not supported"):
        load_data_with_sparse(core, dst, src, idx, LoadData2DParams(0, 1))
    assert_memories_unchanged(core, snap)


def test_load_nop_and_bounds_leave_memory_untouched():
    core = Core("a2")
    dst, src, idx = _operands(core)
    snap = memories(core)
    assert load_data_with_sparse(core, dst, src, idx, LoadData2DParams(5, 0)).bytes_written == 0
    assert_memories_unchanged(core, snap)
    # Data source in range, index source past the end of L1: nothing at all may be written.
    l1 = core.memory("L1").size
    idx_end = core.tensor("B1", "uint8_t", 128, offset=l1 - 128)
    with pytest.raises(BoundsError, match=r"^LoadDataWithSparse: source"):
        load_data_with_sparse(core, dst, src, idx_end, LoadData2DParams(0, 2))
    assert_memories_unchanged(core, snap)
    # Destination past the end of L0B.
    dst_end = core.tensor("B2", "int8_t", 512, offset=core.memory("L0B").size - 512)
    with pytest.raises(BoundsError, match=r"^LoadDataWithSparse: destination"):
        load_data_with_sparse(core, dst_end, src, idx, LoadData2DParams(0, 2))
    assert_memories_unchanged(core, snap)


def test_load_strict_hazard_on_index_source_writes_nothing():
    core = Core("a2", strict=True)
    dst, src, _ = _operands(core)
    small_idx = core.tensor("B1", "uint8_t", 128, offset=65536)  # 2 fractals read, 1 owned
    snap = memories(core)
    with pytest.raises(HazardError, match=r"^LoadDataWithSparse: reads 256 B"):
        load_data_with_sparse(core, dst, src, small_idx, LoadData2DParams(0, 2))
    assert_memories_unchanged(core, snap)


def _mmad_operands(core: Core, c_dt="int32_t", a_dt="int8_t", b_dt="int8_t", c_off=0):
    a = core.tensor("A2", a_dt, 1024, offset=0, data=np.ones(1024))  # m x k = 16 x 64
    b = core.tensor("B2", b_dt, 512, offset=0, data=np.ones(512))
    core.memory("SPARSE_IDX").data[:128] = 0
    c = core.tensor("CO1", c_dt, 256, offset=c_off)
    return c, a, b


MMAD_ERRORS = [
    ("kalign", {}, MmadParams(16, 16, 64, kDirectionAlign=True), UnsupportedError,
     "MmadWithSparse: kDirectionAlign must be false"),
    ("m range", {}, MmadParams(4096, 16, 64), ParamRangeError,
     "MmadWithSparse: m must be in [0, 4095], but got 4096"),
    ("unitFlag", {}, MmadParams(16, 16, 64, unitFlag=1), ParamRangeError,
     "MmadWithSparse: unitFlag must be 0, 2 or 3"),
    ("c dtype", {"c_dt": "float"}, MmadParams(16, 16, 64), UnsupportedError,
     "MmadWithSparse: dst (C) dtype must be int32_t"),
    ("a dtype", {"a_dt": "uint8_t"}, MmadParams(16, 16, 64), UnsupportedError,
     "MmadWithSparse: fm (A) dtype must be int8_t"),
    ("c align", {"c_off": 512}, MmadParams(16, 16, 64), AlignmentError,
     "MmadWithSparse: dst (C) address must be 1024-byte aligned"),
]


@pytest.mark.parametrize("kw,params,exc,msg", [e[1:] for e in MMAD_ERRORS], ids=[e[0] for e in MMAD_ERRORS])
def test_mmad_errors(kw, params, exc, msg):
    core = Core("a2")
    c, a, b = _mmad_operands(core, **kw)
    snap = memories(core)
    with pytest.raises(exc) as ei:
        mmad_with_sparse(core, c, a, b, params)
    assert str(ei.value).startswith(msg), str(ei.value)
    assert_basis(ei.value)
    assert_memories_unchanged(core, snap)


def test_mmad_unsupported_chip_nop_and_bad_index():
    core = Core("ascend950")
    c, a, b = _mmad_operands_950(core)
    with pytest.raises(UnsupportedError, match=r"^MmadWithSparse: API MmadWithSparse is not supported"):
        mmad_with_sparse(core, c, a, b, MmadParams(16, 16, 64))
    core = Core("a2")
    c, a, b = _mmad_operands(core)
    snap = memories(core)
    for p in (MmadParams(0, 16, 64), MmadParams(16, 0, 64), MmadParams(16, 16, 0)):
        assert mmad_with_sparse(core, c, a, b, p).bytes_written == 0
    assert_memories_unchanged(core, snap)
    # An index buffer never loaded holds the 0xCD marker: code 3 (0b11) is out of range.
    core.memory("SPARSE_IDX").data[:] = 0xCD
    snap = memories(core)
    with pytest.raises(ParamRangeError, match=r"^MmadWithSparse: sparse index code of dense element"):
        mmad_with_sparse(core, c, a, b, MmadParams(16, 16, 64))
    assert_memories_unchanged(core, snap)


def _mmad_operands_950(core: Core):
    a = core.tensor("A2", "int8_t", 512)
    b = core.tensor("B2", "int8_t", 512)
    c = core.tensor("CO1", "int32_t", 256)
    return c, a, b
