"""Progress lines (ascsim.base.progress): shown on a terminal only, forced / silenced by ASCSIM_PROGRESS,
one line rewritten in place and finished with a newline. The expected texts are written out by hand."""

from __future__ import annotations

import io

import pytest

from ascsim.base.progress import Progress, progress_enabled


class _Tty(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_a_pipe_sees_nothing_a_terminal_sees_the_lines(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("ASCSIM_PROGRESS", raising=False)
    pipe, tty = io.StringIO(), _Tty()
    assert not progress_enabled(pipe) and progress_enabled(tty)
    for stream in (pipe, tty):
        with Progress("verifying", total=4, stream=stream, delay=0, interval=0, tick=False) as p:
            for _ in range(4):
                p.update()
    assert pipe.getvalue() == ""
    shown = tty.getvalue()
    assert shown.startswith("\rverifying: 1/4 (25%), ")
    assert "\rverifying: 3/4 (75%), " in shown
    assert shown.endswith(" s\n") and shown.count("\n") == 1


@pytest.mark.parametrize(("value", "tty", "expected"), [("1", False, True), ("0", True, False),
                                                        ("", True, True), ("", False, False)])
def test_the_environment_forces_or_silences(monkeypatch: pytest.MonkeyPatch, value: str, tty: bool,
                                            expected: bool) -> None:
    monkeypatch.setenv("ASCSIM_PROGRESS", value)
    assert progress_enabled(_Tty() if tty else io.StringIO()) is expected


def test_quick_work_prints_nothing_and_notes_show() -> None:
    quick = _Tty()
    with Progress("planning", stream=quick, enabled=True) as p:  # default delay: 2 s
        p.update(10)
    assert quick.getvalue() == ""
    slow = _Tty()
    with Progress("running", stream=slow, enabled=True, delay=0, interval=0, tick=False) as p:
        p.update(1234)
        p.note("at call 7")
    assert "\rrunning: 1,234 at call 7, " in slow.getvalue()


def test_a_shorter_line_erases_the_longer_one_before_it() -> None:
    tty = _Tty()
    p = Progress("x", stream=tty, enabled=True, delay=0, interval=0, tick=False)
    p.note("a long detail text")
    p.note("")
    last = tty.getvalue().split("\r")[-1]
    assert len(last) >= len("x: a long detail text, 0.0 s") and last.rstrip().endswith(" s")


def test_one_long_step_still_shows_its_time() -> None:
    """No update arrives during a long blocking step (a compile); the ticker shows the line anyway."""
    import time

    tty = _Tty()
    with Progress("building", stream=tty, enabled=True, delay=0.05, interval=0.02):
        deadline = time.monotonic() + 5
        while "building, " not in tty.getvalue() and time.monotonic() < deadline:
            time.sleep(0.01)
    assert tty.getvalue().startswith("\rbuilding, ") and tty.getvalue().endswith(" s\n")


def test_a_count_carries_its_unit() -> None:
    tty = _Tty()
    with Progress("running k.cpp", stream=tty, enabled=True, delay=0, interval=0, tick=False,
                  unit="calls") as p:
        p.update(3)
    assert "\rrunning k.cpp: 3 calls, " in tty.getvalue()
