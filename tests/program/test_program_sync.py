"""Sync checking of kernels run from source: races between pipes and unpaired flags, each reported with
both source lines; the correctly synchronised versions report nothing.

The model is the sync pages' (同步控制/核内同步): pipes run their own instructions in order and concurrently
with each other; SetFlag<P_Q> / WaitFlag<P_Q> and a TQue's EnQue / DeQue order pipe P's earlier
instructions before pipe Q's later ones; PipeBarrier orders a pipe with itself (PIPE_ALL: everything).
"""

from __future__ import annotations

import subprocess
import sys
import warnings
from pathlib import Path

import numpy as np
import pytest
from support.doc_kernels import Kernel
from support.doc_kernels import source_line as _line
from support.paths import EXAMPLES, SRC

from ascsim.engine.sync import Access, PipeCall, SyncChecker, SyncError, SyncWarning
from ascsim.program import Output

PINGPONG = (EXAMPLES / "matmul_pingpong.cpp").read_text()
TQUE = (EXAMPLES / "matmul_tque.cpp").read_text()


def _run(text: str, name: str = "k.cpp", chip: str = "a2", strict: bool = False, **kw):
    rng = np.random.default_rng(0)
    a = rng.integers(-4, 5, (32, 128)).astype(np.float16)
    b = rng.integers(-4, 5, (128, 32)).astype(np.float16)
    gm = {"a": a, "b": b, "c": Output("float", (32, 32))}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", SyncWarning)
        return Kernel(name, chip, text_=text, **kw).run(gm=gm, strict=strict)


def _without(text: str, needle: str) -> str:
    lines = text.splitlines()
    i = next(i for i, ln in enumerate(lines) if needle in ln)
    return "\n".join(lines[:i] + ["// (line removed)"] + lines[i + 1 :])


def test_clean_kernels_report_nothing() -> None:
    assert _run(PINGPONG).sync_reports == []
    assert _run(TQUE).sync_reports == []


def test_missing_waitflag_is_a_read_after_write_naming_both_lines() -> None:
    """Without WaitFlag<MTE2_MTE1>, LoadData (MTE1) may read L1 before DataCopy (MTE2) wrote it."""
    text = _without(PINGPONG, "WaitFlag<AscendC::HardEvent::MTE2_MTE1>(EVENT_ID0);")
    reps = _run(text, "pp.cpp").sync_reports
    raw = [r for r in reps if r.kind == "RAW"]
    copy_a, load_a = _line(text, "DataCopy(a1, aGM"), _line(text, "AscendC::LoadData(a2[")
    assert raw[0].message.startswith(
        f"pp.cpp:{load_a}: LoadData (MTE1) reads L1 [0, 1536) written by DataCopy "
        f"at pp.cpp:{copy_a} (MTE2) with no WaitFlag<MTE2_MTE1> between them"
    )
    assert raw[0].count == 8  # every LoadData of A in the loop
    unpaired = [r for r in reps if r.kind == "unpaired-set"]
    assert unpaired and unpaired[0].message.startswith(
        f"pp.cpp:{_line(text, 'SetFlag<AscendC::HardEvent::MTE2_MTE1>')}"
        f": SetFlag<MTE2_MTE1>(0) has no matching WaitFlag"
    )


def test_reused_l0a_buffer_in_the_ping_pong_loop_is_a_write_after_read() -> None:
    """Drop the loop's WaitFlag<M_MTE1>: the loads of tile t+2 overwrite the buffer the Mmad of tile t
    reads — the hazard double buffering must guard."""
    text = _without(PINGPONG, "WaitFlag<AscendC::HardEvent::M_MTE1>(ev);")
    reps = _run(text, "pp.cpp").sync_reports
    war = [r for r in reps if r.kind == "WAR"]
    load, mmad = _line(text, "AscendC::LoadData(a2["), _line(text, "AscendC::Mmad(c1, a2, b2")
    assert war[0].message == (
        f"pp.cpp:{load}: LoadData (MTE1) writes L0A [0, 1024) read by Mmad at pp.cpp:{mmad} "
        "(M) with no WaitFlag<M_MTE1> between them"
    )
    assert war[0].lines == (f"pp.cpp:{load}", f"pp.cpp:{mmad}")
    assert any(r.kind == "WAR" and "LoadDataWithTranspose (MTE1) writes L0B" in r.message for r in reps)
    assert any(r.kind == "double-set" for r in reps)  # the priming SetFlag is set again


def test_ping_and_pong_at_one_address_is_a_write_after_read() -> None:
    """Both halves of the double buffer at L0A address 0 (a wrong L0_BUF): the loads of tile t+1 overwrite
    what the Mmad of tile t still reads, although each buffer's own flags are paired correctly."""
    text = PINGPONG.replace("L0_BUF = 32 * 1024;", "L0_BUF = 0;")
    war = [r for r in _run(text, "pp.cpp").sync_reports if r.kind == "WAR"]
    assert war and war[0].message.startswith(
        f"pp.cpp:{_line(text, 'AscendC::LoadData(a2[')}: LoadData (MTE1) writes L0A [0, 1024) read by Mmad"
    )


MISSING_DEQUE = """
#include "kernel_operator.h"
extern "C" __global__ __aicore__ void k(GM_ADDR a, GM_ADDR b, GM_ADDR c)
{
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::TPosition::A1, 1> qA1;
    AscendC::TQue<AscendC::TPosition::A2, 1> qA2;
    pipe.InitBuffer(qA1, 1, 32 * 128 * sizeof(half));
    pipe.InitBuffer(qA2, 1, 32 * 128 * sizeof(half));
    AscendC::GlobalTensor<half> aGM;
    aGM.SetGlobalBuffer((__gm__ half*)a, 32 * 128);
    AscendC::LocalTensor<half> a1 = qA1.AllocTensor<half>();
    AscendC::DataCopy(a1, aGM, 32 * 128);
    qA1.EnQue(a1);
    DEQUE
    AscendC::LocalTensor<half> a2 = qA2.AllocTensor<half>();
    AscendC::LoadData(a2, a1, AscendC::LoadData2DParams{0, 4, 1, 0, 0, false, 0});
    qA2.EnQue(a2);
    a2 = qA2.DeQue<half>();
    qA2.FreeTensor(a2);
    qA1.FreeTensor(a1);
}
"""


@pytest.mark.filterwarnings("ignore:kernel parameter .c.:UserWarning")  # the kernel never writes c
def test_missing_deque_is_reported_with_both_lines() -> None:
    """TQue反例 (关键特性说明.md 反例2): without `a1 = qA1.DeQue<half>()` nothing orders the MTE2 copy
    before the MTE1 load that reads it, and the EnQue is never taken out."""
    text = MISSING_DEQUE.replace("DEQUE", "")
    reps = _run(text, "q.cpp").sync_reports
    copy, load, enque = _line(text, "DataCopy(a1"), _line(text, "LoadData(a2"), _line(text, "qA1.EnQue")
    assert [r.kind for r in reps] == ["RAW", "never-dequeued"]
    assert reps[0].message == (
        f"q.cpp:{load}: LoadData (MTE1) reads L1 [0, 2048) written by DataCopy at "
        f"q.cpp:{copy} (MTE2) with no WaitFlag<MTE2_MTE1> between them"
    )
    assert reps[1].message.startswith(
        f"q.cpp:{enque}: EnQue puts a tensor in the queue that no DeQue takes out"
    )
    assert _run(MISSING_DEQUE.replace("DEQUE", "a1 = qA1.DeQue<half>();")).sync_reports == []


def test_strict_makes_the_first_finding_an_error() -> None:
    text = _without(PINGPONG, "WaitFlag<AscendC::HardEvent::MTE2_MTE1>(EVENT_ID0);")
    with pytest.raises(SyncError, match=r"^pp.cpp:\d+: LoadData \(MTE1\) reads L1"):
        _run(text, "pp.cpp", strict=True)


def test_command_line_prints_findings_and_strict_exits_2(tmp_path: Path) -> None:
    k = tmp_path / "pp.cpp"
    k.write_text(_without(PINGPONG, "WaitFlag<AscendC::HardEvent::MTE2_MTE1>(EVENT_ID0);"))
    rng = np.random.default_rng(0)
    np.save(tmp_path / "a.npy", rng.integers(-4, 5, (32, 128)).astype(np.float16))
    np.save(tmp_path / "b.npy", rng.integers(-4, 5, (128, 32)).astype(np.float16))
    args = [
        sys.executable,
        "-m",
        "ascsim",
        "run",
        str(k),
        "-q",
        "--gm",
        f"a={tmp_path / 'a.npy'}",
        "--gm",
        f"b={tmp_path / 'b.npy'}",
        "--gm",
        f"c={tmp_path / 'c.npy'}:float:32x32",
    ]
    env = {"PYTHONPATH": str(SRC), "PATH": ""}
    r = subprocess.run(args, capture_output=True, text=True, env=env)
    assert r.returncode == 0
    assert (
        "pp.cpp:" in r.stderr
        and ": warning: LoadData (MTE1) reads L1 [0, 1536) written by DataCopy" in r.stderr
    )
    assert "(8 times)" in r.stderr
    r = subprocess.run(args + ["--strict"], capture_output=True, text=True, env=env)
    assert r.returncode == 2
    assert r.stderr.startswith("pp.cpp:") and "LoadData (MTE1) reads L1" in r.stderr
    assert len(r.stderr.strip().splitlines()) == 1


# -- the checker itself --------------------------------------------------------------------------------


def _call(name: str, pipe: str, where: str, *acc: tuple) -> PipeCall:
    return PipeCall(name, pipe, where, [Access(*a) for a in acc])


def test_order_is_transitive_through_other_pipes() -> None:
    """MTE1 -> M (MTE1_M) and M -> MTE2 (M_MTE2) order MTE1's read of L1 before MTE2's next write
    (fixpipe_l0c2gm.asc's loop relies on it); without the second pair it is a WAR."""
    for chained in (True, False):
        s = SyncChecker()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", SyncWarning)
            s.instruction(_call("LoadData", "MTE1", "k:1", ("L1", 0, 512, False), ("L0A", 0, 512, True)))
            s.set_flag("MTE1_M", 0, "k:2")
            s.wait_flag("MTE1_M", 0, "k:3")
            s.instruction(_call("Mmad", "M", "k:4", ("L0A", 0, 512, False)))
            if chained:
                s.set_flag("M_MTE2", 0, "k:5")
                s.wait_flag("M_MTE2", 0, "k:6")
            s.instruction(_call("DataCopy", "MTE2", "k:7", ("GM", 0, 512, False), ("L1", 0, 512, True)))
        kinds = [r.kind for r in s.reports]
        assert kinds == ([] if chained else ["WAR"])


def test_same_pipe_copies_to_overlapping_bytes_need_a_pipebarrier() -> None:
    """DataCopy（GMToL1连续数据搬运）.md 约束说明: overlapping DataCopy destinations need
    PipeBarrier<PIPE_MTE2>; other pipes run in order (docs/divergences.md R9)."""
    s = SyncChecker()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", SyncWarning)
        s.instruction(_call("DataCopy", "MTE2", "k:1", ("L1", 0, 1024, True)))
        s.instruction(_call("DataCopy", "MTE2", "k:2", ("L1", 512, 2048, True)))
        s.barrier("MTE2")
        s.instruction(_call("DataCopy", "MTE2", "k:4", ("L1", 0, 2048, True)))
        s.instruction(_call("LoadData", "MTE1", "k:5", ("L0A", 0, 512, True)))
        s.instruction(_call("LoadData", "MTE1", "k:6", ("L0A", 0, 512, True)))
    assert [(r.kind, r.lines) for r in s.reports] == [("WAW", ("k:2", "k:1"))]
    assert "with no PipeBarrier<PIPE_MTE2> between them" in s.reports[0].message


def test_pipe_all_orders_everything() -> None:
    s = SyncChecker()
    s.instruction(_call("Fixpipe", "FIX", "k:1", ("L0C", 0, 64, False), ("GM", 0, 64, True)))
    s.barrier("ALL")
    s.instruction(_call("DataCopy", "MTE2", "k:3", ("GM", 0, 64, False), ("L1", 0, 64, True)))
    s.instruction(_call("Mmad", "M", "k:4", ("L0C", 0, 64, True)))
    assert s.reports == []


def test_unpaired_wait_and_double_set() -> None:
    s = SyncChecker()
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        s.wait_flag("MTE2_MTE1", 3, "k:1")
        s.set_flag("M_FIX", 1, "k:2")
        s.set_flag("M_FIX", 1, "k:3")
        s.finish()
    assert [r.kind for r in s.reports] == ["double-set", "unpaired-wait", "unpaired-set"]
    assert s.reports[1].message.startswith(
        "k:1: WaitFlag<MTE2_MTE1>(3) has no SetFlag<MTE2_MTE1>(3) before it or after it"
    )
    assert all(issubclass(x.category, SyncWarning) for x in w)


def test_nop_calls_touch_nothing_and_recorded_accesses_win() -> None:
    """The adapter: a report that moved no bytes touches nothing; a report that carries its accesses
    (the ExecReport rework) is used as it is."""
    from ascsim.engine.record import ExecReport
    from ascsim.engine.sync import call_accesses

    assert call_accesses(ExecReport("Mmad"), [], []) == []
    rep = ExecReport("LoadData", bytes_written=1)
    rep_acc = type("R", (), {"accesses": [("L0A", 0, 16, True)]})()
    assert call_accesses(rep_acc, [], []) == [Access("L0A", 0, 16, True)]
    assert call_accesses(rep, [], []) == []
