"""Every consumer of the instruction list derives it from the one table (ascsim.isa.table): each one's set of
instructions is the table's, so an instruction added there reaches Core, the C++ facade, scenario files,
`ascsim cpp`, the sync checker's pipes and the planner's programs at once (the compiled path's headers are
checked against it in tests/program/test_headers.py)."""

from __future__ import annotations

import inspect
from pathlib import Path

import pytest

import ascsim.ascendc as AscendC
from ascsim import Core
from ascsim.engine.sync import PIPES
from ascsim.isa import table
from ascsim.isa.table import INSTRUCTIONS, STRUCT, TENSOR, VALUE, operations, pipe_of
from ascsim.params.base import extents
from ascsim.planner.program import Call
from ascsim.scenario import CALLS, load_scenario
from ascsim.scenario.cpp import step_to_cpp

NAMES = {ins.name for ins in INSTRUCTIONS}

#: Core's methods that are not instructions: the state and the batching runner.
CORE_STATE = {"tensor", "global_tensor", "memory", "free_all", "run", "gm", "strict", "fill", "keep_plans",
              "mmad_accumulate"}


def test_core_methods_are_the_tables_operations() -> None:
    public = {n for n, v in inspect.getmembers(Core) if not n.startswith("_")}
    ops = {op.method for op in operations()}
    assert public - CORE_STATE == ops
    for op in operations():  # each generated method has the operation's arguments, in order
        params = list(inspect.signature(getattr(Core, op.method)).parameters)[1:]
        assert params == [a.name for a in op.args], op.method


def test_ascendc_spells_every_table_name() -> None:
    callables = {n for n in AscendC.__all__ if callable(getattr(AscendC, n)) and n[0].isupper()
                 and not isinstance(getattr(AscendC, n), type)}
    assert callables == NAMES


def test_scenario_calls_are_the_table_names() -> None:
    assert set(CALLS) == NAMES


def test_every_instruction_has_a_pipe_and_every_setter_none() -> None:
    """The sync checker's pipe of each data move / compute instruction, on the memories its forms use."""
    paths = {"LoadData": ("L0A", "L1"), "LoadDataWithStride": ("L0B", "L1"),
             "LoadDataWithTranspose": ("L0B", "L1"),
             "LoadDataWithSparse": ("L0B", "L1"), "DataCopy": ("L1", "GM"), "DataCopyPad": ("L1", "GM"),
             "Fill": ("L0A", None), "InitConstValue": ("L1", None), "Fixpipe": ("GM", "L0C")}
    for ins in INSTRUCTIONS:
        dst, src = paths.get(ins.name, ("L0C", "L0A"))
        pipe = pipe_of(ins.name, dst, src, "a2")
        if ins.setter:
            assert pipe is None, ins.name
        else:
            assert pipe in PIPES, ins.name


def _step_toml(ins: table.Instruction) -> str:
    """A scenario step for the instruction's plain form with every required key given (the `ascsim cpp`
    consumer prints it; it need not run)."""
    form = ins.forms[0]
    lines = ["[[steps]]", f'call = "{ins.name}"']
    for a in form.step_args():
        if a.kind == TENSOR and not a.optional:
            lines.append(f'{a.step_key} = "t"')
        elif a.kind == STRUCT and not a.optional:
            structs = form.structs_of(a.name) or (table.LoadData2DParams,)
            sizes = "".join(f", {f} = 1" for f in extents(structs[0]))  # a table must give them
            lines.append(f'{a.step_key} = {{type = "{structs[0].__name__}"{sizes}}}')
        elif a.kind == VALUE and a.step_default is table.REQUIRED:
            lines.append(f'{a.step_key} = "half"')
    return "\n".join(lines)


def test_ascsim_cpp_prints_every_instruction(tmp_path: Path) -> None:
    text = 'chip = "a2"\n[tensors.t]\nposition = "A1"\ndtype = "half"\nlength = 4096\n\n'
    text += "\n".join(_step_toml(ins) for ins in INSTRUCTIONS)
    path = tmp_path / "all.toml"
    path.write_text(text, encoding="utf-8")
    sc = load_scenario(path)
    assert [s.call for s in sc.steps] == [ins.name for ins in INSTRUCTIONS]
    for i, ins in enumerate(INSTRUCTIONS):
        assert f"AscendC::{ins.name}" in step_to_cpp(sc, i).splitlines()[-1]


@pytest.mark.parametrize("call", ["DataCopy", "LoadData", "LoadDataWithTranspose", "Mmad", "Fixpipe"])
def test_planner_calls_run_through_the_table(call: str) -> None:
    """The planner's program calls are table names; their pipes are the table's."""
    assert call in NAMES
    mem = {"DataCopy": ("L1", "GM"), "LoadData": ("L0A", "L1"), "LoadDataWithTranspose": ("L0B", "L1"),
           "Mmad": ("L0C", ""), "Fixpipe": ("GM", "L0C")}[call]
    c = Call(call, {}, dst_mem=mem[0], src_mem=mem[1])
    assert c.pipe == pipe_of(call, mem[0], mem[1] or None)


def test_table_arguments_are_well_formed() -> None:
    """Each form orders its op's arguments; struct arguments name the structs C++ accepts; tensor
    arguments are the operands the checks name."""
    for ins in INSTRUCTIONS:
        for f in ins.forms:
            names = [a.name for a in f.op.args]
            assert all(n in names for n, _ in f.positional()), ins.name
            assert all(n in names for n in (*f.template_args, *f.fixed)), ins.name
            for a in f.op.args:
                if a.kind == TENSOR:
                    assert a.cpp_name and a.step_key, (ins.name, a.name)
