"""The in-core sync model (ascsim.engine.sync.SyncChecker), point by point, each from the page that states
it — on the checker directly and through small compiled kernels:

A1 conflicts are judged on the bytes a call touched (its plan's runs), not its first-to-last span;
A2 Mmad.md 同步优化说明: small accumulating Mmads ((m / 16) * (n / 16) < 10) need PipeBarrier<PIPE_M>;
A3 PipeBarrier(ISASI).md: PipeBarrier<PIPE_S> is not supported;
A4 SetFlag-WaitFlag(ISASI).md: a TPipe kernel takes its event ids from AllocEventID / FetchEventID — an id
   written as a literal that a queue (or the TPipe itself) holds collides with it;
A5 Fill.md 约束说明: Fill / InitConstValue into L1 runs on PIPE_MTE2, on the 950 too;
A6 a WaitFlag may come before its SetFlag in program order (the waiting pipe holds, the scalar unit issues
   on); a WaitFlag with no SetFlag ever is still reported;
A7 on the cube core the C++ API's SetFlag / WaitFlag of events between pipes the cube core lacks, and on
   the 950 PipeBarrier<PIPE_MTE3>, return at once (asc-devkit kernel_operator_block_sync_intf_impl.h,
   kernel_reg.h) — they order nothing.
"""

from __future__ import annotations

import warnings
from collections.abc import Iterator
from contextlib import contextmanager

import numpy as np
import pytest
from support.doc_kernels import Kernel, source_line

from ascsim.base.errors import UnsupportedError
from ascsim.engine.sync import (
    HISTORY_CAP,
    MAX_RUNS,
    Access,
    PipeCall,
    SyncChecker,
    SyncError,
    SyncWarning,
    call_accesses,
    coalesce,
    overlap_span,
)
from ascsim.isa.table import pipe_of
from ascsim.params import MmadParams
from ascsim.program import BuildError


def _call(name: str, pipe: str, where: str, *acc: tuple, params: object = None) -> PipeCall:
    return PipeCall(name, pipe, where, [Access(*a) for a in acc], params)


@contextmanager
def _quiet() -> Iterator[None]:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", SyncWarning)
        yield


def _run(text: str, name: str, chip: str = "a2", defines: dict | None = None, gm: dict | None = None,
         strict: bool = False):
    kernel = Kernel(name, chip, defines, text_=text)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return kernel.run(gm=gm or {}, strict=strict)


# -- A1: the bytes a call really touched ------------------------------------------------------------------


def test_runs_overlap_only_where_both_touch_bytes() -> None:
    """Two accesses whose spans interleave (rows of two column blocks of one matrix) share no byte."""
    left = Access("GM", 0, 3 * 256 + 128, True, tuple((r * 256, r * 256 + 128) for r in range(4)))
    right = Access("GM", 128, 4 * 256, True, tuple((r * 256, r * 256 + 128) for r in range(4)))
    assert overlap_span(left, right) is None
    assert overlap_span(left, Access("GM", 300, 600, False)) == (300, 600)  # [300, 384) and [512, 600)
    assert overlap_span(left, Access("GM", 400, 500, False)) is None  # a gap
    s = SyncChecker()
    s.instruction(PipeCall("DataCopy", "MTE3", "k:1", [left]))
    s.instruction(PipeCall("DataCopy", "MTE3", "k:2", [right]))  # same pipe, overlapping spans: no race
    assert s.reports == []


def test_runs_are_capped_by_closing_the_smallest_gaps() -> None:
    runs = [(i * 10, i * 10 + 4) for i in range(MAX_RUNS)] + [(MAX_RUNS * 10 + 100, MAX_RUNS * 10 + 104)]
    capped = coalesce(runs)
    assert len(capped) == MAX_RUNS
    assert capped[0] == (0, 14)  # the first gap (6 bytes) closed; the 100-byte gap kept
    assert capped[-1] == runs[-1]


ROW_BLOCKS = """
#include "kernel_operator.h"
constexpr uint32_t M = 32, K = 64;  // A (M x K half) in L1 as Nz: K / 16 fractal columns, M rows high
extern "C" __global__ __aicore__ void rows(GM_ADDR a)
{
    AscendC::GlobalTensor<half> aGM;
    aGM.SetGlobalBuffer((__gm__ half*)a, M * K);
    AscendC::LocalTensor<half> a1(AscendC::TPosition::A1, 0, M * K);
    AscendC::LocalTensor<half> a2(AscendC::TPosition::A2, 0, 16 * K);
    // rows 0-15 (row block 0): one fractal per column block, M rows apart
    AscendC::DataCopy(a1, aGM, AscendC::Nd2NzParams{1, 16, K, 0, K, M, 1, 0});
    AscendC::SetFlag<AscendC::HardEvent::MTE2_MTE1>(EVENT_ID0);
    AscendC::WaitFlag<AscendC::HardEvent::MTE2_MTE1>(EVENT_ID0);
    // rows 16-31 (row block 1): fractals between row block 0's, no flag before the load below
    AscendC::DataCopy(a1[16 * 16], aGM[16 * K], AscendC::Nd2NzParams{1, 16, K, 0, K, M, 1, 0});  // rows:copy1
    AscendC::LoadData2DParams p;
    p.startIndex = LOAD_BLOCK;  // Zz of that row block: its K / 16 fractals, M / 16 fractals apart
    p.repeatTimes = K / 16;
    p.srcStride = M / 16;
    p.ifTranspose = false;
    AscendC::LoadData(a2, a1, p);  // rows:load
    AscendC::PipeBarrier<PIPE_ALL>();
}
"""


def test_strided_copy_into_one_row_block_and_a_load_of_another_are_no_race() -> None:
    """Nd2Nz of rows 16-31 writes fractals (1, j); the load of row block 0 reads fractals (0, j): the two
    spans overlap (fractal (0, 1) lies inside the copy's span), the bytes do not. Loading row block 1
    instead is the read-after-write the missing flag leaves."""
    a = np.random.default_rng(0).integers(-8, 8, (32, 64)).astype(np.float16)
    r = _run(ROW_BLOCKS, "rows.cpp", defines={"LOAD_BLOCK": "0"}, gm={"a": a})
    assert r.sync_reports == []
    zz = a[:16].reshape(16, 4, 16).transpose(1, 0, 2).ravel()  # fractal j = rows 0-15, columns 16j..
    np.testing.assert_array_equal(r.core.memory("L0A").data[: zz.size * 2].view(np.float16), zz)
    copy1, load = (next(t for t in r.trace if t.where == f"rows.cpp:{source_line(ROW_BLOCKS, m)}")
                   for m in ("// rows:copy1", "// rows:load"))
    (w,) = [x for x in call_accesses(copy1.report, [], []) if x.write]
    (rd,) = [x for x in call_accesses(load.report, [], []) if not x.write]
    assert w.start < rd.end and rd.start < w.end  # the spans overlap ...
    assert overlap_span(w, rd) is None  # ... the bytes do not
    assert w.runs is not None and len(w.runs) == 4 and rd.runs is not None and len(rd.runs) == 4

    r = _run(ROW_BLOCKS, "rows.cpp", defines={"LOAD_BLOCK": "1"}, gm={"a": a})
    lines = tuple(f"rows.cpp:{source_line(ROW_BLOCKS, m)}" for m in ("// rows:load", "// rows:copy1"))
    assert [(x.kind, x.lines) for x in r.sync_reports] == [("RAW", lines)]
    assert r.sync_reports[0].message.startswith(
        f"{lines[0]}: LoadData (MTE1) reads L1 [512, 4096) written by DataCopy at {lines[1]} (MTE2) with no "
        "WaitFlag<MTE2_MTE1>")


# -- A2: the Mmad page's PipeBarrier<PIPE_M> rule --------------------------------------------------------


def _two_mmads(m: int, n: int, barrier: bool) -> SyncChecker:
    s = SyncChecker()
    c = ("L0C", 0, 4096, True)
    s.instruction(_call("Mmad", "M", "k:1", c, ("L0A", 0, 512, False), params=MmadParams(m, n, 16)))
    if barrier:
        s.barrier("M", "k:2")
    acc = MmadParams(m, n, 16, cmatrixInitVal=False)
    s.instruction(_call("Mmad", "M", "k:3", c, ("L0C", 0, 4096, False), ("L0A", 0, 512, False), params=acc))
    return s


@pytest.mark.parametrize(("m", "n", "reported"), [(30, 40, True), (48, 48, True), (32, 80, False),
                                                  (64, 48, False), (16, 144, True), (15, 200, True)])
def test_small_accumulating_mmads_need_a_pipe_m_barrier(m: int, n: int, reported: bool) -> None:
    """"阈值公式：(m / 16) * (n / 16) < 10" with C++ integer division: 30 x 40 -> 1 * 2 = 2, 48 x 48 -> 9,
    16 x 144 -> 9 and 15 x 200 -> 0 need the barrier; 32 x 80 -> 10 and 64 x 48 -> 12 do not."""
    with _quiet():
        s = _two_mmads(m, n, barrier=False)
    assert [(r.kind, r.lines) for r in s.reports] == ([("mmad-barrier", ("k:3", "k:1"))] if reported else [])
    assert _two_mmads(m, n, barrier=True).reports == []


def test_the_mmad_rule_message_quotes_the_page() -> None:
    with _quiet():
        s = _two_mmads(30, 40, barrier=False)
    assert s.reports[0].message == (
        "k:3: Mmad (M) accumulates into L0C [0, 4096) written by Mmad at k:1 with no PipeBarrier<PIPE_M> "
        "between them; Mmad.md 同步优化说明: \"当计算量小于阈值时，需要插入PipeBarrier(PIPE_M)\", 阈值公式 "
        "(m / 16) * (n / 16) < 10, here (30 / 16) * (40 / 16) = 2")


def test_an_mmad_that_does_not_accumulate_needs_no_barrier() -> None:
    s = SyncChecker()
    for w in ("k:1", "k:2"):  # cmatrixInitVal = true: L0C is written, not read
        s.instruction(_call("Mmad", "M", w, ("L0C", 0, 4096, True), params=MmadParams(30, 40, 16)))
    assert s.reports == []


def test_flags_through_another_pipe_order_the_earlier_mmads_completion() -> None:
    """SetFlag<M_MTE1> after Mmad 1 runs when Mmad 1 has finished; MTE1 waits for it and M waits for MTE1:
    Mmad 2 starts after Mmad 1 is done, which is what the barrier would give."""
    s = SyncChecker()
    s.instruction(_call("Mmad", "M", "k:1", ("L0C", 0, 4096, True), params=MmadParams(30, 40, 16)))
    for ev, at in (("M_MTE1", "k:2"), ("MTE1_M", "k:3")):
        s.set_flag(ev, 0, at)
        s.wait_flag(ev, 0, at)
    s.instruction(_call("Mmad", "M", "k:4", ("L0C", 0, 4096, True), ("L0C", 0, 4096, False),
                        params=MmadParams(30, 40, 16, cmatrixInitVal=False)))
    assert s.reports == []


MMAD_TWICE = """
#include "kernel_operator.h"
constexpr uint16_t M = 30, N = 40, K = 32;  // mmad.asc's m and n
extern "C" __global__ __aicore__ void twice(GM_ADDR unused)
{
    AscendC::LocalTensor<half> a2(AscendC::TPosition::A2, 0, 32 * K);
    AscendC::LocalTensor<half> b2(AscendC::TPosition::B2, 0, K * 48);
    AscendC::LocalTensor<float> c1(AscendC::TPosition::CO1, 0, 32 * 48);
    AscendC::Fill(a2, AscendC::InitConstValueParams<half>(1, 4, 0, static_cast<half>(1.0f)));
    AscendC::Fill(b2, AscendC::InitConstValueParams<half>(1, 6, 0, static_cast<half>(1.0f)));
    AscendC::SetFlag<AscendC::HardEvent::MTE1_M>(EVENT_ID0);
    AscendC::WaitFlag<AscendC::HardEvent::MTE1_M>(EVENT_ID0);
    AscendC::Mmad(c1, a2, b2, AscendC::MmadParams(M, N, K, 0, false, true));  // twice:first
#ifdef BARRIER
    AscendC::PipeBarrier<PIPE_M>();
#endif
    AscendC::Mmad(c1, a2, b2, AscendC::MmadParams(M, N, K, 0, false, false));  // twice:second
    AscendC::PipeBarrier<PIPE_ALL>();
}
"""


def test_mmad_rule_through_a_kernel_names_both_lines() -> None:
    """mmad.asc's shape (m = 30, n = 40) accumulated twice: C = 2 * K everywhere it is defined (A and B
    all ones), and without PipeBarrier<PIPE_M> the rule's finding names both Mmads; strict stops there."""
    first, second = (f"twice.cpp:{source_line(MMAD_TWICE, m)}" for m in ("twice:first", "twice:second"))
    r = _run(MMAD_TWICE, "twice.cpp")
    assert [(x.kind, x.lines) for x in r.sync_reports] == [("mmad-barrier", (second, first))]
    assert r.core.memory("L0C").data[:4].view(np.float32)[0] == 2 * 32
    r = _run(MMAD_TWICE, "twice.cpp", defines={"BARRIER": ""})
    assert r.sync_reports == []
    assert r.core.memory("L0C").data[:4].view(np.float32)[0] == 2 * 32
    with pytest.raises(SyncError, match=rf"^{second}: Mmad \(M\) accumulates into L0C"):
        _run(MMAD_TWICE, "twice.cpp", strict=True)


# -- A3: PipeBarrier<PIPE_S> ---------------------------------------------------------------------------


def test_pipe_barrier_of_the_scalar_pipe_is_refused() -> None:
    rule = (r"PipeBarrier<PIPE_S> is not supported \(the doc page forbids this: PipeBarrier\(ISASI\)\.md "
            r"约束说明: \"Scalar流水之间的同步由硬件自动保证，PipeBarrier接口不支持PIPE_S单流水的同步\"")
    with pytest.raises(UnsupportedError, match=rule):
        SyncChecker().barrier("S", "k:1")


BARRIER_S = """
#include "kernel_operator.h"
extern "C" __global__ __aicore__ void bar(GM_ADDR unused)
{
    AscendC::PipeBarrier<PIPE_S>();
}
"""


def test_pipe_barrier_of_the_scalar_pipe_stops_the_kernel_at_its_line() -> None:
    """On the A2 the C++ API passes it to pipe_barrier(PIPE_S) (kernel_reg.h); the page forbids it, so the
    engine refuses it at the call's line. On the 950 the C++ API's static_assert refuses it at compile
    time (kernel_reg.h: "PipeBarrier<PIPE_S> is not supported on current device!")."""
    line = source_line(BARRIER_S, "PipeBarrier<PIPE_S>")
    with pytest.raises(UnsupportedError, match=rf"^bar.cpp:{line}:\d+: PipeBarrier<PIPE_S> is not supported"):
        _run(BARRIER_S, "bar.cpp")
    with pytest.raises(BuildError, match=r"PipeBarrier<PIPE_S> is not supported"):
        _run(BARRIER_S, "bar.cpp", chip="950")


# -- A4: event ids of a TPipe kernel -------------------------------------------------------------------


QUEUE_IDS = """
#include "kernel_operator.h"
extern "C" __global__ __aicore__ void ids(GM_ADDR a)
{
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::TPosition::A1, 1> qA1;
    pipe.InitBuffer(qA1, 1, 32 * 32 * sizeof(half));
    AscendC::GlobalTensor<half> aGM;
    aGM.SetGlobalBuffer((__gm__ half*)a, 32 * 32);
    AscendC::LocalTensor<half> a1 = qA1.AllocTensor<half>();
    AscendC::DataCopy(a1, aGM, 32 * 32);
    qA1.EnQue(a1);  // ids:enque (takes id 0 of MTE2_MTE1)
#ifdef LITERAL
    AscendC::SetFlag<AscendC::HardEvent::MTE2_MTE1>(EVENT_ID0);  // ids:set
    AscendC::WaitFlag<AscendC::HardEvent::MTE2_MTE1>(EVENT_ID0);
#else
    AscendC::TEventID id = pipe.AllocEventID<AscendC::HardEvent::MTE2_MTE1>();
    AscendC::SetFlag<AscendC::HardEvent::MTE2_MTE1>(id);
    AscendC::WaitFlag<AscendC::HardEvent::MTE2_MTE1>(id);
    pipe.ReleaseEventID<AscendC::HardEvent::MTE2_MTE1>(id);
#endif
    a1 = qA1.DeQue<half>();
    qA1.FreeTensor(a1);
}
"""


def test_a_literal_event_id_a_queue_holds_collides_with_it() -> None:
    """SetFlag-WaitFlag(ISASI).md 约束说明: "在采用TPipe-TQue框架编程范式时，eventID需要通过AllocEventID或者
    FetchEventID来获取". EVENT_ID0 while the queue's EnQue holds id 0 of MTE2_MTE1: a finding naming both
    lines (and the queue's DeQue then waits for a flag the literal WaitFlag took). From AllocEventID the id
    is another one and nothing is reported."""
    a = np.zeros((32, 32), np.float16)
    r = _run(QUEUE_IDS, "ids.cpp", defines={"LITERAL": ""}, gm={"a": a})
    set_, enque = (f"ids.cpp:{source_line(QUEUE_IDS, m)}" for m in ("ids:set", "ids:enque"))
    first = r.sync_reports[0]
    assert (first.kind, first.lines) == ("event-collision", (set_, enque))
    assert first.message == (
        f"{set_}: SetFlag<MTE2_MTE1>(0) uses id 0 of MTE2_MTE1, which the TPipe holds for a queue (taken at "
        f"{enque}); in a TPipe kernel event ids come from AllocEventID / FetchEventID "
        "(SetFlag-WaitFlag(ISASI).md 约束说明)")
    assert {x.kind for x in r.sync_reports[1:]} <= {"event-collision", "hang", "unpaired-wait"}
    assert _run(QUEUE_IDS, "ids.cpp", gm={"a": a}).sync_reports == []


def test_the_tpipes_own_m_mte1_ids_collide_with_a_literal() -> None:
    """The cube core's TPipe takes M_MTE1 ids 0-2 and sets them at construction (asc-devkit
    kernel_tpipe_impl.h:98-125); a user's SetFlag<M_MTE1>(EVENT_ID1) collides with it."""
    s = SyncChecker()
    for i in range(3):
        s.alloc_event("M_MTE1", i, "TPipe", "k:1")
        s.set_flag("M_MTE1", i, "k:1", "TPipe")
    with _quiet():
        s.set_flag("M_MTE1", 1, "k:5")
    assert [(r.kind, r.lines) for r in s.reports] == [("event-collision", ("k:5", "k:1"))]
    assert "which the TPipe holds for itself" in s.reports[0].message


def test_a_queue_taking_an_id_a_literal_set_holds_is_reported() -> None:
    s = SyncChecker()
    s.set_flag("MTE2_MTE1", 0, "k:1")
    with _quiet():
        s.alloc_event("MTE2_MTE1", 0, "queue", "k:2")
    assert [(r.kind, r.lines) for r in s.reports] == [("event-collision", ("k:2", "k:1"))]
    s = SyncChecker()  # AllocEventID's ids are the user's own
    s.alloc_event("MTE2_MTE1", 1, "AllocEventID", "k:1")
    s.set_flag("MTE2_MTE1", 1, "k:2")
    s.wait_flag("MTE2_MTE1", 1, "k:3")
    s.release_event("MTE2_MTE1", 1, "k:4")
    s.finish()
    assert s.reports == []


# -- A5: the pipe of Fill into L1 ----------------------------------------------------------------------


def test_fill_into_l1_is_mte2_on_every_chip() -> None:
    """Fill.md 约束说明: "当目的操作数位于L1 Buffer时，指令执行占用的流水为PIPE_MTE2"; L0A / L0B:
    PIPE_MTE1."""
    for chip in ("a2", "a3", "ascend950"):
        assert pipe_of("Fill", "L1", None, chip) == "MTE2"
        assert pipe_of("Fill", "L0A", None, chip) == "MTE1"


FILL_THEN_LOAD = """
#include "kernel_operator.h"
extern "C" __global__ __aicore__ void fill(GM_ADDR unused)
{
    AscendC::LocalTensor<half> a1(AscendC::TPosition::A1, 0, 32 * 32);
    AscendC::LocalTensor<half> a2(AscendC::TPosition::A2, 0, 32 * 32);
    AscendC::Fill(a1, AscendC::InitConstValueParams<half>(1, 64, 0, static_cast<half>(1.0f)));  // fill:fill
#ifdef MTE2_FLAG
    AscendC::SetFlag<AscendC::HardEvent::MTE2_MTE1>(EVENT_ID0);
    AscendC::WaitFlag<AscendC::HardEvent::MTE2_MTE1>(EVENT_ID0);
#else
    AscendC::PipeBarrier<PIPE_MTE1>();  // asc-devkit mmad_mx.asc orders its L1 Fill this way
#endif
#if defined(__NPU_ARCH__) && __NPU_ARCH__ == 3510
    uint8_t noPad[4] = {0, 0, 0, 0};
    AscendC::LoadData3DParamsV2<half> p(noPad, 1, 32, 32, 32, 32, 0, 0, 1, 1, 1, 1, 1, 1, false, false, 0);
    AscendC::LoadData(a2, a1, p);  // fill:load
#else
    AscendC::LoadData2DParams p;
    p.repeatTimes = 4;
    p.srcStride = 1;
    AscendC::LoadData(a2, a1, p);  // fill:load
#endif
    AscendC::PipeBarrier<PIPE_ALL>();
}
"""


@pytest.mark.parametrize("chip", ["950", "a2"])
def test_a_load_after_an_l1_fill_needs_the_mte2_flag(chip: str) -> None:
    """The L1 Fill runs on MTE2, so a LoadData (MTE1) of the filled bytes needs WaitFlag<MTE2_MTE1>; a
    PipeBarrier<PIPE_MTE1> (the order of asc-devkit's 950 mmad_mx example) leaves a read-after-write. The
    C++ API issues the same create_cbuf_matrix on 2201 and 3510 (kernel_operator_mm_impl.h InitL1BufferCal)
    and asc_fill_l1.md gives 流水类型 PIPE_MTE2 for the 950 too (docs/divergences.md R8)."""
    loads = [i for i, ln in enumerate(FILL_THEN_LOAD.splitlines(), 1) if "fill:load" in ln]
    fill, load = f"fill.cpp:{source_line(FILL_THEN_LOAD, 'fill:fill')}", f"fill.cpp:{loads[chip == 'a2']}"
    r = _run(FILL_THEN_LOAD, "fill.cpp", chip)
    assert [(x.kind, x.lines) for x in r.sync_reports] == [("RAW", (load, fill))]
    assert r.sync_reports[0].message.startswith(
        f"{load}: LoadData (MTE1) reads L1 [0, 2048) written by Fill at {fill} (MTE2) with no "
        "WaitFlag<MTE2_MTE1>")
    r = _run(FILL_THEN_LOAD, "fill.cpp", chip, defines={"MTE2_FLAG": ""})
    assert r.sync_reports == []
    l0a = r.core.memory("L0A").data[:2048].view(np.float16)
    np.testing.assert_array_equal(l0a, np.ones(1024, np.float16))


# -- A6: WaitFlag before its SetFlag -------------------------------------------------------------------


def test_a_wait_before_its_set_holds_the_waiting_pipe_until_the_set() -> None:
    """WaitFlag<MTE1_MTE2> issued first: MTE2 holds; the LoadData (MTE1) then reads L1 and SetFlag<MTE1_MTE2>
    releases MTE2, whose DataCopy overwrites L1 after the load — ordered, no report (the old model called
    the wait unpaired and the copy a race)."""
    s = SyncChecker()
    s.wait_flag("MTE1_MTE2", 0, "k:1")
    s.instruction(_call("LoadData", "MTE1", "k:2", ("L1", 0, 512, False), ("L0A", 0, 512, True)))
    s.set_flag("MTE1_MTE2", 0, "k:3")
    s.instruction(_call("DataCopy", "MTE2", "k:4", ("GM", 0, 512, False), ("L1", 0, 512, True)))
    s.finish()
    assert s.reports == []


def test_calls_of_the_held_pipe_are_ordered_after_the_set() -> None:
    """A DataCopy issued between the WaitFlag and the SetFlag waits with its pipe: it runs after the
    LoadData the SetFlag follows, and does not race with it — but the device then runs the two in the
    other order than the program (and ascsim), which is reported as such."""
    s = SyncChecker()
    s.wait_flag("MTE1_MTE2", 0, "k:1")
    s.instruction(_call("DataCopy", "MTE2", "k:2", ("GM", 0, 512, False), ("L1", 0, 512, True)))
    s.instruction(_call("LoadData", "MTE1", "k:3", ("L1", 0, 512, False), ("L0A", 0, 512, True)))
    with _quiet():
        s.set_flag("MTE1_MTE2", 0, "k:4")
    assert [(r.kind, r.lines) for r in s.reports] == [("reordered", ("k:2", "k:3"))]
    assert s.reports[0].message.startswith(
        "k:2: DataCopy (MTE2) writes L1 [0, 512), which LoadData at k:3 (MTE1), issued after it, reads first "
        "on the device: DataCopy is held by WaitFlag<MTE1_MTE2>(0) at k:1 until the SetFlag at k:4")
    s = SyncChecker()  # without a conflict, the held call is simply ordered after the set
    s.wait_flag("MTE1_MTE2", 0, "k:1")
    held = _call("DataCopy", "MTE2", "k:2", ("GM", 0, 512, False), ("L1", 512, 1024, True))
    assert s.instruction(held) == 1  # its number on MTE2, given when it is issued
    s.instruction(_call("LoadData", "MTE1", "k:3", ("L1", 0, 512, False), ("L0A", 0, 512, True)))
    assert s.count["MTE2"] == 0 and s.vc["MTE2"]["MTE1"] == 0  # held: not run yet
    s.set_flag("MTE1_MTE2", 0, "k:4")
    assert s.count["MTE2"] == 1 and s.vc["MTE2"]["MTE1"] == 1  # ran after the load the set follows
    assert s.reports == []


def test_a_wait_whose_set_never_comes_is_reported() -> None:
    s = SyncChecker()
    s.wait_flag("M_MTE1", 2, "k:1")
    s.instruction(_call("LoadData", "MTE1", "k:2", ("L1", 0, 512, False), ("L0A", 0, 512, True)))
    with _quiet():
        s.finish()
    assert [(r.kind, r.lines) for r in s.reports] == [("unpaired-wait", ("k:1",))]
    assert s.reports[0].message == (
        "k:1: WaitFlag<M_MTE1>(2) has no SetFlag<M_MTE1>(2) before it or after it: pipe MTE1 waits for it "
        "forever (SetFlag-WaitFlag(ISASI).md 约束说明: 必须成对使用)")


def test_a_pipe_all_barrier_while_a_pipe_waits_is_a_hang() -> None:
    """PipeBarrier<PIPE_ALL> "会等待所有流水线中所有先前提交的接口完成": with MTE1 held by a WaitFlag whose
    SetFlag comes after the barrier, the scalar unit stops at the barrier and never issues it."""
    s = SyncChecker()
    s.wait_flag("MTE2_MTE1", 0, "k:1")
    with _quiet():
        s.barrier("ALL", "k:2")
        s.set_flag("MTE2_MTE1", 0, "k:3")
        s.finish()
    assert [(r.kind, r.lines) for r in s.reports] == [("hang", ("k:2", "k:1")), ("unpaired-set", ("k:3",))]


def test_a_scalar_wait_before_its_set_is_a_hang() -> None:
    s = SyncChecker()
    with _quiet():
        s.wait_flag("MTE2_S", 0, "k:1")
    assert [r.kind for r in s.reports] == ["hang"]


WAIT_FIRST = """
#include "kernel_operator.h"
extern "C" __global__ __aicore__ void wait_first(GM_ADDR a, GM_ADDR b)
{
    AscendC::GlobalTensor<half> aGM, bGM;
    aGM.SetGlobalBuffer((__gm__ half*)a, 1024);
    bGM.SetGlobalBuffer((__gm__ half*)b, 1024);
    AscendC::LocalTensor<half> a1(AscendC::TPosition::A1, 0, 1024);
    AscendC::LocalTensor<half> a2(AscendC::TPosition::A2, 0, 1024);
    AscendC::DataCopy(a1, aGM, 1024);
    AscendC::SetFlag<AscendC::HardEvent::MTE2_MTE1>(EVENT_ID0);
    AscendC::WaitFlag<AscendC::HardEvent::MTE2_MTE1>(EVENT_ID0);
    AscendC::WaitFlag<AscendC::HardEvent::MTE1_MTE2>(EVENT_ID0);  // wait:wait (MTE2 holds until MTE1 is done)
#ifdef HELD_COPY
    AscendC::DataCopy(a1, bGM, 1024);  // wait:held
#endif
    AscendC::LoadData2DParams p;
    p.repeatTimes = 4;
    p.srcStride = 1;
    AscendC::LoadData(a2, a1, p);  // wait:load
    AscendC::SetFlag<AscendC::HardEvent::MTE1_MTE2>(EVENT_ID0);  // wait:set
#ifndef HELD_COPY
    AscendC::DataCopy(a1, bGM, 1024);
#endif
    AscendC::PipeBarrier<PIPE_ALL>();
}
"""


def test_wait_before_set_through_a_kernel() -> None:
    """The legal order runs clean, the load reading A; with the copy of B issued between the wait and the
    set, the device loads A (the copy waits for the set) while ascsim, in program order, loads B — the
    `reordered` finding says so, naming both lines."""
    a = np.arange(1024, dtype=np.float16).reshape(32, 32)
    b = -a
    r = _run(WAIT_FIRST, "wait.cpp", gm={"a": a, "b": b})
    assert r.sync_reports == []
    np.testing.assert_array_equal(r.core.memory("L0A").data[:2048].view(np.float16), a.ravel())
    r = _run(WAIT_FIRST, "wait.cpp", defines={"HELD_COPY": ""}, gm={"a": a, "b": b})
    held, load = (f"wait.cpp:{source_line(WAIT_FIRST, m)}" for m in ("wait:held", "wait:load"))
    assert [(x.kind, x.lines) for x in r.sync_reports] == [("reordered", (held, load))]
    np.testing.assert_array_equal(r.core.memory("L0A").data[:2048].view(np.float16), b.ravel())


# -- A7: events and barriers that do nothing on the cube core ------------------------------------------


def test_vector_pipe_events_are_no_ops_on_the_cube_core() -> None:
    """kernel_operator_block_sync_intf_impl.h: on the AIC, SetFlag / WaitFlag of MTE2_V, V_MTE2, MTE3_V,
    V_MTE3, V_V, S_V, V_S return at once — an unpaired one is no finding, a "paired" one orders nothing."""
    s = SyncChecker(chip="a2")
    s.set_flag("MTE2_V", 0, "k:1")
    s.set_flag("V_S", 1, "k:2")
    s.finish()
    assert s.reports == []


@pytest.mark.parametrize(("chip", "raced"), [("a2", False), ("950", True)])
def test_mte2_mte3_flags_order_nothing_on_the_950_cube_core(chip: str, raced: bool) -> None:
    """On arch 3510 the list also holds MTE2_MTE3 / MTE3_MTE2 / MTE3_S / S_MTE3: an L1 -> GM copy after the
    flag pair still races with the GM -> L1 copy it follows."""
    s = SyncChecker(chip=chip)
    with _quiet():
        s.instruction(_call("DataCopy", "MTE2", "k:1", ("GM", 0, 512, False), ("L1", 0, 512, True)))
        s.set_flag("MTE2_MTE3", 0, "k:2")
        s.wait_flag("MTE2_MTE3", 0, "k:3")
        s.instruction(_call("DataCopy", "MTE3", "k:4", ("L1", 0, 512, False), ("GM", 4096, 4608, True)))
    assert [(r.kind, r.lines) for r in s.reports] == ([("RAW", ("k:4", "k:1"))] if raced else [])
    if raced:
        assert s.reports[0].message.endswith(
            "with no WaitFlag<MTE2_MTE3> between them (SetFlag / WaitFlag<MTE2_MTE3>, as at k:3, does "
            "nothing on this chip's cube core: the C++ API returns at once, docs/divergences.md R22)")


@pytest.mark.parametrize(("chip", "raced"), [("a2", False), ("950", True)])
def test_pipe_barrier_of_mte3_is_a_no_op_on_the_950_cube_core(chip: str, raced: bool) -> None:
    """kernel_reg.h (3510): `if ASCEND_IS_AIC { if constexpr (pipe == PIPE_MTE3) return; }` — two copies to
    overlapping GM bytes stay unordered (PipeBarrier(ISASI).md: overlapping MTE3 copies need the barrier)."""
    s = SyncChecker(chip=chip)
    with _quiet():
        s.instruction(_call("DataCopy", "MTE3", "k:1", ("L1", 0, 512, False), ("GM", 0, 512, True)))
        s.barrier("MTE3", "k:2")
        s.instruction(_call("DataCopy", "MTE3", "k:3", ("L1", 0, 512, False), ("GM", 256, 768, True)))
    assert [(r.kind, r.lines) for r in s.reports] == ([("WAW", ("k:3", "k:1"))] if raced else [])


@pytest.mark.parametrize(("mmad_unit", "fix_unit", "reported"), [(3, 3, False), (2, 3, False), (0, 3, True),
                                                                (3, 0, True), (0, 0, True)])
def test_unit_flags_order_mmad_and_fixpipe(mmad_unit: int, fix_unit: int, reported: bool) -> None:
    """Mmad.md 参数说明 unitFlag: with unitFlag 2 or 3 on both the Mmad and the Fixpipe
    ("须将Mmad指令和Fixpipe指令的unitFlag值设置为2或3"), the hardware moves each fractal out once it is
    computed — no M_FIX flag is needed between them (catlass's matmuls rely on it); with either off, the read
    is a race (docs/divergences.md R24)."""
    from ascsim.params import FixpipeParamsV220

    chk = SyncChecker(chip="a2")
    with _quiet():
        chk.instruction(_call("Mmad", "M", "k.cpp:10", ("L0C", 0, 1024, True),
                              params=MmadParams(16, 16, 16, unitFlag=mmad_unit)))
        chk.instruction(_call("Fixpipe", "FIX", "k.cpp:11", ("L0C", 0, 1024, False), ("GM", 0, 1024, True),
                              params=FixpipeParamsV220(16, 16, 16, 16, unitFlag=fix_unit)))
    raw = [r for r in chk.reports if r.kind == "RAW"]
    assert bool(raw) == reported, chk.reports


# -- A8: a long kernel's bounded history stays exact for the pipes that use a memory ---------------------


def _ring(chk: SyncChecker, iterations: int, slots: int = 64) -> None:
    """MTE2 copies into one of `slots` 512-B slots of L1 and MTE1 reads it back, each copy released by a
    MTE2_MTE1 flag and each slot handed back by a MTE1_MTE2 flag (the sync pages' double-buffer pattern,
    one id per slot parity) — correctly synchronised, for far more calls than the history keeps."""
    for i in range(iterations):
        s, ev = (i % slots) * 512, i % 2
        if i >= 2:
            chk.wait_flag("MTE1_MTE2", ev, "k.cpp:10")
        chk.instruction(_call("DataCopy", "MTE2", "k.cpp:11", ("L1", s, s + 512, True)))
        chk.set_flag("MTE2_MTE1", ev, "k.cpp:12")
        chk.wait_flag("MTE2_MTE1", ev, "k.cpp:13")
        chk.instruction(_call("LoadData", "MTE1", "k.cpp:14", ("L1", s, s + 512, False),
                              ("L0A", 0, 512, True)))
        chk.set_flag("MTE1_MTE2", ev, "k.cpp:15")


def test_a_long_synchronised_kernel_has_no_finding_past_the_history_cap() -> None:
    """A8. 4,000 iterations (past the 512 accesses a pipe's history keeps per memory before it merges old
    ones): the pipes that never touch L1 here (V, MTE3, S, M, FIX) must not hold the history back until it
    merges into byte supersets that look like races (the planner's 4096^3 kernel got 139 WAR / WAW
    findings that way, all false: the same run with the cap raised had none)."""
    chk = SyncChecker()
    _ring(chk, 4000)
    assert [r.message for r in chk.reports] == []
    # and the history stays bounded: at most HISTORY_CAP per (memory, pipe) between prunes
    assert all(len(v) <= HISTORY_CAP for m in chk.history.values() for v in m.values())


def test_a_pipe_first_touching_a_memory_late_is_still_checked_against_old_writes() -> None:
    """A8, the other side: history pruned while MTE3 had not touched L1 yet must still catch MTE3 reading
    bytes MTE2 wrote long ago with nothing ordering MTE3 after that copy (an L1 -> GM DataCopy without its
    MTE2_MTE3 flag)."""
    chk = SyncChecker()
    with _quiet():
        _ring(chk, 2000)
        chk.instruction(_call("DataCopy", "MTE3", "k.cpp:20", ("L1", 0, 512, False), ("GM", 0, 512, True)))
    assert [r.kind for r in chk.reports] == ["RAW"]
    assert chk.reports[0].message.startswith("k.cpp:20: DataCopy (MTE3) reads L1")
