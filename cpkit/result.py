"""The one result type every engine returns, and independent solution checkers.

Engines differ in what they count (DLX counts fits, CP search counts branching nodes), so
``Stats`` keeps the common figures as fields and anything engine-specific in ``extra``.  The
checkers here re-derive validity from the model alone, never from engine internals, so tests can
use them to audit any engine.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

#: Why a search stopped.  Only ``COMPLETE`` means the count is exact.
COMPLETE = "complete"
LIMIT = "limit"
TIME_LIMIT = "time_limit"
INTERRUPTED = "interrupted"
STOP_REASONS = (COMPLETE, LIMIT, TIME_LIMIT, INTERRUPTED)


@dataclass
class Stats:
    """Search effort.  Per-level lists are indexed by the number of pieces remaining *before* the
    placement (index 0 is unused for tilings), as polycube prints ATTEMPTS[n] / FITS[n]."""

    nodes: int = 0
    fits_by_remaining: list[int] = field(default_factory=list)
    attempts_by_remaining: list[int] = field(default_factory=list)
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def fits(self) -> int:
        return int(sum(self.fits_by_remaining))

    @property
    def attempts(self) -> int:
        return int(sum(self.attempts_by_remaining))

    @property
    def no_fits(self) -> int:
        """Images tried that did not fit (always 0 for DLX, whose lists hold only fits)."""
        return self.attempts - self.fits


@dataclass
class Figures:
    """What a search found, before its engine turns it into a ``Result``: its count (the
    solutions the engine found), how it stopped, its time (search and compilation apart), its
    statistics, the solutions kept and, for engines that keep it (edge matching), the deepest
    node (its depth, and the engine's row of it).  A search in one process and a split run's
    summed parts give the same figures, so each engine assembles its ``Result`` from them in
    one function for both (``engines/edge_matching/em_result.py``,
    ``engines/tiling/tiling_result.py``)."""

    count: int
    complete: bool
    stop_reason: str
    seconds: float
    jit_seconds: float
    stats: Stats
    solutions: list[Any] = field(default_factory=list)
    deepest: int = 0
    deepest_row: list[int] = field(default_factory=list)

    @classmethod
    def of_outcome(cls, outcome: Any, count: int, jit_seconds: float, stats: Stats,
                   solutions: list[Any], **deepest: Any) -> "Figures":
        """The figures of a search in one process that ``drive`` stopped with ``outcome``."""
        return cls(count, outcome.complete, outcome.stop_reason, outcome.seconds, jit_seconds,
                   stats, solutions, **deepest)


@dataclass
class Result:
    """What a solve returns, whatever the engine."""

    family: str                      # "tiling" | "edge_matching" | "exact_cover"
    engine: str
    unique: str                      # counting semantics: "raw" | "rotation" | "mirror"
    count: int                       # solutions found under ``unique``
    complete: bool                   # True iff the search space was exhausted
    stop_reason: str                 # one of STOP_REASONS
    seconds: float                   # search time, excluding start-up and JIT compilation
    jit_seconds: float = 0.0         # compiling or loading the numba kernels
    solutions: list[Any] = field(default_factory=list)
    stats: Stats = field(default_factory=Stats)
    options: dict[str, Any] = field(default_factory=dict)
    name: str = ""
    #: The deepest partial solution searched (edge matching: a ``BoardSolution`` with empty
    #: cells), for runs that stop without one; None where the engine does not keep it.
    partial: Any = None

    @classmethod
    def unsearched(cls, family: str, engine: str, unique: str, reason: str, *,
                   prep_seconds: float, jit_seconds: float, options: dict[str, Any],
                   name: str, **extra: Any) -> "Result":
        """The result of a run stopped (``reason``: a Ctrl-C, SIGTERM or the time limit)
        before its search began: nothing counted, ``complete`` false, the set-up's seconds
        in ``prep_seconds``."""
        stats = Stats(extra={**extra, "prep_seconds": round(prep_seconds, 6)})
        return cls(family, engine, unique, 0, False, reason, 0.0, jit_seconds, [], stats,
                   dict(options), name)

    def summary(self) -> dict[str, Any]:
        """The JSON object of the CLI contract (docs/architecture.md, "Conventions")."""
        out: dict[str, Any] = {
            "name": self.name,
            "family": self.family,
            "engine": self.engine,
            "unique": self.unique,
            "solutions": self.count,
            "complete": self.complete,
            "stop_reason": self.stop_reason,
            "seconds": round(self.seconds, 6),
            "jit_seconds": round(self.jit_seconds, 6),
            "nodes": self.stats.nodes,
        }
        if self.family in ("tiling", "exact_cover"):
            out["fits"] = self.stats.fits
            out["attempts"] = self.stats.attempts
            out["no_fits"] = self.stats.no_fits
        out.update(self.stats.extra)
        out["options"] = self.options
        return out


def count_phrase(count: int) -> str:
    """A number of solutions as a sentence says it: ``1 solution``, ``1,024 solutions``."""
    return f"{count:,} solution{'' if count == 1 else 's'}"


def verify_tiling(puzzle, tiling) -> list[str]:
    """Problems with ``tiling`` as a solution of ``puzzle``; an empty list means it is valid.

    Checked from the model's definition only: every free cell covered exactly once, no cell outside
    the region, each placement a rotation (or permitted reflection) of a translation of its piece,
    and each shape used exactly as many times as it has copies.
    """
    from collections import Counter

    from .models.geometry import normalize

    problems: list[str] = []
    covered: Counter = Counter()
    used: Counter = Counter()
    shape_of_name = {name: shape for shape in puzzle.shapes for name in shape.names}
    for placement in tiling.placements:
        shape = shape_of_name.get(placement.piece)
        if shape is None:
            problems.append(f"unknown piece {placement.piece!r}")
            continue
        used[shape.index] += 1
        if normalize(placement.cells) not in shape.orientation_set:
            problems.append(f"piece {placement.piece} placed in a shape it cannot take")
        covered.update(placement.cells)
    region = puzzle.region_set
    for cell, n in covered.items():
        if cell not in region:
            problems.append(f"cell {cell} is outside the region")
        elif n > 1:
            problems.append(f"cell {cell} covered {n} times")
    missing = len(region - set(covered))
    if missing:
        problems.append(f"{missing} cell(s) left empty")
    for shape in puzzle.shapes:
        if used[shape.index] != shape.count:
            problems.append(f"shape {shape.label} used {used[shape.index]} times, needs {shape.count}")
    return problems


def verify_board(puzzle, solution, partial: bool = False) -> list[str]:
    """Problems with ``solution`` (a ``BoardSolution``) as a solution of an edge-matching
    ``puzzle``; an empty list means it is valid.

    Checked from the tiles alone: every cell holds a tile, every tile is used exactly once, every
    edge between two cells shows one colour on both sides, every side on the frame is grey (and
    no grey inside), and every hint's cell shows the hinted tile in the hinted orientation.
    With ``partial`` (a partial board, tile -1 on its empty cells) the same holds of the cells
    filled: no tile twice, the edges between two filled cells match, hinted cells hold their
    hint or nothing.
    """
    from collections import Counter

    from .models.edge_matching import GREY, SIDE_NAMES, rotate

    problems: list[str] = []
    n = puzzle.n_cells
    if (solution.width, solution.height) != (puzzle.width, puzzle.height) or \
            len(solution.tiles) != n or len(solution.rotations) != n:
        return [f"the solution is not a {puzzle.width} x {puzzle.height} board"]
    lowest = -1 if partial else 0
    if any(not lowest <= t < puzzle.n_tiles for t in solution.tiles) or \
            any(not 0 <= r <= 3 for r in solution.rotations):
        return ["a cell holds no tile or an invalid rotation"]
    used = Counter(solution.tiles)
    for tile in range(puzzle.n_tiles):
        if used[tile] > 1 or (used[tile] == 0 and not partial):
            problems.append(f"tile {tile + 1} is used {used[tile]} times")
    shown = [rotate(puzzle.tiles[t], r) if t >= 0 else None
             for t, r in zip(solution.tiles, solution.rotations)]
    for cell in range(n):
        if shown[cell] is None:
            continue
        x, y = puzzle.xy(cell)
        for side in range(4):
            other = puzzle.neighbour(cell, side)
            colour = shown[cell][side]
            if other < 0:
                if colour != GREY:
                    problems.append(f"({x}, {y}) shows colour {colour} to the frame on its "
                                    f"{SIDE_NAMES[side]} side")
            elif colour == GREY:
                problems.append(f"({x}, {y}) shows grey inside the board on its "
                                f"{SIDE_NAMES[side]} side")
            elif side in (0, 1) and shown[other] is not None and \
                    shown[other][side + 2] != colour:
                problems.append(f"({x}, {y}) and {puzzle.xy(other)} do not match "
                                f"({colour} against {shown[other][side + 2]})")
    for hint in puzzle.hints:
        cell = puzzle.cell(hint.x, hint.y)
        if shown[cell] is None:
            continue
        if solution.tiles[cell] != hint.tile or \
                shown[cell] != rotate(puzzle.tiles[hint.tile], hint.rotation):
            problems.append(f"hint on ({hint.x}, {hint.y}) not respected")
    return problems
