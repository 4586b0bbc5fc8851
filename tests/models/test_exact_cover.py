"""The exact-cover model: what its constructor refuses."""

from __future__ import annotations

import pytest

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
