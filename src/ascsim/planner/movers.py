"""Operand movers: the calls that bring a block of a matrix or a feature map from GM to L1, a tile from L1
into L0A / L0B, and a C tile from L0C back to GM — as `Call` records (planner.program), so the planner,
the flows, the scenario writer and the C++ printer share them.

Matrices (docs/gm_copies.md): an operand is stored in GM as an ND row-major matrix X — A [m, k] or Aᵀ [k, m]
("A col-major"), B [k, n] or Bᵀ [n, k] ("B col-major"). A block of X goes to L1 as Nz (DataCopy with
Nd2NzParams, column height = the block's rows rounded up to the granularity `gran`), and from there into
the layout Mmad reads: L0A Zz(A) (A2/A3) or Nz(A) (950), L0B Zn(B) = Nz(Bᵀ) (docs/layouts.md). Whether that
L1 -> L0 move needs an in-fractal transpose follows 矩阵计算输入搬运约束.md 表5: "A转置" and "B不转置" do,
"A不转置" and "B转置" do not. The loads:

- load2d: LoadData2DParams (v1), one call per fractal row / column (LoadData_2D.md 调用示例), ifTranspose
  for b16;
- transpose: LoadDataWithTranspose (V1 on A2/A3, V2 on 950), square by square (LoadDataWithTranspose.md
  调用示例); b32 on A2/A3 reads a 16-row banded L1 layout (Nz "当且仅当Row==16");
- load3d: Load3D v2 in its 2-D use, l1H = 1, l1W = the L1 column height, Kh = Kw = 1 (docs/load3d.md),
  enTranspose for a transposed A;
- load2dv2: LoadData2DParamsV2 (950), one call per tile, ifTranspose when needed (LoadData_2D_V2.md).

Which load is legal for (chip, dtype, side,
                         transposed) is derived from the chip tables (`ascsim.machine.chips`,
which cite LoadData_2D.md / LoadDataWithTranspose.md / LoadData_3D.md 数据类型 and 约束说明) plus the
structural rules of 表5 (a transpose-free move cannot use LoadDataWithTranspose; Load3D into L0B always
transposes its window, so a B stored transposed cannot use it).

Padding conventions: squares force the padded extents of the L0 layouts (b8 squares are 32 x 32, b4
64 x 64), so each load reports the row pitch it wrote — Mmad then runs with m = Ha (the L0A row height)
and n = Nb (the L0B N pitch), and Fixpipe moves only the valid m x n block (docs/gm_copies.md). float A loaded
transposed on A2/A3 gets a K pitch of ceil(k/16)*2 fractals, so Mmad runs with kDirectionAlign = true
(K-方向对齐约束.md 2). int4 Mmad needs an even k (Mmad.md 表7): k is rounded up, the extra A column being
the zero fill of ND2NZ.

Feature maps (conv2d, LoadData_3D.md 功能说明): the host stores x in GM in the Load3D L1 layout
(`layouts.chw_to_fmap_l1`: NC1HWC0 groups, a packed tail group for channelSize forms like 16N+4); a block
of output rows and whole channel groups is one DataCopy per contiguous run, and Load3D v2 unfolds a tile of
its img2col matrix into L0A.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..machine.chips import ChipProfile
from ..machine.dtypes import DType
from ..machine.layouts import R0, align, cdiv, channel_groups
from ..params import (
    DataCopyParams,
    FixpipeParamsArch3510,
    FixpipeParamsV220,
    LoadData2DParams,
    LoadData2DParamsV2,
    LoadData2dTransposeParams,
    LoadData2dTransposeParamsV2,
    LoadData3DParamsV2,
    MmadParams,
    Nd2NzParams,
    Nz2NdParams,
    QuantMode_t,
)
from .program import Call

LOADS = ("load2d", "transpose", "load3d", "load2dv2")
API = {"load2d": "LoadData2D", "transpose": "LoadDataWithTranspose", "load3d": "Load3Dv2",
       "load2dv2": "LoadData2Dv2"}
# auto: the doc's recommendation first (表5: Load3D "推荐使用" on A2/A3; 表5 id8: LoadData2DV2 on 950).
PREFERENCE = {"ZZ": ("load3d", "transpose", "load2d"), "NZ": ("load2dv2", "load3d", "transpose", "load2d")}
_TABLE5 = "矩阵计算输入搬运约束.md 表5"
FRACTAL = 512  # bytes of every L0A / L0B fractal


def gran(dt: DType) -> int:
    """Alignment of tile origins and L1 column heights inside a block: one transpose square (b4 squares
    are 64 x 64, b8 32 x 32) or the 32-row K rule of 950 b8 Load3D; 32 covers b16 / b32 too."""
    return 64 if dt.bits == 4 else 32


# ==================================================================================================
# Which load is legal
# ==================================================================================================


def needs_transpose(side: str, trans: bool) -> bool:
    """表5: L1 holds Nz of the stored matrix; A转置 and B不转置 need an in-fractal transpose."""
    return trans if side == "a" else not trans


def why_illegal(chip: ChipProfile, dt: DType, side: str, trans: bool, load: str) -> str | None:
    """None if `load` can move this operand, else the reason (with its doc citation)."""
    dst = "L0A" if side == "a" else "L0B"
    what = ("A" if side == "a" else "B") + (" stored transposed" if trans else "")
    need_t = needs_transpose(side, trans)
    if load not in LOADS:
        return f"unknown load {load!r}; one of {', '.join(LOADS)}"
    api = API[load]
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


def legal_loads(chip: ChipProfile, dt: DType, side: str, trans: bool) -> tuple[str, ...]:
    """The loads that can move this operand, in the order "auto" prefers them."""
    return tuple(ld for ld in PREFERENCE[chip.l0a_format] if why_illegal(chip, dt, side, trans, ld) is None)


# ==================================================================================================
# GM -> L1: matrix blocks
# ==================================================================================================


@dataclass(frozen=True)
class MatrixBlock:
    """A block of a stored matrix X in an L1 tensor.

    Nz: column height `height` rows (fractal (rb, cb) at cb*height/16 + rb). Banded (b32 squares on
    A2/A3, "Nz当且仅当Row==16", 矩阵计算输入搬运约束.md): 16-row bands, each an Nz of height 16 and
    `band_width` columns, i.e. fractal (rb, cb) at rb*band_width/8 + cb.
    """

    tensor: str
    bits: int
    rows: int
    cols: int
    height: int
    banded: bool = False
    band_width: int = 0

    @property
    def frac(self) -> int:
        return 4096 // self.bits  # elements in one 512-B fractal

    @property
    def sf(self) -> int:
        return self.height // R0  # fractals per Nz column

    def at(self, rb: int, cb: int) -> tuple[str, int]:
        """(tensor, element index) of fractal (row block rb of 16, column block cb of C0)."""
        idx = rb * (self.band_width // 8) + cb if self.banded else cb * self.sf + rb
        return self.tensor, idx * self.frac

    @property
    def ref(self) -> tuple[str, int]:
        return self.tensor, 0


def block_length(dt: DType, rows: int, cols: int, banded: bool) -> int:
    """Elements an L1 tensor needs to hold a rows x cols block (`copy_block`'s layout)."""
    if banded:
        return cdiv(rows, R0) * R0 * align(cols, 16) + 64
    g = gran(dt)
    return align(rows, g) * align(cols, g)


def _nz_bytes(dt: DType, num: int, rows: int, cols: int) -> int:
    """Bytes ND2NZ writes: num x rows x cols rounded up to a 32-B block per row (b4 moves as b8)."""
    bits = 8 if dt.is_4bit else dt.bits
    c = cdiv(cols, 2) if dt.is_4bit else cols
    return num * rows * align(c * bits // 8, 32)


def copy_block(dt: DType, gm: str, pitch: int, r0: int, c0: int, rows: int, cols: int, l1: str,
               banded: bool) -> tuple[MatrixBlock, list[Call]]:
    """DataCopy GM ND -> L1 Nz of X[r0:r0+rows, c0:c0+cols] (X row pitch `pitch` elements) with
    Nd2NzParams (DataCopy（GMToL1随路转换-ND2NZ搬运）.md 表3)."""
    u = 2 if dt.is_4bit else 1  # b4: every parameter in b8 units
    src = r0 * pitch + c0
    if banded:
        width = align(cols, 16)
        full, tail = divmod(rows, R0)
        calls = []
        # ndNum 16-row ND matrices, each an Nz of height 16 -> the banded layout in one call
        if full:
            calls.append(Call("DataCopy", {"dst": (l1, 0), "src": (gm, src)},
                              Nd2NzParams(full, R0, cols, R0 * pitch, pitch, R0, 1, R0 * width),
                              _nz_bytes(dt, full, R0, cols), dst_mem="L1", src_mem="GM"))
        if tail:
            refs = {"dst": (l1, full * R0 * width), "src": (gm, src + full * R0 * pitch)}
            calls.append(Call("DataCopy", refs,
                              Nd2NzParams(1, tail, cols, 0, pitch, R0, 1, 0), _nz_bytes(dt, 1, tail, cols),
                              dst_mem="L1", src_mem="GM"))
        return MatrixBlock(l1, dt.bits, rows, cols, R0, True, width), calls
    height = align(rows, gran(dt))
    p = Nd2NzParams(1, rows, cdiv(cols, u), 0, pitch // u, height, 1, 0)
    call = Call("DataCopy", {"dst": (l1, 0), "src": (gm, src)}, p, _nz_bytes(dt, 1, rows, cols), dst_mem="L1",
                src_mem="GM")
    return MatrixBlock(l1, dt.bits, rows, cols, height), [call]


# ==================================================================================================
# L1 -> L0A: each returns (calls, Ha = the L0A row height Mmad must use, kDirectionAlign)
# ==================================================================================================


def _ld(dst: tuple[str, int], src: tuple[str, int], p: object, nbytes: int, mem: str) -> Call:
    return Call("LoadData", {"dst": dst, "src": src}, p, nbytes, dst_mem=mem, src_mem="L1")


def _l3d(dst: tuple[str, int], src: tuple[str, int], p: LoadData3DParamsV2, bits: int, mem: str) -> Call:
    """A Load3D call: it writes exactly its window (mExtension x kExtension elements, divergence L7) but
    its footprint spans whole fractals (16-row squares)."""
    m, k = p.mExtension, p.kExtension
    return Call("LoadData", {"dst": dst, "src": src}, p, m * k * bits // 8, dst_mem=mem, src_mem="L1",
                span=align(m, R0) * align(k, R0) * bits // 8)


def _ldwt(dst: tuple[str, int], src: tuple[str, int], p: object, nbytes: int, mem: str) -> Call:
    return Call("LoadDataWithTranspose", {"dst": dst, "src": src}, p, nbytes, dst_mem=mem, src_mem="L1")


def load3d_2d_params(x: MatrixBlock, dt: DType, m0: int, m_ext: int, k0: int, k_ext: int, transpose: bool
                     ) -> LoadData3DParamsV2:
    """The 2-D use of Load3D (docs/load3d.md): W = the stored Nz block, window rows [m0, m0+m_ext),
    columns [k0, k0+k_ext)."""
    return LoadData3DParamsV2([0, 0, 0, 0], 1, x.height, align(x.cols, dt.c0), k_ext, m_ext, k0, m0,
                              enTranspose=transpose, padValue=0)


def load_a(chip: ChipProfile, dt: DType, load: str, trans: bool, x: MatrixBlock, a2: str, m0: int, mt: int,
           k0: int, kt: int) -> tuple[list[Call], int, bool]:
    """Move the A tile (rows m0.., cols k0.. of the block; mt x kt) into L0A tensor `a2`."""
    c0, frac, bits = dt.c0, x.frac, dt.bits
    zz = chip.l0a_format == "ZZ"
    m1, k1 = cdiv(mt, R0), cdiv(kt, c0)
    out: list[Call] = []
    fb = FRACTAL
    if not trans:  # X = A (rows m, cols k): Nz -> Zz (A2) / Nz -> Nz (950), fractals unchanged
        if load == "load3d":
            p = load3d_2d_params(x, dt, m0, R0 * m1, k0, c0 * k1, False)
            out.append(_l3d((a2, 0), x.ref, p, bits, "L0A"))
        elif load == "load2dv2":
            out.append(_ld((a2, 0), x.ref, LoadData2DParamsV2(m0 // R0, k0 // c0, m1, k1, x.sf, m1),
                           m1 * k1 * fb, "L0A"))
        elif zz:  # load2d, LoadData_2D.md 调用示例一: one call per fractal row of A
            for i in range(m1):
                out.append(_ld((a2, i * k1 * frac), x.at(m0 // R0 + i, k0 // c0),
                               LoadData2DParams(0, k1, x.sf), k1 * fb, "L0A"))
        else:  # load2d on 950: one call per Nz column (consecutive fractals)
            for j in range(k1):
                out.append(_ld((a2, j * m1 * frac), x.at(m0 // R0, k0 // c0 + j), LoadData2DParams(0, m1, 1),
                               m1 * fb, "L0A"))
        return out, R0 * m1, False
    # X = Aᵀ (rows k, cols m): every fractal is transposed
    if load == "load3d":  # enTranspose: L0A gets Zz(Wᵀ) / Nz(Wᵀ) of the window W = Aᵀ tile
        m_ext = align(kt, 32 if bits == 8 else R0)
        k_ext = align(mt, c0)
        p = load3d_2d_params(x, dt, k0, m_ext, m0, k_ext, True)
        # A2 b32: the Zz pitch of Wᵀ is m_ext/8 = ceil(k/16)*2 fractals (docs/load3d.md) -> kDirectionAlign
        out.append(_l3d((a2, 0), x.ref, p, bits, "L0A"))
        return out, align(k_ext, R0), zz and bits == 32
    if load == "load2dv2":  # region R = Aᵀ tile, destination Nz(Rᵀ) = Nz(A) (LoadData_2D_V2.md 表3)
        q = {4: 4, 8: 2}.get(bits, 1)  # mStep multiple of 4 (b4) / 2 (b8)
        m_step = align(cdiv(kt, R0), q)
        k_step = align(cdiv(mt, c0), 2 if bits == 32 else 1)  # b32: kStep even
        ha = k_step * c0
        out.append(_ld((a2, 0), x.ref, LoadData2DParamsV2(k0 // R0, m0 // c0, m_step, k_step, x.sf, ha // R0,
                                                         True), m_step * k_step * fb, "L0A"))
        return out, ha, False
    if load == "load2d":  # b16 ifTranspose
        kf = cdiv(kt, R0)
        if zz:  # LoadData_2D.md 调用示例二: per m fractal row, K fractals down the Aᵀ column
            for i in range(m1):
                out.append(_ld((a2, i * kf * frac), x.at(k0 // R0, m0 // R0 + i),
                               LoadData2DParams(0, kf, 1, ifTranspose=True), kf * fb, "L0A"))
        else:  # 950: per K fractal column of Nz(A), walk the Aᵀ fractal row
            for j in range(kf):
                out.append(_ld((a2, j * m1 * frac), x.at(k0 // R0 + j, m0 // R0),
                               LoadData2DParams(0, m1, x.sf, ifTranspose=True), m1 * fb, "L0A"))
        return out, R0 * m1, False
    # LoadDataWithTranspose into L0A (A2/A3 only), LoadDataWithTranspose.md 调用示例
    if bits == 16:
        for i in range(m1):
            out.append(_ldwt((a2, i * k1 * frac), x.at(k0 // R0, m0 // R0 + i),
                             LoadData2dTransposeParams(0, k1, 1, 0, k1 - 1), k1 * fb, "L0A"))
        return out, R0 * m1, False
    if bits == 8:  # 32x32 squares: two stacked Aᵀ fractals -> A fractal rows 2i, 2i+1
        m2 = cdiv(mt, 32)
        for i in range(m2):
            out.append(_ldwt((a2, i * 2 * k1 * frac), x.at(k0 // R0, m0 // 32 + i),
                             LoadData2dTransposeParams(0, k1, 1, 0, k1 - 1), 2 * k1 * fb, "L0A"))
        return out, 32 * m2, False
    # b32 (float example, "Zz -> Zz"): banded Aᵀ, a square = 16 k-rows x 16 m-cols; the Zz K pitch is
    # 2*ceil(k/16) fractals -> kDirectionAlign (K-方向对齐约束.md)
    k16 = cdiv(kt, R0)
    for i in range(m1):
        out.append(_ldwt((a2, i * 2 * k16 * frac), x.at(k0 // R0, m0 // 8 + 2 * i),
                         LoadData2dTransposeParams(0, k16, x.band_width // R0, 1, 0), 2 * k16 * fb, "L0A"))
    return out, R0 * m1, True


# ==================================================================================================
# L1 -> L0B: each returns (calls, Nb = the L0B N pitch, Mmad's n)
# ==================================================================================================


def load_b(chip: ChipProfile, dt: DType, load: str, trans: bool, x: MatrixBlock, b2: str, k0: int, kt: int,
           n0: int, nt: int) -> tuple[list[Call], int]:
    """Move the B tile (k0.., n0.. of the block; kt x nt) into L0B tensor `b2` as Zn(B) = Nz(Bᵀ)."""
    c0, frac, bits = dt.c0, x.frac, dt.bits
    is950 = chip.l0a_format == "NZ"
    n1, kf = cdiv(nt, R0), cdiv(kt, c0)
    out: list[Call] = []
    fb = FRACTAL
    if trans:  # X = Bᵀ (rows n, cols k) is already Nz(Bᵀ): fractal copy (表5 B转置: LoadData2D)
        if load == "load2dv2":
            out.append(_ld((b2, 0), x.ref, LoadData2DParamsV2(n0 // R0, k0 // c0, n1, kf, x.sf, n1),
                           n1 * kf * fb, "L0B"))
        else:
            for j in range(kf):
                out.append(_ld((b2, j * n1 * frac), x.at(n0 // R0, k0 // c0 + j), LoadData2DParams(0, n1, 1),
                               n1 * fb, "L0B"))
        return out, R0 * n1
    # X = B (rows k, cols n): every fractal is transposed
    if load == "load3d":  # L0B gets Zn(W) = Nz(Wᵀ) of W = B tile, column stride ceil(kExt/16)
        k_ext = align(nt, c0)
        m_ext = align(kt, 32 if bits == 8 else R0)
        p = load3d_2d_params(x, dt, k0, m_ext, n0, k_ext, False)
        out.append(_l3d((b2, 0), x.ref, p, bits, "L0B"))
        return out, align(k_ext, R0)
    if load == "load2dv2":  # region R = B tile, Nz(Rᵀ) = Zn(B)
        q = {4: 4, 8: 2}.get(bits, 1)
        k_step = align(cdiv(nt, c0), 2 if bits == 32 else 1)
        nb = k_step * c0
        m_step = align(cdiv(kt, R0), q)
        out.append(_ld((b2, 0), x.ref, LoadData2DParamsV2(k0 // R0, n0 // c0, m_step, k_step, x.sf, nb // R0,
                                                         True), m_step * k_step * fb, "L0B"))
        return out, nb
    if load == "load2d":  # b16 ifTranspose: per K fractal row, walk the B fractal row
        for j in range(cdiv(kt, R0)):
            out.append(_ld((b2, j * n1 * frac), x.at(k0 // R0 + j, n0 // R0),
                           LoadData2DParams(0, n1, x.sf, ifTranspose=True), n1 * fb, "L0B"))
        return out, R0 * n1
    # LoadDataWithTranspose (V1 on A2/A3, V2 on 950), LoadDataWithTranspose.md 调用示例
    if bits == 32 and not is950:  # banded B, square = 16 k x 16 n; out0/out1 = Zn rows 2kb, 2kb+1
        for kb in range(cdiv(kt, R0)):
            out.append(_ldwt((b2, kb * 2 * n1 * frac), x.at(k0 // R0 + kb, n0 // 8),
                             LoadData2dTransposeParams(0, n1, 1, 0, n1 - 1), 2 * n1 * fb, "L0B"))
        return out, R0 * n1
    if bits == 32:  # V2 from plain Nz: the two side-by-side fractals are a column (sf fractals) apart
        for kb in range(cdiv(kt, R0)):
            p2 = LoadData2dTransposeParamsV2(0, n1, 2 * x.sf, 0, n1 - 1, x.sf - 1)
            out.append(_ldwt((b2, kb * 2 * n1 * frac), x.at(k0 // R0 + kb, n0 // 8), p2, 2 * n1 * fb, "L0B"))
        return out, R0 * n1
    nf = {4: 4, 8: 2, 16: 1}[bits]  # stacked fractals per square
    side = R0 * nf
    nq = cdiv(nt, side)
    for j in range(kf):  # one Zn fractal row (K0 = C0 rows of k) per call
        src = x.at(k0 // R0 + nf * j, n0 // side)
        if is950:  # V2 counts fractals: next square one Nz column (sf fractals) on
            p: object = LoadData2dTransposeParamsV2(0, nq, x.sf, nf - 1, 0, 0)
        else:  # V1 counts squares of nf fractals
            p = LoadData2dTransposeParams(0, nq, x.sf // nf, nf - 1, 0)
        out.append(_ldwt((b2, j * nf * nq * frac), src, p, nf * nq * fb, "L0B"))
    return out, side * nq


# ==================================================================================================
# Feature maps (conv2d): GM -> L1 slices and Load3D img2col tiles
# ==================================================================================================


@dataclass(frozen=True)
class FmapBlock:
    """A slice of one image's feature map in an L1 tensor: channels [c_lo, c_hi) (whole C0 groups, plus the
    packed tail group when it reaches the end) of input rows [h_lo, h_hi), with the padding the slice's
    output rows need (padList [left, right, top, bottom])."""

    tensor: str
    c_lo: int
    c_hi: int
    h_lo: int
    h_hi: int
    width: int
    pads: tuple[int, int, int, int]

    @property
    def channels(self) -> int:
        return self.c_hi - self.c_lo


def fmap_copy(dt: DType, gm: str, img_off: int, channels: int, height: int, width: int, blk: FmapBlock
              ) -> list[Call]:
    """DataCopy GM -> L1 of a feature-map slice (DataCopy（GMToL1高维切分数据搬运）.md 表3): the GM map of
    one image is `chw_to_fmap_l1` of `channels` channels (at element `img_off`); each channel group of the
    slice is `rows` x W pixels, contiguous, and groups sit H x W pixels apart. One DataCopyParams call for
    the whole C0 groups (blockCount = groups, srcStride = the rows not copied), one for a packed tail group.
    A tail run is rounded up to whole 32-B blocks (the extra bytes land past the slice in L1 and are never
    read); its start must be 32-B aligned (`fmap_slice_aligned`)."""
    c0, eb = dt.c0, dt.bits // 8
    rows = blk.h_hi - blk.h_lo
    calls: list[Call] = []
    dst = 0
    groups = [(s, n) for s, n in channel_groups(channels, c0) if blk.c_lo <= s < blk.c_hi]
    full = [g for g in groups if g[1] == c0]
    if full:
        src = img_off + (full[0][0] * height + blk.h_lo * c0) * width  # NC1HWC0: group g at g*H*W*C0
        blen = rows * width * c0 * eb // 32
        gap = (height - rows) * width * c0 * eb // 32
        p = DataCopyParams(len(full), blen, gap if len(full) > 1 else 0, 0)
        calls.append(Call("DataCopy", {"dst": (blk.tensor, 0), "src": (gm, src)}, p, len(full) * blen * 32,
                          dst_mem="L1", src_mem="GM"))
        dst = len(full) * rows * width * c0
    for s, n in groups:
        if n != c0:  # the packed tail: n channels per pixel
            src = img_off + s * height * width + blk.h_lo * width * n
            blen = cdiv(rows * width * n * eb, 32)
            calls.append(Call("DataCopy", {"dst": (blk.tensor, dst), "src": (gm, src)},
                              DataCopyParams(1, blen, 0, 0), blen * 32, dst_mem="L1", src_mem="GM"))
    return calls


def fmap_slice_aligned(dt: DType, channels: int, c_hi: int, width: int, h_lo: int) -> bool:
    """Whether a slice's DataCopy runs start at 32-B offsets of the image (DataCopy moves 32-B blocks):
    always for whole C0 groups (a pixel is 32 B), and for a packed tail of n channels when h_lo*W*n
    elements are."""
    tail = channels % dt.c0
    if not tail or c_hi < channels:
        return True
    return (h_lo * width * tail * dt.bits // 8) % 32 == 0


def load3d_tile(dt: DType, blk: FmapBlock, a2: str, m0: int, me: int, k0: int, ke: int,
                geometry: tuple[int, int, int, int, int, int]) -> tuple[list[Call], int]:
    """Load3D v2 of img2col rows [m0, m0+me), columns [k0, k0+ke) of the slice into L0A (LoadData_3D.md
    表4). The row count is rounded up to 16 so Mmad never sees m = 1 (GEMV, Mmad.md 约束说明): rows past the
    slice's Ho*Wo continue the img2col formula (divergence L8). Returns (calls, Ha)."""
    sw, sh, kw, kh, dw, dh = geometry
    m_ext = align(me, R0)
    p = LoadData3DParamsV2(list(blk.pads), blk.h_hi - blk.h_lo, blk.width, blk.channels, ke, m_ext, k0, m0,
                           sw, sh, kw, kh, dw, dh, padValue=0)
    return [_l3d((a2, 0), (blk.tensor, 0), p, dt.bits, "L0A")], m_ext


# ==================================================================================================
# Mmad and L0C -> GM
# ==================================================================================================


def mmad_call(c: str, a: str, b: str, m: int, n: int, k: int, kda: bool, init: bool, csize: int,
              bias: str | None = None) -> Call:
    """Mmad(c, a, b[, bias], {m, n, k}); the first K tile initialises C (cmatrixInitVal), later ones add."""
    args = {"c": (c, 0), "a": (a, 0), "b": (b, 0)}
    if bias is not None:
        args["bias"] = (bias, 0)
    p = MmadParams(m, n, k, kDirectionAlign=kda, cmatrixInitVal=init and bias is None)
    return Call("Mmad", args, p, align(m, R0) * align(n, R0) * csize, dst_mem="L0C")


def fixpipe_call(chip: ChipProfile, dst: tuple[str, int], l0c: str, m: int, n: int, ha: int, ld: int,
                 out_bytes: int, deq_word: int | None = None) -> Call:
    """Fixpipe NZ2ND L0C -> GM: m x n valid block, L0C column height ha, GM row length ld (NZ2ND.md);
    with `deq_word`, quantPre DEQF16 and deqScalar = the word (随路量化.md 表1)."""
    q = {} if deq_word is None else {"quantPre": QuantMode_t.DEQF16, "deqScalar": deq_word}
    if chip.key == "ascend950":
        p: object = FixpipeParamsArch3510(n, m, ha, ld, params=Nz2NdParams(1, 0, 0), **q)
    else:
        p = FixpipeParamsV220(n, m, ha, ld, ndNum=1, **q)
    return Call("Fixpipe", {"dst": dst, "src": (l0c, 0)}, p, m * n * out_bytes, dst_mem="GM", src_mem="L0C")


def bias_gm_copy(gm: str, l1: str, count: int, bits: int) -> Call:
    """DataCopy GM -> L1 of the bias vector, one block of whole 32-B units (DataCopy（GMToL1高维切分数据搬运）
    .md 表3; the host pads the vector)."""
    nbytes = count * bits // 8
    return Call("DataCopy", {"dst": (l1, 0), "src": (gm, 0)}, DataCopyParams(1, nbytes // 32, 0, 0), nbytes,
                dst_mem="L1", src_mem="GM")


def bias_bt_copy(chip: ChipProfile, l1: str, n0: int, bt: str, nb: int, bits: int) -> Call:
    """DataCopy L1 -> BiasTable of nb bias values from element n0 (DataCopy（L1ToBiasTable-Buffer数据搬运）
    .md 表3: blockLen in 64-B units on A2/A3, 32-B units on 950)."""
    unit = 32 if chip.key == "ascend950" else 64
    nbytes = nb * bits // 8
    p = DataCopyParams(1, nbytes // unit, 0, 0)
    return Call("DataCopy", {"dst": (bt, 0), "src": (l1, n0)}, p, nbytes, dst_mem="BT", src_mem="L1")
