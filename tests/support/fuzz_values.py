"""Drawing fuzz calls: valid values from the chip tables and struct field ranges, then mutations.

A call is described by *slots* (name -> value, kind). Generators fill the slots with mostly valid values;
`G.fuzz(slots)` then replaces a few of them with mutations drawn for their kind: boundary values, huge
ints, negatives, floats (-0.0, nan, inf), None, strings, lists, dicts, numpy scalars / 0-d / multi-element
arrays, bools where ints go and ints where bools go, wrong struct types; for tensors None / int / ndarray /
str, zero-length, misaligned, end-of-memory, reinterpreted, wrong-position, overlapping and short tensors.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from decimal import Decimal
from fractions import Fraction

import ml_dtypes
import numpy as np
from hypothesis import strategies as st

import ascsim.params as P
from ascsim import Core
from ascsim.ascendc import GlobalTensor
from ascsim.machine.chips import get_chip
from ascsim.machine.dtypes import ALL_DTYPES, Bits, get_dtype
from ascsim.machine.memory import LocalTensor, memory_of

NAN = float("nan")
INF = float("inf")
HUGE = [
    2**15,
    2**16,
    2**31 - 1,
    2**31,
    2**32,
    2**63 - 1,
    2**63,
    2**64 - 1,
    2**64,
    -(2**31),
    -(2**63),
    2**200,
    2**20000,
]
#: Where an int goes: everything that is not one (or is one in disguise).
NOT_INT = [
    1.0,
    2.5,
    -0.0,
    NAN,
    INF,
    -INF,
    None,
    "3",
    "",
    "x",
    [1],
    (2,),
    {},
    {"a": 1},
    np.int64(3),
    np.uint8(1),
    np.int32(-5),
    np.uint64(2**64 - 1),
    np.float32(2.0),
    np.float16(-0.0),
    np.bool_(True),
    np.array(3),
    np.array([1, 2]),
    np.array([]),
    True,
    False,
    1 + 2j,
    Fraction(3, 1),
    Decimal("2"),
    object(),
    b"x",
    range(2),
    Bits(5),
    ml_dtypes.bfloat16(2),
    P.QuantMode_t.F322F16,
]
#: Where a bool goes.
NOT_FLAG = [
    0,
    1,
    True,
    False,
    2,
    -1,
    2**64,
    np.bool_(False),
    np.bool_(True),
    np.int8(1),
    np.uint64(0),
    np.array(True),
    np.array([True, False]),
    np.array([]),
    "yes",
    "true",
    "",
    None,
    1.0,
    0.5,
    NAN,
    [],
    [True],
    {},
    1j,
]
#: Where a value of T goes (padValue, initValue, paddingValue).
NOT_VALUE = [
    0,
    0.0,
    -0.0,
    1,
    -1,
    1.5,
    -1.5,
    3.14159,
    NAN,
    -NAN,
    INF,
    -INF,
    1e10,
    -1e10,
    1e-45,
    6.1e-5,
    65504,
    65520.0,
    2**64,
    2**1030,
    -(2**63),
    127,
    128,
    -129,
    255,
    256,
    65535,
    65536,
    None,
    "1",
    "nan",
    1 + 1j,
    complex(1, 0),
    np.float16(-0.0),
    np.float16(NAN),
    np.float32(1e-40),
    np.float64(2.5),
    np.float64(-0.0),
    ml_dtypes.bfloat16(1.5),
    ml_dtypes.float8_e4m3fn(2),
    np.int8(-3),
    np.uint16(7),
    np.int64(2**40),
    np.array(1.0),
    np.array([1.0, 2.0]),
    Bits(0),
    Bits(0x7FFF),
    Bits(0x8000),
    Bits(0xFFFF),
    Bits(0x10000),
    Bits(2**40),
    True,
    False,
    [],
    {},
    Fraction(1, 3),
    Decimal("0.1"),
    np.uint64(2**64 - 1),
    np.array(np.nan),
]
#: Where a u64 word goes (bit-mode configs, extConfig, deqScalar).
NOT_WORD = [
    0,
    1,
    2**64 - 1,
    2**64,
    -1,
    2**63,
    0x0123456789ABCDEF,
    1.5,
    NAN,
    None,
    "0x10",
    np.uint64(7),
    np.int64(-1),
    np.array(5),
    [0],
    True,
]
#: Where a TPosition / FmatrixMode / enum goes.
NOT_NAME = [
    None,
    0,
    1,
    2,
    7,
    -1,
    "",
    "A3",
    "X",
    "a2",
    "TPosition::B2",
    "FMATRIX_UP",
    1.0,
    [],
    {},
    "L0A",
    b"A2",
]
#: Where a dtype goes.
NOT_DTYPE = [
    None,
    0,
    16,
    "",
    "half ",
    "float16",
    "fp17",
    "int4",
    "uint64_t",
    np.float16,
    np.dtype("f2"),
    np.dtype("U3"),
    np.dtype(object),
    float,
    int,
    "bfloat16",
    {},
    [],
    ml_dtypes.bfloat16,
    b"half",
]


def _struct_instances() -> list:
    out = []
    for name in P.__all__:
        obj = getattr(P, name)
        if isinstance(obj, type) and not issubclass(obj, (int, float)) and name[0].isupper():
            try:
                out.append(obj())
            except TypeError:
                pass
    return out


#: Where a params struct goes: other structs, the classes themselves, plain values.
NOT_STRUCT = [
    None,
    0,
    3,
    "params",
    {},
    [],
    (1, 2),
    object(),
    np.zeros(4),
    P.LoadData2DParams,
    *_struct_instances(),
]
#: Where a tensor goes (strings resolved by `materialize`: "<unset GlobalTensor>", "<memory L1>").
NOT_TENSOR = [
    None,
    0,
    4096,
    -1,
    1.5,
    "A1",
    "dst",
    b"",
    [],
    np.zeros(64, np.float16),
    np.zeros((16, 16)),
    "<unset GlobalTensor>",
    "<memory L1>",
    "<dtype>",
    P.LoadData2DParams(),
]


def twins(value: object) -> list:
    """Values that compare == to `value` — a cache keyed by == would confuse them — but that C++ or the
    hardware tells apart: 3 vs 3.0 / Fraction(3) / Decimal(3) / np.float64(3) (refused where an integer
    goes), 0.0 vs -0.0 (another bit pattern), 15360 vs Bits(15360) (a value vs a bit pattern)."""
    t = type(value)
    if t is int and abs(value) < 2**53:
        out = [float(value), Fraction(value), Decimal(value), np.float64(value)]
        return out + [Bits(value)] if value >= 0 else out
    if t is float:
        out = [np.float64(value)] + ([-value] if value == 0 else [])
        return out + [int(value)] if value == value and value.is_integer() else out
    if isinstance(value, np.floating) and value == 0:
        return [-value, float(value)]
    return []


class Kind:
    """How a slot is mutated."""

    pool: list = []

    def mutate(self, g: G, value: object) -> object:
        return g.pick(self.pool)


@dataclass
class Int(Kind):
    lo: int = 0
    hi: int = 0

    def mutate(self, g: G, value: object) -> object:
        edge = [self.lo - 1, self.hi + 1, self.lo, self.hi, -1, 0]
        return g.pick(edge + HUGE + NOT_INT) if g.coin() else g.pick(edge)


class Flag(Kind):
    pool = NOT_FLAG


class Value(Kind):
    pool = NOT_VALUE


class Word(Kind):
    pool = NOT_WORD + HUGE + NOT_INT


@dataclass
class Name(Kind):
    valid: tuple = ()

    def mutate(self, g: G, value: object) -> object:
        return g.pick([*self.valid, *NOT_NAME])


class Dtype(Kind):
    def mutate(self, g: G, value: object) -> object:
        return g.pick([*NOT_DTYPE, *(d.name for d in ALL_DTYPES)])


class Struct(Kind):
    pool = NOT_STRUCT


class Pads(Kind):
    def mutate(self, g: G, value: object) -> object:
        return g.pick(
            [
                None,
                4,
                [],
                [1, 1, 1],
                [1, 1, 1, 1, 1],
                [0, 0, 0, 256],
                [0, -1, 0, 0],
                [1.5, 0, 0, 0],
                [None] * 4,
                "abcd",
                {"a": 1},
                np.array([1, 1, 1, 1]),
                np.array([[1, 1], [1, 1]]),
                (1, 2, 3, 4),
                [np.int8(1)] * 4,
                [True, False, 0, 1],
                iter([1, 2, 3, 4]),
                1.5,
                [2**64, 0, 0, 0],
            ]
        )


# -- tensors -------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class T:
    """A tensor operand: TPosition, dtype, byte offset, length in elements; `fill` says what to store
    (random bytes, nothing, sparse-index codes, ...); `mut` a geometry mutation applied by `materialize`."""

    pos: str
    dtype: str
    offset: int
    length: int
    fill: str = "random"
    mut: str = ""


class Tensor(Kind):
    """A tensor slot: its `T` or (mutated) a geometry change or a non-tensor."""

    def __init__(self, peers: tuple[str, ...] = ()) -> None:
        self.peers = peers  # slots whose tensors this one may be made to overlap

    def mutate(self, g: G, value: object) -> object:
        if not isinstance(value, T) or g.coin(0.3):
            return g.pick(NOT_TENSOR)
        how = g.pick(
            ["misalign", "end", "zero", "short", "long", "reinterpret", "position", "dtype", "far", "overlap"]
        )
        if how == "misalign":
            return replace(value, offset=value.offset + g.pick([1, 2, 4, 16, 32, 64, 256]))
        if how == "zero":
            return replace(value, length=0)
        if how == "short":
            return replace(value, length=value.length // g.pick([2, 4, 16]))
        if how == "long":
            return replace(value, length=value.length * g.pick([2, 16, 1024]))
        if how == "reinterpret":
            return replace(value, mut=f"reinterpret:{g.pick([d.name for d in ALL_DTYPES] + ['uint64_t'])}")
        if how == "dtype":
            return replace(value, dtype=g.pick([d.name for d in ALL_DTYPES] + ["uint64_t"]))
        if how == "position":
            return replace(
                value, pos=g.pick(["GM", "A1", "B1", "C1", "A2", "B2", "CO1", "C2", "CO2", "C2PIPE2GM"])
            )
        if how == "far":
            return replace(value, mut=f"far:{g.int(0, 1 << 20)}")
        if how == "overlap":
            return replace(value, mut=f"overlap:{g.int(0, 4096)}")
        return replace(value, mut="end")


def materialize(core: Core, spec: object, rng: np.random.Generator, env: dict) -> object:
    """The operand a slot stands for on `core` (a LocalTensor, or the non-tensor value itself)."""
    if not isinstance(spec, T):
        special = {
            "<unset GlobalTensor>": lambda: GlobalTensor("half"),
            "<memory L1>": lambda: core.memory("L1"),
            "<dtype>": lambda: get_dtype("half"),
        }
        return special[spec]() if isinstance(spec, str) and spec in special else spec
    mem = core.memory(memory_of(spec.pos))
    dt = get_dtype(spec.dtype)
    nbytes = (spec.length * dt.bits + 7) // 8
    offset = spec.offset
    kind, _, arg = spec.mut.partition(":")
    if kind == "end":
        offset = max(0, (mem.size - nbytes) // 2 * 2)
    elif kind == "far":
        offset = int(arg) * 32 % max(32, mem.size - nbytes)
    elif kind == "overlap":
        others = [t for t in env.values() if isinstance(t, LocalTensor) and t.memory is mem]
        if others:
            offset = others[0].offset + int(arg) // 32 * 32
    length = spec.length
    if offset + nbytes > mem.size:  # keep the tensor itself legal: shrink it to the memory's end
        length = max(0, (mem.size - offset) * 8 // dt.bits)
    t = core.tensor(spec.pos, dt, length, offset=offset)
    if spec.fill == "random" and t.nbytes:
        t.bytes()[:] = rng.integers(0, 256, t.nbytes, dtype=np.uint8)
    elif spec.fill == "sparse" and t.nbytes:  # index codes 0..2 (2 bits each)
        codes = rng.integers(0, 3, (t.nbytes, 4), dtype=np.uint8)
        t.bytes()[:] = codes[:, 0] | codes[:, 1] << 2 | codes[:, 2] << 4 | codes[:, 3] << 6
    elif spec.fill == "small" and t.nbytes:  # small integers / 1.0-ish floats: no overflow to inf
        t.write(
            rng.integers(-3, 4, t.length).astype(np.float64)
            if dt.kind == "float"
            else rng.integers(0 if dt.kind == "uint" else -3, 4, t.length)
        )
    if kind == "reinterpret":
        t = t.reinterpret(arg)
    return t


def span(t: object) -> list[tuple[str, int, int]]:
    """The byte range of a tensor operand (empty for a non-tensor)."""
    if isinstance(t, LocalTensor) and t.memory is not None:
        return [(t.memory.name, t.offset, t.offset + t.nbytes)]
    return []


# -- the draw helper -----------------------------------------------------------------------------------


class G:
    """Draws for one case: `data` is hypothesis's `st.data()` object."""

    def __init__(self, data, chip: str) -> None:
        # one hypothesis-controlled Random per case: hypothesis still generates (and shrinks) every choice,
        # without the bookkeeping of one `data.draw` per value
        self.rnd = data.draw(st.randoms(use_true_random=False, note_method_calls=False))
        self.chip = chip
        self.profile = get_chip(chip)
        self.text: list[str] = []
        self.twin: dict[str, object] = {}  # slot -> the original value a twin replaced
        self.values: dict[str, object] = {}

    def int(self, lo: int, hi: int) -> int:
        return self.rnd.randint(lo, max(lo, hi))

    def pick(self, seq):
        seq = seq if isinstance(seq, (list, tuple)) else list(seq)
        return seq[self.rnd.randrange(len(seq))]

    def coin(self, p: float = 0.5) -> bool:
        return self.rnd.randrange(100) < p * 100

    def aligned(self, lo: int, hi: int, align: int) -> int:
        """A multiple of `align` in [lo, hi] (lo when the range is empty)."""
        a, b = -(-lo // align), hi // align
        return self.int(a, b) * align if b >= a else lo

    def fuzz(self, slots: dict[str, list], most: int = 2) -> dict[str, object]:
        """Mutate up to `most` slots (none in ~40% of the cases); returns name -> value."""
        n = self.pick([0, 0, 0, 0, 1, 1, 1, 2, 2, most])
        names = [k for k, (_, kind) in slots.items() if kind is not None]
        for _ in range(n):
            if not names:
                break
            name = self.pick(names)
            value, kind = slots[name]
            slots[name] = [kind.mutate(self, value), kind]
            self.text.append(f"mutated {name}={_short(slots[name][0])}")
        paired = [k for k in names if not isinstance(slots[k][1], Tensor) and twins(slots[k][0])]
        if paired and self.coin(0.15):  # a twin: the call primes the caches with the original first
            name = self.pick(paired)
            self.twin[name] = slots[name][0]
            slots[name][0] = self.pick(twins(slots[name][0]))
            self.text.append(f"twin {name}={_short(slots[name][0])} of {_short(self.twin[name])}")
        self.values = {k: v for k, (v, _) in slots.items()}
        return self.values


def _short(v: object) -> str:
    if isinstance(v, int) and not isinstance(v, bool) and abs(v) > 2**70:
        return f"<int of {v.bit_length()} bits>"
    r = repr(v)
    return r if len(r) < 80 else r[:77] + "..."


def show(values: dict) -> str:
    return ", ".join(f"{k}={_short(v)}" for k, v in values.items())
