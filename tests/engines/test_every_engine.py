"""Every registered engine, with no test code of its own: parametrised over
``cpkit.engines.registry``, each engine of a family is run on small bundled instances and must
give the published count (which the family's other engines give too), valid solutions, and
honour ``limit``, ``first`` and ``time_limit``.  An engine added to the registry is covered here
as it is registered (CONTRIBUTING.md).  Small boards only: some engines are pure Python."""

from __future__ import annotations

import json
import time
from functools import lru_cache
from pathlib import Path

import numpy as np
import pytest

import cpkit
from cpkit.engines.registry import RECORDS
from cpkit.result import COMPLETE, LIMIT, TIME_LIMIT, verify_board, verify_tiling

INSTANCES = Path(__file__).resolve().parents[2] / "instances"


def engines(family: str) -> list[str]:
    return [r.name for r in RECORDS if r.family == family]


@lru_cache(maxsize=None)
def manifest(family: str) -> dict:
    return json.loads((INSTANCES / family / "manifest.json").read_text())


#: (file, counting mode): small instances whose count the manifest publishes.
BOARDS = [("gen_4_b2i3_s2.txt", "rotation"), ("gen_4_b3i4_s3.txt", "raw")]
TILINGS = [("pentominoes_20x3.txt", "rotation"), ("pentominoes_20x3.txt", "raw")]
#: A puzzle no engine finishes in a fraction of a second, for the time limit (the edge-matching
#: one is generated: 10 x 10, three frame colours, five inner ones).
HARD_TILING = "pentominoes_10x6.txt"
TIME_LIMIT_S = 0.3


@pytest.mark.parametrize("engine", engines("edge_matching"))
@pytest.mark.parametrize("board,unique", BOARDS)
def test_an_edge_matching_engine_gives_the_published_count_and_valid_boards(engine, board,
                                                                             unique):
    puzzle = cpkit.load(INSTANCES / "edge_matching" / board)
    result = cpkit.solve(puzzle, engine=engine, unique=unique)
    assert result.complete and result.stop_reason == COMPLETE
    assert result.count == manifest("edge_matching")[board]["counts"][unique]
    assert len(result.solutions) == result.count
    assert len({(tuple(s.tiles), tuple(s.rotations)) for s in result.solutions}) \
        == result.count
    for s in result.solutions:
        assert verify_board(puzzle, s) == []


@pytest.mark.parametrize("engine", engines("edge_matching"))
def test_an_edge_matching_engine_honours_limit_and_first(engine):
    puzzle = cpkit.load(INSTANCES / "edge_matching" / BOARDS[0][0])
    limited = cpkit.solve(puzzle, engine=engine, limit=3)
    assert (limited.count, len(limited.solutions), limited.complete, limited.stop_reason) \
        == (3, 3, False, LIMIT)
    first = cpkit.solve(puzzle, engine=engine, first=True)
    assert (first.count, first.complete) == (1, False)
    assert verify_board(puzzle, first.solutions[0]) == []


@pytest.mark.parametrize("engine", engines("edge_matching"))
def test_an_edge_matching_engine_honours_the_time_limit(engine):
    from cpkit.models.em_generator import generate

    puzzle = generate(10, border_colours=3, inner_colours=5, seed=1)
    _time_limited(puzzle, engine, unique="raw", count_only=True)


def _time_limited(model, engine, **options):
    """``engine`` on ``model`` stops at the time limit (not at the end of the search), soon
    after it (setting up, e.g. the automatic configuration's choice, spends the limit too)."""
    start = time.perf_counter()
    result = cpkit.solve(model, engine=engine, time_limit=TIME_LIMIT_S, **options)
    wall = time.perf_counter() - start - result.jit_seconds
    assert not result.complete and result.stop_reason == TIME_LIMIT
    assert result.seconds <= TIME_LIMIT_S + 1.0
    assert wall <= TIME_LIMIT_S + 5.0        # setting up (CP-SAT's model, the choice) included


@pytest.mark.parametrize("engine", engines("tiling"))
@pytest.mark.parametrize("file,unique", TILINGS)
def test_a_tiling_engine_gives_the_published_count_and_valid_tilings(engine, file, unique):
    puzzle = cpkit.load(INSTANCES / "tiling" / file)
    result = cpkit.solve(puzzle, engine=engine, unique=unique)
    assert result.complete and result.count == manifest("tiling")[file]["counts"][unique]
    assert len(result.solutions) == result.count
    for tiling in result.solutions:
        assert verify_tiling(puzzle, tiling) == []


@pytest.mark.parametrize("engine", engines("tiling"))
def test_a_tiling_engine_honours_limit_and_the_time_limit(engine):
    puzzle = cpkit.load(INSTANCES / "tiling" / HARD_TILING)
    limited = cpkit.solve(puzzle, engine=engine, limit=3)
    assert (limited.count, len(limited.solutions), limited.complete, limited.stop_reason) \
        == (3, 3, False, LIMIT)
    _time_limited(puzzle, engine, unique="raw", count_only=True)


@pytest.mark.parametrize("engine", engines("exact_cover"))
def test_an_exact_cover_engine_gives_the_raw_count_and_valid_covers(engine):
    """The exact cover a tiling compiles to has its raw tilings as solutions."""
    file = TILINGS[0][0]
    cover = cpkit.load(INSTANCES / "tiling" / file).exact_cover()
    result = cpkit.solve(cover, engine=engine)
    assert result.complete and result.count == manifest("tiling")[file]["counts"]["raw"]
    need = np.ones(len(cover.primary), dtype=np.int64) if cover.need is None else cover.need
    for rows in result.solutions:
        covered = np.zeros(len(cover.primary) + len(cover.secondary), dtype=np.int64)
        for r in rows:
            np.add.at(covered, cover.option_items[cover.option_ptr[r]:cover.option_ptr[r + 1]], 1)
        assert (covered[:len(cover.primary)] == need).all()
        assert (covered[len(cover.primary):] <= 1).all()
    limited = cpkit.solve(cover, engine=engine, limit=3)
    assert (limited.count, limited.complete, limited.stop_reason) == (3, False, LIMIT)
