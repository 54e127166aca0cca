"""Reporting what a call does that the hardware allows but the user should hear about: hazards (a
HazardWarning, or a HazardError when strict), calls a doc page forbids but the C++ API executes (a
DocConflictWarning / DocConflictError), and the basis appended to a shared validator's refusal."""

from __future__ import annotations

import sys
import warnings
from collections.abc import Callable
from typing import TypeVar

from .errors import (
    AscsimError,
    Basis,
    DocConflictError,
    DocConflictWarning,
    HazardError,
    HazardWarning,
)

_T = TypeVar("_T")


def report_hazards(hazards: list[str], strict: bool) -> None:
    """Raise the first hazard as HazardError when `strict`, else warn each one as a HazardWarning
    attributed to the first caller outside ascsim (the user's line, whichever family raised it)."""
    for h in hazards:
        if strict:
            raise HazardError(h)
        warnings.warn(h, HazardWarning, stacklevel=user_stacklevel())


def doc_conflict(instr: str, doc_rule: str, row: str, strict: bool) -> str:
    """Report a call the doc page forbids but the C++ API executes: a DocConflictWarning (or, strict, a
    DocConflictError) quoting `doc_rule` and naming divergence `row`. Returns the message, for the
    report's `hazards`."""
    msg = (f"{instr}: the doc page forbids this ({doc_rule}); executed as the C++ API does "
           f"(ascsim reading: docs/divergences.md {row})")
    if strict:
        raise DocConflictError(msg)
    warnings.warn(msg, DocConflictWarning, stacklevel=user_stacklevel())
    return msg


def basis_on(fn: Callable[[], _T], basis: Basis) -> _T:
    """Run a shared validator (checks.*, ChipProfile.check) and give its refusal this call's basis — "the C++
    API rejects this: ..." or "the doc page forbids this: ...; ascsim reading: divergence Xn" — keeping the
    message (issue 7's message rule). A refusal that carries a basis already (the validator knew it) keeps
    its own: the basis is data on the exception (`AscsimError.basis`), not text to search."""
    try:
        return fn()
    except AscsimError as e:
        if e.basis is not None:
            raise
        raise e.with_basis(basis) from None


def user_stacklevel() -> int:
    """`stacklevel` that makes a warning issued by the calling function point at the first frame outside
    the ascsim package."""
    frame, level = sys._getframe(1), 1
    while frame is not None and frame.f_globals.get("__name__", "").startswith("ascsim"):
        frame, level = frame.f_back, level + 1
    return level
