"""The automatic configuration of ``--engine auto``: orientation, switch and schedule."""

from __future__ import annotations

import numpy as np
import pytest

from cpkit.models import reorient
from cpkit.models.geometry import group
from cpkit.result import verify_tiling
from cpkit.engines.tiling.auto import tiling_autoconfig as autoconfig
from cpkit.engines.dispatch import solve

#: A quarter turn in the plane, an axis permutation with a mirror, a mirror.
TURNS = [((0, -1, 0), (1, 0, 0), (0, 0, 1)), ((0, 0, -1), (1, 0, 0), (0, 1, 0)),
         ((-1, 0, 0), (0, 1, 0), (0, 0, 1))]


def turned_files(puzzle):
    """The puzzle as drawn and as files turned or mirrored the ways ``TURNS`` say (those that
    keep a flat puzzle flat in z)."""
    out = [puzzle]
    for matrix in TURNS:
        turn = reorient.Turn.of(np.array(matrix), puzzle.box)
        if puzzle.dimension == 2 and turn.box[2] != 1:
            continue
        out.append(reorient.turned(puzzle, turn))
    return out


def chosen(puzzle):
    choice = autoconfig.choose(puzzle, {"unique": "rotation"})
    key = {k for t, k in reorient.distinct(choice.candidate.puzzle) if t.is_identity}
    return key, choice.config.fila_at, str(choice.config.schedule), choice


@pytest.mark.parametrize("name", ["pentominoes_12x5.txt", "pentominoes_2x3x10.txt",
                                  "somacube.txt"])
def test_every_drawing_of_a_puzzle_gets_the_same_search(tiling_instance, name):
    """A puzzle and its files turned or mirrored get the same oriented puzzle, switch and
    schedule: the same search, whatever way the file draws it."""
    puzzle = tiling_instance(name)
    first = chosen(puzzle)[:3]
    for drawn in turned_files(puzzle)[1:]:
        assert chosen(drawn)[:3] == first


def test_the_long_side_goes_along_y(tiling_instance):
    """Filled along its short side (de Bruijn's order), the 12 x 5 takes a few per cent of
    the fits it takes filled along the long side: the choice turns the box drawn 12 wide."""
    puzzle = tiling_instance("pentominoes_12x5.txt")
    wide = reorient.turned(puzzle, reorient.Turn.of(np.array(TURNS[0]), puzzle.box))
    assert wide.box == (12, 5, 1)
    choice = chosen(wide)[3]
    assert choice.candidate.puzzle.box == (5, 12, 1) and not choice.candidate.turn.is_identity
    estimates = {e.option.orientation: e.seconds for e in choice.estimates}
    assert estimates[1] > 10 * estimates[0]


@pytest.mark.parametrize("name, count", [("pentominoes_20x3.txt", 2), ("somacube.txt", 480),
                                         ("pentominoes_onesided_30x3.txt", 46)])
def test_counts_and_solutions_stay_in_the_files_frame(tiling_instance, name, count):
    """Turned files count as the bundled one, and every solution returned is a tiling of the
    file as drawn (turned back from the orientation searched)."""
    for drawn in turned_files(tiling_instance(name)):
        result = solve(drawn, unique="rotation")
        assert result.complete and result.count == count == len(result.solutions)
        assert all(verify_tiling(drawn, t) == [] for t in result.solutions)


def test_orientation_file_searches_the_puzzle_as_drawn(tiling_instance):
    puzzle = tiling_instance("pentominoes_12x5.txt")
    wide = reorient.turned(puzzle, reorient.Turn.of(np.array(TURNS[0]), puzzle.box))
    as_drawn = solve(wide, orientation="file", count_only=True)
    chosen_ = solve(wide, count_only=True)
    assert as_drawn.count == chosen_.count == 1010
    assert "orientation" not in as_drawn.stats.extra
    assert chosen_.stats.extra["orientation"].startswith("turned")
    assert as_drawn.stats.fits > 10 * chosen_.stats.fits


def test_a_run_stopped_at_its_first_solutions_searches_the_puzzle_as_drawn(tiling_instance):
    """The choice prices the whole tree, not the way to a first solution: a run with a limit
    makes no choice and finds the solutions ``orientation="file"`` finds, in its order."""
    puzzle = tiling_instance("pentominoes_12x5.txt")
    wide = reorient.turned(puzzle, reorient.Turn.of(np.array(TURNS[0]), puzzle.box))
    first = solve(wide, limit=3)
    assert "orientation" not in first.stats.extra and "choice_seconds" not in first.stats.extra
    assert first.solutions == solve(wide, orientation="file", limit=3).solutions
    assert first.count == 3 and all(verify_tiling(wide, t) == [] for t in first.solutions)


def test_candidates_are_each_orientation_once(tiling_instance):
    """The 2 x 5 x 6 box: six orientations (which side goes along which axis; pentominoes are
    their own mirror images in space), best geometry first: the thinnest side along z."""
    cands = autoconfig.candidates(tiling_instance("pentominoes_2x5x6.txt"))
    boxes = [c.puzzle.box for c in cands]
    assert len(boxes) == 6 == len(set(boxes))
    assert boxes[0] == (5, 6, 2)
    assert all(any(np.array_equal(np.array(c.turn.matrix), m) for m in group("mirror"))
               for c in cands)


def test_a_glance_settles_a_tiny_puzzle_and_only_a_tiny_one(tiling_instance):
    """The Soma cube (milliseconds of search) and the 15 x 4 (75 ms) are configured by the
    glance alone: one coarse estimate.  The 12 x 5 (a third of a second) goes on to the full
    estimates and compares its orientations."""
    soma = chosen(tiling_instance("somacube.txt"))[3]
    assert len(soma.estimates) == 1
    assert soma.chosen.seconds < autoconfig.GLANCE_BELOW
    flat = chosen(tiling_instance("pentominoes_15x4.txt"))[3]
    assert len(flat.estimates) == 1 and flat.chosen.seconds < autoconfig.GLANCE_BELOW_FLAT
    long_one = chosen(tiling_instance("pentominoes_12x5.txt"))[3]
    assert long_one.chosen.seconds >= autoconfig.GLANCE_BELOW_FLAT
    assert len({e.option.orientation for e in long_one.estimates}) == 2
