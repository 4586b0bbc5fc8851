"""The edge-matching model: orientations, colour pairs, validation, symmetry roots."""

from __future__ import annotations

import pytest

from cpkit.errors import InputError
from cpkit.models.edge_matching import (EdgeMatchingPuzzle, Hint, clockwise_pair,
                                        distinct_rotations, opposite_pair, rotate, tile_pairs)
from cpkit.models.em_generator import generate

# A solved 3 x 3 board (north, east, south, west), cells from the bottom-left corner:
#   row 2:  c   e   c
#   row 1:  e   i   e
#   row 0:  c   e   c
SOLVED_3X3 = [
    (1, 2, 0, 0), (3, 4, 0, 2), (5, 0, 0, 4),        # y = 0
    (6, 7, 1, 0), (8, 9, 3, 7), (10, 0, 5, 9),       # y = 1
    (0, 11, 6, 0), (0, 12, 8, 11), (0, 0, 10, 12),   # y = 2
]


def solved() -> EdgeMatchingPuzzle:
    return EdgeMatchingPuzzle(SOLVED_3X3, 3)


def test_rotation_r_puts_side_r_north():
    assert rotate((1, 2, 3, 4), 0) == (1, 2, 3, 4)
    assert rotate((1, 2, 3, 4), 1) == (2, 3, 4, 1)
    assert rotate((1, 2, 3, 4), 3) == (4, 1, 2, 3)


@pytest.mark.parametrize("tile, expected", [((1, 2, 3, 4), [0, 1, 2, 3]),
                                            ((1, 2, 1, 2), [0, 1]),
                                            ((5, 5, 5, 5), [0]),
                                            ((0, 0, 1, 2), [0, 1, 2, 3])])
def test_distinct_orientations(tile, expected):
    assert distinct_rotations(tile) == expected


def test_pairs_are_distinct_and_opposite_pairs_unordered():
    values = 6
    pairs = tile_pairs((1, 2, 1, 2), values)
    assert pairs == [clockwise_pair(1, 2, values), clockwise_pair(2, 1, values),
                     opposite_pair(1, 1, values), opposite_pair(2, 2, values)]
    assert opposite_pair(3, 1, values) == opposite_pair(1, 3, values)
    assert len(set(tile_pairs((1, 2, 3, 4), values))) == 6


def test_compiled_orientations_and_hints():
    p = EdgeMatchingPuzzle(SOLVED_3X3, 3, hints=[Hint(1, 1, 4, 2)])
    a = p.arrays
    assert a.n_orientations == sum(len(distinct_rotations(t)) for t in p.tiles)
    assert a.n_pairs == 2 * (p.n_colours + 1) ** 2
    o = int(a.hint_ori[0])
    assert int(a.hint_cell[0]) == 4 and int(a.ori_tile[o]) == 4
    assert tuple(a.ori_col[o]) == rotate(SOLVED_3X3[4], 2)
    assert list(a.nbr[0]) == [3, 1, -1, -1]


@pytest.mark.parametrize("tiles, width, message", [
    (SOLVED_3X3[:8], 3, "needs 9 tiles"),
    ([(0, 1, 0, 1)] + SOLVED_3X3[1:], 3, "cannot all face the frame"),
    ([(1, 2, 3, 4)] + SOLVED_3X3[1:], 3, "corner tiles"),
    ([(1, 2, 0, 0)] + SOLVED_3X3[1:4] + [(8, 9, 3, 99)] + SOLVED_3X3[5:], 3, "odd number"),
    (SOLVED_3X3, 1, "at least 2 x 2"),
    (SOLVED_3X3, 3.5, "width must be a whole number, got 3.5"),     # int() made it 3
    (SOLVED_3X3, "3", "width must be a whole number"),
    ([(0, 1, 2, "x")] + SOLVED_3X3[1:], 3, "tile 1's colour must be a whole number"),
    ([(0, 1, 2.5, 0)] + SOLVED_3X3[1:], 3, "tile 1's colour must be a whole number"),
    (["0120"] + SOLVED_3X3[1:], 3, "tile 1 must be a row of four colours"),
    (None, 3, "tiles must be rows of four colours"),
])
def test_validation_errors(tiles, width, message):
    with pytest.raises(InputError, match=message):
        EdgeMatchingPuzzle(tiles, width, 3 if width == 3 else None)


def test_frame_ring_colours_must_pair_up():
    tiles = list(SOLVED_3X3)
    # Exchange a rim colour (east, 4) and an inner one (north, 3) of an edge tile: every colour
    # still appears twice, but 3 and 4 now appear once each along the rim.
    tiles[1] = (4, 3, 0, 2)
    with pytest.raises(InputError, match="along the rim"):
        EdgeMatchingPuzzle(tiles, 3)


@pytest.mark.parametrize("hint, message", [
    (Hint(3, 0, 0, 0), "cell row 3, column 4 is outside"),     # as the file numbers it
    (Hint(0, 0, 9, 0), "not a tile"),
    (Hint(0, 0, 0, 4), "rotation"),
    (Hint(0, 0, 1, 0), "frame needs grey"),
    (Hint(1, 1, 0, 0), "side at row 2, column 2, where grey is not allowed"),
])
def test_hint_errors(hint, message):
    with pytest.raises(InputError, match=message):
        EdgeMatchingPuzzle(SOLVED_3X3, 3, hints=[hint])


@pytest.mark.parametrize("hint, message", [
    ((0, 0, 0, 0), "hints must be Hint"),
    (Hint(0, 0, "1", 0), "a hint's tile must be a whole number"),
])
def test_hints_are_hints_of_whole_numbers(hint, message):
    with pytest.raises(InputError, match=message):
        EdgeMatchingPuzzle(SOLVED_3X3, 3, hints=[hint])


def test_hints_must_match_each_other():
    with pytest.raises(InputError, match="do not match"):
        EdgeMatchingPuzzle(SOLVED_3X3, 3, hints=[Hint(0, 0, 0, 0), Hint(1, 0, 1, 0),
                                                 Hint(0, 1, 3, 0), Hint(1, 1, 4, 1)])
    with pytest.raises(InputError, match="two hints for the cell at row 1, column 3"):
        EdgeMatchingPuzzle(SOLVED_3X3, 3, hints=[Hint(2, 2, 8, 0), Hint(2, 2, 2, 0)])
    with pytest.raises(InputError, match="hinted twice"):
        EdgeMatchingPuzzle(SOLVED_3X3, 3, hints=[Hint(0, 0, 0, 0), Hint(2, 2, 0, 2)])


def test_symmetry_roots():
    square = solved()
    (root,) = square.symmetry_roots("rotation")
    assert root == (Hint(0, 0, 0, 0),)
    assert square.symmetry_roots("raw") == [()]
    oblong = generate(4, 3, border_colours=2, inner_colours=2, seed=1)
    roots = oblong.symmetry_roots("rotation")
    corner = oblong.corner_tiles()[0]
    assert [(h.x, h.y, h.tile) for (h,) in roots] == [(0, 0, corner), (3, 0, corner)]
    hinted = square.with_hints([Hint(1, 1, 4, 0)])
    assert hinted.symmetry_roots("rotation") == hinted.symmetry_roots("raw") == [hinted.hints]
    assert hinted.effective_unique("rotation") == "hints"


@pytest.mark.parametrize("tiles, rotations", [
    ((-2,) + tuple(range(1, 9)), (0,) * 9),          # would have shown tile 9 (tiles[-2])
    (tuple(range(9)), (4,) + (0,) * 8),
    (tuple(range(8)), (0,) * 8),
])
def test_only_boards_of_the_puzzle_have_colours(tiles, rotations):
    from cpkit.models.edge_matching import BoardSolution

    puzzle = solved()
    assert puzzle.board_colours(BoardSolution(3, 3, tuple(range(9)), (0,) * 9))[2, 0].tolist() \
        == list(SOLVED_3X3[0])                       # the bottom-left cell, row 2 from the top
    with pytest.raises(InputError, match="not a board of this 3 x 3 puzzle"):
        puzzle.board_colours(BoardSolution(3, 3, tiles, rotations))
