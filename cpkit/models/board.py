"""Boards as data: the tile and the rotation on every cell of an edge-matching board.

One small type for everything that is a board: a solution, the deepest partial board of a
search, a board file, a viewer link, a board being scored or improved.  Two numpy arrays of
shape ``(height, width)``, indexed ``[row, column]`` with **row 0 the top row** (the order in
which boards are printed, written to files and encoded in links): ``tiles`` holds 0-based tile
numbers, ``EMPTY`` (-1) on an empty cell, and ``rotations`` the side of the tile that faces
north (0 on empty cells).  The engines number cells ``y * width + x`` from the bottom-left
corner (``BoardSolution``); ``Board.from_cells`` and ``Board.cells`` convert between the two.
Boards are immutable (their arrays are read-only) and compare by content.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Sequence

import numpy as np

from ..errors import InputError
from .edge_matching import (BoardSolution, EdgeMatchingPuzzle, check_board_size,
                            distinct_rotations, rotate)

EMPTY = -1


def cell_name(row: int, column: int) -> str:
    """A cell as files and messages name it: ``row 3, column 14``, both from 1, rows from the
    top (``row`` and ``column`` are the 0-based indices of a ``Board``'s arrays)."""
    return f"row {row + 1}, column {column + 1}"


class Board:
    """A ``height`` x ``width`` board: ``tiles[row, column]`` (0-based, -1 empty) and
    ``rotations[row, column]``, row 0 on top."""

    __slots__ = ("tiles", "rotations")

    def __init__(self, tiles, rotations=None):
        t = np.array(tiles, dtype=np.int32)
        r = np.zeros_like(t) if rotations is None else np.array(rotations, dtype=np.int32)
        if t.ndim != 2 or r.shape != t.shape:
            raise InputError(f"a board is two arrays of one shape (height, width), got "
                             f"{t.shape} and {r.shape}")
        check_board_size(t.shape[1], t.shape[0])
        if (t < EMPTY).any() or ((r < 0) | (r > 3)).any():
            raise InputError("a board holds tiles from 0 (-1: empty) and rotations 0..3")
        r[t == EMPTY] = 0
        t.flags.writeable = False
        r.flags.writeable = False
        self.tiles = t
        self.rotations = r

    # ------------------------------------------------------------------ conversions
    @classmethod
    def empty(cls, width: int, height: int) -> "Board":
        return cls(np.full((height, width), EMPTY, dtype=np.int32))

    @classmethod
    def from_cells(cls, width: int, height: int, tiles: Sequence[int],
                   rotations: Sequence[int]) -> "Board":
        """From one tile and one rotation per cell in the engines' numbering (cell
        ``y * width + x``, row ``y`` from the bottom)."""
        t = np.asarray(tiles, dtype=np.int32).reshape(height, width)[::-1]
        r = np.asarray(rotations, dtype=np.int32).reshape(height, width)[::-1]
        return cls(t, r)

    @classmethod
    def of(cls, board: "Board | BoardSolution") -> "Board":
        """``board`` as a ``Board`` (a ``BoardSolution`` is converted, a ``Board`` kept)."""
        if isinstance(board, Board):
            return board
        if isinstance(board, BoardSolution):
            return cls.from_cells(board.width, board.height, board.tiles, board.rotations)
        raise InputError(f"expected a Board or a BoardSolution, got {board!r}")

    def cells(self) -> tuple[np.ndarray, np.ndarray]:
        """Tiles and rotations as flat arrays in the engines' cell numbering."""
        return self.tiles[::-1].ravel(), self.rotations[::-1].ravel()

    def to_solution(self) -> BoardSolution:
        tiles, rotations = self.cells()
        return BoardSolution(self.width, self.height, tuple(int(t) for t in tiles),
                             tuple(int(r) for r in rotations))

    def turned(self, quarter_turns: int = 1) -> "Board":
        """The board turned clockwise by ``quarter_turns`` quarter turns, each tile with it (the
        side that faced west faces north): a board of ``EdgeMatchingPuzzle.turned``."""
        k = quarter_turns % 4
        return Board(np.rot90(self.tiles, -k), (np.rot90(self.rotations, -k) - k) % 4)

    def colours(self, puzzle: EdgeMatchingPuzzle) -> np.ndarray:
        """The colours the board shows, ``[row, column, side]`` (north, east, south, west),
        -1 on the four sides of an empty cell (``EdgeMatchingPuzzle.board_colours``)."""
        return puzzle.board_colours(self.to_solution())

    # ------------------------------------------------------------------ figures
    @property
    def height(self) -> int:
        return self.tiles.shape[0]

    @property
    def width(self) -> int:
        return self.tiles.shape[1]

    @property
    def n_cells(self) -> int:
        return self.tiles.size

    @property
    def filled(self) -> int:
        return int((self.tiles != EMPTY).sum())

    @property
    def full(self) -> bool:
        return self.filled == self.n_cells

    def __eq__(self, other) -> bool:
        if not isinstance(other, Board):
            return NotImplemented
        return np.array_equal(self.tiles, other.tiles) and \
            np.array_equal(self.rotations, other.rotations)

    __hash__ = None     # compared by content, like numpy arrays: not hashable

    def __repr__(self) -> str:
        return f"Board({self.width} x {self.height}, {self.filled} tiles placed)"


def board_from_colours(puzzle: EdgeMatchingPuzzle, colours: np.ndarray) -> Board:
    """The board of ``puzzle`` that shows ``colours`` (``[row, column, side]``, row 0 on top,
    -1 on the sides of an empty cell): each cell gets a tile of the puzzle with a rotation that
    shows its four colours.  Identical tiles are taken in their order in the puzzle.  A cell
    whose colours no tile shows, or one more than the puzzle has of its tile, is an
    ``InputError`` naming the cell."""
    colours = np.asarray(colours)
    if colours.shape != (puzzle.height, puzzle.width, 4):
        raise InputError(f"the board is {colours.shape[1]} x {colours.shape[0]}, the puzzle "
                         f"{puzzle.width} x {puzzle.height}")
    shows: dict[tuple[int, ...], list[tuple[int, int]]] = defaultdict(list)
    for k, tile in enumerate(puzzle.tiles):
        for r in distinct_rotations(tile):
            shows[rotate(tile, r)].append((k, r))
    tiles = np.full((puzzle.height, puzzle.width), EMPTY, dtype=np.int32)
    rotations = np.zeros_like(tiles)
    where: dict[int, tuple[int, int]] = {}
    for row in range(puzzle.height):
        for column in range(puzzle.width):
            seen = tuple(int(c) for c in colours[row, column])
            if seen == (EMPTY,) * 4:
                continue
            options = shows.get(seen)
            if not options:
                raise InputError(f"{cell_name(row, column)} shows {' '.join(map(str, seen))} "
                                 f"(north east south west), which no tile of the puzzle shows "
                                 f"in any rotation")
            free = [(k, r) for k, r in options if k not in where]
            if not free:
                k = options[-1][0]
                copies = len({k for k, _ in options})
                alike = "" if copies == 1 else f" (the puzzle has {copies} tiles alike)"
                raise InputError(f"{cell_name(row, column)}: tile {k + 1} is used twice{alike} "
                                 f"(also on {cell_name(*where[k])})")
            tiles[row, column], rotations[row, column] = free[0]
            where[free[0][0]] = (row, column)
    return Board(tiles, rotations)
