"""Slow reference interpreters for Load3D v1 / v2 (img2col), written as plain loops from the doc text.

This module is the *readable spec* the vectorised plans in `ascsim.isa.load3d` are property-tested
against; it deliberately shares no code with them (docs/performance.md "Reference interpreters"). Every
destination element is computed one at a time, in the order the doc describes, from:

- LoadData_3D.md 功能说明 / 表3 / 表4 / 约束说明 / Repeat Mode / 数据格式说明,
- SetLoadDataRepeat.md 表2 and 约束说明 (repeat units, repeatTime = 0 NOP),
- ascsim's chosen semantics for what the docs leave open (docs/load3d.md "The img2col matrix" and
  "Window and destination layouts"; docs/divergences.md L5, L7, L8, L13).

Values are whatever the caller passes in `fmap` (element values or raw codes); for the 4-bit types
pass one nibble code per element. Nothing here validates user input like the instruction does; the
interpreters only raise `ValueError` when asked for something their semantics leave undefined
(a K window past the img2col matrix, a destination offset outside `dst_init`, two writes to one
destination element).
"""

from __future__ import annotations

import numpy as np

from ..machine.chips import ChipProfile, get_chip, memory_name
from ..machine.dtypes import DType, get_dtype

FRACTAL_ROWS = 16  # "每个分形大小是16×16 ... 16×8 ... 16×32": every A-side fractal has 16 rows


def _cdiv(a: int, b: int) -> int:
    return -(-a // b)


def channel_groups_ref(channelSize: int, c0: int) -> list[tuple[int, int]]:
    """The channel groups of the L1 feature map: whole C0 groups, then one packed remainder group.

    doc: "要求输入的feature map ... 的格式是NC1HWC0，其中C0是最低维度" and the Ci = 4 narrative
    ("LoadData首先在输入数据的Ci维度搬运对应于00的4个数，然后搬运对应于01的四个数") — the remainder
    channels of the 4 / 8 / 16N+4 ... forms are stored packed per pixel (docs/divergences.md L5).
    """
    groups = []
    start = 0
    while channelSize - start >= c0:
        groups.append((start, c0))
        start += c0
    if channelSize - start > 0:
        groups.append((start, channelSize - start))
    return groups


def fmap_offset_ref(c: int, h: int, w: int, channelSize: int, l1H: int, l1W: int, c0: int) -> int:
    """Element offset of X[c, h, w] in the L1 feature map (docs/layouts.md "NC1HWC0: the feature map in L1").

    Whole groups: NC1HWC0, "(((c//C0)*H + h)*W + w)*C0 + c%C0". The remainder group sits after
    the whole groups with `rem` channels per pixel.
    """
    rem = channelSize % c0
    full = channelSize - rem
    if c < full:
        return (((c // c0) * l1H + h) * l1W + w) * c0 + c % c0
    return full * l1H * l1W + (h * l1W + w) * rem + (c - full)


def img2col_element_ref(m: int, k: int, *, l1H: int, l1W: int, padList, channelSize: int, c0: int,
                        Kh: int, Kw: int, strideW: int, strideH: int, dilationW: int, dilationH: int,
                        Wo: int) -> int | None:
    """W[m][k] as an L1 element offset, or None for the pad value (docs/load3d.md "The img2col matrix").

    doc (数据格式说明): "filter首先在W方向上滑动Wo步，然后在H方向上走一步然后重复以上过程，最终输出
    Wo*Ho行数据" — row m is the window (ho, wo) = (m // Wo, m % Wo); "LoadData首先在输入数据的Ci维度
    搬运对应于00的4个数，然后搬运对应于01的四个数，最终这一行的大小为Hk*Wk*Ci" — inside a channel
    group the columns run kh, kw, then channel.
    """
    left, _right, top, _bottom = padList
    for cs, n in channel_groups_ref(channelSize, c0):
        lo = Kh * Kw * cs
        hi = Kh * Kw * (cs + n)
        if lo <= k < hi:
            j = k - lo
            kh = j // (Kw * n)
            kw = (j // n) % Kw
            c = cs + j % n
            break
    else:
        raise ValueError(f"img2col: column {k} lies past the img2col matrix "
                         f"(C*Kh*Kw = {channelSize * Kh * Kw})")
    ho = m // Wo  # rows past Ho*Wo "just continue the formula" (docs/divergences.md L8)
    wo = m % Wo
    h = ho * strideH + kh * dilationH - top
    w = wo * strideW + kw * dilationW - left
    # doc 表4 padList/padValue: positions in the padding read padValue.
    if h < 0 or h >= l1H or w < 0 or w >= l1W:
        return None
    return fmap_offset_ref(c, h, w, channelSize, l1H, l1W, c0)


def ref_load3d_v2(chip: str | ChipProfile, dtype: str | DType, dst_mem: str, fmap: np.ndarray,
                  l1H: int, l1W: int, padList, channelSize: int, kExtension: int, mExtension: int,
                  kStartPt: int, mStartPt: int, strideW: int, strideH: int, filterW: int, filterH: int,
                  dilationW: int, dilationH: int, filterSizeW: bool, filterSizeH: bool, enTranspose: bool,
                  pad_value, repeat: tuple[int, int, int] = (0, 1, 0), dst_stride_reg: int = 0,
                  dst_init: np.ndarray | None = None, fMatrixCtrl: bool = False,
                  fmatrix_banks: dict | None = None) -> np.ndarray:
    """The destination element array after one Load3D v2 (also v2Pro / BitMode with the same fields).

    `repeat` = the repeat register (repeatStride, repeatTime, repeatMode); `dst_stride_reg` = the 950
    repeat register's dstStride (0 = not set); `dst_init` = the destination elements before the call.
    `fmatrix_banks` = {"left": (l1H, l1W, padList), "right": ...}, the FMATRIX registers: when given, the
    feature-map geometry comes from the bank fMatrixCtrl names (LoadData_3D.md 表4 fMatrixCtrl: "true：
    从右矩阵中获取FeatureMap的属性描述; false：从左矩阵中获取"), not from l1H / l1W / padList.
    """
    if fmatrix_banks is not None:
        l1H, l1W, padList = fmatrix_banks["right" if fMatrixCtrl else "left"]
    chip_p = get_chip(chip)
    dt = get_dtype(dtype)
    mem = memory_name(dst_mem)
    c0 = dt.c0
    fmap = np.asarray(fmap).ravel()
    out = np.array(dst_init, copy=True).ravel()
    rep_stride, rep_time, rep_mode = repeat

    # 约束说明: "当l1H/l1W/channelSize/kExtension/mExtension中的任意一个值为0时，该指令不会被执行。"
    if 0 in (l1H, l1W, channelSize, kExtension, mExtension):
        return out
    # "当filterW为0且filterSizeW为false或者当filterH为0且filterSizeH为false时，该指令不会被执行。"
    if (filterW == 0 and not filterSizeW) or (filterH == 0 and not filterSizeH):
        return out
    # SetLoadDataRepeat 约束说明: "repeatTime=0表示LoadData（卷积数据搬运）不执行搬运"
    if rep_time == 0:
        return out

    # 表4 filterSizeW: "是否在filterW的基础上将卷积核width增加256个元素"
    Kh = filterH + 256 * int(bool(filterSizeH))
    Kw = filterW + 256 * int(bool(filterSizeW))
    left, right, top, bottom = padList
    Ho = (l1H + top + bottom - ((Kh - 1) * dilationH + 1)) // strideH + 1
    Wo = (l1W + left + right - ((Kw - 1) * dilationW + 1)) // strideW + 1
    if Ho < 1 or Wo < 1:
        raise ValueError(f"img2col: no output window (Ho = {Ho}, Wo = {Wo})")

    # SetLoadDataRepeat 表2: "repeatMode为0，repeatStride的单位为16个元素"; mode 1: "32/sizeof(data_type)
    # 个元素" (Atlas 200I/500 A2: "64/sizeof(data_type)个元素").
    k_unit = c0 * (2 if chip_p.key == "atlas200i500a2" else 1)

    # Repeat Mode: "重复过程中的所有分块矩阵将被视为一个整体大矩阵" — build Wsel (R x Kc) as the list of
    # (W row, W column) per Wsel element, repeats concatenated along M (mode 0) or K (mode 1).
    if rep_mode == 0:
        R, Kc = mExtension * rep_time, kExtension
    else:
        R, Kc = mExtension, kExtension * rep_time

    def wsel_source(r: int, c: int) -> tuple[int, int]:
        if rep_mode == 0:
            rep, i = divmod(r, mExtension)
            return mStartPt + rep * rep_stride * FRACTAL_ROWS + i, kStartPt + c
        rep, j = divmod(c, kExtension)
        return mStartPt + r, kStartPt + rep * rep_stride * k_unit + j

    # Destination layout (docs/load3d.md; 约束说明 dst_layout: A2/A3 "L0A: ZZ格式; L0B: ZN格式",
    # 950 "L0A: NZ格式; L0B: ZN格式"; 转置场景:
    # "除了每个分形矩阵自身会被转置，每个分形矩阵在整个二维特征图中的位置也会被转置").
    is950 = chip_p.key == "ascend950"
    transposed = mem == "L0B" or bool(enTranspose)  # "L1 Buffer->L0B Buffer通路下会自动进行转置"
    if is950:
        stored_rows = Kc if transposed else R
        S = dst_stride_reg if dst_stride_reg else _cdiv(stored_rows, FRACTAL_ROWS)
    else:
        S = _cdiv(Kc, FRACTAL_ROWS)  # L0B Zn(Wsel) = Nz(Wsel^T) with column stride ceil(Kc/16)

    def dst_offset(r: int, c: int) -> int:
        F = FRACTAL_ROWS
        if mem == "L0B" or (is950 and transposed):
            # Nz(Wsel^T): stored row c, stored column r.
            return ((r // c0) * S + c // F) * F * c0 + (c % F) * c0 + r % c0
        if is950:
            # Nz(Wsel): "L1 Buffer上的分形排布就是L0A Buffer中所需的NZ分形排布"
            return ((c // c0) * S + r // F) * F * c0 + (r % F) * c0 + c % c0
        if transposed and c0 == 8:
            # b32 转置场景: "每个分形大小是16×8"; the transpose works on 16x16 squares made of two 16x8
            # fractals side by side, so a fractal row holds 2*ceil(R/16) fractals (docs/load3d.md, b32:
            # (((k//16)·(M'/16) + m//16)·2 + (m%16)//8)·128 + (k%16)·8 + m%8).
            return (((c // F) * _cdiv(R, F) + r // F) * 2 + (r % F) // 8) * F * 8 + (c % F) * 8 + r % 8
        if transposed:
            # Zz(Wsel^T): stored matrix Kc x R, row = c, col = r.
            return ((c // F) * _cdiv(R, c0) + r // c0) * F * c0 + (c % F) * c0 + r % c0
        # Zz(Wsel): "从L1 Buffer上的NZ分形排布转换成L0A Buffer中所需的ZZ分形排布"
        return ((r // F) * _cdiv(Kc, c0) + c // c0) * F * c0 + (r % F) * c0 + c % c0

    written = np.zeros(out.size, dtype=bool)
    for r in range(R):
        for c in range(Kc):
            m, k = wsel_source(r, c)
            src = img2col_element_ref(m, k, l1H=l1H, l1W=l1W, padList=(left, right, top, bottom),
                                      channelSize=channelSize, c0=c0, Kh=Kh, Kw=Kw, strideW=strideW,
                                      strideH=strideH, dilationW=dilationW, dilationH=dilationH, Wo=Wo)
            d = dst_offset(r, c)
            if d >= out.size:
                raise ValueError(f"destination offset {d} lies past dst_init ({out.size} elements)")
            if written[d]:
                raise ValueError(f"destination element {d} written twice (Wsel[{r}][{c}])")
            written[d] = True
            out[d] = pad_value if src is None else fmap[src]
    return out


def ref_load3d_v1(chip: str | ChipProfile, dtype: str | DType, dst_mem: str, fmap: np.ndarray,
                  l1H: int, l1W: int, padList, c1Index: int, fetchFilterW: int, fetchFilterH: int,
                  leftTopW: int, leftTopH: int, strideW: int, strideH: int, filterW: int, filterH: int,
                  dilationW: int, dilationH: int, jumpStride: int, repeatMode: int, repeatTime: int,
                  cSize: int, pad_value, dst_init: np.ndarray) -> np.ndarray:
    """The destination element array after one Load3D v1 (Atlas training / inference AI Core; divergence L13).

    doc 表3 + 数据格式说明: "repeatMode =0时，每次repeat会改变在filter窗口中读取数据点的位置，然后跳到下一个
    C0的位置"; "repeatMode =1的时候filter窗口中读取数据的位置保持不变，每个repeat在feature map中前进C0个
    元素"; jumpStride: "迭代之间，目的操作数首地址步长" (in fractals). Each repeat writes one 16 x C0
    fractal, whatever the destination format (`chip`, `dst_mem` are accepted for symmetry only).
    """
    get_chip(chip)
    memory_name(dst_mem)
    dt = get_dtype(dtype)
    c0 = dt.c0
    F = FRACTAL_ROWS
    fmap = np.asarray(fmap).ravel()
    out = np.array(dst_init, copy=True).ravel()
    Kh, Kw = filterH, filterW
    left, right, _top, _bottom = padList
    # cSize: "配置是否开启cSize = 4（b16） / cSize = 8（b8）优化" — cp channels per pixel, packed (H, W, cp).
    cp = {16: 4, 8: 8}.get(dt.bits, c0) if cSize else c0

    # Sliding-window positions p = 0, 1, 2, ...: walk along W by strideW from (leftTopH, leftTopW); a
    # window that would pass the right edge (incl. padding_right) wraps to -padding_left, one strideH down.
    n_pos = F * (repeatTime if repeatMode == 1 else 1)
    positions = []
    hs, ws = leftTopH, leftTopW
    for _p in range(n_pos):
        positions.append((hs, ws))
        ws += strideW
        if ws + (Kw - 1) * dilationW > l1W - 1 + right:
            ws = -left
            hs += strideH

    start = (c1Index * Kh + fetchFilterH) * Kw + fetchFilterW  # flat kernel point (c1, kh, kw)

    def read(h: int, w: int, c1: int, ch: int):
        if h < 0 or h >= l1H or w < 0 or w >= l1W:
            return pad_value
        if cSize:
            off = (h * l1W + w) * cp + ch
        else:
            off = ((c1 * l1H + h) * l1W + w) * c0 + ch
        if off >= fmap.size:
            raise ValueError(f"v1: source offset {off} lies past the feature map ({fmap.size} elements)")
        return fmap[off]

    for r in range(repeatTime):
        point0 = start + (r * (c0 // cp) if repeatMode == 0 else 0)
        for i in range(F):
            hs, ws = positions[i if repeatMode == 0 else F * r + i]
            for j in range(c0):
                if cSize:
                    point = point0 + j // cp
                    ch = j % cp
                    if point >= Kh * Kw:  # kernel points past the filter read the pad value
                        value = pad_value
                        d = (r * jumpStride * F + i) * c0 + j
                        out[d] = value
                        continue
                    c1 = 0
                else:
                    point = point0
                    ch = j
                    c1 = point // (Kh * Kw)
                kh = (point % (Kh * Kw)) // Kw
                kw = point % Kw
                value = read(hs + kh * dilationH, ws + kw * dilationW, c1, ch)
                d = (r * jumpStride * F + i) * c0 + j
                if d >= out.size:
                    raise ValueError(f"destination offset {d} lies past dst_init ({out.size} elements)")
                out[d] = value
    return out
