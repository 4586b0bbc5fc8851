"""Estimates of FILA searches by stratified sampling (``cpkit.engines.tiling.fila.fila_probe``)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cpkit.models.tiling import Puzzle
from cpkit.engines.tiling.fila import fila_probe_kernel as P
from cpkit.engines.tiling.fila import fila_search as fila, fila_probe
from cpkit.engines.tiling.tiling_heuristics import FILA_LETTERS, parse_schedule
from tests.strategies import puzzles

pytestmark = pytest.mark.kernel


def exact(puzzle: Puzzle, letters: str) -> dict[str, int]:
    """The figures of the search itself, with heuristic ``letters[l]`` at level ``l``."""
    spec = fila_probe_schedule(letters)
    plan = fila.FilaPlan.build(puzzle, parse_schedule(spec, FILA_LETTERS))
    problem = fila.compile_problem(puzzle, plan, np.ones(puzzle.n_cells, dtype=np.uint8),
                                   np.arange(len(puzzle.images)), fila.shape_counts(puzzle))
    search = fila.FilaSearch(problem.n_pieces, store=False)
    search.load(problem)
    while not search.step(1 << 40, 1 << 30)[0]:
        pass
    return {"attempts": int(search.attempts.sum()), "fits": int(search.fits.sum()),
            "checks": search.heuristic_checks, "solutions": search.solutions}


def fila_probe_schedule(letters: str) -> str:
    """The polycube schedule that uses ``letters[l]`` at level ``l``."""
    n = len(letters)
    parts, previous = [], None
    for level, letter in enumerate(letters):
        if letter != previous:
            parts.append(letter if not parts else f"{letter}={n - level}")
            previous = letter
    return ":".join(parts)


def estimate(puzzle: Puzzle, letters: str, population: int, seed: int = 0) -> np.ndarray:
    plan = fila_probe.sample_plan(puzzle, letters, True)
    problem = fila.compile_problem(puzzle, plan, np.ones(puzzle.n_cells, dtype=np.uint8),
                                   np.arange(len(puzzle.images)), fila.shape_counts(puzzle))
    return fila_probe.Sampler(population).figures(problem, plan, letters, seed)


@settings(max_examples=40, deadline=None)
@given(puzzles(max_cells=12), st.sampled_from("efs"), st.sampled_from("efs"),
       st.integers(0, 3))
def test_a_population_that_never_resamples_gives_the_exact_figures(puzzle, top, bottom, cut):
    """With room for every node of every level, the sample is the whole tree: the estimates
    equal the search's own attempts, fits, heuristic checks and solutions."""
    n = puzzle.n_pieces
    letters = top * max(n - cut, 0) + bottom * min(cut, n)
    figures = estimate(puzzle, letters, population=20_000)
    truth = exact(puzzle, letters)
    assert figures[P.W_ATTEMPTS] == truth["attempts"]
    assert figures[P.W_FITS] == truth["fits"]
    assert figures[P.W_CHECKS] == truth["checks"]
    assert figures[P.W_SOLUTIONS] == truth["solutions"]
    # Every node is entered once: the root, then one per fit that is not a solution.
    nodes = figures[P.W_F_NODES] + figures[P.W_E_NODES] + figures[P.W_S_NODES]
    assert nodes == 1 + truth["fits"] - truth["solutions"] or truth["solutions"] == 0


@pytest.mark.parametrize("name, letters", [
    ("somacube.txt", "eeeefff"), ("somacube.txt", "ssfffff"), ("pentominoes_2x3x10.txt", "f" * 12),
])
def test_the_estimates_are_unbiased(tiling_instance, name, letters):
    """Where the population must resample, estimates scatter around the truth: the mean of
    twenty seeds is within 10 % of the search's figures (fits, attempts, checks)."""
    puzzle = tiling_instance(name)
    truth = exact(puzzle, letters)
    runs = np.array([estimate(puzzle, letters, population=100, seed=s) for s in range(20)])
    mean = runs.mean(axis=0)
    assert abs(mean[P.W_FITS] / truth["fits"] - 1) < 0.1
    assert abs(mean[P.W_ATTEMPTS] / truth["attempts"] - 1) < 0.1
    if truth["checks"]:
        assert abs(mean[P.W_CHECKS] / truth["checks"] - 1) < 0.1


def test_a_sampler_estimates_each_problem_as_a_fresh_one_would(tiling_instance):
    """A sampler keeps what estimates of one schedule, problem or seed share; an estimate
    must not depend on what the same sampler estimated before."""
    jobs = []
    for name, letters in (("somacube.txt", "efs"), ("pentominoes_2x3x10.txt", "ef")):
        puzzle = tiling_instance(name)
        plan = fila_probe.sample_plan(puzzle, letters, True)
        problem = fila.compile_problem(puzzle, plan, np.ones(puzzle.n_cells, dtype=np.uint8),
                                       np.arange(len(puzzle.images)), fila.shape_counts(puzzle))
        n = problem.n_pieces
        jobs += [(problem, plan, schedule, seed) for schedule in ("f" * n, "e" * (n - 2) + "ff")
                 for seed in (0, 1)]
    shared = fila_probe.Sampler(30)
    for problem, plan, schedule, seed in jobs + jobs[::-1]:
        assert np.array_equal(shared.figures(problem, plan, schedule, seed),
                              fila_probe.Sampler(30).figures(problem, plan, schedule, seed))
