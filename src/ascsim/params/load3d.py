"""Load3D parameter structs (and the shared struct helpers) under their C++ names and field names.

Positional order = the C++ constructor / aggregate order (asc-devkit kernel_struct_mm.h, CONCEPTS
§3.3), so a brace initialiser's values can be pasted: `LoadData3DParamsV2([1,1,1,1], 4, 4, 16, ...)`.
Structs stay mutable like their C++ twins; `key()` snapshots one into a hashable tuple for plan caches.
Range checks belong to the instructions (they know the chip and dtype); the bit-packed forms check
their bit widths here because that is where a value would be truncated.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass, field, fields
from typing import TypeVar

import numpy as np

from .. import coerce
from ..errors import ParamRangeError, cpp_rejects, hw_cannot


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
    if isinstance(v, _Struct):  # a nested struct (its own cached key; `key` re-checks it on every call)
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
    return v.key() if isinstance(v, _Struct) else list(v)  # type: ignore[call-overload]


class _Key(tuple):
    """A params key: a tuple that computes its hash once (it sits inside every cache key of a call)."""

    def __hash__(self) -> int:
        d = self.__dict__
        h = d.get("h")
        if h is None:
            h = d["h"] = tuple.__hash__(self)
        return h


class _Struct:
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
        lists = tuple(n for n, v in d.items() if v.__class__ is list or isinstance(v, _Struct))
        key = _Key(v for _, v in items)
        d["_k"] = (key, lists, [_live(d[n]) for n in lists])
        return key

    def as_dict(self) -> dict:
        return {f.name: getattr(self, f.name) for f in fields(self)}  # type: ignore[arg-type]


def _pads() -> list[int]:
    return [0, 0, 0, 0]


def pad_list(instr: str, pads: object) -> list:
    """padList [left, right, top, bottom] as a list of its 4 entries (a list, tuple or 1-D array; C++
    `uint8_t padList[4]`); the entries are checked by the caller."""
    vector = isinstance(pads, (list, tuple)) or (isinstance(pads, np.ndarray) and pads.ndim == 1)
    items = list(pads) if vector else None
    if items is None or len(items) != 4:
        raise ParamRangeError(f"{instr}: padList must have 4 entries [left, right, top, bottom], but got "
                              f"{coerce.show(pads)} ({cpp_rejects('padList is uint8_t[4]')})")
    return items


@dataclass
class IsResetLoad3dConfig(_Struct):
    """Template argument of Load3D v1/v2: does the call write FMATRIX / PADDING itself."""

    isSetFMatrix: bool = True
    isSetPadding: bool = True


IS_RESER_LOAD3D_DEFAULT_CONFIG = IsResetLoad3dConfig(True, True)


@dataclass
class LoadData3DParamsV1(_Struct):
    """Load3D v1 (Atlas training / inference AI Core). doc: LoadData_3D.md 表3."""

    padList: list[int] = field(default_factory=_pads)
    l1H: int = 0
    l1W: int = 0
    c1Index: int = 0
    fetchFilterW: int = 0
    fetchFilterH: int = 0
    leftTopW: int = 0
    leftTopH: int = 0
    strideW: int = 1
    strideH: int = 1
    filterW: int = 1
    filterH: int = 1
    dilationFilterW: int = 1
    dilationFilterH: int = 1
    jumpStride: int = 1
    repeatMode: int = 0
    repeatTime: int = 1
    cSize: int = 0
    padValue: float = 0


@dataclass
class LoadData3DParamsV2(_Struct):
    """Load3D v2. doc: LoadData_3D.md 表4; defaults per kernel_struct_mm.h (strides/filters/dilations 1)."""

    padList: list[int] = field(default_factory=_pads)
    l1H: int = 0
    l1W: int = 0
    channelSize: int = 0
    kExtension: int = 0
    mExtension: int = 0
    kStartPt: int = 0
    mStartPt: int = 0
    strideW: int = 1
    strideH: int = 1
    filterW: int = 1
    filterH: int = 1
    dilationFilterW: int = 1
    dilationFilterH: int = 1
    enTranspose: bool = False
    enSmallK: bool = False
    padValue: float = 0
    filterSizeW: bool = False
    filterSizeH: bool = False
    fMatrixCtrl: bool = False


def _field(word: int, lo: int, width: int, value: object, name: str, owner: str) -> int:
    """`word` with bit field [lo, lo + width) set to `value` (ParamRangeError if it is no integer or too
    wide for the field)."""
    v = coerce.as_int(value)
    if v is None or not 0 <= v < (1 << width):
        raise ParamRangeError(f"{owner}: {name} is a {width}-bit field, must be in [0, {(1 << width) - 1}], "
                              f"but got {coerce.show(value)} ({hw_cannot(f'{width}-bit field')})")
    mask = ((1 << width) - 1) << lo
    return (word & ~mask) | (v << lo)


def _word(owner: str, name: str, value: object) -> int:
    """A uint64_t config word (ParamRangeError if it is no integer or does not fit)."""
    v = coerce.as_int(value)
    if v is None or not 0 <= v <= _U64:
        raise ParamRangeError(f"{owner}: {name} must fit in 64 bits, but got {coerce.show(value)} "
                              f"({cpp_rejects('uint64_t field')})")
    return v


def _get(word: int, lo: int, width: int) -> int:
    return (word >> lo) & ((1 << width) - 1)


_U64 = (1 << 64) - 1


def _hex(word: object) -> str:
    """A config word for a repr (a word assigned a non-integer shows as itself)."""
    v = coerce.as_int(word)
    return f"0x{v:016x}" if v is not None and 0 <= v <= _U64 else coerce.show(word)


class _ConfigWords(_Struct):
    """Shared body of the bit-mode params: u64 words config0/config1 holding the named bit fields of
    `FIELDS` (name -> (word, low bit, width)); `Set<Field>` / `Get<Field>` come from `_add_accessors`."""

    FIELDS: dict[str, tuple[int, int, int]] = {}

    def _set_words(self, config0: int, config1: int) -> None:
        owner = type(self).__name__
        self.config0, self.config1 = _word(owner, "config0", config0), _word(owner, "config1", config1)

    def words(self) -> tuple[int, int]:
        """(config0, config1) checked: a word assigned directly (`p.config0 = ...`) is validated here."""
        owner = type(self).__name__
        return _word(owner, "config0", self.config0), _word(owner, "config1", self.config1)

    def set(self, name: str, value: int) -> None:
        """Write bit field `name` (ParamRangeError if `value` does not fit its width)."""
        word, lo, width = self.FIELDS[name]
        attr = ("config0", "config1")[word]
        setattr(self, attr, _field(self.words()[word], lo, width, value, name, type(self).__name__))

    def get(self, name: str) -> int:
        """Read bit field `name`."""
        word, lo, width = self.FIELDS[name]
        return _get(self.words()[word], lo, width)

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
        return {name: _get(words[w], lo, width) for name, (w, lo, width) in self.FIELDS.items()}

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, type(self)):
            return False
        k = self.key()  # None for a word no key can hold: such a struct equals nothing
        return k is not None and k == other.key()

    __hash__ = None  # type: ignore[assignment]  # mutable, like the C++ struct


_W = TypeVar("_W", bound=type[_ConfigWords])


def _add_accessors(cls: _W) -> _W:
    """The C++ accessors of every bit field: kExtension -> SetKExtension(v) / GetKExtension()."""
    for name in cls.FIELDS:
        suffix = name[0].upper() + name[1:]
        setattr(cls, "Set" + suffix, lambda self, v, _n=name: self.set(_n, v))
        setattr(cls, "Get" + suffix, lambda self, _n=name: self.get(_n))
    return cls


@dataclass
class LoadData3DParamsV2Pro(_Struct):
    """Load3D v2Pro: the window and filter packed in two u64 words. doc: LoadData_3D.md 表5."""

    channelSize: int = 0
    enTranspose: bool = False
    enSmallK: bool = False
    filterSizeW: bool = False
    filterSizeH: bool = False
    fMatrixCtrl: bool = False
    extConfig: int = 0
    filterConfig: int = 0x10101010101

    def _ext(self) -> int:
        return _word("LoadData3DParamsV2Pro", "extConfig", self.extConfig)

    def _filter(self) -> int:
        return _word("LoadData3DParamsV2Pro", "filterConfig", self.filterConfig)

    # extConfig = mStartPt<<48 | kStartPt<<32 | mExtension<<16 | kExtension (16 bits each)
    @property
    def kExtension(self) -> int:
        return _get(self._ext(), 0, 16)

    @property
    def mExtension(self) -> int:
        return _get(self._ext(), 16, 16)

    @property
    def kStartPt(self) -> int:
        return _get(self._ext(), 32, 16)

    @property
    def mStartPt(self) -> int:
        return _get(self._ext(), 48, 16)

    # filterConfig = dilH<<40 | dilW<<32 | filterH<<24 | filterW<<16 | strideH<<8 | strideW (8 bits each)
    @property
    def strideW(self) -> int:
        return _get(self._filter(), 0, 8)

    @property
    def strideH(self) -> int:
        return _get(self._filter(), 8, 8)

    @property
    def filterW(self) -> int:
        return _get(self._filter(), 16, 8)

    @property
    def filterH(self) -> int:
        return _get(self._filter(), 24, 8)

    @property
    def dilationFilterW(self) -> int:
        return _get(self._filter(), 32, 8)

    @property
    def dilationFilterH(self) -> int:
        return _get(self._filter(), 40, 8)

    @staticmethod
    def pack_ext(kExtension: int, mExtension: int, kStartPt: int = 0, mStartPt: int = 0) -> int:
        w = 0
        for lo, name, v in ((0, "kExtension", kExtension), (16, "mExtension", mExtension),
                            (32, "kStartPt", kStartPt), (48, "mStartPt", mStartPt)):
            w = _field(w, lo, 16, v, name, "LoadData3DParamsV2Pro.extConfig")
        return w

    @staticmethod
    def pack_filter(strideW: int = 1, strideH: int = 1, filterW: int = 1, filterH: int = 1,
                    dilationFilterW: int = 1, dilationFilterH: int = 1) -> int:
        w = 0
        for lo, name, v in ((0, "strideW", strideW), (8, "strideH", strideH), (16, "filterW", filterW),
                            (24, "filterH", filterH), (32, "dilationFilterW", dilationFilterW),
                            (40, "dilationFilterH", dilationFilterH)):
            w = _field(w, lo, 8, v, name, "LoadData3DParamsV2Pro.filterConfig")
        return w

    @classmethod
    def from_v2(cls, p: LoadData3DParamsV2) -> LoadData3DParamsV2Pro:
        return cls(p.channelSize, p.enTranspose, p.enSmallK, p.filterSizeW, p.filterSizeH, p.fMatrixCtrl,
                   cls.pack_ext(p.kExtension, p.mExtension, p.kStartPt, p.mStartPt),
                   cls.pack_filter(p.strideW, p.strideH, p.filterW, p.filterH, p.dilationFilterW,
                                   p.dilationFilterH))


# Load3DBitModeParam bit fields: name -> (config word, low bit, width). Seed 000 表4 / 表5.
BITMODE_FIELDS: dict[str, tuple[int, int, int]] = {
    "kExtension": (0, 0, 16),
    "mExtension": (0, 16, 16),
    "kStartPt": (0, 32, 16),
    "mStartPt": (0, 48, 16),
    "strideW": (1, 0, 6),
    "strideH": (1, 6, 6),
    "filterW": (1, 12, 8),
    "filterH": (1, 20, 8),
    "dilationFilterW": (1, 28, 8),
    "dilationFilterH": (1, 36, 8),
    "filterSizeW": (1, 44, 1),
    "filterSizeH": (1, 45, 1),
    "transpose": (1, 46, 1),
    "fmatrixCtrl": (1, 47, 1),
    "channelSize": (1, 48, 16),
}

@_add_accessors
class Load3DBitModeParam(_ConfigWords):
    """config0/config1 words with a getter/setter per bit field (seed 000; 950 only).

    Built from a LoadData3DParamsV2 it keeps the window, filter and channel fields and drops
    padList / l1H / l1W / padValue, which then come from the FMATRIX / PADDING registers.
    """

    FIELDS = BITMODE_FIELDS

    def __init__(self, src: LoadData3DParamsV2 | int | None = None, config1: int = 0) -> None:
        self.config0 = 0
        self.config1 = 0
        if isinstance(src, LoadData3DParamsV2):
            for name in BITMODE_FIELDS:
                attr = {"transpose": "enTranspose", "fmatrixCtrl": "fMatrixCtrl"}.get(name, name)
                self.set(name, getattr(src, attr))
        elif src is not None:
            self._set_words(src, config1)

    def __repr__(self) -> str:
        return f"Load3DBitModeParam(config0={_hex(self.config0)}, config1={_hex(self.config1)})"


# SetFMatrixBitModeParams config0 bit fields (SetFmatrixBitMode.md 表3): l1H [15:0], l1W [31:16],
# padList0..3 (left, right, top, bottom) 8 bits each from bit 32.
FMATRIX_BITMODE_FIELDS: dict[str, tuple[int, int]] = {
    "l1H": (0, 16), "l1W": (16, 16), "padList0": (32, 8), "padList1": (40, 8), "padList2": (48, 8),
    "padList3": (56, 8),
}


class SetFMatrixBitModeParams(_Struct):
    """`SetFmatrix(SetFMatrixBitModeParams, FmatrixMode)` (950; SetFmatrixBitMode.md): the FMATRIX
    register as one packed word. Built from a LoadData3DParamsV2 it takes l1H, l1W and padList (the doc's
    reading; the C++ constructor is reported not to copy padList, CONCEPTS §9 Q9)."""

    def __init__(self, src: LoadData3DParamsV2 | int | None = None) -> None:
        self.config0 = 0
        if isinstance(src, LoadData3DParamsV2):
            self.SetL1H(src.l1H)
            self.SetL1W(src.l1W)
            self.SetPadList(src.padList)
        elif src is not None:
            self.config0 = _word("SetFMatrixBitModeParams", "config0", src)

    def _set(self, name: str, value: int) -> None:
        lo, width = FMATRIX_BITMODE_FIELDS[name]
        self.config0 = _field(self._word(), lo, width, value, name, "SetFMatrixBitModeParams")

    def _word(self) -> int:
        return _word("SetFMatrixBitModeParams", "config0", self.config0)

    def get(self, name: str) -> int:
        lo, width = FMATRIX_BITMODE_FIELDS[name]
        return _get(self._word(), lo, width)

    def SetL1H(self, v: int) -> None:  # noqa: N802
        self._set("l1H", v)

    def SetL1W(self, v: int) -> None:  # noqa: N802
        self._set("l1W", v)

    def SetPadList(self, pads) -> None:  # noqa: N802
        for i, v in enumerate(pad_list("SetFMatrixBitModeParams", pads)):
            self._set(f"padList{i}", v)

    def GetConfig0(self) -> int:  # noqa: N802
        return self.config0

    def as_dict(self) -> dict:
        word = self._word()
        return {name: _get(word, lo, width) for name, (lo, width) in FMATRIX_BITMODE_FIELDS.items()}

    def __eq__(self, other: object) -> bool:
        return isinstance(other, SetFMatrixBitModeParams) and self.config0 == other.config0

    def __repr__(self) -> str:
        return f"SetFMatrixBitModeParams(config0={_hex(self.config0)})"


@dataclass
class LoadDataRepeatParam(_Struct):
    """SetLoadDataRepeat. dstStride exists on 950 only (doc: SetLoadDataRepeat.md 表2)."""

    repeatStride: int = 0
    repeatTime: int = 1
    repeatMode: int = 0
    dstStride: int = 0


@dataclass
class LoadDataRepeatParamWithStride(_Struct):
    """SetLoadDataRepeatWithStride (950)."""

    repeatStride: int = 0
    repeatTime: int = 1
    repeatMode: int = 0
    dstStride: int = 0
