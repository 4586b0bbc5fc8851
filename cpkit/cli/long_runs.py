"""Options for long runs shared by ``cpkit tile``, ``cpkit cover`` and ``cpkit match``:
workers, a Dask scheduler, checkpoints, the progress line, and Monte-Carlo tree-size
estimates."""

from __future__ import annotations

import argparse
import json
import math
import sys
from typing import Any

from ..result import Result
from .common import non_negative_int, positive_float, positive_int


def add_options(p: argparse.ArgumentParser, edge_matching: bool = False) -> None:
    """The long-run options of a solving command (``edge_matching``: of ``cpkit match``)."""
    g = p.add_argument_group(
        "long runs",
        "Split the search into independent subtrees and search them in parallel; counts equal "
        "the sequential run's, and so do statistics and the order of solutions" +
        (" (except the cp engine's, whose nodes differ by a few percent)" if edge_matching
         else "") + ".  A progress line is drawn on standard error when it is a terminal "
        "(not with --json); --progress S writes it as a new line every S seconds instead.")
    g.add_argument("--workers", type=positive_int, metavar="N", default=None,
                   help="worker processes on this machine (default: all cores, but small "
                        "searches and --limit runs stay in one process; 1: the plain "
                        "sequential run; at most 4 a core)")
    g.add_argument("--scheduler", metavar="ADDRESS",
                   help="run the subproblems on a Dask cluster (e.g. tcp://host:8786); needs "
                        "pip install 'cpkit[dask]'")
    g.add_argument("--checkpoint", metavar="FILE",
                   help="write finished and pending subproblems to FILE periodically and when "
                        "stopped (Ctrl-C, SIGTERM, --time-limit" +
                        ("; with the search's state inside the running ones" if edge_matching
                         else "") + "); a run that prints solutions needs " +
                        ("--first, " if edge_matching else "") +
                        "--limit N or --show N (it keeps those in FILE).  FILE is written as "
                        "the run starts; an existing FILE must be a cpkit checkpoint (or "
                        "empty).  If the last write fails (a full disk), the result is "
                        "printed with a warning and the exit status is 3")
    g.add_argument("--progress", type=positive_float, metavar="S", default=None,
                   help="write the progress as a new line on standard error every S seconds, "
                        "also when it is not a terminal or with --json (a log file, a batch "
                        "job); a split run's line starts with the time elapsed; a cpsat "
                        "run's shows its solutions and CP-SAT's branch count")
    g.add_argument("--checkpoint-every", type=positive_float, metavar="S", default=60.0,
                   help="seconds between checkpoints")
    g.add_argument("--resume", metavar="FILE",
                   help="continue the run recorded in checkpoint FILE (same puzzle and "
                        "options); combine with --checkpoint to keep recording")
    g.add_argument("--subproblems", type=positive_int, metavar="N",
                   help="split into at least N subproblems (default: from a tree-size estimate, "
                        "at least 16 per worker)")
    g.add_argument("--monte-carlo", type=positive_int, metavar="N",
                   help="do not solve: estimate the search tree's size from N random probes "
                        "(Knuth's estimator)")
    g.add_argument("--mc-remaining", type=int, metavar="R",
                   help="with --monte-carlo: end each probe when R pieces remain (edge "
                        "matching: R choices below the deepest possible) and search the rest "
                        "exhaustively (the seed's Monte-Carlo runs); also estimates time")
    g.add_argument("--mc-seed", type=non_negative_int, metavar="S",
                   help="with --monte-carlo: random seed of the probes (default: 0)")


def solve(model: Any, args, options: dict[str, Any], path: str, index: int = 0,
          variant: dict[str, Any] | None = None) -> Result:
    """Solve ``model`` as the long-run options ask (through ``cpkit.parallel.runner``).
    ``variant``: how the model was derived from the file (recorded in checkpoints)."""
    from ..errors import InputError
    from ..parallel.runner import run

    for given, option in ((args.mc_remaining, "--mc-remaining"), (args.mc_seed, "--mc-seed")):
        if given is not None:
            raise InputError(f"{option} goes with --monte-carlo")
    source = None
    if args.checkpoint is not None or args.resume is not None:
        from ..parallel.checkpoint import model_identity

        source = model_identity(path, index)
        source.update(variant or {})
    # ``--show N``: a split run holds back its solutions to print them in order, so it keeps N.
    shown = getattr(args, "show", None)
    max_stored = None if options.get("count_only") else shown
    return run(model, workers=args.workers, scheduler=args.scheduler, max_stored=max_stored,
               checkpoint=args.checkpoint, resume=args.resume,
               checkpoint_every=args.checkpoint_every, subproblems=args.subproblems,
               progress=progress_mode(args), source=source, **options)


def progress_mode(args) -> bool | float:
    """``--progress S``: a line every S seconds; else the line rewritten in place on a terminal,
    where it cannot mix with the JSON line."""
    if args.progress is not None:
        return args.progress
    return sys.stderr.isatty() and not args.json


#: Below this many nodes per probe the exhaustive parts are too small to time the engine by.
SMALL_PARTS = 200


def monte_carlo(model: Any, args, options: dict[str, Any], pieces: int | None) -> int:
    """Print Knuth's estimate of the tree below the root (``--monte-carlo N``), which
    ``cpkit.estimate`` makes."""
    from ..errors import InputError
    from ..engines.dispatch import AUTO, family_of
    from ..parallel.monte_carlo import estimate
    from ..result import COMPLETE, INTERRUPTED

    searching = {"--first": options.get("first"), "--limit": options.get("limit") is not None,
                 "--show": getattr(args, "show", None) is not None,
                 "--render": getattr(args, "render", None) is not None,
                 "--checkpoint": args.checkpoint is not None,
                 "--resume": args.resume is not None, "--scheduler": args.scheduler is not None,
                 "--progress": args.progress is not None,
                 "--subproblems": args.subproblems is not None}
    used = [flag for flag, given in searching.items() if given]
    if used:
        raise InputError(f"{', '.join(used)} appl{'ies' if len(used) == 1 else 'y'} to a "
                         f"search, not to --monte-carlo (which estimates the tree by probes)")
    engine = options.pop("engine", "auto")
    family = family_of(model)
    if family == "edge_matching" and AUTO.get(family, engine) == "auto" == engine:
        raise InputError("--monte-carlo estimates the tree of one engine: name it with --engine "
                         "cp, edges or backtrack (auto races them on the board instead)")
    time_limit = options.get("time_limit")
    for key in ("limit", "first", "time_limit", "count_only", "on_solution"):
        options.pop(key, None)
    seed = args.mc_seed or 0
    est = estimate(model, engine=engine, probes=args.monte_carlo, seed=seed,
                   time_limit=time_limit, remaining=args.mc_remaining, **options)
    out = est.summary()
    status = 130 if est.stop_reason == INTERRUPTED else 0
    if args.json:
        print(json.dumps(out))
        return status
    name = est.name
    if est.probes == 0:
        print(f"{name}: no Monte-Carlo probe ended within the time limit ({est.seconds:.2f} s): "
              f"no estimate; one probe of this tree takes longer")
        return status
    how = (f"probes end when {args.mc_remaining} pieces remain and search the rest"
           if args.mc_remaining is not None else "probes walk to a leaf")
    cut = f" of {args.monte_carlo:,} ({est.stop_reason.replace('_', ' ')})" \
        if est.stop_reason != COMPLETE else ""
    print(f"{name}: Monte-Carlo estimate from {est.probes:,}{cut} probes (seed {seed}; {how}):")
    what = "search nodes (fits)" if pieces is not None else "search nodes       "
    print(f"  {what}  ~ {_approx(est.nodes, 0)} +- {_approx(est.nodes_error, 0)}")
    print(f"  solutions counted    ~ {_approx(est.solutions, 1)} +- "
          f"{_approx(est.solutions_error, 1)}")
    if est.solutions == 0:
        print("  (no probe reached a solution: the count is unknown, only rare among the "
              "tree's leaves; more probes or a larger --mc-remaining can find some)")
    if est.estimated_seconds is not None:
        print(f"  at {out['nodes_per_s']:,.0f} nodes/s (measured in the exhaustive parts): "
              f"~ {_approx(est.estimated_seconds, 1)} s of search on one core")
        per_part = est.exhaustive_nodes / est.exhaustive_parts
        if per_part < SMALL_PARTS:
            print(f"  (the {est.exhaustive_parts:,} exhaustive parts averaged {per_part:,.0f} "
                  f"nodes: setting each up weighs on that rate; a larger --mc-remaining "
                  f"measures it better)")
    print(f"  ({est.seconds:.2f} s; +- is one standard error)")
    return status


def _approx(x: float, decimals: int) -> str:
    """An estimate for the reader: grouped digits, powers of ten past a quadrillion (a 38-digit
    node count says no more than 3.6e+37), and words past the float range."""
    if not math.isfinite(x):
        return "beyond the float range (over 1.8e+308)"
    return f"{x:.3g}" if abs(x) >= 1e15 else f"{x:,.{decimals}f}"
