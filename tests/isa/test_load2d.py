"""LoadData 2D (LoadData2DParams v1, LoadData2DParamsV2, Load2DBitModeParam) against the doc text.

References: the worked examples of LoadData_2D.md (关键特性说明 / 调用示例), LoadData（GMToL1-2D矩阵搬运）.md
and LoadData_2D_V2.md; numpy layout references (ND -> Nz/Zz/Zn from ascsim.layouts, themselves tested
against FRAC); and the slow loop interpreters `ref_load2d` / `ref_load2d_v2` on random parameters.
"""

from __future__ import annotations

import re
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from support.state import assert_refused_untouched as _untouched

from ascsim import Core, get_chip
from ascsim.base.errors import (
    AlignmentError,
    BoundsError,
    HazardError,
    HazardWarning,
    NotImplementedFeature,
    ParamRangeError,
    UnsupportedError,
)
from ascsim.isa.load2d import ref_load2d, ref_load2d_v2
from ascsim.machine.dtypes import get_dtype, pack_nibbles, unpack_nibbles
from ascsim.machine.layouts import nd_to_nz, nz_offset, nz_to_nd, zn_to_nd, zz_to_nd
from ascsim.params.load2d import Load2DBitModeParam, LoadData2DParams, LoadData2DParamsV2

POS = {"L1": "A1", "L0A": "A2", "L0B": "B2"}
F = 512  # fractal bytes


def elems(raw_bytes: np.ndarray, bits: int) -> np.ndarray:
    """Bytes -> one raw element per entry (nibbles for 4-bit)."""
    if bits == 4:
        return unpack_nibbles(raw_bytes)
    return raw_bytes.view(f"<u{bits // 8}").copy()


def as_bytes(el: np.ndarray, bits: int) -> np.ndarray:
    if bits == 4:
        return pack_nibbles(el)
    return np.ascontiguousarray(el.astype(f"<u{bits // 8}")).view(np.uint8)


def make(core: Core, mem: str, dtype: str, n_frac: int, rng: np.random.Generator | None = None, offset=None):
    """A tensor of n_frac fractals in `mem`, optionally filled with random raw bytes."""
    dt = get_dtype(dtype)
    n = n_frac * F * 8 // dt.bits
    if mem == "GM":
        t = core.global_tensor(dt, n)
    else:
        t = core.tensor(POS[mem], dt, n, offset=offset)
    if rng is not None:
        t.bytes()[:] = rng.integers(0, 256, t.nbytes, dtype=np.uint8)
    return t


def frac_ids(core: Core, mem: str, n_frac: int):
    """A float tensor whose every element holds its fractal index (self-describing source)."""
    t = make(core, mem, "float", n_frac)
    t.write(np.repeat(np.arange(n_frac, dtype=np.float32), 128))
    return t


def dst_fracs(t) -> np.ndarray:
    """Per fractal of a float tensor: its first value if the fractal is uniform, else NaN (marker etc.)."""
    v = t.read().reshape(-1, 128)
    return np.where((v == v[:, :1]).all(axis=1), v[:, 0], np.nan)


def marker_value() -> float:
    return float(np.frombuffer(bytes([0xCD] * 4), dtype="<f4")[0])


# ---------------------------------------------------------------- v1: doc examples (LoadData_2D.md)


def _expect(n_dst: int, placed: dict[int, int]) -> np.ndarray:
    out = np.full(n_dst, marker_value())
    for d, s in placed.items():
        out[d] = s
    return out


def test_doc_noncontinuous_float_l0a() -> None:
    """非连续搬入: startIndex 0, repeatTimes 4, srcStride 2, dstGap 2 (float L1 -> L0A)."""
    core = Core("a2")
    src = frac_ids(core, "L1", 8)
    dst = make(core, "L0A", "float", 12)
    core.load_data(dst, src, LoadData2DParams(0, 4, 2, 0, 2))
    np.testing.assert_array_equal(dst_fracs(dst), _expect(12, {0: 0, 3: 2, 6: 4, 9: 6}))


def test_doc_set_start_position() -> None:
    """设置搬运起始位置: startIndex 1 skips the first fractal."""
    core = Core("a2")
    src = frac_ids(core, "L1", 8)
    dst = make(core, "L0A", "float", 12)
    core.load_data(dst, src, LoadData2DParams(1, 4, 2, 0, 2))
    np.testing.assert_array_equal(dst_fracs(dst), _expect(12, {0: 1, 3: 3, 6: 5, 9: 7}))


def test_doc_float_6_fractals_three_calls() -> None:
    """6 float fractals L1 -> L0A: 3 calls, src +2 fractals, dst +1 fractal, repeatTimes 2, srcStride 1,
    dstGap 2. The three calls interleave: call i puts src 2i, 2i+1 at dst i and i+3."""
    core = Core("a2")
    src = frac_ids(core, "L1", 6)
    dst = make(core, "L0A", "float", 6)
    for i in range(3):
        core.load_data(dst[i * 128], src[i * 256], LoadData2DParams(0, 2, 1, 0, 2))
    np.testing.assert_array_equal(dst_fracs(dst), [0, 2, 4, 1, 3, 5])


def test_doc_addr_mode_decrement_gm_l1() -> None:
    """控制地址更新方式: GM -> L1, startIndex 6, repeatTimes 4, srcStride 2, dstGap 2, addrMode 1."""
    core = Core("a2")
    src = frac_ids(core, "GM", 8)
    dst = make(core, "L1", "float", 12)
    core.load_data(dst, src, LoadData2DParams(6, 4, 2, 0, 2, False, 1))
    np.testing.assert_array_equal(dst_fracs(dst), _expect(12, {0: 6, 3: 4, 6: 2, 9: 0}))


ADDR_IGNORED = (r"^LoadData2D: addrMode=1 has no effect on {path} on {chip}: the C\+\+ API {how}; the source "
                r"walks up \(LoadData_2D.md 表2 addrMode: 目前仅GM->L1 Buffer通路支持配置; "
                r"docs/divergences.md D1\)")


@pytest.mark.parametrize("chip,s_mem,d_mem,how", [
    ("a2", "L1", "L0A", r"sends increment \(inc\) on this path"),  # dav_c220 LoadData2DL12L0ACal: inc
    ("a2", "GM", "L0B", r"sends increment \(inc\) on this path"),  # LoadData2DGM2L0BCal: addr_cal_mode_t 0
    ("ascend950", "GM", "L1", "lowers LoadData2DParams to a 2Dv2 instruction, which has no address mode"),
])
def test_addr_mode_ignored_off_gm_l1_warns(chip: str, s_mem: str, d_mem: str, how: str) -> None:
    """addrMode: "目前仅GM->L1 Buffer通路支持配置"; the C++ API sends increment everywhere else (and on 950,
    where LoadData2DGM2L1Cal lowers to load_gm_to_cbuf_2dv2, on GM->L1 too): executed as an increment with
    a HazardWarning naming the row; strict -> HazardError before any write (divergence D1)."""
    core = Core(chip)
    src = frac_ids(core, s_mem, 8)
    dst = make(core, d_mem, "float", 4)
    pat = ADDR_IGNORED.format(path=f"{s_mem}->{d_mem}", chip=re.escape(core.chip.name), how=how)
    with pytest.warns(HazardWarning, match=pat):
        rep = core.load_data(dst, src, LoadData2DParams(1, 3, 2, 0, 0, False, 1))
    assert rep.notes == ["D1"]
    np.testing.assert_array_equal(dst_fracs(dst), [1, 3, 5, marker_value()])
    strict = Core(chip, strict=True)
    src, dst = frac_ids(strict, s_mem, 8), make(strict, d_mem, "float", 4)
    _untouched(strict, lambda: strict.load_data(dst, src, LoadData2DParams(1, 3, 2, 0, 0, False, 1)),
               HazardError, "LoadData2D: addrMode=1 has no effect")


def test_sid_range_is_the_cpp_check() -> None:
    """CheckLoadData2dParams: CheckValueRange(sid, 0, ASC_MAX_LOAD2D_SID = 15) (divergence D8)."""
    core = Core("a2")
    src, dst = frac_ids(core, "L1", 2), make(core, "L0A", "float", 2)
    core.load_data(dst, src, LoadData2DParams(0, 1, 1, 15))
    _untouched(core, lambda: core.load_data(dst, src, LoadData2DParams(0, 1, 1, 16)), ParamRangeError,
               "LoadData2D: sid must be in [0, 15], but got 16 "
               "(the C++ API rejects this: CheckLoadData2dParams")


def test_doc_transpose_half() -> None:
    """分形转置: half, repeatTimes 2, srcStride 2, dstGap 2, ifTranspose: each 16x16 block transposed."""
    core = Core("a2")
    x = np.arange(4 * 256, dtype=np.float16).reshape(4, 16, 16) / 8
    src = core.tensor("A1", "half", 4 * 256, data=x.ravel())
    dst = core.tensor("A2", "half", 4 * 256)
    core.load_data(dst, src, LoadData2DParams(0, 2, 2, 0, 2, True))
    got = dst.read().reshape(4, 16, 16)
    np.testing.assert_array_equal(got[0], x[0].T)
    np.testing.assert_array_equal(got[3], x[2].T)
    assert (dst.bytes()[512:1536] == 0xCD).all()


@pytest.mark.parametrize("chip", ["a2", "ascend950"])
def test_doc_call_example_nz_to_zz(chip: str) -> None:
    """调用示例一: A [m,k] half Nz in L1; per m-block: repeatTimes K1, srcStride M1 -> Zz (A2) / Nz rows."""
    m, k = 40, 70
    m1, k1 = -(-m // 16), -(-k // 16)
    core = Core(chip)
    a = np.random.default_rng(0).standard_normal((m, k)).astype(np.float16)
    src = core.tensor("A1", "half", m1 * k1 * 256, data=nd_to_nz(a, 16))
    dst = core.tensor("A2", "half", m1 * k1 * 256)
    for i in range(m1):
        core.load_data(dst[i * k1 * 256], src[i * 256], LoadData2DParams(0, k1, m1, 0, 0, False))
    np.testing.assert_array_equal(zz_to_nd(dst.read(), m, k, 16), a)


def test_doc_call_example_transposed() -> None:
    """调用示例二: L1 holds A^T [k, m] Nz (K1 fractal rows); per m-block: repeatTimes K1, srcStride 1,
    ifTranspose, src/dst advance K1 fractals -> Zz(A)."""
    m, k = 48, 32
    m1, k1 = m // 16, k // 16
    core = Core("a2")
    a = np.random.default_rng(1).standard_normal((m, k)).astype(np.float16)
    src = core.tensor("A1", "half", m1 * k1 * 256, data=nd_to_nz(a.T.copy(), 16))
    dst = core.tensor("A2", "half", m1 * k1 * 256)
    for i in range(m1):
        core.load_data(dst[i * k1 * 256], src[i * k1 * 256], LoadData2DParams(0, k1, 1, 0, 0, True))
    np.testing.assert_array_equal(zz_to_nd(dst.read(), m, k, 16), a)


def test_doc_gm_to_l1_nz2nz() -> None:
    """LoadData（GMToL1-2D矩阵搬运） 调用示例: m = k = 32 half; repeatTimes K1, srcStride M1, dstGap M1-1,
    src/dst advance one fractal per call -> an identical Nz copy."""
    core = Core("a2")
    a = np.arange(32 * 32, dtype=np.float16).reshape(32, 32)
    src = core.global_tensor("half", nd_to_nz(a, 16))
    dst = core.tensor("A1", "half", 1024)
    for i in range(2):
        core.load_data(dst[i * 256], src[i * 256], LoadData2DParams(0, 2, 2, 0, 1))
    np.testing.assert_array_equal(nz_to_nd(dst.read(), 32, 32, 16), a)


def test_int8_weights_l1_to_l0b_a2() -> None:
    """conv2d flow: int8 B (Zn) L1 -> L0B, one contiguous call (repeatTimes = fractals, srcStride 1)."""
    core = Core("a2")
    b = np.random.default_rng(2).integers(-128, 128, (64, 48)).astype(np.int8)
    from ascsim.machine.layouts import nd_to_zn

    src = core.tensor("B1", "int8_t", 64 * 48, data=nd_to_zn(b, 32))
    dst = core.tensor("B2", "int8_t", 64 * 48)
    core.load_data(dst, src, LoadData2DParams(0, 6, 1))
    np.testing.assert_array_equal(zn_to_nd(dst.read(), 64, 48, 32), b)


def test_repeat_zero_is_nop_and_srcstride_zero_rereads() -> None:
    core = Core("a2")
    src = frac_ids(core, "L1", 4)
    dst = make(core, "L0A", "float", 3)
    before = dst.bytes().copy()
    assert core.load_data(dst, src, LoadData2DParams(2, 0, 1)).bytes_written == 0
    np.testing.assert_array_equal(dst.bytes(), before)
    core.load_data(dst, src, LoadData2DParams(2, 3, 0))  # "srcStride=0 ... 重复获取相同的分形矩阵"
    np.testing.assert_array_equal(dst_fracs(dst), [2, 2, 2])


def test_950_v1_doc_formula_and_lowering_warning() -> None:
    """950: ascsim models the documented formula; it warns where the C++ lowering would differ."""
    core = Core("ascend950")
    src = frac_ids(core, "L1", 8)
    dst = make(core, "L0A", "float", 3)
    with pytest.warns(HazardWarning, match="LoadData2D: on .*startIndex"):
        core.load_data(dst, src, LoadData2DParams(1, 3, 2))
    np.testing.assert_array_equal(dst_fracs(dst), [1, 3, 5])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        core.load_data(dst, src, LoadData2DParams(0, 3, 2))  # startIndex 0: both readings agree


# ---------------------------------------------------------------- v1: property test vs the loop reference


def _v1_cases() -> list[tuple[str, str, str, str]]:
    out = []
    for chip in ("a2", "ascend950", "inference_aicore", "training"):
        ch = get_chip(chip)
        for (s, d), dts in ch.apis["LoadData2D"].paths.items():
            out += [(chip, s, d, t) for t in sorted(dts)]
    return out


V1_CASES = _v1_cases()


@pytest.mark.filterwarnings("ignore::ascsim.base.errors.HazardWarning")
@settings(max_examples=50, deadline=None)
@given(data=st.data())
def test_v1_matches_reference(data) -> None:
    chip, s_mem, d_mem, dtype = data.draw(st.sampled_from(V1_CASES), label="case")
    ch = get_chip(chip)
    dt = get_dtype(dtype)
    tr = data.draw(st.booleans()) and ch.can_transpose("LoadData2D", dtype, d_mem, s_mem) and not dt.is_4bit
    rep = data.draw(st.integers(0, 5))
    stride = data.draw(st.integers(0, 3))
    gap = 0 if chip == "training" and s_mem == "GM" else data.draw(st.integers(0, 3))
    mode = data.draw(st.integers(0, 1))
    dec = mode == 1 and (s_mem, d_mem) == ("GM", "L1") and chip != "ascend950"  # divergence D1
    start = data.draw(st.integers(0, 4)) + (max(rep - 1, 0) * stride if dec else 0)
    n_src = start + max(rep - 1, 0) * stride + 1
    n_dst = max(rep - 1, 0) * (gap + 1) + 2
    core = Core(chip)
    rng = np.random.default_rng(data.draw(st.integers(0, 2**16)))
    src = make(core, s_mem, dtype, n_src, rng)
    dst = make(core, d_mem, dtype, n_dst, rng)
    exp = elems(dst.bytes().copy(), dt.bits)
    ref_load2d(exp, elems(src.bytes().copy(), dt.bits), dt.bits, start, rep, stride, gap, tr, dec)
    core.load_data(dst, src, LoadData2DParams(start, rep, stride, 0, gap, tr, mode))
    np.testing.assert_array_equal(dst.bytes(), as_bytes(exp, dt.bits))


def test_v1_fractal_reference_int4() -> None:
    """int4b_t L1 -> L0B (A2): 1024 nibbles per fractal copied verbatim (numpy fractal-level reference)."""
    core = Core("a2")
    rng = np.random.default_rng(3)
    src = make(core, "L1", "int4b_t", 6, rng)
    dst = make(core, "L0B", "int4b_t", 4)
    sf = src.bytes().reshape(6, F).copy()
    core.load_data(dst, src, LoadData2DParams(1, 2, 3, 0, 1))
    got = dst.bytes().reshape(4, F)
    np.testing.assert_array_equal(got[0], sf[1])
    np.testing.assert_array_equal(got[2], sf[4])
    assert (got[[1, 3]] == 0xCD).all()


# ---------------------------------------------------------------- v1 errors (memory untouched)


@pytest.mark.parametrize(
    "params,exc,start",
    [
        (LoadData2DParams(0, 256, 1), ParamRangeError, "LoadData2D: repeatTimes must be in [0, 255]"),
        (LoadData2DParams(-1, 1, 1), ParamRangeError, "LoadData2D: startIndex must be in [0, 65535]"),
        (LoadData2DParams(0, 1, 65536), ParamRangeError, "LoadData2D: srcStride must be in [0, 65535]"),
        (LoadData2DParams(0, 1, 1, 0, 65536), ParamRangeError, "LoadData2D: dstGap must be in [0, 65535]"),
        (LoadData2DParams(0, 1, 1, 0, 0, False, 2), ParamRangeError,
         "LoadData2D: addrMode must be in [0, 1]"),
        (LoadData2DParams(0, 1, 1, 0, 0, 2), ParamRangeError, "LoadData2D: ifTranspose must be a bool"),
        (LoadData2DParams(0, 2, 1.5), ParamRangeError, "LoadData2D: srcStride must be an integer"),
        (LoadData2DParams(1, 8, 1), HazardError, "LoadData2D: reads 4608 B"),
        (LoadData2DParams(0, 2, 1, 0, 200), BoundsError, "LoadData2D: destination"),
        (LoadData2DParams(0, 2, 1, 0, 7), HazardError, "LoadData2D: writes 4608 B"),
    ],
)
def test_v1_param_errors(params, exc, start) -> None:
    core = Core("a2", strict=True)
    src = make(core, "L1", "half", 8, np.random.default_rng(0))
    dst = make(core, "L0A", "half", 8)
    _untouched(core, lambda: core.load_data(dst, src, params), exc, start)


def test_v1_past_physical_memory() -> None:
    core = Core("a2")
    src = make(core, "L1", "half", 2)
    dst = core.tensor("A2", "half", 256, offset=65536 - 512)
    _untouched(core, lambda: core.load_data(dst, src, LoadData2DParams(0, 2, 1)), BoundsError,
               "LoadData2D: destination")
    src_end = core.tensor("A1", "half", 256, offset=524288 - 512)
    dst_ok = make(core, "L0A", "half", 2, offset=0)
    _untouched(core, lambda: core.load_data(dst_ok, src_end, LoadData2DParams(0, 2, 1)), BoundsError,
               "LoadData2D: source")


# ifTranspose=true refused: (chip, source memory, destination memory, dtype, exception, message start)
TRANSPOSE_REFUSALS = [
    *[pytest.param("a2", "L1", "L0A", dtype, UnsupportedError,
                   "LoadData2D: ifTranspose=true supports b16 types only", id=f"non-b16-{dtype}")
      for dtype in ["int8_t", "float", "int32_t", "uint8_t"]],
    pytest.param("a2", "GM", "L1", "half", UnsupportedError,
                 "LoadData2D: ifTranspose=true is only allowed on L1->L0A/L0B", id="GM-path"),
    pytest.param("inference_aicore", "L1", "L0B", "int4b_t", NotImplementedFeature,
                 "LoadData2D: ifTranspose=true with int4b_t", id="int4-not-modelled-on-310P"),
]


@pytest.mark.parametrize(("chip", "s_mem", "d_mem", "dtype", "exc", "start"), TRANSPOSE_REFUSALS)
def test_v1_transpose_refused(chip: str, s_mem: str, d_mem: str, dtype: str, exc, start: str) -> None:
    core = Core(chip)
    src = make(core, s_mem, dtype, 2)
    dst = make(core, d_mem, dtype, 2)
    _untouched(core, lambda: core.load_data(dst, src, LoadData2DParams(0, 1, 1, 0, 0, True)), exc, start)


@pytest.mark.parametrize(
    "chip,s_mem,d_mem,dtype,start",
    [
        ("a2", "GM", "L1", "int4b_t", "LoadData2D: dtype int4b_t on path GM->L1"),
        ("a2", "GM", "L0A", "int4b_t", "LoadData2D: dtype int4b_t on path GM->L0A"),
        ("ascend950", "GM", "L0A", "half", "LoadData2D: path GM->L0A is not supported"),
        ("ascend950", "L1", "L0A", "int4b_t", "LoadData2D: dtype int4b_t on path L1->L0A"),
        ("training", "L1", "L0A", "float", "LoadData2D: dtype float on path L1->L0A"),
        ("kirin_9030", "L1", "L0B", "int8_t", "LoadData2D: dtype int8_t"),
    ],
)
def test_v1_chip_path_dtype_support(chip, s_mem, d_mem, dtype, start) -> None:
    core = Core(chip)
    src = make(core, s_mem, dtype, 1)
    dst = make(core, d_mem, dtype, 1)
    _untouched(core, lambda: core.load_data(dst, src, LoadData2DParams(0, 1, 1)), UnsupportedError, start)


def test_v1_alignment_and_dtype_mismatch() -> None:
    core = Core("a2")
    src = make(core, "L1", "half", 2)
    dst = core.tensor("A2", "half", 512, offset=1024 + 32)
    _untouched(core, lambda: core.load_data(dst, src, LoadData2DParams(0, 1, 1)), AlignmentError,
               "LoadData2D: dst (L0A) address must be 512-byte aligned")
    dst_ok = make(core, "L0A", "half", 2)
    src_bad = core.tensor("A1", "half", 512, offset=4096 + 16)
    _untouched(core, lambda: core.load_data(dst_ok, src_bad, LoadData2DParams(0, 1, 1)), AlignmentError,
               "LoadData2D: src (L1) address must be 32-byte aligned")
    l1_dst = core.tensor("A1", "half", 512, offset=8192 + 16)
    gm = make(core, "GM", "half", 1)
    _untouched(core, lambda: core.load_data(l1_dst, gm, LoadData2DParams(0, 1, 1)), AlignmentError,
               "LoadData2D: dst (L1) address must be 32-byte aligned")
    f = make(core, "L0A", "float", 1)
    _untouched(core, lambda: core.load_data(f, src, LoadData2DParams(0, 1, 1)), UnsupportedError,
               "LoadData2D: dst and src must have the same dtype")


def test_v1_gm_source_any_byte_alignment() -> None:
    """"当源地址位于GM时，地址必须1字节对齐": a GM view 2 bytes in is fine."""
    core = Core("a2")
    src = core.global_tensor("int8_t", (np.arange(514) % 256 - 128).astype(np.int8))
    dst = make(core, "L1", "int8_t", 1)
    core.load_data(dst, src[2], LoadData2DParams(0, 1, 1))
    np.testing.assert_array_equal(dst.read(), src.read()[2:])


def test_v1_training_dstgap_gm_l1_rejected_and_decrement_underflow() -> None:
    core = Core("training")
    src = make(core, "GM", "half", 4)
    dst = make(core, "L1", "half", 4)
    _untouched(core, lambda: core.load_data(dst, src, LoadData2DParams(0, 2, 1, 0, 1)), UnsupportedError,
               "LoadData2D: dstGap must be 0 on GM->L1")
    _untouched(core, lambda: core.load_data(dst, src, LoadData2DParams(1, 3, 1, 0, 0, False, 1)), BoundsError,
               "LoadData2D: addrMode=1 walks to source fractal -1")


# ---------------------------------------------------------------- v2 (950)


def _v2_setup(core: Core, dtype: str, rows: int, cols: int, stride: int, mem: str = "L1", seed: int = 0):
    """A random ND matrix X (rows x cols, raw codes) stored Nz with column stride `stride` fractals."""
    dt = get_dtype(dtype)
    c0 = dt.c0
    rng = np.random.default_rng(seed)
    hi = 16 if dt.is_4bit else 1 << dt.bits
    x = rng.integers(0, hi, (rows, cols), dtype=np.int64)
    flat = nd_to_nz(x, c0, stride=stride)
    n = flat.size
    t = core.global_tensor(dt, n) if mem == "GM" else core.tensor(POS[mem], dt, n)
    t.write_raw(flat)
    return x, t


def _raw(t, n=None) -> np.ndarray:
    return t.read_raw(n).astype(np.int64)


def test_v2_doc_start_address_example() -> None:
    """LoadData_2D_V2.md: mStart 2, kStart 2, srcStride 5 -> start fractal 12 (第十三个分形); 80x80 half,
    mStep 2, kStep 3, dstStride 3 -> dst = Nz(X[32:64, 32:80]) with column stride 3."""
    core = Core("ascend950")
    x, src = _v2_setup(core, "half", 80, 80, 5)
    dst = core.tensor("A2", "half", 9 * 256)
    core.load_data(dst, src, LoadData2DParamsV2(2, 2, 2, 3, 5, 3))
    got = _raw(dst)
    np.testing.assert_array_equal(got[:256], _raw(src)[12 * 256 : 13 * 256])
    np.testing.assert_array_equal(nz_to_nd(got, 32, 48, 16, stride=3), x[32:64, 32:80])
    assert (dst.bytes().reshape(9, F)[[2, 5, 8]] == 0xCD).all()  # row 2 of each column: not written


def test_v2_gm_to_l1_doc_example() -> None:
    """LoadData（GMToL1-2D矩阵搬运V2）调用示例: the same window GM -> L1."""
    core = Core("ascend950")
    x, src = _v2_setup(core, "half", 80, 80, 5, mem="GM")
    dst = core.tensor("A1", "half", 9 * 256)
    core.load_data(dst, src, LoadData2DParamsV2(2, 2, 2, 3, 5, 3, False, 0))
    np.testing.assert_array_equal(nz_to_nd(_raw(dst), 32, 48, 16, stride=3), x[32:64, 32:80])


def test_v2_doc_call_example_m40_k70() -> None:
    core = Core("ascend950")
    x, src = _v2_setup(core, "half", 48, 80, 3)
    dst = core.tensor("A2", "half", 15 * 256)
    core.load_data(dst, src, LoadData2DParamsV2(0, 0, 3, 5, 3, 3))
    np.testing.assert_array_equal(_raw(dst), _raw(src))


@pytest.mark.parametrize("dtype,m_step,k_step", [("half", 3, 2), ("int8_t", 4, 3), ("fp4x2_e2m1_t", 4, 2),
                                                 ("float", 3, 4), ("bfloat16_t", 2, 1), ("hifloat8_t", 2, 2)])
@pytest.mark.parametrize("dst_mem", ["L0A", "L0B"])
def test_v2_transposed_is_nz_of_window_transpose(dtype: str, m_step: int, k_step: int, dst_mem: str) -> None:
    """转置场景: the window R of the source lands as Nz(R^T), fractal columns dstStride apart; for L0B that
    is Zn(R) (docs/load2d.md, LoadData2DParamsV2)."""
    dt = get_dtype(dtype)
    c0 = dt.c0
    core = Core("ascend950")
    m0, k0, s_stride = 1, 1, 1 + m_step + 1
    x, src = _v2_setup(core, dtype, 16 * s_stride, c0 * (k0 + k_step), s_stride, seed=5)
    r = x[16 * m0 : 16 * (m0 + m_step), c0 * k0 : c0 * (k0 + k_step)]
    rows_t = r.shape[1]  # R^T rows
    d_stride = -(-rows_t // 16) + (dst_mem == "L0A")  # L0B: dense, so the result is Zn(R)
    n_cols = -(-r.shape[0] // c0)
    dst = core.tensor(POS[dst_mem], dt, (n_cols * d_stride) * 16 * c0)
    core.load_data(dst, src, LoadData2DParamsV2(m0, k0, m_step, k_step, s_stride, d_stride, True))
    got = _raw(dst)
    i, j = np.meshgrid(np.arange(rows_t), np.arange(r.shape[0]), indexing="ij")
    np.testing.assert_array_equal(got[nz_offset(i, j, rows_t, c0, d_stride)], r.T)
    if dst_mem == "L0B":
        np.testing.assert_array_equal(zn_to_nd(got, *r.shape, c0), r)


def test_v2_concepts_int8_example() -> None:
    """int8 A stored as A^T [96 x 64]; mStep 6, kStep 2, srcStride 6, dstStride 4 -> A Nz 64 x 96."""
    core = Core("ascend950")
    at, src = _v2_setup(core, "int8_t", 96, 64, 6, seed=7)
    dst = core.tensor("A2", "int8_t", 64 * 96)
    core.load_data(dst, src, LoadData2DParamsV2(0, 0, 6, 2, 6, 4, True))
    np.testing.assert_array_equal(nz_to_nd(_raw(dst), 64, 96, 32, stride=4), at.T)


def test_v2_q13_overflow_lands_in_next_column() -> None:
    """Q13 (ascsim choice (b)): dstStride smaller than the column height; plain addresses, column by
    column, so column c's overflow is overwritten by column c+1 and only the last overflow remains."""
    core = Core("ascend950")
    x, src = _v2_setup(core, "int8_t", 64, 96, 4, seed=9)
    r = x[:64, :96]  # mStep 4, kStep 3 -> R^T is 96 x 64: 6 fractal rows, 2 columns; dstStride 5
    dst = core.tensor("A2", "int8_t", 12 * 512)
    core.load_data(dst, src, LoadData2DParamsV2(0, 0, 4, 3, 4, 5, True))
    got = _raw(dst)
    i, j = np.meshgrid(np.arange(80), np.arange(32), indexing="ij")  # column 0 rows 0..4 intact
    np.testing.assert_array_equal(got[nz_offset(i, j, 80, 32, 5)], r.T[:80, :32])
    i, j = np.meshgrid(np.arange(96), np.arange(32, 64), indexing="ij")  # column 1 complete incl. overflow
    np.testing.assert_array_equal(got[nz_offset(i, j, 96, 32, 5)], r.T[:, 32:])
    assert (dst.bytes().reshape(12, F)[11] == 0xCD).all()


def _v2_cases() -> list[tuple[str, str, str]]:
    ch = get_chip("ascend950")
    return [(s, d, t) for (s, d), dts in ch.apis["LoadData2Dv2"].paths.items() for t in sorted(dts)]


V2_CASES = _v2_cases()
MULT = {4: ("m", 4), 8: ("m", 2), 16: ("m", 1), 32: ("k", 2)}


@settings(max_examples=50, deadline=None)
@given(data=st.data())
def test_v2_matches_reference(data) -> None:
    s_mem, d_mem, dtype = data.draw(st.sampled_from(V2_CASES), label="case")
    dt = get_dtype(dtype)
    tr = s_mem == "L1" and data.draw(st.booleans())
    which, mult = MULT[dt.bits] if tr else ("m", 1)
    m_step = data.draw(st.integers(1, 3)) * (mult if which == "m" else 1)  # 0 (NOP): test_v2_nop
    k_step = data.draw(st.integers(1, 3)) * (mult if which == "k" else 1)
    m_start, k_start = data.draw(st.integers(0, 3)), data.draw(st.integers(0, 3))
    s_stride = data.draw(st.integers(0, 8))
    d_stride = data.draw(st.integers(0, 8))
    spec_rows = (k_step * dt.c0 // 16, m_step * 16 // dt.c0) if tr else (m_step, k_step)
    n_dst = max((spec_rows[1] - 1) * d_stride + spec_rows[0], 0) + 1
    n_src = max((k_start + k_step - 1) * s_stride + m_start + m_step, 0) + 1
    core = Core("ascend950")
    rng = np.random.default_rng(data.draw(st.integers(0, 2**16)))
    src = make(core, s_mem, dtype, n_src, rng)
    dst = make(core, d_mem, dtype, n_dst, rng)
    exp = elems(dst.bytes().copy(), dt.bits)
    ref_load2d_v2(exp, elems(src.bytes().copy(), dt.bits), dt.bits, m_start, k_start, m_step, k_step,
                  s_stride, d_stride, tr)
    p = LoadData2DParamsV2(m_start, k_start, m_step, k_step, s_stride, d_stride, tr)
    if data.draw(st.booleans()) and d_mem != "L1":
        core.load_data(dst, src, Load2DBitModeParam(p), dst_pos=POS[d_mem], src_pos="A1")
    else:
        core.load_data(dst, src, p)
    np.testing.assert_array_equal(dst.bytes(), as_bytes(exp, dt.bits))


def test_v2_nop() -> None:
    core = Core("ascend950")
    src = make(core, "L1", "half", 4, np.random.default_rng(0))
    dst = make(core, "L0A", "half", 4)
    before = dst.bytes().copy()
    for p in (LoadData2DParamsV2(0, 0, 0, 3, 1, 1), LoadData2DParamsV2(0, 0, 2, 0, 1, 1)):
        assert core.load_data(dst, src, p).bytes_written == 0
    np.testing.assert_array_equal(dst.bytes(), before)


@pytest.mark.parametrize(
    "dtype,params,exc,start",
    [
        ("half", LoadData2DParamsV2(0, 0, 256, 1, 1, 1), ParamRangeError,
         "LoadData2Dv2: mStep must be in [0, 255]"),
        ("half", LoadData2DParamsV2(0, 0, 1, 256, 1, 1), ParamRangeError,
         "LoadData2Dv2: kStep must be in [0, 255]"),
        ("half", LoadData2DParamsV2(0, 0, 1, 1, 1, 65536), ParamRangeError,
         "LoadData2Dv2: dstStride must be in [0, 65535]"),
        ("half", LoadData2DParamsV2(-1, 0, 1, 1, 1, 1), ParamRangeError,
         "LoadData2Dv2: mStartPosition must be"),
        ("half", LoadData2DParamsV2(0, 0, 1, 1, -1, 1), NotImplementedFeature,
         "LoadData2Dv2: srcStride must be >= 0"),
        ("int8_t", LoadData2DParamsV2(0, 0, 3, 1, 3, 2, True), ParamRangeError,
         "LoadData2Dv2: mStep must be a multiple of 2 for a transposed b8 load"),
        ("fp4x2_e1m2_t", LoadData2DParamsV2(0, 0, 2, 1, 2, 2, True), ParamRangeError,
         "LoadData2Dv2: mStep must be a multiple of 4 for a transposed b4 load"),
        ("float", LoadData2DParamsV2(0, 0, 1, 3, 1, 2, True), ParamRangeError,
         "LoadData2Dv2: kStep must be a multiple of 2 for a transposed b32 load"),
        ("half", LoadData2DParamsV2(0, 0, 2, 4, 3, 2), HazardError, "LoadData2Dv2: reads"),
        ("half", LoadData2DParamsV2(0, 0, 2, 2, 2, 200), BoundsError, "LoadData2Dv2: destination"),
        ("int16_t", LoadData2DParamsV2(0, 0, 1, 1, 1, 1), UnsupportedError, "LoadData2Dv2: dtype int16_t"),
    ],
)
def test_v2_errors(dtype, params, exc, start) -> None:
    core = Core("ascend950", strict=True)
    src = make(core, "L1", dtype, 8, np.random.default_rng(0))
    dst = make(core, "L0A", dtype, 8)
    _untouched(core, lambda: core.load_data(dst, src, params), exc, start)


def test_v2_chip_and_path_errors() -> None:
    core = Core("a2")
    src = make(core, "L1", "half", 1)
    dst = make(core, "L0A", "half", 1)
    _untouched(core, lambda: core.load_data(dst, src, LoadData2DParamsV2(0, 0, 1, 1, 1, 1)), UnsupportedError,
               "LoadData2Dv2: API LoadData2Dv2 is not supported on Atlas A2")
    core = Core("ascend950")
    gm = make(core, "GM", "half", 1)
    l1 = make(core, "L1", "half", 1)
    _untouched(core, lambda: core.load_data(l1, gm, LoadData2DParamsV2(0, 0, 1, 1, 1, 1, True)),
               UnsupportedError, "LoadData2Dv2: ifTranspose=true is only allowed on L1->L0A/L0B")
    l0 = core.tensor("A2", "half", 256, offset=512 + 256)
    _untouched(core, lambda: core.load_data(l0, l1, LoadData2DParamsV2(0, 0, 1, 1, 1, 1)), AlignmentError,
               "LoadData2Dv2: dst (L0A) address must be 512-byte aligned")


# ---------------------------------------------------------------- Load2DBitModeParam


def test_bitmode_bit_layout() -> None:
    """LoadData_2D_BitMode.md 表4/5: config0 = mStart[15:0] kStart[31:16] mStep[39:32] kStep[47:40];
    config1 = srcStride[15:0] dstStride[31:16] (values packed by hand)."""
    bm = Load2DBitModeParam(LoadData2DParamsV2(0x1234, 0x0056, 0x07, 0x89, 0x00AB, 0x0C0D, True))
    assert bm.GetConfig0() == 0x8907_0056_1234
    assert bm.GetConfig1() == 0x0C0D_00AB
    assert bm.GetIfTranspose() is True
    bm2 = Load2DBitModeParam()
    bm2.SetMStep(2)
    bm2.SetKStep(2)
    bm2.SetSrcStride(2)
    bm2.SetDstStride(2)
    assert (bm2.GetMStep(), bm2.GetKStep(), bm2.GetConfig0(), bm2.GetConfig1()) == (2, 2, 0x0202_0000_0000,
                                                                                     0x0002_0002)
    with pytest.raises(ParamRangeError, match=r"^Load2DBitModeParam: mStep is a 8-bit field"):
        bm2.SetMStep(256)


def test_bitmode_doc_example_and_positions() -> None:
    """BitMode 调用示例: 32x32 half A, mStep = kStep = srcStride = dstStride = 2 -> Nz copy."""
    core = Core("ascend950")
    x, src = _v2_setup(core, "half", 32, 32, 2)
    dst = core.tensor("A2", "half", 1024)
    bm = Load2DBitModeParam(LoadData2DParamsV2(0, 0, 2, 2, 2, 2, False, 0))
    core.load_data(dst, src, bm, dst_pos="A2", src_pos="A1")
    np.testing.assert_array_equal(nz_to_nd(_raw(dst), 32, 32, 16), x)
    _untouched(core, lambda: core.load_data(dst, src, bm), ParamRangeError,
               "Load2DBitMode: the Dst TPosition template argument is required")
    _untouched(core, lambda: core.load_data(dst, src, bm, dst_pos="B2", src_pos="A1"), UnsupportedError,
               "Load2DBitMode: Dst TPosition B2 does not match")
    _untouched(core, lambda: core.load_data(dst, src, bm, dst_pos="A1", src_pos="A1"), UnsupportedError,
               "Load2DBitMode: Dst TPosition must be one of A2, B2")
    a2 = Core("a2")
    s2, d2 = make(a2, "L1", "half", 1), make(a2, "L0A", "half", 1)
    _untouched(a2, lambda: a2.load_data(d2, s2, bm, dst_pos="A2", src_pos="A1"), UnsupportedError,
               "Load2DBitMode: API Load2DBitMode is not supported")
