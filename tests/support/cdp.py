"""A minimal Chrome DevTools Protocol client over `--remote-debugging-pipe` (standard library only): start
headless Chromium, open a page, evaluate JavaScript, send real mouse events, collect the page's uncaught
exceptions and console errors. Used by the explorer test."""

from __future__ import annotations

import fcntl
import json
import os
import shutil
import subprocess
import tempfile
import time
from collections.abc import Callable, Iterator
from typing import Any

FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--remote-debugging-pipe", "--window-size=1400,1200"]


NO_CHROMIUM = "no Chromium executable on PATH (Debian: apt-get install chromium; .ci/run does it)"


def browser_session(skip: Callable[[str], Any]) -> Iterator[Browser]:
    """A Browser for a test module's fixture (`yield from browser_session(pytest.skip)`), closed after it;
    `skip(NO_CHROMIUM)` without Chromium."""
    exe = find_chromium()
    if exe is None:
        skip(NO_CHROMIUM)
        return
    b = Browser(exe)
    try:
        yield b
    finally:
        b.close()


def find_chromium() -> str | None:
    for name in ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable"):
        path = shutil.which(name)
        if path:
            return path
    return None


class Browser:
    """Chromium driven over fds 3 (commands in) / 4 (replies out), NUL-separated JSON messages."""

    def __init__(self, exe: str) -> None:
        self.profile = tempfile.mkdtemp(prefix="ascsim-cdp-")
        # move the pipe ends above 10 so placing them at 3 and 4 in the child cannot clobber one another
        to_chrome_r, self._to_chrome, self._from_chrome, from_chrome_w = (
            fcntl.fcntl(fd, fcntl.F_DUPFD_CLOEXEC, 10) for fd in (*os.pipe(), *os.pipe()))

        def child_fds() -> None:  # the pipe protocol expects exactly fds 3 (commands) and 4 (replies)
            os.dup2(to_chrome_r, 3)
            os.dup2(from_chrome_w, 4)

        self.proc = subprocess.Popen([exe, *FLAGS, f"--user-data-dir={self.profile}", "about:blank"],
                                     preexec_fn=child_fds, close_fds=False,
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.close(to_chrome_r)
        os.close(from_chrome_w)
        self._buf = b""
        self._id = 0
        self.session: str | None = None
        # the open page's uncaught exceptions and console.error calls (Runtime events), since `open`
        self.errors: list[dict] = []

    def _is_error(self, msg: dict) -> bool:
        if msg.get("sessionId") != self.session or self.session is None:
            return False
        return msg.get("method") == "Runtime.exceptionThrown" or (
            msg.get("method") == "Runtime.consoleAPICalled" and msg["params"].get("type") == "error")

    def send(self, method: str, params: dict | None = None, session: bool = True, timeout: float = 30) -> Any:
        self._id += 1
        msg: dict[str, Any] = {"id": self._id, "method": method, "params": params or {}}
        if session and self.session:
            msg["sessionId"] = self.session
        os.write(self._to_chrome, json.dumps(msg).encode() + b"\0")
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            while b"\0" in self._buf:
                raw, self._buf = self._buf.split(b"\0", 1)
                reply = json.loads(raw)
                if self._is_error(reply):
                    self.errors.append(reply["params"])
                if reply.get("id") == self._id:
                    if "error" in reply:
                        raise RuntimeError(f"{method}: {reply['error']}")
                    return reply.get("result", {})
            chunk = os.read(self._from_chrome, 1 << 16)
            if not chunk:
                raise RuntimeError("chromium closed the pipe")
            self._buf += chunk
        raise TimeoutError(method)

    def open(self, url: str) -> None:
        target = self.send("Target.createTarget", {"url": "about:blank"}, session=False)["targetId"]
        self.session = self.send("Target.attachToTarget", {"targetId": target, "flatten": True},
                                 session=False)["sessionId"]
        self.errors = []
        self.send("Page.enable")
        self.send("Runtime.enable")  # before navigating: an exception while the page loads is reported too
        self.send("Page.navigate", {"url": url})
        end = time.monotonic() + 30
        while self.eval("document.readyState") != "complete" and time.monotonic() < end:
            time.sleep(0.05)

    def eval(self, expr: str) -> Any:
        r = self.send("Runtime.evaluate", {"expression": expr, "returnByValue": True})
        if "exceptionDetails" in r:
            raise RuntimeError(f"{expr}: {r['exceptionDetails']}")
        return r["result"].get("value")

    def move_mouse(self, x: float, y: float) -> None:
        self.send("Input.dispatchMouseEvent", {"type": "mouseMoved", "x": x, "y": y})

    def mouse(self, kind: str, x: float, y: float, **extra: Any) -> None:
        """One real mouse event: kind mousePressed / mouseMoved / mouseReleased / mouseWheel (extra: button,
        buttons, clickCount, modifiers (8 = shift), deltaX, deltaY)."""
        self.send("Input.dispatchMouseEvent", {"type": kind, "x": x, "y": y, **extra})

    def drag(self, a: tuple[float, float], b: tuple[float, float], modifiers: int = 0,
             steps: int = 5) -> None:
        """Press the left button at a, move to b in `steps` moves, release (modifiers 8 = shift held)."""
        self.mouse("mousePressed", *a, button="left", buttons=1, clickCount=1, modifiers=modifiers)
        for i in range(1, steps + 1):
            t = i / steps
            self.mouse("mouseMoved", a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t, button="left",
                       buttons=1, modifiers=modifiers)
        self.mouse("mouseReleased", *b, button="left", buttons=0, clickCount=1, modifiers=modifiers)

    def screenshot(self, path: str) -> None:
        """The page as a PNG (for looking at a failing test)."""
        import base64

        data = self.send("Page.captureScreenshot", {"format": "png"})["data"]
        with open(path, "wb") as f:
            f.write(base64.b64decode(data))

    def close(self) -> None:
        try:
            self.send("Browser.close", session=False, timeout=5)
        except (RuntimeError, TimeoutError, OSError):
            pass
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
        os.close(self._to_chrome)
        os.close(self._from_chrome)
        shutil.rmtree(self.profile, ignore_errors=True)
