"""What the edge-matching engines' options share: the branching rules of the smallest-domain
engines and the shaving limit (``cp`` and ``edges``), declared once."""

from __future__ import annotations

from typing import Any

from ...errors import InputError
from ..options import option

#: How the engines that branch on the smallest domain (``edges``, ``alldiff``) pick the cell:
#: the smallest ratio of domain size to empty neighbours (dom/ddeg), or the smallest domain (the
#: paper's Choco models).
CELL_RULES = ("dom-ddeg", "min-domain")
#: Shaving (``cp`` and ``edges``) is off unless asked for: it cuts nodes two to 25 times (by its
#: limit and the board) but its trials cost more time than they save on most boards measured
#: (docs/benchmarks.md).
DEFAULT_SHAVE: int | str = 0


def shave_setting(shave: int | str) -> int | str:
    """A shaving limit as the engines record it, a number >= 0 or ``"all"``: ``"2"`` from the
    command line and ``2`` from the API are the same search (and resume the same checkpoint)."""
    if isinstance(shave, str) and shave.strip().lower() == "all":
        return "all"
    try:
        limit = int(shave)
    except (TypeError, ValueError):
        limit = -1
    if limit < 0 or isinstance(shave, (bool, float)):
        raise InputError(f"shaving limit must be a number >= 0 or 'all', got {shave!r}")
    return limit


def shave() -> Any:
    return option(DEFAULT_SHAVE,
                  "cp and edges engines: before each branching, try every value of each cell "
                  "with at most L candidates and drop those whose propagation fails ('all': any "
                  f"number; 0: no shaving; default {DEFAULT_SHAVE}).  Fewer nodes, but the "
                  "trials (counted apart) usually cost more time", parse=shave_setting,
                  metavar="L")
