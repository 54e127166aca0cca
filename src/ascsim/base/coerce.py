"""The input-coercion layer (issue 9): every scalar argument of the API — struct fields, flags, values of T,
enum choices, struct arguments — is checked for type and range here, once, with one message style:
`"{instr}: {name} must be ..., but got {value} ({basis})"` (the basis as in `ascsim.base.errors`).

What is accepted follows what the C++ parameter would accept:

* an **integer** field takes a Python int (or an int subclass such as an IntEnum member or `Bits`), a
  numpy integer scalar, or a bool / numpy bool — C++ converts `bool` to any integer type. Floats (even
  3.0), strings, None, containers, 0-d and larger arrays, complex numbers and Fraction / Decimal are refused:
  a brace-initialised C++ struct does not take them (narrowing), and they are almost always mistakes;
* a **flag** (a C++ `bool`) takes True / False, a numpy bool, or an integer 0 / 1;
* a **value of T** (padValue, initValue, paddingValue: a `T` member in C++) takes a real number: an int,
  a float, a numpy / ml_dtypes scalar, or `Bits`. Whether it fits T is `ascsim.machine.dtypes.pad_pattern`'s
  check;
* an **enum** takes a member, its integer value or its name;
* a **struct** argument must be an instance of one of the accepted structs.

Values are shown with `show`, which never fails and stays short (a 10,000-digit int, a large array).
"""

from __future__ import annotations

from collections.abc import Iterable
from enum import Enum
from typing import TypeVar

import numpy as np

from .errors import ParamRangeError

_E = TypeVar("_E", bound=Enum)


def show(value: object) -> str:
    """A short, safe repr of a user value for messages."""
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 128:
        return f"{'-' if value < 0 else ''}<an integer of {value.bit_length()} bits>"
    if isinstance(value, np.ndarray):
        return f"array(shape={value.shape}, dtype={value.dtype})" if value.size > 8 else \
            f"array({value.tolist()!r}, dtype={value.dtype})"
    try:
        text = repr(value)
    except Exception:  # noqa: BLE001 - a user object whose repr fails
        text = f"<{type(value).__name__}>"
    return text if len(text) <= 80 else text[:77] + "..."


def as_int(value: object) -> int | None:
    """`value` as a Python int if it is an integer C++ would take (see the module docstring), else None."""
    t = value.__class__
    if t is int:
        return value  # type: ignore[return-value]
    if isinstance(value, (int, np.integer, np.bool_)):
        return int(value)
    return None


def integer(instr: str, name: str, value: object, lo: int, hi: int, basis: str = "") -> int:
    """`value` as an int in [lo, hi]; ParamRangeError for a value that is no integer or out of range."""
    v = as_int(value)
    if v is None:
        raise ParamRangeError(f"{instr}: {name} must be an integer in [{lo}, {hi}], "
                              f"but got {show(value)}", basis=basis)
    if not lo <= v <= hi:
        raise ParamRangeError(f"{instr}: {name} must be in [{lo}, {hi}], but got {show(v)}",
                              basis=basis)
    return v


def flag(instr: str, name: str, value: object, basis: str = "") -> bool:
    """`value` as a bool; ParamRangeError unless it is True / False (or numpy bool) or an integer 0 / 1."""
    if value is True or value is False:
        return value  # type: ignore[return-value]
    v = as_int(value)
    if v is None or v not in (0, 1):
        raise ParamRangeError(
            f"{instr}: {name} must be a bool (true/false), but got {show(value)}", basis=basis)
    return bool(v)


def number(instr: str, name: str, value: object, what: str = "a number", basis: str = "") -> object:
    """`value` unchanged if it is a real scalar a C++ `T` member could be initialised from (int, float,
    numpy / ml_dtypes scalar, `Bits`, bool); ParamRangeError otherwise (None, str, complex, arrays, ...)."""
    if isinstance(value, (int, float)) and not isinstance(value, complex):
        return value
    if isinstance(value, np.generic) and value.dtype.kind not in "cOSUMm":
        try:
            float(value)  # ml_dtypes scalars have kind 'V' but convert
            return value
        except (TypeError, ValueError):
            pass
    raise ParamRangeError(f"{instr}: {name} must be {what}, but got {show(value)}", basis=basis)


def choice(instr: str, name: str, value: object, enum: type[_E], basis: str = "") -> _E:
    """An enum member from a member, its integer value or its name (`"NZ"`, `"CO2Layout::NZ"`)."""
    if isinstance(value, enum):
        return value
    try:
        if isinstance(value, str):
            return enum[value.rsplit("::", 1)[-1].rsplit(".", 1)[-1]]
        v = as_int(value)
        if v is not None and not isinstance(value, (bool, np.bool_)):
            return enum(v)
    except (KeyError, ValueError):
        pass
    names = ", ".join(f"{m.name} = {m.value}" for m in enum)  # type: ignore[attr-defined]
    raise ParamRangeError(f"{instr}: {name} must be a {enum.__name__} ({names}), but got "
                          f"{show(value)}", basis=basis)


def struct(instr: str, name: str, value: object, accepted: Iterable[type], basis: str = "") -> None:
    """ParamRangeError unless `value` is an instance of one of the `accepted` struct types."""
    kinds = tuple(accepted)
    if isinstance(value, kinds):
        return
    got = f"the class {value.__name__} itself" if isinstance(value, type) else \
        f"{type(value).__name__} {show(value)}" if not hasattr(value, "__dataclass_fields__") else \
        type(value).__name__
    raise ParamRangeError(f"{instr}: {name} must be {' or '.join(k.__name__ for k in kinds)}, "
                          f"but got {got}", basis=basis)


def numeric_array(instr: str, name: str, values: object, what: str = "numbers") -> np.ndarray:
    """`values` as a numpy array of real numbers (bools, ints, floats, ml_dtypes floats, or an object array
    of Python numbers such as ints beyond 64 bits); ParamRangeError for ragged nesting, strings, None,
    complex numbers and other objects (numpy would turn None into NaN or drop an imaginary part)."""
    try:
        v = np.asarray(values)
    except (TypeError, ValueError, OverflowError) as e:
        raise ParamRangeError(f"{instr}: {name} must be an array of {what}, but got {show(values)} ({e})"
                              ) from None
    kind = v.dtype.kind
    if kind in "biuf":
        return v
    if kind == "V":  # ml_dtypes / en_dtypes element types convert to float; structured arrays do not
        try:
            v.ravel()[:1].astype(np.float64)
            return v
        except (TypeError, ValueError):
            pass
    if kind == "O" and all(isinstance(x, (int, float, np.integer, np.floating)) for x in v.ravel().tolist()):
        return v
    raise ParamRangeError(f"{instr}: {name} must be an array of {what}, but got {show(values)} "
                          f"(an array of {v.dtype})")


__all__ = ["show", "as_int", "integer", "flag", "number", "choice", "struct", "numeric_array"]
