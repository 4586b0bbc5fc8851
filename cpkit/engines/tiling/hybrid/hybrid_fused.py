"""A ``HybridSearch`` driven by the compiled hand-over loop (``hybrid_kernel.run``).

The loop saves about 35 us of Python a hand-over (the one-sided 30 x 3's 1,397 subproblems:
search 0.130 s by hand-overs from Python, 0.082 s by the loop).  Built ahead of time
(``cpkit._aot``, as ``make`` does), it loads in about a millisecond and takes over from the
first hand-over (the one-sided 30 x 3 solved in 0.18 s against 0.24 s taking over after
``FUSE_AFTER``).  Otherwise it is one more kernel to load through numba, 27-37 ms from its
cache in a ``cpkit tile`` process (and numba's own import, 0.15 s, where the other kernels
came from their extensions): as much as 900 hand-overs save.  So it then takes over, as in
renting or buying, once ``FUSE_AFTER`` hand-overs have gone through Python (they cost what
loading it does: a run never loses more than that, and a long one gains nearly all), or from
the first hand-over if it is loaded in the process already.  Long runs gain most: in 8 s, the
loop handed over 1.3 times as many subproblems of the PT diamond (``pt12_diamond.txt``) and
1.6 times as many of the hexominoes in ``hexominoes_box_in_diamond.txt`` (2.4 times the
nodes).

It takes over at a node where DLX has the turn (FILA's current subproblem, compiled by the
Python path, is finished there first).  It does not run split runs (their stops at a depth
and replays are the Python path's) or sanity-checked runs (``CPKIT_SANITY`` checks between
kernel calls).
"""

from __future__ import annotations

import numpy as np

from .... import _aot
from ..fila import fila_layout as FL
from ..fila import fila_search as fila
from . import hybrid_layout as HL

#: Subproblems handed over from Python before the compiled loop takes over (loading it costs
#: about as much as this many hand-overs from Python).
FUSE_AFTER = 1000
#: False: every hand-over from Python (the tests compare the two ways).
ENABLED = True
#: The loop, from its extension when built ahead of time (``cpkit._aot``).
_RUN = _aot.Kernel("hybrid_run")


def built_ahead(words: int) -> bool:
    """Whether the loop for ``words``-word occupancies comes from its extension in this
    process (loading it then costs about a millisecond: it takes over from the first
    hand-over)."""
    return ["tuple", words] in (spec[0] for spec in _RUN.ahead())


class Fused:
    """The compiled loop's arrays and the subproblem it is searching, for ``search``."""

    def __init__(self, search, words: int):
        self.search = search
        self.wtag = fila.WTAGS[words]
        self.words = words
        plan = search.plan
        images = search.puzzle.images
        self.table = (images.shape, images.cell_ptr, images.cell_idx)
        self.plan = plan
        self.heur_of_level = plan.heuristic_of_level(search.fila_at)
        self.e_below = plan.e_below(search.fila_at)
        self.hstate = np.zeros(HL.H_SIZE, dtype=np.int64)
        for field, value in ((HL.H_SUBPROBLEMS, search.subproblems),
                             (HL.H_MAX_CELLS, search.max_cells),
                             (HL.H_LIST_ENTRIES, search.list_entries),
                             (HL.H_LIST_SETS, search.list_sets),
                             (HL.H_NOF_DROPPED, search.nof_dropped)):
            self.hstate[field] = value
        self.built = (0, 0, *(np.zeros(0, dtype=t) for t in (
            np.int64, np.int64, np.int64, np.int64, np.int64, np.uint64, np.int32, np.uint64,
            np.int64, np.uint64)))
        self.left = np.zeros(0, dtype=np.int64)

    def step(self, max_new: int, node_budget: int) -> tuple[bool, int]:
        """``HybridSearch.step`` by the compiled loop."""
        s = self.search
        before, nodes = s.solutions, s.nodes
        while True:
            new = s.solutions - before
            if new >= max_new:
                return False, new
            status = self._run(max_new - new, node_budget - (s.nodes - nodes))
            self._sync()
            if status == FL.BUFFER_FULL:
                self._hand_out()
                continue
            if status == HL.TOO_MANY_CELLS:
                raise fila.too_many_cells(int(self.hstate[HL.H_ERROR_VALUE]),
                                          f"the region left when {s.fila_at} pieces remain")
            if status == HL.TOO_MANY_SHAPES:
                raise fila.too_many_shapes(int(self.hstate[HL.H_ERROR_VALUE]))
            if status == HL.TOO_MANY_ENTRIES:
                raise fila.too_many_entries()
            if status == FL.DONE:
                s.finished = s.dlx.finished = s.fila.finished = True
                return True, s.solutions - before
            return False, s.solutions - before          # the budget

    def _run(self, max_new: int, node_budget: int) -> int:
        s, d, f, c = self.search, self.search.dlx, self.search.fila, self.search.dlx.constraints
        p = self.plan
        status, self.built, self.left = _RUN(
            self.wtag,
            d.llink, d.rlink, d.length, d.need, d.top, d.ulink, d.dlink, d.row_of,
            d.heur_of_level, d.heur_kind, d.heur_key, d.state, d.col_of, d.cur, d.mode,
            d.tweak_base, d.tweak_stack, d.chosen, d.fits, d.counters, d.sol_buf, d.sol_depth,
            np.int64(s.stop_level), c.cfg, c.opt_data, c.vol_ach, c.par_ach, c.nb_ptr,
            c.nb_idx, d.open_cell, d.fstack, d.fseen, d.filter_base, d.ftrail,
            s.image_ids, d.n_options, d.n_primary, s.puzzle.n_cells, p.by_number,
            p.neighbours, p.rank, p.pof, p.pof_first, p.nof, *self.table, fila.MAX_ENTRIES,
            fila.MAX_CELLS, FL.MAX_SHAPES,
            self.built, self.left, self.heur_of_level, p.kinds, self.e_below, f.occ_stack,
            f.planes, f.lv, f.chosen, f.attempts, f.fits, f.cand, f.state, f.counters,
            f.sol_buf, f.store, f.path, self.hstate, np.int64(max_new),
            np.int64(max(node_budget, 0)))
        return int(status)

    def _sync(self) -> None:
        """The search's own counters and flags from the loop's."""
        s, h = self.search, self.hstate
        s.in_fila = bool(h[HL.H_IN_FILA])
        s.subproblems = int(h[HL.H_SUBPROBLEMS])
        s.max_cells = int(h[HL.H_MAX_CELLS])
        s.list_entries = int(h[HL.H_LIST_ENTRIES])
        s.list_sets = int(h[HL.H_LIST_SETS])
        s.nof_dropped = int(h[HL.H_NOF_DROPPED])
        if s.subproblems:
            s.max_words = max(s.max_words, self.words)

    def _hand_out(self) -> None:
        """FILA's buffered solutions, below the DLX path they were found under."""
        s, f = self.search, self.search.fila
        s.prefix = s.image_ids[s.dlx.placed_rows()]
        for k in range(int(f.state[FL.ST_NBUF])):
            s._fila_rows(f.sol_buf[k, :s.fila_at].copy())
        f.state[FL.ST_NBUF] = 0
