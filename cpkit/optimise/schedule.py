"""Break schedules: how many broken edges (or holes) the row scan allows by each cell; and
the order it fills the cells in (``fill_order``).

Early in the scan tiles are plentiful and exact fits exist, so a break there only wastes
search; near the end few tiles remain and a board without breaks is out of reach.  The scan
therefore allows none before a start cell and then a number that grows as a power of the
distance covered: ``total * ((cell - start + 1) / (cells - start)) ** power`` breaks by cell
``cell`` (Blackwood's "break indexes" as one curve).  The optimiser rescales ``total`` as it
finds better boards: a board with ``b`` breaks makes it aim at ``b - 1`` with the same shape.

The defaults come from runs on Eternity II variants that are not among the benchmark's (other
corner tiles pinned): the scan finds boards within seconds from ``start`` = 0.70 of the cells,
``power`` 1.7, ``total`` 30 of 480 edges; a little tighter and it finds none in a minute.

Other shapes lost edges on ``e2_clues5`` (one worker, 10^9 placements of the scan, about
110 CPU-seconds, ``python -m benchmarks.e2_configs``; matched edges of 480 for seeds 1, 2,
...): these defaults 457, 456, 456, 456; ``power`` 2.5 452, 450; 1.3 452; 1.0 445 (and the
looser curves cost up to twice the CPU time a placement); ``start`` 0.65 454; 0.60 with
``power`` 2.0 455, 455; 0.78 with ``power`` 1.2 no board at all (no top reaches the break
zone without a break, so every restart is a stuck one and loosening the total does not
help); ``total`` 24 456, 456; 36 456, 455.  After a better board, moving the start later with
the total (``tighten`` "start") 454, 454; no rescaling, only the cap below the best
(``Config.adapt`` off) 455, 455.
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
    tighten: str = "total"          # what ``aiming_at`` scales: "total", or "start" too

    def limits(self, order: np.ndarray, n_cells: int) -> np.ndarray:
        """The breaks allowed once each cell of ``order`` is filled: the kernel's ``limit``
        array (by depth).  Depth ``d`` gets the curve's value at the ``d``-th cell of
        ``order`` in row-major order: as many breaks by as many cells filled, whatever order
        the scan fills them in (``fill_order``), so the limits never fall with depth."""
        first = int(self.start * n_cells)
        span = max(1, n_cells - first)
        x = np.clip((np.sort(order).astype(np.float64) - first + 1) / span, 0.0, 1.0)
        return np.floor(self.total * x ** self.power).astype(np.int32)

    def aiming_at(self, breaks: int, found: int) -> "Schedule":
        """The same shape, scaled to aim at ``breaks`` after a board with ``found`` breaks
        (``breaks < found``)."""
        if found <= 0:
            return self
        total = max(0.0, self.total * breaks / found)
        if self.tighten == "start":
            # The break zone shrinks with the total: as many breaks a cell, fewer cells.
            return replace(self, total=total, start=1.0 - (1.0 - self.start) * breaks / found)
        return replace(self, total=total)

    @classmethod
    def for_board(cls, inner_edges: int, n_cells: int) -> "Schedule":
        """The default schedule scaled to a board's size: Eternity II's 30 of 480 edges, as
        the same share; on small boards the scan starts breaking at the same fraction."""
        return cls(total=max(2.0, 30.0 * inner_edges / 480.0))


def fill_order(fixed: np.ndarray, width: int, height: int, column_rows: int) -> np.ndarray:
    """The cells the scan fills, in order: the unhinted cells (``fixed`` ``< 0``) row by row
    from the top left, except the last ``column_rows`` rows, filled column by column (each
    column top to bottom, the columns left to right).

    Why: row by row, the last inner row is filled whole before the frame row below it, whose
    few remaining edge tiles must then meet a row of south sides chosen without them; the
    breaks pile up in those two rows, and a frame cell that no tile fits is found only after
    the row above was completed.  Column by column, each cell of the frame row comes right
    after the cell above it: the conflict shows one cell after its cause.  On Eternity
    II (one worker, 10^9 placements, seeds 1-16) two such rows scored 458.5 matched edges on
    average against 457.94 row by row, and three 457.5 (CHANGELOG.md).

    Either way a cell's north and west neighbours are filled (or hinted, or the frame) when
    it is reached and its east and south ones are not (unless hinted), which is what the
    scan kernel's candidate lists and its count of breaks rely on."""
    free = fixed < 0
    cells = np.arange(width * height, dtype=np.int32).reshape(height, width)
    split = max(0, height - max(0, column_rows))
    top = cells[:split].ravel()
    bottom = cells[split:].T.ravel()
    order = np.concatenate([top, bottom])
    return order[free[order]].astype(np.int32)
