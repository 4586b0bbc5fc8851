"""The ``tiling-vs-polycube`` suite's parts that run without polycube: the files it writes
turned, its targets, and what it says when polycube cannot be built."""

from __future__ import annotations

from benchmarks import polycube_ref as ref
from benchmarks import tiling_vs_polycube as suite
from cpkit.io.polycube import read_polycube
from cpkit.engines.dispatch import solve


def test_turned_files_hold_the_same_puzzle_turned(tiling_instance, tmp_path):
    """A quarter turn of the 20 x 3 (drawn 3 wide) is drawn 20 wide, and a turned and
    mirrored Soma cube, read back, counts as the bundled one."""
    flat = tiling_instance("pentominoes_20x3.txt")
    path = suite.write_turned(flat, suite.TURN_2D, tmp_path, "flat.txt")
    assert read_polycube(path)[0].box == (20, 3, 1)
    soma = tiling_instance("somacube.txt")
    path = suite.write_turned(soma, suite.TURN_3D, tmp_path, "soma.txt")
    turned = read_polycube(path)[0]
    assert sorted(p.cells for p in turned.mobile_pieces) != sorted(p.cells for p in
                                                                    soma.mobile_pieces)
    assert solve(turned, count_only=True).count == 480


def test_the_targets():
    """Over 1 s of polycube, whole processes at most 0.5; under, cpkit's search at most
    polycube's whole process; a polycube run stopped by its time-out gives a bound."""
    mine = suite.CpkitRun(5, 2.0, 0.3, {})
    assert suite.target(mine, ref.Run(5, 5.0, 4.9)) == (0.4, "whole / whole <= 0.5", True)
    assert suite.target(mine, ref.Run(5, 3.0, 2.9))[2] is False
    assert suite.target(mine, ref.Run(5, 0.5, 0.4)) == (0.6, "search / whole <= 1.0", True)
    assert suite.target(mine, ref.Run(5, 0.2, 0.1))[2] is False
    assert suite.target(mine, ref.Run(None, 600.0, None, timed_out=True))[2] is True
    assert suite.target(mine, None) == (None, "", None)


def test_without_the_sources_the_suite_says_why(monkeypatch, tmp_path):
    monkeypatch.setenv("CPKIT_POLYCUBE_SOURCES", str(tmp_path / "nowhere"))
    binary, why = ref.build(tmp_path)
    assert binary is None and "no polycube 1.2.1 sources" in why and "nowhere" in why


def test_short_runs_are_made_three_times_and_the_median_kept(monkeypatch, tmp_path):
    """A process under ``REPEAT_BELOW`` is run three times and the run of the median search
    kept (a few milliseconds of search, run once, are the machine's noise); a long one once."""
    searches = iter([0.009, 0.002, 0.004])
    calls = []

    def fake(path, *args):
        calls.append(args)
        return suite.CpkitRun(2, 0.4, next(searches), {})

    monkeypatch.setattr(suite, "run_cpkit", fake)
    kept = suite.steadied(tmp_path / "p.txt", "--json", key=lambda r: r.search_seconds)
    assert kept.search_seconds == 0.004 and calls == [("--json",)] * 3
    monkeypatch.setattr(suite, "run_cpkit",
                        lambda path, *args: calls.append(args) or suite.CpkitRun(2, 9.0, 8.5, {}))
    calls.clear()
    assert suite.steadied(tmp_path / "p.txt", key=lambda r: r.search_seconds).seconds == 9.0
    assert len(calls) == 1
