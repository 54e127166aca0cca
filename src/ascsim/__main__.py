"""`python -m ascsim` runs the command line (handy with PYTHONPATH=src, without an install)."""

from .cli import main

raise SystemExit(main())
