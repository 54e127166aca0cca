"""Every examples/*.toml runs through the real command line, and what it saves is checked against numpy/torch.

The scenarios run once per module, all in parallel (`python -m ascsim.cli run FILE --out DIR -q`).
The references below are built from the scenario inputs only — the .npy files of examples/data or the
documented `init = "arange"` values — with numpy / torch straight from the doc definitions, and the
fractal layouts are unpacked with plain reshapes written here (not ascsim.layouts):

* Zz (关键分形格式详解.md): fractals row-major, (R1, C1, 16, C0) -> (R1*16, C1*C0);
* Nz with column stride S: fractals column-major, (C1, S, 16, C0) -> rows of the first R1 fractal rows;
* Zn of B (K x N): (K1, N1, 16 n, K0 k) -> (K, N).
"""

from __future__ import annotations

import re
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np
import pytest
import torch
import torch.nn.functional as F
from support.paths import EXAMPLES

from ascsim.scenario import tomllib  # stdlib on 3.11+, tomli on 3.10

DATA = EXAMPLES / "data"
FILES = sorted(EXAMPLES.glob("*.toml"))


@pytest.fixture(scope="module")
def runs(tmp_path_factory) -> dict[str, tuple[subprocess.CompletedProcess, Path]]:
    """Run every example once (in parallel) with the ascsim CLI; name -> (process, output directory)."""
    root = tmp_path_factory.mktemp("examples")

    def one(path: Path) -> tuple[str, tuple[subprocess.CompletedProcess, Path]]:
        out = root / path.stem
        proc = subprocess.run([sys.executable, "-m", "ascsim.cli", "run", str(path), "--out", str(out), "-q"],
                              capture_output=True, text=True, timeout=120)
        return path.stem, (proc, out)

    with ThreadPoolExecutor(max_workers=4) as pool:
        return dict(pool.map(one, FILES))


def saved(runs, stem: str) -> np.ndarray:
    """The one tensor the example's [save] table names."""
    proc, out = runs[stem]
    assert proc.returncode == 0, proc.stderr
    (target,) = tomllib.loads((EXAMPLES / f"{stem}.toml").read_text(encoding="utf-8"))["save"].values()
    return np.load(out / target)


def data(name: str) -> np.ndarray:
    return np.load(DATA / f"{name}.npy")


# -- fractal layouts, written out (关键分形格式详解.md) --------------------------------------------------


def zz_to_nd(flat: np.ndarray, rows: int, cols: int, c0: int) -> np.ndarray:
    r1, c1 = -(-rows // 16), -(-cols // c0)
    return flat[: r1 * c1 * 16 * c0].reshape(r1, c1, 16, c0).transpose(0, 2, 1, 3).reshape(r1 * 16, c1 * c0)[
        :rows, :cols]


def nz_to_nd(flat: np.ndarray, rows: int, cols: int, c0: int, stride: int | None = None) -> np.ndarray:
    r1, c1 = -(-rows // 16), -(-cols // c0)
    s = stride or r1
    blocks = flat[: c1 * s * 16 * c0].reshape(c1, s, 16, c0)[:, :r1]
    return blocks.transpose(1, 2, 0, 3).reshape(r1 * 16, c1 * c0)[:rows, :cols]


def zn_to_nd(flat: np.ndarray, k: int, n: int, k0: int) -> np.ndarray:
    k1, n1 = -(-k // k0), -(-n // 16)
    return flat[: k1 * n1 * 16 * k0].reshape(k1, n1, 16, k0).transpose(0, 3, 1, 2).reshape(k1 * k0, n1 * 16)[
        :k, :n]


def int8_arange(n: int) -> np.ndarray:
    """scenario init "arange" for int8: the index wrapped into [-128, 127] (docs/scenarios.md)."""
    return (np.arange(n) + 128) % 256 - 128


def img2col(x: np.ndarray, kh: int, kw: int, pad: int, dilation: int, pad_value: float) -> np.ndarray:
    """W (Ho*Wo x C*Kh*Kw), columns (c1, kh, kw, c0), C0 = 16 (LoadData_3D.md 数据格式说明); torch unfold."""
    c = x.shape[0]
    xp = F.pad(torch.from_numpy(x.astype(np.float64))[None], (pad,) * 4, value=pad_value)
    u = F.unfold(xp, (kh, kw), dilation=dilation)[0]  # (C*Kh*Kw, L), rows ordered (c, kh, kw)
    u = u.reshape(c // 16, 16, kh, kw, -1).permute(4, 0, 2, 3, 1)  # (m, c1, kh, kw, c0)
    return u.reshape(u.shape[0], -1).numpy()


# -- every example runs -------------------------------------------------------------------------------------


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_example_runs(runs, path: Path) -> None:
    proc, out = runs[path.stem]
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == ""  # no warnings: every example is clean
    for target in tomllib.loads(path.read_text(encoding="utf-8")).get("save", {}).values():
        assert (out / target).is_file()


def test_every_example_is_described_and_commented() -> None:
    for path in FILES:
        text = path.read_text(encoding="utf-8")
        assert tomllib.loads(text).get("description"), path.name
        assert text.startswith("#"), f"{path.name}: starts with a comment saying what it teaches"


def test_data_files_match_make_data() -> None:
    """The shipped .npy inputs are exactly what examples/make_data.py generates (reproducible)."""
    sys.path.insert(0, str(EXAMPLES))
    try:
        import make_data
    finally:
        sys.path.pop(0)
    made = make_data.make_all()
    assert sorted(made) == sorted(p.stem for p in DATA.glob("*.npy"))
    for name, arr in made.items():
        on_disk = data(name)
        assert on_disk.dtype == arr.dtype and np.array_equal(on_disk, arr), name


# -- the flows: results equal an independent reference -----------------------------------------------------


def test_conv2d_equals_torch(runs) -> None:
    x, w = data("conv_x").astype(np.float64), data("conv_w").astype(np.float64)
    ref = F.conv2d(torch.from_numpy(x)[None], torch.from_numpy(w), padding=1)[0].numpy()  # (Cout, Ho, Wo)
    y = saved(runs, "conv2d").reshape(6 * 6, 16)  # GM row-major: row m = ho*Wo + wo, column = output channel
    np.testing.assert_array_equal(y.T.reshape(16, 6, 6), ref.astype(np.float32))  # small integers: exact


def test_conv2d_weights_file_is_torch_weight_in_img2col_order() -> None:
    """conv_b.npy (B^T as a 16 x 1 x 144 feature map) holds w[n, c, kh, kw] at column (kh*3 + kw)*16 + c."""
    w, b = data("conv_w"), data("conv_b").reshape(16, 144)
    n, c, kh, kw = 5, 11, 2, 1
    assert b[n, (kh * 3 + kw) * 16 + c] == w[n, c, kh, kw]


def test_matmul_equals_numpy(runs) -> None:
    a, b = data("mm_a").astype(np.float64), data("mm_b").astype(np.float64)
    c = saved(runs, "matmul").reshape(32, 32)
    assert c.dtype == np.float16  # Fixpipe F322F16
    np.testing.assert_array_equal(c, (a @ b).astype(np.float16))


def test_sparse_matmul_equals_dense_numpy(runs) -> None:
    a, b = data("sp_a").astype(np.int64), data("sp_b").astype(np.int64)
    groups = (b.reshape(16, 4, 32) != 0).sum(axis=1)
    assert groups.max() <= 2 and (b == 0).mean() > 0.5  # really 2:4 sparse
    np.testing.assert_array_equal(saved(runs, "sparse_matmul").reshape(32, 32), a @ b)


def _zz16x2(s: np.ndarray) -> np.ndarray:
    """scale matrix (R, C) -> Zz with 16 x 2 fractals (辅助矩阵分形格式详解.md), written independently."""
    r, c = s.shape
    out = np.zeros(r * c)
    for i in range(r):
        for j in range(c):
            out[((i // 16) * (c // 2) + j // 2) * 32 + (i % 16) * 2 + j % 2] = s[i, j]
    return out


def test_mx_matmul_equals_numpy(runs) -> None:
    """docs/number_formats.md §9: C = sum_k A[m,k] 2^(SA[m,k//32]-127) * B[k,n] 2^(SB[k//32,n]-127)."""
    a, b = data("mx_a"), data("mx_b")
    sa, sb = data("mx_sa").astype(np.float64), data("mx_sb").astype(np.float64)
    ref = (a * np.exp2(np.repeat(sa, 32, axis=1) - 127)) @ (b * np.exp2(np.repeat(sb, 32, axis=0) - 127))
    np.testing.assert_array_equal(saved(runs, "mx_matmul").reshape(32, 32), ref.astype(np.float32))
    # the laid-out scale files are the logical scales in the documented layout
    np.testing.assert_array_equal(data("mx_sa_l1"), np.exp2(_zz16x2(sa) - 127))
    np.testing.assert_array_equal(data("mx_sb_l1"), np.exp2(_zz16x2(sb.T.copy()) - 127))


# -- the single-instruction examples: the destination is the documented layout of the documented window ------


def test_load3d_v2_basic(runs) -> None:
    x = np.arange(32 * 16).reshape(32, 4, 4)
    got = zz_to_nd(saved(runs, "load3d_v2_basic"), 16, 128, 16)  # A2: L0A is Zz
    np.testing.assert_array_equal(got, img2col(x, 2, 2, 1, 2, 0.0))


def test_load3d_v1_seed(runs) -> None:
    """repeatMode 0 with jumpStride 1: 8 fractals, one per kernel point (c1, kh, kw), = Zz of the 16-row W."""
    x = np.arange(32 * 16).reshape(32, 4, 4)
    got = zz_to_nd(saved(runs, "load3d_v1_seed"), 16, 128, 16)
    np.testing.assert_array_equal(got, img2col(x, 2, 2, 1, 2, 0.0))


def test_load3d_bitmode(runs) -> None:
    """950: L0A is Nz; pad value -1 from SetLoadDataPaddingValue."""
    x = np.arange(32 * 16).reshape(32, 4, 4)
    got = nz_to_nd(saved(runs, "load3d_bitmode"), 16, 128, 16)
    np.testing.assert_array_equal(got, img2col(x, 2, 2, 1, 2, -1.0))


def test_load3d_v2pro_repeat(runs) -> None:
    """Two repeats of 16 rows along M (repeatStride 1 = 16 rows): W rows 0-31, pad -1 from the register."""
    x = np.arange(16 * 36).reshape(16, 6, 6)
    got = zz_to_nd(saved(runs, "load3d_v2pro_repeat"), 32, 144, 16)
    np.testing.assert_array_equal(got, img2col(x, 3, 3, 1, 1, -1.0)[:32])


def test_load2d_nz_to_zz(runs) -> None:
    a = (np.arange(40 * 70) % 2048).reshape(40, 70)  # "arange" for half wraps at 2048 (exact in half)
    np.testing.assert_array_equal(zz_to_nd(saved(runs, "load2d_nz_to_zz"), 40, 70, 16), a)


def test_load2d_v2_transpose(runs) -> None:
    at = int8_arange(96 * 64).reshape(96, 64)
    got = nz_to_nd(saved(runs, "load2d_v2_transpose"), 64, 96, 32, stride=4)
    np.testing.assert_array_equal(got, at.T)


def test_transpose_int8_a2(runs) -> None:
    """功能说明: each 32 x 32 square (2 stacked 16 x 32 fractals) transposed; dstGap 1 -> {0,1}, {2,3}, {4,5}.
    """
    src = int8_arange(3072).reshape(3, 32, 32)
    np.testing.assert_array_equal(saved(runs, "transpose_int8_a2").reshape(3, 32, 32), src.transpose(0, 2, 1))


def test_transpose_v2_950(runs) -> None:
    b = int8_arange(64 * 64).reshape(64, 64)
    np.testing.assert_array_equal(zn_to_nd(saved(runs, "transpose_v2_950"), 64, 64, 32), b)


def test_load3d_boundary_a2(runs) -> None:
    """SetLoadDataBoundary(1024): channel group 1 (L1 bytes 1024..1535 from the map's start at 512) wraps to
    L1 byte 0, where ring_head holds -1 (SetLoadDataBoundary.md: reading restarts at the L1 start)."""
    x = np.concatenate([np.arange(256).reshape(16, 4, 4), np.full((16, 4, 4), -1)])
    got = zz_to_nd(saved(runs, "load3d_boundary_a2"), 16, 128, 16)
    np.testing.assert_array_equal(got, img2col(x, 2, 2, 1, 2, 0.0))


def test_doc_diagrams_name_existing_examples_and_steps() -> None:
    """Every `ascsim draw examples/X.toml --step N -o docs/img/Y.svg` in docs/ names a real example, a step
    it has and a committed picture, and every committed picture is regenerated by such a command."""
    docs = EXAMPLES.parent / "docs"
    pattern = re.compile(r"ascsim draw examples/([\w-]+)\.toml --step (\d+) -o docs/img/([\w-]+\.svg)")
    drawn = set()
    for page in docs.glob("*.md"):
        for stem, step, img in pattern.findall(page.read_text(encoding="utf-8")):
            steps = tomllib.loads((EXAMPLES / f"{stem}.toml").read_text(encoding="utf-8"))["steps"]
            assert int(step) < len(steps), (page.name, stem, step)
            assert (docs / "img" / img).is_file(), (page.name, img)
            drawn.add(img)
    sys.path.insert(0, str(docs))
    from build import PYTHON_IMAGES  # docs/build.py makes docs/python.md's pictures from Python

    assert drawn | set(PYTHON_IMAGES) == {p.name for p in (docs / "img").glob("*.svg")}


def test_load_data_with_stride_950(runs) -> None:
    """L0B: Nz(W^T) with the dstStride 4 from SetLoadDataRepeatWithStride: column j (16 m-values) starts at
    fractal 4j; its first ceil(32/16) = 2 fractal rows hold the 32 k-values; rows m >= Ho*Wo = 30 continue
    the address formula (docs/divergences.md L8) -- which img2col of an extra zero-padded row gives."""
    x = (np.arange(32 * 30) % 2048).reshape(32, 5, 6)  # "arange" for half wraps at 2048
    # rows 30..47 = output rows ho 5..7 of the same unfolding over a map with 3 more zero rows (pad 0)
    w48 = img2col(np.pad(x, ((0, 0), (0, 3), (0, 0))), 3, 3, 1, 1, 0.0)[:48, :32]
    got = nz_to_nd(saved(runs, "load_data_with_stride_950"), 32, 48, 16, stride=4)  # rows k, cols m
    np.testing.assert_array_equal(got, w48.T)


def test_load2d_bitmode_950(runs) -> None:
    """Load2DBitMode: fractal rows 2..3 x fractal columns 1..2 of the 64 x 48 Nz source, Nz in L0A with
    column stride 2 (LoadData_2D_V2.md start formula (kStart*srcStride + mStart)*512 B)."""
    x = (np.arange(64 * 48) % 2048).reshape(64, 48)
    got = nz_to_nd(saved(runs, "load2d_bitmode_950"), 32, 32, 16, stride=2)
    np.testing.assert_array_equal(got, x[32:64, 16:48])


def test_quant_matmul_equals_numpy(runs) -> None:
    """int8 A @ B + int32 bias, DEQF16 with scale 2^-9: int32 -> float32, times the scale, cast to half
    (随路量化.md), bit for bit."""
    a, bt, bias = data("q_a").astype(np.int64), data("q_bt").astype(np.int64), data("q_bias").astype(np.int64)
    ref = ((a @ bt.T + bias).astype(np.float32) * np.float32(2.0**-9)).astype(np.float16)
    got = saved(runs, "quant_matmul").reshape(32, 32)
    np.testing.assert_array_equal(got.view(np.uint16), ref.view(np.uint16))


# -- the examples are listed, and README names only files that exist ----------------------------------------


def test_docs_index_lists_every_example() -> None:
    """Every example file (scenarios, C++ kernels and programs, make_data.py) appears in docs/index.md."""
    index = (EXAMPLES.parent / "docs" / "index.md").read_text(encoding="utf-8")
    files = [p for p in EXAMPLES.iterdir() if p.is_file()]
    files += sorted((EXAMPLES / "catlass_style").glob("*.cpp"))
    for p in files:
        name = p.relative_to(EXAMPLES).as_posix()
        assert f"`{name}`" in index or f"examples/{name}" in index, f"docs/index.md does not list {name}"


#: README tokens that name files a reader supplies or a command writes (not files of the repository).
README_PLACEHOLDERS = {"prog.cpp", "kernel.cpp", "trace.toml", "out.svg", "c.npy", "l3d.svg"}
_PATHY = re.compile(r"^[\w./-]+\.(?:cpp|asc|cc|toml|json|npy|bin|py|svg|md|html)$")


def test_readme_commands_name_files_that_exist() -> None:
    """Every path-looking token of README's code blocks exists in the repository, or is a placeholder /
    output of README_PLACEHOLDERS (a --gm FILE:DTYPE:SHAPE output counts by its FILE)."""
    root = EXAMPLES.parent
    text = (root / "README.md").read_text(encoding="utf-8")
    blocks = re.findall(r"^```[^\n]*\n(.*?)^```", text, re.S | re.M)
    assert blocks
    missing = []
    for line in "\n".join(blocks).splitlines():
        here = root
        if line.startswith("cd ") and "&&" in line:  # `cd DIR && ...`: the rest is relative to DIR
            where, line = line[3:].split("&&", 1)
            here = root / where.strip()
        for raw in re.split(r"[\s\"'(),=]+", line):
            token = raw.split(":")[0]
            if _PATHY.match(token) and token not in README_PLACEHOLDERS and not (here / token).exists():
                missing.append(token)
    assert missing == []
