"""One worker's anytime search: the row scan with restarts, and moves on the best board.

A worker is seeded and deterministic given its seed and the work it is given.  Its loop:

- **scan**: the row-scan kernel (``_scan_kernel``) under a break schedule (``Schedule``),
  its last two rows filled column by column (``schedule.fill_order``), its top made to use
  up the sides of a few favoured colours (``favour``, edges only);
  every full board it completes is a candidate.  After ``restart_nodes`` placements (or when
  the tree is exhausted) it starts again from the top with reshuffled candidate lists.  When
  a board improves on the best, the schedule is rescaled to aim one break lower
  (``Schedule.aiming_at``) and the scan restarts.
- **moves** (large-neighbourhood search on the best board, ``neighbourhoods``): an optimal
  reassignment of pairwise non-adjacent cells, and a refill of a window around a break by the
  scan kernel; equally good results are kept, so the board drifts over its plateau.  The
  ``exact`` move (off by default) refills a window by CP-SAT (``exact``), within
  ``exact_share`` of the moves' time.

The split between the two follows the seconds each took (``pace`` "clock"): moves are due
while they have taken less than ``move_share`` of the time.  Two runs of one seed then part as
soon as one of them is slowed.  With ``pace`` "work" it follows the work done instead: moves
are due while their count, at ``MOVE_NODES`` placements' worth each, is below ``move_share`` of
the whole (the scan's placements and the moves').  A move costs about as much time as
``MOVE_NODES`` placements, so the share of time stays about ``move_share``, and a seed replays
exactly: the same placements budget (``run(..., nodes=N)``) gives the same boards whatever the
machine's load, so that fewer seeds tell configurations apart.  It is not the default: on
Eternity II's variants, 60 CPU-seconds, it scored 0.6 edges less on average than the clock
(10 pairs of runs; within their noise but not shown harmless).  The exact move's CP-SAT
stops on a time limit, so with it on no run replays.

``objective`` "edges" maximises the matched edges of a full board; "tiles" the tiles placed
with no mismatch (the scan then leaves cells empty instead of breaking edges: holes).

The whole state is numpy arrays and a few numbers (``snapshot``/``restore``): a checkpoint
holds it and a resumed worker goes on as the stopped one would have.
"""

from __future__ import annotations

import io
import time
from dataclasses import asdict, dataclass, field, replace
from typing import Any, Callable

import numpy as np

from ..models.edge_matching import EdgeMatchingPuzzle
from . import _board_kernel as board_kernel
from . import _scan_kernel as scan
from . import favour
from ._rng import below, new_state
from .exact import refill_exact
from .neighbourhoods import (Lists, broken_cells, reassign_independent, refill_region,
                             run_scan, window)
from .schedule import Schedule, fill_order
from .tables import Tables, compile_tables

OBJECTIVES = ("edges", "tiles")
METHODS = ("scan", "assign", "refill", "exact")
#: The moves on the best board (``METHODS`` but the scan).
MOVES = ("assign", "refill", "exact")

#: Placements per kernel call: about a tenth of a second.
SLICE_NODES = 1_000_000
#: A move (assignment or refill) on Eternity II takes 0.3-0.8 ms, about 0.5 ms on average: as
#: long as about 6,000 placements of the scan (8-12 million a second): what a move counts for
#: in ``pace`` "work".
MOVE_NODES = 6_000
#: The scan's placements a second, to count an exact move's seconds as placements.
SCAN_RATE = 10_000_000
PACES = ("work", "clock")
#: With favoured colours, a top that reaches no break zone in this many times ``stuck_nodes``
#: placements loosens their ramp by ``FAVOUR_STEP`` (for a ramp that no top of the puzzle
#: can meet); the next top that reaches the zone tightens it back.
FAVOUR_STUCK = 10
FAVOUR_STEP = 0.9
#: With favoured colours, a top still in its first this many rows after ``stuck_nodes``
#: placements starts again at once, the ramp kept.  Its first rows meet neither the ramp nor
#: the hints below them (a depth-first search caught there says nothing of the ramp's
#: strength); on Eternity II turned a quarter most tops were, and counting them as stuck
#: loosened the ramp to half its scale and cost two edges (CHANGELOG.md).
FAVOUR_EARLY_ROWS = 3


@dataclass(frozen=True)
class Config:
    """What a worker does (``methods``: a subset of ``METHODS``, for ablation studies)."""

    methods: tuple[str, ...] = ("scan", "assign", "refill")
    schedule: Schedule | None = None          # None: ``Schedule.for_board``
    restart_nodes: int = 50_000_000          # then the scan starts again from the top
    stuck_nodes: int = 500_000                # no break zone reached: restart (no favour)
    drought_nodes: int = 50_000_000           # no board in as many: loosen the schedule
    adapt: bool = True                        # rescale the schedule on each better board
    move_share: float = 0.25                  # of the time, once a board exists
    pace: str = "clock"                       # the share counted in seconds, or in "work"
    assign_size: int = 64
    refill_rows: int = 3
    refill_columns: int = 4
    refill_nodes: int = 20_000
    exact_rows: int = 5                       # the window CP-SAT refills (``exact``)
    exact_columns: int = 5
    exact_seconds: float = 1.0                # CP-SAT's time limit per move
    exact_share: float = 0.5                  # of the moves' time, when others are on too
    favour: bool = True                       # favoured colours used up by the top (edges)
    favour_scale: float = 0.9                 # of ``favour.RAMP``
    column_rows: int = 2                      # the last rows, filled column by column

    def to_json(self) -> dict[str, Any]:
        out = asdict(self)
        out["methods"] = list(self.methods)
        return out

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> "Config":
        data = dict(data)
        if "methods" in data:
            data["methods"] = tuple(data["methods"])
        if data.get("schedule") is not None:
            data["schedule"] = Schedule(**data["schedule"])
        return cls(**data)


@dataclass
class Figures:
    """A worker's counters (added up over workers by the driver)."""

    nodes: int = 0
    restarts: int = 0
    boards: int = 0                 # full boards the scan completed
    moves: int = 0
    gains: dict[str, int] = field(default_factory=lambda: {m: 0 for m in METHODS})
    exact_moves: int = 0            # CP-SAT refills, those proved optimal, their whole time
    exact_optimal: int = 0
    exact_seconds: float = 0.0


class Anytime:
    """The search of one worker on ``puzzle`` (see the module docstring)."""

    def __init__(self, puzzle: EdgeMatchingPuzzle, objective: str = "edges", seed: int = 0,
                 config: Config | None = None, tables: Tables | None = None):
        self.tables = tables or compile_tables(puzzle)
        self.objective = objective
        self.holes = objective == "tiles"
        self.config = config or Config()
        t = self.tables
        self.order = fill_order(t.fixed, t.width, t.height, self.config.column_rows)
        #: ``order`` sorted (row-major): how far into the board depth ``d`` is, in cells.
        self._rank = np.sort(self.order)
        self.schedule = self.config.schedule or self._default_schedule()
        self.limit = self.schedule.limits(self.order, t.n_cells)
        self.rng = new_state(seed)
        self.lists = Lists(t)
        self.board = np.empty(t.n_cells, dtype=np.int32)
        self.used = np.zeros(t.n_tiles, dtype=np.int32)
        self.found = np.empty(t.n_cells, dtype=np.int32)
        self.deep = np.empty(t.n_cells, dtype=np.int32)
        self.state = scan.new_state(self.order.shape[0], 1 << 30)
        self.favour_scale = self.config.favour_scale
        self._ramp_met = False              # this restart's top reached the break zone
        self.favoured = favour.favoured_colours(t) if self.config.favour and not self.holes \
            and t.n_cells >= favour.MIN_CELLS else ()
        self.lists.fav = favour.favoured_sides(t, self.favoured)
        self._set_ramp()
        #: The depth a top must pass within ``stuck_nodes`` placements (``FAVOUR_EARLY_ROWS``).
        self._early_depth = int(np.searchsorted(self._rank, FAVOUR_EARLY_ROWS * t.width))
        self.best: np.ndarray | None = None
        self.best_score = -1
        self.best_at = 0.0                  # search seconds when the best was found
        self.seconds = 0.0                  # search seconds so far
        self.figures = Figures()
        self._move_seconds = 0.0
        self._move_work = 0                 # the moves' work, in placements (``MOVE_NODES``)
        self._found_at = 0
        if self.config.pace not in PACES:
            raise ValueError(f"pace must be one of {PACES}, got {self.config.pace!r}")
        self._restart()

    # ------------------------------------------------------------------ scores
    def _default_schedule(self) -> Schedule:
        t = self.tables
        if self.holes:
            return Schedule(total=max(2.0, 16.0 * t.n_cells / 256.0), start=0.70, power=1.5)
        return Schedule.for_board(t.inner_edges, t.n_cells)

    @property
    def max_score(self) -> int:
        return self.tables.n_cells if self.holes else self.tables.inner_edges

    def score(self, board: np.ndarray) -> int:
        """Tiles placed (a board without mismatches) or matched edges (a full board)."""
        if self.holes:
            return int((board >= 0).sum())
        return int(board_kernel.matched_edges(self.tables.colour, self.tables.neighbour, board))

    def _breaks(self, score: int) -> int:
        return self.max_score - score

    # ------------------------------------------------------------------ the loop
    def run(self, seconds: float, cancel: Callable[[], bool] | None = None,
            on_slice: Callable[[], None] | None = None, nodes: int | None = None) -> None:
        """Search for about ``seconds`` (less if ``cancel()`` turns true or the best board is
        perfect), in slices of about a tenth of a second, calling ``on_slice`` after each.
        ``nodes``: stop too once the scan has made as many placements in all (with ``pace``
        "work", a budget that gives the same search on any machine)."""
        end = time.perf_counter() + seconds
        while time.perf_counter() < end and self.best_score < self.max_score:
            if cancel is not None and cancel():
                return
            if nodes is not None and self.figures.nodes >= nodes:
                return
            self.step()
            if on_slice is not None:
                on_slice()

    def step(self) -> None:
        """One move or one slice of the scan, whichever is due."""
        start = time.perf_counter()
        if self._moves_due():
            self._move()
            self._move_seconds += time.perf_counter() - start
        else:
            self._scan_slice()
        self.seconds += time.perf_counter() - start

    def _moves_due(self) -> bool:
        c = self.config
        if self.best is None or not self._moves():
            return False
        if "scan" not in c.methods:
            return True
        if c.pace == "clock":
            return self._move_seconds < c.move_share * self.seconds
        return self._move_work < c.move_share * (self._move_work + self.figures.nodes)

    def _scan_slice(self) -> None:
        st = self.state["st"]
        before = int(st[scan.S_NODES])
        deepest = int(st[scan.S_DEEPEST])
        status = run_scan(self.tables, self.lists, self.order, self.limit, self.board,
                          self.used, self.state, self.found, SLICE_NODES, self.holes,
                          self.deep)
        self.figures.nodes += int(st[scan.S_NODES]) - before
        if status == scan.FOUND:
            self.figures.boards += 1
            self.offer(self.found, method="scan")
        elif self.holes and st[scan.S_DEEPEST] > deepest:
            self.offer(self.deep, method="scan")     # a longer top with no hole
        c = self.config
        short = st[scan.S_REACHED] < self._break_depth()
        if self.favoured:
            # Their tops take longer to build (restarting them after ``stuck_nodes`` cost 0.5
            # edges on Eternity II, CHANGELOG.md); a top that reaches no break zone in ten
            # times as many loosens the ramp, one that does tightens it back.  A top caught in
            # its first rows starts again without loosening it (``FAVOUR_EARLY_ROWS``).
            stuck = short and st[scan.S_RESTART_NODES] >= FAVOUR_STUCK * c.stuck_nodes
            if stuck:
                self._scale_ramp(FAVOUR_STEP)
            elif not short and not self._ramp_met:
                self._ramp_met = True
                self._scale_ramp(1 / FAVOUR_STEP)
            caught_early = short and st[scan.S_RESTART_NODES] >= c.stuck_nodes \
                and st[scan.S_REACHED] < self._early_depth
            stuck = stuck or caught_early
        else:
            stuck = short and st[scan.S_RESTART_NODES] >= c.stuck_nodes
        if status == scan.EXHAUSTED or st[scan.S_RESTART_NODES] >= c.restart_nodes or stuck:
            self._restart()
        if self.best is None and st[scan.S_NODES] - self._found_at >= c.drought_nodes:
            self._loosen()

    def _loosen(self) -> None:
        """No board yet after ``drought_nodes``: allow more breaks (holes) by each cell.  With
        ``offer``'s tightening after each better board, the schedule starts where boards are
        found at all, whatever the puzzle."""
        self._found_at = int(self.state["st"][scan.S_NODES])
        self.schedule = replace(self.schedule, total=self.schedule.total * 1.2 + 1.0)
        self.limit = self.schedule.limits(self.order, self.tables.n_cells)
        self._scale_ramp(0.8)

    def _scale_ramp(self, factor: float) -> None:
        """The ramp of favoured sides times ``factor``, never above ``Config.favour_scale``."""
        self.favour_scale = min(self.favour_scale * factor, self.config.favour_scale)
        self._set_ramp()

    def _set_ramp(self) -> None:
        if self.favoured:
            self.state["fav_min"][:] = favour.ramp(self.tables, self.order, self.lists.fav,
                                                   self.favour_scale)

    def _break_depth(self) -> int:
        """The depth (in ``order``) of the first cell where the schedule may allow breaks."""
        return int(np.searchsorted(self._rank, int(self.schedule.start * self.tables.n_cells)))

    def _restart(self) -> None:
        self.figures.restarts += 1
        self._ramp_met = False
        self.lists.shuffle(self.tables, self.rng)
        scan.reset(self.tables.fixed, self.board, self.used, self.state["st"],
                   self.state["brk"])
        cap = self._breaks(self.best_score) - 1 if self.best is not None else 1 << 30
        self.state["st"][scan.S_CAP] = cap

    def offer(self, board: np.ndarray, method: str = "shared") -> bool:
        """Take ``board`` as the best if it scores higher (a board of the scan, of a move, or
        another worker's); the schedule then aims lower and the scan restarts."""
        score = self.score(board)
        if score <= self.best_score:
            return False
        if self.best is not None and method in self.figures.gains:
            self.figures.gains[method] += score - self.best_score
        self.best = board.copy()
        self.best_score = score
        self.best_at = self.seconds
        self._found_at = int(self.state["st"][scan.S_NODES])
        breaks = self._breaks(score)
        if self.config.adapt and "scan" in self.config.methods and breaks > 0:
            self.schedule = self.schedule.aiming_at(breaks - 1, breaks)
            self.limit = self.schedule.limits(self.order, self.tables.n_cells)
        self.state["st"][scan.S_CAP] = breaks - 1
        if method == "scan":
            # The top of a better board is worth keeping: its end is searched again (with
            # reshuffled lists), the rest of the scan goes on below it.
            self.lists.shuffle(self.tables, self.rng)
            scan.rewind(self.order, self.board, self.used, self.state["st"],
                        self._break_depth())
        return True

    def _move(self) -> None:
        """One move on a copy of the best board; kept if at least as good."""
        c = self.config
        method = self._pick_move()
        board = self.best.copy()
        self._move_work += MOVE_NODES
        if method == "assign":
            spare = self._spare(board) if self.holes else None
            reassign_independent(self.tables, self.rng, board, c.assign_size, self.holes, spare)
        else:
            cells = broken_cells(self.tables, board, self.holes)
            if cells.size == 0:
                return
            centre = int(cells[below(self.rng, cells.size)])
            if method == "exact":
                region = window(self.tables, self.rng, centre, c.exact_rows, c.exact_columns)
                board = self._exact(board, region)
            else:
                region = window(self.tables, self.rng, centre, c.refill_rows, c.refill_columns)
                board, _ = refill_region(self.tables, self.lists, board, region,
                                         c.refill_nodes, self.holes)
        self.figures.moves += 1
        score = self.score(board)
        if score > self.best_score:
            self.offer(board, method)
        elif score == self.best_score:
            self.best = board                # drift over the plateau

    def _pick_move(self) -> str:
        """The exact refill while it has taken less than ``exact_share`` of the moves' time
        (one takes about as long as thousands of the others), else another at random."""
        moves = self._moves()
        if "exact" in moves:
            moves.remove("exact")
            if not moves or \
                    self.figures.exact_seconds < self.config.exact_share * self._move_seconds:
                return "exact"
        return moves[below(self.rng, len(moves))]

    def _moves(self) -> list[str]:
        """The moves of ``methods`` this worker makes (no exact refill of holes)."""
        return [m for m in MOVES if m in self.config.methods and not
                (self.holes and m == "exact")]

    def _exact(self, board: np.ndarray, region: np.ndarray) -> np.ndarray:
        """``board`` with ``region`` refilled by CP-SAT (``exact.refill_exact``)."""
        start = time.perf_counter()
        outcome = refill_exact(self.tables, board, region, self.config.exact_seconds,
                               below(self.rng, 1 << 30))
        f = self.figures
        f.exact_moves += 1
        f.exact_optimal += int(outcome.optimal)
        took = time.perf_counter() - start
        f.exact_seconds += took
        self._move_work += int(took * SCAN_RATE) - MOVE_NODES
        return outcome.board

    def _spare(self, board: np.ndarray) -> np.ndarray:
        """The tiles the board leaves out (holes mode)."""
        on = np.zeros(self.tables.n_tiles, dtype=bool)
        on[board[board >= 0] >> 2] = True
        return np.flatnonzero(~on)

    # ------------------------------------------------------------------ state
    def report(self) -> dict[str, Any]:
        """The running figures the driver shows and adds up."""
        f = self.figures
        return {"score": self.best_score, "nodes": f.nodes, "moves": f.moves,
                "restarts": f.restarts, "boards": f.boards, "seconds": self.seconds,
                "best_at": self.best_at, "gains": dict(f.gains), "exact_moves": f.exact_moves,
                "exact_optimal": f.exact_optimal, "exact_seconds": f.exact_seconds}

    def snapshot(self) -> bytes:
        """The whole state as bytes (``restore`` takes it back)."""
        arrays = {"board": self.board, "used": self.used, "rng": self.rng,
                  "cand": self.lists.cand, "north": self.lists.north, "west": self.lists.west,
                  "allowed": self.lists.allowed, "limit": self.limit, "order": self.order,
                  **{f"state_{k}": v for k, v in self.state.items()}}
        if self.best is not None:
            arrays["best"] = self.best
        scalars = {"best_score": self.best_score, "best_at": self.best_at,
                   "seconds": self.seconds, "move_seconds": self._move_seconds,
                   "move_work": self._move_work, "found_at": self._found_at,
                   "schedule": asdict(self.schedule), "figures": asdict(self.figures),
                   "objective": self.objective, "favoured": list(self.favoured),
                   "favour_scale": self.favour_scale, "ramp_met": self._ramp_met}
        buf = io.BytesIO()
        np.savez(buf, scalars=np.frombuffer(repr(scalars).encode(), dtype=np.uint8), **arrays)
        return buf.getvalue()

    @staticmethod
    def best_in(blob: bytes) -> tuple[int, np.ndarray | None, float]:
        """The best score, board and search seconds at its finding in a ``snapshot``."""
        import ast

        data = np.load(io.BytesIO(blob))
        scalars = ast.literal_eval(bytes(data["scalars"]).decode())
        best = data["best"].astype(np.int32) if "best" in data.files else None
        return int(scalars["best_score"]), best, float(scalars["best_at"])

    def restore(self, blob: bytes) -> None:
        """Continue from a ``snapshot`` of a worker of the same puzzle and objective."""
        import ast

        data = np.load(io.BytesIO(blob))
        scalars = ast.literal_eval(bytes(data["scalars"]).decode())
        if scalars["objective"] != self.objective:
            raise ValueError("a state of another objective")
        for name, target in (("board", self.board), ("used", self.used), ("rng", self.rng),
                             ("cand", self.lists.cand), ("north", self.lists.north),
                             ("west", self.lists.west), ("allowed", self.lists.allowed)):
            if data[name].shape != target.shape:
                raise ValueError(f"a state of another puzzle ({name})")
            target[:] = data[name]
        # The scan's state is by depth: it goes on in the order it was saved with (row by
        # row for a state saved before ``fill_order`` existed, which holds no order).
        t = self.tables
        order = data["order"] if "order" in data.files else \
            fill_order(t.fixed, t.width, t.height, 0)
        if order.shape != self.order.shape:
            raise ValueError("a state of another puzzle (order)")
        self.order = order.astype(np.int32)
        if "state_fav_min" not in data.files:
            # Saved before favoured colours: its lists and top were made without them.
            self.favoured, self.lists.fav = (), np.zeros_like(self.lists.fav)
        for k in self.state:
            if f"state_{k}" in data.files:
                self.state[k][:] = data[f"state_{k}"]
        if not self.favoured:
            self.state["fav_min"][:] = 0        # whatever the state was saved with
        self.favour_scale = float(scalars.get("favour_scale", self.favour_scale))
        self._ramp_met = bool(scalars.get("ramp_met", False))
        self.limit = data["limit"].astype(np.int32)
        self.best = data["best"].astype(np.int32) if "best" in data.files else None
        self.best_score = int(scalars["best_score"])
        self.best_at = float(scalars["best_at"])
        self.seconds = float(scalars["seconds"])
        self._move_seconds = float(scalars["move_seconds"])
        # A state saved before moves were counted in work: as much work as their seconds.
        self._move_work = int(scalars.get("move_work", self._move_seconds * SCAN_RATE))
        self._found_at = int(scalars["found_at"])
        self.schedule = Schedule(**scalars["schedule"])
        self.figures = Figures(**scalars["figures"])


def warm() -> float:
    """Compile (or load from numba's cache) every kernel the optimiser calls, on a 4 x 4
    board, timed apart from the search (``cpkit.engines.runtime.jit.warm``); returns the seconds it
    took in this process (0 after the first call)."""
    from ..models.em_generator import generate
    from ..engines.runtime.jit import warm as warm_once

    def run() -> None:
        puzzle = generate(4, border_colours=2, inner_colours=3, seed=1)
        for objective in OBJECTIVES:
            worker = Anytime(puzzle, objective, 1, Config(move_share=0.5))
            while worker.best is None:          # a solvable puzzle: found at once
                worker._scan_slice()
            for method in ("assign", "refill"):
                worker.config = Config(methods=(method,))
                worker._move()

    return warm_once("optimiser", run)
