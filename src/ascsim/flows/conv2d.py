"""Reusable end-to-end flows built from the simulated instructions (what a cube kernel body does).

`conv2d` is the img2col convolution of the docs (LoadData_3D.md 功能说明; docs/load3d.md), run as a plan of
the tile planner (`ascsim.planner`, docs/planner.md), so the flow, `ascsim plan conv2d`, its scenario and its
C++ share one tiling engine:

1. the host stores the feature map (N = 1) in GM in the Load3D layout (`layouts.chw_to_fmap_l1`: NC1HWC0
   groups, a packed tail group for channelSize forms like 16N+4) and the weights as the B matrix (K x Cout)
   — or its transpose, whichever the planner finds cheaper to load — with K = channelSize*Kh*Kw in the
   img2col column order (channel group, kh, kw, channel-in-group; docs/load3d.md "The img2col matrix"), so
   that img2col(X) @ B = conv(X, W);
2. slices of output rows x channel groups of the map go to L1 with DataCopy, blocks of B with DataCopy
   ND2NZ; the planner checks every memory's capacity before anything is placed, so a layer of any size
   is tiled through L1, L0A/L0B and L0C;
3. per (M, N, K) tile: Load3D v2 the img2col window to L0A, load the B window to L0B (LoadData2D for Bᵀ,
   or a transposing load for B), Mmad into L0C (the first K tile initialises C, the others accumulate),
   then Fixpipe NZ2ND writes the tile to GM.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

import numpy as np

from ..base.errors import ParamRangeError
from ..core import Core
from ..engine.record import ExecReport
from ..machine.checks import pair
from ..machine.chips import get_chip
from ..machine.dtypes import DType, get_dtype
from ..planner.plans import plan_conv2d
from ..planner.problems import ConvProblem, img2col_column, pads_of, weights_to_b
from ..planner.search import channel_size_error


def mmad_c_type(core: Core, dt: DType, instr: str) -> DType:
    """The Mmad C type (L0C) for dt x dt operands: int32_t for integers, float otherwise; raises if the
    chip does not document the combination (the Mmad combos of `ascsim.machine.chips`, from Mmad.md)."""
    ct = get_dtype("int32_t" if dt.kind == "int" else "float")
    core.chip.check_combo("Mmad", (dt.name, dt.name, ct.name), instr=instr)
    return ct


def flow_stats(reports: Sequence[ExecReport], **extra: object) -> dict:
    """What a flow reports: instructions (count by kind), bytes_moved (bytes written), then `extra`."""
    return {"instructions": dict(Counter(r.instr for r in reports)),
            "bytes_moved": sum(r.bytes_written for r in reports), **extra}


def channel_size_for(channels: int, dt: DType, chip: str = "a2") -> int:
    """Smallest Load3D channelSize >= `channels` that the chip accepts (extra channels are zero)."""
    for c in range(channels, channels + dt.c0 + 1):
        if channel_size_error(get_chip(chip).key, dt.name, c) is None:
            return c
    raise ParamRangeError(f"conv2d: no valid channelSize for {channels} channels of {dt.name}")  # unreachable


def conv2d(core: Core, x_nchw, w_oihw, stride: int | Sequence[int] = 1, pad: int | Sequence[int] = 1,
           dilation: int | Sequence[int] = 1, dtype: str = "half",
           tiles: tuple[int, int, int] | None = None) -> tuple[np.ndarray, dict]:
    """2-D convolution (no bias, groups = 1, N = 1) on the simulated cube: returns (y_nchw, stats).

    Inputs are rounded to `dtype` when written to GM; the result has the Mmad C type (int32 for int8,
    float32 otherwise). `tiles` forces the L0 tile (mt, nt, kt) (multiples of 16, 32, 32 or the whole
    dimension). stats: instructions (count by kind), bytes_moved (bytes written by the instructions),
    tiles (number of (m, n, k) tiles = Mmad calls), tile_shape, plan (the `ascsim.planner.Plan`).
    """
    dt = get_dtype(dtype)
    mmad_c_type(core, dt, "conv2d")
    x = np.asarray(x_nchw)
    w = np.asarray(w_oihw)
    if x.ndim != 4 or x.shape[0] != 1:
        raise ParamRangeError(f"conv2d: x_nchw must have shape (1, C, H, W), but got {x.shape}")
    if w.ndim != 4 or w.shape[1] != x.shape[1]:
        raise ParamRangeError(f"conv2d: w_oihw must have shape (Cout, {x.shape[1]}, Kh, Kw), "
                              f"but got {w.shape}")
    _, cin, h, wd = x.shape
    cout, _, kh, kw = w.shape
    problem = ConvProblem(core.chip.key, 1, cin, h, wd, cout, kh, kw, pair("conv2d", "stride", stride),
                          pads_of(pad), pair("conv2d", "dilation", dilation), dt.name)
    # balanced, not time: a flow runs its calls on this one core, while the time objective ranks the
    # kernel spread over all the chip's cores (docs/planner.md "The flows run plans")
    plan = plan_conv2d(problem, tiles=None if tiles is None else tuple(tiles), instr="conv2d",
                       objective="balanced")
    y, reports = plan.run(core, {"x": x, "w": w})
    ch = plan.choice
    stats = flow_stats(reports, tiles=len(plan.gemm.m_segs) * len(plan.gemm.n_segs) * len(plan.gemm.k_segs),
                       tile_shape=(ch.mt, ch.nt, ch.kt), plan=plan)
    return y, stats


__all__ = ["conv2d", "weights_to_b", "img2col_column", "channel_size_for", "mmad_c_type", "flow_stats"]
