"""The `ascsim plan`, `ascsim port` and `ascsim diff` commands (argument parsing only; the work is imported
when a command runs, so `ascsim --help` stays fast)."""

from __future__ import annotations

import argparse

from ..base.errors import ParamRangeError
from ..base.progress import Progress


def _ints(name: str, text: str, counts: tuple[int, ...]) -> tuple[int, ...]:
    try:
        vals = tuple(int(x) for x in text.replace("x", ",").split(","))
    except ValueError:
        raise ParamRangeError(f"plan: --{name} must be integers separated by commas, but got "
                              f"{text!r}") from None
    if len(vals) not in counts:
        forms = " or ".join(str(c) for c in counts)
        raise ParamRangeError(f"plan: --{name} takes {forms} value(s), but got {text!r}")
    return vals


def _finish(plan, problem, args: argparse.Namespace) -> int:
    from ..planner.emit import write_plan

    inputs = problem.random_inputs(args.seed)
    with Progress("plan: verifying (the plan's calls on the engine, then the reference)"):
        v = None if args.no_verify else plan.verify(inputs)
    with Progress("plan: predicting the variants' times"):
        text = plan.report(v)
    print(text)
    if args.out:
        with Progress(f"plan: writing {args.out} (the scenario's data, the kernel)"):
            paths = write_plan(plan, args.out, inputs, text, buffering=args.buffering, sync=args.sync)
        for kind, path in paths.items():
            print(f"wrote {path} ({kind})")
    return 0 if v is None or v.passed else 1


def _cmd_plan_matmul(args: argparse.Namespace) -> int:
    from ..machine.chips import get_chip
    from ..machine.dtypes import get_dtype
    from ..planner import MatmulProblem, plan_matmul

    p = MatmulProblem(get_chip(args.chip).key, args.m, args.n, args.k, get_dtype(args.dtype).name,
                      args.a_layout == "col", args.b_layout == "col", args.bias, args.quant)
    tiles = _ints("tiles", args.tiles, (3,)) if args.tiles else None
    with Progress(f"plan: searching tiles (objective {args.objective})"):
        plan = plan_matmul(p, a_load=args.a_load, b_load=args.b_load, tiles=tiles, objective=args.objective,
                           buffering=args.buffering)
    return _finish(plan, p, args)


def _cmd_plan_conv2d(args: argparse.Namespace) -> int:
    from ..machine.chips import get_chip
    from ..machine.dtypes import get_dtype
    from ..planner import ConvProblem, plan_conv2d
    from ..planner.problems import pads_of

    n, c, h, w = _ints("input", args.input, (4,))
    co, kh, kw = _ints("weight", args.weight, (3,))
    stride = _ints("stride", args.stride, (1, 2))
    dil = _ints("dilation", args.dilation, (1, 2))
    pad = _ints("pad", args.pad, (1, 2, 4))
    p = ConvProblem(get_chip(args.chip).key, n, c, h, w, co, kh, kw, (stride[0], stride[-1]),
                    pads_of(pad[0] if len(pad) == 1 else pad), (dil[0], dil[-1]), get_dtype(args.dtype).name,
                    args.groups)
    tiles = _ints("tiles", args.tiles, (3,)) if args.tiles else None
    with Progress(f"plan: searching tiles (objective {args.objective})"):
        plan = plan_conv2d(p, tiles=tiles, objective=args.objective, buffering=args.buffering)
    return _finish(plan, p, args)


def _cmd_port(args: argparse.Namespace) -> int:
    from ..scenario.port import port_command

    return port_command(args.file, args.to, args.out, quiet=args.quiet)


def _cmd_diff(args: argparse.Namespace) -> int:
    from ..scenario.port import diff_command

    return diff_command(args.a, args.b)


def _common(p: argparse.ArgumentParser) -> None:
    p.add_argument("--chip", default="a2", help="chip key or alias (default a2; `ascsim chips`)")
    p.add_argument("--dtype", default="half", help="operand type: half, bfloat16_t, float, int8_t, int4b_t")
    p.add_argument("--objective", default="time", choices=["time", "balanced", "bytes", "traffic",
                                                          "instructions"],
                   help="what to minimise: the kernel's predicted time (default), bytes + 512 x calls, bytes "
                   "first (traffic), or calls first")
    p.add_argument("--buffering", default="double", choices=["double", "single"],
                   help="plan.cpp with ping-pong L1 / L0 buffers (default) or one buffer per level")
    p.add_argument("--sync", default="flags", choices=["flags", "barriers"],
                   help="plan.cpp ordered by SetFlag / WaitFlag (default) or a PipeBarrier<PIPE_ALL> per "
                   "call")
    p.add_argument("--tiles", metavar="MT,NT,KT", help="force the L0 tile (mt, nt, kt)")
    p.add_argument("-o", "--out", metavar="DIR", help="write plan.toml (scenario), data/*.npy, plan.cpp and "
                   "report.txt into DIR")
    p.add_argument("--no-verify", action="store_true", help="skip the verification run")
    p.add_argument("--seed", type=int, default=0, help="seed of the verification inputs (default 0)")


def add_commands(sub: argparse._SubParsersAction) -> None:
    """Register `plan conv2d|matmul`, `port` and `diff` on the `ascsim` parser."""
    pl = sub.add_parser("plan", help="choose tiles and loads for a conv2d or matmul, emit the calls "
                        "(scenario + C++), report, and verify against torch / numpy")
    psub = pl.add_subparsers(dest="problem", metavar="problem", required=True,
                             help="matmul or conv2d (`ascsim plan matmul --help`)")
    m = psub.add_parser("matmul", help="C (m x n) = A (m x k) . B (k x n)")
    _common(m)
    for d in ("m", "n", "k"):
        m.add_argument(f"--{d}", type=int, required=True, help=f"{d.upper()} (any positive size)")
    m.add_argument("--a-layout", choices=["row", "col"], default="row", help="A in GM row-major (m x k) or "
                   "column-major (stored as k x m)")
    m.add_argument("--b-layout", choices=["row", "col"], default="row", help="B in GM row-major (k x n) or "
                   "column-major (stored as n x k)")
    m.add_argument("--a-load", default="auto", help="force the A load: load2d, transpose, load3d, load2dv2")
    m.add_argument("--b-load", default="auto", help="force the B load")
    m.add_argument("--bias", action="store_true", help="add a bias vector through the BiasTable")
    m.add_argument("--quant", choices=["deqf16"], help="quantise the output in Fixpipe")
    m.set_defaults(func=_cmd_plan_matmul)
    c = psub.add_parser("conv2d", help="y = conv2d(x, w), img2col through Load3D")
    _common(c)
    c.add_argument("--input", required=True, metavar="N,C,H,W", help="input shape")
    c.add_argument("--weight", required=True, metavar="CO,KH,KW", help="output channels and kernel size")
    c.add_argument("--stride", default="1", metavar="S|SH,SW")
    c.add_argument("--pad", default="0", metavar="P|PH,PW|L,R,T,B", help="padding (4 values: padList "
                   "left, right, top, bottom)")
    c.add_argument("--dilation", default="1", metavar="D|DH,DW")
    c.add_argument("--groups", type=int, default=1, help="only 1 (grouped / depthwise are not planned)")
    c.set_defaults(func=_cmd_plan_conv2d)
    po = sub.add_parser("port", help="rewrite a scenario for another chip, run both, compare per call and "
                        "the final GM outputs")
    po.add_argument("file", help="scenario file")
    po.add_argument("--to", required=True, help="target chip")
    po.add_argument("-o", "--out", help="write the ported scenario here (default: FILE stem + _<chip>.toml)")
    po.add_argument("-q", "--quiet", action="store_true", help="only the verdict")
    po.set_defaults(func=_cmd_port)
    di = sub.add_parser("diff", help="run two scenarios and compare them call by call (first differing byte, "
                        "explained)")
    di.add_argument("a", help="first scenario")
    di.add_argument("b", help="second scenario")
    di.set_defaults(func=_cmd_diff)

