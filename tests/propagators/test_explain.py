"""Explanations: the bitset helpers, the shared-edge bound h(M) against a brute-force maximum,
and every explanation the propagator builds checked against the brute-force oracle: no solution
agrees with the board on a failure's explanation, and every solution that agrees with the board
on a propagated placement's reason makes that placement."""

from __future__ import annotations

import itertools
import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cpkit.models.edge_matching import Hint
from cpkit.models.em_generator import generate
from cpkit.propagators import colorpair as cp
from cpkit.propagators import colorpair_build as cb
from cpkit.propagators import colorpair_layout as lay
from cpkit.propagators import colorpair_remaining as rem
from cpkit.propagators import explain as ex
from cpkit.engines.edge_matching.cp import em_cp_kernel as K
from tests.oracles import count_boards

pytestmark = pytest.mark.kernel


def max_shared_edges(m: int, side: int = 4) -> int:
    """The most grid edges joining ``m`` cells of a ``side`` x ``side`` grid, by brute force."""
    best = 0
    cells = [(x, y) for x in range(side) for y in range(side)]
    for chosen in itertools.combinations(range(len(cells)), m):
        s = {cells[k] for k in chosen}
        edges = sum((x + 1, y) in s for x, y in s) + sum((x, y + 1) in s for x, y in s)
        best = max(best, edges)
    return best


@pytest.mark.parametrize("m", range(0, 10))
def test_shared_edge_bound_is_the_brute_force_maximum(m):
    assert rem.shared_edges(m) == max_shared_edges(m)


def test_shared_edge_bound_closed_form():
    # h(M) = 2M - ceil(2 sqrt(M)) for M >= 1 (Harary & Harborth), computed independently.
    for m in range(1, 400):
        ceil_2_sqrt = next(k for k in range(0, 2 * m + 2) if k * k >= 4 * m)
        assert rem.shared_edges(m) == 2 * m - ceil_2_sqrt


def test_state_tables_of_the_remaining_tile_rules():
    # The kernels read h(M) from a table and skip the cycle walk on colours never on the rim.
    puzzle = generate(6, border_colours=3, inner_colours=5, seed=4)
    a = puzzle.arrays
    st_, _, g = cb.build_state(a, shared_edge=True, cycles=True)
    shared = st_[g[lay.O_SHARED]:g[lay.O_SHARED] + a.n_tiles + 1]
    assert list(shared) == [2 * m - next(k for k in range(2 * m + 2) if k * k >= 4 * m)
                            if m else 0 for m in range(a.n_tiles + 1)]
    rim = st_[g[lay.O_RIM_COLOUR]:g[lay.O_RIM_COLOUR] + a.n_values]
    # frame-ring edges use colours 1..3 (the border palette), the others 4..8
    assert list(rim) == [0, 1, 1, 1, 0, 0, 0, 0, 0]


@given(bits=st.sets(st.integers(0, 199), max_size=30))
def test_bitset_helpers(bits):
    w = ex.n_words(200)
    g = np.zeros(3 * w, dtype=np.int64)
    for b in bits:
        ex.set_bit(g, 0, b)
    assert [b for b in range(200) if ex.has_bit(g, 0, b)] == sorted(bits)
    assert ex.is_empty(g, 0, w) == (not bits)
    seen = []
    for k in range(w):
        word = int(g[k]) % (1 << 64)
        while word != 0:
            low = word & -word
            seen.append(k * 64 + int(ex.lowest_bit(np.int64(low - (1 << 64) if low >> 63 else low))))
            word ^= low
    assert seen == sorted(bits)
    assert int(ex.deepest_level(np.full(200, 3, dtype=np.int32), _levels_g(g, w), lay.G_HEADER, w)) == \
        (3 if bits else -1)
    ex.set_bit(g, w, 7)
    ex.union(g, w, 0, w)
    assert [b for b in range(200) if ex.has_bit(g, w, b)] == sorted(bits | {7})
    for b in bits:
        ex.clear_bit(g, 0, b)
    assert ex.is_empty(g, 0, w)


def _levels_g(g, w):
    """A g array whose level section (every cell at level 3) is an m array given separately."""
    out = np.zeros(lay.G_HEADER + w, dtype=np.int64)
    out[lay.O_LEVEL] = 0
    out[lay.G_HEADER:] = g[:w]
    return out


class Walk:
    """A propagator state with the levels and reasons the search would keep."""

    def __init__(self, puzzle, **options):
        self.p = puzzle
        self.a = puzzle.arrays
        self.st, self.m, self.g = cb.build_state(
            self.a, explain=True, search_sections={K.O_CAND: puzzle.n_cells *
                                                    self.a.n_orientations + 1}, **options)
        self.w = int(self.g[lay.G_WORDS])

    def cells_of(self, row):
        return [c for c in range(self.p.n_cells) if ex.has_bit(self.g, row, c)]

    def hints(self, cells):
        out = []
        for c in cells:
            o = int(self.m[self.g[lay.O_CELLS] + c * lay.CELL_STRIDE + lay.C_ORI])
            assert o >= 0, "an explanation names an empty cell"
            x, y = self.p.xy(c)
            out.append(Hint(x, y, int(self.a.ori_tile[o]), int(self.a.ori_rot[o])))
        return out

    def count_with(self, cells, extra=()):
        return count_boards(self.p.with_hints(self.hints(cells) + list(extra)))


def placements(walk):
    return {c: int(walk.m[walk.g[lay.O_CELLS] + c * lay.CELL_STRIDE + lay.C_ORI])
            for c in range(walk.p.n_cells)
            if walk.m[walk.g[lay.O_CELLS] + c * lay.CELL_STRIDE + lay.C_ORI] >= 0}


def check_walk(puzzle, rng, **options):
    """Random decisions with propagation until a failure or a full board; every reason and the
    failure's explanation are checked against the oracle.  Returns what was checked."""
    v = Walk(puzzle, **options)
    st_, m, g = v.st, v.m, v.g
    cand = int(g[K.O_CAND])
    checked = {"reasons": 0, "failures": 0}
    for level in range(puzzle.n_cells):
        empty = [c for c in range(puzzle.n_cells) if c not in placements(v)]
        if not empty:
            break
        c = int(K.choose_cell(st_, m, g))
        end = int(cp.candidates(st_, m, g, c, cand, 0))
        if end == 0:
            row = int(g[lay.O_XROW])
            ex.clear(g, row, v.w)
            ex.restriction(st_, m, g, c, row)
            assert v.count_with(v.cells_of(row)) == 0
            checked["failures"] += 1
            break
        o = int(m[cand + rng.randrange(end)])
        before = set(placements(v))
        g[lay.G_LEVEL_NOW] = level
        m[g[lay.O_LEVEL] + c] = level
        cp.assign(st_, m, g, c, o)
        ok = cp.propagate(st_, m, g)
        if not ok:
            assert v.count_with(v.cells_of(int(g[lay.O_XROW]))) == 0
            checked["failures"] += 1
            break
        for x, ox in placements(v).items():
            if x in before or x == c:
                continue
            reason = v.cells_of(int(g[lay.O_REASON]) + x * v.w)
            assert x not in reason
            hint = v.hints([x])
            # Every solution agreeing on the reason places the same orientation on x.
            assert v.count_with(reason) == v.count_with(reason, hint)
            checked["reasons"] += 1
    return checked


def random_walks(seed, walks, preemption, opposite, rules):
    rng = random.Random(seed)
    puzzle = generate(rng.choice([3, 4]), 3, border_colours=rng.randint(1, 3),
                      inner_colours=rng.randint(2, 4), seed=seed)
    for _ in range(walks):
        check_walk(puzzle, rng, preemption=preemption, opposite=opposite, shared_edge=rules,
                   cycles=rules)


@settings(max_examples=12)
@given(seed=st.integers(0, 10 ** 6), preemption=st.booleans(), opposite=st.booleans(),
       rules=st.booleans())
def test_explanations_are_nogoods_and_reasons_force_their_placements(seed, preemption, opposite,
                                                                     rules):
    random_walks(seed, 2, preemption, opposite, rules)


@pytest.mark.slow
@settings(max_examples=150)
@given(seed=st.integers(0, 10 ** 6), preemption=st.booleans(), opposite=st.booleans(),
       rules=st.booleans())
def test_explanations_many_walks(seed, preemption, opposite, rules):
    random_walks(seed, 4, preemption, opposite, rules)


def test_walks_reach_failures_and_propagated_placements():
    rng = random.Random(1)
    total = {"reasons": 0, "failures": 0}
    for seed in range(8):
        puzzle = generate(4, 3, border_colours=2, inner_colours=3, seed=seed)
        for _ in range(3):
            for key, value in check_walk(puzzle, rng).items():
                total[key] += value
    assert total["reasons"] > 0 and total["failures"] > 0
