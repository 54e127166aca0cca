"""The API fuzz harness (issue 9 item 5): run one generated call and check the four invariants.

A `Case` is a replayable call: `setup(core)` builds the operands (tensors, register state) on a fresh Core
and must not change anything the call is judged on afterwards; `call(core, env)` is what a user writes
(construct the structs, call the instruction). Every case runs twice:

1. **warm**: on a fresh Core while the module-wide caches (`ascsim.engine.boundary.CALLS`,
                                                           `ascsim.engine.cache.PLANS` and
   every `functools.lru_cache` of ascsim) hold whatever earlier cases left there;
2. **cold**: on another fresh Core with those caches emptied (and restored afterwards, so later warm runs
   keep meeting the products of earlier calls — that is how a cache key that confuses two values shows).

Each run must satisfy
(a) only AscsimError subclasses escape (NotImplementedFeature is one);
(b) after an error nothing changed: every on-chip memory byte, the GM bytes around every GM operand, and
    every field of `core.regs`;
(c) after a success every changed byte lies in an allowed destination range of the case (the destination
    operand or its documented second destination) and only the register fields the case names changed —
    unless a HazardWarning was issued;
and (d) the two runs agree: the same error class and message, or the same bytes and registers.
An error must also come back quickly (`SLOW_REJECTION` seconds: an extent checked arithmetically, not
after building a plan).

`Stats` counts what ran per family; `ASCSIM_FUZZ_REPORT=path.json` writes the counts at the end of the
session (tests/README.md, "Fuzzing").
"""

from __future__ import annotations

import json
import os
import sys
import time
import traceback
import tracemalloc
import warnings
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

import numpy as np

import ascsim
from ascsim import Core
from ascsim.base.errors import AscsimError, HazardWarning
from ascsim.engine.boundary import CALLS
from ascsim.engine.cache import PLANS
from ascsim.machine.memory import LocalTensor

#: Seconds an error may take (issue 9 asks for ~10 ms; the bound leaves room for a loaded CI machine).
SLOW_REJECTION = float(os.environ.get("ASCSIM_FUZZ_SLOW", "2.0"))
#: Bytes a rejected call may allocate on the way (issue 9: "a few MB"; measured with tracemalloc, which sees
#: numpy's buffers too).
HUGE_REJECTION = int(os.environ.get("ASCSIM_FUZZ_HUGE", str(16 << 20)))
#: GM bytes compared on each side of every GM operand (GM itself is a 64 GiB lazily committed mapping).
GM_MARGIN = 1 << 14

Range = tuple[str, int, int]  # (memory name, first byte, end byte)


@dataclass
class Case:
    """One generated call (see the module docstring). `dests(env)` lists the byte ranges the call may
    write; `regs` names the `core.regs` fields it may write."""

    family: str
    chip: str
    text: list[str]
    setup: Callable[[Core], dict]
    call: Callable[[Core, dict], object]
    dests: Callable[[dict], Iterable[Range]] = lambda env: ()
    regs: tuple[str, ...] = ()
    strict: bool = False
    values: dict = field(default_factory=dict)  # the slot values `setup` / `call` read (shared dict)
    twin: dict = field(default_factory=dict)  # slot -> original value: run the original first (priming)

    def describe(self) -> str:
        return f"[{self.family} on {self.chip}{', strict' if self.strict else ''}] " + "; ".join(self.text)


@dataclass
class Outcome:
    error: tuple[str, str] | None
    mems: dict[str, np.ndarray]
    gm: list[tuple[int, np.ndarray]]
    regs: dict
    hazards: list[str]
    seconds: float
    setup_error: bool = False
    peak: int = 0  # bytes allocated at most during the call (measured on the cold run)


class Finding(AssertionError):
    """An invariant broken by a case (the message names family, chip, input and what broke); `signature`
    groups findings with one root (check, exception, where)."""

    def __init__(self, msg: str, signature: str = "") -> None:
        super().__init__(msg)
        self.signature = signature or msg.split("] ", 1)[-1][:120]


@dataclass
class Stats:
    calls: Counter = field(default_factory=Counter)
    ok: Counter = field(default_factory=Counter)
    errors: dict = field(default_factory=lambda: defaultdict(Counter))
    hazards: Counter = field(default_factory=Counter)
    slowest_error: dict = field(default_factory=lambda: defaultdict(float))
    findings: dict = field(default_factory=lambda: defaultdict(dict))  # family -> signature -> [n, example]
    messages: dict = field(default_factory=lambda: defaultdict(Counter))  # family -> message start -> n
    slowest_message: dict = field(default_factory=dict)
    peak: Counter = field(default_factory=Counter)  # family -> the largest allocation of a rejected call
    peak_message: dict = field(default_factory=dict)

    def record(self, family: str, out: Outcome) -> None:
        self.calls[family] += 1
        if out.error is None:
            self.ok[family] += 1
        else:
            self.errors[family][out.error[0]] += 1
            if out.seconds > self.slowest_error[family]:
                self.slowest_message[family] = out.error[1][:200]
            self.messages[family][out.error[1][:70]] += 1
            self.slowest_error[family] = max(self.slowest_error[family], out.seconds)
        if out.hazards:
            self.hazards[family] += 1

    def found(self, family: str, e: Finding) -> None:
        hit = self.findings[family].setdefault(e.signature, [0, str(e)[:2000]])
        hit[0] += 1

    def as_dict(self) -> dict:
        return {
            f: {
                "calls": n,
                "ok": self.ok[f],
                "hazard_warnings": self.hazards[f],
                "errors": dict(self.errors[f]),
                "slowest_error_s": round(self.slowest_error[f], 4),
                "slowest_error": self.slowest_message.get(f, ""),
                "largest_rejection_alloc_MiB": round(self.peak[f] / 2**20, 2),
                "largest_rejection": self.peak_message.get(f, ""),
                "findings": self.findings.get(f, {}),
                "top_errors": dict(self.messages[f].most_common(8)),
            }
            for f, n in sorted(self.calls.items())
        }


STATS = Stats()


def write_report() -> None:
    path = os.environ.get("ASCSIM_FUZZ_REPORT")
    if path and STATS.calls:
        with open(path, "w") as f:
            json.dump(STATS.as_dict(), f, indent=1, sort_keys=True)


# -- caches --------------------------------------------------------------------------------------------


_LRU: tuple[int, list] = (0, [])


def _lru_caches() -> list:
    """Every functools cache of ascsim's loaded modules (recomputed when more modules were imported)."""
    global _LRU
    if _LRU[0] == len(sys.modules):
        return _LRU[1]
    out = []
    for name, mod in list(sys.modules.items()):
        if not name.startswith("ascsim") or mod is None:
            continue
        for obj in vars(mod).values():
            if callable(getattr(obj, "cache_clear", None)) and getattr(obj, "__module__", "") == name:
                out.append(obj)
    _LRU = (len(sys.modules), out)
    return out


class cold_caches:  # noqa: N801 - used as a context manager
    """Empty the module-wide caches for the block, then put their old contents back."""

    def __enter__(self) -> None:
        self.saved = [(c, dict(c._d), c.nbytes) for c in (CALLS, PLANS)]
        for c in (CALLS, PLANS):
            c.clear()
        for fn in _lru_caches():
            fn.cache_clear()

    def __exit__(self, *exc: object) -> None:
        for c, d, n in self.saved:
            c._d.clear()  # keep the dict object: ascsim.engine.boundary reads it through an alias
            c._d.update(d)
            c.nbytes = n


# -- one run -------------------------------------------------------------------------------------------


def _gm_regions(core: Core, env: dict) -> list[tuple[int, int]]:
    if core._gm is None:
        return []
    size = core.gm.size
    spans = sorted(
        (max(0, t.offset - GM_MARGIN), min(size, t.offset + t.nbytes + GM_MARGIN))
        for t in _tensors(env)
        if t.memory is core._gm
    )
    merged: list[list[int]] = []
    for a, b in spans:
        if merged and a <= merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], b)
        else:
            merged.append([a, b])
    return [(a, b) for a, b in merged]


def _tensors(env: dict) -> Iterable[LocalTensor]:
    for v in env.values():
        if isinstance(v, LocalTensor) and v.memory is not None:
            yield v


def _snapshot(core: Core, regions: list[tuple[int, int]]) -> tuple[dict, list, dict]:
    mems = {n: m.data.copy() for n, m in core.memories.items()}
    gm = [(a, core.gm.data[a:b].copy()) for a, b in regions]
    return mems, gm, dict(vars(core.regs))


def _where(e: BaseException) -> str:
    """file:line of the innermost ascsim frame of an exception (else the innermost frame)."""
    frames = traceback.extract_tb(e.__traceback__)
    mine = [f for f in frames if "/ascsim/" in f.filename.replace("\\", "/")]
    f = (mine or frames)[-1]
    path = f.filename.replace("\\", "/")
    path = path[path.rfind("/ascsim/") + 1 :] if "/ascsim/" in path else os.path.basename(path)
    return f"{path}:{f.lineno}"


def run_once(case: Case, core: Core, measure: bool = False) -> Outcome:
    """Build, snapshot, call, snapshot; checks (a), (b), (c), and the time (and, with `measure`, the peak
    Python / numpy allocation) of a rejection."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            env = case.setup(core)
    except AscsimError as e:  # the operands themselves are refused (a tensor outside its memory, ...)
        return Outcome((type(e).__name__, str(e)), {}, [], {}, [], 0.0, setup_error=True)
    except Exception as e:  # noqa: BLE001 - any other exception is a finding
        raise Finding(
            f"{case.describe()}: setup raised {type(e).__name__}: {e} at {_where(e)}",
            f"setup {type(e).__name__} at {_where(e)}",
        ) from e
    regions = _gm_regions(core, env)
    mems0, gm0, regs0 = _snapshot(core, regions)
    error = None
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        if measure:
            tracemalloc.start()
        t0 = time.process_time()
        try:
            case.call(core, env)
        except AscsimError as e:
            error = (type(e).__name__, str(e))
        except Exception as e:  # noqa: BLE001 - (a)
            raise Finding(
                f"{case.describe()}: (a) non-AscsimError {type(e).__name__}: {e} at {_where(e)}",
                f"(a) {type(e).__name__} at {_where(e)}",
            ) from e
        finally:
            seconds = time.process_time() - t0
            peak = tracemalloc.get_traced_memory()[1] if measure else 0
            if measure:
                tracemalloc.stop()
    hazards = [str(w.message) for w in caught if issubclass(w.category, HazardWarning)]
    mems1, gm1, regs1 = _snapshot(core, regions)
    out = Outcome(error, mems1, gm1, regs1, hazards, seconds, peak=peak)
    if error is not None:
        if seconds > SLOW_REJECTION and _retime(case) > SLOW_REJECTION:
            raise Finding(
                f"{case.describe()}: slow rejection: {error[0]} after {seconds:.2f} s: {error[1]}",
                f"slow {error[0]}: {error[1][:60]}",
            )
        if peak > HUGE_REJECTION:
            raise Finding(
                f"{case.describe()}: huge rejection: {error[0]} after allocating {peak >> 20} MiB: "
                f"{error[1]}",
                f"huge {error[0]}: {error[1][:60]}",
            )
        _check_unchanged(case, error, mems0, mems1, gm0, gm1, regs0, regs1)
    elif not hazards:
        _check_in_span(case, env, mems0, mems1, gm0, gm1, regs0, regs1)
    return out


def _retime(case: Case) -> float:
    """Seconds the call takes again, on a fresh Core with cold caches: a slow rejection is reported only
    when it repeats (a loaded machine can stall any single call)."""
    with cold_caches(), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        core = Core(case.chip, strict=case.strict)
        env = case.setup(core)
        t0 = time.process_time()
        try:
            case.call(core, env)
        except AscsimError:
            pass
        return time.process_time() - t0


def _first_diff(a: np.ndarray, b: np.ndarray) -> tuple[int, int]:
    d = np.flatnonzero(a != b)
    return int(d[0]), int(d.size)


def _check_unchanged(case: Case, error, mems0, mems1, gm0, gm1, regs0, regs1) -> None:
    """(b) atomicity: a refused call changed nothing."""
    why = f"although the call raised {error[0]}: {error[1]}"
    for name, a in mems0.items():
        if not np.array_equal(a, mems1[name]):
            i, n = _first_diff(a, mems1[name])
            raise Finding(
                f"{case.describe()}: (b) {n} byte(s) of {name} changed (first 0x{i:x}) {why}",
                f"(b) {name} changed after {error[0]}",
            )
    for (start, a), (_, b) in zip(gm0, gm1, strict=True):
        if not np.array_equal(a, b):
            i, n = _first_diff(a, b)
            raise Finding(
                f"{case.describe()}: (b) {n} GM byte(s) changed (first 0x{start + i:x}) {why}",
                f"(b) GM changed after {error[0]}",
            )
    changed = [k for k in regs0 if regs0[k] != regs1.get(k)]
    if changed:
        raise Finding(
            f"{case.describe()}: (b) register(s) {changed} changed {why}",
            f"(b) registers {changed} changed after {error[0]}",
        )


def _check_in_span(case: Case, env: dict, mems0, mems1, gm0, gm1, regs0, regs1) -> None:
    """(c) every changed byte lies in an allowed destination range (no HazardWarning was issued)."""
    allowed: dict[str, list[tuple[int, int]]] = defaultdict(list)
    for mem, a, b in case.dests(env):
        allowed[mem].append((a, b))

    def check(mem: str, idx: np.ndarray) -> None:
        if not idx.size:
            return
        ok = np.zeros(idx.size, dtype=bool)
        for a, b in allowed.get(mem, ()):
            ok |= (idx >= a) & (idx < b)
        if not ok.all():
            bad = idx[~ok]
            raise Finding(
                f"{case.describe()}: (c) {bad.size} byte(s) of {mem} written outside the "
                f"destination(s) {allowed.get(mem, [])} without a HazardWarning, first 0x{bad[0]:x}",
                f"(c) {mem} written outside the destination",
            )

    for name, a in mems0.items():
        check(name, np.flatnonzero(a != mems1[name]))
    for (start, a), (_, b) in zip(gm0, gm1, strict=True):
        check("GM", start + np.flatnonzero(a != b))
    changed = [k for k in regs0 if regs0[k] != regs1.get(k) and k not in case.regs]
    if changed:
        raise Finding(
            f"{case.describe()}: (c) register(s) {changed} changed; the call may write "
            f"{list(case.regs) or 'none'}",
            f"(c) registers {changed} changed",
        )


# -- the two runs ----------------------------------------------------------------------------------------


def prime(case: Case) -> None:
    """Run the case with its twin slots set back to their original values (outcome ignored), so the warm
    run meets whatever the caches made of the original: a key that confuses the twins shows as (d)."""
    saved = dict(case.values)
    case.values.update(case.twin)
    try:
        core = Core(case.chip, strict=case.strict)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            case.call(core, case.setup(core))
    except Exception:  # noqa: BLE001, S110 - the original is judged by its own cases
        pass
    finally:
        case.values.clear()
        case.values.update(saved)


def check_case(case: Case) -> Outcome:
    """(priming,) warm run, cold run, (d) agreement; records the warm outcome in STATS."""
    if case.twin:
        prime(case)
    warm = run_once(case, Core(case.chip, strict=case.strict))
    with cold_caches():
        cold = run_once(case, Core(case.chip, strict=case.strict), measure=True)
    STATS.record(case.family, warm)
    if cold.error is not None and cold.peak > STATS.peak[case.family]:
        STATS.peak[case.family] = cold.peak
        STATS.peak_message[case.family] = cold.error[1][:200]
    if warm.error != cold.error:
        raise Finding(
            f"{case.describe()}: (d) warm and cold runs differ: warm "
            f"{warm.error or 'succeeded'}, cold {cold.error or 'succeeded'}",
            f"(d) warm {warm.error[0] if warm.error else 'ok'} vs cold "
            f"{cold.error[0] if cold.error else 'ok'}",
        )
    if warm.error is None:
        for name, a in warm.mems.items():
            if not np.array_equal(a, cold.mems[name]):
                i, n = _first_diff(a, cold.mems[name])
                raise Finding(
                    f"{case.describe()}: (d) {n} byte(s) of {name} differ warm vs cold "
                    f"(first 0x{i:x}: 0x{a[i]:02x} vs 0x{cold.mems[name][i]:02x})",
                    f"(d) {name} bytes differ warm vs cold",
                )
        for (start, a), (_, b) in zip(warm.gm, cold.gm, strict=True):
            if not np.array_equal(a, b):
                i, n = _first_diff(a, b)
                raise Finding(
                    f"{case.describe()}: (d) {n} GM byte(s) differ warm vs cold (first 0x{start + i:x})",
                    "(d) GM bytes differ warm vs cold",
                )
        if warm.regs != cold.regs:
            diff = [k for k in warm.regs if warm.regs[k] != cold.regs.get(k)]
            raise Finding(
                f"{case.describe()}: (d) registers {diff} differ warm vs cold",
                f"(d) registers {diff} differ warm vs cold",
            )
    return warm


__all__ = [
    "Case",
    "Outcome",
    "Finding",
    "STATS",
    "check_case",
    "run_once",
    "cold_caches",
    "write_report",
    "ascsim",
]
