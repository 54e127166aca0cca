"""Scenario files (ascsim.scenario) with mistakes: each gives one line naming the file and the path inside it.

Checked twice: through the Python API (`ScenarioError`) and end to end through `python -m ascsim.cli run`
(non-zero exit, exactly one stderr line starting with `ascsim: `, no traceback unless `--debug`).
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from subprocess import CompletedProcess

import numpy as np
import pytest

from ascsim.cli.main import build_parser
from ascsim.scenario import ScenarioError, load_scenario, run_scenario, tomllib

BASE = """\
description = "Load3D v2 of a 32-channel 4x4 half feature map"
chip = "a2"

[tensors.fmap]
position = "A1"
dtype = "half"
shape = [32, 4, 4]
layout = "fmap"
init = "arange"

[tensors.l0a]
position = "A2"
dtype = "half"
length = 2048

[[steps]]
call = "LoadData"
dst = "l0a"
src = "fmap"
params = { type = "LoadData3DParamsV2", padList = [1, 1, 1, 1], l1H = 4, l1W = 4, channelSize = 32, \
kExtension = 128, mExtension = 16, filterW = 2, filterH = 2, dilationFilterW = 2, dilationFilterH = 2 }
"""

FIXPIPE = """\
chip = "a2"
[tensors.c]
position = "CO1"
dtype = "float"
length = 256
[tensors.g]
position = "GM"
dtype = "float"
length = 256
[[steps]]
call = "Fixpipe"
dst = "g"
src = "c"
params = { type = "FixpipeParamsV220", nSize = 16, mSize = 16, srcStride = 16, dstStride = 16 }
"""


def _sub(old: str, new: str, base: str = BASE) -> str:
    assert base.count(old) == 1, old
    return base.replace(old, new)


STEP = 'src = "fmap"\n'
PARAMS = "channelSize = 32, "

# id -> (file text, regex the message must match after "<file>: ")
BAD: dict[str, tuple[str, str]] = {
    "unknown top-level field": ("colour = 1\n" + BASE, r"colour: unknown field; allowed: chip, "),
    "unknown tensor field": (_sub('length = 2048\n', 'length = 2048\ncolour = 1\n'),
                             r"tensors\.l0a\.colour: unknown field"),
    "unknown step field": (_sub(STEP, STEP + "colour = 1\n"), r"steps\[0\]\.colour: unknown field"),
    "unknown params field": (_sub(PARAMS, PARAMS + "kExtensoin = 3, "),
                             r"steps\[0\]\.params\.kExtensoin: unknown field of LoadData3DParamsV2"),
    "string for int": (_sub("l1H = 4", 'l1H = "4"'),
                       r"steps\[0\]\.params\.l1H: expected an integer, got '4'"),
    "float for int": (_sub("l1H = 4", "l1H = 4.0"),
                      r"steps\[0\]\.params\.l1H: expected an integer, got 4\.0"),
    "list of non-ints": (_sub("padList = [1, 1, 1, 1]", 'padList = [1, "a", 1, 1]'),
                         r"steps\[0\]\.params\.padList: expected a list of integers"),
    "list of floats": (_sub("padList = [1, 1, 1, 1]", "padList = [1.5, 1, 1, 1]"),
                       r"steps\[0\]\.params\.padList: expected a list of integers"),
    "bool field given 2": (_sub(PARAMS, PARAMS + "enTranspose = 2, "),
                           r"steps\[0\]\.params\.enTranspose: expected true or false, got 2"),
    "out of range at run time": (_sub("kExtension = 128", "kExtension = 70000"),
                                 r"steps\[0\]\.params\.kExtension: Load3Dv2: kExtension .*65535.*70000"),
    "padList entry out of range": (_sub("padList = [1, 1, 1, 1]", "padList = [1, 1, 1, 300]"),
                                   r"steps\[0\]\.params\.padList: Load3Dv2: padList\[3\] .*255.*300"),
    "missing tensor": (_sub('dst = "l0a"', 'dst = "l0x"'),
                       r"steps\[0\]\.dst: no tensor named 'l0x' \(known: fmap, l0a\)"),
    "tensor index past the end": (_sub('dst = "l0a"', 'dst = {tensor = "l0a", index = 4096}'),
                                  r"steps\[0\]\.dst\.index: must be in \[0, 2048\]"),
    "unsupported chip": (_sub('chip = "a2"', 'chip = "a9"'), r"chip: .*'a9' is not a known chip"),
    "chip not a string": (_sub('chip = "a2"', "chip = 3"), r"chip: expected a chip name, got 3$"),
    "missing chip": (_sub('chip = "a2"\n', ""), r"chip: missing"),
    "unknown dtype": (_sub('dtype = "half"\nlength', 'dtype = "half2"\nlength'),
                      r"tensors\.l0a\.dtype: .*'half2'"),
    "unknown position": (_sub('position = "A2"', 'position = "L0A"'),
                         r"tensors\.l0a\.position: unknown TPosition"),
    "missing tensor dtype": (_sub('dtype = "half"\nlength = 2048\n', "length = 2048\n"),
                             r"tensors\.l0a\.dtype: missing"),
    "unknown call": (_sub('call = "LoadData"', 'call = "LoadData3D"'),
                     r"steps\[0\]\.call: unknown call 'LoadData3D'"),
    "unknown struct type": (_sub('type = "LoadData3DParamsV2"', 'type = "LoadData3DParamsV3"'),
                            r"steps\[0\]\.params\.type: unknown struct 'LoadData3DParamsV3'"),
    "missing struct type": (_sub('type = "LoadData3DParamsV2", ', ""),
                            r"steps\[0\]\.params\.type: unknown struct None"),
    "missing src": (_sub(STEP, ""), r"steps\[0\]\.src: missing tensor argument of LoadData"),
    "missing params": (BASE.split("params = ")[0],
                       r"steps\[0\]\.params: missing parameter struct of LoadData"),
    "wrong struct for the call": (_sub('call = "LoadData"\ndst = "l0a"\nsrc = "fmap"\n',
                                       'call = "Mmad"\nc = "l0a"\na = "fmap"\nb = "fmap"\n'),
                                  r"steps\[0\]\.params\.type: Mmad takes MmadParams, got LoadData3DParamsV2"),
    "unknown config field": (_sub(STEP, STEP + "config = {isSetFMatrix = false, isSetPad = true}\n"),
                             r"steps\[0\]\.config\.isSetPad: unknown field"),
    "config not a bool": (_sub(STEP, STEP + 'config = {isSetFMatrix = "no"}\n'),
                          r"steps\[0\]\.config\.isSetFMatrix: expected true or false, got 'no'"),
    "unknown dst_pos": (_sub(STEP, STEP + 'dst_pos = "L0A"\n'),
                        r"steps\[0\]\.dst_pos: unknown TPosition 'L0A'"),
    "setter field type": (BASE + '[[steps]]\ncall = "SetFmatrix"\nl1H = "4"\nl1W = 4\n'
                          'padList = [0, 0, 0, 0]\n',
                          r"steps\[1\]\.l1H: expected an integer, got '4'"),
    "padding value type": (BASE + '[[steps]]\ncall = "SetLoadDataPaddingValue"\nvalue = "x"\n',
                           r"steps\[1\]\.value: expected a number, got 'x'"),
    "init fill not a number": (_sub('init = "arange"', 'init = {fill = "x"}'),
                               r"tensors\.fmap\.init\.fill: expected a number, got 'x'"),
    "init values not numbers": (_sub('init = "arange"', 'init = {values = ["a"]}'),
                                r"tensors\.fmap\.init\.values: expected a \(flat\) list of numbers"),
    "init random seed": (_sub('init = "arange"', 'init = {random = {seed = "x"}}'),
                         r"tensors\.fmap\.init\.random\.seed: expected a number, got 'x'"),
    "init unknown kind": (_sub('init = "arange"', 'init = "linspace"'),
                          r"tensors\.fmap\.init: unknown init 'linspace'"),
    "quantPre name": (_sub("dstStride = 16 }", 'dstStride = 16, quantPre = "F32F16" }', FIXPIPE),
                      r"steps\[0\]\.params\.quantPre: expected a QuantMode_t name \(NoQuant, F322F16"),
    "not implemented feature": (FIXPIPE.replace('"a2"', '"ascend950"')
                                .replace('"float"\nlength = 256\n[[', '"half"\nlength = 256\n[[')
                                .replace("V220", "Arch3510")
                                .replace("dstStride = 16 }", 'dstStride = 16, quantPre = "QF322F16_PRE" }'),
                                r"steps\[0\]\.params\.quantPre: Fixpipe: quantPre QF322F16_PRE "
                                r".*not implemented"),
    "invalid TOML": (_sub("l1H = 4,", "l1H = 4,,"), r"not valid TOML: "),
}


def _path(tmp: Path, name: str, text: str, suffix: str = ".toml") -> Path:
    p = tmp / (name.replace(" ", "_") + suffix)
    p.write_text(text, encoding="utf-8")
    return p


@pytest.mark.parametrize("case", sorted(BAD))
def test_bad_file_api(tmp_path: Path, case: str) -> None:
    text, pattern = BAD[case]
    path = _path(tmp_path, case, text)
    with pytest.raises(ScenarioError, match=rf"^{path.name}: {pattern}") as exc:
        run_scenario(load_scenario(path))
    assert "\n" not in str(exc.value)


def test_invalid_json(tmp_path: Path) -> None:
    path = _path(tmp_path, "broken", '{"chip": "a2", }', ".json")
    with pytest.raises(ScenarioError, match=r"^broken\.json: not valid JSON: "):
        load_scenario(path)


def test_missing_file(tmp_path: Path) -> None:
    with pytest.raises(ScenarioError, match="cannot read"):
        load_scenario(tmp_path / "nope.toml")


def test_failed_step_leaves_earlier_results(tmp_path: Path) -> None:
    """Steps before the bad one ran; the error names the bad step (steps[1])."""
    bad = BASE + '[[steps]]\ncall = "SetLoadDataBoundary"\nvalue = 100\n'
    with pytest.raises(ScenarioError, match=r"^two\.toml: steps\[1\]: SetLoadDataBoundary: boundaryValue"):
        run_scenario(load_scenario(_path(tmp_path, "two", bad)))


def test_json_same_schema(tmp_path: Path) -> None:
    """The same scenario as JSON runs and gives the same bytes as the TOML."""
    toml_path = _path(tmp_path, "same", BASE)
    json_path = _path(tmp_path, "same", json.dumps(tomllib.loads(BASE)), ".json")
    a = run_scenario(load_scenario(toml_path)).tensors["l0a"].bytes()
    b = run_scenario(load_scenario(json_path)).tensors["l0a"].bytes()
    assert np.array_equal(a, b)
    # img2col row 0, column 0 is padding (pad 1 on the left/top) -> 0 in half
    assert run_scenario(load_scenario(json_path)).tensors["l0a"].read()[0] == 0


def test_json_error_paths(tmp_path: Path) -> None:
    raw = tomllib.loads(BASE)
    raw["steps"][0]["params"]["kExtension"] = 70000
    path = _path(tmp_path, "range", json.dumps(raw), ".json")
    with pytest.raises(ScenarioError, match=r"^range\.json: steps\[0\]\.params\.kExtension: .*65535"):
        run_scenario(load_scenario(path))


# -- end to end through the command -----------------------------------------------------------------------


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "ascsim.cli", *args], capture_output=True, text=True,
                          timeout=120)


@pytest.fixture(scope="module")
def cli_results(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[Path, CompletedProcess]]:
    """Run every bad file through `ascsim run` once (two at a time: each run is a fresh interpreter)."""
    tmp = tmp_path_factory.mktemp("cli")
    paths = {case: _path(tmp, case, text) for case, (text, _) in BAD.items()}
    with ThreadPoolExecutor(max_workers=2) as pool:
        runs = dict(zip(paths, pool.map(lambda p: _cli("run", "-q", str(p)), paths.values()), strict=True))
    return {case: (paths[case], runs[case]) for case in paths}


@pytest.mark.parametrize("case", sorted(BAD))
def test_bad_file_cli(cli_results: dict, case: str) -> None:
    path, r = cli_results[case]
    assert r.returncode != 0
    lines = r.stderr.splitlines()
    assert len(lines) == 1, r.stderr
    assert lines[0].startswith(f"ascsim: {path.name}: "), lines[0]
    assert "Traceback" not in r.stderr
    assert re.match(rf"ascsim: {path.name}: {BAD[case][1]}", lines[0]), lines[0]


def test_debug_shows_traceback(tmp_path: Path) -> None:
    path = _path(tmp_path, "range", _sub("kExtension = 128", "kExtension = 70000"))
    r = _cli("--debug", "run", str(path))
    assert r.returncode != 0
    assert "Traceback" in r.stderr and "ScenarioError" in r.stderr


def test_cli_run_good_file_json(tmp_path: Path) -> None:
    path = _path(tmp_path, "good", json.dumps(tomllib.loads(BASE)), ".json")
    r = _cli("run", str(path), "--out", str(tmp_path), "--save", "l0a")
    assert r.returncode == 0, r.stderr
    assert r.stdout.splitlines()[0].startswith("[0] LoadData")
    saved = np.load(tmp_path / "l0a.npy")
    assert np.array_equal(saved, run_scenario(load_scenario(path)).tensors["l0a"].read())


def _subcommands() -> dict[str, list[str]]:
    """Each subcommand and the option strings / positional names its --help must mention."""
    parser = build_parser()
    sub = next(a for a in parser._actions if a.__class__.__name__ == "_SubParsersAction")
    out = {}
    for name, sp in sub.choices.items():  # type: ignore[union-attr]
        words = []
        for a in sp._actions:
            if a.dest == "help":
                continue
            words.append(a.option_strings[-1] if a.option_strings else a.metavar or a.dest)
        out[name] = words
    return out


def test_subcommands_present() -> None:
    assert {"demo", "chips", "run", "cpp"} <= set(_subcommands())


@pytest.mark.parametrize("name", sorted(_subcommands()))
def test_subcommand_help(name: str) -> None:
    r = _cli(name, "--help")
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith(f"usage: ascsim {name}")
    for word in _subcommands()[name]:
        assert word in r.stdout, (name, word)


def test_top_level_help() -> None:
    r = _cli("--help")
    assert r.returncode == 0
    for name in ("demo", "chips", "run", "cpp", "--debug"):
        assert name in r.stdout


def test_module_docstring_example_runs(tmp_path: Path) -> None:
    """The example in ascsim.scenario's docstring is a valid TOML 1.0 scenario."""
    import ascsim.scenario as scenario_module

    doc = scenario_module.__doc__ or ""
    example = doc.split("Example:\n\n")[1].split("\nEvery problem")[0]
    path = _path(tmp_path, "doc", "\n".join(line[4:] for line in example.splitlines()))
    run = run_scenario(load_scenario(path))
    assert [r.step.call for r in run.results] == ["LoadData"]


FIXPIPE_TOML = """
chip = "a2"
[tensors.c]
position = "CO1"
dtype = "float"
length = 256
init = "arange"
[tensors.out]
position = "GM"
dtype = "half"
length = 256
[[steps]]
call = "Fixpipe"
dst = "out"
src = "c"
{config}
[steps.params]
type = "FixpipeParamsV220"
nSize = 16
mSize = 16
srcStride = 16
dstStride = 16
quantPre = "F322F16"
"""


def test_fixpipe_config_row_major_is_nz2nd(tmp_path) -> None:
    """config = "CFG_ROW_MAJOR" is the FixpipeConfig template argument: NZ -> ND (NZ2ND.md)."""
    path = tmp_path / "fp.toml"
    path.write_text(FIXPIPE_TOML.format(config='config = "CFG_ROW_MAJOR"'))
    run = run_scenario(load_scenario(path))
    nz = np.arange(256, dtype=np.float32)  # one 16x16 fractal: element (m, n) at m*16 + n
    np.testing.assert_array_equal(run.tensors["out"].read().astype(np.float32), nz.astype(np.float16))


def test_fixpipe_config_must_be_a_known_name(tmp_path) -> None:
    path = tmp_path / "fp.toml"
    path.write_text(FIXPIPE_TOML.format(config='config = "CFG_DIAGONAL"'))
    with pytest.raises(ScenarioError, match=r"^fp\.toml: steps\[0\]\.config: expected one of CFG_ROW_MAJOR"):
        load_scenario(path)


FM_BITMODE = """
chip = "ascend950"
[[steps]]
call = "SetFmatrix"
{extra}
[steps.params]
type = "{type}"
{fields}
"""


@pytest.mark.parametrize(("extra", "type_", "fields", "message"), [
    ("l1H = 4", "SetFMatrixBitModeParams", "l1H = 4",
     r"steps\[0\]\.l1H: give either params \(SetFMatrixBitModeParams\) or l1H/l1W/padList"),
    ("", "LoadDataRepeatParam", "repeatTime = 1",
     r"steps\[0\]\.params\.type: SetFmatrix takes SetFMatrixBitModeParams, got LoadDataRepeatParam"),
    ("", "SetFMatrixBitModeParams", "l1h = 4",
     r"steps\[0\]\.params\.l1h: unknown field of SetFMatrixBitModeParams"),
    ("", "SetFMatrixBitModeParams", "l1H = 70000",
     r"steps\[0\]\.params\.l1H: SetFMatrixBitModeParams: l1H is a 16-bit field"),
], ids=["both-forms", "wrong-struct", "unknown-field", "field-too-wide"])
def test_bitmode_set_fmatrix_errors(tmp_path: Path, extra: str, type_: str, fields: str,
                                    message: str) -> None:
    path = tmp_path / "fm.toml"
    path.write_text(FM_BITMODE.format(extra=extra, type=type_, fields=fields))
    with pytest.raises(ScenarioError, match=r"^fm\.toml: " + message):
        load_scenario(path)


def test_bitmode_set_fmatrix_sets_the_register(tmp_path: Path) -> None:
    """SetFmatrixBitMode.md 表3 fields land in the FMATRIX register (l1H, l1W, padList)."""
    path = tmp_path / "fm.toml"
    path.write_text(FM_BITMODE.format(extra='mode = "FMATRIX_LEFT"', type="SetFMatrixBitModeParams",
                                      fields="l1H = 5\nl1W = 7\npadList = [1, 2, 3, 4]"))
    run = run_scenario(load_scenario(path))
    fm = run.core.regs.fmatrix_left
    assert (fm.l1H, fm.l1W, tuple(fm.padList)) == (5, 7, (1, 2, 3, 4))
