"""Pictures: edge-matching boards and tilings are drawn, bad input is refused clearly."""

from __future__ import annotations

import re

import numpy as np
import pytest

from cpkit.errors import InputError

pytest.importorskip("matplotlib")
from cpkit.render import render_board, render_tiling  # noqa: E402


def test_board_png_and_svg(tmp_path):
    board = np.zeros((3, 4, 4), dtype=np.int64)
    board[1:, :, 0] = board[:-1, :, 2] = 1 + np.arange(4)          # matching edges
    for suffix, magic in ((".png", b"\x89PNG"), (".svg", b"<?xml")):
        out = tmp_path / f"b{suffix}"
        render_board(board, out, numbers=np.arange(12).reshape(3, 4), title="board")
        assert out.read_bytes().startswith(magic)


@pytest.mark.parametrize("shape", [(3, 3), (2, 2, 3), (0, 2, 4)])
def test_board_of_the_wrong_shape_is_refused(tmp_path, shape):
    with pytest.raises(InputError, match="rows, cols, 4"):
        render_board(np.zeros(shape, dtype=int), tmp_path / "b.png")


def test_tiling_needs_a_known_format(tmp_path, tiling_instance):
    from cpkit.engines.dispatch import solve

    puzzle = tiling_instance("pentominoes_20x3.txt")
    tiling = solve(puzzle, limit=1).solutions[0]
    with pytest.raises(InputError, match=".png or .svg"):
        render_tiling(puzzle, tiling, tmp_path / "t.jpg")
    render_tiling(puzzle, tiling, tmp_path / "t.svg")
    text = (tmp_path / "t.svg").read_text()
    assert all(p.name in text for p in puzzle.pieces)            # every piece is lettered
    with pytest.raises(InputError, match="flat"):
        render_tiling(puzzle, tiling, tmp_path / "iso.png", view="iso")
    assert not (tmp_path / "iso.png").exists()


def png_size(path) -> tuple[int, int]:
    data = path.read_bytes()
    assert data.startswith(b"\x89PNG")
    return int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")


@pytest.mark.parametrize("width, height", [(6, 3), (3, 6), (4, 4)])
def test_edge_matching_solution_is_drawn_to_the_board_shape(tmp_path, width, height):
    from cpkit.models.em_generator import plant
    from cpkit.render import render_edge_matching

    puzzle, planted = plant(width, height, border_colours=2, inner_colours=3, seed=1)
    out = tmp_path / "b.png"
    render_edge_matching(puzzle, planted, out, title="")
    w, h = png_size(out)
    assert out.stat().st_size > 1000
    # Cells are square: the picture has the board's proportions (margins aside).
    assert abs(w / h - width / height) < 0.15 * (width / height)
    svg = tmp_path / "b.svg"
    render_edge_matching(puzzle, planted, svg)
    text = svg.read_text()
    # Every tile is labelled with its number in the file.
    labels = sorted(int(x) for x in re.findall(r"<!-- (\d+) -->", text))
    assert labels == list(range(1, puzzle.n_tiles + 1))


def test_a_partial_board_labels_only_the_tiles_placed(tmp_path):
    from cpkit.models.edge_matching import BoardSolution
    from cpkit.models.em_generator import plant
    from cpkit.render import render_edge_matching

    puzzle, planted = plant(4, 4, border_colours=2, inner_colours=3, seed=2)
    kept = {0, 1, 2, 5, 9}                                # cells, from the bottom-left corner
    partial = BoardSolution(4, 4, tuple(t if c in kept else -1
                                        for c, t in enumerate(planted.tiles)),
                            tuple(r if c in kept else 0
                                  for c, r in enumerate(planted.rotations)))
    colours = puzzle.board_colours(partial)
    assert (colours == -1).all(axis=2).sum() == 16 - len(kept)
    svg = tmp_path / "partial.svg"
    render_edge_matching(puzzle, partial, svg)
    labels = sorted(int(x) for x in re.findall(r"<!-- (\d+) -->", svg.read_text()))
    assert labels == sorted(planted.tiles[c] + 1 for c in kept)


def test_a_cell_empty_on_some_sides_only_is_refused(tmp_path):
    board = np.zeros((2, 2, 4), dtype=np.int64)
    board[0, 0, 1] = -1
    with pytest.raises(InputError, match="some sides only"):
        render_board(board, tmp_path / "b.png")
    board[0, 0] = -2
    with pytest.raises(InputError, match="non-negative"):
        render_board(board, tmp_path / "b.png")
