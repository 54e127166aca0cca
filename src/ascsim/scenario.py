"""Scenario files: a chip, some tensors, register settings and an ordered list of C++-named calls.

TOML is the primary format (comments, readable arrays of tables, `tomllib` in the standard library);
JSON with the same schema is accepted too. Example:

    chip = "a2"

    [tensors.fmap]                     # a LocalTensor: TPosition, dtype, length (elements), offset (bytes)
    position = "A1"
    dtype = "half"
    shape = [32, 4, 4]                 # C, H, W: contents built logically, then laid out
    layout = "fmap"                    # NC1HWC0 (+ packed channel tail) as Load3D reads it
    init = "arange"                    # "arange" | "zeros" | "ones" | {random = {seed = 0}} | {npy = "x.npy"}
                                       # | {values = [...]} | {fill = 1.5}

    [tensors.l0a]
    position = "A2"
    dtype = "half"
    length = 2048

    [[steps]]
    call = "LoadData"
    dst = "l0a"
    src = "fmap"
    [steps.params]                     # (or one line: params = {type = ..., ...}; TOML 1.0 inline
    type = "LoadData3DParamsV2"        #  tables cannot span lines)
    padList = [1, 1, 1, 1]
    l1H = 4
    l1W = 4
    channelSize = 32
    kExtension = 128
    mExtension = 16
    filterW = 2
    filterH = 2

Every problem is reported as one line naming the file and the path inside it:
`conv.toml: steps[3].params.kExtension: Load3Dv2: kExtension must be in [0, 65535], but got 70000`.
"""

from __future__ import annotations

import dataclasses
import functools
import json
import re
import typing
from collections.abc import Callable
from dataclasses import dataclass, field
from enum import IntEnum
from pathlib import Path
from typing import Any

import numpy as np

from . import params as P
from .core import Core
from .dtypes import DType, get_dtype
from .errors import AscsimError, did_you_mean
from .layouts import align, chw_to_fmap_l1, nd_to_nz, nd_to_zn, nd_to_zz
from .memory import POSITION_MEMORY, LocalTensor, position_hint
from .plan import ExecReport

try:  # Python >= 3.11
    import tomllib
except ModuleNotFoundError:  # pragma: no cover - Python 3.10
    import tomli as tomllib  # type: ignore[no-redef]


class ScenarioError(AscsimError):
    """A problem in a scenario file, located by file and path (`steps[2].params.l1H`)."""


# -- the parameter structs a scenario may name ------------------------------------------------------------


@functools.cache
def struct_types() -> dict[str, type]:
    """Every parameter struct by C++ name (from ascsim.params and its family modules)."""
    out: dict[str, type] = {}
    for name in dir(P):
        obj = getattr(P, name)
        # dataclass structs, and the bit-mode params (config words with named bit fields, `FIELDS`)
        if isinstance(obj, type) and (dataclasses.is_dataclass(obj) or hasattr(obj, "FIELDS")
                                      or obj is P.SetFMatrixBitModeParams):
            out[name] = obj
    return out


# call name -> (tensor arguments in order, optional tensor arguments, takes params struct)
CALLS: dict[str, tuple[tuple[str, ...], tuple[str, ...], bool]] = {
    "LoadData": (("dst", "src"), ("src_mx", "mx_params"), True),
    "LoadDataWithStride": (("dst", "src"), (), True),
    "LoadDataWithTranspose": (("dst", "src"), (), True),
    "LoadDataWithSparse": (("dst", "src", "idx"), (), True),
    "Mmad": (("c", "a", "b"), ("bias",), True),
    "MmadWithSparse": (("c", "a", "b"), (), True),
    "MmadMx": (("c", "a", "b"), ("bias",), True),
    "DataCopy": (("dst", "src"), (), True),
    "DataCopyPad": (("dst", "src"), ("pad_params",), True),
    "Fill": (("dst",), (), True),
    "InitConstValue": (("dst",), (), True),
    "Fixpipe": (("dst", "src"), ("workspace",), True),
    "SetFmatrix": ((), (), False),
    "SetLoadDataPaddingValue": ((), (), False),
    "SetLoadDataRepeat": ((), (), True),
    "SetLoadDataRepeatWithStride": ((), (), True),
    "SetLoadDataBoundary": ((), (), False),
    "SetAtomicAdd": ((), (), False),
    "SetAtomicNone": ((), (), False),
    "DisableDmaAtomic": ((), (), False),
    "SetFixpipeNz2ndFlag": ((), (), False),
    "SetFixpipePreQuantFlag": ((), (), False),
    "SetFixPipeConfig": (("quant_pre",), ("relu_pre",), False),
}
#: optional struct arguments besides `params` (not tensors): DataCopyPad's padParams, Load2DMX's mxParams
_STRUCT_ARGS = {"mx_params": "LoadData2DMxParams", "pad_params": "DataCopyPadExtParams"}

#: Fixpipe's FixpipeConfig template argument by C++ name (`config = "CFG_NZ"` in a Fixpipe step).
FIXPIPE_CONFIGS = ("CFG_ROW_MAJOR", "CFG_NZ", "CFG_COLUMN_MAJOR")

_INIT_KINDS = ("arange", "zeros", "ones", "random", "npy", "values", "fill", "raw")
_LAYOUTS = ("flat", "fmap", "nz", "zz", "zn")


@dataclass
class TensorSpec:
    name: str
    position: str
    dtype: DType
    length: int
    offset: int | None = None
    init: Any = None
    shape: tuple[int, ...] | None = None
    layout: str = "flat"


@dataclass
class Step:
    index: int
    call: str
    raw: dict
    line: str = ""  # "steps[3]"


@dataclass
class Scenario:
    path: Path
    chip: str
    strict: bool
    tensors: dict[str, TensorSpec]
    steps: list[Step]
    save: dict[str, str] = field(default_factory=dict)
    description: str = ""
    expects: list = field(default_factory=list)  # [[expect]] tables (ascsim.scenario_expect)

    def where(self, loc: str) -> str:
        return f"{self.path.name}: {loc}"

    def error(self, loc: str, msg: str) -> ScenarioError:
        return ScenarioError(f"{self.where(loc)}: {msg}")


# -- loading and schema checks ---------------------------------------------------------------------------


def _expect(sc: Scenario, loc: str, value: Any, kind: type | tuple[type, ...], what: str) -> Any:
    if isinstance(value, bool) and kind in (int, float, (int, float)):
        raise sc.error(loc, f"expected {what}, got {value!r}")
    if not isinstance(value, kind):
        raise sc.error(loc, f"expected {what}, got {value!r}")
    return value


def _only(sc: Scenario, loc: str, d: dict, allowed: set[str]) -> None:
    for k in d:
        if k not in allowed:
            raise sc.error(f"{loc}.{k}" if loc else k,
                           f"unknown field{did_you_mean(k, allowed)}; allowed: {', '.join(sorted(allowed))}")


def load_scenario(path: str | Path) -> Scenario:
    """Read and check a scenario file (.toml or .json)."""
    path = Path(path)
    sc = Scenario(path, "", False, {}, [])
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as e:
        raise ScenarioError(f"{path}: cannot read: {e.strerror}") from None
    try:
        raw = json.loads(text) if path.suffix == ".json" else tomllib.loads(text)
    except (json.JSONDecodeError, tomllib.TOMLDecodeError) as e:
        raise ScenarioError(f"{path.name}: not valid {'JSON' if path.suffix == '.json' else 'TOML'}: {e}"
                            ) from None
    _only(sc, "", raw, {"chip", "strict", "tensors", "steps", "save", "description", "expect"})
    if "chip" not in raw:
        raise sc.error("chip", "missing (e.g. chip = \"a2\"; see `ascsim chips`)")
    from .chips import get_chip

    chip_name = _expect(sc, "chip", raw["chip"], str, "a chip name")
    try:
        sc.chip = get_chip(chip_name).key
    except AscsimError as e:
        raise sc.error("chip", str(e)) from None
    sc.strict = _expect(sc, "strict", raw.get("strict", False), bool, "true or false")
    sc.description = _expect(sc, "description", raw.get("description", ""), str, "a string")
    tensors = _expect(sc, "tensors", raw.get("tensors", {}), dict, "a table of tensors")
    for name, t in tensors.items():
        sc.tensors[name] = _tensor_spec(sc, name, t)
    steps = _expect(sc, "steps", raw.get("steps", []), list, "an array of steps ([[steps]])")
    for i, s in enumerate(steps):
        sc.steps.append(_step(sc, i, s))
    save = _expect(sc, "save", raw.get("save", {}), dict, "a table name = \"file.npy\"")
    for name, target in save.items():
        if name not in sc.tensors:
            raise sc.error(f"save.{name}", f"no tensor named {name!r} (known: {', '.join(sc.tensors)})")
        sc.save[name] = _expect(sc, f"save.{name}", target, str, "a file name")
    if "expect" in raw:
        from .scenario_expect import parse_expects

        sc.expects = parse_expects(sc, raw["expect"])
    return sc


def _tensor_spec(sc: Scenario, name: str, t: Any) -> TensorSpec:
    loc = f"tensors.{name}"
    _expect(sc, loc, t, dict, "a table")
    _only(sc, loc, t, {"position", "dtype", "length", "offset", "init", "shape", "layout"})
    for req in ("position", "dtype"):
        if req not in t:
            raise sc.error(f"{loc}.{req}", "missing")
    pos = _expect(sc, f"{loc}.position", t["position"], str, "a TPosition name")
    if pos not in POSITION_MEMORY:
        raise sc.error(f"{loc}.position", f"unknown TPosition {pos!r}{position_hint(pos)}; known: "
                                          f"{', '.join(POSITION_MEMORY)}")
    try:
        dt = get_dtype(_expect(sc, f"{loc}.dtype", t["dtype"], str, "a dtype name"))
    except AscsimError as e:
        raise sc.error(f"{loc}.dtype", str(e)) from None
    shape = t.get("shape")
    if shape is not None:
        _expect(sc, f"{loc}.shape", shape, list, "a list of positive integers")
        if not shape or not all(isinstance(s, int) and not isinstance(s, bool) and s > 0 for s in shape):
            raise sc.error(f"{loc}.shape", f"expected a list of positive integers, got {shape!r}")
        shape = tuple(shape)
    layout = _expect(sc, f"{loc}.layout", t.get("layout", "flat"), str, "a layout name")
    if layout not in _LAYOUTS:
        raise sc.error(f"{loc}.layout", f"unknown layout {layout!r}; known: {', '.join(_LAYOUTS)}")
    if layout == "fmap" and (shape is None or len(shape) != 3):
        raise sc.error(f"{loc}.shape", "layout \"fmap\" needs shape = [C, H, W]")
    if layout in ("nz", "zz", "zn") and (shape is None or len(shape) != 2):
        raise sc.error(f"{loc}.shape", f"layout {layout!r} needs shape = [rows, cols]")
    length = t.get("length")
    if length is None:
        if shape is None:
            raise sc.error(f"{loc}.length", "missing (or give shape)")
        length = _laid_out_size(layout, shape, dt)
    _expect(sc, f"{loc}.length", length, int, "a positive integer")
    if length <= 0:
        raise sc.error(f"{loc}.length", f"must be > 0, got {length}")
    offset = t.get("offset")
    if offset is not None:
        _expect(sc, f"{loc}.offset", offset, int, "a byte offset (integer)")
        if offset < 0:
            raise sc.error(f"{loc}.offset", f"must be >= 0, got {offset}")
    init = t.get("init")
    if init is not None:
        _check_init(sc, f"{loc}.init", init)
    return TensorSpec(name, pos, dt, length, offset, init, shape, layout)


def _laid_out_size(layout: str, shape: tuple[int, ...], dt: DType) -> int:
    """Elements a tensor needs to hold a `shape` matrix / feature map in `layout` (fractals padded)."""
    if layout in ("nz", "zz"):
        return align(shape[0], 16) * align(shape[1], dt.c0)
    if layout == "zn":
        return align(shape[0], dt.c0) * align(shape[1], 16)
    return int(np.prod(shape))


def _check_init(sc: Scenario, loc: str, init: Any) -> None:
    if isinstance(init, str):
        if init not in ("arange", "zeros", "ones", "random"):
            raise sc.error(loc, f"unknown init {init!r}; use one of {', '.join(_INIT_KINDS)}")
        return
    _expect(sc, loc, init, dict, "a string or a table")
    if len(init) != 1 or next(iter(init)) not in _INIT_KINDS:
        raise sc.error(loc, f"expected exactly one of {', '.join(_INIT_KINDS)}, got {sorted(init)}")
    kind, arg = next(iter(init.items()))
    loc = f"{loc}.{kind}"
    if kind == "fill":
        _expect(sc, loc, arg, (int, float), "a number")
    elif kind in ("npy", "raw"):  # raw: the file's bytes as they are (`ascsim run k.cpp --emit-scenario`)
        _expect(sc, loc, arg, str, "a .npy file name" if kind == "npy" else "a raw byte file name")
    elif kind == "values":
        flat = list(np.ravel(np.asarray(arg, dtype=object))) if isinstance(arg, list) else None
        if flat is None or not all(isinstance(x, (int, float)) and not isinstance(x, bool) for x in flat):
            raise sc.error(loc, f"expected a (flat) list of numbers, got {arg!r}")
    elif kind == "random" and isinstance(arg, dict):
        _only(sc, loc, arg, {"seed", "low", "high"})
        for k, v in arg.items():
            _expect(sc, f"{loc}.{k}", v, int if k == "seed" else (int, float), "a number")


def _step(sc: Scenario, i: int, s: Any) -> Step:
    loc = f"steps[{i}]"
    _expect(sc, loc, s, dict, "a table")
    call = s.get("call")
    if call not in CALLS:
        raise sc.error(f"{loc}.call", f"unknown call {call!r}{did_you_mean(call, CALLS)}; "
                                      f"known: {', '.join(CALLS)}")
    tensors, optional, takes_params = CALLS[call]
    allowed = {"call", *tensors, *optional, "note"}
    if call == "DataCopyPad":
        allowed.add("mode")
        if "mode" in s and s["mode"] not in P.PaddingMode.__members__:
            raise sc.error(f"{loc}.mode", f"expected one of {', '.join(P.PaddingMode.__members__)}, "
                                          f"got {s['mode']!r}")
    if takes_params:
        allowed |= {"params", "config", "dst_pos", "src_pos"}
    allowed |= set(_SETTER_FIELDS.get(call, {}))
    if call == "SetFmatrix":  # SetFmatrix(SetFMatrixBitModeParams, mode): the bit-mode form (950)
        allowed.add("params")
        if "params" in s:
            clash = sorted(k for k in ("l1H", "l1W", "padList") if k in s)
            if clash:
                raise sc.error(f"{loc}.{clash[0]}", "give either params (SetFMatrixBitModeParams) or "
                                                    "l1H/l1W/padList, not both")
            if not isinstance(_struct(sc, f"{loc}.params", s["params"]), P.SetFMatrixBitModeParams):
                raise sc.error(f"{loc}.params.type", "SetFmatrix takes SetFMatrixBitModeParams, got "
                                                     f"{s['params'].get('type')!r}")
    _only(sc, loc, s, allowed)
    for arg in tensors:
        if arg not in s:
            raise sc.error(f"{loc}.{arg}", f"missing tensor argument of {call}")
    for arg in (*tensors, *optional):
        if arg in s and arg not in _STRUCT_ARGS:
            _tensor_ref(sc, f"{loc}.{arg}", s[arg])
    for k, want in _SETTER_FIELDS.get(call, {}).items():
        if k in s:
            _check_field(sc, f"{loc}.{k}", s[k], want)
    if call == "SetLoadDataPaddingValue" and "dtype" not in s:
        raise sc.error(f"{loc}.dtype", "SetLoadDataPaddingValue needs dtype (the T of "
                                       "SetLoadDataPaddingValue<T>); ascsim does not guess it")
    for k in ("dst_pos", "src_pos"):
        if k in s and s[k] not in POSITION_MEMORY:
            raise sc.error(f"{loc}.{k}", f"unknown TPosition {s[k]!r}; known: {', '.join(POSITION_MEMORY)}")
    if "config" in s and call == "Fixpipe":
        if s["config"] not in FIXPIPE_CONFIGS:
            raise sc.error(f"{loc}.config",
                           f"expected one of {', '.join(FIXPIPE_CONFIGS)}, got {s['config']!r}")
    elif "config" in s and "config" not in _SETTER_FIELDS.get(call, {}):  # SetFixpipePreQuantFlag's is an int
        _only(sc, f"{loc}.config", _expect(sc, f"{loc}.config", s["config"], dict, "a table"),
              {"isSetFMatrix", "isSetPadding"})
        for k, v in s["config"].items():
            _check_field(sc, f"{loc}.config.{k}", v, bool)
    if takes_params:
        if "params" not in s:
            raise sc.error(f"{loc}.params", f"missing parameter struct of {call}")
        p = _struct(sc, f"{loc}.params", s["params"])
        wanted = _CALL_STRUCTS.get("LoadDataMx" if call == "LoadData" and "src_mx" in s else call)
        if wanted and type(p).__name__ not in wanted:
            raise sc.error(f"{loc}.params.type", f"{call} takes {' or '.join(wanted)}, "
                                                 f"got {type(p).__name__}")
        for part, want in _STRUCT_ARGS.items():
            if part in s:
                obj = _struct(sc, f"{loc}.{part}", s[part])
                if type(obj).__name__ != want:
                    raise sc.error(f"{loc}.{part}.type", f"expected {want}, got {type(obj).__name__}")
    return Step(i, call, s, loc)


# params struct types each call accepts (LoadData dispatches on the type itself, like the C++ overloads)
_CALL_STRUCTS: dict[str, tuple[str, ...]] = {
    "LoadDataMx": ("LoadData2DParamsV2",),
    "LoadDataWithStride": ("LoadData3DParamsV2",),
    "LoadDataWithTranspose": ("LoadData2dTransposeParams", "LoadData2dTransposeParamsV2"),
    "LoadDataWithSparse": ("LoadData2DParams",),
    "Mmad": ("MmadParams",),
    "MmadWithSparse": ("MmadParams",),
    "MmadMx": ("MmadParams",),
    "DataCopy": ("DataCopyParams", "Nd2NzParams", "Dn2NzParams", "DataCopyCO12DstParams"),
    "DataCopyPad": ("DataCopyExtParams",),
    "Fill": ("InitConstValueParams",),
    "InitConstValue": ("InitConstValueParams",),
    "Fixpipe": ("FixpipeParamsV220", "FixpipeParamsArch3510", "FixpipeParamsC310"),
    "SetLoadDataRepeat": ("LoadDataRepeatParam",),
    "SetLoadDataRepeatWithStride": ("LoadDataRepeatParamWithStride",),
}


# setter call fields and their types (checked like struct fields)
_SETTER_FIELDS: dict[str, dict[str, Any]] = {
    "SetFmatrix": {"l1H": int, "l1W": int, "padList": list[int], "mode": str},
    "SetLoadDataPaddingValue": {"value": float, "dtype": str},
    "SetLoadDataBoundary": {"value": int},
    "SetAtomicAdd": {"dtype": str},
    "SetFixpipeNz2ndFlag": {"ndNum": int, "srcNdStride": int, "dstNdStride": int},
    "SetFixpipePreQuantFlag": {"config": int},
}


def _tensor_ref(sc: Scenario, loc: str, ref: Any) -> tuple[str, int]:
    if isinstance(ref, str):
        name, index = ref, 0
    else:
        _expect(sc, loc, ref, dict, "a tensor name or {tensor = NAME, index = I}")
        _only(sc, loc, ref, {"tensor", "index"})
        name, index = ref.get("tensor"), ref.get("index", 0)
        _expect(sc, f"{loc}.index", index, int, "an element index")
    if name not in sc.tensors:
        raise sc.error(loc, f"no tensor named {name!r} (known: {', '.join(sc.tensors) or 'none'})")
    if not 0 <= index <= sc.tensors[name].length:
        raise sc.error(f"{loc}.index", f"must be in [0, {sc.tensors[name].length}] (the length of "
                                       f"{name}), got {index}")
    return name, index


def _struct(sc: Scenario, loc: str, d: Any) -> Any:
    """Build a params struct from {type = NAME, field = value, ...} with type checks per field."""
    _expect(sc, loc, d, dict, "a table with type = \"<struct name>\" and its fields")
    types = struct_types()
    tname = d.get("type")
    if tname not in types:
        raise sc.error(f"{loc}.type", f"unknown struct {tname!r}{did_you_mean(tname, types)}; known: "
                                      f"{', '.join(sorted(types))}")
    cls = types[tname]
    values = {k: v for k, v in d.items() if k != "type"}
    if hasattr(cls, "FIELDS"):
        return _bitmode(sc, loc, cls, values)
    if cls is P.SetFMatrixBitModeParams:
        return _fmatrix_bitmode(sc, loc, values)
    hints = _type_hints(cls)
    for k, v in values.items():
        if k not in hints:
            raise sc.error(f"{loc}.{k}", f"unknown field of {tname}{did_you_mean(k, hints)}; fields: "
                                         f"{', '.join(hints)}")
        _check_field(sc, f"{loc}.{k}", v, hints[k])
        if isinstance(v, dict):  # a nested struct, e.g. FixpipeParamsArch3510.params = {type = "Nz2NdParams"}
            values[k] = _struct(sc, f"{loc}.{k}", v)
        elif isinstance(hints[k], type) and issubclass(hints[k], IntEnum):  # quantPre = "F322F16" or 1
            try:
                values[k] = hints[k][v] if isinstance(v, str) else hints[k](v)
            except (KeyError, ValueError):
                raise sc.error(f"{loc}.{k}", f"expected a {hints[k].__name__} name "
                                             f"({', '.join(hints[k].__members__)}), got {v!r}") from None
    return cls(**values)


@functools.cache
def _type_hints(cls: type) -> dict[str, Any]:
    """A struct's field types (evaluated once: a scenario of thousands of steps names the same few)."""
    return typing.get_type_hints(cls)


def _check_field(sc: Scenario, loc: str, v: Any, hint: Any) -> None:
    origin = typing.get_origin(hint)
    if hint is bool:
        if not isinstance(v, bool) and v not in (0, 1):
            raise sc.error(loc, f"expected true or false, got {v!r}")
    elif hint is int:
        if isinstance(v, bool) or not isinstance(v, int):
            raise sc.error(loc, f"expected an integer, got {v!r}")
    elif hint is float:
        if isinstance(v, bool) or not isinstance(v, (int, float)):
            raise sc.error(loc, f"expected a number, got {v!r}")
    elif origin is list:
        if not isinstance(v, list) or not all(isinstance(x, int) and not isinstance(x, bool) for x in v):
            raise sc.error(loc, f"expected a list of integers, got {v!r}")
    elif hint is str:
        if not isinstance(v, str):
            raise sc.error(loc, f"expected a string, got {v!r}")


def _bitmode(sc: Scenario, loc: str, cls: type, values: dict) -> Any:
    """A bit-mode params object (Load3DBitModeParam, Load2DBitModeParam) from its raw words
    config0/config1 or from field names set through the bit fields; Load2DBitModeParam also takes
    ifTranspose (a separate bool in C++)."""
    name = cls.__name__
    values = dict(values)
    flags = {k: values.pop(k) for k in ("ifTranspose",) if k in values}
    if flags and not hasattr(cls, "SetIfTranspose"):
        raise sc.error(f"{loc}.ifTranspose", f"unknown field of {name}; fields: {', '.join(cls.FIELDS)}")
    if set(values) <= {"config0", "config1"}:
        for k, v in values.items():
            _check_field(sc, f"{loc}.{k}", v, int)
        obj = cls(values.get("config0", 0), values.get("config1", 0))
    else:
        obj = cls()
        for k, v in values.items():
            if k not in cls.FIELDS:
                raise sc.error(f"{loc}.{k}", f"unknown field of {name}; fields: "
                                             f"{', '.join(cls.FIELDS)} (or config0/config1)")
            _check_field(sc, f"{loc}.{k}", v, int)
            try:
                obj.set(k, int(v))
            except AscsimError as e:
                raise sc.error(f"{loc}.{k}", str(e)) from None
    for k, v in flags.items():
        _check_field(sc, f"{loc}.{k}", v, bool)
        obj.SetIfTranspose(bool(v))
    return obj


def _fmatrix_bitmode(sc: Scenario, loc: str, values: dict) -> P.SetFMatrixBitModeParams:
    """SetFMatrixBitModeParams from l1H / l1W / padList (through SetL1H / SetL1W / SetPadList) or the raw
    word config0 (SetFmatrixBitMode.md 表2/表3)."""
    allowed = {"l1H": int, "l1W": int, "padList": list[int]}
    if set(values) <= {"config0"}:
        _check_field(sc, f"{loc}.config0", values.get("config0", 0), int)
        return P.SetFMatrixBitModeParams(values.get("config0", 0))
    p = P.SetFMatrixBitModeParams()
    for k, v in values.items():
        if k not in allowed:
            raise sc.error(f"{loc}.{k}", "unknown field of SetFMatrixBitModeParams; fields: l1H, l1W, "
                                         "padList (or config0)")
        _check_field(sc, f"{loc}.{k}", v, allowed[k])
        try:
            {"l1H": p.SetL1H, "l1W": p.SetL1W, "padList": p.SetPadList}[k](v)
        except AscsimError as e:
            raise sc.error(f"{loc}.{k}", str(e)) from None
    return p


# -- running ---------------------------------------------------------------------------------------------


def _init_values(sc: Scenario, spec: TensorSpec, n: int) -> np.ndarray:
    init = spec.init
    loc = f"tensors.{spec.name}.init"
    kind = init if isinstance(init, str) else next(iter(init))
    arg = {} if isinstance(init, str) else init[kind]
    dt = spec.dtype
    if kind == "zeros":
        return np.zeros(n)
    if kind == "ones":
        return np.ones(n)
    if kind == "fill":
        return np.full(n, arg)
    if kind == "arange":
        vals = np.arange(n)
        if dt.kind == "float":  # keep every value exact in the dtype (small mantissas wrap early)
            top = {4: 4, 8: 16, 16: 256 if dt.name == "bfloat16_t" else 2048}.get(dt.bits, 1 << 20)
            vals = vals % top
        else:
            lo, hi = _int_range(dt)
            vals = lo + (vals - lo) % (hi - lo + 1) if (vals.max(initial=0) > hi) else vals
        return vals
    if kind == "random":
        arg = arg if isinstance(arg, dict) else {}
        rng = np.random.default_rng(arg.get("seed", 0))
        if dt.kind == "float":
            return rng.uniform(arg.get("low", -1.0), arg.get("high", 1.0), n)
        lo, hi = _int_range(dt)
        return rng.integers(max(lo, arg.get("low", lo)), min(hi, arg.get("high", hi)) + 1, n)
    if kind == "values":
        v = np.asarray(arg).ravel()
        if v.dtype.kind not in "iu":  # integers stay exact (64-bit quantisation words)
            v = v.astype(np.float64)
        if v.size != n:
            raise sc.error(loc, f"values has {v.size} entries, the tensor needs {n}")
        return v
    path = (sc.path.parent / str(arg)).resolve()
    try:
        v = np.load(path).ravel()
    except (OSError, ValueError) as e:
        raise sc.error(loc, f"cannot load {arg!r}: {e}") from None
    if v.size != n:
        raise sc.error(loc, f"{arg} holds {v.size} values, the tensor needs {n}")
    return v


def _init_raw(sc: Scenario, spec: TensorSpec, t: LocalTensor) -> None:
    """init = {raw = FILE}: the tensor's bytes, copied as they are."""
    loc = f"tensors.{spec.name}.init.raw"
    try:
        data = (sc.path.parent / str(spec.init["raw"])).read_bytes()
    except OSError as e:
        raise sc.error(loc, f"cannot read {spec.init['raw']!r}: {e.strerror}") from None
    if len(data) != t.nbytes:
        raise sc.error(loc, f"{spec.init['raw']} holds {len(data)} B, the tensor needs {t.nbytes}")
    t.bytes()[:] = np.frombuffer(data, dtype=np.uint8)


def _int_range(dt: DType) -> tuple[int, int]:
    if dt.kind == "uint":
        return 0, (1 << dt.bits) - 1
    return -(1 << (dt.bits - 1)), (1 << (dt.bits - 1)) - 1


def _laid_out(spec: TensorSpec, logical: np.ndarray) -> np.ndarray:
    dt = spec.dtype
    if spec.layout == "fmap":
        return chw_to_fmap_l1(logical.reshape(spec.shape), dt.c0)
    conv = {"nz": nd_to_nz, "zz": nd_to_zz, "zn": nd_to_zn}.get(spec.layout)
    return conv(logical.reshape(spec.shape), dt.c0) if conv else logical


@dataclass
class StepResult:
    step: Step
    report: ExecReport | None
    summary: str


@dataclass
class ScenarioRun:
    scenario: Scenario
    core: Core
    tensors: dict[str, LocalTensor]
    results: list[StepResult] = field(default_factory=list)
    expects: list = field(default_factory=list)  # ascsim.expectations.ExpectResult per [[expect]]


def initial_values(sc: Scenario, name: str) -> np.ndarray:
    """The logical initial values of a tensor (its `init`, before `layout`), flat."""
    spec = sc.tensors[name]
    return _init_values(sc, spec, int(np.prod(spec.shape)) if spec.shape else spec.length)


def build(sc: Scenario) -> ScenarioRun:
    """Create the core and the tensors with their initial contents."""
    core = Core(sc.chip, strict=sc.strict)
    tensors: dict[str, LocalTensor] = {}
    for name, spec in sc.tensors.items():
        loc = f"tensors.{name}"
        try:
            t = core.tensor(spec.position, spec.dtype, spec.length, spec.offset)
            if isinstance(spec.init, dict) and "raw" in spec.init:
                _init_raw(sc, spec, t)
            elif spec.init is not None:
                n = int(np.prod(spec.shape)) if spec.shape else spec.length
                data = _laid_out(spec, _init_values(sc, spec, n))
                if data.size > t.length:
                    raise sc.error(f"{loc}.length", f"{spec.length} elements cannot hold the "
                                                     f"{data.size} the init/layout produces")
                t.write(data)
        except ScenarioError:
            raise
        except AscsimError as e:
            raise sc.error(loc, str(e)) from None
        tensors[name] = t
    return ScenarioRun(sc, core, tensors)


def step_struct(sc: Scenario, step: Step, part: str = "params") -> Any:
    """The struct a step passes as `params` (or `mx_params` / `pad_params`), built exactly as `run_scenario`
    builds it; a missing `mx_params` / `pad_params` is the struct's default."""
    default = {"type": _STRUCT_ARGS[part]} if part in _STRUCT_ARGS else None
    return _struct(sc, f"{step.line}.{part}", step.raw.get(part, default))


def step_config(step: Step) -> P.IsResetLoad3dConfig | None:
    """The IsResetLoad3dConfig template argument of a LoadData step (None = the default {true, true})."""
    cfg = step.raw.get("config")
    return P.IsResetLoad3dConfig(**cfg) if isinstance(cfg, dict) else None


def _resolve(run: ScenarioRun, ref: Any) -> LocalTensor:
    name, index = (ref, 0) if isinstance(ref, str) else (ref["tensor"], ref.get("index", 0))
    t = run.tensors[name]
    return t[index] if index else t


def _exec_step(run: ScenarioRun, step: Step) -> ExecReport | None:
    sc, core, s = run.scenario, run.core, step.raw
    call = step.call
    p = step_struct(sc, step) if "params" in s else None
    if call == "LoadData":
        dst, src = _resolve(run, s["dst"]), _resolve(run, s["src"])
        if "src_mx" in s:
            mx = step_struct(sc, step, "mx_params")
            return core.load_data_mx(dst, src, _resolve(run, s["src_mx"]), p, mx)
        return core.load_data(dst, src, p, step_config(step), dst_pos=s.get("dst_pos", dst.position),
                              src_pos=s.get("src_pos", src.position))
    if call == "LoadDataWithStride":
        return core.load_data_with_stride(_resolve(run, s["dst"]), _resolve(run, s["src"]), p,
                                          step_config(step))
    if call == "LoadDataWithTranspose":
        return core.load_data_with_transpose(_resolve(run, s["dst"]), _resolve(run, s["src"]), p)
    if call == "LoadDataWithSparse":
        return core.load_data_with_sparse(_resolve(run, s["dst"]), _resolve(run, s["src"]),
                                          _resolve(run, s["idx"]), p)
    if call in ("Mmad", "MmadMx"):
        bias = _resolve(run, s["bias"]) if "bias" in s else None
        fn = core.mmad if call == "Mmad" else core.mmad_mx
        return fn(_resolve(run, s["c"]), _resolve(run, s["a"]), _resolve(run, s["b"]), p, bias)
    if call == "MmadWithSparse":
        return core.mmad_with_sparse(_resolve(run, s["c"]), _resolve(run, s["a"]), _resolve(run, s["b"]), p)
    if call == "DataCopy":
        return core.data_copy(_resolve(run, s["dst"]), _resolve(run, s["src"]), p)
    if call == "DataCopyPad":
        return core.data_copy_pad(_resolve(run, s["dst"]), _resolve(run, s["src"]), p,
                                  step_struct(sc, step, "pad_params"), P.PaddingMode[s.get("mode", "Normal")])
    if call in ("Fill", "InitConstValue"):
        return core.init_const_value(_resolve(run, s["dst"]), p, call)
    if call == "Fixpipe":
        cfg = getattr(P, s["config"]) if "config" in s else None
        ws = _resolve(run, s["workspace"]) if "workspace" in s else None
        return core.fixpipe(_resolve(run, s["dst"]), _resolve(run, s["src"]), p, cfg, ws)
    if call == "SetFmatrix" and p is not None:
        core.set_fmatrix_bitmode(p, s.get("mode", "FMATRIX_LEFT"))
    elif call == "SetFmatrix":
        core.set_fmatrix(s.get("l1H", 0), s.get("l1W", 0), s.get("padList", [0, 0, 0, 0]),
                         s.get("mode", "FMATRIX_LEFT"))
    elif call == "SetLoadDataPaddingValue":
        core.set_padding_value(s.get("value", 0), s["dtype"])
    elif call == "SetAtomicAdd":
        core.set_atomic_add(s.get("dtype", "float"))
    elif call in ("SetAtomicNone", "DisableDmaAtomic"):
        core.set_atomic_none()
    elif call == "SetFixpipeNz2ndFlag":
        core.set_fixpipe_nz2nd_flag(s.get("ndNum", 1), s.get("srcNdStride", 0), s.get("dstNdStride", 0))
    elif call == "SetFixpipePreQuantFlag":
        core.set_fixpipe_pre_quant_flag(s.get("config", 0))
    elif call == "SetFixPipeConfig":
        relu = _resolve(run, s["relu_pre"]) if "relu_pre" in s else None
        core.set_fixpipe_config(_resolve(run, s["quant_pre"]), relu)
    elif call in ("SetLoadDataRepeat", "SetLoadDataRepeatWithStride"):
        core.set_load_data_repeat(p)
    elif call == "SetLoadDataBoundary":
        core.set_load_data_boundary(s.get("value", 0))
    return None


def _located(step: Step, e: Exception) -> str:
    """Point an instruction error at the field it names: steps[3].params.kExtension: ..."""
    msg = str(e)
    m = re.match(r"^[\w<>]+: (\w+)", msg)
    s = step.raw
    if m:
        for part in ("params", *_STRUCT_ARGS):
            if isinstance(s.get(part), dict) and m.group(1) in s[part]:
                return f"{step.line}.{part}.{m.group(1)}: {msg}"
        if m.group(1) in s:
            return f"{step.line}.{m.group(1)}: {msg}"
    return f"{step.line}: {msg}"


def summarize(step: Step, report: ExecReport | None) -> str:
    head = f"[{step.index}] {step.call}"
    if report is None:
        return f"{head}: registers set"
    kind = report.instr if report.instr != step.call else ""
    if not report.bytes_written and not report.bytes_read:
        return f"{head}{f' ({kind})' if kind else ''}: NOP"
    frac = report.bytes_written / 512
    extra = f", {len(report.hazards)} hazard(s)" if report.hazards else ""
    return (f"{head}{f' ({kind})' if kind else ''}: wrote {report.bytes_written:,} B "
            f"({frac:g} fractals of 512 B), read {report.bytes_read:,} B, "
            f"{report.pad_elements:,} pad elements{extra}")


def run_scenario(sc: Scenario, upto: int | None = None,
                 on_step: Callable[[StepResult], None] | None = None) -> ScenarioRun:
    """Build the tensors and execute steps [0, upto] (all by default)."""
    run = build(sc)
    last = len(sc.steps) - 1 if upto is None else upto
    if not 0 <= last < len(sc.steps) and sc.steps:
        raise ScenarioError(f"{sc.path.name}: step {upto} does not exist "
                            f"(the file has {len(sc.steps)} steps)")
    for step in sc.steps[: last + 1]:
        try:
            report = _exec_step(run, step)
        except ScenarioError:
            raise
        except (AscsimError, NotImplementedError) as e:  # NotImplementedError: a feature ascsim lacks
            raise ScenarioError(f"{sc.path.name}: {_located(step, e)}") from e
        result = StepResult(step, report, summarize(step, report))
        run.results.append(result)
        if on_step:
            on_step(result)
        if sc.expects:
            from .scenario_expect import run_expects

            run.expects += run_expects(run, step.index, step.index == len(sc.steps) - 1)
    return run


def save_outputs(run: ScenarioRun, out_dir: str | Path, names: dict[str, str] | None = None) -> list[Path]:
    """Write the chosen tensors' element arrays (.npy) or all of them in one .npz."""
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    written = []
    for name, target in (names if names is not None else run.scenario.save).items():
        path = out_dir / target
        values = run.tensors[name].read()
        if path.suffix == ".npz":
            np.savez(path, **{name: values})
        else:
            np.save(path, values)
        written.append(path)
    return written
