"""The Python side of the ColorPair propagator: the state arrays ``(st, m, g)`` of an empty board.

``build_state`` lays out the three arrays the kernels of ``cpkit.propagators.colorpair`` work in
(the layout: ``colorpair_layout``): the static tables of ``st`` (neighbours, orientations,
pairs, the colour tables of the explanations and the remaining-tile rules), the sections of
``m`` and ``g`` with their offsets written in the header, and any sections the search asks for;
then ``init_state`` (numba) fills in the empty board.  ``check_fits`` refuses, in one line, a
board whose Offer and Demand sets would not fit in memory.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..errors import InputError
from ..models.edge_matching import rim_sides
from . import colorpair as cp
from . import colorpair_remaining as rem
from . import sparse_set as ss
from .colorpair_layout import *  # noqa: F403  (the G_*, O_*, C_*, T_* offsets)
from .sparse_set import ix


def packed_orientations(ori_col: np.ndarray) -> np.ndarray:
    """Each orientation's colours (one byte per side, north lowest) and grey sides (bits 32+)."""
    col = ori_col.astype(np.int64)
    grey = (col == 0).astype(np.int64)
    code = col[:, 0] | col[:, 1] << 8 | col[:, 2] << 16 | col[:, 3] << 24
    frame = grey[:, 0] | grey[:, 1] << 1 | grey[:, 2] << 2 | grey[:, 3] << 3
    return code | frame << FRAME_SHIFT


def colour_tables(a, tile_pairs: np.ndarray) -> dict[int, np.ndarray]:
    """Static tables of the explanation and remaining-tile code: each pair's initial Offer size,
    each tile's distinct colours and rim colours, and the tiles showing each colour."""
    values = a.n_values
    off_init = np.bincount(tile_pairs[tile_pairs >= 0], minlength=a.n_pairs)
    first = a.tile_ori_start[:-1]
    tile_col = a.ori_col[first]                       # each tile as given (its first orientation)
    tile_cols = np.full((a.n_tiles, 4), -1, dtype=np.int32)
    rim = np.full((a.n_tiles, 2), -1, dtype=np.int32)
    by_colour: list[list[int]] = [[] for _ in range(values)]
    for t, col in enumerate(tile_col):
        distinct = sorted({int(c) for c in col if c != 0})
        tile_cols[t, :len(distinct)] = distinct
        for c in distinct:
            by_colour[c].append(t)
        along = rim_sides(col)
        rim[t, :len(along)] = [int(col[s]) for s in along[:2]]
    start = np.cumsum([0] + [len(ts) for ts in by_colour])
    col_tiles = np.array([t for ts in by_colour for t in ts], dtype=np.int32)
    rim_colour = np.zeros(values, dtype=np.int32)
    rim_colour[rim[rim >= 0]] = 1
    shared = np.array([rem.shared_edges(k) for k in range(a.n_tiles + 1)], dtype=np.int32)
    return {O_OFF_INIT: off_init, O_TILE_COLS: tile_cols.ravel(), O_COL_START: start,
            O_COL_TILES: col_tiles, O_RIM: rim.ravel(), O_SHARED: shared,
            O_RIM_COLOUR: rim_colour}


#: The Offer and Demand families hold two int32 entries per (pair, tile) and per (pair, cell),
#: with 2 C^2 pairs over C colours (grey included).  Past 1 GiB of them a board is refused: a
#: 64 x 64 board of 220 colours would need 6.4 GB (per process) and seconds of set-up per root.
MAX_FAMILY_ENTRIES = 1 << 28


def check_fits(a) -> None:
    """One-line error for a board whose Offer and Demand sets would not fit ``MAX_FAMILY_ENTRIES``
    (``a``: its ``BoardArrays``)."""
    entries = 2 * a.n_pairs * (a.n_tiles + a.n_cells)
    if entries > MAX_FAMILY_ENTRIES:
        raise InputError(f"the cp engine keeps an Offer and a Demand set over the tiles and cells "
                         f"for each of the {a.n_pairs:,} colour pairs of {a.n_values} colours: "
                         f"{entries * 4 / 2 ** 30:.1f} GiB for this {a.width} x {a.height} board "
                         f"(at most {MAX_FAMILY_ENTRIES * 4 / 2 ** 30:.0f} GiB); use --engine "
                         f"backtrack")


def build_state(a, *, contradiction: bool = True, instantiation: bool = True,
                preemption: bool = True, opposite: bool = True, heuristic: int = 0,
                explain: bool = False, shared_edge: bool = False, cycles: bool = False,
                search_sections: dict[int, int] | None = None,
                search_rows: dict[int, int] | None = None
                ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(st, m, g)`` for the empty board of ``a`` (``BoardArrays``).  ``search_sections`` maps
    a g index (in the search's range) to the length of an extra int32 section of ``m`` whose
    offset is stored there; ``search_rows`` likewise to a number of explanation rows in ``g``."""
    n, t, p, values = a.n_cells, a.n_tiles, a.n_pairs, a.n_values
    pairs = a.tile_pairs.copy()
    if not opposite:
        pairs[pairs >= values * values] = -1
        pairs = -np.sort(-pairs, axis=1)      # present pairs first (ids >= 0), then -1
    npairs = (pairs >= 0).sum(axis=1).astype(np.int32)
    g = np.zeros(G_HEADER, dtype=np.int64)
    st_parts = [(O_NBR, a.nbr.ravel()), (O_ORI_TILE, a.ori_tile), (O_ORI_COL, a.ori_col.ravel()),
                (O_TILE_ORI, a.tile_ori_start), (O_TILE_PAIRS, pairs.ravel()),
                (O_TILE_NPAIRS, npairs)]
    st_parts += list(colour_tables(a, pairs).items())
    at = 0
    for field, part in st_parts:
        g[field] = at
        at += len(part)
    st = np.concatenate([np.asarray(part, dtype=np.int32) for _, part in st_parts])
    fam_pt, fam_pn = p * t, p * n
    m_parts = [(O_CELLS, n * CELL_STRIDE), (O_OFF_MEM, fam_pt), (O_OFF_WHERE, fam_pt),
               (O_OFF_SIZE, p), (O_DEM_MEM, fam_pn), (O_DEM_WHERE, fam_pn), (O_DEM_SIZE, p),
               (O_DP_MEM, p), (O_DP_WHERE, p), (O_DP_SIZE, 1), (O_CLS_MEM, N_CLASSES * n),
               (O_CLS_WHERE, N_CLASSES * n), (O_CLS_SIZE, N_CLASSES),
               (O_TILES, t * TILE_STRIDE), (O_NB_PRE, p), (O_QUEUE, p), (O_QFLAG, p),
               (O_TRAIL, n + t + 1), (O_LEVEL, n), (O_COLCOUNT, 3 * values),
               (O_CQUEUE, 2 * values)]
    m_parts += list((search_sections or {}).items())
    at = 0
    for field, length in m_parts:
        g[field] = at
        at += length
    m = np.zeros(at, dtype=np.int32)
    ss.init_family(m, g[O_OFF_MEM], g[O_OFF_WHERE], g[O_OFF_SIZE], p, t)
    ss.init_family(m, g[O_DEM_MEM], g[O_DEM_WHERE], g[O_DEM_SIZE], p, n)
    ss.init_family(m, g[O_DP_MEM], g[O_DP_WHERE], g[O_DP_SIZE], 1, p)
    ss.init_family(m, g[O_CLS_MEM], g[O_CLS_WHERE], g[O_CLS_SIZE], N_CLASSES, n)
    words = (n + 63) // 64
    at = G_HEADER
    g_parts = [(O_CMASK, 2 * n), (O_PACKED, len(a.ori_col)), (O_REASON, n * words),
               (O_TAGEX, t * words), (O_XROW, 2 * words)]
    g_parts += [(field, rows * words) for field, rows in (search_rows or {}).items()]
    for field, length in g_parts:
        g[field] = at
        at += length
    g = np.concatenate([g, np.zeros(at - G_HEADER, dtype=np.int64)])
    g[g[O_PACKED]:g[O_PACKED] + len(a.ori_col)] = packed_orientations(a.ori_col)
    g[[G_VALUES, G_CELLS, G_TILES, G_PAIRS]] = values, n, t, p
    g[G_CONTRADICTION] = contradiction
    g[G_INSTANTIATION] = instantiation
    g[G_PREEMPTION] = preemption
    g[G_OPPOSITE] = opposite
    g[G_HEURISTIC] = heuristic
    g[G_EXPLAIN] = explain
    g[G_WORDS] = words
    g[G_LEVEL_NOW] = -1
    rules_apply = a.width >= 3 and a.height >= 3
    g[G_SHARED_EDGE] = shared_edge and rules_apply
    g[G_CYCLES] = cycles and rules_apply
    g[G_RING] = 2 * (a.width + a.height) - 4
    init_state(st, m, g)
    return st, m, g


@njit(cache=True, _nrt=False)
def init_state(st, m, g):
    """The empty board: every tile offered, every frame side known (grey), the corner cells
    demanding their grey pairs, pattern classes set (sections zeroed, families initialised)."""
    n_values = g[G_VALUES]
    n_cells = g[G_CELLS]
    n_tiles = g[G_TILES]
    cells = g[O_CELLS]
    cmask = g[O_CMASK]
    nbr = g[O_NBR]
    for t in range(n_tiles):
        tile = g[O_TILES] + t * TILE_STRIDE
        m[ix(tile + T_TAG)] = -1
        m[ix(tile + T_CELL)] = -1
        for k in range(st[ix(g[O_TILE_NPAIRS] + t)]):
            ss.insert(m, g[O_OFF_MEM], g[O_OFF_WHERE], g[O_OFF_SIZE], n_tiles,
                      st[ix(g[O_TILE_PAIRS] + 6 * t + k)], t)
    for c in range(n_cells):
        r = cells + c * CELL_STRIDE
        m[ix(r + C_ORI)] = -1
        mask = np.int64(0)
        val = np.int64(0)
        for s in range(4):
            m[ix(r + C_SIDE + s)] = -1
            if st[ix(nbr + 4 * c + s)] < 0:
                m[ix(r + C_SIDE + s)] = 0
                m[ix(r + C_KNOWN)] += 1
                mask |= np.int64(0xFF) << (8 * s)
                val |= np.int64(1) << (FRAME_SHIFT + s)
        g[ix(cmask + 2 * c)] = mask | FRAME_MASK
        g[ix(cmask + 2 * c + 1)] = val
        for k in range(N_SLOTS):
            m[ix(r + C_DPAIR + k)] = -1
        for s in range(4):
            a = m[ix(r + C_SIDE + s)]
            b = m[ix(r + C_SIDE + ((s + 1) & 3))]
            if a >= 0 and b >= 0:
                cp.add_demand(m, g, c, s, a * n_values + b)
        if m[ix(r + C_KNOWN)] >= 3:
            g[G_N3] += 1
    for c in range(n_cells):
        if m[ix(cells + c * CELL_STRIDE + C_KNOWN)] >= 2:
            for s in range(4):
                x = st[ix(nbr + 4 * c + s)]
                if x >= 0:
                    m[ix(cells + x * CELL_STRIDE + C_SURR)] += 1
    for c in range(n_cells):
        cp.reclassify(m, g, c)
        m[ix(g[O_LEVEL] + c)] = -1
    count = g[O_COLCOUNT]
    for t in range(n_tiles):
        o = st[ix(g[O_TILE_ORI] + t)]
        for s in range(4):
            col = st[ix(g[O_ORI_COL] + 4 * o + s)]
            if col > 0:
                m[ix(count + 3 * col)] += 1
        for j in range(4):
            k = st[ix(g[O_TILE_COLS] + 4 * t + j)]
            if k >= 0:
                m[ix(count + 3 * k + 2)] += 1
    g[G_EMPTY] = n_cells
    # Nothing is checked before the first placement: empty the queue.
    while g[G_QTOP] > 0:
        g[G_QTOP] -= 1
        m[ix(g[O_QFLAG] + m[ix(g[O_QUEUE] + g[G_QTOP])])] = 0
