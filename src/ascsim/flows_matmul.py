"""Matrix-multiply flows end to end: GM ND -> DataCopy Nd2Nz -> L1 -> L0A/L0B -> Mmad -> Fixpipe -> GM.

`matmul` computes C = op(A)·op(B) (A logical m x k, B logical k x n) with the operands stored in GM as
ND row-major matrices: A as [m, k], or Aᵀ [k, m] when `a_trans`; B as [k, n], or Bᵀ [n, k] when
`b_trans` (CONCEPTS §8: ND2NZ, Mmad, Fixpipe NZ2ND). Each operand is copied to L1 as Nz (DataCopy with
Nd2NzParams, column height S = align(rows, 64)) and from there into the layout Mmad reads:
L0A Zz(A) (A2/A3) or Nz(A) (950), L0B Zn(B) = Nz(Bᵀ) (CONCEPTS §2). Whether that L1 -> L0 move needs an
in-fractal transpose follows 矩阵计算输入搬运约束.md 表5: "A转置" and "B不转置" do, "A不转置" and "B转置"
do not. The loads (`a_load` / `b_load`):

- load2d: LoadData2DParams (v1), one call per fractal row / column (LoadData_2D.md 调用示例),
  ifTranspose for b16;
- transpose: LoadDataWithTranspose (V1 on A2/A3, V2 on 950), square by square (LoadDataWithTranspose.md
  调用示例); b32 on A2/A3 reads a 16-row banded L1 layout (Nz "当且仅当Row==16");
- load3d: Load3D v2 in its 2-D use, l1H = 1, l1W = S, Kh = Kw = 1 (CONCEPTS §3.9), enTranspose for a
  transposed A;
- load2dv2: LoadData2DParamsV2 (950), one call per tile, ifTranspose when needed (LoadData_2D_V2.md).

Which load is legal for (chip, dtype, side, transposed) is derived from the chip tables (`ascsim.chips`,
which cite LoadData_2D.md / LoadDataWithTranspose.md / LoadData_3D.md 数据类型 and 约束说明) plus the
structural rules of 表5 (a transpose-free move cannot use LoadDataWithTranspose; Load3D into L0B always
transposes its window, so a B stored transposed cannot use it). "auto" picks the doc's recommendation:
Load3D on A2/A3 (表5 推荐使用), LoadData2DV2 on 950 (表5 id8).

Padding conventions: squares force the padded extents of the L0 layouts (b8 squares are 32 x 32, b4
64 x 64), so each load reports the row pitch it wrote — Mmad then runs with m = Ha (the L0A row height)
and n = Nb (the L0B N pitch), and Fixpipe copies only the valid m x n block (an over-tall L0A
needs a larger m, CONCEPTS §8). float A loaded transposed on A2/A3 gets a K pitch of ceil(k/16)*2
fractals, so Mmad runs with kDirectionAlign = true (K-方向对齐约束.md 2). int4 Mmad needs an even k
(Mmad.md 表7): k is rounded up, the extra A column being the zero fill of ND2NZ.

`sparse_matmul` (A2/A3): densify_2to4 + LoadDataWithSparse + MmadWithSparse (CONCEPTS §6).
`mx_matmul` (950): MX fp8/fp4 with e8m0 scales via Load2DMX + MmadMx (CONCEPTS §7).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .core import Core
from .dtypes import DType, get_dtype
from .errors import ParamRangeError, UnsupportedError
from .flows import flow_stats, mmad_c_type
from .layouts import R0, align, cdiv
from .memory import LocalTensor
from .params import (
    FixpipeParamsArch3510,
    FixpipeParamsV220,
    LoadData2DMxParams,
    LoadData2DParams,
    LoadData2DParamsV2,
    LoadData2dTransposeParams,
    LoadData2dTransposeParamsV2,
    LoadData3DParamsV2,
    MmadParams,
    Nd2NzParams,
    Nz2NdParams,
)
from .plan import ExecReport

LOADS = ("load2d", "transpose", "load3d", "load2dv2")
_API = {"load2d": "LoadData2D", "transpose": "LoadDataWithTranspose", "load3d": "Load3Dv2",
        "load2dv2": "LoadData2Dv2"}
# auto: the doc's recommendation first (表5: Load3D "推荐使用" on A2/A3; 表5 id8: LoadData2DV2 on 950).
_PREFERENCE = {"ZZ": ("load3d", "transpose", "load2d"), "NZ": ("load2dv2", "load3d", "transpose", "load2d")}
_G = 64  # tile origins and L1 column heights are multiples of 64: every square / fractal stays aligned
_TABLE5 = "矩阵计算输入搬运约束.md 表5"


# ==================================================================================================
# Which load is legal
# ==================================================================================================


def _needs_transpose(side: str, trans: bool) -> bool:
    """表5: L1 holds Nz of the stored matrix; A转置 and B不转置 need an in-fractal transpose."""
    return trans if side == "a" else not trans


def why_illegal(core: Core, dtype: str, side: str, trans: bool, load: str) -> str | None:
    """None if `load` can move this operand, else the reason (with its doc citation)."""
    chip, dt = core.chip, get_dtype(dtype)
    dst = "L0A" if side == "a" else "L0B"
    what = ("A" if side == "a" else "B") + (" stored transposed" if trans else "")
    need_t = _needs_transpose(side, trans)
    if load not in LOADS:
        return f"unknown load {load!r}; one of {', '.join(LOADS)}"
    api = _API[load]
    if api not in chip.apis:
        return f"{api} does not exist on {chip.name} (LoadData2DParamsV2: Ascend 950 only, LoadData_2D_V2.md)"
    if not chip.supports(api, dt.name, "L1", dst):
        return f"{api} does not move {dt.name} L1->{dst} on {chip.name} ({chip.apis[api].notes})"
    if load == "transpose" and not need_t:
        row = "'A不转置' lists LoadData2D / Load3D" if side == "a" else "'B转置' lists LoadData2D only"
        return (f"LoadDataWithTranspose always transposes its squares, but {what} needs a plain fractal "
                f"copy into {dst} ({_TABLE5} {row})")
    if load == "load3d" and side == "b" and trans:
        return (f"Load3D into L0B always transposes its window (LoadData_3D.md 约束说明: L0B gets Zn of the "
                f"window), so a B stored transposed cannot use it ({_TABLE5} 'B转置' lists LoadData2D only)")
    if load == "load3d" and side == "a" and trans and not chip.can_transpose(api, dt.name, "L0A"):
        return (f"Load3D enTranspose does not support {dt.name} on {chip.name} (LoadData_3D.md "
                f"entranspose_constraint; {_TABLE5})")
    if load in ("load2d", "load2dv2") and need_t and not chip.can_transpose(api, dt.name, dst):
        doc = "LoadData_2D.md 约束说明: ifTranspose b16 only" if load == "load2d" else "LoadData_2D_V2.md"
        return f"{api} ifTranspose does not support {dt.name} into {dst} on {chip.name} ({doc}; {_TABLE5})"
    return None


def legal_loads(core: Core, dtype: str, side: str, trans: bool) -> tuple[str, ...]:
    """The loads that can move this operand, in the order "auto" prefers them."""
    return tuple(ld for ld in _PREFERENCE[core.chip.l0a_format]
                 if why_illegal(core, dtype, side, trans, ld) is None)


def _resolve(core: Core, dt: DType, side: str, trans: bool, load: str) -> str:
    legal = legal_loads(core, dt.name, side, trans)
    name = f"{side}_load"
    if load != "auto" and load not in LOADS:
        raise ParamRangeError(f"matmul: {name} must be 'auto' or one of {', '.join(LOADS)}, but got {load!r}")
    if load == "auto":
        if not legal:
            raise UnsupportedError(
                f"matmul: {name} 'auto' found no load for {'A' if side == 'a' else 'B'} "
                f"({dt.name}, {side}_trans={trans}) on {core.chip.name}: "
                + "; ".join(f"{ld}: {why_illegal(core, dt.name, side, trans, ld)}"
                            for ld in _PREFERENCE[core.chip.l0a_format]))
        return legal[0]
    why = why_illegal(core, dt.name, side, trans, load)
    if why is not None:
        raise UnsupportedError(f"matmul: {name} must be one of {', '.join(legal) or 'none'} for "
                               f"{dt.name} with {side}_trans={trans} on {core.chip.name}, but got "
                               f"{load!r}: {why}")
    return load


# ==================================================================================================
# GM -> L1
# ==================================================================================================


@dataclass
class L1Matrix:
    """A stored matrix X (rows x cols) in L1.

    Nz: column height `height` rows (fractal (rb, cb) at cb*height/16 + rb). Banded (b32 squares on
    A2/A3, "Nz当且仅当Row==16", 矩阵计算输入搬运约束.md): 16-row bands, each an Nz of height 16 and
    `band_width` columns, i.e. fractal (rb, cb) at rb*band_width/8 + cb.
    """

    t: LocalTensor
    rows: int
    cols: int
    height: int
    banded: bool = False
    band_width: int = 0

    @property
    def frac(self) -> int:
        return 4096 // self.t.dtype.bits  # elements in one 512-B fractal

    @property
    def sf(self) -> int:
        return self.height // R0  # fractals per Nz column

    def at(self, rb: int, cb: int) -> LocalTensor:
        """The tensor starting at fractal (row block rb of 16, column block cb of C0)."""
        idx = rb * (self.band_width // 8) + cb if self.banded else cb * self.sf + rb
        return self.t[idx * self.frac]


def _gm_matrix(core: Core, dt: DType, x: np.ndarray) -> tuple[LocalTensor, int]:
    """X in GM as ND; int4 rows are padded to an even length (ND2NZ moves b4 as b8, 约束说明)."""
    pitch = x.shape[1] + (x.shape[1] % 2 if dt.is_4bit else 0)
    data = np.zeros((x.shape[0], pitch), dtype=np.float64 if dt.kind != "int" else np.int64)
    data[:, : x.shape[1]] = x
    return core.global_tensor(dt, data), pitch


def _to_l1(core: Core, position: str, dt: DType, x: np.ndarray, banded: bool, offset: int,
           reports: list[ExecReport]) -> L1Matrix:
    """DataCopy GM ND -> L1 Nz with Nd2NzParams (DataCopy（GMToL1随路转换-ND2NZ搬运）.md 表3)."""
    rows, cols = x.shape
    gm, pitch = _gm_matrix(core, dt, x)
    u = 2 if dt.is_4bit else 1  # b4: every parameter in b8 units
    if banded:
        width = align(cols, 16)
        bands = cdiv(rows, R0)
        t = core.tensor(position, dt, bands * R0 * width + 64, offset=offset)
        full, tail = divmod(rows, R0)
        # ndNum 16-row ND matrices, each an Nz of height 16 -> the banded layout in one call
        if full:
            reports.append(core.data_copy(t, gm, Nd2NzParams(full, R0, cols, R0 * pitch, pitch, R0, 1,
                                                             R0 * width)))
        if tail:
            reports.append(core.data_copy(t[full * R0 * width], gm[full * R0 * pitch],
                                          Nd2NzParams(1, tail, cols, 0, pitch, R0, 1, 0)))
        return L1Matrix(t, rows, cols, R0, True, width)
    height = align(rows, _G)
    t = core.tensor(position, dt, height * align(cols, _G), offset=offset)
    reports.append(core.data_copy(t, gm, Nd2NzParams(1, rows, cdiv(cols, u), 0, pitch // u, height, 1, 0)))
    return L1Matrix(t, rows, cols, height)


# ==================================================================================================
# L1 -> L0A: each returns Ha, the L0A row height Mmad must use (its m)
# ==================================================================================================


def _load3d_params(x: L1Matrix, dt: DType, m0: int, m_ext: int, k0: int, k_ext: int, transpose: bool
                   ) -> LoadData3DParamsV2:
    """The 2-D use of Load3D (CONCEPTS §3.9): W = the stored Nz matrix, window rows [m0, m0+m_ext),
    columns [k0, k0+k_ext)."""
    return LoadData3DParamsV2([0, 0, 0, 0], 1, x.height, align(x.cols, dt.c0), k_ext, m_ext, k0, m0,
                              enTranspose=transpose, padValue=0)


def _load_a(core: Core, load: str, trans: bool, x: L1Matrix, a2: LocalTensor, m0: int, mt: int, k0: int,
            kt: int, reports: list[ExecReport]) -> tuple[int, bool]:
    """Move the A tile (rows m0.., cols k0..; mt x kt) into L0A. Returns (Ha, kDirectionAlign)."""
    dt = a2.dtype
    c0, frac, bits = dt.c0, x.frac, dt.bits
    zz = core.chip.l0a_format == "ZZ"
    m1, k1 = cdiv(mt, R0), cdiv(kt, c0)
    add = reports.append
    if not trans:  # X = A (rows m, cols k): Nz -> Zz (A2) / Nz -> Nz (950), fractals unchanged
        if load == "load3d":
            add(core.load_data(a2, x.t, _load3d_params(x, dt, m0, R0 * m1, k0, c0 * k1, False)))
        elif load == "load2dv2":
            add(core.load_data(a2, x.t, LoadData2DParamsV2(m0 // R0, k0 // c0, m1, k1, x.sf, m1)))
        elif zz:  # load2d, LoadData_2D.md 调用示例一: one call per fractal row of A
            for i in range(m1):
                add(core.load_data(a2[i * k1 * frac], x.at(m0 // R0 + i, k0 // c0),
                                   LoadData2DParams(0, k1, x.sf)))
        else:  # load2d on 950: one call per Nz column (consecutive fractals)
            for j in range(k1):
                add(core.load_data(a2[j * m1 * frac], x.at(m0 // R0, k0 // c0 + j),
                                   LoadData2DParams(0, m1, 1)))
        return R0 * m1, False
    # X = Aᵀ (rows k, cols m): every fractal is transposed
    if load == "load3d":  # enTranspose: L0A gets Zz(Wᵀ) / Nz(Wᵀ) of the window W = Aᵀ tile
        m_ext = align(kt, 32 if bits == 8 else R0)
        k_ext = align(mt, c0)
        add(core.load_data(a2, x.t, _load3d_params(x, dt, k0, m_ext, m0, k_ext, True)))
        # A2 b32: the Zz pitch of Wᵀ is m_ext/8 = ceil(k/16)*2 fractals (CONCEPTS §3.2) -> kDirectionAlign
        return align(k_ext, R0), zz and bits == 32
    if load == "load2dv2":  # region R = Aᵀ tile, destination Nz(Rᵀ) = Nz(A) (LoadData_2D_V2.md 表3)
        q = {4: 4, 8: 2}.get(bits, 1)  # mStep multiple of 4 (b4) / 2 (b8)
        m_step = align(cdiv(kt, R0), q)
        k_step = align(cdiv(mt, c0), 2 if bits == 32 else 1)  # b32: kStep even
        ha = k_step * c0
        add(core.load_data(a2, x.t, LoadData2DParamsV2(k0 // R0, m0 // c0, m_step, k_step, x.sf, ha // R0,
                                                       True)))
        return ha, False
    if load == "load2d":  # b16 ifTranspose
        kf = cdiv(kt, R0)
        if zz:  # LoadData_2D.md 调用示例二: per m fractal row, K fractals down the Aᵀ column
            for i in range(m1):
                add(core.load_data(a2[i * kf * frac], x.at(k0 // R0, m0 // R0 + i),
                                   LoadData2DParams(0, kf, 1, ifTranspose=True)))
        else:  # 950: per K fractal column of Nz(A), walk the Aᵀ fractal row
            for j in range(kf):
                add(core.load_data(a2[j * m1 * frac], x.at(k0 // R0 + j, m0 // R0),
                                   LoadData2DParams(0, m1, x.sf, ifTranspose=True)))
        return R0 * m1, False
    # LoadDataWithTranspose into L0A (A2/A3 only), LoadDataWithTranspose.md 调用示例
    if bits == 16:
        for i in range(m1):
            add(core.load_data_with_transpose(a2[i * k1 * frac], x.at(k0 // R0, m0 // R0 + i),
                                              LoadData2dTransposeParams(0, k1, 1, 0, k1 - 1)))
        return R0 * m1, False
    if bits == 8:  # 32x32 squares: two stacked Aᵀ fractals -> A fractal rows 2i, 2i+1
        m2 = cdiv(mt, 32)
        for i in range(m2):
            add(core.load_data_with_transpose(a2[i * 2 * k1 * frac], x.at(k0 // R0, m0 // 32 + i),
                                              LoadData2dTransposeParams(0, k1, 1, 0, k1 - 1)))
        return 32 * m2, False
    # b32 (float example, "Zz -> Zz"): banded Aᵀ, a square = 16 k-rows x 16 m-cols; the Zz K pitch is
    # 2*ceil(k/16) fractals -> kDirectionAlign (K-方向对齐约束.md)
    k16 = cdiv(kt, R0)
    for i in range(m1):
        add(core.load_data_with_transpose(a2[i * 2 * k16 * frac], x.at(k0 // R0, m0 // 8 + 2 * i),
                                          LoadData2dTransposeParams(0, k16, x.band_width // R0, 1, 0)))
    return R0 * m1, True


# ==================================================================================================
# L1 -> L0B: each returns Nb, the L0B N pitch (Mmad's n)
# ==================================================================================================


def _load_b(core: Core, load: str, trans: bool, x: L1Matrix, b2: LocalTensor, k0: int, kt: int, n0: int,
            nt: int, reports: list[ExecReport]) -> int:
    """Move the B tile (k0.., n0..; kt x nt) into L0B as Zn(B) = Nz(Bᵀ). Returns Nb."""
    dt = b2.dtype
    c0, frac, bits = dt.c0, x.frac, dt.bits
    is950 = core.chip.l0a_format == "NZ"
    n1, kf = cdiv(nt, R0), cdiv(kt, c0)
    add = reports.append
    if trans:  # X = Bᵀ (rows n, cols k) is already Nz(Bᵀ): fractal copy (表5 B转置: LoadData2D)
        if load == "load2dv2":
            add(core.load_data(b2, x.t, LoadData2DParamsV2(n0 // R0, k0 // c0, n1, kf, x.sf, n1)))
        else:
            for j in range(kf):
                add(core.load_data(b2[j * n1 * frac], x.at(n0 // R0, k0 // c0 + j),
                                   LoadData2DParams(0, n1, 1)))
        return R0 * n1
    # X = B (rows k, cols n): every fractal is transposed
    if load == "load3d":  # L0B gets Zn(W) = Nz(Wᵀ) of W = B tile, column stride ceil(kExt/16)
        k_ext = align(nt, c0)
        add(core.load_data(b2, x.t, _load3d_params(x, dt, k0, align(kt, 32 if bits == 8 else R0), n0,
                                                   k_ext, False)))
        return align(k_ext, R0)
    if load == "load2dv2":  # region R = B tile, Nz(Rᵀ) = Zn(B)
        q = {4: 4, 8: 2}.get(bits, 1)
        k_step = align(cdiv(nt, c0), 2 if bits == 32 else 1)
        nb = k_step * c0
        add(core.load_data(b2, x.t, LoadData2DParamsV2(k0 // R0, n0 // c0, align(cdiv(kt, R0), q), k_step,
                                                       x.sf, nb // R0, True)))
        return nb
    if load == "load2d":  # b16 ifTranspose: per K fractal row, walk the B fractal row
        for j in range(cdiv(kt, R0)):
            add(core.load_data(b2[j * n1 * frac], x.at(k0 // R0 + j, n0 // R0),
                               LoadData2DParams(0, n1, x.sf, ifTranspose=True)))
        return R0 * n1
    # LoadDataWithTranspose (V1 on A2/A3, V2 on 950), LoadDataWithTranspose.md 调用示例
    if bits == 32 and not is950:  # banded B, square = 16 k x 16 n; out0/out1 = Zn rows 2kb, 2kb+1
        for kb in range(cdiv(kt, R0)):
            add(core.load_data_with_transpose(b2[kb * 2 * n1 * frac], x.at(k0 // R0 + kb, n0 // 8),
                                              LoadData2dTransposeParams(0, n1, 1, 0, n1 - 1)))
        return R0 * n1
    if bits == 32:  # V2 from plain Nz: the two side-by-side fractals are a column (sf fractals) apart
        for kb in range(cdiv(kt, R0)):
            p2 = LoadData2dTransposeParamsV2(0, n1, 2 * x.sf, 0, n1 - 1, x.sf - 1)
            add(core.load_data_with_transpose(b2[kb * 2 * n1 * frac], x.at(k0 // R0 + kb, n0 // 8), p2))
        return R0 * n1
    nf = {4: 4, 8: 2, 16: 1}[bits]  # stacked fractals per square
    side = R0 * nf
    nq = cdiv(nt, side)
    for j in range(kf):  # one Zn fractal row (K0 = C0 rows of k) per call
        src = x.at(k0 // R0 + nf * j, n0 // side)
        if is950:  # V2 counts fractals: next square one Nz column (sf fractals) on
            p: object = LoadData2dTransposeParamsV2(0, nq, x.sf, nf - 1, 0, 0)
        else:  # V1 counts squares of nf fractals
            p = LoadData2dTransposeParams(0, nq, x.sf // nf, nf - 1, 0)
        add(core.load_data_with_transpose(b2[j * nf * nq * frac], src, p))
    return side * nq


# ==================================================================================================
# matmul
# ==================================================================================================


def _tiles(m: int, n: int, k: int, dt: DType, core: Core, tiles: tuple[int, int, int] | None
           ) -> tuple[int, int, int]:
    """(mt, nt, kt): multiples of 64 (or the whole dimension); the padded tiles must fit L0A/L0B/L0C."""
    l0a, l0b, l0c = (core.memory(x).size for x in ("L0A", "L0B", "L0C"))
    if tiles is None:
        mt, nt = min(m, 128), min(n, 128)
        kt = min(k, max(_G, (min(l0a, l0b) // 2) * 8 // dt.bits // 128 // _G * _G))
    else:
        mt, nt, kt = (int(v) for v in tiles)
        for name, v, full in (("mt", mt, m), ("nt", nt, n), ("kt", kt, k)):
            if v < 1 or (v % _G and v < full):
                raise ParamRangeError(f"matmul: tiles {name} must be a multiple of {_G} or >= the whole "
                                      f"dimension ({full}), but got {v}")
    am, an, ak = align(min(mt, m), _G), align(min(nt, n), _G), align(min(kt, k), _G)
    if am * ak * dt.bits // 8 > l0a or ak * an * dt.bits // 8 > l0b or am * an * 4 > l0c:
        raise ParamRangeError(f"matmul: tiles (mt, nt, kt) = {(mt, nt, kt)} padded to {(am, an, ak)} do not "
                              f"fit L0A ({l0a} B), L0B ({l0b} B) and L0C ({l0c} B) for {dt.name}")
    return mt, nt, kt


def _fixpipe(core: Core, c_gm: LocalTensor, l0c: LocalTensor, m: int, n: int, ha: int, ld: int
             ) -> ExecReport:
    """Fixpipe NZ2ND L0C -> GM: m x n valid block, L0C column height ha, GM row length ld (NZ2ND.md)."""
    if core.chip.key == "ascend950":
        p: object = FixpipeParamsArch3510(n, m, ha, ld, params=Nz2NdParams(1, 0, 0))
    else:
        p = FixpipeParamsV220(n, m, ha, ld, ndNum=1)
    return core.fixpipe(c_gm, l0c, p)


def _as_matrix(name: str, x: object) -> np.ndarray:
    a = np.asarray(x)
    if a.ndim != 2 or 0 in a.shape:
        raise ParamRangeError(f"matmul: {name} must be a non-empty 2-D matrix, but got shape {a.shape}")
    return a


def matmul(core: Core, a, b, *, a_trans: bool = False, b_trans: bool = False, a_load: str = "auto",
           b_load: str = "auto", dtype: str | None = None, tiles: tuple[int, int, int] | None = None
           ) -> tuple[np.ndarray, dict]:
    """C = op(A)·op(B) on the simulated cube; `a` / `b` are the matrices as stored in GM (Aᵀ / Bᵀ when
    the flag is set). Returns (c, stats); c is int32 (int operands) or float32, m x n.

    `dtype` defaults to `a.dtype` (int8 -> int8_t, float16 -> half, ml_dtypes bfloat16 / int4, float32);
    the inputs are rounded to it. stats: instructions (count by kind), bytes_moved (bytes written by all
    instructions, DataCopy and Fixpipe included), tiles, tile_shape, loads (a_load, b_load resolved).
    """
    a, b = _as_matrix("a", a), _as_matrix("b", b)
    try:
        dt = get_dtype(dtype if dtype is not None else a.dtype)
    except UnsupportedError as e:
        raise UnsupportedError(f"matmul: dtype must name an ascsim element type, but got "
                               f"{dtype if dtype is not None else a.dtype} ({e})") from None
    ct = mmad_c_type(core, dt, "matmul")
    m, k = (a.shape[1], a.shape[0]) if a_trans else a.shape
    kb_, n = (b.shape[1], b.shape[0]) if b_trans else b.shape
    if kb_ != k:
        raise ParamRangeError(f"matmul: op(A) is {m} x {k} but op(B) is {kb_} x {n}; K must agree")
    la = _resolve(core, dt, "a", bool(a_trans), a_load)
    lb = _resolve(core, dt, "b", bool(b_trans), b_load)
    mt, nt, kt = _tiles(m, n, k, dt, core, tiles)

    reports: list[ExecReport] = []
    zz = core.chip.l0a_format == "ZZ"
    # b32 squares on A2/A3 need the 16-row banded L1 layout (Nz "当且仅当Row==16")
    band_a = zz and dt.bits == 32 and la == "transpose"
    band_b = zz and dt.bits == 32 and lb == "transpose"
    xa = _to_l1(core, "A1", dt, a, band_a, 0, reports)
    b_off = align(xa.t.nbytes, 512)
    need = b_off + (align(b.shape[0], _G) + R0) * align(b.shape[1], _G) * dt.bits // 8
    if need > core.memory("L1").size:
        raise NotImplementedError(f"matmul: A and B need about {need} B of L1 ({core.memory('L1').size} B); "
                                  "L1 tiling is not implemented")
    xb = _to_l1(core, "B1", dt, b, band_b, b_off, reports)
    c_gm = core.global_tensor(ct, m * n)

    a_len = align(min(mt, m), _G) * align(min(kt, k), _G)
    b_len = align(min(kt, k), _G) * align(min(nt, n), _G)
    n_tiles = 0
    for m0 in range(0, m, mt):
        me = min(mt, m - m0)
        for n0 in range(0, n, nt):
            ne = min(nt, n - n0)
            l0c = core.tensor("CO1", ct, align(me, _G) * align(ne, _G), offset=0)
            ha = nb = R0
            for k0 in range(0, k, kt):
                ke = min(kt, k - k0)
                a2 = core.tensor("A2", dt, a_len, offset=0)
                b2 = core.tensor("B2", dt, b_len, offset=0)
                ha, kda = _load_a(core, la, bool(a_trans), xa, a2, m0, me, k0, ke, reports)
                nb = _load_b(core, lb, bool(b_trans), xb, b2, k0, ke, n0, ne, reports)
                k_mmad = align(ke, 2) if dt.is_4bit else ke  # s4 x s4 needs an even k (Mmad.md)
                p = MmadParams(ha, nb, k_mmad, kDirectionAlign=kda, cmatrixInitVal=(k0 == 0))
                reports.append(core.mmad(l0c, a2, b2, p))
                n_tiles += 1
            reports.append(_fixpipe(core, c_gm[m0 * n + n0], l0c, me, ne, ha, n))
    c = c_gm.read().reshape(m, n)
    stats = flow_stats(reports, tiles=n_tiles, tile_shape=(mt, nt, kt), loads=(la, lb))
    return c.astype(np.int32 if ct.kind == "int" else np.float32), stats


# ==================================================================================================
# 2:4 sparse (A2/A3) and MX (950)
# ==================================================================================================


def sparse_matmul(core: Core, a_int8, b_2to4_int8, *, a_load: str = "auto") -> tuple[np.ndarray, dict]:
    """C = A·B (int8 -> int32) with B 4:2-sparse (at most 2 nonzeros per 4 consecutive K rows), A2/A3.

    Offline (host) step, as in the official mmad_with_sparse example: `densify_2to4` B, store dense
    Bdᵀ [n, Kd] in GM (ND2NZ turns it into Nz(Bdᵀ) = Zn(Bd), the layout LoadDataWithSparse reads) and the
    packed 2-bit indices (`pack_sparse_index`, Zn 128-B fractals) for a plain DataCopy. Then
    LoadDataWithSparse (dense fractals -> L0B, indices -> the index buffer) and MmadWithSparse
    (LoadDataWithSparse.md, MmadWithSparse.md; CONCEPTS §6). A uses the `matmul` A loads. One tile only.
    """
    from .isa.sparse import densify_2to4, pack_sparse_index

    instr = "sparse_matmul"
    core.chip.check("MmadWithSparse", instr=instr)
    a, b = _as_matrix("a", a_int8), _as_matrix("b", b_2to4_int8)
    if a.dtype != np.int8 or b.dtype != np.int8:
        raise ParamRangeError(f"{instr}: a and b must be int8 arrays, but got {a.dtype} and {b.dtype}")
    m, k = a.shape
    if b.shape[0] != k:
        raise ParamRangeError(f"{instr}: A is {m} x {k} but B is {b.shape[0]} x {b.shape[1]}; K must agree")
    n = b.shape[1]
    dt = get_dtype("int8_t")
    dense, codes = densify_2to4(b)
    kd = dense.shape[0]
    la = _resolve(core, dt, "a", False, a_load)
    kd1, n1 = cdiv(kd, 32), cdiv(n, R0)
    if (align(m, _G) * align(k, _G) > core.memory("L0A").size or kd1 * n1 * 512 > core.memory("L0B").size
            or align(m, R0) * n1 * R0 * 4 > core.memory("L0C").size):
        raise NotImplementedError(f"{instr}: {m}x{k}x{n} does not fit one L0 tile; tiling is not implemented")
    reports: list[ExecReport] = []
    xa = _to_l1(core, "A1", dt, a, False, 0, reports)
    xb = _to_l1(core, "B1", dt, dense.T, False, align(xa.t.nbytes, 512), reports)  # Nz(Bdᵀ) = Zn(Bd)
    idx_raw = pack_sparse_index(codes)
    idx_gm = core.global_tensor("uint8_t", idx_raw)
    idx_l1 = core.tensor("B1", "uint8_t", idx_raw.size)
    reports.append(core.data_copy(idx_l1, idx_gm, idx_raw.size))
    a2 = core.tensor("A2", dt, align(m, _G) * align(k, _G), offset=0)
    ha, _ = _load_a(core, la, False, xa, a2, 0, m, 0, k, reports)
    b2 = core.tensor("B2", dt, kd1 * n1 * 512, offset=0)
    # Zn(Bd) needs N1 = ceil(n/16) fractals per K row; L1 holds Nz(Bdᵀ) with column height align(n, 64)
    for j in range(kd1):  # one K fractal row per call: startIndex counts fractals of the src tensor
        src = xb.at(0, j)
        reports.append(core.load_data_with_sparse(b2[j * n1 * 512], src, idx_l1[j * n1 * 128],
                                                  LoadData2DParams(0, n1)))
    c = core.tensor("CO1", "int32_t", ha * n1 * R0, offset=0)
    reports.append(core.mmad_with_sparse(c, a2, b2, MmadParams(ha, n, k)))
    c_gm = core.global_tensor("int32_t", m * n)
    reports.append(_fixpipe(core, c_gm, c, m, n, ha, n))
    stats = flow_stats(reports, tiles=1, loads=(la, "sparse"))
    return c_gm.read().reshape(m, n).astype(np.int32), stats


MX_FORMATS = {"e4m3": "fp8_e4m3fn_t", "e5m2": "fp8_e5m2_t", "e2m1": "fp4x2_e2m1_t", "e1m2": "fp4x2_e1m2_t"}


def mx_scale_layout(scales: np.ndarray) -> np.ndarray:
    """e8m0 codes S (rows x K/32, one per 32 K elements) -> the L0A_MX/L0B_MX byte layout MmadMx reads:
    16 x 2 fractals, ceil(K/64) per 16 rows, row-major inside (scaleA Zz; scaleB is the same for Bᵀ,
    辅助矩阵分形格式详解.md; CONCEPTS §7). The host prepares this, as the official example does."""
    from .isa.mx import scale_offset

    rows, kb = scales.shape
    out = np.zeros(cdiv(rows, R0) * cdiv(kb, 2) * 32, dtype=np.uint8)
    r, c = np.meshgrid(np.arange(rows), np.arange(kb), indexing="ij")
    out[scale_offset(r, c, kb * 32)] = scales
    return out


def mx_matmul(core: Core, a, scale_a, b, scale_b, fmt: str = "e4m3", *, b_trans: bool = False
              ) -> tuple[np.ndarray, dict]:
    """MX matmul on 950: C = (2^(SA-127) ⊗ A)·(2^(SB-127) ⊗ B) in float32 (MmadMx.md; CONCEPTS §7).

    a: m x k values (rounded to `fmt`), scale_a: m x k/32 e8m0 codes (uint8); b: k x n (n x k when
    b_trans), scale_b: k/32 x n codes. k must be a multiple of 64 (MmadMx.md 约束说明). Data: ND2NZ to
    L1 then Load2DMX (LoadData2DParamsV2; ifTranspose for a B stored k x n) with the scales, which the host
    stores in GM in their fractal layout (`mx_scale_layout`) and DataCopy moves to L1. One tile only.
    """
    instr = "mx_matmul"
    core.chip.check("MmadMx", instr=instr)
    if fmt not in MX_FORMATS:
        raise ParamRangeError(f"{instr}: fmt must be one of {', '.join(MX_FORMATS)}, but got {fmt!r}")
    dt = get_dtype(MX_FORMATS[fmt])
    a, b = _as_matrix("a", a), _as_matrix("b", b)
    sa, sb = np.asarray(scale_a, dtype=np.uint8), np.asarray(scale_b, dtype=np.uint8)
    m, k = a.shape
    n = b.shape[0] if b_trans else b.shape[1]
    if (b.shape[1] if b_trans else b.shape[0]) != k:
        raise ParamRangeError(f"{instr}: A is {m} x {k} but op(B) is not {k} x {n}")
    if k % 64:
        raise ParamRangeError(f"{instr}: k must be a multiple of 64 (MmadMx.md 约束说明), but got {k}")
    if sa.shape != (m, k // 32) or sb.shape != (k // 32, n):
        raise ParamRangeError(f"{instr}: scale_a must be {m} x {k // 32} and scale_b {k // 32} x {n}, "
                              f"but got {sa.shape} and {sb.shape}")
    c0, m1, n1, k64, kf = dt.c0, cdiv(m, R0), cdiv(n, R0), k // 64, k // dt.c0
    if b_trans:  # Nz(Bᵀ) is Zn(B): plain copy
        pb = LoadData2DParamsV2(0, 0, n1, kf, 0, n1)
        nb = R0 * n1
    else:  # Nz(B) -> Nz(Bᵀ): transposed window (k a multiple of 64 keeps b8/b4 mStep rules)
        k_step = cdiv(n, c0)
        nb = k_step * c0
        pb = LoadData2DParamsV2(0, 0, k // R0, k_step, 0, nb // R0, True)
    if (align(m, _G) * k * dt.bits // 8 > core.memory("L0A").size
            or nb * k * dt.bits // 8 > core.memory("L0B").size):
        raise NotImplementedError(f"{instr}: {m}x{k}x{n} does not fit one L0 tile; tiling is not implemented")
    reports: list[ExecReport] = []
    xa = _to_l1(core, "A1", dt, a, False, 0, reports)
    xb = _to_l1(core, "B1", dt, b, False, align(xa.t.nbytes, 512), reports)
    pb.srcStride = xb.sf
    scales = []
    for pos, s in (("A1", sa), ("B1", sb.T)):  # scaleB as Nn of [K/32, N] = Zz of scaleBᵀ
        raw = mx_scale_layout(s)
        gm = core.global_tensor("fp8_e8m0_t", raw.size)
        gm.write_raw(raw)
        l1 = core.tensor(pos, "fp8_e8m0_t", raw.size)
        reports.append(core.data_copy(l1, gm, raw.size))
        scales.append(l1)
    a2 = core.tensor("A2", dt, align(m, _G) * k, offset=0)
    b2 = core.tensor("B2", dt, nb * k, offset=0)
    reports.append(core.load_data_mx(a2, xa.t, scales[0], LoadData2DParamsV2(0, 0, m1, kf, xa.sf, m1),
                                     LoadData2DMxParams(0, 0, m1, k64, k64, k64)))
    reports.append(core.load_data_mx(b2, xb.t, scales[1], pb, LoadData2DMxParams(0, 0, n1, k64, k64, k64)))
    ha = R0 * m1
    c = core.tensor("CO1", "float", ha * align(nb, R0), offset=0)
    reports.append(core.mmad_mx(c, a2, b2, MmadParams(ha, nb, k)))
    c_gm = core.global_tensor("float", m * n)
    reports.append(_fixpipe(core, c_gm, c, m, n, ha, n))
    stats = flow_stats(reports, tiles=1)
    return c_gm.read().reshape(m, n).astype(np.float32), stats


__all__ = ["LOADS", "L1Matrix", "legal_loads", "why_illegal", "matmul", "sparse_matmul", "mx_matmul",
           "mx_scale_layout", "MX_FORMATS"]
