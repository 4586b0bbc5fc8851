"""The edge-matching CP search's part of the ColorPair state: its fields of the ``g`` header
and the record of its decision stack.

The ColorPair propagator's layout (``cpkit.propagators.colorpair_layout``) reserves the header
slots ``G_SEARCH .. G_HEADER - 1`` for the search; the search kernel (``em_cp_kernel``) and its
shaving (``em_cp_shaving``) read them through these names.  The numbers are those the slots had
when they were written by hand (a split run's checkpoint stores ``g``).
"""

from __future__ import annotations

from ....propagators import colorpair_layout as lay
from ....state_layout import bind, fields

#: What ``from em_cp_layout import *`` gives: every field below and the stride of a level.
__all__: list[str] = ["SEARCH_HEADER", "LEVEL", "LV_STRIDE"]

# The search's fields of the g header: the part cpkit.propagators.colorpair_layout reserves
# (G_SEARCH .. G_HEADER - 1), one slot left free.
SEARCH_HEADER = fields(
    "edge-matching CP search, g header",
    "G_LEVEL",
    "G_PC",
    "G_NBUF",
    "G_SOLUTIONS",
    "G_NODES",
    "G_FAILS",                        # branching placements refuted by propagation
    "G_DEAD_ENDS",                    # chosen cells with no candidate
    ("G_PATTERN", 4),                 # decisions taken by pattern k = 1..4: G_PATTERN + k - 1
    "G_BY_HEURISTIC",                 # decisions taken by the pair heuristic
    "G_N_ROOT",                       # root placements (hints)
    "O_LV",                           # m section: the decision stack, LV_STRIDE per level
    "O_CAND",                         # m section: candidate orientations of every open level
    "O_ROOT",                         # m section: root placements, (cell, orientation) pairs
    "G_SHAVE",                        # shaving limit L (0: no shaving)
    "G_XTOP",                         # exclusion trail top
    "G_XCAP",                         # exclusion trail capacity
    "O_XTRAIL",                       # m section: exclusions, (cell, orientation, next) triples
    "O_XHEAD",                        # m section: per cell, its newest exclusion (-1: none)
    "O_ACC",                          # g rows: per level, the union of its failed branches' reasons
    "O_XREASON",                      # g rows: per exclusion, why the value fails
    "O_SROW",                         # g row: scratch of the search
    "G_JUMPS",                        # nodes abandoned by a backjump before all their branches
    "G_SKIPPED",                      # levels jumped over
    "G_TRIALS",                       # shaving: trial placements
    "G_REMOVED",                      # shaving: values removed
    "G_SHAVED_IN",                    # shaving: placements forced (a single value left)
    "G_SHAVED_FAIL",                  # shaving: nodes refuted (no value left)
    "G_STOP",                         # stop on entering this level (0: never), for split runs
    "O_SCAN",                         # m section: the cells in the brute force's scan order
    "G_DEEPEST",                      # the most cells filled at a node entered
    "G_SHAVE_CELL",                   # shaving's place: the cell being tried,
    "G_SHAVE_AT",                     # its next candidate (-1: the cell is not begun),
    "G_SHAVE_END",                    # the end of its candidates,
    "G_SHAVE_SURVIVORS",              # its values whose trial held so far,
    "G_SHAVE_LAST",                   # the last of those,
    "G_SHAVE_CHANGED",                # and whether this pass placed something
    start=lay.G_SEARCH, end=lay.G_HEADER, reserve=1)

#: Per-level record of the decision stack.
LEVEL = fields(
    "edge-matching CP decision stack record",
    "L_CELL",
    "L_PTR",                # next candidate
    "L_END",                # end of this level's candidates
    "L_MARK",               # trail top before this level's placement
    "L_XMARK",              # exclusion trail top before it
    "L_FULL")               # 1 once a solution was found below this node: it never jumps

bind(globals(), SEARCH_HEADER, LEVEL)
LV_STRIDE = LEVEL.end
