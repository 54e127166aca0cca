"""DataCopy L1 -> GM (MTE3) on A2 / A3: DataCopy（L1ToGM连续数据搬运）.md and
DataCopy（L1ToGM高维切分数据搬运）.md.

References: the 高维切分 page's 图2 example (2 blocks of 3 DataBlocks, srcGap 1, dstGap 2, half), its
表3 definition (gaps from the end of one block to the start of the next, 32-B units), the 连续 page's
"count * sizeof(T)需要32字节对齐，若未对齐，搬运量会向下取整", SetAtomicAdd.md
("支持的数据通路为UB/L0C Buffer/L1 Buffer->GM") with numpy sums, and a byte-loop reference
(`block_reference`) checked by hypothesis. The C++ API: dav_c220 DataCopyL12GMImpl (src 32-B aligned,
copy_cbuf_to_gm), dav_3510 DataCopyL12GMImpl (ASCENDC_ASSERT: not on 950), dav_c100 / dav_m200
(ASCENDC_REPORT_NOT_SUPPORT).
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from support.doc_fractals import nz, zn, zz
from support.doc_kernels import Kernel, source_line

from ascsim import Core
from ascsim.base.errors import AlignmentError, ParamRangeError, UnsupportedError
from ascsim.engine.sync import SyncWarning
from ascsim.machine.memory import MARKER
from ascsim.params import DataCopyParams, Nd2NzParams
from ascsim.program import Output

MARK16 = MARKER | MARKER << 8


def block_reference(count: int, blen: int, sgap: int, dgap: int, src: bytes, dst: np.ndarray) -> np.ndarray:
    """表3: block b of blen DataBlocks; srcGap / dstGap from a block's end to the next one's start."""
    out = dst.copy()
    for b in range(count):
        s = b * (blen + sgap) * 32
        d = b * (blen + dgap) * 32
        for k in range(blen * 32):
            out[d + k] = src[s + k]
    return out


def _l1(core: Core, dtype: str, values: np.ndarray, pos: str = "A1"):
    t = core.tensor(pos, dtype, values.size)
    core.data_copy(t, core.global_tensor(dtype, values), values.size)
    return t


@pytest.mark.parametrize("chip", ["a2", "a3"])
def test_doc_figure_2_noncontiguous(chip: str) -> None:
    """图2: src 112 halfs (48 valid + 16 skipped + 48 valid), blockCount 2, blockLen 3, srcGap 1, dstGap 2:
    dst[0:48] = src[0:48], 32 halfs untouched, dst[80:128] = src[64:112]."""
    core = Core(chip)
    x = np.arange(112, dtype=np.float16)
    src = _l1(core, "half", x)
    dst = core.global_tensor("half", 128)
    p = DataCopyParams()
    p.blockCount, p.blockLen, p.srcGap, p.dstGap = 2, 3, 1, 2
    rep = core.data_copy(dst, src, p)
    got = dst.read()
    np.testing.assert_array_equal(got[:48], x[:48])
    np.testing.assert_array_equal(got[80:], x[64:])
    assert (dst.read_raw()[48:80] == MARK16).all()
    assert rep.bytes_written == 192


def test_count_rounds_down_to_32_bytes_and_every_l1_position() -> None:
    """连续 page: 100 halfs = 200 B move 192 B. The C++ API dispatches on the physical memory, so an A1, B1
    or C1 tensor is a valid source (fixpipe_l0c2l1.asc copies a C1 tensor out)."""
    core = Core("a2")
    x = np.arange(100, dtype=np.float16)
    for pos in ("A1", "B1", "C1"):
        dst = core.global_tensor("half", 100)
        core.data_copy(dst, _l1(core, "half", np.pad(x, (0, 28)), pos), 100)
        np.testing.assert_array_equal(dst.read()[:96], x[:96])
        assert (dst.read_raw()[96:] == MARK16).all()


def test_unaligned_gm_destination_and_past_the_tensor() -> None:
    """GM needs only 1-byte alignment (表2); a write past the GlobalTensor but inside GM is a hazard."""
    core = Core("a2")
    x = np.arange(16, dtype=np.int8)
    gm = core.global_tensor("int8_t", 64)
    core.data_copy(gm[3], _l1(core, "int8_t", np.pad(x, (0, 16))), 32)
    np.testing.assert_array_equal(gm.read()[3:19], x)
    small = core.global_tensor("int8_t", 16)
    with pytest.warns(UserWarning, match="past the destination"):
        core.data_copy(small, _l1(core, "int8_t", np.zeros(32, np.int8)), 32)


@pytest.mark.parametrize("chip,kw,exc,msg", [
    ("ascend950", {}, UnsupportedError,
     r"DataCopy: API DataCopyL12GM is not supported on .*950.*\(the C\+\+ API rejects this: "
     r"ASCENDC_ASSERT in dav_3510 DataCopyL12GMImpl\)"),
    ("training", {}, UnsupportedError,
     r"DataCopy: API DataCopyL12GM is not supported .*\(the C\+\+ API rejects"),
    ("atlas200i500a2", {}, UnsupportedError,
     r"DataCopy: API DataCopyL12GM is not supported .*\(the doc page forbids this"),
    ("a2", {"offset": 8}, AlignmentError, r"DataCopy: src \(L1\) address must be 32-byte aligned"),
    ("a2", {"params": DataCopyParams(4096, 1, 0, 0)}, ParamRangeError,
     r"DataCopy: blockCount must be in \[0, 4095\], but got 4096 \(the C\+\+ API rejects this: "
     r"CheckDataCopyParamsCommon\)"),
    ("a2", {"params": Nd2NzParams()}, UnsupportedError,
     r"DataCopy: L1 -> GM takes a count or DataCopyParams, but got Nd2NzParams \(the C\+\+ API rejects"),
    ("a2", {"dst_dtype": "int16_t"}, UnsupportedError,
     r"DataCopy: dst and src must have the same dtype, but got int16_t and half \(the C\+\+ API rejects"),
])
def test_refusals_leave_memory(chip: str, kw: dict, exc, msg: str) -> None:
    core = Core(chip)
    src = core.tensor("A1", "half", 256)
    src = src[kw["offset"]] if "offset" in kw else src
    dst = core.global_tensor(kw.get("dst_dtype", "half"), 256)
    with pytest.raises(exc, match="^" + msg):
        core.data_copy(dst, src, kw.get("params", 64))
    assert (dst.bytes() == MARKER).all()


@pytest.mark.parametrize("dtype,npdt", [("float", np.float32), ("int32_t", np.int32), ("half", np.float16)])
def test_atomic_add(dtype: str, npdt) -> None:
    """SetAtomicAdd<T>: L1 -> GM adds onto GM (SetAtomicAdd.md 数据通路); floats round once to T, integers
    saturate; SetAtomicNone makes it a plain copy again."""
    core = Core("a2")
    rng = np.random.default_rng(3)
    old = rng.integers(-50, 50, 64).astype(npdt)
    new = rng.integers(-50, 50, 64).astype(npdt)
    if dtype == "int32_t":
        old[0], new[0] = np.iinfo(np.int32).max, 5
    gm = core.global_tensor(dtype, old)
    src = _l1(core, dtype, new)
    core.set_atomic_add(dtype)
    rep = core.data_copy(gm, src, 64)
    assert "C20" in rep.notes
    want = old.astype(np.float64) + new.astype(np.float64)
    if dtype == "int32_t":
        want = np.clip(want, np.iinfo(np.int32).min, np.iinfo(np.int32).max)
    np.testing.assert_array_equal(gm.read(), want.astype(npdt))
    core.set_atomic_none()
    core.data_copy(gm, src, 64)
    np.testing.assert_array_equal(gm.read(), new)


def test_atomic_type_mismatch_is_refused() -> None:
    core = Core("a2")
    gm = core.global_tensor("float", 8)
    core.set_atomic_add("half")
    with pytest.raises(UnsupportedError, match=r"^DataCopy: the atomic add type set by SetAtomicAdd<half> "
                                               r"must equal the tensor type float"):
        core.data_copy(gm, core.tensor("A1", "float", 8), 8)
    assert (gm.bytes() == MARKER).all()


@settings(max_examples=40, deadline=None)
@given(count=st.integers(0, 5), blen=st.integers(0, 4), sgap=st.integers(0, 3), dgap=st.integers(0, 3),
       dtype=st.sampled_from(["int8_t", "half", "float", "uint64_t"]))
def test_fast_equals_reference(count, blen, sgap, dgap, dtype) -> None:
    core = Core("a2")
    nbytes = 2048
    raw = np.random.default_rng(count * 31 + blen).integers(0, 256, nbytes, dtype=np.uint8)
    src = core.tensor("B1", dtype, 1)
    n = nbytes // (src.dtype.bits // 8)
    src = core.tensor("B1", dtype, n)
    src.memory.data[src.offset : src.offset + nbytes] = raw
    dst = core.global_tensor(dtype, n)
    core.data_copy(dst, src, DataCopyParams(count, blen, sgap, dgap))
    want = block_reference(count, blen, sgap, dgap, raw.tobytes(), np.full(nbytes, MARKER, np.uint8))
    np.testing.assert_array_equal(dst.bytes(), want)


A2_OUT = """
extern "C" __global__ __aicore__ void l1_out(GM_ADDR a, GM_ADDR b, GM_ADDR c)
{
    AscendC::GlobalTensor<half> aGM, bGM, cGM;
    aGM.SetGlobalBuffer((__gm__ half*)a, 32 * 32);
    bGM.SetGlobalBuffer((__gm__ half*)b, 32 * 32);
    cGM.SetGlobalBuffer((__gm__ half*)c, 32 * 32);
    AscendC::LocalTensor<half> a1(AscendC::TPosition::A1, 0, 32 * 32);
    AscendC::LocalTensor<half> b1(AscendC::TPosition::B1, 16 * 1024, 32 * 32);
    AscendC::LocalTensor<half> a2(AscendC::TPosition::A2, 0, 32 * 32);
    AscendC::LocalTensor<half> b2(AscendC::TPosition::B2, 0, 32 * 32);
    AscendC::LocalTensor<float> c1(AscendC::TPosition::CO1, 0, 32 * 32);
    AscendC::LocalTensor<half> cL1(AscendC::TPosition::C1, 64 * 1024, 32 * 32);
    AscendC::DataCopy(a1, aGM, 32 * 32);
    AscendC::DataCopy(b1, bGM, 32 * 32);
    AscendC::SetFlag<AscendC::HardEvent::MTE2_MTE1>(EVENT_ID0);
    AscendC::WaitFlag<AscendC::HardEvent::MTE2_MTE1>(EVENT_ID0);
    AscendC::LoadData(a2, a1, AscendC::LoadData2DParams{0, 4, 1, 0, 0, false, 0});
    AscendC::LoadData(b2, b1, AscendC::LoadData2DParams{0, 4, 1, 0, 0, false, 0});
    AscendC::SetFlag<AscendC::HardEvent::MTE1_M>(EVENT_ID0);
    AscendC::WaitFlag<AscendC::HardEvent::MTE1_M>(EVENT_ID0);
    AscendC::Mmad(c1, a2, b2, AscendC::MmadParams{32, 32, 32, 0, false, true});
    AscendC::SetFlag<AscendC::HardEvent::M_FIX>(EVENT_ID0);
    AscendC::WaitFlag<AscendC::HardEvent::M_FIX>(EVENT_ID0);
    AscendC::FixpipeParamsV220 fp;
    fp.nSize = 32;
    fp.mSize = 32;
    fp.srcStride = 32;
    fp.dstStride = 32 * 16 * sizeof(half) / 32;
    fp.quantPre = QuantMode_t::F322F16;
    AscendC::Fixpipe<half, float, AscendC::CFG_NZ>(cL1, c1, fp);
    AscendC::SetFlag<AscendC::HardEvent::FIX_MTE3>(EVENT_ID0);
    AscendC::WaitFlag<AscendC::HardEvent::FIX_MTE3>(EVENT_ID0);
    AscendC::DataCopy(cGM, cL1, AscendC::DataCopyParams{1, 32 * 32 * sizeof(half) / 32, 0, 0});
}
"""


def test_fixpipe_to_l1_then_copy_out_kernel_and_its_sync() -> None:
    """The A2 path of fixpipe_l0c2l1.asc written anew: Fixpipe L0C -> L1 (NZ, half) then DataCopy L1 -> GM.
    GM receives Nz(C) with C = A @ B from numpy, rounded to half. Without the WaitFlag<FIX_MTE3> the checker
    reports DataCopy (MTE3) reading L1 that Fixpipe (FIX) wrote."""
    rng = np.random.default_rng(5)
    a = rng.integers(-3, 4, (32, 32)).astype(np.float16)
    b = rng.integers(-3, 4, (32, 32)).astype(np.float16)
    gm = {"a": zz(a, 16), "b": zn(b, 16), "c": Output("half", (32 * 32,))}  # L0A Zz, L0B Zn (A2)
    run = Kernel("l1.cpp", "a2", text_=A2_OUT).run(gm=gm)
    assert run.sync_reports == []
    c = (a.astype(np.float64) @ b.astype(np.float64)).astype(np.float16)
    np.testing.assert_array_equal(run.outputs["c"], nz(c, 16))
    text = A2_OUT.replace("AscendC::WaitFlag<AscendC::HardEvent::FIX_MTE3>(EVENT_ID0);", "")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", SyncWarning)
        bad = Kernel("l1.cpp", "a2", text_=text).run(gm=gm)
    raw = [r for r in bad.sync_reports if r.kind == "RAW"]
    copy_out = source_line(text, "DataCopy(cGM")
    assert raw and raw[0].message.startswith(f"l1.cpp:{copy_out}: DataCopy (MTE3) reads L1")
    assert f"written by Fixpipe at l1.cpp:{source_line(text, 'Fixpipe<half')} (FIX)" in raw[0].message
