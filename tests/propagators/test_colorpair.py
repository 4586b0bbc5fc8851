"""The ColorPair propagator: its sets and counters against a from-scratch recomputation after
random placements, propagations and undos; and each rule on a hand-made case."""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cpkit.models.edge_matching import EdgeMatchingPuzzle, clockwise_pair, opposite_pair
from cpkit.models.em_generator import generate
from cpkit.propagators import colorpair as cp
from cpkit.propagators import colorpair_build as cb
from cpkit.propagators import colorpair_layout as lay
from cpkit.propagators import colorpair_sanity
from cpkit.propagators import sparse_set as ss

pytestmark = pytest.mark.kernel


class View:
    """Reads the arenas back into Python values."""

    def __init__(self, puzzle, **options):
        self.p = puzzle
        self.a = puzzle.arrays
        sections = {lay.G_SEARCH: puzzle.n_cells * self.a.n_orientations + 1}
        self.st, self.m, self.g = cb.build_state(self.a, search_sections=sections, **options)
        self.cand = int(self.g[lay.G_SEARCH])

    def field(self, cell, f):
        return int(self.m[self.g[lay.O_CELLS] + cell * lay.CELL_STRIDE + f])

    def family(self, mem, size, universe, s):
        g, m = self.g, self.m
        return {int(ss.member(m, g[mem], universe, s, k)) for k in range(int(m[g[size] + s]))}

    def placed(self):
        return {c: self.field(c, lay.C_ORI) for c in range(self.p.n_cells)
                if self.field(c, lay.C_ORI) >= 0}

    def tag(self, t):
        return int(self.m[self.g[lay.O_TILES] + t * lay.TILE_STRIDE + lay.T_TAG])

    def check(self):
        """Every maintained quantity equals its definition on the current board (the package's
        sanity checker, which raises ``SanityError`` otherwise)."""
        colorpair_sanity.check(self.st, self.m, self.g)

    def available(self, q):
        g, m = self.g, self.m
        avail = int(m[g[lay.O_OFF_SIZE] + q])
        if g[lay.G_PREEMPTION] and g[lay.G_N3] == 0:
            avail -= int(m[g[lay.O_NB_PRE] + q])
        return avail

    def check_rules(self, ok):
        """After propagation: no pair has fewer available tiles than demands, or the failure
        recorded is one (a pair short of tiles, or a cell no available tile fits)."""
        g, m = self.g, self.m
        short = [q for q in range(self.a.n_pairs)
                 if self.available(q) < int(m[g[lay.O_DEM_SIZE] + q])]
        if ok:
            assert short == [] and int(g[lay.G_QTOP]) == 0
        elif g[lay.G_FAIL_KIND] == lay.F_PAIR:
            assert int(g[lay.G_FAIL_WHO]) in short
        else:
            assert g[lay.G_FAIL_KIND] == lay.F_CELL
            c = int(g[lay.G_FAIL_WHO])
            assert self.field(c, lay.C_ORI) < 0 and self.field(c, lay.C_KNOWN) >= 2


@settings(max_examples=12)
@given(seed=st.integers(0, 10 ** 6), opposite=st.booleans(), preemption=st.booleans())
def test_invariants_hold_through_placements_and_undos(seed, opposite, preemption):
    rng = random.Random(seed)
    puzzle = generate(rng.choice([3, 4, 5]), rng.choice([3, 4]), border_colours=rng.randint(1, 3),
                      inner_colours=rng.randint(1, 4), seed=seed)
    v = View(puzzle, opposite=opposite, preemption=preemption)
    v.check()
    before = (v.m.copy(), v.g.copy())
    marks = []
    for _ in range(40):
        empty = [c for c in range(puzzle.n_cells) if v.field(c, lay.C_ORI) < 0]
        if marks and (not empty or rng.random() < 0.3):
            cp.undo_to(v.st, v.m, v.g, marks.pop())
            v.check()
            continue
        if not empty:
            break
        c = rng.choice([c for c in empty if v.field(c, lay.C_KNOWN) >= 2] or empty)
        end = cp.candidates(v.st, v.m, v.g, c, v.cand, 0)
        if end == 0:
            continue
        o = int(v.m[v.cand + rng.randrange(end)])
        marks.append(int(v.g[lay.G_TRAIL]))
        cp.assign(v.st, v.m, v.g, c, o)
        ok = cp.propagate(v.st, v.m, v.g)
        v.check()
        v.check_rules(ok)
        if not ok:
            cp.undo_to(v.st, v.m, v.g, marks.pop())
            v.check()
    while marks:
        cp.undo_to(v.st, v.m, v.g, marks.pop())
    v.check()
    # Undo restores every count and flag (set members may have moved within their rows).
    counters = [lay.G_N3, lay.G_TRAIL, lay.G_EMPTY, lay.G_QTOP]
    assert np.array_equal(v.g[counters], before[1][counters])
    assert np.array_equal(v.g[v.g[lay.O_CMASK]:], before[1][before[1][lay.O_CMASK]:])


# Four corner tiles, four edge tiles and one inner tile of a 3 x 3 board (grey 0, rim colours
# 1..4, inner colours 5..8), solvable as drawn in tests/models/test_edge_matching.py.
TILES = [(1, 5, 0, 0), (2, 6, 0, 5), (3, 0, 0, 6), (7, 8, 1, 0), (9, 10, 2, 8), (11, 0, 3, 10),
         (0, 12, 7, 0), (0, 13, 9, 12), (0, 0, 11, 13)]


def test_instantiation_places_the_last_tile_of_a_pair():
    # Tiles 0..8 with unique colours: once the bottom-left corner and its east neighbour are
    # placed, every demanded pair has one tile and the board fills itself.
    puzzle = EdgeMatchingPuzzle(TILES, 3, n_colours=13)
    v = View(puzzle)
    cp.assign(v.st, v.m, v.g, 0, int(puzzle.arrays.tile_ori_start[0]))
    assert cp.propagate(v.st, v.m, v.g)
    assert len(v.placed()) == 9 and int(v.g[lay.G_PROPAGATED]) == 8
    v.check()


def test_preemption_tags_the_tiles_of_a_saturated_pair():
    puzzle = EdgeMatchingPuzzle(TILES, 3, n_colours=13)
    v = View(puzzle, instantiation=False)
    # Before any placement the four corners demand (0, 0) and exactly four tiles offer it.
    cp.assign(v.st, v.m, v.g, 0, int(puzzle.arrays.tile_ori_start[0]))
    assert cp.propagate(v.st, v.m, v.g)
    corner_pair = clockwise_pair(0, 0, 14)
    assert {v.tag(t) for t in (2, 6, 8)} == {corner_pair}
    assert int(v.g[lay.G_PREEMPTED]) >= 3
    v.check()
