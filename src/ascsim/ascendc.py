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
from collections.abc import Callable, Iterator
from enum import Enum

from .base import coerce
from .base.errors import AscsimError, ParamRangeError, cpp_rejects, public_entry
from .core import Core
from .isa.table import INSTRUCTIONS, STRUCT, TENSOR, Arg, Form, Instruction
from .machine.dtypes import DType, get_dtype
from .machine.memory import LocalTensor
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
from .params.base import Struct

__all__ = [
    "use", "FmatrixMode", "TPosition", "GlobalTensor",
    "IS_RESER_LOAD3D_DEFAULT_CONFIG", "IsResetLoad3dConfig", "Load3DBitModeParam", "LoadData2DMxParams",
    "LoadData2DParams", "LoadData2DParamsV2", "LoadData2dTransposeParams", "LoadData2dTransposeParamsV2",
    "LoadData3DParamsV1", "LoadData3DParamsV2", "LoadData3DParamsV2Pro", "LoadDataRepeatParam",
    "LoadDataRepeatParamWithStride", "MmadParams", "SetFMatrixBitModeParams", "Load2DBitModeParam",
    "DataCopyParams", "Nd2NzParams", "Dn2NzParams", "FixpipeParamsV220", "FixpipeParamsArch3510",
    "Nz2NdParams", "Nz2DnParams", "QuantMode_t", "CO2Layout", "FixpipeConfig", "CFG_ROW_MAJOR", "CFG_NZ",
    "CFG_COLUMN_MAJOR", "InitConstValueParams", "DataCopyExtParams", "DataCopyPadExtParams", "PaddingMode",
    "DataCopyCO12DstParams", "LoadData2dParams", "FixpipeParamsC310", "FixpipeParamsM300",
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
        self.offset, self.length, self.name = 0, 0, None
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


def _plain(v: object) -> object:
    """The facade's own enums (TPosition, FmatrixMode) stand for their names; every other value as it is."""
    return v.value if isinstance(v, (TPosition, FmatrixMode)) else v


def _fits(a: Arg, v: object) -> bool:
    """Can `v` be argument `a` (overload resolution between forms: a tensor slot takes a tensor, a struct
    slot a struct it accepts, a value slot anything else)?"""
    if a.kind == TENSOR:
        return isinstance(v, LocalTensor)
    if a.kind == STRUCT and a.structs:  # a struct its family checks (check=False) may be any params struct
        return isinstance(v, a.structs if a.check else Struct)
    return not isinstance(v, LocalTensor)


def _bind(form: Form, args: tuple, keywords: set[str], many: bool) -> dict[str, object] | None:
    """The form's arguments by name from C++-ordered positional `args`, leaving out the slots `keywords`
    (Arg names) fill (None: the form does not fit)."""
    slots = [(n, opt) for n, opt in form.positional() if n not in keywords]
    required = sum(not opt for _, opt in slots)
    extra = len(args) - required
    if not 0 <= extra <= len(slots) - required:
        return None
    out: dict[str, object] = {}
    it = iter(args)
    for name, opt in slots:
        if opt:
            if extra == 0:
                continue
            extra -= 1
        v = next(it)
        if many and not _fits(form.op.arg(name), v):
            return None
        out[name] = _plain(v)
    return out


def _spelling(ins: Instruction) -> Callable[..., object]:
    """The C++ spelling of one API name: pick the form the arguments fit (C++ overload resolution), take the
    template / defaulted arguments as keywords by their C++ names, and call the Core method."""
    many = len(ins.forms) > 1

    def call(*args: object, **kwargs: object) -> object:
        for form in ins.forms:
            by_cpp = form.op.by_cpp
            named = {by_cpp[k].name for k in kwargs if k in by_cpp}
            bound = _bind(form, args, named, many)
            if bound is not None:
                break
        else:
            raise ParamRangeError(f"{ins.name}: takes {ins.usage()}, but got {len(args)} argument(s)",
                                  basis=cpp_rejects(f"no {ins.name} overload takes {len(args)}"))
        for k, v in kwargs.items():
            a = by_cpp.get(k)
            if a is None:
                raise ParamRangeError(f"{ins.name}: unexpected argument {k}; it takes {ins.usage()} and the "
                                      f"keywords {', '.join(by_cpp)}")
            bound[a.name] = _plain(v)
        bound.update(form.fixed)
        core = _core_of(*(bound.get(a.name) for a in form.op.args if a.kind == TENSOR))
        return getattr(core, form.op.method)(**bound)

    call.__name__ = call.__qualname__ = ins.name
    call.__doc__ = " / ".join(f.op.doc for f in ins.forms)
    return public_entry(call)  # a refusal's traceback ends at the caller's line (base.errors.trim)


#: One function per C++ API name of the instruction table (`LoadData`, `Mmad`, `SetFmatrix`, ...).
_SPELLINGS = {ins.name: _spelling(ins) for ins in INSTRUCTIONS}
globals().update(_SPELLINGS)

__all__ += list(_SPELLINGS)
