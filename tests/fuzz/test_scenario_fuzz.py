"""Scenario-file fuzzing through the command line (issue 9, "What to build" 3 and 5).

Every example scenario in examples/ is mutated the way a careless or hostile user would mutate it — byte
flips, truncation, a field's value swapped for another type, huge integers, deep nesting, path injection
in `save` / `--save`, bad `.npy` inputs, odd top levels and odd `--out` folders — and run through
`ascsim.cli.main([...])` in-process (two cases also through a real `python -m ascsim` subprocess). Each
run must:

* exit 0 or 2 (never raise, never a traceback);
* on exit 2, write exactly one `ascsim: ` line to stderr (any other stderr line is a one-line
  `warning: FILE: ...`), and on exit 0 only `warning:` lines;
* leak no Python warning (every warning is turned into a `warning:` line);
* write no file outside `--out` (every file created in the sandbox is checked);
* finish within `PER_RUN_SECONDS`.

The reference is the contract itself (issue 9's acceptance list), not ascsim's output.

Budget: `ASCSIM_FUZZ_BUDGET` mutated files (default 120, a few seconds); see tests/README.md for the
long run. A failing case prints its (example, mutation, seed): `one_case` replays it.
"""

from __future__ import annotations

import contextlib
import io
import json
import math
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time
import warnings
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from support.paths import EXAMPLES, SRC

from ascsim.cli import main
from ascsim.scenario import tomllib

FILES = sorted(EXAMPLES.glob("*.toml"))
BUDGET = int(os.environ.get("ASCSIM_FUZZ_BUDGET", "120"))
PER_RUN_SECONDS = float(os.environ.get("ASCSIM_FUZZ_SECONDS", "20"))

# -- writing a parsed scenario back as TOML or JSON ------------------------------------------------------

_BARE = re.compile(r"^[A-Za-z0-9_-]+$")


def _toml_str(s: str) -> str:
    # JSON's escapes are valid TOML basic-string escapes; TOML also wants DEL escaped
    return json.dumps(s, ensure_ascii=False).replace("\x7f", "\\u007f")


def _toml_value(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        return "nan" if math.isnan(v) else ("inf" if v > 0 else "-inf") if math.isinf(v) else repr(v)
    if isinstance(v, str):
        return _toml_str(v)
    if isinstance(v, list):
        return "[" + ", ".join(_toml_value(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{" + ", ".join(f"{_toml_key(k)} = {_toml_value(x)}" for k, x in v.items()) + "}"
    raise TypeError(v)  # None: TOML has no null (_emit writes JSON then)


def _toml_key(k: str) -> str:
    return k if _BARE.match(k) else _toml_str(k)


def to_toml(raw: dict) -> str:
    """One `key = value` line per top-level key; tables and arrays inline (TOML 1.0)."""
    return "".join(f"{_toml_key(k)} = {_toml_value(v)}\n" for k, v in raw.items())


def _json_only(v: Any) -> bool:
    """Does v hold what only JSON can say: null, or a lone surrogate escape ("\\ud800")?"""
    if v is None or isinstance(v, str) and any(0xD800 <= ord(c) <= 0xDFFF for c in v):
        return True
    if isinstance(v, dict):
        return any(_json_only(k) or _json_only(x) for k, x in v.items())
    if isinstance(v, list):
        return any(_json_only(x) for x in v)
    return False


# -- mutations ---------------------------------------------------------------------------------------------


@dataclass
class Case:
    """One mutated input: the scenario file's bytes, its suffix, extra files next to it, CLI arguments."""

    text: bytes
    suffix: str = ".toml"
    extra: dict[str, bytes] = field(default_factory=dict)  # name -> bytes, written beside the scenario
    args: list[str] = field(default_factory=list)  # extra `run` arguments (e.g. --save NAME)
    command: str = "run"
    quiet: bool = True  # run -q (without: the per-step summaries and reading notes are printed too)
    out: str = "out"  # --out, relative to the sandbox root
    note: str = ""


def _paths(v: Any, here: tuple = ()) -> list[tuple]:
    """Every node's path (dict keys / list indices), the root excluded."""
    out = []
    if isinstance(v, dict):
        for k, x in v.items():
            out.append((*here, k))
            out.extend(_paths(x, (*here, k)))
    elif isinstance(v, list):
        for i, x in enumerate(v):
            out.append((*here, i))
            out.extend(_paths(x, (*here, i)))
    return out


def _get(v: Any, path: tuple) -> Any:
    for p in path:
        v = v[p]
    return v


def _set(v: Any, path: tuple, value: Any) -> None:
    _get(v, path[:-1])[path[-1]] = value


HUGE = [2**15, 2**16, 2**31, 2**32, 2**40, 2**63 - 1, 2**63, 2**64, 2**64 + 1, 2**100, 10**300, -1, -2**63,
        -2**63 - 1, -2**100, 10**4000]
POOL: list[Any] = [None, True, False, 0, 1, 3, -1, 255, 65536, 0.5, -0.0, 1e308, float("nan"), float("inf"),
                   -float("inf"), "", "x", "A1", "GM", "half", "int8_t", "LoadData", "fmap", "../x", "\u00e9",
                   "\ud800",
                   [], [1], [1, 2, 3, 4], ["a"], [[1]], [1.5], [True], {}, {"x": 1},
                   {"type": "MmadParams"}, {"type": "LoadData3DParamsV2"}, {"tensor": "x", "index": 3},
                   {"npy": "data/missing.npy"}, {"random": 3}, {"values": [1, 2]}, {"fill": 1e10}, *HUGE]


def _pick_value(r: random.Random, raw: dict) -> Any:
    """A value from the pool, or a copy of another node of the same file (realistic type confusion)."""
    if r.random() < 0.3:
        nodes = _paths(raw)
        if nodes:
            return json.loads(json.dumps(_get(raw, r.choice(nodes))))
    return r.choice(POOL)


BOUNDARY_INTS = [0, 1, -1, 2, 15, 16, 17, 31, 32, 63, 64, 255, 256, 4095, 65535, 65536, 2**31 - 1, 2**32 - 1,
                 2**63 - 1, -2**63]
ODD_FLOATS = [float("nan"), float("inf"), -float("inf"), -0.0, 5e-324, 65504.0, 65520.0, 1e10, -1e300, 0.1]


def mut_value(r: random.Random, text: bytes, raw: dict) -> Case:
    """Numbers kept the right type but moved to boundary values: these pass the file's schema and reach
    the instruction calls."""
    nums = [p for p in _paths(raw) if type(_get(raw, p)) in (int, float, bool)]
    for _ in range(r.randint(1, 3)):
        if not nums:
            break
        p = r.choice(nums)
        v = _get(raw, p)
        _set(raw, p, r.choice(ODD_FLOATS) if type(v) is float else (not v) if type(v) is bool
             else r.choice(BOUNDARY_INTS))
    return Case(*_emit(r, raw))


def _emit(r: random.Random, raw: Any, force_json: bool = False) -> tuple[bytes, str]:
    if force_json or not isinstance(raw, dict) or _json_only(raw) or r.random() < 0.35:
        return json.dumps(raw).encode(), ".json"
    return to_toml(raw).encode(), ".toml"


def mut_byte_flip(r: random.Random, text: bytes, raw: dict) -> Case:
    b = bytearray(text)
    for _ in range(r.randint(1, 8)):
        b[r.randrange(len(b))] = r.randrange(256)
    return Case(bytes(b))


def mut_truncate(r: random.Random, text: bytes, raw: dict) -> Case:
    return Case(text[: r.randrange(len(text))])


ODD_KEYS = ["", "a\nb", "a\rb", "x\u2028y", "\x85", " ", "[0]", "a.b", "\u00e9", "\udcff", "type", "../k"]


def mut_type_swap(r: random.Random, text: bytes, raw: dict) -> Case:
    for _ in range(r.randint(1, 3)):
        path = r.choice(_paths(raw))
        value = _pick_value(r, raw)
        parent = _get(raw, path[:-1])
        roll = r.random()
        if roll < 0.1:  # delete the field
            del parent[path[-1]]
        elif roll < 0.2 and isinstance(parent, dict):  # rename it
            parent[r.choice(ODD_KEYS)] = parent.pop(path[-1])
        else:
            _set(raw, path, value)
    return Case(*_emit(r, raw))


SIZES = ("length", "offset", "shape", "index", "value", "seed", "low", "high", "fill", "values")


def mut_huge_int(r: random.Random, text: bytes, raw: dict) -> Case:
    for _ in range(r.randint(1, 2)):
        ints = [p for p in _paths(raw) if type(_get(raw, p)) is int] or _paths(raw)
        sizes = [p for p in _paths(raw) if any(k in SIZES for k in p)]
        if sizes and r.random() < 0.5:  # sizes and values of tensors: where allocations come from
            ints = sizes
        _set(raw, r.choice(ints), r.choice(HUGE))
    return Case(*_emit(r, raw))


def mut_deep(r: random.Random, text: bytes, raw: dict) -> Case:
    depth = r.choice([40, 200, 900, 3000, 100_000])
    inner = r.choice(["[", "{"])
    nest = ("[" * depth + "]" * depth) if inner == "[" else ('{"a": ' * depth + "1" + "}" * depth)
    path = r.choice(_paths(raw))
    marker = "__DEEP__"
    _set(raw, path, marker)
    body, suffix = _emit(r, raw, force_json=inner == "{" or r.random() < 0.5)
    if suffix == ".toml":
        nest = "[" * depth + "]" * depth if inner == "[" else "{a = " * depth + "1" + "}" * depth
    return Case(body.replace(json.dumps(marker).encode(), nest.encode(), 1), suffix)


def _injections(root: str) -> list[str]:
    return ["../x.npy", "../../x.npy", "../../../x.npy", "sub/../../x.npy", f"{root}/abs/x.npy", "/abs.npy",
            "", ".", "..", "x", "sub/x.npy", "sub/deeper/x.npy", "a\x00b.npy", "~/x.npy", "x" * 300 + ".npy",
            "out.npz", "./y.npy", "sub/", "\\..\\x.npy", "data", "..npy", "..\u2215x.npy", "\udcff.npy"]


def mut_save(r: random.Random, text: bytes, raw: dict, root: str) -> Case:
    tensors = list(raw.get("tensors", {})) or ["x"]
    raw["save"] = {r.choice(tensors): r.choice(_injections(root)) for _ in range(r.randint(1, 3))}
    if r.random() < 0.5:
        return Case(*_emit(r, raw))
    # a tensor renamed to an escaping name, saved with --save NAME
    name = r.choice(["../evil", "../../evil", f"{root}/abs/evil", "sub/evil", "..", ".", "", "a/../../evil"])
    old = r.choice(tensors)
    raw["tensors"] = {(name if k == old else k): v for k, v in raw.get("tensors", {}).items()}
    raw.pop("save", None)
    body, suffix = _emit(r, json.loads(json.dumps(raw).replace(json.dumps(old), json.dumps(name))))
    return Case(body, suffix, args=["--save", name])


def _npy_bytes(arr: np.ndarray) -> bytes:
    buf = io.BytesIO()
    np.save(buf, arr, allow_pickle=True)
    return buf.getvalue()


def mut_npy(r: random.Random, text: bytes, raw: dict) -> Case:
    tensors = raw.get("tensors") or {}
    if not tensors:
        return mut_type_swap(r, text, raw)
    name = r.choice(list(tensors))
    spec = tensors[name] if isinstance(tensors[name], dict) else {}
    n = spec.get("length") if isinstance(spec.get("length"), int) else None
    if n is None and isinstance(spec.get("shape"), list):
        n = math.prod(x for x in spec["shape"] if isinstance(x, int))
    n = max(1, min(n or 16, 1 << 20))
    good = _npy_bytes(np.arange(n, dtype=np.float32) % 7)
    kind = r.choice(["truncated", "empty", "object", "complex", "strings", "structured", "too_big",
                     "too_small", "fortran", "scalar", "garbage", "header_lie", "int64_huge", "bool",
                     "float16", "nan", "v2", "dir", "missing", "datetime"])
    blob = {
        "truncated": good[: r.randrange(1, len(good))],
        "empty": b"",
        "object": _npy_bytes(np.array([{"a": 1}] * n, dtype=object)),
        "complex": _npy_bytes(np.ones(n, dtype=np.complex64) * (1 + 2j)),
        "strings": _npy_bytes(np.array(["ab"] * n)),
        "structured": _npy_bytes(np.zeros(n, dtype=[("a", "<i4"), ("b", "<f4")])),
        "too_big": _npy_bytes(np.zeros(n * 1000 + 1, dtype=np.float32)),
        "too_small": _npy_bytes(np.zeros(max(0, n - 1), dtype=np.float32)),
        "fortran": _npy_bytes(np.asfortranarray(np.arange(n * 2, dtype=np.float32).reshape(n, 2)[:, :1])),
        "scalar": _npy_bytes(np.float32(1.0)),
        "garbage": bytes(r.randrange(256) for _ in range(200)),
        "header_lie": good.replace(f"({n},)".encode(), b"(99999999999,)", 1),
        "int64_huge": _npy_bytes(np.full(n, 2**62, dtype=np.int64)),
        "bool": _npy_bytes(np.ones(n, dtype=bool)),
        "float16": _npy_bytes(np.ones(n, dtype=np.float16)),
        "nan": _npy_bytes(np.full(n, np.nan)),
        "v2": b"\x93NUMPY\x02\x00" + good[8:],
        "datetime": _npy_bytes(np.zeros(n, dtype="datetime64[s]")),
        "dir": b"",
        "missing": b"",
    }[kind]
    extra = {} if kind in ("dir", "missing") else {"bad.npy": blob}
    target = {"dir": "data", "missing": "nope.npy"}.get(kind, "bad.npy")
    spec = dict(spec)
    spec["init"] = {"npy": target}
    tensors[name] = spec
    body, suffix = _emit(r, raw)
    return Case(body, suffix, extra=extra, note=kind)


def mut_top_level(r: random.Random, text: bytes, raw: dict) -> Case:
    body = r.choice([b"3", b"null", b"[1, 2]", b'"chip"', b"true", b"[[1]]", b"[{}]", b"{}", b"",
                     b"\xef\xbb\xbf{}", b"1e999", b"[" * 5000, b"-" + b"9" * 5000])
    return Case(body, ".json") if r.random() < 0.8 else Case(body, ".toml")


def mut_out(r: random.Random, text: bytes, raw: dict) -> Case:
    """Odd --out folders: missing (nested), a file, empty name; plus odd CLI arguments."""
    choice = r.choice(["missing/deeper/out", "afile", "out/../out2", "scen/case.toml", "step", "save"])
    if choice == "step":
        return Case(text, command="explain", args=["--step", str(r.choice([-1, 2**63, 10**30, 99]))])
    if choice == "save":
        return Case(text, args=["--save", *r.sample(["nope", "", "../x", "-", "x" * 400], 2)])
    return Case(text, out=choice, extra={"afile": b"x"} if choice == "afile" else {})


KINDS = {"byte_flip": mut_byte_flip, "truncate": mut_truncate, "type_swap": mut_type_swap,
         "huge_int": mut_huge_int, "deep": mut_deep, "save": mut_save, "npy": mut_npy,
         "top_level": mut_top_level, "out": mut_out, "value": mut_value}


def make_case(example: Path, kind: str, seed: int, root: Path) -> Case:
    r = random.Random(seed)
    text = example.read_bytes()
    raw = tomllib.loads(text.decode())
    if kind == "save":
        case = mut_save(r, text, raw, str(root))
    else:
        case = KINDS[kind](r, text, raw)
    if case.command == "run" and r.random() < 0.1:
        case.command = "cpp"
    case.quiet = r.random() < 0.8
    return case


# -- running one case in a sandbox -------------------------------------------------------------------------


@dataclass
class Outcome:
    rc: int | None
    stdout: str
    stderr: str
    seconds: float
    leaked_warnings: list[str]
    raised: str | None  # a traceback, if main raised
    escaped: list[str]  # files created outside --out


def _snapshot(root: Path) -> set[str]:
    """Every file (not folder: `--out a/../b` may create `a` on the way) under root."""
    return {str(p) for p in root.rglob("*") if not p.is_dir() or p.is_symlink()} if root.exists() else set()


def run_case(case: Case, base: Path) -> Outcome:
    """Write the case under base/a/b/c (so `..` escapes stay inside `base`), run main, diff the tree."""
    root = base / "a" / "b" / "c"
    scen = root / "scen"
    scen.mkdir(parents=True)
    (scen / "data").symlink_to(EXAMPLES / "data", target_is_directory=True)
    for name, blob in case.extra.items():
        (root / name if name == "afile" else scen / name).write_bytes(blob)
    path = scen / f"case{case.suffix}"
    path.write_bytes(case.text)
    out = root / case.out
    before = _snapshot(base)
    argv = [case.command, str(path)]
    if case.command == "run":
        argv += ["-q"] * case.quiet + ["--out", str(out)]
    argv += case.args
    o, e = io.StringIO(), io.StringIO()
    raised = None
    t0 = time.process_time()
    with warnings.catch_warnings(record=True) as leaked, contextlib.redirect_stdout(o), \
            contextlib.redirect_stderr(e):
        warnings.simplefilter("always")
        try:
            rc: int | None = main(argv)
        except SystemExit as exc:  # argparse
            rc = exc.code if isinstance(exc.code, int) else 2
        except BaseException:  # noqa: BLE001 - the property under test: main never raises
            import traceback

            rc, raised = None, traceback.format_exc()
    seconds = time.process_time() - t0
    new = _snapshot(base) - before
    allowed = str(out.resolve())
    escaped = sorted(p for p in new if not (p == allowed or p.startswith(allowed + os.sep)))
    return Outcome(rc, o.getvalue(), e.getvalue(), seconds, [str(w.message) for w in leaked], raised,
                   escaped)


#: A non-AscsimError raised inside an instruction call, reported by the scenario layer as one located line.
#: Those are the Python API's bugs (its own fuzz task), tolerated here; anything else "internal" is not.
INSTRUCTION_BUG = re.compile(r": steps\[\d+\]: internal error in \w+: ")


def problems(case: Case, res: Outcome) -> list[str]:
    """What is wrong with one outcome (empty: the contract holds)."""
    bad = []
    if res.raised:
        bad.append("raised: " + res.raised.strip().splitlines()[-1])
    if res.rc not in (0, 2):
        bad.append(f"exit code {res.rc}")
    lines = res.stderr.splitlines()
    heads = [ln for ln in lines if ln.startswith("ascsim: ")]
    others = [ln for ln in lines if not ln.startswith(("ascsim: ", "warning: "))]
    if res.rc == 2 and len(heads) != 1:
        bad.append(f"{len(heads)} ascsim: lines")
    if res.rc == 0 and heads:
        bad.append("ascsim: line on success")
    if others:
        bad.append("stray stderr: " + others[0][:200])
    if "Traceback" in res.stderr:
        bad.append("traceback on stderr")
    if any("internal error" in ln and not INSTRUCTION_BUG.search(ln) for ln in heads):
        bad.append("internal error outside an instruction: " + heads[0][:200])
    if res.leaked_warnings:
        bad.append("leaked warning: " + res.leaked_warnings[0][:200])
    if res.escaped:
        bad.append("wrote outside --out: " + ", ".join(res.escaped[:3]))
    if res.seconds > PER_RUN_SECONDS:
        bad.append(f"took {res.seconds:.1f} s")
    return bad


def one_case(example: str, kind: str, seed: int) -> tuple[Case, Outcome]:
    """Replay one case (e.g. from a failure message) in a fresh temporary sandbox."""
    base = Path(tempfile.mkdtemp(prefix="ascsim-fuzz-"))
    try:
        case = make_case(EXAMPLES / example, kind, seed, base / "a" / "b" / "c")
        return case, run_case(case, base)
    finally:
        shutil.rmtree(base, ignore_errors=True)


# -- the tests ----------------------------------------------------------------------------------------------


@settings(max_examples=BUDGET, deadline=None, derandomize=True, database=None,
          suppress_health_check=list(HealthCheck))
@given(example=st.sampled_from([p.name for p in FILES]), kind=st.sampled_from(sorted(KINDS)),
       seed=st.integers(0, 2**32 - 1))
def test_mutated_scenarios_exit_cleanly(example: str, kind: str, seed: int) -> None:
    """Any mutation of any example: exit 0 or 2, one `ascsim:` line, no traceback, no write outside --out,
    no leaked warning, bounded time."""
    case, res = one_case(example, kind, seed)
    bad = problems(case, res)
    assert not bad, (example, kind, seed, case.note, bad, res.stderr[-2000:])


@pytest.mark.parametrize("kind", ["deep", "save"])
def test_mutated_scenario_subprocess(tmp_path: Path, kind: str) -> None:
    """The same contract through a real interpreter (`python -m ascsim`), where an uncaught exception would
    print Python's own traceback: deep nesting and a `..` save path."""
    root = tmp_path / "a" / "b" / "c"
    root.mkdir(parents=True)
    raw = tomllib.loads((EXAMPLES / "load3d_v2_basic.toml").read_text(encoding="utf-8"))
    if kind == "deep":
        raw["tensors"]["fmap"]["shape"] = "__DEEP__"
        text = json.dumps(raw).replace('"__DEEP__"', "[" * 100_000 + "]" * 100_000)
    else:
        raw["save"] = {next(iter(raw["tensors"])): "../../escaped.npy"}
        text = json.dumps(raw)
    path = root / "case.json"
    path.write_text(text, encoding="utf-8")
    before = _snapshot(tmp_path)
    env = {**os.environ, "PYTHONPATH": str(SRC)}
    r = subprocess.run([sys.executable, "-m", "ascsim", "run", "-q", str(path), "--out", str(root / "out")],
                       capture_output=True, text=True, timeout=120, env=env)
    assert r.returncode == 2, r.stderr
    assert "Traceback" not in r.stderr
    lines = r.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("ascsim: case.json: "), r.stderr
    assert _snapshot(tmp_path) - before == set()
