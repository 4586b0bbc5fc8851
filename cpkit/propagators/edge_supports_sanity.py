"""The edge-filtering sanity checker: the supports, edge colours and tile counters recomputed from
the domains and placements, and compared.

``check(m, placed, used, dom, size, sup, mask, tl, settled)`` rebuilds what ``edge_supports``
maintains incrementally and raises ``cpkit.sanity.SanityError`` at the first difference:

- each domain's size; each support counter: the orientations of the domain showing that colour
  on that side (AC-4's counts, on the sides that have an edge);
- each edge's colours: a colour is on the edge exactly while both of its sides support it;
- placements: a placed cell's domain is its orientation alone, no tile is placed twice, the
  used tiles are exactly the placed ones, and a placed tile is in no other cell's domain;
- with the tile counters on (``tl[T_ON]``): per cell and tile the tile's orientations in the
  domain, per tile the cells that can take it; with the AllDifferent, its matching is
  one-to-one and inside the domains (it is not trailed, so it must survive every undo).

With ``settled`` the state is also a fixed point of propagation, as it is whenever the search
kernel pauses in a search that goes on: every orientation of a domain shows, on each side with an
edge, a colour the edge still has; no empty cell has one orientation or none; with the tile
rules, no tile has lost every cell.  (A search that ended may have stopped in a refuted root.)

It costs O(cells x orientations) in numpy per call: a debugging tool (``CPKIT_SANITY``), not for
production runs.
"""

from __future__ import annotations

import numpy as np

from .. import sanity
from .edge_supports_layout import *  # noqa: F403  (the M_*, T_*, A_* offsets)

NAME = "edge supports"


def _section(m: np.ndarray, at: int, length: int) -> np.ndarray:
    return m[m[at]:m[at] + length]


def check(m: np.ndarray, placed: np.ndarray, used: np.ndarray, dom: np.ndarray,
          size: np.ndarray, sup: np.ndarray, mask: np.ndarray, tl: np.ndarray,
          settled: bool) -> None:
    """Raise ``SanityError`` unless the edge-filtering state agrees with its domains and
    placements (and, if ``settled``, is a fixed point of propagation)."""
    sanity.calls[NAME] += 1
    n, n_ori, v = int(m[M_N_CELLS]), int(m[M_N_ORI]), int(m[M_V])
    n_tiles, n_edges = int(m[M_N_TILES]), int(m[M_N_EDGES])
    domains = dom.reshape(n, n_ori) != 0
    ori_col = _section(m, M_ORI_COL, 4 * n_ori).reshape(n_ori, 4)
    ori_tile = _section(m, M_ORI_TILE, n_ori)
    edge_of = _section(m, M_EDGE_OF, 4 * n).reshape(n, 4)
    ends = _section(m, M_EDGE_END, 4 * n_edges).reshape(n_edges, 2, 2)

    counted = domains.sum(axis=1)
    wrong = np.flatnonzero(size != counted)
    sanity.require(len(wrong) == 0, NAME, "" if len(wrong) == 0 else
                   f"cell {wrong[0]} has size {size[wrong[0]]}, its domain {counted[wrong[0]]}")
    supports = sup.reshape(n, 4, v)
    expected = np.zeros((n, 4, v), dtype=np.int64)
    for c in range(n):
        for s in range(4):
            if edge_of[c, s] >= 0:
                expected[c, s] = np.bincount(ori_col[domains[c], s], minlength=v)
    bad = np.argwhere(supports != expected)
    if len(bad):
        c, s, col = bad[0]
        sanity.require(False, NAME, f"cell {c} side {s}: {supports[c, s, col]} orientations "
                                    f"support colour {col}, its domain has {expected[c, s, col]}")
    for e in range(n_edges):
        both = (expected[ends[e, 0, 0], ends[e, 0, 1]] > 0) & \
               (expected[ends[e, 1, 0], ends[e, 1, 1]] > 0)
        bits = sum(1 << int(col) for col in np.flatnonzero(both))
        sanity.require(int(mask[e]) == bits, NAME,
                       f"edge {e} holds colours {int(mask[e]):#x}, its two sides support "
                       f"{bits:#x}")

    # Placements.
    tile_of = {}
    for c in np.flatnonzero(placed >= 0):
        o = int(placed[c])
        sanity.require(size[c] == 1 and bool(domains[c, o]), NAME,
                       f"cell {c} holds orientation {o}, but its domain is "
                       f"{np.flatnonzero(domains[c]).tolist()}")
        t = int(ori_tile[o])
        sanity.require(t not in tile_of, NAME, f"tile {t} is placed on cells {tile_of.get(t)} "
                                               f"and {c}")
        tile_of[t] = int(c)
    on = sorted(int(t) for t in np.flatnonzero(used))
    sanity.require(on == sorted(tile_of), NAME,
                   f"the used tiles are {on}, the placed ones {sorted(tile_of)}")
    tiles = ori_tile[np.newaxis, :] * np.ones((n, 1), dtype=np.int64)
    for t, c in tile_of.items():
        elsewhere = np.flatnonzero((domains & (tiles == t)).any(axis=1))
        sanity.require(list(elsewhere) == [c], NAME, f"tile {t}, placed on cell {c}, is in "
                                                     f"the domains of cells {list(elsewhere)}")

    if tl[T_ON]:
        cell_tile = tl[tl[T_CELL_TILE]:tl[T_CELL_TILE] + n * n_tiles].reshape(n, n_tiles)
        for c in range(n):
            want = np.bincount(ori_tile[domains[c]], minlength=n_tiles)
            wrong = np.flatnonzero(cell_tile[c] != want)
            sanity.require(len(wrong) == 0, NAME, "" if len(wrong) == 0 else
                           f"cell {c} counts {cell_tile[c, wrong[0]]} orientations of tile "
                           f"{wrong[0]}, its domain has {want[wrong[0]]}")
        cells_of = (cell_tile > 0).sum(axis=0)
        have = tl[T_TILE_CELLS:T_TILE_CELLS + n_tiles]
        wrong = np.flatnonzero(have != cells_of)
        sanity.require(len(wrong) == 0, NAME, "" if len(wrong) == 0 else
                       f"tile {wrong[0]} counts {have[wrong[0]]} cells that can take it, the "
                       f"domains say {cells_of[wrong[0]]}")
        if tl[T_ON] & ALLDIFF:
            at = tl[T_AD] + A_TYPE_TILES + n_tiles
            matched, cell_of = tl[at:at + n], tl[at + n:at + n + n_tiles]
            for c in np.flatnonzero(matched >= 0):
                t = int(matched[c])
                sanity.require(cell_tile[c, t] > 0 and cell_of[t] == c, NAME,
                               f"the matching gives cell {c} tile {t}, which is not in its "
                               f"domain or matched to cell {cell_of[t]}")
            for t in np.flatnonzero(cell_of >= 0):
                sanity.require(matched[cell_of[t]] == t, NAME,
                               f"the matching gives tile {t} cell {cell_of[t]}, which is "
                               f"matched to tile {matched[cell_of[t]]}")
        if settled and tl[T_ON] & RULES:
            lost = np.flatnonzero(cells_of == 0)
            sanity.require(len(lost) == 0, NAME, "" if len(lost) == 0 else
                           f"tile {lost[0]} fits no cell at a fixed point")

    if not settled:
        return
    for c in range(n):
        if placed[c] < 0:
            sanity.require(size[c] >= 2, NAME, f"empty cell {c} has {size[c]} orientations at a "
                                               f"fixed point")
        for s in range(4):
            e = edge_of[c, s]
            if e < 0:
                continue
            shown = ori_col[domains[c], s]
            off = [int(col) for col in np.unique(shown) if not int(mask[e]) >> int(col) & 1]
            sanity.require(not off, NAME, f"cell {c} keeps orientations showing colour "
                                          f"{off[:1]} on side {s}, which edge {e} has lost")
