"""``python -m benchmarks e2``: the optimiser's tables on Eternity II, every board scored again."""

from __future__ import annotations

import pytest

from benchmarks import e2
from benchmarks.edge_matching import ETERNITY2
from cpkit.errors import InputError


def test_times_and_clock_come_from_the_environment(monkeypatch):
    monkeypatch.setenv("CPKIT_BENCH_E2_SECONDS", "soon")
    with pytest.raises(InputError, match="CPKIT_BENCH_E2_SECONDS must be a positive number"):
        e2._seconds("CPKIT_BENCH_E2_SECONDS", 60.0)
    monkeypatch.setenv("CPKIT_BENCH_E2_CLOCK", "sundial")
    with pytest.raises(InputError, match="CPKIT_BENCH_E2_CLOCK must be wall or cpu"):
        e2._clock()


@pytest.mark.slow
@pytest.mark.skipif(not ETERNITY2.is_dir(), reason=f"the Eternity II files are missing "
                                                   f"({ETERNITY2})")
def test_the_quick_suite_fills_its_tables(monkeypatch):
    monkeypatch.setenv("CPKIT_BENCH_E2_SECONDS", "1")
    monkeypatch.setenv("CPKIT_BENCH_E2_LONG", "5")
    monkeypatch.setenv("CPKIT_BENCH_E2_CLOCK", "cpu")
    variants, turned, ablation, long = e2.e2_suite(quick=True)
    rows = {row[0]: row for row in variants.rows}
    assert {"e2_v00", "e2_v01", "mean"} <= set(rows)
    assert all(400 <= rows[v][1] <= 480 and rows[v][2] == 256 for v in ("e2_v00", "e2_v01"))
    assert rows["mean"][1] == round((rows["e2_v00"][1] + rows["e2_v01"][1]) / 2, 1)
    assert sum(row[0].startswith("published") for row in variants.rows) == 5
    assert [row[0] for row in turned.rows] == ["e2_v00", "e2_v01", "mean"]
    assert all(400 <= row[2] <= 480 for row in turned.rows)
    assert [row[1] for row in turned.rows[:2]] == [rows[v][1] for v in ("e2_v00", "e2_v01")]
    assert [row[0] for row in ablation.rows] == [label for label, _ in e2.configurations()[:2]]
    assert [row[1] for row in long.rows] == ["edges", "tiles"]
    edges, tiles = long.rows
    assert edges[4] == 256 and 0 < tiles[4] <= 256 and tiles[3] < 480
