"""The interpreter of the cube-kernel subset of C++ (docs/cpp_frontend.md "The subset").

It walks the tree-sitter tree of the preprocessed file: statements in order, expressions with C++'s
arithmetic (`cvalues`), names resolved through scopes (block -> function -> object -> template arguments
-> globals), templates instantiated with their arguments (types, integers, bools, enumerators). Calls to
the Ascend C API go through `api.API` to the `ascsim.ascendc` facade; TPipe/TQue/TBuf and the sync calls go
to `runtime` and the sync checker. Every construct outside the subset stops with
`file:line:col: <construct> is not supported by ascsim's C++ front-end`.
"""

from __future__ import annotations

import struct
from collections.abc import Callable
from typing import Any

from tree_sitter import Node

from .. import params as P
from ..base.errors import AscsimError, NotImplementedFeature
from ..core import Core
from ..engine.sync import SyncChecker, SyncError
from ..machine.memory import LocalTensor
from . import api as A
from .calls import ApiCalls, dtype_type
from .cells import (
    UNINIT,
    AttrCell,
    Break,
    Continue,
    Func,
    Instance,
    Method,
    Return,
    ScalarPtr,
    Scope,
    TraceCall,
    Var,
    first_line,
    show,
)
from .cvalues import (
    AUTO,
    BOOL,
    INT32,
    UINT64,
    VOID,
    ArithError,
    ConvError,
    Num,
    TypeVal,
    binary,
    convert,
    literal,
    scalar_type,
    unary,
)
from .program import ClassDef, FuncDef, Member, Program, declarator_name, members
from .runtime import GmPtr, GmSpace, Pipe, Queue, RuntimeFault, Unset
from .source import FrontendError, Loc, Source
from .syntax import Where, describe, named, parse, text
from .syntax import field as fld

#: Statements a kernel may execute before ascsim calls it a runaway loop.
STEP_LIMIT = 5_000_000


class Interp(ApiCalls):
    """Runs one kernel entry on a Core."""
    def __init__(
        self, prog: Program, where: Where, core: Core, sync: SyncChecker, gm: GmSpace | None
    ) -> None:
        self.prog = prog
        self.w = where
        self.core = core
        self.sync = sync
        self.gm = gm
        self.globals = Scope()
        self.trace: list[TraceCall] = []
        self.warnings: list[str] = []
        self.steps = 0
        self._pipe: Pipe | None = None
        self._evaluating: set[str] = set()

    # ================================================================================== errors / places
    def err(self, node: Node, msg: str) -> FrontendError:
        return self.w.error(node, msg)

    def where(self, node: Node) -> Loc:
        return self.w.loc(node)

    def guard(self, node: Node, fn: Callable[[], Any]) -> Any:
        """Run `fn`, turning runtime faults into located errors at `node`."""
        try:
            return fn()
        except (FrontendError, SyncError, Return, Break, Continue):
            raise  # already located (sync findings name their lines themselves)
        except (RuntimeFault, ArithError, ConvError) as e:
            raise self.err(node, str(e)) from None
        except AscsimError as e:
            raise e.relocated(f"{self.where(node)}: ") from e
        except NotImplementedError as e:  # a feature the Core does not model yet
            raise NotImplementedFeature(f"{self.where(node)}: {e}") from e
        except Exception as e:  # noqa: BLE001 - an ascsim bug: still one located line, not a traceback
            raise FrontendError(
                f"{self.where(node)}: internal error in ascsim ({type(e).__name__}: {e}); "
                "please report it (--debug shows the traceback)"
            ) from e

    # ================================================================================== entry
    def run_entry(self, f: FuncDef, template: dict[str, Any], args: dict[str, Any]) -> None:
        bind = Scope(self.globals)
        for tp in f.template or []:
            if tp.name not in template:
                raise self.err(
                    f.node,
                    f"the kernel's template parameter '{tp.name}' has no value: give it with "
                    f"--template {tp.name}=VALUE (or launch the kernel from main with it)",
                )
            bind.names[tp.name] = Var(template[tp.name], None, True, tp.name)
        scope = Scope(bind)
        for p in f.params:
            name = declarator_name(fld(p, "declarator")) if fld(p, "declarator") is not None else ""
            scope.names[name] = Var(args.get(name), None, False, name)
        body = f.body
        if body is None:
            raise self.err(f.node, f"the kernel entry '{f.name}' has no body")
        self.w.check_syntax(body)
        try:
            self.exec_block(body, scope)
        except Return:
            pass
        except (Break, Continue):
            raise self.err(body, "break/continue outside a loop") from None

    # ================================================================================== names
    def lookup(self, name: str, scope: Scope, node: Node) -> Any:
        c = scope.lookup(name)
        if c is not None:
            return c
        if name in self.prog.globals:
            return self._global(name, node)
        if name in self.prog.functions:
            return Func(name, self.prog.functions[name])
        v = A.constant(name)
        if v is not None:
            return Var(v, None, True, name)
        raise self.err(node, f"'{name}' is not declared")

    def _global(self, name: str, node: Node) -> Var:
        cell = self.globals.names.get(name)
        if cell is not None:
            return cell
        if name in self._evaluating:
            raise self.err(node, f"'{name}' is used in its own initialiser")
        self._evaluating.add(name)
        try:
            m = self.prog.globals[name]
            self.w.check_syntax(m.decl)
            self.declare(m, self.globals, self.globals)
        finally:
            self._evaluating.discard(name)
        return self.globals.names[name]

    # ================================================================================== types
    def type_of(self, node: Node, scope: Scope) -> TypeVal:
        t = node.type
        if t in ("primitive_type", "sized_type_specifier"):
            name = " ".join(text(node).split())
            if name == "void":
                return VOID
            tv = scalar_type(name)
            if tv is None:
                raise self.err(node, f"type '{name}' is not supported by ascsim's C++ front-end")
            return tv
        if t == "placeholder_type_specifier":
            return AUTO
        if t == "type_descriptor":
            base = self.type_of(fld(node, "type"), scope)
            d = fld(node, "declarator")
            while d is not None:
                if d.type == "abstract_pointer_declarator":
                    base = TypeVal("ptr", base.name + "*", None, base.dtype, 8, (), base)
                elif d.type == "abstract_reference_declarator":
                    pass
                else:
                    raise self.w.unsupported(d, "this type")
                d = fld(d, "declarator")
            return base
        if t in ("type_identifier", "identifier"):
            return self._named_type(text(node), (), scope, node)
        if t == "qualified_identifier":
            inner = node
            while inner.type == "qualified_identifier":
                scope_node = fld(inner, "scope")
                if scope_node is not None and text(scope_node) not in A.NAMESPACES:
                    raise self.w.unsupported(node, f"type '{text(node)}'")
                inner = fld(inner, "name")
            if inner.type == "template_type":
                args = self.template_args(fld(inner, "arguments"), scope)
                return self._named_type(text(fld(inner, "name")), tuple(args), scope, node)
            if inner.type in ("type_identifier", "identifier"):
                return self._named_type(text(inner), (), scope, node)
            return self.type_of(inner, scope)
        if t == "template_type":
            name = text(fld(node, "name"))
            args = self.template_args(fld(node, "arguments"), scope)
            return self._named_type(name, tuple(args), scope, node)
        if t == "dependent_type":
            raise self.w.unsupported(node, "typename-dependent type")
        raise self.w.unsupported(node, f"type '{text(node)}'")

    def _named_type(self, name: str, args: tuple, scope: Scope, node: Node) -> TypeVal:
        if not args:
            c = scope.lookup(name)
            if c is not None and isinstance(getattr(c, "value", None), TypeVal):
                return c.value
            if name in self.prog.aliases:
                return self.type_of(self.prog.aliases[name], self.globals)
        if name == "GM_ADDR":
            return TypeVal("ptr", "GM_ADDR", None, None, 8, (), scalar_type("uint8_t"))
        if name in self.prog.classes:
            cls = self.prog.classes[name]
            n = len(cls.template or [])
            if n != len(args) and not (cls.template and len(args) < n):
                raise self.err(node, f"class {name} takes {n} template arguments, but got {len(args)}")
            return TypeVal("class", _tname(name, args), None, None, 0, args, cls)
        if name in A.API_TYPES:
            return TypeVal("api", _tname(name, args), None, None, 0, args, name)
        cls_ = A.struct_class(name)
        if cls_ is not None:
            return TypeVal("struct", _tname(name, args), None, None, 0, args, cls_)
        tv = scalar_type(name)
        if tv is not None and not args:
            return tv
        if name in A.PENDING_STRUCTS:
            raise NotImplementedFeature(
                f"{self.where(node)}: {name} is not modelled by ascsim yet (it arrives "
                "with the companion instructions; the front-end binds it already)"
            )
        if name in ("FixpipeConfig",):
            return TypeVal("struct", name, None, None, 0, (), P.FixpipeConfig)
        raise self.err(node, f"type '{name}' is not supported by ascsim's C++ front-end")

    def template_args(self, node: Node | None, scope: Scope) -> list[Any]:
        out: list[Any] = []
        for a in named(node) if node is not None else []:
            out.append(self.template_arg(a, scope))
        return out

    def template_arg(self, a: Node, scope: Scope) -> Any:
        """A template argument: a type, or a value (integer, bool, enumerator, config object)."""
        if a.type == "type_descriptor":
            inner = fld(a, "type")
            if fld(a, "declarator") is None and inner.type in ("type_identifier", "qualified_identifier"):
                value = self._maybe_value(inner, scope)
                if value is not None:
                    return value
            return self.type_of(a, scope)
        v = self.eval(a, scope)
        return v

    def _maybe_value(self, node: Node, scope: Scope) -> Any:
        """The value a type-looking name denotes, or None when it is a type (tree-sitter cannot tell)."""
        name = text(node)
        if node.type == "type_identifier":
            c = scope.lookup(name)
            if c is not None:
                v = c.get()
                return None if isinstance(v, TypeVal) else v
            if name in self.prog.globals:
                return self._global(name, node).get()
            return A.constant(name)
        qual = A.constant(name)
        if qual is not None:
            return qual
        return None

    # ================================================================================== statements
    def exec_block(self, node: Node, scope: Scope) -> None:
        inner = Scope(scope)
        for s in named(node):
            self.exec(s, inner)

    def exec(self, node: Node, scope: Scope) -> None:
        self.steps += 1
        if self.steps > STEP_LIMIT:
            raise self.err(node, f"the kernel ran more than {STEP_LIMIT:,} statements (a runaway loop?)")
        try:
            self._exec(node, scope)
        except (RuntimeFault, ArithError, ConvError) as e:  # not located by an inner guard: the statement
            raise self.err(node, str(e)) from None

    def _exec(self, node: Node, scope: Scope) -> None:
        t = node.type
        if t == "expression_statement":
            e = node.named_children
            if e:
                self.eval(e[0], scope)
        elif t == "declaration":
            spec = fld(node, "type")
            if spec is not None and spec.type in ("class_specifier", "struct_specifier", "enum_specifier"):
                raise self.w.unsupported(spec)
            for m in members(node):
                self.declare(m, scope, scope)
        elif t == "compound_statement":
            self.exec_block(node, scope)
        elif t == "if_statement":
            self._if(node, scope)
        elif t == "for_statement":
            self._for(node, scope)
        elif t == "while_statement":
            self._while(node, scope)
        elif t == "do_statement":
            self._do(node, scope)
        elif t == "return_statement":
            e = [c for c in named(node)]
            raise Return(self.eval(e[0], scope) if e else None)
        elif t == "break_statement":
            raise Break()
        elif t == "continue_statement":
            raise Continue()
        elif t in ("comment", "preproc_call", "empty_statement") or t == ";":
            return
        elif t == "ERROR":
            self.w.check_syntax(node)
        else:
            raise self.w.unsupported(
                node, describe(node) if t in _NAMED_UNSUPPORTED else f"statement '{first_line(node)}'"
            )

    def _cond(self, node: Node, scope: Scope) -> bool:
        if node.type == "condition_clause":
            parts = named(node)
            if len(parts) != 1 or fld(node, "value") is None:
                raise self.w.unsupported(node, "a declaration in a condition")
            node = fld(node, "value")
        v = self.eval(node, scope)
        return self.truth(v, node)

    def _if(self, node: Node, scope: Scope) -> None:
        if self._cond(fld(node, "condition"), scope):
            self.exec(fld(node, "consequence"), Scope(scope))
            return
        alt = fld(node, "alternative")
        if alt is not None:
            body = named(alt)[0] if alt.type == "else_clause" else alt
            self.exec(body, Scope(scope))

    def _loop_body(self, body: Node, scope: Scope) -> bool:
        """Run one iteration; False on break."""
        try:
            self.exec(body, Scope(scope))
        except Break:
            return False
        except Continue:
            pass
        return True

    def _for(self, node: Node, scope: Scope) -> None:
        inner = Scope(scope)
        init = fld(node, "initializer")
        if init is not None:
            self.exec(init, inner) if init.type == "declaration" else self.eval(init, inner)
        cond, upd, body = fld(node, "condition"), fld(node, "update"), fld(node, "body")
        while cond is None or self._cond(cond, inner):
            if not self._loop_body(body, inner):
                break
            if upd is not None:
                self.eval(upd, inner)
            self.steps += 1
            if self.steps > STEP_LIMIT:
                raise self.err(node, f"the kernel ran more than {STEP_LIMIT:,} statements (a runaway loop?)")

    def _while(self, node: Node, scope: Scope) -> None:
        while self._cond(fld(node, "condition"), scope):
            if not self._loop_body(fld(node, "body"), scope):
                break

    def _do(self, node: Node, scope: Scope) -> None:
        while True:
            if not self._loop_body(fld(node, "body"), scope):
                break
            if not self._cond(fld(node, "condition"), scope):
                break

    # ================================================================================== declarations
    def declare(self, m: Member, scope: Scope, eval_scope: Scope, target: dict | None = None) -> Var:
        """Declare variable `m` in `scope` (or into `target`, an object's fields), evaluating its initialiser
        in `eval_scope`."""
        decl = m.decl
        quals = [text(q) for q in named(decl) if q.type in ("type_qualifier", "storage_class_specifier")]
        const = "const" in quals or "constexpr" in quals
        typ = self.type_of(fld(decl, "type"), eval_scope)
        d = m.declarator
        name = declarator_name(d)
        init = m.init
        while d.type in ("pointer_declarator", "reference_declarator", "array_declarator"):
            if d.type == "reference_declarator":
                if init is None:
                    raise self.err(d, f"reference '{name}' needs an initialiser")
                cell = self.ref(init, eval_scope)
                (target if target is not None else scope.names)[name] = cell
                return cell
            if d.type == "array_declarator":
                return self._array(m, d, typ, const, scope, eval_scope, target)
            typ = TypeVal("ptr", typ.name + "*", None, typ.dtype, 8, (), typ)
            d = fld(d, "declarator")
        if d.type == "function_declarator":  # `T x(a, b)`: C++'s most vexing parse of a constructor call
            args = [self.eval_typeish(p, eval_scope) for p in named(fld(d, "parameters"))]
            value = self.construct(typ, args, decl)
        elif init is None:
            value = self.default(typ, decl)
        elif init.type == "argument_list":
            value = self.construct(typ, [self.eval(a, eval_scope) for a in named(init)], decl)
        elif init.type == "initializer_list":
            vals = [self.eval(a, eval_scope) for a in named(init)]
            value = self.construct(typ, vals, decl, braced=True)
        else:
            value = self.eval(init, eval_scope)
        if typ is AUTO:
            value = A.snapshot(value) if not isinstance(value, (Instance, Queue, Pipe)) else value
            typ = None
        else:
            value = self.guard(init or decl, lambda: self.coerce(value, typ))
        var = Var(value, typ, const, name)
        (target if target is not None else scope.names)[name] = var
        return var

    def _array(
        self,
        m: Member,
        d: Node,
        typ: TypeVal,
        const: bool,
        scope: Scope,
        eval_scope: Scope,
        target: dict | None,
    ) -> Var:
        name = declarator_name(d)
        size_node = fld(d, "size")
        vals = [self.eval(a, eval_scope) for a in named(m.init)] if m.init is not None else []
        n = int(self.eval(size_node, eval_scope)) if size_node is not None else len(vals)
        if len(vals) > n:
            raise self.err(m.init, f"{len(vals)} initialisers for the {n} elements of '{name}'")
        cells = []
        for i in range(n):
            v = (
                self.coerce(vals[i], typ)
                if i < len(vals)
                else (self.default(typ, d) if m.init is not None else UNINIT)
            )
            cells.append(Var(v, typ, const, f"{name}[{i}]"))
        var = Var(A.ArrayVal(cells), None, True, name)
        (target if target is not None else scope.names)[name] = var
        return var

    def default(self, typ: TypeVal, node: Node) -> Any:
        """A default-initialised value: scalars stay indeterminate until assigned (C++); objects are
        constructed."""
        if typ.kind in ("scalar", "ptr"):
            return UNINIT
        return self.construct(typ, [], node)

    def construct(self, typ: TypeVal, args: list, node: Node, braced: bool = False) -> Any:
        """`T x(args)` / `T x{args}` / `T x;`."""
        k = typ.kind
        if k == "scalar":
            if len(args) > 1:
                raise self.err(node, f"{typ.name} is initialised with one value, but got {len(args)}")
            return self.guard(node, lambda: self.coerce(args[0], typ)) if args else Num(0, typ.ctype)
        if k == "struct":
            if typ.ref is P.FixpipeConfig:
                return self.guard(node, lambda: P.FixpipeConfig(*[A.plain(a) for a in args]))
            return self.guard(node, lambda: A.build_struct(typ.ref, args, typ))
        if k == "class":
            if braced and args:
                raise self.w.unsupported(node, f"brace-initialising an object of {typ.name}")
            return self.new_instance(typ, args, node)
        if k == "api":
            return self.guard(node, lambda: self._api_object(typ, args, node))
        if k == "auto":
            raise self.err(node, "auto needs an initialiser")
        if k == "ptr":
            if len(args) == 1:
                return args[0]
            return UNINIT
        raise self.w.unsupported(node, f"a variable of type {typ.name}")

    def new_instance(self, typ: TypeVal, args: list, node: Node) -> Instance:
        cls: ClassDef = typ.ref
        base = next((c for c in cls.node.children if c.type == "base_class_clause"), None)
        if base is not None:
            raise self.w.unsupported(node, f"class inheritance ({cls.name} {text(base)})")
        bind = Scope(self.globals)
        tps = cls.template or []
        targs = list(typ.args)
        for i, tp in enumerate(tps):
            if i < len(targs):
                v = targs[i]
            elif tp.default is not None:
                v = self.template_arg(tp.default, bind) if tp.is_type else self.eval(tp.default, bind)
            else:
                raise self.err(node, f"{cls.name}: template parameter '{tp.name}' has no argument")
            if not tp.is_type:
                v = self._nontype(tp, v, bind, node)
            bind.names[tp.name] = Var(v, None, True, tp.name)
        inst = Instance(cls, bind, typ.name)
        fscope = _InstScope(self, inst, bind)
        for m in cls.fields:
            self.w.check_syntax(m.decl)
            self.declare(m, fscope, fscope, inst.fields)
        ctors = [f for f in cls.methods.get(cls.name, []) if f.body is not None]
        if ctors or args:
            f = self._overload(ctors, len(args), cls.name, node)
            self._ctor_inits(f, inst, fscope)
            self.call(f, args, node, inst, bind)
        return inst

    def _nontype(self, tp: Any, v: Any, scope: Scope, node: Node) -> Any:
        """A non-type template argument converted to its parameter's type."""
        ptype = fld(tp.node, "type") if tp.node is not None else None
        if ptype is None or not isinstance(v, Num):
            return v
        t = self.type_of(ptype, scope)
        return self.guard(node, lambda: self.coerce(v, t)) if t.kind == "scalar" else v

    def _ctor_inits(self, f: FuncDef, inst: Instance, scope: Scope) -> None:
        for c in f.node.children:
            if c.type != "field_initializer_list":
                continue
            for fi in named(c):
                parts = named(fi)
                name = text(parts[0])
                vals = [self.eval(a, scope) for a in named(parts[1])] if len(parts) > 1 else []
                var = inst.fields.get(name)
                if var is None:
                    raise self.err(fi, f"{inst.cls.name} has no member '{name}'")
                var.set(
                    self.coerce(vals[0], var.type)
                    if len(vals) == 1 and var.type is not None
                    else self.construct(var.type, vals, fi)
                )

    # ================================================================================== conversions
    def coerce(self, v: Any, typ: TypeVal | None) -> Any:
        """`v` converted to a variable of type `typ` (C++ copy-initialisation)."""
        if typ is None or v is UNINIT:
            return v
        k = typ.kind
        if k == "scalar":
            if isinstance(v, A.EnumVal) and v.enum != "TPosition":
                raise RuntimeFault(f"cannot convert {v} to {typ.name}")
            if isinstance(v, A.Braced):
                if len(v.values) > 1:
                    raise RuntimeFault(f"{typ.name} takes one value, but got {len(v.values)}")
                v = v.values[0] if v.values else Num(0, typ.ctype)
            if isinstance(v, Num):
                return Num(convert(v.v, typ.ctype), typ.ctype)
            if isinstance(v, (int, float)) and not isinstance(v, bool):  # IntEnum / python scalars
                return Num(convert(v, typ.ctype), typ.ctype)
            raise RuntimeFault(f"cannot convert {show(v)} to {typ.name}")
        if k == "struct":
            if isinstance(v, A.Braced):
                return A.build_struct(typ.ref, v.values, typ)
            if typ.ref is P.FixpipeConfig and isinstance(v, P.FixpipeConfig):
                return v
            if not isinstance(v, typ.ref):
                raise RuntimeFault(f"cannot convert {show(v)} to {typ.name}")
            return A.snapshot(v)
        if k == "api":
            if typ.ref in ("LocalTensor", "GlobalTensor"):
                if not isinstance(v, (LocalTensor, Unset)):
                    raise RuntimeFault(f"cannot convert {show(v)} to {typ.name}")
                want = typ.args[0].dtype if typ.args and isinstance(typ.args[0], TypeVal) else None
                if want is not None and v.dtype != want:
                    raise RuntimeFault(
                        f"cannot convert a tensor of {v.dtype.name} to {typ.name} (use ReinterpretCast)"
                    )
            return v
        if k == "ptr":
            if isinstance(v, (GmPtr, ScalarPtr)) or v is None:
                return v
            if isinstance(v, Num) and v.v == 0:
                return None
            raise RuntimeFault(f"cannot convert {show(v)} to {typ.name}")
        if k == "class":
            if not isinstance(v, Instance):
                raise RuntimeFault(f"cannot convert {show(v)} to {typ.name}")
            return v
        return v

    # ================================================================================== expressions
    def eval(self, node: Node, scope: Scope) -> Any:
        t = node.type
        fn = _EVAL.get(t)
        if fn is None:
            raise self.w.unsupported(node, describe(node) if t in _NAMED_UNSUPPORTED else None)
        return fn(self, node, scope)

    def eval_typeish(self, node: Node, scope: Scope) -> Any:
        """A constructor argument tree-sitter parsed as a parameter declaration (`T x(A1, n * SIZE)`: C++'s
        most vexing parse): the argument's text is parsed again as an expression and evaluated."""
        if node.type == "parameter_declaration" and fld(node, "declarator") is None:
            inner = fld(node, "type")
            if inner.type == "type_identifier":
                return self.lookup(text(inner), scope, inner).get()
            if inner.type == "qualified_identifier":
                return self._qualified(inner, scope)
        expr = _reparse(text(node))
        if expr is None:
            raise self.w.unsupported(node, f"constructor argument '{first_line(node)}'")
        try:
            return self.eval(expr, scope)
        except FrontendError as e:
            msg = str(e).split(": ", 1)[-1]
            raise self.err(node, msg) from None

    def ref(self, node: Node, scope: Scope) -> Any:
        """The cell an lvalue expression names."""
        t = node.type
        if t == "identifier":
            return self.lookup(text(node), scope, node)
        if t == "parenthesized_expression":
            return self.ref(named(node)[0], scope)
        if t == "field_expression":
            return self._member_ref(node, scope)
        if t == "subscript_expression":
            base = self.eval(fld(node, "argument"), scope)
            if isinstance(base, A.ArrayVal):
                i = self._index(node, scope)
                if not 0 <= i < len(base.cells):
                    raise self.err(node, f"index {i} is outside the array (size {len(base.cells)})")
                return base.cells[i]
            raise self.err(node, "only array elements are assignable by index (use SetValue for tensors)")
        if t == "pointer_expression" and text(fld(node, "operator")) == "*":
            return _Deref(self.eval(fld(node, "argument"), scope))
        if t == "qualified_identifier":
            return Var(self._qualified(node, scope), None, True)
        raise self.err(node, f"'{first_line(node)}' is not assignable")

    def _member_ref(self, node: Node, scope: Scope) -> Any:
        arg, fname = fld(node, "argument"), text(fld(node, "field"))
        obj = self.eval(arg, scope) if arg.type != "this" else self._this(scope, node)
        if isinstance(obj, Instance):
            v = obj.fields.get(fname)
            if v is None:
                st = self._static(obj, fname, node)
                if st is not None:
                    return st
                raise self.err(node, f"{obj.cls.name} has no member '{fname}'")
            return v
        if A.struct_fields(type(obj)) or hasattr(obj, "config0"):
            if not hasattr(obj, fname):
                names = ", ".join(A.struct_fields(type(obj))) or "its Set/Get methods"
                raise self.err(
                    fld(node, "field"), f"{type(obj).__name__} has no field '{fname}' (fields: {names})"
                )
            return AttrCell(obj, fname)
        raise self.err(node, f"'{first_line(node)}': {show(obj)} has no member '{fname}'")

    def _this(self, scope: Scope, node: Node) -> Instance:
        c = scope.lookup("this")
        if c is None:
            raise self.err(node, "'this' outside a member function")
        return c.get()

    def _static(self, inst: Instance, name: str, node: Node) -> Var | None:
        m = inst.cls.statics.get(name)
        if m is None:
            return None
        key = f"{inst.name}::{name}"
        v = self.globals.names.get(key)
        if v is None:
            tmp: dict = {}
            v = self.declare(m, Scope(inst.bind), _InstScope(self, inst, inst.bind), tmp)
            self.globals.names[key] = v
        return v

    def _index(self, node: Node, scope: Scope) -> int:
        idx = named(fld(node, "indices"))
        if len(idx) != 1:
            raise self.w.unsupported(node, "a multi-index subscript")
        v = self.eval(idx[0], scope)
        if not isinstance(v, Num) or not v.t.is_int:
            raise self.err(idx[0], f"an index must be an integer, but got {show(v)}")
        return int(v.v)

    # ---------------------------------------------------------------------------------- leaf nodes
    def _e_number(self, node: Node, scope: Scope) -> Num:
        try:
            return literal(text(node))
        except ValueError:
            raise self.err(node, f"number '{text(node)}' is not a C++ literal ascsim reads") from None

    def _e_bool(self, node: Node, scope: Scope) -> Num:
        return Num(node.type == "true", BOOL)

    def _e_identifier(self, node: Node, scope: Scope) -> Any:
        c = self.lookup(text(node), scope, node)
        return self.guard(node, c.get) if hasattr(c, "get") else c

    def _e_qualified(self, node: Node, scope: Scope) -> Any:
        return self._qualified(node, scope)

    def _qualified(self, node: Node, scope: Scope) -> Any:
        full = text(node).replace(" ", "")
        v = A.constant(full)
        if v is not None:
            return v
        name = fld(node, "name")
        sc = fld(node, "scope")
        # IsSameType<A, B>::value / std::is_same<A, B>::value
        if name is not None and text(name) == "value" and sc is not None and sc.type == "template_type":
            tname = text(fld(sc, "name"))
            if tname in ("IsSameType", "is_same"):
                a, b = self.template_args(fld(sc, "arguments"), scope)
                if not (isinstance(a, TypeVal) and isinstance(b, TypeVal)):
                    raise self.err(sc, f"{tname} compares types, but got {show(a)} and {show(b)}")
                return Num(a.same(b), BOOL)
        if sc is not None and text(sc) in A.NAMESPACES:
            return (
                self.eval(name, scope)
                if name.type != "qualified_identifier"
                else self._qualified(name, scope)
            )
        if sc is not None and sc.type == "namespace_identifier" and text(sc) in self.prog.classes:
            raise self.w.unsupported(node, f"'{full}' (a class-qualified name)")
        raise self.err(
            node,
            f"'{full}' is not declared (ascsim knows the AscendC enums TPosition, HardEvent, "
            "pipe_t, QuantMode_t, CO2Layout, FmatrixMode)",
        )

    def _e_this(self, node: Node, scope: Scope) -> Instance:
        return self._this(scope, node)

    def _e_paren(self, node: Node, scope: Scope) -> Any:
        inner = named(node)
        if len(inner) != 1:
            raise self.w.unsupported(node)
        return self.eval(inner[0], scope)

    def _e_nullptr(self, node: Node, scope: Scope) -> None:
        return None

    def _e_string(self, node: Node, scope: Scope) -> str:
        return text(node)

    def _e_init_list(self, node: Node, scope: Scope) -> A.Braced:
        return A.Braced([self.eval(a, scope) for a in named(node)])

    # ---------------------------------------------------------------------------------- operators
    def _e_binary(self, node: Node, scope: Scope) -> Any:
        op = text(fld(node, "operator"))
        left = fld(node, "left")
        if op in ("&&", "||"):
            lv = self.truth(self.eval(left, scope), left)
            if (op == "&&" and not lv) or (op == "||" and lv):
                return Num(lv, BOOL)
            right = fld(node, "right")
            return Num(self.truth(self.eval(right, scope), right), BOOL)
        typ = self._paren_type(left, scope) if op in ("-", "+", "*", "&") else None
        if (
            typ is not None
        ):  # `(half)-1`: a C cast of a unary expression, which tree-sitter reads as `(x) - 1`
            right = fld(node, "right")
            v = self.eval(right, scope)
            v = self.guard(node, lambda: unary(op, self._num(v, right))) if op in "-+" else None
            if v is None:
                raise self.w.unsupported(node, f"cast of a '{op}' expression")
            return self.cast(typ, v, node, "C cast")
        a, b = self.eval(left, scope), self.eval(fld(node, "right"), scope)
        if isinstance(a, A.EnumVal) and isinstance(b, A.EnumVal) and op in ("==", "!="):
            return Num((a == b) == (op == "=="), BOOL)
        if isinstance(a, GmPtr) and isinstance(b, Num) and op in ("+", "-"):
            size = a.dtype.bits // 8 if a.dtype is not None else 1
            return GmPtr(a.space, a.addr + int(b.v) * size * (1 if op == "+" else -1), a.dtype, a.param)
        a, b = self._num(a, left), self._num(b, fld(node, "right"))
        try:
            return binary(op, a, b)
        except (ArithError, ConvError) as e:
            raise self.err(node, str(e)) from None

    def _paren_type(self, node: Node, scope: Scope) -> TypeVal | None:
        """The type `(T)` names when a parenthesised lone identifier is a type, else None."""
        if node.type != "parenthesized_expression":
            return None
        inner = named(node)
        if len(inner) != 1 or inner[0].type != "identifier":
            return None
        name = text(inner[0])
        c = scope.lookup(name)
        if c is not None:
            v = getattr(c, "value", None)
            return v if isinstance(v, TypeVal) else None
        if name in self.prog.aliases:
            return self._named_type(name, (), scope, inner[0])
        return scalar_type(name) if name not in self.prog.globals else None

    def truth(self, v: Any, node: Node) -> bool:
        """A condition's value (C++ contextual conversion to bool)."""
        if isinstance(v, Num):
            return bool(v.v)
        if v is None:
            return False
        raise self.err(node, f"'{first_line(node)}' is {show(v)}, not a condition")

    def _num(self, v: Any, node: Node) -> Num:
        if isinstance(v, Num):
            return v
        if isinstance(v, int) and not isinstance(v, bool):  # IntEnum constants (QuantMode_t)
            return Num(int(v), INT32)
        if isinstance(v, A.EnumVal) and v.enum == "TPosition":
            raise self.err(node, f"{v} is not a number")
        raise self.err(node, f"'{first_line(node)}' is {show(v)}, not a number")

    def _e_unary(self, node: Node, scope: Scope) -> Num:
        op = text(fld(node, "operator"))
        arg = fld(node, "argument")
        v = self.eval(arg, scope)
        if op == "!":
            return Num(not self.truth(v, arg), BOOL)
        try:
            return unary(op, self._num(v, arg))
        except ArithError as e:
            raise self.err(node, str(e)) from None

    def _e_update(self, node: Node, scope: Scope) -> Num:
        op = text(fld(node, "operator"))
        arg = fld(node, "argument")
        cell = self.ref(arg, scope)
        old = self._num(cell.get(), arg)
        new = binary("+" if op == "++" else "-", old, Num(1, INT32))
        self._assign(cell, new, node)
        prefix = node.children[0].type in ("++", "--")
        return cell.get() if prefix else old

    def _e_assign(self, node: Node, scope: Scope) -> Any:
        op = text(fld(node, "operator"))
        left, right = fld(node, "left"), fld(node, "right")
        cell = self.ref(left, scope)
        value = self.eval(right, scope)
        if op != "=":
            cur = self._num(cell.get(), left)
            try:
                value = binary(op[:-1], cur, self._num(value, right))
            except (ArithError, ConvError) as e:
                raise self.err(node, str(e)) from None
        self._assign(cell, value, node)
        return cell.get()

    def _assign(self, cell: Any, value: Any, node: Node) -> None:
        if getattr(cell, "const", False):
            raise self.err(node, f"'{getattr(cell, 'name', '')}' is const")
        typ = getattr(cell, "type", None)
        if isinstance(value, A.Braced) and typ is not None and typ.kind == "class":
            raise self.w.unsupported(node, "assigning a brace initialiser to an object")
        self.guard(
            node,
            lambda: cell.set(
                self.coerce(value, typ)
                if typ is not None
                else A.snapshot(value)
                if not isinstance(value, (Instance, Queue, Pipe))
                else value
            ),
        )

    def _e_conditional(self, node: Node, scope: Scope) -> Any:
        c = fld(node, "condition")
        if self.truth(self.eval(c, scope), c):
            return self.eval(fld(node, "consequence"), scope)
        return self.eval(fld(node, "alternative"), scope)

    def _e_comma(self, node: Node, scope: Scope) -> Any:
        self.eval(fld(node, "left"), scope)
        return self.eval(fld(node, "right"), scope)

    def _e_cast(self, node: Node, scope: Scope) -> Any:
        typ = self.type_of(fld(node, "type"), scope)
        return self.cast(typ, self.eval(fld(node, "value"), scope), node, "C cast")

    def cast(self, typ: TypeVal, v: Any, node: Node, how: str) -> Any:
        if typ.kind == "scalar":
            if isinstance(v, (Num, int, float)) and not isinstance(v, bool) or isinstance(v, Num):
                return self.guard(node, lambda: self.coerce(v if isinstance(v, Num) else Num(v, INT32), typ))
            if isinstance(v, GmPtr) and typ.ctype is not None and typ.ctype.bits == 64:
                return Num(v.addr, UINT64)
            raise self.err(
                node, f"{how} of {show(v)} to {typ.name} is not supported by ascsim's C++ front-end"
            )
        if typ.kind == "ptr":
            inner = typ.ref
            if isinstance(v, GmPtr):
                return GmPtr(v.space, v.addr, inner.dtype if inner is not None else None, v.param)
            if isinstance(v, ScalarPtr):
                return ScalarPtr(v.cell, inner)
            if v is None or (isinstance(v, Unset) and v.param):
                return v
            raise self.err(
                node, f"{how} of {show(v)} to {typ.name} is not supported by ascsim's C++ front-end"
            )
        if typ.kind == "void":
            return None
        return self.guard(node, lambda: self.coerce(v, typ))

    def _e_sizeof(self, node: Node, scope: Scope) -> Num:
        tnode = fld(node, "type")
        if tnode is not None:
            typ = self.type_of(tnode, scope)
        else:
            v = fld(node, "value")
            inner = named(v)[0] if v.type == "parenthesized_expression" and named(v) else v
            typ = None
            if inner.type in ("identifier", "type_identifier"):
                c = scope.lookup(text(inner))
                if c is not None and isinstance(getattr(c, "value", None), TypeVal):
                    typ = c.value
                elif c is None and (scalar_type(text(inner)) is not None or text(inner) in self.prog.aliases):
                    typ = self._named_type(text(inner), (), scope, inner)
            if typ is None:
                val = self.eval(inner, scope)
                if isinstance(val, Num):
                    return Num(val.t.bits // 8, UINT64)
                if isinstance(val, A.ArrayVal) and val.cells and isinstance(val.cells[0].value, Num):
                    return Num(len(val.cells) * val.cells[0].value.t.bits // 8, UINT64)
                raise self.err(node, f"sizeof of {show(val)} is not supported by ascsim's C++ front-end")
        if typ.size <= 0:
            raise self.err(node, f"sizeof({typ.name}) is not supported by ascsim's C++ front-end")
        return Num(typ.size, UINT64)

    def _e_pointer(self, node: Node, scope: Scope) -> Any:
        op = text(fld(node, "operator"))
        arg = fld(node, "argument")
        if op == "&":
            cell = self.ref(arg, scope)
            v = cell.get()
            if not isinstance(v, Num):
                raise self.w.unsupported(node, "taking the address of a non-scalar")
            return ScalarPtr(cell, TypeVal("scalar", v.t.name, v.t, None, v.t.bits // 8))
        p = self.eval(arg, scope)
        return _Deref(p).get_checked(self, node)

    def _e_subscript(self, node: Node, scope: Scope) -> Any:
        base = self.eval(fld(node, "argument"), scope)
        i = self._index(node, scope)
        if isinstance(base, A.ArrayVal):
            return self.ref(node, scope).get()
        if isinstance(base, LocalTensor):
            return self.guard(node, lambda: base[i])
        if isinstance(base, Unset):
            if base.param:
                return base
            raise self.err(node, str(base.fault("indexing")))
        raise self.err(node, f"{show(base)} cannot be indexed")

    def _e_field(self, node: Node, scope: Scope) -> Any:
        c = self._member_ref(node, scope)
        return c.get()

    # ---------------------------------------------------------------------------------- calls
    def _e_call(self, node: Node, scope: Scope) -> Any:
        fnode = fld(node, "function")
        argn = named(fld(node, "arguments"))
        t = fnode.type
        if t == "field_expression":
            return self._method_call(node, fnode, argn, scope)
        targs: list = []
        name_node = fnode
        if t == "qualified_identifier":
            sc = text(fld(fnode, "scope"))
            if sc not in A.NAMESPACES:
                raise self.w.unsupported(fnode, f"call to '{text(fnode)}'")
            name_node = fld(fnode, "name")
            while name_node.type == "qualified_identifier":
                if text(fld(name_node, "scope")) not in A.NAMESPACES:
                    raise self.w.unsupported(fnode, f"call to '{text(fnode)}'")
                name_node = fld(name_node, "name")
        if name_node.type == "template_function":
            targs_node = fld(name_node, "arguments")
            name = text(fld(name_node, "name"))
            if name in ("static_cast", "reinterpret_cast", "const_cast"):
                typ = self.type_of(named(targs_node)[0], scope)
                if len(argn) != 1:
                    raise self.err(node, f"{name} takes one argument")
                return self.cast(typ, self.eval(argn[0], scope), node, name)
            targs = self.template_args(targs_node, scope)
        elif name_node.type in ("identifier", "type_identifier"):
            name = text(name_node)
        elif name_node.type in ("primitive_type", "sized_type_specifier"):  # uint32_t(x): a functional cast
            return (
                self.cast(
                    self.type_of(name_node, scope),
                    *[self.eval(a, scope) for a in argn],
                    node,
                    "functional cast",
                )
                if len(argn) == 1
                else self.construct(self.type_of(name_node, scope), [self.eval(a, scope) for a in argn], node)
            )
        else:
            raise self.w.unsupported(fnode, f"call through '{text(fnode)}'")
        qualified = t == "qualified_identifier"
        # user functions and methods of the current object first (unless AscendC:: qualified)
        if not qualified:
            c = scope.lookup(name)
            if isinstance(c, Method):
                return self._call_method(c.inst, c.name, targs, argn, scope, node)
            if c is not None and not isinstance(getattr(c, "value", None), TypeVal):
                raise self.err(fnode, f"'{name}' is not a function")
            if name in self.prog.functions:
                return self._call_free(name, targs, argn, scope, node)
            if name in self.prog.classes or (c is not None and isinstance(c.value, TypeVal)):
                typ = self._named_type(name, tuple(targs), scope, fnode)
                return self.construct(typ, [self.eval(a, scope) for a in argn], node)
        if name not in A.API and _is_type_name(name):  # a functional cast / temporary: uint32_t(x), T{...}
            typ = self._named_type(name, tuple(targs), scope, fnode)
            return self.construct(typ, [self.eval(a, scope) for a in argn], node)
        return self._api_call(name, targs, argn, scope, node)

    def _e_compound(self, node: Node, scope: Scope) -> Any:
        """`Type{a, b}` (a compound literal / braced temporary)."""
        typ = self.type_of(fld(node, "type"), scope)
        vals = [self.eval(a, scope) for a in named(fld(node, "value"))]
        return self.construct(typ, vals, node, braced=True)

    def _args(self, argn: list[Node], scope: Scope, brace: str = "") -> list[Any]:
        out = []
        for i, a in enumerate(argn):
            if a.type == "initializer_list":
                if not brace or i != len(argn) - 1:
                    raise self.err(
                        a,
                        "a brace initialiser here needs its struct type written out (the call is overloaded)",
                    )
                out.append(
                    self.guard(
                        a,
                        lambda a=a: A.build_struct(
                            A.struct_class(brace), [self.eval(x, scope) for x in named(a)]
                        ),
                    )
                )
            else:
                out.append(self.eval(a, scope))
        return out

    def _call_free(self, name: str, targs: list, argn: list[Node], scope: Scope, node: Node) -> Any:
        defs = self.prog.functions[name]
        f = self._overload(defs, len(argn), name, node)
        args = self._call_args(f, argn, scope)
        bind = Scope(self.globals)
        self._bind_template(f, targs, args, bind, node)
        return self.call(f, [a for a, _ in args], node, None, bind, [c for _, c in args])

    def _call_args(self, f: FuncDef, argn: list[Node], scope: Scope) -> list[tuple[Any, Any]]:
        """(value, cell) per argument; the cell is kept for reference parameters."""
        out = []
        params = f.params
        for i, a in enumerate(argn):
            p = params[i] if i < len(params) else None
            is_ref = p is not None and _is_reference(p)
            if is_ref and a.type in ("identifier", "field_expression", "subscript_expression"):
                try:
                    cell = self.ref(a, scope)
                    out.append((cell.get(), cell))
                    continue
                except FrontendError:
                    pass
            out.append((self.eval(a, scope), None))
        return out

    def _bind_template(self, f: FuncDef, targs: list, args: list, bind: Scope, node: Node) -> None:
        tps = f.template or []
        if len(targs) > len(tps):
            raise self.err(node, f"{f.name} takes {len(tps)} template arguments, but got {len(targs)}")
        for tp, v in zip(tps, targs, strict=False):
            bind.names[tp.name] = Var(
                self._nontype(tp, v, bind, node) if not tp.is_type else v, None, True, tp.name
            )
        missing = [tp for tp in tps[len(targs) :]]
        if not missing:
            return
        # deduce from the arguments: T from LocalTensor<T> / GlobalTensor<T> / T parameters
        for p, (val, _) in zip(f.params, args, strict=False):
            ptype = fld(p, "type")
            if ptype is None:
                continue
            pname = _base_type_name(ptype)
            inner = _first_template_arg(ptype)
            for tp in missing:
                if tp.name in bind.names:
                    continue
                if inner == tp.name and isinstance(val, (LocalTensor, Unset)):
                    bind.names[tp.name] = Var(dtype_type(val.dtype), None, True, tp.name)
                elif pname == tp.name and isinstance(val, Num):
                    bind.names[tp.name] = Var(
                        TypeVal("scalar", val.t.name, val.t, None, val.t.bits // 8), None, True, tp.name
                    )
        for tp in missing:
            if tp.name not in bind.names:
                if tp.default is not None:
                    v = self.template_arg(tp.default, bind) if tp.is_type else self.eval(tp.default, bind)
                    bind.names[tp.name] = Var(v, None, True, tp.name)
                else:
                    raise self.err(node, f"cannot deduce template parameter '{tp.name}' of {f.name}")

    def _overload(self, defs: list[FuncDef], n: int, name: str, node: Node) -> FuncDef:
        fits = []
        for f in defs:
            params = [p for p in f.params if p.type != "variadic_parameter_declaration"]
            required = [p for p in params if p.type != "optional_parameter_declaration"]
            if len(params) == 1 and text(params[0]) == "void":
                params, required = [], []
            if len(required) <= n <= len(params) and f.body is not None:
                fits.append(f)
        if not fits:
            raise self.err(node, f"no {name}(...) takes {n} arguments")
        return fits[0]

    def call(
        self,
        f: FuncDef,
        args: list,
        node: Node,
        this: Instance | None,
        bind: Scope,
        cells: list | None = None,
    ) -> Any:
        """Call function / method `f` with evaluated arguments."""
        body = f.body
        if body is None:
            raise self.err(node, f"{f.name} has no body")
        self.w.check_syntax(f.node)
        base = _InstScope(self, this, bind) if this is not None else bind
        scope = Scope(base)
        if this is not None:
            scope.names["this"] = Var(this, None, True, "this")
        params = [p for p in f.params if not (p.type == "parameter_declaration" and text(p) == "void")]
        for i, p in enumerate(params):
            d = fld(p, "declarator")
            name = declarator_name(d) if d is not None else f"<arg{i}>"
            if i < len(args):
                v = args[i]
            else:
                dv = fld(p, "default_value")
                v = self.eval(dv, scope)
            ptype = self.type_of(fld(p, "type"), scope)
            if d is not None and d.type == "pointer_declarator":
                ptype = TypeVal("ptr", ptype.name + "*", None, ptype.dtype, 8, (), ptype)
            if _is_reference(p) and cells and i < len(cells) and cells[i] is not None:
                scope.names[name] = cells[i]
                continue
            quals = [text(q) for q in named(p) if q.type == "type_qualifier"]
            value = self.guard(node, lambda v=v, t=ptype: self.coerce(v, t))
            if not _is_reference(p):
                value = A.snapshot(value)
            scope.names[name] = Var(value, ptype, "const" in quals, name)
        rtype = f.return_type
        try:
            self.exec_block(body, scope)
        except Return as r:
            value = r.value
            if rtype is not None and value is not None:
                rt = self.type_of(rtype, scope)
                if rt.kind == "scalar":
                    return self.guard(node, lambda: self.coerce(value, rt))
            return value
        except (Break, Continue):
            raise self.err(body, "break/continue outside a loop") from None
        return None

    def _method_call(self, node: Node, fnode: Node, argn: list[Node], scope: Scope) -> Any:
        arg, fieldn = fld(fnode, "argument"), fld(fnode, "field")
        targs: list = []
        if fieldn.type == "dependent_name":  # obj.template Method<T>()
            fieldn = named(fieldn)[0]
        if fieldn.type == "template_method":
            targs = self.template_args(fld(fieldn, "arguments"), scope)
            mname = text(fld(fieldn, "name"))
        else:
            mname = text(fieldn)
        cell = self.ref(arg, scope) if arg.type != "this" else Var(self._this(scope, arg), None, True)
        obj = cell.get() if not isinstance(cell, Var) or cell.value is not UNINIT else cell.value
        if isinstance(obj, Instance):
            return self._call_method(obj, mname, targs, argn, scope, node)
        return self._builtin_method(cell, obj, mname, targs, argn, scope, node)

    def _call_method(
        self, inst: Instance, mname: str, targs: list, argn: list[Node], scope: Scope, node: Node
    ) -> Any:
        defs = inst.cls.methods.get(mname)
        if defs is None:
            outside = [f for f in self.prog.functions.get(mname, []) if f.owner == inst.cls.name]
            defs = outside or None
        if defs is None:
            raise self.err(node, f"{inst.cls.name} has no method '{mname}'")
        f = self._overload(defs, len(argn), f"{inst.cls.name}::{mname}", node)
        args = self._call_args(f, argn, scope)
        bind = Scope(inst.bind)
        self._bind_template(f, targs, args, bind, node)
        return self.call(f, [a for a, _ in args], node, inst, bind, [c for _, c in args])


class _InstScope(Scope):
    """Name lookup inside a method: the object's fields, statics and methods, then the class's template
    arguments and the globals."""
    __slots__ = ("interp", "inst")

    def __init__(self, interp: Interp, inst: Instance | None, bind: Scope) -> None:
        super().__init__(bind)
        self.interp = interp
        self.inst = inst

    def lookup(self, name: str) -> Any:
        inst = self.inst
        if inst is not None:
            v = inst.fields.get(name)
            if v is not None:
                return v
            if name in inst.cls.statics:
                return self.interp._static(inst, name, inst.cls.node)
            if name in inst.cls.methods or any(
                f.owner == inst.cls.name for f in self.interp.prog.functions.get(name, [])
            ):
                return Method(inst, name)
        return self.parent.lookup(name) if self.parent is not None else None


class _Deref:
    """`*p` for the one pointer idiom kernels use on scalars: `*reinterpret_cast<U*>(&x)` (bit cast)."""
    type = None
    const = False

    def __init__(self, p: Any) -> None:
        self.p = p

    def get_checked(self, interp: Interp, node: Node) -> Any:
        p = self.p
        if isinstance(p, ScalarPtr):
            v = p.cell.get()
            src, dst = v.t, p.type.ctype
            if dst is None or src.bits != dst.bits:
                raise interp.w.unsupported(node, f"reading a {src.name} through a {p.type.name} pointer")
            return Num(_bitcast(v.v, src, dst), dst)
        raise interp.w.unsupported(node, "dereferencing a pointer")

    def get(self) -> Any:
        raise RuntimeFault("dereferencing a pointer is not supported by ascsim's C++ front-end")

    def set(self, v: Any) -> None:
        raise RuntimeFault("writing through a pointer is not supported by ascsim's C++ front-end")


def _bitcast(v: Any, src: Any, dst: Any) -> Any:
    codes = {
        ("float", 32): "f",
        ("int", 32): "i",
        ("uint", 32): "I",
        ("float", 64): "d",
        ("int", 64): "q",
        ("uint", 64): "Q",
        ("int", 16): "h",
        ("uint", 16): "H",
        ("float", 16): "e",
    }
    a, b = codes.get((src.kind, src.bits)), codes.get((dst.kind, dst.bits))
    if a is None or b is None:
        raise RuntimeFault(f"bit cast from {src.name} to {dst.name} is not supported")
    return struct.unpack("<" + b, struct.pack("<" + a, v))[0]


_NAMED_UNSUPPORTED = frozenset(
    {
        "switch_statement",
        "goto_statement",
        "labeled_statement",
        "try_statement",
        "throw_statement",
        "lambda_expression",
        "new_expression",
        "delete_expression",
        "for_range_loop",
        "co_await_expression",
        "fold_expression",
        "gnu_asm_expression",
        "offsetof_expression",
        "alignof_expression",
        "char_literal",
        "concatenated_string",
        "user_defined_literal",
        "raw_string_literal",
        "co_return_statement",
        "attributed_statement",
        "seh_try_statement",
        "static_assert_declaration",
        "alias_declaration",
        "type_definition",
        "using_declaration",
        "namespace_definition",
    }
)


def _tname(name: str, args: tuple) -> str:
    if not args:
        return name
    return f"{name}<{', '.join(_targ_str(a) for a in args)}>"


def _targ_str(a: Any) -> str:
    if isinstance(a, Num):
        return str(a.v).lower() if isinstance(a.v, bool) else str(a.v)
    return str(getattr(a, "name", a)) if isinstance(a, TypeVal) else str(a)


def _is_reference(p: Node) -> bool:
    d = fld(p, "declarator")
    return d is not None and d.type == "reference_declarator"


def _base_type_name(t: Node) -> str:
    while t.type == "qualified_identifier":
        t = fld(t, "name")
    if t.type == "template_type":
        return text(fld(t, "name"))
    return text(t)


def _first_template_arg(t: Node) -> str:
    while t.type == "qualified_identifier":
        t = fld(t, "name")
    if t.type != "template_type":
        return ""
    args = named(fld(t, "arguments"))
    return text(args[0]) if args else ""


_EVAL: dict[str, Callable[[Interp, Node, Scope], Any]] = {
    "number_literal": Interp._e_number,
    "true": Interp._e_bool,
    "false": Interp._e_bool,
    "identifier": Interp._e_identifier,
    "qualified_identifier": Interp._e_qualified,
    "this": Interp._e_this,
    "parenthesized_expression": Interp._e_paren,
    "null": Interp._e_nullptr,
    "nullptr": Interp._e_nullptr,
    "string_literal": Interp._e_string,
    "initializer_list": Interp._e_init_list,
    "binary_expression": Interp._e_binary,
    "unary_expression": Interp._e_unary,
    "update_expression": Interp._e_update,
    "assignment_expression": Interp._e_assign,
    "conditional_expression": Interp._e_conditional,
    "comma_expression": Interp._e_comma,
    "cast_expression": Interp._e_cast,
    "sizeof_expression": Interp._e_sizeof,
    "pointer_expression": Interp._e_pointer,
    "subscript_expression": Interp._e_subscript,
    "field_expression": Interp._e_field,
    "call_expression": Interp._e_call,
    "compound_literal_expression": Interp._e_compound,
}


_REPARSED: dict[str, Node | None] = {}


def _reparse(expr_text: str) -> Node | None:
    """`expr_text` parsed on its own as an expression (None when it is not one)."""
    if expr_text not in _REPARSED:

        root = parse(Source("<arg>", f"auto __ascsim_arg = ({expr_text});", [1]))
        node = None
        decl = named(root)[0] if named(root) else None
        if decl is not None and not root.has_error and decl.type == "declaration":
            init = fld(fld(decl, "declarator"), "value") if fld(decl, "declarator") is not None else None
            if init is not None and init.type == "parenthesized_expression" and named(init):
                node = named(init)[0]
        _REPARSED[expr_text] = node
    return _REPARSED[expr_text]


def _is_type_name(name: str) -> bool:
    return scalar_type(name) is not None or A.struct_class(name) is not None or name in A.API_TYPES
