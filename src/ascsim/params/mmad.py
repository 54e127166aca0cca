"""Mmad parameter structs (doc: Mmad计算/Mmad.md 表4; kernel_struct_mm.h)."""

from __future__ import annotations

from dataclasses import dataclass

from .base import Struct, extent


@dataclass
class MmadParams(Struct):
    """Mmad. Constructor order (m, n, k, isBias, fmOffset, enSsparse, enWinogradA, enWinogradB) plus the
    keyword fields of kernel_struct_mm.h. doc: Mmad.md 表4."""

    m: int = extent()
    n: int = extent()
    k: int = extent()
    isBias: bool = False
    fmOffset: int = 0
    enSsparse: bool = False
    enWinogradA: bool = False
    enWinogradB: bool = False
    unitFlag: int = 0
    kDirectionAlign: bool = False
    cmatrixSource: bool = False
    cmatrixInitVal: bool = True
    disableGemv: bool = False
