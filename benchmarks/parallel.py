"""Split-run benchmark: the same count with 1 and 2 workers."""

from __future__ import annotations

import tempfile
import time
from pathlib import Path

from . import Table, progress
from .tiling import INSTANCES, _puzzle


def _row(label: str, name: str, result, wall: float, base, cpu: float | None = None) -> list:
    """``base``: the sequential (search seconds, CPU seconds) to compare with."""
    extra = result.stats.extra
    critical = extra.get("critical_cpu_seconds", cpu)
    return [name, result.engine, label, result.count, result.stats.fits, extra.get("subproblems"),
            result.seconds, wall, extra.get("startup_seconds"), extra.get("plan_seconds"),
            result.jit_seconds, extra.get("busy_seconds"), critical,
            (base[0] / result.seconds) if base else 1.0,
            (base[1] / critical) if base and critical else 1.0]


def parallel_suite(quick: bool = False) -> list[Table]:
    """Sequential runs against split runs, for the default engine (the DLX-to-FILA hybrid) and
    DLX: in one process (the cost of splitting) and over two worker processes (the speedup).
    Start-up (spawning and warming the workers, planning the split) is reported apart from the
    search."""
    from cpkit.parallel import splitter
    from cpkit.parallel.checkpoint import model_identity
    from cpkit.parallel.runner import run

    names = ["somacube.txt", "pentominoes_10x6.txt"] if quick else \
        ["pentominoes_10x6.txt", "tetriscube.txt"]
    engines = ["auto"] if quick else ["auto", "dlx"]
    rows = []
    plan = [(n, e) for e in engines for n in names]
    for number, (name, engine) in enumerate(plan, 1):
        progress(f"{name}, {engine}", number, len(plan))
        puzzle = _puzzle(name)
        prepare = splitter("tiling", engine)
        # The sequential search: the whole tree as one subproblem, in this process (the same
        # kernel run as `cpkit tile --workers 1`, with its CPU time measured).
        tree = prepare(puzzle, {})
        tree.solve([], store=False, limit=1)                # kernels loaded before timing
        t0 = time.perf_counter()
        part = tree.solve([], store=False)
        seq = tree.result(part, complete=part.complete, stop_reason="complete",
                          seconds=part.seconds, jit_seconds=0.0, solutions=[])
        base = (part.seconds, part.cpu_seconds)
        rows.append(_row("sequential (1 worker)", puzzle.name, seq, time.perf_counter() - t0,
                         None, part.cpu_seconds))
        with tempfile.TemporaryDirectory() as tmp:
            t0 = time.perf_counter()
            inline = run(puzzle, engine=engine, workers=1, count_only=True, checkpoint=str(Path(tmp) / "ck"),
                         checkpoint_every=1e9, source=model_identity(INSTANCES / name))
            rows.append(_row("split, in this process", puzzle.name, inline,
                             time.perf_counter() - t0, base))
        t0 = time.perf_counter()
        two = run(puzzle, engine=engine, workers=2, count_only=True)
        rows.append(_row("split, 2 worker processes", puzzle.name, two,
                         time.perf_counter() - t0, base))
        assert seq.count == inline.count == two.count
        assert seq.stats.fits_by_remaining == two.stats.fits_by_remaining
    return [Table(
        "Split runs: counts up to rotation (default filters), 1 and 2 workers",
        ["puzzle", "engine", "run", "solutions", "fits", "subproblems", "search s", "wall s",
         "start-up s", "plan s", "jit s", "busy s", "critical CPU s", "speedup (search)",
         "speedup (CPU)"],
        rows,
        ["`search s` is the search proper: the frontier search plus the time from handing out "
         "the first subproblem to merging the last, with the workers already started and "
         "warm.  `start-up s` is spawning the workers, each preparing the puzzle and loading "
         "the numba cache, while this process splits the tree and estimates the subproblems "
         "(`plan s`, part of the start-up).  `busy s` adds up the workers' own search "
         "times: with two workers busy all along it is twice the search time, so `busy s / "
         "(2 * search s)` tells how well the work was spread, whatever else ran on the "
         "machine.  `critical CPU s` is the CPU time of the frontier search plus that of the "
         "busiest worker (for the sequential run, its CPU time): the search time the run "
         "would take with a core to itself per worker, which time-sharing with other "
         "programs cannot inflate; `speedup (CPU)` compares those.  `wall s` is everything, "
         "as a user waits for it.  "
         "The speedup is sequential search seconds over the run's search seconds, measured in "
         "the same run; counts and per-level fits are checked equal."])]
