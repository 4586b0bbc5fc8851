"""What an optimiser run returns: the best board, its score, and how it was found."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..models.board import Board


@dataclass
class MaximizeResult:
    """The best board of a ``maximize`` run and its figures.

    ``score`` is the objective's: matched edges of a full board (``objective`` "edges") or tiles
    placed with no mismatch ("tiles"), of ``max_score``; ``matched_edges`` and ``tiles_placed``
    are both given whatever the objective.  ``seconds_to_best``: search seconds (this run and
    the runs it resumed) until the best board was found.  ``stop_reason`` is ``complete`` when
    the score is the maximum (a solution: nothing better exists), else ``time_limit`` or
    ``interrupted``."""

    name: str
    objective: str
    board: Board | None
    score: int
    max_score: int
    matched_edges: int
    inner_edges: int
    tiles_placed: int
    cells: int
    seconds_to_best: float
    stop_reason: str
    seconds: float
    cpu_seconds: float
    jit_seconds: float
    workers: int
    seed: int
    nodes: int = 0
    moves: int = 0
    restarts: int = 0
    boards: int = 0
    options: dict[str, Any] = field(default_factory=dict)
    checkpoint_error: str | None = None     # the last checkpoint write's failure, if it failed

    @property
    def complete(self) -> bool:
        return self.score >= self.max_score

    def summary(self) -> dict[str, Any]:
        """The JSON summary line of ``cpkit match --maximize``."""
        rate = self.nodes / self.seconds if self.seconds > 0 else 0.0
        return {"name": self.name, "family": "edge_matching", "engine": "maximize",
                "objective": self.objective, "score": self.score, "max_score": self.max_score,
                "matched_edges": self.matched_edges, "inner_edges": self.inner_edges,
                "tiles_placed": self.tiles_placed, "cells": self.cells,
                "seconds_to_best": round(self.seconds_to_best, 3),
                "complete": self.complete, "stop_reason": self.stop_reason,
                "seconds": round(self.seconds, 6), "cpu_seconds": round(self.cpu_seconds, 3),
                "jit_seconds": round(self.jit_seconds, 6), "nodes": self.nodes,
                "nodes_per_s": int(rate), "moves": self.moves, "restarts": self.restarts,
                "boards": self.boards, "workers": self.workers, "seed": self.seed,
                "options": self.options}
