"""Scenario files as written: reading (TOML or JSON, bounded), the schema of tensors and steps checked
against the instruction table, params structs built from their tables, tensor references — every
problem one line naming the file and the place in it."""

from __future__ import annotations

import dataclasses
import functools
import json
import math
import typing
from collections.abc import Callable
from enum import IntEnum
from pathlib import Path
from typing import Any

from .. import params as P
from ..base.errors import AscsimError, did_you_mean
from ..isa import table
from ..isa.table import REQUIRED, STRUCT, STRUCT_DEFAULT, TENSOR, VALUE, Arg, Instruction
from ..machine.chips import get_chip
from ..machine.dtypes import DType, get_dtype
from ..machine.layouts import align
from ..machine.memory import POSITION_MEMORY, memory_of, position_hint
from ..params.base import extents
from .expect import parse_expects
from .schema import (
    INT_MAX,
    INT_MIN,
    MAX_DEPTH,
    MAX_FILE_BYTES,
    MAX_GM_ELEMENTS,
    MAX_GM_TOTAL_ELEMENTS,
    Scenario,
    ScenarioError,
    Step,
    TensorSpec,
    brief,
    expect_type,
    flat_numbers,
    internal_error,
    one_line,
    only_keys,
    tensor_ref,
)

try:  # Python >= 3.11
    import tomllib
except ModuleNotFoundError:  # pragma: no cover - Python 3.10
    import tomli as tomllib  # type: ignore[no-redef]


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


#: The calls a step may make: every C++ API name of the instruction table.
CALLS = table.BY_NAME

#: Fixpipe's FixpipeConfig template argument by C++ name (`config = "CFG_NZ"` in a Fixpipe step).
FIXPIPE_CONFIGS = ("CFG_ROW_MAJOR", "CFG_NZ", "CFG_COLUMN_MAJOR")

_INIT_KINDS = ("arange", "zeros", "ones", "random", "npy", "values", "fill", "raw")
_LAYOUTS = ("flat", "fmap", "nz", "zz", "zn")


# -- loading and schema checks ---------------------------------------------------------------------------


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
            return loc, f"{brief(node)} holds a lone UTF-16 surrogate (a \\ud800-\\udfff escape), not text"
        items = node.items() if isinstance(node, dict) else enumerate(node) if isinstance(node, list) else ()
        for k, v in items:
            if isinstance(k, str) and not _is_text(k):
                return loc or "(top level)", f"the key {brief(k)} holds a lone UTF-16 surrogate, not text"
            todo.append((v, f"{loc}[{k}]" if isinstance(k, int) else f"{loc}.{k}" if loc else str(k),
                         depth + 1))
    return None


def _is_text(s: str) -> bool:
    try:
        s.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def read_tables(path: Path) -> dict:
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
        raise ScenarioError(f"{path.name}: not valid {fmt}: {one_line(str(e))}") from None
    if not isinstance(raw, dict):
        raise ScenarioError(f"{path.name}: expected a table of chip, tensors, steps ... at the top level, "
                            f"got {type(raw).__name__} {brief(raw)}")
    problem = _shape_problem(raw)
    if problem is not None:
        raise ScenarioError(f"{path.name}: {problem[0]}: {problem[1]}")
    return raw


def load_scenario(path: str | Path) -> Scenario:
    """Read and check a scenario file (.toml or .json)."""
    path = Path(path)
    sc = Scenario(path, "", False, {}, [])
    raw = read_tables(path)
    only_keys(sc, "", raw, {"chip", "strict", "tensors", "steps", "save", "description", "expect"})
    if "chip" not in raw:
        raise sc.error("chip", "missing (e.g. chip = \"a2\"; see `ascsim chips`)")

    chip_name = expect_type(sc, "chip", raw["chip"], str, "a chip name")
    try:
        sc.chip = get_chip(chip_name).key
    except AscsimError as e:
        raise sc.error("chip", str(e)) from None
    sc.strict = expect_type(sc, "strict", raw.get("strict", False), bool, "true or false")
    sc.description = expect_type(sc, "description", raw.get("description", ""), str, "a string")
    tensors = expect_type(sc, "tensors", raw.get("tensors", {}), dict, "a table of tensors")
    for name, t in tensors.items():
        sc.tensors[name] = _tensor_spec(sc, name, t)
    gm = sum(t.length for t in sc.tensors.values() if memory_of(t.position) == "GM")
    if gm > MAX_GM_TOTAL_ELEMENTS:
        raise sc.error("tensors", f"the GM tensors hold {gm:,} elements together; a scenario is limited to "
                                  f"{MAX_GM_TOTAL_ELEMENTS:,} (ascsim's limit for a CPU run, not the "
                                  "hardware's)")
    steps = expect_type(sc, "steps", raw.get("steps", []), list, "an array of steps ([[steps]])")
    for i, s in enumerate(steps):
        sc.steps.append(_step(sc, i, s))
    save = expect_type(sc, "save", raw.get("save", {}), dict, "a table name = \"file.npy\"")
    for name, target in save.items():
        if name not in sc.tensors:
            raise sc.error(f"save.{name}", f"no tensor named {name!r} (known: {', '.join(sc.tensors)})")
        sc.save[name] = expect_type(sc, f"save.{name}", target, str, "a file name")
        problem = save_target_problem(target)
        if problem:
            raise sc.error(f"save.{name}", problem)
    if "expect" in raw:

        sc.expects = parse_expects(sc, raw["expect"])
    return sc


def _tensor_spec(sc: Scenario, name: str, t: Any) -> TensorSpec:
    loc = f"tensors.{name}"
    expect_type(sc, loc, t, dict, "a table")
    only_keys(sc, loc, t, {"position", "dtype", "length", "offset", "init", "shape", "layout"})
    for req in ("position", "dtype"):
        if req not in t:
            raise sc.error(f"{loc}.{req}", "missing")
    pos = expect_type(sc, f"{loc}.position", t["position"], str, "a TPosition name")
    if pos not in POSITION_MEMORY:
        raise sc.error(f"{loc}.position", f"unknown TPosition {pos!r}{position_hint(pos)}; known: "
                                          f"{', '.join(POSITION_MEMORY)}")
    expect_type(sc, f"{loc}.dtype", t["dtype"], str, "a dtype name")
    try:
        dt = get_dtype(t["dtype"])
    except AscsimError as e:
        raise sc.error(f"{loc}.dtype", str(e)) from None
    shape = t.get("shape")
    if shape is not None:
        expect_type(sc, f"{loc}.shape", shape, list, "a list of positive integers")
        if not shape or not all(isinstance(s, int) and not isinstance(s, bool) and 0 < s <= INT_MAX
                                for s in shape):
            raise sc.error(f"{loc}.shape", f"expected a list of positive integers, got {brief(shape)}")
        shape = tuple(shape)
    layout = expect_type(sc, f"{loc}.layout", t.get("layout", "flat"), str, "a layout name")
    if layout not in _LAYOUTS:
        raise sc.error(f"{loc}.layout", f"unknown layout {layout!r}; known: {', '.join(_LAYOUTS)}")
    if layout == "fmap" and (shape is None or len(shape) != 3):
        raise sc.error(f"{loc}.shape", "layout \"fmap\" needs shape = [C, H, W]")
    if layout in ("nz", "zz", "zn") and (shape is None or len(shape) != 2):
        raise sc.error(f"{loc}.shape", f"layout {layout!r} needs shape = [rows, cols]")
    length = t.get("length")
    if length is not None:
        expect_type(sc, f"{loc}.length", length, int, "a positive integer")
    elif shape is None:
        raise sc.error(f"{loc}.length", "missing (or give shape)")
    else:
        length = _laid_out_size(layout, shape, dt)
    if length <= 0:
        raise sc.error(f"{loc}.length", f"must be > 0, got {length}")
    if memory_of(pos) == "GM" and length > MAX_GM_ELEMENTS:
        raise sc.error(f"{loc}.length" if "length" in t else f"{loc}.shape",
                       f"{brief(length)} elements of {dt.name}; a GM tensor of a scenario is limited to "
                       f"{MAX_GM_ELEMENTS:,} elements (ascsim's limit for a CPU run, not the hardware's)")
    offset = t.get("offset")
    if offset is not None:
        expect_type(sc, f"{loc}.offset", offset, int, "a byte offset (integer)")
        if offset < 0:
            raise sc.error(f"{loc}.offset", f"must be >= 0, got {offset}")
    init = t.get("init")
    if init is not None:
        _check_init(sc, f"{loc}.init", init)
        if shape is not None and _laid_out_size(layout, shape, dt) > length:  # before building any values
            raise sc.error(f"{loc}.length", f"{length} elements cannot hold the "
                                             f"{brief(_laid_out_size(layout, shape, dt))} the init/layout "
                                             "produces")
    return TensorSpec(name, pos, dt, length, offset, init, shape, layout)


def _laid_out_size(layout: str, shape: tuple[int, ...], dt: DType) -> int:
    """Elements a tensor needs to hold a `shape` matrix / feature map in `layout` (fractals padded)."""
    if layout in ("nz", "zz"):
        return align(shape[0], 16) * align(shape[1], dt.c0)
    if layout == "zn":
        return align(shape[0], dt.c0) * align(shape[1], 16)
    return math.prod(shape)  # Python ints: np.prod would wrap at 2**63


def _check_init(sc: Scenario, loc: str, init: Any) -> None:
    if isinstance(init, str):
        if init not in ("arange", "zeros", "ones", "random"):
            raise sc.error(loc, f"unknown init {init!r}; use one of {', '.join(_INIT_KINDS)}")
        return
    expect_type(sc, loc, init, dict, "a string or a table")
    if len(init) != 1 or next(iter(init)) not in _INIT_KINDS:
        raise sc.error(loc, f"expected exactly one of {', '.join(_INIT_KINDS)}, got {brief(sorted(init))}")
    kind, arg = next(iter(init.items()))
    loc = f"{loc}.{kind}"
    if kind == "fill":
        expect_type(sc, loc, arg, (int, float), "a number")
    elif kind in ("npy", "raw"):  # raw: the file's bytes as they are (`ascsim run k.cpp --emit-scenario`)
        expect_type(sc, loc, arg, str, "a .npy file name" if kind == "npy" else "a raw byte file name")
    elif kind == "values":
        if flat_numbers(arg) is None:
            raise sc.error(loc, f"expected a (flat) list of numbers, got {brief(arg)}")
    elif kind == "random":
        expect_type(sc, loc, arg, dict, "a table {seed, low, high}")
        only_keys(sc, loc, arg, {"seed", "low", "high"})
        for k, v in arg.items():
            expect_type(sc, f"{loc}.{k}", v, int if k == "seed" else (int, float), "a number")
            if k == "seed" and v < 0 or k != "seed" and not math.isfinite(v):
                raise sc.error(f"{loc}.{k}", f"expected a {'non-negative' if k == 'seed' else 'finite'} "
                                             f"number, got {brief(v)}")
        low, high = arg.get("low", -1.0), arg.get("high", 1.0)
        if "low" in arg and "high" in arg and not (low <= high and math.isfinite(high - low)):
            raise sc.error(loc, f"expected low <= high with a finite high - low, got low = {brief(low)}, "
                                f"high = {brief(high)}")


def _step(sc: Scenario, i: int, s: Any) -> Step:
    """Check one [[steps]] table against its call's form in the instruction table (isa.table): known keys,
    tensor references, value types, structs and their types."""
    loc = f"steps[{i}]"
    expect_type(sc, loc, s, dict, "a table")
    call = s.get("call")
    if not isinstance(call, str) or call not in CALLS:
        raise sc.error(f"{loc}.call", f"unknown call {call!r}{did_you_mean(call, CALLS)}; "
                                      f"known: {', '.join(CALLS)}")
    ins = CALLS[call]
    form = ins.form_for(s)
    args = form.step_args()
    mine = {a.step_key for a in args}
    order = _key_order(ins)
    others = sorted({a.step_key for f in ins.forms if f is not form for a in f.step_args()} - mine, key=order)
    clash = sorted(k for k in others if k in s)
    if clash and form.when is not None:
        first = form.op.arg(form.positional()[0][0])
        what = (f"{form.when} ({' or '.join(t.__name__ for t in form.structs_of(first.name))})"
                if first.kind == STRUCT else form.when)
        raise sc.error(f"{loc}.{clash[0]}", f"give either {what} or {'/'.join(others)}, not both")
    only_keys(sc, loc, s, {"call", "note", *mine, *others})
    for a in args:
        key = a.step_key
        if a.kind == TENSOR:
            if key not in s:
                if not a.optional:
                    raise sc.error(f"{loc}.{key}", f"missing tensor argument of {call}")
                continue
            tensor_ref(sc, f"{loc}.{key}", s[key])
        elif a.kind == VALUE:
            if key in s:
                _check_value(sc, f"{loc}.{key}", a, s[key])
            elif a.step_default is REQUIRED:
                raise sc.error(f"{loc}.{key}", f"{call} needs {key}{f' ({a.note})' if a.note else ''}")
    for a in args:
        if a.kind != STRUCT:
            continue
        key = a.step_key
        if key not in s:
            if a.step_default is STRUCT_DEFAULT or a.optional:
                continue
            raise sc.error(f"{loc}.{key}", f"missing parameter struct of {call}")
        obj = struct_value(sc, f"{loc}.{key}", s[key])
        wanted = () if form.op.dispatch and a.name == "params" else form.structs_of(a.name)
        if wanted and not isinstance(obj, wanted):
            names = " or ".join(t.__name__ for t in wanted)
            raise sc.error(f"{loc}.{key}.type", f"{call} takes {names}, got {type(obj).__name__}"
                           if key == "params" else f"expected {names}, got {type(obj).__name__}")
    return Step(i, call, s, loc)


def _key_order(ins: Instruction) -> Callable[[str], int]:
    """Step keys in the order the instruction's forms list their arguments (for messages)."""
    order = [a.step_key for f in ins.forms for a in f.op.args]
    return lambda k: order.index(k) if k in order else len(order)


def _check_value(sc: Scenario, loc: str, a: Arg, v: Any) -> None:
    """A value argument as a step spells it (`Arg.step`): a field type (int, float, str, list[int]) or one
    of the named vocabularies below."""
    kind = a.step
    if kind == "position":  # a TPosition template argument (LoadData<Dst, Src>)
        if not isinstance(v, str) or v not in POSITION_MEMORY:
            raise sc.error(loc, f"unknown TPosition {brief(v)}; known: {', '.join(POSITION_MEMORY)}")
    elif kind == "fixpipe_config":  # Fixpipe's FixpipeConfig by C++ name
        if v not in FIXPIPE_CONFIGS:
            raise sc.error(loc, f"expected one of {', '.join(FIXPIPE_CONFIGS)}, got {brief(v)}")
    elif kind == "padding_mode":  # DataCopyPad's PaddingMode by name
        if not isinstance(v, str) or v not in P.PaddingMode.__members__:
            raise sc.error(loc, f"expected one of {', '.join(P.PaddingMode.__members__)}, got {v!r}")
    elif kind == "load3d_config":  # the IsResetLoad3dConfig template argument, as a table
        only_keys(sc, loc, expect_type(sc, loc, v, dict, "a table"), {"isSetFMatrix", "isSetPadding"})
        for k, x in v.items():
            _check_field(sc, f"{loc}.{k}", x, bool)
    else:
        _check_field(sc, loc, v, kind)


def step_value(a: Arg, v: Any) -> Any:
    """A checked step value as the Core method takes it."""
    if a.step == "fixpipe_config":
        return getattr(P, v)
    if a.step == "padding_mode":
        return P.PaddingMode[v]
    if a.step == "load3d_config":
        return P.IsResetLoad3dConfig(**v)
    return v


def struct_value(sc: Scenario, loc: str, d: Any, *, written: bool = True) -> Any:
    """Build a params struct from {type = NAME, field = value, ...} with type checks per field. A table the
    file `written` must give the struct's extents (params.base.extent: kExtension, repeatTimes, m / n / k:
    their C++ default 0 is a call that moves nothing); a struct the step leaves out entirely where the C++
    API has an overload without it (`mx_params`, `pad_params`) is the default-constructed one."""
    expect_type(sc, loc, d, dict, "a table with type = \"<struct name>\" and its fields")
    types = struct_types()
    tname = d.get("type")
    if not isinstance(tname, str) or tname not in types:
        raise sc.error(f"{loc}.type", f"unknown struct {brief(tname)}{did_you_mean(tname, types)}; known: "
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
        nested = _struct_hint(hints[k])
        if nested and v is not None:  # nested, e.g. FixpipeParamsArch3510.params = {type = "Nz2NdParams"}
            inner = types.get(v.get("type"))
            if inner is not None and not issubclass(inner, nested):  # the type first, then its fields
                raise sc.error(f"{loc}.{k}.type", f"expected {' or '.join(c.__name__ for c in nested)}, got "
                                                  f"{inner.__name__}")
            values[k] = struct_value(sc, f"{loc}.{k}", v)
            if not isinstance(values[k], nested):
                raise sc.error(f"{loc}.{k}.type", f"expected {' or '.join(c.__name__ for c in nested)}, got "
                                                  f"{type(values[k]).__name__}")
        elif isinstance(hints[k], type) and issubclass(hints[k], IntEnum):  # quantPre = "F322F16" or 1
            try:
                values[k] = hints[k][v] if isinstance(v, str) else hints[k](v)
            except (KeyError, ValueError):
                raise sc.error(f"{loc}.{k}", f"expected a {hints[k].__name__} name "
                                             f"({', '.join(hints[k].__members__)}), got {brief(v)}") from None
    obj = _api(sc, loc, tname, cls, **values)
    missing = [f for f in extents(cls) if f not in values] if written else []
    if missing:
        raise sc.error(f"{loc}.{missing[0]}", f"{tname} needs {missing[0]}: it sizes the call, and its C++ "
                       "default 0 would make the call move nothing; give it (0 for a deliberate NOP)"
                       + (f" (also missing: {', '.join(missing[1:])})" if len(missing) > 1 else ""))
    return obj


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


def _is_int(v: Any) -> bool:
    """A TOML/JSON integer that fits a C++ integer field (64 bits); bools are not integers."""
    return type(v) is int and INT_MIN <= v <= INT_MAX


@functools.cache
def _type_hints(cls: type) -> dict[str, Any]:
    """A struct's field types (evaluated once: a scenario of thousands of steps names the same few)."""
    return typing.get_type_hints(cls)


def _check_field(sc: Scenario, loc: str, v: Any, hint: Any) -> None:
    origin = typing.get_origin(hint)
    if hint is bool:
        if not isinstance(v, bool) and not (type(v) is int and v in (0, 1)):
            raise sc.error(loc, f"expected true or false, got {brief(v)}")
    elif hint is int:
        if not _is_int(v):
            raise sc.error(loc, f"expected an integer{' within 64 bits' * (type(v) is int)}, got {brief(v)}")
    elif hint is float:
        if not (isinstance(v, float) or _is_int(v)):
            raise sc.error(loc, f"expected a number{' within 64 bits' * (type(v) is int)}, got {brief(v)}")
    elif origin is list:
        if not isinstance(v, list) or not all(_is_int(x) for x in v):
            raise sc.error(loc, f"expected a list of integers, got {brief(v)}")
    elif hint is str:
        if not isinstance(v, str):
            raise sc.error(loc, f"expected a string, got {brief(v)}")
    elif isinstance(hint, type) and issubclass(hint, IntEnum):
        if not (isinstance(v, str) or _is_int(v)):
            raise sc.error(loc, f"expected a {hint.__name__} name ({', '.join(hint.__members__)}), "
                                f"got {brief(v)}")
    elif _struct_hint(hint):
        if not isinstance(v, dict) and not (v is None and type(None) in typing.get_args(hint)):
            raise sc.error(loc, f"expected a table {{type = \"{_struct_hint(hint)[0].__name__}\", ...}}, "
                                f"got {brief(v)}")


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


def save_target_problem(target: str) -> str | None:
    """Why `target` cannot name a file inside the output folder (None: it can). Saved files stay inside
    `--out`: no absolute path, no `..`, a file name ending in .npy or .npz."""
    parts = target.replace("\\", "/").split("/")
    if "\x00" in target:
        return f"{brief(target)} holds a NUL character"
    if target.startswith("/") or Path(target).is_absolute():
        return f"{brief(target)} is an absolute path; saved files stay inside --out (name one relative to it)"
    if ".." in parts:
        return f"{brief(target)} has a '..' part; saved files stay inside --out"
    if not target.endswith((".npy", ".npz")) or parts[-1] in (".npy", ".npz"):
        return f"{brief(target)} is not a file name ending in .npy or .npz"
    return None


def step_struct(sc: Scenario, step: Step, part: str = "params") -> Any:
    """The struct a step passes as `params` (or `mx_params` / `pad_params`), built exactly as `run_scenario`
    builds it; a missing `mx_params` / `pad_params` is the struct's default."""
    form = CALLS[step.call].form_for(step.raw)
    arg = next((a for a in form.step_args() if a.step_key == part), None)
    default = ({"type": form.structs_of(arg.name)[0].__name__}
               if arg is not None and arg.step_default is STRUCT_DEFAULT else None)
    given = step.raw.get(part)
    return struct_value(sc, f"{step.line}.{part}", default if given is None else given,
                        written=given is not None)


def step_config(step: Step) -> P.IsResetLoad3dConfig | None:
    """The IsResetLoad3dConfig template argument of a LoadData step (None = the default {true, true})."""
    cfg = step.raw.get("config")
    return P.IsResetLoad3dConfig(**cfg) if isinstance(cfg, dict) else None


