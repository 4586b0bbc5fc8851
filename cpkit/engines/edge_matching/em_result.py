"""Where an edge-matching search's ``Result`` is assembled: one place for both ways it runs.

A search runs in one process (``cpkit.solve``, the split runner's in-process path, the auto
race's winner: its roots chained by ``em_front.RootChain``) or split over workers (its parts
summed by ``em_split``).  Both paths reduce what they searched to the same
``cpkit.result.Figures`` (the engine's counters in ``stats.extra``, whole numbers that add up
over roots and parts) and hand them to the engine's ``result_of`` (its counters as it reports
them, its options: through ``search_result``), then to ``counted`` (the front's part: the
counting mode, the roots, the rate).  So a key cannot be in one path's JSON and missing from
the other's, and a new figure is added in one place.
"""

from __future__ import annotations

from typing import Any, Iterable

from ...models.edge_matching import EdgeMatchingPuzzle
from ...result import Figures, Result, Stats


def summed_statistics(searches: Iterable[Any]) -> dict[str, int]:
    """The ``statistics()`` of ``searches`` added up."""
    total: dict[str, int] = {}
    for search in searches:
        for key, value in search.statistics().items():
            total[key] = total.get(key, 0) + int(value)
    return total


def deepest_search(searches: Iterable[Any]) -> Any | None:
    """Of ``searches`` that keep their deepest node, the one that filled the most cells; None
    if none filled any."""
    best = max(searches, key=lambda s: s.deepest, default=None)
    return best if best is not None and best.deepest > 0 else None


def chain_figures(chain: Any, outcome: Any, solutions: list[Any], jit_seconds: float) -> Figures:
    """The figures of a search in one process: ``chain`` (an ``em_front.RootChain``) stopped
    with ``outcome`` (a ``DriveOutcome``)."""
    best = deepest_search(chain.searches)
    stats = Stats(nodes=chain.total("nodes"), extra=summed_statistics(chain.searches))
    return Figures.of_outcome(outcome, chain.total("solutions"), jit_seconds, stats, solutions,
                              deepest=0 if best is None else best.deepest,
                              deepest_row=[] if best is None else
                              [int(o) for o in best.deepest_row()])


def search_result(puzzle: EdgeMatchingPuzzle, engine: str, figures: Figures,
                  options: dict[str, Any], extra: dict[str, Any]) -> Result:
    """The ``Result`` of ``engine``'s search of ``puzzle`` (solutions counted raw, per root:
    ``counted`` applies the counting mode): ``extra`` (the engine's counters as it reports
    them), then the deepest node's cells as ``deepest`` and its board as ``partial`` (what a
    user attacking a board too hard to finish looks at).  A deepest row that does not fit the
    board (a checkpoint edited by hand) leaves ``partial`` empty."""
    stats = Stats(nodes=figures.stats.nodes, extra=dict(extra))
    result = Result("edge_matching", engine, "raw", figures.count, figures.complete,
                    figures.stop_reason, figures.seconds, figures.jit_seconds,
                    list(figures.solutions), stats, dict(options), puzzle.name)
    stats.extra["deepest"] = figures.deepest
    row, a = figures.deepest_row, puzzle.arrays
    if figures.deepest > 0 and len(row) == a.n_cells and \
            all(-1 <= o < a.n_orientations for o in row):
        result.partial = puzzle.solution_from_orientations(list(row))
    return result


def counted(result: Result, puzzle: EdgeMatchingPuzzle, unique: str, roots: int) -> Result:
    """``result`` (any edge-matching engine's) under counting mode ``unique`` searched from
    ``roots`` symmetry roots: the mode the count is in (``effective_unique``: "hints" on a
    hinted board), the mode and the roots among its options, and its nodes per second."""
    result.unique = puzzle.effective_unique(unique)
    result.options.setdefault("unique", unique)
    result.options["roots"] = roots
    seconds = result.seconds
    result.stats.extra["nodes_per_s"] = round(result.stats.nodes / seconds) if seconds > 0 else 0
    return result
