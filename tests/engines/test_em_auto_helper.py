"""``--engine auto`` with a second core: the brute force goes on in a helper process after the
race's opening.  Whichever process ends the run, the count is the brute force's, every solution
is handed out once, a helper that dies leaves the race to go on without it, and a run stopped
by its time limit reports what it found."""

from __future__ import annotations

import os

import pytest

from cpkit.engines.dispatch import solve
from cpkit.engines.edge_matching.auto import em_auto_helper, em_auto_search as em_auto
from cpkit.models.em_generator import generate
from cpkit.parallel.runner import run
from cpkit.result import verify_board

pytestmark = [pytest.mark.kernel,
              pytest.mark.skipif((os.cpu_count() or 1) < 2, reason="the helper needs two cores")]


@pytest.fixture
def short_opening(monkeypatch):
    """No solo for the brute force: the helper starts after the glimpses."""
    monkeypatch.setattr(em_auto, "SOLO_SECONDS", (0.0, 0.0))


def brute_force_board():
    """8 x 8, 5 frame and 10 inner colours: the brute force counts its 4 solutions in about
    0.4 s, the other engines take over 2 s."""
    return generate(8, border_colours=5, inner_colours=10, seed=1)


def test_the_brute_force_in_the_helper_ends_the_count(short_opening):
    puzzle = brute_force_board()
    brute = solve(puzzle, engine="backtrack", count_only=True)
    helped = em_auto.solve_on(puzzle, cores=2, count_only=True)
    assert helped.complete and helped.count == brute.count
    assert helped.engine == "backtrack" and helped.stats.nodes == brute.stats.nodes
    assert "backtrack (in a process of its own)" in helped.stats.extra["engine_reason"]
    assert "backtrack (in a process of its own)" in helped.stats.extra["engine_race"]["engines"]


def test_one_core_races_in_one_process(short_opening, monkeypatch):
    started = []
    monkeypatch.setattr(em_auto_helper, "Helper",
                        lambda *a, **k: started.append(a) or pytest.fail("a helper started"))
    one = em_auto.solve_on(brute_force_board(), cores=1, count_only=True)
    assert one.complete and not started
    assert "process of its own" not in one.stats.extra["engine_reason"]


def test_the_helpers_solutions_are_handed_out_once_each(short_opening):
    puzzle = brute_force_board()
    everything = solve(puzzle, engine="backtrack")
    streamed = []
    helped = em_auto.solve_on(puzzle, cores=2, on_solution=streamed.append)
    assert helped.count == everything.count == len(streamed) == len(set(streamed))
    assert set(streamed) == set(everything.solutions)
    assert all(verify_board(puzzle, s) == [] for s in streamed)
    kept = em_auto.solve_on(puzzle, cores=2)            # the solutions in the result
    assert sorted(kept.solutions, key=lambda s: s.tiles) == \
        sorted(everything.solutions, key=lambda s: s.tiles)


def test_the_first_solution_by_default_uses_the_helper(short_opening):
    """``cpkit match --first`` (no ``--workers``) runs in one process and every core."""
    puzzle = brute_force_board()
    first = run(puzzle, engine="auto", workers=None, first=True, count_only=True)
    assert first.count == 1 and first.stop_reason == "limit"
    assert "process of its own" in first.stats.extra["engine_reason"]


def _dies(*args, **kwargs):
    os._exit(3)


def test_a_helper_that_dies_leaves_the_race_to_go_on(short_opening, monkeypatch):
    monkeypatch.setattr(em_auto_helper, "_main", _dies)
    puzzle = brute_force_board()
    brute = solve(puzzle, engine="backtrack")
    streamed = []
    helped = em_auto.solve_on(puzzle, cores=2, on_solution=streamed.append)
    assert helped.complete and helped.count == brute.count == len(set(streamed))
    assert "process of its own" not in helped.stats.extra["engine_reason"]


def test_a_run_stopped_while_the_helper_leads_reports_what_it_found(short_opening):
    hard = generate(9, border_colours=6, inner_colours=11, seed=1)
    stopped = em_auto.solve_on(hard, cores=2, count_only=True, time_limit=0.6)
    assert not stopped.complete and stopped.stop_reason == "time_limit"
    assert stopped.seconds < 2.0 and stopped.stats.nodes > 0
    assert [p for p in em_auto_helper.mp.active_children() if p.name == "cpkit-auto-helper"] == []


def test_a_spawned_helper_starts_afresh_and_counts_the_same(short_opening, monkeypatch):
    """Where forking is not safe (another OS, threads) the helper is spawned: the race's brute
    force goes on until it is ready, then the helper's search, from the start, takes its place.
    """
    methods = []
    helper = em_auto_helper.Helper

    def spawned(start, limit, store, method):
        methods.append(method)
        return helper(start, limit, store, method)

    monkeypatch.setattr(em_auto_helper, "_start_method", lambda: "spawn")
    monkeypatch.setattr(em_auto_helper, "Helper", spawned)
    puzzle = generate(9, border_colours=8, inner_colours=11, seed=1)    # 1 s brute force
    brute = solve(puzzle, engine="backtrack")
    streamed = []
    helped = em_auto.solve_on(puzzle, cores=2, on_solution=streamed.append)
    assert methods == ["spawn"]
    assert helped.complete and helped.count == brute.count == len(set(streamed))
    assert set(streamed) == set(brute.solutions)


def test_a_helper_that_finished_has_not_failed():
    """Its last message, the result, is followed by the end of the pipe: read in one go, the
    result counts and the end is no failure (a failure would put the race's brute force back
    in the race, to search again what the helper had finished)."""
    puzzle = generate(6, border_colours=4, inner_colours=5, seed=1)
    helper = em_auto_helper.Helper((puzzle, puzzle.symmetry_roots("rotation")), None, False,
                                   em_auto_helper._start_method())
    helper.process.join(timeout=60)         # every message, then the pipe's end, are waiting
    helper.poll()
    helper.poll()
    helper.close()
    brute = solve(puzzle, engine="backtrack", count_only=True)
    assert not helper.failed and helper.result is not None and helper.result.complete
    assert helper.result.count == brute.count and helper.figures["nodes"] == brute.stats.nodes
