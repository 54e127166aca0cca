"""A program that cannot run ends with one message and exit status 2 — from the command line in a
subprocess, as a user runs it: never a Python traceback, never a hang.

Each case is a file written here; the expected text is what the case does, in its own words (the signal
it dies of, the status it exits with, the line of the call ascsim refuses).
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from support.paths import SRC

HEAD = '#include "kernel_operator.h"\n'
KERNEL = 'extern "C" __global__ __aicore__ void k(GM_ADDR a)\n{\n'


def _line(src: str, needle: str) -> int:
    return next(i for i, ln in enumerate(src.splitlines(), 1) if needle in ln)


def _run(tmp_path: Path, name: str, src: str, *extra: str, timeout: float = 60.0
         ) -> subprocess.CompletedProcess:
    f = tmp_path / name
    f.write_text(src, encoding="utf-8")
    a = tmp_path / "a.npy"
    np.save(a, np.arange(64, dtype=np.float16))
    gm = [] if "int main" in src else ["--gm", f"a={a}"]
    return subprocess.run([sys.executable, "-m", "ascsim", "run", str(f), "-q", *gm, *extra],
                          capture_output=True, text=True, timeout=timeout + 300, env=_env())


def _env() -> dict:
    import os

    return {**os.environ, "PYTHONPATH": str(SRC)}


def _one_error(r: subprocess.CompletedProcess) -> str:
    assert r.returncode == 2, r.stdout + r.stderr
    assert "Traceback" not in r.stderr
    lines = [ln for ln in r.stderr.splitlines() if ln.startswith(("ascsim:", "k.cpp:", "p.cpp:"))]
    assert len(lines) == 1, r.stderr
    return lines[0]


def test_compile_error_is_the_compilers_output(tmp_path: Path) -> None:
    src = HEAD + KERNEL + "    int x = ;\n}\n"
    r = _run(tmp_path, "k.cpp", src)
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert r.stderr.splitlines()[0].endswith("k.cpp: does not compile:")
    assert f"k.cpp:{_line(src, 'int x = ;')}:13: error: expected expression" in r.stderr
    assert "    int x = ;" in r.stderr  # the program as written, not the preprocessed text


def test_an_api_ascsim_does_not_declare_is_named(tmp_path: Path) -> None:
    src = HEAD + KERNEL + "    AscendC::NoSuchCall(1);\n}\n"
    r = _run(tmp_path, "k.cpp", src)
    assert r.returncode == 2
    assert "no member named 'NoSuchCall' in namespace 'AscendC'" in r.stderr
    assert "ascsim: AscendC::NoSuchCall is not declared by ascsim's headers" in r.stderr


def test_aiv_only_kernels_say_so(tmp_path: Path) -> None:
    vec = HEAD + 'extern "C" __global__ __vector__ void k(GM_ADDR a)\n{\n}\n'
    msg = _one_error(_run(tmp_path, "k.cpp", vec))
    assert "AIV-only kernel (__vector__)" in msg and "ascsim does not model" in msg
    typed = HEAD + KERNEL + "    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);\n}\n"
    msg = _one_error(_run(tmp_path, "k.cpp", typed))
    assert msg.startswith(f"k.cpp:{_line(typed, 'KERNEL_TASK_TYPE_DEFAULT')}: an AIV-only kernel")


def test_a_crash_names_the_signal_and_the_last_call(tmp_path: Path) -> None:
    src = HEAD + KERNEL + (
        "    AscendC::LocalTensor<half> t(AscendC::TPosition::A1, 0, 16);\n"
        "    AscendC::Fill(t, AscendC::InitConstValueParams<half>(1, 1, 0, half(1.0)));\n"
        "    volatile int* p = nullptr;\n"
        "    *p = 3;\n}\n")
    msg = _one_error(_run(tmp_path, "k.cpp", src))
    assert "SIGSEGV" in msg and "at address 0x0" in msg
    assert msg.endswith(f"after Fill at k.cpp:{_line(src, 'AscendC::Fill')}")


def test_exit_status_and_failed_assert(tmp_path: Path) -> None:
    src = HEAD + "#include <cstdlib>\n" + KERNEL + "    std::exit(3);\n}\n"
    assert "the program exited with status 3" in _one_error(_run(tmp_path, "k.cpp", src))
    src = HEAD + "#include <cassert>\n" + KERNEL + "    assert(1 + 1 == 3);\n}\n"
    r = _run(tmp_path, "k.cpp", src)
    assert "Assertion `1 + 1 == 3' failed" in r.stderr  # the program's own message, then ascsim's line
    assert "SIGABRT" in _one_error(r)


def test_a_hang_stops_at_the_timeout(tmp_path: Path) -> None:
    src = HEAD + KERNEL + "    volatile int x = 0;\n    while (true) { x = x + 1; }\n}\n"
    msg = _one_error(_run(tmp_path, "k.cpp", src, "--timeout", "3", timeout=3))
    assert "ran past its timeout (3 s; --timeout)" in msg


def test_get_value_out_of_bounds_is_an_error_at_its_line(tmp_path: Path) -> None:
    src = HEAD + KERNEL + (
        "    AscendC::LocalTensor<half> t(AscendC::TPosition::A1, 0, 16);\n"
        "    half v = t.GetValue(40);\n"
        "    (void)v;\n}\n")
    msg = _one_error(_run(tmp_path, "k.cpp", src))
    assert msg.startswith(f"k.cpp:{_line(src, 'GetValue(40)')}:")
    assert "GetValue(40): index out of range for a tensor of 16 elements" in msg


def test_gm_access_outside_every_allocation(tmp_path: Path) -> None:
    """Through an instruction: refused at its line, naming the --gm binding it runs past; through a raw
    pointer: the fault names GM."""
    src = HEAD + KERNEL + (
        "    AscendC::GlobalTensor<half> g;\n"
        "    g.SetGlobalBuffer((__gm__ half*)a, 4096);\n"
        "    AscendC::LocalTensor<half> t(AscendC::TPosition::A1, 0, 4096);\n"
        "    AscendC::DataCopy(t, g, 4096);\n}\n")
    msg = _one_error(_run(tmp_path, "k.cpp", src))
    assert msg.startswith(f"k.cpp:{_line(src, 'DataCopy(t')}:")
    assert "kernel parameter 'a'" in msg and "but the call reads its bytes [0, 8192)" in msg
    raw = HEAD + KERNEL + "    a[1 << 20] = 1;\n}\n"
    msg = _one_error(_run(tmp_path, "k.cpp", raw))
    assert "SIGSEGV" in msg and "outside every GM allocation" in msg


def test_unbound_parameter_named_when_touched(tmp_path: Path) -> None:
    src = HEAD + 'extern "C" __global__ __aicore__ void k(GM_ADDR a, GM_ADDR b)\n{\n' + (
        "    AscendC::GlobalTensor<half> g;\n"
        "    g.SetGlobalBuffer((__gm__ half*)b, 64);\n"
        "    AscendC::LocalTensor<half> t(AscendC::TPosition::A1, 0, 64);\n"
        "    AscendC::DataCopy(t, g, 64);\n}\n")
    msg = _one_error(_run(tmp_path, "k.cpp", src))
    assert "the kernel touches parameter 'b', which is not bound: give it with --gm b=FILE" in msg


def test_program_exit_after_host_errors(tmp_path: Path) -> None:
    """A whole program whose main returns 1: its status, after its last call."""
    src = HEAD + '#include "acl/acl.h"\nint main() {\n    void* p = nullptr;\n' \
        "    aclrtMalloc(&p, 64, ACL_MEM_MALLOC_HUGE_FIRST);\n    return 1;\n}\n"
    msg = _one_error(_run(tmp_path, "p.cpp", src))
    line = _line(src, "aclrtMalloc")
    assert msg.endswith(f"the program exited with status 1 after aclrtMalloc at p.cpp:{line}")


@pytest.mark.parametrize("opts,msg", [
    (["--gm", "zz=/nonexistent.npy"], "cannot read /nonexistent.npy"),
    (["--gm", "a"], "expected NAME=FILE[:DTYPE[:SHAPE]]"),
    (["--template", "M=3"], "the entry k has no template parameter 'M'"),
    (["--entry", "nope"], "no __global__ function named 'nope'"),
])
def test_command_line_binding_errors(tmp_path: Path, opts: list[str], msg: str) -> None:
    f = tmp_path / "k.cpp"
    f.write_text(HEAD + KERNEL + "}\n", encoding="utf-8")
    r = subprocess.run([sys.executable, "-m", "ascsim", "run", str(f), *opts], capture_output=True, text=True,
                       timeout=300, env=_env())
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert msg in r.stderr


def test_a_queue_with_every_buffer_in_use(tmp_path: Path) -> None:
    src = HEAD + KERNEL + (
        "    AscendC::TPipe pipe;\n"
        "    AscendC::TQue<AscendC::TPosition::A1, 1> q;\n"
        "    pipe.InitBuffer(q, 1, 512);\n"
        "    auto t0 = q.AllocTensor<half>();\n"
        "    auto t1 = q.AllocTensor<half>();\n}\n")
    msg = _one_error(_run(tmp_path, "k.cpp", src))
    assert msg.startswith(f"k.cpp:{_line(src, 't1 = q.AllocTensor')}:")
    assert "every buffer of the queue is in use" in msg
