"""An edge-matching puzzle as the flat arrays the optimiser's kernels search.

Cells are numbered as a ``Board`` holds them, row-major from the top-left corner: cell
``row * width + column``, so a kernel's board is ``Board(tiles.reshape(height, width), ...)``
with no conversion.  A placement is an *orientation* ``tile * 4 + rotation`` (rotation: the side
of the tile that faces north, as in board files), so one int32 per cell holds a whole board
(``EMPTY``: no tile).

The frame rule is compiled in: every cell has a *class* (``cell_class``: which of its sides face
the frame, the nine positions of a rectangle) and may only take the orientations that show grey
exactly towards the frame (``allowed``, per class); hinted cells take their hint and nothing
else, and hinted tiles go nowhere else.  The row scan's candidate lists are indexed by the class
and the colours wanted on the north and west sides (``Tables.key``); within a list, only the
*distinct* rotations of a tile appear (a tile ``a b a b`` once per orientation it shows).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..models.board import EMPTY, Board
from ..models.edge_matching import GREY, EdgeMatchingPuzzle, distinct_rotations, rotate

NORTH, EAST, SOUTH, WEST = 0, 1, 2, 3
#: Neighbour offsets per side as (row, column) steps.
STEPS = ((-1, 0), (0, 1), (1, 0), (0, -1))


@dataclass(frozen=True)
class Tables:
    """The arrays (all int32 unless said) every optimiser kernel takes.

    - ``colour[o, s]``: the colour orientation ``o`` shows on side ``s``.
    - ``neighbour[c, s]``: the cell beyond side ``s`` of cell ``c``, -1 for the frame.
    - ``cell_class[c]``: 0..8, ``3 * (row part) + (column part)``, part 0 first, 1 inner, 2 last.
    - ``fixed[c]``: the hinted orientation of cell ``c``, ``EMPTY`` if none.
    - ``hinted_tile[t]``: 1 if tile ``t`` is hinted (it never moves).
    - ``allowed_start[k] .. allowed_start[k + 1]`` index ``allowed``: the orientations (distinct
      rotations of unhinted tiles) cells of class ``k`` can take.
    - ``cand_start[key] .. cand_start[key + 1]`` index ``cand``: those of them that show
      ``north`` and ``west`` (``key(k, north, west)``); ``north_start``/``north_cand`` and
      ``west_start``/``west_cand`` the same by one side alone (``k * C + colour``).
    - ``kind[t]``: 0 corner, 1 edge, 2 inner (tiles are swapped only with their own kind).
    """

    width: int
    height: int
    n_colours: int            # colours with grey: C, the stride of the keys
    colour: np.ndarray
    neighbour: np.ndarray
    cell_class: np.ndarray
    fixed: np.ndarray
    hinted_tile: np.ndarray
    allowed_start: np.ndarray
    allowed: np.ndarray
    cand_start: np.ndarray
    cand: np.ndarray
    north_start: np.ndarray
    north_cand: np.ndarray
    west_start: np.ndarray
    west_cand: np.ndarray
    kind: np.ndarray

    @property
    def n_cells(self) -> int:
        return self.width * self.height

    @property
    def n_tiles(self) -> int:
        return self.colour.shape[0] // 4

    @property
    def inner_edges(self) -> int:
        return self.width * (self.height - 1) + self.height * (self.width - 1)

    def key(self, cls: int, north: int, west: int) -> int:
        return (cls * self.n_colours + north) * self.n_colours + west

    def board(self, orientations: np.ndarray) -> Board:
        """The ``Board`` of one orientation per cell (``EMPTY`` on empty cells)."""
        o = np.asarray(orientations, dtype=np.int64).reshape(self.height, self.width)
        tiles = np.where(o == EMPTY, EMPTY, o // 4)
        return Board(tiles, np.where(o == EMPTY, 0, o % 4))

    def orientations(self, board: Board) -> np.ndarray:
        """One orientation per cell of ``board`` (the inverse of ``board``)."""
        t = board.tiles.ravel().astype(np.int32)
        return np.where(t == EMPTY, EMPTY, t * 4 + board.rotations.ravel()).astype(np.int32)


def _class_of(row: int, column: int, width: int, height: int) -> int:
    r = 0 if row == 0 else (2 if row == height - 1 else 1)
    c = 0 if column == 0 else (2 if column == width - 1 else 1)
    return 3 * r + c


def _frame_sides(cls: int) -> tuple[bool, bool, bool, bool]:
    """Which sides of a cell of class ``cls`` face the frame (north, east, south, west)."""
    r, c = divmod(cls, 3)
    return (r == 0, c == 2, r == 2, c == 0)


def _csr(lists: list[list[int]]) -> tuple[np.ndarray, np.ndarray]:
    start = np.zeros(len(lists) + 1, dtype=np.int32)
    start[1:] = np.cumsum([len(x) for x in lists])
    flat = np.array([v for x in lists for v in x], dtype=np.int32)
    return start, flat


def compile_tables(puzzle: EdgeMatchingPuzzle) -> Tables:
    """The optimiser's arrays for ``puzzle`` (see ``Tables``)."""
    w, h = puzzle.width, puzzle.height
    n = puzzle.n_tiles
    C = puzzle.n_colours + 1
    colour = np.array([rotate(t, r) for t in puzzle.tiles for r in range(4)], dtype=np.int32)
    neighbour = np.full((w * h, 4), -1, dtype=np.int32)
    cell_class = np.zeros(w * h, dtype=np.int32)
    for row in range(h):
        for col in range(w):
            c = row * w + col
            cell_class[c] = _class_of(row, col, w, h)
            for s, (dr, dc) in enumerate(STEPS):
                if 0 <= row + dr < h and 0 <= col + dc < w:
                    neighbour[c, s] = (row + dr) * w + col + dc
    fixed = np.full(w * h, EMPTY, dtype=np.int32)
    hinted_tile = np.zeros(n, dtype=np.int32)
    for hint in puzzle.hints:
        fixed[(h - 1 - hint.y) * w + hint.x] = hint.tile * 4 + hint.rotation
        hinted_tile[hint.tile] = 1
    allowed: list[list[int]] = [[] for _ in range(9)]
    by_key: list[list[int]] = [[] for _ in range(9 * C * C)]
    by_north: list[list[int]] = [[] for _ in range(9 * C)]
    by_west: list[list[int]] = [[] for _ in range(9 * C)]
    for t, tile in enumerate(puzzle.tiles):
        if hinted_tile[t]:
            continue
        for r in distinct_rotations(tile):
            o = 4 * t + r
            shown = colour[o]
            for cls in range(9):
                if all(f == (shown[s] == GREY) for s, f in enumerate(_frame_sides(cls))):
                    allowed[cls].append(o)
                    by_key[(cls * C + shown[NORTH]) * C + shown[WEST]].append(o)
                    by_north[cls * C + shown[NORTH]].append(o)
                    by_west[cls * C + shown[WEST]].append(o)
    kind = np.array([2 - sum(c == GREY for c in t) for t in puzzle.tiles], dtype=np.int32)
    a_start, a_flat = _csr(allowed)
    c_start, c_flat = _csr(by_key)
    n_start, n_flat = _csr(by_north)
    w_start, w_flat = _csr(by_west)
    return Tables(w, h, C, colour, neighbour, cell_class, fixed, hinted_tile, a_start, a_flat,
                  c_start, c_flat, n_start, n_flat, w_start, w_flat, kind)
