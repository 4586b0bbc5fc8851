"""Solutions as text: tilings as letter grids (layer by layer, like polycube), covers as lines."""

from __future__ import annotations

from ..models.tiling import Puzzle, Tiling


def format_tiling(puzzle: Puzzle, tiling: Tiling) -> str:
    """Rows from the top (largest y) down; z-layers side by side, z = 0 on the left; ``.`` for a
    cell outside the region that no stationary piece fills.

    The piece names go into a flat list, one entry per cell of the box (x fastest, then y, then
    z), rather than a dictionary of cells: a run that lists every solution calls this once a
    solution (16,146 times for the square 8 x 8)."""
    X, Y, Z = puzzle.box
    named = [(p.name, p.cells) for p in puzzle.stationary_pieces]
    named += [(pl.piece, pl.cells) for pl in tiling.placements]
    width = max((len(name) for name, _ in named), default=1)
    names = ["."] * (X * Y * Z)
    for name, cells in named:
        for x, y, z in cells:
            names[(z * Y + y) * X + x] = name
    if width > 1:
        names = [name.ljust(width) for name in names]
    lines = []
    for y in range(Y - 1, -1, -1):
        layers = [" ".join(names[(z * Y + y) * X:(z * Y + y + 1) * X]) for z in range(Z)]
        lines.append("   ".join(layers).rstrip())
    return "\n".join(lines)


def format_stats_table(fits: list[int], attempts: list[int]) -> str:
    """polycube-style per-level statistics (the FILA paper's Tables 2-5): attempts, fits and
    no-fits by number of pieces remaining, and per target: a level's counts divided by the
    number of targets it had, which is the fits of the level above (1 at the top level)."""
    top = len(fits) - 1
    lines = ["pieces left      attempts          fits       no-fits   per target: attempts"
             "      fits   no-fits"]
    for n in range(top, 0, -1):
        targets = 1 if n == top else fits[n + 1]
        no = attempts[n] - fits[n]
        per = (f"{attempts[n] / targets:20.3f} {fits[n] / targets:9.3f} {no / targets:9.3f}"
               if targets else f"{'-':>20} {'-':>9} {'-':>9}")
        lines.append(f"{n:11d} {attempts[n]:13,d} {fits[n]:13,d} {no:13,d} {per}")
    total_no = sum(attempts) - sum(fits)
    lines.append(f"{'total':>11} {sum(attempts):13,d} {sum(fits):13,d} {total_no:13,d}")
    return "\n".join(lines)
