"""Old import path of `ascsim.machine.layouts` (kept for users who imported it)."""

from .machine.layouts import *  # noqa: F403
