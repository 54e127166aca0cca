"""C++ scalar types and values as the kernel's arithmetic sees them.

A scalar is a `Num`: a Python int/float/bool plus its C type. Arithmetic follows the C++ rules a kernel's
index math relies on (ISO C++ [conv.prom], [expr.arith.conv]): integer promotion to `int`, the usual
arithmetic conversions (so `uint16_t` helpers compute in `int` and wrap on return, `uint32_t - 1` wraps),
truncating division, two's-complement wrap on conversion to a narrower or unsigned type. The target is
LP64 (`long` and `size_t` are 64 bits), as the bisheng device compiler's.

Types used as values (template arguments, `sizeof(T)`, `IsSameType<T, U>`) are `TypeVal`s: a scalar C type,
an element type of ascsim (`half`, `int4b_t`, `fp8_e8m0_t`, ... — `ascsim.machine.dtypes`), a class of the
kernel,
or an Ascend C API type (`LocalTensor<half>`, `TQue<TPosition::A1, 1>`, a params struct).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import ml_dtypes
import numpy as np

from ..machine.dtypes import DType, get_dtype


@dataclass(frozen=True)
class CType:
    """A scalar C type: `kind` is bool / int / uint / float; `rank` orders conversions."""

    name: str
    bits: int
    kind: str
    rank: int

    @property
    def is_int(self) -> bool:
        return self.kind in ("int", "uint", "bool")

    @property
    def is_float(self) -> bool:
        return self.kind == "float"

    def __str__(self) -> str:
        return self.name


def _ct(name: str, bits: int, kind: str, rank: int) -> CType:
    return CType(name, bits, kind, rank)


BOOL = _ct("bool", 8, "bool", 0)
INT8, UINT8 = _ct("int8_t", 8, "int", 1), _ct("uint8_t", 8, "uint", 1)
INT16, UINT16 = _ct("int16_t", 16, "int", 2), _ct("uint16_t", 16, "uint", 2)
INT32, UINT32 = _ct("int32_t", 32, "int", 3), _ct("uint32_t", 32, "uint", 3)
INT64, UINT64 = _ct("int64_t", 64, "int", 4), _ct("uint64_t", 64, "uint", 4)
HALF = _ct("half", 16, "float", 9)
BF16 = _ct("bfloat16_t", 16, "float", 9)
FLOAT = _ct("float", 32, "float", 10)
DOUBLE = _ct("double", 64, "float", 11)

#: C spellings -> scalar type (LP64).
SCALARS: dict[str, CType] = {
    "bool": BOOL,
    "char": INT8,
    "signed char": INT8,
    "unsigned char": UINT8,
    "int8_t": INT8,
    "uint8_t": UINT8,
    "short": INT16,
    "short int": INT16,
    "unsigned short": UINT16,
    "int16_t": INT16,
    "uint16_t": UINT16,
    "int": INT32,
    "signed": INT32,
    "signed int": INT32,
    "unsigned": UINT32,
    "unsigned int": UINT32,
    "int32_t": INT32,
    "uint32_t": UINT32,
    "long": INT64,
    "long int": INT64,
    "unsigned long": UINT64,
    "long long": INT64,
    "unsigned long long": UINT64,
    "int64_t": INT64,
    "uint64_t": UINT64,
    "size_t": UINT64,
    "uintptr_t": UINT64,
    "ptrdiff_t": INT64,
    "half": HALF,
    "bfloat16_t": BF16,
    "float": FLOAT,
    "double": DOUBLE,
    "float16_t": HALF,
    "event_t": INT32,
    "TEventID": INT8,
}


class Num:
    """A scalar value of C type `t`."""

    __slots__ = ("v", "t")

    def __init__(self, v: int | float | bool, t: CType) -> None:
        self.v = v
        self.t = t

    def __repr__(self) -> str:
        return f"Num({self.v!r}, {self.t.name})"

    def __bool__(self) -> bool:  # C truthiness
        return bool(self.v)

    def __index__(self) -> int:
        return int(self.v)


class ConvError(ValueError):
    """A conversion whose result C++ leaves undefined (float out of an integer's range, NaN to int)."""


def convert(v: int | float | bool, t: CType) -> int | float | bool:
    """The value `v` converted to `t` as C++ does implicitly (wrap for integers, rounding for floats)."""
    if t.kind == "bool":
        return bool(v)
    if t.kind in ("int", "uint"):
        if isinstance(v, float):
            if math.isnan(v) or math.isinf(v):
                raise ConvError(f"{v} has no {t.name} value")
            lo, hi = int_range(t)
            if not lo <= math.trunc(v) <= hi:
                raise ConvError(f"{v!r} is outside the range of {t.name}")
            v = math.trunc(v)
        return wrap(int(v), t)
    v = float(v)
    if t is FLOAT:
        return float(np.float32(v))
    if t is HALF:
        return float(np.float16(v))
    if t is BF16:
        return float(np.asarray(v, dtype=np.float32).astype(ml_dtypes.bfloat16))
    return v


def wrap(v: int, t: CType) -> int:
    """Two's-complement wrap of an integer into `t`."""
    mask = (1 << t.bits) - 1
    v &= mask
    if t.kind == "int" and v >> (t.bits - 1):
        v -= 1 << t.bits
    return v


def int_range(t: CType) -> tuple[int, int]:
    if t.kind == "uint":
        return 0, (1 << t.bits) - 1
    if t.kind == "bool":
        return 0, 1
    return -(1 << (t.bits - 1)), (1 << (t.bits - 1)) - 1


def promote(t: CType) -> CType:
    """Integer promotion: everything ranked below int computes as int."""
    return INT32 if t.is_int and t.rank < INT32.rank else t


def common(a: CType, b: CType) -> CType:
    """The usual arithmetic conversions."""
    if a.is_float or b.is_float:
        fa = a if a.is_float else None
        fb = b if b.is_float else None
        if fa and fb:
            best = fa if fa.rank >= fb.rank else fb
        else:
            best = fa or fb
        return FLOAT if best.rank < FLOAT.rank else best  # half/bfloat16 arithmetic: in float
    a, b = promote(a), promote(b)
    if a == b:
        return a
    if a.kind == b.kind:
        return a if a.rank >= b.rank else b
    u, s = (a, b) if a.kind == "uint" else (b, a)
    if u.rank >= s.rank:
        return u
    if s.bits > u.bits:
        return s
    return _UNSIGNED[s.rank]


_UNSIGNED = {3: UINT32, 4: UINT64}


def num(v: int | float | bool, t: CType) -> Num:
    return Num(convert(v, t), t)


class ArithError(ValueError):
    """Division by zero or another operation C++ leaves undefined."""


def binary(op: str, a: Num, b: Num) -> Num:
    """`a op b` for arithmetic, bitwise, shift and comparison operators."""
    if op in ("<<", ">>"):
        t = promote(a.t)
        if t.is_float or promote(b.t).is_float:
            raise ArithError(f"operator {op} needs integers")
        n = int(b.v)
        if n < 0 or n >= t.bits:
            raise ArithError(f"shift count {n} is outside [0, {t.bits - 1}] for {t.name}")
        x = int(a.v)
        return Num(wrap(x << n, t) if op == "<<" else x >> n, t)
    t = common(a.t, b.t)
    x, y = convert(a.v, t), convert(b.v, t)
    if op in ("==", "!=", "<", ">", "<=", ">="):
        r = {"==": x == y, "!=": x != y, "<": x < y, ">": x > y, "<=": x <= y, ">=": x >= y}[op]
        return Num(r, BOOL)
    if op == "+":
        r = x + y
    elif op == "-":
        r = x - y
    elif op == "*":
        r = x * y
    elif op == "/":
        if t.is_float:
            r = x / y if y else (math.copysign(math.inf, x) * math.copysign(1, y) if x else math.nan)
        else:
            if y == 0:
                raise ArithError("division by zero")
            r = abs(x) // abs(y) * (1 if (x >= 0) == (y >= 0) else -1)
    elif op == "%":
        if t.is_float:
            raise ArithError("operator % needs integers")
        if y == 0:
            raise ArithError("division by zero (%)")
        r = abs(x) % abs(y) * (1 if x >= 0 else -1)
    elif op in ("&", "|", "^"):
        if t.is_float:
            raise ArithError(f"operator {op} needs integers")
        r = {"&": x & y, "|": x | y, "^": x ^ y}[op]
    else:
        raise ArithError(f"operator {op}")
    return Num(convert(r, t), t)


def unary(op: str, a: Num) -> Num:
    if op == "!":
        return Num(not a.v, BOOL)
    t = promote(a.t)
    x = convert(a.v, t)
    if op == "-":
        return Num(convert(-x, t), t)
    if op == "+":
        return Num(x, t)
    if op == "~":
        if t.is_float:
            raise ArithError("operator ~ needs an integer")
        return Num(wrap(~int(x), t), t)
    raise ArithError(f"operator {op}")


def literal(token: str) -> Num:
    """A C++ number literal: 16, 0x1F, 0b101, 1u, 1ULL, 1'000, 2.0, 1.5f, 1e-3."""
    s = token.replace("'", "")
    low = s.lower()
    is_hex = low.startswith("0x")
    if not is_hex and ("." in s or "e" in low) or (is_hex and "p" in low):
        if low.endswith("f"):
            return num(float(s[:-1]), FLOAT)
        return Num(float(s.rstrip("lL")), DOUBLE)
    suffix = ""
    while low and low[-1] in "ul":
        suffix = low[-1] + suffix
        low = low[:-1]
    if low.startswith("0b"):
        v = int(low[2:], 2)
    elif is_hex:
        v = int(low[2:], 16)
    elif len(low) > 1 and low.startswith("0"):
        v = int(low, 8)
    else:
        v = int(low)
    unsigned = "u" in suffix
    longs = suffix.count("l")
    decimal = not (is_hex or low.startswith("0b") or (len(low) > 1 and low.startswith("0")))
    for t in (INT32, UINT32, INT64, UINT64) if not longs else (INT64, UINT64):
        if unsigned and t.kind == "int":
            continue
        if decimal and not unsigned and t.kind == "uint":
            continue  # a decimal literal without u stays signed ([lex.icon])
        lo, hi = int_range(t)
        if lo <= v <= hi:
            return Num(v, t)
    return Num(wrap(v, UINT64), UINT64)


# -- types as values ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class TypeVal:
    """A type used as a value. kind: scalar / elem / class / api / struct / void / auto / ptr.

    `ctype` is set when values of the type take part in arithmetic, `dtype` when it can be the element
    type of a tensor; `args` are template arguments; `ref` the class definition or the params struct class.
    """

    kind: str
    name: str
    ctype: CType | None = None
    dtype: DType | None = None
    size: int = 0
    args: tuple = ()
    ref: Any = None

    def __str__(self) -> str:
        return self.name

    def same(self, other: TypeVal) -> bool:
        """`IsSameType<A, B>::value`."""
        return self.kind == other.kind and self.name == other.name and self.args == other.args


VOID = TypeVal("void", "void")
AUTO = TypeVal("auto", "auto")

#: Element types that exist only as tensor data (no scalar arithmetic on them in a cube kernel).
_ELEM_ONLY = (
    "int4b_t",
    "fp4x2_e2m1_t",
    "fp4x2_e1m2_t",
    "fp8_e4m3fn_t",
    "fp8_e5m2_t",
    "fp8_e8m0_t",
    "hifloat8_t",
    "mx_fp8_e4m3_t",
    "mx_fp8_e5m2_t",
    "int4x2_t",
)


def scalar_type(name: str) -> TypeVal | None:
    """The TypeVal of a scalar or element type name (`uint32_t`, `half`, `int4b_t`), None if unknown."""
    ct = SCALARS.get(name)
    if ct is None and name not in _ELEM_ONLY:
        return None
    try:
        dt = get_dtype(ct.name if ct is not None else name)
    except Exception:  # noqa: BLE001 - no ascsim element type (int64_t, uint64_t, double, bool)
        dt = _WIDE.get(ct.name) if ct is not None else None
    if ct is None:
        # sizeof of a 4-bit type is 1 in C++ (one byte holds a pair: int4b_t, fp4x2_*)
        return TypeVal("elem", dt.name, None, dt, max(1, dt.bits // 8)) if dt is not None else None
    return TypeVal("scalar", ct.name, ct, dt if ct.kind != "bool" else None, ct.bits // 8)


#: 64-bit integer elements (Fixpipe quantisation vectors are uint64_t tensors). ascsim's dtypes have no
#: 64-bit type; these let such tensors exist and be copied as bytes (DataCopy b64 moves bytes) — an
#: instruction that needs their values decides for itself.
_WIDE = {
    "uint64_t": DType("uint64_t", 64, "uint", np.dtype(np.uint64), np.dtype(np.uint64)),
    "int64_t": DType("int64_t", 64, "int", np.dtype(np.int64), np.dtype(np.uint64)),
}
