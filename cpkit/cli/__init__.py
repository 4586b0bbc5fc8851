"""The ``cpkit`` command: one subcommand per module in this package.

Each subcommand module has ``add_parser(subparsers)`` and ``run(args) -> int``; this module only
assembles them and turns errors into one line and exit status 2 (DESIGN.md, "Errors").
"""

from __future__ import annotations

import argparse
import signal
import sys
import threading
from importlib import import_module

from ..errors import CpkitError

SUBCOMMANDS = ("tile", "cover", "match", "score", "generate", "bench", "render")


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
    terminate = None
    try:
        # Inside the try: a Ctrl-C while the subcommands import numba (about a second) is an
        # interrupted run too, not a traceback.
        args = build_parser().parse_args(argv)
        terminate = _sigterm_as_ctrl_c()
        return int(args.run(args) or 0)
    except CpkitError as exc:
        print(f"cpkit: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("cpkit: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0
    finally:
        if terminate is not None:
            signal.signal(signal.SIGTERM, terminate)


def _sigterm_as_ctrl_c():
    """Make SIGTERM (``kill``, ``timeout``, a batch scheduler) stop a run as Ctrl-C does: the
    search reports what it found, exit status 130.  Returns the handler to restore."""
    if threading.current_thread() is not threading.main_thread():
        return None
    previous = signal.getsignal(signal.SIGTERM)
    if previous is signal.SIG_IGN:
        return None
    signal.signal(signal.SIGTERM, signal.default_int_handler)
    return previous


if __name__ == "__main__":
    sys.exit(main())
