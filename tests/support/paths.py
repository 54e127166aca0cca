"""The repository's folders, wherever a test file sits below tests/."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]  # tests/support/paths.py -> the repository
SRC = ROOT / "src"
EXAMPLES = ROOT / "examples"
DOCS = ROOT / "docs"
