"""`ascsim cpp`: the Ascend C statements that reproduce a scenario step, ready to paste into a kernel.

Each step becomes its parameter struct, then the call:

    uint8_t padList[4] = {1, 1, 1, 1};
    AscendC::LoadData3DParamsV2<half> params{padList, 4, 4, 32, ...};  // padList, l1H, l1W, ...
    AscendC::LoadData(l0a, fmap, params);

- Structs with a C++ constructor get a brace initialiser in constructor order (= the positional order of the
  ascsim dataclasses; asc-devkit kernel_struct_mm.h; the "Parameters" sections of docs/load3d.md, load2d.md,
  load2d_mx.md, mmad.md, gm_copies.md) and a trailing comment naming the fields. Fields the constructor does
  not take (MmadParams.unitFlag ...) follow as `params.field = value;` lines when they are not the default.
- Structs without one (FixpipeParams*, doc: Fixpipe（L0C到GM数据搬运）.md examples) and the bit-mode
  unions (Load3DBitModeParam, doc: LoadData_3D_BitMode.md 表3-表5) are declared, then set field by field
  (`params.SetKExtension(128);`, or `params.config0 = 0x...;` when the scenario gives the words).
- padList is a `const uint8_t padList[4]` constructor parameter (a pointer), so it is declared as an
  array first, as in the doc examples (LoadData_3D.md, SetFmatrix.md).
- A non-default IsResetLoad3dConfig is a template argument bound to a reference, so it must have static
  storage: `static constexpr AscendC::IsResetLoad3dConfig cfg = {false, true};` (SetFmatrix.md example).
"""

from __future__ import annotations

import dataclasses
import math
from enum import IntEnum
from typing import Any

from .. import params as P
from ..isa.table import REQUIRED, STRUCT, TENSOR
from ..machine.dtypes import DType, get_dtype
from ..params.copy import Nz2DnParams, QuantMode_t
from .files import CALLS, step_config, step_struct
from .run import build
from .schema import Scenario, ScenarioError, Step

# Number of leading dataclass fields the C++ constructor takes (0 = no constructor: assign fields).
_CTOR_ARITY: dict[str, int] = {
    "LoadData3DParamsV1": 19,  # LoadData_3D.md v1 example: 19 values
    "LoadData3DParamsV2": 20,  # docs/load3d.md: ..., padValue[, filterSizeW, filterSizeH, fMatrixCtrl]
    "LoadData3DParamsV2Pro": 8,
    "LoadData2DParams": 7,  # (startIndex, repeatTimes, srcStride, sid, dstGap, ifTranspose, addrMode)
    "LoadData2DParamsV2": 8,
    "LoadData2dTransposeParams": 6,
    "LoadData2dTransposeParamsV2": 7,
    "LoadData2DMxParams": 6,
    "MmadParams": 8,  # (m, n, k, isBias, fmOffset, enSsparse, enWinogradA, enWinogradB)
    "LoadDataRepeatParam": 3,  # {repeatStride, repeatTime, repeatMode}; 950 adds dstStride (below)
    "LoadDataRepeatParamWithStride": 4,
    "DataCopyParams": 4,
    "Nd2NzParams": 8,
    "Dn2NzParams": 8,
    "InitConstValueParams": 4,  # Fill.md: {repeatTimes, blockNum, dstGap, initValue}
    "DataCopyExtParams": 5,  # {blockCount, blockLen, srcStride, dstStride, rsv}
    "DataCopyPadExtParams": 4,  # {isPad, leftPadding, rightPadding, paddingValue}
    # (nSize, mSize, dstStride, srcStride, quantPre, reluPre, channelSplit, nz2ndEn)
    "DataCopyCO12DstParams": 8,
}
# templated on the element type T: LoadData3DParamsV2<T> (padValue is a T), InitConstValueParams<T>, ...
_TEMPLATED = {"LoadData3DParamsV1", "LoadData3DParamsV2", "InitConstValueParams", "DataCopyPadExtParams"}
_T_VALUES = {"padValue", "initValue", "paddingValue"}  # fields holding a T
_HEX = {"extConfig", "filterConfig", "config0", "config1", "deqScalar"}  # u64 config words


def step_to_cpp(sc: Scenario, step_index: int) -> str:
    """The C++ statements for step `step_index` of the scenario (struct initialisation, then the call)."""
    if not 0 <= step_index < len(sc.steps):
        raise ScenarioError(f"{sc.path.name}: step {step_index} does not exist (the file has "
                            f"{len(sc.steps)} steps)")
    step = sc.steps[step_index]
    lines = [f"// {step.raw['note']}"] if isinstance(step.raw.get("note"), str) else []
    return "\n".join(lines + _step_lines(sc, step))


def scenario_to_cpp(sc: Scenario) -> str:
    """All steps, each in its own block so the struct variable names do not clash."""
    out = [f"// {sc.path.name}: {sc.description}" if sc.description else f"// {sc.path.name}",
           f"// chip: {sc.chip}; tensors (declare them in the kernel):"]
    for t in sc.tensors.values():
        kind = "GlobalTensor" if t.position == "GM" else "LocalTensor"
        where = "GM" if t.position == "GM" else f"TPosition::{t.position}"
        out.append(f"//   AscendC::{kind}<{t.dtype.name}> {t.name};  // {where}, {t.length} elements")
    for i, step in enumerate(sc.steps):
        body = step_to_cpp(sc, i).splitlines()
        out.append(f"// [{i}] {step.call} ({step.line})")
        if sum(not ln.startswith("//") for ln in body) > 1:
            out += ["{", *(f"    {ln}" for ln in body), "}"]
        else:
            out += body
    return "\n".join(out)


# -- values ---------------------------------------------------------------------------------------------


def _num(v: Any) -> str:
    if isinstance(v, float):
        if math.isnan(v):
            return "NAN"
        if math.isinf(v):
            return "INFINITY" if v > 0 else "-INFINITY"
        return str(int(v)) if v.is_integer() else repr(v)
    return str(int(v))


def _value(name: str, v: Any, dt: DType | None) -> str:
    """One value in C++ spelling: true/false, hex config words, `(half)0.5` casts, enum names."""
    if isinstance(v, bool):
        return "true" if v else "false"
    if name in _T_VALUES:
        t = dt.name if dt is not None else "half"
        return f"({t}){_num(v if dt is None or dt.kind == 'float' else int(v))}"
    if name == "quantPre":
        try:
            v = QuantMode_t[v] if isinstance(v, str) else QuantMode_t(v)
        except (KeyError, ValueError):
            return repr(v)
    if isinstance(v, IntEnum):
        return f"AscendC::{type(v).__name__}::{v.name}"
    if isinstance(v, list):
        return "{" + ", ".join(_value(name, x, dt) for x in v) + "}"
    if name in _HEX and isinstance(v, int):
        return f"0x{v:x}"
    return _num(v)


def _ref(ref: Any) -> str:
    """A tensor argument: `name` or `name[index]` (C++ LocalTensor element offset)."""
    if isinstance(ref, str):
        return ref
    index = ref.get("index", 0)
    return f"{ref['tensor']}[{index}]" if index else ref["tensor"]


def _name(ref: Any) -> str:
    """The tensor name of a step's tensor argument (`name` or `{tensor = name, index = i}`)."""
    return ref if isinstance(ref, str) else ref["tensor"]


def _dtype_of(sc: Scenario, ref: Any) -> DType:
    return sc.tensors[_name(ref)].dtype


# -- structs --------------------------------------------------------------------------------------------


def struct_lines(obj: Any, var: str, dt: DType | None = None, *, chip: str = "",
                 raw: dict | None = None, exprs: dict[str, str] | None = None) -> list[str]:
    """Declaration lines that build `obj` in C++ as variable `var` (dt: the T of templated structs). exprs:
    C++ expressions that replace some fields' values (dotted paths for nested structs; a list field's whole
    initialiser) — the planner's looped kernels compute them at run time (planner.kernel)."""
    exprs = exprs or {}
    cls = type(obj).__name__
    if isinstance(obj, (P.Load3DBitModeParam, P.Load2DBitModeParam)):
        return _bitmode_lines(obj, var, raw or {})
    if isinstance(obj, P.SetFMatrixBitModeParams):  # set field by field (SetFmatrixBitMode.md 调用示例)
        d = obj.as_dict()
        pads = [d[f"padList{i}"] for i in range(4)]
        return [f"AscendC::SetFMatrixBitModeParams {var};", f"{var}.SetL1H({d['l1H']});",
                f"{var}.SetL1W({d['l1W']});", f"uint8_t padList[4] = {_value('padList', pads, None)};",
                f"{var}.SetPadList(padList);"]
    arity = _CTOR_ARITY.get(cls, 0)
    if cls == "LoadDataRepeatParam" and (chip == "ascend950" or obj.dstStride):
        arity = 4  # SetLoadDataRepeat.md: on 950 dstStride exists and must be configured
    fields = dataclasses.fields(obj)
    ctype = f"AscendC::{cls}<{dt.name if dt else 'half'}>" if cls in _TEMPLATED else f"AscendC::{cls}"
    if cls in ("FixpipeParamsArch3510", "FixpipeParamsC310"):
        layout = ("COLUMN_MAJOR" if isinstance(obj.params, Nz2DnParams) else "NZ" if obj.params is None
                  else "ROW_MAJOR")
        ctype = f"AscendC::{cls}<AscendC::CO2Layout::{layout}>"
    pre: list[str] = []
    args: list[str] = []
    for f in fields[:arity]:
        v = getattr(obj, f.name)
        text = exprs.get(f.name) or _value(f.name, v, dt)
        if isinstance(v, list):  # a `const uint8_t x[4]` constructor parameter: pass a named array
            pre.append(f"uint8_t {f.name}[{len(v)}] = {text};")
            args.append(f.name)
        else:
            args.append(text)
    if arity:
        names = ", ".join(f.name for f in fields[:arity])
        decl = f"{ctype} {var}{{{', '.join(args)}}};  // {names}"
    else:
        decl = f"{ctype} {var};"
    return pre + [decl] + _assignments(obj, var, fields[arity:], dt, exprs)


def _assignments(obj: Any, var: str, fields: Any, dt: DType | None, exprs: dict[str, str] | None = None,
                 path: str = "") -> list[str]:
    """`var.field = value;` for every non-default field (nested structs field by field) and every field
    `exprs` computes."""
    default = type(obj)()
    out = []
    for f in fields:
        v, d = getattr(obj, f.name), getattr(default, f.name)
        if dataclasses.is_dataclass(v):
            out += _assignments(v, f"{var}.{f.name}", dataclasses.fields(v), dt, exprs, f"{path}{f.name}.")
        elif exprs and f"{path}{f.name}" in exprs:
            out.append(f"{var}.{f.name} = {exprs[path + f.name]};")
        elif v != d and not (f.name == "quantPre" and _value(f.name, v, dt) == _value(f.name, d, dt)):
            out.append(f"{var}.{f.name} = {_value(f.name, v, dt)};")
    return out


def _bitmode_lines(obj: Any, var: str, raw: dict) -> list[str]:
    """Load3DBitModeParam / Load2DBitModeParam: a union of config words, built by Set* calls
    (LoadData_3D_BitMode.md 表4/表5) or, when the scenario gives the words, by assigning them."""
    cls = type(obj).__name__
    out = [f"AscendC::{cls} {var};"]
    if raw and set(raw) - {"type"} <= {"config0", "config1"}:
        return out + [f"{var}.{w} = 0x{getattr(obj, w):x};" for w in ("config0", "config1")
                      if getattr(obj, w)]
    for name, value in obj.as_dict().items():
        if value:
            out.append(f"{var}.Set{_accessor(name)}({_value(name, value, None)});")
    return out


def _accessor(name: str) -> str:
    """C++ accessor suffix: kExtension -> KExtension (SetKExtension), ifTranspose -> IfTranspose."""
    return name[0].upper() + name[1:]


# -- steps ----------------------------------------------------------------------------------------------


class CppStep:
    """What a form's C++ template arguments are made of, for one scenario step (`isa.table.Form.template`):
    the element types of its tensors, its structs and values, and `static` lines it needs before the call."""

    def __init__(self, sc: Scenario, step: Step) -> None:
        self.sc, self.step, self.raw = sc, step, step.raw
        self.statics: list[str] = []

    def dtype(self, key: str) -> str:
        return self.sc.tensors[_name(self.raw[key])].dtype.name

    def dtype_name(self) -> str:
        return get_dtype(self.raw.get("dtype", "half")).name

    def position(self, key: str, template_key: str) -> str:
        return self.raw.get(template_key, self.sc.tensors[_name(self.raw[key])].position)

    def struct(self, key: str) -> Any:
        return step_struct(self.sc, self.step, key) if key in self.raw else None

    def config(self) -> P.IsResetLoad3dConfig | None:
        cfg = step_config(self.step)
        return None if cfg is None or cfg == P.IS_RESER_LOAD3D_DEFAULT_CONFIG else cfg

    def fixpipe_config(self) -> str:
        p = self.struct("params")
        return self.raw.get("config") or (
            "CFG_COLUMN_MAJOR" if isinstance(getattr(p, "params", None), Nz2DnParams) else "CFG_ROW_MAJOR")

    def static(self, line: str) -> None:
        self.statics.append(line)

    @staticmethod
    def cpp_bool(v: Any) -> str:
        return _value("", v, None)


def _step_lines(sc: Scenario, step: Step) -> list[str]:
    """A step as C++: the structs and arrays it passes, declared first, then the call with its template
    arguments — all from its form in the instruction table (argument order, variable names, spellings)."""
    s = step.raw
    form = CALLS[step.call].form_for(s)
    ctx = CppStep(sc, step)
    template = form.template(ctx) if form.template is not None else ()
    keys = {a.step_key for a in form.op.args}
    elem = next((ctx.dtype(k) for k in ("src", "dst") if k in keys and k in s), None)
    dt = get_dtype(elem) if elem else None
    pre: list[str] = []
    args: list[str] = []
    for name, optional in form.positional():
        a = form.op.arg(name)
        key = a.step_key
        if name in form.template_args:
            continue
        if a.kind == TENSOR:
            if key in s:
                args.append(_ref(s[key]))
        elif a.kind == STRUCT:
            obj = step_struct(sc, step, key)
            var = a.cpp_var or "params"
            tdt = get_dtype(ctx.dtype("dst")) if key != "params" and "dst" in s else dt
            pre += struct_lines(obj, var, tdt, chip=sc.chip, raw=s.get(key))
            args.append(var)
        else:
            if optional and key not in s and a.step_default is None and a.default is not REQUIRED \
                    and not a.cpp_render:
                continue
            v = s.get(key, a.step_default if a.step_default is not None else a.default)
            if a.cpp_render == "array":
                pre.append(f"uint8_t {a.cpp_name}[{len(v)}] = {_value(a.cpp_name, v, None)};")
                args.append(a.cpp_name)
            elif a.cpp_render == "hex":
                args.append(f"0x{int(v):x}")
            elif a.cpp_render:
                args.append(f"AscendC::{a.cpp_render}::{str(v).split('.')[-1]}")
            else:
                args.append(_value(a.cpp_name, v, get_dtype(ctx.dtype_name()) if a.cpp_name in _T_VALUES
                                   else None))
    tpl = f"<{', '.join(template)}>" if template else ""
    return pre + ctx.statics + [f"AscendC::{step.call}{tpl}({', '.join(args)});"]


def scenario_kernel(sc: Any, entry: str = "ascsim_scenario") -> str:
    """A complete kernel running the scenario's steps (the `ascsim cpp` statements) — for the round trip
    and for pasting into a real kernel."""
    run = build(sc)
    gm = [n for n, t in sc.tensors.items() if t.position == "GM"]
    seeded = [n for n, t in sc.tensors.items() if t.position != "GM" and t.init is not None]
    params = ", ".join(f"GM_ADDR {n}_addr" for n in gm) or "void"
    lines = [
        f"// {sc.path.name}: {sc.description}" if sc.description else f"// {sc.path.name}",
        f"// chip: {sc.chip}; GM parameters: {', '.join(f'{n}_addr' for n in gm) or 'none'} (bind with --gm "
        "NAME=FILE); a scenario's steps run one after another, hence a PipeBarrier<PIPE_ALL> after each",
        *(
            [f"// on-chip tensors with initial data (Kernel.run(preload=...)): {', '.join(seeded)}"]
            if seeded
            else []
        ),
        f'extern "C" __global__ __aicore__ void {entry}({params})',
        "{",
    ]
    for n, spec in sc.tensors.items():
        t = run.tensors[n]
        ty = spec.dtype.name
        if spec.position == "GM":
            lines.append(f"    AscendC::GlobalTensor<{ty}> {n};")
            lines.append(f"    {n}.SetGlobalBuffer((__gm__ {ty}*){n}_addr, {spec.length});")
        else:
            lines.append(
                f"    AscendC::LocalTensor<{ty}> {n}(AscendC::TPosition::{spec.position}, {t.offset}, "
                f"{spec.length});"
            )
    for i, step in enumerate(sc.steps):
        lines.append(f"    // [{i}] {step.call}")
        lines.append("    {")
        lines += [f"        {ln}" for ln in step_to_cpp(sc, i).splitlines()]
        lines.append("    }")
        lines.append("    AscendC::PipeBarrier<PIPE_ALL>();")
    lines.append("}")
    return "\n".join(lines) + "\n"
