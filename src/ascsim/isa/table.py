"""The instruction table: every instruction and register setter ascsim models, said once.

Each entry names, for one C++ API name (`LoadData`, `Mmad`, `SetFmatrix`, ...), its forms — the C++
overloads — and for each form the operation (`Op`) that executes it: the `Core` method, the family
function in `ascsim.isa`, its arguments (tensor / struct / value, what each is called in C++, in a
scenario step and in Python, which tensors it writes), its pipe, and how `ascsim cpp` spells it.

Everything that needs the instruction list derives it from here:

- `ascsim.Core` gets one method per `Op` (`core.load_data`, `core.mmad`, ...), generated with the
  operand checks the arguments declare (`ascsim.core`);
- `ascsim.ascendc` gets one function per C++ name, resolving the form by its arguments like overload
  resolution;
- scenario steps (`call = "Mmad"`) are checked and executed through the forms' step keys;
- the C++ front-end binds each C++ call to its form; `ascsim cpp` prints a step as the C++ call;
- the sync checker asks `pipe_of` which pipe a call runs on; the planner's programs run their calls
  through the same forms.

Adding an instruction is one entry here, its family module and its tests (docs/architecture.md has a
worked example).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from ..base.errors import UnsupportedError, cpp_rejects
from ..params import (
    DataCopyCO12DstParams,
    DataCopyExtParams,
    DataCopyPadExtParams,
    DataCopyParams,
    Dn2NzParams,
    FixpipeParamsArch3510,
    FixpipeParamsC310,
    FixpipeParamsV220,
    InitConstValueParams,
    Load2DBitModeParam,
    Load3DBitModeParam,
    LoadData2DMxParams,
    LoadData2DParams,
    LoadData2DParamsV2,
    LoadData2dTransposeParams,
    LoadData2dTransposeParamsV2,
    LoadData3DParamsV1,
    LoadData3DParamsV2,
    LoadData3DParamsV2Pro,
    LoadDataRepeatParam,
    LoadDataRepeatParamWithStride,
    MmadParams,
    Nd2NzParams,
    PaddingMode,
    SetFMatrixBitModeParams,
)
from . import copy, fill, fixpipe, load2d, load3d, mmad, mx, registers, sparse, transpose

REQUIRED: Any = object()  # an argument with no default
STRUCT_DEFAULT: Any = object()  # a struct a scenario step may leave out: the struct's default

TENSOR, STRUCT, VALUE = "tensor", "struct", "value"


@dataclass(frozen=True)
class Arg:
    """One argument of an operation.

    name: the Python parameter name of the Core method (and the scenario step key unless `key` says
        otherwise); cpp: the C++ parameter name, which messages and the C++ facade use; kind: TENSOR,
        STRUCT or VALUE; structs: the params structs a STRUCT argument may be (empty: the family decides,
        e.g. DataCopy's count or struct); writes: a tensor the instruction writes; default: the Python
        default (REQUIRED: none; a tensor or struct default of None makes it optional); keyword: keyword-only
        in the Core method; step: the value's type in a scenario step (int, float, bool, str, list[int]:
        checked like a struct field) or a conversion `step(value) -> Python value`; step_default: what a
        step that leaves the key out passes (REQUIRED: the step must give it; absent: the Python default);
        cpp_render: how `ascsim cpp` writes the value ("array": declared as a named array first; "hex";
        an enum name such as "FmatrixMode": `AscendC::FmatrixMode::X`); cpp_var: the variable `ascsim cpp`
        declares a struct in; check: the Core method checks a STRUCT argument's type (False: the family
        does, with its own message); brace: the struct a C++ brace initialiser builds for this argument;
        note: why a step must give the value (for the message when it does not)."""

    name: str
    kind: str
    cpp: str = ""
    structs: tuple[type, ...] = ()
    writes: bool = False
    default: Any = REQUIRED
    keyword: bool = False
    key: str = ""
    step: Any = None
    step_default: Any = None
    cpp_render: str = ""
    cpp_var: str = ""
    check: bool = True
    brace: type | None = None
    note: str = ""

    @property
    def cpp_name(self) -> str:
        return self.cpp or self.name

    @property
    def step_key(self) -> str:
        return self.key or self.name

    @property
    def optional(self) -> bool:
        return self.default is not REQUIRED


def tensor(name: str, cpp: str = "", *, writes: bool = False, optional: bool = False, key: str = "") -> Arg:
    return Arg(name, TENSOR, cpp, writes=writes, default=None if optional else REQUIRED, key=key)


def struct(name: str, *structs: type, cpp: str = "", optional: bool = False, key: str = "", var: str = "",
           check: bool = True, brace: type | None = None, step_default: Any = None) -> Arg:
    return Arg(name, STRUCT, cpp, structs, default=None if optional else REQUIRED, key=key, cpp_var=var,
               check=check, brace=brace if brace is not None else structs[0] if len(structs) == 1 else None,
               step_default=step_default)


def value(name: str, step: Any = None, *, cpp: str = "", default: Any = REQUIRED, keyword: bool = False,
          key: str = "", step_default: Any = None, render: str = "", note: str = "") -> Arg:
    return Arg(name, VALUE, cpp, default=default, keyword=keyword, key=key, step=step,
               step_default=step_default, cpp_render=render, note=note)


#: A pipe: a fixed name ("M", "FIX", ...) or a function of (destination memory, source memory, chip key);
#: None for register setters, which move no data.
Pipe = str | Callable[[str, str, str], str | None] | None


@dataclass(frozen=True)
class Op:
    """One operation: a `Core` method and the family function that executes it.

    method: the Core method's name; instr: the name operand errors carry ("Load2DMX" for
    `core.load_data_mx`); run: `fn(core, *args)` in `args` order, returning an ExecReport (None for a
    register setter); dispatch: for LoadData, the family function by params struct type (C++ overload
    resolution on the struct); gather: its calls are gathers `Core.run` may queue; doc: the C++ form, the
    method's docstring."""

    method: str
    instr: str
    args: tuple[Arg, ...]
    doc: str
    run: Callable[..., Any] | None = None
    dispatch: Mapping[type, Callable[..., Any]] | None = None
    pipe: Pipe = None
    gather: bool = False

    @property
    def setter(self) -> bool:
        return self.pipe is None

    @property
    def by_cpp(self) -> dict[str, Arg]:
        """The arguments by their C++ names (the facade's keywords)."""
        return {a.cpp_name: a for a in self.args}

    def arg(self, name: str) -> Arg:
        for a in self.args:
            if a.name == name:
                return a
        raise KeyError(name)


@dataclass(frozen=True)
class Form:
    """One C++ overload of an API name: the operation it runs and how it is written.

    order: the C++ positional arguments by Arg name ("[bias]": optional in the middle, as the C++
    overload without it); when: the scenario step key whose presence selects this form (None: the
    form taken otherwise; the first form of an instruction is its plain one); fixed: Arg values this form
    implies (InitConstValue is Fill under its old name);
    template: the C++ template arguments `ascsim cpp` writes for a step, as a function of a `CppStep`
    (returns the argument strings, () for none); template_args: the arguments C++ spells as template
    arguments although the facade takes them positionally (SetAtomicAdd<T>(), Fixpipe<..., config>);
    structs: the structs this overload takes where they are fewer than the operation's
    (SetLoadDataRepeat and SetLoadDataRepeatWithStride share one operation)."""

    def structs_of(self, name: str) -> tuple[type, ...]:
        """The params structs argument `name` takes in this form (LoadData: every overload's)."""
        if name in self.structs:
            return self.structs[name]
        a = self.op.arg(name)
        return tuple(self.op.dispatch) if a.name == "params" and self.op.dispatch else a.structs

    op: Op
    order: tuple[str, ...]
    when: str | None = None
    fixed: Mapping[str, Any] = field(default_factory=dict)
    template: Callable[[Any], tuple[str, ...]] | None = None
    template_args: tuple[str, ...] = ()
    structs: Mapping[str, tuple[type, ...]] = field(default_factory=dict)

    def step_args(self) -> list[Arg]:
        """The arguments a keyed call (a scenario step, a planner call) gives by key; value arguments without
        a step type are Python-only (the C++ template flags a step does not spell)."""
        return [a for a in self.op.args if a.kind != VALUE or a.step is not None]

    def positional(self) -> list[tuple[str, bool]]:
        """(Arg name, optional) in C++ positional order."""
        return [(n.strip("[]"), n.startswith("[")) for n in self.order]


@dataclass(frozen=True)
class Instruction:
    """A C++ API name and its forms (one per overload family); `name` is also the scenario call name."""

    name: str
    forms: tuple[Form, ...]

    @property
    def setter(self) -> bool:
        return all(f.op.setter for f in self.forms)

    def form_for(self, keys: Mapping[str, Any]) -> Form:
        """The form a keyed call takes: the one whose `when` key it gives, else the plain one."""
        for f in self.forms[1:]:
            if f.when in keys:
                return f
        return self.forms[0]

    def usage(self) -> str:
        """The argument lists of the forms, e.g. "(c, a, b[, bias], params)"."""
        def one(f: Form) -> str:
            text = ""
            for n, opt in f.positional():
                text += f"[, {n}]" if opt and text else f"[{n}]" if opt else f", {n}" if text else n
            return f"({text})"
        return " or ".join(one(f) for f in self.forms)


# -- pipes (the sync pages; docs/divergences.md R8, R10) -----------------------------------------------------

#: Data moves: (source memory, destination memory) -> pipe. Sources: LoadData_2D.md 约束说明 (GM source
#: PIPE_MTE2, L1 source PIPE_MTE1), LoadData_3D.md / LoadDataWithTranspose.md (PIPE_MTE1), the sync
#: overview's table (MTE2 GM->L1, MTE1 L1->L0A/L0B, FIX L0C->GM/L1, MTE3 ->GM), mmad.asc (L1->BiasTable
#: between WaitFlag<MTE2_MTE1> and SetFlag<MTE1_M>: MTE1), DataCopy（L0C到GM数据搬运）.md example
#: (L1->Fixpipe Buffer after WaitFlag<MTE2_FIX>: FIX).
MOVE_PIPE = {
    ("GM", "L1"): "MTE2",
    ("GM", "L0A"): "MTE2",
    ("GM", "L0B"): "MTE2",
    ("L1", "L0A"): "MTE1",
    ("L1", "L0B"): "MTE1",
    ("L1", "BT"): "MTE1",
    ("L1", "FB"): "FIX",
    ("L1", "GM"): "MTE3",
    ("L0C", "GM"): "FIX",
    ("L0C", "L1"): "FIX",
}


def move_pipe(dst: str, src: str, chip: str) -> str | None:
    """The pipe of a data move by its memories (the MX scale buffers are written with the L0 loads)."""
    pipe = MOVE_PIPE.get((src, dst))
    if pipe is None and dst in ("L0A_MX", "L0B_MX"):
        return "MTE1"
    return pipe


def fill_pipe(dst: str, src: str, chip: str) -> str:
    """Fill / InitConstValue (no source): Fill.md 约束说明 — L0A/L0B on PIPE_MTE1, L1 on PIPE_MTE2, on every
    chip (docs/divergences.md R8). The C++ API issues the same instruction for an L1 destination on 2201 and
    3510 (create_cbuf_matrix: asc-devkit impl/basic_api/dav_c220/kernel_operator_mm_impl.h InitL1BufferCal,
    dav_3510/kernel_operator_mm_impl.h InitL1BufferCal), whose C-API page asc_fill_l1.md (950 and A2/A3)
    gives 流水类型 PIPE_MTE2; catlass's 950 MX matmul (block_mmad_mx_a8w4.hpp) fills L1 between
    WaitFlag<MTE1_MTE2> and SetFlag<MTE2_MTE1>. (The asc-devkit mmad_mx examples order their L1 Fill as if it
    ran on MTE1; ascsim reports that ordering.)"""
    return {"L0A": "MTE1", "L0B": "MTE1", "L1": "MTE2"}.get(dst, "MTE2")


# -- C++ template arguments of `ascsim cpp` ---------------------------------------------------------------


def _load_data_template(s: Any) -> tuple[str, ...]:
    """LoadData<Dst, Src, T> for the bit-mode structs (LoadData_3D_BitMode.md, LoadData_2D_BitMode.md);
    LoadData<T, cfg> with a non-default IsResetLoad3dConfig (a static constexpr, SetFmatrix.md example)."""
    if isinstance(s.struct("params"), (Load3DBitModeParam, Load2DBitModeParam)):
        return (f"AscendC::TPosition::{s.position('dst', 'dst_pos')}",
                f"AscendC::TPosition::{s.position('src', 'src_pos')}", s.dtype("dst"))
    cfg = s.config()
    if cfg is None:
        return ()
    s.static(f"static constexpr AscendC::IsResetLoad3dConfig cfg = {{{s.cpp_bool(cfg.isSetFMatrix)}, "
             f"{s.cpp_bool(cfg.isSetPadding)}}};")
    return (s.dtype("dst"), "cfg")


def _fixpipe_template(s: Any) -> tuple[str, ...]:
    """Fixpipe<T, U, config>: destination type, L0C type, FixpipeConfig (Fixpipe.md 函数原型)."""
    return (s.dtype("dst"), s.dtype("src"), f"AscendC::{s.fixpipe_config()}")


def _data_copy_pad_template(s: Any) -> tuple[str, ...]:
    """DataCopyPad<T, mode> (DataCopyPad（GMToL1非对齐数据搬运）.md 调用示例)."""
    return (s.dtype("dst"), f"AscendC::PaddingMode::{s.raw.get('mode', 'Normal')}")


def _type_of_value(s: Any) -> tuple[str, ...]:
    """SetLoadDataPaddingValue<T> / SetAtomicAdd<T>: T is the step's dtype."""
    return (s.dtype_name(),)


# -- the table ----------------------------------------------------------------------------------------------

LOAD_DATA_OVERLOADS: Mapping[type, Callable[..., Any]] = {
    LoadData3DParamsV1: load3d.load3d_v1,
    LoadData3DParamsV2: load3d.load3d_v2,
    LoadData3DParamsV2Pro: load3d.load3d_v2pro,
    Load3DBitModeParam: load3d.load3d_bitmode,
    LoadData2DParams: load2d.load2d,
    LoadData2DParamsV2: load2d.load2d_v2,
    Load2DBitModeParam: load2d.load2d_bitmode,
}

_DST = tensor("dst", writes=True)
_SRC = tensor("src")
_C, _A, _B = tensor("c", "dst", writes=True), tensor("a", "fm"), tensor("b", "filter")
_BIAS = tensor("bias", optional=True)
_MMAD = struct("params", MmadParams, var="mmadParams")
_LOAD3D_CONFIG = value("config", "load3d_config", default=None)


def _position_of(key: str) -> Callable[[Mapping[str, Any]], Any]:
    """A scenario step's default TPosition template argument: the position of its tensor `key`."""
    return lambda args: args[key].position


def _mmad_op(method: str, instr: str, run: Callable[..., Any], bias: bool, doc: str) -> Op:
    return Op(method, instr, (_C, _A, _B, _MMAD, *((_BIAS,) if bias else ())), doc, run, pipe="M")


LOAD_DATA = Op(
    "load_data", "LoadData",
    (_DST, _SRC, struct("params"), _LOAD3D_CONFIG,
     value("dst_pos", "position", cpp="Dst", default=None, keyword=True, step_default=_position_of("dst")),
     value("src_pos", "position", cpp="Src", default=None, keyword=True, step_default=_position_of("src"))),
    "`LoadData(dst, src, params)`, dispatching on the params struct type like the C++ overloads.",
    dispatch=LOAD_DATA_OVERLOADS, pipe=move_pipe, gather=True)
LOAD_DATA_MX = Op(
    "load_data_mx", "Load2DMX",
    (_DST, _SRC, tensor("src_mx", "srcMx"), struct("params", LoadData2DParamsV2),
     struct("mx_params", LoadData2DMxParams, cpp="mxParams", var="mxParams", step_default=STRUCT_DEFAULT)),
    "`LoadData(dst, src, srcMx, LoadData2DParamsV2, LoadData2DMxParams)` (Load2DMX, 950).",
    mx.load_data_mx, pipe=move_pipe)
MMAD = _mmad_op("mmad", "Mmad", mmad.mmad, True, "`Mmad(c, a, b[, bias], MmadParams)`.")
FIXPIPE = Op(
    "fixpipe", "Fixpipe",
    (_DST, _SRC, struct("params", FixpipeParamsV220, FixpipeParamsArch3510, FixpipeParamsC310,
                        var="fixpipeParams",
            check=False), value("config", "fixpipe_config", default=None),
     tensor("cbuf_workspace", "cbufWorkspace", optional=True, key="workspace")),
    "`Fixpipe<..., config>(dst, src, params)`: L0C -> GM (NZ2ND default; CFG_NZ, CFG_COLUMN_MAJOR).",
    fixpipe.fixpipe, pipe="FIX")
INIT_CONST_VALUE = Op(
    "init_const_value", "Fill",
    (_DST, struct("params", InitConstValueParams, var="fillParams"), value("instr", default="Fill")),
    "`Fill(dst, InitConstValueParams)` (`InitConstValue` before CANN 9): L1 / L0A / L0B. (`Core.fill` is "
    "the marker byte of fresh memory.)", fill.fill, pipe=fill_pipe)
SET_FMATRIX = Op(
    "set_fmatrix", "SetFmatrix",
    (value("l1H", int, step_default=0), value("l1W", int, step_default=0),
     value("padList", list[int], step_default=[0, 0, 0, 0], render="array"),
     value("mode", str, default="FMATRIX_LEFT", render="FmatrixMode")),
    "SetFmatrix(l1H, l1W, padList, FmatrixMode) (doc: SetFmatrix.md). FMATRIX_RIGHT writes the right bank, "
    "which Load3D reads with fMatrixCtrl = true; the doc says only FMATRIX_LEFT is supported, so it is a "
    "DocConflictWarning (divergence L11).", registers.set_fmatrix)
SET_FMATRIX_BITMODE = Op(
    "set_fmatrix_bitmode", "SetFmatrixBitMode",
    (struct("param", SetFMatrixBitModeParams, cpp="params", key="params", check=False),
     value("mode", str, default="FMATRIX_LEFT", render="FmatrixMode")),
    "SetFmatrix(SetFMatrixBitModeParams, FmatrixMode) (950; SetFmatrixBitMode.md 表3).",
    registers.set_fmatrix_bitmode)
SET_LOAD_DATA_REPEAT = Op(
    "set_load_data_repeat", "SetLoadDataRepeat",
    (struct("p", LoadDataRepeatParam, LoadDataRepeatParamWithStride, cpp="params", key="params",
            var="repeatParams", check=False),),
    "SetLoadDataRepeat / SetLoadDataRepeatWithStride (doc: SetLoadDataRepeat*.md).",
    registers.set_load_data_repeat)
SET_ATOMIC_NONE = Op("set_atomic_none", "SetAtomicNone", (),
                     "`SetAtomicNone()` / `DisableDmaAtomic()`: moves into GM overwrite again "
                     "(DisableDmaAtomic.md).",
                     registers.set_atomic_none)


def _one(op: Op, *order: str, **kw: Any) -> Form:
    return Form(op, tuple(order) if order else tuple(a.name for a in op.args if not a.keyword), **kw)


INSTRUCTIONS: tuple[Instruction, ...] = (
    Instruction("LoadData", (
        Form(LOAD_DATA, ("dst", "src", "params"), template=_load_data_template),
        Form(LOAD_DATA_MX, ("dst", "src", "src_mx", "params", "mx_params"), when="src_mx"),
    )),
    Instruction("LoadDataWithStride", (_one(Op(
        "load_data_with_stride", "LoadDataWithStride",
        (_DST, _SRC, struct("params", LoadData3DParamsV2), _LOAD3D_CONFIG),
        "`LoadDataWithStride(dst, src, LoadData3DParamsV2)` (950; dstStride from the repeat register).",
        load3d.load_data_with_stride, pipe=move_pipe, gather=True), "dst", "src", "params", "[config]",
        template=_load_data_template, template_args=("config",)),)),
    Instruction("LoadDataWithTranspose", (_one(Op(
        "load_data_with_transpose", "LoadDataWithTranspose",
        (_DST, _SRC, struct("params", LoadData2dTransposeParams, LoadData2dTransposeParamsV2)),
        "`LoadDataWithTranspose(dst, src, LoadData2dTransposeParams[V2])`.",
        transpose.load_data_with_transpose, pipe=move_pipe)),)),
    Instruction("LoadDataWithSparse", (_one(Op(
        "load_data_with_sparse", "LoadDataWithSparse",
        (_DST, _SRC, tensor("idx"), struct("params", LoadData2DParams)),
        "`LoadDataWithSparse(dst, src, idx, LoadData2dParams)` (A2/A3).",
        sparse.load_data_with_sparse, pipe=move_pipe)),)),
    Instruction("Mmad", (_one(MMAD, "c", "a", "b", "[bias]", "params"),)),
    Instruction("MmadWithSparse", (_one(_mmad_op(
        "mmad_with_sparse", "MmadWithSparse", sparse.mmad_with_sparse, False,
        "`MmadWithSparse(c, a, b, MmadParams)` (A2/A3).")),)),
    Instruction("MmadMx", (_one(_mmad_op(
        "mmad_mx", "MmadMx", mx.mmad_mx, True, "`MmadMx(c, a, b[, bias], MmadParams)` (950)."),
        "c", "a", "b", "[bias]", "params"),)),
    Instruction("DataCopy", (_one(Op(
        "data_copy", "DataCopy",
        (_DST, _SRC, struct("params", DataCopyParams, Nd2NzParams, Dn2NzParams, DataCopyCO12DstParams,
                            var="copyParams", check=False, brace=DataCopyParams),
         value("enable_small_c0", cpp="enableSmallC0", default=False, keyword=True)),
        "`DataCopy(dst, src, params)`: GM -> L1 (contiguous, Nd2Nz, Dn2Nz), L1 -> BT / FB, CO1 -> GM / L1.",
        copy.data_copy, pipe=move_pipe), "dst", "src", "params", "[enable_small_c0]"),)),
    Instruction("DataCopyPad", (_one(Op(
        "data_copy_pad", "DataCopyPad",
        (_DST, _SRC, struct("params", DataCopyExtParams, var="copyParams"),
         struct("pad_params", DataCopyPadExtParams, cpp="padParams", optional=True, var="padParams",
                step_default=STRUCT_DEFAULT),
         value("mode", "padding_mode", default=PaddingMode.Normal)),
        "`DataCopyPad<T, mode>(dst, src, DataCopyExtParams, DataCopyPadExtParams)` GM -> L1 (950).",
        copy.data_copy_pad, pipe=move_pipe), "dst", "src", "params", "[pad_params]", "[mode]",
        template=_data_copy_pad_template, template_args=("mode",)),)),
    Instruction("Fill", (_one(INIT_CONST_VALUE, "dst", "params"),)),
    Instruction("InitConstValue", (_one(INIT_CONST_VALUE, "dst", "params",
                                        fixed={"instr": "InitConstValue"}),)),
    Instruction("Fixpipe", (
        _one(FIXPIPE, "dst", "src", "params", "[config]", template=_fixpipe_template,
             template_args=("config",)),
        _one(FIXPIPE, "dst", "src", "cbuf_workspace", "params", "[config]", when="workspace",
             template=_fixpipe_template, template_args=("config",)),
    )),
    Instruction("SetFmatrix", (
        _one(SET_FMATRIX, "l1H", "l1W", "padList", "[mode]"),
        _one(SET_FMATRIX_BITMODE, "param", "[mode]", when="params"),
    )),
    Instruction("SetLoadDataPaddingValue", (_one(Op(
        "set_padding_value", "SetLoadDataPaddingValue",
        (value("value", float, cpp="padValue", step_default=0),
         value("dtype", str, default=None, step_default=REQUIRED,
               note="the T of SetLoadDataPaddingValue<T>; ascsim does not guess it")),
        "SetLoadDataPaddingValue<T>(padValue): stores the value's bit pattern.", registers.set_padding_value),
        "value", "[dtype]", template=_type_of_value, template_args=("dtype",)),)),
    Instruction("SetLoadDataRepeat", (_one(SET_LOAD_DATA_REPEAT, structs={"p": (LoadDataRepeatParam,)}),)),
    Instruction("SetLoadDataRepeatWithStride", (_one(SET_LOAD_DATA_REPEAT,
                                                     structs={"p": (LoadDataRepeatParamWithStride,)}),)),
    Instruction("SetLoadDataBoundary", (_one(Op(
        "set_load_data_boundary", "SetLoadDataBoundary",
        (value("value", int, cpp="boundaryValue", step_default=0),),
        "SetLoadDataBoundary(boundaryValue) (A2/A3): L1 reads past it wrap to the start of L1.",
        registers.set_load_data_boundary)),)),
    Instruction("SetAtomicAdd", (_one(Op(
        "set_atomic_add", "SetAtomicAdd", (value("dtype", str, step_default="float"),),
        "`SetAtomicAdd<T>()`: later moves into GM add onto what is there (原子操作/SetAtomicAdd.md).",
        registers.set_atomic_add), template=_type_of_value, template_args=("dtype",)),)),
    Instruction("SetAtomicMax", (_one(Op(
        "set_atomic_max", "SetAtomicMax", (value("dtype", str, step_default="float"),),
        "`SetAtomicMax<T>()`: later moves into GM keep the larger value (原子操作/SetAtomicMax(ISASI).md).",
        registers.set_atomic_max), template=_type_of_value, template_args=("dtype",)),)),
    Instruction("SetAtomicMin", (_one(Op(
        "set_atomic_min", "SetAtomicMin", (value("dtype", str, step_default="float"),),
        "`SetAtomicMin<T>()`: later moves into GM keep the smaller value (原子操作/SetAtomicMin(ISASI).md).",
        registers.set_atomic_min), template=_type_of_value, template_args=("dtype",)),)),
    Instruction("SetAtomicNone", (_one(SET_ATOMIC_NONE),)),
    Instruction("DisableDmaAtomic", (_one(SET_ATOMIC_NONE),)),
    Instruction("SetFixpipeNz2ndFlag", (_one(Op(
        "set_fixpipe_nz2nd_flag", "SetFixpipeNz2ndFlag",
        (value("ndNum", int, step_default=1), value("srcNdStride", int, step_default=0),
         value("dstNdStride", int, step_default=0)),
        "`SetFixpipeNz2ndFlag(ndNum, srcNdStride, dstNdStride)` (ND_PARA).",
        fixpipe.set_fixpipe_nz2nd_flag)),)),
    Instruction("SetFixpipePreQuantFlag", (_one(Op(
        "set_fixpipe_pre_quant_flag", "SetFixpipePreQuantFlag", (value("config", int, step_default=0,
                                                                       render="hex"),),
        "`SetFixpipePreQuantFlag(config)` (QUANT_PRE).", fixpipe.set_fixpipe_pre_quant_flag)),)),
    Instruction("SetFixPipeConfig", (_one(Op(
        "set_fixpipe_config", "SetFixPipeConfig",
        (tensor("quant_pre", "quantPre"), tensor("relu_pre", "reluPre", optional=True),
         value("is_unit_flag", cpp="isUnitFlag", default=False)),
        "`SetFixPipeConfig([reluPre,] quantPre[, isUnitFlag])` (FPC: the quant tensor in the Fixpipe "
        "Buffer).",
        fixpipe.set_fixpipe_config), "[relu_pre]", "quant_pre"),)),
    # Mmad's mode registers (kernel_operator_mm_intf.h): HF32 is refused when on; the layout-transform bit is
    # Mmad's issue order only (N or M first), which changes no byte of L0C (ascsim.isa.registers).
    Instruction("SetHF32Mode", (_one(Op(
        "set_hf32_mode", "SetHF32Mode", (value("mode", bool, cpp="hf32Mode", step_default=False),),
        "`SetHF32Mode(bool | HF32Mode)`: false is the default; true (HF32 rounding in Mmad) is not modelled.",
        registers.set_hf32_mode)),)),
    Instruction("SetHF32TransMode", (_one(Op(
        "set_hf32_trans_mode", "SetHF32TransMode",
        (value("mode", bool, cpp="hf32TransMode", step_default=False),),
        "`SetHF32TransMode(bool | HF32TransMode)`: HF32's rounding; no byte effect with HF32 off.",
        registers.set_hf32_trans_mode)),)),
    Instruction("SetMMLayoutTransform", (_one(Op(
        "set_mm_layout_transform", "SetMMLayoutTransform",
        (value("mode", bool, cpp="mmLayoutMode", step_default=False),),
        "`SetMMLayoutTransform(bool)`: Mmad's issue order (N or M first) only, so no byte effect.",
        registers.set_mm_layout_transform)),)),
    Instruction("SetMMRowMajor", (_one(Op(
        "set_mm_row_major", "SetMMRowMajor", (),
        "`SetMMRowMajor()` (SetMMLayoutTransform(true)): Mmad's issue order only, so no byte effect.",
        registers.set_mm_row_major)),)),
    Instruction("SetMMColumnMajor", (_one(Op(
        "set_mm_column_major", "SetMMColumnMajor", (),
        "`SetMMColumnMajor()` (SetMMLayoutTransform(false)): Mmad's issue order only, so no byte effect.",
        registers.set_mm_column_major)),)),
)

#: C++ name -> instruction.
BY_NAME: Mapping[str, Instruction] = {i.name: i for i in INSTRUCTIONS}


def operations() -> tuple[Op, ...]:
    """Every operation once, in table order (the Core methods)."""
    seen: dict[str, Op] = {}
    for ins in INSTRUCTIONS:
        for f in ins.forms:
            seen.setdefault(f.op.method, f.op)
    return tuple(seen.values())


def no_overload(instr: str, params: object, overloads: Mapping[type, Any]) -> UnsupportedError:
    """The refusal of a params struct no overload of `instr` takes."""
    known = ", ".join(sorted(t.__name__ for t in overloads))
    got = f"the class {params.__name__} itself" if isinstance(params, type) else type(params).__name__
    return UnsupportedError(f"{instr}: no overload takes {got}; known: {known}",
                            basis=cpp_rejects(f"no {instr} overload takes this params type"))


def pipe_of(name: str, dst_mem: str | None, src_mem: str | None, chip_key: str = "") -> str | None:
    """The pipe a call of C++ API `name` runs on (None for register setters and calls that move no data)."""
    ins = BY_NAME.get(name)
    if ins is None:
        return None
    pipe = ins.forms[0].op.pipe
    if pipe is None or isinstance(pipe, str):
        return pipe
    if dst_mem is None:
        return None
    return pipe(dst_mem, src_mem or "", chip_key)


#: Struct types that appear anywhere in the table (every one a scenario step may name is in ascsim.params).
TABLE_STRUCTS = frozenset({
    *LOAD_DATA_OVERLOADS, LoadData2DMxParams, LoadData2dTransposeParams, LoadData2dTransposeParamsV2,
    MmadParams, DataCopyParams, Nd2NzParams, Dn2NzParams, DataCopyCO12DstParams, DataCopyExtParams,
    DataCopyPadExtParams, InitConstValueParams, FixpipeParamsV220, FixpipeParamsArch3510, FixpipeParamsC310,
    LoadDataRepeatParam, LoadDataRepeatParamWithStride, SetFMatrixBitModeParams,
})
