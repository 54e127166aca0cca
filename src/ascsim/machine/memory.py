"""Byte-addressed on-chip memories and the tensors that view them.

A `Memory` is a flat uint8 buffer named after the physical buffer (L1, L0A, ...). A `LocalTensor` is
(memory, TPosition, byte offset, dtype, length) exactly like `AscendC::LocalTensor<T>`: `t[i]` is the
tensor that starts `i` elements further on, as in C++ (doc: 数据结构/LocalTensor).

GM is one `GlobalMemory` per Core: a single byte space in which every global tensor is a view, so two
tensors over the same addresses alias and a read just past a tensor lands in GM, as on the device
(docs/divergences.md G1-G3).
"""

from __future__ import annotations

import bisect
import mmap
import os
import sys
from collections.abc import Mapping

import numpy as np

from ..base import coerce
from ..base.errors import AlignmentError, BoundsError, ParamRangeError, UnsupportedError, did_you_mean
from .chips import TPOSITION_TO_MEMORY
from .dtypes import DType, from_bytes, get_dtype, raw_from_bytes, raw_to_bytes, to_bytes

#: Byte written into fresh on-chip memory so untouched bytes stand out (0xCDCD is -23.2 in half,
#: -1.4e-8 in float, -51 in int8).
MARKER = 0xCD

#: Bytes past the end of every memory's backing buffer, invisible to tensors: the executor parks the pad
#: pattern there so a plan's pad units are just more indices of its one gather (docs/performance.md,
#: "Execution").
SPARE = 32

#: TPosition -> physical memory on every chip ascsim models (asc-devkit kernel_event.h GetPhyType).
POSITION_MEMORY: Mapping[str, str] = TPOSITION_TO_MEMORY


def memory_of(position: str) -> str:
    """The physical memory behind a TPosition name."""
    try:
        return POSITION_MEMORY[position]
    except (KeyError, TypeError):  # TypeError: an unhashable value
        hint = position_hint(position) if isinstance(position, str) else ""
        raise UnsupportedError(
            f"TPosition {coerce.show(position)} is not modelled{hint}; known: {', '.join(POSITION_MEMORY)}"
        ) from None


def position_hint(position: object) -> str:
    """A memory name given where a TPosition goes ("L0A" -> A2), or the closest TPosition."""
    pos = [p for p, m in POSITION_MEMORY.items() if m.lower() == str(position).lower() and p != m]
    if pos:
        return f" (L0A, L1, ... are memories: the TPosition{'s' if len(pos) > 1 else ''} for {position} " \
               f"{'are' if len(pos) > 1 else 'is'} {' / '.join(pos)})"
    return did_you_mean(position, POSITION_MEMORY)


class Memory:
    """One physical buffer: `size` bytes, freshly filled with `fill`."""

    def __init__(self, name: str, size: int, fill: int | None = MARKER) -> None:
        self.name = name
        self.size = int(size)
        # The backing buffer is rounded up to 32 B and followed by SPARE bytes; `data` is the
        # user-visible `size` bytes, the tail holds the current pad block (see `pad_index`).
        self._buf = np.full(-(-self.size // SPARE) * SPARE + SPARE, MARKER if fill is None else fill,
                            dtype=np.uint8)
        self.data = self._buf[: self.size]
        self._pad_key: tuple[int, int, int] | None = None
        self.owner: object = None  # the Core this buffer belongs to (lets the C++-style facade find it)

    def units(self, unit: int) -> np.ndarray:
        """The whole backing buffer (memory + spare block) as `unit`-byte void items."""
        return self._buf.view(f"V{unit}")

    def pad_index(self, unit: int, block: np.ndarray, key: tuple[int, int, int]) -> int:
        """Park the `unit`-byte pad block in the spare tail and return its index among `unit`-byte
        items (no tensor can address it: it lies past `size`)."""
        first = len(self._buf) - SPARE
        if self._pad_key is not key and self._pad_key != key:
            self._buf[first:] = np.resize(block.view(np.uint8), SPARE)
            self._pad_key = key
        return first // unit

    def __repr__(self) -> str:
        return f"Memory({self.name}, {self.size} B)"

    def check_range(self, start: int, nbytes: int, what: str, *, write: bool = True) -> None:
        """Raise BoundsError unless bytes [start, start + nbytes) lie in this memory. `write`: whether the
        access writes them (a narrower memory may let reads pass where writes may not: SharedGlobalMemory)."""
        if start < 0 or start + nbytes > self.size:
            raise BoundsError(
                f"{what}: bytes [{coerce.show(start)}, {coerce.show(start + nbytes)}) lie outside "
                f"{self.name} (size {self.size} B)"
            )


#: Byte capacity of the GM address space of one Core (64 GiB of address space, committed page by page).
GM_CAPACITY = 1 << 36
#: GM allocations start on this boundary (byte addresses of `Core.global_tensor` tensors).
GM_ALIGN = 512
#: Fresh GM tensors up to this size are filled with the marker; larger ones read 0 until written, so that
#: declaring a huge tensor costs nothing (divergences G2).
GM_MARKER_LIMIT = 1 << 26
# Linux MAP_NORESERVE (Python < 3.13 lacks the constant): commit pages on first touch, no swap reservation.
_MAP_NORESERVE = getattr(mmap, "MAP_NORESERVE", 0x4000 if sys.platform.startswith("linux") else 0)


def _lazy_bytes(capacity: int) -> tuple[np.ndarray, int]:
    """A zero-filled uint8 array of up to `capacity` bytes whose pages the OS commits only when touched
    (an anonymous private mapping); falls back to smaller address spaces where the OS refuses."""
    flags = getattr(mmap, "MAP_PRIVATE", 0) | getattr(mmap, "MAP_ANONYMOUS", 0) | _MAP_NORESERVE
    size = capacity
    while True:
        try:
            buf = mmap.mmap(-1, size, flags=flags) if flags else mmap.mmap(-1, size)
            return np.frombuffer(buf, dtype=np.uint8), size
        except (OSError, ValueError, OverflowError):
            if size <= 1 << 26:
                raise
            size >>= 2


class GlobalMemory(Memory):
    """GM of one Core: a byte space of `GM_CAPACITY` bytes (pages committed on first touch) with a bump
    allocator for `Core.global_tensor`. Bytes never written read 0, except that allocations up to
    `GM_MARKER_LIMIT` bytes are filled with the marker like on-chip memory (divergences G2)."""

    def __init__(self, fill: int | None = MARKER, capacity: int = GM_CAPACITY) -> None:
        self.name = "GM"
        self._buf, mapped = _lazy_bytes(capacity)
        self.size = mapped - SPARE  # the spare tail holds the pad block, as in every Memory
        self.data = self._buf[: self.size]
        self._pad_key = None
        self.fill = MARKER if fill is None else fill
        self.top = 0  # next free byte of the bump allocator
        self.owner = None

    def allocate(self, nbytes: int) -> int:
        """Reserve `nbytes` (GM_ALIGN-aligned start) and return the start address."""
        start = -(-self.top // GM_ALIGN) * GM_ALIGN
        self.check_range(start, nbytes, "GM allocation")
        self.top = start + nbytes
        if nbytes <= GM_MARKER_LIMIT:
            self.data[start : start + nbytes] = self.fill
        return start


#: aclrtMalloc rounds a size up to 32 bytes and adds 32 (the aclrtMalloc page: "向上对齐成32字节整数倍
#: 后再多加32字节"); those bytes are addressable.
ACL_ROUND, ACL_EXTRA = 32, 32
#: Allocations of a shared GM start on a page and are followed by at least one unmapped page, so a program
#: that writes past one through a raw pointer faults instead of corrupting the next.
GM_PAGE = 4096


class SharedGlobalMemory(GlobalMemory):
    """The GM of a compiled program: a memfd the program maps too (so host code and raw pointers reach it
    natively) and every block's Core shares. Only live allocations are addressable: an instruction whose
    GM bytes leave every allocation is refused (`check_range`; a read running past the end of an aclrtMalloc
    allocation is a hazard instead), where a Python Core's GM is one open byte space (divergences G1).
    `limit` bounds the bytes allocated at once."""

    def __init__(self, fill: int | None = MARKER, capacity: int = 1 << 36, limit: int = 4 << 30) -> None:
        self.fd = os.memfd_create("ascsim-gm", 0)
        try:
            os.ftruncate(self.fd, capacity)
            self._map = mmap.mmap(self.fd, capacity, mmap.MAP_SHARED, mmap.PROT_READ | mmap.PROT_WRITE)
        except OSError:
            os.close(self.fd)
            raise
        self.name = "GM"
        self.capacity = capacity
        self._buf = np.frombuffer(self._map, dtype=np.uint8)
        self.size = capacity - SPARE
        self.data = self._buf[: self.size]
        self._pad_key = None
        self.fill = MARKER if fill is None else fill
        self.top = GM_PAGE  # address 0 stays unmapped: a null pointer faults
        self.owner = None
        self.limit = limit
        self.live: dict[int, int] = {}  # start -> addressable bytes
        self.labels: dict[int, str] = {}  # start -> what made it ("aclrtMalloc at k.cpp:12", "--gm a")
        self.rounded: set[int] = set()  # starts of aclrtMalloc allocations (reads may run past their end)
        self._starts: list[int] = []
        self._in_use = 0

    def close(self) -> None:
        """Release the mapping and the memfd (tensors viewing it must be gone)."""
        try:
            self._map.close()
        except BufferError:
            pass  # a numpy view still holds it; the memory goes with the last view
        os.close(self.fd)

    def allocate(self, nbytes: int, label: str = "", exact: bool = False) -> int:
        """A new allocation of `nbytes` (aclrtMalloc's rounding unless `exact`); returns its start. Raises
        BoundsError when the GM limit would be exceeded."""
        usable = nbytes if exact else -(-max(nbytes, 1) // ACL_ROUND) * ACL_ROUND + ACL_EXTRA
        mapped = -(-usable // GM_PAGE) * GM_PAGE
        if self._in_use + mapped > self.limit or self.top + mapped + GM_PAGE > self.size:
            raise BoundsError(f"GM allocation of {nbytes} B: the simulated device memory holds "
                              f"{self.limit} B ({self._in_use} B in use); raise it with --gm-limit")
        start = self.top
        self.top = start + mapped + GM_PAGE  # one unmapped page after it
        self.live[start] = usable
        self.labels[start] = label
        if not exact:
            self.rounded.add(start)
        bisect.insort(self._starts, start)
        self._in_use += mapped
        if usable <= GM_MARKER_LIMIT:
            self.data[start : start + usable] = self.fill
        return start

    def reserve(self, nbytes: int) -> int:
        """Address space no allocation will take and nothing maps (an unbound kernel parameter points
        there: touching it faults or is refused, naming the parameter)."""
        start = self.top
        self.top = start + -(-nbytes // GM_PAGE) * GM_PAGE + GM_PAGE
        return start

    def mapped_length(self, start: int) -> int:
        """Bytes the program maps for the allocation at `start` (whole pages)."""
        return -(-self.live[start] // GM_PAGE) * GM_PAGE

    def free(self, start: int) -> int:
        """Forget the allocation at `start`; returns its mapped length (the program unmaps it)."""
        mapped = self.mapped_length(start)
        del self.live[start]
        self.labels.pop(start, None)
        self.rounded.discard(start)
        self._starts.remove(start)
        self._in_use -= mapped
        return mapped

    def allocation_of(self, addr: int) -> tuple[int, int] | None:
        """(start, addressable bytes) of the live allocation holding byte `addr`, or None."""
        i = bisect.bisect_right(self._starts, addr) - 1
        if i < 0:
            return None
        start = self._starts[i]
        n = self.live[start]
        return (start, n) if addr < start + n else None

    def check_range(self, start: int, nbytes: int, what: str, *, write: bool = True) -> None:
        """Refuse GM bytes outside every allocation, except a read that starts inside an aclrtMalloc
        allocation and runs past its end: the device reads whatever follows it (an official example does:
        asc-devkit load_data_l12l0.asc scenario 14 splits a 70-row input into five 16-row ND matrices). The
        GM tensor of such a read ends with its allocation, so the caller reports the read as its hazard
        ("past the source LocalTensor"; strict: an error), as on a Python Core (divergences G1). Writes past
        an allocation, and accesses past a --gm binding (its bytes are all the kernel was given), are
        refused."""
        super().check_range(start, nbytes, what)
        if nbytes <= 0:
            return
        hit = self.allocation_of(start)
        if hit is not None and start + nbytes <= hit[0] + hit[1]:
            return
        if hit is not None and not write and hit[0] in self.rounded:
            return
        if hit is None:
            where = "no allocation holds its first byte"
        else:
            label = self.labels.get(hit[0]) or "aclrtMalloc"
            where = f"the allocation [{hit[0]}, {hit[0] + hit[1]}) from {label} ends at {hit[0] + hit[1]}"
        raise BoundsError(f"{what}: GM bytes [{start}, {start + nbytes}) lie outside every GM allocation "
                          f"({where})")


class LocalTensor:
    """A typed window into a memory: `LocalTensor<T>` at `offset` bytes holding `length` elements.

    `name` (optional) is what explain, draw and the explorer call it (`core.tensor(..., name="fmap")`); a
    tensor taken from it keeps it: `t[16]` is `fmap[16:]`, `t.reinterpret(...)` is `fmap`."""

    __slots__ = ("memory", "position", "offset", "dtype", "length", "name")

    def __init__(self, memory: Memory, position: str, offset: int, dtype: DType | str, length: int,
                 name: str | None = None) -> None:
        if name is not None and not isinstance(name, str):
            raise ParamRangeError(f"LocalTensor: name must be a string, but got {coerce.show(name)}")
        self.name = name
        self.memory = memory
        self.position = position
        self.offset = _int("offset", offset)
        self.dtype = get_dtype(dtype)
        self.length = _int("length", length)
        if self.length < 0:
            raise ParamRangeError(f"LocalTensor: length must be >= 0, but got {coerce.show(length)}")
        memory.check_range(self.offset, self.nbytes, f"LocalTensor<{self.dtype}> at {position}")

    # -- geometry -------------------------------------------------------------------------------
    @property
    def nbytes(self) -> int:
        return (self.length * self.dtype.bits + 7) // 8

    @property
    def mem_name(self) -> str:
        return self.memory.name

    def GetPhyAddr(self) -> int:  # noqa: N802 - C++ spelling
        return self.offset

    def GetSize(self) -> int:  # noqa: N802 - C++ spelling
        return self.length

    def GetPosition(self) -> str:  # noqa: N802 - C++ spelling
        return self.position

    def __len__(self) -> int:
        return self.length

    def __getitem__(self, i: int) -> LocalTensor:
        """`t[i]`: the tensor starting i elements further on (sub-byte types need even i)."""
        i = _int("index", i)
        if not 0 <= i <= self.length:
            raise BoundsError(f"LocalTensor[{coerce.show(i)}]: index outside [0, {self.length}]")
        bits = i * self.dtype.bits
        if bits % 8:
            raise AlignmentError(
                f"LocalTensor<{self.dtype}>[{i}]: a {self.dtype.bits}-bit element index must be even "
                "to address a byte"
            )
        name = None if self.name is None else f"{self.name}[{i}:]" if i else self.name
        return LocalTensor(self.memory, self.position, self.offset + bits // 8, self.dtype, self.length - i,
                           name)

    def reinterpret(self, dtype: DType | str) -> LocalTensor:
        """`ReinterpretCast<U>()`: same bytes, new element type."""
        dt = get_dtype(dtype)
        return LocalTensor(self.memory, self.position, self.offset, dt, self.nbytes * 8 // dt.bits, self.name)

    ReinterpretCast = reinterpret

    # -- data -------------------------------------------------------------------------------------
    def bytes(self) -> np.ndarray:
        """A writable uint8 view of the tensor's bytes."""
        return self.memory.data[self.offset : self.offset + self.nbytes]

    def read(self, count: int | None = None) -> np.ndarray:
        """Element values (a copy), in the dtype's numpy value type."""
        n = self.length if count is None else _int("count", count)
        return from_bytes(self.dtype, self.bytes(), n)

    def read_raw(self, count: int | None = None) -> np.ndarray:
        n = self.length if count is None else _int("count", count)
        return raw_from_bytes(self.dtype, self.bytes(), n)

    def write(self, values: object, start: int = 0) -> None:
        """Store values (encoded to the dtype) from element `start` on.

        An unsigned-integer array as wide as a float dtype (uint16 for half / bfloat16_t, uint8 for the
        8-bit floats, uint32 for float) is refused: it is almost always a bit-pattern array, which
        `write` would convert value by value. Use `write_raw` (or `Core.tensor(..., raw=...)`)."""
        self._store(encode_values(self.dtype, values), start)

    def write_raw(self, raw: object, start: int = 0) -> None:
        raw = coerce.numeric_array(f"LocalTensor<{self.dtype.name}>.write_raw", "raw", raw, "bit patterns")
        self._store(raw_to_bytes(self.dtype, raw.ravel()), start)

    def _store(self, data: np.ndarray, start: int) -> None:
        t = self if start is None or (start.__class__ is int and start == 0) else self[start]
        if data.size > t.nbytes:
            raise BoundsError(
                f"LocalTensor<{self.dtype}>.write: {data.size} B do not fit in {t.nbytes} B "
                f"from element {start}"
            )
        t.memory.data[t.offset : t.offset + data.size] = data

    def fill_raw(self, pattern: int) -> None:
        """Fill every element with one raw bit pattern."""
        hi = 15 if self.dtype.is_4bit else (1 << self.dtype.bits) - 1
        p = coerce.integer(f"LocalTensor<{self.dtype.name}>.fill_raw", "pattern", pattern, 0, hi)
        self.write_raw(np.full(self.length, p, dtype=self.dtype.raw_dtype))

    def __repr__(self) -> str:
        """Text view with values: the first elements (and the last ones of a long tensor); elements whose
        bytes still hold the fill marker are shown as `_` (never written). Pictures live in ascsim.view."""
        named = f"{self.name}: " if self.name is not None else ""
        head = (f"LocalTensor<{self.dtype}>({named}{self.position}/{self.memory.name} @0x{self.offset:x}, "
                f"{self.length} elems, {self.nbytes} B)")
        return f"{head} {self._values_text()}" if self.length else head

    def _values_text(self, first: int = 8, last: int = 2) -> str:
        n, bits = self.length, self.dtype.bits
        # the tail starts at an even element so 4-bit tensors stay byte-addressable
        chunks = [(0, n)] if n <= first + last + 2 else [(0, first), ((n - last) & ~1, n)]
        fill = getattr(self.memory.owner, "fill", MARKER)
        parts: list[str] = []
        for lo, hi in chunks:
            t = self[lo] if lo else self
            raw = t.bytes()
            for j, v in enumerate(t.read(hi - lo).tolist()):
                b = raw[j // 2 : j // 2 + 1] if bits == 4 else raw[j * bits // 8 : (j + 1) * bits // 8]
                parts.append("_" if (b == fill).all() else short_value(v))
            if hi < n:
                parts.append("...")
        note = " (_ = fill marker, never written)" if "_" in parts else ""
        return f"[{', '.join(parts)}]{note}"


def encode_values(dt: DType, values: object) -> np.ndarray:
    """The bytes of `values` (numbers) encoded as `dt` elements; ParamRangeError for anything else. An
    unsigned-integer array as wide as a float dtype is refused: it is almost always bit patterns."""
    v = coerce.numeric_array(f"LocalTensor<{dt.name}>.write", "values", values)
    if dt.kind == "float" and v.dtype.kind == "u" and v.dtype.itemsize * 8 == dt.bits:
        raise ParamRangeError(
            f"LocalTensor<{dt.name}>.write: a {v.dtype} array for a {dt.name} tensor looks like raw bit "
            f"patterns, but write() takes values and would convert each integer to {dt.name}; pass the "
            "bits with write_raw() / Core.tensor(..., raw=...), or the values as a float array")
    return to_bytes(dt, v.ravel())


def _int(name: str, value: object) -> int:
    """A tensor's offset / length / index: an integer (ParamRangeError for 2.5, "3", None, ...)."""
    v = coerce.as_int(value)
    if v is None:
        raise ParamRangeError(f"LocalTensor: {name} must be an integer, but got {coerce.show(value)}")
    return v


def short_value(v: object) -> str:
    if isinstance(v, float):
        return f"{int(v)}" if v.is_integer() and abs(v) < 1e15 else f"{v:.4g}"
    return str(v)


GlobalTensor = LocalTensor
