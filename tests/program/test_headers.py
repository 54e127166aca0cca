"""ascsim's C++ headers against the engine's tables: one source of truth.

- `ascsim/generated.h` has one C++ function per operation of the instruction table, with the operation's
  arguments in the table's order (it is generated; this checks the generator);
- the hand-written headers forward only to operations that exist, every operation is reachable from some
  C++ API name, and every instruction of the table is declared under its C++ name in namespace AscendC;
- the params structs as the compiler sees them (their reflected names and member lists, per chip) are the
  ones the engine converts (ascsim.program.values.STRUCTS) and, after its renames and C++-only members, the
  fields of the engine's dataclasses in the same order — checked by compiling a program that prints them."""

from __future__ import annotations

import inspect
import re
from pathlib import Path

import pytest

from ascsim.isa import table
from ascsim.program import headers, load_program
from ascsim.program.values import STRUCTS, dataclass_fields

INCLUDE = headers.include_dir()
OPS = {op.method: op for op in table.operations()}


def _include_text() -> str:
    return "\n".join(p.read_text() for p in sorted(INCLUDE.rglob("*.h")))


def test_generated_header_has_each_operation_with_its_arguments() -> None:
    text = headers.generated_header()
    found = {}
    head = r"inline void (\w+)\(::ascsim::rt::Site site((?:, const A\d+& \w+(?: = A\d+\{\})?)*)\)"
    for m in re.finditer(head, text):
        found[m.group(1)] = re.findall(r"& (\w+)", m.group(2))
    assert set(found) == set(OPS)
    for method, names in found.items():
        assert names == [a.name for a in OPS[method].args], method


def test_headers_forward_only_to_table_operations_and_reach_every_one() -> None:
    used = set(re.findall(r"::ascsim::op::(\w+)\(", _include_text()))
    assert used <= set(OPS), used - set(OPS)
    assert used == set(OPS), set(OPS) - used


def test_every_table_instruction_is_declared_in_namespace_ascendc() -> None:
    calls = (INCLUDE / "ascsim" / "calls.h").read_text()
    assert calls.count("namespace AscendC {") >= 1
    declared = set(re.findall(r"inline\s+(?:\w+\s+)?void\s+(\w+)\s*\(", calls))
    missing = {ins.name for ins in table.INSTRUCTIONS} - declared
    assert not missing, missing


#: How each reflected struct is spelled in the probe (templates get an instantiation).
SPELLING = {"LoadData3DParamsV1": "AscendC::LoadData3DParamsV1<half>",
            "LoadData3DParamsV2": "AscendC::LoadData3DParamsV2<half>",
            "InitConstValueParams": "AscendC::InitConstValueParams<half>",
            "DataCopyPadExtParams": "AscendC::DataCopyPadExtParams<half>",
            "FixpipeParamsArch3510": "AscendC::FixpipeParamsArch3510<AscendC::CO2Layout::ROW_MAJOR>"}

#: The structs a chip's C++ API does not declare (the 950 forms on 2201, the 2201 forms on 3510).
ABSENT = {"a2": {"LoadData3DParamsV2Pro", "LoadData2DParamsV2", "LoadData2dTransposeParamsV2",
                 "LoadData2DMxParams", "Load3DBitModeParam", "Load2DBitModeParam", "SetFMatrixBitModeParams",
                 "Dn2NzParams", "Nz2DnParams", "FixpipeParamsArch3510", "LoadDataRepeatParamWithStride"},
          "950": {"FixpipeParamsV220"}}


def _probe(names: list[str]) -> str:
    lines = ['#include "kernel_operator.h"', "#include <cstdio>", "template <class S> void show() {",
             '    using R = ascsim::rt::Reflect<S>;',
             '    std::printf("%s|%s\\n", R::name, R::fields);', "}", "int main() {"]
    lines += [f"    show<{SPELLING.get(n, 'AscendC::' + n)}>();" for n in names]
    return "\n".join([*lines, "    return 0;", "}", ""])


@pytest.mark.parametrize("chip", ["a2", "950"])
def test_reflected_structs_are_the_engines(tmp_path: Path, chip: str) -> None:
    names = [n for n in STRUCTS if n not in ABSENT[chip]]
    src = tmp_path / "reflect.cpp"
    src.write_text(_probe(names))
    run = load_program(src, chip).run(cwd=tmp_path, capture=True)
    assert run.returncode == 0, run.stderr
    rows = [line.split("|") for line in run.stdout.splitlines() if "|" in line]
    assert len(rows) == len(names)
    for want, (cpp_name, fields) in zip(names, rows, strict=True):
        assert cpp_name.removeprefix("AscendC::") == want
        members = [f.strip() for f in fields.split(",")]
        spec = STRUCTS[want]
        mapped = [(spec.renames or {}).get(f, f) for f in members if f not in (spec.cpp_only or {})]
        if spec.positional:  # a bit-mode class: the C++ words in order, by position
            assert len(mapped) == len(_fields(spec.cls)), (chip, want)
            continue
        fields = dataclass_fields(spec.cls)
        assert mapped == fields[: len(mapped)], (chip, want, mapped)
        assert set(fields) - set(mapped) <= OPTIONAL_ON.get((want, chip), set()), (chip, want)


def _fields(cls: type) -> list[str]:
    """The positional parameters of a bit-mode class's constructor."""
    return [p for p in inspect.signature(cls).parameters if p != "self"]


#: Dataclass fields the C++ struct lacks (the engine's default stands): the C++ API's LoadDataRepeatParam has
#: dstStride only on arches ascsim does not model (3102 / 5102); 950 code passes it in
#: LoadDataRepeatParamWithStride (docs/divergences.md B4).
#: MmadParams.disableGemv is a 3510 member.
OPTIONAL_ON = {("LoadDataRepeatParam", "a2"): {"dstStride"}, ("LoadDataRepeatParam", "950"): {"dstStride"},
               ("MmadParams", "a2"): {"disableGemv"}}


def test_every_struct_the_table_takes_can_come_from_cpp() -> None:
    """Each params dataclass an operation accepts has its C++ struct in STRUCTS (else a C++ call could
    never reach that form)."""
    engine = {s for op in table.operations() for a in op.args for s in a.structs}
    engine |= {s for op in table.operations() if op.dispatch for s in op.dispatch}
    from_cpp = tuple(spec.cls for spec in STRUCTS.values() if isinstance(spec.cls, type))
    # (a subclass arrives as its base: C++'s FixpipeParamsC310 is reflected as FixpipeParamsArch3510)
    missing = {s.__name__ for s in engine
               if not issubclass(s, from_cpp) and s.__module__.startswith("ascsim.params")}
    assert not missing, missing
