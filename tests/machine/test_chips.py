"""Tests for ascsim.machine.chips: aliases, formats, memory sizes and the doc-typed support table."""

from __future__ import annotations

import pytest

from ascsim.base.errors import UnsupportedError
from ascsim.machine.chips import (
    ALL_CHIPS,
    API_KEYS,
    DIVERGENCE_NOTES,
    ApiSupport,
    ChipProfile,
    format_chips_table,
    get_chip,
    memory_name,
    support_matrix,
)

KB = 1024

# ------------------------------------------------------------------------------------------------ aliases

EXPECTED_KEYS = {
    "ascend950",
    "a3",
    "a2",
    "atlas200i500a2",
    "inference_aicore",
    "inference_vectorcore",
    "training",
    "kirin_x90",
    "kirin_9030",
}


def test_all_chips_present() -> None:
    assert {c.key for c in ALL_CHIPS} == EXPECTED_KEYS
    assert len(ALL_CHIPS) == len(EXPECTED_KEYS)


@pytest.mark.parametrize(
    ("alias", "chip", "variants"),
    [
        (a, c.key, v)
        for c in ALL_CHIPS
        for a in (c.key, c.name, *c.aliases)
        for v in ("same", "upper", "spaced")
    ],
)
def test_every_alias_resolves(alias: str, chip: str, variants: str) -> None:
    text = {"same": alias, "upper": alias.upper(), "spaced": f" {alias.replace('_', '-')} "}[variants]
    assert get_chip(text).key == chip


@pytest.mark.parametrize(
    ("alias", "chip"),
    [
        ("950", "ascend950"),
        ("Atlas 350", "ascend950"),
        ("ascend-950PR", "ascend950"),
        ("950dt", "ascend950"),
        ("DAV_3510", "ascend950"),
        ("3510", "ascend950"),
        ("A2", "a2"),
        ("910B", "a2"),
        ("atlas-a2", "a2"),
        ("dav_c220", "a2"),
        ("A3", "a3"),
        ("310B", "atlas200i500a2"),
        ("310P", "inference_aicore"),
        ("910", "training"),
        ("X90", "kirin_x90"),
        ("Kirin X90", "kirin_x90"),
        ("9030", "kirin_9030"),
    ],
)
def test_brief_aliases(alias: str, chip: str) -> None:
    assert get_chip(alias).key == chip


def test_get_chip_passthrough_and_unknown() -> None:
    a2 = get_chip("a2")
    assert get_chip(a2) is a2
    with pytest.raises(UnsupportedError) as ei:
        get_chip("ascend9999")
    msg = str(ei.value)
    assert "ascend9999" in msg and "ascend950" in msg and "kirin_9030" in msg


# ------------------------------------------------------------------------------------------------ profiles


def test_formats() -> None:
    # doc: LoadData_3D.md dst_layout (A2/A3 ZZ, 950 NZ; L0B ZN); docs/layouts.md "Memories"
    assert get_chip("a2").l0a_format == "ZZ"
    assert get_chip("a3").l0a_format == "ZZ"
    assert get_chip("950").l0a_format == "NZ"
    for c in ALL_CHIPS:
        if c.has_cube:
            assert c.l0b_format == "ZN" and c.l0c_format == "NZ"


@pytest.mark.parametrize("chip", ["a2", "a3"])
def test_memory_sizes_a2a3(chip: str) -> None:
    # docs/layouts.md "Memories" table
    m = get_chip(chip).memory_sizes
    assert m["L1"] == 512 * KB and m["L0A"] == 64 * KB and m["L0B"] == 64 * KB
    assert m["L0C"] == 128 * KB and m["BT"] == 1 * KB and m["FB"] == 2 * KB
    assert m["SPARSE_IDX"] == m["L0B"] // 4 == 16 * KB
    assert "L0A_MX" not in m and "L0B_MX" not in m


def test_memory_sizes_950() -> None:
    # docs/layouts.md "Memories" table
    m = get_chip("950").memory_sizes
    assert m["L1"] == 512 * KB and m["L0A"] == 64 * KB and m["L0B"] == 64 * KB
    assert m["L0C"] == 256 * KB and m["BT"] == 4 * KB and m["FB"] == 4 * KB
    assert m["L0A_MX"] == 4 * KB and m["L0B_MX"] == 4 * KB
    assert "SPARSE_IDX" not in m


def test_mx_and_sparse_buffers_only_where_documented() -> None:
    for c in ALL_CHIPS:
        assert ("L0A_MX" in c.memory_sizes) == (c.key == "ascend950")
        assert ("SPARSE_IDX" in c.memory_sizes) == (c.key in {"a2", "a3"})


def test_vector_core_has_no_cube() -> None:
    vc = get_chip("inference_vectorcore")
    assert not vc.has_cube and not vc.memory_sizes and not vc.apis
    for api in API_KEYS:
        assert not vc.supports(api)


def test_arch() -> None:
    assert get_chip("950").arch == "3510"
    assert get_chip("a2").arch == "2201" and get_chip("a3").arch == "2201"
    assert get_chip("310b").arch == "3002"
    assert get_chip("310p").arch == "2002"
    assert get_chip("910").arch == "1001"


def test_api_keys_valid_and_types() -> None:
    for c in ALL_CHIPS:
        assert isinstance(c, ChipProfile)
        for api, sup in c.apis.items():
            assert api in API_KEYS
            assert isinstance(sup, ApiSupport)
            assert sup.notes.startswith("doc:"), (c.key, api)
            for (src, dst), ds in sup.paths.items():
                assert memory_name(src) == src and memory_name(dst) == dst
                assert ds, (c.key, api, src, dst)
            for p, ds in sup.transpose.items():
                assert p in sup.paths and ds <= sup.paths[p], (c.key, api, p)


def test_mmad_types() -> None:
    # doc: Mmad.md 表5 (950) / 表7 (A2/A3/310B) / 表9 (310P AI Core) / 表10 (training)
    assert ("int4b_t", "int4b_t", "int32_t") in get_chip("a2").mmad_types
    assert ("int4b_t", "int4b_t", "int32_t") not in get_chip("950").mmad_types
    assert ("fp8_e4m3fn_t", "fp8_e5m2_t", "float") in get_chip("950").mmad_types
    assert ("hifloat8_t", "hifloat8_t", "float") in get_chip("950").mmad_types
    assert ("hifloat8_t", "fp8_e4m3fn_t", "float") not in get_chip("950").mmad_types
    assert ("half", "half", "half") in get_chip("310p").mmad_types
    assert ("half", "half", "half") not in get_chip("a2").mmad_types
    assert ("uint8_t", "uint8_t", "uint32_t") in get_chip("910").mmad_types
    assert len(get_chip("950").mmad_types) == 9 and len(get_chip("a2").mmad_types) == 5
    assert get_chip("inference_vectorcore").mmad_types == frozenset()


def test_combos_mmadmx_and_fixpipe() -> None:
    c950 = get_chip("950")
    # doc: MmadMx.md 表3 (fp4 x fp4 or fp8 x fp8 only)
    assert c950.supports_combo("MmadMx", ("fp4x2_e2m1_t", "fp4x2_e1m2_t", "float"))
    assert not c950.supports_combo("MmadMx", ("fp4x2_e2m1_t", "fp8_e5m2_t", "float"))
    # doc: Fixpipe（L0C到GM数据搬运）.md 数据类型: hif8 output only on 950
    assert c950.supports_combo("Fixpipe", ("float", "hifloat8_t"))
    assert not get_chip("a2").supports_combo("Fixpipe", ("float", "hifloat8_t"))
    with pytest.raises(UnsupportedError) as ei:
        get_chip("a2").check_combo("Mmad", ("half", "half", "half"), instr="Mmad")
    msg = str(ei.value)
    assert "Mmad" in msg and "Atlas A2" in msg and "(half, half, float)" in msg


# ------------------------------------------------------------------------------------------------ the table

# Doc paths below are relative to reference/ascendc-docs/矩阵计算（ISASI）/.

# (chip, api, dtype, src, dst, expected)
SUPPORT_ROWS: list[tuple[str, str, str | None, str | None, str | None, bool]] = [
    # LoadData_3D_BitMode.md 产品支持情况 / s000: 950 only
    ("950", "Load3DBitMode", "half", "A1", "A2", True),
    ("a2", "Load3DBitMode", None, None, None, False),
    ("a3", "Load3DBitMode", None, None, None, False),
    ("x90", "Load3DBitMode", None, None, None, False),
    # LoadData_3D.md 产品支持情况 (v1): only training and inference AI Core
    ("a2", "Load3Dv1", None, None, None, False),
    ("950", "Load3Dv1", None, None, None, False),
    ("910", "Load3Dv1", "int8_t", "L1", "L0A", True),
    ("310p", "Load3Dv1", "uint8_t", "L1", "L0A", True),
    # LoadData_3D.md 数据类型 id20/id21: v1 int8/uint8/half only
    ("910", "Load3Dv1", "bfloat16_t", None, None, False),
    ("310p", "Load3Dv1", "int4b_t", None, None, False),
    # LoadData_3D.md 产品支持情况 (v2): training no, Kirin X90 yes, Kirin 9030 no, Vector Core no
    ("910", "Load3Dv2", None, None, None, False),
    ("x90", "Load3Dv2", "int8_t", "B1", "B2", True),
    ("9030", "Load3Dv2", None, None, None, False),
    ("inference_vectorcore", "Load3Dv2", None, None, None, False),
    # LoadData_3D.md 数据类型 id25 + 约束说明 id30: A2 L0B only b16/b32
    ("a2", "Load3Dv2", "int8_t", "L1", "L0B", False),
    ("a2", "Load3Dv2", "int4b_t", "L1", "L0B", False),
    ("a2", "Load3Dv2", "half", "L1", "L0B", True),
    ("a2", "Load3Dv2", "float", "B1", "B2", True),
    ("a2", "Load3Dv2", "int4b_t", "A1", "A2", True),
    ("a3", "Load3Dv2", "uint8_t", "L1", "L0A", True),
    ("a3", "Load3Dv2", "uint8_t", "L1", "L0B", False),
    # LoadData_3D.md 数据类型 id23: 950 both paths with b8/fp8/hif8, no int4
    ("950", "Load3Dv2", "int8_t", "L1", "L0B", True),
    ("950", "Load3Dv2", "hifloat8_t", "L1", "L0B", True),
    ("950", "Load3Dv2", "fp8_e4m3fn_t", "L1", "L0A", True),
    ("950", "Load3Dv2", "int4b_t", "L1", "L0A", False),
    ("a2", "Load3Dv2", "hifloat8_t", "L1", "L0A", False),
    # LoadData_3D.md 数据类型 id27: inference AI Core int4/int8/uint8/half
    ("310p", "Load3Dv2", "int4b_t", "L1", "L0A", True),
    ("310p", "Load3Dv2", "float", "L1", "L0A", False),
    # LoadData_3D.md 功能说明: only L1->L0A / L1->L0B
    ("a2", "Load3Dv2", "half", "GM", "L0A", False),
    # LoadDataWithStride.md 产品支持情况 + 数据类型: 950 only; B path b16/b32, plus b8 executed as a doc
    # conflict (LoadData_3D.md / IN-CON 表4 and the C++ static_assert take it; divergence L23)
    ("950", "LoadDataWithStride", "int8_t", "A1", "A2", True),
    ("950", "LoadDataWithStride", "int8_t", "B1", "B2", True),
    ("950", "LoadDataWithStride", "int16_t", "B1", "B2", False),
    ("950", "LoadDataWithStride", "float", "B1", "B2", True),
    ("a2", "LoadDataWithStride", None, None, None, False),
    # LoadData_2D.md 功能说明 id10: 950 has no GM->L0A/L0B; A2 does
    ("950", "LoadData2D", "half", "GM", "L0A", False),
    ("a2", "LoadData2D", "half", "GM", "L0A", True),
    ("950", "LoadData2D", "half", "L1", "L0B", True),
    # LoadData_2D.md 数据类型 id13/14: int4b_t only on L1->L0A/L0B
    ("a2", "LoadData2D", "int4b_t", "L1", "L0A", True),
    ("a2", "LoadData2D", "int4b_t", "GM", "L0A", False),
    ("950", "LoadData2D", "int4b_t", None, None, False),
    # LoadData_2D.md 数据类型 id16/id19: training no bf16, Kirin 9030 half only
    ("910", "LoadData2D", "bfloat16_t", None, None, False),
    ("910", "LoadData2D", "uint16_t", "L1", "L0A", True),
    ("9030", "LoadData2D", "half", "L1", "L0A", True),
    ("9030", "LoadData2D", "int8_t", "L1", "L0A", False),
    # LoadData（GMToL1-2D矩阵搬运）.md: GM->L1 on 950 and A2
    ("950", "LoadData2D", "float", "GM", "A1", True),
    ("a2", "LoadData2D", "int16_t", "GM", "B1", True),
    # LoadData_2D_V2.md / LoadData_2D_BitMode.md: 950 only, fp4 allowed
    ("950", "LoadData2Dv2", "fp4x2_e2m1_t", "L1", "L0A", True),
    ("a2", "LoadData2Dv2", None, None, None, False),
    ("950", "Load2DBitMode", "hifloat8_t", "L1", "L0B", True),
    ("950", "Load2DBitMode", "int16_t", "L1", "L0B", False),
    ("a3", "Load2DBitMode", None, None, None, False),
    # LoadDataWithTranspose.md 功能说明 id10 + 数据类型: 950 L0B only; A2 int4b_t L0B only
    ("950", "LoadDataWithTranspose", "half", "L1", "L0A", False),
    ("950", "LoadDataWithTranspose", "half", "L1", "L0B", True),
    ("950", "LoadDataWithTranspose", "int4b_t", "L1", "L0B", False),
    ("a2", "LoadDataWithTranspose", "int4b_t", "L1", "L0A", False),
    ("a2", "LoadDataWithTranspose", "int4b_t", "L1", "L0B", True),
    ("a2", "LoadDataWithTranspose", "int8_t", "L1", "L0A", True),
    ("310b", "LoadDataWithTranspose", "int4b_t", "L1", "L0B", True),
    ("310p", "LoadDataWithTranspose", None, None, None, False),
    ("x90", "LoadDataWithTranspose", "half", "L1", "L0A", True),
    ("9030", "LoadDataWithTranspose", None, None, None, False),
    # LoadDataWithTranspose.md 表4: V2 params 950 only
    ("950", "LoadDataWithTransposeV2", "float", "L1", "L0B", True),
    ("a2", "LoadDataWithTransposeV2", None, None, None, False),
    # LoadDataWithSparse.md / s004: A2/A3 only, int8 L1->L0B
    ("a2", "LoadDataWithSparse", "int8_t", "B1", "B2", True),
    ("a3", "LoadDataWithSparse", "uint8_t", "L1", "SPARSE_IDX", True),
    ("a2", "LoadDataWithSparse", "int8_t", "L1", "L0A", False),
    ("a2", "LoadDataWithSparse", "half", "L1", "L0B", False),
    ("950", "LoadDataWithSparse", None, None, None, False),
    ("310b", "LoadDataWithSparse", None, None, None, False),
    # LoadData_2D_MX.md: 950 only; data fp4/fp8, scales fp8_e8m0 to L0A_MX/L0B_MX
    ("950", "Load2DMX", "fp8_e5m2_t", "L1", "L0A", True),
    ("950", "Load2DMX", "fp8_e8m0_t", "L1", "L0B_MX", True),
    ("950", "Load2DMX", "half", "L1", "L0A", False),
    ("950", "Load2DMX", "fp8_e4m3fn_t", "GM", "L0A", False),
    ("a2", "Load2DMX", None, None, None, False),
    # Mmad.md 表5-表12
    ("950", "Mmad", "hifloat8_t", "L0A", "L0C", True),
    ("a2", "Mmad", "int4b_t", "A2", "CO1", True),
    ("950", "Mmad", "int4b_t", "A2", "CO1", False),
    ("310p", "Mmad", "uint8_t", "L0A", "L0C", True),
    ("310p", "Mmad", "float", "BT", "L0C", False),  # 传入bias的原型: inference AI Core 不支持
    ("x90", "Mmad", "half", "C2", "CO1", True),  # 表11 bias half
    ("inference_vectorcore", "Mmad", None, None, None, False),
    # MmadWithSparse.md / MmadMx.md 产品支持情况
    ("a3", "MmadWithSparse", "int8_t", "L0A", "L0C", True),
    ("950", "MmadWithSparse", None, None, None, False),
    ("310b", "MmadWithSparse", None, None, None, False),
    ("950", "MmadMx", "fp4x2_e1m2_t", "L0B", "L0C", True),
    ("950", "MmadMx", "fp8_e8m0_t", "L0A_MX", "L0C", True),
    ("a2", "MmadMx", None, None, None, False),
    # 矩阵搬入辅助配置接口 产品支持情况
    ("910", "SetFmatrix", None, None, None, False),
    ("9030", "SetFmatrix", None, None, None, True),
    ("950", "SetFmatrixBitMode", None, None, None, True),
    ("a2", "SetFmatrixBitMode", None, None, None, False),
    ("310p", "SetLoadDataRepeat", None, None, None, False),
    ("310b", "SetLoadDataRepeat", None, None, None, True),
    ("950", "SetLoadDataRepeatWithStride", None, None, None, True),
    ("a3", "SetLoadDataRepeatWithStride", None, None, None, False),
    ("950", "SetLoadDataBoundary", None, None, None, False),
    ("a2", "SetLoadDataBoundary", None, None, None, True),
    ("310p", "SetLoadDataBoundary", None, None, None, True),
    ("310b", "SetLoadDataBoundary", None, None, None, False),
    # SetLoadDataPaddingValue.md 数据类型
    ("950", "SetLoadDataPaddingValue", "bfloat16_t", None, None, True),
    ("310p", "SetLoadDataPaddingValue", "float", None, None, False),
    ("x90", "SetLoadDataPaddingValue", "int8_t", None, None, True),
    ("9030", "SetLoadDataPaddingValue", "int8_t", None, None, False),
    # DataCopy（GMToL1随路转换-ND2NZ搬运）.md / DN2NZ
    ("a2", "DataCopyND2NZ", "int4b_t", "GM", "A1", True),
    ("310p", "DataCopyND2NZ", "int8_t", "GM", "L1", False),
    ("310b", "DataCopyND2NZ", None, None, None, False),
    ("910", "DataCopyND2NZ", None, None, None, False),
    ("950", "DataCopyND2NZ", "fp8_e8m0_t", "GM", "L1", True),
    ("950", "DataCopyDN2NZ", "fp4x2_e2m1_t", "GM", "B1", True),
    ("950", "DataCopyDN2NZ", "hifloat8_t", "GM", "B1", False),
    ("a2", "DataCopyDN2NZ", None, None, None, False),
    # Fixpipe（L0C到GM数据搬运）.md 产品支持情况
    ("a2", "Fixpipe", "float", "CO1", "GM", True),
    ("310b", "Fixpipe", "int32_t", "L0C", "GM", True),
    ("310p", "Fixpipe", None, None, None, False),
    ("910", "Fixpipe", None, None, None, False),
    ("9030", "Fixpipe", "float", "L0C", "GM", True),
]


@pytest.mark.parametrize(("chip", "api", "dtype", "src", "dst", "expected"), SUPPORT_ROWS)
def test_support_table(
    chip: str, api: str, dtype: str | None, src: str | None, dst: str | None, expected: bool
) -> None:
    c = get_chip(chip)
    assert c.supports(api, dtype, src, dst) is expected
    if expected:
        c.check(api, dtype, src, dst)
    else:
        with pytest.raises(UnsupportedError):
            c.check(api, dtype, src, dst)


def test_support_table_size() -> None:
    assert len(SUPPORT_ROWS) >= 40


# (chip, api, dtype, dst, expected) — doc: LoadData_3D.md entranspose_constraint id38/id39;
# LoadData_2D.md 约束说明 (b16 only); LoadData_2D_V2.md ifTranspose (b4/b8/b16/b32)
TRANSPOSE_ROWS: list[tuple[str, str, str, str, bool]] = [
    ("a2", "Load3Dv2", "half", "L0A", True),
    ("a2", "Load3Dv2", "float", "A2", True),
    ("a2", "Load3Dv2", "int8_t", "L0A", False),
    ("a3", "Load3Dv2", "bfloat16_t", "L0A", True),
    ("a2", "Load3Dv2", "half", "L0B", False),  # enTranspose is ignored for L0B
    ("950", "Load3Dv2", "int8_t", "L0A", True),
    ("950", "Load3Dv2", "fp8_e5m2_t", "L0A", True),
    ("950", "Load3Dv2", "float", "L0A", True),
    ("950", "LoadDataWithStride", "uint8_t", "L0A", True),
    ("a2", "LoadData2D", "half", "L0B", True),
    ("a2", "LoadData2D", "int16_t", "L0A", True),
    ("a2", "LoadData2D", "float", "L0A", False),
    ("a2", "LoadData2D", "int8_t", "L0B", False),
    ("950", "LoadData2Dv2", "float", "L0A", True),
    ("950", "LoadData2Dv2", "fp4x2_e1m2_t", "L0B", True),
    ("950", "LoadDataWithTranspose", "int8_t", "L0B", True),
    ("950", "LoadDataWithTranspose", "int8_t", "L0A", False),
    ("910", "Load3Dv1", "half", "L0A", False),
]


@pytest.mark.parametrize(("chip", "api", "dtype", "dst", "expected"), TRANSPOSE_ROWS)
def test_can_transpose(chip: str, api: str, dtype: str, dst: str, expected: bool) -> None:
    assert get_chip(chip).can_transpose(api, dtype, dst) is expected


def test_check_transpose_message() -> None:
    with pytest.raises(UnsupportedError) as ei:
        get_chip("a2").check_transpose("Load3Dv2", "int8_t", "A2", instr="LoadData3DV2")
    msg = str(ei.value)
    assert msg.startswith("LoadData3DV2:")
    assert "int8_t" in msg and "L0A" in msg and "Atlas A2" in msg and "half, bfloat16_t" in msg


# ------------------------------------------------------------------------------------------------ messages


def test_check_dtype_message_names_everything() -> None:
    with pytest.raises(UnsupportedError) as ei:
        get_chip("a2").check("Load3Dv2", "int8_t", "B1", "B2", instr="LoadData")
    msg = str(ei.value)
    assert msg.startswith("LoadData:")
    assert "Load3Dv2" in msg and "int8_t" in msg and "L1->L0B" in msg
    assert "Atlas A2 training/inference series" in msg
    assert "supported: half, bfloat16_t, int32_t, uint32_t, float" in msg


def test_check_api_message_lists_chips() -> None:
    with pytest.raises(UnsupportedError) as ei:
        get_chip("950").check("LoadDataWithSparse", "int8_t")
    msg = str(ei.value)
    assert msg.startswith("LoadDataWithSparse:")
    assert "Atlas 350 / Ascend 950PR/950DT" in msg and "supported:" in msg
    assert "Atlas A2" in msg and "Atlas A3" in msg


def test_check_path_message_lists_paths() -> None:
    with pytest.raises(UnsupportedError) as ei:
        get_chip("950").check("LoadData2D", "half", "GM", "A2")
    msg = str(ei.value)
    assert "GM->L0A" in msg and "LoadData2D" in msg and "Ascend 950" in msg
    assert "L1->L0A" in msg and "L1->L0B" in msg and "GM->L1" in msg


def test_check_unknown_api_and_memory() -> None:
    with pytest.raises(UnsupportedError, match="unknown API"):
        get_chip("a2").check("LoadDataFoo")
    with pytest.raises(UnsupportedError, match="not a known memory"):
        get_chip("a2").supports("Load3Dv2", "half", "UB2", "L0A")
    assert get_chip("a2").supports("NoSuchApi") is False


def test_register_api_message() -> None:
    with pytest.raises(UnsupportedError) as ei:
        get_chip("9030").check("SetLoadDataPaddingValue", "float")
    msg = str(ei.value)
    assert "float" in msg and "Kirin 9030" in msg and "supported: half" in msg


def test_memory_of() -> None:
    assert memory_name("A1") == memory_name("b1") == memory_name("C1") == "L1"
    assert memory_name("A2") == "L0A" and memory_name("B2") == "L0B" and memory_name("CO1") == "L0C"
    assert memory_name("C2") == "BT" and memory_name("C2PIPE2GM") == "FB"
    assert memory_name("CO2") == "GM" and memory_name("GM") == "GM" and memory_name("L0A_MX") == "L0A_MX"


def test_dtypes_for() -> None:
    a2 = get_chip("a2")
    assert a2.dtypes_for("Load3Dv2", dst="L0B") == {"half", "bfloat16_t", "int32_t", "uint32_t", "float"}
    assert "int4b_t" in a2.dtypes_for("Load3Dv2")
    assert a2.dtypes_for("Load2DMX") == frozenset()


# ------------------------------------------------------------------------------------------------ reports


def test_support_matrix_rows() -> None:
    rows = support_matrix()
    assert rows
    keys = {"chip", "api", "path", "dtypes"}
    assert all(keys <= set(r) for r in rows)
    row = next(r for r in rows if r["chip"] == "a2" and r["api"] == "Load3Dv2" and r["path"] == "L1->L0B")
    assert row["dtypes"] == ["half", "bfloat16_t", "int32_t", "uint32_t", "float"]
    assert not any(r["chip"] == "inference_vectorcore" for r in rows)


def test_format_chips_table() -> None:
    text = format_chips_table()
    lines = text.splitlines()
    assert max(len(line) for line in lines) <= 120
    for api in API_KEYS:
        assert any(line.startswith(api + " ") for line in lines)
    for c in ALL_CHIPS:
        assert c.name in text
    grid = next(line for line in lines if line.startswith("Load3DBitMode "))
    assert grid.split()[1:] == ["Y"] + ["-"] * 8


def test_divergence_notes() -> None:
    assert isinstance(DIVERGENCE_NOTES, list) and len(DIVERGENCE_NOTES) >= 5
    assert all(isinstance(n, str) and n.endswith(".") for n in DIVERGENCE_NOTES)
    assert any("seed 001" in n for n in DIVERGENCE_NOTES)
    assert any("seed 002" in n for n in DIVERGENCE_NOTES)
    assert any("seed 003" in n for n in DIVERGENCE_NOTES)
