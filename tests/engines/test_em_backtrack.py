"""The brute-force backtracker: the paper's published figures, the oracle, resumability."""

from __future__ import annotations

from pathlib import Path

import pytest

from cpkit.models.edge_matching import Hint
from cpkit.models.em_generator import generate
from cpkit.result import verify_board
from cpkit.engines.edge_matching.backtrack import em_backtrack_search as em_backtrack
from cpkit.engines.dispatch import solve
from cpkit.engines.edge_matching.backtrack import em_backtrack_kernel as K
from cpkit.engines.edge_matching.em_front import RootChain
from tests.conftest import unsolvable_board
from tests.oracles import count_boards

pytestmark = pytest.mark.kernel

BENOIST = Path(__file__).resolve().parents[3] / "shared" / "em-benchmarks" / "benoist"
needs_benoist = pytest.mark.skipif(not BENOIST.is_dir(),
                                   reason="the paper's instances are missing (CPKIT_EM_BENCHMARKS)")


@needs_benoist
def test_e_7_1_published_solutions_and_brute_force_nodes():
    # em-benchmarks/README.md: 1 solution, 159,156,828 nodes for a brute force scanning the
    # board in the paper's order with the hinted corner fixed.
    from cpkit.io.edge_matching import read_edge_matching

    puzzle = read_edge_matching(BENOIST / "E_7_1.b6i6.nohint")
    result = solve(puzzle, engine="backtrack")
    assert (result.count, result.stats.nodes) == (1, 159_156_828)
    assert verify_board(puzzle, result.solutions[0]) == []


@pytest.mark.slow
@needs_benoist
@pytest.mark.parametrize("name, solutions, nodes", [
    ("E_7_2.b6i6.nohint", 8, 1_076_409_673),
    ("E_7_3.b6i6.nohint", 12, 3_236_732_504),
    ("E_7_4.b6i6.nohint", 224, 16_285_381_547),
])
def test_published_brute_force_figures(name, solutions, nodes):
    from cpkit.io.edge_matching import read_edge_matching

    result = solve(read_edge_matching(BENOIST / name), engine="backtrack", count_only=True)
    assert (result.count, result.stats.nodes) == (solutions, nodes)


def test_hints_are_respected():
    puzzle = generate(4, border_colours=2, inner_colours=3, seed=8)
    oracle = puzzle.with_hints(puzzle.symmetry_roots("rotation")[0])
    cell = oracle.cell(1, 1)
    # Add a second hint taken from some solution: the tile found on (1, 1).
    first = solve(oracle, engine="backtrack", limit=1).solutions[0]
    tile, rot = first.at(1, 1)
    hinted = oracle.with_hints(oracle.hints + (Hint(1, 1, tile, rot),))
    result = solve(hinted, engine="backtrack")
    assert result.count == count_boards(hinted) >= 1
    assert all(s.tiles[cell] == tile for s in result.solutions)


def test_slices_of_one_node_give_the_same_search():
    puzzle = generate(4, border_colours=2, inner_colours=2, seed=9)
    whole = em_backtrack.BacktrackSearch(puzzle, store=False)
    whole.step(1 << 40, 1 << 40)
    sliced = em_backtrack.BacktrackSearch(puzzle, store=False)
    steps = 0
    while not sliced.step(1 << 40, 1)[0]:
        steps += 1
    assert (sliced.solutions, sliced.nodes) == (whole.solutions, whole.nodes)
    # The budget is checked on entering a cell, so a slice places one node, or two when it
    # reaches a solution (the next sibling is placed before the next check).
    assert steps >= whole.nodes - whole.solutions


def test_a_slice_ending_mid_search_keeps_the_node_it_stopped_at():
    # The brute force records its deepest node on leaving it; a slice that stops at a node it
    # has not left must record that node on return, or the deepest board would lag behind.
    puzzle = unsolvable_board()
    search = em_backtrack.BacktrackSearch(puzzle, store=False)
    while not search.step(1 << 40, 1)[0]:
        depth = int(search.state[K.ST_DEPTH])
        assert search.deepest >= depth
        row = search.deepest_row()
        assert (row >= 0).sum() == search.deepest
    whole = em_backtrack.BacktrackSearch(puzzle, store=False)
    whole.step(1 << 40, 1 << 40)
    assert search.deepest == whole.deepest > 0
    assert (search.deepest_row() == whole.deepest_row()).all()


def test_root_chain_adds_up_the_roots():
    puzzle = generate(5, 3, border_colours=2, inner_colours=2, seed=10)
    roots = puzzle.symmetry_roots("rotation")
    assert len(roots) == 2
    chain = RootChain(roots, lambda r: em_backtrack.BacktrackSearch(puzzle.with_hints(r),
                                                                     store=False))
    while not chain.step(1 << 40, 1000)[0]:
        pass
    parts = []
    for root in roots:
        s = em_backtrack.BacktrackSearch(puzzle.with_hints(root), store=False)
        s.step(1 << 40, 1 << 40)
        parts.append(s.solutions)
    assert chain.total("solutions") == sum(parts)
    assert 2 * chain.total("solutions") == count_boards(puzzle)
