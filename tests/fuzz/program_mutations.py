"""Mutators of Ascend C sources, the seed programs they start from, and a measured run of the command.

Shared by tests/fuzz/test_program_fuzz.py (a fixed-seed budget in the suite) and tools/fuzz_programs.py (the
long run). Nothing here imports ascsim: the command runs as a subprocess, the way a user runs it.

Seeds: four small valid sources on the cube data path (DataCopy GM -> L1 with Nd2Nz, LoadData /
LoadDataWithTranspose into L0A / L0B, Mmad into L0C, Fixpipe NZ2ND back to GM), each computing a 32 x 32 x 32
half matmul C = A @ B in float:

* `kernel_barrier`: a kernel-only file with GM parameters a, b, c, PipeBarrier<PIPE_ALL> between stages;
* `kernel_flags`:   the same with SetFlag / WaitFlag pairs between the pipes;
* `kernel_tque`:    the same through TPipe / TQue (EnQue / DeQue / FreeTensor);
* `program`:        a whole program, main + acl (aclrtMalloc / aclrtMemcpy / aclrtSynchronizeStream) + a
                    `<<<>>>` launch, which checks the result against its own host loop and prints `ok`.

Mutators (`MUTATORS`, name -> function(text: bytes, rng) -> bytes): token edits (delete, duplicate, swap,
replace an identifier, an operator or a number), extreme numbers, deep nesting, endless loops in the
kernel and in main, infinite recursion, giant arrays and literals, exponential macros, template bombs,
non-UTF-8 bytes, truncation and empty files. `mutate(seed_text, rng)` applies one to three of them.

`run_measured(argv, timeout)` runs a command under a small wrapper process that is a child subreaper (so
every descendant, even one that made itself a session leader, stays in its tree), samples the memory of
the whole tree every few milliseconds, kills the tree at the hard timeout and reports (exit status, wall
time, peak tree memory, stdout, stderr).
"""

from __future__ import annotations

import json
import os
import random
import re
import subprocess
import sys
import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

# -- the seeds ----------------------------------------------------------------------------------------------

#: The shape of every seed's matmul.
M = N = K = 32

_PREAMBLE = """\
#include "kernel_operator.h"

constexpr uint32_t M = 32;
constexpr uint32_t N = 32;
constexpr uint32_t K = 32;
constexpr uint32_t FRAC = 16 * 16;
"""

# the stages, shared by the plain kernels: GM (ND) -> L1 (Nz) -> L0A (Zz) / L0B (Zn) -> L0C -> GM (ND)
_STAGES = """\
__aicore__ inline void CopyIn(AscendC::LocalTensor<half>& a1, AscendC::LocalTensor<half>& b1,
                              AscendC::GlobalTensor<half>& aGM, AscendC::GlobalTensor<half>& bGM)
{
    AscendC::DataCopy(a1, aGM, AscendC::Nd2NzParams{1, M, K, 0, K, M, 1, 0});
    AscendC::DataCopy(b1, bGM, AscendC::Nd2NzParams{1, K, N, 0, N, K, 1, 0});
}

__aicore__ inline void SplitA(AscendC::LocalTensor<half>& a2, AscendC::LocalTensor<half>& a1)
{
    AscendC::LoadData2DParams params;
    params.repeatTimes = K / 16;
    params.srcStride = M / 16;
    params.ifTranspose = false;
    for (uint32_t i = 0; i < M / 16; ++i) {
        params.startIndex = i;
        AscendC::LoadData(a2[i * (K / 16) * FRAC], a1, params);
    }
}

__aicore__ inline void SplitB(AscendC::LocalTensor<half>& b2, AscendC::LocalTensor<half>& b1)
{
    AscendC::LoadData2dTransposeParams params;
    params.repeatTimes = N / 16;
    params.srcStride = K / 16;
    params.dstGap = 0;
    params.dstFracGap = 0;
    for (uint32_t r = 0; r < K / 16; ++r) {
        params.startIndex = r;
        AscendC::LoadDataWithTranspose(b2[r * (N / 16) * FRAC], b1, params);
    }
}

__aicore__ inline void Compute(AscendC::LocalTensor<float>& c1, AscendC::LocalTensor<half>& a2,
                               AscendC::LocalTensor<half>& b2)
{
    AscendC::MmadParams params;
    params.m = M;
    params.n = N;
    params.k = K;
    params.cmatrixInitVal = true;
    AscendC::Mmad(c1, a2, b2, params);
}

__aicore__ inline void CopyOut(AscendC::GlobalTensor<float>& cGM, AscendC::LocalTensor<float>& c1)
{
    AscendC::FixpipeParamsV220 params;
    params.nSize = N;
    params.mSize = M;
    params.srcStride = M;
    params.dstStride = N;
    params.ndNum = 1;
    AscendC::Fixpipe(cGM, c1, params);
}
"""

_BODY = """\
    AscendC::GlobalTensor<half> aGM;
    AscendC::GlobalTensor<half> bGM;
    AscendC::GlobalTensor<float> cGM;
    aGM.SetGlobalBuffer((__gm__ half*)a, M * K);
    bGM.SetGlobalBuffer((__gm__ half*)b, K * N);
    cGM.SetGlobalBuffer((__gm__ float*)c, M * N);
    AscendC::LocalTensor<half> a1(AscendC::TPosition::A1, 0, M * K);
    AscendC::LocalTensor<half> b1(AscendC::TPosition::B1, M * K * sizeof(half), K * N);
    AscendC::LocalTensor<half> a2(AscendC::TPosition::A2, 0, M * K);
    AscendC::LocalTensor<half> b2(AscendC::TPosition::B2, 0, K * N);
    AscendC::LocalTensor<float> c1(AscendC::TPosition::CO1, 0, M * N);
"""

KERNEL_BARRIER = _PREAMBLE + "\n" + _STAGES + """
extern "C" __global__ __aicore__ void mm(GM_ADDR a, GM_ADDR b, GM_ADDR c)
{
""" + _BODY + """\
    CopyIn(a1, b1, aGM, bGM);
    AscendC::PipeBarrier<PIPE_ALL>();
    SplitA(a2, a1);
    SplitB(b2, b1);
    AscendC::PipeBarrier<PIPE_ALL>();
    Compute(c1, a2, b2);
    AscendC::PipeBarrier<PIPE_ALL>();
    CopyOut(cGM, c1);
}
"""

KERNEL_FLAGS = _PREAMBLE + "\n" + _STAGES + """
extern "C" __global__ __aicore__ void mm(GM_ADDR a, GM_ADDR b, GM_ADDR c)
{
""" + _BODY + """\
    CopyIn(a1, b1, aGM, bGM);
    AscendC::SetFlag<AscendC::HardEvent::MTE2_MTE1>(EVENT_ID0);
    AscendC::WaitFlag<AscendC::HardEvent::MTE2_MTE1>(EVENT_ID0);
    SplitA(a2, a1);
    SplitB(b2, b1);
    AscendC::SetFlag<AscendC::HardEvent::MTE1_M>(EVENT_ID1);
    AscendC::WaitFlag<AscendC::HardEvent::MTE1_M>(EVENT_ID1);
    Compute(c1, a2, b2);
    AscendC::SetFlag<AscendC::HardEvent::M_FIX>(EVENT_ID2);
    AscendC::WaitFlag<AscendC::HardEvent::M_FIX>(EVENT_ID2);
    CopyOut(cGM, c1);
}
"""

KERNEL_TQUE = _PREAMBLE + "\n" + _STAGES + """
class KernelMatmul {
public:
    __aicore__ inline void Init(GM_ADDR a, GM_ADDR b, GM_ADDR c)
    {
        aGM.SetGlobalBuffer((__gm__ half*)a, M * K);
        bGM.SetGlobalBuffer((__gm__ half*)b, K * N);
        cGM.SetGlobalBuffer((__gm__ float*)c, M * N);
        pipe.InitBuffer(qA1, 1, M * K * sizeof(half));
        pipe.InitBuffer(qB1, 1, K * N * sizeof(half));
        pipe.InitBuffer(qA2, 1, M * K * sizeof(half));
        pipe.InitBuffer(qB2, 1, K * N * sizeof(half));
        pipe.InitBuffer(qCO1, 1, M * N * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        AscendC::LocalTensor<half> a1 = qA1.AllocTensor<half>();
        AscendC::LocalTensor<half> b1 = qB1.AllocTensor<half>();
        CopyIn(a1, b1, aGM, bGM);
        qA1.EnQue(a1);
        qB1.EnQue(b1);
        a1 = qA1.DeQue<half>();
        b1 = qB1.DeQue<half>();
        AscendC::LocalTensor<half> a2 = qA2.AllocTensor<half>();
        AscendC::LocalTensor<half> b2 = qB2.AllocTensor<half>();
        SplitA(a2, a1);
        SplitB(b2, b1);
        qA2.EnQue(a2);
        qB2.EnQue(b2);
        qA1.FreeTensor(a1);
        qB1.FreeTensor(b1);
        a2 = qA2.DeQue<half>();
        b2 = qB2.DeQue<half>();
        AscendC::LocalTensor<float> c1 = qCO1.AllocTensor<float>();
        Compute(c1, a2, b2);
        qCO1.EnQue(c1);
        qA2.FreeTensor(a2);
        qB2.FreeTensor(b2);
        c1 = qCO1.DeQue<float>();
        CopyOut(cGM, c1);
        qCO1.FreeTensor(c1);
    }

private:
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::TPosition::A1, 1> qA1;
    AscendC::TQue<AscendC::TPosition::B1, 1> qB1;
    AscendC::TQue<AscendC::TPosition::A2, 1> qA2;
    AscendC::TQue<AscendC::TPosition::B2, 1> qB2;
    AscendC::TQue<AscendC::TPosition::CO1, 1> qCO1;
    AscendC::GlobalTensor<half> aGM;
    AscendC::GlobalTensor<half> bGM;
    AscendC::GlobalTensor<float> cGM;
};

extern "C" __global__ __aicore__ void mm(GM_ADDR a, GM_ADDR b, GM_ADDR c)
{
    KernelMatmul op;
    op.Init(a, b, c);
    op.Process();
}
"""

PROGRAM = KERNEL_BARRIER + """
#include "acl/acl.h"

int main(int argc, char** argv)
{
    const size_t aBytes = M * K * sizeof(half), bBytes = K * N * sizeof(half), cBytes = M * N * sizeof(float);
    half* ha = new half[M * K];
    half* hb = new half[K * N];
    float* hc = new float[M * N];
    for (uint32_t i = 0; i < M * K; ++i) ha[i] = half(float(int(i % 7) - 3));
    for (uint32_t i = 0; i < K * N; ++i) hb[i] = half(float(int(i % 5) - 2));
    aclInit(nullptr);
    aclrtSetDevice(0);
    aclrtStream stream = nullptr;
    aclrtCreateStream(&stream);
    void* da = nullptr;
    void* db = nullptr;
    void* dc = nullptr;
    if (aclrtMalloc(&da, aBytes, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS) return 1;
    if (aclrtMalloc(&db, bBytes, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS) return 1;
    if (aclrtMalloc(&dc, cBytes, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS) return 1;
    aclrtMemcpy(da, aBytes, ha, aBytes, ACL_MEMCPY_HOST_TO_DEVICE);
    aclrtMemcpy(db, bBytes, hb, bBytes, ACL_MEMCPY_HOST_TO_DEVICE);
    mm<<<1, nullptr, stream>>>((uint8_t*)da, (uint8_t*)db, (uint8_t*)dc);
    aclrtSynchronizeStream(stream);
    aclrtMemcpy(hc, cBytes, dc, cBytes, ACL_MEMCPY_DEVICE_TO_HOST);
    int bad = 0;
    for (uint32_t i = 0; i < M; ++i) {
        for (uint32_t j = 0; j < N; ++j) {
            float ref = 0;
            for (uint32_t k = 0; k < K; ++k) ref += float(ha[i * K + k]) * float(hb[k * N + j]);
            if (hc[i * N + j] != ref) ++bad;
        }
    }
    aclrtFree(da);
    aclrtFree(db);
    aclrtFree(dc);
    aclrtDestroyStream(stream);
    aclrtResetDevice(0);
    aclFinalize();
    delete[] ha;
    delete[] hb;
    delete[] hc;
    std::printf(bad ? "mismatch %d\\n" : "ok\\n", bad);
    return bad ? 1 : 0;
}
"""

SEEDS: dict[str, str] = {
    "kernel_barrier": KERNEL_BARRIER,
    "kernel_flags": KERNEL_FLAGS,
    "kernel_tque": KERNEL_TQUE,
    "program": PROGRAM,
}


def seed_inputs(seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """The GM inputs of the kernel-only seeds: small integers, so the float result is exact."""
    rng = np.random.default_rng(seed)
    a = rng.integers(-3, 4, (M, K)).astype(np.float16)
    b = rng.integers(-3, 4, (K, N)).astype(np.float16)
    return a, b


def write_inputs(folder: Path) -> list[str]:
    """a.npy and b.npy in `folder`; the --gm options of a kernel-only seed (c is written to c.npy)."""
    a, b = seed_inputs()
    np.save(folder / "a.npy", a)
    np.save(folder / "b.npy", b)
    return ["--gm", f"a={folder / 'a.npy'}", "--gm", f"b={folder / 'b.npy'}",
            "--gm", f"c={folder / 'c.npy'}:float:{M}x{N}"]


# -- mutators ---------------------------------------------------------------------------------------------

Mutator = Callable[[bytes, random.Random], bytes]

_TOKEN = re.compile(rb"[A-Za-z_]\w*|0[xX][0-9a-fA-F]+|\d+(?:\.\d*)?(?:[eE][-+]?\d+)?[uUlLfF]*|::|->|<<|>>|"
                    rb"[-+*/%&|^!=<>]=?|&&|\|\||[{}()\[\];,.?:~]|\"(?:\\.|[^\"\\\n])*\"|\S")
_NUMBER = re.compile(rb"(?<![\w.])\d+(?:\.\d+)?[uUlLfF]*(?![\w.])")
_IDENT = re.compile(rb"(?<![\w.])[A-Za-z_]\w*")
_OPERATORS = [b"+", b"-", b"*", b"/", b"%", b"<<", b">>", b"&", b"|", b"^", b"==", b"!=", b"<", b">", b"<=",
              b">=", b"&&", b"||", b"=", b"!", b"~", b"++", b"--", b"->", b".", b"::", b"?", b":", b",", b";"]
#: Numbers at the edges of every integer type a parameter may have, and a few beyond them.
EXTREME_NUMBERS = [b"0", b"1", b"-1", b"2", b"15", b"16", b"17", b"255", b"256", b"4095", b"4096", b"65535",
                   b"65536", b"-32768", b"2147483647", b"2147483648", b"-2147483648", b"4294967295",
                   b"4294967296", b"9223372036854775807", b"-9223372036854775807", b"18446744073709551615",
                   b"18446744073709551616", b"340282366920938463463374607431768211456",
                   b"0x7fffffff", b"0xffffffffu", b"0xffffffffffffffffull", b"1e308", b"1e309", b"-1e309",
                   b"5e-324", b"0.0", b"-0.0", b"65504.0", b"65520.0", b"NAN", b"INFINITY", b"-INFINITY",
                   b"(0.0/0.0)", b"(1/0)", b"(1u<<31)", b"(1ull<<63)", b"(-1ll)"]
#: Identifiers worth swapping in (other API names, types, keywords, values of the kernel's own).
IDENTIFIERS = [b"M", b"N", b"K", b"a", b"b", b"c", b"a1", b"b1", b"a2", b"b2", b"c1", b"aGM", b"cGM", b"half",
               b"float", b"int8_t", b"uint64_t", b"bfloat16_t", b"void", b"auto", b"const", b"static",
               b"nullptr", b"this", b"sizeof", b"return", b"break", b"while", b"for", b"if", b"else",
               b"template", b"typename", b"class", b"struct", b"virtual", b"operator", b"delete", b"new",
               b"throw", b"goto", b"EVENT_ID0", b"EVENT_ID7", b"PIPE_ALL", b"PIPE_M", b"PIPE_S", b"A1", b"A2",
               b"B1", b"B2", b"CO1", b"VECIN", b"GM", b"LoadData", b"Mmad", b"Fixpipe", b"DataCopy", b"Fill",
               b"SetFlag", b"WaitFlag", b"PipeBarrier", b"SyncAll", b"GetBlockIdx", b"GetBlockNum",
               b"LocalTensor", b"GlobalTensor", b"TPipe", b"TQue", b"TBuf", b"AllocTensor", b"FreeTensor",
               b"EnQue", b"DeQue", b"InitBuffer", b"aclrtMalloc", b"aclrtFree", b"aclrtMemcpy", b"main",
               b"mm", b"GM_ADDR", b"__gm__", b"__aicore__", b"__global__", b"extern", b"exit", b"abort"]


def _tokens(text: bytes) -> list[re.Match]:
    return list(_TOKEN.finditer(text))


def _pick_span(text: bytes, pattern: re.Pattern, rng: random.Random) -> tuple[int, int] | None:
    spans = [m.span() for m in pattern.finditer(text)]
    return rng.choice(spans) if spans else None


def _statement_points(text: bytes) -> list[int]:
    """Offsets just after a `;` or `{` followed by a newline: places a statement or a declaration fits."""
    return [m.end() for m in re.finditer(rb"[;{]\n", text)]


def _kernel_body_point(text: bytes, rng: random.Random) -> int:
    """A statement point inside the __global__ function (or anywhere, if none)."""
    m = re.search(rb"__global__[^{]*\{\n", text)
    if m:
        inside = [p for p in _statement_points(text) if p >= m.end()]
        end = text.find(b"\n}\n", m.end())
        inside = [p for p in inside if end < 0 or p <= end + 1]
        if inside:
            return rng.choice(inside)
    pts = _statement_points(text)
    return rng.choice(pts) if pts else len(text)


def _main_body_point(text: bytes, rng: random.Random) -> int | None:
    m = re.search(rb"int main\([^)]*\)\s*\{\n", text)
    if not m:
        return None
    pts = [p for p in _statement_points(text) if p >= m.end()]
    return rng.choice(pts) if pts else m.end()


def _insert(text: bytes, at: int, code: bytes) -> bytes:
    return text[:at] + code + text[at:]


def token_delete(text: bytes, rng: random.Random) -> bytes:
    toks = _tokens(text)
    if not toks:
        return text
    t = rng.choice(toks)
    return text[: t.start()] + text[t.end() :]


def token_duplicate(text: bytes, rng: random.Random) -> bytes:
    toks = _tokens(text)
    if not toks:
        return text
    t = rng.choice(toks)
    return text[: t.end()] + b" " + t.group() + text[t.end() :]


def token_swap(text: bytes, rng: random.Random) -> bytes:
    toks = _tokens(text)
    if len(toks) < 2:
        return text
    i = rng.randrange(len(toks) - 1)
    j = min(len(toks) - 1, i + rng.choice([1, 1, 2, 3, 10]))
    a, b = toks[i], toks[j]
    return text[: a.start()] + b.group() + text[a.end() : b.start()] + a.group() + text[b.end() :]


def token_move(text: bytes, rng: random.Random) -> bytes:
    """A token cut from one place and pasted at another (anywhere)."""
    toks = _tokens(text)
    if len(toks) < 2:
        return text
    t = rng.choice(toks)
    rest = text[: t.start()] + text[t.end() :]
    at = rng.randrange(len(rest) + 1)
    return rest[:at] + b" " + t.group() + b" " + rest[at:]


def identifier_replace(text: bytes, rng: random.Random) -> bytes:
    span = _pick_span(text, _IDENT, rng)
    if span is None:
        return text
    return text[: span[0]] + rng.choice(IDENTIFIERS) + text[span[1] :]


def operator_replace(text: bytes, rng: random.Random) -> bytes:
    ops = [m for m in _tokens(text) if m.group() in _OPERATORS]
    if not ops:
        return text
    t = rng.choice(ops)
    return text[: t.start()] + rng.choice(_OPERATORS) + text[t.end() :]


def number_replace(text: bytes, rng: random.Random) -> bytes:
    """A number literal replaced by a small random one (a near-miss of a valid parameter)."""
    span = _pick_span(text, _NUMBER, rng)
    if span is None:
        return text
    new = str(rng.choice([0, 1, 2, 3, 7, 8, 15, 16, 31, 32, 33, 48, 63, 64, 100, 128, 255, 256, 1000, 1024,
                          rng.randrange(0, 1 << 16)])).encode()
    return text[: span[0]] + new + text[span[1] :]


def extreme_number(text: bytes, rng: random.Random) -> bytes:
    """A number literal (or the value of an assignment) replaced by an extreme one."""
    value = rng.choice(EXTREME_NUMBERS)
    if rng.random() < 0.3:  # an assignment's right-hand side (params.m = ...;)
        spans = [m.span(1) for m in re.finditer(rb"=\s*([^;=\n]+);", text)]
        if spans:
            s, e = rng.choice(spans)
            return text[:s] + value + text[e:]
    span = _pick_span(text, _NUMBER, rng)
    if span is None:
        return text
    return text[: span[0]] + value + text[span[1] :]


def negate_number(text: bytes, rng: random.Random) -> bytes:
    span = _pick_span(text, _NUMBER, rng)
    if span is None:
        return text
    return text[: span[0]] + b"(-" + text[span[0] : span[1]] + b")" + text[span[1] :]


def line_delete(text: bytes, rng: random.Random) -> bytes:
    lines = text.split(b"\n")
    if len(lines) < 2:
        return text
    del lines[rng.randrange(len(lines))]
    return b"\n".join(lines)


def line_duplicate(text: bytes, rng: random.Random) -> bytes:
    lines = text.split(b"\n")
    i = rng.randrange(len(lines))
    lines.insert(i, lines[i])
    return b"\n".join(lines)


def line_swap(text: bytes, rng: random.Random) -> bytes:
    lines = text.split(b"\n")
    if len(lines) < 2:
        return text
    i, j = rng.randrange(len(lines)), rng.randrange(len(lines))
    lines[i], lines[j] = lines[j], lines[i]
    return b"\n".join(lines)


def truncate(text: bytes, rng: random.Random) -> bytes:
    return text[: rng.randrange(len(text) + 1)]


def empty(text: bytes, rng: random.Random) -> bytes:
    return rng.choice([b"", b"\n", b" \t\n\n", b"\0", b"#include \"kernel_operator.h\"\n", b"//", b"/*",
                       b"\"", b"#if 1\n", b"\xef\xbb\xbf", b"int main() {}\n", b"int main"])


def non_utf8(text: bytes, rng: random.Random) -> bytes:
    """Bytes that are not UTF-8 (or are control characters) at random places: in code, in a string, in a
    comment, in an identifier."""
    junk = rng.choice([b"\xff", b"\xfe\xff", b"\xc3", b"\x80\x80", b"\xed\xa0\x80", b"\x00", b"\x1b[31m",
                       b"\xf4\x90\x80\x80", bytes(rng.randrange(256) for _ in range(rng.randrange(1, 16)))])
    where = rng.random()
    if where < 0.25:
        code = b'\n// ' + junk + b'\n'
    elif where < 0.5:
        code = b'\nstatic const char ascsim_fuzz_s[] = "' + junk.replace(b'"', b"").replace(b"\\", b"") \
            + b'";\n'
    elif where < 0.75:
        code = junk
    else:
        code = b"\nint ident" + junk + b" = 1;\n"
    return _insert(text, rng.randrange(len(text) + 1), code)


def byte_flip(text: bytes, rng: random.Random) -> bytes:
    if not text:
        return text
    b = bytearray(text)
    for _ in range(rng.randrange(1, 4)):
        i = rng.randrange(len(b))
        b[i] ^= 1 << rng.randrange(8)
    return bytes(b)


def deep_nesting(text: bytes, rng: random.Random) -> bytes:
    """A statement nested in many braces, parentheses, ifs or templates (some past clang's limits)."""
    depth = rng.choice([50, 200, 256, 257, 1000, 10_000])
    kind = rng.choice(["braces", "parens", "ifs", "brackets", "templates", "lambdas"])
    if kind == "braces":
        code = b"{" * depth + b"volatile int ascsim_d = 1; (void)ascsim_d;" + b"}" * depth
    elif kind == "parens":
        code = b"volatile int ascsim_d = " + b"(" * depth + b"1" + b")" * depth + b"; (void)ascsim_d;"
    elif kind == "ifs":
        code = b"if (M) " * depth + b"{ volatile int ascsim_d = 1; (void)ascsim_d; }"
    elif kind == "brackets":
        code = b"int ascsim_d[1] = {0}; (void)" + b"ascsim_d[" * depth + b"0" + b"]" * depth + b";"
    elif kind == "lambdas":
        d = min(depth, 300)
        code = b"[&]() {" * d + b"volatile int ascsim_d = 1; (void)ascsim_d;" + b"}();" * d
    else:
        d = min(depth, 2000)
        return (b"template <class T> struct AscsimBox { T v; };\n"
                + text + b"\nAscsimBox<" + b"AscsimBox<" * d + b"int" + b">" * (d + 1) + b" ascsim_box;\n")
    return _insert(text, _kernel_body_point(text, rng), code + b"\n")


def endless_loop(text: bytes, rng: random.Random) -> bytes:
    """`while (1);` (or a friend) in the kernel or in main."""
    loop = rng.choice([b"while (1);", b"for (;;) {}",
                       b"while (true) { volatile int ascsim_x = 0; (void)ascsim_x; }",
                       b"ascsim_again: goto ascsim_again;", b"do {} while (1);",
                       b"for (volatile uint32_t ascsim_i = 0; ascsim_i < 0xffffffffu; ascsim_i += 0) {}",
                       b"while (1) { AscendC::PipeBarrier<PIPE_ALL>(); }",
                       b"while (1) { AscendC::SetFlag<AscendC::HardEvent::M_FIX>(EVENT_ID3); "
                       b"AscendC::WaitFlag<AscendC::HardEvent::M_FIX>(EVENT_ID3); }"])
    main = _main_body_point(text, rng)
    if main is not None and rng.random() < 0.5:
        return _insert(text, main, loop + b"\n")
    return _insert(text, _kernel_body_point(text, rng), loop + b"\n")


def recursion(text: bytes, rng: random.Random) -> bytes:
    """Infinite recursion at run time (a stack overflow), or at compile time (templates, constexpr)."""
    kind = rng.choice(["runtime", "runtime_big_frame", "template", "constexpr", "template_exp", "mutual"])
    if kind == "runtime":
        decl = (b"__aicore__ int ascsim_rec(volatile int n) { volatile int pad[16]; pad[0] = n; "
                b"return ascsim_rec(n + 1) + pad[0]; }\n")
        call = b"(void)ascsim_rec(0);\n"
    elif kind == "runtime_big_frame":
        decl = (b"__aicore__ int ascsim_rec(int n) { volatile char pad[1 << 16]; pad[n & 0xffff] = 1; "
                b"return ascsim_rec(n + 1) + pad[3]; }\n")
        call = b"(void)ascsim_rec(0);\n"
    elif kind == "mutual":
        decl = (b"int ascsim_b(int);\nint ascsim_a(int n) { return ascsim_b(n + 1) + 1; }\n"
                b"int ascsim_b(int n) { return ascsim_a(n + 1) + 1; }\n")
        call = b"(void)ascsim_a(0);\n"
    elif kind == "template":
        decl = b"template <int D> struct AscsimDeep { static const int v = AscsimDeep<D + 1>::v + 1; };\n"
        call = b"(void)AscsimDeep<0>::v;\n"
    elif kind == "constexpr":
        decl = b"constexpr int ascsim_ce(int n) { return n == -1 ? 0 : ascsim_ce(n + 1) + 1; }\n"
        call = b"constexpr int ascsim_v = ascsim_ce(0); (void)ascsim_v;\n"
    else:  # a pack that doubles at every level: exponential compile-time memory
        decl = (b"template <class... T> struct AscsimExp { "
                b"using type = typename AscsimExp<T..., T...>::type; };\n")
        call = b"(void)sizeof(typename AscsimExp<int>::type);\n"
    at = text.find(b"\nextern \"C\"")
    text = _insert(text, at + 1 if at >= 0 else len(text), decl)
    return _insert(text, _kernel_body_point(text, rng), call)


def giant_array(text: bytes, rng: random.Random) -> bytes:
    """A giant static, local or heap array (some touched), or a giant literal."""
    kind = rng.choice(["static", "static_touched", "local", "heap", "gm_alloc", "literal_string",
                       "literal_init", "local_tensor", "data_init"])
    if kind == "static":
        n = rng.choice([b"(1ull << 30)", b"(1ull << 40)", b"(1ull << 62)", b"(1u << 31)"])
        return _insert(text, 0, b"static char ascsim_big[" + n + b"];\n")
    if kind == "static_touched":
        n = rng.choice([b"(1u << 30)", b"(3u << 29)", b"(1ull << 31)"])
        code = (b"for (size_t ascsim_i = 0; ascsim_i < sizeof(ascsim_big); ascsim_i += 4096) "
                b"ascsim_big[ascsim_i] = 1;\n")
        text = _insert(text, 0, b"static char ascsim_big[" + n + b"];\n#include <cstddef>\n")
        return _insert(text, _kernel_body_point(text, rng), code)
    if kind == "local":
        n = rng.choice([b"(1 << 24)", b"(1 << 28)", b"(1u << 31)"])
        code = (b"volatile char ascsim_big[" + n + b"]; ascsim_big[0] = 1; "
                b"ascsim_big[sizeof(ascsim_big) - 1] = 2;\n")
        return _insert(text, _kernel_body_point(text, rng), code)
    if kind == "heap":
        n = rng.choice([b"(1ull << 30)", b"(3ull << 30)", b"(1ull << 40)", b"((size_t)-1)"])
        code = (b"{ char* ascsim_p = new char[" + n + b"]; for (size_t ascsim_i = 0; ascsim_i < " + n +
                b"; ascsim_i += 4096) ascsim_p[ascsim_i] = 1; delete[] ascsim_p; }\n")
        main = _main_body_point(text, rng)
        return _insert(text, main if main is not None else _kernel_body_point(text, rng), code)
    if kind == "gm_alloc":
        main = _main_body_point(text, rng)
        n = rng.choice([b"(1ull << 30)", b"(3ull << 30)", b"(4ull << 30)", b"(1ull << 40)", b"((size_t)-1)"])
        code = (b"{ void* ascsim_g = nullptr; if (aclrtMalloc(&ascsim_g, " + n
                + b", ACL_MEM_MALLOC_HUGE_FIRST) == ACL_SUCCESS) { aclrtMemset(ascsim_g, " + n + b", 1, " + n
                + b"); } }\n")
        if main is None:
            return text
        return _insert(text, main, code)
    if kind == "literal_string":
        n = rng.choice([10_000, 1_000_000])
        code = b'static const char ascsim_lit[] = "' + b"x" * n + b'";\n'
        return _insert(text, 0, code)
    if kind == "literal_init":
        n = rng.choice([10_000, 200_000])
        code = b"static const int ascsim_init[] = {" + b"1," * n + b"};\n"
        return _insert(text, 0, code)
    if kind == "data_init":  # initialised data: the executable itself would be huge
        n = rng.choice([b"(1u << 28)", b"(1u << 30)", b"(1ull << 33)"])
        return _insert(text, 0, b"static char ascsim_big[" + n + b"] = {1};\n")
    # a LocalTensor far bigger than its memory
    n = rng.choice([b"(1u << 20)", b"(1u << 31)", b"0xffffffffu"])
    code = b"AscendC::LocalTensor<half> ascsim_t(AscendC::TPosition::A1, 0, " + n + b");\n"
    return _insert(text, _kernel_body_point(text, rng), code)


def exponential_macro(text: bytes, rng: random.Random) -> bytes:
    """A macro whose expansion doubles at every level (2^levels tokens)."""
    levels = rng.choice([10, 20, 26, 30, 40])
    lines = [b"#define ASCSIM_M0 1+"]
    for i in range(1, levels + 1):
        lines.append(b"#define ASCSIM_M%d ASCSIM_M%d ASCSIM_M%d" % (i, i - 1, i - 1))
    code = b"\n".join(lines) + b"\n"
    use = b"volatile int ascsim_m = ASCSIM_M%d 0; (void)ascsim_m;\n" % levels
    text = _insert(text, 0, code)
    return _insert(text, _kernel_body_point(text, rng), use)


def include_bomb(text: bytes, rng: random.Random) -> bytes:
    """Includes of what cannot be included: the file itself (recursion), devices, missing files."""
    what = rng.choice([b"__FILE__", b'"/dev/zero"', b'"/dev/urandom"', b'"/proc/self/mem"', b'"nope.h"',
                       b"<nope>", b'"/"', b'"."'])
    return _insert(text, 0, b"#include " + what + b"\n")


def api_misuse(text: bytes, rng: random.Random) -> bytes:
    """A call of the modelled API with wild arguments."""
    code = rng.choice([
        b"AscendC::SetFlag<AscendC::HardEvent::MTE2_MTE1>(9);\n",
        b"AscendC::WaitFlag<AscendC::HardEvent::MTE2_MTE1>((event_t)-1);\n",
        b"AscendC::WaitFlag<AscendC::HardEvent::M_FIX>(EVENT_ID5);\n",
        b"AscendC::SyncAll();\n",
        b"AscendC::CrossCoreWaitFlag(3);\n",
        b"AscendC::CrossCoreSetFlag<0, PIPE_FIX>(99);\n",
        b"{ AscendC::LocalTensor<half> t(AscendC::TPosition::A1, 0xfffffff0u, 16); (void)t.GetValue(0); }\n",
        b"{ AscendC::LocalTensor<half> t(AscendC::TPosition::A1, 0, 16); t.SetValue(-1, half(1.0)); }\n",
        b"{ AscendC::LocalTensor<float> t(AscendC::TPosition::CO1, 0, 256); "
        b"AscendC::Fill(t, AscendC::InitConstValueParams<float>(65535, 65535, 65535, NAN)); }\n",
        b"{ AscendC::LocalTensor<half> t(AscendC::TPosition::A2, 0, 256); "
        b"AscendC::InitConstValueParams<half> p; p.repeatTimes = 0xffff; p.initValue = half(0.0 / 0.0); "
        b"AscendC::Fill(t, p); }\n",
        b"{ AscendC::GlobalTensor<half> g; g.SetGlobalBuffer((__gm__ half*)0x1000, 16); "
        b"(void)g.GetValue(0); }\n",
        b"{ AscendC::GlobalTensor<half> g; g.SetGlobalBuffer((__gm__ half*)nullptr, 1ull << 40); "
        b"AscendC::LocalTensor<half> t(AscendC::TPosition::A1, 0, 16); AscendC::DataCopy(t, g, 16); }\n",
        b"{ AscendC::TPipe p2; AscendC::TQue<AscendC::TPosition::A1, 1> q; "
        b"p2.InitBuffer(q, 200, 1 << 30); }\n",
        b"{ AscendC::TPipe p2; AscendC::TBuf<AscendC::TPosition::A1> tb; p2.InitBuffer(tb, 0xffffffffu); "
        b"(void)tb.Get<half>(); }\n",
        b"AscendC::DumpTensor(a1, 1, 0xffffffffu);\n",
        b"{ AscendC::MmadParams p; p.m = 0; p.n = 0; p.k = 0; AscendC::Mmad(c1, a2, b2, p); }\n",
        b"{ AscendC::MmadParams p; p.m = 65535; p.n = 65535; p.k = 65535; AscendC::Mmad(c1, a2, b2, p); }\n",
        b"{ AscendC::LoadData2DParams p; p.repeatTimes = 255; p.srcStride = 65535; p.startIndex = 65535; "
        b"AscendC::LoadData(a2, a1, p); }\n",
        b"{ AscendC::DataCopy(a1, aGM, AscendC::Nd2NzParams{65535, 65535, 65535, 65535, 65535, 65535, 65535, "
        b"65535}); }\n",
        b"{ AscendC::FixpipeParamsV220 p; p.nSize = 65535; p.mSize = 65535; p.srcStride = 0; "
        b"p.dstStride = 0; "
        b"AscendC::Fixpipe(cGM, c1, p); }\n",
        b"{ AscendC::DataCopy(cGM, c1, 1u << 31); }\n",
        b"mm<<<1, nullptr, nullptr>>>(a, b, c);\n",
        b"abort();\n",
        b"exit(7);\n",
        b"*(volatile int*)nullptr = 1;\n",
        b"{ volatile int z = 0; volatile int q = 1 / z; (void)q; }\n",
        b"__builtin_trap();\n",
        b"{ int* p = (int*)a; p[-100000] = 3; }\n",
        b"{ static char s[16]; for (int i = 0; i < (1 << 30); i += 4096) s[i] = 1; }\n",
        b"raise(SIGKILL);\n",
        b"kill(0, SIGTERM);\n",
        b"close(3); close(4); close(5);\n",
        b"{ for (int fd = 0; fd < 64; ++fd) { static const char junk[] = \"\\x10\\0\\0\\0CCCCCCCCCCCCCCCC\"; "
        b"(void)!write(fd, junk, sizeof(junk)); } }\n",
        b"fork();\n",
        b"{ char* e = getenv(\"ASCSIM_BRIDGE\"); if (e) { e[0] = 'x'; } }\n",
    ])
    heads = b"#include <csignal>\n#include <cstdlib>\n#include <unistd.h>\n"
    main = _main_body_point(text, rng)
    at = main if (main is not None and rng.random() < 0.3) else _kernel_body_point(text, rng)
    return heads + _insert(text, at, code)


def launch_misuse(text: bytes, rng: random.Random) -> bytes:
    """The launch's blockDim (or its whole configuration) replaced by something odd."""
    m = re.search(rb"<<<([^>]*)>>>", text)
    if not m:
        return text
    cfg = rng.choice([b"0, nullptr, stream", b"-1, nullptr, stream", b"100000, nullptr, stream",
                      b"4294967295u, nullptr, stream", b"1536, nullptr, stream", b"1537, nullptr, stream",
                      b"48, nullptr, stream", b"1", b"", b"1, 2, 3, 4", b"1.5, nullptr, stream",
                      b"\"x\", nullptr, stream", b"1, nullptr, (void*)1"])
    return text[: m.start(1)] + cfg + text[m.end(1) :]


MUTATORS: dict[str, Mutator] = {
    "token_delete": token_delete, "token_duplicate": token_duplicate, "token_swap": token_swap,
    "token_move": token_move, "identifier_replace": identifier_replace, "operator_replace": operator_replace,
    "number_replace": number_replace, "extreme_number": extreme_number, "negate_number": negate_number,
    "line_delete": line_delete, "line_duplicate": line_duplicate, "line_swap": line_swap,
    "truncate": truncate, "empty": empty, "non_utf8": non_utf8, "byte_flip": byte_flip,
    "deep_nesting": deep_nesting, "endless_loop": endless_loop, "recursion": recursion,
    "giant_array": giant_array, "exponential_macro": exponential_macro, "include_bomb": include_bomb,
    "api_misuse": api_misuse, "launch_misuse": launch_misuse,
}
#: Mutators whose result is usually still a compilable program (so most cases reach the run).
RUNNABLE = ("number_replace", "extreme_number", "negate_number", "api_misuse", "endless_loop", "recursion",
            "giant_array", "launch_misuse", "deep_nesting")


@dataclass(frozen=True)
class Case:
    """One fuzz case: a seed, the mutators applied to it, the random seed; and the options it runs with."""

    seed_name: str
    mutators: tuple[str, ...]
    rng_seed: int
    blocks: int | None = None

    def text(self) -> bytes:
        rng = random.Random(self.rng_seed)
        data = SEEDS[self.seed_name].encode()
        for name in self.mutators:
            data = MUTATORS[name](data, rng)
        return data

    @property
    def label(self) -> str:
        b = f", blocks={self.blocks}" if self.blocks is not None else ""
        return f"Case({self.seed_name!r}, {self.mutators!r}, {self.rng_seed}{b})"


def random_case(rng: random.Random) -> Case:
    """A case: a random seed, one to three mutators (biased to those that keep the program runnable), now and
    then an odd --blocks."""
    seed_name = rng.choice(sorted(SEEDS))
    n = rng.choice([1, 1, 1, 2, 2, 3])
    names = []
    for _ in range(n):
        names.append(rng.choice(RUNNABLE) if rng.random() < 0.5 else rng.choice(sorted(MUTATORS)))
    blocks = None
    if seed_name != "program" and rng.random() < 0.1:
        blocks = rng.choice([0, -1, 2, 24, 48, 1536, 1537, 1 << 31, 10 ** 12])
    return Case(seed_name, tuple(names), rng.randrange(1 << 32), blocks)


# -- running one case, measured ---------------------------------------------------------------------------

#: The wrapper: becomes a child subreaper, runs argv, samples the tree's memory, kills it at the deadline,
#: reaps every descendant, and prints one JSON line on the report pipe. RSS of the tree = the sum over its
#: processes of their private and file-backed resident pages, plus the largest shared-memory (memfd)
#: residency of any one of them: the GM memfd is mapped by both the engine and the program, counted once.
_WRAPPER = r"""
import ctypes, json, os, signal, subprocess, sys, time
ctypes.CDLL(None, use_errno=True).prctl(36, 1, 0, 0, 0)  # PR_SET_CHILD_SUBREAPER
report_fd = int(sys.argv[1]); timeout = float(sys.argv[2]); argv = sys.argv[3:]
me = os.getpid()
out = os.fdopen(report_fd, "w")
t0 = time.monotonic()
p = subprocess.Popen(argv, stdin=subprocess.DEVNULL)
def tree():
    kids = {}
    for d in os.listdir("/proc"):
        if d.isdigit():
            try:
                with open(f"/proc/{d}/stat", "rb") as f:
                    s = f.read()
                kids.setdefault(int(s[s.rfind(b")") + 2 :].split()[1]), []).append(int(d))
            except OSError:
                pass
    todo, seen = [me], []
    while todo:
        for c in kids.get(todo.pop(), []):
            seen.append(c); todo.append(c)
    return seen
def rss(pids):
    private = shared = 0
    for pid in pids:
        try:
            with open(f"/proc/{pid}/status") as f:
                st = dict(ln.split(":", 1) for ln in f if ":" in ln)
        except OSError:
            continue
        kb = lambda k: int(st.get(k, "0 kB").split()[0])
        private += kb("RssAnon") + kb("RssFile")
        shared = max(shared, kb("RssShmem"))
    return (private + shared) * 1024
peak = 0; timed_out = False; nproc = 0; rc = None
while True:
    pids = tree()
    nproc = max(nproc, len(pids))
    peak = max(peak, rss(pids))
    rc = p.poll()
    if rc is not None:
        break
    if time.monotonic() - t0 > timeout:
        timed_out = True
        break
    time.sleep(0.02)
elapsed = time.monotonic() - t0
for _ in range(50):  # the command ended (or its time is up): nothing it started may outlive it
    pids = tree()
    if not pids:
        break
    for pid in pids:
        try:
            os.kill(pid, signal.SIGKILL)
        except OSError:
            pass
    try:
        while os.waitpid(-1, os.WNOHANG)[0] > 0:
            pass
    except ChildProcessError:
        pass
    time.sleep(0.02)
if rc is None:
    rc = p.wait()
import resource
maxrss = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss * 1024
out.write(json.dumps({"rc": rc, "elapsed": elapsed, "peak_rss": peak, "max_rss": maxrss,
                      "timed_out": timed_out, "processes": nproc, "stray": len(tree())}))
out.close()
"""


@dataclass
class Outcome:
    """What one measured run did."""

    rc: int
    elapsed: float
    peak_rss: int  # bytes, the whole tree (sampled)
    max_rss: int  # bytes, the largest single process (getrusage of the reaped children)
    timed_out: bool
    stdout: str
    stderr: str

    @property
    def memory(self) -> int:
        return max(self.peak_rss, self.max_rss)

    @property
    def kind(self) -> str:
        """A short class of the outcome, for the summary table."""
        if self.timed_out:
            return "OUTER-TIMEOUT"
        if self.rc == 0:
            return "ok"
        err = self.stderr
        for key, what in (("internal error", "INTERNAL"), ("Traceback", "TRACEBACK"),
                          ("does not preprocess", "build: preprocess"),
                          ("does not compile", "build: compile"),
                          ("the compiler ran past", "build: compile timeout"),
                          ("the compiler ", "build: compiler limit"),
                          ("has no main", "build: no main"), ("__global__", "build: entry"),
                          ("ran past its timeout", "run: timeout"), ("SIGSEGV", "run: SIGSEGV"),
                          ("SIGABRT", "run: SIGABRT"), ("SIGFPE", "run: SIGFPE"), ("SIGILL", "run: SIGILL"),
                          ("SIGKILL", "run: SIGKILL"), ("killed by", "run: signal"),
                          ("exited with status", "run: exit status"), ("deadlock", "run: deadlock"),
                          ("is not modelled", "run: not modelled"), ("not modelled", "run: not modelled"),
                          ("broke ascsim's bridge", "run: bridge"), ("--gm", "run: binding")):
            if key in err:
                return what
        return "run: refused" if self.rc == 2 else f"rc={self.rc}"

    def failures(self, limit_bytes: int = 2 << 30) -> list[str]:
        """Why this outcome breaks the contract ([] when it does not)."""
        bad = []
        if self.timed_out:
            bad.append(f"ran past the outer timeout ({self.elapsed:.1f} s)")
        elif self.rc not in (0, 1, 2):
            bad.append(f"exit status {self.rc}")
        if "Traceback" in self.stderr:
            bad.append("a Python traceback")
        if "internal error" in self.stderr:
            bad.append("an internal error")
        if self.memory >= limit_bytes:
            bad.append(f"used {self.memory / 2**30:.2f} GiB")
        return bad


def _drain(stream: Any, keep: int, into: list[bytes]) -> None:
    """Read `stream` to its end, keeping its first and last `keep` bytes (a program may print forever)."""
    head = bytearray()
    tail = bytearray()
    dropped = 0
    for chunk in iter(lambda: stream.read1(1 << 16), b""):
        if len(head) < keep:
            take = chunk[: keep - len(head)]
            head += take
            chunk = chunk[len(take) :]
        tail += chunk
        if len(tail) > keep:
            dropped += len(tail) - keep
            del tail[: len(tail) - keep]
    into.append(bytes(head) + (f"\n[... {dropped} bytes ...]\n".encode() if dropped else b"") + bytes(tail))


def run_measured(argv: list[str], timeout: float, env: dict[str, str] | None = None,
                 cwd: str | Path | None = None, keep: int = 1 << 16) -> Outcome:
    """Run `argv` (see the wrapper above); kill its whole tree after `timeout` seconds. stdout and stderr
    keep their first and last `keep` bytes."""
    r_fd, w_fd = os.pipe()
    p = subprocess.Popen([sys.executable, "-c", _WRAPPER, str(w_fd), str(timeout), *argv],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL, env=env,
                         cwd=cwd, pass_fds=(w_fd,))
    os.close(w_fd)
    outs: list[bytes] = []
    errs: list[bytes] = []
    threads = [threading.Thread(target=_drain, args=(p.stdout, keep, outs), daemon=True),
               threading.Thread(target=_drain, args=(p.stderr, keep, errs), daemon=True)]
    for t in threads:
        t.start()
    with os.fdopen(r_fd) as f:
        report = f.read()
    p.wait()
    for t in threads:
        t.join()
    stdout = outs[0].decode("utf-8", "replace") if outs else ""
    stderr = errs[0].decode("utf-8", "replace") if errs else ""
    if not report:
        raise RuntimeError(f"the measuring wrapper failed: {stderr[-2000:]}")
    r = json.loads(report)
    return Outcome(r["rc"], r["elapsed"], r["peak_rss"], r["max_rss"], r["timed_out"], stdout, stderr)


def cli_argv(path: Path, case: Case, folder: Path, timeout: float, compile_timeout: float) -> list[str]:
    """The command line of a case: `python -m ascsim.cli run FILE --chip a2 ...` (+ --gm for a kernel)."""
    argv = [sys.executable, "-m", "ascsim.cli", "run", str(path), "--chip", "a2", "-q", "--timeout",
            str(timeout), "--compile-timeout", str(compile_timeout)]
    if case.seed_name != "program":
        argv += write_inputs(folder)
    if case.blocks is not None:
        argv += ["--blocks", str(case.blocks)]
    return argv


#: The Python API's side of a case (a subprocess too: a case may hang or crash its process): load_kernel /
#: load_program and run; an AscsimError is the contract (exit 2, one line), anything else a traceback.
_API = r"""
import sys
import numpy as np
from ascsim.base.errors import AscsimError
from ascsim.program import Output, load_kernel, load_program
path, kind, timeout, compile_timeout, blocks, a_path, b_path = sys.argv[1:8]
try:
    if kind == "program":
        run = load_program(path, "a2", compile_timeout=float(compile_timeout)).run(timeout=float(timeout),
                                                                                    capture=True)
    else:
        prog = load_kernel(path, "a2", compile_timeout=float(compile_timeout))
        gm = {"a": np.load(a_path), "b": np.load(b_path), "c": Output("float", (32, 32))}
        if not prog.built.kernel_only:
            gm = {}
        run = prog.run(gm=gm, blocks=int(blocks), timeout=float(timeout), capture=True)
    print(f"api: ran, status {run.returncode}, {len(run.trace)} calls")
except AscsimError as e:
    print(f"ascsim: {type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}", file=sys.stderr)
    sys.exit(2)
"""


def api_argv(path: Path, case: Case, folder: Path, timeout: float, compile_timeout: float) -> list[str]:
    """The Python API's run of a case (load_kernel / load_program, then run), as a command line."""
    write_inputs(folder)
    kind = "program" if case.seed_name == "program" else "kernel"
    blocks = case.blocks if case.blocks is not None else 1
    return [sys.executable, "-c", _API, str(path), kind, str(timeout), str(compile_timeout), str(blocks),
            str(folder / "a.npy"), str(folder / "b.npy")]


# -- hand-picked extremes ----------------------------------------------------------------------------------


def in_kernel(text: str, code: str) -> str:
    """`code` as the first statements of the seed's __global__ function body (after its GM setup for the
    plain kernels)."""
    anchor = "    cGM.SetGlobalBuffer((__gm__ float*)c, M * N);\n"
    at = text.rfind(anchor)
    if at < 0 or "op.Init" in text:  # the TQue seed: first thing in the entry
        m = re.search(r"__global__[^{]*\{\n", text)
        assert m is not None
        return text[: m.end()] + code + "\n" + text[m.end() :]
    return text[: at + len(anchor)] + code + "\n" + text[at + len(anchor) :]


def in_main(text: str, code: str) -> str:
    m = re.search(r"int main\([^)]*\)\n\{\n", text)
    assert m is not None
    return text[: m.end()] + code + "\n" + text[m.end() :]


def exp_macro(levels: int) -> str:
    return "#define ASCSIM_M0 1+\n" + "".join(f"#define ASCSIM_M{i} ASCSIM_M{i - 1} ASCSIM_M{i - 1}\n"
                                              for i in range(1, levels + 1))


@dataclass(frozen=True)
class Extreme:
    """A hand-picked case: its source, the seed whose command line it runs with, extra options, and what
    its one-line outcome must say (`expect`: substrings, any of which; "" for a clean exit 0)."""

    source: bytes
    seed_name: str
    expect: tuple[str, ...]
    options: tuple[str, ...] = ()
    timeout: float | None = None  # its --timeout, when it must run into it (else the caller's)


_K = KERNEL_BARRIER
_P = PROGRAM
_RECURSIVE = ("__aicore__ int rec(volatile int n) { volatile int p[16]; p[0] = n; "
              'return rec(n + 1) + p[0]; }\nextern "C"')
_NAN_FILLS = ("{ AscendC::LocalTensor<float> t(AscendC::TPosition::A1, 0, 256); "
              "AscendC::Fill(t, AscendC::InitConstValueParams<float>(1, 1, 0, NAN)); "
              "AscendC::LocalTensor<half> h(AscendC::TPosition::B2, 0, 256); "
              "AscendC::Fill(h, AscendC::InitConstValueParams<half>(1, 1, 0, half(0.0 / 0.0))); }")
_HEAP_3G = ("{ char* p = new char[3ull << 30]; for (size_t i = 0; i < (3ull << 30); i += 4096) p[i] = 1; "
            'std::printf("%d\\n", p[4096 * 1000]); }')
_GM_3G = ("{ void* g = nullptr; if (aclrtMalloc(&g, 3ull << 30, ACL_MEM_MALLOC_HUGE_FIRST) == ACL_SUCCESS) "
          '{ aclrtMemset(g, 3ull << 30, 1, 3ull << 30); } else { std::printf("refused\\n"); } }')
_COMPILER_STOPS = ("ran out of the memory ascsim gives it", "the compiler ran past")

EXTREMES: dict[str, Extreme] = {
    "empty_file": Extreme(b"", "kernel_barrier", ("no __global__ kernel function found",)),
    "non_utf8_code": Extreme(b"\xff\xfe\x80\xc3" + _K.encode(), "kernel_barrier", ("does not",)),
    # (found by this fuzzer: a non-UTF-8 byte in a string literal broke the build's cache key)
    "non_utf8_string_literal": Extreme(_K.encode().replace(
        b"constexpr uint32_t FRAC", b'static const char* ascsim_s = "\xff\xc3(";\nconstexpr uint32_t FRAC'),
        "kernel_barrier", ("",)),
    "literal_of_a_million": Extreme(
        ('static const char ascsim_lit[] = "' + "x" * 10**6 + '";\n' + _K).encode(), "kernel_barrier", ("",)),
    "exponential_macro": Extreme(
        (exp_macro(40) + in_kernel(_K, "volatile int q = ASCSIM_M40 0; (void)q;")).encode(), "kernel_barrier",
        _COMPILER_STOPS),
    "template_depth_bomb": Extreme(
        ("template <int D> struct Deep { static const int v = Deep<D + 1>::v + 1; };\n"
         + in_kernel(_K, "(void)Deep<0>::v;")).encode(), "kernel_barrier",
        ("recursive template instantiation exceeded maximum depth",)),
    "template_exponential_bomb": Extreme(
        ("template <class... T> struct Exp { using type = typename Exp<T..., T...>::type; };\n"
         + in_kernel(_K, "(void)sizeof(typename Exp<int>::type);")).encode(), "kernel_barrier",
        (*_COMPILER_STOPS, "does not compile")),
    "while_1_in_kernel": Extreme(in_kernel(_K, "while (1);").encode(), "kernel_barrier",
                                 ("ran past its timeout (2 s",), timeout=2),
    "while_1_in_main": Extreme(in_main(_P, "while (1);").encode(), "program", ("ran past its timeout (2 s",),
                               timeout=2),
    "infinite_recursion": Extreme(
        in_kernel(_K.replace('extern "C"', _RECURSIVE, 1), "(void)rec(0);").encode(), "kernel_barrier",
        ("SIGSEGV",)),
    "static_array_of_1_gib": Extreme(
        ("static char ascsim_big[1ull << 30];\n" + in_kernel(_K, "ascsim_big[12345] = 1;")).encode(),
        "kernel_barrier", ("",)),
    "initialised_array_of_1_gib": Extreme(
        ("static volatile char ascsim_big[1u << 30] = {1};\n"
         + in_kernel(_K, "ascsim_big[5] = 2; if (ascsim_big[7] == 3) return;")).encode(),
        "kernel_barrier", ("would pass ascsim's limit",)),
    "heap_touched_past_the_limit": Extreme(in_main(_P, _HEAP_3G).encode(), "program", ("SIGABRT",)),
    "gm_of_3_gib": Extreme(in_main(_P, _GM_3G).encode(), "program", ("",)),
    "huge_block_dim_launch": Extreme(
        _P.replace("mm<<<1, nullptr, stream>>>", "mm<<<100000, nullptr, stream>>>").encode(), "program",
        ("more than ascsim runs",)),
    "negative_mmad_m": Extreme(_K.replace("params.m = M;", "params.m = -1;").encode(), "kernel_barrier",
                               ("but got 65535",)),
    "nan_literals": Extreme(("#include <cmath>\n" + in_kernel(_K, _NAN_FILLS)).encode(), "kernel_barrier",
                            ("",)),
    "deep_nesting": Extreme(
        in_kernel(_K, "volatile int q = " + "(" * 10_000 + "1" + ")" * 10_000 + "; {" + "{" * 10_000
                  + "}" * 10_000 + "}").encode(), "kernel_barrier", ("bracket nesting level exceeded",)),
    "exit_with_the_runtime_status": Extreme(
        ("#include <cstdlib>\n" + in_kernel(_K, "std::exit(86);")).encode(), "kernel_barrier",
        ("exited with status 86",)),
}
