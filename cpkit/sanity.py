"""Sanity checkers switched on by ``CPKIT_SANITY``: the engines' data structures checked against
the board they stand for, between the slices of a search.

Knuth's dancing-links programs ship a ``sanity()`` routine the user can switch on; cpkit's
checkers are the same idea for its kernels' flat arrays.  A numba kernel cannot read the
environment at run time, and a flag tested in its hot loop would cost every user, so the
checkers are plain Python, called by the engine's Python side between kernel calls: with
``CPKIT_SANITY=N`` (N >= 1) a search runs its kernel with a budget of N nodes per call and
checks the state after each call (``CPKIT_SANITY=1``: after every node the search enters, but
for solutions, which the kernels pass without stopping).  Unset, empty or ``0``: off, and the
engines run as without this module (one look-up of the environment per slice).  Counts, nodes
and statistics are the same either way: a kernel goes on from where it stopped.  A checker that finds the
state inconsistent raises ``SanityError`` naming what it found; ``calls`` counts the checks made
per checker, so that a test can see that they ran.
"""

from __future__ import annotations

import os
from collections import Counter
from typing import Callable

from .errors import InputError

#: Checks made, per checker name, in this process.
calls: Counter[str] = Counter()


class SanityError(AssertionError):
    """An engine's state disagrees with the board it stands for (a bug in cpkit)."""


def every() -> int:
    """How many nodes a search makes between two checks; 0 when ``CPKIT_SANITY`` is off."""
    value = os.environ.get("CPKIT_SANITY", "").strip()
    if not value:
        return 0
    try:
        return max(0, int(value))
    except ValueError:
        raise InputError(f"CPKIT_SANITY={value!r}: expected a number of nodes between two "
                         f"checks (1: every node; 0 or unset: off)") from None


def require(ok: bool, checker: str, message: str) -> None:
    """Raise ``SanityError`` (``checker: message``) unless ``ok``."""
    if not ok:
        raise SanityError(f"{checker}: {message}")


def run_checked(run: Callable[[int], int], check: Callable[[], None], node_budget: int,
                every: int, budget_spent: int) -> int:
    """One slice of a search run ``every`` nodes at a time, ``check()`` after each kernel call:
    ``run(budget)`` calls the kernel (which goes on from where it stopped, solutions buffered
    after those of the call before) and returns its status; the slice ends on a status other
    than ``budget_spent`` or when ``node_budget`` is used.  Returns the last status."""
    left = node_budget
    while True:
        piece = min(left, every)
        status = run(piece)
        check()
        left -= piece
        if status != budget_spent or left <= 0:
            return status
