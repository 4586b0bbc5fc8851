"""The section 6.3 reference model (4-edge consistency + complete AllDifferent): its counts
agree with the brute force, its solutions are valid, and the AllDifferent finds what pairwise
difference cannot."""

from __future__ import annotations

import pytest

from cpkit.errors import EngineUnavailable
from cpkit.models.edge_matching import EdgeMatchingPuzzle
from cpkit.models.em_generator import generate
from cpkit.result import verify_board
from cpkit.engines.dispatch import solve
from cpkit.engines.edge_matching.alldiff.em_alldiff_search import AlldiffSearch, Failure

BOARDS = [(3, 1, 2, 0), (4, 2, 3, 1), (4, 2, 4, 2), (5, 3, 4, 50), (5, 4, 4, 3), (4, 3, 2, 7)]


@pytest.mark.parametrize("n, border, inner, seed", BOARDS)
@pytest.mark.parametrize("alldifferent, edges", [(True, False), (False, False), (True, True),
                                                 (False, True)])
def test_counts_agree_with_the_brute_force(n, border, inner, seed, alldifferent, edges):
    puzzle = generate(n, border_colours=border, inner_colours=inner, seed=seed)
    for unique in ("rotation", "raw"):
        expected = solve(puzzle, engine="backtrack", unique=unique, count_only=True).count
        result = solve(puzzle, engine="alldiff", unique=unique, alldifferent=alldifferent,
                       edges=edges)
        assert result.complete and result.count == expected > 0
        assert all(verify_board(puzzle, s) == [] for s in result.solutions)
        assert len(set(result.solutions)) == expected


@pytest.mark.parametrize("weaker, stronger, factor", [
    (dict(alldifferent=False), {}, 1),                  # the complete AllDifferent
    ({}, dict(edges=True), 3),                          # edge filtering (the third model)
])
def test_each_filter_cuts_nodes(weaker, stronger, factor):
    # Same branching rule (smallest domain), so the difference is the filtering; the order
    # follows the domains, which is why this is a measured fact of these boards, not a law.
    for n, border, inner, seed in [(5, 3, 4, 50), (5, 4, 4, 3)]:
        puzzle = generate(n, border_colours=border, inner_colours=inner, seed=seed)
        weak = solve(puzzle, engine="alldiff", count_only=True, **weaker)
        strong = solve(puzzle, engine="alldiff", count_only=True, **stronger)
        assert weak.count == strong.count
        assert strong.stats.nodes * factor < weak.stats.nodes


def test_a_hall_set_is_found_before_any_branching():
    # A 2x2 board of four corner tiles: every cell takes every tile (in one rotation each).
    tiles = [(1, 2, 0, 0), (0, 1, 2, 0), (0, 0, 1, 2), (2, 0, 0, 1)]
    puzzle = EdgeMatchingPuzzle(tiles, 2)
    search = AlldiffSearch(puzzle)
    domains = search._initial_domains()
    assert all(len(d) == 4 for d in domains.values())
    # Cells 0 to 2 left with tiles 0 to 2 (a Hall set): tile 3 can only go to cell 3, and cell 3
    # must lose tiles 0 to 2, though no tile is placed yet (pairwise difference removes nothing).
    for c in (0, 1, 2):
        domains[c] = {o for o in domains[c] if search.ori_tile[o] != 3}
    search._alldifferent(domains)
    assert {search.ori_tile[o] for o in domains[3]} == {3}
    # Three cells sharing two tiles is a failure (no matching covers them).
    for c in (0, 1, 2):
        domains[c] = {o for o in domains[c] if search.ori_tile[o] in (0, 1)}
    with pytest.raises(Failure):
        search._alldifferent(domains)


def test_alldiff_reports_no_progress_and_says_so():
    """The one engine without a progress line refuses ``on_progress`` by name (``--progress``
    is refused on its account: tests/cli/test_match.py)."""
    with pytest.raises(EngineUnavailable, match="alldiff engine takes no option 'on_progress'"):
        solve(generate(4, border_colours=2, inner_colours=3, seed=1), engine="alldiff",
              on_progress=print)
