"""`ascsim draw`: the SVG has one shape per destination fractal whose fill is the colour of the fractal's
dominant source group, as computed from `explain.provenance` (an independent code path: per-element
dicts instead of draw's vectorised group arrays); PNG output is a real PNG; notebook reprs."""

from __future__ import annotations

import json
import re
import struct
import xml.etree.ElementTree as ET
from collections import Counter
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("matplotlib")

from support.paths import EXAMPLES  # noqa: E402

from ascsim.cli import main  # noqa: E402
from ascsim.scenario import load_scenario, run_scenario  # noqa: E402
from ascsim.view.draw import fractal_colours, group_colours  # noqa: E402
from ascsim.view.explain import provenance, summary  # noqa: E402

TMP = Path(".")  # set per module by the fixture below (pytest-managed temporary directory)


@pytest.fixture(scope="module", autouse=True)
def _scenario_dir(tmp_path_factory):
    global TMP
    TMP = tmp_path_factory.mktemp("draw")
PAD_GREY = "#bdbdbd"


def scenario(name: str, doc: dict) -> Path:
    path = TMP / f"{name}.json"
    path.write_text(json.dumps(doc))
    return path


LOAD3D = {"chip": "a2", "tensors": {
    "fm": {"position": "A1", "dtype": "half", "shape": [36, 3, 4], "layout": "fmap", "init": "arange"},
    "l0a": {"position": "A2", "dtype": "half", "length": 4096}},
    "steps": [{"call": "LoadData", "dst": "l0a", "src": "fm", "params": {
        "type": "LoadData3DParamsV2", "padList": [1, 0, 1, 1], "l1H": 3, "l1W": 4, "channelSize": 36,
        "kExtension": 96, "mExtension": 16, "kStartPt": 32, "strideW": 1, "strideH": 1, "filterW": 2,
        "filterH": 2, "padValue": 2.0}}]}
LOAD2D = {"chip": "a2", "tensors": {
    "b": {"position": "B1", "dtype": "half", "shape": [48, 32], "layout": "nz", "init": "arange"},
    "l0b": {"position": "B2", "dtype": "half", "length": 2048}},
    "steps": [{"call": "LoadData", "dst": "l0b", "src": "b", "params": {
        "type": "LoadData2DParams", "startIndex": 1, "repeatTimes": 3, "srcStride": 2, "dstGap": 1,
        "ifTranspose": True}}]}
ND2NZ = {"chip": "a2", "tensors": {
    "g": {"position": "GM", "dtype": "half", "shape": [20, 24], "init": "arange"},
    "l1": {"position": "A1", "dtype": "half", "length": 1024}},
    "steps": [{"call": "DataCopy", "dst": "l1", "src": "g", "params": {
        "type": "Nd2NzParams", "ndNum": 1, "nValue": 20, "dValue": 24, "srcNdMatrixStride": 0,
        "srcDValue": 24, "dstNzC0Stride": 32, "dstNzNStride": 1, "dstNzMatrixStride": 0}}]}
CASES = {"load3d": LOAD3D, "load2d": LOAD2D, "nd2nz": ND2NZ}


def prov_key(d: dict, kind: str) -> tuple | str | None:
    """Colour group of one provenance dict, from the documented grouping (draw.py docstring)."""
    if d["status"] == "pad":
        return "pad"
    if d["status"] != "read":
        return None
    if kind == "load3d":
        return (d["c1"], d["kh"], d["kw"])
    if kind == "nd2nz":  # ND source: its 16 x C0 tiles
        return (d["row"] // 16, d["col"] // 16, 0)
    return (d["src_fractal"], 0, 0)


def svg_fills(path: Path) -> dict[int, str]:
    root = ET.parse(path).getroot()  # valid XML or this raises
    fills: dict[int, str] = {}
    for el in root.iter():
        m = re.fullmatch(r"dst-fractal-(\d+)", el.get("id", ""))
        if not m:
            continue
        i = int(m.group(1))
        assert i not in fills, f"two elements with id dst-fractal-{i}"
        styles = [e.get("style", "") for e in el.iter()]
        fill = [re.search(r"fill:\s*(#[0-9a-fA-F]{6})", s) for s in styles]
        fills[i] = next(f.group(1).lower() for f in fill if f)
    return fills


@pytest.mark.parametrize("kind", sorted(CASES))
def test_svg_fractal_shapes_match_provenance(kind):
    path = scenario(kind, CASES[kind])
    run = run_scenario(load_scenario(path))
    out = TMP / f"{kind}.svg"
    assert main(["draw", str(path), "--step", "0", "-o", str(out), "--region", "all"]) == 0
    fills = svg_fills(out)
    written = summary(run, 0)["fractals_written"]
    # one shape per destination fractal from 0 to the last one written (gaps drawn as white fractals)
    assert sorted(fills) == list(range(written[-1] + 1))
    assert fills == {i: c.lower() for i, c in fractal_colours(run, 0).items()}
    colours = {k: c.lower() for k, c in group_colours(run, 0).items()}
    assert len(set(colours.values())) == len(colours)  # distinct groups, distinct colours
    assert PAD_GREY not in colours.values() and "#ffffff" not in colours.values()
    fe = 256  # half: 512-B fractal = 256 elements
    for f, fill in fills.items():
        prov = provenance(run, 0, range(f * fe, (f + 1) * fe))
        counts = Counter(k for k in (prov_key(d, kind) for d in prov) if k is not None)
        if not counts:
            assert fill == "#ffffff" and f not in written
            continue
        best = max(counts.values())
        allowed = {PAD_GREY if k == "pad" else colours[k] for k, n in counts.items() if n == best}
        assert fill in allowed, (f, fill, counts.most_common(3))


def test_load3d_groups_cover_the_window():
    """kStartPt 32 with C0 16, Kh = Kw = 2: the window's columns 32..127 are the C0 blocks of
    (c1, kh, kw) = (0,1,0), (0,1,1), then the packed tail group (2, ...) (docs/load3d.md column order)."""
    run = run_scenario(load_scenario(scenario("load3d", LOAD3D)))
    keys = set(group_colours(run, 0))
    assert {(0, 1, 0), (0, 1, 1), (1, 0, 0), (1, 0, 1), (1, 1, 0), (1, 1, 1)} <= keys
    assert all(k[0] in (0, 1, 2) for k in keys)


def test_png_signature_and_size():
    path = scenario("load3d", LOAD3D)
    out = TMP / "step.png"
    assert main(["draw", str(path), "--step", "0", "-o", str(out)]) == 0
    data = out.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", data[16:24])  # IHDR
    assert 400 <= width <= 4000 and 200 <= height <= 3000


def test_bad_output_suffix(capsys):
    assert main(["draw", str(scenario("load2d", LOAD2D)), "--step", "0", "-o", str(TMP / "x.jpg")]) == 2
    assert "draw: out_path must end in .svg or .png" in capsys.readouterr().err


def test_local_tensor_html_is_capped():
    """`ascsim.view.tensor_html` (LocalTensor itself keeps a text repr, docs/architecture.md
    "Pictures import downward")."""
    from ascsim.view.history import tensor_html

    run = run_scenario(load_scenario(scenario("load2d", LOAD2D)))
    t = run.tensors["b"]  # 48 x 32 Nz half = 6 fractals, arange
    assert not hasattr(t, "_repr_html_")
    html = tensor_html(t)
    assert html.count("<table") == 1 + 6 and "F5 @0x" in html
    # arange over the logical 48 x 32 matrix, laid out Nz: fractal 1 = row block 1, column block 0, so its
    # first elements are logical (16, 0) = 512 and (16, 1) = 513; fractal 3 = (0, 16) = 16
    assert ">512</td>" in html and ">513</td>" in html and ">16</td>" in html
    big = run.tensors["l0b"].reinterpret("int8_t")  # 4096 B = 8 fractals: capped at 8 shown, none extra
    assert tensor_html(big).count("<table") == 1 + 8
    huge = run.core.tensor("A1", "half", 65536)
    h = tensor_html(huge)
    assert "more fractal(s)" in h and len(h) < 40_000
    # never-written memory (the 0xCD fill marker) shows as "_", not as the half value -23.2
    assert ">_</td>" in h and "-23.2" not in h


def test_local_tensor_text_repr_shows_values():
    """repr(t): the head, then the first values and the last ones; the fill marker shows as `_`."""
    from ascsim import Core

    core = Core("a2")
    t = core.tensor("A2", "half", 2048)
    t.write(np.array([1.5, 2.0, -3.0]))
    text = repr(t)
    assert text.startswith("LocalTensor<half>(A2/L0A @0x0, 2048 elems, 4096 B) "
                           "[1.5, 2, -3, _, _, _, _, _, ..., _, _]") and "never written" in text
    small = core.tensor("A1", "int8_t", 5, data=[1, -2, 3, 4, 5])
    assert repr(small).endswith("[1, -2, 3, 4, 5]")


# -- second parts, the boundary wrap, SVG size ---------------------------------------------------------------


def svg_ids(path: Path, prefix: str) -> dict[int, str]:
    """{i: fill} of the elements with id `<prefix>-<i>` (each id at most once)."""
    root = ET.parse(path).getroot()
    fills: dict[int, str] = {}
    for el in root.iter():
        m = re.fullmatch(rf"{prefix}-(\d+)", el.get("id", ""))
        if m:
            i = int(m.group(1))
            assert i not in fills, f"two elements with id {prefix}-{i}"
            style = next(s for s in (e.get("style", "") for e in el.iter()) if "fill:" in s)
            fills[i] = re.search(r"fill:\s*(#[0-9a-fA-F]{6})", style).group(1).lower()
    return fills


@pytest.mark.parametrize(("example", "step", "part", "unit"), [
    ("sparse_matmul", 1, "index", 128), ("mx_matmul", 0, "scales", 32), ("mx_matmul", 1, "scales", 32)])
def test_second_part_row(example, step, part, unit):
    """The SVG has one `dst-fractal-i` per destination fractal of the data part and one `aux-fractal-i` per
    fractal of the second part; each aux fractal is filled with the colour of the source fractal it copies,
    read off `explain.provenance(part=...)` (sparse: index fractal startIndex+i -> fractal i, 128 B; MX:
    32-B scale units)."""
    sc = load_scenario(EXAMPLES / f"{example}.toml")
    run = run_scenario(sc, upto=step)
    out = TMP / f"{example}_{step}.svg"
    assert main(["draw", str(EXAMPLES / f"{example}.toml"), "--step", str(step), "-o", str(out),
                 "--region", "all"]) == 0
    main_fills = svg_ids(out, "dst-fractal")
    assert sorted(main_fills) == list(range(summary(run, step)["fractals_written"][-1] + 1))
    aux = svg_ids(out, "aux-fractal")
    written = summary(run, step, part)["fractals_written"]
    assert sorted(aux) == list(range(written[-1] + 1))
    colours = {k[0]: c.lower() for k, c in group_colours(run, step, part).items()}
    for f, fill in aux.items():
        prov = provenance(run, step, range(f * unit, (f + 1) * unit), part=part)
        srcs = Counter(d["src_fractal"] for d in prov if d["status"] == "read")
        if not srcs:
            assert fill == "#ffffff"
            continue
        assert fill == colours[srcs.most_common(1)[0][0]], (f, fill, srcs)
    assert aux == {i: c.lower() for i, c in fractal_colours(run, step, part).items()}


def test_sparse_aux_fractals_follow_the_index_fractals():
    """LoadDataWithSparse.md: fractal i of the index buffer is index fractal startIndex + i, so with
    startIndex 0 aux fractal i has the colour of index fractal i (distinct per fractal)."""
    run = run_scenario(load_scenario(EXAMPLES / "sparse_matmul.toml"), upto=1)
    colours = group_colours(run, 1, "index")
    fills = fractal_colours(run, 1, "index")
    assert set(colours) == {(0, 0, 0), (1, 0, 0)}
    assert fills == {0: colours[(0, 0, 0)], 1: colours[(1, 0, 0)]}


def test_boundary_wrap_is_marked():
    """examples/load3d_boundary_a2.toml: the map starts at L1 byte 512 with 16-channel half groups of 512 B,
    SetLoadDataBoundary(1024): group c1 lies at 512 + 512*c1, so every read pixel of c1 = 1 (and only those)
    is at/past the boundary and read through the wrap (SetLoadDataBoundary.md). Destination: Zz of the
    16 x 128 img2col (2x2 kernel, dilation 2, pad 1, Wo = 4): column k reads c1 = k // 64, so the wrapped
    elements are k >= 64 at rows m whose (h, w) lies inside the map."""
    from ascsim.view.draw import groups, wrapped_pixels

    path = EXAMPLES / "load3d_boundary_a2.toml"
    run = run_scenario(load_scenario(path), upto=1)
    out = TMP / "boundary.svg"
    assert main(["draw", str(path), "--step", "1", "-o", str(out), "--region", "all"]) == 0
    text = out.read_text()
    ids = set(re.findall(r'id="wrap-src-(\d+)-(\d+)-(\d+)"', text))
    read = set()  # pixels the img2col reads: h = ho + 2*kh - 1, w = wo + 2*kw - 1
    for ho in range(4):
        for wo in range(4):
            for kh in range(2):
                for kw in range(2):
                    h, w = ho + 2 * kh - 1, wo + 2 * kw - 1
                    if 0 <= h < 4 and 0 <= w < 4:
                        read.add((h, w))
    want = {(1, h, w) for h, w in read if 512 + ((1 * 4 + h) * 4 + w) * 32 >= 1024}
    assert {tuple(map(int, t)) for t in ids} == want
    g = groups(run, 1)
    assert wrapped_pixels(g) == want
    expect = set()
    for m in range(16):
        ho, wo = divmod(m, 4)
        for k in range(64, 128):
            kh, kw = (k - 64) // 32, (k - 64) // 16 % 2
            h, w = ho + 2 * kh - 1, wo + 2 * kw - 1
            if 0 <= h < 4 and 0 <= w < 4:
                expect.add((k // 16) * 256 + m * 16 + k % 16)  # Zz, one fractal row of 8 fractals
    assert set(np.flatnonzero(g.wrapped).tolist()) == expect
    assert "wrapped at boundary 1024 B" in text  # legend (matplotlib keeps the string as an SVG comment)


def test_committed_pictures_stay_small():
    """Labels are capped so every committed docs/img picture stays under ~300 KB."""
    imgs = sorted((EXAMPLES.parent / "docs" / "img").glob("*.svg"))
    assert imgs
    for p in imgs:
        assert p.stat().st_size < 300_000, (p.name, p.stat().st_size)
