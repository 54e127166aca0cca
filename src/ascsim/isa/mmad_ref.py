"""Slow reference interpreter of the Mmad family (Mmad, MmadWithSparse, MmadMx), one element at a time.

The readable spec the fast executor in `ascsim.isa.mmad` (operand views, table decode, BLAS) is
property-tested against (tests/isa/test_mmad_fast.py). It shares no code with it: every element is located by
the doc's offset formula, decoded by `ascsim.machine.dtypes.decode`, and every C element is summed exactly
(Python
integers scaled by 2^1074, so any finite float64 value is an integer) and rounded once — the literal
definition docs/mmad.md gives (divergences M1, M2, M7):

- A (m x k) in L0A: Zz ((r//16)*K1 + c//C0)*16*C0 + (r%16)*C0 + c%C0 with K1 = ceil(pitch/C0), pitch = k,
  or ceil(k/16)*16 with kDirectionAlign for float (K-方向对齐约束.md); Nz ((c//C0)*M1 + r//16)*16*C0 +
  (r%16)*C0 + c%C0 on 950; k contiguous elements in GEMV mode (m = 1, GEMV.md).
- B (k x n) in L0B: Zn ((k//C0)*N1 + n//16)*16*C0 + (n%16)*C0 + k%C0 (Mmad.md 表1/表2).
- C (m x n) in L0C: Nz ((n//16)*M1 + m//16)*256 + (m%16)*16 + n%16; only the valid region is written.
- C = init + sum_k A*B: init = 0 (cmatrixInitVal && !isBias), the bias row (BT; the bias tensor's
  position decides), or C itself. Integers: exact, saturated to the C type. Floats (default): the exact
  sum rounded once to the C type (nearest even, overflow to inf; IEEE inf/NaN: any NaN, inf*0 or
  inf-inf gives NaN, a NaN's sign and payload are not modelled). `Core(mmad_accumulate="float32")`:
  acc = fl32(acc + fl32(a_k*b_k)) for k = 0, 1, ... from the initial value.
- MmadWithSparse (MmadWithSparse.md 表2, typed in below): dense row kd of B selects row 4*(kd//2) + e of A,
  e from the code pair of its group; codes 2-bit in the index buffer at L0B offset / 4, Zn of 16 x 8-byte
  fractals, code of kd in bits [2j+1:2j] with j = kd % 4 (LoadDataWithSparse.md "逆序排布").
- MmadMx (MmadMx.md): A[m,k]*2^(SA[m,k//32]-127) * B[k,n]*2^(SB[k//32,n]-127); scales e8m0 (0xFF NaN) in
  L0A_MX / L0B_MX at the L0A / L0B address / 16, offset ((r//16)*ceil(k/64) + kb//2)*32 + (r%16)*2 + kb%2.

Valid calls only: nothing here validates (use the instruction for that); nothing is written.
"""

from __future__ import annotations

import math
import struct
from functools import cache

import numpy as np

from ..machine.dtypes import decode, get_dtype
from ..machine.memory import LocalTensor
from ..params import MmadParams

#: MmadWithSparse.md 表2 (矩阵A选择过滤规则表): (index 0, index 1) -> elements of the group the two dense
#: values multiply ("X/X": both). The pair (2'b10, 2'b01) is not in the table; ascsim reads it as the
#: pair's rule "slot 1 takes element max(idx0, idx1 + 1)" -> element 2 twice (docs/divergences.md S4).
SPARSE_SELECT = {
    (2, 2): (2, 3), (1, 2): (1, 3), (0, 2): (0, 3), (1, 1): (1, 2), (0, 1): (0, 2), (0, 0): (0, 1),
    (2, 0): (2, 2), (1, 0): (1, 1), (2, 1): (2, 2),
}

_SCALE = 1074  # 2^-1074 is the smallest float64: every finite float64 value is an integer * 2^-1074


def _code(t: LocalTensor, i: int) -> int:
    """Raw code of element `i` counted from the tensor's start (read from the memory, past it too)."""
    bits, data = t.dtype.bits, t.memory.data
    if bits == 4:
        return (int(data[t.offset + i // 2]) >> (4 * (i % 2))) & 0xF
    nb = bits // 8
    start = t.offset + i * nb
    return int.from_bytes(bytes(data[start : start + nb]), "little")


@cache
def _values(name: str) -> list:
    """Value of every code of a <= 16-bit dtype (`ascsim.machine.dtypes.decode`)."""
    dt = get_dtype(name)
    return decode(dt, np.arange(1 << dt.bits)).tolist()


def _value(t: LocalTensor, i: int) -> float | int:
    """Element `i` of `t`, decoded."""
    code = _code(t, i)
    if t.dtype.bits == 32:
        return decode(t.dtype, np.array([code], np.uint32)).item()
    return _values(t.dtype.name)[code]


def _exact(x: float) -> int:
    """x (finite) as an integer multiple of 2^-1074."""
    num, den = x.as_integer_ratio()
    return num * ((1 << _SCALE) // den)


def _round(total: int, mant: int, emin: int, emax: int) -> float:
    """total * 2^-1074 rounded once to the binary format with `mant` fraction bits (nearest even)."""
    if total == 0:
        return 0.0
    sign, n = (-1.0 if total < 0 else 1.0), abs(total)
    e = n.bit_length() - 1 - _SCALE  # exponent of the leading bit
    q = max(e, emin) - mant  # the format's quantum at that exponent (subnormals: 2^(emin - mant))
    shift = q + _SCALE
    r, rem = n >> shift, n & ((1 << shift) - 1)
    half = 1 << (shift - 1)
    if rem > half or (rem == half and r & 1):
        r += 1
    if r * 2.0**q >= 2.0 ** (emax + 1):
        return sign * math.inf
    return sign * math.ldexp(r, q)


def _ieee_special(terms: list[float]) -> float | None:
    """The IEEE sum of terms holding an inf or NaN (None when every term is finite)."""
    if all(math.isfinite(x) for x in terms):
        return None
    if any(math.isnan(x) for x in terms):
        return math.nan
    signs = {x > 0 for x in terms if math.isinf(x)}
    return math.nan if len(signs) == 2 else (math.inf if signs == {True} else -math.inf)


def _c_value(cname: str, terms: list, init, f32: bool) -> int:
    """Raw bits of one C element."""
    if cname in ("int32_t", "uint32_t"):
        lo, hi = (-(2**31), 2**31 - 1) if cname == "int32_t" else (0, 2**32 - 1)
        v = max(lo, min(hi, int(init or 0) + sum(terms)))
        return v & 0xFFFFFFFF
    np_t, pack, unpack, mant, emin, emax = ((np.float32, "<f", "<I", 23, -126, 127) if cname == "float"
                                            else (np.float16, "<e", "<H", 10, -14, 15))
    if f32:
        acc = np.float32(0.0 if init is None else init)
        with np.errstate(all="ignore"):
            for p in terms:
                acc = np.float32(acc + np.float32(p))
        out = float(np_t(acc))
    else:
        special = _ieee_special(terms + ([] if init is None else [init]))
        if special is not None:
            out = special
        else:
            exact = sum(_exact(p) for p in terms) + (0 if init is None else _exact(init))
            out = _round(exact, mant, emin, emax)
    if math.isnan(out):
        out = math.nan  # sign / payload of a NaN: not modelled (compare NaN as a class)
    return struct.unpack(unpack, struct.pack(pack, out))[0]


def reference(core, c: LocalTensor, a: LocalTensor, b: LocalTensor, p: MmadParams,
              bias: LocalTensor | None = None, *, api: str = "Mmad") -> np.ndarray:
    """The bytes L0C holds after the (valid) call `api(c, a, b[, bias], p)`, as a new array."""
    m, n, k = int(p.m), int(p.n), int(p.k)
    out = c.memory.data.copy()
    if m == 0 or n == 0 or k == 0:
        return out
    chip = core.chip
    init_val = bool(p.cmatrixInitVal) and not bool(p.isBias)
    source = bias.memory.name == "BT" if bias is not None else bool(p.cmatrixSource)
    f32 = api == "Mmad" and core.mmad_accumulate == "float32" and c.dtype.kind == "float"
    gemv = api == "Mmad" and m == 1 and not bool(p.disableGemv)
    ca, cb = a.dtype.c0, b.dtype.c0
    pitch = -(-k // 16) * 16 if (api == "Mmad" and p.kDirectionAlign and a.dtype.name == "float"
                                 and chip.l0a_format == "ZZ") else k
    m1, n1 = -(-m // 16), -(-n // 16)

    def a_at(r: int, col: int) -> float | int:
        if gemv:
            return _value(a, r * k + col)
        if chip.l0a_format == "ZZ":
            return _value(a, ((r // 16) * -(-pitch // ca) + col // ca) * 16 * ca + (r % 16) * ca + col % ca)
        return _value(a, ((col // ca) * m1 + r // 16) * 16 * ca + (r % 16) * ca + col % ca)

    def b_at(kk: int, j: int) -> float | int:
        return _value(b, ((kk // cb) * n1 + j // 16) * 16 * cb + (j % 16) * cb + kk % cb)

    def c_off(i: int, j: int) -> int:
        return ((j // 16) * m1 + i // 16) * 256 + (i % 16) * 16 + j % 16

    b_rows = 2 * -(-k // 4) if api == "MmadWithSparse" else k
    av = [[a_at(r, col) for col in range(k)] for r in range(m)]  # every element read once, by its offset
    bv = [[b_at(kk, j) for j in range(n)] for kk in range(b_rows)]
    if api == "MmadWithSparse":
        terms_of = _sparse_terms(core, av, bv, b, n, k)
    elif api == "MmadMx":
        terms_of = _mx_terms(core, av, bv, a, b, k)
    else:
        def terms_of(i: int, j: int) -> list:
            return [av[i][kk] * bv[kk][j] for kk in range(k)]

    bt = bias if bias is not None or init_val or not source else LocalTensor(core.memory("BT"), "C2", 0,
                                                                              c.dtype, n)
    size = c.dtype.bits // 8
    for i in range(m):
        for j in range(n):
            init = None
            if not init_val:
                init = _value(bt, j) if source else _value(c, c_off(i, j))
            bits = _c_value(c.dtype.name, terms_of(i, j), init, f32)
            start = c.offset + c_off(i, j) * size
            out[start : start + size] = np.frombuffer(bits.to_bytes(size, "little"), np.uint8)
    return out


def _sparse_terms(core, av: list, bv: list, b: LocalTensor, n: int, k: int):
    idx = core.memory("SPARSE_IDX").data
    base = b.offset // 4  # the index buffer address = L0B address / 4 (docs/divergences.md S2)
    kd_rows = 2 * -(-k // 4)
    n1 = -(-n // 16)

    def code(kd: int, j: int) -> int:
        byte = int(idx[base + ((kd // 32) * n1 + j // 16) * 128 + (j % 16) * 8 + (kd % 32) // 4])
        return (byte >> (2 * (kd % 4))) & 3

    def terms(i: int, j: int) -> list[int]:
        out = []
        for g in range(kd_rows // 2):
            for slot, e in enumerate(SPARSE_SELECT[(code(2 * g, j), code(2 * g + 1, j))]):
                row = 4 * g + e
                if row < k:  # rows past k are A's fractal padding, which Mmad does not read
                    out.append(av[i][row] * bv[2 * g + slot][j])
        return out

    return terms


def _mx_terms(core, av: list, bv: list, a: LocalTensor, b: LocalTensor, k: int):
    k64 = -(-k // 64)

    def scale(t: LocalTensor, r: int, kb: int) -> float:
        mx = core.memory(t.memory.name + "_MX")
        e = int(mx.data[t.offset // 16 + ((r // 16) * k64 + kb // 2) * 32 + (r % 16) * 2 + kb % 2])
        return math.nan if e == 0xFF else 2.0 ** (e - 127)

    def terms(i: int, j: int) -> list[float]:
        return [(av[i][kk] * scale(a, i, kk // 32)) * (bv[kk][j] * scale(b, j, kk // 32)) for kk in range(k)]

    return terms


__all__ = ["reference", "SPARSE_SELECT"]
