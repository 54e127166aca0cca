"""The registers of one core that instructions read and setters write (the hidden state of the load
path: FMATRIX, PADDING, the repeat config, the L1 boundary; and the Fixpipe / atomic / pad registers)."""

from __future__ import annotations

from dataclasses import dataclass, field


class _HashedValue:
    """Frozen register values that sit in every Load3D cache key: the hash is computed once."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "_hash", hash(tuple(self.__dict__.values())))

    def __hash__(self) -> int:
        return self._hash  # type: ignore[attr-defined]


@dataclass(frozen=True, eq=True)
class Fmatrix(_HashedValue):
    """One FMATRIX bank: feature-map height/width in L1 and its padding [left, right, top, bottom]."""

    l1H: int = 0
    l1W: int = 0
    padList: tuple[int, int, int, int] = (0, 0, 0, 0)
    __hash__ = _HashedValue.__hash__


@dataclass(frozen=True, eq=True)
class RepeatConfig(_HashedValue):
    """The Load3D repeat register written by SetLoadDataRepeat[WithStride] (doc: SetLoadDataRepeat.md)."""

    repeatStride: int = 0
    repeatTime: int = 1
    repeatMode: int = 0
    dstStride: int = 0  # 950 only; 0 = "not set" (ascsim then uses the dense stride, see divergences)
    __hash__ = _HashedValue.__hash__


@dataclass(frozen=True)
class AtomicMode:
    """How moves into GM combine with what is there: op "add", "max" or "min", computed in type `dtype`."""

    op: str
    dtype: str

    @property
    def setter(self) -> str:
        """The C++ call that set it (for messages): SetAtomicAdd<T> / SetAtomicMax<T> / SetAtomicMin<T>."""
        return f"SetAtomic{self.op.capitalize()}<{self.dtype}>"


@dataclass
class Registers:
    """The load registers of one core; every instruction reads them, the setters write them."""

    fmatrix_left: Fmatrix = field(default_factory=Fmatrix)
    fmatrix_right: Fmatrix = field(default_factory=Fmatrix)
    padding: int = 0  # raw bit pattern; the instruction reads the low bits of its element width
    repeat: RepeatConfig = field(default_factory=RepeatConfig)
    boundary: int = 0  # raw boundaryValue: bytes for v2, 32-B units for v1; 0 = no boundary
    # Fixpipe registers (矩阵搬出辅助配置接口; the Fixpipe call writes them too, as its C++ API does):
    # ND_PARA (ndNum, srcNdStride, dstNdStride): SetFixpipeNz2ndFlag
    nd_para: tuple[int, int, int] = (1, 0, 0)
    # QUANT_PRE, the scalar quantisation word: SetFixpipePreQuantFlag / deqScalar
    quant_pre: int = 0
    # FPC[15:8], the FB byte address of the quant vector: SetFixPipeConfig; None = never set
    fpc_quant: int | None = None
    # the atomic store into GM (SetAtomicAdd / SetAtomicMax / SetAtomicMin<T>); None = off (DisableDmaAtomic)
    atomic: AtomicMode | None = None
    # MOV_PAD_VAL raw bits (DataCopyPad with isPad); None = never set
    mov_pad: int | None = None
