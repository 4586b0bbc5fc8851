"""DLX: Knuth's dancing links with Busche's ordering heuristics, as a resumable numba engine.

``DlxSearch`` owns one search over an ``ExactCover`` (private copies of the link arrays, the
explicit stack, a solution buffer) and advances it in slices.  ``solve_cover`` and
``solve_tiling`` wrap it into a ``Result``.

Statistics follow polycube: for DLX every placement attempt fits (the matrix holds only options
compatible with the placements so far), so attempts equal fits, counted per number of pieces
remaining before the placement.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Sequence

import numpy as np

from ....models.exact_cover import ExactCover
from ....models.tiling import Puzzle
from ....result import Figures, Result, Stats
from .... import _aot, sanity
from . import dlx_layout as L
from . import dlx_sanity
from ...runtime.driver import drive, reporter
from ...tiling.tiling_heuristics import DLX_LETTERS, Schedule, parse_schedule, tables
from ...tiling.tiling_result import by_remaining, raw_result
from ...runtime.jit import warm

ENGINE = "dlx"
BUFFER = 4096

#: The kernels, from their extensions when built ahead of time (``cpkit._aot``).
_SEARCH = _aot.Kernel("dlx_search")
_DESCEND = _aot.Kernel("dlx_descend")
_ACTIVE_OPTIONS = _aot.Kernel("dlx_active_options")


@dataclass(frozen=True)
class Constraints:
    """The tiling constraints the DLX kernel checks during search (see ``dlx_kernel.search``):
    configuration, per-option data, achievable tables, the region's neighbour lists, and the
    initial state numbers."""

    cfg: np.ndarray
    opt_data: np.ndarray
    vol_ach: np.ndarray
    par_ach: np.ndarray
    nb_ptr: np.ndarray
    nb_idx: np.ndarray
    vstate: int = 0
    pstate: int = 0
    rpar: int = 0

    @classmethod
    def none(cls, n_options: int, pieces: int) -> "Constraints":
        cfg = np.full(L.CFG_SIZE, L.NEVER, dtype=np.int64)
        cfg[L.CF_CELLS] = 0
        cfg[L.CF_PIECES] = pieces
        cfg[L.CF_PAR_OFFSET] = 0
        cfg[L.CF_TRACK_CELLS] = 0
        return cls(cfg, np.zeros((max(n_options, 1), 3), dtype=np.int64),
                   np.ones((1, 1), dtype=np.uint8), np.ones((1, 1), dtype=np.uint8),
                   np.zeros(1, dtype=np.int32), np.zeros(1, dtype=np.int32))

    @classmethod
    def for_tiling(cls, puzzle: Puzzle, image_ids: np.ndarray, *,
                   parity_trigger: int | None = None, volume_trigger: int | None = None,
                   parity_filter: int | None = None, volume_filter: int | None = None
                   ) -> "Constraints":
        """Constraints for the cover of ``puzzle`` restricted to ``image_ids``; each feature is
        active while at least the given number of pieces remain (None: off)."""
        from ....propagators import tiling_filters as tf

        def frm(v):
            # Beyond the piece count a feature is never active: say so in 64 bits.
            return L.NEVER if v is None else min(int(v), puzzle.n_pieces + 1)

        use_parity = parity_trigger is not None or parity_filter is not None
        use_volume = volume_trigger is not None or volume_filter is not None
        cfg = np.full(L.CFG_SIZE, L.NEVER, dtype=np.int64)
        cfg[L.CF_CELLS] = puzzle.n_cells
        cfg[L.CF_PIECES] = puzzle.n_pieces
        cfg[L.CF_PAR_TRIGGER_FROM] = frm(parity_trigger)
        cfg[L.CF_VOL_TRIGGER_FROM] = frm(volume_trigger)
        cfg[L.CF_PAR_FILTER_FROM] = frm(parity_filter)
        cfg[L.CF_VOL_FILTER_FROM] = frm(volume_filter)
        cfg[L.CF_TRACK_CELLS] = 1 if use_volume else 0
        cfg[L.CF_PAR_OFFSET] = 0
        opt_data = np.zeros((max(len(image_ids), 1), 3), dtype=np.int64)
        shape_of = puzzle.images.shape[image_ids]
        vol_ach = par_ach = np.ones((1, 1), dtype=np.uint8)
        nb_ptr = nb_idx = np.zeros(1, dtype=np.int32)
        vstate = pstate = rpar = 0
        if use_volume:
            vt = tf.volume_table(puzzle)
            opt_data[:len(image_ids), 0] = vt.delta_of_shape()[shape_of]
            vol_ach, vstate = vt.achievable, vt.initial
            nb_ptr, nb_idx = tf.neighbour_csr(puzzle)
        if use_parity:
            pt = tf.parity_table(puzzle)
            opt_data[:len(image_ids), 1] = pt.delta_of_shape()[shape_of]
            opt_data[:len(image_ids), 2] = tf.image_parities(puzzle)[image_ids]
            par_ach, pstate, rpar = pt.achievable, pt.initial, tf.region_parity(puzzle)
            cfg[L.CF_PAR_OFFSET] = pt.offset
        return cls(cfg, opt_data, np.ascontiguousarray(vol_ach), np.ascontiguousarray(par_ach),
                   nb_ptr, nb_idx, int(vstate), int(pstate), int(rpar))


class DlxSearch:
    """A resumable exact-cover search.  ``step`` runs until ``max_new`` solutions or
    ``node_budget`` placements; solutions (lists of option numbers) accumulate in ``found``."""

    def __init__(self, cover: ExactCover, heur_of_level: np.ndarray, heur_kind: np.ndarray,
                 heur_key: np.ndarray, store: bool = True, buffer: int = BUFFER,
                 on_rows: Callable[[np.ndarray], None] | None = None,
                 constraints: Constraints | None = None):
        arrays = cover.arrays()
        self._arrays = arrays
        self.llink, self.rlink, self.length, self.need, self.ulink, self.dlink = arrays.fresh()
        self.top = arrays.top
        self.row_of = arrays.row_of
        depth = cover.max_depth()
        self.depth = depth
        self.heur_of_level = np.ascontiguousarray(heur_of_level, dtype=np.int32)
        self.heur_kind = np.ascontiguousarray(heur_kind, dtype=np.int32)
        self.heur_key = np.ascontiguousarray(heur_key, dtype=np.float64)
        self.constraints = constraints or Constraints.none(cover.n_options, depth)
        c = self.constraints
        self.state = np.zeros(L.STATE_SIZE, dtype=np.int64)
        self.state[L.ST_VSTATE] = c.vstate
        self.state[L.ST_PSTATE] = c.pstate
        self.state[L.ST_RPAR] = c.rpar
        n_cells = int(c.cfg[L.CF_CELLS])
        self.open_cell = np.ones(max(n_cells, 1), dtype=np.uint8)
        self.fstack = np.zeros(max(n_cells, 1), dtype=np.int32)
        self.fseen = np.zeros(max(n_cells, 1), dtype=np.uint8)
        self.filter_base = np.zeros(depth + 1, dtype=np.int32)
        self.ftrail = np.zeros(cover.n_options + 1, dtype=np.int32)
        self.col_of = np.zeros(depth + 1, dtype=np.int32)
        self.cur = np.zeros(depth + 1, dtype=np.int32)
        self.mode = np.zeros(depth + 1, dtype=np.int32)
        self.tweak_base = np.zeros(depth + 1, dtype=np.int32)
        self.tweak_stack = np.zeros(cover.n_options + 1, dtype=np.int32)
        self.chosen = np.zeros(depth + 1, dtype=np.int32)
        self.fits = np.zeros(depth + 1, dtype=np.int64)
        self.counters = np.zeros(L.COUNTERS_SIZE, dtype=np.int64)
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
        return int(self.counters[L.CT_SOLUTIONS])

    @property
    def nodes(self) -> int:
        return int(self.counters[L.CT_NODES])

    @property
    def deepest(self) -> int:
        """The most options chosen at a node so far (a level is reached only through a choice
        at every level above it, so the levels with choices are the first ones)."""
        return int(np.count_nonzero(self.fits))

    def constraint_stats(self) -> dict[str, int]:
        return {"parity_backtracks": int(self.counters[L.CT_PARITY_BACKTRACKS]),
                "volume_backtracks": int(self.counters[L.CT_VOLUME_BACKTRACKS]),
                "filtered_in_search": int(self.counters[L.CT_FILTERED])}

    def step(self, max_new: int, node_budget: int) -> tuple[bool, int]:
        if self.finished:
            return True, 0
        before = self.solutions
        self.state[L.ST_NBUF] = 0
        cap = self.buffer if self.store else (1 << 62)
        every = sanity.every()
        if every:
            status = sanity.run_checked(
                lambda piece: self._search(np.int64(min(cap, max_new)), np.int64(piece)),
                lambda: dlx_sanity.check(self.llink, self.rlink, self.length, self.top,
                                         self.ulink, self.dlink, self.n_primary),
                int(node_budget), every, L.BUDGET_SPENT)
        else:
            status = self._search(np.int64(min(cap, max_new)), np.int64(node_budget))
        if self.store:
            n = int(self.state[L.ST_NBUF])
            for k in range(n):
                rows = self.sol_buf[k, :self.sol_depth[k]].copy()
                if self.on_rows is None:
                    self.found.append(rows)
                else:
                    self.on_rows(rows)
        self.finished = status == L.DONE
        self.at_stop_level = status == L.AT_STOP_LEVEL
        return self.finished, self.solutions - before

    def _search(self, max_in_buf: np.int64, node_budget: np.int64) -> int:
        return _SEARCH(self.llink, self.rlink, self.length, self.need, self.top, self.ulink,
                       self.dlink, self.row_of, self.heur_of_level, self.heur_kind,
                       self.heur_key, self.state, self.col_of, self.cur, self.mode,
                       self.tweak_base, self.tweak_stack, self.chosen, self.fits,
                       self.counters, self.sol_buf, self.sol_depth, self.store,
                       max_in_buf, node_budget, np.int64(self.stop_level), self.constraints.cfg,
                       self.constraints.opt_data, self.constraints.vol_ach,
                       self.constraints.par_ach, self.constraints.nb_ptr,
                       self.constraints.nb_idx, self.open_cell, self.fstack, self.fseen,
                       self.filter_base, self.ftrail)

    # ------------------------------------------------------------------ subproblem access
    def reset(self) -> None:
        """Back to the root with a fresh matrix and zero counters (reuses the allocations)."""
        for mine, fresh in zip((self.llink, self.rlink, self.length, self.need, self.ulink,
                                self.dlink), self._arrays.fresh_sources()):
            np.copyto(mine, fresh)
        c = self.constraints
        self.state[:] = 0
        self.state[L.ST_VSTATE] = c.vstate
        self.state[L.ST_PSTATE] = c.pstate
        self.state[L.ST_RPAR] = c.rpar
        self.open_cell[:] = 1
        self.fits[:] = 0
        self.counters[:] = 0
        self.found = []
        self.finished = False
        self.at_stop_level = False

    def descend(self, path: np.ndarray, target: int | None = None,
                rand: np.ndarray | None = None) -> tuple[int, int, np.ndarray]:
        """From the root of a fresh search, walk down to depth ``target`` (default: the length
        of ``path``) along ``path`` (option numbers; -1 entries are drawn from ``rand``), ready for
        ``step`` to search the subtree there and nothing else.  Returns (status, depth,
        branching degrees along the path); see ``dlx_kernel.descend``."""
        depth = self.depth
        full = np.full(depth + 1, -1, dtype=np.int32)
        full[:len(path)] = path
        if target is None:
            target = len(path)
        rand = np.zeros(depth + 1) if rand is None else np.ascontiguousarray(rand, np.float64)
        degree = np.zeros(depth + 1, dtype=np.int64)
        counters = self.counters.copy()
        c = self.constraints
        status, level = _DESCEND(
            self.llink, self.rlink, self.length, self.need, self.top, self.ulink, self.dlink,
            self.row_of, self.heur_of_level, self.heur_kind, self.heur_key, self.state,
            self.col_of, self.cur, self.mode, self.tweak_base, self.tweak_stack, self.chosen,
            self.counters, c.cfg, c.opt_data, c.vol_ach, c.par_ach, c.nb_ptr, c.nb_idx,
            self.open_cell, self.fstack, self.fseen, self.filter_base, self.ftrail, full,
            np.int64(target), rand, degree)
        self.counters[:] = counters         # the walk itself is not search work
        self.finished = status != L.DESCENT_READY
        return int(status), int(level), degree[:level]

    @property
    def level(self) -> int:
        return int(self.state[L.ST_LEVEL])

    def placed_rows(self) -> np.ndarray:
        """Options placed on the current path (meaningful after stopping at ``stop_level``)."""
        return self.chosen[:self.level].copy()

    def remaining_options(self) -> np.ndarray:
        """Options still in the matrix: the subproblem below the current placements."""
        return _ACTIVE_OPTIONS(self.rlink, self.top, self.dlink, self.row_of, self.n_options,
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
    s.reset()
    s.descend(np.zeros(0, dtype=np.int32), 1, np.zeros(s.depth + 1))
    s.remaining_options()       # the hybrid hands the rows left to FILA (and its probes) by it


def jit_seconds() -> float:
    return warm("dlx", _warm_up)


@dataclass
class Prepared:
    """Everything a DLX search of one model needs, built once: the cover, the heuristic tables,
    the tiling constraints, and (tilings) the image number of each option.  Parallel workers
    build one per model and start many searches from it."""

    cover: ExactCover
    schedule: Schedule
    tables: tuple[np.ndarray, np.ndarray, np.ndarray]
    pieces: int
    constraints: Constraints | None = None
    image_ids: np.ndarray | None = None

    def search(self, *, store: bool, on_rows: Callable[[np.ndarray], None] | None = None,
               buffer: int = BUFFER) -> DlxSearch:
        return DlxSearch(self.cover, *self.tables, store=store, buffer=buffer, on_rows=on_rows,
                         constraints=self.constraints)


def prepare_cover(cover: ExactCover, heuristic: str = "s") -> Prepared:
    schedule = parse_schedule(heuristic, "sf")
    depth = cover.max_depth()
    return Prepared(cover, schedule, tables(schedule, cover.n_items, None, depth, depth), depth)


def prepare_tiling(puzzle: Puzzle, keep: np.ndarray | None = None, heuristic: str = "s", *,
                   parity_trigger: int | None = None, volume_trigger: int | None = None,
                   parity_filter_from: int | None = None,
                   volume_filter_from: int | None = None) -> Prepared:
    """The DLX search of the raw tilings of ``puzzle`` restricted to the images in ``keep``."""
    schedule = parse_schedule(heuristic, DLX_LETTERS, "DLX")
    cover = puzzle.exact_cover(keep)
    image_ids = np.flatnonzero(keep) if keep is not None else np.arange(len(puzzle.images))
    constraints = Constraints.for_tiling(puzzle, image_ids, parity_trigger=parity_trigger,
                                         volume_trigger=volume_trigger,
                                         parity_filter=parity_filter_from,
                                         volume_filter=volume_filter_from)
    tabs = tables(schedule, cover.n_items, puzzle.cell_coords, cover.max_depth(),
                  puzzle.n_pieces)
    return Prepared(cover, schedule, tabs, puzzle.n_pieces, constraints, image_ids)


def run(prepared: Prepared, *, store: bool, limit: int | None, time_limit: float | None,
        on_rows: Callable[[np.ndarray], None] | None = None,
        on_progress: Callable[[dict[str, int]], None] | None = None):
    """Run a DLX search to a stop condition; returns (search, outcome, jit_seconds).
    ``on_progress`` gets the figures of a progress line after every slice."""
    jit = jit_seconds()
    search = prepared.search(store=store, on_rows=on_rows)
    outcome = drive(search.step, limit=limit, time_limit=time_limit,
                    on_progress=reporter(search, on_progress))
    return search, outcome, jit


def solve_cover(cover: ExactCover, *, heuristic: str = "s", limit: int | None = None,
                time_limit: float | None = None, count_only: bool = False,
                on_solution: Callable[[list[int]], None] | None = None,
                on_progress: Callable[[dict[str, int]], None] | None = None) -> Result:
    """All (or up to ``limit``) exact covers; solutions are sorted lists of option numbers,
    handed to ``on_solution`` as they are found (the result then keeps none) or kept in the
    result.  ``on_progress`` gets nodes, solutions and the deepest node's options after every
    slice."""
    prepared = prepare_cover(cover, heuristic)
    on_rows = None if on_solution is None else \
        (lambda rows: on_solution(sorted(int(r) for r in rows)))
    search, outcome, jit = run(prepared, store=not count_only, limit=limit,
                               time_limit=time_limit, on_rows=on_rows, on_progress=on_progress)
    figures = Figures.of_outcome(outcome, search.solutions, jit,
                                 cover_stats(search.fits, search.nodes),
                                 [sorted(int(r) for r in s) for s in search.found])
    return result_of_cover(cover, figures, str(prepared.schedule))


def cover_stats(fits_by_level: Sequence[int], nodes: int) -> Stats:
    """An exact cover's per-level placements (by depth: a cover's depth has no fixed size);
    for DLX every attempt fits."""
    fits = [int(v) for v in fits_by_level]
    return Stats(nodes=nodes, fits_by_remaining=fits, attempts_by_remaining=list(fits))


def result_of_cover(cover: ExactCover, figures: Figures, heuristic: str) -> Result:
    """The ``Result`` of a DLX search of ``cover`` with ``heuristic``, for a run in one
    process and a split run alike (``dlx_split``): the one place it is assembled."""
    return Result("exact_cover", ENGINE, "raw", figures.count, figures.complete,
                  figures.stop_reason, figures.seconds, figures.jit_seconds,
                  list(figures.solutions), figures.stats, {"heuristic": heuristic}, cover.name)


def tiling_stats(fits_by_level: Sequence[int], nodes: int, pieces: int,
                 extra: dict[str, int]) -> Stats:
    """Per-level placements re-indexed by pieces remaining before the placement (for DLX
    every attempt fits) and the counters ``extra`` (``DlxSearch.constraint_stats``)."""
    fits = by_remaining(fits_by_level, pieces)
    return Stats(nodes=nodes, fits_by_remaining=fits, attempts_by_remaining=list(fits),
                 extra=dict(extra))


def result_of_tiling(puzzle: Puzzle, figures: Figures, heuristic: str, images: int) -> Result:
    """The ``Result`` of a DLX search of ``puzzle``'s raw tilings over ``images`` images with
    ``heuristic``, for a run in one process and a split run alike (``tiling_result``)."""
    return raw_result(puzzle, ENGINE, figures, figures.stats.extra,
                      {"heuristic": heuristic, "images": images})


def solve_tiling(puzzle: Puzzle, *, heuristic: str = "s", limit: int | None = None,
                 time_limit: float | None = None, count_only: bool = False,
                 keep: np.ndarray | None = None,
                 on_images: Callable[[np.ndarray], None] | None = None,
                 parity_trigger: int | None = None, volume_trigger: int | None = None,
                 parity_filter_from: int | None = None,
                 volume_filter_from: int | None = None,
                 on_progress: Callable[[dict[str, int]], None] | None = None) -> Result:
    """Enumerate the raw tilings (every symmetric copy counted) of ``puzzle`` with DLX.

    ``keep`` restricts the images (a boolean mask over ``puzzle.images``): image filters and the
    redundancy filter hand their work to the engine that way.  With ``on_images`` every solution
    is passed to it, as the array of its image numbers, as soon as it is found (even when
    counting only); otherwise, unless counting only, the result holds the decoded tilings.
    Triggers and dynamic filters are active while at least the given number of pieces remain.
    ``on_progress`` gets nodes, solutions and the deepest node's pieces after every slice.
    """
    prepared = prepare_tiling(puzzle, keep, heuristic, parity_trigger=parity_trigger,
                              volume_trigger=volume_trigger,
                              parity_filter_from=parity_filter_from,
                              volume_filter_from=volume_filter_from)
    image_ids = prepared.image_ids
    on_rows = (lambda rows: on_images(image_ids[rows])) if on_images is not None else None
    search, outcome, jit = run(prepared, store=on_images is not None or not count_only,
                               limit=limit, time_limit=time_limit, on_rows=on_rows,
                               on_progress=on_progress)
    tilings = [puzzle.tiling_from_images(image_ids[rows]) for rows in search.found]
    stats = tiling_stats(search.fits, search.nodes, puzzle.n_pieces, search.constraint_stats())
    return result_of_tiling(puzzle, Figures.of_outcome(outcome, search.solutions, jit, stats,
                                                       tilings),
                            str(prepared.schedule), prepared.cover.n_options)
