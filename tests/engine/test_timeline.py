"""The cost model and the schedule from first principles: hand-built event streams, times computed by hand
from the table's numbers (docs/timeline.md).

The reference for the Mmad rate is the doc's own table: UnitFlag.md 表1 (性能示例, half) gives 4156 cycles
for 8 Mmads of 128 x 256 over K = 512 and 2108 for 128 x 128.
"""

from __future__ import annotations

import math
from pathlib import Path

import pytest
from support.paths import SRC

from ascsim.base.errors import AscsimError
from ascsim.engine.sync import Access, PipeCall, SyncChecker
from ascsim.engine.timeline import (
    Barrier,
    Instr,
    Recorder,
    ScheduleError,
    SetFlag,
    WaitFlag,
    schedule,
)
from ascsim.isa.table import MOVE_PIPE
from ascsim.machine.chips import ALL_CHIPS
from ascsim.machine.costs import CostModelError, cost_model
from ascsim.scenario import tomllib  # stdlib on 3.11+, tomli on 3.10

TABLES = SRC / "ascsim" / "machine" / "cost_models"

#: Round numbers for hand computation (a partial override of the a2 table).
SIMPLE = {
    "issue": {"cycles": 1},
    "sync": {"flag_cycles": 2, "barrier_cycles": 3},
    "path": {"GM->L1": {"bytes_per_cycle": 10, "latency_cycles": 5},
             "L1->L0A": {"bytes_per_cycle": 100, "latency_cycles": 0},
             "L0C->GM": {"bytes_per_cycle": 10, "latency_cycles": 0}},
    "mmad": {"latency_cycles": 4, "dtype": {"half": {"per_cycle": 1}}},
}


@pytest.fixture
def m():
    return cost_model("a2", override=SIMPLE)


def copy(n: int, where: str = "") -> Instr:
    return Instr("MTE2", "DataCopy", "GM->L1", nbytes=n, where=where)


def load(n: int, where: str = "") -> Instr:
    return Instr("MTE1", "LoadData", "L1->L0A", nbytes=n, where=where)


# -- the cost of one instruction ------------------------------------------------------------------------
@pytest.mark.parametrize("chip", ["a2", "a3", "950"])
def test_a_move_costs_its_bytes_over_the_tables_bandwidth_plus_latency(chip: str) -> None:
    model = cost_model(chip)
    raw = tomllib.loads((TABLES / f"{model.chip}.toml").read_text(encoding="utf-8"))
    for path, entry in raw["path"].items():
        n = 12345
        want = entry["latency_cycles"] + n / entry["bytes_per_cycle"]
        assert model.cycles("DataCopy", entry["pipe"], path, nbytes=n) == pytest.approx(want)
        s = schedule([Instr(entry["pipe"], "DataCopy", path, nbytes=n)], model)
        assert s.total_cycles == pytest.approx(want)  # issued at 0 on an idle pipe


def test_mmad_reproduces_the_docs_performance_table() -> None:
    """UnitFlag.md 表1: 8 Mmads (LOOP_COUNT) of M x N over K = 512 in half: 4156 cycles for 128 x 256,
    2108 for 128 x 128 (Mmad理论值). Each call is 128 x 64 x N."""
    model = cost_model("a2")
    for n, want in ((256, 4156), (128, 2108)):
        s = schedule([Instr("M", "Mmad", shape=(128, 64, n), dtype="half") for _ in range(8)], model)
        assert s.total_cycles == pytest.approx(want)


def test_mmad_fractals_round_each_dimension_up_to_the_dtypes_fractal() -> None:
    model = cost_model("a2")
    assert model.mmad_fractals(17, 16, 16, "half") == 2
    assert model.mmad_fractals(16, 33, 16, "int8_t") == 2  # k0 = 32 for 8-bit
    assert model.mmad_fractals(16, 9, 16, "float") == 2  # k0 = 8 for 32-bit
    assert model.cycles("Mmad", "M", fractals=10, dtype="half") == pytest.approx(7.5 + 10)


# -- the schedule ---------------------------------------------------------------------------------------
def test_two_independent_pipes_overlap(m) -> None:
    s = schedule([copy(100), load(1000)], m)
    a, b = s.items[0]
    assert (a.start, a.end) == (0, 5 + 10)  # latency 5 + 100 B / 10 B per cycle
    assert (b.start, b.end) == (1, 1 + 10)  # issued 1 cycle later, 1000 B / 100 B per cycle, meanwhile
    assert s.total_cycles == 15
    assert s.waits == []


def test_one_pipe_runs_its_instructions_one_after_another(m) -> None:
    s = schedule([copy(100), copy(50)], m)
    assert [(x.start, x.end) for x in s.items[0]] == [(0, 15), (15, 25)]


def test_a_waitflag_serialises(m) -> None:
    ev = [copy(100, "k:1"), SetFlag("MTE2_MTE1", 0, "k:2"), WaitFlag("MTE2_MTE1", 0, "k:3"),
          load(1000, "k:4")]
    s = schedule(ev, m)
    copy_, set_, wait, ld = s.items[0]
    assert set_.end == 15  # fires when MTE2's copy is done
    assert wait.end == 15 + 2  # seen flag_cycles later
    assert (ld.start, ld.end) == (17, 27)
    assert s.total_cycles == 27
    (w,) = s.waits
    assert (w.pipe, w.flag, w.waiter, w.setter) == ("MTE1", "MTE2_MTE1(0)", "k:3", "k:2")
    assert (w.start, w.cycles) == (2, 15)  # MTE1 reached the wait at its issue (2) and waited until 17


def test_a_wait_issued_before_its_set_holds_only_its_pipe(m) -> None:
    """WaitFlag<MTE2_MTE1> comes first in program order; the scalar unit issues on, the SetFlag comes later
    (docs/divergences.md R12): MTE1's load waits for it, MTE2's copy does not."""
    ev = [WaitFlag("MTE2_MTE1", 0, "k:1"), load(1000, "k:2"), copy(100, "k:3"),
          SetFlag("MTE2_MTE1", 0, "k:4")]
    s = schedule(ev, m)
    by = {x.where: x for x in s.items[0]}
    assert (by["k:3"].start, by["k:3"].end) == (2, 17)  # issued at 2, not held
    assert by["k:4"].end == 17
    assert (by["k:2"].start, by["k:2"].end) == (19, 29)


def test_pipe_all_drains_every_pipe(m) -> None:
    ev = [copy(100), load(1000), Barrier("ALL", "k:3"), load(100, "k:4")]
    s = schedule(ev, m)
    *_, bar, ld = s.items[0]
    assert bar.start == 15 and bar.end == 18  # after MTE2 (15) and MTE1 (11) drained, + barrier_cycles
    assert (ld.start, ld.end) == (18, 19)  # the scalar unit issues it only after the barrier
    (w,) = s.waits
    assert (w.pipe, w.flag, w.cycles) == ("S", "PIPE_ALL", 15 - 2)  # waited from its issue at 2


def test_flags_are_faster_than_a_barrier_per_call(m) -> None:
    """A copy then a dependent load, twice: with flags the second copy overlaps the first load; with
    PIPE_ALL after every call nothing overlaps."""
    flags = [copy(100), SetFlag("MTE2_MTE1", 0), WaitFlag("MTE2_MTE1", 0), load(1000),
             copy(100), SetFlag("MTE2_MTE1", 1), WaitFlag("MTE2_MTE1", 1), load(1000)]
    barriers = [copy(100), Barrier("ALL"), load(1000), Barrier("ALL"), copy(100), Barrier("ALL"), load(1000),
                Barrier("ALL")]
    tf, tb = schedule(flags, m).total_cycles, schedule(barriers, m).total_cycles
    # flags: copy 0-15, copy 15-30 (issued at 4); loads 17-27 and 32-42
    assert tf == 42
    # barriers: copy 0-15, bar 15-18 (the scalar unit goes on at 18), load 18-28, bar 28-31, copy 31-46,
    # bar 46-49, load 49-59, bar 59-62
    assert tb == 62
    assert tf < tb


def test_the_critical_path_of_a_hand_built_schedule(m) -> None:
    """copy (15) -> flag -> load (10) -> flag -> Mmad; a second independent copy is not on it."""
    ev = [copy(100, "c"), SetFlag("MTE2_MTE1", 0, "s1"), WaitFlag("MTE2_MTE1", 0, "w1"), load(1000, "l"),
          SetFlag("MTE1_M", 0, "s2"), WaitFlag("MTE1_M", 0, "w2"),
          Instr("M", "Mmad", shape=(16, 16, 16), dtype="half", where="mm"), copy(10, "c2")]
    s = schedule(ev, m)
    # Mmad: 1 fractal / 1 per cycle + 4 latency; starts at 15 + 2 + 10 + 2 = 29
    assert s.total_cycles == 29 + 5
    assert [x.where for x in s.critical_path] == ["c", "s1", "w1", "l", "s2", "w2", "mm"]


def test_the_scalar_unit_issues_in_order(m) -> None:
    """A PIPE_S call runs on the scalar unit: nothing after it issues before it ends."""
    ev = [Instr("S", "GetValue"), load(100)]
    s = schedule(ev, m)
    get, ld = s.items[0]
    assert (get.start, get.end) == (0, 10)  # scalar.access_cycles of the a2 table
    assert ld.start == 10


def test_after_dependences_of_a_hand_built_stream(m) -> None:
    ev = [copy(100), load(100, "l")]
    s = schedule([ev[0], Instr("MTE1", "LoadData", "L1->L0A", nbytes=100, after=(0,), where="l")], m)
    assert s.items[0][1].start == 15
    assert s.waits[0].flag == "after #0"


def test_cores_are_independent(m) -> None:
    s = schedule({0: [copy(100)], 1: [copy(100), copy(100)]}, m)
    assert s.total_cycles == 30
    assert s.pipes["MTE2"].busy == 45


def test_busy_waiting_idle_add_up(m) -> None:
    ev = [copy(100), SetFlag("MTE2_MTE1", 0), WaitFlag("MTE2_MTE1", 0), load(1000), Barrier("ALL"), copy(10)]
    s = schedule(ev, m)
    for p, st in s.pipes.items():
        assert st.busy + st.waiting + st.idle == pytest.approx(s.total_cycles), p
    assert s.pipes["MTE2"].busy == 15 + 6


def test_hangs_are_refused() -> None:
    m = cost_model("a2")
    with pytest.raises(ScheduleError, match="hangs"):
        schedule([WaitFlag("MTE2_MTE1", 0, "k:1"), load(10)], m)
    with pytest.raises(ScheduleError, match="scalar"):
        schedule([WaitFlag("MTE2_S", 0, "k:1")], m)
    with pytest.raises(ScheduleError, match="PIPE_ALL"):
        schedule([WaitFlag("MTE2_MTE1", 0, "k:1"), Barrier("ALL", "k:2"), SetFlag("MTE2_MTE1", 0)], m)
    with pytest.raises(ScheduleError, match="unknown pipe"):
        schedule([Instr("XX", "DataCopy", "GM->L1")], m)


def test_the_schedule_is_deterministic(m) -> None:
    ev = [copy(100), SetFlag("MTE2_MTE1", 0), WaitFlag("MTE2_MTE1", 0), load(1000), Barrier("ALL")]
    a, b = schedule(ev, m), schedule(ev, m)
    assert [(x.start, x.end) for x in a.items[0]] == [(x.start, x.end) for x in b.items[0]]


# -- the tables -------------------------------------------------------------------------------------------
def test_every_cube_chip_has_a_table_with_a_source_for_every_number() -> None:
    for chip in ALL_CHIPS:
        if not chip.has_cube:
            with pytest.raises(AscsimError, match="no cost model"):
                cost_model(chip.key)
            continue
        model = cost_model(chip.key)
        for entry, source in model.sources():
            assert source.strip(), (chip.key, entry)
        for a, _, _ in chip.mmad_types:  # every A dtype the chip's Mmad takes has a rate
            m0, k0, n0 = model.rate(a).fractal
            assert (m0, n0) == (16, 16) and k0 * 16 * _bits(a) == 16 * 256  # one 512-byte A fractal
        for (src, dst), pipe in MOVE_PIPE.items():
            mems = {"GM", *chip.memory_sizes}
            if src in mems and dst in mems and not (chip.arch == "3510" and src == "GM" and dst != "L1"):
                assert model.path(f"{src}->{dst}").pipe == pipe, (chip.key, src, dst)


def _bits(name: str) -> int:
    from ascsim.machine.dtypes import get_dtype

    return get_dtype(name).bits


def test_an_override_changes_only_what_it_names(tmp_path: Path) -> None:
    base = cost_model("a2")
    f = tmp_path / "mine.toml"
    f.write_text('[path."GM->L1"]\nbytes_per_cycle = 128\n', encoding="utf-8")
    m = cost_model("a2", override=f)
    assert m.path("GM->L1").bytes_per_cycle == 128
    assert m.path("GM->L1").latency_cycles == base.path("GM->L1").latency_cycles
    assert m.mmad_latency == base.mmad_latency
    assert "mine.toml" in m.origin


@pytest.mark.parametrize("text, match", [
    ("[path.\"GM->L1\"]\nbandwidth = 3\n", "unknown key path.\"GM->L1\".bandwidth"),
    ("[clok]\nmhz = 3\n", "unknown key 'clok'"),
    ("[clock]\nmhz = 0\n", "clock.mhz = 0"),
    ("[issue]\ncycles = -1\n", "issue.cycles = -1"),
    ("[issue]\ncycles = \"x\"\n", "issue.cycles"),
    ("[path.\"GM->UB\"]\nbytes_per_cycle = 3\n", "path.\"GM->UB\".pipe is missing"),
    ("[mmad.dtype.half]\nfractal = [16, 16]\n", "fractal"),
    ("[mmad.dtype.float8_e4m3fn]\nfractal = [16, 32, 16]\n", "mmad.dtype.float8_e4m3fn.per_cycle is missing"),
    ("chip = \"950\"\n", "for chip"),
    ("not toml [", "not a TOML file"),
])
def test_bad_overrides_are_refused_naming_the_key(tmp_path: Path, text: str, match: str) -> None:
    f = tmp_path / "bad.toml"
    f.write_text(text, encoding="utf-8")
    with pytest.raises(CostModelError, match=match.replace("[", r"\[").replace(".", r"\.")):
        cost_model("a2", override=f)


def test_a_missing_rate_or_path_names_it() -> None:
    m = cost_model("kirin_9030")
    with pytest.raises(CostModelError, match="int8_t"):
        m.cycles("Mmad", "M", fractals=1, dtype="int8_t")
    with pytest.raises(CostModelError, match="'L1->UB'"):
        m.cycles("DataCopy", "MTE1", "L1->UB", 10)
    with pytest.raises(CostModelError, match="cannot read"):
        cost_model("a2", override="/nonexistent/x.toml")


# -- the recorder beside the sync checker ---------------------------------------------------------------
def test_the_recorder_sees_the_checkers_stream_minus_the_chips_noops() -> None:
    rec = Recorder()
    chk = SyncChecker(chip="950", recorder=rec)
    acc = [Access("GM", 0, 512, False), Access("L1", 0, 512, True)]
    chk.instruction(PipeCall("DataCopy", "MTE2", "k:1", acc))
    chk.set_flag("MTE2_MTE1", 0, "k:2")
    chk.set_flag("MTE2_V", 0, "k:3")  # no-op on the cube core: not recorded
    chk.wait_flag("MTE2_MTE1", 0, "k:4")
    chk.barrier("MTE3", "k:5")  # no-op on the 950 cube core
    chk.barrier("ALL", "k:6")
    kinds = [type(e).__name__ for e in rec.events]
    assert kinds == ["Instr", "SetFlag", "WaitFlag", "Barrier"]
    ins = rec.events[0]
    assert (ins.pipe, ins.path, ins.nbytes, ins.where) == ("MTE2", "GM->L1", 512, "k:1")
    assert math.isclose(schedule(rec.events, cost_model("950")).total_cycles,
                        300 + 512 / 64 + 10 + 10)  # the copy, the flag seen, PIPE_ALL's barrier_cycles


def test_a_recorder_is_bounded() -> None:
    rec = Recorder(limit=2)
    for i in range(3):
        rec.barrier("ALL", f"k:{i}")
    assert len(rec.events) == 2
    with pytest.raises(ScheduleError, match="more than 2 calls"):
        rec.stream()


def test_the_docs_table_of_the_a2_costs_is_the_a2_table() -> None:
    doc = (SRC.parent / "docs" / "timeline.md").read_text(encoding="utf-8")
    m = cost_model("a2")
    gm, l0a, l0c = m.path("GM->L1"), m.path("L1->L0A"), m.path("L0C->L1")
    for row in (f"| `clock.mhz` | {m.clock_mhz:g} |", f"| `issue.cycles` | {m.issue_cycles:g} |",
                f"| `sync.flag_cycles`, `barrier_cycles` | {m.flag_cycles:g}, {m.barrier_cycles:g} |",
                f"| `scalar.access_cycles` | {m.scalar_cycles:g} |",
                f"| {gm.bytes_per_cycle:g} B/cycle, {gm.latency_cycles:g} cycles |",
                f"| {l0a.bytes_per_cycle:g} B/cycle, {l0a.latency_cycles:g} (10) cycles |",
                f"| {l0c.bytes_per_cycle:g} B/cycle, {l0c.latency_cycles:g} cycles |",
                f"| `mmad.latency_cycles` | {m.mmad_latency:g} |"):
        assert row in doc, row
    assert m.path("fill->L0A").latency_cycles == 10


def test_the_timeline_knows_the_sync_checkers_pipes_and_events() -> None:
    """One set of pipes (the timeline only orders them for its rows) and one reading of a HardEvent."""
    from ascsim.engine import sync, timeline

    assert sorted(timeline.PIPES) == sorted(sync.PIPES)
    assert timeline.event_pipes("MTE2_MTE1") == sync.event_pipes("MTE2_MTE1") == ("MTE2", "MTE1")
    with pytest.raises(timeline.ScheduleError, match=r"^HardEvent 'MTE2_X' is not <source pipe>_<waiting"):
        timeline.event_pipes("MTE2_X")
