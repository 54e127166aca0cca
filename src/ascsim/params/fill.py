"""Fill / InitConstValue parameters (doc: 矩阵搬入辅助配置接口/Fill.md 表3; asc-devkit kernel_struct_mm.h)."""

from __future__ import annotations

from dataclasses import dataclass

from .base import Struct, extent


@dataclass
class InitConstValueParams(Struct):
    """`InitConstValueParams<T>{repeatTimes, blockNum, dstGap, initValue}`.

    blockNum / dstGap count 32-B blocks in L1 and 512-B blocks in L0A/L0B; on the Atlas training series and
    the inference AI Core only repeatTimes and initValue exist (the C++ two-argument constructor
    `InitConstValueParams<T>(repeatTimes, initValue)` is `InitConstValueParams.repeat_only(...)`).
    initValue is a value of T, or `ascsim.Bits(pattern)`."""

    repeatTimes: int = extent()
    blockNum: int = 0  # not an extent: the repeat-only form (isa.fill) does not read it
    dstGap: int = 0
    initValue: float = 0

    @classmethod
    def repeat_only(cls, repeatTimes: int, initValue: float) -> InitConstValueParams:  # noqa: N803
        """The C++ constructor InitConstValueParams(repeatTimes, initValue)."""
        return cls(repeatTimes, 0, 0, initValue)
