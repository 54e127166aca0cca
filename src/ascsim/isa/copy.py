"""Copies into L1 and out of it: DataCopy GM->L1 (plain, ND2NZ, DN2NZ), DataCopyPad GM->L1, DataCopy
L1->BiasTable (C1->C2) and L1->Fixpipe Buffer (C1->C2PIPE2GM). Fixpipe (L0C->GM / L1) lives in
`ascsim.isa.fixpipe` (re-exported here); `data_copy` also dispatches DataCopyCO12DstParams to it.

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

L1 -> BiasTable (doc: DataCopy（L1ToBiasTable-Buffer数据搬运）.md): block b of blockLen units (64 B on A2/A3,
32 B on 950) of *source* bytes goes from src byte b*(blockLen*unit + srcGap*32) to dst byte
b*(dstBlock + dstGap*unit), dstBlock = blockLen*unit*sizeof(dst)/sizeof(src) (half -> float widens each
block; divergence C21). L1 -> Fixpipe Buffer (DataCopy（L1ToFixpipe-Buffer数据搬运）.md): blocks of
blockLen*128 B, src start-to-start stride srcGap*32 B, dst start-to-start stride dstGap*128 B (its 表3
says "头与头"; C22).

DataCopy L1 -> GM (MTE3, A2/A3; DataCopy（L1ToGM连续 / 高维切分数据搬运）.md; dav_c220 DataCopyL12GMImpl ->
copy_cbuf_to_gm): the GM -> L1 block formula with the roles swapped (block b of blockLen*32 B from src byte
b*(blockLen+srcGap)*32 to dst byte b*(blockLen+dstGap)*32; a count moves count*sizeof(T) B rounded down to
32 B). With SetAtomicAdd<T> active the bytes add onto GM (SetAtomicAdd.md: "UB/L0C Buffer/L1 Buffer->GM").

DataCopyPad GM -> L1 (950; DataCopyPad（GMToL1非对齐数据搬运）.md; dav_3510 CopyGmToCbufAlignV2): block b
reads blockLen bytes from src byte b*(blockLen + srcStride); Normal mode writes leftPadding pad elements, the
data, rightPadding pad elements, then pad up to the next 32-B boundary, blocks every
align32(dstStride*32 + blockLen + pad bytes) B; Compact mode packs the data and pads only the end to
32 B (C23).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from .. import checks
from ..core import Core, checked_pad_pattern
from ..dtypes import decode, to_raw
from ..errors import NotImplementedFeature, OverlapError, ParamRangeError, UnsupportedError
from ..layouts import align, cdiv
from ..memory import LocalTensor
from ..params import (
    DataCopyCO12DstParams,
    DataCopyExtParams,
    DataCopyPadExtParams,
    DataCopyParams,
    Dn2NzParams,
    Nd2NzParams,
    PaddingMode,
)
from ..plan import PAD, ExecReport, Plan, basis_on, doc_conflict, execute
from .fixpipe import data_copy_l0c, fixpipe, reference_fixpipe  # noqa: F401 - re-exported

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
    """`DataCopy(dst, src, params)`, dispatching like the C++ overloads on the params type and the tensors'
    physical memories: GM->L1 with a count, DataCopyParams, Nd2NzParams or Dn2NzParams
    (`enable_small_c0` = the 950 template flag); L1->BT / L1->FB / L1->GM with a count or DataCopyParams;
    CO1->GM / L1 with DataCopyCO12DstParams."""
    if isinstance(params, DataCopyCO12DstParams):
        return data_copy_l0c(core, dst, src, params)
    if src.memory.name == "L1" and dst.memory.name == "GM":
        if enable_small_c0:
            raise ParamRangeError("DataCopy: enableSmallC0 exists only for ND2NZ/DN2NZ, but got True "
                                  "(the C++ API rejects this: no such overload)")
        return _l1_to_gm(core, dst, src, params)
    if src.memory.name == "L1" and dst.memory.name in ("BT", "FB"):
        if enable_small_c0:
            raise ParamRangeError("DataCopy: enableSmallC0 exists only for ND2NZ/DN2NZ, but got True "
                                  "(the C++ API rejects this: no such overload)")
        return (_l1_to_bt if dst.memory.name == "BT" else _l1_to_fb)(core, dst, src, params)
    if isinstance(params, Nd2NzParams):
        return _nz_copy(core, dst, src, params, "ND2NZ", enable_small_c0)
    if isinstance(params, Dn2NzParams):
        return _nz_copy(core, dst, src, params, "DN2NZ", enable_small_c0)
    is_count = isinstance(params, (int, np.integer)) and not isinstance(params, bool)
    if is_count or isinstance(params, DataCopyParams):
        if enable_small_c0:
            raise ParamRangeError("DataCopy: enableSmallC0 exists only for ND2NZ/DN2NZ, but got True "
                                  "(the C++ API rejects this: no such overload)")
        return _plain_copy(core, dst, src, params)
    raise UnsupportedError(f"DataCopy: params must be a count, DataCopyParams, Nd2NzParams or Dn2NzParams, "
                           f"but got {type(params).__name__} (the C++ API rejects this: no such overload)")


#: Basis of the GM -> L1 refusals the doc pages state and the C++ API does not check (divergence C25).
DOC_GM_L1 = "the doc page forbids this: {page}; ascsim reading: divergence C25"
CXX_ND2NZ = "the C++ API rejects this: CheckNd2NzParamsCommon"


def _gm_to_l1_operands(instr: str, dst: LocalTensor, src: LocalTensor) -> None:
    pos = "the C++ API rejects this: ASCENDC_CHECK_TPOSITION"
    basis_on(lambda: checks.position(instr, "src", src, ("GM",)), pos)
    basis_on(lambda: checks.position(instr, "dst", dst, ("L1",)), pos)
    basis_on(lambda: checks.same_dtype(instr, dst, src), "the C++ API rejects this: DataCopy<T> takes one "
                                                           "T")


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
    page = "DataCopy（GMToL1连续数据搬运）.md"
    if chip.key in _PLAIN_UNSUPPORTED:
        raise UnsupportedError(f"{instr}: GM->L1 DataCopy is not supported on {chip.name} (doc: {page} "
                               f"产品支持情况) ({DOC_GM_L1.format(page=page + ' 产品支持情况')})")
    if dst.dtype.is_4bit or (chip.key not in _PLAIN_ANY_WIDTH and dt not in _PLAIN_TYPES):
        allowed = "b8, b16, b32, b64" if chip.key in _PLAIN_ANY_WIDTH else ", ".join(sorted(_PLAIN_TYPES))
        raise UnsupportedError(f"{instr}: dtype {dt} is not supported on {chip.name}; supported: {allowed} "
                               f"({DOC_GM_L1.format(page=page + ' 数据类型')})")
    basis_on(lambda: checks.aligned(instr, "dst (L1)", dst, 32), DOC_GM_L1.format(page=page + " 约束说明"))
    if isinstance(params, DataCopyParams):
        def r(i, name, v, lo, hi):
            return basis_on(lambda: checks.in_range(i, name, v, lo, hi),
                          DOC_GM_L1.format(page="DataCopy（GMToL1高维切分数据搬运）.md 表3"))
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


def _l1_to_gm(core: Core, dst: LocalTensor, src: LocalTensor, params: DataCopyParams | int) -> ExecReport:
    """DataCopy L1 -> GM with a count or DataCopyParams (doc: DataCopy（L1ToGM连续数据搬运）.md,
    DataCopy（L1ToGM高维切分数据搬运）.md; dav_c220 DataCopyL12GMImpl). The source may carry any L1 TPosition
    (A1 / B1 / C1): the C++ API dispatches on the physical memory."""
    instr = "DataCopy"
    core.chip.check("DataCopyL12GM", src.dtype.name, "L1", "GM", instr=instr)
    basis_on(lambda: checks.same_dtype(instr, dst, src), "the C++ API rejects this: DataCopy<T> takes one "
                                                           "T")
    basis_on(lambda: checks.aligned(instr, "src (L1)", src, 32),
             "the C++ API rejects this: DataCopyL12GMImpl ASCENDC_CHECK_TENSOR_PTR_ALIGN")
    if isinstance(params, DataCopyParams):
        def r(name: str, v: object, hi: int, basis: str) -> int:
            return basis_on(lambda: checks.in_range(instr, name, v, 0, hi),
                            f"the C++ API rejects this: {basis}")
        count = r("blockCount", params.blockCount, 4095, "CheckDataCopyParamsCommon")
        blen = r("blockLen", params.blockLen, 65535, "CheckDataCopyParamsCommon")
        sgap = r("srcGap", params.srcStride, 65535, "uint16_t field")
        dgap = r("dstGap", params.dstStride, 65535, "uint16_t field")
        spec = BlockCopySpec(count, blen * 32, (blen + sgap) * 32, (blen + dgap) * 32)
    elif isinstance(params, (int, np.integer)) and not isinstance(params, bool):
        n = checks.in_range(instr, "count", params, 0, U32)
        nbytes = n * src.dtype.bits // 8 // 32 * 32  # 约束说明: rounded down to 32 B
        spec = BlockCopySpec(1 if nbytes else 0, nbytes, nbytes, nbytes)
    else:
        raise UnsupportedError(f"{instr}: L1 -> GM takes a count or DataCopyParams, but got "
                               f"{type(params).__name__} (the C++ API rejects this: no such overload)")
    if spec.count == 0 or spec.block == 0:
        return ExecReport(instr)  # NOP (表3)
    last = spec.count - 1
    _check_ranges(instr, dst, src, last * spec.dst_pitch + spec.block - 1,
                  last * spec.src_pitch + spec.block - 1, 8)
    plan = plan_block_copy(spec)
    atomic = core.regs.atomic
    if atomic is None:
        return execute(plan, dst, src, 0, core.strict)
    if atomic != dst.dtype.name:
        raise UnsupportedError(f"{instr}: the atomic add type set by SetAtomicAdd<{atomic}> must equal the "
                               f"tensor type {dst.dtype.name} (the docs define no behaviour for a mismatch; "
                               "ascsim reading: divergence C20)")
    from ..plan import check_plan
    from .fixpipe import _atomic_add

    hazards = check_plan(plan, dst, src, core.strict)
    esz = dst.dtype.bits // 8
    d_idx = plan.dst.reshape(-1)
    new = src.memory.data[src.offset : src.offset + plan.src_end][plan.src.reshape(-1)]
    view = dst.memory.data[dst.offset : dst.offset + plan.dst_end]
    old = view[d_idx]
    out = _atomic_add(dst.dtype, old.view(f"<u{esz}"), new.view(f"<u{esz}"))
    view[d_idx] = np.ascontiguousarray(out.astype(f"<u{esz}")).view(np.uint8)
    return ExecReport(instr, bytes_written=d_idx.size, bytes_read=d_idx.size, hazards=hazards, plan=plan,
                      notes=["C20"]).on(dst, src)


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
    page = f"DataCopy（GMToL1随路转换-{kind}搬运）.md"
    _gm_to_l1_operands(instr, dst, src)
    basis_on(lambda: core.chip.check(instr, dst.dtype.name, "GM", "L1", instr=instr),
           DOC_GM_L1.format(page=page + " 产品支持情况 / 数据类型"))
    if checks.flag(instr, "enableSmallC0", small_c0):
        raise NotImplementedFeature(f"{instr}: enableSmallC0 (SmallC0 mode, C0 padded to 4 elements) is not "
                                  "implemented in ascsim")
    if dst.dtype.is_4bit and not nd:
        raise NotImplementedFeature(f"{instr}: 4-bit DN2NZ (b8-unit parameters, nValue even) is not "
                                  "implemented; the doc does not say how nibble pairs are transposed")
    basis_on(lambda: checks.aligned(instr, "dst (L1)", dst, 32), DOC_GM_L1.format(page=page + " 约束说明"))
    table = CXX_ND2NZ if nd else DOC_GM_L1.format(page=page + " 表3")

    def r(i, name, v, lo, hi):
        return basis_on(lambda: checks.in_range(i, name, v, lo, hi), table)

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
            f"(dstNzNStride {s.n_stride}), but got {s.c0_stride}: block {g} starts on row {dr} of block 0 "
            f"({DOC_GM_L1.format(page='ND2NZ / DN2NZ 约束说明')})")


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
# L1 -> BiasTable (C1 -> C2) and L1 -> Fixpipe Buffer (C1 -> C2PIPE2GM)
# ==================================================================================================


@dataclass(frozen=True)
class _Extent:
    """What `plan.check_plan` reads of a plan: bytes written / read from the tensor starts."""

    instr: str
    dst_end: int
    src_end: int


def _block_params(instr: str, params: DataCopyParams | int, elem_bytes: int, unit: int
                  ) -> tuple[int, int, int, int]:
    """(blockCount, blockLen, srcGap, dstGap) from DataCopyParams or a count. The count overload turns
    count into whole `unit`-byte blocks, rounding down (kernel_operator_data_copy_intf_impl.h
    DataCopy(LocalTensor, LocalTensor, count): blockLen = count / (unit / sizeof(T)))."""
    if isinstance(params, DataCopyParams):
        def r(i: str, name: str, v: object, lo: int, hi: int) -> int:  # 表3 of the BT / FB pages
            return basis_on(lambda: checks.in_range(i, name, v, lo, hi),
                              "the doc page forbids this: DataCopy（L1ToBiasTable / "
                              "L1ToFixpipe-Buffer数据搬运）.md 表3; ascsim reading: divergence C21")
        return (r(instr, "blockCount", params.blockCount, 0, 4095),
                r(instr, "blockLen", params.blockLen, 0, 65535),
                r(instr, "srcStride", params.srcStride, 0, 65535),
                r(instr, "dstStride", params.dstStride, 0, 65535))
    if isinstance(params, (int, np.integer)) and not isinstance(params, bool):
        n = basis_on(lambda: checks.in_range(instr, "count", params, 0, U32), "the C++ API rejects this: "
                                                                                "uint32_t")
        return 1, n * elem_bytes // unit, 0, 0
    raise UnsupportedError(f"{instr}: params must be a count or DataCopyParams for L1 -> BT / FB, but got "
                           f"{type(params).__name__} (the C++ API rejects this: no such overload)")


def _l1_to_bt(core: Core, dst: LocalTensor, src: LocalTensor, params: DataCopyParams | int) -> ExecReport:
    """DataCopy C1 -> C2 (doc: DataCopy（L1ToBiasTable-Buffer数据搬运）.md): the bias row Mmad reads, widened
    from half (or bfloat16_t on 950) to float on the way when the types differ."""
    instr = "DataCopy"
    chip = core.chip
    sdt, ddt = src.dtype, dst.dtype
    basis_on(lambda: chip.check("DataCopyL12BT", sdt.name, "L1", "BT", instr=instr),
               "the doc page forbids this: DataCopy（L1ToBiasTable-Buffer数据搬运）.md 产品支持情况 / "
               "数据类型; ascsim reading: divergence C21")
    if not chip.supports_combo("DataCopyL12BT", (sdt.name, ddt.name)):
        listed = ", ".join(f"{a}->{b}" for a, b in sorted(chip.apis["DataCopyL12BT"].combos))
        basis = ("the doc page forbids this: DataCopy（L1ToBiasTable-Buffer数据搬运）.md 数据类型; ascsim "
                 "reading: divergence C21" if sdt == ddt else
                 "the C++ API rejects this: DataCopy<T, U> L1->BT takes U = T or half->float")
        raise UnsupportedError(f"{instr}: L1 -> BT converts {listed} on {chip.name}, but got "
                               f"{sdt.name} -> {ddt.name} ({basis})")
    cxx_align = "the C++ API rejects this: CheckTensorAlign"
    basis_on(lambda: checks.aligned(instr, "dst (BT)", dst, 64), cxx_align)
    basis_on(lambda: checks.aligned(instr, "src (L1)", src, 32), cxx_align)
    unit = 32 if chip.key == "ascend950" else 64  # 约束说明: blockLen / dstGap unit per chip
    count, blen, sgap, dgap = _block_params(instr, params, sdt.bits // 8, unit)
    report = ExecReport(instr)
    if count == 0 or blen == 0:
        return report  # NOP (表3)
    if chip.key == "ascend950" and blen % 2:
        if sdt.bits == 32:
            raise ParamRangeError(f"{instr}: blockLen must be even for {sdt.name} into BT on {chip.name}, "
                                  f"but got {blen} (the C++ API rejects this: CopyCbufToBt)")
        # catlass ascend950 copy_l1_to_bt rounds blockLen up to even only for 4-byte sources; the C++ API
        # asserts evenness only for them (dav_3510 CopyCbufToBt)
        report.notes.append("C21")
        report.hazards.append(doc_conflict(instr, "DataCopy（L1ToBiasTable-Buffer数据搬运）.md 约束说明: 950 "
                                           f"\"blockLen必须为偶数\", got {blen} for "
                                           f"{sdt.name}", "C21", core.strict))
    ratio = ddt.bits // sdt.bits  # 1, or 2 when half / bf16 widen to float
    sblock = blen * unit
    return _copy_blocks(core, instr, dst, src, count, sblock, sblock + sgap * 32, sblock * ratio + dgap *
    unit,
                        report)


def _l1_to_fb(core: Core, dst: LocalTensor, src: LocalTensor, params: DataCopyParams | int) -> ExecReport:
    """DataCopy C1 -> C2PIPE2GM (doc: DataCopy（L1ToFixpipe-Buffer数据搬运）.md): the per-column quantisation
    words a vector quantPre reads (SetFixPipeConfig points FPC at them)."""
    instr = "DataCopy"
    chip = core.chip
    basis_on(lambda: chip.check("DataCopyL12FB", src.dtype.name, "L1", "FB", instr=instr),
               "the doc page forbids this: DataCopy（L1ToFixpipe-Buffer数据搬运）.md 产品支持情况 / "
               "数据类型; ascsim reading: divergence C22")
    basis_on(lambda: checks.same_dtype(instr, dst, src), "the C++ API rejects this: DataCopy<T> takes one "
                                                           "T")
    cxx_align = "the C++ API rejects this: CheckTensorAlign"
    basis_on(lambda: checks.aligned(instr, "dst (FB)", dst, 128), cxx_align)
    basis_on(lambda: checks.aligned(instr, "src (L1)", src, 32), cxx_align)
    # blockLen in 128 B on every chip: the 950 C++ API doubles it for its 64-B instruction unit
    # (dav_3510 DataCopyL12FBImpl unitCoeff = 2), so the doc's "950: 64B" describes the instruction (C22)
    count, blen, sgap, dgap = _block_params(instr, params, src.dtype.bits // 8, 128)
    if count == 0 or blen == 0:
        return ExecReport(instr)  # NOP (表3)
    # srcGap / dstGap run head to head here (表3: "前面一个数据块的头与后面数据块的头的间隔"); 0 repeats /
    # overwrites
    return _copy_blocks(core, instr, dst, src, count, blen * 128, sgap * 32, dgap * 128, ExecReport(instr),
                        head_to_head=True)


def _copy_blocks(core: Core, instr: str, dst: LocalTensor, src: LocalTensor, count: int, sblock: int,
                 spitch: int, dpitch: int, report: ExecReport, head_to_head: bool = False) -> ExecReport:
    """`count` blocks of `sblock` source bytes, block b from src byte b*spitch to dst byte b*dpitch,
    converted element by element when the dtypes differ. Later blocks win where blocks overlap."""
    from ..plan import check_plan

    ratio = dst.dtype.bits // src.dtype.bits
    dblock = sblock * ratio
    src_end = (count - 1) * spitch + sblock
    dst_end = (count - 1) * dpitch + dblock
    hazards = check_plan(_Extent(instr, dst_end, src_end), dst, src, core.strict)
    if dpitch < dblock and count > 1 and not head_to_head:  # cannot happen: gaps are >= 0
        raise OverlapError(f"{instr}: dstStride makes blocks overlap")
    b = np.arange(count)[:, None]
    s_idx = (b * spitch + np.arange(sblock)).ravel()
    d_idx = (b * dpitch + np.arange(dblock)).ravel()
    sdata = src.memory.data[src.offset : src.offset + src_end]
    ddata = dst.memory.data[dst.offset : dst.offset + dst_end]
    if ratio == 1:
        ddata[d_idx] = sdata[s_idx]  # numpy fancy assignment: the last write of a byte wins (program order)
    else:
        esz = src.dtype.bits // 8
        raw = sdata[s_idx].reshape(-1, esz).copy().view(f"<u{esz}").ravel()
        wide = to_raw(dst.dtype, decode(src.dtype, raw))  # half / bf16 -> float is exact
        ddata[d_idx] = np.ascontiguousarray(wide.astype(f"<u{dst.dtype.bits // 8}")).view(np.uint8)
    report.bytes_written, report.bytes_read = count * dblock, count * sblock
    report.hazards.extend(hazards)
    return report


def reference_block_copy(count: int, sblock: int, spitch: int, dpitch: int, src: np.ndarray, dst: np.ndarray,
                         widen: bool = False) -> np.ndarray:
    """Slow reference of `_copy_blocks` on byte arrays (`widen`: half source bytes -> float32 bytes)."""
    out = np.array(dst, copy=True)
    for b in range(count):
        if not widen:
            for k in range(sblock):
                out[b * dpitch + k] = src[b * spitch + k]
            continue
        for e in range(sblock // 2):
            h = src[b * spitch + 2 * e : b * spitch + 2 * e + 2].view(np.float16)[0]
            out[b * dpitch + 4 * e : b * dpitch + 4 * e + 4] = np.array([h], np.float32).view(np.uint8)
    return out


# ==================================================================================================
# DataCopyPad GM -> L1 (950)
# ==================================================================================================


def data_copy_pad(core: Core, dst: LocalTensor, src: LocalTensor, params: DataCopyExtParams,
                  pad: DataCopyPadExtParams | None = None, mode: PaddingMode | int = PaddingMode.Normal
                  ) -> ExecReport:
    """`DataCopyPad<T, mode>(dst, src, DataCopyExtParams, DataCopyPadExtParams<T>)` GM -> L1 (doc:
    DataCopyPad（GMToL1非对齐数据搬运）.md; dav_3510 DataCopyPadGm2L1Impl / CopyGmToCbufAlignV2)."""
    instr = "DataCopyPad"
    if src.memory.name == "L1" and dst.memory.name == "GM":
        raise UnsupportedError(f"{instr}: L1 -> GM is not supported (the C++ API rejects this: on 950 the "
                               "GlobalTensor overload takes a UB source only, ASCENDC_CHECK_TPOSITION; on "
                               "A2/A3 it returns without moving on the cube core)")
    pos = "the C++ API rejects this: ASCENDC_CHECK_TPOSITION"
    basis_on(lambda: checks.position(instr, "src", src, ("GM",)), pos)
    basis_on(lambda: checks.position(instr, "dst", dst, ("L1",)), pos)
    dt = dst.dtype
    basis_on(lambda: core.chip.check("DataCopyPad", dt.name, "GM", "L1", instr=instr),
               "the doc page forbids this: DataCopyPad（GMToL1非对齐数据搬运）.md 产品支持情况 / 数据类型; "
               "ascsim reading: divergence C23")
    basis_on(lambda: checks.same_dtype(instr, dst, src), "the C++ API rejects this: DataCopyPad<T> takes "
                                                           "one T")
    if not isinstance(params, DataCopyExtParams):
        raise UnsupportedError(f"{instr}: params must be DataCopyExtParams, but got "
                               f"{type(params).__name__} (DataCopyParams / DataCopyPadParams are the UB "
                               "forms) (the C++ API rejects this: no such overload for GM -> L1)")
    pad = pad if pad is not None else DataCopyPadExtParams()
    try:
        mode = PaddingMode(mode)
    except ValueError:
        raise ParamRangeError(f"{instr}: mode must be PaddingMode.Normal or PaddingMode.Compact, but got "
                              f"{mode!r} (the C++ API rejects this: PaddingMode)") from None
    def r(i: str, name: str, v: object, lo: int, hi: int) -> int:  # C++ field widths / range checks
        return basis_on(lambda: checks.in_range(i, name, v, lo, hi),
                          "the C++ API rejects this: CheckSrcGmDataCopyExtParamsRange / uint8_t field")

    size = dt.bits // 8
    doc = "the doc page forbids this: DataCopyPad（GMToL1非对齐数据搬运）.md 表3"
    count = _doc_range(instr, "blockCount", params.blockCount, 1, 4095, doc)
    blen = _doc_range(instr, "blockLen", params.blockLen, 1, 2097151, doc)
    if blen % size:
        raise ParamRangeError(f"{instr}: blockLen must be a multiple of sizeof({dt.name}) = {size} bytes, "
                              f"but got {blen} ({doc} \"blockLen必须是sizeof(T)的整数倍\"; ascsim reading: "
                              "divergence C23)")
    sgap = _doc_range(instr, "srcStride", params.srcStride, -blen, 2**40 - 1, doc)
    dgap = r(instr, "dstStride", params.dstStride, 0, 65535)
    is_pad = basis_on(lambda: checks.flag(instr, "isPad", pad.isPad), "the C++ API rejects this: bool "
                                                                        "isPad")
    left = r(instr, "leftPadding", pad.leftPadding, 0, 255)
    right = r(instr, "rightPadding", pad.rightPadding, 0, 255)
    for name, v in (("leftPadding", left), ("rightPadding", right)):
        if v * size > 32:
            raise ParamRangeError(f"{instr}: {name} must be at most 32 bytes ({32 // size} {dt.name} "
                                  f"elements), but got {v} (the doc page forbids this: 约束说明 "
                                  "\"leftPadding、rightPadding的字节数均不能超过32字节\"; ascsim reading: "
                                  "divergence C23)")
    basis_on(lambda: checks.aligned(instr, "dst (L1)", dst, 32),
               "the doc page forbids this: DataCopyPad 表2 \"LocalTensor的起始地址需要保证32字节对齐\"; "
               "ascsim reading: divergence C23")
    pattern = None
    if is_pad:
        pattern = checked_pad_pattern(instr, dt, pad.paddingValue, "paddingValue",
                                      "the C++ API rejects this: DataCopyPadExtParams<T> holds a T")
    spec = PadCopySpec(int(mode), size, count, blen, sgap, dgap, left, right)
    d_data, s_data, d_pad = plan_pad_copy(spec)
    src_end = int(s_data.max()) + 1
    dst_end = spec.dst_bytes()
    from ..plan import check_plan

    hazards = check_plan(_Extent(instr, dst_end, src_end), dst, src, core.strict)
    report = ExecReport(instr, bytes_written=dst_end, bytes_read=count * blen, hazards=hazards)
    if pattern is not None:
        core.regs.mov_pad = pattern
    fill = core.regs.mov_pad
    if fill is None:  # "false：表示用户不需要指定填充值，会默认填充随机值": the register was never set
        fill_bytes = np.full(size, core.fill, dtype=np.uint8)
        report.notes.append("C23")
    else:
        fill_bytes = np.array([fill & ((1 << dt.bits) - 1)], dtype=f"<u{size}").view(np.uint8)
    ddata = dst.memory.data[dst.offset : dst.offset + dst_end]
    ddata[d_data] = src.memory.data[src.offset : src.offset + src_end][s_data]
    ddata[d_pad] = np.tile(fill_bytes, d_pad.size // size)
    report.pad_elements = d_pad.size // size
    return report


def _doc_range(instr: str, name: str, value: object, lo: int, hi: int, basis: str) -> int:
    """checks.in_range with the doc basis appended to the refusal."""
    try:
        return checks.in_range(instr, name, value, lo, hi)
    except ParamRangeError as e:
        raise ParamRangeError(f"{e} ({basis}; ascsim reading: divergence C23)") from None


@dataclass(frozen=True)
class PadCopySpec:
    """DataCopyPad geometry in bytes (mode 0 = Normal, 1 = Compact); left / right in elements."""

    mode: int
    size: int
    count: int
    blen: int
    sgap: int
    dgap: int
    left: int
    right: int

    def dst_pitch(self) -> int:
        if self.mode == PaddingMode.Compact:
            return self.blen  # CopyGmToCbufAlignV2: actDstStride = burstLength, padding counts 0
        return self.dgap * 32 + align(self.blen + (self.left + self.right) * self.size, 32)

    def dst_bytes(self) -> int:
        if self.mode == PaddingMode.Compact:
            return align(self.count * self.blen, 32)
        return (self.count - 1) * self.dst_pitch() + align(self.blen + (self.left + self.right) * self.size,
        32)


@lru_cache(maxsize=256)
def plan_pad_copy(spec: PadCopySpec) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(dst data bytes, their src bytes, dst pad bytes), all relative to the tensor starts; pad bytes come
    in whole elements, in order."""
    b = np.arange(spec.count)[:, None]
    k = np.arange(spec.blen)[None, :]
    src = (b * (spec.blen + spec.sgap) + k).ravel()
    if spec.mode == PaddingMode.Compact:
        dst = (b * spec.blen + k).ravel()
        pad = np.arange(spec.count * spec.blen, spec.dst_bytes())
    else:
        lead = spec.left * spec.size
        used = np.arange(align(spec.blen + (spec.left + spec.right) * spec.size, 32))
        is_pad = (used < lead) | (used >= lead + spec.blen)
        dst = (b * spec.dst_pitch() + lead + k).ravel()
        pad = (b * spec.dst_pitch() + used[is_pad][None, :]).ravel()
    out = tuple(np.ascontiguousarray(a, dtype=np.int64) for a in (dst, src, pad))
    for a in out:
        a.flags.writeable = False
    return out  # type: ignore[return-value]


def reference_data_copy_pad(mode: int, params: DataCopyExtParams, pad: DataCopyPadExtParams, size: int,
                            src: np.ndarray, dst: np.ndarray, pad_bytes: bytes) -> np.ndarray:
    """Slow reference from DataCopyPad（GMToL1非对齐数据搬运）.md 表3/表4 and its Normal / Compact examples,
    on byte arrays (`pad_bytes` = one element's pad pattern)."""
    out = np.array(dst, copy=True)
    pos = 0
    for blk in range(params.blockCount):
        s = blk * (params.blockLen + params.srcStride)  # srcStride: from the end of one block to the next
        if mode == PaddingMode.Normal:
            row = [None] * (pad.leftPadding * size) + list(src[s : s + params.blockLen]) \
                + [None] * (pad.rightPadding * size)
            row += [None] * (-len(row) % 32)  # "每次数据搬运都会补齐至32字节对齐"
            for k, v in enumerate(row):
                out[pos + k] = pad_bytes[k % size] if v is None else v
            pos += len(row) + params.dstStride * 32  # dstStride: a gap in 32-B blocks
        else:
            out[pos : pos + params.blockLen] = src[s : s + params.blockLen]
            pos += params.blockLen
    if mode == PaddingMode.Compact:
        for k in range(-pos % 32):  # "统一在整块数据末尾补齐至32字节对齐"
            out[pos + k] = pad_bytes[k % size]
    return out
