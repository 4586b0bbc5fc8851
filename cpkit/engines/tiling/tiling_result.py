"""Where a tiling search's ``Result`` is assembled: one place for both ways it runs.

A search runs in one process (``cpkit.solve``, the split runner's in-process path) or split
over workers (its parts summed by the splitter: ``dlx_split``, ``hybrid_split``).  Both paths
reduce what they searched to the same ``cpkit.result.Figures`` and hand them to the engine's
result function (``dlx_search.result_of_tiling``, ``fila_search.result_of``,
``hybrid_search.result_of``: which counters it reports, its options, the engine's name, all
through ``raw_result``), then to ``counted`` (the front's part: the counting mode, the
solutions that count, the filters' figures and options, the front's compile time), and for
the ``auto`` engine to ``tiling_auto_search.with_choice``.  So a key cannot be in one path's
JSON and missing from the other's, and a new figure is added in one place.

Per-level figures are reported by pieces remaining before the placement (polycube's
ATTEMPTS[n] / FITS[n]); engines and split parts count them by level (pieces placed).
"""

from __future__ import annotations

from typing import Any, Sequence

from ...models.tiling import Puzzle
from ...result import Figures, Result, Stats


def by_remaining(by_level: Sequence[int], pieces: int) -> list[int]:
    """Counts per level (``pieces - level`` pieces remaining) re-indexed by pieces remaining
    before the placement (index 0 unused)."""
    out = [0] * (pieces + 1)
    for level in range(min(pieces, len(by_level))):
        out[pieces - level] = int(by_level[level])
    return out


def part_stats(total: Any, pieces: int) -> Stats:
    """The statistics of a split run's summed parts (a ``parallel.protocol.Part``: fits and
    attempts by depth, attempts empty where they equal the fits, as for DLX)."""
    return Stats(nodes=total.nodes, fits_by_remaining=by_remaining(total.fits, pieces),
                 attempts_by_remaining=by_remaining(total.attempts or total.fits, pieces),
                 extra=dict(total.extra))


def raw_result(puzzle: Puzzle, engine: str, figures: Figures, extra: dict[str, Any],
               options: dict[str, Any]) -> Result:
    """The ``Result`` of ``engine``'s search of ``puzzle``, every raw solution counted
    (``counted`` applies the counting mode): ``extra`` is what the engine reports of its
    counters, ``options`` its options."""
    stats = Stats(nodes=figures.stats.nodes,
                  fits_by_remaining=list(figures.stats.fits_by_remaining),
                  attempts_by_remaining=list(figures.stats.attempts_by_remaining),
                  extra=dict(extra))
    return Result("tiling", engine, "raw", figures.count, figures.complete,
                  figures.stop_reason, figures.seconds, figures.jit_seconds,
                  list(figures.solutions), stats, dict(options), puzzle.name)


def counted(result: Result, front: Any, *, unique: str, count: int, found: int,
            front_options: dict[str, Any]) -> Result:
    """``result`` under counting mode ``unique`` as the front (a ``tiling_front.Front``)
    prepared it: ``count`` solutions that count of the ``found`` the engine found (the
    redundancy filter's check), the front's figures (filters, symmetries, set-up time) and
    options, and its compile time."""
    result.count = count
    result.unique = unique
    result.jit_seconds += front.jit_seconds
    result.stats.extra.update(front.extra)
    result.stats.extra["found"] = found
    result.options.update(front_options)
    return result
