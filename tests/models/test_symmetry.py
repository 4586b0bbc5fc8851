"""Symmetry groups, the redundancy filter, and exact counting up to symmetry."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cpkit.models.polyforms import PENTOMINOES
from cpkit.models.symmetry import (canonical_tiling_key, distinct_ints, image_permutation,
                                   plan_redundancy, puzzle_symmetries)
from cpkit.models.tiling import Piece, Puzzle
from cpkit.engines.exact_cover.dlx import dlx_search as dlx
from cpkit.engines.dispatch import solve
from tests.strategies import puzzles


@pytest.mark.parametrize("name, unique, order", [
    ("pentominoes_10x6.txt", "rotation", 4),
    ("pentominoes_10x6.txt", "mirror", 8),
    ("somacube.txt", "rotation", 24),
    ("somacube.txt", "mirror", 48),        # the Soma set is closed under mirroring (A <-> B)
    ("tetriscube.txt", "mirror", 24),      # the Tetris Cube set is not: no reflection applies
    ("pentominoes_onesided_30x3.txt", "rotation", 4),   # closed one-sided set: flips allowed
    ("hexominoes_box_in_diamond.txt", "rotation", 4),
    ("pt12_diamond.txt", "rotation", 8),
    ("somacube.txt", "raw", 1),
])
def test_group_orders(tiling_instance, name, unique, order):
    assert len(puzzle_symmetries(tiling_instance(name), unique)) == order


def test_one_sided_pieces_without_their_mirrors_forbid_flips():
    pieces = [Piece("F", PENTOMINOES["F"]), Piece("L", PENTOMINOES["L"])]
    p = Puzzle(pieces, box=(5, 2, 1), one_sided=True)
    assert len(puzzle_symmetries(p, "rotation")) == 2      # identity and the half-turn


def test_redundancy_piece_choice_matches_the_seed(tiling_instance):
    plan = plan_redundancy(tiling_instance("pentominoes_10x6.txt"), "rotation")
    assert plan.piece == "X" and plan.exact_without_check
    x_images = plan.kept & (plan.shape_of == plan.shape)
    assert x_images.sum() == 8                 # "only 8 images ... in the lower-left quadrant"
    p = tiling_instance("pentominoes_10x6.txt")
    centres = [np.mean([p.cells[c] for c in p.images.cells_of(i)], axis=0)
               for i in np.flatnonzero(x_images)]
    assert all(cx < 3 and cy < 5 for cx, cy, _ in centres)
    tetris = plan_redundancy(tiling_instance("tetriscube.txt"), "rotation")
    assert tetris.piece == "L"                 # Westen's choice: large and complex
    assert (tetris.kept & (tetris.shape_of == tetris.shape)).sum() == 12


def test_image_permutation_is_a_group_action(tiling_instance):
    p = tiling_instance("somacube.txt")
    syms = puzzle_symmetries(p, "mirror")
    perm = image_permutation(p, syms)
    assert all(sorted(row) == list(range(len(p.images))) for row in perm)
    assert np.array_equal(perm[0], np.arange(len(p.images)))


def _orbit_count(puzzle, unique):
    raw = dlx.solve_tiling(puzzle)
    perm = image_permutation(puzzle, puzzle_symmetries(puzzle, unique))
    ids = {tuple(sorted(puzzle.images_of_tiling(t))) for t in raw.solutions}
    return len({canonical_tiling_key(s, perm) for s in ids})


@pytest.mark.kernel
@settings(max_examples=120)
@given(puzzles())
def test_counts_up_to_symmetry_are_orbit_counts(puzzle):
    """Whatever piece is constrained (or none), the count equals the number of classes of raw
    solutions under the group, computed by brute force."""
    for unique in ("rotation", "mirror"):
        expected = _orbit_count(puzzle, unique)
        for redundancy in ("auto", None):
            got = solve(puzzle, unique=unique, redundancy=redundancy, count_only=True)
            assert got.complete and got.count == expected, (unique, redundancy)


@pytest.mark.parametrize("name, unique, count", [
    ("pentominoes_20x3.txt", "rotation", 2),
    ("pentominoes_15x4.txt", "rotation", 368),
    ("somacube.txt", "rotation", 480),
    ("somacube.txt", "mirror", 240),
    ("pentominoes_onesided_30x3.txt", "rotation", 46),
    ("pentominoes_10x6.txt", "rotation", 2339),
    ("pentominoes_12x5.txt", "rotation", 1010),
])
def test_published_counts_up_to_symmetry(tiling_instance, name, unique, count):
    result = solve(tiling_instance(name), unique=unique, count_only=True)
    assert result.complete and result.count == count


def test_every_piece_choice_gives_the_same_count(tiling_instance):
    p = tiling_instance("somacube.txt")
    for piece in [q.name for q in p.mobile_pieces] + [None]:
        assert solve(p, unique="rotation", redundancy=piece, count_only=True).count == 480


def test_solutions_up_to_symmetry_are_pairwise_inequivalent(tiling_instance):
    p = tiling_instance("pentominoes_20x3.txt")
    result = solve(p, unique="rotation")
    perm = image_permutation(p, puzzle_symmetries(p, "rotation"))
    keys = {canonical_tiling_key(p.images_of_tiling(t), perm) for t in result.solutions}
    assert len(result.solutions) == len(keys) == 2


@pytest.mark.slow
@pytest.mark.parametrize("name, unique, count", [
    ("tetriscube.txt", "rotation", 9839),
    ("bedlamcube.txt", "rotation", 19186),
])
def test_slow_published_counts(tiling_instance, name, unique, count):
    assert solve(tiling_instance(name), unique=unique, count_only=True).count == count


@given(st.lists(st.integers(0, 300), max_size=60), st.sampled_from([np.int32, np.int64]))
def test_distinct_ints_answers_as_np_unique(values, dtype):
    a = np.array(values, dtype=dtype)
    assert distinct_ints(a).tolist() == np.unique(a).tolist()


def reference_is_counted(plan, image_ids) -> bool:
    """``RedundancyPlan.is_counted`` written in numpy, symmetry by symmetry: no image of the
    solution under a symmetry whose image the search finds (one image of the constrained
    shape, kept) is smaller, as sorted image numbers."""
    ids = np.sort(np.asarray(image_ids, dtype=np.int64))
    key = tuple(ids.tolist())
    for h in range(1, plan.order):
        moved = plan.perm[h, ids]
        if plan.shape >= 0:
            mine = moved[plan.shape_of[moved] == plan.shape]
            if len(mine) != 1 or not plan.kept[mine[0]]:
                continue                     # h(S) is not in F: never found
        if tuple(np.sort(moved).tolist()) < key:
            return False
    return True


@pytest.mark.kernel
@settings(max_examples=60)
@given(puzzles())
def test_the_compiled_redundancy_check_answers_as_its_reference(puzzle):
    """``is_counted`` (compiled) against ``reference_is_counted`` (numpy) on every raw
    solution, for each counting mode and constrained piece the plan picks (or none)."""
    raw = dlx.solve_tiling(puzzle).solutions
    for unique in ("rotation", "mirror"):
        for redundancy in ("auto", None):
            plan = plan_redundancy(puzzle, unique, redundancy)
            if plan.exact_without_check:
                continue
            for tiling in raw:
                ids = np.array(puzzle.images_of_tiling(tiling))
                assert plan.is_counted(ids) == reference_is_counted(plan, ids)
