"""Refilling pairwise non-adjacent cells by an optimal assignment (Schaus and Deville's move).

Take the tiles off a set of cells no two of which are neighbours.  Every neighbour of a freed
cell then keeps its tile, so what a freed tile scores in a freed cell (its matched sides, at its
best rotation that keeps grey towards the frame) depends on that cell alone, and the best way to
put the freed tiles back is a maximum-weight assignment of tiles to cells: exact, solved by
scipy's ``linear_sum_assignment`` (a well-kept Jonker-Volgenant implementation).  The board
never gets worse (putting every tile back where it was is one assignment); ties are broken at
random so that repeated moves wander over equally good boards.
"""

from __future__ import annotations

import numpy as np
from numba import njit
from scipy.optimize import linear_sum_assignment

from ._rng import below, uniform

#: The weight of a tile in a cell it cannot take (frame rule): never chosen.
FORBIDDEN = -1000


@njit(cache=True)
def weights(colour, neighbour, board, cells, weight, rotation):
    """``weight[i, j]``: the most sides tile ``board[cells[j]] >> 2`` matches in cell
    ``cells[i]`` (its neighbours as ``board`` has them), at rotation ``rotation[i, j]``;
    ``FORBIDDEN`` where no rotation keeps grey exactly towards the frame."""
    k = cells.shape[0]
    for i in range(k):
        c = cells[i]
        for j in range(k):
            t = board[cells[j]] >> 2
            best = FORBIDDEN
            best_r = 0
            for r in range(4):
                o = 4 * t + r
                ok = True
                score = 0
                for s in range(4):
                    m = neighbour[c, s]
                    if m < 0:
                        if colour[o, s] != 0:
                            ok = False
                            break
                    else:
                        if colour[o, s] == 0:
                            ok = False
                            break
                        if colour[o, s] == colour[board[m], s ^ 2]:
                            score += 1
                if ok and score > best:
                    best = score
                    best_r = r
            weight[i, j] = best
            rotation[i, j] = best_r


@njit(cache=True)
def independent_cells(neighbour, movable, rng, chosen, prefer, size):
    """Pick up to ``size`` movable cells no two of which are neighbours: first the cells with
    ``prefer`` set (in random order), then others at random.  Returns how many, in
    ``chosen[:k]``."""
    n = movable.shape[0]
    blocked = np.zeros(n, dtype=np.uint8)
    perm = np.arange(n)
    for i in range(n - 1, 0, -1):
        j = below(rng, i + 1)
        perm[i], perm[j] = perm[j], perm[i]
    k = 0
    for rnd in range(2):
        for i in range(n):
            c = perm[i]
            if k >= size:
                return k
            if not movable[c] or blocked[c] or (rnd == 0 and not prefer[c]):
                continue
            chosen[k] = c
            k += 1
            blocked[c] = 1
            for s in range(4):
                m = neighbour[c, s]
                if m >= 0:
                    blocked[m] = 1
    return k


@njit(cache=True)
def matched_sides(colour, neighbour, board, cells):
    """The matched sides of ``cells`` as they are (no two of them neighbours)."""
    total = 0
    for c in cells:
        o = board[c]
        for s in range(4):
            m = neighbour[c, s]
            if m >= 0 and colour[o, s] == colour[board[m], s ^ 2]:
                total += 1
    return total


@njit(cache=True)
def jitter(weight, rng, scale):
    """``weight`` plus uniform noise in [0, scale) per entry, as floats."""
    out = np.empty(weight.shape, dtype=np.float64)
    for i in range(weight.shape[0]):
        for j in range(weight.shape[1]):
            out[i, j] = weight[i, j] + uniform(rng) * scale
    return out


def reassign(colour: np.ndarray, neighbour: np.ndarray, board: np.ndarray,
             cells: np.ndarray, rng: np.ndarray) -> int:
    """Put the tiles of ``cells`` (pairwise non-adjacent) back in the best way, in place;
    returns the gain in matched edges (>= 0).  Ties between optimal assignments are broken by
    a small random perturbation of the weights (less than one edge in total; ``rng`` is a
    ``_rng`` state)."""
    k = cells.shape[0]
    if k < 2:
        return 0
    weight = np.empty((k, k), dtype=np.int64)
    rotation = np.empty((k, k), dtype=np.int64)
    weights(colour, neighbour, board, cells, weight, rotation)
    before = matched_sides(colour, neighbour, board, cells)
    rows, cols = linear_sum_assignment(jitter(weight, rng, 0.5 / k), maximize=True)
    after = int(weight[rows, cols].sum())
    if after < before:                       # cannot happen: the identity is an assignment
        return 0
    tiles = board[cells] >> 2
    board[cells[rows]] = tiles[cols] * 4 + rotation[rows, cols]
    return after - before


@njit(cache=True)
def fits(colour, neighbour, board, cells, tiles, weight, rotation):
    """``weight[i, j]``: 1 if tile ``tiles[j]`` fits cell ``cells[i]`` exactly (every
    neighbour that holds a tile matched, grey exactly towards the frame) at rotation
    ``rotation[i, j]``, else ``FORBIDDEN``."""
    for i in range(cells.shape[0]):
        c = cells[i]
        for j in range(tiles.shape[0]):
            weight[i, j] = FORBIDDEN
            for r in range(4):
                o = 4 * tiles[j] + r
                ok = True
                for s in range(4):
                    m = neighbour[c, s]
                    if m < 0:
                        ok = colour[o, s] == 0
                    elif colour[o, s] == 0:
                        ok = False
                    elif board[m] >= 0:
                        ok = colour[o, s] == colour[board[m], s ^ 2]
                    if not ok:
                        break
                if ok:
                    weight[i, j] = 1
                    rotation[i, j] = r
                    break


def reassign_holes(colour: np.ndarray, neighbour: np.ndarray, board: np.ndarray,
                   cells: np.ndarray, spare: np.ndarray, rng: np.ndarray) -> int:
    """Holes mode: take the tiles off ``cells`` (pairwise non-adjacent; some may be empty)
    and place as many as possible of them and of the ``spare`` tiles, each only where it fits
    every neighbour exactly, the others left out (an optimal assignment with one "stay
    empty" column per cell); in place, returns the gain in tiles placed (>= 0)."""
    k = cells.shape[0]
    if k == 0:
        return 0
    placed = board[cells]
    tiles = np.concatenate([placed[placed >= 0] >> 2, spare]).astype(np.int64)
    before = int((placed >= 0).sum())
    m = tiles.shape[0]
    fit = np.empty((k, m), dtype=np.int64)
    rotation = np.zeros((k, m), dtype=np.int64)
    fits(colour, neighbour, board, cells, tiles, fit, rotation)
    weight = np.concatenate([fit, np.zeros((k, k), dtype=np.int64)], axis=1)
    rows, cols = linear_sum_assignment(jitter(weight, rng, 0.5 / k), maximize=True)
    after = int(weight[rows, cols].sum())
    if after < before:                       # cannot happen: putting them back is one way
        return 0
    board[cells] = -1
    real = cols < m
    board[cells[rows[real]]] = tiles[cols[real]] * 4 + rotation[rows[real], cols[real]]
    return after - before
