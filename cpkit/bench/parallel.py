"""Split-run benchmark: the same count with 1 and 2 workers (issue: long runs)."""

from __future__ import annotations

import tempfile
import time
from pathlib import Path

from . import Table
from .tiling import INSTANCES, _puzzle


def _row(label: str, name: str, result, wall: float, base: float | None) -> list:
    extra = result.stats.extra
    return [name, label, result.count, result.stats.fits, extra.get("subproblems"),
            result.seconds, wall, extra.get("startup_seconds"), extra.get("plan_seconds"),
            result.jit_seconds, extra.get("busy_seconds"),
            (base / result.seconds) if base else 1.0]


def parallel_suite(quick: bool = False) -> list[Table]:
    """Sequential DLX against split runs: in one process (the cost of splitting) and over two
    worker processes (the speedup).  Start-up (spawning and warming the workers, planning the
    split) is reported apart from the search."""
    from ..parallel.checkpoint import model_identity
    from ..parallel.runner import run
    from ..search import solve

    names = ["somacube.txt", "pentominoes_10x6.txt"] if quick else \
        ["pentominoes_10x6.txt", "tetriscube.txt"]
    rows = []
    for name in names:
        puzzle = _puzzle(name)
        solve(puzzle, count_only=True, limit=1)          # load the kernels before timing
        t0 = time.perf_counter()
        seq = solve(puzzle, count_only=True)
        rows.append(_row("sequential (1 worker)", puzzle.name, seq, time.perf_counter() - t0,
                         None))
        with tempfile.TemporaryDirectory() as tmp:
            t0 = time.perf_counter()
            inline = run(puzzle, workers=1, count_only=True, checkpoint=str(Path(tmp) / "ck"),
                         checkpoint_every=1e9, source=model_identity(INSTANCES / name))
            rows.append(_row("split, in this process", puzzle.name, inline,
                             time.perf_counter() - t0, seq.seconds))
        t0 = time.perf_counter()
        two = run(puzzle, workers=2, count_only=True)
        rows.append(_row("split, 2 worker processes", puzzle.name, two,
                         time.perf_counter() - t0, seq.seconds))
        assert seq.count == inline.count == two.count
        assert seq.stats.fits_by_remaining == two.stats.fits_by_remaining
    return [Table(
        "Split runs: counts up to rotation (default filters), 1 and 2 workers",
        ["puzzle", "run", "solutions", "fits", "subproblems", "search s", "wall s",
         "start-up s", "plan s", "jit s", "busy s", "speedup (search)"],
        rows,
        ["`search s` is the search proper: the frontier search plus the time from handing out "
         "the first subproblem to merging the last, with the workers already started and "
         "warm.  `start-up s` is spawning the workers, each preparing the puzzle and loading "
         "the numba cache, while this process splits the tree and estimates the subproblems "
         "(`plan s`, part of the start-up).  `busy s` adds up the workers' own search "
         "times: with two workers busy all along it is twice the search time, so `busy s / "
         "(2 * search s)` tells how well the work was spread, whatever else ran on the "
         "machine.  `wall s` is everything, as a user waits for it.  "
         "The speedup is sequential search seconds over the run's search seconds, measured in "
         "the same run; counts and per-level fits are checked equal."])]
