"""Provenance of one executed step: where every destination element came from, in words.

The access plan *is* the provenance (docs/python.md "Access plans"): `Plan.dst`/`Plan.src` list,
in program order, the source element (or PAD) each destination element receives, later writes win.
This module turns that into coordinates a kernel author recognises:

* Load3D v2 family (img2col, doc: LoadData_3D.md 表4; docs/load3d.md): the img2col (m, k) of the
  destination element, its (ho, wo, kh, kw), and the feature-map (c, h, w) / (c1, c0) it reads in the
  L1 layout of `ascsim.layouts.chw_to_fmap_l1` (NC1HWC0 groups + packed tail) — or the padded (h, w)
  when the element is padValue;
* Load3D v1: the (c1, h, w, c0) the element reads (doc: LoadData_3D.md 表3);
* matrix loads and copies (2D, transpose, sparse, MX data, DataCopy, Fixpipe): the source fractal
  (512 B = 16 rows x C0 columns, 关键分形格式详解.md) with the row/column inside it, and the matrix
  row/column when the scenario declares the source layout (nz / zz / zn / 2-D flat).

Two instructions move a second region in the same call; its plan is rebuilt here from the step's params
with the instruction's own planner and explained as `part`:

* LoadDataWithSparse, part "index": index fractal startIndex+i (128 B = 16 x 8 bytes, L1 Zn) -> fractal i
  of the sparse index buffer at the L0B byte address / 4 (LoadDataWithSparse.md; `isa.sparse`);
* Load2DMX, part "scales": 32-B scale unit ((xStart+x)*srcStride + yStart + y) of srcMx -> unit
  (x*dstStride + y) of L0A_MX / L0B_MX at the L0A / L0B byte address / 16 (LoadData_2D_MX.md; `isa.mx`);
  a unit is one 16 x 2 e8m0 fractal.

`provenance` returns plain dicts (stable keys, see its docstring); `explain_step` formats them with a
step summary. Element indices are relative to the instruction's operands (the `dst`/`src` tensors of
the step, after any `{tensor, index}` offset), exactly like the plan's offsets.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import numpy as np

from ..base.errors import BoundsError, ParamRangeError, UnsupportedError
from ..engine.plan import PAD, Plan
from ..isa.load3d import dst_offsets, img2col_columns
from ..isa.mx import MX_RATIO, MxScaleSpec, mx_tensor, plan_mx_scales
from ..isa.sparse import IDX_FRACTAL, IDX_RATIO, SparseLoadSpec, index_buffer_tensor, plan_sparse_load
from ..machine.layouts import R0, cdiv
from ..machine.memory import LocalTensor
from ..scenario import step_struct

FRACTAL_BYTES = 512
NOT_WRITTEN = -2


# -- step context -----------------------------------------------------------------------------------------


@dataclass
class StepView:
    """Everything explain/draw need about one executed step."""
    index: int
    call: str
    raw: dict
    plan: Plan
    dst: LocalTensor
    src: LocalTensor | None
    dst_name: str
    src_name: str
    dst_base: int  # element index of the operand inside its scenario tensor ({tensor, index})
    src_base: int
    src_spec: Any  # the scenario TensorSpec of the source (layout/shape), or None
    pad_pattern: int
    boundary: int  # bytes; 0 = off (SetLoadDataBoundary, Load3D only)
    part: str = "data"  # "data", or the second part of a two-part instruction: "index" | "scales"
    frac_bytes: int = FRACTAL_BYTES  # destination/source fractal size of this part (128 / 32 B for parts)
    note: str = ""  # how the part's destination is addressed ("= L0B address / 4")
    aux: StepView | None = None  # the second part, on the view of the data part
    notes: tuple[str, ...] = ()  # divergences.md rows the result rests on (ExecReport.notes)
    regs: Any = None  # the core's registers after the step (Registers), for the register panel
    regs_note: str = "after this step"  # whose registers `regs` are
    params: Any = None  # the call's parameter struct, when known (legend / explorer)
    unit: str = "step"  # what titles call it: a scenario "step", a Python or compiled program's "call"

    @property
    def spec(self) -> Any:
        return self.plan.info.get("spec")

    @property
    def kind(self) -> str:
        """"img2col" (Load3D v2 family), "v1" (Load3D v1) or "matrix" (everything else)."""
        name = type(self.spec).__name__
        return {"Img2colSpec": "img2col", "V1Spec": "v1"}.get(name, "matrix")

    @property
    def src_nd(self) -> tuple[int, int] | None:
        """(rows, cols) when the source is a row-major (ND) matrix the scenario declares (flat + 2-D
        shape, operand at the tensor start): pictures then show it as a matrix, not as fractals."""
        ts = self.src_spec
        if ts is None or ts.layout != "flat" or not ts.shape or len(ts.shape) != 2 or self.src_base:
            return None
        return int(ts.shape[0]), int(ts.shape[1])

    @property
    def dst_bits(self) -> int:
        return self.dst.dtype.bits

    @property
    def src_bits(self) -> int:
        return self.src.dtype.bits if self.src is not None else self.plan.bits

    @property
    def frac_elems(self) -> int:
        """Destination elements per fractal (512 B; 128 / 32 B for the index / scale part)."""
        return self.frac_bytes * 8 // self.dst_bits

    @property
    def dst_c0(self) -> int:
        """Elements per destination fractal row (fractals are 16 rows)."""
        return self.frac_elems // R0

    def src_frac_shape(self) -> tuple[int, int]:
        """(rows, cols) of a source fractal: 16 x C0, 16 x 16 for L0C (1-KB fractals), 16 x 8 bytes for
        index fractals, 16 x 2 for e8m0 scale units."""
        if self.part != "data":
            return R0, self.frac_bytes * 8 // self.src_bits // R0
        if self.src is not None and self.src.memory.name == "L0C":
            return R0, R0
        return R0, 256 // self.src_bits

    @property
    def n_dst(self) -> int:
        """Destination elements considered: the operand, or further if the plan writes past it."""
        end = int(self.plan.dst.max()) + 1 if self.plan.dst.size else 0
        return max(self.dst.length, end)


def _ref(raw: Any) -> tuple[str, int]:
    if isinstance(raw, str):
        return raw, 0
    return raw["tensor"], int(raw.get("index", 0))


def second_part(step: Any) -> str | None:
    """Name of the second region a step's instruction moves: "index" (LoadDataWithSparse), "scales"
    (Load2DMX = LoadData with src_mx) or None."""
    if step.call == "LoadDataWithSparse":
        return "index"
    if step.call == "LoadData" and "src_mx" in step.raw:
        return "scales"
    return None


def step_view(run: Any, step_index: int, part: str = "data", who: str = "explain") -> StepView:
    """The executed step `step_index` of a `ScenarioRun` with its plan and operands; `part` selects the
    second part of a two-part instruction ("index" / "scales", see the module docstring); `who` names the
    command in messages."""
    n = len(run.results)
    if not 0 <= step_index < n:
        raise BoundsError(f"{who}: step must be in [0, {n - 1}] (steps executed so far), "
                          f"but got {step_index}")
    res = run.results[step_index]
    step, report = res.step, res.report
    second = second_part(step)
    allowed = ("data",) + ((second,) if second else ())
    if part not in allowed:
        raise ParamRangeError(f"{who}: part must be {' or '.join(allowed)} for step {step_index} "
                              f"({step.call}), but got {part!r}")
    if part != "data":
        return _part_view(run, step_index, part)
    plan = report.plan if report is not None else None
    if plan is None:
        what = "sets registers" if report is None else "records no access plan (NOP or not a data move)"
        raise UnsupportedError(f"{who}: step {step_index} ({step.call}) {what}; nothing to {who}")
    raw = step.raw
    dkey = "dst" if "dst" in raw else "c"
    skey = "src" if "src" in raw else None
    dname, dbase = _ref(raw[dkey])
    dst = run.tensors[dname][dbase] if dbase else run.tensors[dname]
    src, sname, sbase, sspec = None, "", 0, None
    if skey:
        sname, sbase = _ref(raw[skey])
        src = run.tensors[sname][sbase] if sbase else run.tensors[sname]
        sspec = run.scenario.tensors.get(sname)
    core = run.core
    if report.dst is not None:  # the PADDING / boundary values the call itself used
        pad, boundary = report.pad_pattern, report.boundary
    else:
        is_l3d = plan.instr.startswith("Load3D")
        pad = core.regs.padding if is_l3d else 0
        boundary = core.regs.boundary * (32 if plan.instr == "Load3Dv1" else 1) if is_l3d else 0
    struct = step_struct(run.scenario, step, "params") if isinstance(raw.get("params"), dict) else None
    view = StepView(step_index, step.call, raw, plan, dst, src, dname, sname, dbase, sbase, sspec, pad,
                    boundary, notes=tuple(report.notes), regs=core.regs, params=struct)
    if second:
        try:
            view.aux = _part_view(run, step_index, second)
        except UnsupportedError:  # that half was a NOP (repeatTimes / xStep / yStep = 0)
            view.aux = None
    return view


def with_names(view: StepView, names: Mapping[str, str], unit: str = "call") -> StepView:
    """The view of a compiled program's call (a traced scenario's step): titled `unit`, its operands named
    as the call wrote them (`names`: step key -> argument text, program.callsite; a key not given keeps
    the scenario tensor's name)."""
    if view.part != "data":  # the index / scale part: its destination is a region of the data destination
        dst = names.get("dst")
        return dataclasses.replace(view, dst_name=f"{view.dst.memory.name}[{dst}]" if dst else view.dst_name,
                                   src_name=names.get("idx" if view.part == "index" else "src_mx")
                                   or view.src_name, unit=unit)
    return dataclasses.replace(view, dst_name=names.get("dst" if "dst" in view.raw else "c") or view.dst_name,
                               src_name=names.get("src") or view.src_name, unit=unit,
                               aux=with_names(view.aux, names, unit) if view.aux is not None else None)


def _part_view(run: Any, step_index: int, part: str) -> StepView:
    """The second part of a two-part step, its plan rebuilt by the instruction's own planner from the
    step's params (the ExecReport keeps only the data plan)."""
    step = run.results[step_index].step
    raw = step.raw
    dname, dbase = _ref(raw["dst"])
    dst = run.tensors[dname][dbase] if dbase else run.tensors[dname]
    if part == "index":
        p = step_struct(run.scenario, step, "params")
        plan: Plan | None = None
        if p.repeatTimes:
            plan = plan_sparse_load(SparseLoadSpec(int(p.startIndex), int(p.repeatTimes)))[1]
        skey, frac, ratio = "idx", IDX_FRACTAL, IDX_RATIO
        # the index-buffer region that belongs to the L0B operand: its bytes / 4 (like MX's / 16)
        part_dst = index_buffer_tensor(run.core, dst, max(plan.dst_end if plan is not None else 0,
                                                          dst.nbytes // ratio))
    else:
        mx = step_struct(run.scenario, step, "mx_params")
        spec = MxScaleSpec(int(mx.xStartPosition), int(mx.yStartPosition), int(mx.xStep), int(mx.yStep),
                           int(mx.srcStride), int(mx.dstStride))
        plan = plan_mx_scales(spec) if spec.xStep and spec.yStep else None
        skey, frac, ratio = "src_mx", 32, MX_RATIO
        part_dst = mx_tensor(run.core, dst)
    if plan is None:
        raise UnsupportedError(f"explain: step {step_index} ({step.call}) moves no {part} (its steps are 0)")
    sname, sbase = _ref(raw[skey])
    src = run.tensors[sname][sbase] if sbase else run.tensors[sname]
    mem = part_dst.memory.name
    note = f"= {dst.memory.name} address / {ratio}"
    return StepView(step_index, step.call, raw, plan, part_dst, src, f"{mem}[{dname}]", sname, 0, sbase, None,
                    0, 0, part=part, frac_bytes=frac, note=note)


def final_map(view: StepView) -> tuple[np.ndarray, np.ndarray]:
    """(source element per destination element (PAD / NOT_WRITTEN), write count per element)."""
    n = view.n_dst
    src = np.full(n, NOT_WRITTEN, dtype=np.int64)
    src[view.plan.dst] = view.plan.src  # numpy fancy assignment: the last duplicate wins (program order)
    counts = np.bincount(view.plan.dst, minlength=n)
    return src, counts


# -- Load3D coordinates -----------------------------------------------------------------------------------


@lru_cache(maxsize=64)
def _img2col_window_index(spec: Any) -> np.ndarray:
    """For each destination element of an img2col plan: flat (row * cols + col) of the window, or -1."""
    rows, cols = spec.window_rows().size, spec.window_cols().size
    r, c = np.meshgrid(np.arange(rows), np.arange(cols), indexing="ij")
    d = dst_offsets(spec.layout, r, c, rows, cols, spec.c0, spec.dstStride).ravel()
    out = np.full(int(d.max()) + 1, -1, dtype=np.int64)
    out[d] = (r * cols + c).ravel()
    out.flags.writeable = False
    return out


def img2col_coords(spec: Any, dst_elems: np.ndarray) -> dict[str, np.ndarray]:
    """(m, k, ho, wo, kh, kw, c, h, w) of destination elements of an img2col plan (-1 where the element is
    not part of the window)."""
    idx = _img2col_window_index(spec)
    d = np.asarray(dst_elems, dtype=np.int64)
    flat = np.where(d < idx.size, idx[np.clip(d, 0, idx.size - 1)], -1)
    ok = flat >= 0
    cols = spec.window_cols().size
    m = np.where(ok, spec.window_rows()[np.where(ok, flat // cols, 0)], -1)
    k = np.where(ok, spec.window_cols()[np.where(ok, flat % cols, 0)], -1)
    kh, kw, ch = img2col_columns(spec, np.where(ok, k, 0))
    _, wo_n = spec.out_hw
    left, _, top, _ = spec.pads
    ho, wo = m // wo_n, m % wo_n
    h = ho * spec.strideH + kh * spec.dilationH - top
    w = wo * spec.strideW + kw * spec.dilationW - left
    return {"m": m, "k": k, "ho": ho, "wo": wo, "kh": kh, "kw": kw, "c": ch, "h": h, "w": w,
            "ok": ok}


def fmap_coords(e: int, channels: int, height: int, width: int, c0: int) -> tuple[int, int, int, int, int]:
    """Inverse of `layouts.fmap_l1_offset`: element offset -> (c, h, w, c1, c0 index)."""
    full = channels - channels % c0
    plane = height * width
    if e < full * plane:
        c1, r = divmod(e, plane * c0)
        pix, ci = divmod(r, c0)
        h, w = divmod(pix, width)
        return c1 * c0 + ci, h, w, c1, ci
    tail = channels % c0
    pix, ci = divmod(e - full * plane, max(tail, 1))
    h, w = divmod(pix, width)
    return full + ci, h, w, full // c0, ci


# -- matrix coordinates -----------------------------------------------------------------------------------


def matrix_coords(layout: str, shape: tuple[int, ...] | None, e: int, c0: int) -> tuple[int, int] | None:
    """Logical (row, col) of tensor element `e` for a scenario layout (inverse of layouts.*_offset), or
    None when unknown / in the padding of a partial fractal."""
    if not shape or len(shape) != 2:
        return None
    rows, cols = shape
    n = R0 * c0
    f, inner = divmod(e, n)
    ir, ic = divmod(inner, c0)
    if layout == "flat":
        r, c = divmod(e, cols)
    elif layout == "nz":
        fc, fr = divmod(f, cdiv(rows, R0))
        r, c = fr * R0 + ir, fc * c0 + ic
    elif layout == "zz":
        fr, fc = divmod(f, cdiv(cols, c0))
        r, c = fr * R0 + ir, fc * c0 + ic
    elif layout == "zn":  # K x N: fractals row-major over (k // K0, n // 16), inside [n % 16][k % K0]
        k1, n1 = divmod(f, cdiv(cols, R0))
        r, c = k1 * c0 + ic, n1 * R0 + ir
    else:
        return None
    return (int(r), int(c)) if 0 <= r < rows and 0 <= c < cols else None


# -- provenance -------------------------------------------------------------------------------------------


def _addr(mem: str, byte: int, nibble: int | None = None) -> str:
    half = "" if nibble is None else (" (low nibble)" if nibble == 0 else " (high nibble)")
    return f"{mem} 0x{byte:04x}{half}"


def _byte_of(t: LocalTensor, e: int) -> tuple[int, int | None]:
    bits = t.dtype.bits
    if bits == 4:
        return t.offset + e // 2, e % 2
    return t.offset + e * bits // 8, None


def dst_elements_of(view: StepView, dst_index: int | None = None, fractal: int | None = None) -> list[int]:
    """Destination element indices selected by `--dst` / `--fractal` (all written ones by default)."""
    n = view.n_dst
    if dst_index is not None and fractal is not None:
        raise ParamRangeError("explain: give dst_index or fractal, not both")
    if dst_index is not None:
        if not 0 <= dst_index < n:
            raise BoundsError(f"explain: dst must be an element index in [0, {n - 1}], but got {dst_index}")
        return [int(dst_index)]
    if fractal is not None:
        fe = view.frac_elems
        nf = cdiv(n, fe)
        if not 0 <= fractal < nf:
            raise BoundsError(f"explain: fractal must be in [0, {nf - 1}] ({view.frac_bytes}-B fractals of "
                              f"the destination), but got {fractal}")
        return list(range(fractal * fe, min((fractal + 1) * fe, n)))
    return sorted(set(view.plan.dst.tolist()))


def provenance(run: Any, step_index: int, dst_elements, part: str = "data") -> list[dict]:
    """Where each destination element (index relative to the step's dst operand) came from.

    Every dict has: part ("data" | "index" | "scales"), dst_index, dst_tensor, dst_addr ("L0A 0x0040"),
    dst_byte, dst_fractal, dst_row, dst_col (inside the destination fractal of 16 rows: 512 B of 16 x C0;
    for part "index" 128 B of 16 x 8 bytes, for "scales" 32 B of 16 x 2; `part` elements are bytes of the
    index buffer / the MX region), status ("read" | "pad" | "not written"), writes (times
    written; > 1 is an overlap, the last write wins).
    "read": src_tensor, src_index (relative to the src operand), src_mem, src_byte, src_addr, src_nibble
    (4-bit only), src_fractal, frac_row, frac_col (fractal of 16 x C0 in the source).
    "pad": pad_pattern (raw bits the element holds).
    Load3D v2 family (read or pad): m, k (img2col), ho, wo, kh, kw, c, h, w, c1, c0 — for pads h/w lie
    outside the feature map. Load3D v1 reads: c, h, w, c1, c0. Matrix sources with a declared layout:
    row, col (logical matrix coordinates in the source tensor).
    """
    view = step_view(run, step_index, part)
    return view_provenance(view, [int(e) for e in dst_elements])


def view_provenance(view: StepView, elems: list[int]) -> list[dict]:
    src_map, counts = final_map(view)
    n = view.n_dst
    for e in elems:
        if not 0 <= e < n:
            raise BoundsError(f"explain: dst element must be in [0, {n - 1}], but got {e}")
    kind = view.kind
    spec = view.spec
    dmem = view.dst.memory.name
    fe, dc0 = view.frac_elems, view.dst_c0
    l3d = img2col_coords(spec, np.asarray(elems, dtype=np.int64)) if kind == "img2col" and elems else None
    out = []
    for i, e in enumerate(elems):
        s = int(src_map[e])
        byte, nib = _byte_of(view.dst, e)
        f, inner = divmod(e, fe)
        d: dict[str, Any] = {
            "part": view.part, "dst_index": e, "dst_tensor": view.dst_name, "dst_byte": byte,
            "dst_addr": _addr(dmem, byte, nib), "dst_fractal": f,
            "dst_row": inner // dc0, "dst_col": inner % dc0, "writes": int(counts[e]),
            "status": "read" if s >= 0 else ("pad" if s == PAD else "not written"),
        }
        if s >= 0:
            d.update(_source_fields(view, s))
        elif s == PAD:
            d["pad_pattern"] = int(view.pad_pattern) & ((1 << view.dst_bits) - 1)
        if l3d is not None and s != NOT_WRITTEN and l3d["ok"][i]:
            c = int(l3d["c"][i])
            c0 = spec.c0
            full = spec.channels - spec.channels % c0
            d.update({key: int(l3d[key][i]) for key in ("m", "k", "ho", "wo", "kh", "kw", "c", "h", "w")})
            d["c1"], d["c0"] = (c // c0, c % c0) if c < full else (full // c0, c - full)
        out.append(d)
    return out


def _source_fields(view: StepView, s: int) -> dict[str, Any]:
    src = view.src
    if src is None:
        raise UnsupportedError(f"explain: step {view.index} ({view.call}) reads a source it does not name")
    byte, nib = _byte_of(src, s)
    if view.boundary:  # SetLoadDataBoundary: reads past it restart at the memory start (a ring)
        byte %= view.boundary
    rows, cols = view.src_frac_shape()
    f, inner = divmod(s, rows * cols)
    d: dict[str, Any] = {
        "src_tensor": view.src_name, "src_index": s, "src_mem": src.memory.name, "src_byte": byte,
        "src_addr": _addr(src.memory.name, byte, nib), "src_fractal": f, "frac_row": inner // cols,
        "frac_col": inner % cols,
    }
    if nib is not None:
        d["src_nibble"] = nib
    spec = view.spec
    if view.kind == "img2col":
        c, h, w, c1, ci = fmap_coords(s, spec.channels, spec.l1H, spec.l1W, spec.c0)
        d.update(c=c, h=h, w=w, c1=c1, c0=ci)
    elif view.kind == "v1":
        cp = spec.channels_per_point
        c1, r = divmod(s, spec.l1H * spec.l1W * cp)
        pix, ci = divmod(r, cp)
        h, w = divmod(pix, spec.l1W)
        d.update(c=c1 * spec.c0 + ci, h=h, w=w, c1=c1, c0=ci)
    elif view.src_spec is not None:
        ts = view.src_spec
        rc = matrix_coords(ts.layout, ts.shape, s + view.src_base, ts.dtype.c0)
        if rc is not None:
            d["row"], d["col"] = rc
            d["src_layout"] = ts.layout
    return d


# -- summary and text -------------------------------------------------------------------------------------


def format_ranges(values) -> str:
    """[0, 1, 2, 5, 7, 8] -> "0-2, 5, 7-8"."""
    v = sorted(set(int(x) for x in values))
    if not v:
        return "none"
    parts = []
    start = prev = v[0]
    for x in v[1:] + [None]:
        if x is not None and x == prev + 1:
            prev = x
            continue
        parts.append(f"{start}" if start == prev else f"{start}-{prev}")
        if x is not None:
            start = prev = x
    if len(parts) > 12:
        parts = parts[:6] + [f"... ({len(parts) - 12} more runs) ..."] + parts[-6:]
    return ", ".join(parts)


def summary(run: Any, step_index: int, part: str = "data") -> dict[str, Any]:
    """Structured step summary: instruction, fractals written, source span, pads, overlaps, window; for a
    two-part instruction "second_part" holds the summary of the other part (index / scales)."""
    view = step_view(run, step_index, part)
    return view_summary(view)


def view_summary(view: StepView) -> dict[str, Any]:
    plan = view.plan
    src_map, counts = final_map(view)
    written = np.flatnonzero(src_map != NOT_WRITTEN)
    out: dict[str, Any] = {
        "step": view.index if view.index >= 0 else "-", "unit": view.unit, "call": view.call,
        "instr": plan.instr,
        "params": view.raw.get("params", {}), "packed": packed_fields(view.params),
        "part": view.part, "frac_bytes": view.frac_bytes,
        "dst": f"{view.dst_name} ({view.dst.memory.name} 0x{view.dst.offset:04x}, {view.dst.dtype.name})"
               + (f" {view.note}" if view.note else ""),
        "src": (f"{view.src_name} ({view.src.memory.name} 0x{view.src.offset:04x}, {view.src.dtype.name})"
                if view.src is not None else ""),
        "elements_written": int(written.size),
        "fractals_written": sorted(set((written // view.frac_elems).tolist())),
        "pad_elements": int((src_map == PAD).sum()),
        "overlaps": int((counts > 1).sum()),
        "overlap_examples": np.flatnonzero(counts > 1)[:5].tolist(),
        "src_span": None,
    }
    reads = plan.src[plan.src >= 0]
    if reads.size and view.src is not None:
        first = view.src.offset + reads * view.src_bits // 8
        last = view.src.offset + ((reads + 1) * view.src_bits + 7) // 8 - 1
        if view.boundary:  # wrapped reads: the span is over the addresses actually read
            first, last = first % view.boundary, last % view.boundary
        out["src_span"] = (view.src.memory.name, int(first.min()), int(last.max()))
    spec = view.spec
    if view.kind == "img2col":
        ho, wo = spec.out_hw
        out["img2col"] = {"Ho": ho, "Wo": wo, "M": ho * wo, "K": spec.k_total,
                          "rows": format_ranges(spec.window_rows()), "cols":
                          format_ranges(spec.window_cols()),
                          "layout": spec.layout,
                          # the FMATRIX bank the step read (fMatrixCtrl: left / right) and its values
                          "fmatrix": {"bank": spec.fmatrix, "l1H": spec.l1H, "l1W": spec.l1W,
                                      "padList": list(spec.pads)}}
    if view.part == "data" and view.aux is not None:
        out["second_part"] = view_summary(view.aux)
    return out


def struct_fields(p: Any) -> dict[str, Any]:
    """A params struct as the user wrote it: {"type": its C++ name, field: value, ...} in the C++ field
    order; a bit-mode struct by its config words (decoded by `packed_fields`)."""
    d: dict[str, Any] = {"type": type(p).__name__}
    if dataclasses.is_dataclass(p):
        d.update((f.name, getattr(p, f.name)) for f in dataclasses.fields(p))
    elif callable(getattr(p, "packed", None)):
        d.update((w, getattr(p, w)) for w in p.packed())
    elif callable(getattr(p, "as_dict", None)):
        d.update(p.as_dict())
    return d


def packed_fields(p: Any) -> dict[str, dict[str, int]]:
    """The bit-packed words of a params struct decoded into their fields ({} for a plain struct or None):
    LoadData3DParamsV2Pro's extConfig / filterConfig, a bit-mode struct's config0 / config1."""
    fn = getattr(p, "packed", None)
    if not callable(fn):
        return {}
    try:
        return fn()
    except ParamRangeError:  # a word assigned a value no u64 holds: shown as it is, undecoded
        return {}


def param_items(params: dict, packed: dict[str, dict[str, int]] | None = None, sep: str = "=") -> list[str]:
    """"name=value" per field of a params dict (`type` left out); a packed word is followed by its
    decoded fields: `extConfig=1048720 (kExtension=144, mExtension=16, kStartPt=0, mStartPt=0)`."""
    packed = packed or {}
    out = []
    for k, v in params.items():
        if k == "type":
            continue
        fields = packed.get(k)
        decoded = f" ({', '.join(f'{n}={x}' for n, x in fields.items())})" if fields else ""
        out.append(f"{k}{sep}{v}{decoded}")
    return out


def _fmt_params(params: Any, packed: dict[str, dict[str, int]] | None = None) -> str:
    if not isinstance(params, dict):
        return str(params)
    return f"{params.get('type', '')}{{{', '.join(param_items(params, packed))}}}"


def _part_line(s: dict[str, Any]) -> str:
    """One line for the second part of a step (its own summary `s`)."""
    fr = s["fractals_written"]
    read = ""
    if s["src_span"]:
        mem, lo, hi = s["src_span"]
        read = f"; read {mem} 0x{lo:04x}..0x{hi:04x}"
    return (f"  + {s['part']}: {s['dst']}  <-  {s['src']}: {s['elements_written']} B in {len(fr)} fractal(s) "
            f"of {s['frac_bytes']} B: {format_ranges(fr)}{read}")


def format_summary(s: dict[str, Any]) -> str:
    part = f" [part {s['part']}]" if s.get("part", "data") != "data" else ""
    params = _fmt_params(s["params"], s.get("packed"))
    lines = [f"{s.get('unit', 'step')} {s['step']}: {s['call']} -> {s['instr']}{part}  {params}",
             f"  dst {s['dst']}" + (f"  <-  src {s['src']}" if s["src"] else "")]
    if "img2col" in s:
        g = s["img2col"]
        lines.append(f"  img2col matrix {g['M']} x {g['K']} (Ho={g['Ho']}, Wo={g['Wo']}); window rows m "
                     f"{g['rows']}, cols k {g['cols']}; stored as {g['layout']}")
        if "fmatrix" in g:
            f = g["fmatrix"]
            lines.append(f"  FMATRIX {f['bank']} bank (fMatrixCtrl = {str(f['bank'] == 'right').lower()}): "
                         f"l1H={f['l1H']}, l1W={f['l1W']}, padList={f['padList']}")
    fr = s["fractals_written"]
    fb = s.get("frac_bytes", FRACTAL_BYTES)
    lines.append(f"  wrote {s['elements_written']} elements in {len(fr)} fractal(s) of {fb} B: "
                 f"{format_ranges(fr)}")
    if s["src_span"]:
        mem, lo, hi = s["src_span"]
        lines.append(f"  read {mem} 0x{lo:04x}..0x{hi:04x} ({hi - lo + 1} B span)")
    lines.append(f"  pad elements: {s['pad_elements']}")
    if s["overlaps"]:
        ex = ", ".join(map(str, s["overlap_examples"]))
        lines.append(f"  OVERLAP: {s['overlaps']} destination element(s) written more than once "
                     f"(e.g. {ex}); the last write wins")
    else:
        lines.append("  overlaps: none")
    if "second_part" in s:
        lines.append(_part_line(s["second_part"]))
    return "\n".join(lines)


def describe(d: dict) -> str:
    """One line for one provenance dict."""
    head = (f"dst[{d['dst_index']}] {d['dst_addr']} (fractal {d['dst_fractal']} row {d['dst_row']} "
            f"col {d['dst_col']})")
    l3d = ""
    if "m" in d:
        l3d = f"  img2col (m {d['m']}, k {d['k']}) = (ho {d['ho']}, wo {d['wo']}, kh {d['kh']}, kw {d['kw']})"
    if d["status"] == "not written":
        return f"{head}: not written"
    if d["status"] == "pad":
        where = f" (h {d['h']}, w {d['w']} outside the feature map, c {d['c']})" if "h" in d else ""
        return f"{head}: pad 0x{d['pad_pattern']:x}{where}{l3d}"
    src = f"{d['src_tensor']}[{d['src_index']}] {d['src_addr']}"
    if "h" in d:
        coords = f"c {d['c']} h {d['h']} w {d['w']} (c1 {d['c1']}, c0 {d['c0']})"
    elif d.get("src_layout") == "flat":  # a row-major source: its 512-B "fractals" mean nothing
        coords = f"matrix ({d['row']}, {d['col']})"
    else:
        coords = f"fractal {d['src_fractal']} row {d['frac_row']} col {d['frac_col']}"
        if "row" in d:
            coords += f" = matrix ({d['row']}, {d['col']})"
    extra = f"  [written {d['writes']}x, last wins]" if d["writes"] > 1 else ""
    return f"{head} <- {src}: {coords}{l3d}{extra}"


def _matrix_cont(p: dict, d: dict) -> bool:
    """d continues p's run: along a matrix row, or (Zn: memory runs down a column) along a matrix column
    inside one source fractal row; without matrix coordinates, inside one source fractal row."""
    same_frac_row = (d["src_fractal"], d["frac_row"]) == (p["src_fractal"], p["frac_row"])
    if "row" not in d or "row" not in p:
        return "row" not in d and "row" not in p and same_frac_row
    if d["row"] == p["row"]:
        return True
    return same_frac_row and d["col"] == p["col"] and d["row"] == p["row"] + 1


def _runs(prov: list[dict]) -> list[list[dict]]:
    """Group consecutive elements of one destination fractal row that read consecutive source elements
    (or are all pad / unwritten), so a fractal prints as a few lines per row."""
    groups: list[list[dict]] = []
    for d in prov:
        g = groups[-1] if groups else None
        if g is not None:
            p = g[-1]
            same_row = p["dst_fractal"] == d["dst_fractal"] and p["dst_row"] == d["dst_row"] \
                and d["dst_index"] == p["dst_index"] + 1
            cont = (d["status"] == p["status"] != "read") or (
                d["status"] == p["status"] == "read" and d["src_index"] == p["src_index"] + 1
                and d.get("h") == p.get("h") and d.get("w") == p.get("w") and d.get("m") == p.get("m")
                and d["writes"] == p["writes"] == 1 and _matrix_cont(p, d))
            if same_row and cont:
                g.append(d)
                continue
        groups.append([d])
    return groups


def _span(g: list[dict], key: str) -> str:
    lo, hi = min(d[key] for d in g), max(d[key] for d in g)
    return f"{lo}" if lo == hi else f"{lo}..{hi}"


def describe_run(g: list[dict]) -> str:
    if len(g) == 1:
        return describe(g[0])
    a, b = g[0], g[-1]
    head = (f"dst[{a['dst_index']}..{b['dst_index']}] {a['dst_addr']} (fractal {a['dst_fractal']} "
            f"row {a['dst_row']} cols {a['dst_col']}..{b['dst_col']})")
    if a["status"] == "not written":
        return f"{head}: not written"
    l3d = f"  img2col m {_span(g, 'm')}, k {_span(g, 'k')}" if "m" in a else ""
    if a["status"] == "pad":
        where = f" (h {a['h']}, w {a['w']}: outside the feature map)" if "h" in a and a["h"] == b["h"] \
            and a["w"] == b["w"] else ""
        return f"{head}: pad 0x{a['pad_pattern']:x}{where}{l3d}"
    src = f"{a['src_tensor']}[{a['src_index']}..{b['src_index']}] {a['src_addr']}"
    if "h" in a:
        coords = f"c {a['c']}..{b['c']} h {a['h']} w {a['w']}"
    elif a.get("src_layout") == "flat" or ("row" in a and a["row"] == b["row"] and (
            a["src_fractal"], a["frac_row"]) != (b["src_fractal"], b["frac_row"])):
        coords = f"matrix row {a['row']}, cols {a['col']}..{b['col']}"
    else:
        coords = f"fractal {a['src_fractal']} row {a['frac_row']} cols {a['frac_col']}..{b['frac_col']}"
        if "row" in a and a["row"] == b["row"]:
            coords += f" = matrix row {a['row']}, cols {a['col']}..{b['col']}"
        elif "row" in a:  # a Zn fractal row is a piece of one matrix column
            coords += f" = matrix col {a['col']}, rows {a['row']}..{b['row']}"
    return f"{head} <- {src}: {coords}{l3d}"


def explain_step(run: Any, step_index: int, dst_index: int | None = None, fractal: int | None = None,
                 part: str = "data") -> Explanation:
    """Text explanation of step `step_index`: the summary, then one element (`dst_index`), one destination
    fractal (`fractal`, grouped into runs) or, by default, the first destination fractal written.
    `part` = "index" / "scales" explains the second region of LoadDataWithSparse / Load2DMX instead (indices
    are then bytes of the index buffer / MX region, fractals 128 / 32 B)."""
    return explain_view(step_view(run, step_index, part), dst_index, fractal)


class Explanation(str):
    """An explanation's text: a `str` (what `explain()` returned before) whose `repr` is the text itself,
    so a notebook cell or a REPL ending in `report.explain()` shows the lines, not one quoted string."""

    def __repr__(self) -> str:
        return str(self)


def explain_view(view: StepView, dst_index: int | None = None, fractal: int | None = None) -> Explanation:
    """`explain_step` for any step view (a scenario step, an ExecReport, a history entry)."""
    text = [format_summary(view_summary(view))] + ["  " + ln for ln in reading_lines(view.notes)]
    if dst_index is not None or fractal is not None:
        elems = dst_elements_of(view, dst_index, fractal)
    else:
        written = dst_elements_of(view)
        if not written:
            return Explanation("\n".join(text))
        fractal = written[0] // view.frac_elems
        elems = dst_elements_of(view, None, fractal)
    prov = view_provenance(view, elems)
    if dst_index is not None:
        text.append(describe(prov[0]))
    else:
        text.append(f"destination fractal {fractal} ({len(elems)} elements):")
        text += ["  " + describe_run(g) for g in _runs(prov)]
    return Explanation("\n".join(text))



# -- readings ---------------------------------------------------------------------------------------------

#: Short titles of the docs/divergences.md rows an ExecReport's `notes` can name (shown at the point of use).
READINGS: dict[str, str] = {
    "L4": "mStartPt not a multiple of 16 (the docs' [0, 32767] range, not the seeds' multiple-of-16 rule)",
    "L5": "channels past the last whole C0 group are stored packed, r channels per pixel",
    "L7": "partial fractal: only the window's elements are written, the rest keep their bytes",
    "L8": "rows past Ho*Wo: the address formula continues (ho = m // Wo)",
    "L9": "950 dstStride not set: the dense stride of the stored matrix is used",
    "L18": "reads past the SetLoadDataBoundary boundary wrap to the start of L1",
    "D1": "addrMode = 1 off GM->L1 counts up (the path ignores it)",
    "D4": "2Dv2 transposed rows overflow dstStride: later columns overwrite them",
    "T1": "srcStride / startIndex count whole transposed squares",
    "T3": "addrMode = 1 walks the source squares downwards",
    "C3": "Nd2Nz rows past nValue are left untouched",
    "C5": "nSize not a multiple of 16 (NZ2ND/NZ2DN accept any)",
    "M6": "partial C fractals: only the m x n region is written",
    "X2": "xStep / yStep = 0 skips only the scale copy",
}


def reading_lines(notes: Any) -> list[str]:
    """One line per divergence row a result rests on: `reading L7: <title> (docs/divergences.md)`."""
    return [f"reading {n}: {READINGS.get(n, 'see the row')} (docs/divergences.md {n})" for n in notes]
