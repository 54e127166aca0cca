"""Copies into L1 and out of it: DataCopy GM->L1 (plain, ND2NZ, DN2NZ), DataCopyPad GM->L1, DataCopy
L1->BiasTable (C1->C2) and L1->Fixpipe Buffer (C1->C2PIPE2GM). Fixpipe (L0C->GM / L1) lives in
`ascsim.isa.fixpipe` (re-exported here); `data_copy` also dispatches DataCopyCO12DstParams to it.

Semantics (docs/gm_copies.md; element offsets relative to the tensor starts, C0 = 32 B / element size):

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
from functools import partial

import numpy as np

from ..base import coerce
from ..base.coerce import show
from ..base.diagnostics import basis_on, doc_conflict
from ..base.errors import (
    Basis,
    NotImplementedFeature,
    OverlapError,
    ParamRangeError,
    UnsupportedError,
    cpp_rejects,
    doc_forbids,
)
from ..engine.boundary import Extent, PreparedCall, copy_blocks, lookup, run_call, strided
from ..engine.cache import PLANS
from ..engine.plan import PAD, Plan
from ..engine.record import ExecReport
from ..engine.state import CoreState
from ..machine import checks
from ..machine.dtypes import decode, to_raw
from ..machine.layouts import align, cdiv
from ..machine.memory import LocalTensor
from ..params import (
    DataCopyCO12DstParams,
    DataCopyExtParams,
    DataCopyPadExtParams,
    DataCopyParams,
    Dn2NzParams,
    Nd2NzParams,
    PaddingMode,
)
from .fixpipe import atomic_store, data_copy_l0c, fixpipe, reference_fixpipe  # noqa: F401 - re-exported
from .registers import checked_pad_pattern

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


def data_copy(core: CoreState, dst: LocalTensor, src: LocalTensor, params: object,
              enable_small_c0: bool = False) -> ExecReport:
    """`DataCopy(dst, src, params)`, dispatching like the C++ overloads on the params type and the tensors'
    physical memories: GM->L1 with a count, DataCopyParams, Nd2NzParams or Dn2NzParams
    (`enable_small_c0` = the 950 template flag); L1->BT / L1->FB / L1->GM with a count or DataCopyParams;
    CO1->GM / L1 with DataCopyCO12DstParams."""
    if isinstance(params, DataCopyCO12DstParams):
        return data_copy_l0c(core, dst, src, params)
    if src.memory.name == "L1" and dst.memory.name == "GM":
        if enable_small_c0:
            raise ParamRangeError('DataCopy: enableSmallC0 exists only for ND2NZ/DN2NZ, but got True',
                                  basis=cpp_rejects('no such overload'))
        return _l1_to_gm(core, dst, src, params)
    if src.memory.name == "L1" and dst.memory.name in ("BT", "FB"):
        if enable_small_c0:
            raise ParamRangeError('DataCopy: enableSmallC0 exists only for ND2NZ/DN2NZ, but got True',
                                  basis=cpp_rejects('no such overload'))
        return (_l1_to_bt if dst.memory.name == "BT" else _l1_to_fb)(core, dst, src, params)
    if isinstance(params, Nd2NzParams):
        return _nz_copy(core, dst, src, params, "ND2NZ", enable_small_c0)
    if isinstance(params, Dn2NzParams):
        return _nz_copy(core, dst, src, params, "DN2NZ", enable_small_c0)
    is_count = isinstance(params, (int, np.integer)) and not isinstance(params, bool)
    if is_count or isinstance(params, DataCopyParams):
        if enable_small_c0:
            raise ParamRangeError('DataCopy: enableSmallC0 exists only for ND2NZ/DN2NZ, but got True',
                                  basis=cpp_rejects('no such overload'))
        return _plain_copy(core, dst, src, params)
    raise UnsupportedError(f"DataCopy: params must be a count, DataCopyParams, Nd2NzParams or Dn2NzParams, "
                           f"but got {type(params).__name__}", basis=cpp_rejects('no such overload'))


CXX_ND2NZ = cpp_rejects('CheckNd2NzParamsCommon')


def doc_gm_l1(page: str) -> Basis:
    """Basis of a GM -> L1 refusal the doc pages state and the C++ API does not check (divergence C25)."""
    return doc_forbids(page, "C25")


def copy_key(instr: str, core: CoreState, dst: LocalTensor, src: LocalTensor, params: object, *extra: object
             ) -> tuple | None:
    """The prepared-call key of a copy: the operands' memories and dtypes, the params (a count, or a
    struct's cached key) and `extra` (template flags, registers read); None when the params have none."""
    if params.__class__ is int:
        pk: object = params
    elif isinstance(params, np.integer):
        pk = (params.dtype.str, int(params))
    else:
        key = getattr(params, "key", None)
        pk = key() if key is not None else None
        if pk is None:
            return None
    return (instr, core.chip.key, dst.memory.name, src.memory.name, dst.dtype.name, src.dtype.name,
            params.__class__, pk, *extra)


def _gm_to_l1_operands(instr: str, dst: LocalTensor, src: LocalTensor) -> None:
    pos = cpp_rejects('ASCENDC_CHECK_TPOSITION')
    basis_on(lambda: checks.position(instr, "src", src, ("GM",)), pos)
    basis_on(lambda: checks.position(instr, "dst", dst, ("L1",)), pos)
    basis_on(lambda: checks.same_dtype(instr, dst, src), cpp_rejects('DataCopy<T> takes one T'))


@dataclass(frozen=True)
class BlockCopySpec:
    """Plain copy in bytes: `count` blocks of `block` B, block starts every src_pitch / dst_pitch B."""
    count: int
    block: int
    src_pitch: int
    dst_pitch: int


def plan_block_copy(spec: BlockCopySpec) -> Plan:
    """Element (byte) provenance of a block copy for explain/draw, built on demand (`PLANS`)."""
    return PLANS.memo(("block_copy", spec), lambda: _plan_block_copy(spec))


def _plan_block_copy(spec: BlockCopySpec) -> Plan:
    b = np.arange(spec.count)[:, None]
    k = np.arange(spec.block)[None, :]
    dst = np.broadcast_to(b * spec.dst_pitch + k, (spec.count, spec.block))
    src = np.broadcast_to(b * spec.src_pitch + k, (spec.count, spec.block))
    return Plan.build("DataCopy", 8, dst, src, info={"spec": spec})


def _block_copy_call(instr: str, spec: BlockCopySpec, aligns: tuple, **kw: object) -> PreparedCall:
    """A prepared block copy (same element type at both ends): extents from the spec, strided execution."""
    last = spec.count - 1
    n = spec.count * spec.block
    return PreparedCall(instr, spec, planner=partial(plan_block_copy, spec), aligns=aligns,
                    extents=(Extent(0, 0, last * spec.dst_pitch + spec.block, True, "destination"),
                             Extent(1, 0, last * spec.src_pitch + spec.block, False, "source")),
                    run=partial(_run_block_copy, spec), counts=(n, n, 0), **kw)  # type: ignore[arg-type]


def _run_block_copy(spec: BlockCopySpec, core: CoreState, ops) -> None:
    dst, src = ops[0], ops[1]
    copy_blocks(dst.memory, dst.offset, spec.dst_pitch, src.memory, src.offset, spec.src_pitch, spec.count,
                spec.block)


def _plain_copy(core: CoreState, dst: LocalTensor, src: LocalTensor,
                params: DataCopyParams | int) -> ExecReport:
    """DataCopy GM->L1 with a count or DataCopyParams (doc: DataCopy（GMToL1连续/高维切分数据搬运）.md)."""
    key = copy_key("DataCopy", core, dst, src, params)
    return run_call(core, lookup(key, lambda: _prepared_plain(core, dst, src, params)), (dst, src))


def _prepared_plain(core: CoreState, dst: LocalTensor, src: LocalTensor,
                    params: DataCopyParams | int) -> PreparedCall:
    instr = "DataCopy"
    _gm_to_l1_operands(instr, dst, src)
    chip = core.chip
    dt = dst.dtype.name
    page = "DataCopy（GMToL1连续数据搬运）.md"
    if chip.key in _PLAIN_UNSUPPORTED:
        raise UnsupportedError(f"{instr}: GM->L1 DataCopy is not supported on {chip.name} (doc: {page} "
                               f"产品支持情况)", basis=doc_gm_l1(page + ' 产品支持情况'))
    if dst.dtype.is_4bit or (chip.key not in _PLAIN_ANY_WIDTH and dt not in _PLAIN_TYPES):
        allowed = "b8, b16, b32, b64" if chip.key in _PLAIN_ANY_WIDTH else ", ".join(sorted(_PLAIN_TYPES))
        raise UnsupportedError(f"{instr}: dtype {dt} is not supported on {chip.name}; supported: {allowed}",
                               basis=doc_gm_l1(page + ' 数据类型'))
    aligns = ((0, 32, "dst (L1)", doc_gm_l1(page + " 约束说明")),)
    if isinstance(params, DataCopyParams):
        def r(i, name, v, lo, hi):
            return basis_on(lambda: checks.in_range(i, name, v, lo, hi),
                          doc_gm_l1("DataCopy（GMToL1高维切分数据搬运）.md 表3"))
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
        return PreparedCall(instr, aligns=aligns)  # NOP (doc: blockCount/blockLen = 0)
    return _block_copy_call(instr, spec, aligns)  # gaps >= 0: destination blocks never overlap


def _l1_to_gm(core: CoreState, dst: LocalTensor, src: LocalTensor,
              params: DataCopyParams | int) -> ExecReport:
    """DataCopy L1 -> GM with a count or DataCopyParams (doc: DataCopy（L1ToGM连续数据搬运）.md,
    DataCopy（L1ToGM高维切分数据搬运）.md; dav_c220 DataCopyL12GMImpl). The source may carry any L1 TPosition
    (A1 / B1 / C1): the C++ API dispatches on the physical memory. The call reads the atomic-add register
    (SetAtomicAdd), so the prepared-call key holds it."""
    key = copy_key("DataCopyL12GM", core, dst, src, params, core.regs.atomic)
    return run_call(core, lookup(key, lambda: _prepared_gm(core, dst, src, params)), (dst, src))


def _prepared_gm(core: CoreState, dst: LocalTensor, src: LocalTensor,
                 params: DataCopyParams | int) -> PreparedCall:
    instr = "DataCopy"
    core.chip.check("DataCopyL12GM", src.dtype.name, "L1", "GM", instr=instr)
    basis_on(lambda: checks.same_dtype(instr, dst, src), cpp_rejects('DataCopy<T> takes one T'))
    aligns = ((1, 32, "src (L1)",
               cpp_rejects('DataCopyL12GMImpl ASCENDC_CHECK_TENSOR_PTR_ALIGN')),)
    if isinstance(params, DataCopyParams):
        def r(name: str, v: object, hi: int, check: str) -> int:
            return basis_on(lambda: checks.in_range(instr, name, v, 0, hi), cpp_rejects(check))
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
                               f"{type(params).__name__}", basis=cpp_rejects('no such overload'))
    if spec.count == 0 or spec.block == 0:
        return PreparedCall(instr, aligns=aligns)  # NOP (表3)
    atomic = core.regs.atomic
    if atomic is None:
        return _block_copy_call(instr, spec, aligns)
    if atomic.dtype != dst.dtype.name:
        raise UnsupportedError(f"{instr}: the atomic {atomic.op} type set by {atomic.setter} must equal the "
                               f"tensor type {dst.dtype.name} (the docs define no behaviour for a mismatch; "
                               "ascsim reading: divergence C20)")
    prep = _block_copy_call(instr, spec, aligns, notes=("C20",))
    prep.run = partial(_run_atomic_blocks, spec, atomic.op)
    return prep


def _run_atomic_blocks(spec: BlockCopySpec, op: str, core: CoreState, ops) -> None:
    """The blocks stored onto GM element by element in the atomic type and op (SetAtomicAdd.md, SetAtomicMax /
    SetAtomicMin(ISASI).md: "UB/L0C Buffer/L1 Buffer->GM" on A2/A3; `fixpipe.atomic_store`)."""
    dst, src = ops[0], ops[1]
    esz = dst.dtype.bits // 8
    shape = (spec.count, spec.block // esz)
    new = strided(src.memory, src.offset, shape, (spec.src_pitch, esz), f"<u{esz}")
    view = strided(dst.memory, dst.offset, shape, (spec.dst_pitch, esz), f"<u{esz}")
    view[...] = atomic_store(op, dst.dtype, view.copy(), new.copy()).astype(f"<u{esz}")


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


def plan_nz_copy(spec: NzCopySpec) -> Plan:
    """Element provenance of an ND2NZ / DN2NZ copy for explain/draw, built on demand (`PLANS`)."""
    return PLANS.memo(("nz_copy", spec), lambda: _plan_nz_copy(spec))


def _plan_nz_copy(spec: NzCopySpec) -> Plan:
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


def _nz_copy(core: CoreState, dst: LocalTensor, src: LocalTensor, p: Nd2NzParams | Dn2NzParams, kind: str,
             small_c0: bool) -> ExecReport:
    instr = f"DataCopy{kind}"
    key = copy_key(instr, core, dst, src, p, small_c0.__class__, small_c0)
    return run_call(core, lookup(key, lambda: _prepared_nz(core, dst, src, p, kind, small_c0)), (dst, src))


def _prepared_nz(core: CoreState, dst: LocalTensor, src: LocalTensor, p: Nd2NzParams | Dn2NzParams, kind: str,
                 small_c0: bool) -> PreparedCall:
    instr = f"DataCopy{kind}"
    nd = kind == "ND2NZ"
    page = f"DataCopy（GMToL1随路转换-{kind}搬运）.md"
    _gm_to_l1_operands(instr, dst, src)
    basis_on(lambda: core.chip.check(instr, dst.dtype.name, "GM", "L1", instr=instr),
           doc_gm_l1(page + " 产品支持情况 / 数据类型"))
    if checks.flag(instr, "enableSmallC0", small_c0):
        raise NotImplementedFeature(f"{instr}: enableSmallC0 (SmallC0 mode, C0 padded to 4 elements) is not "
                                  "implemented in ascsim")
    if dst.dtype.is_4bit and not nd:
        raise NotImplementedFeature(f"{instr}: 4-bit DN2NZ (b8-unit parameters, nValue even) is not "
                                  "implemented; the doc does not say how nibble pairs are transposed")
    aligns = ((0, 32, "dst (L1)", doc_gm_l1(page + " 约束说明")),)
    table = CXX_ND2NZ if nd else doc_gm_l1(page + " 表3")

    def r(i, name, v, lo, hi):
        return basis_on(lambda: checks.in_range(i, name, v, lo, hi), table)

    num_name, sm_name = ("ndNum", "srcNdMatrixStride") if nd else ("dnNum", "srcDnMatrixStride")
    big = 65535 if nd else 2**40 - 1
    num = r(instr, num_name, getattr(p, num_name), 0, 4095)
    n_value = r(instr, "nValue", p.nValue, 0, 16384)
    d_value = r(instr, "dValue", p.dValue, 0, 65535 if nd else 2**21 - 1)
    if num == 0 or n_value == 0 or d_value == 0:
        return PreparedCall(instr, aligns=aligns)  # NOP (doc 表3); the other fields are not read
    spec = NzCopySpec(
        kind, 8 if dst.dtype.is_4bit else dst.dtype.bits, num, n_value, d_value,
        r(instr, sm_name, getattr(p, sm_name), 0, big), r(instr, "srcDValue", p.srcDValue, 1, big),
        r(instr, "dstNzC0Stride", p.dstNzC0Stride, 1, 16384),
        r(instr, "dstNzNStride", p.dstNzNStride, 1, 16384),
        r(instr, "dstNzMatrixStride", p.dstNzMatrixStride, 0, 16384),
    )
    _check_nz_rows(instr, spec)
    e = spec.bits // 8
    # matrices that may share destination bytes run one after the other (program order: later ones win);
    # dstNzMatrixStride = 0 leaves only the last one
    footprint = spec.dst_last() - (num - 1) * spec.dst_matrix + 1
    serial = num > 1 and spec.dst_matrix < footprint
    mats = (num - 1,) if num > 1 and spec.dst_matrix == 0 else tuple(range(num)) if serial else None
    kept = 1 if mats is not None and len(mats) == 1 else num
    written = kept * n_value * align(d_value, spec.c0) * e
    return PreparedCall(instr, spec, planner=partial(plan_nz_copy, spec), aligns=aligns,
                    extents=(Extent(0, 0, (spec.dst_last() + 1) * e, True, "destination"),
                             Extent(1, 0, (spec.src_last() + 1) * e, False, "source")),
                    run=partial(_run_nz, spec, mats), counts=(written, kept * n_value * d_value * e, 0))


_BLOCK = np.dtype("V32")  # one 32-byte C0 block as one numpy item (about 2x faster than 16 elements)


def _run_nz(spec: NzCopySpec, mats: tuple[int, ...] | None, core: CoreState, ops) -> None:
    """ND2NZ / DN2NZ as strided views: (matrix, row, column block, C0) of the source's rows (ND) or
    columns (DN) into the NZ destination, the tail block's missing columns zero-filled. `mats` None =
    every matrix in one copy (their destinations are apart), else the matrices to copy, one by one."""
    dst, src = ops[0], ops[1]
    e, c0 = spec.bits // 8, spec.c0
    dt = np.dtype(f"<u{e}")
    full, rem = divmod(spec.d_value, c0)
    d_strides = (spec.dst_matrix * e, spec.n_stride * 32, spec.c0_stride * 32, e)
    if spec.kind == "ND2NZ":  # element (r, c) at r*srcDValue + c
        s_strides = (spec.src_matrix * e, spec.src_d * e, c0 * e, e)
    else:  # DN: element (r, c) at c*srcDValue + r
        s_strides = (spec.src_matrix * e, e, c0 * spec.src_d * e, spec.src_d * e)
    groups = [(0, spec.num)] if mats is None else [(i, 1) for i in mats]
    for first, num in groups:
        d0 = dst.offset + first * spec.dst_matrix * e
        s0 = src.offset + first * spec.src_matrix * e
        if full and spec.kind == "ND2NZ":  # a C0 block is 32 contiguous bytes on both sides: one item
            shape = (num, spec.n_value, full)
            np.copyto(strided(dst.memory, d0, shape, d_strides[:3], _BLOCK),
                      strided(src.memory, s0, shape, s_strides[:3], _BLOCK))
        elif full:
            np.copyto(strided(dst.memory, d0, (num, spec.n_value, full, c0), d_strides, dt),
                      strided(src.memory, s0, (num, spec.n_value, full, c0), s_strides, dt))
        if rem:  # the last column block: rem columns of data, C0 - rem zeros (doc 表3: 补0对齐到32字节)
            db, sb = d0 + full * d_strides[2], s0 + full * s_strides[2]
            shape, ds = (num, spec.n_value, rem), (d_strides[0], d_strides[1], e)
            np.copyto(strided(dst.memory, db, shape, ds, dt),
                      strided(src.memory, sb, shape, (s_strides[0], s_strides[1], s_strides[3]), dt))
            strided(dst.memory, db + rem * e, (num, spec.n_value, c0 - rem), ds, dt)[...] = 0


def _check_nz_rows(instr: str, s: NzCopySpec) -> None:
    """Rows of one NZ matrix must not overlap (doc 约束说明). Row (block b, r) starts at b*C0S + r*NS
    (32-B units); the first collision is at the smallest b with NS | b*C0S."""
    blocks = cdiv(s.d_value, s.c0)
    g = s.n_stride // math.gcd(s.c0_stride, s.n_stride)
    dr = g * s.c0_stride // s.n_stride
    if blocks > g and dr <= s.n_value - 1:
        raise OverlapError(
            f"{instr}: dstNzC0Stride must keep the {blocks} column blocks of {s.n_value} rows apart "
            f"(dstNzNStride {s.n_stride}), but got {s.c0_stride}: block {g} starts on row {dr} of block 0",
                           basis=doc_gm_l1('ND2NZ / DN2NZ 约束说明'))


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


def _block_params(instr: str, params: DataCopyParams | int, elem_bytes: int, unit: int
                  ) -> tuple[int, int, int, int]:
    """(blockCount, blockLen, srcGap, dstGap) from DataCopyParams or a count. The count overload turns
    count into whole `unit`-byte blocks, rounding down (kernel_operator_data_copy_intf_impl.h
    DataCopy(LocalTensor, LocalTensor, count): blockLen = count / (unit / sizeof(T)))."""
    if isinstance(params, DataCopyParams):
        def r(i: str, name: str, v: object, lo: int, hi: int) -> int:  # 表3 of the BT / FB pages
            return basis_on(lambda: checks.in_range(i, name, v, lo, hi),
                              doc_forbids('DataCopy（L1ToBiasTable / L1ToFixpipe-Buffer数据搬运）.md 表3',
                                          'C21'))
        return (r(instr, "blockCount", params.blockCount, 0, 4095),
                r(instr, "blockLen", params.blockLen, 0, 65535),
                r(instr, "srcStride", params.srcStride, 0, 65535),
                r(instr, "dstStride", params.dstStride, 0, 65535))
    if isinstance(params, (int, np.integer)) and not isinstance(params, bool):
        n = basis_on(lambda: checks.in_range(instr, "count", params, 0, U32), cpp_rejects('uint32_t'))
        return 1, n * elem_bytes // unit, 0, 0
    raise UnsupportedError(f"{instr}: params must be a count or DataCopyParams for L1 -> BT / FB, but got "
                           f"{type(params).__name__}", basis=cpp_rejects('no such overload'))


def _l1_to_bt(core: CoreState, dst: LocalTensor, src: LocalTensor,
              params: DataCopyParams | int) -> ExecReport:
    """DataCopy C1 -> C2 (doc: DataCopy（L1ToBiasTable-Buffer数据搬运）.md): the bias row Mmad reads, widened
    from half (or bfloat16_t on 950) to float on the way when the types differ."""
    key = copy_key("DataCopyL12BT", core, dst, src, params)
    return run_call(core, lookup(key, lambda: _prepared_bt(core, dst, src, params)), (dst, src))


def _prepared_bt(core: CoreState, dst: LocalTensor, src: LocalTensor,
                 params: DataCopyParams | int) -> PreparedCall:
    instr = "DataCopy"
    chip = core.chip
    sdt, ddt = src.dtype, dst.dtype
    basis_on(lambda: chip.check("DataCopyL12BT", sdt.name, "L1", "BT", instr=instr),
               doc_forbids('DataCopy（L1ToBiasTable-Buffer数据搬运）.md 产品支持情况 / 数据类型', 'C21'))
    if not chip.supports_combo("DataCopyL12BT", (sdt.name, ddt.name)):
        listed = ", ".join(f"{a}->{b}" for a, b in sorted(chip.apis["DataCopyL12BT"].combos))
        basis = (doc_forbids('DataCopy（L1ToBiasTable-Buffer数据搬运）.md 数据类型', 'C21') if sdt == ddt else
                 cpp_rejects('DataCopy<T, U> L1->BT takes U = T or half->float'))
        raise UnsupportedError(f"{instr}: L1 -> BT converts {listed} on {chip.name}, but got "
                               f"{sdt.name} -> {ddt.name}", basis=basis)
    cxx_align = cpp_rejects('CheckTensorAlign')
    aligns = ((0, 64, "dst (BT)", cxx_align), (1, 32, "src (L1)", cxx_align))
    unit = 32 if chip.key == "ascend950" else 64  # 约束说明: blockLen / dstGap unit per chip
    count, blen, sgap, dgap = _block_params(instr, params, sdt.bits // 8, unit)
    if count == 0 or blen == 0:
        return PreparedCall(instr, aligns=aligns)  # NOP (表3)
    warn: tuple = ()
    notes: tuple = ()
    if chip.key == "ascend950" and blen % 2:
        if sdt.bits == 32:
            raise ParamRangeError(f"{instr}: blockLen must be even for {sdt.name} into BT on {chip.name}, "
                                  f"but got {blen}", basis=cpp_rejects('CopyCbufToBt'))
        # catlass ascend950 copy_l1_to_bt rounds blockLen up to even only for 4-byte sources; the C++ API
        # asserts evenness only for them (dav_3510 CopyCbufToBt)
        notes = ("C21",)
        warn = (partial(_conflict, instr, "DataCopy（L1ToBiasTable-Buffer数据搬运）.md 约束说明: 950 "
                        f"\"blockLen必须为偶数\", got {blen} for {sdt.name}", "C21"),)
    ratio = ddt.bits // sdt.bits  # 1, or 2 when half / bf16 widen to float
    sblock = blen * unit
    spec = BlockCopySpec(count, sblock, sblock + sgap * 32, sblock * ratio + dgap * unit)
    if ratio == 1:
        return _block_copy_call(instr, spec, aligns, warnings=warn, notes=notes)
    last = count - 1
    return PreparedCall(instr, spec, aligns=aligns, warnings=warn, notes=notes,
                    extents=(Extent(0, 0, last * spec.dst_pitch + sblock * ratio, True, "destination"),
                             Extent(1, 0, last * spec.src_pitch + sblock, False, "source")),
                    run=partial(_run_widen, spec), counts=(count * sblock * ratio, count * sblock, 0))


def _conflict(instr: str, rule: str, row: str, core: CoreState) -> list[str]:
    return [doc_conflict(instr, rule, row, core.strict)]


def _run_widen(spec: BlockCopySpec, core: CoreState, ops) -> None:
    """Blocks of half / bfloat16_t widened to float on their way into BT (exact; divergence C21): one
    lookup in the table of every source code's float bits."""
    dst, src = ops[0], ops[1]
    sdt, ddt = src.dtype, dst.dtype
    esz, dsz = sdt.bits // 8, ddt.bits // 8
    n = spec.block // esz
    raw = strided(src.memory, src.offset, (spec.count, n), (spec.src_pitch, esz), f"<u{esz}")
    strided(dst.memory, dst.offset, (spec.count, n), (spec.dst_pitch, dsz), f"<u{dsz}")[...] = \
        _widen_table(sdt, ddt)[raw]


_WIDEN: dict[tuple[str, str], np.ndarray] = {}


def _widen_table(sdt, ddt) -> np.ndarray:
    """Raw destination code of every raw 16-bit source code: `decode` then `to_raw`, tabulated once
    (256 KB per pair), so a call is one gather with exactly the pipeline's bits (NaN payloads included)."""
    key = (sdt.name, ddt.name)
    table = _WIDEN.get(key)
    if table is None:
        codes = np.arange(1 << sdt.bits, dtype=np.int64).astype(f"<u{sdt.bits // 8}")
        table = _WIDEN[key] = to_raw(ddt, decode(sdt, codes)).astype(f"<u{ddt.bits // 8}")
    return table


def _l1_to_fb(core: CoreState, dst: LocalTensor, src: LocalTensor,
              params: DataCopyParams | int) -> ExecReport:
    """DataCopy C1 -> C2PIPE2GM (doc: DataCopy（L1ToFixpipe-Buffer数据搬运）.md): the per-column quantisation
    words a vector quantPre reads (SetFixPipeConfig points FPC at them)."""
    key = copy_key("DataCopyL12FB", core, dst, src, params)
    return run_call(core, lookup(key, lambda: _prepared_fb(core, dst, src, params)), (dst, src))


def _prepared_fb(core: CoreState, dst: LocalTensor, src: LocalTensor,
                 params: DataCopyParams | int) -> PreparedCall:
    instr = "DataCopy"
    chip = core.chip
    basis_on(lambda: chip.check("DataCopyL12FB", src.dtype.name, "L1", "FB", instr=instr),
               doc_forbids('DataCopy（L1ToFixpipe-Buffer数据搬运）.md 产品支持情况 / 数据类型', 'C22'))
    basis_on(lambda: checks.same_dtype(instr, dst, src), cpp_rejects('DataCopy<T> takes one T'))
    cxx_align = cpp_rejects('CheckTensorAlign')
    aligns = ((0, 128, "dst (FB)", cxx_align), (1, 32, "src (L1)", cxx_align))
    # blockLen in 128 B on every chip: the 950 C++ API doubles it for its 64-B instruction unit
    # (dav_3510 DataCopyL12FBImpl unitCoeff = 2), so the doc's "950: 64B" describes the instruction (C22)
    count, blen, sgap, dgap = _block_params(instr, params, src.dtype.bits // 8, 128)
    if count == 0 or blen == 0:
        return PreparedCall(instr, aligns=aligns)  # NOP (表3)
    # srcGap / dstGap run head to head here (表3: "前面一个数据块的头与后面数据块的头的间隔"); 0 repeats /
    # overwrites (the later block wins)
    return _block_copy_call(instr, BlockCopySpec(count, blen * 128, sgap * 32, dgap * 128), aligns)


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


def data_copy_pad(core: CoreState, dst: LocalTensor, src: LocalTensor, params: DataCopyExtParams,
                  pad: DataCopyPadExtParams | None = None, mode: PaddingMode | int = PaddingMode.Normal
                  ) -> ExecReport:
    """`DataCopyPad<T, mode>(dst, src, DataCopyExtParams, DataCopyPadExtParams<T>)` GM -> L1 (doc:
    DataCopyPad（GMToL1非对齐数据搬运）.md; dav_3510 DataCopyPadGm2L1Impl / CopyGmToCbufAlignV2).

    The call reads the pad register (MOV_PAD_VAL) unless isPad is set, so the prepared-call key holds it
    only then."""
    mode = coerce.choice("DataCopyPad", "mode", mode, PaddingMode,
                         cpp_rejects("the PaddingMode template argument"))
    key = None
    if params.__class__ is DataCopyExtParams and (pad is None or pad.__class__ is DataCopyPadExtParams):
        pad_key = None if pad is None else pad.key()
        reg = None if pad is not None and _sets_pad(pad.isPad) else ("MOV_PAD_VAL", core.regs.mov_pad)
        if pad is None or pad_key is not None:
            key = copy_key("DataCopyPad", core, dst, src, params, pad_key, mode.__class__, mode, reg)
    return run_call(core, lookup(key, lambda: _prepared_pad(core, dst, src, params, pad, mode)), (dst, src))


def _sets_pad(v: object) -> bool:
    """isPad as the key sees it (validation refuses anything that is not a bool-like 0 / 1)."""
    return isinstance(v, (bool, int, np.integer, np.bool_)) and v == 1


def _prepared_pad(core: CoreState, dst: LocalTensor, src: LocalTensor, params: DataCopyExtParams,
                  pad: DataCopyPadExtParams | None, mode: PaddingMode | int) -> PreparedCall:
    instr = "DataCopyPad"
    if src.memory.name == "L1" and dst.memory.name == "GM":
        raise UnsupportedError(f"{instr}: L1 -> GM is not supported",
                               basis=cpp_rejects("on 950 the GlobalTensor overload takes a UB source only, "
                                                 "ASCENDC_CHECK_TPOSITION; on A2/A3 it returns without "
                                                 "moving on the cube core"))
    pos = cpp_rejects('ASCENDC_CHECK_TPOSITION')
    basis_on(lambda: checks.position(instr, "src", src, ("GM",)), pos)
    basis_on(lambda: checks.position(instr, "dst", dst, ("L1",)), pos)
    dt = dst.dtype
    basis_on(lambda: core.chip.check("DataCopyPad", dt.name, "GM", "L1", instr=instr),
               doc_forbids('DataCopyPad（GMToL1非对齐数据搬运）.md 产品支持情况 / 数据类型', 'C23'))
    basis_on(lambda: checks.same_dtype(instr, dst, src), cpp_rejects('DataCopyPad<T> takes one T'))
    if not isinstance(params, DataCopyExtParams):
        raise UnsupportedError(f"{instr}: params must be DataCopyExtParams, but got "
                               f"{type(params).__name__} (DataCopyParams / DataCopyPadParams are the UB "
                               "forms)", basis=cpp_rejects('no such overload for GM -> L1'))
    pad = pad if pad is not None else DataCopyPadExtParams()
    try:
        mode = PaddingMode(mode)
    except ValueError:
        raise ParamRangeError(f"{instr}: mode must be PaddingMode.Normal or PaddingMode.Compact, but got "
                              f"{show(mode)}", basis=cpp_rejects('PaddingMode')) from None
    def r(i: str, name: str, v: object, lo: int, hi: int) -> int:  # C++ field widths / range checks
        return basis_on(lambda: checks.in_range(i, name, v, lo, hi),
                          cpp_rejects('CheckSrcGmDataCopyExtParamsRange / uint8_t field'))

    size = dt.bits // 8
    doc = "DataCopyPad（GMToL1非对齐数据搬运）.md 表3"
    count = _doc_range(instr, "blockCount", params.blockCount, 1, 4095, doc)
    blen = _doc_range(instr, "blockLen", params.blockLen, 1, 2097151, doc)
    if blen % size:
        raise ParamRangeError(f"{instr}: blockLen must be a multiple of sizeof({dt.name}) = {size} bytes, "
                              f"but got {blen}",
                              basis=doc_forbids(f'{doc} "blockLen必须是sizeof(T)的整数倍"', "C23"))
    sgap = _doc_range(instr, "srcStride", params.srcStride, -blen, 2**40 - 1, doc)
    dgap = r(instr, "dstStride", params.dstStride, 0, 65535)
    is_pad = basis_on(lambda: checks.flag(instr, "isPad", pad.isPad), cpp_rejects('bool isPad'))
    left = r(instr, "leftPadding", pad.leftPadding, 0, 255)
    right = r(instr, "rightPadding", pad.rightPadding, 0, 255)
    for name, v in (("leftPadding", left), ("rightPadding", right)):
        if v * size > 32:
            raise ParamRangeError(f"{instr}: {name} must be at most 32 bytes ({32 // size} {dt.name} "
                                  f"elements), but got {v}",
                                  basis=doc_forbids('约束说明 "leftPadding、rightPadding的字节数均不能超过'
                                                    '32字节"', "C23"))
    aligns = ((0, 32, "dst (L1)", doc_forbids('DataCopyPad 表2 "LocalTensor的起始地址需要保证32字节对齐"',
                                              'C23')),)
    commit = None
    if is_pad:
        pattern = checked_pad_pattern(instr, dt, pad.paddingValue, "paddingValue",
                                      cpp_rejects('DataCopyPadExtParams<T> holds a T'))

        def commit(core: CoreState) -> None:  # the call writes MOV_PAD_VAL
            core.regs.mov_pad = pattern
    else:
        pattern = core.regs.mov_pad  # (in the key)
    # "false：表示用户不需要指定填充值，会默认填充随机值": the register was never set -> the marker (C23)
    fill = None if pattern is None else \
        np.array([pattern & ((1 << dt.bits) - 1)], dtype=f"<u{size}").view(np.uint8)
    spec = PadCopySpec(int(mode), size, count, blen, sgap, dgap, left, right)
    dst_end = spec.dst_bytes()
    written = dst_end if spec.mode == PaddingMode.Compact else count * spec.row_bytes()
    return PreparedCall(instr, spec, planner=partial(plan_pad_copy_view, spec), aligns=aligns, commit=commit,
                    notes=("C23",) if fill is None else (),
                    extents=(Extent(0, 0, dst_end, True, "destination"),
                             Extent(1, 0, (count - 1) * (blen + sgap) + blen, False, "source")),
                    run=partial(_run_pad, spec, fill),
                    counts=(written, count * blen, (written - count * blen) // size))


def _run_pad(spec: PadCopySpec, fill: np.ndarray | None, core: CoreState, ops) -> None:
    """The data blocks as one strided copy, the pad bytes as strided stores of the pad element."""
    dst, src = ops[0], ops[1]
    if fill is None:
        fill = np.full(spec.size, core.fill, dtype=np.uint8)
    count, blen, size = spec.count, spec.blen, spec.size
    mem, d0 = dst.memory, dst.offset
    if spec.mode == PaddingMode.Compact:
        copy_blocks(mem, d0, blen, src.memory, src.offset, blen + spec.sgap, count, blen)
        pads = ((d0 + count * blen, 1, spec.dst_bytes() - count * blen, 0),)
    else:
        pitch, lead = spec.dst_pitch(), spec.left * size
        copy_blocks(mem, d0 + lead, pitch, src.memory, src.offset, blen + spec.sgap, count, blen)
        pads = ((d0, count, lead, pitch), (d0 + lead + blen, count, spec.row_bytes() - lead - blen, pitch))
    for start, rows, nbytes, pitch in pads:  # whole pad elements, each region starting on one
        if nbytes:
            np.copyto(strided(mem, start, (rows, nbytes // size, size), (pitch, size, 1)), fill)


def _doc_range(instr: str, name: str, value: object, lo: int, hi: int, rule: str) -> int:
    """checks.in_range refused on the doc's rule (divergence C23)."""
    return checks.in_range(instr, name, value, lo, hi, doc_forbids(rule, "C23"))


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
        return self.dgap * 32 + self.row_bytes()

    def row_bytes(self) -> int:
        """Normal mode: bytes of one destination row (pads, data, pads, up to the next 32 B)."""
        return align(self.blen + (self.left + self.right) * self.size, 32)

    def dst_bytes(self) -> int:
        if self.mode == PaddingMode.Compact:
            return align(self.count * self.blen, 32)
        return (self.count - 1) * self.dst_pitch() + self.row_bytes()


def plan_pad_copy_view(spec: PadCopySpec) -> Plan:
    """Byte-level provenance of a DataCopyPad for explain/draw (pad bytes PAD), built on demand."""
    def build() -> Plan:
        d_data, s_data, d_pad = plan_pad_copy(spec)
        return Plan.build("DataCopyPad", 8, np.r_[d_data, d_pad], np.r_[s_data, np.full(d_pad.size, PAD)],
                          info={"spec": spec})
    return PLANS.memo(("pad_copy", spec), build)


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
