"""Mmad: C (L0C, Nz) = [init] + A (L0A) x B (L0B) — validate, read operands, compute, write C.

Semantics (CONCEPTS §8; doc: Mmad计算/Mmad.md 表1-表8 and 约束说明, Mmad计算关键特性说明/GEMV.md,
K-方向对齐约束.md):

| operand | where | layout (element offsets of logical element (r, c)) |
| A (m x k) | L0A | Zz, K1 = ceil(k/C0) fractals per fractal row (A2/A3-style chips, `l0a_format == "ZZ"`); |
|           |     | Nz with column stride ceil(m/16) (950); ND (k contiguous elements) in GEMV mode (m == 1) |
| B (k x n) | L0B | Zn, N1 = ceil(n/16): ((k//C0)*N1 + n//16)*16*C0 + (n%16)*C0 + k%C0 |
| C (m x n) | L0C | Nz of 16x16 fractals of the C type, column stride M1 = ceil(m/16) |
| bias (1 x n) | BT (C2) | n contiguous elements of the C type, broadcast over the m rows |

kDirectionAlign (float only, A2/A3): the Zz K pitch of A becomes ceil(k/16)*2 fractals instead of
ceil(k/8). B (Zn) and the 950 Nz A are K-outer, so their offsets do not depend on the K pitch.

Initial value of C (Mmad.md 表4; MmadBitMode.md 表3; CONCEPTS §8 table). initVal = cmatrixInitVal and not
isBias (the C++ API sends `cmatrixInitVal && !isBias`):
- initVal true -> C = A.B;
- initVal false, source false -> C += A.B (initial value from L0C, i.e. C's own contents);
- initVal false, source true -> C = bias + A.B, bias read from BT.
With the bias overload the bias TPosition decides the source (C2 -> true, CO1 -> false).

Choices ascsim makes where the docs leave a gap (each is reported in `docs/divergences.md` by the lead):
- Arithmetic. Integers: exact int64 products and sums, then the initial value is added and the result
  saturates to the C type ("对于整数类型只有饱和模式", Mmad.md 约束说明) — bit-exact. Floats depend on
  `Core(mmad_accumulate=...)` (docs/mmad.md "How exact is float Mmad"; divergences M2, M7):
  "float64" (default): every element is decoded exactly (`ascsim.dtypes.decode`), products and the sum
  (with the initial value) are formed in float64 and rounded once to the C type (round-to-nearest-even;
  IEEE inf/nan, the non-saturating CTRL[48] mode); "float32": starting from the initial value, the
  products of k = 0, 1, ... are added one by one in float32 (each product and each sum rounded to
  nearest even), like a float32 reference matmul that accumulates in K order. The hardware's own order
  and width are undocumented: neither mode is claimed bit-exact against silicon. HF32 is not modelled.
- Only the valid m x n region of C is written; the padding rows/columns of partial fractals keep their
  bytes (CONCEPTS §9 Q33).
- GEMV (m == 1, unless disableGemv on 950): A is read as k contiguous elements (GEMV.md 特性约束 1);
  C keeps the Nz layout with M1 = 1, i.e. each 1x16 sub-vector occupies one 16x16 fractal (1024 B for
  float/int32; GEMV.md 特性约束 2 and its N = 256 example — the "4 x 512 B for N = 50" sentence is
  taken as a slip).
- A bias tensor in CO1 means "initial value from L0C" (cmatrixSource = false): C accumulates onto its
  own contents and the bias tensor is not read (a hazard is reported when it is not C itself).
- cmatrixSource = true without a bias tensor reads the bias row from BT address 0 (the bias address
  field is 0 in the no-bias overload).
- A bias tensor together with an effective cmatrixInitVal = true: C = A.B, bias ignored, hazard
  reported (CONCEPTS §9 Q32).
- kDirectionAlign = true on 950 is accepted and has no effect (doc says "false only", the official
  mmad_load3dv2 example sets it; Nz A is K-outer so the flag cannot change any offset; Q30).
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from .. import checks
from ..dtypes import DType, decode, raw_from_bytes
from ..errors import HazardError, ParamRangeError, UnsupportedError
from ..layouts import R0, align, grid, nz_offset, zn_offset, zz_offset
from ..memory import LocalTensor
from ..params import MmadParams
from ..plan import ExecReport, basis_on, byte_end, frozen_offsets, report_hazards

INSTR = "Mmad"
MAX_MNK = 4095

# Chips whose docs restrict a field to its default (Mmad.md 表4).
_KALIGN_TRUE = ("a2", "a3", "kirin_x90", "kirin_9030", "ascend950")  # 950: Q30, accepted as a no-op
_CSOURCE_TRUE = ("a2", "a3", "atlas200i500a2", "ascend950")
_UNITFLAG = ("a2", "a3", "ascend950")
_NO_BIAS_FORM = ("int4b_t",)  # Mmad.md 表8 has no int4 row


# -- offsets (cached, read-only) ------------------------------------------------------------------------


@lru_cache(maxsize=256)
def a_offsets(fmt: str, m: int, k: int, c0: int, k_align: bool = False) -> np.ndarray:
    """Element offset of A(r, c) (m x k) in L0A. fmt: "ZZ" (A2/A3), "NZ" (950), "ND" (GEMV)."""
    r, c = grid(m, k)
    if fmt == "ND":
        return frozen_offsets(r * k + c)
    if fmt == "ZZ":
        # kDirectionAlign: K pitch ceil(k/16)*16 columns instead of ceil(k/C0)*C0 (K-方向对齐约束.md).
        cols = align(k, R0) if k_align else k
        return frozen_offsets(zz_offset(r, c, cols, c0))
    return frozen_offsets(nz_offset(r, c, m, c0))


@lru_cache(maxsize=256)
def b_offsets(k: int, n: int, k0: int) -> np.ndarray:
    """Element offset of B(k, n) (k x n) in L0B: Zn with N1 = ceil(n/16) (Mmad.md 表1/表2)."""
    kk, nn = grid(k, n)
    return frozen_offsets(zn_offset(kk, nn, n, k0))


@lru_cache(maxsize=256)
def c_offsets(m: int, n: int) -> np.ndarray:
    """Element offset of C(r, c) (m x n) in L0C: Nz of 16x16 fractals, M1 = ceil(m/16)."""
    r, c = grid(m, n)
    return frozen_offsets(nz_offset(r, c, m, R0))


# -- extent checks (bounds = error, past the LocalTensor = hazard), like plan.check_plan ---------------


def check_extent(t: LocalTensor, end: int, what: str, write: bool, hazards: list[str],
                 instr: str = INSTR) -> None:
    """BoundsError if bytes [offset, offset+end) leave the memory; a hazard if they pass the tensor."""
    t.memory.check_range(t.offset, end, f"{instr}: {what}")
    if end > t.nbytes:
        verb = "writes" if write else "reads"
        msg = (f"{instr}: {verb} {end} B of {what} from {t.position}@0x{t.offset:x}, past the LocalTensor "
               f"({t.nbytes} B)")
        hazards.append(msg)


def _gather(t: LocalTensor, offsets: np.ndarray) -> np.ndarray:
    """Decoded values (float64 / int64) of the elements at `offsets` (already bounds-checked)."""
    end = byte_end(offsets, t.dtype.bits)
    region = t.memory.data[t.offset : t.offset + end]
    raw = raw_from_bytes(t.dtype, region, int(offsets.max()) + 1 if offsets.size else 0)
    return decode(t.dtype, raw[offsets])


# -- reusable operand readers / writer --------------------------------------------------------------


def _read(core, t: LocalTensor, offs: np.ndarray, what: str, hazards: list[str] | None, instr: str
          ) -> np.ndarray:
    """Decoded elements of `t` at `offs` after the extent check; standalone calls (hazards=None) report
    hazards at once, callers collecting them pass their list."""
    hz: list[str] = [] if hazards is None else hazards
    check_extent(t, byte_end(offs, t.dtype.bits), what, False, hz, instr)
    if hazards is None:
        report_hazards(hz, core.strict)
    return _gather(t, offs)


def read_a(core, a: LocalTensor, m: int, k: int, k_align: bool = False, gemv: bool = False,
           hazards: list[str] | None = None, instr: str = INSTR) -> np.ndarray:
    """A (m x k, decoded) from L0A in the chip's layout (Zz / Nz) or ND for GEMV."""
    fmt = "ND" if gemv else core.chip.l0a_format
    offs = a_offsets(fmt, m, k, a.dtype.c0, bool(k_align and fmt == "ZZ"))
    return _read(core, a, offs, "A (L0A)", hazards, instr)


def read_b(core, b: LocalTensor, k: int, n: int, hazards: list[str] | None = None,
           instr: str = INSTR) -> np.ndarray:
    """B (k x n, decoded) from L0B (Zn, K0 = C0 of B's dtype, N1 = ceil(n/16))."""
    return _read(core, b, b_offsets(k, n, b.dtype.c0), "B (L0B)", hazards, instr)


def read_c(core, c: LocalTensor, m: int, n: int, hazards: list[str] | None = None,
           instr: str = INSTR) -> np.ndarray:
    """C (m x n, decoded) from L0C (Nz, 16x16 fractals)."""
    return _read(core, c, c_offsets(m, n), "C (L0C)", hazards, instr)


def round_to(dt: DType, values: np.ndarray) -> np.ndarray:
    """Exact int64 / float64 results -> raw bits of the C type (ints saturate, floats round once)."""
    if dt.kind in ("int", "uint"):
        info = np.iinfo(dt.value_dtype)
        return np.clip(values, info.min, info.max).astype(dt.value_dtype).view(dt.raw_dtype)
    with np.errstate(over="ignore", invalid="ignore"):
        if dt.name == "float":
            return values.astype(np.float32).view(np.uint32)
        return values.astype(dt.value_dtype).view(dt.raw_dtype)  # half C (older chips), via ml_dtypes/numpy


def write_c(core, c: LocalTensor, values: np.ndarray, m: int, n: int, accumulate: bool = False,
            bias: np.ndarray | None = None, hazards: list[str] | None = None, instr: str = INSTR) -> int:
    """Write `values` (m x n exact int64/float64) into L0C's valid m x n region, optionally adding C's
    current contents (`accumulate`) and/or a bias row (length n) before the single rounding.

    Checks run before the write; returns the bytes written.
    """
    hz = hazards if hazards is not None else []
    offs = c_offsets(m, n)
    end = byte_end(offs, c.dtype.bits)
    check_extent(c, end, "C (L0C)", True, hz, instr)
    total = np.asarray(values)
    if accumulate:
        total = total + _gather(c, offs)
    if bias is not None:
        total = total + np.asarray(bias)[None, :]
    raw = round_to(c.dtype, total)
    if core.strict and hz:  # strict: every hazard (also the caller's read hazards) raises before writing
        raise HazardError(hz[0])
    if hazards is None:
        report_hazards(hz, False)
    region = c.memory.data[c.offset : c.offset + end]
    elem = region.view(c.dtype.raw_dtype.newbyteorder("<"))
    elem[offs.ravel()] = raw.ravel()
    return m * n * c.dtype.bits // 8


def _matmul(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    if a.dtype.kind == "f" or b.dtype.kind == "f":
        return a.astype(np.float64) @ b.astype(np.float64)
    return a.astype(np.int64) @ b.astype(np.int64)


def accumulate_f32(a: np.ndarray, b: np.ndarray, init: np.ndarray | None = None) -> np.ndarray:
    """C = init + A·B summed in float32 in K order: acc = fl32(acc + fl32(a[:, k] * b[k, :])) for
    k = 0, 1, ...
    (`Core(mmad_accumulate="float32")`). `a`, `b` hold exactly decoded values (float64); a product of two
    float32 values is exact in float64, so fl32 of it is the float32 product."""
    m, n = a.shape[0], b.shape[1]
    acc = np.zeros((m, n), np.float32) if init is None else np.array(init, dtype=np.float32)
    with np.errstate(over="ignore", invalid="ignore"):
        for kk in range(a.shape[1]):
            acc += (a[:, kk, None] * b[None, kk, :]).astype(np.float32)
    return acc


def reference_accumulate_f32(a: np.ndarray, b: np.ndarray, init: np.ndarray | None = None) -> np.ndarray:
    """Slow reference of `accumulate_f32`: one element at a time, float32 scalars."""
    m, k = a.shape
    n = b.shape[1]
    out = np.zeros((m, n), np.float32)
    with np.errstate(over="ignore", invalid="ignore"):
        for i in range(m):
            for j in range(n):
                acc = np.float32(0.0 if init is None else init[i, j])
                for kk in range(k):
                    acc = np.float32(acc + np.float32(a[i, kk] * b[kk, j]))
                out[i, j] = acc
    return out


# -- validation ------------------------------------------------------------------------------------------


def _validate(core, c: LocalTensor, a: LocalTensor, b: LocalTensor, p: MmadParams, bias: LocalTensor | None):
    chip = core.chip
    cxx = "the C++ API rejects this: CheckMmadParamsCommon"
    r = checks.in_range
    m, n, k = (basis_on(lambda name=name: r(INSTR, name, getattr(p, name), 0, MAX_MNK), cxx)
               for name in ("m", "n", "k"))

    def flag(name: str) -> bool:  # MmadParams bool fields
        return basis_on(lambda: checks.flag(INSTR, name, getattr(p, name)),
                          "the C++ API rejects this: bool field")

    is_bias, init_val, source = flag("isBias"), flag("cmatrixInitVal"), flag("cmatrixSource")
    k_align, disable_gemv = flag("kDirectionAlign"), flag("disableGemv")
    for name in ("enSsparse", "enWinogradA", "enWinogradB"):
        flag(name)  # ignored on A2 and later (Mmad.md 表4)
    unit = basis_on(lambda: r(INSTR, "unitFlag", p.unitFlag, 0, 3), cxx)
    doc4 = "the doc page forbids this: Mmad.md 表4; ascsim reading: divergence M8"
    if unit == 1:
        raise ParamRangeError(f"{INSTR}: unitFlag must be 0, 2 or 3 (Mmad.md 表4), but got 1 ({cxx})")
    if unit and chip.key not in _UNITFLAG:
        raise UnsupportedError(f"{INSTR}: unitFlag must be 0 on {chip.name} (Mmad.md 表4), but got {unit} "
                               f"({doc4})")
    if k_align and chip.key not in _KALIGN_TRUE:
        raise UnsupportedError(f"{INSTR}: kDirectionAlign must be false on {chip.name} (Mmad.md 表4), "
                               f"but got True ({doc4})")
    if disable_gemv and chip.key != "ascend950":
        raise UnsupportedError(f"{INSTR}: disableGemv exists on Ascend 950 only (Mmad.md 表4), but got "
                               f"True on {chip.name} (the C++ API rejects this: MmadParams has disableGemv "
                               "only for __NPU_ARCH__ 3510)")

    pos = "the C++ API rejects this: CheckMmadTensorCommon CheckTensorPhyPosition"
    basis_on(lambda: checks.position(INSTR, "dst (C)", c, ("L0C",)), pos)
    basis_on(lambda: checks.position(INSTR, "fm (A)", a, ("L0A",)), pos)
    basis_on(lambda: checks.position(INSTR, "filter (B)", b, ("L0B",)), pos)
    basis_on(lambda: chip.check_combo("Mmad", (a.dtype.name, b.dtype.name, c.dtype.name), instr=INSTR),
                "the doc page forbids this: Mmad.md 表5-表8 数据类型; ascsim reading: divergence M8")
    align = "the C++ API rejects this: CheckMmadTensorCommon CheckTensorAlignment"
    basis_on(lambda: checks.aligned(INSTR, "dst (C)", c, 1024), align)
    basis_on(lambda: checks.aligned(INSTR, "fm (A)", a, 512), align)
    basis_on(lambda: checks.aligned(INSTR, "filter (B)", b, 512), align)

    init_val = init_val and not is_bias  # the C++ API sends cmatrixInitVal && !isBias
    if bias is not None:
        basis_on(lambda: checks.position(INSTR, "bias", bias, ("BT", "L0C")),
                    "the C++ API rejects this: CheckTensorPhyPosition<L0C, BIAS>")
        if a.dtype.name in _NO_BIAS_FORM:
            raise UnsupportedError(f"{INSTR}: bias with {a.dtype.name} operands is not supported on "
                                   f"{chip.name} (no bias row in Mmad.md 表8) (the doc page forbids this: "
                                   "Mmad.md 表8; ascsim reading: divergence M8)")
        if bias.dtype != c.dtype:
            raise UnsupportedError(f"{INSTR}: bias dtype must equal the dst dtype {c.dtype.name} (Mmad.md "
                                   f"表6/表8), but got {bias.dtype.name} (the doc page forbids this: "
                                   "Mmad.md 表6/表8; ascsim reading: divergence M8)")
        source = bias.memory.name == "BT"  # the bias position decides cmatrixSource (Mmad.md 表4)
        if source:
            doc = "the doc page forbids this: Mmad.md 表3/表6; ascsim reading: divergence M8"
            basis_on(lambda: chip.check("Mmad", bias.dtype.name, "C2", "CO1", instr=INSTR), doc)
            basis_on(lambda: checks.aligned(INSTR, "bias (BT)", bias, 64), doc)
    if source and not init_val and chip.key not in _CSOURCE_TRUE:
        raise UnsupportedError(f"{INSTR}: cmatrixSource must be false on {chip.name} (Mmad.md 表4), "
                               f"but got True ({doc4})")
    gemv = m == 1 and not disable_gemv
    return m, n, k, init_val, source, k_align and a.dtype.name == "float", gemv


# -- the instruction ---------------------------------------------------------------------------------------


def mmad(core, c: LocalTensor, a: LocalTensor, b: LocalTensor, params: MmadParams,
         bias: LocalTensor | None = None) -> ExecReport:
    """`Mmad(dst, fm, filter[, bias], MmadParams)` (Mmad.md). Validates everything, then writes C."""
    m, n, k, init_val, source, k_align, gemv = _validate(core, c, a, b, params, bias)
    if m == 0 or n == 0 or k == 0:  # Mmad.md 约束说明: any zero -> NOP
        return ExecReport(INSTR)
    hz: list[str] = []
    av = read_a(core, a, m, k, k_align, gemv, hz)
    bv = read_b(core, b, k, n, hz)
    bias_row = None
    accumulate = not init_val and not source
    bytes_read = (m * k * a.dtype.bits + k * n * b.dtype.bits) // 8
    if not init_val and source:
        bt = bias if bias is not None else LocalTensor(core.memory("BT"), "C2", 0, c.dtype, n)
        offs = np.arange(n, dtype=np.int64)
        check_extent(bt, byte_end(offs, bt.dtype.bits), "bias (BT)", False, hz)
        bias_row = _gather(bt, offs)
        bytes_read += n * bt.dtype.bits // 8
    if bias is not None and init_val:
        hz.append(f"{INSTR}: a bias tensor was given but cmatrixInitVal=true (and isBias=false) "
                  "initialises C to 0, so the bias is ignored; set cmatrixInitVal=false (CONCEPTS §9 Q32)")
    if bias is not None and not init_val and not source and bias.offset != c.offset:
        hz.append(f"{INSTR}: a bias tensor in CO1 means the initial value comes from L0C "
                  f"(cmatrixSource=false), i.e. C's own contents at 0x{c.offset:x}; the bias tensor at "
                  f"0x{bias.offset:x} is not read")
    if accumulate:
        bytes_read += m * n * c.dtype.bits // 8
    notes = []
    if core.mmad_accumulate == "float32" and c.dtype.kind == "float":
        init = read_c(core, c, m, n, hz) if accumulate else None
        if bias_row is not None:
            init = np.broadcast_to(bias_row[None, :], (m, n))
        total = accumulate_f32(av, bv, init)  # K order in float32 (divergence M7)
        written = write_c(core, c, total, m, n, False, None, hz)
        notes.append("M7")
    else:
        prod = _matmul(av, bv)
        # strict hazards raise before writing
        written = write_c(core, c, prod, m, n, accumulate, bias_row, hz)
    report_hazards(hz, False)
    return ExecReport(INSTR, bytes_written=written, bytes_read=bytes_read, hazards=hz, notes=notes)


__all__ = ["mmad", "accumulate_f32", "reference_accumulate_f32", "read_a", "read_b", "read_c", "write_c",
           "round_to", "a_offsets", "b_offsets", "c_offsets", "check_extent"]

