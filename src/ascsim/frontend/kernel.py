"""`load_kernel(path)`: a kernel file ready to run; `Kernel.run(...)`: one launch on a fresh Core.

    k = ascsim.load_kernel("mmad.asc", chip="a2", defines={"SCENARIO_NUM": "1"})
    run = k.run(gm={"a": a_bytes, "b": b_bytes, "c": Output("int32_t", (30, 40))})
    run.outputs["c"]            # numpy array, decoded
    run.sync_reports            # races / unpaired flags found

The kernel entry is the file's `__global__` function (or `entry=`), its template arguments come from
the `<<<...>>>` launch in `main` when there is one, else from `template=`; its GM pointer parameters are
bound by name.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from ..base.errors import AscsimError
from ..core import Core
from ..engine.sync import SyncChecker, SyncReport
from ..machine.chips import get_chip
from ..machine.dtypes import DType, from_bytes, get_dtype
from .cvalues import BOOL, Num, TypeVal, literal
from .interp import Interp, Scope, TraceCall, Var
from .program import FuncDef, Program, collect, declarator_name
from .runtime import GmPtr, GmSpace
from .source import FrontendError, Source, preprocess
from .syntax import Where, named, parse, text
from .syntax import field as fld


@dataclass(frozen=True)
class Output:
    """A GM parameter the kernel writes: allocated with `shape` elements of `dtype`, read back after the
    run (and saved to `path`, .npy or .bin, when given)."""

    dtype: str
    shape: tuple[int, ...]
    path: str | None = None

    @property
    def nbytes(self) -> int:
        dt = get_dtype(self.dtype)
        return (int(np.prod(self.shape)) * dt.bits + 7) // 8


@dataclass(frozen=True)
class Input:
    """A GM parameter's initial bytes (copied into GM as they are); `dtype` is informative."""

    data: bytes
    dtype: str | None = None
    path: str | None = None


def parse_gm(spec: str) -> tuple[str, Input | Output]:
    """`NAME=FILE` (input: .npy or raw .bin), `NAME=FILE:DTYPE` (input reinterpreted) or
    `NAME=FILE:DTYPE:SHAPE` (output, SHAPE like 32x32 or 16x8x16x16)."""
    if "=" not in spec:
        raise AscsimError(f"--gm {spec}: expected NAME=FILE[:DTYPE[:SHAPE]]")
    name, rest = spec.split("=", 1)
    parts = rest.split(":")
    path, dtype, shape = parts[0], parts[1] if len(parts) > 1 else None, parts[2] if len(parts) > 2 else None
    if len(parts) > 3 or not name.isidentifier() or not path:
        raise AscsimError(f"--gm {spec}: expected NAME=FILE[:DTYPE[:SHAPE]]")
    if dtype is not None:
        try:
            get_dtype(dtype)
        except AscsimError as e:
            raise AscsimError(f"--gm {spec}: {e}") from None
    if shape is not None:
        try:
            dims = tuple(int(d) for d in shape.lower().split("x"))
        except ValueError:
            dims = ()
        if not dims or min(dims) <= 0:
            raise AscsimError(
                f"--gm {spec}: SHAPE must be positive sizes joined by x (e.g. 32x32), but got {shape!r}"
            )
        return name, Output(dtype, dims, path)
    return name, Input(read_input(path, spec), dtype, path)


def read_input(path: str | Path, what: str = "") -> bytes:
    p = Path(path)
    if not p.exists():
        raise AscsimError(f"--gm {what}: {p} does not exist (an output needs FILE:DTYPE:SHAPE)")
    if p.suffix == ".npy":
        return np.load(p, allow_pickle=False).tobytes()
    return p.read_bytes()


@dataclass
class KernelRun:
    """The result of one launch."""

    core: Core
    gm: GmSpace
    trace: list[TraceCall]
    sync_reports: list[SyncReport]
    warnings: list[str]
    bindings: dict[str, Input | Output]
    entry: str
    template: dict[str, Any]
    outputs: dict[str, np.ndarray] = field(default_factory=dict)

    def read_gm(self, name: str, dtype: str | DType, shape: tuple[int, ...] | None = None) -> np.ndarray:
        """A bound GM buffer decoded as `dtype` (reshaped to `shape`)."""
        dt = get_dtype(dtype)
        raw = np.frombuffer(self.gm.read(name), dtype=np.uint8)
        n = int(np.prod(shape)) if shape else raw.size * 8 // dt.bits
        v = from_bytes(dt, raw, n)
        return v.reshape(shape) if shape else v

    def save_outputs(self) -> list[Path]:
        """Write every output that has a path: .npy (decoded; bfloat16/fp8/fp4 as their bit containers) or
        raw .bin."""
        written = []
        for name, b in self.bindings.items():
            if not isinstance(b, Output) or b.path is None:
                continue
            p = Path(b.path)
            p.parent.mkdir(parents=True, exist_ok=True)
            raw = self.gm.read(name)
            if p.suffix == ".npy":
                np.save(p, _npy_array(raw, get_dtype(b.dtype), b.shape))
            else:
                p.write_bytes(raw)
            written.append(p)
        return written


def _npy_array(raw: bytes, dt: DType, shape: tuple[int, ...]) -> np.ndarray:
    """Decoded values when numpy has the type, else the raw bit container (.npy cannot hold bfloat16, fp8 or
    packed 4-bit values)."""
    buf = np.frombuffer(raw, dtype=np.uint8)
    if dt.value_dtype.kind in "iuf" and dt.bits >= 8:
        return from_bytes(dt, buf, int(np.prod(shape))).reshape(shape)
    if dt.bits == 4:
        return buf.copy()
    return buf.view(dt.raw_dtype).reshape(shape)


class Kernel:
    """A preprocessed, parsed kernel file."""

    def __init__(
        self,
        path: str | Path,
        chip: str = "a2",
        defines: Mapping[str, str] | None = None,
        text_: str | None = None,
    ) -> None:
        self.path = Path(path)
        self.chip = get_chip(chip)
        if text_ is None:
            try:
                text_ = self.path.read_text(encoding="utf-8")
            except OSError as e:
                raise FrontendError(f"{self.path}: cannot read: {e.strerror}") from None
        self.defines = {k: str(v) for k, v in (defines or {}).items()}
        self.source: Source = preprocess(text_, self.path, self.defines, self.chip.arch)
        self.tree = parse(self.source)
        self.where = Where(self.source)
        self.program: Program = collect(self.tree)

    # -- the entry ----------------------------------------------------------------------------------
    def entry(self, name: str | None = None) -> FuncDef:
        entries = self.program.entries
        if name is not None:
            for fs in self.program.functions.values():
                for f in fs:
                    if f.name == name:
                        return f
            raise FrontendError(
                f"{self.source.path}: no function named '{name}' (--entry); __global__ "
                f"functions: {', '.join(f.name for f in entries) or 'none'}"
            )
        if not entries:
            raise FrontendError(
                f"{self.source.path}: no __global__ kernel function found (give --entry NAME)"
            )
        if len(entries) > 1:
            raise FrontendError(
                f"{self.source.path}: several __global__ functions "
                f"({', '.join(f.name for f in entries)}): choose one with --entry NAME"
            )
        return entries[0]

    def launch_template(self, f: FuncDef) -> dict[str, Any]:
        """Template arguments of `f` from its `<<<...>>>` launch in main (empty when there is none)."""
        main = self.program.main
        if main is None or not f.template:
            return {}
        body = main.body
        src = text(body) if body is not None else ""
        m = re.search(rf"\b{re.escape(f.name)}\s*<", src)
        if m is None or "<<<" not in src[m.end() :]:
            return {}
        args_text, end = _balanced(src, m.end() - 1)
        if args_text is None or not src[end:].lstrip().startswith("<<<"):
            return {}
        interp = Interp(self.program, self.where, Core(self.chip), SyncChecker(), None)
        scope = Scope(interp.globals)
        for st in named(body):  # main's constexpr/const scalars, in order, up to the launch
            if st.start_byte - body.start_byte > m.start():
                break
            if st.type == "declaration" and any(
                text(q) in ("constexpr", "const") for q in named(st) if q.type == "type_qualifier"
            ):
                try:
                    interp.exec(st, scope)
                except AscsimError:
                    continue
        values = self._template_values(args_text, scope, interp, "the launch in main")
        return {tp.name: v for tp, v in zip(f.template, values, strict=False)}

    def _template_values(self, args_text: str, scope: Scope, interp: Interp, what: str) -> list[Any]:
        """Template arguments written as text (`M * 2, half, true`), evaluated as the interpreter evaluates
        any template argument list: parsed as `__f<ARGS>()` and read with its type-or-value rule."""
        tree = parse(Source("<args>", f"void __g() {{ __f<{args_text}>(); }}", [1]))
        targs = _find(tree, "template_argument_list")
        if targs is None or tree.has_error:
            raise FrontendError(
                f"{self.source.path}: cannot read the template arguments of {what} "
                f"({args_text!r}); give them with --template"
            )
        try:
            return interp.template_args(targs, scope)
        except AscsimError as e:
            msg = str(e).split(": ", 1)[-1]
            raise FrontendError(
                f"{self.source.path}: cannot evaluate {what} ({args_text}): {msg}; give it with --template"
            ) from None

    # -- running ------------------------------------------------------------------------------------
    def run(
        self,
        gm: Mapping[str, Any] | None = None,
        template: Mapping[str, Any] | None = None,
        entry: str | None = None,
        strict: bool = False,
        preload: Mapping[str, Mapping[int, bytes]] | None = None,
    ) -> KernelRun:
        """Launch the kernel once on a fresh Core of the kernel's chip.

        gm: kernel parameter -> input (array, bytes, file path, `Input`) or `Output`. template: the entry's
        template arguments (ints, bools, type names) over those of the launch in main. preload: on-chip
        memory -> {byte address: bytes} written before the kernel starts (fresh memory holds 0xCD, as a
        real core holds whatever the last kernel left) — what `ascsim cpp --kernel` needs to reproduce a
        scenario whose on-chip tensors start with data."""
        f = self.entry(entry)
        bindings = {k: _binding(k, v) for k, v in (gm or {}).items()}
        core = Core(self.chip, strict=strict)
        for mem, chunks in (preload or {}).items():
            m = core.memory(mem)
            for addr, data in chunks.items():
                m.check_range(addr, len(data), f"preload {mem}")
                m.data[addr : addr + len(data)] = np.frombuffer(data, dtype=np.uint8)
        space = GmSpace(
            core,
            {
                k: (
                    b.data if isinstance(b, Input) else None,
                    len(b.data) if isinstance(b, Input) else b.nbytes,
                )
                for k, b in bindings.items()
            },
        )
        params = _entry_params(f, self.where)
        unknown = [k for k in bindings if k not in params]
        if unknown:
            raise FrontendError(
                f"{self.source.path}: --gm {unknown[0]}: the entry {f.name} has no parameter "
                f"'{unknown[0]}' (parameters: {', '.join(params) or 'none'})"
            )
        args = {
            p: GmPtr(space if p in bindings else None, space.buffers[p].addr if p in bindings else 0, None, p)
            for p in params
        }
        tvals = self._template(f, template or {})
        sync = SyncChecker(strict=strict)
        interp = Interp(self.program, self.where, core, sync, space)
        interp.run_entry(f, tvals, args)
        sync.finish()
        run = KernelRun(core, space, interp.trace, sync.reports, interp.warnings, bindings, f.name, tvals)
        for name, b in bindings.items():
            if isinstance(b, Output):
                run.outputs[name] = run.read_gm(name, b.dtype, b.shape)
        return run

    def _template(self, f: FuncDef, given: Mapping[str, Any]) -> dict[str, Any]:
        names = [tp.name for tp in f.template or []]
        unknown = [k for k in given if k not in names]
        if unknown:
            raise FrontendError(
                f"{self.source.path}: --template {unknown[0]}: the entry {f.name} has no template "
                f"parameter '{unknown[0]}' (it has: {', '.join(names) or 'none'})"
            )
        out = self.launch_template(f)
        interp = Interp(self.program, self.where, Core(self.chip), SyncChecker(), None)
        for k, v in given.items():
            out[k] = (
                _as_template_value(v)
                if not isinstance(v, str)
                else self._template_values(v, Scope(interp.globals), interp, f"--template {k}={v}")[0]
            )
        for tp in f.template or []:
            if tp.name in out and not tp.is_type and isinstance(out[tp.name], Num) and tp.node is not None:
                ptype = fld(tp.node, "type")
                if ptype is not None:
                    t = interp.type_of(ptype, interp.globals)
                    if t.kind == "scalar":
                        out[tp.name] = interp.coerce(out[tp.name], t)
        return out


def _as_template_value(v: Any) -> Any:
    if isinstance(v, (Num, TypeVal)):
        return v
    if isinstance(v, bool):
        return Num(v, BOOL)
    if isinstance(v, int):
        return literal(str(v)) if v >= 0 else Num(v, literal("0").t)
    raise AscsimError(f"template value {v!r}: give an int, a bool or a type name")


def _binding(name: str, v: Any) -> Input | Output:
    if isinstance(v, (Input, Output)):
        return v
    if isinstance(v, np.ndarray):
        return Input(np.ascontiguousarray(v).tobytes())
    if isinstance(v, (bytes, bytearray, memoryview)):
        return Input(bytes(v))
    if isinstance(v, (str, Path)):
        return Input(read_input(v, f"{name}={v}"), None, str(v))
    raise AscsimError(
        f"gm[{name!r}]: expected an array, bytes, a file path, Input or Output, but got {type(v).__name__}"
    )


def _entry_params(f: FuncDef, where: Where) -> list[str]:
    out = []
    for p in f.params:
        if text(p) == "void":
            continue
        d = fld(p, "declarator")
        t = fld(p, "type")
        is_ptr = (d is not None and d.type == "pointer_declarator") or (
            t is not None and text(t) == "GM_ADDR"
        )
        name = declarator_name(d) if d is not None else ""
        if not is_ptr:
            raise where.unsupported(p, f"the kernel parameter '{text(p)}' (only GM pointers are bound)")
        out.append(name)
    return out


def _balanced(s: str, i: int) -> tuple[str | None, int]:
    """The text between the `<` at s[i] and its matching `>`, and the index after it."""
    depth = 0
    for j in range(i, len(s)):
        if s[j] == "<":
            depth += 1
        elif s[j] == ">":
            depth -= 1
            if depth == 0:
                return s[i + 1 : j], j + 1
    return None, i


def _find(node: Any, kind: str) -> Any:
    """The first node of type `kind` under `node` (depth first)."""
    if node.type == kind:
        return node
    for c in node.children:
        hit = _find(c, kind)
        if hit is not None:
            return hit
    return None


def load_kernel(path: str | Path, chip: str = "a2", defines: Mapping[str, str] | None = None) -> Kernel:
    """Preprocess and parse an Ascend C kernel file (.cpp / .asc) for `chip` (`__NPU_ARCH__` follows it)."""
    return Kernel(path, chip, defines)


__all__ = ["Input", "Kernel", "KernelRun", "Output", "load_kernel", "parse_gm"]
_ = Var  # re-exported for tests of the interpreter
