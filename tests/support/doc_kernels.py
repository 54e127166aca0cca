"""Running C++ kernel text through the compiled path (`ascsim.program.load_kernel`), for the tests that
paste the doc pages' call examples (调用示例) into a kernel (program/test_program_docs.py,
test_program_docs_loads.py, test_program_docs_companions.py) and the other tests that write kernels as text.

`Kernel(name, chip, text_=...)` writes the text to a file named `name` in a directory of its own (per content,
so messages name `name:line`) and builds it; `.run(...)` is `Program.run`.

`run_kernel` is the one runner: it runs the text on a chip with the GM bindings given, by default with the
warnings silenced (the examples write past their tensors on purpose, e.g. padding) and asserting that the
sync checker reported nothing. `run_doc_kernel` wraps a snippet into `DOC_KERNEL`, the kernel of
test_program_docs.py: the GM binding, the tensors the snippets name (a1Local / b1Local in L1 filled from GM
by a plain DataCopy, a2Local / b2Local in L0A / L0B), and the helpers they call (CeilDivision, CeilAlign,
DivCeil).
"""

from __future__ import annotations

import atexit
import hashlib
import shutil
import tempfile
import warnings
from pathlib import Path

import numpy as np

from ascsim.program import load_kernel

_DIR = Path(tempfile.mkdtemp(prefix="ascsim-test-kernels-"))
atexit.register(shutil.rmtree, _DIR, True)  # the session's kernel files go with it


class Kernel:
    """A kernel given as text, built as a file `name` (the compiled path's `load_kernel`)."""

    def __init__(self, name: str, chip: str = "a2", defines: dict | None = None, *, text_: str,
                 template: dict | None = None, entry: str | None = None) -> None:
        key = hashlib.sha256(f"{chip}\0{defines}\0{template}\0{entry}\0{text_}".encode()).hexdigest()[:16]
        path = _DIR / key / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text_, encoding="utf-8")
        self.path = path
        self.program = load_kernel(path, chip, defines, entry=entry, template=template, name=name)

    def run(self, **kw):
        return self.program.run(**kw)

HELPERS = """
__aicore__ inline uint32_t CeilDivision(uint32_t a, uint32_t b) { return (a + b - 1) / b; }
__aicore__ inline uint32_t CeilAlign(uint32_t a, uint32_t b) { return (a + b - 1) / b * b; }
__aicore__ inline uint32_t DivCeil(uint32_t a, uint32_t b) { return (a + b - 1) / b; }
constexpr uint32_t CUBE_BLOCK = 16;
"""

DOC_KERNEL = (
    HELPERS
    + """
extern "C" __global__ __aicore__ void doc_example(GM_ADDR a1img, GM_ADDR b1img, GM_ADDR out)
{
    AscendC::GlobalTensor<{T}> a1GM, b1GM;
    a1GM.SetGlobalBuffer((__gm__ {T}*)a1img, {A1});
    b1GM.SetGlobalBuffer((__gm__ {T}*)b1img, {B1});
    AscendC::LocalTensor<{T}> a1Local(AscendC::TPosition::A1, 0, {A1});
    AscendC::LocalTensor<{T}> b1Local(AscendC::TPosition::B1, 256 * 1024, {B1});
    AscendC::LocalTensor<{T}> a2Local(AscendC::TPosition::A2, 0, 16384 / sizeof({T}));
    AscendC::LocalTensor<{T}> b2Local(AscendC::TPosition::B2, 0, 16384 / sizeof({T}));
    AscendC::LocalTensor<{T}> b2(AscendC::TPosition::B2, 0, 16384 / sizeof({T}));
    AscendC::LocalTensor<{T}> rightMatrix(AscendC::TPosition::B1, 256 * 1024, {B1});
    AscendC::DataCopy(a1Local, a1GM, {A1});
    AscendC::DataCopy(b1Local, b1GM, {B1});
    AscendC::PipeBarrier<PIPE_ALL>();
{CONTEXT}
{SNIPPET}
}
"""
)

# The shapes of the LoadDataWithTranspose.md / LoadData_2D.md / LoadData_3D.md examples (m = 40, k = 70,
# n = 50: none a multiple of 16).
M, K, N = 40, 70, 50

# -- LoadData_3D.md 调用示例: float A given as [k, m] (Nz), Load3D v2 with enTranspose writes Zz(A). Run as is
# by test_program_docs.py; its parameter block fills the "..." of the Load3D register-setter pages
# (test_program_docs_loads.py).

LOAD3D_FLOAT = """
AscendC::LoadData3DParamsV2<T> loadDataParams;
loadDataParams.l1H = 1;
loadDataParams.l1W = CeilAlign(k, fractalShape[0]);
loadDataParams.channelSize = CeilAlign(m, fractalShape[1]);
loadDataParams.kExtension = CeilAlign(m, fractalShape[1]);
loadDataParams.mExtension = CeilAlign(k, fractalShape[1] * fractalNum);
loadDataParams.strideW = 1;
loadDataParams.strideH = 1;
loadDataParams.filterW = 1;
loadDataParams.filterH = 1;
loadDataParams.dilationFilterW = 1;
loadDataParams.dilationFilterH = 1;
loadDataParams.filterSizeW = false;
loadDataParams.filterSizeH = false;
loadDataParams.enTranspose = true;
loadDataParams.fMatrixCtrl = false;
AscendC::LoadData(a2Local, a1Local, loadDataParams);
"""


def run_kernel(text: str, chip: str = "a2", gm: dict | None = None, *, name: str = "doc.cpp",
               quiet: bool = True, synced: bool = True, **run_kw):
    """Run kernel `text` as file `name` on `chip` with the GM bindings `gm` (and `Kernel.run`'s other
    keywords, e.g. preload); with `quiet` every warning is ignored, with `synced` the sync checker must have
    reported nothing. Returns the run."""
    kernel = Kernel(name, chip, text_=text)
    if quiet:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            run = kernel.run(gm=gm, **run_kw)
    else:
        run = kernel.run(gm=gm, **run_kw)
    if synced:
        assert run.sync_reports == []
    return run


def run_doc_kernel(snippet: str, dtype: str, a1: np.ndarray, b1: np.ndarray, chip: str = "a2",
                   context: str = ""):
    """`snippet` (after the statements `context`) inside DOC_KERNEL with element type `dtype`, a1Local /
    b1Local holding the images `a1` / `b1`; run quietly, the sync report empty."""
    src = (
        DOC_KERNEL.replace("{T}", dtype)
        .replace("{A1}", str(a1.size))
        .replace("{B1}", str(b1.size))
        .replace("{CONTEXT}", context)
        .replace("{SNIPPET}", snippet)
    )
    return run_kernel(src, chip, {"a1img": a1, "b1img": b1})


def memory_view(run, mem: str, dtype, n: int) -> np.ndarray:
    """The first `n` elements of on-chip memory `mem` after the run, read as numpy `dtype`."""
    return run.core.memory(mem).data.view(dtype)[:n]


def source_line(text: str, needle: str) -> int:
    """The 1-based number of the first line of `text` containing `needle`."""
    return next(i for i, ln in enumerate(text.splitlines(), 1) if needle in ln)
