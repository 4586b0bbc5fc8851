"""The optimiser's workers as tasks of the split runs' backends (local processes, Dask).

The backends of ``cpkit.parallel`` run *tasks*: a prepared search per worker process
(``prepare``, registered in ``cpkit.parallel.SPLITTERS``), a path per task, its running figures
sent back (``on_progress``), its state sent back now and then (``on_state``) and returned when
it stops (``Part.state``), and a state given with the task to go on from.  An optimiser task is
one worker's search for one *epoch* (a few seconds to a minute): the path is ``[worker, seed]``;
the state is the worker's ``Anytime.snapshot`` plus, when the coordinator shares the best
board, that board (``task_state``), which the worker takes if it beats its own.  So every
backend runs the same jobs, and a Dask cluster runs them as it runs subproblems.
"""

from __future__ import annotations

import io
import time
from typing import Any, Callable

import numpy as np

from ..parallel.protocol import Part, Path
from .anytime import Anytime, Config, OBJECTIVES

#: The keys of ``Anytime.report`` that go into ``Part.extra`` (whole numbers only).
COUNTERS = ("nodes", "moves", "restarts", "boards")


def task_state(snapshot: bytes, shared: np.ndarray | None) -> bytes:
    """What a task is given: a worker's snapshot (empty: a new worker) and the best board
    known to the coordinator (None: nothing to share)."""
    buf = io.BytesIO()
    arrays = {"snapshot": np.frombuffer(snapshot, dtype=np.uint8)}
    if shared is not None:
        arrays["shared"] = shared.astype(np.int32)
    np.savez(buf, **arrays)
    return buf.getvalue()


def read_task_state(blob: bytes) -> tuple[bytes, np.ndarray | None]:
    """The inverse of ``task_state``."""
    data = np.load(io.BytesIO(blob))
    shared = data["shared"] if "shared" in data.files else None
    return bytes(data["snapshot"]), shared


def best_of(snapshot: bytes) -> tuple[int, np.ndarray | None, float]:
    """The score, board and search seconds at its finding held in a worker's snapshot."""
    return Anytime.best_in(snapshot)


class WorkerTree:
    """What a backend's worker process prepares once per job: the puzzle's tables, shared by
    the workers (``Anytime``) it runs one after another."""

    saves_state = True
    proof = None
    max_depth = 2

    def __init__(self, model: Any, options: dict[str, Any]):
        objective = options.get("objective", "edges")
        if objective not in OBJECTIVES:
            raise ValueError(f"unknown objective {objective!r}")
        self.model = model
        self.objective = objective
        self.config = Config.from_json(options.get("config") or {})
        probe = Anytime(model, objective, 0, self.config)
        self.tables = probe.tables
        probe.run(0.0)                          # compiles (or loads) the kernels

    def worker(self, seed: int) -> Anytime:
        return Anytime(self.model, self.objective, seed, self.config, self.tables)

    def solve(self, path: Path, *, store: bool = False, limit: int | None = None,
              time_limit: float | None = None, cancel: Callable[[], bool] | None = None,
              max_stored: int | None = None,
              on_progress: Callable[[dict[str, int]], None] | None = None,
              state: bytes = b"", on_state: Callable[[bytes], None] | None = None,
              state_every: float | None = None) -> Part:
        """Run worker ``path[0]`` (seed ``path[1]``) for ``time_limit`` seconds (or until
        ``cancel()``), from ``state`` if given; the part's ``state`` is its snapshot."""
        started = time.perf_counter()
        cpu = time.thread_time()
        worker = self.worker(int(path[1]))
        shared = None
        if state:
            snapshot, shared = read_task_state(state)
            if snapshot:
                worker.restore(snapshot)
        if shared is not None:
            worker.offer(shared)
        last_state = [time.perf_counter()]

        def each_slice() -> None:
            if on_progress is not None:
                on_progress(self._figures(worker))
            if on_state is not None and state_every is not None and \
                    time.perf_counter() - last_state[0] >= state_every:
                last_state[0] = time.perf_counter()
                on_state(task_state(worker.snapshot(), None))

        worker.run(float("inf") if time_limit is None else time_limit, cancel, each_slice)
        figures = self._figures(worker)
        return Part(count=0, found=0, nodes=figures["nodes"],
                    extra={k: figures[k] for k in COUNTERS if k != "nodes"},
                    complete=worker.best_score >= worker.max_score,
                    seconds=time.perf_counter() - started,
                    cpu_seconds=time.thread_time() - cpu,
                    state=task_state(worker.snapshot(), None))

    @staticmethod
    def _figures(worker: Anytime) -> dict[str, int]:
        r = worker.report()
        return {"score": r["score"], **{k: int(r[k]) for k in COUNTERS}}


def prepare(model: Any, options: dict[str, Any]) -> WorkerTree:
    """``cpkit.parallel.SPLITTERS``' entry for the optimiser."""
    return WorkerTree(model, options)
