"""The orientations ``--engine auto`` compares (``tiling_autoconfig``): every turn and mirror
image of a puzzle that gives a different search, ranked by geometry, and which of them the
orientation stage estimates (one of each pair of mirror twins)."""

from __future__ import annotations

from functools import cached_property

import numpy as np

from ....models import reorient
from ....models.tiling import Puzzle


class Candidate:
    """One orientation of the puzzle: the turn from the file's frame and the turned puzzle,
    built when first needed (most choices estimate one orientation or two), and ``region``,
    its box and free cells (a key: two candidates of one region are mirror twins)."""

    def __init__(self, source: Puzzle, turn: reorient.Turn, region: tuple = ()):
        self.source = source
        self.turn = turn
        self.region = region

    @cached_property
    def puzzle(self) -> Puzzle:
        return reorient.oriented(self.source, self.turn)


def geometry(puzzle: Puzzle, turn: reorient.Turn) -> tuple[int, int, int]:
    """The rank of an orientation by its free cells' extents once turned: the shortest side
    along z (the last filled), then the shorter of the others along x (the first filled), as
    de Bruijn filled the 6 x 10 board along its short side."""
    extent = np.abs(np.array(turn.matrix)) @ (puzzle.cell_coords.max(axis=0)
                                              - puzzle.cell_coords.min(axis=0) + 1)
    return int(extent[2]), int(extent[0]), -int(extent[1])


def candidates(puzzle: Puzzle) -> list[Candidate]:
    """The distinct orientations of ``puzzle``, best geometry first, ties by content."""
    ranked = sorted(reorient.distinct(puzzle), key=lambda tk: (geometry(puzzle, tk[0]), tk[1]))
    return [Candidate(puzzle, turn, reorient.region_of(key)) for turn, key in ranked]


def unlike(cands: list[Candidate]) -> list[int]:
    """The candidates the orientation stage estimates: the first of each region.  Two
    candidates of one region (the same box and free cells) hold mirror images of the pieces
    (a chiral set: one-sided pentominoes, the Tetris Cube's pieces): mirror twins.  Their
    whole searches made as many nodes on every pair measured, though not in the same order:
    the one-sided 30 x 3's two pairs 1,009,015 and 50,038,927 nodes each, the Soma cube's
    19,214, the Tetris Cube's 78,767,978 and 78,813,648.  So one estimate speaks for both."""
    seen: set[tuple] = set()
    out = []
    for k, cand in enumerate(cands):
        if cand.region not in seen:
            seen.add(cand.region)
            out.append(k)
    return out
