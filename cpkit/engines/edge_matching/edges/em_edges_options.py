"""The edge-filtering engine's options."""

from __future__ import annotations

from dataclasses import dataclass

from ...options import option
from .. import em_options as shared

DEFAULT_BRANCHING = "dom-ddeg"
GROUP = "edge filtering (edges engine; counts never change)"


@dataclass(frozen=True)
class EdgesOptions:
    tiles: bool = option(True, "edge filtering alone: no failure on a tile no cell can take, "
                               "no placement of a tile only one cell can take",
                         flag="--no-tile-rules", group=GROUP)
    alldifferent: bool = option(False, "add Régin's complete AllDifferent over the tiles (the "
                                       "paper's third model whole: fewer nodes, slower nodes)",
                                group=GROUP)
    branching: str = option(DEFAULT_BRANCHING,
                            "the cell to branch on: the smallest ratio of orientations to "
                            "empty neighbours (dom-ddeg, the default) or the smallest domain "
                            "(min-domain, the paper's rule)", choices=shared.CELL_RULES,
                            group=GROUP)
    shave: int | str = shared.shave()
