"""`ascsim run|explain|draw prog.cpp ...`: the command line of the compiled C++ path (docs/cpp.md).

A file with a `main` runs as the program it is (`-- ARGS` are main's arguments; its output is its own);
a kernel-only file runs its `__global__` entry with the GM parameters `--gm` binds. Findings (hazards,
sync races, cross-core races) are printed after the run as `file:line: warning: ...`; `--strict` makes
the first one an error. The options are built without importing the engine (start-up time).
"""

from __future__ import annotations

import argparse
import math
import re
import sys
from pathlib import Path

#: File suffixes that are C++ programs (not scenario files).
PROGRAM_SUFFIXES = (".cpp", ".asc", ".cc", ".cxx", ".cce")


def is_program(path: str) -> bool:
    return Path(path).suffix.lower() in PROGRAM_SUFFIXES


def positive(s: str) -> float:
    """An option's value that must be a finite number above 0 (seconds, GiB)."""
    try:
        v = float(s)
    except ValueError:
        v = float("nan")
    if not math.isfinite(v) or v <= 0:
        raise argparse.ArgumentTypeError(f"expected a number above 0, got {s!r}")
    return v


def add_program_options(p: argparse.ArgumentParser) -> None:
    """Options of a program run (run, explain and draw)."""
    g = p.add_argument_group("C++ programs (.cpp, .asc)")
    g.add_argument("--chip", default="a2",
                   help="chip profile (sets __NPU_ARCH__ and CATLASS_ARCH; default a2)")
    g.add_argument("-I", dest="includes", action="append", default=[], metavar="DIR",
                   help="include directory (e.g. catlass/include)")
    g.add_argument("-D", dest="defines", action="append", default=[], metavar="NAME[=VALUE]",
                   help="preprocessor define (e.g. -D SCENARIO_NUM=2)")
    g.add_argument("--gm", action="append", default=[], metavar="NAME=FILE[:DTYPE[:SHAPE]]",
                   help="kernel-only files: bind GM parameter NAME: an existing .npy/.bin is an input, "
                   "FILE:DTYPE:SHAPE (e.g. out.npy:float:32x32) an output written after the run, "
                   "random:DTYPE:SHAPE[:SEED] an input of small random integers (docs/cpp.md)")
    g.add_argument("--template", default="", metavar="K=V,...",
                   help="kernel-only files: the entry's template arguments (e.g. M=30,N=40,K=70)")
    g.add_argument("--entry",
                   help="kernel-only files: the __global__ function to run (when there are several)")
    g.add_argument("--blocks", type=int, default=1, metavar="N",
                   help="kernel-only files: the launch's blockDim (default 1)")
    g.add_argument("--strict", action="store_true", help="hazards and sync findings are errors")
    g.add_argument("--timeout", type=positive, default=600.0, metavar="S",
                   help="stop a program running longer than S seconds (default 600)")
    g.add_argument("--compile-timeout", type=positive, default=600.0, metavar="S",
                   help="stop a compile running longer than S seconds (default 600)")
    g.add_argument("--gm-limit", type=positive, default=0.5, metavar="GiB",
                   help="device memory the program may allocate (default 0.5 GiB)")


def split_program_args(argv: list[str]) -> tuple[list[str], list[str]]:
    """`ascsim run prog.cpp ... -- a b c`: (ascsim's arguments, the program's)."""
    if "--" in argv:
        i = argv.index("--")
        return argv[:i], argv[i + 1 :]
    return argv, []


def _defines(items: list[str]) -> dict[str, str]:
    out = {}
    for d in items:
        k, _, v = d.partition("=")
        out[k] = v if v else "1"
    return out


def _template(s: str) -> dict[str, str]:
    from ..base.errors import AscsimError

    out = {}
    for part in filter(None, (x.strip() for x in s.split(","))):
        k, sep, v = part.partition("=")
        if not sep or not k.strip() or not v.strip():
            raise AscsimError(f"--template {s}: expected K=V,K=V (e.g. M=30,N=40,K=70)")
        out[k.strip()] = v.strip()
    return out


def warning_line(msg: str) -> str:
    """`file:line[:col]: text` -> `file:line[:col]: warning: text`, like a compiler's warning line."""
    m = re.match(r"^([^\s:]+\.\w+:\d+(?::\d+)?): (.*)$", msg, re.S)
    return f"{m.group(1)}: warning: {m.group(2)}" if m else f"warning: {msg}"


def run_program(args: argparse.Namespace, capture: bool = False):  # noqa: ANN201 - a ProgramRun
    """Build and run the file of `args` (a program, or a kernel-only file with its --gm bindings)."""
    import warnings

    from ..engine.sync import SyncWarning, format_reports
    from ..program.run import load_kernel, parse_gm

    gm = dict(parse_gm(s) for s in args.gm)
    template = _template(args.template)
    prog = load_kernel(args.file, args.chip, _defines(args.defines), entry=args.entry, template=template,
                       includes=args.includes, compile_timeout=args.compile_timeout)
    if not prog.built.kernel_only and (gm or template or args.entry):
        from ..base.errors import AscsimError

        raise AscsimError(f"{args.file}: has a main, so it runs as a program (its main reads its own "
                          "inputs); --gm / --template / --entry bind the parameters of a kernel-only file")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        run = prog.run(args=getattr(args, "program_args", []), gm=gm, blocks=args.blocks, strict=args.strict,
                       timeout=args.timeout, gm_limit=int(args.gm_limit * (1 << 30)), capture=capture)
    shown = set()
    for w in caught:  # the instructions' hazards (sync findings are listed after the run)
        msg = str(w.message)
        if msg not in shown and not issubclass(w.category, SyncWarning):
            shown.add(msg)
            print(warning_line(msg), file=sys.stderr)
    for line in format_reports(run.sync_reports) + format_reports(run.race_reports):
        print(warning_line(line), file=sys.stderr)
    return run


def cmd_run(args: argparse.Namespace) -> int:
    run = run_program(args)
    if run.built.kernel_only and not args.quiet:
        for call in run.trace:
            print(call_summary(call))
    for p in run.save_outputs():
        print(f"saved {p}")
    if args.emit_scenario:
        from ..program.emit import write_scenario

        print(f"wrote {write_scenario(run, args.emit_scenario)}")
    return 0


def call_summary(call) -> str:  # noqa: ANN001 - a TraceCall
    block = f" block {call.block}" if call.block else ""
    head = f"[{call.index}] {call.name} ({call.where}{block})"
    rep = call.report
    if call.name == "SetValue":
        return f"{head}: one element written by the scalar unit"
    if rep is None:
        return f"{head}: registers set" if call.name.startswith("Set") else head
    if not rep.bytes_written and not rep.bytes_read:
        return f"{head}: NOP"
    extra = f", {len(rep.hazards)} hazard(s)" if rep.hazards else ""
    return f"{head}: wrote {rep.bytes_written:,} B, read {rep.bytes_read:,} B{extra}"


def traced_run(args: argparse.Namespace, workdir: Path):  # noqa: ANN201
    """Run the program and load its trace as a scenario (`--emit-scenario`'s, program.emit): the one way
    explain, draw and explore see a program's calls. Returns (ProgramRun, Scenario)."""
    from ..program.emit import write_scenario
    from ..scenario import load_scenario

    run = run_program(args, capture=True)
    return run, load_scenario(write_scenario(run, workdir / "trace.toml"))


def traced_scenario(args: argparse.Namespace, workdir: Path):  # noqa: ANN201
    """`traced_run` for explain / draw --call N: returns (scenario, the call)."""
    from ..base.errors import AscsimError

    run, sc = traced_run(args, workdir)
    n = len(run.trace)
    if args.call is None:
        raise AscsimError(f"{Path(args.file).name}: give --call N, one of the program's {n} instruction and "
                          "register calls (see `ascsim run`)")
    if not 0 <= args.call < n:
        raise AscsimError(f"{Path(args.file).name}: call {args.call} does not exist (the kernel made {n} "
                          "instruction and register calls; see `ascsim run`)")
    return sc, run.trace[args.call]


def cmd_explain(args: argparse.Namespace) -> int:
    import tempfile

    from ..scenario import run_scenario
    from ..view.explain import explain_view, step_view, with_names

    with tempfile.TemporaryDirectory() as d:
        sc, call = traced_scenario(args, Path(d))
        run = run_scenario(sc, upto=args.call)
        print(f"call {args.call}: {call.name} at {call.where}")
        view = with_names(step_view(run, args.call, args.part), call.names)
        print(explain_view(view, args.dst, args.fractal))
    return 0


def cmd_draw(args: argparse.Namespace) -> int:
    import tempfile

    from ..scenario import run_scenario
    from ..view.draw import draw_view, run_others
    from ..view.explain import step_view, with_names

    with tempfile.TemporaryDirectory() as d:
        sc, call = traced_scenario(args, Path(d))
        run = run_scenario(sc, upto=args.call)
        view = with_names(step_view(run, args.call, who="draw"), call.names)
        draw_view(view, args.out, region=args.region, labels=args.labels, focus=args.focus,
                  cumulative=args.cumulative, others=run_others(run, args.call))
    print(f"wrote {args.out}")
    return 0


def cmd_explore(args: argparse.Namespace) -> int:
    """`ascsim explore kernel.cpp --gm ... -o page.html`: the explorer of the program's traced run, one
    entry per call, operands named as the calls wrote them."""
    import tempfile

    from ..scenario import run_scenario
    from ..view.explore import write_explorer

    with tempfile.TemporaryDirectory() as d:
        run, sc = traced_run(args, Path(d))
        path = write_explorer(run_scenario(sc), args.out, region=args.region,
                              calls=[c.names for c in run.trace], lines=[call_summary(c) for c in run.trace])
    print(f"wrote {path} ({len(run.trace)} calls; open it in a browser)")
    return 0
