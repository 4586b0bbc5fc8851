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
    """Print Knuth's estimate of the tree below the root (``--monte-carlo N``)."""
    from ..errors import EngineUnavailable, InputError
    from ..parallel import splitter
    from ..parallel.job import Job, tree
    from ..parallel.plan import deadline, estimate
    from ..parallel.runner import StopSignals
    from ..result import COMPLETE, INTERRUPTED, TIME_LIMIT
    from ..engines.dispatch import AUTO, family_of

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
    family = family_of(model)
    engine = options.pop("engine", "auto")
    name = AUTO.get(family, engine) if engine == "auto" else engine
    if family == "edge_matching" and name == "auto":
        raise InputError("--monte-carlo estimates the tree of one engine: name it with --engine "
                         "cp, edges or backtrack (auto races them on the board instead)")
    if splitter(family, name) is None:
        raise EngineUnavailable(f"--monte-carlo needs a search tree; the {name} engine has none")
    time_limit = options.get("time_limit")
    for key in ("limit", "first", "time_limit", "count_only", "on_solution"):
        options.pop(key, None)
    t = tree(Job(family, name, model, options))
    stop = None
    if args.mc_remaining is not None:
        top = pieces if pieces is not None else t.max_depth
        if not 0 <= args.mc_remaining < top:
            raise InputError(f"--mc-remaining must be between 0 and {top - 1}, "
                             f"got {args.mc_remaining}")
        stop = top - args.mc_remaining
    seed = args.mc_seed or 0
    with StopSignals() as signals:
        est = estimate(t, [], args.monte_carlo, seed, stop, seconds=time_limit,
                       cancel=deadline(time_limit, lambda: signals.raised is not None))
    if est.probes == 0 and signals.raised is not None:
        raise KeyboardInterrupt
    reason = COMPLETE if est.probes == args.monte_carlo else \
        INTERRUPTED if signals.raised is not None else TIME_LIMIT
    # No ``solutions`` or ``complete``: an estimate is not a count (docs/formats.md).
    out = {"name": getattr(model, "name", ""), "family": family, "engine": name,
           "probes": est.probes, "stop_reason": reason,
           "seed": seed, "remaining": args.mc_remaining,
           "estimated_nodes": _json_number(est.nodes, 1),
           "nodes_error": _json_number(est.nodes_error, 1),
           "estimated_solutions": _json_number(est.solutions, 3),
           "solutions_error": _json_number(est.solutions_error, 3),
           "probe_seconds": round(est.seconds, 6)}
    if est.exhaustive_nodes:
        rate = est.exhaustive_nodes / est.exhaustive_seconds if est.exhaustive_seconds > 0 \
            else 0.0
        out["nodes_per_s"] = round(rate, 1)
        out["estimated_seconds"] = _json_number(est.nodes / rate, 3) if rate else None
    status = 130 if reason == INTERRUPTED else 0
    if args.json:
        print(json.dumps(out))
        return status
    if est.probes == 0:
        print(f"{getattr(model, 'name', '')}: no Monte-Carlo probe ended within the time limit "
              f"({est.seconds:.2f} s): no estimate; one probe of this tree takes longer")
        return status
    how = (f"probes end when {args.mc_remaining} pieces remain and search the rest"
           if stop is not None else "probes walk to a leaf")
    cut = f" of {args.monte_carlo:,} ({reason.replace('_', ' ')})" if reason != COMPLETE else ""
    print(f"{getattr(model, 'name', '')}: Monte-Carlo estimate from {est.probes:,}{cut} probes "
          f"(seed {seed}; {how}):")
    what = "search nodes (fits)" if pieces is not None else "search nodes       "
    print(f"  {what}  ~ {_approx(est.nodes, 0)} +- {_approx(est.nodes_error, 0)}")
    print(f"  solutions counted    ~ {_approx(est.solutions, 1)} +- "
          f"{_approx(est.solutions_error, 1)}")
    if est.solutions == 0:
        print("  (no probe reached a solution: the count is unknown, only rare among the "
              "tree's leaves; more probes or a larger --mc-remaining can find some)")
    if "estimated_seconds" in out and out["estimated_seconds"] is not None:
        print(f"  at {out['nodes_per_s']:,.0f} nodes/s (measured in the exhaustive parts): "
              f"~ {_approx(out['estimated_seconds'], 1)} s of search on one core")
        per_part = est.exhaustive_nodes / est.exhaustive_parts
        if per_part < SMALL_PARTS:
            print(f"  (the {est.exhaustive_parts:,} exhaustive parts averaged {per_part:,.0f} "
                  f"nodes: setting each up weighs on that rate; a larger --mc-remaining "
                  f"measures it better)")
    print(f"  ({est.seconds:.2f} s; +- is one standard error)")
    return status


def _json_number(x: float, digits: int) -> float | None:
    """``x`` rounded, or None (JSON null) for an estimate past the float range: JSON has no
    infinity."""
    return round(x, digits) if math.isfinite(x) else None


def _approx(x: float, decimals: int) -> str:
    """An estimate for the reader: grouped digits, powers of ten past a quadrillion (a 38-digit
    node count says no more than 3.6e+37), and words past the float range."""
    if not math.isfinite(x):
        return "beyond the float range (over 1.8e+308)"
    return f"{x:.3g}" if abs(x) >= 1e15 else f"{x:,.{decimals}f}"
