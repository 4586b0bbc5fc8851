"""Configurations of the hybrid search as ``--engine auto`` writes them
(``tiling_autoconfig``): a switch (DLX hands over to FILA at ``fila_at`` pieces remaining) and
a FILA heuristic per level below it, one letter each (``f``, ``e``, ``s``, as in polycube's
schedules), and the defaults the choice starts from."""

from __future__ import annotations

from ....models.tiling import Puzzle
from ..hybrid import hybrid_search as hybrid
from ..tiling_heuristics import parse_schedule

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
    """What the search first runs (``tiling_autoconfig.FIRST_NODES``): F alone at the
    default switch, whatever the pieces.  A run whose choice keeps it goes on with the nodes
    searched: boxes of flat pieces the first nodes nearly finish are chosen F alone (the
    2 x 3 x 10 and 2 x 5 x 6 boxes of pentominoes), and so are most small boxes of solid
    pieces.  Those began with the default, E, then F, which was glanced at first and, its
    glance short, kept without F alone being glanced at; F alone searched them in a third to
    two thirds of the time (boxes of 40 to 64 cells cut into pentacubes to octacubes: a
    3 x 3 x 6 box of hexacubes 24 against 10 ms, a 3 x 3 x 5 one of pentacubes 65 against
    33 ms).  The Soma cube finishes in those nodes either way (26,397 nodes and 2.1 ms, E,
    then F, 19,214 and 2.4 ms)."""
    default = hybrid.auto_config(puzzle, constrained, nof)
    if default.fila_at <= 0:
        return default
    return config_of(default.fila_at, "f" * default.fila_at, default.nof, default.reason)
