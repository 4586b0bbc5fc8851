"""The exact-cover model: what its constructor refuses, and its restrictions."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cpkit.errors import InputError
from cpkit.models.exact_cover import ExactCover
from cpkit.engines.dispatch import solve

ROWS = [[0], [0], [1], [0, 1]]


@pytest.mark.parametrize("need", [[2], [1, 1, 1], [[1, 1]]])
def test_need_has_one_entry_per_primary_item(need):
    """need=[2] was spread over every item by numpy: 2 covers counted where a and b each
    needed twice would have fewer."""
    with pytest.raises(InputError, match="one entry per primary item"):
        ExactCover.from_rows(["a", "b"], [], ROWS, need=need)


@pytest.mark.parametrize("need", [[1.5, 1], [2**31, 1]])
def test_need_holds_whole_numbers_the_engines_can_take(need):
    with pytest.raises(InputError, match="whole numbers below 2"):
        ExactCover.from_rows(["a", "b"], [], ROWS, need=need)


def test_need_counts_multiplicities():
    # a twice, b once: {0, 1, 2}, {0, 3}, {1, 3}.
    assert solve(ExactCover.from_rows(["a", "b"], [], ROWS, need=[2, 1])).count == 3


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_a_restricted_cover_holds_the_kept_options_and_links_them_like_a_built_one(data):
    """``restricted`` takes the kept options' items by one mask (not checked again), and the
    dancing-links arrays of the result are those of the same options given row by row: every
    item's list runs through its options in order."""
    n_items = data.draw(st.integers(1, 6))
    rows = data.draw(st.lists(st.lists(st.integers(0, n_items - 1), min_size=1, max_size=4,
                                       unique=True), min_size=1, max_size=12))
    keep = np.array(data.draw(st.lists(st.booleans(), min_size=len(rows), max_size=len(rows))))
    names = [f"i{k}" for k in range(n_items)]
    cover = ExactCover.from_rows(names, [], rows)
    sub = cover.restricted(keep)
    kept = [row for row, k in zip(rows, keep) if k]
    assert [list(sub.option(k)) for k in range(sub.n_options)] == kept
    if kept:
        built = ExactCover.from_rows(names, [], kept).arrays()
        for a, b in zip(sub.arrays().fresh_sources() + (sub.arrays().top,),
                        built.fresh_sources() + (built.top,)):
            assert np.array_equal(a, b)
        arrays = sub.arrays()
        for item in range(1, n_items + 1):
            down, nodes = int(arrays.dlink[item]), []
            while down != item:
                nodes.append(down)
                down = int(arrays.dlink[down])
            assert nodes == sorted(nodes)
            assert [int(arrays.row_of[x]) for x in nodes] == \
                [k for k, row in enumerate(kept) if item - 1 in row]
