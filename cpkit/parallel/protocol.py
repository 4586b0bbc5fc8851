"""What a resumable engine implements to take part in split runs, and the records it exchanges.

A *split run* cuts an engine's search tree at a depth: the part above is searched once (the
*frontier* search, which stops at every node of that depth), each node at the depth is an open
*subproblem* searched on its own, possibly in another process or on another machine, and the
figures of all parts are summed.  Nothing is estimated or deduplicated: the parts are disjoint
and together make up the whole tree, so counts and per-level statistics equal the sequential
run's exactly (docs/architecture.md, "Split runs").

A subproblem is a ``Path``: the branch taken at each level from the root, as the engine's own
small integers (DLX: the option placed at each depth).  Under a deterministic engine and the same
prepared model the path determines the node completely, including anything the engine hid on
the way (DLX's tweaked options of repeated pieces).  Paths are plain lists of ints: picklable,
JSON-able, a few dozen bytes.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any, Callable, Protocol

from ..result import Result

Path = list[int]


#: Counters of ``Part.extra`` named so merge by maximum, not by sum.
MAXIMUM = "max_"


@dataclass
class Part:
    """The figures of one searched part of the tree (the frontier search or one subproblem).

    ``fits`` is indexed by depth (the engine's levels), and so is ``attempts`` for engines that
    test images that do not fit (FILA; empty otherwise); ``extra`` holds engine counters that add
    up (e.g. DLX's trigger backtracks), and maxima, named ``max_...``.  ``solutions`` holds
    engine-native solutions (lists of ints) when they were asked for.  ``deepest`` is the most
    cells an engine that keeps it (edge matching) filled at a node of the part, ``deepest_row``
    that node in the engine's terms (an orientation per cell, -1 empty).  Parts merge by
    addition (``add``), the deepest node and ``max_...`` counters by maximum.  ``state`` is what
    an engine that can (edge matching) needs to continue an unfinished subproblem where it
    stopped (opaque bytes; empty otherwise); checkpoints keep it apart, and it never merges."""

    count: int = 0                   # solutions that count under the counting mode
    found: int = 0                   # solutions the engine found (before the counting check)
    nodes: int = 0
    fits: list[int] = field(default_factory=list)
    attempts: list[int] = field(default_factory=list)
    extra: dict[str, int] = field(default_factory=dict)
    complete: bool = True
    seconds: float = 0.0
    solutions: list[list[int]] = field(default_factory=list)
    cpu_seconds: float = 0.0         # CPU time of the searching thread (robust to time-sharing)
    worker: str = ""                 # which worker searched it (host:pid)
    deepest: int = 0
    deepest_row: list[int] = field(default_factory=list)
    state: bytes = b""

    def add(self, other: "Part") -> None:
        self.count += other.count
        self.found += other.found
        self.nodes += other.nodes
        _add_lists(self.fits, other.fits)
        _add_lists(self.attempts, other.attempts)
        for k, v in other.extra.items():
            if k.startswith(MAXIMUM):
                self.extra[k] = max(self.extra.get(k, v), v)
            else:
                self.extra[k] = self.extra.get(k, 0) + v
        self.complete = self.complete and other.complete
        self.seconds += other.seconds
        self.cpu_seconds += other.cpu_seconds
        self.solutions.extend(other.solutions)
        if other.deepest > self.deepest:
            self.deepest, self.deepest_row = other.deepest, list(other.deepest_row)

    def to_json(self, deepest_row: bool = True) -> dict[str, Any]:
        """For checkpoints: everything but the solutions (checkpointed runs count only), and
        the deepest node's placements only if ``deepest_row`` (a checkpoint keeps the best
        part's)."""
        out = asdict(self)
        del out["solutions"], out["state"]
        if not deepest_row:
            out["deepest_row"] = []
        return out

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> "Part":
        """The part ``to_json`` wrote; ``ValueError`` for a negative figure (no search makes
        one: the file was edited or damaged)."""
        part = cls(count=int(data["count"]), found=int(data["found"]), nodes=int(data["nodes"]),
                   fits=[int(v) for v in data["fits"]],
                   attempts=[int(v) for v in data.get("attempts", [])],
                   extra={str(k): int(v) for k, v in data["extra"].items()},
                   complete=bool(data["complete"]), seconds=float(data["seconds"]),
                   cpu_seconds=float(data.get("cpu_seconds", 0.0)),
                   worker=str(data.get("worker", "")), deepest=int(data.get("deepest", 0)),
                   deepest_row=[int(v) for v in data.get("deepest_row", [])])
        figures = [part.count, part.found, part.nodes, *part.fits, *part.attempts, part.deepest]
        if min(figures) < 0 or not part.seconds >= 0:
            raise ValueError("a negative count, node count or time")
        return part


def _add_lists(mine: list[int], other: list[int]) -> None:
    if len(other) > len(mine):
        mine.extend([0] * (len(other) - len(mine)))
    for k, v in enumerate(other):
        mine[k] += v


@dataclass
class Frontier:
    """The outcome of a frontier search at ``depth``: the open subproblems in depth-first order,
    the part above them, and where the solutions found above the depth fall in that order
    (``shallow[k]`` = (number of subproblems before it, solution)) so that merged solutions come
    out in the sequential order."""

    depth: int
    paths: list[Path]
    above: Part
    shallow: list[tuple[int, list[int]]] = field(default_factory=list)


@dataclass
class Probe:
    """One random descent (Knuth's estimator): the branching degree at each level of the path,
    and what the exhaustively searched part at its end (if any) holds.  ``nodes``, ``count``
    hold the subtree's figures, or for a probe that ended at a solution ``count`` is 1 if it
    counts.  The first ``uncounted`` levels are choices that are not nodes of the engine (edge
    matching's symmetry roots): they weigh the rest but add no node themselves.  ``seconds``:
    the search time of the exhaustive part, to measure the engine's node rate by (the walk
    itself runs in Python at another pace)."""

    degrees: list[int]
    nodes: int = 0
    count: int = 0
    uncounted: int = 0
    seconds: float = 0.0

    def estimate(self) -> tuple[float, float]:
        """(nodes, counted solutions) of the probed tree, as Knuth's unbiased estimator.

        On a large board the product of the degrees can pass the float range (a 16 x 16 board
        with few colours: hundreds of levels of tens of candidates); the estimate is then
        ``inf``, and a zero factor (a dead end, nothing searched, no solution) stays 0 rather
        than making ``inf * 0 = nan``."""
        nodes, weight = 0.0, 1.0
        for level, d in enumerate(self.degrees):
            weight = weight * d if d else 0.0
            if level >= self.uncounted:
                nodes += weight
        below = weight * self.nodes if self.nodes else 0.0
        return nodes + below, (weight * self.count if self.count else 0.0)


def capped(cancel: Callable[[], bool] | None, paths: list[Path], max_paths: int | None
           ) -> Callable[[], bool] | None:
    """The ``cancel`` of a frontier search that appends its open nodes to ``paths``: true once
    ``cancel()`` is, or once ``paths`` holds more than ``max_paths`` (None: no bound).  The
    engines' frontier searches ask it after every open node they meet."""
    if max_paths is None:
        return cancel
    return lambda: len(paths) > max_paths or (cancel is not None and cancel())


class Splittable(Protocol):
    """A prepared, deterministic search of one model that can be split into subtrees.

    Built by the engine's ``prepare(model, options)`` (registered in ``cpkit.parallel.SPLITTERS``)
    identically in every process; everything it returns is picklable and JSON-able.
    """

    #: A finished result when no search is needed (e.g. a parity proof), else None.
    proof: Result | None
    #: The deepest level a path can have.
    max_depth: int

    def frontier(self, depth: int, store: bool, cancel: Callable[[], bool] | None = None,
                 max_paths: int | None = None) -> Frontier:
        """Search the tree above ``depth``; stop at every open node of that depth.  ``cancel``
        is asked now and then: True ends the search early, ``above.complete`` then False and
        ``paths`` only those met so far.  A search may also end so once it has met more than
        ``max_paths`` open nodes: a planner that has no use for so many stops paying for them
        (``capped`` builds that ``cancel``)."""

    def solve(self, path: Path, *, store: bool, limit: int | None, time_limit: float | None,
              cancel: Callable[[], bool] | None, max_stored: int | None = None,
              on_progress: Callable[[dict[str, int]], None] | None = None) -> Part:
        """Search the subtree below ``path`` (and nothing else) until done, ``limit`` counted
        solutions, ``time_limit`` seconds or ``cancel()``; ``Part.complete`` says which.  With
        ``store``, ``Part.solutions`` holds the first ``max_stored`` solutions (None: all).
        ``on_progress`` is called after each slice with the running figures ``{"nodes",
        "solutions", "deepest"}`` (local workers send them to the coordinator's progress
        line).  A tree whose unfinished parts carry a ``Part.state`` also takes ``state``
        (such a part's) and goes on from there: the part it returns then holds the figures
        and solutions of the whole subproblem."""

    def probe(self, path: Path, rand: list[float], stop_depth: int | None,
              cancel: Callable[[], bool] | None = None) -> Probe | None:
        """Descend from ``path`` at random (``rand[l]`` in [0, 1) picks the branch at depth l);
        at ``stop_depth`` (if given) search the subtree there exhaustively.  ``cancel`` is
        asked at every level and between the exhaustive part's slices: True abandons the walk
        (None is returned), since one walk of a large board can take minutes."""

    def result(self, total: Part, *, complete: bool, stop_reason: str, seconds: float,
               jit_seconds: float, solutions: list[list[int]]) -> Result:
        """The engine's ``Result`` for merged figures (as its sequential run would report)."""

    def decode(self, solution: list[int]) -> Any:
        """An engine-native solution as the model's solution object (a ``Tiling``, ...)."""
