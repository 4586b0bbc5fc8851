"""The estimates ``--engine auto``'s choice is made of (``tiling_autoconfig``): an option
(orientation, switch, FILA letters per level, constrained piece) priced in seconds on the
subproblems DLX hands over at its switch.

``Prober`` draws up to ``SAMPLED`` nodes at the switch depth by random DLX descents, the first
level covered evenly (Knuth's estimator, ``Frontier``), compiles each node's subproblem, and
estimates searching it with the option's letters from a population of ``POPULATION`` nodes per
level (``fila_probe``), priced by ``cost_model``.  Fronts, searches and drawn nodes are made
once per orientation, switch and piece and shared by the probers of one choice (``Prepared``),
so that a coarse and a fine estimate of one option descend the same search.  Everything is
seeded (``SEED``): a puzzle gets the same estimates on every run.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ....models import reorient
from ...exact_cover.dlx import dlx_layout
from . import tiling_cost_model as cost_model
from .tiling_candidates import Candidate, turns_from_first
from ..fila import fila_search as fila, fila_probe
from ..hybrid import hybrid_search as hybrid
from .. import tiling_front as tiling
from ...runtime.driver import check_setup
from .tiling_schedules import config_of

#: Nodes kept per level by an estimate of one subproblem (``fila_probe.Sampler``); more when
#: fewer than ``SAMPLED`` subproblems are drawn, so that every estimate samples about as many.
POPULATION = 200
#: Nodes drawn at the switch depth, whose subproblems' searches are estimated (twice as many
#: when DLX places more than one piece).
SAMPLED = 8

#: A switch deeper than the default is estimated only if its frontier is estimated at no
#: more nodes than this: each of the ``2 * SAMPLED`` nodes drawn there stands for more than
#: 60, and the estimates fell to 0.4-0.5 of the search (the PT diamond at 12 and 11 pieces:
#: 7,538 and 14,358 nodes; the Tetris Cube at 9: 4,287) where those of the switches chosen on
#: the bundled boxes (5 to 292 nodes) came within 1.5 times.
DEEPEST_FRONTIER = 1000
#: Occupancy words the estimates go up to: a switch may leave FILA up to this many words of
#: open cells (the kernels built ahead of time cover them, ``tiling_ahead``).  Three, not two:
#: boxes of 130 to 150 cells cut into decominoes searched in 0.006-0.025 s with FILA from the
#: first piece (three words), in 0.03-2.0 s from 12 pieces, the highest switch on two.
WORDS = 3
#: Rounds of draws at most, while too few reach the switch (``Prober.frontier``).
MAX_ROUNDS = 16
#: The seed of every estimate.
SEED = 54


@dataclass(frozen=True)
class Option:
    """A configuration: orientation (index of a candidate), switch, FILA heuristic per level
    from ``fila_at`` pieces remaining down to one, and the piece the redundancy filter
    constrains (None: the front options' choice)."""

    orientation: int
    fila_at: int
    letters: str
    piece: str | None = None


@dataclass
class Estimate:
    option: Option
    seconds: float
    subproblems: int


class Prober:
    """Estimates of options on the candidates of one puzzle (subproblems listed and compiled
    once per orientation and switch)."""

    def __init__(self, cands: list[Candidate], front_options: dict[str, Any], nof: bool,
                 scale: int = 1, shared: "Prepared | None" = None, sampled: int = SAMPLED,
                 population: int = POPULATION):
        """``sampled`` nodes drawn at the switch and a ``population`` per level, both times
        ``scale`` (a finer or coarser prober shares another's fronts and searches,
        ``shared``)."""
        self.cands = cands
        self.front_options = front_options
        self.nof = nof
        self.scale = scale
        self.sampled = sampled
        self.population = population
        self.samplers: dict[int, fila_probe.Sampler] = {}
        self.shared = Prepared() if shared is None else shared
        self._frontiers: dict[tuple, Frontier | None] = {}
        self._samples: dict[tuple, tuple | None] = {}
        self.made: dict[Option, Estimate | None] = {}

    def redundancy(self, piece: str | None):
        """The ``redundancy`` front option for ``piece`` (None: as given)."""
        return self.front_options.get("redundancy", "auto") if piece is None else piece

    def front(self, k: int, piece: str | None = None) -> tiling.Front:
        """Orientation ``k``'s front preparation, with ``piece`` constrained, for estimates:
        the first orientation's carried through the turn if it was made (``tiling.turned``:
        a millisecond where preparing took 7-40), else made (``prepared``)."""
        fronts = self.shared.fronts
        if (k, piece) not in fronts:
            first = fronts.get((0, piece)) if k else None
            if first is None or first.proof is not None:
                return self.prepared(k, piece)
            turns = self.shared.turns = self.shared.turns or turns_from_first(self.cands)
            c0, ck = self.cands[0].puzzle, self.cands[k].puzzle
            turn = reorient.nearest_the_start(first.plan, c0, ck, turns[k])
            fronts[k, piece] = tiling.turned(
                first, reorient.correspond(c0, turns[0][0], ck, turn), ck)
            self.shared.turned.add((k, piece))
        return fronts[k, piece]

    def prepared(self, k: int, piece: str | None = None) -> tiling.Front:
        """Orientation ``k``'s front made for it, for the search: the redundancy filter keeps
        the images packed towards the low corner of the orientation's own numbering, where
        the fill starts; those carried through a turn from another orientation's corner
        searched the one-sided 30 x 3 8% slower."""
        fronts = self.shared.fronts
        if (k, piece) not in fronts or (k, piece) in self.shared.turned:
            self.shared.turned.discard((k, piece))
            options = dict(self.front_options, redundancy=self.redundancy(piece))
            fronts[k, piece] = tiling.prepare(
                self.cands[k].puzzle, engine_name="auto", engine_fn=hybrid.solve_tiling,
                **options)
        return fronts[k, piece]

    def frontier(self, k: int, fila_at: int, piece: str | None = None) -> "Frontier | None":
        """A sample of the nodes DLX hands over at ``fila_at`` pieces remaining (see
        ``Frontier``), or None if the puzzle needs no search or the switch leaves more cells
        than ``WORDS`` words."""
        key = (k, fila_at, piece)
        if key not in self._frontiers:
            self._frontiers[key] = self._descend(k, fila_at, piece)
        return self._frontiers[key]

    def _descend(self, k: int, fila_at: int, piece: str | None) -> "Frontier | None":
        puzzle = self.cands[k].puzzle
        front = self.front(k, piece)
        if front.proof is not None or fila_at <= 0 or \
                hybrid.largest_volume(puzzle, fila_at) > WORDS * fila.WORD:
            return None
        options = in_search(front)
        config = config_of(fila_at, "f" * fila_at, self.nof)
        searches = self.shared.searches
        if (k, fila_at, piece) not in searches:
            searches[k, fila_at, piece] = hybrid.build_search(puzzle, config, front.keep,
                                                              store=False, **options)[0]
        search = searches[k, fila_at, piece]
        depth = puzzle.n_pieces - fila_at
        if depth == 0:
            return Frontier(search, [np.zeros(0, dtype=np.int32)], np.ones(1), 0.0, False)
        dlx = search.dlx
        search.reset()
        _, _, degrees = dlx.descend(np.full(1, -1, dtype=np.int32), target=1)
        branches = int(degrees[0]) if len(degrees) else 0
        wanted = self.sampled * self.scale
        draws = wanted if depth == 1 and branches > wanted else \
            (branches if depth == 1 else 2 * wanted)
        rng = np.random.default_rng(SEED)
        paths, weights, above = [], [], np.zeros(depth)
        draws = max(draws, 1)
        n = 0
        # Rounds of draws until ``wanted`` of them (or every draw of a round, when fewer are
        # drawn) reach the switch, the estimate the mean over every draw made: a round whose
        # descents all end early says nothing of the subproblems.  The one-sided pentominoes
        # in 18 x 5 (18 pieces, 6 placed by DLX) lost all four of the glance's descents at 12
        # pieces and were estimated at 0.08 s (the search above the switch alone) for a
        # search of over 300 s.
        for _ in range(MAX_ROUNDS):
            for i in range(draws):
                check_setup()
                rand = rng.random(dlx.depth + 1)
                rand[0] = (i + 0.5) / draws         # the first level evenly covered
                search.reset()
                status, level, degree = dlx.descend(np.full(depth, -1, dtype=np.int32),
                                                    target=depth, rand=rand)
                reach = np.cumprod(degree.astype(np.float64))
                above[:len(reach)] += reach
                if status == dlx_layout.DESCENT_READY and level == depth:
                    paths.append(dlx.placed_rows())
                    weights.append(reach[-1] if len(reach) else 1.0)
            n += draws
            if len(paths) >= min(wanted, draws):
                break
        every = depth == 1 and draws == branches        # each branch of the one level once
        return Frontier(search, paths, np.array(weights) / n, float(above.sum() / n),
                        len(paths) < min(wanted, draws) and not every)

    def within_reach(self, option: Option) -> bool:
        """Whether ``option``'s switch is one its estimate can be trusted at: at most
        ``DEEPEST_FRONTIER`` nodes estimated there."""
        drawn = self.frontier(option.orientation, option.fila_at, option.piece)
        return drawn is not None and drawn.weights.sum() <= DEEPEST_FRONTIER

    def sample(self, option: Option):
        """The switch's sampled nodes (``frontier``) with their subproblems compiled for the
        heuristics of the option's letters, and that plan; or None (also for a ``thin``
        sample, which estimates nothing)."""
        k, fila_at, piece = option.orientation, option.fila_at, option.piece
        used = "".join(c for c in fila_probe.LETTERS if c in option.letters)
        key = (k, fila_at, piece, used)
        if key not in self._samples:
            drawn = self.frontier(k, fila_at, piece)
            if drawn is None or drawn.thin:
                self._samples[key] = None
            else:
                plan = fila_probe.sample_plan(self.cands[k].puzzle, used, self.nof)
                drawn.search.plan = plan
                problems = []
                for path in drawn.paths:
                    check_setup()
                    drawn.search.reset()
                    drawn.search.dlx.descend(path)
                    problems.append(drawn.search.subproblem())
                self._samples[key] = (drawn, problems, plan)
        return self._samples[key]

    def estimate(self, option: Option) -> Estimate | None:
        """The estimated search seconds of ``option``, or None if it cannot be estimated."""
        if option not in self.made:
            self.made[option] = self._estimate(option)
        return self.made[option]

    def _estimate(self, option: Option) -> Estimate | None:
        listed = self.sample(option)
        if listed is None:
            return None
        drawn, problems, plan = listed
        fila_total = 0.0
        entries = 0.0
        population = self.scale * max(self.population,
                                      self.sampled * self.population // max(len(problems), 1))
        if population not in self.samplers:
            self.samplers[population] = fila_probe.Sampler(population)
        sampler = self.samplers[population]
        for problem, weight in zip(problems, drawn.weights):
            letters = option.letters[len(option.letters) - problem.n_pieces:]
            figures = sampler.figures(problem, plan, letters, SEED)
            fila_total += weight * cost_model.fila_seconds(figures)
            entries += weight * fila_probe.list_entries(problem, plan, set(letters))
        nodes = float(drawn.weights.sum())
        seconds = cost_model.handover_seconds(drawn.dlx_fits, nodes, entries) + fila_total
        return Estimate(option, seconds, int(round(nodes)))


def in_search(front: tiling.Front) -> dict[str, Any]:
    """The front's options that a hybrid search takes: triggers and re-applied filters."""
    return {key: v for key, v in front.engine_options.items()
            if key in ("parity_trigger", "volume_trigger", "parity_filter_from",
                       "volume_filter_from")}


@dataclass
class Prepared:
    """What the probers of one choice share: the candidates' fronts by orientation and
    constrained piece (``turned``: those carried through a turn, not made for their own), and
    the searches their descents run, by orientation, switch and piece (a coarse and a fine
    estimate of one option descend the same search: building it took 4 ms of the 10 x 6's
    15 ms of choice)."""

    fronts: dict[tuple, tiling.Front] = field(default_factory=dict)
    turned: set[tuple] = field(default_factory=set)
    searches: dict[tuple, hybrid.HybridSearch] = field(default_factory=dict)
    turns: list[list[reorient.Turn]] = field(default_factory=list)   # turns_from_first


@dataclass
class Frontier:
    """Nodes drawn at the switch depth by random DLX descents, the first level covered evenly
    (Knuth's estimator): the paths that reach it, each with its weight (the product of the
    branching degrees above it over the number of draws, so that a sum of weighted figures
    estimates the sum over every node there), and the estimated DLX fits above it.

    ``thin``: fewer draws reached the switch than the sample wants, after every round
    (``MAX_ROUNDS``), but where one level's branches are each drawn once (exact).  Such a
    sample does not estimate the search, it bounds it from below (``Prober.sample`` and
    ``estimate`` then give None): where most descents die, the nodes at the switch lie in the
    few subtrees that do not.  On a 14 x 10 box cut into decominoes no draw reached 6 pieces
    (the default switch), estimated at 0.07 s (the DLX levels alone) and searched in 2.2 s,
    5,241 subproblems; on another, one and two draws reached 6 and 7 pieces, estimated at 0.03
    and 0.02 s, searched in 0.7 and 0.9 s.  At 12 pieces 16 and 14 draws reached it on these
    two, estimated at 0.16 and 0.08 s, searched in 0.22 s each."""

    search: hybrid.HybridSearch
    paths: list[np.ndarray]
    weights: np.ndarray
    dlx_fits: float
    thin: bool


def shortest(prober: Prober, options: list[Option]) -> Estimate | None:
    """The estimate ``prober`` finds shortest among ``options`` (the first of them on a tie),
    or None if none can be estimated."""
    found = [e for e in (prober.estimate(o) for o in options) if e is not None]
    return min(found, key=lambda e: (e.seconds, options.index(e.option))) if found else None
