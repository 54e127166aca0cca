"""Helpers shared by test modules (on sys.path through pyproject's `[tool.pytest.ini_options]
pythonpath = ["tests"]`): `from support.basis import assert_basis`. What several test modules share lives
here (tests/README.md, "Layout")."""
