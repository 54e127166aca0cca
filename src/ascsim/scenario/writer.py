"""The one scenario writer: a scenario document (its tables as Python values) as TOML text. The C++
front-end's `--emit-scenario`, the planner and `ascsim port` all write through it."""

from __future__ import annotations

import dataclasses
import json
import math
from collections.abc import Callable
from enum import Enum
from typing import Any

import numpy as np

from ..base.errors import NotImplementedFeature
from ..params.base import EXTENT


def toml_value(v: Any) -> str:
    """One value in TOML: booleans, ints, floats (nan / inf), strings, arrays and inline tables."""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        if math.isnan(v):
            return "nan"
        if math.isinf(v):
            return "inf" if v > 0 else "-inf"
        return repr(v)
    if isinstance(v, str):  # JSON's escapes are TOML basic-string escapes; TOML also wants DEL escaped
        return json.dumps(v, ensure_ascii=False).replace("\x7f", "\\u007f")
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(toml_value(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{ " + ", ".join(f"{_key_str(k)} = {toml_value(x)}" for k, x in v.items()) + " }"
    raise NotImplementedFeature(f"--emit-scenario: cannot write {v!r} to TOML")


def _comment(line: str) -> str:
    """A comment's text without the control characters a TOML comment may not hold (shown as \\xNN)."""
    return "".join(f"\\x{ord(c):02x}" if (ord(c) < 32 and c != "\t") or ord(c) == 127 else c for c in line)


def _key_str(k: str) -> str:
    return k if k.replace("_", "").isalnum() else toml_value(k)


def to_toml(doc: dict, header: str | None = None, notes: dict[str, str] | None = None,
            value: Callable[[Any], str] = toml_value) -> str:
    """A scenario document (the parsed TOML's tables: description, chip, strict, tensors, steps, expect,
    save) as TOML text (docs/scenarios.md): `header` as leading comment lines (by default the description),
    `notes` as comments on tensor tables, every value written by `value`. The one scenario writer: the C++
    front-end's `--emit-scenario`, the planner and `ascsim port` all use it."""
    text = doc.get("description", "") if header is None else header
    out = [f"# {_comment(ln)}" if ln else "#" for ln in text.splitlines()]
    out += [f"{k} = {value(doc[k])}" for k in ("description", "chip", "strict") if k in doc]
    out.append("")
    for name, t in doc.get("tensors", {}).items():
        note = (notes or {}).get(name)
        out.append(f"[tensors.{name}]" + (f"  # {_comment(note)}" if note else ""))
        out += [f"{_key_str(k)} = {value(v)}" for k, v in t.items()]
        out.append("")
    for table in ("steps", "expect"):
        for s in doc.get(table, []):
            out.append(f"[[{table}]]")
            out += [f"{_key_str(k)} = {value(v)}" for k, v in s.items()]
            out.append("")
    if doc.get("save"):
        out.append("[save]")
        out += [f"{_key_str(k)} = {value(v)}" for k, v in doc["save"].items()]
    return "\n".join(out) + "\n"


def plain(v: Any) -> Any:
    """A value as TOML-ready Python: enum members by name, numpy scalars as numbers, params structs (nested
    ones too) as scenario tables."""
    if isinstance(v, Enum):
        return v.name
    if isinstance(v, np.generic):
        return v.item()
    if dataclasses.is_dataclass(v) and not isinstance(v, type):
        return plain(struct_table(v))
    if isinstance(v, (list, tuple)):
        return [plain(x) for x in v]
    if isinstance(v, dict):
        return {k: plain(x) for k, x in v.items()}
    return v


def struct_table(p: Any) -> dict[str, Any]:
    """A params struct as a scenario table {type = NAME, field = value, ...}: the fields that differ from the
    C++ default (omitted fields take it, docs/scenarios.md), and the extents always (a scenario must give
    them, even 0: params.base.extent)."""
    out: dict[str, Any] = {"type": type(p).__name__}
    default = type(p)()
    for f in dataclasses.fields(p):
        v = getattr(p, f.name)
        if v != getattr(default, f.name) or f.name in ("padList",) or f.metadata.get(EXTENT):
            out[f.name] = v
    return out


def scenario_toml(doc: dict, header: str = "", notes: dict[str, str] | None = None) -> str:
    """A scenario document as TOML text (`to_toml`), its values made TOML-ready by `plain`,
    `header` as leading comment lines and `notes` as comments on tensor tables."""
    return to_toml(doc, header, notes, lambda v: toml_value(plain(v)))
