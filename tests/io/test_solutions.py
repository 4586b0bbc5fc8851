"""Solutions as text: the letter grid of a tiling against a plain reference."""

from __future__ import annotations

from hypothesis import given, settings

from cpkit.engines.exact_cover.dlx import dlx_search as dlx
from cpkit.io.solutions import format_tiling
from tests.strategies import puzzles


def reference_grid(puzzle, tiling) -> str:
    """The grid built cell by cell from ``Tiling.grid`` (rows from the top, z-layers side by
    side, every name padded to the longest, ``.`` where nothing is)."""
    grid = tiling.grid(puzzle)
    X, Y, Z = puzzle.box
    width = max((len(name) for name in grid.values()), default=1)
    return "\n".join(
        "   ".join(" ".join(grid.get((x, y, z), ".").ljust(width) for x in range(X))
                   for z in range(Z)).rstrip()
        for y in range(Y - 1, -1, -1))


@settings(max_examples=60)
@given(puzzles())
def test_a_tiling_prints_as_its_cells_say(puzzle):
    """Random puzzles (2D and 3D boxes, regions with holes, stationary pieces, names of two
    characters and more): every solution prints as the reference prints it."""
    tilings = dlx.solve_tiling(puzzle, limit=20).solutions
    assert tilings
    for tiling in tilings:
        assert format_tiling(puzzle, tiling) == reference_grid(puzzle, tiling)
