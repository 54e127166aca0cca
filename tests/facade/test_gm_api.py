"""GM as one byte space per Core (divergences G1-G3) and the API gaps of issue 7: raw-bit input, uint16 arrays
for bfloat16_t tensors, SetLoadDataPaddingValue's type, pad values as bit patterns, the C++ spellings
(GlobalTensor::SetGlobalBuffer, LoadData2dParams, FixpipeParamsC310<format>,
Load3DBitModeParam::SetConfig0/1)."""

from __future__ import annotations

import tracemalloc

import ml_dtypes
import numpy as np
import pytest
from support.operands import load3d_operands

import ascsim.ascendc as AscendC
from ascsim import Core, HazardError, HazardWarning
from ascsim.base.errors import BoundsError, ParamRangeError
from ascsim.machine.dtypes import Bits
from ascsim.machine.memory import GM_ALIGN, GM_MARKER_LIMIT, MARKER
from ascsim.params import (
    CO2Layout,
    FixpipeParamsArch3510,
    FixpipeParamsC310,
    Load3DBitModeParam,
    LoadData2DParams,
    LoadData2dParams,
    LoadData3DParamsV2,
    Nd2NzParams,
    Nz2DnParams,
    Nz2NdParams,
)

# ============================================================ GM: one byte space


def test_global_tensors_live_in_one_gm_and_alias():
    core = Core("a2")
    a = core.global_tensor("half", np.arange(100))
    b = core.global_tensor("float", 8)
    assert a.memory is b.memory is core.memory("GM") is core.gm
    assert a.GetPhyAddr() % GM_ALIGN == 0 and b.GetPhyAddr() >= a.GetPhyAddr() + a.nbytes
    view = core.tensor("GM", "uint8_t", 200, offset=a.GetPhyAddr())  # a byte view of a's storage
    np.testing.assert_array_equal(view.read().view(np.float16), np.arange(100, dtype=np.float16))


def test_read_past_a_tensor_inside_gm_is_a_hazard_not_a_bounds_error():
    """An official example reads rows past its input; inside GM that is legal on the device — a HazardWarning
    (HazardError with strict=True); only leaving GM is a BoundsError."""
    core = Core("a2")
    x = core.global_tensor("half", np.arange(6 * 32))  # 6 rows of 32
    l1 = core.tensor("A1", "half", 16 * 32)
    with pytest.warns(HazardWarning, match="^DataCopyND2NZ: reads 1024 B from GM"):
        core.data_copy(l1, x, Nd2NzParams(1, 16, 32, 0, 32, 16, 1, 0))  # 10 rows past the 6
    np.testing.assert_array_equal(l1.read()[:16 * 6], np.arange(6 * 16) // 16 * 32 + np.arange(6 * 16) % 16)
    strict = Core("a2", strict=True)
    x = strict.global_tensor("half", np.arange(6 * 32))
    with pytest.raises(HazardError, match="^DataCopyND2NZ: reads 1024 B from GM"):
        strict.data_copy(strict.tensor("A1", "half", 512), x, Nd2NzParams(1, 16, 32, 0, 32, 16, 1, 0))
    end = core.tensor("GM", "half", 32, offset=core.gm.size - 64)
    with pytest.raises(BoundsError, match="^DataCopyND2NZ: source"):
        core.data_copy(l1, end, Nd2NzParams(1, 16, 32, 0, 32, 16, 1, 0))


def test_huge_gm_tensor_is_cheap():
    """length = 2**30 (a 2-GiB half tensor) costs no memory until touched (G2: only allocations up to
    GM_MARKER_LIMIT get the marker; larger ones read 0 until written)."""
    core = Core("ascend950")
    tracemalloc.start()
    big = core.global_tensor("half", 2**30)
    small = core.global_tensor("half", 64)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert peak < 1 << 20, peak  # the 2 GiB are reserved, not allocated
    assert big.nbytes == 2**31 > GM_MARKER_LIMIT and (small.bytes() == MARKER).all()
    assert (big[2**29].read(16) == 0).all()
    big[2**29].write(np.arange(16))
    np.testing.assert_array_equal(big[2**29].read(16), np.arange(16))


# ============================================================ raw input, bfloat16_t, padding value type


def test_raw_bits_input_and_uint_arrays_for_float_tensors():
    core = Core("a2")
    bits = np.array([0x3F80, 0xC000, 0x7F80], np.uint16)  # bf16 1, -2, inf
    t = core.tensor("A1", "bfloat16_t", 3, raw=bits)
    assert t.read().astype(np.float32).tolist() == [1.0, -2.0, np.inf]
    g = core.global_tensor("bfloat16_t", raw=bits)
    np.testing.assert_array_equal(g.read_raw(), bits)
    with pytest.raises(ParamRangeError,
                       match=r"^LocalTensor<bfloat16_t>\.write: a uint16 array .* looks like raw"):
        core.tensor("A1", "bfloat16_t", 3, data=bits)
    with pytest.raises(ParamRangeError, match=r"^LocalTensor<fp8_e4m3fn_t>\.write: a uint8 array"):
        core.tensor("A1", "fp8_e4m3fn_t", 3, data=np.array([1, 2, 3], np.uint8))
    core.tensor("A1", "bfloat16_t", 3, data=np.array([1, 2, 3], np.int64))  # integer values are fine
    with pytest.raises(ParamRangeError, match="^Core.tensor: give data"):
        core.tensor("A1", "half", 3, data=[1, 2, 3], raw=[1, 2, 3])


def test_set_padding_value_type_comes_from_a_numpy_scalar_or_dtype():
    """Before, a float pad of -8.82 silently became a half pattern; now T comes from the numpy scalar or
    dtype=..., and a plain Python number alone is refused."""
    core = Core("a2")
    core.set_padding_value(np.float32(-8.82))
    assert core.regs.padding == int(np.array([-8.82], np.float32).view(np.uint32)[0])
    core.set_padding_value(ml_dtypes.bfloat16(1.5))
    assert core.regs.padding == 0x3FC0
    core.set_padding_value(-8.82, "float")
    assert core.regs.padding == int(np.array([-8.82], np.float32).view(np.uint32)[0])
    with pytest.raises(ParamRangeError, match=r"^SetLoadDataPaddingValue: the type T of padValue is needed"):
        core.set_padding_value(-8.82)
    core.set_padding_value(Bits(0xFC00), "half")  # a pad value given as a bit pattern
    assert core.regs.padding == 0xFC00
    with pytest.raises(ParamRangeError, match="^SetLoadDataPaddingValue: padValue must be representable"):
        core.set_padding_value(Bits(0x1FFFF), "half")
    with AscendC.use(core):
        AscendC.SetLoadDataPaddingValue(np.float16(2.0))
    assert core.regs.padding == 0x4000


def test_pad_value_bits_in_load3d_params():
    """LoadData3DParamsV2.padValue may be a Bits pattern too: half -inf padding in the img2col output."""
    core = Core("a2")
    x = np.ones((16, 2, 2), np.float16)
    fm, dst = load3d_operands(core, x, 16 * 144)
    core.load_data(dst, fm, LoadData3DParamsV2([1, 1, 1, 1], 2, 2, 16, 144, 16, 0, 0, 1, 1, 3, 3, 1, 1,
                                               padValue=Bits(0xFC00)))
    assert (dst.read_raw() == 0xFC00).any() and (dst.read() == 1).any()


# ============================================================ C++ spellings


def test_global_tensor_set_global_buffer():
    """GlobalTensor<T>::SetGlobalBuffer((__gm__ T*)addr, size): a view of GM at a byte address; without a size
    the view runs to the end of GM (C++ has no bound then)."""
    core = Core("a2")
    data = core.global_tensor("half", np.arange(64))
    with AscendC.use(core):
        g = AscendC.GlobalTensor("half")
        g.SetGlobalBuffer(data.GetPhyAddr(), 64)
        np.testing.assert_array_equal(g.read(), np.arange(64))
        h = AscendC.GlobalTensor("float")
        h.SetGlobalBuffer(data)  # the C++ cast of a GM pointer
        assert h.length == (core.gm.size - data.GetPhyAddr()) // 4
        np.testing.assert_array_equal(h.read(32).view(np.float16), np.arange(64, dtype=np.float16))
    with pytest.raises(ParamRangeError, match="^GlobalTensor.SetGlobalBuffer: buffer must be a GM"):
        AscendC.GlobalTensor("half", core=core).SetGlobalBuffer(core.tensor("A1", "half", 16))


def test_cpp_spellings():
    assert LoadData2dParams is LoadData2DParams
    p = FixpipeParamsC310[CO2Layout.COLUMN_MAJOR](16, 32, 2, 32)
    assert isinstance(p, FixpipeParamsArch3510) and isinstance(p.params, Nz2DnParams) and p.mSize == 32
    assert isinstance(FixpipeParamsArch3510[CO2Layout.ROW_MAJOR]().params, Nz2NdParams)
    assert FixpipeParamsArch3510[CO2Layout.NZ]().params is None
    with pytest.raises(ParamRangeError, match=r"^FixpipeParamsArch3510\[format\]"):
        FixpipeParamsArch3510["DIAGONAL"]
    bm = Load3DBitModeParam()
    bm.SetConfig0(0x0010_0000_0020_0040)
    bm.SetConfig1(0x7)
    assert bm.GetConfig0() == 0x0010_0000_0020_0040 and bm.GetConfig1() == 7
    assert bm.GetKExtension() == 0x40 and bm.GetMExtension() == 0x20
    with pytest.raises(ParamRangeError, match="^Load3DBitModeParam: config0 must fit in 64 bits"):
        bm.SetConfig0(1 << 64)


def test_is_reset_load3d_config_from_python():
    """IsResetLoad3dConfig is a template argument in C++ (LoadData<T, cfg>); from Python it is the `config`
    keyword of core.load_data / AscendC.LoadData (docs/registers.md)."""
    core = Core("a2")
    x = np.ones((16, 2, 2), np.float16)
    from ascsim.params import IsResetLoad3dConfig

    fm, dst = load3d_operands(core, x, 256)
    core.set_padding_value(np.float16(7))
    with AscendC.use(core):
        AscendC.LoadData(dst, fm, LoadData3DParamsV2([1, 1, 1, 1], 2, 2, 16, 16, 16, padValue=0),
                         config=IsResetLoad3dConfig(True, False))
    assert core.regs.padding == 0x4700  # isSetPadding = false kept the register


def test_quant_kernel_through_the_cpp_facade():
    """An int8 quant-matmul kernel body written with the C++ spellings: GlobalTensor::SetGlobalBuffer on the
    kernel's GM pointers, DataCopy into L1 / BiasTable, LoadData, Mmad with the C2 bias, Fixpipe with
    VDEQF16 and a cbufWorkspace (per-column scales from L1), then a second Fixpipe under SetAtomicAdd<half>
    accumulating into the same output. Checked with numpy."""
    from ascsim.params import CFG_ROW_MAJOR, DataCopyParams, FixpipeParamsV220, MmadParams, QuantMode_t

    rng = np.random.default_rng(8)
    m, k, n = 32, 64, 32
    a = rng.integers(-128, 128, (m, k)).astype(np.int8)
    b = rng.integers(-128, 128, (k, n)).astype(np.int8)
    bias = rng.integers(-9000, 9000, n).astype(np.int32)
    scales = (2.0 ** -rng.integers(8, 12, n)).astype(np.float32)
    words = scales.view(np.uint32).astype(np.uint64)
    core = Core("a2")
    # the host side: device buffers whose addresses the kernel receives
    a_ptr = core.global_tensor("int8_t", a).GetPhyAddr()
    bt_ptr = core.global_tensor("int8_t", np.ascontiguousarray(b.T)).GetPhyAddr()
    bias_ptr = core.global_tensor("int32_t", bias).GetPhyAddr()
    q_ptr = core.global_tensor("uint64_t", words).GetPhyAddr()
    c_ptr = core.global_tensor("half", m * n).GetPhyAddr()
    with AscendC.use(core):
        aGM, btGM, biasGM, qGM, cGM = (AscendC.GlobalTensor(t) for t in
                                       ("int8_t", "int8_t", "int32_t", "uint64_t", "half"))
        aGM.SetGlobalBuffer(a_ptr, m * k)
        btGM.SetGlobalBuffer(bt_ptr, n * k)
        biasGM.SetGlobalBuffer(bias_ptr, n)
        qGM.SetGlobalBuffer(q_ptr, n)
        cGM.SetGlobalBuffer(c_ptr, m * n)
        a1 = core.tensor("A1", "int8_t", m * k)
        b1 = core.tensor("B1", "int8_t", n * k)
        bias1 = core.tensor("C1", "int32_t", n)
        q1 = core.tensor("C1", "uint64_t", n)
        bias2 = core.tensor("C2", "int32_t", n)
        AscendC.DataCopy(a1, aGM, Nd2NzParams(1, m, k, 0, k, m, 1, 0))
        AscendC.DataCopy(b1, btGM, Nd2NzParams(1, n, k, 0, k, n, 1, 0))
        AscendC.DataCopy(bias1, biasGM, DataCopyParams(1, n * 4 // 32, 0, 0))
        AscendC.DataCopy(q1, qGM, DataCopyParams(1, n * 8 // 32, 0, 0))
        AscendC.DataCopy(bias2, bias1, DataCopyParams(1, n * 4 // 64, 0, 0))
        a2 = core.tensor("A2", "int8_t", m * k)
        b2 = core.tensor("B2", "int8_t", n * k)
        for i in range(m // 16):
            AscendC.LoadData(a2[i * (k // 32) * 512], a1[i * 512], LoadData2dParams(0, k // 32, m // 16))
        AscendC.LoadData(b2, b1, LoadData2dParams(0, (k // 32) * (n // 16), 1))
        c = core.tensor("CO1", "int32_t", m * n)
        AscendC.Mmad(c, a2, b2, bias2, MmadParams(m, n, k, cmatrixInitVal=False))
        p = FixpipeParamsV220(n, m, m, n, quantPre=QuantMode_t.VDEQF16)
        AscendC.Fixpipe(cGM, c, q1, p, config=CFG_ROW_MAJOR)
        AscendC.SetAtomicAdd("half")
        AscendC.Fixpipe(cGM, c, q1, p, config=CFG_ROW_MAJOR)
        AscendC.SetAtomicNone()
    acc = a.astype(np.int64) @ b.astype(np.int64) + bias
    once = (acc.astype(np.float32) * scales).astype(np.float16)
    twice = (once.astype(np.float64) * 2).astype(np.float16)  # half + half, rounded once
    np.testing.assert_array_equal(cGM.read().reshape(m, n).view(np.uint16), twice.view(np.uint16))
