"""The ColorPair CP engine: the paper's published counts, the oracle, rule ablations, resuming."""

from __future__ import annotations

from pathlib import Path

import pytest

from cpkit.io.edge_matching import read_edge_matching
from cpkit.models.edge_matching import Hint
from cpkit.models.em_generator import generate
from cpkit.propagators import colorpair_layout as lay
from cpkit.result import verify_board
from cpkit.engines.edge_matching.cp import em_cp_search as em_cp
from cpkit.engines.dispatch import solve
from cpkit.engines.edge_matching.cp import em_cp_kernel as K
from tests.oracles import count_boards

BENOIST = Path(__file__).resolve().parents[3] / "shared" / "em-benchmarks" / "benoist"
needs_benoist = pytest.mark.skipif(not BENOIST.is_dir(),
                                   reason="the paper's instances are missing (CPKIT_EM_BENCHMARKS)")

#: em-benchmarks/README.md: brute-force nodes of E_7_1 (row scan, the hinted corner fixed).
E_7_1_BRUTE_FORCE_NODES = 159_156_828


@needs_benoist
def test_e_7_1_published_count():
    puzzle = read_edge_matching(BENOIST / "E_7_1.b6i6.nohint")
    result = solve(puzzle, engine="cp")
    assert result.complete and result.count == 1 and result.unique == "hints"
    assert verify_board(puzzle, result.solutions[0]) == []
    # Propagation pays: far fewer branching placements than the brute force makes.
    assert 10 * result.stats.nodes < E_7_1_BRUTE_FORCE_NODES
    assert result.stats.extra["propagated"] > 0


@pytest.mark.slow
@needs_benoist
@pytest.mark.parametrize("name, solutions", [
    ("E_7_2.b6i6.nohint", 8), ("E_7_3.b6i6.nohint", 12), ("E_7_4.b6i6.nohint", 224),
])
def test_published_counts(name, solutions):
    puzzle = read_edge_matching(BENOIST / name)
    result = solve(puzzle, engine="cp")
    assert result.complete and result.count == solutions
    assert all(verify_board(puzzle, s) == [] for s in result.solutions)
    assert len(set(result.solutions)) == solutions


@pytest.mark.kernel
@pytest.mark.parametrize("options", [
    dict(heuristic="min-offer"), dict(heuristic="min-expected-offer"),
    dict(heuristic="min-expected-ratio"), dict(heuristic="scan"), dict(preemption=False),
    dict(instantiation=False),
    dict(contradiction=False), dict(opposite=False),
    dict(preemption=False, instantiation=False, contradiction=False, opposite=False),
])
def test_rules_and_heuristics_never_change_counts(options):
    for seed, (n, border, inner) in enumerate([(4, 2, 3), (5, 3, 4), (4, 1, 4), (5, 4, 3)]):
        puzzle = generate(n, border_colours=border, inner_colours=inner, seed=20 + seed)
        base = solve(puzzle, engine="backtrack", count_only=True)
        result = solve(puzzle, engine="cp", **options)
        assert result.count == base.count
        assert all(verify_board(puzzle, s) == [] for s in result.solutions)


@pytest.mark.kernel
def test_each_rule_cuts_nodes_on_e_7_like_boards():
    # Switching a rule off never adds solutions but lets the search wander further.
    puzzle = generate(5, border_colours=4, inner_colours=4, seed=3)
    full = solve(puzzle, engine="cp", count_only=True)
    for rule in ("instantiation", "contradiction"):
        weaker = solve(puzzle, engine="cp", count_only=True, **{rule: False})
        assert weaker.count == full.count and weaker.stats.nodes > full.stats.nodes, rule


@pytest.mark.kernel
def test_in_scan_order_cp_makes_fewer_nodes_than_the_brute_force():
    # Same cell order: every CP branch is a brute-force node (its earlier cells all placed and
    # matching), and propagation only removes branches, so only propagation differs.
    for n, border, inner, seed in [(5, 3, 4, 50), (5, 3, 3, 51), (6, 5, 6, 53), (5, 2, 4, 54)]:
        puzzle = generate(n, border_colours=border, inner_colours=inner, seed=seed)
        brute = solve(puzzle, engine="backtrack", count_only=True)
        scan = solve(puzzle, engine="cp", count_only=True, heuristic="scan")
        assert scan.count == brute.count
        assert scan.stats.nodes < brute.stats.nodes, (seed, scan.stats.nodes, brute.stats.nodes)


def test_the_expected_candidates_of_an_inner_cell_follow_the_colours():
    # Four inner tiles of one colour: every rotation of each fits any two known sides.
    plain = generate(4, border_colours=1, inner_colours=1, seed=0)
    assert em_cp.inner_candidates(plain) == pytest.approx(16.0)
    # More inner colours, fewer candidates; a board without inner tiles expects none.
    assert em_cp.inner_candidates(generate(8, border_colours=4, inner_colours=12, seed=1)) < \
        em_cp.inner_candidates(generate(8, border_colours=4, inner_colours=6, seed=1))
    assert em_cp.inner_candidates(generate(2, border_colours=1, inner_colours=1, seed=0)) == 0


@pytest.mark.kernel
@pytest.mark.parametrize("n, border, inner, seed, order", [
    (6, 4, 7, 101, "scan"), (7, 4, 8, 101, "scan"),                  # tight interiors
    (6, 6, 6, 101, "min-expected-gap"), (6, 4, 5, 3, "min-expected-gap"),
])
def test_the_default_order_is_the_scan_or_the_papers_by_board(n, border, inner, seed, order):
    """``heuristic="auto"`` searches exactly as the order it picks (the other boards keep the
    paper's order, node for node), and counts as the brute force."""
    puzzle = generate(n, border_colours=border, inner_colours=inner, seed=seed)
    assert em_cp.order_for(puzzle) == order
    default = solve(puzzle, engine="cp", count_only=True)
    named = solve(puzzle, engine="cp", count_only=True, heuristic=order)
    assert default.stats.extra["order"] == order and "order" not in named.stats.extra
    assert (default.count, default.stats.nodes) == (named.count, named.stats.nodes)
    assert default.count == solve(puzzle, engine="backtrack", count_only=True).count


@pytest.mark.kernel
def test_hints_are_respected():
    puzzle = generate(4, border_colours=2, inner_colours=3, seed=8)
    fixed = puzzle.with_hints(puzzle.symmetry_roots("rotation")[0])
    first = solve(fixed, engine="backtrack", limit=1).solutions[0]
    tile, rot = first.at(2, 1)
    hinted = fixed.with_hints(fixed.hints + (Hint(2, 1, tile, rot),))
    result = solve(hinted, engine="cp")
    assert result.count == count_boards(hinted) >= 1
    assert all(s.at(2, 1)[0] == tile and verify_board(hinted, s) == [] for s in result.solutions)


@pytest.mark.kernel
def test_slices_of_one_node_give_the_same_search():
    puzzle = generate(5, border_colours=3, inner_colours=3, seed=4)
    puzzle = puzzle.with_hints(puzzle.symmetry_roots("rotation")[0])
    whole = em_cp.CpSearch(puzzle, store=False)
    whole.step(1 << 40, 1 << 40)
    sliced = em_cp.CpSearch(puzzle, store=False)
    steps = 0
    while not sliced.step(1 << 40, 1)[0]:
        steps += 1
    assert (sliced.solutions, sliced.nodes, sliced.statistics()) == \
        (whole.solutions, whole.nodes, whole.statistics())
    # The budget is checked on entering a node: a slice tries children until one survives
    # propagation (and one more after a solution).
    kept = whole.nodes - whole.statistics()["failed_nodes"]
    assert whole.solutions > 0 and steps >= kept - whole.solutions


@pytest.mark.kernel
def test_limit_and_first_stop_early_with_valid_solutions():
    puzzle = generate(4, border_colours=1, inner_colours=3, seed=2)
    total = solve(puzzle, engine="cp", count_only=True).count
    assert total > 3
    limited = solve(puzzle, engine="cp", limit=3)
    assert (limited.count, limited.complete, limited.stop_reason) == (3, False, "limit")
    first = solve(puzzle, engine="cp", first=True)
    assert first.count == 1 and verify_board(puzzle, first.solutions[0]) == []


@pytest.mark.kernel
def test_a_failure_records_where_it_was_found():
    # Where explanations start: after a refuted placement the propagator names the pair short
    # of tiles, the cell no tile fits, or the colour a remaining-tile rule found short.
    puzzle = generate(5, border_colours=3, inner_colours=3, seed=4)
    search = em_cp.CpSearch(puzzle.with_hints(puzzle.symmetry_roots("rotation")[0]), store=False)
    search.step(1 << 40, 1 << 40)
    assert search.statistics()["failed_nodes"] > 0
    assert int(search.g[lay.G_FAIL_KIND]) in (lay.F_PAIR, lay.F_CELL, lay.F_COLOUR, lay.F_CYCLE)
    assert int(search.g[K.G_LEVEL]) == 0 and search.finished


def test_unknown_heuristic_is_an_input_error():
    from cpkit.errors import InputError

    with pytest.raises(InputError, match="unknown heuristic"):
        solve(generate(3, border_colours=1, inner_colours=1, seed=0), engine="cp",
              heuristic="fastest")


def test_helpers_compile_with_the_kernel():
    """A helper restored from numba's cache is linked as machine code and cannot be inlined into
    a kernel compiled later (docs/architecture.md): the CP search ran 1.5x slower so.  Only the
    kernel, what Python calls, and numba-inlined helpers may be cached."""
    from numba.core.caching import NullCache
    from numba.core.registry import CPUDispatcher

    from cpkit.propagators import colorpair, colorpair_build, colorpair_remaining
    from cpkit.propagators import explain as ex

    cached_ok = {"search", "init_state", "explored"}
    for module in (colorpair, colorpair_build, lay, colorpair_remaining, ex, K):
        for name, f in vars(module).items():
            if not isinstance(f, CPUDispatcher) or f.__module__ != module.__name__:
                continue
            if f.targetoptions.get("inline", "never") == "always" or name in cached_ok:
                continue
            assert isinstance(f._cache, NullCache), f"{module.__name__}.{name} is cached"
    assert not isinstance(K.search._cache, NullCache)
