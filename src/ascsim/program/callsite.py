"""The argument text of a call as the user wrote it: what explain, draw, the explorer and emitted
scenarios call a compiled program's operands (`LoadData(a2Local, a1Local[off], params)` names its
destination `a2Local` and its source `a1Local[off]`).

C++ has no names at run time, but every bridged call carries its source file, line and column (the
`__builtin_FILE / LINE / COLUMN` of the header's default argument). `CallSites.arguments` reads that
file (its lines cached), finds the call by its name at or after the column, and splits its argument list
at top-level commas: parentheses, brackets, braces and template argument lists nest; strings, character
literals and comments are skipped; each argument's whitespace and comments collapse to single spaces.

Best effort by design: the column clang reports comes from the preprocessed text (whitespace collapsed,
macros expanded), so the name is searched from the column on and, failing that, accepted if it occurs
once on the line; a call written through a macro, generated code, an unreadable file or anything the
scanner does not recognise gives None, and the caller keeps the name it had (memory and address). A scan
reads at most `SCAN_LIMIT` characters from the call's name, a file at most `FILE_LIMIT` bytes.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from ..isa.table import TENSOR, Form

#: Characters a call's text may span from its name to its closing parenthesis.
SCAN_LIMIT = 4096

#: A source file larger than this is not read for names.
FILE_LIMIT = 8 << 20

_IDENT = re.compile(r"[A-Za-z_]\w*")


def operand_names(args: tuple[str, ...], form: Form, kwargs: Mapping[str, Any]) -> dict[str, str]:
    """The scenario step key -> argument text of a call's tensor arguments, by the form's C++ positional
    order (template arguments left out, an optional argument counted when the call gave it); {} when the
    texts do not fit that order (a different overload than the table knows, a macro's arguments)."""
    order = [n for n, opt in form.positional()
             if n not in form.template_args and (not opt or kwargs.get(n) is not None)]
    if len(args) > len(order):
        return {}
    names: dict[str, str] = {}
    for i, n in enumerate(order):
        a = form.op.arg(n)
        if a.kind != TENSOR:
            continue
        if i >= len(args):  # a trailing default may be left out, a tensor may not
            return {}
        names[a.step_key] = args[i]
    return names


def has_tensors(form: Form) -> bool:
    """Whether a form takes tensors (only those calls are read for names)."""
    return any(a.kind == TENSOR for a in form.op.args)


class _Unparsed(Exception):
    """The text is not a call the scanner recognises."""


class CallSites:
    """Reads the argument lists of calls from their source files (a cache per file and per site)."""

    def __init__(self, skip: tuple[str | Path, ...] = ()) -> None:
        self.skip = tuple(str(Path(p).resolve()) for p in skip)
        self._lines: dict[str, list[str] | None] = {}
        self._args: dict[tuple[str, int, int, str], tuple[str, ...] | None] = {}

    def arguments(self, path: str, line: int, column: int, name: str) -> tuple[str, ...] | None:
        """The argument texts of the call of `name` at `path`:`line`:`column` (1-based), or None."""
        key = (path, line, column, name)
        if key not in self._args:
            self._args[key] = self._scan(path, line, column, name)
        return self._args[key]

    def _file(self, path: str) -> list[str] | None:
        if path not in self._lines:
            self._lines[path] = _read_lines(path, self.skip)
        return self._lines[path]

    def _scan(self, path: str, line: int, column: int, name: str) -> tuple[str, ...] | None:
        lines = self._file(path)
        if lines is None or not 1 <= line <= len(lines) or not _IDENT.fullmatch(name):
            return None
        text = lines[line - 1]
        start = _find_name(text, name, max(column - 1, 0))
        if start is None:
            return None
        rest = text[start:]
        for more in lines[line:]:  # the call may span lines: enough of them for SCAN_LIMIT characters
            if len(rest) >= SCAN_LIMIT:
                break
            rest += "\n" + more
        try:
            return split_call(rest[:SCAN_LIMIT], name)
        except _Unparsed:
            return None


def _read_lines(path: str, skip: tuple[str, ...]) -> list[str] | None:
    try:
        p = Path(path).resolve()
        if any(str(p).startswith(s.rstrip("/") + "/") for s in skip):
            return None
        if not p.is_file() or p.stat().st_size > FILE_LIMIT:
            return None
        return p.read_text(encoding="utf-8", errors="replace").splitlines()
    except (OSError, ValueError):
        return None


def _find_name(text: str, name: str, column: int) -> int | None:
    """Where `name` starts as a whole word on the line: the first occurrence at or after `column`, else
    the only one on the line."""
    hits = [m.start() for m in re.finditer(rf"(?<![\w]){re.escape(name)}(?![\w])", text)]
    after = [h for h in hits if h >= column]
    if after:
        return after[0]
    return hits[0] if len(hits) == 1 else None


_CLOSE = {"(": ")", "[": "]", "{": "}"}


class _Scanner:
    """A cursor over C++ text that steps over comments, strings and character literals."""

    def __init__(self, text: str) -> None:
        self.text, self.i = text, 0

    def peek(self, k: int = 0) -> str:
        j = self.i + k
        return self.text[j] if j < len(self.text) else ""

    def skip_space(self) -> None:
        while True:
            c = self.peek()
            if c.isspace():
                self.i += 1
            elif not self.skip_comment():
                return

    def skip_comment(self) -> bool:
        """Step over a comment at the cursor (True if there was one)."""
        t, i = self.text, self.i
        if t.startswith("//", i):
            end = t.find("\n", i)
            self.i = len(t) if end < 0 else end
            return True
        if t.startswith("/*", i):
            end = t.find("*/", i + 2)
            if end < 0:
                raise _Unparsed
            self.i = end + 2
            return True
        return False

    def skip_literal(self) -> bool:
        """Step over a string or character literal at the cursor (True if there was one)."""
        t, i = self.text, self.i
        c = t[i]
        if c == "'" and i > 0 and (t[i - 1].isalnum() or t[i - 1] == "_") and not _char_prefix(t, i):
            return False  # a digit separator (1'000), not a character literal
        if c == '"' and i > 0 and t[i - 1] == "R":  # a raw string R"delim( ... )delim"
            open_ = t.find("(", i)
            if open_ < 0 or open_ - i > 17:
                raise _Unparsed
            end = t.find(")" + t[i + 1 : open_] + '"', open_)
            if end < 0:
                raise _Unparsed
            self.i = end + open_ - i + 1
            return True
        if c not in "\"'":
            return False
        j = i + 1
        while j < len(t) and t[j] != c:
            if t[j] == "\\":
                j += 1
            elif t[j] == "\n":
                raise _Unparsed
            j += 1
        if j >= len(t):
            raise _Unparsed
        self.i = j + 1
        return True


def _char_prefix(t: str, i: int) -> bool:
    """Whether the `'` at `i` follows an encoding prefix (u8'x', u'x', U'x', L'x') rather than a digit."""
    for p in ("u8", "u", "U", "L"):
        j = i - len(p)
        if j >= 0 and t[j:i] == p and (j == 0 or not (t[j - 1].isalnum() or t[j - 1] == "_")):
            return True
    return False


def split_call(text: str, name: str) -> tuple[str, ...]:
    """The top-level arguments of the call `text` starts with (`name`, optional template arguments,
    then the parenthesised list), each with its whitespace and comments collapsed. Raises _Unparsed."""
    s = _Scanner(text)
    if not text.startswith(name):
        raise _Unparsed
    s.i = len(name)
    s.skip_space()
    if s.peek() == "<":
        _skip_template(s)
        s.skip_space()
    if s.peek() != "(":
        raise _Unparsed
    s.i += 1
    args: list[str] = []
    part: list[str] = []
    stack: list[str] = []
    while True:
        if s.i >= len(text):
            raise _Unparsed  # the call runs past what a scan reads
        c = text[s.i]
        start = s.i
        if s.skip_comment():
            part.append(" ")
            continue
        if s.skip_literal():
            part.append(text[start : s.i])
            continue
        if c == "<" and _after_name(text, s.i) and _template_ahead(text, s.i):
            _skip_template(s)
            part.append(text[start : s.i])
            continue
        s.i += 1
        if c in _CLOSE:
            stack.append(_CLOSE[c])
        elif c in ")]}":
            if not stack:
                if c != ")":
                    raise _Unparsed
                args.append(_collapse("".join(part)))
                break
            if stack.pop() != c:
                raise _Unparsed
        elif c == "," and not stack:
            args.append(_collapse("".join(part)))
            part = []
            continue
        elif c == ";" and "}" not in stack:
            raise _Unparsed  # a statement's end outside braces: not a call we understand
        part.append(c)
    if args == [""]:
        return ()
    if any(not a for a in args):
        raise _Unparsed
    return tuple(args)


def _collapse(arg: str) -> str:
    return " ".join(arg.split())


def _after_name(text: str, i: int) -> bool:
    """A `<` right after an identifier (spaces allowed): possibly a template argument list."""
    j = i - 1
    while j >= 0 and text[j] in " \t":
        j -= 1
    return j >= 0 and (text[j].isalnum() or text[j] == "_")


def _template_ahead(text: str, i: int) -> bool:
    """Whether the `<` at `i` closes as a template argument list before anything a comparison would have
    after it (a `;`, an unbalanced closer, `&&` or `||`), and is not followed by an operand (`a < b, c > d`
    compares twice)."""
    s = _Scanner(text)
    s.i = i
    try:
        _skip_template(s)
        s.skip_space()
    except _Unparsed:
        return False
    nxt = s.peek()
    return not (nxt.isalnum() or nxt in "_\"'")


def _skip_template(s: _Scanner) -> None:
    """Step over a balanced `<...>` at the cursor (`>>` closes two)."""
    t = s.text
    depth = 0
    stack: list[str] = []
    while s.i < len(t):
        c = t[s.i]
        if s.skip_comment() or s.skip_literal():
            continue
        s.i += 1
        if c in _CLOSE:
            stack.append(_CLOSE[c])
        elif c in ")]}":
            if not stack or stack.pop() != c:
                raise _Unparsed
        elif stack:
            continue
        elif c == "<":
            depth += 1
        elif c == ">":
            depth -= 1
            if depth == 0:
                return
        elif c == ";" or (c in "&|" and s.peek() == c):
            raise _Unparsed
    raise _Unparsed
