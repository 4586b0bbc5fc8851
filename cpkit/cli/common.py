"""Option helpers shared by the subcommands."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any, Callable

from ..engines.options import positive_int, whole_number_at_least  # noqa: F401
from ..result import INTERRUPTED, Result


class HelpFormatter(argparse.HelpFormatter):
    """Shows an option's default only when it has a meaningful one."""

    def _get_help_string(self, action):
        text = action.help or ""
        if action.default not in (None, False, argparse.SUPPRESS) and "%(default)" not in text \
                and action.option_strings:
            text += " (default: %(default)s)"
        return text


def non_negative_int(text: str) -> int:
    return whole_number_at_least(text, 0)


def positive_float(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number of seconds, got {text!r}") from None
    if not value > 0:
        raise argparse.ArgumentTypeError(f"must be positive, got {value}")
    return value


def add_run_options(p: argparse.ArgumentParser) -> None:
    """--limit, --time-limit, --count-only, --json: common to every solving command."""
    p.add_argument("--count-only", action="store_true",
                   help="count solutions without printing them")
    p.add_argument("--limit", type=positive_int, metavar="N",
                   help="stop after N solutions")
    p.add_argument("--time-limit", type=positive_float, metavar="S",
                   help="stop after S seconds (the count so far is reported); a split "
                   "run's planning counts, compiling the engines does not")
    p.add_argument("--json", action="store_true",
                   help="end the output with one JSON summary line")


def announce_compiles(enabled: bool = True) -> None:
    """Tell the user on stderr when numba is compiling (a cold cache), so a pause is explained;
    and load numba without its BLAS probe (``jit.skip_blas_probe``): a command runs only cpkit's
    kernels."""
    from ..engines.runtime import jit

    jit.skip_blas_probe = True
    jit.on_slow_compile = (lambda msg: print(f"cpkit: {msg}", file=sys.stderr, flush=True)) \
        if enabled else None


def node_units(result: Result) -> tuple[str, str]:
    """What the summary line calls ``result``'s nodes, and their rate: CP-SAT's ``nodes`` in
    the JSON is its branch count, not a placement."""
    return ("CP-SAT branches", "branches/s") if result.engine == "cpsat" else ("nodes", "nodes/s")


def nodes_phrase(result: Result) -> str:
    """The search effort in the summary line: ``1,024 nodes``, ``1,024 CP-SAT branches``."""
    return f"{result.stats.nodes:,} {node_units(result)[0]}"


def planning_phrase(result: Result) -> str:
    """A split run's planning in the summary line (``, planning 2.95 s``; nothing for a run in
    one process): the tree-size estimates, which spend the time limit too and would otherwise
    leave a time-limited run's search seconds unexplained.  ``plan_seconds`` holds the
    frontier search as well, which the search seconds count already."""
    extra = result.stats.extra
    if "plan_seconds" not in extra:
        return ""
    return f", planning {max(0.0, extra['plan_seconds'] - extra.get('split_seconds', 0.0)):.2f} s"


def finish(result: Result, as_json: bool, text: str) -> int:
    """Print the summary (text or JSON) and choose the exit status: 130 after a Ctrl-C or
    SIGTERM, 3 when the run's last checkpoint could not be written (the result is printed all
    the same, and a warning says why), else 0."""
    if as_json:
        print(json.dumps(result.summary(), sort_keys=False))
    else:
        print(text)
    sys.stdout.flush()
    if result.stop_reason == INTERRUPTED:
        status = 130
    else:
        status = 0
    unsaved = result.stats.extra.get("checkpoint_error")
    if unsaved:
        print(f"cpkit: warning: {unsaved}; the result above is not in the checkpoint (the "
              f"file holds the one written before)", file=sys.stderr)
        if status == 0:
            from . import CHECKPOINT_NOT_SAVED

            status = CHECKPOINT_NOT_SAVED
    return status


def render_first(puzzle: Any, result: Result, first: list, options: dict[str, Any], out: str,
                 draw: Callable[[Any, Any, str], None]) -> None:
    """``--render``: draw the run's first solution to ``out``.

    A run that printed no board (``--count-only``) kept none, so one is searched for again:
    the same options with ``--limit 1``, within the run's time limit.  Not after a run that
    found none (a second search would only repeat it, and without a time limit it would not
    end on a board too hard for the first), nor after a Ctrl-C."""
    from ..engines.dispatch import solve

    if not first and result.count > 0 and result.stop_reason != INTERRUPTED:
        again = {k: v for k, v in options.items() if k not in ("on_solution", "first")}
        again.update(limit=1, count_only=False)
        first = solve(puzzle, **again).solutions
    name = getattr(puzzle, "name", "") or "the puzzle"
    if first:
        draw(puzzle, first[0], out)
        print(f"cpkit: drew the first solution to {out}", file=sys.stderr)
    elif result.count > 0:
        print(f"cpkit: {name}: no solution drawn (none found again within the time limit, or "
              f"the run was interrupted)", file=sys.stderr)
    else:
        print(f"cpkit: {name}: no solution to draw", file=sys.stderr)
