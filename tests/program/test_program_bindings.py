"""A kernel-only file's --gm bindings are checked against what the kernel does with them (issue 19, Why 4).

The three silent cases a tester found, each now refused or warned naming the parameter:
* an input smaller than the kernel reads (512 B bound, 8 KB read) -> an error with the bound size and the
  bytes read: reading past the buffer a kernel was given is undefined behaviour in C++;
* an output bound smaller than the kernel writes -> an error; bound larger -> a BindingWarning naming the
  bytes never written (a partial write can be intended);
* a float32 .npy bound to a `__gm__ half*` parameter (checked before the run) or to a GM_ADDR parameter the
  kernel reads as GlobalTensor<half> (checked when the kernel makes the tensor) -> an error naming the
  parameter, the file's dtype and the kernel's element type. A raw .bin has no dtype: nothing to check.
A correct binding still runs clean, and its output is the input copied (numpy: the same array).
The kernels are written for this test: GM -> L1 -> GM copies of N halves.
"""

from __future__ import annotations

import subprocess
import sys
import warnings
from pathlib import Path

import numpy as np
import pytest
from support.paths import SRC

from ascsim.base.errors import AscsimError
from ascsim.program import Input, Output, load_kernel, parse_gm
from ascsim.program.run import BindingWarning, random_values

N = 4096  # halves the kernel copies: 8192 B

KERNEL = """#include "kernel_operator.h"

extern "C" __global__ __aicore__ void copy(PARAMS)
{
    AscendC::GlobalTensor<half> xg, yg;
    xg.SetGlobalBuffer((__gm__ half*)x);
    yg.SetGlobalBuffer((__gm__ half*)y);
    AscendC::LocalTensor<half> l1(AscendC::TPosition::A1, 0, T_N);
    AscendC::DataCopy(l1, xg, T_N);  // the read
    AscendC::SetFlag<AscendC::HardEvent::MTE2_MTE3>(EVENT_ID0);
    AscendC::WaitFlag<AscendC::HardEvent::MTE2_MTE3>(EVENT_ID0);
    AscendC::DataCopy(yg, l1, T_N);  // the write
}
"""


def _kernel(tmp_path: Path, typed: bool = False):
    params = "__gm__ half* x, __gm__ half* y" if typed else "GM_ADDR x, GM_ADDR y"
    src = tmp_path / ("typed.cpp" if typed else "copy.cpp")
    src.write_text(KERNEL.replace("PARAMS", params), encoding="utf-8")
    return load_kernel(src, "a2", defines={"T_N": str(N)}), src


def _line(src: Path, needle: str) -> int:
    return next(i for i, ln in enumerate(src.read_text().splitlines(), 1) if needle in ln)


def _x() -> np.ndarray:
    return (np.arange(N) % 2048 - 1024).astype(np.float16)


@pytest.mark.parametrize("typed", [False, True], ids=["GM_ADDR", "half*"])
def test_a_correct_binding_runs_clean(tmp_path: Path, typed: bool) -> None:
    prog, _ = _kernel(tmp_path, typed)
    np.save(tmp_path / "x.npy", _x())
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no warning at all
        run = prog.run(gm={"x": str(tmp_path / "x.npy"), "y": Output("half", (N,))})
    assert run.warnings == []
    np.testing.assert_array_equal(run.outputs["y"], _x())


def test_an_input_smaller_than_the_kernel_reads_is_refused(tmp_path: Path) -> None:
    prog, src = _kernel(tmp_path)
    np.save(tmp_path / "small.npy", _x()[:256])  # 512 B
    at = f"copy.cpp:{_line(src, 'the read')}:"
    msg = (rf"^{at}.*kernel parameter 'x' \(.*small.npy\) is bound to 512 B, but the call reads its bytes "
           rf"\[0, 8192\).*undefined behaviour in C\+\+.*bind at least 8192 B")
    with pytest.raises(AscsimError, match=msg):
        prog.run(gm={"x": str(tmp_path / "small.npy"), "y": Output("half", (N,))})


def test_an_output_smaller_than_the_kernel_writes_is_refused(tmp_path: Path) -> None:
    prog, src = _kernel(tmp_path)
    at = f"copy.cpp:{_line(src, 'the write')}:"
    with pytest.raises(AscsimError, match=rf"^{at}.*kernel parameter 'y' \(output half 16x16\) is bound to "
                                          rf"512 B, but the call writes its bytes \[0, 8192\).*"
                                          rf"e\.g\. y=FILE:half:4096"):
        prog.run(gm={"x": _x(), "y": Output("half", (16, 16))})


def test_an_output_larger_than_the_kernel_writes_warns_with_the_unwritten_bytes(tmp_path: Path) -> None:
    prog, _ = _kernel(tmp_path)
    msg = r"kernel parameter 'y' \(output half 5000\): the kernel wrote 8192 of its 10000 B; bytes "
    msg += r"\[8192, 10000\)"
    with pytest.warns(BindingWarning, match=msg + " were never written"):
        run = prog.run(gm={"x": _x(), "y": Output("half", (5000,))})
    assert any("'y'" in w for w in run.warnings)
    np.testing.assert_array_equal(run.outputs["y"][:N], _x())  # what was written is still there


def test_a_float32_npy_for_a_half_pointer_is_refused_before_the_run(tmp_path: Path) -> None:
    prog, _ = _kernel(tmp_path, typed=True)
    np.save(tmp_path / "x32.npy", _x().astype(np.float32))
    msg = r"^--gm x: kernel parameter 'x' \(.*x32.npy\) holds float32 values, but the parameter is a pointer "
    msg += "to half"
    with pytest.raises(AscsimError, match=msg + r".*a \.npy of float16"):
        prog.run(gm={"x": str(tmp_path / "x32.npy"), "y": Output("half", (N,))})
    msg = r"kernel parameter 'y' \(output float 4096\) holds float values, but the parameter is a pointer "
    msg += "to half"
    with pytest.raises(AscsimError, match=msg):
        prog.run(gm={"x": _x(), "y": Output("float", (N,))})


def test_a_float32_npy_read_as_globaltensor_half_is_refused_at_the_call(tmp_path: Path) -> None:
    prog, src = _kernel(tmp_path)
    np.save(tmp_path / "x32.npy", _x().astype(np.float32))
    at = f"copy.cpp:{_line(src, 'the read')}:"
    with pytest.raises(AscsimError, match=rf"^{at}.*kernel parameter 'x' \(.*x32.npy\) holds float32 values, "
                                          rf"but the kernel reads it as a GlobalTensor of half"):
        prog.run(gm={"x": str(tmp_path / "x32.npy"), "y": Output("half", (N,))})


def test_a_raw_bin_is_not_type_checked(tmp_path: Path) -> None:
    """A .bin has no dtype: its bytes go to the kernel as they are (docs/cpp.md)."""
    prog, _ = _kernel(tmp_path, typed=True)
    _x().astype(np.float32)[: N // 2].tofile(tmp_path / "x.bin")  # 8192 B of float32 bits, read as half
    run = prog.run(gm={"x": str(tmp_path / "x.bin"), "y": Output("half", (N,))})
    assert run.raw_outputs["y"] == (tmp_path / "x.bin").read_bytes()


def test_the_command_line_names_the_parameter(tmp_path: Path) -> None:
    """The tester's route: `ascsim run kernel.cpp --gm ...` with the float32 .npy: one line, exit 2."""
    _, src = _kernel(tmp_path, typed=True)
    np.save(tmp_path / "x32.npy", _x().astype(np.float32))
    r = subprocess.run([sys.executable, "-m", "ascsim", "run", str(src), "-D", f"T_N={N}",
                        "--gm", f"x={tmp_path / 'x32.npy'}",
                        "--gm", f"y={tmp_path / 'y.npy'}:half:{N}"], capture_output=True, text=True,
                       env={"PYTHONPATH": str(SRC), "PATH": ""}, timeout=600)
    assert r.returncode == 2
    assert "kernel parameter 'x'" in r.stderr and "float32" in r.stderr and "half" in r.stderr
    assert "Traceback" not in r.stderr and len(r.stderr.strip().splitlines()) == 1


def test_random_inputs_are_the_documented_values(tmp_path: Path) -> None:
    """`--gm x=random:half:64x64:7`: numpy default_rng(7) integers in [-4, 4] (docs/cpp.md), the same
    every time; without a seed, seed 0."""
    name, b = parse_gm("x=random:half:64x64:7")
    ref = np.random.default_rng(7).integers(-4, 5, (64, 64)).astype(np.float16)
    assert name == "x" and isinstance(b, Input) and b.dtype == "half" and b.data == ref.tobytes()
    assert parse_gm("x=random:half:64x64:7")[1].data == b.data
    assert parse_gm("x=random:half:64x64")[1].data == np.random.default_rng(0).integers(
        -4, 5, (64, 64)).astype(np.float16).tobytes()
    u = np.frombuffer(parse_gm("i=random:uint8:1000:1")[1].data, dtype=np.uint8)
    assert u.min() >= 0 and u.max() <= 8
    np.testing.assert_array_equal(random_values("fp8_e8m0_t", (4,), 3),
                                  np.exp2(np.random.default_rng(3).integers(-3, 4, (4,))))


@pytest.mark.parametrize("spec", ["x=random:half", "x=random:half:0x4", "x=random:half:4:-1",
                                  "x=random:half:4:a", "x=random:float64:4", "x=random:half:4:1:2"])
def test_bad_random_forms_are_refused(spec: str) -> None:
    with pytest.raises(AscsimError, match=r"^--gm x=random"):
        parse_gm(spec)
