"""Fixpipe: L0C -> GM / L1 with format conversion (NZ2ND, NZ2NZ, NZ2DN), quantisation, ReLU and atomic add;
the DataCopy form of the same move (DataCopyCO12DstParams, reading the Fixpipe registers); the Fixpipe
register setters (SetFixpipeNz2ndFlag, SetFixpipePreQuantFlag, SetFixPipeConfig).

Geometry (doc: Fixpipe（L0C到GM数据搬运）.md 表3/表4; 矩阵搬出关键特性说明/NZ2ND.md, NZ2NZ.md, NZ2DN.md,
Int8-Channel-Merge.md). L0C holds Nz with 16x16 fractals; C[m][n] of NZ matrix h sits at
    h*srcMat + (n//16)*srcStride*16 + m*srcRow + n%16     (srcRow = 16, or srcNzC0Stride*16 for NZ2DN)
and goes to
    ND: h*dstMat + m*dstStride + n    DN: h*dstMat + n*dstStride + m
    NZ: (n//w)*dstStride + m*w + n%w  with w = 16, or w = 32 for 8-bit destinations (Int8 Channel Merge:
        pairs of 16-column fractals merge into 16x32 ones; an odd last 16 columns stay 16 wide), or w = 8
        with F32 Channel Split (F32-Channel-Split.md: each 16x16 fractal leaves as two 16x8 ones; E2)
for m < mSize, n < nSize. Units: srcNdStride is 16*C0_Size (one 16x16 fractal, 256 elements) in
FixpipeParamsV220 (表4) and C0_SIZE (16 elements) in Nz2NdParams of FixpipeParamsArch3510 (表3) —
docs/divergences.md C4, the struct's own table is taken as the most specific text. NZ2NZ dstStride is
32 B (V220) or elements (Arch3510).

Values: every element goes through `ascsim.isa.quant.convert` (quantPre, reluEn); see that module for the
numerics. With SetAtomicAdd<T> active, a GM destination receives old + new (divergences C20).

Registers (core.regs): the C++ API writes ND_PARA (ROW_MAJOR), QUANT_PRE (scalar modes) and, for the
cbufWorkspace overloads, copies the quant vector from L1 to the Fixpipe Buffer at address 0 and points FPC
at it (impl dav_c220/kernel_operator_fixpipe_v2_impl.h CopyDeqTensorToFbuf); ascsim does the same, so a
later `DataCopy(gm, l0c, DataCopyCO12DstParams)` sees what a kernel would see.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass, replace
from functools import partial
from typing import NamedTuple

import numpy as np

from ..base.coerce import show
from ..base.diagnostics import basis_on, report_hazards, user_stacklevel
from ..base.errors import (
    Basis,
    NotImplementedFeature,
    OverlapError,
    ParamRangeError,
    UnsupportedError,
    cpp_rejects,
    doc_forbids,
    hw_cannot,
)
from ..engine.boundary import Extent, PreparedCall, lookup, run_call, strided
from ..engine.cache import PLANS
from ..engine.plan import Plan
from ..engine.record import ExecReport
from ..engine.state import CoreState
from ..machine import checks
from ..machine.dtypes import DType, decode, get_dtype, to_raw
from ..machine.layouts import cdiv
from ..machine.memory import LocalTensor
from ..machine.registers import AtomicMode
from ..params import (
    CO2Layout,
    DataCopyCO12DstParams,
    FixpipeConfig,
    FixpipeParamsArch3510,
    FixpipeParamsV220,
    Nz2DnParams,
    Nz2NdParams,
    QuantMode_t,
    fixpipe_config,
)
from . import quant

U32 = 2**32 - 1
INSTR = "Fixpipe"
#: divergence row of the doc-only Fixpipe / DataCopy CO1 rules ascsim keeps as refusals
DOC_ROW = "C25"
# columns per workspace chunk (GenFixpipeTiling: 256 on 2201, 1024 on 3510)
FB_QUANT_LIMIT = {"ascend950": 1024}


# ==================================================================================================
# Geometry
# ==================================================================================================


@dataclass(frozen=True)
class FixpipeSpec:
    """Effective Fixpipe geometry in elements (src: L0C elements, dst: destination elements)."""
    layout: str  # "ND" | "NZ" | "DN"
    m: int
    n: int
    num: int
    src_mat: int
    src_col: int  # between 16-column blocks
    src_row: int  # between rows inside a block
    dst_mat: int
    dst_stride: int  # ND / DN: row length; NZ: between column blocks
    merged: int = 0  # NZ with 8-bit dst: the first `merged` columns form 16x32 fractals (Int8 Channel Merge)
    split: bool = False  # NZ with F32 Channel Split: 16x8 destination fractals (F32-Channel-Split.md)

    def dst_last(self) -> int:
        if self.layout == "ND":
            return (self.num - 1) * self.dst_mat + (self.m - 1) * self.dst_stride + self.n - 1
        if self.layout == "DN":
            return (self.num - 1) * self.dst_mat + (self.n - 1) * self.dst_stride + self.m - 1
        return int(_nz_dst(np.array(self.m - 1), np.array(self.n - 1), self).max())

    def src_last(self) -> int:
        """The last L0C element read: the last row of the last matrix, in the column block that reaches
        furthest (the partial last block, or the full one before it when srcStride is small)."""
        blocks = cdiv(self.n, 16)
        col = (blocks - 1) * self.src_col + (self.n - 1) % 16
        if blocks > 1:
            col = max(col, (blocks - 2) * self.src_col + 15)
        return (self.num - 1) * self.src_mat + (self.m - 1) * self.src_row + col

    def overlapping(self) -> bool:
        """Do two destination matrices share an element? (rows inside one matrix are kept apart by the
        range checks.) Exact and arithmetic: rows (h, r) and (h', r') meet when |dh*dstMat + dr*dstStride|
        < the row length, so per dh only the dr nearest -dh*dstMat/dstStride needs checking."""
        if self.layout == "NZ" or self.num <= 1:
            return False
        rows, length = (self.m, self.n) if self.layout == "ND" else (self.n, self.m)
        base = np.arange(1, self.num, dtype=np.int64) * self.dst_mat
        if rows == 1:
            return bool((base < length).any())
        q = -base // self.dst_stride
        near = [np.abs(base + np.clip(c, 1 - rows, rows - 1) * self.dst_stride) for c in (q, q + 1)]
        return bool((np.minimum(*near) < length).any())


def _nz_dst(m: np.ndarray, n: np.ndarray, s: FixpipeSpec) -> np.ndarray:
    """NZ destination offset; 8-bit outputs merge pairs of 16-column fractals (Int8-Channel-Merge.md), F32
    Channel Split cuts each 16x16 fractal into two 16x8 ones (F32-Channel-Split.md)."""
    if s.split:
        return m * 8 + (n // 8) * s.dst_stride + n % 8
    if not s.merged:
        return m * 16 + (n // 16) * s.dst_stride + n % 16
    w = np.where(n < s.merged, 32, 16)
    block = np.where(n < s.merged, n // 32, s.merged // 32)
    return block * s.dst_stride + m * w + n % w


def plan_fixpipe(spec: FixpipeSpec) -> Plan:
    """dst / src offsets (destination elements / L0C elements) of every moved element, in (h, m, n) order:
    element provenance for explain/draw, built on demand (`PLANS`); execution uses strided views."""
    return PLANS.memo(("fixpipe", spec), lambda: _plan_fixpipe(spec))


def _plan_fixpipe(spec: FixpipeSpec) -> Plan:
    h = np.arange(spec.num)[:, None, None]
    m = np.arange(spec.m)[None, :, None]
    n = np.arange(spec.n)[None, None, :]
    src = h * spec.src_mat + (n // 16) * spec.src_col + m * spec.src_row + n % 16
    if spec.layout == "ND":
        dst = h * spec.dst_mat + m * spec.dst_stride + n
    elif spec.layout == "DN":
        dst = h * spec.dst_mat + n * spec.dst_stride + m
    else:
        dst = _nz_dst(m, n, spec)
    shape = (spec.num, spec.m, spec.n)
    return Plan.build(INSTR, 32, np.broadcast_to(dst, shape), np.broadcast_to(src, shape),
                      info={"spec": spec})


def _num_names(fmt: CO2Layout) -> tuple[str, str]:
    return ("dnNum", "dstDnMatrixStride") if fmt == CO2Layout.COLUMN_MAJOR else ("ndNum", "dstNdStride")


@dataclass(frozen=True)
class _Geometry:
    """The layout fields of one Fixpipe / DataCopy call before unit conversion."""
    fmt: CO2Layout
    n: int
    m: int
    src_stride: int
    dst_stride: int
    num: int = 1
    src_mat: int = 0
    dst_mat: int = 0
    src_row: int = 1  # srcNzC0Stride (NZ2DN)
    arch3510: bool = False  # strides in Arch3510 units
    split: bool = False  # F32 Channel Split (NZ, float -> float, GM only; checked by the callers)


def _spec(instr: str, g: _Geometry, ddt: DType, to_l1: bool, warns: list[str]) -> FixpipeSpec | None:
    """Validate ranges and convert every stride to elements; None = NOP (`warns` gets the UserWarning a
    zero ndNum / dnNum deserves, to repeat on every call)."""
    def r(i: str, name: str, v: object, lo: int, hi: int) -> int:  # CheckFixpipeParams*: ranges, widths
        return basis_on(lambda: checks.in_range(i, name, v, lo, hi), cpp_rejects("CheckFixpipeParams"))

    layout = {CO2Layout.ROW_MAJOR: "ND", CO2Layout.NZ: "NZ", CO2Layout.COLUMN_MAJOR: "DN"}[g.fmt]
    n = r(instr, "nSize", g.n, 0, 4095)
    m = r(instr, "mSize", g.m, 0, 8192 if (layout == "ND" and not g.arch3510) else 65535)
    num_name = {"ND": "ndNum", "DN": "dnNum"}.get(layout)
    num = r(instr, num_name, g.num, 0, 65535) if num_name else 1
    if num == 0:
        warns.append(f"{instr}: {num_name}=0 makes the call a NOP")
    if m == 0 or n == 0 or num == 0:
        return None  # NOP (doc 约束说明); the other fields are not read
    if layout == "NZ" and n % (8 if g.split else 16):
        what = "with isChannelSplit (F32-Channel-Split.md)" if g.split else "for NZ2NZ (doc 表4)"
        raise ParamRangeError(f"{instr}: nSize must be a multiple of {8 if g.split else 16} {what}, but got "
                              f"{n}", basis=cpp_rejects('CheckFixpipeParams'))
    if to_l1 and g.arch3510 and layout != "NZ":  # 3510 CheckFixpipeL0C2L1Param: whole 32-B rows in L1
        size, name = (n, "nSize") if layout == "ND" else (m, "mSize")
        if size * ddt.bits % 256:
            raise ParamRangeError(f"{instr}: {name} * sizeof({ddt.name}) must be a multiple of 32 B for "
                                  f"{layout} into L1, but got {size}",
                                  basis=cpp_rejects('CheckFixpipeParams'))
    src_stride = r(instr, "srcStride", g.src_stride, 0, 65535) * 16  # C0_Size = 16 L0C elements
    dst_stride = r(instr, "dstStride", g.dst_stride, 1, U32)
    src_row, src_mat, dst_mat, merged = 16, 0, 0, 0
    if layout == "ND":
        if g.arch3510:
            src_mat = r(instr, "srcNdStride", g.src_mat, 0, 65535) * 16  # C0_SIZE units
            dst_mat = r(instr, "dstNdStride", g.dst_mat, 0, U32)
        else:
            src_mat = r(instr, "srcNdStride", g.src_mat, 0, 512) * 256  # 16*C0_Size units
            dst_mat = r(instr, "dstNdStride", g.dst_mat, 0, 65535)
        if num == 1:
            src_mat = dst_mat = 0  # "ndNum配置为1时 … 不生效"
        if m > 1 and dst_stride < n:
            raise OverlapError(f"{instr}: dstStride (elements per ND row) must be >= nSize {n}, but got "
                               f"{dst_stride}; destination rows would overlap",
                               basis=doc_forbids('约束说明 "目标数据不能有重叠"', DOC_ROW))
    elif layout == "DN":
        src_mat = r(instr, "srcNzMatrixStride", g.src_mat, 0, 65535) * 16
        dst_mat = r(instr, "dstDnMatrixStride", g.dst_mat, 0, U32)
        src_row = basis_on(lambda: checks.in_range(instr, "srcNzC0Stride", g.src_row, 1, 65535),
                             doc_forbids("Fixpipe 表3 \"当启用NZ2DN时，srcNzC0Stride不能为0\"", DOC_ROW)) * 16
        if num == 1:
            src_mat = dst_mat = 0
        if n > 1 and dst_stride < m:
            raise OverlapError(f"{instr}: dstStride (elements per DN row) must be >= mSize {m}, but got "
                               f"{dst_stride}; destination rows would overlap",
                               basis=doc_forbids('约束说明 "目标数据不能有重叠"', DOC_ROW))
    else:
        if not g.arch3510:  # V220 NZ2NZ: dstStride in 32-B blocks (NZ2NZ.md)
            dst_stride = dst_stride * 32 // (ddt.bits // 8)
        width = 8 if g.split else 16
        if ddt.bits == 8:  # Int8-Channel-Merge.md: pairs of 16-column fractals become 16x32
            merged = n if (n // 16) % 2 == 0 else n - 16
            width = 32 if merged else 16
        if n > width and dst_stride < m * width:
            raise OverlapError(f"{instr}: dstStride must place the {width}-column blocks at least "
                               f"mSize*{width} = {m * width} elements apart, but got {dst_stride} elements",
                               basis=doc_forbids('NZ2NZ.md "目标操作数地址之间不能重叠"', DOC_ROW))
    return FixpipeSpec(layout, m, n, num, src_mat, src_stride, src_row, dst_mat, dst_stride, merged, g.split)


def _geometry(instr: str, p: FixpipeParamsV220 | FixpipeParamsArch3510, fmt: CO2Layout) -> _Geometry:
    """The layout fields of a Fixpipe params struct (its TransformParams for Arch3510)."""
    if not isinstance(p, FixpipeParamsArch3510):
        return _Geometry(fmt, p.nSize, p.mSize, p.srcStride, p.dstStride, p.ndNum, p.srcNdStride,
        p.dstNdStride)
    sub = p.params
    want = {CO2Layout.ROW_MAJOR: Nz2NdParams, CO2Layout.COLUMN_MAJOR: Nz2DnParams, CO2Layout.NZ:
    type(None)}[fmt]
    if sub is None and fmt == CO2Layout.ROW_MAJOR:
        sub = Nz2NdParams()
    if not isinstance(sub, want):
        wname = "None" if want is type(None) else want.__name__
        raise ParamRangeError(f"{instr}: params must be {wname} for CO2Layout::{fmt.name}, but got "
                              f"{type(sub).__name__}", basis=cpp_rejects('TransformParams<format>'))
    base = dict(fmt=fmt, n=p.nSize, m=p.mSize, src_stride=p.srcStride, dst_stride=p.dstStride, arch3510=True)
    if isinstance(sub, Nz2NdParams):
        return _Geometry(**base, num=sub.ndNum, src_mat=sub.srcNdStride, dst_mat=sub.dstNdStride)
    if isinstance(sub, Nz2DnParams):
        return _Geometry(**base, num=sub.dnNum, src_mat=sub.srcNzMatrixStride, dst_mat=sub.dstDnMatrixStride,
                         src_row=sub.srcNzC0Stride)
    return _Geometry(**base)


# ==================================================================================================
# Modes
# ==================================================================================================


def quant_mode(instr: str, v: object, is950: bool) -> QuantMode_t:
    """quantPre as a QuantMode_t, refusing the 950-only modes elsewhere and the modes ascsim lacks."""
    try:
        mode = QuantMode_t[v] if isinstance(v, str) else QuantMode_t(v)
    except (KeyError, ValueError):
        names = ", ".join(QuantMode_t.__members__)
        raise ParamRangeError(f"{instr}: quantPre must be a QuantMode_t ({names}), but got {show(v)}",
                              basis=cpp_rejects("QuantMode_t")) from None
    if mode >= QuantMode_t.QF322FP8_PRE and not is950:
        raise UnsupportedError(f"{instr}: quantPre {mode.name} exists on Ascend 950 only (doc: 随路量化.md), "
                               f"but got it on a non-950 chip", basis=cpp_rejects('QuantMode_t'))
    if mode != QuantMode_t.NoQuant and mode not in quant.PAIRS:
        raise NotImplementedFeature(f"{instr}: quantPre {mode.name} (a 950 quantisation to fp8 / hif8 / "
                                    "bf16 / half / float with a scale) is not implemented in ascsim; "
                                    "NoQuant, F322F16, F322BF16, (V)DEQF16, (V)QF322B8_PRE and (V)REQ8 are")
    return mode


def _check_conversion(instr: str, mode: QuantMode_t, s: DType, d: DType) -> None:
    if mode == QuantMode_t.NoQuant:
        if d != s:
            raise ParamRangeError(
                f"{instr}: quantPre NoQuant copies {s.name} unchanged, so dst must be {s.name}, but got "
                f"{d.name} (float->half needs F322F16, float->bfloat16_t F322BF16, other pairs a "
                "quantisation mode)", basis=cpp_rejects('CheckFixpipeQuantParams'))
        return
    want_src, want_dst = quant.PAIRS[mode]
    if s.name != want_src or d.name not in want_dst:
        verb = "casts" if mode in quant.CASTS else "converts"
        raise ParamRangeError(f"{instr}: quantPre {mode.name} {verb} {want_src} to {' or '.join(want_dst)}, "
                              f"but got {s.name} -> {d.name}", basis=cpp_rejects('CheckFixpipeQuantParams'))


# ==================================================================================================
# Fixpipe
# ==================================================================================================


def fixpipe(core: CoreState, dst: LocalTensor, src: LocalTensor,
            params: FixpipeParamsV220 | FixpipeParamsArch3510,
            config: FixpipeConfig | CO2Layout | None = None, cbuf_workspace: LocalTensor | None = None
            ) -> ExecReport:
    """`Fixpipe<T, U, config>(dst, src[, cbufWorkspace], intriParams)` L0C (CO1) -> GM or L1
    (doc: Fixpipe（L0C到GM数据搬运）.md, Fixpipe（L0C到L1数据搬运）.md; NZ2ND.md, NZ2NZ.md, NZ2DN.md,
    随路量化.md).

    Through the call boundary: validated once per call shape and the register state it reads (the atomic
    type for a GM destination, FPC for a vector quantPre without cbufWorkspace); the quant vector itself
    is data, read on every call. `config` None is the default CFG_ROW_MAJOR."""
    config = fixpipe_config(INSTR, config)
    ws = cbuf_workspace
    key = None
    pk = params.key() if isinstance(params, (FixpipeParamsV220, FixpipeParamsArch3510)) else None
    if pk is not None:
        key = (INSTR, core.chip.key, params.__class__, pk, config.__class__, config,
               None if ws is None else (ws.memory.name, ws.dtype.name),
               *_operand_key(core, dst, src, _vector(params.quantPre) and ws is None))
    prep = lookup(key, lambda: _prepared_fixpipe(core, dst, src, params, config, ws))
    return run_call(core, prep, (dst, src, ws, _fb_operand(core, prep)))


def _vector(v: object) -> bool:
    """Might quantPre `v` be a vector mode (which reads the FPC register)? True when unsure."""
    try:
        return (QuantMode_t[v] if isinstance(v, str) else QuantMode_t(v)) in quant.VECTOR  # type: ignore[misc]
    except (KeyError, ValueError, TypeError):
        return True


def _operand_key(core: CoreState, dst: LocalTensor, src: LocalTensor, reads_fpc: bool) -> tuple:
    """Operands' memories and dtypes, and the registers the move reads: the atomic type (GM destinations)
    and FPC (a vector quantPre reading the Fixpipe Buffer)."""
    gm = dst.memory.name == "GM"
    return (dst.memory.name, src.memory.name, dst.dtype.name, src.dtype.name,
            core.regs.atomic if gm else None, ("FPC", core.regs.fpc_quant) if reads_fpc else None)


def _prepared_fixpipe(core: CoreState, dst: LocalTensor, src: LocalTensor, params, config,
                      ws) -> PreparedCall:
    instr = INSTR
    _operands(instr, dst, src)
    to_l1 = dst.memory.name == "L1"
    is3510 = isinstance(params, FixpipeParamsArch3510)
    if not is3510 and not isinstance(params, FixpipeParamsV220):
        raise UnsupportedError(f"{instr}: intriParams must be FixpipeParamsV220 or FixpipeParamsArch3510, "
                               f"but got {type(params).__name__}", basis=cpp_rejects('no such overload'))
    chip = core.chip
    is950 = chip.key == "ascend950"
    api = "FixpipeL0C2L1" if to_l1 else "Fixpipe"
    _combo(chip, api, instr, src, dst)
    if is3510 and not is950:
        raise UnsupportedError(f"{instr}: intriParams FixpipeParamsArch3510 is the Ascend 950 (arch 3510) "
                               f"struct, but got it on {chip.name}; use FixpipeParamsV220",
                               basis=cpp_rejects("the struct exists only for __NPU_ARCH__ 3510"))
    cfg = config if isinstance(config, FixpipeConfig) else FixpipeConfig(CO2Layout(config))
    fmt = CO2Layout(cfg.format)
    if cfg.isToUB:
        raise NotImplementedFeature(f"{instr}: config.isToUB (L0C->UB) is not implemented in ascsim")
    if fmt == CO2Layout.COLUMN_MAJOR and not (is950 and is3510):
        raise UnsupportedError(f"{instr}: config CFG_COLUMN_MAJOR (NZ2DN) needs Ascend 950 and "
                               f"FixpipeParamsArch3510, but got {type(params).__name__} on {chip.name}",
                               basis=cpp_rejects("CO2Layout::COLUMN_MAJOR is 3510-only"))
    if to_l1 and not is950 and fmt != CO2Layout.NZ:
        raise UnsupportedError(f"{instr}: L0C->L1 writes NZ on {chip.name}, so config must be CFG_NZ, but "
                               f"got CFG_{fmt.name}", basis=cpp_rejects('CheckFixpipeL0C2L1Param'))
    mode = quant_mode(instr, params.quantPre, is950)
    relu = basis_on(lambda: checks.flag(instr, "reluEn", params.reluEn), cpp_rejects("bool reluEn"))
    split = basis_on(lambda: checks.flag(instr, "isChannelSplit", params.isChannelSplit),
                     cpp_rejects("bool field"))
    if split:
        _check_split(instr, "isChannelSplit", src, dst, fmt, to_l1, params.unitFlag, cxx=True)
    if not _unit_flag_ok(params.unitFlag):
        raise ParamRangeError(f"{instr}: unitFlag must be 0, 2 or 3, but got {show(params.unitFlag)}",
                              basis=cpp_rejects("CheckFixpipeParamsV220Common"))
    deq = basis_on(lambda: checks.in_range(instr, "deqScalar", params.deqScalar, 0, 2**64 - 1),
                     cpp_rejects("uint64_t deqScalar"))
    _check_conversion(instr, mode, src.dtype, dst.dtype)
    if ws is not None:
        _check_workspace(instr, ws, mode)
    warns: list[str] = []
    spec = _spec(instr, replace(_geometry(instr, params, fmt), split=split), dst.dtype, to_l1, warns)
    nd = _nd_para(instr, params) if fmt == CO2Layout.ROW_MAJOR else None
    scalar = deq if mode in quant.SCALAR else None

    def commit(core: CoreState) -> None:  # what the C++ Fixpipe writes besides the data: ND_PARA, QUANT_PRE
        if nd is not None:
            core.regs.nd_para = nd
        if scalar is not None:
            core.regs.quant_pre = scalar
        if ws is not None and spec is not None:
            core.regs.fpc_quant = 0  # the staged quant vector (CopyDeqTensorToFbuf)

    return _engine(core, _Job(instr, mode, relu, spec, fmt, to_l1), dst, src, scalar, ws is not None, warns,
                   commit)


def _unit_flag_ok(v: object) -> bool:
    """unitFlag is 0, 2 or 3 (an integer; anything else, arrays included, is refused by the caller)."""
    return isinstance(v, (int, np.integer)) and int(v) in (0, 2, 3)


def _nd_para(instr: str, params) -> tuple[int, int, int]:
    """ND_PARA as the call writes it (ndNum, srcNdStride, dstNdStride of the ROW_MAJOR params)."""
    sub = params.params if isinstance(params, FixpipeParamsArch3510) else params
    sub = sub or Nz2NdParams()
    cxx = cpp_rejects("uint32_t ND_PARA field")
    return tuple(basis_on(lambda n=n: checks.in_range(instr, n, getattr(sub, n), 0, U32), cxx)  # type: ignore
                 for n in ("ndNum", "srcNdStride", "dstNdStride"))


def _operands(instr: str, dst: LocalTensor, src: LocalTensor) -> None:
    """src in L0C; dst in GM or L1 (the C++ overloads: CheckTensorPhyPosition / GlobalTensor)."""
    basis_on(lambda: checks.position(instr, "src", src, ("L0C",)), cpp_rejects("CheckTensorPhyPosition L0C"))
    basis_on(lambda: checks.position(instr, "dst", dst, ("GM", "L1")),
               cpp_rejects("Fixpipe overloads take GlobalTensor or an L1 LocalTensor"))


def _combo(chip, api: str, instr: str, src: LocalTensor, dst: LocalTensor) -> None:
    """(L0C type, dst type) per the chip's 数据类型 table; the 2201 / 3510 C++ checks list the same pairs."""
    basis = (cpp_rejects("CheckFixpipeL0C2GMParam / CheckFixpipeL0C2L1Param SupportType")
             if chip.key in ("a2", "a3", "ascend950") else doc_forbids("Fixpipe 数据类型", DOC_ROW))
    basis_on(lambda: chip.check_combo(api, (src.dtype.name, dst.dtype.name), instr=instr), basis)


def _register_api(core: CoreState, instr: str) -> None:
    basis_on(lambda: core.chip.check(instr, instr=instr), doc_forbids(f"{instr}.md 产品支持情况", DOC_ROW))


def _check_split(instr: str, name: str, src: LocalTensor, dst: LocalTensor, fmt: CO2Layout, to_l1: bool,
                 unit_flag: object, cxx: bool) -> None:
    """F32 Channel Split runs for float -> float NZ output into GM without unitFlag (F32-Channel-Split.md
    特性约束). Fixpipe: the C++ API asserts the first three (dav_c220 kernel_operator_fixpipe_v2_impl.h
    CheckFixpipeL0C2GMParam / CheckFixpipeL0C2L1Param, dav_3510 FixpipeL0cToOut / FixpipeL0cToL1); the
    DataCopy form passes the bit unchecked, so there every rule is the doc's (divergence E2)."""
    doc = split_rule(name)

    def basis(check: str) -> str:
        return cpp_rejects(check) if cxx else doc

    if to_l1:
        raise UnsupportedError(f"{instr}: {name} exists only for L0C -> GM, but got an L1 destination",
                               basis=basis('CheckFixpipeL0C2L1Param isChannelSplit'))
    if fmt != CO2Layout.NZ:
        raise UnsupportedError(f"{instr}: {name} needs NZ output (CFG_NZ, no NZ2ND / NZ2DN), but got "
                               f"CFG_{fmt.name}", basis=basis('CheckFixpipeL0C2GMParam isChannelSplit'))
    if src.dtype.name != "float" or dst.dtype.name != "float":
        raise UnsupportedError(f"{instr}: {name} needs float -> float, but got {src.dtype.name} -> "
                               f"{dst.dtype.name}", basis=basis('CheckFixpipeL0C2GMParam isChannelSplit'))
    if unit_flag:
        raise ParamRangeError(f"{instr}: {name} needs unitFlag 0, but got {show(unit_flag)}", basis=doc)


#: the F32 Channel Split rules the DataCopy form does not check in C++ (divergence E2)
#: the page's rule; `split_rule(name)` the refusal basis naming the field
SPLIT_RULE = 'F32-Channel-Split.md 特性约束 "{} ... NZ输出到GM，并且不开启NZ2ND与unitFlag时，才能够开启"'


def split_rule(name: str) -> Basis:
    return doc_forbids(SPLIT_RULE.format(name), "E2")


def _check_workspace(instr: str, ws: LocalTensor, mode: QuantMode_t) -> None:
    """cbufWorkspace: LocalTensor<uint64_t> in L1 (C1), 32-B aligned (a placement check), with a vector
    quantPre (表2 cbufWorkspace; kernel_operator_mm_check.h CheckFixpipeWorkspace)."""
    if mode not in quant.VECTOR:
        raise ParamRangeError(f"{instr}: quantPre must be VDEQF16, VQF322B8_PRE or VREQ8 when cbufWorkspace "
                              f"is given, but got {mode.name}", basis=cpp_rejects('CheckFixpipeWorkspace'))
    basis_on(lambda: checks.position(instr, "cbufWorkspace", ws, ("L1",)),
               cpp_rejects("CheckFixpipeWorkspace"))
    if ws.dtype.name != "uint64_t":
        raise UnsupportedError(f"{instr}: cbufWorkspace must be a LocalTensor<uint64_t>, but got "
                               f"{ws.dtype.name}", basis=cpp_rejects('S must be uint64_t'))


def _aligns(job: _Job) -> tuple:
    """The placement's alignment checks: operand 0 = dst, 1 = src (L0C), 2 = cbufWorkspace."""
    out: list[tuple] = [(1, 64, "src (L0C)", cpp_rejects("CheckFixpipeParams L0C_SRC_ALIGN"))]
    if job.to_l1:
        out.append((0, 32, f"dst ({job.fmt.name} in L1)", cpp_rejects("CheckFixpipeL0C2L1Param")))
    elif job.fmt == CO2Layout.NZ:
        nz_rule = 'Fixpipe（L0C到GM数据搬运）.md 表2 "NZ地址需满足32字节对齐"'
        out.append((0, 32, "dst (NZ in GM)", doc_forbids(nz_rule, "C9")))
    elif job.fmt == CO2Layout.COLUMN_MAJOR:
        # Behaviour 4: an NCHW conv output written at cout*HoWo + h*Wo + w. The 3510 C++ API checks only L1 /
        # UB destinations (CheckFixpipeL0C2L1Param / L0C2UB), and shipped 950 conv kernels do this.
        out.append((0, 32, "GM", ("Fixpipe（L0C到GM数据搬运）.md 表2: DN \"地址需满足32字节对齐\"", "C9")))
    out.append((2, 32, "cbufWorkspace (L1)",
                doc_forbids("Fixpipe 表2 cbufWorkspace \"地址需满足32字节对齐\"", DOC_ROW)))
    return tuple(out)


# ==================================================================================================
# The engine (Fixpipe and DataCopy CO1 -> GM / L1)
# ==================================================================================================


@dataclass(frozen=True)
class _Job:
    instr: str
    mode: QuantMode_t
    relu: bool
    spec: FixpipeSpec | None
    fmt: CO2Layout
    to_l1: bool


def _engine(core: CoreState, job: _Job, dst: LocalTensor, src: LocalTensor, scalar: int | None, staged: bool,
            warns: list[str], commit) -> PreparedCall:
    """The prepared move: value checks that depend on the call shape and the registers it reads (matrix
    overlap, the scalar word, the atomic type), the extents (arithmetic), the quant vector's source (the
    workspace, or the Fixpipe Buffer at FPC: operand 3, which `_fb_operand` builds), and the executor."""
    spec, instr = job.spec, job.instr
    warn: list = [partial(_user_warning, w) for w in warns]
    notes: list[str] = []
    aligns = _aligns(job)
    vector = job.mode in quant.VECTOR
    fpc = 0
    if vector and not staged:
        fpc = core.regs.fpc_quant
        if fpc is None:
            warn.append(partial(_hazard, f"{instr}: a vector quantPre reads the quant tensor at the FPC "
                                "address, but SetFixPipeConfig was never called; reading the Fixpipe Buffer "
                                "from address 0 (ascsim reading: divergence C18)"))
            notes.append("C18")
            fpc = 0
    if spec is None:
        return PreparedCall(instr, aligns=aligns, warnings=warn, notes=notes, commit=commit)
    if spec.overlapping():
        raise OverlapError(f"{instr}: {_num_names(job.fmt)[1]} must keep the {spec.num} destination matrices "
                           f"apart, but got {spec.dst_mat} elements",
                           basis=doc_forbids('约束说明 "目标数据不能有重叠"', DOC_ROW))
    ddt = dst.dtype
    dbytes = ddt.bits // 8
    if scalar is not None:
        quant.check_words(instr, job.mode, np.asarray([scalar], dtype=np.uint64), core.chip.arch == "2201",
                          "deqScalar")
    atomic = core.regs.atomic if dst.memory.name == "GM" else None
    if atomic is not None and atomic.dtype != ddt.name:
        raise UnsupportedError(f"{instr}: the atomic {atomic.op} type set by {atomic.setter} must equal the "
                               f"destination type {ddt.name} (the docs define no behaviour for a mismatch; "
                               "ascsim reading: divergence C20)")
    b8 = job.mode in quant.B8_FROM_FLOAT + quant.B8_FROM_INT
    fields = None
    if scalar is not None:
        fields = quant.word_fields(np.uint64(scalar))
        sign = _sign_hazard(instr, np.uint64(scalar), ddt) if b8 else None
        if sign:
            warn.append(partial(_hazard, sign))
    if atomic is not None:
        notes.append("C20")
    elements = spec.num * spec.m * spec.n
    extents = [Extent(0, 0, (spec.dst_last() + 1) * dbytes, True, "destination"),
               Extent(1, 0, (spec.src_last() + 1) * 4, False, "source")]
    fb = None
    if vector and not staged:  # operand 3: the quant vector in the Fixpipe Buffer at FPC
        extents.append(Extent(3, 0, spec.n * 8, False, "quant tensor in the Fixpipe Buffer (FPC)"))
        fb = (fpc, spec.n * 8)
    elif staged:
        # the workspace's vector, then its last chunk copied to FB address 0 in whole 128-B bursts (dav_c220
        # kernel_operator_fixpipe_impl.h CopyDeqTensorToFbuf: deqDataSize = DivCeil(calNSize * 8, 128) *
        # 128), so a workspace of n words with n % 16 != 0 is read past its end (a hazard, not an error)
        start, nbytes = _chunk(core, spec.n)
        extents += [Extent(2, 0, max(spec.n * 8, start + nbytes), False, "quant tensor in cbufWorkspace"),
                    Extent(3, 0, nbytes, True, "quant chunk staged in the Fixpipe Buffer")]
        fb = (0, nbytes)
    return PreparedCall(instr, _Call(spec, fb), planner=partial(plan_fixpipe, spec), aligns=aligns,
                        warnings=warn,
                    notes=notes, commit=commit, extents=extents,
                    run=partial(_run, job, scalar, fields, atomic, staged, b8),
                    counts=(elements * dbytes, elements * 4, 0))


def _user_warning(msg: str, core: CoreState) -> list[str]:
    warnings.warn(msg, UserWarning, stacklevel=user_stacklevel())
    return []


def _hazard(msg: str, core: CoreState) -> list[str]:
    report_hazards([msg], core.strict)
    return [msg]


class _Call(NamedTuple):
    """A prepared Fixpipe / DataCopy CO1: its geometry, and the Fixpipe Buffer bytes it reads or stages
    ((first byte, bytes), or None)."""
    geometry: FixpipeSpec
    fb: tuple[int, int] | None


def _fb_operand(core: CoreState, prep: PreparedCall) -> LocalTensor | None:
    """Operand 3: the Fixpipe Buffer region the call reads (a vector quantPre at FPC) or stages into (the
    cbufWorkspace overload), sized to fit the buffer so that its extent check names any overrun."""
    fb = None if prep.spec is None else prep.spec.fb
    if fb is None:
        return None
    mem = core.memory("FB")
    off = min(fb[0], mem.size)
    return LocalTensor(mem, "C2PIPE2GM", off, "uint64_t", max(0, min(fb[1], mem.size - off)) // 8)


def _chunk(core: CoreState, n: int) -> tuple[int, int]:
    """(workspace byte, bytes) of the quant chunk the C++ vector-quant overload leaves in FB at address 0:
    it copies the workspace in chunks (GenFixpipeTiling: n up to 256 columns at once on 2201 / 1024 on
    3510, else 128 / 512) and FB keeps the last one (CopyDeqTensorToFbuf)."""
    limit = FB_QUANT_LIMIT.get(core.chip.key, 256)
    chunk = n if n <= limit else limit // 2
    last = (n - 1) // chunk
    return last * chunk * 8, cdiv((n - last * chunk) * 8, 128) * 128


def _run(job: _Job, scalar: int | None, fields: quant.WordFields | None, atomic: AtomicMode | None,
         staged: bool,
         b8: bool, core: CoreState, ops) -> tuple[int, int, int, list[str]] | None:
    """Gather the L0C matrix through strided views, convert every element, apply the atomic add, store
    through strided views of the destination layout. The quant vector's checks run before any write."""
    spec = job.spec
    assert spec is not None
    dst, src = ops[0], ops[1]
    ddt = dst.dtype
    hz: list[str] = []
    words = None if scalar is None else np.uint64(scalar)
    if job.mode in quant.VECTOR:
        qt = ops[2] if staged else ops[3]
        words = qt.memory.data[qt.offset : qt.offset + spec.n * 8].view("<u8").copy()
        what = "cbufWorkspace" if staged else "the Fixpipe Buffer (FPC)"
        quant.check_words(job.instr, QuantMode_t.VREQ8, words, core.chip.arch == "2201", what)
        sign = _sign_hazard(job.instr, words, ddt) if b8 else None
        if sign:
            hz = _hazard(sign, core)
    raw = _gather_l0c(spec, src)
    if raw.ndim == 4 and words is not None and words.ndim:  # one word per column, in (block, 16) order too
        words = words.reshape(raw.shape[2:])
    out = quant.convert(job.mode, src.dtype, ddt, raw, words, job.relu, fields).reshape(spec.num, spec.m,
                                                                                      spec.n)
    views = _dst_views(spec, dst)
    for v, part in zip(views, _parts(spec, out), strict=True):
        if atomic is not None:
            part = atomic_store(atomic.op, ddt, v.copy(), part)
        v[...] = part
    if staged:
        fb = ops[3]
        start, nbytes = _chunk(core, spec.n)
        s0 = ops[2].offset + start
        fb.memory.data[: nbytes] = ops[2].memory.data[s0 : s0 + nbytes]
    return (*_counts(spec, ddt), hz) if hz else None


def _counts(spec: FixpipeSpec, ddt: DType) -> tuple[int, int, int]:
    n = spec.num * spec.m * spec.n
    return n * ddt.bits // 8, n * 4, 0


def _gather_l0c(spec: FixpipeSpec, src: LocalTensor) -> np.ndarray:
    """The L0C codes (uint32) of element (h, r, c) at h*srcMat + (c//16)*srcCol + r*srcRow + c%16: with
    whole 16-column blocks a (num, m, n/16, 16) view of L0C (the conversion copies it once), else a
    (num, m, n) copy read block by block (the last one partial)."""
    full, rem = divmod(spec.n, 16)
    st = (spec.src_mat * 4, spec.src_row * 4, spec.src_col * 4, 4)
    if not rem:
        return strided(src.memory, src.offset, (spec.num, spec.m, full, 16), st, "<u4")
    buf = np.empty((spec.num, spec.m, full + 1, 16), np.uint32)
    if full:
        buf[:, :, :full] = strided(src.memory, src.offset, (spec.num, spec.m, full, 16), st, "<u4")
    buf[:, :, full, :rem] = strided(src.memory, src.offset + full * st[2], (spec.num, spec.m, rem),
                                    (st[0], st[1], 4), "<u4")
    return buf.reshape(spec.num, spec.m, -1)[:, :, : spec.n]


def _dst_views(spec: FixpipeSpec, dst: LocalTensor) -> list[np.ndarray]:
    """Writable views of the destination in the layout's order: ND (h, m, n) rows, DN (h, m, n) columns,
    NZ (m, blocks, width) fractals (8-bit outputs: merged 16x32 fractals, then an odd last 16 columns; F32
    Channel Split: 16x8 fractals)."""
    e = dst.dtype.bits // 8
    dt, mem, o = f"<u{e}", dst.memory, dst.offset
    shape = (spec.num, spec.m, spec.n)
    if spec.layout == "ND":
        return [strided(mem, o, shape, (spec.dst_mat * e, spec.dst_stride * e, e), dt)]
    if spec.layout == "DN":
        return [strided(mem, o, shape, (spec.dst_mat * e, e, spec.dst_stride * e), dt)]
    if spec.split or not spec.merged:  # 16x8 (F32 Channel Split) or 16x16 fractals
        w = 8 if spec.split else 16
        return [strided(mem, o, (spec.m, spec.n // w, w), (w * e, spec.dst_stride * e, e), dt)]
    views = [strided(mem, o, (spec.m, spec.merged // 32, 32), (32 * e, spec.dst_stride * e, e), dt)]
    if spec.n > spec.merged:
        views.append(strided(mem, o + spec.merged // 32 * spec.dst_stride * e, (spec.m, 16), (16 * e, e), dt))
    return views


def _parts(spec: FixpipeSpec, out: np.ndarray) -> list[np.ndarray]:
    """`out` (num, m, n) cut to the shapes of `_dst_views`."""
    if spec.layout != "NZ":
        return [out]
    mat = out[0]
    if spec.split or not spec.merged:
        w = 8 if spec.split else 16
        return [mat.reshape(spec.m, spec.n // w, w)]
    parts = [mat[:, : spec.merged].reshape(spec.m, spec.merged // 32, 32)]
    if spec.n > spec.merged:
        parts.append(mat[:, spec.merged :])
    return parts


def _sign_hazard(instr: str, words, ddt: DType) -> str | None:
    """Sign (bit 46) picks int8 or uint8 saturation; a word that disagrees with the destination type still
    runs as the bit says (the hardware reads only the bit) but is almost surely a mistake."""
    want = ddt.name == "int8_t"
    if not np.any(quant.sign_bit(np.asarray(words, dtype=np.uint64)) != want):
        return None
    return (f"{instr}: Sign (bit 46 of the quantisation word) says {'int8' if not want else 'uint8'} but the "
            f"destination is {ddt.name}; the result saturates as the bit says (ascsim reading: divergence "
            "C16)")


def atomic_store(op: str, dt: DType, old_raw: np.ndarray, new_raw: np.ndarray) -> np.ndarray:
    """What an atomic store leaves in GM, in the atomic type: "add" — old + new, floats exactly summed then
    rounded to nearest even (IEEE inf / NaN), integers saturated; "max" / "min" — the larger / smaller of
    the two values, a NaN on either side giving NaN (divergence C20)."""
    a = decode(dt, old_raw)
    b = decode(dt, new_raw)
    if op != "add":
        return to_raw(dt, np.maximum(a, b) if op == "max" else np.minimum(a, b))
    if dt.kind == "float":
        with np.errstate(over="ignore", invalid="ignore"):
            return to_raw(dt, a + b)
    info = np.iinfo(dt.value_dtype)
    return to_raw(dt, np.clip(a + b, info.min, info.max))


# ==================================================================================================
# DataCopy L0C -> GM / L1 (DataCopyCO12DstParams): the same move, configured by the Fixpipe registers
# ==================================================================================================


def data_copy_l0c(core: CoreState, dst: LocalTensor, src: LocalTensor,
                  p: DataCopyCO12DstParams) -> ExecReport:
    """`DataCopy(dst, src, DataCopyCO12DstParams)` CO1 -> GM / L1 (doc: DataCopy（L0C到GM数据搬运）.md,
    DataCopy（L0C到L1数据搬运）.md): NZ2ND from ND_PARA (SetFixpipeNz2ndFlag), scalar quantisation from
    QUANT_PRE (SetFixpipePreQuantFlag), vector quantisation from the Fixpipe Buffer at FPC
    (SetFixPipeConfig). The prepared-call key holds those registers when the call reads them."""
    pk = p.key() if p.__class__ is DataCopyCO12DstParams else None
    key = None
    if pk is not None:
        r = core.regs
        key = ("DataCopyCO1", core.chip.key, pk, r.nd_para if p.nz2ndEn else None, r.quant_pre,
               *_operand_key(core, dst, src, _vector(p.quantPre)))
    prep = lookup(key, lambda: _prepared_l0c(core, dst, src, p))
    return run_call(core, prep, (dst, src, None, _fb_operand(core, prep)))


def _prepared_l0c(core: CoreState, dst: LocalTensor, src: LocalTensor,
                  p: DataCopyCO12DstParams) -> PreparedCall:
    instr = "DataCopy"
    _operands(instr, dst, src)
    to_l1 = dst.memory.name == "L1"
    chip = core.chip
    # the DataCopy form exists where its registers do
    basis_on(lambda: chip.check("SetFixpipeNz2ndFlag", instr=instr),
               doc_forbids("SetFixpipeNz2ndFlag.md 产品支持情况", DOC_ROW))
    _combo(chip, "FixpipeL0C2L1" if to_l1 else "Fixpipe", instr, src, dst)
    mode = quant_mode(instr, p.quantPre, chip.key == "ascend950")
    relu = basis_on(lambda: checks.in_range(instr, "reluPre", p.reluPre, 0, 1),
                      doc_forbids("DataCopy（L0C到GM数据搬运）.md 表3 reluPre \"0 / 1\"", DOC_ROW)) == 1
    split = basis_on(lambda: checks.flag(instr, "channelSplit", p.channelSplit), cpp_rejects("bool field"))
    for name, bits in (("clipReluPre", 64), ("eltWiseOp", 8)):
        if checks.in_range(instr, name, getattr(p, name), 0, (1 << bits) - 1):  # typed like any field
            raise NotImplementedFeature(f"{instr}: {name} (Atlas 200I/500 A2 ClipReLU / Elementwise) is not "
                                        "implemented in ascsim")
    if not _unit_flag_ok(p.unitFlag):
        raise ParamRangeError(f"{instr}: unitFlag must be 0, 2 or 3, but got {show(p.unitFlag)}",
                              basis=doc_forbids("DataCopyCO12DstParams 表3 unitFlag", DOC_ROW))
    nz2nd = basis_on(lambda: checks.flag(instr, "nz2ndEn", p.nz2ndEn), cpp_rejects("bool field"))
    fmt = CO2Layout.ROW_MAJOR if nz2nd else CO2Layout.NZ
    if to_l1 and nz2nd:
        raise UnsupportedError(f"{instr}: CO1->L1 writes NZ, so nz2ndEn must be false (the C++ API rejects "
                               "this: FixpipeL0C2L1Impl ReportNotSupport nz2ndEn)")
    _check_conversion(instr, mode, src.dtype, dst.dtype)
    if split:
        _check_split(instr, "channelSplit", src, dst, fmt, to_l1, p.unitFlag, cxx=False)
    nd_num, src_nd, dst_nd = core.regs.nd_para if nz2nd else (1, 0, 0)
    # NZ dstStride counts 32-B blocks on every chip: dav_3510 DataCopyL0C2GMImpl / DataCopyL0C2L1Impl turn
    # it into elements (dstStride * ONE_BLK_SIZE / sizeof(T)) unless nz2ndEn, as the 2201 instruction reads it
    g = _Geometry(fmt, p.nSize, p.mSize, p.srcStride, p.dstStride, nd_num, src_nd, dst_nd,
                  arch3510=chip.key == "ascend950" and nz2nd, split=split)
    warns: list[str] = []
    spec = _spec(instr, g, dst.dtype, to_l1, warns)
    scalar = core.regs.quant_pre if mode in quant.SCALAR else None
    return _engine(core, _Job(instr, mode, relu, spec, fmt, to_l1), dst, src, scalar, False, warns, None)


# ==================================================================================================
# Register setters (矩阵搬出辅助配置接口)
# ==================================================================================================


def set_fixpipe_nz2nd_flag(core: CoreState, ndNum: int, srcNdStride: int, dstNdStride: int) -> None:  # noqa: N803
    """SetFixpipeNz2ndFlag(ndNum, srcNdStride, dstNdStride) -> ND_PARA (SetFixpipeNz2ndFlag.md 表1/表2)."""
    instr = "SetFixpipeNz2ndFlag"
    _register_api(core, instr)
    is950 = core.chip.key == "ascend950"

    def r(i: str, name: str, v: object, lo: int, hi: int) -> int:  # 表1/表2 ranges; SetFixpipeNz2ndFlagImpl
        return basis_on(lambda: checks.in_range(i, name, v, lo, hi),
                        doc_forbids(f"{instr}.md 表1/表2", DOC_ROW))

    num = r(instr, "ndNum", ndNum, 1, 65535)
    # SetFixpipeNz2ndFlagImpl checks srcNdStride in [0, 512] on 2201; 950 has 16 bits (表2)
    src = r(instr, "srcNdStride", srcNdStride, 0, 65535 if is950 else 512)
    dst = r(instr, "dstNdStride", dstNdStride, 0, U32 if is950 else 65535)
    core.regs.nd_para = (num, src, dst)


def set_fixpipe_pre_quant_flag(core: CoreState, config: int) -> None:
    """SetFixpipePreQuantFlag(config) -> QUANT_PRE, the scalar quantisation word
    (SetFixpipePreQuantFlag.md)."""
    instr = "SetFixpipePreQuantFlag"
    _register_api(core, instr)
    core.regs.quant_pre = basis_on(lambda: checks.in_range(instr, "config", config, 0, 2**64 - 1),
                                     cpp_rejects("uint64_t config"))


def set_fixpipe_config(core: CoreState, quant_pre: LocalTensor, relu_pre: LocalTensor | None = None,
                       is_unit_flag: bool = False) -> None:
    """SetFixPipeConfig([reluPre,] quantPre[, isUnitFlag]): FPC[15:8] = the quant tensor's FB address / 128
    (SetFixPipeConfig.md; dav_c220 SetFixPipeConfigImpl). reluPre is reserved
    ("传入一个空LocalTensor即可")."""
    instr = "SetFixPipeConfig"
    _register_api(core, instr)
    basis_on(lambda: checks.flag(instr, "isUnitFlag", is_unit_flag), cpp_rejects("bool isUnitFlag"))
    for what, t in (("quantPre", quant_pre), ("reluPre", relu_pre)):
        if t is None:
            continue
        basis_on(lambda t=t, what=what: checks.position(instr, what, t, ("FB",)),
                   cpp_rejects("SetFixPipeConfigImpl CheckTensorPos FIXBUF"))
        if t.dtype.name != "uint64_t":
            raise UnsupportedError(f"{instr}: {what} must be a LocalTensor<uint64_t>, but got "
                                   f"{t.dtype.name}",
                                   basis=doc_forbids('SetFixPipeConfig.md 数据类型', 'C18'))
    basis_on(lambda: checks.aligned(instr, "quantPre (FB)", quant_pre, 128),
               hw_cannot('FPC[15:8] holds the address in 128-B units'))
    core.regs.fpc_quant = quant_pre.offset


# ==================================================================================================
# Slow reference (geometry)
# ==================================================================================================


def reference_fixpipe(p: FixpipeParamsV220 | FixpipeParamsArch3510, fmt: CO2Layout, src: np.ndarray,
                      dst: np.ndarray, dst_dtype: DType | str) -> np.ndarray:
    """Slow reference: the NZ2ND / NZ2NZ / NZ2DN pseudocode loops with byte addresses turned into
    elements. `src` holds L0C float32 / int32 values, `dst` destination values; casts use numpy/ml_dtypes
    (NoQuant / F322F16 / F322BF16; the quantisation modes have `quant.reference_convert`)."""
    ddt = get_dtype(dst_dtype)
    out = np.array(dst, copy=True)
    is3510 = isinstance(p, FixpipeParamsArch3510)
    m_size, n_size = p.mSize, p.nSize
    if fmt == CO2Layout.ROW_MAJOR:
        sub = (p.params or Nz2NdParams()) if is3510 else p
        # NZ2ND.md: src + srcNdStride*fractal_size*i — fractal unit per struct table (divergences.md C4)
        unit = 16 if is3510 else 256
        for i in range(sub.ndNum):
            for j in range(m_size):
                for k in range(cdiv(n_size, 16)):
                    for e in range(16):
                        if k * 16 + e >= n_size:
                            continue
                        s = i * sub.srcNdStride * unit + j * 16 + k * p.srcStride * 16 + e
                        d = i * sub.dstNdStride + j * p.dstStride + k * 16 + e
                        out[d] = src[s]
    elif fmt == CO2Layout.NZ:
        blk = p.dstStride if is3510 else p.dstStride * 32 // (ddt.bits // 8)
        # F32-Channel-Split.md: each 16x16 source fractal leaves as two 16x8 ones ("16*8的小z分形")
        w = 8 if getattr(p, "isChannelSplit", False) else 16
        for j in range(m_size):
            for k in range(cdiv(n_size, w)):
                for e in range(w):
                    col = k * w + e
                    if col < n_size:
                        out[j * w + k * blk + e] = src[j * 16 + (col // 16) * p.srcStride * 16 + col % 16]
    else:
        q = p.params
        for h in range(q.dnNum):
            for i in range(cdiv(n_size, 16)):
                for j in range(16):
                    if i * 16 + j >= n_size:
                        continue
                    for k in range(m_size):
                        s = h * 16 * q.srcNzMatrixStride + i * 16 * p.srcStride + j + k * 16 * q.srcNzC0Stride
                        d = h * q.dstDnMatrixStride + i * 16 * p.dstStride + j * p.dstStride + k
                        out[d] = src[s]
    return out
