"""Round trips between scenarios and C++:

- scenario -> `ascsim cpp --kernel` -> the C++ front-end reproduces `ascsim run` of the scenario byte for
  byte, for every examples/*.toml (every tensor, on chip and in GM);
- kernel -> `--emit-scenario` -> `ascsim run` of the emitted scenario reproduces the kernel's outputs, and
  the emitted scenario's own `cpp --kernel` runs back to the same bytes.
"""

from __future__ import annotations

import warnings
from pathlib import Path

import numpy as np
import pytest
from support.doc_kernels import Kernel
from support.paths import EXAMPLES

from ascsim.cli import main
from ascsim.program import Output, load_kernel
from ascsim.program.emit import write_scenario
from ascsim.scenario import build, load_scenario, run_scenario
from ascsim.scenario.cpp import scenario_kernel

SCENARIOS = sorted(EXAMPLES.glob("*.toml"))


def _kernel_run_of(sc, text: str):
    """Run the kernel text of scenario `sc`: GM tensors bound to their initial bytes, on-chip tensors with
    initial data preloaded."""
    init = build(sc)
    gm = {f"{n}_addr": init.tensors[n].bytes().tobytes() for n, t in sc.tensors.items() if t.position == "GM"}
    pre: dict = {}
    for n, t in sc.tensors.items():
        if t.position != "GM" and t.init is not None:
            tt = init.tensors[n]
            pre.setdefault(tt.memory.name, {})[tt.offset] = tt.bytes().tobytes()
    return Kernel(sc.path.with_suffix(".cpp").name, sc.chip, text_=text).run(gm=gm, preload=pre)


def _tensor_bytes(run, name: str, t) -> bytes:
    if t.position == "GM":
        return run.read_gm(f"{name}_addr")[: t.nbytes]
    return run.core.memory(t.memory.name).data[t.offset : t.offset + t.nbytes].tobytes()


@pytest.mark.parametrize("path", SCENARIOS, ids=[p.stem for p in SCENARIOS])
def test_scenario_to_cpp_and_back(path: Path, capsys) -> None:
    sc = load_scenario(path)
    text = scenario_kernel(sc)
    assert main(["cpp", str(path), "--kernel"]) == 0
    assert capsys.readouterr().out == text
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # hazards the scenarios exercise on purpose
        ref = run_scenario(sc)
        run = _kernel_run_of(sc, text)
    assert len(run.trace) == len(sc.steps)
    assert run.sync_reports == []  # steps are separated by PipeBarrier<PIPE_ALL>
    for name, t in ref.tensors.items():
        assert _tensor_bytes(run, name, t) == t.bytes().tobytes(), name


def _pingpong():
    rng = np.random.default_rng(7)
    a = rng.integers(-4, 5, (32, 128)).astype(np.float16)
    b = rng.integers(-4, 5, (128, 32)).astype(np.float16)
    return load_kernel(EXAMPLES / "matmul_pingpong.cpp").run(
        gm={"a": a, "b": b, "c": Output("float", (32, 32))}
    )


def test_kernel_to_scenario_and_back(tmp_path: Path) -> None:
    run = _pingpong()
    path = write_scenario(run, tmp_path / "pp.toml")
    sc = load_scenario(path)
    assert [s.call for s in sc.steps] == [c.name for c in run.trace]
    assert sc.steps[2].raw["note"] == "matmul_pingpong.cpp:92 LoadData"
    ref = run_scenario(sc)
    np.testing.assert_array_equal(ref.tensors["c"].read().reshape(32, 32), run.outputs["c"])
    # and the emitted scenario's C++ runs back to the same bytes
    again = _kernel_run_of(sc, scenario_kernel(sc))
    assert again.read_gm("c_addr") == run.read_gm("c")


def _matmul_gm(tmp_path: Path, seed: int) -> list[str]:
    """--gm options binding a random 32x128 @ 128x32 half matmul's files (c: the float output)."""
    rng = np.random.default_rng(seed)
    np.save(tmp_path / "a.npy", rng.integers(-4, 5, (32, 128)).astype(np.float16))
    np.save(tmp_path / "b.npy", rng.integers(-4, 5, (128, 32)).astype(np.float16))
    return ["--gm", f"a={tmp_path / 'a.npy'}", "--gm", f"b={tmp_path / 'b.npy'}",
            "--gm", f"c={tmp_path / 'c.npy'}:float:32x32"]


def test_emit_scenario_from_the_command_line(tmp_path: Path, capsys) -> None:
    out = tmp_path / "t.toml"
    gm = _matmul_gm(tmp_path, 8)
    assert main(["run", str(EXAMPLES / "matmul_tque.cpp"), "-q", *gm, "--emit-scenario", str(out)]) == 0
    assert (tmp_path / "t_data" / "a.bin").exists()  # GM tensors are named after the kernel's parameters
    capsys.readouterr()
    assert main(["run", str(out), "-q", "--out", str(tmp_path / "o")]) == 0
    np.testing.assert_array_equal(
        np.load(tmp_path / "o" / "c.npy").reshape(32, 32), np.load(tmp_path / "c.npy")
    )


def test_explain_and_draw_a_kernel_call(tmp_path: Path, capsys) -> None:
    """`ascsim explain kernel.cpp --call N` runs the kernel and explains its N-th call like a scenario
    step; `ascsim draw` draws it."""
    gm = _matmul_gm(tmp_path, 9)
    assert main(["explain", str(EXAMPLES / "matmul_pingpong.cpp"), "--call", "4", "--fractal", "0", *gm]) == 0
    out = capsys.readouterr().out
    assert out.startswith("call 4: LoadDataWithTranspose at matmul_pingpong.cpp:107")
    # the source as the call writes it (`LoadDataWithTranspose(b2[...], b1, params)`)
    assert "dst[1] L0B 0x0002 (fractal 0 row 0 col 1) <- b1[16] L1 0x2020: fractal 0 row 1 col 0" in out
    svg = tmp_path / "c4.svg"
    assert main(["draw", str(EXAMPLES / "matmul_pingpong.cpp"), "--call", "4", "-o", str(svg), *gm]) == 0
    assert svg.read_text().startswith("<?xml")
    assert main(["explain", str(EXAMPLES / "matmul_pingpong.cpp"), "--call", "99", *gm]) == 2
    assert (
        "call 99 does not exist (the kernel made 23 instruction and register calls" in capsys.readouterr().err
    )


def test_scenario_writer_escapes_what_toml_must() -> None:
    """The one scenario writer (`scenario.writer.to_toml`, also behind the planner and `ascsim port`) writes
    strings TOML can read back — quotes, backslashes, newlines, tabs, DEL, non-ASCII — checked with the
    standard library's TOML parser; a multi-line description becomes one comment line per line."""
    from ascsim.scenario import tomllib
    from ascsim.scenario.writer import to_toml

    text = 'a "quoted" \\ path\nsecond line\twith tab \x7f and ünïcode'
    doc = {"description": text, "chip": "a2", "tensors": {"x": {"position": "A1", "dtype": "half",
                                                                 "length": 16}},
           "steps": [{"call": "note", "note": text}], "save": {"x": "x.npy"}}
    back = tomllib.loads(to_toml(doc))
    assert back["description"] == text
    assert back["steps"][0]["note"] == text
    assert back["tensors"]["x"] == doc["tensors"]["x"] and back["save"] == doc["save"]
