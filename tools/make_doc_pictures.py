"""Write the pictures in docs/img/: a 2D tiling, a 3D tiling and an edge-matching board.

Run from the repository root: ``.venv/bin/python tools/make_doc_pictures.py``.  The board is
synthetic (random inner edge colours, grey frame) but valid: every inner edge matches its
neighbour's, which the script checks before drawing.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from cpkit.io.polycube import read_polycube
from cpkit.render import render_board, render_tiling
from cpkit.search import solve

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "docs" / "img"


def synthetic_board(rows: int, cols: int, colours: int, seed: int) -> np.ndarray:
    """A solved board [rows, cols, 4] (N, E, S, W): frame edges 0, inner edges random."""
    rng = np.random.default_rng(seed)
    horizontal = rng.integers(1, colours + 1, size=(rows + 1, cols))   # edge above row r
    vertical = rng.integers(1, colours + 1, size=(rows, cols + 1))     # edge left of col c
    horizontal[0, :] = horizontal[rows, :] = 0
    vertical[:, 0] = vertical[:, cols] = 0
    board = np.zeros((rows, cols, 4), dtype=np.int64)
    board[:, :, 0] = horizontal[:-1, :]
    board[:, :, 2] = horizontal[1:, :]
    board[:, :, 3] = vertical[:, :-1]
    board[:, :, 1] = vertical[:, 1:]
    assert (board[1:, :, 0] == board[:-1, :, 2]).all() and (board[:, 1:, 3] == board[:, :-1, 1]).all()
    return board


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    for name, view in (("pentominoes_10x6", "layers"), ("tetriscube", "both")):
        puzzle = read_polycube(ROOT / "instances" / "tiling" / f"{name}.txt")[0]
        tiling = solve(puzzle, limit=1).solutions[0]
        render_tiling(puzzle, tiling, OUT / f"{name}.png", view=view,
                      title=f"{puzzle.name}: first solution")
    board = synthetic_board(6, 6, 5, seed=7)
    numbers = np.random.default_rng(7).permutation(36).reshape(6, 6) + 1
    render_board(board, OUT / "edge_matching_6x6.png", numbers=numbers,
                 title="a 6x6 edge-matching board (synthetic)")
    print(f"wrote {', '.join(sorted(p.name for p in OUT.glob('*.png')))}")


if __name__ == "__main__":
    main()
