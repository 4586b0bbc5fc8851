"""The brute-force edge-matching backtracker as an engine (see ``_em_backtrack_kernel``).

Column-by-column scan from the bottom-left corner (the paper's lexicographic order), candidate
lists by (west, south) colours, used-tile flags, an explicit stack; every placement it chooses is
a node.  It is the baseline the CP engine's node counts are
compared with (the paper's central claim), and an independent cross-check of its counts.
"""

from __future__ import annotations

from typing import Callable, Sequence

import numpy as np

from ....models.edge_matching import BoardSolution, EdgeMatchingPuzzle, Hint
from ....result import Figures, Result
from . import em_backtrack_kernel as K
from ..em_front import BufferedSearch, run_roots, warm_on_a_tiny_board
from ..em_result import chain_figures, search_result

ENGINE = "backtrack"
BUFFER = 1024


class BacktrackSearch(BufferedSearch):
    """A resumable brute-force search of one puzzle (its hints are the root placements)."""

    def __init__(self, puzzle: EdgeMatchingPuzzle, store: bool = True, buffer: int = BUFFER,
                 on_orientations: Callable[[np.ndarray], None] | None = None,
                 placements: tuple[Sequence[int], Sequence[int]] | None = None):
        """``placements`` (cells, orientations) replaces the puzzle's hints as the fixed
        placements (a split run's subproblem: a root plus the decisions that reach it)."""
        a = puzzle.arrays
        fixed_cells, fixed_oris = (a.hint_cell, a.hint_ori) if placements is None \
            else placements
        self.a = a
        self.list_start, self.list_ori, self.list_tile = K.candidate_lists(
            a.width, a.height, a.n_values, a.ori_col, a.ori_tile)
        n = a.n_cells
        self.cell_of_depth = a.scan_order
        depth_of = np.empty(n, dtype=np.int32)
        depth_of[self.cell_of_depth] = np.arange(n, dtype=np.int32)
        cells = self.cell_of_depth
        dep = np.zeros((n, K.DEP_STRIDE), dtype=np.int32)
        for field, side in ((K.D_WEST, 3), (K.D_SOUTH, 2)):
            nb = a.nbr[cells, side]
            dep[:, field] = np.where(nb >= 0, depth_of[np.maximum(nb, 0)], -1)
        frame = (a.nbr[cells, 1] < 0) * 2 + (a.nbr[cells, 0] < 0)
        dep[:, K.D_KEY_BASE] = frame * a.n_values * a.n_values
        dep[:, K.D_FORCED] = -1
        self.used = np.zeros(a.n_tiles, dtype=np.uint8)
        for cell, o in zip(fixed_cells, fixed_oris):
            dep[depth_of[cell], K.D_FORCED] = o
            self.used[a.ori_tile[o]] = 1
        #: The depths where the search chooses (the cells not fixed), in order.
        self.free_depths = np.flatnonzero(dep[:, K.D_FORCED] < 0)
        self.dep = dep.ravel()
        self.ori = K.orientation_records(a.ori_tile, a.ori_col)
        self.state = np.zeros(K.STATE_SIZE, dtype=np.int64)
        self.counters = np.zeros(K.COUNTERS_SIZE, dtype=np.int64)
        self._init_buffer(n, store, buffer, on_orientations)

    @property
    def solutions(self) -> int:
        return int(self.counters[K.CT_SOLUTIONS])

    def stop_after(self, decisions: int) -> None:
        """Stop at every node reached by ``decisions`` choices (``at_stop`` is then True after
        ``step``; ``decisions()`` lists them) and leave it unsearched; 0: never stop.  The node
        is entered after the chosen cell, before any fixed cell that follows it."""
        free = self.free_depths
        self.state[K.ST_STOP] = int(free[decisions - 1]) + 1 \
            if 0 < decisions <= len(free) else 0

    def decisions(self) -> list[tuple[int, int]]:
        """The (cell, orientation) chosen at each free depth above the current one."""
        dep = self.dep.reshape(-1, K.DEP_STRIDE)
        depth = int(self.state[K.ST_DEPTH])
        return [(int(self.cell_of_depth[d]), int(dep[d, K.D_PLACED]))
                for d in self.free_depths if d < depth]

    @property
    def nodes(self) -> int:
        return int(self.counters[K.CT_NODES])

    @property
    def deepest(self) -> int:
        return int(self.counters[K.CT_DEEPEST])

    def explored(self) -> float:
        """The share of the search tree behind the current node in depth-first order
        (``tree_share``); a depth's branches are its candidate list, used tiles included."""
        if self.finished:
            return 1.0
        return K.explored(self.dep, self.free_depths, int(self.state[K.ST_DEPTH]),
                          self.list_start, self.a.n_values)

    def statistics(self) -> dict[str, int]:
        """The brute force places every tile by a choice: nothing is propagated (the key is
        there so that every numba engine's JSON has it)."""
        return {"propagated": 0}

    def _kernel(self, max_in_buf: np.int64, node_budget: np.int64) -> tuple[bool, bool, int]:
        self.state[K.ST_NBUF] = 0
        a = self.a
        status = K.search(a.n_cells, a.n_values, self.dep, self.list_start, self.list_ori,
                          self.list_tile, self.ori, self.used, self.state, self.counters,
                          self.sol_buf, self.deep_buf, self.store, max_in_buf, node_budget)
        return status == K.DONE, status == K.AT_STOP, int(self.state[K.ST_NBUF])

    def _cell_order(self, buffered: np.ndarray) -> np.ndarray:
        """The kernel buffers placements in scan order; cells are in cell order here."""
        row = np.empty(self.a.n_cells, dtype=np.int32)
        row[self.cell_of_depth] = buffered
        return row


def jit_seconds() -> float:
    return warm_on_a_tiny_board("em-backtrack", BacktrackSearch)


def search_factory(options: dict) -> Callable[..., BacktrackSearch]:
    """What builds one root's search (``edge_matching.root_chain``); the brute force has no
    options."""
    return BacktrackSearch


def result_of(puzzle: EdgeMatchingPuzzle, figures: Figures, options: dict) -> Result:
    """The ``Result`` of a brute-force search (``em_result``: the one place, for a run in one
    process and a split run); the brute force has no options."""
    return search_result(puzzle, ENGINE, figures, options, figures.stats.extra)


def solve(puzzle: EdgeMatchingPuzzle, *, roots: Sequence[tuple[Hint, ...]],
          limit: int | None = None, time_limit: float | None = None, count_only: bool = False,
          on_solution: Callable[[BoardSolution], None] | None = None,
          on_progress: Callable[[dict[str, int]], None] | None = None) -> Result:
    """Every solution of ``puzzle`` under each root (hints), found by brute force."""
    jit = jit_seconds()
    chain, outcome, solutions = run_roots(puzzle, roots, BacktrackSearch, limit=limit,
                                          time_limit=time_limit, count_only=count_only,
                                          on_solution=on_solution, on_progress=on_progress)
    return result_of(puzzle, chain_figures(chain, outcome, solutions, jit), {})
