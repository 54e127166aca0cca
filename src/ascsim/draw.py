"""Pictures of one executed step: the source (fractal grid, or the C1 x H x W feature map) on the left,
the destination fractals on the right, every destination element coloured by where it came from.

A picture is a rendering of the step's access plan (DESIGN.md "pictures"): the same final
destination -> source map `ascsim.explain` prints. Colour groups:

* Load3D v2 family: one colour per (channel group c1, kernel point kh, kw) — one C0 block of img2col
  columns (doc: LoadData_3D.md 数据格式说明, CONCEPTS §3.1 column order c1, kh, kw, c0);
* Load3D v1: one colour per channel group c1;
* everything else: one colour per source fractal (512 B, 16 x C0; 关键分形格式详解.md);

pad elements are grey, untouched elements white. Each destination fractal is drawn as one outlined
shape (SVG id `dst-fractal-<i>`) filled with the colour of its dominant source group, so the border
says "this fractal mostly came from there" and `fractal_colours` exposes that colour to tests.

Two-part instructions get a second, smaller row of panels for the region the data plan does not show
(`explain` "part"): LoadDataWithSparse's index fractals (128 B, L1 -> sparse index buffer at the L0B
address / 4) and Load2DMX's e8m0 scale units (32 B = 16 x 2, L1 -> L0A_MX / L0B_MX at the L0A / L0B
address / 16); same colour rules (one colour per source index fractal / scale unit), destination shapes
`aux-fractal-<i>`.

SetLoadDataBoundary (Load3D): feature-map pixels whose L1 address lies at or past the boundary are read
through the wrap (from address mod boundary, SetLoadDataBoundary.md); they are hatched red on the source
(SVG ids `wrap-src-<c1>-<h>-<w>`) and the destination elements they feed are hatched black.

Labels (source element index) are capped so a picture stays small: every element when a panel has at
most LABEL_LIMIT elements, else the first element of each run of consecutive source elements in a row,
else one label per row, else none.

matplotlib is imported lazily (the `draw` extra); the core does not need it. `tensor_repr_html` (the
notebook view of a LocalTensor) needs no matplotlib.
"""

from __future__ import annotations

import html
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from .errors import ParamRangeError
from .explain import NOT_WRITTEN, PAD, StepView, _summary, final_map, img2col_coords, step_view
from .layouts import R0, cdiv

PAD_COLOUR = "#bdbdbd"
UNTOUCHED = "#ffffff"
READ_COLOUR = "#9ecae1"  # feature-map pixels that were read (Load3D source panel)
WRAP_COLOUR = "#d62728"  # outline/hatch of source pixels read through the SetLoadDataBoundary wrap
MAX_FRACTALS = 256  # fractals drawn per side
LABEL_LIMIT = 128  # labels per panel (each costs ~0.4 KB of SVG: glyphs are paths)
MIN_LABEL_PT = 3.0  # labels that would be smaller are left out


def _palette() -> list[str]:
    """Distinct, non-grey colours: tab10 first, then the lighter tab20 halves and tab20b/c."""
    tab10 = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#bcbd22",
             "#17becf", "#393b79"]
    light = ["#aec7e8", "#ffbb78", "#98df8a", "#ff9896", "#c5b0d5", "#c49c94", "#f7b6d2", "#dbdb8d",
             "#9edae5", "#6b6ecf"]
    more = ["#637939", "#8c6d31", "#843c39", "#7b4173", "#3182bd", "#e6550d", "#31a354", "#756bb1",
            "#b5cf6b", "#e7ba52", "#ad494a", "#a55194", "#6baed6", "#fd8d3c", "#74c476", "#9e9ac8"]
    return tab10 + light + more


PALETTE = _palette()


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


def groups(run: Any, step_index: int, part: str = "data") -> Groups:
    """Colour groups of a step (`part`: "data", or "index" / "scales" for the second part)."""
    return groups_of(step_view(run, step_index, part))


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
    colours = [PALETTE[i % len(PALETTE)] for i in range(len(keys))]
    return Groups(view, src, code, keys, colours, wrapped_source(view, src))


def group_colours(run: Any, step_index: int, part: str = "data") -> dict[tuple, str]:
    """Colour of every source group of the step: {(c1, kh, kw) | (src_fractal, 0, 0) | (c1, 0, 0): hex}."""
    g = groups(run, step_index, part)
    return dict(zip(g.keys, g.colours, strict=True))


def drawn_fractals(g: Groups) -> list[int]:
    """Destination fractals drawn: all of [0, last written] when that is small, else the written ones."""
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


# -- placement ------------------------------------------------------------------------------------------


def _dst_grid(view: StepView, fractals: list[int]) -> tuple[dict[int, tuple[int, int]], str]:
    """Grid position (fractal row, fractal column) of each destination fractal, laid out as the stored
    matrix when the layout is known (Zz row-major, Nz column-major), else wrapped 8 per row."""
    spec = view.spec
    name = type(spec).__name__
    pos: dict[int, tuple[int, int]] = {}
    how = "memory order, 8 per row"
    if name == "Img2colSpec":
        rows, cols = spec.window_rows().size, spec.window_cols().size
        if spec.layout in ("ZZ", "ZZ_T"):
            width = cdiv(cols if spec.layout == "ZZ" else rows, spec.c0)
            pos = {f: divmod(f, width) for f in fractals}
            how = "Zz, fractals row-major; " + (
                "rows = img2col k, columns = m (transposed)" if spec.layout == "ZZ_T"
                else "rows = img2col m, columns = k")
        else:
            s = spec.dstStride or 1
            pos = {f: (f % s, f // s) for f in fractals}
            how = f"Nz, fractals column-major (column stride {s}); " + (
                "rows = img2col k, columns = m (transposed)" if spec.layout == "NZ_T"
                else "rows = img2col m, columns = k")
    elif name == "Load2DV2Spec" and spec.dstStride:
        pos = {f: (f % spec.dstStride, f // spec.dstStride) for f in fractals}
        how = f"Nz: fractals column-major, column stride {spec.dstStride}"
    if not pos or len(set(pos.values())) != len(pos):
        idx = {f: i for i, f in enumerate(fractals)}
        per = min(8, max(1, len(fractals)))
        pos = {f: divmod(idx[f], per) for f in fractals}
        how = "memory order, 8 per row" if len(fractals) > 1 else "one fractal"
    return pos, how


def _src_fractal_grid(view: StepView, fractals: list[int]) -> tuple[dict[int, tuple[int, int]], str]:
    ts = view.src_spec
    pos: dict[int, tuple[int, int]] = {}
    how = "memory order, 8 per row"
    if ts is not None and ts.shape and len(ts.shape) == 2 and view.src_base == 0:
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
    if not pos:
        idx = {f: i for i, f in enumerate(fractals)}
        per = min(8, max(1, len(fractals)))
        pos = {f: divmod(idx[f], per) for f in fractals}
    return pos, how


# -- rendering ------------------------------------------------------------------------------------------


def _rgba(hexes: np.ndarray) -> np.ndarray:
    from matplotlib.colors import to_rgba_array

    flat = hexes.ravel()
    uniq, inv = np.unique(flat, return_inverse=True)
    return to_rgba_array(list(uniq))[inv.ravel()].reshape(*hexes.shape, 4)


Label = tuple[float, float, str, int]  # x, y of the cell's top-left corner, text, cells it may span


@dataclass
class _Canvas:
    """Cells of one side: an RGBA image plus outlines and labels in cell coordinates (x right, y down)."""

    width: int
    height: int
    image: np.ndarray
    frames: list[tuple[float, float, float, float, str, str | None]]  # x, y, w, h, fill, gid
    labels: list[Label]
    titles: list[tuple[float, float, str]]
    caption: str
    hatches: list[tuple[float, float, float, float, str, str | None]] = field(default_factory=list)
    label_note: str = ""  # what the labels mean, appended to the caption when they are drawn

    def full_caption(self, cell: float) -> str:
        if not self.label_note:
            return self.caption
        if self.labels and _label_size(self.labels, cell * 72) >= MIN_LABEL_PT:
            return f"{self.caption}; {self.label_note}"
        return f"{self.caption}; no labels ({'cells too small' if self.labels else 'too many elements'})"


def _row_labels(x0: float, y0: float, src_rows: np.ndarray) -> tuple[list[Label], list[Label], list[Label]]:
    """Candidate labels of one block of cells (rows x cols of source indices, < 0 = none): every cell, the
    first cell of each run of consecutive source indices in a row, the first written cell of each row."""
    every: list[Label] = []
    runs: list[Label] = []
    starts: list[Label] = []
    n_cols = src_rows.shape[1]
    for r, row in enumerate(src_rows.tolist()):
        run_start = None
        for c, v in enumerate(row):
            if v < 0:
                run_start = None
                continue
            every.append((x0 + c, y0 + r, str(v), 1))
            if run_start is None or v != row[c - 1] + 1:
                run_start = c
                end = c + 1
                while end < n_cols and row[end] == row[end - 1] + 1 and row[end] >= 0:
                    end += 1
                runs.append((x0 + c, y0 + r, str(v), end - c))
                if not starts or starts[-1][1] != y0 + r:
                    starts.append((x0 + c, y0 + r, str(v), n_cols - c))
    return every, runs, starts


def _cap_labels(every: list[Label], runs: list[Label] | None, starts: list[Label], limit: int = LABEL_LIMIT
                ) -> tuple[list[Label], str]:
    """The densest labelling that stays within `limit`, and what it means (for the caption)."""
    if len(every) <= limit:
        return every, "label = source element"
    if runs is not None and len(runs) <= limit:
        return runs, "label = source element where a run of consecutive ones starts"
    if len(starts) <= limit:
        return starts, "label = source element of each row's first cell"
    return [], "no labels (too many elements)"


def _dst_canvas(g: Groups, fractals: list[int], gid: str = "dst-fractal", limit: int = LABEL_LIMIT
                ) -> _Canvas:
    view = g.view
    pos, how = _dst_grid(view, fractals)
    c0, fe = view.dst_c0, view.frac_elems
    gap = 2
    nr = max(p[0] for p in pos.values()) + 1
    nc = max(p[1] for p in pos.values()) + 1
    width, height = nc * (c0 + gap) - gap, nr * (R0 + gap) - gap
    colours = np.full((height, width), "#00000000", dtype=object)
    frames, titles, hatches = [], [], []
    every, runs, starts = [], [], []
    for f in fractals:
        r, c = pos[f]
        x0, y0 = c * (c0 + gap), r * (R0 + gap)
        e = np.arange(f * fe, (f + 1) * fe)
        inside = e < g.code.size
        codes = np.full(fe, -2, dtype=np.int64)
        codes[inside] = g.code[e[inside]]
        cols = np.array([g.colour_of(int(k)) for k in codes], dtype=object).reshape(R0, c0)
        colours[y0 : y0 + R0, x0 : x0 + c0] = cols
        frames.append((x0, y0, c0, R0, g.colour_of(dominant(g, f)), f"{gid}-{f}"))
        if len(fractals) <= 64:
            titles.append((x0 + c0 / 2, y0 - 0.45, f"F{f}"))
        srcs = np.full(fe, NOT_WRITTEN, dtype=np.int64)
        srcs[inside] = g.src[e[inside]]
        a, b, s = _row_labels(x0, y0, srcs.reshape(R0, c0))
        every += a
        runs += b
        starts += s
        wrap = np.zeros(fe, dtype=bool)
        wrap[inside] = g.wrapped[e[inside]]
        for rr, row in enumerate(wrap.reshape(R0, c0)):  # one hatched bar per run of wrapped cells
            edges = np.flatnonzero(np.diff(np.concatenate(([0], row.astype(np.int8), [0]))))
            for lo, hi in zip(edges[::2], edges[1::2], strict=True):
                hatches.append((x0 + lo, y0 + rr, hi - lo, 1, "#000000", None))
    labels, meaning = _cap_labels(every, runs, starts, limit)
    img = _rgba(colours.astype(str))
    mem = view.dst.memory.name
    note = f" {view.note}" if view.note else ""
    caption = (f"destination {view.dst_name} ({mem}, {view.dst.dtype.name}){note}: {len(fractals)} "
               f"fractal(s) of 16 x {c0}; {how}")
    return _Canvas(width, height, img, frames, labels, titles, caption, hatches, meaning)


def wrapped_pixels(g: Groups) -> set[tuple[int, int, int]]:
    """(c1, h, w) of the Load3D feature-map pixels read through the SetLoadDataBoundary wrap."""
    spec = g.view.spec
    reads = g.src[g.src >= 0]
    hit = reads[wrapped_source(g.view, reads)]
    if g.view.kind not in ("img2col", "v1") or not hit.size:
        return set()
    if g.view.kind == "img2col":
        from .explain import fmap_coords

        out = set()
        for e in np.unique(hit).tolist():
            _, h, w, c1, _ = fmap_coords(e, spec.channels, spec.l1H, spec.l1W, spec.c0)
            out.add((c1, h, w))
        return out
    cp = spec.channels_per_point
    c1, rem = np.divmod(np.unique(hit), spec.l1H * spec.l1W * cp)
    h, w = np.divmod(rem // cp, spec.l1W)
    return set(zip(c1.tolist(), h.tolist(), w.tolist(), strict=True))


def _fmap_canvas(g: Groups, limit: int = LABEL_LIMIT) -> _Canvas:
    """Load3D source: one H x W grid of pixel cells per channel group (each cell = the group's channels)."""
    view = g.view
    spec = view.spec
    height_px, width_px = spec.l1H, spec.l1W
    reads = g.src[g.src >= 0]
    if view.kind == "img2col":
        from .layouts import channel_groups

        cgroups = channel_groups(spec.channels, spec.c0)
        plane_of = [(first, n) for first, n in cgroups]
        full = spec.channels - spec.channels % spec.c0
        n_full = full * height_px * width_px
        tail = spec.channels % spec.c0
        c1 = np.where(reads < n_full, reads // (height_px * width_px * spec.c0), full // spec.c0)
        pix = np.where(reads < n_full, (reads % (height_px * width_px * spec.c0)) // spec.c0,
                       (reads - n_full) // max(tail, 1))
        base = [first * height_px * width_px for first, _ in plane_of]
        per_px = [n for _, n in plane_of]
    else:  # v1: planes of l1H * l1W pixels holding channels_per_point channels
        cp = spec.channels_per_point
        plane = height_px * width_px * cp
        c1 = reads // plane
        pix = (reads % plane) // cp
        n_planes = int(c1.max()) + 1 if reads.size else 1
        plane_of = [(i * spec.c0, cp) for i in range(n_planes)]
        base = [i * plane for i in range(n_planes)]
        per_px = [cp] * n_planes
    n_planes = len(plane_of)
    per_row = max(1, int(np.ceil(np.sqrt(n_planes * height_px / max(width_px, 1)))))
    per_row = min(n_planes, per_row if n_planes > 1 else 1)
    gap = 2
    prow = cdiv(n_planes, per_row)
    width, height = per_row * (width_px + gap) - gap, prow * (height_px + gap) - gap
    colours = np.full((height, width), "#00000000", dtype=object)
    read_px = set(zip(c1.tolist(), pix.tolist(), strict=True))
    wrapped = wrapped_pixels(g)
    frames, labels, titles, hatches = [], [], [], []
    label = n_planes * height_px * width_px <= limit
    for p, (first, n) in enumerate(plane_of):
        pr, pc = divmod(p, per_row)
        x0, y0 = pc * (width_px + gap), pr * (height_px + gap)
        for h in range(height_px):
            for w in range(width_px):
                hit = (p, h * width_px + w) in read_px
                colours[y0 + h, x0 + w] = READ_COLOUR if hit else UNTOUCHED
                if label:
                    labels.append((x0 + w, y0 + h, str(base[p] + (h * width_px + w) * per_px[p]), 1))
                if (p, h, w) in wrapped:
                    hatches.append((x0 + w, y0 + h, 1, 1, WRAP_COLOUR, f"wrap-src-{p}-{h}-{w}"))
        frames.append((x0, y0, width_px, height_px, "#000000", None))
        packed = ", packed" if n != spec.c0 else ""
        wrapped_here = [base[p] + (h * width_px + w) * per_px[p] for q, h, w in wrapped if q == p]
        if wrapped_here:  # where the wrapped reads of this group really come from
            lo = (view.src.offset + min(wrapped_here) * view.src_bits // 8) % view.boundary  # type: ignore
            packed += f"; wrapped: L1 0x{lo:04x}.."
        titles.append((x0 + width_px / 2, y0 - 0.45, f"c1 {p}: c {first}-{first + n - 1}{packed}"))
    img = _rgba(colours.astype(str))
    bank = f" from the FMATRIX {spec.fmatrix} bank" if view.kind == "img2col" else ""
    caption = (f"source {view.src_name} (L1 feature map {height_px} x {width_px}{bank}, {n_planes} channel "
               f"group(s)); cell = one pixel, label = its first element; blue = read")
    if wrapped:
        caption += (f"; red hatch = at/past the boundary {view.boundary} B, read from L1 address mod "
                    f"{view.boundary}")
    return _Canvas(width, height, img, frames, labels, titles, caption, hatches)


def _matrix_canvas(g: Groups, limit: int = LABEL_LIMIT) -> _Canvas:
    view = g.view
    rows, cols = view.src_frac_shape()
    fe = rows * cols
    reads = g.src[g.src >= 0]
    touched = np.unique(reads // fe)
    lo, hi = int(touched[0]), int(touched[-1])
    total = view.src.length // fe if view.src is not None else 0
    if max(hi + 1, total) <= MAX_FRACTALS:  # the whole source tensor: shows where the window sits
        lo, hi = 0, max(hi, total - 1)
    fractals = list(range(lo, hi + 1)) if hi - lo + 1 <= MAX_FRACTALS else touched[:MAX_FRACTALS].tolist()
    pos, how = _src_fractal_grid(view, fractals)
    gap = 2
    nr = max(p[0] for p in pos.values()) + 1
    nc = max(p[1] for p in pos.values()) + 1
    width, height = nc * (cols + gap) - gap, nr * (rows + gap) - gap
    colours = np.full((height, width), "#00000000", dtype=object)
    read_set = np.zeros((hi + 1) * fe, dtype=bool)
    read_set[reads] = True
    key_colour = {k[0]: c for k, c in zip(g.keys, g.colours, strict=True)}
    frames, titles = [], []
    every, starts = [], []
    for f in fractals:
        r, c = pos[f]
        x0, y0 = c * (cols + gap), r * (rows + gap)
        hit = read_set[f * fe : (f + 1) * fe].reshape(rows, cols)
        colour = key_colour.get(f, READ_COLOUR)
        colours[y0 : y0 + rows, x0 : x0 + cols] = np.where(hit, colour, UNTOUCHED)
        frames.append((x0, y0, cols, rows, "#000000", None))
        if len(fractals) <= 64:
            titles.append((x0 + cols / 2, y0 - 0.45, f"F{f}"))
        a, _, s = _row_labels(x0, y0, np.arange(f * fe, (f + 1) * fe).reshape(rows, cols))
        every += a
        starts += s
    labels, meaning = _cap_labels(every, None, starts, limit)
    img = _rgba(colours.astype(str))
    src = view.src
    caption = (f"source {view.src_name} ({src.memory.name}, {src.dtype.name}): fractals {lo}-{hi} of "
               f"{rows} x {cols}; {how}; coloured = read")
    return _Canvas(width, height, img, frames, labels, titles, caption,
                   label_note=meaning.replace("source element", "element"))


def _nd_canvas(g: Groups, limit: int = LABEL_LIMIT) -> _Canvas:
    """Row-major source matrix drawn as its rows x cols, read elements in their tile colour."""
    view = g.view
    rows, cols = view.src_nd  # type: ignore[misc]
    n = rows * cols
    reads = g.src[g.src >= 0]
    hit = np.zeros(max(n, int(reads.max()) + 1 if reads.size else 0), dtype=bool)
    hit[reads] = True
    c0 = 256 // view.src_bits
    r, c = np.divmod(np.arange(n), cols)
    key_colour = {(k[0], k[1]): col for k, col in zip(g.keys, g.colours, strict=True)}
    tiles = np.array([key_colour.get((a, b), READ_COLOUR) for a, b in zip(r // R0, c // c0, strict=True)],
                     dtype=object)
    colours = np.where(hit[:n], tiles, UNTOUCHED).reshape(rows, cols)
    frames = [(0, 0, cols, rows, "#000000", None)]
    for tr in range(cdiv(rows, R0)):  # outline the 16 x C0 tiles that become fractals
        for tc in range(cdiv(cols, c0)):
            w, h = min(c0, cols - tc * c0), min(R0, rows - tr * R0)
            frames.append((tc * c0, tr * R0, w, h, "#000000", None))
    every, _, starts = _row_labels(0, 0, np.arange(n).reshape(rows, cols))
    labels, meaning = _cap_labels(every, None, starts, limit)
    src = view.src
    caption = (f"source {view.src_name} ({src.memory.name}, {src.dtype.name}): row-major {rows} x {cols} "
               f"matrix, outlined in 16 x {c0} tiles; coloured = read")
    return _Canvas(cols, rows, _rgba(colours.astype(str)), frames, labels, [], caption,
                   label_note=meaning.replace("source element", "element"))


def _label_size(labels: list[Label], cell_pt: float) -> float:
    """Font size (pt) at which every label fits its cells: ~0.64 em per digit plus a margin, at most 80 %
    of the cell height."""
    fit = min((max(span, 1) - 0.25) * cell_pt / (0.7 * max(len(t), 1)) for _, _, t, span in labels)
    return min(7.0, cell_pt * 0.8, fit)


def _draw_canvas(ax: Any, cv: _Canvas, cell: float) -> None:
    """Render a canvas; `cell` = inches per element cell (sets label sizes and grid lines)."""
    from matplotlib.patches import PathPatch, Rectangle
    from matplotlib.path import Path as MplPath

    cell_pt = cell * 72
    ax.set_xlim(-1, cv.width + 1)
    ax.set_ylim(cv.height + 1, -2)
    ax.set_aspect("equal")
    ax.axis("off")
    for x, y, w, h, fill, gid in cv.frames:
        if gid is not None:  # a coloured mat behind the elements: its rim shows the dominant source
            rect = Rectangle((x - 0.45, y - 0.45), w + 0.9, h + 0.9, facecolor=fill, edgecolor="#000000",
                             linewidth=0.8, zorder=1)
            rect.set_gid(gid)
        else:
            rect = Rectangle((x, y), w, h, facecolor="none", edgecolor="#000000", linewidth=0.8, zorder=3)
        ax.add_patch(rect)
    ax.imshow(cv.image, extent=(0, cv.width, cv.height, 0), interpolation="nearest", zorder=2)
    if cell >= 0.07:  # faint lines between elements, only where they do not turn into a grey wash
        segs = []
        for x, y, w, h, _, _ in cv.frames:
            segs += [((xx, y), (xx, y + h)) for xx in range(int(x) + 1, int(x + w))]
            segs += [((x, yy), (x + w, yy)) for yy in range(int(y) + 1, int(y + h))]
        if segs:  # one SVG path for all of them (a LineCollection writes one element per line)
            verts = np.array(segs, dtype=float).reshape(-1, 2)
            codes = np.tile([MplPath.MOVETO, MplPath.LINETO], len(segs))
            ax.add_patch(PathPatch(MplPath(verts, codes), facecolor="none", edgecolor="#ffffff",
                                   linewidth=0.4, alpha=0.7, zorder=2.5))
    for x, y, w, h, colour, gid in cv.hatches:  # SetLoadDataBoundary: read through the wrap
        outline = 1.0 if gid is not None else 0.0
        rect = Rectangle((x, y), w, h, facecolor="none", edgecolor=colour, hatch="////", linewidth=outline,
                         zorder=3.5)
        if gid is not None:
            rect.set_gid(gid)
        ax.add_patch(rect)
    size = _label_size(cv.labels, cell_pt) if cv.labels else 0.0
    if size >= MIN_LABEL_PT:  # smaller text is unreadable and only weighs the SVG down
        for x, y, t, span in cv.labels:
            if span <= 1:
                ax.text(x + 0.5, y + 0.5, t, ha="center", va="center", fontsize=size, zorder=4,
                        color="#222222")
            else:  # a run label: starts in its first cell and may run over the rest of the run
                ax.text(x + 0.15, y + 0.5, t, ha="left", va="center", fontsize=size, zorder=4,
                        color="#222222")
    tsize = min(8.0, max(6.0, cell_pt * 0.9))
    for x, y, t in cv.titles:
        ax.text(x, y, t, ha="center", va="bottom", fontsize=tsize, zorder=4)


def _legend_lines(g: Groups) -> list[str]:
    s = _summary(g.view)
    params = s["params"] if isinstance(s["params"], dict) else {}
    lines = [f"step {s['step']}: {s['instr']}", f"{params.get('type', s['call'])}"]
    lines += [f"  {k} = {v}" for k, v in params.items() if k != "type"]
    mx = g.view.raw.get("mx_params") if g.view.aux is not None and g.view.aux.part == "scales" else None
    if isinstance(mx, dict):
        lines.append(f"{mx.get('type', 'LoadData2DMxParams')}")
        lines += [f"  {k} = {v}" for k, v in mx.items() if k != "type"]
    if "img2col" in s:
        i = s["img2col"]
        lines.append(f"img2col {i['M']} x {i['K']} (Ho {i['Ho']}, Wo {i['Wo']})")
        lines.append(f"  window m {i['rows']}")
        lines.append(f"  window k {i['cols']}")
    lines.append(f"wrote {s['elements_written']} el., {s['pad_elements']} pad")
    if s["overlaps"]:
        lines.append(f"OVERLAP: {s['overlaps']} el. written twice+")
    n_wrap = int(g.wrapped.sum())
    if n_wrap:
        lines.append(f"wrapped at boundary {g.view.boundary} B:")
        lines.append(f"  {n_wrap} el. read at L1 addr mod {g.view.boundary}")
    aux = s.get("second_part")
    if aux:
        what = "index fractals" if aux["part"] == "index" else "scale units"
        lines.append(f"+ {aux['part']}: {aux['elements_written']} B, {len(aux['fractals_written'])} {what}")
        lines.append(f"  of {aux['frac_bytes']} B -> {g.view.aux.dst.memory.name} "  # type: ignore[union-attr]
                     f"0x{g.view.aux.dst.offset:04x}")  # type: ignore[union-attr]
        lines.append(f"  ({g.view.aux.note})")  # type: ignore[union-attr]
    return lines


def _cell_sizes(src: _Canvas | None, dst: _Canvas | None) -> tuple[float, float]:
    """Inches per element cell for each side: the destination fills up to ~14 in wide; the source gets a
    panel about as tall (bigger cells for small feature maps), at most ~6 in wide."""
    d_cell = 0.0
    if dst is not None:
        d_cell = min(0.22, max(0.05, 11.0 / (dst.width + 2)), 8.0 / (dst.height + 3))
    s_cell = 0.0
    if src is not None:
        target_h = max(2.4, (dst.height + 3) * d_cell if dst is not None else 3.0)
        s_cell = min(0.45, target_h / (src.height + 3), 6.0 / (src.width + 2))
        s_cell = max(s_cell, min(0.05, 6.0 / (src.width + 2)))
    return s_cell, d_cell


def _canvases(g: Groups, gid: str, limit: int) -> tuple[_Canvas | None, _Canvas | None]:
    """(source, destination) panels of one part, at most `limit` labels each."""
    fractals = drawn_fractals(g)
    dst = _dst_canvas(g, fractals, gid, limit) if fractals else None
    src = None
    if g.view.src is not None and (g.src >= 0).any():
        if g.view.kind in ("img2col", "v1"):
            src = _fmap_canvas(g, limit)
        else:
            src = _nd_canvas(g, limit) if g.view.src_nd is not None else _matrix_canvas(g, limit)
    return src, dst


def _legend_handles(g: Groups, aux: Groups | None) -> list[Any]:
    from matplotlib.patches import Patch

    def keyed(gr: Groups, limit: int) -> list[Any]:
        hs = [Patch(facecolor=c, edgecolor="#555555", label=group_label(gr.view, k))
              for k, c in list(zip(gr.keys, gr.colours, strict=True))[:limit]]
        if len(gr.keys) > limit:
            more = f"... {len(gr.keys) - limit} more groups"
            hs.append(Patch(facecolor="none", edgecolor="none", label=more))
        return hs

    handles = keyed(g, 16)
    if aux is not None:
        handles.append(Patch(facecolor="none", edgecolor="none", label=f"{aux.view.part} (lower row):"))
        handles += keyed(aux, 8)
    if g.wrapped.any():
        handles.append(Patch(facecolor="#ffffff", edgecolor=WRAP_COLOUR, hatch="////",
                             label=f"wrapped at boundary {g.view.boundary} B"))
    handles += [Patch(facecolor=PAD_COLOUR, edgecolor="#555555", label="pad (padValue)"),
                Patch(facecolor=UNTOUCHED, edgecolor="#555555", label="not written")]
    return handles


def draw_step(run: Any, step_index: int, out_path: str | Path) -> Path:
    """Draw step `step_index` of a ScenarioRun to `out_path` (.svg or .png): source -> destination, and for
    LoadDataWithSparse / Load2DMX a second row with the index / scale part."""
    from matplotlib.figure import Figure

    out = Path(out_path)
    if out.suffix.lower() not in (".svg", ".png"):
        raise ParamRangeError(f"draw: out_path must end in .svg or .png, but got {out.name!r}")
    g = groups(run, step_index)
    aux = groups_of(g.view.aux) if g.view.aux is not None else None
    src, dst = _canvases(g, "dst-fractal", LABEL_LIMIT)
    s_cell, d_cell = _cell_sizes(src, dst)
    rows: list[list[tuple[_Canvas | None, float]]] = [[(src, s_cell), (dst, d_cell)]]
    if aux is not None:
        a_src, a_dst = _canvases(aux, "aux-fractal", LABEL_LIMIT // 2)
        cap = max(d_cell, s_cell, 0.12)  # the second part is small: never bigger cells than the first row
        rows.append([(cv, min(cell, cap)) for cv, cell in zip((a_src, a_dst), _cell_sizes(a_src, a_dst),
                                                                   strict=True)])
    legend_w, margin, gap, vgap = 3.4, 0.3, 0.6, 0.35
    size = [[((cv.width + 2) * cell, (cv.height + 3) * cell) if cv is not None else (0.0, 0.0)
             for cv, cell in row] for row in rows]
    col_w = [max(sz[i][0] for sz in size) for i in range(2)]
    caps = [[_wrap(cv.full_caption(cell), max(col_w[i], 2.5)) if cv is not None else ""
             for i, (cv, cell) in enumerate(row)] for row in rows]
    cap_h = [0.14 * max(c.count("\n") + 1 for c in row_caps) + 0.2 for row_caps in caps]
    row_h = [max(h for _, h in sz) + ch for sz, ch in zip(size, cap_h, strict=True)]
    lines = _legend_lines(g)
    handles = _legend_handles(g, aux)
    line_in = 0.128  # 7.5-pt monospace line
    text_h = line_in * len(lines) + 0.25
    legend_h = text_h + 0.3 + 0.17 * (len(handles) + 1)
    fig_h = max(sum(row_h) + vgap * (len(rows) - 1), legend_h) + 2 * margin
    used = [w for w in col_w if w > 0]
    fig_w = margin + sum(used) + gap * len(used) + legend_w + margin
    fig = Figure(figsize=(fig_w, fig_h), dpi=110)
    top = fig_h - margin
    for row, sz, row_caps, ch, rh in zip(rows, size, caps, cap_h, row_h, strict=True):
        x = margin
        for i, ((cv, cell), (w_in, h_in)) in enumerate(zip(row, sz, strict=True)):
            if cv is not None:
                ax = fig.add_axes((x / fig_w, (top - ch - h_in) / fig_h, w_in / fig_w, h_in / fig_h))
                _draw_canvas(ax, cv, cell)
                fig.text(x / fig_w, (top - ch / 2) / fig_h, row_caps[i], ha="left", va="center", fontsize=8)
            if col_w[i] > 0:
                x += col_w[i] + gap
        top -= rh + vgap
    x_leg = margin + sum(used) + gap * len(used)
    ax_h = fig_h - 2 * margin
    lax = fig.add_axes((x_leg / fig_w, margin / fig_h, legend_w / fig_w, ax_h / fig_h))
    lax.axis("off")
    lax.text(0, 1, "\n".join(lines), va="top", ha="left", fontsize=7.5, family="monospace",
             transform=lax.transAxes,
             bbox={"boxstyle": "round", "facecolor": "#f7f7f7", "edgecolor": "#999999"})
    lax.legend(handles=handles, loc="upper left", bbox_to_anchor=(0, 1 - (text_h + 0.15) / ax_h), fontsize=7,
               frameon=True, title="destination colour = source", title_fontsize=7.5)
    fig.savefig(out, format=out.suffix[1:].lower())
    return out


def _wrap(text: str, width_in: float) -> str:
    import textwrap

    return "\n".join(textwrap.wrap(text, max(30, int(width_in * 15))))


# -- notebook view of a LocalTensor ------------------------------------------------------------------------


def tensor_repr_html(t: Any, max_fractals: int = 8, rows: int = 4, cols: int = 4) -> str:
    """`LocalTensor._repr_html_`: the tensor as a row of 512-B fractals (16 x C0), each showing its top-left
    `rows` x `cols` values; capped at `max_fractals` fractals."""
    c0 = 256 // t.dtype.bits
    fe = 16 * c0
    nf = cdiv(t.length, fe) if t.length else 0
    shown = min(nf, max_fractals)
    vals = t.read(min(t.length, shown * fe)) if shown else np.zeros(0)
    head = html.escape(repr(t))
    cells = []
    for f in range(shown):
        trs = []
        for r in range(min(rows, 16)):
            tds = []
            for c in range(min(cols, c0)):
                e = f * fe + r * c0 + c
                v = _fmt(vals[e]) if e < vals.size else ""
                tds.append(f"<td style='padding:0 3px;text-align:right'>{html.escape(v)}</td>")
            trs.append("<tr>" + "".join(tds) + "<td>&hellip;</td></tr>")
        inner = "".join(trs) + "<tr><td colspan='99'>&vellip;</td></tr>"
        cells.append(f"<td style='vertical-align:top;border:1px solid #888;padding:2px'>"
                     f"<div style='font-weight:bold'>F{f} @0x{t.offset + f * 512:x}</div>"
                     f"<table style='font-family:monospace;font-size:smaller'>{inner}</table></td>")
    more = f"<td>&hellip; {nf - shown} more fractal(s)</td>" if nf > shown else ""
    return (f"<div><div style='font-family:monospace'>{head}: {nf} fractal(s) of 16 x {c0}</div>"
            f"<table style='border-collapse:collapse'><tr>{''.join(cells)}{more}</tr></table></div>")


def _fmt(v: Any) -> str:
    try:
        f = float(v)
    except (TypeError, ValueError):
        return str(v)
    return f"{int(f)}" if f.is_integer() and abs(f) < 1e6 else f"{f:.3g}"
