"""The CP engine's components (backjumping, shaving, remaining-tile rules, ColorPair rules,
heuristics) never change a count: every combination against the brute force (and CP-SAT on
some), on random small instances with many solutions and many failures; the components do
their work (jumps, removals); sliced runs are the same search."""

from __future__ import annotations

import itertools
import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cpkit.models.em_generator import generate
from cpkit.result import verify_board
from cpkit.engines.edge_matching.cp import em_cp_search as em_cp
from cpkit.engines.dispatch import solve

pytestmark = pytest.mark.kernel

HEURISTICS = ("min-offer", "min-expected-offer", "min-expected-gap", "min-expected-ratio",
              "scan")
SWITCHES = ("backjump", "shared_edge", "cycles", "preemption", "opposite")
SHAVES = (0, 2, "all")
ALL_ON = dict(backjump=True, shave=0, shared_edge=True, cycles=True, preemption=True,
              opposite=True, heuristic="min-expected-gap")


def full_matrix():
    for values in itertools.product((True, False), repeat=len(SWITCHES)):
        for shave in SHAVES:
            for heuristic in HEURISTICS:
                yield dict(zip(SWITCHES, values), shave=shave, heuristic=heuristic)


def small_matrix():
    """All on, all off, each switch off alone, each shaving limit, each heuristic, and a few
    mixed combinations."""
    yield dict(ALL_ON)
    yield dict({k: False for k in SWITCHES}, shave=0, heuristic="min-offer")
    for k in SWITCHES:
        yield dict(ALL_ON, **{k: False})
    for shave in (1, 2, 3, "all"):
        yield dict(ALL_ON, shave=shave)
        yield dict(ALL_ON, shave=shave, backjump=False)
    for heuristic in HEURISTICS:
        yield dict(ALL_ON, heuristic=heuristic, shave=2)
    yield dict(ALL_ON, shave=2, preemption=False, opposite=False)
    yield dict(ALL_ON, shave="all", shared_edge=False, heuristic="min-expected-ratio")


def count(puzzle, **options):
    return solve(puzzle, engine="cp", unique="raw", count_only=True, **options).count


SMALL = [(4, 4, 2, 3, 0), (4, 4, 2, 4, 1), (5, 4, 2, 4, 0), (4, 3, 1, 2, 3), (5, 5, 3, 6, 1),
         (3, 3, 1, 1, 4)]


@pytest.mark.parametrize("w, h, b, i, seed", SMALL)
def test_every_component_keeps_the_count(w, h, b, i, seed):
    puzzle = generate(w, h, border_colours=b, inner_colours=i, seed=seed)
    expected = solve(puzzle, engine="backtrack", unique="raw", count_only=True).count
    assert expected > 0
    for options in small_matrix():
        assert count(puzzle, **options) == expected, options


def random_case(seed):
    rng = random.Random(seed)
    w, h = rng.choice([(3, 3), (4, 3), (4, 4), (5, 4)])
    big = w * h >= 16       # (few colours on larger boards: hundreds of thousands of solutions)
    puzzle = generate(w, h, border_colours=rng.randint(1 + big, 3),
                      inner_colours=rng.randint(2 + big, 4), seed=seed)
    expected = solve(puzzle, engine="backtrack", unique="raw", count_only=True).count
    options = dict(zip(SWITCHES, (rng.random() < 0.5 for _ in SWITCHES)),
                   shave=rng.choice([0, 1, 2, 3, 5, "all"]), heuristic=rng.choice(HEURISTICS))
    assert count(puzzle, **options) == expected, options
    assert count(puzzle, **dict(ALL_ON, shave="all")) == expected


@settings(max_examples=15)
@given(seed=st.integers(0, 10 ** 6))
def test_random_instances_and_switches(seed):
    random_case(seed)


@pytest.mark.slow
@settings(max_examples=150)
@given(seed=st.integers(0, 10 ** 6))
def test_many_random_instances_and_switches(seed):
    random_case(seed)


@pytest.mark.slow
@pytest.mark.parametrize("w, h, b, i, seed", SMALL + [(5, 5, 2, 5, 1), (6, 5, 3, 6, 0)])
def test_full_matrix_keeps_the_count(w, h, b, i, seed):
    puzzle = generate(w, h, border_colours=b, inner_colours=i, seed=seed)
    expected = solve(puzzle, engine="backtrack", unique="raw", count_only=True).count
    assert solve(puzzle, engine="cpsat", unique="raw", count_only=True).count == expected
    for options in full_matrix():
        assert count(puzzle, **options) == expected, options


def test_solutions_are_valid_and_distinct_with_everything_on():
    puzzle = generate(5, 4, border_colours=2, inner_colours=4, seed=1)
    result = solve(puzzle, engine="cp", unique="raw", shave="all")
    assert result.count == solve(puzzle, engine="backtrack", unique="raw", count_only=True).count
    assert all(verify_board(puzzle, s) == [] for s in result.solutions)
    assert len(set(result.solutions)) == result.count


def test_backjumping_jumps_and_saves_nodes():
    puzzle = generate(6, 5, border_colours=3, inner_colours=6, seed=0)
    on = solve(puzzle, engine="cp", count_only=True, backjump=True)
    off = solve(puzzle, engine="cp", count_only=True, backjump=False)
    assert on.count == off.count
    assert on.stats.extra["backjumps"] > 0 and on.stats.extra["levels_skipped"] > 0
    assert off.stats.extra["backjumps"] == 0
    assert on.stats.nodes < off.stats.nodes


def test_shaving_removes_values_and_saves_nodes():
    puzzle = generate(6, 5, border_colours=3, inner_colours=6, seed=0)
    plain = solve(puzzle, engine="cp", count_only=True, shave=0)
    shaved = solve(puzzle, engine="cp", count_only=True, shave=3)
    assert plain.count == shaved.count
    assert shaved.stats.extra["shave_removed"] > 0 and shaved.stats.extra["shave_placed"] > 0
    assert shaved.stats.nodes < plain.stats.nodes


@pytest.mark.parametrize("options", [dict(ALL_ON), dict(ALL_ON, shave=2),
                                     dict(ALL_ON, shave="all", backjump=False)])
def test_slices_of_one_node_give_the_same_search(options):
    puzzle = generate(5, 4, border_colours=2, inner_colours=4, seed=1)
    whole = em_cp.CpSearch(puzzle, store=False, **options)
    whole.step(1 << 40, 1 << 40)
    sliced = em_cp.CpSearch(puzzle, store=False, **options)
    while not sliced.step(1 << 40, 1)[0]:
        pass
    assert (sliced.solutions, sliced.nodes) == (whole.solutions, whole.nodes)
    assert sliced.statistics() == whole.statistics()


def test_bad_shaving_limits_are_refused():
    from cpkit.errors import InputError

    puzzle = generate(3, border_colours=1, inner_colours=2, seed=0)
    for bad in (-1, "some", None):
        with pytest.raises(InputError):
            solve(puzzle, engine="cp", shave=bad)


BENOIST = Path(__file__).resolve().parents[3] / "shared" / "em-benchmarks" / "benoist"


@pytest.mark.slow
@pytest.mark.skipif(not BENOIST.is_dir(),
                    reason="the paper's instances are missing (CPKIT_EM_BENCHMARKS)")
@pytest.mark.parametrize("options", [dict(), dict(backjump=False), dict(shave=3),
                                     dict(shave="all", heuristic="min-offer")])
def test_e_7_1_published_count_with_components(options):
    from cpkit.io.edge_matching import read_edge_matching

    puzzle = read_edge_matching(BENOIST / "E_7_1.b6i6.nohint")
    assert solve(puzzle, engine="cp", count_only=True, **options).count == 1
