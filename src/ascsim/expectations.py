"""Layout assertions: does a memory region hold a logical tensor in a given layout?

    ascsim.expect(l0a, layout="zz", of=img2col(x, kernel=(3, 3), pad=1), rows=(0, 64), cols=(0, 144))

compares the tensor's elements with the window `of[rows, cols]` placed in `layout` (the window is laid out as
a matrix of its own, as an L0 tile is), bit for bit after encoding the expected values to the tensor's
dtype. Only the elements the window defines are compared: the padding of a partial fractal is left alone
(divergence L7: instructions leave it untouched). On a mismatch it raises `LayoutMismatch` naming the first
differing element — tensor index, memory address, fractal, the logical (row, col) it should hold, expected
and found values — with the explain line of the instruction that last wrote that byte; `result.draw()` is
a picture of the differing fractals.

Layouts (关键分形格式详解.md; a fractal is 512 B = 16 rows x C0 = 32 B / element size):

- `nd`: row-major, row pitch `ld` (default: the window's columns);
- `zz`: fractals row-major, elements row-major (L0A on A2/A3);
- `nz`: fractals column-major (column height `height` rows, default the window's rows rounded up to 16),
  elements row-major (L1 after ND2NZ, L0A on 950, L0C);
- `zn`: for a K x N matrix B, fractals row-major over (k // C0, n // 16), inside [n % 16][k % C0]
  (L0B);
- `fmap`: a (C, H, W) feature map in the Load3D L1 layout — NC1HWC0 groups, the remainder channels packed
  r per pixel (divergence L5).

Expected-value builders, written from the doc definitions (independent of ascsim's instructions):
`img2col`, `transpose`, `densify_2to4`; scenarios reach them through `[[expect]]` tables
(docs/scenarios.md).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from .base.errors import ParamRangeError
from .machine.checks import pair
from .machine.dtypes import from_raw, to_raw
from .machine.memory import LocalTensor

LAYOUTS = ("nd", "zz", "nz", "zn", "fmap")
R0 = 16


def _cdiv(a, b):
    return -(-a // b)


# ==================================================================================================
# Expected-value builders
# ==================================================================================================


def img2col(x: np.ndarray, kernel: int | Sequence[int], stride: int | Sequence[int] = 1,
            pad: int | Sequence[int] = 0, dilation: int | Sequence[int] = 1, channels: int | None = None,
            c0: int = 16) -> np.ndarray:
    """The img2col matrix of a (C, H, W) map as Load3D produces it (LoadData_3D.md 功能说明): row
    m = ho*Wo + wo, column = (channel group, kh, kw, channel in group), groups of c0 channels and the
    remainder packed (divergence L5); `channels` pads the map with zero channels (the channelSize);
    padding reads 0. pad: an int, (ph, pw) or padList [left, right, top, bottom]."""
    x = np.asarray(x)
    if x.ndim != 3:
        raise ParamRangeError(f"img2col: x must be (C, H, W), but got shape {x.shape}")
    c, h, w = x.shape
    (kh, kw), (sh, sw) = pair("img2col", "kernel", kernel), pair("img2col", "stride", stride)
    dh, dw = pair("img2col", "dilation", dilation)
    left, right, top, bottom = _pad4(pad)
    chan = c if channels is None else int(channels)
    if chan < c:
        raise ParamRangeError(f"img2col: channels must be >= the map's {c} channels, but got {chan}")
    ho = (h + top + bottom - (kh - 1) * dh - 1) // sh + 1
    wo = (w + left + right - (kw - 1) * dw - 1) // sw + 1
    xp = np.zeros((chan, h + top + bottom, w + left + right), dtype=np.float64)
    xp[:c, top : top + h, left : left + w] = x
    out = np.zeros((ho * wo, chan * kh * kw))
    col = 0
    for g0 in range(0, chan, c0):
        n = min(c0, chan - g0)
        for a in range(kh):
            for b in range(kw):
                rows = slice(a * dh, a * dh + sh * (ho - 1) + 1, sh)
                patch = xp[g0 : g0 + n, rows, b * dw : b * dw + sw * (wo - 1) + 1 : sw]
                out[:, col : col + n] = patch.reshape(n, ho * wo).T
                col += n
    return out


def transpose(x: np.ndarray) -> np.ndarray:
    """xᵀ (for layouts of a matrix stored transposed)."""
    return np.asarray(x).T


def densify_2to4(b: np.ndarray) -> np.ndarray:
    """The dense form of a 4:2-sparse K x N matrix (辅助矩阵分形格式详解.md 稠密化算法): per column and group
    of 4 rows, two nonzeros X (row p) and Y (row q > p) -> (X, Y); one nonzero X at row p < 3 -> (X, 0); at
    row 3 -> (0, X); none -> (0, 0). Returns (ceil(K/4)*2) x N; K is padded with zero rows."""
    b = np.asarray(b)
    k, n = b.shape
    out = np.zeros((_cdiv(k, 4) * 2, n), dtype=np.float64)
    for g in range(_cdiv(k, 4)):
        for j in range(n):
            vals = [(r, b[4 * g + r, j]) for r in range(4) if 4 * g + r < k and b[4 * g + r, j] != 0]
            if len(vals) > 2:
                raise ParamRangeError(f"densify_2to4: rows {4 * g}..{4 * g + 3} of column {j} hold "
                                      f"{len(vals)} nonzeros; at most 2")
            if len(vals) == 2:
                out[2 * g, j], out[2 * g + 1, j] = vals[0][1], vals[1][1]
            elif len(vals) == 1:
                out[2 * g + (1 if vals[0][0] == 3 else 0), j] = vals[0][1]
    return out


def _pad4(pad: int | Sequence[int]) -> tuple[int, int, int, int]:
    if isinstance(pad, (int, np.integer)):
        return (int(pad),) * 4  # type: ignore[return-value]
    t = tuple(int(x) for x in pad)
    if len(t) == 2:
        return t[1], t[1], t[0], t[0]
    if len(t) == 4:
        return t  # type: ignore[return-value]
    raise ParamRangeError(f"img2col: pad must be an int, (ph, pw) or [left, right, top, bottom], but got "
                          f"{pad!r}")


# ==================================================================================================
# Placing a logical tensor in a layout
# ==================================================================================================


def layout_offsets(layout: str, shape: tuple[int, ...], c0: int, *, height: int | None = None,
                   ld: int | None = None) -> np.ndarray:
    """Element offset of every logical element (same shape) in `layout` (module docstring)."""
    if layout not in LAYOUTS:
        raise ParamRangeError(f"expect: layout must be one of {', '.join(LAYOUTS)}, but got {layout!r}")
    if layout == "fmap":
        if len(shape) != 3:
            raise ParamRangeError(f"expect: layout 'fmap' needs a (C, H, W) tensor, but got shape {shape}")
        c, h, w = shape
        ci, hi, wi = np.meshgrid(np.arange(c), np.arange(h), np.arange(w), indexing="ij")
        full = c - c % c0
        tail = max(c % c0, 1)
        in_full = ((ci // c0) * h + hi) * w * c0 + wi * c0 + ci % c0
        in_tail = full * h * w + (hi * w + wi) * tail + (ci - full)
        return np.where(ci < full, in_full, in_tail)
    if len(shape) != 2:
        raise ParamRangeError(f"expect: layout {layout!r} needs a matrix, but got shape {shape}")
    rows, cols = shape
    r, c = np.meshgrid(np.arange(rows), np.arange(cols), indexing="ij")
    if layout == "nd":
        return r * (cols if ld is None else ld) + c
    frac = R0 * c0
    if layout == "zz":
        return ((r // R0) * _cdiv(cols, c0) + c // c0) * frac + (r % R0) * c0 + c % c0
    if layout == "nz":
        hgt = _cdiv(rows, R0) * R0 if height is None else height
        if hgt % R0 or hgt < rows:
            raise ParamRangeError(f"expect: height must be a multiple of 16 >= {rows}, but got {hgt}")
        return ((c // c0) * (hgt // R0) + r // R0) * frac + (r % R0) * c0 + c % c0
    # zn: B is K x N (rows = k, cols = n)
    return ((r // c0) * _cdiv(cols, R0) + c // R0) * frac + (c % R0) * c0 + r % c0


# ==================================================================================================
# The assertion
# ==================================================================================================


@dataclass
class Mismatch:
    """One differing element."""
    index: int  # element index in the tensor
    memory: str
    address: int  # byte address in the memory
    fractal: int  # 512-B fractal of the tensor
    logical: tuple[int, ...]  # the element of `of` (window coordinates + window start)
    expected: float
    found: float
    explain: str

    def line(self) -> str:
        where = ", ".join(str(x) for x in self.logical)
        return (f"element {self.index} ({self.memory} byte 0x{self.address:x}, fractal {self.fractal}) "
                f"should hold ({where}) = {_fmt(self.expected)} but holds {_fmt(self.found)}; {self.explain}")


@dataclass
class ExpectResult:
    """What `expect` found: how many elements were compared, which differ, the first one explained."""
    what: str
    compared: int
    mismatches: int
    first: Mismatch | None
    fractals: dict[int, list[tuple[int, bool, float, float]]] = field(default_factory=dict, repr=False)
    frac_shape: tuple[int, int] = (16, 16)

    @property
    def ok(self) -> bool:
        return self.mismatches == 0

    def message(self) -> str:
        if self.ok:
            return f"{self.what}: all {self.compared} elements match"
        return (f"{self.what}: {self.mismatches} of {self.compared} elements differ (in fractals "
                f"{_fractal_ranges(sorted(self.fractals))}); first: {self.first.line()}")  # type: ignore[union-attr]

    def draw(self, out: str | Path | None = None, limit: int = 6) -> Path | str:
        """The differing fractals (up to `limit`): each element green (matches), red (differs, labelled
        found / expected when there is room) or grey (not compared). A file (.svg / .png) or SVG text."""
        import io

        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        from matplotlib.colors import ListedColormap

        fr = sorted(self.fractals)[:limit] or [0]
        rows, cols = self.frac_shape
        fig, axes = plt.subplots(1, len(fr), figsize=(0.35 * cols * len(fr) + 1, 0.35 * rows + 1.2),
                                 squeeze=False)
        for ax, f in zip(axes[0], fr, strict=True):
            grid = np.zeros(rows * cols)
            for pos, bad, exp, got in self.fractals.get(f, []):
                grid[pos] = 2 if bad else 1
                if bad and cols <= 16:
                    ax.text(pos % cols, pos // cols, f"{_fmt(got)}\n{_fmt(exp)}", ha="center", va="center",
                            fontsize=4)
            ax.imshow(grid.reshape(rows, cols), cmap=ListedColormap(["#dddddd", "#9fd89f", "#f28b82"]),
                      vmin=0, vmax=2)
            ax.set_title(f"fractal {f}", fontsize=8)
            ax.set_xticks([])
            ax.set_yticks([])
        fig.suptitle(f"{self.what}: {self.mismatches} of {self.compared} differ (red: found / expected)",
                     fontsize=8)
        if out is None:
            buf = io.StringIO()
            fig.savefig(buf, format="svg")
            plt.close(fig)
            return buf.getvalue()
        fig.savefig(out)
        plt.close(fig)
        return Path(out)

    def _repr_svg_(self) -> str | None:
        return None if self.ok else str(self.draw())


class LayoutMismatch(AssertionError):
    """Raised by `expect` when the region does not hold the expected layout; `.result` has the details."""
    def __init__(self, result: ExpectResult) -> None:
        super().__init__(result.message())
        self.result = result


def _window(v: Any, n: int, name: str) -> tuple[int, int]:
    if v is None:
        return 0, n
    if isinstance(v, slice):
        s = v.indices(n)
        return s[0], s[1]
    if isinstance(v, (int, np.integer)):
        return 0, int(v)
    t = tuple(int(x) for x in v)
    if len(t) != 2 or not 0 <= t[0] < t[1] <= n:
        raise ParamRangeError(f"expect: {name} must be a count, (start, stop) or a slice within [0, {n}], "
                              f"but got {v!r}")
    return t  # type: ignore[return-value]


def expect(tensor: LocalTensor, layout: str, of: Any, rows: Any = None, cols: Any = None, *,
           c0: int | None = None, height: int | None = None, ld: int | None = None, check: bool = True,
           what: str = "") -> ExpectResult:
    """Assert that `tensor` holds `of[rows, cols]` in `layout` (module docstring). Returns the result;
    raises `LayoutMismatch` on a difference unless check=False."""
    dt = tensor.dtype
    c0 = dt.c0 if c0 is None else int(c0)
    val = np.asarray(of)
    if layout == "fmap":
        win, start = val, (0, 0, 0)
    else:
        if val.ndim == 1:
            val = val.reshape(1, -1)
        if val.ndim != 2:
            raise ParamRangeError(f"expect: of must be a matrix for layout {layout!r}, but got shape "
                                  f"{val.shape}")
        r0, r1 = _window(rows, val.shape[0], "rows")
        q0, q1 = _window(cols, val.shape[1], "cols")
        win, start = val[r0:r1, q0:q1], (r0, q0)
    offs = layout_offsets(layout, win.shape, c0, height=height, ld=ld)
    need = int(offs.max()) + 1 if offs.size else 0
    if need > tensor.length:
        raise ParamRangeError(f"expect: layout {layout!r} of a {'x'.join(map(str, win.shape))} window needs "
                              f"{need} elements, but the tensor has {tensor.length}")
    got_raw = tensor.read_raw(need)[offs.ravel()]
    exp_raw = np.asarray(to_raw(dt, win.ravel().astype(np.float64)))
    bad = got_raw != exp_raw
    desc = what or f"{tensor.position}/{tensor.memory.name} @0x{tensor.offset:x} as {layout}"
    frac_elems = 4096 // dt.bits
    result = ExpectResult(desc, int(offs.size), int(bad.sum()), None,
                          frac_shape=(R0, frac_elems // R0))
    if result.mismatches:
        got_v, exp_v = tensor.read(need)[offs.ravel()], _decoded(dt, exp_raw)
        flat = offs.ravel()
        for i in np.flatnonzero(bad | True)[: 65536]:
            f = int(flat[i]) // frac_elems
            if f in result.fractals or bad[i]:
                result.fractals.setdefault(f, []).append((int(flat[i]) % frac_elems, bool(bad[i]),
                                                          float(exp_v[i]), float(got_v[i])))
        result.fractals = {f: v for f, v in result.fractals.items() if any(b for _, b, _, _ in v)}
        i = int(np.flatnonzero(bad)[np.argmin(flat[bad])])  # the lowest differing address
        e = int(flat[i])
        coords = np.unravel_index(i, win.shape)
        logical = tuple(int(c) + (start[j] if j < len(start) else 0) for j, c in enumerate(coords))
        byte = tensor.offset + e * dt.bits // 8
        result.first = Mismatch(e, tensor.memory.name, byte, e // frac_elems, logical, float(exp_v[i]),
                                float(got_v[i]), last_writer(tensor, byte))
    if check and not result.ok:
        raise LayoutMismatch(result)
    return result


def _decoded(dt, raw: np.ndarray) -> np.ndarray:

    return np.asarray(from_raw(dt, raw), dtype=np.float64)


def last_writer(tensor: LocalTensor, byte: int) -> str:
    """The explain line of the last logged instruction that wrote `byte` of the tensor's memory."""
    core = getattr(tensor.memory, "owner", None)
    mem = tensor.memory.name
    for rep in reversed(getattr(core, "log", ())):
        if not any(m == mem and s <= byte < e for m, s, e in rep.writes):
            continue
        head = f"last written by {rep.instr}"
        if rep.dst is None or rep.plan is None:
            return head
        idx = (byte - rep.dst.offset) * 8 // rep.dst.dtype.bits
        try:
            return f"{head}: {rep.explain(dst=idx).splitlines()[-1].strip()}"
        except Exception:  # noqa: BLE001 - a report whose provenance cannot be rebuilt still names the writer
            return head
    marker = getattr(core, "fill", None)
    if marker is not None and int(tensor.memory.data[byte]) == marker:
        return f"no logged instruction wrote it (it holds the fill marker 0x{marker:02X})"
    return "no logged instruction wrote it (initial data)"


def _fmt(v: float) -> str:
    return f"{int(v)}" if float(v).is_integer() and abs(v) < 1e15 else f"{v:.4g}"


def _fractal_ranges(values: Sequence[int]) -> str:
    out, start, prev = [], None, None
    for v in values:
        if start is None:
            start = prev = v
        elif v == prev + 1:  # type: ignore[operator]
            prev = v
        else:
            out.append(f"{start}-{prev}" if prev != start else f"{start}")
            start = prev = v
    if start is not None:
        out.append(f"{start}-{prev}" if prev != start else f"{start}")
    return ", ".join(out[:8]) + (", ..." if len(out) > 8 else "")


__all__ = ["LAYOUTS", "ExpectResult", "LayoutMismatch", "Mismatch", "densify_2to4", "expect", "img2col",
           "layout_offsets", "transpose"]
