"""The error hierarchy. Every message names the instruction, the parameter, its value and what is allowed."""

from __future__ import annotations


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


class HazardWarning(UserWarning):
    """A hazard the hardware allows, e.g. a write past the destination LocalTensor inside the memory."""
