"""Progress lines for work that can take more than a few seconds (a plan's search and verification, a
program's build and run, a big drawing).

Plain text on stderr, one line rewritten in place (`\\r`), and only when stderr is a terminal: a pipe, a
log file, a notebook or a test sees nothing, so output that scripts parse never changes. `ASCSIM_PROGRESS=1`
forces the lines (to see them in a log), `ASCSIM_PROGRESS=0` silences them on a terminal too. No
dependency: a counter and an elapsed time need no progress-bar library.

Work that finishes within `delay` seconds prints nothing at all, so fast commands stay quiet; after that a
line is refreshed at most every `interval` seconds, so the cost per `update` is a clock read. While the
lines are on, a daemon thread also refreshes the line, so one long step (a compile, a big picture's render)
still shows its elapsed time; it writes nothing a caller's `update` would not.
"""

from __future__ import annotations

import os
import sys
import threading
import time
from types import TracebackType
from typing import TextIO


def progress_enabled(stream: TextIO | None = None) -> bool:
    """Whether progress lines go to `stream` (default stderr): `ASCSIM_PROGRESS` if set, else is it a tty."""
    forced = os.environ.get("ASCSIM_PROGRESS", "").strip()
    if forced in ("0", "1"):
        return forced == "1"
    s = sys.stderr if stream is None else stream
    try:
        return bool(s.isatty())
    except (AttributeError, ValueError):  # a closed or minimal stream: no progress, never an error
        return False


class Progress:
    """`with Progress("verifying", total=n) as p: ... p.update()` — `what: 3/10 (30%), 4.2 s` on one line.

    `total=None` counts without a percentage; `note(text)` changes the trailing detail (the tile being
    verified, the call a program is at). The last line is finished with a newline on exit, so the next
    output starts on a clean line."""

    def __init__(self, what: str, total: int | None = None, *, stream: TextIO | None = None,
                 delay: float = 2.0, interval: float = 0.25, enabled: bool | None = None, tick: bool = True,
                 unit: str = "") -> None:
        self.what = what
        self.total = total
        self.unit = f" {unit}" if unit else ""
        self.done = 0
        self.detail = ""
        self._stream = sys.stderr if stream is None else stream
        self._on = progress_enabled(self._stream) if enabled is None else enabled
        self._delay = delay
        self._interval = interval
        self._start = time.monotonic()
        self._last = -1.0
        self._width = 0
        self._lock = threading.Lock()
        self._stop = threading.Event()
        if self._on and tick:
            threading.Thread(target=self._tick, name="ascsim-progress", daemon=True).start()

    def __enter__(self) -> Progress:
        return self

    def __exit__(self, et: type[BaseException] | None, e: BaseException | None, tb: TracebackType | None
                 ) -> None:
        self.close()

    def update(self, n: int = 1) -> None:
        self.done += n
        self._maybe_show()

    def note(self, detail: str) -> None:
        self.detail = detail
        self._maybe_show()

    def line(self) -> str:
        """The text shown now (also what a test reads): `what: done/total (p%) unit detail, t s`; a step with
        nothing to count (a compile) shows only its elapsed time."""
        if self.total is not None:
            count = f" {self.done:,}/{self.total:,} ({100 * self.done // max(self.total, 1)}%){self.unit}"
        elif self.done or self.unit:
            count = f" {self.done:,}{self.unit}"
        else:
            count = ""
        detail = f" {self.detail}" if self.detail else ""
        head = f"{self.what}:{count}{detail}" if count or detail else self.what
        return f"{head}, {time.monotonic() - self._start:.1f} s"

    def _tick(self) -> None:
        while not self._stop.wait(max(self._interval, 0.05)):
            self._maybe_show()

    def _maybe_show(self) -> None:
        if not self._on:
            return
        with self._lock:
            now = time.monotonic()
            if self._stop.is_set() or now - self._start < self._delay or now - self._last < self._interval:
                return
            self._last = now
            text = self.line()
            # pad over the previous line's tail: \r returns the cursor but does not erase
            self._stream.write("\r" + text.ljust(self._width))
            self._width = len(text)
            self._stream.flush()

    def close(self) -> None:
        self._stop.set()
        with self._lock:
            if self._on and self._width:
                self._stream.write("\r" + self.line().ljust(self._width) + "\n")
                self._stream.flush()
                self._width = 0
