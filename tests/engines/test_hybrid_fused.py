"""The hybrid's compiled hand-over loop (``hybrid_fused``, ``hybrid_kernel``) searches exactly as
the hand-overs from Python: step by step under the same budgets, the same nodes, solutions,
figures per level and subproblems, whether it runs from the first hand-over, takes over after
``FUSE_AFTER`` of them, or never runs."""

from __future__ import annotations

import pytest

from cpkit.engines.dispatch import solve
from cpkit.engines.tiling.hybrid import hybrid_fused
from cpkit.engines.tiling.hybrid import hybrid_search as hybrid
from cpkit.engines.tiling.tiling_heuristics import parse_schedule
from cpkit.result import verify_tiling

pytestmark = pytest.mark.kernel

NEVER = 1 << 40
#: Node budgets of successive steps: a prime (the steps end anywhere in DLX or FILA), then a
#: larger one, as a driver's slices grow.
BUDGETS = [7_919] * 20 + [65_537] * 6


def switch_after(monkeypatch, fuse_after: int) -> None:
    """Hand-overs from Python until ``fuse_after`` of them (``NEVER``: all of them), whether
    the loop is loaded in this process already or not."""
    monkeypatch.setattr(hybrid_fused, "ENABLED", fuse_after != NEVER)
    monkeypatch.setattr(hybrid_fused, "FUSE_AFTER", fuse_after)
    if fuse_after != NEVER:
        monkeypatch.setattr(hybrid, "is_warm", lambda name: False)


def lockstep(puzzle, config: hybrid.Config, fuse_after: int, monkeypatch, max_new: int = 3):
    """Drive a hybrid search of ``config`` by ``BUDGETS`` (at most ``max_new`` solutions a
    step), the loop taking over after ``fuse_after`` hand-overs; what it did after each step,
    its solutions, its figures."""
    switch_after(monkeypatch, fuse_after)
    search, _ = hybrid.build_search(puzzle, config, None, store=True)
    trace = []
    for budget in BUDGETS:
        done, new = search.step(max_new, budget)
        trace.append((done, new, search.nodes, search.solutions, search.subproblems,
                      search.list_entries, search.list_sets, search.max_cells, search.deepest))
        if done:
            break
    stats = search.stats()
    return trace, [ids.tolist() for ids in search.found], \
        (stats.fits_by_remaining, stats.attempts_by_remaining), search.fused is not None


@pytest.mark.parametrize("name, spec, at, midway", [
    ("pentominoes_onesided_30x3.txt", "s:f=12", 12, 5),   # many small subproblems, F, NOF
    ("tetriscube.txt", "s:e=10:f=3", 10, None),              # E: open-neighbour planes
    ("pentominoes_onesided_18x5.txt", "s:f=14", 14, None),  # two-word occupancies (70 cells)
    ("pentominoes_2x3x10.txt", "f", 12, None),           # FILA alone: one hand-over
])
def test_the_loop_searches_as_the_python_hand_overs(tiling_instance, monkeypatch, name, spec,
                                                    at, midway):
    """``midway``: a number of hand-overs after which the loop takes over within the budgets
    (None: the budgets end inside the first subproblem)."""
    puzzle = tiling_instance(name)
    config = hybrid.Config(at, parse_schedule(spec))
    python = lockstep(puzzle, config, NEVER, monkeypatch)
    assert not python[3]
    for fuse_after in (0,) if midway is None else (0, midway):
        fused = lockstep(puzzle, config, fuse_after, monkeypatch)
        assert fused[3], "the loop took over"
        assert fused[:3] == python[:3]


def test_a_whole_count_by_the_loop_is_the_published_one(tiling_instance, monkeypatch):
    puzzle = tiling_instance("pentominoes_onesided_30x3.txt")
    runs = {}
    for fuse_after in (NEVER, hybrid_fused.FUSE_AFTER, 0):
        switch_after(monkeypatch, fuse_after)
        result = solve(puzzle, engine="hybrid", heuristic="s:f=12", fila_at=12,
                       count_only=True)
        runs[fuse_after] = (result.count, result.stats.nodes,
                            result.stats.extra["fila_subproblems"],
                            result.stats.extra["list_entries"])
    assert runs[0][0] == 46 and len(set(runs.values())) == 1
    assert runs[0][2] > hybrid_fused.FUSE_AFTER


def test_the_loop_hands_out_valid_solutions_each_once(tiling_instance, monkeypatch):
    """Solutions come out below the DLX path they were found under (a wrong prefix would
    cover some cells twice), each once, as many as the Python hand-overs give."""
    puzzle = tiling_instance("pentominoes_10x6.txt")
    found = {}
    for fuse_after in (0, NEVER):
        switch_after(monkeypatch, fuse_after)
        result = solve(puzzle, engine="hybrid", heuristic="s:f=11", fila_at=11, unique="raw",
                       redundancy=None)
        assert all(verify_tiling(puzzle, t) == [] for t in result.solutions)
        found[fuse_after] = [tuple(sorted((p.piece, tuple(sorted(p.cells))) for p in t.placements))
                             for t in result.solutions]
    assert len(found[0]) == 2339 * 4 == len(set(found[0]))
    assert found[0] == found[NEVER]


def test_a_loaded_loop_takes_over_from_the_first_hand_over(tiling_instance):
    """Loaded once in a process, the loop costs nothing more: a search of a few dozen
    subproblems (the 10 x 6, every image) runs by it from the first, and finds the published
    count of raw solutions."""
    puzzle = tiling_instance("pentominoes_10x6.txt")
    config = hybrid.Config(11, parse_schedule("s:f=11"))
    hybrid.loop_jit_seconds(1)
    search, _ = hybrid.build_search(puzzle, config, None, store=False)
    while not search.step(1 << 40, 1 << 40)[0]:
        pass
    assert search.fused is not None and search.subproblems < hybrid_fused.FUSE_AFTER
    assert search.solutions == 9356
