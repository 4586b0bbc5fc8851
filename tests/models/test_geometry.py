from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from cpkit.models import geometry
from cpkit.models.geometry import (canonical, group, is_connected, normalize, orientations,
                                   transform)
from cpkit.models.polyforms import PENTOMINOES, SOMA, TETRIS_CUBE


def test_group_sizes_and_closure():
    for kind, size in (("rotations", 24), ("mirror", 48), ("planar", 4)):
        mats = group(kind)
        assert len(mats) == size
        keys = {m.tobytes() for m in mats}
        assert all((a @ b).astype(np.int64).tobytes() in keys for a in mats for b in mats)


def test_rotations_are_proper():
    assert all(round(np.linalg.det(m)) == 1 for m in group("rotations"))


def test_pentomino_orientation_counts_in_the_plane():
    # Orientations that stay in the z = 0 plane: the classic 63 for the 12 pentominoes.
    flat = sum(len([o for o in orientations(s, "rotations") if all(c[2] == 0 for c in o)])
               for s in PENTOMINOES.values())
    assert flat == 63
    assert sum(len(orientations(s, "planar")) for s in PENTOMINOES.values()) == 41   # X has 1, I and Z have 2, the rest 4


def test_tetris_cube_complexities_match_the_seed():
    # Seed table 1: G and J have 12 unique orientations, the others 24.
    counts = {k: len(orientations(v, "rotations")) for k, v in TETRIS_CUBE.items()}
    assert counts == {k: (12 if k in "GJ" else 24) for k in TETRIS_CUBE}


def test_soma_chiral_pair_is_identified_only_with_mirror():
    a, b = SOMA["A"], SOMA["B"]
    assert canonical(a, "rotations") != canonical(b, "rotations")
    assert canonical(a, "mirror") == canonical(b, "mirror")


def test_normalize_and_transform():
    cells = [(2, 3, 1), (3, 3, 1)]
    assert normalize(cells) == ((0, 0, 0), (1, 0, 0))
    assert normalize(transform(cells, group("planar")[1])) in (((0, 0, 0), (0, 1, 0)),)


@given(st.lists(st.tuples(*[st.integers(-4, 4)] * 3), min_size=1, max_size=9, unique=True),
       st.sampled_from(("rotations", "mirror", "planar")))
@settings(max_examples=300, deadline=None)
def test_orientations_are_each_transform_of_the_cells_in_group_order(cells, kind):
    # ``orientations`` turns the cells by every matrix at once; one matrix at a time, each
    # image moved to the origin and sorted, the first of each kept, must give the same.
    expected: dict = {}
    for m in group(kind):
        expected.setdefault(normalize(transform(cells, m)), None)
    assert orientations(cells, kind) == list(expected)
    assert canonical(cells, kind) == min(expected)
    assert orientations(tuple(cells), kind) == list(expected)


@given(st.lists(st.tuples(*[st.integers(-4, 4)] * 3), min_size=1, max_size=9, unique=True),
       st.sampled_from(("rotations", "mirror", "planar")), st.integers(0, 47))
@settings(max_examples=300, deadline=None)
def test_a_turned_drawings_orientations_are_read_off_its_first_drawings(cells, kind, k):
    # A drawing met as an image of another (the automatic configuration builds its oriented
    # puzzles from turned pieces) has its images read off the first drawing's by the group's
    # product table: the same orientations, canonical form and connectivity as turning it
    # matrix by matrix.
    mats = group(kind)
    orientations(cells, kind)
    image = normalize(transform(cells, mats[k % len(mats)]))
    assert (image, kind) in geometry._IMAGE_OF
    expected: dict = {}
    for m in mats:
        expected.setdefault(normalize(transform(image, m)), None)
    assert orientations(image, kind) == list(expected)
    assert canonical(image, kind) == min(expected)
    assert is_connected(image) == is_connected(cells) == geometry._connected(image)
