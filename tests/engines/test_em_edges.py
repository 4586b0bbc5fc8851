"""The compiled edge-filtering engine: the Python reference's nodes exactly, counts of the brute
force, counters that stay consistent with the domains through every undo."""

from __future__ import annotations

from pathlib import Path

import pytest

from cpkit.io.edge_matching import read_edge_matching
from cpkit.models.edge_matching import EdgeMatchingPuzzle
from cpkit.models.em_generator import generate
from cpkit.result import verify_board
from cpkit.engines.dispatch import solve
from cpkit.engines.edge_matching.em_front import CELL_RULES
from cpkit.engines.edge_matching.edges.em_edges_search import EdgesSearch

pytestmark = pytest.mark.kernel

BOARDS = [(3, 1, 2, 0), (4, 2, 3, 1), (4, 2, 4, 2), (5, 3, 4, 50), (5, 4, 4, 3), (4, 3, 2, 7)]
BENOIST = Path(__file__).resolve().parents[3] / "shared" / "em-benchmarks" / "benoist"
needs_benoist = pytest.mark.skipif(not BENOIST.is_dir(),
                                   reason="the paper's instances are missing (CPKIT_EM_BENCHMARKS)")
#: em-benchmarks/README.md: solutions and brute-force nodes (row scan, the hinted corner fixed).
PUBLISHED = {"E_7_2.b6i6.nohint": (8, 1_076_409_673), "E_7_4.b6i6.nohint": (224, 16_285_381_547)}


@needs_benoist
@pytest.mark.parametrize("name", [
    "E_7_2.b6i6.nohint", pytest.param("E_7_4.b6i6.nohint", marks=pytest.mark.slow)])
def test_published_counts_with_a_hundred_times_fewer_nodes_than_the_brute_force(name):
    puzzle = read_edge_matching(BENOIST / name)
    solutions, brute_force_nodes = PUBLISHED[name]
    result = solve(puzzle, engine="edges")
    assert result.complete and result.count == solutions
    assert all(verify_board(puzzle, s) == [] for s in result.solutions)
    assert len(set(result.solutions)) == solutions
    assert 100 * result.stats.nodes < brute_force_nodes


@needs_benoist
def test_dom_ddeg_makes_a_hundred_times_fewer_nodes_than_the_brute_force_on_e_10_8():
    # E_10_8: the paper's strongest model (Table 2) makes 22,527 nodes, 151 times fewer than
    # the brute force's 3,398,913 (its column scan from the hinted corner).  Ours, by
    # dom/ddeg: 21,226 (min-domain: 74,817, 45 times).
    puzzle = read_edge_matching(BENOIST / "E_10_8.b13i14.nohint")
    brute_force = solve(puzzle, engine="backtrack", count_only=True)
    ours = solve(puzzle, engine="edges")
    assert ours.complete and brute_force.complete and ours.count == brute_force.count == 4
    assert all(verify_board(puzzle, s) == [] for s in ours.solutions)
    assert 100 * ours.stats.nodes < brute_force.stats.nodes


@needs_benoist
def test_shaving_makes_a_hundred_times_fewer_branching_nodes_than_the_brute_force_on_e_10_7():
    # E_10_7 is the paper's board where edge filtering gains least on the brute force (its
    # Table 2: 3,999 nodes against 137,289, 34 times; ours by dom/ddeg 2,443, 56 times).
    # Singleton tests on the cells of two orientations leave 834 branching placements; the
    # trials are counted apart (about 2,100).
    puzzle = read_edge_matching(BENOIST / "E_10_7.b12i15.nohint")
    brute_force = solve(puzzle, engine="backtrack", count_only=True)
    plain = solve(puzzle, engine="edges", count_only=True)
    shaved = solve(puzzle, engine="edges", shave=2)
    assert shaved.complete and shaved.count == plain.count == brute_force.count == 1
    assert all(verify_board(puzzle, s) == [] for s in shaved.solutions)
    assert 100 * shaved.stats.nodes < brute_force.stats.nodes
    assert shaved.stats.nodes < plain.stats.nodes
    assert shaved.stats.extra["shave_trials"] > shaved.stats.nodes


@pytest.mark.parametrize("n, border, inner, seed", BOARDS)
def test_shaving_keeps_the_count(n, border, inner, seed):
    # Shaving removes only orientations in no solution.  (Nodes may grow on a small board:
    # smaller domains change which cell dom/ddeg picks.)
    puzzle = generate(n, border_colours=border, inner_colours=inner, seed=seed)
    for unique in ("rotation", "raw"):
        plain = solve(puzzle, engine="edges", unique=unique, count_only=True)
        for shave in (2, 4, "all"):
            shaved = solve(puzzle, engine="edges", unique=unique, shave=shave)
            assert shaved.complete and shaved.count == plain.count
            assert all(verify_board(puzzle, s) == [] for s in shaved.solutions)
            assert len(set(shaved.solutions)) == shaved.count


@pytest.mark.parametrize("branching", CELL_RULES)
@pytest.mark.parametrize("n, border, inner, seed", BOARDS)
def test_without_tile_rules_it_makes_the_python_references_nodes(n, border, inner, seed,
                                                                 branching):
    puzzle = generate(n, border_colours=border, inner_colours=inner, seed=seed)
    for unique in ("rotation", "raw"):
        ours = solve(puzzle, engine="edges", unique=unique, tiles=False, branching=branching)
        reference = solve(puzzle, engine="alldiff", unique=unique, edges=True,
                          alldifferent=False, count_only=True, branching=branching)
        assert ours.complete and ours.count == reference.count > 0
        assert ours.stats.nodes == reference.stats.nodes
        assert all(verify_board(puzzle, s) == [] for s in ours.solutions)
        assert len(set(ours.solutions)) == ours.count


@pytest.mark.parametrize("branching", CELL_RULES)
@pytest.mark.parametrize("n, border, inner, seed", BOARDS)
def test_with_the_alldifferent_it_makes_the_python_third_models_nodes(n, border, inner, seed,
                                                                      branching):
    # Both reach the one greatest fixed point of edge filtering and Régin's filtering, and
    # branch alike, so the trees are the same (the tile rules add nothing to the AllDifferent).
    puzzle = generate(n, border_colours=border, inner_colours=inner, seed=seed)
    for unique in ("rotation", "raw"):
        ours = solve(puzzle, engine="edges", unique=unique, alldifferent=True,
                     branching=branching)
        reference = solve(puzzle, engine="alldiff", unique=unique, edges=True, count_only=True,
                          branching=branching)
        assert ours.complete and ours.count == reference.count > 0
        assert ours.stats.nodes == reference.stats.nodes
        assert all(verify_board(puzzle, s) == [] for s in ours.solutions)


@pytest.mark.parametrize("n, border, inner, seed", BOARDS)
def test_with_tile_rules_counts_agree_with_the_brute_force(n, border, inner, seed):
    puzzle = generate(n, border_colours=border, inner_colours=inner, seed=seed)
    for unique in ("rotation", "raw"):
        expected = solve(puzzle, engine="backtrack", unique=unique, count_only=True).count
        ours = solve(puzzle, engine="edges", unique=unique)
        assert ours.complete and ours.count == expected
        assert all(verify_board(puzzle, s) == [] for s in ours.solutions)
        assert len(set(ours.solutions)) == expected


def test_the_tile_rules_cut_nodes():
    # Measured on this board (the rule that a tile only one cell can take goes there finds
    # what the complete AllDifferent finds here): 950 nodes without, 51 with (min-domain).
    puzzle = generate(5, border_colours=3, inner_colours=4, seed=50)
    without = solve(puzzle, engine="edges", tiles=False, count_only=True,
                    branching="min-domain")
    with_rules = solve(puzzle, engine="edges", count_only=True, branching="min-domain")
    assert without.count == with_rules.count
    assert with_rules.stats.nodes * 10 < without.stats.nodes


def test_colours_the_tiles_do_not_show_change_nothing():
    # Spread the colours out (order kept) so that the puzzle declares 70, most unused (the
    # engine used to refuse more than 64): it renumbers the shown ones densely, so it makes the
    # same nodes and solutions.
    puzzle = generate(5, border_colours=3, inner_colours=4, seed=50)
    spread = EdgeMatchingPuzzle([tuple(10 * c for c in t) for t in puzzle.tiles], 5,
                                n_colours=10 * puzzle.n_colours)
    ours, theirs = (solve(p, engine="edges", shave=2) for p in (puzzle, spread))
    assert ours.count == theirs.count > 0
    assert ours.solutions == theirs.solutions
    assert ours.stats.nodes == theirs.stats.nodes
    counted = ("propagated", "failed_nodes", "shave_trials", "shave_removed")
    assert [ours.stats.extra[k] for k in counted] == [theirs.stats.extra[k] for k in counted]


@pytest.mark.parametrize("tiles, alldifferent, shave", [
    (True, False, 0), (False, False, 0), (True, True, 0), (True, False, 3), (True, True, "all")])
def test_counters_follow_the_domains_through_every_undo_and_a_resumed_search_agrees(
        tiles, alldifferent, shave):
    puzzle = generate(5, border_colours=3, inner_colours=3, seed=51)
    whole = EdgesSearch(puzzle, store=False, tiles=tiles, alldifferent=alldifferent, shave=shave)
    assert whole.step(1 << 40, 1 << 40)[0]
    pieces = EdgesSearch(puzzle, store=False, tiles=tiles, alldifferent=alldifferent,
                         shave=shave)
    steps = 0
    while not pieces.step(1 << 40, 97)[0]:
        steps += 1
        if steps % 25 == 0:
            pieces.check()      # the sanity checker (edge_supports_sanity)
    assert steps > (100 if not shave else 3)
    assert (pieces.solutions, pieces.nodes, pieces.propagated, pieces.shave_trials) == \
        (whole.solutions, whole.nodes, whole.propagated, whole.shave_trials)
    # Finished: every branch was undone, back to the root's fixed point.
    pieces.check()
