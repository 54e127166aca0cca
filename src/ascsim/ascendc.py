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

Template arguments become keyword arguments or leading positional ones: `SetAtomicAdd("float")` for
`SetAtomicAdd<float>()`, `DataCopyPad(dst, src, p, pad, mode=PaddingMode.Compact)`,
`LoadData(dst, src, params, config=IsResetLoad3dConfig(False, True))` for the `IsResetLoad3dConfig`
template argument of Load3D (docs/registers.md), `FixpipeParamsArch3510[CO2Layout.COLUMN_MAJOR]()` for
`FixpipeParamsArch3510<CO2Layout::COLUMN_MAJOR>`. `GlobalTensor(dtype)` + `SetGlobalBuffer(addr, size)`
views GM: `addr` is a GM byte address (`t.GetPhyAddr()` of a `core.global_tensor`) or a GM tensor.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from enum import Enum

from . import coerce
from .core import Core
from .dtypes import DType, get_dtype
from .errors import AscsimError, ParamRangeError
from .memory import LocalTensor
from .params import (
    CFG_COLUMN_MAJOR,
    CFG_NZ,
    CFG_ROW_MAJOR,
    IS_RESER_LOAD3D_DEFAULT_CONFIG,
    CO2Layout,
    DataCopyCO12DstParams,
    DataCopyExtParams,
    DataCopyPadExtParams,
    DataCopyParams,
    Dn2NzParams,
    FixpipeConfig,
    FixpipeParamsArch3510,
    FixpipeParamsC310,
    FixpipeParamsM300,
    FixpipeParamsV220,
    InitConstValueParams,
    IsResetLoad3dConfig,
    Load2DBitModeParam,
    Load3DBitModeParam,
    LoadData2DMxParams,
    LoadData2DParams,
    LoadData2dParams,
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
    PaddingMode,
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
    "CFG_COLUMN_MAJOR", "GlobalTensor", "Fill", "InitConstValue", "InitConstValueParams", "DataCopyPad",
    "DataCopyExtParams", "DataCopyPadExtParams", "PaddingMode", "DataCopyCO12DstParams", "SetAtomicAdd",
    "SetAtomicNone", "DisableDmaAtomic", "SetFixpipeNz2ndFlag", "SetFixpipePreQuantFlag", "SetFixPipeConfig",
    "LoadData2dParams", "FixpipeParamsC310", "FixpipeParamsM300",
]

_current: list[Core] = []


def _whole(instr: str, name: str, value: object) -> int:
    """An address or size as an integer (its range is checked against GM: a BoundsError)."""
    v = coerce.as_int(value)
    if v is None:
        raise ParamRangeError(f"{instr}: {name} must be an integer, but got {coerce.show(value)}")
    return v


class GlobalTensor(LocalTensor):
    """`AscendC::GlobalTensor<T>`: `GlobalTensor("half")`, then `SetGlobalBuffer(buffer, bufferSize)`.

    `buffer` is a GM byte address or a GM tensor (its address); the Core is the GM tensor's, else the one
    made current by `use(core)` (or `core=`). Without `bufferSize` the view runs to the end of GM, as a C++
    GlobalTensor set without a size has no bound to check against."""

    __slots__ = ()

    def __init__(self, dtype: DType | str = "uint8_t", core: Core | None = None) -> None:
        self.dtype = get_dtype(dtype)
        self.position = "GM"
        self.offset, self.length = 0, 0
        self.memory = core.gm if core is not None else None  # bound by SetGlobalBuffer

    def SetGlobalBuffer(self, buffer: int | LocalTensor, bufferSize: int | None = None) -> None:  # noqa: N802,N803
        instr = "GlobalTensor.SetGlobalBuffer"
        if isinstance(buffer, LocalTensor):
            if buffer.memory is None or buffer.memory.name != "GM":
                where = ("an unbound GlobalTensor" if buffer.memory is None
                         else f"a tensor in {buffer.memory.name}")
                raise ParamRangeError(f"{instr}: buffer must be a GM address or GM tensor, but got {where}")
            mem, addr = buffer.memory, buffer.offset
        else:
            mem = self.memory if self.memory is not None else _core_of().gm
            addr = _whole(instr, "buffer", buffer)
        bits = self.dtype.bits
        length = ((mem.size - addr) * 8 // bits if bufferSize is None
                  else _whole(instr, "bufferSize", bufferSize))
        probe = LocalTensor(mem, "GM", addr, self.dtype, length)  # checks the range against GM
        self.memory, self.offset, self.length = probe.memory, probe.offset, probe.length

    def __repr__(self) -> str:
        if self.memory is None:
            return f"GlobalTensor<{self.dtype}>(unset: call SetGlobalBuffer)"
        return super().__repr__()


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


def _forms(instr: str, args: tuple, counts: tuple[int, ...], forms: str) -> None:
    """ParamRangeError unless a variadic C++ spelling got one of its overloads' argument counts."""
    if len(args) not in counts:
        raise ParamRangeError(f"{instr}: takes {forms}, but got {len(args)} argument(s) after the tensors "
                              f"(the C++ API rejects this: no {instr} overload takes {len(args)})")


def LoadData(dst: LocalTensor, src: LocalTensor, *args, config: IsResetLoad3dConfig | None = None,  # noqa: N802
             Dst: object = None, Src: object = None) -> ExecReport:
    """`LoadData(dst, src, params)`; `LoadData(dst, src, srcMx, params, mxParams)` for Load2DMX;
    `LoadData<Dst, Src>(dst, src, bitModeParam)` as `LoadData(dst, src, bm, Dst=TPosition.A2, Src=...)`."""
    core = _core_of(dst, src)
    _forms("LoadData", args, (1, 3), "(dst, src, params) or (dst, src, srcMx, params, mxParams)")
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
    _forms("Mmad", args, (1, 2), "(dst, fm, filter, params) or (dst, fm, filter, bias, params)")
    bias, params = (None, args[0]) if len(args) == 1 else args
    return _core_of(c, a, b).mmad(c, a, b, params, bias)


def MmadWithSparse(c: LocalTensor, a: LocalTensor, b: LocalTensor, params) -> ExecReport:  # noqa: N802
    """`MmadWithSparse(c, a, b, MmadParams)` (A2/A3; doc: MmadWithSparse.md)."""
    return _core_of(c, a, b).mmad_with_sparse(c, a, b, params)


def MmadMx(c: LocalTensor, a: LocalTensor, b: LocalTensor, *args) -> ExecReport:  # noqa: N802
    """`MmadMx(c, a, b, params)` or `MmadMx(c, a, b, bias, params)` (950; doc: MmadMx.md)."""
    _forms("MmadMx", args, (1, 2), "(dst, fm, filter, params) or (dst, fm, filter, bias, params)")
    bias, params = (None, args[0]) if len(args) == 1 else args
    return _core_of(c, a, b).mmad_mx(c, a, b, params, bias)


def DataCopy(dst: LocalTensor, src: LocalTensor, params, enableSmallC0: bool = False) -> ExecReport:  # noqa: N802,N803
    """`DataCopy(dst, src, params)` GM -> L1: a count, DataCopyParams, Nd2NzParams or Dn2NzParams."""
    return _core_of(dst, src).data_copy(dst, src, params, enable_small_c0=enableSmallC0)


def Fixpipe(dst: LocalTensor, src: LocalTensor, *args, config=None, cbufWorkspace=None) -> ExecReport:  # noqa: N802,N803
    """`Fixpipe<T, U, config>(dst, src[, cbufWorkspace], params)`: pass the FixpipeConfig (CFG_ROW_MAJOR,
    CFG_NZ, ...) as `config` (a trailing positional config is accepted too)."""
    if args and isinstance(args[0], LocalTensor):  # Fixpipe(dst, src, cbufWorkspace, params)
        cbufWorkspace, args = args[0], args[1:]
    _forms("Fixpipe", args, (1, 2), "(dst, src[, cbufWorkspace], params[, config])")
    params, *rest = args
    if rest:
        config = rest[0]
    return _core_of(src, dst).fixpipe(dst, src, params, config, cbufWorkspace)


def SetFmatrix(*args) -> None:  # noqa: N802
    """`SetFmatrix(l1H, l1W, padList, FmatrixMode)` or `SetFmatrix(SetFMatrixBitModeParams, FmatrixMode)`."""
    if args and isinstance(args[0], SetFMatrixBitModeParams):
        _forms("SetFmatrix", args, (1, 2), "(SetFMatrixBitModeParams[, FmatrixMode])")
        param, mode = (args + (FmatrixMode.FMATRIX_LEFT,))[:2]
        _core_of().set_fmatrix_bitmode(param, str(getattr(mode, "value", mode)))
        return
    _forms("SetFmatrix", args, (3, 4), "(l1H, l1W, padList[, FmatrixMode]) or (SetFMatrixBitModeParams[, "
           "FmatrixMode])")
    l1H, l1W, padList, mode = (args + (FmatrixMode.FMATRIX_LEFT,))[:4]  # noqa: N806
    _core_of().set_fmatrix(l1H, l1W, padList, str(getattr(mode, "value", mode)))


def SetLoadDataPaddingValue(padValue: float, dtype: str | None = None) -> None:  # noqa: N802,N803
    """`SetLoadDataPaddingValue<T>(padValue)`: pass T as `dtype`, or padValue as a numpy scalar of type T
    (`np.float16(-8.82)`); a plain Python number without `dtype` is refused (T would be a guess)."""
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


def Fill(dst: LocalTensor, params: InitConstValueParams) -> ExecReport:  # noqa: N802
    """`Fill(dst, InitConstValueParams)` into L1 / L0A / L0B (doc: Fill.md)."""
    return _core_of(dst).init_const_value(dst, params)


def InitConstValue(dst: LocalTensor, params: InitConstValueParams) -> ExecReport:  # noqa: N802
    """`InitConstValue(dst, InitConstValueParams)`: Fill's name before CANN 9 (asc-devkit keeps both)."""
    return _core_of(dst).init_const_value(dst, params, "InitConstValue")


def DataCopyPad(dst: LocalTensor, src: LocalTensor, params: DataCopyExtParams,  # noqa: N802
                padParams: DataCopyPadExtParams | None = None, mode: PaddingMode = PaddingMode.Normal  # noqa: N803
                ) -> ExecReport:
    """`DataCopyPad<T, mode>(dst, src, DataCopyExtParams, DataCopyPadExtParams<T>)` GM -> L1 (950)."""
    return _core_of(dst, src).data_copy_pad(dst, src, params, padParams, mode)


def SetAtomicAdd(dtype: str) -> None:  # noqa: N802
    """`SetAtomicAdd<T>()`: pass T as `dtype`."""
    _core_of().set_atomic_add(dtype)


def SetAtomicNone() -> None:  # noqa: N802
    """`SetAtomicNone()` (renamed DisableDmaAtomic)."""
    _core_of().set_atomic_none()


DisableDmaAtomic = SetAtomicNone


def SetFixpipeNz2ndFlag(ndNum: int, srcNdStride: int, dstNdStride: int) -> None:  # noqa: N802,N803
    """`SetFixpipeNz2ndFlag(ndNum, srcNdStride, dstNdStride)` for DataCopy CO1 -> GM with nz2ndEn."""
    _core_of().set_fixpipe_nz2nd_flag(ndNum, srcNdStride, dstNdStride)


def SetFixpipePreQuantFlag(config: int) -> None:  # noqa: N802
    """`SetFixpipePreQuantFlag(config)`: the scalar quantisation word of DataCopy CO1 -> GM / L1."""
    _core_of().set_fixpipe_pre_quant_flag(config)


def SetFixPipeConfig(*tensors: LocalTensor, isUnitFlag: bool = False) -> None:  # noqa: N802,N803
    """`SetFixPipeConfig(quantPre)` or `SetFixPipeConfig(reluPre, quantPre)` (tensors in the Fixpipe
    Buffer)."""
    if len(tensors) not in (1, 2):
        raise ParamRangeError(f"SetFixPipeConfig: takes (quantPre) or (reluPre, quantPre), but got "
                              f"{len(tensors)} tensors")
    relu, quant = (None, tensors[0]) if len(tensors) == 1 else tensors
    _core_of(quant).set_fixpipe_config(quant, relu, isUnitFlag)
