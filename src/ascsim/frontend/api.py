"""The Ascend C API as the front-end sees it: its constants and enums, its types, and ONE table binding
each C++ call to the `ascsim.ascendc` facade function that executes it.

Nothing here implements an instruction: a call is converted (C++ values -> Python values, template
arguments -> the facade's keywords, brace initialisers -> the params struct of that argument) and handed
to the facade, whose Core validates and executes it. A table entry whose facade function does not exist
yet (the companion instructions arriving with branch i7b: Fill, InitConstValue, DataCopyPad, SetAtomicAdd,
...) stops the kernel with `NotImplementedFeature` naming the call, never a silent skip; once the facade
has the function the entry works unchanged.

Each entry also says which arguments the call writes and reads (for the sync checker) and how the call is
written as a scenario step (for `--emit-scenario`).
"""

from __future__ import annotations

import copy
import dataclasses
from collections.abc import Callable
from dataclasses import dataclass, field
from enum import IntEnum
from typing import Any

from .. import ascendc
from .. import params as P
from ..base.errors import NotImplementedFeature
from ..isa.table import BY_NAME, INSTRUCTIONS, STRUCT, TENSOR, VALUE, Arg, Form, Instruction
from ..machine.memory import LocalTensor
from ..scenario import struct_types
from .cvalues import FLOAT as _FLOAT
from .cvalues import INT32 as _INT
from .cvalues import Num, TypeVal
from .runtime import RuntimeFault, Unset


@dataclass(frozen=True)
class EnumVal:
    """An enumerator of an Ascend C enum: TPosition::A1, HardEvent::MTE2_MTE1, pipe_t PIPE_MTE1, ..."""

    enum: str
    member: str

    def __str__(self) -> str:
        return f"{self.enum}::{self.member}"


@dataclass
class ArrayVal:
    """A C array (`uint8_t padList[4] = {...}`): cells of one element type."""

    cells: list  # list of Var


@dataclass
class Braced:
    """A brace initialiser whose type comes from where it is used."""

    values: list


_TPOSITIONS = (
    "GM",
    "A1",
    "A2",
    "B1",
    "B2",
    "C1",
    "C2",
    "CO1",
    "CO2",
    "VECIN",
    "VECOUT",
    "VECCALC",
    "LCM",
    "SPM",
    "SHM",
    "TSCM",
    "C2PIPE2GM",
    "MAX",
)
_EVENTS = (
    "MTE2_MTE1",
    "MTE1_MTE2",
    "MTE1_M",
    "M_MTE1",
    "MTE2_M",
    "M_MTE2",
    "M_FIX",
    "FIX_M",
    "MTE1_FIX",
    "FIX_MTE1",
    "MTE2_FIX",
    "FIX_MTE2",
    "MTE1_MTE3",
    "MTE3_MTE1",
    "MTE2_MTE3",
    "MTE3_MTE2",
    "MTE2_V",
    "V_MTE2",
    "MTE3_V",
    "V_MTE3",
    "M_V",
    "V_M",
    "S_MTE2",
    "MTE2_S",
    "S_MTE3",
    "MTE3_S",
    "S_V",
    "V_S",
    "FIX_MTE3",
    "MTE3_FIX",
    "M_MTE3",
    "MTE3_M",
    "V_V",
    "FIX_S",
    "S_FIX",
    "MTE1_S",
    "S_MTE1",
    "M_S",
    "S_M",
)
_PIPES = ("PIPE_S", "PIPE_V", "PIPE_M", "PIPE_MTE1", "PIPE_MTE2", "PIPE_MTE3", "PIPE_FIX", "PIPE_ALL")


def _enum_table() -> dict[str, Any]:
    t: dict[str, Any] = {}
    for p in _TPOSITIONS:
        t[f"TPosition::{p}"] = EnumVal("TPosition", p)
        t[f"QuePosition::{p}"] = EnumVal("TPosition", p)
    for e in _EVENTS:
        t[f"HardEvent::{e}"] = EnumVal("HardEvent", e)
    for p in _PIPES:
        t[p] = t[f"pipe_t::{p}"] = EnumVal("pipe_t", p.removeprefix("PIPE_"))
    for i in range(8):
        t[f"EVENT_ID{i}"] = t[f"event_t::EVENT_ID{i}"] = Num(i, _INT)
    for m in P.QuantMode_t:
        t[f"QuantMode_t::{m.name}"] = t[m.name] = m
    for m in P.CO2Layout:
        t[f"CO2Layout::{m.name}"] = m
    for m in ascendc.FmatrixMode:
        t[f"FmatrixMode::{m.name}"] = t[m.name] = EnumVal("FmatrixMode", m.name)
    for m in P.PaddingMode:  # DataCopyPad<T, PaddingMode::Compact>
        t[f"PaddingMode::{m.name}"] = m
    t.update(
        {
            "CFG_ROW_MAJOR": P.CFG_ROW_MAJOR,
            "CFG_NZ": P.CFG_NZ,
            "CFG_COLUMN_MAJOR": P.CFG_COLUMN_MAJOR,
            "IS_RESER_LOAD3D_DEFAULT_CONFIG": P.IS_RESER_LOAD3D_DEFAULT_CONFIG,
            "ONE_BLK_SIZE": Num(32, _INT),
            "BLOCK_CUBE": Num(16, _INT),
            "ONE_BLOCK_SIZE": Num(32, _INT),
            "PAD_SIZE": Num(4, _INT),
            "NAN": Num(float("nan"), _FLOAT),
            "INFINITY": Num(float("inf"), _FLOAT),
        }
    )
    return t


CONSTANTS = _enum_table()

#: Namespaces a qualified name may start with; they are dropped before lookup.
NAMESPACES = ("AscendC", "std", "Std", "")


def constant(qualified: str) -> Any:
    """The value of an API constant by (possibly AscendC::-qualified) name, or None."""
    name = qualified
    for ns in NAMESPACES:
        if ns and name.startswith(ns + "::"):
            name = name[len(ns) + 2 :]
    name = name.removeprefix("::")
    return CONSTANTS.get(name)


# -- types --------------------------------------------------------------------------------------------

#: API class templates the front-end models (the rest of kernel_operator.h is not).
API_TYPES = ("LocalTensor", "GlobalTensor", "TPipe", "TQue", "TQueBind", "TBuf")

#: Params structs with a template parameter (the parameter does not change their fields in ascsim).
TEMPLATED_STRUCTS = (
    "LoadData3DParamsV1",
    "LoadData3DParamsV2",
    "InitConstValueParams",
    "FixpipeParamsArch3510",
    "FixpipeParamsC310",
    "DataCopyPadExtParams",
    "Load3DBitModeParam",
)


def struct_class(name: str) -> type | None:
    """The params struct class for a C++ struct name (every struct of `ascsim.params`)."""
    return struct_types().get(name)


def new_struct(t: TypeVal) -> Any:
    """A default-constructed params struct (FixpipeParamsArch3510<L> gets the TransformParams of L)."""
    obj = t.ref()
    if t.ref is P.FixpipeParamsArch3510 and t.args:
        layout = t.args[0]
        if layout == P.CO2Layout.ROW_MAJOR:
            obj.params = P.Nz2NdParams()
        elif layout == P.CO2Layout.COLUMN_MAJOR:
            obj.params = P.Nz2DnParams()
    return obj


def struct_fields(cls: type) -> list[str]:
    if dataclasses.is_dataclass(cls):
        return [f.name for f in dataclasses.fields(cls)]
    return []


def nested_struct_type(obj: Any, name: str) -> type | None:
    """The struct type of a nested field (FixpipeParamsArch3510.params follows its CO2Layout)."""
    cur = getattr(obj, name, None)
    if dataclasses.is_dataclass(cur):
        return type(cur)
    return None


def field_value(obj: Any, name: str, v: Any) -> Any:
    """A C++ value converted for struct field `name` of `obj` (the field keeps C++'s value: a value the
    field's C++ type could not hold is left for the instruction's validator, docs/divergences.md R6)."""
    cur = getattr(obj, name, None)
    if isinstance(v, Braced):
        cls = nested_struct_type(obj, name)
        if cls is None:
            raise RuntimeFault(f"{type(obj).__name__}.{name} is not a struct, but got a brace initialiser")
        return build_struct(cls, v.values)
    pv = plain(v)
    if isinstance(cur, IntEnum) and isinstance(pv, int):
        try:
            return type(cur)(pv)
        except ValueError:
            raise RuntimeFault(f"{type(obj).__name__}.{name}: {pv} is not a {type(cur).__name__}") from None
    if isinstance(cur, bool) and isinstance(pv, (int, float)):
        return pv
    if isinstance(cur, list) and not isinstance(pv, list):
        raise RuntimeFault(f"{type(obj).__name__}.{name} is an array, but got {pv!r}")
    return pv


def build_struct(cls: type, values: list, t: TypeVal | None = None) -> Any:
    """A struct from constructor / brace arguments in the C++ constructor order (= the dataclass order)."""
    obj = new_struct(t) if t is not None else cls()
    if not dataclasses.is_dataclass(cls):  # bit-mode params: their constructors take raw words / a struct
        try:
            return cls(*[plain(v) for v in values])
        except (TypeError, ValueError) as e:
            raise RuntimeFault(f"{cls.__name__}({', '.join(map(str, values))}): {e}") from None
    names = struct_fields(cls)
    if len(values) > len(names):
        raise RuntimeFault(
            f"{cls.__name__} takes at most {len(names)} values ({', '.join(names)}), but got {len(values)}"
        )
    for n, v in zip(names, values, strict=False):
        setattr(obj, n, field_value(obj, n, v))
    return obj


def plain(v: Any) -> Any:
    """A C++ value as the facade takes it."""
    if isinstance(v, Num):
        return v.v
    if isinstance(v, ArrayVal):
        return [plain(c.get()) for c in v.cells]
    if isinstance(v, EnumVal):
        if v.enum == "TPosition":
            return ascendc.TPosition(v.member) if v.member in ascendc.TPosition.__members__ else v.member
        if v.enum == "FmatrixMode":
            return ascendc.FmatrixMode[v.member]
        return v.member
    if isinstance(v, TypeVal):
        if v.dtype is None:
            raise RuntimeFault(f"type {v.name} is not an element type ascsim models")
        return v.dtype.name
    if isinstance(v, Unset):
        raise v.fault("this call")
    return v


# -- the binding: each C++ call to its form in the instruction table ---------------------------------------


@dataclass
class BoundCall:
    """A C++ call ready for the facade: arguments, the tensors it writes / reads, its scenario step."""

    args: list
    kwargs: dict = field(default_factory=dict)
    writes: list[LocalTensor] = field(default_factory=list)
    reads: list[LocalTensor] = field(default_factory=list)
    step: dict | None = None  # scenario step with LocalTensors in place of tensor references


def _is_tensor(v: Any) -> bool:
    return isinstance(v, (LocalTensor, Unset))


def _fits(a: Arg, v: Any) -> bool:
    """Can C++ value `v` be argument `a` of a form (to choose between overloads)?"""
    if a.kind == TENSOR:
        return _is_tensor(v)
    if a.kind == STRUCT and a.structs:
        return isinstance(v, (Braced, *(a.structs if a.check else struct_types().values())))
    return not _is_tensor(v)


def _slots(form: Form, n: int, given: set[str] = frozenset()) -> list[str] | None:
    """The Arg names `n` positional arguments fill in `form` (optional slots left to right; slots a
    template argument already `given` are left out), or None when they do not fit."""
    slots = [(name, opt) for name, opt in form.positional() if name not in given]
    required = sum(not opt for _, opt in slots)
    extra = n - required
    if not 0 <= extra <= len(slots) - required:
        return None
    out = []
    for name, opt in slots:
        if opt:
            if extra == 0:
                continue
            extra -= 1
        out.append(name)
    return out


@dataclass(frozen=True)
class Bind:
    """One C++ API name of the instruction table as the front-end calls it (through `ascsim.ascendc`)."""

    ins: Instruction

    @property
    def name(self) -> str:
        return self.ins.name

    @property
    def setter(self) -> bool:
        """A register setter: no pipe, nothing read or written in memory."""
        return self.ins.setter

    def brace(self, n: int) -> str:
        """The struct a brace initialiser as the last of `n` arguments builds ("" when the overloads leave
        it ambiguous)."""
        types = set()
        for form in self.ins.forms:
            slots = _slots(form, n)
            if slots:
                a = form.op.arg(slots[-1])
                structs = form.structs_of(a.name)
                one = a.brace if a.brace is not None else structs[0] if len(structs) == 1 else None
                types.add(one.__name__ if a.kind == STRUCT and one is not None else "")
        return types.pop() if len(types) == 1 else ""

    def adapt(self, targs: list, args: list) -> BoundCall:
        """The facade call for C++ template arguments `targs` and call arguments `args`."""
        many = len(self.ins.forms) > 1
        for form in self.ins.forms:
            kwargs = _template_kwargs(form, targs)
            slots = _slots(form, len(args), {form.op.by_cpp[k].name for k in kwargs})
            if slots is not None and (not many or all(
                    _fits(form.op.arg(n), v) for n, v in zip(slots, args, strict=True))):
                break
        else:
            raise RuntimeFault(f"{self.name} takes {self.ins.usage()}, but got {len(args)} arguments")
        bound = dict(zip(slots, args, strict=True))
        tensors = [a for a in form.op.args if a.kind == TENSOR and isinstance(bound.get(a.name), LocalTensor)]
        writes = [bound[a.name] for a in tensors if a.writes]
        reads = [bound[a.name] for a in tensors if not a.writes]
        values = {**bound, **{form.op.by_cpp[k].name: v for k, v in kwargs.items()}}
        hook = _STEP_HOOKS.get(self.name)
        if hook is not None:
            values, kwargs = hook(values, kwargs)
        step = {"call": self.name}
        for a in form.step_args():
            if a.name in values:
                step[a.step_key] = _step_value(a, values[a.name])
        return BoundCall(list(args), kwargs, writes, reads, step)


def _template_kwargs(form: Form, targs: list) -> dict:
    """C++ template arguments as the facade's keywords, each to the argument of its kind: TPositions in
    order to the TPosition arguments (LoadData<Dst, Src>), an IsResetLoad3dConfig, a FixpipeConfig or a
    PaddingMode to the argument of that vocabulary, an element type to `dtype`, a bool to the flag
    (DataCopy<..., enableSmallC0>). Template arguments the facade takes from the tensors (the T of
    LoadData<T>, Fill<T, U>, DataCopyPad<T, mode>) are dropped."""
    kw: dict = {}
    positions = [a for a in form.op.args if a.step == "position"]
    for t in targs:
        if isinstance(t, EnumVal) and t.enum == "TPosition":
            if positions:
                kw[positions.pop(0).cpp_name] = plain(t)
            continue
        vocab = ("load3d_config" if isinstance(t, P.IsResetLoad3dConfig) else
                 "fixpipe_config" if isinstance(t, P.FixpipeConfig) else
                 "padding_mode" if isinstance(t, P.PaddingMode) else None)
        for a in form.op.args:
            if vocab is not None and a.step == vocab:
                kw[a.cpp_name] = t
            elif vocab is None and isinstance(t, TypeVal) and a.name == "dtype":
                kw[a.cpp_name] = plain(t)
            elif (vocab is None and isinstance(t, Num) and t.t.kind == "bool" and a.kind == VALUE
                  and a.step is None and isinstance(a.default, bool)):
                kw[a.cpp_name] = bool(t.v)
    return kw


def _step_value(a: Arg, v: Any) -> Any:
    """A C++ value as the scenario step spells it (tensors stay LocalTensors; emit resolves them)."""
    if a.step == "load3d_config":
        return dataclasses.asdict(v)
    if a.step == "fixpipe_config":
        return _config_name(v)
    if a.step == "padding_mode":
        return v.name
    if a.step == "position":
        return str(getattr(v, "value", v))
    if a.kind == VALUE and a.step is not None:
        v = plain(v)
        return v.value if isinstance(v, ascendc.FmatrixMode) else list(v) if isinstance(v, tuple) else v
    return v


def _config_name(cfg: P.FixpipeConfig) -> str:
    for name in ("CFG_ROW_MAJOR", "CFG_NZ", "CFG_COLUMN_MAJOR"):
        if getattr(P, name) == cfg:
            return name
    return "CFG_ROW_MAJOR"


def _count_as_struct(values: dict, kwargs: dict) -> tuple[dict, dict]:
    """DataCopy(dst, src, count) is the DataCopyParams overload with one block of count * sizeof(T) bytes
    in 32-B blocks (a scenario step spells it as the struct)."""
    p, dst = values.get("params"), values.get("dst")
    if isinstance(p, (int, Num)) and isinstance(dst, LocalTensor):
        values = {**values, "params": P.DataCopyParams(1, int(plain(p)) * dst.dtype.bits // 8 // 32, 0, 0)}
    return values, kwargs


def _deduce_pad_type(values: dict, kwargs: dict) -> tuple[dict, dict]:
    """SetLoadDataPaddingValue<T>(T padValue): without an explicit T, C++ deduces it from the argument: a
    float value gives its own type; anything else is taken as half (the kernels' usual T)."""
    if "dtype" not in values:
        v = values.get("value")
        dtype = v.t.name if isinstance(v, Num) and v.t.kind == "float" else "half"
        values, kwargs = {**values, "dtype": dtype}, {**kwargs, "dtype": dtype}
    return values, kwargs


#: Where C++'s own rules (an overload taking a count, template argument deduction) shape the call.
_STEP_HOOKS: dict[str, Callable[[dict, dict], tuple[dict, dict]]] = {
    "DataCopy": _count_as_struct, "SetLoadDataPaddingValue": _deduce_pad_type,
}

#: C++ name (without AscendC::) -> binding: every name of the instruction table.
API: dict[str, Bind] = {ins.name: Bind(ins) for ins in INSTRUCTIONS}

#: API calls of the cube path the front-end knows but ascsim does not model: a call stops the kernel with
#: NotImplementedFeature naming it (docs/divergences.md R20).
UNMODELLED = tuple(n for n in ("SetAtomicMax", "SetAtomicMin", "SetAtomicType") if n not in BY_NAME)


#: Params structs of the companion calls above that ascsim.params does not have yet.
PENDING_STRUCTS = frozenset(
    {
        "InitConstValueParams",
        "DataCopyExtParams",
        "DataCopyPadExtParams",
        "LoadData2dParams",
        "FixpipeParamsC310",
    }
) - frozenset(struct_types())

#: Calls with no effect on the simulated cube core (one core, no CTRL state ascsim models).
NO_OPS = (
    "InitSocState",
    "SetSysWorkspace",
    "SetMaskNorm",
    "ResetMask",
    "SetMaskCount",
    "SetHF32Mode",
    "SetHF32TransMode",
    "SetMMRowMajor",
    "SetMMColumnMajor",
    "DataSyncBarrier",
    "ICachePreLoad",
)

#: Scalar queries of the launch: one block, one core.
QUERIES = {"GetBlockIdx": 0, "GetBlockNum": 1, "GetSubBlockIdx": 0, "GetTaskRation": 1, "GetSubBlockNum": 1}

#: AscendC's scalar helpers (impl/basic_api/utils/kernel_utils_ceil_oom_que.h: uint32_t (uint32_t a, uint32_t
#: b)): name -> f(a, b) on the converted arguments.
def _div_ceil(a: int, b: int) -> int:
    return ((a + b - 1) & 0xFFFFFFFF) // b  # a + b - 1 is computed in uint32_t and wraps


SCALAR_HELPERS: dict[str, Callable[[int, int], int]] = {
    "DivCeil": _div_ceil,
    "Ceil": _div_ceil,
    "ConstCeil": _div_ceil,
    "AlignUp": lambda a, b: _div_ceil(a, b) * b,
}

#: Sync calls the interpreter hands to the sync checker.
SYNC_CALLS = ("SetFlag", "WaitFlag", "PipeBarrier")


def facade(bind: Bind) -> Callable:
    """The `ascsim.ascendc` function that executes a bound call."""
    return getattr(ascendc, bind.name)


def unmodelled(name: str) -> NotImplementedFeature:
    """The stop of a known API call ascsim does not model."""
    return NotImplementedFeature(f"{name} is not modelled by ascsim yet (no ascsim.ascendc.{name}); the "
                                 "front-end binds it already, so it runs once the facade has it")


def is_struct(v: Any) -> bool:
    """Is `v` a params struct (a value type the kernel may copy and mutate)?"""
    return type(v) in _struct_set()


def _struct_set() -> frozenset[type]:
    global _STRUCTS
    if _STRUCTS is None:
        _STRUCTS = frozenset(struct_types().values())
    return _STRUCTS


_STRUCTS: frozenset[type] | None = None


def snapshot(v: Any) -> Any:
    """A copy of a params struct (C++ copies them by value, and kernels mutate theirs after a call);
    every other value is returned as it is."""
    return copy.deepcopy(v) if is_struct(v) else v
