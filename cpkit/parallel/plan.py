"""Choosing where to split, and Knuth's tree-size estimates.

Knuth's estimator ("Estimating the efficiency of backtrack programs", 1975): walk one random
path from a node, choosing each branch uniformly; the product of the branching degrees along
the path, summed level by level, is an unbiased estimate of the number of nodes below it.  The
seed's variant (Busche's Monte-Carlo runs) stops the walk when R pieces remain and searches the
rest exhaustively; multiplied by the product of the degrees above, that is also unbiased, with a
much smaller variance, at the price of the exhaustive part.

Uses here: the size of the whole tree (``--monte-carlo``, and how many subproblems to make), the
size of each subproblem (largest first for load balance; the progress line's time left).
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass
from typing import Callable

import numpy as np

from .protocol import Frontier, Path

#: Aim for subproblems of about this many nodes (DLX places ~0.3-1 M options per second), so
#: that a worker's last subproblem is short and an interrupted one costs little to redo.
NODES_PER_SUBPROBLEM = 200_000
#: At least this many subproblems per worker, whatever the estimate (load balance).
MIN_PER_WORKER = 16
MAX_SUBPROBLEMS = 20_000
#: The depth that first holds a planned number of subproblems can hold many times more (one
#: level multiplies them by its branching: 11,868 to 87,449 on a 16 x 16 board); past this many
#: the depth above is kept if it has enough for the workers.
MAX_OVERSHOOT = 4 * MAX_SUBPROBLEMS
#: Probes spent on estimating the subproblems' sizes, in total (a tree whose probes cost more
#: says how many it affords in ``order_probes``).
ORDER_PROBES = 4000
#: Planning a run (how many subproblems, which go first) probes for about this long at most,
#: whatever the tree: one probe of a 16 x 16 edge-matching board walks 256 levels (0.25 s).
PLAN_SECONDS = 3.0
#: No walk starts after the planning budget (two at least, for an error bar); one still going
#: at this many times the budget is abandoned: one walk of a 16 x 16 board shaved at every node
#: (``--engine edges --shave all``) takes an hour, and a Ctrl-C waited for it.
WALK_CUTOFF = 4.0


@dataclass
class Estimate:
    """Mean and standard error of Knuth's estimator over ``probes`` walks."""

    probes: int
    nodes: float
    nodes_error: float
    solutions: float
    solutions_error: float
    seconds: float
    exhaustive_nodes: int = 0
    exhaustive_seconds: float = 0.0
    exhaustive_parts: int = 0       # walks that reached the depth where the search takes over


def estimate(tree, path: Path, probes: int, seed: int = 0, stop_depth: int | None = None,
             seconds: float | None = None, cancel: Callable[[], bool] | None = None
             ) -> Estimate:
    """Knuth's estimate of the subtree below ``path`` from ``probes`` random walks (seeded,
    so repeatable); with ``stop_depth`` the walks end there and the rest is searched.  With
    ``seconds`` no walk starts once that time has passed (after two at least); once
    ``cancel()`` is true they stop at once, inside a walk too, the walk it cut short left out
    (fewer probes).  A hard bound on the time is a ``cancel`` that watches the clock
    (``deadline``)."""
    rng = np.random.default_rng(seed)
    walks: list[tuple[float, float]] = []
    searched, searched_seconds, parts = 0, 0.0, 0
    start = time.perf_counter()
    while len(walks) < probes:
        if seconds is not None and len(walks) >= 2 and time.perf_counter() - start > seconds:
            break
        if cancel is not None and cancel():
            break
        probe = tree.probe(path, rng.random(tree.max_depth + 1).tolist(), stop_depth, cancel)
        if probe is None or (cancel is not None and cancel()):
            break
        walks.append(probe.estimate())
        searched += probe.nodes
        searched_seconds += probe.seconds
        parts += probe.nodes > 0
    seconds = time.perf_counter() - start
    nodes = np.array([w[0] for w in walks])
    sols = np.array([w[1] for w in walks])

    def mean(a: np.ndarray) -> float:
        return float(a.mean()) if len(a) else math.nan

    def err(a: np.ndarray) -> float:
        if len(a) < 2 or not np.isfinite(a).all():
            return math.inf
        return float(a.std(ddof=1) / math.sqrt(len(a)))

    with np.errstate(over="ignore"):     # a sum past the float range is inf, as it should be
        return Estimate(len(walks), mean(nodes), err(nodes), mean(sols), err(sols), seconds,
                        searched, searched_seconds, parts)


def too_small_to_split(tree, min_nodes: float, seconds: float, cancel: Callable[[], bool]
                       ) -> tuple[bool, Estimate | None]:
    """Whether a run free to choose its workers should search ``tree`` in one process: the
    tree's own verdict (its ``worth_splitting``) where it has one, else Knuth's estimate from
    its ``size_probes`` walks (200 unless it says fewer; for ``seconds``, cut by ``cancel``)
    under ``min_nodes``; and that estimate, if one was made (a split sizes itself from it)."""
    verdict = getattr(tree, "worth_splitting", lambda: None)()
    if verdict is not None:
        return not verdict, None
    sized = estimate(tree, [], getattr(tree, "size_probes", 200), seconds=seconds,
                     cancel=deadline(WALK_CUTOFF * seconds, cancel))
    return sized.nodes < min_nodes, sized


def deadline(seconds: float | None, cancel: Callable[[], bool] | None = None
             ) -> Callable[[], bool]:
    """A ``cancel`` that is true once ``seconds`` have passed from now, or ``cancel()`` is."""
    end = None if seconds is None else time.perf_counter() + seconds
    return lambda: (cancel is not None and cancel()) or (
        end is not None and time.perf_counter() >= end)


def subproblem_target(tree, workers: int, seed: int = 0, seconds: float = PLAN_SECONDS,
                      cancel: Callable[[], bool] | None = None,
                      whole: Estimate | None = None) -> tuple[int, float]:
    """How many subproblems to make, from a quick estimate of the whole tree (``whole`` if
    the run made one already, else ``size_probes`` walks, 200 unless the tree says fewer,
    probing for ``seconds``, walks cut at ``WALK_CUTOFF`` times that or by ``cancel()``);
    also returns that estimate (nodes, ``inf`` beyond the float range, NaN when no walk ended
    in time).  The count of subproblems needs no fine estimate: the hybrid's 200 walks of the
    pentominoes in 12 x 5 took 0.44 s, twice the search they planned.

    A tree none of whose walks ends in time (a 16 x 16 board shaved at every node) gets the
    fewest subproblems the workers need: its frontier nodes are as slow to reach, and the
    split is searched by one process while the subproblems are searched by all."""
    if whole is None or not whole.probes:
        whole = estimate(tree, [], getattr(tree, "size_probes", 200), seed, seconds=seconds,
                         cancel=deadline(WALK_CUTOFF * seconds, cancel))
    if whole.probes == 0:
        return MIN_PER_WORKER * workers, whole.nodes
    wanted = int(min(MAX_SUBPROBLEMS, whole.nodes / NODES_PER_SUBPROBLEM))
    return max(MIN_PER_WORKER * workers, wanted), whole.nodes


def planning_budget(time_limit: float | None) -> float:
    """Seconds of probes a run affords while planning: ``PLAN_SECONDS``, or a quarter of a
    shorter time limit (a two-second run should not estimate for three)."""
    return PLAN_SECONDS if time_limit is None else min(PLAN_SECONDS, time_limit / 4)


def split(tree, target: int, store: bool, cancel: Callable[[], bool] | None = None,
          enough: int | None = None, seconds: float | None = None) -> Frontier:
    """The shallowest frontier with at least ``target`` open subproblems (or the deepest one
    that exists if the tree is too small).  With ``enough`` (a planned target, not one the user
    asked for), a frontier past ``MAX_OVERSHOOT`` gives way to the one above it if that holds
    at least ``enough``: a checkpoint lists every path, and the planner probes each.  That
    deeper search then stops at the first open node past ``MAX_OVERSHOOT``: searching the rest
    of a frontier that is thrown away was most of a hexomino parallelogram's planning (13 s of
    14).  When ``cancel()`` stops a frontier search, that unfinished frontier is returned
    (``above.complete`` False): the run must not go on.

    Going deeper stops once ``seconds`` have passed (a deeper search then cut keeps the
    frontier above it): each depth is searched from the root, and a tree that does not
    branch for thousands of levels (4,225 identical monominoes: one fit a level) never met
    its target and took minutes to plan."""
    depth = 1
    frontier = tree.frontier(depth, store, cancel)
    planned = deadline(seconds)
    stop = deadline(None, lambda: (cancel is not None and cancel()) or planned())
    while len(frontier.paths) < target and frontier.paths and depth < tree.max_depth \
            and frontier.above.complete and not planned():
        depth += 1
        cap = MAX_OVERSHOOT if enough is not None and len(frontier.paths) >= enough else None
        deeper = tree.frontier(depth, store, stop, max_paths=cap)
        if not deeper.paths and deeper.above.complete:
            break
        if cap is not None and len(deeper.paths) > cap:
            break
        if not deeper.above.complete and planned() and not (cancel is not None and cancel()):
            break
        frontier = deeper
    return frontier


def subproblem_sizes(tree, paths: list[Path], seed: int = 0, seconds: float = PLAN_SECONDS,
                     cancel: Callable[[], bool] | None = None) -> list[float]:
    """Estimated nodes below each path: a few probes each, in order, for ``seconds`` (a walk
    cut at ``WALK_CUTOFF`` times that or by ``cancel()``); the paths left unprobed then get the
    mean of the others (no order among them), or all 1.0 if none was."""
    if not paths:
        return []
    per = max(1, min(16, getattr(tree, "order_probes", ORDER_PROBES) // len(paths)))
    began = time.perf_counter()
    stop = deadline(WALK_CUTOFF * seconds, cancel)
    sizes: list[float] = []
    for k, p in enumerate(paths):
        if sizes and time.perf_counter() - began > seconds:
            break
        est = estimate(tree, p, per, seed + k, cancel=stop)
        if est.probes == 0:
            break
        sizes.append(max(1.0, est.nodes))
    mean = sum(sizes) / len(sizes) if sizes else 1.0          # inf if an estimate is
    return sizes + [mean] * (len(paths) - len(sizes))
