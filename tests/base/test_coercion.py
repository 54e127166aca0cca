"""Regression tests for the input-coercion layer (issue 9 items 1, 2, 4; ascsim.base.coerce): one test per
fixed
fuzz signature, named for what it guards. Each builds the smallest call that used to escape as a
non-AscsimError (or to give a silent wrong answer) and pins the start of the refusal, or the value the
hardware would see (references: the C++ parameter types, number_formats.md's bit patterns via numpy)."""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

import ml_dtypes
import numpy as np
import pytest
from support.basis import assert_basis

import ascsim.ascendc as A
from ascsim import Core
from ascsim.base.coerce import show
from ascsim.base.errors import AscsimError, BoundsError, ParamRangeError, UnsupportedError
from ascsim.machine.dtypes import Bits, get_dtype, pad_pattern
from ascsim.params import (
    CO2Layout,
    FixpipeConfig,
    InitConstValueParams,
    IsResetLoad3dConfig,
    Load2DBitModeParam,
    Load3DBitModeParam,
    LoadData2DParams,
    LoadData2DParamsV2,
    LoadData3DParamsV2,
    LoadData3DParamsV2Pro,
    LoadDataRepeatParam,
    MmadParams,
    SetFMatrixBitModeParams,
    fixpipe_config,
)
from ascsim.params import FixpipeParamsArch3510 as P_Arch3510
from ascsim.params.base import _key_of

HUGE = 2**20000  # repr() of it raises ValueError (Python's int-to-str digit limit)


def _v2(**kw) -> LoadData3DParamsV2:
    """A valid 4x4, 16-channel, 1x1-filter Load3Dv2 (one 16x16 half fractal)."""
    p = LoadData3DParamsV2([0, 0, 0, 0], 4, 4, 16, 16, 16, 0, 0, 1, 1, 1, 1, 1, 1, False, False, 0.0)
    for k, v in kw.items():
        setattr(p, k, v)
    return p


def _load3d(core: Core, p, config=None):
    src = core.tensor("A1", "half", 4 * 4 * 16, offset=0)
    dst = core.tensor("A2", "half", 16 * 16, offset=0)
    return core.load_data(dst, src, p, config), dst


# -- integer fields ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "value",
    [
        3.0,
        2.5,
        float("nan"),
        float("inf"),
        None,
        "3",
        [16],
        {},
        np.array(16),
        np.array([16, 16]),
        1 + 0j,
        Fraction(16, 1),
        Decimal(16),
        b"x",
    ],
    ids=lambda v: type(v).__name__ + ("0d" if isinstance(v, np.ndarray) and not v.ndim else ""),
)
def test_integer_field_refuses_non_integers(value):
    """A uint16_t field takes an integer only (a brace-initialised C++ struct refuses 3.0 as narrowing);
    Fraction / Decimal / 0-d arrays used to pass `int(v) == v`, lists and dicts crashed the cache lookup."""
    with pytest.raises(
        ParamRangeError,
        match=r"^Load3Dv2: kExtension must be an integer in \[0, 65535\], "
        r"but got ",
    ) as e:
        _load3d(Core("a2"), _v2(kExtension=value))
    assert_basis(e.value)


@pytest.mark.parametrize("value", [np.int64(16), np.uint16(16), np.int8(16)], ids=lambda v: v.dtype.name)
def test_integer_field_takes_numpy_integers_like_cpp_integers(value):
    report, _ = _load3d(Core("a2"), _v2(kExtension=value))
    assert report.bytes_written == 16 * 16 * 2


def test_bool_counts_as_one_in_an_integer_field():
    """C++ converts bool to any integer type: strideW = true is strideW = 1."""
    a, da = _load3d(Core("a2"), _v2(strideW=True))
    b, db = _load3d(Core("a2"), _v2(strideW=1))
    assert (da.read_raw() == db.read_raw()).all()


def test_huge_int_is_shown_not_crashing_the_message():
    with pytest.raises(
        ParamRangeError,
        match=r"^Load3Dv2: kExtension must be in \[0, 65535\], but got "
        r"<an integer of 20001 bits>",
    ):
        _load3d(Core("a2"), _v2(kExtension=HUGE))
    assert show(-HUGE) == "-<an integer of 20001 bits>"


# -- flags ---------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "value",
    [2, -1, "yes", "", None, 1.0, 0.5, np.array([True, False]), np.array([]), np.array(True), [], {}],
    ids=lambda v: repr(v)[:16],
)
def test_flag_refuses_what_is_not_a_bool(value):
    """A C++ bool member: arrays used to raise ValueError ("truth value ... ambiguous") from `in (0, 1)`."""
    with pytest.raises(
        ParamRangeError, match=r"^Load3Dv2: enTranspose must be a bool \(true/false\), but got"
    ):
        _load3d(Core("a2"), _v2(enTranspose=value))


@pytest.mark.parametrize("value", [np.bool_(False), np.int8(0), 0, False], ids=repr)
def test_flag_takes_numpy_bools_and_zero_one(value):
    report, _ = _load3d(Core("a2"), _v2(enTranspose=value))
    assert report.bytes_written == 512


# -- values of T (padValue, initValue) -----------------------------------------------------------------------


@pytest.mark.parametrize(
    "value",
    [None, "1.5", 1 + 1j, complex(1, 0), [1.0], np.array(1.0), Fraction(1, 2)],
    ids=lambda v: type(v).__name__,
)
def test_pad_value_that_is_no_number_is_refused(value):
    """padValue=None used to become NaN silently, a complex dropped its imaginary part."""
    with pytest.raises(ParamRangeError, match=r"^Load3Dv2: padValue must be representable as half, but got"):
        _load3d(Core("a2"), _v2(padValue=value))
    with pytest.raises(ParamRangeError, match=r"^SetLoadDataPaddingValue: padValue must be representable"):
        Core("a2").set_padding_value(value, "half")


def test_pad_value_too_large_for_any_float_is_refused():
    with pytest.raises(
        ParamRangeError,
        match=r"^SetLoadDataPaddingValue: padValue must be representable as "
        r"half, but got <an integer of 1031 bits>",
    ):
        Core("a2").set_padding_value(2**1030, "half")


@pytest.mark.parametrize(
    ("dtype", "value", "bits"),
    [
        ("half", -0.0, 0x8000),
        ("half", 0.0, 0x0000),
        ("bfloat16_t", -0.0, 0x8000),
        ("float", -0.0, 0x80000000),
        ("half", np.float16(-0.0), 0x8000),
        ("bfloat16_t", ml_dtypes.bfloat16(-2.0), 0xC000),
        ("int8_t", -1, 0xFF),
        ("int16_t", 2.0, 0x0002),
        ("half", True, 0x3C00),
    ],
)
def test_pad_pattern_is_the_bit_pattern_of_the_value(dtype, value, bits):
    """Reference: numpy / ml_dtypes encode the same value (docs/number_formats.md)."""
    assert pad_pattern(dtype, value) == bits
    ref = np.asarray([value]).astype(get_dtype(dtype).value_dtype).view(get_dtype(dtype).raw_dtype)[0]
    assert int(ref) == bits


@pytest.mark.parametrize("dtype", ["half", "bfloat16_t", "float"])
def test_negative_zero_pad_after_zero_keeps_its_sign(dtype):
    """The prepared-call cache keys floats by bit pattern: padValue=-0.0 after an identical call with 0.0
    (the cache is module-wide, so even a fresh Core) pads with -0.0."""
    bits = get_dtype(dtype).bits
    got = []
    for pad in (0.0, -0.0, 0.0):
        core = Core("a2")
        src = core.tensor("A1", dtype, 4 * 4 * 16, offset=0)
        dst = core.tensor("A2", dtype, 16 * 16, offset=0)
        p = LoadData3DParamsV2([1, 0, 0, 0], 4, 4, 16, 16, 16, 0, 0, 1, 1, 1, 1, 1, 1, False, False, pad)
        core.load_data(dst, src, p)
        got.append(int(dst.read_raw()[0]))  # row 0, column 0: the left pad
    assert got == [0, 1 << (bits - 1), 0]


def test_bits_and_an_equal_int_are_different_cache_keys():
    """Bits(0x3C00) is the pattern of half 1.0; the int 15360 is the value 15360.0 (== in Python)."""
    assert _key_of(Bits(0x3C00)) != _key_of(15360)
    a, da = _load3d(Core("a2"), _v2(padList=[1, 0, 0, 0], padValue=15360))
    b, db = _load3d(Core("a2"), _v2(padList=[1, 0, 0, 0], padValue=Bits(0x3C00)))
    assert int(da.read_raw()[0]) == int(np.float16(15360).view(np.uint16)) and int(db.read_raw()[0]) == 0x3C00


def test_numpy_scalars_of_different_types_with_equal_bytes_are_different_keys():
    a, b = ml_dtypes.float8_e4m3fn(1.0), ml_dtypes.float8_e5m2(0)
    b = np.frombuffer(np.asarray(a).tobytes(), dtype=ml_dtypes.float8_e5m2)[0]
    assert _key_of(a) != _key_of(b)


def test_fill_init_value_none_is_refused():
    core = Core("a2")
    dst = core.tensor("A1", "half", 16)
    with pytest.raises(
        ParamRangeError, match=r"^Fill: initValue must be representable as half, but got None"
    ):
        core.init_const_value(dst, InitConstValueParams(1, 1, 0, None))


# -- bit-mode structs ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("value", [None, 1.5, "3", float("nan"), [1], 2**16])
def test_bitfield_setters_refuse_non_integers(value):
    """Load3DBitModeParam.set / SetFMatrixBitModeParams.SetL1H used to raise TypeError / ValueError /
    OverflowError (int(None), int(nan)) or truncate 1.5 to 1."""
    with pytest.raises(ParamRangeError, match=r"^Load3DBitModeParam: kExtension is a 16-bit field"):
        Load3DBitModeParam().SetKExtension(value)
    with pytest.raises(ParamRangeError, match=r"^SetFMatrixBitModeParams: l1H is a 16-bit field"):
        SetFMatrixBitModeParams().SetL1H(value)


def test_load2d_bitmode_from_v2_params_with_nan_is_refused():
    with pytest.raises(ParamRangeError, match=r"^Load2DBitModeParam: mStep is a 8-bit field"):
        Load2DBitModeParam(LoadData2DParamsV2(0, 0, float("nan"), 1, 1, 1))
    with pytest.raises(ParamRangeError, match=r"^Load2DBitModeParam: ifTranspose must be a bool"):
        Load2DBitModeParam(LoadData2DParamsV2(0, 0, 1, 1, 1, 1, "yes"))


def test_config_word_assigned_directly_is_checked_at_the_call():
    """bm.config0 = None used to reach the bit arithmetic (TypeError)."""
    core = Core("950")
    src = core.tensor("A1", "half", 256, offset=0)
    dst = core.tensor("A2", "half", 256, offset=0)
    bm = Load3DBitModeParam(_v2())
    bm.config0 = None
    with pytest.raises(
        ParamRangeError, match=r"^Load3DBitModeParam: config0 must fit in 64 bits, but got None"
    ):
        core.load_data(dst, src, bm, dst_pos="A2", src_pos="A1")
    bm.config0 = 1.5
    assert "1.5" in repr(bm)  # the repr shows the bad word instead of failing on it


def test_v2pro_word_that_is_a_fraction_is_refused():
    """Fraction(3, 1) == 3 passed the old range check, then `>>` raised TypeError."""
    core = Core("a2")
    core.set_fmatrix(4, 4, [0, 0, 0, 0])
    p = LoadData3DParamsV2Pro(
        16, extConfig=LoadData3DParamsV2Pro.pack_ext(16, 16), filterConfig=Fraction(3, 1)
    )
    with pytest.raises(ParamRangeError, match=r"^Load3Dv2Pro: filterConfig must be an integer"):
        _load3d(core, p)


# -- padList, IsResetLoad3dConfig ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "pads",
    [None, 4, "abcd", {"a": 1}, np.array([[1, 1], [1, 1]]), iter([1, 2, 3, 4])],
    ids=lambda v: type(v).__name__,
)
def test_pad_list_that_is_not_four_entries_is_refused(pads):
    with pytest.raises(
        ParamRangeError,
        match=r"^SetFmatrix: padList must have 4 entries \[left, right, top, "
        r"bottom\], but got",
    ):
        Core("a2").set_fmatrix(4, 4, pads)
    with pytest.raises(ParamRangeError, match=r"^Load3Dv2: padList must have 4 entries"):
        _load3d(Core("a2"), _v2(padList=pads))


def test_pad_list_as_a_numpy_vector_is_accepted():
    core = Core("a2")
    core.set_fmatrix(4, 4, np.array([1, 1, 0, 0], dtype=np.int64))
    assert core.regs.fmatrix_left.padList == (1, 1, 0, 0)


@pytest.mark.parametrize("config", ["a2", 0, True, [], LoadData2DParams()], ids=lambda v: type(v).__name__)
def test_load3d_config_of_another_type_is_refused(config):
    """config='a2' used to raise AttributeError; config=0 / [] silently meant the default."""
    with pytest.raises(ParamRangeError, match=r"^Load3Dv2: config must be IsResetLoad3dConfig, but got"):
        _load3d(Core("a2"), _v2(), config)


def test_load3d_config_flags_are_checked():
    with pytest.raises(ParamRangeError, match=r"^Load3Dv2: config.isSetFMatrix must be a bool"):
        _load3d(Core("a2"), _v2(), IsResetLoad3dConfig(2, True))


# -- struct and tensor arguments -----------------------------------------------------------------------------


def _mmad_operands(core: Core):
    return (
        core.tensor("CO1", "float", 256, offset=0),
        core.tensor("A2", "half", 256, offset=0),
        core.tensor("B2", "half", 256, offset=0),
    )


@pytest.mark.parametrize("params", [None, 3, {}, LoadData2DParams(), MmadParams], ids=lambda v: repr(v)[:20])
def test_wrong_struct_type_names_the_accepted_structs(params):
    core = Core("a2")
    with pytest.raises(ParamRangeError, match=r"^Mmad: params must be MmadParams, but got ") as e:
        core.mmad(*_mmad_operands(core), params)
    assert_basis(e.value)
    with pytest.raises(
        ParamRangeError,
        match=r"^SetLoadDataRepeat: params must be LoadDataRepeatParam or "
        r"LoadDataRepeatParamWithStride, but got",
    ):
        core.set_load_data_repeat(params)


def test_load_data_with_an_unknown_struct_lists_the_overloads():
    core = Core("a2")
    src, dst = core.tensor("A1", "half", 256), core.tensor("A2", "half", 256)
    with pytest.raises(UnsupportedError, match=r"^LoadData: no overload takes MmadParams; known: "):
        core.load_data(dst, src, MmadParams())


# Each call with `bad` where a tensor goes: (core, bad, an L1 source, the Mmad operands c, a) -> the call.
NON_TENSOR_CALLS = {
    "LoadData-dst": lambda core, bad, src, c, a: core.load_data(bad, src, _v2()),
    "Mmad-b": lambda core, bad, src, c, a: core.mmad(c, a, bad, MmadParams(16, 16, 16)),
    "DataCopy-dst": lambda core, bad, src, c, a: core.data_copy(bad, src, 16),
    "Fill-dst": lambda core, bad, src, c, a: core.init_const_value(bad, InitConstValueParams()),
    "Fixpipe-dst": lambda core, bad, src, c, a: core.fixpipe(bad, c, None),
    "LoadDataWithSparse-dst": lambda core, bad, src, c, a: core.load_data_with_sparse(bad, src, src,
                                                                                      LoadData2DParams()),
}


@pytest.mark.parametrize("call", list(NON_TENSOR_CALLS.values()), ids=list(NON_TENSOR_CALLS))
@pytest.mark.parametrize("bad", [None, 0, np.zeros(16, np.float16), "A2", "<unbound>"],
                         ids=["None", "0", "ndarray", "str", "unbound-GlobalTensor"])
def test_non_tensor_where_a_tensor_goes_is_refused(bad, call):
    """None / int / ndarray / str used to raise AttributeError deep in the instruction."""
    core = Core("a2")
    if isinstance(bad, str) and bad == "<unbound>":
        bad = A.GlobalTensor("half")
    src = core.tensor("A1", "half", 256)
    c, a, b = _mmad_operands(core)
    with pytest.raises(
        ParamRangeError, match=r"^\w+: \w+ must be a LocalTensor or GlobalTensor, but got"
    ):
        call(core, bad, src, c, a)


# -- Fixpipe config ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("fmt", [9, -1, "ND", None, 1.5])
def test_fixpipe_config_refuses_an_unknown_layout(fmt):
    """FixpipeConfig(9) / config=7 used to raise ValueError from the enum."""
    with pytest.raises(
        ParamRangeError,
        match=r"^FixpipeConfig: format must be a CO2Layout \(NZ = 0, "
        r"ROW_MAJOR = 1, COLUMN_MAJOR = 2\), but got",
    ) as e:
        FixpipeConfig(fmt)
    assert_basis(e.value)


def test_fixpipe_config_argument_names_the_allowed_values():
    core = Core("a2")
    c = core.tensor("CO1", "float", 256, offset=0)
    gm = core.global_tensor("float", 256)
    with pytest.raises(
        ParamRangeError,
        match=r"^Fixpipe: config must be a FixpipeConfig \(CFG_ROW_MAJOR, "
        r"CFG_NZ, CFG_COLUMN_MAJOR\) or a CO2Layout",
    ):
        core.fixpipe(gm, c, None, 7)
    assert fixpipe_config("Fixpipe", "NZ").format is CO2Layout.NZ
    assert fixpipe_config("Fixpipe", 0) == FixpipeConfig(CO2Layout.NZ)


# -- the facade's variadic spellings -------------------------------------------------------------------------


@pytest.mark.parametrize(("call", "match"), [
    pytest.param(lambda dst, src: A.LoadData(dst, src), r"^LoadData: takes \(dst, src, params\) or",
                 id="LoadData"),
    pytest.param(lambda dst, src: A.SetFmatrix(4, 4), r"^SetFmatrix: takes \(l1H, l1W, padList",
                 id="SetFmatrix"),
    pytest.param(lambda dst, src: A.Mmad(dst, dst, dst), r"^Mmad: takes ", id="Mmad"),
    pytest.param(lambda dst, src: A.Fixpipe(dst, src), r"^Fixpipe: takes ", id="Fixpipe"),
])
def test_facade_argument_counts_are_refused_by_name(call, match: str):
    core = Core("a2")
    src, dst = core.tensor("A1", "half", 256), core.tensor("A2", "half", 256)
    with A.use(core):
        with pytest.raises(ParamRangeError, match=match):
            call(dst, src)


# -- tensors -------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("data", [[None], [[1], [1, 2]], ["a"], [1 + 2j]], ids=repr)
def test_tensor_data_that_is_no_numbers_allocates_nothing(data):
    core = Core("a2")
    before = core.gm.top
    with pytest.raises(
        ParamRangeError, match=r"^LocalTensor<half>.write: values must be an array of numbers"
    ):
        core.global_tensor("half", data)
    assert core.gm.top == before
    with pytest.raises(ParamRangeError):
        core.tensor("A1", "half", 4, data=data)
    assert core.tensor("A1", "half", 4).offset == 0  # the failed call reserved nothing


@pytest.mark.parametrize(("name", "kw"), [("offset", {"offset": 2.5}), ("length", {"length": "3"})])
def test_tensor_geometry_must_be_integers(name, kw):
    args = {"length": 4, **kw}
    with pytest.raises(ParamRangeError, match=rf"^LocalTensor: {name} must be an integer"):
        Core("a2").tensor("A1", "half", **args)


def test_int_values_beyond_64_bits_are_range_errors():
    with pytest.raises(ParamRangeError, match=r"^to_raw: int8_t values must be in \[-128, 127\]"):
        Core("a2").global_tensor("int8_t", [2**70])


def test_fill_raw_pattern_out_of_range_is_refused():
    t = Core("a2").tensor("A1", "int8_t", 4)
    with pytest.raises(
        ParamRangeError, match=r"^LocalTensor<int8_t>.fill_raw: pattern must be in \[0, 255\]"
    ):
        t.fill_raw(300)


def test_unhashable_position_is_refused():
    with pytest.raises(UnsupportedError, match=r"^TPosition \['A1'\] is not modelled"):
        Core("a2").tensor(["A1"], "half", 4)


def test_unkeyable_field_is_validated_uncached_and_refused():
    """A field no cache key can hold (None, a list, a dict) makes the key None — the call is validated
    uncached and refused — instead of crashing the cache lookup."""
    p = LoadDataRepeatParam({})
    assert p.key() is None
    with pytest.raises(AscsimError, match=r"^SetLoadDataRepeat: repeatStride must be an integer"):
        Core("a2").set_load_data_repeat(p)


def test_v2pro_word_given_as_a_small_numpy_integer_decodes_as_an_int():
    """extConfig = np.uint8(1): the getters masked a uint8 with 0xFFFF (OverflowError)."""
    p = LoadData3DParamsV2Pro(16, extConfig=np.uint8(1))
    assert (p.kExtension, p.mExtension) == (1, 0)
    p.filterConfig = None
    with pytest.raises(ParamRangeError, match=r"^LoadData3DParamsV2Pro: filterConfig must fit in 64 bits"):
        p.strideW  # noqa: B018 - the getter checks the word


def test_values_beyond_any_float_are_range_errors():
    with pytest.raises(ParamRangeError, match=r"^to_raw: half values must fit a float64"):
        Core("a2").global_tensor("half", [2**1030])


def test_ml_dtypes_scalar_as_tensor_data_is_a_number():
    t = Core("a2").tensor("A1", "half", 1, data=ml_dtypes.bfloat16(2.0))
    assert float(t.read()[0]) == 2.0


@pytest.mark.parametrize(("buffer", "size"), [(range(2), 4), (0, "x"), (0, {"a": 1}), (1.5, 4)], ids=repr)
def test_set_global_buffer_address_and_size_must_be_integers(buffer, size):
    core = Core("a2")
    with pytest.raises(
        ParamRangeError,
        match=r"^GlobalTensor.SetGlobalBuffer: (buffer|bufferSize) must be an "
        r"integer, but got",
    ):
        A.GlobalTensor("half", core=core).SetGlobalBuffer(buffer, size)
    with pytest.raises(
        ParamRangeError,
        match=r"^GlobalTensor.SetGlobalBuffer: buffer must be a GM address or "
        r"GM tensor, but got an unbound GlobalTensor",
    ):
        A.GlobalTensor("half", core=core).SetGlobalBuffer(A.GlobalTensor("half"))


def test_load3d_v1_destination_extent_is_checked_before_the_plan():
    """repeatTime 255 x jumpStride 127 reaches fractal 254*127: refused from the arithmetic extent, before
    the element plan is built (issue 9 extent-first; the lower bound used to be one fractal)."""
    from ascsim.engine.cache import PLANS
    from ascsim.isa.load3d import V1Spec
    from ascsim.params import LoadData3DParamsV1

    core = Core("inference_aicore")
    src = core.tensor("A1", "half", 4 * 4 * 16, offset=0)
    dst = core.tensor("A2", "half", 256, offset=0)
    p = LoadData3DParamsV1([0, 0, 0, 0], 4, 4, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 127, 0, 255, 0, 0.0)
    last = (254 * 127 + 1) * 512
    with pytest.raises(BoundsError, match=rf"^Load3Dv1: destination: bytes \[0, {last}\) lie outside L0A"):
        core.load_data(dst, src, p)
    assert not any(
        isinstance(k, tuple) and k[:1] == ("v1",) and isinstance(k[1], V1Spec) and k[1].repeatTime == 255
        for k in PLANS._d
    )


def test_get_dtype_shows_a_huge_int_without_crashing():
    with pytest.raises(UnsupportedError, match=r"but got <an integer of 20001 bits>$"):
        get_dtype(HUGE)


@pytest.mark.parametrize(
    "call",
    [
        lambda c: c.tensor("A1", "half", HUGE),
        lambda c: c.tensor("A1", "half", 4, offset=HUGE),
        lambda c: c.tensor("A1", "half", 4)[HUGE],
        lambda c: c.tensor("A1", "half", 4).read(HUGE),
        lambda c: c.set_fmatrix(4, 4, [0, 0, 0, 0], HUGE),
        lambda c: A.GlobalTensor("half", core=c).SetGlobalBuffer(HUGE),
        lambda c: A.GlobalTensor("half", core=c).SetGlobalBuffer(0, HUGE),
        lambda c: P_Arch3510[HUGE],
    ],
    ids=["length", "offset", "index", "read", "FmatrixMode", "buffer", "bufferSize", "CO2Layout"],
)
def test_huge_int_anywhere_gets_an_ascsim_error(call):
    """Messages formatted a 20000-bit int with str() / repr(), which raises ValueError (Python's digit
    limit) instead of the refusal."""
    with pytest.raises(AscsimError, match=r"an integer of \d+ bits"):
        call(Core("a2"))


def test_huge_ints_in_fixpipe_and_chip_messages_are_shown_not_crashing() -> None:
    """A 20,000-bit int where unitFlag goes (DataCopy from L0C, Fixpipe) or as a chip name gives an
    AscsimError whose message shows the int's size, not ValueError from int->str (fuzz finding)."""
    from ascsim import AscsimError, Core
    from ascsim.params import DataCopyCO12DstParams, FixpipeParamsV220

    core = Core("a3")
    src = core.tensor("CO1", "float", 256)
    dst = core.global_tensor("half", 256)
    huge = 1 << 20000
    with pytest.raises(AscsimError, match="<an integer of 20001 bits>"):
        core.data_copy(dst, src, DataCopyCO12DstParams(16, 16, 16, 16, unitFlag=huge))
    with pytest.raises(AscsimError, match="<an integer of 20001 bits>"):
        core.fixpipe(dst, src, FixpipeParamsV220(16, 16, 16, 16, unitFlag=huge))
    with pytest.raises(AscsimError, match="^chip: the chip is given by name, but got int"):
        Core(huge)
    assert Core(950).chip.key == "ascend950"
