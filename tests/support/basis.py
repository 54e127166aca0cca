"""Issue 7's message convention, checked by the error tests: every refusal ends with its basis."""

from __future__ import annotations

import re

from ascsim.base.errors import BASIS_PATTERN, Basis, BoundsError, HazardError, NotImplementedFeature


def assert_basis(e: BaseException) -> None:
    """The message of refusal `e` ends with "(the C++ API rejects this: ...)", "(the hardware cannot do
    this...)" or "(the doc page forbids this: ...; ascsim reading: divergence Xn)". Hazards raised in strict
    mode (HazardError, incl. DocConflictError), out-of-memory accesses (BoundsError) and features ascsim
    does not model (NotImplementedFeature, which names its divergence row) are not refusals of a rule."""
    if isinstance(e, (HazardError, BoundsError, NotImplementedFeature)):
        return
    assert re.search(BASIS_PATTERN, str(e)), f"no basis at the end of: {e}"
    # the basis is data on the exception (not only text): its kind, and the message ends with it, once
    basis = getattr(e, "basis", None)
    assert isinstance(basis, Basis), f"no structured basis on: {e!r}"
    assert str(e) == f"{e.message} ({basis})" and str(e).count(str(basis)) == 1, str(e)
