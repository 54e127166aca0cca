"""Issue 7's message convention: every refusal says whether the C++ API / hardware rejects the call or only a
doc page forbids it, and names the divergence row in the second case.

The error tables of isa/test_load3d_errors.py, test_load2d.py, test_transpose.py, test_sparse.py and
test_mx.py (and base/test_coercion.py) check each of their refusals with `support.basis.assert_basis`; this
file checks the mechanism itself (`ascsim.base.errors.cpp_rejects` / `hw_cannot` / `doc_forbids`), the chip
tables' classification against the audited asc-devkit facts (chips.ApiSupport.cpp, chips.CPP_ABSENT) and that
every row a message cites exists.
"""

from __future__ import annotations

import re

import pytest
from support.paths import ROOT

from ascsim import Core, UnsupportedError
from ascsim.base.errors import BASIS_PATTERN, cpp_rejects, doc_forbids, hw_cannot, with_basis
from ascsim.machine.chips import get_chip


@pytest.mark.parametrize("basis", [
    cpp_rejects("CheckLoadData3dv2MatrixParams"),
    cpp_rejects("ASCENDC_DEBUG_ASSERT in LoadDataImpl [LoadData3DParamsV2, 2201]"),
    hw_cannot(),
    hw_cannot("6-bit field"),
    doc_forbids("LoadData_3D.md 表4", "L3"),
])
def test_the_three_forms_match(basis: str) -> None:
    assert re.search(BASIS_PATTERN, with_basis("X: y must be in [0, 1], but got 2", basis))


@pytest.mark.parametrize("msg", [
    "X: y must be in [0, 1], but got 2",
    "X: y must be 0 (doc: LoadData_3D.md 表4)",
    "X: y (the doc page forbids this: LoadData_3D.md 表4)",  # no row
])
def test_a_message_without_basis_does_not_match(msg: str) -> None:
    assert not re.search(BASIS_PATTERN, msg)


@pytest.mark.parametrize("chip,args,basis", [
    # dav_3510 static_assert takes int16_t for Load3D v2 although the doc lists no b16 integers
    ("950", ("Load3Dv2", "int16_t", "L1", "L0A"), r"\(the doc page forbids this: .*divergence L26\)$"),
    # ... and no int4b_t: the C++ API rejects it too
    ("950", ("Load3Dv2", "int4b_t", "L1", "L0A"),
     r"\(the C\+\+ API rejects this: static_assert in dav_3510"),
    ("950", ("LoadDataWithTranspose", "half", "L1", "L0A"),
     r"\(the C\+\+ API rejects this: .*L1->L0A\)$"),
    ("a2", ("Load3Dv2", "int8_t", "L1", "L0B"),
     r"\(the C\+\+ API rejects this: ASCENDC_DEBUG_ASSERT"),
    ("a2", ("LoadDataWithTranspose", "int4b_t", "L1", "L0A"),
     r"\(the C\+\+ API rejects this: CheckLoadDataWithTransposeDtype \[2201\]\)$"),
    ("a2", ("Load3DBitMode",),
     r"\(the C\+\+ API rejects this: no overload outside __NPU_ARCH__ 3510/5102\)$"),
    ("a3", ("LoadData2Dv2",), r"\(the C\+\+ API rejects this: ReportNotSupport in dav_c220"),
    ("950", ("LoadDataWithSparse",),
     r"\(the C\+\+ API rejects this: no overload outside __NPU_ARCH__ 2201\)$"),
    ("inference_aicore", ("LoadDataWithTranspose",),
     r"\(the C\+\+ API rejects this: ASCENDC_REPORT_NOT_SUPPORT"),
    # SetFmatrix(FMATRIX_LEFT) exists in dav_c100, the doc says training 不支持: a doc-only refusal
    ("training", ("SetFmatrix",),
     r"\(the doc page forbids this: SetFmatrix page 产品支持情况; ascsim reading: divergence L26\)$"),
    ("kirin_x90", ("LoadDataWithTranspose", "float", "L1", "L0B"), r"divergence L26\)$"),  # not audited
])
def test_chip_table_refusals_say_who_refuses(chip: str, args: tuple, basis: str) -> None:
    with pytest.raises(UnsupportedError) as ei:
        get_chip(chip).check(*args)
    assert re.search(basis, str(ei.value)), str(ei.value)
    assert re.search(BASIS_PATTERN, str(ei.value))


@pytest.mark.parametrize("chip,api,combo,basis", [
    ("a2", "Mmad", ("half", "half", "half"),
     r"\(the C\+\+ API rejects this: ASCENDC_DEBUG_ASSERT in dav_c220"),
    ("950", "Mmad", ("int4b_t", "int4b_t", "int32_t"), r"divergence L26\)$"),  # 950 Mmad not audited
])
def test_combo_refusals_say_who_refuses(chip: str, api: str, combo: tuple, basis: str) -> None:
    with pytest.raises(UnsupportedError) as ei:
        get_chip(chip).check_combo(api, combo)
    assert re.search(basis, str(ei.value)), str(ei.value)


def test_doc_conflict_dtypes_are_supported_and_reported() -> None:
    chip = get_chip("950")
    chip.check("LoadDataWithStride", "int8_t", "B1", "B2")  # executed
    assert chip.doc_conflict("LoadDataWithStride", "int8_t", "B1", "B2")[1] == "L23"
    assert chip.doc_conflict("LoadDataWithStride", "half", "B1", "B2") is None
    assert chip.doc_conflict("LoadDataWithStride", "int8_t", "A1", "A2") is None  # the doc allows it


@pytest.mark.parametrize(("call", "pat"), [
    pytest.param(lambda core: core.set_fmatrix(0, 4, [0, 0, 0, 0]), r"ASCENDC_CHECK_VALUE_RANGE",
                 id="SetFmatrix-l1H=0"),
    pytest.param(lambda core: core.set_fmatrix(4, 4, [0, 0, 0]), r"padList is uint8_t\[4\]",
                 id="SetFmatrix-padList-of-3"),
    pytest.param(lambda core: core.set_load_data_boundary(512), r"divergence L18",
                 id="SetLoadDataBoundary-512"),
    pytest.param(lambda core: core.set_padding_value(300, "int8_t"),
                 r"the hardware cannot do this: the PADDING register", id="SetLoadDataPaddingValue-300-int8"),
])
def test_register_setter_refusals_carry_a_basis(call, pat: str) -> None:
    core = Core("a2")
    with pytest.raises(Exception) as ei:
        call(core)
    assert re.search(pat, str(ei.value)) and re.search(BASIS_PATTERN, str(ei.value)), str(ei.value)


def test_every_cited_row_exists() -> None:
    """Each "divergence Xn" / divergences.md Xn / row "Xn" the sources cite is a row of divergences.md."""
    rows = set(re.findall(r"^\| ([A-Z]+\d+) \|", (ROOT / "docs" / "divergences.md").read_text("utf-8"), re.M))
    cited = set()
    for path in (ROOT / "src" / "ascsim").rglob("*.py"):
        text = path.read_text("utf-8")
        cited |= set(re.findall(r"divergences?(?:\.md)? ([A-Z]\d+)\b", text))
        call = r"(?:doc_forbids|conflict_row=|doc_conflict)\(?[^)\n]*?[\"']([A-Z]\d+)[\"']\)"
        cited |= set(re.findall(call, text))
    assert cited and not cited - rows, sorted(cited - rows)
