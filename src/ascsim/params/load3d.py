"""Load3D parameter structs (and the shared struct helpers) under their C++ names and field names.

Positional order = the C++ constructor / aggregate order (asc-devkit kernel_struct_mm.h; docs/load3d.md
"Parameters"), so a brace initialiser's values can be pasted: `LoadData3DParamsV2([1,1,1,1], 4, 4, 16, ...)`.
Structs stay mutable like their C++ twins; `key()` snapshots one into a hashable tuple for plan caches.
Range checks belong to the instructions (they know the chip and dtype); the bit-packed forms check
their bit widths here because that is where a value would be truncated.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ..base import coerce
from ..base.errors import ParamRangeError, cpp_rejects
from .base import ConfigWords, Struct, bits_of, config_word, extent, hex_word, with_accessors, with_field


def _pads() -> list[int]:
    return [0, 0, 0, 0]


def pad_list(instr: str, pads: object) -> list:
    """padList [left, right, top, bottom] as a list of its 4 entries (a list, tuple or 1-D array; C++
    `uint8_t padList[4]`); the entries are checked by the caller."""
    vector = isinstance(pads, (list, tuple)) or (isinstance(pads, np.ndarray) and pads.ndim == 1)
    items = list(pads) if vector else None
    if items is None or len(items) != 4:
        raise ParamRangeError(f"{instr}: padList must have 4 entries [left, right, top, bottom], but got "
                              f"{coerce.show(pads)}", basis=cpp_rejects('padList is uint8_t[4]'))
    return items


@dataclass
class IsResetLoad3dConfig(Struct):
    """Template argument of Load3D v1/v2: does the call write FMATRIX / PADDING itself."""

    isSetFMatrix: bool = True
    isSetPadding: bool = True


IS_RESER_LOAD3D_DEFAULT_CONFIG = IsResetLoad3dConfig(True, True)


@dataclass
class LoadData3DParamsV1(Struct):
    """Load3D v1 (Atlas training / inference AI Core). doc: LoadData_3D.md 表3."""

    padList: list[int] = field(default_factory=_pads)
    l1H: int = extent()
    l1W: int = extent()
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
class LoadData3DParamsV2(Struct):
    """Load3D v2. doc: LoadData_3D.md 表4; defaults per kernel_struct_mm.h (strides/filters/dilations 1)."""

    padList: list[int] = field(default_factory=_pads)
    l1H: int = extent()
    l1W: int = extent()
    channelSize: int = extent()
    kExtension: int = extent()
    mExtension: int = extent()
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


#: The bit fields of LoadData3DParamsV2Pro's packed words, (name, low bit, width), from the doc's definition
#: (LoadData_3D.md 表5): extConfig = mStartPt << 48 | kStartPt << 32 | mExtension << 16 | kExtension;
#: filterConfig = dilationFilterH << 40 | dilationFilterW << 32 | filterH << 24 | filterW << 16 |
#: strideH << 8 | strideW.
V2PRO_EXT_FIELDS = (("kExtension", 0, 16), ("mExtension", 16, 16), ("kStartPt", 32, 16), ("mStartPt", 48, 16))
V2PRO_FILTER_FIELDS = (("strideW", 0, 8), ("strideH", 8, 8), ("filterW", 16, 8), ("filterH", 24, 8),
                       ("dilationFilterW", 32, 8), ("dilationFilterH", 40, 8))


@dataclass
class LoadData3DParamsV2Pro(Struct):
    """Load3D v2Pro: the window and filter packed in two u64 words. doc: LoadData_3D.md 表5."""

    channelSize: int = extent()
    enTranspose: bool = False
    enSmallK: bool = False
    filterSizeW: bool = False
    filterSizeH: bool = False
    fMatrixCtrl: bool = False
    extConfig: int = extent()
    filterConfig: int = 0x10101010101

    def _ext(self) -> int:
        return config_word("LoadData3DParamsV2Pro", "extConfig", self.extConfig)

    def _filter(self) -> int:
        return config_word("LoadData3DParamsV2Pro", "filterConfig", self.filterConfig)

    # extConfig = mStartPt<<48 | kStartPt<<32 | mExtension<<16 | kExtension (16 bits each)
    @property
    def kExtension(self) -> int:
        return bits_of(self._ext(), 0, 16)

    @property
    def mExtension(self) -> int:
        return bits_of(self._ext(), 16, 16)

    @property
    def kStartPt(self) -> int:
        return bits_of(self._ext(), 32, 16)

    @property
    def mStartPt(self) -> int:
        return bits_of(self._ext(), 48, 16)

    # filterConfig = dilH<<40 | dilW<<32 | filterH<<24 | filterW<<16 | strideH<<8 | strideW (8 bits each)
    @property
    def strideW(self) -> int:
        return bits_of(self._filter(), 0, 8)

    @property
    def strideH(self) -> int:
        return bits_of(self._filter(), 8, 8)

    @property
    def filterW(self) -> int:
        return bits_of(self._filter(), 16, 8)

    @property
    def filterH(self) -> int:
        return bits_of(self._filter(), 24, 8)

    @property
    def dilationFilterW(self) -> int:
        return bits_of(self._filter(), 32, 8)

    @property
    def dilationFilterH(self) -> int:
        return bits_of(self._filter(), 40, 8)

    @staticmethod
    def pack_ext(kExtension: int, mExtension: int, kStartPt: int = 0, mStartPt: int = 0) -> int:
        values = {"kExtension": kExtension, "mExtension": mExtension, "kStartPt": kStartPt,
                  "mStartPt": mStartPt}
        return _pack(V2PRO_EXT_FIELDS, values, "LoadData3DParamsV2Pro.extConfig")

    @staticmethod
    def pack_filter(strideW: int = 1, strideH: int = 1, filterW: int = 1, filterH: int = 1,
                    dilationFilterW: int = 1, dilationFilterH: int = 1) -> int:
        values = {"strideW": strideW, "strideH": strideH, "filterW": filterW, "filterH": filterH,
                  "dilationFilterW": dilationFilterW, "dilationFilterH": dilationFilterH}
        return _pack(V2PRO_FILTER_FIELDS, values, "LoadData3DParamsV2Pro.filterConfig")

    def packed(self) -> dict[str, dict[str, int]]:
        """The packed words decoded into their fields: {"extConfig": {"kExtension": ..., ...},
        "filterConfig": {...}} (what explain and draw print beside the words)."""
        return {"extConfig": _unpack(V2PRO_EXT_FIELDS, self._ext()),
                "filterConfig": _unpack(V2PRO_FILTER_FIELDS, self._filter())}

    @classmethod
    def from_v2(cls, p: LoadData3DParamsV2) -> LoadData3DParamsV2Pro:
        return cls(p.channelSize, p.enTranspose, p.enSmallK, p.filterSizeW, p.filterSizeH, p.fMatrixCtrl,
                   cls.pack_ext(p.kExtension, p.mExtension, p.kStartPt, p.mStartPt),
                   cls.pack_filter(p.strideW, p.strideH, p.filterW, p.filterH, p.dilationFilterW,
                                   p.dilationFilterH))


def _pack(layout: tuple[tuple[str, int, int], ...], values: dict[str, object], owner: str) -> int:
    w = 0
    for name, lo, width in layout:
        w = with_field(w, lo, width, values[name], name, owner)
    return w


def _unpack(layout: tuple[tuple[str, int, int], ...], word: int) -> dict[str, int]:
    return {name: bits_of(word, lo, width) for name, lo, width in layout}


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

@with_accessors
class Load3DBitModeParam(ConfigWords):
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
        return f"Load3DBitModeParam(config0={hex_word(self.config0)}, config1={hex_word(self.config1)})"


# SetFMatrixBitModeParams config0 bit fields (SetFmatrixBitMode.md 表3): l1H [15:0], l1W [31:16],
# padList0..3 (left, right, top, bottom) 8 bits each from bit 32.
FMATRIX_BITMODE_FIELDS: dict[str, tuple[int, int]] = {
    "l1H": (0, 16), "l1W": (16, 16), "padList0": (32, 8), "padList1": (40, 8), "padList2": (48, 8),
    "padList3": (56, 8),
}


class SetFMatrixBitModeParams(Struct):
    """`SetFmatrix(SetFMatrixBitModeParams, FmatrixMode)` (950; SetFmatrixBitMode.md): the FMATRIX
    register as one packed word. Built from a LoadData3DParamsV2 it takes l1H, l1W and padList (the doc's
    reading; the C++ constructor is reported not to copy padList, docs/divergences.md L20)."""

    def __init__(self, src: LoadData3DParamsV2 | int | None = None) -> None:
        self.config0 = 0
        if isinstance(src, LoadData3DParamsV2):
            self.SetL1H(src.l1H)
            self.SetL1W(src.l1W)
            self.SetPadList(src.padList)
        elif src is not None:
            self.config0 = config_word("SetFMatrixBitModeParams", "config0", src)

    def _set(self, name: str, value: int) -> None:
        lo, width = FMATRIX_BITMODE_FIELDS[name]
        self.config0 = with_field(self._word(), lo, width, value, name, "SetFMatrixBitModeParams")

    def _word(self) -> int:
        return config_word("SetFMatrixBitModeParams", "config0", self.config0)

    def get(self, name: str) -> int:
        lo, width = FMATRIX_BITMODE_FIELDS[name]
        return bits_of(self._word(), lo, width)

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
        return {name: bits_of(word, lo, width) for name, (lo, width) in FMATRIX_BITMODE_FIELDS.items()}

    def packed(self) -> dict[str, dict[str, int]]:
        """config0 decoded into its fields (explain / draw)."""
        return {"config0": self.as_dict()}

    def __eq__(self, other: object) -> bool:
        return isinstance(other, SetFMatrixBitModeParams) and self.config0 == other.config0

    def __repr__(self) -> str:
        return f"SetFMatrixBitModeParams(config0={hex_word(self.config0)})"


@dataclass
class LoadDataRepeatParam(Struct):
    """SetLoadDataRepeat. dstStride exists on 950 only (doc: SetLoadDataRepeat.md 表2)."""

    repeatStride: int = 0
    repeatTime: int = 1
    repeatMode: int = 0
    dstStride: int = 0


@dataclass
class LoadDataRepeatParamWithStride(Struct):
    """SetLoadDataRepeatWithStride (950)."""

    repeatStride: int = 0
    repeatTime: int = 1
    repeatMode: int = 0
    dstStride: int = 0
