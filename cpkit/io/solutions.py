"""Solutions as text: tilings as letter grids (layer by layer, like polycube), covers as lines."""

from __future__ import annotations

from ..models.tiling import Puzzle, Tiling


def format_tiling(puzzle: Puzzle, tiling: Tiling) -> str:
    """Rows from the top (largest y) down; z-layers side by side, z = 0 on the left; ``.`` for a
    cell outside the region that no stationary piece fills."""
    grid = tiling.grid(puzzle)
    X, Y, Z = puzzle.box
    width = max((len(name) for name in grid.values()), default=1)
    lines = []
    for y in range(Y - 1, -1, -1):
        layers = [" ".join(grid.get((x, y, z), ".").ljust(width) for x in range(X))
                  for z in range(Z)]
        lines.append("   ".join(layers).rstrip())
    return "\n".join(lines)


def format_stats_table(fits: list[int], attempts: list[int]) -> str:
    """polycube-style per-level statistics: placements by number of pieces remaining."""
    lines = ["pieces left      attempts          fits"]
    for n in range(len(fits) - 1, 0, -1):
        lines.append(f"{n:11d} {attempts[n]:13,d} {fits[n]:13,d}")
    lines.append(f"{'total':>11} {sum(attempts):13,d} {sum(fits):13,d}")
    return "\n".join(lines)
