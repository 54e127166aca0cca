"""Load3D hidden state: FMATRIX / PADDING under IsResetLoad3dConfig, v2Pro / BitMode reading the
registers, and SetLoadDataBoundary wrap-around of L1 reads.

Semantics: docs/load3d.md (img2col, destination layouts) and docs/registers.md (doc: LoadData_3D.md 表1 and
"Feature Map、Pad属性描述寄存器设置"; SetFmatrix.md; SetLoadDataPaddingValue.md; SetLoadDataBoundary.md).
Every expected destination comes from the numpy img2col reference below, written from the formula, never from
ascsim.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest

from ascsim import (
    Core,
    IsResetLoad3dConfig,
    Load3DBitModeParam,
    LoadData3DParamsV1,
    LoadData3DParamsV2,
    LoadData3DParamsV2Pro,
)
from ascsim.machine.registers import Fmatrix

C0 = 16  # half
MARK16 = 0xCDCD  # two fresh-memory marker bytes read as one uint16


# ---- independent reference ------------------------------------------------------------------------------


def nc1hwc0(x: np.ndarray, c0: int = C0) -> np.ndarray:
    """(C, H, W) with C % c0 == 0 -> flat NC1HWC0 (N = 1): (((c//C0)*H + h)*W + w)*C0 + c%C0."""
    c, h, w = x.shape
    out = np.empty(c * h * w, dtype=x.dtype)
    for ci in range(c):
        for hi in range(h):
            for wi in range(w):
                out[(((ci // c0) * h + hi) * w + wi) * c0 + ci % c0] = x[ci, hi, wi]
    return out


def img2col(x: np.ndarray, pads, kh: int, kw: int, pad_value: float, stride=(1, 1), dil=(1, 1)) -> np.ndarray:
    """W[m][k] per docs/load3d.md: m = ho*Wo + wo, k = ((c1*Kh + kh)*Kw + kw)*C0 + c0 (C a multiple of C0)."""
    c, h, w = x.shape
    left, right, top, bottom = pads
    sh, sw = stride
    dh, dw = dil
    ho = (h + top + bottom - ((kh - 1) * dh + 1)) // sh + 1
    wo = (w + left + right - ((kw - 1) * dw + 1)) // sw + 1
    out = np.empty((ho * wo, c * kh * kw), dtype=np.float64)
    for m in range(ho * wo):
        for k in range(c * kh * kw):
            c0i, rest = k % C0, k // C0
            kwi, rest = rest % kw, rest // kw
            khi, c1 = rest % kh, rest // kh
            hh = (m // wo) * sh + khi * dh - top
            ww = (m % wo) * sw + kwi * dw - left
            inside = 0 <= hh < h and 0 <= ww < w
            out[m, k] = x[c1 * C0 + c0i, hh, ww] if inside else pad_value
    return out


def zz(mat: np.ndarray, c0: int = C0) -> dict[int, float]:
    """A2/A3 L0A: Zz(Wsel) offsets ((r//16)*ceil(K/C0) + c//C0)*16*C0 + (r%16)*C0 + c%C0 -> value."""
    rows, cols = mat.shape
    c1 = -(-cols // c0)
    return {
        ((r // 16) * c1 + c // c0) * 16 * c0 + (r % 16) * c0 + c % c0: mat[r, c]
        for r in range(rows)
        for c in range(cols)
    }


def nz(mat: np.ndarray, c0: int = C0) -> dict[int, float]:
    """950 L0A: Nz(Wsel) with the dense column stride S = ceil(rows/16)."""
    rows, cols = mat.shape
    s = -(-rows // 16)
    return {
        ((c // c0) * s + r // 16) * 16 * c0 + (r % 16) * c0 + c % c0: mat[r, c]
        for r in range(rows)
        for c in range(cols)
    }


def assert_dst(dst, expected: dict[int, float]) -> None:
    """Every expected element holds its value; every other element of dst keeps the marker."""
    got = dst.read().astype(np.float64)
    raw = dst.read_raw()
    idx = np.fromiter(expected, dtype=np.int64)
    np.testing.assert_array_equal(got[idx], np.fromiter(expected.values(), dtype=np.float64))
    others = np.setdiff1d(np.arange(dst.length), idx)
    assert (raw[others] == MARK16).all()


# ---- fixtures ----------------------------------------------------------------------------------------------


def make_fmap(core: Core, c: int = 16, h: int = 4, w: int = 4, seed: int = 1):
    x = np.random.default_rng(seed).integers(-50, 50, size=(c, h, w)).astype(np.float16)
    src = core.tensor("A1", "half", x.size, data=nc1hwc0(x))
    return x, src


def v2(
    l1H: int, l1W: int, pads, pad_value: float, c: int = 16, k: int = 144, m: int = 16
) -> LoadData3DParamsV2:
    return LoadData3DParamsV2(list(pads), l1H, l1W, c, k, m, 0, 0, 1, 1, 3, 3, 1, 1, False, False, pad_value)


def half_bits(v: float) -> int:
    return int(np.array([v], dtype=np.float16).view(np.uint16)[0])


# ---- IsResetLoad3dConfig ---------------------------------------------------------------------------------


def test_isSetFMatrix_true_writes_registers_and_they_persist() -> None:
    core = Core("a2")
    x, src = make_fmap(core)
    dst1 = core.tensor("A2", "half", 16 * 144)
    core.load_data(dst1, src, v2(4, 4, [1, 1, 1, 1], 7.0))  # default config {true, true}
    assert core.regs.fmatrix_left == Fmatrix(4, 4, (1, 1, 1, 1))
    assert core.regs.padding == half_bits(7.0) == 0x4700
    assert_dst(dst1, zz(img2col(x, (1, 1, 1, 1), 3, 3, 7.0)))

    # Second call: the struct says 2x8, no padding, pad -1 -- all ignored, the registers rule.
    regs = (core.regs.fmatrix_left, core.regs.padding)
    dst2 = core.tensor("A2", "half", 16 * 144)
    core.load_data(dst2, src, v2(2, 8, [0, 0, 0, 0], -1.0), IsResetLoad3dConfig(False, False))
    assert_dst(dst2, zz(img2col(x, (1, 1, 1, 1), 3, 3, 7.0)))
    assert (core.regs.fmatrix_left, core.regs.padding) == regs


def test_setfmatrix_feeds_isSetFMatrix_false() -> None:
    """SetFmatrix(2, 8, [0, 1, 1, 0]) reinterprets the same bytes as a 16 x 2 x 8 map."""
    core = Core("a2")
    x, src = make_fmap(core)
    core.set_fmatrix(2, 8, [0, 1, 1, 0])
    x28 = nc1hwc0_inverse(nc1hwc0(x), 16, 2, 8)
    dst = core.tensor("A2", "half", 16 * 144)
    # isSetPadding stays true: the struct's padValue 3 is used (and written to PADDING).
    core.load_data(dst, src, v2(4, 4, [1, 1, 1, 1], 3.0), IsResetLoad3dConfig(False, True))
    w = img2col(x28, (0, 1, 1, 0), 3, 3, 3.0)  # Ho = 1, Wo = 7: 7 rows; 16 asked (rows past Ho*Wo)
    w16 = img2col_rows(x28, (0, 1, 1, 0), 3, 3, 3.0, 16)
    assert np.array_equal(w16[:7], w)
    assert_dst(dst, zz(w16))
    assert core.regs.fmatrix_left == Fmatrix(2, 8, (0, 1, 1, 0))
    assert core.regs.padding == half_bits(3.0)


def nc1hwc0_inverse(flat: np.ndarray, c: int, h: int, w: int) -> np.ndarray:
    return flat.reshape(c // C0, h, w, C0).transpose(0, 3, 1, 2).reshape(c, h, w)


def img2col_rows(x, pads, kh, kw, pad_value, rows: int) -> np.ndarray:
    """img2col continued past Ho*Wo rows (divergence L8: rows m >= Ho*Wo keep the formula, ho = m // Wo)."""
    c, h, w = x.shape
    left, right, top, bottom = pads
    wo = (w + left + right - kw) + 1
    out = np.empty((rows, c * kh * kw))
    for m in range(rows):
        for k in range(c * kh * kw):
            c0i, rest = k % C0, k // C0
            kwi, rest = rest % kw, rest // kw
            khi, c1 = rest % kh, rest // kh
            hh, ww = m // wo + khi - top, m % wo + kwi - left
            out[m, k] = x[c1 * C0 + c0i, hh, ww] if 0 <= hh < h and 0 <= ww < w else pad_value
    return out


def test_isSetPadding_false_uses_SetLoadDataPaddingValue() -> None:
    core = Core("a2")
    x, src = make_fmap(core)
    core.set_padding_value(-3.5, "half")
    dst = core.tensor("A2", "half", 16 * 144)
    core.load_data(dst, src, v2(4, 4, [1, 1, 1, 1], 9.0), IsResetLoad3dConfig(True, False))
    assert_dst(dst, zz(img2col(x, (1, 1, 1, 1), 3, 3, -3.5)))
    assert core.regs.padding == half_bits(-3.5)

    dst2 = core.tensor("A2", "half", 16 * 144)
    core.load_data(dst2, src, v2(4, 4, [1, 1, 1, 1], 9.0))  # isSetPadding true: struct value, and it sticks
    assert_dst(dst2, zz(img2col(x, (1, 1, 1, 1), 3, 3, 9.0)))
    assert core.regs.padding == half_bits(9.0)


def test_struct_l1H_zero_is_not_a_nop_without_isSetFMatrix() -> None:
    """With isSetFMatrix=false the struct's l1H = 0 is ignored (the NOP rule applies to the register)."""
    core = Core("a2")
    x, src = make_fmap(core)
    core.set_fmatrix(4, 4, [1, 1, 1, 1])
    dst = core.tensor("A2", "half", 16 * 144)
    report = core.load_data(dst, src, v2(0, 0, [1, 1, 1, 1], 2.0), IsResetLoad3dConfig(False, True))
    assert report.bytes_written == 16 * 144 * 2
    assert_dst(dst, zz(img2col(x, (1, 1, 1, 1), 3, 3, 2.0)))


# ---- register-only forms ----------------------------------------------------------------------------------


def test_v2pro_reads_registers() -> None:
    core = Core("a2")
    x, src = make_fmap(core)
    core.set_fmatrix(4, 4, [1, 0, 0, 1])
    core.set_padding_value(1.5, "half")
    p = LoadData3DParamsV2Pro(
        16,
        extConfig=LoadData3DParamsV2Pro.pack_ext(144, 9),
        filterConfig=LoadData3DParamsV2Pro.pack_filter(1, 1, 3, 3, 1, 1),
    )
    dst = core.tensor("A2", "half", 16 * 144)
    core.load_data(dst, src, p)
    w = img2col(x, (1, 0, 0, 1), 3, 3, 1.5)  # Ho = 3, Wo = 3: 9 rows, the whole bottom fractal
    assert w.shape == (9, 144)
    assert_dst(dst, zz(w))
    # v2Pro writes no register
    assert core.regs.fmatrix_left == Fmatrix(4, 4, (1, 0, 0, 1))
    assert core.regs.padding == half_bits(1.5)


def test_bitmode_reads_registers_950() -> None:
    """950 L0A is Nz(Wsel) (docs/load3d.md); dstStride register 0 -> dense stride ceil(16/16) = 1."""
    core = Core("950")
    x, src = make_fmap(core)
    core.set_fmatrix(4, 4, [1, 1, 1, 1])
    core.set_padding_value(-2.0, "half")
    p = Load3DBitModeParam(v2(99, 99, [0, 0, 0, 0], 100.0))  # l1H/l1W/pads/pad are dropped (seed 000)
    dst = core.tensor("A2", "half", 16 * 144)
    core.load_data(dst, src, p, dst_pos="A2", src_pos="A1")
    assert_dst(dst, nz(img2col(x, (1, 1, 1, 1), 3, 3, -2.0)))


@pytest.mark.parametrize("kind", ["v2pro", "bitmode"])
def test_register_only_forms_follow_later_register_writes(kind: str) -> None:
    """A v2 call with isSetFMatrix=true changes what a following v2Pro / BitMode call sees."""
    core = Core("950")
    x, src = make_fmap(core)
    core.set_fmatrix(2, 8, [0, 0, 0, 0])
    core.load_data(core.tensor("A2", "half", 16 * 144), src, v2(4, 4, [1, 1, 1, 1], 4.0))
    p = (
        LoadData3DParamsV2Pro.from_v2(v2(4, 4, [0, 0, 0, 0], 0.0))
        if kind == "v2pro"
        else Load3DBitModeParam(v2(4, 4, [0, 0, 0, 0], 0.0))
    )
    dst = core.tensor("A2", "half", 16 * 144)
    core.load_data(dst, src, p, dst_pos="A2", src_pos="A1")
    assert_dst(dst, nz(img2col(x, (1, 1, 1, 1), 3, 3, 4.0)))


# ---- SetLoadDataBoundary ----------------------------------------------------------------------------------


def test_boundary_wraps_l1_reads_a2() -> None:
    """Boundary 2048 B; the 512-B map starts at 1792: its last 256 B are read from L1 address 0.

    doc: SetLoadDataBoundary.md 功能说明 -- reads past the boundary restart at the L1 start address.
    """
    core = Core("a2")
    x = np.random.default_rng(7).integers(-50, 50, size=(16, 4, 4)).astype(np.float16)
    flat = nc1hwc0(x).view(np.uint8)
    l1 = core.memories["L1"].data
    l1[1792:2048] = flat[:256]
    l1[0:256] = flat[256:]
    l1[2048:2304] = 0x7B  # what an unwrapped read would fetch: must not appear
    src = core.tensor("A1", "half", 256, offset=1792)
    core.set_load_data_boundary(2048)
    dst = core.tensor("A2", "half", 16 * 144)
    core.load_data(dst, src, v2(4, 4, [1, 1, 1, 1], 0.0))
    assert_dst(dst, zz(img2col(x, (1, 1, 1, 1), 3, 3, 0.0)))

    # boundary 0 = no boundary: the same call now reads the 0x7B bytes past 2048
    core.set_load_data_boundary(0)
    dst2 = core.tensor("A2", "half", 16 * 144)
    core.load_data(dst2, src, v2(4, 4, [1, 1, 1, 1], 0.0))
    unwrapped = nc1hwc0_inverse(np.r_[flat[:256], np.full(256, 0x7B, np.uint8)].view(np.float16), 16, 4, 4)
    assert_dst(dst2, zz(img2col(unwrapped, (1, 1, 1, 1), 3, 3, 0.0)))


def test_boundary_unit_is_32_bytes_for_v1() -> None:
    """SetLoadDataBoundary.md 表1: v1 counts boundaryValue in 32-B units (1024 -> 32 KB).

    v1 with a 1x1 kernel and repeatMode 1 moves 16 window positions x C0 channels: for a 2x8 map with
    C = 16 the destination fractal is exactly the NC1HWC0 bytes (divergence L13).
    """
    core = Core("inference_aicore")
    x = np.random.default_rng(3).integers(-50, 50, size=(16, 2, 8)).astype(np.float16)
    flat = nc1hwc0(x).view(np.uint8)  # 512 B
    l1 = core.memories["L1"].data
    start = 32768 - 128
    l1[start:32768] = flat[:128]
    l1[0:384] = flat[128:]
    src = core.tensor("A1", "half", 256, offset=start)
    core.set_load_data_boundary(1024)
    dst = core.tensor("A2", "half", 256)
    core.load_data(dst, src, LoadData3DParamsV1([0, 0, 0, 0], 2, 8, repeatMode=1, repeatTime=1))
    want = {i * 16 + j: float(x[j, i // 8, i % 8]) for i in range(16) for j in range(16)}
    assert_dst(dst, want)


@pytest.mark.parametrize("boundary", [524288, 2050], ids=["whole-L1", "odd-bytes"])
def test_boundary_wrap_past_the_end_and_at_any_byte(boundary: int) -> None:
    """The map straddles the boundary (here also the physical end of L1): the unwrapped extent would
    leave L1, but every read wraps into [0, boundary) and is legal (SetLoadDataBoundary.md 功能说明);
    the boundary need not be a multiple of the 32-B block."""
    core = Core("a2")
    x = np.random.default_rng(11).integers(-50, 50, size=(16, 4, 4)).astype(np.float16)
    flat = nc1hwc0(x).view(np.uint8)  # 512 B
    start = (boundary - 200) // 32 * 32
    head = boundary - start
    l1 = core.memories["L1"].data
    l1[start:boundary] = flat[:head]
    l1[0 : 512 - head] = flat[head:]
    src = core.tensor("A1", "half", (boundary - start) // 2, offset=start)
    core.set_load_data_boundary(boundary)
    dst = core.tensor("A2", "half", 16 * 144)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a wrapped read is not a hazard
        core.load_data(dst, src, v2(4, 4, [1, 1, 1, 1], 0.0))
    assert_dst(dst, zz(img2col(x, (1, 1, 1, 1), 3, 3, 0.0)))


def test_boundary_wrap_for_nibble_granular_plans() -> None:
    """4-bit plans that cannot pair nibbles into bytes wrap modulo the boundary too (element 2i = low
    nibble, number_formats.md §4): checked against nibbles unpacked by hand from the wrapped byte order."""
    from ascsim.engine.boundary import execute
    from ascsim.engine.plan import Plan
    from ascsim.machine.memory import LocalTensor, Memory

    l1, l0 = Memory("L1", 4096), Memory("L0A", 4096)
    l1.data[:] = np.arange(4096) % 251
    src = LocalTensor(l1, "A1", 1000, "int4b_t", 200)
    dst = LocalTensor(l0, "A2", 0, "int4b_t", 64)
    reads = [0, 1, 3, 5, 7, 101, 150, 199]
    plan = Plan.build("t", 4, np.arange(9), np.array([*reads, -1]))
    assert plan.unit == 0  # nibble-granular
    execute(plan, dst, src, 0xA, False, 1024)
    wrapped = np.r_[l1.data[1000:1024], l1.data[0:100]]  # bytes 1000..1023, then L1 from 0
    nibbles = np.stack([wrapped & 0xF, wrapped >> 4], axis=1).ravel()
    got = np.stack([l0.data[:5] & 0xF, l0.data[:5] >> 4], axis=1).ravel()[:9]
    assert got.tolist() == [*nibbles[reads].tolist(), 0xA]
