"""Small validators shared by every instruction; each raises with instruction, parameter, value, allowed.

Each takes `basis=`: why the call is refused (`ascsim.base.errors.cpp_rejects` / `hw_cannot` / `doc_forbids`),
appended to the message in parentheses (issue 7's convention). The caller chooses it because the same
rule can be a C++ check for one instruction and a doc-only rule for another.
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

from ..base import coerce
from ..base.errors import (
    AlignmentError,
    ParamRangeError,
    UnsupportedError,
    cpp_rejects,
    hw_cannot,
)
from .memory import LocalTensor, memory_of

#: The C++ API's own position check (asc-devkit kernel_operator_mm_check.h / kernel_check.h): it tests the
#: tensor's physical memory (GetPhyType), never the TPosition tag.
PHYSICAL_POSITION = cpp_rejects("CheckTensorPhyPosition")
#: The C++ API's alignment check (CheckTensorAlignment / CheckTensorAlign).
ALIGNMENT = cpp_rejects("CheckTensorAlignment")
#: dst and src of a LoadData are `LocalTensor<T>` of one T: a mismatch does not compile.
SAME_T = cpp_rejects("LocalTensor<T> dst and src share one T")


def in_range(instr: str, name: str, value: object, lo: int, hi: int, basis: str = "") -> int:
    """`value` as an int in [lo, hi]; ParamRangeError for a value that is no integer (ascsim.base.coerce: a
    float,
    None, a string, an array, ... — a bool counts as 0 / 1, as in C++) or one out of range."""
    return coerce.integer(instr, name, value, lo, hi, basis)


def pair(instr: str, name: str, value: object) -> tuple[int, int]:
    """(h, w) from an int or a 2-sequence (stride, dilation, kernel size of a convolution)."""
    if isinstance(value, (int, np.integer)):
        return int(value), int(value)
    t = tuple(int(x) for x in value)  # type: ignore[union-attr]
    if len(t) != 2:
        raise ParamRangeError(f"{instr}: {name} must be an int or (h, w), but got {coerce.show(value)}")
    return t  # type: ignore[return-value]


def field(instr: str, name: str, value: object, bits: int, lo: int = 0, ctype: str = "") -> int:
    """`in_range` for a value that must fit an unsigned `bits`-wide field (lo..2^bits-1): the C++ struct
    member (`ctype`, e.g. "uint16_t": a narrowing brace initialiser does not compile) or, without `ctype`,
    the instruction's bit field cannot hold anything else."""
    if value.__class__ is int and lo <= value < (1 << bits):  # type: ignore[operator]
        return value  # type: ignore[return-value]  # the common case: no basis text to build
    basis = cpp_rejects(f"{ctype} field") if ctype else hw_cannot(f"{bits}-bit field")
    return in_range(instr, name, value, lo, (1 << bits) - 1, basis)


def flag(instr: str, name: str, value: object, basis: str = "") -> bool:
    """`value` as a bool; ParamRangeError unless it is True / False (or a numpy bool) or an integer 0 / 1."""
    return coerce.flag(instr, name, value, basis or hw_cannot("1-bit field"))


def multiple(instr: str, name: str, value: int, m: int, why: str = "", basis: str = "") -> None:
    """ParamRangeError unless `value` is a multiple of `m` (`why` is appended to the rule)."""
    if value % m:
        raise ParamRangeError(f"{instr}: {name} must be a multiple of {m}{why}, but got {value}",
                              basis=basis)


def same_dtype(instr: str, dst: LocalTensor, src: LocalTensor, basis: str = SAME_T) -> None:
    """UnsupportedError unless dst and src have the same element type (a copy does not convert)."""
    if dst.dtype != src.dtype:
        raise UnsupportedError(f"{instr}: dst and src must have the same dtype, but got "
                               f"{dst.dtype.name} and {src.dtype.name}", basis=basis)


def aligned(instr: str, what: str, t: LocalTensor, align: int, basis: str = "") -> None:
    """AlignmentError unless the tensor's byte offset is a multiple of `align`."""
    if t.offset % align:
        raise AlignmentError(
            f"{instr}: {what} address must be {align}-byte aligned in {t.memory.name}, "
            f"but got 0x{t.offset:x} ({t.offset} B, {t.offset % align} past a boundary)", basis=basis)


def position(instr: str, what: str, t: LocalTensor, allowed: tuple[str, ...], basis: str = "") -> None:
    """UnsupportedError unless the tensor lives in one of the `allowed` *memories*. The TPosition tag is
    only reported: A1 and B1 are both L1, and the C++ API checks the physical memory (divergence P1)."""
    if t.memory.name not in allowed:
        raise UnsupportedError(
            f"{instr}: {what} must be in {' or '.join(allowed)}, but got TPosition {t.position} "
            f"({t.memory.name})", basis=basis)


def tensors(instr: str, optional: tuple[str, ...] = (), **operands: object) -> None:
    """ParamRangeError unless every operand is a LocalTensor (or a GlobalTensor bound with SetGlobalBuffer);
    the `optional` ones may also be None (left out)."""
    for name, t in operands.items():
        if isinstance(t, LocalTensor) and t.memory is not None or (t is None and name in optional):
            continue
        what = "an unbound GlobalTensor (call SetGlobalBuffer first)" if isinstance(t, LocalTensor) \
            else f"{type(t).__name__} {coerce.show(t)}"
        raise ParamRangeError(
            f"{instr}: {name} must be a LocalTensor or GlobalTensor, but got {what}",
            basis=cpp_rejects(f"{name} is a LocalTensor<T> / GlobalTensor<T> parameter"))


def struct(instr: str, name: str, value: object, accepted: Iterable[type]) -> None:
    """ParamRangeError unless `value` is one of the `accepted` structs (a C++ overload takes each)."""
    coerce.struct(instr, name, value, accepted,
                  cpp_rejects(f"no {instr} overload takes {type(value).__name__} as {name}"))


#: The memory a `LoadData<Dst, Src>` template argument names (bit-mode forms).
TEMPLATE_MEMORY = {"A2": "L0A", "B2": "L0B", "A1": "L1", "B1": "L1"}


def template_positions(instr: str, dst: LocalTensor, src: LocalTensor, dst_pos: str | None,
                       src_pos: str | None) -> tuple[str, str]:
    """`LoadData<Dst, Src>` bit-mode forms: both TPosition template arguments are required (the C++ call
    does not compile without them), Dst must be A2 or B2 and Src A1 or B1, and each must name the memory
    its tensor lives in (Dst selects which memory the hardware writes). Returns (Dst, Src), upper-case."""
    out = []
    for what, pos, t, allowed in (("Dst", dst_pos, dst, ("A2", "B2")), ("Src", src_pos, src, ("A1", "B1"))):
        if pos is None:
            raise ParamRangeError(f"{instr}: the {what} TPosition template argument is required "
                                  f"(one of {', '.join(allowed)})",
                                  basis=cpp_rejects("LoadData<Dst, Src, T> has no default for Dst/Src"))
        pos = str(pos).upper().removeprefix("TPOSITION::")
        if pos not in allowed:
            why = (cpp_rejects("ASCENDC_CHECK_TPOSITION: Dst must be A2 or B2") if what == "Dst"
                   else hw_cannot("the source of an L1->L0 load is L1, TPosition A1 or B1"))
            raise UnsupportedError(
                f"{instr}: {what} TPosition must be one of {', '.join(allowed)}, but got {pos}", basis=why)
        if memory_of(pos) != t.memory.name:
            raise UnsupportedError(
                f"{instr}: {what} TPosition {pos} does not match the tensor in {t.memory.name} "
                f"(TPosition {t.position})",
                basis=hw_cannot(f"the {what} argument selects the memory addressed, {memory_of(pos)}"))
        out.append(pos)
    return out[0], out[1]
