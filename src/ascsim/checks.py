"""Small validators shared by every instruction; each raises with instruction, parameter, value, allowed."""

from __future__ import annotations

from .errors import AlignmentError, ParamRangeError, UnsupportedError
from .memory import LocalTensor, memory_of


def in_range(instr: str, name: str, value: object, lo: int, hi: int) -> int:
    """`value` as an int in [lo, hi]; ParamRangeError for a non-integral value or one out of range."""
    try:
        v = int(value)  # type: ignore[arg-type]
    except (TypeError, ValueError, OverflowError):  # OverflowError: int(float("inf"))
        v = None
    if v is None or (v != value and not isinstance(value, bool)):
        # built only on failure: in_range runs on every uncached instruction call
        raise ParamRangeError(f"{instr}: {name} must be an integer in [{lo}, {hi}], but got {value!r}")
    if not lo <= v <= hi:
        raise ParamRangeError(f"{instr}: {name} must be in [{lo}, {hi}], but got {v}")
    return v


def flag(instr: str, name: str, value: object) -> bool:
    """`value` as a bool; ParamRangeError unless it is 0, 1, True or False."""
    if value not in (0, 1, True, False):
        raise ParamRangeError(f"{instr}: {name} must be a bool (true/false), but got {value!r}")
    return bool(value)


def multiple(instr: str, name: str, value: int, m: int, why: str = "") -> None:
    """ParamRangeError unless `value` is a multiple of `m` (`why` is appended to the rule)."""
    if value % m:
        raise ParamRangeError(f"{instr}: {name} must be a multiple of {m}{why}, but got {value}")


def same_dtype(instr: str, dst: LocalTensor, src: LocalTensor) -> None:
    """UnsupportedError unless dst and src have the same element type (a copy does not convert)."""
    if dst.dtype != src.dtype:
        raise UnsupportedError(f"{instr}: dst and src must have the same dtype, but got "
                               f"{dst.dtype.name} and {src.dtype.name}")


def aligned(instr: str, what: str, t: LocalTensor, align: int) -> None:
    """AlignmentError unless the tensor's byte offset is a multiple of `align`."""
    if t.offset % align:
        raise AlignmentError(
            f"{instr}: {what} address must be {align}-byte aligned in {t.memory.name}, "
            f"but got 0x{t.offset:x} ({t.offset} B, {t.offset % align} past a boundary)"
        )


def position(instr: str, what: str, t: LocalTensor, allowed: tuple[str, ...]) -> None:
    """UnsupportedError unless the tensor lives in one of the `allowed` memories."""
    if t.memory.name not in allowed:
        raise UnsupportedError(
            f"{instr}: {what} must be in {' or '.join(allowed)}, but got TPosition {t.position} "
            f"({t.memory.name})"
        )


def template_positions(instr: str, dst: LocalTensor, src: LocalTensor, dst_pos: str | None,
                       src_pos: str | None) -> None:
    """`LoadData<Dst, Src>` bit-mode forms: both TPosition template arguments are required, must be
    A2/B2 and A1/B1, and must name the memories the tensors live in."""
    for what, pos, t, allowed in (("Dst", dst_pos, dst, ("A2", "B2")), ("Src", src_pos, src, ("A1", "B1"))):
        if pos is None:
            raise ParamRangeError(f"{instr}: the {what} TPosition template argument is required "
                                  f"(one of {', '.join(allowed)})")
        if pos not in allowed:
            raise UnsupportedError(f"{instr}: {what} TPosition must be one of {', '.join(allowed)}, "
                                   f"but got {pos}")
        if memory_of(pos) != t.memory.name:
            raise UnsupportedError(f"{instr}: {what} TPosition {pos} does not match the tensor in "
                                   f"{t.memory.name} (TPosition {t.position})")
