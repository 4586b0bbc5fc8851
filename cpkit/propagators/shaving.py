"""Shaving (singleton tests), one driver for every engine: each remaining value of each cell is
placed, propagated and taken back; what the engine does with a value whose trial fails (remove
it, exclude it) and with a cell afterwards (place its last value) is its own.

The passes repeat while one changed something, so the result is a fixed point whatever the
order.  After ``budget`` trials the driver pauses between two of them, its place (cell, next
value, whether this pass changed anything) kept in the engine's state, and a later call goes on
from there: the same trials in the same order, so a slice of a search can end inside a node's
shaving (one node of a 16 x 16 board can make 300,000 trials).

An engine makes its driver once, at import, from four njit functions of its state (one tuple
``ctx``), with ``shaving_driver``; the hooks are compile-time constants of the driver, and
declared ``inline="always"`` they are inlined into it by numba, so that the driver compiles to
the loop an engine would write by hand (called, not inlined, the CP kernel's hooks cost it 8 to
10% of its CPU time with ``--shave 1``, where every cell of every node is looked at):

- ``begin_cell(ctx, c)``: the index of the cell's first value, or -1 if the cell is not shaved;
- ``value_at(ctx, c, i)``: the value at index ``i``, or ``SKIP`` (none there any more: go on to
  ``i + 1``) or ``END`` (the cell's values are done);
- ``try_value(ctx, c, v)``: the trial and what follows it: ``HELD``, ``CHANGED`` or ``FAILED``
  (the node has no solution);
- ``end_cell(ctx, c)``: after the cell's trials: ``HELD``, ``CHANGED`` or ``FAILED``.

The edges kernel removes a failed orientation at once (``CHANGED``); the CP kernel excludes it
and places a cell's last value at ``end_cell``.
"""

from __future__ import annotations

from numba import njit

# What ``shave`` returns.
SHAVE_DONE = 0
SHAVE_FAILED = 1
SHAVE_PAUSED = 2        # its trials reached the budget; the place says where it goes on

# What ``try_value`` and ``end_cell`` return.
HELD = 0
CHANGED = 1
FAILED = 2

# What ``value_at`` returns besides a value (values are >= 0).
SKIP = -1
END = -2


def shaving_driver(begin_cell, value_at, try_value, end_cell):
    """The shaving driver compiled on an engine's four hooks (the module docstring), as a
    module-level function of that engine.  The hooks are the closure's constants, as a global
    function is: a function passed as an argument would make numba refuse to cache the kernel
    that calls the driver ("dynamic globals")."""

    @njit(cache=False, _nrt=False)
    def shave(ctx, place, cell_at, at_at, changed_at, n_cells, budget):
        """Shaving passes from the place ``place[cell_at]`` (the cell), ``place[at_at]`` (its
        next value's index, -1: not begun), ``place[changed_at]`` (1: this pass changed
        something), at most ``budget`` trials.  Returns ``SHAVE_DONE``, ``SHAVE_FAILED`` or
        ``SHAVE_PAUSED`` (the place then says where the next call goes on; a pass starts at
        cell 0, -1, 0)."""
        c = place[cell_at]
        at = place[at_at]
        changed = place[changed_at] != 0
        made = 0
        while True:
            while c < n_cells:
                if at < 0:
                    at = begin_cell(ctx, c)
                    if at < 0:
                        c += 1
                        continue
                while True:
                    v = value_at(ctx, c, at)
                    if v == END:
                        break
                    if v < 0:
                        at += 1
                        continue
                    if made >= budget:
                        place[cell_at] = c
                        place[at_at] = at
                        place[changed_at] = 1 if changed else 0
                        return SHAVE_PAUSED
                    at += 1
                    made += 1
                    outcome = try_value(ctx, c, v)
                    if outcome == FAILED:
                        return SHAVE_FAILED
                    if outcome == CHANGED:
                        changed = True
                outcome = end_cell(ctx, c)
                if outcome == FAILED:
                    return SHAVE_FAILED
                if outcome == CHANGED:
                    changed = True
                c += 1
                at = -1
            if not changed:
                return SHAVE_DONE
            c = 0
            at = -1
            changed = False

    return shave
