"""The byte-capped cache behind every memoised product of a validated call (prepared calls, plans)."""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import TypeVar

_T = TypeVar("_T")


class BoundedCache:
    """A cache capped by the bytes its values hold (not by entries): the products of validated calls
    (prepared calls, plans), keyed by everything they depend on.

    `get` is the hot path (one dict lookup). `add` stores a value only after its validation returned, so
    a rejected call raises every time and never leaves anything behind. Values report their size with
    `nbytes` (an attribute or property, default 1 KB); values that grow later (a plan built lazily)
    call `charge`. When over budget, the oldest entries are dropped first.
    """

    def __init__(self, budget: int = 64 << 20) -> None:
        self._d: dict[Hashable, object] = {}
        self.budget = budget
        self.nbytes = 0

    def __len__(self) -> int:
        return len(self._d)

    def __contains__(self, key: Hashable) -> bool:
        return key in self._d

    def get(self, key: Hashable) -> object | None:
        return self._d.get(key)

    def add(self, key: Hashable, value: _T) -> _T:
        """Store `value` under `key` (evicting the oldest entries beyond the budget) and return it."""
        old = self._d.pop(key, None)
        if old is not None:
            self.nbytes -= getattr(old, "nbytes", 1024)
        self._d[key] = value
        self.charge(getattr(value, "nbytes", 1024))
        return value

    def memo(self, key: Hashable, build: Callable[[], _T]) -> _T:
        """The cached value for `key`, built (and charged) on a miss."""
        v = self._d.get(key)
        if v is None:
            v = self.add(key, build())
        return v  # type: ignore[return-value]

    def charge(self, nbytes: int) -> None:
        self.nbytes += nbytes
        d = self._d
        while self.nbytes > self.budget and len(d) > 1:
            old = d.pop(next(iter(d)))
            self.nbytes -= getattr(old, "nbytes", 1024)

    def clear(self) -> None:
        self._d.clear()
        self.nbytes = 0


#: Element-level plans (provenance for explain/draw, and the fallback executable form).
PLANS = BoundedCache(96 << 20)
