"""The bundled tiling puzzles, built from the piece sets in ``polyforms``.

``tools/make_tiling_instances.py`` writes these to ``instances/tiling/`` in the polycube format;
a test checks the files still say what this module builds.
"""

from __future__ import annotations

from .geometry import Cell
from .polyforms import (BEDLAM, PENTOMINOES, SOMA, TETRIS_CUBE, TETROMINOES, diamond, hexominoes,
                        one_sided_pentominoes)
from .tiling import Piece, Puzzle


def _pieces(shapes) -> list[Piece]:
    return [Piece(name, tuple(cells)) for name, cells in shapes.items()]


def _box_with_region(pieces: list[Piece], box: tuple[int, int, int], region: set[Cell],
                     name: str) -> Puzzle:
    """The region expressed the polycube way: a stationary piece ``*`` fills the rest of the box."""
    X, Y, Z = box
    filler = tuple((x, y, z) for z in range(Z) for y in range(Y) for x in range(X)
                   if (x, y, z) not in region)
    return Puzzle(pieces + [Piece("*", filler, True)], box=box, name=name)


# Rectangles are stored with the short side along x, as in polycube's definition files: cells
# are numbered x fastest, so a fill order follows the short side first (de Bruijn and Fletcher's
# 6 x 10 board), and DLX's statistics match the published ones (892,247 fits for the 10x6 with X
# constrained, FILA Table 1, P1).
def pentominoes(long: int, short: int) -> Puzzle:
    return Puzzle(_pieces(PENTOMINOES), box=(short, long, 1), name=f"pentominoes_{long}x{short}")


def pentominoes_one_sided(long: int, short: int) -> Puzzle:
    return Puzzle(_pieces(one_sided_pentominoes()), box=(short, long, 1), one_sided=True,
                  name=f"pentominoes_onesided_{long}x{short}")


def pentominoes_box(x: int, y: int, z: int) -> Puzzle:
    """The 12 pentominoes in an x by y by z box (3x4x5, 2x5x6, 2x3x10: the three boxes they
    fill), free to turn in space."""
    return Puzzle(_pieces(PENTOMINOES), box=(x, y, z), name=f"pentominoes_{x}x{y}x{z}")


def pentominoes_8x8_centre_hole() -> Puzzle:
    """The 12 pentominoes in an 8x8 square with a 2x2 hole in the centre (Dudeney's board)."""
    region = {(x, y, 0) for x in range(8) for y in range(8)} - \
        {(x, y, 0) for x in (3, 4) for y in (3, 4)}
    return _box_with_region(_pieces(PENTOMINOES), (8, 8, 1), region,
                            "pentominoes_8x8_centre_hole")


def pentominoes_and_tetromino(tetromino: str, box: tuple[int, int, int], name: str) -> Puzzle:
    """The 12 pentominoes and one tetromino filling a box of 64 cells."""
    return Puzzle(_pieces(PENTOMINOES) + _pieces({tetromino: TETROMINOES[tetromino]}), box=box,
                  name=name)


def pt12_diamond() -> Puzzle:
    """12 pentominoes + 5 tetrominoes in the 13x13 diamond with its 5-cell centre removed."""
    region = set(diamond(6)) - {(6, 6, 0), (5, 6, 0), (7, 6, 0), (6, 5, 0), (6, 7, 0)}
    pieces = _pieces(PENTOMINOES) + _pieces({k: v for k, v in TETROMINOES.items()})
    return _box_with_region(pieces, (13, 13, 1), region, "pt12_diamond")


def hexominoes_parallelogram() -> Puzzle:
    """The 35 hexominoes in 14 rows of 15 cells, each row shifted one cell right of the last."""
    region = {(x + y, y, 0) for y in range(14) for x in range(15)}
    return _box_with_region(_pieces(hexominoes()), (28, 14, 1), region,
                            "hexominoes_15x14_parallelogram")


def hexominoes_box_in_diamond() -> Puzzle:
    """The 35 hexominoes in the 23x23 diamond around an 11x5 box (Busche's Figure 8)."""
    box = {(x, y, 0) for x in range(6, 17) for y in range(9, 14)}
    region = set(diamond(11)) - box
    return _box_with_region(_pieces(hexominoes()), (23, 23, 1), region,
                            "hexominoes_box_in_diamond")


def bundled() -> dict[str, tuple[Puzzle, str]]:
    """File name -> (puzzle, comment) for everything in ``instances/tiling``."""
    out = {}
    for x, y in ((10, 6), (12, 5), (15, 4), (20, 3)):
        out[f"pentominoes_{x}x{y}.txt"] = (pentominoes(x, y), f"The 12 pentominoes in a {x}x{y} "
                                                              f"box ({y} wide, {x} high).")
    for x, y, z in ((3, 4, 5), (2, 5, 6), (2, 3, 10)):
        out[f"pentominoes_{x}x{y}x{z}.txt"] = (pentominoes_box(x, y, z),
                                               f"The 12 pentominoes in a {x}x{y}x{z} box.")
    out["pentominoes_8x8_centre_hole.txt"] = (pentominoes_8x8_centre_hole(),
                                              "The 12 pentominoes in an 8x8 square with a 2x2 "
                                              "hole in the centre.")
    out["pentominoes_square_8x8.txt"] = (
        pentominoes_and_tetromino("o", (8, 8, 1), "pentominoes_square_8x8"),
        "The 12 pentominoes and the square tetromino in an 8x8 square (Dana Scott's puzzle, "
        "the square anywhere).")
    out["pentominoes_l_2x4x8.txt"] = (
        pentominoes_and_tetromino("l", (2, 4, 8), "pentominoes_l_2x4x8"),
        "The 12 pentominoes and the L tetromino in a 2x4x8 box.")
    out["pentominoes_l_16x4.txt"] = (
        pentominoes_and_tetromino("l", (4, 16, 1), "pentominoes_l_16x4"),
        "The 12 pentominoes and the L tetromino in a 16x4 box (4 wide, 16 high).")
    out["pentominoes_onesided_30x3.txt"] = (pentominoes_one_sided(30, 3),
                                            "The 18 one-sided pentominoes in a 30x3 box "
                                            "(3 wide, 30 high).")
    out["pentominoes_onesided_18x5.txt"] = (pentominoes_one_sided(18, 5),
                                            "The 18 one-sided pentominoes in an 18x5 box "
                                            "(5 wide, 18 high).")
    out["tetriscube.txt"] = (Puzzle(_pieces(TETRIS_CUBE), box=(4, 4, 4), name="tetriscube"),
                             "The Tetris Cube: 12 pieces in a 4x4x4 box.")
    out["somacube.txt"] = (Puzzle(_pieces(SOMA), box=(3, 3, 3), name="somacube"),
                           "Piet Hein's Soma cube: 7 pieces in a 3x3x3 box.")
    out["bedlamcube.txt"] = (Puzzle(_pieces(BEDLAM), box=(4, 4, 4), name="bedlamcube"),
                             "The Bedlam cube: 12 pentacubes and a tetracube in a 4x4x4 box.")
    out["pt12_diamond.txt"] = (pt12_diamond(), "12 pentominoes and 5 tetrominoes in a 13x13 "
                                               "diamond with a 5-cell hole in the centre.")
    out["hexominoes_15x14_parallelogram.txt"] = (hexominoes_parallelogram(),
                                                 "The 35 hexominoes in a 15x14 parallelogram.")
    out["hexominoes_box_in_diamond.txt"] = (hexominoes_box_in_diamond(),
                                            "The 35 hexominoes in Busche's box-in-a-diamond.")
    return out
