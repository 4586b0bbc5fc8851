"""Benchmark suite ``e2``: the anytime optimiser on Eternity II, beside published figures.

- The published single-core benchmark's instances (``variants/e2_v00..v04.native``: the 256
  pieces, the 5 clues, three corners pinned), 60 s on one core each (one worker), every
  configuration of the ablation on each variant in turn (side by side, so a change of the
  machine's load falls on all of them alike): the score (matched edges of 480) and the tiles
  placed per variant and their mean, beside the published means (the README of the data
  folder: beam search 454.8, ALNS 452.9, ...).
- The same variants turned a quarter (``EdgeMatchingPuzzle.turned``), the default at the same
  time: the optimiser's defaults were measured on the files as published, and a user's file
  may be drawn any way round.
- One long run on all cores of ``pieces/e2_clues5.native`` for each objective (edges; tiles
  placed with no mismatch), 10 minutes each.

``CPKIT_BENCH_E2_SECONDS`` and ``CPKIT_BENCH_E2_LONG`` change the 60 s and the 10 minutes;
``CPKIT_BENCH_E2_ABLATION`` gives the ablation's rows a time of their own (default: the 60 s;
all six rows then take 30 runs, a shorter time keeps the suite within half an hour);
``CPKIT_BENCH_E2_CLOCK=cpu`` counts the one-core runs' seconds as CPU time of this process
instead of wall time (on a machine shared with other work a 60 s run gets less than a core).
Every board is re-scored by ``cpkit.models.score.score_board`` before it enters a table.
"""

from __future__ import annotations

import os
import time
from pathlib import Path

from cpkit.errors import InputError
from . import Table, progress
from .edge_matching import ETERNITY2

VARIANTS = [f"e2_v0{k}" for k in range(5)]

#: The published single-core benchmark (README of the data folder): 60 s, one core, one run per
#: variant, mean and best matched edges over its ten variants v00..v09.
PUBLISHED = [("beam search", 454.8, 456), ("ALNS", 452.9, 455),
             ("Verhaard-style backtracker", 440.8, 451),
             ("Blackwood-style backtracker", 436.4, 440),
             ("naive row-major backtracker", 365.6, 380)]


def configurations():
    """Label and ``Config`` of each row of the ablation; the first is the default."""
    from cpkit.optimise import Config

    return [("default: scan (adapted, favoured colours, last rows by column) + assignment + "
             "refill", Config()),
            ("default without favoured colours", Config(favour=False)),
            ("default filled row by row to the end", Config(column_rows=0)),
            ("scan, fixed schedule", Config(methods=("scan",), adapt=False)),
            ("scan, adapted schedule", Config(methods=("scan",))),
            ("scan + assignment", Config(methods=("scan", "assign"))),
            ("scan + refill", Config(methods=("scan", "refill"))),
            ("default + exact refill (CP-SAT, 5 x 5, 1 s)",
             Config(methods=("scan", "assign", "refill", "exact")))]


def _seconds(name: str, default: float) -> float:
    text = os.environ.get(name, "").strip()
    if not text:
        return default
    try:
        value = float(text)
    except ValueError:
        value = float("nan")
    if not value > 0 or value == float("inf"):
        raise InputError(f"{name} must be a positive number of seconds, got {text!r}")
    return value


def _clock() -> str:
    clock = os.environ.get("CPKIT_BENCH_E2_CLOCK", "wall").strip() or "wall"
    if clock not in ("wall", "cpu"):
        raise InputError(f"CPKIT_BENCH_E2_CLOCK must be wall or cpu, got {clock!r}")
    return clock


def _run(path: Path, objective: str, seconds: float, workers: int, clock: str, config=None,
         turns: int = 0):
    """One optimiser run on the puzzle of ``path`` turned clockwise by ``turns`` quarter turns,
    its board re-scored; returns (result, score, tiles placed)."""
    from cpkit.io.edge_matching import read_edge_matching
    from cpkit.models.score import score_board
    from cpkit.optimise import maximize
    from cpkit.optimise.anytime import warm

    puzzle = read_edge_matching(path).turned(turns)
    # Kernels compiled (or loaded) before the clock starts: a CPU-time budget of a second,
    # counted from here, was spent compiling after any change to the sources.
    warm()
    if clock == "cpu":
        start = time.process_time()
        result = maximize(puzzle, objective, workers=workers, config=config,
                          cancel=lambda: time.process_time() - start >= seconds)
    else:
        result = maximize(puzzle, objective, time_limit=seconds, workers=workers,
                          config=config)
    if result.board is None:            # no full board in the time (a very short run)
        return result, None, None
    checked = score_board(puzzle, result.board)
    score = checked.tiles_placed if objective == "tiles" else checked.score
    if score != result.score:
        raise AssertionError(f"{path.name}: the optimiser says {result.score}, the board "
                             f"scores {score}")
    return result, checked.score, checked.tiles_placed


def _load() -> str:
    one, five, _ = os.getloadavg()
    return f"{one:.1f} (1 min), {five:.1f} (5 min)"


def e2_suite(quick: bool = False) -> list[Table]:
    folder = ETERNITY2
    files = [folder / "variants" / f"{v}.native" for v in VARIANTS]
    clues5 = folder / "pieces" / "e2_clues5.native"
    if not all(f.exists() for f in files + [clues5]):
        return [Table("Eternity II (data not found)", ["note"],
                      [[f"the Eternity II files are not in {folder}; set CPKIT_ETERNITY2"]])]
    seconds = _seconds("CPKIT_BENCH_E2_SECONDS", 3.0 if quick else 60.0)
    long = _seconds("CPKIT_BENCH_E2_LONG", 5.0 if quick else 600.0)
    clock = _clock()
    configs = configurations()
    if quick:
        files, configs = files[:2], configs[:2]
    ablation = _seconds("CPKIT_BENCH_E2_ABLATION", seconds)
    load_before = _load()
    runs = _side_by_side(files, configs, ablation, clock)
    if ablation == seconds:
        default = runs[configs[0][0]]
    else:       # the variants' table at its own time, the ablation's rows at theirs
        default = _side_by_side(files, configs[:1], seconds, clock)[configs[0][0]]
    turned = _side_by_side(files, configs[:1], seconds, clock, turns=1)[configs[0][0]]
    cores = os.cpu_count() or 1
    long_runs = []
    for objective in ("edges", "tiles"):
        progress(f"e2_clues5, {objective}, {cores} workers, {long:g} s")
        long_runs.append((objective, _run(clues5, objective, long, cores, "wall")))
    load_after = _load()
    return [_variants_table(files, default, configs[0][0], seconds, clock),
            _turned_table(files, default, turned, seconds),
            _ablation_table(files, runs, configs, ablation),
            _long_table(long_runs, long, cores, load_before, load_after)]


def _side_by_side(files, configs, seconds, clock, turns: int = 0) -> dict[str, list]:
    """One run of every configuration on a variant before the next variant starts, so a
    change of the machine's load falls on all of them alike."""
    runs: dict[str, list] = {label: [] for label, _ in configs}
    total = len(files) * len(configs)
    for v, path in enumerate(files):
        for c, (label, config) in enumerate(configs):
            what = f"{path.stem}{' turned' if turns else ''}, {label}, {seconds:g} s"
            progress(what, v * len(configs) + c + 1, total)
            runs[label].append(_run(path, "edges", seconds, 1, clock, config, turns))
    return runs


def _mean(values: list[float | None]) -> float | None:
    """The mean to one decimal; None (no figure) when a run found no board."""
    if not values or any(v is None for v in values):
        return None
    return round(sum(values) / len(values), 1)


def _variants_table(files, runs, label, seconds, clock) -> Table:
    rows = []
    for path, (result, score, tiles) in zip(files, runs):
        rows.append([path.stem, score, tiles, round(result.seconds_to_best, 1),
                     round(result.seconds, 1), round(result.cpu_seconds, 1)])
    scores = [r[1] for r in rows]
    rows.append(["mean", _mean(scores), _mean([r[2] for r in rows]), None,
                 _mean([r[4] for r in rows]), _mean([r[5] for r in rows])])
    for name, mean, best in PUBLISHED:
        rows.append([f"published: {name} (mean, best of v00-v09)", mean, None, None, None,
                     f"best {best}"])
    budget = f"{seconds:g} s of CPU time" if clock == "cpu" else f"{seconds:g} s"
    return Table(
        f"Eternity II, five variants, {budget} on one core each ({label})",
        ["variant", "matched edges (of 480)", "tiles placed", "best found at (s)",
         "search s (wall)", "CPU s"], rows,
        [f"One worker (`cpkit match FILE --maximize edges --workers 1 --time-limit "
         f"{seconds:g}`), seed 0.  The published figures are one 60 s run on one core per "
         f"variant, mean and best over their ten variants (v00-v09; these are v00-v04).  CPU s "
         f"below the search seconds means the run shared its core with other work."])


def _turned_table(files, default, turned, seconds) -> Table:
    rows = [[path.stem, drawn[1], other[1]] for path, drawn, other in zip(files, default, turned)]
    rows.append(["mean", _mean([r[1] for r in rows]), _mean([r[2] for r in rows])])
    return Table(
        f"The same variants turned a quarter: matched edges, {seconds:g} s on one core each",
        ["variant", "as published", "turned a quarter"], rows,
        ["The default of the first table on each variant turned clockwise by a quarter "
         "(`EdgeMatchingPuzzle.turned`: the tiles as they are, the hints and pinned corners "
         "moved and turned with the board), seed 0.  The scan then starts from another "
         "corner, beside other hinted tiles."])


def _ablation_table(files, runs, configs, seconds) -> Table:
    rows = []
    for label, _ in configs:
        scores = [score for _, score, _ in runs[label]]
        cpu = [r.cpu_seconds for r, _, _ in runs[label]]
        found = [r.seconds_to_best for r, _, _ in runs[label]]
        rows.append([label, *scores, _mean(scores), _mean(found), _mean(cpu)])
    return Table(
        f"What each method contributes: matched edges, {seconds:g} s on one core per variant",
        ["configuration", *[p.stem for p in files], "mean", "mean s to best", "mean CPU s"],
        rows,
        ["Every configuration runs on a variant before the next variant starts (side by side).  "
         "scan: the row-scan backtracker with its break schedule and restarts; adapted: the "
         "schedule aims one break lower after each better board; favoured colours: the top "
         "of the board uses up the sides of a frame colour and two inner colours "
         "(cpkit.optimise.favour; every row but the second); last rows by column: the scan "
         "fills the last two rows column by column, each frame tile right after the tile "
         "above it (cpkit.optimise.schedule.fill_order); assignment: pairwise "
         "non-adjacent cells refilled by an optimal assignment; refill: a window around a "
         "break emptied and searched again by the scan kernel."])


def _long_table(long_runs, long, cores, load_before, load_after) -> Table:
    rows = []
    for objective, (result, score, tiles) in long_runs:
        rows.append(["e2_clues5", objective, result.workers, score, tiles,
                     round(result.seconds_to_best, 1), round(result.seconds, 1),
                     round(result.cpu_seconds, 1)])
    return Table(
        f"Eternity II with the 5 clues, {long:g} s on all cores",
        ["puzzle", "objective", "workers", "matched edges (of 480)", "tiles placed",
         "best found at (s)", "search s (wall)", "CPU s (workers)"], rows,
        [f"`cpkit match e2_clues5.native --maximize OBJECTIVE --time-limit {long:g}` ({cores} "
         f"workers sharing the best board every 20 s).  Load average before the suite "
         f"{load_before}, after it {load_after}."])
