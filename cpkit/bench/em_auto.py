"""Benchmark suite ``em-auto``: does ``--engine auto`` ever lose badly to the engine that would
have been best on the board?

Boards: the paper's 48 (as published: their tiles are not in solution order, the brute force
finds E_7_1's solution at 137 million of its 159 million nodes) and generated boards from 6 x 6
to 10 x 10 with 4 to 14 frame colours and 5 to 15 inner colours (``GRID``, seeds fixed; the
generator shuffles and turns the tiles).  On each, counting all solutions and finding the first:
every single engine (``ENGINES``) and ``auto``, one process each (``--workers 1``: like against
like, ``auto`` races on one core too; ``cpkit match`` by default splits a long count over every
core, and then splits the engine ``auto`` chose), each with a time limit.

To keep the suite within the hour, a single engine is stopped once it has taken three times the
best time so far on the board plus a second (it cannot be the best then, and ``auto`` is judged
against the best); ``auto`` always gets the whole limit.  A stopped run shows ``>= T``.
"""

from __future__ import annotations

import math
from typing import Any

from . import Table, progress
from .edge_matching import search_seconds
from .em_paper import paper_files

#: Label, ``cpkit.search.solve`` options: the single engines ``auto`` is set against.
ENGINES = [
    ("backtrack", {"engine": "backtrack"}),
    ("cp", {"engine": "cp"}),
    ("edges", {"engine": "edges"}),
    ("edges --shave 2", {"engine": "edges", "shave": 2}),
]
AUTO = ("auto", {"engine": "auto"})
#: Generated boards: side -> (frame colours, inner colours), each with seed ``SEED``.
GRID = {
    6: [(4, 5), (5, 5), (6, 6), (8, 5), (4, 7), (6, 5), (10, 5), (5, 6)],
    7: [(4, 7), (5, 6), (6, 6), (6, 7), (8, 6), (4, 8), (7, 7), (12, 6)],
    8: [(5, 9), (6, 8), (4, 9), (7, 8), (8, 8), (5, 10), (10, 8), (14, 8)],
    9: [(7, 12), (5, 11), (9, 10), (6, 11), (8, 11), (10, 10), (12, 10), (13, 9)],
    10: [(8, 14), (6, 15), (10, 12), (11, 12), (12, 12), (9, 13), (14, 11), (7, 13)],
}
SEED = 1
#: The targets: ``auto`` within this factor of the best engine, or within the best plus
#: ``SLACK`` seconds on boards the best finishes in under a second; the geometric mean.
FACTOR, SLACK, MEAN = 2.0, 1.0, 1.3
#: A single engine stops at ``CAP_FACTOR`` times the best so far plus ``CAP_SLACK`` seconds.
CAP_FACTOR, CAP_SLACK = 3.0, 1.0
MODES = (("count", "all solutions"), ("first", "first solution"))
#: Runs shorter than this are repeated, this many times in all, the shortest kept.
SHORT, REPEATS = 0.1, 5
QUICK_GRID = {6: [(5, 5)], 7: [(6, 7)]}


def boards(quick: bool) -> list[tuple[str, Any, str]]:
    """``(label, puzzle, colours)``: the paper's boards found, then the generated ones."""
    from ..io.edge_matching import read_edge_matching
    from ..models.em_generator import generate

    out = []
    for label, path in paper_files(["E_10_7", "E_9_4"] if quick else None):
        out.append((label, read_edge_matching(path), path.name.split(".")[1]))
    for side, pairs in (QUICK_GRID if quick else GRID).items():
        for frame, inner in pairs:
            puzzle = generate(side, border_colours=frame, inner_colours=inner, seed=SEED)
            out.append((puzzle.name, puzzle, f"b{frame}i{inner}"))
    return out


def limits(quick: bool) -> dict[str, float]:
    """Each mode's time limit per run: ``CPKIT_BENCH_EM_SECONDS`` for counting (default 20 s,
    3 s quick), half of it for the first solution."""
    count = search_seconds(3 if quick else 20)
    return {"count": count, "first": count / 2}


def _run(puzzle, options: dict[str, Any], first: bool, limit: float):
    """The result of one run; a run of under ``SHORT`` seconds is made ``REPEATS`` times and
    its shortest kept: at a few milliseconds the machine's noise is as large as the run."""
    from ..search import solve

    best = None
    for _ in range(REPEATS):
        result = solve(puzzle, count_only=True, first=first, time_limit=limit, **options)
        if best is None or result.seconds < best.seconds:
            best = result
        if result.seconds >= SHORT:
            break
    return best


def measure(puzzle, mode: str, limit: float) -> dict[str, Any]:
    """Every engine then ``auto`` on ``puzzle``: seconds (search, JIT apart), whether each
    finished (the search, or found its solution), nodes, the count, and ``auto``'s engine."""
    first = mode == "first"
    runs: dict[str, dict[str, Any]] = {}
    best = math.inf
    for label, options in ENGINES + [AUTO]:
        cap = limit if label == AUTO[0] else min(limit, CAP_FACTOR * best + CAP_SLACK)
        result = _run(puzzle, options, first, cap)
        done = result.complete or (first and result.count >= 1)
        runs[label] = {"seconds": result.seconds, "done": done, "count": result.count,
                       "complete": result.complete, "nodes": result.stats.nodes,
                       "engine": result.engine,
                       "reason": result.stats.extra.get("engine_reason", ""),
                       "race": result.stats.extra.get("engine_race")}
        if done and label != AUTO[0]:
            best = min(best, result.seconds)
    return runs


def _check_counts(label: str, mode: str, runs: dict[str, dict[str, Any]]) -> str:
    """The count every finished run agrees on (raises if two disagree)."""
    counts = {r["count"] for r in runs.values() if r["complete"]}
    if mode == "first":
        counts = {min(c, 1) for c in counts} | {1 for r in runs.values() if r["done"]}
    if len(counts) > 1:
        raise RuntimeError(f"{label} ({mode}): the engines that finished disagree: "
                           f"{sorted(counts)}")
    if counts:
        return f"{counts.pop():,}"
    return f">= {max(r['count'] for r in runs.values()):,}"


def verdict(best: float, auto: float, auto_done: bool) -> tuple[float | None, bool]:
    """``auto`` over the best, and whether it meets the target (``FACTOR``, or ``SLACK`` on
    boards the best finishes in under a second)."""
    if not auto_done:
        return None, False
    ratio = auto / best if best > 0 else math.inf
    return ratio, ratio <= FACTOR or (best < 1.0 and auto <= best + SLACK)


def auto_suite(quick: bool = False) -> list[Table]:
    secs = limits(quick)
    found = boards(quick)
    labels = [label for label, _ in ENGINES]
    tables, summary, figures = [], [], []
    for mode, what in MODES:
        rows, ratios, misses, finished, agreed = [], [], [], 0, 0
        for number, (label, puzzle, colours) in enumerate(found, 1):
            progress(f"{label} ({what})", number, len(found))
            runs = measure(puzzle, mode, secs[mode])
            solutions = _check_counts(label, mode, runs)
            agreed += 1
            done = {k: r["seconds"] for k, r in runs.items() if r["done"] and k in labels}
            auto = runs[AUTO[0]]
            cells = [f"{runs[k]['seconds']:.2f}" if runs[k]["done"]
                     else f">= {runs[k]['seconds']:.1f}" for k in labels]
            if done:
                finished += 1
                winner = min(done, key=done.get)
                ratio, ok = verdict(done[winner], auto["seconds"], auto["done"])
                if ratio is not None:
                    ratios.append(ratio)
                if not ok:
                    misses.append(label)
                best_cells = [winner, f"{done[winner]:.2f}"]
                ratio_text = "" if ratio is None else f"{ratio:.2f}" + ("" if ok else " (miss)")
            else:
                best_cells, ratio_text = ["", ""], ""
            auto_cell = f"{auto['seconds']:.2f}" if auto["done"] else \
                f">= {auto['seconds']:.1f}"
            rows.append([label, f"{puzzle.width}x{puzzle.height}", colours, solutions] + cells
                        + best_cells + [auto_cell, auto["engine"], ratio_text])
            figures.append({"board": label, "mode": mode, "runs": runs})
        mean = math.exp(sum(map(math.log, ratios)) / len(ratios)) if ratios else None
        worst = max(ratios, default=None)
        summary.append([what, len(found), finished, len(ratios),
                        "" if worst is None else f"{worst:.2f}",
                        len(misses), ", ".join(misses),
                        "" if mean is None else f"{mean:.2f}", f"{agreed} of {len(found)}"])
        tables.append(Table(
            f"Seconds per engine and `auto`, {what}, one process each",
            ["board", "size", "colours", "solutions"] + [f"{k} s" for k in labels]
            + ["best", "best s", "auto s", "auto engine", "auto / best"], rows,
            [f"Each run limited to {secs[mode]:g} s (`CPKIT_BENCH_EM_SECONDS`"
             f"{'' if mode == 'count' else ', halved'}); a single engine is also stopped at "
             f"{CAP_FACTOR:g} times the best time so far on the board plus {CAP_SLACK:g} s "
             f"(`>= T`: stopped).  Seconds are search time, JIT apart, `--workers 1` for every "
             f"run: `best` is the fastest single engine on one core, and `auto` races on that "
             f"one core too.  `auto engine`: the engine `auto` went on with.  A miss: `auto` "
             f"over {FACTOR:g} times the best and, on a board the best finishes in under a "
             f"second, over the best plus {SLACK:g} s."]))
    tables.append(Table(
        "`auto` against the best single engine", ["mode", "boards", "some engine finished",
                                                  "auto finished", "worst auto / best",
                                                  "misses", "missed on",
                                                  "geometric mean auto / best",
                                                  "counts agree"], summary,
        [f"Targets: every board within {FACTOR:g} times the best (or the best plus {SLACK:g} s "
         f"under a second), geometric mean at most {MEAN:g}.  The geometric mean is over the "
         f"boards some engine and `auto` finished.  Generated boards: `cpkit generate "
         f"edge-matching --size N --border-colors B --inner-colors I --seed {SEED}`."]))
    tables[-1].figures = figures
    return tables
