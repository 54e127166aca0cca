"""Runtime objects a kernel manipulates besides scalars: GM and its pointers, unset tensors, and the
TPipe / TQue / TQueBind / TBuf resource manager with the buffer addresses the C++ runtime gives.

GM is one byte space (a `Memory` named "GM" owned by the core): every kernel parameter bound to a file is
placed in it at a 512-byte aligned address with a guard gap after it, so a read just past a bound buffer
lands in GM and is a HazardWarning (the tensor does not cover it), as elsewhere in ascsim, not an error.

Buffer addresses (资源管理/TPipe/InitBuffer.md; asc-devkit impl/basic_api/kernel_tpipe_impl.h
TPipe::InitBuffer / ResetPool, kernel_event.h GetBufferPos): a TPipe keeps one allocation cursor per
physical memory (L1, L0A, L0B, L0C, BT, FB), starting at 0 when the TPipe is constructed. InitBuffer(que,
num, len) rounds len up to 32 bytes and gives the queue `num` blocks at consecutive addresses from the
cursor of the queue's memory, then moves the cursor past them; InitBuffer(tbuf, len) does the same with
one block. AllocTensor takes the queue's blocks round-robin (bufCursor), skipping none: a block still in
use means the C++ loop would spin forever, which ascsim reports instead.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..base.errors import AscsimError
from ..machine.dtypes import DType
from ..machine.memory import LocalTensor, Memory, memory_of

#: GM layout: buffer alignment and the guard gap after each bound buffer.
GM_ALIGN = 512
GM_GUARD = 64 * 1024


class RuntimeFault(AscsimError):
    """A kernel operation the C++ runtime would reject or hang on (the caller adds the source location)."""


@dataclass
class GmBuffer:
    """One kernel parameter's bytes in GM."""

    name: str
    addr: int
    nbytes: int
    is_output: bool = False


class GmSpace:
    """Global memory: one byte space holding every bound kernel parameter."""

    def __init__(self, core: object, buffers: dict[str, tuple[bytes | None, int]]) -> None:
        """`buffers`: name -> (initial bytes or None for an output, size in bytes)."""
        addr = 0
        self.buffers: dict[str, GmBuffer] = {}
        for name, (data, size) in buffers.items():
            self.buffers[name] = GmBuffer(name, addr, size, data is None)
            addr += -(-(size + GM_GUARD) // GM_ALIGN) * GM_ALIGN
        self.memory = Memory("GM", max(addr, GM_ALIGN), getattr(core, "fill", None))
        self.memory.owner = core
        for name, (data, _) in buffers.items():
            if data is not None:
                b = self.buffers[name]
                self.memory.data[b.addr : b.addr + len(data)] = memoryview(data)
        self.initial = self.memory.data.copy()

    def buffer_at(self, addr: int) -> GmBuffer | None:
        for b in self.buffers.values():
            if b.addr <= addr < b.addr + max(b.nbytes, 1):
                return b
        return None

    def read(self, name: str) -> bytes:
        b = self.buffers[name]
        return self.memory.data[b.addr : b.addr + b.nbytes].tobytes()


@dataclass(frozen=True)
class GmPtr:
    """A `__gm__ T*`: a byte address in GM viewed as elements of `dtype` (None: uint8_t* / void*).
    `param` names the kernel parameter it came from; `space` is None when that parameter is unbound."""

    space: GmSpace | None
    addr: int
    dtype: DType | None
    param: str

    def tensor(self, dtype: DType, length: int | None) -> LocalTensor:
        """The GlobalTensor SetGlobalBuffer makes: `length` elements, or up to the end of the buffer."""
        if self.space is None:
            raise RuntimeFault(
                f"kernel parameter '{self.param}' is not bound: give it with --gm "
                f"{self.param}=FILE (a read input or FILE:DTYPE:SHAPE for an output)"
            )
        if length is None:
            buf = self.space.buffer_at(self.addr)
            end = buf.addr + buf.nbytes if buf is not None else self.addr
            length = max(0, end - self.addr) * 8 // dtype.bits
        mem = self.space.memory
        if self.addr + (length * dtype.bits + 7) // 8 > mem.size:
            raise RuntimeFault(
                f"SetGlobalBuffer: {length} elements of {dtype.name} from GM address "
                f"{self.addr} run past the end of GM ({mem.size} B)"
            )
        return LocalTensor(mem, "GM", self.addr, dtype, length)


@dataclass(frozen=True)
class Unset:
    """A tensor object declared but not yet given memory: `LocalTensor<T> t;`, `GlobalTensor<T> g;`, or
    a GlobalTensor made from an unbound kernel parameter (`param` set)."""

    kind: str  # "LocalTensor" | "GlobalTensor"
    dtype: DType
    param: str = ""

    def fault(self, use: str) -> RuntimeFault:
        if self.param:
            return RuntimeFault(
                f"{use} touches kernel parameter '{self.param}', which is not bound: give it "
                f"with --gm {self.param}=FILE"
            )
        what = "SetGlobalBuffer" if self.kind == "GlobalTensor" else "a TPosition and address or a queue"
        return RuntimeFault(
            f"{use} uses a {self.kind}<{self.dtype.name}> that was never given memory ({what})"
        )


# -- TPipe / TQue / TBuf ----------------------------------------------------------------------------------

#: TQue<pos>'s (source, destination) logical positions (kernel_event.h GetBufferLogicPos).
QUE_LOGIC = {
    "A1": ("GM", "A1"),
    "B1": ("GM", "B1"),
    "C1": ("GM", "C1"),
    "A2": ("A1", "A2"),
    "B2": ("B1", "B2"),
    "C2": ("C1", "C2"),
    "CO1": ("CO1", "CO2"),
    "CO2": ("CO2", "GM"),
    "C2PIPE2GM": ("B1", "C2PIPE2GM"),
}

#: (source memory, destination memory) -> (EnQue/DeQue event, FreeTensor/AllocTensor event)
#: (kernel_event.h GetQueEvt for arch 2201/3510).
_QUE_EVENTS = {
    ("GM", "L1"): ("MTE2_MTE1", "MTE1_MTE2"),
    ("L1", "L0A"): ("MTE1_M", "M_MTE1"),
    ("L1", "L0B"): ("MTE1_M", "M_MTE1"),
    ("L1", "BT"): ("MTE1_M", "M_MTE1"),
    ("L1", "FB"): ("MTE1_FIX", "FIX_MTE1"),
    ("L0C", "GM"): ("M_FIX", "FIX_M"),
    ("GM", "L0A"): ("MTE2_M", "M_MTE2"),
    ("GM", "L0B"): ("MTE2_M", "M_MTE2"),
}


def queue_events(src: str, dst: str) -> tuple[str, str]:
    """The (forward, backward) HardEvents of a queue between TPositions `src` and `dst`."""
    key = (memory_of(src), memory_of(dst))
    if key not in _QUE_EVENTS:
        raise RuntimeFault(
            f"a queue from {src} to {dst} ({key[0]} -> {key[1]}) has no sync events ascsim models"
        )
    return _QUE_EVENTS[key]


def buffer_memory(src: str, dst: str) -> str:
    """The physical memory a queue's blocks live in (kernel_event.h GetBufferPos)."""
    return memory_of(src) if dst in ("GM", "CO2") else memory_of(dst)


@dataclass
class Block:
    addr: int
    nbytes: int
    state: str = "free"  # free | occupied | enqueued | dequeued
    freed_at: str = ""  # where FreeTensor set the backward flag (AllocTensor waits for it)


@dataclass
class Queue:
    """TQue<pos, depth> / TQueBind<src, dst, depth> (TBuf when `is_tbuf`)."""

    name: str
    src: str
    dst: str
    depth: int
    is_tbuf: bool = False
    blocks: list[Block] = field(default_factory=list)
    cursor: int = 0
    fifo: list[int] = field(default_factory=list)
    tbuf_offset: int = 0

    @property
    def position(self) -> str:
        """The TPosition tensors of this queue carry (the non-GM end)."""
        return self.src if self.dst in ("GM", "CO2") else self.dst

    @property
    def memory(self) -> str:
        return buffer_memory(self.src, self.dst)

    def block_of(self, t: LocalTensor) -> int:
        for i, b in enumerate(self.blocks):
            if t.memory.name == self.memory and b.addr <= t.offset < b.addr + b.nbytes:
                return i
        raise RuntimeFault(
            f"{self.name}: the tensor at {t.memory.name} address {t.offset} is not one of this "
            "queue's buffers"
        )


class Pipe:
    """TPipe: per-memory allocation cursors (0 at construction, as TPipe's ResetPool sets them)."""

    def __init__(self, memories: dict[str, int]) -> None:
        self.sizes = memories
        self.cursor: dict[str, int] = {}

    def init_buffer(self, q: Queue, num: int, length: int) -> None:
        if q.blocks:
            raise RuntimeFault(f"InitBuffer: {q.name} already has buffers")
        if not 1 <= num <= 64:
            raise RuntimeFault(
                f"InitBuffer: num must be in [1, 64], but got {num} (the C++ API checks "
                "ASCENDC_CHECK_VALUE_RANGE(num, 1, QBUF_MAX_LEN))"
            )
        if length <= 0:
            raise RuntimeFault(f"InitBuffer: len must be > 0, but got {length}")
        mem = q.memory
        if mem not in self.sizes:
            raise RuntimeFault(f"InitBuffer: {q.name} lives in {mem}, which this chip does not have")
        blen = -(-length // 32) * 32  # InitBuffer.md: len is rounded up to 32 bytes
        addr = self.cursor.get(mem, 0)
        if addr + num * blen > self.sizes[mem]:
            raise RuntimeFault(
                f"InitBuffer: {num} x {blen} B for {q.name} from {mem} address {addr} exceed "
                f"{mem} ({self.sizes[mem]} B)"
            )
        q.blocks = [Block(addr + i * blen, blen) for i in range(num)]
        self.cursor[mem] = addr + num * blen
