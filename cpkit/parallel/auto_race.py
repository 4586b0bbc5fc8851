"""``--engine auto`` on an edge-matching board in a split run: the race that picks the engine
runs in the coordinator, before the split, and a checkpointed run records the race's outcome
(or, killed while racing, a checkpoint that races again when resumed)."""

from __future__ import annotations

from typing import Any

from ..errors import InputError
from .checkpoint import Checkpoint


def race(model: Any, *, engine: str, workers: int, split_soon: bool, **options: Any) -> Any:
    """``--engine auto`` on an edge-matching board before a split run: the race of
    ``em_auto.choose`` in this process; a ``Result`` if it ended the run, else its choice.
    ``split_soon``: a checkpointed or distributed run (``em_auto.choose``)."""
    from ..engines.edge_matching.auto import em_auto_search as em_auto

    return em_auto.choose(model, workers=workers, split_soon=split_soon, **options)


def solve_here(model: Any, *, engine: str, cores: int, **options: Any) -> Any:
    """``--engine auto`` on an edge-matching board in this process, where the run may use
    ``cores`` cores (``em_auto.solve_on``): ``--first`` and ``--limit`` by default."""
    from ..engines.edge_matching.auto import em_auto_search as em_auto

    return em_auto.solve_on(model, cores=cores, **options)


def save_before_the_race(path: str, source: dict[str, Any], options: dict[str, Any]) -> None:
    """The checkpoint of an ``auto`` run before its race has picked an engine: written at
    once, as every checkpointed run writes one as it starts, so that a run killed while racing
    leaves a file to resume (``before_the_race``).  The run's own checkpoint, with the engine
    picked, replaces it when the race is over; a race that ends the run leaves it, and resuming
    it races again."""
    Checkpoint.unplanned(source, dict(options, engine="auto")).save(path)


def before_the_race(path: str, source: dict[str, Any]) -> bool:
    """Whether the checkpoint at ``path`` was written before an ``auto`` race picked its engine
    (checked to belong to this puzzle: anything else goes on to the usual checks)."""
    ck = Checkpoint.load(path)
    if ck.options.get("engine") != "auto" or ck.planned:
        return False
    ck.check_matches(source, ck.options, path)         # the puzzle; no option has acted yet
    return True


def resumed_engine(path: str, family: str) -> Any:
    """``--engine auto`` resuming a checkpoint: the engine and options it recorded, so that the
    run goes on with the engine that made it (a race now could pick another)."""
    from ..engines.edge_matching.auto.em_auto_search import Choice

    ck = Checkpoint.load(path)
    options = {k: v for k, v in ck.options.items() if k != "engine"}
    engine = ck.options.get("engine")
    if not isinstance(engine, str) or engine == "auto":
        raise InputError("the checkpoint names no edge-matching engine to go on with", path)
    why = ck.engine_reason or "the engine the checkpoint was made with"
    return Choice(engine, options, f"resumed from the checkpoint: {why}", 0.0, {})
