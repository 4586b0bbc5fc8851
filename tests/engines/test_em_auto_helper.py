"""``--engine auto`` with a second core: the brute force goes on in a helper thread after its
glimpse, its kernel (and those of the engines raced beside it) releasing the GIL.  Whichever
thread ends the run, the count is the brute force's, every solution is handed out once, a
fault in the helper is raised (never a count from a search whose state is unknown), and a run
stopped by its time limit reports what it found and leaves no thread behind."""

from __future__ import annotations

import math
import os
import threading
import time

import pytest

from cpkit.engines.dispatch import solve
from cpkit.engines.edge_matching.auto import em_auto_helper, em_auto_search as em_auto
from cpkit.engines.edge_matching.backtrack import em_backtrack_kernel
from cpkit.engines.edge_matching.cp import em_cp_kernel
from cpkit.engines.edge_matching.edges import em_edges_kernel
from cpkit.models.em_generator import generate
from cpkit.parallel.runner import run
from cpkit.result import verify_board

pytestmark = [pytest.mark.kernel,
              pytest.mark.skipif((os.cpu_count() or 1) < 2, reason="the helper needs two cores")]

HELPER = "backtrack (on a core of its own)"


@pytest.fixture
def short_opening(monkeypatch):
    """No solo for the brute force on one core: the rounds start after the glimpses."""
    monkeypatch.setattr(em_auto, "SOLO_SECONDS", (0.0, 0.0))


def brute_force_board():
    """8 x 8, 5 frame and 10 inner colours: the brute force counts its 4 solutions in about
    0.4 s, the other engines take over 2 s."""
    return generate(8, border_colours=5, inner_colours=10, seed=1)


def test_the_brute_force_in_the_helper_ends_the_count():
    puzzle = brute_force_board()
    brute = solve(puzzle, engine="backtrack", count_only=True)
    helped = em_auto.solve_on(puzzle, cores=2, count_only=True)
    assert helped.complete and helped.count == brute.count
    assert helped.engine == "backtrack" and helped.stats.nodes == brute.stats.nodes
    assert HELPER in helped.stats.extra["engine_reason"]
    assert HELPER in helped.stats.extra["engine_race"]["engines"]


def test_one_core_races_in_one_thread(short_opening, monkeypatch):
    started = []
    monkeypatch.setattr(em_auto_helper, "Helper",
                        lambda *a, **k: started.append(a) or pytest.fail("a helper started"))
    one = em_auto.solve_on(brute_force_board(), cores=1, count_only=True)
    assert one.complete and not started
    assert HELPER not in one.stats.extra["engine_reason"]


def test_the_helpers_solutions_are_handed_out_once_each():
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


def test_the_first_solution_by_default_uses_the_helper():
    """``cpkit match --first`` (no ``--workers``) runs in one process and every core."""
    puzzle = brute_force_board()
    first = run(puzzle, engine="auto", workers=None, first=True, count_only=True)
    assert first.count == 1 and first.stop_reason == "limit"
    assert HELPER in first.stats.extra["engine_reason"]


def test_the_helper_backs_the_runner_up_and_the_count_stays_exact(monkeypatch):
    """Handed from one engine to another once the race has picked one (every time, here), the
    helper's searches and the race's go on where they stood: the count is exact and every
    solution is handed out once.  The helper's engine is always estimated endless, so that the
    race never picks it, however fast the machine runs each engine."""
    monkeypatch.setattr(em_auto_helper, "GIVE_UP_COUNTING", 0.0)
    monkeypatch.setattr(em_auto_helper.RemoteEntrant, "estimate",
                        lambda self: 0.0 if self.finished else math.inf)
    puzzle = generate(8, border_colours=8, inner_colours=8, seed=1)    # edges 0.8 s
    brute = solve(puzzle, engine="backtrack")
    streamed = []
    helped = em_auto.solve_on(puzzle, cores=2, on_solution=streamed.append)
    assert "went on in its place" in helped.stats.extra["engine_reason"]
    assert helped.complete and helped.count == brute.count == len(streamed)
    assert set(streamed) == set(brute.solutions)


def test_a_fault_in_the_helper_is_raised(monkeypatch):
    """A search that raised in the helper leaves its state unknown: the run raises too."""
    def fails(*args, **kwargs):
        raise ZeroDivisionError("a fault in the kernel's driver")
    monkeypatch.setattr(em_auto_helper, "drive", fails)
    with pytest.raises(em_auto_helper.HelperFailed) as raised:
        em_auto.solve_on(brute_force_board(), cores=2, count_only=True)
    assert isinstance(raised.value.__cause__, ZeroDivisionError)


def test_a_run_stopped_while_the_helper_leads_reports_what_it_found():
    hard = generate(9, border_colours=6, inner_colours=11, seed=1)
    stopped = em_auto.solve_on(hard, cores=2, count_only=True, time_limit=0.6)
    assert not stopped.complete and stopped.stop_reason == "time_limit"
    assert stopped.seconds < 2.0 and stopped.stats.nodes > 0
    assert [t for t in threading.enumerate() if t.name == "cpkit-auto-helper"] == []


def test_the_helper_hands_over_every_solution_of_its_search():
    """The helper's figures, solutions and result once its thread has ended, read in any
    order, are the brute force's (it collects its solutions before it publishes its result)."""
    puzzle = generate(6, border_colours=4, inner_colours=5, seed=1)
    roots = puzzle.symmetry_roots("rotation")
    local = em_auto._entrants(puzzle, roots, store=True)[0][0]
    assert local.engine == em_auto_helper.ENGINE
    thread = em_auto_helper.HelperThread()
    helper = em_auto_helper.Helper(local, None, thread)
    ends = time.monotonic() + 60
    while helper.running and time.monotonic() < ends:
        time.sleep(0.01)
    thread.close()
    brute = solve(puzzle, engine="backtrack")
    result = helper.result()
    assert helper.error is None and result is not None and result.complete
    assert result.count == brute.count and helper.figures["nodes"] == brute.stats.nodes
    assert set(helper.take()) == set(brute.solutions) and helper.take() == []


def test_the_engines_kernels_release_the_gil():
    """The helper's brute force and the race beside it search at once only if every engine's
    kernel lets go of the GIL while it runs."""
    for kernel in (em_backtrack_kernel, em_cp_kernel, em_edges_kernel):
        assert kernel.search.targetoptions.get("nogil") is True, kernel.__name__
