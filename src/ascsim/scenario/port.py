"""`ascsim port` (rewrite a scenario for another chip) and `ascsim diff` (compare two runs call by call).

Porting maps each step to the form the target chip runs, rule by rule, and refuses — naming the step, the
rule and its doc — what has no equivalent. Between the A2/A3 family (L0A Zz, FixpipeParamsV220, LoadData
2D v1, LoadDataWithTranspose V1) and Ascend 950 (L0A Nz, FixpipeParamsArch3510, LoadData2DParamsV2 and the
BitMode forms, LoadDataWithTranspose V2 into L0B only):

- L0A is Zz on A2/A3 and Nz on 950 (矩阵计算输入搬运约束.md, Mmad.md 表1): LoadData2D rows of an L0A tile
  (A2: fractal row i at i*K1, 调用示例一) become strided copies (950: fractal (i, j) at j*M1 + i, dstGap =
  M1 - 1) and back; LoadData2DParamsV2 / Load2DBitModeParam (950 only) become one LoadData2D call per
  fractal row (A2) or column (L0B); Load3D needs no change (it writes the chip's own L0A format); a tensor
  laid out "zz" in L0A becomes "nz";
- FixpipeParamsV220 <-> FixpipeParamsArch3510 (Fixpipe（L0C到GM数据搬运）.md 表3/表4): the same fields,
  srcNdStride in 256-element (V220) vs 16-element (Arch3510) units, NZ2NZ dstStride in 32 B vs elements;
- LoadDataWithTranspose V1 <-> V2 (LoadDataWithTranspose.md 表3/表4): V1 counts squares, V2 fractals
  (x2 for b8, x4 for b4); 950 moves only into L0B; b32 squares read a banded L1 layout on A2/A3 that the
  V2 form does not, so b32 does not port;
- Load3DBitModeParam (950) <-> LoadData3DParamsV2Pro (A2/A3): the same fields packed as words, both reading
  the FMATRIX (LoadData_3D_BitMode.md, LoadData_3D.md v2Pro); the bit-mode SetFmatrix <-> SetFmatrix;
- DataCopy L1 -> BiasTable: blockLen in 64-B units (A2/A3) vs 32-B units (950);
- refused: SetLoadDataBoundary (A2/A3 only), LoadDataWithSparse / MmadWithSparse (A2/A3), Load2DMX / MmadMx
  (950), LoadDataWithStride with a dstStride other than the dense one, NZ2DN Fixpipe (950), and any dtype
  the target's tables do not list.

`port` runs both scenarios and compares every tensor the scenario saves and every GM tensor: bytes, except
L0A tiles whose fractal order the port changed, which are compared fractal by fractal.
"""

from __future__ import annotations

import dataclasses
import os
import warnings
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from .. import params as P
from ..base.errors import AscsimError
from ..machine.chips import DTYPES, ChipProfile, get_chip
from ..machine.layouts import cdiv
from ..machine.memory import memory_of
from .files import load_scenario, read_tables, step_struct
from .run import build, exec_step, run_scenario
from .writer import scenario_toml, struct_table

FRAC = 512


class PortError(AscsimError):
    """A step that has no equivalent on the target chip (the message says which rule and why)."""


@dataclass
class Tile:
    """Where an L0A tile of M1 x K1 fractals sits in a tensor (for the logical comparison)."""

    base: int  # first fractal (element offset / fractal elements)
    m1: int
    k1: int


@dataclass
class Ported:
    """A ported scenario: its raw tables, what changed per step, the L0A tiles whose order changed."""

    raw: dict
    changes: list[str] = field(default_factory=list)
    tiles: dict[str, list[Tile]] = field(default_factory=dict)


def _family(chip: ChipProfile) -> str:
    return {"ZZ": "zz", "NZ": "nz"}.get(chip.l0a_format, "")


# ==================================================================================================
# the rules
# ==================================================================================================


class _Porter:
    def __init__(self, sc: Any, raw: dict, to: ChipProfile) -> None:
        self.sc, self.raw, self.dst = sc, raw, to
        self.src = get_chip(sc.chip)
        self.out = Ported({k: v for k, v in raw.items() if k not in ("steps", "tensors", "chip")})
        self.out.raw["chip"] = to.key

    def fail(self, where: str, why: str) -> PortError:
        return PortError(f"port {self.sc.path.name} to {self.dst.name}: {where}: {why}")

    def note(self, where: str, what: str) -> None:
        self.out.changes.append(f"{where}: {what}")

    # -- tensors -----------------------------------------------------------------------------------
    def tensors(self) -> dict:
        out = {}
        for name, t in self.raw.get("tensors", {}).items():
            t = dict(t)
            spec = self.sc.tensors[name]
            if spec.position == "A2" and t.get("layout") in ("zz", "nz") and self.flip:
                new = "nz" if self.dst.l0a_format == "NZ" else "zz"
                if t["layout"] != new:
                    self.note(f"tensors.{name}", f"layout {t['layout']} -> {new} (L0A is {new.upper()} on "
                                                 f"{self.dst.name})")
                    t["layout"] = new
            self._dtype_ok(f"tensors.{name}", spec)
            out[name] = t
        return out

    def _dtype_ok(self, where: str, spec: Any) -> None:

        if spec.dtype.name not in DTYPES:
            return
        known = set()
        for sup in self.dst.apis.values():
            known |= sup.all_dtypes()
        if spec.dtype.name not in known:
            raise self.fail(where, f"dtype {spec.dtype.name} is used by no instruction of {self.dst.name} "
                                   "(ascsim chips)")

    @property
    def flip(self) -> bool:
        """Whether the L0A fractal order changes (Zz <-> Nz)."""
        return _family(self.src) != _family(self.dst)

    # -- steps -------------------------------------------------------------------------------------
    def steps(self) -> list[dict]:

        out: list[dict] = []
        for step in self.sc.steps:
            s = dict(step.raw)
            where = f"steps[{step.index}] ({step.call})"
            p = step_struct(self.sc, step) if "params" in s else None
            out += self.step(where, step.call, s, p)
        return out

    def step(self, where: str, call: str, s: dict, p: Any) -> list[dict]:
        dst_chip = self.dst
        if call == "SetLoadDataBoundary" and "SetLoadDataBoundary" not in dst_chip.apis:
            raise self.fail(where, f"SetLoadDataBoundary does not exist on {dst_chip.name} "
                                   "(SetLoadDataBoundary.md 产品支持情况: A2/A3); the wrapped L1 reads "
                                   "have no equivalent")
        if call in ("LoadDataWithSparse", "MmadWithSparse", "MmadMx") or "src_mx" in s:
            api = {"LoadDataWithSparse": "LoadDataWithSparse", "MmadWithSparse": "MmadWithSparse",
                   "MmadMx": "MmadMx"}.get(call, "Load2DMX")
            if api not in dst_chip.apis:
                raise self.fail(where, f"{api} does not exist on {dst_chip.name} ({_doc(api)})")
        if call == "Fixpipe":
            return [self.fixpipe(where, s, p)]
        if call == "LoadDataWithTranspose":
            return [self.transpose(where, s, p)]
        if call == "DataCopy" and self._mem(s["dst"]) == "BT":
            return [self.bias_copy(where, s, p)]
        if call == "SetFmatrix" and isinstance(p, P.SetFMatrixBitModeParams) and \
                "SetFmatrixBitMode" not in dst_chip.apis:
            d = p.as_dict()
            self.note(where, "bit-mode SetFmatrix -> SetFmatrix(l1H, l1W, padList)")
            return [{"call": "SetFmatrix", "l1H": d["l1H"], "l1W": d["l1W"],
                     "padList": [d[f"padList{i}"] for i in range(4)], "mode": s.get("mode", "FMATRIX_LEFT")}]
        if call in ("SetLoadDataRepeat", "SetLoadDataRepeatWithStride"):
            self._repeat = p  # v2Pro / BitMode loads repeat their window (SetLoadDataRepeat.md)
        if call == "SetLoadDataRepeatWithStride" and "SetLoadDataRepeatWithStride" not in dst_chip.apis:
            self._with_stride = p
            return []  # folded into the LoadDataWithStride it configures (below)
        if call == "LoadDataWithStride" and "LoadDataWithStride" not in dst_chip.apis:
            return [self.with_stride(where, s, p)]
        if call == "LoadData":
            return self.load(where, s, p)
        return [s]

    def _mem(self, ref: Any) -> str:

        name = ref if isinstance(ref, str) else ref["tensor"]
        return memory_of(self.sc.tensors[name].position)

    def _dt(self, ref: Any):
        return self.sc.tensors[ref if isinstance(ref, str) else ref["tensor"]].dtype

    # -- Fixpipe -----------------------------------------------------------------------------------
    def fixpipe(self, where: str, s: dict, p: Any) -> dict:
        to950 = self.dst.key == "ascend950"
        if isinstance(p, P.FixpipeParamsArch3510) == to950:
            return s
        common = {f.name: getattr(p, f.name) for f in dataclasses.fields(P.FixpipeParamsV220)
                  if f.name in ("nSize", "mSize", "srcStride", "dstStride", "quantPre", "deqScalar", "reluEn",
                                "unitFlag", "isChannelSplit")}
        cfg = s.get("config", "CFG_ROW_MAJOR")
        if to950:
            if cfg == "CFG_NZ":
                common["dstStride"] = p.dstStride * 32 // 4  # 32-B units -> elements (float L0C)
                q: Any = P.FixpipeParamsArch3510(**common)
            else:
                q = P.FixpipeParamsArch3510(**common, params=P.Nz2NdParams(p.ndNum, p.srcNdStride * 16,
                                                                             p.dstNdStride))
        else:
            if isinstance(p.params, P.Nz2DnParams) or cfg == "CFG_COLUMN_MAJOR":
                raise self.fail(where, f"NZ2DN (CFG_COLUMN_MAJOR) Fixpipe does not exist on {self.dst.name} "
                                       "(Fixpipe（L0C到GM数据搬运）.md 表1: Ascend 950 only)")
            if cfg == "CFG_NZ":
                common["dstStride"] = p.dstStride * 4 // 32
                q = P.FixpipeParamsV220(**common)
            else:
                nd = p.params or P.Nz2NdParams()
                if nd.srcNdStride % 16:
                    raise self.fail(where, f"srcNdStride {nd.srcNdStride} (C0_SIZE units) is not a whole "
                                           "number of the 256-element units FixpipeParamsV220 counts (表4)")
                q = P.FixpipeParamsV220(**common, ndNum=nd.ndNum, srcNdStride=nd.srcNdStride // 16,
                                        dstNdStride=nd.dstNdStride)
        self.note(where, f"{type(p).__name__} -> {type(q).__name__} (Fixpipe 表3/表4: the same fields; "
                         "srcNdStride units 256 vs 16 elements)")
        return {**s, "params": _table(q)}

    # -- LoadDataWithTranspose -----------------------------------------------------------------------
    def transpose(self, where: str, s: dict, p: Any) -> dict:
        to950 = self.dst.key == "ascend950"
        v2 = isinstance(p, P.LoadData2dTransposeParamsV2)
        if v2 == to950:
            return s
        bits = self._dt(s["src"]).bits
        if self._mem(s["dst"]) == "L0A" and to950:
            raise self.fail(where, f"LoadDataWithTranspose moves only into L0B on {self.dst.name} "
                                   "(LoadDataWithTranspose.md 功能说明 id10)")
        if bits == 32:
            raise self.fail(where, "b32 squares read a 16-row banded L1 layout with V1 "
                                   "(矩阵计算输入搬运约束.md Nz当且仅当Row==16) but plain Nz with V2's "
                                   "srcFracGap: the L1 data itself differs, so the call does not port alone")
        nf = {4: 4, 8: 2, 16: 1}[bits]  # fractals per square
        if to950:
            q: Any = P.LoadData2dTransposeParamsV2(p.startIndex * nf, p.repeatTimes, p.srcStride * nf,
                                                   p.dstGap, p.dstFracGap, 0, p.addrMode)
        else:
            if p.srcFracGap or p.startIndex % nf or p.srcStride % nf:
                raise self.fail(where, f"V2 startIndex {p.startIndex} / srcStride {p.srcStride} / srcFracGap "
                                       f"{p.srcFracGap} are not whole squares of {nf} fractals (V1 counts "
                                       "squares, LoadDataWithTranspose.md 表3)")
            q = P.LoadData2dTransposeParams(p.startIndex // nf, p.repeatTimes, p.srcStride // nf, p.dstGap,
                                            p.dstFracGap, p.addrMode)
        self.note(where, f"{type(p).__name__} -> {type(q).__name__} (V1 counts squares, V2 fractals: x{nf})")
        return {**s, "params": _table(q)}

    # -- DataCopy L1 -> BiasTable --------------------------------------------------------------------
    def bias_copy(self, where: str, s: dict, p: Any) -> dict:
        u_src = 32 if self.src.key == "ascend950" else 64
        u_dst = 32 if self.dst.key == "ascend950" else 64
        if u_src == u_dst or not isinstance(p, P.DataCopyParams):
            return s
        nbytes = p.blockLen * u_src
        if nbytes % u_dst:
            raise self.fail(where, f"blockLen {p.blockLen} x {u_src} B is not a whole number of {u_dst}-B "
                                   "units (DataCopy（L1ToBiasTable-Buffer数据搬运）.md 约束说明)")
        q = dataclasses.replace(p, blockLen=nbytes // u_dst)
        self.note(where, f"blockLen {p.blockLen} -> {q.blockLen} ({u_src}-B -> {u_dst}-B BiasTable units)")
        return {**s, "params": _table(q)}

    # -- LoadDataWithStride --------------------------------------------------------------------------
    def with_stride(self, where: str, s: dict, p: Any) -> dict:
        rep = getattr(self, "_with_stride", None)
        k = p.kExtension if self._mem(s["dst"]) == "L0B" or p.enTranspose else p.mExtension
        dense = cdiv(k, 16)
        if rep is not None and rep.dstStride not in (0, dense):
            raise self.fail(where, f"the dstStride {rep.dstStride} set by SetLoadDataRepeatWithStride "
                                   f"differs from the dense stride {dense} Load3D writes on {self.dst.name}; "
                                   "LoadDataWithStride (950 only, LoadDataWithStride.md) has no equivalent")
        self.note(where, "LoadDataWithStride -> LoadData (Load3D v2, dense stride)")
        return {k2: v for k2, v in {**s, "call": "LoadData"}.items() if k2 != "config"}

    # -- LoadData ------------------------------------------------------------------------------------
    def load(self, where: str, s: dict, p: Any) -> list[dict]:
        dst_mem = self._mem(s["dst"])
        if isinstance(p, P.Load3DBitModeParam) and "Load3DBitMode" not in self.dst.apis:
            d = p.as_dict()
            ext = P.LoadData3DParamsV2Pro.pack_ext(d["kExtension"], d["mExtension"], d["kStartPt"],
                                                   d["mStartPt"])
            q = P.LoadData3DParamsV2Pro(
                d["channelSize"], bool(d["transpose"]), False, bool(d["filterSizeW"]), bool(d["filterSizeH"]),
                bool(d["fmatrixCtrl"]), ext,
                P.LoadData3DParamsV2Pro.pack_filter(d["strideW"], d["strideH"], d["filterW"], d["filterH"],
                                                    d["dilationFilterW"], d["dilationFilterH"]))
            self.note(where, "Load3DBitModeParam -> LoadData3DParamsV2Pro (the same fields as extConfig / "
                             "filterConfig words; both read the FMATRIX)")
            self._load3d_tile(where, s, q.kExtension, q.mExtension, q.enTranspose, True)
            return [{k: v for k, v in {**s, "params": _table(q)}.items() if k not in ("dst_pos", "src_pos")}]
        if isinstance(p, P.LoadData3DParamsV2Pro) and "Load3DBitMode" in self.dst.apis and \
                "Load3Dv2Pro" not in self.dst.apis:
            raise self.fail(where, f"LoadData3DParamsV2Pro does not exist on {self.dst.name}")
        if isinstance(p, (P.LoadData3DParamsV2, P.LoadData3DParamsV2Pro, P.Load3DBitModeParam)):
            get = p.get if isinstance(p, P.Load3DBitModeParam) else (lambda n: getattr(p, n))
            transpose = get("transpose") if isinstance(p, P.Load3DBitModeParam) else p.enTranspose
            self._load3d_tile(where, s, get("kExtension"), get("mExtension"), bool(transpose),
                              not isinstance(p, P.LoadData3DParamsV2))
            return [s]
        if isinstance(p, (P.LoadData2DParamsV2, P.Load2DBitModeParam)):
            api = "LoadData2Dv2" if isinstance(p, P.LoadData2DParamsV2) else "Load2DBitMode"
            if api not in self.dst.apis:
                return self.v2_to_v1(where, s, p, dst_mem)
            return [s]
        if isinstance(p, P.LoadData2DParams) and dst_mem == "L0A" and self.flip:
            return [self.v1_rows(where, s, p)]
        if isinstance(p, P.LoadData3DParamsV1) and "Load3Dv1" not in self.dst.apis:
            raise self.fail(where, f"Load3D v1 does not exist on {self.dst.name} "
                                   "(LoadData_3D.md 产品支持情况)")
        return [s]

    def _load3d_tile(self, where: str, s: dict, k: int, m: int, transpose: bool, repeats: bool) -> None:
        """Record the L0A tile a Load3D writes (its fractal order follows the chip); v2Pro / BitMode repeat
        the window repeatTime times along M (repeatMode 0) or K (1) from the repeat register."""
        if self._mem(s["dst"]) != "L0A" or not self.flip or transpose:
            return
        ref = s["dst"]
        dt = self._dt(ref)
        name, idx = (ref, 0) if isinstance(ref, str) else (ref["tensor"], ref.get("index", 0))
        m1, k1 = cdiv(m, 16), cdiv(k, dt.c0)
        rep = getattr(self, "_repeat", None)
        if repeats and rep is not None and rep.repeatTime > 1:
            m1, k1 = (m1 * rep.repeatTime, k1) if rep.repeatMode == 0 else (m1, k1 * rep.repeatTime)
        self.out.tiles.setdefault(name, []).append(Tile(idx * dt.bits // 8 // FRAC, m1, k1))
        self.note(where, f"unchanged; Load3D writes its {m1} x {k1}-fractal L0A tile in the chip's own order "
                         f"({self.src.l0a_format} -> {self.dst.l0a_format})")

    def v1_rows(self, where: str, s: dict, p: Any) -> dict:
        """LoadData2D v1 into L0A: a Zz fractal row (A2/A3, dstGap 0) <-> an Nz strided row (950)."""
        ref = s["dst"]
        dt = self._dt(ref)
        name, idx = (ref, 0) if isinstance(ref, str) else (ref["tensor"], ref.get("index", 0))
        frac_elems = FRAC * 8 // dt.bits
        rows = self._l0a_rows(name)
        if rows is None:
            raise self.fail(where, f"the LoadData2D calls into {name} do not form whole fractal rows of one "
                                   "tile (one call per row, the same repeatTimes, consecutive rows), so the "
                                   "Zz <-> Nz order cannot be derived")
        m1, k1, base = rows
        f = idx // frac_elems - base
        if self.dst.l0a_format == "NZ":  # row i at i*K1 (Zz) -> fractals i, i+M1, ... (Nz)
            i = f // k1
            new_idx, gap = (base + i) * frac_elems, m1 - 1
        else:  # fractals i, i+M1, ... (Nz) -> row i at i*K1 (Zz)
            i = f
            new_idx, gap = (base + i * k1) * frac_elems, 0
        q = dataclasses.replace(p, dstGap=gap)
        self.note(where, f"L0A fractal row {i} of a {m1} x {k1}-fractal tile: dst index {idx} -> {new_idx}, "
                         f"dstGap {p.dstGap} -> {gap} ({self.src.l0a_format} -> {self.dst.l0a_format})")
        self.out.tiles.setdefault(name, [])
        if not any(t.base == base for t in self.out.tiles[name]):
            self.out.tiles[name].append(Tile(base, m1, k1))
        return {**s, "dst": {"tensor": name, "index": new_idx} if new_idx else name, "params": _table(q)}

    def _l0a_rows(self, name: str) -> tuple[int, int, int] | None:
        """(M1, K1, base fractal) of the tile the scenario's LoadData2D v1 calls into `name` write, when they
        are one call per fractal row (Zz, dstGap 0) or per strided row (Nz, dstGap M1 - 1)."""

        calls = []
        for step in self.sc.steps:
            s = step.raw
            if step.call != "LoadData" or "params" not in s or self._mem(s["dst"]) != "L0A":
                continue
            ref = s["dst"]
            if (ref if isinstance(ref, str) else ref["tensor"]) != name:
                continue
            p = step_struct(self.sc, step)
            if not isinstance(p, P.LoadData2DParams):
                return None
            dt = self._dt(ref)
            idx = 0 if isinstance(ref, str) else ref.get("index", 0)
            calls.append((idx // (FRAC * 8 // dt.bits), p.repeatTimes, p.dstGap))
        if not calls or len({c[1] for c in calls}) != 1:
            return None
        m1, k1 = len(calls), calls[0][1]
        base = min(c[0] for c in calls)
        if self.src.l0a_format == "ZZ":
            ok = (sorted(c[0] - base for c in calls) == [i * k1 for i in range(m1)]
                  and all(c[2] == 0 for c in calls))
        else:
            ok = sorted(c[0] - base for c in calls) == list(range(m1)) and all(c[2] == m1 - 1 for c in calls)
        return (m1, k1, base) if ok else None

    def v2_to_v1(self, where: str, s: dict, p: Any, dst_mem: str) -> list[dict]:
        """LoadData2DParamsV2 / Load2DBitModeParam (950) -> LoadData2D v1 calls: one per fractal row of an L0A
        Zz tile, one per fractal column elsewhere (LoadData_2D_V2.md 表3: an mStep x kStep fractal window of
        an Nz source with column stride srcStride, written with column stride dstStride)."""
        g = p.get if isinstance(p, P.Load2DBitModeParam) else (lambda n: getattr(p, n))
        m0, k0, ms, ks, sstr, dstr = (g(n) for n in ("mStartPosition", "kStartPosition", "mStep", "kStep",
                                                     "srcStride", "dstStride"))
        if p.ifTranspose:
            raise self.fail(where, f"a transposed {type(p).__name__} window has no LoadData2D v1 form on "
                                   f"{self.dst.name} for all dtypes (LoadData_2D.md 约束说明: ifTranspose "
                                   "b16 only; the window order differs)")
        ref = s["dst"]
        dt = self._dt(ref)
        frac_elems = FRAC * 8 // dt.bits
        name, idx = (ref, 0) if isinstance(ref, str) else (ref["tensor"], ref.get("index", 0))
        sref = s["src"]
        sname, sidx = (sref, 0) if isinstance(sref, str) else (sref["tensor"], sref.get("index", 0))
        out = []
        if dst_mem == "L0A":  # Zz: row i = fractals (m0 + i) + (k0 + j) * srcStride, j < kStep
            for i in range(ms):
                q = P.LoadData2DParams((k0 * sstr) + m0 + i, ks, sstr)
                out.append(_with_refs(s, name, idx + i * ks * frac_elems, sname, sidx, q))
            self.out.tiles.setdefault(name, []).append(Tile(idx // frac_elems, ms, ks))
        else:  # column j = fractals (m0..m0+mStep-1) + (k0 + j) * srcStride -> dst column j * dstStride
            for j in range(ks):
                q = P.LoadData2DParams((k0 + j) * sstr + m0, ms, 1)
                out.append(_with_refs(s, name, idx + j * dstr * frac_elems, sname, sidx, q))
        self.note(where, f"{type(p).__name__} -> {len(out)} LoadData2D call(s) (one per fractal "
                         f"{'row' if dst_mem == 'L0A' else 'column'}; LoadData2DParamsV2 is 950 only)")
        return out


def _with_refs(s: dict, dst: str, di: int, src: str, si: int, q: Any) -> dict:
    out = {k: v for k, v in s.items() if k not in ("dst_pos", "src_pos")}
    out["dst"] = {"tensor": dst, "index": di} if di else dst
    out["src"] = {"tensor": src, "index": si} if si else src
    out["params"] = _table(q)
    return out


def _table(p: Any) -> dict:

    return struct_table(p)


def _doc(api: str) -> str:
    return {"LoadDataWithSparse": "LoadDataWithSparse.md 产品支持情况", "MmadWithSparse": "MmadWithSparse.md",
            "MmadMx": "MmadMx.md: Ascend 950 only",
            "Load2DMX": "LoadData_2D_MX.md: Ascend 950 only"}.get(api, "")


# ==================================================================================================
# entry points
# ==================================================================================================


def port(path: str | Path, to: str) -> Ported:
    """The scenario at `path` rewritten for chip `to` (raises PortError naming what has no equivalent)."""

    path = Path(path)
    sc = load_scenario(path)
    raw = read_tables(path)
    p = _Porter(sc, raw, get_chip(to))
    p.out.raw["tensors"] = p.tensors()
    p.out.raw["steps"] = p.steps()
    return p.out


def scenario_text(raw: dict, src_dir: Path, dst_dir: Path) -> str:
    """A raw scenario as TOML; relative .npy / raw paths re-based from src_dir to dst_dir."""

    doc = dict(raw)
    tensors = {}
    for name, t in raw.get("tensors", {}).items():
        t = dict(t)
        init = t.get("init")
        if isinstance(init, dict) and set(init) & {"npy", "raw"}:
            kind = "npy" if "npy" in init else "raw"
            t["init"] = {kind: os.path.relpath(src_dir / init[kind], dst_dir).replace(os.sep, "/")}
        tensors[name] = t
    doc["tensors"] = tensors
    return scenario_toml(doc)


@dataclass
class Comparison:
    tensor: str
    same: bool
    how: str  # "bytes" or "fractal by fractal (...)"
    detail: str = ""


def compare_outputs(a_run: Any, b_run: Any, tiles: dict[str, list[Tile]], flipped_to: str
                    ) -> list[Comparison]:
    """Every saved tensor and every GM tensor of the two runs; L0A tiles in `tiles` compared fractal by
    fractal (fractal (i, j) at i*K1 + j in Zz, j*M1 + i in Nz; `flipped_to` is b's L0A format)."""
    sc = a_run.scenario
    written = {(s.raw[k] if isinstance(s.raw[k], str) else s.raw[k]["tensor"]) for s in sc.steps
               for k in ("dst", "c") if k in s.raw}
    names = [n for n, t in sc.tensors.items()
             if t.position == "GM" or n in sc.save or (not sc.save and n in written)]
    out = []
    for n in names:
        ta, tb = a_run.tensors[n], b_run.tensors[n]
        ra, rb = ta.bytes().copy(), tb.bytes().copy()
        how = "bytes"
        if n in tiles:
            ra = ra.reshape(-1, FRAC) if ra.size % FRAC == 0 else None
            rb = rb.reshape(-1, FRAC) if rb.size % FRAC == 0 else None
            if ra is not None and rb is not None:
                for t in tiles[n]:
                    ia = [t.base + (i * t.k1 + j if flipped_to == "NZ" else j * t.m1 + i)
                          for i in range(t.m1) for j in range(t.k1)]
                    ib = [t.base + (j * t.m1 + i if flipped_to == "NZ" else i * t.k1 + j)
                          for i in range(t.m1) for j in range(t.k1)]
                    ra[ib] = ra[ia].copy() if max(ia + ib) < len(ra) else ra[ib]
                how = "fractal by fractal (" + ", ".join(f"{t.m1} x {t.k1} tile at fractal {t.base}"
                                                         for t in tiles[n]) + "; divergence N9)"
                ra, rb = ra.ravel(), rb.ravel()
        same = ra is not None and rb is not None and np.array_equal(ra, rb)
        detail = ""
        if not same and ra is not None and rb is not None:
            i = int(np.flatnonzero(ra != rb)[0])
            detail = f"first differing byte {i}: 0x{ra[i]:02x} vs 0x{rb[i]:02x}"
        out.append(Comparison(n, same, how, detail))
    return out


def port_command(file: str, to: str, out: str | None, quiet: bool = False) -> int:

    src = Path(file)
    ported = port(src, to)
    dst_chip = get_chip(to)
    dst = Path(out) if out else src.with_name(f"{src.stem}_{dst_chip.key}.toml")
    dst.write_text(scenario_text(ported.raw, src.parent, dst.parent), encoding="utf-8")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        a = run_scenario(load_scenario(src))
        b = run_scenario(load_scenario(dst))
    cmp = compare_outputs(a, b, ported.tiles, dst_chip.l0a_format)
    if not quiet:
        print(f"ported {src.name} ({a.scenario.chip}) -> {dst} ({dst_chip.key})")
        for c in ported.changes:
            print(f"  {c}")
        if not ported.changes:
            print("  (no step changed: the same calls run on both chips)")
    for c in cmp:
        verdict = "identical" if c.same else "DIFFERENT"
        print(f"{c.tensor}: {verdict} ({c.how}){'; ' + c.detail if c.detail else ''}")
    return 0 if all(c.same for c in cmp) else 1


# ==================================================================================================
# diff
# ==================================================================================================


@dataclass
class StepDiff:
    index: int
    call_a: str
    call_b: str
    first: str  # "" when the written bytes agree


def diff(a: str | Path, b: str | Path) -> tuple[list[StepDiff], list[Comparison]]:
    """Run both scenarios and compare them step by step: the bytes each step wrote (first differing byte,
    with each run's explain line for it), then the tensors both declare."""

    ra, sa = _snapshots(Path(a))
    rb, sb = _snapshots(Path(b))
    out = []
    for i in range(max(len(sa), len(sb))):
        ca, cb = (sa[i][0] if i < len(sa) else "-"), (sb[i][0] if i < len(sb) else "-")
        first = ""
        if i >= len(sa) or i >= len(sb):
            first = "only in one scenario"
        else:
            first = _first_difference(sa[i], sb[i])
        out.append(StepDiff(i, ca, cb, first))
    sca, scb = load_scenario(a), load_scenario(b)
    common = [n for n in sca.tensors if n in scb.tensors]
    cmp = []
    for n in common:
        ta, tb = ra.tensors[n].bytes(), rb.tensors[n].bytes()
        same = ta.size == tb.size and np.array_equal(ta, tb)
        detail = ""
        if not same:
            k = min(ta.size, tb.size)
            idx = np.flatnonzero(ta[:k] != tb[:k])
            detail = f"first differing byte {int(idx[0])}" if idx.size else f"sizes {ta.size} vs {tb.size}"
        cmp.append(Comparison(n, same, "bytes", detail))
    return out, cmp


def _snapshots(path: Path) -> tuple[Any, list[tuple[str, Any, dict[tuple[str, int], bytes]]]]:
    """Run a scenario step by step, keeping per step the call, its report and the on-chip bytes it wrote."""

    sc = load_scenario(path)
    run = build(sc)
    out = []

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for step in sc.steps:
            rep = exec_step(run, step)
            written = {}
            if rep is not None:
                for mem, start, end in rep.writes:
                    m = run.core.memory(mem) if mem != "GM" else None
                    if m is not None:
                        written[(mem, start)] = m.data[start:end].tobytes()
            out.append((step.call, rep, written))
    return run, out


def _first_difference(a: tuple, b: tuple) -> str:
    call_a, rep_a, wa = a
    call_b, rep_b, wb = b
    if wa == wb:
        return ""
    for key in sorted(set(wa) | set(wb)):
        xa, xb = wa.get(key), wb.get(key)
        if xa is None or xb is None:
            return f"{key[0]} bytes from 0x{key[1]:x} written by only one run"
        if xa != xb:
            n = min(len(xa), len(xb))
            diffs = [i for i in range(n) if xa[i] != xb[i]]
            off = diffs[0] if diffs else n
            addr = key[1] + off
            return (f"{key[0]} byte 0x{addr:x}: 0x{xa[off]:02x} vs 0x{xb[off]:02x}"
                    if off < n else f"{key[0]} ranges from 0x{key[1]:x} differ in length") + \
                _explains(rep_a, rep_b, key[0], addr)
    return "the written ranges differ"


def _explains(rep_a: Any, rep_b: Any, mem: str, addr: int) -> str:
    out = []
    for tag, rep in (("a", rep_a), ("b", rep_b)):
        if rep is None or rep.dst is None or rep.plan is None:
            continue
        idx = (addr - rep.dst.offset) * 8 // rep.dst.dtype.bits
        try:
            out.append(f"\n    {tag}: {rep.explain(dst=idx).splitlines()[-1].strip()}")
        except Exception:  # noqa: BLE001 - explain is a courtesy; the byte difference stands
            continue
    return "".join(out)


def diff_command(a: str, b: str) -> int:
    steps, cmp = diff(a, b)
    differ = [s for s in steps if s.first]
    for s in steps:
        mark = "  " if not s.first else "!="
        calls = s.call_a if s.call_a == s.call_b else f"{s.call_a} / {s.call_b}"
        print(f"{mark} [{s.index}] {calls}{': ' + s.first if s.first else ''}")
    for c in cmp:
        print(f"{c.tensor}: {'identical' if c.same else 'DIFFERENT'}{'; ' + c.detail if c.detail else ''}")
    print(f"{len(differ)} of {len(steps)} step(s) wrote different bytes")
    return 1 if differ or not all(c.same for c in cmp) else 0
