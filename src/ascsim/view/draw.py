"""Pictures of one executed step: the source (fractal grid, row-major matrix, or the C1 x H x W feature map)
on the left, the destination fractals on the right, at one scale, every destination element coloured by
where it came from; below them the call, the registers it read, the readings it rests on and the colour key.

A picture is a rendering of the step's access plan (docs/python.md "Access plans"): the same final
destination -> source map `ascsim.view.explain` prints. The picture is first built as plain data (`Picture`:
panels of cells with colours, labels, ticks and outlines; no matplotlib), then rendered by matplotlib to
.svg / .png; the HTML explorer (`ascsim.view.explore`) reuses the same panels for its hover map.

Colour groups (one colour per group, families so 49+ groups stay apart):

* Load3D v2 family: one group per (channel group c1, kernel point kh, kw) — one C0 block of img2col
  columns (doc: LoadData_3D.md 数据格式说明, docs/load3d.md: column order c1, kh, kw, c0); hue = (c1, kh),
  shade = kw, and the key is drawn as a kh x kw grid;
* Load3D v1: one group per channel group c1;
* a row-major (ND) source: one group per 16 x C0 tile (hue = tile row, shade = tile column);
* everything else: one group per source fractal (512 B, 16 x C0; 关键分形格式详解.md).

Pad elements are grey, elements the step did not write white, and elements another call wrote (earlier
in the run or the core's log) beige — or, with `cumulative=True`, a light tint per earlier step. Each
destination fractal is drawn as one outlined mat (SVG id `dst-fractal-<i>`) filled with the colour of its
dominant source group, so the rim says "this fractal mostly came from there" and `fractal_colours`
exposes that colour to tests.

Scale: the destination shows the fractals written (or `region`); when that is too large for labels to be
read, it zooms to the first fractals that fit (the caption says which) and the source to the part those
fractals read. Labels (`labels=`): "source" — the source (h, w) / (row, col) of each element, matching
the source panel's labels; "logical" — img2col (m, k); "value" — the stored value; "index" — the source
element index; "none"; "auto" picks the most telling one that is legible at the cell size. `focus`
("m=37", "k=5", "dst=123", "fractal=2") outlines the chosen destination elements and the source
elements they read (the receptive field). For matrix sources the first source row read is traced
(magenta) to where it lands, so a transpose shows its direction.

Two-part instructions get a second row for the region the data plan does not show (`explain` "part"):
LoadDataWithSparse's index fractals (128 B, L1 -> sparse index buffer at the L0B address / 4) and Load2DMX's
e8m0 scale units (32 B = 16 x 2, L1 -> L0A_MX / L0B_MX at the L0A / L0B address / 16); destination shapes
`aux-fractal-<i>`.

SetLoadDataBoundary (Load3D): feature-map pixels whose L1 address lies at or past the boundary are read
through the wrap (from address mod boundary, SetLoadDataBoundary.md); they are hatched red on the source
(SVG ids `wrap-src-<c1>-<h>-<w>`) and the destination elements they feed are hatched black.

matplotlib is imported only when a picture is rendered.
"""

from __future__ import annotations

import colorsys
import dataclasses
import hashlib
import re
import textwrap
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from ..base.errors import ParamRangeError, did_you_mean
from ..machine.layouts import R0, cdiv, channel_groups
from ..machine.memory import short_value
from .explain import (
    NOT_WRITTEN,
    PAD,
    StepView,
    final_map,
    format_ranges,
    img2col_coords,
    matrix_coords,
    packed_fields,
    param_items,
    reading_lines,
    step_view,
    struct_fields,
    view_summary,
)

PAD_COLOUR = "#bdbdbd"
UNTOUCHED = "#ffffff"
OTHER_COLOUR = "#eadfc4"  # written by another call
READ_COLOUR = "#9ecae1"  # source elements read, when the source is not coloured by group
WRAP_COLOUR = "#d62728"  # outline/hatch of source pixels read through the SetLoadDataBoundary wrap
FOCUS_COLOUR = "#000000"
TRACE_COLOUR = "#e7298a"
MAX_FRACTALS = 256  # fractals drawn per side
LABEL_MODES = ("auto", "source", "logical", "value", "index", "none")
MIN_FONT = 5.0  # pt: smaller labels are not drawn (5 pt at 100 dpi stays readable in a 1000-px view)
MAX_LABELS = 2500  # per panel: SVG text elements stay < ~150 B each (svg.fonttype "none")
WIDTH_IN = 11.0  # figure width budget (inches, 100 dpi): ~1100 px
PANEL_H_IN = 8.0  # height budget of one row of panels
LABEL_CELL_IN = 0.17  # auto zoom aims at cells at least this big (a 3-4 character label at 5.5 pt)
GAP = 1  # cells between fractals / channel planes

TAB10 = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#bcbd22", "#17becf",
         "#393b79"]
STEP_TINTS = ["#f3e1c7", "#dcebd6", "#e4dcef", "#d7e7f0", "#f2d9de", "#e9ecc9", "#d9efe9", "#ecdccb"]


# -- groups and colours (no matplotlib) -----------------------------------------------------------------


@dataclass
class Groups:
    """Final dst -> src map of a step with a colour group per destination element."""
    view: StepView
    src: np.ndarray  # source element per destination element (PAD / NOT_WRITTEN)
    code: np.ndarray  # group index per destination element (-1 = pad, -2 = not written)
    keys: list[tuple]  # group keys, index = code
    colours: list[str]  # hex colour per group
    wrapped: np.ndarray  # per destination element: read through the SetLoadDataBoundary wrap
    scheme: str = ""  # how colours are assigned, for the key ("hue = kh, shade = kw")

    def colour_of(self, code: int) -> str:
        if code == -1:
            return PAD_COLOUR
        if code < 0:
            return UNTOUCHED
        return self.colours[code]


def group_keys_of(view: StepView, dst_elems: np.ndarray, src: np.ndarray) -> np.ndarray:
    """(n, 3) int array: the group key of each read element (see module docstring)."""
    n = dst_elems.size
    out = np.zeros((n, 3), dtype=np.int64)
    if view.kind == "img2col":
        spec = view.spec
        co = img2col_coords(spec, dst_elems)
        out[:, 0], out[:, 1], out[:, 2] = co["c"] // spec.c0, co["kh"], co["kw"]
    elif view.kind == "v1":
        spec = view.spec
        out[:, 0] = src // (spec.l1H * spec.l1W * spec.channels_per_point)
    elif view.src_nd is not None:  # ND matrix: its 16 x C0 tiles, the fractals it becomes
        c0 = 256 // view.src_bits
        r, c = np.divmod(src, view.src_nd[1])
        out[:, 0], out[:, 1] = r // R0, c // c0
    else:
        rows, cols = view.src_frac_shape()
        out[:, 0] = src // (rows * cols)
    return out


def group_label(view: StepView, key: tuple) -> str:
    if view.part == "index":
        return f"index fractal {key[0]} (128 B)"
    if view.part == "scales":
        return f"scale unit {key[0]} (32 B)"
    if view.kind == "img2col":
        return f"c1 {key[0]}, kh {key[1]}, kw {key[2]}"
    if view.kind == "v1":
        return f"c1 {key[0]}"
    if view.src_nd is not None:
        c0 = 256 // view.src_bits
        return f"src rows {key[0] * R0}-{key[0] * R0 + R0 - 1}, cols {key[1] * c0}-{key[1] * c0 + c0 - 1}"
    return f"src fractal {key[0]}"


def group_key(view: StepView, prov: dict) -> tuple | None:
    """The colour-group key of one `explain.provenance` dict (None for pad / not written)."""
    if prov["status"] != "read":
        return None
    if view.kind == "img2col":
        return (prov["c1"], prov["kh"], prov["kw"])
    if view.kind == "v1":
        return (prov["c1"], 0, 0)
    if view.src_nd is not None:
        return (prov["row"] // R0, prov["col"] // (256 // view.src_bits), 0)
    return (prov["src_fractal"], 0, 0)


def family_colours(major: Sequence[int], minor: Sequence[int]) -> list[str]:
    """One colour per (major, minor) pair: hue by major (evenly spaced), lightness by minor. Distinct pairs
    get distinct colours, none grey or white (saturation >= 0.55, lightness in [0.28, 0.74])."""
    majors = sorted(set(major))
    minors = sorted(set(minor))
    hue = {m: (0.58 + i / len(majors)) % 1.0 for i, m in enumerate(majors)}
    span = len(minors)
    light = {m: 0.5 if span == 1 else 0.28 + 0.46 * i / (span - 1) for i, m in enumerate(minors)}
    out = []
    for a, b in zip(major, minor, strict=True):
        r, g, bl = colorsys.hls_to_rgb(hue[a], light[b], 0.72 if span > 1 else 0.62)
        out.append(f"#{round(r * 255):02x}{round(g * 255):02x}{round(bl * 255):02x}")
    return out


def _colour_keys(view: StepView, keys: list[tuple]) -> tuple[list[str], str]:
    """Colours of the group keys and how they are assigned."""
    n = len(keys)
    if view.kind == "img2col" and n:
        return (family_colours([k[0] * 1000 + k[1] for k in keys], [k[2] for k in keys]),
                "hue = (c1, kh), shade = kw")
    if n <= len(TAB10):
        return TAB10[:n], ""
    if view.src_nd is not None:
        return family_colours([k[0] for k in keys], [k[1] for k in keys]), "hue = tile row, shade = tile col"
    side = int(np.ceil(np.sqrt(n)))
    idx = [k[0] for k in keys]
    return family_colours([i // side for i in idx], [i % side for i in idx]), (
        f"hue = fractal // {side}, shade = fractal % {side}")


def groups(run: Any, step_index: int, part: str = "data") -> Groups:
    """Colour groups of a step (`part`: "data", or "index" / "scales" for the second part)."""
    return groups_of(step_view(run, step_index, part, who="draw"))


def wrapped_source(view: StepView, src_elems: np.ndarray) -> np.ndarray:
    """Source elements whose L1 byte address is at or past the SetLoadDataBoundary boundary, i.e. that
    are read from (address mod boundary) instead (SetLoadDataBoundary.md); all False when it is off."""
    src_elems = np.asarray(src_elems, dtype=np.int64)
    if not view.boundary or view.src is None:
        return np.zeros(src_elems.shape, dtype=bool)
    addr = view.src.offset + src_elems * view.src_bits // 8
    return (src_elems >= 0) & (addr >= view.boundary)


def groups_of(view: StepView) -> Groups:
    src, _ = final_map(view)
    code = np.where(src == PAD, -1, -2).astype(np.int64)
    read = np.flatnonzero(src >= 0)
    keys: list[tuple] = []
    if read.size:
        k = group_keys_of(view, read, src[read])
        uniq, inv = np.unique(k, axis=0, return_inverse=True)
        code[read] = inv.ravel()
        keys = [tuple(int(x) for x in row) for row in uniq]
    colours, scheme = _colour_keys(view, keys)
    return Groups(view, src, code, keys, colours, wrapped_source(view, src), scheme)


def group_colours(run: Any, step_index: int, part: str = "data") -> dict[tuple, str]:
    """Colour of every source group of the step: {(c1, kh, kw) | (src_fractal, 0, 0) | (c1, 0, 0): hex}."""
    g = groups(run, step_index, part)
    return dict(zip(g.keys, g.colours, strict=True))


def drawn_fractals(g: Groups) -> list[int]:
    """Destination fractals drawable: all of [0, last written] when that is small, else the written ones."""
    fe = g.view.frac_elems
    written = np.flatnonzero(g.src != NOT_WRITTEN)
    if not written.size:
        return []
    touched = np.unique(written // fe)
    last = int(touched[-1])
    if last + 1 <= MAX_FRACTALS:
        return list(range(last + 1))
    return touched[:MAX_FRACTALS].tolist()


def dominant(g: Groups, f: int) -> int:
    """Group code covering most elements of destination fractal f (pad = -1, nothing written = -2); ties go
    to the group met first in the fractal."""
    fe = g.view.frac_elems
    codes = g.code[f * fe : (f + 1) * fe]
    codes = codes[codes != -2]
    if not codes.size:
        return -2
    vals, first, counts = np.unique(codes, return_index=True, return_counts=True)
    best = counts.max()
    cand = vals[counts == best]
    return int(cand[np.argmin(first[counts == best])])


def fractal_colours(run: Any, step_index: int, part: str = "data") -> dict[int, str]:
    """Fill colour (hex) of every drawn destination fractal: its dominant source group's colour, pad grey,
    white when nothing of it was written."""
    g = groups(run, step_index, part)
    return {f: g.colour_of(dominant(g, f)) for f in drawn_fractals(g)}


def wrapped_pixels(g: Groups) -> set[tuple[int, int, int]]:
    """(c1, h, w) of the Load3D feature-map pixels read through the SetLoadDataBoundary wrap."""
    reads = g.src[g.src >= 0]
    hit = np.unique(reads[wrapped_source(g.view, reads)])
    if g.view.kind not in ("img2col", "v1") or not hit.size:
        return set()
    p, h, w = _fmap_pixel(g.view, hit)
    return set(zip(p.tolist(), h.tolist(), w.tolist(), strict=True))


# -- placement ------------------------------------------------------------------------------------------


def _dst_grid(view: StepView, fractals: list[int]) -> tuple[dict[int, tuple[int, int]], str]:
    """Grid position (fractal row, fractal column) of each destination fractal, laid out as the stored
    matrix when the layout is known (Zz row-major, Nz column-major), else wrapped 8 per row."""
    spec = view.spec
    name = type(spec).__name__
    pos: dict[int, tuple[int, int]] = {}
    how = "memory order, 8 per row"
    if name == "Img2colSpec" and view.part == "data":
        rows, cols = spec.window_rows().size, spec.window_cols().size
        trans = spec.layout in ("ZZ_T", "NZ_T")
        axes = "rows = img2col k, columns = m (transposed)" if trans else "rows = img2col m, columns = k"
        if spec.layout in ("ZZ", "ZZ_T"):
            width = cdiv(cols, spec.c0) if spec.layout == "ZZ" else 2 * cdiv(rows, R0) if spec.bits == 32 \
                else cdiv(rows, spec.c0)
            pos = {f: divmod(f, width) for f in fractals}
            how = f"Zz, fractals row-major; {axes}"
        else:
            s = spec.dstStride or 1
            pos = {f: (f % s, f // s) for f in fractals}
            how = f"Nz, fractals column-major (column stride {s}); {axes}"
    elif name == "Load2DV2Spec" and spec.dstStride and view.part == "data":
        pos = {f: (f % spec.dstStride, f // spec.dstStride) for f in fractals}
        how = f"Nz: fractals column-major, column stride {spec.dstStride}"
    if not pos and view.part == "data":
        pos, how = _square_grid(view, fractals, "dst_fractals")
    if not pos or len(set(pos.values())) != len(pos):
        pos, how = _memory_grid(fractals)
    return pos, how


def _memory_grid(fractals: list[int]) -> tuple[dict[int, tuple[int, int]], str]:
    """Fractals in memory order, wrapped into a roughly square grid (at most 8 per row)."""
    per = min(8, max(1, int(np.ceil(np.sqrt(len(fractals))))))
    base = fractals[0] if fractals else 0
    pos = {f: divmod(f - base, per) for f in fractals}
    return pos, (f"memory order, {per} per row" if len(fractals) > 1 else "one fractal")


def _square_grid(view: StepView, fractals: list[int], which: str) -> tuple[dict[int, tuple[int, int]], str]:
    """LoadDataWithTranspose: the fractals of each transposed square drawn as the square they form —
    stacked (b4 / b8: 4 / 2 fractals of 16 rows; b16: one) or side by side (b32: two 16 x 8 halves)."""
    sq = view.plan.info.get(which)
    if sq is None or not len(fractals):
        return {}, ""
    n_f = int(np.asarray(sq).shape[1])
    base = min(fractals)
    side = view.plan.bits == 32
    pos = {}
    for f in fractals:
        q, i = divmod(f - base, n_f)
        pos[f] = (0, q * n_f + i) if side else (i, q)
    return pos, f"one square of {n_f} fractal(s) per column" if not side else "squares side by side"



def _src_fractal_grid(view: StepView, fractals: list[int]) -> tuple[dict[int, tuple[int, int]], str]:
    ts = view.src_spec
    pos: dict[int, tuple[int, int]] = {}
    how = "memory order, 8 per row"
    if ts is not None and ts.shape and len(ts.shape) == 2 and view.src_base == 0 and view.part == "data":
        rows, cols = ts.shape
        c0 = 256 // view.src_bits
        if ts.layout == "nz":
            s = cdiv(rows, R0)
            pos = {f: (f % s, f // s) for f in fractals}
            how = f"Nz {rows} x {cols}: fractals column-major"
        elif ts.layout == "zz":
            w = cdiv(cols, c0)
            pos = {f: divmod(f, w) for f in fractals}
            how = f"Zz {rows} x {cols}: fractals row-major"
        elif ts.layout == "zn":
            w = cdiv(cols, R0)
            pos = {f: divmod(f, w) for f in fractals}
            how = f"Zn {rows} x {cols}: fractals row-major (K0 x 16 each, stored n-major)"
    if not pos and view.part == "data":
        pos, how = _square_grid(view, fractals, "src_fractals")
    if not pos:
        pos, how = _memory_grid(fractals)
    return pos, how


def _compact(pos: dict[int, tuple[int, int]]) -> dict[int, tuple[int, int]]:
    """Shift grid positions so the first used row / column is 0 (a zoomed region starts at the corner)."""
    if not pos:
        return pos
    r0 = min(p[0] for p in pos.values())
    c0 = min(p[1] for p in pos.values())
    return {f: (r - r0, c - c0) for f, (r, c) in pos.items()}


# -- the picture as data ----------------------------------------------------------------------------------


@dataclass
class Panel:
    """One side of a picture: cells (x right, y down) with colours, labels, ticks and outlines.

    `locate(elements)` gives the (x, y) cell of tensor elements (ok = drawn), so focus outlines, the
    explorer's hover map and the trace all use one mapping.
    """
    kind: str  # "dst" | "src"
    width: int
    height: int
    colour: np.ndarray  # (height, width) hex strings; "" = background
    locate: Callable[[np.ndarray], tuple[np.ndarray, np.ndarray, np.ndarray]]
    caption: str = ""
    frames: list[tuple[float, float, float, float, str, str | None]] = field(default_factory=list)
    texts: np.ndarray | None = None  # (height, width) label per cell ("" = none)
    label_mode: str = "none"
    titles: list[tuple[float, float, str]] = field(default_factory=list)
    xticks: list[tuple[float, str]] = field(default_factory=list)
    yticks: list[tuple[float, str]] = field(default_factory=list)
    xlabel: str = ""
    ylabel: str = ""
    hatches: list[tuple[float, float, float, float, str, str | None]] = field(default_factory=list)
    # (x, y, colour, style) of outlined cells: the focus and the trace
    outlines: list[tuple[np.ndarray, np.ndarray, str, str]] = field(default_factory=list)
    elements: np.ndarray | None = None  # (height, width) element index per cell, -1 = none (explorer)


@dataclass
class Picture:
    """Everything a rendering needs: rows of (source, destination) panels and the text blocks below."""
    rows: list[list[Panel | None]]
    title: str
    blocks: list[tuple[str, list[str]]]  # (heading, lines) under the panels
    key: list[tuple[str, str]]  # (colour, label) swatches
    grids: list[tuple[str, list[list[str]], str, str]]  # img2col key grids: (title, kh x kw colours, ...)
    view: StepView
    g: Groups
    notes: list[str] = field(default_factory=list)


def _fmap_pixel(view: StepView, s: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(channel group, h, w) of Load3D source elements (L1 layout of layouts.chw_to_fmap_l1 / v1 planes)."""
    spec = view.spec
    s = np.asarray(s, dtype=np.int64)
    hgt, wid = spec.l1H, spec.l1W
    if view.kind == "img2col":
        c0 = spec.c0
        full = spec.channels - spec.channels % c0
        n_full = full * hgt * wid
        tail = max(spec.channels % c0, 1)
        p = np.where(s < n_full, s // (hgt * wid * c0), full // c0)
        pix = np.where(s < n_full, (s % (hgt * wid * c0)) // c0, (s - n_full) // tail)
    else:
        cp = spec.channels_per_point
        p = s // (hgt * wid * cp)
        pix = (s % (hgt * wid * cp)) // cp
    return p, pix // wid, pix % wid


def _fit_font(texts: Sequence[str], cell_pt: float) -> tuple[float, bool]:
    """Largest font (pt, <= 7) at which every label fits one cell, and whether to break labels at the comma
    onto two lines (better for long coordinates)."""
    if not texts:
        return 0.0, False
    longest = max(len(t) for t in texts)
    one = min(7.0, cell_pt * 0.72, cell_pt * 0.92 / (0.62 * max(longest, 1)))
    halves = max(max(len(x) for x in t.split(",")) for t in texts)
    two = min(7.0, cell_pt * 0.92 / (0.62 * max(halves, 1)), cell_pt * 0.9 / 2.1)
    if any("," in t for t in texts) and two > one * 1.15:
        return two, True
    return one, False


def _parse_focus(view: StepView, focus: str | None) -> np.ndarray | None:
    """Destination elements selected by `focus` ("m=37", "k=5", "dst=123", "fractal=2"), written ones only."""
    if not focus:
        return None
    m = re.fullmatch(r"\s*(m|k|dst|fractal)\s*=\s*(\d+)\s*", focus)
    if not m:
        raise ParamRangeError(f"draw: focus must be m=N, k=N, dst=N or fractal=N, but got {focus!r}")
    what, n = m.group(1), int(m.group(2))
    src, _ = final_map(view)
    written = np.flatnonzero(src != NOT_WRITTEN)
    if what == "dst":
        sel = written[written == n]
    elif what == "fractal":
        sel = written[written // view.frac_elems == n]
    else:
        if view.kind != "img2col":
            raise ParamRangeError(f"draw: focus {what}=N needs an img2col step (Load3D v2 family), "
                                  f"but step {view.index} is {view.plan.instr}; use dst=N or fractal=N")
        co = img2col_coords(view.spec, written)
        sel = written[co[what] == n]
    if not sel.size:
        raise ParamRangeError(f"draw: focus {focus!r} selects no element this step wrote")
    return sel


def _parse_region(view: StepView, region: str | Sequence[int] | None, fractals: list[int]
                  ) -> list[int] | None:
    """Destination fractals of `region` ("0-12", "0,3,5-7", "all" or a list); None = automatic."""
    if region is None or region == "auto":
        return None
    if region == "all":
        return fractals
    if isinstance(region, str):
        chosen: list[int] = []
        for part in region.split(","):
            m = re.fullmatch(r"\s*(\d+)\s*(?:-\s*(\d+)\s*)?", part)
            if not m:
                raise ParamRangeError(f"draw: region must be destination fractals like 0-12 or 0,3,5-7 (or "
                                      f"all), but got {region!r}")
            lo = int(m.group(1))
            hi = int(m.group(2)) if m.group(2) else lo
            chosen += range(lo, min(hi, max(fractals, default=-1)) + 1)  # "0-99999999999": no huge list
    else:
        chosen = [int(f) for f in region]
    have = set(fractals)
    out = sorted(f for f in set(chosen) if f in have)
    if not out:
        raise ParamRangeError(f"draw: region {region!r} holds no destination fractal of this step "
                              f"(fractals 0-{fractals[-1] if fractals else 0} are drawable)")
    return out


def _other_writes(view: StepView, others: Sequence[tuple[str, Any]]) -> tuple[np.ndarray, list[str]]:
    """Per destination element: index into `labels` of the last other call that wrote it (-1 = none)."""
    n = view.n_dst
    last = np.full(n, -1, dtype=np.int64)
    labels: list[str] = []
    dmem = view.dst.memory
    bits = view.dst_bits
    for label, rep in others:
        op, plan = getattr(rep, "dst", None), getattr(rep, "plan", None)
        if op is None or plan is None or op.memory() is not dmem:
            continue
        byte = op.offset * 8 + plan.dst * plan.bits  # bit address of each written element
        e = (byte - view.dst.offset * 8) // bits
        e = e[(e >= 0) & (e < n)]
        if e.size:
            last[e] = len(labels)
            labels.append(label)
    return last, labels


def _dst_panel(g: Groups, fractals: list[int], gid: str, other: np.ndarray | None, other_mode: str
               ) -> Panel:
    view = g.view
    pos, how = _dst_grid(view, fractals)
    pos = _compact(pos)
    c0, fe = view.dst_c0, view.frac_elems
    nr = max(p[0] for p in pos.values()) + 1
    nc = max(p[1] for p in pos.values()) + 1
    width, height = nc * (c0 + GAP) - GAP, nr * (R0 + GAP) - GAP
    colour = np.full((height, width), "", dtype=object)
    elements = np.full((height, width), -1, dtype=np.int64)
    frames, hatches = [], []
    for f in fractals:
        r, c = pos[f]
        x0, y0 = c * (c0 + GAP), r * (R0 + GAP)
        e = np.arange(f * fe, (f + 1) * fe)
        inside = e < g.code.size
        codes = np.full(fe, -2, dtype=np.int64)
        codes[inside] = g.code[e[inside]]
        cols = np.array([g.colour_of(int(k)) for k in codes], dtype=object)
        if other is not None:
            oth = np.full(fe, -1, dtype=np.int64)
            oth[inside] = other[e[inside]]
            mask = (codes == -2) & (oth >= 0)
            if other_mode == "cumulative":
                cols[mask] = [STEP_TINTS[int(k) % len(STEP_TINTS)] for k in oth[mask]]
            else:
                cols[mask] = OTHER_COLOUR
        colour[y0 : y0 + R0, x0 : x0 + c0] = cols.reshape(R0, c0)
        elements[y0 : y0 + R0, x0 : x0 + c0] = e.reshape(R0, c0)
        frames.append((x0, y0, c0, R0, g.colour_of(dominant(g, f)), f"{gid}-{f}"))
        wrap = np.zeros(fe, dtype=bool)
        wrap[inside] = g.wrapped[e[inside]]
        for rr, row in enumerate(wrap.reshape(R0, c0)):  # one hatched bar per run of wrapped cells
            edges = np.flatnonzero(np.diff(np.concatenate(([0], row.astype(np.int8), [0]))))
            for lo, hi in zip(edges[::2], edges[1::2], strict=True):
                hatches.append((x0 + lo, y0 + rr, hi - lo, 1, "#000000", None))
    origin = {f: (pos[f][1] * (c0 + GAP), pos[f][0] * (R0 + GAP)) for f in fractals}

    def locate(elems: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        elems = np.asarray(elems, dtype=np.int64)
        f, inner = np.divmod(elems, fe)
        xs = np.array([origin.get(int(i), (-1, -1))[0] for i in f.tolist()], dtype=np.int64)
        ys = np.array([origin.get(int(i), (-1, -1))[1] for i in f.tolist()], dtype=np.int64)
        ok = xs >= 0
        return xs + inner % c0, ys + inner // c0, ok

    mem = view.dst.memory.name
    note = f" {view.note}" if view.note else ""
    all_fr = drawn_fractals(g)
    zoom = "" if len(fractals) == len(all_fr) else (
        f"; showing fractals {_span_text(fractals)} of {len(all_fr)} (region)")
    caption = (f"destination {view.dst_name} ({mem} @0x{view.dst.offset:x}, {view.dst.dtype.name}){note}: "
               f"{len(fractals)} fractal(s) of 16 x {c0}; {how}{zoom}")
    panel = Panel("dst", width, height, colour, locate, caption, frames, hatches=hatches, elements=elements)
    _dst_ticks(panel, view, fractals, pos)
    return panel


def _span_text(fractals: list[int]) -> str:

    return format_ranges(fractals)


def _dst_ticks(panel: Panel, view: StepView, fractals: list[int], pos: dict[int, tuple[int, int]]) -> None:
    """Axis ticks every fractal: img2col m / k of each fractal row / column, else fractal numbers."""
    c0 = view.dst_c0
    by_col: dict[int, int] = {}
    by_row: dict[int, int] = {}
    for f in fractals:
        r, c = pos[f]
        by_col.setdefault(c, f)
        by_row.setdefault(r, f)
    if view.kind == "img2col" and view.part == "data":
        spec = view.spec
        trans = spec.layout in ("ZZ_T", "NZ_T")
        fe = view.frac_elems
        for c, f in sorted(by_col.items()):
            co = img2col_coords(spec, np.array([f * fe]))
            v = int(co["m" if trans else "k"][0])
            panel.xticks.append((c * (c0 + GAP), str(v)))
        for r, f in sorted(by_row.items()):
            co = img2col_coords(spec, np.array([f * fe]))
            v = int(co["k" if trans else "m"][0])
            panel.yticks.append((r * (R0 + GAP), str(v)))
        panel.xlabel, panel.ylabel = ("m", "k") if trans else ("k", "m")
        return
    one_row = len(by_row) == 1
    for f in fractals:
        r, c = pos[f]
        if one_row:
            panel.xticks.append((c * (c0 + GAP), f"F{f}"))
        else:
            panel.titles.append((c * (c0 + GAP) + c0 / 2, r * (R0 + GAP), f"F{f}"))


def _fmap_panel(g: Groups, reads: np.ndarray) -> Panel:
    """Load3D source: one H x W grid of pixel cells per channel group, cropped to the pixels read."""
    view = g.view
    spec = view.spec

    if view.kind == "img2col":
        plane_of = channel_groups(spec.channels, spec.c0)
    else:
        plane = spec.l1H * spec.l1W * spec.channels_per_point
        n_planes = int(reads.max()) // plane + 1 if reads.size else 1
        plane_of = [(i * spec.c0, spec.channels_per_point) for i in range(n_planes)]
    p, h, w = _fmap_pixel(view, reads)
    h0, h1 = (int(h.min()), int(h.max())) if reads.size else (0, spec.l1H - 1)
    w0, w1 = (int(w.min()), int(w.max())) if reads.size else (0, spec.l1W - 1)
    h0, w0 = max(0, h0 - 1), max(0, w0 - 1)  # one pixel of context around what was read
    h1, w1 = min(spec.l1H - 1, h1 + 1), min(spec.l1W - 1, w1 + 1)
    ph, pw = h1 - h0 + 1, w1 - w0 + 1
    planes = sorted(set(p.tolist())) or [0]
    n = len(planes)
    per_row = max(1, min(n, int(np.ceil(np.sqrt(n * ph / max(pw, 1) * 0.5)))))
    prow = cdiv(n, per_row)
    width, height = per_row * (pw + GAP) - GAP, prow * (ph + GAP) - GAP
    colour = np.full((height, width), "", dtype=object)
    elements = np.full((height, width), -1, dtype=np.int64)
    origin = {}
    frames, titles, hatches = [], [], []
    wrapped = wrapped_pixels(g)
    first_elem = _fmap_first_elements(view, plane_of)
    for i, q in enumerate(planes):
        pr, pc = divmod(i, per_row)
        x0, y0 = pc * (pw + GAP), pr * (ph + GAP)
        origin[q] = (x0, y0)
        colour[y0 : y0 + ph, x0 : x0 + pw] = UNTOUCHED
        hh, ww = np.meshgrid(np.arange(h0, h1 + 1), np.arange(w0, w1 + 1), indexing="ij")
        elements[y0 : y0 + ph, x0 : x0 + pw] = first_elem(q, hh, ww)
        frames.append((x0, y0, pw, ph, "#000000", None))
        first, cnt = plane_of[q] if q < len(plane_of) else (q * spec.c0, spec.c0)
        packed = ", packed" if cnt != spec.c0 else ""
        titles.append((x0 + pw / 2, -(y0 + ph + 0.15), f"c1 {q}: c {first}-{first + cnt - 1}{packed}"))
        for (wq, wh, wwp) in sorted(wrapped):
            if wq == q and h0 <= wh <= h1 and w0 <= wwp <= w1:
                hatches.append((x0 + wwp - w0, y0 + wh - h0, 1, 1, WRAP_COLOUR, f"wrap-src-{q}-{wh}-{wwp}"))
    ys = np.array([origin[int(q)][1] for q in p.tolist()], dtype=np.int64) + h - h0 if reads.size else h
    xs = np.array([origin[int(q)][0] for q in p.tolist()], dtype=np.int64) + w - w0 if reads.size else w
    if reads.size:
        colour[ys, xs] = READ_COLOUR  # a pixel feeds many kernel points: one colour for "read"

    def locate(elems: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        pp, hh, ww = _fmap_pixel(view, elems)
        ok = np.array([int(q) in origin for q in pp.tolist()], dtype=bool) & (hh >= h0) & (hh <= h1) \
            & (ww >= w0) & (ww <= w1)
        x = np.array([origin.get(int(q), (0, 0))[0] for q in pp.tolist()], dtype=np.int64) + ww - w0
        y = np.array([origin.get(int(q), (0, 0))[1] for q in pp.tolist()], dtype=np.int64) + hh - h0
        return x, y, ok

    crop = "" if (ph, pw) == (spec.l1H, spec.l1W) else f", showing h {h0}-{h1}, w {w0}-{w1}"
    bank = f" from the FMATRIX {spec.fmatrix} bank" if view.kind == "img2col" else ""
    caption = (f"source {view.src_name} (L1 feature map {spec.l1H} x {spec.l1W}{bank}, {len(plane_of)} "
               f"channel group(s){crop}); cell = one pixel of a channel group; blue = read")
    if wrapped:
        caption += (f"; red hatch = at/past the boundary {view.boundary} B, read from L1 address mod "
                    f"{view.boundary}")
    panel = Panel("src", width, height, colour, locate, caption, frames, titles=titles, hatches=hatches,
                  elements=elements)
    step = max(1, int(np.ceil(max(ph, pw) / 12)))
    for q in planes[:per_row]:
        x0 = origin[q][0]
        panel.xticks += [(x0 + ww - w0 + 0.5, str(ww)) for ww in range(w0, w1 + 1) if ww % step == 0]
    for q in planes[::per_row]:
        y0 = origin[q][1]
        panel.yticks += [(y0 + hh - h0 + 0.5, str(hh)) for hh in range(h0, h1 + 1) if hh % step == 0]
    panel.xlabel, panel.ylabel = "w", "h"
    return panel


def _fmap_first_elements(view: StepView, plane_of: list[tuple[int, int]]):
    """Element index of the first channel of pixel (h, w) in channel group q."""
    spec = view.spec
    hw = spec.l1H * spec.l1W

    def first(q: int, h: np.ndarray, w: np.ndarray) -> np.ndarray:
        pix = h * spec.l1W + w
        if view.kind == "v1":
            cp = spec.channels_per_point
            return q * hw * cp + pix * cp
        start, cnt = plane_of[q] if q < len(plane_of) else (q * spec.c0, spec.c0)
        return start * hw + pix * cnt

    return first


def _src_cell_colours(g: Groups) -> dict[int, str]:
    """Colour of each source element read: the colour of the group that read it (last reader wins)."""
    read = np.flatnonzero(g.src >= 0)
    out: dict[int, str] = {}
    for e, s in zip(read.tolist(), g.src[read].tolist(), strict=True):
        out[s] = g.colours[g.code[e]]
    return out


def _matrix_panel(g: Groups, reads: np.ndarray) -> Panel:
    """Source in fractals (16 x C0; index / scale fractals for the second parts): the fractals read, each
    cropped to the rows / columns read when that leaves out a quarter or more."""
    view = g.view
    rows, cols = view.src_frac_shape()
    fe = rows * cols
    touched = np.unique(reads // fe)
    lo, hi = int(touched[0]), int(touched[-1])
    fractals = list(range(lo, hi + 1)) if hi - lo + 1 <= MAX_FRACTALS else touched[:MAX_FRACTALS].tolist()
    ir, ic = (reads % fe) // cols, reads % cols
    r0, r1, c0_, c1_ = int(ir.min()), int(ir.max()) + 1, int(ic.min()), int(ic.max()) + 1
    if (r1 - r0) * (c1_ - c0_) > 0.75 * fe:
        r0, r1, c0_, c1_ = 0, rows, 0, cols
    fh, fw = r1 - r0, c1_ - c0_
    pos, how = _src_fractal_grid(view, fractals)
    pos = _compact(pos)
    nr = max(p[0] for p in pos.values()) + 1
    nc = max(p[1] for p in pos.values()) + 1
    width, height = nc * (fw + GAP) - GAP, nr * (fh + GAP) - GAP
    colour = np.full((height, width), "", dtype=object)
    elements = np.full((height, width), -1, dtype=np.int64)
    key_colour = _src_cell_colours(g)
    frames, titles = [], []
    origin = {}
    rr, cc = np.meshgrid(np.arange(r0, r1), np.arange(c0_, c1_), indexing="ij")
    for f in fractals:
        r, c = pos[f]
        x0, y0 = c * (fw + GAP), r * (fh + GAP)
        origin[f] = (x0, y0)
        e = f * fe + rr * cols + cc
        colour[y0 : y0 + fh, x0 : x0 + fw] = np.array(
            [key_colour.get(int(s), UNTOUCHED) for s in e.ravel().tolist()], dtype=object).reshape(fh, fw)
        elements[y0 : y0 + fh, x0 : x0 + fw] = e
        frames.append((x0, y0, fw, fh, "#000000", None))
        titles.append((x0 + fw / 2, y0, f"F{f}"))

    def locate(elems: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        f, inner = np.divmod(np.asarray(elems, dtype=np.int64), fe)
        xy = np.array([origin.get(int(i), (-1, -1)) for i in f.tolist()], dtype=np.int64).reshape(-1, 2)
        er, ec = inner // cols, inner % cols
        ok = (xy[:, 0] >= 0) & (er >= r0) & (er < r1) & (ec >= c0_) & (ec < c1_)
        return xy[:, 0] + ec - c0_, xy[:, 1] + er - r0, ok

    src = view.src
    crop = "" if (fh, fw) == (rows, cols) else f", each cropped to rows {r0}-{r1 - 1}, cols {c0_}-{c1_ - 1}"
    caption = (f"source {view.src_name} ({src.memory.name} @0x{src.offset:x}, {src.dtype.name}): fractals "
               f"{_span_text(fractals)} of {rows} x {cols}{crop}; {how}; coloured = read")
    return Panel("src", width, height, colour, locate, caption, frames, titles=titles, elements=elements)


def _nd_panel(g: Groups, reads: np.ndarray) -> Panel:
    """Row-major source matrix drawn as its rows x cols (cropped to the tiles read), in tile colours."""
    view = g.view
    rows, cols = view.src_nd  # type: ignore[misc]
    c0 = 256 // view.src_bits
    r, c = np.divmod(reads, cols)
    r0, r1 = int(r.min()) // R0 * R0, min(rows, (int(r.max()) // R0 + 1) * R0)
    k0, k1 = int(c.min()) // c0 * c0, min(cols, (int(c.max()) // c0 + 1) * c0)
    h, w = r1 - r0, k1 - k0
    key_colour = _src_cell_colours(g)
    rr, cc = np.meshgrid(np.arange(r0, r1), np.arange(k0, k1), indexing="ij")
    e = rr * cols + cc
    colour = np.array([key_colour.get(int(s), UNTOUCHED) for s in e.ravel().tolist()],
                      dtype=object).reshape(h, w)
    frames = [(tc - k0, tr - r0, min(c0, k1 - tc), min(R0, r1 - tr), "#000000", None)
              for tr in range(r0, r1, R0) for tc in range(k0, k1, c0)]

    def locate(elems: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        er, ec = np.divmod(np.asarray(elems, dtype=np.int64), cols)
        return ec - k0, er - r0, (er >= r0) & (er < r1) & (ec >= k0) & (ec < k1)

    src = view.src
    crop = "" if (h, w) == (rows, cols) else f", showing rows {r0}-{r1 - 1}, cols {k0}-{k1 - 1}"
    caption = (f"source {view.src_name} ({src.memory.name}, {src.dtype.name}): row-major {rows} x {cols} "
               f"matrix{crop}, outlined in 16 x {c0} tiles; coloured = read")
    panel = Panel("src", w, h, colour, locate, caption, frames, elements=e)
    panel.xticks = [(tc - k0, str(tc)) for tc in range(k0, k1, c0)]
    panel.yticks = [(tr - r0, str(tr)) for tr in range(r0, r1, R0)]
    panel.xlabel, panel.ylabel = "col", "row"
    return panel


def _src_panel(g: Groups, dst_elems: np.ndarray) -> Panel | None:
    """The source panel for what the destination elements `dst_elems` read (None: nothing read)."""
    view = g.view
    if view.src is None:
        return None
    s = g.src[dst_elems]
    reads = np.unique(s[s >= 0])
    if not reads.size:
        return None
    if view.kind in ("img2col", "v1") and view.part == "data":
        return _fmap_panel(g, reads)
    if view.src_nd is not None and view.part == "data":
        return _nd_panel(g, reads)
    return _matrix_panel(g, reads)


# -- labels -----------------------------------------------------------------------------------------------


def _label_texts(view: StepView, mode: str, side: str, elems: np.ndarray, src: np.ndarray,
                 values: Callable[[str, np.ndarray], list[str]]) -> list[str]:
    """Label text of each cell (destination element `elems[i]` holding source `src[i]`, or for the source
    side the source element `elems[i]`)."""
    n = elems.size
    if mode == "none" or not n:
        return [""] * n
    if mode == "value":
        return values(side, elems)
    s = src if side == "dst" else elems
    if mode == "index":
        return [str(int(v)) if v >= 0 else "" for v in s.tolist()]
    if mode == "logical" and view.kind == "img2col" and side == "dst":
        co = img2col_coords(view.spec, elems)
        return [f"{m},{k}" if ok else "" for m, k, ok in zip(co["m"].tolist(), co["k"].tolist(),
                                                             co["ok"].tolist(), strict=True)]
    # "source" (and "logical" elsewhere): where in the source the element is
    out = [""] * n
    ok = s >= 0
    if view.kind in ("img2col", "v1") and view.part == "data":
        if ok.any():
            _, h, w = _fmap_pixel(view, s[ok])
            idx = np.flatnonzero(ok)
            for i, hh, ww in zip(idx.tolist(), h.tolist(), w.tolist(), strict=True):
                out[i] = f"{hh},{ww}"
        return out  # pads stay unlabelled: grey says it (explain gives their padded (h, w))
    ts = view.src_spec
    if view.src_nd is not None:
        cols = view.src_nd[1]
        for i in np.flatnonzero(ok).tolist():
            r, c = divmod(int(s[i]), cols)
            out[i] = f"{r},{c}"
        return out
    rows_f, cols_f = view.src_frac_shape()
    for i in np.flatnonzero(ok).tolist():
        rc = matrix_coords(ts.layout, ts.shape, int(s[i]) + view.src_base, ts.dtype.c0) if ts is not None \
            and view.part == "data" else None
        if rc is None:
            f, inner = divmod(int(s[i]), rows_f * cols_f)
            rc = (inner // cols_f, inner % cols_f)
        out[i] = f"{rc[0]},{rc[1]}"
    return out


def _value_reader(view: StepView) -> Callable[[str, np.ndarray], list[str]]:

    cache: dict[str, tuple[np.ndarray, np.ndarray]] = {}

    def read(side: str, elems: np.ndarray) -> list[str]:
        t = view.dst if side == "dst" else view.src
        if t is None:
            return [""] * elems.size
        if side not in cache:
            n = min(t.length, int(elems.max()) + 1)
            fill = getattr(t.memory.owner, "fill", 0xCD)
            raw = t.bytes()
            bits = t.dtype.bits
            vals = t.read(n)
            if bits == 4:
                marker = raw[np.arange(n) // 2] == fill
            else:
                marker = (raw[: n * bits // 8].reshape(n, bits // 8) == fill).all(axis=1)
            cache[side] = (vals, marker)
        vals, marker = cache[side]
        return ["" if e >= vals.size else "_" if marker[e] else short_value(vals[e].item())
                for e in elems.tolist()]

    return read


def _apply_labels(panels: list[Panel], view: StepView, g: Groups, mode: str, cell_in: float) -> str:
    """Fill each panel's `texts` with one label mode (the same on both sides, so labels match); returns the
    mode used ("none" when nothing fits)."""
    if mode not in LABEL_MODES:
        raise ParamRangeError(f"draw: labels must be one of {', '.join(LABEL_MODES)}, but got {mode!r}")
    if mode == "none":
        return "none"
    reader = _value_reader(view)
    if mode == "auto":
        candidates = ["source", "index"] if view.kind != "matrix" or view.src_spec is not None \
            or view.src_nd is not None else ["index"]
    else:
        candidates = [mode]
    cell_pt = cell_in * 72
    for m in candidates:
        texts = []
        for p in panels:
            sel = p.elements >= 0
            elems = p.elements[sel]
            src = g.src[np.clip(elems, 0, g.src.size - 1)] if p.kind == "dst" else elems
            if p.kind == "dst":
                src = np.where(elems < g.src.size, src, NOT_WRITTEN)
                elems_txt = _label_texts(view, m, "dst", elems, src, reader)
            else:
                read_mask = np.array([c not in ("", UNTOUCHED) for c in p.colour[sel].tolist()], dtype=bool)
                elems_txt = _label_texts(view, m, "src", elems, elems, reader)
                elems_txt = [t if rm or m == "value" else ""
                             for t, rm in zip(elems_txt, read_mask, strict=True)]
            arr = np.full(p.elements.shape, "", dtype=object)
            arr[sel] = elems_txt
            texts.append(arr)
        flat = [t for a in texts for t in a.ravel().tolist() if t]
        font, _ = _fit_font(flat, cell_pt)
        if flat and font >= MIN_FONT and max(int((a != "").sum()) for a in texts) <= MAX_LABELS:
            for p, a in zip(panels, texts, strict=True):
                p.texts, p.label_mode = a, m
            return m
        if mode != "auto":
            return "none"
    return "none"


# -- building the picture ---------------------------------------------------------------------------------


def _auto_region(g: Groups, fractals: list[int], focus: np.ndarray | None) -> list[int]:
    """All destination fractals when the pictures' cells stay >= LABEL_CELL_IN; else the largest leading
    block of the fractal grid that does (at least one fractal); the focus's fractals when one is given."""
    view = g.view
    fe = view.frac_elems
    if focus is not None:
        want = set((focus // fe).tolist())
        return [f for f in fractals if f in want] or fractals

    def cell(fr: list[int]) -> float:
        d = _dst_panel(g, fr, "x", None, "")
        return arrangement([_src_panel(g, _elements_of(fr, fe, g.src.size)), d])[0]

    if cell(fractals) >= LABEL_CELL_IN:
        return fractals
    pos, _ = _dst_grid(view, fractals)
    nrow = max(p[0] for p in pos.values()) + 1
    ncol = max(p[1] for p in pos.values()) + 1
    reads = np.flatnonzero(g.src >= 0)  # start the block at the first fractal that reads something
    r0, c0 = pos.get(int(reads[0]) // fe, (0, 0)) if reads.size else (0, 0)
    best: list[int] = []
    for rows in range(1, nrow - r0 + 1):
        for cols in range(1, ncol - c0 + 1):
            fr = [f for f in fractals if r0 <= pos[f][0] < r0 + rows and c0 <= pos[f][1] < c0 + cols]
            if len(fr) > len(best) and (not best or cell(fr) >= LABEL_CELL_IN):
                best = fr
            elif len(fr) > len(best):
                break
    return best or [f for f in fractals if pos[f] == (r0, c0)] or fractals[:1]


def _elements_of(fractals: list[int], fe: int, n: int) -> np.ndarray:
    e = (np.asarray(fractals, dtype=np.int64)[:, None] * fe + np.arange(fe)).ravel()
    return e[e < n]


def _registers_lines(regs: Any) -> list[str]:
    """Every field of the core's registers, generically (new registers appear without edits here)."""
    if regs is None:
        return []
    lines = []
    for f in dataclasses.fields(regs):
        v = getattr(regs, f.name)
        if dataclasses.is_dataclass(v):
            inner = ", ".join(f"{k.name}={getattr(v, k.name)}" for k in dataclasses.fields(v))
            lines.append(f"{f.name}: {inner}")
        elif f.name in ("padding",):
            lines.append(f"{f.name}: 0x{int(v):x}")
        else:
            lines.append(f"{f.name}: {v}")
    return lines


def _params_lines(view: StepView) -> list[str]:
    params = view.raw.get("params") if isinstance(view.raw, dict) else None
    if not isinstance(params, dict) and view.params is not None:
        params = struct_fields(view.params)
    lines: list[str] = []
    if isinstance(params, dict):  # the struct as the user wrote it; a packed word's fields under it
        packed = packed_fields(view.params)
        lines.append(f"{params.get('type', view.call)}")
        for item, name in zip(param_items(params, None, " = "), [k for k in params if k != "type"],
                              strict=True):
            lines.append("  " + item)
            lines += [f"    .{n} = {x}" for n, x in packed.get(name, {}).items()]
    elif view.spec is not None and dataclasses.is_dataclass(view.spec):
        lines.append(f"{view.plan.instr} (effective values)")
        lines += [f"  {f.name} = {getattr(view.spec, f.name)}" for f in dataclasses.fields(view.spec)
                  if f.name not in ("dtype", "bits")]
    mx = view.raw.get("mx_params") if isinstance(view.raw, dict) and view.aux is not None else None
    if isinstance(mx, dict):
        lines.append(f"{mx.get('type', 'LoadData2DMxParams')}")
        lines += [f"  {k} = {v}" for k, v in mx.items() if k != "type"]
    return lines


def _summary_lines(g: Groups, others: list[str]) -> list[str]:
    s = view_summary(g.view)
    lines = []
    if "img2col" in s:
        i = s["img2col"]
        lines.append(f"img2col {i['M']} x {i['K']} (Ho {i['Ho']}, Wo {i['Wo']})")
        lines.append(f"  window m {i['rows']}")
        lines.append(f"  window k {i['cols']}")
    lines.append(f"wrote {s['elements_written']} el. in {len(s['fractals_written'])} fractal(s), "
                 f"{s['pad_elements']} pad")
    if s["src_span"]:
        mem, lo, hi = s["src_span"]
        lines.append(f"read {mem} 0x{lo:04x}..0x{hi:04x}")
    if s["overlaps"]:
        lines.append(f"OVERLAP: {s['overlaps']} el. written twice+, last wins")
    n_wrap = int(g.wrapped.sum())
    if n_wrap:
        lines.append(f"wrapped at boundary {g.view.boundary} B: {n_wrap} el.")
    aux = s.get("second_part")
    if aux:
        what = "index fractals" if aux["part"] == "index" else "scale units"
        lines.append(f"+ {aux['part']} (lower row): {aux['elements_written']} B, "
                     f"{len(aux['fractals_written'])} {what} of {aux['frac_bytes']} B")
        lines.append(f"  -> {g.view.aux.dst.memory.name} ({g.view.aux.note})")  # type: ignore[union-attr]
    if others:
        lines.append(f"other calls into this memory: {len(others)}")
    return lines


def build_picture(view: StepView, *, region: str | Sequence[int] | None = None, labels: str = "auto",
                  focus: str | None = None, others: Sequence[tuple[str, Any]] = (),
                  cumulative: bool = False) -> Picture:
    """The picture of one step as data (see `Picture` / `Panel`). `others`: (label, ExecReport) of other
    calls whose writes to the destination memory are shown as "written by another call" (or, with
    `cumulative`, tinted per call)."""
    g = groups_of(view)
    fractals = drawn_fractals(g)
    foc = _parse_focus(view, focus)
    chosen = _parse_region(view, region, fractals)
    if chosen is None:
        chosen = _auto_region(g, fractals, foc) if fractals else []
    other, other_labels = _other_writes(view, others) if others else (None, [])
    if cumulative and other is not None and region is None:  # also the fractals only other calls wrote
        fe = view.frac_elems
        extra = np.unique(np.flatnonzero(other >= 0) // fe).tolist()
        chosen = sorted(set(chosen) | set(extra))[:MAX_FRACTALS]
    rows: list[list[Panel | None]] = []
    dst = _dst_panel(g, chosen, "dst-fractal", other, "cumulative" if cumulative else "") if chosen else None
    src = _src_panel(g, _elements_of(chosen, view.frac_elems, g.src.size)) if chosen else None
    rows.append([src, dst])
    aux_g = groups_of(view.aux) if view.aux is not None else None
    if aux_g is not None:
        afr = drawn_fractals(aux_g)
        a_dst = _dst_panel(aux_g, afr, "aux-fractal", None, "") if afr else None
        a_src = _src_panel(aux_g, _elements_of(afr, view.aux.frac_elems, aux_g.src.size)) if afr else None
        rows.append([a_src, a_dst])
    notes = reading_lines(view.notes)
    pic = Picture(rows, "", [], [], [], view, g, notes)
    _decorate(pic, foc)
    # text blocks
    what = view.plan.instr if view.call == view.plan.instr else f"{view.call} -> {view.plan.instr}"
    # a scenario step is a "step", a Python or compiled call a "call" (as the CLI and the explorer say)
    pic.title = f"{view.unit} {view.index}: {what}" if view.index >= 0 else what
    pic.blocks.append(("call", _params_lines(view)))
    pic.blocks.append(("result", _summary_lines(g, other_labels) + notes))
    regs = _registers_lines(view.regs)
    if regs:
        pic.blocks.append((f"registers ({view.regs_note})", regs))
    _key(pic, aux_g, other_labels, cumulative)
    return pic


def _decorate(pic: Picture, foc: np.ndarray | None) -> None:
    """Focus outlines (the chosen destination elements and the source they read) and the trace of the first
    source row read (matrix sources: shows which way a transpose turns it)."""
    src, dst = pic.rows[0]
    g, view = pic.g, pic.view
    if dst is None:
        return
    if foc is not None:
        x, y, ok = dst.locate(foc)
        dst.outlines.append((x[ok], y[ok], FOCUS_COLOUR, "focus"))
        s = g.src[foc]
        s = np.unique(s[s >= 0])
        if src is not None and s.size:
            x, y, ok = src.locate(s)
            src.outlines.append((x[ok], y[ok], FOCUS_COLOUR, "focus"))
        return
    if view.kind != "matrix" or src is None:
        return
    drawn = dst.elements[dst.elements >= 0]
    drawn = drawn[drawn < g.src.size]
    reads = g.src[drawn]
    ok = reads >= 0
    if not ok.any():
        return
    first = int(reads[ok].min())
    rows_f, cols_f = view.src_frac_shape()
    if view.src_nd is not None:
        row_of = reads // view.src_nd[1]
        same = ok & (row_of == first // view.src_nd[1])
    else:
        fe = rows_f * cols_f
        same = ok & (reads // fe == first // fe) & ((reads % fe) // cols_f == (first % fe) // cols_f)
    sel = drawn[same]
    if sel.size < 2:
        return
    x, y, okd = dst.locate(sel)
    dst.outlines.append((x[okd], y[okd], TRACE_COLOUR, "trace"))
    sx, sy, oks = src.locate(g.src[sel])
    src.outlines.append((sx[oks], sy[oks], TRACE_COLOUR, "trace"))
    turned = len(set(x[okd].tolist())) == 1 and len(set(y[okd].tolist())) > 1
    pic.notes.append(f"magenta: the first source row read lands as a destination "
                     f"{'column (transposed)' if turned else 'row'}")


def _key(pic: Picture, aux: Groups | None, other_labels: list[str], cumulative: bool) -> None:
    g, view = pic.g, pic.view
    if view.kind == "img2col" and g.keys:
        spec = view.spec
        by_c1: dict[int, list[list[str]]] = {}
        for k, c in zip(g.keys, g.colours, strict=True):
            grid = by_c1.setdefault(k[0], [["" for _ in range(spec.kw)] for _ in range(spec.kh)])
            if k[1] < spec.kh and k[2] < spec.kw:
                grid[k[1]][k[2]] = c
        for c1, grid in sorted(by_c1.items())[:6]:
            pic.grids.append((f"c1 {c1}", grid, "kw", "kh"))
    else:
        shown = list(zip(g.keys, g.colours, strict=True))
        for k, c in shown[:12]:
            pic.key.append((c, group_label(view, k)))
        if len(shown) > 12:
            pic.key.append(("", f"... {len(shown) - 12} more ({g.scheme})"))
    if aux is not None:
        for k, c in list(zip(aux.keys, aux.colours, strict=True))[:6]:
            pic.key.append((c, f"{aux.view.part}: {group_label(aux.view, k)}"))
    if g.wrapped.any():
        pic.key.append(("hatch", f"wrapped at boundary {view.boundary} B"))
    pic.key.append((PAD_COLOUR, "pad (padValue)"))
    pic.key.append((UNTOUCHED, "not written"))
    if other_labels:
        if cumulative:
            for i, lab in enumerate(other_labels[-8:]):
                pic.key.append((STEP_TINTS[(len(other_labels) - min(8, len(other_labels)) + i)
                                           % len(STEP_TINTS)], f"written by {lab}"))
        else:
            pic.key.append((OTHER_COLOUR, "written by another call"))


# -- rendering (matplotlib) -------------------------------------------------------------------------------


@dataclass
class Placed:
    """Where a panel landed in the figure: axes box (inches from the top-left) and cell size (inches)."""
    panel: Panel
    x: float
    y: float
    cell: float


def _rgba(hexes: np.ndarray) -> np.ndarray:
    from matplotlib.colors import to_rgba_array

    flat = np.where(hexes.ravel() == "", "#00000000", hexes.ravel())
    uniq, inv = np.unique(flat.astype(str), return_inverse=True)
    return to_rgba_array(list(uniq))[inv.ravel()].reshape(*hexes.shape, 4)


def arrangement(row: Sequence[Panel | None], first: bool = True) -> tuple[float, bool]:
    """(inches per cell, stacked) for one row of panels: source and destination share one scale; side by
    side unless stacking the source above the destination gives bigger cells (at most 0.32 in)."""
    ps = [p for p in row if p is not None]
    if not ps:
        return 0.1, False
    wb, hb = WIDTH_IN - 0.9, PANEL_H_IN if first else PANEL_H_IN / 2
    side = min(0.32, wb / (sum(p.width + 4 for p in ps)), hb / (max(p.height for p in ps) + 3))
    stack = min(0.32, wb / (max(p.width for p in ps) + 4), (hb + 1.5) / (sum(p.height + 5 for p in ps)))
    return (stack, True) if len(ps) > 1 and stack > side * 1.25 else (side, False)


def _dark_cells(colour: np.ndarray) -> np.ndarray:
    """Cells whose fill is dark enough for white text (relative luminance < 0.4)."""
    rgba = _rgba(colour)
    lum = 0.2126 * rgba[..., 0] + 0.7152 * rgba[..., 1] + 0.0722 * rgba[..., 2]
    return (lum < 0.4) & (rgba[..., 3] > 0)


def _draw_panel(ax: Any, p: Panel, cell: float) -> None:
    from matplotlib.patches import PathPatch, Rectangle
    from matplotlib.path import Path as MplPath

    cell_pt = cell * 72
    ax.set_xlim(-0.6, p.width + 0.6)
    ax.set_ylim(p.height + 0.6, -0.6)
    ax.set_aspect("equal")
    for s in ax.spines.values():
        s.set_visible(False)
    ax.tick_params(length=2, pad=1, labelsize=min(7.0, max(5.5, cell_pt * 0.7)))
    ax.set_xticks([t[0] for t in p.xticks], [t[1] for t in p.xticks])
    ax.set_yticks([t[0] for t in p.yticks], [t[1] for t in p.yticks])
    ax.xaxis.tick_top()
    if p.xlabel:
        ax.xaxis.set_label_position("top")
        ax.set_xlabel(p.xlabel, fontsize=7, labelpad=1)
    if p.ylabel:
        ax.set_ylabel(p.ylabel, fontsize=7, labelpad=6, rotation=0, va="center", ha="right")
    for x, y, w, h, fill, gid in p.frames:
        if gid is not None:  # a coloured mat behind the elements: its rim shows the dominant source
            rect = Rectangle((x - 0.3, y - 0.3), w + 0.6, h + 0.6, facecolor=fill, edgecolor="#000000",
                             linewidth=0.6, zorder=1)
            rect.set_gid(gid)
        else:
            rect = Rectangle((x, y), w, h, facecolor="none", edgecolor="#000000", linewidth=0.6, zorder=3)
        ax.add_patch(rect)
    ax.imshow(_rgba(p.colour), extent=(0, p.width, p.height, 0), interpolation="nearest", zorder=2)
    if cell >= 0.06:  # faint lines between elements where they do not turn into a grey wash
        segs = []
        for x, y, w, h, _, _ in p.frames:
            segs += [((xx, y), (xx, y + h)) for xx in range(int(x) + 1, int(x + w))]
            segs += [((x, yy), (x + w, yy)) for yy in range(int(y) + 1, int(y + h))]
        if segs:  # one SVG path for all of them
            verts = np.array(segs, dtype=float).reshape(-1, 2)
            codes = np.tile([MplPath.MOVETO, MplPath.LINETO], len(segs))
            ax.add_patch(PathPatch(MplPath(verts, codes), facecolor="none", edgecolor="#ffffff",
                                   linewidth=0.35, alpha=0.8, zorder=2.5))
    for x, y, w, h, colour, gid in p.hatches:
        rect = Rectangle((x, y), w, h, facecolor="none", edgecolor=colour, hatch="////",
                         linewidth=1.0 if gid is not None else 0.0, zorder=3.5)
        if gid is not None:
            rect.set_gid(gid)
        ax.add_patch(rect)
    for xs, ys, colour, style in p.outlines:
        if not xs.size:
            continue
        verts = []
        for x, y in zip(xs.tolist(), ys.tolist(), strict=True):
            verts += [(x, y), (x + 1, y), (x + 1, y + 1), (x, y + 1), (x, y)]
        codes = np.tile([MplPath.MOVETO] + [MplPath.LINETO] * 4, xs.size)
        patch = PathPatch(MplPath(np.array(verts, dtype=float), codes), facecolor="none", edgecolor=colour,
                          linewidth=1.4 if style == "focus" else 1.1, zorder=5,
                          linestyle="-" if style == "focus" else (0, (2, 1)))
        patch.set_gid(f"{style}-{p.kind}")
        ax.add_patch(patch)
    if p.texts is not None:
        texts = p.texts
        ys, xs = np.nonzero(texts != "")
        flat = [texts[y, x] for y, x in zip(ys.tolist(), xs.tolist(), strict=True)]
        size, split = _fit_font(flat, cell_pt)
        if size >= MIN_FONT:
            dark = _dark_cells(p.colour)
            for x, y, t in zip(xs.tolist(), ys.tolist(), flat, strict=True):
                ax.text(x + 0.5, y + 0.52, t.replace(",", "\n") if split else t, ha="center", va="center",
                        fontsize=size, zorder=4, color="#ffffff" if dark[y, x] else "#111111",
                        linespacing=0.95)
    tsize = min(7.0, max(5.5, cell_pt * 0.8))
    for x, y, t in p.titles:  # y < 0: under the cell row -y (channel-group names), else above y
        if len(t) * tsize * 0.55 / 72 <= (p.width * cell) * 1.0 and cell * 16 >= 0.3:
            ax.text(x, -y if y < 0 else y - 0.35, t, ha="center", va="top" if y < 0 else "bottom",
                    fontsize=tsize, zorder=4)


def render(pic: Picture, out: str | Path | None = None, fmt: str = "svg"
           ) -> tuple[bytes, list[Placed], tuple[float, float]]:
    """Render a picture with matplotlib: (file bytes, panel placements, (width, height) in inches)."""
    import io

    import matplotlib
    from matplotlib.figure import Figure

    arr = [arrangement(row, i == 0) for i, row in enumerate(pic.rows)]
    margin, gap, cap_line = 0.3, 0.55, 0.13
    tick_pad = 0.35  # room for tick labels / axis label on the left and top of each panel
    widths = []
    for row, (c, stacked) in zip(pic.rows, arr, strict=True):
        ws = [p.width * c + tick_pad for p in row if p is not None]
        widths.append(max(ws, default=0) if stacked else sum(ws) + gap * (len(ws) - 1))
    fig_w = max(7.5, min(WIDTH_IN + 1.5, max(widths, default=0) + 2 * margin))
    # one caption block above each row of panels: left (source) then right (destination)
    caps = []
    for row in pic.rows:
        lines = []
        for p, side in zip(row, ("left", "right"), strict=True):
            if p is not None:
                lab = f"; labels = {_LABEL_MEANING[p.label_mode]}" if p.label_mode != "none" else ""
                lines.append(_wrap(f"{side}: {p.caption}{lab}", fig_w - 2 * margin))
        caps.append("\n".join(lines))
    row_h = []
    for row, (c, stacked), cap in zip(pic.rows, arr, caps, strict=True):
        nl = cap.count("\n") + 1 if cap else 0
        hs = [p.height * c + tick_pad + 0.25 for p in row if p is not None]
        row_h.append(nl * cap_line + 0.12 + (sum(hs) if stacked else max(hs, default=0)))
    # text blocks under the panels, in columns
    cols_txt = [(h, ls) for h, ls in pic.blocks if ls]
    key_rows = len(pic.key)
    grid_h = max((len(gr[1]) for gr in pic.grids), default=0) * 0.11 + 0.35 if pic.grids else 0
    line_h = 0.118
    ncol = len(cols_txt) + 1
    colw = (fig_w - 2 * margin) / ncol
    n_lines = [sum(_wrap_code(ln, colw).count("\n") + 1 for ln in ls) + 1 for _, ls in cols_txt]
    text_h = max(max(n_lines, default=0) * line_h, (key_rows + 3) * line_h + grid_h)
    title_h = 0.3
    fig_h = margin + title_h + sum(row_h) + 0.2 * len(row_h) + text_h + margin
    fig = Figure(figsize=(fig_w, fig_h), dpi=100)
    fig.text(margin / fig_w, 1 - (margin + 0.12) / fig_h, pic.title, fontsize=9, weight="bold", va="center")
    placed: list[Placed] = []
    top = margin + title_h
    for row, (c, stacked), cap, rh in zip(pic.rows, arr, caps, row_h, strict=True):
        x = margin
        nl = cap.count("\n") + 1 if cap else 0
        fig.text(margin / fig_w, 1 - top / fig_h, cap, fontsize=7, va="top", ha="left", linespacing=1.3)
        ay = top + nl * cap_line + 0.12 + tick_pad
        for p in row:
            if p is None:
                continue
            w_in, h_in = p.width * c + 1.2 * c, p.height * c + 1.2 * c
            ax = fig.add_axes(((x + tick_pad) / fig_w, 1 - (ay + h_in) / fig_h, w_in / fig_w, h_in / fig_h))
            _draw_panel(ax, p, c)
            placed.append(Placed(p, x + tick_pad + 0.6 * c, ay + 0.6 * c, c))
            if stacked:
                ay += p.height * c + tick_pad + 0.25
            else:
                x += p.width * c + tick_pad + gap
        top += rh + 0.2
    # blocks: call | result (+ readings) | registers | key
    for i, (head, lines) in enumerate(cols_txt):
        body = "\n".join(_wrap_code(ln, colw) for ln in lines)
        fig.text((margin + i * colw) / fig_w, 1 - top / fig_h, head, fontsize=7, weight="bold", va="top")
        fig.text((margin + i * colw) / fig_w, 1 - (top + line_h) / fig_h, body, fontsize=6.5, va="top",
                 family="monospace", linespacing=1.25)
    kx = margin + len(cols_txt) * colw
    _draw_key(fig, pic, kx, top, colw, fig_w, fig_h, line_h)
    buf = io.BytesIO()
    # text as <text> with one short font name (glyph paths and long fallback lists would make a labelled
    # picture several times larger)
    with matplotlib.rc_context({"svg.fonttype": "none", "svg.hashsalt": "ascsim", "font.family": "sans-serif",
                                "font.sans-serif": ["DejaVu Sans"], "font.monospace": ["DejaVu Sans Mono"]}):
        fig.savefig(buf, format=fmt, metadata={"Date": None} if fmt == "svg" else None)  # reproducible SVG
    data = _compact_svg(buf.getvalue()) if fmt == "svg" else buf.getvalue()
    if out is not None:
        Path(out).write_bytes(data)
    return data, placed, (fig_w, fig_h)


def _compact_svg(data: bytes) -> bytes:
    """Labels are thousands of <text> elements with a handful of distinct styles: move each style into a
    CSS class and round positions to 0.01 pt (a labelled picture shrinks ~2x; pixels do not change)."""
    text = data.decode()
    classes: dict[str, str] = {}
    # a <style> inside an SVG inlined in HTML (a notebook, the explorer) applies to the whole page: the
    # class names carry a digest of the picture, so two pictures on one page never restyle each other
    tag = "s" + hashlib.sha1(data).hexdigest()[:8]

    def cls(m: re.Match) -> str:
        name = classes.setdefault(m.group(1), f"{tag}-{len(classes)}")
        return f'<text class="{name}"'

    text = re.sub(r'<text style="([^"]*)"', cls, text)
    text = re.sub(r'translate\((-?\d+\.\d+) (-?\d+\.\d+)\)',
                  lambda m: f"translate({float(m.group(1)):.2f} {float(m.group(2)):.2f})", text)
    if classes:
        css = "".join(f"text.{n}{{{st}}}" for st, n in classes.items())
        text = text.replace("<defs>", f"<defs><style>{css}</style>", 1) if "<defs>" in text else \
            re.sub(r"(<svg[^>]*>)", rf"\1<style>{css}</style>", text, count=1)
    return text.encode()


def _draw_key(fig: Any, pic: Picture, x: float, top: float, width: float, fig_w: float, fig_h: float,
              line_h: float) -> None:
    from matplotlib.patches import Rectangle

    def sw(y: float, colour: str, label: str) -> None:
        ax_y = 1 - (y + 0.09) / fig_h
        if colour:
            rect = Rectangle((x / fig_w, ax_y), 0.16 / fig_w, 0.085 / fig_h, transform=fig.transFigure,
                             facecolor="#ffffff" if colour == "hatch" else colour, edgecolor="#555555",
                             hatch="////" if colour == "hatch" else None, linewidth=0.5)
            if colour == "hatch":
                rect.set_edgecolor(WRAP_COLOUR)
            fig.add_artist(rect)
        fig.text((x + 0.22) / fig_w, ax_y + 0.04 / fig_h, _clip(label, width - 0.3), fontsize=6.5,
                 va="center")

    fig.text(x / fig_w, 1 - top / fig_h, "destination colour = source", fontsize=7, weight="bold", va="top")
    y = top + line_h
    if pic.g.scheme:
        fig.text(x / fig_w, 1 - y / fig_h, pic.g.scheme, fontsize=6.5, va="top")
        y += line_h
    gx = x
    for title, grid, xl, yl in pic.grids:  # img2col: a kh x kw grid of colours per channel group
        cs = min(0.11, 1.6 / max(len(grid[0]), 1))
        fig.text(gx / fig_w, 1 - (y + 0.02) / fig_h, f"{title} ({yl} down, {xl} across)", fontsize=6,
                 va="top")
        for r, row in enumerate(grid):
            for c, colour in enumerate(row):
                if colour:
                    fig.add_artist(Rectangle(((gx + c * cs) / fig_w, 1 - (y + 0.16 + (r + 1) * cs) / fig_h),
                                             cs / fig_w, cs / fig_h, transform=fig.transFigure,
                                             facecolor=colour, edgecolor="#ffffff", linewidth=0.3))
        gx += max(len(grid[0]) * cs, 1.25) + 0.15
        if gx > x + width - 0.5:
            gx = x
            y += len(grid) * cs + 0.3
    if pic.grids:
        y += max(len(g[1]) for g in pic.grids) * min(0.11, 1.6 / max(len(pic.grids[0][1][0]), 1)) + 0.28
    for colour, label in pic.key:
        sw(y, colour, label)
        y += line_h


def _wrap(text: str, width_in: float) -> str:
    return "\n".join(textwrap.wrap(text, max(30, int(width_in * 17))))


def _wrap_code(line: str, width_in: float) -> str:
    """A monospace line wrapped to `width_in` (6.5 pt: ~18 characters per inch), continuation indented."""
    n = max(16, int(width_in * 18))
    if len(line) <= n:
        return line
    lead = len(line) - len(line.lstrip()) + 4
    return "\n".join(textwrap.wrap(line, n, subsequent_indent=" " * lead, break_on_hyphens=False))


_LABEL_MEANING = {"source": "source (h, w) / (row, col) read", "logical": "img2col (m, k)",
                  "value": "stored value (_ = never written)", "index": "source element index"}


def _clip(text: str, width_in: float) -> str:
    n = max(12, int(width_in * 19))
    return text if len(text) <= n else text[: n - 1] + "…"


class Drawing(str):
    """A picture as its SVG text: a `str` (what `draw()` returned before, so `str(d)` and `in` work as on
    the text) that a notebook shows as the picture (`_repr_html_`: the SVG inline, since notebooks prefer
    text/html), with a short `repr` instead of 60 KB of XML. `save(path)` writes it (.svg or .png)."""

    picture: Picture | None = None  # what it was rendered from (`save` renders a .png from it)

    def _repr_html_(self) -> str:
        return inline_svg(self)

    def __repr__(self) -> str:
        return (f"<Drawing: an SVG picture of {len(self):,} characters; str() is its text, "
                f".save('x.svg' | 'x.png') writes it>")

    def save(self, path: str | Path) -> Path:
        """Write the picture to `path` (.svg: this text; .png: rendered again from the picture)."""
        out = _out_path(path)
        if out.suffix.lower() == ".svg":
            out.write_text(str(self), encoding="utf-8")
        elif self.picture is None:
            raise ParamRangeError(f"draw: this Drawing keeps no picture to render {out.name!r} from; save it "
                                  "as .svg or pass out= to draw()")
        else:
            render(self.picture, out, "png")
        return out


def inline_svg(svg: str) -> str:
    """SVG text as an HTML fragment: the XML prolog and DOCTYPE dropped (they are not allowed inside
    HTML), in a block that scrolls when the picture is wider than the page."""
    start = svg.find("<svg")
    body = svg[start:] if start >= 0 else svg
    return f"<div class='ascsim-picture' style='max-width:100%;overflow-x:auto'>{body}</div>"


def _out_path(out: str | Path) -> Path:
    out = Path(out)
    if out.suffix.lower() not in (".svg", ".png"):
        raise ParamRangeError(f"draw: out_path must end in .svg or .png, but got {out.name!r}")
    return out


def draw_view(view: StepView, out: str | Path | None = None, *, region: str | Sequence[int] | None = None,
              labels: str = "auto", focus: str | None = None, cumulative: bool = False,
              others: Sequence[tuple[str, Any]] = ()) -> Path | Drawing:
    """Draw a step view to `out` (.svg / .png; returns the path) or, with out=None, return the picture as
    a `Drawing` (its SVG text). Options: see the module docstring; `others` as `build_picture`."""
    path = _out_path(out) if out is not None else None
    if labels not in LABEL_MODES:  # before the picture is built
        raise ParamRangeError(f"draw: labels must be one of {', '.join(LABEL_MODES)}, but got "
                              f"{labels!r}{did_you_mean(labels, LABEL_MODES)}")
    pic = build_picture(view, region=region, focus=focus, others=others, cumulative=cumulative)
    label_pass(pic, labels)
    data, _, _ = render(pic, path, path.suffix[1:].lower() if path is not None else "svg")
    if path is not None:
        return path
    d = Drawing(data.decode())
    d.picture = pic
    return d


def label_pass(pic: Picture, labels: str) -> None:
    for i, row in enumerate(pic.rows):
        c, _ = arrangement(row, i == 0)
        panels = [p for p in row if p is not None]
        g = pic.g if row is pic.rows[0] else groups_of(pic.view.aux)  # type: ignore[arg-type]
        view = pic.view if row is pic.rows[0] else pic.view.aux
        _apply_labels(panels, view, g, labels, c)  # type: ignore[arg-type]


def run_others(run: Any, step_index: int) -> list[tuple[str, Any]]:
    """(label, report) of the run's earlier steps (their writes show as "written by another call")."""
    return [(f"step {r.step.index} ({r.step.call})", r.report) for r in run.results[:step_index]
            if r.report is not None]


def draw_step(run: Any, step_index: int, out_path: str | Path | None, *,
              region: str | Sequence[int] | None = None, labels: str = "auto", focus: str | None = None,
              cumulative: bool = False) -> Path | Drawing:
    """Draw step `step_index` of a ScenarioRun to `out_path` (.svg or .png): source -> destination, and for
    LoadDataWithSparse / Load2DMX a second row with the index / scale part. Options: region, labels,
    focus, cumulative (see the module docstring)."""
    if out_path is not None:
        _out_path(out_path)  # a bad suffix is refused before the step is drawn
    view = step_view(run, step_index, who="draw")
    return draw_view(view, out_path, region=region, labels=labels, focus=focus, cumulative=cumulative,
                     others=run_others(run, step_index))


# -- for the explorer (ascsim.view.explore) -----------------------------------------------------------


def register_lines(regs: Any) -> list[str]:
    """The register panel's lines for any Registers (the explorer lists them for steps with no picture)."""
    return _registers_lines(regs)


def cell_labels(pic: Picture) -> list[np.ndarray | None]:
    """The "source" label (or, for an undeclared matrix source, "index") of every cell of the first row's
    panels (None for a missing panel), without `label_pass`'s legibility test: the explorer draws them only
    once the page is zoomed in far enough to read them. Source cells nothing read stay unlabelled."""
    view, g = pic.view, pic.g
    mode = "source" if view.kind != "matrix" or view.src_spec is not None or view.src_nd is not None \
        else "index"
    reader = _value_reader(view)
    out: list[np.ndarray | None] = []
    for p in pic.rows[0]:
        if p is None or p.elements is None:
            out.append(None)
            continue
        sel = p.elements >= 0
        elems = p.elements[sel]
        if p.kind == "dst":
            src = np.where(elems < g.src.size, g.src[np.clip(elems, 0, g.src.size - 1)], NOT_WRITTEN)
        else:
            read = np.array([c not in ("", UNTOUCHED) for c in p.colour[sel].tolist()], dtype=bool)
            src = elems
        arr = np.full(p.elements.shape, "", dtype=object)
        arr[sel] = _label_texts(view, mode, "dst" if p.kind == "dst" else "src", elems, src, reader)
        if p.kind != "dst":
            arr[sel] = np.where(read, arr[sel], "")
        out.append(arr)
    return out
