"""A kernel source file after preprocessing, and the one error type of the C++ front-end.

Preprocessing is pcpp's (a pure-Python C99 preprocessor: `#if/#ifdef/#elif/#define`, `defined()`,
function-like macros, `#error`), with three front-end rules:

- `#include` is never followed: the kernel subset is self-contained and the headers it names are the
  Ascend C API, which ascsim models itself (`kernel_operator.h`), or host code (`acl/acl.h`,
  `data_utils.h`) the front-end skips anyway.
- `__NPU_ARCH__` is defined from the chip profile as the bisheng build does with `--npu-arch=dav-NNNN`
  (2201 for A2/A3, 3510 for 950, ...); `-D NAME=VALUE` from the command line come after it.
- Ascend C's function and pointer qualifiers are erased before preprocessing, each by as many spaces as
  it has characters so columns keep their place (`__aicore__`, `__gm__`, `__cube__`, ...), except
  `__global__`, which becomes the C++ attribute `[[global]]` (also 10 characters) so the parser keeps
  the mark of the kernel entry.

Line numbers of the preprocessed text map back to the file through pcpp's `#line` markers; every message
the front-end gives is `file:line:col: ...` in the user's file.
"""

from __future__ import annotations

import io
import re
from dataclasses import dataclass, field
from pathlib import Path

from pcpp import Action, OutputDirective, Preprocessor

from ..base.errors import AscsimError

#: Qualifiers erased before parsing (they select address spaces / core types, which the front-end
#: infers: an entry's pointer parameters are GM, every function runs on the one simulated core).
ERASED = (
    "__aicore__",
    "__gm__",
    "__cube__",
    "__vector__",
    "__inline__",
    "__sync_alias__",
    "__ubuf__",
    "__cbuf__",
    "__ca__",
    "__cb__",
    "__cc__",
    "__fbuf__",
)
GLOBAL_MARK = "[[global]]"


class FrontendError(AscsimError):
    """A kernel source ascsim cannot run: `file:line:col: what` (one line)."""


@dataclass(frozen=True)
class Loc:
    """A place in the user's file (1-based line and column)."""

    path: str
    line: int
    col: int

    def __str__(self) -> str:
        return f"{self.path}:{self.line}:{self.col}"

    @property
    def short(self) -> str:
        """`file:line` (sync reports name lines, not columns)."""
        return f"{self.path}:{self.line}"


@dataclass
class Source:
    """Preprocessed text plus the map from its lines (0-based) back to the file's lines (1-based)."""

    path: str
    text: str
    lines: list[int] = field(default_factory=list)
    removed_includes: list[str] = field(default_factory=list)

    def loc(self, row: int, col: int) -> Loc:
        line = self.lines[row] if 0 <= row < len(self.lines) else row + 1
        return Loc(self.path, line, col + 1)

    def error(self, row: int, col: int, msg: str) -> FrontendError:
        return FrontendError(f"{self.loc(row, col)}: {msg}")


class _Pcpp(Preprocessor):
    def __init__(self, path: str) -> None:
        super().__init__()
        self.fname = path
        self.errors: list[str] = []
        self.includes: list[str] = []
        self.line_directive = "#line"
        self.compress = 0

    def on_file_open(self, is_system_include, includepath):  # noqa: ANN001 - pcpp hook
        self.includes.append(includepath)
        raise OSError("ascsim does not follow #include")

    def on_include_not_found(self, is_malformed, is_system_include, curdir, includepath):  # noqa: ANN001
        raise OutputDirective(Action.IgnoreAndRemove)

    def on_error(self, file, line, msg):  # noqa: ANN001 - pcpp hook
        self.errors.append(f"{self.fname}:{line}:1: {msg}")

    def on_directive_unknown(self, directive, toks, ifpassthru, precedingtoks):  # noqa: ANN001
        if directive.value in ("error", "warning"):
            text = "".join(t.value for t in toks).strip()
            self.errors.append(f"{self.fname}:{directive.lineno}:1: #{directive.value} {text}")
            raise OutputDirective(Action.IgnoreAndRemove)
        if directive.value == "pragma":
            raise OutputDirective(Action.IgnoreAndRemove)
        return super().on_directive_unknown(directive, toks, ifpassthru, precedingtoks)


_LINE = re.compile(r'^#line (\d+)(?: "(.*)")?\s*$')


def erase_qualifiers(text: str) -> str:
    """Blank out the Ascend C qualifiers (same width) and mark `__global__` as `[[global]]`."""
    text = re.sub(r"\b__global__\b", GLOBAL_MARK, text)
    return re.sub(r"\b(" + "|".join(ERASED) + r")\b", lambda m: " " * len(m.group(1)), text)


def preprocess(
    text: str, path: str | Path, defines: dict[str, str] | None = None, npu_arch: str | None = None
) -> Source:
    """Run the preprocessor over `text` (the contents of `path`)."""
    name = str(path)
    pp = _Pcpp(Path(name).name)
    if npu_arch and npu_arch.isdigit():
        pp.define(f"__NPU_ARCH__ {npu_arch}")
    for k, v in (defines or {}).items():
        if not re.fullmatch(r"[A-Za-z_]\w*", k):
            raise FrontendError(f"-D {k}={v}: {k!r} is not a macro name")
        pp.define(f"{k} {v}")
    pp.parse(erase_qualifiers(text), name)
    out = io.StringIO()
    pp.write(out)
    if pp.errors:
        raise FrontendError(pp.errors[0])
    src_lines: list[str] = []
    line_map: list[int] = []
    current = 1
    for ln in out.getvalue().split("\n"):
        m = _LINE.match(ln)
        if m:
            current = int(m.group(1))
            src_lines.append("")  # keep the row: tree-sitter positions index these rows
            line_map.append(current)
            continue
        src_lines.append(ln)
        line_map.append(current)
        current += 1
    return Source(Path(name).name, "\n".join(src_lines), line_map, pp.includes)
