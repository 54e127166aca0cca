"""Regression tests for the scenario/CLI hardening of issue 9 ("What to build" 3): one test per signature
the scenario-file fuzzing found (tests/fuzz/test_scenario_fuzz.py), named for what it guards.

Each bad input goes through the command (`ascsim.cli.main`) and must end with exit code 2 and exactly one
stderr line `ascsim: FILE: path: message` (pinned by its start), never a traceback; saved files stay
inside `--out`. The contract is issue 9's acceptance list, not ascsim's own output.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import time
import tracemalloc
import warnings
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from support.paths import EXAMPLES

from ascsim.cli import main

BASE: dict[str, Any] = {
    "chip": "a2",
    "tensors": {
        "fmap": {"position": "A1", "dtype": "half", "shape": [32, 4, 4], "layout": "fmap", "init": "arange"},
        "l0a": {"position": "A2", "dtype": "half", "length": 2048},
        "g": {"position": "GM", "dtype": "half", "length": 16, "init": "ones"},
    },
    "steps": [{"call": "LoadData", "dst": "l0a", "src": "fmap", "params": {
        "type": "LoadData3DParamsV2", "padList": [1, 1, 1, 1], "l1H": 4, "l1W": 4, "channelSize": 32,
        "kExtension": 128, "mExtension": 16, "filterW": 2, "filterH": 2}}],
}


def scenario(**changes: Any) -> dict:
    """BASE with changes at dotted paths: scenario(**{"tensors.g.length": 3})."""
    raw = json.loads(json.dumps(BASE))
    for path, value in changes.items():
        *head, last = path.split(".")
        node = raw
        for k in head:
            node = node[int(k)] if isinstance(node, list) else node[k]
        if isinstance(node, list):
            node[int(last)] = value
        else:
            node[last] = value
    return raw


def cli(*argv: str) -> tuple[int, str, list[str]]:
    """Run `ascsim ARGV` in-process: (exit code, stdout, stderr lines); main must never raise."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            rc = main(list(argv))
        except SystemExit as e:  # argparse
            rc = e.code if isinstance(e.code, int) else 2
    return rc, out.getvalue(), err.getvalue().splitlines()


def write(tmp: Path, content: str | bytes | dict, suffix: str = ".json") -> Path:
    path = tmp / f"s{suffix}"
    if isinstance(content, dict):
        content = json.dumps(content)
    path.write_bytes(content.encode() if isinstance(content, str) else content)
    return path


def fails(tmp: Path, content: str | bytes | dict, start: str, *args: str, suffix: str = ".json") -> str:
    """Run the file; assert exit 2 and one stderr line `ascsim: s.json: <start>...`; return that line."""
    path = write(tmp, content, suffix)
    rc, _, err = cli("run", "-q", str(path), "--out", str(tmp / "out"), *args)
    assert rc == 2, err
    assert len(err) == 1, err
    assert err[0].startswith(f"ascsim: {path.name}: {start}"), err[0]
    return err[0]


# -- decoding, nesting, top level ---------------------------------------------------------------------------


def test_non_utf8_bytes_are_one_line(tmp_path: Path) -> None:
    fails(tmp_path, b'chip = "a2"\n# caf\xe9\n', "not UTF-8 text: byte 0xe9 at offset 17", suffix=".toml")
    fails(tmp_path, b'\xef\xbb\xbf# caf\xe9\n', "not UTF-8 text: byte 0xe9 at offset 8", suffix=".toml")


def test_utf8_bom_is_skipped(tmp_path: Path) -> None:
    path = write(tmp_path, b"\xef\xbb\xbf" + json.dumps(BASE).encode())
    rc, _, err = cli("run", "-q", str(path), "--out", str(tmp_path))
    assert rc == 0, err


@pytest.mark.parametrize("suffix", [".toml", ".json"])
def test_deep_nesting_in_the_parser(tmp_path: Path, suffix: str) -> None:
    """100,000 nested arrays: the parsers' RecursionError becomes one line."""
    text = ("x = " if suffix == ".toml" else '{"x": ') + "[" * 100_000 + "]" * 100_000 + \
        ("" if suffix == ".toml" else "}")
    fails(tmp_path, text, f"not valid {suffix[1:].upper()}: nested too deeply", suffix=suffix)


def test_deep_nesting_below_the_parser_limit(tmp_path: Path) -> None:
    """Deep enough to break a recursive walker or repr, shallow enough for the parser: refused by depth."""
    raw = scenario()
    raw["tensors"]["fmap"]["shape"] = "X"
    text = json.dumps(raw).replace('"X"', "[" * 500 + "]" * 500)
    fails(tmp_path, text, "tensors.fmap.shape[0][0]")


@pytest.mark.parametrize("top", ["3", "null", "[1, 2]", '"chip"', "true", "1e999", "[{}]"])
def test_top_level_not_a_table(tmp_path: Path, top: str) -> None:
    fails(tmp_path, top, "expected a table of chip, tensors, steps ... at the top level, got ")


@pytest.mark.parametrize(("raw", "start"), [
    (scenario(save={"g": "\ud800.npy"}), "save.g: '\\ud800.npy' holds a lone UTF-16 surrogate"),
    ({"chip": "a2", "tensors": {"\udcff": {}}}, "tensors: the key '\\udcff' holds a lone UTF-16 surrogate"),
])
def test_json_lone_surrogate_escapes(tmp_path: Path, raw: dict, start: str) -> None:
    """JSON's "\\ud800" is not text: as a save name it used to reach open() (UnicodeEncodeError)."""
    fails(tmp_path, raw, start)


def test_line_breaks_in_names_stay_one_line(tmp_path: Path) -> None:
    """A tensor named "a\\rb\\u2028c" (any str.splitlines break) does not split the error line."""
    raw = scenario()
    raw["tensors"]["a\rb\u2028c"] = {"position": "nope", "dtype": "half"}
    fails(tmp_path, raw, "tensors.a b c.position: unknown TPosition 'nope'")


def test_json_integer_with_too_many_digits(tmp_path: Path) -> None:
    fails(tmp_path, json.dumps(scenario()).replace("2048", "9" * 5000), "not valid JSON: Exceeds the limit")


def test_oversized_file_is_refused_unread(tmp_path: Path) -> None:
    rc, _, err = cli("run", "/dev/zero")
    assert rc == 2 and err == ["ascsim: zero: larger than 64 MiB; give big tensor contents as init = "
                               "{npy = FILE}"]


# -- wrong types where names go (unhashable values reached dict lookups) ------------------------------------


@pytest.mark.parametrize(("path", "value", "start"), [
    ("steps.0.call", ["LoadData"], "steps[0].call: unknown call ['LoadData']"),
    ("steps.0.params.type", {"x": 1}, "steps[0].params.type: unknown struct {'x': 1}"),
    ("steps.0.dst_pos", ["A2"], "steps[0].dst_pos: unknown TPosition ['A2']"),
    ("steps.0.dst", {"tensor": ["l0a"]}, "steps[0].dst.tensor: expected a tensor name, got ['l0a']"),
    ("steps.0.dst", 3, "steps[0].dst: expected a tensor name or {tensor = NAME, index = I}, got 3"),
    ("steps.0.dst", {"x": 1}, "steps[0].dst.x: unknown field"),
    ("steps.0.dst", "l0a[99999999999]", "steps[0].dst: no tensor named 'l0a[99999999999]'"),
    ("steps.0.dst", {"tensor": "l0a", "index": 2**70}, "steps[0].dst.index: expected an element index "
                                                         "that fits 64 bits"),
    ("steps", [3], "steps[0]: expected a table, got 3"),
    ("steps", {"call": "Mmad"}, "steps: expected an array of steps"),
])
def test_wrong_types_in_steps_and_refs(tmp_path: Path, path: str, value: Any, start: str) -> None:
    fails(tmp_path, scenario(**{path: value}), start)


# -- struct fields ------------------------------------------------------------------------------------------

FIXPIPE = {"chip": "ascend950", "tensors": {"c": {"position": "CO1", "dtype": "float", "length": 256},
                                             "y": {"position": "GM", "dtype": "float", "length": 256}},
           "steps": [{"call": "Fixpipe", "dst": "y", "src": "c", "params": {
               "type": "FixpipeParamsArch3510", "nSize": 16, "mSize": 16, "srcStride": 16, "dstStride": 16}}]}


@pytest.mark.parametrize(("field", "value", "start"), [
    ("quantPre", [1], "steps[0].params.quantPre: expected a QuantMode_t name"),
    ("quantPre", True, "steps[0].params.quantPre: expected a QuantMode_t name"),
    ("params", 3, "steps[0].params.params: expected a table {type = \"Nz2NdParams\", ...}, got 3"),
    ("params", {"type": "MmadParams"}, "steps[0].params.params.type: expected Nz2NdParams or Nz2DnParams, "
                                       "got MmadParams"),
    ("nSize", 2**64, "steps[0].params.nSize: expected an integer within 64 bits"),
    ("reluEn", 1.0, "steps[0].params.reluEn: expected true or false, got 1.0"),
])
def test_struct_field_types(tmp_path: Path, field: str, value: Any, start: str) -> None:
    raw = json.loads(json.dumps(FIXPIPE))
    raw["steps"][0]["params"][field] = value
    fails(tmp_path, raw, start)


def test_struct_constructor_bug_is_one_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A params constructor raising a non-AscsimError is an ascsim bug: one line saying so."""
    from ascsim import params

    def broken(self: Any, *a: Any, **k: Any) -> None:
        raise KeyError("boom")

    monkeypatch.setattr(params.MmadParams, "__init__", broken)
    raw = {"chip": "a2", "steps": [{"call": "Mmad", "c": "c", "a": "a", "b": "b",
                                    "params": {"type": "MmadParams"}}],
           "tensors": {n: {"position": p, "dtype": d, "length": 256}
                       for n, p, d in (("a", "A2", "half"), ("b", "B2", "half"), ("c", "CO1", "float"))}}
    line = fails(tmp_path, raw, "steps[0].params: internal error in MmadParams: KeyError: 'boom'")
    assert line.endswith("— please report")


# -- huge integers and allocation bounds --------------------------------------------------------------------


@pytest.mark.parametrize(("path", "value", "start"), [
    ("tensors.l0a.length", 2**64, "tensors.l0a.length: expected a positive integer that fits 64 bits"),
    ("tensors.l0a.offset", 2**70, "tensors.l0a.offset: expected a byte offset (integer) that fits 64 bits"),
    ("tensors.fmap.shape", [2**40, 2**40, 2**40], "tensors.fmap: LocalTensor<half> at A1: bytes"),
    ("tensors.g.init", {"fill": 2**70}, "tensors.g.init.fill: expected a number that fits 64 bits"),
    ("tensors.g.init", {"values": [2**70] * 16}, "tensors.g.init.values: expected a (flat) list of numbers"),
    ("steps.0.params.l1H", 10**30, "steps[0].params.l1H: expected an integer within 64 bits, got 100-bit"),
])
def test_huge_integers_anywhere(tmp_path: Path, path: str, value: Any, start: str) -> None:
    fails(tmp_path, scenario(**{path: value}), start)


@pytest.mark.parametrize(("spec", "start"), [
    ({"length": 2**40}, "tensors.g.length: 1099511627776 elements of half; a GM tensor of a scenario is "
                        "limited to 16,777,216 elements"),
    ({"shape": [2**32, 2**32], "layout": "nz"}, "tensors.g.shape: 18446744073709551616 elements"),
])
def test_gm_tensor_size_is_bounded(tmp_path: Path, spec: dict, start: str) -> None:
    """A GM tensor is a host array: length = 2**40 is one line in bounded time and memory (it used to
    allocate 2 TiB; np.prod of the shape wrapped around)."""
    raw = scenario()
    raw["tensors"]["g"] = {"position": "GM", "dtype": "half", **spec}
    tracemalloc.start()
    t0 = time.process_time()  # CPU time, not wall time: a shared machine's stalls do not count
    fails(tmp_path, raw, start)
    assert time.process_time() - t0 < 2
    assert tracemalloc.get_traced_memory()[1] < 16 << 20
    tracemalloc.stop()


def test_gm_tensors_together_are_bounded(tmp_path: Path) -> None:
    raw = scenario()
    for i in range(5):
        raw["tensors"][f"g{i}"] = {"position": "GM", "dtype": "half", "length": 1 << 24}
    fails(tmp_path, raw, "tensors: the GM tensors hold 83,886,096 elements together")


def test_init_shape_checked_before_building_values(tmp_path: Path) -> None:
    """shape = [2**20, 2**20] with length 16: refused from the sizes, before 2**40 values are made."""
    raw = scenario(**{"tensors.l0a.shape": [2**20, 2**20], "tensors.l0a.init": "zeros"})
    fails(tmp_path, raw, "tensors.l0a.length: 2048 elements cannot hold the 1099511627776")


# -- init specs ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("init", "start"), [
    ({"random": 3}, "tensors.g.init.random: expected a table {seed, low, high}, got 3"),
    ({"random": {"seed": -1}}, "tensors.g.init.random.seed: expected a non-negative number, got -1"),
    ({"random": {"low": 2, "high": 1}}, "tensors.g.init.random: expected low <= high"),
    ({"random": {"low": -1e308, "high": 1e308}}, "tensors.g.init.random: expected low <= high with a finite"),
    ({"random": {"low": float("nan")}}, "tensors.g.init.random.low: expected a finite number, got nan"),
    ({"values": [[1, 2], [3]]}, "tensors.g.init: values has 3 entries, the tensor needs 16"),
    ({"values": [True] * 16}, "tensors.g.init.values: expected a (flat) list of numbers"),
])
def test_init_specs(tmp_path: Path, init: dict, start: str) -> None:
    fails(tmp_path, scenario(**{"tensors.g.init": init}), start)


def test_random_init_of_an_integer_tensor_needs_integer_bounds(tmp_path: Path) -> None:
    raw = scenario(**{"tensors.g.dtype": "int8_t", "tensors.g.init": {"random": {"low": 0.5, "high": 3}}})
    fails(tmp_path, raw, "tensors.g.init.random: int8_t needs integer low <= high within [-128, 127]")


# -- .npy inputs --------------------------------------------------------------------------------------------


def _npy(arr: np.ndarray) -> bytes:
    buf = io.BytesIO()
    np.save(buf, arr, allow_pickle=True)
    return buf.getvalue()


GOOD = _npy(np.arange(16, dtype=np.float16))


@pytest.mark.parametrize(("blob", "start"), [
    (GOOD[:-4], "cannot load 'x.npy': truncated (28 of the 32 data bytes its header announces)"),
    (GOOD[:100], "cannot load 'x.npy': EOF: reading array header"),
    (b"", "cannot load 'x.npy': EOF: reading magic string"),
    (_npy(np.array([{}] * 16, dtype=object)), "cannot load 'x.npy': its dtype |O is not a number type"),
    (_npy(np.ones(16, dtype=np.complex64)), "cannot load 'x.npy': its dtype <c8 is not a number type"),
    (_npy(np.array(["ab"] * 16)), "cannot load 'x.npy': its dtype <U2 is not a number type"),
    (_npy(np.zeros(16, dtype=[("a", "<i4")])), "cannot load 'x.npy': its dtype |V4 is not a number type"),
    (_npy(np.zeros(17, dtype=np.float16)), "x.npy holds 17 values, the tensor needs 16"),
    (GOOD.replace(b"(16,)", b"(99999999999,)"), "x.npy holds 99999999999 values, the tensor needs 16"),
    (b"\x93NUMPY\x03\x00" + GOOD[8:], "cannot load 'x.npy': .npy format version (3, 0)"),
    (b"garbage" * 10, "cannot load 'x.npy': the magic string is not correct"),
], ids=["truncated", "truncated-header", "empty", "object", "complex", "strings", "structured", "too-big",
        "header-lie", "version-3", "garbage"])
def test_npy_inputs_are_checked(tmp_path: Path, blob: bytes, start: str) -> None:
    """allow_pickle=False, dtype and size from the header before any data is read (a header announcing
    10**11 values is refused without allocating them)."""
    (tmp_path / "x.npy").write_bytes(blob)
    tracemalloc.start()
    fails(tmp_path, scenario(**{"tensors.g.init": {"npy": "x.npy"}}), f"tensors.g.init.npy: {start}")
    assert tracemalloc.get_traced_memory()[1] < 16 << 20
    tracemalloc.stop()


def test_npy_that_is_not_a_regular_file(tmp_path: Path) -> None:
    """A FIFO (or a folder) is refused without opening it: reading would block."""
    os.mkfifo(tmp_path / "x.npy")
    fails(tmp_path, scenario(**{"tensors.g.init": {"npy": "x.npy"}}),
          "tensors.g.init.npy: cannot load 'x.npy': not a regular file")


def test_npy_fortran_order_and_byte_order_load_as_numpy_reads_them(tmp_path: Path) -> None:
    """The header-first reader gives the values np.load gives (Fortran order, big-endian)."""
    arr = np.asfortranarray(np.arange(16, dtype=">f4").reshape(4, 4) * 1.5)
    np.save(tmp_path / "x.npy", arr)
    raw = scenario(**{"tensors.g.init": {"npy": "x.npy"}, "tensors.g.dtype": "float", "save": {"g": "g.npy"}})
    rc, _, err = cli("run", "-q", str(write(tmp_path, raw)), "--out", str(tmp_path / "out"))
    assert rc == 0, err
    np.testing.assert_array_equal(np.load(tmp_path / "out" / "g.npy"), np.load(tmp_path / "x.npy").ravel())


# -- output paths -------------------------------------------------------------------------------------------


def _files(root: Path) -> set[Path]:
    return {p for p in root.rglob("*") if p.is_file()}


@pytest.mark.parametrize(("target", "start"), [
    ("../x.npy", "save.g: '../x.npy' has a '..' part; saved files stay inside --out"),
    ("sub/../../x.npy", "save.g: 'sub/../../x.npy' has a '..' part"),
    ("/tmp/x.npy", "save.g: '/tmp/x.npy' is an absolute path; saved files stay inside --out"),
    ("", "save.g: '' is not a file name ending in .npy or .npz"),
    (".", "save.g: '.' is not a file name ending in .npy or .npz"),
    ("sub/", "save.g: 'sub/' is not a file name ending in .npy or .npz"),
    ("x", "save.g: 'x' is not a file name ending in .npy or .npz"),
    ("a\x00b.npy", "save.g: 'a\\x00b.npy' holds a NUL character"),
])
def test_save_paths_stay_inside_out(tmp_path: Path, target: str, start: str) -> None:
    """`..`, absolute paths, and names np.save would complete to `<out>.npy` next to --out are refused
    when the file is loaded (before anything runs or is written)."""
    before = _files(tmp_path)
    fails(tmp_path, scenario(save={"g": target}), start)
    assert _files(tmp_path) - before == {tmp_path / "s.json"}


def test_save_into_a_subfolder_of_out(tmp_path: Path) -> None:
    rc, _, err = cli("run", "-q", str(write(tmp_path, scenario(save={"g": "sub/deeper/g.npy"}))),
                     "--out", str(tmp_path / "missing" / "out"))
    assert rc == 0, err
    np.testing.assert_array_equal(np.load(tmp_path / "missing" / "out" / "sub" / "deeper" / "g.npy"),
                                  np.ones(16, dtype=np.float16))


def test_save_through_a_symlink_out_of_out(tmp_path: Path) -> None:
    (tmp_path / "out").mkdir()
    (tmp_path / "elsewhere").mkdir()
    (tmp_path / "out" / "link").symlink_to(tmp_path / "elsewhere")
    fails(tmp_path, scenario(save={"g": "link/g.npy"}), "save.g: 'link/g.npy' leads outside --out through a "
                                                         "symbolic link")
    assert not any((tmp_path / "elsewhere").iterdir())


def test_save_option_names_stay_inside_out(tmp_path: Path) -> None:
    """--save NAME writes NAME.npy: a tensor named `../evil` cannot escape."""
    raw = scenario()
    raw["tensors"]["../evil"] = raw["tensors"].pop("g")
    path = write(tmp_path, raw)
    rc, _, err = cli("run", "-q", str(path), "--out", str(tmp_path / "out"), "--save", "../evil")
    assert rc == 2 and err == ["ascsim: --save: tensor '../evil' cannot be saved as ../evil.npy: "
                               "'../evil.npy' has a '..' part; saved files stay inside --out"]
    assert _files(tmp_path) == {path}


def test_out_that_is_a_file(tmp_path: Path) -> None:
    (tmp_path / "afile").write_text("x")
    rc, _, err = cli("run", "-q", str(write(tmp_path, scenario(save={"g": "g.npy"}))), "--out",
                     str(tmp_path / "afile"))
    assert rc == 2 and err == [f"ascsim: --out '{tmp_path / 'afile'}': cannot make the folder: File exists"]


def test_save_name_too_long(tmp_path: Path) -> None:
    fails(tmp_path, scenario(save={"g": "x" * 300 + ".npy"}), "save.g: cannot write ")


# -- the command line itself --------------------------------------------------------------------------------


@pytest.mark.parametrize(("argv", "line"), [
    (["run"], "ascsim: run: the following arguments are required: file (see `ascsim run --help`)"),
    (["explain", "x.toml", "--step", "x"], "ascsim: explain: argument --step: invalid int value: 'x' "
                                           "(see `ascsim explain --help`)"),
    (["nosuch"], "ascsim: argument command: invalid choice: 'nosuch'"),
])
def test_usage_errors_are_one_line(argv: list[str], line: str) -> None:
    rc, _, err = cli(*argv)
    assert rc == 2 and len(err) == 1 and err[0].startswith(line), err


def test_draw_region_with_a_huge_range(tmp_path: Path) -> None:
    """--region 0-99999999999 used to build a list of 10**11 fractal numbers (MemoryError)."""
    example = EXAMPLES / "load3d_v2_basic.toml"
    rc, out, err = cli("draw", str(example), "-o", str(tmp_path / "x.svg"), "--region", "0-99999999999")
    assert rc == 0, err
    assert (tmp_path / "x.svg").exists()


def test_output_folder_of_draw_missing(tmp_path: Path) -> None:
    example = EXAMPLES / "load3d_v2_basic.toml"
    rc, _, err = cli("draw", str(example), "-o", str(tmp_path / "nope" / "x.svg"))
    assert rc == 2 and err == [f"ascsim: {tmp_path / 'nope' / 'x.svg'}: No such file or directory"]


# -- bugs inside ascsim stay one line -----------------------------------------------------------------------


def test_instruction_bug_is_one_located_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """An instruction raising a non-AscsimError (the Python API's own fuzzing hunts those) is reported at
    its step as an internal error, not a traceback."""
    from ascsim.core import Core

    def broken(self: Core, *a: Any, **k: Any) -> None:
        raise ZeroDivisionError("division by zero")

    monkeypatch.setattr(Core, "load_data", broken)
    line = fails(tmp_path, scenario(), "steps[0]: internal error in LoadData: ZeroDivisionError: division by "
                                       "zero — please report")
    assert "Traceback" not in line


def test_unexpected_exception_in_a_command_is_one_line(tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    import ascsim.scenario

    def broken(*a: Any, **k: Any) -> None:
        raise RuntimeError("oops")

    monkeypatch.setattr(ascsim.scenario, "save_outputs", broken)
    path = write(tmp_path, scenario())
    rc, _, err = cli("run", "-q", str(path), "--out", str(tmp_path))
    assert rc == 2 and err == ["ascsim: internal error in run: RuntimeError: oops — please report (rerun "
                               "with --debug for the traceback)"]
    with pytest.raises(RuntimeError):
        main(["--debug", "run", "-q", str(path), "--out", str(tmp_path)])


def test_warnings_while_building_tensors_are_one_line(tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """A warning raised converting init values (numpy's RuntimeWarning, a ComplexWarning) is printed as
    one `warning: FILE: tensors.NAME.init: ...` line and does not leak as a Python warning."""
    from ascsim.machine.memory import LocalTensor

    write_values = LocalTensor.write

    def noisy(self: LocalTensor, values: Any, start: int = 0) -> None:
        warnings.warn("overflow encountered in cast", RuntimeWarning, stacklevel=2)
        write_values(self, values, start)

    monkeypatch.setattr(LocalTensor, "write", noisy)
    path = write(tmp_path, scenario())
    with warnings.catch_warnings(record=True) as leaked:
        warnings.simplefilter("always")
        rc, _, err = cli("run", "-q", str(path), "--out", str(tmp_path))
    assert rc == 0, err
    assert err == ["warning: s.json: tensors.fmap.init: RuntimeWarning: overflow encountered in cast",
                   "warning: s.json: tensors.g.init: RuntimeWarning: overflow encountered in cast"]
    assert leaked == []
