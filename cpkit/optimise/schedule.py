"""Break schedules: how many broken edges (or holes) the row scan allows by each cell.

Early in the scan tiles are plentiful and exact fits exist, so a break there only wastes
search; near the end few tiles remain and a board without breaks is out of reach.  The scan
therefore allows none before a start cell and then a number that grows as a power of the
distance covered: ``total * ((cell - start + 1) / (cells - start)) ** power`` breaks by cell
``cell`` (Blackwood's "break indexes" as one curve).  The optimiser rescales ``total`` as it
finds better boards: a board with ``b`` breaks makes it aim at ``b - 1`` with the same shape.

The defaults come from runs on Eternity II variants that are not among the benchmark's (other
corner tiles pinned): the scan finds boards within seconds from ``start`` = 0.70 of the cells,
``power`` 1.7, ``total`` 30 of 480 edges; a little tighter and it finds none in a minute.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np


@dataclass(frozen=True)
class Schedule:
    """``total`` breaks by the last cell, none before cell ``start * cells``, growing as
    ``power`` of the way between."""

    total: float = 30.0
    start: float = 0.70
    power: float = 1.7

    def limits(self, order: np.ndarray, n_cells: int) -> np.ndarray:
        """The breaks allowed once each cell of ``order`` (row-major cell numbers) is filled:
        the kernel's ``limit`` array (by depth)."""
        first = int(self.start * n_cells)
        span = max(1, n_cells - first)
        x = np.clip((order.astype(np.float64) - first + 1) / span, 0.0, 1.0)
        return np.floor(self.total * x ** self.power).astype(np.int32)

    def aiming_at(self, breaks: int, found: int) -> "Schedule":
        """The same shape, scaled to aim at ``breaks`` after a board with ``found`` breaks
        (``breaks < found``)."""
        if found <= 0:
            return self
        return replace(self, total=max(0.0, self.total * breaks / found))

    @classmethod
    def for_board(cls, inner_edges: int, n_cells: int) -> "Schedule":
        """The default schedule scaled to a board's size: Eternity II's 30 of 480 edges, as
        the same share; on small boards the scan starts breaking at the same fraction."""
        return cls(total=max(2.0, 30.0 * inner_edges / 480.0))
