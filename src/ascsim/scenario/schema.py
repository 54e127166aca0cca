"""The vocabulary every part of a scenario shares: the Scenario / TensorSpec / Step records, the errors
located by file and path, the limits that keep a run bounded, and the small checks of values and tensor
references the schema, the initial values and the [[expect]] tables all use."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..base.errors import AscsimError, did_you_mean, one_line
from ..machine.dtypes import DType
from ..machine.memory import LocalTensor


class ScenarioError(AscsimError):
    """A problem in a scenario file, located by file and path (`steps[2].params.l1H`)."""


class ScenarioWarning(UserWarning):
    """A warning raised while building a scenario's tensors, its message located (`tensors.x.init: ...`)."""


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
    expects: list = field(default_factory=list)  # [[expect]] tables (ascsim.scenario.expect)

    def where(self, loc: str) -> str:
        return f"{self.path.name}: {loc}"

    def error(self, loc: str, msg: str) -> ScenarioError:
        return ScenarioError(f"{self.where(loc)}: {msg}")


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


def brief(value: Any, width: int = 60) -> str:
    """repr(value), cut to `width` characters (a huge int or a long list stays a one-line message)."""
    text = repr(value) if not isinstance(value, int) or abs(value) < 10**30 else \
        f"{'-' if value < 0 else ''}{abs(value).bit_length()}-bit integer"
    return text if len(text) <= width else text[: width - 3] + "..."


def expect_type(sc: Scenario, loc: str, value: Any, kind: type | tuple[type, ...], what: str) -> Any:
    if isinstance(value, bool) and kind in (int, float, (int, float)):
        raise sc.error(loc, f"expected {what}, got {brief(value)}")
    if not isinstance(value, kind):
        raise sc.error(loc, f"expected {what}, got {brief(value)}")
    if isinstance(value, int) and not INT_MIN <= value <= INT_MAX:
        raise sc.error(loc, f"expected {what} that fits 64 bits, got {brief(value)}")
    return value



def only_keys(sc: Scenario, loc: str, d: dict, allowed: set[str]) -> None:
    for k in d:
        if k not in allowed:
            raise sc.error(f"{loc}.{k}" if loc else k,
                           f"unknown field{did_you_mean(k, allowed)}; allowed: {', '.join(sorted(allowed))}")


def flat_numbers(values: Any) -> list[int | float] | None:
    """A (nested) list's numbers in row-major order, or None when it is not a list of numbers (ints within
    64 bits; bools are not numbers). Nesting is bounded by MAX_DEPTH, so the recursion is too."""
    if not isinstance(values, list):
        return None
    out: list[int | float] = []
    for v in values:
        if isinstance(v, list):
            inner = flat_numbers(v)
            if inner is None:
                return None
            out.extend(inner)
        elif isinstance(v, float) or type(v) is int and INT_MIN <= v <= INT_MAX:
            out.append(v)
        else:
            return None
    return out


def tensor_ref(sc: Scenario, loc: str, ref: Any) -> tuple[str, int]:
    if isinstance(ref, str):
        name, index = ref, 0
    else:
        expect_type(sc, loc, ref, dict, "a tensor name or {tensor = NAME, index = I}")
        only_keys(sc, loc, ref, {"tensor", "index"})
        name, index = ref.get("tensor"), ref.get("index", 0)
        expect_type(sc, f"{loc}.tensor", name, str, "a tensor name")
        expect_type(sc, f"{loc}.index", index, int, "an element index")
    if name not in sc.tensors:
        raise sc.error(loc, f"no tensor named {brief(name)} (known: {', '.join(sc.tensors) or 'none'})")
    if not 0 <= index <= sc.tensors[name].length:
        raise sc.error(f"{loc}.index", f"must be in [0, {sc.tensors[name].length}] (the length of "
                                       f"{name}), got {index}")
    return name, index


def internal_error(what: str, e: BaseException) -> str:
    """The one-line report of a non-AscsimError exception raised inside `what` (an ascsim bug)."""
    text = one_line(str(e))
    text = text if len(text) <= 200 else text[:197] + "..."
    return f"internal error in {what}: {type(e).__name__}: {text} — please report"


def resolve(tensors: dict[str, LocalTensor], ref: Any) -> LocalTensor:
    """The tensor a checked reference names: `name` or {tensor = name, index = i} (the C++ `t[i]`)."""
    name, index = (ref, 0) if isinstance(ref, str) else (ref["tensor"], ref.get("index", 0))
    t = tensors[name]
    return t[index] if index else t
