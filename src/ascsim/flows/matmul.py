"""Matrix-multiply flows end to end: GM ND -> DataCopy Nd2Nz -> L1 -> L0A/L0B -> Mmad -> Fixpipe -> GM.

`matmul` computes C = op(A)·op(B) (A logical m x k, B logical k x n) with the operands stored in GM as
ND row-major matrices: A as [m, k], or Aᵀ [k, m] when `a_trans`; B as [k, n], or Bᵀ [n, k] when
`b_trans` (docs/gm_copies.md, docs/mmad.md). It runs a plan of the tile planner (`ascsim.planner`,
docs/planner.md): blocks of each operand go to L1 as Nz (DataCopy with Nd2NzParams) and tiles of them into
the layout Mmad reads — L0A Zz(A) (A2/A3) or Nz(A) (950), L0B Zn(B) = Nz(Bᵀ) (docs/layouts.md) — through the
loads of `ascsim.planner.movers` (LoadData2D, LoadDataWithTranspose, Load3D in its 2-D use, LoadData2Dv2),
M, N and K tiled through L1, L0A/L0B and L0C like a kernel's block loop, every capacity checked before
anything is placed. Whether an L1 -> L0 move needs an in-fractal transpose follows 矩阵计算输入搬运约束.md
表5: "A转置" and "B不转置" do, "A不转置" and "B转置" do not. "auto" loads are the planner's cheapest legal
ones (ties go to the doc's recommendation: Load3D on A2/A3, 表5 推荐使用; LoadData2DV2 on 950, 表5 id8).

`sparse_matmul` (A2/A3): densify_2to4 + LoadDataWithSparse + MmadWithSparse (docs/load_data_with_sparse.md).
`mx_matmul` (950): MX fp8/fp4 with e8m0 scales via Load2DMX + MmadMx (docs/load2d_mx.md).
"""

from __future__ import annotations

import numpy as np

from ..base.errors import ParamRangeError, UnsupportedError
from ..core import Core
from ..engine.record import ExecReport
from ..isa.mx import scale_offset
from ..isa.sparse import densify_2to4, pack_sparse_index
from ..machine.dtypes import get_dtype
from ..machine.layouts import R0, align, cdiv
from ..machine.memory import LocalTensor
from ..params import LoadData2DMxParams, LoadData2DParams, LoadData2DParamsV2, MmadParams
from ..planner import movers
from ..planner.movers import LOADS, MatrixBlock, copy_block, fixpipe_call, gran
from ..planner.plans import plan_matmul
from ..planner.problems import MatmulProblem, matrix_gm
from ..planner.program import run_calls
from ..planner.search import resolve_load
from .conv2d import flow_stats, mmad_c_type

_TILE_STEP = 64  # `tiles` of the matmul flow: multiples of 64 (every square of every dtype) or the whole dim


def why_illegal(core: Core, dtype: str, side: str, trans: bool, load: str) -> str | None:
    """None if `load` can move this operand, else the reason (with its doc citation)."""
    return movers.why_illegal(core.chip, get_dtype(dtype), side, trans, load)


def legal_loads(core: Core, dtype: str, side: str, trans: bool) -> tuple[str, ...]:
    """The loads that can move this operand, in the order "auto" prefers them."""
    return movers.legal_loads(core.chip, get_dtype(dtype), side, trans)


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
    the inputs are rounded to it. `tiles` forces the L0 tile (mt, nt, kt) (multiples of 64 or the whole
    dimension). stats: instructions (count by kind), bytes_moved (bytes written by all instructions,
    DataCopy and Fixpipe included), tiles (Mmad calls), tile_shape, loads (a_load, b_load resolved), plan.
    """
    a, b = _as_matrix("a", a), _as_matrix("b", b)
    try:
        dt = get_dtype(dtype if dtype is not None else a.dtype)
    except UnsupportedError as e:
        raise UnsupportedError(f"matmul: dtype must name an ascsim element type, but got "
                               f"{dtype if dtype is not None else a.dtype} ({e})") from None
    mmad_c_type(core, dt, "matmul")
    m, k = (a.shape[1], a.shape[0]) if a_trans else a.shape
    kb_, n = (b.shape[1], b.shape[0]) if b_trans else b.shape
    if kb_ != k:
        raise ParamRangeError(f"matmul: op(A) is {m} x {k} but op(B) is {kb_} x {n}; K must agree")
    problem = MatmulProblem(core.chip.key, int(m), int(n), int(k), dt.name, bool(a_trans), bool(b_trans))
    plan = plan_matmul(problem, a_load=a_load, b_load=b_load, tiles=None if tiles is None else tuple(tiles),
                       instr="matmul", tile_step=_TILE_STEP, objective="balanced")  # one core: as conv2d
    c, reports = plan.run(core, {"a": a.T if a_trans else a, "b": b.T if b_trans else b})
    g, ch = plan.gemm, plan.choice
    stats = flow_stats(reports, tiles=len(g.m_segs) * len(g.n_segs) * len(g.k_segs),
                       tile_shape=(ch.mt, ch.nt, ch.kt), loads=(ch.a_load, ch.b_load), plan=plan)
    return c, stats


def _to_l1(core: Core, tensors: dict[str, LocalTensor], name: str, position: str, dt, x: np.ndarray,
           offset: int, reports: list[ExecReport]) -> MatrixBlock:
    """The whole stored matrix x: GM ND -> L1 Nz (one block), tensors registered under `name`_gm / `name`."""
    data, pitch = matrix_gm(dt, x)
    tensors[f"{name}_gm"] = core.global_tensor(dt, data)
    rows, cols = x.shape
    g = gran(dt)
    tensors[name] = core.tensor(position, dt, align(rows, g) * align(cols, g), offset=offset)
    blk, calls = copy_block(dt, f"{name}_gm", pitch, 0, 0, rows, cols, name, False)
    reports += run_calls(core, tensors, calls)
    return blk


def _fixpipe(core: Core, tensors: dict[str, LocalTensor], c: LocalTensor, m: int, n: int, ha: int, dt: str
             ) -> tuple[LocalTensor, ExecReport]:
    tensors["c_gm"] = core.global_tensor(dt, m * n)
    tensors["c_l0c"] = c
    rep = run_calls(core, tensors, [fixpipe_call(core.chip, ("c_gm", 0), "c_l0c", m, n, ha, n, 4)])[0]
    return tensors["c_gm"], rep


# ==================================================================================================
# 2:4 sparse (A2/A3) and MX (950)
# ==================================================================================================


def sparse_matmul(core: Core, a_int8, b_2to4_int8, *, a_load: str = "auto") -> tuple[np.ndarray, dict]:
    """C = A·B (int8 -> int32) with B 4:2-sparse (at most 2 nonzeros per 4 consecutive K rows), A2/A3.

    Offline (host) step, as in the official mmad_with_sparse example: `densify_2to4` B, store dense
    Bdᵀ [n, Kd] in GM (ND2NZ turns it into Nz(Bdᵀ) = Zn(Bd), the layout LoadDataWithSparse reads) and the
    packed 2-bit indices (`pack_sparse_index`, Zn 128-B fractals) for a plain DataCopy. Then
    LoadDataWithSparse (dense fractals -> L0B, indices -> the index buffer) and MmadWithSparse
    (LoadDataWithSparse.md, MmadWithSparse.md; docs/load_data_with_sparse.md). A uses the `matmul` A
    loads. One tile only.
    """
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
    la = resolve_load("matmul", core.chip, dt, "a", False, a_load)[0]
    kd1, n1 = cdiv(kd, 32), cdiv(n, R0)
    if (align(m, _TILE_STEP) * align(k, _TILE_STEP) > core.memory("L0A").size
            or kd1 * n1 * 512 > core.memory("L0B").size
            or align(m, R0) * n1 * R0 * 4 > core.memory("L0C").size):
        raise NotImplementedError(f"{instr}: {m}x{k}x{n} does not fit one L0 tile; tiling is not implemented")
    reports: list[ExecReport] = []
    tensors: dict[str, LocalTensor] = {}
    xa = _to_l1(core, tensors, "a1", "A1", dt, a, 0, reports)
    # Nz(Bdᵀ) = Zn(Bd)
    xb = _to_l1(core, tensors, "b1", "B1", dt, dense.T, align(tensors["a1"].nbytes, 512), reports)
    idx_raw = pack_sparse_index(codes)
    idx_gm = core.global_tensor("uint8_t", idx_raw)
    idx_l1 = core.tensor("B1", "uint8_t", idx_raw.size)
    reports.append(core.data_copy(idx_l1, idx_gm, idx_raw.size))
    tensors["a2"] = core.tensor("A2", dt, align(m, _TILE_STEP) * align(k, _TILE_STEP), offset=0)
    calls, ha, _ = movers.load_a(core.chip, dt, la, False, xa, "a2", 0, m, 0, k)
    reports += run_calls(core, tensors, calls)
    b2 = core.tensor("B2", dt, kd1 * n1 * 512, offset=0)
    # Zn(Bd) needs N1 = ceil(n/16) fractals per K row; L1 holds Nz(Bdᵀ) with column height align(n, 64)
    for j in range(kd1):  # one K fractal row per call: startIndex counts fractals of the src tensor
        name, idx = xb.at(0, j)
        src = tensors[name][idx]
        reports.append(core.load_data_with_sparse(b2[j * n1 * 512], src, idx_l1[j * n1 * 128],
                                                  LoadData2DParams(0, n1)))
    c = core.tensor("CO1", "int32_t", ha * n1 * R0, offset=0)
    reports.append(core.mmad_with_sparse(c, tensors["a2"], b2, MmadParams(ha, n, k)))
    c_gm, rep = _fixpipe(core, tensors, c, m, n, ha, "int32_t")
    reports.append(rep)
    stats = flow_stats(reports, tiles=1, loads=(la, "sparse"))
    return c_gm.read().reshape(m, n).astype(np.int32), stats


MX_FORMATS = {"e4m3": "fp8_e4m3fn_t", "e5m2": "fp8_e5m2_t", "e2m1": "fp4x2_e2m1_t", "e1m2": "fp4x2_e1m2_t"}


def mx_scale_layout(scales: np.ndarray) -> np.ndarray:
    """e8m0 codes S (rows x K/32, one per 32 K elements) -> the L0A_MX/L0B_MX byte layout MmadMx reads:
    16 x 2 fractals, ceil(K/64) per 16 rows, row-major inside (scaleA Zz; scaleB is the same for Bᵀ,
    辅助矩阵分形格式详解.md; divergences.md X3). The host prepares this, as the official example does."""
    rows, kb = scales.shape
    out = np.zeros(cdiv(rows, R0) * cdiv(kb, 2) * 32, dtype=np.uint8)
    r, c = np.meshgrid(np.arange(rows), np.arange(kb), indexing="ij")
    out[scale_offset(r, c, kb * 32)] = scales
    return out


def mx_matmul(core: Core, a, scale_a, b, scale_b, fmt: str = "e4m3", *, b_trans: bool = False
              ) -> tuple[np.ndarray, dict]:
    """MX matmul on 950: C = (2^(SA-127) ⊗ A)·(2^(SB-127) ⊗ B) in float32 (MmadMx.md; docs/load2d_mx.md).

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
    if (align(m, _TILE_STEP) * k * dt.bits // 8 > core.memory("L0A").size
            or nb * k * dt.bits // 8 > core.memory("L0B").size):
        raise NotImplementedError(f"{instr}: {m}x{k}x{n} does not fit one L0 tile; tiling is not implemented")
    reports: list[ExecReport] = []
    tensors: dict[str, LocalTensor] = {}
    xa = _to_l1(core, tensors, "a1", "A1", dt, a, 0, reports)
    xb = _to_l1(core, tensors, "b1", "B1", dt, b, align(tensors["a1"].nbytes, 512), reports)
    pb.srcStride = xb.sf
    scales = []
    for pos, s in (("A1", sa), ("B1", sb.T)):  # scaleB as Nn of [K/32, N] = Zz of scaleBᵀ
        raw = mx_scale_layout(s)
        gm = core.global_tensor("fp8_e8m0_t", raw.size)
        gm.write_raw(raw)
        l1 = core.tensor(pos, "fp8_e8m0_t", raw.size)
        reports.append(core.data_copy(l1, gm, raw.size))
        scales.append(l1)
    a2 = core.tensor("A2", dt, align(m, _TILE_STEP) * k, offset=0)
    b2 = core.tensor("B2", dt, nb * k, offset=0)
    reports.append(core.load_data_mx(a2, tensors["a1"], scales[0],
                                     LoadData2DParamsV2(0, 0, m1, kf, xa.sf, m1),
                                     LoadData2DMxParams(0, 0, m1, k64, k64, k64)))
    reports.append(core.load_data_mx(b2, tensors["b1"], scales[1], pb,
                                     LoadData2DMxParams(0, 0, n1, k64, k64, k64)))
    ha = R0 * m1
    c = core.tensor("CO1", "float", ha * align(nb, R0), offset=0)
    reports.append(core.mmad_mx(c, a2, b2, MmadParams(ha, nb, k)))
    c_gm, rep = _fixpipe(core, tensors, c, m, n, ha, "float")
    reports.append(rep)
    stats = flow_stats(reports, tiles=1)
    return c_gm.read().reshape(m, n).astype(np.float32), stats


__all__ = ["LOADS", "legal_loads", "why_illegal", "matmul", "sparse_matmul", "mx_matmul",
           "mx_scale_layout", "MX_FORMATS"]
