"""The declarations of a translation unit: functions, classes (templates or not), global variables and
type aliases, collected once from the tree so the interpreter can look names up.

Host code stays in the table but is never executed unless the kernel calls it; `main` is kept only to
read the kernel launch (`kernel<M, N, K><<<blocks, 0, stream>>>(...)`) from it.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from tree_sitter import Node

from .source import GLOBAL_MARK
from .syntax import field as fld
from .syntax import named, text


@dataclass
class TemplateParam:
    name: str
    is_type: bool
    default: Node | None = None
    node: Node | None = None


@dataclass
class FuncDef:
    name: str
    node: Node  # function_definition (or the declaration of a method without a body)
    template: list[TemplateParam] | None = None
    owner: str | None = None  # class name for methods (and out-of-class definitions X::f)
    is_global: bool = False

    @property
    def params(self) -> list[Node]:
        decl = function_declarator(self.node)
        plist = fld(decl, "parameters") if decl is not None else None
        return [c for c in named(plist)] if plist is not None else []

    @property
    def body(self) -> Node | None:
        return fld(self.node, "body")

    @property
    def return_type(self) -> Node | None:
        return fld(self.node, "type")


@dataclass(frozen=True)
class Member:
    """One declared variable: its declaration (type, qualifiers), declarator and initialiser."""

    decl: Node
    declarator: Node
    init: Node | None

    @property
    def name(self) -> str:
        return declarator_name(self.declarator)


@dataclass
class ClassDef:
    name: str
    node: Node
    template: list[TemplateParam] | None = None
    fields: list[Member] = field(default_factory=list)
    statics: dict[str, Member] = field(default_factory=dict)
    methods: dict[str, list[FuncDef]] = field(default_factory=dict)


@dataclass
class Program:
    functions: dict[str, list[FuncDef]] = field(default_factory=dict)
    classes: dict[str, ClassDef] = field(default_factory=dict)
    globals: dict[str, Member] = field(default_factory=dict)
    aliases: dict[str, Node] = field(default_factory=dict)
    main: FuncDef | None = None

    @property
    def entries(self) -> list[FuncDef]:
        return [f for fs in self.functions.values() for f in fs if f.is_global]


def function_declarator(node: Node) -> Node | None:
    """The function_declarator under a definition's declarator (through pointer/reference wrappers)."""
    d = fld(node, "declarator")
    while d is not None and d.type != "function_declarator":
        d = fld(d, "declarator")
    return d


def declarator_name(d: Node) -> str:
    """The declared name under a declarator (x, *x, &x, x[2], f(...), X::f)."""
    while d is not None and d.type not in (
        "identifier",
        "field_identifier",
        "qualified_identifier",
        "destructor_name",
        "operator_name",
        "type_identifier",
    ):
        inner = fld(d, "declarator")
        if inner is None and d.type == "reference_declarator" and named(d):
            inner = named(d)[-1]
        if inner is None:
            break
        d = inner
    return text(d) if d is not None else ""


def template_params(node: Node) -> list[TemplateParam]:
    out = []
    plist = fld(node, "parameters")
    for p in named(plist) if plist is not None else []:
        if p.type in (
            "type_parameter_declaration",
            "optional_type_parameter_declaration",
            "variadic_type_parameter_declaration",
        ):
            name = next((text(c) for c in named(p) if c.type == "type_identifier"), "")
            out.append(TemplateParam(name, True, fld(p, "default_type"), p))
        else:  # parameter_declaration / optional_parameter_declaration: a non-type parameter
            d = fld(p, "declarator")
            out.append(
                TemplateParam(declarator_name(d) if d is not None else "", False, fld(p, "default_value"), p)
            )
    return out


def is_global(node: Node) -> bool:
    """Does a function definition carry the `__global__` mark (`[[global]]` after preprocessing)?"""
    return any(
        c.type == "attribute_declaration" and text(c).replace(" ", "") == GLOBAL_MARK for c in node.children
    )


def collect(root: Node) -> Program:
    prog = Program()
    _collect(prog, root, None)
    return prog


def _collect(prog: Program, node: Node, template: list[TemplateParam] | None) -> None:
    for c in named(node):
        t = c.type
        if t == "template_declaration":
            inner = [x for x in named(c) if x.type not in ("template_parameter_list",)]
            tp = template_params(c)
            for x in inner:
                _collect_one(prog, x, tp)
        elif t in ("linkage_specification",):
            body = fld(c, "body")
            if body is not None:
                if body.type == "declaration_list":
                    _collect(prog, body, None)
                else:
                    _collect_one(prog, body, None)
        elif t == "namespace_definition":
            body = fld(c, "body")
            if body is not None:
                _collect(prog, body, None)
        else:
            _collect_one(prog, c, template)


def _collect_one(prog: Program, c: Node, template: list[TemplateParam] | None) -> None:
    t = c.type
    if t == "function_definition":
        name = declarator_name(fld(c, "declarator"))
        owner = None
        if "::" in name:  # out-of-class member definition: Kernel::Process, Kernel<T>::Process
            owner, name = name.rsplit("::", 1)
            owner = owner.split("<")[0]
            template = None  # the template header is the class's; its arguments come from the object
        f = FuncDef(name, c, template, owner, is_global(c))
        if name == "main" and owner is None:
            prog.main = f
        elif owner is not None and owner in prog.classes:
            prog.classes[owner].methods.setdefault(name, []).append(f)
        else:
            prog.functions.setdefault(name, []).append(f)
    elif t in ("class_specifier", "struct_specifier"):
        _class(prog, c, template)
    elif t == "declaration":
        spec = fld(c, "type")
        if spec is not None and spec.type in ("class_specifier", "struct_specifier") and fld(spec, "body"):
            _class(prog, spec, template)
        for m in members(c):
            if m.declarator.type == "function_declarator":
                continue  # a function declaration: the definition is what runs
            if m.name:
                prog.globals[m.name] = m
    elif t in ("alias_declaration",):
        prog.aliases[text(fld(c, "name"))] = fld(c, "type")
    elif t == "type_definition":
        for d in c.children_by_field_name("declarator"):
            prog.aliases[declarator_name(d)] = fld(c, "type")


def _class(prog: Program, c: Node, template: list[TemplateParam] | None) -> None:
    name_node = fld(c, "name")
    body = fld(c, "body")
    if name_node is None or body is None:
        return
    cls = ClassDef(text(name_node), c, template)
    prog.classes[cls.name] = cls
    for m in named(body):
        tp = None
        if m.type == "template_declaration":
            tp = template_params(m)
            m = next((x for x in named(m) if x.type != "template_parameter_list"), None)
            if m is None:
                continue
        if m.type == "function_definition":
            name = declarator_name(fld(m, "declarator"))
            cls.methods.setdefault(name, []).append(FuncDef(name, m, tp, cls.name))
        elif m.type in ("field_declaration", "declaration"):
            decls = members(m)
            if any(d.declarator.type == "function_declarator" for d in decls):
                continue  # a method declared here and defined out of class
            static = any(text(s) == "static" for s in named(m) if s.type == "storage_class_specifier")
            for d in decls:
                if static:
                    cls.statics[d.name] = d
                else:
                    cls.fields.append(d)


def members(decl: Node) -> list[Member]:
    """The variables a declaration / field_declaration declares, each with its initialiser (an
    init_declarator's value, or a field's default_value after it)."""
    out: list[Member] = []
    for i, c in enumerate(decl.children):
        f = decl.field_name_for_child(i)
        if f == "declarator":
            if c.type == "init_declarator":
                out.append(Member(decl, fld(c, "declarator"), fld(c, "value")))
            else:
                out.append(Member(decl, c, None))
        elif f == "default_value" and out:
            out[-1] = Member(decl, out[-1].declarator, c)
    return out
