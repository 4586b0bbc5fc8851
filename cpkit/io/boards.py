"""Board files: the grid ``cpkit match`` prints, read back and written (docs/formats.md).

One line per row of the board, top row first; one ``tile/rotation`` per cell (tiles numbered
from 1 as in the puzzle file, rotation the side of the tile that faces north), ``.`` on an
empty cell; blank lines and ``#`` comments ignored.  ``load_board`` also takes a file holding a
board viewer link (``cpkit.io.viewer_link``), which needs the puzzle to name the tiles.
"""

from __future__ import annotations

from pathlib import Path
from typing import TextIO

import numpy as np

from ..errors import InputError
from ..models.board import EMPTY, Board
from ..models.edge_matching import MAX_SIDE, BoardSolution, EdgeMatchingPuzzle, rotate
from .text import read_text, whole_number


def format_board(board: Board | BoardSolution, puzzle: EdgeMatchingPuzzle | None = None,
                 colours: bool = False) -> str:
    """``board`` as a grid, top row first: ``tile/rotation`` per cell (tiles from 1, as in the
    files), ``.`` on an empty cell; with ``colours`` (which needs the ``puzzle``), each cell as
    ``north.east.south.west`` instead.  Without ``colours`` this is the board file."""
    board = Board.of(board)
    rows = []
    for tiles, rotations in zip(board.tiles, board.rotations):
        cells = []
        for tile, rot in zip(tiles.tolist(), rotations.tolist()):
            if tile == EMPTY:
                cells.append(".")
            elif colours:
                cells.append(".".join(str(c) for c in rotate(puzzle.tiles[tile], rot)))
            else:
                cells.append(f"{tile + 1}/{rot}")
        rows.append(cells)
    width = max(len(c) for row in rows for c in row)
    return "\n".join(" ".join(c.rjust(width) for c in row) for row in rows)


def write_board(board: Board | BoardSolution, out: str | Path | TextIO,
                comment: str | None = None) -> None:
    """Write the board file of ``board``, after a ``# comment`` line if one is given."""
    text = (f"# {comment}\n" if comment else "") + format_board(board) + "\n"
    if isinstance(out, (str, Path)):
        Path(out).write_text(text)
    else:
        out.write(text)


def _cell(token: str) -> tuple[int, int] | None:
    """``(tile, rotation)`` of a ``T/R`` token (tile 0-based; -1 for ``.``), else None."""
    if token == ".":
        return EMPTY, 0
    tile, slash, rotation = token.partition("/")
    t, r = whole_number(tile), whole_number(rotation)
    if not slash or t is None or r is None or t < 1 or not 0 <= r <= 3:
        return None
    return t - 1, r


def parse_board(text: str, path: str = "<board>") -> Board:
    """The board in a board file's ``text``; ``file:line:`` errors."""
    rows: list[list[tuple[int, int]]] = []
    first_line = 0
    for number, raw in enumerate(text.splitlines(), start=1):
        tokens = raw.split("#", 1)[0].split()
        if not tokens:
            continue
        cells = [_cell(tok) for tok in tokens]
        if None in cells:
            bad = tokens[cells.index(None)]
            raise InputError(f"expected tile/rotation (a tile from 1, a rotation 0..3) or '.' "
                             f"for an empty cell, found {bad!r}", path, number)
        if rows and len(cells) != len(rows[0]):
            raise InputError(f"row {len(rows) + 1} has {len(cells)} cells, the first row "
                             f"{len(rows[0])}", path, number)
        if len(cells) > MAX_SIDE or len(rows) >= MAX_SIDE:
            raise InputError(f"the board is larger than {MAX_SIDE} on a side", path, number)
        first_line = first_line or number
        rows.append(cells)
    if not rows:
        raise InputError("the file holds no board", path)
    if len(rows) < 2 or len(rows[0]) < 2:
        raise InputError(f"a board is at least 2 x 2, this one {len(rows[0])} x {len(rows)}",
                         path, first_line)
    grid = np.array(rows, dtype=np.int32)
    return Board(grid[:, :, 0], grid[:, :, 1])


def read_board(path: str | Path) -> Board:
    """The board in a board file."""
    return parse_board(read_text(path), str(path))


def load_board(path: str | Path, puzzle: EdgeMatchingPuzzle) -> Board:
    """The board in ``path``, a board file or a file holding a viewer link, as a board of
    ``puzzle`` (a link's colours are matched to the puzzle's tiles)."""
    from .viewer_link import board_from_link, is_link

    text = read_text(path)
    if is_link(text):
        return board_from_link(puzzle, text, str(path))
    return parse_board(text, str(path))
