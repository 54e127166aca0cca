"""2D load parameter structs: LoadData 2D (v1/v2/BitMode), LoadDataWithTranspose, MX scales.

Field order = C++ constructor order (asc-devkit kernel_struct_mm.h; CONCEPTS §4, §5, §7). Note the
LoadData2DParams constructor order differs from its member order: {startIndex, repeatTimes, srcStride,
sid, dstGap, ifTranspose, addrMode}.
"""

from __future__ import annotations

from dataclasses import dataclass

from .load3d import _Struct


@dataclass
class LoadData2DParams(_Struct):
    """LoadData 2D (doc: LoadData_2D.md 表2). Units are 512-B fractals."""

    startIndex: int = 0
    repeatTimes: int = 0
    srcStride: int = 0
    sid: int = 0
    dstGap: int = 0
    ifTranspose: bool = False
    addrMode: int = 0


@dataclass
class LoadData2DParamsV2(_Struct):
    """LoadData 2D v2 (950; doc: LoadData_2D_V2.md 表3): m in 16-row units, k in 32-B units,
    strides in 512-B fractals."""

    mStartPosition: int = 0
    kStartPosition: int = 0
    mStep: int = 0
    kStep: int = 0
    srcStride: int = 0
    dstStride: int = 0
    ifTranspose: bool = False
    sid: int = 0


@dataclass
class LoadData2dTransposeParams(_Struct):
    """LoadDataWithTranspose (doc: LoadDataWithTranspose.md 表3; seed 002)."""

    startIndex: int = 0
    repeatTimes: int = 0
    srcStride: int = 0
    dstGap: int = 0
    dstFracGap: int = 0
    addrMode: int = 0


@dataclass
class LoadData2dTransposeParamsV2(_Struct):
    """LoadDataWithTranspose V2 (Atlas 350 / 950; doc: LoadDataWithTranspose.md 表4)."""

    startIndex: int = 0
    repeatTimes: int = 0
    srcStride: int = 0
    dstGap: int = 0
    dstFracGap: int = 0
    srcFracGap: int = 0
    addrMode: int = 0


@dataclass
class LoadData2DMxParams(_Struct):
    """MX scale part of Load2DMX (doc: LoadData_2D_MX.md 表3; seed 003). Strides in 32 B."""

    xStartPosition: int = 0
    yStartPosition: int = 0
    xStep: int = 0
    yStep: int = 0
    srcStride: int = 0
    dstStride: int = 0
