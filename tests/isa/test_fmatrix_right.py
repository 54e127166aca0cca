"""The right FMATRIX bank: SetFmatrix(..., FMATRIX_RIGHT) writes it, Load3D with fMatrixCtrl = true reads it
(divergences L11, L24).

Sources: SetFmatrix.md 表1 ("fmatrixMode ... 当前只支持FMATRIX_LEFT") and LoadData_3D.md 表4 ("fMatrixCtrl:
true：从右矩阵中获取FeatureMap的属性描述 ... 当前只支持设置为false") forbid it; asc-devkit implements it
(kernel_operator_mm_base_impl.h SetFmatrixImpl: FMATRIX_RIGHT -> Load3DSetFMatrixBCal -> set_fmatrix_b;
the img2colv2 calls pass fMatrixCtrl through) and rejects it on dav_m200 / dav_c100 (Load3DSetFMatrixBCal:
ASCENDC_REPORT_NOT_SUPPORT); IsResetLoad3dConfig.isSetFMatrix always calls Load3DSetFMatrixCal = set_fmatrix,
the left bank. Shipped use: catlass include/catlass/gemm/tile/atlasa2/copy_l1_to_l0b.hpp (CopyL1ToL0B for
float zN -> nZ, line 376): SetFmatrix(1, l1KAlign, {0,0,0,0}, FMATRIX_RIGHT), then LoadData<float,
{false, false}> with kExtension = l0NAlign, mExtension = l0KAlign, channelSize = l1NAlign, fMatrixCtrl = true.
The end-to-end test transliterates that tile copy (and its A-side twin, copy_l1_to_l0a.hpp line 283) into an
fp32 matmul and compares with numpy.
"""

from __future__ import annotations

import json
import warnings

import numpy as np
import pytest

from ascsim import (
    Core,
    DocConflictError,
    DocConflictWarning,
    HazardError,
    HazardWarning,
    IsResetLoad3dConfig,
    Load3DBitModeParam,
    LoadData3DParamsV2,
    LoadData3DParamsV2Pro,
    LoadDataRepeatParamWithStride,
    MmadParams,
    UnsupportedError,
)
from ascsim import ascendc as A
from ascsim.machine.registers import Fmatrix
from ascsim.scenario import load_scenario, run_scenario
from ascsim.view.explain import format_summary, summary

NO_RESET = IsResetLoad3dConfig(False, False)
DOC_RIGHT = (r"^SetFmatrix: the doc page forbids this "
             r"\(SetFmatrix.md 表1 fmatrixMode: 当前只支持FMATRIX_LEFT\)")
DOC_CTRL = r"the doc page forbids this \(LoadData_3D.md 表4 fMatrixCtrl: 当前只支持设置为false\)"


def quiet(fn, *args, **kw):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DocConflictWarning)
        return fn(*args, **kw)


def fmap(core: Core, dtype: str = "half", c: int = 16, h: int = 4, w: int = 4, pos: str = "A1"):
    t = core.tensor(pos, dtype, c * h * w)
    t.write_raw(np.arange(c * h * w) % 2039 + 1)
    return t


def v2(**kw) -> LoadData3DParamsV2:
    base = dict(padList=[9, 9, 9, 9], l1H=7, l1W=7, channelSize=16, kExtension=144, mExtension=16,
                filterW=3, filterH=3)
    base.update(kw)
    return LoadData3DParamsV2(**base)


# -- SetFmatrix ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("mode", ["FMATRIX_RIGHT", A.FmatrixMode.FMATRIX_RIGHT, 1])
def test_set_fmatrix_right_writes_the_right_bank_only(mode) -> None:
    core = Core("a2")
    core.set_fmatrix(4, 4, [1, 1, 1, 1])
    with pytest.warns(DocConflictWarning, match=DOC_RIGHT):
        core.set_fmatrix(1, 64, [0, 0, 0, 0], mode)
    assert core.regs.fmatrix_right == Fmatrix(1, 64, (0, 0, 0, 0))
    assert core.regs.fmatrix_left == Fmatrix(4, 4, (1, 1, 1, 1))


def test_set_fmatrix_right_strict_is_an_error_and_writes_nothing() -> None:
    core = Core("950", strict=True)
    with pytest.raises(DocConflictError, match=DOC_RIGHT):
        core.set_fmatrix(1, 64, [0, 0, 0, 0], "FMATRIX_RIGHT")
    assert core.regs.fmatrix_right == Fmatrix()


def test_set_fmatrix_bitmode_right_bank_950() -> None:
    core = Core("950")
    p = A.SetFMatrixBitModeParams()
    p.SetL1H(3)
    p.SetL1W(5)
    p.SetPadList([1, 2, 3, 4])
    with pytest.warns(DocConflictWarning):
        core.set_fmatrix_bitmode(p, "FMATRIX_RIGHT")
    assert core.regs.fmatrix_right == Fmatrix(3, 5, (1, 2, 3, 4))


@pytest.mark.parametrize("chip,dav", [("inference_aicore", "dav_m200")])
def test_set_fmatrix_right_rejected_where_the_cpp_api_rejects_it(chip: str, dav: str) -> None:
    core = Core(chip)
    with pytest.raises(UnsupportedError, match=r"^SetFmatrix: FmatrixMode FMATRIX_RIGHT is not available on "
                       r".*"
                       r"\(the C\+\+ API rejects this: Load3DSetFMatrixBCal: "
                       rf"ASCENDC_REPORT_NOT_SUPPORT on {dav}\)$"):
        core.set_fmatrix(4, 4, [0, 0, 0, 0], "FMATRIX_RIGHT")
    assert core.regs.fmatrix_right == Fmatrix()


# -- Load3D reads the bank fMatrixCtrl names ------------------------------------------------------------


@pytest.mark.parametrize("chip", ["a2", "950"])
def test_fmatrix_ctrl_reads_the_right_bank(chip: str) -> None:
    """With {false, false} the struct's l1H/l1W/padList (7x7, pads 9) are ignored; fMatrixCtrl = true reads
    the right bank (4x4, pads 1) — the same bytes as fMatrixCtrl = false with the left bank set to 4x4."""
    want_core = Core(chip)
    want_core.set_fmatrix(4, 4, [1, 1, 1, 1])
    want = want_core.tensor("A2", "half", 16 * 144)
    want_core.load_data(want, fmap(want_core), v2(), NO_RESET)

    core = Core(chip)
    core.set_fmatrix(2, 3, [0, 0, 0, 0])  # a left bank that would give other bytes
    quiet(core.set_fmatrix, 4, 4, [1, 1, 1, 1], "FMATRIX_RIGHT")
    got = core.tensor("A2", "half", 16 * 144)
    with pytest.warns(DocConflictWarning, match=r"^Load3Dv2: " + DOC_CTRL):
        rep = core.load_data(got, fmap(core), v2(fMatrixCtrl=True), NO_RESET)
    np.testing.assert_array_equal(got.bytes(), want.bytes())
    assert "L11" in rep.notes
    assert rep.plan.info["spec"].fmatrix == "right"


def test_fmatrix_ctrl_true_strict_is_an_error_and_writes_nothing() -> None:
    core = Core("a2", strict=True)
    core.regs.fmatrix_right = Fmatrix(4, 4, (1, 1, 1, 1))  # as if set in non-strict code
    dst = core.tensor("A2", "half", 16 * 144)
    before = dst.bytes().copy()
    with pytest.raises(DocConflictError, match=r"^Load3Dv2: " + DOC_CTRL):
        core.load_data(dst, fmap(core), v2(fMatrixCtrl=True), NO_RESET)
    np.testing.assert_array_equal(dst.bytes(), before)


def test_is_set_fmatrix_writes_left_while_fmatrix_ctrl_reads_right() -> None:
    """C++: LoadDataImpl calls Load3DSetFMatrixCal (set_fmatrix, the left bank) whatever fMatrixCtrl says,
    then the instruction reads the right bank: the struct's geometry goes to the left bank unused (L24)."""
    core = Core("a2")
    quiet(core.set_fmatrix, 4, 4, [1, 1, 1, 1], "FMATRIX_RIGHT")
    dst = core.tensor("A2", "half", 16 * 144)
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        core.load_data(dst, fmap(core), v2(fMatrixCtrl=True))  # default config {true, true}
    kinds = [(type(x.message), str(x.message)) for x in w]
    assert any(k is HazardWarning and m.startswith("Load3Dv2: isSetFMatrix = true writes the struct's "
                                                   "l1H/l1W/padList (7, 7, [9, 9, 9, 9]) to the left FMATRIX")
               for k, m in kinds)
    assert core.regs.fmatrix_left == Fmatrix(7, 7, (9, 9, 9, 9))
    assert core.regs.fmatrix_right == Fmatrix(4, 4, (1, 1, 1, 1))
    strict = Core("a2", strict=True)
    strict.regs.fmatrix_right = Fmatrix(4, 4, (1, 1, 1, 1))
    with pytest.raises(HazardError):
        strict.load_data(strict.tensor("A2", "half", 16 * 144), fmap(strict), v2(fMatrixCtrl=True))
    assert strict.regs.fmatrix_left == Fmatrix()


def test_unset_right_bank_is_a_nop_hazard_naming_the_bank() -> None:
    core = Core("a2")
    core.set_fmatrix(4, 4, [1, 1, 1, 1])
    dst = core.tensor("A2", "half", 16 * 144)
    before = dst.bytes().copy()
    with pytest.warns(HazardWarning, match=r"^Load3Dv2: NOP because the FMATRIX register holds l1H = 0, "
                      r"l1W = 0 \(this call reads the right bank from the register: call SetFmatrix with "
                      r"FMATRIX_RIGHT"):
        quiet_ctrl = v2(fMatrixCtrl=True)
        with warnings.catch_warnings():
            warnings.filterwarnings("ignore", category=DocConflictWarning)
            core.load_data(dst, fmap(core), quiet_ctrl, NO_RESET)
    np.testing.assert_array_equal(dst.bytes(), before)


@pytest.mark.parametrize("flavor", ["v2pro", "bitmode", "with_stride"])
def test_other_forms_read_the_right_bank(flavor: str) -> None:
    """v2Pro, Load3DBitMode (fmatrixCtrl bit 47 of config1) and LoadDataWithStride select the bank too."""
    chip = "a2" if flavor == "v2pro" else "950"
    p = v2(fMatrixCtrl=True)
    results = []
    for bank in ("left", "right"):
        core = Core(chip)
        core.set_padding_value(0, "half")
        if chip == "950":
            core.set_load_data_repeat(LoadDataRepeatParamWithStride(0, 1, 0, 1))
        core.set_fmatrix(4, 4, [1, 1, 1, 1]) if bank == "left" else core.set_fmatrix(2, 2, [0, 0, 0, 0])
        if bank == "right":
            quiet(core.set_fmatrix, 4, 4, [1, 1, 1, 1], "FMATRIX_RIGHT")
        q = v2(fMatrixCtrl=bank == "right")
        dst = core.tensor("A2", "half", 16 * 144)
        src = fmap(core)
        if flavor == "v2pro":
            quiet(core.load_data, dst, src, LoadData3DParamsV2Pro.from_v2(q))
        elif flavor == "bitmode":
            quiet(core.load_data, dst, src, Load3DBitModeParam(q), dst_pos="A2", src_pos="A1")
        else:
            quiet(core.load_data_with_stride, dst, src, q, NO_RESET)
        results.append(dst.bytes().copy())
    assert p.fMatrixCtrl
    np.testing.assert_array_equal(results[0], results[1])


def test_explain_and_draw_name_the_bank(tmp_path) -> None:
    scenario = {  # the JSON form of a scenario file (docs/scenarios.md)
        "chip": "a2",
        "tensors": {"x": {"position": "A1", "dtype": "half", "length": 256, "init": "arange"},
                    "a": {"position": "A2", "dtype": "half", "length": 2304}},
        "steps": [
            {"call": "SetFmatrix", "l1H": 4, "l1W": 4, "padList": [1, 1, 1, 1], "mode": "FMATRIX_RIGHT"},
            {"call": "LoadData", "dst": "a", "src": "x",
             "config": {"isSetFMatrix": False, "isSetPadding": False},
             "params": {"type": "LoadData3DParamsV2", **{k: v for k, v in vars(v2(fMatrixCtrl=True)).items()
                                                         if k in ("padList", "l1H", "l1W", "channelSize",
                                                                  "kExtension", "mExtension", "filterW",
                                                                  "filterH", "fMatrixCtrl")}}},
        ],
    }
    path = tmp_path / "right.json"
    path.write_text(json.dumps(scenario), encoding="utf-8")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DocConflictWarning)
        run = run_scenario(load_scenario(path))
    s = summary(run, 1)
    assert s["img2col"]["fmatrix"] == {"bank": "right", "l1H": 4, "l1W": 4, "padList": [1, 1, 1, 1]}
    assert "FMATRIX right bank (fMatrixCtrl = true): l1H=4, l1W=4, padList=[1, 1, 1, 1]" in format_summary(s)
    import numpy as np

    from ascsim.view.draw import _src_panel, groups

    g = groups(run, 1)
    panel = _src_panel(g, np.flatnonzero(g.src >= 0))
    assert "(L1 feature map 4 x 4 from the FMATRIX right bank" in panel.caption


# -- end to end: catlass's fp32 tile copies (A2) -> Mmad, against numpy ----------------------------------


def nz_bytes(x: np.ndarray, rows_pad: int, c0: int = 8) -> np.ndarray:
    """Nz (catlass zN) of a row-major matrix, written from the definition: fractal column j of C0 columns
    holds rows 0..rows_pad-1, each row C0 contiguous elements: element (r, c) at ((c // C0) * rows_pad + r) *
    C0 + c % C0 (关键分形格式详解.md)."""
    r, c = x.shape
    cols_pad = -(-c // c0) * c0
    out = np.zeros((cols_pad // c0, rows_pad, c0), dtype=x.dtype)
    padded = np.zeros((rows_pad, cols_pad), dtype=x.dtype)
    padded[:r, :c] = x
    for j in range(cols_pad // c0):
        out[j] = padded[:, j * c0:(j + 1) * c0]
    return out.ravel()


def from_l0c_nz(flat: np.ndarray, m: int, n: int) -> np.ndarray:
    """L0C (Mmad.md 表1: C is Nz, 16x16 fractals): (i, j) at ((j // 16) * M1 * 16 + i) * 16 + j % 16."""
    m1 = -(-m // 16)
    return np.array([[flat[((j // 16) * m1 * 16 + i) * 16 + j % 16] for j in range(n)] for i in range(m)])


def round16(v: int) -> int:
    return -(-v // 16) * 16


@pytest.mark.parametrize("m,k,n", [(32, 48, 32), (20, 40, 24)], ids=["aligned", "ragged"])
def test_catlass_fp32_matmul_b_through_the_right_fmatrix(m: int, k: int, n: int) -> None:
    rng = np.random.default_rng(m * 1000 + k * 10 + n)
    a = rng.standard_normal((m, k)).astype(np.float32)
    b = rng.standard_normal((k, n)).astype(np.float32)
    core = Core("a2")
    # catlass tile shapes: A's L0 K is C0-aligned (8 for float), B's K and N are 16-aligned ("K, N need to
    # be 16 aligned for f32"); M rows are padded to whole 16-row fractals
    m16, k8, k16, n16 = round16(m), -(-k // 8) * 8, round16(k), round16(n)
    l1a = core.tensor("A1", "float", m16 * k8)  # zN (Nz) tiles
    l1a.write(nz_bytes(a, m16).astype(np.float64))
    l1b = core.tensor("A1", "float", k16 * n16)  # catlass tags every L1 buffer A1
    l1b.write(nz_bytes(np.pad(b, ((0, 0), (0, n16 - n))), k16).astype(np.float64))
    l0a = core.tensor("A2", "float", m16 * k8)
    l0b = core.tensor("B2", "float", k16 * n16)
    l0c = core.tensor("CO1", "float", m16 * n16)
    with warnings.catch_warnings(record=True) as caught, A.use(core):
        warnings.simplefilter("always")
        # CopyL1ToL0A<float, zN> (copy_l1_to_l0a.hpp:278-290)
        A.SetFmatrix(1, m16, [0, 0, 0, 0], A.FmatrixMode.FMATRIX_LEFT)
        pa = LoadData3DParamsV2()
        pa.kExtension, pa.mExtension, pa.channelSize = k8, m16, k8
        A.LoadData(l0a, l1a, pa, config=NO_RESET)
        # CopyL1ToL0B<float, zN> (copy_l1_to_l0b.hpp:367-381)
        A.SetFmatrix(1, k16, [0, 0, 0, 0], A.FmatrixMode.FMATRIX_RIGHT)
        pb = LoadData3DParamsV2()
        pb.kExtension, pb.mExtension, pb.channelSize = n16, k16, n16
        pb.fMatrixCtrl = True
        A.LoadData(l0b, l1b, pb, config=NO_RESET)
        # TileMmad (tile_mmad.hpp): m, n, k, initC; kDirectionAlign only for a column-major float A
        A.Mmad(l0c, l0a, l0b, MmadParams(m, n, k))
    doc = sorted({str(w.message).split(" (")[0] for w in caught
                  if issubclass(w.category, DocConflictWarning)})
    assert doc == ["Load3Dv2: the doc page forbids this", "SetFmatrix: the doc page forbids this"]
    assert not [w for w in caught if not issubclass(w.category, DocConflictWarning)]
    got = from_l0c_nz(l0c.read(), m, n)
    want = a.astype(np.float64) @ b.astype(np.float64)
    np.testing.assert_allclose(got, want, rtol=1e-6, atol=1e-5)
