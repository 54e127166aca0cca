"""Small validators shared by every instruction; each raises with instruction, parameter, value, allowed."""

from __future__ import annotations

from .errors import AlignmentError, ParamRangeError, UnsupportedError
from .memory import LocalTensor, memory_of


def in_range(instr: str, name: str, value: object, lo: int, hi: int) -> int:
    not_int = ParamRangeError(f"{instr}: {name} must be an integer in [{lo}, {hi}], but got {value!r}")
    try:
        v = int(value)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        raise not_int from None
    if v != value and not isinstance(value, bool):
        raise not_int
    if not lo <= v <= hi:
        raise ParamRangeError(f"{instr}: {name} must be in [{lo}, {hi}], but got {v}")
    return v


def flag(instr: str, name: str, value: object) -> bool:
    if value not in (0, 1, True, False):
        raise ParamRangeError(f"{instr}: {name} must be a bool (true/false), but got {value!r}")
    return bool(value)


def multiple(instr: str, name: str, value: int, m: int, why: str = "") -> None:
    if value % m:
        raise ParamRangeError(f"{instr}: {name} must be a multiple of {m}{why}, but got {value}")


def aligned(instr: str, what: str, t: LocalTensor, align: int) -> None:
    if t.offset % align:
        raise AlignmentError(
            f"{instr}: {what} address must be {align}-byte aligned in {t.memory.name}, "
            f"but got 0x{t.offset:x} ({t.offset} B, {t.offset % align} past a boundary)"
        )


def position(instr: str, what: str, t: LocalTensor, allowed: tuple[str, ...]) -> None:
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
