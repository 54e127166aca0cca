"""Programs as written: an Ascend C program (host `main` and kernels, or a kernel-only file) compiled with
clang against ascsim's own headers and run as a child process whose cube calls execute in the engine
(docs/cpp.md).

Layers: `headers` (the header directory and what is generated from the instruction table) -> `source`
(launch rewriting, kernel entries) -> `build` (compiler, cache) -> `protocol` (the wire format) ->
`values` (bridge values -> engine values) -> `server` (the calls, the blocks, the checks) -> `run`
(the child process, faults, `load_program` / `load_kernel`).
"""

from __future__ import annotations

from ..base.lazy import lazy_getattr

_WHERE = {"BuildError": "build", "Input": "run", "Output": "run", "Program": "run", "ProgramFault": "run",
          "ProgramRun": "run", "load_kernel": "run", "load_program": "run", "parse_gm": "run"}

__all__ = sorted(_WHERE)

__getattr__ = lazy_getattr(__name__, _WHERE, globals())
