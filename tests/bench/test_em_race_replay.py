"""``tools/em_race_replay.py``: the race replayed on recorded searches behaves as the race run
for real (the same code, on a virtual clock)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from cpkit.models.em_generator import generate

ROOT = Path(__file__).resolve().parents[2]


def tool():
    spec = importlib.util.spec_from_file_location("em_race_replay",
                                                  ROOT / "tools" / "em_race_replay.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def steady(total_seconds: float, end: float = 1.0) -> list[tuple]:
    """A record of a search that takes ``total_seconds`` and reports its share truly, a row a
    millisecond, up to ``end`` seconds."""
    rows, t = [], 0.0
    while t < min(total_seconds, end) - 1e-12:
        t = min(total_seconds, round(t + 0.001, 6))
        rows.append((t, int(t * 1e7), t / total_seconds, 0, t >= total_seconds))
    return rows


def test_a_replayed_brute_force_ends_a_short_board_in_its_solo():
    """The brute force needs 50 ms, the others a second and more: the race gives every engine
    its glimpse (a row of its record), then the brute force alone until it ends."""
    replay = tool()
    seconds, engine = replay.replay({"backtrack": steady(0.05), "cp": steady(1.0),
                                     "edges": steady(2.0)}, first=False, time_limit=10.0)
    assert engine == "backtrack"
    assert 0.05 <= seconds <= 0.05 + 0.002 + 1e-9


def test_a_replayed_turn_is_as_long_on_the_virtual_clock_as_the_race_asks():
    """Edge filtering needs 20 ms, the others ten seconds: after the glimpses (a row of each
    record) edge filtering is estimated far ahead of the brute force and gets its turns, and
    the replay ends within a few milliseconds of its 20 ms.  Turns that read the real clock
    instead would each run through as many rows as the real half-millisecond allows (the
    glimpse of the brute force alone: hundreds)."""
    replay = tool()
    seconds, engine = replay.replay({"backtrack": steady(10.0), "cp": steady(10.0),
                                     "edges": steady(0.02)}, first=False, time_limit=10.0)
    assert engine == "edges"
    assert 0.02 <= seconds <= 0.03


@pytest.mark.kernel
def test_a_recorded_board_replays_to_an_engine_that_ended_it():
    """A board recorded for real: the race's replay ends with an engine whose record ends
    the search, and takes at least that engine's own time (it ran it to the end)."""
    replay = tool()
    puzzle = generate(6, border_colours=4, inner_colours=5, seed=101)
    engines = replay.record_board(puzzle, cap=5.0)
    ended = replay.best_seconds(engines, first=False)
    assert ended, "no engine ended a 6 x 6 board in 5 s"
    seconds, engine = replay.replay(engines, first=False, time_limit=10.0)
    assert engine in ended and seconds >= ended[engine] - 1e-9
    assert seconds >= min(ended.values())


def test_the_race_reads_the_real_clock_again_after_a_replay():
    import time

    from cpkit.engines.edge_matching.auto import em_auto_entrants, em_auto_search
    from cpkit.engines.runtime import driver

    tool().replay({"backtrack": steady(0.01), "cp": steady(1.0), "edges": steady(1.0)},
                  first=False, time_limit=1.0)
    assert em_auto_search.time is time and driver.time is time and em_auto_entrants.time is time
