"""The set-up of a run (filters, tables of piece states, symmetry, planning) is near-linear in
the number of identical pieces, counts in the time limit, stops on SIGTERM with its summary,
and a filter or trigger that cannot apply drops itself instead of refusing the puzzle."""

from __future__ import annotations

import signal
import time

import numpy as np
from hypothesis import given, strategies as st

from tests.robustness import monominoes, run, start, summary, wait_for


def test_thousands_of_identical_pieces_are_solved_within_the_time_limit(tmp_path):
    """4,225 monominoes in a 65 x 65 box: 40 s of set-up under --time-limit 5 (the tables of
    piece states grew with the square of the number of identical pieces)."""
    puzzle = monominoes(tmp_path / "m65.txt", 65)
    began = time.monotonic()
    proc = run("tile", puzzle, "--count-only", "--time-limit", "5", "--json", timeout=90)
    took = time.monotonic() - began
    assert proc.returncode == 0, proc.stderr
    result = summary(proc.stdout)
    assert result["solutions"] == 1 and result["complete"], result
    assert result["prep_seconds"] < 2 and took < 60


def test_100_x_100_monominoes_count_one_and_a_trigger_that_cannot_apply_drops_itself(tmp_path):
    """"too many distinct piece parities ... switch the parity filter and trigger off", and
    --no-parity-filter gave the same error; the one-shot filters need a few states only."""
    puzzle = monominoes(tmp_path / "m100.txt", 100)
    for flags in ([], ["--no-parity-filter"], ["--no-parity-filter", "--no-volume-filter"]):
        proc = run("tile", puzzle, "--count-only", "--workers", "1", "--json", *flags,
                   timeout=120)
        assert proc.returncode == 0, proc.stderr
        assert summary(proc.stdout)["solutions"] == 1 and summary(proc.stdout)["complete"]
    proc = run("tile", puzzle, "--count-only", "--workers", "1", "--engine", "dlx",
               "--parity-trigger", "50", "--stats", timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert "note: parity trigger dropped: the table of parity states would hold 200,030,001 " \
           "entries" in proc.stdout
    assert "1 solution (rotation), complete" in proc.stdout


def test_the_time_limit_ends_a_long_set_up_with_its_summary(tmp_path):
    puzzle = monominoes(tmp_path / "m200.txt", 200)
    proc = run("tile", puzzle, "--count-only", "--workers", "1", "--time-limit", "0.05",
               "--json", timeout=120)
    assert proc.returncode == 0, proc.stderr
    result = summary(proc.stdout)
    assert result["complete"] is False and result["stop_reason"] == "time_limit"
    assert result["prep_seconds"] < 1.0


def test_sigterm_during_the_set_up_ends_with_the_summary(tmp_path):
    """The checkpoint is the first thing a run writes: once it is there, the run is setting
    up its search (40,000 monominoes: filters, symmetry, the engine's arrays)."""
    puzzle = monominoes(tmp_path / "m200.txt", 200)
    ck = tmp_path / "m.ck"
    proc = start("tile", puzzle, "--count-only", "--workers", "1", "--json", "--checkpoint", ck)
    assert wait_for(ck.exists, proc, seconds=120), proc.communicate()
    proc.send_signal(signal.SIGTERM)
    stopped = time.monotonic()
    out, err = proc.communicate(timeout=120)
    assert proc.returncode == 130, err
    result = summary(out)
    assert result["complete"] is False and result["stop_reason"] == "interrupted"
    assert result["solutions"] == 0 and "split_depth" not in result     # before the split
    assert time.monotonic() - stopped < 10


@given(counts=st.lists(st.tuples(st.integers(1, 4), st.integers(0, 5)), min_size=1,
                       max_size=3), signed=st.booleans())
def test_state_rows_equal_the_whole_table(counts, signed):
    """The rows the one-shot filters compute (doubling shifts on big integers) are the rows
    of the whole table the DLX triggers use (built class by class)."""
    from cpkit.propagators.tiling_filters import StateSpace

    values = [v for v, _ in counts]
    space = StateSpace.of(values, [c for _, c in counts], signed,
                          n_values=sum(v * c for v, c in counts) + 1)
    table = space.table()
    for state in range(space.n_states):
        digits = [(state // int(r)) % (c + 1) for r, c in zip(space.radix, space.ccount)]
        bits = space.row(digits)
        row = np.array([(bits >> v) & 1 for v in range(space.n_values)], dtype=np.uint8)
        assert np.array_equal(row, table[state])
        # And the sums themselves, by brute force over the pieces.
        sums = {0}
        for value, n in zip(space.distinct, digits):
            for _ in range(n):
                sums = {s + d for s in sums for d in ((value, -value) if signed else (0, value))}
        assert {v - space.offset for v in np.flatnonzero(row)} == sums


def test_ctrl_c_during_the_set_up_of_a_run_in_one_process_ends_with_the_summary(
        tmp_path, monkeypatch, capsys):
    """The same without a split: the Ctrl-C comes while the parity filter runs (here the
    filter presses it); the set-up ends at its next step and the summary says so."""
    import os

    from cpkit.cli import main
    from cpkit.propagators import tiling_filters

    real = tiling_filters.parity_filter

    def pressed(puzzle, keep):
        os.kill(os.getpid(), signal.SIGINT)
        return real(puzzle, keep)

    monkeypatch.setattr(tiling_filters, "parity_filter", pressed)
    status = main(["tile", str(monominoes(tmp_path / "m30.txt", 30)), "--count-only",
                   "--workers", "1", "--json"])
    out, _ = capsys.readouterr()
    result = summary(out)
    assert status == 130 and result["stop_reason"] == "interrupted" and result["nodes"] == 0
