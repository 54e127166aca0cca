"""The C++ spellings, so a kernel body can be transliterated line by line.

    from ascsim import Core
    from ascsim.ascendc import *          # or: import ascsim.ascendc as AscendC
    core = Core("a2")
    with use(core):
        SetFmatrix(4, 4, [1, 1, 1, 1], FmatrixMode.FMATRIX_LEFT)
        LoadData(l0a, l1, LoadData3DParamsV2(...))
        Mmad(l0c, l0a, l0b, MmadParams(16, 16, 64))

Instructions find their Core through the tensors they touch; register setters (no tensor) use the
core made current by `use(core)`.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from enum import Enum

from .core import Core
from .errors import AscsimError
from .memory import LocalTensor
from .params import (
    CFG_COLUMN_MAJOR,
    CFG_NZ,
    CFG_ROW_MAJOR,
    IS_RESER_LOAD3D_DEFAULT_CONFIG,
    CO2Layout,
    DataCopyParams,
    Dn2NzParams,
    FixpipeConfig,
    FixpipeParamsArch3510,
    FixpipeParamsV220,
    IsResetLoad3dConfig,
    Load2DBitModeParam,
    Load3DBitModeParam,
    LoadData2DMxParams,
    LoadData2DParams,
    LoadData2DParamsV2,
    LoadData2dTransposeParams,
    LoadData2dTransposeParamsV2,
    LoadData3DParamsV1,
    LoadData3DParamsV2,
    LoadData3DParamsV2Pro,
    LoadDataRepeatParam,
    LoadDataRepeatParamWithStride,
    MmadParams,
    Nd2NzParams,
    Nz2DnParams,
    Nz2NdParams,
    QuantMode_t,
    SetFMatrixBitModeParams,
)
from .plan import ExecReport

__all__ = [
    "use", "FmatrixMode", "TPosition", "LoadData", "LoadDataWithStride", "LoadDataWithTranspose",
    "LoadDataWithSparse", "Mmad",
    "MmadWithSparse", "MmadMx", "DataCopy", "Fixpipe", "SetFmatrix", "SetLoadDataPaddingValue",
    "SetLoadDataRepeat", "SetLoadDataRepeatWithStride", "SetLoadDataBoundary",
    "IS_RESER_LOAD3D_DEFAULT_CONFIG", "IsResetLoad3dConfig", "Load3DBitModeParam", "LoadData2DMxParams",
    "LoadData2DParams", "LoadData2DParamsV2", "LoadData2dTransposeParams", "LoadData2dTransposeParamsV2",
    "LoadData3DParamsV1", "LoadData3DParamsV2", "LoadData3DParamsV2Pro", "LoadDataRepeatParam",
    "LoadDataRepeatParamWithStride", "MmadParams", "SetFMatrixBitModeParams", "Load2DBitModeParam",
    "DataCopyParams", "Nd2NzParams", "Dn2NzParams", "FixpipeParamsV220", "FixpipeParamsArch3510",
    "Nz2NdParams", "Nz2DnParams", "QuantMode_t", "CO2Layout", "FixpipeConfig", "CFG_ROW_MAJOR", "CFG_NZ",
    "CFG_COLUMN_MAJOR",
]

_current: list[Core] = []


class FmatrixMode(Enum):
    FMATRIX_LEFT = "FMATRIX_LEFT"
    FMATRIX_RIGHT = "FMATRIX_RIGHT"


class TPosition(str, Enum):
    GM = "GM"
    A1 = "A1"
    A2 = "A2"
    B1 = "B1"
    B2 = "B2"
    C1 = "C1"
    C2 = "C2"
    CO1 = "CO1"
    CO2 = "CO2"


@contextlib.contextmanager
def use(core: Core) -> Iterator[Core]:
    """Make `core` the target of register setters inside the block."""
    _current.append(core)
    try:
        yield core
    finally:
        _current.pop()


def _core_of(*tensors: LocalTensor | None) -> Core:
    for t in tensors:
        owner = getattr(getattr(t, "memory", None), "owner", None)
        if isinstance(owner, Core):
            return owner
    if _current:
        return _current[-1]
    raise AscsimError("no current Core: wrap the calls in `with ascsim.ascendc.use(core):`")


def _pos(p: object) -> str | None:
    return None if p is None else str(getattr(p, "value", p))


def LoadData(dst: LocalTensor, src: LocalTensor, *args, config: IsResetLoad3dConfig | None = None,  # noqa: N802
             Dst: object = None, Src: object = None) -> ExecReport:
    """`LoadData(dst, src, params)`; `LoadData(dst, src, srcMx, params, mxParams)` for Load2DMX;
    `LoadData<Dst, Src>(dst, src, bitModeParam)` as `LoadData(dst, src, bm, Dst=TPosition.A2, Src=...)`."""
    core = _core_of(dst, src)
    if len(args) == 3:
        return core.load_data_mx(dst, src, *args)
    (params,) = args
    return core.load_data(dst, src, params, config, dst_pos=_pos(Dst), src_pos=_pos(Src))


def LoadDataWithStride(dst: LocalTensor, src: LocalTensor, params,  # noqa: N802
                       config: IsResetLoad3dConfig | None = None) -> ExecReport:
    """`LoadDataWithStride(dst, src, LoadData3DParamsV2)` (950; doc: LoadDataWithStride.md)."""
    return _core_of(dst, src).load_data_with_stride(dst, src, params, config)


def LoadDataWithTranspose(dst: LocalTensor, src: LocalTensor, params) -> ExecReport:  # noqa: N802
    """`LoadDataWithTranspose(dst, src, LoadData2dTransposeParams[V2])` (doc: LoadDataWithTranspose.md)."""
    return _core_of(dst, src).load_data_with_transpose(dst, src, params)


def LoadDataWithSparse(dst: LocalTensor, src: LocalTensor, idx: LocalTensor, params) -> ExecReport:  # noqa: N802
    """`LoadDataWithSparse(dst, src, idx, LoadData2DParams)` (A2/A3; doc: LoadDataWithSparse.md)."""
    return _core_of(dst, src).load_data_with_sparse(dst, src, idx, params)


def Mmad(c: LocalTensor, a: LocalTensor, b: LocalTensor, *args) -> ExecReport:  # noqa: N802
    """`Mmad(c, a, b, params)` or `Mmad(c, a, b, bias, params)`."""
    bias, params = (None, args[0]) if len(args) == 1 else args
    return _core_of(c, a, b).mmad(c, a, b, params, bias)


def MmadWithSparse(c: LocalTensor, a: LocalTensor, b: LocalTensor, params) -> ExecReport:  # noqa: N802
    """`MmadWithSparse(c, a, b, MmadParams)` (A2/A3; doc: MmadWithSparse.md)."""
    return _core_of(c, a, b).mmad_with_sparse(c, a, b, params)


def MmadMx(c: LocalTensor, a: LocalTensor, b: LocalTensor, *args) -> ExecReport:  # noqa: N802
    """`MmadMx(c, a, b, params)` or `MmadMx(c, a, b, bias, params)` (950; doc: MmadMx.md)."""
    bias, params = (None, args[0]) if len(args) == 1 else args
    return _core_of(c, a, b).mmad_mx(c, a, b, params, bias)


def DataCopy(dst: LocalTensor, src: LocalTensor, params, enableSmallC0: bool = False) -> ExecReport:  # noqa: N802,N803
    """`DataCopy(dst, src, params)` GM -> L1: a count, DataCopyParams, Nd2NzParams or Dn2NzParams."""
    return _core_of(dst, src).data_copy(dst, src, params, enable_small_c0=enableSmallC0)


def Fixpipe(dst: LocalTensor, src: LocalTensor, params, config=None, cbufWorkspace=None) -> ExecReport:  # noqa: N802,N803
    """`Fixpipe<T, U, config>(dst, src, params)`: pass the FixpipeConfig (CFG_ROW_MAJOR, CFG_NZ, ...)."""
    return _core_of(src, dst).fixpipe(dst, src, params, config, cbufWorkspace)


def SetFmatrix(*args) -> None:  # noqa: N802
    """`SetFmatrix(l1H, l1W, padList, FmatrixMode)` or `SetFmatrix(SetFMatrixBitModeParams, FmatrixMode)`."""
    if args and isinstance(args[0], SetFMatrixBitModeParams):
        param, mode = (args + (FmatrixMode.FMATRIX_LEFT,))[:2]
        _core_of().set_fmatrix_bitmode(param, str(getattr(mode, "value", mode)))
        return
    l1H, l1W, padList, mode = (args + (FmatrixMode.FMATRIX_LEFT,))[:4]  # noqa: N806
    _core_of().set_fmatrix(l1H, l1W, padList, str(getattr(mode, "value", mode)))


def SetLoadDataPaddingValue(padValue: float, dtype: str = "half") -> None:  # noqa: N802,N803
    """`SetLoadDataPaddingValue<T>(padValue)`: pass T as `dtype`."""
    _core_of().set_padding_value(padValue, dtype)


def SetLoadDataRepeat(params: LoadDataRepeatParam) -> None:  # noqa: N802
    """`SetLoadDataRepeat(LoadDataRepeatParam)` (doc: SetLoadDataRepeat.md)."""
    _core_of().set_load_data_repeat(params)


def SetLoadDataRepeatWithStride(params: LoadDataRepeatParamWithStride) -> None:  # noqa: N802
    """`SetLoadDataRepeatWithStride(LoadDataRepeatParamWithStride)` (950)."""
    _core_of().set_load_data_repeat(params)


def SetLoadDataBoundary(boundaryValue: int) -> None:  # noqa: N802,N803
    """`SetLoadDataBoundary(boundaryValue)` (A2/A3; doc: SetLoadDataBoundary.md)."""
    _core_of().set_load_data_boundary(boundaryValue)
