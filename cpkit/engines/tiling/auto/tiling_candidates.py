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
    built when first needed (most choices estimate one orientation or two), ``key``, what
    tells it from the others (``reorient.distinct``), and ``region``, its box and free cells
    (two candidates of one region are mirror twins)."""

    def __init__(self, source: Puzzle, turn: reorient.Turn, key: tuple = ()):
        self.source = source
        self.turn = turn
        self.key = key
        self.region = reorient.region_of(key) if key else ()

    @cached_property
    def puzzle(self) -> Puzzle:
        return reorient.oriented(self.source, self.turn)


def geometry(puzzle: Puzzle, turn: reorient.Turn, solid: bool) -> tuple[int, int, int]:
    """The rank of an orientation by its free cells' extents once turned: the shortest side
    along z (the last filled), then the shorter of the others along x (the first filled), as
    de Bruijn filled the 6 x 10 board along its short side.  For ``solid`` pieces
    (``solid_pieces``) the longest side along z and the shortest along x: the fill goes up
    layer by layer through the smallest cross-section.  On twenty boxes cut at random into
    polycubes and searched as drawn with the default configuration in each orientation, that
    one took 1.016 times the fastest orientation's time (geometric mean; within 3.3 % on 18),
    the flat rule's first 1.09 (up to 1.36: a 2 x 5 x 5 box, 0.99 s with its short side along
    z, 0.73 s along x); it was the slower of the two on three (at most 1.17 against 1.05, on
    a 3 x 4 x 6 box of 15 s whose orientations are estimated anyway)."""
    extent = np.abs(np.array(turn.matrix)) @ (puzzle.cell_coords.max(axis=0)
                                              - puzzle.cell_coords.min(axis=0) + 1)
    if solid:
        return -int(extent[2]), int(extent[0]), int(extent[1])
    return int(extent[2]), int(extent[0]), -int(extent[1])


def solid_pieces(puzzle: Puzzle) -> bool:
    """Whether some mobile piece spans all three axes (the Soma cube's twisted pieces: not
    the pentominoes, flat in any box).  The same for a puzzle and every turn of it."""
    return puzzle.dimension == 3 and any(
        all(len({cell[axis] for cell in piece.cells}) > 1 for axis in range(3))
        for piece in puzzle.mobile_pieces)


def candidates(puzzle: Puzzle) -> list[Candidate]:
    """The distinct orientations of ``puzzle``, best geometry first, ties by content."""
    solid = solid_pieces(puzzle)
    ranked = sorted(reorient.distinct(puzzle),
                    key=lambda tk: (geometry(puzzle, tk[0], solid), tk[1]))
    return [Candidate(puzzle, turn, key) for turn, key in ranked]


def turns_from_first(cands: list[Candidate]) -> list[list[reorient.Turn]]:
    """Every turn from the first candidate's puzzle onto each candidate's, in its own frame,
    so the same whatever way the file draws the puzzle.

    Where the first candidate has symmetries of its own (the box turned half a turn onto
    itself), several turns carry it onto another candidate.  Composing the turns from the
    file's frame picked one of them by how the file is drawn; a front carried through another
    keeps other images of the constrained piece, another search, so the estimates and the
    configuration chosen from them differed between drawings of one puzzle: the 2 x 4 x 8
    box with the pentominoes and the L tetromino got F alone at 11 pieces drawn one way and
    E, then F, drawn another: 2.7 s and 3.5 s of search and choice.  Which of the turns
    carries a front is ``reorient.nearest_the_start``'s choice."""
    first = cands[0]
    by_key: dict[tuple, list[reorient.Turn]] = {}
    for turn, key in reorient.keyed_turns(first.puzzle):
        by_key.setdefault(key, []).append(turn)
    if any(c.key not in by_key for c in cands):
        raise AssertionError("a puzzle's candidates differ from those of its first candidate")
    return [by_key[c.key] for c in cands]


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
