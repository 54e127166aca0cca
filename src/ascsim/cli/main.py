"""The `ascsim` command."""

from __future__ import annotations

import argparse
import os
import sys
import typing

from ..base.errors import AscsimError, one_line


def _cmd_demo(args: argparse.Namespace) -> int:
    from .demo import run_demo

    return run_demo()


def _cmd_chips(args: argparse.Namespace) -> int:
    from ..machine.chips import format_chips_table, get_chip

    if args.chip:
        chip = get_chip(args.chip)
        print(f"{chip.name} (key {chip.key}; aliases: {', '.join(chip.aliases)})")
        print(f"  L0A {chip.l0a_format}, L0B {chip.l0b_format}, L0C {chip.l0c_format}")
        for mem, size in chip.memory_sizes.items():
            print(f"  {mem:10} {size:>9,d} B")
        for api, sup in chip.apis.items():
            for (s, d), dts in sup.paths.items():
                print(f"  {api:26} {s}->{d}: {', '.join(sorted(dts))}")
        return 0
    print(format_chips_table())
    return 0


def _run_file(path: str, upto: int | None = None, on_step=None):
    """Run a scenario file, printing each HazardWarning / DocConflictWarning as one `warning:` line that
    names the file and the step (instead of Python's warnings format pointing at the launcher)."""
    import warnings

    from ..scenario import ScenarioWarning, load_scenario, run_scenario

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        sc = load_scenario(path)
        seen = 0

        def flush(where: str) -> None:
            """Each warning as one line; ScenarioWarnings (from building the tensors) carry their place."""
            nonlocal seen
            for w in caught[seen:]:
                at = "" if isinstance(w.message, ScenarioWarning) or not where else f"{where}: "
                print(f"warning: {sc.path.name}: {at}{one_line(str(w.message))}", file=sys.stderr)
            seen = len(caught)

        def step_done(res) -> None:
            flush(f"{res.step.line} ({res.step.call})")
            if on_step is not None:
                on_step(res)

        flush("")  # from loading (params constructors)
        run = run_scenario(sc, upto=upto, on_step=step_done)
        flush("")
    return sc, run



def _notes(report) -> list[str]:
    from ..view.explain import reading_lines

    return reading_lines(report.notes) if report is not None else []


def _cmd_run(args: argparse.Namespace) -> int:
    from .program import is_program

    if is_program(args.file):
        from .program import cmd_run

        return cmd_run(args)
    from ..scenario import load_scenario, save_outputs

    n = len(load_scenario(args.file).steps)
    bar = n >= 50 and not args.quiet and sys.stderr.isatty()

    def on_step(res) -> None:
        if not args.quiet:
            print(res.summary)
            for line in _notes(res.report):
                print(f"  {line}")
        if bar:
            done = res.step.index + 1
            sys.stderr.write(f"\r[{'#' * (30 * done // n):30}] {done}/{n} steps")
            sys.stderr.flush()

    try:
        sc, run = _run_file(args.file, on_step=on_step)
    except AscsimError as e:  # a failed [[expect]]: draw the differing fractals next to the outputs
        if getattr(e, "result", None) is not None:
            from pathlib import Path

            Path(args.out).mkdir(parents=True, exist_ok=True)
            pic = e.result.draw(Path(args.out) / f"{Path(args.file).stem}.expect.svg")
            print(f"wrote {pic} (the differing fractals)", file=sys.stderr)
        raise
    if bar:
        sys.stderr.write("\n")
    for res in run.expects:
        print(f"expect: {res.message()}")
    names = sc.save
    if args.save:
        from ..scenario import save_target_problem

        names = {name: f"{name}.npy" for name in args.save}
        unknown = [k for k in names if k not in run.tensors]
        if unknown:
            print(f"ascsim: --save: no tensor named {unknown[0]!r} (known: {', '.join(run.tensors)})",
                  file=sys.stderr)
            return 2
        bad = [(k, save_target_problem(t)) for k, t in names.items() if save_target_problem(t)]
        if bad:
            print(f"ascsim: --save: tensor {bad[0][0]!r} cannot be saved as {bad[0][0]}.npy: {bad[0][1]}",
                  file=sys.stderr)
            return 2
    for path in save_outputs(run, args.out, names):
        print(f"saved {path}")
    return 0


def _pick_step(cmd: str, path: str, step: int | None):
    """Run the file up to `step`; without --step, the one step that moves data (an error naming the
    candidates when there are several)."""
    from ..base.errors import ParamRangeError

    if step is not None:
        return _run_file(path, upto=step)[1], step
    sc, run = _run_file(path)
    moves = [r.step.index for r in run.results if r.report is not None and r.report.plan is not None]
    if len(moves) == 1:
        return run, moves[0]
    if not moves:
        raise ParamRangeError(f"{cmd}: {sc.path.name} has no step that moves data; nothing to {cmd}")
    raise ParamRangeError(f"{cmd}: {sc.path.name} has {len(moves)} steps that move data "
                          f"({', '.join(map(str, moves))}); choose one with --step N")


def _cmd_explain(args: argparse.Namespace) -> int:
    from ..view.explain import explain_step
    from .program import is_program

    if is_program(args.file):
        from .program import cmd_explain

        return cmd_explain(_call_arg(args))
    run, step = _pick_step("explain", args.file, args.step)
    print(explain_step(run, step, dst_index=args.dst, fractal=args.fractal, part=args.part))
    return 0


def _cmd_draw(args: argparse.Namespace) -> int:
    from ..view.draw import draw_step
    from .program import is_program

    if is_program(args.file):
        from .program import cmd_draw

        return cmd_draw(_call_arg(args))
    from ..base.progress import Progress

    run, step = _pick_step("draw", args.file, args.step)
    with Progress(f"draw: rendering {args.out}"):  # a whole-map picture renders for seconds
        draw_step(run, step, args.out, region=args.region, labels=args.labels, focus=args.focus,
                  cumulative=args.cumulative)
    print(f"wrote {args.out}")
    for line in _notes(run.results[step].report):
        print(line)
    return 0


def _cmd_explore(args: argparse.Namespace) -> int:
    from ..view.explore import write_explorer
    from .program import is_program

    if is_program(args.file):
        from .program import cmd_explore

        return cmd_explore(args)
    _, run = _run_file(args.file)
    path = write_explorer(run, args.out, region=args.region)
    print(f"wrote {path} ({len(run.results)} steps; open it in a browser)")
    return 0


def _call_arg(args: argparse.Namespace) -> argparse.Namespace:
    """Programs take --call N (the N-th instruction or register call the program made)."""
    if args.call is None:
        args.call = args.step
    if args.call is None:
        raise AscsimError(f"{args.file}: give --call N (the N-th call the kernel makes; `ascsim run` lists "
                          "them)")
    return args


def _cmd_cpp(args: argparse.Namespace) -> int:
    from ..scenario import load_scenario
    from ..scenario.cpp import scenario_to_cpp, step_to_cpp

    sc = load_scenario(args.file)
    if args.kernel:
        from ..scenario.cpp import scenario_kernel

        print(scenario_kernel(sc), end="")
        return 0
    print(scenario_to_cpp(sc) if args.step is None else step_to_cpp(sc, args.step))
    return 0


class _Parser(argparse.ArgumentParser):
    """argparse with ascsim's one-line errors (`ascsim: run: ...`) instead of a usage block; subcommand
    parsers inherit it (add_subparsers uses the parent's class)."""

    def error(self, message: str) -> typing.NoReturn:
        sub = self.prog.removeprefix("ascsim").strip()
        head = f"ascsim: {sub}: " if sub else "ascsim: "
        self.exit(2, f"{head}{one_line(message).strip()} (see `{self.prog} --help`)\n")


def _add_one_step(p: argparse.ArgumentParser) -> None:
    """The arguments naming one step of a file: explain and draw look at a single step."""
    p.add_argument("file", help="scenario file or kernel file")
    p.add_argument("--step", type=int, help="step index (the scenario runs up to it); optional when only "
                   "one step moves data")
    p.add_argument("--call", type=int, metavar="N", help="kernels: the N-th instruction or register call")


def _version_line() -> str:
    """`ascsim --version`: the package's version and the Python it runs on (what a bug report needs first;
    the compiler's identity is in `ascsim demo`'s build line, finding it costs a subprocess)."""
    import platform

    from .. import __version__

    return f"ascsim {__version__} (Python {platform.python_version()}, {sys.executable})"


def build_parser() -> argparse.ArgumentParser:
    p = _Parser(
        prog="ascsim",
        description="Run Huawei Ascend C cube data-load instructions (LoadData family, Mmad) "
                    "bit-exactly on a CPU.",
    )
    p.add_argument("--debug", action="store_true", help="show tracebacks")
    p.add_argument("--version", action="version", version=_version_line())
    sub = p.add_subparsers(dest="command", required=True)
    d = sub.add_parser("demo", help="run conv2d layers through Load3D + Mmad on the A2 and 950 profiles")
    d.set_defaults(func=_cmd_demo)
    c = sub.add_parser("chips", help="print the chip profiles and what each supports")
    c.add_argument("chip", nargs="?", help="one chip (name or alias) in detail")
    c.set_defaults(func=_cmd_chips)
    from .program import add_program_options

    r = sub.add_parser("run", help="execute a scenario file (.toml or .json) or a kernel (.cpp, .asc) and "
                                   "print a summary per step / call")
    r.add_argument("file", help="scenario file, or an Ascend C program (.cpp, .asc; `-- ARGS` for its main)")
    r.add_argument("--out", default=".", help="directory for saved tensors (default: current directory)")
    r.add_argument("--save", nargs="*", metavar="TENSOR", help="tensors to save as TENSOR.npy "
                   "(default: the file's [save] table)")
    r.add_argument("-q", "--quiet", action="store_true", help="print only errors and saved files")
    r.add_argument("--emit-scenario", metavar="OUT.toml", help="programs: write the traced run as a scenario")
    add_program_options(r)
    r.set_defaults(func=_cmd_run)
    cp = sub.add_parser("cpp", help="print the Ascend C statements (params struct + call) of scenario steps")
    cp.add_argument("file", help="scenario file (.toml or .json)")
    cp.add_argument("--step", type=int, metavar="N", help="only step N (0-based; default: all steps)")
    cp.add_argument("--kernel", action="store_true", help="a complete kernel file (runs with `ascsim run`)")
    cp.set_defaults(func=_cmd_cpp)
    e = sub.add_parser("explain", help="say where each destination element of one step came from")
    _add_one_step(e)
    g = e.add_mutually_exclusive_group()
    g.add_argument("--dst", type=int, metavar="INDEX",
                   help="one destination element (index in the dst operand)")
    g.add_argument("--fractal", type=int, metavar="F", help="every element of 512-B destination fractal F")
    e.add_argument("--part", choices=["data", "index", "scales"], default="data",
                   help="the second region of LoadDataWithSparse (index) or Load2DMX (scales); --dst / "
                        "--fractal then count its bytes / 128-B or 32-B fractals")
    add_program_options(e)
    e.set_defaults(func=_cmd_explain)
    w = sub.add_parser("draw", help="draw one step (source fractals -> destination fractals) as .svg or .png")
    _add_one_step(w)
    w.add_argument("-o", "--out", required=True, help="output picture (.svg or .png)")
    w.add_argument("--region", metavar="FRACTALS", help="destination fractals to draw, e.g. 0-12 or 0,3,5-7, "
                   "or all (default: all when labels stay legible, else the first ones that fit)")
    w.add_argument("--labels", default="auto",
                   choices=["auto", "source", "logical", "value", "index", "none"],
                   help="cell labels: source (h,w)/(row,col), logical img2col (m,k), stored value, source "
                        "element index (default: auto, by cell size)")
    w.add_argument("--focus", metavar="SEL", help="outline some destination elements and the source they "
                   "read: m=N, k=N (img2col row / column), dst=N, fractal=N")
    w.add_argument("--cumulative", action="store_true", help="tint what earlier steps wrote, per step")
    add_program_options(w)
    w.set_defaults(func=_cmd_draw)
    x = sub.add_parser("explore", help="write one self-contained HTML page to explore every step "
                       "(zoom, pan, pick a region; hover an element: what it read / what read it)")
    x.add_argument("file", help="scenario file, or an Ascend C kernel-only file (its traced run, one entry "
                   "per call, as --emit-scenario writes it)")
    x.add_argument("-o", "--out", required=True, help="output page (.html)")
    x.add_argument("--region", metavar="FRACTALS", help="destination fractals per step (as draw --region; "
                   "default: all)")
    add_program_options(x)
    x.set_defaults(func=_cmd_explore)
    from .plan import add_commands  # plan / port / diff (issue 12)

    add_commands(sub)
    from .timeline import add_command as add_timeline  # issue 20

    add_timeline(sub, _run_file)
    return p


def main(argv: list[str] | None = None) -> int:
    from .program import split_program_args

    argv, program_args = split_program_args(list(sys.argv[1:] if argv is None else argv))
    args = build_parser().parse_args(argv)
    args.program_args = program_args
    if args.debug:  # --debug shows the whole traceback, ascsim's own frames included (base.errors.trim)
        from ..base.errors import TRACEBACK_ENV

        os.environ[TRACEBACK_ENV] = "full"
    try:
        return int(args.func(args))
    except BrokenPipeError:  # `ascsim chips | head`: the reader left; not an error worth a traceback
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # python docs' SIGPIPE recipe
        return 0
    except AscsimError as e:
        if args.debug:
            raise
        # a compile error is the compiler's own output, first error first; every other error is one line,
        # `file:line: message` when it has a source line (the build module is loaded only for programs)
        build = sys.modules.get("ascsim.program.build")
        if build is not None and isinstance(e, build.BuildError) and e.output:
            print(f"ascsim: {one_line(e.message)}:", file=sys.stderr)
            print(e.output, file=sys.stderr)
            return 2
        msg = one_line(str(e))
        print(msg if _located(msg) else f"ascsim: {msg}", file=sys.stderr)
        return 2
    except OSError as e:  # a path the user gave (draw -o, explore -o) that cannot be written
        if args.debug:
            raise
        print(f"ascsim: {e.filename or args.command}: {e.strerror or e}", file=sys.stderr)
        return 2
    except Exception as e:  # noqa: BLE001 - an ascsim bug: still one line (--debug shows the traceback)
        if args.debug:
            raise
        from ..scenario import internal_error

        print(f"ascsim: {internal_error(args.command, e)} (rerun with --debug for the traceback)",
              file=sys.stderr)
        return 2


def _located(msg: str) -> bool:
    """Does the message start with `file.ext:line[:col]:` (an error the C++ front-end located)?"""
    import re

    return re.match(r"^[^\s:]+\.\w+:\d+(:\d+)?: ", msg) is not None

