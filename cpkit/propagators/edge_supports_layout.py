"""The layout of the edge-filtering state: the model ``m``, the tile counters ``tl``, the trail.

The edge supports (``cpkit.propagators.edge_supports``), their propagation to a fixed point
(``edge_filtering``), Régin's AllDifferent (``alldifferent``), the Python side that builds the
state (``edge_supports_build``), its sanity checker (``edge_supports_sanity``) and the edges
search kernel read the state through these names only.  Each header is one ordered field list
(``cpkit.state_layout.fields``): the offsets are generated from it, checked at import and bound
here as module constants (plain ints for numba).

The numbers are those the slots had when they were written by hand: a checkpoint of a split run
stores the search's arrays, ``tl`` among them (``cpkit/engines/edge_matching/em_split.py``,
``_pack``), and resumes from them, so renumbering would make every saved checkpoint unreadable.

The state, besides these headers (all flat arrays, indexed by cell, orientation, edge, side):

- ``dom[cell * n_ori + o]``: 1 while orientation ``o`` (tile and rotation) is in the cell's
  domain; ``size[cell]`` counts them.
- ``sup[(cell * 4 + side) * V + colour]``: the orientations of the domain showing that colour on
  that side (AC-4's support counters).
- ``mask[e]``: the colours edge ``e`` can still take, one bit per colour (so at most 64).
- ``placed[cell]`` (orientation or -1), ``used[tile]`` (0/1).
- ``trail``: one entry per removed orientation, colour taken off an edge and placement (``TR_*``
  below); ``events``: the (edge, colour) removals waiting to be propagated, ``e * 64 + colour``.
"""

from __future__ import annotations

import numpy as np

from ..state_layout import bind, fields

#: What ``from edge_supports_layout import *`` gives: every field of the layouts below (``bind``
#: adds them) and the constants that go with them.
__all__: list[str] = []

#: The model, one flat int32 array: this header, then sections at the offsets it holds
#: (``edge_supports_build.model_arrays`` builds it).
MODEL = fields(
    "edge-filtering model header",
    "M_N_CELLS",
    "M_N_ORI",
    "M_V",                  # colours, grey included
    "M_NBR",                # offset: neighbour per cell side (-1: frame)
    "M_EDGE_OF",            # offset: edge per cell side (-1: frame)
    "M_EDGE_END",           # offset: per edge, (cell, side) of both ends
    "M_CELL_CLS",           # offset: frame class per cell (bit s: side s on the frame)
    "M_CLS_START",          # offset: CSR start of each class's orientations (17 entries)
    "M_CLS_ORI",            # offset: the orientations of each class, in increasing order
    "M_BY_COL_START",       # offset: CSR start per (class, side, colour)
    "M_BY_COL",             # offset: orientations of a class showing a colour on a side
    "M_ORI_TILE",           # offset: tile per orientation
    "M_ORI_COL",            # offset: colours per orientation, north east south west
    "M_TILE_START",         # offset: CSR start of each tile's orientations
    "M_TYPE_START",         # offset: CSR start of the cells with 0..4 frame sides (6 entries)
    "M_TYPE_CELLS",         # offset: those cells
    "M_CELL_TYPE",          # offset: frame sides per cell
    "M_N_EDGES",
    "M_N_TILES")

#: The tile counters and the AllDifferent's matching, one flat int32 array ``tl``: this header,
#: then per tile the cells whose domain holds it (``T_TILE_CELLS``, n_tiles entries), then the
#: sections at the offsets the header holds (``edge_supports_build.tile_counters`` builds it).
TILE_COUNTERS = fields(
    "edge-filtering tile counters header",
    "T_ON",                 # bits: RULES, ALLDIFF; the counters are kept when either is set
    "T_TOP",                # top of the stack of tiles to look at
    "T_CELL_TILE",          # offset: per cell and tile, the orientations of the tile in the domain
    "T_STACK",              # offset: the stack of tiles
    "T_DIRTY",              # 1: a tile left a domain since the AllDifferent last ran
    "T_STAMP",              # visit stamp of the augmenting-path searches
    "T_AD",                 # offset: the AllDifferent's section (ALLDIFF_SECTION, relative to it)
    "T_FAIL",               # 1: a domain emptied, or a tile lost its last cell, since the reset
    "T_NSINGLE",            # top of the stack of cells left with one orientation
    "T_SINGLES")            # offset: that stack

#: The AllDifferent's section of ``tl``, in this order: the tiles by frame type (CSR: these 6
#: starts, then the tiles from ``A_TYPE_TILES``), the matching (tile per cell, cell per tile),
#: the visit stamp per tile, and per cell Tarjan's index, low link, on-stack flag, component,
#: the component stack and the depth-first stacks (cell, position in its type's tiles, tile).
ALLDIFF_SECTION = fields(
    "AllDifferent section of tl",
    ("A_TYPE_START", 6))

bind(globals(), MODEL, TILE_COUNTERS, ALLDIFF_SECTION)

M_HEAD = MODEL.end
T_TILE_CELLS = TILE_COUNTERS.end        # per tile, the cells whose domain holds it
A_TYPE_TILES = ALLDIFF_SECTION.end

RULES = 1               # a tile left with no cell fails, one left with one cell claims it
ALLDIFF = 2             # Régin's complete AllDifferent over the cells' tiles

# Trail entries: kind + 4 * payload.
TR_DOM = 0              # payload cell << ORI_BITS | orientation: removed from the domain
TR_MASK = 1             # payload edge * 64 + colour: taken off the edge
TR_PLACE = 2            # payload cell: placed
#: Orientations fit in 16 bits: n_ori <= 4 * n_cells and n_cells * n_ori <= 2 ** 25 (the edges
#: engine's limit) give n_ori < 2 ** 14.  A shift, not a division, takes the entry apart.
ORI_BITS = 16

#: No events queued yet, as a non-literal int64: the helpers that are not inlined take int64
#: integers (values read from the int32 arrays are cast), so that numba compiles each once
#: (docs/architecture.md, "One signature per helper").
NO_EVENTS = np.int64(0)

__all__ += ["M_HEAD", "T_TILE_CELLS", "A_TYPE_TILES", "RULES", "ALLDIFF", "TR_DOM", "TR_MASK",
            "TR_PLACE", "ORI_BITS", "NO_EVENTS"]
