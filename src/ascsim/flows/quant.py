"""A quantised matmul end to end: int8 x int8 + int32 bias -> int32 in L0C -> Fixpipe DEQF16 -> half in GM.

The kernel transliterated (call by call, as an Ascend C cube kernel would issue them; the instruction pages
cited at each step):

1. DataCopy ND2NZ GM -> L1: A (m x k, row-major) as Nz(A); B given transposed in GM (Bᵀ, n x k), so its
   Nz(Bᵀ) with column height align(n, 16) is byte for byte Zn(B), the L0B layout (docs/layouts.md
   "Identities").
   DataCopy（GMToL1随路转换-ND2NZ搬运）.md 表3.
2. DataCopy GM -> L1 of the int32 bias (a count), then DataCopy L1 -> BiasTable (C1 -> C2) with DataCopyParams
   in the chip's BT units (64 B on A2/A3, 32 B on 950; DataCopy（L1ToBiasTable-Buffer数据搬运）.md 约束说明).
3. L1 -> L0A: LoadData2D v1, one call per 16-row band (Zz on A2/A3; LoadData_2D.md 调用示例), or one
   LoadData2DParamsV2 call (Nz on 950; LoadData_2D_V2.md); L1 -> L0B: one LoadData2D v1 call copying every
   fractal in order.
4. Mmad with the bias tensor in C2 and cmatrixInitVal = false: C = bias + A·B (Mmad.md 表4).
5. Fixpipe NZ2ND with quantPre DEQF16 and deqScalar = the scale's bits (随路量化.md 表1):
   half = fl16(fl32(C) · scale), scale truncated to the (1, 8, 10) format.
"""

from __future__ import annotations

import numpy as np

from ..core import Core
from ..isa.quant import deq_word
from ..machine.layouts import R0, align, cdiv
from ..params import (
    DataCopyParams,
    FixpipeParamsArch3510,
    FixpipeParamsV220,
    LoadData2DParams,
    LoadData2DParamsV2,
    MmadParams,
    Nd2NzParams,
    QuantMode_t,
)
from ..planner.problems import quant_matmul_reference  # noqa: F401 - re-exported (the demo's reference)
from .conv2d import flow_stats


def quant_matmul(core: Core, a: np.ndarray, b: np.ndarray, bias: np.ndarray, scale: float
                 ) -> tuple[np.ndarray, dict]:
    """half(C) for C = A·B + bias (A: m x k int8, B: k x n int8, bias: n int32), dequantised by `scale`
    through Fixpipe DEQF16. n must be a multiple of 16 (whole BiasTable blocks). Returns (m x n half,
    stats)."""
    m, k = a.shape
    n = b.shape[1]
    c0 = 32  # int8: 32 elements per 32-B block
    mp, np_, kp = align(m, R0), align(n, R0), align(k, c0)
    reports = []
    # 1. A and Bᵀ to L1 as Nz
    a_gm = core.global_tensor("int8_t", a)
    bt_gm = core.global_tensor("int8_t", np.ascontiguousarray(b.T))
    a_l1 = core.tensor("A1", "int8_t", mp * kp)
    b_l1 = core.tensor("B1", "int8_t", np_ * kp)
    reports.append(core.data_copy(a_l1, a_gm, Nd2NzParams(1, m, k, 0, k, mp, 1, 0)))
    reports.append(core.data_copy(b_l1, bt_gm, Nd2NzParams(1, n, k, 0, k, np_, 1, 0)))
    # 2. bias: GM -> L1 -> BiasTable
    bias_gm = core.global_tensor("int32_t", bias.astype(np.int32))
    bias_l1 = core.tensor("C1", "int32_t", n)
    bias_bt = core.tensor("C2", "int32_t", n)
    reports.append(core.data_copy(bias_l1, bias_gm, n))
    unit = 32 if core.chip.key == "ascend950" else 64
    reports.append(core.data_copy(bias_bt, bias_l1, DataCopyParams(1, n * 4 // unit, 0, 0)))
    # 3. L1 -> L0A / L0B
    a_l0 = core.tensor("A2", "int8_t", mp * kp)
    b_l0 = core.tensor("B2", "int8_t", np_ * kp)
    k1, m1, frac = kp // c0, mp // R0, R0 * c0
    if core.chip.l0a_format == "ZZ":  # one call per 16-row band, reading every m1-th fractal of Nz(A)
        for i in range(m1):
            reports.append(core.load_data(a_l0[i * k1 * frac], a_l1[i * frac], LoadData2DParams(0, k1, m1)))
    else:  # 950: L0A is Nz, the L1 layout itself
        reports.append(core.load_data(a_l0, a_l1, LoadData2DParamsV2(0, 0, m1, k1, m1, m1)))
    reports.append(core.load_data(b_l0, b_l1, LoadData2DParams(0, k1 * cdiv(n, R0), 1)))
    # 4. C = bias + A·B
    c = core.tensor("CO1", "int32_t", mp * np_)
    reports.append(core.mmad(c, a_l0, b_l0, MmadParams(m, n, k, cmatrixInitVal=False), bias_bt))
    # 5. Fixpipe NZ2ND, DEQF16
    out = core.global_tensor("half", m * n)
    word = deq_word(scale)
    if core.chip.key == "ascend950":
        fp = FixpipeParamsArch3510(n, m, mp, n, quantPre=QuantMode_t.DEQF16, deqScalar=word)
    else:
        fp = FixpipeParamsV220(n, m, mp, n, quantPre=QuantMode_t.DEQF16, deqScalar=word)
    reports.append(core.fixpipe(out, c, fp))
    return out.read().reshape(m, n), flow_stats(reports)


