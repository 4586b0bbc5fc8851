"""The tiling constraints DLX checks during search: the parity and volume backtrack triggers and
the dynamic parity and volume image filters, on entering a level (step X2 of ``dlx_kernel``).

``cfg`` is the configuration vector (``CF_*``, ``dlx_layout``): each feature acts while at least
its ``CF_*_FROM`` pieces remain.  ``opt_data[k]`` is (volume-state delta, parity-state delta,
signed parity) of option ``k``; ``vol_ach`` / ``par_ach`` are the achievable tables indexed by
state (``cpkit.propagators.tiling_filters``).  ``open_cell`` marks the open cells (items
``1..cfg[CF_CELLS]``) when the volume features need them.  The options the filters hide go on
the filter trail (``ftrail``), which the search unwinds when it leaves the level.
"""

from __future__ import annotations

from numba import njit

from ....propagators.tiling_filter_kernels import volumes_ok
from .dlx_layout import (CELL_FILLED, CELL_OPEN, CF_CELLS, CF_PAR_FILTER_FROM, CF_PAR_OFFSET,
                         CF_PAR_TRIGGER_FROM, CF_PIECES, CF_VOL_FILTER_FROM, CF_VOL_TRIGGER_FROM,
                         CT_FILTERED, CT_PARITY_BACKTRACKS, CT_VOLUME_BACKTRACKS)
from .dlx_links import hide_option


@njit(cache=True, _nrt=False)
def mark_cells(x, top, ulink, open_cell, n_cells, value):
    """Set ``open_cell`` of every cell item of option ``x`` to ``value``."""
    p = x
    while True:
        j = top[p]
        if j <= 0:
            p = ulink[p]
        else:
            if j <= n_cells:
                open_cell[j - 1] = value
            p += 1
        if p == x:
            break


@njit(cache=True, _nrt=False)
def filter_options(cfg, rlink, llink, length, top, ulink, dlink, row_of, opt_data, vol_ach,
                    par_ach, nb_ptr, nb_idx, open_cell, fstack, fseen, vstate, pstate, rpar,
                    do_parity, do_volume, ftrail, ftop):
    """Dynamic image filters: hide every option of a remaining shape whose placement would leave
    an unreachable parity (``do_parity``) or an unfillable open region (``do_volume``).  Options
    are visited through the shape items (tiling covers have one per option).  Returns the new top
    of the filter trail."""
    n_cells = cfg[CF_CELLS]
    off = cfg[CF_PAR_OFFSET]
    j = rlink[0]
    while j != 0:
        nxt_item = rlink[j]
        if j > n_cells:
            p = dlink[j]
            while p != j:
                nxt = dlink[p]
                k = row_of[p]
                bad = False
                if do_parity and opt_data[k, 2] != 0:
                    v = rpar - opt_data[k, 2] + off
                    if v < 0 or v >= par_ach.shape[1] or par_ach[pstate - opt_data[k, 1], v] == 0:
                        bad = True
                if not bad and do_volume:
                    mark_cells(p, top, ulink, open_cell, n_cells, CELL_FILLED)
                    if not volumes_ok(open_cell, nb_ptr, nb_idx, vol_ach[vstate - opt_data[k, 0]],
                                      fstack, fseen):
                        bad = True
                    mark_cells(p, top, ulink, open_cell, n_cells, CELL_OPEN)
                if bad:
                    hide_option(p, llink, length, top, ulink, dlink)
                    ftrail[ftop] = p
                    ftop += 1
                p = nxt
        j = nxt_item
    return ftop


@njit(cache=True, _nrt=False)
def checks_from(cfg):
    """Triggers and dynamic filters act while at least this many pieces remain."""
    return min(min(cfg[CF_PAR_TRIGGER_FROM], cfg[CF_VOL_TRIGGER_FROM]),
               min(cfg[CF_PAR_FILTER_FROM], cfg[CF_VOL_FILTER_FROM]))


@njit(cache=True, _nrt=False)
def after_placement(level, cfg, chosen, counters, llink, rlink, length, top, ulink, dlink,
                     row_of, opt_data, vol_ach, par_ach, nb_ptr, nb_idx, open_cell, fstack,
                     fseen, vstate, pstate, rpar, ftrail, ftop):
    """X2's constraint work on entering ``level`` > 0: the backtrack triggers (False: backtrack),
    then the dynamic filters.  Returns (alive, new top of the filter trail)."""
    remaining = cfg[CF_PIECES] - level
    if remaining >= cfg[CF_PAR_TRIGGER_FROM]:
        v = rpar + cfg[CF_PAR_OFFSET]
        if v < 0 or v >= par_ach.shape[1] or par_ach[pstate, v] == 0:
            counters[CT_PARITY_BACKTRACKS] += 1
            return False, ftop
    if remaining >= cfg[CF_VOL_TRIGGER_FROM]:
        if not volumes_ok(open_cell, nb_ptr, nb_idx, vol_ach[vstate], fstack, fseen):
            counters[CT_VOLUME_BACKTRACKS] += 1
            return False, ftop
    do_parity = remaining >= cfg[CF_PAR_FILTER_FROM] and opt_data[chosen[level - 1], 2] != 0
    do_volume = remaining >= cfg[CF_VOL_FILTER_FROM]
    if do_parity or do_volume:
        before = ftop
        ftop = filter_options(cfg, rlink, llink, length, top, ulink, dlink, row_of, opt_data,
                               vol_ach, par_ach, nb_ptr, nb_idx, open_cell, fstack, fseen,
                               vstate, pstate, rpar, do_parity, do_volume, ftrail, ftop)
        counters[CT_FILTERED] += ftop - before
    return True, ftop
