"""DLX: Knuth's dancing links with Busche's ordering heuristics, as a resumable numba engine.

``DlxSearch`` owns one search over an ``ExactCover`` (private copies of the link arrays, the
explicit stack, a solution buffer) and advances it in slices.  ``solve_cover`` and
``solve_tiling`` wrap it into a ``Result``.

Statistics follow polycube: for DLX every placement attempt fits (the matrix holds only options
compatible with the placements so far), so attempts equal fits, counted per number of pieces
remaining before the placement.
"""

from __future__ import annotations

from typing import Callable

import numpy as np

from ..models.exact_cover import ExactCover
from ..models.tiling import Puzzle, Tiling
from ..result import Result, Stats
from . import _dlx_kernel as K
from .driver import drive
from .heuristics import Schedule, parse_schedule, tables
from .jit import warm

ENGINE = "dlx"
BUFFER = 4096


class DlxSearch:
    """A resumable exact-cover search.  ``step`` runs until ``max_new`` solutions or
    ``node_budget`` placements; solutions (lists of option numbers) accumulate in ``found``."""

    def __init__(self, cover: ExactCover, heur_of_level: np.ndarray, heur_kind: np.ndarray,
                 heur_key: np.ndarray, store: bool = True, buffer: int = BUFFER,
                 on_rows: Callable[[np.ndarray], None] | None = None):
        arrays = cover.arrays()
        self.llink, self.rlink, self.length, self.need, self.ulink, self.dlink = arrays.fresh()
        self.top = arrays.top
        self.row_of = arrays.row_of
        depth = cover.max_depth()
        self.depth = depth
        self.heur_of_level = np.ascontiguousarray(heur_of_level, dtype=np.int32)
        self.heur_kind = np.ascontiguousarray(heur_kind, dtype=np.int32)
        self.heur_key = np.ascontiguousarray(heur_key, dtype=np.float64)
        self.state = np.zeros(K.STATE_SIZE, dtype=np.int64)
        self.col_of = np.zeros(depth + 1, dtype=np.int32)
        self.cur = np.zeros(depth + 1, dtype=np.int32)
        self.mode = np.zeros(depth + 1, dtype=np.int32)
        self.tweak_base = np.zeros(depth + 1, dtype=np.int32)
        self.tweak_stack = np.zeros(cover.n_options + 1, dtype=np.int32)
        self.chosen = np.zeros(depth + 1, dtype=np.int32)
        self.fits = np.zeros(depth + 1, dtype=np.int64)
        self.counters = np.zeros(K.COUNTERS_SIZE, dtype=np.int64)
        self.store = bool(store)
        self.buffer = buffer
        self.sol_buf = np.zeros((buffer if store else 1, max(depth, 1)), dtype=np.int32)
        self.sol_depth = np.zeros(buffer if store else 1, dtype=np.int32)
        self.found: list[np.ndarray] = []
        self.on_rows = on_rows
        self.n_options = cover.n_options
        self.n_primary = cover.n_primary
        self.stop_level = -1
        self.at_stop_level = False
        self.finished = False

    @property
    def solutions(self) -> int:
        return int(self.counters[K.CT_SOLUTIONS])

    @property
    def nodes(self) -> int:
        return int(self.counters[K.CT_NODES])

    def step(self, max_new: int, node_budget: int) -> tuple[bool, int]:
        if self.finished:
            return True, 0
        before = self.solutions
        self.state[K.ST_NBUF] = 0
        cap = self.buffer if self.store else (1 << 62)
        status = K.search(self.llink, self.rlink, self.length, self.need, self.top, self.ulink,
                          self.dlink, self.row_of, self.heur_of_level, self.heur_kind,
                          self.heur_key, self.state, self.col_of, self.cur, self.mode,
                          self.tweak_base, self.tweak_stack, self.chosen, self.fits,
                          self.counters, self.sol_buf, self.sol_depth, self.store,
                          np.int64(min(cap, max_new)), np.int64(node_budget),
                          np.int64(self.stop_level))
        if self.store:
            n = int(self.state[K.ST_NBUF])
            for k in range(n):
                rows = self.sol_buf[k, :self.sol_depth[k]].copy()
                if self.on_rows is None:
                    self.found.append(rows)
                else:
                    self.on_rows(rows)
        self.finished = status == K.DONE
        self.at_stop_level = status == K.AT_STOP_LEVEL
        return self.finished, self.solutions - before

    # ------------------------------------------------------------------ subproblem access
    @property
    def level(self) -> int:
        return int(self.state[K.ST_LEVEL])

    def placed_rows(self) -> np.ndarray:
        """Options placed on the current path (meaningful after stopping at ``stop_level``)."""
        return self.chosen[:self.level].copy()

    def remaining_options(self) -> np.ndarray:
        """Options still in the matrix: the subproblem below the current placements."""
        return K.active_options(self.rlink, self.top, self.dlink, self.row_of, self.n_options,
                                self.n_primary)

    def remaining_need(self) -> np.ndarray:
        """How many more times each primary item (0-based) must be covered."""
        return self.need[1:self.n_primary + 1].copy()


def _warm_up() -> None:
    """Compile or load the kernel with the argument types of a real run, on a 2-option cover."""
    tiny = ExactCover.from_rows(["a", "b"], ["c"], [[0, 2], [1], [0, 1]])
    of_level, kind, key = tables(parse_schedule("s"), tiny.n_items, None, tiny.max_depth(), 2)
    for store in (True, False):
        s = DlxSearch(tiny, of_level, kind, key, store=store, buffer=4)
        while not s.step(10, 1)[0]:
            pass


def jit_seconds() -> float:
    return warm("dlx", _warm_up)


def run(cover: ExactCover, schedule: Schedule, *, cell_coords: np.ndarray | None, pieces: int,
        store: bool, limit: int | None, time_limit: float | None,
        on_rows: Callable[[np.ndarray], None] | None = None):
    """Run a DLX search to a stop condition; returns (search, outcome, jit_seconds)."""
    jit = jit_seconds()
    of_level, kind, key = tables(schedule, cover.n_items, cell_coords, cover.max_depth(), pieces)
    search = DlxSearch(cover, of_level, kind, key, store=store, on_rows=on_rows)
    outcome = drive(search.step, limit=limit, time_limit=time_limit)
    return search, outcome, jit


def solve_cover(cover: ExactCover, *, heuristic: str = "s", limit: int | None = None,
                time_limit: float | None = None, count_only: bool = False) -> Result:
    """All (or up to ``limit``) exact covers; solutions are sorted lists of option numbers."""
    schedule = parse_schedule(heuristic, "sf")
    depth = cover.max_depth()
    search, outcome, jit = run(cover, schedule, cell_coords=None, pieces=depth,
                               store=not count_only, limit=limit, time_limit=time_limit)
    fits = [int(v) for v in search.fits]
    stats = Stats(nodes=search.nodes, fits_by_remaining=fits, attempts_by_remaining=fits)
    return Result("exact_cover", ENGINE, "raw", search.solutions, outcome.complete,
                  outcome.stop_reason, outcome.seconds, jit,
                  [sorted(int(r) for r in s) for s in search.found], stats,
                  {"heuristic": str(schedule)}, cover.name)


def tiling_stats(fits_by_level: np.ndarray, nodes: int, pieces: int) -> Stats:
    """Per-level placement counts re-indexed by pieces remaining before the placement."""
    by_remaining = [0] * (pieces + 1)
    for level in range(min(pieces, len(fits_by_level))):
        by_remaining[pieces - level] = int(fits_by_level[level])
    return Stats(nodes=nodes, fits_by_remaining=by_remaining,
                 attempts_by_remaining=list(by_remaining))


def solve_tiling(puzzle: Puzzle, *, heuristic: str = "s", limit: int | None = None,
                 time_limit: float | None = None, count_only: bool = False,
                 keep: np.ndarray | None = None,
                 on_solution: Callable[[Tiling], None] | None = None) -> Result:
    """Enumerate raw tilings (every symmetric copy counted) of ``puzzle`` with DLX.

    ``keep`` optionally restricts the images (a boolean mask over ``puzzle.images``), which is how
    image filters hand their work to the engine.  With ``on_solution`` each tiling is passed to it
    as soon as it is found instead of being kept in the result.
    """
    schedule = parse_schedule(heuristic)
    cover = puzzle.exact_cover(keep)
    image_ids = np.flatnonzero(keep) if keep is not None else None

    def decode(rows: np.ndarray) -> Tiling:
        return puzzle.tiling_from_images(rows if image_ids is None else image_ids[rows])

    on_rows = (lambda rows: on_solution(decode(rows))) if on_solution is not None else None
    search, outcome, jit = run(cover, schedule, cell_coords=puzzle.cell_coords,
                               pieces=puzzle.n_pieces, store=not count_only, limit=limit,
                               time_limit=time_limit, on_rows=on_rows)
    tilings = [decode(rows) for rows in search.found]
    stats = tiling_stats(search.fits, search.nodes, puzzle.n_pieces)
    return Result("tiling", ENGINE, "raw", search.solutions, outcome.complete,
                  outcome.stop_reason, outcome.seconds, jit, tilings, stats,
                  {"heuristic": str(schedule), "images": len(cover.option_ptr) - 1},
                  puzzle.name)
