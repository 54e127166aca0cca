"""The cost model: how many cycles one instruction takes, per chip — an idealised model, never a
cycle-accurate one (docs/timeline.md says what it leaves out).

One TOML table per chip profile, `cost_models/<chip key>.toml` (package data), every number beside its
public source or marked `assumption` with the reasoning:

- `[clock] mhz`: the core clock (cycles -> microseconds only; the schedule counts cycles);
- `[issue] cycles`: what the scalar unit spends issuing one call (every instruction, flag and barrier);
- `[sync] flag_cycles`: from a SetFlag firing to its WaitFlag's pipe going on; `barrier_cycles`: a
  PipeBarrier's own latency after its pipes drained;
- `[scalar] access_cycles`: a GetValue / SetValue on PIPE_S;
- `[path."SRC->DST"]` (`GM->L1`, `L1->L0A`, `L0C->GM`, `fill->L1`, ...): `bytes_per_cycle` and
  `latency_cycles` of a data move on that path: cycles = latency + bytes / bytes_per_cycle;
- `[mmad] latency_cycles` and `[mmad.dtype.<A's dtype>]` `fractal = [m0, k0, n0]`, `per_cycle`: a Mmad of
  m x k x n costs latency + ceil(m/m0) * ceil(k/k0) * ceil(n/n0) / per_cycle.

API (what the planner and the schedule use):

    model = cost_model("a2")                            # the chip's table
    model = cost_model("a2", override="mine.toml")      # a partial override: same keys, unknown ones refused
    model.cycles("DataCopy", "MTE2", "GM->L1", nbytes=32768)
    model.cycles("Mmad", "M", "", fractals=model.mmad_fractals(128, 64, 256, "half"), dtype="half")
    model.to_us(cycles)

`override` is a path or a dict of the same shape (`--cost-model FILE` on the command line).
"""

from __future__ import annotations

import copy
import math
from collections.abc import Mapping
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

from ..base.errors import AscsimError, NotImplementedFeature
from .chips import get_chip
from .dtypes import get_dtype

try:  # Python >= 3.11
    import tomllib
except ModuleNotFoundError:  # pragma: no cover - Python 3.10
    import tomli as tomllib  # type: ignore[no-redef]

#: The keys a table may hold: section -> key -> type (a `source` string beside every number). Paths and
#: Mmad dtypes are open-ended sections whose entries share one shape.
SCALAR_SECTIONS: dict[str, dict[str, type]] = {
    "clock": {"mhz": float, "source": str},
    "issue": {"cycles": float, "source": str},
    "sync": {"flag_cycles": float, "barrier_cycles": float, "source": str},
    "scalar": {"access_cycles": float, "source": str},
}
PATH_KEYS: dict[str, type] = {"pipe": str, "bytes_per_cycle": float, "latency_cycles": float, "source": str}
MMAD_KEYS: dict[str, type] = {"latency_cycles": float, "source": str}
DTYPE_KEYS: dict[str, type] = {"fractal": list, "per_cycle": float, "source": str}
TOP_KEYS = frozenset({"chip", "note", *SCALAR_SECTIONS, "path", "mmad"})

#: Instructions that run on the cube (their cost is fractals, not bytes).
MMAD_KINDS = frozenset({"Mmad", "MmadWithSparse", "MmadMx"})


class CostModelError(AscsimError):
    """A cost table that is malformed, names an unknown key, or lacks what an instruction needs."""


@dataclass(frozen=True)
class PathCost:
    pipe: str
    bytes_per_cycle: float
    latency_cycles: float
    source: str


@dataclass(frozen=True)
class MmadRate:
    fractal: tuple[int, int, int]  # m0, k0, n0
    per_cycle: float
    source: str


class CostModel:
    """One chip's cost table (`cost_model`). `table` is the merged TOML data, kept for `describe`."""

    def __init__(self, chip: str, table: Mapping[str, Any], origin: str) -> None:
        self.chip = chip
        self.table = table
        self.origin = origin  # where the numbers came from (the package file, plus an override's name)
        self.clock_mhz = float(table["clock"]["mhz"])
        self.issue_cycles = float(table["issue"]["cycles"])
        self.flag_cycles = float(table["sync"]["flag_cycles"])
        self.barrier_cycles = float(table["sync"]["barrier_cycles"])
        self.scalar_cycles = float(table["scalar"]["access_cycles"])
        self.paths = {k: PathCost(str(v["pipe"]), float(v["bytes_per_cycle"]), float(v["latency_cycles"]),
                                  str(v.get("source", ""))) for k, v in table["path"].items()}
        mmad = table["mmad"]
        self.mmad_latency = float(mmad["latency_cycles"])
        self.mmad_rates = {k: MmadRate(tuple(int(x) for x in v["fractal"]), float(v["per_cycle"]),  # type: ignore[arg-type]
                                       str(v.get("source", "")))
                           for k, v in mmad.get("dtype", {}).items()}

    def __repr__(self) -> str:
        return f"CostModel({self.chip!r}, {self.origin})"

    # -- the costs ----------------------------------------------------------------------------------------
    def path(self, path: str) -> PathCost:
        hit = self.paths.get(path)
        if hit is None:
            raise CostModelError(f"the cost model of {self.chip} has no data path {path!r} (known: "
                                 f"{', '.join(sorted(self.paths))}); add [path.\"{path}\"] with --cost-model")
        return hit

    def rate(self, dtype: str) -> MmadRate:
        hit = self.mmad_rates.get(dtype)
        if hit is None:
            raise CostModelError(f"the cost model of {self.chip} has no Mmad rate for {dtype!r} (known: "
                                 f"{', '.join(sorted(self.mmad_rates))}); add [mmad.dtype.{dtype}] with "
                                 "--cost-model")
        return hit

    def mmad_fractals(self, m: int, k: int, n: int, dtype: str) -> int:
        """The fractals a Mmad of m x k x n in `dtype` (A's element type) computes: each dimension rounded up
        to the dtype's fractal (the cube computes whole fractals: Mmad.md 参数说明 m/n/k)."""
        m0, k0, n0 = self.rate(dtype).fractal
        return math.ceil(m / m0) * math.ceil(k / k0) * math.ceil(n / n0)

    def cycles(self, kind: str, pipe: str, path: str = "", nbytes: int = 0, fractals: int = 0,
               dtype: str = "") -> float:
        """Cycles one instruction occupies its pipe: a Mmad (`kind` in MMAD_KINDS) latency + fractals /
        per_cycle; a scalar access `access_cycles`; a data move on `path` latency + nbytes /
        bytes_per_cycle."""
        if kind in MMAD_KINDS or pipe == "M":
            return self.mmad_latency + fractals / self.rate(dtype).per_cycle
        if pipe == "S":
            return self.scalar_cycles
        p = self.path(path)
        return p.latency_cycles + nbytes / p.bytes_per_cycle

    def to_us(self, cycles: float) -> float:
        """Cycles as microseconds at the table's clock."""
        return cycles / self.clock_mhz

    def sources(self) -> list[tuple[str, str]]:
        """(entry, source) of every entry, in the table's order (docs/timeline.md lists them)."""
        out = [(s, str(self.table[s].get("source", ""))) for s in SCALAR_SECTIONS]
        out += [(f"path {k}", v.source) for k, v in self.paths.items()]
        out.append(("mmad latency", str(self.table["mmad"].get("source", ""))))
        out += [(f"mmad {k}", v.source) for k, v in self.mmad_rates.items()]
        return out


# -- loading ---------------------------------------------------------------------------------------------
def _package_table(key: str) -> dict[str, Any]:
    ref = resources.files(__package__).joinpath("cost_models", f"{key}.toml")
    if not ref.is_file():
        raise NotImplementedFeature(f"chip {key} has no cost model (the cube pipes are what the model times; "
                                    "this profile has none)")
    return tomllib.loads(ref.read_text(encoding="utf-8"))


def _read_override(override: str | Path | Mapping[str, Any]) -> tuple[dict[str, Any], str]:
    if isinstance(override, Mapping):
        return copy.deepcopy(dict(override)), "an override"
    p = Path(override)
    try:
        text = p.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        raise CostModelError(f"--cost-model {override}: cannot read it ({type(e).__name__}: {e})") from None
    try:
        return tomllib.loads(text), str(p)
    except tomllib.TOMLDecodeError as e:
        raise CostModelError(f"--cost-model {override}: not a TOML file ({e})") from None


def _check_entry(where: str, entry: Any, keys: Mapping[str, type]) -> None:
    if not isinstance(entry, Mapping):
        raise CostModelError(f"cost model: {where} must be a table, not {type(entry).__name__}")
    for k, v in entry.items():
        want = keys.get(k)
        if want is None:
            raise CostModelError(f"cost model: unknown key {where}.{k} (known: {', '.join(keys)})")
        if want is float:
            if isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v) or v < 0:
                raise CostModelError(f"cost model: {where}.{k} = {v!r}: expected a number >= 0")
            if k in ("mhz", "bytes_per_cycle", "per_cycle") and v == 0:
                raise CostModelError(f"cost model: {where}.{k} = 0: it divides, give a number > 0")
        elif want is list:
            if (not isinstance(v, list) or len(v) != 3
                    or not all(isinstance(x, int) and not isinstance(x, bool) and x > 0 for x in v)):
                raise CostModelError(f"cost model: {where}.{k} = {v!r}: expected [m0, k0, n0], three "
                                     "integers > 0")
        elif not isinstance(v, want):
            raise CostModelError(f"cost model: {where}.{k} = {v!r}: expected a {want.__name__}")


def check_table(table: Mapping[str, Any], complete: bool) -> None:
    """Refuse unknown keys and ill-typed values (naming the key); `complete`: every required key present."""
    for k in table:
        if k not in TOP_KEYS:
            raise CostModelError(f"cost model: unknown key {k!r} (known: {', '.join(sorted(TOP_KEYS))})")
    for s, keys in SCALAR_SECTIONS.items():
        if s in table:
            _check_entry(s, table[s], keys)
    paths = table.get("path", {})
    if not isinstance(paths, Mapping):
        raise CostModelError("cost model: path must be a table of [path.\"SRC->DST\"] entries")
    for name, entry in paths.items():
        _check_entry(f"path.\"{name}\"", entry, PATH_KEYS)
    mmad = table.get("mmad", {})
    if not isinstance(mmad, Mapping):
        raise CostModelError("cost model: mmad must be a table")
    _check_entry("mmad", {k: v for k, v in mmad.items() if k != "dtype"}, MMAD_KEYS)
    for name, entry in mmad.get("dtype", {}).items():
        get_dtype(name)  # an unknown element type is refused by its name
        _check_entry(f"mmad.dtype.{name}", entry, DTYPE_KEYS)
    if complete:
        for s, keys in SCALAR_SECTIONS.items():
            _require(s, table.get(s, {}), keys)
        for name, entry in paths.items():
            _require(f"path.\"{name}\"", entry, PATH_KEYS)
        _require("mmad", mmad, MMAD_KEYS)
        for name, entry in mmad.get("dtype", {}).items():
            _require(f"mmad.dtype.{name}", entry, DTYPE_KEYS)


def _require(where: str, entry: Mapping[str, Any], keys: Mapping[str, type]) -> None:
    """Every key of the entry's key table is required but its `source` (the tables say which keys exist)."""
    for k in keys:
        if k != "source" and k not in entry:
            raise CostModelError(f"cost model: {where}.{k} is missing")


def _merge(base: dict[str, Any], over: Mapping[str, Any]) -> None:
    for k, v in over.items():
        if isinstance(v, Mapping) and isinstance(base.get(k), dict):
            _merge(base[k], v)
        else:
            base[k] = copy.deepcopy(v)


def cost_model(chip: str, override: str | Path | Mapping[str, Any] | None = None) -> CostModel:
    """The cost table of `chip` (a key or alias), with `override`'s entries (a TOML path or a dict of the
    same keys; partial: only what it names changes; a new path or dtype must be complete) on top."""
    key = get_chip(chip).key
    table = _package_table(key)
    origin = f"ascsim/machine/cost_models/{key}.toml"
    if override is not None:
        over, name = _read_override(override)
        check_table(over, complete=False)
        if "chip" in over and get_chip(str(over["chip"])).key != key:
            raise CostModelError(f"cost model {name}: it is for chip {over['chip']!r}, the run's is {key}")
        _merge(table, over)
        origin += f" + {name}"
    check_table(table, complete=True)
    return CostModel(key, table, origin)
