"""Sources the front-end cannot run: each stops with one clean `file:line:col: message` line on stderr and
exit status 2 (the command line run in-process, `ascsim.cli.main`), never a traceback or a silent skip.
The expected line and column are those of the construct in the test's own source text.
"""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

from ascsim.cli import main

HEAD = '#include "kernel_operator.h"\nextern "C" __global__ __aicore__ void k(GM_ADDR a, GM_ADDR b)\n{\n'
TAIL = "}\n"


def _where(src: str, needle: str) -> tuple[int, int]:
    for i, ln in enumerate(src.splitlines(), 1):
        j = ln.find(needle)
        if j >= 0:
            return i, j + 1
    raise AssertionError(needle)


# (id, kernel body or whole file, where (text the error points at), message start after `file:line:col: `)
BODY_CASES = [
    ("syntax-error", "    int x = ;\n", "= ;", "syntax error"),
    (
        "switch",
        "    int v = 1;\n    switch (v) { case 1: break; }\n",
        "switch",
        "switch is not supported by ascsim's C++ front-end",
    ),
    ("goto", "    goto done;\n    done: ;\n", "goto", "goto is not supported"),
    ("lambda", "    auto f = [](int x) { return x; };\n", "[](int", "a lambda is not supported"),
    ("new", "    int* p = new int[4];\n", "new int", "new is not supported"),
    ("try", "    try { int x = 1; } catch (...) { }\n", "try", "try/catch is not supported"),
    ("throw", "    throw 1;\n", "throw", "throw is not supported"),
    (
        "range-for",
        "    int v[2] = {1, 2};\n    for (int x : v) { }\n",
        "for (int x",
        "a range-based for is not supported",
    ),
    ("local-struct", "    struct S { int a; } s;\n", "struct S", "a struct definition is not supported"),
    ("local-enum", "    enum E { X, Y } e;\n", "enum E", "an enum is not supported"),
    ("printf", '    printf("%d", 1);\n', "printf", "call to 'printf' is not supported"),
    (
        "vector-api",
        "    AscendC::LocalTensor<half> x(AscendC::TPosition::A1, 0, 64);\n    AscendC::Add(x, x, x, 64);\n",
        "AscendC::Add",
        "call to 'Add' is not supported",
    ),
    ("undeclared", "    int x = y + 1;\n", "y + 1", "'y' is not declared"),
    ("unknown-type", "    Foo x;\n", "Foo", "type 'Foo' is not supported"),
    (
        "deref",
        "    int x = 1;\n    int* p = &x;\n    *p = 2;\n",
        "*p = 2",
        "writing through a pointer is not supported",
    ),
    (
        "address-of-tensor",
        "    AscendC::LocalTensor<half> t(AscendC::TPosition::A1, 0, 64);\n    auto p = &t;\n",
        "&t",
        "taking the address of a non-scalar is not supported",
    ),
    ("std-vector", "    std::vector<int> v;\n", "std::vector", "type 'vector' is not supported"),
    ("static-assert", '    static_assert(1 == 1, "x");\n', "static_assert", "static_assert is not supported"),
    ("typedef", "    typedef int I;\n", "typedef", "a typedef is not supported"),
    ("using-alias", "    using I = int;\n", "using", "a using alias is not supported"),
    ("div-zero", "    int z = 0;\n    int x = 4 / z;\n", "4 / z", "division by zero"),
    (
        "uninitialised",
        "    uint32_t n;\n    uint32_t m = n + 1;\n",
        "n + 1",
        "'n' is read before it is assigned",
    ),
    ("const-assign", "    const int c = 1;\n    c = 2;\n", "c = 2", "'c' is const"),
    (
        "tensor-position",
        "    AscendC::LocalTensor<half> t(5, 0, 64);\n",
        "AscendC::LocalTensor",
        "LocalTensor<half>: the first argument must be a TPosition",
    ),
    (
        "unbound-gm",
        "    AscendC::GlobalTensor<half> g;\n    g.SetGlobalBuffer((__gm__ half*)b, 64);\n"
        "    AscendC::LocalTensor<half> t(AscendC::TPosition::A1, 0, 64);\n"
        "    AscendC::DataCopy(t, g, 64);\n",
        "g, 64)",
        "DataCopy touches kernel parameter 'b', which is not bound",
    ),
    (
        "brace-overloaded",
        "    AscendC::LocalTensor<half> x(AscendC::TPosition::A1, 0, 256);\n"
        "    AscendC::LocalTensor<half> y(AscendC::TPosition::A2, 0, 256);\n"
        "    AscendC::LoadData(y, x, {0, 1});\n",
        "{0, 1}",
        "a brace initialiser here needs its struct type written out",
    ),
    (
        "unknown-field",
        "    AscendC::LoadData2DParams p;\n    p.repeat = 1;\n",
        "repeat",
        "LoadData2DParams has no field 'repeat'",
    ),
    (
        "mmad-arity",
        "    AscendC::LocalTensor<float> c(AscendC::TPosition::CO1, 0, 256);\n    AscendC::Mmad(c, c, c);\n",
        "AscendC::Mmad",
        "Mmad takes (c, a, b[, bias], params), but got 3 arguments",
    ),
    (
        "event-id",
        "    AscendC::SetFlag<AscendC::HardEvent::MTE2_MTE1>(9);\n",
        "9",
        "SetFlag: the event id must be in [0, 7]",
    ),
    (
        "pipebarrier-arg",
        "    AscendC::PipeBarrier<AscendC::HardEvent::M_FIX>();\n",
        "AscendC::PipeBarrier",
        "PipeBarrier takes one pipe_t template argument",
    ),
    (
        "queue-exhausted",
        "    AscendC::TPipe pipe;\n    AscendC::TQue<AscendC::TPosition::A1, 1> q;\n"
        "    pipe.InitBuffer(q, 1, 512);\n    auto t1 = q.AllocTensor<half>();\n"
        "    auto t2 = q.AllocTensor<half>();\n",
        "q.AllocTensor<half>();\n    auto t2",
        "",
    ),
    ("shift", "    uint32_t x = 1u << 40;\n", "1u << 40", "shift count 40 is outside [0, 31] for uint32_t"),
    (
        "float-to-int",
        "    float big = 1e20f;\n    int32_t i = big;\n",
        "big;",
        "1.0000000200408773e+20 is outside the range of int32_t",
    ),
    (
        "instruction-error",
        "    AscendC::LocalTensor<half> x(AscendC::TPosition::A1, 0, 256);\n"
        "    AscendC::LocalTensor<half> y(AscendC::TPosition::A2, 0, 256);\n"
        "    AscendC::LoadData(y, x, AscendC::LoadData2DParams{0, 1, 1, 0, 0, false, 0});\n"
        "    AscendC::LoadData(y, x, AscendC::LoadData2DParams{0, 300, 1, 0, 0, false, 0});\n",
        "AscendC::LoadData(y, x, AscendC::LoadData2DParams{0, 300",
        "LoadData2D: repeatTimes must be in [0, 255], but got 300",
    ),
    ("class-inheritance", "", "", ""),  # whole-file case below
    (
        "sizeof-tensor",
        "    AscendC::LocalTensor<half> t(AscendC::TPosition::A1, 0, 64);\n    int n = sizeof(t);\n",
        "sizeof(t)",
        "sizeof of a LocalTensor<half> is not supported",
    ),
    (
        "uint64-op",
        "    AscendC::LocalTensor<int4b_t> t(AscendC::TPosition::A1, 0, 64);\n    auto v = t.GetValue(0);\n",
        "t.GetValue",
        "GetValue on int4b_t is not supported",
    ),
]
BODY_CASES = [c for c in BODY_CASES if c[0] not in ("queue-exhausted", "class-inheritance")]


def _cli(tmp_path: Path, src: str, capsys, *extra: str) -> tuple[int, str]:
    f = tmp_path / "k.cpp"
    f.write_text(src)
    rc = main(["run", str(f), "-q", *extra])
    return rc, capsys.readouterr().err


def _check(rc: int, err: str, src: str, where: str, msg: str) -> None:
    assert rc == 2
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    line, col = _where(src, where)
    assert re.match(rf"^k\.cpp:{line}:{col}: ", lines[0]), (lines[0], line, col)
    assert lines[0].split(": ", 1)[1].startswith(msg), lines[0]


@pytest.mark.parametrize(("case", "body", "where", "msg"), BODY_CASES, ids=[c[0] for c in BODY_CASES])
def test_bad_body(tmp_path: Path, capsys, case: str, body: str, where: str, msg: str) -> None:
    src = HEAD + body + TAIL
    _check(*_cli(tmp_path, src, capsys), src, where, msg)


def test_queue_with_every_buffer_in_use(tmp_path: Path, capsys) -> None:
    body = (
        "    AscendC::TPipe pipe;\n    AscendC::TQue<AscendC::TPosition::A1, 1> q;\n"
        "    pipe.InitBuffer(q, 1, 512);\n"
        "    AscendC::LocalTensor<half> t1 = q.AllocTensor<half>();\n"
        "    AscendC::LocalTensor<half> t2 = q.AllocTensor<half>();\n"
    )
    src = HEAD + body + TAIL
    line = src.splitlines().index("    AscendC::LocalTensor<half> t2 = q.AllocTensor<half>();") + 1
    rc, err = _cli(tmp_path, src, capsys)
    assert rc == 2 and err.startswith(f"k.cpp:{line}:")
    assert "q.AllocTensor: every buffer is in use" in err or "AllocTensor: every buffer is in use" in err


FILE_CASES = [
    ("no-entry", "int f() { return 1; }\n", "k.cpp: no __global__ kernel function found"),
    (
        "two-entries",
        HEAD + TAIL + 'extern "C" __global__ __aicore__ void k2(GM_ADDR a) {}\n',
        "k.cpp: several __global__ functions (k, k2): choose one with --entry NAME",
    ),
    (
        "error-directive",
        "#if !defined(__NPU_ARCH__)\n#error no arch\n#endif\n"
        "#if __NPU_ARCH__ == 2201\n#error A2 kernels are not allowed\n#endif\n",
        "k.cpp:5:1: #error A2 kernels are not allowed",
    ),
]


@pytest.mark.parametrize(("case", "src", "msg"), FILE_CASES, ids=[c[0] for c in FILE_CASES])
def test_bad_file(tmp_path: Path, capsys, case: str, src: str, msg: str) -> None:
    rc, err = _cli(tmp_path, src, capsys)
    assert rc == 2
    assert err.strip() == msg or err.startswith(msg), err


def test_template_parameter_without_value(tmp_path: Path, capsys) -> None:
    src = "template <uint32_t M>\n__global__ __aicore__ void k(GM_ADDR a) { uint32_t x = M; }\n"
    rc, err = _cli(tmp_path, src, capsys)
    assert rc == 2
    assert err.startswith(
        "k.cpp:2:1: the kernel's template parameter 'M' has no value: give it with --template M=VALUE"
    )
    rc, err = _cli(tmp_path, src, capsys, "--template", "N=3")
    assert rc == 2 and "the entry k has no template parameter 'N' (it has: M)" in err


# Whole files whose error points into them: (id, source, where (text the error points at), message start)
LOCATED_FILE_CASES = [
    ("scalar-kernel-parameter", "__global__ __aicore__ void k(GM_ADDR a, uint32_t n) { }\n", "uint32_t n",
     "the kernel parameter 'uint32_t n' (only GM pointers are bound) is not supported"),
    (
        "class-inheritance",
        "class Base { public: int x = 1; };\nclass K : public Base { public: void Run() {} };\n"
        + HEAD
        + "    K op;\n    op.Run();\n"
        + TAIL,
        "K op",
        "class inheritance (K : public Base) is not supported",
    ),
    (  # runtime errors in helpers point at the helper's line
        "runtime-error-in-a-helper",
        "__aicore__ inline uint32_t Div(uint32_t a, uint32_t b) { return a / b; }\n"
        + HEAD
        + "    uint32_t x = Div(4, 0);\n"
        + TAIL,
        "a / b",
        "division by zero",
    ),
]


@pytest.mark.parametrize(("case", "src", "where", "msg"), LOCATED_FILE_CASES,
                         ids=[c[0] for c in LOCATED_FILE_CASES])
def test_bad_file_located(tmp_path: Path, capsys, case: str, src: str, where: str, msg: str) -> None:
    rc, err = _cli(tmp_path, src, capsys)
    line, col = _where(src, where)
    assert rc == 2 and err.startswith(f"k.cpp:{line}:{col}: {msg}")


@pytest.mark.parametrize(("param", "file", "msg"), [
    ("x", "a.npy", "--gm x: the entry k has no parameter 'x' (parameters: a, b)"),
    ("a", "missing.npy", "does not exist (an output needs FILE:DTYPE:SHAPE)"),
    ("a", "o.npy:float:3xq", "SHAPE must be positive sizes joined by x"),
], ids=["unknown-parameter", "missing-input", "bad-output-shape"])
def test_gm_binding_errors(tmp_path: Path, capsys, param: str, file: str, msg: str) -> None:
    """`--gm PARAM=FILE` (FILE in tmp_path, where a.npy exists)."""
    src = HEAD + TAIL
    np.save(tmp_path / "a.npy", np.zeros(4, np.float16))
    rc, err = _cli(tmp_path, src, capsys, "--gm", f"{param}={tmp_path / file}")
    assert rc == 2 and msg in err


def test_at_least_thirty_cases() -> None:
    assert len(BODY_CASES) + len(FILE_CASES) + len(LOCATED_FILE_CASES) + 3 >= 30
