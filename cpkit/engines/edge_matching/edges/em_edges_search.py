"""Edge filtering as a compiled engine (``--engine edges``; the kernel is ``em_edges_kernel``).

ColorPair propagation reasons about the colours of the edges already known; it cannot see the
colours an empty neighbour can still show.  The paper's third model of section 6.3 does (a colour
variable per edge, arc consistency with the cells), and it is the one filter measured here that
cuts the brute force's nodes about a hundredfold on most boards (docs/benchmarks.md,
``em-alldiff``).  The Python reference (``--engine alldiff --edge-filtering``) makes a few hundred
nodes per second on a 10 x 10 board; this engine runs the same filtering in numba (28 to 190
thousand nodes per second) with two cheap tile rules in place of the complete AllDifferent;
without them it makes exactly the reference's nodes (the tests compare them, under both
branching rules).  With ``alldifferent=True`` (``--alldifferent``) it adds Régin's complete
AllDifferent and makes the nodes of the reference's whole third model: 1.04 to 1.2 times fewer
on the paper's boards, each 1.6 to 1.9 times dearer, so it is not the default.

``shave=L`` (``--shave L``) adds singleton tests on the cells of at most L orientations before
each branching, to a fixed point; on the paper's boards ``shave=2`` makes 2.2 to 4.5 times fewer
nodes for 7 to 52% more time (its trials are counted apart), so it is off by default.

It branches by dom/ddeg (the smallest ratio of orientations to empty neighbours) rather than the
paper's minDomain (``branching="min-domain"``): on the paper's ten Table 2 boards up to 3.5 times
fewer nodes (E_10_8: 21,226 against 74,817; E_10_17 alone 9% more), fewer than the paper's own
Choco model on E_10_5, E_10_7 and E_10_8.
"""

from __future__ import annotations

from functools import partial
from typing import Callable, Sequence

import numpy as np

from .... import sanity
from ....errors import InputError
from ....models.arrays import BoardArrays
from ....models.edge_matching import BoardSolution, EdgeMatchingPuzzle, Hint
from ....result import Figures, Result
from ....propagators import edge_supports_build as build
from ....propagators import edge_supports_layout as lay
from ....propagators import edge_supports_sanity
from . import em_edges_kernel as K
from .em_edges_options import DEFAULT_BRANCHING
from ..em_front import (CELL_RULES, DEFAULT_SHAVE, BufferedSearch, run_roots, shave_limit,
    warm_on_a_tiny_board)
from ..em_result import chain_figures, search_result

ENGINE = "edges"
#: dom/ddeg: fewer nodes than the paper's minDomain on nine of its ten Table 2 boards.
BUFFER = 1024
#: Edge colours are bits of one 64-bit word.
MAX_COLOURS = 64
#: Domains are flags per cell and orientation, and the trail can hold each of them once (eight
#: bytes a flag): about 270 MB of trail at most, a 54 x 54 board of distinct tiles.
MAX_DOMAIN_FLAGS = 1 << 25


def dense_colours(ori_col: np.ndarray) -> tuple[np.ndarray, int]:
    """The colours the tiles show renumbered 0, 1, 2, ... in their order (grey stays 0), and
    how many there are.  A file may declare colours no tile shows; only the shown ones need a
    bit of an edge's word, and keeping their order keeps every tie-break, so the nodes."""
    shown = np.union1d([0], ori_col)
    return np.searchsorted(shown, ori_col).astype(np.int32), len(shown)


def check_fits(a: BoardArrays) -> None:
    """One-line errors for puzzles this engine's representation cannot hold."""
    n_values = dense_colours(a.ori_col)[1]
    if n_values > MAX_COLOURS:
        raise InputError(f"the edges engine keeps an edge's colours in one 64-bit word: at "
                         f"most {MAX_COLOURS} colours with grey, this puzzle's tiles show "
                         f"{n_values}")
    flags = a.n_cells * a.n_orientations
    if flags > MAX_DOMAIN_FLAGS:
        raise InputError(f"the edges engine keeps a flag per cell and orientation: at most "
                         f"{MAX_DOMAIN_FLAGS:,}, this puzzle needs {a.n_cells} x "
                         f"{a.n_orientations} = {flags:,}")


class EdgesSearch(BufferedSearch):
    """A resumable edge-filtering search of one puzzle (its hints are the root placements)."""

    def __init__(self, puzzle: EdgeMatchingPuzzle, store: bool = True, buffer: int = BUFFER,
                 on_orientations: Callable[[np.ndarray], None] | None = None,
                 tiles: bool = True, alldifferent: bool = False,
                 branching: str = DEFAULT_BRANCHING,
                 placements: tuple[Sequence[int], Sequence[int]] | None = None,
                 shave: int | str = DEFAULT_SHAVE):
        """``tiles=False`` drops the tile rules (a tile no cell can take fails, a tile only one
        cell can take claims it), leaving the Python reference's edge-filtering model;
        ``alldifferent=True`` adds Régin's complete AllDifferent, the reference's third model
        whole; ``branching`` is one of ``CELL_RULES``.  ``placements`` (cells, orientations)
        replaces the puzzle's hints as the root placements (a split run's subproblem).
        ``shave`` (a limit L, ``"all"`` or 0) tries, before each branching, every orientation
        of each empty cell with at most L of them and removes those whose propagation fails."""
        a = puzzle.arrays
        check_fits(a)
        n = a.n_cells
        ori_col, n_values = dense_colours(a.ori_col)
        self.m = build.model_arrays(a.nbr, a.ori_tile, ori_col, a.tile_ori_start, n_values)
        n_ori = a.n_orientations
        n_edges = int(self.m[lay.M_N_EDGES])
        self.dom, self.size, self.sup = build.initial_domains(self.m)
        self.tl = build.tile_counters(self.m, self.dom, tiles, alldifferent)
        cells, oris = (a.hint_cell, a.hint_ori) if placements is None else placements
        self.roots = np.array([v for pair in zip(cells, oris) for v in pair], dtype=np.int32)
        self.placed = np.full(n, -1, dtype=np.int32)
        self.used = np.zeros(a.n_tiles, dtype=np.uint8)
        self.mask = np.full(max(n_edges, 1), (1 << n_values) - 1, dtype=np.uint64)
        # Along a path an orientation leaves a domain once, a colour an edge once, a cell is
        # placed once: the trail and the event stack never overflow.
        self.trail = np.zeros(n * n_ori + n_edges * n_values + n + 8, dtype=np.int64)
        self.events = np.zeros(n_edges * n_values + 8, dtype=np.int64)
        self.cand_stride = int(np.diff(self.m[self.m[lay.M_CLS_START]:][:17]).max())
        self.lv = np.zeros((n + 1) * K.LV_STRIDE, dtype=np.int64)
        self.cand = np.zeros((n + 1) * self.cand_stride, dtype=np.int32)
        self.state = np.zeros(K.STATE_SIZE, dtype=np.int64)
        self.counters = np.zeros(K.COUNTERS_SIZE, dtype=np.int64)
        self.branching = {"dom-ddeg": K.DOM_DDEG, "min-domain": K.MIN_DOMAIN}[branching]
        self.shave = shave_limit(shave, n_ori)
        self._init_buffer(n, store, buffer, on_orientations)

    @property
    def solutions(self) -> int:
        return int(self.counters[K.CT_SOLUTIONS])

    @property
    def nodes(self) -> int:
        return int(self.counters[K.CT_NODES])

    @property
    def deepest(self) -> int:
        return int(self.counters[K.CT_DEEPEST])

    @property
    def propagated(self) -> int:
        return int(self.counters[K.CT_PROPAGATED])

    @property
    def failed_nodes(self) -> int:
        return int(self.counters[K.CT_FAILS])

    @property
    def shave_trials(self) -> int:
        return int(self.counters[K.CT_TRIALS])

    @property
    def shave_removed(self) -> int:
        return int(self.counters[K.CT_SHAVED])

    def statistics(self) -> dict[str, int]:
        return {"propagated": self.propagated, "failed_nodes": self.failed_nodes,
                "shave_trials": self.shave_trials, "shave_removed": self.shave_removed}

    def explored(self) -> float:
        """The share of the search tree behind the current node in depth-first order
        (``tree_share``)."""
        if self.finished:
            return 1.0
        return K.explored(self.state, self.lv, self.cand_stride)

    def stop_after(self, decisions: int) -> None:
        """Stop at every node reached by ``decisions`` branching placements (``at_stop`` is
        then True after ``step``; ``decisions()`` lists them) and leave it unsearched; 0: never
        stop."""
        self.state[K.ST_STOP] = max(0, int(decisions))

    def decisions(self) -> list[tuple[int, int]]:
        """The (cell, orientation) placed by branching at each level above the current one."""
        out = []
        for level in range(int(self.state[K.ST_LEVEL])):
            r = level * K.LV_STRIDE
            out.append((int(self.lv[r + K.L_CELL]), int(self.cand[self.lv[r + K.L_PTR] - 1])))
        return out

    def _search(self, max_in_buf: np.int64, node_budget: np.int64) -> int:
        return K.search(self.m, self.roots, self.placed, self.used, self.dom, self.size,
                        self.sup, self.mask, self.trail, self.events, self.tl, self.lv,
                        self.cand, self.cand_stride, self.state, self.counters, self.sol_buf,
                        self.deep_buf, self.store, max_in_buf, node_budget, self.branching,
                        self.shave)

    def check(self, settled: bool = True) -> None:
        """The sanity checker (``edge_supports_sanity``) on the current state; ``settled``:
        it is a fixed point of propagation (true unless the search has ended)."""
        edge_supports_sanity.check(self.m, self.placed, self.used, self.dom, self.size,
                                   self.sup, self.mask, self.tl, settled)

    def _kernel(self, max_in_buf: np.int64, node_budget: np.int64) -> tuple[bool, bool, int]:
        self.state[K.ST_NBUF] = 0
        every = sanity.every()
        if every:       # CPKIT_SANITY: the same slice in pieces, the state checked after each
            status = sanity.run_checked(
                lambda piece: self._search(max_in_buf, np.int64(piece)),
                lambda: self.check(settled=self.state[K.ST_LEVEL] >= 0),
                int(node_budget), every, K.BUDGET_SPENT)
        else:
            status = self._search(max_in_buf, node_budget)
        return status == K.DONE, status == K.AT_STOP, int(self.state[K.ST_NBUF])


def jit_seconds() -> float:
    return warm_on_a_tiny_board("em-edges", EdgesSearch)


def search_factory(options: dict) -> Callable[..., EdgesSearch]:
    """What builds one root's search with ``options`` (``solve``'s keywords), for
    ``edge_matching.root_chain``."""
    return partial(EdgesSearch, **options)


def result_of(puzzle: EdgeMatchingPuzzle, figures: Figures, options: dict) -> Result:
    """The ``Result`` of an edge-filtering search with ``options`` (``em_result``: the one
    place, for a run in one process and a split run)."""
    return search_result(puzzle, ENGINE, figures, options, figures.stats.extra)


def solve(puzzle: EdgeMatchingPuzzle, *, roots: Sequence[tuple[Hint, ...]],
          limit: int | None = None, time_limit: float | None = None, count_only: bool = False,
          on_solution: Callable[[BoardSolution], None] | None = None,
          tiles: bool = True, alldifferent: bool = False,
          branching: str = DEFAULT_BRANCHING, shave: int | str = DEFAULT_SHAVE,
          on_progress: Callable[[dict[str, int]], None] | None = None) -> Result:
    """Every solution of ``puzzle`` under each root (hints), by edge filtering, the tile rules
    unless ``tiles=False`` and the complete AllDifferent if ``alldifferent``, branching by the
    rule ``branching`` (``CELL_RULES``), shaving cells of at most ``shave`` orientations."""
    if branching not in CELL_RULES:
        raise InputError(f"unknown branching rule {branching!r} (one of {', '.join(CELL_RULES)})")
    shave_limit(shave, 1)
    check_fits(puzzle.arrays)   # before compiling anything
    jit = jit_seconds()
    options = {"tiles": tiles, "alldifferent": alldifferent, "branching": branching,
               "shave": shave}
    chain, outcome, solutions = run_roots(puzzle, roots, search_factory(options), limit=limit,
                                          time_limit=time_limit, count_only=count_only,
                                          on_solution=on_solution, on_progress=on_progress)
    return result_of(puzzle, chain_figures(chain, outcome, solutions, jit), options)
