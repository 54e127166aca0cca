"""Memories and LocalTensor: `t[i]` byte offsets, value/raw round trips per dtype, reinterpret, the
fresh-memory marker, and the bounds / alignment errors.

doc: 数据结构/LocalTensor (t[i] is the tensor i elements further on); docs/number_formats.md for
the per-dtype value tables and the 4-bit packing (element 2i in the low nibble, §4 table: 0x21 holds (1, 2)).
"""

from __future__ import annotations

import numpy as np
import pytest

from ascsim import AlignmentError, BoundsError, Core, ParamRangeError, UnsupportedError
from ascsim.machine.dtypes import get_dtype
from ascsim.machine.memory import MARKER, LocalTensor, Memory, memory_of

ALL_DTYPES = [
    "int4b_t", "int8_t", "uint8_t", "fp8_e4m3fn_t", "fp8_e5m2_t", "hifloat8_t", "half", "bfloat16_t",
    "int16_t", "uint16_t", "int32_t", "uint32_t", "float", "fp4x2_e2m1_t", "fp4x2_e1m2_t", "fp8_e8m0_t",
]  # fmt: skip

# Exactly representable values per dtype (docs/number_formats.md tables; integer limits by width).
VALUES = {
    "int4b_t": [-8, -1, 0, 1, 7, 3],
    "int8_t": [-128, -1, 0, 1, 127, 5],
    "uint8_t": [0, 1, 128, 255],
    "fp8_e4m3fn_t": [-448.0, -1.0, 0.0, 0.5, 1.5, 448.0],  # e4m3fn max 448
    "fp8_e5m2_t": [-57344.0, -1.0, 0.0, 0.25, 1.5, 57344.0],  # e5m2 max 57344
    "hifloat8_t": [-1.0, 0.0, 0.5, 1.0, 2.0, 4.0],
    "half": [-65504.0, -2.0, -0.5, 0.0, 1.0, 2.5, 65504.0],
    "bfloat16_t": [-2.0, 0.0, 0.5, 1.0, 3.0, 256.0],
    "int16_t": [-32768, -1, 0, 32767],
    "uint16_t": [0, 1, 65535, 4660],
    "int32_t": [-(2**31), -1, 0, 2**31 - 1],
    "uint32_t": [0, 1, 2**32 - 1, 305419896],
    "float": [-3.5, 0.0, 1.0, 2.0**-20, 3.4028234663852886e38],
    "fp4x2_e2m1_t": [0.0, 0.5, 1.0, 1.5, 2.0, 3.0, 4.0, -6.0],  # docs/number_formats.md §2
    "fp4x2_e1m2_t": [0.0, 0.25, 0.75, 1.0, 1.75, -1.75],  # §3: value = (low 3 bits) * 0.25, bias 1
    "fp8_e8m0_t": [0.5, 1.0, 2.0, 2.0**-127, 2.0**127],  # powers of two only
}

# Little-endian bytes of known values (IEEE / two's complement; number_formats.md §4: nibble pairs).
KNOWN_BYTES = [
    ("half", [1.0, -2.0], [0x00, 0x3C, 0x00, 0xC0]),
    ("float", [1.0], [0x00, 0x00, 0x80, 0x3F]),
    ("bfloat16_t", [1.0], [0x80, 0x3F]),
    ("int16_t", [-2], [0xFE, 0xFF]),
    ("uint32_t", [0x12345678], [0x78, 0x56, 0x34, 0x12]),
    ("int4b_t", [1, 2, -1, 7], [0x21, 0x7F]),
    ("fp4x2_e2m1_t", [0.5, 1.0, -6.0, 6.0], [0x21, 0x7F]),
    ("fp4x2_e1m2_t", [0.25, 0.5, -1.75, 1.75], [0x21, 0x7F]),
    ("fp8_e8m0_t", [1.0], [127]),
]


def test_dtype_table_covers_every_dtype() -> None:
    assert set(VALUES) == set(ALL_DTYPES)


# ---- t[i] --------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_index_byte_offset(dtype: str) -> None:
    """t[i] starts i*bits/8 bytes further on and is i elements shorter (LocalTensor operator[])."""
    dt = get_dtype(dtype)
    core = Core("a2")
    t = core.tensor("A1", dtype, 64, offset=96)
    for i in range(0, 65, 2):
        s = t[i]
        assert s.offset == 96 + i * dt.bits // 8
        assert s.length == 64 - i
        assert s.dtype == dt and s.memory is t.memory and s.position == "A1"
    assert t[2][6].offset == t[8].offset
    if dt.bits >= 8:
        assert t[3][5].offset == t[8].offset


def test_int4_odd_index_rejected() -> None:
    """A 4-bit element at an odd index does not start a byte, so t[odd] has no address."""
    t = Core("a2").tensor("A1", "int4b_t", 64)
    with pytest.raises(
        AlignmentError, match=r"^LocalTensor<int4b_t>\[3\]: a 4-bit element index must be even"
    ):
        t[3]


@pytest.mark.parametrize("i", [-1, 65])
def test_index_out_of_range(i: int) -> None:
    t = Core("a2").tensor("A1", "half", 64)
    with pytest.raises(BoundsError, match=rf"^LocalTensor\[{i}\]: index outside \[0, 64\]"):
        t[i]


def test_index_end_is_empty() -> None:
    t = Core("a2").tensor("A1", "half", 64)
    assert t[64].length == 0 and t[64].nbytes == 0 and t[64].offset == t.offset + 128


# ---- round trips -----------------------------------------------------------------------------------------


@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_value_round_trip(dtype: str) -> None:
    core = Core("a2")
    vals = np.array(VALUES[dtype], dtype=np.float64)
    n = len(vals) + len(vals) % 2
    t = core.tensor("A1", dtype, n)
    t.write(vals)
    np.testing.assert_array_equal(t.read(len(vals)).astype(np.float64), vals)


@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_raw_round_trip_every_pattern(dtype: str) -> None:
    """write_raw/read_raw is the identity for every bit pattern (sub-16-bit) or a random sample."""
    dt = get_dtype(dtype)
    if dt.bits <= 16:
        raw = np.arange(1 << dt.bits, dtype=np.int64)
    else:
        raw = np.random.default_rng(0).integers(0, 1 << 32, size=512, dtype=np.int64)
    t = Core("a2").tensor("A1", dtype, raw.size)
    t.write_raw(raw.astype(dt.raw_dtype))
    np.testing.assert_array_equal(t.read_raw().astype(np.int64), raw)


@pytest.mark.parametrize(("dtype", "values", "expected"), KNOWN_BYTES, ids=[k[0] for k in KNOWN_BYTES])
def test_known_bytes(dtype: str, values, expected) -> None:
    t = Core("a2").tensor("A1", dtype, len(values))
    t.write(values)
    assert t.bytes().tolist() == expected


def test_write_at_start_offset_leaves_rest() -> None:
    t = Core("a2").tensor("A1", "half", 8)
    t.write([1.0, 2.0], start=3)
    raw = t.read_raw()
    assert raw[3:5].tolist() == [0x3C00, 0x4000]
    assert (raw[[0, 1, 2, 5, 6, 7]] == 0xCDCD).all()


def test_int4_write_at_even_start() -> None:
    t = Core("a2").tensor("A1", "int4b_t", 8)
    t.write([1, 2], start=2)
    assert t.bytes().tolist() == [0xCD, 0x21, 0xCD, 0xCD]


# ---- reinterpret -----------------------------------------------------------------------------------------


def test_reinterpret_same_bytes() -> None:
    core = Core("a2")
    h = core.tensor("A1", "half", 4, data=[1.0, 0.0, -2.0, 0.0])
    f = h.reinterpret("float")
    assert (f.offset, f.length, f.nbytes) == (h.offset, 2, 8)
    np.testing.assert_array_equal(f.read_raw(), np.array([0x00003C00, 0x0000C000], dtype=np.uint32))
    i4 = h.ReinterpretCast("int4b_t")
    assert i4.length == 16
    assert i4.read_raw()[:4].tolist() == [0, 0, 0xC, 3]  # 0x3C00 little-endian: bytes 00 3C
    f.write([1.0])
    assert h.read_raw()[:2].tolist() == [0x0000, 0x3F80]


# ---- marker fill -------------------------------------------------------------------------------------------


def test_fresh_memory_holds_marker() -> None:
    assert MARKER == 0xCD
    core = Core("950")
    for name, mem in core.memories.items():
        assert mem.data.size == core.chip.memory_sizes[name]
        assert (mem.data == MARKER).all(), name
    assert (Memory("X", 64).data == 0xCD).all()
    assert (Memory("X", 64, 0x11).data == 0x11).all()


def test_fill_choice() -> None:
    core = Core("a2", fill=0)
    assert all((m.data == 0).all() for m in core.memories.values())
    g = core.global_tensor("half", 5)
    assert (g.bytes() == 0).all() and g.memory.name == "GM"


def test_marker_reads_as_documented_values() -> None:
    """MARKER docstring: 0xCDCD is -23.2 in half, 0xCDCDCDCD about -4.3e8 in float, -51 in int8."""
    core = Core("a2")
    assert core.tensor("A1", "int8_t", 1).read()[0] == -51
    assert core.tensor("A1", "half", 1).read()[0] == np.float16(-23.203125)
    assert core.tensor("A1", "float", 1).read()[0] == np.uint32(0xCDCDCDCD).view(np.float32)


# ---- allocation and errors ---------------------------------------------------------------------------------


def test_allocation_alignment() -> None:
    core = Core("a2")
    a = core.tensor("A1", "half", 3)
    b = core.tensor("A1", "half", 3)
    assert (a.offset, b.offset) == (0, 32)
    x = core.tensor("A2", "half", 3)
    y = core.tensor("A2", "half", 3)
    assert (x.offset, y.offset) == (0, 512)
    assert memory_of("B2") == "L0B" and memory_of("CO1") == "L0C" and memory_of("C1") == "L1"


def test_tensor_past_memory_end() -> None:
    mem = Core("a2").memories["L0A"]
    with pytest.raises(
        BoundsError,
        match=r"^LocalTensor<half> at A2: bytes \[65024, 65538\) lie outside L0A \(size 65536 B\)",
    ):
        LocalTensor(mem, "A2", 65024, "half", 257)


def test_negative_length() -> None:
    mem = Memory("L1", 1024)
    with pytest.raises(ParamRangeError, match=r"^LocalTensor: length must be >= 0, but got -1"):
        LocalTensor(mem, "A1", 0, "half", -1)


def test_write_too_long() -> None:
    t = Core("a2").tensor("A1", "half", 4)
    before = t.memory.data.copy()
    with pytest.raises(
        BoundsError, match=r"^LocalTensor<half>\.write: 10 B do not fit in 8 B from element 0"
    ):
        t.write(np.zeros(5))
    with pytest.raises(BoundsError, match=r"^LocalTensor<half>\.write: 4 B do not fit in 2 B from element 3"):
        t.write([1.0, 2.0], start=3)
    np.testing.assert_array_equal(t.memory.data, before)


def test_unknown_position_and_memory() -> None:
    with pytest.raises(UnsupportedError, match=r"^TPosition 'VECIN' is not modelled"):
        memory_of("VECIN")
    with pytest.raises(UnsupportedError, match=r"^Atlas inference series AI Core has no BT buffer"):
        Core("inference_aicore").memory("BT")
