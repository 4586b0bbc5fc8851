"""What every tiling engine shares: counting semantics and option checking.

Engines enumerate raw tilings of a (possibly image-filtered) puzzle; this front decides what is
counted.  Only ``raw`` counting exists so far; ``rotation`` and ``mirror`` need the symmetry group
of the puzzle and are refused with a clear message until they do.
"""

from __future__ import annotations

from typing import Any, Callable

from ..errors import EngineUnavailable, InputError
from ..models.tiling import Puzzle
from ..result import Result

UNIQUE_MODES = ("raw", "rotation", "mirror")
IMPLEMENTED_UNIQUE = ("raw",)


def check_common(limit: int | None, time_limit: float | None) -> None:
    if limit is not None and limit < 1:
        raise InputError(f"--limit must be at least 1, got {limit}")
    if time_limit is not None and not time_limit > 0:
        raise InputError(f"--time-limit must be positive, got {time_limit}")


def solve(puzzle: Puzzle, engine_fn: Callable[..., Result], *, unique: str = "raw",
          limit: int | None = None, time_limit: float | None = None, **options: Any) -> Result:
    if unique not in UNIQUE_MODES:
        raise InputError(f"unknown counting mode {unique!r}; expected one of "
                         f"{', '.join(UNIQUE_MODES)}")
    if unique not in IMPLEMENTED_UNIQUE:
        raise EngineUnavailable(f"counting up to {unique} (--unique {unique}) is not available "
                                f"yet; use --unique raw to count every symmetric copy")
    check_common(limit, time_limit)
    result = engine_fn(puzzle, limit=limit, time_limit=time_limit, **options)
    result.unique = unique
    return result
