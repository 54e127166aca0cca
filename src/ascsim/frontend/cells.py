"""The interpreter's storage: variables and their scopes, objects of kernel classes, and the control-flow
signals (return / break / continue) statements raise."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from tree_sitter import Node

from ..engine.record import ExecReport
from ..machine.memory import LocalTensor
from . import api as A
from .cvalues import Num, TypeVal
from .program import ClassDef, FuncDef
from .runtime import RuntimeFault, Unset
from .source import Loc
from .syntax import text


class _Uninit:
    def __repr__(self) -> str:
        return "<uninitialised>"


UNINIT = _Uninit()


class Var:
    """A variable: its value, declared type (None: any) and constness."""

    __slots__ = ("value", "type", "const", "name")

    def __init__(self, value: Any, typ: TypeVal | None = None, const: bool = False, name: str = "") -> None:
        self.value = value
        self.type = typ
        self.const = const
        self.name = name

    def get(self) -> Any:
        if self.value is UNINIT:
            raise RuntimeFault(
                f"'{self.name}' is read before it is assigned (its value is indeterminate in C++; "
                "docs/divergences.md R5)"
            )
        return self.value

    def set(self, v: Any) -> None:
        self.value = v


class AttrCell:
    """A params-struct field as an lvalue."""

    __slots__ = ("obj", "name")

    def __init__(self, obj: Any, name: str) -> None:
        self.obj = obj
        self.name = name

    type = None
    const = False

    def get(self) -> Any:
        return getattr(self.obj, self.name)

    def set(self, v: Any) -> None:
        setattr(self.obj, self.name, A.field_value(self.obj, self.name, v))


class Scope:
    __slots__ = ("names", "parent")

    def __init__(self, parent: Scope | None = None) -> None:
        self.names: dict[str, Any] = {}
        self.parent = parent

    def lookup(self, name: str) -> Any:
        c = self.names.get(name)
        if c is not None:
            return c
        return self.parent.lookup(name) if self.parent is not None else None


@dataclass
class Instance:
    """An object of a kernel class: its fields, its class and the template arguments it was made with."""

    cls: ClassDef
    bind: Scope
    name: str
    fields: dict[str, Var] = field(default_factory=dict)


@dataclass
class Method:
    """A method name bound to an object (the callee of `op.Init(...)` or of `Init(...)` inside a method)."""

    inst: Instance
    name: str


@dataclass
class Func:
    """Free functions of one name (overloads picked by argument count)."""

    name: str
    defs: list[FuncDef]


@dataclass
class ScalarPtr:
    """`&x` of a scalar variable: only `*reinterpret_cast<U*>(&x)` (a bit reinterpretation) uses it."""

    cell: Any
    type: TypeVal


class Return(Exception):
    def __init__(self, value: Any) -> None:
        self.value = value


class Break(Exception):
    pass


class Continue(Exception):
    pass


@dataclass
class TraceCall:
    """One executed API call (instruction or register setter): what the scenario emitter and explain use."""

    index: int
    name: str
    loc: Loc
    step: dict | None
    report: ExecReport | None
    roots: dict[int, str]  # id(tensor argument) -> the variable it came from (names scenario tensors)


def show(v: Any) -> str:
    """A value as an error message names it."""
    if isinstance(v, Num):
        return f"{v.v!r} ({v.t.name})"
    if isinstance(v, LocalTensor):
        return f"a LocalTensor<{v.dtype.name}>"
    if isinstance(v, Instance):
        return f"an object of {v.name}"
    if isinstance(v, TypeVal):
        return f"the type {v.name}"
    if isinstance(v, Unset):
        return f"an unset {v.kind}<{v.dtype.name}>"
    if isinstance(v, A.Braced):
        return "a brace initialiser"
    if v is None:
        return "nullptr/void"
    return f"a {type(v).__name__}"


def first_line(node: Node) -> str:
    return text(node).split("\n")[0][:60]
