"""`ascsim cpp` (ascsim.scenario.cpp): the printed C++ rebuilds the struct the scenario step runs with.

The C++ is read back by a small parser written here (brace initialisers, `uint8_t x[4] = {...}` arrays,
`var.field = v;` and `var.SetX(v);` lines, casts such as `(half)0.5`, hex words). Values go through the
positional constructors (= C++ constructor order), so a wrong field order fails. The reverse direction
pastes brace initialisers copied from the docs (seed 001 v1 example; LoadData_3D_BitMode.md V2 example)
into the same constructors, and the bit-mode config words are checked against the doc's bit layout
(LoadData_3D_BitMode.md 表4/表5), written out by hand below.
"""

from __future__ import annotations

import ast
import dataclasses
import re
import subprocess
import sys
from pathlib import Path

import pytest
from support.paths import EXAMPLES as EXAMPLES_DIR

from ascsim import params as P
from ascsim.params.copy import QuantMode_t
from ascsim.scenario import ScenarioError, load_scenario, step_config, step_struct
from ascsim.scenario.cpp import scenario_to_cpp, step_to_cpp

EXAMPLES = sorted(EXAMPLES_DIR.glob("*.toml"))
EXAMPLES += sorted(EXAMPLES_DIR.glob("*.json"))


# -- a small reader for the printed C++ -------------------------------------------------------------------


def _split_top(s: str) -> list[str]:
    """Split at commas outside (), {}, <>."""
    out, depth, cur = [], 0, ""
    for ch in s:
        if ch in "({<":
            depth += 1
        elif ch in ")}>":
            depth -= 1
        if ch == "," and depth == 0:
            out.append(cur.strip())
            cur = ""
        else:
            cur += ch
    if cur.strip():
        out.append(cur.strip())
    return out


def _arith(expr: str, env: dict[str, object]) -> int | float:
    """Evaluate arithmetic such as `H * W` or `-1` (numbers, names from env, + - * / only)."""
    node = ast.parse(expr, mode="eval").body

    def ev(n: ast.AST) -> int | float:
        if isinstance(n, ast.Constant) and isinstance(n.value, (int, float)):
            return n.value
        if isinstance(n, ast.Name) and isinstance(env.get(n.id), (int, float)):
            return env[n.id]  # type: ignore[return-value]
        if isinstance(n, ast.UnaryOp) and isinstance(n.op, ast.USub):
            return -ev(n.operand)
        if isinstance(n, ast.BinOp):
            a, b = ev(n.left), ev(n.right)
            ops = {ast.Add: a + b, ast.Sub: a - b, ast.Mult: a * b}
            if type(n.op) in ops:
                return ops[type(n.op)]
            if isinstance(n.op, ast.Div):
                return a / b
        raise ValueError(f"cannot evaluate {expr!r}")

    return ev(node)


def cpp_value(tok: str, env: dict[str, object]) -> object:
    """A C++ expression from the printer or the docs as a Python value."""
    tok = tok.strip()
    if tok in ("true", "false"):
        return tok == "true"
    if tok.startswith("{"):
        return [cpp_value(t, env) for t in _split_top(tok[1:-1])]
    m = re.fullmatch(r"static_cast<\w+>\((.*)\)", tok)
    if m:
        return cpp_value(m.group(1), env)
    m = re.fullmatch(r"\((\w+)\)\s*\(?(.*?)\)?", tok)  # (half)0.5, (half)(0), (int8_t)3
    if m:
        return cpp_value(m.group(2), env)
    m = re.fullmatch(r"AscendC::QuantMode_t::(\w+)", tok)
    if m:
        return QuantMode_t[m.group(1)]
    if re.fullmatch(r"-?0x[0-9a-fA-F]+", tok):
        return int(tok, 16)
    if re.fullmatch(r"[A-Za-z_]\w*", tok):
        return env[tok]
    return _arith(tok, env)


class Cpp:
    """What a printed step declares and calls."""

    def __init__(self, text: str, env: dict[str, object] | None = None) -> None:
        self.env: dict[str, object] = dict(env or {})
        self.structs: dict[str, tuple[str, str | None, list | None]] = {}  # var -> (type, T, brace values)
        self.assign: dict[str, list[tuple[str, object]]] = {}  # var -> [(field path, value)]
        self.setters: dict[str, list[tuple[str, object]]] = {}  # var -> [(SetX suffix, value)]
        self.calls: list[tuple[str, str | None, list[str]]] = []  # (function, template args, args)
        for line in text.splitlines():
            line = line.split("//")[0].strip()
            if not line or line in "{}":
                continue
            self._line(line)

    def _line(self, line: str) -> None:
        decl = r"(?:static constexpr )?(?:AscendC::)?(\w+)\s+(\w+)(?:\[\d+\])?\s*=\s*(\{.*\});"
        m = re.fullmatch(decl, line)
        if m:  # uint8_t padList[4] = {...};  static constexpr ...IsResetLoad3dConfig cfg = {false, true};
            self.env[m.group(2)] = cpp_value(m.group(3), self.env)
            return
        m = re.fullmatch(r"AscendC::(\w+)(?:<(.*)>)?\s+(\w+)(\{.*\})?;", line)
        if m:
            vals = [cpp_value(t, self.env) for t in _split_top(m.group(4)[1:-1])] if m.group(4) else None
            self.structs[m.group(3)] = (m.group(1), m.group(2), vals)
            return
        m = re.fullmatch(r"(\w+)\.([\w.]+)\s*=\s*(.*);", line)
        if m:
            self.assign.setdefault(m.group(1), []).append((m.group(2), cpp_value(m.group(3), self.env)))
            return
        m = re.fullmatch(r"(\w+)\.Set(\w+)\((.*)\);", line)
        if m:
            self.setters.setdefault(m.group(1), []).append((m.group(2), cpp_value(m.group(3), self.env)))
            return
        m = re.fullmatch(r"AscendC::(\w+)(?:<(.*)>)?\((.*)\);", line)
        assert m, f"unexpected C++ line: {line}"
        self.calls.append((m.group(1), m.group(2), _split_top(m.group(3))))

    def build(self, var: str) -> object:
        """The struct `var` rebuilt through the Python twin of the C++ constructor / setters."""
        tname, targ, vals = self.structs[var]
        obj = getattr(P, tname)(*(vals or []))
        for path, v in self.assign.get(var, []):
            *outer, last = path.split(".")
            target = obj
            for name in outer:
                if getattr(target, name) is None:  # C++ FixpipeParamsArch3510<layout>::params always exists
                    sub = P.Nz2DnParams if targ and targ.endswith("COLUMN_MAJOR") else P.Nz2NdParams
                    setattr(target, name, sub())
                target = getattr(target, name)
            setattr(target, last, v)
        for suffix, v in self.setters.get(var, []):
            getattr(obj, "Set" + suffix)(v)
        return obj


# -- round trips over scenarios ---------------------------------------------------------------------------

_STRUCT_VAR = {"Mmad": "mmadParams", "MmadMx": "mmadParams", "MmadWithSparse": "mmadParams",
               "DataCopy": "copyParams", "Fixpipe": "fixpipeParams", "SetLoadDataRepeat": "repeatParams",
               "SetLoadDataRepeatWithStride": "repeatParams"}
_TENSOR_ARGS = {"LoadData": ("dst", "src", "src_mx"), "LoadDataWithTranspose": ("dst", "src"),
                "LoadDataWithSparse": ("dst", "src", "idx"), "Mmad": ("c", "a", "b", "bias"),
                "MmadMx": ("c", "a", "b", "bias"), "MmadWithSparse": ("c", "a", "b"),
                "DataCopy": ("dst", "src"), "Fixpipe": ("dst", "src")}


def _cxx_value(obj: object) -> object:
    """What the struct holds in C++: FixpipeParamsArch3510<layout>::params always exists, so Python's
    `params=None` ("the layout's default") equals a default Nz2NdParams / Nz2DnParams."""
    if type(obj).__name__ == "FixpipeParamsArch3510" and obj.params is None:
        return dataclasses.replace(obj, params=P.Nz2NdParams())
    return obj


def _ref_text(ref: object) -> str:
    if isinstance(ref, str):
        return ref
    assert isinstance(ref, dict)
    return f"{ref['tensor']}[{ref['index']}]" if ref.get("index") else str(ref["tensor"])


def check_scenario_round_trip(path: Path) -> int:
    """Every struct-taking step: printed C++ -> constructor == the struct the scenario builds.
    Returns the number of steps checked."""
    sc = load_scenario(path)
    checked = 0
    for i, step in enumerate(sc.steps):
        cpp = Cpp(step_to_cpp(sc, i))
        assert cpp.calls and cpp.calls[-1][0] == step.call, (path.name, i, cpp.calls)
        if "params" not in step.raw:
            continue
        var = _STRUCT_VAR.get(step.call, "params")
        want = step_struct(sc, step)
        assert _cxx_value(cpp.build(var)) == _cxx_value(want), (path.name, i)
        tensors = [_ref_text(step.raw[k]) for k in _TENSOR_ARGS.get(step.call, ()) if k in step.raw]
        if tensors:
            assert cpp.calls[-1][2] == [*tensors, var] or (
                "src_mx" in step.raw and cpp.calls[-1][2] == [*tensors, var, "mxParams"]), cpp.calls[-1]
        if "src_mx" in step.raw:
            assert cpp.build("mxParams") == step_struct(sc, step, "mx_params")
        cfg = step_config(step)
        if cfg is not None and cfg != P.IsResetLoad3dConfig():
            assert cpp.env["cfg"] == [cfg.isSetFMatrix, cfg.isSetPadding]
            assert cpp.calls[-1][1] is not None and cpp.calls[-1][1].endswith(", cfg")
        checked += 1
    return checked


@pytest.mark.parametrize("path", EXAMPLES, ids=[p.name for p in EXAMPLES])
def test_examples_round_trip(path: Path) -> None:
    check_scenario_round_trip(path)
    sc = load_scenario(path)
    whole = scenario_to_cpp(sc)
    for i in range(len(sc.steps)):  # every step's statements appear in the full listing
        for line in step_to_cpp(sc, i).splitlines():
            assert line in whole


def test_examples_exist() -> None:
    assert EXAMPLES, "examples/*.toml should not be empty"


_HEAD = """
chip = "{chip}"
[tensors.fmap]
position = "A1"
dtype = "{dtype}"
length = 4096
[tensors.l0a]
position = "A2"
dtype = "{dtype}"
length = 4096
[tensors.l0b]
position = "B2"
dtype = "{dtype}"
length = 4096
[tensors.l0c]
position = "CO1"
dtype = "float"
length = 4096
[tensors.bt]
position = "C2"
dtype = "float"
length = 64
[tensors.gm]
position = "GM"
dtype = "{dtype}"
length = 4096
[tensors.out]
position = "GM"
dtype = "float"
length = 4096
"""

# Each case: chip, dtype, steps (TOML), expected C++ call lines written out from the doc prototypes.
CASES: dict[str, tuple[str, str, str, list[str]]] = {
    "v1": ("inference_aicore", "half", """
[[steps]]
call = "LoadData"
dst = "l0a"
src = "fmap"
config = {isSetFMatrix = false}
params = {type = "LoadData3DParamsV1", padList = [1, 2, 3, 0], l1H = 4, l1W = 5, c1Index = 1,
          fetchFilterW = 1,
          fetchFilterH = 1, leftTopW = -1, leftTopH = -2, strideW = 2, strideH = 3, filterW = 3, filterH = 2,
          dilationFilterW = 2, dilationFilterH = 1, jumpStride = 4, repeatMode = 1, repeatTime = 7, cSize = 1,
          padValue = 0.5}
""", ["AscendC::LoadData<half, cfg>(l0a, fmap, params);"]),
    "v2": ("a2", "bfloat16_t", """
[[steps]]
call = "LoadData"
dst = {tensor = "l0a", index = 256}
src = {tensor = "fmap", index = 32}
config = {isSetFMatrix = true, isSetPadding = false}
params = {type = "LoadData3DParamsV2", padList = [1, 0, 2, 0], l1H = 6, l1W = 7, channelSize = 16,
          kExtension = 48, mExtension = 32, kStartPt = 16, mStartPt = 3, strideW = 2, strideH = 1,
          filterW = 3, filterH = 1, dilationFilterW = 1, dilationFilterH = 2, enTranspose = true,
          padValue = -1.5, filterSizeW = true}
""", ["AscendC::LoadData<bfloat16_t, cfg>(l0a[256], fmap[32], params);"]),
    "v2pro": ("ascend950", "int8_t", """
[[steps]]
call = "LoadData"
dst = "l0a"
src = "fmap"
params = {type = "LoadData3DParamsV2Pro", channelSize = 32, enTranspose = true,
          extConfig = 0x0003002000100040,
          filterConfig = 0x020103020201}
""", ["AscendC::LoadData(l0a, fmap, params);"]),
    "bitmode_fields": ("ascend950", "half", """
[[steps]]
call = "SetFmatrix"
l1H = 4
l1W = 6
padList = [1, 1, 0, 2]
mode = "FMATRIX_LEFT"
[[steps]]
call = "LoadData"
dst = "l0b"
src = "fmap"
params = {type = "Load3DBitModeParam", kExtension = 32, mExtension = 16, kStartPt = 16, mStartPt = 2,
          strideW = 2, strideH = 3, filterW = 2, filterH = 3, dilationFilterW = 1, dilationFilterH = 2,
          transpose = 1, channelSize = 16}
""", ["AscendC::SetFmatrix(4, 6, padList, AscendC::FmatrixMode::FMATRIX_LEFT);",
      "AscendC::LoadData<AscendC::TPosition::B2, AscendC::TPosition::A1, half>(l0b, fmap, params);"]),
    "bitmode_words": ("ascend950", "float", """
[[steps]]
call = "LoadData"
dst = "l0a"
src = "fmap"
dst_pos = "A2"
src_pos = "A1"
params = {type = "Load3DBitModeParam", config0 = 0x0000001000000020, config1 = 0x0008000010101041}
""", ["AscendC::LoadData<AscendC::TPosition::A2, AscendC::TPosition::A1, float>(l0a, fmap, params);"]),
    "load2d": ("a2", "half", """
[[steps]]
call = "LoadData"
dst = "l0a"
src = "fmap"
params = {type = "LoadData2DParams", startIndex = 1, repeatTimes = 3, srcStride = 2, sid = 0, dstGap = 1,
          ifTranspose = true, addrMode = 0}
[[steps]]
call = "LoadDataWithSparse"
dst = "l0b"
src = "fmap"
idx = "gm"
params = {type = "LoadData2DParams", repeatTimes = 2, srcStride = 1}
""", ["AscendC::LoadData(l0a, fmap, params);", "AscendC::LoadDataWithSparse(l0b, fmap, gm, params);"]),
    "load2d_v2_mx": ("ascend950", "fp8_e4m3fn_t", """
[tensors.mx]
position = "A1"
dtype = "fp8_e8m0_t"
length = 512
[[steps]]
call = "LoadData"
dst = "l0a"
src = "fmap"
params = {type = "LoadData2DParamsV2", mStartPosition = 1, kStartPosition = 2, mStep = 3, kStep = 4,
          srcStride = 5, dstStride = 6, ifTranspose = true, sid = 0}
[[steps]]
call = "LoadData"
dst = "l0a"
src = "fmap"
src_mx = "mx"
params = {type = "LoadData2DParamsV2", mStep = 2, kStep = 2, srcStride = 2, dstStride = 2}
mx_params = {type = "LoadData2DMxParams", xStartPosition = 1, yStartPosition = 2, xStep = 3, yStep = 4,
             srcStride = 5, dstStride = 6}
""", ["AscendC::LoadData(l0a, fmap, params);", "AscendC::LoadData(l0a, fmap, mx, params, mxParams);"]),
    "transpose": ("a2", "half", """
[[steps]]
call = "LoadDataWithTranspose"
dst = "l0b"
src = "fmap"
params = {type = "LoadData2dTransposeParams", startIndex = 1, repeatTimes = 2, srcStride = 3, dstGap = 4,
          dstFracGap = 5, addrMode = 0}
[[steps]]
call = "LoadDataWithTranspose"
dst = "l0b"
src = "fmap"
params = {type = "LoadData2dTransposeParamsV2", startIndex = 1, repeatTimes = 2, srcStride = 3, dstGap = 4,
          dstFracGap = 5, srcFracGap = 6, addrMode = 0}
""", ["AscendC::LoadDataWithTranspose(l0b, fmap, params);"] * 2),
    "mmad": ("a2", "half", """
[[steps]]
call = "Mmad"
c = "l0c"
a = "l0a"
b = "l0b"
params = {type = "MmadParams", m = 16, n = 32, k = 48, isBias = false, unitFlag = 3, cmatrixInitVal = false,
          kDirectionAlign = true}
[[steps]]
call = "Mmad"
c = "l0c"
a = "l0a"
b = "l0b"
bias = "bt"
params = {type = "MmadParams", m = 16, n = 16, k = 16, isBias = true}
""", ["AscendC::Mmad(l0c, l0a, l0b, mmadParams);", "AscendC::Mmad(l0c, l0a, l0b, bt, mmadParams);"]),
    "registers_a2": ("a2", "half", """
[[steps]]
call = "SetLoadDataRepeat"
params = {type = "LoadDataRepeatParam", repeatStride = 5, repeatTime = 3, repeatMode = 1}
[[steps]]
call = "SetLoadDataPaddingValue"
value = 0.25
dtype = "half"
[[steps]]
call = "SetLoadDataBoundary"
value = 2048
""", ["AscendC::SetLoadDataRepeat(repeatParams);", "AscendC::SetLoadDataPaddingValue<half>((half)0.25);",
      "AscendC::SetLoadDataBoundary(2048);"]),
    "registers_950": ("ascend950", "half", """
[[steps]]
call = "SetLoadDataRepeat"
params = {type = "LoadDataRepeatParam", repeatStride = 5, repeatTime = 3, repeatMode = 1, dstStride = 2}
[[steps]]
call = "SetLoadDataRepeatWithStride"
params = {type = "LoadDataRepeatParamWithStride", repeatStride = 1, repeatTime = 2, repeatMode = 0,
          dstStride = 4}
""", ["AscendC::SetLoadDataRepeat(repeatParams);", "AscendC::SetLoadDataRepeatWithStride(repeatParams);"]),
    "copy_a2": ("a2", "half", """
[[steps]]
call = "DataCopy"
dst = "fmap"
src = "gm"
params = {type = "Nd2NzParams", ndNum = 1, nValue = 16, dValue = 32, srcNdMatrixStride = 0, srcDValue = 32,
          dstNzC0Stride = 16, dstNzNStride = 1, dstNzMatrixStride = 0}
[[steps]]
call = "DataCopy"
dst = "fmap"
src = "gm"
params = {type = "DataCopyParams", blockCount = 2, blockLen = 3, srcStride = 1, dstStride = 2}
[[steps]]
call = "Fixpipe"
dst = "out"
src = "l0c"
params = {type = "FixpipeParamsV220", nSize = 16, mSize = 16, srcStride = 16, dstStride = 16,
          quantPre = "F322F16", ndNum = 1}
""", ["AscendC::DataCopy(fmap, gm, copyParams);", "AscendC::DataCopy(fmap, gm, copyParams);",
      "AscendC::Fixpipe<float, float, AscendC::CFG_ROW_MAJOR>(out, l0c, fixpipeParams);"]),
    "fixpipe_950": ("ascend950", "half", """
[[steps]]
call = "Fixpipe"
dst = "out"
src = "l0c"
params = {type = "FixpipeParamsArch3510", nSize = 32, mSize = 16, srcStride = 16, dstStride = 32,
          params = {type = "Nz2NdParams", ndNum = 2, srcNdStride = 4, dstNdStride = 512}}
""", ["AscendC::Fixpipe<float, float, AscendC::CFG_ROW_MAJOR>(out, l0c, fixpipeParams);"]),
}


def _write_case(tmp_path: Path, name: str) -> Path:
    chip, dtype, steps, _ = CASES[name]
    head = _HEAD.format(chip=chip, dtype=dtype)
    path = tmp_path / f"{name}.toml"
    path.write_text(head + _one_line(steps), encoding="utf-8")
    return path


def _one_line(toml: str) -> str:
    """TOML 1.0 inline tables must stay on one line: join the wrapped continuation lines used above."""
    return re.sub(r",\n\s+", ", ", toml)


@pytest.mark.parametrize("name", sorted(CASES))
def test_case_round_trip(tmp_path: Path, name: str) -> None:
    path = _write_case(tmp_path, name)
    sc = load_scenario(path)
    n_params = sum("params" in s.raw for s in sc.steps)
    assert check_scenario_round_trip(path) == n_params
    calls = [step_to_cpp(sc, i).splitlines()[-1] for i in range(len(sc.steps))]
    assert calls == CASES[name][3]


def test_v1_fields_and_cast(tmp_path: Path) -> None:
    sc = load_scenario(_write_case(tmp_path, "v1"))
    cpp = Cpp(step_to_cpp(sc, 0))
    tname, targ, vals = cpp.structs["params"]
    assert (tname, targ) == ("LoadData3DParamsV1", "half")
    p = P.LoadData3DParamsV1(*vals)  # type: ignore[misc]
    assert (p.leftTopW, p.leftTopH, p.repeatTime, p.padValue, p.padList) == (-1, -2, 7, 0.5, [1, 2, 3, 0])
    assert "(half)0.5" in step_to_cpp(sc, 0)
    assert "static constexpr AscendC::IsResetLoad3dConfig cfg = {false, true};" in step_to_cpp(sc, 0)


def test_v2_literal_line(tmp_path: Path) -> None:
    """Booleans print as true/false and padValue as a cast to T, in constructor order (docs/load3d.md)."""
    text = step_to_cpp(load_scenario(_write_case(tmp_path, "v2")), 0)
    decl = [ln for ln in text.splitlines() if ln.startswith("AscendC::LoadData3DParamsV2")][0]
    want = ("AscendC::LoadData3DParamsV2<bfloat16_t> params{padList, 6, 7, 16, 48, 32, 16, 3, 2, 1, 3, 1, 1, "
            "2, true, false, (bfloat16_t)-1.5, true, false, false};")
    assert decl.split("  //")[0] == want
    assert decl.split("  // ")[1].split(", ")[14:17] == ["enTranspose", "enSmallK", "padValue"]
    assert "uint8_t padList[4] = {1, 0, 2, 0};" in text


def test_v2pro_words_in_hex(tmp_path: Path) -> None:
    sc = load_scenario(_write_case(tmp_path, "v2pro"))
    text = step_to_cpp(sc, 0)
    assert "0x3002000100040" in text and "0x20103020201" in text
    p = Cpp(text).build("params")
    assert isinstance(p, P.LoadData3DParamsV2Pro)
    # extConfig = mStartPt<<48 | kStartPt<<32 | mExtension<<16 | kExtension (LoadData_3D.md 表5)
    assert (p.kExtension, p.mExtension, p.kStartPt, p.mStartPt) == (0x40, 0x10, 0x20, 0x3)


def _bitmode_words(k: int, m: int, kpos: int, mpos: int, sw: int, sh: int, fw: int, fh: int, dw: int, dh: int,
                   fsw: int, fsh: int, tr: int, fmc: int, ch: int) -> tuple[int, int]:
    """config0/config1 from LoadData_3D_BitMode.md 表4/表5 (bit-fields fill from the low bits up)."""
    c0 = k | m << 16 | kpos << 32 | mpos << 48
    c1 = sw | sh << 6 | fw << 12 | fh << 20 | dw << 28 | dh << 36
    return c0, c1 | fsw << 44 | fsh << 45 | tr << 46 | fmc << 47 | ch << 48


def test_bitmode_set_calls_give_doc_words(tmp_path: Path) -> None:
    sc = load_scenario(_write_case(tmp_path, "bitmode_fields"))
    cpp = Cpp(step_to_cpp(sc, 1))
    assert cpp.structs["params"] == ("Load3DBitModeParam", None, None)
    assert dict(cpp.setters["params"])["KExtension"] == 32
    bm = cpp.build("params")
    want = _bitmode_words(32, 16, 16, 2, 2, 3, 2, 3, 1, 2, 0, 0, 1, 0, 16)
    assert (bm.config0, bm.config1) == want


def test_bitmode_config_words_printed(tmp_path: Path) -> None:
    sc = load_scenario(_write_case(tmp_path, "bitmode_words"))
    cpp = Cpp(step_to_cpp(sc, 0))
    assert dict(cpp.assign["params"]) == {"config0": 0x0000001000000020, "config1": 0x0008000010101041}


def test_mmad_keyword_fields_assigned(tmp_path: Path) -> None:
    sc = load_scenario(_write_case(tmp_path, "mmad"))
    cpp = Cpp(step_to_cpp(sc, 0))
    assert cpp.structs["mmadParams"][2] == [16, 32, 48, False, 0, False, False, False]
    assert dict(cpp.assign["mmadParams"]) == {"unitFlag": 3, "kDirectionAlign": True, "cmatrixInitVal": False}


def test_repeat_param_has_dst_stride_on_950_only(tmp_path: Path) -> None:
    a2 = load_scenario(_write_case(tmp_path, "registers_a2"))
    assert Cpp(step_to_cpp(a2, 0)).structs["repeatParams"][2] == [5, 3, 1]
    n950 = load_scenario(_write_case(tmp_path, "registers_950"))
    assert Cpp(step_to_cpp(n950, 0)).structs["repeatParams"][2] == [5, 3, 1, 2]


def test_fixpipe_quant_and_nested(tmp_path: Path) -> None:
    text = step_to_cpp(load_scenario(_write_case(tmp_path, "copy_a2")), 2)
    assert "fixpipeParams.quantPre = AscendC::QuantMode_t::F322F16;" in text
    text = step_to_cpp(load_scenario(_write_case(tmp_path, "fixpipe_950")), 0)
    assert "AscendC::FixpipeParamsArch3510<AscendC::CO2Layout::ROW_MAJOR> fixpipeParams;" in text
    assert "fixpipeParams.params.ndNum = 2;" in text


def test_set_fmatrix_array(tmp_path: Path) -> None:
    sc = load_scenario(_write_case(tmp_path, "bitmode_fields"))
    cpp = Cpp(step_to_cpp(sc, 0))
    assert cpp.env["padList"] == [1, 1, 0, 2]


def test_bad_step_index(tmp_path: Path) -> None:
    sc = load_scenario(_write_case(tmp_path, "v1"))
    with pytest.raises(ScenarioError, match=r"^v1\.toml: step 5 does not exist"):
        step_to_cpp(sc, 5)


def test_scenario_blocks(tmp_path: Path) -> None:
    text = scenario_to_cpp(load_scenario(_write_case(tmp_path, "registers_a2")))
    assert text.count("{\n") == 1  # only the repeat step declares a variable and needs its own scope
    assert "//   AscendC::GlobalTensor<float> out;  // GM, 4096 elements" in text


# -- brace initialisers copied from the docs --------------------------------------------------------------


def test_doc_v1_brace_initialiser() -> None:
    """seed 001 (LoadData_3D.md) v1 example, with its variables substituted; fmRepeat is not defined in
    the snippet, 8 is used."""
    env = {"padList": [1, 1, 1, 1], "H": 4, "W": 4, "strideW": 1, "strideH": 1, "Kw": 2, "Kh": 2,
           "dilationW": 2, "dilationH": 2, "fmRepeat": 8}
    brace = ("{ padList, H, W, 0, 0, 0, -1, -1, strideW, strideH, Kw, Kh, dilationW, dilationH, 1, 0, "
             "fmRepeat, 0, (half)(0)}")
    p = P.LoadData3DParamsV1(*cpp_value(brace, env))  # type: ignore[misc]
    assert p == P.LoadData3DParamsV1(padList=[1, 1, 1, 1], l1H=4, l1W=4, c1Index=0, fetchFilterW=0,
                                     fetchFilterH=0, leftTopW=-1, leftTopH=-1, strideW=1, strideH=1,
                                     filterW=2, filterH=2, dilationFilterW=2, dilationFilterH=2,
                                     jumpStride=1, repeatMode=0, repeatTime=8, cSize=0, padValue=0)


def test_doc_bitmode_v2_brace_initialiser() -> None:
    """LoadData_3D_BitMode.md example: `LoadData3DParamsV2<half> param = {...};` then
    `Load3DBitModeParam paramBitMode(param);`."""
    env = {"padList": [1, 1, 1, 1], "H": 4, "W": 4, "C0": 16, "strideW": 1, "strideH": 1, "Kw": 2, "Kh": 2,
           "dilationW": 2, "dilationH": 2}
    brace = """{
    padList, H, W, C0, C0, static_cast<uint16_t>(H * W), 0, 0,
    strideW, strideH, Kw, Kh, dilationW, dilationH,
    false, false, (half)0, false, false, false}"""
    vals = cpp_value(" ".join(brace.split()), env)
    p = P.LoadData3DParamsV2(*vals)  # type: ignore[misc]
    # the doc's comment: padList, l1H, l1W, sizeChannel, kExtension, mExtension, kStartPt, mStartPt, strideW,
    # strideH, filterW, filterH, dilationFilterW, dilationFilterH, enTranspose, enSmallK, padValue, ...
    assert (p.l1H, p.l1W, p.channelSize, p.kExtension, p.mExtension) == (4, 4, 16, 16, 16)
    assert (p.filterW, p.filterH, p.dilationFilterW, p.dilationFilterH, p.enTranspose) == (2, 2, 2, 2, False)
    bm = P.Load3DBitModeParam(p)
    assert (bm.config0, bm.config1) == _bitmode_words(16, 16, 0, 0, 1, 1, 2, 2, 2, 2, 0, 0, 0, 0, 16)


def test_printed_v1_matches_doc_initialiser(tmp_path: Path) -> None:
    """The doc's v1 example as a scenario prints the same values as the doc's own brace initialiser."""
    steps = """
[[steps]]
call = "LoadData"
dst = "l0a"
src = "fmap"
params = {type = "LoadData3DParamsV1", padList = [1, 1, 1, 1], l1H = 4, l1W = 4, leftTopW = -1, leftTopH = -1,
          strideW = 1, strideH = 1, filterW = 2, filterH = 2, dilationFilterW = 2, dilationFilterH = 2,
          jumpStride = 1, repeatMode = 0, repeatTime = 8}
"""
    path = tmp_path / "doc_v1.toml"
    path.write_text(_HEAD.format(chip="inference_aicore", dtype="half") + _one_line(steps), encoding="utf-8")
    cpp = Cpp(step_to_cpp(load_scenario(path), 0))
    env = {"padList": [1, 1, 1, 1], "H": 4, "W": 4, "strideW": 1, "strideH": 1, "Kw": 2, "Kh": 2,
           "dilationW": 2, "dilationH": 2, "fmRepeat": 8}
    doc = cpp_value("{ padList, H, W, 0, 0, 0, -1, -1, strideW, strideH, Kw, Kh, dilationW, dilationH, 1, 0, "
                    "fmRepeat, 0, (half)(0)}", env)
    assert cpp.structs["params"][2] == doc


# -- the command -------------------------------------------------------------------------------------------


def test_cli_cpp(tmp_path: Path) -> None:
    path = _write_case(tmp_path, "mmad")
    r = subprocess.run([sys.executable, "-m", "ascsim.cli", "cpp", str(path), "--step", "1"],
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip().splitlines()[-1] == "AscendC::Mmad(l0c, l0a, l0b, bt, mmadParams);"
    r = subprocess.run([sys.executable, "-m", "ascsim.cli", "cpp", str(path)],
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 0 and r.stdout.count("AscendC::Mmad(") == 2
    r = subprocess.run([sys.executable, "-m", "ascsim.cli", "cpp", str(path), "--step", "9"],
                       capture_output=True, text=True, timeout=60)
    assert r.returncode != 0
    assert r.stderr.strip() == "ascsim: mmad.toml: step 9 does not exist (the file has 2 steps)"
