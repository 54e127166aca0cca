"""Building a program: the compiler, the three steps, the cache.

The compiler (docs/cpp.md "The compiler"): `CXX` when the user sets it (a command line, e.g. `clang++-18`);
otherwise the clang that PyPI's `ziglang` wheel bundles (`python -m ziglang c++`, clang 22 with its own
libc++: ascsim's dependency, so a fresh machine has it after `pip install`); otherwise `clang++` on the
PATH. GCC is not the default because it rejects template-library code clang accepts (catlass's explicit
specialisations in class scope: GCC 12 "explicit specialization in non-namespace scope").

A build is: (1) preprocess the program with ascsim's headers first on the include path
(`-include kernel_operator.h`; `__NPU_ARCH__` and `CATLASS_ARCH` from the chip), (2) rewrite its kernel
launches and, for a kernel-only file, append the driver, (3) compile that text and link it with ascsim's
runtime. The executable is cached under the hash of the rewritten text, the flags, the compiler's
identity and the runtime (`ascsim_cache_dir()/bin`), so a second run of unchanged sources compiles
nothing; the runtime object is compiled once per compiler.
"""

from __future__ import annotations

import hashlib
import importlib.util
import os
import re
import resource
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from ..base.errors import AscsimError
from ..machine.chips import ChipProfile
from . import protocol
from .headers import generated_header, include_dir, runtime_source
from .source import Entry, kernel_entries, rewrite_launches

#: Flags of every compile: C++17 (what the Ascend C toolchain compiles), no warnings (a CPU build of
#: device code warns about what the device build does not), the first errors only, and narrowing in a braced
#: initialiser allowed: the doc pages' own examples pass uint32_t variables to uint16_t struct members in
#: braces (MmadWithSparse.md 调用示例), which clang refuses by default (docs/divergences.md B3).
#: A crashing compiler writes no reproducer (the preprocessed program, which may be huge) to /tmp.
BASE_FLAGS = ("-std=c++17", "-w", "-Wno-c++11-narrowing", "-ferror-limit=20", "-fno-crash-diagnostics")
#: Optimisation of the program (scalar loops run natively at this speed) ...
OPT = "-O1"
#: ... unless the program's own code (outside ascsim's headers and the system's) is longer than this many
#: lines: clang's optimiser is superlinear in a function's length, and generated straight-line kernels (a
#: traced scenario, a planner's replay: 59k lines) took minutes at -O1 and 10 s at -O0.
LONG_PROGRAM = 20_000
#: Limits of one compiler run: a hostile source (a template or macro bomb) must not take the machine. Data
#: (heap) per compiler process; the whole build, ascsim included, then stays under 2 GiB.
COMPILE_MEMORY = 3 << 29
#: The largest file a compiler run may write (the preprocessed program, an object, the executable).
COMPILE_FILE_SIZE = 1 << 28


class BuildError(AscsimError):
    """The program does not compile: `output` is what the compiler printed, first error first."""

    def __init__(self, message: str, output: str = "") -> None:
        super().__init__(message)
        self.output = output

    def __str__(self) -> str:
        return f"{self.message}:\n{self.output}" if self.output else self.message


def ascsim_cache_dir() -> Path:
    """Where builds are kept: $ASCSIM_CACHE, else $XDG_CACHE_HOME/ascsim, else ~/.cache/ascsim."""
    env = os.environ.get("ASCSIM_CACHE")
    if env:
        return Path(env)
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "ascsim"


@dataclass(frozen=True)
class Compiler:
    """A C++ compiler command and its identity (part of every cache key)."""

    argv: tuple[str, ...]
    identity: str
    source: str  # "CXX", "ziglang", "PATH"

    @property
    def is_gcc(self) -> bool:
        return "clang" not in self.identity.lower() and ("gcc" in self.identity.lower()
                                                          or "g++" in self.identity.lower())


_COMPILER: Compiler | None = None


def find_compiler() -> Compiler:
    """The compiler builds use (see the module docstring); cached for the process."""
    global _COMPILER
    cxx = os.environ.get("CXX", "").strip()
    if _COMPILER is not None and _COMPILER.source == ("CXX" if cxx else _COMPILER.source):
        if not cxx or _COMPILER.argv == tuple(shlex.split(cxx)):
            return _COMPILER
    candidates: list[tuple[tuple[str, ...], str]] = []
    if cxx:
        candidates.append((tuple(shlex.split(cxx)), "CXX"))
    else:
        if importlib.util.find_spec("ziglang") is not None:  # the wheel is there (not imported: a big module)
            candidates.append(((sys.executable, "-m", "ziglang", "c++"), "ziglang"))
        path = shutil.which("clang++")
        if path:
            candidates.append(((path,), "PATH"))
    for argv, source in candidates:
        try:
            r = subprocess.run([*argv, "--version"], capture_output=True, text=True, timeout=120,
                               env=_compiler_env())
        except (OSError, subprocess.TimeoutExpired):
            continue
        if r.returncode == 0:
            _COMPILER = Compiler(tuple(argv), r.stdout.strip().splitlines()[0] if r.stdout else source,
                                 source)
            return _COMPILER
        if source == "CXX":
            raise BuildError(f"CXX={cxx}: `{cxx} --version` failed: {r.stderr.strip()[:200]}")
    raise BuildError("no C++ compiler: ascsim builds programs with the clang of the `ziglang` package "
                     "(pip install ziglang), a clang++ on the PATH, or the compiler CXX names")


def _limits() -> None:  # runs in the compiler's child process
    os.setsid()
    for lim, value in ((resource.RLIMIT_DATA, COMPILE_MEMORY), (resource.RLIMIT_FSIZE, COMPILE_FILE_SIZE),
                       (resource.RLIMIT_CORE, 0)):
        try:
            resource.setrlimit(lim, (value, value))
        except (ValueError, OSError):
            pass


def _compiler_env() -> dict[str, str]:
    """The compiler's environment: zig needs a cache directory, which it finds through $HOME; give it its
    usual one explicitly so a caller with a bare environment (no HOME) still compiles, sharing the cache."""
    env = dict(os.environ)
    if "ZIG_GLOBAL_CACHE_DIR" not in env:
        base = env.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
        env["ZIG_GLOBAL_CACHE_DIR"] = str(Path(base) / "zig")
    return env


def _run(argv: list[str], timeout: float, what: str, deadline: float | None = None
         ) -> subprocess.CompletedProcess:
    """One compiler run, limited (`_limits`) and stopped after `timeout` seconds, or at `deadline` (a
    time.monotonic() value: the whole build's --compile-timeout)."""
    left = timeout if deadline is None else min(timeout, deadline - time.monotonic())
    try:
        if left <= 0:
            raise subprocess.TimeoutExpired(argv, timeout)
        r = subprocess.run(argv, capture_output=True, text=True, errors="replace", timeout=left,
                           preexec_fn=_limits, env=_compiler_env())
    except subprocess.TimeoutExpired:
        raise BuildError(f"{what}: the compiler ran past {timeout:g} s (--compile-timeout)") from None
    except OSError as e:
        raise BuildError(f"{what}: cannot run the compiler {argv[0]}: {e.strerror}") from None
    return r


def _write_atomic(path: Path, data: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-")
    with os.fdopen(fd, "wb") as f:
        f.write(data)
    os.replace(tmp, path)


def _hash(*parts: str | bytes) -> str:
    h = hashlib.sha256()
    for p in parts:
        h.update(p.encode("utf-8", "surrogateescape") if isinstance(p, str) else p)
        h.update(b"\0")
    return h.hexdigest()[:32]


def generated_include(cache: Path) -> Path:
    """A directory holding `ascsim/generated.h` for this ascsim (written once per content)."""
    text = generated_header()
    d = cache / "gen" / _hash(text)
    target = d / "ascsim" / "generated.h"
    if not target.exists():
        _write_atomic(target, text.encode())
    return d


def runtime_object(cxx: Compiler, cache: Path, timeout: float) -> Path:
    """ascsim's runtime compiled by `cxx` (once per compiler and runtime source)."""
    src = runtime_source()
    text = src.read_bytes()
    inc = include_dir()
    headers = b"".join((inc / "ascsim" / n).read_bytes() for n in ("bridge.h",))
    obj = cache / "runtime" / f"{_hash(text, headers, cxx.identity, ' '.join(cxx.argv))}.o"
    if obj.exists():
        return obj
    obj.parent.mkdir(parents=True, exist_ok=True)
    tmp = obj.with_name(f".{obj.name}.{os.getpid()}")
    r = _run([*cxx.argv, *BASE_FLAGS, "-O2", "-fPIC", f"-I{inc}", "-c", str(src), "-o", str(tmp)], timeout,
             "the ascsim runtime")
    if r.returncode != 0:
        raise BuildError(f"the ascsim runtime does not compile with {cxx.identity}", r.stderr)
    os.replace(tmp, obj)
    return obj


@dataclass
class Built:
    """A program ready to run."""

    exe: Path
    source: Path
    chip: ChipProfile
    entries: list[Entry]
    kernel_only: bool
    launches: int
    cached: bool
    compiler: Compiler
    timings: dict[str, float] = field(default_factory=dict)
    entry: Entry | None = None  # the driven entry of a kernel-only file


def _own_lines(text: str) -> int:
    """Lines of a preprocessed translation unit that come from neither ascsim's headers nor the system's
    (by the preprocessor's `# N "file"` markers)."""
    ours = str(include_dir())
    count, own = 0, True
    for line in text.splitlines():
        if line.startswith("# ") and '"' in line:
            name = line.split('"', 2)[1]
            own = not (name.startswith(ours) or name.startswith("/usr/") or "ziglang" in name
                       or name.startswith("<"))
        elif own and line.strip():
            count += 1
    return count


def _has_main(text: str) -> bool:
    """A `main` defined at file scope: `int main(`, and the spellings Huawei's examples use (`int32_t main(`,
    asc-devkit examples/01_simd_cpp_api/03_basic_api/03_matrix_compute/mmad/mmad.asc)."""
    return re.search(r"\b(?:int|(?:std::)?int32_t|signed(?:\s+int)?|auto)\s+main\s*\(", text) is not None


def build(source: str | Path, chip: ChipProfile, *, includes: Sequence[str] = (),
          defines: dict[str, str] | None = None, driver: Driver | None = None,
          timeout: float = 600.0) -> Built:
    """Build `source` for `chip` (see the module docstring). `driver` makes the entry of a kernel-only
    file the program (kernel mode); without one, a file with no `main` is an error naming --gm."""
    t0 = time.monotonic()
    deadline = t0 + timeout  # --compile-timeout bounds the whole build, whatever its steps
    src = Path(source)
    if not src.is_file():
        raise BuildError(f"{source}: no such file")
    cxx = find_compiler()
    cache = ascsim_cache_dir()
    arch = chip.arch if chip.arch.isdigit() else (defines or {}).get("__NPU_ARCH__")
    if arch is None:
        raise BuildError(f"{chip.name}: ascsim knows no __NPU_ARCH__ for it (give one with "
                         "-D __NPU_ARCH__=...)")
    defs = {"__NPU_ARCH__": str(arch), "CATLASS_ARCH": str(arch), "ASCSIM": "1", **(defines or {})}
    flags = [*BASE_FLAGS, *(f"-D{k}={v}" if v != "" else f"-D{k}" for k, v in defs.items())]
    gen = generated_include(cache)
    inc = [f"-I{gen}", f"-I{include_dir()}", f"-I{src.resolve().parent}", *(f"-I{d}" for d in includes)]
    with tempfile.TemporaryDirectory(prefix="ascsim-build-") as tmp:
        ii = Path(tmp) / "tu.ii"
        r = _run([*cxx.argv, "-E", "-x", "c++", *flags, *inc, "-include", "kernel_operator.h",
                  str(src.resolve()), "-o", str(ii)], timeout, str(src), deadline)
        if r.returncode != 0:
            raise BuildError(f"{src}: does not preprocess", _first_errors(r.stderr))
        text = ii.read_text(encoding="utf-8", errors="surrogateescape")
        t1 = time.monotonic()
        entries = kernel_entries(text)
        rewritten, sites = rewrite_launches(text)
        kernel_only = not _has_main(rewritten)
        entry = None
        if kernel_only:
            if driver is None:
                raise BuildError(f"{src}: has no main: a kernel-only file runs with its GM parameters bound "
                                 "(ascsim run FILE --gm NAME=FILE ...)")
            entry = driver.pick(entries, src)
            rewritten += driver.source(entry, src)
        elif driver is not None and driver.required:
            raise BuildError(f"{src}: has a main, so it runs as a program (its main reads its own inputs); "
                             "--gm / --template bind the parameters of a kernel-only file")
        del text  # (a big program: one copy of its text at a time)
        runtime = runtime_object(cxx, cache, timeout)
        opt = OPT if _own_lines(rewritten) <= LONG_PROGRAM else "-O0"
        key = _hash(rewritten, " ".join(flags), cxx.identity, " ".join(cxx.argv), runtime.name, opt,
                    str(protocol.PROTOCOL_VERSION))
        exe = cache / "bin" / key
        t2 = time.monotonic()
        cached = exe.exists()
        if not cached:
            rw = Path(tmp) / "tu.rw.ii"
            rw.write_text(rewritten, encoding="utf-8", errors="surrogateescape")
            out = Path(tmp) / "prog"
            r = _run([*cxx.argv, *BASE_FLAGS, opt, "-x", "c++", str(rw), "-x", "none", str(runtime),
                      "-o", str(out), "-lpthread"], timeout, str(src), deadline)
            if r.returncode != 0:
                # (stopped at a limit: no second run that would hit it again)
                again = "" if _at_limit(r.stderr) else _diagnose(cxx, src, flags, inc, timeout, deadline)
                raise BuildError(f"{src}: does not compile", _first_errors(again or r.stderr))
            exe.parent.mkdir(parents=True, exist_ok=True)
            shutil.move(str(out), str(exe.with_name(f".{exe.name}.{os.getpid()}")))
            os.replace(exe.with_name(f".{exe.name}.{os.getpid()}"), exe)
    t3 = time.monotonic()
    return Built(exe, src, chip, entries, kernel_only, len(sites), cached, cxx,
                 {"preprocess": t1 - t0, "rewrite": t2 - t1, "compile": t3 - t2}, entry)


def _diagnose(cxx: Compiler, src: Path, flags: list[str], inc: list[str], timeout: float,
              deadline: float | None = None) -> str:
    """The compiler's errors on the program's own files (its diagnostics then quote the source as written,
    not the preprocessed text); "" when those errors are only its <<<...>>> launches, which only the
    rewritten text compiles."""
    if deadline is not None and deadline - time.monotonic() < 1:
        return ""  # the build's time is up: the compile's own output stands
    try:
        r = _run([*cxx.argv, "-x", "c++", *flags, *inc, "-include", "kernel_operator.h", "-c",
                  str(src.resolve()), "-o", os.devnull], timeout, str(src), deadline)
    except BuildError:
        return ""
    first = next((ln for ln in r.stderr.splitlines() if ": error:" in ln), "")
    if r.returncode == 0 or not first or "<<<" in r.stderr.split(first, 1)[1][:400] or "'<'" in first:
        return ""
    return r.stderr


def _at_limit(stderr: str) -> bool:
    """Did the compiler stop at a limit of `_limits` (its memory, a file's size) rather than an error?"""
    return "LLVM ERROR: out of memory" in stderr or "File too large" in stderr


def _first_errors(stderr: str, limit: int = 60) -> str:
    """The compiler's output up to `limit` lines (it prints the first error first), with ascsim's word on
    names its headers do not declare."""
    lines = stderr.rstrip().splitlines()
    more = f"\n... ({len(lines) - limit} more lines)" if len(lines) > limit else ""
    text = "\n".join(lines[:limit]) + more
    if "LLVM ERROR: out of memory" in stderr:  # (see _at_limit)
        text += f"\nascsim: the compiler ran out of the memory ascsim gives it ({COMPILE_MEMORY >> 20} MiB)"
    if "File too large" in stderr:
        text += (f"\nascsim: a file the compiler writes (preprocessed text, object, executable) would pass "
                 f"ascsim's limit of {COMPILE_FILE_SIZE >> 20} MiB")
    missing = sorted(set(re.findall(r"no (?:member|template) named '(\w+)' in namespace 'AscendC'", stderr)))
    if missing:
        text += ("\nascsim: " + ", ".join(f"AscendC::{m}" for m in missing)
                 + " is not declared by ascsim's headers (docs/cpp.md \"What is modelled\")")
    return text


class Driver:
    """The `main` of a kernel-only file: binds each GM pointer parameter of the entry by name and launches
    it (`ascsim run kernel.cpp --gm NAME=FILE ...`)."""

    def __init__(self, entry: str | None = None, template: dict[str, str] | None = None,
                 required: bool = False) -> None:
        self.entry = entry
        self.template = template or {}
        self.required = required  # given by --gm / --template: a file with a main is then an error

    def pick(self, entries: list[Entry], src: Path) -> Entry:
        if self.entry is not None:
            hit = [e for e in entries if e.name == self.entry]
            if not hit:
                raise BuildError(f"{src}: no __global__ function named '{self.entry}' (--entry); __global__ "
                                 f"functions: {', '.join(e.name for e in entries) or 'none'}")
            return hit[0]
        if not entries:
            raise BuildError(f"{src}: no __global__ kernel function found (give --entry NAME)")
        if len(entries) > 1:
            raise BuildError(f"{src}: several __global__ functions ({', '.join(e.name for e in entries)}): "
                             "choose one with --entry NAME")
        return entries[0]

    def source(self, e: Entry, src: Path) -> str:
        names = [t.name for t in e.template]
        unknown = [k for k in self.template if k not in names]
        if unknown:
            raise BuildError(f"{src}: --template {unknown[0]}: the entry {e.name} has no template parameter "
                             f"'{unknown[0]}' (it has: {', '.join(names) or 'none'})")
        targs = []
        for t in e.template:
            if t.name in self.template:
                targs.append(self.template[t.name])
            elif t.default:
                break
            else:
                raise BuildError(f"{src}: the entry {e.name} is a template: give its arguments with "
                                 f"--template {','.join(f'{n}=...' for n in names)}")
        callee = e.name + (f"<{', '.join(targs)}>" if e.template else "")  # a template: <...> even if empty
        params = ", ".join(f'"{p.name}"' for p in e.params)
        return (f"\nint main() {{ return ::ascsim::rt::drive_kernel(\"{callee}\", &{callee}, "
                f"{{{params}}}); }}\n")
