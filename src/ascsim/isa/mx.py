"""MX (microscaling) loads and MmadMx (Ascend 950 only).

* `load_data_mx` = `LoadData(dst U, src T, srcMx fp8_e8m0_t, LoadData2DParamsV2, LoadData2DMxParams)`
  (doc: 矩阵计算的搬入/LoadData_2D_MX.md; seed 003 "Load2DMX"/"Load2Dv2MX"; docs/load2d_mx.md). One call moves
  the data exactly like LoadData2DParamsV2 (L1 -> L0A/L0B) and the e8m0 scales in 32-B units
  (L1 -> L0A_MX/L0B_MX, at the L0A/L0B byte address / 16):
  scale unit (x, y) goes from src + ((xStart+x)*srcStride + yStart + y)*32 to mx + (x*dstStride + y)*32.
* `mmad_mx` = `MmadMx(c, a, b[, bias], MmadParams)` (doc: Mmad计算/MmadMx.md; docs/number_formats.md §9):
  C[m,n] = sum_k A[m,k]*2^(SA[m,k//32]-127) * B[k,n]*2^(SB[k//32,n]-127) (+ bias[n]), A Nz in L0A,
  B Zn in L0B, C Nz float in L0C; scales in L0A_MX/L0B_MX as 16x2 e8m0 fractals (scaleA Zz, scaleB Nn).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial

import numpy as np

from ..base.errors import UnsupportedError, cpp_rejects
from ..engine.boundary import RUN_CALL_BYTES, Extent, PreparedCall, copy_blocks, lookup, run_call
from ..engine.cache import PLANS
from ..engine.plan import Plan, run_units
from ..engine.record import ExecReport
from ..engine.state import CoreState
from ..machine import checks
from ..machine.layouts import R0, cdiv
from ..machine.memory import LocalTensor
from ..params.load2d import LoadData2DMxParams, LoadData2DParamsV2
from ..params.mmad import MmadParams
from .load2d import DST_ALIGN, FRACTAL_BYTES, SRC_ALIGN, Load2DV2Spec, plan_load2d_v2, units_v2, validate_v2
from .mmad import VARIANTS, MmadSpec, decode_codes, reader, region
from .mmad import call as mmad_call

SCALE_UNIT = 32  # bytes: one 16x2 e8m0 scale fractal (doc: LoadData_2D_MX.md 功能说明)
MX_RATIO = 16  # "L0A_MX Buffer Address = L0A Buffer Address / 16"
# T -> the U the seed's Load2DMX wants for fp8 (seed 003 表1); the doc (LoadData_2D_MX.md 表1) lists
# U = T, so both are accepted.
MX_TAG = {"fp8_e4m3fn_t": "mx_fp8_e4m3_t", "fp8_e5m2_t": "mx_fp8_e5m2_t"}
PLAIN = {v: k for k, v in MX_TAG.items()}
T_TYPES = ("fp4x2_e2m1_t", "fp4x2_e1m2_t", "fp8_e4m3fn_t", "fp8_e5m2_t")


# -- Load2DMX ------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class MxScaleSpec:
    xStart: int
    yStart: int
    xStep: int
    yStep: int
    srcStride: int
    dstStride: int


def plan_mx_scales(spec: MxScaleSpec) -> Plan:
    """32-B scale units, x (M or N fractals) outer, y (K pairs) inner (docs/load2d_mx.md). Element
    provenance for explain/draw, built on demand (`PLANS`); execution copies the units directly."""
    return PLANS.memo(("mx_scales", spec), lambda: _plan_mx_scales(spec))


def _plan_mx_scales(spec: MxScaleSpec) -> Plan:
    x, y, b = np.meshgrid(np.arange(spec.xStep), np.arange(spec.yStep), np.arange(SCALE_UNIT), indexing="ij")
    dst = (x * spec.dstStride + y) * SCALE_UNIT + b
    src = ((spec.xStart + x) * spec.srcStride + spec.yStart + y) * SCALE_UNIT + b
    return Plan.build("Load2DMX", 8, dst, src, info={"spec": spec})


def ref_mx_scales(dst: np.ndarray, src: np.ndarray, xStartPosition: int, yStartPosition: int, xStep: int,
                  yStep: int, srcStride: int, dstStride: int) -> None:
    """Slow reference from LoadData_2D_MX.md 表3 and its start-address formula (byte arrays)."""
    for x in range(xStep):  # "xStep: X轴方向搬运长度，即M维度方向，单位为1个分形（32字节）"
        for y in range(yStep):  # "yStep: Y轴方向搬运长度，即K维度方向，单位为32字节"
            # "startAddr = srcAddr + (xStartPosition*|srcStride| + yStartPosition)*32B"
            s = ((xStartPosition + x) * srcStride + yStartPosition + y) * 32
            # dstStride: "目标矩阵X方向前一个分形起始地址与后一个分形起始地址的间隔"
            d = (x * dstStride + y) * 32
            dst[d : d + 32] = src[s : s + 32]


def mx_tensor(core: CoreState, t: LocalTensor) -> LocalTensor:
    """The scale buffer region that belongs to an L0A/L0B tensor: address / 16, length bytes / 16."""
    mem = core.memory(t.memory.name + "_MX")
    return LocalTensor(mem, mem.name, t.offset // MX_RATIO, "fp8_e8m0_t", t.nbytes // MX_RATIO)


def _check_types(core: CoreState, instr: str, dst: LocalTensor, src: LocalTensor,
                 src_mx: LocalTensor) -> None:
    t, u = src.dtype.name, dst.dtype.name
    # dav_3510 LoadData2DL12L0ACal [srcMx]: static_assert on (U, T); srcMx is a LocalTensor<fp8_e8m0_t>
    sa = cpp_rejects("static_assert in dav_3510 LoadData2DL12L0ACal [LoadData2DMxParams]")
    if t not in T_TYPES:
        raise UnsupportedError(f"{instr}: src dtype T must be one of {', '.join(T_TYPES)} (doc: "
                               f"LoadData_2D_MX.md 表1), but got {t}", basis=sa)
    allowed = (t, MX_TAG[t]) if t in MX_TAG else (t,)
    if u not in allowed:
        raise UnsupportedError(
            f"{instr}: dst dtype U must be {' or '.join(allowed)} for src {t} (U = T, or the mx_ tag of an "
            f"fp8 T: LoadData_2D_MX.md / seed 003 表1), but got {u}", basis=sa)
    if src_mx.dtype.name != "fp8_e8m0_t":
        raise UnsupportedError(f"{instr}: srcMx dtype must be fp8_e8m0_t, but got "
                               f"{src_mx.dtype.name}",
                               basis=cpp_rejects("LocalTensor<fp8_e8m0_t> srcMx"))
    checks.position(instr, "srcMx", src_mx, ("L1",), checks.PHYSICAL_POSITION)
    checks.position(instr, "dst", dst, ("L0A", "L0B"), checks.PHYSICAL_POSITION)
    core.chip.check("Load2DMX", "fp8_e8m0_t", "L1", dst.memory.name + "_MX", instr=instr)


def load_data_mx(core: CoreState, dst: LocalTensor, src: LocalTensor, src_mx: LocalTensor,
                 params: LoadData2DParamsV2, mx_params: LoadData2DMxParams) -> ExecReport:
    """`LoadData(dst, src, srcMx, LoadData2DParamsV2, LoadData2DMxParams)` (Load2DMX / Load2Dv2MX).

    The data half and the scale half are each a NOP when their own steps are 0 (docs/divergences.md X2:
    the doc calls xStep/yStep = 0 a NOP of the interface, but the official sample relies on the data
    half still running). Everything is validated before either half writes (the call boundary: the
    scale destination, at the L0A/L0B address / 16, is a fourth operand).
    """
    instr = "Load2DMX"
    pk = params.key() if params.__class__ is LoadData2DParamsV2 else None
    mk = mx_params.key() if mx_params.__class__ is LoadData2DMxParams else None
    key = None if pk is None or mk is None else (
        instr, core.chip.key, dst.memory.name, src.memory.name, src_mx.memory.name, dst.dtype.name,
        src.dtype.name, src_mx.dtype.name, pk, mk)
    prep = lookup(key, lambda: _prepared_mx(core, instr, dst, src, src_mx, params, mx_params))
    # operand 3: the scale region of this L0A / L0B destination (address / 16)
    return run_call(core, prep, (dst, src, src_mx, None if prep.run is None else mx_tensor(core, dst)))


def _prepared_mx(core: CoreState, instr: str, dst: LocalTensor, src: LocalTensor, src_mx: LocalTensor,
                 params: LoadData2DParamsV2, mx_params: LoadData2DMxParams) -> PreparedCall:
    core.chip.check("Load2DMX", instr=instr)
    _check_types(core, instr, dst, src, src_mx)
    f = checks.field  # kernel_struct_mm.h LoadData2DMxParams member types
    spec = MxScaleSpec(
        f(instr, "xStartPosition", mx_params.xStartPosition, 16, ctype="uint16_t"),
        f(instr, "yStartPosition", mx_params.yStartPosition, 16, ctype="uint16_t"),
        f(instr, "xStep", mx_params.xStep, 8, ctype="uint8_t"),
        f(instr, "yStep", mx_params.yStep, 8, ctype="uint8_t"),
        f(instr, "srcStride", mx_params.srcStride, 16, ctype="uint16_t"),
        f(instr, "dstStride", mx_params.dstStride, 16, ctype="uint16_t"),
    )
    data = validate_v2(core, instr, "Load2DMX", dst, src, params.as_dict(), src_dtype_name=src.dtype.name)
    s_mem, d_mem = src.memory.name, dst.memory.name
    aligns = ((2, 32, "srcMx (L1)"), (1, SRC_ALIGN[s_mem], f"src ({s_mem})"),
              (0, DST_ALIGN[d_mem], f"dst ({d_mem})"))
    scales = spec if spec.xStep and spec.yStep else None
    if data is None and scales is None:
        return PreparedCall(instr, aligns=aligns)
    extents: list[Extent] = []
    written = 0
    if data is not None:
        n_dst = data.dst_last_fractal() + 1
        src_lo = data.kStart * data.srcStride + data.mStart
        extents += [Extent(0, 0, n_dst * FRACTAL_BYTES, True, "destination"),
                    Extent(1, src_lo * FRACTAL_BYTES, (data.src_last_fractal() + 1) * FRACTAL_BYTES, False,
                           "source")]
        written += data.mStep * data.kStep * FRACTAL_BYTES
    if scales is not None:
        last_x = scales.xStep - 1
        extents += [Extent(3, 0, (last_x * scales.dstStride + scales.yStep) * SCALE_UNIT, True,
                           f"destination ({d_mem}_MX scales)"),
                    Extent(2, (scales.xStart * scales.srcStride + scales.yStart) * SCALE_UNIT,
                           ((scales.xStart + last_x) * scales.srcStride + scales.yStart + scales.yStep)
                           * SCALE_UNIT, False, "srcMx")]
        written += scales.xStep * scales.yStep * SCALE_UNIT
    prep = PreparedCall(instr, data, aligns=aligns, extents=extents, counts=(written, written, 0),
                    # the data half's gather: built on its first execution, charged to CALLS
                    units=None if data is None or not data.transpose else partial(units_v2, data, instr),
                    # the data move is what explain/draw show (the scales are its second part)
                    planner=None if data is None else partial(plan_load2d_v2, data, instr))
    prep.run = partial(_run_mx, prep, data, scales)  # (it reads the prepared call's lazily built units)
    prep.nbytes = RUN_CALL_BYTES  # charged as a run_call prepared call
    return prep


def _run_mx(prep: PreparedCall, data: Load2DV2Spec | None, scales: MxScaleSpec | None, core: CoreState,
            ops) -> None:
    dst, src = ops[0], ops[1]
    if data is not None and data.transpose:  # the squares' element moves, as one gather
        run_units(prep.units(), dst, src)
    elif data is not None:  # column kk: mStep whole fractals, columns dstStride fractals apart, in order
        f = FRACTAL_BYTES
        copy_blocks(dst.memory, dst.offset, data.dstStride * f, src.memory,
                    src.offset + (data.kStart * data.srcStride + data.mStart) * f, data.srcStride * f,
                    data.kStep, data.mStep * f)
    if scales is not None:  # rows of yStep units every dstStride units (later rows win where they overlap)
        src_mx, mx_dst = ops[2], ops[3]
        copy_blocks(mx_dst.memory, mx_dst.offset, scales.dstStride * SCALE_UNIT, src_mx.memory,
                    src_mx.offset + (scales.xStart * scales.srcStride + scales.yStart) * SCALE_UNIT,
                    scales.srcStride * SCALE_UNIT, scales.xStep, scales.yStep * SCALE_UNIT)


# -- MmadMx --------------------------------------------------------------------------------------------


def scale_offset(row: np.ndarray, kb: np.ndarray, k: int) -> np.ndarray:
    """Byte offset of the scale of row `row` (m for A, n for B) and K-block `kb` in its MX region:
    16x2 fractals, ceil(K/64) per 16 rows; inside, row-major 16 rows x 2 K-blocks (divergences.md X3; doc:
    辅助矩阵分形格式详解.md scaleA Zz (M1,K1,M0,K0), scaleB Nn (N1,K1,N0,K0))."""
    return ((row // R0) * cdiv(k, 64) + kb // 2) * SCALE_UNIT + (row % R0) * 2 + kb % 2


INSTR_MMX = "MmadMx"


def mx_scales(t: LocalTensor, rows: int, k: int) -> np.ndarray:
    """Decoded e8m0 scales (2^(E-127), 0xFF NaN), rows x k/32, read as one view of the MX region `t`:
    [R1][K/64][16 rows][2 K-blocks] (`scale_offset`)."""
    r1, k64 = cdiv(rows, R0), cdiv(k, 64)
    raw = region(t, r1 * k64 * SCALE_UNIT).reshape(r1, k64, R0, 2).transpose(0, 2, 1, 3)
    vals = decode_codes(t.dtype, raw, "float64")
    return vals.reshape(r1 * R0, k64 * 2)[:rows, : k // 32]


def _mx_operands(spec: MmadSpec) -> Callable[[Sequence[LocalTensor]], tuple[np.ndarray, np.ndarray]]:
    """A * 2^(SA - 127) and B * 2^(SB - 127), exact in float64 (MmadMx.md; docs/number_formats.md §9)."""
    m, n, k = spec.m, spec.n, spec.k
    kb = k // 32
    read_a = reader(spec.a, spec.a_layout, m, k, "float64")
    read_b = reader(spec.b, "ZN", k, n, "float64")

    def read(ops: Sequence[LocalTensor]) -> tuple[np.ndarray, np.ndarray]:
        _, a, b, _, mxa, mxb = ops
        with np.errstate(all="ignore"):  # NaN scales / Inf elements propagate (docs/number_formats.md U3/U4)
            av = (read_a(a).reshape(m, kb, 32) * mx_scales(mxa, m, k)[:, :, None]).reshape(m, k)
            bv = (read_b(b).reshape(kb, 32, n) * mx_scales(mxb, n, k).T[:, None, :]).reshape(k, n)
        return av, bv

    return read


def _mx_extras(spec: MmadSpec) -> list[tuple[Extent, int]]:
    m, n, k = spec.m, spec.n, spec.k
    last = k // 32 - 1
    return [(Extent(4, 0, int(scale_offset(m - 1, last, k)) + 1, False, "scaleA (L0A_MX)"), m * k // 32),
            (Extent(5, 0, int(scale_offset(n - 1, last, k)) + 1, False, "scaleB (L0B_MX)"), n * k // 32)]


def _mx_ops(core: CoreState, spec: MmadSpec, a: LocalTensor, b: LocalTensor) -> tuple[LocalTensor,
                                                                                      LocalTensor]:
    return mx_tensor(core, a), mx_tensor(core, b)


def mmad_mx(core: CoreState, c: LocalTensor, a: LocalTensor, b: LocalTensor, params: MmadParams,
            bias: LocalTensor | None = None) -> ExecReport:
    """`MmadMx(dst, fm, filter[, bias], MmadParams)` (doc: Mmad计算/MmadMx.md).

    C[m,n] = sum_k A[m,k]*2^(SA[m,k//32]-127) * B[k,n]*2^(SB[k//32,n]-127) (+ initial value): the scaled
    operands are exact in float64 and go through Mmad's executor (A Nz on 950, B Zn, C Nz float, float64
    sum rounded once). Validation is the MmadMx row of `ascsim.isa.mmad.VARIANTS`; the initial value of C
    follows Mmad's rules (initVal = cmatrixInitVal && !isBias; bias tensor in C2 -> C = bias + A.B; in
    CO1 -> accumulate; a bias with initVal true is ignored with a hazard, docs/divergences.md M5).
    """
    return mmad_call(VARIANTS[INSTR_MMX], core, c, a, b, params, bias, _mx_operands, _mx_extras, _mx_ops)
