"""A move whose GM source runs past the end of its aclrtMalloc allocation reads on, as the device does.

On the device an allocation lives in the runtime's mapped memory pool, so an instruction reading past its
end reads whatever follows; asc-devkit's load_data_l12l0.asc (scenario 14, README "ND -> Zz") relies on it:
its A input has k = 70 rows and is moved as ceil(70 / 16) = 5 ND matrices of 16 rows, 10 rows past the
input (examples/01_simd_cpp_api/03_basic_api/03_matrix_compute/load_data_l12l0/load_data_l12l0.asc:323-330).
ascsim runs such a read with a hazard warning at its line (an error with strict); a write past an
allocation is still refused. The kernels here are written for this test.
"""

from __future__ import annotations

import warnings
from pathlib import Path

import numpy as np
import pytest

from ascsim.base.errors import AscsimError
from ascsim.program import load_program

ELEMS = 100  # halfs in the input allocation (200 B; aclrtMalloc makes 256 B of it addressable)
READ = 512  # halfs the kernel moves GM -> L1 (1024 B: past the allocation)

PROGRAM = """#include "acl/acl.h"
#include "kernel_operator.h"
#include <cstdio>

__global__ __aicore__ void k(GM_ADDR x, GM_ADDR y)
{
    AscendC::GlobalTensor<half> xg, yg;
    xg.SetGlobalBuffer((__gm__ half*)x);
    yg.SetGlobalBuffer((__gm__ half*)y);
    AscendC::LocalTensor<half> l1(AscendC::TPosition::A1, 0, T_READ);
    AscendC::DataCopy(l1, xg, T_READ);  // the over-read
    AscendC::SetFlag<AscendC::HardEvent::MTE2_MTE3>(EVENT_ID0);
    AscendC::WaitFlag<AscendC::HardEvent::MTE2_MTE3>(EVENT_ID0);
    AscendC::DataCopy(yg, l1, T_OUT);  // back to GM: T_OUT halfs
}

int main()
{
    half host[T_ELEMS];
    for (int i = 0; i < T_ELEMS; ++i) host[i] = half(float(i) - 40.0f);
    void *x = nullptr, *y = nullptr;
    aclInit(nullptr);
    aclrtSetDevice(0);
    aclrtMalloc(&x, T_ELEMS * sizeof(half), ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMalloc(&y, 128 * sizeof(half), ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMemcpy(x, T_ELEMS * sizeof(half), host, T_ELEMS * sizeof(half), ACL_MEMCPY_HOST_TO_DEVICE);
    k<<<1, nullptr, nullptr>>>((uint8_t*)x, (uint8_t*)y);
    aclrtSynchronizeStream(nullptr);
    half out[128];
    aclrtMemcpy(out, sizeof out, y, sizeof out, ACL_MEMCPY_DEVICE_TO_HOST);
    FILE* f = std::fopen("out.bin", "wb");
    std::fwrite(out, sizeof(half), T_ELEMS, f);
    std::fclose(f);
    return 0;
}
"""


def _program(tmp_path: Path, out: int):
    src = tmp_path / "overread.cpp"
    src.write_text(PROGRAM, encoding="utf-8")
    defines = {"T_READ": str(READ), "T_ELEMS": str(ELEMS), "T_OUT": str(out)}
    return load_program(src, "a2", defines=defines), src


def _line(src: Path, needle: str) -> int:
    return next(i for i, ln in enumerate(src.read_text().splitlines(), 1) if needle in ln)


def test_a_read_past_an_allocation_reads_on_with_a_hazard(tmp_path: Path) -> None:
    prog, src = _program(tmp_path, out=128)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        run = prog.run(cwd=tmp_path, capture=True)
    assert run.returncode == 0, run.stderr
    expected = np.arange(ELEMS, dtype=np.float32).astype(np.float16) - np.float16(40)
    np.testing.assert_array_equal(np.fromfile(tmp_path / "out.bin", dtype=np.float16), expected)
    msgs = [str(w.message) for w in caught]
    at = f"overread.cpp:{_line(src, 'the over-read')}:"
    assert any(m.startswith(at) and f"reads {READ * 2} B from GM" in m and "past the source" in m
               for m in msgs), msgs


def test_strict_refuses_the_read(tmp_path: Path) -> None:
    prog, src = _program(tmp_path, out=128)
    with pytest.raises(AscsimError, match=f"overread.cpp:{_line(src, 'the over-read')}:.*past the source"):
        prog.run(cwd=tmp_path, capture=True, strict=True)


def test_a_write_past_an_allocation_is_refused(tmp_path: Path) -> None:
    prog, src = _program(tmp_path, out=READ)  # 1024 B into a 256-B allocation
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with pytest.raises(AscsimError, match="lie outside every GM allocation"):
            prog.run(cwd=tmp_path, capture=True)
