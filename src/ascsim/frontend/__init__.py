"""The C++ front-end: run an Ascend C kernel's cube path from its source (docs/cpp_frontend.md).

Layers: `source` (preprocessing, locations) -> `syntax` (tree-sitter) -> `program` (declarations) ->
`interp` (the subset of C++ a cube kernel uses) -> `api` (the one table binding C++ calls to
`ascsim.ascendc`) -> `kernel` (`load_kernel`, runs) -> `emit` (traced run -> scenario, scenario -> kernel).
"""

from __future__ import annotations

from ..base.lazy import lazy_getattr

# loaded on first use (PEP 562): `ascsim --help` builds its parser from `frontend.options` alone
_WHERE = {"FrontendError": "source", "Input": "kernel", "Kernel": "kernel", "KernelRun": "kernel",
          "Output": "kernel", "load_kernel": "kernel", "parse_gm": "kernel"}

__all__ = sorted(_WHERE)


__getattr__ = lazy_getattr(__name__, _WHERE, globals())
