"""The FILA kernels' vectors and records, declared: the search state (``ST_*``), the counters
(``CT_*``), a row of the per-level stack ``lv`` (``LV_*``) and a row of the ``ilsi`` table
(``IL_*``), with the kernels' other named constants.

Each is one ordered field list (``cpkit.state_layout.fields``): the offsets are generated from
it, checked when this module is imported (distinct, inside the region, no gap) and bound here as
module constants, plain ints that numba reads at compile time.  The numbers are those the slots
had when they were written by hand.  No checkpoint stores these arrays (a split run records the
image placed at each depth and replays it, ``FilaSearch.replay``); ``fila_search`` sizes the
arrays from ``STATE_SIZE``, ``COUNTERS_SIZE``, ``LV_SIZE`` and ``IL_SIZE``.
"""

from __future__ import annotations

from ....state_layout import bind, fields

#: What ``from fila_layout import *`` gives: every field of the layouts below (``bind`` adds
#: them) and the constants that go with them.
__all__: list[str] = []

STATE = fields(
    "FILA search state",
    "ST_LEVEL",             # the current level (pieces placed)
    "ST_PC",                # where to resume (PC_*)
    "ST_AVAIL",             # bit s set iff shape s has pieces left
    "ST_NBUF",              # solutions in the buffer
    "ST_FLOOR",             # the search ends when the lists of this level are done (0: the tree)
    "ST_STOP")              # stop on entering this level (-1: never); split runs collect there

COUNTERS = fields(
    "FILA counters",
    "CT_SOLUTIONS",
    "CT_NODES",             # images placed (fits)
    "CT_HEURISTIC_CHECKS")  # fit checks made by the E and S heuristics while choosing a cell

LEVEL = fields(
    "FILA level record (a row of lv, the explicit stack)",
    "LV_BASE",              # first list pointer of the chosen set (set * Q)
    "LV_UNTRIED",           # shapes still to try there (bits)
    "LV_S",                 # the shape being tried
    "LV_K",                 # next list entry to try
    "LV_END",               # end of that list
    "LV_POS")               # HK_ORDER: position of the target in the heuristic's cell list

ILSI_ROW = fields(
    "FILA ilsi row (one cell under one heuristic, one cache line)",
    "IL_FIRST",             # the cell's first image list set
    "IL_N",                 # how many of its neighbours are unknown
    ("IL_NB", 6))           # the unknown neighbours (unused slots name the cell itself)

#: The figures of the whole tree estimated, in ``totals`` of ``fila_probe_kernel.sample``.
FIGURES = fields(
    "FILA estimate figures",
    "W_ATTEMPTS",       # images tested against the occupancy
    "W_FITS",           # images placed
    "W_CHECKS",         # fit checks by the E and S heuristics
    "W_F_NODES",        # nodes whose target F chose
    "W_E_NODES",        # nodes whose target E chose (its open-neighbour planes read)
    "W_S_NODES",        # nodes whose target S chose
    "W_E_PLACED",       # placements that update the open-neighbour planes (a level below uses E)
    "W_SOLUTIONS",
    "W_WORK")           # attempts and checks the sample itself made (what estimating costs)
bind(globals(), STATE, COUNTERS, LEVEL, ILSI_ROW, FIGURES)
STATE_SIZE = STATE.end
COUNTERS_SIZE = COUNTERS.end
LV_SIZE = LEVEL.end
IL_SIZE = ILSI_ROW.end
N_FIGURES = FIGURES.end

# Heuristic kinds (selectFila variants).
HK_FIRST = 0       # F: lowest open cell in the numbering (a bit scan); POF
HK_ORDER = 1       # any other fixed order: first open cell of a cell list; POF
HK_NEIGHBOURS = 2  # E: fewest open neighbours, then fewest fits (early exit); no POF
HK_FITS = 3        # S: fewest fits (early exit); no POF

# Return status of ``search`` (as in the DLX kernel).
DONE = 0
BUFFER_FULL = 1
BUDGET_SPENT = 2
AT_STOP = 3        # entered level ``ST_STOP``: the caller records the node, then resumes

# Where a stopped search resumes.
PC_ENTER = 0   # enter ``level``: report a solution or choose its image list set
PC_LEAVE = 1   # leave ``level`` at once (its solution was reported when the buffer filled)
PC_SCAN = 2    # (inside a call only) looking for the next image that fits

NO_SET = -1
MAX_COUNT = 1 << 62
#: Shapes are bits of an int64, so a (sub)problem may have at most this many distinct shapes
#: (a region of 256 cells cannot hold more than about 45).
MAX_SHAPES = 62

__all__ += ["STATE_SIZE", "COUNTERS_SIZE", "LV_SIZE", "IL_SIZE", "N_FIGURES", "HK_FIRST", "HK_ORDER",
            "HK_NEIGHBOURS", "HK_FITS", "DONE", "BUFFER_FULL", "BUDGET_SPENT", "AT_STOP",
            "PC_ENTER", "PC_LEAVE", "PC_SCAN", "NO_SET", "MAX_COUNT", "MAX_SHAPES"]
