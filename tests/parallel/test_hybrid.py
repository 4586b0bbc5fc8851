"""The hybrid and FILA subproblem protocol: split runs add up to the sequential run exactly
(fits and attempts per level), whether the split depth lies above the DLX-to-FILA switch, at it
or below it; paths replay the very nodes; probes are Knuth's unbiased estimator."""

from __future__ import annotations

import pytest
from hypothesis import given, settings

from cpkit.errors import InputError
from cpkit.engines.tiling.hybrid import hybrid_split as split_hybrid
from cpkit.engines.dispatch import solve
from tests.parallel.test_dlx import (assert_a_capped_frontier_is_its_prefix, exact_expectation,
                                     split_total)
from tests.strategies import puzzles

pytestmark = pytest.mark.kernel


def assert_same_as_sequential(tree, sequential, depth: int) -> None:
    _, total, _ = split_total(tree, depth)
    merged = tree.result(total, complete=True, stop_reason="complete", seconds=0.0,
                         jit_seconds=0.0, solutions=[])
    assert merged.count == sequential.count
    assert merged.engine == sequential.engine
    assert merged.stats.nodes == sequential.stats.nodes
    assert merged.stats.fits_by_remaining == sequential.stats.fits_by_remaining
    assert merged.stats.attempts_by_remaining == sequential.stats.attempts_by_remaining
    for key in ("heuristic_checks", "parity_backtracks", "volume_backtracks",
                "filtered_in_search", "found", "fila_at", "max_subproblem_cells"):
        assert merged.stats.extra.get(key) == sequential.stats.extra.get(key), key
    # what ``cpkit tile --stats`` prints of the configuration (FILA alone printed a hand-over)
    assert merged.options == sequential.options


@pytest.mark.parametrize("depth", [1, 2, 3, 4])
def test_pentominoes_split_across_the_switch(tiling_instance, depth):
    """The automatic configuration places the X with DLX and hands over to FILA at depth 1:
    depth 1 splits at the switch, deeper ones inside FILA's subproblems."""
    puzzle = tiling_instance("pentominoes_20x3.txt")
    sequential = solve(puzzle, engine="auto", count_only=True)
    tree = split_hybrid.prepare(puzzle, {"unique": "rotation"})
    assert tree.config.fila_at == puzzle.n_pieces - 1
    assert_same_as_sequential(tree, sequential, depth)


@pytest.mark.parametrize("engine,options", [
    ("hybrid", {"fila_at": 5, "heuristic": "s:e=5:f=2", "volume_filter": 6,
                "volume_trigger": 6}),
    ("hybrid", {"fila_at": 6, "heuristic": "s:s=6:x=2", "nof": False}),
    ("fila", {"heuristic": "e:f=3"}),
    ("fila", {"heuristic": "y", "unique": "mirror"}),
])
@pytest.mark.parametrize("depth", [1, 2, 3])
def test_soma_split_equals_sequential(tiling_instance, engine, options, depth):
    """Switches at depths 2, 1 and 0 (FILA alone); the split depth above, at and below."""
    puzzle = tiling_instance("somacube.txt")
    options = {"unique": "rotation", **options}
    sequential = solve(puzzle, engine=engine, count_only=True, **options)
    tree = split_hybrid.prepare(puzzle, options, engine)
    assert_same_as_sequential(tree, sequential, depth)


@settings(max_examples=30)
@given(puzzles())
def test_random_puzzles_split_replays_the_sequential_search(puzzle):
    """Solutions come out in the sequential order, so each replayed path (through DLX and
    then FILA) reached the very node it was split at."""
    at = max(1, puzzle.n_pieces // 2)
    schedule = f"s:e={at}:f=1" if at > 1 else "s:f=1"
    options = {"unique": "raw", "fila_at": at, "heuristic": schedule}
    sequential = solve(puzzle, engine="hybrid", **options)
    tree = split_hybrid.prepare(puzzle, options, "hybrid")
    for depth in (1, 2, 3):
        _, total, ordered = split_total(tree, depth, store=True)
        assert total.count == sequential.count
        assert total.nodes == sequential.stats.nodes
        assert [tree.decode(s) for s in ordered] == sequential.solutions


@pytest.mark.parametrize("engine", ["hybrid", "fila"])
def test_a_frontier_search_stops_past_its_bound(tiling_instance, engine):
    tree = split_hybrid.prepare(tiling_instance("pentominoes_10x6.txt"), {"unique": "rotation"},
                                engine)
    assert_a_capped_frontier_is_its_prefix(tree, 3)


def test_a_path_from_another_model_is_refused(tiling_instance):
    tree = split_hybrid.prepare(tiling_instance("somacube.txt"), {"unique": "raw"})
    with pytest.raises(InputError, match="does not exist"):
        tree.solve([10**6], store=False)
    with pytest.raises(InputError, match="does not exist"):
        tree.solve([int(tree.search.image_ids[0])] * 3, store=False)


@pytest.mark.parametrize("stop", [None, 1, 2, 3])
def test_knuth_estimator_is_exactly_unbiased(stop):
    """Averaged over all random paths, the probe estimate equals the true number of nodes and
    counted solutions of the hybrid tree (DLX for one piece, then FILA; two identical L)."""
    from cpkit.models.tiling import Puzzle, piece_from_cells

    shapes = [[(0, 0, 0), (1, 0, 0), (2, 0, 0), (0, 1, 0)],
              [(0, 0, 0), (1, 0, 0), (2, 0, 0), (0, 1, 0)],
              [(0, 0, 0), (1, 0, 0), (0, 1, 0), (1, 1, 0)],
              [(0, 0, 0), (1, 0, 0), (2, 0, 0), (3, 0, 0)]]
    pieces = [piece_from_cells(f"P{k}", cells) for k, cells in enumerate(shapes)]
    puzzle = Puzzle(pieces, box=(4, 4, 1), name="L, L, O and I")
    options = {"unique": "raw", "fila_at": 3}
    sequential = solve(puzzle, engine="hybrid", count_only=True, **options)
    tree = split_hybrid.prepare(puzzle, options, "hybrid")
    nodes, sols = exact_expectation(tree, [], stop)
    assert sequential.count > 0
    assert nodes == pytest.approx(sequential.stats.nodes, rel=1e-9)
    assert sols == pytest.approx(sequential.count, rel=1e-9)
