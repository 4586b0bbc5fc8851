"""The DLX-to-FILA hybrid (polycube's ``-f N``), and the automatic engine configuration.

DLX places the first pieces: it can target a piece (the one the redundancy filter constrained
has few images, so min-fit places it first) and it runs the backtrack triggers and dynamic
filters.  Whenever ``fila_at`` pieces remain, DLX stops (``DlxSearch.stop_level``); the rows
left in its matrix, the cells still open and the pieces still needed are a subproblem, which
FILA compiles into image list sets and enumerates; then DLX resumes where it stopped.  A
subproblem is therefore fully described by the DLX decisions that reach it (``placed_rows``),
which is what subtree splitting can later serialise.

One heuristic schedule covers both engines, in polycube's notation: the entries active while
more than ``fila_at`` pieces remain are DLX heuristics, the others FILA heuristics
(``s:f=11``, ``s:e=11:f=3``).  Statistics merge by pieces remaining: DLX levels above the switch,
FILA levels (summed over all subproblems) below.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import numpy as np

from ....errors import InputError
from ....models.tiling import Piece, Puzzle
from ....result import Figures, Result, Stats
from ....sanity import every as sanity_every
from ...exact_cover.dlx import dlx_search as dlx
from ..fila import fila_search as fila
from ..fila import fila_layout as L
from . import hybrid_fused
from ...runtime.driver import DriveOutcome, drive, reporter
from ...runtime.jit import is_warm, warm
from ..tiling_heuristics import (DLX_LETTERS, FILA_LETTERS, LETTERS, Schedule, parse_schedule,
    tables)
from ..tiling_result import raw_result

#: Counters of FILA's hand-over that FILA alone reports (``fila_search.result_of``: a split run
#: of FILA alone is the hybrid switched at the root) and the hybrid leaves out, by the
#: ``HybridSearch`` attribute that keeps them.
FILA_ALONE_COUNTERS = {"image_list_sets": "list_sets", "max_words": "max_words"}


@dataclass(frozen=True)
class Config:
    """What runs: DLX while more than ``fila_at`` pieces remain, FILA below (0: DLX alone;
    the number of pieces: FILA alone), following ``schedule``."""

    fila_at: int
    schedule: Schedule
    nof: bool = True
    reason: str = ""

    def engine(self, pieces: int) -> str:
        """What actually runs: DLX alone, FILA alone, or both."""
        return "dlx" if self.fila_at == 0 else ("fila" if self.fila_at >= pieces else "hybrid")


def largest_volume(puzzle: Puzzle, pieces: int) -> int:
    """The most open cells ``pieces`` remaining pieces can cover (the largest ones)."""
    sizes = sorted((p.size for p in puzzle.mobile_pieces), reverse=True)
    return sum(sizes[:pieces])


def latest_fila_at(puzzle: Puzzle, cells: int) -> int:
    """The largest number of remaining pieces that can never cover more than ``cells`` cells
    (one sort: thousands of identical pieces made a sort per piece count quadratic)."""
    n, covered = 0, 0
    for size in sorted((p.size for p in puzzle.mobile_pieces), reverse=True):
        covered += size
        if covered > cells:
            break
        n += 1
    return n


def auto_config(puzzle: Puzzle, constrained: bool, nof: bool | None = None) -> Config:
    """The configuration ``--engine auto`` uses (see docs/algorithms.md, "Choosing the engine").

    FILA takes over as soon as the open cells fit one 64-bit word, but DLX always places the
    first piece when the redundancy filter constrained one (min-fit then starts with it, as
    Fletcher and de Bruijn start with the X).  Flat puzzles use F with NOF; 3D puzzles use E and
    switch to F for the last three pieces (the seed's best Tetris Cube configuration); a puzzle
    of identical pieces gets no NOF (it filters little there and costs its lookups).
    """
    pieces = puzzle.n_pieces
    at = latest_fila_at(puzzle, fila.WORD)
    if constrained:
        at = min(at, pieces - 1)
    use_nof = len(puzzle.shapes) > 1 if nof is None else nof
    if at <= 0:
        return Config(0, parse_schedule("s"), use_nof, "no piece count leaves at most 64 cells")
    if puzzle.dimension == 2 or at <= 3:
        spec = f"s:f={at}"
    else:
        spec = f"s:e={at}:f=3"
    return Config(at, parse_schedule(spec), use_nof,
                  f"FILA once {at} pieces remain ({puzzle.dimension}D)")


def make_config(puzzle: Puzzle, heuristic: str | None, fila_at: int | None, nof: bool | None,
                constrained: bool) -> Config:
    """The configuration for explicit options; what is not given is chosen by ``auto_config``."""
    if fila_at is not None and fila_at < 0:
        raise InputError(f"--fila-at must be at least 0, got {fila_at}")
    auto = auto_config(puzzle, constrained, nof)
    at = auto.fila_at if fila_at is None else min(int(fila_at), puzzle.n_pieces)
    if heuristic is None:
        schedule = auto.schedule if fila_at is None else \
            parse_schedule(f"s:f={at}" if at < puzzle.n_pieces else "f")
    else:
        schedule = parse_schedule(heuristic, LETTERS)
    config = Config(at, schedule, auto.nof if nof is None else bool(nof),
                    auto.reason if fila_at is None and heuristic is None else "as given")
    check_schedule(config, puzzle.n_pieces)
    return config


def check_schedule(config: Config, pieces: int) -> None:
    """Each engine must only meet heuristics it has."""
    if config.fila_at < pieces:
        config.schedule.part(config.fila_at + 1, pieces).check(DLX_LETTERS, "DLX (used while "
                                                               f"more than {config.fila_at} "
                                                               f"pieces remain)")
    if config.fila_at > 0:
        config.schedule.part(1, config.fila_at).check(FILA_LETTERS, "FILA")


class HybridSearch:
    """DLX to ``stop_level``, FILA on each subproblem there, DLX again: one resumable search.

    ``step`` has the driver's contract; solutions (puzzle image numbers) go to ``on_images`` or
    accumulate in ``found``."""

    def __init__(self, puzzle: Puzzle, image_ids: np.ndarray, config: Config, *,
                 store: bool, on_images: Callable[[np.ndarray], None] | None = None,
                 constraints: dlx.Constraints | None = None):
        self.puzzle = puzzle
        self.image_ids = image_ids
        self.config = config
        pieces = puzzle.n_pieces
        self.pieces = pieces
        self.fila_at = config.fila_at
        cover = puzzle.exact_cover(_mask(len(puzzle.images), image_ids))
        dlx_schedule = config.schedule.part(self.fila_at + 1, pieces) \
            if self.fila_at < pieces else parse_schedule("s")
        of_level, kind, key = tables(dlx_schedule, cover.n_items, puzzle.cell_coords,
                                     cover.max_depth(), pieces)
        self.dlx = dlx.DlxSearch(cover, of_level, kind, key, store=store and self.fila_at == 0,
                                 on_rows=self._dlx_rows, constraints=constraints)
        self.stop_level = pieces - self.fila_at if self.fila_at > 0 else -1
        self.dlx.stop_level = self.stop_level
        self.plan = fila.FilaPlan.build(puzzle, config.schedule.part(1, max(self.fila_at, 1)),
                                        config.nof) if self.fila_at > 0 else None
        self.store = store
        self.on_images = on_images
        self.found: list[np.ndarray] = []
        self.fila = fila.FilaSearch(self.fila_at, store=store, on_rows=self._fila_rows) \
            if self.fila_at > 0 else None
        self.in_fila = False
        self.prefix = np.zeros(0, dtype=np.int64)
        self.subproblems = 0
        self.max_cells = 0
        self.list_entries = 0
        self.nof_dropped = 0
        self.list_sets = self.max_words = 0
        self.finished = False
        # Split runs (``cpkit.engines.tiling.hybrid.hybrid_split``): stop at every node of ``split_depth``; a
        # subproblem below the switch ends with its FILA part (``dlx_done``).
        self.split_depth: int | None = None
        self.at_stop_level = False
        self.dlx_done = False
        self._last_problem: tuple[bytes, fila.FilaProblem] | None = None
        # The compiled hand-over loop, once it has taken over (``hybrid_fused``), and the
        # seconds its kernel took to load then (JIT, not search).
        self.fused: hybrid_fused.Fused | None = None
        self.late_jit = 0.0
        self._loop_words: int | None = None
        self._loop_ahead = False            # the loop for those words is built ahead
        self._node_kinds: np.ndarray | None = None      # ``work``'s heuristics by level

    @property
    def switch(self) -> int:
        """The depth at which FILA takes over (beyond the tree when DLX runs alone)."""
        return self.stop_level if self.fila_at > 0 else self.pieces + 1

    def stop_at(self, depth: int) -> None:
        """Stop (``at_stop_level``) at every node of ``depth``, above the switch or below it."""
        self.split_depth = depth
        self.fused = None                   # split runs hand over from Python
        self.dlx.stop_level = depth if depth <= self.switch else self.stop_level
        if self.in_fila:
            self.fila.stop_at(depth - self.switch)

    def reset(self) -> None:
        """Back to the root with zero counters (reuses the allocations and compiled plan)."""
        self.dlx.reset()
        self.dlx.stop_level = self.stop_level
        self._reset_fila()

    def restart_subproblem(self, below: np.ndarray) -> bool:
        """What ``reset`` then ``descend`` do for a path through the switch node DLX stands at
        (as ``descend`` left it): FILA's subproblem there from its start, walked down
        ``below`` (FILA's images), counters at zero, without replaying DLX's levels (a
        probe lists the children of each FILA level: replaying 4,161 levels of identical
        monominoes for each took most of a second).  False if ``below`` is not a branch."""
        self._reset_fila()
        self._start_subproblem()
        self.dlx_done = True
        return self.fila.replay(np.asarray(below, dtype=np.int32))

    def _reset_fila(self) -> None:
        if self.fila is not None:
            for a in (self.fila.attempts, self.fila.fits, self.fila.counters):
                a[:] = 0
            self.fila.finished = True
            self.fila.at_stop = False
            self.fila.found = []
        self.found = []
        self.in_fila = False
        self.prefix = np.zeros(0, dtype=np.int64)
        self.subproblems = self.max_cells = self.list_entries = self.nof_dropped = 0
        self.list_sets = self.max_words = 0
        self.finished = False
        self.split_depth = None
        self.at_stop_level = False
        self.dlx_done = False
        self.fused = None

    def placed_images(self) -> np.ndarray:
        """The puzzle images placed on the current path, DLX's then FILA's."""
        path = self.image_ids[self.dlx.placed_rows()]
        if self.in_fila:
            path = np.concatenate([path, self.fila.chosen[:self.fila.level].astype(np.int64)])
        return path

    def descend(self, path: np.ndarray) -> bool:
        """From the root, walk down ``path`` (puzzle images, one per depth) as the search first
        reached that node, ready for ``step`` to search the subtree there and nothing else.
        False if ``path`` is not a branch of this search."""
        path = np.asarray(path, dtype=np.int64)
        self.fused = None                   # the loop's subproblem is not this path's
        top = min(len(path), self.switch)
        rows = np.searchsorted(self.image_ids, path[:top])
        if np.any(rows >= len(self.image_ids)) or \
                np.any(self.image_ids[np.minimum(rows, len(self.image_ids) - 1)] != path[:top]):
            return False
        status, _, _ = self.dlx.descend(rows.astype(np.int32))
        if status != dlx.L.DESCENT_READY:
            return False
        if len(path) > top or (top == self.switch and self.fila_at > 0):
            self._start_subproblem()
            self.dlx_done = True
            if not self.fila.replay(path[top:].astype(np.int32)):
                return False
        return True

    # ------------------------------------------------------------------ solutions
    def _emit(self, ids: np.ndarray) -> None:
        if self.on_images is not None:
            self.on_images(ids)
        else:
            self.found.append(ids)

    def _dlx_rows(self, rows: np.ndarray) -> None:
        self._emit(self.image_ids[rows])

    def _fila_rows(self, rows: np.ndarray) -> None:
        self._emit(np.concatenate([self.prefix, rows.astype(np.int64)]))

    # ------------------------------------------------------------------ the hand-over
    def subproblem(self) -> fila.FilaProblem:
        """The subproblem below the DLX path the search is stopped at."""
        need = self.dlx.remaining_need()
        n_cells = self.puzzle.n_cells
        is_open = need[:n_cells] > 0
        if np.count_nonzero(is_open) > fila.MAX_CELLS:
            raise fila.too_many_cells(int(np.count_nonzero(is_open)),
                                      f"the region left when {self.fila_at} pieces remain")
        images = self.image_ids[self.dlx.remaining_options()]
        return fila.compile_problem(self.puzzle, self.plan, is_open, images, need[n_cells:])

    def _start_subproblem(self) -> None:
        placed = self.dlx.placed_rows()
        key = placed.tobytes()
        if self._last_problem is not None and self._last_problem[0] == key:
            problem = self._last_problem[1]      # split runs revisit a subproblem (probes)
        else:
            problem = self.subproblem()
            self._last_problem = (key, problem)
        self.prefix = self.image_ids[placed]
        self.fila.load(problem)
        if self.split_depth is not None and self.split_depth > self.switch:
            self.fila.stop_at(self.split_depth - self.switch)
        self.in_fila = True
        self.subproblems += 1
        self.max_cells = max(self.max_cells, problem.n_cells)
        self.list_entries += problem.n_entries
        self.list_sets += problem.n_sets
        self.max_words = max(self.max_words, problem.words)
        self.nof_dropped += "nof_dropped" in problem.extra

    # ------------------------------------------------------------------ driving
    @property
    def solutions(self) -> int:
        return self.dlx.solutions + (self.fila.solutions if self.fila else 0)

    @property
    def nodes(self) -> int:
        return self.dlx.nodes + (self.fila.nodes if self.fila else 0)

    @property
    def deepest(self) -> int:
        """The most pieces placed at a node so far: DLX's levels, then FILA's below them."""
        top = self.pieces - self.fila_at if self.fila_at > 0 else self.pieces
        below = self.fila.deepest if self.fila is not None else 0
        return int(np.count_nonzero(self.dlx.fits[:top])) + below

    def step(self, max_new: int, node_budget: int) -> tuple[bool, int]:
        if self.finished:
            return True, 0
        before_solutions = self.solutions
        before_nodes = self.nodes
        self.at_stop_level = False
        while True:
            new = self.solutions - before_solutions
            spent = self.nodes - before_nodes
            if new >= max_new or spent >= node_budget:
                return False, new
            if self.in_fila:
                self.in_fila = not self.fila.step(max_new - new, node_budget - spent)[0]
                if self.fila.at_stop:
                    self.at_stop_level = True
                    return False, self.solutions - before_solutions
                if not self.in_fila and self.dlx_done:
                    self.finished = True
                    return True, self.solutions - before_solutions
                continue
            if self._fuse():
                done, more = self.fused.step(max_new - new, node_budget - spent)
                return done, new + more
            done, _ = self.dlx.step(max_new - new, node_budget - spent)
            if self.dlx.at_stop_level:
                if self.split_depth is not None and self.split_depth <= self.switch:
                    self.at_stop_level = True
                    return False, self.solutions - before_solutions
                self._start_subproblem()
                continue
            if done:
                self.finished = True
                return True, self.solutions - before_solutions

    def _fuse(self) -> bool:
        """Whether the compiled hand-over loop runs the search from here (DLX has the turn):
        once it has taken over, or now that ``FUSE_AFTER`` subproblems went through Python,
        or from the first if the loop is loaded in this process already or built ahead."""
        if self.fused is not None:
            return True
        if self.fila_at <= 0 or not hybrid_fused.ENABLED or self.split_depth is not None or \
                self.dlx_done:
            return False
        if self._loop_words is None:        # once: this runs before every DLX turn
            self._loop_words = fila.words_for(min(largest_volume(self.puzzle, self.fila_at),
                                                  self.puzzle.n_cells))
            self._loop_ahead = hybrid_fused.built_ahead(self._loop_words)
        words = self._loop_words
        if words > fila.MAX_WORDS or sanity_every() or (
                self.subproblems < hybrid_fused.FUSE_AFTER and not is_warm(loop_name(words))
                and not self._loop_ahead):
            return False
        self.late_jit += loop_jit_seconds(words)
        self.fused = hybrid_fused.Fused(self, words)
        return True

    def stats(self) -> Stats:
        """DLX levels above the switch and FILA levels below, by pieces remaining."""
        p = self.pieces
        fits = [0] * (p + 1)
        attempts = [0] * (p + 1)
        top = p - self.fila_at if self.fila_at > 0 else p
        for level in range(min(top, len(self.dlx.fits))):
            fits[p - level] = attempts[p - level] = int(self.dlx.fits[level])
        for level in range(self.fila_at):
            fits[self.fila_at - level] += int(self.fila.fits[level])
            attempts[self.fila_at - level] += int(self.fila.attempts[level])
        stats = Stats(nodes=self.nodes, fits_by_remaining=fits, attempts_by_remaining=attempts)
        stats.extra.update(self.dlx.constraint_stats())
        if self.fila_at > 0:
            stats.extra.update({"fila_at": self.fila_at, "fila_subproblems": self.subproblems,
                                "heuristic_checks": self.fila.heuristic_checks,
                                "max_subproblem_cells": self.max_cells,
                                "list_entries": self.list_entries})
            if self.nof_dropped:
                stats.extra["nof_dropped_in"] = self.nof_dropped
            stats.extra.update({key: getattr(self, attr)
                                for key, attr in FILA_ALONE_COUNTERS.items()})
        return stats

    def work(self) -> tuple[int, int, int, np.ndarray]:
        """What the search has done so far, in the terms the automatic configuration prices
        (``tiling_cost_model.searched_seconds``): DLX's placements above the switch, the
        subproblems handed over, their image lists' entries, and FILA's figures in the
        estimates' layout (``fila_layout.W_*``).  A FILA level's nodes are the placements
        into it (the first level's, the subproblems), each a choice of target by the level's
        heuristic."""
        top = self.pieces - self.fila_at if self.fila_at > 0 else self.pieces
        figures = np.zeros(L.N_FIGURES, dtype=np.int64)
        if self.fila is not None:
            f = self.fila
            if self._node_kinds is None:
                kinds = self.plan.kinds[self.plan.heuristic_of_level(self.fila_at)]
                kinds = kinds[:self.fila_at]
                self._node_kinds = np.array([(kinds == L.HK_FIRST) | (kinds == L.HK_ORDER),
                                             kinds == L.HK_NEIGHBOURS, kinds == L.HK_FITS],
                                            dtype=np.int64)
            below = self._node_kinds[:, 1:] @ f.fits[:self.fila_at - 1]
            figures[NODE_FIGURES] = self._node_kinds[:, 0] * self.subproblems + below
            figures[L.W_ATTEMPTS] = f.attempts.sum()
            figures[L.W_FITS] = f.fits.sum()
            figures[L.W_CHECKS] = f.heuristic_checks
        return int(self.dlx.fits[:top].sum()), self.subproblems, self.list_entries, figures


#: The figures counting FILA's nodes by their heuristic's kind of target choice: a fixed
#: order (F's among them), E's open neighbours, S's fits (``HybridSearch.work``).
NODE_FIGURES = [L.W_F_NODES, L.W_E_NODES, L.W_S_NODES]


def _mask(n: int, ids: np.ndarray) -> np.ndarray:
    keep = np.zeros(n, dtype=bool)
    keep[ids] = True
    return keep


def solve_tiling(puzzle: Puzzle, *, heuristic: str | None = None, fila_at: int | None = None,
                 nof: bool | None = None, limit: int | None = None,
                 time_limit: float | None = None, count_only: bool = False,
                 keep: np.ndarray | None = None,
                 on_images: Callable[[np.ndarray], None] | None = None,
                 constrained: bool = False,
                 parity_trigger: int | None = None, volume_trigger: int | None = None,
                 parity_filter_from: int | None = None,
                 volume_filter_from: int | None = None,
                 on_progress: Callable[[dict[str, int]], None] | None = None,
                 started: "hybrid_started.Started | None" = None) -> Result:
    """Enumerate the raw tilings of ``puzzle`` with DLX, then FILA once ``fila_at`` pieces
    remain (chosen automatically when None, as is the schedule ``heuristic``).  ``keep``,
    ``on_images`` and the triggers/dynamic filters (which act while DLX is in charge) work as
    for DLX, and so does ``on_progress``; ``constrained`` says the redundancy filter constrained
    a piece (the automatic configuration lets DLX place it).  ``started``: this search begun
    already (of this configuration, over these images), to go on with; its seconds count in
    the result's, its compiling was its starter's.  (``hybrid_started`` builds on this
    module, so its type is named here, not imported.)"""
    store = on_images is not None or not count_only
    if started is None:
        config = make_config(puzzle, heuristic, fila_at, nof, constrained)
        search, jit = build_search(puzzle, config, keep, store=store, on_images=on_images,
                                   parity_trigger=parity_trigger,
                                   volume_trigger=volume_trigger,
                                   parity_filter_from=parity_filter_from,
                                   volume_filter_from=volume_filter_from)
    else:
        config, search, jit = started.config, started.go_on(on_images, store), 0.0
    late = search.late_jit
    outcome = drive(search.step, limit=limit, time_limit=time_limit,
                    on_progress=reporter(search, on_progress))
    late = search.late_jit - late           # the hand-over loop loaded during the search
    jit += late
    outcome = DriveOutcome(outcome.stop_reason, outcome.seconds - late
                           + (started.seconds if started is not None else 0.0))
    tilings = [puzzle.tiling_from_images(ids) for ids in search.found]
    return result_of(puzzle, config, len(search.image_ids),
                     Figures.of_outcome(outcome, search.solutions, jit, search.stats(), tilings))


def result_of(puzzle: Puzzle, config: Config, images: int, figures: Figures) -> Result:
    """The ``Result`` of the hybrid configured as ``config`` over ``images`` images
    (``tiling_result``: the one place, for a run in one process and a split run): the engine
    that actually ran, the counters ``stats`` keeps (the switch point where FILA takes over),
    and the configuration as options."""
    extra = {k: v for k, v in figures.stats.extra.items() if k not in FILA_ALONE_COUNTERS}
    if config.fila_at > 0:
        extra["fila_at"] = config.fila_at
    return raw_result(puzzle, config.engine(puzzle.n_pieces), figures, extra,
                      result_options(config, images))


def build_search(puzzle: Puzzle, config: Config, keep: np.ndarray | None, *, store: bool,
                 on_images: Callable[[np.ndarray], None] | None = None,
                 parity_trigger: int | None = None, volume_trigger: int | None = None,
                 parity_filter_from: int | None = None,
                 volume_filter_from: int | None = None) -> tuple[HybridSearch, float]:
    """The search of ``config`` over the images in ``keep``, and the JIT seconds its kernels
    took to compile or load."""
    image_ids = np.flatnonzero(keep) if keep is not None else np.arange(len(puzzle.images))
    constraints = dlx.Constraints.for_tiling(puzzle, image_ids, parity_trigger=parity_trigger,
                                             volume_trigger=volume_trigger,
                                             parity_filter=parity_filter_from,
                                             volume_filter=volume_filter_from)
    jit = dlx.jit_seconds()
    if config.fila_at > 0:
        cells = min(largest_volume(puzzle, config.fila_at), puzzle.n_cells)
        for words in range(1, fila.words_for(min(cells, fila.MAX_CELLS)) + 1):
            jit += fila.jit_seconds(words)
    search = HybridSearch(puzzle, image_ids, config, store=store, on_images=on_images,
                          constraints=constraints)
    return search, jit


def loop_jit_seconds(words: int) -> float:
    """Compile or load the compiled hand-over loop (``hybrid_fused``) for ``words``-word
    occupancies (``runtime.jit.warm``)."""
    return warm(loop_name(words), lambda: _warm_up_loop(words))


def loop_name(words: int) -> str:
    return f"hybrid hand-over loop ({words}-word occupancy)"


def _warm_up_loop(words: int) -> None:
    """The loop on a 2 x 3 box of three dominoes, FILA for the last two, from the first
    hand-over, storing solutions and counting only."""
    puzzle = Puzzle([Piece(name, ((0, 0, 0), (1, 0, 0))) for name in "abc"], box=(2, 3, 1))
    for store in (True, False):
        search, _ = build_search(puzzle, Config(2, parse_schedule("s:f=2")), None, store=store)
        loop = hybrid_fused.Fused(search, words)
        while not loop.step(1 << 20, 1 << 20)[0]:
            pass


def result_options(config: Config, images: int) -> dict:
    options = {"heuristic": str(config.schedule), "fila_at": config.fila_at, "nof": config.nof,
               "images": images}
    if config.reason:
        options["configuration"] = config.reason
    return options


def check_options(puzzle: Puzzle, *, heuristic: str | None = None, fila_at: int | None = None,
                  nof: bool | None = None, **_options) -> None:
    """Reject a bad schedule or switch point before any work (the front calls this first)."""
    make_config(puzzle, heuristic, fila_at, nof, constrained=False)


solve_tiling.precheck = check_options
