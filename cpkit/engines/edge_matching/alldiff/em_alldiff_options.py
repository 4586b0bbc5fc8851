"""The section 6.3 models' options."""

from __future__ import annotations

from dataclasses import dataclass

from ...options import option

GROUP = "the section 6.3 model (alldiff engine; counts never change)"


@dataclass(frozen=True)
class AlldiffOptions:
    edges: bool = option(False, "also filter the colours of the edges between empty cells (the "
                                "paper's third model)", flag="--edge-filtering", group=GROUP)
    alldifferent: bool = option(True, "4-edge consistency alone (tiles only pairwise "
                                      "different)", group=GROUP)
    # The API only: the command line's --branching is the edges engine's.
    branching: str = option("min-domain", "the cell to branch on (dom-ddeg or min-domain)",
                            flag=None)
