"""Bridge values -> engine values: tensors onto a core's memories, params structs into ascsim.params
dataclasses, enums by name, element values by their bits.

The C++ headers reflect each params struct with its C++ member names in the dataclass's field order
(ascsim/program/include/ascsim/params.h); `STRUCTS` says, per struct, which dataclass it is, which members
are spelt differently, and which members ascsim does not model (then a value other than the C++ default
is refused with NotImplementedFeature, never dropped silently). tests/program/test_headers.py checks
this table against both the dataclasses and the compiled headers.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, fields
from typing import Any

from ..base.errors import AscsimError, NotImplementedFeature
from ..machine import dtypes
from ..machine.dtypes import Bits as RawBits
from ..machine.memory import LocalTensor, SharedGlobalMemory, memory_of
from ..params import (
    CO2Layout,
    DataCopyCO12DstParams,
    DataCopyExtParams,
    DataCopyPadExtParams,
    DataCopyParams,
    Dn2NzParams,
    FixpipeConfig,
    FixpipeParamsArch3510,
    FixpipeParamsV220,
    InitConstValueParams,
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
    PaddingMode,
    QuantMode_t,
    SetFMatrixBitModeParams,
)
from . import protocol as P

#: TPosition in declaration order (the C++ enum's values).
TPOSITIONS = ("GM", "A1", "A2", "B1", "B2", "C1", "C2", "CO1", "CO2", "VECIN", "VECOUT", "VECCALC", "SPM",
              "TSCM", "C2PIPE2GM", "C2PIPE2LOCAL")


class ProgramError(AscsimError):
    """A call of the program that the C++ runtime or the device would reject (an unbound kernel parameter,
    a GM pointer from nowhere, a queue used before it has buffers): named at its source line."""


@dataclass(frozen=True)
class StructSpec:
    """How one reflected C++ struct becomes an ascsim.params value.

    cls: the dataclass (or a constructor taking the fields positionally, for the bit-mode classes);
    renames: C++ member -> dataclass field; cpp_only: members ascsim does not model -> their C++ default
    (another value is NotImplementedFeature); positional: build with the values in order."""

    cls: Callable[..., Any]
    renames: dict[str, str] | None = None
    cpp_only: dict[str, Any] | None = None
    positional: bool = False


STRUCTS: dict[str, StructSpec] = {
    "LoadData2DParams": StructSpec(LoadData2DParams),
    "LoadData2DParamsV2": StructSpec(LoadData2DParamsV2),
    "LoadData2dTransposeParams": StructSpec(LoadData2dTransposeParams),
    "LoadData2dTransposeParamsV2": StructSpec(LoadData2dTransposeParamsV2),
    "LoadData2DMxParams": StructSpec(LoadData2DMxParams),
    "LoadData3DParamsV1": StructSpec(LoadData3DParamsV1),
    "LoadData3DParamsV2": StructSpec(LoadData3DParamsV2),
    "LoadData3DParamsV2Pro": StructSpec(LoadData3DParamsV2Pro),
    "IsResetLoad3dConfig": StructSpec(IsResetLoad3dConfig),
    "LoadDataRepeatParam": StructSpec(LoadDataRepeatParam),
    "LoadDataRepeatParamWithStride": StructSpec(LoadDataRepeatParamWithStride),
    "Load3DBitModeParam": StructSpec(Load3DBitModeParam, positional=True),
    "Load2DBitModeParam": StructSpec(Load2DBitModeParam, positional=True),
    "SetFMatrixBitModeParams": StructSpec(SetFMatrixBitModeParams, positional=True),
    "MmadParams": StructSpec(MmadParams),
    "InitConstValueParams": StructSpec(InitConstValueParams),
    "DataCopyParams": StructSpec(DataCopyParams),
    "Nd2NzParams": StructSpec(Nd2NzParams),
    "Dn2NzParams": StructSpec(Dn2NzParams),
    "DataCopyCO12DstParams": StructSpec(DataCopyCO12DstParams),
    "DataCopyExtParams": StructSpec(DataCopyExtParams),
    "DataCopyPadExtParams": StructSpec(DataCopyPadExtParams),
    "FixpipeConfig": StructSpec(FixpipeConfig),
    "FixpipeParamsV220": StructSpec(FixpipeParamsV220),
    "Nz2NdParams": StructSpec(Nz2NdParams, cpp_only={"nz2ndEn": False, "originalNSize": 0}),
    "Nz2DnParams": StructSpec(Nz2DnParams),
    "FixpipeParamsArch3510": StructSpec(
        FixpipeParamsArch3510, renames={"dualDstCtl": "dualDstCtrl"},
        cpp_only={"preReluMode": "NO_RELU", "preClipReluMode": "NOCLIP_RELU", "reluScalar": 0,
                  "vectorRelu": 0}),
}

#: Enums the engine takes as its own IntEnums; every other enum goes by member name.
ENUMS: dict[str, Callable[[str], Any]] = {
    "QuantMode_t": lambda m: QuantMode_t[m],
    "CO2Layout": lambda m: CO2Layout[m],
    "PaddingMode": lambda m: PaddingMode[m],
}


def _numpy_native(dt: dtypes.DType) -> bool:
    """numpy holds `dt`'s values natively (int8 ... float32), not through ml_dtypes / en_dtypes codes."""
    return dt.bits > 4 and type(dt.value_dtype).__module__.startswith("numpy")


def element_type_fits(given: str, kernel: dtypes.DType, *, view: bool = False) -> bool:
    """Can values of element type `given` (a .npy's dtype, FILE:DTYPE's, an Output's) be what the kernel
    reads as `kernel`? The same type, or the same numbers under another name (float8_e4m3fn for
    mx_fp8_e4m3_t), fit; so does an integer array of codes for a type numpy has no native form of (fp8,
    bfloat16, e8m0, fp4, hifloat8, int4: their bits as uint8 / uint16, two 4-bit codes a byte). Any other
    pair (float32 read as half, int8 as uint8) gives the kernel other numbers than the file holds.

    `view`: `kernel` is the GlobalTensor<T> a GM_ADDR parameter is read through, which may be a view for
    moving bytes (examples/mx_matmul.cpp copies its uint8 e8m0 scales through a half view): integer arrays
    are taken as bytes then, and only float values read as another type are refused."""
    try:
        g = dtypes.get_dtype(given)
    except AscsimError:
        return False  # float64, bool, complex: no Ascend C element type
    if g is kernel or (g.bits == kernel.bits and g.value_dtype == kernel.value_dtype):
        return True
    if view and g.kind in ("int", "uint"):
        return True
    codes = g.kind in ("int", "uint") and (g.bits == kernel.bits or (kernel.bits == 4 and g.bits == 8))
    return codes and not _numpy_native(kernel)


def type_mismatch(what: str, given: str, kernel: dtypes.DType, how: str) -> str:
    """The message for a binding of `given` values that the kernel reads as `kernel` (`how` it does)."""
    form = (f"a .npy of {kernel.value_dtype.name}" if _numpy_native(kernel)
            else f"its codes as a .npy of uint{max(kernel.bits, 8)}")
    return (f"{what} holds {given} values, but {how} {kernel.name}: the kernel would read other numbers than "
            f"the file holds; bind {kernel.name} data ({form}), or a raw .bin (its bytes are not checked)")


def dtype_of(name: str) -> dtypes.DType:
    """The element type of a tensor the program passed."""
    try:
        return dtypes.get_dtype(name)
    except AscsimError:
        raise NotImplementedFeature(f"tensors of element type {name} are not modelled (ascsim's types: "
                                    f"{', '.join(d.name for d in dtypes.ALL_DTYPES)})") from None


class Converter:
    """Turns one block's bridge values into engine values (and caches the tensor views it makes: a call
    boundary keyed on tensor identity then stays warm across calls)."""

    def __init__(self, gm: SharedGlobalMemory, gm_base: int, structs: dict[int, tuple[str, tuple[str, ...]]],
                 unbound: dict[int, str]) -> None:
        self.gm = gm
        self.gm_base = gm_base
        self.structs = structs
        self.unbound = unbound  # GM offset -> kernel parameter left unbound (kernel-only files)
        self.typed: dict[int, Any] = {}  # GM start -> a binding (server.GmBinding) whose GM_ADDR parameter's
        # element type is the GlobalTensor<T> the kernel reads it with
        self._views: dict[tuple, LocalTensor] = {}

    # -- tensors ------------------------------------------------------------------------------------------
    def local(self, core: Any, ref: P.LocalRef) -> LocalTensor:
        key = (id(core), ref)
        t = self._views.get(key)
        if t is not None:
            return t
        if ref.position >= len(TPOSITIONS):
            raise ProgramError(f"a LocalTensor with TPosition value {ref.position}")
        position = TPOSITIONS[ref.position]
        dt = dtype_of(ref.dtype)
        mem = memory_of(position)
        if mem == "GM":
            raise ProgramError(f"a LocalTensor at TPosition::{position} (GM is a GlobalTensor's)")
        t = LocalTensor(core.memory(mem), position, ref.addr, dt, ref.nbytes * 8 // dt.bits)
        if len(self._views) > 4096:
            self._views.clear()
        self._views[key] = t
        return t

    def gm_offset(self, ptr: int, what: str) -> int:
        off = ptr - self.gm_base
        if not 0 <= off < self.gm.capacity:
            raise ProgramError(f"{what}: address 0x{ptr:x} is not device memory (GM pointers come from "
                               "aclrtMalloc)")
        return off

    def global_(self, ref: P.GlobalRef) -> LocalTensor:
        key = ("G", ref)
        t = self._views.get(key)
        if t is not None:
            return t
        dt = dtype_of(ref.dtype)
        off = self.gm_offset(ref.ptr, f"a GlobalTensor<{dt.name}>")
        hit = self.gm.allocation_of(off)
        if hit is None:
            name = self.unbound_param(off)
            if name:
                raise ProgramError(f"the kernel touches parameter '{name}', which is not bound: give it with "
                                   f"--gm {name}=FILE")
            near = getattr(self.gm, "binding_at", lambda _: None)(off)
            if near is not None:
                start, b = near
                need = off - start + max(ref.elements, 1) * dt.bits // 8
                raise ProgramError(f"a GlobalTensor<{dt.name}> at byte {off - start} of {b.describe()}, "
                                   f"which is bound to {b.nbytes} B: the kernel was given fewer bytes than "
                                   f"it uses (bind at least {need} B)")
            raise ProgramError(f"a GlobalTensor<{dt.name}> at GM address {off} lies in no allocation "
                               "(freed, or never allocated with aclrtMalloc)")
        b = self.typed.get(hit[0])
        if b is not None and not element_type_fits(b.dtype, dt, view=True):
            raise ProgramError(type_mismatch(b.describe(), b.dtype, dt,
                                             "the kernel reads it as a GlobalTensor of"))
        room = (hit[0] + hit[1] - off) * 8 // dt.bits
        n = min(ref.elements, room) if ref.elements else room
        t = LocalTensor(self.gm, "GM", off, dt, n)
        if len(self._views) > 4096:
            self._views.clear()
        self._views[key] = t
        return t

    def unbound_param(self, off: int) -> str:
        for start, name in self.unbound.items():
            if start <= off < start + (1 << 20):
                return name
        return ""

    # -- everything else ---------------------------------------------------------------------------------
    def value(self, core: Any, v: object) -> object:
        """A bridge value as the engine takes it."""
        if isinstance(v, P.LocalRef):
            return self.local(core, v)
        if isinstance(v, P.GlobalRef):
            return self.global_(v)
        if isinstance(v, P.StructValue):
            return self.struct(core, v)
        if isinstance(v, P.Enum):
            conv = ENUMS.get(v.type)
            return conv(v.member) if conv is not None else v.member
        if isinstance(v, P.Bits):
            return RawBits(v.raw)
        if isinstance(v, list):
            return [self.value(core, x) for x in v]
        return v

    def struct(self, core: Any, v: P.StructValue) -> object:
        name, cpp_fields = self.structs[v.type_id]
        spec = STRUCTS.get(name)
        if spec is None:
            raise NotImplementedFeature(f"{name} is not a params struct ascsim models")
        values: dict[str, object] = {}
        for f, raw in zip(cpp_fields, v.fields, strict=True):
            x = self.value(core, raw)
            if spec.cpp_only and f in spec.cpp_only:
                if x != spec.cpp_only[f]:
                    raise NotImplementedFeature(f"{name}.{f} = {x!r} is not modelled (only its default "
                                                f"{spec.cpp_only[f]!r})")
                continue
            values[(spec.renames or {}).get(f, f)] = x
        nested = values.get("params")
        if name == "FixpipeParamsArch3510" and not isinstance(nested, (Nz2NdParams, Nz2DnParams)):
            values["params"] = None  # TransformParams<NZ> is a uint8_t the C++ API never reads
        if spec.positional:
            return spec.cls(*values.values())
        return spec.cls(**values)


def dataclass_fields(cls: type) -> list[str]:
    """The fields a reflected struct must supply (for the headers test)."""
    return [f.name for f in fields(cls)]
