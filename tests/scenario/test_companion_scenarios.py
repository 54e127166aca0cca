"""The companion instructions in scenario files and in `ascsim cpp`: Fill / InitConstValue, DataCopyPad,
SetAtomicAdd / SetAtomicNone, the Fixpipe register setters, Fixpipe with a cbufWorkspace, DataCopy CO1 -> GM.
The C++ lines are checked against the doc pages' call examples (Fill.md,
DataCopyPad（GMToL1非对齐数据搬运）.md,
SetFixpipeNz2ndFlag.md, SetFixpipePreQuantFlag.md, SetAtomicAdd.md)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from ascsim.scenario import ScenarioError, load_scenario, run_scenario
from ascsim.scenario.cpp import step_to_cpp

FILL = """
chip = "a2"
[tensors.l1]
position = "A1"
dtype = "float"
length = 512
[tensors.l0a]
position = "A2"
dtype = "half"
length = 512
[[steps]]
call = "Fill"
dst = "l1"
params = { type = "InitConstValueParams", repeatTimes = 1, blockNum = 32, dstGap = 0, initValue = 1 }
[[steps]]
call = "InitConstValue"
dst = "l0a"
params = { type = "InitConstValueParams", repeatTimes = 1, blockNum = 1, dstGap = 0, initValue = -2.5 }
"""

PAD = """
chip = "950"
[tensors.g]
position = "GM"
dtype = "int8_t"
length = 144
init = "arange"
[tensors.l1]
position = "A1"
dtype = "int8_t"
length = 192
[[steps]]
call = "DataCopyPad"
dst = "l1"
src = "g"
mode = "Normal"
params = { type = "DataCopyExtParams", blockCount = 3, blockLen = 48 }
pad_params = { type = "DataCopyPadExtParams", isPad = true, rightPadding = 16, paddingValue = -1 }
"""

REGS = """
chip = "a2"
[tensors.c]
position = "CO1"
dtype = "int32_t"
length = 256
init = "arange"
[tensors.q]
position = "C1"
dtype = "uint64_t"
length = 16
init = { fill = 70368744177664 }  # the Sign bit only: scale 0
[tensors.out]
position = "GM"
dtype = "int32_t"
length = 256
[tensors.out8]
position = "GM"
dtype = "int8_t"
length = 256
[[steps]]
call = "SetAtomicAdd"
dtype = "int32_t"
[[steps]]
call = "Fixpipe"
dst = "out"
src = "c"
params = { type = "FixpipeParamsV220", nSize = 16, mSize = 16, srcStride = 16, dstStride = 16 }
[[steps]]
call = "SetAtomicNone"
[[steps]]
call = "SetFixpipeNz2ndFlag"
ndNum = 1
srcNdStride = 0
dstNdStride = 0
[[steps]]
call = "SetFixpipePreQuantFlag"
config = 70369817919488
[[steps]]
call = "DataCopy"
dst = "out8"
src = "c"
[steps.params]
type = "DataCopyCO12DstParams"
nSize = 16
mSize = 16
dstStride = 16
srcStride = 16
quantPre = "REQ8"
nz2ndEn = true
[[steps]]
call = "Fixpipe"
dst = "out8"
src = "c"
workspace = "q"
[steps.params]
type = "FixpipeParamsV220"
nSize = 16
mSize = 16
srcStride = 16
dstStride = 16
quantPre = "VREQ8"
"""


def _load(tmp_path: Path, text: str):
    p = tmp_path / "s.toml"
    p.write_text(text, encoding="utf-8")
    return load_scenario(p)


def test_fill_runs_and_prints_like_the_doc_example(tmp_path):
    sc = _load(tmp_path, FILL)
    run = run_scenario(sc)
    assert (run.tensors["l1"].read()[:256] == 1).all()
    assert (run.tensors["l0a"].read()[:256] == -2.5).all()
    # Fill.md 调用示例:
    # Fill(leftMatrix, {1, static_cast<uint16_t>(mLength * kLength * sizeof(float) / 32), 0, 1});
    assert step_to_cpp(sc, 0).splitlines() == [
        "AscendC::InitConstValueParams<float> fillParams{1, 32, 0, (float)1};  "
        "// repeatTimes, blockNum, dstGap, "
        "initValue",
        "AscendC::Fill(l1, fillParams);"]
    assert step_to_cpp(sc, 1).splitlines()[-1] == "AscendC::InitConstValue(l0a, fillParams);"


def test_data_copy_pad_scenario(tmp_path):
    sc = _load(tmp_path, PAD)
    run = run_scenario(sc)
    got = run.tensors["l1"].read().reshape(3, 64)
    np.testing.assert_array_equal(got[:, :48], ((np.arange(144) + 128) % 256 - 128).reshape(3, 48))
    assert (got[:, 48:] == -1).all()
    lines = step_to_cpp(sc, 0).splitlines()
    assert lines[0] == "AscendC::DataCopyExtParams copyParams{3, 48, 0, 0, 0};  // blockCount, blockLen, " \
                       "srcStride, dstStride, rsv"
    assert lines[1].startswith("AscendC::DataCopyPadExtParams<int8_t> padParams{true, 0, 16, (int8_t)-1};")
    assert lines[2] == ("AscendC::DataCopyPad<int8_t, AscendC::PaddingMode::Normal>(l1, g, copyParams, "
                        "padParams);")


def test_registers_atomic_and_workspace_scenario(tmp_path):
    sc = _load(tmp_path, REGS)
    run = run_scenario(sc)
    out = run.tensors["out"].read()
    assert (out != np.arange(256)).any()  # the atomic add added onto the marker-filled GM
    # the last step, VREQ8 with scale 0 (words = Sign only), leaves every value 0
    assert (run.tensors["out8"].read() == 0).all()
    cpp = [step_to_cpp(sc, i) for i in range(len(sc.steps))]
    assert cpp[0] == "AscendC::SetAtomicAdd<int32_t>();"
    assert cpp[2] == "AscendC::SetAtomicNone();"
    assert cpp[3] == "AscendC::SetFixpipeNz2ndFlag(1, 0, 0);"  # SetFixpipeNz2ndFlag.md 调用示例 form
    assert cpp[4] == "AscendC::SetFixpipePreQuantFlag(0x400040000000);"  # scale 2.0 | Sign
    assert cpp[5].splitlines()[-1] == "AscendC::DataCopy(out8, c, copyParams);"
    assert cpp[6].splitlines()[-1] == "AscendC::Fixpipe<int8_t, int32_t, AscendC::CFG_ROW_MAJOR>(out8, c, " \
                                      "q, " \
                                      "fixpipeParams);"


def test_padding_value_needs_its_type(tmp_path):
    text = 'chip = "a2"\n[[steps]]\ncall = "SetLoadDataPaddingValue"\nvalue = 1.5\n'
    with pytest.raises(ScenarioError, match=r"steps\[0\]\.dtype: SetLoadDataPaddingValue needs dtype"):
        _load(tmp_path, text)
