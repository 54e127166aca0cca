"""Instruction families. `LoadData` picks its overload from the params struct type, like the C++ API.

Each family module registers its LoadData overloads with `@load_data_overload(ParamsType)`; importing
the modules below fills the registry.
"""

from __future__ import annotations

from collections.abc import Callable

from ..core import _OVERLOADS
from ..errors import UnsupportedError, cpp_rejects, with_basis


def load_data_overload(params_type: type) -> Callable[[Callable], Callable]:
    """Register `fn(core, dst, src, params, config, dst_pos, src_pos) -> ExecReport` for a struct type."""

    def deco(fn: Callable) -> Callable:
        _OVERLOADS[params_type] = fn
        return fn

    return deco


def dispatch_load_data(core, dst, src, params, config=None, *, dst_pos=None, src_pos=None):
    _load_families()
    fn = _OVERLOADS.get(type(params))
    if fn is None:
        known = ", ".join(sorted(t.__name__ for t in _OVERLOADS))
        got = f"the class {params.__name__} itself" if isinstance(params, type) else type(params).__name__
        raise UnsupportedError(with_basis(f"LoadData: no overload takes {got}; known: {known}",
                                          cpp_rejects("no LoadData overload for this params type")))
    return fn(core, dst, src, params, config, dst_pos, src_pos)


_LOADED = False


def _load_families() -> None:
    global _LOADED
    if _LOADED:
        return
    # Importing a family module registers its overloads.
    from . import load2d, load3d, mx  # noqa: F401
    _LOADED = True
