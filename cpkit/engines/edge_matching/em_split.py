"""The edge-matching engines (ColorPair CP, brute force, edge filtering) as ``Splittable``
searches.

A path starts with the symmetry root searched (``EdgeMatchingPuzzle.symmetry_roots``: one or
two on most boards), then lists the placements the engine chose on the way down, each as
``cell * n_orientations + orientation``.  A subproblem is searched as a fresh search whose root
placements are the root's and the path's: every solution below the node holds them, and every
solution that holds them lies below the node (the placements of one level are different values
of one cell, so sibling subtrees share no solution).  The frontier search is the engine's own
search told to stop on entering any node reached by the given number of choices
(``stop_after``), so subproblems follow the engine's own branching.

In a checkpointed run a subproblem stopped before its end (Ctrl-C, SIGTERM, a time limit)
hands back its engine's whole state with its part (``Part.state``: the search's arrays, as
``BufferedSearch.snapshot`` takes them between two slices, the solutions it kept and its time,
as a compressed ``.npz``), and sends it every ``state_every`` seconds meanwhile (``on_state``),
so that a run resumed later goes on inside it rather than searching it again: on an
Eternity-size board a subproblem can take longer than any one run.

Counts are exact for every engine.  Nodes add up exactly for the brute force (its order is
fixed; a fixed cell costs no node, as a hint) and for the edge-filtering engine (its filters
reach the one greatest fixed point whatever the order, and its cell choice depends on the
domains alone; with the complete AllDifferent too).  For the CP engine the sum can differ from the
sequential run's: a subproblem propagates its placements from scratch (the same fixed point,
but the order of a cell's pattern class, which breaks ties in the choice of cell, may differ);
no backjump crosses a split node (the frontier treats it as holding a solution); and shaving
restarts at each subproblem's root.
"""

from __future__ import annotations

import io
import time
import zipfile
from typing import Any, Callable

import numpy as np

from ...errors import InputError
from ...models.edge_matching import EdgeMatchingPuzzle
from ...propagators import colorpair_build
from ...result import LIMIT, Figures, Result, Stats
from .backtrack import em_backtrack_search as em_backtrack
from .cp import em_cp_search as em_cp
from .edges import em_edges_search as em_edges
from ..runtime.driver import DriveOutcome, SliceBudget, drive, reporter
from .em_front import CELL_RULES, check_unique, shave_limit
from .em_result import counted, deepest_search, summed_statistics
from ..exact_cover.dlx.dlx_split import worker_id
from ..options import defaults
from .cp.em_cp_options import CpOptions
from .edges.em_edges_options import EdgesOptions
from ...parallel.protocol import Frontier, Part, Path, Probe, capped

#: The CP engine's options (``em_cp.solve``'s keywords) and their defaults.
CP_OPTIONS = defaults(CpOptions)
#: The edge-filtering engine's options (``em_edges.solve``'s keywords) and their defaults.
EDGES_OPTIONS = defaults(EdgesOptions)
#: The frontier search asks whether to stop after a first slice of this many nodes, then after
#: slices sized to take a tenth of a second (``SliceBudget``), of at least ``FRONTIER_LEAST``:
#: a fixed 16,384 took 5 s a slice on a slow machine with every cell shaved at every node.
FRONTIER_SLICE = 1 << 10
FRONTIER_LEAST = 1 << 6
MODULES = {"cp": em_cp, "backtrack": em_backtrack, "edges": em_edges}


class EdgeMatchingTree:
    """A prepared edge-matching search, split into subtrees (see ``protocol.Splittable``)."""

    #: A probe step runs a fresh search per level (cheap next to a tiling's replay).
    order_probes = 400
    size_probes = 40
    #: ``solve`` takes ``on_state`` and ``state_every`` (a checkpointed run's running states).
    saves_state = True

    def __init__(self, puzzle: EdgeMatchingPuzzle, engine: str, unique: str,
                 engine_options: dict[str, Any]):
        self.puzzle = puzzle
        self.engine = engine
        self.unique = unique
        self.engine_options = engine_options
        self.proof = None
        a = puzzle.arrays
        self.n_orientations = a.n_orientations
        self.roots: list[tuple[list[int], list[int]]] = []
        for hints in puzzle.symmetry_roots(unique):
            b = puzzle.with_hints(hints).arrays
            self.roots.append(([int(c) for c in b.hint_cell], [int(o) for o in b.hint_ori]))
        free = min((a.n_cells - len(cells) for cells, _ in self.roots), default=0)
        self.max_depth = 1 + free
        self.jit_seconds = MODULES[engine].jit_seconds()

    # ------------------------------------------------------------------ helpers
    def _search(self, path: Path, store: bool, sink: Callable[[np.ndarray], None]):
        """A fresh search of the node ``path`` (a root and the choices below it)."""
        foreign = InputError(f"subproblem {path} does not exist in this puzzle under these "
                             f"options (was it split from another puzzle?)")
        if not path or not 0 <= path[0] < len(self.roots):
            raise foreign
        cells, oris = list(self.roots[path[0]][0]), list(self.roots[path[0]][1])
        for code in path[1:]:
            cell, o = divmod(int(code), self.n_orientations)
            if not 0 <= cell < self.puzzle.n_cells or cell in cells:
                raise foreign           # the kernels trust their placements
            cells.append(cell)
            oris.append(o)
        placements = (np.asarray(cells, dtype=np.int32), np.asarray(oris, dtype=np.int32))
        if self.engine == "cp":
            return em_cp.CpSearch(self.puzzle, store=store, on_orientations=sink,
                                  placements=placements, **self.engine_options)
        if self.engine == "edges":
            return em_edges.EdgesSearch(self.puzzle, store=store, on_orientations=sink,
                                        placements=placements, **self.engine_options)
        return em_backtrack.BacktrackSearch(self.puzzle, store=store, on_orientations=sink,
                                            placements=placements)

    def _open_nodes(self, path: Path, decisions: int, store: bool,
                    sink: Callable[[np.ndarray], None], paths: list[Path],
                    cancel: Callable[[], bool] | None = None) -> tuple[Any, bool]:
        """Search below ``path`` down to the nodes ``decisions`` choices deeper, appending
        their paths to ``paths`` in depth-first order (solutions met above them go to
        ``sink``); returns the search (for its figures) and whether it finished, which it
        does unless ``cancel()`` (asked between slices of about a tenth of a second) says
        stop."""
        search = self._search(path, store, sink)
        search.stop_after(decisions)
        slices = SliceBudget(FRONTIER_SLICE, FRONTIER_LEAST)
        while True:
            if cancel is not None and cancel():
                return search, False
            start = time.perf_counter()
            finished, _ = search.step(1 << 30, slices.nodes if cancel else 1 << 62)
            slices.took(time.perf_counter() - start)
            if search.at_stop:
                paths.append(list(path) + [c * self.n_orientations + o
                                           for c, o in search.decisions()])
            elif finished:
                return search, True

    def _part(self, searches: list, count: int, complete: bool, seconds: float,
              solutions: list[list[int]], cpu_start: float) -> Part:
        part = Part(count=count, found=sum(s.solutions for s in searches),
                    nodes=sum(s.nodes for s in searches), extra=summed_statistics(searches),
                    complete=complete, seconds=seconds, solutions=solutions,
                    cpu_seconds=time.thread_time() - cpu_start, worker=worker_id())
        best = deepest_search(searches)
        if best is not None:
            part.deepest, part.deepest_row = best.deepest, [int(o) for o in best.deepest_row()]
        return part

    @staticmethod
    def state_nodes(state: bytes) -> int:
        """The nodes a ``Part.state`` had searched (0 if it cannot be read): a resumed run's
        progress line leaves them out of its rate."""
        arrays = _unpack(state)
        nodes = None if arrays is None else arrays.get("nodes")
        return int(nodes[0]) if nodes is not None and nodes.shape == (1,) else 0

    def decode(self, solution: list[int]):
        return self.puzzle.solution_from_orientations(solution)

    # ------------------------------------------------------------------ the protocol
    def frontier(self, depth: int, store: bool, cancel: Callable[[], bool] | None = None,
                 max_paths: int | None = None) -> Frontier:
        if depth <= 1:
            return Frontier(1, [[r] for r in range(len(self.roots))], Part(worker=worker_id()))
        cpu = time.thread_time()
        start = time.perf_counter()
        paths: list[Path] = []
        shallow: list[tuple[int, list[int]]] = []

        def sink(row: np.ndarray) -> None:
            shallow.append((len(paths), [int(o) for o in row] if store else []))

        searches, complete = [], True
        stop = capped(cancel, paths, max_paths)
        for r in range(len(self.roots)):
            search, complete = self._open_nodes([r], depth - 1, True, sink, paths, stop)
            searches.append(search)
            if not complete:
                break
        above = self._part(searches, len(shallow), complete, time.perf_counter() - start,
                           [s for _, s in shallow] if store else [], cpu)
        return Frontier(depth, paths, above, shallow if store else [])

    def solve(self, path: Path, *, store: bool, limit: int | None = None,
              time_limit: float | None = None, cancel: Callable[[], bool] | None = None,
              max_stored: int | None = None,
              on_progress: Callable[[dict[str, int]], None] | None = None,
              state: bytes = b"", on_state: Callable[[bytes], None] | None = None,
              state_every: float | None = None) -> Part:
        """``state``: go on from an unfinished part's ``Part.state``.  With ``state_every``
        (a checkpointed run) an unfinished part carries the search's state, and ``on_state``
        gets it every ``state_every`` seconds (between slices)."""
        if not path:
            return self._solve_roots(store, limit, time_limit, cancel, max_stored,
                                     on_progress)
        solutions: list[list[int]] = []

        def sink(row: np.ndarray) -> None:
            if max_stored is None or len(solutions) < max_stored:
                solutions.append([int(o) for o in row])

        cpu, started = time.thread_time(), time.perf_counter()
        search = self._search(path, store, sink)
        earlier = _resume(search, path, state, solutions) if state else (0.0, 0.0)
        saved = [time.perf_counter()]
        figures = reporter(search, on_progress)

        def report() -> None:
            if figures is not None:
                figures()
            now = time.perf_counter()
            if on_state is not None and state_every is not None and \
                    now - saved[0] >= state_every:
                saved[0] = now
                on_state(_pack(search, path, solutions, earlier[0] + now - started,
                               earlier[1] + time.thread_time() - cpu))

        # Every solution counts here, so the kernel itself stops at ``limit`` (counting those
        # found before a resumed state was saved).
        room = None if limit is None else limit - search.solutions
        if room is not None and room <= 0:
            outcome = DriveOutcome(LIMIT, 0.0)
        else:
            outcome = drive(search.step, limit=room, time_limit=time_limit, cancel=cancel,
                            on_progress=None if on_progress is None and on_state is None
                            else report)
        part = self._part([search], search.solutions, outcome.complete,
                          earlier[0] + outcome.seconds, solutions, cpu)
        part.cpu_seconds += earlier[1]
        if not outcome.complete and state_every is not None:
            part.state = _pack(search, path, solutions, part.seconds, part.cpu_seconds)
        return part

    def _solve_roots(self, store: bool, limit: int | None, time_limit: float | None,
                     cancel: Callable[[], bool] | None, max_stored: int | None,
                     on_progress: Callable[[dict[str, int]], None] | None = None) -> Part:
        """The whole tree: every root in turn, as the sequential run chains them."""
        total = Part(worker=worker_id())
        start = time.perf_counter()

        def so_far(figures: dict[str, int]) -> None:
            on_progress({"nodes": total.nodes + figures["nodes"],
                         "solutions": total.count + figures["solutions"],
                         "deepest": max(total.deepest, figures["deepest"])})

        for r in range(len(self.roots)):
            left = None if time_limit is None else max(1e-3, time_limit - total.seconds)
            part = self.solve([r], store=store, cancel=cancel, time_limit=left,
                              limit=None if limit is None else limit - total.count,
                              max_stored=None if max_stored is None
                              else max_stored - len(total.solutions),
                              on_progress=None if on_progress is None else so_far)
            total.add(part)
            if not part.complete or (limit is not None and total.count >= limit):
                total.complete = r == len(self.roots) - 1 and part.complete
                break
        total.seconds = time.perf_counter() - start
        return total

    def _children(self, path: Path, cancel: Callable[[], bool] | None = None
                  ) -> tuple[int, list[Path], int] | None:
        """The branches tried at the node ``path`` (its degree), its children that are open
        nodes, and whether the node itself is a solution (a full board, no choice left); None
        if ``cancel()`` stopped the search of its children."""
        if not path:
            return len(self.roots), [[r] for r in range(len(self.roots))], 0
        live: list[Path] = []
        search, finished = self._open_nodes(path, 1, False, lambda row: None, live, cancel)
        return (search.nodes, live, search.solutions) if finished else None

    def probe(self, path: Path, rand: list[float], stop_depth: int | None = None,
              cancel: Callable[[], bool] | None = None) -> Probe | None:
        cur = list(path)
        degrees: list[int] = []
        uncounted = 0 if path else 1                # choosing the root is not a search node
        target = self.max_depth if stop_depth is None else max(stop_depth, len(path))
        while len(cur) < target:
            children = self._children(cur, cancel)
            if children is None:
                return None
            degree, live, solved = children
            if solved:                              # the node is a solution: nothing to choose
                return Probe(degrees, 0, solved, uncounted)
            if degree == 0:
                return Probe(degrees, uncounted=uncounted)      # a dead end
            degrees.append(degree)
            k = min(int(rand[min(len(cur), len(rand) - 1)] * degree), degree - 1)
            if k >= len(live):
                return Probe(degrees, uncounted=uncounted)      # a branch that fails at once
            cur = live[k]
        part = self.solve(cur, store=False, cancel=cancel)
        if not part.complete:
            return None
        return Probe(degrees, part.nodes, part.count, uncounted, part.seconds)

    def result(self, total: Part, *, complete: bool, stop_reason: str, seconds: float,
               jit_seconds: float, solutions: list[list[int]]) -> Result:
        """The run's result from its summed parts, assembled as a run in one process's is
        (``em_result``: the engine's ``result_of``, then the front's ``counted``)."""
        figures = Figures(total.count, complete, stop_reason, seconds,
                          self.jit_seconds + jit_seconds,
                          Stats(nodes=total.nodes, extra=dict(total.extra)),
                          [self.decode(s) for s in solutions], total.deepest, total.deepest_row)
        result = MODULES[self.engine].result_of(self.puzzle, figures, self.engine_options)
        return counted(result, self.puzzle, self.unique, len(self.roots))


def _pack(search, path: Path, solutions: list[list[int]], seconds: float,
          cpu_seconds: float) -> bytes:
    """An unfinished subproblem's ``Part.state``: its path, the search's snapshot, the
    solutions kept so far and the time spent, as a compressed ``.npz`` (mostly zeros: a 16 x 16
    CP search's 5.5 MB of arrays pack into a few hundred kB)."""
    arrays = {f"search.{name}": a for name, a in search.snapshot().items()}
    arrays["path"] = np.array(path, dtype=np.int64)
    n_cells = len(search.deep_buf)
    arrays["solutions"] = np.array(solutions, dtype=np.int32).reshape(len(solutions), n_cells)
    arrays["seconds"] = np.array([seconds, cpu_seconds], dtype=np.float64)
    arrays["nodes"] = np.array([search.nodes], dtype=np.int64)
    out = io.BytesIO()
    np.savez_compressed(out, **arrays)
    return out.getvalue()


def _unpack(state: bytes) -> dict[str, np.ndarray] | None:
    """The arrays of ``_pack``'s ``state``; None if it is not a readable ``.npz``."""
    try:
        with np.load(io.BytesIO(state), allow_pickle=False) as saved:
            return {name: saved[name] for name in saved.files}
    except (OSError, ValueError, EOFError, zipfile.BadZipFile):
        return None


def _resume(search, path: Path, state: bytes, solutions: list[list[int]]
            ) -> tuple[float, float]:
    """Put ``_pack``'s ``state`` of subproblem ``path`` into the fresh ``search`` and its
    solutions into ``solutions``; returns the seconds and CPU seconds spent before.  A state
    this search cannot take (damaged, another subproblem's: its arrays would fit and it would
    count another subtree, or saved by a cpkit whose kernels keep their state otherwise) is
    dropped: the subproblem is then searched from its start, which counts the same."""
    arrays = _unpack(state)
    if arrays is None or "solutions" not in arrays or "seconds" not in arrays or \
            "path" not in arrays or arrays["path"].tolist() != list(path):
        return 0.0, 0.0
    snapshot = {name[len("search."):]: a for name, a in arrays.items()
                if name.startswith("search.")}
    kept, seconds = arrays["solutions"], arrays["seconds"]
    if kept.ndim != 2 or kept.shape[1] != len(search.deep_buf) or seconds.shape != (2,) \
            or not search.restore(snapshot):
        return 0.0, 0.0
    solutions.extend([int(o) for o in row] for row in kept)
    return float(seconds[0]), float(seconds[1])


def _prepare(model: EdgeMatchingPuzzle, options: dict[str, Any], engine: str
             ) -> EdgeMatchingTree:
    options = dict(options)
    unique = options.pop("unique", "rotation")
    check_unique(unique)
    engine_options: dict[str, Any] = {}
    if engine == "cp":
        for key, default in CP_OPTIONS.items():
            engine_options[key] = options.pop(key, default)
        em_cp.check_heuristic(engine_options["heuristic"])
        colorpair_build.check_fits(model.arrays)
    if engine == "edges":
        for key, default in EDGES_OPTIONS.items():
            engine_options[key] = options.pop(key, default)
        if engine_options["branching"] not in CELL_RULES:
            raise InputError(f"unknown branching rule {engine_options['branching']!r}; "
                             f"expected one of {', '.join(CELL_RULES)}")
        em_edges.check_fits(model.arrays)
    if "shave" in engine_options:
        shave_limit(engine_options["shave"], 1)
    if options:
        raise InputError(f"the {engine} engine takes no option {', '.join(sorted(options))}")
    return EdgeMatchingTree(model, engine, unique, engine_options)


def prepare_cp(model: EdgeMatchingPuzzle, options: dict[str, Any]) -> EdgeMatchingTree:
    return _prepare(model, options, "cp")


def prepare_backtrack(model: EdgeMatchingPuzzle, options: dict[str, Any]) -> EdgeMatchingTree:
    return _prepare(model, options, "backtrack")


def prepare_edges(model: EdgeMatchingPuzzle, options: dict[str, Any]) -> EdgeMatchingTree:
    return _prepare(model, options, "edges")
