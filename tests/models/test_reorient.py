"""Turning a tiling puzzle as a whole, and solutions back."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings

from cpkit.models import reorient
from cpkit.models.geometry import canonical, group, transform
from cpkit.models.tiling import Piece, Puzzle
from cpkit.result import verify_tiling
from cpkit.engines.dispatch import solve
from tests.strategies import puzzles


def test_a_turn_maps_the_box_onto_the_turned_box_and_back():
    box = (2, 3, 4)
    cells = [(x, y, z) for z in range(4) for y in range(3) for x in range(2)]
    for m in group("mirror"):
        turn = reorient.Turn.of(m, box)
        moved = turn.cells(cells)
        assert sorted(turn.box) == [2, 3, 4]
        assert all(0 <= c[a] < turn.box[a] for c in moved for a in range(3))
        assert len(set(moved)) == len(cells)
        assert turn.back(moved) == cells
        assert turn.reflection == (round(np.linalg.det(m)) == -1)


def test_a_rectangle_has_two_orientations_a_square_one():
    pent = [Piece("I", tuple((x, 0, 0) for x in range(5))), Piece("J", tuple((x, 0, 0) for x in
                                                                          range(5)))]
    assert len(reorient.distinct(Puzzle(pent, box=(5, 2, 1)))) == 2
    square = [Piece("a", ((0, 0, 0), (1, 0, 0))), Piece("b", ((0, 0, 0), (1, 0, 0)))]
    assert len(reorient.distinct(Puzzle(square, box=(2, 2, 1)))) == 1


def test_the_tetris_cube_has_itself_and_its_mirror_image(tiling_instance):
    """Its pieces are chiral: a mirror image of the box is another puzzle of the same count."""
    turns = reorient.distinct(tiling_instance("tetriscube.txt"))
    assert len(turns) == 2 and sorted(t.reflection for t, _ in turns) == [False, True]


@settings(max_examples=40, deadline=None)
@given(puzzles(max_cells=10))
def test_every_turn_of_a_file_has_the_same_orientations(puzzle):
    """The oriented puzzles (by key) of a puzzle and of any turn or mirror image of its file
    are the same set, so the automatic choice among them cannot depend on the drawing."""
    keys = {k for _, k in reorient.distinct(puzzle)}
    for turn in reorient.all_turns(puzzle)[::5]:
        drawn = reorient.turned(puzzle, turn)
        assert {k for _, k in reorient.distinct(drawn)} == keys


@settings(max_examples=40, deadline=None)
@given(puzzles(max_cells=10))
def test_a_pieces_mirrored_form_is_the_canonical_form_of_its_mirror_image(puzzle):
    """``_forms`` skips turning a mirror image that is one of the piece's own orientations;
    its forms are those of the definition under every group: each piece's canonical shape,
    and its mirror image's."""
    pieces = tuple((p.name, p.cells) for p in puzzle.mobile_pieces)
    mirror = np.diag([-1, 1, 1])
    for kind in ("rotations", "mirror", "planar"):
        assert reorient._forms(pieces, kind) == tuple(
            (name, (canonical(cells, kind), canonical(transform(cells, mirror), kind)))
            for name, cells in pieces)


@settings(max_examples=25, deadline=None)
@given(puzzles(max_cells=10))
def test_solutions_of_a_turned_puzzle_turn_back_into_the_files(puzzle):
    """Solving an oriented puzzle and turning its solutions back gives solutions of the
    original, as many as the original has (raw counts: every solution is kept)."""
    expected = solve(puzzle, engine="dlx", unique="raw", count_only=True).count
    for turn, _ in reorient.distinct(puzzle)[:3]:
        oriented = reorient.oriented(puzzle, turn)
        result = solve(oriented, engine="dlx", unique="raw")
        back = [reorient.tiling_back(t, turn) for t in result.solutions]
        assert len(back) == expected
        assert all(verify_tiling(puzzle, t) == [] for t in back)
        assert len({t.placements for t in back}) == expected


def test_each_turn_fits_the_puzzles_cells_into_its_box(tiling_instance):
    # ``all_turns`` computes each turn's box and shift from the bounding box alone: the cells
    # themselves, turned, must start at the origin and fill the box to its far sides.
    for name in ("tetriscube.txt", "pentominoes_onesided_30x3.txt",
                 "pentominoes_8x8_centre_hole.txt"):
        puzzle = tiling_instance(name)
        cells = reorient._occupied(puzzle)
        for turn in reorient.all_turns(puzzle):
            moved = np.array(turn.cells(map(tuple, cells)))
            assert moved.min(axis=0).tolist() == [0, 0, 0]
            assert (moved.max(axis=0) + 1).tolist() == list(turn.box)
            assert turn.reflection == (round(np.linalg.det(np.array(turn.matrix))) == -1)
