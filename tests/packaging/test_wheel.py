"""The package as a user installs it: `ascsim --version`, and a wheel that holds every file the source tree
ships (issue 19: "nothing checks that an installed wheel works").

The reference for the wheel's contents is git's own list of tracked files under src/ascsim (not a list
written here), so a new header, data file or page asset that package-data forgets fails this test. The
full install-and-run check (a fresh venv, the wheel, `ascsim demo`) needs the package index and a minute,
so it is in .ci/run, before the test command.
"""

from __future__ import annotations

import importlib.metadata
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from support.paths import ROOT

import ascsim


def test_version_flag_prints_the_installed_version() -> None:
    out = subprocess.run([sys.executable, "-m", "ascsim", "--version"], capture_output=True, text=True,
                         check=True).stdout
    assert out.split()[:2] == ["ascsim", importlib.metadata.version("ascsim")]
    assert ascsim.__version__ == importlib.metadata.version("ascsim")


def _tracked_package_files() -> set[str]:
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip("not a git checkout: the tracked-file list is the reference")
    out = subprocess.run(["git", "ls-files", "src/ascsim"], cwd=ROOT, capture_output=True, text=True,
                         check=True).stdout
    return {line.removeprefix("src/") for line in out.splitlines() if line}


def test_the_wheel_ships_every_tracked_package_file(tmp_path: Path) -> None:
    built = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q",
                            str(ROOT), "-w", str(tmp_path)], capture_output=True, text=True)
    assert built.returncode == 0, built.stderr[-2000:]
    (wheel,) = tmp_path.glob("ascsim-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    missing = sorted(_tracked_package_files() - names)
    assert not missing, f"files in src/ascsim that the wheel leaves out: {missing}"
    meta = next(n for n in names if n.endswith(".dist-info/METADATA"))
    assert f"Version: {ascsim.__version__}" in zipfile.ZipFile(wheel).read(meta).decode()
