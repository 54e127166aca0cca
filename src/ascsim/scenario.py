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
import json
import math
import re
import typing
import warnings
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
from .memory import POSITION_MEMORY, LocalTensor, memory_of, position_hint
from .plan import ExecReport

try:  # Python >= 3.11
    import tomllib
except ModuleNotFoundError:  # pragma: no cover - Python 3.10
    import tomli as tomllib  # type: ignore[no-redef]


class ScenarioError(AscsimError):
    """A problem in a scenario file, located by file and path (`steps[2].params.l1H`)."""


class ScenarioWarning(UserWarning):
    """A warning raised while building a scenario's tensors, its message located (`tensors.x.init: ...`)."""


# -- the parameter structs a scenario may name ------------------------------------------------------------


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

    def where(self, loc: str) -> str:
        return f"{self.path.name}: {loc}"

    def error(self, loc: str, msg: str) -> ScenarioError:
        return ScenarioError(f"{self.where(loc)}: {msg}")


# -- loading and schema checks ---------------------------------------------------------------------------

#: Deepest nesting a scenario file may have. A real one needs 5 (steps[i].params.params.field, or nested
#: `values`); deeper input is refused right after parsing, before any walker recurses into it.
MAX_DEPTH = 32
#: GM tensors are host arrays ascsim allocates and fills: these caps keep a run bounded in time and memory
#: (ascsim's limits for a CPU run, not the hardware's). 2**24 elements is a 4096 x 4096 matrix.
MAX_GM_ELEMENTS = 1 << 24
MAX_GM_TOTAL_ELEMENTS = 1 << 26
#: Largest scenario file read (TOML parses at ~3 MB/s; tensor contents belong in .npy files).
MAX_FILE_BYTES = 64 << 20
#: Integers a scenario may give anywhere: C++ has no integer field wider than 64 bits.
INT_MIN, INT_MAX = -(1 << 63), (1 << 64) - 1


def _show(value: Any, width: int = 60) -> str:
    """repr(value), cut to `width` characters (a huge int or a long list stays a one-line message)."""
    text = repr(value) if not isinstance(value, int) or abs(value) < 10**30 else \
        f"{'-' if value < 0 else ''}{abs(value).bit_length()}-bit integer"
    return text if len(text) <= width else text[: width - 3] + "..."


def _expect(sc: Scenario, loc: str, value: Any, kind: type | tuple[type, ...], what: str) -> Any:
    if isinstance(value, bool) and kind in (int, float, (int, float)):
        raise sc.error(loc, f"expected {what}, got {_show(value)}")
    if not isinstance(value, kind):
        raise sc.error(loc, f"expected {what}, got {_show(value)}")
    if isinstance(value, int) and not INT_MIN <= value <= INT_MAX:
        raise sc.error(loc, f"expected {what} that fits 64 bits, got {_show(value)}")
    return value


def _shape_problem(raw: Any) -> tuple[str, str] | None:
    """(path, problem) of the first node nested deeper than MAX_DEPTH or holding a string that is not
    Unicode text (JSON's lone "\\ud800" escapes), walked without recursion; None when there is none."""
    todo: list[tuple[Any, str, int]] = [(raw, "", 0)]
    while todo:
        node, loc, depth = todo.pop()
        if depth > MAX_DEPTH:
            cut = loc if len(loc) <= 60 else loc[:57] + "..."
            return cut, f"nested more than {MAX_DEPTH} levels deep (a scenario needs at most 5)"
        if isinstance(node, str) and not _is_text(node):
            return loc, f"{_show(node)} holds a lone UTF-16 surrogate (a \\ud800-\\udfff escape), not text"
        items = node.items() if isinstance(node, dict) else enumerate(node) if isinstance(node, list) else ()
        for k, v in items:
            if isinstance(k, str) and not _is_text(k):
                return loc or "(top level)", f"the key {_show(k)} holds a lone UTF-16 surrogate, not text"
            todo.append((v, f"{loc}[{k}]" if isinstance(k, int) else f"{loc}.{k}" if loc else str(k),
                         depth + 1))
    return None


def _is_text(s: str) -> bool:
    try:
        s.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _parse(path: Path) -> dict:
    """The file's top-level table: UTF-8 (a BOM is skipped), TOML or JSON, at most MAX_DEPTH deep."""
    try:
        with open(path, "rb") as f:  # in chunks, bounded: /dev/zero or a runaway generator is no scenario
            chunks: list[bytes] = []
            while sum(map(len, chunks)) <= MAX_FILE_BYTES and (chunk := f.read(1 << 20)):
                chunks.append(chunk)
            data = b"".join(chunks)
    except OSError as e:
        raise ScenarioError(f"{path}: cannot read: {e.strerror}") from None
    if len(data) > MAX_FILE_BYTES:
        raise ScenarioError(f"{path.name}: larger than {MAX_FILE_BYTES >> 20} MiB; give big tensor contents "
                            "as init = {npy = FILE}")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as e:  # e.start counts after a BOM
        at = e.start + len(data) - len(e.object)
        raise ScenarioError(f"{path.name}: not UTF-8 text: byte 0x{data[at]:02x} at offset {at} "
                            "(save the file as UTF-8)") from None
    fmt = "JSON" if path.suffix == ".json" else "TOML"
    try:
        raw = json.loads(text) if fmt == "JSON" else tomllib.loads(text)
    except RecursionError:  # the parsers recurse per nesting level
        raise ScenarioError(f"{path.name}: not valid {fmt}: nested too deeply (a scenario needs at most "
                            f"{MAX_DEPTH} levels)") from None
    except ValueError as e:  # JSONDecodeError, TOMLDecodeError, and int() of a number with > 4300 digits
        raise ScenarioError(f"{path.name}: not valid {fmt}: {_one_line(str(e))}") from None
    if not isinstance(raw, dict):
        raise ScenarioError(f"{path.name}: expected a table of chip, tensors, steps ... at the top level, "
                            f"got {type(raw).__name__} {_show(raw)}")
    problem = _shape_problem(raw)
    if problem is not None:
        raise ScenarioError(f"{path.name}: {problem[0]}: {problem[1]}")
    return raw


def _one_line(text: str) -> str:
    """`text` without line breaks (\\n, \\r, \\u2028 ...: a name in a message may hold any of them)."""
    return " ".join(text.splitlines())


def _only(sc: Scenario, loc: str, d: dict, allowed: set[str]) -> None:
    for k in d:
        if k not in allowed:
            raise sc.error(f"{loc}.{k}" if loc else k,
                           f"unknown field{did_you_mean(k, allowed)}; allowed: {', '.join(sorted(allowed))}")


def load_scenario(path: str | Path) -> Scenario:
    """Read and check a scenario file (.toml or .json)."""
    path = Path(path)
    sc = Scenario(path, "", False, {}, [])
    raw = _parse(path)
    _only(sc, "", raw, {"chip", "strict", "tensors", "steps", "save", "description"})
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
    gm = sum(t.length for t in sc.tensors.values() if memory_of(t.position) == "GM")
    if gm > MAX_GM_TOTAL_ELEMENTS:
        raise sc.error("tensors", f"the GM tensors hold {gm:,} elements together; a scenario is limited to "
                                  f"{MAX_GM_TOTAL_ELEMENTS:,} (ascsim's limit for a CPU run, not the "
                                  "hardware's)")
    steps = _expect(sc, "steps", raw.get("steps", []), list, "an array of steps ([[steps]])")
    for i, s in enumerate(steps):
        sc.steps.append(_step(sc, i, s))
    save = _expect(sc, "save", raw.get("save", {}), dict, "a table name = \"file.npy\"")
    for name, target in save.items():
        if name not in sc.tensors:
            raise sc.error(f"save.{name}", f"no tensor named {name!r} (known: {', '.join(sc.tensors)})")
        sc.save[name] = _expect(sc, f"save.{name}", target, str, "a file name")
        problem = save_target_problem(target)
        if problem:
            raise sc.error(f"save.{name}", problem)
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
    _expect(sc, f"{loc}.dtype", t["dtype"], str, "a dtype name")
    try:
        dt = get_dtype(t["dtype"])
    except AscsimError as e:
        raise sc.error(f"{loc}.dtype", str(e)) from None
    shape = t.get("shape")
    if shape is not None:
        _expect(sc, f"{loc}.shape", shape, list, "a list of positive integers")
        if not shape or not all(isinstance(s, int) and not isinstance(s, bool) and 0 < s <= INT_MAX
                                for s in shape):
            raise sc.error(f"{loc}.shape", f"expected a list of positive integers, got {_show(shape)}")
        shape = tuple(shape)
    layout = _expect(sc, f"{loc}.layout", t.get("layout", "flat"), str, "a layout name")
    if layout not in _LAYOUTS:
        raise sc.error(f"{loc}.layout", f"unknown layout {layout!r}; known: {', '.join(_LAYOUTS)}")
    if layout == "fmap" and (shape is None or len(shape) != 3):
        raise sc.error(f"{loc}.shape", "layout \"fmap\" needs shape = [C, H, W]")
    if layout in ("nz", "zz", "zn") and (shape is None or len(shape) != 2):
        raise sc.error(f"{loc}.shape", f"layout {layout!r} needs shape = [rows, cols]")
    length = t.get("length")
    if length is not None:
        _expect(sc, f"{loc}.length", length, int, "a positive integer")
    elif shape is None:
        raise sc.error(f"{loc}.length", "missing (or give shape)")
    else:
        length = _laid_out_size(layout, shape, dt)
    if length <= 0:
        raise sc.error(f"{loc}.length", f"must be > 0, got {length}")
    if memory_of(pos) == "GM" and length > MAX_GM_ELEMENTS:
        raise sc.error(f"{loc}.length" if "length" in t else f"{loc}.shape",
                       f"{_show(length)} elements of {dt.name}; a GM tensor of a scenario is limited to "
                       f"{MAX_GM_ELEMENTS:,} elements (ascsim's limit for a CPU run, not the hardware's)")
    offset = t.get("offset")
    if offset is not None:
        _expect(sc, f"{loc}.offset", offset, int, "a byte offset (integer)")
        if offset < 0:
            raise sc.error(f"{loc}.offset", f"must be >= 0, got {offset}")
    init = t.get("init")
    if init is not None:
        _check_init(sc, f"{loc}.init", init)
        if shape is not None and _laid_out_size(layout, shape, dt) > length:  # before building any values
            raise sc.error(f"{loc}.length", f"{length} elements cannot hold the "
                                             f"{_show(_laid_out_size(layout, shape, dt))} the init/layout "
                                             "produces")
    return TensorSpec(name, pos, dt, length, offset, init, shape, layout)


def _laid_out_size(layout: str, shape: tuple[int, ...], dt: DType) -> int:
    """Elements a tensor needs to hold a `shape` matrix / feature map in `layout` (fractals padded)."""
    if layout in ("nz", "zz"):
        return align(shape[0], 16) * align(shape[1], dt.c0)
    if layout == "zn":
        return align(shape[0], dt.c0) * align(shape[1], 16)
    return math.prod(shape)  # Python ints: np.prod would wrap at 2**63


def _flat_numbers(values: Any) -> list[int | float] | None:
    """A (nested) list's numbers in row-major order, or None when it is not a list of numbers (ints within
    64 bits; bools are not numbers). Nesting is bounded by MAX_DEPTH, so the recursion is too."""
    if not isinstance(values, list):
        return None
    out: list[int | float] = []
    for v in values:
        if isinstance(v, list):
            inner = _flat_numbers(v)
            if inner is None:
                return None
            out.extend(inner)
        elif isinstance(v, float) or type(v) is int and INT_MIN <= v <= INT_MAX:
            out.append(v)
        else:
            return None
    return out


def _check_init(sc: Scenario, loc: str, init: Any) -> None:
    if isinstance(init, str):
        if init not in ("arange", "zeros", "ones", "random"):
            raise sc.error(loc, f"unknown init {init!r}; use one of {', '.join(_INIT_KINDS)}")
        return
    _expect(sc, loc, init, dict, "a string or a table")
    if len(init) != 1 or next(iter(init)) not in _INIT_KINDS:
        raise sc.error(loc, f"expected exactly one of {', '.join(_INIT_KINDS)}, got {_show(sorted(init))}")
    kind, arg = next(iter(init.items()))
    loc = f"{loc}.{kind}"
    if kind == "fill":
        _expect(sc, loc, arg, (int, float), "a number")
    elif kind in ("npy", "raw"):  # raw: the file's bytes as they are (`ascsim run k.cpp --emit-scenario`)
        _expect(sc, loc, arg, str, "a .npy file name" if kind == "npy" else "a raw byte file name")
    elif kind == "values":
        if _flat_numbers(arg) is None:
            raise sc.error(loc, f"expected a (flat) list of numbers, got {_show(arg)}")
    elif kind == "random":
        _expect(sc, loc, arg, dict, "a table {seed, low, high}")
        _only(sc, loc, arg, {"seed", "low", "high"})
        for k, v in arg.items():
            _expect(sc, f"{loc}.{k}", v, int if k == "seed" else (int, float), "a number")
            if k == "seed" and v < 0 or k != "seed" and not math.isfinite(v):
                raise sc.error(f"{loc}.{k}", f"expected a {'non-negative' if k == 'seed' else 'finite'} "
                                             f"number, got {_show(v)}")
        low, high = arg.get("low", -1.0), arg.get("high", 1.0)
        if "low" in arg and "high" in arg and not (low <= high and math.isfinite(high - low)):
            raise sc.error(loc, f"expected low <= high with a finite high - low, got low = {_show(low)}, "
                                f"high = {_show(high)}")


def _step(sc: Scenario, i: int, s: Any) -> Step:
    loc = f"steps[{i}]"
    _expect(sc, loc, s, dict, "a table")
    call = s.get("call")
    if not isinstance(call, str) or call not in CALLS:
        raise sc.error(f"{loc}.call", f"unknown call {call!r}{did_you_mean(call, CALLS)}; "
                                      f"known: {', '.join(CALLS)}")
    tensors, optional, takes_params = CALLS[call]
    allowed = {"call", *tensors, *optional, "note"}
    if call == "DataCopyPad":
        allowed.add("mode")
        if "mode" in s and (not isinstance(s["mode"], str) or s["mode"] not in P.PaddingMode.__members__):
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
        if k in s and (not isinstance(s[k], str) or s[k] not in POSITION_MEMORY):
            raise sc.error(f"{loc}.{k}", f"unknown TPosition {_show(s[k])}; known: "
                                         f"{', '.join(POSITION_MEMORY)}")
    if "config" in s and call == "Fixpipe":
        if s["config"] not in FIXPIPE_CONFIGS:
            raise sc.error(f"{loc}.config",
                           f"expected one of {', '.join(FIXPIPE_CONFIGS)}, got {_show(s['config'])}")
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
        _expect(sc, f"{loc}.tensor", name, str, "a tensor name")
        _expect(sc, f"{loc}.index", index, int, "an element index")
    if name not in sc.tensors:
        raise sc.error(loc, f"no tensor named {_show(name)} (known: {', '.join(sc.tensors) or 'none'})")
    if not 0 <= index <= sc.tensors[name].length:
        raise sc.error(f"{loc}.index", f"must be in [0, {sc.tensors[name].length}] (the length of "
                                       f"{name}), got {index}")
    return name, index


def _struct(sc: Scenario, loc: str, d: Any) -> Any:
    """Build a params struct from {type = NAME, field = value, ...} with type checks per field."""
    _expect(sc, loc, d, dict, "a table with type = \"<struct name>\" and its fields")
    types = struct_types()
    tname = d.get("type")
    if not isinstance(tname, str) or tname not in types:
        raise sc.error(f"{loc}.type", f"unknown struct {_show(tname)}{did_you_mean(tname, types)}; known: "
                                      f"{', '.join(sorted(types))}")
    cls = types[tname]
    values = {k: v for k, v in d.items() if k != "type"}
    if hasattr(cls, "FIELDS"):
        return _bitmode(sc, loc, cls, values)
    if cls is P.SetFMatrixBitModeParams:
        return _fmatrix_bitmode(sc, loc, values)
    hints = typing.get_type_hints(cls)
    for k, v in values.items():
        if k not in hints:
            raise sc.error(f"{loc}.{k}", f"unknown field of {tname}{did_you_mean(k, hints)}; fields: "
                                         f"{', '.join(hints)}")
        _check_field(sc, f"{loc}.{k}", v, hints[k])
        nested = _struct_hint(hints[k])
        if nested and v is not None:  # nested, e.g. FixpipeParamsArch3510.params = {type = "Nz2NdParams"}
            values[k] = _struct(sc, f"{loc}.{k}", v)
            if not isinstance(values[k], nested):
                raise sc.error(f"{loc}.{k}.type", f"expected {' or '.join(c.__name__ for c in nested)}, got "
                                                  f"{type(values[k]).__name__}")
        elif isinstance(hints[k], type) and issubclass(hints[k], IntEnum):  # quantPre = "F322F16" or 1
            try:
                values[k] = hints[k][v] if isinstance(v, str) else hints[k](v)
            except (KeyError, ValueError):
                raise sc.error(f"{loc}.{k}", f"expected a {hints[k].__name__} name "
                                             f"({', '.join(hints[k].__members__)}), got {_show(v)}") from None
    return _api(sc, loc, tname, cls, **values)


def _struct_hint(hint: Any) -> tuple[type, ...]:
    """The struct types a field's type hint names (`Nz2NdParams | Nz2DnParams | None`), or ()."""
    return tuple(c for c in (typing.get_args(hint) or (hint,)) if dataclasses.is_dataclass(c))


def _api(sc: Scenario, loc: str, what: str, fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    """Call a params constructor or setter with checked values: its AscsimError is located at `loc`; any
    other exception is an ascsim bug, still reported as one line."""
    try:
        return fn(*args, **kwargs)
    except AscsimError as e:
        raise sc.error(loc, str(e)) from None
    except Exception as e:  # noqa: BLE001 - the one-line contract holds for ascsim's own bugs too
        raise sc.error(loc, internal_error(what, e)) from e


def internal_error(what: str, e: BaseException) -> str:
    """The one-line report of a non-AscsimError exception raised inside `what` (an ascsim bug)."""
    text = _one_line(str(e))
    text = text if len(text) <= 200 else text[:197] + "..."
    return f"internal error in {what}: {type(e).__name__}: {text} — please report"


def _is_int(v: Any) -> bool:
    """A TOML/JSON integer that fits a C++ integer field (64 bits); bools are not integers."""
    return type(v) is int and INT_MIN <= v <= INT_MAX


def _check_field(sc: Scenario, loc: str, v: Any, hint: Any) -> None:
    origin = typing.get_origin(hint)
    if hint is bool:
        if not isinstance(v, bool) and not (type(v) is int and v in (0, 1)):
            raise sc.error(loc, f"expected true or false, got {_show(v)}")
    elif hint is int:
        if not _is_int(v):
            raise sc.error(loc, f"expected an integer{' within 64 bits' * (type(v) is int)}, got {_show(v)}")
    elif hint is float:
        if not (isinstance(v, float) or _is_int(v)):
            raise sc.error(loc, f"expected a number{' within 64 bits' * (type(v) is int)}, got {_show(v)}")
    elif origin is list:
        if not isinstance(v, list) or not all(_is_int(x) for x in v):
            raise sc.error(loc, f"expected a list of integers, got {_show(v)}")
    elif hint is str:
        if not isinstance(v, str):
            raise sc.error(loc, f"expected a string, got {_show(v)}")
    elif isinstance(hint, type) and issubclass(hint, IntEnum):
        if not (isinstance(v, str) or _is_int(v)):
            raise sc.error(loc, f"expected a {hint.__name__} name ({', '.join(hint.__members__)}), "
                                f"got {_show(v)}")
    elif _struct_hint(hint):
        if not isinstance(v, dict) and not (v is None and type(None) in typing.get_args(hint)):
            raise sc.error(loc, f"expected a table {{type = \"{_struct_hint(hint)[0].__name__}\", ...}}, "
                                f"got {_show(v)}")


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
        obj = _api(sc, loc, name, cls, values.get("config0", 0), values.get("config1", 0))
    else:
        obj = cls()
        for k, v in values.items():
            if k not in cls.FIELDS:
                raise sc.error(f"{loc}.{k}", f"unknown field of {name}; fields: "
                                             f"{', '.join(cls.FIELDS)} (or config0/config1)")
            _check_field(sc, f"{loc}.{k}", v, int)
            _api(sc, f"{loc}.{k}", f"{name}.set", obj.set, k, int(v))
    for k, v in flags.items():
        _check_field(sc, f"{loc}.{k}", v, bool)
        _api(sc, f"{loc}.{k}", f"{name}.SetIfTranspose", obj.SetIfTranspose, bool(v))
    return obj


def _fmatrix_bitmode(sc: Scenario, loc: str, values: dict) -> P.SetFMatrixBitModeParams:
    """SetFMatrixBitModeParams from l1H / l1W / padList (through SetL1H / SetL1W / SetPadList) or the raw
    word config0 (SetFmatrixBitMode.md 表2/表3)."""
    allowed = {"l1H": int, "l1W": int, "padList": list[int]}
    if set(values) <= {"config0"}:
        _check_field(sc, f"{loc}.config0", values.get("config0", 0), int)
        return _api(sc, loc, "SetFMatrixBitModeParams", P.SetFMatrixBitModeParams, values.get("config0", 0))
    p = P.SetFMatrixBitModeParams()
    for k, v in values.items():
        if k not in allowed:
            raise sc.error(f"{loc}.{k}", "unknown field of SetFMatrixBitModeParams; fields: l1H, l1W, "
                                         "padList (or config0)")
        _check_field(sc, f"{loc}.{k}", v, allowed[k])
        setter = {"l1H": p.SetL1H, "l1W": p.SetL1W, "padList": p.SetPadList}[k]
        _api(sc, f"{loc}.{k}", f"SetFMatrixBitModeParams.{setter.__name__}", setter, v)
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
        low, high = max(lo, arg.get("low", lo)), min(hi, arg.get("high", hi))
        if low != int(low) or high != int(high) or low > high:
            raise sc.error(f"{loc}.random", f"{dt.name} needs integer low <= high within [{lo}, {hi}], got "
                                            f"low = {_show(low)}, high = {_show(high)}")
        return rng.integers(int(low), int(high) + 1, n)
    if kind == "values":
        v = np.asarray(_flat_numbers(arg))
        if v.dtype.kind not in "iu":  # integers stay exact (64-bit quantisation words)
            v = v.astype(np.float64)
        if v.size != n:
            raise sc.error(loc, f"values has {v.size} entries, the tensor needs {n}")
        return v
    return _load_npy(sc, f"{loc}.npy", str(arg), n)


#: .npy element types a tensor can be initialised from (numbers; no objects, strings, records, complex)
_NPY_KINDS = "biuf"


def _load_npy(sc: Scenario, loc: str, name: str, n: int) -> np.ndarray:
    """The `n` values of a .npy file, read without pickles: header first (dtype and shape checked against
    the tensor), then exactly the bytes those values take — never more than the tensor needs."""
    path = sc.path.parent / name
    try:
        if path.exists() and not path.is_file():  # a folder, a FIFO, /dev/zero: no bounded read
            raise sc.error(loc, f"cannot load {_show(name)}: not a regular file")
        with open(path, "rb") as f:
            version = np.lib.format.read_magic(f)
            if version not in ((1, 0), (2, 0)):
                raise sc.error(loc, f"cannot load {_show(name)}: .npy format version {version} (ascsim reads "
                                    "1.0 and 2.0, what numpy writes for number arrays)")
            read_header = np.lib.format.read_array_header_1_0 if version == (1, 0) else \
                np.lib.format.read_array_header_2_0
            shape, fortran, dtype = read_header(f)
            if dtype.kind not in _NPY_KINDS or dtype.hasobject or dtype.fields or dtype.subdtype:
                raise sc.error(loc, f"cannot load {_show(name)}: its dtype {dtype.str} is not a number type "
                                    "(bool, integer or float)")
            size = math.prod(shape)
            if size != n:
                raise sc.error(loc, f"{name} holds {size} values, the tensor needs {n}")
            data = f.read(size * dtype.itemsize)
    except (OSError, ValueError, EOFError) as e:  # missing file, bad magic or header, NUL in the name
        why = e.strerror if isinstance(e, OSError) and e.strerror else _one_line(str(e))
        raise sc.error(loc, f"cannot load {_show(name)}: {why}") from None
    if len(data) != size * dtype.itemsize:
        raise sc.error(loc, f"cannot load {_show(name)}: truncated ({len(data)} of the "
                            f"{size * dtype.itemsize} data bytes its header announces)")
    return np.frombuffer(data, dtype=dtype).reshape(shape, order="F" if fortran else "C").ravel()


def _init_raw(sc: Scenario, spec: TensorSpec, t: LocalTensor) -> None:
    """init = {raw = FILE}: the tensor's bytes, copied as they are."""
    loc = f"tensors.{spec.name}.init.raw"
    name = spec.init["raw"]
    if not isinstance(name, str):
        raise sc.error(loc, f"expected a file name, got {_show(name)}")
    path = sc.path.parent / name
    try:
        if not path.is_file():  # a folder, a FIFO, /dev/zero: no bounded read
            raise sc.error(loc, f"cannot read {_show(name)}: not a regular file")
        size = path.stat().st_size
        if size != t.nbytes:
            raise sc.error(loc, f"{_show(name)} holds {size} B, the tensor needs {t.nbytes}")
        with open(path, "rb") as f:
            data = f.read(t.nbytes)  # never more than the tensor takes
    except OSError as e:
        raise sc.error(loc, f"cannot read {_show(name)}: {e.strerror}") from None
    if len(data) != t.nbytes:
        raise sc.error(loc, f"{_show(name)} holds {len(data)} B, the tensor needs {t.nbytes}")
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
                n = math.prod(spec.shape) if spec.shape else spec.length
                data = _warnings_at(f"{loc}.init", _init_laid_out, sc, spec, n)
                if data.size > t.length:
                    raise sc.error(f"{loc}.length", f"{spec.length} elements cannot hold the "
                                                     f"{data.size} the init/layout produces")
                _warnings_at(f"{loc}.init", t.write, data)
        except ScenarioError:
            raise
        except AscsimError as e:
            raise sc.error(loc, str(e)) from None
        tensors[name] = t
    return ScenarioRun(sc, core, tensors)


def _init_laid_out(sc: Scenario, spec: TensorSpec, n: int) -> np.ndarray:
    return _laid_out(spec, _init_values(sc, spec, n))


def _warnings_at(loc: str, fn: Callable[..., Any], *args: Any) -> Any:
    """fn(*args), each warning it raises (e.g. numpy's, converting init values) re-raised as a
    ScenarioWarning located at `loc` (the CLI prints it as one `warning:` line)."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        out = fn(*args)
    for w in caught:
        warnings.warn(ScenarioWarning(f"{loc}: {w.category.__name__}: {w.message}"), stacklevel=2)
    return out


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
        except Exception as e:  # noqa: BLE001 - a bug in the instruction: still one located line
            raise ScenarioError(f"{sc.path.name}: {step.line}: {internal_error(step.call, e)}") from e
        result = StepResult(step, report, summarize(step, report))
        run.results.append(result)
        if on_step:
            on_step(result)
    return run


def save_target_problem(target: str) -> str | None:
    """Why `target` cannot name a file inside the output folder (None: it can). Saved files stay inside
    `--out`: no absolute path, no `..`, a file name ending in .npy or .npz."""
    parts = target.replace("\\", "/").split("/")
    if "\x00" in target:
        return f"{_show(target)} holds a NUL character"
    if target.startswith("/") or Path(target).is_absolute():
        return f"{_show(target)} is an absolute path; saved files stay inside --out (name one relative to it)"
    if ".." in parts:
        return f"{_show(target)} has a '..' part; saved files stay inside --out"
    if not target.endswith((".npy", ".npz")) or parts[-1] in (".npy", ".npz"):
        return f"{_show(target)} is not a file name ending in .npy or .npz"
    return None


def save_outputs(run: ScenarioRun, out_dir: str | Path, names: dict[str, str] | None = None) -> list[Path]:
    """Write the chosen tensors' element arrays (.npy) or all of them in one .npz, inside `out_dir` (made
    if missing)."""
    out_dir = Path(out_dir)
    names = names if names is not None else run.scenario.save
    where = run.scenario.path.name
    for name, target in names.items():
        problem = save_target_problem(target)
        if problem:
            raise ScenarioError(f"{where}: save.{name}: {problem}")
    try:
        out_dir.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise ScenarioError(f"--out {str(out_dir)!r}: cannot make the folder: {e.strerror}") from None
    root = out_dir.resolve()
    written = []
    for name, target in names.items():
        path = out_dir / target
        if not path.resolve().is_relative_to(root):  # a symbolic link inside --out pointing out of it
            raise ScenarioError(f"{where}: save.{name}: {_show(target)} leads outside --out through a "
                                "symbolic link")
        values = run.tensors[name].read()
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            if path.suffix == ".npz":
                np.savez(path, **{name: values})
            else:
                np.save(path, values)
        except OSError as e:
            raise ScenarioError(f"{where}: save.{name}: cannot write {_show(str(path))}: {e.strerror}"
                                ) from None
        written.append(path)
    return written
