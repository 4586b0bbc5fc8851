"""The ``tiling-vs-polycube`` suite's parts that run without polycube: the files it writes
turned, its targets, and what it says when polycube cannot be built."""

from __future__ import annotations

import pytest

from benchmarks import polycube_ref as ref
from benchmarks import tiling_vs_polycube as suite
from cpkit.io.polycube import read_polycube
from cpkit.engines.dispatch import solve
from cpkit.errors import InputError


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


def test_cut_boxes_are_checked_against_each_other(monkeypatch, tmp_path):
    """No count of a box cut at random is published: where the programs' counts up to
    rotation differ, the row gives both counts of every solution, and where those show
    polycube's count wrong (39 classes of at most 8 solutions, the 3 x 3 x 6 box's rotations,
    cannot hold the 320 both count in all), its run without ``-r#`` is the target's
    reference; cpkit counting a box otherwise turned is an error; a box the seed cannot cut is
    a row saying why."""
    from benchmarks import tiling_cut_boxes as cut

    monkeypatch.setattr(cut, "BOXES", [((3, 3, 6), 6), ((10, 6), 5)])
    counts = iter([40, 40])
    monkeypatch.setattr(suite, "side_by_side", lambda binary, path, dimension, timeout: (
        suite.CpkitRun(next(counts), 0.5, 0.1, {}), ref.Run(39, 0.3, 0.2)))
    raw = []
    monkeypatch.setattr(suite, "run_cpkit", lambda path, *args, timeout: raw.append(args) or
                        suite.CpkitRun(320, 1.0, 0.5, {}))
    monkeypatch.setattr(ref, "run", lambda binary, path, flags, timeout: raw.append(flags) or
                        ref.Run(320, 2.0, 1.9))

    def box_as_generated(table):
        return next(row for row in table.rows if row[:2] == ["cut_3x3x6_n6_s1", "as generated"])

    table = cut.cut_table(tmp_path / "polycube", tmp_path)
    row = box_as_generated(table)
    assert row[4] == "cpkit 320, polycube 320"
    assert row[8] == pytest.approx(0.5 / 2.0) and "wrong with -r#; without it 2.000 s" in row[9]
    assert ("--unique", "raw") in raw and all("-r#" not in flags for flags in raw[1::2])
    assert any("no cut of the 10x6x1 box" in row[1] for row in table.rows)
    # Counts of every solution that differ say nothing of which count up to rotation is
    # right: polycube's run with -r# stays the reference (0.1 s of search against 0.3 s).
    counts = iter([40, 40])
    monkeypatch.setattr(ref, "run", lambda binary, path, flags, timeout: ref.Run(319, 2.0, 1.9))
    row = box_as_generated(cut.cut_table(tmp_path / "polycube", tmp_path))
    assert row[8] == pytest.approx(0.1 / 0.3) and "-r#" not in row[9]
    # A count above the fewest classes (41 of 320 solutions) is possible with symmetric
    # solutions: not judged wrong.
    counts = iter([40, 40])
    monkeypatch.setattr(ref, "run", lambda binary, path, flags, timeout: ref.Run(320, 2.0, 1.9))
    monkeypatch.setattr(suite, "side_by_side", lambda binary, path, dimension, timeout: (
        suite.CpkitRun(next(counts), 0.5, 0.1, {}), ref.Run(41, 0.3, 0.2)))
    row = box_as_generated(cut.cut_table(tmp_path / "polycube", tmp_path))
    assert row[4] == "cpkit 320, polycube 320" and "-r#" not in row[9]
    counts = iter([40, 41])
    with pytest.raises(RuntimeError, match="cpkit counts 41"):
        cut.cut_table(None, tmp_path)
    for bad in ("one", "--5"):
        monkeypatch.setenv("CPKIT_BENCH_TILING_SEED", bad)
        with pytest.raises(InputError, match="CPKIT_BENCH_TILING_SEED"):
            suite.tiling_vs_polycube_suite()
