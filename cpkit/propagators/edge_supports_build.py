"""The edge-filtering state built in numpy: the model ``m``, the initial domains and supports,
the tile counters ``tl`` (the layouts are ``cpkit.propagators.edge_supports_layout``)."""

from __future__ import annotations

import numpy as np

from .edge_supports_layout import *  # noqa: F403  (the M_*, T_*, A_* offsets)


def model_arrays(nbr: np.ndarray, ori_tile: np.ndarray, ori_col: np.ndarray,
                 tile_ori_start: np.ndarray, n_values: int) -> np.ndarray:
    """The flat model ``m`` (``MODEL``) of a board: per cell its neighbours (``nbr``, -1 for
    the frame), per orientation its tile and colours north, east, south, west (dense, grey 0),
    the CSR start of each tile's orientations, ``n_values`` colours with grey."""
    n_cells = len(nbr)
    n_ori = len(ori_tile)
    weights = np.array([1, 2, 4, 8])
    cell_cls = ((nbr < 0) * weights).sum(axis=1)
    ori_cls = ((ori_col == 0) * weights).sum(axis=1)
    cls_ori = np.argsort(ori_cls, kind="stable")
    cls_start = np.concatenate([[0], np.cumsum(np.bincount(ori_cls, minlength=16))])
    # Orientations by (class, side, colour), each group in increasing order.
    by_col_key = ((ori_cls[:, None] * 4 + np.arange(4)) * n_values + ori_col).ravel()
    by_col = np.argsort(by_col_key, kind="stable") // 4
    by_col_start = np.concatenate(
        [[0], np.cumsum(np.bincount(by_col_key, minlength=16 * 4 * n_values))])
    edge_of = np.full((n_cells, 4), -1, dtype=np.int64)
    ends: list[int] = []
    for c in range(n_cells):
        for s in (1, 0):            # east and north: each edge once, from its west/south cell
            x = int(nbr[c, s])
            if x >= 0:
                e = len(ends) // 4
                edge_of[c, s] = edge_of[x, (s + 2) % 4] = e
                ends += [c, s, x, (s + 2) % 4]
    cell_type = (nbr < 0).sum(axis=1)
    type_cells = np.argsort(cell_type, kind="stable")
    type_start = np.concatenate([[0], np.cumsum(np.bincount(cell_type, minlength=5))])
    sections = [nbr.ravel(), edge_of.ravel(), np.array(ends, dtype=np.int64), cell_cls,
                cls_start, cls_ori, by_col_start, by_col, ori_tile, ori_col.ravel(),
                tile_ori_start, type_start, type_cells, cell_type]
    head = np.zeros(M_HEAD, dtype=np.int64)
    head[M_N_CELLS], head[M_N_ORI], head[M_V] = n_cells, n_ori, n_values
    head[M_N_EDGES] = len(ends) // 4
    head[M_N_TILES] = len(tile_ori_start) - 1
    offset = M_HEAD
    for field, section in zip(range(M_NBR, M_CELL_TYPE + 1), sections):
        head[field] = offset
        offset += len(section)
    return np.concatenate([head] + [np.asarray(s, dtype=np.int64) for s in sections]
                          ).astype(np.int32)


def initial_domains(m: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``dom``, ``size`` and ``sup`` with every cell's orientations grey exactly on its frame."""
    n_cells, n_ori, v = int(m[M_N_CELLS]), int(m[M_N_ORI]), int(m[M_V])
    cell_cls = m[m[M_CELL_CLS]:m[M_CELL_CLS] + n_cells]
    cls_start = m[m[M_CLS_START]:m[M_CLS_START] + 17]
    cls_ori = m[m[M_CLS_ORI]:m[M_CLS_ORI] + n_ori]
    ori_col = m[m[M_ORI_COL]:m[M_ORI_COL] + 4 * n_ori].reshape(n_ori, 4)
    edge_of = m[m[M_EDGE_OF]:m[M_EDGE_OF] + 4 * n_cells].reshape(n_cells, 4)
    dom = np.zeros((n_cells, n_ori), dtype=np.uint8)
    size = np.zeros(n_cells, dtype=np.int32)
    sup = np.zeros((n_cells, 4, v), dtype=np.int32)
    for c in range(n_cells):
        mine = cls_ori[cls_start[cell_cls[c]]:cls_start[cell_cls[c] + 1]]
        dom[c, mine] = 1
        size[c] = len(mine)
        for s in range(4):
            if edge_of[c, s] >= 0:
                sup[c, s] = np.bincount(ori_col[mine, s], minlength=v)
    return dom.ravel(), size, sup.ravel()


def tile_counters(m: np.ndarray, dom: np.ndarray, rules: bool,
                  alldifferent: bool = False) -> np.ndarray:
    """The tile counters ``tl`` for the domains ``dom`` (``TILE_COUNTERS``, ``ALLDIFF_SECTION``):
    ``rules`` switches the tile rules, ``alldifferent`` Régin's filtering; the counters are
    kept when either is on."""
    n_cells, n_ori, n_tiles = int(m[M_N_CELLS]), int(m[M_N_ORI]), int(m[M_N_TILES])
    ori_tile = m[m[M_ORI_TILE]:m[M_ORI_TILE] + n_ori]
    cell_tile = np.zeros((n_cells, n_tiles), dtype=np.int64)
    for c in range(n_cells):
        np.add.at(cell_tile[c], ori_tile[dom[c * n_ori:(c + 1) * n_ori] == 1], 1)
    tile_cells = (cell_tile > 0).sum(axis=0)
    # A tile's frame type is its number of grey sides, as a cell's is its number of frame sides.
    ori_col = m[m[M_ORI_COL]:m[M_ORI_COL] + 4 * n_ori].reshape(n_ori, 4)
    first = m[m[M_TILE_START]:m[M_TILE_START] + n_tiles]
    tile_type = (ori_col[first] == 0).sum(axis=1)
    type_tiles = np.argsort(tile_type, kind="stable")
    type_start = np.concatenate([[0], np.cumsum(np.bincount(tile_type, minlength=5)[:5])])
    matching = np.full(n_cells + n_tiles, -1, dtype=np.int64)
    scratch = np.zeros(n_tiles + 8 * n_cells, dtype=np.int64)
    alldiff = np.concatenate([type_start, type_tiles, matching, scratch])
    stack = np.zeros(2 * n_tiles + 8, dtype=np.int64)
    at_cell_tile = T_TILE_CELLS + n_tiles
    at_stack = at_cell_tile + n_cells * n_tiles
    at_alldiff = at_stack + len(stack)
    singles = np.zeros(n_cells + 8, dtype=np.int64)
    at_singles = at_alldiff + len(alldiff)
    head = np.zeros(T_TILE_CELLS, dtype=np.int64)
    head[T_ON] = RULES * rules + ALLDIFF * alldifferent
    head[T_CELL_TILE], head[T_STACK], head[T_AD], head[T_SINGLES] = \
        at_cell_tile, at_stack, at_alldiff, at_singles
    return np.concatenate([head, tile_cells, cell_tile.ravel(), stack, alldiff, singles]
                          ).astype(np.int32)
