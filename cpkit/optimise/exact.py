"""An exact refill of a region by CP-SAT: the best arrangement of its own tiles.

The region's tiles are taken off and put back in any of its cells and rotations (a tile only
where it shows grey exactly towards the frame, so edge tiles stay on edge cells; hinted cells
are never part of a region), the rest of the board fixed around it, so as to match the most
edges inside the region and with its fixed border.  Unlike the scan kernel's refill, which
stops at a node budget, CP-SAT searches with a bound (its linear relaxation) and can prove that
no arrangement is better: within its time limit the move is exact.

The model is Boolean, one variable ``x[i, o]`` per region cell ``i`` and fitting orientation
``o`` of a region tile (distinct rotations only, ``Tables.allowed``):

- exactly one orientation per cell, exactly one cell and rotation per tile;
- a side towards a fixed cell scores the ``x`` that show its colour there (a linear term);
- an edge between two region cells scores ``y[k]`` for each colour ``k`` both could show on it,
  with ``y[k] <= (cell shows k)`` and ``y[k] <= (neighbour shows k)``, and at most one ``y``
  of an edge true (implied, but stated it gives the linear relaxation a bound of one per
  edge: without it CP-SAT's bound on a 3 x 3 window stayed above a hundred edges).

The objective is the matched edges the region touches; the current arrangement is given as a
complete hint and its score as a lower bound, so the answer is never worse than the board
(``Anytime`` keeps equal answers: the board drifts over its plateau).  The search edge-matching
models of ``cpkit.models.cpsat`` are satisfaction models (colour variables shared by
neighbours, every edge matched) and cannot express a mismatch, hence a model of its own here.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

from .tables import Tables


@dataclass
class Outcome:
    """What one exact refill did: ``board`` (a new array, or the board given when CP-SAT found
    nothing), the region's matched edges before and after, CP-SAT's seconds and whether it
    proved the answer optimal."""

    board: np.ndarray
    before: int
    after: int
    seconds: float
    optimal: bool
    bound: int              # CP-SAT's upper bound on ``after``


def refill_exact(tables: Tables, board: np.ndarray, cells: np.ndarray, seconds: float,
                 seed: int = 0) -> Outcome:
    """The best arrangement of the tiles of ``cells`` (unhinted cells of a full ``board``)
    within them, found by CP-SAT on one worker in at most ``seconds``; see the module
    docstring."""
    from ortools.sat.python import cp_model

    t = tables
    colour, neighbour = t.colour, t.neighbour
    cells = np.asarray(cells, dtype=np.int64)
    inside = np.full(board.shape[0], -1, dtype=np.int64)
    inside[cells] = np.arange(cells.shape[0])
    tiles = board[cells] >> 2
    own = np.zeros(t.n_tiles, dtype=bool)
    own[tiles] = True

    model = cp_model.CpModel()
    options = []                                  # per region cell: its orientations
    xs = []                                       # and their variables
    by_tile: dict[int, list] = {int(k): [] for k in tiles}
    for i, c in enumerate(cells):
        k = t.cell_class[c]
        allowed = t.allowed[t.allowed_start[k]:t.allowed_start[k + 1]]
        fit = allowed[own[allowed >> 2]]
        x = [model.new_bool_var(f"x{i}_{o}") for o in fit]
        model.add_exactly_one(x)
        for o, v in zip(fit.tolist(), x):
            by_tile[o >> 2].append(v)
        options.append(fit)
        xs.append(x)
    for vs in by_tile.values():
        model.add_exactly_one(vs)

    terms = []
    hint_y = []
    before = 0
    for i, c in enumerate(cells):
        for s in range(4):
            m = neighbour[c, s]
            if m < 0:
                continue
            shown = colour[options[i], s]
            j = inside[m]
            if j < 0:                              # a fixed neighbour: a constant colour
                want = colour[board[m], s ^ 2]
                terms += [xs[i][q] for q in np.flatnonzero(shown == want)]
                before += int(colour[board[c], s] == want)
                continue
            if m < c:
                continue                           # an inner edge, counted from its first cell
            facing = colour[options[j], s ^ 2]
            now = colour[board[c], s]
            before += int(now == colour[board[m], s ^ 2])
            edge = []
            for k in np.intersect1d(shown, facing).tolist():
                y = model.new_bool_var(f"y{i}_{s}_{k}")
                edge.append(y)
                model.add(y <= sum(xs[i][q] for q in np.flatnonzero(shown == k)))
                model.add(y <= sum(xs[j][q] for q in np.flatnonzero(facing == k)))
                terms.append(y)
                hint_y.append((y, int(now == k and colour[board[m], s ^ 2] == k)))
            model.add_at_most_one(edge)
    score = sum(terms)
    model.add(score >= before)
    model.maximize(score)
    for i, c in enumerate(cells):
        same = _same_orientation(colour, options[i], board[c])
        for q, v in enumerate(xs[i]):
            model.add_hint(v, q == same)
    for y, value in hint_y:
        model.add_hint(y, value)

    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    solver.parameters.max_time_in_seconds = max(1e-3, float(seconds))
    solver.parameters.random_seed = int(seed) & 0x7FFFFFFF
    solver.parameters.linearization_level = 2     # proves 5 x 5 windows several times as often
    solver.parameters.catch_sigint_signal = False   # the optimiser's driver handles signals
    start = time.perf_counter()
    status = solver.solve(model)
    took = time.perf_counter() - start
    if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return Outcome(board, before, before, took, False, int(solver.best_objective_bound))
    out = board.copy()
    for i, c in enumerate(cells):
        q = next(q for q, v in enumerate(xs[i]) if solver.boolean_value(v))
        out[c] = options[i][q]
    return Outcome(out, before, int(round(solver.objective_value)), took,
                   status == cp_model.OPTIMAL, int(solver.best_objective_bound))


def _same_orientation(colour: np.ndarray, options: np.ndarray, o: int) -> int:
    """The index in ``options`` of the orientation that is ``o``'s tile showing ``o``'s colours
    (a symmetric tile's rotations that look alike appear once in ``options``)."""
    same = (options >> 2 == o >> 2) & (colour[options] == colour[o]).all(axis=1)
    return int(np.flatnonzero(same)[0])
