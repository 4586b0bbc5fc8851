"""The brute force in plain Python: cells in the compiled brute force's scan order (column by
column from the bottom-left corner), each tried with every unused orientation that matches its
placed neighbours and shows grey exactly on the frame.  Every placement it chooses is a node, as
for ``backtrack``, whose figures it should repeat a hundred times slower: an oracle written
without numba, arrays or a kernel, and the smallest complete engine (CONTRIBUTING.md)."""

from __future__ import annotations

from typing import Callable, Iterator, Sequence

import numpy as np

from ....errors import InputError
from ....models.edge_matching import BoardSolution, EdgeMatchingPuzzle, Hint
from ....result import Result, Stats
from ..em_front import GeneratorSearch, run_roots

ENGINE = "python_backtrack"
#: The search nests one generator per cell (Python's recursion limit is about 1,000): boards up
#: to Eternity II's 16 x 16.
MAX_CELLS = 256


class PythonBacktrackSearch(GeneratorSearch):
    """One root's search (the root's placements are the puzzle's hints)."""

    def __init__(self, puzzle: EdgeMatchingPuzzle, store: bool = True,
                 on_orientations: Callable[[np.ndarray], None] | None = None):
        a = puzzle.arrays
        self.nbr = a.nbr.tolist()
        self.col = a.ori_col.tolist()
        self.tile = a.ori_tile.tolist()
        self.order = a.scan_order.tolist()
        self.hints = dict(zip(a.hint_cell.tolist(), a.hint_ori.tolist()))
        #: The most cells filled at a node entered (the progress line's figure).
        self.deepest = 0
        self._init_events(self._run(), store, on_orientations)

    def _fits(self, board: list[int], cell: int, o: int) -> bool:
        """Whether orientation ``o`` may go on ``cell``: grey towards the frame and only there,
        each side the colour of the placed neighbour's facing side."""
        for side, nb in enumerate(self.nbr[cell]):
            colour = self.col[o][side]
            if nb < 0:
                if colour != 0:
                    return False
            elif colour == 0 or (board[nb] >= 0 and
                                 self.col[board[nb]][(side + 2) % 4] != colour):
                return False
        return True

    def _run(self) -> Iterator[np.ndarray | None]:
        """Yields None after each node, each solution's orientation per cell."""
        board = [-1] * len(self.order)
        used = [False] * (max(self.tile, default=-1) + 1)
        for cell, o in self.hints.items():
            if used[self.tile[o]]:
                return
            board[cell], used[self.tile[o]] = o, True
        yield from self._below(board, used, 0, len(self.hints))

    def _below(self, board: list[int], used: list[bool], depth: int, filled: int
               ) -> Iterator[np.ndarray | None]:
        if depth == len(self.order):
            yield np.array(board, dtype=np.int32)
            return
        cell = self.order[depth]
        if cell in self.hints:
            if self._fits(board, cell, board[cell]):
                yield from self._below(board, used, depth + 1, filled)
            return
        for o in range(len(self.tile)):
            if used[self.tile[o]] or not self._fits(board, cell, o):
                continue
            self.nodes += 1
            self.deepest = max(self.deepest, filled + 1)
            board[cell], used[self.tile[o]] = o, True
            yield None
            yield from self._below(board, used, depth + 1, filled + 1)
            board[cell], used[self.tile[o]] = -1, False


def solve(puzzle: EdgeMatchingPuzzle, *, roots: Sequence[tuple[Hint, ...]],
          limit: int | None = None, time_limit: float | None = None, count_only: bool = False,
          on_solution: Callable[[BoardSolution], None] | None = None,
          on_progress: Callable[[dict[str, int]], None] | None = None) -> Result:
    """Every solution of ``puzzle`` under each root (the front chooses the roots)."""
    if puzzle.n_cells > MAX_CELLS:
        raise InputError(f"the {ENGINE} engine (a Python reference for small boards) takes at "
                         f"most {MAX_CELLS} cells; this board has {puzzle.n_cells}")
    chain, outcome, solutions = run_roots(
        puzzle, roots, PythonBacktrackSearch, limit=limit, time_limit=time_limit,
        count_only=count_only, on_solution=on_solution, on_progress=on_progress)
    return Result("edge_matching", ENGINE, "raw", chain.total("solutions"), outcome.complete,
                  outcome.stop_reason, outcome.seconds, 0.0, solutions,
                  Stats(nodes=chain.total("nodes")), {}, puzzle.name)
