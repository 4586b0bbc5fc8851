"""The em-speed suite names the fastest engine only among runs that finished, and sets each
engine's time against the CP engine's with the bounds a time limit allows."""

import pytest

from benchmarks.em_paper import BENOIST, ratio_bound
from benchmarks.em_speed import fastest, geometric_mean, speed_suite


def test_the_fastest_is_the_quickest_run_that_finished():
    assert fastest([("CP", 3.0, True), ("edges", 0.5, True), ("shave", 0.7, True)]) == "edges"
    # a run stopped by the limit reports less time than it would have taken
    assert fastest([("CP", 60.0, False), ("edges", 0.5, False), ("shave", 9.0, True)]) == "shave"
    assert fastest([("CP", 60.0, False), ("edges", 60.0, False)]) == ""


def test_time_ratios_are_bounds_when_a_run_hit_the_limit():
    assert ratio_bound(6.0, True, 2.0, True, factor=1, digits=2) == ("3.00", "yes")
    assert ratio_bound(0.9, True, 1.0, True, factor=1, digits=2) == ("0.90", "no")
    # CP stopped at 60 s, the other finished in 30: CP is at least twice as slow
    assert ratio_bound(60.0, False, 30.0, True, factor=1, digits=2) == (">= 2.00", "yes")
    # the other stopped at 60 s, CP finished in 30: it is at most half as fast, settled
    assert ratio_bound(30.0, True, 60.0, False, factor=1, digits=2) == ("<= 0.50", "no")
    assert ratio_bound(60.0, False, 60.0, False, factor=1) == ("", "open")


def test_geometric_mean():
    assert geometric_mean([2.0, 8.0]) == pytest.approx(4.0)
    assert geometric_mean([]) is None


@pytest.mark.skipif(not BENOIST.is_dir(),
                    reason="the paper's instances are missing (CPKIT_EM_BENCHMARKS)")
def test_the_quick_suite_times_every_engine_on_two_boards(monkeypatch):
    monkeypatch.setenv("CPKIT_BENCH_EM_SECONDS", "20")
    boards, summary = speed_suite(quick=True)
    assert [row[0] for row in boards.rows] == ["E_9_4", "E_10_7"]
    assert [row[3] for row in boards.rows] == ["1", "1"]    # every engine finished and agreed
    assert [row[2] for row in summary.rows] == [2, 2, 2]
    assert sum(row[3] for row in summary.rows) == 2
