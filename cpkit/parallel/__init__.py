"""Split runs: one search cut into independent subtrees, searched by several workers, merged.

- ``protocol``: what an engine implements to be split (``Splittable``) and the records it
  exchanges (``Part``, ``Frontier``, ``Probe``); paths are plain lists of ints.
- ``job``: what every worker receives once (the model and the search options) and its
  per-process cache of prepared searches.
- ``plan``: choosing the split depth and ordering the subproblems (Knuth estimates).
- ``backends``: where subproblems run: inline, local processes, a Dask cluster.
- ``checkpoint``: atomic checkpoint files and resuming from them.
- ``progress``: the terminal progress line.
- ``solution_order``: a split run's solutions in the sequential order, streamed or at the end.
- ``auto_race``: edge matching's ``--engine auto`` race before a split run, and its checkpoint.
- ``runner``: ``run``, which searches a one-worker run here and hands the others to
- ``coordinator``: what ties them together for a split run.

Each engine's splitter (its ``prepare(model, options)``, which builds the engine's
``Splittable``) lives in the engine's folder under ``cpkit/engines`` and is named by its record
(``cpkit.engines.registry``); ``SPLITTERS`` is the view of those records, plus the optimiser's
workers, which run as tasks of the same backends.  An engine without a splitter runs
sequentially.
"""

from __future__ import annotations

from typing import Any, Callable

from ..engines.registry import SPLITTERS as ENGINE_SPLITTERS, load

SPLITTERS: dict[tuple[str, str], str] = {
    **ENGINE_SPLITTERS,
    # Not a split search: the optimiser's workers run as tasks of the same backends.
    ("edge_matching", "maximize"): "cpkit.optimise.tasks:prepare",
}


def splitter(family: str, engine: str) -> Callable[[Any, dict[str, Any]], Any] | None:
    """The ``prepare`` function of a splittable engine, or None."""
    target = SPLITTERS.get((family, engine))
    if target is None:
        return None
    return load(target)
