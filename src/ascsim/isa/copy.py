"""GM-side copies: DataCopy GM->L1 (plain, ND2NZ, DN2NZ) and Fixpipe L0C->GM (NZ2ND, NZ2NZ, NZ2DN).

Semantics (CONCEPTS §8; element offsets relative to the tensor starts, C0 = 32 B / element size):

DataCopy with DataCopyParams (doc: DataCopy（GMToL1高维切分数据搬运）.md 表3): block b copies blockLen*32 B
from src byte b*(blockLen+srcStride)*32 to dst byte b*(blockLen+dstStride)*32 (strides are gaps). With a
count (DataCopy（GMToL1连续数据搬运）.md) count*sizeof(T) B rounded down to a multiple of 32 B move.

ND2NZ (doc: DataCopy（GMToL1随路转换-ND2NZ搬运）.md 表3), for i < ndNum, r < nValue, c < align(dValue, C0):
    dst[i*dstNzMatrixStride + (c//C0)*dstNzC0Stride*C0 + r*dstNzNStride*C0 + c%C0]
        = src[i*srcNdMatrixStride + r*srcDValue + c]   if c < dValue else 0
DN2NZ (doc: …DN2NZ搬运）.md 表3; "DN->NZ == ND->ZN") reads src[i*srcDnMatrixStride + c*srcDValue + r] instead:
the DN matrix has dValue rows of nValue used elements, row stride srcDValue; its row c becomes NZ column c.
Rows beyond nValue are not written. b4 types are moved as b8 with every parameter in b8 units (约束说明).

Fixpipe L0C->GM (doc: Fixpipe（L0C到GM数据搬运）.md 表3/表4; 矩阵搬出关键特性说明/NZ2ND.md, NZ2NZ.md,
NZ2DN.md). L0C holds Nz with 16x16 fractals; C[m][n] of NZ matrix h sits at
    h*srcMat + (n//16)*srcStride*16 + m*srcRow + n%16     (srcRow = 16, or srcNzC0Stride*16 for NZ2DN)
and goes to
    ND: h*dstMat + m*dstStride + n    NZ: m*16 + (n//16)*dstCol + n%16    DN: h*dstMat + n*dstStride + m
for m < mSize, n < nSize. Units: srcNdStride is 16*C0_Size (one 16x16 fractal, 256 elements) in
FixpipeParamsV220 (表4) and C0_SIZE (16 elements) in Nz2NdParams of FixpipeParamsArch3510 (表3) — CONCEPTS
§9 Q34, the struct's own table is taken as the most specific text. NZ2NZ dstStride is 32 B (V220) or
elements (Arch3510). quantPre F322F16 / F322BF16 cast float to half / bfloat16 round-to-nearest-even
(CAST_RINT, 随路量化.md): the plan gathers float32 values, ascsim.dtypes encodes them, then they are scattered
(IEEE overflow to inf, NaN kept — the non-saturating CTRL[48] mode). Quantisation modes, ReLU, channel split,
cbufWorkspace and L0C->UB raise NotImplementedError.
"""

from __future__ import annotations

import math
import warnings
from dataclasses import dataclass, replace
from functools import lru_cache

import numpy as np

from .. import checks
from ..core import Core
from ..dtypes import DType, get_dtype, to_raw
from ..errors import OverlapError, ParamRangeError, UnsupportedError
from ..layouts import align, cdiv
from ..memory import LocalTensor
from ..params import (
    CFG_ROW_MAJOR,
    CO2Layout,
    DataCopyParams,
    Dn2NzParams,
    FixpipeConfig,
    FixpipeParamsArch3510,
    FixpipeParamsV220,
    Nd2NzParams,
    Nz2DnParams,
    Nz2NdParams,
    QuantMode_t,
)
from ..plan import PAD, ExecReport, Plan, check_plan, execute, user_stacklevel

U32 = 2**32 - 1

# Plain GM->L1 DataCopy support (the chip table has no key for it). doc: DataCopy（GMToL1连续数据搬运）.md
# 产品支持情况 / 数据类型: not on Atlas 200I/500 A2 nor the inference Vector Core; A2/A3/950 take any
# b8/b16/b32(/b64) type, the other chips list the plain integer types plus half and float.
_PLAIN_UNSUPPORTED = frozenset({"atlas200i500a2", "inference_vectorcore"})
_PLAIN_ANY_WIDTH = frozenset({"ascend950", "a2", "a3"})
_PLAIN_TYPES = frozenset({"int8_t", "uint8_t", "int16_t", "uint16_t", "int32_t", "uint32_t", "half", "float"})


# ==================================================================================================
# DataCopy GM -> L1
# ==================================================================================================


def data_copy(core: Core, dst: LocalTensor, src: LocalTensor, params: object, *,
              enable_small_c0: bool = False) -> ExecReport:
    """`DataCopy(dst, src, params)` GM->L1, dispatching on the params type like the C++ overloads:
    an int count, DataCopyParams, Nd2NzParams or Dn2NzParams (`enable_small_c0` = the 950 template flag)."""
    if isinstance(params, Nd2NzParams):
        return _nz_copy(core, dst, src, params, "ND2NZ", enable_small_c0)
    if isinstance(params, Dn2NzParams):
        return _nz_copy(core, dst, src, params, "DN2NZ", enable_small_c0)
    is_count = isinstance(params, (int, np.integer)) and not isinstance(params, bool)
    if is_count or isinstance(params, DataCopyParams):
        if enable_small_c0:
            raise ParamRangeError("DataCopy: enableSmallC0 exists only for ND2NZ/DN2NZ, but got True")
        return _plain_copy(core, dst, src, params)
    raise UnsupportedError(f"DataCopy: params must be a count, DataCopyParams, Nd2NzParams or Dn2NzParams, "
                           f"but got {type(params).__name__}")


def _gm_to_l1_operands(instr: str, dst: LocalTensor, src: LocalTensor) -> None:
    checks.position(instr, "src", src, ("GM",))
    checks.position(instr, "dst", dst, ("L1",))
    checks.same_dtype(instr, dst, src)


def _check_ranges(instr: str, dst: LocalTensor, src: LocalTensor, dst_last: int, src_last: int, bits: int
                  ) -> None:
    """Analytic extents (last element offsets) against the physical memories, before planning."""
    dst.memory.check_range(dst.offset, (dst_last + 1) * bits // 8, f"{instr}: destination")
    src.memory.check_range(src.offset, (src_last + 1) * bits // 8, f"{instr}: source")


@dataclass(frozen=True)
class BlockCopySpec:
    """Plain copy in bytes: `count` blocks of `block` B, block starts every src_pitch / dst_pitch B."""

    count: int
    block: int
    src_pitch: int
    dst_pitch: int


@lru_cache(maxsize=256)
def plan_block_copy(spec: BlockCopySpec) -> Plan:
    b = np.arange(spec.count)[:, None]
    k = np.arange(spec.block)[None, :]
    dst = np.broadcast_to(b * spec.dst_pitch + k, (spec.count, spec.block))
    src = np.broadcast_to(b * spec.src_pitch + k, (spec.count, spec.block))
    return Plan.build("DataCopy", 8, dst, src, info={"spec": spec})


def _plain_copy(core: Core, dst: LocalTensor, src: LocalTensor, params: DataCopyParams | int) -> ExecReport:
    """DataCopy GM->L1 with a count or DataCopyParams (doc: DataCopy（GMToL1连续/高维切分数据搬运）.md)."""
    instr = "DataCopy"
    _gm_to_l1_operands(instr, dst, src)
    chip = core.chip
    dt = dst.dtype.name
    if chip.key in _PLAIN_UNSUPPORTED:
        raise UnsupportedError(f"{instr}: GM->L1 DataCopy is not supported on {chip.name} "
                               f"(doc: DataCopy（GMToL1连续数据搬运）.md 产品支持情况)")
    if dst.dtype.is_4bit or (chip.key not in _PLAIN_ANY_WIDTH and dt not in _PLAIN_TYPES):
        allowed = "b8, b16, b32, b64" if chip.key in _PLAIN_ANY_WIDTH else ", ".join(sorted(_PLAIN_TYPES))
        raise UnsupportedError(f"{instr}: dtype {dt} is not supported on {chip.name}; supported: {allowed}")
    checks.aligned(instr, "dst (L1)", dst, 32)
    if isinstance(params, DataCopyParams):
        r = checks.in_range
        count = r(instr, "blockCount", params.blockCount, 0, 4095)
        blen = r(instr, "blockLen", params.blockLen, 0, 65535)
        sgap = r(instr, "srcStride", params.srcStride, 0, 65535)
        dgap = r(instr, "dstStride", params.dstStride, 0, 65535)
        spec = BlockCopySpec(count, blen * 32, (blen + sgap) * 32, (blen + dgap) * 32)
    else:
        n = checks.in_range(instr, "count", params, 0, U32)
        nbytes = n * dst.dtype.bits // 8 // 32 * 32  # rounded down to 32 B (doc 约束说明)
        spec = BlockCopySpec(1 if nbytes else 0, nbytes, nbytes, nbytes)
    if spec.count == 0 or spec.block == 0:
        return ExecReport(instr)  # NOP (doc: blockCount/blockLen = 0)
    last = spec.count - 1
    _check_ranges(instr, dst, src, last * spec.dst_pitch + spec.block - 1,
                  last * spec.src_pitch + spec.block - 1, 8)
    if spec.dst_pitch < spec.block:  # cannot happen (gaps >= 0); kept as the doc's no-overlap rule
        raise OverlapError(f"{instr}: dstStride makes blocks overlap")
    return execute(plan_block_copy(spec), dst, src, 0, core.strict)


@dataclass(frozen=True)
class NzCopySpec:
    """Effective ND2NZ / DN2NZ parameters (elements of `bits`; b4 moves as b8)."""

    kind: str  # "ND2NZ" | "DN2NZ"
    bits: int
    num: int
    n_value: int
    d_value: int
    src_matrix: int
    src_d: int
    c0_stride: int  # 32-B units
    n_stride: int  # 32-B units
    dst_matrix: int

    @property
    def c0(self) -> int:
        return 256 // self.bits

    def dst_last(self) -> int:
        c0 = self.c0
        return ((self.num - 1) * self.dst_matrix + (cdiv(self.d_value, c0) - 1) * self.c0_stride * c0
                + (self.n_value - 1) * self.n_stride * c0 + c0 - 1)

    def src_last(self) -> int:
        if self.kind == "ND2NZ":
            return (self.num - 1) * self.src_matrix + (self.n_value - 1) * self.src_d + self.d_value - 1
        return (self.num - 1) * self.src_matrix + (self.d_value - 1) * self.src_d + self.n_value - 1


@lru_cache(maxsize=256)
def plan_nz_copy(spec: NzCopySpec) -> Plan:
    c0 = spec.c0
    # dstNzMatrixStride = 0: every matrix overwrites the first (doc 表3), so only the last one survives.
    mats = np.arange(spec.num) if spec.dst_matrix or spec.num == 1 else np.array([spec.num - 1])
    i = mats[:, None, None]
    r = np.arange(spec.n_value)[None, :, None]
    c = np.arange(align(spec.d_value, c0))[None, None, :]
    dst = i * spec.dst_matrix + (c // c0) * spec.c0_stride * c0 + r * spec.n_stride * c0 + c % c0
    if spec.kind == "ND2NZ":
        src = i * spec.src_matrix + r * spec.src_d + c
    else:
        src = i * spec.src_matrix + c * spec.src_d + r
    src = np.where(c < spec.d_value, src, PAD)  # columns [dValue, align(dValue, C0)) are zero-filled
    shape = (mats.size, spec.n_value, c.size)
    return Plan.build(f"DataCopy{spec.kind}", spec.bits, np.broadcast_to(dst, shape),
                      np.broadcast_to(src, shape), info={"spec": spec})


def _nz_copy(core: Core, dst: LocalTensor, src: LocalTensor, p: Nd2NzParams | Dn2NzParams, kind: str,
             small_c0: bool) -> ExecReport:
    instr = f"DataCopy{kind}"
    nd = kind == "ND2NZ"
    _gm_to_l1_operands(instr, dst, src)
    core.chip.check(instr, dst.dtype.name, "GM", "L1", instr=instr)
    if checks.flag(instr, "enableSmallC0", small_c0):
        raise NotImplementedError(f"{instr}: enableSmallC0 (SmallC0 mode, C0 padded to 4 elements) is not "
                                  "implemented in ascsim")
    if dst.dtype.is_4bit and not nd:
        raise NotImplementedError(f"{instr}: 4-bit DN2NZ (b8-unit parameters, nValue even) is not "
                                  "implemented; the doc does not say how nibble pairs are transposed")
    checks.aligned(instr, "dst (L1)", dst, 32)
    r = checks.in_range
    num_name, sm_name = ("ndNum", "srcNdMatrixStride") if nd else ("dnNum", "srcDnMatrixStride")
    big = 65535 if nd else 2**40 - 1
    num = r(instr, num_name, getattr(p, num_name), 0, 4095)
    n_value = r(instr, "nValue", p.nValue, 0, 16384)
    d_value = r(instr, "dValue", p.dValue, 0, 65535 if nd else 2**21 - 1)
    if num == 0 or n_value == 0 or d_value == 0:
        return ExecReport(instr)  # NOP (doc 表3); the other fields are not read
    spec = NzCopySpec(
        kind, 8 if dst.dtype.is_4bit else dst.dtype.bits, num, n_value, d_value,
        r(instr, sm_name, getattr(p, sm_name), 0, big), r(instr, "srcDValue", p.srcDValue, 1, big),
        r(instr, "dstNzC0Stride", p.dstNzC0Stride, 1, 16384),
        r(instr, "dstNzNStride", p.dstNzNStride, 1, 16384),
        r(instr, "dstNzMatrixStride", p.dstNzMatrixStride, 0, 16384),
    )
    _check_nz_rows(instr, spec)
    _check_ranges(instr, dst, src, spec.dst_last(), spec.src_last(), spec.bits)
    return execute(plan_nz_copy(spec), dst, src, 0, core.strict)


def _check_nz_rows(instr: str, s: NzCopySpec) -> None:
    """Rows of one NZ matrix must not overlap (doc 约束说明). Row (block b, r) starts at b*C0S + r*NS
    (32-B units); the first collision is at the smallest b with NS | b*C0S."""
    blocks = cdiv(s.d_value, s.c0)
    g = s.n_stride // math.gcd(s.c0_stride, s.n_stride)
    dr = g * s.c0_stride // s.n_stride
    if blocks > g and dr <= s.n_value - 1:
        raise OverlapError(
            f"{instr}: dstNzC0Stride must keep the {blocks} column blocks of {s.n_value} rows apart "
            f"(dstNzNStride {s.n_stride}), but got {s.c0_stride}: block {g} starts on row {dr} of block 0")


def reference_nz_copy(kind: str, p: Nd2NzParams | Dn2NzParams, src: np.ndarray, dst: np.ndarray, c0: int
                      ) -> np.ndarray:
    """Slow reference straight from the ND2NZ / DN2NZ tables (elements; b4 callers pass bytes, c0 = 32)."""
    out = np.array(dst, copy=True)
    num = p.ndNum if kind == "ND2NZ" else p.dnNum
    sm = p.srcNdMatrixStride if kind == "ND2NZ" else p.srcDnMatrixStride
    if num == 0 or p.nValue == 0 or p.dValue == 0:
        return out
    for i in range(num):
        for r in range(p.nValue):
            for c in range(align(p.dValue, c0)):
                # dstNzC0Stride: start of the next Z (C0-column block); dstNzNStride: next row; 32-B units
                d = (i * p.dstNzMatrixStride + (c // c0) * p.dstNzC0Stride * c0
                     + r * p.dstNzNStride * c0 + c % c0)
                if c >= p.dValue:
                    out[d] = 0  # "在目的矩阵中会补0对齐到32字节"
                elif kind == "ND2NZ":
                    out[d] = src[i * sm + r * p.srcDValue + c]
                else:
                    out[d] = src[i * sm + c * p.srcDValue + r]
    return out


# ==================================================================================================
# Fixpipe L0C -> GM
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
    dst_stride: int  # ND / DN: row length; NZ: between 16-column blocks

    def dst_last(self) -> int:
        if self.layout == "ND":
            return (self.num - 1) * self.dst_mat + (self.m - 1) * self.dst_stride + self.n - 1
        if self.layout == "DN":
            return (self.num - 1) * self.dst_mat + (self.n - 1) * self.dst_stride + self.m - 1
        return (self.m - 1) * 16 + ((self.n - 1) // 16) * self.dst_stride + (self.n - 1) % 16


@lru_cache(maxsize=256)
def plan_fixpipe(spec: FixpipeSpec) -> Plan:
    h = np.arange(spec.num)[:, None, None]
    m = np.arange(spec.m)[None, :, None]
    n = np.arange(spec.n)[None, None, :]
    src = h * spec.src_mat + (n // 16) * spec.src_col + m * spec.src_row + n % 16
    if spec.layout == "ND":
        dst = h * spec.dst_mat + m * spec.dst_stride + n
    elif spec.layout == "DN":
        dst = h * spec.dst_mat + n * spec.dst_stride + m
    else:
        dst = m * 16 + (n // 16) * spec.dst_stride + n % 16
    shape = (spec.num, spec.m, spec.n)
    dst = np.broadcast_to(dst, shape)
    overlap = bool(np.unique(dst).size != dst.size)
    return Plan.build("Fixpipe", 32, dst, np.broadcast_to(src, shape),
                      info={"spec": spec, "overlap": overlap})


_CASTS = {QuantMode_t.NoQuant: None, QuantMode_t.F322F16: "half", QuantMode_t.F322BF16: "bfloat16_t"}


def _quant_mode(instr: str, v: object, is950: bool) -> QuantMode_t:
    try:
        mode = QuantMode_t[v] if isinstance(v, str) else QuantMode_t(v)
    except (KeyError, ValueError):
        names = ", ".join(QuantMode_t.__members__)
        raise ParamRangeError(f"{instr}: quantPre must be a QuantMode_t ({names}), but got {v!r}") from None
    if mode >= QuantMode_t.QF322FP8_PRE and not is950:
        raise UnsupportedError(f"{instr}: quantPre {mode.name} exists on Ascend 950 only (doc: 随路量化.md), "
                               f"but got it on a non-950 chip")
    if mode not in _CASTS:
        raise NotImplementedError(f"{instr}: quantPre {mode.name} (quantisation with deqScalar / a quant "
                                  "tensor) is not implemented in ascsim; only NoQuant, F322F16, F322BF16 are")
    return mode


def _check_conversion(instr: str, mode: QuantMode_t, s: DType, d: DType) -> None:
    want = _CASTS[mode]
    if want is None and d != s:
        raise ParamRangeError(
            f"{instr}: quantPre NoQuant copies {s.name} unchanged, so dst must be {s.name}, but got {d.name} "
            "(float->half needs F322F16, float->bfloat16_t F322BF16, other pairs a quantisation mode)")
    if want is not None and (s.name, d.name) != ("float", want):
        raise ParamRangeError(f"{instr}: quantPre {mode.name} casts float to {want}, but got "
                              f"{s.name} -> {d.name}")


def fixpipe(core: Core, dst: LocalTensor, src: LocalTensor, params: FixpipeParamsV220 | FixpipeParamsArch3510,
            config: FixpipeConfig | CO2Layout = CFG_ROW_MAJOR, cbuf_workspace: LocalTensor | None = None
            ) -> ExecReport:
    """`Fixpipe<T, U, config>(dst, src[, cbufWorkspace], intriParams)` L0C (CO1) -> GM
    (doc: Fixpipe（L0C到GM数据搬运）.md; NZ2ND.md, NZ2NZ.md, NZ2DN.md, 随路量化.md)."""
    instr = "Fixpipe"
    checks.position(instr, "src", src, ("L0C",))
    checks.position(instr, "dst", dst, ("GM",))
    is3510 = isinstance(params, FixpipeParamsArch3510)
    if not is3510 and not isinstance(params, FixpipeParamsV220):
        raise UnsupportedError(f"{instr}: intriParams must be FixpipeParamsV220 or FixpipeParamsArch3510, "
                               f"but got {type(params).__name__}")
    chip = core.chip
    is950 = chip.key == "ascend950"
    chip.check_combo("Fixpipe", (src.dtype.name, dst.dtype.name), instr=instr)
    if is3510 and not is950:
        raise UnsupportedError(f"{instr}: intriParams FixpipeParamsArch3510 is the Ascend 950 (arch 3510) "
                               f"struct, but got it on {chip.name}; use FixpipeParamsV220")
    cfg = config if isinstance(config, FixpipeConfig) else FixpipeConfig(CO2Layout(config))
    fmt = CO2Layout(cfg.format)
    if cfg.isToUB:
        raise NotImplementedError(f"{instr}: config.isToUB (L0C->UB) is not implemented in ascsim")
    if fmt == CO2Layout.COLUMN_MAJOR and not (is950 and is3510):
        raise UnsupportedError(f"{instr}: config CFG_COLUMN_MAJOR (NZ2DN) needs Ascend 950 and "
                               f"FixpipeParamsArch3510, but got {type(params).__name__} on {chip.name}")
    if cbuf_workspace is not None:
        raise NotImplementedError(f"{instr}: cbufWorkspace (tensor quantisation parameters) is not "
                                  "implemented")
    mode = _quant_mode(instr, params.quantPre, is950)
    if checks.flag(instr, "reluEn", params.reluEn):
        raise NotImplementedError(f"{instr}: reluEn (NormReLU, 随路ReLU.md) is not implemented in ascsim")
    if checks.flag(instr, "isChannelSplit", params.isChannelSplit):
        raise NotImplementedError(f"{instr}: isChannelSplit (F32 Channel Split) is not implemented in ascsim")
    if params.unitFlag not in (0, 2, 3):
        raise ParamRangeError(f"{instr}: unitFlag must be 0, 2 or 3, but got {params.unitFlag!r}")
    checks.in_range(instr, "deqScalar", params.deqScalar, 0, 2**64 - 1)  # read by quantisation modes only
    _check_conversion(instr, mode, src.dtype, dst.dtype)
    checks.aligned(instr, "src (L0C)", src, 64)
    if fmt != CO2Layout.ROW_MAJOR:
        checks.aligned(instr, f"dst ({fmt.name} in GM)", dst, 32)
    spec = _fixpipe_spec(instr, params, fmt, is3510, dst.dtype)
    if spec is None:
        return ExecReport(instr)
    dst_elems = dst.memory.size * 8 // dst.dtype.bits
    dst.memory.check_range(dst.offset, (spec.dst_last() + 1) * dst.dtype.bits // 8, f"{instr}: destination")
    if spec.num * spec.m * spec.n > dst_elems:
        raise OverlapError(f"{instr}: {_num_names(fmt)[1]} makes the {spec.num} destination matrices overlap "
                           f"({spec.num * spec.m * spec.n} elements do not fit in {dst_elems})")
    plan = plan_fixpipe(spec)
    if plan.info["overlap"]:
        raise OverlapError(f"{instr}: {_num_names(fmt)[1]} must keep the {spec.num} destination matrices "
                           f"apart (doc: 目标数据不能有重叠), but got {spec.dst_mat} elements")
    if mode == QuantMode_t.NoQuant:
        return execute(plan, dst, src, 0, core.strict)
    return _execute_cast(plan, dst, src, dst.dtype, core.strict)


def _num_names(fmt: CO2Layout) -> tuple[str, str]:
    return ("dnNum", "dstDnMatrixStride") if fmt == CO2Layout.COLUMN_MAJOR else ("ndNum", "dstNdStride")


def _fixpipe_spec(instr: str, p: FixpipeParamsV220 | FixpipeParamsArch3510, fmt: CO2Layout, is3510: bool,
                  ddt: DType) -> FixpipeSpec | None:
    """Validate ranges and convert every stride to elements; None = NOP."""
    r = checks.in_range
    layout = {CO2Layout.ROW_MAJOR: "ND", CO2Layout.NZ: "NZ", CO2Layout.COLUMN_MAJOR: "DN"}[fmt]
    n = r(instr, "nSize", p.nSize, 0, 4095)
    m = r(instr, "mSize", p.mSize, 0, 8192 if (layout == "ND" and not is3510) else 65535)
    sub: Nz2NdParams | Nz2DnParams | None = None
    if is3510:
        sub = p.params  # type: ignore[union-attr]
        want = {"ND": Nz2NdParams, "DN": Nz2DnParams, "NZ": type(None)}[layout]
        if sub is None and layout == "ND":
            sub = Nz2NdParams()
        if not isinstance(sub, want):
            wname = "None" if want is type(None) else want.__name__
            raise ParamRangeError(f"{instr}: params must be {wname} for CO2Layout::{fmt.name}, but got "
                                  f"{type(sub).__name__}")
    num, num_name = 1, None
    if layout == "ND":
        num_name = "ndNum"
        num = r(instr, "ndNum", (sub or p).ndNum, 0, 65535)
    elif layout == "DN":
        num_name = "dnNum"
        num = r(instr, "dnNum", sub.dnNum, 0, 65535)  # type: ignore[union-attr]
    if num == 0:
        warnings.warn(f"{instr}: {num_name}=0 makes the call a NOP", UserWarning,
                      stacklevel=user_stacklevel())
    if m == 0 or n == 0 or num == 0:
        return None  # NOP (doc 约束说明); the other fields are not read
    if layout == "NZ" and n % 16:
        raise ParamRangeError(f"{instr}: nSize must be a multiple of 16 for NZ2NZ (doc 表4), but got {n}")
    src_stride = r(instr, "srcStride", p.srcStride, 0, 65535) * 16  # C0_Size = 16 L0C elements
    dst_stride = r(instr, "dstStride", p.dstStride, 1, U32)
    src_row, src_mat, dst_mat = 16, 0, 0
    if layout == "ND":
        if is3510:
            src_mat = r(instr, "srcNdStride", sub.srcNdStride, 0, 65535) * 16  # type: ignore[union-attr]
            dst_mat = r(instr, "dstNdStride", sub.dstNdStride, 0, U32)  # type: ignore[union-attr]
        else:
            src_mat = r(instr, "srcNdStride", p.srcNdStride, 0, 512) * 256  # type: ignore[union-attr]
            dst_mat = r(instr, "dstNdStride", p.dstNdStride, 0, 65535)  # type: ignore[union-attr]
        if num == 1:
            src_mat = dst_mat = 0  # "ndNum配置为1时 … 不生效"
        if m > 1 and dst_stride < n:
            raise OverlapError(f"{instr}: dstStride (elements per ND row) must be >= nSize {n}, but got "
                               f"{dst_stride}; destination rows would overlap")
    elif layout == "DN":
        src_mat = r(instr, "srcNzMatrixStride", sub.srcNzMatrixStride, 0, 65535) * 16  # type: ignore[union-attr]
        dst_mat = r(instr, "dstDnMatrixStride", sub.dstDnMatrixStride, 0, U32)  # type: ignore[union-attr]
        src_row = r(instr, "srcNzC0Stride", sub.srcNzC0Stride, 1, 65535) * 16  # type: ignore[union-attr]
        if num == 1:
            src_mat = dst_mat = 0
        if n > 1 and dst_stride < m:
            raise OverlapError(f"{instr}: dstStride (elements per DN row) must be >= mSize {m}, but got "
                               f"{dst_stride}; destination rows would overlap")
    else:
        if not is3510:  # V220 NZ2NZ: dstStride in 32-B blocks (NZ2NZ.md)
            dst_stride = dst_stride * 32 // (ddt.bits // 8)
        if n > 16 and dst_stride < m * 16:
            raise OverlapError(f"{instr}: dstStride must place the 16-column blocks at least mSize*16 = "
                               f"{m * 16} elements apart, but got {dst_stride} elements")
    return FixpipeSpec(layout, m, n, num, src_mat, src_stride, src_row, dst_mat, dst_stride)


def _execute_cast(plan: Plan, dst: LocalTensor, src: LocalTensor, ddt: DType, strict: bool) -> ExecReport:
    """Gather float32 from L0C, cast (RNE, ascsim.dtypes.to_raw), scatter the raw codes into GM."""
    dbytes = ddt.bits // 8
    dst_end = (int(plan.dst.max()) + 1) * dbytes
    hazards = check_plan(replace(plan, dst_end=dst_end), dst, src, strict)
    vals = src.memory.data[src.offset : src.offset + plan.src_end].view("<f4")[plan.src]
    raw = to_raw(ddt, vals)
    dst.memory.data[dst.offset : dst.offset + dst_end].view(f"<u{dbytes}")[plan.dst] = raw
    return ExecReport("Fixpipe", bytes_written=plan.dst.size * dbytes, bytes_read=plan.src.size * 4,
                      hazards=hazards, plan=plan).on(dst, src)


def reference_fixpipe(p: FixpipeParamsV220 | FixpipeParamsArch3510, fmt: CO2Layout, src: np.ndarray,
                      dst: np.ndarray, dst_dtype: DType | str) -> np.ndarray:
    """Slow reference: the NZ2ND / NZ2NZ / NZ2DN pseudocode loops with byte addresses turned into
    elements. `src` holds L0C float32 / int32 values, `dst` destination values; casts use numpy/ml_dtypes."""
    ddt = get_dtype(dst_dtype)
    out = np.array(dst, copy=True)
    is3510 = isinstance(p, FixpipeParamsArch3510)
    m_size, n_size = p.mSize, p.nSize
    if fmt == CO2Layout.ROW_MAJOR:
        sub = (p.params or Nz2NdParams()) if is3510 else p
        # NZ2ND.md: src + srcNdStride*fractal_size*i — fractal unit per struct table (CONCEPTS §9 Q34)
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
        for j in range(m_size):
            for k in range(cdiv(n_size, 16)):
                for e in range(16):
                    out[j * 16 + k * blk + e] = src[j * 16 + k * p.srcStride * 16 + e]
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
