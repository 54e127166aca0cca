"""The error hierarchy. Every message names the instruction, the parameter, its value and what is allowed,
and every refusal carries its basis — why ascsim refuses — as data (`AscsimError.basis`)."""

from __future__ import annotations

import difflib
import functools
import os
import sys
from collections.abc import Callable, Iterable
from typing import TypeVar


class Basis(str):
    """Why a call is refused (issue 7's convention), kept on the exception as data:

    kind "cpp": the C++ API itself rejects the call (`detail` names the asc-devkit check, static_assert,
        missing overload or parameter type);
    kind "hardware": the hardware cannot execute it (`detail`: why, e.g. "8-bit field");
    kind "doc": only a doc page forbids it and ascsim has no defined behaviour to execute (`detail`: the
        page and section; `row`: the docs/divergences.md row of ascsim's reading).

    The value is the text the message ends with in parentheses; being a `str`, a basis can also be
    written into a message directly."""
    kind: str
    detail: str
    row: str

    def __new__(cls, kind: str, detail: str = "", row: str = "") -> Basis:
        if kind == "cpp":
            text = f"the C++ API rejects this: {detail}"
        elif kind == "hardware":
            text = "the hardware cannot do this" + (f": {detail}" if detail else "")
        elif kind == "doc":
            text = f"the doc page forbids this: {detail}; ascsim reading: divergence {row}"
        else:
            raise ValueError(f"Basis kind must be cpp, hardware or doc, not {kind!r}")
        b = super().__new__(cls, text)
        b.kind, b.detail, b.row = kind, detail, row
        return b

    def __reduce__(self) -> tuple:
        return (Basis, (self.kind, self.detail, self.row))


class AscsimError(Exception):
    """Base of every error ascsim raises on bad input.

    `message` is the sentence (instruction, parameter, value, what is allowed); `basis` (a `Basis`, or
    None for errors that are not refusals of a rule) why ascsim refuses. `str(e)` is the message with the
    basis appended in parentheses."""
    def __init__(self, message: str = "", basis: Basis | None = None) -> None:
        self.message = message
        self.basis = basis or None  # "" (a validator called without one) is no basis
        super().__init__(f"{message} ({basis})" if basis else message)

    def relocated(self, prefix: str) -> AscsimError:
        """The same error (class and basis) with `prefix` put before its message, e.g. a source location."""
        return self._like(f"{prefix}{self.message}", self.basis)

    def with_basis(self, basis: Basis) -> AscsimError:
        """The same error with `basis` as its reason (a shared validator's refusal, given the caller's)."""
        return self._like(self.message, basis)

    def _like(self, message: str, basis: Basis | None) -> AscsimError:
        e = type(self).__new__(type(self))
        AscsimError.__init__(e, message, basis)
        return e


class ParamRangeError(AscsimError, ValueError):
    """A parameter is outside its documented range or not one of its allowed forms."""


class AlignmentError(AscsimError, ValueError):
    """An address or length breaks a documented alignment rule."""


class BoundsError(AscsimError, IndexError):
    """An access would leave the physical memory."""


class UnsupportedError(AscsimError, NotImplementedError):
    """The chip, dtype, TPosition or path is not supported by the documented hardware."""


class OverlapError(AscsimError, ValueError):
    """Destination regions that must not overlap do overlap."""


class HazardError(AscsimError):
    """A hazard (e.g. write past the destination LocalTensor) in strict mode."""


class DocConflictError(HazardError):
    """Strict mode: a call a doc page forbids but the C++ API implements (see `DocConflictWarning`)."""


class NotImplementedFeature(AscsimError, NotImplementedError):
    """A documented feature ascsim does not model yet; the message names it."""


class HazardWarning(UserWarning):
    """A hazard the hardware allows, e.g. a write past the destination LocalTensor inside the memory."""


class DocConflictWarning(HazardWarning):
    """A call a doc page forbids or omits but Huawei's shipped kernels make and the C++ API implements.

    ascsim executes it as the C++ API / hardware would; the message quotes the doc rule and names the
    docs/divergences.md row. `Core(strict=True)` raises `DocConflictError` instead.
    """


def did_you_mean(value: object, choices: Iterable[str]) -> str:
    """` (did you mean 'X'?)` naming the closest of `choices` to `value` (case-insensitive), or ""."""
    names = list(choices)
    low = {c.lower(): c for c in names}
    hit = difflib.get_close_matches(str(value).lower(), list(low), n=1, cutoff=0.6)
    return f" (did you mean {low[hit[0]]!r}?)" if hit else ""


def one_line(text: str) -> str:
    """`text` without line breaks (\\n, \\r, \\u2028 ...: a name in a message may hold any of them)."""
    return " ".join(text.splitlines())


# -- the basis of a refusal or warning (issue 7's message convention) ---------------------------------
#
# Every refusal ends with why ascsim refuses, in one of three forms, so a user can tell a call the real
# toolchain would also reject from one ascsim keeps only because a doc page forbids it:
#   "... but got 40 (the C++ API rejects this: CheckLoadData3dv2MatrixParams)"
#   "... but got 300 (the hardware cannot do this: 8-bit field)"
#   "... but got 2 (the doc page forbids this: LoadData_3D.md 表4; ascsim reading: divergence L3)"
# Build the parenthesised text with `cpp_rejects` / `hw_cannot` / `doc_forbids` and append it with
# `with_basis` (or pass it as `basis=` to the validators in `ascsim.machine.checks`).


def cpp_rejects(check: str) -> Basis:
    """Basis of a refusal the C++ API itself makes; `check` names the asc-devkit check (a Check*/ASCENDC_*
    function, a static_assert, a missing overload or a parameter type) with its header when useful."""
    return Basis("cpp", check)


def hw_cannot(why: str = "") -> Basis:
    """Basis of a refusal the hardware cannot execute (e.g. a value wider than its instruction field)."""
    return Basis("hardware", why)


def doc_forbids(rule: str, row: str) -> Basis:
    """Basis of a refusal ascsim keeps only because a doc page forbids the call (and ascsim has no defined
    behaviour to execute): `rule` cites the page and section, `row` the docs/divergences.md row."""
    return Basis("doc", rule, row)


def with_basis(msg: str, basis: Basis | str | None) -> str:
    """`msg` with its basis appended in parentheses (unchanged when `basis` is empty)."""
    return f"{msg} ({basis})" if basis else msg


#: Matches the end of a message that carries a basis (tests use it to audit every refusal).
BASIS_PATTERN = (r"\((the C\+\+ API rejects this: [^()]*(\([^()]*\)[^()]*)*|the hardware cannot do this[^()]*"
                 r"|the doc page forbids this: [^()]*; ascsim reading: divergence [A-Z]+\d+[a-z]?)\)$")


# -- tracebacks that end at the user's line ---------------------------------------------------------
#
# A refusal is the user's mistake, and its message says everything (parameter, value, range, basis), so
# the frames inside ascsim (core -> load3d -> boundary -> ...) are noise in a notebook. The public entry
# points (the generated Core methods, Core.run / tensor, the ascsim.ascendc spellings, the report's
# explain / draw) drop them: they catch an AscsimError, clear its traceback (`trim`) and re-raise it with a
# bare `raise`, which on CPython >= 3.11 adds no frame, so the traceback is the user's frames only. Errors
# that are not AscsimErrors (ascsim's own bugs) keep every frame.

#: `ASCSIM_TRACEBACK=full` keeps ascsim's frames in the traceback of a refusal (read when one is raised).
TRACEBACK_ENV = "ASCSIM_TRACEBACK"

#: A bare `raise` re-raises with the exception's own __traceback__ only from CPython 3.11 on; before, it
#: restores the traceback saved when the exception was caught, so 3.10 re-raises with one frame of ours.
BARE_RERAISE_TRIMS = sys.version_info >= (3, 11)


def full_tracebacks() -> bool:
    """Keep ascsim's frames in refusals' tracebacks (`ASCSIM_TRACEBACK=full`)?"""
    return os.environ.get(TRACEBACK_ENV, "").strip().lower() == "full"


def trim(err: BaseException) -> BaseException:
    """`err` without the frames below the public entry that caught it (unless `ASCSIM_TRACEBACK=full`);
    re-raise it with a bare `raise` (see `public_entry`)."""
    if not full_tracebacks():
        err.__traceback__ = None
    return err


_F = TypeVar("_F", bound=Callable)


def public_entry(fn: _F) -> _F:
    """A public function whose refusals (AscsimError) reach the caller with the caller's frames only."""
    if BARE_RERAISE_TRIMS:
        @functools.wraps(fn)
        def entry(*args, **kwargs):  # type: ignore[no-untyped-def]
            try:
                return fn(*args, **kwargs)
            except AscsimError as e:
                trim(e)
                raise  # bare: no frame of ours is added (3.11+)
    else:  # pragma: no cover - CPython 3.10
        @functools.wraps(fn)
        def entry(*args, **kwargs):  # type: ignore[no-untyped-def]
            try:
                return fn(*args, **kwargs)
            except AscsimError as e:
                raise trim(e)  # noqa: B904 - one frame of ours (this one) stays
    return entry  # type: ignore[return-value]
