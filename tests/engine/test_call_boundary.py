"""Every data-movement family through the one call boundary (ascsim.engine.boundary, docs/architecture.md
"The call boundary"; issues 8 and 9): a cold call (nothing cached) and a warm one (prepared call cached,
placement cached) write the same bytes and the same record; the record's byte ranges (`writes` /
`reads`, what the sync checker reads) cover every byte the call changed and only the operands' extents;
the element plan a report rebuilds on demand, run by the generic plan executor, gives the bytes the fast
executor gave; absurd calls are refused quickly, without allocating, and leave no prepared call behind.

References: the warm-vs-cold and plan-vs-fast comparisons check ascsim's two paths against each other
(each path is itself tested against the docs' formulas in the family's own test module); the expected
byte ranges are written from the doc formulas (LoadDataWithSparse.md 图1, LoadData_2D_MX.md 表3,
DataCopy（GMToL1高维切分数据搬运）.md 表3, LoadDataWithTranspose.md 表3).
"""

from __future__ import annotations

import copy
import tracemalloc
import warnings
from collections.abc import Callable

import numpy as np
import pytest
from support.fixpipe_goldens import word  # a quantisation word (随路量化.md 表1), Sign set

from ascsim import Core
from ascsim.base.errors import AscsimError, BoundsError
from ascsim.engine.boundary import CALLS, execute
from ascsim.engine.cache import PLANS
from ascsim.machine.dtypes import Bits
from ascsim.params import (
    CFG_COLUMN_MAJOR,
    CFG_NZ,
    DataCopyCO12DstParams,
    DataCopyExtParams,
    DataCopyPadExtParams,
    DataCopyParams,
    Dn2NzParams,
    FixpipeParamsArch3510,
    FixpipeParamsV220,
    InitConstValueParams,
    LoadData2DMxParams,
    LoadData2DParams,
    LoadData2DParamsV2,
    LoadData2dTransposeParams,
    LoadData2dTransposeParamsV2,
    Nd2NzParams,
    Nz2DnParams,
    PaddingMode,
    QuantMode_t,
)


def _rand(core: Core, t, seed: int) -> None:
    t.bytes()[:] = np.random.default_rng(seed).integers(0, 256, t.nbytes, dtype=np.uint8)


def _l0c(core: Core, dtype: str, n: int, seed: int = 1, offset: int = 0):
    """An L0C tensor of small finite values (floats / ints), so every quantisation mode is defined."""
    c = core.tensor("CO1", dtype, n, offset=offset)
    vals = np.random.default_rng(seed).integers(-300, 300, n)
    c.write(vals.astype(np.float32) / 4 if dtype == "float" else vals)
    return c


# -- the cases: (core, the call) built deterministically, so two builds start from the same bytes ---------


def ldwt_v1_int8(core: Core):
    src, dst = core.tensor("B1", "int8_t", 8192), core.tensor("B2", "int8_t", 8192)
    _rand(core, src, 1)
    return lambda: core.load_data_with_transpose(dst, src, LoadData2dTransposeParams(1, 3, 2, 2, 0))


def ldwt_v1_int4(core: Core):
    src, dst = core.tensor("B1", "int4b_t", 32768), core.tensor("B2", "int4b_t", 32768)
    _rand(core, src, 2)
    return lambda: core.load_data_with_transpose(dst, src, LoadData2dTransposeParams(0, 4, 1, 3, 0))


def ldwt_v1_float_overlap(core: Core):
    src, dst = core.tensor("B1", "float", 4096), core.tensor("B2", "float", 4096)
    _rand(core, src, 3)  # dstGap 0 with two fractals per square: outputs overlap (T9, program order)
    return lambda: core.load_data_with_transpose(dst, src, LoadData2dTransposeParams(2, 3, 1, 0, 0, True))


def ldwt_v2_half(core: Core):
    src, dst = core.tensor("B1", "half", 8192), core.tensor("B2", "half", 4096)
    _rand(core, src, 4)
    return lambda: core.load_data_with_transpose(dst, src, LoadData2dTransposeParamsV2(3, 4, 2, 1, 0, 0))


def sparse_load(core: Core):
    src, idx = core.tensor("B1", "int8_t", 4096), core.tensor("B1", "uint8_t", 1024)
    dst = core.tensor("B2", "int8_t", 2048, offset=1024)
    _rand(core, src, 5), _rand(core, idx, 6)
    return lambda: core.load_data_with_sparse(dst, src, idx, LoadData2DParams(2, 3))


def mx_fp8(core: Core):
    src, smx = core.tensor("A1", "fp8_e4m3fn_t", 8192), core.tensor("A1", "fp8_e8m0_t", 1024)
    dst = core.tensor("A2", "mx_fp8_e4m3_t", 4096, offset=2048)
    _rand(core, src, 7), _rand(core, smx, 8)
    return lambda: core.load_data_mx(dst, src, smx, LoadData2DParamsV2(1, 0, 2, 2, 4, 2),
                                     LoadData2DMxParams(1, 1, 2, 2, 4, 3))


def mx_fp8_transposed(core: Core):
    src, smx = core.tensor("A1", "fp8_e4m3fn_t", 8192), core.tensor("A1", "fp8_e8m0_t", 1024)
    dst = core.tensor("B2", "fp8_e4m3fn_t", 4096)
    _rand(core, src, 9), _rand(core, smx, 10)
    return lambda: core.load_data_mx(dst, src, smx, LoadData2DParamsV2(0, 1, 2, 1, 4, 2, True),
                                     LoadData2DMxParams(0, 0, 3, 1, 2, 1))


def copy_plain(core: Core):
    g = core.global_tensor("half", np.arange(4096) % 251)
    l1 = core.tensor("A1", "half", 4096, offset=96)
    return lambda: core.data_copy(l1, g[8], DataCopyParams(3, 2, 1, 2))


def copy_count(core: Core):
    g = core.global_tensor("float", np.arange(512) / 8)
    l1 = core.tensor("A1", "float", 512)
    return lambda: core.data_copy(l1, g[3], 200)


def copy_nd2nz(core: Core):
    g = core.global_tensor("half", np.arange(8192) % 1000)
    l1 = core.tensor("A1", "half", 8192)
    return lambda: core.data_copy(l1, g[5], Nd2NzParams(2, 20, 37, 1000, 50, 24, 1, 2048))


def copy_nd2nz_overlapping_matrices(core: Core):
    g = core.global_tensor("int8_t", np.arange(4096) % 127)
    l1 = core.tensor("A1", "int8_t", 8192)
    return lambda: core.data_copy(l1, g, Nd2NzParams(3, 8, 40, 333, 40, 8, 1, 64))


def copy_dn2nz(core: Core):
    g = core.global_tensor("float", np.arange(8192) % 999)
    l1 = core.tensor("A1", "float", 8192)
    return lambda: core.data_copy(l1, g[1], Dn2NzParams(2, 12, 11, 700, 40, 16, 1, 1024))


def copy_bt_widen(core: Core):
    src = core.tensor("A1", "half", 512, data=np.arange(512) / 16 - 8)
    dst = core.tensor("C2", "float", 256)
    return lambda: core.data_copy(dst, src, DataCopyParams(2, 1, 1, 1))


def copy_fb_head_to_head(core: Core):
    src = core.tensor("A1", "uint64_t", 256, data=np.arange(256))
    dst = core.tensor("C2PIPE2GM", "uint64_t", 256)
    return lambda: core.data_copy(dst, src, DataCopyParams(3, 1, 2, 0))  # dstGap 0: the last block stays


def pad_normal(core: Core):
    g = core.global_tensor("half", np.arange(1024) / 4)
    l1 = core.tensor("A1", "half", 1024)
    return lambda: core.data_copy_pad(l1, g[3], DataCopyExtParams(3, 22, 6, 1),
                                      DataCopyPadExtParams(True, 2, 5, -1.5), PaddingMode.Normal)


def pad_compact_register(core: Core):
    g = core.global_tensor("int8_t", np.arange(1024) % 100)
    l1 = core.tensor("A1", "int8_t", 1024)
    return lambda: core.data_copy_pad(l1, g[1], DataCopyExtParams(4, 13, -5, 0), None, PaddingMode.Compact)


def fill_l1(core: Core):
    t = core.tensor("A1", "half", 4096)
    return lambda: core.init_const_value(t, InitConstValueParams(3, 2, 1, Bits(0xFC00)))


def fill_l0b_int16(core: Core):
    t = core.tensor("B2", "int16_t", 8192)
    return lambda: core.init_const_value(t, InitConstValueParams(2, 3, 2, -3))


def fill_training(core: Core):
    t = core.tensor("A2", "half", 2048)
    return lambda: core.init_const_value(t, InitConstValueParams.repeat_only(3, 2.5))


def fixpipe_nd_cast(core: Core):
    c = _l0c(core, "float", 48 * 32)
    out = core.global_tensor("half", 64 * 48)
    return lambda: core.fixpipe(out[5], c, FixpipeParamsV220(40, 30, 32, 48, quantPre=QuantMode_t.F322F16))


def fixpipe_nd_interleaved(core: Core):
    c = _l0c(core, "float", 4096, seed=2)
    out = core.global_tensor("float", 4096)  # two matrices interleaved row by row (no overlap)
    return lambda: core.fixpipe(out, c, FixpipeParamsV220(16, 8, 16, 32, ndNum=2, srcNdStride=2,
                                                           dstNdStride=16))


def fixpipe_nz_req8_merge(core: Core):
    c = _l0c(core, "int32_t", 16 * 48, seed=3)
    out = core.global_tensor("int8_t", 2048)
    return lambda: core.fixpipe(out, c, FixpipeParamsV220(48, 16, 16, 32, True, QuantMode_t.REQ8,
                                                           word(1 / 8, 3)), CFG_NZ)


def fixpipe_vector_workspace(core: Core):
    c = _l0c(core, "int32_t", 32 * 32, seed=4)
    words = np.array([word(1 / 4 + j / 64, j % 5) for j in range(32)], np.uint64)
    ws = core.tensor("C1", "uint64_t", 32, data=words)
    out = core.global_tensor("half", 1024)
    return lambda: core.fixpipe(out, c, FixpipeParamsV220(32, 32, 32, 32, quantPre=QuantMode_t.VDEQF16),
                                None, ws)


def fixpipe_to_l1(core: Core):
    c = _l0c(core, "float", 16 * 32, seed=5)
    dst = core.tensor("A1", "half", 16 * 32)
    return lambda: core.fixpipe(dst, c, FixpipeParamsV220(32, 16, 16, 16, quantPre=QuantMode_t.F322F16),
                                CFG_NZ)


def fixpipe_atomic(core: Core):
    c = _l0c(core, "float", 16 * 16, seed=6)
    out = core.global_tensor("float", np.ones(256))
    core.set_atomic_add("float")
    return lambda: core.fixpipe(out, c, FixpipeParamsV220(16, 16, 16, 16))


def fixpipe_dn_unaligned(core: Core):
    c = _l0c(core, "float", 16 * 32, seed=7)
    out = core.global_tensor("float", 2048)
    p = FixpipeParamsArch3510(20, 9, 16, 12, params=Nz2DnParams(1, 0, 0, 1))
    return lambda: core.fixpipe(out[5], c, p, CFG_COLUMN_MAJOR)


def datacopy_co1(core: Core):
    c = _l0c(core, "int32_t", 32 * 48, seed=8)
    out = core.global_tensor("int8_t", 32 * 48)
    core.set_fixpipe_nz2nd_flag(1, 0, 0)
    core.set_fixpipe_pre_quant_flag(word(1 / 16, 3))
    return lambda: core.data_copy(out, c, DataCopyCO12DstParams(48, 32, 48, 32, QuantMode_t.REQ8, 0, False,
                                                                True))


CASES: dict[str, tuple[str, Callable]] = {f.__name__: (chip, f) for chip, f in [
    ("a2", ldwt_v1_int8), ("a2", ldwt_v1_int4), ("a2", ldwt_v1_float_overlap), ("ascend950", ldwt_v2_half),
    ("a2", sparse_load), ("ascend950", mx_fp8), ("ascend950", mx_fp8_transposed), ("a2", copy_plain),
    ("a2", copy_count), ("a2", copy_nd2nz), ("a2", copy_nd2nz_overlapping_matrices),
    ("ascend950", copy_dn2nz), ("a2", copy_bt_widen), ("a2", copy_fb_head_to_head), ("ascend950", pad_normal),
    ("ascend950", pad_compact_register), ("a2", fill_l1), ("a2", fill_l0b_int16), ("training", fill_training),
    ("a2", fixpipe_nd_cast), ("a2", fixpipe_nd_interleaved), ("a2", fixpipe_nz_req8_merge),
    ("a2", fixpipe_vector_workspace), ("a2", fixpipe_to_l1), ("a2", fixpipe_atomic),
    ("ascend950", fixpipe_dn_unaligned), ("a2", datacopy_co1),
]}


def _build(name: str):
    chip, make = CASES[name]
    core = Core(chip)
    return core, make(core)


def _state(core: Core) -> dict:
    out = {name: mem.data.copy() for name, mem in core.memories.items()}
    if core._gm is not None:  # the allocated GM (capped: a 2-GiB tensor that nothing writes stays unread)
        out["GM"] = core.gm.data[: min(core.gm.top, 1 << 24)].copy()
    return out


def _restore(core: Core, state: dict, regs) -> None:
    for name, data in state.items():
        core.memory(name).data[: data.size] = data
    core.regs = copy.copy(regs)


def _call(fn):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # hazards / doc conflicts are part of the record compared below
        return fn()


def _record(r) -> tuple:
    return (r.instr, r.bytes_written, r.bytes_read, r.pad_elements, list(r.hazards), list(r.notes), r.writes,
            r.reads)


def _same_state(a: dict, b: dict) -> None:
    assert a.keys() == b.keys()
    for name in a:
        np.testing.assert_array_equal(a[name], b[name], err_msg=name)


@pytest.mark.parametrize("name", list(CASES))
def test_cold_and_warm_calls_write_the_same_bytes(name: str) -> None:
    CALLS.clear()
    PLANS.clear()
    core, call = _build(name)
    cold = _record(_call(call))  # validation, extents, placement and executor all built now
    after = _state(core)
    core2, call2 = _build(name)
    assert _record(_call(call2)) == cold  # the prepared call comes from CALLS
    _same_state(_state(core2), after)
    core3, call3 = _build(name)
    init, regs = _state(core3), copy.copy(core3.regs)
    _call(call3)
    _restore(core3, init, regs)
    assert _record(_call(call3)) == cold  # and now the placement too
    _same_state(_state(core3), after)


def _changed(before: dict, after: dict) -> list[tuple[str, int]]:
    return [(name, int(i)) for name in before for i in np.flatnonzero(before[name] != after[name])]


@pytest.mark.parametrize("name", list(CASES))
def test_record_byte_ranges_cover_every_change(name: str) -> None:
    """Every changed byte lies in a recorded write range; every range lies inside its memory; a data move
    records what it read."""
    core, call = _build(name)
    before = _state(core)
    r = _call(call)
    assert r.writes, "a call that writes records its ranges"
    for mem, a, b in r.writes + r.reads:
        assert 0 <= a < b <= core.memory(mem).size
    for mem, i in _changed(before, _state(core)):
        assert any(m == mem and a <= i < b for m, a, b in r.writes), (mem, i, r.writes)
    assert bool(r.reads) == (not name.startswith("fill"))
    assert r.dst is not None and r.dst.tensor() is not None  # explain / draw find the operands


def test_record_ranges_from_the_doc_formulas() -> None:
    """Exact ranges, written from the doc formulas."""
    core, call = _build("copy_plain")  # 3 blocks of 2x32 B, src gap 1, dst gap 2 (表3)
    r = _call(call)
    g0 = 16  # g[8] of a half GM tensor at GM address 0
    assert r.writes == (("L1", 96, 96 + 2 * 128 + 64),)
    assert r.reads == (("GM", g0, g0 + 2 * 96 + 64),)
    core, call = _build("sparse_load")  # fractals 2..4: 512 B data, 128 B index each (图1)
    r = _call(call)
    assert r.writes == (("L0B", 1024, 1024 + 3 * 512), ("SPARSE_IDX", 256, 256 + 3 * 128))
    assert r.reads == (("L1", 2 * 512, 5 * 512), ("L1", 4096 + 2 * 128, 4096 + 5 * 128))
    core, call = _build("mx_fp8")  # scale units: x 2 rows of y 2, dstStride 3, from (1*4 + 1)*32 (表3)
    r = _call(call)
    assert r.writes[1] == ("L0A_MX", 2048 // 16, 2048 // 16 + (1 * 3 + 2) * 32)
    assert r.reads[1] == ("L1", 8192 + 5 * 32, 8192 + (2 * 4 + 1 + 2) * 32)
    core, call = _build("ldwt_v1_int8")  # squares 1, 3, 5 of 2 fractals; dst fractals 0..1, 3..4, 6..7
    r = _call(call)
    assert r.writes == (("L0B", 0, 8 * 512),) and r.reads == (("L1", 2 * 512, 12 * 512),)


PLAN_CASES = ["ldwt_v1_int8", "ldwt_v1_int4", "ldwt_v1_float_overlap", "ldwt_v2_half", "sparse_load",
              "mx_fp8", "mx_fp8_transposed", "copy_plain", "copy_count", "copy_nd2nz",
              "copy_nd2nz_overlapping_matrices", "copy_dn2nz", "copy_fb_head_to_head", "fill_l1",
              "fill_l0b_int16", "fill_training"]


@pytest.mark.parametrize("name", PLAN_CASES)
def test_plan_on_demand_reproduces_the_fast_executor(name: str) -> None:
    """The element plan a report rebuilds (explain / draw provenance), run by ascsim.engine.plan.execute,
    writes
    the destination bytes the strided / square executors wrote (for the two-part loads: the data part)."""
    core, call = _build(name)
    r = _call(call)
    dst, src = r.dst.tensor(), r.src.tensor() if r.src is not None else None
    core2, _ = _build(name)
    d2 = dst.__class__(core2.memory(dst.memory.name), dst.position, dst.offset, dst.dtype, dst.length)
    s2 = None if src is None else src.__class__(core2.memory(src.memory.name), src.position, src.offset,
                                                 src.dtype, src.length)
    assert r.plan is not None
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        execute(r.plan, d2, s2, r.pad_pattern)
    np.testing.assert_array_equal(d2.memory.data, dst.memory.data)


def test_log_keeps_no_plans() -> None:
    core, call = _build("fixpipe_nd_cast")
    r = _call(call)
    assert r._plan is None and r.planner is not None
    core, call = Core("a2", keep_plans=True), None
    src, dst = core.tensor("B1", "int8_t", 2048), core.tensor("B2", "int8_t", 2048)
    r = core.load_data_with_transpose(dst, src, LoadData2dTransposeParams(0, 2, 1, 1, 0))
    assert r._plan is not None


# -- absurd calls: refused fast, without allocating, leaving nothing cached --------------------------------


def _absurd() -> list[tuple[str, str, Callable[[Core], Callable]]]:
    def gm_huge(core):
        g = core.global_tensor("half", 2**30)  # 2 GiB of GM address space, nothing committed
        l1 = core.tensor("A1", "half", 256)
        return lambda: core.data_copy(l1, g, 2**30)

    def strides(core):
        g, l1 = core.global_tensor("half", 256), core.tensor("A1", "half", 256)
        return lambda: core.data_copy(l1, g, DataCopyParams(4095, 65535, 65535, 65535))

    def nd2nz(core):
        g, l1 = core.global_tensor("half", 256), core.tensor("A1", "half", 256)
        return lambda: core.data_copy(l1, g, Nd2NzParams(4095, 16384, 65535, 65535, 65535, 16384, 1, 16384))

    def ldwt(core):
        s, d = core.tensor("B1", "int4b_t", 1024), core.tensor("B2", "int4b_t", 1024)
        return lambda: core.load_data_with_transpose(d, s, LoadData2dTransposeParams(65535, 255, 65535, 65535,
                                                                                     65535))

    def fixpipe(core):
        c, g = core.tensor("CO1", "float", 256), core.global_tensor("float", 256)
        return lambda: core.fixpipe(g, c, FixpipeParamsV220(4095, 8192, 65535, 2**32 - 1, ndNum=65535,
                                                            srcNdStride=512, dstNdStride=65535))

    def fill(core):
        t = core.tensor("A1", "half", 256)
        return lambda: core.init_const_value(t, InitConstValueParams(32767, 32767, 32767, 1.0))

    def pad(core):
        g, l1 = core.global_tensor("half", 256), core.tensor("A1", "half", 256)
        return lambda: core.data_copy_pad(l1, g, DataCopyExtParams(4095, 2097150, 2**40 - 1, 65535))

    def mx(core):
        src, smx = core.tensor("A1", "fp8_e4m3fn_t", 512), core.tensor("A1", "fp8_e8m0_t", 64)
        dst = core.tensor("A2", "mx_fp8_e4m3_t", 512)
        return lambda: core.load_data_mx(dst, src, smx, LoadData2DParamsV2(2**32 - 1, 2**32 - 1, 255, 255,
                                                                           2**31 - 1, 65535),
                                         LoadData2DMxParams(65535, 65535, 255, 255, 65535, 65535))

    def sparse(core):
        src, idx = core.tensor("B1", "int8_t", 512), core.tensor("B1", "uint8_t", 128)
        dst = core.tensor("B2", "int8_t", 512)
        return lambda: core.load_data_with_sparse(dst, src, idx, LoadData2DParams(65535, 255))

    return [("a2", "gm_huge", gm_huge), ("a2", "strides", strides), ("a2", "nd2nz", nd2nz),
            ("a2", "ldwt", ldwt), ("a2", "fixpipe", fixpipe), ("a2", "fill", fill),
            ("ascend950", "pad", pad), ("ascend950", "mx", mx), ("a2", "sparse", sparse)]


@pytest.mark.parametrize("chip,name,make", _absurd(), ids=[n for _, n, _ in _absurd()])
def test_absurd_calls_are_refused_small(chip: str, name: str, make) -> None:
    """Refused before any work: bounded memory, nothing changed, no plan cached (how fast:
    benchmarks/bench_refusals.py — a timed assertion does not belong in a suite on shared machines)."""
    core = Core(chip)
    call = make(core)
    before = _state(core)
    n_cached = len(CALLS)
    tracemalloc.start()
    with pytest.raises(AscsimError) as ei:
        call()
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert isinstance(ei.value, BoundsError), ei.value
    assert peak < 4 << 20, peak
    _same_state(_state(core), before)
    assert len(CALLS) <= n_cached + 1  # at most the validated call shape (small), never a plan
    assert CALLS.nbytes < CALLS.budget
