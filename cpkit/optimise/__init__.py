"""The anytime optimiser for edge-matching boards: the best board within a time limit.

Where a board has no solution within reach (Eternity II), the question is the best board: the
most matched edges on a full board (``objective="edges"``), or the most tiles placed with no
mismatch (``"tiles"``).  Modules, one job each:

- ``tables``: the puzzle as flat arrays (orientations, neighbours, frame classes, candidate
  lists by the colours wanted north and west).
- ``_scan_kernel``: the row-scan backtracker with a break (or hole) schedule, numba.
- ``_board_kernel``: matched and broken edges of a board, numba (checked against
  ``cpkit.models.score.score_board``).
- ``schedule``: how many breaks the scan allows by each cell.
- ``assignment``: optimal refills of pairwise non-adjacent cells (scipy's
  ``linear_sum_assignment``).
- ``neighbourhoods``: large-neighbourhood moves (a region refilled by the scan kernel, an
  independent set reassigned).
- ``anytime``: one worker's search (scan, restarts, moves), its state as arrays.
- ``tasks``: workers as tasks of the split runs' backends (local processes, Dask).
- ``checkpoint``: optimiser checkpoints.
- ``driver``: ``maximize``, the workers, the shared best board, checkpoints, progress.
- ``result``: ``MaximizeResult``.
"""

from __future__ import annotations

from .anytime import METHODS, OBJECTIVES, Config
from .driver import maximize
from .result import MaximizeResult
from .schedule import Schedule

__all__ = ["maximize", "MaximizeResult", "Config", "Schedule", "METHODS", "OBJECTIVES"]
