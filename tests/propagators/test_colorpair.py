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
from cpkit.propagators import sparse_set as ss

pytestmark = pytest.mark.kernel


class View:
    """Reads the arenas back into Python values."""

    def __init__(self, puzzle, **options):
        self.p = puzzle
        self.a = puzzle.arrays
        self.opposite = options.get("opposite", True)
        sections = {cp.G_SEARCH: puzzle.n_cells * self.a.n_orientations + 1}
        self.st, self.m, self.g = cp.build_state(self.a, search_sections=sections, **options)
        self.cand = int(self.g[cp.G_SEARCH])

    def field(self, cell, f):
        return int(self.m[self.g[cp.O_CELLS] + cell * cp.CELL_STRIDE + f])

    def family(self, mem, size, universe, s):
        g, m = self.g, self.m
        return {int(ss.member(m, g[mem], universe, s, k)) for k in range(int(m[g[size] + s]))}

    def placed(self):
        return {c: self.field(c, cp.C_ORI) for c in range(self.p.n_cells)
                if self.field(c, cp.C_ORI) >= 0}

    def tag(self, t):
        return int(self.m[self.g[cp.O_TILES] + t * cp.TILE_STRIDE + cp.T_TAG])

    def check(self):
        """Every maintained quantity equals its definition on the current board."""
        p, a, g, m = self.p, self.a, self.g, self.m
        values = a.n_values
        placed = self.placed()
        used = {int(a.ori_tile[o]) for o in placed.values()}
        assert int(g[cp.G_EMPTY]) == p.n_cells - len(placed)
        n_pairs = a.n_pairs
        offers = {q: set() for q in range(n_pairs)}
        for t in range(p.n_tiles):
            if t not in used:
                for q in a.tile_pairs[t]:
                    if q >= 0 and (self.opposite or q < values * values):
                        offers[int(q)].add(t)
        demands = {q: set() for q in range(n_pairs)}
        known = {}
        for c in range(p.n_cells):
            if c in placed:
                continue
            side = []
            for s in range(4):
                x = p.neighbour(c, s)
                side.append(0 if x < 0 else
                            (int(a.ori_col[placed[x], (s + 2) % 4]) if x in placed else -1))
                assert self.field(c, cp.C_SIDE + s) == side[s]
            known[c] = sum(v >= 0 for v in side)
            assert self.field(c, cp.C_KNOWN) == known[c]
            for s in range(4):
                if side[s] >= 0 and side[(s + 1) % 4] >= 0:
                    demands[clockwise_pair(side[s], side[(s + 1) % 4], values)].add(c)
            if self.opposite:
                for s in range(2):
                    if side[s] >= 0 and side[s + 2] >= 0:
                        demands[opposite_pair(side[s], side[s + 2], values)].add(c)
        for q in range(n_pairs):
            assert self.family(cp.O_OFF_MEM, cp.O_OFF_SIZE, p.n_tiles, q) == offers[q], q
            assert self.family(cp.O_DEM_MEM, cp.O_DEM_SIZE, p.n_cells, q) == demands[q], q
            pre = sum(1 for t in offers[q] if self.tag(t) >= 0 and self.tag(t) != q)
            assert int(m[g[cp.O_NB_PRE] + q]) == pre
        assert self.family(cp.O_DP_MEM, cp.O_DP_SIZE, n_pairs, 0) == \
            {q for q in range(n_pairs) if demands[q]}
        assert int(g[cp.G_N3]) == sum(1 for k in known.values() if k >= 3)
        classes = {k: set() for k in range(1, 5)}
        for c, k in known.items():
            surr = sum(1 for s in range(4) if p.neighbour(c, s) in known and
                       known[p.neighbour(c, s)] >= 2)
            assert self.field(c, cp.C_SURR) == surr
            cls = 1 if k == 4 else 2 if k == 3 else 3 if k == 2 and surr >= 1 else \
                4 if k == 1 and surr >= 2 else 0
            if cls:
                classes[cls].add(c)
        for k in range(1, 5):
            assert self.family(cp.O_CLS_MEM, cp.O_CLS_SIZE, p.n_cells, k) == classes[k]
        for t in range(p.n_tiles):
            assert (int(m[g[cp.O_TILES] + t * cp.TILE_STRIDE + cp.T_CELL]) >= 0) == (t in used)


    def available(self, q):
        g, m = self.g, self.m
        avail = int(m[g[cp.O_OFF_SIZE] + q])
        if g[cp.G_PREEMPTION] and g[cp.G_N3] == 0:
            avail -= int(m[g[cp.O_NB_PRE] + q])
        return avail

    def check_rules(self, ok):
        """After propagation: no pair has fewer available tiles than demands, or the failure
        recorded is one (a pair short of tiles, or a cell no available tile fits)."""
        g, m = self.g, self.m
        short = [q for q in range(self.a.n_pairs)
                 if self.available(q) < int(m[g[cp.O_DEM_SIZE] + q])]
        if ok:
            assert short == [] and int(g[cp.G_QTOP]) == 0
        elif g[cp.G_FAIL_KIND] == cp.F_PAIR:
            assert int(g[cp.G_FAIL_WHO]) in short
        else:
            assert g[cp.G_FAIL_KIND] == cp.F_CELL
            c = int(g[cp.G_FAIL_WHO])
            assert self.field(c, cp.C_ORI) < 0 and self.field(c, cp.C_KNOWN) >= 2


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
        empty = [c for c in range(puzzle.n_cells) if v.field(c, cp.C_ORI) < 0]
        if marks and (not empty or rng.random() < 0.3):
            cp.undo_to(v.st, v.m, v.g, marks.pop())
            v.check()
            continue
        if not empty:
            break
        c = rng.choice([c for c in empty if v.field(c, cp.C_KNOWN) >= 2] or empty)
        end = cp.candidates(v.st, v.m, v.g, c, v.cand, 0)
        if end == 0:
            continue
        o = int(v.m[v.cand + rng.randrange(end)])
        marks.append(int(v.g[cp.G_TRAIL]))
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
    counters = [cp.G_N3, cp.G_TRAIL, cp.G_EMPTY, cp.G_QTOP]
    assert np.array_equal(v.g[counters], before[1][counters])
    assert np.array_equal(v.g[v.g[cp.O_CMASK]:], before[1][before[1][cp.O_CMASK]:])


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
    assert len(v.placed()) == 9 and int(v.g[cp.G_PROPAGATED]) == 8
    v.check()


def test_preemption_tags_the_tiles_of_a_saturated_pair():
    puzzle = EdgeMatchingPuzzle(TILES, 3, n_colours=13)
    v = View(puzzle, instantiation=False)
    # Before any placement the four corners demand (0, 0) and exactly four tiles offer it.
    cp.assign(v.st, v.m, v.g, 0, int(puzzle.arrays.tile_ori_start[0]))
    assert cp.propagate(v.st, v.m, v.g)
    corner_pair = clockwise_pair(0, 0, 14)
    assert {v.tag(t) for t in (2, 6, 8)} == {corner_pair}
    assert int(v.g[cp.G_PREEMPTED]) >= 3
    v.check()
