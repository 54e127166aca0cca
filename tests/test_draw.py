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

import pytest

pytest.importorskip("matplotlib")

from ascsim.cli import main  # noqa: E402
from ascsim.draw import fractal_colours, group_colours  # noqa: E402
from ascsim.explain import provenance, summary  # noqa: E402
from ascsim.scenario import load_scenario, run_scenario  # noqa: E402

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
    assert main(["draw", str(path), "--step", "0", "-o", str(out)]) == 0
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
    (c1, kh, kw) = (0,1,0), (0,1,1), then the packed tail group (2, ...) (CONCEPTS §3.1 column order)."""
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
    run = run_scenario(load_scenario(scenario("load2d", LOAD2D)))
    t = run.tensors["b"]  # 48 x 32 Nz half = 6 fractals, arange
    html = t._repr_html_()
    assert html.count("<table") == 1 + 6 and "F5 @0x" in html
    # arange over the logical 48 x 32 matrix, laid out Nz: fractal 1 = row block 1, column block 0, so its
    # first elements are logical (16, 0) = 512 and (16, 1) = 513; fractal 3 = (0, 16) = 16
    assert ">512</td>" in html and ">513</td>" in html and ">16</td>" in html
    big = run.tensors["l0b"].reinterpret("int8_t")  # 4096 B = 8 fractals: capped at 8 shown, none extra
    assert big._repr_html_().count("<table") == 1 + 8
    huge = run.core.tensor("A1", "half", 65536)
    h = huge._repr_html_()
    assert "more fractal(s)" in h and len(h) < 40_000
