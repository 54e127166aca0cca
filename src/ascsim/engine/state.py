"""The state of one simulated AI Core — everything an instruction reads or writes — and its options.

`CoreState` holds the chip profile, the on-chip memories and the core's GM byte space, the registers
(`machine.registers.Registers`), the allocation cursors of `tensor()`, the call log and the engine's
per-core caches. It has no instructions: the families in `ascsim.isa` take a CoreState and act on it,
and the facade `ascsim.Core` adds one method per instruction from the instruction table
(`ascsim.isa.table`). Keeping the state below the families is what lets the imports run one way.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..base import coerce
from ..base.errors import ParamRangeError, UnsupportedError, hw_cannot, public_entry
from ..machine.chips import ChipProfile, get_chip
from ..machine.dtypes import DType, get_dtype, raw_to_bytes
from ..machine.memory import MARKER, GlobalMemory, LocalTensor, Memory, encode_values, memory_of
from ..machine.registers import Registers
from .record import ExecReport

#: How many ExecReports `CoreState.log` keeps (oldest dropped first).
LOG_LENGTH = 100_000

#: Allocation alignment per memory: L0 fractals are 512 B, L0C fractals 1 KB (Mmad C operand), L1 32 B.
ALLOC_ALIGN = {"L1": 32, "L0A": 512, "L0B": 512, "L0C": 1024, "BT": 64, "FB": 128, "GM": 32}

#: Float Mmad accumulation modes (`Core(mmad_accumulate=...)`, docs/mmad.md): "float64" forms the exact
#: products and sum in float64 and rounds once; "float32" accumulates in float32 in K order.
MMAD_ACCUMULATE = ("float64", "float32")


@dataclass
class CoreOptions:
    """The simulator's choices for one core, in one place (each a documented default, as the choices of
    JAX Pallas' interpret mode are):

    strict: hazards and doc conflicts raise (`HazardError`, `DocConflictError`) instead of warning.
    fill: the byte fresh on-chip memory and GM hold (0xCD: untouched bytes stand out).
    keep_plans: every record in the log keeps its element-level plan (otherwise `report.plan` rebuilds
        it on demand and the log stays light).
    mmad_accumulate: how a float Mmad sums (MMAD_ACCUMULATE; docs/mmad.md "How exact is float Mmad").
    """

    strict: bool = False
    fill: int = MARKER
    keep_plans: bool = False
    mmad_accumulate: str = "float64"

    def __post_init__(self) -> None:
        if self.mmad_accumulate not in MMAD_ACCUMULATE:
            raise ParamRangeError(f"Core: mmad_accumulate must be one of {', '.join(MMAD_ACCUMULATE)}, "
                                  f"but got {coerce.show(self.mmad_accumulate)}")


class CoreState:
    """One AI Core of one chip: memories, registers, options, log. `ascsim.Core` is the one to use."""

    @public_entry
    def __init__(self, chip: str | ChipProfile = "a2", *, fill: int = MARKER, strict: bool = False,
                 keep_plans: bool = False, mmad_accumulate: str = "float64",
                 options: CoreOptions | None = None, gm: GlobalMemory | None = None) -> None:
        self.chip = get_chip(chip)
        self.options = options if options is not None else CoreOptions(strict, fill, keep_plans,
                                                                        mmad_accumulate)
        self.placements: dict = {}  # engine.boundary.run_gather: prepared calls bound to tensors (bounded)
        self.batch = None  # an engine.boundary.Batch while `Core.run` executes a sequence of calls
        self._gm: GlobalMemory | None = gm  # given: shared with other cores (a multi-core launch)
        self.memories: dict[str, Memory] = {
            name: Memory(name, size, self.options.fill) for name, size in self.chip.memory_sizes.items()
        }
        for mem in self.memories.values():
            mem.owner = self
        self.regs = Registers()
        self.log: deque[ExecReport] = deque(maxlen=LOG_LENGTH)
        # Opt-in record of the registers and bytes of each call (`core.history = ascsim.History()`,
        # ascsim.view); None keeps nothing beyond the light log.
        self.history: Any = None
        self._next: dict[str, int] = {}

    def __repr__(self) -> str:
        return f"Core({self.chip.key})"

    # -- options (read on the hot path as attributes of the core) ----------------------------------
    @property
    def strict(self) -> bool:
        return self.options.strict

    @strict.setter
    def strict(self, value: bool) -> None:
        self.options.strict = value

    @property
    def fill(self) -> int:
        return self.options.fill

    @property
    def keep_plans(self) -> bool:
        return self.options.keep_plans

    @property
    def mmad_accumulate(self) -> str:
        return self.options.mmad_accumulate

    # -- memory ------------------------------------------------------------------------------------
    @property
    def gm(self) -> GlobalMemory:
        """This core's GM byte space, created on first use (docs/divergences.md G1)."""
        if self._gm is None:
            self._gm = GlobalMemory(self.fill)
            self._gm.owner = self
        return self._gm

    def memory(self, name: str) -> Memory:
        if name == "GM":
            return self.gm
        try:
            return self.memories[name]
        except KeyError:
            has = ", ".join(self.memories)
            raise UnsupportedError(f"{self.chip.name} has no {name} buffer; it has {has}",
                                   basis=hw_cannot(f"no {name} on this chip")) from None

    @public_entry
    def tensor(self, position: str, dtype: DType | str, length: int, offset: int | None = None,
               data: object = None, raw: object = None, *, name: str | None = None) -> LocalTensor:
        """A LocalTensor at `offset` bytes (default: next free, aligned) of the position's memory, filled
        with `data` (values, encoded to the dtype) or `raw` (bit patterns, stored as they are). `name` is
        what explain, draw and the explorer call it (default: its place, "A2@0x0").

        In GM, `offset` is a GM byte address and makes the tensor a view of what is there (no allocation)."""
        mem_name = memory_of(position)
        if data is not None and raw is not None:
            raise ParamRangeError("Core.tensor: give data (values) or raw (bit patterns), not both")
        if mem_name == "GM":
            if offset is None:
                init = length if data is None and raw is None else None
                return self.global_tensor(dtype, data if init is None else init, raw=raw, name=name)
            t = LocalTensor(self.gm, "GM", offset, dtype, length, name)
            _store_initial(t, data, raw)
            return t
        mem = self.memory(mem_name)
        dt = get_dtype(dtype)
        if offset is None:
            a = ALLOC_ALIGN.get(mem_name, 32)
            offset = -(-self._next.get(mem_name, 0) // a) * a
        t = LocalTensor(mem, position, offset, dt, length, name)
        _store_initial(t, data, raw)  # raises before anything is written or allocated
        self._next[mem_name] = max(self._next.get(mem_name, 0), t.offset + t.nbytes)
        return t

    def free_all(self) -> None:
        """Forget allocations (memory contents stay, like reusing a TQue buffer)."""
        self._next.clear()

    @public_entry
    def global_tensor(self, dtype: DType | str, data_or_length: object = None, *, raw: object = None,
                      name: str | None = None) -> LocalTensor:
        """A GM tensor newly allocated in this core's GM byte space, sized by `data` (values), `raw`
        (bit patterns) or a length. Its address is `t.GetPhyAddr()` (what `SetGlobalBuffer` takes);
        `name` is what explain and draw call it."""
        instr = "Core.global_tensor"
        if name is not None and not isinstance(name, str):  # before anything is allocated
            raise ParamRangeError(f"{instr}: name must be a string, but got {coerce.show(name)}")
        dt = get_dtype(dtype)
        payload = None  # the initial bytes, encoded before anything is allocated (a bad value allocates none)
        if raw is not None:
            if data_or_length is not None:
                raise ParamRangeError(f"{instr}: give data / a length or raw, not both")
            raw = coerce.numeric_array(instr, "raw", raw, "bit patterns").ravel()
            n, payload = raw.size, raw_to_bytes(dt, raw)
        elif coerce.as_int(data_or_length) is not None and not isinstance(data_or_length, (bool, np.bool_)):
            n = coerce.integer(instr, "length", data_or_length, 0, self.gm.size * 8 // dt.bits)
        elif data_or_length is None:
            raise ParamRangeError(f"{instr}: give data (values), raw (bit patterns) or a length")
        else:
            payload = encode_values(dt, data_or_length)
            n = np.asarray(data_or_length).size
        t = LocalTensor(self.gm, "GM", self.gm.allocate((n * dt.bits + 7) // 8), dt, n, name)
        if payload is not None:
            t._store(payload, 0)
        return t

    # -- the log --------------------------------------------------------------------------------------
    def _logged(self, report: ExecReport) -> ExecReport:
        """Append a call's record to the log (and to the opt-in History): the one place records enter."""
        self.log.append(report)
        if self.history is not None:  # the one hook ascsim.view's History uses
            self.history.record(report, self.regs)
        return report


def _store_initial(t: LocalTensor, data: object, raw: object) -> None:
    """Write a new tensor's initial contents: values (`data`) or bit patterns (`raw`)."""
    if raw is not None:
        t.write_raw(raw)
    elif data is not None:
        t.write(data)
