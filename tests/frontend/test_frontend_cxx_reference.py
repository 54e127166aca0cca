"""The interpreter's integer arithmetic against a real C++ compiler: random expressions over variables of
every integer width and signedness (promotion, the usual arithmetic conversions, unsigned wrap, truncating
division, shifts, casts, comparisons) are compiled with g++ and evaluated by the front-end; the 64-bit
results must agree bit for bit. Values are kept small where a signed result could overflow (undefined in
C++). Skipped when no g++ is installed.
"""

from __future__ import annotations

import random
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest

from ascsim.frontend import Kernel

TYPES = ["int8_t", "uint8_t", "int16_t", "uint16_t", "int32_t", "uint32_t", "int64_t", "uint64_t"]
OPS = ["+", "-", "*", "/", "%", "&", "|", "^", "<", ">=", "=="]


def _expr(rng: random.Random, names: list[str], depth: int) -> str:
    r = rng.random()
    if depth == 0 or r < 0.3:
        if rng.random() < 0.25:
            return str(rng.randint(0, 200)) + rng.choice(["", "u", "L", "UL"])
        return rng.choice(names)
    if r < 0.4:
        return f"static_cast<{rng.choice(TYPES)}>({_expr(rng, names, depth - 1)})"
    if r < 0.47:
        return f"({_expr(rng, names, depth - 1)} << ({rng.choice(names)} & 7))"
    if r < 0.52:
        return f"({_expr(rng, names, depth - 1)} >> ({rng.choice(names)} & 7))"
    op = rng.choice(OPS)
    a, b = _expr(rng, names, depth - 1), _expr(rng, names, depth - 1)
    if op in ("/", "%"):
        b = f"(({b}) | 1)"  # never zero
    return f"({a} {op} {b})"


@pytest.mark.skipif(shutil.which("g++") is None, reason="needs g++")
def test_integer_expressions_match_gcc(tmp_path: Path) -> None:
    rng = random.Random(20240601)
    decls, names = [], []
    for i, t in enumerate(TYPES * 2):
        signed = not t.startswith("u")
        v = rng.randint(-100, 100) if signed else rng.randint(0, 2 ** int(t[4 if t[0] == "u" else 3:-2]) - 1)
        names.append(f"v{i}")
        decls.append(f"{t} v{i} = {v};")
    exprs = [_expr(rng, names, 2) for _ in range(300)]
    body = "\n".join(f"    out[{i}] = static_cast<int64_t>({e});" for i, e in enumerate(exprs))
    cxx = tmp_path / "ref.cpp"
    n = len(exprs)
    printer = f'    for (int i = 0; i < {n}; ++i) std::printf("%lld\\n", (long long)out[i]);'
    cxx.write_text("#include <cstdint>\n#include <cstdio>\nint main() {\n"
                   f"    int64_t out[{n}];\n    " + "\n    ".join(decls) + f"\n{body}\n{printer}\n}}\n")
    exe = tmp_path / "ref"
    subprocess.run(["g++", "-std=c++17", "-O0", "-o", str(exe), str(cxx)], check=True)
    printed = subprocess.run([str(exe)], capture_output=True, text=True, check=True).stdout
    want = [int(x) for x in printed.split()]

    kernel = ('extern "C" __global__ __aicore__ void k(GM_ADDR a)\n{\n'
              f"    AscendC::LocalTensor<int64_t> out(AscendC::TPosition::A1, 0, {len(exprs)});\n    "
              + "\n    ".join(decls) + "\n"
              + "\n".join(f"    out.SetValue({i}, static_cast<int64_t>({e}));" for i, e in enumerate(exprs))
              + "\n}\n")
    run = Kernel("k.cpp", "a2", text_=kernel).run()
    got = run.core.memory("L1").data[: 8 * len(exprs)].view(np.int64).tolist()
    bad = [(exprs[i], want[i], got[i]) for i in range(len(exprs)) if want[i] != got[i]]
    assert not bad, bad[:5]
