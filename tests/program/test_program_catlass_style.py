"""A whole program in catlass's style, built and run as written: examples/catlass_style/basic_matmul.cpp
(host main, acl runtime, file I/O, its own golden check) over the mini template library next to it —
class templates with partial and explicit specialisations (also in class scope), inheritance, if constexpr,
static_assert, SFINAE, a multi-core loop over GetBlockIdx / GetBlockNum, ping-pong L1 and L0 buffers with
flags, and the <<<...>>> launch inside an included header.

The reference is numpy, from the Mmad page's definition: each Mmad adds its k-step's exact products to the
float32 in L0C and rounds once (ascsim's default accumulation, docs/mmad.md); the program also prints its
own verdict. Then the kernel is broken twice: a missing WaitFlag (an in-core race, reported with the two
source lines) and two blocks writing one output tile (a cross-core GM race, naming both blocks)."""

from __future__ import annotations

import warnings
from pathlib import Path

import numpy as np
import pytest
from support.doc_kernels import source_line
from support.paths import EXAMPLES

from ascsim.engine.sync import SyncWarning
from ascsim.program import load_program

PROGRAM = EXAMPLES / "catlass_style" / "basic_matmul.cpp"
MINI = EXAMPLES / "catlass_style" / "mini"
K_STEP = 64  # the L0 K tile (mini/matmul_kernel.hpp L0Tile)
TILE = 64  # the output tile (L1Tile M, N)


def _inputs(d: Path, m: int, n: int, k: int, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    a = rng.standard_normal((m, k)).astype(np.float16)
    b = rng.standard_normal((k, n)).astype(np.float16)
    (d / "input").mkdir(exist_ok=True)
    (d / "output").mkdir(exist_ok=True)
    a.tofile(d / "input" / "a.bin")
    b.tofile(d / "input" / "b.bin")
    return a, b


def _reference(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """L0C after the K loop: per k-step, float32(c + exact sum of the step's products)."""
    a64, b64 = a.astype(np.float64), b.astype(np.float64)
    c = np.zeros((a.shape[0], b.shape[1]), np.float32)
    for k0 in range(0, a.shape[1], K_STEP):
        c = (c.astype(np.float64) + a64[:, k0 : k0 + K_STEP] @ b64[k0 : k0 + K_STEP]).astype(np.float32)
    return c


def _run(tmp_path: Path, chip: str, m: int, n: int, k: int, defines: dict[str, str] | None = None):
    a, b = _inputs(tmp_path, m, n, k)
    prog = load_program(PROGRAM, chip, defines=defines or {})
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", SyncWarning)
        run = prog.run(args=[str(m), str(n), str(k)], cwd=tmp_path, capture=True)
    return run, a, b


SHAPES = [(128, 128, 256), (100, 70, 300), (16, 16, 16), (200, 130, 72), (1, 300, 40), (65, 40, 50)]


@pytest.mark.parametrize("chip", ["a2", "950"])
@pytest.mark.parametrize(("m", "n", "k"), SHAPES, ids=[f"{m}x{n}x{k}" for m, n, k in SHAPES])
def test_catlass_style_matmul_matches_numpy(tmp_path: Path, chip: str, m: int, n: int, k: int) -> None:
    run, a, b = _run(tmp_path, chip, m, n, k)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "Compare success." in run.stdout
    tiles = -(-m // TILE) * -(-n // TILE)
    assert f"blockDim {min(tiles, 24)}," in run.stdout
    c = np.fromfile(tmp_path / "output" / "c.bin", np.float32).reshape(m, n)
    np.testing.assert_allclose(c, _reference(a, b), rtol=1e-6, atol=1e-6)
    assert run.sync_reports == []
    assert run.race_reports == []
    blocks = {t.block for t in run.trace}
    assert blocks == set(range(min(tiles, 24)))


def _line_of(path: Path, marker: str) -> int:
    return source_line(path.read_text(), marker)


@pytest.mark.parametrize("chip", ["a2", "950"])
def test_a_missing_waitflag_is_reported_with_both_lines(tmp_path: Path, chip: str) -> None:
    run, _, _ = _run(tmp_path, chip, 100, 70, 300, {"MINI_SYNC_BUG": ""})
    copy_in = _line_of(MINI / "tile_copy.hpp", "// mini:copy-in")
    load_a = _line_of(MINI / "tile_copy.hpp", "// mini:load-a-" + ("nz" if chip == "950" else "zz"))
    where = f"tile_copy.hpp:{load_a}: LoadData (MTE1)"
    raw = [r for r in run.sync_reports if r.kind == "RAW" and where in r.message]
    assert raw, [r.message for r in run.sync_reports]
    assert f"tile_copy.hpp:{copy_in} (MTE2) with no WaitFlag<MTE2_MTE1>" in raw[0].message


@pytest.mark.parametrize("chip", ["a2", "950"])
def test_two_blocks_writing_one_tile_is_a_cross_core_race(tmp_path: Path, chip: str) -> None:
    run, _, _ = _run(tmp_path, chip, 128, 128, 64, {"MINI_RACE_BUG": ""})
    assert "Compare success." in run.stdout  # block 4 writes tile 0 again, with the same values
    out = _line_of(MINI / "tile_copy.hpp", "// mini:copy-out-" + chip)
    races = [str(r) for r in run.race_reports]
    assert races, run.stderr
    text = races[0]
    assert f"tile_copy.hpp:{out}: block 4 Fixpipe writes GM" in text, text
    assert f"written by block 0 Fixpipe at examples/catlass_style/mini/tile_copy.hpp:{out}" in text, text
