"""The timeline of compiled kernels: the ping-pong matmul of examples/ against its single-buffered twin
and its PipeBarrier<PIPE_ALL>-per-call twin (both derived here from the example's text and checked to
compute the same product), the trace file against the trace-event format's schema, and determinism.

The twins: single buffering is the example with `ping = 0` (every K tile loads into buffer 0, so tile
t + 1's loads wait for tile t's Mmad); the barrier twin drops every SetFlag / WaitFlag and puts a
PipeBarrier<PIPE_ALL> after every data call (what ascsim's planner emitted before issue 20)."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from support.paths import EXAMPLES, SRC
from support.trace_events import check_trace

from ascsim.base.errors import AscsimError
from ascsim.program import load_kernel
from ascsim.program.run import Output

PINGPONG = (EXAMPLES / "matmul_pingpong.cpp").read_text(encoding="utf-8")
CALL = re.compile(r"^(\s*)(AscendC::(DataCopy|LoadData|LoadDataWithTranspose|Mmad|Fixpipe)\(.*\);)$", re.M)
FLAG = re.compile(r"^\s*AscendC::(SetFlag|WaitFlag)<[^\n]*\n", re.M)


def single_buffered() -> str:
    text = PINGPONG.replace("uint32_t ping = t % 2;", "uint32_t ping = 0;  // single buffering")
    assert text != PINGPONG
    return text


def barriers() -> str:
    text, n = FLAG.subn("", PINGPONG)
    assert n >= 8
    text, n = CALL.subn(r"\1\2\n\1AscendC::PipeBarrier<PIPE_ALL>();", text)
    assert n == 6  # the two copies in, the A and B loads, the Mmad, the Fixpipe
    return text


def _inputs():
    rng = np.random.default_rng(7)
    a = rng.integers(-2, 3, (32, 128)).astype(np.float16)
    b = rng.integers(-2, 3, (128, 32)).astype(np.float16)
    return a, b, a.astype(np.float64) @ b.astype(np.float64)


def _run(path: Path):
    a, b, ref = _inputs()
    run = load_kernel(path, chip="a2").run(gm={"a": a, "b": b, "c": Output("float", (32, 32))})
    np.testing.assert_array_equal(run.outputs["c"], ref)  # each variant computes the product
    assert run.sync_reports == []  # and its sync is clean
    return run


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    d = tmp_path_factory.mktemp("variants")
    out = {"pingpong": _run(EXAMPLES / "matmul_pingpong.cpp")}
    for name, text in (("single", single_buffered()), ("barriers", barriers())):
        p = d / f"matmul_{name}.cpp"
        p.write_text(text, encoding="utf-8")
        out[name] = _run(p)
    return out


def test_ping_pong_is_predicted_faster_than_single_buffering(runs) -> None:
    pp, single = runs["pingpong"].timeline(), runs["single"].timeline()
    assert pp.total < single.total
    # what it saves: the Mmad pipe waits less for its loads
    assert pp.pipes["M"].waiting < single.pipes["M"].waiting


def test_flags_are_predicted_faster_than_a_barrier_per_call(runs) -> None:
    flags, bars = runs["pingpong"].timeline(), runs["barriers"].timeline()
    assert flags.total < bars.total
    assert any(w.flag == "PIPE_ALL" for w in bars.waits)
    assert not any(w.flag == "PIPE_ALL" for w in flags.waits)


def test_the_timeline_names_the_flags_and_lines_of_each_wait(runs) -> None:
    tl = runs["pingpong"].timeline()
    waits = {(w.pipe, w.flag.split("(")[0], w.waiter, w.setter) for w in tl.waits}
    # WaitFlag<MTE2_MTE1> at line 40 waits for the SetFlag at line 39 (the copies in)
    assert ("MTE1", "MTE2_MTE1", "matmul_pingpong.cpp:40", "matmul_pingpong.cpp:39") in waits
    assert ("M", "MTE1_M", "matmul_pingpong.cpp:55", "matmul_pingpong.cpp:54") in waits
    # the critical path starts at the first copy in and ends at the Fixpipe out
    assert tl.critical_path[0].where == "matmul_pingpong.cpp:78"
    assert tl.critical_path[-1].kind == "Fixpipe"
    busy = {p: s.busy for p, s in tl.pipes.items()}
    assert busy["M"] > 0 and busy["MTE2"] > 0 and busy["FIX"] > 0


def test_the_cost_model_override_changes_the_prediction(runs, tmp_path: Path) -> None:
    f = tmp_path / "fast_gm.toml"
    f.write_text('[path."GM->L1"]\nbytes_per_cycle = 640\n', encoding="utf-8")
    run = runs["pingpong"]
    assert run.timeline(f).total < run.timeline().total


def test_the_trace_follows_the_trace_event_format_and_is_deterministic(runs, tmp_path: Path) -> None:
    tl = runs["pingpong"].timeline()
    p = tl.save(tmp_path / "trace.json")
    doc = json.loads(p.read_text(encoding="utf-8"))
    check_trace(doc)
    xs = [e for e in doc["traceEvents"] if e["ph"] == "X"]
    assert {e["args"]["source"] for e in xs} >= {"matmul_pingpong.cpp:61", "matmul_pingpong.cpp:119"}
    names = {e["args"]["name"] for e in doc["traceEvents"] if e["ph"] == "M" and e["name"] == "thread_name"}
    assert {"PIPE_MTE2", "PIPE_MTE1", "PIPE_M", "PIPE_FIX"} <= names
    assert sum(e["ph"] == "s" for e in doc["traceEvents"]) > 0  # the flags' arrows
    # a second run of the same kernel: the same prediction and a byte-identical trace
    again = _run(EXAMPLES / "matmul_pingpong.cpp").timeline()
    assert again.total == tl.total
    assert again.trace_json() == p.read_text(encoding="utf-8")


def test_the_command_writes_the_trace(tmp_path: Path) -> None:
    a, b, _ = _inputs()
    np.save(tmp_path / "a.npy", a)
    np.save(tmp_path / "b.npy", b)
    out = tmp_path / "trace.json"
    cmd = [sys.executable, "-m", "ascsim", "timeline", str(EXAMPLES / "matmul_pingpong.cpp"), "--chip", "a2",
           "--gm", f"a={tmp_path / 'a.npy'}", "--gm", f"b={tmp_path / 'b.npy'}",
           "--gm", f"c={tmp_path / 'c.npy'}:float:32x32", "-o", str(out)]
    r = subprocess.run(cmd, capture_output=True, text=True, env={"PYTHONPATH": str(SRC), "PATH": ""},
                       timeout=600)
    assert r.returncode == 0, r.stderr
    assert "predicted:" in r.stdout and "PIPE_ALL" not in r.stdout
    check_trace(json.loads(out.read_text(encoding="utf-8")))
    bad = subprocess.run(cmd[:-1] + [str(tmp_path / "trace.txt")], capture_output=True, text=True,
                         env={"PYTHONPATH": str(SRC), "PATH": ""}, timeout=600)
    assert bad.returncode == 2 and bad.stderr.count("\n") == 1 and ".json" in bad.stderr
    f = tmp_path / "bad.toml"
    f.write_text("[sync]\nflag_cycle = 3\n", encoding="utf-8")
    bad = subprocess.run(cmd + ["--cost-model", str(f)], capture_output=True, text=True,
                         env={"PYTHONPATH": str(SRC), "PATH": ""}, timeout=600)
    assert bad.returncode == 2 and "sync.flag_cycle" in bad.stderr and "Traceback" not in bad.stderr


def test_a_scenario_file_has_a_timeline_too(tmp_path: Path) -> None:
    """A scenario's steps run one after another (a PIPE_ALL after each)."""
    out = tmp_path / "t.svg"
    r = subprocess.run([sys.executable, "-m", "ascsim", "timeline", str(EXAMPLES / "matmul.toml"), "-o",
                        str(out)], capture_output=True, text=True, env={"PYTHONPATH": str(SRC), "PATH": ""},
                       timeout=600)
    assert r.returncode == 0, r.stderr
    assert out.read_text(encoding="utf-8").startswith("<svg")


def test_the_worked_example_of_the_docs(runs) -> None:
    """docs/timeline.md's worked example: the summary the command prints, line for line, the per-call
    figures of its explanation, and the variants' table."""
    doc = (SRC.parent / "docs" / "timeline.md").read_text(encoding="utf-8")
    tl = runs["pingpong"].timeline()
    for line in tl.summary().splitlines():
        assert line in doc, line
    by = {}
    for it in tl.items[0]:
        by.setdefault((it.where, it.kind), it.cycles)
    assert by[("matmul_pingpong.cpp:78", "DataCopy")] == 428  # 8192 B / 64 + 300
    assert by[("matmul_pingpong.cpp:92", "LoadData")] == 22  # 1024 B / 512 + 20
    assert by[("matmul_pingpong.cpp:61", "Mmad")] == 15.5  # 8 fractals + 7.5
    assert "8,192 B each at 64 B/cycle + 300 cycles =\n428 cycles" in doc
    for name, text in (("pingpong", "| ping-pong (the example) | 1,627.5 |"),
                       ("single", "| single buffering (`ping = 0`) | 1,764.0 |"),
                       ("barriers", "| PipeBarrier<PIPE_ALL> after every call, no flags | 1,880.0 |")):
        assert f"{runs[name].timeline().total:,.1f}" in text
        assert text in doc
    assert f"the scalar unit waits {runs['barriers'].timeline().pipes['S'].waiting:,.0f} cycles" in doc


@pytest.mark.parametrize("launch", [1, -2, 1.0, True])
def test_a_launch_the_run_does_not_have_is_refused_with_the_range(runs, launch) -> None:
    """The example launches one kernel: launch 0 / -1 only; the message names the option and the range."""
    expected = r"^launch=.* \(--launch\): the run has 1 kernel launch\(es\); give an integer in \[-1, 0\]"
    with pytest.raises(AscsimError, match=expected):
        runs["pingpong"].timeline(launch=launch)
    assert runs["pingpong"].timeline(launch=0).total == runs["pingpong"].timeline().total
