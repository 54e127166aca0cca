"""Command-line options for kernel files, kept free of heavy imports (the parser is built on every
`ascsim` start; the front-end itself loads only when a kernel file is run)."""

from __future__ import annotations

import argparse
from pathlib import Path

#: File suffixes routed to the C++ front-end.
KERNEL_SUFFIXES = (".cpp", ".asc", ".cc", ".cxx", ".cce")


def is_kernel(path: str) -> bool:
    return Path(path).suffix.lower() in KERNEL_SUFFIXES


def add_kernel_options(p: argparse.ArgumentParser) -> None:
    """Options of a kernel run (used by run, explain and draw)."""
    g = p.add_argument_group("kernel files (.cpp, .asc)")
    g.add_argument("--chip", default="a2", help="chip profile (sets __NPU_ARCH__; default a2)")
    g.add_argument(
        "--gm",
        action="append",
        default=[],
        metavar="NAME=FILE[:DTYPE[:SHAPE]]",
        help="bind GM parameter NAME: an existing .npy/.bin is an input (copied as bytes; DTYPE "
        "reinterprets), FILE:DTYPE:SHAPE (e.g. out.npy:float:32x32) an output written after the run",
    )
    g.add_argument(
        "-D",
        dest="defines",
        action="append",
        default=[],
        metavar="NAME[=VALUE]",
        help="preprocessor define (e.g. -D SCENARIO_NUM=2)",
    )
    g.add_argument(
        "--template",
        default="",
        metavar="K=V,...",
        help="the entry's template arguments (default: from its <<<...>>> launch in main)",
    )
    g.add_argument("--entry", help="kernel entry function (default: the file's __global__ function)")
    g.add_argument("--strict", action="store_true", help="hazards and sync findings are errors")
