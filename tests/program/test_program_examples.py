"""The C++ example kernels (examples/*.cpp) run from source and match numpy / torch.

Each reference is built from the kernel's inputs only, with layouts written from their doc definitions:
NC1HWC0 (数据格式: C split into C1 groups of C0 = 32 B / sizeof(half)), the img2col column order of
LoadData_3D.md (channel group, kh, kw, channel in group), the 4:2 densification and index packing of
辅助矩阵分形格式详解.md (tests/support/doc_fractals.py) and the MX formula of
docs/number_formats.md §9 (tests/support/mx_reference.py).
"""

from __future__ import annotations

import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
import torch
from support.doc_fractals import doc_densify, zn
from support.mx_reference import mx_reference, random_codes
from support.paths import EXAMPLES, SRC

from ascsim.program import Output, load_kernel


def _matmul_inputs(seed: int = 0, m: int = 32, k: int = 128, n: int = 32):
    rng = np.random.default_rng(seed)
    a = rng.integers(-4, 5, (m, k)).astype(np.float16)
    b = rng.integers(-4, 5, (k, n)).astype(np.float16)
    return a, b, a.astype(np.float64) @ b.astype(np.float64)


@pytest.mark.parametrize("kernel", ["matmul_pingpong.cpp", "matmul_tque.cpp"])
def test_matmul_kernels_match_numpy(kernel: str) -> None:
    """Ping-pong (SetFlag/WaitFlag) and TQue (EnQue/DeQue, double-buffered L0) matmuls with
    LoadDataWithTranspose for B: exact in float (small integers), and their sync is clean."""
    a, b, ref = _matmul_inputs()
    run = load_kernel(EXAMPLES / kernel, chip="a2").run(gm={"a": a, "b": b, "c": Output("float", (32, 32))})
    np.testing.assert_array_equal(run.outputs["c"], ref)
    assert run.sync_reports == []
    assert {c.name for c in run.trace} >= {"DataCopy", "LoadData", "LoadDataWithTranspose", "Mmad", "Fixpipe"}


def _conv_inputs(c=32, h=8, w=8, cout=32, kh=3, kw=3, seed=1):
    rng = np.random.default_rng(seed)
    x = rng.integers(-2, 3, (1, c, h, w)).astype(np.float16)
    wt = rng.integers(-2, 3, (cout, c, kh, kw)).astype(np.float16)
    return _conv_layouts(x, wt)


def _conv_layouts(x: np.ndarray, wt: np.ndarray):
    """(x as NC1HWC0, B^T as NC1HWC0 with H = 1, W = K, torch's conv2d as (Ho*Wo, Cout))."""
    _, c, h, w = x.shape
    cout, _, kh, kw = wt.shape
    x_l1 = x[0].reshape(c // 16, 16, h, w).transpose(0, 2, 3, 1)  # NC1HWC0
    k = c * kh * kw
    b = np.zeros((k, cout), dtype=np.float16)  # img2col column order
    for ci in range(c):
        cs = ci // 16 * 16
        for i in range(kh):
            for j in range(kw):
                b[kh * kw * cs + (i * kw + j) * 16 + (ci - cs)] = wt[:, ci, i, j]
    b_l1 = b.T.reshape(cout // 16, 16, k).transpose(0, 2, 1)  # B^T as NC1HWC0, H = 1, W = K
    y = torch.nn.functional.conv2d(
        torch.tensor(x, dtype=torch.float32), torch.tensor(wt, dtype=torch.float32), padding=1
    )
    return x_l1, b_l1, y[0].permute(1, 2, 0).reshape(-1, cout).numpy()


@pytest.mark.parametrize("chip", ["a2", "950"])
def test_conv2d_tiled_matches_torch(chip: str) -> None:
    """Load3D v2 (img2col into L0A, B window into L0B) + Mmad over 3 K tiles x 2 M tiles + Fixpipe per M
    tile, on A2 (Zz L0A, FixpipeParamsV220) and 950 (Nz L0A, FixpipeParamsArch3510 via __NPU_ARCH__)."""
    x_l1, b_l1, ref = _conv_inputs()
    run = load_kernel(EXAMPLES / "conv2d_tiled.cpp", chip=chip).run(
        gm={"x": x_l1, "w": b_l1, "y": Output("float", (64, 32))}
    )
    np.testing.assert_array_equal(run.outputs["y"], ref)
    assert run.sync_reports == []
    assert sum(c.name == "Mmad" for c in run.trace) == 6


def test_sparse_matmul_matches_numpy() -> None:
    rng = np.random.default_rng(3)
    m, k, n = 64, 128, 64
    a = rng.integers(-128, 128, (m, k)).astype(np.int8)
    b = rng.integers(-128, 128, (k, n)).astype(np.int8)
    for g in range(k // 4):  # at most 2 nonzeros per 4 along K
        for j in range(n):
            keep = rng.choice(4, rng.integers(0, 3), replace=False)
            b[4 * g + np.setdiff1d(np.arange(4), keep), j] = 0
    dense, codes = doc_densify(b)
    packed = (zn(codes, 32).reshape(-1, 4) * 4 ** np.arange(4)).sum(axis=1).astype(np.uint8)
    run = load_kernel(EXAMPLES / "sparse_matmul.cpp", chip="a2").run(
        gm={"a": a, "b": zn(dense, 32).astype(np.int8), "idx": packed, "c": Output("int32_t", (m, n))}
    )
    np.testing.assert_array_equal(run.outputs["c"], a.astype(np.int64) @ b.astype(np.int64))
    assert run.sync_reports == []


def test_mx_matmul_matches_formula() -> None:
    """fp8 e4m3 x e5m2 with e8m0 scales per 32 K values; MmadMx rounds the exact sum once to float."""
    rng = np.random.default_rng(4)
    m, n, k = 32, 48, 128
    a = random_codes("fp8_e4m3fn_t", (m, k), rng).astype(np.uint8)
    b = random_codes("fp8_e5m2_t", (k, n), rng).astype(np.uint8)
    sa = rng.integers(120, 134, (m, k // 32)).astype(np.uint8)
    sb = rng.integers(120, 134, (k // 32, n)).astype(np.uint8)
    run = load_kernel(EXAMPLES / "mx_matmul.cpp", chip="950").run(
        gm={"a": a, "b": b.T.copy(), "sa": sa, "sb": sb.T.copy(), "c": Output("float", (m, n))}
    )
    np.testing.assert_array_equal(
        run.outputs["c"], mx_reference("fp8_e4m3fn_t", "fp8_e5m2_t", a, sa, b, sb).astype(np.float32)
    )
    assert run.sync_reports == []


def test_command_line_run_writes_the_output(tmp_path: Path) -> None:
    """`ascsim run kernel.cpp --gm ...` as a user types it: inputs from .npy, the output declared
    FILE:DTYPE:SHAPE, saved after the run; per-call summary on stdout."""
    a, b, ref = _matmul_inputs(seed=2)
    np.save(tmp_path / "a.npy", a)
    np.save(tmp_path / "b.npy", b)
    out = tmp_path / "c.npy"
    r = subprocess.run(
        [
            sys.executable,
            "-m",
            "ascsim",
            "run",
            str(EXAMPLES / "matmul_pingpong.cpp"),
            "--chip",
            "a2",
            "--gm",
            f"a={tmp_path / 'a.npy'}",
            "--gm",
            f"b={tmp_path / 'b.npy'}",
            "--gm",
            f"c={out}:float:32x32",
        ],
        capture_output=True,
        text=True,
        env={"PYTHONPATH": str(SRC), "PATH": ""},
    )
    assert r.returncode == 0, r.stderr
    assert r.stderr == ""
    assert "[0] DataCopy (matmul_pingpong.cpp:78)" in r.stdout
    np.testing.assert_array_equal(np.load(out), ref)


def test_bin_output_and_raw_input(tmp_path: Path) -> None:
    """A raw .bin input (as the official gen_data scripts write them) and a .bin output of raw bytes."""
    a, b, ref = _matmul_inputs(seed=3)
    a.tofile(tmp_path / "a.bin")
    b.tofile(tmp_path / "b.bin")
    from ascsim.program import parse_gm

    gm = dict(
        parse_gm(s)
        for s in (f"a={tmp_path / 'a.bin'}", f"b={tmp_path / 'b.bin'}", f"c={tmp_path / 'c.bin'}:float:32x32")
    )
    run = load_kernel(EXAMPLES / "matmul_tque.cpp").run(gm=gm)
    assert run.save_outputs() == [tmp_path / "c.bin"]
    np.testing.assert_array_equal(np.fromfile(tmp_path / "c.bin", dtype=np.float32).reshape(32, 32), ref)


# -- every C++ example runs by the command its header documents ----------------------------------------------

CPP_EXAMPLES = sorted(EXAMPLES.glob("*.cpp")) + sorted((EXAMPLES / "catlass_style").glob("*.cpp"))


def documented_commands(path: Path) -> list[str]:
    """The `ascsim run ...` commands of a file's header comment (`\\` continues a line), as written."""
    out, cur = [], None
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.startswith("//"):
            break
        text = line[2:].strip()
        if cur is not None:
            cur += " " + text.rstrip("\\").strip()
        elif "ascsim run " in text:
            cur = text.rstrip("\\").strip()
        else:
            continue
        if not text.endswith("\\"):
            out.append(cur)
            cur = None
    return out


def _run_documented(command: str, root: Path) -> tuple[subprocess.CompletedProcess, Path]:
    """Run `command` as a user would from a copy of the repository root (`cd DIR && ...` honoured)."""
    cwd = root
    if command.startswith("cd "):
        where, command = command[3:].split("&&", 1)
        cwd = root / where.strip()
    argv = shlex.split(command)
    assert argv[:2] == ["ascsim", "run"], command
    r = subprocess.run([sys.executable, "-m", "ascsim", *argv[1:]], cwd=cwd, capture_output=True, text=True,
                       env={"PYTHONPATH": str(SRC), "PATH": ""}, timeout=900)
    return r, cwd


@pytest.fixture(scope="module")
def repo_copy(tmp_path_factory) -> Path:
    """examples/ copied into a fresh root: the commands write their outputs there, not into the repository."""
    root = tmp_path_factory.mktemp("repo")
    shutil.copytree(EXAMPLES, root / "examples", ignore=shutil.ignore_patterns("__pycache__"))
    return root


def _random(shape: tuple[int, ...], seed: int) -> np.ndarray:
    """docs/cpp.md's random:half:SHAPE:SEED values: numpy default_rng(SEED) integers in [-4, 4]."""
    return np.random.default_rng(seed).integers(-4, 5, shape).astype(np.float16)


def _data(name: str) -> np.ndarray:
    return np.load(EXAMPLES / "data" / f"{name}.npy")


def _reference(example: str) -> tuple[str, np.ndarray]:
    """(output file, its expected values) of a kernel example, from numpy / torch and the doc layouts."""
    if example in ("matmul_pingpong.cpp", "matmul_tque.cpp"):
        a, b = _random((32, 128), 1), _random((128, 32), 2)
        return "c.npy", a.astype(np.float64) @ b.astype(np.float64)
    if example == "conv2d_tiled.cpp":
        x, wt = _data("ct_x"), _data("ct_w")
        x_l1, b_l1, ref = _conv_layouts(x, wt)  # the doc layouts, written in this file
        np.testing.assert_array_equal(_data("ct_x_l1"), x_l1)
        np.testing.assert_array_equal(_data("ct_w_l1"), b_l1)
        return "y.npy", ref
    if example == "sparse_matmul.cpp":
        a, b = _data("sk_a"), _data("sk_b")
        assert all(np.count_nonzero(b[4 * g : 4 * g + 4, j]) <= 2 for g in range(32) for j in range(64))
        dense, codes = doc_densify(b)
        np.testing.assert_array_equal(_data("sk_b_zn"), zn(dense, 32))
        packed = (zn(codes, 32).reshape(-1, 4) * 4 ** np.arange(4)).sum(axis=1).astype(np.uint8)
        np.testing.assert_array_equal(_data("sk_idx"), packed)
        return "c.npy", a.astype(np.int64) @ b.astype(np.int64)
    if example == "mx_matmul.cpp":
        a, bt, sa, sbt = _data("mx2_a"), _data("mx2_bt"), _data("mx2_sa"), _data("mx2_sbt")
        return "c.npy", mx_reference("fp8_e4m3fn_t", "fp8_e5m2_t", a, sa, bt.T, sbt.T).astype(np.float32)
    raise AssertionError(f"{example}: no reference")


@pytest.mark.parametrize("command", [(p, c) for p in CPP_EXAMPLES for c in documented_commands(p)],
                         ids=lambda pc: f"{pc[0].name}-{pc[1].split('--chip ')[1].split()[0]}")
def test_every_cpp_example_runs_by_its_documented_command(repo_copy: Path, command: tuple[Path, str]) -> None:
    """Exit 0, no warning, and the output equals the reference (the catlass program checks its own output
    against a float reference and prints "Compare success."; its inputs are small integers, so C is exact)."""
    path, cmd = command
    r, cwd = _run_documented(cmd, repo_copy)
    assert r.returncode == 0, r.stderr
    assert "warning" not in r.stderr, r.stderr
    if path.name == "basic_matmul.cpp":
        assert "Compare success." in r.stdout
        a = np.fromfile(cwd / "input" / "a.bin", np.float16).reshape(100, 300)
        b = np.fromfile(cwd / "input" / "b.bin", np.float16).reshape(300, 70)
        c = np.fromfile(cwd / "output" / "c.bin", np.float32).reshape(100, 70)
        np.testing.assert_array_equal(c, a.astype(np.float64) @ b.astype(np.float64))
        return
    out, ref = _reference(path.name)
    np.testing.assert_array_equal(np.load(cwd / out), ref)


def test_every_cpp_example_documents_a_command_listed_in_the_docs() -> None:
    index = (EXAMPLES.parent / "docs" / "index.md").read_text(encoding="utf-8")
    for path in CPP_EXAMPLES:
        commands = documented_commands(path)
        assert commands, f"{path.name}: no `ascsim run` command in its header comment"
        for c in commands:
            assert c in index, f"{path.name}: docs/index.md does not show `{c}`"


def test_catlass_inputs_match_make_data() -> None:
    sys.path.insert(0, str(EXAMPLES))
    try:
        import make_data
    finally:
        sys.path.pop(0)
    for name, arr in make_data.make_catlass().items():
        assert (make_data.CATLASS / f"{name}.bin").read_bytes() == arr.tobytes(), name
