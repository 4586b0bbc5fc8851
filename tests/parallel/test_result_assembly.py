"""A split run reports what a run in one process reports: for every engine in the registry that
has a splitter, the two ways a search runs assemble its result in one place (the engine's
result function: ``em_result``, ``tiling_result``), so their JSON has the same keys, the same
options and the same count; a split run adds only its own figures (``SPLIT_RUN_FIGURES``).
The split runs here search their subproblems one after another in this process (the inline
backend), which assembles the result exactly as worker processes do."""

from __future__ import annotations

from pathlib import Path

import pytest

import cpkit
from cpkit.engines.registry import RECORDS
from cpkit.parallel import backends, coordinator

INSTANCES = Path(__file__).resolve().parents[2] / "instances"

#: What a split run adds to the JSON (``Coordinator._merge``): how it was split and run.
SPLIT_RUN_FIGURES = {"workers", "backend", "subproblems", "split_depth", "subproblems_done",
                     "split_seconds", "busy_seconds", "cpu_seconds", "critical_cpu_seconds",
                     "plan_seconds", "startup_seconds"}


def small_model(family: str):
    if family == "edge_matching":
        return cpkit.load(INSTANCES / "edge_matching" / "gen_4_b2i3_s2.txt")
    tiling = cpkit.load(INSTANCES / "tiling" / "pentominoes_20x3.txt")
    return tiling if family == "tiling" else tiling.exact_cover()


@pytest.mark.parametrize("record", [r for r in RECORDS if r.split is not None],
                         ids=lambda r: f"{r.family}-{r.name}")
def test_a_split_run_reports_the_keys_options_and_count_of_a_run_in_one_process(
        record, monkeypatch):
    monkeypatch.setattr(coordinator.Coordinator, "_backend", lambda self, signals:
                        backends.InlineBackend(lambda: signals.raised is not None))
    model = small_model(record.family)
    alone = cpkit.solve(model, engine=record.name, workers=1)
    split = cpkit.solve(model, engine=record.name, workers=2, subproblems=8)
    assert split.stats.extra["subproblems"] > 1             # the tree was split
    assert alone.complete and split.complete
    assert (split.count, split.engine, split.unique) == (alone.count, alone.engine, alone.unique)
    assert len(split.solutions) == len(alone.solutions) == alone.count
    one, many = alone.summary(), split.summary()
    assert set(many) - SPLIT_RUN_FIGURES == set(one)
    assert many["options"] == one["options"]
    assert (split.partial is None) == (alone.partial is None)
