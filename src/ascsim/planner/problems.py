"""What a plan solves: a matrix multiply or a 2-D convolution, with its checked shape, the host-side layout
of its inputs in GM, and an independent reference result.

References: numpy `A @ B` in int64 / float64 of the dtype-rounded inputs (products of the narrow types are
exact in float64, so the only difference from the cube is the order and precision of the float sums), and
for conv2d `torch.nn.functional.conv2d` in float64 when torch is installed, else a direct numpy
convolution written from the definition y[o, i, j] = Σ x[c, i·sh − pt + a·dh, j·sw − pl + b·dw] w[o, c, a, b]
(tests/planner/test_planner.py checks the two agree).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from ..base.errors import NotImplementedFeature, ParamRangeError
from ..isa.quant import deq_word
from ..machine.checks import pair
from ..machine.dtypes import DType, from_raw, get_dtype, to_raw
from ..machine.layouts import align, channel_groups, chw_to_fmap_l1


def rounded(dt: DType, x: np.ndarray) -> np.ndarray:
    """x rounded to dt's values (what writing it to a tensor stores), as float64 / int64."""
    v = from_raw(dt, to_raw(dt, np.asarray(x, dtype=np.float64)))
    return v.astype(np.int64 if dt.kind != "float" else np.float64)


def acc_type(dt: DType) -> DType:
    """The Mmad C type (L0C) for dt x dt operands: int32_t for integers, float otherwise (Mmad.md)."""
    return get_dtype("int32_t" if dt.kind == "int" else "float")


@dataclass(frozen=True)
class MatmulProblem:
    """C (m x n) = A (m x k) · B (k x n). a_trans / b_trans: the operand is stored in GM transposed (Aᵀ
    k x m, Bᵀ n x k, row-major) — "col" layouts of the CLI. bias: a vector of n values of the C type
    (int32 / float) added in L0C through the BiasTable (Mmad.md 表4); quant "deqf16": Fixpipe dequantises
    the int32 result to half, C·scale (随路量化.md DEQF16, the scale read as the hardware reads it)."""

    chip: str
    m: int
    n: int
    k: int
    dtype: str
    a_trans: bool = False
    b_trans: bool = False
    bias: bool = False
    quant: str | None = None
    scale: float = 2.0**-12

    def __post_init__(self) -> None:
        if self.quant not in (None, "deqf16"):
            raise ParamRangeError(f"plan matmul: quant must be deqf16 (or none), but got {self.quant!r}")
        for name in ("m", "n", "k"):
            v = getattr(self, name)
            if not isinstance(v, (int, np.integer)) or v < 1:
                raise ParamRangeError(f"plan matmul: {name} must be a positive integer, but got {v!r}")

    @property
    def dt(self) -> DType:
        return get_dtype(self.dtype)

    def describe(self) -> str:
        lay = f"A {'col' if self.a_trans else 'row'}, B {'col' if self.b_trans else 'row'}"
        extra = (" + bias" if self.bias else "") + (f", DEQF16 x {self.scale:g}" if self.quant else "")
        return f"matmul {self.m}x{self.n}x{self.k} (m x n x k) {self.dt.name}, {lay}-major{extra}"

    def stored(self, a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The GM matrices: A or Aᵀ, B or Bᵀ (logical A is m x k, B is k x n)."""
        return (a.T if self.a_trans else a), (b.T if self.b_trans else b)

    def random_inputs(self, seed: int = 0) -> dict[str, np.ndarray]:
        """Logical A, B (and bias) exactly representable in the dtype."""
        rng = np.random.default_rng(seed)
        dt = self.dt
        if dt.kind == "int":
            lo = -(1 << (dt.bits - 1))
            out = {"a": rng.integers(lo, -lo, (self.m, self.k)), "b": rng.integers(lo, -lo, (self.k, self.n))}
            if self.bias:
                out["bias"] = rng.integers(-100_000, 100_000, self.n)
        else:
            out = {"a": rounded(dt, rng.standard_normal((self.m, self.k))),
                   "b": rounded(dt, rng.standard_normal((self.k, self.n)))}
            if self.bias:
                out["bias"] = rng.standard_normal(self.n).astype(np.float32).astype(np.float64)
        return out

    def reference(self, inputs: dict[str, np.ndarray]) -> np.ndarray:
        dt = self.dt
        a, b = rounded(dt, inputs["a"]), rounded(dt, inputs["b"])
        bias = np.asarray(inputs["bias"]) if self.bias else np.zeros(self.n)
        if self.quant:
            return quant_matmul_reference(a, b, bias.astype(np.int64), self.scale).astype(np.float64)
        return a @ b + bias

    def tolerance(self, inputs: dict[str, np.ndarray]) -> np.ndarray | float:
        """Integers (and DEQF16, rounded once from an exact int32): exact. Floats: 2^-22 · k · (|A|·|B|) per
        element — a float32 sum of k exact products rounds by at most k ulps of the running magnitude; far
        below one misplaced element."""
        if self.dt.kind == "int":
            return 0.0
        a, b = np.abs(rounded(self.dt, inputs["a"])), np.abs(rounded(self.dt, inputs["b"]))
        return 2.0**-22 * self.k * (a @ b)


def pads_of(pad: int | Sequence[int]) -> tuple[int, int, int, int]:
    """padList [left, right, top, bottom] from an int, torch-style (ph, pw) or a 4-entry padList."""
    if not isinstance(pad, (int, np.integer)) and len(tuple(pad)) == 4:
        return tuple(int(x) for x in pad)  # type: ignore[return-value]
    ph, pw = pair("conv2d", "pad", pad)
    return pw, pw, ph, ph


@dataclass(frozen=True)
class ConvProblem:
    """y (N, Co, Ho, Wo) = conv2d(x (N, C, H, W), w (Co, C, kh, kw)), groups = 1, no bias. pads is padList
    [left, right, top, bottom] (LoadData_3D.md 表4)."""

    chip: str
    n: int
    c: int
    h: int
    w: int
    cout: int
    kh: int
    kw: int
    stride: tuple[int, int] = (1, 1)
    pads: tuple[int, int, int, int] = (0, 0, 0, 0)
    dilation: tuple[int, int] = (1, 1)
    dtype: str = "half"
    groups: int = 1

    def __post_init__(self) -> None:
        for name in ("n", "c", "h", "w", "cout", "kh", "kw"):
            v = getattr(self, name)
            if not isinstance(v, (int, np.integer)) or v < 1:
                raise ParamRangeError(f"conv2d: {name} must be a positive integer, but got {v!r}")
        if min(self.stride) < 1 or min(self.dilation) < 1 or min(self.pads) < 0:
            raise ParamRangeError(f"conv2d: stride and dilation must be >= 1 and pads >= 0, but got stride "
                                  f"{self.stride}, dilation {self.dilation}, pads {self.pads}")
        if self.groups != 1:
            raise NotImplementedFeature(f"conv2d: groups = {self.groups} (grouped / depthwise convolution) "
                                        "is not planned; only groups = 1")
        if self.out_h < 1 or self.out_w < 1:
            raise ParamRangeError(f"conv2d: output size {self.out_h} x {self.out_w} is empty")

    @property
    def dt(self) -> DType:
        return get_dtype(self.dtype)

    @property
    def out_h(self) -> int:
        span = (self.kh - 1) * self.dilation[0] + 1
        return (self.h + self.pads[2] + self.pads[3] - span) // self.stride[0] + 1

    @property
    def out_w(self) -> int:
        span = (self.kw - 1) * self.dilation[1] + 1
        return (self.w + self.pads[0] + self.pads[1] - span) // self.stride[1] + 1

    def describe(self) -> str:
        s, d, p = self.stride, self.dilation, self.pads
        return (f"conv2d x {self.n}x{self.c}x{self.h}x{self.w} (NCHW), "
                f"w {self.cout}x{self.c}x{self.kh}x{self.kw}, "
                f"stride {s[0]}x{s[1]}, padList {list(p)}, dilation {d[0]}x{d[1]}, {self.dt.name} -> "
                f"y {self.n}x{self.cout}x{self.out_h}x{self.out_w}")

    def random_inputs(self, seed: int = 0) -> dict[str, np.ndarray]:
        rng = np.random.default_rng(seed)
        dt = self.dt
        xs, ws = (self.n, self.c, self.h, self.w), (self.cout, self.c, self.kh, self.kw)
        if dt.kind == "int":
            lo = -(1 << (dt.bits - 1))
            return {"x": rng.integers(lo, -lo, xs), "w": rng.integers(lo, -lo, ws)}
        return {"x": rounded(dt, rng.standard_normal(xs)), "w": rounded(dt, rng.standard_normal(ws) / 4)}

    def reference(self, inputs: dict[str, np.ndarray]) -> np.ndarray:
        dt = self.dt
        return conv2d_reference(rounded(dt, inputs["x"]).astype(np.float64),
                                rounded(dt, inputs["w"]).astype(np.float64), self.stride, self.pads,
                                self.dilation)

    def tolerance(self, inputs: dict[str, np.ndarray]) -> np.ndarray | float:
        if self.dt.kind == "int":
            return 0.0
        ax = np.abs(rounded(self.dt, inputs["x"]).astype(np.float64))
        aw = np.abs(rounded(self.dt, inputs["w"]).astype(np.float64))
        k = self.c * self.kh * self.kw
        return 2.0**-22 * k * conv2d_reference(ax, aw, self.stride, self.pads, self.dilation, torch_ok=False)


def conv2d_reference(x: np.ndarray, w: np.ndarray, stride: tuple[int, int], pads: tuple[int, int, int, int],
                     dilation: tuple[int, int], torch_ok: bool = True) -> np.ndarray:
    """y = conv2d(x, w) in float64: torch.nn.functional.conv2d when importable (padList may be asymmetric:
    the input is padded first), else the direct sum over kernel points (module docstring)."""
    left, right, top, bottom = pads
    xp = np.pad(x, ((0, 0), (0, 0), (top, bottom), (left, right)))
    if torch_ok:
        try:
            import torch
        except ImportError:  # pragma: no cover - torch is a test dependency
            torch = None
        if torch is not None:
            return torch.nn.functional.conv2d(torch.from_numpy(xp), torch.from_numpy(w), stride=stride,
                                              dilation=dilation).numpy()
    n, _, hp, wp = xp.shape
    co, _, kh, kw = w.shape
    (sh, sw), (dh, dw) = stride, dilation
    ho = (hp - (kh - 1) * dh - 1) // sh + 1
    wo = (wp - (kw - 1) * dw - 1) // sw + 1
    y = np.zeros((n, co, ho, wo))
    for a in range(kh):
        for b in range(kw):
            rows = slice(a * dh, a * dh + sh * (ho - 1) + 1, sh)
            patch = xp[:, :, rows, b * dw : b * dw + sw * (wo - 1) + 1 : sw]
            y += np.einsum("nchw,oc->nohw", patch, w[:, :, a, b])
    return y


# -- host-side GM layouts ------------------------------------------------------------------------------


def matrix_gm(dt: DType, x: np.ndarray) -> tuple[np.ndarray, int]:
    """X as stored in GM (ND row-major) and its row pitch; int4 rows are padded to an even length (ND2NZ
    moves b4 as b8, DataCopy（GMToL1随路转换-ND2NZ搬运）.md 约束说明). Other matrices are returned as they
    are."""
    x = np.asarray(x)
    if not (dt.is_4bit and x.shape[1] % 2):
        return x, x.shape[1]
    data = np.zeros((x.shape[0], x.shape[1] + 1), dtype=np.float64 if dt.kind != "int" else np.int64)
    data[:, : x.shape[1]] = x
    return data, x.shape[1] + 1


def fmap_gm(dt: DType, x: np.ndarray, channels: int) -> tuple[np.ndarray, int]:
    """The feature maps of every image (N, C, H, W) in the Load3D L1 layout (`chw_to_fmap_l1`, `channels`
    channels with zeros appended), each image starting on a 32-B boundary, plus 32 B of slack (a packed
    tail's last DataCopy block may read past it). Returns (flat values, elements per image)."""
    n, c, h, w = x.shape
    per32 = 256 // dt.bits
    stride = align(channels * h * w, per32)
    # values already of the dtype's value type stay in it (written as bit patterns, no float64 pass)
    keep = x.dtype == dt.value_dtype and not dt.is_4bit
    wide = np.float64 if dt.kind != "int" else np.int64
    out = np.zeros(n * stride + per32, dtype=x.dtype if keep else wide)
    for i in range(n):
        xp = np.zeros((channels, h, w), dtype=out.dtype)
        xp[:c] = x[i]
        out[i * stride : i * stride + channels * h * w] = chw_to_fmap_l1(xp, dt.c0)
    return out, stride


def img2col_column(c: np.ndarray, kh: np.ndarray, kw: np.ndarray, channels: int, kh_n: int, kw_n: int,
                   c0: int) -> np.ndarray:
    """img2col column of (channel, kh, kw): group g starting at cs with n channels covers columns
    [Kh*Kw*cs, Kh*Kw*(cs+n)), inside it j = (kh*Kw + kw)*n + (c - cs) (docs/load3d.md "The img2col
    matrix")."""
    out = np.zeros(np.shape(c), dtype=np.int64)
    for cs, n in channel_groups(channels, c0):
        sel = (c >= cs) & (c < cs + n)
        out = np.where(sel, kh_n * kw_n * cs + (kh * kw_n + kw) * n + (c - cs), out)
    return out


def weights_to_b(w_oihw: np.ndarray, channels: int, c0: int) -> np.ndarray:
    """(Cout, Cin, Kh, Kw) -> B (K x Cout), K = channels*Kh*Kw in the img2col column order."""
    cout, cin, kh_n, kw_n = w_oihw.shape
    b = np.zeros((channels * kh_n * kw_n, cout), dtype=np.float64)
    c, kh, kw = np.meshgrid(np.arange(cin), np.arange(kh_n), np.arange(kw_n), indexing="ij")
    cols = img2col_column(c, kh, kw, channels, kh_n, kw_n, c0)
    b[cols.ravel(), :] = w_oihw.transpose(1, 2, 3, 0).reshape(-1, cout)
    return b


def quant_matmul_reference(a: np.ndarray, b: np.ndarray, bias: np.ndarray, scale: float) -> np.ndarray:
    """numpy: int64 matmul + bias, then the DEQF16 steps of 随路量化.md: int32 -> float32, times the scale
    with its low 13 mantissa bits cleared (a float32 product), cast to half."""
    acc = a.astype(np.int64) @ b.astype(np.int64) + bias.astype(np.int64)
    m1 = np.array([deq_word(scale)], np.uint32).view(np.float32)[0]
    return (acc.astype(np.int32).astype(np.float32) * m1).astype(np.float16)
