"""The DLX-to-FILA hybrid (engines ``hybrid``, ``auto`` and ``fila``) as a ``Splittable``.

A path is the puzzle image placed at each depth.  Above the switch (``fila_at`` pieces
remaining) the depths are DLX's, replayed by ``DlxSearch.descend``; below it they are FILA's,
replayed by the FILA kernel (``FilaSearch.replay``: the search walks the branch as it first
reached it, then ends when it has searched the subtree there).  A node at or below the switch
is searched by FILA alone: DLX is not resumed after its subproblem.  FILA alone (``fila``) is the
hybrid whose switch is the root.

Counts, nodes and the fits and attempts of every level add up to the sequential run's: the
frontier search counts every level above the split depth (it stops on entering a node of that
depth, before choosing a target there), each subproblem the levels at and below its node, and
the replay counts nothing.  The hand-over figures (``fila_subproblems``, ``list_entries``) count
work done: a FILA subproblem that is split further is compiled once per part.

Random probes (Knuth's estimator) walk the tree level by level: the node's children are listed
by a search that stops at the next depth, one is drawn among all the node's fits (a fit whose
node fails at once ends the probe), and the walk replays down to it.  That costs a replay per
level (a FILA subproblem compiles once per probe), so fewer probes are spent on ordering the
subproblems than for DLX (``order_probes``).
"""

from __future__ import annotations

import time
from dataclasses import replace
from typing import Any, Callable

import numpy as np

from ....errors import InputError
from ....models import reorient
from ....models.tiling import Puzzle
from ....result import Figures, Result
from ...exact_cover.dlx import dlx_layout
from . import hybrid_search as hybrid
from .. import tiling_front as tiling
from ..tiling_result import counted, part_stats
from ...runtime.driver import drive
from ...exact_cover.dlx.dlx_split import SubproblemSink, worker_id
from ....parallel.protocol import Frontier, Part, Path, Probe, capped

#: The FILA engine alone is the hybrid with the switch at the root.
FILA_ALONE = "fila"
#: Searches the automatic configuration estimates under this many seconds (its cost model's,
#: 1.3 to 2.8 times the search's) are searched in one process (``worth_splitting``).
SPLIT_FROM = 2.0


class HybridTree:
    """A prepared hybrid search, split into subtrees (see ``protocol.Splittable``)."""

    #: Probes cost a replay per level here, so fewer are spent on ordering the subproblems
    #: and on deciding whether a run is worth splitting (``plan``, ``runner``).
    order_probes = 100
    size_probes = 40

    def __init__(self, puzzle: Puzzle, front: tiling.Front, config: hybrid.Config,
                 engine_options: dict[str, Any], make_result: Callable[..., Result]):
        self.puzzle = puzzle
        self.front = front
        self.config = config
        self.proof = front.proof
        self.max_depth = puzzle.n_pieces
        self._make_result = make_result
        self.search, self.jit_seconds = hybrid.build_search(
            puzzle, config, front.keep, store=True, **engine_options)
        self._sink: Callable[[np.ndarray], None] = lambda ids: None
        self.turn: reorient.Turn | None = None        # set when the puzzle was turned
        self.choice = None                              # the automatic configuration, if any
        #: Its estimate of the search's seconds (0.0: its first nodes finished the search),
        #: or None (``worth_splitting``).
        self.estimated_seconds: float | None = None
        self.orientation = "file"
        self.search.on_images = lambda ids: self._sink(ids)

    def worth_splitting(self) -> bool | None:
        """Whether a run on all cores should split this search (None: the runner's estimate
        of the tree decides).  The automatic configuration's estimate decides where there is
        one: workers start and prepare the puzzle again in about 0.4 s, which searches
        estimated under ``SPLIT_FROM`` seconds do not win back (the pentominoes in 12 x 5:
        0.41 s in one process, 0.86 s split; the square 8 x 8, estimated at 1.3 s: 1.38 s
        against 1.43 s; the 2 x 4 x 8 box with the L tetromino, 5.1 s: 3.23 s against
        2.97 s).  Its Knuth estimate from 40 walks, which decided before, was off by up to
        20 times either way (the Bedlam cube: 5 million nodes for 106 million)."""
        if self.estimated_seconds is None:
            return None
        return self.estimated_seconds >= SPLIT_FROM

    # ------------------------------------------------------------------ helpers
    def _at(self, path: Path, sink: Callable[[np.ndarray], None]) -> hybrid.HybridSearch:
        """The search, reset and walked down to ``path``; found solutions go to ``sink``."""
        search = self.search
        search.reset()
        self._sink = sink
        if not search.descend(np.asarray(path, dtype=np.int64)):
            raise InputError(f"subproblem {path} does not exist in this model under these "
                             f"options (was it split from another puzzle or another version?)")
        return search

    def _part(self, count: int, complete: bool, seconds: float, solutions: list[list[int]],
              cpu_start: float) -> Part:
        search = self.search
        stats = search.stats()
        p = self.max_depth
        fits = [int(stats.fits_by_remaining[p - d]) for d in range(p + 1)]
        attempts = [int(stats.attempts_by_remaining[p - d]) for d in range(p + 1)]
        extra = {k: int(v) for k, v in stats.extra.items() if k != "fila_at"}
        return Part(count=count, found=search.solutions, nodes=search.nodes, fits=fits,
                    attempts=attempts, extra=extra, complete=complete, seconds=seconds,
                    solutions=solutions, cpu_seconds=time.thread_time() - cpu_start,
                    worker=worker_id())

    def accept(self, ids: np.ndarray) -> bool:
        return self.front.counts(ids)

    def decode(self, solution: list[int]):
        """A solution (puzzle images) as a tiling, in the frame of the file the puzzle was
        turned from, if it was (``turn``: the automatic orientation)."""
        tiling_ = self.puzzle.tiling_from_images(np.asarray(solution, dtype=np.int64))
        return tiling_ if self.turn is None else reorient.tiling_back(tiling_, self.turn)

    # ------------------------------------------------------------------ the protocol
    def frontier(self, depth: int, store: bool, cancel: Callable[[], bool] | None = None,
                 max_paths: int | None = None) -> Frontier:
        paths: list[Path] = []
        shallow: list[tuple[int, list[int]]] = []

        def sink(ids: np.ndarray) -> None:
            if self.accept(ids):
                shallow.append((len(paths), [int(i) for i in ids] if store else []))

        cpu = time.thread_time()
        search = self._at([], sink)
        search.stop_at(depth)

        def step(max_new: int, budget: int) -> tuple[bool, int]:
            finished, new = search.step(max_new, budget)
            if search.at_stop_level:
                paths.append([int(i) for i in search.placed_images()])
            return finished, new

        outcome = drive(step, limit=None, time_limit=None,
                        cancel=capped(cancel, paths, max_paths))
        above = self._part(len(shallow), outcome.complete, outcome.seconds,
                           [s for _, s in shallow] if store else [], cpu)
        return Frontier(depth, paths, above, shallow if store else [])

    def solve(self, path: Path, *, store: bool, limit: int | None = None,
              time_limit: float | None = None, cancel: Callable[[], bool] | None = None,
              max_stored: int | None = None,
              on_progress: Callable[[dict[str, int]], None] | None = None) -> Part:
        sink = SubproblemSink(self.accept, store=store, limit=limit, max_stored=max_stored)
        cpu = time.thread_time()
        search = self._at(path, sink)
        report = None if on_progress is None else lambda: on_progress(
            {"nodes": search.nodes, "solutions": sink.counted, "deepest": search.deepest})
        outcome = drive(search.step, limit=None, time_limit=time_limit, cancel=cancel,
                        on_progress=report)
        return self._part(sink.counted, outcome.complete, outcome.seconds, sink.solutions, cpu)

    def _children(self, path: Path, in_subproblem: bool = False
                  ) -> tuple[int, list[int], list[np.ndarray]]:
        """The fits made at the node ``path`` (its branching degree), the images of its
        children that are open nodes, and the solutions among its children.
        ``in_subproblem``: ``path`` is below the switch node DLX stands at (a probe's), so
        only FILA's part is replayed."""
        solutions: list[np.ndarray] = []
        if in_subproblem:
            search = self.search
            self._sink = solutions.append
            if not search.restart_subproblem(np.asarray(path[search.switch:])):
                self._at(path, solutions.append)         # raises the mismatch error
        else:
            search = self._at(path, solutions.append)
        search.stop_at(len(path) + 1)
        live: list[int] = []
        while True:
            finished, _ = search.step(1 << 30, 1 << 62)
            if search.at_stop_level:
                live.append(int(search.placed_images()[-1]))
            elif finished:
                break
        degree = search.stats().fits_by_remaining[self.max_depth - len(path)]
        return int(degree), live, solutions

    def _walk_dlx(self, path: Path, rand: list[float], depth: int
                  ) -> Probe | tuple[list[int], list[int]]:
        """DLX's part of a probe: one kernel call walks from ``path`` down to ``depth`` (at
        most the switch), drawing each branch from ``rand`` as ``_children`` would; the
        path reached and the degrees on the way, or the finished probe if the walk ended
        (a solution, a dead end).  Listing the children level by level replays the path from
        the root each time: a chain of 4,225 identical monominoes took minutes to probe."""
        search = self.search
        search.reset()
        rows = np.searchsorted(self.search.image_ids, np.asarray(path, dtype=np.int64))
        if len(path) and (np.any(rows >= len(search.image_ids)) or np.any(
                search.image_ids[np.minimum(rows, len(search.image_ids) - 1)] != path)):
            self._at(path, lambda ids: None)            # raises the mismatch error
        status, level, degree = search.dlx.descend(rows.astype(np.int32), depth,
                                                   np.asarray(rand, dtype=np.float64))
        if status == dlx_layout.DESCENT_MISMATCH:
            self._at(path, lambda ids: None)
        degrees = [int(d) for d in degree[len(path):level]]
        placed = [int(i) for i in search.image_ids[search.dlx.placed_rows()]]
        if status == dlx_layout.DESCENT_SOLUTION:
            return Probe(degrees, 0, int(self.accept(np.asarray(placed, dtype=np.int64))))
        if status != dlx_layout.DESCENT_READY or level < depth:
            return Probe(degrees)
        return placed, degrees

    def probe(self, path: Path, rand: list[float], stop_depth: int | None = None,
              cancel: Callable[[], bool] | None = None) -> Probe | None:
        cur = list(path)
        degrees: list[int] = []
        target = self.max_depth if stop_depth is None else max(stop_depth, len(path))
        top = min(target, self.search.switch)
        positioned = False      # DLX stands at the switch node of this branch
        if len(cur) < top:
            walked = self._walk_dlx(cur, rand, top)
            if isinstance(walked, Probe):
                return walked
            cur, degrees = walked
            positioned = len(cur) >= self.search.switch
        while len(cur) < target:
            if cancel is not None and cancel():
                return None
            degree, live, solutions = self._children(cur, positioned)
            positioned = len(cur) >= self.search.switch
            if degree == 0:
                return Probe(degrees)           # a dead end: no branch taken here
            degrees.append(degree)
            k = min(int(rand[len(cur)] * degree), degree - 1)
            if solutions:
                # Only the last level has solutions among its children (every fit there is one).
                return Probe(degrees, 0, int(k < len(solutions) and self.accept(solutions[k])))
            if k >= len(live):
                return Probe(degrees)           # a child that fails at once
            cur.append(live[k])
        if len(cur) >= self.max_depth:
            return Probe(degrees)
        part = self.solve(cur, store=False, cancel=cancel)
        if not part.complete:
            return None
        return Probe(degrees, part.nodes, part.count, seconds=part.seconds)

    def result(self, total: Part, *, complete: bool, stop_reason: str, seconds: float,
               jit_seconds: float, solutions: list[list[int]]) -> Result:
        return self._make_result(total, complete, stop_reason, seconds, jit_seconds,
                                 [self.decode(s) for s in solutions])


def prepare(model: Puzzle, options: dict[str, Any], engine: str = "auto") -> HybridTree:
    """The ``Splittable`` for ``model`` under the solve options of the hybrid engine ``engine``
    (``hybrid``, ``auto``, or ``fila`` for FILA alone).  ``auto`` searches the puzzle in the
    orientation and configuration ``search.autoconfig`` chooses (the same in every process:
    the choice is deterministic), and decodes solutions back into the file's frame."""
    from ..auto import tiling_auto_search as auto

    options = dict(options)
    orientation = options.pop("orientation", "auto")
    if engine == "auto":
        choice = auto.choice_for(model, orientation=orientation, keep=True, **options)
        if choice is not None:
            finished = choice.started is not None and choice.started.search.finished
            # The split enumerates its own tree: the search begun before the choice (the
            # same in every process, as the choice) is not gone on with.
            choice = replace(choice, started=None)
            config = choice.config
            options.update(heuristic=str(config.schedule), fila_at=config.fila_at,
                           nof=config.nof, redundancy=choice.redundancy)
            tree = _prepare(choice.candidate.puzzle, options, engine, choice.front)
            tree.turn = choice.candidate.turn
            tree.choice = choice
            tree.estimated_seconds = 0.0 if finished else \
                choice.chosen.seconds if choice.chosen is not None else None
            tree.orientation = orientation
            return tree
    return _prepare(model, options, engine)


def _prepare(model: Puzzle, options: dict[str, Any], engine: str,
             front: tiling.Front | None = None) -> HybridTree:
    """``prepare`` on the puzzle as given (``front``: its preparation, if made already)."""
    from ..auto import tiling_auto_search as auto
    from ..fila import fila_search as fila

    engine_fn = fila.solve_tiling if engine == FILA_ALONE else hybrid.solve_tiling
    if front is None:
        front = tiling.prepare(model, engine_name=engine, engine_fn=engine_fn, **options)
        engine_options = dict(front.engine_options)
    else:
        engine_options = front.searched_with(options)
    heuristic = engine_options.pop("heuristic", "f" if engine == FILA_ALONE else None)
    fila_at = model.n_pieces if engine == FILA_ALONE else engine_options.pop("fila_at", None)
    nof = engine_options.pop("nof", None)
    constrained = front.plan is not None and front.plan.piece is not None
    config = hybrid.make_config(model, heuristic, fila_at, nof, constrained)
    unique = options.get("unique", "rotation")
    front_options = tiling.Front.front_options(options.get("redundancy", "auto"),
                                               options.get("volume_filter", True),
                                               options.get("parity_filter", True),
                                               options.get("fit_filter", False))
    tree: HybridTree

    def make_result(total: Part, complete, stop_reason, seconds, jit_seconds, solutions):
        """Assembled as a run in one process's (``tiling_result``): FILA alone reports as
        ``fila_search`` does, with no hand-over."""
        figures = Figures(total.found, complete, stop_reason, seconds,
                          tree.jit_seconds + jit_seconds, part_stats(total, model.n_pieces),
                          solutions)
        images = len(tree.search.image_ids)
        if engine == FILA_ALONE:
            result = fila.result_of(model, figures, str(config.schedule), config.nof, images)
        else:
            result = hybrid.result_of(model, config, images, figures)
        counted(result, front, unique=unique, count=total.count, found=total.found,
                front_options=front_options)
        return result if tree.choice is None else \
            auto.with_choice(result, tree.choice, tree.orientation)

    tree = HybridTree(model, front, config, engine_options, make_result)
    return tree


def prepare_fila(model: Puzzle, options: dict[str, Any]) -> HybridTree:
    return prepare(model, options, FILA_ALONE)


def prepare_hybrid(model: Puzzle, options: dict[str, Any]) -> HybridTree:
    return prepare(model, options, "hybrid")
