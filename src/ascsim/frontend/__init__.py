"""The C++ front-end: run an Ascend C kernel's cube path from its source (docs/cpp_frontend.md).

Layers: `source` (preprocessing, locations) -> `syntax` (tree-sitter) -> `program` (declarations) ->
`interp` (the subset of C++ a cube kernel uses) -> `api` (the one table binding C++ calls to
`ascsim.ascendc`) -> `kernel` (`load_kernel`, runs) -> `emit` (traced run -> scenario, scenario -> kernel).
"""

from .kernel import Input, Kernel, KernelRun, Output, load_kernel, parse_gm
from .source import FrontendError

__all__ = ["FrontendError", "Input", "Kernel", "KernelRun", "Output", "load_kernel", "parse_gm"]
