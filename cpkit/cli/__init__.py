"""The ``cpkit`` command: one subcommand per module in this package.

Each subcommand module has ``add_parser(subparsers)`` and ``run(args) -> int``; this module only
assembles them, turns errors into one line and exit status 2 (docs/architecture.md,
"Conventions"), and guards standard output: a closed pipe (``cpkit match ... | head -1``) or a
full disk ends the run with one line and its own status, never a traceback (``EXIT_STATUSES``).

Only the subcommand being run is imported: the others stand in the parser as their one-line
summary (``SUMMARIES``), which is all ``cpkit --help`` shows of them.  Their modules import the
engines' constants, hence numba and the kernels of every family (about a second on a loaded
machine), which ``cpkit --version`` or a tiling run does not need.
"""

from __future__ import annotations

import argparse
import atexit
import errno
import functools
import os
import signal
import sys
from importlib import import_module

from ..errors import CpkitError
from ..signals import sigterm_as_ctrl_c

#: Each subcommand and its summary (its module's parser takes the summary from here).
SUMMARIES = {
    "tile": "solve a tiling puzzle (polycube definition file)",
    "cover": "solve an exact cover problem in Knuth's dlx1 format",
    "match": "solve an edge-matching puzzle (Eternity II style)",
    "score": "score an edge-matching board: its matched edges",
    "compare": "run several engines on the same puzzles, side by side",
    "generate": "generate puzzle instances",
    "render": "draw a solution of a puzzle to PNG or SVG",
}
SUBCOMMANDS = tuple(SUMMARIES)

#: Commands that are no longer part of the installed ``cpkit``, and where they are now: a
#: script or a note that still runs one gets this line and exit status 2, not argparse's list
#: of the other commands.  Not shown by ``cpkit --help``.
MOVED = {
    "bench": "the benchmark suites are not part of the installed cpkit: run "
             "'python -m benchmarks SUITE' (or 'make bench SUITE=...') from a cpkit checkout",
}

#: The exit statuses of every command (README, ``cpkit --help``).
OUTPUT_FAILED = 74          # sysexits.h EX_IOERR
OUTPUT_CLOSED = 141         # 128 + SIGPIPE: what a shell shows for ``yes | head -1``
CHECKPOINT_NOT_SAVED = 3
EXIT_STATUSES = f"""exit status:
  0    done (also when stopped by --limit or --time-limit: the summary says so)
  1    cpkit render: the requested solution was not found within the time limit
  2    bad input: a file, an option, or a file that cannot be read or written
  {CHECKPOINT_NOT_SAVED}    the result was printed, but the last checkpoint could not be written
       (a warning says why; the file holds the checkpoint written before)
  {OUTPUT_FAILED}   standard output could not be written (a full disk, an I/O error)
  130  interrupted by Ctrl-C or SIGTERM (the summary of what was found is printed)
  {OUTPUT_CLOSED}  standard output was closed before the end (a pipe into head)"""


class OutputFailed(Exception):
    """Standard output cannot be written any more: the run stops (``main``)."""

    def __init__(self, error: OSError):
        super().__init__(error.strerror or str(error))
        self.closed = isinstance(error, BrokenPipeError) or error.errno == errno.EPIPE


class GuardedOutput:
    """``sys.stdout`` while a command runs: a write or flush that fails raises
    ``OutputFailed``, which no engine or callback mistakes for an error of its own and
    ``main`` reports in one line.  The one place where cpkit's printed output meets the
    operating system."""

    def __init__(self, stream):
        self._stream = stream

    def write(self, text: str) -> int:
        try:
            return self._stream.write(text)
        except OSError as exc:
            raise OutputFailed(exc) from None

    def flush(self) -> None:
        try:
            self._stream.flush()
        except OSError as exc:
            raise OutputFailed(exc) from None

    def __getattr__(self, name: str):
        return getattr(self._stream, name)


def command_of(argv: list[str] | None) -> str | None:
    """The subcommand a command line runs (its first word that is not an option), if known."""
    word = _first_word(argv)
    return word if word in SUMMARIES else None


def _first_word(argv: list[str] | None) -> str | None:
    for word in sys.argv[1:] if argv is None else argv:
        if not word.startswith("-"):
            return word
    return None


def build_parser(argv: list[str] | None = None, *, every: bool = False) -> argparse.ArgumentParser:
    """The parser for ``argv``: the full parser of the subcommand it runs (of every one with
    ``every``), the others as their summaries."""
    return _parser(command_of(argv), every)


@functools.lru_cache(maxsize=None)
def _parser(wanted: str | None, every: bool) -> argparse.ArgumentParser:
    """The parser with ``wanted``'s options (every subcommand's with ``every``), built once a
    process (``main`` called again and again in one process, as the tests do, built it each
    time: a hundred options)."""
    parser = argparse.ArgumentParser(
        prog="cpkit",
        description="Constraint programming for tiling and edge-matching puzzles.",
        epilog="Run 'cpkit COMMAND --help' for the options of a command.\n\n" + EXIT_STATUSES,
        formatter_class=argparse.RawDescriptionHelpFormatter)
    from .. import __version__

    parser.add_argument("--version", action="version", version=f"cpkit {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True
    for name, summary in SUMMARIES.items():
        if every or name == wanted:
            import_module(f"{__name__}.{name}").add_parser(sub)
        else:
            sub.add_parser(name, help=summary)
    return parser


def main(argv: list[str] | None = None) -> int:
    terminate = None
    stdout = sys.stdout
    sys.stdout = GuardedOutput(stdout)
    try:
        # Inside the try: a Ctrl-C while the subcommands import numba (about a second) is an
        # interrupted run too, not a traceback.
        if _first_word(argv) in MOVED:
            raise CpkitError(f"cpkit {_first_word(argv)}: {MOVED[_first_word(argv)]}")
        args = build_parser(argv).parse_args(argv)
        terminate = sigterm_as_ctrl_c()
        status = int(args.run(args) or 0)
        sys.stdout.flush()
        return status
    except CpkitError as exc:
        _say(f"cpkit: error: {exc}")
        return 2
    except KeyboardInterrupt:
        _say("cpkit: interrupted")
        return 130
    except OutputFailed as exc:
        _silence(stdout)
        if exc.closed:
            _say("cpkit: standard output was closed (broken pipe): stopped")
            return OUTPUT_CLOSED
        _say(f"cpkit: error: cannot write to standard output: {exc}: stopped")
        return OUTPUT_FAILED
    finally:
        sys.stdout = stdout
        if terminate is not None:
            signal.signal(signal.SIGTERM, terminate)


def _say(line: str) -> None:
    """One line on standard error, if it can still be written."""
    try:
        print(line, file=sys.stderr, flush=True)
    except OSError:
        pass


def _silence(stream) -> None:
    """Point a failed standard output at /dev/null, so that Python's flush at exit finds
    nothing to complain about (it printed "Exception ignored ... BrokenPipeError")."""
    try:
        fd = stream.fileno()
    except (OSError, ValueError, AttributeError):
        return              # not a file (captured by a test)
    null = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(null, fd)
    finally:
        os.close(null)


def command() -> None:
    """The ``cpkit`` program (its console script, and ``python -m cpkit``): ``main``, then an
    exit that skips the interpreter's teardown.

    After a run, Python would spend 0.1 to 0.3 s freeing the modules numba imported, one by one:
    a third of a whole run on a small puzzle.  The exit functions still run (worker pools,
    Dask's client, temporary folders, logging), then the standard streams are flushed and the
    process ends with ``main``'s status.  cpkit closes every file it writes before that point.
    ``main`` itself returns (the tests call it again and again in one process).
    """
    status = main()
    atexit._run_exitfuncs()
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):
            pass
    os._exit(status)


if __name__ == "__main__":
    command()
