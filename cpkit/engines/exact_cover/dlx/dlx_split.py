"""DLX (tilings and exact covers) as a ``Splittable``: the subproblem protocol for dancing links.

A path is the option (row of the prepared cover) placed at each depth.  Replaying it
(``DlxSearch.descend``) repeats the heuristic's choice of item at each level, and for an item
needed several times (identical pieces) hides the options tried before the recorded one, exactly
as the sequential search has done when it reaches that branch; the node is then searched with
the same kernel, stopping when it backtracks out of the node.

The figures add up to the sequential run's: the frontier search counts every placement above the
split depth and every solution reached there (the kernel tests for a solution before it stops at
the depth), each subproblem counts the placements below its node.  The entry work at the split
node (triggers, dynamic filters) runs in the frontier search and again, as a no-op, in the
subproblem; its filter count is kept from the frontier search only.
"""

from __future__ import annotations

import os
import socket
import threading
import time
from typing import Any, Callable

import numpy as np

from ....models.exact_cover import ExactCover
from ....models.tiling import Puzzle
from ....result import Figures, Result
from . import dlx_layout as L
from . import dlx_search as dlx
from ...runtime.driver import StopSearch, drive
from ....parallel.protocol import Frontier, Part, Path, Probe, capped


def worker_id() -> str:
    """Which worker searched a part (host, process, thread): CPU time is summed per worker."""
    return f"{socket.gethostname()}:{os.getpid()}:{threading.get_ident()}"


class SubproblemSink:
    """The solution callback of one subproblem's search (DLX's rows or the hybrid's images):
    counts the solutions ``accept`` lets through, keeps the first ``max_stored`` of them if
    ``store``, and ends the search (``StopSearch``) once ``limit`` are counted."""

    def __init__(self, accept: Callable[[np.ndarray], bool], *, store: bool,
                 limit: int | None, max_stored: int | None):
        self.accept = accept
        self.store = store
        self.limit = limit
        self.max_stored = max_stored
        self.counted = 0
        self.solutions: list[list[int]] = []

    def __call__(self, ids: np.ndarray) -> None:
        if not self.accept(ids):
            return
        self.counted += 1
        if self.store and (self.max_stored is None or len(self.solutions) < self.max_stored):
            self.solutions.append([int(i) for i in ids])
        if self.limit is not None and self.counted >= self.limit:
            raise StopSearch


class DlxTree:
    """A prepared DLX search, split into subtrees (see ``protocol.Splittable``)."""

    def __init__(self, prepared: dlx.Prepared, *, accept: Callable[[np.ndarray], bool] | None,
                 decode: Callable[[list[int]], Any],
                 make_result: Callable[..., Result], proof: Result | None = None):
        """``accept(rows)``: whether a found solution counts (None: every one does, and the
        kernel need not hand solutions back when they are not kept)."""
        self.prepared = prepared
        self.accept = accept or (lambda rows: True)
        self.accept_all = accept is None
        self.decode = decode
        self._make_result = make_result
        self.proof = proof
        self.max_depth = prepared.cover.max_depth()
        self._search: dlx.DlxSearch | None = None

    def _fresh(self, on_rows, rows_needed: bool = True) -> dlx.DlxSearch:
        """A search at the root; reused between subproblems (resetting copies the matrix).
        Found solutions go to ``on_rows`` if ``rows_needed``, else are only counted."""
        if self._search is None:
            self._search = self.prepared.search(store=True)
        else:
            self._search.reset()
        self._search.on_rows = on_rows
        self._search.store = rows_needed
        self._search.stop_level = -1
        return self._search

    def _part(self, search: dlx.DlxSearch, count: int, complete: bool, seconds: float,
              solutions: list[list[int]], cpu_start: float) -> Part:
        return Part(count=count, found=search.solutions, nodes=search.nodes,
                    fits=[int(v) for v in search.fits], extra=search.constraint_stats(),
                    complete=complete, seconds=seconds, solutions=solutions,
                    cpu_seconds=time.thread_time() - cpu_start, worker=worker_id())

    def frontier(self, depth: int, store: bool, cancel: Callable[[], bool] | None = None,
                 max_paths: int | None = None) -> Frontier:
        paths: list[Path] = []
        shallow: list[tuple[int, list[int]]] = []

        def on_rows(rows: np.ndarray) -> None:
            if self.accept(rows):
                shallow.append((len(paths), [int(r) for r in rows] if store else []))

        cpu = time.thread_time()
        rows_needed = store or not self.accept_all
        search = self._fresh(on_rows, rows_needed)
        search.stop_level = depth
        outcome = drive(lambda n, b: self._frontier_step(search, paths, n, b), limit=None,
                        time_limit=None, cancel=capped(cancel, paths, max_paths))
        count = len(shallow) if rows_needed else search.solutions
        above = self._part(search, count, outcome.complete, outcome.seconds,
                           [s for _, s in shallow] if store else [], cpu)
        return Frontier(depth, paths, above, shallow if store else [])

    @staticmethod
    def _frontier_step(search: dlx.DlxSearch, paths: list[Path], max_new: int,
                       budget: int) -> tuple[bool, int]:
        finished, new = search.step(max_new, budget)
        if search.at_stop_level:
            paths.append([int(r) for r in search.placed_rows()])
        return finished, new

    def _descend(self, search: dlx.DlxSearch, path: Path) -> None:
        status, _, _ = search.descend(np.asarray(path, dtype=np.int32))
        if status != L.DESCENT_READY:
            from ....errors import InputError

            raise InputError(f"subproblem {path} does not exist in this model under these "
                             f"options (was it split from another puzzle or another version?)")

    def solve(self, path: Path, *, store: bool, limit: int | None = None,
              time_limit: float | None = None, cancel: Callable[[], bool] | None = None,
              max_stored: int | None = None,
              on_progress: Callable[[dict[str, int]], None] | None = None) -> Part:
        sink = SubproblemSink(self.accept, store=store, limit=limit, max_stored=max_stored)
        cpu = time.thread_time()
        rows_needed = store or not self.accept_all
        search = self._fresh(sink, rows_needed)
        self._descend(search, path)

        def count() -> int:
            return sink.counted if rows_needed else search.solutions

        report = None if on_progress is None else lambda: on_progress(
            {"nodes": search.nodes, "solutions": count(), "deepest": search.deepest})
        outcome = drive(search.step, limit=None if rows_needed else limit,
                        time_limit=time_limit, cancel=cancel, on_progress=report)
        return self._part(search, count(), outcome.complete, outcome.seconds, sink.solutions,
                          cpu)

    def probe(self, path: Path, rand: list[float], stop_depth: int | None = None,
              cancel: Callable[[], bool] | None = None) -> Probe | None:
        counted = 0

        def on_rows(rows: np.ndarray) -> None:
            nonlocal counted
            counted += bool(self.accept(rows))

        search = self._fresh(on_rows)
        full = np.full(self.max_depth + 1, -1, dtype=np.int32)
        full[:len(path)] = path
        target = self.max_depth if stop_depth is None else max(stop_depth, len(path))
        status, level, degree = search.descend(full, target, np.asarray(rand, dtype=np.float64))
        degrees = [int(d) for d in degree[len(path):level]]
        if status == L.DESCENT_MISMATCH:
            self._descend(search, path)          # raises the mismatch error
        if status == L.DESCENT_SOLUTION:
            on_rows(search.placed_rows())
            return Probe(degrees, 0, counted)
        if status != L.DESCENT_READY or level < target:
            return Probe(degrees)
        outcome = drive(search.step, limit=None, time_limit=None, cancel=cancel)
        if not outcome.complete:
            return None
        return Probe(degrees, search.nodes, counted, seconds=outcome.seconds)

    def result(self, total: Part, *, complete: bool, stop_reason: str, seconds: float,
               jit_seconds: float, solutions: list[list[int]]) -> Result:
        return self._make_result(total, complete, stop_reason, seconds, jit_seconds,
                                 [self.decode(s) for s in solutions])


def prepare(model: ExactCover | Puzzle, options: dict[str, Any]) -> DlxTree:
    """The ``Splittable`` for ``model`` under the solve options (those of ``cpkit.solve``
    that shape the search: counting mode, filters, heuristic, triggers)."""
    if isinstance(model, Puzzle):
        return _prepare_tiling(model, options)
    return _prepare_cover(model, options)


def _prepare_cover(cover: ExactCover, options: dict[str, Any]) -> DlxTree:
    from ....errors import EngineUnavailable

    options = dict(options)
    if options.pop("unique", None) not in (None, "raw"):
        raise EngineUnavailable("exact covers have no symmetry to count up to; use unique='raw'")
    prepared = dlx.prepare_cover(cover, **options)
    jit = dlx.jit_seconds()

    def make_result(total: Part, complete, stop_reason, seconds, jit_seconds, solutions):
        figures = Figures(total.count, complete, stop_reason, seconds, jit + jit_seconds,
                          dlx.cover_stats(total.fits, total.nodes), solutions)
        return dlx.result_of_cover(cover, figures, str(prepared.schedule))

    return DlxTree(prepared, accept=None, decode=sorted, make_result=make_result)


def _prepare_tiling(puzzle: Puzzle, options: dict[str, Any]) -> DlxTree:
    from ...tiling import tiling_front as tiling
    from ...tiling.tiling_result import counted, part_stats

    front = tiling.prepare(puzzle, engine_name=dlx.ENGINE, **options)
    engine_options = dict(front.engine_options)
    heuristic = engine_options.pop("heuristic", "s")
    prepared = dlx.prepare_tiling(puzzle, front.keep, heuristic, **engine_options)
    image_ids = prepared.image_ids
    jit = dlx.jit_seconds()
    unique = options.get("unique", "rotation")
    front_options = tiling.Front.front_options(options.get("redundancy", "auto"),
                                               options.get("volume_filter", True),
                                               options.get("parity_filter", True),
                                               options.get("fit_filter", False))

    def accept(rows: np.ndarray) -> bool:
        return front.counts(image_ids[rows])

    def decode(rows: list[int]):
        return puzzle.tiling_from_images(image_ids[np.asarray(rows, dtype=np.int64)])

    def make_result(total: Part, complete, stop_reason, seconds, jit_seconds, solutions):
        figures = Figures(total.found, complete, stop_reason, seconds, jit + jit_seconds,
                          part_stats(total, puzzle.n_pieces), solutions)
        result = dlx.result_of_tiling(puzzle, figures, str(prepared.schedule),
                                      prepared.cover.n_options)
        return counted(result, front, unique=unique, count=total.count, found=total.found,
                       front_options=front_options)

    return DlxTree(prepared, accept=accept if front.check else None, decode=decode,
                   make_result=make_result,
                   proof=front.proof)
