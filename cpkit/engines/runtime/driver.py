"""The Python loop around a resumable kernel: limits, time, Ctrl-C.

Every numba engine runs in slices: the kernel returns after a node budget or when its solution
buffer is full, and this loop decides whether to call it again.  Because the kernel only ever
stops at a clean boundary, a time limit or a Ctrl-C leaves a consistent state and the solutions
found so far are reported, never lost.
"""

from __future__ import annotations

import contextvars
import time
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Callable, Iterator

from ...result import COMPLETE, INTERRUPTED, LIMIT, TIME_LIMIT
from ...signals import InterruptFlag

#: Kernel calls are sized to take about this long: short enough that Ctrl-C and time limits
#: answer promptly, long enough that the Python round trip costs nothing measurable.
SLICE_SECONDS = 0.1
FIRST_SLICE_NODES = 1 << 12
MAX_SLICE_NODES = 1 << 26


class SliceBudget:
    """Node budgets for kernel calls sized to take about ``SLICE_SECONDS`` whatever a node
    costs (a node of the edges engine shaving every cell of a 16 x 16 board takes a third of a
    millisecond, a brute-force node a thirtieth of a microsecond): doubled after a call of under
    a quarter of it, halved after one over it, never under ``least`` nor over
    ``MAX_SLICE_NODES``."""

    def __init__(self, first: int = FIRST_SLICE_NODES, least: int | None = None):
        self.nodes = first
        self.least = first if least is None else least

    def took(self, seconds: float) -> None:
        """The last call of ``nodes`` took ``seconds``: size the next."""
        scale = 2.0 if seconds < SLICE_SECONDS / 4 else (0.5 if seconds > SLICE_SECONDS else 1.0)
        self.nodes = int(min(MAX_SLICE_NODES, max(self.least, self.nodes * scale)))


class StopSearch(Exception):
    """Raised by a solution callback to end the search at once (e.g. the limit is reached)."""


@dataclass
class DriveOutcome:
    stop_reason: str
    seconds: float

    @property
    def complete(self) -> bool:
        return self.stop_reason == COMPLETE


def reporter(search: Any, on_progress: Callable[[dict[str, int]], None] | None
             ) -> Callable[[], None] | None:
    """What ``drive`` calls after each slice so that ``on_progress`` gets the figures of a
    progress line from ``search`` (its ``nodes``, ``solutions`` and ``deepest``: the most
    pieces, options or cells placed at a node so far); None without ``on_progress``."""
    if on_progress is None:
        return None
    return lambda: on_progress({"nodes": int(search.nodes), "solutions": int(search.solutions),
                                "deepest": int(search.deepest)})


def drive(step: Callable[[int, int], tuple[bool, int]], *, limit: int | None,
          time_limit: float | None, slice_nodes: int | None = None,
          on_progress: Callable[[], None] | None = None,
          cancel: Callable[[], bool] | None = None,
          first_slice: int = FIRST_SLICE_NODES) -> DriveOutcome:
    """Call ``step(max_new_solutions, node_budget) -> (finished, new_solutions)`` until the search
    is finished, ``limit`` solutions were found, ``time_limit`` seconds passed, or Ctrl-C.

    ``max_new_solutions`` tells the kernel to stop as soon as that many more solutions exist, so
    a solution limit is met exactly.  A callback inside ``step`` may raise ``StopSearch`` to end
    the search with reason LIMIT (used when only some found solutions count).  ``cancel`` is
    asked after every slice; True stops the search as a Ctrl-C would (a parallel worker is told
    to stop this way by its coordinator).  ``first_slice``: the first slice's nodes, where
    the caller knows better (the slices are sized from there, never under the smaller of it
    and the default: a caller that has measured an engine whose nodes cost tens of
    microseconds, as edge filtering's do, would otherwise wait 80 ms for the default's 4,096
    nodes).
    """
    found = 0
    start = time.perf_counter()
    reason = COMPLETE
    slices = SliceBudget(first_slice, min(first_slice, FIRST_SLICE_NODES)) \
        if slice_nodes is None else None
    with InterruptFlag() as interrupt:
        while True:
            room = (limit - found) if limit is not None else (1 << 62)
            if room <= 0:
                reason = LIMIT
                break
            t0 = time.perf_counter()
            try:
                finished, new = step(room, slices.nodes if slices else slice_nodes)
            except StopSearch:
                reason = LIMIT
                break
            if slices:
                slices.took(time.perf_counter() - t0)
            found += new
            if on_progress is not None:
                on_progress()
            if finished:
                reason = COMPLETE
                break
            if limit is not None and found >= limit:
                reason = LIMIT
                break
            if interrupt.raised or (cancel is not None and cancel()):
                reason = INTERRUPTED
                break
            if time_limit is not None and time.perf_counter() - start >= time_limit:
                reason = TIME_LIMIT
                break
    return DriveOutcome(reason, time.perf_counter() - start)


# ---------------------------------------------------------------------- the clock of a run
class SetupStopped(Exception):
    """A run's set-up (filters, tables, a split's preparation) ended before its search began:
    ``reason`` is ``TIME_LIMIT`` or ``INTERRUPTED`` (``check_setup``)."""

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


class RunClock:
    """The time limit of a whole run: it counts from the start of its set-up (the front's
    filters and tables, a split run's preparation and planning) through the search, so that
    ``--time-limit 10`` ends a run about ten seconds later whatever the set-up costs.
    Compiling the kernels (``jit.warmed_seconds``) and what ``start_up`` waits for (worker
    processes starting) are start-up and not counted.  ``stopped`` says whether a Ctrl-C or
    SIGTERM came."""

    def __init__(self, time_limit: float | None, stopped: Callable[[], bool] = lambda: False):
        from . import jit

        self.time_limit, self.stopped = time_limit, stopped
        self._jit = jit.warmed_seconds
        self.began = time.perf_counter()
        self.paused = 0.0
        self._compiled = self._jit()

    def compiled(self) -> float:
        """Seconds spent compiling (or loading) kernels since the clock started."""
        return self._jit() - self._compiled

    def spent(self) -> float:
        """Seconds counted so far."""
        return time.perf_counter() - self.began - self.paused - self.compiled()

    def left(self) -> float | None:
        """Seconds of the limit left (never below 0), None without a limit."""
        if self.time_limit is None:
            return None
        return max(0.0, self.time_limit - self.spent())

    def over(self) -> bool:
        """A ``cancel`` for set-up, planning and the split: a Ctrl-C or SIGTERM, or the limit
        spent."""
        return self.stopped() or self.left() == 0.0

    def reason(self) -> str:
        return INTERRUPTED if self.stopped() else TIME_LIMIT

    def start_up(self, wait: Callable[[], Any]) -> Any:
        """``wait()``, not counted against the limit."""
        began = time.perf_counter()
        try:
            return wait()
        finally:
            self.paused += time.perf_counter() - began


_setting_up: contextvars.ContextVar[RunClock | None] = contextvars.ContextVar(
    "cpkit_setting_up", default=None)


@contextmanager
def setting_up(clock: RunClock) -> Iterator[RunClock]:
    """While active, ``check_setup`` (called between the steps of a set-up, however deep in
    the call) ends the set-up when ``clock`` says so.  A context variable rather than an
    argument: the set-up of a split run goes through the engine's ``prepare`` and the
    worker's job, which a time limit of this process does not concern."""
    token = _setting_up.set(clock)
    try:
        yield clock
    finally:
        _setting_up.reset(token)


def check_setup() -> None:
    """``SetupStopped`` if the run being set up (``setting_up``) is out of time or was
    interrupted; nothing outside a run's set-up."""
    clock = _setting_up.get()
    if clock is not None and clock.over():
        raise SetupStopped(clock.reason())
