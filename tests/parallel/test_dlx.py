"""The DLX subproblem protocol: split runs add up to the sequential run exactly, paths replay
the same nodes (repeated pieces included), and probes are Knuth's unbiased estimator."""

from __future__ import annotations

import pytest
from hypothesis import given, settings

from cpkit.errors import InputError
from cpkit.models.exact_cover import ExactCover
from cpkit.engines.exact_cover.dlx import dlx_split as split_dlx
from cpkit.parallel.protocol import Part
from cpkit.engines.exact_cover.dlx import dlx_search as dlx
from cpkit.engines.dispatch import solve
from tests.strategies import exact_covers, puzzles

pytestmark = pytest.mark.kernel


def split_total(tree, depth: int, store: bool = False):
    """Frontier at ``depth`` plus every subproblem, merged; and the solutions in order."""
    frontier = tree.frontier(depth, store)
    total = Part()
    total.add(frontier.above)
    parts = [tree.solve(p, store=store) for p in frontier.paths]
    for part in parts:
        total.add(part)
    ordered = []
    shallow = {}
    for pos, sol in frontier.shallow:
        shallow.setdefault(pos, []).append(sol)
    for k in range(len(parts) + 1):
        ordered += shallow.get(k, [])
        if k < len(parts):
            ordered += parts[k].solutions
    return frontier, total, ordered


def assert_a_capped_frontier_is_its_prefix(tree, depth: int) -> None:
    """A frontier search given ``max_paths`` stops at the first open node past it, having met
    the whole frontier's first ones in the same order and searched less; a bound the frontier
    stays within changes nothing."""
    whole = tree.frontier(depth, False)
    cap = len(whole.paths) // 2
    assert cap >= 1
    cut = tree.frontier(depth, False, max_paths=cap)
    assert not cut.above.complete and cut.paths == whole.paths[:cap + 1]
    assert cut.above.nodes < whole.above.nodes
    same = tree.frontier(depth, False, max_paths=len(whole.paths))
    assert same.above.complete and same.paths == whole.paths
    assert same.above.nodes == whole.above.nodes


def assert_same_as_sequential(tree, sequential, depth: int) -> None:
    frontier, total, _ = split_total(tree, depth)
    merged = tree.result(total, complete=True, stop_reason="complete", seconds=0.0,
                         jit_seconds=0.0, solutions=[])
    assert merged.count == sequential.count
    assert merged.stats.nodes == sequential.stats.nodes
    assert merged.stats.fits_by_remaining == sequential.stats.fits_by_remaining
    for key in ("parity_backtracks", "volume_backtracks", "filtered_in_search", "found"):
        assert merged.stats.extra.get(key) == sequential.stats.extra.get(key), key


@pytest.mark.parametrize("unique", ["raw", "rotation", "mirror"])
@pytest.mark.parametrize("depth", [1, 2, 3])
def test_soma_split_equals_sequential(tiling_instance, unique, depth):
    puzzle = tiling_instance("somacube.txt")
    sequential = solve(puzzle, engine="dlx", unique=unique, count_only=True)
    tree = split_dlx.prepare(puzzle, {"unique": unique})
    assert_same_as_sequential(tree, sequential, depth)


def test_a_frontier_search_stops_past_its_bound(tiling_instance):
    assert_a_capped_frontier_is_its_prefix(split_dlx.prepare(tiling_instance("somacube.txt"),
                                                              {"unique": "raw"}), 3)


def test_split_with_triggers_and_reapplied_filters(tiling_instance):
    """In-search work at the split depth (triggers, dynamic filters) is counted once."""
    puzzle = tiling_instance("pentominoes_20x3.txt")
    options = dict(unique="rotation", volume_filter=4, parity_filter=3, parity_trigger=2,
                   volume_trigger=2)
    sequential = solve(puzzle, engine="dlx", count_only=True, **options)
    assert sequential.stats.extra["filtered_in_search"] > 0
    tree = split_dlx.prepare(puzzle, options)
    for depth in (1, 2, 4):
        assert_same_as_sequential(tree, sequential, depth)


@settings(max_examples=40)
@given(puzzles())
def test_random_puzzles_split_replays_the_sequential_search(puzzle):
    """Random puzzles, often with repeated pieces: solutions come out in the sequential order,
    so each replayed path reached the very node (with its tweaked options) it was split at."""
    sequential = solve(puzzle, engine="dlx", unique="raw")
    tree = split_dlx.prepare(puzzle, {"unique": "raw"})
    for depth in (1, 2):
        _, total, ordered = split_total(tree, depth, store=True)
        assert total.count == sequential.count
        assert [tree.decode(s) for s in ordered] == sequential.solutions


@settings(max_examples=150)
@given(exact_covers())
def test_covers_with_multiplicities_split_exactly(case):
    n_primary, n_items, rows, need = case
    names = [f"i{k}" for k in range(n_items)]
    cover = ExactCover.from_rows(names[:n_primary], names[n_primary:], rows, need=need)
    sequential = dlx.solve_cover(cover)
    tree = split_dlx.prepare(cover, {})
    for depth in (1, 2, 3):
        frontier, total, ordered = split_total(tree, depth, store=True)
        assert total.count == sequential.count
        assert total.fits == sequential.stats.fits_by_remaining
        assert [sorted(s) for s in ordered] == sequential.solutions


def test_a_path_from_another_model_is_refused(tiling_instance):
    tree = split_dlx.prepare(tiling_instance("somacube.txt"), {"unique": "raw"})
    with pytest.raises(InputError, match="does not exist"):
        tree.solve([10**6], store=False)


def exact_expectation(tree, prefix: list[float], stop: int | None = None) -> tuple[float, float]:
    """E[Knuth estimate] over every random path, computed exactly by enumerating the branches
    (rand = (b + 0.5) / degree picks branch b); probes end at depth ``stop`` if given."""
    depth = len(prefix)
    rand = prefix + [0.0] * (tree.max_depth + 1 - depth)
    probe = tree.probe([], rand, stop)
    if len(probe.degrees) <= depth:         # the path ends here (a leaf, or the stop depth)
        return probe.estimate()
    deg = probe.degrees[depth]
    nodes = sols = 0.0
    for b in range(deg):
        n, s = exact_expectation(tree, prefix + [(b + 0.5) / deg], stop)
        nodes += n / deg
        sols += s / deg
    return nodes, sols


@pytest.mark.parametrize("stop", [None, 1, 2])
def test_knuth_estimator_is_exactly_unbiased(stop):
    """Averaged over all random paths with their probabilities, the probe estimate equals the
    true number of nodes and of counted solutions, with or without the seed's variant (probes
    that stop at a depth and search the rest).  Four copies of one piece: branched on as
    Algorithm M does, with tweaked options."""
    from cpkit.models.tiling import Puzzle, piece_from_cells

    L = [(0, 0, 0), (1, 0, 0), (2, 0, 0), (0, 1, 0)]
    pieces = [piece_from_cells(f"L{k}", L) for k in range(4)]
    puzzle = Puzzle(pieces, box=(4, 4, 1), name="four L")
    sequential = solve(puzzle, engine="dlx", unique="raw", count_only=True)
    tree = split_dlx.prepare(puzzle, {"unique": "raw"})
    nodes, sols = exact_expectation(tree, [], stop)
    assert sequential.count > 0
    assert nodes == pytest.approx(sequential.stats.nodes, rel=1e-9)
    assert sols == pytest.approx(sequential.count, rel=1e-9)
