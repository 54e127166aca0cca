"""The C++ subset, value by value: each kernel stores what it computed with `LocalTensor::SetValue` into an
L1 probe tensor, and the test compares the bytes with what C++ defines (ISO C++ [conv.prom],
[expr.arith.conv], [expr.mul], [expr.shift]; LP64 as the device compiler), the preprocessing rules
(`__NPU_ARCH__` from the chip, -D), template arguments from the launch in main, and the TPipe buffer
addresses of InitBuffer (资源管理/TPipe/InitBuffer.md; the asc-devkit TPipe::InitBuffer cursor rule).
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest

from ascsim import HazardWarning
from ascsim.frontend import Input, Kernel, Output, parse_gm
from ascsim.frontend.cvalues import INT32, UINT16, UINT32, Num, binary, common, convert, literal, promote

PROBE = "    AscendC::LocalTensor<int64_t> probe(AscendC::TPosition::A1, 0, 64);\n"


def _probe(
    body: str,
    pre: str = "",
    chip: str = "a2",
    n: int = 16,
    defines=None,
    main: str = "",
    entry_tpl: str = "",
    template=None,
) -> list[int]:
    src = (
        pre
        + entry_tpl
        + 'extern "C" __global__ __aicore__ void k(GM_ADDR a)\n{\n'
        + PROBE
        + body
        + "}\n"
        + main
    )
    if entry_tpl:
        src = src.replace('extern "C" __global__', "__global__")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        run = Kernel("k.cpp", chip, defines, text_=src).run(template=template)
    return run.core.memory("L1").data[: 8 * n].view(np.int64)[:n].tolist()


def test_integer_promotion_and_wrap() -> None:
    pre = "__aicore__ inline uint16_t CeilAlign(uint16_t a, uint16_t b) { return (a + b - 1) / b * b; }\n"
    body = """
    uint32_t u = 0;
    probe.SetValue(0, u - 1);                       // unsigned wrap
    probe.SetValue(1, CeilAlign(65535, 16));        // computed in int (65536), wraps to 0 on return
    uint16_t h = 65535;
    probe.SetValue(2, h + 1);                       // uint16 promotes to int: 65536
    probe.SetValue(3, -7 / 2);                      // truncation toward zero
    probe.SetValue(4, -7 % 3);                      // sign of the dividend
    int32_t s = -1;
    probe.SetValue(5, s < 1u);                      // -1 converts to unsigned: false
    probe.SetValue(6, (uint8_t)300);                // wrap on conversion
    probe.SetValue(7, static_cast<uint64_t>(1) << 46);
    probe.SetValue(8, 0xFFFFFFFF + 1);              // hex literal fits uint32_t: wraps to 0
    probe.SetValue(9, 4294967295 + 1);              // decimal literal is long: 4294967296
    int8_t c = 127;
    c += 1;                                         // compound assignment converts back: -128
    probe.SetValue(10, c);
    probe.SetValue(11, ~0u);
    probe.SetValue(12, true + true);
"""
    got = _probe(body, pre)
    assert got[:13] == [2**32 - 1, 0, 65536, -3, -1, 0, 44, 2**46, 0, 2**32, -128, 2**32 - 1, 2]


def test_control_flow_and_arrays() -> None:
    body = """
    uint32_t s = 0;
    for (uint32_t i = 0; i < 10; ++i) {
        if (i == 2) { continue; }
        if (i == 7) { break; }
        s += i;
    }
    probe.SetValue(0, s);                           // 0+1+3+4+5+6
    int w = 0;
    while (w < 5) { w++; }
    do { w += 10; } while (w < 30);
    probe.SetValue(1, w);
    uint32_t shape[2] = {16, 0};
    shape[1] = 32 / sizeof(half);
    probe.SetValue(2, shape[0] * shape[1]);
    probe.SetValue(3, w > 20 ? 1 : 2);
    probe.SetValue(4, sizeof(AscendC::int4b_t) + sizeof(fp4x2_e2m1_t) * 10 + sizeof(float) * 100);
    probe.SetValue(5, AscendC::DivCeil(70, 16) * 1000 + AscendC::AlignUp(70, 16));   // uint32_t helpers
    probe.SetValue(6, AscendC::DivCeil(4294967295u, 2));                             // a + b - 1 wraps: 0
"""
    assert _probe(body)[:7] == [19, 35, 256, 1, 411, 5080, 0]


def test_classes_templates_references() -> None:
    pre = """
template <typename T, uint32_t N, bool flag = true>
class Box {
public:
    __aicore__ inline Box() : twice(2 * N) { size = N * sizeof(T); }
    __aicore__ inline uint32_t Get() { return this->size + twice + (flag ? 1000 : 0) + K; }
    template <typename U>
    __aicore__ inline uint32_t Width(const AscendC::LocalTensor<U>& t) { return sizeof(U); }
private:
    static constexpr uint32_t K = 7;
    uint32_t size;
    uint32_t twice = 0;
};
__aicore__ inline void Bump(uint32_t& x, uint32_t y) { x += y; y = 0; }
template <typename KernelType>
__aicore__ inline uint32_t Run() { KernelType b; return b.Get(); }
using Elem = half;
typedef float F32;
"""
    body = """
    Box<half, 8> b;
    probe.SetValue(0, b.Get());
    probe.SetValue(1, Run<Box<float, 4, false>>());
    uint32_t x = 1, y = 2;
    Bump(x, y);
    probe.SetValue(2, x * 10 + y);
    AscendC::LocalTensor<float> f(AscendC::TPosition::B1, 1024, 8);
    probe.SetValue(3, b.Width(f));
    probe.SetValue(4, AscendC::IsSameType<half, float>::value * 10 + std::is_same<uint32_t, unsigned>::value);
    probe.SetValue(5, sizeof(Elem) * 10 + sizeof(F32) + AscendC::IsSameType<Elem, half>::value * 100);
"""
    assert _probe(body, pre)[:6] == [16 + 16 + 1000 + 7, 16 + 8 + 7, 32, 4, 1, 124]


def test_casts_and_float_bits() -> None:
    body = """
    float q = 2.0;
    uint64_t bits = static_cast<uint64_t>(*reinterpret_cast<int32_t*>(&q));
    probe.SetValue(0, bits);                        // the fixpipe examples' deqScalar idiom
    half h = (half)-1.5;
    probe.SetValue(1, (int32_t)(h * 4));
    probe.SetValue(2, (int32_t)3.99f);
    probe.SetValue(3, uint32_t(7.5));
"""
    assert _probe(body)[:4] == [0x40000000, -6, 3, 7]


def test_npu_arch_follows_the_chip_and_defines_override() -> None:
    body = """
#if defined(__NPU_ARCH__) && (__NPU_ARCH__ == 3510)
    probe.SetValue(0, 950);
#elif __NPU_ARCH__ == 2201
    probe.SetValue(0, 2201);
#endif
    probe.SetValue(1, SCENARIO_NUM);
#define SQ(x) ((x) * (x))
    probe.SetValue(2, SQ(SCENARIO_NUM + 1));
"""
    assert _probe(body, chip="a2", defines={"SCENARIO_NUM": "3"})[:3] == [2201, 3, 16]
    assert _probe(body, chip="950", defines={"SCENARIO_NUM": "2"})[:3] == [950, 2, 9]
    assert _probe(body, chip="a3", defines={"SCENARIO_NUM": "1"})[0] == 2201


def test_template_arguments_from_the_launch_in_main_and_from_the_command_line() -> None:
    entry = "template <uint32_t M, typename T, bool F>\n"
    main = """
int32_t main(int32_t argc, char* argv[])
{
    constexpr uint32_t M = 30;
    constexpr uint32_t TWICE = M * 2;
    aclInit(nullptr);
    k<TWICE + 1, half, true><<<1, 0, stream>>>(aDevice);
    return 0;
}
"""
    body = "    probe.SetValue(0, M);\n    probe.SetValue(1, sizeof(T));\n    probe.SetValue(2, F);\n"
    assert _probe(body, entry_tpl=entry, main=main)[:3] == [61, 2, 1]
    assert _probe(body, entry_tpl=entry, main=main, template={"M": "5", "T": "float"})[:3] == [5, 4, 1]
    assert _probe(body, entry_tpl=entry, template={"M": 2, "T": "int8_t", "F": False})[:3] == [2, 1, 0]


def test_tpipe_buffer_addresses() -> None:
    """InitBuffer: len rounded up to 32 B, `num` blocks back to back from the memory's cursor (one cursor
    per physical memory: A1 and B1 share L1); AllocTensor takes the blocks round-robin."""
    body = """
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::TPosition::A1, 1> qa;
    AscendC::TQue<AscendC::TPosition::B1, 1> qb;
    AscendC::TQue<AscendC::TPosition::A2, 2> q2;
    AscendC::TBuf<AscendC::TPosition::A1> buf;
    pipe.InitBuffer(qa, 2, 100);      // L1 [0, 128), [128, 256)
    pipe.InitBuffer(qb, 1, 64);       // L1 [256, 320)
    pipe.InitBuffer(q2, 2, 1024);     // L0A [0, 1024), [1024, 2048)
    pipe.InitBuffer(buf, 33);         // L1 [320, 384)
    auto a0 = qa.AllocTensor<half>();
    auto a1 = qa.AllocTensor<half>();
    qa.FreeTensor(a0);
    auto a2 = qa.AllocTensor<half>();
    auto b0 = qb.AllocTensor<int8_t>();
    auto l0 = q2.AllocTensor<half>();
    auto t = buf.Get<float>();
    probe.SetValue(8, a0.GetPhyAddr());
    probe.SetValue(9, a1.GetPhyAddr());
    probe.SetValue(10, a2.GetPhyAddr());
    probe.SetValue(11, b0.GetPhyAddr());
    probe.SetValue(12, l0.GetPhyAddr());
    probe.SetValue(13, t.GetPhyAddr());
    probe.SetValue(14, t.GetSize());
    probe.SetValue(15, a1.GetSize());
"""
    body = body.replace("probe(AscendC::TPosition::A1, 0, 64)", "")
    src = (
        'extern "C" __global__ __aicore__ void k(GM_ADDR a)\n{\n'
        "    AscendC::LocalTensor<int64_t> probe(AscendC::TPosition::A1, 4096, 64);\n" + body + "}\n"
    )
    run = Kernel("k.cpp", "a2", text_=src).run()
    got = run.core.memory("L1").data[4096 : 4096 + 128].view(np.int64)[8:16].tolist()
    assert got == [0, 128, 0, 256, 0, 320, 16, 64]


def test_gm_reads_past_a_bound_buffer_warn_and_unbound_parameters_may_stay_unused() -> None:
    """GM is one byte space: DataCopy reading 64 B past its 64-B input is a HazardWarning (the tensor does
    not cover it), not an error; parameter `b` is never bound nor touched."""
    src = """
extern "C" __global__ __aicore__ void k(GM_ADDR a, GM_ADDR b)
{
    AscendC::GlobalTensor<half> g;
    g.SetGlobalBuffer((__gm__ half*)a);
    AscendC::LocalTensor<half> t(AscendC::TPosition::A1, 0, 64);
    AscendC::DataCopy(t, g, AscendC::DataCopyParams{1, 4, 0, 0});
}
"""
    with pytest.warns(
        HazardWarning,
        match=r"^k.cpp:7:5: DataCopy: reads 128 B from GM@0x0, past the source "
        r"LocalTensor \(64 B\)",
    ):
        run = Kernel("k.cpp", "a2", text_=src).run(gm={"a": np.arange(32, dtype=np.float16)})
    got = run.core.memory("L1").data[:64].view(np.float16)
    np.testing.assert_array_equal(got, np.arange(32, dtype=np.float16))


def test_parse_gm_forms(tmp_path) -> None:
    np.save(tmp_path / "x.npy", np.arange(4, dtype=np.uint16))
    (tmp_path / "y.bin").write_bytes(b"\x01\x02")
    name, b = parse_gm(f"x={tmp_path / 'x.npy'}:bfloat16_t")
    assert name == "x" and isinstance(b, Input) and b.data == np.arange(4, dtype=np.uint16).tobytes()
    assert b.dtype == "bfloat16_t"
    assert parse_gm(f"y={tmp_path / 'y.bin'}")[1].data == b"\x01\x02"
    name, o = parse_gm(f"z={tmp_path / 'z.npy'}:int4b_t:16x8x16x16")
    assert isinstance(o, Output) and o.shape == (16, 8, 16, 16) and o.nbytes == 16 * 8 * 16 * 16 // 2


def test_cvalues_rules() -> None:
    assert promote(UINT16) is INT32
    assert common(INT32, UINT32) is UINT32
    assert literal("0x80000000").t is UINT32 and literal("2147483648").t.name == "int64_t"
    assert binary("-", Num(0, UINT32), Num(1, INT32)).v == 2**32 - 1
    assert convert(3.9, INT32) == 3 and convert(-1, UINT16) == 65535


def test_tquebind_and_tbuf_views() -> None:
    """TQueBind<GM, A1, 2> is the A1 queue spelled with both ends (GetBufferLogicPos: TQue<A1> =
    TQueBind<GM, A1>): its tensors are A1 tensors of L1 and two EnQue in a row fit its depth of 2; the
    sync it implies (MTE2_MTE1 forward) orders a DataCopy before the LoadData that reads the DeQue'd
    tensor. TBuf::GetWithOffset views part of its buffer."""
    src = """
extern "C" __global__ __aicore__ void k(GM_ADDR a)
{
    AscendC::TPipe pipe;
    AscendC::TQueBind<AscendC::TPosition::GM, AscendC::TPosition::A1, 2> q;
    AscendC::TBuf<AscendC::TPosition::B1> tb;
    pipe.InitBuffer(q, 2, 512);
    pipe.InitBuffer(tb, 1024);
    AscendC::GlobalTensor<half> g;
    g.SetGlobalBuffer((__gm__ half*)a, 256);
    auto t0 = q.AllocTensor<half>();
    auto t1 = q.AllocTensor<half>();
    AscendC::DataCopy(t0, g, 256);
    AscendC::DataCopy(t1, g, 256);
    q.EnQue(t0);
    q.EnQue(t1);
    auto u0 = q.DeQue<half>();
    auto u1 = q.DeQue<half>();
    AscendC::LocalTensor<half> l0(AscendC::TPosition::A2, 0, 256);
    AscendC::LoadData(l0, u1, AscendC::LoadData2DParams{0, 1, 1, 0, 0, false, 0});
    auto part = tb.GetWithOffset<int64_t>(4, 512);
    part.SetValue(0, u1.GetPhyAddr() * 1000 + (u0.GetPosition() == AscendC::TPosition::A1));
    part.SetValue(1, part.GetPhyAddr());
    q.FreeTensor(u0);
    q.FreeTensor(u1);
}
"""
    x = np.arange(256, dtype=np.float16)
    run = Kernel("k.cpp", "a2", text_=src).run(gm={"a": x})
    assert run.sync_reports == []
    got = run.core.memory("L1").data[1024 + 512 : 1024 + 528].view(np.int64).tolist()
    assert got == [512 * 1000 + 1, 1024 + 512]  # t1 at L1 512 (second block); tb after the queue's 1024 B
    np.testing.assert_array_equal(run.core.memory("L0A").data[:512].view(np.float16), x)


def test_methods_defined_out_of_class() -> None:
    pre = """
template <typename T>
class K {
public:
    __aicore__ inline uint32_t Run(uint32_t x);
    __aicore__ inline uint32_t Twice(uint32_t x) { return Run(x) * 2; }
    uint32_t base = 5;
};
template <typename T>
__aicore__ inline uint32_t K<T>::Run(uint32_t x) { return x + base + sizeof(T); }
"""
    body = "    K<half> obj;\n    probe.SetValue(0, obj.Twice(1) * 100 + obj.Run(0));\n"
    assert _probe(body, pre)[0] == 1607
