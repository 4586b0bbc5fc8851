"""Sparse-set families against Python sets; undo by the opposite operation."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from cpkit.propagators import sparse_set as ss

pytestmark = pytest.mark.kernel


def members(a, mem, size, universe, s):
    return {int(ss.member(a, mem, universe, s, k)) for k in range(int(a[size + s]))}


@given(st.lists(st.tuples(st.integers(0, 2), st.integers(0, 9)), max_size=60))
def test_family_behaves_like_sets_and_undoes_exactly(ops):
    n_sets, universe = 3, 10
    a, mem, where, size = ss.new_family(n_sets, universe)
    model = [set() for _ in range(n_sets)]
    history = []
    snapshots = [a.copy()]
    for s, e in ops:
        if e in model[s]:
            ss.remove(a, mem, where, size, universe, s, e)
            model[s].discard(e)
            history.append(("remove", s, e))
        else:
            ss.insert(a, mem, where, size, universe, s, e)
            model[s].add(e)
            history.append(("insert", s, e))
        snapshots.append(a.copy())
        for k in range(n_sets):
            assert members(a, mem, size, universe, k) == model[k]
            for x in range(universe):
                assert bool(ss.contains(a, where, size, universe, k, x)) == (x in model[k])
    # Undoing every operation in reverse order, each by its opposite, restores the membership
    # of every earlier state (positions may differ; membership is what counts).
    for (op, s, e), before in zip(reversed(history), reversed(snapshots[:-1])):
        if op == "insert":
            ss.remove(a, mem, where, size, universe, s, e)
        else:
            ss.insert(a, mem, where, size, universe, s, e)
        for k in range(n_sets):
            assert members(a, mem, size, universe, k) == members(before, mem, size, universe, k)


def test_removed_elements_wait_beyond_the_size():
    a, mem, where, size = ss.new_family(1, 8)
    for e in range(8):
        ss.insert(a, mem, where, size, 8, 0, e)
    for e in (5, 2, 7):
        ss.remove(a, mem, where, size, 8, 0, e)
    assert int(a[size]) == 5
    assert sorted(int(x) for x in a[mem + 5:mem + 8]) == [2, 5, 7]
    assert np.array_equal(np.sort(a[mem:mem + 8]), np.arange(8))
