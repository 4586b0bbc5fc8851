"""FILA, the Fixed Image List Algorithm: public wrapper around ``fila_kernel``.

FILA enumerates the tilings of a (sub)problem: a set of open cells (at most 256), the images
that may still be placed there, and how many pieces of each shape are left.  It is the whole
engine (``solve_tiling``) or the second half of the DLX-to-FILA hybrid
(``cpkit.engines.tiling.hybrid.hybrid_search``), which hands it the subproblems DLX leaves at a given depth.

- ``FilaPlan`` compiles the FILA part of a heuristic schedule for one puzzle: what each
  heuristic is, the cell order of the fixed-order ones, and the bit numbering of the cells
  (the order of the first fixed-order heuristic, so that it becomes a plain bit scan).
- ``compile_problem`` builds a subproblem's image list sets (once per subproblem).
- ``FilaSearch`` owns one resumable search over it, advanced in slices by ``driver.drive``.

Statistics follow polycube 2.0: per number of pieces remaining, *attempts* are images tried
(an and of the occupancy with the image's layout) and *fits* the ones placed; no-fits are the
difference.  Fit checks made by the E and S heuristics to choose a cell are counted apart.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

import numpy as np

from ....errors import EngineUnavailable
from ....models.tiling import Puzzle
from ....result import Figures, Result, Stats
from .... import _aot, sanity
from . import fila_layout as L
from . import fila_sanity
from ...runtime.driver import drive, reporter
from ..tiling_heuristics import (FILA_LETTERS, FIXED_ORDER, Heuristic, Schedule, cell_keys,
    parse_schedule)
from ...runtime.jit import warm
from ..tiling_result import by_remaining, raw_result

#: The kernels, from their extensions when built ahead of time (``cpkit._aot``).
_SEARCH = _aot.Kernel("fila_search")
_BUILD_LISTS = _aot.Kernel("fila_lists")

ENGINE = "fila"
BUFFER = 4096
WORD = 64
MAX_WORDS = 4
MAX_CELLS = WORD * MAX_WORDS
#: Above this many list entries in one subproblem NOF is dropped for it (memory stays below
#: ~0.5 GB even with four-word masks); counts never depend on it.
MAX_ENTRIES = 1 << 24

#: What a result says of a search that dropped NOF (``MAX_ENTRIES``).
NOF_DROPPED = "too many list entries for NOF; solved without it"

#: ILSI bit ``d`` looks at the neighbour ``c + STEPS[d]`` (bit 5 = -x, ..., bit 0 = +z).
STEPS = ((0, 0, 1), (0, 1, 0), (1, 0, 0), (0, 0, -1), (0, -1, 0), (-1, 0, 0))


def ilsi_neighbours(puzzle: Puzzle) -> np.ndarray:
    """int64[n_cells, 6]: the region cell next to each cell in ILSI direction ``d``, or -1."""
    coords = puzzle.cell_coords.astype(np.int64)
    grid = puzzle.index_grid
    box = np.array(puzzle.box)
    out = np.full((len(coords), 6), -1, dtype=np.int64)
    for d, step in enumerate(STEPS):
        nb = coords + np.array(step)
        ok = np.all((nb >= 0) & (nb < box), axis=1)
        out[ok, d] = grid[nb[ok, 0], nb[ok, 1], nb[ok, 2]]
    return out


def first_cells(puzzle: Puzzle, rank: np.ndarray) -> np.ndarray:
    """int64[H, n_images]: each image's cell of smallest ``rank[h]``."""
    img = puzzle.images
    out = np.zeros((len(rank), max(len(img), 1)), dtype=np.int64)
    if len(img):
        for h, r in enumerate(rank):
            best = np.minimum.reduceat(r[img.cell_idx], img.cell_ptr[:-1])
            inverse = np.empty_like(r)
            inverse[r] = np.arange(len(r))
            out[h, :len(img)] = inverse[best]
    return out


def order_rank(h: Heuristic, coords: np.ndarray) -> np.ndarray:
    """Rank of every cell in the fixed order of ``h`` (its key, ties by cell number)."""
    keys = cell_keys(h, coords)
    order = np.lexsort((np.arange(len(coords)), keys))
    rank = np.empty(len(coords), dtype=np.int64)
    rank[order] = np.arange(len(coords))
    return rank


@dataclass(frozen=True)
class FilaPlan:
    """The FILA part of a schedule compiled for one puzzle.

    ``kinds[h]`` / ``pof[h]`` / ``rank[h]`` describe distinct heuristic ``h``; ``entry_h[k]`` is
    the heuristic of schedule entry ``k``; cells are numbered in the order ``by_number``, that of
    the first fixed-order heuristic (else the puzzle's cell order), so that heuristic is a bit
    scan (HK_FIRST); other fixed orders walk a cell list (HK_ORDER).
    """

    schedule: Schedule
    kinds: np.ndarray
    pof: np.ndarray
    rank: np.ndarray
    by_number: np.ndarray       # the puzzle cells in numbering order
    pof_first: np.ndarray       # [h, image]: the image's first cell in h's order (POF target)
    entry_h: tuple[int, ...]
    neighbours: np.ndarray
    nof: bool = True
    _levels: dict = field(default_factory=dict, compare=False, repr=False)

    @classmethod
    def build(cls, puzzle: Puzzle, schedule: Schedule, nof: bool = True) -> "FilaPlan":
        schedule.check(FILA_LETTERS, "FILA")
        coords = puzzle.cell_coords
        distinct: dict[str, int] = {}
        heuristics: list[Heuristic] = []
        entry_h = []
        for h, _ in schedule.entries:
            name = str(Heuristic(h.letter, False, h.arg))      # '!' changes nothing here
            if name not in distinct:
                distinct[name] = len(heuristics)
                heuristics.append(h)
            entry_h.append(distinct[name])
        fixed = [h for h in heuristics if h.letter in FIXED_ORDER]
        numbering_h = fixed[0] if fixed else Heuristic("f")
        numbering = order_rank(numbering_h, coords)
        kinds, pof, ranks = [], [], []
        for h in heuristics:
            if h.letter in FIXED_ORDER:
                rank = order_rank(h, coords)
                kinds.append(L.HK_FIRST if np.array_equal(rank, numbering) else L.HK_ORDER)
                pof.append(1)
                ranks.append(rank)
            else:
                kinds.append(L.HK_NEIGHBOURS if h.letter == "e" else L.HK_FITS)
                pof.append(0)
                ranks.append(numbering)
        rank = np.ascontiguousarray(np.array(ranks, dtype=np.int64))
        return cls(schedule, np.array(kinds, dtype=np.int64), np.array(pof, dtype=np.uint8),
                   rank, np.argsort(numbering, kind="stable").astype(np.int64),
                   first_cells(puzzle, rank), tuple(entry_h), ilsi_neighbours(puzzle),
                   bool(nof))

    def e_below(self, pieces: int) -> np.ndarray:
        """uint8 per level of a subproblem with ``pieces`` pieces: 1 if a deeper level uses E,
        whose open-neighbour counts the search then keeps up to date on placing there."""
        key = ("e_below", pieces)
        if key not in self._levels:
            uses_e = self.kinds[self.heuristic_of_level(pieces)] == L.HK_NEIGHBOURS
            below = np.zeros(pieces + 1, dtype=np.uint8)
            for level in range(pieces):
                below[level] = bool(uses_e[level + 1:pieces].any())
            self._levels[key] = below
        return self._levels[key]

    def heuristic_of_level(self, pieces: int) -> np.ndarray:
        """``h`` at each level of a subproblem with ``pieces`` pieces (level ``l`` has
        ``pieces - l`` remaining)."""
        if pieces not in self._levels:
            self._levels[pieces] = np.array(
                [self.entry_h[self.schedule.at(pieces - l)] for l in range(pieces + 1)],
                dtype=np.int64)
        return self._levels[pieces]


@dataclass
class FilaProblem:
    """A compiled (sub)problem: its cells, shapes, and image list sets (see ``fila_lists``)."""

    words: int
    cells: np.ndarray           # puzzle cell of each bit
    n_shapes: int
    n_pieces: int
    left: np.ndarray            # pieces left per local shape
    heur_of_level: np.ndarray
    heur_kind: np.ndarray
    width: int                  # most unknown neighbours of a cell (terms of the ILSI)
    ilsi: np.ndarray
    lptr: np.ndarray
    nonempty: np.ndarray
    lmask: np.ndarray
    limg: np.ndarray
    nbmask: np.ndarray
    order: np.ndarray
    planes: np.ndarray          # open neighbours of each cell at the root (three bit planes)
    e_below: np.ndarray         # [level]: a level below uses E (keep the planes up to date)
    nof: bool
    extra: dict = field(default_factory=dict)

    @property
    def n_cells(self) -> int:
        return len(self.cells)

    @property
    def n_sets(self) -> int:
        return (len(self.lptr) - 1) // max(self.n_shapes, 1)

    @property
    def n_entries(self) -> int:
        return len(self.limg)


def words_for(n_cells: int) -> int:
    return max(1, -(-n_cells // WORD))


def too_many_cells(n_cells: int, where: str) -> EngineUnavailable:
    return EngineUnavailable(
        f"FILA handles at most {MAX_CELLS} open cells (four 64-bit words), but {where} has "
        f"{n_cells}; use --engine hybrid with a smaller --fila-at (DLX places the first pieces), "
        f"or --engine dlx")


def too_many_shapes(n_shapes: int) -> EngineUnavailable:
    return EngineUnavailable(f"FILA handles at most {L.MAX_SHAPES} distinct shapes at once, "
                             f"this problem has {n_shapes}")


def too_many_entries() -> EngineUnavailable:
    return EngineUnavailable(f"the image lists of this problem need more than "
                             f"{MAX_ENTRIES:,} entries")


def compile_problem(puzzle: Puzzle, plan: FilaPlan, is_open: np.ndarray,
                    image_ids: np.ndarray, left_by_shape: np.ndarray,
                    words: int | None = None) -> FilaProblem:
    """Compile the subproblem whose open cells are those with ``is_open[c]`` (a mask over the
    puzzle's cells), with images ``image_ids`` (puzzle image numbers, each inside the open
    cells) and ``left_by_shape[s]`` pieces of each puzzle shape still to place.  ``words``
    forces a wider occupancy (tests).  Kept lean: the hybrid calls it once per subproblem."""
    is_open = np.ascontiguousarray(is_open, dtype=np.uint8)
    n = int(np.count_nonzero(is_open))
    if n > MAX_CELLS:
        raise too_many_cells(n, "the region")
    left_by_shape = np.ascontiguousarray(left_by_shape, dtype=np.int64)
    n_shapes = int(np.count_nonzero(left_by_shape > 0))
    if n_shapes > L.MAX_SHAPES:
        raise too_many_shapes(n_shapes)
    w = words_for(n) if words is None else int(words)
    if not words_for(n) <= w <= MAX_WORDS:
        raise EngineUnavailable(f"cannot hold {n} cells in {w} words")
    images = puzzle.images
    extra = {}
    nof = plan.nof
    while True:
        built = _BUILD_LISTS(WTAGS[w], plan.by_number, is_open, left_by_shape, plan.neighbours,
                             plan.rank, plan.pof, plan.pof_first, nof, image_ids,
                             images.shape, images.cell_ptr, images.cell_idx, MAX_ENTRIES)
        if built[0] >= 0 or not nof:
            break
        nof = False
        extra["nof_dropped"] = NOF_DROPPED
    n_entries, width, cells, left, ilsi, lptr, nonempty, lmask, limg, nbmask, order, planes = built
    if n_entries < 0:
        raise too_many_entries()
    n_pieces = int(left.sum())
    return FilaProblem(w, cells, len(left), n_pieces, left, plan.heuristic_of_level(n_pieces),
                       plan.kinds, int(width), ilsi, lptr, nonempty, lmask, limg, nbmask, order,
                       planes, plan.e_below(n_pieces), nof, extra)


#: ``wtag`` for each word count: its length is the word count numba specialises on.
WTAGS = {w: (0,) * w for w in range(1, MAX_WORDS + 1)}


class FilaSearch:
    """Resumable FILA searches of problems with ``n_pieces`` pieces, one after another (the
    hybrid loads each subproblem into the same arrays).  ``step`` runs until ``max_new``
    solutions or ``node_budget`` placements; solutions (arrays of puzzle image numbers, one per
    level) go to ``on_rows`` or accumulate in ``found``.  Counters and the per-level
    ``attempts`` / ``fits`` add up over every problem loaded."""

    def __init__(self, n_pieces: int, store: bool = True, buffer: int = BUFFER,
                 on_rows: Callable[[np.ndarray], None] | None = None):
        p = n_pieces
        self.n_pieces = p
        self.occ_stack = np.zeros((p + 1) * MAX_WORDS, dtype=np.uint64)
        self.planes = np.zeros((p + 1) * 3 * MAX_WORDS, dtype=np.uint64)
        self.lv = np.zeros((p + 1, L.LV_SIZE), dtype=np.int64)
        self.chosen = np.zeros(p + 1, dtype=np.int32)
        self.path = np.full(p + 1, -1, dtype=np.int32)
        self.attempts = np.zeros(p + 1, dtype=np.int64)
        self.fits = np.zeros(p + 1, dtype=np.int64)
        self.cand = np.zeros(MAX_CELLS, dtype=np.int64)
        self.state = np.zeros(L.STATE_SIZE, dtype=np.int64)
        self.counters = np.zeros(L.COUNTERS_SIZE, dtype=np.int64)
        self.store = bool(store)
        self.buffer = buffer
        self.sol_buf = np.zeros((buffer if store else 1, max(p, 1)), dtype=np.int32)
        self.found: list[np.ndarray] = []
        self.on_rows = on_rows
        self.problem: FilaProblem | None = None
        self._images: tuple[FilaProblem, fila_sanity.ImageTable] | None = None
        self.finished = True
        self.at_stop = False

    def load(self, problem: FilaProblem) -> None:
        """Start searching ``problem`` (which must have ``n_pieces`` pieces)."""
        if problem.n_pieces != self.n_pieces:
            raise ValueError(f"a problem of {problem.n_pieces} pieces in a search sized for "
                             f"{self.n_pieces}")
        self.problem = problem
        self.wtag = WTAGS[problem.words]
        self.left = problem.left.copy()
        w, v = problem.words, problem.n_cells
        full, rest = divmod(v, WORD)
        self.occ_stack[:w] = np.uint64(0xFFFFFFFFFFFFFFFF)    # bits past the cells stay set
        self.occ_stack[:full] = 0
        if rest:
            self.occ_stack[full] = np.uint64(0xFFFFFFFFFFFFFFFF) << np.uint64(rest)
        self.planes[:3 * w] = problem.planes
        self.state[:] = 0
        self.state[L.ST_AVAIL] = (1 << problem.n_shapes) - 1
        self.state[L.ST_STOP] = -1
        self.finished = False
        self.at_stop = False

    def stop_at(self, level: int) -> None:
        """Stop (``at_stop``) on entering ``level`` of the loaded problem (-1: never).  Split
        runs collect their subproblems there (``chosen[:level]`` is the path)."""
        self.state[L.ST_STOP] = level

    @property
    def level(self) -> int:
        return int(self.state[L.ST_LEVEL])

    def replay(self, path: np.ndarray) -> bool:
        """Walk from the root of the loaded problem down ``path`` (the image placed at each
        level) as the search first reached that node, and make the search end when it has
        searched the subtree there.  Nothing is counted on the way.  False if the path is not
        a branch of this problem."""
        depth = len(path)
        self.path[:depth] = path
        saved = (self.attempts.copy(), self.fits.copy(), self.counters.copy())
        self.state[L.ST_FLOOR] = depth
        self.state[L.ST_STOP] = depth
        status = self._run(np.int64(1), np.int64(1 << 62))
        self.attempts[:], self.fits[:], self.counters[:] = saved
        if status != L.AT_STOP:
            self.finished = True
            return False
        self.state[L.ST_PC] = L.PC_ENTER
        self.state[L.ST_STOP] = -1
        self.state[L.ST_NBUF] = 0
        return True

    def _run(self, max_in_buf: np.int64, node_budget: np.int64) -> int:
        pr = self.problem
        return _SEARCH(self.wtag, pr.n_cells, pr.n_shapes, pr.n_pieces, pr.width,
                       pr.heur_of_level, pr.heur_kind, pr.e_below, pr.lmask, pr.limg, pr.lptr,
                       pr.nonempty, pr.ilsi, pr.nbmask, pr.order, self.left,
                       self.occ_stack, self.planes, self.lv, self.chosen, self.attempts, self.fits,
                       self.cand, self.state, self.counters, self.sol_buf, self.store,
                       max_in_buf, node_budget, self.path)

    def _check(self) -> None:
        """The sanity check of the state between two kernel calls (``fila_sanity``)."""
        pr = self.problem
        if self._images is None or self._images[0] is not pr:
            self._images = (pr, fila_sanity.ImageTable(pr))
        fila_sanity.check(pr, self._images[1], self.state, self.occ_stack, self.chosen,
                          self.left, self.planes)

    @property
    def solutions(self) -> int:
        return int(self.counters[L.CT_SOLUTIONS])

    @property
    def nodes(self) -> int:
        return int(self.counters[L.CT_NODES])

    @property
    def deepest(self) -> int:
        """The most pieces placed at a node so far, in the problems loaded (their levels)."""
        return int(np.count_nonzero(self.fits))

    @property
    def heuristic_checks(self) -> int:
        return int(self.counters[L.CT_HEURISTIC_CHECKS])

    def step(self, max_new: int, node_budget: int) -> tuple[bool, int]:
        if self.finished:
            return True, 0
        pr = self.problem
        before = self.solutions
        self.state[L.ST_NBUF] = 0
        cap = self.buffer if self.store else (1 << 62)
        every = sanity.every()
        if every:
            status = sanity.run_checked(
                lambda piece: self._run(np.int64(min(cap, max_new)), np.int64(piece)),
                self._check, int(node_budget), every, L.BUDGET_SPENT)
        else:
            status = self._run(np.int64(min(cap, max_new)), np.int64(node_budget))
        if self.store:
            for k in range(int(self.state[L.ST_NBUF])):
                rows = self.sol_buf[k, :pr.n_pieces].copy()
                if self.on_rows is None:
                    self.found.append(rows)
                else:
                    self.on_rows(rows)
        self.finished = status == L.DONE
        self.at_stop = status == L.AT_STOP
        return self.finished, self.solutions - before


def _warm_up(words: int) -> None:
    """Compile or load the kernels for ``words``-word occupancies on a 2x2 square of dominoes."""
    from ....models.tiling import Piece

    puzzle = Puzzle([Piece("a", ((0, 0, 0), (1, 0, 0))), Piece("b", ((0, 0, 0), (1, 0, 0)))],
                    box=(2, 2, 1))
    plan = FilaPlan.build(puzzle, parse_schedule("e:f=1", FILA_LETTERS))
    problem = compile_problem(puzzle, plan, np.ones(puzzle.n_cells, dtype=np.uint8),
                              np.arange(len(puzzle.images)), shape_counts(puzzle), words=words)
    for store in (True, False):
        search = FilaSearch(problem.n_pieces, store=store, buffer=4)
        search.load(problem)
        while not search.step(10, 1)[0]:
            pass


def jit_seconds(words: int = 1) -> float:
    return warm(f"fila ({words}-word occupancy)", lambda: _warm_up(words))


def shape_counts(puzzle: Puzzle) -> np.ndarray:
    return np.array([s.count for s in puzzle.shapes], dtype=np.int64)


def solve_tiling(puzzle: Puzzle, *, heuristic: str = "f", nof: bool | None = None,
                 limit: int | None = None, time_limit: float | None = None,
                 count_only: bool = False, keep: np.ndarray | None = None,
                 on_images: Callable[[np.ndarray], None] | None = None,
                 on_progress: Callable[[dict[str, int]], None] | None = None) -> Result:
    """Enumerate the raw tilings of ``puzzle`` with FILA alone (at most 256 free cells).

    ``heuristic`` is a schedule of FILA heuristics (``f``, ``x``, ``y``, ``z``, ``r``,
    ``a@DEG``, ``e``, ``s``; e.g. ``e:f=3``); ``nof`` switches neighbour occupancy filtering
    (default: on unless every piece has the same shape, where it filters little).
    ``keep``, ``on_images`` and ``on_progress`` work as for DLX
    (``cpkit.engines.exact_cover.dlx.dlx_search.solve_tiling``).
    """
    schedule = check_puzzle(puzzle, heuristic)
    jit = jit_seconds(words_for(puzzle.n_cells))
    plan = FilaPlan.build(puzzle, schedule, len(puzzle.shapes) > 1 if nof is None else nof)
    image_ids = np.flatnonzero(keep) if keep is not None else np.arange(len(puzzle.images))
    problem = compile_problem(puzzle, plan, np.ones(puzzle.n_cells, dtype=np.uint8), image_ids,
                              shape_counts(puzzle))
    search = FilaSearch(problem.n_pieces, store=on_images is not None or not count_only,
                        on_rows=on_images)
    search.load(problem)
    outcome = drive(search.step, limit=limit, time_limit=time_limit,
                    on_progress=reporter(search, on_progress))
    n = problem.n_pieces
    stats = Stats(nodes=search.nodes, fits_by_remaining=by_remaining(search.fits, n),
                  attempts_by_remaining=by_remaining(search.attempts, n),
                  extra={"heuristic_checks": search.heuristic_checks,
                         "image_list_sets": problem.n_sets, "list_entries": problem.n_entries,
                         "max_words": problem.words,
                         "nof_dropped_in": int("nof_dropped" in problem.extra)})
    tilings = [puzzle.tiling_from_images(rows) for rows in search.found]
    return result_of(puzzle, Figures.of_outcome(outcome, search.solutions, jit, stats, tilings),
                     str(schedule), problem.nof, len(image_ids))


def result_of(puzzle: Puzzle, figures: Figures, heuristic: str, nof: bool,
              images: int) -> Result:
    """The ``Result`` of FILA alone on ``puzzle`` (``tiling_result``: the one place, for a run
    in one process and a split one, which runs FILA as the hybrid switched at the root):
    FILA's counters (as ``HybridSearch.stats`` names them: the largest occupancy words,
    problems that dropped NOF) and its options."""
    counters = figures.stats.extra
    extra = {"heuristic_checks": counters.get("heuristic_checks", 0),
             "image_list_sets": counters.get("image_list_sets", 0),
             "list_entries": counters.get("list_entries", 0),
             "words": counters.get("max_words", 0)}
    if counters.get("nof_dropped_in"):
        extra["nof_dropped"] = NOF_DROPPED
    return raw_result(puzzle, ENGINE, figures, extra,
                      {"heuristic": heuristic, "nof": nof, "images": images})


def check_puzzle(puzzle: Puzzle, heuristic: str = "f", **_options) -> Schedule:
    """Reject what FILA alone cannot do, before any work: returns the parsed schedule."""
    schedule = parse_schedule(heuristic, FILA_LETTERS, "FILA")
    if puzzle.n_cells > MAX_CELLS:
        raise too_many_cells(puzzle.n_cells, "this puzzle")
    return schedule


solve_tiling.precheck = check_puzzle
