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


# -- the binding table ------------------------------------------------------------------------------------


@dataclass
class Prepared:
    """A call ready for the facade: arguments, the tensors it writes / reads, its scenario step."""

    args: list
    kwargs: dict = field(default_factory=dict)
    writes: list[LocalTensor] = field(default_factory=list)
    reads: list[LocalTensor] = field(default_factory=list)
    step: dict | None = None  # scenario step with LocalTensors in place of tensor references


@dataclass(frozen=True)
class Bind:
    """One C++ call: the facade function it goes to, the struct a brace-initialised last argument builds,
    and the adapter that maps template and call arguments."""

    facade: str
    adapt: Callable[[list, list], Prepared]
    brace: str = ""
    setter: bool = False  # a register setter: no pipe, nothing read or written in memory


def _tensors(args: list, idx: tuple[int, ...]) -> list[LocalTensor]:
    return [args[i] for i in idx if i < len(args) and isinstance(args[i], LocalTensor)]


def _pos_kw(targs: list) -> dict:
    """LoadData<Dst, Src, T>(...) / LoadData<T, cfg>(...): TPositions and an IsResetLoad3dConfig."""
    kw: dict = {}
    positions = [a for a in targs if isinstance(a, EnumVal) and a.enum == "TPosition"]
    if positions:
        kw["Dst"], kw["Src"] = (plain(p) for p in positions[:2])
    cfg = [a for a in targs if isinstance(a, P.IsResetLoad3dConfig)]
    if cfg:
        kw["config"] = cfg[0]
    return kw


def _load_data(targs: list, args: list) -> Prepared:
    kw = _pos_kw(targs)
    if len(args) == 5:  # Load2DMX: LoadData(dst, src, srcMx, params, mxParams)
        dst, src, mx, p, mxp = args
        step = {"call": "LoadData", "dst": dst, "src": src, "src_mx": mx, "params": p, "mx_params": mxp}
        return Prepared(list(args), {}, _tensors(args, (0,)), _tensors(args, (1, 2)), step)
    if len(args) != 3:
        raise RuntimeFault(
            f"LoadData takes (dst, src, params) or (dst, src, srcMx, params, mxParams), but got "
            f"{len(args)} arguments"
        )
    dst, src, p = args
    step = {"call": "LoadData", "dst": dst, "src": src, "params": p}
    if "config" in kw:
        step["config"] = dataclasses.asdict(kw["config"])
    if "Dst" in kw:
        step["dst_pos"], step["src_pos"] = (
            str(getattr(kw["Dst"], "value", kw["Dst"])),
            str(getattr(kw["Src"], "value", kw["Src"])),
        )
    return Prepared([dst, src, p], kw, [dst], [src], step)


def _with_stride(targs: list, args: list) -> Prepared:
    dst, src, p = _arity("LoadDataWithStride", args, 3)
    kw = {k: v for k, v in _pos_kw(targs).items() if k == "config"}
    step = {"call": "LoadDataWithStride", "dst": dst, "src": src, "params": p}
    if "config" in kw:
        step["config"] = dataclasses.asdict(kw["config"])
    return Prepared([dst, src, p], kw, [dst], [src], step)


def _two(call: str) -> Callable[[list, list], Prepared]:
    def adapt(targs: list, args: list) -> Prepared:
        dst, src, p = _arity(call, args, 3)
        return Prepared([dst, src, p], {}, [dst], [src], {"call": call, "dst": dst, "src": src, "params": p})

    return adapt


def _sparse(targs: list, args: list) -> Prepared:
    dst, src, idx, p = _arity("LoadDataWithSparse", args, 4)
    return Prepared(
        [dst, src, idx, p],
        {},
        [dst],
        [src, idx],
        {"call": "LoadDataWithSparse", "dst": dst, "src": src, "idx": idx, "params": p},
    )


def _mmad(call: str) -> Callable[[list, list], Prepared]:
    def adapt(targs: list, args: list) -> Prepared:
        if len(args) not in (4, 5) or (call == "MmadWithSparse" and len(args) != 4):
            raise RuntimeFault(f"{call} takes (c, a, b[, bias], params), but got {len(args)} arguments")
        step = {"call": call, "c": args[0], "a": args[1], "b": args[2], "params": args[-1]}
        if len(args) == 5:
            step["bias"] = args[3]
        return Prepared(list(args), {}, [args[0]], _tensors(args, (1, 2, 3)), step)

    return adapt


def _data_copy(targs: list, args: list) -> Prepared:
    dst, src, p = _arity("DataCopy", args, 3)
    kw = {}
    flags = [a for a in targs if isinstance(a, Num) and a.t.kind == "bool"]
    if flags:
        kw["enableSmallC0"] = bool(flags[0].v)
    params = p
    if isinstance(p, (int, Num)):  # DataCopy(dst, src, count): count*sizeof(T) bytes in 32-B blocks
        params = (
            P.DataCopyParams(1, int(p) * dst.dtype.bits // 8 // 32, 0, 0)
            if isinstance(dst, LocalTensor)
            else p
        )
    return Prepared(
        [dst, src, p], kw, [dst], [src], {"call": "DataCopy", "dst": dst, "src": src, "params": params}
    )


def _fixpipe(targs: list, args: list) -> Prepared:
    configs = [a for a in targs if isinstance(a, P.FixpipeConfig)]
    kw = {"config": configs[0]} if configs else {}
    if len(args) == 4:  # Fixpipe(dst, src, cbufWorkspace, params)
        dst, src, ws, p = args
        kw["cbufWorkspace"] = ws
        return Prepared([dst, src, p], kw, [dst], _tensors(args, (1, 2)), None)
    dst, src, p = _arity("Fixpipe", args, 3)
    step = {"call": "Fixpipe", "dst": dst, "src": src, "params": p}
    if configs:
        step["config"] = _config_name(configs[0])
    return Prepared([dst, src, p], kw, [dst], [src], step)


def _config_name(cfg: P.FixpipeConfig) -> str:
    for name in ("CFG_ROW_MAJOR", "CFG_NZ", "CFG_COLUMN_MAJOR"):
        if getattr(P, name) == cfg:
            return name
    return "CFG_ROW_MAJOR"


def _set_fmatrix(targs: list, args: list) -> Prepared:
    if args and isinstance(args[0], P.SetFMatrixBitModeParams):
        mode = plain(args[1]) if len(args) > 1 else ascendc.FmatrixMode.FMATRIX_LEFT
        return Prepared(
            [args[0], mode], {}, step={"call": "SetFmatrix", "params": args[0], "mode": mode.value}
        )
    if len(args) not in (3, 4):
        raise RuntimeFault(
            f"SetFmatrix takes (l1H, l1W, padList[, FmatrixMode]), but got {len(args)} arguments"
        )
    h, w, pads = plain(args[0]), plain(args[1]), plain(args[2])
    mode = plain(args[3]) if len(args) == 4 else ascendc.FmatrixMode.FMATRIX_LEFT
    step = {"call": "SetFmatrix", "l1H": h, "l1W": w, "padList": list(pads), "mode": mode.value}
    return Prepared([h, w, pads, mode], {}, step=step)


def _padding(targs: list, args: list) -> Prepared:
    (v,) = _arity("SetLoadDataPaddingValue", args, 1)
    types = [a for a in targs if isinstance(a, TypeVal)]
    dtype = plain(types[0]) if types else (v.t.name if isinstance(v, Num) and v.t.kind == "float" else "half")
    value = plain(v)
    return Prepared(
        [value, dtype], {}, step={"call": "SetLoadDataPaddingValue", "value": value, "dtype": dtype}
    )


def _one_param(call: str, key: str = "params") -> Callable[[list, list], Prepared]:
    def adapt(targs: list, args: list) -> Prepared:
        (p,) = _arity(call, args, 1)
        return Prepared([plain(p)], {}, step={"call": call, key: plain(p)})

    return adapt


def _generic(writes: tuple[int, ...], reads: tuple[int, ...]) -> Callable[[list, list], Prepared]:
    """Companion instructions (branch i7b): positional arguments as written, template types as dtype=."""

    def adapt(targs: list, args: list) -> Prepared:
        kw = {}
        types = [a for a in targs if isinstance(a, TypeVal)]
        if types:
            kw["dtype"] = plain(types[0])
        return Prepared(list(args), kw, _tensors(args, writes), _tensors(args, reads), None)

    return adapt


def _fill(targs: list, args: list) -> Prepared:
    """Fill<T, U>(dst, InitConstValueParams<U>): T and U are dst's type (the facade reads it there)."""
    return Prepared(list(args), {}, _tensors(args, (0,)), [], None)


def _data_copy_pad(targs: list, args: list) -> Prepared:
    """DataCopyPad<T, mode>(dst, src, DataCopyExtParams, DataCopyPadExtParams<T>): T is the tensors' type,
    the PaddingMode goes to `mode`."""
    modes = [a for a in targs if isinstance(a, P.PaddingMode)]
    kw = {"mode": modes[0]} if modes else {}
    return Prepared(list(args), kw, _tensors(args, (0,)), _tensors(args, (1,)), None)


def _arity(call: str, args: list, n: int) -> list:
    if len(args) != n:
        raise RuntimeFault(f"{call} takes {n} arguments here, but got {len(args)}")
    return args


#: C++ name (without AscendC::) -> binding. Instructions first, then register setters, then the
#: companion calls whose facade functions arrive with branch i7b.
API: dict[str, Bind] = {
    "LoadData": Bind("LoadData", _load_data),
    "LoadDataWithStride": Bind("LoadDataWithStride", _with_stride),
    "LoadDataWithTranspose": Bind("LoadDataWithTranspose", _two("LoadDataWithTranspose")),
    "LoadDataWithSparse": Bind("LoadDataWithSparse", _sparse),
    "Mmad": Bind("Mmad", _mmad("Mmad"), brace="MmadParams"),
    "MmadWithSparse": Bind("MmadWithSparse", _mmad("MmadWithSparse"), brace="MmadParams"),
    "MmadMx": Bind("MmadMx", _mmad("MmadMx"), brace="MmadParams"),
    "DataCopy": Bind("DataCopy", _data_copy, brace="DataCopyParams"),
    "Fixpipe": Bind("Fixpipe", _fixpipe),
    "SetFmatrix": Bind("SetFmatrix", _set_fmatrix, setter=True),
    "SetLoadDataPaddingValue": Bind("SetLoadDataPaddingValue", _padding, setter=True),
    "SetLoadDataRepeat": Bind(
        "SetLoadDataRepeat", _one_param("SetLoadDataRepeat"), brace="LoadDataRepeatParam", setter=True
    ),
    "SetLoadDataRepeatWithStride": Bind(
        "SetLoadDataRepeatWithStride",
        _one_param("SetLoadDataRepeatWithStride"),
        brace="LoadDataRepeatParamWithStride",
        setter=True,
    ),
    "SetLoadDataBoundary": Bind(
        "SetLoadDataBoundary", _one_param("SetLoadDataBoundary", "value"), setter=True
    ),
    # companion instructions (branch i7b); the facade decides their argument conventions
    "Fill": Bind("Fill", _fill, brace="InitConstValueParams"),
    "InitConstValue": Bind("InitConstValue", _fill, brace="InitConstValueParams"),
    "DataCopyPad": Bind("DataCopyPad", _data_copy_pad),
    "SetAtomicAdd": Bind("SetAtomicAdd", _generic((), ()), setter=True),
    "SetAtomicNone": Bind("SetAtomicNone", _generic((), ()), setter=True),
    "DisableDmaAtomic": Bind("DisableDmaAtomic", _generic((), ()), setter=True),
    "SetAtomicMax": Bind("SetAtomicMax", _generic((), ()), setter=True),
    "SetAtomicMin": Bind("SetAtomicMin", _generic((), ()), setter=True),
    "SetAtomicType": Bind("SetAtomicType", _generic((), ()), setter=True),
    "SetFixpipeNz2ndFlag": Bind("SetFixpipeNz2ndFlag", _generic((), ()), setter=True),
    "SetFixpipePreQuantFlag": Bind("SetFixpipePreQuantFlag", _generic((), ()), setter=True),
    "SetFixPipeConfig": Bind("SetFixPipeConfig", _generic((), ()), setter=True),
}

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
    fn = getattr(ascendc, bind.facade, None)
    if fn is None:
        raise NotImplementedFeature(
            f"{bind.facade} is not modelled by ascsim yet (no ascsim.ascendc."
            f"{bind.facade}); the front-end binds it already, so it runs once the facade "
            "has it"
        )
    return fn


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
