"""Spellings of Huawei's official examples that a whole program must accept (kernels written here).

- `int32_t main(int32_t argc, char* argv[])` is the examples' main (asc-devkit
  examples/01_simd_cpp_api/03_basic_api/03_matrix_compute/mmad/mmad.asc): the file is a whole program.
- `assert(cond)` and `assert(cond, fmt, args...)` in device code come with kernel_operator.h (the C++ API's
  asc-devkit include/utils/debug/asc_assert.h:23,52-56 includes <cassert> and redefines assert as a
  variadic macro); fixpipe_l0c2gm.asc:244 calls it without including <cassert>.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from ascsim.program import load_program
from ascsim.program.run import ProgramFault

PROGRAM = """#include "acl/acl.h"
#include "kernel_operator.h"
#include <cstdio>

__global__ __aicore__ void k(GM_ADDR x, int32_t v)
{
    assert(v >= 0);
    assert(v < LIMIT, "v = %d reaches the limit %d", v, LIMIT);
}

int32_t main(int32_t argc, char* argv[])
{
    k<<<1, nullptr, nullptr>>>(nullptr, argc);
    aclrtSynchronizeStream(nullptr);
    FILE* f = std::fopen("argc.txt", "w");
    std::fprintf(f, "%d", argc);
    std::fclose(f);
    return 0;
}
"""


def test_int32_main_is_a_program_and_assert_takes_a_message(tmp_path: Path) -> None:
    src = tmp_path / "p.cpp"
    src.write_text(PROGRAM, encoding="utf-8")
    prog = load_program(src, "a2", defines={"LIMIT": "3"})
    assert not prog.built.kernel_only
    ok = prog.run(args=["one"], cwd=tmp_path, capture=True)  # argc = 2: both asserts hold
    assert ok.returncode == 0, ok.stderr
    assert (tmp_path / "argc.txt").read_text() == "2"  # main ran, with its arguments
    with pytest.raises(ProgramFault, match="SIGABRT") as e:
        prog.run(args=["one", "two", "three"], cwd=tmp_path, capture=True)  # argc = 4
    assert "Assertion `v < 3' failed: v = 4 reaches the limit 3" in e.value.stderr
