"""Fuzzing the compiled C++ path: mutated Ascend C sources through `ascsim run` (and the Python API).

Every case is a file written here and run as a user runs it — `python -m ascsim.cli run FILE --chip a2
--timeout T --compile-timeout C [--gm ...]` in a subprocess — under a wrapper that measures the memory of
the whole process tree (engine, compiler, program) and kills it at a hard outer timeout
(tests/fuzz/program_mutations.py `run_measured`). The contract (the issue's acceptance) is the reference,
not ascsim's output: exit status 0, 1 or 2; no Python traceback; no "internal error"; the run ends before
the outer timeout; the tree stays under 2 GiB. The Python API's face (load_kernel / load_program + run)
may raise AscsimError only.

* `test_seeds_compute_the_matmul`: the four seeds are valid programs — C = A @ B against numpy (the
  program seed checks itself against its own host loop and prints `ok`).
* `test_hand_picked_extremes`: empty files, non-UTF-8 bytes, a 10^6-long literal, exponential macros,
  template bombs, `while (1);` in the kernel and in main, infinite recursion, 1 GiB arrays, a huge blockDim,
  negative parameters, NaN literals, nesting 10^4 deep — each with the one-line outcome it must have.
* `test_mutated_programs`: `ASCSIM_PROGRAM_FUZZ_BUDGET` (default 4) random cases of a fixed seed; the
  long run is tools/fuzz_programs.py (its docstring records one of >= 2,000 files).
* The regressions of what this fuzzing found: a non-UTF-8 byte in a string literal (the build's cache key
  raised UnicodeEncodeError: an internal error), launches of many blocks stopping at the 127th (the block
  threads' stacks, never given back, hit the program's memory limit; the run then reported success),
  a blockDim past uint32_t shown wrapped, `--timeout nan` / `inf` and `--gm-limit nan` (internal errors),
  a program's GM copied whole at its first launch (3 GiB of GM made a 6 GiB run), compiler bombs allowed
  4 GiB per compiler process.
"""

from __future__ import annotations

import math
import os
import random
import sys
from pathlib import Path

import numpy as np
import pytest
from support.paths import SRC

sys.path.insert(0, str(Path(__file__).resolve().parent))

import program_mutations as pm  # noqa: E402

from ascsim.base.errors import AscsimError  # noqa: E402

BUDGET = int(os.environ.get("ASCSIM_PROGRAM_FUZZ_BUDGET", "4"))
TIMEOUT = 10.0
COMPILE_TIMEOUT = 30.0
#: The compile bombs' --compile-timeout: they must end by then, with a BuildError.
BOMB_COMPILE_TIMEOUT = 6.0
LIMIT = 2 << 30


def _env() -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(SRC)}


def _run(tmp_path: Path, source: bytes, seed_name: str, options: tuple[str, ...] = (),
         compile_timeout: float = COMPILE_TIMEOUT, timeout: float = TIMEOUT) -> pm.Outcome:
    path = tmp_path / "k.cpp"
    path.write_bytes(source)
    argv = pm.cli_argv(path, pm.Case(seed_name, (), 0), tmp_path, timeout, compile_timeout) + list(options)
    return pm.run_measured(argv, timeout + compile_timeout + 60, env=_env(), cwd=tmp_path)


def _contract(o: pm.Outcome, what: str) -> None:
    bad = o.failures(LIMIT)
    assert not bad, f"{what}: {'; '.join(bad)}\n--- stderr\n{o.stderr[-3000:]}"


def _reference() -> np.ndarray:
    a, b = pm.seed_inputs()
    return a.astype(np.float64) @ b.astype(np.float64)


@pytest.mark.parametrize("seed_name", sorted(pm.SEEDS))
def test_seeds_compute_the_matmul(tmp_path: Path, seed_name: str) -> None:
    o = _run(tmp_path, pm.SEEDS[seed_name].encode(), seed_name)
    _contract(o, seed_name)
    assert o.rc == 0, o.stderr
    if seed_name == "program":
        assert o.stdout.strip().splitlines()[-1] == "ok"
    else:
        np.testing.assert_array_equal(np.load(tmp_path / "c.npy"), _reference())


@pytest.mark.parametrize("name", sorted(pm.EXTREMES))
def test_hand_picked_extremes(tmp_path: Path, name: str) -> None:
    case = pm.EXTREMES[name]
    bomb = any("the compiler ran past" in e for e in case.expect)
    o = _run(tmp_path, case.source, case.seed_name, case.options,
             BOMB_COMPILE_TIMEOUT if bomb else COMPILE_TIMEOUT, case.timeout or TIMEOUT)
    _contract(o, name)
    if case.expect == ("",):  # runs to its end, and computes what the seed computes
        assert o.rc == 0, o.stderr
        if case.seed_name == "program":
            assert o.stdout.strip().splitlines()[-1] == "ok"
        else:
            np.testing.assert_array_equal(np.load(tmp_path / "c.npy"), _reference())
        return
    assert o.rc == 2, o.stdout + o.stderr
    assert any(e in o.stderr for e in case.expect), o.stderr[-3000:]
    if bomb:  # the whole build (three compiler runs at most) stops at its --compile-timeout
        assert o.elapsed < BOMB_COMPILE_TIMEOUT + 40


def test_mutated_programs(tmp_path: Path) -> None:
    """`BUDGET` random cases (fixed seed); every other one also through the Python API."""
    rng = random.Random(20_240_601)
    failures = []
    for i in range(BUDGET):
        case = pm.random_case(rng)
        folder = tmp_path / f"case{i}"
        folder.mkdir()
        path = folder / "k.cpp"
        path.write_bytes(case.text())
        outer = TIMEOUT + COMPILE_TIMEOUT + 60
        faces = [("cli", pm.cli_argv(path, case, folder, TIMEOUT, COMPILE_TIMEOUT))]
        if i % 2 == 0:
            faces.append(("api", pm.api_argv(path, case, folder, TIMEOUT, COMPILE_TIMEOUT)))
        for face, argv in faces:
            o = pm.run_measured(argv, outer, env=_env(), cwd=folder)
            bad = o.failures(LIMIT)
            if bad:
                failures.append(f"{case.label} [{face}]: {'; '.join(bad)}: {o.stderr.strip()[-500:]}")
    assert not failures, "\n".join(failures)


# -- regressions ------------------------------------------------------------------------------------------

_FILL_PER_BLOCK = """\
#include "kernel_operator.h"
extern "C" __global__ __aicore__ void k(GM_ADDR a)
{
    AscendC::LocalTensor<half> t(AscendC::TPosition::A1, 0, 256);
    AscendC::Fill(t, AscendC::InitConstValueParams<half>(1, 1, 0, half(2.0)));
}
"""


@pytest.fixture(scope="module")
def fill_kernel(tmp_path_factory: pytest.TempPathFactory):  # noqa: ANN201 - a Program
    from ascsim.program import load_kernel

    f = tmp_path_factory.mktemp("fill") / "k.cpp"
    f.write_text(_FILL_PER_BLOCK, encoding="utf-8")
    return load_kernel(f, "a2")


def test_a_launch_of_many_blocks_runs_every_block(fill_kernel) -> None:  # noqa: ANN001
    """200 blocks that run one after another: each block's Fill is in the trace (the runtime used to keep
    every ended block's thread stack until the launch's end, and the 127th thread of a 2 GiB program could
    not start)."""
    run = fill_kernel.run(blocks=200, timeout=120)
    assert sorted(c.block for c in run.trace if c.name == "Fill") == list(range(200))


@pytest.mark.parametrize("blocks", [0, -1, 2**32, 10**12, True, 1.5])
def test_block_dim_out_of_range(fill_kernel, blocks: object) -> None:  # noqa: ANN001
    with pytest.raises(AscsimError, match=r"blockDim must be an integer in \[1, 4294967295\]"):
        fill_kernel.run(blocks=blocks)


@pytest.mark.parametrize("option,value", [("--timeout", "nan"), ("--timeout", "inf"), ("--timeout", "-1"),
                                          ("--compile-timeout", "nan"), ("--compile-timeout", "inf"),
                                          ("--gm-limit", "nan"), ("--gm-limit", "inf"), ("--gm-limit", "0")])
def test_time_and_memory_options_are_positive_numbers(option: str, value: str) -> None:
    from ascsim.cli import main

    with pytest.raises(SystemExit) as e:
        main(["run", "k.cpp", option, value])
    assert e.value.code == 2


@pytest.mark.parametrize("kwargs", [{"timeout": math.nan}, {"timeout": math.inf}, {"timeout": 0},
                                    {"gm_limit": 0}, {"gm_limit": -5}])
def test_run_limits_are_checked(fill_kernel, kwargs: dict) -> None:  # noqa: ANN001
    from ascsim.program import load_kernel

    with pytest.raises(AscsimError, match=next(iter(kwargs))):
        fill_kernel.run(**kwargs)
    with pytest.raises(AscsimError, match="compile_timeout"):
        load_kernel(fill_kernel.path, "a2", compile_timeout=math.nan)


def test_the_gm_kept_for_a_scenario_is_bounded() -> None:
    """The first launch keeps a copy of GM (for --emit-scenario) up to SNAPSHOT_LIMIT bytes; a bigger
    allocation is not copied, and a scenario that needs it is refused (it was copied whole: 3 GiB of GM
    made a 6 GiB run)."""
    from ascsim.machine.memory import SharedGlobalMemory
    from ascsim.program.server import SNAPSHOT_LIMIT, gm_snapshot

    gm = SharedGlobalMemory(limit=SNAPSHOT_LIMIT * 2)
    kept: dict = {}
    try:
        small = gm.allocate(4096, "small")
        gm.data[small : small + 4] = [1, 2, 3, 4]
        big = gm.allocate(SNAPSHOT_LIMIT, "big")
        kept = gm_snapshot(gm)
        assert list(kept[small][:4]) == [1, 2, 3, 4]
        with pytest.raises(AscsimError, match="keeps at most"):
            kept[big][0:16]
    finally:
        kept.clear()  # (the copies view nothing of GM; its mapping can go)
        gm.close()
