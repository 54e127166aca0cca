"""The C++ example kernels (examples/*.cpp) run from source and match numpy / torch.

Each reference is built from the kernel's inputs only, with layouts written from their doc definitions:
NC1HWC0 (数据格式: C split into C1 groups of C0 = 32 B / sizeof(half)), the img2col column order of
LoadData_3D.md (channel group, kh, kw, channel in group), the 4:2 densification and index packing of
辅助矩阵分形格式详解.md (tests/support/doc_fractals.py) and the MX formula of
docs/number_formats.md §9 (tests/support/mx_reference.py).
"""

from __future__ import annotations

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
