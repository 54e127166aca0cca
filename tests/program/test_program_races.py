"""Cross-core GM races (ascsim.engine.gm_races), found as Huawei's msSanitizer racecheck finds them between
cores: the kernels of tests/program/test_program_multicore.py with their cross-core sync removed, their
atomic mode removed, or their tile loop wrong — each reported with both blocks, both API names and both
source lines; with the sync in place, nothing. `--strict` makes the first race the run's one-line error
(exit status 2).

What orders two blocks, from the pages: SyncAll (SyncAll.md; on the 950 the cube core's SyncAll<true>
does nothing — asc-devkit impl/basic_api/dav_3510/kernel_operator_sync_impl.h:138-158, the AIV-only
branch returns on the AIC, docs/divergences.md B5), and CrossCoreSetFlag / CrossCoreWaitFlag
(CrossCoreSetFlag(ISASI).md: the set reports "在完成本核前置位的pipe流水任务后", so it covers what its pipe
has done; the wait "阻塞本核后续指令的下发"). Two atomic writes (SetAtomicAdd) accumulate and do not race.
"""

from __future__ import annotations

import subprocess
import sys
import warnings
from pathlib import Path

import numpy as np
import pytest
from support.doc_kernels import source_line
from support.paths import SRC
from test_program_multicore import (
    INT_ADD_A2,
    K_SPLIT,
    MATMUL,
    PRODUCER_CONSUMER,
    TWO_PHASE,
    build,
    diagonals,
    exact,
    halves,
    k_split_kernel,
    matmul_kernel,
    producer_consumer_kernel,
    run,
    two_phase_inputs,
    two_phase_kernel,
)

from ascsim.engine.gm_races import PAGE_CAP, GmRaceChecker, GmRaceError, GmRaceReport, GmRaceWarning
from ascsim.engine.sync import Access
from ascsim.program import Output


def _line(text: str, marker: str) -> int:
    return source_line(text.format(m=0, n=0, k=0, extra=0), marker)


@pytest.mark.parametrize("chip", ["a2", "950"])
def test_one_tile_written_by_two_blocks_is_a_write_after_write(chip: str) -> None:
    """LOOPS = tiles + 1 with t = i % tiles: on 4 blocks, block 2's second loop (i = 6) computes tile 0
    again, which block 0 wrote; nothing orders the two Fixpipes. The values agree, only the race shows."""
    m, n, k = 64, 96, 64
    a, b = halves((m, k), 2), halves((k, n), 3)
    r = run(matmul_kernel(chip, m, n, k, extra=1), {"a": a, "b": b, "c": Output("float", (m, n))}, 4)
    np.testing.assert_array_equal(r.outputs["c"], exact(a, b))
    fix = f"mm.cpp:{_line(MATMUL, '// tile:fixpipe')}"
    assert [(x.kind, x.blocks, x.lines) for x in r.race_reports] == [("WAW", (2, 0), (fix, fix))]
    rep = r.race_reports[0]
    assert isinstance(rep, GmRaceReport)
    assert rep.message.startswith(f"{fix}: block 2 Fixpipe writes GM [")
    assert rep.message.endswith(f"written by block 0 Fixpipe at {fix}, and no cross-core sync (SyncAll, "
                                "CrossCoreSetFlag / CrossCoreWaitFlag) orders them")
    assert r.sync_reports == []


def test_interleaved_row_tiles_of_two_blocks_are_no_race() -> None:
    """Tiles (0, 0) and (0, 1) of a 64-column matrix share no byte but their spans interleave row by row:
    the checker compares the rows Fixpipe wrote (the plan's runs), not first-to-last spans."""
    m, n, k = 32, 64, 32
    a, b = halves((m, k), 11), halves((k, n), 12)
    r = run(matmul_kernel("a2", m, n, k), {"a": a, "b": b, "c": Output("float", (m, n))}, 2)
    np.testing.assert_array_equal(r.outputs["c"], exact(a, b))
    assert r.race_reports == []


def test_two_phases_without_syncall_race_on_a2() -> None:
    """Drop the SyncAll: block 0 runs to its end first (the scheduler runs a block until it ends or waits),
    so it reads block 1's tile before block 1 writes it (a WAR naming both), and block 3 reads block 0's
    tile with nothing ordering it (a RAW). Block 0 read stale W: its diagonal is wrong."""
    a, b, gm = two_phase_inputs()
    text = TWO_PHASE
    r = run(two_phase_kernel("a2", {"NO_SYNC": ""}), gm, 4)
    fix = f"two_phase.cpp:{_line(text, '// tile:fixpipe')}"
    read = f"two_phase.cpp:{_line(text, '// phase:read')}"
    kinds = [(x.kind, x.blocks, x.lines) for x in r.race_reports]
    assert kinds == [("WAR", (1, 0), (fix, read)), ("RAW", (3, 0), (read, fix))]
    war, raw = r.race_reports
    assert war.message.startswith(f"{fix}: block 1 Fixpipe writes GM [")
    assert f"read by block 0 GetValue at {read}, and no cross-core sync" in war.message
    assert war.count == 3  # blocks 1, 2 and 3 overwrite what blocks 0, 1 and 2 read
    assert raw.message.startswith(f"{read}: block 3 GetValue reads GM [")
    assert f"written by block 0 Fixpipe at {fix}" in raw.message
    want = diagonals(exact(a, b), 4)
    assert not np.array_equal(r.outputs["out"][:32], want[:32])
    np.testing.assert_array_equal(r.outputs["out"][96:], want[96:])


def test_syncall_orders_nothing_on_the_950_cube_core() -> None:
    """The same kernel with its SyncAll on the 950: the C++ API's SyncAll<true> returns at once on the AIC
    (divergence B5), so the phases race exactly as without it."""
    _, _, gm = two_phase_inputs()
    r = run(two_phase_kernel("950"), gm, 4)
    assert [(x.kind, x.blocks) for x in r.race_reports] == [("WAR", (1, 0)), ("RAW", (3, 0))]


def test_consumer_without_its_wait_races_with_the_producer() -> None:
    """Drop block 1's CrossCoreWaitFlag: it reads W with nothing ordering it after block 0's Fixpipe (a
    RAW per read line; the values happen to be there, because block 0 ran first)."""
    r = run(producer_consumer_kernel("a2", {"NO_WAIT": ""}), _pc_gm(), 2)
    fix = f"pc.cpp:{_line(PRODUCER_CONSUMER, '// tile:fixpipe')}"
    read = f"pc.cpp:{_line(PRODUCER_CONSUMER, '// pc:read')}"
    got = [(x.kind, x.blocks, x.lines, x.count) for x in r.race_reports]
    assert got == [("RAW", (1, 0), (read, fix), 32)]
    assert r.race_reports[0].message.startswith(f"{read}: block 1 GetValue reads GM [")


@pytest.mark.parametrize("chip", ["a2", "950"])
def test_a_cross_core_flag_set_on_another_pipe_does_not_cover_the_fixpipe(chip: str) -> None:
    """CrossCoreSetFlag<0, PIPE_MTE2> after the Fixpipe: it reports once MTE2's earlier work is done, and
    nothing ordered the FIX pipe's Fixpipe before that point — the consumer's reads race with it. On
    PIPE_FIX (test_program_multicore.py) they do not."""
    r = run(producer_consumer_kernel(chip, {"SET_PIPE": "PIPE_MTE2"}), _pc_gm(), 2)
    fix = f"pc.cpp:{_line(PRODUCER_CONSUMER, '// tile:fixpipe')}"
    assert [(x.kind, x.blocks, x.lines[1]) for x in r.race_reports] == [("RAW", (1, 0), fix)]


def _pc_gm() -> dict:
    a, b = halves((32, 64), 4), halves((64, 32), 5)
    return {"a": a, "b": b, "w": Output("float", (32, 32)), "out": Output("float", (32,))}


@pytest.mark.parametrize("chip", ["a2", "950"])
def test_k_split_without_atomic_add_races_and_keeps_one_block(chip: str) -> None:
    """Without SetAtomicAdd the four Fixpipes overwrite each other: C is the last block's quarter only, and
    each later block's Fixpipe (blocks 1, 2, 3: three calls) is a WAW with the blocks before it."""
    a, b = halves((32, 128), 6), halves((128, 32), 7)
    c0 = np.zeros((32, 32), np.float32)
    r = run(k_split_kernel(chip, {"NO_ATOMIC": ""}), {"a": a, "b": b, "c": c0}, 4)
    np.testing.assert_array_equal(r.read_gm("c", "float", (32, 32)), exact(a[:, 96:], b[96:]))
    fix = f"ksplit.cpp:{_line(K_SPLIT, '// tile:fixpipe')}"
    assert [(x.kind, x.blocks, x.lines, x.count) for x in r.race_reports] == [("WAW", (1, 0), (fix, fix), 3)]


def test_int32_copies_without_atomic_add_race() -> None:
    x = np.arange(4 * 512, dtype=np.int32)
    r = run(build(INT_ADD_A2, "acc.cpp", "a2", {"NO_ATOMIC": ""}), {"x": x, "y": np.zeros(512, np.int32)}, 4)
    store = f"acc.cpp:{source_line(INT_ADD_A2, '// acc:store')}"
    assert [(x.kind, x.blocks, x.lines) for x in r.race_reports] == [("WAW", (1, 0), (store, store))]
    assert "block 1 DataCopy writes GM [" in r.race_reports[0].message
    np.testing.assert_array_equal(r.read_gm("y", "int32_t", (512,)), x[3 * 512 :])


def test_strict_makes_the_first_race_an_error() -> None:
    a, b, gm = two_phase_inputs()
    fix = f"two_phase.cpp:{_line(TWO_PHASE, '// tile:fixpipe')}"
    with pytest.raises(GmRaceError, match=rf"^{fix}: block 1 Fixpipe writes GM \[\d+, \d+\) read by block 0"):
        run(two_phase_kernel("a2", {"NO_SYNC": ""}), gm, 4, strict=True)


def test_command_line_prints_races_and_strict_exits_2_with_one_line(tmp_path: Path) -> None:
    k = tmp_path / "ksplit.cpp"
    text = "#define NO_ATOMIC\n" + K_SPLIT
    k.write_text(text.format(m=32, n=32, k=128))
    np.save(tmp_path / "a.npy", halves((32, 128), 6))
    np.save(tmp_path / "b.npy", halves((128, 32), 7))
    np.save(tmp_path / "c.npy", np.zeros((32, 32), np.float32))
    args = [sys.executable, "-m", "ascsim", "run", str(k), "--chip", "a2", "-q", "--blocks", "4",
            "--gm", f"a={tmp_path / 'a.npy'}", "--gm", f"b={tmp_path / 'b.npy'}",
            "--gm", f"c={tmp_path / 'c.npy'}"]
    env = {"PYTHONPATH": str(SRC), "PATH": ""}
    fix = f"ksplit.cpp:{_line(text, '// tile:fixpipe')}"
    r = subprocess.run(args, capture_output=True, text=True, env=env)
    assert r.returncode == 0, r.stderr
    assert f"{fix}: warning: block 1 Fixpipe writes GM [" in r.stderr
    assert f"written by block 0 Fixpipe at {fix}" in r.stderr and "(3 times)" in r.stderr
    r = subprocess.run(args + ["--strict"], capture_output=True, text=True, env=env)
    assert r.returncode == 2
    assert r.stderr.startswith(f"{fix}: block 1 Fixpipe writes GM [")
    assert len(r.stderr.strip().splitlines()) == 1


# -- the checker itself --------------------------------------------------------------------------------


def _gm(lo: int, hi: int, write: bool) -> list[Access]:
    return [Access("GM", lo, hi, write)]


def test_two_atomic_writes_accumulate_one_atomic_write_races() -> None:
    """SetAtomicAdd on both sides: the read-modify-writes are serialised, no race. One side plain: a WAW
    whose message says which side was atomic."""
    g = GmRaceChecker()
    g.begin_launch(2)
    g.access(0, _gm(0, 64, True), atomic=True, name="Fixpipe", where="k:1", pipe="FIX", seq=1)
    g.access(1, _gm(0, 64, True), atomic=True, name="Fixpipe", where="k:1", pipe="FIX", seq=1)
    assert g.reports == []
    msg = (r"^k:2: block 1 DataCopy writes GM \[32, 64\) written by block 0 Fixpipe at k:1, and no "
           r"cross-core sync .* \(only block 0's write is atomic\)$")
    with pytest.warns(GmRaceWarning, match=msg):
        g.access(1, _gm(32, 96, True), atomic=False, name="DataCopy", where="k:2", pipe="MTE3", seq=1)
    assert [(r.kind, r.blocks) for r in g.reports] == [("WAW", (1, 0))]


def test_a_cross_core_set_releases_what_its_pipe_has_completed() -> None:
    """CrossCoreSetFlag<0, PIPE_MTE2> with the in-core knowledge {MTE2: 1, FIX: 0}: block 0's Fixpipe (FIX
    call 1) is not covered, its DataCopy (MTE2 call 1) is; a release on PIPE_FIX covering FIX 1 orders
    both reads."""
    for known, raced in (({"MTE2": 1, "FIX": 0, "S": 0}, True), ({"MTE2": 1, "FIX": 1, "S": 0}, False)):
        g = GmRaceChecker()
        g.begin_launch(2)
        g.access(0, _gm(0, 64, True), name="Fixpipe", where="k:1", pipe="FIX", seq=1)
        g.access(0, _gm(128, 192, True), name="DataCopy", where="k:2", pipe="MTE3", seq=1)
        g.cross_set(0, 5, 0, "k:3", pipe="MTE2", known=known)
        g.cross_set(1, 5, 0, "k:4", pipe="FIX", known={})
        g.cross_wait(1, 5, 0, "k:5")
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            g.access(1, _gm(0, 64, False), name="GetValue", where="k:6", pipe="S", seq=1)
        assert [r.lines for r in g.reports] == ([("k:6", "k:1")] if raced else [])


def test_syncall_orders_everything_before_it() -> None:
    g = GmRaceChecker()
    g.begin_launch(3)
    g.access(0, _gm(0, 4096, True), name="Fixpipe", where="k:1", pipe="FIX", seq=1)
    g.sync_all([0, 1, 2])
    g.access(1, _gm(0, 4096, False), name="DataCopy", where="k:2", pipe="MTE2", seq=1)
    with pytest.warns(GmRaceWarning):
        g.access(2, _gm(1024, 2048, True), name="Fixpipe", where="k:3", pipe="FIX", seq=1)
    assert [(r.kind, r.lines) for r in g.reports] == [("WAR", ("k:3", "k:2"))]


def test_the_history_stays_bounded_and_keeps_finding_races() -> None:
    """10,000 reads of one page by 4 blocks, never ordered: the page keeps at most PAGE_CAP entries (merged
    per block and line), and a later write still meets every block's reads."""
    g = GmRaceChecker()
    g.begin_launch(5)
    for i in range(10_000):
        b = i % 4
        g.access(b, _gm(64 * (i % 60), 64 * (i % 60) + 32, False), name="GetValue", where=f"k:{b}", pipe="S",
                 seq=i // 4 + 1)
    assert sum(len(w) + len(r) for w, r in g.pages.values()) <= PAGE_CAP
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        g.access(4, _gm(0, 4096, True), name="DataCopy", where="k:9", pipe="MTE3", seq=1)
    assert sorted(r.blocks for r in g.reports) == [(4, 0), (4, 1), (4, 2), (4, 3)]
