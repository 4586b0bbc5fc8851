"""What every worker receives once, and the per-process cache of prepared searches.

A ``Job`` is the model and the options that shape its search; it is pickled to each worker
(local process or Dask worker) once.  ``tree(job)`` prepares the engine's ``Splittable`` the
first time a worker needs it (front preparation, compiled arrays, JIT load) and keeps it for
every later subproblem of the same job, so no subproblem pays for a model rebuild.  The cache
is per thread because a prepared tree reuses one search state (Dask may run tasks of one worker
in several threads).
"""

from __future__ import annotations

import threading
import time
import uuid
from dataclasses import dataclass, field
from typing import Any, Callable

from ..engines.runtime import jit
from . import splitter
from .protocol import Part, Path


@dataclass
class Job:
    family: str
    engine: str
    model: Any
    options: dict[str, Any]
    key: str = field(default_factory=lambda: uuid.uuid4().hex)


@dataclass(frozen=True)
class TaskSpec:
    """How to search one subproblem: keep solutions (at most ``max_stored``, the first found)?
    stop after ``limit`` counted solutions, at wall-clock time ``deadline`` (``time.time()``)?
    send the engine's state every ``state_every`` seconds (a checkpointed run's, where the
    tree can: ``saves_state``)?"""

    store: bool = False
    limit: int | None = None
    deadline: float | None = None
    max_stored: int | None = None
    state_every: float | None = None

    def time_left(self) -> float | None:
        if self.deadline is None:
            return None
        return max(self.deadline - time.time(), 1e-3)


_local = threading.local()


def tree(job: Job):
    """The prepared ``Splittable`` of ``job`` in this thread (built on first use)."""
    cache = getattr(_local, "trees", None)
    if cache is None:
        cache = _local.trees = {}
    found = cache.get(job.key)
    if found is None:
        prepare = splitter(job.family, job.engine)
        found = cache[job.key] = prepare(job.model, job.options)
    return found


def warm(job: Job) -> dict[str, float]:
    """Prepare ``job`` in this worker; returns the seconds it took and the JIT part of them."""
    start = time.perf_counter()
    before = jit.warmed_seconds()
    tree(job)
    return {"seconds": time.perf_counter() - start,
            "jit_seconds": jit.warmed_seconds() - before}


def solve_task(job: Job, path: Path, spec: TaskSpec,
               cancel: Callable[[], bool] | None = None,
               on_progress: Callable[[dict[str, int]], None] | None = None,
               state: bytes = b"", on_state: Callable[[bytes], None] | None = None) -> Part:
    """Search one subproblem, or go on with it from ``state`` (an unfinished part's).
    ``on_progress`` gets the running figures (nodes, solutions, deepest) after each slice.
    In a checkpointed run (``spec.state_every``) a tree that has a state puts it into an
    unfinished part and sends it to ``on_state`` every ``state_every`` seconds (so that a
    checkpoint written meanwhile holds it: a ``kill -9`` loses less)."""
    if spec.deadline is not None and time.time() >= spec.deadline:
        # Past the time limit: a worker that ran one slice of its next subproblem anyway put a
        # useless state of it into the checkpoint.
        return Part(complete=False, state=state)
    searched = tree(job)
    extra: dict[str, Any] = {"state": state} if state else {}
    if spec.state_every is not None and getattr(searched, "saves_state", False):
        extra.update(on_state=on_state, state_every=spec.state_every)
    return searched.solve(path, store=spec.store, limit=spec.limit,
                          time_limit=spec.time_left(), cancel=cancel,
                          max_stored=spec.max_stored, on_progress=on_progress, **extra)
