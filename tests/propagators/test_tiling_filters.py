"""Volume and parity tables, the filters, and the triggers."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given, settings

from cpkit.models.catalog import _pieces
from cpkit.models.polyforms import hexominoes
from cpkit.models.symmetry import plan_redundancy
from cpkit.models.tiling import Piece, Puzzle
from cpkit.propagators import tiling_filters as tf
from cpkit.engines.dispatch import solve
from tests.strategies import puzzles


def _digits(table, state):
    return [(state // int(r)) for r in table.radix]


def test_volume_table_is_subset_sums(tiling_instance):
    p = Puzzle([Piece("a", ((0, 0, 0),)), Piece("b", ((0, 0, 0), (1, 0, 0))),
                Piece("c", ((0, 0, 0), (1, 0, 0))), Piece("d", ((0, 0, 0), (1, 0, 0), (2, 0, 0)))],
               box=(8, 1, 1))
    table = tf.volume_table(p)
    sizes = [1, 2, 3]
    counts = [1, 2, 1]
    for state in range(table.achievable.shape[0]):
        left = [(state // int(table.radix[k])) % (counts[k] + 1) for k in range(3)]
        bag = [s for s, n in zip(sizes, left) for _ in range(n)]
        sums = {sum(c) for r in range(len(bag) + 1) for c in itertools.combinations(bag, r)}
        assert {v for v in range(9) if table.achievable[state, v]} == sums


def test_parity_table_is_signed_sums(tiling_instance):
    p = tiling_instance("tetriscube.txt")
    mags = tf.parity_magnitudes(p)
    assert sorted(mags) == [0] + [1] * 8 + [2] * 3       # the seed: A 0; B, E, L 2; others 1
    table = tf.parity_table(p)
    bag = [m for m in mags if m]
    sums = {sum(s * m for s, m in zip(signs, bag)) for signs in itertools.product((1, -1), repeat=len(bag))}
    reach = {v - table.offset for v in range(table.achievable.shape[1])
             if table.achievable[table.initial, v]}
    assert reach == sums


def test_seed_filter_counts_on_the_10x6(tiling_instance):
    p = tiling_instance("pentominoes_10x6.txt")
    keep = np.ones(len(p.images), dtype=bool)
    assert tf.volume_filter(p, keep) == 128                  # Figure 13: 128 of 2056
    keep = np.ones(len(p.images), dtype=bool)
    assert tf.fit_filter(p, keep, max_passes=1)[0] == 144     # 128 + 16 (Figure 17)
    # With X constrained the seed removes 227 in one pass and 235 in two, which is the fixed
    # point.  A pass removes images as it goes, so how much one pass removes depends on the
    # order images are visited; the fixed point does not (removal is monotone).
    keep = plan_redundancy(p, "rotation").kept.copy()
    removed, passes = tf.fit_filter(p, keep)
    assert removed == 235 and passes >= 2
    keep = plan_redundancy(p, "rotation").kept.copy()
    tf.volume_filter(p, keep)
    assert keep.sum() == 1907                                 # FILA: 2056 - 24 - 125


def test_seed_volume_filter_on_the_one_sided_30x3(tiling_instance):
    p = tiling_instance("pentominoes_onesided_30x3.txt")
    keep = np.ones(len(p.images), dtype=bool)
    assert tf.volume_filter(p, keep) == 776                   # "776 out of 1936"


@pytest.mark.parametrize("w, h", [(14, 15), (10, 21), (7, 30), (6, 35), (5, 42), (3, 70)])
def test_hexominoes_never_fill_a_rectangle(w, h):
    p = Puzzle(_pieces(hexominoes()), box=(w, h, 1), name=f"hexominoes_{w}x{h}")
    assert tf.parity_infeasible(p)
    result = solve(p, count_only=True)
    assert result.count == 0 and result.complete
    assert result.stats.extra["proof"] == "parity" and result.stats.nodes == 0


def test_box_in_diamond_parity_is_22(tiling_instance):
    p = tiling_instance("hexominoes_box_in_diamond.txt")
    assert abs(tf.region_parity(p)) == 22                     # Figure 11
    keep = np.ones(len(p.images), dtype=bool)
    removed = tf.parity_filter(p, keep)
    eleven = [s for s, m in zip(p.shapes, tf.parity_magnitudes(p)) if m]
    assert len(eleven) == 11
    # Parity 22 is the maximum: every non-zero-parity piece must favour black, so the filter
    # drops exactly the images of those eleven pieces that favour white: about half of them.
    par = tf.image_parities(p)
    white = sum(int(np.sum((p.images.shape == s.index) & (par * np.sign(tf.region_parity(p)) < 0)))
                for s in eleven)
    assert removed == white > 0


FILTER_SETTINGS = [
    dict(volume_filter=False, parity_filter=False),
    dict(volume_filter=True, parity_filter=True, fit_filter=True),
    dict(volume_filter=False, parity_filter=False, volume_trigger=1, parity_trigger=1),
    dict(volume_filter=1, parity_filter=1),
    dict(volume_filter=3, parity_filter=2, volume_trigger=2),
]


@pytest.mark.kernel
@pytest.mark.parametrize("name, unique", [("pentominoes_20x3.txt", "rotation"),
                                          ("somacube.txt", "raw"),
                                          ("pentominoes_onesided_30x3.txt", "rotation")])
def test_filters_and_triggers_never_change_counts(tiling_instance, name, unique):
    p = tiling_instance(name)
    counts = set()
    for setting in FILTER_SETTINGS:
        r = solve(p, unique=unique, count_only=True, **setting)
        assert r.complete
        counts.add(r.count)
    assert len(counts) == 1


@pytest.mark.kernel
@settings(max_examples=80)
@given(puzzles())
def test_filters_never_change_counts_on_random_puzzles(puzzle):
    base = solve(puzzle, unique="raw", volume_filter=False, parity_filter=False,
                 count_only=True).count
    for setting in FILTER_SETTINGS[1:]:
        assert solve(puzzle, unique="raw", count_only=True, **setting).count == base


def test_triggers_fire(tiling_instance):
    # Triggers act while DLX is in charge, so DLX runs the whole search here.
    r = solve(tiling_instance("pentominoes_10x6.txt"), engine="dlx", unique="rotation",
              count_only=True, volume_filter=False, parity_filter=False, volume_trigger=1,
              parity_trigger=1)
    assert r.count == 2339
    assert r.stats.extra["volume_backtracks"] > 0
    plain = solve(tiling_instance("pentominoes_10x6.txt"), engine="dlx", unique="rotation",
                  count_only=True, volume_filter=False, parity_filter=False)
    assert r.stats.fits < plain.stats.fits
