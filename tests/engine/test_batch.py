"""`Core.run(steps)` (issue 8 item 7): batched LoadData gathers give exactly what the calls one by one give.

The reference is the same steps executed one call at a time on a twin core (every memory, register and
record compared), over random sequences of Load3D / LoadData 2D calls that overwrite each other, read
what an earlier step wrote (GM -> L1 LoadData 2D, then L1 -> L0A), change the pad value, and interleave a
non-gather instruction (Mmad), and mix gathers too large to queue (they run at once) with queued ones.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ascsim import Core, LoadData2DParams, LoadData3DParamsV2, MmadParams, ParamRangeError


def _cores(chip: str = "a2") -> tuple[Core, Core, dict]:
    twins = []
    for _ in range(2):
        core = Core(chip)
        rng = np.random.default_rng(7)
        t = {
            "fmap": core.tensor("A1", "half", 16 * 8 * 8, offset=0),
            "l1b": core.tensor("A1", "half", 16 * 256, offset=8192),
            "gm": core.global_tensor("half", 16 * 256),
            "l0a": core.tensor("A2", "half", 16 * 1024, offset=0),
            "l0b": core.tensor("B2", "half", 4 * 256, offset=0),
            "l0c": core.tensor("CO1", "float", 1024, offset=0),
        }
        t["fmap"].write(rng.standard_normal(t["fmap"].length))
        t["l1b"].write(rng.standard_normal(t["l1b"].length))
        t["gm"].write(rng.standard_normal(t["gm"].length))
        t["l0b"].write(rng.standard_normal(t["l0b"].length))
        twins.append((core, t))
    return twins[0][0], twins[1][0], (twins[0][1], twins[1][1])


def _step(kind: str, arg: int, t: dict, core: Core):
    if kind == "load3d":  # different windows into the same L0A tile: later calls overwrite earlier ones
        p = LoadData3DParamsV2([1, 1, 1, 1], 8, 8, 16, 16 * (1 + arg % 4), 16, 0, 16 * (arg % 3), 1, 1, 3, 3,
                               padValue=float(arg % 5))
        return (core.load_data, t["l0a"][256 * (arg % 8)], t["fmap"], p)
    if kind == "load3d_big":  # 576 units: more than Core.run queues (BATCH_MAX_UNITS), so it runs at once
        p = LoadData3DParamsV2([1, 1, 1, 1], 8, 8, 16, 144, 64, 0, 0, 1, 1, 3, 3, padValue=float(arg % 3))
        return (core.load_data, t["l0a"][256 * (arg % 8)], t["fmap"], p)
    if kind == "gm2l1":  # GM -> L1 (a gather too): later L1 -> L0A steps read what it wrote
        return (core.load_data, t["l1b"], t["gm"], LoadData2DParams(arg % 8, 1 + arg % 4, 1))
    if kind == "l12l0":
        p2 = LoadData2DParams(arg % 12, 1 + arg % 3, 1)
        return (core.load_data, t["l0a"][256 * (arg % 16)], t["l1b"], p2)
    return ("mmad", t["l0c"], t["l0a"], t["l0b"], MmadParams(16, 16, 16, 0, False, True))


STEP = st.tuples(st.sampled_from(["load3d", "load3d_big", "gm2l1", "l12l0", "mmad"]), st.integers(0, 1000))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(STEP, min_size=1, max_size=12))
def test_run_equals_calls_one_by_one(seq: list[tuple[str, int]]) -> None:
    batched, plain, (tb, tp) = _cores()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        got = batched.run([_step(k, a, tb, batched) for k, a in seq])
        want = []
        for k, a in seq:
            fn, *args = _step(k, a, tp, plain)
            want.append((getattr(plain, fn) if isinstance(fn, str) else fn)(*args))
    for name, mem in plain.memories.items():
        assert np.array_equal(batched.memories[name].data, mem.data), name
    assert np.array_equal(batched.gm.data[:65536], plain.gm.data[:65536])
    assert batched.regs == plain.regs
    for g, w in zip(got, want, strict=True):
        assert (g.instr, g.bytes_written, g.bytes_read, g.pad_elements, g.hazards, g.notes, g.writes) == \
            (w.instr, w.bytes_written, w.bytes_read, w.pad_elements, w.hazards, w.notes, w.writes)


def test_a_failing_step_runs_the_steps_before_it_and_changes_nothing_itself() -> None:
    """Steps queued before a refused step are executed (program order); the refused one writes nothing."""
    batched, plain, (tb, tp) = _cores()
    ok = [("load3d", 1), ("load3d", 2)]
    for core, t, in ((batched, tb), (plain, tp)):
        bad = (core.load_data, t["l0a"], t["fmap"], LoadData3DParamsV2([1, 1, 1, 1], 8, 8, 16, 70000, 16))
        steps = [_step(k, a, t, core) for k, a in ok] + [bad]
        with pytest.raises(ParamRangeError, match="^Load3Dv2: kExtension"):
            if core is batched:
                core.run(steps)
            else:
                for fn, *args in steps:
                    fn(*args)
    for name, mem in plain.memories.items():
        assert np.array_equal(batched.memories[name].data, mem.data), name


def test_run_queues_gathers_into_one_take() -> None:
    """The point of batching: N compatible gathers become one numpy take (counted on the source buffer)."""
    from ascsim.engine import boundary

    core, _, (t, _) = _cores()
    calls = [_step("load3d", a, t, core) for a in range(0, 40, 5)]
    flushes = []
    orig = boundary.Batch.flush

    def counting(self):
        flushes.append(len(self.items))
        orig(self)

    boundary.Batch.flush = counting
    try:
        core.run(calls)
    finally:
        boundary.Batch.flush = orig
    # the pad value changes with the step (padValue = arg % 5), which splits groups; never one take per call
    assert sum(flushes) == len(calls) and len([n for n in flushes if n]) < len(calls)


def test_a_move_within_one_memory_that_reads_a_queued_write_flushes_first() -> None:
    """Read-after-write inside one memory (the one case the queue's shared memories leave open): a call
    reading bytes a queued call writes flushes the queue before it queues; one reading elsewhere does not.
    No LoadData path moves within one memory today, so this is checked on the queue itself."""
    from types import SimpleNamespace

    from ascsim.engine.boundary import Batch

    class Counting(Batch):
        __slots__ = ("flushes",)

        def flush(self) -> None:
            self.flushes += 1
            self.items = []

    mem = object()

    def move(read: tuple[int, int], write: tuple[int, int]) -> SimpleNamespace:
        return SimpleNamespace(mem=mem, dmem=mem, unit=32, pad_key=None, src_base=0,
                               reads=(("L1", *read),), writes=(("L1", *write),))

    b = Counting()
    b.flushes = 0
    b.add(move((0, 64), (1024, 1088)))
    b.add(move((2048, 2112), (4096, 4160)))  # reads nothing the queue writes
    b.add(move((1088, 1152), (8192, 8256)))  # [1088, 1152) starts where the first write ends
    assert b.flushes == 0 and len(b.items) == 3
    b.add(move((1087, 1100), (9000, 9064)))  # one byte of the first write
    assert b.flushes == 1 and len(b.items) == 1
