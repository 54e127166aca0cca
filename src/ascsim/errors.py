"""The error hierarchy. Every message names the instruction, the parameter, its value and what is allowed."""

from __future__ import annotations

from collections.abc import Iterable


class AscsimError(Exception):
    """Base of every error ascsim raises on bad input."""


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
    import difflib

    names = list(choices)
    low = {c.lower(): c for c in names}
    hit = difflib.get_close_matches(str(value).lower(), list(low), n=1, cutoff=0.6)
    return f" (did you mean {low[hit[0]]!r}?)" if hit else ""
