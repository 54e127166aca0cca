"""The C++ scalar types of ascsim's headers (`half`, `bfloat16_t`, the fp8 / fp4 / hifloat8 / e8m0 types,
`int4b_t`) against ml_dtypes / en_dtypes / numpy, over every bit pattern of each type.

One host program, compiled with the compiled path's compiler against `kernel_operator.h`, decodes every
code of every type to float, encodes a set of doubles (every representable value, every midpoint between
neighbours and the doubles just either side of it, out-of-range values, +-0, +-Inf, NaN) and does + - * /
on pairs of half and bfloat16 codes. The references are the third-party implementations of these formats;
where ascsim's encoding deliberately differs from one (docs/number_formats.md: fp4 NaN -> 0, e8m0 ties to
the even code and Inf -> 0xFE), the test states that rule and checks it separately."""

from __future__ import annotations

from pathlib import Path

import en_dtypes
import ml_dtypes
import numpy as np
import pytest

from ascsim.program import load_program

#: (C++ type, bytes per code, number of codes, the reference numpy dtype)
TYPES = {
    "half": (2, 1 << 16, np.dtype(np.float16)),
    "bfloat16_t": (2, 1 << 16, np.dtype(ml_dtypes.bfloat16)),
    "fp8_e4m3fn_t": (1, 256, np.dtype(ml_dtypes.float8_e4m3fn)),
    "fp8_e5m2_t": (1, 256, np.dtype(ml_dtypes.float8_e5m2)),
    "mx_fp8_e4m3_t": (1, 256, np.dtype(ml_dtypes.float8_e4m3fn)),
    "mx_fp8_e5m2_t": (1, 256, np.dtype(ml_dtypes.float8_e5m2)),
    "hifloat8_t": (1, 256, np.dtype(en_dtypes.hifloat8)),
    "fp8_e8m0_t": (1, 256, np.dtype(ml_dtypes.float8_e8m0fnu)),
    "fp4x2_e2m1_t": (1, 16, np.dtype(ml_dtypes.float4_e2m1fn)),
    "fp4x2_e1m2_t": (1, 16, np.dtype(en_dtypes.float4_e1m2)),
}

PROGRAM = r"""
#include "kernel_operator.h"
#include <cstdio>
#include <cstdint>
#include <cstring>
#include <vector>

static std::vector<double> read_doubles(const char* path) {
    std::vector<double> v;
    FILE* f = std::fopen(path, "rb");
    double x;
    while (f && std::fread(&x, sizeof x, 1, f) == 1) v.push_back(x);
    if (f) std::fclose(f);
    return v;
}

static void write(const char* stem, const char* name, const void* data, size_t n) {
    char path[256];
    std::snprintf(path, sizeof path, "%s_%s.bin", stem, name);
    FILE* f = std::fopen(path, "wb");
    std::fwrite(data, 1, n, f);
    std::fclose(f);
}

template <class T, class B>
static void one(const char* name, unsigned codes, const std::vector<double>& values) {
    std::printf("%s %zu %zu\n", name, sizeof(T), alignof(T));
    std::vector<float> dec(codes);
    for (unsigned c = 0; c < codes; ++c) dec[c] = float(T::from_bits(B(c)));
    write("dec", name, dec.data(), dec.size() * sizeof(float));
    std::vector<B> enc(values.size());
    for (size_t i = 0; i < values.size(); ++i) enc[i] = T(values[i]).raw();
    write("enc", name, enc.data(), enc.size() * sizeof(B));
}

template <class T>
static void arith(const char* name) {
    std::vector<double> raw = read_doubles("pairs.f64");  // code pairs, as doubles
    std::vector<uint16_t> out;
    for (size_t i = 0; i + 1 < raw.size(); i += 2) {
        T a = T::from_bits(uint16_t(raw[i])), b = T::from_bits(uint16_t(raw[i + 1]));
        T r[4] = {a + b, a - b, a * b, a / b};
        for (T x : r) out.push_back(x.raw());
    }
    write("arith", name, out.data(), out.size() * sizeof(uint16_t));
}

int main() {
    using namespace ascsim;
    char path[64];
#define ONE(T, B, N)                                      \
    std::snprintf(path, sizeof path, "values_%s.f64", #T); \
    one<T, B>(#T, N, read_doubles(path));
    ONE(half, uint16_t, 1u << 16)
    ONE(bfloat16_t, uint16_t, 1u << 16)
    ONE(fp8_e4m3fn_t, uint8_t, 256)
    ONE(fp8_e5m2_t, uint8_t, 256)
    ONE(mx_fp8_e4m3_t, uint8_t, 256)
    ONE(mx_fp8_e5m2_t, uint8_t, 256)
    ONE(hifloat8_t, uint8_t, 256)
    ONE(fp8_e8m0_t, uint8_t, 256)
    ONE(fp4x2_e2m1_t, uint8_t, 16)
    ONE(fp4x2_e1m2_t, uint8_t, 16)
    arith<half>("half");
    arith<bfloat16_t>("bfloat16_t");
    int4b_t w(11), n(-9), t(-3.7);
    std::printf("int4b_t %zu %d %d %d\n", sizeof(int4b_t), int(w), int(n), int(t));
    return 0;
}
"""


def _codes(dt: np.dtype, n: int) -> np.ndarray:
    raw = np.arange(n, dtype=np.uint16 if dt.itemsize == 2 else np.uint8)
    return raw.view(dt) if dt.itemsize == raw.itemsize else raw.astype(np.uint8).view(dt)


def _values(dt: np.dtype, n: int) -> np.ndarray:
    """Every finite value, every midpoint of neighbours and the doubles either side, and the extremes."""
    with np.errstate(invalid="ignore"):
        v = np.unique(_codes(dt, n).astype(np.float64))
    v = v[np.isfinite(v)]
    mid = (v[:-1] + v[1:]) / 2
    big = float(v.max())
    extra = [big * 1.5, big * 4, 1e300, -1e300, 0.0, -0.0, np.inf, -np.inf, np.nan, float(v[v > 0].min()) / 3]
    return np.concatenate([v, mid, np.nextafter(mid, np.inf), np.nextafter(mid, -np.inf), extra])


@pytest.fixture(scope="module")
def scalar_run(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str, dict]:
    d = tmp_path_factory.mktemp("scalars")
    src = d / "scalars.cpp"
    src.write_text(PROGRAM)
    values = {}
    for name, (_, n, dt) in TYPES.items():
        values[name] = _values(dt, n)
        values[name].tofile(d / f"values_{name}.f64")
    rng = np.random.default_rng(5)
    pairs = np.concatenate([rng.integers(0, 1 << 16, 40000), [0x7C00, 0xFC00, 0x7E01, 0x0001, 0x8000, 0x0000,
                                                              0x7BFF, 0x7BFF, 0x7FC0, 0x3C00]])
    pairs.astype(np.float64).tofile(d / "pairs.f64")
    run = load_program(src, "a2").run(cwd=d, capture=True)
    assert run.returncode == 0, run.stderr
    return d, run.stdout, {"values": values, "pairs": pairs.astype(np.uint16)}


def _read(d: Path, stem: str, name: str, dtype: np.dtype | type) -> np.ndarray:
    return np.fromfile(d / f"{stem}_{name}.bin", dtype=dtype)


@pytest.mark.parametrize("name", list(TYPES))
def test_size_and_alignment(scalar_run: tuple, name: str) -> None:
    _, out, _ = scalar_run
    line = next(x for x in out.splitlines() if x.split()[0] == name)
    size, align = map(int, line.split()[1:3])
    assert size == align == TYPES[name][0]


@pytest.mark.parametrize("name", list(TYPES))
def test_every_code_decodes_as_the_reference(scalar_run: tuple, name: str) -> None:
    d, _, _ = scalar_run
    _, n, dt = TYPES[name]
    got = _read(d, "dec", name, np.float32)
    with np.errstate(invalid="ignore"):
        want = _codes(dt, n).astype(np.float32)
    nan = np.isnan(want)
    assert np.array_equal(np.isnan(got), nan)
    assert np.array_equal(got[~nan].view(np.uint32), want[~nan].view(np.uint32))  # -0 included
    if name in ("half", "bfloat16_t"):  # the payload is kept, as numpy / ml_dtypes keep it
        assert np.array_equal(got[nan].view(np.uint32), want[nan].view(np.uint32))
    else:  # the 8-bit types' NaN codes decode as the quiet NaN with their sign (hifloat8's one NaN, 0x80: +)
        signed = name not in ("hifloat8_t", "fp8_e8m0_t")  # (e8m0 has no sign bit: 0xFF is +NaN)
        sign = (np.arange(n)[nan] >> 7) & 1 if signed else np.zeros(nan.sum(), int)
        assert np.array_equal(got[nan].view(np.uint32), (0x7FC00000 | (sign << 31)).astype(np.uint32))


def _as_bits(x: np.ndarray) -> np.ndarray:
    return x.view(np.uint16 if x.dtype.itemsize == 2 else np.uint8)


#: en_dtypes converts a double through float32 (two roundings); only float32-exact inputs compare directly
DOUBLE_ROUNDING = ("hifloat8_t", "fp4x2_e1m2_t")


def _nearest(x: np.ndarray, dt: np.dtype, n: int) -> np.ndarray:
    """The code of the representable value nearest x (x not a tie): the magnitude's code, with the
    format's sign bit (the top bit of the code) when x is negative."""
    with np.errstate(invalid="ignore"):
        vals = _codes(dt, n).astype(np.float64)
    half = n // 2  # codes [0, n/2) are the non-negative ones; n/2 is the sign bit
    grid = vals[:half]
    ok = np.isfinite(grid)
    order = np.argsort(grid[ok], kind="stable")
    g, gcode = grid[ok][order], np.arange(half)[ok][order]
    a = np.abs(x)
    hi = np.clip(np.searchsorted(g, a), 1, len(g) - 1)
    lo = hi - 1
    code = gcode[np.where(a - g[lo] <= g[hi] - a, lo, hi)]
    return np.where(np.signbit(x), code | half, code)


@pytest.mark.filterwarnings("ignore::RuntimeWarning")  # numpy's casts of out-of-range doubles
@pytest.mark.parametrize("name", [n for n in TYPES if n != "fp8_e8m0_t"])
def test_encoding_rounds_as_the_reference(scalar_run: tuple, name: str) -> None:
    """Round to nearest from the double, once (ties as the reference formats break them); overflow and NaN
    as they do, except fp4's NaN, which ascsim encodes as 0, and hifloat8's flush of |x| < 1.5 * 2^-23 to
    0x00 (Huawei's hif8 converter; en_dtypes rounds [2^-23, 1.5 * 2^-23) up) — docs/number_formats.md."""
    d, _, ctx = scalar_run
    nbytes, n, dt = TYPES[name]
    x = ctx["values"][name]
    got = _read(d, "enc", name, np.uint16 if nbytes == 2 else np.uint8)
    want = _as_bits(x.astype(dt)).copy()
    nan = np.isnan(x)
    if name.startswith("fp4"):
        want[nan] = 0
    if name == "hifloat8_t":
        assert np.all(got[nan] == 0x80)
        flush = np.abs(x) < 1.5 * 2.0**-23
        assert np.all(got[flush] == 0)
        nan |= flush
    elif not name.startswith("fp4"):
        assert np.all(np.isnan(got[nan].view(dt).astype(np.float32)))
    check = ~nan
    if name in DOUBLE_ROUNDING:
        exact = x.astype(np.float32).astype(np.float64) == x
        inexact = check & ~exact & np.isfinite(x) & (np.abs(x) < float(np.nanmax(np.abs(
            _codes(dt, n).astype(np.float64)[np.isfinite(_codes(dt, n).astype(np.float64))]))))
        assert np.array_equal(got[inexact], _nearest(x[inexact], dt, n).astype(got.dtype))
        check &= exact | ~np.isfinite(x)
    bad = np.nonzero(got[check] != want[check])[0]
    assert bad.size == 0, [(float(x[check][i]), hex(int(got[check][i])), hex(int(want[check][i])))
                           for i in bad[:8]]


def test_e8m0_encoding() -> None:
    """fp8_e8m0_t (2^(code-127), no sign, 0xFF NaN): a power of two is exact; between two powers the nearer
    one, a tie (3 * 2^(e-1)) to the even code; +Inf and overflow 0xFE, NaN 0xFF, below 2^-127 0x00
    (docs/number_formats.md: ml_dtypes >= 0.6 rounds ties up and maps Inf to NaN; ascsim keeps its
    encoder's rule). The exact cases are checked against ml_dtypes, the rule's own cases literally."""
    dt = np.dtype(ml_dtypes.float8_e8m0fnu)
    powers = np.ldexp(1.0, np.arange(-127, 128))
    assert np.array_equal(_as_bits(powers.astype(dt)), np.arange(0, 255, dtype=np.uint8))


def test_e8m0_cases(scalar_run: tuple) -> None:
    d, _, ctx = scalar_run
    x = ctx["values"]["fp8_e8m0_t"]
    got = _read(d, "enc", "fp8_e8m0_t", np.uint8)
    with np.errstate(divide="ignore", invalid="ignore"):
        e = np.floor(np.log2(np.abs(x)))
        frac = np.abs(x) / np.ldexp(1.0, np.nan_to_num(e, posinf=0, neginf=0).astype(int))
    code = np.clip(e + 127, 0, 254)
    up = (frac > 1.5) | ((frac == 1.5) & (code % 2 == 1))
    want = np.where(up, code + 1, code)
    want = np.where(np.abs(x) < 2.0 ** -127, 0, want)
    want = np.where(np.isinf(x) | (np.abs(x) >= 2.0 ** 127 * 1.5), 0xFE, np.clip(want, 0, 0xFE))
    want = np.where(np.isnan(x), 0xFF, want).astype(np.uint8)
    bad = np.nonzero(got != want)[0]
    assert bad.size == 0, [(float(x[i]), hex(int(got[i])), hex(int(want[i]))) for i in bad[:8]]


@pytest.mark.parametrize("name", ["half", "bfloat16_t"])
def test_arithmetic_is_correctly_rounded(scalar_run: tuple, name: str) -> None:
    """a + b, a - b, a * b, a / b on two codes: numpy's float16 and ml_dtypes' bfloat16 arithmetic (both
    compute in float32 and round once, which float32's 24 bits make the correctly rounded result)."""
    d, _, ctx = scalar_run
    dt = TYPES[name][2]
    p = ctx["pairs"]
    a, b = p[0::2].view(dt), p[1::2].view(dt)
    with np.errstate(all="ignore"):
        want = np.stack([a + b, a - b, a * b, a / b], axis=1).reshape(-1)
    got = _read(d, "arith", name, np.uint16)
    nan = np.isnan(want.astype(np.float32))
    assert np.array_equal(np.isnan(got.view(dt).astype(np.float32)), nan)
    bad = np.nonzero(got[~nan] != want.view(np.uint16)[~nan])[0]
    assert bad.size == 0, bad[:8]


def test_int4_wraps_and_truncates(scalar_run: tuple) -> None:
    """int4b_t keeps an integer's low 4 bits (two's complement) and truncates a float toward zero."""
    _, out, _ = scalar_run
    line = next(x for x in out.splitlines() if x.startswith("int4b_t"))
    size, w, n, t = map(int, line.split()[1:])
    assert size == 1
    assert (w, n, t) == (((11 + 8) % 16) - 8, ((-9 + 8) % 16) - 8, -3)


GLOBAL_OFFSETS = r"""
#include "kernel_operator.h"
#include <cstdio>
using namespace AscendC;
int main() {
    alignas(64) static uint8_t buf[256];
    GlobalTensor<int4b_t> g4;
    g4.SetGlobalBuffer(reinterpret_cast<__gm__ int4b_t*>(buf), 512);
    GlobalTensor<half> g16;
    g16.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(buf), 128);
    auto at = [&](const void* p) { return static_cast<long>(static_cast<const uint8_t*>(p) - buf); };
    std::printf("%ld %ld %ld %ld\n", at(g4[64].address_), at(g4[65].address_), at(g4[1].address_),
                at(g16[3].address_));
    return 0;
}
"""


def test_global_tensor_index_counts_elements_of_4_bit_types_in_half_bytes(tmp_path: Path) -> None:
    """`GlobalTensor<int4b_t>[n]` moves n / 2 bytes, rounded down (asc-devkit
    impl/basic_api/kernel_tensor_impl.h:1651-1673: `offset / INT4_TWO` for half-byte types); a 2-byte type
    moves 2n. (A planner kernel's second int4 A block at element 19200 was taken as byte 19200.)"""
    src = tmp_path / "offsets.cpp"
    src.write_text(GLOBAL_OFFSETS)
    run = load_program(src, "a2").run(cwd=tmp_path, capture=True)
    assert run.stdout.split() == ["32", "32", "0", "6"]
