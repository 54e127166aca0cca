"""LoadData 2D: LoadData2DParams (v1), LoadData2DParamsV2 and Load2DBitModeParam — validate, plan, execute.

Semantics (docs/load2d.md; docs 矩阵计算的搬入/LoadData_2D.md, LoadData_2D_V2.md, LoadData_2D_BitMode.md,
LoadData（GMToL1-2D矩阵搬运）.md and its V2 page):

* v1 copies whole 512-B fractals: repeat i reads source fractal startIndex ± i*srcStride and writes
  destination fractal i*(dstGap+1) (dstGap counts from the end of one fractal to the start of the next).
  ifTranspose (b16, L1->L0A/L0B) transposes each 16x16 block. The copy ignores layout.
* v2 moves an Nz window: rows [16*mStart, 16*(mStart+mStep)), columns [C0*kStart, C0*(kStart+kStep))
  of a source stored Nz with column stride srcStride; the destination is Nz with column stride
  dstStride, of the window (no transpose) or of its transpose (ifTranspose).

Each entry point also has a slow reference interpreter (`ref_*`), loops written from the doc text,
that the property tests compare the planned execution against.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass
from functools import partial

import numpy as np

from ..base.diagnostics import report_hazards, user_stacklevel
from ..base.errors import (
    BoundsError,
    HazardWarning,
    NotImplementedFeature,
    UnsupportedError,
    cpp_rejects,
    doc_forbids,
    hw_cannot,
)
from ..engine.boundary import PreparedCall, lookup, run_gather
from ..engine.cache import PLANS
from ..engine.plan import Plan, UnitPlan
from ..engine.record import ExecReport
from ..engine.state import CoreState
from ..machine import checks
from ..machine.layouts import R0
from ..machine.memory import LocalTensor
from ..params.load2d import Load2DBitModeParam, LoadData2DParams, LoadData2DParamsV2

FRACTAL_BYTES = 512
# Address alignment per memory (doc: 矩阵计算输入搬运约束.md 对齐约束; LoadData_2D.md 约束说明).
DST_ALIGN = {"L0A": 512, "L0B": 512, "L1": 32}
SRC_ALIGN = {"L1": 32, "GM": 1}
_U32 = (1 << 32) - 1
_I32 = (1 << 31) - 1


def fractal_elems(bits: int) -> int:
    """Elements in one 512-B fractal (b4 1024, b8 512, b16 256, b32 128)."""
    return FRACTAL_BYTES * 8 // bits


# -- shared validation ---------------------------------------------------------------------------------


def check_path(core: CoreState, instr: str, api: str, dst: LocalTensor, src: LocalTensor, dtype_name: str,
               same_dtype: bool = True, align: bool = True) -> tuple[str, str]:
    """Positions, dtype agreement, the chip's path/dtype table and (unless a placement checks it)
    address alignment. Returns (src, dst) memory names."""
    checks.position(instr, "src", src, ("GM", "L1"), checks.PHYSICAL_POSITION)
    checks.position(instr, "dst", dst, ("L1", "L0A", "L0B"), checks.PHYSICAL_POSITION)
    if same_dtype:
        checks.same_dtype(instr, dst, src)
    s, d = src.memory.name, dst.memory.name
    core.chip.check(api, dtype_name, s, d, instr=instr)
    if align:
        checks.aligned(instr, f"src ({s})", src, SRC_ALIGN[s], checks.ALIGNMENT)
        checks.aligned(instr, f"dst ({d})", dst, DST_ALIGN[d], checks.ALIGNMENT)
    return s, d


# -- v1: LoadData2DParams -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Load2DSpec:
    """Effective v1 parameters (the plan cache key). `decrement` = addrMode 1 honoured on this path."""

    bits: int
    startIndex: int
    repeatTimes: int
    srcStride: int
    dstGap: int
    transpose: bool
    decrement: bool

    def src_fractals(self) -> np.ndarray:
        i = np.arange(self.repeatTimes)
        return self.startIndex + (-1 if self.decrement else 1) * i * self.srcStride

    def dst_fractals(self) -> np.ndarray:
        return np.arange(self.repeatTimes) * (self.dstGap + 1)


def plan_load2d(spec: Load2DSpec, instr: str = "LoadData2D") -> Plan:
    """Fractal copy loop of docs/load2d.md (v1); ifTranspose swaps row and column inside each 16x16 block
    (element provenance, kept in the byte-capped `PLANS`)."""
    return PLANS.memo(("load2d", spec, instr), lambda: _plan_load2d(spec, instr))


def _plan_load2d(spec: Load2DSpec, instr: str) -> Plan:
    n = fractal_elems(spec.bits)
    e = np.arange(n)
    inner = (e % R0) * R0 + e // R0 if spec.transpose else e  # dst (r, c) <- src (c, r)
    dst = spec.dst_fractals()[:, None] * n + e[None, :]
    src = spec.src_fractals()[:, None] * n + inner[None, :]
    return Plan.build(instr, spec.bits, dst, src, info={"spec": spec})


def ref_load2d(dst: np.ndarray, src: np.ndarray, bits: int, startIndex: int, repeatTimes: int,
               srcStride: int, dstGap: int, ifTranspose: bool, decrement: bool) -> None:
    """Slow reference, straight from LoadData_2D.md 表2 (arrays hold one raw element per entry)."""
    n = fractal_elems(bits)  # "每个迭代可以处理512字节数据"
    for i in range(repeatTimes):
        # addrMode: "下一次repeat index = startIndex ± srcStride * (iteration)"
        s = startIndex - srcStride * i if decrement else startIndex + srcStride * i
        # dstGap: "前一个分形结束地址与后一个分形起始地址的间隔" -> start of fractal i is i*(dstGap+1)
        d = i * (dstGap + 1)
        for e in range(n):
            if ifTranspose:  # "对每个分形矩阵进行转置": 16x16 b16 block
                r, c = divmod(e, 16)
                dst[d * n + e] = src[s * n + c * 16 + r]
            else:
                dst[d * n + e] = src[s * n + e]


def _warn_950_lowering(start: int, stride: int, gap: int, core: CoreState) -> list[str]:
    """On 950 the C++ API lowers v1 params to a 2Dv2 instruction (docs/divergences.md D3); where that
    lowering and the documented formula disagree, say so (ascsim models the documented formula)."""
    diffs = []
    if start and stride != 1:
        diffs.append(f"the C++ lowering reads fractal (startIndex+i)*srcStride = ({start}+i)*{stride}, "
                     f"the doc formula startIndex+i*srcStride")
    if gap:
        diffs.append(f"LoadData_2D.md says dstGap has no effect on 950, but the C++ API passes dstStride = "
                     f"dstGap+1 = {gap + 1} (ascsim honours dstGap)")
    if diffs:
        warnings.warn(f"LoadData2D: on {core.chip.name}: " + "; ".join(diffs), HazardWarning,
                      stacklevel=user_stacklevel())
    return []


def units_fractal_copy(instr: str, bits: int, dst_fractals: np.ndarray, src_fractals: np.ndarray) -> UnitPlan:
    """Whole 512-B fractals moved unchanged: 16 blocks of 32 B each, built without an element plan."""
    j = np.arange(FRACTAL_BYTES // 32)
    d = np.asarray(dst_fractals).ravel()[:, None] * 16 + j
    s = np.asarray(src_fractals).ravel()[:, None] * 16 + j
    return UnitPlan(instr, bits, 32, d, s, 0)


def _units_load2d(spec: Load2DSpec, instr: str) -> UnitPlan:
    if spec.transpose:  # 16x16 b16 transposes inside each fractal: element moves
        return plan_load2d(spec, instr).units
    return units_fractal_copy(instr, spec.bits, spec.dst_fractals(), spec.src_fractals())


def _aligns(s_mem: str, d_mem: str) -> tuple[tuple[int, int, str], ...]:
    """(operand, alignment, what) for the placement checks: operand 0 = dst, 1 = src."""
    return ((1, SRC_ALIGN[s_mem], f"src ({s_mem})"), (0, DST_ALIGN[d_mem], f"dst ({d_mem})"))


def load2d(core: CoreState, dst: LocalTensor, src: LocalTensor, p: LoadData2DParams, _config: object = None,
           _dst_pos: str | None = None, _src_pos: str | None = None) -> ExecReport:
    """`LoadData(dst, src, LoadData2DParams)` (doc: LoadData_2D.md; LoadData（GMToL1-2D矩阵搬运）.md).

    Value checks run once per (chip, path, dtypes, params) and are cached (ascsim.engine.boundary); alignment
    and bounds are checked per placement (they depend on the tensors' addresses).
    """
    instr = "LoadData2D"
    pk = p.key()
    key = None if pk is None else (instr, core.chip.key, src.memory.name, dst.memory.name, dst.dtype.name,
                                   src.dtype.name, pk)
    return run_gather(core, lookup(key, lambda: _prepared_load2d(core, instr, dst, src, p)), dst, src)


def _report(hazards: tuple[str, ...], core: CoreState) -> list[str]:
    """Hazards a prepared call reports on every call (strict: raised before any write)."""
    report_hazards(list(hazards), core.strict)
    return list(hazards)


def _prepared_load2d(core: CoreState, instr: str, dst: LocalTensor, src: LocalTensor, p: LoadData2DParams
                     ) -> PreparedCall:
    spec, warn950, hazards = _prepare_load2d(core, instr, dst, src, p)
    aligns = _aligns(src.memory.name, dst.memory.name)
    warn: tuple = (partial(_report, hazards),) if hazards else ()
    notes = ("D1",) if hazards else ()  # addrMode = 1 where the C++ API sends increment
    if spec is None:  # "repeatTimes=0表示不执行搬运，该接口将被视为NOP"
        return PreparedCall(instr, aligns=aligns, warnings=warn, notes=notes)
    if warn950:
        warn += (partial(_warn_950_lowering, spec.startIndex, spec.srcStride, spec.dstGap),)
    return PreparedCall(instr, spec, units=partial(_units_load2d, spec, instr),
                    planner=partial(plan_load2d, spec, instr), warnings=warn, notes=notes,
                    min_dst=(int(spec.dst_fractals().max()) + 1) * FRACTAL_BYTES, aligns=aligns)


def _prepare_load2d(core: CoreState, instr: str, dst: LocalTensor, src: LocalTensor, p: LoadData2DParams
                    ) -> tuple[Load2DSpec | None, bool, tuple[str, ...]]:
    f = checks.field  # kernel_struct_mm.h LoadData2DParams member types
    start = f(instr, "startIndex", p.startIndex, 16, ctype="uint16_t")
    rep = f(instr, "repeatTimes", p.repeatTimes, 8, ctype="uint8_t")
    stride = f(instr, "srcStride", p.srcStride, 16, ctype="uint16_t")
    # CheckLoadData2dParams: CheckValueRange(sid, 0, ASC_MAX_LOAD2D_SID = 15) (divergence D8)
    checks.in_range(instr, "sid", p.sid, 0, 15, cpp_rejects("CheckLoadData2dParams: ASC_MAX_LOAD2D_SID"))
    gap = f(instr, "dstGap", p.dstGap, 16, ctype="uint16_t")
    transpose = checks.flag(instr, "ifTranspose", p.ifTranspose)
    mode = checks.in_range(instr, "addrMode", p.addrMode, 0, 1,
                           doc_forbids("LoadData_2D.md 表2 addrMode: 0 递增 / 1 递减", "D1"))
    dt = dst.dtype
    s_mem, d_mem = check_path(core, instr, "LoadData2D", dst, src, dt.name, align=False)
    if transpose:
        if s_mem != "L1":
            raise UnsupportedError(
                f"{instr}: ifTranspose=true is only allowed on L1->L0A/L0B (doc: LoadData_2D.md 约束说明), "
                f"but got path {s_mem}->{d_mem}", basis=doc_forbids("LoadData_2D.md 约束说明", "D5"))
        if dt.is_4bit and core.chip.can_transpose("LoadData2D", dt.name, d_mem, s_mem):
            raise NotImplementedFeature(f"{instr}: ifTranspose=true with {dt.name} (64x64 S4 fractals, "
                                        f"LoadData_2D.md id20) is not modelled: the docs do not say how the "
                                        f"four fractals are grouped (divergence D2)")
        if not core.chip.can_transpose("LoadData2D", dt.name, d_mem, s_mem):
            raise UnsupportedError(
                f"{instr}: ifTranspose=true supports b16 types only (doc: LoadData_2D.md 约束说明), but got "
                f"{dt.name} on {core.chip.name}",
                basis=doc_forbids("LoadData_2D.md 约束说明: 仅支持b16转置", "D2"))
    if gap and core.chip.key == "training" and (s_mem, d_mem) == ("GM", "L1"):
        raise UnsupportedError(
            f"{instr}: dstGap must be 0 on GM->L1 for {core.chip.name} (doc: LoadData"
            f"（GMToL1-2D矩阵搬运）.md id18), but got {gap}",
            basis=doc_forbids("LoadData（GMToL1-2D矩阵搬运）.md id18: dstGap 不支持", "D6"))
    # addrMode: honoured on GM->L1 only ("目前仅GM->L1 Buffer通路支持配置"): the C++ API passes `inc` on
    # L1->L0A/L0B (dav_c220 LoadData2DL12L0ACal) and addr_cal_mode_t 0 on GM->L0A/L0B, and on 950 lowers
    # the call to a 2Dv2 instruction that has no address mode at all. A 1 there is ignored — with a
    # HazardWarning, since the caller evidently expected a decrement (divergence D1).
    decrement = mode == 1 and (s_mem, d_mem) == ("GM", "L1") and core.chip.key != "ascend950"
    hazards: tuple[str, ...] = ()
    if mode == 1 and not decrement:
        how = ("lowers LoadData2DParams to a 2Dv2 instruction, which has no address mode"
               if core.chip.key == "ascend950" else "sends increment (inc) on this path")
        hazards = (f"{instr}: addrMode=1 has no effect on {s_mem}->{d_mem} on {core.chip.name}: the C++ API "
                   f"{how}; the source walks up (LoadData_2D.md 表2 addrMode: "
                   f"目前仅GM->L1 Buffer通路支持配置; docs/divergences.md D1)",)
    if rep == 0:
        return None, False, hazards
    if decrement and start - (rep - 1) * stride < 0:
        raise BoundsError(
            f"{instr}: addrMode=1 walks to source fractal {start - (rep - 1) * stride} "
            f"(startIndex {start} - {rep - 1}*srcStride {stride}), before the source start",
            basis=hw_cannot("a source address below the tensor start"))
    spec = Load2DSpec(dt.bits, start, rep, stride, gap, transpose, decrement)
    warn950 = core.chip.key == "ascend950" and bool((start and stride != 1) or gap)
    return spec, warn950, hazards


# -- v2: LoadData2DParamsV2 / Load2DBitModeParam --------------------------------------------------------


@dataclass(frozen=True)
class Load2DV2Spec:
    """Effective v2 parameters (the plan cache key)."""

    bits: int
    mStart: int
    kStart: int
    mStep: int
    kStep: int
    srcStride: int
    dstStride: int
    transpose: bool

    @property
    def c0(self) -> int:
        return 256 // self.bits

    def src_last_fractal(self) -> int:
        return (self.kStart + self.kStep - 1) * self.srcStride + self.mStart + self.mStep - 1

    def dst_shape(self) -> tuple[int, int]:
        """(fractal rows, fractal columns) of the destination Nz matrix."""
        if not self.transpose:
            return self.mStep, self.kStep
        return self.kStep * self.c0 // R0, self.mStep * R0 // self.c0

    def dst_last_fractal(self) -> int:
        rows, cols = self.dst_shape()
        return (cols - 1) * self.dstStride + rows - 1


def plan_load2d_v2(spec: Load2DV2Spec, instr: str = "LoadData2Dv2") -> Plan:
    """Nz window copy (docs/load2d.md, LoadData2DParamsV2). Program order: destination fractal column by
    column, so with dstStride smaller than the column height the next column overwrites the overflow
    (docs/divergences.md D4)."""
    return PLANS.memo(("load2d_v2", spec, instr), lambda: _plan_load2d_v2(spec, instr))


def _plan_load2d_v2(spec: Load2DV2Spec, instr: str) -> Plan:
    c0, n = spec.c0, fractal_elems(spec.bits)
    e = np.arange(n)
    if not spec.transpose:
        kk, mm = np.meshgrid(np.arange(spec.kStep), np.arange(spec.mStep), indexing="ij")
        d = (kk * spec.dstStride + mm).ravel()
        s = ((spec.kStart + kk) * spec.srcStride + spec.mStart + mm).ravel()
        return Plan.build(instr, spec.bits, d[:, None] * n + e, s[:, None] * n + e, info={"spec": spec})
    rows, cols = spec.dst_shape()
    # destination element (i, j) of Nz(R^T), enumerated (c1, r1, ri, ci): i = r1*16+ri, j = c1*C0+ci
    c1, r1, ri, ci = np.meshgrid(np.arange(cols), np.arange(rows), np.arange(R0), np.arange(c0),
                                 indexing="ij")
    i, j = r1 * R0 + ri, c1 * c0 + ci
    dst = (c1 * spec.dstStride + r1) * n + ri * c0 + ci
    gr, gc = R0 * spec.mStart + j, c0 * spec.kStart + i  # R^T(i, j) = R(j, i) = source (gr, gc)
    src = ((gc // c0) * spec.srcStride + gr // R0) * n + (gr % R0) * c0 + gc % c0
    return Plan.build(instr, spec.bits, dst, src, info={"spec": spec})


def ref_load2d_v2(dst: np.ndarray, src: np.ndarray, bits: int, mStart: int, kStart: int, mStep: int,
                  kStep: int, srcStride: int, dstStride: int, ifTranspose: bool) -> None:
    """Slow reference from LoadData_2D_V2.md 表3 and 关键特性说明 (one raw element per array entry)."""
    c0 = 256 // bits  # a fractal is 16 rows x 32 B
    n = 16 * c0
    if not ifTranspose:
        for kk in range(kStep):  # "kStep: K轴方向搬运长度，单位为32字节"
            for mm in range(mStep):  # "mStep: M轴方向搬运长度，单位为16个元素"
                # "startAddr = srcAddr + (kStartPosition*|srcStride| + mStartPosition)*512B"
                s = (kStart + kk) * srcStride + (mStart + mm)
                # dstStride: "目标矩阵K方向前一个分形起始地址与后一个分形起始地址的间隔"
                d = kk * dstStride + mm
                for e in range(n):
                    dst[d * n + e] = src[s * n + e]
        return
    # Transposed: the window R (16*mStep x C0*kStep, Nz in the source) lands as Nz(R^T).
    rows_t, cols_t = kStep * c0, mStep * 16
    for c1 in range(cols_t // c0):
        for r1 in range(rows_t // 16):
            for ri in range(16):
                for ci in range(c0):
                    i, j = r1 * 16 + ri, c1 * c0 + ci
                    gr, gc = 16 * mStart + j, c0 * kStart + i
                    s_off = ((gc // c0) * srcStride + gr // 16) * n + (gr % 16) * c0 + gc % c0
                    dst[(c1 * dstStride + r1) * n + ri * c0 + ci] = src[s_off]


# Transposed square rules (doc: LoadData_2D_V2.md 表3 mStep/kStep, 约束说明).
_TRANSPOSE_RULE = {4: ("mStep", 4), 8: ("mStep", 2), 16: ("mStep", 1), 32: ("kStep", 2)}


def validate_v2(core: CoreState, instr: str, api: str, dst: LocalTensor, src: LocalTensor, v: dict,
                src_dtype_name: str | None = None) -> Load2DV2Spec | None:
    """Validate a v2-family call (fields already decoded into `v`) into its spec, or None for a NOP.
    Address-independent (alignment and bounds belong to the placement).

    `src_dtype_name` is set by the MX load, where dst and src types may differ (checked by the caller).
    """
    r = checks.in_range
    f = checks.field  # kernel_struct_mm.h LoadData2DParamsV2 member types (the bit-mode words' fields
    #                    are checked where they are packed, params.load2d)
    m_start = f(instr, "mStartPosition", v["mStartPosition"], 32, ctype="uint32_t")
    k_start = f(instr, "kStartPosition", v["kStartPosition"], 32, ctype="uint32_t")
    m_step = f(instr, "mStep", v["mStep"], 8, ctype="uint8_t")
    k_step = f(instr, "kStep", v["kStep"], 8, ctype="uint8_t")
    src_stride = r(instr, "srcStride", v["srcStride"], -_I32 - 1, _I32, cpp_rejects("int32_t field"))
    dst_stride = f(instr, "dstStride", v["dstStride"], 16, ctype="uint16_t")
    f(instr, "sid", v.get("sid", 0), 8, ctype="uint8_t")
    transpose = checks.flag(instr, "ifTranspose", v["ifTranspose"])
    if src_stride < 0:
        raise NotImplementedFeature(f"{instr}: srcStride must be >= 0 (a negative stride is not modelled: "
                                    f"the docs only show |srcStride| in the start address), but got "
                                    f"{src_stride} (divergence D5)")
    dt = dst.dtype
    s_mem, d_mem = check_path(core, instr, api, dst, src, dt.name, same_dtype=src_dtype_name is None,
                              align=False)
    if transpose:
        if s_mem != "L1":
            raise UnsupportedError(
                f"{instr}: ifTranspose=true is only allowed on L1->L0A/L0B (doc: LoadData_2D_V2.md 表3), but "
                f"got path {s_mem}->{d_mem}", basis=doc_forbids("LoadData_2D_V2.md 表3 ifTranspose", "D5"))
        core.chip.check_transpose(api, dt.name, d_mem, s_mem, instr=instr)
        name, mult = _TRANSPOSE_RULE[dt.bits]
        val = m_step if name == "mStep" else k_step
        checks.multiple(instr, name, val, mult, f" for a transposed b{dt.bits} load (doc: LoadData_2D_V2.md "
                        "约束说明)", doc_forbids("LoadData_2D_V2.md 约束说明: transposed squares", "D4"))
    if m_step == 0 or k_step == 0:  # "mStep和kStep为0时...被视为NOP"
        return None
    return Load2DV2Spec(dt.bits, m_start, k_start, m_step, k_step, src_stride, dst_stride, transpose)


def units_v2(spec: Load2DV2Spec, instr: str) -> UnitPlan:
    if spec.transpose:
        return plan_load2d_v2(spec, instr).units
    kk, mm = np.meshgrid(np.arange(spec.kStep), np.arange(spec.mStep), indexing="ij")
    return units_fractal_copy(instr, spec.bits, kk * spec.dstStride + mm,
                              (spec.kStart + kk) * spec.srcStride + spec.mStart + mm)


def _run_v2(core: CoreState, instr: str, api: str, dst: LocalTensor, src: LocalTensor, p) -> ExecReport:
    pk = p.key()
    key = None if pk is None else (instr, core.chip.key, src.memory.name, dst.memory.name, dst.dtype.name,
                                   src.dtype.name, pk)

    def prepare() -> PreparedCall:
        spec = validate_v2(core, instr, api, dst, src, p.as_dict())
        aligns = _aligns(src.memory.name, dst.memory.name)
        if spec is None:
            return PreparedCall(instr, aligns=aligns)
        return PreparedCall(instr, spec, units=partial(units_v2, spec, instr),
                        planner=partial(plan_load2d_v2, spec, instr),
                        min_dst=spec.mStep * spec.kStep * FRACTAL_BYTES, aligns=aligns)

    return run_gather(core, lookup(key, prepare), dst, src)


def load2d_v2(core: CoreState, dst: LocalTensor, src: LocalTensor, p: LoadData2DParamsV2,
              _config: object = None,
              _dst_pos: str | None = None, _src_pos: str | None = None) -> ExecReport:
    """`LoadData(dst, src, LoadData2DParamsV2)` (doc: LoadData_2D_V2.md; GMToL1 V2 page)."""
    return _run_v2(core, "LoadData2Dv2", "LoadData2Dv2", dst, src, p)


def load2d_bitmode(core: CoreState, dst: LocalTensor, src: LocalTensor, bm: Load2DBitModeParam,
                   _config: object = None, dst_pos: str | None = None, src_pos: str | None = None
                   ) -> ExecReport:
    """`LoadData<Dst, Src, T>(dst, src, Load2DBitModeParam)` (doc: LoadData_2D_BitMode.md; 950 only).

    The Dst/Src TPosition template arguments are required (dst_pos / src_pos), as for Load3DBitMode.
    """
    instr = "Load2DBitMode"
    core.chip.check("Load2DBitMode", instr=instr)
    checks.template_positions(instr, dst, src, dst_pos, src_pos)
    return _run_v2(core, instr, "Load2DBitMode", dst, src, bm)
