"""The pad pattern folded into the one gather stays invisible, and the log keeps light records (issue 8).

The executor parks the pad pattern in a spare block past the end of the source memory's backing buffer
(ascsim.machine.memory.SPARE) so pad units are just more gather indices. These tests pin that nothing can see
it:
every memory's `size` is the chip table's, no tensor or instruction can address a byte at or past it, and
the bytes the call writes are those the doc formula gives (checked against torch's unfold for Load3D).
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest
import torch
from support.operands import load3d_operands

from ascsim import ALL_CHIPS, BoundsError, Core, LoadData3DParamsV2
from ascsim.machine.layouts import zz_to_nd
from ascsim.machine.memory import SPARE

CUBE_CHIPS = [c.key for c in ALL_CHIPS if c.has_cube]


@pytest.mark.parametrize("chip", CUBE_CHIPS)
def test_memory_sizes_are_the_chip_tables(chip: str) -> None:
    core = Core(chip)
    for name, mem in core.memories.items():
        assert mem.size == core.chip.memory_sizes[name] == mem.data.size, name
        assert len(mem._buf) >= mem.size + SPARE  # the spare block exists, past `size`


@pytest.mark.parametrize("chip", CUBE_CHIPS)
def test_no_tensor_reaches_the_spare_block(chip: str) -> None:
    core = Core(chip)
    for name, mem in core.memories.items():
        pos = {"L1": "A1", "L0A": "A2", "L0B": "B2", "L0C": "CO1", "BT": "C2", "FB": "C2PIPE2GM"}.get(name)
        if pos is None:
            continue
        with pytest.raises(BoundsError):
            core.tensor(pos, "uint8_t", 1, offset=mem.size)
        with pytest.raises(BoundsError):
            core.tensor(pos, "uint8_t", SPARE, offset=mem.size - SPARE // 2)
        t = core.tensor(pos, "uint8_t", 16, offset=mem.size - 16)  # the last bytes are fine
        with pytest.raises(BoundsError):
            t[17]


def test_padded_load_gives_torch_unfold_and_leaves_the_rest_untouched() -> None:
    """A Load3D whose window is mostly padding (pad 3, 7x7 on 4x4) writes torch's unfold with the pad
    value, and no byte of L1 or of L0A outside the window changes — the pad block is read, never written
    into addressable memory."""
    core = Core("a2")
    x = np.arange(16 * 4 * 4, dtype=np.float16).reshape(16, 4, 4) / 8
    src, dst = load3d_operands(core, x, 16 * 16 * 49, dst_offset=0)
    l1_before = core.memories["L1"].data.copy()
    l0a_before = core.memories["L0A"].data.copy()
    p = LoadData3DParamsV2([3, 3, 3, 3], 4, 4, 16, 16 * 49, 16, 0, 0, 1, 1, 7, 7, padValue=-2.5)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        rep = core.load_data(dst, src, p)
    got = zz_to_nd(dst.read(), 16, 16 * 49, 16)
    xt = torch.from_numpy(x.astype(np.float32))[None]
    want = torch.nn.functional.unfold(torch.nn.functional.pad(xt, (3, 3, 3, 3), value=-2.5), 7)[0].T
    # torch orders columns (c, kh, kw); Load3D (kh, kw, c) inside one C0 group
    want = want.reshape(16, 16, 7, 7).permute(0, 2, 3, 1).reshape(16, 16 * 49).numpy()
    np.testing.assert_array_equal(got, want[:16])
    assert rep.pad_elements == int(np.count_nonzero(want[:16] == -2.5))
    np.testing.assert_array_equal(core.memories["L1"].data, l1_before)
    written = dst.nbytes
    np.testing.assert_array_equal(core.memories["L0A"].data[written:], l0a_before[written:])


def test_the_log_keeps_records_not_plans() -> None:
    """By default a record holds a planner, not the plan; `report.plan` rebuilds the element-level plan on
    demand (the same one every time); `Core(keep_plans=True)` keeps it."""
    x = np.ones((16, 8, 8), dtype=np.float16)
    p = LoadData3DParamsV2([1, 1, 1, 1], 8, 8, 16, 144, 64, 0, 0, 1, 1, 3, 3)
    for keep in (False, True):
        core = Core("a2", keep_plans=keep)
        src, dst = load3d_operands(core, x, 64 * 144)
        rep = core.load_data(dst, src, p)
        assert core.log[-1] is rep
        assert (rep._plan is not None) == keep
        plan = rep.plan
        assert plan is not None and plan.dst.size == 64 * 144
        np.testing.assert_array_equal(plan.src, rep.plan.src)
