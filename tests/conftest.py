"""Shared pytest setup. The helpers the test folders share live in tests/support/ (on sys.path through
pyproject's `pythonpath = ["tests"]`); they are registered for pytest's assertion rewriting here, so an
`assert` failing inside one (say `run_kernel`'s empty sync report, or `untouched`'s register check) reports
its operands as it did when the check was written in the test module itself."""

import pytest

pytest.register_assert_rewrite("support")
