"""Slow, obviously correct reference solvers that the engines are checked against."""

from __future__ import annotations


def count_exact_covers(n_primary: int, rows: list[list[int]], need: list[int] | None = None,
                       n_items: int | None = None) -> int:
    """Number of sets of rows covering each primary item ``need[i]`` times exactly and each
    secondary item at most once.  Plain recursion over "the first row in the solution that
    covers the lowest still-needed item", so every set is counted once."""
    need = list(need) if need is not None else [1] * n_primary
    n_items = n_items if n_items is not None else max([n_primary] + [max(r) + 1 for r in rows if r])
    remaining = need + [1] * (n_items - n_primary)

    def rec(start_ok: list[bool], remaining: list[int]) -> int:
        target = next((i for i in range(n_primary) if remaining[i] > 0), None)
        if target is None:
            return 1
        total = 0
        banned = []
        for k, row in enumerate(rows):
            if not start_ok[k] or target not in row:
                continue
            # Row k is used at most once below, and later branches at this node exclude it
            # (so the branches are disjoint).
            start_ok[k] = False
            banned.append(k)
            if all(remaining[i] > 0 for i in row):
                for i in row:
                    remaining[i] -= 1
                total += rec(start_ok, remaining)
                for i in row:
                    remaining[i] += 1
        for k in banned:
            start_ok[k] = True
        return total

    return rec([True] * len(rows), remaining)


def count_boards(puzzle) -> int:
    """Number of edge-matching solutions of ``puzzle`` respecting its hints, every rotated copy
    counted: plain recursion over the cells in order, trying every unused tile in every
    orientation whose colours are new, checking the frame and the west and south neighbours."""
    from cpkit.models.edge_matching import rotate

    w, h, n = puzzle.width, puzzle.height, puzzle.n_cells
    hinted = {puzzle.cell(x.x, x.y): x for x in puzzle.hints}
    hinted_tiles = {x.tile for x in puzzle.hints}
    shown: list = [None] * n
    used = [False] * puzzle.n_tiles

    def fits(cell: int, colours: tuple) -> bool:
        x, y = cell % w, cell // w
        frame = (y == h - 1, x == w - 1, y == 0, x == 0)
        if any((colours[s] == 0) != frame[s] for s in range(4)):
            return False
        if x > 0 and shown[cell - 1][1] != colours[3]:
            return False
        return y == 0 or shown[cell - w][0] == colours[2]

    def rec(cell: int) -> int:
        if cell == n:
            return 1
        if cell in hinted:
            hint = hinted[cell]
            options = [(hint.tile, rotate(puzzle.tiles[hint.tile], hint.rotation))]
        else:
            options = [(t, c) for t in range(puzzle.n_tiles)
                       if not used[t] and t not in hinted_tiles
                       for c in {rotate(puzzle.tiles[t], r) for r in range(4)}]
        total = 0
        for tile, colours in options:
            if fits(cell, colours):
                used[tile] = True
                shown[cell] = colours
                total += rec(cell + 1)
                used[tile] = False
        return total

    return rec(0)
