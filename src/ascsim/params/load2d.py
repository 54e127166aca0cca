"""2D load parameter structs: LoadData 2D (v1/v2/BitMode), LoadDataWithTranspose, MX scales.

Field order = C++ constructor order (asc-devkit kernel_struct_mm.h; the "Parameters" sections of
docs/load2d.md, load_data_with_transpose.md, load2d_mx.md). Note the LoadData2DParams constructor order
differs from its member order: {startIndex, repeatTimes, srcStride, sid, dstGap, ifTranspose, addrMode}.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..base import coerce
from ..base.errors import cpp_rejects
from .base import ConfigWords, Struct, extent, hex_word, with_accessors


@dataclass
class LoadData2DParams(Struct):
    """LoadData 2D (doc: LoadData_2D.md 表2). Units are 512-B fractals."""

    startIndex: int = 0
    repeatTimes: int = extent()
    srcStride: int = 0
    sid: int = 0
    dstGap: int = 0
    ifTranspose: bool = False
    addrMode: int = 0


@dataclass
class LoadData2DParamsV2(Struct):
    """LoadData 2D v2 (950; doc: LoadData_2D_V2.md 表3): m in 16-row units, k in 32-B units,
    strides in 512-B fractals."""

    mStartPosition: int = 0
    kStartPosition: int = 0
    mStep: int = extent()
    kStep: int = extent()
    srcStride: int = 0
    dstStride: int = 0
    ifTranspose: bool = False
    sid: int = 0


@dataclass
class LoadData2dTransposeParams(Struct):
    """LoadDataWithTranspose (doc: LoadDataWithTranspose.md 表3; seed 002)."""

    startIndex: int = 0
    repeatTimes: int = extent()
    srcStride: int = 0
    dstGap: int = 0
    dstFracGap: int = 0
    addrMode: int = 0


@dataclass
class LoadData2dTransposeParamsV2(Struct):
    """LoadDataWithTranspose V2 (Atlas 350 / 950; doc: LoadDataWithTranspose.md 表4)."""

    startIndex: int = 0
    repeatTimes: int = extent()
    srcStride: int = 0
    dstGap: int = 0
    dstFracGap: int = 0
    srcFracGap: int = 0
    addrMode: int = 0


@dataclass
class LoadData2DMxParams(Struct):
    """MX scale part of Load2DMX (doc: LoadData_2D_MX.md 表3; seed 003). Strides in 32 B."""

    xStartPosition: int = 0
    yStartPosition: int = 0
    xStep: int = extent()
    yStep: int = extent()
    srcStride: int = 0
    dstStride: int = 0


# Load2DBitModeParam bit fields: name -> (config word, low bit, width). doc: LoadData_2D_BitMode.md 表4/表5
# (bit-fields fill from the low bits up; docs/load2d.md "Load2DBitModeParam": mStep [39:32], kStep [47:40]).
LOAD2D_BITMODE_FIELDS: dict[str, tuple[int, int, int]] = {
    "mStartPosition": (0, 0, 16),
    "kStartPosition": (0, 16, 16),
    "mStep": (0, 32, 8),
    "kStep": (0, 40, 8),
    "srcStride": (1, 0, 16),
    "dstStride": (1, 16, 16),
}


@with_accessors
class Load2DBitModeParam(ConfigWords):
    """config0/config1 words plus ifTranspose (doc: LoadData_2D_BitMode.md 表3-表6; 950 only).

    `Load2DBitModeParam(LoadData2DParamsV2(...))` packs a V2 struct (sid is dropped);
    `Load2DBitModeParam(config0, config1, ifTranspose)` takes raw words.
    """

    FIELDS = LOAD2D_BITMODE_FIELDS

    def __init__(self, src: LoadData2DParamsV2 | int | None = None, config1: int = 0,
                 ifTranspose: bool = False) -> None:
        self.config0 = 0
        self.config1 = 0
        self.ifTranspose = _flag(ifTranspose)
        if isinstance(src, LoadData2DParamsV2):
            for name in LOAD2D_BITMODE_FIELDS:
                self.set(name, getattr(src, name))
            self.ifTranspose = _flag(src.ifTranspose)
        elif src is not None:
            self._set_words(src, config1)

    def SetIfTranspose(self, value: bool) -> None:  # noqa: N802 - C++ spelling
        self.ifTranspose = _flag(value)

    def GetIfTranspose(self) -> bool:  # noqa: N802 - C++ spelling
        return self.ifTranspose

    def to_v2(self) -> LoadData2DParamsV2:
        """The equivalent LoadData2DParamsV2 (sid 0)."""
        return LoadData2DParamsV2(*(self.get(n) for n in LOAD2D_BITMODE_FIELDS), self.ifTranspose, 0)

    def as_dict(self) -> dict:
        return {**super().as_dict(), "ifTranspose": self.ifTranspose}

    def __hash__(self) -> int:
        return hash(self.key())

    def __repr__(self) -> str:
        return (f"Load2DBitModeParam(config0={hex_word(self.config0)}, config1={hex_word(self.config1)}, "
                f"ifTranspose={self.ifTranspose!r})")


def _flag(value: object) -> bool:
    """ifTranspose: a C++ bool member."""
    return coerce.flag("Load2DBitModeParam", "ifTranspose", value, cpp_rejects("bool ifTranspose"))

