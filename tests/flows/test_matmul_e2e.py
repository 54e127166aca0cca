"""End-to-end matrix multiply (`ascsim.flows_matmul`): GM ND -> DataCopy Nd2Nz -> L1 -> L0A/L0B (LoadData2D,
LoadDataWithTranspose, Load3D 2-D use, LoadData2Dv2) -> Mmad -> Fixpipe NZ2ND -> GM, against numpy.

References: integers `a.astype(int64) @ b` (exact); floats the float64 product of the dtype-rounded
inputs (exact products), with a bound of 1e-6*K*(|A|@|B|) per element — far below the error of any
misplaced element, above the float32 rounding of one sum per K tile.

`LEGAL` is the load table written from the docs, not from ascsim: 矩阵计算输入搬运约束.md 表5 (A2/A3:
A不转置 LoadData2D / Load3D; A转置 b8 LoadDataWithTranspose, b16 all three, b32 LDWT / Load3D, b4 不支持;
B不转置 b4/b8 LDWT, b16 all three, b32 LDWT / Load3D; B转置 LoadData2D), 表3 (LoadData2D moves b4 on
L1->L0A/L0B), and for 950 表4 + id8 (LoadData2D v1 and V2 on L1->L0A/L0B, LoadDataWithTranspose only
into L0B, Load3D b8/b16/b32 into both with enTranspose on L0A; ifTranspose of LoadData2D b16 only).
"""

from __future__ import annotations

import itertools
import warnings

import ml_dtypes
import numpy as np
import pytest

from ascsim import Core, ParamRangeError, UnsupportedError
from ascsim.flows.matmul import LOADS, legal_loads, matmul, mx_matmul, sparse_matmul

DTYPES = ("int4b_t", "int8_t", "half", "bfloat16_t", "float")
_CAST = {"half": np.float16, "bfloat16_t": ml_dtypes.bfloat16, "float": np.float32}
_ALL = {"load2d", "load3d"}
_B16 = {"load2d", "transpose", "load3d"}
LEGAL: dict[tuple[str, str, str, bool], set[str]] = {}
for _dt in DTYPES:
    _b16 = _dt in ("half", "bfloat16_t")
    LEGAL["a2", _dt, "a", False] = set(_ALL)
    LEGAL["a2", _dt, "a", True] = {"int4b_t": set(), "int8_t": {"transpose"}, "float": {"transpose", "load3d"}
                                   }.get(_dt, _B16)
    LEGAL["a2", _dt, "b", False] = {"int4b_t": {"transpose"}, "int8_t": {"transpose"},
                                    "float": {"transpose", "load3d"}}.get(_dt, _B16)
    LEGAL["a2", _dt, "b", True] = {"load2d"}
    if _dt != "int4b_t":  # no int4 Mmad on 950 (Mmad.md 表5)
        LEGAL["ascend950", _dt, "a", False] = {"load2dv2", "load3d", "load2d"}
        LEGAL["ascend950", _dt, "a", True] = {"load2dv2", "load3d"} | ({"load2d"} if _b16 else set())
        LEGAL["ascend950", _dt, "b", False] = {"load2dv2", "load3d", "transpose"} | (
            {"load2d"} if _b16 else set())
        LEGAL["ascend950", _dt, "b", True] = {"load2dv2", "load2d"}

SHAPES = {"m20-k40-n24": (20, 40, 24), "doc-40x70x50": (40, 70, 50)}  # LoadDataWithTranspose.md 调用示例


def _combos():
    for chip, dt in itertools.product(("a2", "ascend950"), DTYPES):
        for at, bt in itertools.product((False, True), repeat=2):
            if (chip, dt, "a", at) not in LEGAL:
                continue
            for la in sorted(LEGAL[chip, dt, "a", at]):
                for lb in sorted(LEGAL[chip, dt, "b", bt]):
                    yield pytest.param(chip, dt, at, bt, la, lb,
                                       id=f"{chip}-{dt}-{'At' if at else 'A'}{'Bt' if bt else 'B'}-{la}-{lb}")


def _inputs(dt: str, m: int, k: int, n: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """Logical A (m x k) and B (k x n), exactly representable in `dt`."""
    rng = np.random.default_rng(seed)
    if dt in ("int4b_t", "int8_t"):
        lo = -8 if dt == "int4b_t" else -128
        return rng.integers(lo, -lo, (m, k)), rng.integers(lo, -lo, (k, n))
    a, b = rng.standard_normal((m, k)), rng.standard_normal((k, n))
    return a.astype(_CAST[dt]).astype(np.float64), b.astype(_CAST[dt]).astype(np.float64)


def _check(dt: str, a: np.ndarray, b: np.ndarray, c: np.ndarray) -> None:
    if dt in ("int4b_t", "int8_t"):
        assert c.dtype == np.int32
        np.testing.assert_array_equal(c, a.astype(np.int64) @ b.astype(np.int64))
        return
    assert c.dtype == np.float32
    ref = a @ b
    bound = 1e-6 * a.shape[1] * (np.abs(a) @ np.abs(b))
    err = np.abs(c.astype(np.float64) - ref)
    assert (err <= bound).all(), f"max error {err.max()} (bound {bound[err > bound].min()})"


def _run(chip, dt, at, bt, la, lb, m, k, n, seed, tiles=None):
    a, b = _inputs(dt, m, k, n, seed)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no hazard / lowering warning anywhere in the flow
        c, stats = matmul(Core(chip, strict=True), a.T if at else a, b.T if bt else b, a_trans=at, b_trans=bt,
                          a_load=la, b_load=lb, dtype=dt, tiles=tiles)
    _check(dt, a, b, c)
    assert stats["loads"] == (la, lb)
    return stats


@pytest.mark.parametrize(("chip", "dt", "at", "bt", "la", "lb"), list(_combos()))
@pytest.mark.parametrize("shape", list(SHAPES))
def test_matmul_every_legal_load(chip, dt, at, bt, la, lb, shape) -> None:
    m, k, n = SHAPES[shape]
    _run(chip, dt, at, bt, la, lb, m, k, n, seed=len(shape) + 3 * at + 5 * bt)


@pytest.mark.parametrize(("chip", "dt", "at", "bt", "la", "lb"), list(_combos()))
def test_matmul_tiled(chip, dt, at, bt, la, lb) -> None:
    """M, N and K all split into 64-tiles with tails (K tiles accumulate in L0C, C tiles via Fixpipe)."""
    stats = _run(chip, dt, at, bt, la, lb, 100, 150, 90, seed=11, tiles=(64, 64, 64))
    assert stats["tiles"] == 2 * 2 * 3


@pytest.mark.parametrize("key", list(LEGAL), ids=lambda k: f"{k[0]}-{k[1]}-{k[2]}{'t' if k[3] else ''}")
def test_legal_load_table(key: tuple[str, str, str, bool]) -> None:
    chip, dt, side, trans = key
    assert set(legal_loads(Core(chip), dt, side, trans)) == LEGAL[key]


def _illegal():
    for (chip, dt, side, trans), ok in LEGAL.items():
        for load in LOADS:
            if load not in ok:
                yield pytest.param(chip, dt, side, trans, load,
                                   id=f"{chip}-{dt}-{side}{'t' if trans else ''}-{load}")


@pytest.mark.parametrize(("chip", "dt", "side", "trans", "load"), list(_illegal()))
def test_illegal_load_raises(chip: str, dt: str, side: str, trans: bool, load: str) -> None:
    a, b = _inputs(dt, 20, 40, 24, 0)
    kw = {"a_trans": trans, "a_load": load} if side == "a" else {"b_trans": trans, "b_load": load}
    core = Core(chip)
    before = {name: mem.data.copy() for name, mem in core.memories.items()}
    x = a.T if side == "a" and trans else a
    y = b.T if side == "b" and trans else b
    with pytest.raises(UnsupportedError, match=rf"^matmul: {side}_load must be .* but got '{load}'"):
        matmul(core, x, y, dtype=dt, **kw)
    assert all(np.array_equal(before[name], mem.data) for name, mem in core.memories.items())


def test_int4_on_950_and_auto_without_a_load_raise() -> None:
    a, b = _inputs("int4b_t", 16, 64, 16, 1)
    with pytest.raises(UnsupportedError, match=r"^matmul: dtype combination \(int4b_t, int4b_t, int32_t\)"):
        matmul(Core("ascend950"), a, b, dtype="int4b_t")
    with pytest.raises(UnsupportedError, match=r"^matmul: a_load 'auto' found no load .*int4b_t"):
        matmul(Core("a2"), a.T, b, a_trans=True, dtype="int4b_t")  # 表5: A转置 b4 不支持


@pytest.mark.parametrize(("call", "match"), [
    pytest.param(lambda a, b: matmul(Core("a2"), a, b, dtype="half", a_load="load4d"),
                 r"^matmul: a_load must be 'auto' or one of", id="unknown-a_load"),
    pytest.param(lambda a, b: matmul(Core("a2"), a, b.T, dtype="half"),
                 r"^matmul: op\(A\) is 16 x 32 but op\(B\) is 16 x 32", id="shapes-disagree"),
    pytest.param(lambda a, b: matmul(Core("a2"), np.ones((100, 32)), b, dtype="half", tiles=(48, 64, 64)),
                 r"^matmul: tiles mt must be a multiple of 64", id="tile-mt-48"),
])
def test_bad_arguments(call, match: str) -> None:
    a, b = _inputs("half", 16, 32, 16, 2)
    with pytest.raises(ParamRangeError, match=match):
        call(a, b)


@pytest.mark.parametrize("chip", ["a2", "ascend950"])
@pytest.mark.parametrize(("m", "k", "n"), [(1, 64, 1), (1, 7, 33), (17, 3, 1)])
def test_degenerate_shapes_auto(chip: str, m: int, k: int, n: int) -> None:
    """m = 1 must not switch Mmad to GEMV (the flow runs Mmad on the 16-row padded tile)."""
    for dt in ("int8_t", "half", "float"):
        a, b = _inputs(dt, m, k, n, 5)
        c, _ = matmul(Core(chip, strict=True), a, b, dtype=dt)
        _check(dt, a, b, c)


@pytest.mark.parametrize(("la", "bt", "lb"), [("load3d", False, "transpose"), ("load2d", False, "transpose"),
                                              ("load3d", True, "load2d"), ("load2d", True, "load2d")])
@pytest.mark.parametrize(("m", "k", "n"), [(5, 7, 9), (20, 41, 33)])
def test_int4_odd_sizes(la: str, bt: bool, lb: str, m: int, k: int, n: int) -> None:
    """Odd k / n: GM rows are padded to whole bytes and Mmad runs with an even k (Mmad.md 表7, s4)."""
    _run("a2", "int4b_t", False, bt, la, lb, m, k, n, seed=m * n)


def test_dtype_inferred_and_auto_picks_doc_recommendation() -> None:
    a, b = _inputs("half", 20, 40, 24, 3)
    c, stats = matmul(Core("a2"), a.astype(np.float16), b.astype(np.float16))
    _check("half", a, b, c)
    assert stats["loads"] == ("load3d", "load3d")  # 表5: Load3D 推荐使用
    c, stats = matmul(Core("ascend950"), a.astype(np.float16), b.astype(np.float16))
    assert stats["loads"] == ("load2dv2", "load2dv2")  # 表5 id8: LoadData2DV2 on 950


def test_doc_example_call_counts() -> None:
    """LoadDataWithTranspose.md 调用示例 (int8, m=40, k=70, n=50): A loops ceil(m/32) = 2 calls, B loops
    ceil(k/32) = 3 calls; half: A ceil(m/16) = 3, B ceil(k/16) = 5."""
    for dt, want in (("int8_t", 2 + 3), ("half", 3 + 5)):
        stats = _run("a2", dt, True, False, "transpose", "transpose", 40, 70, 50, seed=7)
        assert stats["instructions"]["LoadDataWithTranspose"] == want
        assert stats["instructions"]["Mmad"] == 1 and stats["instructions"]["Fixpipe"] == 1


# -- sparse (A2/A3) ----------------------------------------------------------------------------------


def _sparse_b(k: int, n: int, rng: np.random.Generator) -> np.ndarray:
    """int8 K x N with at most 2 nonzeros in every group of 4 rows (some groups with 0 or 1)."""
    b = rng.integers(-128, 128, (k, n)).astype(np.int8)
    for g in range(0, k, 4):
        for j in range(n):
            keep = rng.choice(4, rng.integers(0, 3), replace=False)
            for r in range(4):
                if g + r < k and r not in keep:
                    b[g + r, j] = 0
    return b


@pytest.mark.parametrize("chip", ["a2", "a3"])
@pytest.mark.parametrize("a_load", ["load3d", "load2d"])
@pytest.mark.parametrize(("m", "k", "n"), [(20, 40, 24), (40, 70, 50), (64, 128, 64)])
def test_sparse_matmul(chip: str, a_load: str, m: int, k: int, n: int) -> None:
    rng = np.random.default_rng(m * k + n)
    a = rng.integers(-128, 128, (m, k)).astype(np.int8)
    b = _sparse_b(k, n, rng)
    c, stats = sparse_matmul(Core(chip, strict=True), a, b, a_load=a_load)
    np.testing.assert_array_equal(c, a.astype(np.int64) @ b.astype(np.int64))
    assert stats["instructions"]["MmadWithSparse"] == 1 and "LoadDataWithSparse" in stats["instructions"]


def test_sparse_matmul_errors() -> None:
    a = np.ones((16, 8), dtype=np.int8)
    with pytest.raises(UnsupportedError, match=r"^sparse_matmul: API MmadWithSparse is not supported"):
        sparse_matmul(Core("ascend950"), a, np.zeros((8, 16), dtype=np.int8))
    with pytest.raises(ParamRangeError, match=r"^densify_2to4: b must have at most 2 nonzeros"):
        sparse_matmul(Core("a2"), a, np.ones((8, 16), dtype=np.int8))


# -- MX (950) ------------------------------------------------------------------------------------------

_MX_NP = {"e4m3": ml_dtypes.float8_e4m3fn, "e5m2": ml_dtypes.float8_e5m2, "e2m1": ml_dtypes.float4_e2m1fn}


@pytest.mark.parametrize("fmt", list(_MX_NP))
@pytest.mark.parametrize("b_trans", [False, True])
@pytest.mark.parametrize(("m", "k", "n"), [(20, 64, 24), (40, 128, 50)])
def test_mx_matmul(fmt: str, b_trans: bool, m: int, k: int, n: int) -> None:
    """C = (2^(SA-127) A)(2^(SB-127) B), one e8m0 scale per 32 K elements (MmadMx.md,
    docs/number_formats.md §9)."""
    rng = np.random.default_rng(k + n)
    a = rng.standard_normal((m, k)).astype(_MX_NP[fmt]).astype(np.float64)
    b = rng.standard_normal((k, n)).astype(_MX_NP[fmt]).astype(np.float64)
    sa = rng.integers(118, 136, (m, k // 32)).astype(np.uint8)
    sb = rng.integers(118, 136, (k // 32, n)).astype(np.uint8)
    c, _ = mx_matmul(Core("ascend950", strict=True), a, sa, b.T if b_trans else b, sb, fmt, b_trans=b_trans)
    sa_f = np.exp2(np.repeat(sa.astype(np.float64), 32, axis=1) - 127)
    sb_f = np.exp2(np.repeat(sb.astype(np.float64), 32, axis=0) - 127)
    ref = (a * sa_f) @ (b * sb_f)
    bound = 1e-6 * k * (np.abs(a * sa_f) @ np.abs(b * sb_f))
    assert (np.abs(c - ref) <= bound).all()


def test_mx_matmul_errors() -> None:
    a, s = np.zeros((16, 64)), np.full((16, 2), 127, dtype=np.uint8)
    with pytest.raises(UnsupportedError, match=r"^mx_matmul: API MmadMx is not supported"):
        mx_matmul(Core("a2"), a, s, a.T, s.T)
    with pytest.raises(ParamRangeError, match=r"^mx_matmul: k must be a multiple of 64"):
        mx_matmul(Core("ascend950"), np.zeros((16, 32)), s[:, :1], np.zeros((32, 16)), s[:, :1].T)
