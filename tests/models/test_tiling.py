from __future__ import annotations

import numpy as np
import pytest

from cpkit.errors import InputError
from cpkit.models.catalog import bundled
from cpkit.models.tiling import Piece, Puzzle


def test_image_counts_match_the_seed(tiling_instance):
    assert len(tiling_instance("pentominoes_10x6.txt").images) == 2056       # FILA, test case P1
    assert len(tiling_instance("pentominoes_onesided_30x3.txt").images) == 1936


@pytest.mark.parametrize("name", ["somacube.txt", "pentominoes_square_8x8.txt",
                                  "pentominoes_8x8_centre_hole.txt"])
def test_the_image_table_lists_every_placement_in_order(tiling_instance, name):
    """Every translation of every orientation that lies in the region, by shape, orientation,
    then translation (z, y, x; x fastest), each image's cells in index order: written out one
    placement at a time here, against the table built orientations of one extent at a time
    (pieces of several sizes: the Soma cube's V and the square tetromino among pentominoes)."""
    p = tiling_instance(name)
    X, Y, Z = p.box
    want = []
    for s in p.shapes:
        for o, orient in enumerate(s.orientations):
            for z in range(Z):
                for y in range(Y):
                    for x in range(X):
                        cells = [(cx + x, cy + y, cz + z) for cx, cy, cz in orient]
                        if all(c in p.cell_index for c in cells):
                            want.append((s.index, o, (x, y, z),
                                         sorted(p.cell_index[c] for c in cells)))
    img = p.images
    got = [(int(img.shape[i]), int(img.orientation[i]), tuple(int(v) for v in img.offset[i]),
            img.cells_of(i).tolist()) for i in range(len(img))]
    assert got == want
    assert img.cell_idx.dtype == img.shape.dtype == img.orientation.dtype == np.int32


def test_exact_cover_columns(tiling_instance):
    p = tiling_instance("somacube.txt")
    cover = p.exact_cover()
    assert cover.n_primary == 27 + 7 and cover.n_options == len(p.images)
    assert all(len(cover.option(k)) == p.shapes[p.images.shape[k]].size + 1
               for k in range(cover.n_options))


def test_repeated_pieces_have_a_multiplicity():
    pieces = [Piece(n, ((0, 0, 0), (1, 0, 0))) for n in "abc"]
    p = Puzzle(pieces, box=(6, 1, 1))
    assert len(p.shapes) == 1
    assert list(p.exact_cover().need) == [1] * 6 + [3]


@pytest.mark.parametrize("kwargs, fragment", [
    (dict(box=(3, 1, 1)), "volume"),
    (dict(box=(2, 0, 1)), "positive"),
    (dict(), "box or a region"),
    (dict(region=[]), "empty"),
])
def test_inconsistent_models_raise(kwargs, fragment):
    with pytest.raises(InputError, match=fragment):
        Puzzle([Piece("a", ((0, 0, 0), (1, 0, 0)))], **kwargs)


@pytest.mark.parametrize("cells", [
    ((0, 0, 0), (2, 0, 0)),                      # a gap
    ((0, 0, 0), (1, 1, 0)),                      # corners touch, no face
    ((0, 0, 0), (1, 0, 0), (1, 0, 2)),           # another layer, not the next one
])
def test_a_piece_in_parts_is_refused(cells):
    """The volume filter counts the cells of each empty region a piece can fill, which holds
    only if every piece lies in one region: a piece in two parts made it report 0 solutions."""
    with pytest.raises(InputError, match="piece a is not connected"):
        Puzzle([Piece("a", cells), Piece("b", ((0, 0, 0),))], box=(len(cells) + 1, 1, 1))


def test_stationary_pieces_may_be_in_parts():
    holes = Piece("h", ((0, 0, 0), (2, 0, 0)), stationary=True)
    p = Puzzle([holes, Piece("a", ((0, 0, 0),)), Piece("b", ((0, 0, 0),))], box=(4, 1, 1))
    assert p.cells == [(1, 0, 0), (3, 0, 0)]


def test_the_volume_is_checked_before_a_huge_box_is_listed():
    with pytest.raises(InputError, match="region has 1000000000 free cells"):
        Puzzle([Piece("a", ((0, 0, 0),))], box=(1000, 1000, 1000))


def test_bundled_puzzles_build():
    for name, (puzzle, _) in bundled().items():
        assert puzzle.n_cells == sum(p.size for p in puzzle.mobile_pieces), name
        assert len(puzzle.images) > 0


def test_images_lie_in_the_region(tiling_instance):
    p = tiling_instance("pt12_diamond.txt")
    assert np.all(p.images.cell_idx < p.n_cells) and np.all(p.images.cell_idx >= 0)


def test_decoded_placements_are_kept_up_to_their_cap(tiling_instance, monkeypatch):
    """A listing decodes each (piece, image) once and keeps it (``PLACEMENTS_KEPT``): the
    Soma cube's 480 solutions decode alike with the placements kept, kept up to a cap of 10,
    and none kept, and the puzzle keeps no more than its cap."""
    from cpkit.engines.dispatch import solve
    from cpkit.models import tiling

    found = solve(tiling_instance("somacube.txt"), engine="dlx").solutions
    decoded = []
    for cap in (tiling.PLACEMENTS_KEPT, 10, 0):
        monkeypatch.setattr(tiling, "PLACEMENTS_KEPT", cap)
        puzzle = tiling_instance("somacube.txt")
        ids = [puzzle.images_of_tiling(t) for t in found]
        decoded.append([puzzle.tiling_from_images(np.array(i)) for i in ids])
        assert len(puzzle._placements) <= cap
    assert decoded[0] == decoded[1] == decoded[2] == list(found)
