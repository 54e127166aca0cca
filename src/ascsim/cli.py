"""The `ascsim` command."""

from __future__ import annotations

import argparse
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


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="ascsim",
        description="Run Huawei Ascend C cube data-load instructions (LoadData family, Mmad) bit-exactly on a CPU.",
    )
    p.add_argument("--debug", action="store_true", help="show tracebacks")
    sub = p.add_subparsers(dest="command", required=True)
    d = sub.add_parser("demo", help="run conv2d layers through Load3D + Mmad on the A2 and 950 profiles")
    d.set_defaults(func=_cmd_demo)
    c = sub.add_parser("chips", help="print the chip profiles and what each supports")
    c.add_argument("chip", nargs="?", help="one chip (name or alias) in detail")
    c.set_defaults(func=_cmd_chips)
    return p


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return int(args.func(args))
    except AscsimError as e:
        if args.debug:
            raise
        print(f"ascsim: {e}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
