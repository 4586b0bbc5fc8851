"""DLX against published counts, the pure-Python oracle, CP-SAT, and its own invariants."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings

from cpkit.models.exact_cover import ExactCover
from cpkit.result import LIMIT, verify_tiling
from cpkit.engines.exact_cover.dlx import dlx_search as dlx
from cpkit.engines.tiling.tiling_heuristics import parse_schedule, tables
from tests.oracles import count_exact_covers
from tests.strategies import exact_covers, puzzles

pytestmark = pytest.mark.kernel


@pytest.mark.parametrize("name, raw", [
    ("pentominoes_20x3.txt", 8),
    ("somacube.txt", 11520),
    ("pentominoes_10x6.txt", 9356),
])
def test_published_raw_counts(tiling_instance, name, raw):
    result = dlx.solve_tiling(tiling_instance(name), count_only=True)
    assert result.complete
    assert result.count == raw


def test_solutions_are_valid_and_distinct(tiling_instance):
    puzzle = tiling_instance("pentominoes_20x3.txt")
    result = dlx.solve_tiling(puzzle)
    assert len(result.solutions) == 8
    for tiling in result.solutions:
        assert verify_tiling(puzzle, tiling) == []
    assert len({t.placements for t in result.solutions}) == 8


def test_fits_are_counted_per_pieces_remaining(tiling_instance):
    result = dlx.solve_tiling(tiling_instance("somacube.txt"), count_only=True)
    fits = result.stats.fits_by_remaining
    assert len(fits) == 8 and fits[0] == 0
    assert fits[1] == result.count              # every last placement completes a solution
    assert sum(fits) == result.stats.nodes


@pytest.mark.parametrize("spec", ["s", "f", "x", "y", "z", "r", "a@160", "f!", "x:s=4", "z!:f=3"])
def test_every_heuristic_finds_every_solution(tiling_instance, spec):
    result = dlx.solve_tiling(tiling_instance("somacube.txt"), heuristic=spec, count_only=True)
    assert result.count == 11520


def test_limit_stops_exactly(tiling_instance):
    result = dlx.solve_tiling(tiling_instance("pentominoes_10x6.txt"), limit=5)
    assert result.count == 5 and len(result.solutions) == 5
    assert not result.complete and result.stop_reason == LIMIT


def test_time_limit_reports_partial_count(tiling_instance):
    result = dlx.solve_tiling(tiling_instance("pentominoes_10x6.txt"), count_only=True,
                              time_limit=0.3)
    assert not result.complete
    assert 0 < result.count < 9356


def test_resuming_in_tiny_slices_changes_nothing(tiling_instance):
    """Stopping the kernel after every placement and resuming must give the same search."""
    puzzle = tiling_instance("somacube.txt")
    cover = puzzle.exact_cover()
    of_level, kind, key = tables(parse_schedule("s"), cover.n_items, puzzle.cell_coords,
                                 cover.max_depth(), puzzle.n_pieces)
    search = dlx.DlxSearch(cover, of_level, kind, key, store=True, buffer=3)
    while not search.step(1 << 40, 7)[0]:
        pass
    whole = dlx.solve_tiling(puzzle, count_only=True)
    assert search.solutions == len(search.found) == 11520
    assert search.nodes == whole.stats.nodes


@settings(max_examples=300)
@given(exact_covers())
def test_generic_cover_matches_oracle(case):
    n_primary, n_items, rows, need = case
    names = [f"i{k}" for k in range(n_items)]
    cover = ExactCover.from_rows(names[:n_primary], names[n_primary:], rows, need=need)
    expected = count_exact_covers(n_primary, rows, need, n_items)
    for heuristic in ("s", "f"):
        result = dlx.solve_cover(cover, heuristic=heuristic)
        assert result.count == expected
        for sol in result.solutions:        # each solution covers exactly what it must
            hits = np.zeros(n_items, dtype=int)
            for r in sol:
                hits[rows[r]] += 1
            assert list(hits[:n_primary]) == need and all(hits[n_primary:] <= 1)
        assert len({tuple(s) for s in result.solutions}) == expected


@settings(max_examples=60)
@given(puzzles())
def test_random_puzzles_all_heuristics_agree(puzzle):
    counts = {h: dlx.solve_tiling(puzzle, heuristic=h, count_only=True).count
              for h in ("s", "f", "x", "r", "f!")}
    assert len(set(counts.values())) == 1, counts
    assert counts["s"] >= 1                     # the strategy builds solvable puzzles


def test_stop_level_hands_over_subproblems(tiling_instance):
    """Stopping at a depth, solving each remaining subproblem separately and resuming counts
    every solution once: the contract the DLX-to-FILA hybrid relies on."""
    puzzle = tiling_instance("somacube.txt")
    cover = puzzle.exact_cover()
    of_level, kind, key = tables(parse_schedule("s"), cover.n_items, puzzle.cell_coords,
                                 cover.max_depth(), puzzle.n_pieces)
    search = dlx.DlxSearch(cover, of_level, kind, key, store=False)
    search.stop_level = 2
    total, handoffs = 0, 0
    while True:
        finished, _ = search.step(1 << 40, 1 << 20)
        if search.at_stop_level:
            handoffs += 1
            sub_rows = search.remaining_options()
            keep = np.zeros(cover.n_options, dtype=bool)
            keep[sub_rows] = True
            sub = cover.restricted(keep)
            sub.need = np.maximum(search.remaining_need(), 0)
            covered = sub.need == 0
            # Items already covered drop out: solve the cover of the items still needed.
            idx = np.flatnonzero(~covered)
            remap = -np.ones(cover.n_primary, dtype=np.int64)
            remap[idx] = np.arange(len(idx))
            rows = [[int(remap[i]) for i in sub.option(k)] for k in range(sub.n_options)]
            names = [cover.primary[i] for i in idx]
            total += dlx.solve_cover(ExactCover.from_rows(names, [], rows,
                                                          need=sub.need[idx]),
                                     count_only=True).count
        if finished:
            break
    assert handoffs > 1
    assert total + search.solutions == 11520


def test_progress_reports_end_on_the_results_figures(tiling_instance):
    cover = tiling_instance("pentominoes_20x3.txt").exact_cover()
    reports: list[dict[str, int]] = []
    result = dlx.solve_cover(cover, on_progress=reports.append)
    assert reports and reports[-1] == {"nodes": result.stats.nodes, "solutions": result.count,
                                       "deepest": max(len(s) for s in result.solutions)}


@pytest.mark.parametrize("options, message", [
    ({"limit": 0}, "at least 1"), ({"limit": -1}, "at least 1"), ({"limit": "3"}, "whole"),
    ({"limit": 2.5}, "whole"), ({"limit": True}, "whole"), ({"time_limit": -5}, "positive"),
    ({"time_limit": float("nan")}, "positive"), ({"time_limit": "x"}, "number of seconds"),
    ({"on_solution": 5}, "must be a function"),
])
@pytest.mark.parametrize("engine", ["dlx", "cpsat"])
def test_exact_covers_refuse_limits_every_family_refuses(options, message, engine):
    """Exact covers took limit=0 as a finished search of no solution, limit=-1 as no limit,
    a negative time limit as none."""
    from cpkit.errors import InputError
    from cpkit.engines.dispatch import solve

    cover = ExactCover.from_rows(list("abc"), [], [[0, 1], [2], [0], [1, 2]])
    with pytest.raises(InputError, match=message):
        solve(cover, engine=engine, **options)
