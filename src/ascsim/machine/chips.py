"""Chip profiles: which cube APIs, data paths and dtypes each Ascend product supports.

Every fact is typed in from the per-product sections of the Ascend C docs under
``reference/ascendc-docs/矩阵计算（ISASI）/`` (``M/`` below) and the seeds. Each chip has one data
table (a ``_build_<chip>()`` function) so it can be audited against the doc page line by line.
Comments ``# doc: <file> <section>`` cite the source; ``# inferred: ...`` marks a choice the docs do
not state. Seed-vs-doc disagreements are collected in :data:`DIVERGENCE_NOTES`.

Paths are ``(src memory, dst memory)`` pairs over the memory names of :data:`MEMORIES`; TPosition
names (A1, B2, CO1, ...) are accepted everywhere and mapped with :data:`TPOSITION_TO_MEMORY`.
"""

from __future__ import annotations

import dataclasses
import re
import textwrap
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from ..base.errors import UnsupportedError, cpp_rejects, did_you_mean, doc_forbids

__all__ = [
    "ALL_CHIPS",
    "API_KEYS",
    "DIVERGENCE_NOTES",
    "DTYPES",
    "MEMORIES",
    "TPOSITION_TO_MEMORY",
    "ApiSupport",
    "ChipProfile",
    "format_chips_table",
    "get_chip",
    "memory_name",
    "support_matrix",
]

Path = tuple[str, str]

# --------------------------------------------------------------------------------------------------
# Vocabulary
# --------------------------------------------------------------------------------------------------

DTYPES: tuple[str, ...] = (
    "int4b_t", "int8_t", "uint8_t", "fp8_e4m3fn_t", "fp8_e5m2_t", "hifloat8_t", "half", "bfloat16_t",
    "int16_t", "uint16_t", "int32_t", "uint32_t", "float", "fp4x2_e2m1_t", "fp4x2_e1m2_t",
    "fp8_e8m0_t", "mx_fp8_e4m3_t", "mx_fp8_e5m2_t",
)  # fmt: skip

MEMORIES: tuple[str, ...] = ("GM", "L1", "L0A", "L0B", "L0C", "BT", "FB", "L0A_MX", "L0B_MX", "SPARSE_IDX")

TPOSITION_TO_MEMORY: Mapping[str, str] = MappingProxyType(
    {
        "GM": "GM",
        "A1": "L1",
        "B1": "L1",
        "C1": "L1",
        "A2": "L0A",
        "B2": "L0B",
        "CO1": "L0C",
        "C2": "BT",
        "CO2": "GM",
        "C2PIPE2GM": "FB",
    }
)

API_KEYS: tuple[str, ...] = (
    "Load3Dv1", "Load3Dv2", "Load3Dv2Pro", "Load3DBitMode", "LoadDataWithStride", "LoadData2D",
    "LoadData2Dv2", "Load2DBitMode", "LoadDataWithTranspose", "LoadDataWithTransposeV2",
    "LoadDataWithSparse", "Load2DMX", "Mmad", "MmadWithSparse", "MmadMx", "SetFmatrix",
    "SetFmatrixBitMode", "SetLoadDataPaddingValue", "SetLoadDataRepeat", "SetLoadDataRepeatWithStride",
    "SetLoadDataBoundary", "DataCopyND2NZ", "DataCopyDN2NZ", "Fixpipe",
    # companion instructions of the cube data path (issue 7), see _companions()
    "Fill", "DataCopyL12BT", "DataCopyL12FB", "DataCopyPad", "FixpipeL0C2L1", "SetAtomicAdd",
    "SetFixpipeNz2ndFlag", "SetFixpipePreQuantFlag", "SetFixPipeConfig", "DataCopyL12GM", "SetAtomicMax",
    "SetAtomicMin",
)  # fmt: skip


def memory_name(name: str) -> str:
    """The memory a name stands for, given as a memory (L0A) or a TPosition (A2), case-insensitive — the
    chip tables' lenient reading (`machine.memory.memory_of` takes TPosition names only, as C++ does)."""
    key = name.strip().upper()
    if key in MEMORIES:
        return key
    if key in TPOSITION_TO_MEMORY:
        return TPOSITION_TO_MEMORY[key]
    raise UnsupportedError(
        f"memory: {name!r} is not a known memory or TPosition; supported: "
        f"{', '.join(MEMORIES)} or {', '.join(TPOSITION_TO_MEMORY)}"
    )


def _dtype_sort_key(d: str) -> tuple[int, str]:
    return (DTYPES.index(d), d) if d in DTYPES else (len(DTYPES), d)


def _fmt_dtypes(ds: Iterable[str]) -> str:
    return ", ".join(sorted(ds, key=_dtype_sort_key))


def _fmt_path(p: Path) -> str:
    return f"{p[0]}->{p[1]}"


# --------------------------------------------------------------------------------------------------
# Data classes
# --------------------------------------------------------------------------------------------------


def _frozen_paths(m: Mapping[Path, Iterable[str]]) -> Mapping[Path, frozenset[str]]:
    return MappingProxyType({k: frozenset(v) for k, v in m.items()})


@dataclass(frozen=True)
class ApiSupport:
    """What one API supports on one chip.

    ``paths`` maps (src memory, dst memory) to the dtypes allowed on that path. ``transpose`` lists the
    dtypes for which the API's transpose flag (enTranspose / ifTranspose) is valid, per path; for
    LoadDataWithTranspose(V2), which always transposes, it equals ``paths``. ``dtypes`` is the dtype list
    of register-config APIs that have no data path (e.g. SetLoadDataPaddingValue); empty means the API is
    dtype-agnostic. ``combos`` holds documented dtype tuples: (A, B, C) for Mmad/MmadWithSparse/MmadMx and
    (L0C src, GM dst) for Fixpipe.
    """

    paths: Mapping[Path, frozenset[str]]
    transpose: Mapping[Path, frozenset[str]] = field(default_factory=lambda: MappingProxyType({}))
    notes: str = ""
    dtypes: frozenset[str] = frozenset()
    combos: frozenset[tuple[str, ...]] = frozenset()
    # What the C++ API implements (asc-devkit impl headers), per path, where audited: a refusal of a
    # dtype / path outside it is "the C++ API rejects this: <cpp_check>"; inside it (the doc omits it) or
    # on an unaudited path the refusal is the doc's (divergence L26). An empty set = no such path in C++.
    cpp: Mapping[Path, frozenset[str]] | None = None
    cpp_check: str = ""
    # dtypes a doc page forbids on a path but the C++ API implements and shipped kernels use: accepted,
    # and the instruction reports `conflict_rule` / `conflict_row` as a DocConflictWarning.
    conflicts: Mapping[Path, frozenset[str]] = field(default_factory=lambda: MappingProxyType({}))
    conflict_rule: str = ""
    conflict_row: str = ""

    def all_dtypes(self) -> frozenset[str]:
        out: set[str] = set(self.dtypes)
        for ds in self.paths.values():
            out |= ds
        return frozenset(out)


def _api(
    paths: Mapping[Path, Iterable[str]] | None = None,
    transpose: Mapping[Path, Iterable[str]] | None = None,
    notes: str = "",
    dtypes: Iterable[str] = (),
    combos: Iterable[tuple[str, ...]] = (),
    cpp: Mapping[Path, Iterable[str]] | None = None,
    cpp_check: str = "",
    conflicts: Mapping[Path, Iterable[str]] | None = None,
    conflict_rule: str = "",
    conflict_row: str = "",
) -> ApiSupport:
    conflicts = _frozen_paths(conflicts or {})
    # a conflict dtype is executed, so it is part of the path's supported set
    merged = {p: set(ds) | set(conflicts.get(p, ())) for p, ds in (paths or {}).items()}
    return ApiSupport(
        paths=_frozen_paths(merged),
        transpose=_frozen_paths(transpose or {}),
        notes=notes,
        dtypes=frozenset(dtypes),
        combos=frozenset(combos),
        cpp=None if cpp is None else _frozen_paths(cpp),
        cpp_check=cpp_check,
        conflicts=conflicts,
        conflict_rule=conflict_rule,
        conflict_row=conflict_row,
    )


def _norm_name(s: str) -> str:
    return re.sub(r"[\s\-_/.]", "", s).lower()


@dataclass(frozen=True)
class ChipProfile:
    key: str
    name: str
    aliases: tuple[str, ...]
    arch: str
    memory_sizes: Mapping[str, int]
    l0a_format: str
    has_cube: bool
    apis: Mapping[str, ApiSupport]
    mmad_types: frozenset[tuple[str, str, str]]
    l0b_format: str = "ZN"
    l0c_format: str = "NZ"

    # ---------------------------------------------------------------- cores
    @property
    def aic_cores(self) -> int:
        """Cube cores (AIC) a launch spreads over: what platform_ascendc's GetCoreNumAic returns
        (docs/divergences.md B2: a representative SKU's count)."""
        return CORES.get(self.key, (1, 0))[0]

    @property
    def aiv_cores(self) -> int:
        """Vector cores (AIV): GetCoreNumAiv (the AI Core count on coupled chips)."""
        return CORES.get(self.key, (1, 0))[1]

    # ---------------------------------------------------------------- queries
    def _select_paths(self, sup: ApiSupport, src: str | None, dst: str | None) -> dict[Path, frozenset[str]]:
        s = memory_name(src) if src is not None else None
        d = memory_name(dst) if dst is not None else None
        return {p: ds for p, ds in sup.paths.items() if (s is None or p[0] == s) and (d is None or p[1] == d)}

    def supports(
        self, api: str, dtype: str | None = None, src: str | None = None, dst: str | None = None
    ) -> bool:
        """True if the chip documents ``api`` (on path src->dst, for ``dtype``) as supported.

        src/dst are ignored for APIs without data paths (register-config APIs).
        """
        sup = self.apis.get(api)
        if sup is None:
            return False
        if not sup.paths:
            return dtype is None or not sup.dtypes or dtype in sup.dtypes
        sel = self._select_paths(sup, src, dst)
        if not sel:
            return False
        return dtype is None or any(dtype in ds for ds in sel.values())

    def dtypes_for(self, api: str, src: str | None = None, dst: str | None = None) -> frozenset[str]:
        """The dtypes allowed for ``api`` (restricted to the matching paths); empty if unsupported."""
        sup = self.apis.get(api)
        if sup is None:
            return frozenset()
        if not sup.paths:
            return sup.dtypes
        out: set[str] = set()
        for ds in self._select_paths(sup, src, dst).values():
            out |= ds
        return frozenset(out)

    def check(
        self,
        api: str,
        dtype: str | None = None,
        src: str | None = None,
        dst: str | None = None,
        instr: str | None = None,
    ) -> None:
        """Raise UnsupportedError naming the API / path / dtype and what is allowed, if unsupported."""
        try:
            key = (self.key, api, dtype, src, dst)
            if key in _SUPPORTED:  # a cold call repeats the checks of the calls before it
                return
        except TypeError:  # an unhashable argument: the checks below name it
            key = None
        self._check(api, dtype, src, dst, instr)
        if key is not None:
            _SUPPORTED.add(key)

    def _check(self, api: str, dtype: str | None, src: str | None, dst: str | None, instr: str | None
               ) -> None:
        tag = instr or api
        if api not in API_KEYS:
            raise UnsupportedError(f"{tag}: unknown API {api!r}; supported: {', '.join(API_KEYS)}")
        sup = self.apis.get(api)
        if sup is None:
            where = [c.name for c in ALL_CHIPS if api in c.apis]
            raise UnsupportedError(
                f"{tag}: API {api} is not supported on {self.name}; supported: "
                f"{api} is available on {'; '.join(where) if where else 'no chip'}",
                basis=self._missing_basis(api))
        if not sup.paths:
            if dtype is not None and sup.dtypes and dtype not in sup.dtypes:
                raise UnsupportedError(
                    f"{tag}: dtype {dtype} is not supported by {api} on {self.name}; "
                    f"supported: {_fmt_dtypes(sup.dtypes)}", basis=_table_basis(sup, None, dtype))
            return
        sel = self._select_paths(sup, src, dst)
        if not sel:
            want = f"{memory_name(src) if src else '*'}->{memory_name(dst) if dst else '*'}"
            path = (memory_name(src), memory_name(dst)) if src and dst else None
            raise UnsupportedError(
                f"{tag}: path {want} is not supported by {api} on {self.name}; "
                f"supported: {', '.join(_fmt_path(p) for p in sup.paths)}",
                basis=_table_basis(sup, path, None))
        if dtype is None or any(dtype in ds for ds in sel.values()):
            return
        allowed: set[str] = set()
        for ds in sel.values():
            allowed |= ds
        on = f" on path {', '.join(_fmt_path(p) for p in sel)}" if (src or dst) else ""
        raise UnsupportedError(
            f"{tag}: dtype {dtype}{on} is not supported by {api} on {self.name}; "
            f"supported: {_fmt_dtypes(allowed)}",
            basis=_table_basis(sup, next(iter(sel)) if len(sel) == 1 else None, dtype))

    def _missing_basis(self, api: str) -> str:
        """Why an API the doc does not list for this chip is refused (audited C++ absence, else the doc)."""
        why = CPP_ABSENT.get(self.key, {}).get(api)
        if why:
            return cpp_rejects(why)
        return doc_forbids(f"{api} page 产品支持情况", "L26")

    def doc_conflict(self, api: str, dtype: str, src: str, dst: str) -> tuple[str, str] | None:
        """(doc rule, divergence row) when ``dtype`` on src->dst is executed although a doc page forbids
        it (ApiSupport.conflicts), else None."""
        sup = self.apis.get(api)
        if sup is None or not sup.conflicts:
            return None
        if dtype in sup.conflicts.get((memory_name(src), memory_name(dst)), ()):
            return sup.conflict_rule, sup.conflict_row
        return None

    def can_transpose(self, api: str, dtype: str, dst: str, src: str | None = None) -> bool:
        """True if the API's transpose flag is valid for ``dtype`` into ``dst`` on this chip."""
        sup = self.apis.get(api)
        if sup is None:
            return False
        d = memory_name(dst)
        s = memory_name(src) if src is not None else None
        return any(dtype in ds for p, ds in sup.transpose.items() if p[1] == d and (s is None or p[0] == s))

    def check_transpose(self, api: str, dtype: str, dst: str, src: str | None = None,
                        instr: str | None = None) -> None:  # fmt: skip
        """Raise UnsupportedError if the transpose flag is not valid for ``dtype`` into ``dst``."""
        if self.can_transpose(api, dtype, dst, src):
            return
        d = memory_name(dst)
        allowed: set[str] = set()
        sup = self.apis.get(api)
        if sup is not None:
            for p, ds in sup.transpose.items():
                if p[1] == d:
                    allowed |= ds
        raise UnsupportedError(
            f"{instr or api}: transpose of dtype {dtype} into {d} is not supported by {api} on {self.name}; "
            f"supported: {_fmt_dtypes(allowed) if allowed else 'none'}",
            basis=doc_forbids(f"{api} page: transpose dtypes", "L26"))

    def supports_combo(self, api: str, combo: tuple[str, ...]) -> bool:
        """True if ``combo`` is a documented dtype combination of ``api`` (Mmad*: (A, B, C); Fixpipe)."""
        sup = self.apis.get(api)
        return sup is not None and tuple(combo) in sup.combos

    def check_combo(self, api: str, combo: tuple[str, ...], instr: str | None = None) -> None:
        """Raise UnsupportedError if ``combo`` is not a documented dtype combination of ``api``."""
        self.check(api, instr=instr)
        if self.supports_combo(api, combo):
            return
        sup = self.apis[api]
        listed = "; ".join("(" + ", ".join(c) + ")" for c in sorted(sup.combos))
        raise UnsupportedError(
            f"{instr or api}: dtype combination ({', '.join(combo)}) is not supported by {api} on "
            f"{self.name}; supported: {listed}",
            basis=cpp_rejects(sup.cpp_check) if sup.cpp_check
            else doc_forbids(f"{api} page: dtype combinations", "L26"))

    def matches(self, name: str) -> bool:
        n = _norm_name(name)
        return n in {_norm_name(a) for a in (self.key, self.name, *self.aliases)}


def _table_basis(sup: ApiSupport, path: Path | None, dtype: str | None) -> str:
    """Why a dtype / path outside the doc's table is refused: the C++ API's own check when the audited
    C++ table excludes it too, else the doc's table (divergence L26)."""
    if sup.cpp is not None and path is not None and path in sup.cpp:
        cpp_ds = sup.cpp[path]
        if not cpp_ds or (dtype is not None and dtype not in cpp_ds):
            return cpp_rejects(sup.cpp_check or "no such path / dtype in the impl")
    where = sup.notes.removeprefix("doc: ").split(";")[0].strip() or "the API page"
    return doc_forbids(where.replace("(", "[").replace(")", "]"), "L26")


# APIs the C++ API does not implement on a chip (audited in asc-devkit impl/basic_api/dav_*/ and the arch
# guards of kernel_operator_mm_intf_impl.h): refusing them is the C++ API's own refusal.
_ONLY_3510 = {api: "no overload outside __NPU_ARCH__ 3510/5102" for api in (
    "Load3DBitMode", "Load2DBitMode", "LoadDataWithStride", "Load2DMX", "MmadMx", "SetFmatrixBitMode",
    "SetLoadDataRepeatWithStride")}
_ONLY_2201 = {api: "no overload outside __NPU_ARCH__ 2201"
              for api in ("LoadDataWithSparse", "MmadWithSparse")}
_C220 = {**_ONLY_3510,
         "Load3Dv1": "ReportNotSupport in dav_c220 LoadData3DV1L12L0ACal",
         "LoadData2Dv2": "ReportNotSupport in dav_c220 LoadData2DL12L0ACal [LoadData2DParamsV2]",
         "LoadDataWithTransposeV2": "ReportNotSupport in dav_c220 LoadData2DL12L0BTransposeCal [V2]"}
_C100 = "ASCENDC_REPORT_NOT_SUPPORT in dav_c100"
_M200 = "ASCENDC_REPORT_NOT_SUPPORT in dav_m200"
CPP_ABSENT: Mapping[str, Mapping[str, str]] = MappingProxyType({k: MappingProxyType(v) for k, v in {
    "a2": _C220,
    "a3": _C220,
    "ascend950": {**_ONLY_2201, "Load3Dv1": "ASCENDC_ASSERT in dav_3510 LoadData3DV1L12L0ACal",
                  "DataCopyL12GM": "ASCENDC_ASSERT in dav_3510 DataCopyL12GMImpl",
                  "SetLoadDataBoundary": "ASCENDC_ASSERT in dav_3510 SetLoadDataBoundaryCal"},
    "training": {**_ONLY_3510, **_ONLY_2201, **{api: _C100 for api in (
        "Load3Dv2", "Load3Dv2Pro", "LoadData2Dv2", "LoadDataWithTranspose", "SetLoadDataRepeat",
        "SetLoadDataBoundary", "DataCopyL12GM")}},
    "inference_aicore": {**_ONLY_3510, **_ONLY_2201, **{api: _M200 for api in (
        "LoadData2Dv2", "LoadDataWithTranspose", "DataCopyL12GM")}},
    "atlas200i500a2": {**_ONLY_3510, **_ONLY_2201},
}.items()})


# --------------------------------------------------------------------------------------------------
# Dtype groups and paths
# --------------------------------------------------------------------------------------------------

S4 = ("int4b_t",)
B8I = ("int8_t", "uint8_t")
F8 = ("hifloat8_t", "fp8_e5m2_t", "fp8_e4m3fn_t")
FP4 = ("fp4x2_e2m1_t", "fp4x2_e1m2_t")
B16F = ("half", "bfloat16_t")
B16I = ("int16_t", "uint16_t")
B32 = ("int32_t", "uint32_t", "float")
MXFP8 = ("mx_fp8_e4m3_t", "mx_fp8_e5m2_t")

GM_L1: Path = ("GM", "L1")
GM_L0A: Path = ("GM", "L0A")
GM_L0B: Path = ("GM", "L0B")
L1_L0A: Path = ("L1", "L0A")
L1_L0B: Path = ("L1", "L0B")
L1_L0AMX: Path = ("L1", "L0A_MX")
L1_L0BMX: Path = ("L1", "L0B_MX")
L1_IDX: Path = ("L1", "SPARSE_IDX")
L0A_L0C: Path = ("L0A", "L0C")
L0B_L0C: Path = ("L0B", "L0C")
BT_L0C: Path = ("BT", "L0C")
MXA_L0C: Path = ("L0A_MX", "L0C")
MXB_L0C: Path = ("L0B_MX", "L0C")
L0C_GM: Path = ("L0C", "GM")


def _t(*groups: Iterable[str]) -> frozenset[str]:
    out: set[str] = set()
    for g in groups:
        out |= set(g)
    return frozenset(out)


def _mmad(combos: Iterable[tuple[str, str, str]], bias: Iterable[str] = (), notes: str = "",
          cpp_check: str = "") -> ApiSupport:
    cs = tuple(combos)
    paths: dict[Path, frozenset[str]] = {
        L0A_L0C: frozenset(c[0] for c in cs),
        L0B_L0C: frozenset(c[1] for c in cs),
    }
    if bias:
        paths[BT_L0C] = frozenset(bias)
    return _api(paths, notes=notes, combos=cs, cpp_check=cpp_check)


def _fixpipe(conv: Mapping[str, Iterable[str]], notes: str) -> ApiSupport:
    return _api({L0C_GM: frozenset(conv)}, notes=notes, combos=[(s, d) for s, ds in conv.items() for d in ds])


@dataclass(frozen=True)
class _SameAsV2:
    """A Load3D v2 Pro row that is the chip's v2 row (one doc table for both) under its own citation; the C++
    audit of v2 is not carried over (v2 Pro's checks were not audited)."""

    notes: str


def _pro_of(notes: str) -> _SameAsV2:
    return _SameAsV2(notes)


def _derived(apis: Mapping[str, ApiSupport | _SameAsV2]) -> dict[str, ApiSupport]:
    """Rows stated as derived from another row of the same chip, resolved."""
    out = dict(apis)
    for k, v in apis.items():
        if isinstance(v, _SameAsV2):
            out[k] = dataclasses.replace(out["Load3Dv2"], notes=v.notes, cpp=None, cpp_check="")
    return out  # type: ignore[return-value]


def _kb(n: int) -> int:
    return n * 1024


#: (chip, api, dtype, src, dst) combinations `ChipProfile.check` accepted (bounded by the chip tables).
_SUPPORTED: set[tuple] = set()

_DOC = "M/矩阵计算的搬入/"
_AUX = "M/矩阵搬入辅助配置接口/"

# --------------------------------------------------------------------------------------------------
# Ascend 950PR/950DT (Atlas 350), arch 3510
# --------------------------------------------------------------------------------------------------


def _build_ascend950() -> dict[str, ApiSupport]:
    l3d = _t(B8I, F8, B16F, B32)  # doc: LoadData_3D.md 数据类型 id23; IN-CON 表4
    l3d_tr = _t(B8I, F8, B16F, B32)  # doc: LoadData_3D.md entranspose_constraint id39 (b8/b16/b32, L0A only)
    l2d = _t(B8I, B16I, B16F, B32)  # doc: LoadData_2D.md 数据类型 id12
    l2dv2 = _t(B8I, FP4, F8, B16F, B32)  # doc: LoadData_2D_V2.md 数据类型
    ldwt = _t(B8I, B16F, B32)  # doc: LoadDataWithTranspose.md 数据类型 id14
    mx_data = _t(FP4, ("fp8_e5m2_t", "fp8_e4m3fn_t"), MXFP8)  # doc: LoadData_2D_MX.md 数据类型; s003 U rule
    # C++ (asc-devkit impl/basic_api/dav_3510/kernel_operator_mm_impl.h static_asserts): what the impl takes
    cpp_l3d = _t(B8I, F8, B16F, B16I, B32)  # LoadData3DV2L12L0ACal / ...WithStrideCal
    cpp_l3d_pro = _t(B8I, F8, B16F, B32)  # LoadData3DV2L12L0ACal [LoadData3DParamsV2Pro]
    cpp_l2d = _t(B8I, B16I, B16F, B32)  # LoadData2DL12L0ACal / LoadData2DGM2L1Cal [LoadData2DParams]
    cpp_l2dv2 = _t(FP4, B8I, F8, B16F, B32)  # LoadData2DL12L0ACal [LoadData2DParamsV2 / Load2DBitModeParam]
    cpp_ldwt = _t(B8I, B16F, B32)  # LoadData2DL12L0BTransposeCal
    sa = "static_assert in dav_3510 kernel_operator_mm_impl.h"
    fp8s = ("fp8_e4m3fn_t", "fp8_e5m2_t")
    fp4s = ("fp4x2_e1m2_t", "fp4x2_e2m1_t")
    return {
        "Load3Dv2": _api(
            {L1_L0A: l3d, L1_L0B: l3d},
            {L1_L0A: l3d_tr},
            notes=f"doc: {_DOC}LoadData_3D.md 数据类型 id23, 约束说明 id39",
            cpp={L1_L0A: cpp_l3d, L1_L0B: cpp_l3d}, cpp_check=sa,
        ),
        "Load3Dv2Pro": _api(
            # doc: LoadData_3D.md 表5 says enTranspose "A2 + half only"; we follow the per-chip id39 rule.
            {L1_L0A: l3d, L1_L0B: l3d},
            {L1_L0A: l3d_tr},
            notes=f"doc: {_DOC}LoadData_3D.md 数据类型 id23 (v2 Pro shares the v2 list)",
            cpp={L1_L0A: cpp_l3d_pro, L1_L0B: cpp_l3d_pro}, cpp_check=sa,
        ),
        "Load3DBitMode": _api(
            # doc: LoadData_3D_BitMode.md 数据类型; transpose text says "half" but refers to LoadData_3D.md
            # enTranspose, whose 950 rule (id39) is b8/b16/b32.
            {L1_L0A: l3d, L1_L0B: l3d},
            {L1_L0A: l3d_tr},
            notes=f"doc: {_DOC}LoadData_3D_BitMode.md 数据类型; s000",
        ),
        "LoadDataWithStride": _api(
            # doc: LoadDataWithStride.md 数据类型: B1->B2 lists only b16/b32 (no b8), unlike LoadData_3D.md
            # and IN-CON 表4; the C++ static_assert takes b8 and Huawei's load_data_with_stride example loads
            # int8 B this way: executed with a DocConflictWarning (divergence L23).
            {L1_L0A: l3d, L1_L0B: _t(B16F, B32)},
            {L1_L0A: l3d_tr},
            notes=f"doc: {_DOC}LoadDataWithStride.md 数据类型 (per path)",
            cpp={L1_L0A: cpp_l3d, L1_L0B: cpp_l3d}, cpp_check=sa,
            conflicts={L1_L0B: _t(B8I, F8)},
            conflict_rule="LoadDataWithStride.md 数据类型: B1->B2 lists half/bfloat16_t/int32_t/uint32_t/"
                          "float only",
            conflict_row="L23",
        ),
        "LoadData2D": _api(
            # doc: LoadData_2D.md 功能说明 id10 (950: L1->L0A/L0B only);
            # GM->L1 from LoadData（GMToL1-2D矩阵搬运）.md id10
            {GM_L1: l2d, L1_L0A: l2d, L1_L0B: l2d},
            {L1_L0A: _t(B16I, B16F), L1_L0B: _t(B16I, B16F)},  # doc: LoadData_2D.md 约束说明 (b16 only)
            notes=f"doc: {_DOC}LoadData_2D.md 数据类型 id12; LoadData（GMToL1-2D矩阵搬运）.md id10",
            cpp={GM_L1: cpp_l2d, L1_L0A: cpp_l2d, L1_L0B: cpp_l2d, GM_L0A: (), GM_L0B: ()},
            cpp_check=sa + "; ASCENDC_ASSERT for GM->L0A/L0B",
        ),
        "LoadData2Dv2": _api(
            # doc: LoadData_2D_V2.md (L1->L0A/L0B); LoadData（GMToL1-2D矩阵搬运V2）.md (GM->L1, no transpose)
            {GM_L1: l2dv2, L1_L0A: l2dv2, L1_L0B: l2dv2},
            {L1_L0A: l2dv2, L1_L0B: l2dv2},  # doc: LoadData_2D_V2.md 表 ifTranspose (b4/b8/b16/b32)
            notes=f"doc: {_DOC}LoadData_2D_V2.md 数据类型; IN-CON 表4",
            cpp={L1_L0A: cpp_l2dv2, L1_L0B: cpp_l2dv2}, cpp_check=sa,
        ),
        "Load2DBitMode": _api(
            {L1_L0A: l2dv2, L1_L0B: l2dv2},
            {L1_L0A: l2dv2, L1_L0B: l2dv2},
            notes=f"doc: {_DOC}LoadData_2D_BitMode.md 数据类型, 约束说明 id10",
            cpp={L1_L0A: cpp_l2dv2, L1_L0B: cpp_l2dv2}, cpp_check=sa,
        ),
        "LoadDataWithTranspose": _api(
            # doc: LoadDataWithTranspose.md 功能说明 id10 (950: L1->L0B only). V1 params are converted to
            # V2 by the C++ API on 950 (dav_3510; divergences.md T6); the doc lists only V2 for 950.
            {L1_L0B: ldwt},
            {L1_L0B: ldwt},
            notes=f"doc: {_DOC}LoadDataWithTranspose.md 数据类型 id14, 功能说明 id10",
            cpp={L1_L0B: cpp_ldwt, L1_L0A: ()}, cpp_check=sa + "; ASCENDC_ASSERT for L1->L0A",
        ),
        "LoadDataWithTransposeV2": _api(
            {L1_L0B: ldwt},
            {L1_L0B: ldwt},
            notes=f"doc: {_DOC}LoadDataWithTranspose.md 表4 (LoadData2dTransposeParamsV2, 950 only); s002",
            cpp={L1_L0B: cpp_ldwt, L1_L0A: ()}, cpp_check=sa + "; no L0A branch in LoadDataWithTransposeImpl",
        ),
        "Load2DMX": _api(
            {L1_L0A: mx_data, L1_L0B: mx_data, L1_L0AMX: ("fp8_e8m0_t",), L1_L0BMX: ("fp8_e8m0_t",)},
            # inferred: IN-CON 950 says MX loads support transpose (LoadData2DParamsV2.ifTranspose).
            {L1_L0A: mx_data, L1_L0B: mx_data},
            notes=f"doc: {_DOC}LoadData_2D_MX.md 功能说明, 数据类型; srcMx fp8_e8m0_t",
        ),
        "Mmad": _mmad(
            [
                ("int8_t", "int8_t", "int32_t"),
                ("half", "half", "float"),
                ("float", "float", "float"),
                ("bfloat16_t", "bfloat16_t", "float"),
                ("hifloat8_t", "hifloat8_t", "float"),
            ]
            + [(a, b, "float") for a in fp8s for b in fp8s],
            bias=("int32_t", "float"),
            notes="doc: M/Mmad计算/Mmad.md 表5/表6",
        ),  # fmt: skip
        "MmadMx": _api(
            {
                L0A_L0C: _t(FP4, fp8s, MXFP8),
                L0B_L0C: _t(FP4, fp8s, MXFP8),
                MXA_L0C: ("fp8_e8m0_t",),
                MXB_L0C: ("fp8_e8m0_t",),
                BT_L0C: ("float",),
            },
            notes="doc: M/Mmad计算/MmadMx.md 表3",
            cpp_check="static_assert isMx in dav_3510 MmadMxCal (the same combinations)",
            combos=[(a, b, "float") for a in fp4s for b in fp4s]
            + [(a, b, "float") for a in fp8s for b in fp8s],
        ),  # fmt: skip
        "SetFmatrix": _api(notes=f"doc: {_AUX}SetFmatrix.md 产品支持情况"),
        "SetFmatrixBitMode": _api(notes=f"doc: {_AUX}SetFmatrixBitMode.md 产品支持情况"),
        "SetLoadDataPaddingValue": _api(
            dtypes=_t(B8I, B16I, B16F, B32), notes=f"doc: {_AUX}SetLoadDataPaddingValue.md 数据类型 id10"
        ),
        "SetLoadDataRepeat": _api(notes=f"doc: {_AUX}SetLoadDataRepeat.md 产品支持情况"),
        "SetLoadDataRepeatWithStride": _api(notes=f"doc: {_AUX}SetLoadDataRepeatWithStride.md 产品支持情况"),
        "DataCopyND2NZ": _api(
            {GM_L1: _t(("bool",), B8I, FP4, F8, ("fp8_e8m0_t",), B16I, B16F, B32, ("complex32",))},
            notes=f"doc: {_DOC}DataCopy（GMToL1随路转换-ND2NZ搬运）.md 数据类型 id12",
        ),
        "DataCopyDN2NZ": _api(
            {GM_L1: _t(B8I, FP4, B16I, B32, B16F)},
            notes=f"doc: {_DOC}DataCopy（GMToL1随路转换-DN2NZ搬运）.md 数据类型",
        ),
        "Fixpipe": _fixpipe(
            {
                "float": ("int8_t", "uint8_t", "hifloat8_t", "fp8_e4m3fn_t", "half", "bfloat16_t", "float"),
                "int32_t": ("int8_t", "uint8_t", "half", "bfloat16_t", "int32_t"),
            },
            notes="doc: M/矩阵计算的搬出/Fixpipe（L0C到GM数据搬运）.md 数据类型 (950)",
        ),  # fmt: skip
    }


# --------------------------------------------------------------------------------------------------
# Atlas A2 / A3 training & inference series, arch 2201 (dav_c220). The two have identical tables.
# --------------------------------------------------------------------------------------------------


def _build_a2a3(npu: str) -> dict[str, ApiSupport]:
    l3d_a = _t(S4, B8I, B16F, B32)  # doc: LoadData_3D.md 数据类型 id24/id25 (TPosition A1/A2)
    l3d_b = _t(B16F, B32)  # doc: LoadData_3D.md 数据类型 id24/id25 (TPosition B1/B2); 约束说明 id30
    l3d_tr = _t(B16F, B32)  # doc: LoadData_3D.md entranspose_constraint id38 (L0A, b16/b32)
    l2d = _t(B8I, B16I, B16F, B32)  # doc: LoadData_2D.md 数据类型 id13/id14; IN-CON 表3
    ldwt_a = _t(B8I, B16F, B32)  # doc: LoadDataWithTranspose.md 数据类型 id15/id16 (L0A)
    ldwt_b = _t(S4, B8I, B16F, B32)  # doc: LoadDataWithTranspose.md 数据类型 id15/id16 (L0B)
    # C++ (asc-devkit kernel_operator_mm_base_impl.h / _mm_check.h / dav_c220, __NPU_ARCH__ 2201): the same
    # lists, checked by ASCENDC_DEBUG_ASSERT / ReportNotSupport
    return {
        "Load3Dv2": _api(
            {L1_L0A: l3d_a, L1_L0B: l3d_b},
            {L1_L0A: l3d_tr},
            notes=f"doc: {_DOC}LoadData_3D.md 数据类型 {npu}, 约束说明 id30/id38",
            cpp={L1_L0A: l3d_a, L1_L0B: l3d_b},
            cpp_check="ASCENDC_DEBUG_ASSERT in LoadDataImpl [LoadData3DParamsV2, 2201]; ReportNotSupport "
                      "for b8 to L0B",
        ),
        # v2 Pro shares the v2 list (the doc's one table); the C++ audit above is v2's only
        "Load3Dv2Pro": _pro_of(f"doc: {_DOC}LoadData_3D.md 数据类型 {npu} (v2 Pro shares the v2 list)"),
        "LoadData2D": _api(
            # doc: LoadData_2D.md 功能说明 (GM->L0A/L0B, L1->L0A/L0B); int4b_t only on L1 paths
            # (note id13/14);
            # GM->L1: LoadData（GMToL1-2D矩阵搬运）.md id11/id12 "b8、b16、b32".
            {GM_L1: l2d, GM_L0A: l2d, GM_L0B: l2d, L1_L0A: _t(S4, l2d), L1_L0B: _t(S4, l2d)},
            {L1_L0A: _t(B16I, B16F), L1_L0B: _t(B16I, B16F)},  # doc: LoadData_2D.md 约束说明 (b16 only)
            notes=f"doc: {_DOC}LoadData_2D.md 数据类型 {npu}; IN-CON 表3",
            cpp={GM_L1: l2d, GM_L0A: l2d, GM_L0B: l2d, L1_L0A: _t(S4, l2d), L1_L0B: _t(S4, l2d)},
            cpp_check="CheckLoadData2dDatatype [2201]; ASCENDC_DEBUG_ASSERT for int4b_t from GM",
        ),
        "LoadDataWithTranspose": _api(
            {L1_L0A: ldwt_a, L1_L0B: ldwt_b},
            {L1_L0A: ldwt_a, L1_L0B: ldwt_b},
            notes=f"doc: {_DOC}LoadDataWithTranspose.md 数据类型 {npu}; IN-CON 表3",
            cpp={L1_L0A: ldwt_a, L1_L0B: ldwt_b}, cpp_check="CheckLoadDataWithTransposeDtype [2201]",
        ),
        "LoadDataWithSparse": _api(
            {L1_L0B: ("int8_t",), L1_IDX: ("uint8_t",)},
            notes=f"doc: {_DOC}LoadDataWithSparse.md 数据类型 (src/dst int8_t, idx uint8_t); s004",
            cpp={L1_L0B: ("int8_t",), L1_IDX: ("uint8_t",)},
            cpp_check="enable_if int8_t / uint8_t on LoadDataWithSparse",
        ),
        "Mmad": _mmad(
            [
                ("int8_t", "int8_t", "int32_t"),
                ("half", "half", "float"),
                ("float", "float", "float"),
                ("bfloat16_t", "bfloat16_t", "float"),
                ("int4b_t", "int4b_t", "int32_t"),
            ],
            bias=("int32_t", "float"),
            notes="doc: M/Mmad计算/Mmad.md 表7/表8",
            cpp_check="ASCENDC_DEBUG_ASSERT in dav_c220 MmadCal (the same combinations)",
        ),  # fmt: skip
        "MmadWithSparse": _mmad(
            [("int8_t", "int8_t", "int32_t")], notes="doc: M/Mmad计算/MmadWithSparse.md 表6",
            cpp_check="enable_if int32_t / int8_t on MmadWithSparse",
        ),
        "SetFmatrix": _api(notes=f"doc: {_AUX}SetFmatrix.md 产品支持情况"),
        "SetLoadDataPaddingValue": _api(
            dtypes=_t(B8I, B16I, B16F, B32), notes=f"doc: {_AUX}SetLoadDataPaddingValue.md 数据类型 {npu}"
        ),
        "SetLoadDataRepeat": _api(notes=f"doc: {_AUX}SetLoadDataRepeat.md 产品支持情况"),
        "SetLoadDataBoundary": _api(notes=f"doc: {_AUX}SetLoadDataBoundary.md 产品支持情况"),
        "DataCopyND2NZ": _api(
            {GM_L1: _t(S4, B8I, B16I, B32, B16F)},
            notes=f"doc: {_DOC}DataCopy（GMToL1随路转换-ND2NZ搬运）.md 数据类型 {npu}",
        ),
        "Fixpipe": _fixpipe(
            {
                "float": ("int8_t", "uint8_t", "half", "bfloat16_t", "float"),
                "int32_t": ("int8_t", "uint8_t", "half", "int32_t"),
            },
            notes=f"doc: M/矩阵计算的搬出/Fixpipe（L0C到GM数据搬运）.md 数据类型 {npu} (FixpipeParamsV220)",
        ),  # fmt: skip
    }


# --------------------------------------------------------------------------------------------------
# Atlas 200I/500 A2 inference product (310B), arch 3002 (dav_m300)
# --------------------------------------------------------------------------------------------------


def _build_atlas200i500a2() -> dict[str, ApiSupport]:
    l3d_a = _t(S4, B8I, B16F, B32)  # doc: LoadData_3D.md 数据类型 id26 (A1/A2)
    l3d_b = _t(B16F, B32)  # doc: LoadData_3D.md 数据类型 id26 (B1/B2)
    # inferred: LoadData_3D.md states no enTranspose rule for 310B; we assume the A2/A3 one (L0A b16/b32).
    l3d_tr = _t(B16F, B32)
    l2d = _t(B8I, B16I, B16F, B32)  # doc: LoadData_2D.md 数据类型 id15 (no int4b_t)
    ldwt = _t(B8I, B16F, B32)  # doc: LoadDataWithTranspose.md 数据类型 id17
    return {
        "Load3Dv2": _api(
            {L1_L0A: l3d_a, L1_L0B: l3d_b}, {L1_L0A: l3d_tr}, notes=f"doc: {_DOC}LoadData_3D.md 数据类型 id26"
        ),
        "Load3Dv2Pro": _pro_of(f"doc: {_DOC}LoadData_3D.md 数据类型 id26"),
        "LoadData2D": _api(
            # doc: LoadData_2D.md 功能说明 (generic paths); GM->L1 LoadData（GMToL1-2D矩阵搬运）.md id13
            {GM_L1: l2d, GM_L0A: l2d, GM_L0B: l2d, L1_L0A: l2d, L1_L0B: l2d},
            {L1_L0A: _t(B16I, B16F), L1_L0B: _t(B16I, B16F)},
            notes=f"doc: {_DOC}LoadData_2D.md 数据类型 id15",
        ),
        "LoadDataWithTranspose": _api(
            # doc: LoadDataWithTranspose.md 约束说明: "b4数据类型仅在目的操作数为L0B Buffer的时候支持"
            {L1_L0A: ldwt, L1_L0B: _t(S4, ldwt)},
            {L1_L0A: ldwt, L1_L0B: _t(S4, ldwt)},
            notes=f"doc: {_DOC}LoadDataWithTranspose.md 数据类型 id17, 约束说明 (int4b_t L0B only)",
        ),
        "Mmad": _mmad(
            [
                ("int8_t", "int8_t", "int32_t"),
                ("half", "half", "float"),
                ("float", "float", "float"),
                ("bfloat16_t", "bfloat16_t", "float"),
                ("int4b_t", "int4b_t", "int32_t"),
            ],
            bias=("int32_t", "float"),
            notes="doc: M/Mmad计算/Mmad.md 表7/表8 (200I/500 A2)",
        ),  # fmt: skip
        "SetFmatrix": _api(notes=f"doc: {_AUX}SetFmatrix.md 产品支持情况"),
        "SetLoadDataPaddingValue": _api(
            dtypes=_t(B8I, B16I, B16F, B32), notes=f"doc: {_AUX}SetLoadDataPaddingValue.md 数据类型 id14"
        ),
        "SetLoadDataRepeat": _api(notes=f"doc: {_AUX}SetLoadDataRepeat.md 产品支持情况"),
        "Fixpipe": _fixpipe(
            {
                "float": ("int8_t", "uint8_t", "half", "bfloat16_t", "float"),
                "int32_t": ("int8_t", "uint8_t", "half", "int32_t"),
            },
            notes="doc: M/矩阵计算的搬出/Fixpipe（L0C到GM数据搬运）.md 数据类型 (FixpipeParamsM300)",
        ),  # fmt: skip
    }


# --------------------------------------------------------------------------------------------------
# Atlas inference series AI Core (310P), arch 2002 (dav_m200)
# --------------------------------------------------------------------------------------------------


def _build_inference_aicore() -> dict[str, ApiSupport]:
    v1 = _t(B8I, ("half",))  # doc: LoadData_3D.md 数据类型 id20
    # doc: LoadData_3D.md 数据类型 id27 gives one list with no per-path split and no 310P L0B restriction,
    # and 功能说明 lists both L1->L0A and L1->L0B; so both paths take the full list.
    l3d = _t(S4, B8I, ("half",))
    # inferred: no per-chip enTranspose rule for 310P; LoadData_3D.md 表5 / s001 say "A2 dst and half only".
    l3d_tr = frozenset({"half"})
    l2d = _t(B8I, B16I, ("half",))  # doc: LoadData_2D.md 数据类型 id17
    return {
        "Load3Dv1": _api({L1_L0A: v1, L1_L0B: v1}, notes=f"doc: {_DOC}LoadData_3D.md 数据类型 id20"),
        "Load3Dv2": _api(
            {L1_L0A: l3d, L1_L0B: l3d}, {L1_L0A: l3d_tr}, notes=f"doc: {_DOC}LoadData_3D.md 数据类型 id27"
        ),
        "Load3Dv2Pro": _pro_of(f"doc: {_DOC}LoadData_3D.md 数据类型 id27; 表5 channelSize rules"),
        "LoadData2D": _api(
            # doc: LoadData_2D.md 数据类型 id17: int4b_t only on L1->L0A/L0B; GM->L1 GMToL1 page id14.
            {GM_L1: l2d, GM_L0A: l2d, GM_L0B: l2d, L1_L0A: _t(S4, l2d), L1_L0B: _t(S4, l2d)},
            # doc: LoadData_2D.md 约束说明 (b16 only) + id20 (310P: S4 B-matrix with ifTranspose,
            # 64x64 fractals)
            {L1_L0A: _t(B16I, ("half",)), L1_L0B: _t(B16I, ("half",), S4)},
            notes=f"doc: {_DOC}LoadData_2D.md 数据类型 id17, 约束说明 id20",
        ),
        "Mmad": _mmad(
            [
                ("int8_t", "int8_t", "int32_t"),
                ("uint8_t", "int8_t", "int32_t"),
                ("uint8_t", "uint8_t", "int32_t"),
                ("half", "half", "half"),
                ("half", "half", "float"),
                ("int4b_t", "int4b_t", "int32_t"),
            ],
            notes="doc: M/Mmad计算/Mmad.md 表9 (no bias prototype on this product)",
        ),  # fmt: skip
        "SetFmatrix": _api(notes=f"doc: {_AUX}SetFmatrix.md 产品支持情况"),
        "SetLoadDataPaddingValue": _api(
            dtypes=_t(B8I, B16I, ("half",)), notes=f"doc: {_AUX}SetLoadDataPaddingValue.md 数据类型 id11"
        ),
        "SetLoadDataBoundary": _api(notes=f"doc: {_AUX}SetLoadDataBoundary.md 产品支持情况"),
        "DataCopyND2NZ": _api(
            {GM_L1: _t(B16I, B32, ("half",))},
            notes=f"doc: {_DOC}DataCopy（GMToL1随路转换-ND2NZ搬运）.md 数据类型 id15",
        ),
    }


# --------------------------------------------------------------------------------------------------
# Atlas training series (910), arch 1001 (dav_c100)
# --------------------------------------------------------------------------------------------------


def _build_training() -> dict[str, ApiSupport]:
    v1 = _t(B8I, ("half",))  # doc: LoadData_3D.md 数据类型 id21
    l2d = _t(B8I, B16I, ("half",))  # doc: LoadData_2D.md 数据类型 id16; GMToL1 page id15
    return {
        "Load3Dv1": _api({L1_L0A: v1, L1_L0B: v1}, notes=f"doc: {_DOC}LoadData_3D.md 数据类型 id21"),
        "LoadData2D": _api(
            {GM_L1: l2d, GM_L0A: l2d, GM_L0B: l2d, L1_L0A: l2d, L1_L0B: l2d},
            {L1_L0A: _t(B16I, ("half",)), L1_L0B: _t(B16I, ("half",))},
            notes=f"doc: {_DOC}LoadData_2D.md 数据类型 id16",
        ),
        "Mmad": _mmad(
            [
                ("uint8_t", "uint8_t", "uint32_t"),
                ("int8_t", "int8_t", "int32_t"),
                ("uint8_t", "int8_t", "int32_t"),
                ("half", "half", "half"),
                ("half", "half", "float"),
            ],
            notes="doc: M/Mmad计算/Mmad.md 表10 (no bias prototype on this product)",
        ),  # fmt: skip
    }


# --------------------------------------------------------------------------------------------------
# Kirin X90 and Kirin 9030 (arch not documented here)
# --------------------------------------------------------------------------------------------------


def _build_kirin_x90() -> dict[str, ApiSupport]:
    i8h = _t(("int8_t", "half"))
    return {
        "Load3Dv2": _api(
            # doc: LoadData_3D.md 数据类型 id28 (A1/A2 and B1/B2: int8_t, half).
            # inferred: no enTranspose rule for X90; LoadData_3D.md 表5 says "A2 dst and half only".
            {L1_L0A: i8h, L1_L0B: i8h},
            {L1_L0A: ("half",)},
            notes=f"doc: {_DOC}LoadData_3D.md 数据类型 id28",
        ),
        "Load3Dv2Pro": _pro_of(f"doc: {_DOC}LoadData_3D.md 数据类型 id28"),
        "LoadData2D": _api(
            {GM_L1: i8h, GM_L0A: i8h, GM_L0B: i8h, L1_L0A: i8h, L1_L0B: i8h},
            {L1_L0A: ("half",), L1_L0B: ("half",)},
            notes=f"doc: {_DOC}LoadData_2D.md 数据类型 id18; GMToL1 page id16",
        ),
        "LoadDataWithTranspose": _api(
            {L1_L0A: i8h, L1_L0B: i8h},
            {L1_L0A: i8h, L1_L0B: i8h},
            notes=f"doc: {_DOC}LoadDataWithTranspose.md 数据类型 id18",
        ),
        "Mmad": _mmad(
            [("int8_t", "int8_t", "int32_t"), ("half", "half", "half")],
            bias=("int32_t", "half"),
            notes="doc: M/Mmad计算/Mmad.md 表11",
        ),
        "SetFmatrix": _api(notes=f"doc: {_AUX}SetFmatrix.md 产品支持情况"),
        "SetLoadDataPaddingValue": _api(
            dtypes=("int8_t", "half"), notes=f"doc: {_AUX}SetLoadDataPaddingValue.md 数据类型 id15"
        ),
        "DataCopyND2NZ": _api(
            {GM_L1: _t(B8I, B16I, ("half",))},
            notes=f"doc: {_DOC}DataCopy（GMToL1随路转换-ND2NZ搬运）.md 数据类型 id16",
        ),
        "Fixpipe": _fixpipe(
            {"float": ("int8_t", "half"), "int32_t": ("int8_t", "half", "int32_t")},
            notes="doc: M/矩阵计算的搬出/Fixpipe（L0C到GM数据搬运）.md 数据类型 (Kirin X90)",
        ),
    }


def _build_kirin_9030() -> dict[str, ApiSupport]:
    h = ("half",)
    return {
        "LoadData2D": _api(
            {GM_L1: h, GM_L0A: h, GM_L0B: h, L1_L0A: h, L1_L0B: h},
            {L1_L0A: h, L1_L0B: h},
            notes=f"doc: {_DOC}LoadData_2D.md 数据类型 id19; GMToL1 page id17",
        ),
        # doc: Mmad.md 产品支持情况: no-bias prototype 支持, bias prototype 不支持
        # (表12 nonetheless lists a bias type; we keep the A/B/C combo and no BT path).
        "Mmad": _mmad([("half", "half", "half")], notes="doc: M/Mmad计算/Mmad.md 表12"),
        "SetFmatrix": _api(notes=f"doc: {_AUX}SetFmatrix.md 产品支持情况"),
        "SetLoadDataPaddingValue": _api(
            dtypes=h, notes=f"doc: {_AUX}SetLoadDataPaddingValue.md 数据类型 id16"
        ),
        "DataCopyND2NZ": _api(
            {GM_L1: _t(B8I, B16I, h)},
            notes=f"doc: {_DOC}DataCopy（GMToL1随路转换-ND2NZ搬运）.md 数据类型 id17",
        ),
        "Fixpipe": _fixpipe(
            {"float": h, "int32_t": h},
            notes="doc: M/矩阵计算的搬出/Fixpipe（L0C到GM数据搬运）.md 数据类型 (Kirin 9030)",
        ),
    }


# --------------------------------------------------------------------------------------------------
# Profiles
# --------------------------------------------------------------------------------------------------


# --------------------------------------------------------------------------------------------------
# Companion instructions (issue 7): Fill, DataCopy into BT / FB, DataCopyPad, Fixpipe into L1, atomics and
# the Fixpipe register setters. One table for every chip; _profile merges it into each chip's APIs.
# --------------------------------------------------------------------------------------------------

_ISASI = "M/矩阵计算的搬入/"
_OUT = "M/矩阵计算的搬出/"
_OUTAUX = "M/矩阵搬出辅助配置接口/"
# doc: Fill.md 数据类型 id10-id17
_FILL = {
    "ascend950": _t(B16I, B16F, B32), "a3": _t(B16I, B16F, B32), "a2": _t(B16I, B16F, B32),
    "atlas200i500a2": _t(B16I, B16F, B32), "inference_aicore": _t(B16I, ("half",)), "training": ("half",),
    "kirin_x90": ("int8_t", "half"), "kirin_9030": ("half",),
}  # fmt: skip
# doc: SetAtomicAdd.md 数据类型 id1-id6
_ATOMIC = {
    "ascend950": ("int8_t", "int16_t", "half", "bfloat16_t", "int32_t", "float"),
    "a3": ("int8_t", "int16_t", "half", "bfloat16_t", "int32_t", "float"),
    "a2": ("int8_t", "int16_t", "half", "bfloat16_t", "int32_t", "float"),
    "atlas200i500a2": ("int16_t", "half", "int32_t", "float"),
    "inference_aicore": ("int16_t", "half", "float"),
    "training": ("float",),
}  # fmt: skip
# doc: Fixpipe（L0C到L1数据搬运）.md 数据类型 id22-id26
_FIX_L1 = {
    "ascend950": {"float": ("int8_t", "uint8_t", "hifloat8_t", "fp8_e4m3fn_t", "half", "bfloat16_t", "float"),
                  "int32_t": ("int8_t", "uint8_t", "half", "bfloat16_t", "int32_t")},
    "a3": {"float": ("int8_t", "uint8_t", "half", "bfloat16_t"), "int32_t": ("int8_t", "uint8_t", "half")},
    "a2": {"float": ("int8_t", "uint8_t", "half", "bfloat16_t"), "int32_t": ("int8_t", "uint8_t", "half")},
    "kirin_x90": {"float": ("int8_t", "half"), "int32_t": ("int8_t", "half")},
    "kirin_9030": {"float": ("half",), "int32_t": ("half",)},
}  # fmt: skip
# doc: DataCopy（L1ToGM连续 / 高维切分数据搬运）.md 产品支持情况 / 数据类型
# (int64_t / double are listed too; ascsim has no such dtype)
_L1_GM = {
    "a3": _t(B8I, B16I, B16F, B32, ("uint64_t",)), "a2": _t(B8I, B16I, B16F, B32, ("uint64_t",)),
    "kirin_x90": _t(B8I, B16I, ("half",), B32, ("uint64_t",)),
    "kirin_9030": _t(B8I, B16I, ("half",), B32, ("uint64_t",)),
}  # fmt: skip
# doc: SetFixpipeNz2ndFlag.md / SetFixpipePreQuantFlag.md / SetFixPipeConfig.md 产品支持情况
_FIX_REGS = ("ascend950", "a3", "a2", "atlas200i500a2", "kirin_x90", "kirin_9030")


def _companions(key: str) -> dict[str, ApiSupport]:
    out: dict[str, ApiSupport] = {}
    if key in _FILL:
        out["Fill"] = _api(dtypes=_FILL[key], notes="doc: M/矩阵搬入辅助配置接口/Fill.md 数据类型")
    # doc: DataCopy（L1ToBiasTable / L1ToFixpipe-Buffer数据搬运）.md 产品支持情况
    if key in ("ascend950", "a3", "a2"):
        bt = [("half", "float"), ("int32_t", "int32_t"), ("float", "float")]
        if key == "ascend950":
            bt.append(("bfloat16_t", "float"))
        out["DataCopyL12BT"] = _api({("L1", "BT"): frozenset(a for a, _ in bt)}, combos=bt,
                                    notes=f"doc: {_ISASI}DataCopy（L1ToBiasTable-Buffer数据搬运）.md "
                                          f"数据类型")
        out["DataCopyL12FB"] = _api({("L1", "FB"): ("uint64_t",)},
                                    notes=f"doc: {_ISASI}DataCopy（L1ToFixpipe-Buffer数据搬运）.md 数据类型")
    if key == "ascend950":  # doc: DataCopyPad（GMToL1非对齐数据搬运）.md 产品支持情况 / 数据类型
        out["DataCopyPad"] = _api({GM_L1: _t(B8I, B16I, B16F, B32, ("uint64_t",))},
                                  notes=f"doc: {_ISASI}DataCopyPad（GMToL1非对齐数据搬运）.md 数据类型")
    if key in _FIX_L1:
        conv = _FIX_L1[key]
        out["FixpipeL0C2L1"] = _api({("L0C", "L1"): frozenset(conv)}, combos=[(a, b) for a, bs in conv.items()
                                                                              for b in bs],
                                    notes=f"doc: {_OUT}Fixpipe（L0C到L1数据搬运）.md 数据类型")
    if key in _ATOMIC:
        out["SetAtomicAdd"] = _api(dtypes=_ATOMIC[key], notes="doc: 原子操作/SetAtomicAdd.md 数据类型")
    if key in ("ascend950", "a3", "a2"):  # doc: SetAtomicMax / SetAtomicMin(ISASI).md 产品支持情况 / 数据类型
        for api in ("SetAtomicMax", "SetAtomicMin"):
            out[api] = _api(dtypes=("int8_t", "int16_t", "half", "bfloat16_t", "int32_t", "float"),
                            notes=f"doc: 原子操作/{api}(ISASI).md 数据类型")
    if key in _L1_GM:
        out["DataCopyL12GM"] = _api({("L1", "GM"): _L1_GM[key]},
                                    notes=f"doc: {_OUT}DataCopy（L1ToGM高维切分数据搬运）.md 数据类型")
    if key in _FIX_REGS:
        for api in ("SetFixpipeNz2ndFlag", "SetFixpipePreQuantFlag", "SetFixPipeConfig"):
            out[api] = _api(notes=f"doc: {_OUTAUX}{api}.md 产品支持情况")
    return out


def _profile(
    key: str,
    name: str,
    aliases: tuple[str, ...],
    arch: str,
    memory_sizes: Mapping[str, int],
    l0a_format: str,
    apis: Mapping[str, ApiSupport],
    has_cube: bool = True,
) -> ChipProfile:
    apis = _derived(apis)
    apis = {**apis, **_companions(key)} if has_cube else apis
    unknown = sorted(set(apis) - set(API_KEYS))
    if unknown:  # pragma: no cover - guards the tables above
        raise AssertionError(f"unknown API keys {unknown} in chip {key}")
    mmad = apis.get("Mmad")
    mmad_types = frozenset(c for c in mmad.combos if len(c) == 3) if mmad else frozenset()
    return ChipProfile(
        key=key,
        name=name,
        aliases=aliases,
        arch=arch,
        memory_sizes=MappingProxyType(dict(memory_sizes)),
        l0a_format=l0a_format,
        has_cube=has_cube,
        apis=MappingProxyType({k: apis[k] for k in API_KEYS if k in apis}),
        mmad_types=mmad_types,  # type: ignore[arg-type]
    )


# doc: the NPU架构版本2201.md / 3510.md storage tables (docs/layouts.md "Memories");
# SPARSE_IDX = L0B/4 [doc: LoadDataWithSparse 约束说明]
_MEM_A2A3 = {"L1": _kb(512), "L0A": _kb(64), "L0B": _kb(64), "L0C": _kb(128), "BT": _kb(1), "FB": _kb(2),
             "SPARSE_IDX": _kb(16)}  # fmt: skip
_MEM_950 = {"L1": _kb(512), "L0A": _kb(64), "L0B": _kb(64), "L0C": _kb(256), "BT": _kb(4), "FB": _kb(4),
            "L0A_MX": _kb(4), "L0B_MX": _kb(4)}  # fmt: skip
# inferred: not in the reference set; values from the CANN platform configs as we remember them (Ascend310B:
# L1 1 MB, L0C 128 KB; BT/FB assumed equal to 2201 because it has Fixpipe and bias Mmad). Verify before use.
_MEM_310B = {"L1": _kb(1024), "L0A": _kb(64), "L0B": _kb(64), "L0C": _kb(128), "BT": _kb(1), "FB": _kb(2)}
# inferred: CANN platform configs (Ascend310P / Ascend910): L1 1 MB, L0C 256 KB; no BT/FB (no Fixpipe/bias).
_MEM_310P = {"L1": _kb(1024), "L0A": _kb(64), "L0B": _kb(64), "L0C": _kb(256)}
_MEM_910 = {"L1": _kb(1024), "L0A": _kb(64), "L0B": _kb(64), "L0C": _kb(256)}
# inferred: no Kirin storage table available. L1 512 KB and L0A/L0B 64 KB follow the chip-neutral
# IN-MEM page (L1-L0A-B内存结构介绍.md); L0C/BT/FB are placeholders equal to 2201. Verify before use.
_MEM_KIRIN = {"L1": _kb(512), "L0A": _kb(64), "L0B": _kb(64), "L0C": _kb(128), "BT": _kb(1), "FB": _kb(2)}

ASCEND950 = _profile(
    "ascend950", "Atlas 350 / Ascend 950PR/950DT",
    ("950", "atlas350", "Atlas 350 加速卡", "Atlas 350 Accelerator Card", "ascend950pr", "ascend950dt",
     "950pr", "950dt", "Ascend 950PR/Ascend 950DT", "dav_3510", "3510"),
    "3510",  # doc: asc_950_feature_guide.md (__NPU_ARCH__ = 3510)
    _MEM_950, "NZ", _build_ascend950(),  # doc: LoadData_3D.md dst_layout id35 (L0A NZ)
)  # fmt: skip
A3 = _profile(
    "a3", "Atlas A3 training/inference series",
    ("a3", "atlas_a3", "Atlas A3 训练系列产品/Atlas A3 推理系列产品", "910_93", "ascend910_93", "910c"),
    "2201",  # doc: A2/A3 = arch 2201, dav_c220 (docs/layouts.md "Memories")
    _MEM_A2A3, "ZZ", _build_a2a3("id A3"),  # doc: LoadData_3D.md dst_layout id34 (L0A ZZ)
)  # fmt: skip
A2 = _profile(
    "a2", "Atlas A2 training/inference series",
    ("a2", "910b", "atlas_a2", "ascend910b", "Atlas A2 训练系列产品/Atlas A2 推理系列产品", "dav_c220",
     "c220", "2201"),
    "2201",  # doc: docs/layouts.md "Memories"
    _MEM_A2A3, "ZZ", _build_a2a3("id 910b"),  # doc: LoadData_3D.md dst_layout id34
)  # fmt: skip
ATLAS200I500A2 = _profile(
    "atlas200i500a2", "Atlas 200I/500 A2 inference product",
    ("310b", "ascend310b", "atlas200i500a2", "200i500a2", "Atlas 200I/500 A2 推理产品", "dav_m300", "m300",
     "3002"),
    "3002",  # inferred: brief / CANN naming (dav_m300); not stated in the reference set
    _MEM_310B, "ZZ", _build_atlas200i500a2(),  # inferred: pre-3510 chips use ZZ for L0A
)  # fmt: skip
INFERENCE_AICORE = _profile(
    "inference_aicore", "Atlas inference series AI Core",
    ("310p", "ascend310p", "atlas_inference", "atlas_inference_aicore", "Atlas 推理系列产品AI Core",
     "310p_aicore", "dav_m200", "m200", "2002"),
    "2002",  # inferred: brief / CANN naming (dav_m200)
    _MEM_310P, "ZZ", _build_inference_aicore(),  # inferred: ZZ as on every pre-3510 chip
)  # fmt: skip
INFERENCE_VECTORCORE = _profile(
    "inference_vectorcore", "Atlas inference series Vector Core",
    ("310p_vector", "310p_vec", "310pvectorcore", "atlas_inference_vectorcore",
     "Atlas 推理系列产品Vector Core", "dav_m200_vec", "m200_vec"),
    "2002",  # inferred: the Vector Core of the same 310P chip
    {}, "", {}, has_cube=False,  # doc: every cube page lists "Atlas 推理系列产品Vector Core：不支持"
)  # fmt: skip
TRAINING = _profile(
    "training", "Atlas training series",
    ("910", "ascend910", "ascend910a", "atlas_training", "Atlas 训练系列产品", "dav_c100", "c100", "1001"),
    "1001",  # inferred: brief / CANN naming (dav_c100)
    _MEM_910, "ZZ", _build_training(),  # inferred: ZZ as on every pre-3510 chip
)  # fmt: skip
KIRIN_X90 = _profile(
    "kirin_x90", "Kirin X90", ("x90", "kirinx90"),
    "unknown",  # inferred: no arch number in the reference set
    _MEM_KIRIN, "ZZ", _build_kirin_x90(),  # inferred: L0A format not documented for Kirin
)  # fmt: skip
KIRIN_9030 = _profile(
    "kirin_9030", "Kirin 9030", ("9030", "kirin9030"),
    "unknown",  # inferred: no arch number in the reference set
    _MEM_KIRIN, "ZZ", _build_kirin_9030(),  # inferred
)  # fmt: skip

#: (cube cores, vector cores) per chip, for GetCoreNumAic / GetCoreNumAiv. The docs give no counts, and
#: they differ between SKUs of one product line; these are representative (divergences B2): 24 / 48 on
#: the separated chips (asc-devkit tests/api/common/platform_stub.cpp's values), the coupled chips' AI
#: Core count on both.
CORES: dict[str, tuple[int, int]] = {
    "ascend950": (24, 48), "a3": (24, 48), "a2": (24, 48), "atlas200i500a2": (1, 1),
    "inference_aicore": (8, 8), "inference_vectorcore": (8, 8), "training": (32, 32),
    "kirin_x90": (1, 1), "kirin_9030": (1, 1),
}

ALL_CHIPS: tuple[ChipProfile, ...] = (
    ASCEND950,
    A3,
    A2,
    ATLAS200I500A2,
    INFERENCE_AICORE,
    INFERENCE_VECTORCORE,
    TRAINING,
    KIRIN_X90,
    KIRIN_9030,
)


def _alias_index() -> dict[str, ChipProfile]:
    idx: dict[str, ChipProfile] = {}
    for chip in ALL_CHIPS:
        for a in (chip.key, chip.name, *chip.aliases):
            n = _norm_name(a)
            other = idx.get(n)
            if other is not None and other is not chip:  # pragma: no cover - guards the tables
                raise AssertionError(f"alias {a!r} used by {other.key} and {chip.key}")
            idx[n] = chip
    return idx


_ALIASES = _alias_index()


def get_chip(name: str | ChipProfile) -> ChipProfile:
    """Resolve a chip by key, display name or alias (case-insensitive; spaces, -, _, / and . ignored)."""
    if isinstance(name, ChipProfile):
        return name
    if isinstance(name, int) and not isinstance(name, bool) and 0 <= name < 10**6:
        name = str(name)  # Core(950), Core(2201): an alias written as a number
    if not isinstance(name, str):  # str() of a huge int raises; nothing but a name can match
        names = "; ".join(f"{c.key} ({', '.join(c.aliases[:4])})" for c in ALL_CHIPS)
        raise UnsupportedError(f"chip: the chip is given by name, but got {type(name).__name__}; supported: "
                               f"{names}")
    chip = _ALIASES.get(_norm_name(name))
    if chip is None:
        names = "; ".join(f"{c.key} ({', '.join(c.aliases[:4])})" for c in ALL_CHIPS)
        hint = did_you_mean(name, [a for c in ALL_CHIPS for a in (c.key, *c.aliases)])
        raise UnsupportedError(f"chip: {name!r} is not a known chip{hint}; supported: {names}")
    return chip


# --------------------------------------------------------------------------------------------------
# Reporting
# --------------------------------------------------------------------------------------------------


def support_matrix() -> list[dict[str, object]]:
    """One row per chip x API x path (or per chip x API for path-less APIs), for ``ascsim chips``."""
    rows: list[dict[str, object]] = []
    for chip in ALL_CHIPS:
        for api, sup in chip.apis.items():
            if sup.paths:
                for p, ds in sup.paths.items():
                    rows.append({
                        "chip": chip.key, "chip_name": chip.name, "api": api, "path": _fmt_path(p),
                        "dtypes": sorted(ds, key=_dtype_sort_key),
                        "transpose": sorted(sup.transpose.get(p, frozenset()), key=_dtype_sort_key),
                        "notes": sup.notes,
                    })  # fmt: skip
            else:
                rows.append({
                    "chip": chip.key, "chip_name": chip.name, "api": api, "path": "",
                    "dtypes": sorted(sup.dtypes, key=_dtype_sort_key), "transpose": [], "notes": sup.notes,
                })  # fmt: skip
    return rows


_SHORT = {
    "int4b_t": "s4", "int8_t": "s8", "uint8_t": "u8", "fp8_e4m3fn_t": "e4m3", "fp8_e5m2_t": "e5m2",
    "hifloat8_t": "hif8", "half": "f16", "bfloat16_t": "bf16", "int16_t": "s16", "uint16_t": "u16",
    "int32_t": "s32", "uint32_t": "u32", "float": "f32", "fp4x2_e2m1_t": "e2m1", "fp4x2_e1m2_t": "e1m2",
    "fp8_e8m0_t": "e8m0", "mx_fp8_e4m3_t": "mx_e4m3", "mx_fp8_e5m2_t": "mx_e5m2",
}  # fmt: skip

_COL = {
    "ascend950": "950", "a3": "A3", "a2": "A2", "atlas200i500a2": "310B", "inference_aicore": "310P-AIC",
    "inference_vectorcore": "310P-VEC", "training": "910", "kirin_x90": "KirinX90", "kirin_9030": "Kirin9030",
}  # fmt: skip


def _short_dtypes(ds: Iterable[str]) -> str:
    return " ".join(_SHORT.get(d, d) for d in sorted(ds, key=_dtype_sort_key))


def format_chips_table(width: int = 110) -> str:
    """Human-readable support matrix: an API x chip grid, then per-chip path/dtype lists."""
    lines: list[str] = []
    cols = [_COL[c.key] for c in ALL_CHIPS]
    w0 = max(len(a) for a in API_KEYS) + 1
    cw = max(len(c) for c in cols) + 1
    lines.append("API support (Y = supported, - = not supported)")
    lines.append("API".ljust(w0) + "".join(c.rjust(cw) for c in cols))
    for api in API_KEYS:
        lines.append(api.ljust(w0) + "".join(("Y" if api in c.apis else "-").rjust(cw) for c in ALL_CHIPS))
    lines.append("")
    lines.append("Data paths and dtypes per chip (T: = dtypes valid with the transpose flag)")
    legend = "dtypes: " + ", ".join(f"{v}={k}" for k, v in _SHORT.items())
    lines.extend(textwrap.wrap(legend, width=width, subsequent_indent="  "))
    for chip in ALL_CHIPS:
        lines.append("")
        lines.append(f"== {chip.name} [{chip.key}, arch {chip.arch}, L0A {chip.l0a_format or '-'}]")
        mem = ", ".join(f"{k} {v // 1024}K" for k, v in chip.memory_sizes.items()) or "no cube memories"
        lines.append(f"   memory: {mem}")
        if not chip.apis:
            lines.append("   (no cube APIs)")
        for api, sup in chip.apis.items():
            parts: list[str] = []
            for p, ds in sup.paths.items():
                t = sup.transpose.get(p)
                parts.append(f"{_fmt_path(p)}: {_short_dtypes(ds)}" + (f" (T: {_short_dtypes(t)})" if t else
                ""))
            if not sup.paths:
                parts.append(f"value: {_short_dtypes(sup.dtypes)}" if sup.dtypes else "(no dtype)")
            if sup.combos:
                combos = sorted("x".join(_SHORT.get(d, d) for d in c[:-1]) + "->" + _SHORT.get(c[-1], c[-1])
                                for c in sup.combos)  # fmt: skip
                parts.append("combos: " + " ".join(combos))
            text = f"{api}: " + "; ".join(parts)
            lines.extend(textwrap.wrap(text, width=width, initial_indent="   ", subsequent_indent="      "))
    return "\n".join(lines)


# --------------------------------------------------------------------------------------------------
# Seed-vs-doc (and doc-vs-doc) disagreements about product support and dtypes
# --------------------------------------------------------------------------------------------------

DIVERGENCE_NOTES: list[str] = [
    "Load3D product support: seed 001 has no Kirin rows and marks Atlas training √ for the "
    "whole page, while LoadData_3D.md splits v1 (training and inference AI Core only) from "
    "v2/v2 Pro (Kirin X90 支持, Kirin 9030 不支持, training 不支持).",
    "Load3Dv2Pro dtypes: seed 001 lists v2 Pro dtypes only for the Atlas 350, while "
    "LoadData_3D.md 数据类型 applies each chip's v2 list to v2 Pro as well (A2/A3/200I-500 "
    "A2/inference AI Core/Kirin X90).",
    "Load3D enTranspose: seed 001 (V2 and V2Pro tables), LoadData_3D.md 表5 and "
    "LoadData_3D_BitMode.md transpose field say it is valid only for an A2 destination with "
    "half, while LoadData_3D.md entranspose_constraint says L0A with b16/b32 on A2/A3 and "
    "b8/b16/b32 on 950; we use the per-chip rule.",
    "Load3D/Load3DBitMode L0A format: seeds 000 and 001 say 'A2: ZZ格式/NZ格式' without naming the "
    "chip, while LoadData_3D.md dst_layout gives ZZ on A2/A3 and NZ on 950.",
    "Load3DBitMode product support: seed 000 has no Kirin rows, LoadData_3D_BitMode.md lists "
    "Kirin X90/9030 不支持 (no conflict, only 950 supports it).",
    "LoadDataWithTranspose dtypes: seed 002 lists uint16_t/int16_t for Atlas 200I/500 A2, while"
    " LoadDataWithTranspose.md id17 lists "
    "int4b_t/int8_t/uint8_t/half/bfloat16_t/int32_t/uint32_t/float only.",
    "LoadDataWithTranspose product support: seed 002 has no Kirin rows, while "
    "LoadDataWithTranspose.md lists Kirin X90 支持 (int8_t, half) and Kirin 9030 不支持.",
    "LoadDataWithTranspose on 950: seed 002 and LoadDataWithTranspose.md 表3/4 describe "
    "LoadData2dTransposeParams as the general struct and V2 as 950-only, while the doc's "
    "loadDataParams note says 950 uses V2; the 950 C++ API (dav_3510) also accepts V1 params, "
    "converting them (T6) (we list both LoadDataWithTranspose and LoadDataWithTransposeV2 on 950).",
    "Load2DMX paths: seed 003 lists GM->A1/B1/A2/B2 and A1->A2/B1->B2, while LoadData_2D_MX.md "
    "lists only L1->L0A/L0B for data and L1->L0A_MX/L0B_MX for scales (we use the doc).",
    "Load2DMX dst dtype U: seed 003 requires mx_fp8_e4m3_t/mx_fp8_e5m2_t for fp8 sources, while"
    " LoadData_2D_MX.md lists U as the plain fp4x2/fp8 types (we accept both).",
    "Load2DMX product table: seed 003 has only five rows (no 200I/500 A2, inference or training"
    " rows), while LoadData_2D_MX.md lists all nine products (only 950 支持).",
    "LoadDataWithStride dtypes: LoadDataWithStride.md lists only "
    "half/bfloat16_t/int32_t/uint32_t/float for B1->B2, while LoadData_3D.md and IN-CON 表4 "
    "allow b8 (int8/uint8/hif8/fp8) to L0B on 950 and an official example loads int8 B this way"
    " (executed with a DocConflictWarning, divergence L23).",
    "Mmad Kirin 9030: Mmad.md 产品支持情况 says the bias prototype is 不支持 on Kirin 9030, but 表12 "
    "lists a half/half/half/half combination with a bias type.",
    "MmadWithSparse: MmadWithSparse.md 表6 title includes Atlas 200I/500 A2, while its 产品支持情况 "
    "says 不支持 for that product (we follow 产品支持情况).",
    "LoadData2D transpose: LoadData_2D.md 约束说明 allows ifTranspose only for b16, but its 310P "
    "note (id20) describes transposed S4 B matrices with 64x64 fractals (we allow int4b_t "
    "transpose to L0B on 310P).",
    "Register APIs vs Load3D: SetFmatrix.md and SetLoadDataPaddingValue.md list Kirin 9030 支持 "
    "although LoadData_3D.md says Load3D v2 is 不支持 there, and SetLoadDataRepeat.md has no Kirin"
    " rows although Kirin X90 supports Load3D v2.",
    "LoadData3D on 310P: LoadData_3D.md id27 gives int4b_t/int8_t/uint8_t/half with no per-path"
    " split and seed 001 agrees, so the B path on the inference AI Core takes the full list "
    "(only A2/A3 forbid b4/b8 to L0B).",
]
