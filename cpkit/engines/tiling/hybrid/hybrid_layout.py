"""The compiled hand-over loop's state vector (``H_*``, declared as ``cpkit.state_layout``
fields) and its outcomes besides DLX's and FILA's, apart from ``hybrid_kernel`` so that the
Python side (``hybrid_fused``) reads them without importing numba.
"""

from __future__ import annotations

from ....state_layout import bind, fields

#: What ``from hybrid_layout import *`` gives: the fields (``bind`` adds them) and constants.
__all__: list[str] = ["H_SIZE", "TOO_MANY_CELLS", "TOO_MANY_SHAPES", "TOO_MANY_ENTRIES"]

HYBRID = fields(
    "hybrid hand-over state",
    "H_IN_FILA",            # 1 while FILA searches the subproblem DLX stands at
    "H_SUBPROBLEMS",        # subproblems handed over
    "H_MAX_CELLS",          # the most open cells of one
    "H_LIST_ENTRIES",       # image list entries built, in all
    "H_LIST_SETS",          # image list sets built, in all
    "H_NOF_DROPPED",        # subproblems compiled without NOF (too many entries with it)
    "H_ERROR_VALUE")        # what made a subproblem impossible (``TOO_MANY_*``)
bind(globals(), HYBRID)
H_SIZE = HYBRID.end

#: ``run``'s outcomes besides DLX's and FILA's DONE, BUFFER_FULL (solutions to hand out) and
#: BUDGET_SPENT.
TOO_MANY_CELLS = 10
TOO_MANY_SHAPES = 11
TOO_MANY_ENTRIES = 12
