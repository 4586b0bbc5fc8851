"""The random edge-matching generator: deterministic, palettes as the paper's, solvable."""

from __future__ import annotations

import pytest

from cpkit.errors import InputError
from cpkit.models.edge_matching import GREY, grey_sides
from cpkit.models.em_generator import generate
from tests.oracles import count_boards


def test_same_seed_same_puzzle_other_seed_other_puzzle():
    a = generate(5, border_colours=3, inner_colours=4, seed=11)
    b = generate(5, border_colours=3, inner_colours=4, seed=11)
    c = generate(5, border_colours=3, inner_colours=4, seed=12)
    assert a.tiles == b.tiles and a.tiles != c.tiles
    assert a.name == "gen_5_b3i4_s11"


@pytest.mark.parametrize("width, height", [(5, 5), (6, 4), (3, 2)])
def test_rim_and_inner_palettes_are_disjoint(width, height):
    border, inner = 3, 4
    p = generate(width, height, border_colours=border, inner_colours=inner, seed=3)
    assert p.n_colours == border + inner
    for t in p.tiles:
        grey = grey_sides(t)
        for s in range(4):
            if t[s] == GREY:
                continue
            along_rim = any((s - g) % 4 in (1, 3) for g in grey)
            assert (1 <= t[s] <= border) == along_rim


@pytest.mark.parametrize("seed", range(4))
def test_a_generated_puzzle_has_its_planted_solution(seed):
    p = generate(3, border_colours=2, inner_colours=2, seed=seed)
    assert count_boards(p) >= 1


@pytest.mark.parametrize("kwargs, message", [
    (dict(width=1, border_colours=1, inner_colours=1), "at least 2 x 2"),
    (dict(width=4, border_colours=0, inner_colours=1), "at least one"),
    (dict(width=4, border_colours=200, inner_colours=100), "at most"),
    (dict(width=100, border_colours=2, inner_colours=2), "too large"),
])
def test_bad_parameters(kwargs, message):
    with pytest.raises(InputError, match=message):
        generate(seed=0, **kwargs)
