"""`ascsim run|explain|draw kernel.cpp ...`: the command-line side of the C++ front-end."""

from __future__ import annotations

import argparse
import re
import sys
import tempfile
import warnings
from pathlib import Path

from ..base.errors import AscsimError
from ..engine.sync import SyncWarning, format_reports
from ..frontend.kernel import Kernel, KernelRun, parse_gm
from ..frontend.options import KERNEL_SUFFIXES, add_kernel_options, is_kernel  # noqa: F401 (re-exported)


def _defines(items: list[str]) -> dict[str, str]:
    out = {}
    for d in items:
        k, _, v = d.partition("=")
        out[k] = v if v else "1"
    return out


def _template(s: str) -> dict[str, str]:
    out = {}
    for part in filter(None, (x.strip() for x in s.split(","))):
        k, sep, v = part.partition("=")
        if not sep or not k.strip() or not v.strip():
            raise AscsimError(f"--template {s}: expected K=V,K=V (e.g. M=30,N=40,K=70)")
        out[k.strip()] = v.strip()
    return out


def run_kernel(args: argparse.Namespace, quiet: bool = True) -> KernelRun:
    kernel = Kernel(args.file, args.chip, _defines(args.defines))
    gm = dict(parse_gm(s) for s in args.gm)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        run = kernel.run(gm=gm, template=_template(args.template), entry=args.entry, strict=args.strict)
    shown = set()
    for w in caught:  # hazards the instructions reported (sync findings are listed after the run)
        msg = str(w.message)
        if msg not in shown and not issubclass(w.category, SyncWarning):
            shown.add(msg)
            print(warning_line(msg), file=sys.stderr)
    for line in format_reports(run.sync_reports):
        print(warning_line(line), file=sys.stderr)
    return run


def warning_line(msg: str) -> str:
    """`file:line[:col]: text` -> `file:line[:col]: warning: text`, like a compiler's warning line."""
    m = re.match(r"^([^\s:]+\.\w+:\d+(?::\d+)?): (.*)$", msg, re.S)
    return f"{m.group(1)}: warning: {m.group(2)}" if m else f"warning: {msg}"


def cmd_run(args: argparse.Namespace) -> int:
    run = run_kernel(args)
    if not args.quiet:
        for call in run.trace:
            print(_call_summary(call))
    for p in run.save_outputs():
        print(f"saved {p}")
    if args.emit_scenario:
        from ..frontend.emit import write_scenario

        print(f"wrote {write_scenario(run, args.emit_scenario)}")
    return 0


def _call_summary(call) -> str:  # noqa: ANN001
    head = f"[{call.index}] {call.name} ({call.loc.short})"
    rep = call.report
    if call.name == "SetValue":
        return f"{head}: one element written by the scalar unit"
    if rep is None:
        return f"{head}: registers set" if call.name.startswith("Set") else head
    if not rep.bytes_written and not rep.bytes_read:
        return f"{head}: NOP"
    extra = f", {len(rep.hazards)} hazard(s)" if rep.hazards else ""
    return f"{head}: wrote {rep.bytes_written:,} B, read {rep.bytes_read:,} B{extra}"


def traced_scenario(args: argparse.Namespace, workdir: Path):
    """Run the kernel and load its trace as a scenario (for explain / draw); returns (scenario, call)."""
    from ..frontend.emit import write_scenario
    from ..scenario import load_scenario

    run = run_kernel(args)
    n = len(run.trace)
    if not 0 <= args.call < n:
        raise AscsimError(
            f"{Path(args.file).name}: call {args.call} does not exist (the kernel made {n} "
            "instruction and register calls; see `ascsim run`)"
        )
    return load_scenario(write_scenario(run, workdir / "trace.toml")), run.trace[args.call]


def cmd_explain(args: argparse.Namespace) -> int:
    from ..scenario import run_scenario
    from ..view.explain import explain_step

    with tempfile.TemporaryDirectory() as d:
        sc, call = traced_scenario(args, Path(d))
        run = run_scenario(sc, upto=args.call)
        print(f"call {args.call}: {call.name} at {call.loc.short}")
        print(explain_step(run, args.call, dst_index=args.dst, fractal=args.fractal, part=args.part))
    return 0


def cmd_draw(args: argparse.Namespace) -> int:
    from ..scenario import run_scenario
    from ..view.draw import draw_step

    with tempfile.TemporaryDirectory() as d:
        sc, _ = traced_scenario(args, Path(d))
        run = run_scenario(sc, upto=args.call)
        draw_step(run, args.call, args.out)
    print(f"wrote {args.out}")
    return 0
