"""The DLX kernel's vectors, declared: the search state (``ST_*``), the counters (``CT_*``) and
the tiling-constraint configuration (``CF_*``), with the kernel's other named constants.

Each vector is one ordered field list (``cpkit.state_layout.fields``): the offsets are generated
from it, checked when this module is imported (distinct, inside the vector, no gap) and bound
here as module constants, plain ints that numba reads at compile time.  The numbers are those
the slots had when they were written by hand.  No checkpoint stores these vectors (a split run
records the path to each subtree and replays it, ``dlx_split``), but keeping the order keeps
the kernels' machine code and every figure they report as they were.  A new field goes at the
end of its vector; ``dlx_search`` sizes the arrays from ``STATE_SIZE``, ``COUNTERS_SIZE`` and
``CFG_SIZE``.
"""

from __future__ import annotations

import numpy as np

from ....state_layout import bind, fields

#: What ``from dlx_layout import *`` gives: every field of the layouts below (``bind`` adds
#: them) and the constants that go with them.
__all__: list[str] = []

STATE = fields(
    "DLX search state",
    "ST_LEVEL",             # the current depth (options placed)
    "ST_PC",                # where to resume (PC_*)
    "ST_TWEAK_TOP",         # top of the stack of tweaked options (multiplicities)
    "ST_BASE",              # the search ends when it leaves this level (a descent's target)
    "ST_NBUF",              # solutions in the buffer
    "ST_VSTATE",            # volume state: remaining pieces by size (mixed radix)
    "ST_PSTATE",            # parity state: remaining pieces by parity magnitude (mixed radix)
    "ST_RPAR",              # parity of the open cells
    "ST_FTOP")              # top of the trail of options hidden by dynamic filters

COUNTERS = fields(
    "DLX counters",
    "CT_SOLUTIONS",
    "CT_NODES",             # options placed
    "CT_PARITY_BACKTRACKS",
    "CT_VOLUME_BACKTRACKS",
    "CT_FILTERED")          # options hidden by the dynamic filters

CONFIG = fields(
    "DLX tiling-constraint configuration",
    "CF_CELLS",             # items 1..n are cells
    "CF_PIECES",            # pieces in a solution (remaining = pieces - depth)
    "CF_PAR_TRIGGER_FROM",  # parity backtrack trigger while at least this many pieces remain
    "CF_VOL_TRIGGER_FROM",  # volume backtrack trigger, likewise
    "CF_PAR_FILTER_FROM",   # dynamic parity image filter, likewise
    "CF_VOL_FILTER_FROM",   # dynamic volume image filter, likewise
    "CF_PAR_OFFSET",        # index of parity 0 in the parity table's value axis
    "CF_TRACK_CELLS")       # 1: maintain open_cell (needed by the volume features)

bind(globals(), STATE, COUNTERS, CONFIG)
STATE_SIZE = STATE.end
COUNTERS_SIZE = COUNTERS.end
CFG_SIZE = CONFIG.end
NEVER = 1 << 40          # a "from" value that switches a feature off

# Program counter values kept in the state vector between calls.
PC_ENTER = 0
PC_TRY = 1
PC_LEAVE = 2

# Return status of ``search``.
DONE = 0
BUFFER_FULL = 1
BUDGET_SPENT = 2
AT_STOP_LEVEL = 3   # reached ``stop_level``: the caller solves the subproblem, then resumes

# Return status of ``descend``.
DESCENT_READY = 0      # reached the target depth: the search can run the subtree below
DESCENT_SOLUTION = 1   # the path ends in a solution (no primary item left)
DESCENT_DEAD = 2       # the path ends in a dead end (no option, or a trigger fired)
DESCENT_MISMATCH = 3   # a recorded option is not a branch at its level (wrong model or options)

# Heuristic kinds.
H_MINFIT = 0        # Knuth's S: fewest remaining options (Busche's min-fit)
H_KEYED = 1         # smallest key, ties by fewest options; columns with 0 or 1 options first
H_KEYED_STRICT = 2  # smallest key only (the pure fill order of de Bruijn / FILA's F)

# ``open_cell`` values.  Non-literal, like every integer a helper that is not inlined receives
# (``np.int64`` casts elsewhere), so that numba compiles each helper once (docs/architecture.md,
# "One signature per helper").
CELL_FILLED = np.uint8(0)
CELL_OPEN = np.uint8(1)

__all__ += ["STATE_SIZE", "COUNTERS_SIZE", "CFG_SIZE", "NEVER", "PC_ENTER", "PC_TRY", "PC_LEAVE",
            "DONE", "BUFFER_FULL", "BUDGET_SPENT", "AT_STOP_LEVEL", "DESCENT_READY",
            "DESCENT_SOLUTION", "DESCENT_DEAD", "DESCENT_MISMATCH", "H_MINFIT", "H_KEYED",
            "H_KEYED_STRICT", "CELL_FILLED", "CELL_OPEN"]
