"""Configurations of the hybrid search as ``--engine auto`` writes them
(``tiling_autoconfig``): a switch (DLX hands over to FILA at ``fila_at`` pieces remaining) and
a FILA heuristic per level below it, one letter each (``f``, ``e``, ``s``, as in polycube's
schedules), and the defaults the choice starts from."""

from __future__ import annotations

from ....models.tiling import Puzzle
from ..hybrid import hybrid_search as hybrid
from ..tiling_heuristics import parse_schedule
from .tiling_candidates import solid_pieces

#: FILA levels at the bottom that F fills in the default 3D schedule (the seed's Tetris Cube
#: configuration), where the schedule stage starts its climbs.
DEFAULT_F_LEVELS = 3


def schedule_of(fila_at: int, letters: str) -> str:
    """The polycube schedule of DLX's min-fit above ``fila_at`` and ``letters`` below."""
    spec, previous = "s", None
    for level, letter in enumerate(letters):
        if letter != previous:
            spec += f":{letter}={fila_at - level}"
            previous = letter
    return spec


def config_of(fila_at: int, letters: str, nof: bool, reason: str = "") -> hybrid.Config:
    """The hybrid configuration of a switch at ``fila_at`` and ``letters`` below it."""
    return hybrid.Config(fila_at, parse_schedule(schedule_of(fila_at, letters)), nof, reason)


def default_letters(puzzle: Puzzle, fila_at: int, dimension: int | None = None) -> str:
    """``hybrid.auto_config``'s FILA schedule as letters (for a puzzle of ``dimension``, by
    default the puzzle's): F for flat puzzles, else E, then F for the last three pieces."""
    if (dimension or puzzle.dimension) == 2 or fila_at <= DEFAULT_F_LEVELS:
        return "f" * fila_at
    return "e" * (fila_at - DEFAULT_F_LEVELS) + "f" * DEFAULT_F_LEVELS


def first_config(puzzle: Puzzle, constrained: bool, nof: bool) -> hybrid.Config:
    """What the search first runs (``tiling_autoconfig.FIRST_NODES``): the default
    configuration, or F alone at the default switch where every piece is flat (all of 2D, and
    boxes of polyominoes).  A run whose choice keeps it goes on with the nodes searched:
    boxes of flat pieces the first nodes nearly finish are chosen F alone (the
    2 x 3 x 10 and 2 x 5 x 6 boxes of pentominoes), while on puzzles of solid pieces the
    default, E, then F, was glanced at shorter than F alone on all sixteen random dissections
    of boxes into polycubes where both were (1.8 to 150 times), and searched faster on three
    more where F alone was chosen from its glance alone; begun F alone, they lost its first
    nodes (3-9 ms, a fifth to a half of searches of 10-30 ms).  The Soma cube, finished in
    those nodes either way: 19,214 nodes and 2.4 ms against 26,397 and 2.1 ms."""
    default = hybrid.auto_config(puzzle, constrained, nof)
    if default.fila_at <= 0:
        return default
    return config_of(default.fila_at, first_letters(puzzle, default.fila_at), default.nof,
                     default.reason)


def first_letters(puzzle: Puzzle, fila_at: int) -> str:
    """The FILA letters the search begins with at the switch ``fila_at`` (``first_config``):
    the default's where a piece is solid, F alone where every piece is flat."""
    return default_letters(puzzle, fila_at) if solid_pieces(puzzle) else "f" * fila_at
