"""`ascsim explain`: provenance checked against independent formulas and against the bytes.

The Load3D reference here is written from the doc formulas, not from ascsim's plan:
img2col (LoadData_3D.md 表4; docs/load3d.md "The img2col matrix"): W[m][k] = X[c, h, w] with m = ho*Wo + wo,
k = ((c1*Kh + kh)*Kw + kw)*C0 + c0 (packed tail group: ((kh*Kw + kw)*T + c)), h = ho*strideH +
kh*dilationH - padTop, w = wo*strideW + kw*dilationW - padLeft, padValue outside the map;
destination layouts (docs/load3d.md): A2 L0A Zz(Wsel) / Zz(Wsel^T), L0B and 950 Nz(Wsel^T) / Nz(Wsel)
with the dense column stride; each inverted below by hand (fractal index -> fractal row/column).
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from support.paths import EXAMPLES

from ascsim.base.errors import BoundsError, ParamRangeError
from ascsim.cli import main
from ascsim.scenario import load_scenario, run_scenario
from ascsim.view.explain import explain_step, provenance, summary

TMP = Path(".")  # set per module by the fixture below (pytest-managed temporary directory)


@pytest.fixture(scope="module", autouse=True)
def _scenario_dir(tmp_path_factory):
    global TMP
    TMP = tmp_path_factory.mktemp("explain")
SIZE = {"half": 2, "float": 4, "int8_t": 1}
NPTYPE = {"half": np.float16, "float": np.float32, "int8_t": np.int8}
RAW = {"half": np.uint16, "float": np.uint32, "int8_t": np.uint8}
SMALL = {"half": (4, 8), "float": (4,), "int8_t": (4, 8, 16)}


def cdiv(a: int, b: int) -> int:
    return -(-a // b)


def write_scenario(name: str, doc: dict) -> Path:
    path = TMP / f"{name}.json"
    path.write_text(json.dumps(doc))
    return path


# -- Load3D v2 scenarios ----------------------------------------------------------------------------------


@st.composite
def load3d_cases(draw):
    chip = draw(st.sampled_from(["a2", "ascend950"]))
    dtype = draw(st.sampled_from(["half", "float", "int8_t"]))
    c0 = 32 // SIZE[dtype]
    dst_pos = draw(st.sampled_from(["A2", "B2"]))
    if dtype == "int8_t":
        # b8 to L0B / transposed: unsupported on A2, whole 32-row squares on 950 (docs/load3d.md); the
        # strategy keeps b8 on the plain L0A path
        dst_pos = "A2"
    transpose = draw(st.booleans()) if dtype != "int8_t" and dst_pos == "A2" else False
    n_full = draw(st.integers(0, 2))
    tail = draw(st.sampled_from((0, *SMALL[dtype])))
    channels = n_full * c0 + tail
    assume(channels > 0)
    l1h, l1w = draw(st.integers(1, 6)), draw(st.integers(1, 6))
    pads = [draw(st.integers(0, 2)) for _ in range(4)]  # left, right, top, bottom
    sw, sh = draw(st.integers(1, 3)), draw(st.integers(1, 3))
    kw, kh = draw(st.integers(1, 3)), draw(st.integers(1, 3))
    dw, dh = draw(st.integers(1, 2)), draw(st.integers(1, 2))
    ho = (l1h + pads[2] + pads[3] - ((kh - 1) * dh + 1)) // sh + 1
    wo = (l1w + pads[0] + pads[1] - ((kw - 1) * dw + 1)) // sw + 1
    assume(ho >= 1 and wo >= 1)
    k_total, m_total = channels * kh * kw, ho * wo
    k_start = c0 * draw(st.integers(0, cdiv(k_total, c0) - 1))
    k_room = k_total - k_start
    k_ext = draw(st.sampled_from(sorted({k_room, *(c0 * j for j in range(1, k_room // c0 + 1))})))
    m_start = draw(st.integers(0, m_total - 1))
    m_room = m_total - m_start
    m_ext = draw(st.sampled_from(sorted({m_room, *(16 * j for j in range(1, m_room // 16 + 1))})))
    if transpose and dtype == "float" and chip == "a2":
        assume(m_ext % 16 == 0)  # docs/load3d.md b32 Zz(Wsel^T) is stated for whole 16-row groups
    pad_value = draw(st.integers(-8, 8))
    return dict(chip=chip, dtype=dtype, dst_pos=dst_pos, transpose=transpose, channels=channels, H=l1h,
                W=l1w, pads=pads, sw=sw, sh=sh, kw=kw, kh=kh, dw=dw, dh=dh, k_start=k_start, k_ext=k_ext,
                m_start=m_start, m_ext=m_ext, pad_value=pad_value, seed=draw(st.integers(0, 1000)))


def load3d_doc(case: dict) -> dict:
    dtype = case["dtype"]
    src_pos = "A1" if case["dst_pos"] == "A2" else "B1"
    params = {"type": "LoadData3DParamsV2", "padList": case["pads"], "l1H": case["H"], "l1W": case["W"],
              "channelSize": case["channels"], "kExtension": case["k_ext"], "mExtension": case["m_ext"],
              "kStartPt": case["k_start"], "mStartPt": case["m_start"], "strideW": case["sw"],
              "strideH": case["sh"], "filterW": case["kw"], "filterH": case["kh"],
              "dilationFilterW": case["dw"], "dilationFilterH": case["dh"], "enTranspose": case["transpose"],
              "padValue": case["pad_value"]}
    return {
        "chip": case["chip"],
        "tensors": {
            "fm": {"position": src_pos, "dtype": dtype, "shape": [case["channels"], case["H"], case["W"]],
                   "layout": "fmap", "init": {"random": {"seed": case["seed"], "low": -100, "high": 100}}},
            "out": {"position": case["dst_pos"], "dtype": dtype, "length": 16384 // SIZE[dtype]},
        },
        "steps": [{"call": "LoadData", "dst": "out", "src": "fm", "params": params}],
    }


def expected_layout(case: dict) -> tuple[str, bool]:
    """(Zz | Nz, transposed) from the docs/load3d.md destination table."""
    if case["dst_pos"] == "B2":
        return "Nz", True  # Zn(Wsel) = Nz(Wsel^T), enTranspose ignored
    if case["chip"] == "a2":
        return "Zz", case["transpose"]
    return "Nz", case["transpose"]


def invert_dst(case: dict, offsets: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Destination element offset -> (window row r, window col c); -1 outside the stored window."""
    c0 = 32 // SIZE[case["dtype"]]
    fmt, tr = expected_layout(case)
    rows, cols = (case["k_ext"], case["m_ext"]) if tr else (case["m_ext"], case["k_ext"])  # stored matrix
    f, inner = offsets // (16 * c0), offsets % (16 * c0)
    ir, ic = inner // c0, inner % c0
    if fmt == "Zz":
        fr, fc = f // cdiv(cols, c0), f % cdiv(cols, c0)
    else:
        stride = cdiv(rows, 16)  # the dense column stride (A2 L0B; 950 with dstStride unset)
        fc, fr = f // stride, f % stride
    r, c = fr * 16 + ir, fc * c0 + ic
    inside = (r < rows) & (c < cols) & (fc < cdiv(cols, c0))
    if tr:
        r, c = c, r
    return np.where(inside, r, -1), np.where(inside, c, -1)


def img2col_source(case: dict, m: int, k: int) -> dict:
    """The doc formula: (c, h, w, c1, c0, kh, kw, inside) of W[m][k]."""
    c0 = 32 // SIZE[case["dtype"]]
    kh_n, kw_n, chans = case["kh"], case["kw"], case["channels"]
    full = chans - chans % c0
    if k < full * kh_n * kw_n:
        c1, rem = divmod(k, kh_n * kw_n * c0)
        kh, rem = divmod(rem, kw_n * c0)
        kw, ci = divmod(rem, c0)
        c = c1 * c0 + ci
    else:  # the packed tail group holds T = C % C0 channels per pixel
        t = chans % c0
        kh, rem = divmod(k - full * kh_n * kw_n, kw_n * t)
        kw, ci = divmod(rem, t)
        c, c1 = full + ci, full // c0
    wo_n = (case["W"] + case["pads"][0] + case["pads"][1] - ((kw_n - 1) * case["dw"] + 1)) // case["sw"] + 1
    ho, wo = divmod(m, wo_n)
    h = ho * case["sh"] + kh * case["dh"] - case["pads"][2]
    w = wo * case["sw"] + kw * case["dw"] - case["pads"][0]
    inside = 0 <= h < case["H"] and 0 <= w < case["W"]
    return dict(c=c, h=h, w=w, c1=c1, c0=ci, kh=kh, kw=kw, ho=ho, wo=wo, inside=inside)


def fmap_offset(case: dict, c: int, h: int, w: int) -> int:
    """NC1HWC0 (doc 关键分形格式详解 NC1HWC0) with the packed channel tail after the full groups."""
    c0 = 32 // SIZE[case["dtype"]]
    full = case["channels"] - case["channels"] % c0
    if c < full:
        return (((c // c0) * case["H"] + h) * case["W"] + w) * c0 + c % c0
    return full * case["H"] * case["W"] + (h * case["W"] + w) * (case["channels"] - full) + (c - full)


def check_bytes(run, prov: list[dict], dtype: str, pad_value: int | None) -> None:
    """The destination element holds exactly the bytes at the reported source address (or the pad)."""
    size = SIZE[dtype]
    for d in prov:
        dmem = run.tensors[d["dst_tensor"]].memory.data  # GM tensors have a memory of their own
        got = bytes(dmem[d["dst_byte"] : d["dst_byte"] + size])
        if d["status"] == "read":
            smem = run.tensors[d["src_tensor"]].memory.data
            assert run.tensors[d["src_tensor"]].memory.name == d["src_mem"]
            assert d["src_addr"] == f"{d['src_mem']} 0x{d['src_byte']:04x}"
            assert got == bytes(smem[d["src_byte"] : d["src_byte"] + size]), d
        elif d["status"] == "pad":
            want = np.array([pad_value], dtype=NPTYPE[dtype]).view(RAW[dtype])[0]
            assert got == np.array([want]).tobytes(), d
            assert d["pad_pattern"] == int(want)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case=load3d_cases(), data=st.data())
def test_load3d_provenance_matches_doc_formula(case, data):
    path = write_scenario("l3d", load3d_doc(case))
    run = run_scenario(load_scenario(path))
    fm, out = run.tensors["fm"], run.tensors["out"]
    c0 = 32 // SIZE[case["dtype"]]
    # every element of every fractal the window touches, plus a few random ones further on
    n_frac = cdiv(case["m_ext"], 16) * cdiv(case["k_ext"], c0) * (2 if case["dtype"] == "int8_t" else 1) + 1
    span = min(n_frac * 16 * c0, out.length)
    elems = sorted(set(data.draw(st.lists(st.integers(0, span - 1), min_size=1, max_size=150))))
    prov = provenance(run, 0, elems)
    rows, cols = invert_dst(case, np.asarray(elems))
    n_pad = 0
    for d, r, c in zip(prov, rows.tolist(), cols.tolist(), strict=True):
        if r < 0:
            assert d["status"] == "not written", d
            continue
        m, k = case["m_start"] + r, case["k_start"] + c
        want = img2col_source(case, m, k)
        assert (d["m"], d["k"]) == (m, k), d
        assert (d["kh"], d["kw"], d["ho"], d["wo"]) == (want["kh"], want["kw"], want["ho"], want["wo"]), d
        assert (d["c"], d["h"], d["w"]) == (want["c"], want["h"], want["w"]), d
        if want["inside"]:
            assert d["status"] == "read", d
            assert (d["c1"], d["c0"]) == (want["c1"], want["c0"]), d
            off = fmap_offset(case, want["c"], want["h"], want["w"])
            assert d["src_index"] == off and d["src_tensor"] == "fm"
            assert d["src_byte"] == fm.offset + off * SIZE[case["dtype"]]
        else:
            assert d["status"] == "pad", d
            n_pad += 1
        assert d["writes"] == 1
    check_bytes(run, prov, case["dtype"], case["pad_value"])
    # summary: the window rows/cols and the total pad count, from the doc formula over the whole window
    s = summary(run, 0)
    total_pad = sum(not img2col_source(case, case["m_start"] + r, case["k_start"] + c)["inside"]
                    for r in range(case["m_ext"]) for c in range(case["k_ext"]))
    assert s["pad_elements"] == total_pad
    assert s["elements_written"] == case["m_ext"] * case["k_ext"]
    assert s["overlaps"] == 0
    m0, m1 = case["m_start"], case["m_start"] + case["m_ext"] - 1
    assert s["img2col"]["rows"] == (f"{m0}" if m0 == m1 else f"{m0}-{m1}")


# -- matrix loads -----------------------------------------------------------------------------------------


def nz_coords(f: int, ir: int, ic: int, rows: int, c0: int) -> tuple[int, int]:
    """Nz (docs/layouts.md): fractal f is row block f % R1, column block f // R1."""
    r1 = cdiv(rows, 16)
    return (f % r1) * 16 + ir, (f // r1) * c0 + ic


@settings(max_examples=25, deadline=None)
@given(start=st.integers(0, 5), rep=st.integers(1, 4), stride=st.integers(0, 2), gap=st.integers(0, 2),
       transpose=st.booleans(), dst=st.sampled_from(["A2", "B2"]))
def test_load2d_provenance(start, rep, stride, gap, transpose, dst):
    """LoadData2DParams (LoadData_2D.md 表2): repeat i copies source fractal startIndex + i*srcStride to
    destination fractal i*(dstGap+1); ifTranspose transposes each 16x16 half fractal."""
    rows, cols = 64, 48  # Nz source: 4 row blocks x 3 column blocks = 12 fractals
    assume(start + (rep - 1) * stride < 12)
    doc = {"chip": "a2", "tensors": {
        "b": {"position": "B1" if dst == "B2" else "A1", "dtype": "half", "shape": [rows, cols],
              "layout": "nz", "init": {"random": {"seed": start, "low": -50, "high": 50}}},
        "o": {"position": dst, "dtype": "half", "length": 4096}},
        "steps": [{"call": "LoadData", "dst": "o", "src": "b", "params": {
            "type": "LoadData2DParams", "startIndex": start, "repeatTimes": rep, "srcStride": stride,
            "dstGap": gap, "ifTranspose": transpose}}]}
    run = run_scenario(load_scenario(write_scenario("l2d", doc)))
    last = (rep - 1) * (gap + 1)
    elems = list(range(0, (last + 2) * 256, 7))
    prov = provenance(run, 0, elems)
    for d in prov:
        f, inner = divmod(d["dst_index"], 256)
        i, rem = divmod(f, gap + 1)
        if rem or i >= rep:
            assert d["status"] == "not written", d
            continue
        r, c = divmod(inner, 16)
        if transpose:
            r, c = c, r
        assert d["status"] == "read"
        assert (d["src_fractal"], d["frac_row"], d["frac_col"]) == (start + i * stride, r, c), d
        assert (d["row"], d["col"]) == nz_coords(start + i * stride, r, c, rows, 16), d
        assert d["src_byte"] == run.tensors["b"].offset + ((start + i * stride) * 256 + r * 16 + c) * 2
    check_bytes(run, prov, "half", None)
    assert summary(run, 0)["fractals_written"] == [i * (gap + 1) for i in range(rep)]


def test_nd2nz_provenance_and_pads():
    """DataCopy ND2NZ (DataCopy ND2NZ 表3): dst (r, c) of each C0 column block <- ND (r, c); columns
    [dValue, align(dValue, C0)) are zero-filled."""
    doc = {"chip": "a2", "tensors": {
        "g": {"position": "GM", "dtype": "half", "shape": [20, 24], "init": "arange"},
        "l1": {"position": "A1", "dtype": "half", "length": 1024}},
        "steps": [{"call": "DataCopy", "dst": "l1", "src": "g", "params": {
            "type": "Nd2NzParams", "ndNum": 1, "nValue": 20, "dValue": 24, "srcNdMatrixStride": 0,
            "srcDValue": 24, "dstNzC0Stride": 32, "dstNzNStride": 1, "dstNzMatrixStride": 0}}]}
    run = run_scenario(load_scenario(write_scenario("nd2nz", doc)))
    prov = provenance(run, 0, range(1024))
    for d in prov:
        blk, rem = divmod(d["dst_index"], 32 * 16)  # C0 column block b starts at b * dstNzC0Stride * 16
        r, ci = divmod(rem, 16)
        c = blk * 16 + ci
        if r >= 20:
            assert d["status"] == "not written", d
        elif c >= 24:
            assert d["status"] == "pad" and d["pad_pattern"] == 0, d
        else:
            assert d["status"] == "read" and (d["row"], d["col"]) == (r, c), d
            assert d["src_byte"] == run.tensors["g"].offset + (r * 24 + c) * 2
    check_bytes(run, prov, "half", 0)
    assert summary(run, 0)["pad_elements"] == 20 * 8


def test_transpose_provenance():
    """LoadDataWithTranspose b16 (doc 表3): dst fractal i*(dstGap+1) = (source square startIndex + i)^T."""
    doc = {"chip": "a2", "tensors": {
        "b": {"position": "B1", "dtype": "half", "length": 1024, "init": "arange"},
        "o": {"position": "B2", "dtype": "half", "length": 1024}},
        "steps": [{"call": "LoadDataWithTranspose", "dst": "o", "src": "b", "params": {
            "type": "LoadData2dTransposeParams", "startIndex": 1, "repeatTimes": 2, "srcStride": 1,
            "dstGap": 1}}]}
    run = run_scenario(load_scenario(write_scenario("tr", doc)))
    prov = provenance(run, 0, range(1024))
    for d in prov:
        f, inner = divmod(d["dst_index"], 256)
        if f % 2:
            assert d["status"] == "not written"
            continue
        r, c = divmod(inner, 16)
        assert (d["src_fractal"], d["frac_row"], d["frac_col"]) == (1 + f // 2, c, r)
    check_bytes(run, prov, "half", None)


# -- overlaps, errors, text, CLI --------------------------------------------------------------------------


def test_overlap_is_reported_and_last_write_wins():
    """LoadData2Dv2 with dstStride < mStep: the next column overwrites the overflow (divergences.md D4)."""
    doc = {"chip": "ascend950", "tensors": {
        "a": {"position": "A1", "dtype": "half", "shape": [32, 32], "layout": "nz", "init": "arange"},
        "o": {"position": "A2", "dtype": "half", "length": 2048}},
        "steps": [{"call": "LoadData", "dst": "o", "src": "a", "params": {
            "type": "LoadData2DParamsV2", "mStartPosition": 0, "kStartPosition": 0, "mStep": 2, "kStep": 2,
            "srcStride": 2, "dstStride": 1}}]}
    run = run_scenario(load_scenario(write_scenario("ov", doc)))
    s = summary(run, 0)
    # columns kk write fractals kk*1 + mm: fractal 1 is written by (kk 0, mm 1) then (kk 1, mm 0)
    assert s["overlaps"] == 256
    d = provenance(run, 0, [256 + 5])[0]
    assert d["writes"] == 2 and d["src_fractal"] == 2  # source (kStart+1)*srcStride + 0 = 2 wins
    assert "OVERLAP" in explain_step(run, 0)


@pytest.mark.parametrize(("query", "match"), [
    pytest.param(lambda run: explain_step(run, 1), r"^explain: step must be in \[0, 0\]", id="step-1"),
    pytest.param(lambda run: explain_step(run, 0, dst_index=10**6), r"^explain: dst must be an element index",
                 id="dst-10**6"),
    pytest.param(lambda run: explain_step(run, 0, fractal=10**4), r"^explain: fractal must be in",
                 id="fractal-10**4"),
])
def test_bad_queries_raise(query, match: str):
    path = write_scenario("l3d_fixed", load3d_doc(dict(
        chip="a2", dtype="half", dst_pos="A2", transpose=False, channels=16, H=3, W=3, pads=[1, 1, 1, 1],
        sw=1, sh=1, kw=2, kh=2, dw=1, dh=1, k_start=0, k_ext=64, m_start=0, m_ext=16, pad_value=3, seed=1)))
    run = run_scenario(load_scenario(path))
    with pytest.raises(BoundsError, match=match):
        query(run)


def test_cli_explain_one_element(capsys):
    case = dict(chip="a2", dtype="half", dst_pos="A2", transpose=False, channels=16, H=3, W=3,
                pads=[1, 1, 1, 1], sw=1, sh=1, kw=2, kh=2, dw=1, dh=1, k_start=0, k_ext=64, m_start=0,
                m_ext=16, pad_value=3, seed=1)
    path = write_scenario("cli", load3d_doc(case))
    # docs/load3d.md example: W[5][37] = (ho 1, wo 1; c1 0, kh 1, kw 0, c0 5) reads X(c 5, h 1, w 0).
    # Zz with K' = 64: fractal (0, 37 // 16 = 2), inner (5, 5) -> offset 2*256 + 5*16 + 5.
    assert main(["explain", str(path), "--step", "0", "--dst", str(2 * 256 + 5 * 16 + 5)]) == 0
    out = capsys.readouterr().out
    addr = fmap_offset(case, 5, 1, 0) * 2
    assert f"L1 0x{addr:04x}: c 5 h 1 w 0 (c1 0, c0 5)" in out
    assert "img2col (m 5, k 37)" in out
    assert main(["explain", str(path), "--step", "0", "--fractal", "2"]) == 0
    assert "destination fractal 2 (256 elements)" in capsys.readouterr().out
    assert main(["explain", str(path), "--step", "0", "--dst", "99999"]) == 2
    assert "explain: dst must be an element index" in capsys.readouterr().err


def test_plan_repr_counts():
    path = write_scenario("repr", load3d_doc(dict(
        chip="a2", dtype="half", dst_pos="A2", transpose=False, channels=16, H=3, W=3, pads=[1, 1, 1, 1],
        sw=1, sh=1, kw=2, kh=2, dw=1, dh=1, k_start=0, k_ext=64, m_start=0, m_ext=16, pad_value=3, seed=1)))
    run = run_scenario(load_scenario(path))
    plan = run.results[0].report.plan
    text = repr(plan)
    # 16 x 64 window = 1024 elements in 4 fractals; pads from the doc formula
    case = dict(dtype="half", channels=16, H=3, W=3, pads=[1, 1, 1, 1], sw=1, sh=1, kw=2, kh=2, dw=1, dh=1)
    pads = sum(not img2col_source(case, m, k)["inside"] for m in range(16) for k in range(64))
    assert text.startswith("<Plan Load3Dv2 b16: 1024 elements") and f", {pads} pad, 4 fractals" in text
    assert "\n" not in text
    # Plans keep a text repr only: pictures belong above draw/explain (docs/architecture.md "Pictures
    # import downward")
    assert not hasattr(plan, "_repr_html_") and not hasattr(plan, "_repr_svg_")


def test_boundary_wrapped_reads_in_span_and_addresses():
    """SetLoadDataBoundary(1024) with the map at 0x200 (examples/load3d_boundary_a2.toml): every reported
    source address lies below the boundary and equals (0x200 + byte offset) mod 1024 (SetLoadDataBoundary.md:
    past the boundary, reads restart at the L1 start)."""
    path = EXAMPLES / "load3d_boundary_a2.toml"
    sc = load_scenario(path)
    step = [s.call for s in sc.steps].index("LoadData")
    run = run_scenario(sc, upto=step)
    mem, lo, hi = summary(run, step)["src_span"]
    assert (mem, lo, hi) == ("L1", 0, 1023)
    src = run.tensors["fmap"]
    for d in provenance(run, step, range(0, 2048, 7)):
        if d["status"] == "read":
            assert d["src_byte"] == (src.offset + d["src_index"] * 2) % 1024


# -- second parts: the sparse index copy and the MX scale copy ----------------------------------------------


def sparse_doc(start: int, rep: int) -> dict:
    """LoadDataWithSparse into L0B at byte 2048 (so its index goes to SPARSE_IDX 2048 / 4 = 512)."""
    return {"chip": "a2", "tensors": {
        "b1": {"position": "B1", "dtype": "int8_t", "length": 2048,
               "init": {"random": {"seed": 3, "low": -100, "high": 100}}},
        "idx": {"position": "B1", "dtype": "uint8_t", "length": 512, "init": {"random": {"seed": 4}}},
        "b2": {"position": "B2", "dtype": "int8_t", "length": 4096}},
        "steps": [{"call": "LoadDataWithSparse", "dst": {"tensor": "b2", "index": 2048}, "src": "b1",
                   "idx": "idx", "params": {"type": "LoadData2DParams", "startIndex": start,
                                            "repeatTimes": rep}}]}


@pytest.mark.parametrize(("start", "rep"), [(0, 2), (1, 3), (3, 1)])
def test_sparse_index_part_provenance(start, rep):
    """LoadDataWithSparse.md: iteration i copies index fractal startIndex+i (128 B of the L1 index, Zn 16 x 8
    bytes) to the sparse index buffer; ascsim places that buffer at the L0B byte address / 4
    (docs/divergences.md S2), so fractal i lands at SPARSE_IDX 2048/4 + 128*i."""
    run = run_scenario(load_scenario(write_scenario("sp_idx", sparse_doc(start, rep))))
    idx = run.tensors["idx"]
    buf = run.core.memory("SPARSE_IDX").data
    base = 2048 // 4
    prov = provenance(run, 0, range((rep + 1) * 128), part="index")
    for d in prov:
        e = d["dst_index"]
        i, j = divmod(e, 128)
        assert d["part"] == "index" and d["dst_byte"] == base + e, d
        assert d["dst_addr"] == f"SPARSE_IDX 0x{base + e:04x}"
        assert (d["dst_fractal"], d["dst_row"], d["dst_col"]) == (i, j // 8, j % 8), d
        if i >= rep:
            assert d["status"] == "not written", d
            continue
        want = (start + i) * 128 + j
        assert d["status"] == "read" and d["src_tensor"] == "idx" and d["src_index"] == want, d
        assert d["src_byte"] == idx.offset + want and d["src_mem"] == "L1"
        assert (d["src_fractal"], d["frac_row"], d["frac_col"]) == (start + i, j // 8, j % 8)
        assert buf[d["dst_byte"]] == idx.memory.data[d["src_byte"]]  # and the bytes really moved
    s = summary(run, 0)["second_part"]
    assert s["fractals_written"] == list(range(rep)) and s["elements_written"] == rep * 128
    assert s["src_span"] == ("L1", idx.offset + start * 128, idx.offset + (start + rep) * 128 - 1)
    text = explain_step(run, 0)
    assert f"+ index: SPARSE_IDX[b2] (SPARSE_IDX 0x{base:04x}, uint8_t) = L0B address / 4" in text
    e = (rep - 1) * 128 + 2  # last fractal, row 0, byte 2
    one = explain_step(run, 0, dst_index=e, part="index")
    assert f"dst[{e}] SPARSE_IDX 0x{base + e:04x} (fractal {rep - 1} row 0 col 2)" in one
    src = (start + rep - 1) * 128 + 2
    assert f"idx[{src}] L1 0x{idx.offset + src:04x}: fractal {start + rep - 1} row 0 col 2" in one


MX_A = {"mStartPosition": 0, "kStartPosition": 0, "mStep": 2, "kStep": 4, "srcStride": 2, "dstStride": 2,
        "ifTranspose": False}


def mx_doc(mx: dict) -> dict:
    """Load2DMX on 950 into L0A at byte 1024 (scales at L0A_MX 1024 / 16 = 64)."""
    n_scale = 384
    return {"chip": "ascend950", "tensors": {
        "a1": {"position": "A1", "dtype": "fp8_e4m3fn_t", "shape": [32, 128], "layout": "nz",
               "init": {"random": {"seed": 5}}},
        # distinct e8m0 bytes per position: 2^(E-127) with E = (i % 250) + 2
        "sa": {"position": "A1", "dtype": "fp8_e8m0_t", "length": n_scale,
               "init": {"values": [2.0 ** ((i % 250) + 2 - 127) for i in range(n_scale)]}},
        "a2": {"position": "A2", "dtype": "mx_fp8_e4m3_t", "length": 8192}},
        "steps": [{"call": "LoadData", "dst": {"tensor": "a2", "index": 1024}, "src": "a1", "src_mx": "sa",
                   "params": {"type": "LoadData2DParamsV2", **MX_A},
                   "mx_params": {"type": "LoadData2DMxParams", **mx}}]}


@pytest.mark.parametrize("mx", [
    dict(xStartPosition=0, yStartPosition=0, xStep=2, yStep=2, srcStride=2, dstStride=2),
    dict(xStartPosition=1, yStartPosition=1, xStep=2, yStep=2, srcStride=3, dstStride=3),
    dict(xStartPosition=2, yStartPosition=0, xStep=1, yStep=3, srcStride=4, dstStride=5),
])
def test_mx_scale_part_provenance(mx):
    """LoadData_2D_MX.md 表3 + its start-address formula: 32-B scale unit (x, y) goes from srcMx +
    ((xStart+x)*srcStride + yStart + y)*32 to L0A_MX (L0A address / 16) + (x*dstStride + y)*32."""
    run = run_scenario(load_scenario(write_scenario("mx_sc", mx_doc(mx))))
    sa = run.tensors["sa"]
    mxmem = run.core.memory("L0A_MX").data
    base = 1024 // 16
    want: dict[int, int] = {}
    for x in range(mx["xStep"]):
        for y in range(mx["yStep"]):
            for b in range(32):
                s = ((mx["xStartPosition"] + x) * mx["srcStride"] + mx["yStartPosition"] + y) * 32 + b
                want[(x * mx["dstStride"] + y) * 32 + b] = s
    span = max(want) + 64
    prov = provenance(run, 0, range(span), part="scales")
    for d in prov:
        e = d["dst_index"]
        assert d["part"] == "scales" and d["dst_byte"] == base + e
        assert d["dst_addr"] == f"L0A_MX 0x{base + e:04x}"
        assert (d["dst_fractal"], d["dst_row"], d["dst_col"]) == (e // 32, e % 32 // 2, e % 2), d
        if e not in want:
            assert d["status"] == "not written", d
            continue
        assert d["status"] == "read" and d["src_tensor"] == "sa" and d["src_index"] == want[e], d
        assert d["src_byte"] == sa.offset + want[e]
        s = want[e]
        assert (d["src_fractal"], d["frac_row"], d["frac_col"]) == (s // 32, s % 32 // 2, s % 2)
        assert mxmem[d["dst_byte"]] == sa.memory.data[d["src_byte"]]
    s = summary(run, 0)
    assert s["second_part"]["elements_written"] == len(want)
    assert s["second_part"]["fractals_written"] == sorted({e // 32 for e in want})
    assert s["fractals_written"] == list(range(8))  # the data part is still the main summary
    assert "+ scales: L0A_MX[a2] (L0A_MX 0x0040, fp8_e8m0_t) = L0A address / 16" in explain_step(run, 0)


def test_part_names_are_checked():
    run = run_scenario(load_scenario(write_scenario("mx_bad", mx_doc(
        dict(xStartPosition=0, yStartPosition=0, xStep=1, yStep=1, srcStride=1, dstStride=1)))))
    with pytest.raises(ParamRangeError, match=r"^explain: part must be data or scales for step 0 "
                                              r"\(LoadData\), but got 'index'"):
        explain_step(run, 0, part="index")
    sp = run_scenario(load_scenario(write_scenario("sp_bad", sparse_doc(0, 1))))
    with pytest.raises(ParamRangeError, match=r"^explain: part must be data or index"):
        provenance(sp, 0, [0], part="scales")
    # the index region of the 2048-B L0B operand: 2048 / 4 B = fractals 0..3 of 128 B
    with pytest.raises(BoundsError, match=r"^explain: fractal must be in \[0, 3\] \(128-B fractals"):
        explain_step(sp, 0, fractal=4, part="index")
