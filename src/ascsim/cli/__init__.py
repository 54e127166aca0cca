"""The `ascsim` command: argument parsing in `main`, one module per command family."""

from .main import main

__all__ = ["main"]
