"""Random edge-matching puzzles, made as Benoist & Bourreau made theirs (section 6).

A solved board is drawn first: every edge between two cells gets a random colour, the frame
edges grey; the tiles are then cut out, shuffled and each turned by a random quarter-turn.  The
instance therefore has at least one solution.  As in the paper's benchmark names (``bBiI``), the
*frame-ring* edges (between two frame cells, along the rim) take colours ``1..B`` and all other
edges colours ``B+1..B+I``: frame tiles and inner tiles never share a colour.

The generator uses Python's ``random.Random(seed)``, whose integer draws and shuffles are stable
across Python versions, so a seed names an instance for good.
"""

from __future__ import annotations

import random

from ..errors import InputError, whole
from .edge_matching import (MAX_COLOURS, BoardSolution, EdgeMatchingPuzzle, check_board_size,
                            rotate)


def generate(width: int, height: int | None = None, *, border_colours: int, inner_colours: int,
             seed: int, name: str | None = None) -> EdgeMatchingPuzzle:
    """A random ``width`` x ``height`` puzzle (see the module docstring)."""
    return plant(width, height, border_colours=border_colours, inner_colours=inner_colours,
                 seed=seed, name=name)[0]


def plant(width: int, height: int | None = None, *, border_colours: int, inner_colours: int,
          seed: int, name: str | None = None) -> tuple[EdgeMatchingPuzzle, BoardSolution]:
    """The puzzle ``generate`` makes and the solved board it was cut from (a solution of it,
    which tests use as a witness and a source of hints)."""
    width = whole(width, "the board width")
    height = width if height is None else whole(height, "the board height")
    border_colours = whole(border_colours, "border_colours")
    inner_colours = whole(inner_colours, "inner_colours")
    check_board_size(width, height)
    if border_colours < 1 or inner_colours < 1:
        raise InputError("there must be at least one border colour and one inner colour")
    if border_colours + inner_colours > MAX_COLOURS:
        raise InputError(f"at most {MAX_COLOURS} colours in all, got "
                         f"{border_colours + inner_colours}")
    rng = random.Random(seed)

    def frame(x: int, y: int) -> bool:
        return x in (0, width - 1) or y in (0, height - 1)

    def colour(x0: int, y0: int, x1: int, y1: int) -> int:
        along_rim = frame(x0, y0) and frame(x1, y1) and (x0 == x1 in (0, width - 1) or
                                                         y0 == y1 in (0, height - 1))
        if along_rim:
            return rng.randint(1, border_colours)
        return border_colours + rng.randint(1, inner_colours)

    # east[x][y]: colour of the edge east of (x, y); north[x][y]: the edge north of it.
    east = [[colour(x, y, x + 1, y) if x + 1 < width else 0 for y in range(height)]
            for x in range(width)]
    north = [[colour(x, y, x, y + 1) if y + 1 < height else 0 for y in range(height)]
             for x in range(width)]
    tiles = []
    for y in range(height):
        for x in range(width):
            south = north[x][y - 1] if y > 0 else 0
            west = east[x - 1][y] if x > 0 else 0
            tiles.append((north[x][y], east[x][y], south, west))
    order = list(range(len(tiles)))             # order[k]: the cell tile k was cut from
    rng.shuffle(order)
    turns = [rng.randrange(4) for _ in order]
    shuffled = [rotate(tiles[cell], turn) for cell, turn in zip(order, turns)]
    if name is None:
        size = f"{width}" if width == height else f"{width}x{height}"
        name = f"gen_{size}_b{border_colours}i{inner_colours}_s{seed}"
    puzzle = EdgeMatchingPuzzle(shuffled, width, height,
                                n_colours=border_colours + inner_colours, name=name)
    # Tile k, turned by t, shows on side s what the cut tile showed on side s + t: placing it
    # with rotation -t shows the cut tile again.
    tile_on = [0] * len(order)
    rotation_on = [0] * len(order)
    for k, (cell, turn) in enumerate(zip(order, turns)):
        tile_on[cell] = k
        rotation_on[cell] = (4 - turn) % 4
    return puzzle, BoardSolution(width, height, tuple(tile_on), tuple(rotation_on))
