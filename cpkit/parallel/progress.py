"""The progress line of a long run, on standard error when it is a terminal.

One line rewritten in place; or, for a log file or a batch job's output (``cpkit match
--progress S``), the same figures as a new line every S seconds, a split run's with the time
elapsed in front.  A split run's (``Progress``): a bar of subproblems done / total,
solutions so far, nodes per second, and the time left.  A run in one process (``SearchLine``, the
numba engines: ``--first`` and ``--limit N`` runs stay there) shows the elapsed time, nodes, nodes
per second, solutions and the deepest node so far (cells filled, pieces or options placed), since it
has no subproblems to estimate a time left from.  A CP-SAT run's (``SolverLine``) shows the elapsed
time, solutions and CP-SAT's branch count, the only figures CP-SAT gives while it searches.  The
time left is the pending subproblems' nodes at the node rate measured so far (``Progress.time_left``
says how they are estimated).  Written by hand rather than with a progress-bar library: the line's
fields are ours, and a library's time left (from the rate of finished items alone) would mislead on
subproblems of very different sizes.
"""

from __future__ import annotations

import math
import shutil
import sys
import threading
import time
from typing import Any, TextIO

from ..result import count_phrase

REFRESH_SECONDS = 0.25
BAR = 20


DAY = 86_400
YEAR = 365.25 * DAY


def duration(seconds: float) -> str:
    """A time for the line: ``41s``, ``3m05s``, ``5h07m``, ``3d04h``, ``876 years``,
    ``1.6e+25 years`` (a time left in hours showed ``7672868h10m`` on a large tiling)."""
    if seconds != seconds or seconds == float("inf"):
        return "?"
    if seconds >= 2 * YEAR:
        years = seconds / YEAR
        return f"{years:,.0f} years" if years < 1e6 else f"{years:.1e} years"
    seconds = int(round(seconds))
    d, rest = divmod(seconds, DAY)
    h, rest = divmod(rest, 3600)
    m, s = divmod(rest, 60)
    if d:
        return f"{d}d{h:02d}h"
    return f"{h}h{m:02d}m" if h else (f"{m}m{s:02d}s" if m else f"{s}s")


class _Line:
    """One line on ``stream`` rewritten in place, at most every REFRESH_SECONDS; or, when
    ``enabled`` is a number of seconds rather than True, a new line that often (a file cannot
    rewrite a line, and a line every quarter second would flood it).  ``lock`` keeps a drawing
    from cutting into what another thread prints (CP-SAT hands its solutions over on its own
    thread while the calling thread draws the line)."""

    def __init__(self, enabled: bool | float, stream: TextIO | None = None):
        self.stream = stream or sys.stderr
        self.enabled = bool(enabled)
        self.log_every = None if isinstance(enabled, bool) else float(enabled)
        self.start = time.perf_counter()
        self._last = 0.0 if self.log_every is None else self.start
        self._shown = False
        self.lock = threading.RLock()

    def waiting(self) -> bool:
        """Whether an update now would draw nothing (disabled, or drawn less than ``every``
        seconds ago): a caller can skip gathering its figures."""
        every = REFRESH_SECONDS if self.log_every is None else self.log_every
        return not self.enabled or time.perf_counter() - self._last < every

    def _due(self, force: bool) -> bool:
        if not self.enabled or (not force and self.waiting()):
            return False
        self._last = time.perf_counter()
        return True

    def _draw(self, line: str) -> None:
        with self.lock:
            if self.log_every is not None:
                self.stream.write(line + "\n")
                self.stream.flush()
                return
            width = shutil.get_terminal_size((100, 20)).columns - 1
            self.stream.write("\r" + line[:width].ljust(width))
            self.stream.flush()
            self._shown = True

    def clear(self) -> None:
        """Blank the line (before other output on the terminal); the next update redraws it."""
        with self.lock:
            if self.enabled and self._shown:
                width = shutil.get_terminal_size((100, 20)).columns - 1
                self.stream.write("\r" + " " * width + "\r")
                self.stream.flush()
                self._shown = False
                self._last = 0.0

    def close(self) -> None:
        with self.lock:
            if self.enabled and self._shown:
                self.stream.write("\n")
                self.stream.flush()
                self._shown = False


#: The planning line appears once planning has lasted this long: most plans take under a
#: second, and a line drawn for a moment only flickers.
PLAN_QUIET_SECONDS = 1.0


class PlanLine(_Line):
    """A split run's line while it plans: what it is doing (``stage``) and for how long.  Most
    plans take under a second, but the frontier search of a large puzzle (the 15 x 14 hexomino
    parallelogram's: 14 s) or the walks of a slow tree (a 16 x 16 board shaved at every node:
    until the time limit) left the terminal silent.  ``tick`` is called from the planning's
    ``cancel``, which every step asks often (between slices, at every level of a walk)."""

    def __init__(self, enabled: bool | float, stream: TextIO | None = None):
        super().__init__(enabled, stream)
        self.stage = ""

    def tick(self) -> None:
        elapsed = time.perf_counter() - self.start
        if elapsed < PLAN_QUIET_SECONDS or not self._due(False):
            return
        self._draw(f"planning: {self.stage}  {duration(elapsed)}")


class Progress(_Line):
    """A split run's line.  ``n_cells`` (edge matching) adds the deepest board so far."""

    def __init__(self, total: int, estimates: list[float], enabled: bool,
                 stream: TextIO | None = None, n_cells: int = 0):
        super().__init__(enabled, stream)
        self.total = total
        self.estimates = estimates
        self.n_cells = n_cells

    def update(self, done: set[int], solutions: int, nodes: int, force: bool = False,
               running_nodes: int = 0, deepest: int = 0, earlier_nodes: int = 0) -> None:
        """``nodes``: those of the finished subproblems (they scale the time left);
        ``running_nodes``: those the workers report from the subproblems they are searching
        (they count in the rate: on a hard board no subproblem may finish for hours);
        ``earlier_nodes``: those of both that runs before this one searched (a resumed run's
        checkpoint), left out of the rate (a resumed run showed them as this run's speed)."""
        if not self._due(force):
            return
        elapsed = time.perf_counter() - self.start
        searched = max(0, nodes + running_nodes - earlier_nodes)
        rate = searched / elapsed if elapsed > 0 else 0.0
        board = f"  deepest {deepest}/{self.n_cells}" if self.n_cells else ""
        when = "" if self.log_every is None else f"{duration(elapsed)}  "
        self._draw(f"{when}[{self._bar(len(done))}] {len(done):,}/{self.total:,} subproblems  "
                   f"{count_phrase(solutions)}  {rate / 1e6:.2f} M nodes/s{board}  "
                   f"left ~{duration(self.time_left(done, nodes, rate))}")

    def _bar(self, done: int) -> str:
        filled = int(BAR * done / self.total) if self.total else BAR
        return "#" * filled + "." * (BAR - filled)

    def time_left(self, done: set[int], nodes: int, rate: float) -> float:
        """Seconds to search the pending subproblems at ``rate``; ``nodes``: those of the
        finished ones.  Their nodes are estimated twice: the sum of their Knuth estimates, and
        the finished subproblems' mean times their number; once one has finished, the time left
        is at the geometric mean of the two.  The estimates (a few probes each) are heavy-tailed,
        mostly far too low and now and then a hundred times too high, so their sum is mostly too
        low; the finished subproblems' mean is too high when the largest went first.  Measured
        against the former rule (the estimates scaled by what the finished subproblems took
        against theirs, which read "left ~0s" a third of the way): docs/architecture.md."""
        if rate <= 0:
            return float("inf")
        pending = [e for k, e in enumerate(self.estimates) if k not in done]
        knuth = sum(pending)
        if not done or nodes <= 0:
            return knuth / rate
        by_mean = nodes / len(done) * len(pending)
        return math.sqrt(knuth * by_mean) / rate


class _OneProcessLine(_Line):
    """The line of a run in one process, whose ``update(figures, force)`` takes the figures the
    search reports.  Its clock starts at the first update; the latest figures an update did not
    draw are drawn when it closes: a search's last report (its final count) usually comes
    sooner than the line's interval after the one before, and the line left on the screen or
    in the log showed an earlier count."""

    def __init__(self, enabled: bool | float, stream: TextIO | None = None):
        super().__init__(enabled, stream)
        self.started: float | None = None
        self._undrawn: dict[str, int] | None = None
        self.nodes_before = 0

    def _starts_clock(self) -> bool:
        """At the first update: start the clock (the search, not the compiling or model
        building before it, is timed) and say so; the first log line comes S seconds later."""
        if self.started is not None:
            return False
        self.started = time.perf_counter()
        if self.log_every is not None:
            self._last = self.started
        return True

    def _due_or_kept(self, force: bool, figures: dict[str, int]) -> bool:
        """Whether to draw ``figures`` now; if not, they are kept for ``close``."""
        due = self._due(force)
        self._undrawn = None if due else figures
        return due

    def _elapsed_and_rate(self, figures: dict[str, int],
                          force: bool) -> tuple[float, float] | None:
        """For a line that shows nodes per second: the seconds since the clock started and the
        rate, or None when nothing is drawn now (the first update starts the clock, and its
        nodes, compiling included, are left out of the rate)."""
        if self._starts_clock():
            self.nodes_before = figures["nodes"]
            return None
        if not self._due_or_kept(force, figures):
            return None
        elapsed = time.perf_counter() - self.started
        rate = (figures["nodes"] - self.nodes_before) / elapsed if elapsed > 0 else 0.0
        return elapsed, rate

    def close(self) -> None:
        with self.lock:
            if self._undrawn is not None and self.enabled:
                self.update(self._undrawn, force=True)
            super().close()


class SearchLine(_OneProcessLine):
    """A one-process search's line: ``update`` takes the figures a search reports (nodes, solutions,
    deepest: ``RootChain.progress``, ``driver.reporter``) and is called after every slice of the
    search.  Its clock starts at the end of the first slice, whose nodes it leaves out of the rate:
    compiling the kernels is not search time, and a first slice timed from its end alone showed a
    thousand million nodes a second.  ``deepest`` is shown as "K of ``size`` ``unit``", or "K
    ``unit``" when the size is not known (an exact cover's depth)."""

    def __init__(self, size: int | None, enabled: bool, stream: TextIO | None = None,
                 unit: str = "cells"):
        super().__init__(enabled, stream)
        self.size = size
        self.unit = unit

    def update(self, figures: dict[str, int], force: bool = False) -> None:
        timed = self._elapsed_and_rate(figures, force)
        if timed is None:
            return
        elapsed, rate = timed
        of = f" of {self.size}" if self.size else ""
        self._draw(f"{duration(elapsed)}  {figures['nodes']:,} nodes  {rate / 1e6:.2f} M "
                   f"nodes/s  {count_phrase(figures['solutions'])}  deepest "
                   f"{figures['deepest']}{of} {self.unit}")


class SolverLine(_OneProcessLine):
    """A CP-SAT run's line: the elapsed time, the solutions so far and CP-SAT's branch count.
    CP-SAT gives its statistics only inside a solution callback, so the count is the one at the
    latest solution (none before the first), which the line says; ``update`` takes
    ``{"solutions": ..., "branches": ...}`` from ``cpkit.engines.cpsat.cpsat_search``'s waiting thread.  Its
    clock starts at the first update, when the model is built and CP-SAT starts."""

    def update(self, figures: dict[str, int], force: bool = False) -> None:
        if self._starts_clock():
            return
        if not self._due_or_kept(force, figures):
            return
        elapsed = time.perf_counter() - self.started
        branches = (f"  {figures['branches']:,} branches by the latest solution"
                    if figures["solutions"] else "")
        self._draw(f"{duration(elapsed)}  CP-SAT  {count_phrase(figures['solutions'])}"
                   f"{branches}")


class ScoreLine(_OneProcessLine):
    """An optimiser run's line (``cpkit match --maximize``): the elapsed time, the best score
    so far of the maximum and how long ago it was found, the placements (scan nodes) per
    second and the moves made.  ``update`` takes ``{"score", "nodes", "moves", "best_age"}``
    (``best_age`` in seconds, None before the first board)."""

    def __init__(self, max_score: int, unit: str, enabled: bool | float,
                 stream: TextIO | None = None):
        super().__init__(enabled, stream)
        self.max_score = max_score
        self.unit = unit

    def update(self, figures: dict[str, int], force: bool = False) -> None:
        timed = self._elapsed_and_rate(figures, force)
        if timed is None:
            return
        elapsed, rate = timed
        if figures["score"] < 0:
            best = "no board yet"
        else:
            best = (f"best {figures['score']} of {self.max_score} {self.unit} "
                    f"({duration(figures['best_age'])} ago)")
        self._draw(f"{duration(elapsed)}  {best}  {rate / 1e6:.2f} M nodes/s  "
                   f"{figures['moves']:,} moves")


def search_line(model: Any, family: str, engine: str,
                enabled: bool | float) -> SearchLine | SolverLine:
    """The progress line of a run in one process: the deepest node in cells filled (edge
    matching), pieces placed (tiling) or options chosen (exact cover, whose depth has no
    fixed size); CP-SAT's figures, which have no nodes or depth."""
    if engine == "cpsat":
        return SolverLine(enabled)
    if family == "tiling":
        return SearchLine(model.n_pieces, enabled, unit="pieces")
    if family == "exact_cover":
        return SearchLine(None, enabled, unit="options")
    return SearchLine(getattr(model, "n_cells", 0), enabled)
