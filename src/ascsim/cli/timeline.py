"""`ascsim timeline FILE|KERNEL.cpp -o trace.json|timeline.html|timeline.svg`: the predicted pipe timeline
of a run (docs/timeline.md). A scenario file's steps run one after another; a program's calls are timed
as its sync checker saw them. The engine is imported when the command runs (start-up time)."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import Any

from .program import add_program_options, is_program


def add_command(sub: argparse._SubParsersAction, run_file: Callable[[str], Any]) -> None:
    """Register `timeline`; `run_file` runs a scenario file printing its warnings (cli.main's)."""
    t = sub.add_parser("timeline", help="predict when each call runs on its pipe (an idealised cost model) "
                       "and write a Chrome trace (.json, Perfetto) or a Gantt (.html, .svg)")
    t.add_argument("file", help="scenario file, or an Ascend C program (.cpp, .asc; `-- ARGS` for its main)")
    t.add_argument("-o", "--out", required=True, metavar="OUT",
                   help="trace.json (Chrome trace-event format), timeline.html or timeline.svg")
    t.add_argument("--cost-model", metavar="FILE", help="a TOML overriding entries of the chip's cost table "
                   "(same keys as ascsim/machine/cost_models/CHIP.toml; unknown keys are refused)")
    t.add_argument("--launch", type=int, default=-1, metavar="N",
                   help="programs: which kernel launch (default: the last)")
    add_program_options(t)
    t.set_defaults(func=cmd_timeline, run_file=run_file)


def cmd_timeline(args: argparse.Namespace) -> int:
    from pathlib import Path

    from ..base.errors import AscsimError

    suffix = Path(args.out).suffix.lower()
    if suffix not in (".json", ".html", ".htm", ".svg"):
        raise AscsimError(f"timeline -o {args.out}: give a .json (Chrome trace), .html or .svg file")
    if is_program(args.file):
        from .program import run_program

        tl = run_program(args, capture=False).timeline(args.cost_model, launch=args.launch)
    else:
        from ..view.timeline import scenario_timeline

        _, run = args.run_file(args.file)
        tl = scenario_timeline(run, args.cost_model)
    path = tl.save(args.out)
    print(tl.summary())
    print(f"wrote {path}")
    return 0
