"""GM-side copy parameter structs: DataCopy GM->L1 (plain, ND2NZ, DN2NZ), L1->BT/FB, DataCopyPad and Fixpipe.

Names and field order follow the doc tables (docs/gm_copies.md "Parameters"):
- `DataCopyParams`: M/矩阵计算的搬入/DataCopy（GMToL1高维切分数据搬运）.md 表3. The C++ members are
  srcStride/dstStride; the doc calls them srcGap/dstGap (end-to-start gaps in 32-B blocks), so both
  spellings work here.
- `Nd2NzParams`: DataCopy（GMToL1随路转换-ND2NZ搬运）.md 表3; `Dn2NzParams`: …DN2NZ搬运）.md 表3.
- `FixpipeParamsV220` (arch 2201) and `FixpipeParamsArch3510` (950) with `Nz2NdParams` / `Nz2DnParams`,
  `QuantMode_t`, `CO2Layout`, `FixpipeConfig`: M/矩阵计算的搬出/Fixpipe（L0C到GM数据搬运）.md 表1/表3/表4.
  Field order = the C++ constructor order (kernel_struct_fixpipe.h: nSize, mSize, srcStride, dstStride,
  reluEn, quantPre, deqScalar, ndNum, srcNdStride, dstNdStride, unitFlag, isChannelSplit for V220;
  FixpipeParamsArch3510's constructor takes the first four). `FixpipeParamsArch3510[CO2Layout.X]` and
  `FixpipeParamsC310[CO2Layout.X]` spell the C++ template argument: the struct with `params` preset to the
  TransformParams of that format.
- `DataCopyExtParams` / `DataCopyPadExtParams` / `PaddingMode`: DataCopyPad（GMToL1非对齐数据搬运）.md 表1/3/4
  (kernel_struct_data_copy.h field order).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum

from ..base import coerce
from ..base.errors import ParamRangeError, cpp_rejects
from .base import Struct, extent


@dataclass
class DataCopyParams(Struct):
    """DataCopy GM->L1 in blocks. blockLen, srcStride (gap), dstStride (gap) in 32-B DataBlocks."""

    blockCount: int = 1
    blockLen: int = extent()
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
class Nd2NzParams(Struct):
    """ND2NZ. src strides in elements, dstNzC0Stride/dstNzNStride in 32 B, dstNzMatrixStride in elements.
    b4 types give every value in b8 units (doc 约束说明)."""

    ndNum: int = extent()
    nValue: int = extent()
    dValue: int = extent()
    srcNdMatrixStride: int = 0
    srcDValue: int = 0
    dstNzC0Stride: int = 0
    dstNzNStride: int = 0
    dstNzMatrixStride: int = 0


@dataclass
class Dn2NzParams(Struct):
    """DN2NZ (950). nValue = DN columns (NZ rows), dValue = DN rows (NZ columns); units as Nd2NzParams."""

    dnNum: int = extent()
    nValue: int = extent()
    dValue: int = extent()
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


_LAYOUT_BASIS = cpp_rejects("enum class CO2Layout")


@dataclass(frozen=True)
class FixpipeConfig:
    """Fixpipe template argument `config` (表1). `format` takes a CO2Layout, its value or its name."""

    format: CO2Layout = CO2Layout.ROW_MAJOR
    isToUB: bool = False

    def __post_init__(self) -> None:
        object.__setattr__(self, "format", coerce.choice("FixpipeConfig", "format", self.format, CO2Layout,
                                                         _LAYOUT_BASIS))
        object.__setattr__(self, "isToUB", coerce.flag("FixpipeConfig", "isToUB", self.isToUB,
                                                       cpp_rejects("bool isToUB")))


CFG_NZ = FixpipeConfig(CO2Layout.NZ)
CFG_ROW_MAJOR = FixpipeConfig(CO2Layout.ROW_MAJOR)
CFG_COLUMN_MAJOR = FixpipeConfig(CO2Layout.COLUMN_MAJOR)


def fixpipe_config(instr: str, config: object) -> FixpipeConfig:
    """The `config` template argument of a Fixpipe call: a FixpipeConfig, or a CO2Layout (member, value or
    name) standing for FixpipeConfig(format); None is the default CFG_ROW_MAJOR."""
    if config is None:
        return CFG_ROW_MAJOR
    if isinstance(config, FixpipeConfig):
        return config
    try:
        return FixpipeConfig(coerce.choice(instr, "config", config, CO2Layout, _LAYOUT_BASIS))
    except ParamRangeError:
        raise ParamRangeError(f"{instr}: config must be a FixpipeConfig (CFG_ROW_MAJOR, CFG_NZ, "
                              "CFG_COLUMN_MAJOR) or a CO2Layout (NZ = 0, ROW_MAJOR = 1, COLUMN_MAJOR = 2), "
                              f"but got {coerce.show(config)}", basis=_LAYOUT_BASIS) from None


@dataclass
class FixpipeParamsV220(Struct):
    """Fixpipe L0C->GM/L1, arch 2201 (表4). srcStride in C0_Size (16 L0C elements); dstStride in 32 B
    (NZ2NZ) or elements (NZ2ND); srcNdStride in 16*C0_Size; dstNdStride in elements. Positional order =
    the C++ constructors (kernel_struct_fixpipe.h)."""

    nSize: int = extent()
    mSize: int = extent()
    srcStride: int = 0
    dstStride: int = 0
    reluEn: bool = False
    quantPre: QuantMode_t = QuantMode_t.NoQuant
    deqScalar: int = 0
    ndNum: int = 1
    srcNdStride: int = 0
    dstNdStride: int = 0
    unitFlag: int = 0
    isChannelSplit: bool = False


#: FixpipeParamsM300 / M310 are aliases of the V220 struct in C++ (kernel_struct_fixpipe.h).
FixpipeParamsM300 = FixpipeParamsV220


@dataclass
class Nz2NdParams(Struct):
    """TransformParams<ROW_MAJOR> of FixpipeParamsArch3510 (表3). srcNdStride in C0_SIZE."""

    ndNum: int = 1
    srcNdStride: int = 0
    dstNdStride: int = 0


@dataclass
class Nz2DnParams(Struct):
    """TransformParams<COLUMN_MAJOR> of FixpipeParamsArch3510 (表3). Strides in C0_SIZE / elements."""

    dnNum: int = 1
    srcNzMatrixStride: int = 0
    dstDnMatrixStride: int = 0
    srcNzC0Stride: int = 0


@dataclass
class FixpipeParamsArch3510(Struct):
    """Fixpipe L0C->GM, arch 3510 / Ascend 950 (表3). dstStride is in elements for every layout; `params`
    holds Nz2NdParams (CFG_ROW_MAJOR), Nz2DnParams (CFG_COLUMN_MAJOR) or None (CFG_NZ / defaults)."""

    nSize: int = extent()
    mSize: int = extent()
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

    def __class_getitem__(cls, fmt: CO2Layout):  # noqa: D105 - C++ FixpipeParamsArch3510<format>
        return _templated(cls, fmt)


def _templated(cls: type, fmt: object):
    """`Struct[CO2Layout.X]`: a constructor for `cls` whose `params` defaults to the TransformParams of
    format X (Nz2NdParams for ROW_MAJOR, Nz2DnParams for COLUMN_MAJOR, none for NZ), like the C++
    template `FixpipeParamsArch3510<format>`."""
    layout = coerce.choice(f"{cls.__name__}[format]", "format", fmt, CO2Layout, _LAYOUT_BASIS)
    sub = {CO2Layout.ROW_MAJOR: Nz2NdParams, CO2Layout.COLUMN_MAJOR: Nz2DnParams}.get(layout)

    def make(*args, **kw):
        if sub is not None and len(args) < 9 and "params" not in kw:
            kw["params"] = sub()
        return cls(*args, **kw)

    make.__name__ = f"{cls.__name__}<{layout.name}>"
    return make


@dataclass
class FixpipeParamsC310(FixpipeParamsArch3510):
    """`FixpipeParamsC310<format>`: the C++ subclass of FixpipeParamsArch3510 with the same fields and the
    (nSize, mSize, srcStride, dstStride) constructor (kernel_struct_fixpipe.h); ascsim treats it as
    FixpipeParamsArch3510."""


@dataclass
class DataCopyCO12DstParams(Struct):
    """`DataCopy(dst, src, DataCopyCO12DstParams)` CO1 -> GM / L1 (DataCopy（L0C到GM数据搬运）.md 表3).
    Positional
    order = the C++ constructor (nSize, mSize, dstStride, srcStride, quantPre, reluPre, channelSplit,
    nz2ndEn); sid, unitFlag, clipReluPre, eltWiseOp by keyword. Units as FixpipeParamsV220."""

    nSize: int = extent()
    mSize: int = extent()
    dstStride: int = 0
    srcStride: int = 0
    quantPre: QuantMode_t = QuantMode_t.NoQuant
    reluPre: int = 0
    channelSplit: bool = False
    nz2ndEn: bool = False
    sid: int = 0
    unitFlag: int = 0
    clipReluPre: int = 0
    eltWiseOp: int = 0


class PaddingMode(IntEnum):
    """DataCopyPad template argument `mode` (DataCopyPad（GMToL1非对齐数据搬运）.md 表1)."""

    Normal = 0
    Compact = 1


@dataclass
class DataCopyExtParams(Struct):
    """DataCopyPad blocks (表3): blockLen and srcStride (end-to-start gap, may be negative) in bytes,
    dstStride (gap) in 32-B blocks; rsv reserved."""

    blockCount: int = 1
    blockLen: int = extent()
    srcStride: int = 0
    dstStride: int = 0
    rsv: int = 0


@dataclass
class DataCopyPadExtParams(Struct):
    """DataCopyPad padding (表4): isPad (false = the pad register's previous value), left/right padding in
    elements (at most 32 B each), paddingValue (a T value or `ascsim.Bits`)."""

    isPad: bool = False
    leftPadding: int = 0
    rightPadding: int = 0
    paddingValue: float = 0
