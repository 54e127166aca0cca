"""Running a built program: the child process, its limits, its faults, and what a run leaves.

    prog = ascsim.load_program("matmul.cpp", chip="a2")          # builds (cached by content)
    run = prog.run(args=["256", "512"], cwd="build")              # runs main(); its output is its own
    run.returncode, run.trace, run.sync_reports, run.warnings

    k = ascsim.load_kernel("matmul_pingpong.cpp", chip="a2")      # a kernel-only file
    run = k.run(gm={"a": a, "b": b, "c": Output("float", (32, 32))})
    run.outputs["c"]

The program is a child process; the engine serves its calls in this process (ascsim.program.server). A
program that crashes, exits with a status, or runs past its timeout ends the run with one message
(`ProgramFault`: the signal or status and the last call with its source line), never a traceback or a
hung ascsim.
"""

from __future__ import annotations

import math
import os
import resource
import signal
import subprocess
import sys
import tempfile
import time
import warnings
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from ..base.errors import AscsimError
from ..base.progress import Progress
from ..engine.gm_races import GmRaceChecker, GmRaceReport
from ..engine.sync import SyncReport, SyncWarning
from ..machine.chips import ChipProfile, get_chip
from ..machine.dtypes import DType, from_bytes, get_dtype, to_bytes
from ..view.timeline import Timeline, timeline_of
from . import protocol as P
from .build import Built, Driver, build
from .server import GmBinding, Server, TraceCall
from .values import element_type_fits, type_mismatch

#: Data (heap, static arrays, the block threads' stacks) a program may use; its GM is bounded separately
#: (`gm_limit`, default GM_LIMIT). With the engine's own memory, a run stays under 2 GiB.
PROGRAM_MEMORY = 1 << 30
#: The GM a program may allocate unless told otherwise (--gm-limit).
GM_LIMIT = 512 << 20
#: CPU seconds past its timeout a program may use: the bound on one whose ascsim is gone (killed).
CPU_MARGIN = 10
#: The most blocks a launch can name (its blockDim is a uint32_t).
MAX_BLOCK_DIM = (1 << 32) - 1
#: The main thread's stack (block threads: ASCSIM_STACK, 16 MB).
PROGRAM_STACK = 64 << 20


class BindingWarning(UserWarning):
    """A --gm binding the kernel used only in part: an output whose bytes it did not all write."""


class ProgramFault(AscsimError):
    """The program ended abnormally: a signal, an exit status, or its timeout. `run` is the ProgramRun up to
    that point (its trace, sync and race findings, stdout / stderr) when the program had started."""


@dataclass(frozen=True)
class Output:
    """A GM parameter of a kernel-only file that the kernel writes: allocated with `shape` elements of
    `dtype`, read back after the run (and saved to `path`, .npy or .bin, when given)."""

    dtype: str
    shape: tuple[int, ...]
    path: str | None = None

    @property
    def nbytes(self) -> int:
        dt = get_dtype(self.dtype)
        return (int(np.prod(self.shape)) * dt.bits + 7) // 8


@dataclass(frozen=True)
class Input:
    """A GM parameter's initial bytes (copied into GM as they are). `dtype`: the element type the bytes
    hold (a .npy's or an array's dtype, FILE:DTYPE's), checked against the type the kernel reads them as;
    None (a raw .bin, bytes): unchecked."""

    data: bytes
    dtype: str | None = None
    path: str | None = None


@dataclass
class ProgramRun:
    """What one run left: the program's exit status and output, every modelled call, the findings."""

    built: Built
    returncode: int
    stdout: str
    stderr: str
    trace: list[TraceCall]
    sync_reports: list[SyncReport]
    race_reports: list[GmRaceReport]
    warnings: list[str]
    seconds: float
    launches: int
    bindings: dict[str, Input | Output] = field(default_factory=dict)
    outputs: dict[str, np.ndarray] = field(default_factory=dict)
    gm_initial: dict[str, np.ndarray] = field(default_factory=dict)
    cores: list[Any] = field(default_factory=list)

    @property
    def entry(self) -> str:
        return self.built.entries[0].name if len(self.built.entries) == 1 else self.built.source.name

    @property
    def chip(self) -> ChipProfile:
        return self.built.chip

    def save_outputs(self) -> list[Path]:
        """Write each Output with a path (.npy decoded values, .bin raw bytes)."""
        out = []
        for name, b in self.bindings.items():
            if isinstance(b, Output) and b.path:
                p = Path(b.path)
                arr = self.outputs[name]
                if p.suffix == ".npy":
                    np.save(p, arr)
                else:
                    p.write_bytes(self.raw_outputs[name])
                out.append(p)
        return out

    raw_outputs: dict[str, bytes] = field(default_factory=dict)
    gm: Any = None  # the run's GM (SharedGlobalMemory)
    server: Any = None

    @property
    def core(self) -> Any:
        """The Core of block 0 of the last launch (its memories after the run)."""
        if not self.cores:
            raise AscsimError("the program launched no kernel")
        return self.cores[0]

    def timeline(self, cost_model: Any = None, launch: int = -1) -> Timeline:
        """The predicted pipe timeline of a launch (default the last; cores = its blocks) from the calls its
        sync checkers saw, timed by the chip's cost model (`cost_model`: a CostModel, or a TOML path / dict
        overriding the chip's table; docs/timeline.md)."""
        streams = getattr(self.server, "streams", None) or []
        if not streams:
            raise AscsimError("the program launched no kernel: there is no timeline")
        n = len(streams)
        if isinstance(launch, bool) or not isinstance(launch, int) or not -n <= launch < n:
            raise AscsimError(f"launch={launch!r} (--launch): the run has {n} kernel launch(es); give an "
                              f"integer in [{-n}, {n - 1}] (-1, the default: the last)")
        blocks = streams[launch]
        return timeline_of({b: r.stream() for b, r in sorted(blocks.items())}, self.chip.key, cost_model,
                           title=self.entry)

    def read_gm(self, name: str, dtype: str | DType | None = None, shape: tuple[int, ...] | None = None
                ) -> Any:
        """Kernel parameter `name` (a kernel-only file's --gm binding) after the run: its bytes, or with
        `dtype` its values (all of them, or `shape`)."""
        start, nbytes = self.server.bindings[name]
        raw = self.gm.data[start : start + nbytes].tobytes()
        if dtype is None:
            return raw
        dt = get_dtype(dtype)
        return _decode(raw, dt, shape if shape is not None else (nbytes * 8 // dt.bits,))


class Program:
    """A built program (whole program, or a kernel-only file driven by ascsim). `name`: how messages name
    the source file (default: its file name)."""

    def __init__(self, built: Built, name: str | None = None) -> None:
        self.built = built
        self.name = name or built.source.name

    @property
    def path(self) -> Path:
        return self.built.source

    def run(self, *, args: Sequence[str] = (), cwd: str | Path | None = None, gm: Mapping[str,
                                                                                          Any] | None = None,
            blocks: int = 1, strict: bool = False, timeout: float = 600.0, gm_limit: int = GM_LIMIT,
            preload: Mapping[str, Mapping[int, bytes]] | None = None, capture: bool = False,
            races: bool = True) -> ProgramRun:
        """Run the program once. args / cwd: main's arguments and working directory. gm: the kernel-only
        file's parameters (name -> array, bytes, file path, Input or Output). blocks: the kernel-only file's
        blockDim. strict: hazards and sync findings stop the run. timeout: seconds before the run is
        stopped. capture: keep the program's stdout / stderr in the run instead of passing them through."""
        if isinstance(blocks, bool) or not isinstance(blocks, (int, np.integer)) or not (
                1 <= blocks <= MAX_BLOCK_DIM):
            raise AscsimError(f"blocks={blocks!r}: the launch's blockDim must be an integer in "
                              f"[1, {MAX_BLOCK_DIM}] (--blocks)")
        blocks = int(blocks)
        _check_positive("timeout", timeout)
        if isinstance(gm_limit, bool) or not isinstance(gm_limit, (int, np.integer)) or gm_limit <= 0:
            raise AscsimError(f"gm_limit={gm_limit!r}: give the bytes of GM the program may allocate (> 0)")
        bindings = {k: _binding(k, v) for k, v in (gm or {}).items()}
        if bindings and not self.built.kernel_only:
            raise AscsimError(f"{self.path.name} has a main: it runs as a program, gm= binds the parameters "
                              "of a kernel-only file")
        if self.built.kernel_only:
            params = [p.name for p in _driver_entry(self.built).params]
            unknown = [k for k in bindings if k not in params]
            if unknown:
                entry = _driver_entry(self.built).name
                raise AscsimError(f"{self.path}: --gm {unknown[0]}: the entry {entry} has no parameter "
                                  f"'{unknown[0]}' (parameters: {', '.join(params) or 'none'})")
        gm_spec = {name: _gm_binding(name, b, self._param_types().get(name)) for name, b in bindings.items()}
        for p in (_driver_entry(self.built).params if self.built.kernel_only else ()):
            gm_spec.setdefault(p.name, GmBinding(p.name, None, 0))  # unbound: touching it stops with its name
        races_checker = GmRaceChecker(strict=strict) if races else None
        server = Server(self.built.chip, strict=strict, gm_limit=gm_limit, bindings=gm_spec, blocks=blocks,
                        preload=dict(preload or {}), gm_races=races_checker,
                        names={str(self.built.source.resolve()): self.name})
        server.vector_entries = {e.name for e in self.built.entries if e.vector}
        t0 = time.monotonic()
        fault: ProgramFault | None = None
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            try:
                # a long run says how many calls it has served (on a terminal; base.progress)
                with Progress(f"running {self.name or self.path.name}", unit="calls") as shown:
                    server.progress = shown
                    rc, out, err = _spawn(self.built, server, list(args), cwd, timeout, capture)
            except ProgramFault as e:  # raised again below, carrying what the run did before it ended
                fault, rc = e, -1
                out, err = getattr(e, "stdout", ""), getattr(e, "stderr", "")
        for w in caught:  # the engine's warnings (already located); sync findings are in the reports
            if not issubclass(w.category, SyncWarning):
                warnings.warn(w.message, w.category, stacklevel=2)
        seconds = time.monotonic() - t0
        if server.error is not None:
            server.gm.close()
            raise server.error
        races_found = list(races_checker.reports) if races_checker is not None else []
        run = ProgramRun(self.built, rc, out, err, server.trace, server.sync_reports, races_found,
                         server.warnings, seconds, server.launches,
                         bindings, gm_initial=getattr(server, "gm_initial", {}))
        for name, b in bindings.items():
            if isinstance(b, Output):
                start, nbytes = server.bindings[name]
                raw = server.gm.data[start : start + nbytes].tobytes()
                run.raw_outputs[name] = raw
                run.outputs[name] = _decode(raw, get_dtype(b.dtype), b.shape)
                if fault is None:
                    _warn_unwritten(run, gm_spec[name], server.unwritten(name))
        run.gm = server.gm
        run.server = server
        run.cores = [b.core for b in server.last_blocks]
        if fault is not None:
            fault.run = run  # type: ignore[attr-defined]
            raise fault
        return run


    def _param_types(self) -> dict[str, str]:
        """A kernel-only file's GM parameters -> the element type their pointer declares ("" for uint8_t* /
        void*, GM_ADDR's spelling: the kernel says what it reads them as with GlobalTensor<T>)."""
        if not self.built.kernel_only:
            return {}
        return {p.name: pointee(p.type) for p in _driver_entry(self.built).params}


def pointee(ctype: str) -> str:
    """`__gm__ const half*` -> "half"; "" for untyped pointers (uint8_t*, void*: GM_ADDR) and non-pointers."""
    words = [w for w in ctype.replace("*", " * ").replace("&", " & ").split()
             if w not in ("__gm__", "const", "volatile", "__restrict__", "__restrict", "struct")]
    if words.count("*") != 1 or words[-1] != "*":
        return ""
    name = " ".join(words[:-1]).removeprefix("AscendC::").removeprefix("::")
    return "" if name in ("uint8_t", "void", "unsigned char", "char") else name


def _gm_binding(name: str, b: Input | Output, pointee_type: str | None) -> GmBinding:
    """The server's view of one binding; a typed parameter's element type is checked here, before the run
    (a GM_ADDR one's when the kernel makes its GlobalTensor<T>: values.Converter.global_)."""
    if isinstance(b, Output):
        g = GmBinding(name, None, b.nbytes, b.dtype, f"{b.path + ': ' if b.path else ''}output {b.dtype} "
                      f"{'x'.join(map(str, b.shape))}", typed_at_run=pointee_type == "")
    else:
        source = b.path or (f"{b.dtype} array" if b.dtype else "bytes")
        g = GmBinding(name, b.data, len(b.data), b.dtype, source, typed_at_run=pointee_type == "")
    if pointee_type and g.dtype:
        try:
            kernel = get_dtype(pointee_type)
        except AscsimError:
            return g  # a pointer to a type ascsim does not know (a struct): nothing to compare with
        if not element_type_fits(g.dtype, kernel):
            raise AscsimError(type_mismatch(f"--gm {name}: {g.describe()}", g.dtype, kernel,
                                            "the parameter is a pointer to"))
    return g


def _warn_unwritten(run: ProgramRun, b: GmBinding, runs: list[tuple[int, int]]) -> None:
    """An output the kernel wrote only in part: a warning naming it and the bytes left (partial writes can
    be intended, so this is not an error; a write past it is, in KernelGlobalMemory)."""
    if not runs:
        return
    left = sum(hi - lo for lo, hi in runs)
    shown = ", ".join(f"[{lo}, {hi})" for lo, hi in runs[:3]) + (f" and {len(runs) - 3} more" if len(runs) > 3
                                                                  else "")
    msg = (f"{b.describe()}: the kernel wrote {b.nbytes - left} of its {b.nbytes} B; bytes {shown} were "
           "never written (they hold the 0xCD marker): bind the output to what the kernel writes, unless a "
           "partial write is what you meant")
    run.warnings.append(msg)
    warnings.warn(msg, BindingWarning, stacklevel=3)


def _check_positive(what: str, v: Any) -> None:
    """A time limit must be a finite number of seconds above 0."""
    if isinstance(v, bool) or not isinstance(v, (int, float, np.integer, np.floating)) or not (
            math.isfinite(v) and v > 0):
        raise AscsimError(f"{what}={v!r}: expected a number of seconds above 0")


def _driver_entry(built: Built) -> Any:
    assert built.entry is not None
    return built.entry


def _decode(raw: bytes, dt: DType, shape: tuple[int, ...]) -> np.ndarray:
    n = int(np.prod(shape))
    return np.asarray(from_bytes(dt, np.frombuffer(raw, dtype=np.uint8), n)).reshape(shape)


def read_input(path: str | Path, what: str = "") -> tuple[bytes, str | None]:
    """A GM input file's bytes and the element type they hold: a .npy array's data and dtype, anything else
    as it is (no dtype: a raw .bin's bytes are not checked against the kernel's types)."""
    p = Path(path)
    try:
        if p.suffix == ".npy":
            arr = np.load(p, allow_pickle=False)
            return np.ascontiguousarray(arr).tobytes(), arr.dtype.name
        return p.read_bytes(), None
    except (OSError, ValueError) as e:
        raise AscsimError(f"--gm {what or path}: cannot read {p}: {e}") from None


#: `--gm NAME=random:DTYPE:SHAPE[:SEED]`: the seed when none is given.
RANDOM_SEED = 0


def random_values(dtype: str | DType, shape: tuple[int, ...], seed: int = RANDOM_SEED) -> np.ndarray:
    """The values of `--gm NAME=random:DTYPE:SHAPE[:SEED]` (docs/cpp.md): numpy's default_rng(SEED) drawing
    integers, uniformly, from [-4, 4] ([0, 8] for unsigned types, [-2, 2] for the 4-bit floats), exact in
    every element type, so a kernel's result is exact too; fp8_e8m0_t (a scale) takes 2^k, k in [-3, 3]."""
    dt = get_dtype(dtype)
    rng = np.random.default_rng(seed)
    if dt.name == "fp8_e8m0_t":
        return np.exp2(rng.integers(-3, 4, shape)).astype(np.float64)
    lo, hi = (0, 8) if dt.kind == "uint" else (-2, 2) if dt.kind == "float" and dt.bits == 4 else (-4, 4)
    return rng.integers(lo, hi + 1, shape).astype(np.float64 if dt.kind == "float" else np.int64)


def _binding(name: str, v: Any) -> Input | Output:
    if isinstance(v, (Input, Output)):
        return v
    if isinstance(v, np.ndarray):
        return Input(np.ascontiguousarray(v).tobytes(), v.dtype.name)
    if isinstance(v, (bytes, bytearray, memoryview)):
        return Input(bytes(v))
    if isinstance(v, (str, Path)):
        return Input(*read_input(v, f"{name}={v}"), str(v))
    raise AscsimError(f"gm[{name!r}]: expected an array, bytes, a file path, Input or Output, but got "
                      f"{type(v).__name__}")


def parse_gm(spec: str) -> tuple[str, Input | Output]:
    """`NAME=FILE` (input: .npy or raw .bin), `NAME=FILE:DTYPE` (input: the file's bytes as DTYPE),
    `NAME=FILE:DTYPE:SHAPE` (output, SHAPE like 32x32 or 16x8x16x16) or `NAME=random:DTYPE:SHAPE[:SEED]`
    (input: `random_values`, deterministic for a SEED, default 0)."""
    form = "NAME=FILE[:DTYPE[:SHAPE]] or NAME=random:DTYPE:SHAPE[:SEED]"
    if "=" not in spec:
        raise AscsimError(f"--gm {spec}: expected {form}")
    name, rest = spec.split("=", 1)
    parts = rest.split(":")
    generated = parts[0] == "random"
    if (len(parts) > (4 if generated else 3) or not name.isidentifier() or not parts[0]
            or (generated and len(parts) < 3)):
        raise AscsimError(f"--gm {spec}: expected {form}")
    path, dtype, shape = parts[0], parts[1] if len(parts) > 1 else None, parts[2] if len(parts) > 2 else None
    if dtype is not None:
        try:
            get_dtype(dtype)
        except AscsimError as e:
            raise AscsimError(f"--gm {spec}: {e}") from None
    dims = _shape(spec, shape) if shape is not None else ()
    if generated:
        try:
            seed = int(parts[3]) if len(parts) > 3 else RANDOM_SEED
        except ValueError:
            seed = -1
        if seed < 0:
            raise AscsimError(f"--gm {spec}: SEED must be an integer >= 0, got {parts[3]!r}")
        assert dtype is not None
        if int(np.prod(dims)) > 1 << 26:
            raise AscsimError(f"--gm {spec}: random inputs are at most {1 << 26} elements")
        data = to_bytes(dtype, random_values(dtype, dims, seed)).tobytes()
        return name, Input(data, get_dtype(dtype).name, rest)
    if shape is not None:
        return name, Output(dtype or "float", dims, path)
    data, file_dtype = read_input(path, spec)
    return name, Input(data, dtype or file_dtype, path)


def _shape(spec: str, text: str) -> tuple[int, ...]:
    try:
        dims = tuple(int(d) for d in text.lower().split("x"))
    except ValueError:
        dims = ()
    if not dims or any(d <= 0 for d in dims) or int(np.prod(dims)) > 1 << 31:
        raise AscsimError(f"--gm {spec}: SHAPE must be positive sizes like 32x32")
    return dims


# -- the child process ---------------------------------------------------------------------------------------


def _child_limits(seconds: float) -> None:  # runs in the program's child process
    """The program's limits; its CPU time a little past its timeout, so a program whose ascsim was killed
    cannot spin on for ever (its blocks run one at a time: CPU time <= wall time)."""
    os.setsid()  # its own process group: a timeout kills everything it started
    cpu = max(1, int(seconds) + CPU_MARGIN)
    for lim, soft, hard in ((resource.RLIMIT_DATA, PROGRAM_MEMORY, PROGRAM_MEMORY),
                            (resource.RLIMIT_STACK, PROGRAM_STACK, PROGRAM_STACK),
                            (resource.RLIMIT_CORE, 0, 0), (resource.RLIMIT_CPU, cpu, cpu + 5)):
        try:
            resource.setrlimit(lim, (soft, hard))
        except (ValueError, OSError):
            pass


def _spawn(built: Built, server: Server, args: list[str], cwd: str | Path | None, timeout: float,
           capture: bool) -> tuple[int, str, str]:
    """Run the program, serving its calls; returns (returncode, stdout, stderr) — the outputs "" unless
    `capture`. Raises ProgramFault for a crash, an exit status other than 0, or the timeout."""
    req_r, req_w = os.pipe()
    rep_r, rep_w = os.pipe()
    chip = built.chip
    env = dict(os.environ)
    env.update({
        "ASCSIM_BRIDGE": f"{req_w},{rep_r}",
        "ASCSIM_GM": f"{server.gm.fd},{server.gm.capacity}",
        "ASCSIM_AIC_NUM": str(chip.aic_cores), "ASCSIM_AIV_NUM": str(chip.aiv_cores),
        **{f"ASCSIM_{k}_SIZE": str(v) for k, v in {"L0A": chip.memory_sizes.get("L0A", 0),
                                                    "L0B": chip.memory_sizes.get("L0B", 0),
                                                    "L0C": chip.memory_sizes.get("L0C", 0),
                                                    "L1": chip.memory_sizes.get("L1", 0),
                                                    "UB": chip.memory_sizes.get("UB", 0)}.items()},
    })
    out_f = tempfile.TemporaryFile() if capture else None
    err_f = tempfile.TemporaryFile() if capture else None
    try:
        proc = subprocess.Popen([built.source.stem, *args], executable=str(built.exe), cwd=cwd, env=env,
                                stdin=subprocess.DEVNULL, stdout=out_f, stderr=err_f,
                                pass_fds=(req_w, rep_r, server.gm.fd),
                                preexec_fn=lambda: _child_limits(timeout))
    except OSError as e:
        for fd in (req_r, req_w, rep_r, rep_w):
            os.close(fd)
        raise ProgramFault(f"{built.source}: cannot start the program: {e.strerror}") from None
    os.close(req_w)
    os.close(rep_r)
    ch = P.Channel(req_r, rep_w)
    ch.deadline = time.monotonic() + timeout
    fault: str | None = None
    try:
        try:
            server.serve(ch)
        except P.Timeout:
            fault = (f"the program ran past its timeout ({timeout:g} s; --timeout)"
                     + (f"; its last call: {server.last_call}" if server.last_call else ""))
        except P.BridgeError as e:
            fault = f"the program broke ascsim's bridge ({e}); last call: {server.last_call or 'none'}"
        if server.error is not None or fault is not None:
            _kill(proc)
        rc = _wait(proc, 10.0)
    finally:
        os.close(req_r)
        os.close(rep_w)
    stdout = _read(out_f)
    stderr = _read(err_f)
    if server.error is not None:
        return rc, stdout, stderr
    if fault is None:
        fault = _fault_of(rc, server, built)
    if fault is not None:
        e = ProgramFault(f"{built.source.name}: {fault}")
        e.stdout, e.stderr = stdout, stderr  # type: ignore[attr-defined]
        raise e
    return rc, stdout, stderr


def _fault_of(rc: int, server: Server, built: Built) -> str | None:
    last = f" after {server.last_call}" if server.last_call else " before its first modelled call"
    if rc == 0:
        return None
    if rc < 0:
        sig = -rc
        try:
            name = signal.Signals(sig).name
        except ValueError:
            name = f"signal {sig}"
        what = {"SIGSEGV": "a crash (SIGSEGV: an invalid memory access)", "SIGBUS": "a crash (SIGBUS)",
                "SIGFPE": "a crash (SIGFPE: an arithmetic error such as a division by zero)",
                "SIGABRT": "an abort (SIGABRT: abort() or a failed assert)",
                "SIGILL": "a crash (SIGILL: an illegal instruction)",
                "SIGKILL": "killed (SIGKILL: out of memory?)",
                "SIGXCPU": "killed (SIGXCPU: its CPU time passed --timeout)"}.get(name, f"killed by {name}")
        where = ""
        if server.fault is not None and name in ("SIGSEGV", "SIGBUS"):
            addr = server.fault[1]
            off = addr - server.gm_base
            if 0 <= off < server.gm.capacity:
                name_ = server.conv.unbound_param(off) if server.conv is not None else ""
                where = (f" at GM address {off}, " + (f"in unbound kernel parameter '{name_}' (give it with "
                                                      f"--gm {name_}=FILE)" if name_ else
                                                      "outside every GM allocation"))
            else:
                where = f" at address 0x{addr:x}"
        block = f" in block {server.fault[2]}" if server.fault is not None and server.fault[2] >= 0 else ""
        return f"the program ended with {what}{where}{block}{last}"
    if rc == P.QUIT_STATUS:  # the engine told it to stop (and said why), or its runtime could not go on
        if server.stopped:
            return None
        return (f"the program exited with status {rc}, the status ascsim's runtime stops it with when it "
                f"cannot go on (its reason is above){last}")
    return f"the program exited with status {rc}{last}"


def _kill(proc: subprocess.Popen) -> None:
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        proc.kill()


def _wait(proc: subprocess.Popen, seconds: float) -> int:
    try:
        return proc.wait(seconds)
    except subprocess.TimeoutExpired:
        _kill(proc)
        return proc.wait()


def _read(f: Any) -> str:
    if f is None:
        return ""
    f.seek(0)
    data = f.read()
    f.close()
    return data.decode("utf-8", "replace")


# -- loading -------------------------------------------------------------------------------------------------


def load_program(path: str | Path, chip: str = "a2", *, includes: Sequence[str] = (),
                 defines: Mapping[str, str] | None = None, compile_timeout: float = 600.0,
                 name: str | None = None) -> Program:
    """Build a program with a `main` (cached by content) for `chip`; `name` is how messages name the file."""
    _check_positive("compile_timeout", compile_timeout)
    return Program(_build(path, chip, includes=list(includes), defines=dict(defines or {}),
                          timeout=compile_timeout), name)


def load_kernel(path: str | Path, chip: str = "a2", defines: Mapping[str, str] | None = None, *,
                entry: str | None = None, template: Mapping[str, Any] | None = None,
                includes: Sequence[str] = (), compile_timeout: float = 600.0, name: str | None = None
                ) -> Program:
    """Build a kernel-only file (its `__global__` entry driven by ascsim: `run(gm=...)` binds its GM
    pointer parameters by name). `template` gives the entry's template arguments (ints, bools, type names).
    A file with a `main` is built as a program (`run(args=...)`). `name` is how messages name the file."""
    _check_positive("compile_timeout", compile_timeout)
    drv = Driver(entry, {k: _template_text(v) for k, v in (template or {}).items()}, required=False)
    built = _build(path, chip, includes=list(includes), defines=dict(defines or {}), driver=drv,
                   timeout=compile_timeout)
    return Program(built, name)


def _build(path: str | Path, chip: str, **how: Any) -> Built:
    """`build`, with a progress line while it takes long (a big template library compiles for tens of
    seconds; the first build on a machine also builds the compiler's libc++)."""
    with Progress(f"building {Path(path).name}"):
        return build(path, get_chip(chip), **how)


def _template_text(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (int, np.integer)):
        return str(int(v))
    if isinstance(v, str) and v.strip():
        return v.strip()
    raise AscsimError(f"template value {v!r}: give an int, a bool or a type name")


_ = sys
