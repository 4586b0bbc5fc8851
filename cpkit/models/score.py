"""The score of an edge-matching board: its matched edges, the one number the Eternity II
community gives a board (470 of 480 for the best known), with the rules a board must keep.

A board may be partial.  Its score counts the edges between two cells that hold tiles showing
the same colour there, out of all the board's inner edges (``W (H - 1) + H (W - 1)``, 480 on
16 x 16); edges along the frame are not counted (a board keeps grey there by rule).  Rules,
each refused with the cell named (``InputError``): every tile at most once, grey exactly on
the sides that face the frame, and every hint of the puzzle respected on a hinted cell that
holds a tile.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from ..errors import InputError
from .board import EMPTY, Board, cell_name
from .edge_matching import GREY, SIDE_NAMES, EdgeMatchingPuzzle, rotate


@dataclass(frozen=True)
class Mismatch:
    """The edge between cell ``(row, column)`` and its neighbour to the east or the south
    (0-based, row 0 on top), where the two tiles show ``colours`` (this cell's first)."""

    row: int
    column: int
    side: str
    colours: tuple[int, int]

    @property
    def other(self) -> tuple[int, int]:
        return (self.row, self.column + 1) if self.side == "east" else (self.row + 1, self.column)

    def describe(self) -> str:
        return (f"{cell_name(self.row, self.column)} {self.side} / "
                f"{cell_name(*self.other)}: {self.colours[0]} against {self.colours[1]}")


@dataclass(frozen=True)
class Score:
    """What ``score_board`` found: ``score`` matched edges of ``max_score``, ``tiles_placed``
    of ``cells``, every mismatched edge, and the puzzle's hints (all respected, ``hints_placed``
    of them on cells that hold a tile)."""

    score: int
    max_score: int
    tiles_placed: int
    cells: int
    mismatches: tuple[Mismatch, ...]
    hints: int
    hints_placed: int

    def summary(self) -> dict[str, Any]:
        """The JSON of ``cpkit score --json`` (cells 1-based, rows from the top)."""
        return {"score": self.score, "max_score": self.max_score,
                "tiles_placed": self.tiles_placed, "cells": self.cells,
                "mismatches": [{"cell": [m.row + 1, m.column + 1],
                                "neighbour": [m.other[0] + 1, m.other[1] + 1],
                                "side": m.side, "colours": list(m.colours)}
                               for m in self.mismatches],
                "hints": self.hints, "hints_placed": self.hints_placed}


def inner_edges(width: int, height: int) -> int:
    """The edges between two cells of a ``width`` x ``height`` board: the best score."""
    return width * (height - 1) + height * (width - 1)


def score_board(puzzle: EdgeMatchingPuzzle, board: Board) -> Score:
    """Score ``board`` (a ``Board``; a ``BoardSolution`` is converted) on ``puzzle``, or
    ``InputError`` naming the first cell (top row first) that breaks a rule."""
    board = Board.of(board)
    if (board.width, board.height) != (puzzle.width, puzzle.height):
        raise InputError(f"the board is {board.width} x {board.height}, the puzzle "
                         f"{puzzle.width} x {puzzle.height}")
    _check_tiles(puzzle, board)
    shown = board.colours(puzzle)
    _check_frame(shown)
    placed = _check_hints(puzzle, board, shown)
    mismatches, matched = [], 0
    for side, a, b in (("east", shown[:, :-1, 1], shown[:, 1:, 3]),
                       ("south", shown[:-1, :, 2], shown[1:, :, 0])):
        both = (a != EMPTY) & (b != EMPTY)
        for row, column in zip(*np.nonzero(both & (a != b))):
            mismatches.append(Mismatch(int(row), int(column), side,
                                       (int(a[row, column]), int(b[row, column]))))
        matched += int((both & (a == b)).sum())
    mismatches.sort(key=lambda m: (m.row, m.column, m.side))
    return Score(matched, inner_edges(board.width, board.height), board.filled, board.n_cells,
                 tuple(mismatches), len(puzzle.hints), placed)


def _check_tiles(puzzle: EdgeMatchingPuzzle, board: Board) -> None:
    """Every tile a tile of the puzzle, and none used twice."""
    seen: dict[int, tuple[int, int]] = {}
    for (row, column), tile in np.ndenumerate(board.tiles):
        tile = int(tile)
        if tile == EMPTY:
            continue
        if tile >= puzzle.n_tiles:
            raise InputError(f"{cell_name(row, column)}: tile {tile + 1} is not a tile of the "
                             f"puzzle (1..{puzzle.n_tiles})")
        if tile in seen:
            raise InputError(f"{cell_name(row, column)}: tile {tile + 1} is used twice (also "
                             f"on {cell_name(*seen[tile])})")
        seen[tile] = (row, column)


def _check_frame(shown: np.ndarray) -> None:
    """Grey on every side that faces the frame and on no other side."""
    height, width = shown.shape[:2]
    frame = np.zeros(shown.shape, dtype=bool)
    frame[0, :, 0] = frame[:, -1, 1] = frame[-1, :, 2] = frame[:, 0, 3] = True
    wrong = (shown != EMPTY) & (frame != (shown == GREY))
    if wrong.any():
        row, column, side = (int(v) for v in np.argwhere(wrong)[0])
        colour = int(shown[row, column, side])
        where = ("towards the frame" if frame[row, column, side] else
                 "inside the board (grey faces inwards)")
        raise InputError(f"{cell_name(row, column)}: the tile shows colour {colour} on its "
                         f"{SIDE_NAMES[side]} side, {where}")


def _check_hints(puzzle: EdgeMatchingPuzzle, board: Board, shown: np.ndarray) -> int:
    """Every hinted cell that holds a tile holds the hinted tile, showing the hinted colours
    (a symmetric tile may name another rotation); returns how many hinted cells hold one."""
    placed = 0
    for hint in puzzle.hints:
        row, column = puzzle.height - 1 - hint.y, hint.x
        tile = int(board.tiles[row, column])
        if tile == EMPTY:
            continue
        wanted = rotate(puzzle.tiles[hint.tile], hint.rotation)
        if tile != hint.tile or tuple(int(c) for c in shown[row, column]) != wanted:
            raise InputError(f"{cell_name(row, column)}: the puzzle's hint puts tile "
                             f"{hint.tile + 1}/{hint.rotation} here, the board has "
                             f"{tile + 1}/{int(board.rotations[row, column])}")
        placed += 1
    return placed
