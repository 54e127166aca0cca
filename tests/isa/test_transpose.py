"""LoadDataWithTranspose (V1 / V2 params): the doc's worked examples, its call examples, the reference
interpreter against the fast path, and every documented constraint.

Expected destinations are built with numpy straight from the doc's wording (LoadDataWithTranspose.md
功能说明 / 分形转置; seed 002): "n consecutive fractals are merged into one square matrix (stacked, or
side by side for b32), transposed, and split into n fractals" = np.vstack/np.hstack, .T, np.vsplit/hsplit.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from support.basis import assert_basis
from support.state import assert_memories_unchanged, memories

from ascsim import Core
from ascsim.base.errors import (
    AlignmentError,
    BoundsError,
    HazardError,
    HazardWarning,
    ParamRangeError,
    UnsupportedError,
)
from ascsim.engine.boundary import execute
from ascsim.isa.transpose import load_data_with_transpose, plan_transpose, ref_load_data_with_transpose
from ascsim.machine.memory import LocalTensor
from ascsim.params import LoadData2DParams
from ascsim.params import LoadData2dTransposeParams as P1
from ascsim.params import LoadData2dTransposeParamsV2 as P2

BITS = {"int4b_t": 4, "int8_t": 8, "uint8_t": 8, "half": 16, "bfloat16_t": 16, "float": 32, "int32_t": 32,
        "uint32_t": 32}
FRAC_SHAPE = {4: (16, 64), 8: (16, 32), 16: (16, 16), 32: (16, 8)}  # docs/layouts.md fractal table
NF = {4: 4, 8: 2, 16: 1, 32: 2}  # fractals per square (doc 分形转置)
RAW_MAX = {4: 16, 8: 256, 16: 1 << 16, 32: 1 << 32}
L0B_FRACS = 128
E = "^LoadDataWithTranspose: "  # every message starts with the instruction name


# -- helpers --------------------------------------------------------------------------------------------


def elems_per_frac(bits: int) -> int:
    return 4096 // bits


def make(chip: str, dtype: str, n_src_fracs: int, src_pos: str = "B1", dst_pos: str = "B2", seed: int = 0,
         n_dst_fracs: int = L0B_FRACS):
    """Core with a random source of `n_src_fracs` fractals and a marker-filled destination."""
    core = Core(chip)
    bits = BITS[dtype]
    e = elems_per_frac(bits)
    src = core.tensor(src_pos, dtype, n_src_fracs * e)
    raw = np.random.default_rng(seed).integers(0, RAW_MAX[bits], n_src_fracs * e, dtype=np.uint64)
    src.write_raw(raw.astype(src.dtype.raw_dtype))
    dst = core.tensor(dst_pos, dtype, n_dst_fracs * e)
    return core, src, dst


def fractal(raw: np.ndarray, f: int, bits: int) -> np.ndarray:
    rows, cols = FRAC_SHAPE[bits]
    return raw[f * rows * cols : (f + 1) * rows * cols].reshape(rows, cols)


def doc_transpose(fracs: list[np.ndarray], bits: int) -> list[np.ndarray]:
    """The doc's square-matrix transpose: merge, transpose, split."""
    if bits == 32:  # "2个连续的16*8分形将被合并为1个16*16的方块矩阵 ... 分裂为2个16*8分形"
        return np.hsplit(np.hstack(fracs).T, 2)
    return np.vsplit(np.vstack(fracs).T, len(fracs))


def expected(init: np.ndarray, src_raw: np.ndarray, bits: int, moves) -> np.ndarray:
    """`moves` = [(source fractal list, destination fractal list)] per iteration, in program order."""
    out = init.copy()
    e = elems_per_frac(bits)
    for src_f, dst_f in moves:
        outs = doc_transpose([fractal(src_raw, f, bits) for f in src_f], bits)
        for d, block in zip(dst_f, outs, strict=True):
            out[d * e : (d + 1) * e] = block.ravel()
    return out


# -- the worked examples (功能说明; seed 002) ------------------------------------------------------------


@pytest.mark.parametrize(
    "dtype,nbytes,dst_gap,dst_frac_gap,dst_fracs",
    [
        ("int8_t", 3072, 1, 0, [[0, 1], [2, 3], [4, 5]]),
        ("int8_t", 3072, 0, 2, [[0, 3], [1, 4], [2, 5]]),
        ("half", 1536, 0, 0, [[0], [1], [2]]),
        ("float", 3072, 1, 0, [[0, 1], [2, 3], [4, 5]]),
        ("float", 3072, 0, 2, [[0, 3], [1, 4], [2, 5]]),
        ("int4b_t", 6144, 0, 2, [[0, 3, 6, 9], [1, 4, 7, 10], [2, 5, 8, 11]]),
    ],
    ids=["int8-gap1", "int8-fracgap2", "half", "float-gap1", "float-fracgap2", "int4-fracgap2"],
)
def test_worked_example(dtype, nbytes, dst_gap, dst_frac_gap, dst_fracs) -> None:
    """repeatTimes = 3, srcStride = 1 (one square), the listed destination fractals and nothing else."""
    bits = BITS[dtype]
    n_frac = nbytes // 512
    core, src, dst = make("a2", dtype, n_frac)
    init = dst.read_raw()
    rep = load_data_with_transpose(core, dst, src, P1(0, 3, 1, dst_gap, dst_frac_gap))
    nf = NF[bits]
    moves = [(list(range(i * nf, (i + 1) * nf)), dst_fracs[i]) for i in range(3)]
    want = expected(init, src.read_raw(), bits, moves)
    np.testing.assert_array_equal(dst.read_raw(), want)
    assert sorted(f for d in dst_fracs for f in d) == list(range(n_frac))  # "共需要处理 nbytes"
    assert rep.bytes_written == nbytes


def test_int4_example_with_dstgap1_overlaps() -> None:
    """The doc's first int4 example (功能和参数讲解) copies the int8 settings: "共需要处理6144字节的数据，每次
    迭代处理64*64*0.5字节数据，需要3次迭代", dstGap 1, dstFracGap 0. The byte count fixes 4 fractals (2048 B)
    per iteration — the 64x64 reading (T2); a one-fractal 16x64 reading (表3's "每次迭代处理16*64*0.5字节")
    would process 1536 B. With 4 fractals per iteration, iteration i writes fractals 2i..2i+3, so iterations
    overlap by two fractals, which 约束说明 forbids. Executed in program order (the last write wins), the
    result is 8 fractals: 0-1 from square 0, 2-3 from square 1, 4-7 from square 2; a HazardWarning names the
    collision; strict -> HazardError before any write (divergences T5, T9)."""
    core, src, dst = make("a2", "int4b_t", 12)
    init = dst.read_raw()
    with pytest.warns(HazardWarning, match=E + r"dstGap=1 with dstFracGap=0 writes 4 destination "
                      r"fractal\(s\) more than once: fractal 2 by iteration 0 fractal 2 and iteration 1 "
                      r"fractal 0; executed in program order, the last write wins"):
        rep = load_data_with_transpose(core, dst, src, P1(0, 3, 1, 1, 0))
    moves = [([4 * i + j for j in range(4)], [2 * i + j for j in range(4)]) for i in range(3)]
    np.testing.assert_array_equal(dst.read_raw(), expected(init, src.read_raw(), 4, moves))
    assert rep.notes == ["T9"]
    strict, src2, dst2 = make("a2", "int4b_t", 12)
    strict.strict = True
    raises_untouched(strict, HazardError, E + r"dstGap=1 with dstFracGap=0 writes",
                     lambda: load_data_with_transpose(strict, dst2, src2, P1(0, 3, 1, 1, 0)))


@pytest.mark.parametrize("version", ["V1", "V2"])
def test_overlap_program_order_matches_the_reference_and_plan(version: str) -> None:
    """Overlapping fractals (dstGap 0 for int8: iteration i writes fractals i, i+1): the square executor,
    the generic plan executor and the doc-loop reference agree — later iterations overwrite earlier ones."""
    chip = "a2" if version == "V1" else "ascend950"
    core, src, dst = make(chip, "int8_t", 12)
    p = P1(0, 4, 1, 0, 0) if version == "V1" else P2(0, 4, 2, 0, 0, 0)
    init = dst.read_raw()
    with pytest.warns(HazardWarning, match=E + r"dstGap=0 with dstFracGap=0 writes 3 destination"):
        rep = load_data_with_transpose(core, dst, src, p)
    want = ref_load_data_with_transpose(8, p, src.read_raw(), init)
    np.testing.assert_array_equal(dst.read_raw(), want)
    core2, src2, dst2 = make(chip, "int8_t", 12)
    execute(rep.plan, dst2, src2)
    np.testing.assert_array_equal(dst2.read_raw(), want)


def test_int4_packing_example() -> None:
    """分形转置: int4 6 and 7 pack into one byte as 0111_0110 = 118 (7 high, 6 low)."""
    core = Core("a2")
    t = core.tensor("B1", "int4b_t", 2)
    t.write([6, 7])
    assert int(t.bytes()[0]) == 118


@pytest.mark.parametrize(
    "dtype,dst_gap,dst_frac_gap,dst_offset",
    [("int4b_t", 7, 0, 1), ("int4b_t", 0, 2, 3), ("int8_t", 3, 0, 1), ("int8_t", 0, 2, 3),
     ("half", 0, 0, 3), ("float", 3, 0, 1), ("float", 0, 2, 3)],
)
def test_fractal_transpose_section_examples(dtype, dst_gap, dst_frac_gap, dst_offset) -> None:
    """分形转置: repeatTimes 3, srcStride 1, an outer loop of 2 with source offset 3 squares and the
    listed destination offset (in squares); the result is 6 squares packed densely."""
    bits = BITS[dtype]
    nf = NF[bits]
    core, src, dst = make("a2", dtype, 6 * nf)
    init = dst.read_raw()
    e = elems_per_frac(bits)
    moves = []
    for c in range(2):
        load_data_with_transpose(core, dst[c * dst_offset * nf * e], src[c * 3 * nf * e],
                                 P1(0, 3, 1, dst_gap, dst_frac_gap))
        for i in range(3):
            sq = 3 * c + i
            first = c * dst_offset * nf + i * (dst_gap + 1)
            dsts = [first + j * (dst_frac_gap + 1) for j in range(nf)]
            moves.append((list(range(sq * nf, (sq + 1) * nf)), dsts))
    written = sorted(f for _, d in moves for f in d)
    assert written == list(range(6 * nf))  # dense: 12288 B (b4), 6144 B (b8/b32), 3072 B (b16)
    np.testing.assert_array_equal(dst.read_raw(), expected(init, src.read_raw(), bits, moves))


def test_start_position_example() -> None:
    """设置搬运起始位置: int8, startIndex 1 moves source fractals 3 and 4 (1-based) first."""
    core, src, dst = make("a2", "int8_t", 6, src_pos="A1", dst_pos="A2")
    init = dst.read_raw()
    load_data_with_transpose(core, dst, src, P1(1, 2, 1, 1, 0))
    want = expected(init, src.read_raw(), 8, [([2, 3], [0, 1]), ([4, 5], [2, 3])])
    np.testing.assert_array_equal(dst.read_raw(), want)


def test_float_start_index_table_example() -> None:
    """表3 startIndex: float, startIndex = 1 transposes the 3rd and 4th fractal."""
    core, src, dst = make("a2", "float", 20)
    init = dst.read_raw()
    load_data_with_transpose(core, dst, src, P1(1, 1, 1, 0, 0))
    np.testing.assert_array_equal(dst.read_raw(), expected(init, src.read_raw(), 32, [([2, 3], [0, 1])]))


def test_noncontinuous_example() -> None:
    """非连续搬入: int8, repeatTimes 2, srcStride 2 squares, dstGap 2, dstFracGap 1."""
    core, src, dst = make("a2", "int8_t", 8, src_pos="A1", dst_pos="A2")
    init = dst.read_raw()
    load_data_with_transpose(core, dst, src, P1(0, 2, 2, 2, 1))
    # iteration 0: square 0 -> fractals 0, 2; iteration 1: square 2 -> 3 (= 0 + 1 + gap 2), 5
    want = expected(init, src.read_raw(), 8, [([0, 1], [0, 2]), ([4, 5], [3, 5])])
    np.testing.assert_array_equal(dst.read_raw(), want)


def test_addr_mode_decrement_example() -> None:
    """控制地址更新方式: int8, startIndex 2, repeatTimes 3, srcStride 1, addrMode 1: squares 2, 1, 0."""
    core, src, dst = make("a2", "int8_t", 6, src_pos="A1", dst_pos="A2")
    init = dst.read_raw()
    load_data_with_transpose(core, dst, src, P1(2, 3, 1, 1, 0, 1))
    want = expected(init, src.read_raw(), 8, [([4, 5], [0, 1]), ([2, 3], [2, 3]), ([0, 1], [4, 5])])
    np.testing.assert_array_equal(dst.read_raw(), want)


def test_src_stride_zero_rereads_the_same_square() -> None:
    """表3 注: srcStride = 0 reads the same fractals in every repeat."""
    core, src, dst = make("a2", "half", 4)
    init = dst.read_raw()
    load_data_with_transpose(core, dst, src, P1(1, 3, 0, 0, 0))
    want = expected(init, src.read_raw(), 16, [([1], [0]), ([1], [1]), ([1], [2])])
    np.testing.assert_array_equal(dst.read_raw(), want)


def test_half_ignores_dst_frac_gap() -> None:
    """表3 dstFracGap: only valid for b32/b8/b4; for half one fractal per iteration, no effect."""
    core, src, dst = make("a2", "half", 3)
    init = dst.read_raw()
    load_data_with_transpose(core, dst, src, P1(0, 3, 1, 0, 9))
    want = expected(init, src.read_raw(), 16, [([i], [i]) for i in range(3)])
    np.testing.assert_array_equal(dst.read_raw(), want)


def test_repeat_zero_is_nop() -> None:
    core, src, dst = make("a2", "int8_t", 2)
    before = memories(core)
    rep = load_data_with_transpose(core, dst, src, P1(0, 0, 1, 1, 0))
    assert_memories_unchanged(core, before)
    assert rep.bytes_written == 0


def test_transpose_twice_is_identity() -> None:
    """Round trip for every width: transposing a square twice restores it (a defining property)."""
    for dtype in ("int4b_t", "int8_t", "half", "float"):
        core, src, dst = make("a2", dtype, 4 * NF[BITS[dtype]])
        p = P1(0, 4, 1, NF[BITS[dtype]] - 1, 0)
        load_data_with_transpose(core, dst, src, p)
        back = core.tensor("B1", dtype, src.length)
        back.write_raw(dst.read_raw(src.length))
        dst2 = core.tensor("B2", dtype, src.length, offset=0)
        load_data_with_transpose(core, dst2, back, p)
        np.testing.assert_array_equal(dst2.read_raw(), src.read_raw(), err_msg=dtype)


# -- the doc's call examples 1-4 ---------------------------------------------------------------------------


def nz(x: np.ndarray, c0: int) -> np.ndarray:
    """Nz of a row-major matrix (rows, cols multiples of 16 / c0): fractals column-major (layouts.md)."""
    r, c = x.shape
    return x.reshape(r // 16, 16, c // c0, c0).transpose(2, 0, 1, 3).ravel()


def zn(b: np.ndarray, k0: int) -> np.ndarray:
    """Zn of B (K x N) in L0B: fractal (k//K0)*N1 + n//16, inside (n%16)*K0 + k%K0 (docs/layouts.md)."""
    k, n = b.shape
    return b.reshape(k // k0, k0, n // 16, 16).transpose(0, 2, 3, 1).ravel()


def b_matrix(dtype: str, k: int, n: int) -> np.ndarray:
    bits = BITS[dtype]
    return np.random.default_rng(k * n).integers(0, RAW_MAX[bits], (k, n), dtype=np.uint64)


def test_call_example_1_int8() -> None:
    """示例1: int8 B [32, 64] Nz in B1 -> Zn in B2; repeatTimes = n / nBlockSize (nBlockSize = 32, the
    second of the snippet's two declarations), srcStride 1, dstGap 1, dstFracGap 0."""
    k, n, n_block = 32, 64, 32
    b = b_matrix("int8_t", k, n)
    core = Core("a2")
    b1 = core.tensor("B1", "int8_t", k * n)
    b1.write_raw(nz(b, 32).astype(np.uint8))
    b2 = core.tensor("B2", "int8_t", k * n)
    load_data_with_transpose(core, b2, b1, P1(0, n // n_block, 1, 1, 0))
    np.testing.assert_array_equal(b2.read_raw(), zn(b, 32))


def test_call_example_2_half_loop() -> None:
    """示例2: half B [32, 32]; repeatTimes = k / nBlockSize, srcStride 1, dstGap 1, looping over
    n / nBlockSize with b2Local[i * 16 * nBlockSize], b1Local[i * k * nBlockSize]."""
    k, n, n_block = 32, 32, 16
    b = b_matrix("half", k, n)
    core = Core("a2")
    b1 = core.tensor("B1", "half", k * n)
    b1.write_raw(nz(b, 16).astype(np.uint16))
    b2 = core.tensor("B2", "half", k * n)
    p = P1(0, k // n_block, 1, 1)
    for i in range(n // n_block):
        load_data_with_transpose(core, b2[i * 16 * n_block], b1[i * k * n_block], p)
    np.testing.assert_array_equal(b2.read_raw(), zn(b, 16))


def test_call_example_3_float() -> None:
    """示例3: float B [16, 32] (Nz with 16 rows, IN-CON 分形约束); repeatTimes = n / nBlockSize,
    srcStride 1, dstGap 0, dstFracGap = n / nBlockSize - 1."""
    k, n, n_block = 16, 32, 16
    b = b_matrix("float", k, n)
    core = Core("a2")
    b1 = core.tensor("B1", "float", k * n)
    b1.write_raw(nz(b, 8).astype(np.uint32))
    b2 = core.tensor("B2", "float", k * n)
    load_data_with_transpose(core, b2, b1, P1(0, n // n_block, 1, 0, n // n_block - 1))
    np.testing.assert_array_equal(b2.read_raw(), zn(b, 8))


def test_call_example_4_v2_int8() -> None:
    """示例4 (Atlas 350 / 950, V2): int8 B [128, 256] NZ; per i < nStep: startIndex = i * kStep,
    repeatTimes = kStep / 2, srcStride 2 (fractals), dstGap = nStep*2 - 1, dst b2[1024 * i]."""
    k, n = 128, 256
    k_step, n_step = -(-k // 16), -(-n // 32)
    b = b_matrix("int8_t", k, n)
    core = Core("ascend950")
    right = core.tensor("B1", "int8_t", k * n)
    right.write_raw(nz(b, 32).astype(np.uint8))
    b2 = core.tensor("B2", "int8_t", k * n)
    for i in range(n_step):
        p = P2()
        p.startIndex = i * k_step
        p.repeatTimes = k_step // 2
        p.srcStride = 2
        p.dstGap = n_step * 2 - 1
        load_data_with_transpose(core, b2[1024 * i], right, p)
    np.testing.assert_array_equal(b2.read_raw(), zn(b, 32))


def test_v2_src_frac_gap() -> None:
    """表4: V2 startIndex/srcStride count fractals; srcFracGap spaces the fractals of one square."""
    core, src, dst = make("ascend950", "float", 16)
    init = dst.read_raw()
    load_data_with_transpose(core, dst, src, P2(1, 2, 5, 1, 0, 2))
    want = expected(init, src.read_raw(), 32, [([1, 4], [0, 1]), ([6, 9], [2, 3])])
    np.testing.assert_array_equal(dst.read_raw(), want)


def test_v1_on_950_equals_v2_scaled() -> None:
    """divergences.md T6: the 950 C++ API lowers V1 to V2 with startIndex, srcStride x n_f."""
    for dtype in ("int8_t", "half", "float"):
        nf = NF[BITS[dtype]]
        core, src, dst = make("ascend950", dtype, 24)
        load_data_with_transpose(core, dst, src, P1(2, 3, 2, nf, 0))
        got = dst.read_raw()
        core2, src2, dst2 = make("ascend950", dtype, 24)
        load_data_with_transpose(core2, dst2, src2, P2(2 * nf, 3, 2 * nf, nf, 0, 0))
        np.testing.assert_array_equal(got, dst2.read_raw(), err_msg=dtype)


# -- reference interpreter == fast path == generic plan executor -------------------------------------------


def dst_fracs(bits: int, rep: int, dst_gap: int, dst_frac_gap: int) -> list[int]:
    nf = NF[bits]
    if nf == 1:
        dst_frac_gap = 0
    return [i * (dst_gap + 1) + j * (dst_frac_gap + 1) for i in range(rep) for j in range(nf)]


CASES = [("a2", "V1", d) for d in ("int4b_t", "int8_t", "uint8_t", "half", "bfloat16_t", "float", "int32_t")]
CASES += [("ascend950", "V2", d) for d in ("int8_t", "half", "float", "uint32_t")]


@pytest.mark.parametrize("chip,version,dtype", CASES, ids=[f"{c}-{v}-{d}" for c, v, d in CASES])
@settings(max_examples=25, deadline=None)
@given(start=st.integers(0, 20), rep=st.integers(1, 6), stride=st.integers(0, 5), dst_gap=st.integers(0, 6),
       dst_frac_gap=st.integers(0, 6), src_frac_gap=st.integers(0, 3), addr_mode=st.booleans(),
       seed=st.integers(0, 2**16))
def test_reference_agrees(chip, version, dtype, start, rep, stride, dst_gap, dst_frac_gap, src_frac_gap,
                          addr_mode, seed) -> None:
    bits = BITS[dtype]
    n_src = 240
    core, src, dst = make(chip, dtype, n_src, seed=seed)
    p = (P1(start, rep, stride, dst_gap, dst_frac_gap, addr_mode) if version == "V1"
         else P2(start, rep, stride, dst_gap, dst_frac_gap, src_frac_gap, addr_mode))
    before = memories(core)
    src_raw, init = src.read_raw(), dst.read_raw()
    d = dst_fracs(bits, rep, dst_gap, dst_frac_gap)
    if addr_mode and start - (rep - 1) * stride < 0:
        with pytest.raises(ParamRangeError, match=E + r"addrMode=true \(decrement\)"):
            load_data_with_transpose(core, dst, src, p)
        assert_memories_unchanged(core, before)
        return
    with warnings.catch_warnings(record=True) as caught:  # overlapping outputs: program order (T9)
        warnings.simplefilter("always")
        report = load_data_with_transpose(core, dst, src, p)
    assert bool(caught) == (len(set(d)) < len(d))
    want = ref_load_data_with_transpose(bits, p, src_raw, init)
    np.testing.assert_array_equal(dst.read_raw(), want)
    # the generic plan executor runs the element plan the report rebuilds on demand to the same bytes
    core2, src2, dst2 = make(chip, dtype, n_src, seed=seed)
    plan = report.plan
    assert plan is plan_transpose(plan.info["spec"])
    execute(plan, dst2, src2)
    np.testing.assert_array_equal(dst2.read_raw(), want)


# -- errors: every documented constraint, message start pinned, memory untouched ----------------------------


def raises_untouched(core, exc, pattern, fn) -> None:
    before = memories(core)
    with pytest.raises(exc, match=pattern) as ei:
        fn()
    assert_memories_unchanged(core, before)
    assert_basis(ei.value)


@pytest.mark.parametrize(
    "params,pattern",
    [
        (P1(0, 256, 1, 1, 0), E + r"repeatTimes must be in \[0, 255\], but got 256"),
        (P1(65536, 1, 1, 1, 0), E + r"startIndex must be in \[0, 65535\], but got 65536"),
        (P1(0, 1, -1, 1, 0), E + r"srcStride must be in \[0, 65535\], but got -1"),
        (P1(0, 1, 1, 65536, 0), E + r"dstGap must be in \[0, 65535\], but got 65536"),
        (P1(0, 1, 1, 1, 70000), E + r"dstFracGap must be in \[0, 65535\], but got 70000"),
        (P1(0, 1, 1, 1, 0, 2), E + r"addrMode must be a bool"),
        (P1(0, 1, 1.5, 1, 0), E + r"srcStride must be an integer"),
        (P1(0, [1], 1, 1, 0), E + r"repeatTimes must be an integer"),
        (P1(1, 3, 1, 1, 0, True), E + r"addrMode=true \(decrement\) walks the source to "
                                  r"square startIndex - \(repeatTimes-1\)\*srcStride = 1 - 2\*1 = -1"),
    ],
)
def test_v1_param_errors(params, pattern) -> None:
    core, src, dst = make("a2", "int8_t", 8)
    raises_untouched(core, ParamRangeError, pattern, lambda: load_data_with_transpose(core, dst, src, params))


@pytest.mark.parametrize(
    "params,pattern",
    [
        (P2(0, 0, 1, 1, 0, 0), E + r"repeatTimes must be in \[1, 255\], but got 0"),
        (P2(0, 1, 1, 1, 0, 65536), E + r"srcFracGap must be in \[0, 65535\], but got 65536"),
        (P2(3, 3, 2, 1, 0, 0, 1), E + r"addrMode=true \(decrement\) walks the source to "
                                  r"fractal"),
    ],
)
def test_v2_param_errors(params, pattern) -> None:
    core, src, dst = make("ascend950", "int8_t", 8)
    raises_untouched(core, ParamRangeError, pattern, lambda: load_data_with_transpose(core, dst, src, params))


@pytest.mark.parametrize(
    "chip,dtype,src_pos,dst_pos,params,pattern",
    [
        ("a2", "int4b_t", "B1", "A2", P1(0, 1), E + r"dtype int4b_t on path L1->L0A is not "
                                                r"supported"),
        ("a2", "int16_t", "B1", "B2", P1(0, 1), E + r"dtype int16_t on path L1->L0B is not "
                                                r"supported"),
        ("a2", "int8_t", "B1", "B2", P2(0, 1), E + r"API LoadDataWithTransposeV2 is not "
                                               r"supported on"),
        ("ascend950", "int8_t", "A1", "A2", P1(0, 1), E + r"path L1->L0A is not supported"),
        ("ascend950", "int4b_t", "B1", "B2", P2(0, 1), E + r"dtype int4b_t on path L1->L0B"),
        ("training", "half", "B1", "B2", P1(0, 1), E + r"API LoadDataWithTranspose is not "
                                                   r"supported on"),
        ("inference_aicore", "half", "B1", "B2", P1(0, 1), E + r"API LoadDataWithTranspose "
                                                           r"is not supported"),
        ("kirin_x90", "float", "B1", "B2", P1(0, 1), E + r"dtype float on path L1->L0B"),
        ("a2", "half", "B2", "B2", P1(0, 1), E + r"src must be a LocalTensor in TPosition "
                                             r"A1 or B1"),
        ("a2", "half", "B1", "B1", P1(0, 1), E + r"dst must be a LocalTensor in TPosition "
                                             r"A2 or B2"),
        ("a2", "half", "B1", "CO1", P1(0, 1), E + r"dst must be a LocalTensor"),
    ],
)
def test_position_dtype_errors(chip, dtype, src_pos, dst_pos, params, pattern) -> None:
    core = Core(chip)
    src = core.tensor(src_pos, dtype, 4096)
    dst = core.tensor(dst_pos, dtype, 4096)
    raises_untouched(core, UnsupportedError, pattern,
                     lambda: load_data_with_transpose(core, dst, src, params))


@pytest.mark.parametrize("chip,dtype,params", [("a2", "int4b_t", P1(0, 2, 1, 3, 0)),
                                               ("ascend950", "int8_t", P2(0, 2, 2, 1, 0, 0))])
def test_l1_tensor_tagged_a1_is_a_legal_source(chip: str, dtype: str, params) -> None:
    """Positions by memory (divergence P2): the C++ API checks CheckTensorPhyPosition<L1> only, and
    template libraries tag every L1 buffer A1 (catlass copy_l1_to_l0b.hpp: TPosition::A1 sources into B2).
    The seed's int4 / 950 "B1->B2" is L1->L0B: an A1-tagged source gives the same bytes as a B1-tagged one."""
    got = []
    for tag in ("A1", "B1"):
        core, src, dst = make(chip, dtype, 16, src_pos=tag)
        with warnings.catch_warnings():
            warnings.simplefilter("error")  # no warning either
            load_data_with_transpose(core, dst, src, params)
        got.append(dst.read_raw())
    np.testing.assert_array_equal(got[0], got[1])


def _made(dtype: str, n_src_fracs: int, params, dst_at: int = 0, src_at: int = 0):
    """A refusal's operands from `make("a2", dtype, n_src_fracs)`, dst / src moved on by `dst_at` / `src_at`
    elements: () -> (core, dst, src, params)."""
    def build():
        core, src, dst = make("a2", dtype, n_src_fracs)
        return core, dst[dst_at] if dst_at else dst, src[src_at] if src_at else src, params
    return build


def _gm_source():
    core = Core("a2")
    src = core.global_tensor("half", 256)
    return core, core.tensor("B2", "half", 256), src, P1(0, 1)


def _dtype_mismatch():
    core = Core("a2")
    src = core.tensor("B1", "half", 256)
    return core, core.tensor("B2", "bfloat16_t", 256), src, P1(0, 1)


# (build, exception, message pattern): one refusal of an operand or of the params each, memory untouched
OPERAND_REFUSALS = [
    pytest.param(_gm_source, UnsupportedError,
                 E + r"src must be a LocalTensor in TPosition A1 or B1 \(L1\), but got TPosition GM",
                 id="gm-source"),
    pytest.param(_dtype_mismatch, UnsupportedError,
                 E + r"dst and src must have the same dtype, but got bfloat16_t and half",
                 id="dtype-mismatch"),
    pytest.param(_made("half", 1, LoadData2DParams(0, 1)), UnsupportedError,
                 E + r"loadDataParams must be LoadData2dTransposeParams or LoadData2dTransposeParamsV2, "
                 r"but got LoadData2DParams", id="wrong-params-type"),
    # 约束说明: L0A/L0B destination 512-B aligned, L1 source 32-B aligned
    pytest.param(_made("half", 4, P1(0, 1), dst_at=16), AlignmentError,
                 E + r"dst \(L0\) address must be 512-byte aligned in L0B, but got 0x20", id="dst-alignment"),
    pytest.param(_made("half", 4, P1(0, 1), src_at=1), AlignmentError,
                 E + r"src \(L1\) address must be 32-byte aligned in L1, but got 0x2", id="src-alignment"),
    pytest.param(_made("half", 4, P1(0, 0), dst_at=16), AlignmentError, E + r"dst \(L0\) address",
                 id="alignment-checked-even-for-nop"),
    pytest.param(_made("int8_t", 2, P1(600, 1, 1, 1, 0)), BoundsError, E + r"source: bytes",
                 id="source-past-L1"),
    pytest.param(_made("half", 4, P1(0, 2, 1, 200, 0)), BoundsError, E + r"destination: bytes",
                 id="destination-past-L0B"),
]


@pytest.mark.parametrize(("build", "exc", "pattern"), OPERAND_REFUSALS)
def test_operand_refusals(build, exc, pattern: str) -> None:
    core, dst, src, params = build()
    raises_untouched(core, exc, pattern, lambda: load_data_with_transpose(core, dst, src, params))


def test_src_32_bytes_past_a_boundary_is_fine() -> None:
    """约束说明: L1 source 32-B aligned; 32 B past a boundary is fine (the refusal: src-alignment above)."""
    core, src, dst = make("a2", "half", 4)
    load_data_with_transpose(core, dst, src[16], P1(0, 1))  # 32 B: allowed


def test_write_past_dst_tensor_warns_or_raises_in_strict_mode() -> None:
    core, src, dst = make("a2", "half", 4, n_dst_fracs=1)
    with pytest.warns(HazardWarning, match=E + r"writes 1024 B"):
        load_data_with_transpose(core, dst, src, P1(0, 2, 1, 0, 0))
    strict = Core("a2", strict=True)
    s = strict.tensor("B1", "half", 1024)
    d = strict.tensor("B2", "half", 256)
    raises_untouched(strict, HazardError, E + r"writes 1024 B",
                     lambda: load_data_with_transpose(strict, d, s, P1(0, 2, 1, 0, 0)))


def test_report_and_plan_cache() -> None:
    core, src, dst = make("a2", "float", 8)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        r = load_data_with_transpose(core, dst, src, P1(0, 4, 1, 1, 0))
    assert (r.instr, r.bytes_written, r.bytes_read, r.pad_elements) == ("LoadDataWithTranspose", 4096, 4096,
                                                                        0)
    from ascsim.engine.boundary import CALLS

    n = len(CALLS)
    load_data_with_transpose(core, dst, src, P1(0, 4, 1, 1, 0))  # the same call shape: no new entry
    assert len(CALLS) == n
    assert r.plan is not None and r.plan.info["spec"].repeat == 4  # rebuilt on demand, not held


def test_unaligned_local_tensor_object() -> None:
    """A LocalTensor built by hand at an odd L0B offset is rejected too."""
    core, src, _ = make("a2", "int8_t", 2)
    dst = LocalTensor(core.memory("L0B"), "B2", 512 + 256, "int8_t", 1024)
    raises_untouched(core, AlignmentError, E + r"dst \(L0\) address must be 512-byte",
                     lambda: load_data_with_transpose(core, dst, src, P1(0, 1, 1, 1, 0)))


def test_core_method_logs_the_report() -> None:
    """`Core.load_data_with_transpose` (the lead's entry point) runs the same instruction and logs it."""
    core, src, dst = make("a2", "half", 2)
    init = dst.read_raw()
    rep = core.load_data_with_transpose(dst, src, P1(0, 2, 1, 0, 0))
    assert core.log[-1] is rep
    want = expected(init, src.read_raw(), 16, [([0], [0]), ([1], [1])])
    np.testing.assert_array_equal(dst.read_raw(), want)
