"""The bridge's wire format: how a compiled program's requests and the engine's replies are framed.

A frame is a little-endian u32 length and that many bytes, the first a kind:

program -> engine
    H  hello: u32 protocol version, u32 pid, u64 GM base address, u64 GM reservation size
    D  define: u8 what ('o' operation, 'l' source line, 't' struct type), u32 id, str name,
       [str fields for 't'], u32 line, [u32 column for 'l']
    C  call: i32 block (-1: the host), u32 operation id, u32 line id, then tagged values to the frame's end
    F  fault (from a signal handler): u32 signal, u64 address, i32 block
engine -> program
    k  done;  r  a value's raw bytes;  w  u32 block: hand the baton to that block (the caller's call is
    complete when it gets the baton back);  d  the launch is over;  q  stop (the engine has reported why)

Tagged values: n none, b u8 bool, i i64, u u64, f f64, s str, e str type + str member (an enum),
x str dtype + u64 bits (an element value), L u8 TPosition + str dtype + u32 byte address + u32 byte length
(a LocalTensor), G str dtype + u64 address + u64 elements (a GlobalTensor), S u32 struct id + its fields,
a u32 n + n values. A str is a u32 length and UTF-8 bytes (decoded with surrogateescape: file names may
be anything). The C++ side is src/ascsim/program/include/ascsim/bridge.h and runtime/runtime.cpp.
"""

from __future__ import annotations

import os
import select
import struct
import time
from dataclasses import dataclass

from ..base.errors import AscsimError

PROTOCOL_VERSION = 1
#: The exit status of a program the engine told to stop (runtime.cpp QUIT_STATUS).
QUIT_STATUS = 86
#: A frame longer than this is a broken program, not a request.
MAX_FRAME = 64 << 20

_U32 = struct.Struct("<I")
_I32 = struct.Struct("<i")
_U64 = struct.Struct("<Q")
_I64 = struct.Struct("<q")
_F64 = struct.Struct("<d")


class BridgeError(AscsimError):
    """The program broke the bridge's protocol (a malformed frame): an ascsim bug or memory corruption."""


class Timeout(AscsimError):
    """The program did not answer in time."""


@dataclass(frozen=True)
class Enum:
    type: str
    member: str


@dataclass(frozen=True)
class Bits:
    dtype: str
    raw: int


@dataclass(frozen=True)
class LocalRef:
    position: int
    dtype: str
    addr: int
    nbytes: int


@dataclass(frozen=True)
class GlobalRef:
    dtype: str
    ptr: int
    elements: int


@dataclass(frozen=True)
class StructValue:
    type_id: int
    fields: tuple


class Reader:
    """Decodes one frame's body."""

    __slots__ = ("buf", "at")

    def __init__(self, buf: bytes, at: int = 0) -> None:
        self.buf, self.at = buf, at

    def done(self) -> bool:
        return self.at >= len(self.buf)

    def _take(self, n: int) -> bytes:
        if self.at + n > len(self.buf):
            raise BridgeError("a truncated frame")
        b = self.buf[self.at : self.at + n]
        self.at += n
        return b

    def u8(self) -> int:
        if self.at >= len(self.buf):
            raise BridgeError("a truncated frame")
        v = self.buf[self.at]
        self.at += 1
        return v

    def u32(self) -> int:
        (v,) = _U32.unpack_from(self._take(4))
        return v

    def i32(self) -> int:
        (v,) = _I32.unpack_from(self._take(4))
        return v

    def u64(self) -> int:
        (v,) = _U64.unpack_from(self._take(8))
        return v

    def str(self) -> str:
        n = self.u32()
        return self._take(n).decode("utf-8", "surrogateescape")

    def value(self, structs: dict[int, tuple[str, tuple[str, ...]]], depth: int = 0) -> object:
        if depth > 16:
            raise BridgeError("values nested too deep")
        tag = self.u8()
        if tag == 0x6E:  # n
            return None
        if tag == 0x62:  # b
            return bool(self.u8())
        if tag == 0x69:  # i
            (v,) = _I64.unpack_from(self._take(8))
            return v
        if tag == 0x75:  # u
            return self.u64()
        if tag == 0x66:  # f
            (v,) = _F64.unpack_from(self._take(8))
            return v
        if tag == 0x73:  # s
            return self.str()
        if tag == 0x65:  # e
            return Enum(self.str(), self.str())
        if tag == 0x78:  # x
            return Bits(self.str(), self.u64())
        if tag == 0x4C:  # L
            return LocalRef(self.u8(), self.str(), self.u32(), self.u32())
        if tag == 0x47:  # G
            return GlobalRef(self.str(), self.u64(), self.u64())
        if tag == 0x53:  # S
            sid = self.u32()
            if sid not in structs:
                raise BridgeError(f"struct type {sid} used before its definition")
            return StructValue(sid, tuple(self.value(structs, depth + 1) for _ in structs[sid][1]))
        if tag == 0x61:  # a
            n = self.u32()
            if n > 1 << 16:
                raise BridgeError("an array of absurd length")
            return [self.value(structs, depth + 1) for _ in range(n)]
        raise BridgeError(f"unknown value tag 0x{tag:02x}")

    def values(self, structs: dict[int, tuple[str, tuple[str, ...]]]) -> list:
        out = []
        while not self.done():
            out.append(self.value(structs))
        return out


class Channel:
    """The engine's end of the two pipes: frames in, replies out, with a deadline on every wait."""

    def __init__(self, req_fd: int, rep_fd: int) -> None:
        self.req, self.rep = req_fd, rep_fd
        self._buf = bytearray()
        self.deadline: float | None = None

    def read_frame(self) -> bytes | None:
        """The next frame's body, or None at end of file (the program exited or crashed)."""
        while True:
            if len(self._buf) >= 4:
                (n,) = _U32.unpack_from(self._buf)
                if n > MAX_FRAME or n == 0:
                    raise BridgeError(f"a frame of {n} bytes")
                if len(self._buf) >= 4 + n:
                    body = bytes(self._buf[4 : 4 + n])
                    del self._buf[: 4 + n]
                    return body
            if not self._fill():
                return None

    def _fill(self) -> bool:
        timeout = None if self.deadline is None else max(0.0, self.deadline - time.monotonic())
        ready, _, _ = select.select([self.req], [], [], timeout)
        if not ready:
            raise Timeout("the program did not finish in time")
        chunk = os.read(self.req, 1 << 20)
        if not chunk:
            return False
        self._buf += chunk
        return True

    def reply(self, kind: bytes, body: bytes = b"") -> None:
        data = _U32.pack(1 + len(body)) + kind + body
        try:
            os.write(self.rep, data)
        except (BrokenPipeError, OSError):
            pass  # the program is gone; the serve loop sees it at the next read

    def ok(self) -> None:
        self.reply(b"k")

    def value(self, raw: bytes) -> None:
        self.reply(b"r", raw)

    def switch(self, block: int) -> None:
        self.reply(b"w", _U32.pack(block))

    def launch_done(self) -> None:
        self.reply(b"d")

    def stop(self) -> None:
        self.reply(b"q")


def u64s(*values: int) -> bytes:
    """Raw u64 words for a value reply (GM offsets and lengths)."""
    return b"".join(_U64.pack(v & (2**64 - 1)) for v in values)
