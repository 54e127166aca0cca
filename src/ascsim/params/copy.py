"""GM-side copy parameter structs: DataCopy GM->L1 (plain, ND2NZ, DN2NZ) and Fixpipe L0C->GM.

Names and field order follow the doc tables (CONCEPTS §8):
- `DataCopyParams`: M/矩阵计算的搬入/DataCopy（GMToL1高维切分数据搬运）.md 表3. The C++ members are
  srcStride/dstStride; the doc calls them srcGap/dstGap (end-to-start gaps in 32-B blocks), so both
  spellings work here.
- `Nd2NzParams`: DataCopy（GMToL1随路转换-ND2NZ搬运）.md 表3; `Dn2NzParams`: …DN2NZ搬运）.md 表3.
- `FixpipeParamsV220` (arch 2201) and `FixpipeParamsArch3510` (950) with `Nz2NdParams` / `Nz2DnParams`,
  `QuantMode_t`, `CO2Layout`, `FixpipeConfig`: M/矩阵计算的搬出/Fixpipe（L0C到GM数据搬运）.md 表1/表3/表4.
  Field order = the doc table order.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum

from .load3d import _Struct


@dataclass
class DataCopyParams(_Struct):
    """DataCopy GM->L1 in blocks. blockLen, srcStride (gap), dstStride (gap) in 32-B DataBlocks."""

    blockCount: int = 1
    blockLen: int = 0
    srcStride: int = 0
    dstStride: int = 0

    @property
    def srcGap(self) -> int:  # noqa: N802 - doc spelling
        return self.srcStride

    @srcGap.setter
    def srcGap(self, v: int) -> None:  # noqa: N802
        self.srcStride = v

    @property
    def dstGap(self) -> int:  # noqa: N802 - doc spelling
        return self.dstStride

    @dstGap.setter
    def dstGap(self, v: int) -> None:  # noqa: N802
        self.dstStride = v


@dataclass
class Nd2NzParams(_Struct):
    """ND2NZ. src strides in elements, dstNzC0Stride/dstNzNStride in 32 B, dstNzMatrixStride in elements.
    b4 types give every value in b8 units (doc 约束说明)."""

    ndNum: int = 0
    nValue: int = 0
    dValue: int = 0
    srcNdMatrixStride: int = 0
    srcDValue: int = 0
    dstNzC0Stride: int = 0
    dstNzNStride: int = 0
    dstNzMatrixStride: int = 0


@dataclass
class Dn2NzParams(_Struct):
    """DN2NZ (950). nValue = DN columns (NZ rows), dValue = DN rows (NZ columns); units as Nd2NzParams."""

    dnNum: int = 0
    nValue: int = 0
    dValue: int = 0
    srcDnMatrixStride: int = 0
    srcDValue: int = 0
    dstNzC0Stride: int = 0
    dstNzNStride: int = 0
    dstNzMatrixStride: int = 0


class QuantMode_t(IntEnum):  # noqa: N801 - C++ spelling
    """QuantMode_t in doc order (表3; the first nine are the arch-2201 enum of 表4)."""

    NoQuant = 0
    F322F16 = 1
    F322BF16 = 2
    DEQF16 = 3
    VDEQF16 = 4
    QF322B8_PRE = 5
    VQF322B8_PRE = 6
    REQ8 = 7
    VREQ8 = 8
    QF322FP8_PRE = 9
    VQF322FP8_PRE = 10
    QF322HIF8_PRE = 11
    VQF322HIF8_PRE = 12
    QF322HIF8_PRE_HYBRID = 13
    VQF322HIF8_PRE_HYBRID = 14
    QS322BF16_PRE = 15
    VQS322BF16_PRE = 16
    QF322F16_PRE = 17
    VQF322F16_PRE = 18
    QF322BF16_PRE = 19
    VQF322BF16_PRE = 20
    QF322F32_PRE = 21
    VQF322F32_PRE = 22


class CO2Layout(IntEnum):
    """Fixpipe output layout (表1): NZ = NZ2NZ, ROW_MAJOR = NZ2ND, COLUMN_MAJOR = NZ2DN (950 only)."""

    NZ = 0
    ROW_MAJOR = 1
    COLUMN_MAJOR = 2


@dataclass(frozen=True)
class FixpipeConfig:
    """Fixpipe template argument `config` (表1)."""

    format: CO2Layout = CO2Layout.ROW_MAJOR
    isToUB: bool = False


CFG_NZ = FixpipeConfig(CO2Layout.NZ)
CFG_ROW_MAJOR = FixpipeConfig(CO2Layout.ROW_MAJOR)
CFG_COLUMN_MAJOR = FixpipeConfig(CO2Layout.COLUMN_MAJOR)


@dataclass
class FixpipeParamsV220(_Struct):
    """Fixpipe L0C->GM, arch 2201 (表4). srcStride in C0_Size (16 L0C elements); dstStride in 32 B (NZ2NZ)
    or elements (NZ2ND); srcNdStride in 16*C0_Size; dstNdStride in elements."""

    nSize: int = 0
    mSize: int = 0
    srcStride: int = 0
    dstStride: int = 0
    quantPre: QuantMode_t = QuantMode_t.NoQuant
    deqScalar: int = 0
    reluEn: bool = False
    unitFlag: int = 0
    isChannelSplit: bool = False
    ndNum: int = 1
    srcNdStride: int = 0
    dstNdStride: int = 0


@dataclass
class Nz2NdParams(_Struct):
    """TransformParams<ROW_MAJOR> of FixpipeParamsArch3510 (表3). srcNdStride in C0_SIZE."""

    ndNum: int = 1
    srcNdStride: int = 0
    dstNdStride: int = 0


@dataclass
class Nz2DnParams(_Struct):
    """TransformParams<COLUMN_MAJOR> of FixpipeParamsArch3510 (表3). Strides in C0_SIZE / elements."""

    dnNum: int = 1
    srcNzMatrixStride: int = 0
    dstDnMatrixStride: int = 0
    srcNzC0Stride: int = 0


@dataclass
class FixpipeParamsArch3510(_Struct):
    """Fixpipe L0C->GM, arch 3510 / Ascend 950 (表3). dstStride is in elements for every layout; `params`
    holds Nz2NdParams (CFG_ROW_MAJOR), Nz2DnParams (CFG_COLUMN_MAJOR) or None (CFG_NZ / defaults)."""

    nSize: int = 0
    mSize: int = 0
    srcStride: int = 0
    dstStride: int = 0
    quantPre: QuantMode_t = QuantMode_t.NoQuant
    deqScalar: int = 0
    reluEn: bool = False
    unitFlag: int = 0
    params: Nz2NdParams | Nz2DnParams | None = None
    dualDstCtrl: int = 0
    subBlockId: int = 0
    isChannelSplit: bool = False
