"""Fill / InitConstValue: set a LocalTensor in L1, L0A or L0B to one value
(doc: 矩阵搬入辅助配置接口/Fill.md).

Semantics (Fill.md 表3 and 约束说明; asc-devkit impl/basic_api/dav_*/kernel_operator_mm_impl.h
InitL1BufferCal / InitL0ANzMatrixCal / InitL0BNzMatrixCal):

- full form (A2/A3, 200I/500 A2, 950, Kirin): iteration r (r < repeatTimes) writes blockNum blocks back to
  back, starting at block r*(blockNum + dstGap); a block is 32 B in L1 and 512 B in L0A/L0B ("dstGap:
  目的操作数前一个迭代结束地址到后一个迭代起始地址之间的距离");
- repeat-only form (Atlas training series, inference AI Core; "仅支持配置迭代次数和初始化值 ... "
                                                              "每次迭代处理固定
  数据量（512字节），迭代间无间隔"): repeatTimes contiguous 512-B blocks; blockNum and dstGap are not read.

Every element written holds initValue's bit pattern as a T (the C++ API passes the value's bits: the
int16/uint16 forms go through GetScalarBitcodeToHalf, float/int32 through GetScalarBitcodeValue), so
`ascsim.Bits(pattern)` stores a pattern as is. repeatTimes = 0 (or blockNum = 0 in the full form) is a NOP.
"""

from __future__ import annotations

from functools import partial

import numpy as np

from ..base.diagnostics import basis_on
from ..base.errors import UnsupportedError, cpp_rejects, doc_forbids
from ..engine.boundary import Extent, PreparedCall, lookup, run_call, strided
from ..engine.cache import PLANS
from ..engine.plan import PAD, Plan, pad_block
from ..engine.record import ExecReport
from ..engine.state import CoreState
from ..machine import checks
from ..machine.memory import LocalTensor
from ..params import InitConstValueParams
from .registers import checked_pad_pattern

#: Block size in bytes by physical memory (Fill.md 表3 blockNum).
BLOCK = {"L1": 32, "L0A": 512, "L0B": 512}
#: Chips with the repeat-only form (Fill.md 约束说明 id18/id19).
REPEAT_ONLY = frozenset({"training", "inference_aicore"})
#: Destination memories each chip's C++ API accepts where they differ from the doc's L1/L0A/L0B:
#: 950 has no L0A/L0B init instruction (Fill.md id20; dav_3510 InitL0ANzMatrixCal asserts), the training
#: series none into L1 (dav_c100 InitL1BufferCal reports "not support").
_MEMORIES = {"ascend950": ("L1",), "training": ("L0A", "L0B")}
_RANGE = 32767  # repeatTimes, blockNum, dstGap ∈ [0, 32767] (Fill.md 表3; CheckInitConstValueParams)


def fill(core: CoreState, dst: LocalTensor, params: InitConstValueParams, instr: str = "Fill") -> ExecReport:
    """`Fill(dst, InitConstValueParams)` (alias `InitConstValue`, the name before CANN 9). Validation once
    per call shape (ascsim.engine.boundary); the fill itself is one strided store, no plan."""
    pk = params.key() if isinstance(params, InitConstValueParams) else None
    key = None if pk is None else (instr, core.chip.key, dst.memory.name, dst.dtype.name, pk)
    return run_call(core, lookup(key, lambda: _prepared(core, dst, params, instr)), (dst,))


def _prepared(core: CoreState, dst: LocalTensor, params: InitConstValueParams, instr: str) -> PreparedCall:
    chip = core.chip
    dt = dst.dtype
    mem = dst.memory.name
    allowed = _MEMORIES.get(chip.key, ("L1", "L0A", "L0B"))
    if mem not in allowed:
        basis = (cpp_rejects('InitL0ANzMatrixCal / InitL0BNzMatrixCal on 950, Fill.md id20')
                 if chip.key == "ascend950" and mem in BLOCK else
                 cpp_rejects('InitL1BufferCal reports L1 unsupported on the training series')
                 if chip.key == "training" and mem == "L1" else
                 cpp_rejects('FillImpl ASCENDC_CHECK_TPOSITION'))
        raise UnsupportedError(f"{instr}: dst must be in {' or '.join(allowed)} on {chip.name}, but got "
                               f"TPosition {dst.position} ({mem})", basis=basis)
    basis_on(lambda: chip.check("Fill", dt.name, instr=instr),
               doc_forbids('Fill.md 数据类型', 'F3'))

    def r(i: str, name: str, v: object, lo: int, hi: int) -> int:
        return basis_on(lambda: checks.in_range(i, name, v, lo, hi),
                          cpp_rejects('CheckInitConstValueParams / ASCENDC_CHECK_VALUE_RANGE'))

    repeat_only = chip.key in REPEAT_ONLY
    # inference AI Core: ASCENDC_CHECK_VALUE_RANGE(repeatTimes, 0, UINT8_MAX) in dav_m200 InitL1BufferCal etc.
    hi = 255 if chip.key == "inference_aicore" else _RANGE
    rep = r(instr, "repeatTimes", params.repeatTimes, 0, hi)
    blocks = 1 if repeat_only else r(instr, "blockNum", params.blockNum, 0, _RANGE)
    gap = 0 if repeat_only else r(instr, "dstGap", params.dstGap, 0, _RANGE)
    unit = 512 if repeat_only else BLOCK[mem]
    pattern = checked_pad_pattern(instr, dt, params.initValue, "initValue",
                                  cpp_rejects('InitConstValueParams<T> holds a T'))
    notes = ("F2",) if repeat_only and (_given(params.blockNum) or _given(params.dstGap)) else ()  # not read
    aligns = ((0, BLOCK[mem], f"dst ({mem})", cpp_rejects('FillImpl CheckTensorAlign')),)
    if rep == 0 or blocks == 0:
        return PreparedCall(instr, aligns=aligns, notes=notes)  # NOP (Fill.md 约束说明)
    end = ((rep - 1) * (blocks + gap) + blocks) * unit
    written = rep * blocks * unit
    return PreparedCall(instr, (rep, blocks, gap, unit), pad=pattern, aligns=aligns, notes=notes,
                    planner=partial(plan_fill, rep, blocks, gap, unit, dt.bits),
                    extents=(Extent(0, 0, end, True, "destination"),),
                    run=partial(_run_fill, rep, blocks, (blocks + gap) * unit,
                                pad_block(unit, dt.bits, pattern)),
                    counts=(written, 0, written * 8 // dt.bits))


def _given(v: object) -> bool:
    """A field set to something (the repeat-only chips do not read it, whatever it holds)."""
    try:
        return bool(v)
    except (TypeError, ValueError):  # e.g. an array
        return True


def _run_fill(rep: int, blocks: int, pitch: int, block: np.ndarray, core: CoreState, ops) -> None:
    """Iteration i writes `blocks` copies of the pattern block at byte i*pitch (no overlap: dstGap >= 0)."""
    dst = ops[0]
    np.copyto(strided(dst.memory, dst.offset, (rep, blocks, block.size), (pitch, block.size, 1)), block)


def plan_fill(repeat: int, blocks: int, gap: int, unit: int, bits: int) -> Plan:
    """Every element of the written blocks is "pad" (the executor writes the pad pattern there); element
    provenance for explain/draw, built on demand (`PLANS`)."""
    return PLANS.memo(("fill", repeat, blocks, gap, unit, bits), lambda: _plan_fill(repeat, blocks, gap, unit,
                                                                                     bits))


def _plan_fill(repeat: int, blocks: int, gap: int, unit: int, bits: int) -> Plan:
    per = unit * 8 // bits  # elements per block
    starts = (np.arange(repeat)[:, None] * (blocks + gap) + np.arange(blocks)[None, :]).ravel() * per
    dst = (starts[:, None] + np.arange(per)[None, :]).ravel()
    return Plan.build("Fill", bits, dst, np.full(dst.size, PAD), info={"unit": unit})


def reference_fill(memory: str, repeat_only: bool, params: InitConstValueParams, dst_bytes: np.ndarray,
                   pattern: bytes) -> np.ndarray:
    """Slow reference straight from Fill.md 表3: `dst_bytes` (the destination from its start) with every
    block written as the doc describes; `pattern` is one element's little-endian bytes."""
    out = np.array(dst_bytes, copy=True)
    if repeat_only:
        unit, blocks, gap = 512, 1, 0  # "每次迭代处理固定数据量（512字节），迭代间无间隔"
    else:
        unit, blocks, gap = BLOCK[memory], params.blockNum, params.dstGap
    for r in range(params.repeatTimes):
        start = r * (blocks + gap) * unit  # the gap runs from the end of one iteration to the next's start
        for b in range(blocks * unit):
            out[start + b] = pattern[b % len(pattern)]
    return out
