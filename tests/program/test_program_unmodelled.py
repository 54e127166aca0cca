"""What ascsim's headers declare but do not model: programs naming it compile, calling it stops the run.

The vector unit (AIV), the high-level Matmul API, Mutex, the 950 register-level API (AscendC::MicroAPI /
Reg) and the CCE intrinsics catlass calls are declared with the C++ API's overload sets (asc-devkit
include/basic_api/kernel_operator_vec_*_intf.h, kernel_common.h, reg_compute/*, include/adv_api/matmul/),
so a kernel that only mentions them builds and runs; a call stops the run with NotImplementedFeature naming
the API and the line of the call. Each expected line is found in the kernel text written here.

Mmad's mode registers are modelled: SetHF32Mode(false) is the default; SetHF32Mode(true) (HF32 rounding,
kernel_operator_mm_intf.h) is refused; the layout-transform bit (SetMMLayoutTransform / SetMMRowMajor /
SetMMColumnMajor) only orders Mmad's fractal products, so a matmul under either setting equals numpy's.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from support.doc_kernels import Kernel
from support.doc_kernels import source_line as _line
from support.paths import EXAMPLES

from ascsim.base.errors import NotImplementedFeature
from ascsim.engine.sync import SyncWarning
from ascsim.program import Output

HEAD = '#include "kernel_operator.h"\n'
OPEN = 'extern "C" __global__ __aicore__ void k(GM_ADDR a)\n{\n'
# The tensors the calls below take: a GM tensor, UB-side and L1 local tensors (declaring them moves nothing).
DECLS = """    AscendC::GlobalTensor<half> aGM;
    aGM.SetGlobalBuffer((__gm__ half*)a, 256);
    AscendC::LocalTensor<half> x(AscendC::TPosition::VECCALC, 0, 256);
    AscendC::LocalTensor<int16_t> i16(AscendC::TPosition::VECCALC, 1024, 256);
    AscendC::LocalTensor<float> f32(AscendC::TPosition::VECCALC, 2048, 256);
    AscendC::LocalTensor<half> l1(AscendC::TPosition::A1, 0, 256);
"""


def _kernel(body: str, head: str = HEAD) -> str:
    return head + OPEN + DECLS + body + "}\n"


def _run(text: str, name: str = "k.cpp", chip: str = "a2"):
    gm = {"a": np.zeros(256, np.float16)}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", SyncWarning)
        return Kernel(name, chip, text_=text).run(gm=gm)


# (call, the API name the message gives); each is the one call of its kernel.
CALLS = [
    ("AscendC::Adds(x, x, half(1.0f), 128);", "Adds"),  # a tensor-scalar op, count form
    ("AscendC::And<int16_t>(i16, i16, i16, (uint64_t)128, 1, {1, 1, 1, 8, 8, 0});", "And"),  # braces
    ("AscendC::Cast(f32, x, AscendC::RoundMode::CAST_NONE, 256);", "Cast"),
    ("AscendC::Duplicate<int16_t>(i16, (int16_t)0x4000, 128);", "Duplicate"),
    ("AscendC::WholeReduceSum<half>(x, x, 128, 1, 1, 1, 8);", "WholeReduceSum"),
    ("AscendC::SetVectorMask<half>(0, 0xff);", "SetVectorMask"),
    ("AscendC::Mutex::Lock<PIPE_MTE2>(0);", "Mutex::Lock"),
    ("AscendC::SetCtrlSpr<60, 60>(0);", "SetCtrlSpr"),
]


@pytest.mark.parametrize(("call", "api"), CALLS, ids=[api for _, api in CALLS])
def test_a_call_of_an_unmodelled_api_stops_naming_it_and_its_line(call: str, api: str) -> None:
    text = _kernel(f"    {call}\n")
    with pytest.raises(NotImplementedFeature) as e:
        _run(text)
    msg = str(e.value)
    assert msg.startswith(f"k.cpp:{_line(text, call)}:"), msg
    assert f"{api} is declared by ascsim's headers but not modelled" in msg


def test_a_micro_api_call_stops_naming_it_and_its_line() -> None:
    """The 950 register-level API (reg_compute/kernel_reg_compute_vec_duplicate_intf.h: Duplicate<T,
    mode>(dst, scalar, mask)), spelt AscendC::MicroAPI (kernel_macros.h: namespace MicroAPI = Reg)."""
    call = ("AscendC::MicroAPI::Duplicate<int8_t, AscendC::MicroAPI::MaskMergeMode::ZEROING>"
            "(reg, (int8_t)2, m);")
    text = _kernel("    AscendC::MicroAPI::RegTensor<int8_t> reg;\n    AscendC::MicroAPI::MaskReg m;\n"
                   f"    {call}\n")
    with pytest.raises(NotImplementedFeature) as e:
        _run(text, chip="950")
    assert str(e.value).startswith(f"k.cpp:{_line(text, call)}:")
    assert "Reg::Duplicate is declared by ascsim's headers but not modelled" in str(e.value)


def test_a_cce_intrinsic_catlass_calls_stops_at_its_line() -> None:
    """load_cbuf_to_cb_mx (catlass gemm/tile/ascend950/copy_l1_to_l0b.hpp:313) is a compiler intrinsic: it
    takes anything and stops at the line of its first argument."""
    call = "load_cbuf_to_cb_mx(0, (void*)nullptr, 0, 0, 1, 1, 1, 1);"
    text = _kernel(f"    {call}\n")
    with pytest.raises(NotImplementedFeature) as e:
        _run(text, chip="950")
    assert str(e.value).startswith(f"k.cpp:{_line(text, call)}:")
    assert "load_cbuf_to_cb_mx is declared" in str(e.value)


MATMUL_HEAD = HEAD + '#include "lib/matmul_intf.h"\n'
MATMUL_DECL = """    using AT = AscendC::MatmulType<AscendC::TPosition::GM, AscendC::CubeFormat::ND, half>;
    using CT = AscendC::MatmulType<AscendC::TPosition::GM, AscendC::CubeFormat::ND, float>;
    AscendC::Matmul<AT, AT, CT> mm;
    AscendC::GlobalTensor<float> cGM;
    TCubeTiling tiling;
"""


def test_a_high_level_matmul_call_stops_naming_it_and_its_line() -> None:
    """AscendC::Matmul (adv_api/matmul/matmul.h: SetTensorA(const GlobalTensor<SrcAT>&, bool))."""
    call = "mm.SetTensorA(aGM);"
    text = _kernel(MATMUL_DECL + f"    {call}\n    mm.IterateAll(cGM);\n", MATMUL_HEAD)
    with pytest.raises(NotImplementedFeature) as e:
        _run(text)
    assert str(e.value).startswith(f"k.cpp:{_line(text, call)}:")
    assert "Matmul::SetTensorA is declared by ascsim's headers but not modelled" in str(e.value)
    regist = "REGIST_MATMUL_OBJ(&pipe, nullptr, mm, &tiling);"
    text = _kernel(MATMUL_DECL + f"    AscendC::TPipe pipe;\n    {regist}\n", MATMUL_HEAD)
    with pytest.raises(NotImplementedFeature) as e:
        _run(text)
    assert str(e.value).startswith(f"k.cpp:{_line(text, regist)}:")
    assert "REGIST_MATMUL_OBJ is declared" in str(e.value)


def test_a_kernel_that_only_mentions_them_runs() -> None:
    """Declared, not called: a discarded `if constexpr` branch, a function never called, objects of the
    declared types. The kernel's one modelled call (a GM write through SetValue) happens."""
    text = MATMUL_HEAD + """
template <class T>
__aicore__ inline void VectorSide(AscendC::LocalTensor<T>& t, AscendC::LocalTensor<int16_t>& m)
{
    AscendC::Muls(t, t, (T)2, 64);
    AscendC::Or<int16_t>(m, m, m, 64);
    AscendC::Brcb(t, t, 1, {1, 8});
    AscendC::Select(t, m, t, t, AscendC::SELMODE::VSEL_TENSOR_TENSOR_MODE, 64);
    AscendC::Mutex::Unlock<PIPE_MTE2>(0);
}
__aicore__ inline void NeverCalled(AscendC::LocalTensor<half>& t)
{
    AscendC::Exp(t, t, 64);
    AscendC::ResetMask();
}
""" + OPEN + DECLS + MATMUL_DECL + """    AscendC::MicroAPI::RegTensor<float> reg;
    AscendC::MicroAPI::MaskReg mask;
    AscendC::UnaryRepeatParams unary(1, 1, 8, 8);
    AscendC::BinaryRepeatParams binary;
    if constexpr (g_coreType == AscendC::AIV) {
        VectorSide(x, i16);
        mm.Iterate();
    }
    aGM.SetValue(3, half(7.0f));
}
"""
    run = _run(text)
    assert run.returncode == 0
    assert float(run.read_gm("a", "half")[3]) == 7.0  # the one modelled call's effect


# -- Mmad's mode registers -----------------------------------------------------------------------------------

PINGPONG = (EXAMPLES / "matmul_pingpong.cpp").read_text()
MMAD_PARAMS = "AscendC::MmadParams mmadParams;"


def _matmul_with(setter: str):
    """examples/matmul_pingpong.cpp (32 x 128 @ 128 x 32, half -> float) with `setter` before each Mmad."""
    assert MMAD_PARAMS in PINGPONG
    text = PINGPONG.replace(MMAD_PARAMS, f"{setter} {MMAD_PARAMS}")
    rng = np.random.default_rng(3)
    a = rng.integers(-4, 5, (32, 128)).astype(np.float16)
    b = rng.integers(-4, 5, (128, 32)).astype(np.float16)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", SyncWarning)
        run = Kernel("mm.cpp", "a2", text_=text).run(gm={"a": a, "b": b, "c": Output("float", (32, 32))})
    return text, run, a.astype(np.float32) @ b.astype(np.float32)


@pytest.mark.parametrize("setter", [
    "AscendC::SetMMLayoutTransform(true);", "AscendC::SetMMLayoutTransform(false);",
    "AscendC::SetMMRowMajor();", "AscendC::SetMMColumnMajor();", "AscendC::SetHF32Mode(false);",
    "AscendC::SetHF32Mode(AscendC::HF32Mode::DISABLE);", "AscendC::SetHF32TransMode(true);",
])
def test_mode_setters_that_change_no_byte_leave_the_matmul_exact(setter: str) -> None:
    """Integer-valued half inputs: every product and sum is exact in float, so the result is numpy's."""
    _, run, want = _matmul_with(setter)
    np.testing.assert_array_equal(run.read_gm("c", "float", (32, 32)), want)
    name = setter.split("::")[1].split("(")[0]
    assert name in {c.name for c in run.trace}


@pytest.mark.parametrize("setter", ["AscendC::SetHF32Mode(true);",
                                    "AscendC::SetHF32Mode(AscendC::HF32Mode::ENABLE);"])
def test_hf32_on_is_not_modelled(setter: str) -> None:
    with pytest.raises(NotImplementedFeature) as e:
        _matmul_with(setter)
    text = PINGPONG.replace(MMAD_PARAMS, f"{setter} {MMAD_PARAMS}")
    assert str(e.value).startswith(f"mm.cpp:{_line(text, setter)}:")
    assert "SetHF32Mode(true): Mmad's HF32 mode" in str(e.value)
