"""A gather whose indices form an affine grid runs as one strided copy from its placement's second run on
(`ascsim.engine.boundary.Placement.gather`, `affine_grid`): the same bytes as the `take` of the first run.

- `affine_grid` is checked against grids built from their definition (first + sum of i_d * step_d) and
  against perturbed index lists (a None, or an exact description — never a wrong one);
- `Placement.gather` itself, on random (and perturbed) grids of every unit size, against `take`;
- Load3D v2 on every chip that documents it, into L0A and L0B (the B side's in-fractal transposes are
  the grids the matmul flow meets): the call runs once on throw-away source codes, then — the placement
  now warm — on the self-describing codes of tests/support/load3d_cases.py, and the whole destination memory
  equals the slow reference interpreter (`ascsim.isa.load3d_ref`);
- the matmul flow run twice on one core gives the same bytes both times (first run: takes; second run:
  strided copies).
"""

from __future__ import annotations

import warnings

import numpy as np
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from support.load3d_cases import V2_TARGETS, V2Case, assert_same, run_ref, setup_case, v2_cases

from ascsim import Core
from ascsim.base.errors import DocConflictWarning
from ascsim.engine.boundary import Placement, affine_grid
from ascsim.flows.matmul import matmul
from ascsim.machine.memory import Memory
from ascsim.params import IsResetLoad3dConfig

SETTINGS = settings(max_examples=25, deadline=None)


def grid(first: int, shape: tuple[int, ...], steps: tuple[int, ...]) -> np.ndarray:
    """The index list of an affine grid, from the definition."""
    idx = np.full(shape, first, dtype=np.int64)
    for d, (n, s) in enumerate(zip(shape, steps, strict=True)):
        idx += (np.arange(n) * s).reshape((n,) + (1,) * (len(shape) - d - 1))
    return idx.ravel()


@SETTINGS
@given(shape=st.lists(st.integers(1, 6), min_size=1, max_size=5),
       steps=st.lists(st.integers(-40, 40), min_size=5, max_size=5), first=st.integers(0, 5000),
       perturb=st.booleans(), data=st.data())
def test_affine_grid_is_exact_or_none(shape, steps, first, perturb, data) -> None:
    idx = grid(first + 1000, tuple(shape), tuple(steps[: len(shape)]))
    if perturb and idx.size > 1:
        i = data.draw(st.integers(0, idx.size - 1), "at")
        idx = idx.copy()
        idx[i] += data.draw(st.sampled_from([-1, 1, 7]), "by")
    g = affine_grid(idx)
    if g is not None:
        np.testing.assert_array_equal(grid(*g), idx)


def test_affine_grid_finds_fractal_transposes_and_block_copies() -> None:
    t = np.arange(128 * 256).reshape(128, 16, 16).transpose(0, 2, 1).ravel()  # 16 x 16 in-fractal transpose
    assert affine_grid(t) == (0, (128, 16, 16), (256, 1, 16))
    z = (np.arange(8)[:, None, None] * 16 + np.arange(16)[None, :, None] * 128 + np.arange(16)).ravel()
    assert affine_grid(z) == (0, (8, 16, 16), (16, 128, 1))  # Nz -> Zz fractal rows (32-byte units)
    assert affine_grid(np.array([0, 1, 2, 5])) is None
    assert affine_grid(np.array([4])) is None


@SETTINGS
@given(unit=st.sampled_from([1, 2, 4, 8, 32]), shape=st.lists(st.integers(1, 8), min_size=1, max_size=4),
       steps=st.lists(st.integers(-30, 30), min_size=4, max_size=4), perturb=st.booleans(), data=st.data())
def test_warm_gather_equals_take(unit, shape, steps, perturb, data) -> None:
    """`Placement.gather` straight: the first run takes, the second copies through the grid it found;
    both equal a `take` of the same indices, for every unit size (random grids, some perturbed)."""
    rng = np.random.default_rng(data.draw(st.integers(0, 2**32 - 1), "seed"))
    src, dst = Memory("L1", 256 * 1024), Memory("L0B", 256 * 1024)
    idx = grid(0, tuple(shape), tuple(steps[: len(shape)]))
    if perturb:
        idx[data.draw(st.integers(0, idx.size - 1), "at")] += 1
    idx -= idx.min()
    assume(int(idx.max()) < src.size // unit)
    pl = Placement()
    pl.mem, pl.dmem, pl.unit, pl.idx, pl.uses, pl.grid, pl.n_pad = src, dst, unit, idx, 0, None, 0
    pl.full = src.units(unit)
    out = dst.units(unit)[5 : 5 + idx.size]
    for _ in range(2):
        src.data[:] = rng.integers(0, 256, src.size, dtype=np.uint8)
        pl.gather(out)
        np.testing.assert_array_equal(out.view(np.uint8), pl.full.take(idx).view(np.uint8))
    assert (pl.grid is not None) == (affine_grid(idx) is not None)


def _warm_then_real(case: V2Case) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Run the call on other source codes first (a cold placement: `take`), then on the test's codes with
    the destination restored (a warm placement: the strided copy when the indices are a grid)."""
    core, codes, src, dst, before = setup_case(case)
    p = case.p
    src.write_raw(codes[::-1].copy())
    core.load_data(dst, src, p, IsResetLoad3dConfig(True, True))
    src.write_raw(codes)
    dst.write_raw(before)
    core.load_data(dst, src, p, IsResetLoad3dConfig(True, True))
    return codes, before, dst.read_raw()


def test_warm_load3d_equals_reference() -> None:
    for chip, dst in V2_TARGETS:
        @SETTINGS
        @given(case=v2_cases(chip, dst))
        def run(case: V2Case) -> None:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", DocConflictWarning)
                codes, before, got = _warm_then_real(case)
            assert_same(case, got, run_ref(case, codes, before))

        run()


def test_matmul_flow_twice_gives_the_same_bytes() -> None:
    rng = np.random.default_rng(2)
    a = rng.standard_normal((160, 320)).astype(np.float16)
    b = rng.standard_normal((320, 200)).astype(np.float16)
    core = Core("a2")
    first, _ = matmul(core, a, b, tiles=(64, 64, 128))
    second, _ = matmul(core, a, b, tiles=(64, 64, 128))
    np.testing.assert_array_equal(first.view(np.uint32), second.view(np.uint32))
    want = a.astype(np.float64) @ b.astype(np.float64)  # K split in 3 Mmads: float32 between them
    np.testing.assert_allclose(first, want, rtol=1e-5, atol=1e-4)


def test_warm_gathers_read_from_the_source_tensor_not_the_memory_start() -> None:
    """Gathers take the plan's relative indices from a view that starts at the source tensor: a source at
    a non-zero L1 offset, read three times (cold take, then the warm strided copy), always gives the
    fractals at that offset (numpy slicing of the L1 bytes is the reference). Pads, which index the spare
    block through -1, are covered by the warm Load3D cases above."""
    from ascsim import LoadData2DParams

    core = Core("a2")
    rng = np.random.default_rng(7)
    src = core.tensor("A1", "half", 8 * 256, offset=4096)
    dst = core.tensor("A2", "half", 4 * 256, offset=0)
    p = LoadData2DParams(1, 4, 2, 0, 0, False, 0)  # fractals 1, 3, 5, 7 of the source tensor
    for _ in range(3):
        core.memory("L1").data[:] = rng.integers(0, 256, core.memory("L1").size, dtype=np.uint8)
        core.load_data(dst, src, p)
        l1 = core.memory("L1").data[4096 : 4096 + 8 * 512].reshape(8, 512)
        np.testing.assert_array_equal(core.memory("L0A").data[: 4 * 512].reshape(4, 512), l1[1::2])
