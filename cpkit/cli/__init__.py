"""The ``cpkit`` command: one subcommand per module in this package.

Each subcommand module has ``add_parser(subparsers)`` and ``run(args) -> int``; this module only
assembles them and turns errors into one line and exit status 2 (DESIGN.md, "Errors").
"""

from __future__ import annotations

import argparse
import sys
from importlib import import_module

from ..errors import CpkitError

SUBCOMMANDS = ("tile", "cover", "match", "generate", "bench", "render")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="cpkit",
        description="Constraint programming for tiling and edge-matching puzzles.",
        epilog="Run 'cpkit COMMAND --help' for the options of a command.")
    from .. import __version__

    parser.add_argument("--version", action="version", version=f"cpkit {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True
    for name in SUBCOMMANDS:
        import_module(f"{__name__}.{name}").add_parser(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return int(args.run(args) or 0)
    except CpkitError as exc:
        print(f"cpkit: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("cpkit: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
