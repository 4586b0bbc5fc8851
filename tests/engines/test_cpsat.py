"""CP-SAT as an independent count of the same exact covers."""

from __future__ import annotations

import pytest
from hypothesis import given, settings

from cpkit.result import verify_tiling
from cpkit.engines.cpsat import cpsat_search as cpsat
from cpkit.engines.exact_cover.dlx import dlx_search as dlx
from tests.strategies import puzzles


@pytest.mark.parametrize("name, raw", [
    ("pentominoes_20x3.txt", 8),
    # Enumerating 11,520 raw solutions takes CP-SAT about 30 s; counts up to rotation run by
    # default in tests/engines/test_tiling_front.py.
    pytest.param("somacube.txt", 11520, marks=pytest.mark.slow),
])
def test_cpsat_agrees_with_published_counts(tiling_instance, name, raw):
    assert cpsat.solve_tiling(tiling_instance(name), count_only=True).count == raw


@pytest.mark.slow
def test_cpsat_counts_the_10x6(tiling_instance):
    assert cpsat.solve_tiling(tiling_instance("pentominoes_10x6.txt"), count_only=True).count == 9356


def test_cpsat_solutions_are_valid(tiling_instance):
    puzzle = tiling_instance("pentominoes_20x3.txt")
    result = cpsat.solve_tiling(puzzle)
    assert len(result.solutions) == 8
    assert all(verify_tiling(puzzle, t) == [] for t in result.solutions)
    assert {t.placements for t in result.solutions} == \
        {t.placements for t in dlx.solve_tiling(puzzle).solutions}


def test_cpsat_limit(tiling_instance):
    result = cpsat.solve_tiling(tiling_instance("somacube.txt"), limit=3)
    assert result.count == 3 and not result.complete


@pytest.mark.kernel
@settings(max_examples=220)
@given(puzzles())
def test_dlx_and_cpsat_agree_on_random_puzzles(puzzle):
    d = dlx.solve_tiling(puzzle)
    c = cpsat.solve_tiling(puzzle)
    assert d.count == c.count >= 1
    assert {t.placements for t in d.solutions} == {t.placements for t in c.solutions}
    assert all(verify_tiling(puzzle, t) == [] for t in d.solutions)


# ---------------------------------------------------------------------------- edge matching
def test_cpsat_edge_matching_limit_stops_with_valid_solutions():
    from cpkit.models.em_generator import generate
    from cpkit.result import verify_board
    from cpkit.engines.dispatch import solve

    puzzle = generate(4, border_colours=1, inner_colours=3, seed=2)
    result = solve(puzzle, engine="cpsat", limit=3)
    assert (result.count, result.complete, result.stop_reason) == (3, False, "limit")
    assert all(verify_board(puzzle, s) == [] for s in result.solutions)


def test_cpsat_refuses_an_edge_matching_model_too_large_for_it():
    # 32 x 32 distinct tiles: 3.2 million table rows, which CP-SAT took in 3 GB, running 13 s
    # for a 5 s limit; the model is refused before anything is built.
    from cpkit.errors import InputError
    from cpkit.models.em_generator import generate
    from cpkit.engines.dispatch import solve

    puzzle = generate(32, border_colours=5, inner_colours=10, seed=1)
    with pytest.raises(InputError, match=r"3,235,516 table rows \(at most 1,048,576"):
        solve(puzzle, engine="cpsat", first=True, time_limit=5)


# ---------------------------------------------------------------------------- stopping
@pytest.mark.parametrize("sig", ["SIGINT", "SIGTERM"])
def test_a_signal_stops_cpsat_at_once_and_reports_what_it_found(tiling_instance, sig):
    """cpkit, not CP-SAT, handles the signal: CP-SAT's own SIGINT handler left a SIGTERM
    waiting (in Python) until the whole enumeration was over.  The signal is sent from the first
    solution's callback, on CP-SAT's thread, so it comes while CP-SAT is searching."""
    import os
    import signal

    if sig == "SIGTERM":        # the CLI's setting: SIGTERM stops a run as Ctrl-C does
        previous = signal.signal(signal.SIGTERM, signal.default_int_handler)
    sent = []

    def on_images(images):
        if not sent:
            sent.append(True)
            os.kill(os.getpid(), getattr(signal, sig))

    try:
        result = cpsat.solve_tiling(tiling_instance("pentominoes_10x6.txt"), on_images=on_images)
    finally:
        if sig == "SIGTERM":
            signal.signal(signal.SIGTERM, previous)
    assert result.stop_reason == "interrupted" and not result.complete
    assert 1 <= result.count < 9356


def test_a_time_limit_ends_cpsat_as_a_time_limit(tiling_instance):
    result = cpsat.solve_tiling(tiling_instance("pentominoes_10x6.txt"), count_only=True,
                                time_limit=1.0)
    assert result.stop_reason == "time_limit" and not result.complete
    assert result.count < 9356


def test_a_stop_that_comes_before_cpsat_has_begun_still_ends_it():
    """CP-SAT drops a ``stop_search`` made before its ``solve`` has begun (ortools issue 3621);
    the waiting thread asks again until the search ends, so a Ctrl-C in that moment does not leave
    an enumeration running to its time limit (without the repeat this one ran its 10 s)."""
    import time

    from ortools.sat.python import cp_model

    model = cp_model.CpModel()
    cells = [model.new_int_var(0, 30, f"x{i}") for i in range(30)]
    model.add_all_different(cells)                  # far more solutions than 10 s enumerate

    class SlowToBegin(cp_model.CpSolver):
        def solve(self, model, solution_callback=None):
            time.sleep(0.3)                         # the stop comes in here
            return super().solve(model, solution_callback)

    class AlreadyInterrupted:
        raised = True

    solver = SlowToBegin()
    solver.parameters.enumerate_all_solutions = True
    solver.parameters.num_workers = 1
    solver.parameters.max_time_in_seconds = 10
    start = time.perf_counter()
    status = cpsat._solve_watched(solver, model, None, AlreadyInterrupted(), None)
    assert time.perf_counter() - start < 3
    assert status == cp_model.UNKNOWN
