"""The ColorPair sanity checker: the propagator's sets recomputed from the board and compared.

``check(st, m, g)`` rebuilds from the placements alone (each cell's orientation) what the
propagator maintains incrementally, and raises ``cpkit.sanity.SanityError`` at the first
difference:

- placements: each placed cell's tile records that cell, each placed tile sits on a cell
  holding one of its orientations, ``G_EMPTY`` counts the empty cells;
- each empty cell's known sides (grey to the frame, a placed neighbour's colour, else unknown),
  their number, its demand slots (the pairs its known sides ask for), its number of surrounded
  empty neighbours and its pattern class; ``G_N3``;
- every sparse set is a permutation with its inverse (``cpkit.propagators.sparse_set``), and
  ``Offer(p)`` holds exactly the unplaced tiles having pair ``p``, ``Demand(p)`` exactly the
  empty cells whose slots ask for ``p``, the demanded-pair set exactly the pairs with a
  non-empty Demand, each pattern class set exactly its empty cells;
- ``nb_pre(p)``: the unplaced tiles with pair ``p`` preempted by another pair.

It holds between any two calls of ``assign`` / ``unassign`` (which keep the sets exactly), so it
can run whenever the search kernel returns, whatever its program counter.  It costs
O(pairs x (tiles + cells)) in Python per call: a debugging tool (``CPKIT_SANITY``), not for
production runs.
"""

from __future__ import annotations

import numpy as np

from .. import sanity
from .colorpair_layout import *  # noqa: F403  (the G_*, O_*, C_*, T_* offsets)

NAME = "colorpair"


def _family(m: np.ndarray, g: np.ndarray, mem: int, where: int, size: int, sets: int,
            universe: int, what: str) -> list[set[int]]:
    """The members of each set of a sparse-set family, after checking its structure."""
    rows = m[g[mem]:g[mem] + sets * universe].reshape(sets, universe)
    back = m[g[where]:g[where] + sets * universe].reshape(sets, universe)
    sizes = m[g[size]:g[size] + sets]
    label = f"{what} sets"
    sanity.require(bool((np.sort(rows, axis=1) == np.arange(universe)).all()), NAME,
                   f"{label}: a row is not a permutation of 0..{universe - 1}")
    sanity.require(bool((np.take_along_axis(back, rows, axis=1) == np.arange(universe)).all()),
                   NAME, f"{label}: positions are not the inverse of their row")
    sanity.require(bool(((sizes >= 0) & (sizes <= universe)).all()), NAME,
                   f"{label}: sizes outside 0..{universe}")
    out = [{int(e) for e in rows[s, :sizes[s]]} for s in range(sets)]
    return out


def _compare(found: list[set[int]], expected: list[set[int]], what: str) -> None:
    for s, (have, want) in enumerate(zip(found, expected)):
        sanity.require(have == want, NAME, f"{what}({s}) holds {sorted(have)}, the board "
                                           f"says {sorted(want)}")


def check(st: np.ndarray, m: np.ndarray, g: np.ndarray) -> None:
    """Raise ``SanityError`` unless the ColorPair state ``(st, m, g)`` agrees with its board."""
    sanity.calls[NAME] += 1
    n, n_tiles, n_pairs, n_values = (int(g[G_CELLS]), int(g[G_TILES]), int(g[G_PAIRS]),
                                     int(g[G_VALUES]))
    cells = m[g[O_CELLS]:g[O_CELLS] + n * CELL_STRIDE].reshape(n, CELL_STRIDE)
    tiles = m[g[O_TILES]:g[O_TILES] + n_tiles * TILE_STRIDE].reshape(n_tiles, TILE_STRIDE)
    nbr = st[g[O_NBR]:g[O_NBR] + 4 * n].reshape(n, 4)
    n_ori = int(st[g[O_TILE_ORI] + n_tiles])
    ori_tile = st[g[O_ORI_TILE]:g[O_ORI_TILE] + n_ori]
    ori_col = st[g[O_ORI_COL]:g[O_ORI_COL] + 4 * n_ori].reshape(n_ori, 4)
    npairs = st[g[O_TILE_NPAIRS]:g[O_TILE_NPAIRS] + n_tiles]
    tile_pairs = st[g[O_TILE_PAIRS]:g[O_TILE_PAIRS] + 6 * n_tiles].reshape(n_tiles, 6)
    pairs_of = [set(int(p) for p in tile_pairs[t, :npairs[t]]) for t in range(n_tiles)]

    # Placements.
    ori = cells[:, C_ORI]
    for c in np.flatnonzero(ori >= 0):
        t = int(ori_tile[ori[c]])
        sanity.require(tiles[t, T_CELL] == c, NAME, f"cell {c} holds tile {t}, which records "
                                                    f"cell {tiles[t, T_CELL]}")
    for t in np.flatnonzero(tiles[:, T_CELL] >= 0):
        c = int(tiles[t, T_CELL])
        sanity.require(0 <= c < n and ori[c] >= 0 and ori_tile[ori[c]] == t, NAME,
                       f"tile {t} records cell {c}, which does not hold it")
    empty = ori < 0
    sanity.require(int(g[G_EMPTY]) == int(empty.sum()), NAME,
                   f"G_EMPTY is {g[G_EMPTY]}, the board has {int(empty.sum())} empty cells")

    # Each empty cell's known sides, slots, surrounded neighbours and class.
    opposite = g[G_OPPOSITE] != 0
    known = np.zeros(n, dtype=np.int64)
    demand: list[set[int]] = [set() for _ in range(n_pairs)]
    for c in np.flatnonzero(empty):
        side = []
        for s in range(4):
            x = nbr[c, s]
            side.append(0 if x < 0 else int(ori_col[ori[x], (s + 2) & 3]) if ori[x] >= 0 else -1)
        sanity.require(list(cells[c, C_SIDE:C_SIDE + 4]) == side, NAME,
                       f"cell {c} knows sides {list(cells[c, C_SIDE:C_SIDE + 4])}, the board "
                       f"shows {side}")
        known[c] = sum(v >= 0 for v in side)
        sanity.require(cells[c, C_KNOWN] == known[c], NAME,
                       f"cell {c} counts {cells[c, C_KNOWN]} known sides, not {known[c]}")
        slots = [-1] * N_SLOTS
        for k in range(4):
            a, b = side[k], side[(k + 1) & 3]
            if a >= 0 and b >= 0:
                slots[k] = a * n_values + b
        for k, (i, j) in enumerate(((0, 2), (1, 3))):
            if opposite and side[i] >= 0 and side[j] >= 0:
                lo, hi = sorted((side[i], side[j]))
                slots[4 + k] = n_values * n_values + lo * n_values + hi
        sanity.require(list(cells[c, C_DPAIR:C_DPAIR + N_SLOTS]) == slots, NAME,
                       f"cell {c} demands {list(cells[c, C_DPAIR:C_DPAIR + N_SLOTS])}, its "
                       f"known sides ask for {slots}")
        for p in slots:
            if p >= 0:
                demand[p].add(int(c))
    sanity.require(int(g[G_N3]) == int((known >= 3).sum()), NAME,
                   f"G_N3 is {g[G_N3]}, {int((known >= 3).sum())} empty cells know 3 sides")
    classes: list[set[int]] = [set() for _ in range(N_CLASSES)]
    for c in np.flatnonzero(empty):
        surr = sum(1 for x in nbr[c] if x >= 0 and empty[x] and known[x] >= 2)
        sanity.require(cells[c, C_SURR] == surr, NAME,
                       f"cell {c} counts {cells[c, C_SURR]} surrounded neighbours, not {surr}")
        k = known[c]
        cls = 1 if k == 4 else 2 if k == 3 else 3 if k == 2 and surr >= 1 else \
            4 if k == 1 and surr >= 2 else 0
        sanity.require(cells[c, C_CLASS] == cls, NAME,
                       f"cell {c} is in pattern class {cells[c, C_CLASS]}, not {cls}")
        if cls:
            classes[cls].add(int(c))

    # The sparse sets.
    unplaced = tiles[:, T_CELL] < 0
    offer: list[set[int]] = [set() for _ in range(n_pairs)]
    preempted = np.zeros(n_pairs, dtype=np.int64)
    for t in np.flatnonzero(unplaced):
        tag = tiles[t, T_TAG]
        for p in pairs_of[t]:
            offer[p].add(int(t))
            if tag >= 0 and tag != p:
                preempted[p] += 1
    _compare(_family(m, g, O_OFF_MEM, O_OFF_WHERE, O_OFF_SIZE, n_pairs, n_tiles, "Offer"),
             offer, "Offer")
    _compare(_family(m, g, O_DEM_MEM, O_DEM_WHERE, O_DEM_SIZE, n_pairs, n, "Demand"),
             demand, "Demand")
    _compare(_family(m, g, O_DP_MEM, O_DP_WHERE, O_DP_SIZE, 1, n_pairs, "demanded pairs"),
             [{p for p in range(n_pairs) if demand[p]}], "demanded pairs")
    _compare(_family(m, g, O_CLS_MEM, O_CLS_WHERE, O_CLS_SIZE, N_CLASSES, n, "class"),
             classes, "class")
    nb_pre = m[g[O_NB_PRE]:g[O_NB_PRE] + n_pairs]
    wrong = np.flatnonzero(nb_pre != preempted)
    sanity.require(len(wrong) == 0, NAME,
                   "" if len(wrong) == 0 else
                   f"nb_pre({wrong[0]}) is {nb_pre[wrong[0]]}, {preempted[wrong[0]]} unplaced "
                   f"tiles with that pair are preempted by another pair")
