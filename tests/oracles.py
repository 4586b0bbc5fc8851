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
