"""examples/notebook.ipynb as a user meets it (issue 19): executed by a real Jupyter kernel (nbclient),
converted to HTML by nbconvert, the page loaded in headless Chromium. The DOM must hold the Load3D and the
LoadDataWithTranspose reports as pictures (an <svg> with a nonzero size inside those cells' outputs) whose
captions carry the names the notebook gave the tensors, and a refusal's traceback must show the user's
line without ascsim's frames.

nbclient / nbformat / nbconvert / ipykernel are test dependencies (`pip install -e '.[test]'`): without them
this module fails to import, it is not skipped. Only a missing Chromium skips (.ci/run installs it)."""

from __future__ import annotations

import os
import re

import nbclient
import nbformat
import pytest
from nbconvert import HTMLExporter
from support.cdp import Browser, find_chromium
from support.paths import EXAMPLES, SRC

NOTEBOOK = EXAMPLES / "notebook.ipynb"
CHROMIUM = find_chromium()


@pytest.fixture(scope="module")
def executed(tmp_path_factory):
    """The notebook executed in a fresh kernel that imports this checkout's ascsim."""
    work = tmp_path_factory.mktemp("nb")
    nb = nbformat.read(NOTEBOOK, as_version=4)
    old = os.environ.get("PYTHONPATH")
    os.environ["PYTHONPATH"] = os.pathsep.join([str(SRC), *([old] if old else [])])
    os.environ.pop("ASCSIM_TRACEBACK", None)
    try:
        nbclient.NotebookClient(nb, timeout=600, kernel_name="python3",
                                resources={"metadata": {"path": str(work)}}).execute()
    finally:
        if old is None:
            os.environ.pop("PYTHONPATH", None)
        else:
            os.environ["PYTHONPATH"] = old
    return nb, work


def _cell(nb, tag: str):
    return next(c for c in nb.cells if tag in c.get("metadata", {}).get("tags", []))


def test_outputs_carry_the_picture_as_html(executed):
    """What the kernel sent: the reports and drawings as text/html holding one inline <svg> (no XML prolog)
    and a short text/plain; explanations as their text."""
    nb, _ = executed
    for tag in ("load3d", "load3d-draw", "ldwt", "ldwt-draw"):
        (out,) = _cell(nb, tag).outputs
        page = out["data"]["text/html"]
        assert page.count("<svg") == 1 and "<?xml" not in page, tag
        assert len(out["data"]["text/plain"]) < 300, tag  # not 60 KB of XML
    text = _cell(nb, "load3d-explain").outputs[0]["data"]["text/plain"]
    assert text.startswith("call 0: Load3Dv2 -> Load3Dv2  LoadData3DParamsV2{padList=[1, 1, 1, 1], l1H=6")
    assert "dst col (L0A 0x0000, half)  <-  src fmap (L1 0x0000, half)" in text and "dst[37]" in text
    text = _cell(nb, "ldwt-explain").outputs[0]["data"]["text/plain"]
    assert "LoadData2dTransposeParams{startIndex=0, repeatTimes=3" in text and "<- weights[" in text


def test_refusal_shows_the_users_line_only(executed):
    nb, _ = executed
    (err,) = _cell(nb, "refusal").outputs
    assert err["output_type"] == "error" and err["ename"] == "ParamRangeError"
    tb = re.sub(r"\x1b\[[0-9;]*m", "", "\n".join(err["traceback"]))
    assert "core.load_data(col, fmap, bad)" in tb and "kExtension=160" in tb
    assert not re.search(r"ascsim[/\\](isa|engine|core\.py|machine)|<ascsim\.Core", tb), tb


def test_html_page_shows_pictures_with_the_tensor_names(executed):
    if CHROMIUM is None:
        pytest.skip("no Chromium executable on PATH (Debian: apt-get install chromium; .ci/run does it)")
    nb, work = executed
    body, _ = HTMLExporter().from_notebook_node(nb)
    page = work / "notebook.html"
    page.write_text(body, encoding="utf-8")
    b = Browser(CHROMIUM)
    try:
        b.open(page.as_uri())
        for tag, names in (("load3d", ("col", "fmap")), ("load3d-draw", ("col", "fmap")),
                           ("ldwt", ("weights_t", "weights")), ("ldwt-draw", ("weights_t", "weights"))):
            found = b.eval(f"""(() => {{
                const cell = document.querySelector('.celltag_{tag}');
                if (!cell) return null;
                return [...cell.querySelectorAll('.jp-OutputArea-output svg')].map(s => {{
                    const r = s.getBoundingClientRect();
                    return {{w: r.width, h: r.height, text: s.textContent}};
                }});
            }})()""")
            assert found, f"no <svg> in the output of cell {tag}"
            (svg,) = found
            assert svg["w"] > 200 and svg["h"] > 100, (tag, svg["w"], svg["h"])
            dst, src = names
            assert f"destination {dst} (" in svg["text"] and f"source {src} (" in svg["text"], tag
    finally:
        b.close()


def test_two_pictures_on_one_page_keep_their_own_styles(executed):
    """Inline SVGs share the page's CSS: each picture's text classes are its own, so a caption keeps the
    anchor its picture gave it (a later picture once re-anchored earlier captions to "middle")."""
    if CHROMIUM is None:
        pytest.skip("no Chromium executable on PATH (Debian: apt-get install chromium; .ci/run does it)")
    nb, work = executed
    body, _ = HTMLExporter().from_notebook_node(nb)
    page = work / "styles.html"
    page.write_text(body, encoding="utf-8")
    b = Browser(CHROMIUM)
    try:
        b.open(page.as_uri())
        caps = b.eval("""[...document.querySelectorAll('.jp-OutputArea-output svg')].map(s => {
            const box = s.getBoundingClientRect();
            const t = [...s.querySelectorAll('text')].find(t => t.textContent.startsWith('left: source'));
            const r = t.getBoundingClientRect();
            return [r.left - box.left, box.right - r.right];
        })""")
        assert len(caps) == 4
        for left, right in caps:  # each caption lies inside its picture
            assert left >= 0 and right >= 0, caps
    finally:
        b.close()
