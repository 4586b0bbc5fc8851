"""The random tiling generator: its cut is a solution of pieces all different, the same seed
gives the same puzzle, and the engines count its puzzles alike."""

from __future__ import annotations

import io

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import cpkit
from cpkit.errors import InputError
from cpkit.io.polycube import parse_polycube, write_polycube
from cpkit.models.geometry import canonical, is_connected, normalize
from cpkit.models.tiling_generator import generate, parse_box, plant
from tests.oracles import count_exact_covers

BOXES = [((2, 3, 4), 4), ((3, 3, 6), 6), ((3, 4, 5), 5), ((2, 5, 6), 5), ((11, 6), 6),
         ((6, 5), 5), ((3, 3, 4), 6)]


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(BOXES), st.integers(0, 10**6))
def test_the_cut_is_a_solution_of_pieces_all_different(box_and_size, seed):
    box, size = box_and_size
    try:
        puzzle, cut = plant(box, size, seed=seed)
    except InputError as error:          # a seed may find no cut: said, not silently wrong
        assert "no cut" in str(error)
        return
    dims = (tuple(box) + (1,))[:3]
    assert puzzle.box == dims
    drawn = {p.name: p.cells for p in puzzle.pieces}
    covered = [c for _, cells in cut for c in cells]
    assert sorted(covered) == sorted(puzzle.cells) and len(set(covered)) == len(covered)
    shapes = set()
    for name, cells in cut:
        assert len(cells) == size and is_connected(cells)
        assert canonical(cells, "rotations") == canonical(drawn[name], "rotations")
        shapes.add(canonical(cells, "rotations"))
        if dims[2] == 1:
            assert {z for _, _, z in drawn[name]} == {0}     # a flat box's pieces drawn flat
    assert len(shapes) == len(cut)


def test_the_pieces_are_turned_and_shuffled_not_drawn_as_cut():
    puzzle, cut = plant((3, 4, 5), 5, seed=7)
    placed = dict(cut)
    assert [p.name for p in puzzle.pieces] == sorted(placed)
    assert sum(normalize(placed[p.name]) != normalize(p.cells) for p in puzzle.pieces) >= 6


def test_same_seed_same_puzzle_other_seed_other_puzzle():
    def text(seed):
        out = io.StringIO()
        write_polycube(generate((3, 4, 5), 5, seed=seed), out)
        return out.getvalue()

    assert text(3) == text(3) != text(4)
    assert generate((3, 4, 5), 5, seed=3).name == "cut_3x4x5_n5_s3"
    assert generate((11, 6), 6, seed=1).name == "cut_11x6x1_n6_s1"


@pytest.mark.parametrize("box, size, seed", [((2, 2, 3), 4, 1), ((6, 5), 5, 3)])
def test_the_engines_and_a_plain_exact_cover_count_a_generated_puzzle_alike(box, size, seed):
    puzzle = generate(box, size, seed=seed)
    images = puzzle.images          # all pieces different: one shape each
    rows = [[int(c) for c in images.cells_of(i)] + [puzzle.n_cells + int(images.shape[i])]
            for i in range(len(images))]
    expected = count_exact_covers(puzzle.n_cells + len(puzzle.shapes), rows)
    assert expected >= 1
    assert cpkit.count(puzzle, unique="raw") == expected
    assert cpkit.count(puzzle, engine="dlx", unique="raw") == expected


def test_a_written_puzzle_reads_back_with_the_same_count():
    puzzle = generate((3, 3, 6), 6, seed=2)
    out = io.StringIO()
    write_polycube(puzzle, out)
    back = parse_polycube(out.getvalue())[0]
    assert cpkit.count(back) == cpkit.count(puzzle) >= 1


@pytest.mark.parametrize("box, size, message", [
    ((3, 3, 7), 6, "not a multiple of the piece size 6"),
    ((2, 4, 8), 4, "there are 8 different pieces of 4 cells"),
    ((10, 6), 5, "no cut of the 10x6x1 box"),
    ((4, 4), 1, "at least 2"),
    ((2, 3), 6, "a puzzle has at least two"),
    ((2, 3, 4, 5), 5, "two or three sides"),
    ((0, 3), 3, "at least 1"),
])
def test_what_cannot_be_cut_is_said(box, size, message):
    with pytest.raises(InputError, match=message):
        generate(box, size, seed=1)


def test_boxes_are_read_as_written():
    assert parse_box("3x4x5") == (3, 4, 5) and parse_box("11X6") == (11, 6)
    for bad in ("3y4", "3x", "3x4x5x6", "-3x4"):
        with pytest.raises(InputError, match="WxH or WxHxD"):
            parse_box(bad)
