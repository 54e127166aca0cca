"""The build and the C++ runtime objects ascsim's headers implement natively: launch rewriting, the
preprocessing macros of the chip, --template, the build cache, and the TPipe / TQue / TBuf buffer
addresses (资源管理/TPipe/InitBuffer.md; the C++ API's TPipe::InitBuffer cursor rule: len rounded up to
32 B, `num` blocks back to back from the cursor of the queue's physical memory, A1 / B1 sharing L1).

Probes store what the kernel computed into an L1 tensor with SetValue; the test reads L1 after the run.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from support.doc_kernels import Kernel

from ascsim import HazardWarning
from ascsim.program import Input, Output, parse_gm
from ascsim.program.source import kernel_entries, rewrite_launches

PROBE = "    AscendC::LocalTensor<int32_t> probe(AscendC::TPosition::A1, 4096, 64);\n"


def _probe(body: str, pre: str = "", chip: str = "a2", n: int = 16, defines=None, template=None,
           entry_tpl: str = "") -> list[int]:
    head = (entry_tpl + "__global__ __aicore__ void k(GM_ADDR a)\n" if entry_tpl
            else 'extern "C" __global__ __aicore__ void k(GM_ADDR a)\n')
    src = pre + head + "{\n" + PROBE + body + "}\n"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        run = Kernel("k.cpp", chip, defines, text_=src, template=template).run()
    return run.core.memory("L1").data[4096 : 4096 + 4 * n].view(np.int32)[:n].tolist()


def test_npu_arch_follows_the_chip_and_defines_reach_the_program() -> None:
    body = """
#if defined(__NPU_ARCH__) && (__NPU_ARCH__ == 3510)
    probe.SetValue(0, 950);
#elif __NPU_ARCH__ == 2201
    probe.SetValue(0, __NPU_ARCH__);
#endif
    probe.SetValue(1, SCENARIO_NUM);
    probe.SetValue(2, CATLASS_ARCH);
"""
    assert _probe(body, chip="a2", defines={"SCENARIO_NUM": "3"})[:3] == [2201, 3, 2201]
    assert _probe(body, chip="950", defines={"SCENARIO_NUM": "2"})[:3] == [950, 2, 3510]
    assert _probe(body, chip="a3", defines={"SCENARIO_NUM": "1"})[0] == 2201


def test_template_arguments_of_a_kernel_only_file() -> None:
    body = "    probe.SetValue(0, M * 100 + N);\n    probe.SetValue(1, sizeof(T));\n"
    tpl = "template <uint32_t M, uint32_t N = 7, typename T = half>\n"
    assert _probe(body, entry_tpl=tpl, template={"M": 3})[:2] == [307, 2]
    assert _probe(body, entry_tpl=tpl, template={"M": 1, "N": 2, "T": "float"})[:2] == [102, 4]


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
    qa.FreeTensor(a1);
    qa.FreeTensor(a2);
    qb.FreeTensor(b0);
    q2.FreeTensor(l0);
"""
    assert _probe(body)[8:16] == [0, 128, 0, 256, 0, 320, 16, 64]


def test_tquebind_and_tbuf_views() -> None:
    """TQueBind<GM, A1, 2> is the A1 queue spelled with both ends: its tensors are A1 tensors of L1; the sync
    it implies (MTE2_MTE1 forward) orders a DataCopy before the LoadData reading the DeQue'd tensor.
    TBuf::GetWithOffset views part of its buffer (offset in bytes)."""
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
    auto part = tb.GetWithOffset<int32_t>(4, 512);
    part.SetValue(0, u1.GetPhyAddr() * 1000 + (u0.GetPosition() == (int32_t)AscendC::TPosition::A1));
    part.SetValue(1, part.GetPhyAddr());
    q.FreeTensor(u0);
    q.FreeTensor(u1);
    AscendC::PipeBarrier<PIPE_ALL>();
}
"""
    x = np.arange(256, dtype=np.float16)
    run = Kernel("k.cpp", "a2", text_=src).run(gm={"a": x})
    got = run.core.memory("L1").data[1024 + 512 : 1024 + 520].view(np.int32).tolist()
    assert got == [512 * 1000 + 1, 1024 + 512]  # t1 at L1 512 (second block); tb after the queue's 1024 B
    np.testing.assert_array_equal(run.core.memory("L0A").data[:512].view(np.float16), x)
    assert [r.kind for r in run.sync_reports] == []


def test_gm_reads_past_a_tensor_warn_past_an_allocation_fail() -> None:
    """GM is the program's allocations: DataCopy reading past its GlobalTensor but inside the allocation is
    a HazardWarning (the tensor does not cover it, the device reads it); parameter `b` is never touched."""
    src = """
extern "C" __global__ __aicore__ void k(GM_ADDR a, GM_ADDR b)
{
    AscendC::GlobalTensor<half> g;
    g.SetGlobalBuffer((__gm__ half*)a, 32);
    AscendC::LocalTensor<half> t(AscendC::TPosition::A1, 0, 64);
    AscendC::DataCopy(t, g, AscendC::DataCopyParams{1, 4, 0, 0});
}
"""
    with pytest.warns(HazardWarning, match=r"^k.cpp:7:5: DataCopy: reads 128 B from GM@0x[0-9a-f]+, past the "
                                           r"source LocalTensor \(64 B\)"):
        run = Kernel("k.cpp", "a2", text_=src).run(gm={"a": np.arange(64, dtype=np.float16)})
    np.testing.assert_array_equal(run.core.memory("L1").data[:128].view(np.float16), np.arange(64))


def test_parse_gm_forms(tmp_path) -> None:
    np.save(tmp_path / "x.npy", np.arange(4, dtype=np.uint16))
    (tmp_path / "y.bin").write_bytes(b"\x01\x02")
    name, b = parse_gm(f"x={tmp_path / 'x.npy'}:bfloat16_t")
    assert name == "x" and isinstance(b, Input) and b.data == np.arange(4, dtype=np.uint16).tobytes()
    assert b.dtype == "bfloat16_t"
    assert parse_gm(f"y={tmp_path / 'y.bin'}")[1].data == b"\x01\x02"
    name, o = parse_gm(f"z={tmp_path / 'z.npy'}:int4b_t:16x8x16x16")
    assert isinstance(o, Output) and o.shape == (16, 8, 16, 16) and o.nbytes == 16 * 8 * 16 * 16 // 2


# -- launch rewriting and kernel entries (text in, text out) ------------------------------------------


def test_launch_rewrite_keeps_lines_and_finds_template_callees_on_the_line_before() -> None:
    text = ("int main() {\n  foo::k<M, Int<1>>\n     <<<1, nullptr, stream>>>(a, b,\n        c);\n"
            '  std::cout << "x<<<y";\n  auto t = Stride<Int<1>>>{};\n  bar<<<n, 0, s>>>();\n}\n')
    out, sites = rewrite_launches(text)
    assert out.count("\n") == text.count("\n")
    assert [(s.callee, s.line) for s in sites] == [("foo::k<M, Int<1>>", 2), ("bar", 7)]
    assert '"x<<<y"' in out and "Stride<Int<1>>>{}" in out  # a string and a template close are not launches
    assert ('::ascsim::rt::launch(::ascsim::rt::Launch("bar", __builtin_FILE(), __builtin_LINE(), n, 0, s), '
            "[&](auto&&... ascsim_launch_args) { bar(ascsim_launch_args...); })") in out


def test_kernel_entries() -> None:
    mark = '__attribute__((annotate("ascsim.global")))'
    vec = '__attribute__((annotate("ascsim.vector")))'
    text = (f"template <int M, typename T = half>\n{mark} void kern(uint8_t* a, half *b) {{ }}\n"
            f'extern "C" {mark} void k2(void) {{}}\n{mark} void decl(int);\n'
            f'extern "C" {mark} {vec} void v(uint8_t* x) {{}}\n')
    es = {e.name: e for e in kernel_entries(text)}
    assert set(es) == {"kern", "k2", "v"}  # a declaration is not an entry
    assert [p.name for p in es["kern"].params] == ["a", "b"] and es["kern"].params[1].type == "half *"
    assert [(t.name, t.default) for t in es["kern"].template] == [("M", False), ("T", True)]
    assert es["k2"].params == () and es["v"].vector and not es["kern"].vector


def test_a_second_build_is_cached(tmp_path) -> None:
    from ascsim.program import load_kernel

    f = tmp_path / "k.cpp"
    f.write_text('extern "C" __global__ __aicore__ void k(GM_ADDR a) {}\n// ' + str(id(f)) + "\n")
    first = load_kernel(f, "a2")
    again = load_kernel(f, "a2")
    assert not first.built.cached and again.built.cached and again.built.exe == first.built.exe
    assert load_kernel(f, "950").built.exe != first.built.exe  # the chip is part of the key
