"""Split runs: one search cut into independent subtrees, searched by several workers, merged.

- ``protocol``: what an engine implements to be split (``Splittable``) and the records it
  exchanges (``Part``, ``Frontier``, ``Probe``); paths are plain lists of ints.
- ``dlx``: the protocol for DLX (tilings and exact covers).
- ``hybrid``: the protocol for the DLX-to-FILA hybrid and FILA alone.
- ``edge_matching``: the protocol for the edge-matching CP engine and the brute force.
- ``job``: what every worker receives once (the model and the search options) and its
  per-process cache of prepared searches.
- ``plan``: choosing the split depth and ordering the subproblems (Knuth estimates).
- ``backends``: where subproblems run: inline, local processes, a Dask cluster.
- ``checkpoint``: atomic checkpoint files and resuming from them.
- ``progress``: the terminal progress line.
- ``runner``: the coordinator that ties them together (``run``).

``SPLITTERS`` maps ``(family, engine)`` to the engine's ``prepare(model, options)``; an engine
without an entry simply runs sequentially.
"""

from __future__ import annotations

from importlib import import_module
from typing import Any, Callable

SPLITTERS: dict[tuple[str, str], str] = {
    ("tiling", "dlx"): "cpkit.engines.exact_cover.dlx.dlx_split:prepare",
    ("exact_cover", "dlx"): "cpkit.engines.exact_cover.dlx.dlx_split:prepare",
    ("tiling", "auto"): "cpkit.engines.tiling.hybrid.hybrid_split:prepare",
    ("tiling", "hybrid"): "cpkit.engines.tiling.hybrid.hybrid_split:prepare_hybrid",
    ("tiling", "fila"): "cpkit.engines.tiling.hybrid.hybrid_split:prepare_fila",
    ("edge_matching", "cp"): "cpkit.engines.edge_matching.em_split:prepare_cp",
    ("edge_matching", "backtrack"): "cpkit.engines.edge_matching.em_split:prepare_backtrack",
    ("edge_matching", "edges"): "cpkit.engines.edge_matching.em_split:prepare_edges",
    # Not a split search: the optimiser's workers run as tasks of the same backends.
    ("edge_matching", "maximize"): "cpkit.optimise.tasks:prepare",
}


def splitter(family: str, engine: str) -> Callable[[Any, dict[str, Any]], Any] | None:
    """The ``prepare`` function of a splittable engine, or None."""
    target = SPLITTERS.get((family, engine))
    if target is None:
        return None
    module, _, attr = target.partition(":")
    return getattr(import_module(module), attr)
