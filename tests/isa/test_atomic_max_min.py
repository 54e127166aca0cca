"""SetAtomicMax / SetAtomicMin (原子操作/SetAtomicMax(ISASI).md, SetAtomicMin(ISASI).md):
"将待拷贝的内容和GM已有内容进行比较，然后将最大值(最小值)写入GM", on the paths
UB/L0C Buffer/L1 Buffer -> GM (A2/A3) and UB/L0C Buffer -> GM (950), for int8_t, int16_t, half,
bfloat16_t, int32_t and float; not on Atlas 200I/500 A2, the inference series or the training series.

The instruction the docs' worked example adds (docs/architecture.md "Adding an instruction"): one table entry
each, the atomic setters and the GM store of the Fixpipe / copy family, their chip rows, these tests. The
reference is numpy's elementwise maximum / minimum of the values GM held and the values moved.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import ascsim.ascendc as AscendC
from ascsim import Core
from ascsim.base.errors import UnsupportedError
from ascsim.machine.layouts import cdiv, nd_to_nz
from ascsim.params import DataCopyParams, FixpipeParamsArch3510, FixpipeParamsV220, Nz2NdParams, QuantMode_t
from ascsim.scenario import load_scenario, run_scenario


def _l0c(core: Core, c: np.ndarray, dtype: str):
    flat = nd_to_nz(c, 16)
    return core.tensor("CO1", dtype, flat.size, data=flat), cdiv(c.shape[0], 16) * 16


def _fixpipe_params(chip: str, stride: int, quant: QuantMode_t = QuantMode_t.NoQuant):
    if chip == "ascend950":
        return FixpipeParamsArch3510(16, 16, stride, 16, quantPre=quant, params=Nz2NdParams(1, 0, 0))
    return FixpipeParamsV220(16, 16, stride, 16, quantPre=quant)


@pytest.mark.parametrize("chip", ["a2", "a3", "ascend950"])
@pytest.mark.parametrize("op", ["max", "min"])
@pytest.mark.parametrize("dtype", ["float", "int32_t", "half"])
def test_fixpipe_into_gm_keeps_the_larger_or_smaller(chip: str, op: str, dtype: str) -> None:
    rng = np.random.default_rng(7)
    core = Core(chip)
    src_t = "int32_t" if dtype == "int32_t" else "float"
    c = rng.integers(-50, 50, (16, 16)).astype(np.int32 if src_t == "int32_t" else np.float32)
    src, s = _l0c(core, c, src_t)
    old = rng.integers(-50, 50, 256)
    out = core.global_tensor(dtype, old)
    quant = QuantMode_t.F322F16 if dtype == "half" else QuantMode_t.NoQuant
    getattr(core, f"set_atomic_{op}")(dtype)
    report = core.fixpipe(out, src, _fixpipe_params(chip, s, quant))
    assert "C20" in report.notes
    ref = (np.maximum if op == "max" else np.minimum)(old.astype(np.float64), c.ravel().astype(np.float64))
    np.testing.assert_array_equal(out.read().astype(np.float64), ref)
    core.set_atomic_none()  # DisableDmaAtomic: the next move overwrites
    core.fixpipe(out, src, _fixpipe_params(chip, s, quant))
    np.testing.assert_array_equal(out.read().astype(np.float64), c.ravel().astype(np.float64))


def test_nan_on_either_side_gives_nan() -> None:
    """The docs say nothing of NaN; ascsim propagates it (numpy maximum / minimum), divergence C20."""
    core = Core("a2")
    c = np.ones((16, 16), np.float32)
    c[0, 0] = np.nan
    src, s = _l0c(core, c, "float")
    old = np.full(256, 2.0)
    old[1] = np.nan
    out = core.global_tensor("float", old)
    core.set_atomic_max("float")
    core.fixpipe(out, src, FixpipeParamsV220(16, 16, s, 16))
    got = out.read()
    assert np.isnan(got[0]) and np.isnan(got[1]) and (got[2:] == 2.0).all()


@pytest.mark.parametrize("op", ["max", "min"])
def test_l1_to_gm_copy_on_a2(op: str) -> None:
    """A2/A3 list L1 Buffer -> GM among the atomic paths (DataCopy L1 -> GM, MTE3)."""
    core = Core("a2")
    new = np.arange(-32, 32, dtype=np.float16)
    l1 = core.tensor("A1", "half", 64, data=new)
    old = np.linspace(-20, 20, 64).astype(np.float16)
    out = core.global_tensor("half", old)
    getattr(core, f"set_atomic_{op}")("half")
    core.data_copy(out, l1, DataCopyParams(1, 4, 0, 0))
    ref = (np.maximum if op == "max" else np.minimum)(old, new)
    np.testing.assert_array_equal(out.read(), ref)


def test_refused_where_the_docs_say_not_supported() -> None:
    for chip in ("atlas200i500a2", "inference_aicore", "training"):
        with pytest.raises(UnsupportedError, match=r"^SetAtomicMax: API SetAtomicMax is not supported"):
            Core(chip).set_atomic_max("float")
    bad_type = r"^SetAtomicMin: dtype uint8_t .*SetAtomicMin\[ISASI\]\.md 数据类型"
    with pytest.raises(UnsupportedError, match=bad_type):
        Core("a2").set_atomic_min("uint8_t")
    core = Core("a2")  # the moved type must be the atomic type, as for SetAtomicAdd
    src, s = _l0c(core, np.ones((16, 16), np.float32), "float")
    core.set_atomic_max("half")
    with pytest.raises(UnsupportedError, match=r"^Fixpipe: the atomic max type set by SetAtomicMax<half>"):
        core.fixpipe(core.global_tensor("float", 256), src, FixpipeParamsV220(16, 16, s, 16))


def test_every_face_of_the_instruction(tmp_path: Path) -> None:
    """The table entry reaches the C++ facade and scenario files without another edit."""
    core = Core("a2")
    c = np.full((16, 16), 5.0, np.float32)
    src, s = _l0c(core, c, "float")
    out = core.global_tensor("float", np.arange(256) % 10)
    with AscendC.use(core):
        AscendC.SetAtomicMin("float")
        AscendC.Fixpipe(out, src, FixpipeParamsV220(16, 16, s, 16))
        AscendC.DisableDmaAtomic()
    np.testing.assert_array_equal(out.read(), np.minimum(np.arange(256) % 10, 5.0))
    path = tmp_path / "max.toml"
    path.write_text("""chip = "a2"
[tensors.c]
position = "CO1"
dtype = "float"
length = 256
init = {fill = 4.0}
[tensors.y]
position = "GM"
dtype = "float"
length = 256
init = "arange"
[[steps]]
call = "SetAtomicMax"
dtype = "float"
[[steps]]
call = "Fixpipe"
dst = "y"
src = "c"
params = {type = "FixpipeParamsV220", nSize = 16, mSize = 16, srcStride = 16, dstStride = 16}
""", encoding="utf-8")
    run = run_scenario(load_scenario(path))
    np.testing.assert_array_equal(run.tensors["y"].read(), np.maximum(np.arange(256), 4.0))
