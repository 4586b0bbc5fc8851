"""The search the automatic configuration begins before any estimate
(``hybrid_started.Started``), and the work it is bounded by (``HybridSearch.work``, priced by
``tiling_cost_model.searched_seconds``)."""

from __future__ import annotations

import pytest

from cpkit.engines.tiling.auto import tiling_autoconfig as autoconfig
from cpkit.engines.tiling.auto import tiling_cost_model as cost_model
from cpkit.engines.tiling.fila import fila_layout as L
from cpkit.engines.tiling.hybrid import hybrid_search as hybrid
from cpkit.engines.tiling.hybrid.hybrid_started import STARTED_CHUNK_MAX, Started
from cpkit.engines.tiling.tiling_heuristics import parse_schedule
from cpkit.engines.dispatch import solve


def begun(puzzle, schedule: str, fila_at: int, nodes: int) -> hybrid.HybridSearch:
    """The hybrid search of ``schedule`` over every image, ``nodes`` nodes into it."""
    config = hybrid.Config(fila_at, parse_schedule(schedule))
    search, _ = hybrid.build_search(puzzle, config, None, store=False)
    search.step(1 << 62, nodes)
    return search


@pytest.mark.parametrize("name, schedule, fila_at, letters", [
    ("somacube.txt", "s:e=5:f=2", 5, "eeeff"), ("somacube.txt", "s:s=4:f=1", 4, "sssf"),
    ("pentominoes_10x6.txt", "s:f=11", 11, "f" * 11)])
def test_a_searchs_work_is_its_statistics_so_far(tiling_instance, name, schedule, fila_at,
                                                 letters):
    """Part way through a search its work is what its statistics say: DLX's fits above the
    switch, FILA's attempts and fits below it, and a FILA node per subproblem and per fit
    into a level above the last, each counted for its level's heuristic (``letters``, by
    pieces remaining, from ``fila_at`` down)."""
    search = begun(tiling_instance(name), schedule, fila_at, 20_000)
    assert not search.finished and search.subproblems > 0
    dlx_fits, subproblems, entries, figures = search.work()
    stats = search.stats()
    fits, attempts = stats.fits_by_remaining, stats.attempts_by_remaining
    assert dlx_fits == sum(fits[fila_at + 1:])
    assert (subproblems, entries) == (search.subproblems, search.list_entries) and entries > 0
    assert figures[L.W_FITS] == sum(fits[1:fila_at + 1])
    assert figures[L.W_ATTEMPTS] == sum(attempts[1:fila_at + 1])
    assert figures[L.W_CHECKS] == search.fila.heuristic_checks
    nodes = {letter: 0 for letter in "fes"}
    for remaining, letter in zip(range(fila_at, 0, -1), letters):
        nodes[letter] += subproblems if remaining == fila_at else fits[remaining + 1]
    assert (figures[L.W_F_NODES], figures[L.W_E_NODES], figures[L.W_S_NODES]) == \
        (nodes["f"], nodes["e"], nodes["s"])
    assert sum(nodes.values()) > subproblems


def test_work_priced_grows_as_the_search_goes_on(tiling_instance):
    """The priced seconds of a search's work only grow, and are positive once it has
    searched (the bound of the search begun first must be reached)."""
    puzzle = tiling_instance("pentominoes_10x6.txt")
    config = hybrid.Config(11, parse_schedule("s:f=11"))
    search, _ = hybrid.build_search(puzzle, config, None, store=False)
    priced = [cost_model.searched_seconds(search)]
    for _ in range(5):
        search.step(1 << 62, 5_000)
        priced.append(cost_model.searched_seconds(search))
    assert priced[0] == 0.0 and all(a < b for a, b in zip(priced, priced[1:]))


def test_the_search_begun_first_stops_at_the_first_look_its_bound_is_met(tiling_instance):
    """``Started.run`` bounded by ``enough`` looks at its search between chunks of at most
    ``STARTED_CHUNK_MAX`` nodes and stops at the first look where ``enough`` holds; a run
    that goes on with it counts every tiling (the 10 x 6's 2,339 in each of four turns)."""
    puzzle = tiling_instance("pentominoes_10x6.txt")
    config = hybrid.auto_config(puzzle, False)
    looks: list[tuple[int, float]] = []

    def enough(search: hybrid.HybridSearch) -> bool:
        looks.append((search.nodes, cost_model.searched_seconds(search)))
        return looks[-1][1] >= 0.004

    started = Started.run(puzzle, config, None, 10 ** 9, enough=enough)
    assert not started.search.finished and started.nodes == looks[-1][0]
    assert looks[-1][1] >= 0.004 > looks[-2][1]
    assert all(b - a <= STARTED_CHUNK_MAX for (a, _), (b, _) in zip(looks, looks[1:]))
    going_on = hybrid.solve_tiling(puzzle, fila_at=config.fila_at, count_only=True,
                                   started=started)
    assert going_on.count == 2339 * 4


def test_the_choice_bounds_its_first_search_by_priced_work(tiling_instance, monkeypatch):
    """Where the work priced reaches ``FIRST_PRICED`` before ``FIRST_NODES`` nodes, the
    search begun first stops there (the 10 x 6's first nodes are cheap: with the bound at 2
    ms of work, not 30, it stops short of them), and the run goes on with it."""
    monkeypatch.setattr(autoconfig, "FIRST_PRICED", 0.002)
    puzzle = tiling_instance("pentominoes_10x6.txt")
    choice = autoconfig.choose(puzzle, {"unique": "rotation"})
    started = choice.started
    assert started is not None and started.nodes < autoconfig.FIRST_NODES
    assert cost_model.searched_seconds(started.search) >= autoconfig.FIRST_PRICED
    result = solve(puzzle, count_only=True)
    assert result.count == 2339 and 0 < result.stats.extra["searched_first"] < \
        autoconfig.FIRST_NODES
