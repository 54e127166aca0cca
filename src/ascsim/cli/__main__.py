"""`python -m ascsim.cli` runs the command line (as `python -m ascsim` does)."""

from .main import main

raise SystemExit(main())
