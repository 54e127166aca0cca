"""The tile planner (`ascsim.planner`, docs/planner.md) against references ascsim did not produce.

- Results: every plan's verification run is compared with numpy matmul (int64 / float64 of the
  dtype-rounded inputs) or torch.nn.functional.conv2d (float64); integers exactly, floats within
  2^-22·K·(|A|·|B|) per element (a float32 sum of K exact products).
- Cost model: the closed form of `schedule.Gemm.cost` against the counts of the built program, and every
  call's predicted bytes against the bytes the instruction reports it wrote.
- Emission: the scenario file (and its C++) replays to the same output bytes as the verification run.
- Acceptance shapes of issue 12: ResNet-50 conv1 (3->64, 7x7/2, pad 3, 224x224), a 3x3 and a 1x1 layer of
  its later stages, half and int8, A2 and 950; matmul for every dtype x A row/col x B row/col on A2 and
  950 at 100x70x300, and 2048^3 half (larger than L1).
"""

from __future__ import annotations

import itertools
import warnings
from collections import Counter
from pathlib import Path

import numpy as np
import pytest
import torch
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from ascsim import Core, NotImplementedFeature, ParamRangeError
from ascsim.cli import main
from ascsim.planner import ConvProblem, MatmulProblem, plan_conv2d, plan_matmul
from ascsim.planner.emit import run_cpp, write_plan
from ascsim.planner.plans import category, plan_for
from ascsim.planner.problems import conv2d_reference
from ascsim.planner.search import TIME_CAP, TIME_POOL, Choice, MatmulSearch, score
from ascsim.planner.timing import predict
from ascsim.scenario import load_scenario, run_scenario

CHIPS = ("a2", "ascend950")
MM_DTYPES = ("int4b_t", "int8_t", "half", "bfloat16_t", "float")


def _mm_cases():
    for chip, dt, at, bt in itertools.product(CHIPS, MM_DTYPES, (False, True), (False, True)):
        if chip == "ascend950" and dt == "int4b_t":
            continue  # no int4 Mmad on 950 (Mmad.md 表5)
        if dt == "int4b_t" and at:
            continue  # 表5: A转置 b4 不支持 (no load moves a transposed int4 A)
        lay = f"A{'col' if at else 'row'}-B{'col' if bt else 'row'}"
        yield pytest.param(chip, dt, at, bt, id=f"{chip}-{dt}-{lay}")


def _counts(plan) -> tuple[Counter, Counter]:
    calls, nbytes = Counter(), Counter()
    for c in plan.program.calls:
        calls[category(c)] += 1
        nbytes[category(c)] += c.nbytes
    return calls, nbytes


def _check_cost(plan) -> None:
    calls, nbytes = _counts(plan)
    assert dict(calls) == {k: v for k, v in plan.cost.calls.items() if v}
    assert dict(nbytes) == {k: v for k, v in plan.cost.bytes.items() if v or k in nbytes}


def _check_bytes(plan, v) -> None:
    for c, rep in zip(plan.program.calls, v.reports, strict=True):
        assert rep.bytes_written == c.nbytes, (c.call, type(c.params).__name__, c.params)


def _check_replays(plan, inputs, v, tmp_path: Path) -> None:
    """The emitted scenario (`ascsim run`) and C++ kernel (the front-end) write the verification's bytes."""
    paths = write_plan(plan, tmp_path, inputs, plan.report(v))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        run = run_scenario(load_scenario(paths["scenario"]))
    cpp = run_cpp(paths["scenario"], paths["cpp"])
    for name, raw in v.gm.items():
        assert run.tensors[name].bytes().tobytes() == raw, name
        assert cpp[name] == raw, name


# -- the reference ---------------------------------------------------------------------------------------


def test_numpy_conv_reference_matches_torch() -> None:
    rng = np.random.default_rng(0)
    x, w = rng.standard_normal((2, 5, 11, 9)), rng.standard_normal((4, 5, 3, 2))
    got = conv2d_reference(x, w, (2, 1), (1, 0, 2, 1), (1, 2), torch_ok=False)
    xp = np.pad(x, ((0, 0), (0, 0), (2, 1), (1, 0)))
    ref = torch.nn.functional.conv2d(torch.from_numpy(xp), torch.from_numpy(w), stride=(2, 1),
                                     dilation=(1, 2)).numpy()
    np.testing.assert_allclose(got, ref, rtol=1e-12, atol=1e-12)


# -- acceptance: matmul ------------------------------------------------------------------------------------


@pytest.mark.parametrize(("chip", "dt", "at", "bt"), list(_mm_cases()))
def test_matmul_plan_passes(chip: str, dt: str, at: bool, bt: bool, tmp_path: Path) -> None:
    """M, N, K not multiples of 16 (100 x 70 x 300); auto loads; the cost model and the bytes agree with
    the run; the emitted scenario and C++ replay to the same bytes."""
    p = MatmulProblem(chip, 100, 70, 300, dt, at, bt)
    plan = plan_matmul(p)
    inputs = p.random_inputs(1)
    v = plan.verify(inputs)
    assert v.passed, v.line()
    _check_cost(plan)
    _check_bytes(plan, v)
    _check_replays(plan, inputs, v, tmp_path)


def test_matmul_2048_half_larger_than_l1(tmp_path: Path) -> None:
    p = MatmulProblem("a2", 2048, 2048, 2048, "half")
    assert 2 * 2048 * 2048 * 2 > Core("a2").memory("L1").size  # A and B together are 16x L1
    plan = plan_matmul(p)
    assert len(plan.gemm.k_blocks) > 1 or len(plan.gemm.m_blocks) > 1  # really tiled through L1
    inputs = p.random_inputs(3)
    v = plan.verify(inputs)
    assert v.passed, v.line()
    _check_cost(plan)
    _check_replays(plan, inputs, v, tmp_path)


# -- acceptance: conv2d ------------------------------------------------------------------------------------

RESNET = {  # (C, H, W, Co, kh, kw, stride, pad)
    "conv1-3to64-7x7s2": (3, 224, 224, 64, 7, 7, 2, 3),
    "stage3-3x3-256": (256, 14, 14, 256, 3, 3, 1, 1),
    "stage3-1x1-1024to256": (1024, 14, 14, 256, 1, 1, 1, 0),
}


@pytest.mark.parametrize("name", list(RESNET))
@pytest.mark.parametrize("dt", ["half", "int8_t"])
@pytest.mark.parametrize("chip", CHIPS)
def test_conv_plan_passes(chip: str, dt: str, name: str, tmp_path: Path) -> None:
    c, h, w, co, kh, kw, s, pd = RESNET[name]
    p = ConvProblem(chip, 1, c, h, w, co, kh, kw, (s, s), (pd,) * 4, (1, 1), dt)
    plan = plan_conv2d(p)
    inputs = p.random_inputs(len(name))
    v = plan.verify(inputs)
    assert v.passed, v.line()
    _check_cost(plan)
    _check_bytes(plan, v)
    _check_replays(plan, inputs, v, tmp_path)


# -- the engine under forced blockings ----------------------------------------------------------------------

# conv: (problem args, choice args) — slices of output rows with their own top / bottom pads, channel
# blocks with a packed tail group, stride, dilation, asymmetric pads, two images, both loop orders
CONV_FORCED = {
    "slices-3rows-pads": ((2, 16, 9, 11, 24, 3, 3, (1, 1), (1, 1, 1, 1), (1, 1)),
                          dict(mt=32, nt=32, kt=64, m_blk=3, n_blk=24, k_blk=16, order="mn")),
    "tail-group-blocks-nm": ((1, 36, 10, 7, 40, 3, 2, (2, 1), (0, 2, 1, 2), (2, 1)),
                             dict(mt=16, nt=32, kt=32, m_blk=2, n_blk=32, k_blk=16, order="nm")),
    "k-split-one-row": ((1, 48, 6, 6, 33, 3, 3, (1, 1), (1, 1, 1, 1), (1, 1)),
                        dict(mt=16, nt=32, kt=32, m_blk=1, n_blk=33, k_blk=16, order="mn")),
}


@pytest.mark.parametrize("bt", [True, False], ids=["weights-Bt", "weights-B"])
@pytest.mark.parametrize("name", list(CONV_FORCED))
@pytest.mark.parametrize("dt", ["half", "int8_t"])
@pytest.mark.parametrize("chip", CHIPS)
def test_conv_forced_blockings(chip: str, dt: str, name: str, bt: bool) -> None:
    pargs, cargs = CONV_FORCED[name]
    p = ConvProblem(chip, *pargs, dtype=dt)
    from ascsim.planner.movers import legal_loads
    from ascsim.planner.search import channel_size_error

    loads = legal_loads(Core(chip).chip, p.dt, "b", bt)
    chan = next(c for c in range(p.c, p.c + 33) if channel_size_error(chip, p.dt.name, c) is None)
    cargs = {**cargs, "k_blk": cargs["k_blk"] * p.dt.c0 // 16}  # channel blocks of whole C0 groups
    plan = plan_for(p, Choice(**cargs, a_load="load3d", b_load=loads[0], b_trans=bt, channels=chan))
    v = plan.verify(seed=7)
    assert v.passed, v.line()
    _check_cost(plan)
    _check_bytes(plan, v)


MM_FORCED = {  # (m, n, k), choice: K split with tails, order nm, A blocks of two tiles
    "k-split-tails": ((100, 150, 300), dict(mt=64, nt=64, kt=64, m_blk=64, n_blk=64, k_blk=128, order="mn")),
    "nm-two-tile-blocks": ((130, 90, 200), dict(mt=64, nt=64, kt=128, m_blk=128, n_blk=64, k_blk=200,
                                                order="nm")),
}


@pytest.mark.parametrize("name", list(MM_FORCED))
@pytest.mark.parametrize(("chip", "dt", "at", "bt"), [
    ("a2", "int4b_t", False, False), ("a2", "float", True, False), ("a2", "int8_t", True, True),
    ("ascend950", "bfloat16_t", True, False), ("ascend950", "int8_t", False, False)])
def test_matmul_forced_blockings(chip: str, dt: str, at: bool, bt: bool, name: str) -> None:
    (m, n, k), cargs = MM_FORCED[name]
    p = MatmulProblem(chip, m, n, k, dt, at, bt)
    auto = plan_matmul(p)
    plan = plan_for(p, Choice(**cargs, a_load=auto.choice.a_load, b_load=auto.choice.b_load, b_trans=bt))
    v = plan.verify(seed=5)
    assert v.passed, v.line()
    _check_cost(plan)
    _check_bytes(plan, v)


# -- the search ----------------------------------------------------------------------------------------------


def test_search_balanced_picks_the_cheapest_candidate() -> None:
    """Objective balanced: the winner costs no more than any candidate the search enumerates, and the
    objectives trade calls against bytes as documented."""
    p = MatmulProblem("a2", 700, 300, 900, "half")
    plan = plan_matmul(p, objective="balanced")
    s = MatmulSearch(p, "balanced", "test")
    costs = [r for ch in s.choices(plan.choice.a_load, plan.choice.b_load, None) if (r := s.evaluate(ch))]
    assert len(costs) > 10
    assert score(plan.cost, "balanced") == min(r[0] for r in costs)
    traffic = plan_matmul(p, objective="traffic").cost
    calls = plan_matmul(p, objective="instructions").cost
    assert traffic.total_bytes <= calls.total_bytes and calls.total_calls <= traffic.total_calls


def test_search_time_picks_the_fastest_scheduled_candidate() -> None:
    """Objective time (the default): the candidates (up to TIME_POOL, the cheapest by the balanced cost
    first) are scheduled and the winner's predicted time is no more than any of theirs (recomputed here with
    planner.timing on each candidate's own plan); the winner is one of them."""
    p = MatmulProblem("a2", 700, 300, 900, "half")
    plan = plan_matmul(p)
    assert plan.objective == "time"
    s = MatmulSearch(p, "time", "test")
    ranked = sorted(((r[0], i, ch) for i, ch in enumerate(s.choices(plan.choice.a_load, plan.choice.b_load,
                                                                      None)) if (r := s.evaluate(ch))),
                    key=lambda x: x[:2])
    assert 10 < len(ranked) <= TIME_POOL  # every candidate is scheduled
    pool = [ch for _, _, ch in ranked[:TIME_POOL]]
    assert plan.choice in pool
    times = [predict(plan_for(p, ch), cap=TIME_CAP).cycles for ch in pool]
    assert predict(plan, cap=TIME_CAP).cycles == min(times)
    assert len(set(times)) > 1  # the pool really differs in time: the ranking is not a tie


def test_small_channel_conv_pads_channels_and_says_why() -> None:
    plan = plan_conv2d(ConvProblem("a2", 1, 3, 32, 32, 16, 3, 3, (1, 1), (1, 1, 1, 1), (1, 1), "half"))
    assert plan.choice.channels == 4  # LoadData_3D.md: channelSize 4 is a half form, 3 is not
    assert any(r.startswith("channelSize 4 for 3 input channels") and "Load3D refuses channelSize 3" in r
               for r in plan.reasons)


def test_int8_b_on_a2_says_why_transpose() -> None:
    plan = plan_matmul(MatmulProblem("a2", 64, 64, 64, "int8_t"))
    why = plan.reasons[1]
    assert why.startswith("B (int8_t) on") and "-> LoadDataWithTranspose" in why
    assert "LoadData2D ifTranspose does not support int8_t" in why


def test_unplannable_layer_raises_before_placing() -> None:
    """One output row of a 40000-wide map does not fit L1: refused by the planner, memory untouched."""
    core = Core("a2")
    before = {n: m.data.copy() for n, m in core.memories.items()}
    from ascsim.flows import conv2d

    with pytest.raises(ParamRangeError, match=r"^conv2d: no tiling of conv2d .* fits the memories"):
        conv2d(core, np.zeros((1, 64, 3, 40000)), np.zeros((16, 64, 3, 3)), pad=1)
    assert all(np.array_equal(before[n], m.data) for n, m in core.memories.items())


def test_refusals_name_what_is_missing() -> None:
    with pytest.raises(NotImplementedFeature, match=r"^conv2d: groups = 2 .* is not planned"):
        ConvProblem("a2", 1, 4, 8, 8, 4, 3, 3, groups=2)


# -- the command line ----------------------------------------------------------------------------------------


def test_cli_plan_matmul_writes_files_that_replay(tmp_path: Path, capsys) -> None:
    rc = main(["plan", "matmul", "--chip", "950", "--m", "100", "--n", "70", "--k", "300", "--dtype",
               "bfloat16_t", "--a-layout", "col", "--b-layout", "row", "-o", str(tmp_path)])
    out = capsys.readouterr().out
    assert rc == 0 and "verification: PASS" in out
    for head in ("tiles", "bytes moved per level", "instructions per pipe", "memory occupancy", "why"):
        assert f"\n{head}" in out
    sc = load_scenario(tmp_path / "plan.toml")
    run = run_scenario(sc)
    p = MatmulProblem("ascend950", 100, 70, 300, "bfloat16_t", True, False)
    ref = plan_matmul(p).verify(p.random_inputs(0)).result
    assert run.tensors["c_gm"].read().reshape(100, 70).tobytes() == ref.tobytes()
    cpp = (tmp_path / "plan.cpp").read_text()
    assert "AscendC::Mmad(c0, a2, b2, mmadParams);" in cpp


def test_cli_plan_conv2d(capsys) -> None:
    rc = main(["plan", "conv2d", "--chip", "a2", "--input", "1,3,20,20", "--weight", "8,3,3", "--stride",
               "2", "--pad", "1", "--dtype", "int8"])
    out = capsys.readouterr().out
    assert rc == 0 and "verification: PASS" in out and "exact" in out


def test_cli_plan_bad_shape(capsys) -> None:
    assert main(["plan", "conv2d", "--input", "1,3,20", "--weight", "8,3,3"]) == 2
    assert "plan: --input takes 4 value(s), but got '1,3,20'" in capsys.readouterr().err


def test_emitted_conv_scenario_replays(tmp_path: Path) -> None:
    p = ConvProblem("ascend950", 1, 3, 40, 40, 16, 7, 7, (2, 2), (3, 3, 3, 3), (1, 1), "half")
    plan = plan_conv2d(p)
    inputs = p.random_inputs(1)
    v = plan.verify(inputs)
    paths = write_plan(plan, tmp_path, inputs, plan.report(v))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        run = run_scenario(load_scenario(paths["scenario"]))
    y = run.tensors["y_gm"].read().reshape(1, -1, 16).transpose(0, 2, 1).reshape(v.result.shape)
    assert y.astype(np.float32).tobytes() == v.result.tobytes()


@pytest.mark.parametrize(("chip", "dt", "quant"), [
    ("a2", "int8_t", "deqf16"), ("ascend950", "int8_t", "deqf16"), ("a2", "half", None),
    ("ascend950", "bfloat16_t", None), ("a2", "int8_t", None)])
def test_matmul_bias_and_deqf16(chip: str, dt: str, quant: str | None, tmp_path: Path) -> None:
    """bias through GM -> L1 -> BiasTable (Mmad with bias on the first K tile), DEQF16 in Fixpipe; the
    reference is numpy A·B + bias, and for DEQF16 the doc's steps (flows_quant.quant_matmul_reference)
    compared bit for bit. N = 300 needs several N tiles on A2 (BiasTable 1 KB = 256 values)."""
    p = MatmulProblem(chip, 100, 300, 200, dt, False, True, bias=True, quant=quant)
    plan = plan_matmul(p)
    inputs = p.random_inputs(2)
    v = plan.verify(inputs)
    assert v.passed, v.line()
    if quant:
        assert v.result.dtype == np.float16 and v.max_error == 0
    _check_cost(plan)
    _check_bytes(plan, v)
    _check_replays(plan, inputs, v, tmp_path)


def test_bias_refusals_come_from_the_instructions() -> None:
    from ascsim import UnsupportedError

    with pytest.raises(UnsupportedError, match=r"^plan matmul: --bias with int4b_t operands .* refused by "
                                               r"the instruction itself: Mmad: bias with int4b_t"):
        plan_matmul(MatmulProblem("a2", 16, 16, 64, "int4b_t", bias=True))
    with pytest.raises(UnsupportedError, match=r"^plan matmul: --quant deqf16 with half .* Fixpipe: quantPre "
                                               r"DEQF16"):
        plan_matmul(MatmulProblem("a2", 16, 16, 16, "half", quant="deqf16"))


# -- the flows run plans (issue 8 item 6) -------------------------------------------------------------------


def test_flow_matmul_1024_half_end_to_end() -> None:
    """A 1024^3 half matmul (4 MB of operands, L1 holds 512 KB) through flows_matmul.matmul against numpy."""
    from ascsim.flows.matmul import matmul

    rng = np.random.default_rng(4)
    a = rng.standard_normal((1024, 1024)).astype(np.float16)
    b = rng.standard_normal((1024, 1024)).astype(np.float16)
    c, stats = matmul(Core("a2"), a, b, dtype="half")
    ref = a.astype(np.float64) @ b.astype(np.float64)
    bound = 2.0**-22 * 1024 * (np.abs(a.astype(np.float64)) @ np.abs(b.astype(np.float64)))
    assert (np.abs(c - ref) <= bound).all()
    plan = stats["plan"]
    assert len(plan.gemm.m_blocks) * len(plan.gemm.k_blocks) > 1  # tiled through L1
    assert stats["instructions"]["Mmad"] == stats["tiles"]


def test_flow_conv2d_larger_than_l1() -> None:
    """A feature map of 32 x 120 x 120 half (900 KB) does not fit L1: the flow slices output rows (with their
    own top / bottom padding, divergence N3) and matches torch."""
    from ascsim.flows import conv2d

    rng = np.random.default_rng(5)
    x = rng.standard_normal((1, 32, 120, 120)).astype(np.float16)
    w = (rng.standard_normal((16, 32, 3, 3)) / 4).astype(np.float16)
    y, stats = conv2d(Core("ascend950"), x, w, stride=1, pad=1, dtype="half")
    xt, wt = torch.from_numpy(x.astype(np.float64)), torch.from_numpy(w.astype(np.float64))
    ref = torch.nn.functional.conv2d(xt, wt, padding=1).numpy()
    scale = torch.nn.functional.conv2d(xt.abs(), wt.abs(), padding=1).numpy()
    assert (np.abs(y - ref) <= 2.0**-22 * 288 * scale).all()
    assert len(stats["plan"].gemm.m_blocks) > 1  # several slices of output rows


def test_transposed_int4_a_is_refused_with_the_reason() -> None:
    from ascsim import UnsupportedError

    with pytest.raises(UnsupportedError, match=r"^plan matmul: a_load 'auto' found no load for A \(int4b_t, "
                                               r"a_trans=True\) on Atlas A2"):
        plan_matmul(MatmulProblem("a2", 64, 64, 64, "int4b_t", a_trans=True))


# -- the closed-form cost against the loop it counts ---------------------------------------------------------


@settings(max_examples=40, deadline=None)
@given(m=st.integers(1, 300), n=st.integers(1, 300), k=st.integers(1, 400), tiles=st.tuples(
    st.sampled_from([32, 64, 96, 128]), st.sampled_from([32, 64, 128]), st.sampled_from([32, 64, 128])),
    mult=st.tuples(st.integers(1, 3), st.integers(1, 3), st.integers(1, 4)),
    order=st.sampled_from(["mn", "nm"]), chip=st.sampled_from(CHIPS), bt=st.booleans())
def test_cost_closed_form_matches_the_loop(m, n, k, tiles, mult, order, chip, bt) -> None:
    """`Gemm.cost` (closed form) equals the calls and bytes of the program `Gemm.emit` builds, for random
    blockings: tails, several L1 blocks per axis, K split or not, both loop orders."""
    mt, nt, kt = tiles
    p = MatmulProblem(chip, m, n, k, "half", False, bt)
    auto = plan_matmul(p)
    ch = Choice(mt, nt, kt, mt * mult[0], nt * mult[1], kt * mult[2], order, auto.choice.a_load,
                auto.choice.b_load, bt)
    try:
        plan = plan_for(p, ch)
    except ParamRangeError:
        assume(False)
    _check_cost(plan)
