"""The layout of the ColorPair state: the ``g`` header, the cell and tile records of ``m``.

The propagator (``cpkit.propagators.colorpair``), its explanations (``explain``), its
remaining-tile rules (``colorpair_remaining``), the Python side that builds the state
(``colorpair_build``) and the edge-matching CP search read the state through these names only.
Each layout is one ordered field list (``cpkit.state_layout.fields``); the offsets are generated
from it, checked at import, and bound here as module constants (plain ints for numba).

The numbers are those the slots had when they were written by hand: a checkpoint of a split run
stores the search's arrays (``cpkit/engines/edge_matching/em_split.py``, ``_pack``) and resumes
from them, so renumbering would make every saved checkpoint unreadable.  New fields therefore go
at the end of a region (the header's are full: a new header field takes the search's reserve).

``g`` (int64) starts with ``G_HEADER`` slots: the propagator's header (``HEADER``:
configuration ``G_*``, global state ``G_*``, the offset of every section ``O_*``: of ``st``, of
``m`` or of ``g``, as noted), then ``G_SEARCH .. G_HEADER - 1``, which belong to the search
(``cpkit.engines.edge_matching.cp.em_cp_layout`` declares its fields there).
"""

from __future__ import annotations

from numba import njit

from ..state_layout import bind, fields
from .sparse_set import ix

#: What ``from colorpair_layout import *`` gives: every field of the layouts below (``bind``
#: adds them), the constants that go with them, ``fits`` and ``fail``.
__all__: list[str] = []

HEADER = fields(
    "ColorPair g header",
    # Configuration.
    "G_VALUES",             # colours, grey included (C)
    "G_CELLS",
    "G_TILES",
    "G_PAIRS",              # 2 * C * C: clockwise pairs, then opposite pairs
    "G_CONTRADICTION",      # rule switches: 1 on, 0 off
    "G_INSTANTIATION",
    "G_PREEMPTION",
    "G_OPPOSITE",           # opposite pairs maintained
    "G_HEURISTIC",          # pair heuristic (cpkit.engines.edge_matching.cp.em_cp_kernel.H_*)
    "G_EXPLAIN",            # explanations built (cpkit.propagators.explain), for backjumping
    # Global state.
    "G_N3",                 # empty cells with 3 or 4 known sides
    "G_TRAIL",              # trail top (an index into the trail section)
    "G_EMPTY",              # empty cells
    "G_QTOP",               # queue top
    "G_FAIL_KIND",          # F_* of the last failure
    "G_FAIL_WHO",           # its pair (F_PAIR) or cell (F_CELL)
    "G_PROPAGATED",         # placements made by instantiation
    "G_PREEMPTED",          # tiles tagged
    "G_WORDS",              # 64-bit words of an explanation row
    "G_LEVEL_NOW",          # decision level given to the placements being made
    # Section offsets in st.
    "O_NBR",                # 4 per cell: neighbour cell per side, -1 for the frame
    "O_ORI_TILE",           # per orientation: its tile
    "O_ORI_COL",            # 4 per orientation: colours north, east, south, west
    "O_TILE_ORI",           # per tile + 1: first orientation (CSR)
    "O_TILE_PAIRS",         # 6 per tile: its distinct pairs (-1 padded)
    "O_TILE_NPAIRS",        # per tile
    # Remaining-tile rules (section 4.2).
    "G_SHARED_EDGE",        # switch: the shared-edge bound h(M)
    "G_CYCLES",             # switch: frame-colour cycles
    "G_CQTOP",              # colour queue top
    "G_FRAME_PLACED",       # placed frame cells
    # Section offsets in m.
    "O_CELLS",              # CELL.end per cell: the cell records (C_*)
    "O_OFF_MEM", "O_OFF_WHERE", "O_OFF_SIZE",      # the Offer family, one set per pair
    "O_DEM_MEM", "O_DEM_WHERE", "O_DEM_SIZE",      # the Demand family, one set per pair
    "O_DP_MEM",             # the set of pairs with a non-empty Demand (one set over the pairs)
    "O_DP_WHERE",
    "O_DP_SIZE",
    "O_CLS_MEM",            # pattern classes 1..4 (set 0 unused) over the cells
    "O_CLS_WHERE",
    "O_CLS_SIZE",
    "O_TILES",              # TILE.end per tile: the tile records (T_*)
    "O_NB_PRE",             # per pair: tiles preempted by other pairs
    "O_QUEUE",              # pairs to check
    "O_QFLAG",              # per pair: queued
    "O_TRAIL",              # placements (cell * 2) and tags (tile * 2 + 1)
    # Section offsets in g.
    "O_CMASK",              # 2 per cell: mask, value
    "O_PACKED",             # per orientation
    # Explanations and remaining-tile rules.
    "O_REASON",             # g: per cell, the explanation of its placement when propagated
    "O_TAGEX",              # g: per tile, the explanation recorded when it was preempted
    "O_XROW",               # g: two scratch rows, the first holds the last failure's explanation
    "O_LEVEL",              # m: per cell, the decision level of its placement (-1: root)
    "O_OFF_INIT",           # st: per pair, |Offer| on the empty board
    "O_COLCOUNT",           # m: per colour, sides left on unplaced tiles, sides demanded, tiles
    "O_TILE_COLS",          # st: 4 per tile, its distinct colours other than grey (-1 padded)
    "O_COL_START",          # st: per colour + 1, first entry in O_COL_TILES (CSR)
    "O_COL_TILES",          # st: the tiles showing each colour
    "O_CQUEUE",             # m: colours to check, then a queued flag per colour
    "O_RIM",                # st: 2 per tile, the colours of its sides along the rim (-1: none)
    "G_RING",               # frame cells (the length of the rim)
    "O_SHARED",             # st: h(M) for M = 0 .. tiles (the shared-edge bound, a table lookup)
    "O_RIM_COLOUR",         # st: per colour, 1 if some tile shows it along the rim (cycles need it)
    # What follows (G_SEARCH .. G_HEADER - 1) belongs to the search.
    reserve=40)

#: Demand slots: slot k < 4 of a cell showing colour a on side k and b on side k+1 demands the
#: clockwise pair a * C + b; slots 4 and 5 demand the opposite pair of sides 0/2 and 1/3,
#: C * C + min * C + max (the numbering of cpkit.models.edge_matching).
N_SLOTS = 6

CELL = fields(
    "ColorPair cell record",
    "C_ORI",                # orientation placed, -1 if empty
    "C_KNOWN",              # known sides (placed neighbours and frame)
    "C_SURR",               # empty neighbours with two or more known sides
    "C_CLASS",              # pattern class 1..4, 0 for none
    ("C_SIDE", 4),          # C_SIDE + s: colour shown to side s, -1 unknown
    ("C_DPAIR", N_SLOTS),   # C_DPAIR + k: pair demanded by slot k, -1 none
    ("C_DINS", N_SLOTS))    # C_DINS + k: 1 if slot k put the cell in that Demand (0: another did)

TILE = fields(
    "ColorPair tile record",
    "T_TAG",                # the pair that preempted the tile, -1 none
    "T_CELL")               # the cell it is placed on, -1 none

bind(globals(), HEADER, CELL, TILE)

#: The first slot of the search's part of the g header, and the header's length.
G_SEARCH = HEADER.end - HEADER.reserve
G_HEADER = HEADER.end
CELL_STRIDE = CELL.end
TILE_STRIDE = TILE.end

# What G_FAIL_KIND says.
F_NONE = 0
F_PAIR = 1              # |available Offer| < |Demand| on pair G_FAIL_WHO
F_CELL = 2              # cell G_FAIL_WHO has no tile that fits its known sides
F_COLOUR = 3            # colour G_FAIL_WHO: more sides left than demands plus shared edges allow
F_CYCLE = 4             # colour G_FAIL_WHO closes a ring of frame tiles shorter than the rim

N_CLASSES = 5
#: Bits 32..35 of a packed orientation: its grey sides; a cell's mask always covers them.
FRAME_SHIFT = 32
FRAME_MASK = 0xF << FRAME_SHIFT

__all__ += ["N_SLOTS", "G_SEARCH", "G_HEADER", "CELL_STRIDE", "TILE_STRIDE", "F_NONE",
            "F_PAIR", "F_CELL", "F_COLOUR", "F_CYCLE", "N_CLASSES", "FRAME_SHIFT", "FRAME_MASK",
            "fits", "fail"]


# The two one-line reads and writes every ColorPair module shares (inlined where they are used).
@njit(cache=True, inline="always")
def fits(g, c, o):
    """Orientation ``o`` shows the known colours of cell ``c`` and grey exactly to its frame."""
    mask = g[O_CMASK] + 2 * c                                       # noqa: F821
    return (g[ix(g[O_PACKED] + o)] & g[ix(mask)]) == g[ix(mask + 1)]  # noqa: F821


@njit(cache=True, inline="always")
def fail(g, kind, who):
    """Record where a failure was found (``G_FAIL_KIND``, ``G_FAIL_WHO``); returns False."""
    g[G_FAIL_KIND] = kind                                           # noqa: F821
    g[G_FAIL_WHO] = who                                             # noqa: F821
    return False
