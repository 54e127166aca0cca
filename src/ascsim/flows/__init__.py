"""Complete flows (GM -> L1 -> L0A/L0B -> Mmad -> GM) through the engine, tiled by the planner: conv2d
(`conv2d`), the matmul loads (`matmul`), quantised matmul (`quant`).

`ascsim.flows` keeps the names it had as a module (the conv2d flow and its helpers).
"""

from .conv2d import channel_size_for, conv2d, flow_stats, img2col_column, mmad_c_type, weights_to_b

__all__ = ["conv2d", "weights_to_b", "img2col_column", "channel_size_for", "mmad_c_type", "flow_stats"]
