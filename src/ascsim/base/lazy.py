"""Names a package imports on first use (PEP 562), so start-up loads only what a command needs."""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from typing import Any


def lazy_getattr(package: str, where: Mapping[str, str], namespace: dict[str, Any]) -> Callable[[str], Any]:
    """A module `__getattr__` for `package`: public name -> the submodule (relative to `package`) that
    defines it; a name loaded once is stored in `namespace` (the package's globals), so later look-ups do
    not come back here."""

    def __getattr__(name: str) -> Any:  # noqa: N807 - the module hook's required name
        mod = where.get(name)
        if mod is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(f".{mod}", package), name)
        namespace[name] = value
        return value

    return __getattr__
