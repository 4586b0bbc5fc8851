"""What every edge-matching engine shares: counting semantics, symmetry roots, the result.

An engine enumerates the solutions of the puzzle under a set of extra placements (a *root*).
This front decides the roots (``EdgeMatchingPuzzle.symmetry_roots``: the hints alone, or the
hints plus one fixed corner tile, or two roots on an oblong board) so that the sum of the roots'
counts is the count under ``unique``, and checks the options every engine takes.  Numba engines
chain their roots with ``RootChain`` inside one ``drive`` loop, so a limit, a time limit or a
Ctrl-C applies to the whole search.

Counting semantics (docs/algorithms.md): a solution assigns every cell a tile, distinguished by
its index, and one of that tile's *distinct* orientations.
"""

from __future__ import annotations

import time
from typing import Any, Callable, Iterable, Iterator, Protocol, Sequence

import numpy as np

from ...errors import InputError
from ...models.edge_matching import UNIQUE_MODES, BoardSolution, EdgeMatchingPuzzle, Hint
from ...result import Result
from ..runtime.driver import SLICE_SECONDS, DriveOutcome, drive
from .em_result import counted, deepest_search
from .em_options import CELL_RULES, DEFAULT_SHAVE, shave_setting  # noqa: F401 (the front's names)


def shave_limit(shave: int | str, n_orientations: int) -> int:
    """The shaving limit as a number: 0 for none, ``"all"`` for every candidate count (a limit
    above it is the same, and would not fit the kernels' 64 bits)."""
    setting = shave_setting(shave)
    every = max(1, n_orientations)
    return every if setting == "all" else min(setting, every)


class Search(Protocol):
    """A resumable search over one root (see ``cpkit.engines.runtime.driver.drive``)."""

    solutions: int
    nodes: int

    def step(self, max_new: int, node_budget: int) -> tuple[bool, int]: ...


class RootChain:
    """Runs one search per root, one after the other, as a single resumable search."""

    def __init__(self, roots: Sequence[tuple[Hint, ...]],
                 make: Callable[[tuple[Hint, ...]], Search]):
        self.roots = list(roots)
        self.make = make
        self.index = 0
        self.done: list[Search] = []
        self.current: Search | None = make(self.roots[0]) if self.roots else None

    @property
    def searches(self) -> list[Search]:
        return self.done + ([self.current] if self.current is not None else [])

    def total(self, attribute: str) -> int:
        return sum(int(getattr(s, attribute)) for s in self.searches)

    def progress(self) -> dict[str, int]:
        """The figures of a progress line (engines that keep their deepest node)."""
        best = deepest_search(self.searches)
        return {"nodes": self.total("nodes"), "solutions": self.total("solutions"),
                "deepest": 0 if best is None else best.deepest}

    def explored(self) -> float:
        """The share of the whole search finished (each root an equal share; the engine's
        ``explored`` within the one being searched, ``em_share_kernel.tree_share``)."""
        current = 0.0 if self.current is None else self.current.explored()
        return (len(self.done) + current) / max(1, len(self.roots))

    def step(self, max_new: int, node_budget: int) -> tuple[bool, int]:
        while self.current is not None:
            finished, new = self.current.step(max_new, node_budget)
            if not finished:
                return False, new
            self.done.append(self.current)
            self.index += 1
            self.current = self.make(self.roots[self.index]) \
                if self.index < len(self.roots) else None
            if new:
                return self.current is None, new
        return True, 0


def hand_over(rows: Iterable[np.ndarray], on_orientations: Callable[[np.ndarray], None] | None,
              found: list[np.ndarray]) -> None:
    """Give each solution (an orientation per cell) to ``on_orientations``, else keep it."""
    for row in rows:
        if on_orientations is not None:
            on_orientations(row)
        else:
            found.append(row)


class BufferedSearch:
    """What the numba edge-matching searches (CP, brute force, edges) share around their kernel:
    a buffer the kernel fills with solutions, handed over after each call, the deepest node's
    placements (``deep_buf``, which the kernel keeps), and the ``step`` of the ``Search``
    protocol.  A subclass calls ``_init_buffer`` and implements ``_kernel`` and ``deepest`` (and
    ``_cell_order`` if its buffers are not one orientation per cell in cell order)."""

    solutions: int
    #: The most cells filled at a node the search entered (hints and propagation included).
    deepest: int

    def _init_buffer(self, n_cells: int, store: bool, buffer: int,
                     on_orientations: Callable[[np.ndarray], None] | None) -> None:
        self.store = bool(store)
        self.buffer = buffer
        self.sol_buf = np.zeros((buffer if store else 1, n_cells), dtype=np.int32)
        self.deep_buf = np.full(n_cells, -1, dtype=np.int32)
        self.on_orientations = on_orientations
        self.found: list[np.ndarray] = []
        self.finished = False
        self.at_stop = False

    def _kernel(self, max_in_buf: np.int64, node_budget: np.int64) -> tuple[bool, bool, int]:
        """Run the kernel from its saved state with an empty buffer: (done, stopped at a split
        node, solutions buffered)."""
        raise NotImplementedError

    def _cell_order(self, buffered: np.ndarray) -> np.ndarray:
        """A row of the kernel's buffers as the orientation of each cell (a copy)."""
        return buffered.copy()

    def _row(self, k: int) -> np.ndarray:
        """Buffered solution ``k`` as the orientation of each cell."""
        return self._cell_order(self.sol_buf[k])

    def deepest_row(self) -> np.ndarray:
        """The deepest node entered so far: the orientation on each cell, -1 on the empty
        ones (the best partial board of a run that finds no solution)."""
        return self._cell_order(self.deep_buf)

    #: Arrays refilled by every slice: not part of the search's state.
    _SCRATCH = ("sol_buf",)

    def _arrays(self) -> dict[str, np.ndarray]:
        return {name: value for name, value in vars(self).items()
                if isinstance(value, np.ndarray) and name not in self._SCRATCH}

    def snapshot(self) -> dict[str, np.ndarray]:
        """The search's whole state between two slices: a copy of every array it owns (the
        kernels keep everything there: propagator state, trail, decision stack, counters)
        and its flags.  ``restore`` puts it into a search built the same way, which then goes
        on exactly as this one would (a checkpoint of a subproblem being searched)."""
        state = {name: value.copy() for name, value in self._arrays().items()}
        state["_flags"] = np.array([self.finished, self.at_stop], dtype=np.int8)
        return state

    def restore(self, state: dict[str, np.ndarray]) -> bool:
        """Continue from ``snapshot``'s ``state``; False (and nothing changed) unless it has
        this search's arrays, shapes and types (a snapshot of another board or engine, or of
        another cpkit whose kernels keep their state otherwise)."""
        mine = self._arrays()
        if set(state) != set(mine) | {"_flags"} or state["_flags"].shape != (2,):
            return False
        if any(state[k].shape != v.shape or state[k].dtype != v.dtype for k, v in mine.items()):
            return False
        for name, value in mine.items():
            if not np.array_equal(value, state[name]):     # model tables are equal already
                value[...] = state[name]
        self.finished, self.at_stop = (bool(f) for f in state["_flags"])
        return True

    def step(self, max_new: int, node_budget: int) -> tuple[bool, int]:
        if self.finished:
            return True, 0
        before = self.solutions
        cap = self.buffer if self.store else (1 << 62)
        self.finished, self.at_stop, n_buf = self._kernel(np.int64(min(cap, max_new)),
                                                          np.int64(node_budget))
        if self.store:
            hand_over((self._row(k) for k in range(n_buf)), self.on_orientations, self.found)
        return self.finished, self.solutions - before


def warm_on_a_tiny_board(name: str, factory: Callable[..., Search]) -> float:
    """Compile (or load) a numba engine's kernels by running ``factory``'s search to the end on
    a 2 x 2 board, storing solutions and counting only, reading its position as it goes
    (``cpkit.engines.runtime.jit.warm``)."""
    from ...models.em_generator import generate
    from ..runtime.jit import warm

    def run() -> None:
        tiny = generate(2, border_colours=1, inner_colours=1, seed=0)
        for store in (True, False):
            search = factory(tiny, store=store, buffer=2)
            while not search.step(10, 1)[0]:
                search.explored()           # compiled too: ``--engine auto`` reads it

    return warm(name, run)


class GeneratorSearch:
    """The ``step`` of the pure Python searches (``alldiff``, ``python_backtrack``): a subclass
    sets ``_events`` to a generator that yields None after each node and each solution's
    orientation per cell; ``step`` runs it for one slice.  Nothing to compile, no state to
    save: these engines run in one process, as references on small boards."""

    def _init_events(self, events: Iterator[np.ndarray | None], store: bool,
                     on_orientations: Callable[[np.ndarray], None] | None) -> None:
        self._events = events
        self.store = store
        self.on_orientations = on_orientations
        self.found: list[np.ndarray] = []
        self.solutions = 0
        self.nodes = 0
        self.finished = False

    def step(self, max_new: int, node_budget: int) -> tuple[bool, int]:
        """Search until ``max_new`` solutions, ``node_budget`` nodes more or one slice of time
        (``drive``'s budgets are sized for the compiled engines: a node here can take
        milliseconds, and Ctrl-C and time limits are checked between steps)."""
        new = 0
        start = self.nodes
        deadline = time.perf_counter() + SLICE_SECONDS
        for event in self._events:
            if event is not None:
                self.solutions += 1
                new += 1
                if self.store:
                    hand_over([event], self.on_orientations, self.found)
                if new >= max_new:
                    return False, new
            elif self.nodes - start >= node_budget or time.perf_counter() > deadline:
                return False, new
        self.finished = True
        return True, new


def root_chain(puzzle: EdgeMatchingPuzzle, roots: Sequence[tuple[Hint, ...]],
               factory: Callable[..., Search], *, count_only: bool,
               on_solution: Callable[[BoardSolution], None] | None
               ) -> tuple[RootChain, list[BoardSolution]]:
    """The searches of every root, one after the other, not started yet.
    ``factory(sub, store=..., on_orientations=...)`` builds the search of the puzzle ``sub``
    (the root's placements as hints).  Solutions go to ``on_solution`` if given, else into the
    returned list unless ``count_only``."""
    solutions: list[BoardSolution] = []
    emit = on_solution if on_solution is not None else solutions.append
    store = on_solution is not None or not count_only

    def make(root: tuple[Hint, ...]) -> Search:
        sub = puzzle.with_hints(root)
        return factory(sub, store=store, on_orientations=lambda row, sub=sub: emit(
            sub.solution_from_orientations(row)))

    return RootChain(roots, make), solutions


def run_roots(puzzle: EdgeMatchingPuzzle, roots: Sequence[tuple[Hint, ...]],
              factory: Callable[..., Search], *, limit: int | None, time_limit: float | None,
              count_only: bool, on_solution: Callable[[BoardSolution], None] | None,
              on_progress: Callable[[dict[str, int]], None] | None = None
              ) -> tuple[RootChain, DriveOutcome, list[BoardSolution]]:
    """Search every root (``root_chain``) in one ``drive`` loop.  ``on_progress`` gets
    ``RootChain.progress()`` after every slice of the search."""
    chain, solutions = root_chain(puzzle, roots, factory, count_only=count_only,
                                  on_solution=on_solution)
    report = None if on_progress is None else (lambda: on_progress(chain.progress()))
    outcome = drive(chain.step, limit=limit, time_limit=time_limit, on_progress=report)
    return chain, outcome, solutions


#: What the front hands the engines itself: a caller's value would clash with it.
FRONT_SUPPLIED = ("roots",)


def check_unique(unique: str) -> None:
    if unique not in UNIQUE_MODES:
        raise InputError(f"unknown counting mode {unique!r}; expected one of "
                         f"{', '.join(UNIQUE_MODES)}")


def solve(puzzle: EdgeMatchingPuzzle, engine_fn: Callable[..., Result], *,
          unique: str = "rotation", limit: int | None = None, first: bool = False,
          time_limit: float | None = None, count_only: bool = False,
          on_solution: Callable[[BoardSolution], None] | None = None,
          **engine_options: Any) -> Result:
    """Solve ``puzzle`` with ``engine_fn`` under counting mode ``unique`` ("rotation": each
    solution once up to the board's rotations; "raw": every rotated copy).  With hints the hints
    fix the board and both modes count the solutions that respect them (reported as "hints").
    ``first`` stops at the first solution (``limit=1``).  Solutions go to ``on_solution`` as they
    are found if given, else into the result (unless ``count_only``).  ``em_auto.choose``
    passes an engine function that may return the engine it chose instead of a result."""
    if first:
        limit = 1 if limit is None else min(limit, 1)
    check_unique(unique)
    roots = puzzle.symmetry_roots(unique)
    result = engine_fn(puzzle, roots=roots, limit=limit, time_limit=time_limit,
                       count_only=count_only, on_solution=on_solution, **engine_options)
    if not isinstance(result, Result):
        return result               # ``em_auto.Choice``: the engine for a split run, not a run
    return counted(result, puzzle, unique, len(roots))
