"""What every params struct shares: C++-like mutable fields with a cached, flat cache key (the bits the
hardware would see), and the config-word base of the bit-mode structs (named bit fields in u64 words)."""

from __future__ import annotations

import struct
from dataclasses import field, fields, is_dataclass
from typing import Any, TypeVar

import numpy as np

from ..base import coerce
from ..base.errors import ParamRangeError, cpp_rejects, hw_cannot


def _key_of(v: object) -> object:
    """One field value as a cache-key item: the exact bits the hardware would see. Floats are keyed by
    their bit pattern (-0.0 != 0.0, NaN payloads differ), numpy / ml_dtypes scalars by dtype name and
    bytes, int subclasses (`Bits`, IntEnum members) by type and value (Bits(0x3C00) is a bit pattern, the
    int 15360 a value); ints and bools as themselves (C++ takes a bool as 0 / 1); nested structs by their
    own key; None as None (an optional member left empty). Anything else (str, arrays, dicts, Fraction,
    ...) raises TypeError: such a call is validated uncached, and validation names the bad value."""
    t = v.__class__
    if t is int or t is bool:
        return v
    if t is float:
        return ("f", struct.pack("<d", v))
    if isinstance(v, np.generic):
        return (v.dtype.name, v.tobytes())
    if t is list or t is tuple:
        return tuple([_key_of(x) for x in v])  # type: ignore[attr-defined]
    if isinstance(v, int):  # an enum (QuantMode_t) or a Bits pattern: the class decides what the int means
        return (t.__qualname__, int(v))
    if v is None:  # an optional member left empty (FixpipeParamsArch3510.params)
        return None
    if isinstance(v, Struct):  # a nested struct (its own cached key; `key` re-checks it on every call)
        k = v.key()
        if k is None:
            raise TypeError(f"no cache key for a field of {t.__name__}")
        return (t.__qualname__, k)
    raise TypeError(f"no cache key for {t.__name__}")


def _same(v: object, snap: object) -> bool:
    """Does a list / nested-struct field still hold what its snapshot (`_live`) recorded?"""
    return v == snap if v.__class__ is list else _live(v) == snap


def _live(v: object) -> object:
    """The snapshot of a field that can change in place: a list's copy, a nested struct's key."""
    return v.key() if isinstance(v, Struct) else list(v)  # type: ignore[call-overload]


#: The dataclass field metadata key marking an extent (`extent`).
EXTENT = "extent"


def extent() -> Any:
    """A field that sizes the call (kExtension, repeatTimes, blockLen, Mmad's m / n / k): its C++ default
    member initializer is 0, a call that moves nothing. Python and C++ keep that default; a scenario step
    must give the field (ascsim.scenario refuses a params table without it, divergences K1), because a
    table written field by field that leaves one out is a slip, not a request for a NOP."""
    return field(default=0, metadata={EXTENT: True})


def extents(cls: type) -> tuple[str, ...]:
    """The extent fields of a params dataclass, in declaration order (none for the bit-mode structs)."""
    return tuple(f.name for f in fields(cls) if f.metadata.get(EXTENT)) if is_dataclass(cls) else ()


class _Key(tuple):
    """A params key: a tuple that computes its hash once (it sits inside every cache key of a call)."""

    def __hash__(self) -> int:
        d = self.__dict__
        h = d.get("h")
        if h is None:
            h = d["h"] = tuple.__hash__(self)
        return h


class Struct:
    """Base of the dataclass structs: C++-like mutable fields plus a cached, flat cache key."""

    def __setattr__(self, name: str, value: object) -> None:
        object.__setattr__(self, name, value)  # (honours property setters such as DataCopyParams.srcGap)
        self.__dict__.pop("_k", None)  # any assignment invalidates the cached key

    def key(self) -> tuple | None:
        """Flat, hashable snapshot of the field values (the bits the hardware would see); None when a
        field holds a value no key can represent (the call is then validated uncached).

        Cached on the struct (the same key object comes back until a field changes, so cache lookups
        compare it by identity): an assignment clears it; list fields (padList), which can change in
        place, are compared with the snapshot on every call."""
        d = self.__dict__
        k = d.get("_k")
        if k is not None:
            key, lists, snap = k
            for n, v in zip(lists, snap, strict=True):
                if not _same(d[n], v):
                    break
            else:
                return key
        try:
            items = [(n, _key_of(v)) for n, v in d.items() if n != "_k"]
        except TypeError:
            return None
        # fields that can change without an assignment to this struct: lists (padList, changed in place)
        # and nested structs (FixpipeParamsArch3510.params): compared with the snapshot on every call
        lists = tuple(n for n, v in d.items() if v.__class__ is list or isinstance(v, Struct))
        key = _Key(v for _, v in items)
        d["_k"] = (key, lists, [_live(d[n]) for n in lists])
        return key

    def as_dict(self) -> dict:
        return {f.name: getattr(self, f.name) for f in fields(self)}  # type: ignore[arg-type]


def with_field(word: int, lo: int, width: int, value: object, name: str, owner: str) -> int:
    """`word` with bit field [lo, lo + width) set to `value` (ParamRangeError if it is no integer or too
    wide for the field)."""
    v = coerce.as_int(value)
    if v is None or not 0 <= v < (1 << width):
        raise ParamRangeError(f"{owner}: {name} is a {width}-bit field, must be in [0, {(1 << width) - 1}], "
                              f"but got {coerce.show(value)}", basis=hw_cannot(f'{width}-bit field'))
    mask = ((1 << width) - 1) << lo
    return (word & ~mask) | (v << lo)


def config_word(owner: str, name: str, value: object) -> int:
    """A uint64_t config word (ParamRangeError if it is no integer or does not fit)."""
    v = coerce.as_int(value)
    if v is None or not 0 <= v <= U64:
        raise ParamRangeError(f"{owner}: {name} must fit in 64 bits, but got {coerce.show(value)}",
                              basis=cpp_rejects('uint64_t field'))
    return v


def bits_of(word: int, lo: int, width: int) -> int:
    return (word >> lo) & ((1 << width) - 1)


U64 = (1 << 64) - 1


def hex_word(word: object) -> str:
    """A config word for a repr (a word assigned a non-integer shows as itself)."""
    v = coerce.as_int(word)
    return f"0x{v:016x}" if v is not None and 0 <= v <= U64 else coerce.show(word)


class ConfigWords(Struct):
    """Shared body of the bit-mode params: u64 words config0/config1 holding the named bit fields of
    `FIELDS` (name -> (word, low bit, width)); `Set<Field>` / `Get<Field>` come from `with_accessors`."""

    FIELDS: dict[str, tuple[int, int, int]] = {}

    def _set_words(self, config0: int, config1: int) -> None:
        owner = type(self).__name__
        self.config0, self.config1 = config_word(owner, "config0", config0), config_word(owner, "config1",
                                                                                         config1)

    def words(self) -> tuple[int, int]:
        """(config0, config1) checked: a word assigned directly (`p.config0 = ...`) is validated here."""
        owner = type(self).__name__
        return config_word(owner, "config0", self.config0), config_word(owner, "config1", self.config1)

    def set(self, name: str, value: int) -> None:
        """Write bit field `name` (ParamRangeError if `value` does not fit its width)."""
        word, lo, width = self.FIELDS[name]
        attr = ("config0", "config1")[word]
        setattr(self, attr, with_field(self.words()[word], lo, width, value, name, type(self).__name__))

    def get(self, name: str) -> int:
        """Read bit field `name`."""
        word, lo, width = self.FIELDS[name]
        return bits_of(self.words()[word], lo, width)

    def GetConfig0(self) -> int:  # noqa: N802 - C++ spelling
        return self.config0

    def GetConfig1(self) -> int:  # noqa: N802 - C++ spelling
        return self.config1

    def SetConfig0(self, config0: int) -> None:  # noqa: N802 - C++ spelling (kernel_operator_mm_bitmode_intf.h)
        self._set_words(config0, self.config1)

    def SetConfig1(self, config1: int) -> None:  # noqa: N802 - C++ spelling
        self._set_words(self.config0, config1)

    def as_dict(self) -> dict:
        words = self.words()
        return {name: bits_of(words[w], lo, width) for name, (w, lo, width) in self.FIELDS.items()}

    def packed(self) -> dict[str, dict[str, int]]:
        """Each config word decoded into its fields: {"config0": {...}, "config1": {...}} (explain / draw)."""
        words = self.words()
        return {word: {name: bits_of(words[w], lo, width) for name, (w, lo, width) in self.FIELDS.items()
                       if w == i} for i, word in enumerate(("config0", "config1"))}

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, type(self)):
            return False
        k = self.key()  # None for a word no key can hold: such a struct equals nothing
        return k is not None and k == other.key()

    __hash__ = None  # type: ignore[assignment]  # mutable, like the C++ struct


_W = TypeVar("_W", bound=type[ConfigWords])


def with_accessors(cls: _W) -> _W:
    """The C++ accessors of every bit field: kExtension -> SetKExtension(v) / GetKExtension()."""
    for name in cls.FIELDS:
        suffix = name[0].upper() + name[1:]
        setattr(cls, "Set" + suffix, lambda self, v, _n=name: self.set(_n, v))
        setattr(cls, "Get" + suffix, lambda self, _n=name: self.get(_n))
    return cls
