"""The house's rules (docs/architecture.md), checked on the code itself:

- the import-linter contracts of pyproject.toml hold (layers, no cycles), and they are not vacuous: a copy
  of the package with one back-import added, or a contract with a layer rule removed, fails;
- no module imports another module's `_private` names;
- imports inside functions are only the ones kept for start-up time or optional dependencies, each listed
  here with its reason.
"""

from __future__ import annotations

import ast
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

from support.paths import ROOT

SRC = ROOT / "src" / "ascsim"
# import-linter is a test dependency (pyproject's [test] extra): the contracts are part of the test command,
# so a machine without it fails here rather than skipping the house's rules. It runs in this interpreter
# (not a `lint-imports` script found on PATH, which in a virtualenv may belong to another Python).
LINT = [sys.executable, "-c", "import sys; from importlinter.cli import lint_imports_command; "
        "sys.exit(lint_imports_command())"]


def _lint(config: Path, src: Path) -> subprocess.CompletedProcess:
    env = {"PYTHONPATH": str(src), "PATH": str(Path(sys.executable).parent)}
    r = subprocess.run([*LINT, "--no-cache", str(config)], capture_output=True, text=True, cwd=config.parent,
                       env=env, timeout=300)
    assert "No module named 'importlinter'" not in r.stderr, "pip install -e '.[test]' installs import-linter"
    return r


def _contracts() -> str:
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    return text[text.index("[tool.importlinter]"):]


def test_import_contracts_hold() -> None:
    r = _lint(ROOT / "pyproject.toml", ROOT / "src")
    assert r.returncode == 0, r.stdout + r.stderr
    assert "2 kept, 0 broken" in r.stdout


def test_a_back_import_breaks_the_layers(tmp_path: Path) -> None:
    """engine/state.py (the engine floor) importing the facade above it is a broken layer."""
    shutil.copytree(SRC, tmp_path / "src" / "ascsim", ignore=shutil.ignore_patterns("__pycache__"))
    state = tmp_path / "src" / "ascsim" / "engine" / "state.py"
    state.write_text(state.read_text(encoding="utf-8") + "\nfrom ..core import Core  # noqa: E402\n",
                     encoding="utf-8")
    (tmp_path / "pyproject.toml").write_text(_contracts(), encoding="utf-8")
    r = _lint(tmp_path / "pyproject.toml", tmp_path / "src")
    assert r.returncode != 0
    assert "ascsim is layered: each layer imports only the layers below it BROKEN" in r.stdout
    assert "ascsim.engine.state -> ascsim.core" in r.stdout


def test_a_cycle_inside_a_package_is_refused(tmp_path: Path) -> None:
    """Two modules of one floor importing each other (scenario.schema -> scenario.files -> schema)."""
    shutil.copytree(SRC, tmp_path / "src" / "ascsim", ignore=shutil.ignore_patterns("__pycache__"))
    schema = tmp_path / "src" / "ascsim" / "scenario" / "schema.py"
    schema.write_text(schema.read_text(encoding="utf-8") + "\nfrom . import files  # noqa: E402,F401\n",
                      encoding="utf-8")
    (tmp_path / "pyproject.toml").write_text(_contracts(), encoding="utf-8")
    r = _lint(tmp_path / "pyproject.toml", tmp_path / "src")
    assert r.returncode != 0
    assert "no import cycles among the modules of any package BROKEN" in r.stdout


def test_removing_a_layer_rule_breaks_the_contract(tmp_path: Path) -> None:
    """The layers contract is exhaustive: a floor taken out of the list (here the instruction families)
    is reported, so a rule cannot be dropped silently."""
    loose = _contracts().replace('    "isa",\n', "")
    assert loose != _contracts()
    (tmp_path / "pyproject.toml").write_text(loose, encoding="utf-8")
    r = _lint(tmp_path / "pyproject.toml", ROOT / "src")
    assert r.returncode != 0
    assert "ascsim.isa" in r.stdout + r.stderr


def _modules() -> dict[str, tuple[Path, bool]]:
    out = {}
    for p in SRC.rglob("*.py"):
        parts = list(p.relative_to(SRC.parent).with_suffix("").parts)
        pkg = parts[-1] == "__init__"
        out[".".join(parts[:-1] if pkg else parts)] = (p, pkg)
    return out


def _imports(path: Path, module: str, pkg: bool):
    """(node, resolved module, in a function) for every `from X import` of ascsim in the file."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    inner = set()
    for fn in ast.walk(tree):
        if isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
            inner |= {id(n) for n in ast.walk(fn) if isinstance(n, (ast.Import, ast.ImportFrom))}
    for n in ast.walk(tree):
        if isinstance(n, ast.ImportFrom):
            if n.level:
                base = module.split(".") if pkg else module.split(".")[:-1]
                base = base[: len(base) - n.level + 1]
                target = ".".join(base + ([n.module] if n.module else []))
            else:
                target = n.module or ""
            yield n, target, id(n) in inner
        elif isinstance(n, ast.Import):
            yield n, n.names[0].name, id(n) in inner


def test_no_module_imports_another_modules_private_names() -> None:
    found = []
    for mod, (path, pkg) in _modules().items():
        for n, target, _ in _imports(path, mod, pkg):
            if isinstance(n, ast.ImportFrom) and target.startswith("ascsim") and target != mod:
                found += [f"{mod}: from {target} import {a.name}" for a in n.names
                          if a.name.startswith("_") and not a.name.startswith("__")]
    assert not found, "\n".join(found)


#: Imports inside functions, each kept for a reason: start-up (`ascsim --help` / `ascsim chips` load neither
#: numpy nor the engine: every command imports its work when it runs), optional or heavy dependencies loaded
#: only when used (matplotlib when a picture is drawn, torch when a plan is verified against it, threadpoolctl
#: when Mmad first holds BLAS to one thread), and the one registered slot of the view layer.
INNER_IMPORTS = {
    "ascsim.cli.main": "start-up: each command imports its work when it runs",
    "ascsim.cli.demo": "start-up",
    "ascsim.cli.program": "start-up",
    "ascsim.cli.plan": "start-up",
    "ascsim.cli.timeline": "start-up",
    "ascsim.engine.record": "the registered view slot (importlib: the record never imports pictures)",
    "ascsim.scenario.run": "the registered timeline view slot (importlib, as engine.record's)",
    "ascsim.expectations": "matplotlib, only when a mismatch is drawn",
    "ascsim.view.draw": "matplotlib, only when a picture is rendered",
    "ascsim.isa.mmad": "threadpoolctl, only when Mmad first holds BLAS to one thread",
    "ascsim.planner.plans": "torch, only when a plan is verified against it (a test dependency)",
    "ascsim.planner.problems": "torch, only when a reference is computed with it (a test dependency)",
}


def test_imports_inside_functions_are_the_listed_ones() -> None:
    found = {}
    for mod, (path, pkg) in _modules().items():
        for _, target, inner in _imports(path, mod, pkg):
            if inner:
                found.setdefault(mod, set()).add(target)
    assert set(found) <= set(INNER_IMPORTS), textwrap.indent(
        "\n".join(f"{m}: {sorted(t)}" for m, t in found.items() if m not in INNER_IMPORTS), "  ")


def test_no_source_file_cites_a_document_outside_the_repository() -> None:
    """Comments point at repository docs (docs/*.md) or Huawei's doc pages by name, never at files the
    repository does not hold."""
    bad = []
    for p in SRC.rglob("*.py"):
        for i, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1):
            if any(w in line for w in ("DESIGN", "CONCEPTS", "number-formats", "shared/reference")):
                bad.append(f"{p.relative_to(ROOT)}:{i}: {line.strip()}")
    assert not bad, "\n".join(bad)
