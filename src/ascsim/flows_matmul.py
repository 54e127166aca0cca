"""Old import path of `ascsim.flows.matmul` (kept for users who imported it)."""

from .flows.matmul import *  # noqa: F403
from .flows.matmul import __all__  # noqa: F401
