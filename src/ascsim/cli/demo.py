"""`ascsim demo`: a conv2d layer through Load3D + Mmad and matrix multiplies (LoadDataWithTranspose, 2:4
sparse, MX, int8 quantised with bias + DEQF16) on real chip profiles, each checked against a numpy reference
written here."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np


def conv2d_reference(x: np.ndarray, w: np.ndarray, stride: int, pad: int, dilation: int) -> np.ndarray:
    """Plain numpy conv2d (N=1, NCHW x OIHW), accumulated in float64 / int64."""
    _, c, h, wd = x.shape
    o, _, kh, kw = w.shape
    acc = np.float64 if x.dtype.kind == "f" or x.dtype.name == "bfloat16" else np.int64
    xp = np.pad(x[0].astype(acc), ((0, 0), (pad, pad), (pad, pad)))
    ho = (h + 2 * pad - (dilation * (kh - 1) + 1)) // stride + 1
    wo = (wd + 2 * pad - (dilation * (kw - 1) + 1)) // stride + 1
    y = np.zeros((o, ho, wo), dtype=acc)
    wt = w.astype(acc)
    for i in range(kh):
        for j in range(kw):
            patch = xp[:, i * dilation : i * dilation + stride * ho : stride,
                       j * dilation : j * dilation + stride * wo : stride]
            y += np.einsum("chw,oc->ohw", patch, wt[:, :, i, j])
    return y[None]


@dataclass
class DemoRow:
    name: str
    chip: str
    dtype: str
    instructions: str
    bytes_moved: int
    max_error: float
    ok: bool
    seconds: float


def _conv_case(chip: str, dtype: str, rng: np.random.Generator) -> DemoRow:
    from ..core import Core
    from ..flows import conv2d
    from ..machine.dtypes import get_dtype

    c, h, w, o, k = 64, 28, 28, 64, 3
    dt = get_dtype(dtype)
    if dt.kind == "int":
        x = rng.integers(-8, 8, (1, c, h, w)).astype(np.int8)
        wt = rng.integers(-8, 8, (o, c, k, k)).astype(np.int8)
    else:
        x = rng.standard_normal((1, c, h, w)).astype(dt.value_dtype)
        wt = (rng.standard_normal((o, c, k, k)) / 8).astype(dt.value_dtype)
    t0 = time.perf_counter()
    y, stats = conv2d(Core(chip), x, wt, stride=1, pad=1, dilation=1, dtype=dt.name)
    secs = time.perf_counter() - t0
    ref = conv2d_reference(x, wt, 1, 1, 1)
    err = float(np.max(np.abs(np.asarray(y, dtype=np.float64) - ref)))
    tol = 0.0 if dt.kind == "int" else 1e-3 * float(np.max(np.abs(ref)))
    return _row(f"conv2d 1x{c}x{h}x{w} -> {o}, {k}x{k} pad 1", chip, dt.name, stats, err, tol, secs)


def _row(name: str, chip: str, dtype: str, stats: dict, err: float, tol: float, secs: float) -> DemoRow:
    """One table row from a flow's stats; the case passes when the max error is within `tol`."""
    instr = ", ".join(f"{v} {k}" for k, v in stats["instructions"].items())
    return DemoRow(name, chip, dtype, instr, int(stats["bytes_moved"]), err, err <= tol, secs)


def _matmul_transpose_case(chip: str, rng: np.random.Generator) -> DemoRow:
    """int8 40x70x50 of LoadDataWithTranspose.md 调用示例: A stored as Aᵀ, B as [k, n], so both L1 -> L0
    moves transpose (V1 on A2; on 950 LDWT exists only into L0B, in its V2 form, and A uses LoadData2Dv2)."""
    from ..core import Core
    from ..flows.matmul import matmul

    m, k, n = 40, 70, 50
    a = rng.integers(-128, 128, (m, k)).astype(np.int8)
    b = rng.integers(-128, 128, (k, n)).astype(np.int8)
    a_load = "transpose" if chip == "a2" else "load2dv2"
    t0 = time.perf_counter()
    c, stats = matmul(Core(chip), np.ascontiguousarray(a.T), b, a_trans=True, a_load=a_load,
                      b_load="transpose", dtype="int8_t")
    secs = time.perf_counter() - t0
    err = float(np.max(np.abs(c.astype(np.int64) - a.astype(np.int64) @ b.astype(np.int64))))
    label = "LDWT A^T+B" if chip == "a2" else "V2 A^T, LDWT V2 B"
    return _row(f"matmul {m}x{k}x{n}, {label}", chip, "int8_t", stats, err, 0.0, secs)


def _sparse_case(rng: np.random.Generator) -> DemoRow:
    """2:4 sparse int8 B (2 of every 4 K rows kept per column) through LoadDataWithSparse + MmadWithSparse."""
    from ..core import Core
    from ..flows.matmul import sparse_matmul

    m, k, n = 64, 128, 64
    a = rng.integers(-128, 128, (m, k)).astype(np.int8)
    b = rng.integers(-128, 128, (k, n)).astype(np.int8)
    keep = np.argsort(rng.random((k // 4, 4, n)), axis=1) < 2  # two random survivors per group of 4
    b = np.where(keep.reshape(k, n), b, 0).astype(np.int8)
    t0 = time.perf_counter()
    c, stats = sparse_matmul(Core("a2"), a, b)
    secs = time.perf_counter() - t0
    err = float(np.max(np.abs(c.astype(np.int64) - a.astype(np.int64) @ b.astype(np.int64))))
    return _row(f"sparse 2:4 matmul {m}x{k}x{n}", "a2", "int8_t", stats, err, 0.0, secs)


def _mx_case(rng: np.random.Generator) -> DemoRow:
    """MXFP8 (e4m3 elements, one e8m0 scale per 32 K values) through Load2DMX + MmadMx on 950."""
    import ml_dtypes

    from ..core import Core
    from ..flows.matmul import mx_matmul

    m, k, n = 64, 128, 64
    a = rng.standard_normal((m, k)).astype(ml_dtypes.float8_e4m3fn).astype(np.float64)
    b = rng.standard_normal((k, n)).astype(ml_dtypes.float8_e4m3fn).astype(np.float64)
    sa = rng.integers(120, 134, (m, k // 32)).astype(np.uint8)
    sb = rng.integers(120, 134, (k // 32, n)).astype(np.uint8)
    t0 = time.perf_counter()
    c, stats = mx_matmul(Core("ascend950"), a, sa, b.T, sb, "e4m3", b_trans=True)
    secs = time.perf_counter() - t0
    # reference: value * 2^(E - 127) per 32-element K block (OCP MX), summed in float64
    ref = (a * np.exp2(np.repeat(sa, 32, axis=1) - 127.0)) @ (b * np.exp2(np.repeat(sb, 32, axis=0) - 127.0))
    err = float(np.max(np.abs(c - ref)))
    return _row(f"MXFP8 matmul {m}x{k}x{n}, Load2DMX", "ascend950", "mx_e4m3", stats, err,
                1e-5 * float(np.max(np.abs(ref))), secs)


def _quant_case(chip: str, rng: np.random.Generator) -> DemoRow:
    """int8 x int8 + int32 bias in BiasTable, Fixpipe DEQF16 to half (flows_quant.quant_matmul); the numpy
    reference follows 随路量化.md's DEQF16 steps, so the comparison is bit for bit."""
    from ..core import Core
    from ..flows.quant import quant_matmul, quant_matmul_reference

    m, k, n = 64, 128, 64
    a = rng.integers(-128, 128, (m, k)).astype(np.int8)
    b = rng.integers(-128, 128, (k, n)).astype(np.int8)
    bias = rng.integers(-100_000, 100_000, n).astype(np.int32)
    scale = 1 / 4096
    t0 = time.perf_counter()
    c, stats = quant_matmul(Core(chip), a, b, bias, scale)
    secs = time.perf_counter() - t0
    ref = quant_matmul_reference(a, b, bias, scale)
    bits_differ = int(np.count_nonzero(c.view(np.uint16) != ref.view(np.uint16)))
    err = float(np.max(np.abs(c.astype(np.float64) - ref.astype(np.float64)))) if bits_differ else 0.0
    return _row(f"int8 matmul {m}x{k}x{n} + bias, DEQF16", chip, "int8_t", stats, err, 0.0, secs)


#: A kernel-only Ascend C file for the compiled path: C (64 x 64, float) = A (64 x 64, half) @ B, one 32 x 32
#: output tile per block (4 blocks, GetBlockIdx), GM -> L1 (Nd2Nz) -> L0A / L0B (Load3D v2, the 2-D use of
#: LoadData_3D.md) -> Mmad -> Fixpipe to GM, with the sync pages' flags between the pipes.
PROGRAM = r"""
#include "kernel_operator.h"
constexpr uint32_t M = 64, N = 64, K = 64, T = 32;

extern "C" __global__ __aicore__ void demo_matmul(GM_ADDR a, GM_ADDR b, GM_ADDR c)
{
    AscendC::GlobalTensor<half> aGM, bGM;
    AscendC::GlobalTensor<float> cGM;
    aGM.SetGlobalBuffer((__gm__ half*)a, M * K);
    bGM.SetGlobalBuffer((__gm__ half*)b, K * N);
    cGM.SetGlobalBuffer((__gm__ float*)c, M * N);
    const uint32_t m0 = AscendC::GetBlockIdx() / (N / T) * T, n0 = AscendC::GetBlockIdx() % (N / T) * T;
    AscendC::LocalTensor<half> a1(AscendC::TPosition::A1, 0, T * K);
    AscendC::LocalTensor<half> b1(AscendC::TPosition::B1, T * K * sizeof(half), K * T);
    AscendC::LocalTensor<half> a2(AscendC::TPosition::A2, 0, T * K);
    AscendC::LocalTensor<half> b2(AscendC::TPosition::B2, 0, K * T);
    AscendC::LocalTensor<float> c1(AscendC::TPosition::CO1, 0, T * T);
    AscendC::DataCopy(a1, aGM[m0 * K], AscendC::Nd2NzParams{1, T, K, 0, K, T, 1, 0});
    AscendC::DataCopy(b1, bGM[n0], AscendC::Nd2NzParams{1, K, T, 0, N, K, 1, 0});
    AscendC::SetFlag<AscendC::HardEvent::MTE2_MTE1>(EVENT_ID0);
    AscendC::WaitFlag<AscendC::HardEvent::MTE2_MTE1>(EVENT_ID0);
    uint8_t noPad[4] = {0, 0, 0, 0};
    AscendC::LoadData(a2, a1, AscendC::LoadData3DParamsV2<half>(noPad, 1, T, K, K, T, 0, 0, 1, 1, 1, 1, 1, 1,
                                                                false, false, 0));
    AscendC::LoadData(b2, b1, AscendC::LoadData3DParamsV2<half>(noPad, 1, K, T, T, K, 0, 0, 1, 1, 1, 1, 1, 1,
                                                                false, false, 0));
    AscendC::SetFlag<AscendC::HardEvent::MTE1_M>(EVENT_ID0);
    AscendC::WaitFlag<AscendC::HardEvent::MTE1_M>(EVENT_ID0);
    AscendC::MmadParams mp;
    mp.m = T;
    mp.n = T;
    mp.k = K;
    AscendC::Mmad(c1, a2, b2, mp);
    AscendC::SetFlag<AscendC::HardEvent::M_FIX>(EVENT_ID0);
    AscendC::WaitFlag<AscendC::HardEvent::M_FIX>(EVENT_ID0);
#if __NPU_ARCH__ == 3510
    AscendC::FixpipeParamsArch3510<AscendC::CO2Layout::ROW_MAJOR> fp;
#else
    AscendC::FixpipeParamsV220 fp;
    fp.ndNum = 1;
#endif
    fp.nSize = T;
    fp.mSize = T;
    fp.srcStride = T;
    fp.dstStride = N;
    AscendC::Fixpipe<float, float, AscendC::CFG_ROW_MAJOR>(cGM[m0 * N + n0], c1, fp);
}
"""


def _program_case(chip: str, rng: np.random.Generator, print_fn: Callable[[str], None]) -> DemoRow:
    """The compiled path: PROGRAM built with clang against ascsim's headers and run on 4 cube cores."""
    import tempfile
    from pathlib import Path

    from ..program import Output, load_kernel
    from ..program.build import ascsim_cache_dir

    if not (ascsim_cache_dir() / "runtime").exists():
        print_fn("(building ascsim's C++ runtime: the first build on a machine also builds the compiler's "
                 "libc++, 1-2 minutes, once)")
    a = rng.standard_normal((64, 64)).astype(np.float16)
    b = rng.standard_normal((64, 64)).astype(np.float16)
    t0 = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="ascsim-demo-") as d:
        src = Path(d) / "demo_matmul.cpp"
        src.write_text(PROGRAM)
        run = load_kernel(src, chip).run(gm={"a": a, "b": b, "c": Output("float", (64, 64))}, blocks=4,
                                         capture=True)
    secs = time.perf_counter() - t0
    c = run.outputs["c"].astype(np.float64)
    err = float(np.max(np.abs(c - a.astype(np.float64) @ b.astype(np.float64))))
    counts: dict[str, int] = {}
    for t in run.trace:
        counts[t.name] = counts.get(t.name, 0) + 1
    moved = sum(t.report.bytes_written for t in run.trace if t.report)
    stats = {"instructions": counts, "bytes_moved": moved}
    ok_sync = not run.sync_reports and not run.race_reports
    return _row("C++ kernel, 4 cores: matmul 64x64x64", chip, "half", stats, err if ok_sync else np.inf,
                1e-4, secs)


def cases() -> list[Callable[[np.random.Generator], DemoRow]]:
    out: list[Callable[[np.random.Generator], DemoRow]] = []
    for chip in ("a2", "ascend950"):
        for dtype in ("half", "int8_t"):
            out.append(lambda rng, chip=chip, dtype=dtype: _conv_case(chip, dtype, rng))
    for chip in ("a2", "ascend950"):
        out.append(lambda rng, chip=chip: _matmul_transpose_case(chip, rng))
    out.append(_sparse_case)
    out.append(_mx_case)
    for chip in ("a2", "ascend950"):
        out.append(lambda rng, chip=chip: _quant_case(chip, rng))
    for chip in ("a2", "ascend950"):
        out.append(lambda rng, chip=chip: _program_case(chip, rng, print))
    return out


def run_demo(print_fn: Callable[[str], None] = print) -> int:
    """Run every case, print a table, return the exit code (1 on any mismatch)."""
    rng = np.random.default_rng(2026)
    rows = [case(rng) for case in cases()]
    head = f"{'case':38} {'chip':10} {'dtype':8} {'bytes moved':>12} {'max error':>10} {'time':>7}  result"
    print_fn(head)
    print_fn("-" * len(head))
    for r in rows:
        print_fn(f"{r.name:38} {r.chip:10} {r.dtype:8} {r.bytes_moved:12,d} {r.max_error:10.3g} "
                 f"{r.seconds:6.2f}s  {'PASS' if r.ok else 'FAIL'}")
        print_fn(f"{'':38} instructions: {r.instructions}")
    failed = [r for r in rows if not r.ok]
    print_fn(f"\n{len(rows) - len(failed)} passed, {len(failed)} failed")
    return 1 if failed else 0
