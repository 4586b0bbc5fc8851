"""A hybrid search begun before its run: the automatic configuration (``tiling_autoconfig``)
searches a puzzle for a while before estimating anything, and a run whose choice keeps that
configuration goes on with the search (``hybrid_search.solve_tiling``'s ``started``)."""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Callable

import numpy as np

from ....models.tiling import Puzzle
from .hybrid_search import Config, HybridSearch, build_search


#: Nodes a ``Started`` search bounded by its subproblems or its work runs before its first
#: look at them, twice as many before each next (a look is a call from Python: tens of
#: microseconds), at most ``STARTED_CHUNK_MAX`` (a look past the bound overshoots it by one).
STARTED_CHUNK = 2_000
STARTED_CHUNK_MAX = 16_000


@dataclass
class Started:
    """A search of ``config`` begun before its run, ``seconds`` and ``nodes`` long (built in
    ``built_in`` seconds, compiling apart), its solutions so far in ``search.found``: the
    automatic configuration searches a puzzle first for some nodes and chooses only if that
    did not finish it, and a run that chooses the same configuration goes on with it
    (``solve_tiling``'s ``started``)."""

    config: Config
    search: HybridSearch
    seconds: float
    nodes: int
    built_in: float

    @classmethod
    def run(cls, puzzle: Puzzle, config: Config, keep: np.ndarray | None, nodes: int,
            subproblems: int | None = None, store: bool = True,
            enough: Callable[[HybridSearch], bool] | None = None, **options) -> "Started":
        """The search of ``config`` over the images in ``keep`` (``options``: the front's
        triggers and re-applied filters) run for about ``nodes`` nodes, or until it has handed
        about ``subproblems`` subproblems to FILA (None: no such bound), or until ``enough``
        says so of it (None: no such bound), storing what it finds if ``store`` (a run that
        only counts goes on without).  A hand-over costs as much as hundreds of nodes where
        the pieces are large (it compiles the subproblem's image lists): 50,000 nodes of a
        12 x 10 box cut into decominoes handed over 1,715 subproblems and took 0.48 s."""
        start = time.perf_counter()
        search, jit = build_search(puzzle, config, keep, store=store, **options)
        built = time.perf_counter()
        looks = subproblems is not None or enough is not None
        chunk = STARTED_CHUNK if looks else nodes
        while not search.finished and search.nodes < nodes and \
                (subproblems is None or search.subproblems < subproblems) and \
                (enough is None or not enough(search)):
            before = search.nodes
            search.step(1 << 62, min(chunk, nodes - search.nodes))
            if search.nodes == before:
                break
            chunk = min(2 * chunk, STARTED_CHUNK_MAX) if looks else chunk
        return cls(config, search, time.perf_counter() - built - search.late_jit,
                   search.nodes, built - start - jit)

    def go_on(self, on_images: Callable[[np.ndarray], None] | None,
              store: bool) -> HybridSearch:
        """The search, its solutions so far passed to ``on_images`` (or kept in ``found``
        when ``store`` says so and no callback takes them, dropped when not ``store``: a run
        that only counts), to go on with as if it had been built for this run.  A search
        begun without storing can only go on with a run that does not store either."""
        search = self.search
        if store and not search.store:
            raise AssertionError("a search begun only counting cannot list solutions")
        found, search.found = search.found, []
        search.on_images = on_images
        if not store:
            search.store = search.dlx.store = False
            if search.fila is not None:
                search.fila.store = False
        elif on_images is None:
            search.found = found
        else:
            for ids in found:
                on_images(ids)
        return search
