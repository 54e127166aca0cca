"""What the build does to a program's preprocessed text: rewrite its kernel launches, find its kernel
entries.

`kernel<<<blockDim, l2ctrl, stream>>>(args...)` is not C++. Wherever it appears — the program's files and
every header they include (catlass launches from its own headers) — `rewrite_launches` turns it into a
call of ascsim's launcher (ascsim/program/include/ascsim/launch.h):

    ::ascsim::rt::launch(::ascsim::rt::Launch("kernel", __builtin_FILE(), __builtin_LINE(), blockDim,
                         l2ctrl, stream), [&](auto&&... a) { kernel(a...); }, args...)

keeping the line count (removed newlines are re-emitted after it), so the compiler's line markers and
messages stay true. The callee may be a qualified template-id on the line before (`Catlass::KernelAdapter<
GemmKernel>`, `k<M, N, K>`); `>>>` also closes nested templates (`Stride<Int<1>>>`), so only a `>>>` at
bracket depth 0 after a `<<<` counts; `<<<` in string literals and `operator<<<T>` are not launches.

`kernel_entries` finds the `__global__` functions (ascsim's headers mark them with an annotate attribute)
with their parameter and template parameter names, for the driver of a kernel-only file.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..base.errors import AscsimError

#: The mark ascsim's keywords.h puts on every `__global__` function.
GLOBAL_MARK = '__attribute__((annotate("ascsim.global")))'
#: ... and every `__vector__` one (a vector-core kernel).
VECTOR_MARK = '__attribute__((annotate("ascsim.vector")))'

_IDENT = re.compile(r"[A-Za-z_]\w*")
_CLOSE = {")": "(", "]": "[", "}": "{"}


class SourceError(AscsimError):
    """A launch or kernel entry the build cannot read."""


def _line_start(text: str, i: int) -> int:
    return text.rfind("\n", 0, i) + 1


def _in_literal(text: str, i: int) -> bool:
    """Is position `i` inside a string / char literal or a directive line? (Preprocessed text: no
    comments; literals do not span lines, raw strings aside.)"""
    start = _line_start(text, i)
    line = text[start:i]
    if line.lstrip().startswith("#"):
        return True
    quote = ""
    k = 0
    while k < len(line):
        c = line[k]
        if quote:
            if c == "\\":
                k += 2
                continue
            if c == quote:
                quote = ""
        elif c in "\"'":
            quote = c
        k += 1
    return bool(quote)


def _skip_literal(text: str, k: int) -> int:
    """`text[k]` opens a literal: the index after it."""
    q = text[k]
    k += 1
    while k < len(text) and text[k] != q:
        k += 2 if text[k] == "\\" else 1
    return k + 1


def _callee_start(text: str, end: int) -> int:
    """Start of the id-expression ending just before `end` (whitespace, then `a::b<...>` backwards)."""
    k = end
    while k > 0 and text[k - 1].isspace():
        k -= 1
    stop = k
    while True:
        if k > 0 and text[k - 1] == ">":  # template arguments: back to the matching '<'
            depth = 0
            j = k - 1
            while j >= 0:
                c = text[j]
                if c == ">":
                    depth += 1
                elif c == "<":
                    depth -= 1
                    if depth == 0:
                        break
                elif c in ";{}":
                    raise SourceError("a <<<...>>> launch whose callee's template arguments do not close")
                j -= 1
            k = j
            while k > 0 and text[k - 1].isspace():
                k -= 1
        j = k
        while j > 0 and (text[j - 1].isalnum() or text[j - 1] == "_"):
            j -= 1
        if j == k:
            break
        k = j
        m = k
        while m > 0 and text[m - 1].isspace():
            m -= 1
        if m >= 2 and text[m - 2 : m] == "::":
            k = m - 2
            while k > 0 and text[k - 1].isspace():
                k -= 1
            continue
        break
    if k == stop:
        raise SourceError("a <<<...>>> launch with no function before it")
    return k


def _until(text: str, k: int, closers: str) -> int:
    """From `k`, the index of the first of `closers` at bracket depth 0 (skipping literals)."""
    stack: list[str] = []
    n = len(text)
    while k < n:
        c = text[k]
        if c in "\"'":
            k = _skip_literal(text, k)
            continue
        if not stack and text.startswith(closers, k):
            return k
        if c in "([{":
            stack.append(c)
        elif c in _CLOSE:
            if not stack or stack.pop() != _CLOSE[c]:
                raise SourceError("unbalanced brackets in a <<<...>>> launch")
        k += 1
    raise SourceError("a <<<...>>> launch that does not end")


@dataclass(frozen=True)
class LaunchSite:
    callee: str
    line: int  # 1-based line of the callee in the preprocessed text


def rewrite_launches(text: str) -> tuple[str, list[LaunchSite]]:
    """The text with every `<<<...>>>` launch rewritten, and the launches found."""
    out: list[str] = []
    sites: list[LaunchSite] = []
    pos = 0
    i = text.find("<<<")
    while i >= 0:
        if _in_literal(text, i) or text[max(0, i - 8) : i].rstrip().endswith("operator") or i < pos:
            i = text.find("<<<", i + 3)
            continue
        start = _callee_start(text, i)
        callee = " ".join(text[start:i].split())
        close = _until(text, i + 3, ">>>")
        cfg = text[i + 3 : close].strip()
        k = close + 3
        while k < len(text) and text[k].isspace():
            k += 1
        if k >= len(text) or text[k] != "(":
            raise SourceError(f"{callee}<<<{cfg}>>> is not followed by its arguments")
        end = _until(text, k + 1, ")")
        args = text[k + 1 : end].strip()
        span = text[start : end + 1]
        esc = callee.replace("\\", "\\\\").replace('"', '\\"')
        call = (f"::ascsim::rt::launch(::ascsim::rt::Launch(\"{esc}\", __builtin_FILE(), __builtin_LINE(), "
                f"{cfg}), [&](auto&&... ascsim_launch_args) {{ {callee}(ascsim_launch_args...); }}"
                + (f", {args})" if args else ")"))
        out.append(text[pos:start])
        out.append(call + "\n" * (span.count("\n") - call.count("\n")))
        sites.append(LaunchSite(callee, text.count("\n", 0, start) + 1))
        pos = end + 1
        i = text.find("<<<", pos)
    out.append(text[pos:])
    return "".join(out), sites


# -- kernel entries ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Param:
    name: str
    type: str
    default: bool = False


@dataclass(frozen=True)
class Entry:
    """A `__global__` function: its name, parameters and template parameters."""

    name: str
    params: tuple[Param, ...]
    template: tuple[Param, ...]
    line: int
    vector: bool = False  # declared __vector__: a vector-core kernel


def _split_top(s: str) -> list[str]:
    """`s` split at commas outside brackets and template angles."""
    parts, depth, cur = [], 0, []
    k = 0
    while k < len(s):
        c = s[k]
        if c in "\"'":
            j = _skip_literal(s, k)
            cur.append(s[k:j])
            k = j
            continue
        if c in "([{<":
            depth += 1
        elif c in ")]}>":
            depth -= 1
        if c == "," and depth == 0:
            parts.append("".join(cur))
            cur = []
        else:
            cur.append(c)
        k += 1
    if "".join(cur).strip():
        parts.append("".join(cur))
    return [p.strip() for p in parts if p.strip()]


def _param(text: str) -> Param:
    decl, eq, _ = text.partition("=")
    names = _IDENT.findall(decl)
    name = names[-1] if names else ""
    return Param(name, decl[: decl.rfind(name)].strip() if name else decl.strip(), bool(eq))


def kernel_entries(text: str) -> list[Entry]:
    """The `__global__` functions defined in preprocessed text."""
    found: dict[str, Entry] = {}
    i = text.find(GLOBAL_MARK)
    while i >= 0:
        k = i + len(GLOBAL_MARK)
        while True:  # past further attributes (__vector__'s mark)
            while k < len(text) and text[k].isspace():
                k += 1
            if not text.startswith("__attribute__", k):
                break
            k = _until(text, k + len("__attribute__") + 1, ")") + 1
        paren = text.find("(", k)
        if paren < 0:
            break
        names = _IDENT.findall(text[k:paren])
        name = names[-1] if names else ""
        close = _until(text, paren + 1, ")")
        after = text[close + 1 : close + 200].lstrip()
        if name and not after.startswith(";"):  # a definition, not a declaration
            params = tuple(_param(p) for p in _split_top(text[paren + 1 : close]) if p != "void")
            template: tuple[Param, ...] = ()
            head = text[max(0, i - 2000) : i].rstrip()
            m = re.search(r"template\s*<([^;{}]*)>\s*(?:extern\s*\"C\"\s*)?$", head)
            if m:
                template = tuple(_param(p) for p in _split_top(m.group(1)))
            start = max(text.rfind(";", 0, i), text.rfind("}", 0, i))
            vector = VECTOR_MARK in text[start + 1 : paren]
            found.setdefault(name, Entry(name, params, template, text.count("\n", 0, i) + 1, vector))
        i = text.find(GLOBAL_MARK, close)
    return list(found.values())
