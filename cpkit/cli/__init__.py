"""The ``cpkit`` command: one subcommand per module in this package.

Each subcommand module has ``add_parser(subparsers)`` and ``run(args) -> int``; this module only
assembles them and turns errors into one line and exit status 2 (DESIGN.md, "Errors").

Only the subcommand being run is imported: the others stand in the parser as their one-line
summary (``SUMMARIES``), which is all ``cpkit --help`` shows of them.  Their modules import the
engines' constants, hence numba and the kernels of every family (about a second on a loaded
machine), which ``cpkit --version`` or a tiling run does not need.
"""

from __future__ import annotations

import argparse
import signal
import sys
import threading
from importlib import import_module

from ..errors import CpkitError

#: Each subcommand and its summary (its module's parser takes the summary from here).
SUMMARIES = {
    "tile": "solve a tiling puzzle (polycube definition file)",
    "cover": "solve an exact cover problem in Knuth's dlx1 format",
    "match": "solve an edge-matching puzzle (Eternity II style)",
    "score": "score an edge-matching board: its matched edges",
    "generate": "generate puzzle instances",
    "bench": "run a benchmark suite and record the results",
    "render": "draw a solution of a puzzle to PNG or SVG",
}
SUBCOMMANDS = tuple(SUMMARIES)


def command_of(argv: list[str] | None) -> str | None:
    """The subcommand a command line runs (its first word that is not an option), if known."""
    for word in sys.argv[1:] if argv is None else argv:
        if not word.startswith("-"):
            return word if word in SUMMARIES else None
    return None


def build_parser(argv: list[str] | None = None, *, every: bool = False) -> argparse.ArgumentParser:
    """The parser for ``argv``: the full parser of the subcommand it runs (of every one with
    ``every``), the others as their summaries."""
    parser = argparse.ArgumentParser(
        prog="cpkit",
        description="Constraint programming for tiling and edge-matching puzzles.",
        epilog="Run 'cpkit COMMAND --help' for the options of a command.")
    from .. import __version__

    parser.add_argument("--version", action="version", version=f"cpkit {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True
    wanted = command_of(argv)
    for name, summary in SUMMARIES.items():
        if every or name == wanted:
            import_module(f"{__name__}.{name}").add_parser(sub)
        else:
            sub.add_parser(name, help=summary)
    return parser


def main(argv: list[str] | None = None) -> int:
    terminate = None
    try:
        # Inside the try: a Ctrl-C while the subcommands import numba (about a second) is an
        # interrupted run too, not a traceback.
        args = build_parser(argv).parse_args(argv)
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
