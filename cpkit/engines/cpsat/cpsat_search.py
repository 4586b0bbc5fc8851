"""CP-SAT as an engine: enumerate the solutions of a model built by ``cpkit.models.cpsat``.

CP-SAT enumerates with ``enumerate_all_solutions`` on one worker; the callback counts, keeps
solutions unless counting only, and stops the search at the solution limit.  ``nodes`` is
CP-SAT's branch count, which is not comparable with a DLX fit count (it is reported so that the
effort is visible, not to rank engines).
"""

from __future__ import annotations

import threading
import time
from typing import Callable

import numpy as np

from ...models.cpsat import exact_cover_model
from ...models.exact_cover import ExactCover
from ...models.tiling import Puzzle
from ...result import COMPLETE, INTERRUPTED, LIMIT, TIME_LIMIT, Result, Stats
from ...signals import InterruptFlag
from ..runtime.driver import StopSearch

ENGINE = "cpsat"
#: How often the waiting thread looks for a Ctrl-C while CP-SAT searches.
WATCH_SECONDS = 0.05


#: What ``on_progress`` receives: {"solutions": ..., "branches": ...} (``SolverLine``).
Progress = Callable[[dict[str, int]], None]


def _enumerate(model, decode: Callable | None, emit: Callable, *, limit: int | None,
               time_limit: float | None, on_progress: Progress | None = None
               ) -> tuple[int, str, float, int]:
    """Enumerate ``model`` on one CP-SAT worker: each solution is ``decode``d from the callback
    and handed to ``emit`` (skipped when ``decode`` is None: counting only; ``emit`` may raise
    ``StopSearch``); stops after ``limit`` solutions.  ``on_progress`` is called from the
    waiting thread every ``WATCH_SECONDS`` with the solutions so far and the branch count at
    the latest (CP-SAT's statistics are readable only inside its callback).  Returns (count,
    stop reason, seconds, branches)."""
    from ortools.sat.python import cp_model

    class Collector(cp_model.CpSolverSolutionCallback):
        def __init__(self) -> None:
            super().__init__()
            self.count = 0
            self.branches = 0
            self.hit_limit = False

        def on_solution_callback(self) -> None:
            self.count += 1
            if on_progress is not None:
                self.branches = self.num_branches
            if decode is not None:
                try:
                    emit(decode(self))
                except StopSearch:
                    self.hit_limit = True
                    self.stop_search()
                    return
            if limit is not None and self.count >= limit:
                self.hit_limit = True
                self.stop_search()

    solver = cp_model.CpSolver()
    solver.parameters.enumerate_all_solutions = True
    solver.parameters.num_workers = 1
    solver.parameters.catch_sigint_signal = False      # InterruptFlag stops it, as any engine
    if time_limit is not None:
        solver.parameters.max_time_in_seconds = max(1e-3, float(time_limit))
    collector = Collector()
    start = time.perf_counter()
    with InterruptFlag() as interrupt:
        report = None if on_progress is None else (lambda: on_progress(
            {"solutions": collector.count, "branches": collector.branches}))
        status = _solve_watched(solver, model, collector, interrupt, report)
    seconds = time.perf_counter() - start
    if status in (cp_model.OPTIMAL, cp_model.INFEASIBLE):
        reason = COMPLETE
    elif collector.hit_limit:
        reason = LIMIT
    elif interrupt.raised:
        reason = INTERRUPTED
    elif time_limit is not None:
        # CP-SAT also gives up before the deadline when it predicts that its next check would
        # pass it (a long presolve step: "Stopped after presolve"); its budget ended all the same.
        reason = TIME_LIMIT
    else:
        raise RuntimeError(f"CP-SAT stopped with status {solver.status_name(status)}")
    return collector.count, reason, seconds, int(solver.num_branches)


def _solve_watched(solver, model, collector, interrupt: InterruptFlag,
                   report: Callable[[], None] | None) -> int:
    """``solver.solve`` on a helper thread (CP-SAT releases the GIL), while this thread, which
    receives the signals, stops it on the first Ctrl-C or SIGTERM: CP-SAT's own SIGINT handler
    would leave SIGTERM waiting for the search to end and could not tell a signal from a time
    limit.  A second signal raises KeyboardInterrupt here, after the search is stopped.  This
    thread also calls ``report`` while it waits (the progress line), and once when the search
    has ended, so that the last report holds the final figures as the other engines' do."""
    outcome: dict[str, object] = {}

    def run() -> None:
        try:
            outcome["status"] = solver.solve(model, collector)
        except BaseException as exc:                      # re-raised on the caller's thread
            outcome["error"] = exc

    worker = threading.Thread(target=run, name="cpkit-cpsat", daemon=True)
    worker.start()
    try:
        while worker.is_alive() and not interrupt.raised:
            if report is not None:
                report()
            worker.join(WATCH_SECONDS)
    finally:
        while worker.is_alive():
            # A stop that comes before CP-SAT has begun to solve is dropped, so ask until it ends.
            solver.stop_search()
            worker.join(WATCH_SECONDS)
    if "error" in outcome:
        raise outcome["error"]
    if report is not None:
        report()
    return outcome["status"]


def enumerate_cover(cover: ExactCover, *, limit: int | None, time_limit: float | None,
                    store: bool, on_rows: Callable[[list[int]], None] | None = None,
                    on_progress: Progress | None = None
                    ) -> tuple[list[list[int]], int, str, float, int]:
    """(solutions as option lists, count, stop reason, seconds, branches).  With ``on_rows``,
    each solution goes to it as it is found instead of into the list."""
    built = exact_cover_model(cover)
    if built.trivially_infeasible:
        return [], 0, COMPLETE, 0.0, 0
    x = built.option_vars
    found: list[list[int]] = []

    def decode(callback) -> list[int]:
        return [k for k, v in enumerate(x) if callback.boolean_value(v)]

    count, reason, seconds, branches = _enumerate(
        built.model, decode if store else None, on_rows or found.append, limit=limit,
        time_limit=time_limit, on_progress=on_progress)
    return found, count, reason, seconds, branches


def solve_cover(cover: ExactCover, *, limit: int | None = None, time_limit: float | None = None,
                count_only: bool = False,
                on_solution: Callable[[list[int]], None] | None = None,
                on_progress: Progress | None = None) -> Result:
    """As ``cpkit.engines.exact_cover.dlx.dlx_search.solve_cover``: ``on_solution`` gets each cover as it is found."""
    on_rows = None if on_solution is None else (lambda rows: on_solution(sorted(rows)))
    found, count, reason, seconds, branches = enumerate_cover(
        cover, limit=limit, time_limit=time_limit, store=not count_only, on_rows=on_rows,
        on_progress=on_progress)
    return Result("exact_cover", ENGINE, "raw", count, reason == COMPLETE, reason, seconds, 0.0,
                  [sorted(s) for s in found], Stats(nodes=branches), {}, cover.name)


def solve_tiling(puzzle: Puzzle, *, limit: int | None = None, time_limit: float | None = None,
                 count_only: bool = False, keep: np.ndarray | None = None,
                 on_images: Callable[[np.ndarray], None] | None = None,
                 on_progress: Progress | None = None) -> Result:
    """Raw tilings of ``puzzle`` through CP-SAT (every symmetric copy counted); ``keep`` and
    ``on_images`` as for ``cpkit.engines.exact_cover.dlx.dlx_search.solve_tiling``."""
    cover = puzzle.exact_cover(keep)
    image_ids = np.flatnonzero(keep) if keep is not None else np.arange(len(puzzle.images))
    on_rows = (lambda rows: on_images(image_ids[np.array(rows, dtype=np.int64)])) \
        if on_images is not None else None
    found, count, reason, seconds, branches = enumerate_cover(
        cover, limit=limit, time_limit=time_limit, store=on_images is not None or not count_only,
        on_rows=on_rows, on_progress=on_progress)
    tilings = [puzzle.tiling_from_images(image_ids[np.array(rows, dtype=np.int64)])
               for rows in found]
    return Result("tiling", ENGINE, "raw", count, reason == COMPLETE, reason, seconds, 0.0,
                  tilings, Stats(nodes=branches), {"images": cover.n_options}, puzzle.name)


def solve_edge_matching(puzzle, *, roots, limit: int | None = None,
                        time_limit: float | None = None, count_only: bool = False,
                        on_solution: Callable | None = None,
                        on_progress: Progress | None = None) -> Result:
    """Every solution of an edge-matching puzzle under each root (hints), enumerated by CP-SAT
    on ``cpkit.models.cpsat.edge_matching_model``; ``nodes`` is CP-SAT's branch count."""
    from ...models.cpsat import edge_matching_model

    solutions = []
    emit = on_solution if on_solution is not None else solutions.append
    count = branches = 0
    seconds = 0.0
    reason = COMPLETE
    for root in roots:
        sub = puzzle.with_hints(root)
        built = edge_matching_model(sub)
        a = sub.arrays
        orientation = {(int(a.ori_tile[o]), tuple(int(c) for c in a.ori_col[o])): o
                       for o in range(a.n_orientations)}

        def decode(callback, sub=sub, built=built, orientation=orientation):
            placed = []
            for cell, var in enumerate(built.tile_vars):
                shown = tuple(int(callback.value(v)) if not isinstance(v, int) else 0
                              for v in built.side_exprs[cell])
                placed.append(orientation[(int(callback.value(var)), shown)])
            return sub.solution_from_orientations(placed)

        def so_far(figures, count=count, branches=branches):
            on_progress({"solutions": count + figures["solutions"],
                         "branches": branches + figures["branches"]})

        found, reason, took, more = _enumerate(
            built.model, decode if not count_only or on_solution is not None else None, emit,
            limit=None if limit is None else limit - count,
            time_limit=None if time_limit is None else time_limit - seconds,
            on_progress=None if on_progress is None else so_far)
        seconds += took
        count += found
        branches += more
        if reason != COMPLETE:
            break
    return Result("edge_matching", ENGINE, "raw", count, reason == COMPLETE, reason, seconds,
                  0.0, solutions, Stats(nodes=branches), {}, puzzle.name)
