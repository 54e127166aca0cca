"""The `ascsim` command."""

from __future__ import annotations

import argparse
import os
import sys

from .errors import AscsimError


def _cmd_demo(args: argparse.Namespace) -> int:
    from .demo import run_demo

    return run_demo()


def _cmd_chips(args: argparse.Namespace) -> int:
    from .chips import format_chips_table, get_chip

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


def _cmd_run(args: argparse.Namespace) -> int:
    from .frontend.commands import cmd_run, is_kernel
    from .scenario import load_scenario, run_scenario, save_outputs

    if is_kernel(args.file):
        return cmd_run(args)

    sc = load_scenario(args.file)
    n = len(sc.steps)
    bar = n >= 50 and not args.quiet and sys.stderr.isatty()

    def on_step(res) -> None:
        if not args.quiet:
            print(res.summary)
        if bar:
            done = res.step.index + 1
            sys.stderr.write(f"\r[{'#' * (30 * done // n):30}] {done}/{n} steps")
            sys.stderr.flush()

    run = run_scenario(sc, on_step=on_step)
    if bar:
        sys.stderr.write("\n")
    names = sc.save
    if args.save:
        names = {name: f"{name}.npy" for name in args.save}
        unknown = [k for k in names if k not in run.tensors]
        if unknown:
            print(f"ascsim: --save: no tensor named {unknown[0]!r} (known: {', '.join(run.tensors)})",
                  file=sys.stderr)
            return 2
    for path in save_outputs(run, args.out, names):
        print(f"saved {path}")
    return 0


def _cmd_explain(args: argparse.Namespace) -> int:
    from .explain import explain_step
    from .frontend.commands import cmd_explain, is_kernel
    from .scenario import load_scenario, run_scenario

    if is_kernel(args.file):
        return cmd_explain(_call_arg(args))
    _step_arg(args)

    run = run_scenario(load_scenario(args.file), upto=args.step)
    print(explain_step(run, args.step, dst_index=args.dst, fractal=args.fractal, part=args.part))
    return 0


def _cmd_draw(args: argparse.Namespace) -> int:
    from .draw import draw_step
    from .frontend.commands import cmd_draw, is_kernel
    from .scenario import load_scenario, run_scenario

    if is_kernel(args.file):
        return cmd_draw(_call_arg(args))
    _step_arg(args)

    run = run_scenario(load_scenario(args.file), upto=args.step)
    draw_step(run, args.step, args.out)
    print(f"wrote {args.out}")
    return 0


def _call_arg(args: argparse.Namespace) -> argparse.Namespace:
    """Kernel files take --call N (the N-th instruction or register call the kernel made)."""
    if args.call is None:
        args.call = args.step
    if args.call is None:
        raise AscsimError(f"{args.file}: give --call N (the N-th call the kernel makes; `ascsim run` lists "
                          "them)")
    return args


def _step_arg(args: argparse.Namespace) -> None:
    if args.step is None:
        raise AscsimError(f"{args.file}: give --step N")


def _cmd_cpp(args: argparse.Namespace) -> int:
    from .cpp import scenario_to_cpp, step_to_cpp
    from .scenario import load_scenario

    sc = load_scenario(args.file)
    if args.kernel:
        from .frontend.emit import scenario_kernel

        print(scenario_kernel(sc), end="")
        return 0
    print(scenario_to_cpp(sc) if args.step is None else step_to_cpp(sc, args.step))
    return 0


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="ascsim",
        description="Run Huawei Ascend C cube data-load instructions (LoadData family, Mmad) "
                    "bit-exactly on a CPU.",
    )
    p.add_argument("--debug", action="store_true", help="show tracebacks")
    sub = p.add_subparsers(dest="command", required=True)
    d = sub.add_parser("demo", help="run conv2d layers through Load3D + Mmad on the A2 and 950 profiles")
    d.set_defaults(func=_cmd_demo)
    c = sub.add_parser("chips", help="print the chip profiles and what each supports")
    c.add_argument("chip", nargs="?", help="one chip (name or alias) in detail")
    c.set_defaults(func=_cmd_chips)
    from .frontend.commands import add_kernel_options

    r = sub.add_parser("run", help="execute a scenario file (.toml or .json) or a kernel (.cpp, .asc) and "
                                   "print a summary per step / call")
    r.add_argument("file", help="scenario file or Ascend C kernel file")
    r.add_argument("--out", default=".", help="directory for saved tensors (default: current directory)")
    r.add_argument("--save", nargs="*", metavar="TENSOR", help="tensors to save as TENSOR.npy "
                   "(default: the file's [save] table)")
    r.add_argument("-q", "--quiet", action="store_true", help="print only errors and saved files")
    r.add_argument("--emit-scenario", metavar="OUT.toml", help="kernels: write the traced run as a scenario")
    add_kernel_options(r)
    r.set_defaults(func=_cmd_run)
    cp = sub.add_parser("cpp", help="print the Ascend C statements (params struct + call) of scenario steps")
    cp.add_argument("file", help="scenario file (.toml or .json)")
    cp.add_argument("--step", type=int, metavar="N", help="only step N (0-based; default: all steps)")
    cp.add_argument("--kernel", action="store_true", help="a complete kernel file (runs with `ascsim run`)")
    cp.set_defaults(func=_cmd_cpp)
    e = sub.add_parser("explain", help="say where each destination element of one step came from")
    e.add_argument("file", help="scenario file or kernel file")
    e.add_argument("--step", type=int, help="step index (the scenario runs up to it)")
    e.add_argument("--call", type=int, metavar="N", help="kernels: the N-th instruction or register call")
    g = e.add_mutually_exclusive_group()
    g.add_argument("--dst", type=int, metavar="INDEX",
                   help="one destination element (index in the dst operand)")
    g.add_argument("--fractal", type=int, metavar="F", help="every element of 512-B destination fractal F")
    e.add_argument("--part", choices=["data", "index", "scales"], default="data",
                   help="the second region of LoadDataWithSparse (index) or Load2DMX (scales); --dst / "
                        "--fractal then count its bytes / 128-B or 32-B fractals")
    add_kernel_options(e)
    e.set_defaults(func=_cmd_explain)
    w = sub.add_parser("draw", help="draw one step (source fractals -> destination fractals) as .svg or .png")
    w.add_argument("file", help="scenario file or kernel file")
    w.add_argument("--step", type=int, help="step index (the scenario runs up to it)")
    w.add_argument("--call", type=int, metavar="N", help="kernels: the N-th instruction or register call")
    w.add_argument("-o", "--out", required=True, help="output picture (.svg or .png)")
    add_kernel_options(w)
    w.set_defaults(func=_cmd_draw)
    return p


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return int(args.func(args))
    except BrokenPipeError:  # `ascsim chips | head`: the reader left; not an error worth a traceback
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # python docs' SIGPIPE recipe
        return 0
    except AscsimError as e:
        if args.debug:
            raise
        from .frontend.source import FrontendError

        # a located kernel error reads like a compiler's: file:line:col: message
        print(str(e) if isinstance(e, FrontendError) or _located(str(e)) else f"ascsim: {e}", file=sys.stderr)
        return 2


def _located(msg: str) -> bool:
    """Does the message start with `file.ext:line[:col]:` (an error the C++ front-end located)?"""
    import re

    return re.match(r"^[^\s:]+\.\w+:\d+(:\d+)?: ", msg) is not None


if __name__ == "__main__":
    sys.exit(main())
