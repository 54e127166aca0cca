"""C++ names for the compiled path (issue 19 item 2): explain, draw, the explorer and `--emit-scenario`
name a call's operands by its arguments as the source writes them (program.callsite), and fall back to
the memory-and-address names where the text cannot be read (a macro's call).

The references are the kernel's own text below: the expected names are copied from the call sites by
hand, not produced by ascsim.
"""

from __future__ import annotations

import html
import json
import re
from pathlib import Path

import pytest
import tomllib
from support.paths import EXAMPLES

from ascsim.cli import main
from ascsim.program.callsite import SCAN_LIMIT, CallSites, split_call

KERNEL = r"""#include "kernel_operator.h"

#define LOAD_VIA_MACRO(d, s, p) AscendC::LoadData(d, s, p)

template <class T, int N>
struct Pick { static constexpr int value = T::value * N; };

extern "C" __global__ __aicore__ void names_kernel(GM_ADDR x)
{
    AscendC::GlobalTensor<half> xGm;
    xGm.SetGlobalBuffer((__gm__ half*)x, 512);
    AscendC::LocalTensor<half> a1Buf(AscendC::TPosition::A1, 0, 512);
    AscendC::LocalTensor<half> a2Local(AscendC::TPosition::A2, 0, 512);
    AscendC::LocalTensor<half> b2Local(AscendC::TPosition::B2, 0, 256);
    AscendC::DataCopy(a1Buf, xGm, AscendC::DataCopyParams{1, 32, 0, 0});
    AscendC::SetFlag<AscendC::HardEvent::MTE2_MTE1>(EVENT_ID0);
    AscendC::WaitFlag<AscendC::HardEvent::MTE2_MTE1>(EVENT_ID0);
    AscendC::LoadData2DParams params;
    params.repeatTimes = 1;
    AscendC::LoadData<half>(
        a2Local[Pick<std::integral_constant<int, 0>, 1>::value],  // the destination, "a, b" in a comment
        /* the source, (unbalanced in a comment */ a1Buf,
        params);
    LOAD_VIA_MACRO(b2Local, a1Buf, params);
}
"""
DST = "a2Local[Pick<std::integral_constant<int, 0>, 1>::value]"


@pytest.fixture(scope="module")
def kernel(tmp_path_factory) -> tuple[Path, list[str]]:
    d = tmp_path_factory.mktemp("names")
    src = d / "names_kernel.cpp"
    src.write_text(KERNEL)
    return src, ["--gm", "x=random:half:512:3"]


def test_split_call_honours_nesting_comments_and_literals() -> None:
    assert split_call("LoadData(a2Local, a1Local[mOff * 16], params);", "LoadData") == (
        "a2Local", "a1Local[mOff * 16]", "params")
    text = ('Fixpipe<float, float, CFG_ROW_MAJOR>(dstGm,  // out, really\n'
            '   c1Local /* in, ( */, Foo<int, std::pair<int, int>>{1, 2}, ",)", \',\', 1\'000)')
    assert split_call(text, "Fixpipe") == ("dstGm", "c1Local", "Foo<int, std::pair<int, int>>{1, 2}", '",)"',
                                           "','", "1'000")
    assert split_call("Mmad(c, a < b, d > e, p)", "Mmad") == ("c", "a < b", "d > e", "p")  # comparisons


def test_unparsable_text_gives_none(tmp_path: Path) -> None:
    src = tmp_path / "k.cpp"
    src.write_text("LoadData(a, b\n" + " " * (SCAN_LIMIT + 10) + ", c);\nMACRO(x);\nLoadData(a; b);\n")
    sites = CallSites()
    assert sites.arguments(str(src), 1, 1, "LoadData") is None  # runs past the scan limit
    assert sites.arguments(str(src), 3, 8, "LoadData") is None  # no such call on the line (a macro)
    assert sites.arguments(str(src), 4, 1, "LoadData") is None  # not a call the scanner understands
    assert sites.arguments(str(tmp_path / "gone.cpp"), 1, 1, "LoadData") is None
    assert CallSites(skip=(tmp_path,)).arguments(str(src), 3, 1, "MACRO") is None  # a skipped directory
    assert sites.arguments(str(src), 3, 1, "MACRO") == ("x",)


def test_explain_names_the_operands_as_the_call_writes_them(kernel, capsys) -> None:
    src, gm = kernel
    assert main(["explain", str(src), "--call", "1", "--dst", "0", *gm]) == 0
    out = capsys.readouterr().out
    assert f"dst {DST} (L0A 0x0000, half)  <-  src a1Buf (L1 0x0000, half)" in out
    assert re.search(r"dst\[0\] L0A 0x0000 .* <- a1Buf\[0\] L1 0x0000", out)
    assert out.splitlines()[1].startswith("call 1: LoadData")  # a program's call, not a scenario step


def test_a_call_through_a_macro_keeps_the_old_names(kernel, capsys) -> None:
    src, gm = kernel
    assert main(["explain", str(src), "--call", "2", "--dst", "0", *gm]) == 0
    out = capsys.readouterr().out
    assert "dst b2_0 (L0B 0x0000, half)" in out  # the memory-and-address name
    # its source is the group the other calls name a1Buf (a plain identifier, unique): the emitted name
    assert "src a1Buf (L1 0x0000, half)" in out


def test_the_picture_caption_carries_the_names(kernel, tmp_path: Path, capsys) -> None:
    src, gm = kernel
    svg = tmp_path / "c1.svg"
    assert main(["draw", str(src), "--call", "1", "-o", str(svg), *gm]) == 0
    text = html.unescape(svg.read_text())
    assert "source a1Buf (L1" in text and "destination a2Local[Pick" in text
    assert "call 1: LoadData" in text and "step 1:" not in text


def test_emitted_scenario_names_tensors_by_plain_unique_identifiers(kernel, tmp_path: Path, capsys) -> None:
    src, gm = kernel
    out = tmp_path / "t.toml"
    assert main(["run", str(src), "-q", *gm, "--emit-scenario", str(out)]) == 0
    doc = tomllib.loads(out.read_text())
    # A1: always passed as a1Buf; A2: only as an expression (no plain name); B2: only through the macro;
    # GM: its kernel parameter
    assert set(doc["tensors"]) == {"a1Buf", "a2_0", "b2_0", "x"}
    assert main(["run", str(out), "-q", "--out", str(tmp_path)]) == 0  # and it still runs


def test_explore_a_program(tmp_path: Path, capsys) -> None:
    """`ascsim explore kernel.cpp` with the bindings of the example's header comment: one entry per call
    of `ascsim run` (its line, file:line included), titled "call N", the operands named as written."""
    header = (EXAMPLES / "matmul_pingpong.cpp").read_text().splitlines()
    cmd = next(ln for ln in header if ln.startswith("//   ascsim run ")).split()[4:]
    gm = [a.replace("c.npy", str(tmp_path / "c.npy")) for a in cmd]
    assert main(["run", str(EXAMPLES / "matmul_pingpong.cpp"), *gm]) == 0
    calls = [ln for ln in capsys.readouterr().out.splitlines() if re.match(r"\[\d+\] ", ln)]
    page = tmp_path / "p.html"
    assert main(["explore", str(EXAMPLES / "matmul_pingpong.cpp"), *gm, "-o", str(page)]) == 0
    text = page.read_text()
    steps = json.loads(re.search(r"const STEPS = (.*);\n", text).group(1).replace("<\\/", "</"))
    assert len(steps) == len(calls) == 23
    assert [st["summary"] for st in steps] == calls  # the step list reads as `ascsim run` prints the calls
    assert 'const UNIT = "call";' in text
    pic = steps[4]["pic"]  # LoadDataWithTranspose(b2[r * (N / 16) * FRAC], b1, params)
    assert pic["title"].startswith("call 4: LoadDataWithTranspose")
    assert "dst b2[r * (N / 16) * FRAC] (L0B" in steps[4]["explain"] and "src b1 (L1" in steps[4]["explain"]
    assert any("<- b1[" in ln for ln in pic["lines"])
