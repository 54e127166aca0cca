"""The Mmad family — Mmad, MmadWithSparse, MmadMx: one table-driven validator, one fast executor.

C (L0C, Nz) = [initial value] + A (L0A) x B (L0B). Semantics (docs/mmad.md; doc: Mmad计算/Mmad.md 表1-表8
and 约束说明, Mmad计算关键特性说明/GEMV.md, K-方向对齐约束.md, MmadWithSparse.md, MmadMx.md):

| operand | where | layout (element offsets of logical element (r, c)) |
| A (m x k) | L0A | Zz, K1 = ceil(k/C0) fractals per fractal row (A2/A3-style chips, `l0a_format == "ZZ"`); |
|           |     | Nz with column stride ceil(m/16) (950); ND (k contiguous elements) in GEMV mode (m == 1) |
| B (k x n) | L0B | Zn, N1 = ceil(n/16): ((k//C0)*N1 + n//16)*16*C0 + (n%16)*C0 + k%C0 |
| C (m x n) | L0C | Nz of 16x16 fractals of the C type, column stride M1 = ceil(m/16) |
| bias (1 x n) | BT (C2) | n contiguous elements of the C type, broadcast over the m rows |

kDirectionAlign (float only, A2/A3): the Zz K pitch of A becomes ceil(k/16)*2 fractals instead of
ceil(k/8). B (Zn) and the 950 Nz A are K-outer, so their offsets do not depend on the K pitch.

Initial value of C (Mmad.md 表4; MmadBitMode.md 表3; docs/mmad.md). initVal = cmatrixInitVal and not
isBias (the C++ API sends `cmatrixInitVal && !isBias`):
- initVal true -> C = A.B;
- initVal false, source false -> C += A.B (initial value from L0C, i.e. C's own contents);
- initVal false, source true -> C = bias + A.B, bias read from BT.
With the bias overload the bias TPosition decides the source (C2 -> true, CO1 -> false).

How a call runs (docs/architecture.md "The call boundary"; `ascsim.engine.boundary.run_call`): the key
(variant, chip, operand memories and dtypes, the params' cached key, the accumulation mode) finds a
`PreparedCall` made by `validate` — one function for all three APIs, reading the per-API rules from
`VARIANTS` — with the byte extents of every operand computed arithmetically from (m, k, n, layout). Per
placement the boundary
checks alignment, bounds and hazards; then the run function (`_executor`) reads each operand as one strided
view of the memory bytes in logical order (whole fractals; a tensor whose last fractal passes the end of the
memory is read from a zero-padded copy), decodes it with one table lookup per call, multiplies with BLAS and
writes the valid m x n region of C. Operands of 16 KB and more are decoded once per distinct content
(`DECODED`: a hit is confirmed byte for byte, so it is never stale). `ascsim.isa.mmad_ref` is the slow
per-element reference it is tested against (tests/isa/test_mmad_fast.py).

Arithmetic (docs/mmad.md "How exact is float Mmad"; divergences M1, M2, M7):
- Integers are exact: products and sums are exact integers (formed by float BLAS where that is provably
  exact, see `int_blas_dtype`), the initial value is added in int64, and the result saturates to the C
  type ("对于整数类型只有饱和模式", Mmad.md 约束说明).
- Floats, `Core(mmad_accumulate="float64")` (default): every element is decoded exactly
  (`ascsim.machine.dtypes.decode`), the products and their sum are formed in float64 (one float64 BLAS
  matmul),
  the initial value is added in float64, and the result is rounded once to the C type (round to nearest
  even; IEEE inf/NaN, the non-saturating CTRL[48] mode). Every product of two decoded operands is exact in
  float64. The float64 sum equals the exact sum whenever no partial sum needs more than 53 significant
  bits (always for bounded-range data such as tests/isa/test_mmad_fast.py draws); otherwise it carries
  float64 rounding (order: BLAS's), 2^-29 of a float32 ulp per term, which changes the float32 result
  only when the exact sum lies that close to a rounding boundary. float32 arithmetic is never used for
  float operands here: half/bf16 products are exact in float32, but their sums are not.
- `Core(mmad_accumulate="float32")` (Mmad only): starting from the initial value, the products of
  k = 0, 1, ... are added one by one in float32 (each product and each sum rounded to nearest even), like
  a float32 reference matmul that accumulates in K order.
The hardware's own order and width are undocumented: neither float mode is claimed bit-exact against
silicon. HF32 is not modelled.

Choices ascsim makes where the docs leave a gap (docs/divergences.md M3-M6):
- Only the valid m x n region of C is written; the padding rows/columns of partial fractals keep their
  bytes (docs/divergences.md M6).
- GEMV (m == 1, unless disableGemv on 950): A is read as k contiguous elements (GEMV.md 特性约束 1);
  C keeps the Nz layout with M1 = 1, i.e. each 1x16 sub-vector occupies one 16x16 fractal (1024 B for
  float/int32; GEMV.md 特性约束 2 and its N = 256 example — the "4 x 512 B for N = 50" sentence is
  taken as a slip).
- A bias tensor in CO1 means "initial value from L0C" (cmatrixSource = false): C accumulates onto its
  own contents and the bias tensor is not read (a hazard is reported when it is not C itself).
- cmatrixSource = true without a bias tensor reads the bias row from BT address 0 (the bias address
  field is 0 in the no-bias overload).
- A bias tensor together with an effective cmatrixInitVal = true: C = A.B, bias ignored, hazard
  reported (docs/divergences.md M5).
- kDirectionAlign = true on 950 is accepted and has no effect (doc says "false only", the official
  mmad_load3dv2 example sets it; Nz A is K-outer so the flag cannot change any offset; Q30).

BLAS runs on one thread inside ascsim (`set_blas_threads`; threadpoolctl), so a simulated kernel does not
fight its caller for cores.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache, lru_cache, partial

import numpy as np

from ..base.diagnostics import basis_on, report_hazards
from ..base.errors import (
    Basis,
    NotImplementedFeature,
    ParamRangeError,
    UnsupportedError,
    cpp_rejects,
    doc_forbids,
)
from ..engine.boundary import Extent, PreparedCall, cached, lookup, run_call
from ..engine.record import ExecReport
from ..machine import checks
from ..machine.dtypes import DType, decode, get_dtype
from ..machine.layouts import R0, align, cdiv, nz_offset, zn_offset, zz_offset
from ..machine.memory import LocalTensor
from ..params import MmadParams

INSTR = "Mmad"
MAX_MNK = 4095

# Chips whose docs restrict a field to its default (Mmad.md 表4).
_KALIGN_TRUE = ("a2", "a3", "kirin_x90", "kirin_9030", "ascend950")  # 950: Q30, accepted as a no-op
_CSOURCE_TRUE = ("a2", "a3", "atlas200i500a2", "ascend950")
_UNITFLAG = ("a2", "a3", "ascend950")
_DOC4 = doc_forbids("Mmad.md 表4", "M8")
_RANGE = cpp_rejects("CheckMmadParamsCommon")
_ALL_FLAGS = ("isBias", "cmatrixInitVal", "cmatrixSource", "kDirectionAlign", "disableGemv", "enSsparse",
              "enWinogradA", "enWinogradB")


# -- the per-API rules (one table, one validator) -----------------------------------------------------


@dataclass(frozen=True)
class BiasRule:
    """What an API's bias overload accepts. `dtype` None: the C dtype (Mmad.md 表6/表8)."""

    pos_basis: str
    dtype: str | None
    dtype_basis: str
    align_basis: str
    no_bias_form: tuple[str, ...] = ()  # A dtypes without a bias row in the doc's table
    chip_table: bool = False  # also check the chip's BT -> L0C dtype table


@dataclass(frozen=True)
class Variant:
    """The rules of one Mmad-family API, as data (every message start and basis the tests pin).

    `k_align`: "chips" (true only on `_KALIGN_TRUE`, float A only), "reject" (never true) or "ignore".
    `gemv`: "nd" (m == 1 reads A as ND unless disableGemv), "never", or "missing" (m == 1 without
    disableGemv is a documented mode ascsim does not model)."""

    instr: str
    table: str  # the page table the field rules cite ("Mmad.md 表4")
    flags: tuple[str, ...]  # bool fields checked (the others are "不做处理" on this API)
    flag_basis: str
    names: tuple[str, str, str]  # (C, A, B) in position messages
    pos_basis: str
    align_names: tuple[str, str, str]
    align_basis: str
    ab_align: Callable[[DType], tuple[int, str]]  # A / B dtype -> (alignment, basis)
    k_align: str
    k_align_msg: str = ""
    k_align_basis: Basis | None = None
    gemv: str = "nd"
    disable_gemv_950: bool = False  # disableGemv exists on 950 only (C++: __NPU_ARCH__ 3510)
    fixed_dtypes: tuple[str, str, str] | None = None  # required (C, A, B) dtypes, the page table, basis
    fixed_table: str = ""
    fixed_basis: str = ""
    combo_names: tuple[tuple[str, str], ...] = ()  # dtype tags the combo table lists under another name
    bias: BiasRule | None = None
    k_multiple: tuple[int, str, str] | None = None  # (multiple, page rule, basis)
    modes: bool = False  # honours Core(mmad_accumulate=...)


_TENSOR_ALIGN = cpp_rejects("CheckMmadTensorCommon CheckTensorAlignment")
_MX_AB_ALIGN = doc_forbids("MmadMx.md 约束说明: fp4场景512字节对齐, fp8场景1024字节对齐", "L26")

VARIANTS: dict[str, Variant] = {
    "Mmad": Variant(
        "Mmad", "Mmad.md 表4", _ALL_FLAGS, "",
        ("dst (C)", "fm (A)", "filter (B)"), cpp_rejects("CheckMmadTensorCommon CheckTensorPhyPosition"),
        ("dst (C)", "fm (A)", "filter (B)"), _TENSOR_ALIGN, lambda dt: (512, _TENSOR_ALIGN),
        k_align="chips", gemv="nd", disable_gemv_950=True,
        bias=BiasRule(cpp_rejects("CheckTensorPhyPosition<L0C, BIAS>"), None,
                      doc_forbids("Mmad.md 表6/表8", "M8"), doc_forbids("Mmad.md 表3/表6", "M8"),
                      no_bias_form=("int4b_t",), chip_table=True),
        modes=True),
    # MmadSpImpl (asc-devkit kernel_operator_mm_base_impl.h): CheckTensorPhyPosition, CheckTensorAlignment,
    # CheckMmadParamsCommon, enable_if<int32_t / int8_t>; mad_sp takes no kDirectionAlign (dav_c220
    # MmadSpCal). fmOffset, enSsparse, enWinogradA/B: "不做处理" (表5); disableGemv: a 950 field, and
    # MmadWithSparse never enters GEMV ("不支持Gemv模式").
    "MmadWithSparse": Variant(
        "MmadWithSparse", "MmadWithSparse.md 表5", ("kDirectionAlign", "cmatrixInitVal", "cmatrixSource",
                                                    "isBias"), "",
        ("dst (C)", "fm (A)", "filter (B)"), checks.PHYSICAL_POSITION,
        ("dst (C)", "fm (A)", "filter (B)"), checks.ALIGNMENT, lambda dt: (512, checks.ALIGNMENT),
        k_align="reject",
        k_align_msg="kDirectionAlign must be false (MmadWithSparse.md 表5: 不支持配置为true), but got True",
        k_align_basis=doc_forbids("MmadWithSparse.md 表5 kDirectionAlign", "D9"),
        gemv="never", fixed_dtypes=("int32_t", "int8_t", "int8_t"), fixed_table="MmadWithSparse.md 表6",
        fixed_basis=cpp_rejects("enable_if int32_t / int8_t on MmadWithSparse")),
    # MmadMxImpl -> CheckMmadTensorCommon / CheckMmadParams; "fp4场景512字节对齐, fp8场景1024字节对齐"
    "MmadMx": Variant(
        "MmadMx", "Mmad.md 表4", _ALL_FLAGS, "",
        ("dst", "fm", "filter"), checks.PHYSICAL_POSITION,
        ("dst (L0C)", "fm (L0A)", "filter (L0B)"), checks.ALIGNMENT,
        lambda dt: (512 if dt.is_4bit else 1024, _MX_AB_ALIGN),
        k_align="ignore", gemv="missing",
        combo_names=(("mx_fp8_e4m3_t", "fp8_e4m3fn_t"), ("mx_fp8_e5m2_t", "fp8_e5m2_t")),
        bias=BiasRule(cpp_rejects("ASCENDC_ASSERT in MmadMxImpl [bias]"), "float",
                      doc_forbids("MmadMx.md 表3", "L26"),
                      doc_forbids("MmadMx.md 约束说明: bias 64字节对齐", "L26")),
        k_multiple=(64, "MmadMx.md 约束说明", doc_forbids("MmadMx.md 约束说明: k 64对齐", "X3"))),
}


@dataclass(frozen=True)
class MmadSpec:
    """A validated Mmad-family call: everything the executor needs, independent of addresses."""

    instr: str
    m: int
    n: int
    k: int
    init: bool  # effective cmatrixInitVal (&& !isBias): C = A.B
    source: bool  # initial value = the bias row from BT
    a_layout: str  # "ZZ", "NZ" or "ND" (GEMV)
    a_pitch: int  # logical columns of the Zz A (k, or align(k, 16) with kDirectionAlign)
    b_rows: int  # rows of B in L0B (k; the dense rows 2*ceil(k/4) for MmadWithSparse)
    a: str
    b: str
    c: str
    blas: str  # "float32" / "float64": the BLAS type the operands are decoded to (see int_blas_dtype)
    f32: bool  # Core(mmad_accumulate="float32")
    bias_given: bool

    @property
    def accumulate(self) -> bool:
        """The initial value is C's own contents."""
        return not self.init and not self.source

    @property
    def from_bias(self) -> bool:
        """The initial value is the bias row (BT)."""
        return not self.init and self.source


def _type_check(v: Variant, c, a, b, p, bias) -> None:
    """Wrong argument types (issue 9): an AscsimError naming what the C++ signature takes."""
    for what, t in ((v.names[0], c), (v.names[1], a), (v.names[2], b), ("bias", bias)):
        if not isinstance(t, LocalTensor) and (t is not None or what != "bias"):
            raise UnsupportedError(f"{v.instr}: {what} must be a LocalTensor, but got "
                                   f"{type(t).__name__}",
                                   basis=cpp_rejects(f"{v.instr} takes LocalTensor operands"))
    if not isinstance(p, MmadParams):
        raise UnsupportedError(f"{v.instr}: params must be MmadParams, but got {type(p).__name__}",
                               basis=cpp_rejects(f"no {v.instr} overload takes {type(p).__name__}"))


def validate(v: Variant, core, c: LocalTensor, a: LocalTensor, b: LocalTensor, p: MmadParams,
             bias: LocalTensor | None) -> MmadSpec | None:
    """Every value check of one Mmad-family call (None: a NOP, "M、K、N中的任意一个值为0"). Alignment and
    bounds depend on addresses: `prepare` hands them to the call boundary as aligns / extents."""
    instr, chip = v.instr, core.chip
    _type_check(v, c, a, b, p, bias)
    chip.check(instr, instr=instr)
    m, n, k = (checks.in_range(instr, f, getattr(p, f), 0, MAX_MNK, _RANGE) for f in ("m", "n", "k"))
    flag = {f: checks.flag(instr, f, getattr(p, f), v.flag_basis) for f in v.flags}
    unit = checks.in_range(instr, "unitFlag", p.unitFlag, 0, 3, _RANGE)
    if unit == 1:
        raise ParamRangeError(f"{instr}: unitFlag must be 0, 2 or 3 ({v.table}), but got 1",
                              basis=_RANGE)
    if unit and chip.key not in _UNITFLAG:
        raise UnsupportedError(f"{instr}: unitFlag must be 0 on {chip.name} ({v.table}), but got {unit}",
                               basis=_DOC4)
    k_align = flag.get("kDirectionAlign", False)
    if k_align and v.k_align == "reject":
        raise UnsupportedError(f"{instr}: {v.k_align_msg}", basis=v.k_align_basis)
    if k_align and v.k_align == "chips" and chip.key not in _KALIGN_TRUE:
        raise UnsupportedError(f"{instr}: kDirectionAlign must be false on {chip.name} ({v.table}), "
                               f"but got True", basis=_DOC4)
    disable_gemv = flag.get("disableGemv", False)
    if disable_gemv and v.disable_gemv_950 and chip.key != "ascend950":
        raise UnsupportedError(f"{instr}: disableGemv exists on Ascend 950 only ({v.table}), but got True on "
                               f"{chip.name}",
                               basis=cpp_rejects('MmadParams has disableGemv only for __NPU_ARCH__ 3510'))
    for what, t, mem in zip(v.names, (c, a, b), ("L0C", "L0A", "L0B"), strict=True):
        checks.position(instr, what, t, (mem,), v.pos_basis)
    names = (c.dtype.name, a.dtype.name, b.dtype.name)
    if v.fixed_dtypes is not None:
        for what, got, want in zip(v.names, names, v.fixed_dtypes, strict=True):
            if got != want:
                raise UnsupportedError(f"{instr}: {what} dtype must be {want} ({v.fixed_table}), "
                                       f"but got {got}", basis=v.fixed_basis)
    tags = dict(v.combo_names)
    chip.check_combo(instr, (tags.get(names[1], names[1]), tags.get(names[2], names[2]), names[0]),
                     instr=instr)
    init = flag["cmatrixInitVal"] and not flag["isBias"]  # the C++ API sends cmatrixInitVal && !isBias
    source = flag["cmatrixSource"]
    if bias is not None:
        source = _check_bias(v, chip, a, c, bias)
    if source and not init and chip.key not in _CSOURCE_TRUE:
        raise UnsupportedError(f"{instr}: cmatrixSource must be false on {chip.name} ({v.table}), "
                               f"but got True", basis=_DOC4)
    if m == 0 or n == 0 or k == 0:  # "M、K、N中的任意一个值为0时，该指令视为NOP"
        return None
    if v.k_multiple is not None and k % v.k_multiple[0]:
        mult, rule, basis = v.k_multiple
        raise ParamRangeError(f"{instr}: k must be a multiple of {mult} ({rule}), but got {k}",
                              basis=basis)
    gemv = m == 1 and not disable_gemv and v.gemv != "never"
    if gemv and v.gemv == "missing":
        raise NotImplementedFeature(f"{instr}: m=1 selects GEMV mode, whose MX scale layout is "
                                    f"undocumented and not modelled; set disableGemv=true (m=1 with a 16-row "
                                    f"Nz A), but got m={m} (divergence X5)")
    a_dt, b_dt, c_dt = a.dtype, b.dtype, c.dtype
    fmt = "ND" if gemv else chip.l0a_format
    pitch = align(k, R0) if (k_align and v.k_align == "chips" and a_dt.name == "float" and fmt == "ZZ") else k
    b_rows = 2 * cdiv(k, 4) if v.gemv == "never" else k  # MmadWithSparse: the dense rows of B
    if a_dt.kind == "float":
        blas = "float64"
    else:  # MmadWithSparse: two slots may select one row, so a row of B holds up to 2 x 128
        bmax = 2 * _INT_MAX[b_dt.name] if v.gemv == "never" else _INT_MAX[b_dt.name]
        blas = int_blas_dtype(k, _INT_MAX[a_dt.name], bmax).name
    f32 = v.modes and core.mmad_accumulate == "float32" and c_dt.kind == "float"
    return MmadSpec(instr, m, n, k, init, source, fmt, pitch, b_rows, a_dt.name, b_dt.name, c_dt.name, blas,
                    f32, bias is not None)


def _check_bias(v: Variant, chip, a: LocalTensor, c: LocalTensor, bias: LocalTensor) -> bool:
    """The bias overload's checks; returns cmatrixSource (the bias TPosition decides it, Mmad.md 表4)."""
    instr, rule = v.instr, v.bias
    if rule is None:  # pragma: no cover - MmadWithSparse has no bias overload (the facade passes none)
        raise UnsupportedError(f"{instr}: has no bias overload")
    checks.position(instr, "bias", bias, ("BT", "L0C"), rule.pos_basis)
    if a.dtype.name in rule.no_bias_form:
        raise UnsupportedError(f"{instr}: bias with {a.dtype.name} operands is not supported on "
                               f"{chip.name} (no bias row in Mmad.md 表8)",
                               basis=doc_forbids('Mmad.md 表8', 'M8'))
    want = rule.dtype or c.dtype.name
    if bias.dtype.name != want:
        what = f"must equal the dst dtype {want} (Mmad.md 表6/表8)" if rule.dtype is None else \
            f"must be {want} (MmadMx.md 表3)"
        raise UnsupportedError(f"{instr}: bias dtype {what}, but got {bias.dtype.name}",
                               basis=rule.dtype_basis)
    source = bias.memory.name == "BT"
    if source and rule.chip_table:
        basis_on(lambda: chip.check(instr, bias.dtype.name, "C2", "CO1", instr=instr), rule.align_basis)
    return source


# -- arithmetic ------------------------------------------------------------------------------------------

#: Largest |value| of each integer operand type (two's complement / unsigned ranges).
_INT_MAX = {"int8_t": 128, "uint8_t": 255, "int4b_t": 8}


def int_blas_dtype(k: int, a_max: int, b_max: int) -> np.dtype:
    """The float type in which a BLAS matmul of integer operands (|a| <= a_max, |b| <= b_max, k terms)
    is exact.

    Proof: every product a*b and every partial sum — in whatever order and blocking the BLAS uses, with
    or without fused multiply-add — is an integer of magnitude <= k * a_max * b_max. An IEEE binary
    format with a p-bit significand represents every integer of magnitude <= 2^p, and an IEEE operation
    whose exact result is representable returns it exactly. So float32 (p = 24) is exact when
    k * a_max * b_max <= 2^24 (int8 x int8: k <= 1024; uint8 x uint8: k <= 258), and float64 (p = 53)
    always is here (4095 * 256 * 256 < 2^29). tests/isa/test_mmad_fast.py shows the bound is tight: an int8
    sum of 2^24 + 1 at k = 1025 is exact here and wrong in float32."""
    return np.dtype(np.float32 if k * a_max * b_max <= 1 << 24 else np.float64)


class _Blas:
    """BLAS threads inside ascsim's matmuls (threadpoolctl): one by default, so a simulated kernel does not
    fight its caller for cores (issue 8: a busy 2-core machine ran the ResNet flow 15x slower with the
    BLAS's own threads). Small matmuls never thread, so they skip the switch."""

    threads: int | None = 1
    threshold = 1 << 16  # m*n*k below which no BLAS starts threads (OpenBLAS: 4 * 65536)
    _libs: list | None = None

    @classmethod
    def libs(cls) -> list:
        if cls._libs is None:
            from threadpoolctl import ThreadpoolController

            cls._libs = list(ThreadpoolController().select(user_api="blas").lib_controllers)
        return cls._libs


def set_blas_threads(threads: int | None) -> None:
    """Threads the BLAS may use inside ascsim's matmuls: 1 (default), n, or None (leave the BLAS library's
    own setting alone). The limit is applied around each large matmul and restored after it."""
    if threads is not None and (not isinstance(threads, int) or threads < 1):
        raise ParamRangeError(f"set_blas_threads: threads must be a positive int or None, but got "
                              f"{threads!r}")
    _Blas.threads = threads


def matmul(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """a @ b with the BLAS held to `set_blas_threads` threads."""
    n = _Blas.threads
    if n is None or a.shape[0] * a.shape[1] * b.shape[1] < _Blas.threshold:
        return np.matmul(a, b)
    libs = _Blas.libs()
    saved = [lib.get_num_threads() for lib in libs]
    if all(s == n for s in saved):  # already held (OPENBLAS_NUM_THREADS=1, or a caller's limit)
        return np.matmul(a, b)
    for lib in libs:
        lib.set_num_threads(n)
    try:
        return np.matmul(a, b)
    finally:
        for lib, s in zip(libs, saved, strict=True):
            lib.set_num_threads(s)


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


def round_to(dt: DType, values: np.ndarray) -> np.ndarray:
    """Exact int64 / float64 results -> raw bits of the C type (ints saturate, floats round once)."""
    with np.errstate(over="ignore", invalid="ignore"):
        return _rounder(dt.name)(values)


@cache
def _rounder(name: str) -> Callable[[np.ndarray], np.ndarray]:
    """values -> raw bits of C type `name`: ints saturate, floats round once to nearest even (callers hold
    np.errstate for the float overflow to inf)."""
    dt = get_dtype(name)
    value, raw = dt.value_dtype, dt.raw_dtype
    if dt.kind in ("int", "uint"):
        lo, hi = int(np.iinfo(value).min), int(np.iinfo(value).max)
        return lambda v: np.clip(v, lo, hi).astype(value).view(raw)
    return lambda v: v.astype(value).view(raw)  # float32, or half C (older chips) via numpy


# -- operands as views of the memory bytes -----------------------------------------------------------


@cache
def _table(name: str, to: str) -> np.ndarray:
    """Value of every code of a <= 16-bit dtype as `to` (`ascsim.machine.dtypes.decode`, so the same bits as
    an
    element-wise decode, NaN included): decoding an operand is one gather per call."""
    dt = get_dtype(name)
    t = decode(dt, np.arange(1 << dt.bits)).astype(to)
    t.flags.writeable = False
    return t


def decode_codes(dt: DType, raw: np.ndarray, to: str) -> np.ndarray:
    """Raw codes (any shape, any strides) -> C-contiguous values of type `to` (exact)."""
    if dt.bits == 32:
        return raw.view(dt.value_dtype).astype(to, order="C")
    return _table(dt.name, to).take(raw, mode="clip")


def region(t: LocalTensor, nbytes: int) -> np.ndarray:
    """`nbytes` bytes from the tensor's start: a view of the memory, or — when whole fractals run past
    the memory's end (the extents the boundary checked end inside it) — a zero-padded copy."""
    mem, off = t.memory, t.offset
    if off + nbytes <= mem.size:
        return mem.data[off : off + nbytes]
    out = np.zeros(nbytes, np.uint8)
    out[: mem.size - off] = mem.data[off:]
    return out


def _codes(buf: np.ndarray, dt: DType, code: np.dtype | None) -> np.ndarray:
    """Bytes -> one raw code per element (4-bit: nibbles, low first, docs/number_formats.md §4)."""
    if dt.bits == 4:
        out = np.empty(buf.size * 2, np.uint8)
        out[0::2] = buf & 0x0F
        out[1::2] = buf >> 4
        return out
    return buf if code is None else buf.view(code)


def _fractal_grid(layout: str, rows: int, cols: int, c0: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """(memory shape, axes order) that turn a fractal layout's flat elements into (rows16, cols16) blocks.

    ZZ (A2/A3 A): [R1][C1][16][C0] -> (R1, 16, C1, C0); NZ (950 A, C): [C1][R1][16][C0];
    ZN (B, rows = K): [K1][N1][16 n][C0 k] -> (K1, C0, N1, 16)."""
    if layout == "ZZ":
        r1, c1 = cdiv(rows, R0), cdiv(cols, c0)
        return (r1, c1, R0, c0), (0, 2, 1, 3)
    if layout == "NZ":
        r1, c1 = cdiv(rows, R0), cdiv(cols, c0)
        return (c1, r1, R0, c0), (1, 2, 0, 3)
    k1, n1 = cdiv(rows, c0), cdiv(cols, R0)  # ZN
    return (k1, n1, R0, c0), (0, 3, 1, 2)


def _strides(shape: tuple[int, ...], axes: tuple[int, ...] | None, itemsize: int
             ) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """(shape, strides) of a C-contiguous `shape` array of `itemsize` elements after `transpose(axes)`."""
    strides, step = [], itemsize
    for d in reversed(shape):
        strides.insert(0, step)
        step *= d
    if axes is None:
        return tuple(shape), tuple(strides)
    return tuple(shape[i] for i in axes), tuple(strides[i] for i in axes)


def strided(t: LocalTensor, nbytes: int, shape: tuple[int, ...], strides: tuple[int, ...], code: np.dtype,
            nibbles: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """(view, buffer): `shape`/`strides` elements of type `code` over the `nbytes` bytes from the tensor's
    start — built in one step on the memory itself, or on a zero-padded copy (`region`) when the whole
    fractals run past the memory's end; 4-bit data is first unpacked to one code per byte."""
    mem, off = t.memory, t.offset
    buf = mem.data
    if off + nbytes > mem.size:
        buf, off = region(t, nbytes), 0
    if nibbles:
        buf, off = _codes(buf[off : off + nbytes], FOUR_BIT, None), 0
    return np.ndarray(shape, code, buf, off, strides), buf


FOUR_BIT = get_dtype("int4b_t")  # any 4-bit dtype: `_codes` only looks at the width


class Reader:
    """How one operand's rows x cols matrix is read, worked out once per call shape: its whole fractals as
    one strided view of the memory's codes in logical order, decoded by one table lookup (or, for 32-bit
    floats, one exact cast). `pitch`: the Zz column count when it exceeds `cols` (kDirectionAlign). The
    result is C-contiguous (what the BLAS gets)."""

    __slots__ = ("dt", "nbytes", "code", "shape", "strides", "table", "to", "rows", "cols", "full", "exact",
                 "misses")

    def __init__(self, dt: DType, layout: str, rows: int, cols: int, to: str, pitch: int = 0) -> None:
        if layout == "ND":
            shape, axes = (rows, cols), None
        else:
            shape, axes = _fractal_grid(layout, rows, max(cols, pitch), dt.c0)
        self.code = np.dtype(np.uint8) if dt.bits <= 8 else dt.raw_dtype.newbyteorder("<")
        self.shape, self.strides = _strides(shape, axes, self.code.itemsize)
        sh = self.shape
        self.full = (rows, cols) if axes is None else (sh[0] * sh[1], sh[2] * sh[3])
        self.dt, self.rows, self.cols, self.to = dt, rows, cols, to
        self.nbytes = _nbytes(math.prod(shape), dt.bits)
        self.table = None if dt.bits == 32 else _table(dt.name, to)
        self.exact = self.full == (rows, cols)
        self.misses = 0  # consecutive `DECODED` misses of this call shape

    def __call__(self, t: LocalTensor) -> np.ndarray:
        raw = strided(t, self.nbytes, self.shape, self.strides, self.code, self.dt.bits == 4)[0]
        return self._decode(raw)

    def cached(self, t: LocalTensor) -> np.ndarray:
        """The same values as `self(t)`, read-only, through `DECODED` (operands of `Decoded.min_bytes` and
        more; below that decoding costs no more than the lookup)."""
        n = self.nbytes
        if n < Decoded.min_bytes or n % 8:
            return self(t)
        mem, off = t.memory, t.offset
        return DECODED.get(self, mem.data[off : off + n] if off + n <= mem.size else region(t, n))

    def of_bytes(self, buf: np.ndarray) -> np.ndarray:
        """The matrix the `nbytes` bytes `buf` (from the tensor's start) hold."""
        if self.dt.bits == 4:
            buf = _codes(buf, FOUR_BIT, None)
        return self._decode(np.ndarray(self.shape, self.code, buf, 0, self.strides))

    def _decode(self, raw: np.ndarray) -> np.ndarray:
        if self.table is not None:
            vals = self.table.take(raw, mode="clip")  # every code indexes the table: "clip" skips the check
        else:
            vals = raw.view(self.dt.value_dtype).astype(self.to, order="C")
        vals = vals.reshape(self.full)
        return vals if self.exact else np.ascontiguousarray(vals[: self.rows, : self.cols])


class Decoded:
    """Decoded operands by content. A tiled kernel loads each A tile once per N tile and each B tile once
    per M tile (issue 8: a 1024^3 matmul decodes every operand byte 8 times), so Mmad sees the same
    operand bytes again and again. Key: the `Reader` and a sum of sampled 64-bit words; a hit is
    confirmed by comparing every byte with the stored copy, so a stale or colliding entry is never
    returned and no write path has to tell the cache anything. Least recently used out first, capped by
    the bytes held (copy + decoded values). A call shape whose last `probe` operands all missed (the
    img2col tiles of a convolution never repeat) stores only every `probe`-th one until one hits again.
    """

    budget = 32 << 20
    min_bytes = 16 << 10
    probe = 64

    def __init__(self) -> None:
        self._d: dict[tuple, tuple[bytes, np.ndarray]] = {}
        self.nbytes = 0

    def __len__(self) -> int:
        return len(self._d)

    def get(self, rd: Reader, buf: np.ndarray) -> np.ndarray:
        """`rd.of_bytes(buf)`, decoded once per distinct content (a stored result is read-only)."""
        words = buf.view(np.uint64)
        key = (rd, int(words[::31].sum()))  # a sample: every byte is compared on a hit
        d = self._d
        hit = d.pop(key, None)
        raw = None
        if hit is not None:
            raw = buf.tobytes()
            if hit[0] == raw:
                d[key] = hit  # most recently used: last
                rd.misses = 0
                return hit[1]
            self.nbytes -= len(hit[0]) + hit[1].nbytes
        rd.misses += 1
        vals = rd.of_bytes(buf)
        if rd.misses > self.probe and rd.misses % self.probe:
            return vals  # this call shape's operands have not repeated lately (img2col tiles): keep nothing
        vals.flags.writeable = False
        d[key] = (buf.tobytes() if raw is None else raw, vals)
        self.nbytes += len(d[key][0]) + vals.nbytes
        while self.nbytes > self.budget and len(d) > 1:
            old = d.pop(next(iter(d)))
            self.nbytes -= len(old[0]) + old[1].nbytes
        return vals

    def clear(self) -> None:
        self._d.clear()
        self.nbytes = 0


#: Decoded Mmad operands (`Decoded`), shared by every core: an entry depends on bytes only.
DECODED = Decoded()


@lru_cache(maxsize=1024)
def reader(dtype: str, layout: str, rows: int, cols: int, to: str, pitch: int = 0) -> Reader:
    """The (cached) `Reader` of a rows x cols `dtype` matrix in `layout` ("ZZ", "NZ", "ZN" or "ND")."""
    return Reader(get_dtype(dtype), layout, rows, cols, to, pitch)


def matrix(t: LocalTensor, layout: str, rows: int, cols: int, to: str, pitch: int = 0) -> np.ndarray:
    """The rows x cols matrix `t` holds in `layout`, decoded to `to` (see `Reader`)."""
    return reader(t.dtype.name, layout, rows, cols, to, pitch)(t)


def last_offset(layout: str, rows: int, cols: int, c0: int, pitch: int = 0) -> int:
    """Element offset of the last element read — the valid (rows-1, cols-1) is the largest offset of
    every layout here, whose offsets grow with (fractal row, fractal column, row, column) in that
    nesting order. So an operand's extent is arithmetic: no offset array is ever built."""
    r, c = rows - 1, cols - 1
    if layout == "ZZ":
        return int(zz_offset(r, c, max(cols, pitch), c0))
    if layout == "NZ":
        return int(nz_offset(r, c, rows, c0))
    if layout == "ZN":
        return int(zn_offset(r, c, cols, c0))
    return rows * cols - 1  # ND


def _nbytes(count: int, bits: int) -> int:
    return (count * bits + 7) // 8


# -- execution -----------------------------------------------------------------------------------------

#: operands(spec) -> fn(ops) -> (A, B): the decoded m x k and k x n matrices the product is formed from
#: (built once per prepared call; fn may refuse data — e.g. a sparse index code 3 — before any write).
Operands = Callable[[MmadSpec], Callable[[Sequence[LocalTensor]], tuple[np.ndarray, np.ndarray]]]


def mmad_operands(spec: MmadSpec) -> Callable[[Sequence[LocalTensor]], tuple[np.ndarray, np.ndarray]]:
    """A and B of a plain Mmad: A in the chip's L0A layout (or ND for GEMV), B Zn."""
    ra = reader(spec.a, spec.a_layout, spec.m, spec.k, spec.blas, spec.a_pitch)
    rb = reader(spec.b, "ZN", spec.k, spec.n, spec.blas)
    return lambda ops: (ra.cached(ops[1]), rb.cached(ops[2]))


def _executor(spec: MmadSpec, operands: Operands) -> Callable[..., None]:
    """The run function of a prepared call: read every operand, compute, write C's valid m x n region.

    C is viewed as (M1, 16, N1, 16) raw elements over its whole 16x16 fractals; a partial region is
    merged into a copy of those fractals first, so every byte outside it is written back unchanged."""
    m, n = spec.m, spec.n
    cdt = get_dtype(spec.c)
    m1, n1 = cdiv(m, R0), cdiv(n, R0)
    c_bytes, c_code = m1 * n1 * R0 * R0 * cdt.bits // 8, cdt.raw_dtype.newbyteorder("<")
    c_shape, c_strides = _strides((n1, m1, R0, R0), (1, 2, 0, 3), c_code.itemsize)
    c_full = (m1 * R0, n1 * R0)
    exact = c_full == (m, n)
    c_end = _nbytes(last_offset("NZ", m, n, R0) + 1, cdt.bits)
    to = "float64" if cdt.kind == "float" else "int64"
    rnd = _rounder(cdt.name)
    lo, hi = (int(np.iinfo(cdt.value_dtype).min), int(np.iinfo(cdt.value_dtype).max)) if to == "int64" \
        else (0, 0)
    accumulate, f32 = spec.accumulate, spec.f32
    bias = reader(spec.c, "ND", 1, n, to) if spec.from_bias else None
    read_ab = operands(spec)
    mul = np.matmul if m * n * spec.k < _Blas.threshold else matmul  # small products never thread

    def store(raw: np.ndarray, old: np.ndarray | None, values: np.ndarray) -> None:
        """Round `values` (m x n) once to the C type into the valid region (callers hold np.errstate)."""
        if exact:  # the assignment's cast is the one rounding (the same as `round_to`)
            raw.view(cdt.value_dtype)[...] = values.reshape(raw.shape)
        else:  # merge into the copy of the whole fractals, then write them all back
            old[:m, :n] = rnd(values)  # type: ignore[index]
            raw[...] = old.reshape(raw.shape)  # type: ignore[union-attr]

    # float32 C accumulating over whole fractals (a tiled kernel's K loop): C's float32 values are added
    # to the float64 product where they lie (the add's float32 -> float64 cast is `decode_codes`'s cast,
    # exact), so they are neither copied nor converted to a separate array first
    in_place = accumulate and exact and not f32 and cdt.name == "float"

    def add_in_place(raw: np.ndarray, av: np.ndarray, bv: np.ndarray, _ops: Sequence[LocalTensor]) -> None:
        with np.errstate(all="ignore"):  # IEEE inf / NaN propagate (docs/number_formats.md U3/U4)
            total = mul(av, bv).reshape(raw.shape)
            cv = raw.view(cdt.value_dtype)
            np.add(total, cv, out=total)
            cv[...] = total  # the one rounding (as `store`)

    def combine(raw: np.ndarray, av: np.ndarray, bv: np.ndarray, ops: Sequence[LocalTensor]) -> None:
        """C = initial value + A·B, rounded once to the C type into the valid region."""
        old = raw.reshape(c_full) if accumulate or not exact else None  # a copy
        init = None
        if accumulate:
            init = decode_codes(cdt, old[:m, :n], to)  # type: ignore[index]
        elif bias is not None:
            init = bias(ops[3])[0]
        if to == "int64":
            total = mul(av, bv).astype(np.int64)  # exact (int_blas_dtype)
            if init is not None:
                total += init
            np.minimum(total, hi, out=total)  # "对于整数类型只有饱和模式"
            store(raw, old, np.maximum(total, lo, out=total))
        else:
            with np.errstate(all="ignore"):  # IEEE inf / NaN propagate (docs/number_formats.md U3/U4)
                if f32:  # K order in float32 (divergence M7)
                    if init is not None and init.ndim == 1:
                        init = np.broadcast_to(init, (m, n))
                    total = accumulate_f32(av, bv, init)
                else:
                    total = mul(av, bv)
                    if init is not None:
                        total = total + init
                store(raw, old, total)

    step = add_in_place if in_place else combine

    def run(core, ops: Sequence[LocalTensor]) -> None:
        c = ops[0]
        raw, buf = strided(c, c_bytes, c_shape, c_strides, c_code)  # (M1, 16, N1, 16) raw C elements
        step(raw, *read_ab(ops), ops)
        if buf is not c.memory.data:  # a zero-padded copy (fractals past the memory's end): the valid extent
            c.memory.data[c.offset : c.offset + c_end] = buf[:c_end]

    return run


def _hazard(msg: str, core) -> list[str]:
    report_hazards([msg], core.strict)
    return [msg]


def _bias_not_read(instr: str, ops: Sequence[LocalTensor | None]) -> list[str]:
    c, bias = ops[0], ops[3]
    if bias is None or bias.memory is not c.memory or bias.offset == c.offset:
        return []
    return [f"{instr}: a bias tensor in CO1 means the initial value comes from L0C (cmatrixSource=false), "
            f"i.e. C's own contents at 0x{c.offset:x}; the bias tensor at 0x{bias.offset:x} is not read"]


def _nop(core, ops) -> tuple[int, int, int]:
    return (0, 0, 0)


#: extras(spec) -> [(Extent, bytes read)] of a family's extra operands (ops[4:]: index / scale buffers).
Extras = Callable[[MmadSpec], Sequence[tuple[Extent, int]]]


def prepare(v: Variant, core, c: LocalTensor, a: LocalTensor, b: LocalTensor, p: MmadParams,
            bias: LocalTensor | None, operands: Operands = mmad_operands, extras: Extras | None = None
            ) -> PreparedCall:
    """Validate (raises on any refusal, so nothing is cached) and compile the call for the boundary."""
    spec = validate(v, core, c, a, b, p, bias)
    aligns: list[tuple] = [(0, 1024, v.align_names[0], v.align_basis)]
    for i, t in ((1, a), (2, b)):
        aligns.append((i, *v.ab_align(t.dtype)[:1], v.align_names[i], v.ab_align(t.dtype)[1]))
    if bias is not None and bias.memory.name == "BT":
        aligns.append((3, 64, "bias (BT)", v.bias.align_basis))  # type: ignore[union-attr]
    if spec is None:
        return PreparedCall(v.instr, aligns=aligns, run=_nop)
    m, n, k = spec.m, spec.n, spec.k
    adt, bdt, cdt = a.dtype, b.dtype, c.dtype
    a_end = _nbytes(last_offset(spec.a_layout, m, k, adt.c0, spec.a_pitch) + 1, adt.bits)
    b_end = _nbytes(last_offset("ZN", spec.b_rows, n, bdt.c0) + 1, bdt.bits)
    c_end = _nbytes(last_offset("NZ", m, n, R0) + 1, cdt.bits)
    ext = [Extent(1, 0, a_end, False, "A (L0A)"), Extent(2, 0, b_end, False, "B (L0B)")]
    read = (m * k * adt.bits + spec.b_rows * n * bdt.bits) // 8
    for e, nb in extras(spec) if extras is not None else ():
        ext.append(e)
        read += nb
    if spec.from_bias:
        ext.append(Extent(3, 0, _nbytes(n, cdt.bits), False, "bias (BT)"))
        read += _nbytes(n, cdt.bits)
    ext.append(Extent(0, 0, c_end, True, "C (L0C)"))
    if spec.accumulate:
        ext.append(Extent(0, 0, c_end, False, "C (L0C)"))
        read += _nbytes(m * n, cdt.bits)
    warn = ()
    if bias is not None and spec.init:
        warn = (partial(_hazard, f"{v.instr}: a bias tensor was given but cmatrixInitVal=true (and "
                                 "isBias=false) initialises C to 0, so the bias is ignored; set "
                                 "cmatrixInitVal=false (docs/divergences.md M5)"),)
    at = partial(_bias_not_read, v.instr) if bias is not None and spec.accumulate else None
    return PreparedCall(v.instr, spec, extents=ext, aligns=aligns, run=_executor(spec, operands),
                    counts=(_nbytes(m * n, cdt.bits), read, 0), warnings=warn,
                    notes=("M7",) if spec.f32 else (), hazards_at=at)


def call(v: Variant, core, c: LocalTensor, a: LocalTensor, b: LocalTensor, params: MmadParams,
         bias: LocalTensor | None = None, operands: Operands = mmad_operands, extras: Extras | None = None,
         extra_ops: Callable[[object, MmadSpec, LocalTensor, LocalTensor], tuple] | None = None
         ) -> ExecReport:
    """One Mmad-family call through the boundary: key -> prepared call -> placement -> execute -> record.

    The key holds what validation reads: API, chip, operand memories and dtypes, the params' cached key,
    and the accumulation mode. `extra_ops(core, spec, a, b)` gives the family's extra operands (ops[4:])."""
    try:
        bk = None if bias is None else (bias.memory.name, bias.dtype.name)
        key = (v.instr, core.chip.key, c.memory.name, c.dtype.name, a.memory.name, a.dtype.name,
               b.memory.name, b.dtype.name, bk, params.key() if params.__class__ is MmadParams else None,
               core.mmad_accumulate)
    except AttributeError:  # not tensors: validation names the argument
        key = None
    if key is not None and key[9] is None:
        key = None
    prep = cached(key) or lookup(key, lambda: prepare(v, core, c, a, b, params, bias, operands, extras))
    spec = prep.spec
    if spec is None:
        return run_call(core, prep, (c, a, b, bias))
    if spec.from_bias and bias is None:  # the no-bias overload reads the bias row at BT address 0
        bt = core.memory("BT")
        bias_op = LocalTensor(bt, "C2", 0, c.dtype, min(spec.n, bt.size * 8 // c.dtype.bits))
        ops: tuple = (c, a, b, bias_op)
    else:
        ops = (c, a, b, bias)
    if extra_ops is not None:
        ops += extra_ops(core, spec, a, b)
    return run_call(core, prep, ops)


def mmad(core, c: LocalTensor, a: LocalTensor, b: LocalTensor, params: MmadParams,
         bias: LocalTensor | None = None) -> ExecReport:
    """`Mmad(dst, fm, filter[, bias], MmadParams)` (Mmad.md)."""
    return call(_MMAD, core, c, a, b, params, bias)


_MMAD = VARIANTS["Mmad"]

__all__ = ["mmad", "call", "prepare", "validate", "VARIANTS", "Variant", "MmadSpec", "matrix", "reader",
           "Reader", "region", "decode_codes", "last_offset", "matmul", "set_blas_threads", "int_blas_dtype",
           "accumulate_f32", "reference_accumulate_f32", "round_to"]
