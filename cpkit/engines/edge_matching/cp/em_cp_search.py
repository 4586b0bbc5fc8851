"""The ColorPair CP engine for edge matching (Benoist & Bourreau, sections 3 to 5.1).

``CpSearch`` owns one search (the propagator state of ``cpkit.propagators.colorpair``, the
decision stack, the candidate buffer, a solution buffer) and advances it in slices;
``solve`` chains one search per symmetry root and wraps the outcome into a ``Result``.

``nodes`` counts the placements made by branching; ``propagated`` those forced by the
instantiation rule.
"""

from __future__ import annotations

from functools import partial
from typing import Callable, Sequence

import numpy as np

from ....errors import InputError
from ....models.edge_matching import BoardSolution, EdgeMatchingPuzzle, Hint
from .... import sanity
from ....propagators import colorpair_build, colorpair_sanity
from ....propagators import colorpair_layout as lay
from ....result import Figures, Result
from . import em_cp_kernel as K
from ..em_front import DEFAULT_SHAVE, BufferedSearch, run_roots, shave_limit
from ..em_result import chain_figures, search_result
from ...runtime.jit import warm
from .em_cp_options import (AUTO_ORDER, DEFAULT_BACKJUMP, DEFAULT_HEURISTIC, DEFAULT_SHARED_EDGE,
                             HEURISTICS, SCAN_BELOW)

ENGINE = "cp"
BUFFER = 1024
#: Decisions made by each of the four patterns, counted apart (whole numbers add up over roots
#: and a split run's parts); the result lists them as ``pattern_decisions``.
PATTERN_KEYS = tuple(f"pattern_{k}_decisions" for k in range(1, 5))


def inner_candidates(puzzle: EdgeMatchingPuzzle) -> float:
    """How many orientations an inner cell whose west and south sides are known expects to
    fit: the inner tiles' four rotations each, times the chance that two sides drawn at random
    from the board's inner edges (the inner tiles' sides and the frame tiles' inner sides) show
    the same colour, squared (two sides to match)."""
    sides: dict[int, int] = {}
    inner = 0
    for tile in puzzle.tiles:
        grey = [s for s in range(4) if tile[s] == 0]
        if not grey:
            inner += 1
            shown = list(tile)
        elif len(grey) == 1:
            shown = [tile[(grey[0] + 2) % 4]]
        else:
            continue
        for colour in shown:
            sides[colour] = sides.get(colour, 0) + 1
    total = sum(sides.values())
    if not total:
        return 0.0
    match = sum((n / total) ** 2 for n in sides.values())
    return 4 * inner * match * match


def order_for(puzzle: EdgeMatchingPuzzle) -> str:
    """The order ``heuristic="auto"`` searches ``puzzle`` in: the brute force's column scan
    when an inner cell with two known sides expects fewer than ``SCAN_BELOW`` candidates (the
    interior is tight: a region grown from the hinted corner, each tile meeting two placed
    sides, fails fastest), else the paper's pair heuristic ``min-expected-gap``, which fills
    the frame first and wins where the interior is loose (docs/algorithms.md, "Why the
    default order loses")."""
    return "scan" if inner_candidates(puzzle) < SCAN_BELOW else "min-expected-gap"


def check_heuristic(heuristic: str) -> None:
    if heuristic not in HEURISTICS:
        raise InputError(f"unknown heuristic {heuristic!r}; expected one of "
                         f"{', '.join(HEURISTICS)}")
DEFAULT_CYCLES = True


class CpSearch(BufferedSearch):
    """A resumable ColorPair search of one puzzle; its hints are the root placements."""

    def __init__(self, puzzle: EdgeMatchingPuzzle, *, heuristic: str = DEFAULT_HEURISTIC,
                 contradiction: bool = True, instantiation: bool = True,
                 preemption: bool = True, opposite: bool = True,
                 backjump: bool = DEFAULT_BACKJUMP, shave: int | str = DEFAULT_SHAVE,
                 shared_edge: bool = DEFAULT_SHARED_EDGE, cycles: bool = DEFAULT_CYCLES,
                 store: bool = True, buffer: int = BUFFER,
                 on_orientations: Callable[[np.ndarray], None] | None = None,
                 placements: tuple[Sequence[int], Sequence[int]] | None = None):
        """``placements`` (cells, orientations) replaces the puzzle's hints as the root
        placements (a split run's subproblem: a root plus the decisions that reach it)."""
        check_heuristic(heuristic)
        if heuristic == AUTO_ORDER:
            heuristic = order_for(puzzle)
        a = puzzle.arrays
        colorpair_build.check_fits(a)
        root_cells, root_oris = (a.hint_cell, a.hint_ori) if placements is None else placements
        n_roots = len(root_cells)
        limit = shave_limit(shave, a.n_orientations)
        exclusions = K.exclusion_capacity(a.n_cells, limit)
        self.st, self.m, self.g = colorpair_build.build_state(
            a, contradiction=contradiction, instantiation=instantiation, preemption=preemption,
            opposite=opposite, heuristic=K.HEURISTICS[heuristic], explain=backjump,
            shared_edge=shared_edge, cycles=cycles,
            search_sections=K.search_sections(a.n_cells, a.n_orientations, n_roots, exclusions),
            search_rows=K.search_rows(a.n_cells, exclusions))
        self.g[K.G_SHAVE] = limit
        self.g[K.G_XCAP] = exclusions
        head = self.g[K.O_XHEAD]
        self.m[head:head + a.n_cells] = -1
        scan = self.g[K.O_SCAN]
        self.m[scan:scan + a.n_cells] = a.scan_order
        root = self.g[K.O_ROOT]
        self.m[root:root + 2 * n_roots:2] = root_cells
        self.m[root + 1:root + 2 * n_roots:2] = root_oris
        self.g[K.G_N_ROOT] = n_roots
        self.g[K.G_PC] = K.PC_ROOT
        self.n_cells = a.n_cells
        self._init_buffer(a.n_cells, store, buffer, on_orientations)

    @property
    def solutions(self) -> int:
        return int(self.g[K.G_SOLUTIONS])

    def stop_after(self, decisions: int) -> None:
        """Stop at every node reached by ``decisions`` branching placements (``at_stop`` is
        then True after ``step``; ``decisions()`` lists them) and leave it unsearched, as if a
        solution were below it (no backjump crosses it); 0: never stop."""
        self.g[K.G_STOP] = max(0, int(decisions))

    def decisions(self) -> list[tuple[int, int]]:
        """The (cell, orientation) placed by branching at each level above the current one."""
        lv, cand = int(self.g[K.O_LV]), int(self.g[K.O_CAND])
        out = []
        for level in range(int(self.g[K.G_LEVEL])):
            r = lv + level * K.LV_STRIDE
            out.append((int(self.m[r + K.L_CELL]), int(self.m[cand + self.m[r + K.L_PTR] - 1])))
        return out

    @property
    def nodes(self) -> int:
        return int(self.g[K.G_NODES])

    def explored(self) -> float:
        """The share of the search tree behind the current node in depth-first order (0 to 1),
        as if the subtrees of every node were the same size (``tree_share``)."""
        if self.finished:
            return 1.0
        return K.explored(self.g, self.m)

    @property
    def deepest(self) -> int:
        return int(self.g[K.G_DEEPEST])

    def statistics(self) -> dict:
        g = self.g
        return {"propagated": int(g[lay.G_PROPAGATED]), "preempted": int(g[lay.G_PREEMPTED]),
                "failed_nodes": int(g[K.G_FAILS]), "dead_ends": int(g[K.G_DEAD_ENDS]),
                "backjumps": int(g[K.G_JUMPS]), "levels_skipped": int(g[K.G_SKIPPED]),
                "shave_trials": int(g[K.G_TRIALS]), "shave_removed": int(g[K.G_REMOVED]),
                "shave_placed": int(g[K.G_SHAVED_IN]), "shave_failed": int(g[K.G_SHAVED_FAIL]),
                **{key: int(v) for key, v in zip(PATTERN_KEYS, g[K.G_PATTERN:K.G_PATTERN + 4])},
                "heuristic_decisions": int(g[K.G_BY_HEURISTIC])}

    def _kernel(self, max_in_buf: np.int64, node_budget: np.int64) -> tuple[bool, bool, int]:
        self.g[K.G_NBUF] = 0
        every = sanity.every()
        if every:       # CPKIT_SANITY: the same slice in pieces, the state checked after each
            status = sanity.run_checked(
                lambda piece: K.search(self.st, self.m, self.g, self.sol_buf, self.deep_buf,
                                       self.store, max_in_buf, np.int64(piece)),
                lambda: colorpair_sanity.check(self.st, self.m, self.g),
                int(node_budget), every, K.BUDGET_SPENT)
        else:
            status = K.search(self.st, self.m, self.g, self.sol_buf, self.deep_buf, self.store,
                              max_in_buf, node_budget)
        return status == K.DONE, status == K.AT_STOP, int(self.g[K.G_NBUF])


def _warm_up() -> None:
    from ....models.em_generator import generate

    tiny = generate(3, border_colours=1, inner_colours=2, seed=0)
    tiny = tiny.with_hints(tiny.symmetry_roots("rotation")[0])
    for heuristic in K.HEURISTICS:
        for store in (True, False):
            s = CpSearch(tiny, heuristic=heuristic, store=store, buffer=2)
            while not s.step(10, 1)[0]:
                s.explored()                # compiled too: ``--engine auto`` reads it
    for backjump in (True, False):
        s = CpSearch(tiny, backjump=backjump, shave=2, store=False)
        s.step(10, 1 << 20)


def jit_seconds() -> float:
    return warm("em-cp", _warm_up)


def solve(puzzle: EdgeMatchingPuzzle, *, roots: Sequence[tuple[Hint, ...]],
          limit: int | None = None, time_limit: float | None = None, count_only: bool = False,
          on_solution: Callable[[BoardSolution], None] | None = None,
          heuristic: str = DEFAULT_HEURISTIC, contradiction: bool = True,
          instantiation: bool = True, preemption: bool = True, opposite: bool = True,
          backjump: bool = DEFAULT_BACKJUMP, shave: int | str = DEFAULT_SHAVE,
          shared_edge: bool = DEFAULT_SHARED_EDGE, cycles: bool = DEFAULT_CYCLES,
          on_progress: Callable[[dict[str, int]], None] | None = None) -> Result:
    """Every solution of ``puzzle`` under each root (hints), by ColorPair CP search.

    Components (each can be switched off; counts never change): the rules ``contradiction``,
    ``instantiation``, ``preemption`` and ``opposite`` pairs; ``backjump`` (explanations and
    conflict-directed backjumping, section 5.2); ``shave`` (a limit L, ``"all"``, or 0 for none;
    section 6.2); the remaining-tile rules ``shared_edge`` and ``cycles`` (section 4.2); the pair
    ``heuristic`` (section 5.1)."""
    check_heuristic(heuristic)
    shave_limit(shave, 1)
    colorpair_build.check_fits(puzzle.arrays)    # before compiling anything
    jit = jit_seconds()
    options = dict(heuristic=heuristic, contradiction=contradiction,
                   instantiation=instantiation, preemption=preemption, opposite=opposite,
                   backjump=backjump, shave=shave, shared_edge=shared_edge, cycles=cycles)
    chain, outcome, solutions = run_roots(puzzle, roots, search_factory(options),
                                          limit=limit, time_limit=time_limit,
                                          count_only=count_only, on_solution=on_solution,
                                          on_progress=on_progress)
    return result_of(puzzle, chain_figures(chain, outcome, solutions, jit), options)


def search_factory(options: dict) -> Callable[..., CpSearch]:
    """What builds one root's search with ``options`` (``solve``'s keywords), for
    ``edge_matching.root_chain``."""
    return partial(CpSearch, **options)


def result_of(puzzle: EdgeMatchingPuzzle, figures: Figures, options: dict) -> Result:
    """The ``Result`` of a ColorPair search with ``options`` (``em_result``: the one place,
    for a run in one process and a split run): the counters as ``statistics`` names them,
    the pattern decisions as one list, and the order ``heuristic="auto"`` chose."""
    extra: dict = {}
    for key, value in figures.stats.extra.items():
        if key in PATTERN_KEYS:
            extra.setdefault("pattern_decisions",
                             [int(figures.stats.extra.get(k, 0)) for k in PATTERN_KEYS])
        else:
            extra[key] = value
    if options.get("heuristic", DEFAULT_HEURISTIC) == AUTO_ORDER:
        extra["order"] = order_for(puzzle)
    return search_result(puzzle, ENGINE, figures, options, extra)
