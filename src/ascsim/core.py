"""`Core`: one AI Core of one chip — its memories, its load registers, and its instructions.

Registers modelled (CONCEPTS §1 "hidden state"): FMATRIX left/right (l1H, l1W, padList), PADDING
(raw bit pattern), the Load3D repeat config (repeatStride, repeatTime, repeatMode, dstStride on 950),
the L1 boundary (A2/A3), and the Fixpipe / atomic / DataCopyPad registers (ND_PARA, QUANT_PRE, FPC
quant address, the atomic-add type, MOV_PAD_VAL). Every instruction validates everything first, then
writes registers / memory, so a rejected call changes nothing.
"""

from __future__ import annotations

import struct
from collections import deque
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from . import checks, coerce
from .chips import ChipProfile, get_chip
from .dtypes import Bits, DType, get_dtype, pad_pattern, raw_to_bytes, scalar_dtype
from .errors import ParamRangeError, UnsupportedError, cpp_rejects, doc_forbids, hw_cannot, with_basis
from .memory import MARKER, GlobalMemory, LocalTensor, Memory, encode_values, memory_of
from .params import (
    DataCopyExtParams,
    DataCopyPadExtParams,
    InitConstValueParams,
    LoadData2DMxParams,
    LoadData2DParams,
    LoadData2DParamsV2,
    LoadData2dTransposeParams,
    LoadData2dTransposeParamsV2,
    LoadData3DParamsV2,
    LoadDataRepeatParam,
    LoadDataRepeatParamWithStride,
    MmadParams,
    PaddingMode,
    SetFMatrixBitModeParams,
    fixpipe_config,
)
from .params.load3d import pad_list
from .plan import ExecReport, basis_on, doc_conflict

#: How many ExecReports `Core.log` keeps (oldest dropped first).
LOG_LENGTH = 100_000

# LoadData overloads by params type, filled by ascsim.isa on first use (see dispatch_load_data).
_OVERLOADS: dict[type, object] = {}

# Allocation alignment per memory: L0 fractals are 512 B, L0C fractals 1 KB (Mmad C operand), L1 32 B.
_ALLOC_ALIGN = {"L1": 32, "L0A": 512, "L0B": 512, "L0C": 1024, "BT": 64, "FB": 128, "GM": 32}


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
    # the atomic add into GM: its dtype (SetAtomicAdd<T>); None = off (DisableDmaAtomic)
    atomic: str | None = None
    # MOV_PAD_VAL raw bits (DataCopyPad with isPad); None = never set
    mov_pad: int | None = None


#: Float Mmad accumulation modes (`Core(mmad_accumulate=...)`, docs/mmad.md): "float64" forms the exact
#: products and sum in float64 and rounds once; "float32" accumulates in float32 in K order.
MMAD_ACCUMULATE = ("float64", "float32")


class Core:
    """A simulated AI Core. `Core("a2")`, `Core("950", strict=True)`.

    strict: hazards (e.g. a write past the destination LocalTensor inside the memory) raise
    `HazardError` instead of warning.
    keep_plans: every record in `log` keeps its element-level plan (otherwise `report.plan` rebuilds
    it on demand, and the log stays light).
    mmad_accumulate: how a float Mmad sums (MMAD_ACCUMULATE; docs/mmad.md "How exact is float Mmad").
    """

    def __init__(self, chip: str | ChipProfile = "a2", *, fill: int = MARKER, strict: bool = False,
                 keep_plans: bool = False, mmad_accumulate: str = "float64") -> None:
        self.chip = get_chip(chip)
        self.fill = fill
        self.strict = strict
        self.keep_plans = keep_plans  # records in `log` hold their element-level plans (memory grows)
        self._placements: dict = {}  # boundary.run_gather: prepared calls bound to tensors (bounded)
        self._batch = None  # a boundary.Batch while `run` executes a sequence of calls
        if mmad_accumulate not in MMAD_ACCUMULATE:
            raise ParamRangeError(f"Core: mmad_accumulate must be one of {', '.join(MMAD_ACCUMULATE)}, "
                                  f"but got {coerce.show(mmad_accumulate)}")
        self.mmad_accumulate = mmad_accumulate
        self._gm: GlobalMemory | None = None
        self.memories: dict[str, Memory] = {
            name: Memory(name, size, fill) for name, size in self.chip.memory_sizes.items()
        }
        for mem in self.memories.values():
            mem.owner = self
        self.regs = Registers()
        self.log: deque[ExecReport] = deque(maxlen=LOG_LENGTH)
        # Opt-in record of the registers and bytes of each call (`core.history = ascsim.History()`,
        # ascsim.view); None keeps nothing beyond the light log.
        self.history = None
        self._next: dict[str, int] = {}

    def __repr__(self) -> str:
        return f"Core({self.chip.key})"

    # -- memory ------------------------------------------------------------------------------------
    @property
    def gm(self) -> GlobalMemory:
        """This core's GM byte space, created on first use (docs/divergences.md G1)."""
        if self._gm is None:
            self._gm = GlobalMemory(self.fill)
            self._gm.owner = self
        return self._gm

    def memory(self, name: str) -> Memory:
        if name == "GM":
            return self.gm
        try:
            return self.memories[name]
        except KeyError:
            raise UnsupportedError(with_basis(
                f"{self.chip.name} has no {name} buffer; it has {', '.join(self.memories)}",
                hw_cannot(f"no {name} on this chip"))) from None

    def tensor(self, position: str, dtype: DType | str, length: int, offset: int | None = None,
               data: object = None, raw: object = None) -> LocalTensor:
        """A LocalTensor at `offset` bytes (default: next free, aligned) of the position's memory, filled
        with `data` (values, encoded to the dtype) or `raw` (bit patterns, stored as they are).

        In GM, `offset` is a GM byte address and makes the tensor a view of what is there (no allocation)."""
        mem_name = memory_of(position)
        if data is not None and raw is not None:
            raise ParamRangeError("Core.tensor: give data (values) or raw (bit patterns), not both")
        if mem_name == "GM":
            if offset is None:
                init = length if data is None and raw is None else None
                return self.global_tensor(dtype, data if init is None else init, raw=raw)
            t = LocalTensor(self.gm, "GM", offset, dtype, length)
            _store_initial(t, data, raw)
            return t
        mem = self.memory(mem_name)
        dt = get_dtype(dtype)
        if offset is None:
            a = _ALLOC_ALIGN.get(mem_name, 32)
            offset = -(-self._next.get(mem_name, 0) // a) * a
        t = LocalTensor(mem, position, offset, dt, length)
        _store_initial(t, data, raw)  # raises before anything is written or allocated
        self._next[mem_name] = max(self._next.get(mem_name, 0), t.offset + t.nbytes)
        return t

    def free_all(self) -> None:
        """Forget allocations (memory contents stay, like reusing a TQue buffer)."""
        self._next.clear()

    def global_tensor(self, dtype: DType | str, data_or_length: object = None, *, raw: object = None
                      ) -> LocalTensor:
        """A GM tensor newly allocated in this core's GM byte space, sized by `data` (values), `raw`
        (bit patterns) or a length. Its address is `t.GetPhyAddr()` (what `SetGlobalBuffer` takes)."""
        instr = "Core.global_tensor"
        dt = get_dtype(dtype)
        payload = None  # the initial bytes, encoded before anything is allocated (a bad value allocates none)
        if raw is not None:
            if data_or_length is not None:
                raise ParamRangeError(f"{instr}: give data / a length or raw, not both")
            raw = coerce.numeric_array(instr, "raw", raw, "bit patterns").ravel()
            n, payload = raw.size, raw_to_bytes(dt, raw)
        elif coerce.as_int(data_or_length) is not None and not isinstance(data_or_length, (bool, np.bool_)):
            n = coerce.integer(instr, "length", data_or_length, 0, self.gm.size * 8 // dt.bits)
        elif data_or_length is None:
            raise ParamRangeError(f"{instr}: give data (values), raw (bit patterns) or a length")
        else:
            payload = encode_values(dt, data_or_length)
            n = np.asarray(data_or_length).size
        t = LocalTensor(self.gm, "GM", self.gm.allocate((n * dt.bits + 7) // 8), dt, n)
        if payload is not None:
            t._store(payload, 0)
        return t

    # -- registers ----------------------------------------------------------------------------------
    def set_fmatrix(self, l1H: int, l1W: int, padList: Sequence[int], mode: str = "FMATRIX_LEFT") -> None:
        """SetFmatrix(l1H, l1W, padList, FmatrixMode) (doc: SetFmatrix.md). FMATRIX_RIGHT writes the right
        bank, which Load3D reads with fMatrixCtrl = true; the doc says only FMATRIX_LEFT is supported, so
        it is a DocConflictWarning (divergence L11)."""
        self._set_fmatrix("SetFmatrix", l1H, l1W, padList, mode)

    def set_fmatrix_bitmode(self, param: SetFMatrixBitModeParams, mode: str = "FMATRIX_LEFT") -> None:
        """SetFmatrix(SetFMatrixBitModeParams, FmatrixMode) (950; SetFmatrixBitMode.md 表3)."""
        checks.struct("SetFmatrixBitMode", "param", param, (SetFMatrixBitModeParams,))
        d = param.as_dict()
        self._set_fmatrix("SetFmatrixBitMode", d["l1H"], d["l1W"], [d[f"padList{i}"] for i in range(4)], mode)

    def _set_fmatrix(self, instr: str, l1H: int, l1W: int, padList: Sequence[int], mode: str) -> None:
        self.chip.check(instr, instr=instr)
        # SetFmatrix.md 表1: l1H/l1W in [1, 32767]; the C++ API checks the same range (the bit-mode
        # struct, a packed word, is not checked by the C++ API, so there the range is the doc's).
        basis = (cpp_rejects("SetFmatrix: ASCENDC_CHECK_VALUE_RANGE(l1H/l1W, MIN_LOAD3D_L1, MAX_LOAD3D_L1)")
                 if instr == "SetFmatrix"
                 else doc_forbids("SetFmatrixBitMode.md 表3 l1H/l1W in [1, 32767]", "L3"))
        h = checks.in_range(instr, "l1H", l1H, 1, 32767, basis)
        w = checks.in_range(instr, "l1W", l1W, 1, 32767, basis)
        pads = _pad_list(instr, padList)
        fm = Fmatrix(h, w, pads)
        if fmatrix_bank(instr, mode) == "left":
            self.regs.fmatrix_left = fm
            return
        if self.chip.key in _NO_RIGHT_FMATRIX:
            raise UnsupportedError(with_basis(
                f"{instr}: FmatrixMode FMATRIX_RIGHT is not available on {self.chip.name}",
                cpp_rejects("Load3DSetFMatrixBCal: ASCENDC_REPORT_NOT_SUPPORT on "
                            f"{_NO_RIGHT_FMATRIX[self.chip.key]}")))
        doc_conflict(instr, "SetFmatrix.md 表1 fmatrixMode: 当前只支持FMATRIX_LEFT", "L11", self.strict)
        self.regs.fmatrix_right = fm

    def set_padding_value(self, value: float, dtype: DType | str | None = None) -> None:
        """SetLoadDataPaddingValue<T>(padValue): stores the value's bit pattern.

        T is `dtype`, or the type of a numpy scalar value (`np.float16(-8.82)`, `ml_dtypes.bfloat16(1)`);
        a plain Python number needs `dtype`. `value` may be `ascsim.Bits(0x...)`, a raw bit pattern."""
        instr = "SetLoadDataPaddingValue"
        dt = scalar_type(instr, "padValue", value, dtype)
        self.chip.check(instr, dt.name, instr=instr)  # doc: SetLoadDataPaddingValue.md 数据类型
        self.regs.padding = checked_pad_pattern(instr, dt, value)

    def set_load_data_repeat(self, p: LoadDataRepeatParam | LoadDataRepeatParamWithStride) -> None:
        """SetLoadDataRepeat / SetLoadDataRepeatWithStride (doc: SetLoadDataRepeat*.md)."""
        with_stride = isinstance(p, LoadDataRepeatParamWithStride)
        instr = "SetLoadDataRepeatWithStride" if with_stride else "SetLoadDataRepeat"
        checks.struct(instr, "params", p, (LoadDataRepeatParam, LoadDataRepeatParamWithStride))
        self.chip.check(instr, instr=instr)
        # kernel_struct_mm.h LoadDataRepeatParam: uint16_t repeatStride, uint8_t repeatTime / repeatMode,
        # uint16_t dstStride; the register packs repeatMode in one bit (SetLoadDataRepeat.md 表2: 0 / 1).
        rs = checks.field(instr, "repeatStride", p.repeatStride, 16, ctype="uint16_t")
        rt = checks.field(instr, "repeatTime", p.repeatTime, 8, ctype="uint8_t")
        rm = checks.in_range(instr, "repeatMode", p.repeatMode, 0, 1, hw_cannot("1-bit repeatMode"))
        ds = checks.field(instr, "dstStride", p.dstStride, 16, ctype="uint16_t")
        if ds and self.chip.key != "ascend950":
            raise UnsupportedError(with_basis(
                f"{instr}: dstStride exists on Ascend 950 only, but got {ds} on {self.chip.name}",
                cpp_rejects("LoadDataRepeatParam has no dstStride member on this arch")))
        self.regs.repeat = RepeatConfig(rs, rt, rm, ds)

    def set_load_data_boundary(self, value: int) -> None:
        """SetLoadDataBoundary(boundaryValue) (A2/A3): L1 reads past it wrap to the start of L1."""
        instr = "SetLoadDataBoundary"
        self.chip.check(instr, instr=instr)
        v = checks.in_range(instr, "boundaryValue", value, 0, self.memory("L1").size,
                            hw_cannot("the boundary is an L1 address"))
        if 0 < v < 1024:
            raise ParamRangeError(with_basis(
                f"{instr}: boundaryValue must be 0 (off) or >= 1024 (1-1023 are undefined), but got {v}",
                doc_forbids("SetLoadDataBoundary.md 约束说明: 设置1~1023值是未定义行为", "L18")))
        self.regs.boundary = v

    def _commit_load3d_registers(self, fm: Fmatrix | None, pad: int | None) -> None:
        # an equal value keeps the register's object, so cache keys holding it compare by identity
        if fm is not None and fm is not self.regs.fmatrix_left and fm != self.regs.fmatrix_left:
            self.regs.fmatrix_left = fm
        if pad is not None:
            self.regs.padding = pad

    # -- instructions ---------------------------------------------------------------------------------
    def load_data(self, dst: LocalTensor, src: LocalTensor, params, config=None, *,
                  dst_pos: str | None = None, src_pos: str | None = None) -> ExecReport:
        """`LoadData(dst, src, params)`, dispatching on the params struct type like the C++ overloads."""
        if dst.__class__ is not LocalTensor or src.__class__ is not LocalTensor:
            checks.tensors("LoadData", dst=dst, src=src)
        fn = _OVERLOADS.get(params.__class__)
        if fn is None:
            from .isa import dispatch_load_data

            return self._logged(dispatch_load_data(self, dst, src, params, config, dst_pos=dst_pos,
                                                   src_pos=src_pos))
        return self._logged(fn(self, dst, src, params, config, dst_pos, src_pos))

    def run(self, steps: Iterable[Sequence[Any]]) -> list[ExecReport]:
        """Execute a sequence of calls — `core.run([(core.load_data, dst, src, p), ("mmad", c, a, b, mp)])`,
        each step a callable (or a Core method name) followed by its arguments — batching consecutive
        LoadData gathers into one gather per run of compatible calls (`ascsim.boundary.Batch`).

        The result is the same bytes, registers, records and warnings as calling the steps one by one; a
        step that fails raises after every step before it has executed, and changes nothing itself.
        Reading memory between steps needs separate `run` calls (or plain calls)."""
        from .boundary import Batch

        plain = self._batch is not None or self.history is not None  # nested, or History needs each write
        batch = None if plain else Batch()
        self._batch = self._batch if plain else batch
        reports = []
        try:
            for step in steps:
                fn, *args = step
                if isinstance(fn, str):
                    fn = getattr(self, fn)
                if batch is not None and getattr(fn, "__func__", None) not in _BATCHABLE:
                    batch.flush()  # only the LoadData gathers queue; anything else runs in order
                reports.append(fn(*args))
        finally:
            if batch is not None:
                self._batch = None
                batch.flush()
        return reports

    def _logged(self, report: ExecReport) -> ExecReport:
        self.log.append(report)
        if self.history is not None:  # the one hook ascsim.view's History uses
            self.history.record(report, self.regs)
        return report

    def mmad(self, c: LocalTensor, a: LocalTensor, b: LocalTensor, params, bias: LocalTensor | None = None
             ) -> ExecReport:
        """`Mmad(c, a, b[, bias], MmadParams)`."""
        from .isa.mmad import mmad

        _operands("Mmad", params, (MmadParams,), dst=c, fm=a, filter=b, bias=bias)
        return self._logged(mmad(self, c, a, b, params, bias))

    def load_data_with_stride(self, dst: LocalTensor, src: LocalTensor, params, config=None) -> ExecReport:
        """`LoadDataWithStride(dst, src, LoadData3DParamsV2)` (950; dstStride from the repeat register)."""
        from .isa.load3d import load_data_with_stride

        _operands("LoadDataWithStride", params, (LoadData3DParamsV2,), dst=dst, src=src)
        return self._logged(load_data_with_stride(self, dst, src, params, config))

    def load_data_with_transpose(self, dst: LocalTensor, src: LocalTensor, params) -> ExecReport:
        """`LoadDataWithTranspose(dst, src, LoadData2dTransposeParams[V2])`."""
        from .isa.transpose import load_data_with_transpose

        _operands("LoadDataWithTranspose", params, (LoadData2dTransposeParams, LoadData2dTransposeParamsV2),
                  dst=dst, src=src)
        return self._logged(load_data_with_transpose(self, dst, src, params))

    def load_data_with_sparse(self, dst: LocalTensor, src: LocalTensor, idx: LocalTensor, params
                              ) -> ExecReport:
        """`LoadDataWithSparse(dst, src, idx, LoadData2dParams)` (A2/A3)."""
        from .isa.sparse import load_data_with_sparse

        _operands("LoadDataWithSparse", params, (LoadData2DParams,), dst=dst, src=src, idx=idx)
        return self._logged(load_data_with_sparse(self, dst, src, idx, params))

    def mmad_with_sparse(self, c: LocalTensor, a: LocalTensor, b: LocalTensor, params) -> ExecReport:
        """`MmadWithSparse(c, a, b, MmadParams)` (A2/A3)."""
        from .isa.sparse import mmad_with_sparse

        _operands("MmadWithSparse", params, (MmadParams,), dst=c, fm=a, filter=b)
        return self._logged(mmad_with_sparse(self, c, a, b, params))

    def load_data_mx(self, dst: LocalTensor, src: LocalTensor, src_mx: LocalTensor, params, mx_params
                     ) -> ExecReport:
        """`LoadData(dst, src, srcMx, LoadData2DParamsV2, LoadData2DMxParams)` (Load2DMX, 950)."""
        from .isa.mx import load_data_mx

        _operands("Load2DMX", params, (LoadData2DParamsV2,), dst=dst, src=src, srcMx=src_mx)
        checks.struct("Load2DMX", "mxParams", mx_params, (LoadData2DMxParams,))
        return self._logged(load_data_mx(self, dst, src, src_mx, params, mx_params))

    def mmad_mx(self, c: LocalTensor, a: LocalTensor, b: LocalTensor, params, bias: LocalTensor | None = None
                ) -> ExecReport:
        """`MmadMx(c, a, b[, bias], MmadParams)` (950)."""
        from .isa.mx import mmad_mx

        _operands("MmadMx", params, (MmadParams,), dst=c, fm=a, filter=b, bias=bias)
        return self._logged(mmad_mx(self, c, a, b, params, bias))

    def data_copy(self, dst: LocalTensor, src: LocalTensor, params, *, enable_small_c0: bool = False
                  ) -> ExecReport:
        """`DataCopy(dst, src, params)`: GM -> L1 (contiguous, Nd2Nz, Dn2Nz), L1 -> BT / FB, CO1 -> GM /
        L1."""
        from .isa.copy import data_copy

        checks.tensors("DataCopy", dst=dst, src=src)
        return self._logged(data_copy(self, dst, src, params, enable_small_c0=enable_small_c0))

    def fixpipe(self, dst: LocalTensor, src: LocalTensor, params, config=None, cbuf_workspace=None
                ) -> ExecReport:
        """`Fixpipe<..., config>(dst, src, params)`: L0C -> GM (NZ2ND default; CFG_NZ, CFG_COLUMN_MAJOR)."""
        from .isa.fixpipe import fixpipe

        checks.tensors("Fixpipe", ("cbufWorkspace",), dst=dst, src=src, cbufWorkspace=cbuf_workspace)
        cfg = fixpipe_config("Fixpipe", config)
        return self._logged(fixpipe(self, dst, src, params, cfg, cbuf_workspace))

    def init_const_value(self, dst: LocalTensor, params, instr: str = "Fill") -> ExecReport:
        """`Fill(dst, InitConstValueParams)` (`InitConstValue` before CANN 9): L1 / L0A / L0B. (`Core.fill` is
        the marker byte of fresh memory.)"""
        from .isa.fill import fill

        _operands(instr, params, (InitConstValueParams,), dst=dst)
        return self._logged(fill(self, dst, params, instr))

    def data_copy_pad(self, dst: LocalTensor, src: LocalTensor, params, pad_params=None, mode: int = 0
                      ) -> ExecReport:
        """`DataCopyPad<T, mode>(dst, src, DataCopyExtParams, DataCopyPadExtParams)` GM -> L1 (950)."""
        from .isa.copy import data_copy_pad

        _operands("DataCopyPad", params, (DataCopyExtParams,), dst=dst, src=src)
        if pad_params is not None:
            checks.struct("DataCopyPad", "padParams", pad_params, (DataCopyPadExtParams,))
        mode = coerce.choice("DataCopyPad", "mode", mode, PaddingMode,
                             cpp_rejects("the PaddingMode template argument"))
        return self._logged(data_copy_pad(self, dst, src, params, pad_params, mode))

    def set_atomic_add(self, dtype: DType | str) -> None:
        """`SetAtomicAdd<T>()`: later moves into GM add onto what is there (原子操作/SetAtomicAdd.md)."""
        dt = get_dtype(dtype)
        basis_on(lambda: self.chip.check("SetAtomicAdd", dt.name, instr="SetAtomicAdd"),
                   "the doc page forbids this: SetAtomicAdd.md 数据类型; ascsim reading: divergence C20")
        self.regs.atomic = dt.name

    def set_atomic_none(self) -> None:
        """`SetAtomicNone()` / `DisableDmaAtomic()`: moves into GM overwrite again (DisableDmaAtomic.md)."""
        self.regs.atomic = None

    def set_fixpipe_nz2nd_flag(self, ndNum: int, srcNdStride: int, dstNdStride: int) -> None:  # noqa: N803
        """`SetFixpipeNz2ndFlag(ndNum, srcNdStride, dstNdStride)` (ND_PARA)."""
        from .isa.fixpipe import set_fixpipe_nz2nd_flag

        set_fixpipe_nz2nd_flag(self, ndNum, srcNdStride, dstNdStride)

    def set_fixpipe_pre_quant_flag(self, config: int) -> None:
        """`SetFixpipePreQuantFlag(config)` (QUANT_PRE)."""
        from .isa.fixpipe import set_fixpipe_pre_quant_flag

        set_fixpipe_pre_quant_flag(self, config)

    def set_fixpipe_config(self, quant_pre: LocalTensor, relu_pre: LocalTensor | None = None,
                           is_unit_flag: bool = False) -> None:
        """`SetFixPipeConfig([reluPre,] quantPre[, isUnitFlag])` (FPC: the quant tensor in the Fixpipe
        Buffer)."""
        from .isa.fixpipe import set_fixpipe_config

        checks.tensors("SetFixPipeConfig", ("reluPre",), quantPre=quant_pre, reluPre=relu_pre)
        set_fixpipe_config(self, quant_pre, relu_pre, is_unit_flag)


def _operands(instr: str, params: object, accepted: tuple[type, ...], **tensors: object) -> None:
    """An instruction's operands are tensors (`bias` may be None) and its params one of `accepted`."""
    checks.tensors(instr, ("bias",), **tensors)
    checks.struct(instr, "params", params, accepted)


def scalar_type(instr: str, name: str, value: object, dtype: DType | str | None) -> DType:
    """The T of a templated scalar argument: `dtype` if given, else the type of a numpy scalar `value`;
    a plain Python number without `dtype` is refused rather than guessed."""
    if dtype is not None:
        return get_dtype(dtype)
    dt = scalar_dtype(value)
    if dt is None:
        kind = "a bit pattern (Bits)" if isinstance(value, Bits) else f"a plain {type(value).__name__}"
        raise ParamRangeError(f"{instr}: the type T of {name} is needed, but {name} is {kind} "
                              f"({coerce.show(value)}); pass dtype=... or a numpy scalar such as "
                              "np.float16(...)")
    return dt


def _store_initial(t: LocalTensor, data: object, raw: object) -> None:
    """Write a new tensor's initial contents: values (`data`) or bit patterns (`raw`)."""
    if raw is not None:
        t.write_raw(raw)
    elif data is not None:
        t.write(data)


#: Core methods whose calls `Core.run` may queue (gather-type instructions executed by boundary.run_gather).
_BATCHABLE = {Core.load_data, Core.load_data_with_stride}


def checked_pad_pattern(instr: str, dt: DType, value: object, name: str = "padValue", basis: str = "") -> int:
    """Bit pattern of a scalar argument (padValue, initValue, ...) as a T, re-raising an unrepresentable value
    under the instruction's name (with the refusal's `basis` appended when given)."""
    t = value.__class__
    if t is int or t is float:  # memoised: a tiling sweep's cold calls repeat the same pad value
        key = (dt.name, value) if t is int else (dt.name, struct.pack("<d", value))  # -0.0, NaN payloads
        bits = _PAD_PATTERNS.get(key)
        if bits is None:
            bits = _pad_pattern_checked(instr, dt, value, name, basis)  # raises: nothing memoised
            if len(_PAD_PATTERNS) >= 1024:
                _PAD_PATTERNS.clear()
            _PAD_PATTERNS[key] = bits
        return bits
    return _pad_pattern_checked(instr, dt, value, name, basis)


_PAD_PATTERNS: dict[tuple, int] = {}


def _pad_pattern_checked(instr: str, dt: DType, value: object, name: str, basis: str) -> int:
    try:
        return pad_pattern(dt, value)
    except ParamRangeError as e:
        tail = basis or hw_cannot(f"the {'PADDING ' if name == 'padValue' else ''}register holds a "
                                  f"{dt.name} bit pattern")
        raise ParamRangeError(f"{instr}: {name} must be representable as {dt.name}, but got "
                              f"{coerce.show(value)} ({e}) ({tail})") from None


#: Chips whose C++ API cannot write the right FMATRIX bank (Load3DSetFMatrixBCal reports "not supported").
_NO_RIGHT_FMATRIX = {"inference_aicore": "dav_m200", "training": "dav_c100"}


def fmatrix_bank(instr: str, mode: object) -> str:
    """"left" / "right" for an FmatrixMode (name, enum or 0 / 1)."""
    v = getattr(mode, "value", mode)
    i = None if isinstance(v, (bool, np.bool_)) else coerce.as_int(v)  # an enum class takes no bool
    if i is not None:
        m = "0" if i == 0 else "1" if i == 1 else ""
    else:
        m = v.upper() if isinstance(v, str) else ""
    bank = {"FMATRIX_LEFT": "left", "LEFT": "left", "0": "left", "FMATRIX_RIGHT": "right", "RIGHT": "right",
            "1": "right"}.get(m.removeprefix("FMATRIXMODE.").removeprefix("FMATRIXMODE::"))
    if bank is None:
        raise UnsupportedError(with_basis(f"{instr}: FmatrixMode must be FMATRIX_LEFT or FMATRIX_RIGHT, "
                                          f"but got {coerce.show(mode)}",
                                          cpp_rejects("enum class FmatrixMode")))
    return bank


def _pad_list(instr: str, padList: Sequence[int]) -> tuple[int, int, int, int]:
    """padList [left, right, top, bottom] as a checked tuple (each in [0, 255], doc: SetFmatrix.md 表1)."""
    if padList.__class__ in (list, tuple) and len(padList) == 4 and all(
            v.__class__ is int and 0 <= v <= 255 for v in padList):  # type: ignore[union-attr]
        return tuple(padList)  # type: ignore[return-value]  # the common case, without building messages
    return tuple(checks.field(instr, f"padList[{i}]", v, 8, ctype="uint8_t")  # type: ignore[return-value]
                 for i, v in enumerate(pad_list(instr, padList)))
