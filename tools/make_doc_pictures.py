"""Write the pictures in docs/img/: a 2D tiling, a 3D tiling and an edge-matching board.

Run from the repository root: ``.venv/bin/python tools/make_doc_pictures.py``.  The board is the
first solution the cp engine finds of a bundled generated 7x7 puzzle, checked by
``verify_board`` before drawing.
"""

from __future__ import annotations

from pathlib import Path

from cpkit import load
from cpkit.io.polycube import read_polycube
from cpkit.render import render_edge_matching, render_tiling
from cpkit.result import verify_board
from cpkit.engines.dispatch import solve

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "docs" / "img"


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    for name, view in (("pentominoes_10x6", "layers"), ("tetriscube", "both")):
        puzzle = read_polycube(ROOT / "instances" / "tiling" / f"{name}.txt")[0]
        tiling = solve(puzzle, limit=1).solutions[0]
        render_tiling(puzzle, tiling, OUT / f"{name}.png", view=view,
                      title=f"{puzzle.name}: first solution")
    board = load(ROOT / "instances" / "edge_matching" / "gen_7_b7i7_s2.txt")
    solution = solve(board, engine="cp", limit=1).solutions[0]
    assert verify_board(board, solution) == []
    render_edge_matching(board, solution, OUT / "edge_matching_7x7.png",
                         title=f"{board.name}: first solution (tile numbers as in the file)")
    print(f"wrote {', '.join(sorted(p.name for p in OUT.glob('*.png')))}")


if __name__ == "__main__":
    main()
