"""A scenario's params table must give the struct's extents (issue 19, Why 4: a step without kExtension /
mExtension, or a LoadData3DParamsV2 without l1H / l1W, ran as a NOP leaving 0xCD).

Every field of the C++ params structs has a default member initializer (asc-devkit
include/basic_api/kernel_struct_mm.h:297-316 for LoadData3DParamsV2: `uint16_t kExtension = 0;` ...), so
"required" cannot come from a missing C++ default. The extents — the fields that size the call, whose
default 0 is a call that moves nothing — are marked once, on the params dataclasses (params.base.extent);
a table that leaves one out is refused naming the step and the field (docs/divergences.md K1). Fields with
defaults stay optional: a step giving the extents only runs.

Two sources of steps: every params table of the shipped examples (each extent dropped in turn), and for the
structs no example uses, a table of exactly the extents through the loader's struct builder.
"""

from __future__ import annotations

import copy
import dataclasses
import json
from pathlib import Path

import numpy as np
import pytest
from support.paths import EXAMPLES

from ascsim.params.base import extents
from ascsim.scenario import ScenarioError, load_scenario, run_scenario, tomllib
from ascsim.scenario.files import struct_types, struct_value
from ascsim.scenario.schema import Scenario
from ascsim.scenario.writer import struct_table


def _example_tables() -> list[tuple[str, int, str, str]]:
    """(example, step index, key, field) for every extent of every params table in examples/*.toml."""
    out = []
    for path in sorted(EXAMPLES.glob("*.toml")):
        doc = tomllib.loads(path.read_text(encoding="utf-8"))
        for i, step in enumerate(doc["steps"]):
            for key, v in step.items():
                if isinstance(v, dict) and "type" in v:
                    cls = struct_types()[v["type"]]
                    if dataclasses.is_dataclass(cls):
                        out += [(path.name, i, key, f) for f in extents(cls)]
    return out


EXAMPLE_CASES = _example_tables()


@pytest.mark.parametrize(("example", "index", "key", "field"), EXAMPLE_CASES,
                         ids=[f"{e}-steps{i}-{f}" for e, i, _, f in EXAMPLE_CASES])
def test_an_example_step_without_an_extent_is_refused(tmp_path: Path, example: str, index: int, key: str,
                                                      field: str) -> None:
    doc = tomllib.loads((EXAMPLES / example).read_text(encoding="utf-8"))
    bad = copy.deepcopy(doc)
    bad["steps"][index][key].pop(field, None)
    for t in bad["tensors"].values():  # the data files stay where the example is
        init = t.get("init")
        if isinstance(init, dict) and "npy" in init:
            init["npy"] = str(EXAMPLES / init["npy"])
    path = tmp_path / f"{Path(example).stem}.json"
    path.write_text(json.dumps(bad), encoding="utf-8")
    with pytest.raises(ScenarioError, match=rf"^{path.name}: steps\[{index}\]\.{key}\.{field}: "
                                            rf"\w+ needs {field}: it sizes the call"):
        load_scenario(path)


def test_every_struct_an_example_uses_is_covered() -> None:
    """The structs with extents that the examples use: at least the ones issue 19 names."""
    used = {c for e, i, k, _ in EXAMPLE_CASES for c in [_type_of(e, i, k)]}
    assert {"LoadData3DParamsV2", "MmadParams", "LoadData2DParams", "Nd2NzParams"} <= used


def _type_of(example: str, index: int, key: str) -> str:
    return tomllib.loads((EXAMPLES / example).read_text(encoding="utf-8"))["steps"][index][key]["type"]


_SC = Scenario(Path("s.toml"), "a2", False, {}, [])
ALL = sorted((n, f) for n, c in struct_types().items() if dataclasses.is_dataclass(c) for f in extents(c))


@pytest.mark.parametrize(("struct", "field"), ALL, ids=[f"{s}-{f}" for s, f in ALL])
def test_every_extent_of_every_struct_is_required(struct: str, field: str) -> None:
    cls = struct_types()[struct]
    table = {"type": struct, **{f: 1 for f in extents(cls) if f != field}}
    with pytest.raises(ScenarioError, match=rf"^s.toml: steps\[3\]\.params\.{field}: {struct} needs {field}"):
        struct_value(_SC, "steps[3].params", table)
    built = struct_value(_SC, "steps[3].params", {**table, field: 1})  # the extents alone build the struct
    assert all(getattr(built, f) == 1 for f in extents(cls))
    assert field in struct_table(cls())  # the writer writes an extent even at its default


def test_extents_default_to_zero_as_in_cpp() -> None:
    """Each extent's C++ default member initializer is 0 (kernel_struct_mm.h / kernel_struct_fixpipe.h /
    kernel_struct_data_copy.h), and so is the dataclass default a Python caller gets."""
    for struct, field in ALL:
        assert getattr(struct_types()[struct](), field) == 0, (struct, field)


def test_a_step_giving_only_the_extents_runs(tmp_path: Path) -> None:
    """LoadData3DParamsV2 with l1H, l1W, channelSize, kExtension, mExtension and nothing else: the defaults
    (stride 1, filter 1, no padding) make it a plain copy of the 16 x 16 window: the fmap's first 16 pixels,
    16 channels each (Zz: one fractal, row = pixel, column = channel)."""
    path = tmp_path / "only.toml"
    path.write_text("""chip = "a2"
[tensors.fmap]
position = "A1"
dtype = "half"
shape = [16, 4, 4]
layout = "fmap"
init = "arange"
[tensors.l0a]
position = "A2"
dtype = "half"
length = 256
[[steps]]
call = "LoadData"
dst = "l0a"
src = "fmap"
params = { type = "LoadData3DParamsV2", l1H = 4, l1W = 4, channelSize = 16, kExtension = 16, mExtension = 16 }
""", encoding="utf-8")
    run = run_scenario(load_scenario(path))
    got = run.core.memory("L0A").data[:512].view(np.float16).reshape(16, 16)
    fmap = np.arange(16 * 16).reshape(16, 16)  # (C, H*W) of the arange init
    np.testing.assert_array_equal(got, fmap.T)
