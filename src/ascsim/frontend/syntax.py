"""The parser adapter: tree-sitter with its C++ grammar, and small helpers over its nodes.

Why tree-sitter (docs/cpp_frontend.md "Parser"): it is a real C++ grammar in a ~2 MB wheel with no
system dependency, it parses a file whose headers are missing (libclang would need the CANN headers, or
reject every `AscendC::` name), and its error recovery confines a syntax error to the construct that
holds it, so host code the front-end skips (`main` with its `<<<...>>>` launch) does not stop the kernel.
What it cannot do is decide C++'s ambiguities (is `T(a, b)` a call or a declaration?) — the interpreter
resolves those with the names in scope, as a compiler's semantic pass would.
"""

from __future__ import annotations

from functools import cache

import tree_sitter_cpp
from tree_sitter import Language, Node, Parser

from .source import FrontendError, Loc, Source


@cache
def _parser() -> Parser:
    return Parser(Language(tree_sitter_cpp.language()))


def parse(src: Source) -> Node:
    """The translation unit of the preprocessed source."""
    return _parser().parse(src.text.encode("utf-8")).root_node


def text(node: Node) -> str:
    return node.text.decode("utf-8") if node.text is not None else ""


def named(node: Node) -> list[Node]:
    """Named children, comments dropped."""
    return [c for c in node.named_children if c.type != "comment"]


def field(node: Node, name: str) -> Node | None:
    return node.child_by_field_name(name)


def first_error(node: Node) -> Node | None:
    """The first ERROR or MISSING node inside `node` (None when it parsed cleanly)."""
    if not node.has_error:
        return None
    stack = [node]
    while stack:
        n = stack.pop(0)
        if n.type == "ERROR" or n.is_missing:
            return n
        stack[:0] = [c for c in n.children if c.has_error or c.is_missing]
    return None


class Where:
    """Turns nodes into user locations and located errors."""

    def __init__(self, src: Source) -> None:
        self.src = src

    def loc(self, node: Node) -> Loc:
        r, c = node.start_point
        return self.src.loc(r, c)

    def error(self, node: Node, msg: str) -> FrontendError:
        return FrontendError(f"{self.loc(node)}: {msg}")

    def unsupported(self, node: Node, what: str | None = None) -> FrontendError:
        what = what or describe(node)
        return self.error(node, f"{what} is not supported by ascsim's C++ front-end")

    def check_syntax(self, node: Node) -> None:
        """FrontendError at the first syntax error inside `node`."""
        bad = first_error(node)
        if bad is None:
            return
        if bad.is_missing:
            raise self.error(bad, f"syntax error: missing {bad.type!r}")
        snippet = text(bad).split("\n")[0][:40]
        raise self.error(bad, f"syntax error near {snippet!r}")


_DESCRIBE = {
    "switch_statement": "switch",
    "goto_statement": "goto",
    "labeled_statement": "a label",
    "try_statement": "try/catch",
    "throw_statement": "throw",
    "lambda_expression": "a lambda",
    "new_expression": "new",
    "delete_expression": "delete",
    "co_await_expression": "co_await",
    "string_literal": "a string literal",
    "char_literal": "a character literal",
    "for_range_loop": "a range-based for",
    "union_specifier": "a union",
    "enum_specifier": "an enum",
    "struct_specifier": "a struct definition",
    "namespace_definition": "a namespace",
    "alias_declaration": "a using alias",
    "type_definition": "a typedef",
    "using_declaration": "using",
    "static_assert_declaration": "static_assert",
    "fold_expression": "a fold expression",
    "pointer_expression": "a pointer operation",
    "field_expression": "a member access",
    "compound_literal_expression": "a compound literal",
    "gnu_asm_expression": "inline asm",
    "offsetof_expression": "offsetof",
    "alignof_expression": "alignof",
    "generic_expression": "_Generic",
    "co_return_statement": "co_return",
    "concatenated_string": "a string literal",
    "user_defined_literal": "a user-defined literal",
    "raw_string_literal": "a string literal",
    "seh_try_statement": "__try",
    "attributed_statement": "an attributed statement",
}


def describe(node: Node) -> str:
    """A short name for a construct, for `... is not supported` messages."""
    if node.type in _DESCRIBE:
        return _DESCRIBE[node.type]
    return f"{node.type.replace('_', ' ')} '{text(node).split(chr(10))[0][:40]}'"
