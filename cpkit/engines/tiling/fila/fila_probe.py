"""Estimates of a FILA search's figures by stratified sampling (``_fila_probe.sample``).

The automatic configuration (``cpkit.engines.tiling.auto.tiling_autoconfig``) compares schedules on the very
subproblems the search would meet: ``Sampler.figures`` estimates, for a compiled subproblem
and a heuristic per level, how many attempts, fits, heuristic fit checks and nodes of each kind
searching it would take.  Samples are seeded, so an estimate is a function of the problem, the
schedule and the seed: the same on every run and for every turn of a puzzle's file.
"""

from __future__ import annotations

import numpy as np

from .... import _aot
from . import fila_layout as L
from .fila_search import MAX_WORDS, WTAGS, FilaPlan, FilaProblem
from ..tiling_heuristics import FILA_LETTERS, parse_schedule
from ...runtime.jit import warm

#: The sampling kernel, from its extension when built ahead of time (``cpkit._aot``).
_SAMPLE = _aot.Kernel("fila_sample")

#: The letters an estimate can follow.
LETTERS = "esf"


def sample_plan(puzzle, letters: str, nof: bool) -> FilaPlan:
    """A plan whose compiled subproblems can be estimated with any schedule of the heuristics
    ``letters`` (some of E, S, F); cells are numbered in F's order, the search's numbering for
    any schedule of them."""
    used = [c for c in LETTERS if c in letters]
    spec = ":".join(c if k == 0 else f"{c}={len(used) - k}" for k, c in enumerate(used))
    return FilaPlan.build(puzzle, parse_schedule(spec, FILA_LETTERS), nof)


def levels(plan: FilaPlan, letters: str) -> tuple[np.ndarray, np.ndarray]:
    """``heur_of_level`` and ``e_below`` for a subproblem whose level ``l`` uses the heuristic
    ``letters[l]`` (``letters`` has one letter per piece of the subproblem)."""
    index = {str(h): k for k, (h, _) in enumerate(plan.schedule.entries)}
    h_of = np.array([plan.entry_h[index[c]] for c in letters + letters[-1:]], dtype=np.int64)
    uses_e = plan.kinds[h_of] == L.HK_NEIGHBOURS
    below = np.zeros(len(letters) + 1, dtype=np.uint8)
    for level in range(len(letters)):
        below[level] = bool(uses_e[level + 1:len(letters)].any())
    return h_of, below


def list_entries(problem: FilaProblem, plan: FilaPlan, letters: set[str]) -> int:
    """The image list entries a plan of the heuristics ``letters`` builds for ``problem``: the
    sampling plan's entries for those heuristics (each heuristic's sets are consecutive)."""
    q = max(problem.n_shapes, 1)
    v = problem.n_cells
    index = {str(h): plan.entry_h[k] for k, (h, _) in enumerate(plan.schedule.entries)}
    total = 0
    for letter in letters:
        h = index[letter]
        first = problem.ilsi[h * v * L.IL_SIZE + L.IL_FIRST]
        last = problem.ilsi[(h + 1) * v * L.IL_SIZE + L.IL_FIRST] \
            if h + 1 < len(plan.kinds) else problem.n_sets
        total += int(problem.lptr[last * q] - problem.lptr[first * q])
    return total


class Sampler:
    """Scratch arrays for estimates with a population of ``population`` nodes per level."""

    def __init__(self, population: int):
        n = int(population)
        self.population = n
        self.occ = np.zeros(n * MAX_WORDS, dtype=np.uint64)
        self.kids_occ = np.zeros(n * MAX_WORDS, dtype=np.uint64)
        self.planes = np.zeros(n * 3 * MAX_WORDS, dtype=np.uint64)
        self.kids_planes = np.zeros(n * 3 * MAX_WORDS, dtype=np.uint64)
        self.left = np.zeros(n * L.MAX_SHAPES, dtype=np.int64)
        self.kids_left = np.zeros(n * L.MAX_SHAPES, dtype=np.int64)
        self.avail = np.zeros(n, dtype=np.int64)
        self.kids_avail = np.zeros(n, dtype=np.int64)
        self.weight = np.zeros(2 * n, dtype=np.float64)
        self.first_pick = np.zeros(n + 1, dtype=np.int64)
        self.picks = np.zeros(2, dtype=np.int64)
        self.cand = np.zeros(MAX_WORDS * 64, dtype=np.int64)
        self.counters = np.zeros(L.COUNTERS_SIZE, dtype=np.int64)
        # What every estimate of one schedule, one problem or one seed shares (the automatic
        # configuration estimates each subproblem with several schedules and seeds them alike).
        self._levels: dict[tuple[int, str], tuple[FilaPlan, tuple[np.ndarray, np.ndarray]]] = {}
        self._widest: dict[int, tuple[FilaProblem, int]] = {}
        self._rand: dict[tuple[int, int], np.ndarray] = {}

    def figures(self, problem: FilaProblem, plan: FilaPlan, letters: str, seed: int
                ) -> np.ndarray:
        """Estimates (``_fila_probe`` columns) for searching ``problem`` (compiled with
        ``plan``, see ``sample_plan``) with heuristic ``letters[l]`` at level ``l``."""
        if len(letters) != problem.n_pieces or set(letters) - set(LETTERS):
            raise ValueError(f"one of {LETTERS} per level of a {problem.n_pieces}-piece "
                             f"problem, got {letters!r}")
        known = self._levels.get((id(plan), letters))
        if known is None or known[0] is not plan:
            known = self._levels[id(plan), letters] = (plan, levels(plan, letters))
        h_of, below = known[1]
        seen = self._widest.get(id(problem))
        if seen is None or seen[0] is not problem:
            seen = self._widest[id(problem)] = (problem, int(np.max(np.diff(
                problem.lptr[::max(problem.n_shapes, 1)]))) if problem.n_shapes else 0)
        widest = seen[1]
        if len(self.picks) < 2 * widest * self.population + 2:
            self.picks = np.zeros(2 * widest * self.population + 2, dtype=np.int64)
        rand = self._rand.get((seed, problem.n_pieces))
        if rand is None:
            rand = self._rand[seed, problem.n_pieces] = \
                np.random.default_rng(seed).random(problem.n_pieces + 1)
        totals = np.zeros(L.N_FIGURES, dtype=np.float64)
        _SAMPLE(WTAGS[problem.words], problem.n_cells, problem.n_shapes, problem.n_pieces,
                problem.width, h_of, problem.heur_kind, below, problem.lmask, problem.lptr,
                problem.nonempty, problem.ilsi, problem.nbmask, problem.planes, problem.left,
                self.population, rand, self.occ, self.planes, self.left, self.avail,
                self.weight, self.kids_occ, self.kids_planes, self.kids_left, self.kids_avail,
                self.picks, self.first_pick, self.cand, self.counters, totals)
        return totals


def _warm_up(words: int = 1) -> None:
    """Compile or load the sampling kernel for ``words``-word occupancies on a 2x2 square of
    dominoes."""
    from ....models.tiling import Piece, Puzzle
    from .fila_search import compile_problem, shape_counts

    puzzle = Puzzle([Piece("a", ((0, 0, 0), (1, 0, 0))), Piece("b", ((0, 0, 0), (1, 0, 0)))],
                    box=(2, 2, 1))
    plan = sample_plan(puzzle, "ef", True)
    problem = compile_problem(puzzle, plan, np.ones(puzzle.n_cells, dtype=np.uint8),
                              np.arange(len(puzzle.images)), shape_counts(puzzle), words=words)
    Sampler(4).figures(problem, plan, "ef", 0)


def jit_seconds(words: int = 1) -> float:
    return warm(f"fila probes ({words}-word occupancy)", lambda: _warm_up(words))
