"""The two kinds of operand a plan moves: a stored matrix (matmul A or B, conv2d weights) and a feature map
unfolded by Load3D (conv2d A). Each turns an L1 block (a pair of `schedule.Block`s) into the DataCopy calls
that fill it and an L0 tile of that block into the load calls (planner.movers)."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..base.errors import NotImplementedFeature
from ..machine.chips import ChipProfile
from ..machine.dtypes import DType
from ..machine.layouts import align, channel_groups
from .movers import FmapBlock, MatrixBlock, block_length, copy_block, fmap_copy, load3d_tile, load_a, load_b
from .program import Call
from .schedule import Block


@dataclass
class MatrixOperand:
    """Operand `side` ("a": axes M x K; "b": K x N) stored in GM tensor `gm` as X = the matrix (row-major)
    or, when `trans`, its transpose; moved to L1 tensor `l1` and into L0 tensor `l0` with `load_kind`."""

    side: str
    chip: ChipProfile
    dt: DType
    load_kind: str
    trans: bool
    gm: str
    pitch: int
    l1: str
    l0: str
    banded: bool = False
    cache: dict = field(default_factory=dict, repr=False)

    def _x(self, pb: Block, qb: Block) -> tuple[int, int, int, int]:
        """(r0, rows, c0, cols) of the block in the stored matrix X."""
        swap = self.trans
        (r, c) = (qb, pb) if swap else (pb, qb)
        return r.start, r.ext, c.start, c.ext

    def cost_key(self, pb: Block, qb: Block) -> tuple:
        """What a block's copy cost depends on: its extents."""
        return pb.ext, qb.ext

    def copy(self, pb: Block, qb: Block) -> tuple[MatrixBlock, list[Call]]:
        r0, rows, c0, cols = self._x(pb, qb)
        return copy_block(self.dt, self.gm, self.pitch, r0, c0, rows, cols, self.l1, self.banded)

    def l1_length(self, pb: Block, qb: Block) -> int:
        _, rows, _, cols = self._x(pb, qb)
        return block_length(self.dt, rows, cols, self.banded)

    def load(self, blk: MatrixBlock, p_off: int, pe: int, q_off: int, qe: int
             ) -> tuple[list[Call], int, bool]:
        if self.side == "a":
            return load_a(self.chip, self.dt, self.load_kind, self.trans, blk, self.l0, p_off, pe, q_off, qe)
        calls, nb = load_b(self.chip, self.dt, self.load_kind, self.trans, blk, self.l0, p_off, pe, q_off, qe)
        return calls, nb, False


@dataclass
class FmapOperand:
    """conv2d's A: the feature maps of `images` images (`channels` channels incl. zero padding, H x W) in GM
    tensor `gm`, one image every `img_stride` elements in the Load3D L1 layout; L1 blocks are slices of
    output rows x channel groups, L0 tiles come from Load3D v2."""

    dt: DType
    gm: str
    l1: str
    l0: str
    channels: int
    height: int
    width: int
    out_h: int
    out_w: int
    kernel: tuple[int, int]  # kh, kw
    pads: tuple[int, int, int, int]  # left, right, top, bottom
    stride: tuple[int, int]  # sh, sw
    dilation: tuple[int, int]  # dh, dw
    img_stride: int
    cache: dict = field(default_factory=dict, repr=False)

    @property
    def geometry(self) -> tuple[int, int, int, int, int, int]:
        (sh, sw), (kh, kw), (dh, dw) = self.stride, self.kernel, self.dilation
        return sw, sh, kw, kh, dw, dh

    def m_blocks(self, images: int, rows_per_block: int) -> tuple[Block, ...]:
        """M = images x Ho x Wo img2col rows; a block = `rows_per_block` output rows of one image."""
        out = []
        for img in range(images):
            for h0 in range(0, self.out_h, rows_per_block):
                h1 = min(self.out_h, h0 + rows_per_block)
                out.append(Block((img * self.out_h + h0) * self.out_w, (h1 - h0) * self.out_w, (img, h0, h1)))
        return tuple(out)

    def k_blocks(self, per_block: int) -> tuple[Block, ...]:
        """K = channels x Kh x Kw img2col columns, ordered (channel group, kh, kw, channel in group): a block
        of whole channel groups is a contiguous K range (docs/load3d.md "The img2col matrix")."""
        kk = self.kernel[0] * self.kernel[1]
        ends = [(c, min(self.channels, c + per_block)) for c in range(0, self.channels, per_block)]
        return tuple(Block(c * kk, (e - c) * kk, (c, e)) for c, e in ends)

    def input_rows(self, h0: int, h1: int) -> tuple[int, int, int, int]:
        """(h_lo, h_hi, pad_top, pad_bottom): the input rows output rows [h0, h1) read, clipped to the map,
        and the padding Load3D must add so its output grid is exactly those rows."""
        (sh, _), (kh, _), (dh, _) = self.stride, self.kernel, self.dilation
        top = self.pads[2]
        first = h0 * sh - top
        last = (h1 - 1) * sh - top + (kh - 1) * dh + 1  # one past the last row read
        lo, hi = max(0, first), min(self.height, last)
        if hi <= lo:
            raise NotImplementedFeature(f"conv2d: output rows {h0}..{h1 - 1} read only padding; such slices "
                                        "are not planned")
        return lo, hi, lo - first, last - hi

    def slice_of(self, pb: Block, qb: Block) -> FmapBlock:
        _, h0, h1 = pb.meta
        lo, hi, pt, pbot = self.input_rows(h0, h1)
        c_lo, c_hi = qb.meta
        return FmapBlock(self.l1, c_lo, c_hi, lo, hi, self.width, (self.pads[0], self.pads[1], pt, pbot))

    def cost_key(self, pb: Block, qb: Block) -> tuple:
        """What a slice's copy cost depends on: its output rows and channels (not the image)."""
        return pb.meta[1:], qb.meta

    def copy(self, pb: Block, qb: Block) -> tuple[FmapBlock, list[Call]]:
        blk = self.slice_of(pb, qb)
        img = pb.meta[0]
        return blk, fmap_copy(self.dt, self.gm, img * self.img_stride, self.channels, self.height, self.width,
                              blk)

    def l1_length(self, pb: Block, qb: Block) -> int:
        blk = self.slice_of(pb, qb)
        rows = blk.h_hi - blk.h_lo
        per32 = 256 // self.dt.bits
        n = sum(align(rows * self.width * n, per32) for s, n in channel_groups(self.channels, self.dt.c0)
                if blk.c_lo <= s < blk.c_hi)
        return n + per32

    def load(self, blk: FmapBlock, p_off: int, pe: int, q_off: int, qe: int) -> tuple[list[Call], int, bool]:
        calls, ha = load3d_tile(self.dt, blk, self.l0, p_off, pe, q_off, qe, self.geometry)
        return calls, ha, False
