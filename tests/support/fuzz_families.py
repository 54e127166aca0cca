"""Fuzz-call generators, one per instruction family (see tests/support/fuzz_harness.py for what is checked).

Each generator draws a mostly valid call for one chip from the chip tables (`ascsim.machine.chips`) and the
struct field ranges, describes it as slots (`fuzz_values`), lets `G.fuzz` mutate a few slots, and returns
a `Case`: the operands to build on a fresh Core, the call as a user writes it (core method or the
`ascsim.ascendc` spelling), the byte ranges the call may write and the registers it may set.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

import ascsim.ascendc as A
import ascsim.params as P
from ascsim import Core
from ascsim.isa.load3d import SMALL_CHANNELS
from ascsim.machine.chips import ALL_CHIPS
from ascsim.machine.dtypes import ALL_DTYPES, get_dtype
from ascsim.machine.memory import LocalTensor as ascsim_LocalTensor
from support.fuzz_harness import Case
from support.fuzz_values import (
    Dtype,
    Flag,
    G,
    Int,
    Name,
    Pads,
    Struct,
    T,
    Tensor,
    Value,
    Word,
    materialize,
    show,
    span,
)


@dataclass(frozen=True)
class Family:
    name: str
    apis: tuple[str, ...]  # chip-table API keys: the chips documenting any of them are fuzzed
    gen: Callable[[G], Case]
    owner: str = ""  # the branch porting the family's isa module (issue 8), if any


FAMILIES: dict[str, Family] = {}


def kinds(*groups: tuple) -> dict:
    """Slot kinds from (kind, field names...) groups: `kinds((Int(0, 255), "a", "b"), (Flag(), "c"))`."""
    return {name: kind for kind, *names in groups for name in names}


def fields_of(cls: type) -> tuple[str, ...]:
    """A params struct's field names in C++ constructor order (the dataclass order)."""
    return tuple(f.name for f in dataclasses.fields(cls))


def family(name: str, *apis: str, owner: str = "") -> Callable:
    def deco(fn: Callable[[G], Case]) -> Callable[[G], Case]:
        FAMILIES[name] = Family(name, apis, fn, owner)
        return fn

    return deco


def chips_for(fam: Family) -> list[str]:
    return [c.key for c in ALL_CHIPS if c.has_cube and any(api in c.apis for api in fam.apis)]


def cdiv(a: int, b: int) -> int:
    return -(-a // b)


def make_case(
    g: G,
    name: str,
    v: dict,
    tensors: tuple[str, ...],
    call: Callable[[Core, dict], object],
    dests: Callable[[dict], list] = lambda env: [],
    regs: tuple[str, ...] = (),
    prelude: Callable[[Core, dict], None] | None = None,
) -> Case:
    """A Case whose setup materialises the tensor slots `tensors` (in order) and runs `prelude`."""
    seed = g.int(0, 2**32 - 1)

    def setup(core: Core) -> dict:
        rng = np.random.default_rng(seed)
        env: dict = {}
        for t in tensors:
            env[t] = materialize(core, v[t], rng, env)
        if prelude is not None:
            prelude(core, env)
        return env

    strict = g.coin(0.1)
    return Case(name, g.chip, [*g.text, show(v)], setup, call, dests, regs, strict, v, dict(g.twin))


def value_for(g: G, dtype: str) -> object:
    """A valid T value (pad / init value) for `dtype`."""
    dt = get_dtype(dtype)
    if dt.kind == "float":
        return g.pick([0.0, -0.0, 1.0, -1.5, 0.5, 2.0, float("nan"), float("inf"), 3])
    hi = (1 << (dt.bits - (dt.kind == "int"))) - 1
    return g.pick([0, 1, hi, -1 if dt.kind == "int" else 2, np.int8(1) if dt.bits >= 8 else 0])


def facade(g: G) -> bool:
    """Spell this call through `ascsim.ascendc` (C++ names, `use(core)` for register setters)?"""
    return g.coin(0.3)


# =========================================================================================================
# Load3D
# =========================================================================================================

V2_FIELDS = fields_of(P.LoadData3DParamsV2)
V2_KINDS = kinds(
    (Pads(), "padList"),
    (Int(0, 32767), "l1H", "l1W", "mStartPt"),
    (Int(0, 65535), "channelSize", "kExtension", "mExtension", "kStartPt"),
    (Int(1, 63), "strideW", "strideH"),
    (Int(0, 255), "filterW", "filterH"),
    (Int(1, 255), "dilationFilterW", "dilationFilterH"),
    (Flag(), "enTranspose", "enSmallK", "filterSizeW", "filterSizeH", "fMatrixCtrl"),
    (Value(), "padValue"),
)


def _channels(bits: int) -> list[int]:
    c0 = 256 // bits
    small = list(SMALL_CHANNELS[bits])
    return small + [c0, 2 * c0] + [c0 + s for s in small if s < c0]


def img2col(g: G, api: str) -> dict:
    """A valid Load3D v2-family geometry on g.chip: V2 field values, the dtype / destination, the repeat
    register, the source length and an upper bound of the destination footprint (elements)."""
    chip = g.profile
    dst_mem = g.pick([d for d in ("L0A", "L0B") if chip.supports(api, None, "L1", d)])
    dtype = g.pick(sorted(chip.dtypes_for(api, "L1", dst_mem)))
    dt = get_dtype(dtype)
    c0 = dt.c0
    big = g.coin(0.08)  # a plan-size probe: a huge window the destination cannot hold
    fw, fh, dw, dh = g.int(1, 3), g.int(1, 3), g.int(1, 2), g.int(1, 2)
    sw, sh = g.int(1, 2), g.int(1, 2)
    pads = [g.int(0, 2) for _ in range(4)]
    l1w = g.int(max(1, (fw - 1) * dw + 1 - pads[0] - pads[1]), 10)
    l1h = g.int(max(1, (fh - 1) * dh + 1 - pads[2] - pads[3]), 10)
    c = g.pick(_channels(dt.bits))
    ho = (l1h + pads[2] + pads[3] - ((fh - 1) * dh + 1)) // sh + 1
    wo = (l1w + pads[0] + pads[1] - ((fw - 1) * dw + 1)) // sw + 1
    k_tot = c * fh * fw
    k_start = c0 * g.int(0, (k_tot - 1) // c0)
    k_ext = min(c0 * g.int(1, 3), k_tot - k_start)
    m_start = g.int(0, ho * wo - 1)
    m_ext = 16 * g.int(1, 3) if g.coin(0.7) else g.int(1, 40)
    if chip.key == "ascend950" and dt.bits == 8 and dst_mem == "L0B":
        m_ext = 32 * g.int(1, 2)
    if big:
        m_ext, k_start, k_ext = g.pick([65535, 32768, 4096]), 0, k_tot
    en_t = dst_mem == "L0A" and chip.can_transpose(api, dtype, "L0A") and g.coin(0.3)
    if en_t and chip.key == "ascend950" and dt.bits == 8:
        m_ext = 32 * cdiv(m_ext, 32)
    rep = (0, 1, 0, 0)
    if chip.supports("SetLoadDataRepeat") and g.coin(0.25):
        mode = g.int(0, 1)
        rep = (g.int(0, 2), g.pick([0, 1, 2, 3]), mode, 0)
    rows = m_ext * (rep[1] if rep[2] == 0 else 1)
    cols = k_ext * (rep[1] if rep[2] == 1 else 1)
    transposed = en_t or dst_mem == "L0B"
    if chip.key == "ascend950" and (g.coin(0.5) or api == "LoadDataWithStride"):
        rep = (*rep[:3], cdiv(cols if transposed else rows, 16) + g.int(0, 2))
    stride = max(rep[3], cdiv(cols if transposed else rows, 16))
    foot = (
        stride * 16 * cdiv(max(rows, cols), c0) * c0
        if chip.key == "ascend950" or dst_mem == "L0B"
        else cdiv(rows, 16) * 16 * cdiv(cols, c0) * c0 + 16 * c0
    )
    pad_value = value_for(g, dtype)
    window, filt = (k_ext, m_ext, k_start, m_start), (sw, sh, fw, fh, dw, dh)
    fields = ([*pads], l1h, l1w, c, *window, *filt, en_t, False, pad_value, False, False, False)
    values = dict(zip(V2_FIELDS, fields, strict=True))
    src_len = cdiv(c, c0) * c0 * l1h * l1w
    return dict(values=values, dtype=dtype, dst_mem=dst_mem, repeat=rep, src_len=src_len, foot=foot)


def _operands(g: G, geo: dict) -> dict[str, list]:
    """dst (L0A/L0B) and src (L1) slots for an img2col geometry."""
    dt = get_dtype(geo["dtype"])
    a_side = geo["dst_mem"] == "L0A"
    l0 = g.profile.memory_sizes[geo["dst_mem"]]
    foot_b = geo["foot"] * dt.bits // 8
    dst_off = g.aligned(0, l0 - foot_b, 512) if foot_b < l0 else 0
    dst_len = min(geo["foot"], (l0 - dst_off) * 8 // dt.bits)
    src_b = cdiv(geo["src_len"] * dt.bits, 8)
    src_off = g.aligned(0, min(g.profile.memory_sizes["L1"] - src_b, 1 << 16), 32)
    return {
        "dst": [T("A2" if a_side else "B2", geo["dtype"], dst_off, dst_len, "none"), Tensor()],
        "src": [T("A1" if a_side else "B1", geo["dtype"], src_off, geo["src_len"]), Tensor()],
    }


def _registers(g: G, geo: dict, fmatrix: bool, padding: bool, right: bool = False) -> Callable:
    """Prelude: the repeat (and 950 dstStride) register, an L1 boundary, and FMATRIX / PADDING when the
    call reads them from the registers."""
    rep = geo["repeat"]
    v = geo["values"]
    boundary = g.pick([0, 0, 0, 1024, 4096, 1 << 18]) if g.profile.supports("SetLoadDataBoundary") else 0
    dt = get_dtype(geo["dtype"])
    pad_dtype = dt.name if g.profile.supports("SetLoadDataPaddingValue", dt.name) else None

    def prelude(core: Core, env: dict) -> None:
        if rep != (0, 1, 0, 0):
            cls = P.LoadDataRepeatParamWithStride if core.chip.key == "ascend950" else P.LoadDataRepeatParam
            if core.chip.key == "ascend950":
                core.set_load_data_repeat(cls(*rep))
            else:
                core.set_load_data_repeat(cls(*rep[:3]))
        if boundary and core.chip.key != "inference_aicore":
            core.set_load_data_boundary(boundary)
        if fmatrix:
            core.set_fmatrix(v["l1H"], v["l1W"], v["padList"], "FMATRIX_RIGHT" if right else "FMATRIX_LEFT")
        if padding and pad_dtype:
            core.set_padding_value(v["padValue"], pad_dtype)

    return prelude


def load_data(
    core: Core, env: dict, via: bool, p: object, config: object = None, pos: tuple = (None, None)
) -> object:
    """`LoadData(dst, src, p)` as the C++ spelling (`via`) or the Core method."""
    if via:
        return A.LoadData(env["dst"], env["src"], p, config=config, Dst=pos[0], Src=pos[1])
    return core.load_data(env["dst"], env["src"], p, config, dst_pos=pos[0], src_pos=pos[1])


def either(core: Core, via: bool, spelling: str, method: str, *args: object) -> object:
    """`ascsim.ascendc.<spelling>(*args)` (inside `use(core)`) or `core.<method>(*args)`."""
    if via:
        with A.use(core):
            return getattr(A, spelling)(*args)
    return getattr(core, method)(*args)


def built(vals: dict, cls: type, names: tuple[str, ...]) -> object:
    """The params struct: the (mutated) `params` slot if set, else `cls` built from the field slots."""
    given = vals.get("params")
    return given if given is not None else cls(*(vals[k] for k in names))


def _dst(env: dict) -> list:
    """The destination operand's byte range."""
    return span(env.get("dst"))


DST_SRC = ("dst", "src")


#: Registers a Load3D call may write: a params slot mutated into another struct may dispatch to v1 / v2,
#: which write FMATRIX (left bank) and PADDING.
LOAD3D_REGS = ("fmatrix_left", "padding")


def reset_config(name: object) -> object:
    """The IsResetLoad3dConfig a config slot names ("tt" = (true, true), ...; "none" = None), or the
    mutated value itself."""
    table = {
        "none": None,
        "default": P.IS_RESER_LOAD3D_DEFAULT_CONFIG,
        "tt": P.IsResetLoad3dConfig(True, True),
        "ft": P.IsResetLoad3dConfig(False, True),
        "tf": P.IsResetLoad3dConfig(True, False),
        "ff": P.IsResetLoad3dConfig(False, False),
    }
    return table[name] if isinstance(name, str) and name in table else name


@family("Load3Dv2", "Load3Dv2")
def gen_load3d_v2(g: G) -> Case:
    geo = img2col(g, "Load3Dv2")
    v = geo["values"]
    cfg_kind = g.pick(["none", "default", "tt", "ft", "tf", "ff"])
    right = g.profile.key not in ("inference_aicore", "training") and g.coin(0.15)
    if right:
        v["fMatrixCtrl"] = True
        cfg_kind = g.pick(["ft", "ff"])
    slots = {k: [v[k], V2_KINDS[k]] for k in V2_FIELDS}
    slots.update(_operands(g, geo))
    slots["params"] = [None, Struct()]  # None: the V2 struct built from the fields
    slots["config"] = [cfg_kind, Name(("none", "default", "tt", "ft", "tf", "ff"))]
    vals = g.fuzz(slots)
    sf = isinstance(vals["config"], str) and vals["config"] in ("tt", "tf", "default", "none")
    sp = isinstance(vals["config"], str) and vals["config"] in ("tt", "ft", "default", "none")
    via = facade(g)

    def call(core: Core, env: dict) -> object:
        return load_data(
            core, env, via, built(vals, P.LoadData3DParamsV2, V2_FIELDS), reset_config(vals["config"])
        )

    return make_case(
        g,
        "Load3Dv2",
        vals,
        DST_SRC,
        call,
        _dst,
        LOAD3D_REGS,
        _registers(g, geo, not sf or right, not sp, right),
    )


def _v2pro_words(v: dict) -> tuple[int, int]:
    try:
        return (
            P.LoadData3DParamsV2Pro.pack_ext(v["kExtension"], v["mExtension"], v["kStartPt"], v["mStartPt"]),
            P.LoadData3DParamsV2Pro.pack_filter(
                v["strideW"],
                v["strideH"],
                v["filterW"],
                v["filterH"],
                v["dilationFilterW"],
                v["dilationFilterH"],
            ),
        )
    except Exception:  # noqa: BLE001 - a plan-size probe past 16 bits: leave the words to the fuzzer
        return 0, 0


@family("Load3Dv2Pro", "Load3Dv2Pro")
def gen_load3d_v2pro(g: G) -> Case:
    geo = img2col(g, "Load3Dv2Pro")
    v = geo["values"]
    ext, filt = _v2pro_words(v)
    slots = {
        "channelSize": [v["channelSize"], Int(0, 65535)],
        "enTranspose": [v["enTranspose"], Flag()],
        "enSmallK": [False, Flag()],
        "filterSizeW": [False, Flag()],
        "filterSizeH": [False, Flag()],
        "fMatrixCtrl": [False, Flag()],
        "extConfig": [ext, Word()],
        "filterConfig": [filt, Word()],
    }
    slots.update(_operands(g, geo))
    slots["params"] = [None, Struct()]
    vals = g.fuzz(slots)
    names = (
        "channelSize",
        "enTranspose",
        "enSmallK",
        "filterSizeW",
        "filterSizeH",
        "fMatrixCtrl",
        "extConfig",
        "filterConfig",
    )
    via = facade(g)

    def call(core: Core, env: dict) -> object:
        return load_data(core, env, via, built(vals, P.LoadData3DParamsV2Pro, names))

    return make_case(g, "Load3Dv2Pro", vals, DST_SRC, call, _dst, LOAD3D_REGS, _registers(g, geo, True, True))


BITMODE_NAMES = {
    "kExtension": "kExtension",
    "mExtension": "mExtension",
    "kStartPt": "kStartPt",
    "mStartPt": "mStartPt",
    "strideW": "strideW",
    "strideH": "strideH",
    "filterW": "filterW",
    "filterH": "filterH",
    "dilationFilterW": "dilationFilterW",
    "dilationFilterH": "dilationFilterH",
    "filterSizeW": "filterSizeW",
    "filterSizeH": "filterSizeH",
    "transpose": "enTranspose",
    "fmatrixCtrl": "fMatrixCtrl",
    "channelSize": "channelSize",
}


@family("Load3DBitMode", "Load3DBitMode")
def gen_load3d_bitmode(g: G) -> Case:
    geo = img2col(g, "Load3DBitMode")
    v = geo["values"]
    how = g.pick(["v2", "setters", "words"])
    slots = {k: [v[k], V2_KINDS[k]] for k in V2_FIELDS}
    slots.update(_operands(g, geo))
    a_side = geo["dst_mem"] == "L0A"
    slots["Dst"] = ["A2" if a_side else "B2", Name(("A2", "B2", "A1", "B1"))]
    slots["Src"] = ["A1" if a_side else "B1", Name(("A2", "B2", "A1", "B1"))]
    slots["config0"] = [None, Word()]  # None: the words the fields pack into
    slots["config1"] = [None, Word()]
    vals = g.fuzz(slots)
    via = facade(g)

    def call(core: Core, env: dict) -> object:
        if how == "v2":
            bm = P.Load3DBitModeParam(P.LoadData3DParamsV2(*(vals[k] for k in V2_FIELDS)))
        elif how == "setters":
            bm = P.Load3DBitModeParam()
            for bit, f in BITMODE_NAMES.items():
                getattr(bm, "Set" + bit[0].upper() + bit[1:])(vals[f])
        else:
            ref = (
                P.Load3DBitModeParam(P.LoadData3DParamsV2(*(v[k] for k in V2_FIELDS)))
                if v["mExtension"] < 65536
                else P.Load3DBitModeParam()
            )
            bm = P.Load3DBitModeParam(ref.config0, ref.config1)
        if vals["config0"] is not None:
            bm.config0 = vals["config0"]
        if vals["config1"] is not None:
            bm.config1 = vals["config1"]
        return load_data(core, env, via, bm, pos=(vals["Dst"], vals["Src"]))

    return make_case(
        g, "Load3DBitMode", vals, DST_SRC, call, _dst, LOAD3D_REGS, _registers(g, geo, True, True)
    )


@family("LoadDataWithStride", "LoadDataWithStride")
def gen_load_with_stride(g: G) -> Case:
    geo = img2col(g, "LoadDataWithStride")
    v = geo["values"]
    slots = {k: [v[k], V2_KINDS[k]] for k in V2_FIELDS}
    slots.update(_operands(g, geo))
    vals = g.fuzz(slots)
    via = facade(g)

    def call(core: Core, env: dict) -> object:
        p = P.LoadData3DParamsV2(*(vals[k] for k in V2_FIELDS))
        return either(core, via, "LoadDataWithStride", "load_data_with_stride", env["dst"], env["src"], p)

    return make_case(
        g, "LoadDataWithStride", vals, DST_SRC, call, _dst, LOAD3D_REGS, _registers(g, geo, False, False)
    )


V1_FIELDS = fields_of(P.LoadData3DParamsV1)
V1_KINDS = kinds(
    (Pads(), "padList"),
    (Int(1, 32767), "l1H", "l1W"),
    (Int(0, 4095), "c1Index"),
    (Int(0, 254), "fetchFilterW", "fetchFilterH"),
    (Int(-255, 32767), "leftTopW", "leftTopH"),
    (Int(1, 63), "strideW", "strideH"),
    (Int(1, 255), "filterW", "filterH", "dilationFilterW", "dilationFilterH", "repeatTime"),
    (Int(1, 127), "jumpStride"),
    (Int(0, 1), "repeatMode", "cSize"),
    (Value(), "padValue"),
)


@family("Load3Dv1", "Load3Dv1")
def gen_load3d_v1(g: G) -> Case:
    dst_mem = g.pick(["L0A", "L0B"])
    dtype = g.pick(sorted(g.profile.dtypes_for("Load3Dv1", "L1", dst_mem)))
    dt = get_dtype(dtype)
    fw, fh, dw, dh, sw, sh = g.int(1, 3), g.int(1, 3), g.int(1, 2), g.int(1, 2), g.int(1, 2), g.int(1, 2)
    pads = [g.int(0, 2) for _ in range(4)]
    l1w = g.int(max(1, (fw - 1) * dw + 1 - pads[0] - pads[1]), 10)
    l1h = g.int(max(1, (fh - 1) * dh + 1 - pads[2] - pads[3]), 10)
    c_size = g.pick([0, 0, 1])
    c1 = 1 if c_size else g.int(1, 3)
    c1_index = 0 if c_size else g.int(0, c1 - 1)
    last_w = l1w - 1 + pads[1] - (fw - 1) * dw
    lt_w = g.int(-pads[0], max(-pads[0], min(2, last_w)))
    lt_h = g.int(-pads[2], 2)
    mode, rt, jump = g.int(0, 1), g.int(1, 6), g.int(1, 3)
    if g.coin(0.05):
        rt, jump = 255, 127  # a plan-size probe
    fetch = (g.int(0, fw - 1), g.int(0, fh - 1))
    fetch, filt = (g.int(0, fw - 1), g.int(0, fh - 1)), (sw, sh, fw, fh, dw, dh)
    fields = (
        [*pads],
        l1h,
        l1w,
        c1_index,
        *fetch,
        lt_w,
        lt_h,
        *filt,
        jump,
        mode,
        rt,
        c_size,
        value_for(g, dtype),
    )
    v = dict(zip(V1_FIELDS, fields, strict=True))
    cp = {16: 4, 8: 8}.get(dt.bits, dt.c0) if c_size else dt.c0
    src_len = l1h * l1w * (cp if c_size else c1 * dt.c0)
    foot = ((rt - 1) * jump + 1) * 16 * dt.c0
    l0 = g.profile.memory_sizes[dst_mem]
    dst_off = g.aligned(0, l0 - foot * dt.bits // 8, 512) if foot * dt.bits // 8 < l0 else 0
    a_side = dst_mem == "L0A"
    slots = {k: [v[k], V1_KINDS[k]] for k in V1_FIELDS}
    slots["dst"] = [
        T("A2" if a_side else "B2", dtype, dst_off, min(foot, (l0 - dst_off) * 8 // dt.bits), "none"),
        Tensor(),
    ]
    slots["src"] = [T("A1" if a_side else "B1", dtype, g.aligned(0, 1 << 16, 32), src_len), Tensor()]
    # the training series has neither SetFmatrix nor SetLoadDataPaddingValue: the struct carries both
    configs = ["none", "tt"] if g.chip == "training" else ["none", "ft", "tf", "ff"]
    slots["config"] = [g.pick(configs), Name(("none", "tt", "ft", "tf", "ff"))]
    vals = g.fuzz(slots)
    # v1 counts the boundary in 32-B units; 1-1023 are undefined (SetLoadDataBoundary.md)
    boundary = g.pick([0, 0, 0, 1024, 4096, 1 << 14]) if g.profile.supports("SetLoadDataBoundary") else 0
    sf = isinstance(vals["config"], str) and vals["config"] in ("none", "tt", "tf")
    sp = isinstance(vals["config"], str) and vals["config"] in ("none", "tt", "ft")
    via = facade(g)

    def prelude(core: Core, env: dict) -> None:
        if boundary:
            core.set_load_data_boundary(boundary)
        if not sf:
            core.set_fmatrix(v["l1H"], v["l1W"], v["padList"])
        if not sp:
            core.set_padding_value(v["padValue"], dtype)

    def call(core: Core, env: dict) -> object:
        return load_data(
            core, env, via, built(vals, P.LoadData3DParamsV1, V1_FIELDS), reset_config(vals["config"])
        )

    return make_case(g, "Load3Dv1", vals, DST_SRC, call, _dst, LOAD3D_REGS, prelude)


# =========================================================================================================
# Register setters
# =========================================================================================================


@family("SetFmatrix", "SetFmatrix", "SetFmatrixBitMode")
def gen_set_fmatrix(g: G) -> Case:
    bitmode = g.profile.supports("SetFmatrixBitMode") and g.coin(0.4)
    slots = {
        "l1H": [g.int(1, 64), Int(1, 32767)],
        "l1W": [g.int(1, 64), Int(1, 32767)],
        "padList": [[g.int(0, 4) for _ in range(4)], Pads()],
        "mode": [
            g.pick(
                [
                    "FMATRIX_LEFT",
                    "FMATRIX_RIGHT",
                    A.FmatrixMode.FMATRIX_LEFT,
                    A.FmatrixMode.FMATRIX_RIGHT,
                    0,
                    1,
                    "left",
                ]
            ),
            Name(("FMATRIX_LEFT",)),
        ],
        "config0": [None, Word()],
        "param": [None, Struct()],
    }
    how = g.pick(["v2", "setters", "word"]) if bitmode else ""
    word = (
        slots["l1H"][0]
        | slots["l1W"][0] << 16
        | sum(p << (32 + 8 * i) for i, p in enumerate(slots["padList"][0]))
    )
    vals = g.fuzz(slots)
    via = facade(g)

    def call(core: Core, env: dict) -> object:
        if not bitmode:
            return either(
                core,
                via,
                "SetFmatrix",
                "set_fmatrix",
                vals["l1H"],
                vals["l1W"],
                vals["padList"],
                vals["mode"],
            )
        if vals["param"] is not None:
            prm = vals["param"]
        elif how == "v2":
            prm = P.SetFMatrixBitModeParams(P.LoadData3DParamsV2(vals["padList"], vals["l1H"], vals["l1W"]))
        elif how == "setters":
            prm = P.SetFMatrixBitModeParams()
            prm.SetL1H(vals["l1H"])
            prm.SetL1W(vals["l1W"])
            prm.SetPadList(vals["padList"])
        else:
            prm = P.SetFMatrixBitModeParams(vals["config0"] if vals["config0"] is not None else word)
        if vals["config0"] is not None and how != "word" and isinstance(prm, P.SetFMatrixBitModeParams):
            prm.config0 = vals["config0"]
        return either(core, via, "SetFmatrix", "set_fmatrix_bitmode", prm, vals["mode"])

    return make_case(g, "SetFmatrix", vals, (), call, regs=("fmatrix_left", "fmatrix_right"))


@family("SetLoadDataPaddingValue", "SetLoadDataPaddingValue")
def gen_set_padding(g: G) -> Case:
    dtype = g.pick(sorted(g.profile.dtypes_for("SetLoadDataPaddingValue")))
    value = value_for(g, dtype)
    scalar = g.coin(0.3)  # T from a numpy scalar instead of dtype=
    if scalar:
        value = (
            np.asarray(value).astype(get_dtype(dtype).value_dtype)[()]
            if get_dtype(dtype).kind != "int"
            or np.can_cast(np.asarray(value), get_dtype(dtype).value_dtype, "same_kind")
            else value
        )
    slots = {"padValue": [value, Value()], "dtype": [None if scalar else dtype, Dtype()]}
    vals = g.fuzz(slots)
    via = facade(g)

    def call(core: Core, env: dict) -> object:
        return either(
            core, via, "SetLoadDataPaddingValue", "set_padding_value", vals["padValue"], vals["dtype"]
        )

    return make_case(g, "SetLoadDataPaddingValue", vals, (), call, regs=("padding",))


@family("SetLoadDataRepeat", "SetLoadDataRepeat", "SetLoadDataRepeatWithStride")
def gen_set_repeat(g: G) -> Case:
    with_stride = g.profile.supports("SetLoadDataRepeatWithStride") and g.coin(0.5)
    is950 = g.chip == "ascend950"
    slots = {
        "repeatStride": [g.int(0, 100), Int(0, 65535)],
        "repeatTime": [g.int(0, 255), Int(0, 255)],
        "repeatMode": [g.int(0, 1), Int(0, 1)],
        "dstStride": [g.int(0, 100) if is950 else 0, Int(0, 65535)],
        "param": [None, Struct()],
    }
    vals = g.fuzz(slots)
    via = facade(g)
    cls = P.LoadDataRepeatParamWithStride if with_stride else P.LoadDataRepeatParam

    def call(core: Core, env: dict) -> object:
        p = (
            vals["param"]
            if vals["param"] is not None
            else cls(vals["repeatStride"], vals["repeatTime"], vals["repeatMode"], vals["dstStride"])
        )
        if via:
            with A.use(core):
                return (A.SetLoadDataRepeatWithStride if with_stride else A.SetLoadDataRepeat)(p)
        return core.set_load_data_repeat(p)

    return make_case(g, "SetLoadDataRepeat", vals, (), call, regs=("repeat",))


@family("SetLoadDataBoundary", "SetLoadDataBoundary")
def gen_set_boundary(g: G) -> Case:
    l1 = g.profile.memory_sizes["L1"]
    vals = g.fuzz({"boundaryValue": [g.pick([0, 1024, g.int(1024, l1), l1]), Int(0, l1)]})
    via = facade(g)

    def call(core: Core, env: dict) -> object:
        return either(core, via, "SetLoadDataBoundary", "set_load_data_boundary", vals["boundaryValue"])

    return make_case(g, "SetLoadDataBoundary", vals, (), call, regs=("boundary",))


# =========================================================================================================
# LoadData 2D: v1, v2, BitMode; LoadDataWithTranspose; LoadDataWithSparse; Load2DMX
# =========================================================================================================

SRC_ALIGN = {"GM": 32, "L1": 32}
DST_ALIGN = {"L1": 32, "L0A": 512, "L0B": 512}
POS = {"GM": "GM", "L1": "A1", "L0A": "A2", "L0B": "B2"}


def _path(g: G, api: str, src: str = "", dst: str = "") -> tuple[str, str, str]:
    """(src memory, dst memory, dtype) of a path the chip table documents for `api`."""
    paths = sorted(
        (p, sorted(set(ds) & MODELLED))
        for p, ds in g.profile.apis[api].paths.items()
        if (not src or p[0] == src) and (not dst or p[1] == dst) and set(ds) & MODELLED
    )
    (s, d), ds = g.pick(paths)
    return s, d, g.pick(ds)


#: The element types ascsim has a DType for (a chip table may list more, e.g. bool, for a plain copy).
MODELLED = {d.name for d in ALL_DTYPES} | {"uint64_t"}


def _place(g: G, mem: str, nbytes: int, align: int, pos: str, dtype: str, fill: str = "random") -> T:
    """A tensor of at least `nbytes` in `mem` at an aligned offset where it fits (else at 0)."""
    dt = get_dtype(dtype)
    size = 1 << 22 if mem == "GM" else g.profile.memory_sizes[mem]
    off = g.aligned(0, min(size - nbytes, 1 << 18), align) if nbytes < size else 0
    if mem == "GM" and g.coin(0.2):
        off += g.pick([0, 1, 2, 3, 7]) * dt.bits // 8  # GM needs no alignment
    return T(pos, dtype, off, max(1, cdiv(nbytes * 8, dt.bits)), fill)


L2D_FIELDS = fields_of(P.LoadData2DParams)
L2D_KINDS = kinds(
    (Int(0, 65535), "startIndex", "srcStride", "dstGap"),
    (Int(0, 255), "repeatTimes"),
    (Int(0, 15), "sid"),
    (Flag(), "ifTranspose"),
    (Int(0, 1), "addrMode"),
)


@family("LoadData2D", "LoadData2D")
def gen_load2d(g: G) -> Case:
    s_mem, d_mem, dtype = _path(g, "LoadData2D")
    rep, start, stride, gap = g.int(0, 6), g.int(0, 4), g.int(0, 3), g.int(0, 2)
    transpose = s_mem == "L1" and g.profile.can_transpose("LoadData2D", dtype, d_mem, s_mem) and g.coin(0.3)
    mode = 1 if s_mem == "GM" and g.coin(0.2) else 0
    if mode:
        start = start + (rep - 1) * stride
    if g.coin(0.05):
        rep, stride, gap = 255, 65535, 65535  # a plan-size probe
    v = dict(zip(L2D_FIELDS, (start, rep, stride, 0, gap, transpose, mode), strict=True))
    src_f = start + max(rep - 1, 0) * stride + 1
    dst_f = max(rep - 1, 0) * (gap + 1) + 1
    slots = {k: [v[k], L2D_KINDS[k]] for k in L2D_FIELDS}
    slots["dst"] = [
        _place(g, d_mem, min(dst_f, 128) * 512, DST_ALIGN[d_mem], POS[d_mem], dtype, "none"),
        Tensor(),
    ]
    slots["src"] = [_place(g, s_mem, min(src_f, 256) * 512, SRC_ALIGN[s_mem], POS[s_mem], dtype), Tensor()]
    slots["params"] = [None, Struct()]
    vals = g.fuzz(slots)
    via = facade(g)

    def call(core: Core, env: dict) -> object:
        return load_data(core, env, via, built(vals, P.LoadData2DParams, L2D_FIELDS))

    return make_case(g, "LoadData2D", vals, DST_SRC, call, _dst, LOAD3D_REGS)


def g_struct(cls: type, vals: dict, names: tuple[str, ...]) -> object:
    return cls(*(vals[k] for k in names))


V2_2D_FIELDS = fields_of(P.LoadData2DParamsV2)
V2_2D_KINDS = kinds(
    (Int(0, 2**32 - 1), "mStartPosition", "kStartPosition"),
    (Int(0, 255), "mStep", "kStep", "sid"),
    (Int(-(2**31), 2**31 - 1), "srcStride"),
    (Int(0, 65535), "dstStride"),
    (Flag(), "ifTranspose"),
)
TRANSPOSE_RULE = {4: ("mStep", 4), 8: ("mStep", 2), 16: ("mStep", 1), 32: ("kStep", 2)}


def v2_window(g: G, api: str, dtype: str, s_mem: str, d_mem: str) -> tuple[dict, int, int]:
    """A valid LoadData2DParamsV2 window: (fields, source fractals, destination fractals)."""
    bits = get_dtype(dtype).bits
    c0 = 256 // bits
    m_step, k_step, m_start, k_start = g.int(1, 4), g.int(1, 4), g.int(0, 2), g.int(0, 2)
    transpose = s_mem == "L1" and g.profile.can_transpose(api, dtype, d_mem, s_mem) and g.coin(0.4)
    if transpose:
        name, mult = TRANSPOSE_RULE[bits]
        if name == "mStep":
            m_step = mult * cdiv(m_step, mult)
        else:
            k_step = mult * cdiv(k_step, mult)
    src_stride = m_start + m_step + g.int(0, 2)
    rows, cols = (m_step, k_step) if not transpose else (k_step * c0 // 16, m_step * 16 // c0)
    dst_stride = rows + g.int(0, 2)
    if g.coin(0.05):
        m_step, k_step, src_stride, dst_stride = 255, 255, 65535, 65535  # a plan-size probe
    v = dict(
        zip(
            V2_2D_FIELDS,
            (m_start, k_start, m_step, k_step, src_stride, dst_stride, transpose, 0),
            strict=True,
        )
    )
    src_f = min((k_start + k_step - 1) * src_stride + m_start + m_step, 256)
    dst_f = min((cols - 1) * dst_stride + rows, 128)
    return v, src_f, dst_f


@family("LoadData2Dv2", "LoadData2Dv2", "Load2DBitMode")
def gen_load2d_v2(g: G) -> Case:
    bitmode = g.coin(0.4)
    api = "Load2DBitMode" if bitmode else "LoadData2Dv2"
    s_mem, d_mem, dtype = _path(g, api)
    v, src_f, dst_f = v2_window(g, api, dtype, s_mem, d_mem)
    slots = {k: [v[k], V2_2D_KINDS[k]] for k in V2_2D_FIELDS}
    slots["dst"] = [_place(g, d_mem, dst_f * 512, DST_ALIGN[d_mem], POS[d_mem], dtype, "none"), Tensor()]
    slots["src"] = [_place(g, s_mem, src_f * 512, SRC_ALIGN[s_mem], POS[s_mem], dtype), Tensor()]
    if bitmode:
        slots["Dst"] = [POS[d_mem], Name(("A2", "B2", "A1"))]
        slots["Src"] = ["B1" if g.coin() else "A1", Name(("A1", "B1", "A2"))]
        slots["config0"] = [None, Word()]
        slots["config1"] = [None, Word()]
    how = g.pick(["v2", "words", "setters"])
    vals = g.fuzz(slots)
    via = facade(g)

    def call(core: Core, env: dict) -> object:
        p = g_struct(P.LoadData2DParamsV2, vals, V2_2D_FIELDS)
        if not bitmode:
            return load_data(core, env, via, p)
        if how == "v2":
            bm = P.Load2DBitModeParam(p)
        elif how == "setters":
            bm = P.Load2DBitModeParam()
            for f in ("mStartPosition", "kStartPosition", "mStep", "kStep", "srcStride", "dstStride"):
                getattr(bm, "Set" + f[0].upper() + f[1:])(vals[f])
            bm.SetIfTranspose(vals["ifTranspose"])
        else:
            ref = P.Load2DBitModeParam(P.LoadData2DParamsV2(*(v[k] for k in V2_2D_FIELDS)))
            bm = P.Load2DBitModeParam(ref.config0, ref.config1, vals["ifTranspose"])
        if vals["config0"] is not None:
            bm.config0 = vals["config0"]
        if vals["config1"] is not None:
            bm.config1 = vals["config1"]
        return load_data(core, env, via, bm, pos=(vals["Dst"], vals["Src"]))

    return make_case(g, "LoadData2Dv2", vals, DST_SRC, call, _dst)


LDWT_FIELDS = fields_of(P.LoadData2dTransposeParams)
LDWT_V2_FIELDS = fields_of(P.LoadData2dTransposeParamsV2)
LDWT_KINDS = kinds(
    (Int(0, 65535), "startIndex", "srcStride", "dstGap", "dstFracGap", "srcFracGap"),
    (Int(0, 255), "repeatTimes"),
    (Flag(), "addrMode"),
)
N_FRACTALS = {4: 4, 8: 2, 16: 1, 32: 2}


@family("LoadDataWithTranspose", "LoadDataWithTranspose", "LoadDataWithTransposeV2", owner="i8b")
def gen_ldwt(g: G) -> Case:
    v2 = g.profile.supports("LoadDataWithTransposeV2") and g.coin(0.5)
    api = "LoadDataWithTransposeV2" if v2 else "LoadDataWithTranspose"
    _, d_mem, dtype = _path(g, api, "L1")
    n_f = N_FRACTALS[get_dtype(dtype).bits]
    rep, start, stride = g.int(0 if not v2 else 1, 4), g.int(0, 3), g.int(1, 3)
    dst_gap, dst_frac_gap, src_frac_gap = n_f - 1 + g.int(0, 1), g.int(0, 1), g.int(0, 1)
    dec = g.coin(0.15)
    if dec:
        start += max(rep - 1, 0) * stride
    unit = 1 if v2 else n_f
    src_f = (start + max(rep - 1, 0) * stride) * unit + (n_f - 1) * (src_frac_gap + 1 if v2 else 1) + 1
    dst_f = max(rep - 1, 0) * (dst_gap + 1) + (n_f - 1) * (dst_frac_gap + 1) + 1
    names = LDWT_V2_FIELDS if v2 else LDWT_FIELDS
    v = dict(
        startIndex=start,
        repeatTimes=rep,
        srcStride=stride,
        dstGap=dst_gap,
        dstFracGap=dst_frac_gap,
        srcFracGap=src_frac_gap,
        addrMode=dec,
    )
    slots = {k: [v[k], LDWT_KINDS[k]] for k in names}
    slots["dst"] = [_place(g, d_mem, min(dst_f, 128) * 512, 512, POS[d_mem], dtype, "none"), Tensor()]
    slots["src"] = [_place(g, "L1", min(src_f, 512) * 512, 32, g.pick(["A1", "B1"]), dtype), Tensor()]
    slots["params"] = [None, Struct()]
    vals = g.fuzz(slots)
    via = facade(g)

    def call(core: Core, env: dict) -> object:
        p = (
            vals["params"]
            if vals["params"] is not None
            else g_struct(P.LoadData2dTransposeParamsV2 if v2 else P.LoadData2dTransposeParams, vals, names)
        )
        return either(
            core, via, "LoadDataWithTranspose", "load_data_with_transpose", env["dst"], env["src"], p
        )

    return make_case(g, "LoadDataWithTranspose", vals, DST_SRC, call, _dst)


def _sparse_dests(env: dict) -> list:
    """The L0B destination and its documented second destination: the sparse index buffer at L0B / 4."""
    out = span(env.get("dst"))
    for _, a, b in list(out):
        out.append(("SPARSE_IDX", a // 4, cdiv(b, 4)))
    return out


@family("LoadDataWithSparse", "LoadDataWithSparse", owner="i8b")
def gen_load_sparse(g: G) -> Case:
    rep, start = g.int(0, 6), g.int(0, 3)
    if g.coin(0.05):
        rep, start = 255, 65535
    v = dict(zip(L2D_FIELDS, (start, rep, g.int(0, 3), 0, g.int(0, 2), False, 0), strict=True))
    slots = {k: [v[k], L2D_KINDS[k]] for k in L2D_FIELDS}
    slots["dst"] = [_place(g, "L0B", max(rep, 1) * 512, 512, "B2", "int8_t", "none"), Tensor()]
    slots["src"] = [_place(g, "L1", min(start + rep, 300) * 512, 32, "B1", "int8_t"), Tensor()]
    slots["idx"] = [
        _place(g, "L1", min(start + rep, 300) * 128, 32, g.pick(["B1", "A1"]), "uint8_t", "sparse"),
        Tensor(),
    ]
    slots["params"] = [None, Struct()]
    vals = g.fuzz(slots)
    via = facade(g)

    def call(core: Core, env: dict) -> object:
        p = vals["params"] if vals["params"] is not None else g_struct(P.LoadData2DParams, vals, L2D_FIELDS)
        return either(
            core, via, "LoadDataWithSparse", "load_data_with_sparse", env["dst"], env["src"], env["idx"], p
        )

    return make_case(g, "LoadDataWithSparse", vals, ("dst", "src", "idx"), call, _sparse_dests)


MX_FIELDS = fields_of(P.LoadData2DMxParams)
MX_KINDS = kinds(
    (Int(0, 65535), "xStartPosition", "yStartPosition", "srcStride", "dstStride"),
    (Int(0, 255), "xStep", "yStep"),
)


def _mx_dests(env: dict) -> list:
    """The destination and its documented second destination: the MX scale buffer at address / 16."""
    out = span(env.get("dst"))
    for mem, a, b in list(out):
        out.append((mem + "_MX", a // 16, cdiv(b, 16)))
    return out


@family("Load2DMX", "Load2DMX", owner="i8b")
def gen_load2d_mx(g: G) -> Case:
    _, d_mem, dtype = _path(g, "Load2DMX", "L1", g.pick(["L0A", "L0B"]))
    plain = {"mx_fp8_e4m3_t": "fp8_e4m3fn_t", "mx_fp8_e5m2_t": "fp8_e5m2_t"}.get(dtype, dtype)
    v, src_f, dst_f = v2_window(g, "Load2DMX", dtype, "L1", d_mem)
    xs, ys, x0, y0 = g.int(0, 3), g.int(0, 3), g.int(0, 2), g.int(0, 2)
    mx = dict(
        xStartPosition=x0,
        yStartPosition=y0,
        xStep=xs,
        yStep=ys,
        srcStride=y0 + ys + g.int(0, 1),
        dstStride=ys + g.int(0, 1),
    )
    slots = {k: [v[k], V2_2D_KINDS[k]] for k in V2_2D_FIELDS}
    slots.update({f"mx.{k}": [mx[k], MX_KINDS[k]] for k in MX_FIELDS})
    slots["dst"] = [_place(g, d_mem, dst_f * 512, 512, POS[d_mem], dtype, "none"), Tensor()]
    slots["src"] = [_place(g, "L1", src_f * 512, 32, "A1", plain), Tensor()]
    slots["srcMx"] = [
        _place(g, "L1", ((x0 + xs) * mx["srcStride"] + 1) * 32, 32, "A1", "fp8_e8m0_t"),
        Tensor(),
    ]
    vals = g.fuzz(slots)
    via = facade(g)

    def call(core: Core, env: dict) -> object:
        p = g_struct(P.LoadData2DParamsV2, vals, V2_2D_FIELDS)
        q = P.LoadData2DMxParams(*(vals[f"mx.{k}"] for k in MX_FIELDS))
        return either(core, via, "LoadData", "load_data_mx", env["dst"], env["src"], env["srcMx"], p, q)

    return make_case(g, "Load2DMX", vals, ("dst", "src", "srcMx"), call, _mx_dests)


# =========================================================================================================
# Mmad, MmadWithSparse, MmadMx
# =========================================================================================================

MMAD_FIELDS = fields_of(P.MmadParams)
MMAD_KINDS = kinds(
    (Int(0, 4095), "m", "n", "k"),
    (
        Flag(),
        "isBias",
        "enSsparse",
        "enWinogradA",
        "enWinogradB",
        "kDirectionAlign",
        "cmatrixSource",
        "cmatrixInitVal",
        "disableGemv",
    ),
    (Int(0, 255), "fmOffset"),
    (Int(0, 3), "unitFlag"),
)


def mmad_call(vals: dict, via: bool, spelled: Callable, method: str) -> Callable[[Core, dict], object]:
    """The call of an Mmad-shaped instruction: the C++ spelling (a bias, if any, before the params) or the
    Core method (bias by keyword position)."""

    def call(core: Core, env: dict) -> object:
        p = g_struct(P.MmadParams, vals, MMAD_FIELDS)
        if via:
            args = (p,) if env["bias"] is None else (env["bias"], p)
            return spelled(env["c"], env["a"], env["b"], *args)
        return getattr(core, method)(env["c"], env["a"], env["b"], p, env["bias"])

    return call


def _c(env: dict) -> list:
    """The C operand's byte range (L0C)."""
    return span(env.get("c"))


def _mmad_operands(
    g: G,
    ta: str,
    tb: str,
    tc: str,
    m: int,
    n: int,
    k: int,
    kd: int | None = None,
    a_align: int = 512,
    b_align: int = 512,
) -> dict[str, list]:
    """c (L0C), a (L0A), b (L0B) slots big enough for an m x k by k x n product (B holds kd rows)."""
    ka = cdiv(k, 64) * 64
    kb = cdiv(kd if kd is not None else k, 64) * 64
    a_b = cdiv(cdiv(m, 16) * 16 * ka * get_dtype(ta).bits, 8)
    b_b = cdiv(kb * cdiv(n, 16) * 16 * get_dtype(tb).bits, 8)
    c_b = cdiv(m, 16) * 16 * cdiv(n, 16) * 16 * get_dtype(tc).bits // 8
    return {
        "c": [_place(g, "L0C", c_b, 1024, "CO1", tc, "none"), Tensor()],
        "a": [_place(g, "L0A", a_b, a_align, "A2", ta), Tensor()],
        "b": [_place(g, "L0B", b_b, b_align, "B2", tb), Tensor()],
    }


def _mnk(g: G, kmult: int = 1) -> tuple[int, int, int]:
    if g.coin(0.05):
        return 4095, 4095, 4095  # a plan-size probe
    m = g.pick([1, 16, g.int(1, 40), 32])
    return m, g.pick([16, g.int(1, 40), 32]), kmult * g.int(1, max(1, 64 // kmult))


@family("Mmad", "Mmad", owner="i8m")
def gen_mmad(g: G) -> Case:
    ta, tb, tc = g.pick(sorted(g.profile.mmad_types))
    m, n, k = _mnk(g)
    init = g.coin(0.7)
    v = dict(
        zip(MMAD_FIELDS, (m, n, k, False, 0, False, False, False, 0, False, False, init, False), strict=True)
    )
    if g.chip == "ascend950" and g.coin(0.3):
        v["disableGemv"] = True
    slots = {k_: [v[k_], MMAD_KINDS[k_]] for k_ in MMAD_FIELDS}
    slots.update(_mmad_operands(g, ta, tb, tc, m, n, k))
    bias = g.pick(["none", "none", "BT", "CO1"]) if g.profile.supports("DataCopyL12BT") else "none"
    if bias == "BT":
        slots["bias"] = [_place(g, "BT", 4 * n, 64, "C2", tc), Tensor()]
    elif bias == "CO1":
        slots["bias"] = [_place(g, "L0C", 4 * n, 1024, "CO1", tc), Tensor()]
    else:
        slots["bias"] = [None, Tensor()]
    vals = g.fuzz(slots)
    call = mmad_call(vals, facade(g), A.Mmad, "mmad")
    return make_case(g, "Mmad", vals, ("c", "a", "b", "bias"), call, _c)


def _sparse_codes(core: Core, env: dict) -> None:
    """Valid 2-bit index codes (0..2) in the sparse index buffer behind B (L0B offset / 4)."""
    b = env.get("b")
    if isinstance(b, ascsim_LocalTensor) and "SPARSE_IDX" in core.memories:
        buf = core.memory("SPARSE_IDX").data
        start = b.offset // 4
        n = min(len(buf) - start, 4096)
        if n > 0:
            codes = np.random.default_rng(b.offset).integers(0, 3, (n, 4), dtype=np.uint8)
            buf[start : start + n] = codes[:, 0] | codes[:, 1] << 2 | codes[:, 2] << 4 | codes[:, 3] << 6


@family("MmadWithSparse", "MmadWithSparse", owner="i8m")
def gen_mmad_sparse(g: G) -> Case:
    m, n, k = _mnk(g)
    v = dict(
        zip(
            MMAD_FIELDS,
            (m, n, k, False, 0, False, False, False, 0, False, False, g.coin(0.7), False),
            strict=True,
        )
    )
    slots = {k_: [v[k_], MMAD_KINDS[k_]] for k_ in MMAD_FIELDS}
    slots.update(_mmad_operands(g, "int8_t", "int8_t", "int32_t", m, n, k, kd=2 * cdiv(k, 4)))
    vals = g.fuzz(slots)
    via = facade(g)

    def call(core: Core, env: dict) -> object:
        p = g_struct(P.MmadParams, vals, MMAD_FIELDS)
        return either(core, via, "MmadWithSparse", "mmad_with_sparse", env["c"], env["a"], env["b"], p)

    return make_case(
        g,
        "MmadWithSparse",
        vals,
        ("c", "a", "b"),
        call,
        _c,
        prelude=_sparse_codes,
    )


def _mx_scales(core: Core, env: dict) -> None:
    """Random e8m0 scales in the MX buffers behind A and B."""
    for name, mem in (("a", "L0A_MX"), ("b", "L0B_MX")):
        if mem in core.memories:
            buf = core.memory(mem).data
            buf[:] = np.random.default_rng(len(name)).integers(100, 150, buf.size, dtype=np.uint8)


@family("MmadMx", "MmadMx", owner="i8m")
def gen_mmad_mx(g: G) -> Case:
    ta, tb, tc = g.pick(sorted(g.profile.apis["MmadMx"].combos))
    tag = {"fp8_e4m3fn_t": "mx_fp8_e4m3_t", "fp8_e5m2_t": "mx_fp8_e5m2_t"}
    if g.coin(0.5):
        ta, tb = tag.get(ta, ta), tag.get(tb, tb)
    m, n, k = _mnk(g, 64)
    v = dict(
        zip(
            MMAD_FIELDS,
            (m, n, k, False, 0, False, False, False, 0, False, False, g.coin(0.7), m == 1),
            strict=True,
        )
    )
    slots = {k_: [v[k_], MMAD_KINDS[k_]] for k_ in MMAD_FIELDS}
    align = {4: 512, 8: 1024}
    slots.update(
        _mmad_operands(
            g, ta, tb, tc, m, n, k, a_align=align[get_dtype(ta).bits], b_align=align[get_dtype(tb).bits]
        )
    )
    slots["bias"] = [_place(g, "BT", 4 * n, 64, "C2", "float") if g.coin(0.3) else None, Tensor()]
    vals = g.fuzz(slots)
    call = mmad_call(vals, facade(g), A.MmadMx, "mmad_mx")
    return make_case(g, "MmadMx", vals, ("c", "a", "b", "bias"), call, _c, prelude=_mx_scales)


# =========================================================================================================
# DataCopy (GM -> L1 count / DataCopyParams / ND2NZ / DN2NZ, L1 -> BT / FB, CO1 -> GM / L1), DataCopyPad
# =========================================================================================================

DCP_FIELDS = fields_of(P.DataCopyParams)
DCP_KINDS = kinds((Int(0, 4095), "blockCount"), (Int(0, 65535), "blockLen", "srcStride", "dstStride"))
ND_FIELDS = fields_of(P.Nd2NzParams)
DN_FIELDS = fields_of(P.Dn2NzParams)
NZ_KINDS = kinds(
    (Int(0, 4095), "ndNum", "dnNum"),
    (Int(0, 16384), "nValue", "dstNzMatrixStride"),
    (Int(0, 65535), "dValue", "srcNdMatrixStride"),
    (Int(0, 2**40 - 1), "srcDnMatrixStride"),
    (Int(1, 65535), "srcDValue"),
    (Int(1, 16384), "dstNzC0Stride", "dstNzNStride"),
)
CO1_FIELDS = fields_of(P.DataCopyCO12DstParams)
PLAIN_TYPES = ("int8_t", "uint8_t", "int16_t", "uint16_t", "int32_t", "uint32_t", "half", "float")


def quant_word(g: G, signed: bool = True) -> int:
    """A quantisation word with a finite normal scale M1 (bits [31:13]), an offset and the sign bit."""
    scale = np.float32(g.pick([0.5, 1.0, 2.0, 0.125, -1.0])).view(np.uint32) & 0xFFFFE000
    return int(scale) | (g.int(0, 511) << 37) | (int(signed) << 46)


def _quant_modes(src: str, dst: str) -> list:
    from ascsim.isa.quant import PAIRS

    modes = [m for m, (s, ds) in PAIRS.items() if s == src and dst in ds]
    return (modes or [P.QuantMode_t.NoQuant]) if src != dst else [P.QuantMode_t.NoQuant]


@family("DataCopy", "DataCopyND2NZ", "DataCopyL12BT", "SetFixpipeNz2ndFlag", owner="i8b")
def gen_data_copy(g: G) -> Case:
    chip = g.profile
    forms = (
        ["count", "params"]
        + (["nd2nz"] if chip.supports("DataCopyND2NZ") else [])
        + (["dn2nz"] if chip.supports("DataCopyDN2NZ") else [])
        + (["bt", "fb"] if chip.supports("DataCopyL12BT") else [])
        + (["co1"] if chip.supports("SetFixpipeNz2ndFlag") else [])
    )
    form = g.pick(forms)
    regs: tuple[str, ...] = ()
    prelude = None
    small_c0 = False
    if form in ("count", "params"):
        dtype = g.pick(PLAIN_TYPES)
        size = get_dtype(dtype).bits // 8
        if form == "count":
            count = g.int(0, 8) * 32 // size
            v = {"count": [count, Int(0, 2**32 - 1)]}
            nb = count * size
        else:
            d = dict(zip(DCP_FIELDS, (g.int(0, 4), g.int(0, 4), g.int(0, 2), g.int(0, 2)), strict=True))
            v = {k: [d[k], DCP_KINDS[k]] for k in DCP_FIELDS}
            nb = max(d["blockCount"], 1) * (d["blockLen"] + max(d["srcStride"], d["dstStride"])) * 32
        if g.coin(0.05):
            v[next(iter(v))][0] = 4095  # a plan-size probe
        v["dst"] = [_place(g, "L1", nb, 32, g.pick(["A1", "B1", "C1"]), dtype, "none"), Tensor()]
        v["src"] = [_place(g, "GM", nb, 32, "GM", dtype), Tensor()]
    elif form in ("nd2nz", "dn2nz"):
        api = "DataCopyND2NZ" if form == "nd2nz" else "DataCopyDN2NZ"
        _, _, dtype = _path(g, api, "GM", "L1")
        dt = get_dtype(dtype)
        c0 = 32 if dt.bits == 4 else dt.c0
        num, nv, dv = g.int(0, 2), g.int(1, 20), g.int(1, 40)
        n_stride = g.int(1, 2)
        c0_stride = nv * n_stride + g.int(0, 2)
        mat = cdiv(dv, c0) * c0_stride * c0 + g.int(0, 64)
        src_d = (dv if form == "nd2nz" else nv) + g.int(0, 3)
        src_mat = (nv if form == "nd2nz" else dv) * src_d + g.int(0, 8)
        names = ND_FIELDS if form == "nd2nz" else DN_FIELDS
        d = dict(zip(names, (num, nv, dv, src_mat, src_d, c0_stride, n_stride, mat), strict=True))
        v = {k: [d[k], NZ_KINDS[k]] for k in names}
        small_c0 = g.coin(0.05)
        elem = cdiv(dt.bits, 8) if dt.bits == 4 else dt.bits // 8
        v["dst"] = [_place(g, "L1", (max(num, 1) * mat + c0) * elem, 32, "B1", dtype, "none"), Tensor()]
        v["src"] = [_place(g, "GM", (max(num, 1) * src_mat + src_d) * elem, 32, "GM", dtype), Tensor()]
    elif form == "bt":
        sdt, ddt = g.pick(sorted(chip.apis["DataCopyL12BT"].combos))
        unit = 32 if g.chip == "ascend950" else 64
        d = dict(zip(DCP_FIELDS, (g.int(0, 3), 2 * g.int(0, 2), g.int(0, 2), g.int(0, 2)), strict=True))
        v = {k: [d[k], DCP_KINDS[k]] for k in DCP_FIELDS}
        ratio = get_dtype(ddt).bits // get_dtype(sdt).bits
        v["dst"] = [
            _place(
                g,
                "BT",
                max(d["blockCount"], 1) * (d["blockLen"] * ratio + d["dstStride"]) * unit,
                64,
                "C2",
                ddt,
                "none",
            ),
            Tensor(),
        ]
        v["src"] = [
            _place(
                g, "L1", max(d["blockCount"], 1) * (d["blockLen"] * unit + d["srcStride"] * 32), 32, "C1", sdt
            ),
            Tensor(),
        ]
    elif form == "fb":
        d = dict(zip(DCP_FIELDS, (g.int(0, 3), g.int(0, 2), g.int(0, 8), g.int(0, 2)), strict=True))
        v = {k: [d[k], DCP_KINDS[k]] for k in DCP_FIELDS}
        v["dst"] = [
            _place(
                g,
                "FB",
                (max(d["blockCount"], 1) * max(d["dstStride"], 1) + d["blockLen"]) * 128,
                128,
                "C2PIPE2GM",
                "uint64_t",
                "none",
            ),
            Tensor(),
        ]
        v["src"] = [
            _place(
                g,
                "L1",
                (max(d["blockCount"], 1) * d["srcStride"] + d["blockLen"] * 4) * 32,
                32,
                "C1",
                "uint64_t",
            ),
            Tensor(),
        ]
    else:  # co1
        to_l1 = chip.supports("FixpipeL0C2L1") and g.coin(0.3)
        src_t, dst_t = g.pick(sorted(chip.apis["FixpipeL0C2L1" if to_l1 else "Fixpipe"].combos))
        mode = g.pick(_quant_modes(src_t, dst_t))
        nz2nd = not to_l1 and g.coin(0.5)
        m, n = g.int(1, 32), 16 * g.int(1, 3)
        dsz = get_dtype(dst_t).bits // 8
        dst_stride = (n + g.int(0, 4)) if nz2nd else cdiv(m * 16 * dsz, 32) + g.int(0, 2)
        d = dict(
            zip(
                CO1_FIELDS,
                (n, m, dst_stride, cdiv(m, 16) * 16, mode, 0, False, nz2nd, 0, 0, 0, 0),
                strict=True,
            )
        )
        kind_of = kinds(
            (Int(0, 4095), "nSize"),
            (Int(0, 65535), "mSize", "srcStride"),
            (Int(1, 2**32 - 1), "dstStride"),
            (Name(tuple(P.QuantMode_t)), "quantPre"),
            (Int(0, 1), "reluPre", "clipReluPre", "eltWiseOp"),
            (Flag(), "channelSplit", "nz2ndEn"),
            (Int(0, 15), "sid"),
            (Int(0, 3), "unitFlag"),
        )
        v = {k: [d[k], kind_of[k]] for k in CO1_FIELDS}
        word = quant_word(g, dst_t == "int8_t")
        v["dst"] = [
            _place(
                g,
                "L1" if to_l1 else "GM",
                (m * dst_stride * 32 + n * 32) * dsz,
                32,
                "C1" if to_l1 else "GM",
                dst_t,
                "none",
            ),
            Tensor(),
        ]
        v["src"] = [_place(g, "L0C", cdiv(m, 16) * 16 * n * 4, 1024, "CO1", src_t), Tensor()]
        v["regs.nd"] = [(1, 0, 0), None]
        v["regs.quant"] = [word, Word()]
        regs = ()

        def prelude(core: Core, env: dict) -> None:
            core.set_fixpipe_pre_quant_flag(vals["regs.quant"])

    vals = g.fuzz(v)
    via = facade(g)
    names = {
        "params": DCP_FIELDS,
        "bt": DCP_FIELDS,
        "fb": DCP_FIELDS,
        "nd2nz": ND_FIELDS,
        "dn2nz": DN_FIELDS,
        "co1": CO1_FIELDS,
    }.get(form)
    cls = {
        "params": P.DataCopyParams,
        "bt": P.DataCopyParams,
        "fb": P.DataCopyParams,
        "nd2nz": P.Nd2NzParams,
        "dn2nz": P.Dn2NzParams,
        "co1": P.DataCopyCO12DstParams,
    }.get(form)
    as_count = form in ("bt", "fb") and g.coin(0.3)

    def call(core: Core, env: dict) -> object:
        if form == "count":
            p = vals["count"]
        elif as_count:
            p = (
                vals["blockLen"] * (64 if form == "bt" else 128) // max(1, env["src"].dtype.bits // 8)
                if isinstance(vals["blockLen"], int) and isinstance(env["src"], ascsim_LocalTensor)
                else vals["blockLen"]
            )
        else:
            p = g_struct(cls, vals, names)
        if via:
            return A.DataCopy(env["dst"], env["src"], p, small_c0)
        return core.data_copy(env["dst"], env["src"], p, enable_small_c0=small_c0)

    return make_case(g, "DataCopy", vals, DST_SRC, call, _dst, regs, prelude)


PAD_EXT = fields_of(P.DataCopyExtParams)
PAD_PAD = fields_of(P.DataCopyPadExtParams)


@family("DataCopyPad", "DataCopyPad", owner="i8b")
def gen_data_copy_pad(g: G) -> Case:
    _, _, dtype = _path(g, "DataCopyPad", "GM", "L1")
    size = get_dtype(dtype).bits // 8
    count, blen = g.int(1, 4), size * g.int(1, 40)
    sgap, dgap = g.int(-blen, 64), g.int(0, 2)
    left, right = g.int(0, 32 // size), g.int(0, 32 // size)
    if g.coin(0.05):
        count, blen = 4095, 2097151 // size * size  # a plan-size probe
    ext = dict(zip(PAD_EXT, (count, blen, sgap, dgap, 0), strict=True))
    pad = dict(zip(PAD_PAD, (g.coin(0.6), left, right, value_for(g, dtype)), strict=True))
    kind_of = kinds(
        (Int(1, 4095), "blockCount"),
        (Int(1, 2097151), "blockLen"),
        (Int(-blen, 2**40 - 1), "srcStride"),
        (Int(0, 65535), "dstStride"),
        (Int(0, 0), "rsv"),
        (Flag(), "isPad"),
        (Int(0, 255), "leftPadding", "rightPadding"),
        (Value(), "paddingValue"),
    )
    slots = {k: [ext[k], kind_of[k]] for k in PAD_EXT}
    slots.update({f"pad.{k}": [pad[k], kind_of[k]] for k in PAD_PAD})
    slots["mode"] = [g.pick([P.PaddingMode.Normal, P.PaddingMode.Compact, 0, 1]), Name((0, 1))]
    slots["padParams"] = [None, Struct()]
    pitch = dgap * 32 + cdiv(blen + (left + right) * size, 32) * 32
    slots["dst"] = [_place(g, "L1", min(count * pitch, 1 << 18), 32, "A1", dtype, "none"), Tensor()]
    slots["src"] = [_place(g, "GM", min(count * (blen + max(sgap, 0)), 1 << 20), 32, "GM", dtype), Tensor()]
    vals = g.fuzz(slots)
    via = facade(g)

    def call(core: Core, env: dict) -> object:
        p = g_struct(P.DataCopyExtParams, vals, PAD_EXT)
        q = (
            vals["padParams"]
            if vals["padParams"] is not None
            else P.DataCopyPadExtParams(*(vals[f"pad.{k}"] for k in PAD_PAD))
        )
        return either(core, via, "DataCopyPad", "data_copy_pad", env["dst"], env["src"], p, q, vals["mode"])

    return make_case(g, "DataCopyPad", vals, DST_SRC, call, _dst, ("mov_pad",))


# =========================================================================================================
# Fill / InitConstValue
# =========================================================================================================

FILL_FIELDS = fields_of(P.InitConstValueParams)


@family("Fill", "Fill", owner="i8b")
def gen_fill(g: G) -> Case:
    mems = {"ascend950": ("L1",), "training": ("L0A", "L0B")}.get(g.chip, ("L1", "L0A", "L0B"))
    mem = g.pick(mems)
    dtype = g.pick(sorted(g.profile.dtypes_for("Fill")))
    repeat_only = g.chip in ("training", "inference_aicore")
    rep, blocks, gap = g.int(0, 4), g.int(0, 4), g.int(0, 2)
    if g.coin(0.05):
        rep, blocks, gap = 32767, 32767, 32767  # a plan-size probe
    unit = 512 if repeat_only else {"L1": 32}.get(mem, 512)
    nb = min(
        ((max(rep, 1) - 1) * (blocks + gap) + blocks) * unit if not repeat_only else max(rep, 1) * 512,
        1 << 16,
    )
    v = dict(zip(FILL_FIELDS, (rep, blocks, gap, value_for(g, dtype)), strict=True))
    kind_of = kinds((Int(0, 32767), "repeatTimes", "blockNum", "dstGap"), (Value(), "initValue"))
    slots = {k: [v[k], kind_of[k]] for k in FILL_FIELDS}
    slots["dst"] = [
        _place(g, mem, nb, 32 if mem == "L1" else 512, POS[mem] if mem != "L0B" else "B2", dtype, "none"),
        Tensor(),
    ]
    slots["params"] = [None, Struct()]
    vals = g.fuzz(slots)
    spelling = g.pick(["core", "Fill", "InitConstValue", "repeat_only"])

    def call(core: Core, env: dict) -> object:
        if vals["params"] is not None:
            p = vals["params"]
        elif spelling == "repeat_only":
            p = P.InitConstValueParams.repeat_only(vals["repeatTimes"], vals["initValue"])
        else:
            p = g_struct(P.InitConstValueParams, vals, FILL_FIELDS)
        if spelling == "Fill":
            return A.Fill(env["dst"], p)
        if spelling == "InitConstValue":
            return A.InitConstValue(env["dst"], p)
        return core.init_const_value(env["dst"], p)

    return make_case(g, "Fill", vals, ("dst",), call, _dst)


# =========================================================================================================
# Fixpipe and its registers
# =========================================================================================================

V220_FIELDS = fields_of(P.FixpipeParamsV220)
A3510_FIELDS = fields_of(P.FixpipeParamsArch3510)
FIX_KINDS = kinds(
    (Int(0, 4095), "nSize"),
    (Int(0, 65535), "mSize", "srcStride", "dstNdStride", "sub.srcNdStride", "sub.srcNzMatrixStride"),
    (Int(1, 2**32 - 1), "dstStride"),
    (Flag(), "reluEn", "isChannelSplit"),
    (Name(tuple(P.QuantMode_t)), "quantPre"),
    (Word(), "deqScalar"),
    (Int(1, 65535), "ndNum", "sub.ndNum", "sub.dnNum", "sub.srcNzC0Stride"),
    (Int(0, 512), "srcNdStride"),
    (Int(0, 3), "unitFlag"),
    (Struct(), "params"),
    (Int(0, 0), "dualDstCtrl", "subBlockId"),
    (Int(0, 2**32 - 1), "sub.dstNdStride", "sub.dstDnMatrixStride"),
)


def _fixpipe_dests(env: dict) -> list:
    """The destination, and the Fixpipe Buffer (the quant vector staged from cbufWorkspace)."""
    out = span(env.get("dst"))
    if isinstance(env.get("ws"), ascsim_LocalTensor):
        out.append(("FB", 0, 1 << 20))
    return out


@family("Fixpipe", "Fixpipe", "FixpipeL0C2L1", owner="i8b")
def gen_fixpipe(g: G) -> Case:
    chip = g.profile
    is950 = g.chip == "ascend950"
    to_l1 = chip.supports("FixpipeL0C2L1") and g.coin(0.3)
    src_t, dst_t = g.pick(sorted(chip.apis["FixpipeL0C2L1" if to_l1 else "Fixpipe"].combos))
    mode = g.pick(_quant_modes(src_t, dst_t))
    fmt = g.pick(
        [P.CO2Layout.NZ, P.CO2Layout.ROW_MAJOR, P.CO2Layout.COLUMN_MAJOR]
        if is950
        else [P.CO2Layout.NZ]
        if to_l1
        else [P.CO2Layout.NZ, P.CO2Layout.ROW_MAJOR]
    )
    dsz = get_dtype(dst_t).bits // 8
    m, n = g.int(1, 32), 16 * g.int(1, 3) if fmt == P.CO2Layout.NZ else g.int(1, 40)
    num = g.int(1, 2) if fmt != P.CO2Layout.NZ else 1
    if fmt == P.CO2Layout.ROW_MAJOR:
        dst_stride = n + g.int(0, 4)
        if to_l1:
            n = dst_stride = cdiv(n * dsz, 32) * 32 // dsz
    elif fmt == P.CO2Layout.COLUMN_MAJOR:
        dst_stride = m + g.int(0, 4)
        if to_l1:
            m = dst_stride = cdiv(m * dsz, 32) * 32 // dsz
    else:
        width = 32 if dsz == 1 else 16
        dst_stride = (m * width + g.int(0, 32)) if is950 else cdiv(m * 16 * dsz, 32) + g.int(0, 2)
    src_stride = cdiv(m, 16) * 16
    src_mat = cdiv(n, 16) * src_stride
    dst_mat = (m if fmt == P.CO2Layout.ROW_MAJOR else n) * dst_stride + g.int(0, 16)
    if g.coin(0.05):
        m, n, num = 65535, 4095, 2  # a plan-size probe
    scalar = mode in (P.QuantMode_t.DEQF16, P.QuantMode_t.QF322B8_PRE, P.QuantMode_t.REQ8)
    vector = mode in (P.QuantMode_t.VDEQF16, P.QuantMode_t.VQF322B8_PRE, P.QuantMode_t.VREQ8)
    word = quant_word(g, dst_t == "int8_t") if scalar else 0
    slots: dict = {
        "nSize": [n, None],
        "mSize": [m, None],
        "srcStride": [src_stride, None],
        "dstStride": [dst_stride, None],
        "reluEn": [g.coin(0.3), None],
        "quantPre": [mode, None],
        "deqScalar": [word, None],
        "unitFlag": [g.pick([0, 0, 2, 3]), None],
        "isChannelSplit": [False, None],
    }
    if is950:
        sub = {
            P.CO2Layout.ROW_MAJOR: {"sub.ndNum": num, "sub.srcNdStride": src_mat, "sub.dstNdStride": dst_mat},
            P.CO2Layout.COLUMN_MAJOR: {
                "sub.dnNum": num,
                "sub.srcNzMatrixStride": src_mat,
                "sub.dstDnMatrixStride": dst_mat,
                "sub.srcNzC0Stride": 1,
            },
        }.get(fmt, {})
        slots.update({k: [x, None] for k, x in sub.items()})
        slots.update({"params": [None, None], "dualDstCtrl": [0, None], "subBlockId": [0, None]})
    else:
        slots.update(
            {"ndNum": [num, None], "srcNdStride": [cdiv(src_mat, 16), None], "dstNdStride": [dst_mat, None]}
        )
    for k in slots:
        slots[k][1] = FIX_KINDS[k]
    slots["config"] = [
        g.pick(
            [
                fmt,
                {
                    P.CO2Layout.NZ: P.CFG_NZ,
                    P.CO2Layout.ROW_MAJOR: P.CFG_ROW_MAJOR,
                    P.CO2Layout.COLUMN_MAJOR: P.CFG_COLUMN_MAJOR,
                }[fmt],
                int(fmt),
            ]
        ),
        Name((0, 1, 2, 9, P.FixpipeConfig(P.CO2Layout.NZ, True))),
    ]
    slots["struct"] = [None, Struct()]
    if fmt == P.CO2Layout.NZ:
        dst_elems = cdiv(n, 16) * dst_stride * (1 if is950 else 32 // dsz) + m * 32
    else:
        dst_elems = num * dst_mat + (m if fmt == P.CO2Layout.ROW_MAJOR else n) * dst_stride
    slots["dst"] = [
        _place(
            g,
            "L1" if to_l1 else "GM",
            min(dst_elems * dsz, 1 << 20),
            32,
            "C1" if to_l1 else "GM",
            dst_t,
            "none",
        ),
        Tensor(),
    ]
    slots["src"] = [_place(g, "L0C", min(num * src_mat * 16 * 4, 1 << 17), 1024, "CO1", src_t), Tensor()]
    ws_words = n if vector else 0
    slots["ws"] = [_place(g, "L1", ws_words * 8, 32, "C1", "uint64_t", "quant") if vector else None, Tensor()]
    vals = g.fuzz(slots)
    via = facade(g)
    trailing = g.coin(0.3)

    def prelude(core: Core, env: dict) -> None:
        ws = env.get("ws")
        if (
            isinstance(ws, ascsim_LocalTensor)
            and ws.memory is not None
            and ws.memory.name == "L1"
            and ws.dtype.bits == 64
        ):
            ws.write_raw(np.array([quant_word_fixed(dst_t == "int8_t")] * ws.length, dtype=np.uint64))

    def call(core: Core, env: dict) -> object:
        if vals["struct"] is not None:
            p = vals["struct"]
        elif is950:
            sub = None
            if "sub.ndNum" in vals:
                sub = P.Nz2NdParams(vals["sub.ndNum"], vals["sub.srcNdStride"], vals["sub.dstNdStride"])
            elif "sub.dnNum" in vals:
                sub = P.Nz2DnParams(
                    vals["sub.dnNum"],
                    vals["sub.srcNzMatrixStride"],
                    vals["sub.dstDnMatrixStride"],
                    vals["sub.srcNzC0Stride"],
                )
            p = P.FixpipeParamsArch3510(*(sub if k == "params" else vals[k] for k in A3510_FIELDS))
        else:
            p = g_struct(P.FixpipeParamsV220, vals, V220_FIELDS)
        ws = env["ws"]
        if via:
            lead = (ws,) if ws is not None else ()
            if trailing:
                return A.Fixpipe(env["dst"], env["src"], *lead, p, vals["config"])
            return A.Fixpipe(env["dst"], env["src"], *lead, p, config=vals["config"])
        return core.fixpipe(env["dst"], env["src"], p, vals["config"], ws)

    return make_case(
        g,
        "Fixpipe",
        vals,
        ("dst", "src", "ws"),
        call,
        _fixpipe_dests,
        ("nd_para", "quant_pre", "fpc_quant"),
        prelude,
    )


def quant_word_fixed(signed: bool) -> int:
    return (0x3F800000 & 0xFFFFE000) | (int(signed) << 46)


@family("FixpipeRegisters", "SetFixpipeNz2ndFlag", "SetFixPipeConfig", "SetAtomicAdd", owner="i8b")
def gen_fixpipe_registers(g: G) -> Case:
    chip = g.profile
    setters = [
        s
        for s, api in (
            ("nz2nd", "SetFixpipeNz2ndFlag"),
            ("prequant", "SetFixpipePreQuantFlag"),
            ("config", "SetFixPipeConfig"),
            ("atomic", "SetAtomicAdd"),
            ("none", "SetAtomicAdd"),
        )
        if chip.supports(api)
    ]
    which = g.pick(setters)
    slots: dict = {}
    if which == "nz2nd":
        slots = {
            "ndNum": [g.int(1, 8), Int(1, 65535)],
            "srcNdStride": [g.int(0, 512), Int(0, 65535)],
            "dstNdStride": [g.int(0, 4096), Int(0, 2**32 - 1)],
        }
    elif which == "prequant":
        slots = {"config": [quant_word(g), Word()]}
    elif which == "config":
        slots = {
            "quantPre": [_place(g, "FB", 128, 128, "C2PIPE2GM", "uint64_t"), Tensor()],
            "reluPre": [
                _place(g, "FB", 128, 128, "C2PIPE2GM", "uint64_t") if g.coin(0.3) else None,
                Tensor(),
            ],
            "isUnitFlag": [False, Flag()],
        }
    elif which == "atomic":
        slots = {"dtype": [g.pick(sorted(chip.apis["SetAtomicAdd"].dtypes)), Dtype()]}
    vals = g.fuzz(slots)
    via = facade(g)
    tensors = ("quantPre", "reluPre") if which == "config" else ()

    def call(core: Core, env: dict) -> object:
        with A.use(core):
            if which == "nz2nd":
                f = A.SetFixpipeNz2ndFlag if via else core.set_fixpipe_nz2nd_flag
                return f(vals["ndNum"], vals["srcNdStride"], vals["dstNdStride"])
            if which == "prequant":
                return (A.SetFixpipePreQuantFlag if via else core.set_fixpipe_pre_quant_flag)(vals["config"])
            if which == "config":
                if via:
                    ts = (env["quantPre"],) if env["reluPre"] is None else (env["reluPre"], env["quantPre"])
                    return A.SetFixPipeConfig(*ts, isUnitFlag=vals["isUnitFlag"])
                return core.set_fixpipe_config(env["quantPre"], env["reluPre"], vals["isUnitFlag"])
            if which == "atomic":
                return (A.SetAtomicAdd if via else core.set_atomic_add)(vals["dtype"])
            return (A.SetAtomicNone if via else core.set_atomic_none)()

    return make_case(
        g, "FixpipeRegisters", vals, tensors, call, regs=("nd_para", "quant_pre", "fpc_quant", "atomic")
    )


# =========================================================================================================
# The ascendc facade's variadic spellings and GlobalTensor; tensor construction
# =========================================================================================================


@family("Facade", "LoadData2D")
def gen_facade(g: G) -> Case:
    """The C++ spellings whose argument lists vary (overloads, trailing template arguments), with every
    count of extra arguments, and GlobalTensor.SetGlobalBuffer with fuzzed addresses and sizes."""
    which = g.pick(
        ["LoadData", "Mmad", "Fixpipe", "SetFmatrix", "SetFixPipeConfig", "GlobalTensor", "no core"]
    )
    n_extra = g.int(0, 5)
    slots = {
        "extra": [g.pick([None, 1, P.LoadData2DParams(0, 1), P.MmadParams(16, 16, 16), "x"]), Struct()],
        "buffer": [g.pick([0, 512, 1 << 20]), Int(0, 2**36)],
        "size": [g.pick([None, 16, 1024]), Int(0, 2**36)],
        "dtype": ["half", Dtype()],
    }
    slots["t"] = [_place(g, "L1", 2048, 512, "A1", "half"), Tensor()]
    slots["u"] = [_place(g, "L0A", 2048, 512, "A2", "half", "none"), Tensor()]
    vals = g.fuzz(slots)

    def call(core: Core, env: dict) -> object:
        t, u = env["t"], env["u"]
        extra = [vals["extra"]] * n_extra
        if which == "no core":
            return A.SetLoadDataBoundary(0)
        with A.use(core):
            if which == "LoadData":
                return A.LoadData(u, t, *extra)
            if which == "Mmad":
                return A.Mmad(u, t, t, *extra)
            if which == "Fixpipe":
                return A.Fixpipe(t, u, *extra)
            if which == "SetFmatrix":
                return A.SetFmatrix(*extra)
            if which == "SetFixPipeConfig":
                return A.SetFixPipeConfig(*([t] * n_extra))
            gt = A.GlobalTensor(vals["dtype"])
            gt.SetGlobalBuffer(vals["buffer"], vals["size"])
            return gt.GetSize()

    return make_case(
        g,
        "Facade",
        vals,
        ("t", "u"),
        call,
        lambda env: span(env.get("u")),
        ("fmatrix_left", "fmatrix_right", "fpc_quant"),
    )


@family("Tensors", "LoadData2D")
def gen_tensors(g: G) -> Case:
    """Core.tensor / Core.global_tensor / LocalTensor indexing, reinterpretation, read and write."""
    which = g.pick(["tensor", "global", "index", "reinterpret", "write", "write_raw", "read", "fill_raw"])
    pos = g.pick(["A1", "B1", "A2", "B2", "CO1", "GM", "C2"])
    slots = {
        "position": [pos, Name(("A1", "GM", "VECIN", "L1"))],
        "dtype": [g.pick(["half", "int8_t", "float"]), Dtype()],
        "length": [g.int(0, 256), Int(0, 1 << 20)],
        "offset": [g.aligned(0, 4096, 32), Int(0, 1 << 20)],
        "data": [g.pick([None, [1, 2, 3], np.arange(8.0)]), Value()],
        "raw": [None, Value()],
        "index": [g.int(0, 16), Int(0, 256)],
        "count": [g.pick([None, 4]), Int(0, 256)],
        "pattern": [g.int(0, 255), Int(0, 255)],
    }
    slots["t"] = [_place(g, "L1", 512, 32, "A1", "half"), None]  # the tensor whose methods are called
    vals = g.fuzz(slots)

    def call(core: Core, env: dict) -> object:
        t = env["t"]
        if which == "tensor":
            return core.tensor(
                vals["position"], vals["dtype"], vals["length"], vals["offset"], vals["data"], vals["raw"]
            )
        if which == "global":
            if vals["raw"] is not None:
                return core.global_tensor(vals["dtype"], raw=vals["raw"])
            return core.global_tensor(
                vals["dtype"], vals["data"] if vals["data"] is not None else vals["length"]
            )
        if which == "index":
            return t[vals["index"]]
        if which == "reinterpret":
            return t.reinterpret(vals["dtype"])
        if which == "write":
            return t.write(vals["data"] if vals["data"] is not None else [1.0], vals["index"])
        if which == "write_raw":
            return t.write_raw(vals["data"] if vals["data"] is not None else [1], vals["index"])
        if which == "read":
            return t.read(vals["count"])
        return t.fill_raw(vals["pattern"])

    def dests(env: dict) -> list:
        # creation writes the new tensor's initial contents; writes stay inside `t`
        if which in ("tensor", "global"):
            return [(name, 0, 1 << 40) for name in ("L1", "L0A", "L0B", "L0C", "BT", "GM")]
        return span(env.get("t"))

    return make_case(g, "Tensors", vals, ("t",), call, dests)
