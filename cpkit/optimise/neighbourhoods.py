"""Large-neighbourhood moves: free a region of the best board and refill it.

Two refills, both exact over their neighbourhood:

- ``refill_region``: a window of cells (a few rows and columns around a broken edge, or the
  last rows of the board) is emptied and searched again by the row-scan kernel, the rest of the
  board fixed around it, with the breaks allowed capped at what the region had: the tree
  search as the move (Benoist and Bourreau's section 7 proposes the CP search in that role).
  It returns the best refill found within a node budget, which may be the region as it was.
- ``reassign_independent``: pairwise non-adjacent cells, refilled by an optimal assignment
  (``assignment``).

The regions are chosen where the board is broken (``broken_cells``), at random among them, so
that repeated moves wander over equally good boards instead of redoing one.
"""

from __future__ import annotations

import numpy as np

from . import _board_kernel as board_kernel
from . import _scan_kernel as scan
from ._rng import below
from .assignment import independent_cells, reassign, reassign_holes
from .tables import Tables


class Lists:
    """A worker's own copies of the candidate lists, shuffled now and then (the order in
    which the scan tries tiles)."""

    def __init__(self, tables: Tables):
        self.cand = tables.cand.copy()
        self.north = tables.north_cand.copy()
        self.west = tables.west_cand.copy()
        self.allowed = tables.allowed.copy()
        #: Favoured sides per orientation (``favour``): where any, lists are sorted by them.
        self.fav = np.zeros(tables.colour.shape[0], dtype=np.int32)

    def shuffle(self, tables: Tables, rng: np.ndarray) -> None:
        from ._rng import shuffle_segments

        shuffle_segments(self.cand, tables.cand_start, rng)
        shuffle_segments(self.north, tables.north_start, rng)
        shuffle_segments(self.west, tables.west_start, rng)
        shuffle_segments(self.allowed, tables.allowed_start, rng)
        if self.fav.any():
            # Most favoured sides first, shuffled among equals (a stable sort by segment).
            for values, start in ((self.cand, tables.cand_start),
                                  (self.north, tables.north_start),
                                  (self.west, tables.west_start)):
                segment = np.repeat(np.arange(start.size - 1), np.diff(start))
                values[:] = values[np.lexsort((-self.fav[values], segment))]


def run_scan(tables: Tables, lists: Lists, order: np.ndarray, limit: np.ndarray,
             board: np.ndarray, used: np.ndarray, state: dict[str, np.ndarray],
             best: np.ndarray, budget: int, holes: bool, deep: np.ndarray | None = None) -> int:
    """One call of the scan kernel of the mode (``search`` or ``search_holes``; ``deep``:
    where the latter copies its deepest board without a hole)."""
    t = tables
    if holes:
        return scan.search_holes(order, t.n_colours, t.colour, t.neighbour, t.cell_class,
                                 t.allowed_start, lists.allowed, t.cand_start, lists.cand,
                                 t.north_start, lists.north, t.west_start, lists.west, limit,
                                 board, used, state["stage"], state["ptr"], state["end"],
                                 state["brk"], state["st"], best,
                                 np.empty_like(board) if deep is None else deep, budget)
    return scan.search(order, t.n_colours, t.colour, t.neighbour, t.cell_class, t.cand_start,
                       lists.cand, t.north_start, lists.north, t.west_start, lists.west, limit,
                       board, used, state["stage"], state["ptr"], state["end"], state["brk"],
                       state["st"], best, budget, lists.fav, state["fav_min"],
                       state["fav_sum"])


def broken_cells(tables: Tables, board: np.ndarray, holes: bool) -> np.ndarray:
    """The cells to work on: those with a broken edge (edges mode) or empty (holes mode)."""
    if holes:
        return np.flatnonzero((board < 0) & (tables.fixed < 0))
    out = np.zeros(board.shape[0], dtype=np.int32)
    board_kernel.cell_breaks(tables.colour, tables.neighbour, board, out)
    return np.flatnonzero(out > 0)


def window(tables: Tables, rng: np.ndarray, cell: int, rows: int, columns: int) -> np.ndarray:
    """The unhinted cells of a ``rows`` x ``columns`` window that holds ``cell`` (placed at
    random around it, inside the board), row-major."""
    h, w = tables.height, tables.width
    rows, columns = min(rows, h), min(columns, w)
    r0 = min(max(cell // w - below(rng, rows), 0), h - rows)
    c0 = min(max(cell % w - below(rng, columns), 0), w - columns)
    cells = (np.arange(r0, r0 + rows)[:, None] * w + np.arange(c0, c0 + columns)).ravel()
    return cells[tables.fixed[cells] < 0].astype(np.int32)


def refill_region(tables: Tables, lists: Lists, board: np.ndarray, cells: np.ndarray,
                  budget: int, holes: bool) -> tuple[np.ndarray, int]:
    """Empty ``cells`` (row-major) of ``board`` and search them again, the rest fixed, for
    the refill with the fewest breaks (holes) within ``budget`` placements, no more than the
    region had.  Returns the board (``board`` itself if nothing as good was found) and the
    breaks (holes) it removed (>= 0)."""
    n = board.shape[0]
    inside = np.zeros(n, dtype=np.uint8)
    inside[cells] = 1
    if holes:
        before = int((board[cells] < 0).sum())
    else:
        before = board_kernel.breaks_touching(tables.colour, tables.neighbour, board, inside)
    fixed = board.copy()
    fixed[cells] = -1
    state = scan.new_state(cells.shape[0], before)
    work = np.empty_like(board)
    used = np.zeros(tables.n_tiles, dtype=np.int32)
    best = board.copy()
    scan.reset(fixed, work, used, state["st"], state["brk"])
    limit = np.full(cells.shape[0], before, dtype=np.int32)
    found = False
    while state["st"][scan.S_NODES] < budget:
        status = run_scan(tables, lists, cells, limit, work, used, state, best,
                          budget - int(state["st"][scan.S_NODES]), holes)
        if status == scan.FOUND:
            found = True
            if state["st"][scan.S_CAP] < 0:
                break                        # no break (hole) left in the region
        elif status == scan.EXHAUSTED:
            break
    if not found:
        return board, 0
    return best, before - (int(state["st"][scan.S_CAP]) + 1)


def reassign_independent(tables: Tables, rng: np.ndarray, board: np.ndarray, size: int,
                         holes: bool, spare: np.ndarray | None = None) -> int:
    """Free up to ``size`` pairwise non-adjacent cells, the broken (empty) ones first, and put
    the tiles back by an optimal assignment (in holes mode with the unused ``spare`` tiles
    too, a cell taking a tile only where it fits all its neighbours); returns the gain."""
    n = board.shape[0]
    movable = (tables.fixed < 0).astype(np.uint8)
    prefer = np.zeros(n, dtype=np.uint8)
    prefer[broken_cells(tables, board, holes)] = 1
    chosen = np.empty(n, dtype=np.int64)
    k = independent_cells(tables.neighbour, movable, rng, chosen, prefer, size)
    cells = chosen[:k].astype(np.int64)
    if holes:
        return reassign_holes(tables.colour, tables.neighbour, board, cells, spare, rng)
    return reassign(tables.colour, tables.neighbour, board, cells, rng)
