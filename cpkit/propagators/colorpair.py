"""The ColorPair propagator of Benoist & Bourreau (sections 3 and 4.1), as numba kernels.

For every colour pair ``p`` (clockwise pairs, and opposite pairs unless switched off) two sparse
sets are kept: ``Offer(p)``, the unplaced tiles having the pair, and ``Demand(p)``, the empty
cells whose two known sides (a placed neighbour or the frame) ask for it.  Placing orientation
``o`` on cell ``c`` (``assign``) removes the tile from its (at most 6) Offer sets, the cell from
its (at most 6) Demand sets, and adds each empty neighbour to the sets its new known side creates
(at most 3 per neighbour); ``unassign`` does the opposite in the opposite order, at the same cost.
Nothing else is maintained: no domains (section 3.2).

Rules, checked on every pair whose sets changed (``propagate``):

- *contradiction*: fewer available tiles than demanding cells;
- *instantiation*: one available tile and one demanding cell, the tile fitting the cell in
  exactly one orientation: it is placed (a propagated placement, not a node);
- *preemption*: as many available tiles as demanding cells: every such tile must go to one of
  these cells, so it is tagged as preempted by the pair and counted (``nb_pre``) as unavailable
  to every other pair.  Counting is only sound while the Demand sets are pairwise disjoint, that
  is while no empty cell has 3 or 4 known sides (``G_N3 == 0``): "available" is ``|Offer|`` when
  such a cell exists and ``|Offer| - nb_pre`` otherwise, and tags are only made when none does.
  A tag itself stays valid (it is a pigeonhole fact), so candidate lists always skip a tile
  preempted by a pair the cell does not demand.  When the last 3-or-4-sided cell is filled every
  demanded pair is checked again, so that tags count at once.

Every rule can be switched off for ablation; counts never change.

Also maintained here, because ``assign`` touches exactly the cells involved: the number of known
sides of every cell, its number of *surrounded* empty neighbours (two or more known sides), and
its *pattern class* (section 5.1: 1 = four known sides, 2 = three, 3 = two and a surrounded
neighbour, 4 = one and two surrounded neighbours) as four sparse sets, so that the search finds
a pattern cell in O(1).

Memory ("a pointer is an array index").  Numba reference-counts every array passed to a
function, so the whole state lives in three arrays, built by ``build_state``:

- ``st`` (int32, read-only): neighbours, orientations (tile, colours), tiles' orientation ranges
  and colour pairs;
- ``m`` (int32): one record of ``CELL_STRIDE`` fields per cell (``C_*``), the Offer and Demand
  families (``cpkit.propagators.sparse_set``, one set per pair), the set of demanded pairs, the
  pattern classes, one record per tile (``T_*``: preempting pair, cell), ``nb_pre`` per pair,
  the queue of pairs to check, and the trail (``cell * 2`` for a placement, ``tile * 2 + 1`` for
  a tag) -- plus any sections the search asks for;
- ``g`` (int64): a header (configuration, counters, global state, and the offset of every
  section, ``O_*``), then per cell the mask and value an orientation's packed code must match
  (known sides and frame), and every orientation's packed code.

``G_FAIL_KIND`` / ``G_FAIL_WHO`` record where the last failure was detected: the place where an
explanation (a conflict set) will be built for conflict-directed backjumping.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..errors import InputError
from . import explain as ex
from . import sparse_set as ss
from .sparse_set import ix

# Helpers are `cache=False` on purpose: a helper restored from numba's cache cannot be inlined
# into a kernel compiled later (docs/architecture.md, "Which functions are cached").

# ---------------------------------------------------------------------------------- g header
# Configuration.
G_VALUES = 0            # colours, grey included (C)
G_CELLS = 1
G_TILES = 2
G_PAIRS = 3             # 2 * C * C: clockwise pairs, then opposite pairs
G_CONTRADICTION = 4     # rule switches: 1 on, 0 off
G_INSTANTIATION = 5
G_PREEMPTION = 6
G_OPPOSITE = 7          # opposite pairs maintained
G_HEURISTIC = 8         # pair heuristic (cpkit.engines.edge_matching.cp.em_cp_kernel.H_*)
G_EXPLAIN = 9           # explanations built (cpkit.propagators.explain), for backjumping
G_SHARED_EDGE = 26      # remaining-tile rules (section 4.2): shared-edge bound h(M)
G_CYCLES = 27           #   and frame-colour cycles
# Global state.
G_N3 = 10               # empty cells with 3 or 4 known sides
G_TRAIL = 11            # trail top (an index into the trail section)
G_EMPTY = 12            # empty cells
G_QTOP = 13             # queue top
G_FAIL_KIND = 14        # F_* of the last failure
G_FAIL_WHO = 15         # its pair (F_PAIR) or cell (F_CELL)
G_PROPAGATED = 16       # placements made by instantiation
G_PREEMPTED = 17        # tiles tagged
G_WORDS = 18            # 64-bit words of an explanation row
G_LEVEL_NOW = 19        # decision level given to the placements being made
G_CQTOP = 28            # colour queue top (remaining-tile rules)
G_FRAME_PLACED = 29     # placed frame cells
G_RING = 61             # frame cells (the length of the rim)
# Section offsets in st.
O_NBR = 20              # 4 per cell: neighbour cell per side, -1 for the frame
O_ORI_TILE = 21         # per orientation: its tile
O_ORI_COL = 22          # 4 per orientation: colours north, east, south, west
O_TILE_ORI = 23         # per tile + 1: first orientation (CSR)
O_TILE_PAIRS = 24       # 6 per tile: its distinct pairs (-1 padded)
O_TILE_NPAIRS = 25      # per tile
# Section offsets in m.
O_CELLS = 30
O_OFF_MEM = 31
O_OFF_WHERE = 32
O_OFF_SIZE = 33
O_DEM_MEM = 34
O_DEM_WHERE = 35
O_DEM_SIZE = 36
O_DP_MEM = 37           # the set of pairs with a non-empty Demand (one set over the pairs)
O_DP_WHERE = 38
O_DP_SIZE = 39
O_CLS_MEM = 40          # pattern classes 1..4 (set 0 unused) over the cells
O_CLS_WHERE = 41
O_CLS_SIZE = 42
O_TILES = 43
O_NB_PRE = 44
O_QUEUE = 45
O_QFLAG = 46
O_TRAIL = 47
# Section offsets in g.
O_CMASK = 48            # 2 per cell: mask, value
O_PACKED = 49           # per orientation
# Explanations and remaining-tile rules.
O_REASON = 50           # g: per cell, the explanation of its placement when propagated
O_TAGEX = 51            # g: per tile, the explanation recorded when it was preempted
O_XROW = 52             # g: two scratch rows, the first holds the last failure's explanation
O_LEVEL = 53            # m: per cell, the decision level of its placement (-1: root)
O_OFF_INIT = 54         # st: per pair, |Offer| on the empty board
O_COLCOUNT = 55         # m: per colour, sides left on unplaced tiles, sides demanded, tiles left
O_TILE_COLS = 56        # st: 4 per tile, its distinct colours other than grey (-1 padded)
O_COL_START = 57        # st: per colour + 1, first entry in O_COL_TILES (CSR)
O_COL_TILES = 58        # st: the tiles showing each colour
O_CQUEUE = 59           # m: colours to check, then a queued flag per colour
O_RIM = 60              # st: 2 per tile, the colours of its sides along the rim (-1: none)
O_SHARED = 62           # st: h(M) for M = 0 .. tiles (the shared-edge bound, a table lookup)
O_RIM_COLOUR = 63       # st: per colour, 1 if some tile shows it along the rim (cycles need it)
#: g[64:104] belongs to the search (cpkit.engines.edge_matching.cp.em_cp_kernel).
G_SEARCH = 64
G_HEADER = 104

# Cell record in m.
C_ORI = 0               # orientation placed, -1 if empty
C_KNOWN = 1             # known sides (placed neighbours and frame)
C_SURR = 2              # empty neighbours with two or more known sides
C_CLASS = 3             # pattern class 1..4, 0 for none
C_SIDE = 4              # C_SIDE + s: colour shown to side s, -1 unknown
C_DPAIR = 8             # C_DPAIR + k: pair demanded by slot k, -1 none
C_DINS = 14             # C_DINS + k: 1 if slot k put the cell in that Demand (0: another slot did)
CELL_STRIDE = 20
# Demand slots: slot k < 4 of a cell showing colour a on side k and b on side k+1 demands the
# clockwise pair a * C + b; slots 4 and 5 demand the opposite pair of sides 0/2 and 1/3,
# C * C + min * C + max (the numbering of cpkit.models.edge_matching).
N_SLOTS = 6

# Tile record in m.
T_TAG = 0
T_CELL = 1
TILE_STRIDE = 2

F_NONE = 0
F_PAIR = 1              # |available Offer| < |Demand| on pair G_FAIL_WHO
F_CELL = 2              # cell G_FAIL_WHO has no tile that fits its known sides
F_COLOUR = 3            # colour G_FAIL_WHO: more sides left than demands plus shared edges allow
F_CYCLE = 4             # colour G_FAIL_WHO closes a ring of frame tiles shorter than the rim

N_CLASSES = 5
#: Bits 32..35 of a packed orientation: its grey sides; a cell's mask always covers them.
FRAME_SHIFT = 32
FRAME_MASK = 0xF << FRAME_SHIFT


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
        grey = [s for s in range(4) if col[s] == 0]
        if grey:
            # sides next to a grey side lie along the rim (1 grey side: 2 of them; corner: 2)
            along = [s for s in range(4) if col[s] != 0 and any((s - g) % 4 in (1, 3)
                                                                for g in grey)]
            rim[t, :len(along)] = [int(col[s]) for s in along[:2]]
    start = np.cumsum([0] + [len(ts) for ts in by_colour])
    col_tiles = np.array([t for ts in by_colour for t in ts], dtype=np.int32)
    rim_colour = np.zeros(values, dtype=np.int32)
    rim_colour[rim[rim >= 0]] = 1
    shared = np.array([shared_edges(k) for k in range(a.n_tiles + 1)], dtype=np.int32)
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


# ---------------------------------------------------------------------------------- helpers
# Offsets are read into locals once per function: a local is a value, while ``g[O_X]`` would be
# reloaded after every store into ``m`` (the compiler cannot tell the arrays apart).
#
# Helpers that are not inlined take their integers as int64: numba compiles a helper once per
# argument types, so an int32 read from the arena (``m``, ``st``) or a literal constant passed
# where another call passes an int64 compiles the helper and all it calls again.  Such values
# are cast with ``np.int64`` where they are read; ``PLUS_ONE`` / ``MINUS_ONE`` are the
# non-literal constants (docs/architecture.md, "One signature per helper").
PLUS_ONE = np.int64(1)
MINUS_ONE = np.int64(-1)

@njit(cache=True, inline="always")
def _push(m, g, p):
    qflag = g[O_QFLAG]
    if m[ix(qflag + p)] == 0:
        m[ix(qflag + p)] = 1
        m[ix(g[O_QUEUE] + g[G_QTOP])] = p
        g[G_QTOP] += 1


@njit(cache=False)
def _reclassify(m, g, c):
    r = g[O_CELLS] + c * CELL_STRIDE
    new = 0
    if m[ix(r + C_ORI)] < 0:
        known = m[ix(r + C_KNOWN)]
        surr = m[ix(r + C_SURR)]
        if known == 4:
            new = 1
        elif known == 3:
            new = 2
        elif known == 2 and surr >= 1:
            new = 3
        elif known == 1 and surr >= 2:
            new = 4
    old = m[ix(r + C_CLASS)]
    if new != old:
        n_cells = g[G_CELLS]
        cls_mem = g[O_CLS_MEM]
        cls_where = g[O_CLS_WHERE]
        cls_size = g[O_CLS_SIZE]
        if old > 0:
            ss.remove(m, cls_mem, cls_where, cls_size, n_cells, old, c)
        if new > 0:
            ss.insert(m, cls_mem, cls_where, cls_size, n_cells, new, c)
        m[ix(r + C_CLASS)] = new


@njit(cache=False)
def _surround(st, m, g, c, delta):
    """Cell ``c`` starts (+1) or stops (-1) counting as a surrounded empty neighbour."""
    nbr = g[O_NBR] + 4 * c
    cells = g[O_CELLS]
    for s in range(4):
        x = st[ix(nbr + s)]
        if x < 0:
            continue
        rx = cells + x * CELL_STRIDE
        if m[ix(rx + C_ORI)] >= 0:
            continue
        old = m[ix(rx + C_SURR)]
        surr = old + delta
        m[ix(rx + C_SURR)] = surr
        # Only classes 3 (two known sides and a surrounded neighbour) and 4 (one known side and
        # two surrounded neighbours) depend on the count, at these thresholds.
        known = m[ix(rx + C_KNOWN)]
        if (known == 2 and (surr == 0 or old == 0)) or \
                (known == 1 and (surr == 2 or old == 2) and surr <= 2 and old <= 2):
            _reclassify(m, g, np.int64(x))


@njit(cache=False)
def _add_demand(m, g, c, slot, q):
    r = g[O_CELLS] + c * CELL_STRIDE
    n_cells = g[G_CELLS]
    dem_where = g[O_DEM_WHERE]
    dem_size = g[O_DEM_SIZE]
    m[ix(r + C_DPAIR + slot)] = q
    if ss.contains(m, dem_where, dem_size, n_cells, q, c):
        m[ix(r + C_DINS + slot)] = 0
        return
    m[ix(r + C_DINS + slot)] = 1
    ss.insert(m, g[O_DEM_MEM], dem_where, dem_size, n_cells, q, c)
    if m[ix(dem_size + q)] == 1:
        ss.insert(m, g[O_DP_MEM], g[O_DP_WHERE], g[O_DP_SIZE], g[G_PAIRS], 0, q)
    _push(m, g, q)


@njit(cache=True, inline="always")
def _leave_demand(m, g, c, q):
    dem_size = g[O_DEM_SIZE]
    ss.remove(m, g[O_DEM_MEM], g[O_DEM_WHERE], dem_size, g[G_CELLS], q, c)
    if m[ix(dem_size + q)] == 0:
        ss.remove(m, g[O_DP_MEM], g[O_DP_WHERE], g[O_DP_SIZE], g[G_PAIRS], 0, q)


@njit(cache=True, inline="always")
def _enter_demand(m, g, c, q):
    dem_size = g[O_DEM_SIZE]
    ss.insert(m, g[O_DEM_MEM], g[O_DEM_WHERE], dem_size, g[G_CELLS], q, c)
    if m[ix(dem_size + q)] == 1:
        ss.insert(m, g[O_DP_MEM], g[O_DP_WHERE], g[O_DP_SIZE], g[G_PAIRS], 0, q)


@njit(cache=False)
def _drop_slot(m, g, c, slot):
    """Undo ``_add_demand`` for ``slot`` of ``c`` (if the slot is set)."""
    r = g[O_CELLS] + c * CELL_STRIDE
    q = m[ix(r + C_DPAIR + slot)]
    if q < 0:
        return
    if m[ix(r + C_DINS + slot)] != 0:
        _leave_demand(m, g, c, q)
    m[ix(r + C_DPAIR + slot)] = -1
    m[ix(r + C_DINS + slot)] = 0


@njit(cache=True, inline="always")
def fits(g, c, o):
    """Orientation ``o`` shows the known colours of cell ``c`` and grey exactly to its frame."""
    mask = g[O_CMASK] + 2 * c
    return (g[ix(g[O_PACKED] + o)] & g[ix(mask)]) == g[ix(mask + 1)]


# ---------------------------------------------------------------------------------- colours
@njit(cache=False)
def _count_colours(st, m, g, c, o, t, delta):
    """Remaining-tile counters when orientation ``o`` of tile ``t`` is placed on (``delta`` -1)
    or taken off (+1) cell ``c``: per colour, the sides left on unplaced tiles, the sides empty
    cells are asked to show (a placed neighbour's colour; the frame is not counted), the unplaced
    tiles showing it.

    Only the tile's own colours change (a side facing a placed neighbour shows the neighbour's
    colour: placements match), so a placement queues for ``_check_colour`` those of its colours
    on which a rule can now fail, tested here with the same conditions; the others would pass.
    A removal restores a state that held, and queues nothing."""
    cells = g[O_CELLS]
    count = g[O_COLCOUNT]
    nbr = g[O_NBR] + 4 * c
    cols = g[O_ORI_COL] + 4 * o
    frame = False
    for s in range(4):
        x = st[ix(nbr + s)]
        if x < 0:
            frame = True
            continue
        col = count + 3 * st[ix(cols + s)]
        m[ix(col)] += delta
        if m[ix(cells + x * CELL_STRIDE + C_ORI)] >= 0:
            m[ix(col + 1)] += delta       # a side of the neighbour is answered (or asked again)
        else:
            m[ix(col + 1)] -= delta       # the empty neighbour is asked for this colour
    if frame:
        g[G_FRAME_PLACED] -= delta
    tile_cols = g[O_TILE_COLS] + 4 * t
    for j in range(4):
        k = st[ix(tile_cols + j)]
        if k < 0:
            break
        m[ix(count + 3 * k + 2)] += delta
        if delta < 0 and _colour_may_fail(st, m, g, k):
            _push_colour(m, g, k)


@njit(cache=True, inline="always")
def _shared_edges_exceeded(st, m, g, k):
    """The shared-edge rule fails on colour ``k`` (see ``_check_colour``)."""
    count = g[O_COLCOUNT] + 3 * k
    left = m[ix(count)]
    demanded = m[ix(count + 1)]
    return g[G_SHARED_EDGE] != 0 and (
        left < demanded or left - demanded > 2 * st[ix(g[O_SHARED] + m[ix(count + 2)])])


@njit(cache=True, inline="always")
def _cycle_may_close(st, m, g, k):
    """The last two sides of rim colour ``k`` are left and nobody demands it: the cycle rule
    must walk the rim links from ``k`` (see ``_check_colour``)."""
    count = g[O_COLCOUNT] + 3 * k
    return g[G_CYCLES] != 0 and m[ix(count)] == 2 and m[ix(count + 1)] == 0 and \
        st[ix(g[O_RIM_COLOUR] + k)] != 0


@njit(cache=True, inline="always")
def _colour_may_fail(st, m, g, k):
    """Whether ``_check_colour`` can fail on colour ``k``."""
    return _shared_edges_exceeded(st, m, g, k) or _cycle_may_close(st, m, g, k)


@njit(cache=True, inline="always")
def _push_colour(m, g, k):
    cqueue = g[O_CQUEUE]
    flag = cqueue + g[G_VALUES] + k
    if m[ix(flag)] == 0:
        m[ix(flag)] = 1
        m[ix(cqueue + g[G_CQTOP])] = k
        g[G_CQTOP] += 1


@njit(cache=True, inline="always")
def shared_edges(tiles):
    """h(M): the most edges ``tiles`` unit squares can share (Benoist 2008; section 4.2)."""
    s = np.int64(np.sqrt(tiles))
    while s * s > tiles:
        s -= 1
    while (s + 1) * (s + 1) <= tiles:
        s += 1
    r = tiles - s * s
    h = 2 * s * (s - 1)
    if r == 0:
        return h
    if r <= s:
        return h + 2 * r - 1
    return h + 2 * r - 2


@njit(cache=False)
def rim_partner(st, m, g, t, k):
    """The other unplaced tile with colour ``k`` along the rim, when exactly two ``k`` sides are
    left, none demanded, and ``t`` has one of them along the rim; else -1."""
    count = g[O_COLCOUNT]
    if m[ix(count + 3 * k)] != 2 or m[ix(count + 3 * k + 1)] != 0:
        return -1
    tiles = g[O_TILES]
    rim = g[O_RIM]
    col_tiles = g[O_COL_TILES]
    start = g[O_COL_START]
    for j in range(st[ix(start + k)], st[ix(start + k + 1)]):
        u = st[ix(col_tiles + j)]
        if u == t or m[ix(tiles + u * TILE_STRIDE + T_CELL)] >= 0:
            continue
        if st[ix(rim + 2 * u)] == k or st[ix(rim + 2 * u + 1)] == k:
            return u
        return -1
    return -1


@njit(cache=False)
def _check_colour(st, m, g, k):
    """The remaining-tile rules on colour ``k``; False (and the failure recorded) if one fails.

    Shared edges: of the ``left`` sides of colour ``k`` on unplaced tiles, ``demanded`` will
    face placed tiles; the others face each other, two per shared edge, among the ``tiles``
    unplaced tiles showing ``k``: ``left - demanded <= 2 h(tiles)``.  Cycles: when two frame
    tiles hold the last two sides of a rim colour and nobody demands it, they are neighbours
    along the rim; following such links from tile to tile, coming back to the start closes a
    ring of frame tiles, impossible unless it is the whole empty rim."""
    if _shared_edges_exceeded(st, m, g, k):
        return _fail(g, F_COLOUR, k)
    if not _cycle_may_close(st, m, g, k):
        return True
    tiles = g[O_TILES]
    rim = g[O_RIM]
    col_tiles = g[O_COL_TILES]
    start = g[O_COL_START]
    first = -1
    for j in range(st[ix(start + k)], st[ix(start + k + 1)]):
        u = st[ix(col_tiles + j)]
        if m[ix(tiles + u * TILE_STRIDE + T_CELL)] < 0:
            first = u
            break
    if first < 0 or (st[ix(rim + 2 * first)] != k and st[ix(rim + 2 * first + 1)] != k):
        return True
    cur = first
    colour = k
    length = 0
    while length <= g[G_TILES]:
        nxt = rim_partner(st, m, g, cur, colour)
        if nxt < 0:
            return True
        length += 1
        if nxt == first:
            if g[G_FRAME_PLACED] > 0 or length < g[G_RING]:
                return _fail(g, F_CYCLE, k)
            return True
        a = st[ix(rim + 2 * nxt)]
        colour = st[ix(rim + 2 * nxt + 1)] if a == colour else a
        cur = nxt
    return True


# ---------------------------------------------------------------------------------- assign
@njit(cache=False)
def assign(st, m, g, c, o):
    """Place orientation ``o`` on empty cell ``c``; the pairs whose rules may now fire are
    queued."""
    n_values = g[G_VALUES]
    n_tiles = g[G_TILES]
    cells = g[O_CELLS]
    off_mem = g[O_OFF_MEM]
    off_where = g[O_OFF_WHERE]
    off_size = g[O_OFF_SIZE]
    dem_size = g[O_DEM_SIZE]
    nb_pre = g[O_NB_PRE]
    cmask = g[O_CMASK]
    r = cells + c * CELL_STRIDE
    t = np.int64(st[ix(g[O_ORI_TILE] + o)])
    n3_before = g[G_N3]
    if g[G_SHARED_EDGE] != 0 or g[G_CYCLES] != 0:
        _count_colours(st, m, g, c, o, t, MINUS_ONE)
    m[ix(r + C_ORI)] = o
    tile = g[O_TILES] + t * TILE_STRIDE
    m[ix(tile + T_CELL)] = c
    g[G_EMPTY] -= 1
    # The tile leaves its Offer sets.
    tag = m[ix(tile + T_TAG)]
    pairs = g[O_TILE_PAIRS] + 6 * t
    for k in range(st[ix(g[O_TILE_NPAIRS] + t)]):
        p = st[ix(pairs + k)]
        ss.remove(m, off_mem, off_where, off_size, n_tiles, p, t)
        if tag >= 0 and tag != p:
            m[ix(nb_pre + p)] -= 1
        if m[ix(dem_size + p)] > 0:
            # (a pair nobody demands has no rule to fire)
            _push(m, g, p)
    # The cell leaves its Demand sets and the pattern bookkeeping.
    known = m[ix(r + C_KNOWN)]
    if known >= 3:
        g[G_N3] -= 1
    if known >= 2:
        _surround(st, m, g, c, MINUS_ONE)
    for k in range(N_SLOTS):
        if m[ix(r + C_DINS + k)] != 0:
            _leave_demand(m, g, c, m[ix(r + C_DPAIR + k)])
    _reclassify(m, g, c)
    # Each empty neighbour learns the colour of its side facing c.
    nbr = g[O_NBR] + 4 * c
    cols = g[O_ORI_COL] + 4 * o
    for s in range(4):
        x = np.int64(st[ix(nbr + s)])
        if x < 0:
            continue
        rx = cells + x * CELL_STRIDE
        if m[ix(rx + C_ORI)] >= 0:
            continue
        colour = st[ix(cols + s)]
        xs = (s + 2) & 3
        m[ix(rx + C_SIDE + xs)] = colour
        g[ix(cmask + 2 * x)] |= np.int64(0xFF) << (8 * xs)
        g[ix(cmask + 2 * x + 1)] |= np.int64(colour) << (8 * xs)
        prev = (xs + 3) & 3
        before = m[ix(rx + C_SIDE + prev)]
        if before >= 0:
            _add_demand(m, g, x, prev, before * n_values + colour)
        after = m[ix(rx + C_SIDE + ((xs + 1) & 3))]
        if after >= 0:
            _add_demand(m, g, x, xs, colour * n_values + after)
        if g[G_OPPOSITE] != 0:
            facing = m[ix(rx + C_SIDE + ((xs + 2) & 3))]
            if facing >= 0:
                lo = min(facing, colour)
                hi = max(facing, colour)
                _add_demand(m, g, x, 4 + (xs & 1), n_values * n_values + lo * n_values + hi)
        known = m[ix(rx + C_KNOWN)] + 1
        m[ix(rx + C_KNOWN)] = known
        if known == 3:
            g[G_N3] += 1
        elif known == 2:
            _surround(st, m, g, x, PLUS_ONE)
        _reclassify(m, g, x)
    m[ix(g[O_TRAIL] + g[G_TRAIL])] = c * 2
    g[G_TRAIL] += 1
    if n3_before > 0 and g[G_N3] == 0 and g[G_PREEMPTION] != 0:
        # Preemption counts again: re-check every demanded pair.
        dp_mem = g[O_DP_MEM]
        for k in range(m[ix(g[O_DP_SIZE])]):
            _push(m, g, m[ix(dp_mem + k)])


@njit(cache=False)
def unassign(st, m, g, c):
    """Undo the placement on ``c`` (the last placement not yet undone), step by step backwards."""
    n_tiles = g[G_TILES]
    cells = g[O_CELLS]
    cmask = g[O_CMASK]
    r = cells + c * CELL_STRIDE
    o = np.int64(m[ix(r + C_ORI)])
    t = np.int64(st[ix(g[O_ORI_TILE] + o)])
    if g[G_SHARED_EDGE] != 0 or g[G_CYCLES] != 0:
        _count_colours(st, m, g, c, o, t, PLUS_ONE)
    nbr = g[O_NBR] + 4 * c
    for s in range(3, -1, -1):
        x = np.int64(st[ix(nbr + s)])
        if x < 0:
            continue
        rx = cells + x * CELL_STRIDE
        if m[ix(rx + C_ORI)] >= 0:
            continue
        xs = (s + 2) & 3
        known = m[ix(rx + C_KNOWN)]
        if known == 2:
            _surround(st, m, g, x, MINUS_ONE)
        elif known == 3:
            g[G_N3] -= 1
        m[ix(rx + C_KNOWN)] = known - 1
        # The slots made by this side are exactly the set slots that involve it (a slot is made
        # when its second side becomes known, and later sides are undone first).
        if g[G_OPPOSITE] != 0:
            _drop_slot(m, g, x, 4 + (xs & 1))
        _drop_slot(m, g, x, xs)
        _drop_slot(m, g, x, (xs + 3) & 3)
        m[ix(rx + C_SIDE + xs)] = -1
        g[ix(cmask + 2 * x)] &= ~(np.int64(0xFF) << (8 * xs))
        g[ix(cmask + 2 * x + 1)] &= ~(np.int64(0xFF) << (8 * xs))
        _reclassify(m, g, x)
    for k in range(N_SLOTS - 1, -1, -1):
        if m[ix(r + C_DINS + k)] != 0:
            _enter_demand(m, g, c, m[ix(r + C_DPAIR + k)])
    known = m[ix(r + C_KNOWN)]
    if known >= 2:
        _surround(st, m, g, c, PLUS_ONE)
    if known >= 3:
        g[G_N3] += 1
    tile = g[O_TILES] + t * TILE_STRIDE
    tag = m[ix(tile + T_TAG)]
    pairs = g[O_TILE_PAIRS] + 6 * t
    nb_pre = g[O_NB_PRE]
    off_mem = g[O_OFF_MEM]
    off_where = g[O_OFF_WHERE]
    off_size = g[O_OFF_SIZE]
    for k in range(st[ix(g[O_TILE_NPAIRS] + t)] - 1, -1, -1):
        p = st[ix(pairs + k)]
        ss.insert(m, off_mem, off_where, off_size, n_tiles, p, t)
        if tag >= 0 and tag != p:
            m[ix(nb_pre + p)] += 1
    m[ix(r + C_ORI)] = -1
    m[ix(tile + T_CELL)] = -1
    g[G_EMPTY] += 1
    _reclassify(m, g, c)


@njit(cache=False)
def _tag(st, m, g, t, p):
    m[ix(g[O_TILES] + t * TILE_STRIDE + T_TAG)] = p
    pairs = g[O_TILE_PAIRS] + 6 * t
    nb_pre = g[O_NB_PRE]
    dem_size = g[O_DEM_SIZE]
    for k in range(st[ix(g[O_TILE_NPAIRS] + t)]):
        q = st[ix(pairs + k)]
        if q != p:
            m[ix(nb_pre + q)] += 1
            if m[ix(dem_size + q)] > 0:
                _push(m, g, q)
    m[ix(g[O_TRAIL] + g[G_TRAIL])] = t * 2 + 1
    g[G_TRAIL] += 1
    g[G_PREEMPTED] += 1


@njit(cache=False)
def _untag(st, m, g, t):
    tile = g[O_TILES] + t * TILE_STRIDE
    p = m[ix(tile + T_TAG)]
    pairs = g[O_TILE_PAIRS] + 6 * t
    nb_pre = g[O_NB_PRE]
    for k in range(st[ix(g[O_TILE_NPAIRS] + t)]):
        q = st[ix(pairs + k)]
        if q != p:
            m[ix(nb_pre + q)] -= 1
    m[ix(tile + T_TAG)] = -1


@njit(cache=False)
def undo_to(st, m, g, mark):
    """Undo every placement and tag made since the trail was at ``mark``."""
    trail = g[O_TRAIL]
    while g[G_TRAIL] > mark:
        g[G_TRAIL] -= 1
        entry = np.int64(m[ix(trail + g[G_TRAIL])])
        if entry & 1:
            _untag(st, m, g, entry >> 1)
        else:
            unassign(st, m, g, entry >> 1)


# ---------------------------------------------------------------------------------- rules
@njit(cache=True, inline="always")
def _fail(g, kind, who):
    g[G_FAIL_KIND] = kind
    g[G_FAIL_WHO] = who
    return False


@njit(cache=True, inline="always")
def available(m, g, p, tags):
    """Tiles pair ``p`` can still get: its Offer, less (with preemption tags on) the tiles
    preempted for other pairs."""
    avail = m[ix(g[O_OFF_SIZE] + p)]
    if tags:
        avail -= m[ix(g[O_NB_PRE] + p)]
    return avail


@njit(cache=True, inline="always")
def _queued_failure(m, g, tags):
    """The first queued pair already short of tiles (Offer, less the tiles preempted for other
    pairs, below Demand), or -1.

    Checked before an instantiation: failing on a pair that is already lost costs nothing,
    while instantiating first makes placements (and queues more pairs) that the failure will
    undo anyway."""
    queue = g[O_QUEUE]
    for i in range(g[G_QTOP]):
        q = m[ix(queue + i)]
        if available(m, g, q, tags) < m[ix(g[O_DEM_SIZE] + q)]:
            return q
    return -1


@njit(cache=False)
def propagate(st, m, g):
    """Check the queued pairs (and those their consequences queue) until none is left; False on
    a contradiction, with ``G_FAIL_KIND`` / ``G_FAIL_WHO`` saying where it was found."""
    n_cells = g[G_CELLS]
    n_tiles = g[G_TILES]
    contradiction = g[G_CONTRADICTION] != 0
    instantiation = g[G_INSTANTIATION] != 0
    preemption = g[G_PREEMPTION] != 0
    off_mem = g[O_OFF_MEM]
    off_size = g[O_OFF_SIZE]
    dem_mem = g[O_DEM_MEM]
    dem_size = g[O_DEM_SIZE]
    tiles = g[O_TILES]
    tile_ori = g[O_TILE_ORI]
    queue = g[O_QUEUE]
    qflag = g[O_QFLAG]
    explain = g[G_EXPLAIN] != 0
    cqueue = g[O_CQUEUE]
    n_values = g[G_VALUES]
    ok = True
    while g[G_QTOP] > 0 or g[G_CQTOP] > 0:
        if g[G_CQTOP] > 0:
            g[G_CQTOP] -= 1
            k = np.int64(m[ix(cqueue + g[G_CQTOP])])
            m[ix(cqueue + n_values + k)] = 0
            if not _check_colour(st, m, g, k):
                if explain:
                    ex.colour_failure(st, m, g, k, g[O_XROW])
                ok = False
                break
            continue
        g[G_QTOP] -= 1
        p = np.int64(m[ix(queue + g[G_QTOP])])
        m[ix(qflag + p)] = 0
        d = m[ix(dem_size + p)]
        tags = preemption and g[G_N3] == 0
        avail = available(m, g, p, tags)
        if avail < d:
            if contradiction:
                ok = _fail(g, F_PAIR, p)
                if explain:
                    ex.pair(st, m, g, p, g[O_XROW])
                break
            continue
        if d == 0 or avail != d:
            continue
        if d == 1 and instantiation:
            if contradiction:
                q = np.int64(_queued_failure(m, g, tags))
                if q >= 0:
                    ok = _fail(g, F_PAIR, q)
                    if explain:
                        ex.pair(st, m, g, q, g[O_XROW])
                    break
            c = np.int64(ss.member(m, dem_mem, n_cells, p, 0))
            t = -1
            for k in range(m[ix(off_size + p)]):
                u = ss.member(m, off_mem, n_tiles, p, k)
                tag = m[ix(tiles + u * TILE_STRIDE + T_TAG)]
                if not tags or tag < 0 or tag == p:
                    t = u
                    break
            found = MINUS_ONE
            n_fit = 0
            for o in range(st[ix(tile_ori + t)], st[ix(tile_ori + t + 1)]):
                if fits(g, c, o):
                    found = o
                    n_fit += 1
            if n_fit == 0:
                ok = _fail(g, F_CELL, c)
                if explain:
                    ex.instantiation(st, m, g, c, p, g[O_XROW])
                break
            if n_fit == 1:
                if explain:
                    ex.instantiation(st, m, g, c, p, g[O_REASON] + c * g[G_WORDS])
                m[ix(g[O_LEVEL] + c)] = g[G_LEVEL_NOW]
                assign(st, m, g, c, found)
                g[G_PROPAGATED] += 1
                continue
        if tags:
            recorded = False
            for k in range(m[ix(off_size + p)]):
                u = ss.member(m, off_mem, n_tiles, p, k)
                if m[ix(tiles + u * TILE_STRIDE + T_TAG)] < 0:
                    if explain:
                        w = g[G_WORDS]
                        if not recorded:
                            ex.pair(st, m, g, p, g[O_XROW] + w)
                            recorded = True
                        ex.copy(g, g[O_TAGEX] + u * w, g[O_XROW] + w, w)
                    _tag(st, m, g, u, p)
    if not ok:
        while g[G_QTOP] > 0:
            g[G_QTOP] -= 1
            m[ix(qflag + m[ix(queue + g[G_QTOP])])] = 0
        while g[G_CQTOP] > 0:
            g[G_CQTOP] -= 1
            m[ix(cqueue + n_values + m[ix(cqueue + g[G_CQTOP])])] = 0
    return ok


@njit(cache=False)
def candidates(st, m, g, c, cand, base):
    """Write the orientations that may go on cell ``c`` to ``m[cand + base:]``; return the end.

    They come from the smallest Offer set among the pairs ``c`` demands (each candidate is then
    checked against all its known sides and the frame), skipping tiles preempted by a pair ``c``
    does not demand; a cell that demands nothing (only with opposite pairs off) scans every
    unplaced tile."""
    n_tiles = g[G_TILES]
    preemption = g[G_PREEMPTION] != 0
    r = g[O_CELLS] + c * CELL_STRIDE
    off_mem = g[O_OFF_MEM]
    off_size = g[O_OFF_SIZE]
    tiles = g[O_TILES]
    tile_ori = g[O_TILE_ORI]
    best = -1
    best_size = n_tiles + 1
    for k in range(N_SLOTS):
        q = m[ix(r + C_DPAIR + k)]
        if q >= 0 and m[ix(off_size + q)] < best_size:
            best = q
            best_size = m[ix(off_size + q)]
    end = base
    count = best_size if best >= 0 else n_tiles
    for k in range(count):
        if best >= 0:
            t = ss.member(m, off_mem, n_tiles, best, k)
        else:
            t = k
            if m[ix(tiles + t * TILE_STRIDE + T_CELL)] >= 0:
                continue
        tag = m[ix(tiles + t * TILE_STRIDE + T_TAG)]
        if preemption and tag >= 0:
            demanded = False
            for j in range(N_SLOTS):
                if m[ix(r + C_DPAIR + j)] == tag:
                    demanded = True
            if not demanded:
                continue
        for o in range(st[ix(tile_ori + t)], st[ix(tile_ori + t + 1)]):
            if fits(g, c, o):
                m[ix(cand + end)] = o
                end += 1
    return end


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
                _add_demand(m, g, c, s, a * n_values + b)
        if m[ix(r + C_KNOWN)] >= 3:
            g[G_N3] += 1
    for c in range(n_cells):
        if m[ix(cells + c * CELL_STRIDE + C_KNOWN)] >= 2:
            for s in range(4):
                x = st[ix(nbr + 4 * c + s)]
                if x >= 0:
                    m[ix(cells + x * CELL_STRIDE + C_SURR)] += 1
    for c in range(n_cells):
        _reclassify(m, g, c)
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
