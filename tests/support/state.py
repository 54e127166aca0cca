"""A Core's on-chip state before and after a call: the checks that a refused call (or a NOP) changed nothing.

`memories(core)` copies every on-chip memory; `assert_memories_unchanged(core, before)` compares them byte for
byte; `untouched(core)` wraps a block in both (with `regs=True` also `core.regs`);
`assert_refused_untouched(core, fn, exc, start)` is the error-table check of the LoadData families: `fn()`
raises `exc`, its message starts with `start` and ends with its basis, and no memory byte changed.
"""

from __future__ import annotations

import contextlib
import copy
from collections.abc import Iterator

import numpy as np
import pytest

from support.basis import assert_basis


def memories(core) -> dict[str, np.ndarray]:
    """A copy of the bytes of every on-chip memory of `core`, by memory name."""
    return {name: mem.data.copy() for name, mem in core.memories.items()}


def assert_memories_unchanged(core, before: dict[str, np.ndarray]) -> None:
    """Every on-chip memory of `core` holds the bytes `before` (a `memories(core)` taken earlier)."""
    for name, mem in core.memories.items():
        np.testing.assert_array_equal(mem.data, before[name], err_msg=f"{name} changed")


@contextlib.contextmanager
def untouched(core, regs: bool = False) -> Iterator[None]:
    """No on-chip memory byte (and with `regs` no field of `core.regs`) changes inside the block."""
    before = memories(core)
    before_regs = copy.deepcopy(core.regs) if regs else None
    yield
    assert_memories_unchanged(core, before)
    if regs:
        assert core.regs == before_regs


def assert_refused_untouched(core, fn, exc, start: str) -> None:
    """`fn()` raises `exc` whose message starts with `start` and carries its basis; no memory byte changed."""
    before = memories(core)
    with pytest.raises(exc) as ei:
        fn()
    assert str(ei.value).startswith(start), str(ei.value)
    assert_basis(ei.value)
    assert_memories_unchanged(core, before)
