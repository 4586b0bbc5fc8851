"""Benchmark suite ``em-auto``: does ``--engine auto`` ever lose badly to the engine that would
have been best on the board?

Boards: the paper's 48 (as published: their tiles are not in solution order, the brute force
finds E_7_1's solution at 137 million of its 159 million nodes) and generated boards from 6 x 6
to 10 x 10 with 4 to 14 frame colours and 5 to 15 inner colours (``GRID``, seeds fixed; the
generator shuffles and turns the tiles).  On each, counting all solutions and finding the first:
every single engine (``ENGINES``) on one core, and ``auto`` as ``cpkit match`` runs it by
default (every core: the brute force goes on in a helper thread beside the race, and a count
estimated to take long is split) and with ``--workers 1`` (the race on one core), each with a
time limit.  The boards are measured one after the other (``CPKIT_BENCH_JOBS``, default 1),
so that ``auto`` has the machine's cores to itself.

To keep the suite within the hour, a single engine is stopped once it has taken three times the
best time so far on the board plus a second (it cannot be the best then, and ``auto`` is judged
against the best); ``auto`` gets the whole limit, or more where the best engine finished close
to it: at least the time its target allows (``FACTOR`` times the best, and ``SLACK`` over it),
so that a board the best engine finishes in 8 s of a 10-s limit is judged, not cut short.  A
stopped run shows ``>= T``.
"""

from __future__ import annotations

import math
import multiprocessing
import os
import signal
from functools import partial
from pathlib import Path
from typing import Any

from cpkit.errors import InputError
from . import Table, progress
from .edge_matching import search_seconds
from .em_paper import paper_files, ratio_bound

#: Label, ``cpkit.engines.dispatch.solve`` options: the single engines ``auto`` is set against.
ENGINES = [
    ("backtrack", {"engine": "backtrack"}),
    ("cp", {"engine": "cp"}),
    ("edges", {"engine": "edges"}),
    ("edges --shave 2", {"engine": "edges", "shave": 2}),
]
#: ``auto`` as ``cpkit match`` runs it (the target is judged on it), and on one core.
AUTO, AUTO_ONE = ("auto", {"engine": "auto"}), ("auto --workers 1", {"engine": "auto"})
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
#: Geometric means apart for the boards the best engine takes at least this many seconds on.
LONG = 1.0
#: The cp engine against the brute force: boards of more brute-force nodes than this, and the
#: factor it should make fewer.
NODE_BOUND, NODE_FACTOR = 10_000_000, 10.0
#: The few-frame-colours table's runs get this many times the counting limit.
FEW_LIMIT_FACTOR = 15


def boards(quick: bool) -> list[tuple[str, Any, str]]:
    """``(label, puzzle, colours)``: the paper's boards found, then the generated ones."""
    from cpkit.io.edge_matching import read_edge_matching
    from cpkit.models.em_generator import generate

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


def _run(puzzle, options: dict[str, Any], first: bool, limit: float, default: bool = False):
    """The result of one run (``default``: as ``cpkit match`` runs it, no ``--workers``, else
    in one process); a run of under ``SHORT`` seconds is made ``REPEATS`` times and its
    shortest kept: at a few milliseconds the machine's noise is as large as the run."""
    from cpkit.engines.dispatch import solve
    from cpkit.parallel.runner import run

    best = None
    for _ in range(REPEATS):
        how = partial(run, workers=None) if default else solve
        result = how(puzzle, count_only=True, first=first, time_limit=limit, **options)
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
    autos = (AUTO[0], AUTO_ONE[0])
    for label, options in ENGINES + [AUTO, AUTO_ONE]:
        cap = max(limit, allowed(best)) if label in autos else \
            min(limit, CAP_FACTOR * best + CAP_SLACK)
        result = _run(puzzle, options, first, cap, default=label == AUTO[0])
        done = result.complete or (first and result.count >= 1)
        runs[label] = {"seconds": result.seconds, "done": done, "count": result.count,
                       "complete": result.complete, "nodes": result.stats.nodes,
                       "engine": result.engine,
                       "reason": result.stats.extra.get("engine_reason", ""),
                       "race": result.stats.extra.get("engine_race"),
                       "order": result.stats.extra.get("order")}
        if done and label not in autos:
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


def allowed(best: float) -> float:
    """The most seconds ``auto`` may take on a board the best engine finishes in ``best``
    and still meet its target (0 where no engine finished)."""
    if math.isinf(best):
        return 0.0
    return best + SLACK if best < 1.0 else FACTOR * best


def verdict(best: float, auto: float, auto_done: bool) -> tuple[float | None, bool]:
    """``auto`` over the best, and whether it meets the target (``FACTOR``, or ``SLACK`` on
    boards the best finishes in under a second)."""
    if not auto_done:
        return None, False
    ratio = auto / best if best > 0 else math.inf
    return ratio, auto <= allowed(best)


def _warm_up() -> None:
    """Every engine's kernels loaded, and everything run once, before any measurement."""
    from cpkit.models.em_generator import generate

    tiny = generate(4, border_colours=2, inner_colours=3, seed=1)
    for mode, _ in MODES:
        measure(tiny, mode, 1.0)


def _start_measuring() -> None:
    """A measuring process leaves Ctrl-C (sent to the whole process group) to the suite, which
    ends it and its processes (by SIGTERM)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _warm_up()


def _measure_task(task: tuple[int, Any, str, float]) -> tuple[int, dict[str, Any]]:
    number, puzzle, mode, limit = task
    return number, measure(puzzle, mode, limit)


def measure_all(found: list[tuple[str, Any, str]], mode: str, limit: float,
                what: str) -> list[dict[str, Any]]:
    """``measure`` on every board, over ``jobs()`` processes (each board's runs one after the
    other in one of them, so that they are side by side)."""
    tasks = [(k, puzzle, mode, limit) for k, (_, puzzle, _) in enumerate(found)]
    out: list[dict[str, Any]] = [{}] * len(found)
    if jobs() <= 1:
        _warm_up()
        for number, puzzle, _, _ in tasks:
            progress(f"{found[number][0]} ({what})", number + 1, len(found))
            out[number] = measure(puzzle, mode, limit)
        return out
    _warm_up()          # compiled here once: the measuring processes then load the kernels
    pool = multiprocessing.get_context("spawn").Pool(jobs(), initializer=_start_measuring)
    try:
        for done, (number, runs) in enumerate(pool.imap_unordered(_measure_task, tasks), 1):
            progress(f"{found[number][0]} ({what})", done, len(found))
            out[number] = runs
        pool.close()
    finally:
        pool.terminate()
        pool.join()
    return out


def jobs() -> int:
    """Boards measured at once: ``CPKIT_BENCH_JOBS``, by default 1 (``auto`` by default uses
    every core)."""
    text = os.environ.get("CPKIT_BENCH_JOBS", "1").strip()
    if not text.isdigit() or int(text) < 1:
        raise InputError(f"CPKIT_BENCH_JOBS must be a whole number >= 1, got {text!r}")
    return int(text)


#: Boards with few frame colours for their size (seed ``SEED``), where the brute force's
#: column scan is hard to beat: ``auto`` by default (``cpkit match``, every core) and in one
#: process, beside the brute force and its C reference (``benchmarks/em_bt_ref.c``).
FEW_FRAME_COLOURS = [(8, 5, 9), (8, 6, 8), (9, 7, 12), (10, 8, 14)]


def few_frame_colours(quick: bool, limit: float) -> Table:
    import tempfile

    from cpkit.engines.edge_matching.auto.em_auto_search import HELPED_STAY_BELOW
    from cpkit.io.edge_matching import write_native
    from cpkit.parallel.runner import run as default_solve
    from cpkit.models.em_generator import generate
    from cpkit.engines.dispatch import solve
    from .edge_matching import run_c_reference, with_symmetry_hint
    from .tiling import c_reference

    binary = c_reference("em_bt_ref")
    rows = []
    specs = FEW_FRAME_COLOURS[2:3] if quick else FEW_FRAME_COLOURS
    with tempfile.TemporaryDirectory() as tmp:
        for number, (side, frame, inner) in enumerate(specs, 1):
            puzzle = generate(side, border_colours=frame, inner_colours=inner, seed=SEED)
            progress(f"{puzzle.name} (beside the C brute force)", number, len(specs))
            path = Path(tmp) / f"{puzzle.name}.txt"
            write_native(puzzle, path)
            brute = solve(puzzle, engine="backtrack", count_only=True, time_limit=limit)
            c = run_c_reference(binary, with_symmetry_hint(puzzle, path, Path(tmp)), limit) \
                if binary else None
            one = solve(puzzle, count_only=True, time_limit=limit)
            default = default_solve(puzzle, count_only=True, time_limit=limit)
            runs = [brute, one, default]
            counts = {r.count for r in runs if r.complete} | (
                {int(c["solutions"])} if c and c["complete"] else set())
            if len(counts) > 1:
                raise RuntimeError(f"{puzzle.name}: counts disagree: {sorted(counts)}")

            def secs(r) -> str:
                return f"{r.seconds:.2f}" if r.complete else f">= {r.seconds:.0f}"

            rows.append([puzzle.name, f"b{frame}i{inner}",
                         f"{brute.count:,}" if brute.complete else f">= {brute.count:,}",
                         f"{brute.stats.nodes:,}", secs(brute),
                         "" if c is None else (f"{c['seconds']:.2f}" if c["complete"]
                                               else f">= {c['seconds']:.0f}"),
                         secs(one), one.engine, f"{one.seconds / brute.seconds:.2f}",
                         secs(default), default.engine,
                         f"{default.stats.extra.get('workers', 1)}",
                         f"{default.seconds / brute.seconds:.2f}"])
    return Table(
        "Boards with few frame colours: `auto` beside the brute force (numba and C), all "
        "solutions",
        ["board", "colours", "solutions", "brute-force nodes", "backtrack s", "C brute force s",
         "auto s (one process)", "engine", "auto / backtrack",
         "`cpkit match` s (default)", "engine", "workers", "default / backtrack"], rows,
        [f"`cpkit generate edge-matching --size N --border-colors B --inner-colors I --seed "
         f"{SEED}`; each run limited to {limit:g} s; search seconds, JIT apart.  `auto` in one "
         f"process is `--workers 1`; `cpkit match` by default uses every core (the brute force "
         f"in a helper thread beside the race; a count it estimates to take more than "
         f"{HELPED_STAY_BELOW:g} s is split).  The C brute force "
         f"(`benchmarks/em_bt_ref.c`, `cc -O2`) makes the same nodes."])


def cp_against_brute_force(found: list[tuple[str, Any, str]],
                           measured: list[dict[str, Any]]) -> Table:
    """The cp engine's nodes (its default order) against the brute force's, counting, on the
    boards where the brute force needs over ``NODE_BOUND`` nodes (a bound where either hit its
    limit: a run stopped early made fewer nodes than the whole search)."""
    rows, tally = [], {"yes": 0, "no": 0, "open": 0}
    for (label, _, colours), runs in zip(found, measured):
        brute, cp = runs["backtrack"], runs["cp"]
        if brute["nodes"] <= NODE_BOUND:
            continue
        text, verdict_ = ratio_bound(brute["nodes"], brute["complete"], cp["nodes"],
                                     cp["complete"], factor=NODE_FACTOR)
        tally[verdict_] += 1
        rows.append([label, colours, f"{brute['nodes']:,}" + ("" if brute["complete"] else
                                                              " (stopped)"),
                     f"{cp['nodes']:,}" + ("" if cp["complete"] else " (stopped)"),
                     cp.get("order") or "", text, verdict_])
    return Table(
        f"The cp engine alone against the brute force, in nodes, on the boards where the brute "
        f"force needs over {NODE_BOUND:,} (all solutions)",
        ["board", "colours", "brute-force nodes", "cp nodes", "cp order", "brute force / cp",
         f"at least {NODE_FACTOR:g} times"], rows,
        [f"From the counting runs above: {tally['yes']} at least {NODE_FACTOR:g} times, "
         f"{tally['no']} below, {tally['open']} open (a run stopped by its limit leaves the "
         f"ratio a bound; `<=` and `>=` as in `em-paper`).  `cp order`: the order `--heuristic "
         f"auto` picked (docs/algorithms.md)."])


def _seconds_cell(run: dict[str, Any]) -> str:
    return f"{run['seconds']:.2f}" if run["done"] else f">= {run['seconds']:.1f}"


def geometric_mean(values: list[float]) -> float | None:
    return math.exp(sum(map(math.log, values)) / len(values)) if values else None


def auto_suite(quick: bool = False) -> list[Table]:
    secs = limits(quick)
    found = boards(quick)
    labels = [label for label, _ in ENGINES]
    tables, summary, figures = [], [], []
    for mode, what in MODES:
        rows, ratios, long_ratios, misses, finished, agreed = [], [], [], [], 0, 0
        measured = measure_all(found, mode, secs[mode], what)
        for (label, puzzle, colours), runs in zip(found, measured):
            solutions = _check_counts(label, mode, runs)
            agreed += 1
            done = {k: r["seconds"] for k, r in runs.items() if r["done"] and k in labels}
            auto, one = runs[AUTO[0]], runs[AUTO_ONE[0]]
            cells = [f"{runs[k]['seconds']:.2f}" if runs[k]["done"]
                     else f">= {runs[k]['seconds']:.1f}" for k in labels]
            if done:
                finished += 1
                winner = min(done, key=done.get)
                ratio, ok = verdict(done[winner], auto["seconds"], auto["done"])
                if ratio is not None:
                    ratios.append(ratio)
                    if done[winner] >= LONG:
                        long_ratios.append(ratio)
                if not ok:
                    misses.append(label)
                best_cells = [winner, f"{done[winner]:.2f}"]
                ratio_text = "" if ratio is None else f"{ratio:.2f}" + ("" if ok else " (miss)")
                one_ratio, one_ok = verdict(done[winner], one["seconds"], one["done"])
                one_text = "" if one_ratio is None else \
                    f"{one_ratio:.2f}" + ("" if one_ok else " (miss)")
            else:
                best_cells, ratio_text, one_text = ["", ""], "", ""
            rows.append([label, f"{puzzle.width}x{puzzle.height}", colours, solutions] + cells
                        + best_cells + [_seconds_cell(auto), auto["engine"], ratio_text,
                                        _seconds_cell(one), one_text])
            figures.append({"board": label, "mode": mode, "runs": runs})
        mean, long_mean = geometric_mean(ratios), geometric_mean(long_ratios)
        worst = max(ratios, default=None)
        summary.append([what, len(found), finished, len(ratios),
                        "" if worst is None else f"{worst:.2f}",
                        len(misses), ", ".join(misses),
                        "" if mean is None else f"{mean:.2f}",
                        "" if long_mean is None else f"{long_mean:.2f} ({len(long_ratios)})",
                        f"{agreed} of {len(found)}"])
        if mode == "count":
            nodes_table = cp_against_brute_force(found, measured)
        tables.append(Table(
            f"Seconds per engine (one process each) and `auto`, {what}",
            ["board", "size", "colours", "solutions"] + [f"{k} s" for k in labels]
            + ["best", "best s", "auto s", "auto engine", "auto / best",
               "auto --workers 1 s", "--workers 1 / best"], rows,
            [f"Each run limited to {secs[mode]:g} s (`CPKIT_BENCH_EM_SECONDS`"
             f"{'' if mode == 'count' else ', halved'}); a single engine is also stopped at "
             f"{CAP_FACTOR:g} times the best time so far on the board plus {CAP_SLACK:g} s "
             f"(`>= T`: stopped), and `auto` runs at least as long as its target allows "
             f"({FACTOR:g} times the best).  Seconds are search time, JIT apart.  Every single "
             f"engine runs in one process (`--workers 1`): `best` is the fastest on one core.  "
             f"`auto` runs as `cpkit match` runs it by default, on every core of this machine "
             f"(the brute force in a helper thread beside the race); `auto --workers 1` "
             f"races on one core.  `auto engine`: the engine `auto` ended with.  A miss: "
             f"over {FACTOR:g} times the best and, on a board the best finishes in under a "
             f"second, over the best plus {SLACK:g} s."]))
    tables.append(Table(
        "`auto` against the best single engine", ["mode", "boards", "some engine finished",
                                                  "auto finished", "worst auto / best",
                                                  "misses", "missed on",
                                                  "geometric mean auto / best",
                                                  f"the same, best over {LONG:g} s (boards)",
                                                  "counts agree"], summary,
        [f"Targets: every board within {FACTOR:g} times the best (or the best plus {SLACK:g} s "
         f"under a second), geometric mean at most {MEAN:g}.  The geometric mean is over the "
         f"boards some engine and `auto` finished (and, in the next column, those the best "
         f"engine took at least {LONG:g} s on: a run of milliseconds is as long as the "
         f"machine's noise).  Generated boards: `cpkit generate edge-matching --size N "
         f"--border-colors B --inner-colors I --seed {SEED}`."]))
    tables[-1].figures = figures
    tables.append(nodes_table)
    tables.append(few_frame_colours(quick, FEW_LIMIT_FACTOR * secs["count"]))
    return tables
