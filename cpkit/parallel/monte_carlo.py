"""``cpkit.estimate``: the size of an engine's search tree from random probes (Knuth's
estimator), without searching it: nodes, solutions and, when the probes end early and search
the rest (``remaining``), the time a search would take on one core."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from ..errors import EngineUnavailable, InputError, whole
from ..result import COMPLETE, INTERRUPTED, TIME_LIMIT
from .plan import Estimate


@dataclass
class TreeEstimate(Estimate):
    """Knuth's estimate of one engine's tree (``plan.Estimate``: means and standard errors
    over ``probes`` walks, fewer than ``asked`` when the time limit or a stop signal came
    first: ``stop_reason``), with what was estimated."""

    name: str = ""
    family: str = ""
    engine: str = ""
    asked: int = 0
    stop_reason: str = COMPLETE
    seed: int = 0
    remaining: int | None = None

    @property
    def nodes_per_s(self) -> float | None:
        """The search rate measured in the exhaustive parts (None without them)."""
        if not self.exhaustive_nodes:
            return None
        return self.exhaustive_nodes / self.exhaustive_seconds if self.exhaustive_seconds > 0 \
            else 0.0

    @property
    def estimated_seconds(self) -> float | None:
        """The search's time on one core at ``nodes_per_s`` (None when unmeasured)."""
        rate = self.nodes_per_s
        return self.nodes / rate if rate else None

    def summary(self) -> dict[str, Any]:
        """The JSON summary (docs/formats.md): no ``solutions`` or ``complete``, since an
        estimate is not a count; JSON has no infinity, so a figure past the float range is
        null."""
        out = {"name": self.name, "family": self.family, "engine": self.engine,
               "probes": self.probes, "stop_reason": self.stop_reason, "seed": self.seed,
               "remaining": self.remaining,
               "estimated_nodes": _json_number(self.nodes, 1),
               "nodes_error": _json_number(self.nodes_error, 1),
               "estimated_solutions": _json_number(self.solutions, 3),
               "solutions_error": _json_number(self.solutions_error, 3),
               "probe_seconds": round(self.seconds, 6)}
        if self.exhaustive_nodes:
            out["nodes_per_s"] = round(self.nodes_per_s, 1)
            seconds = self.estimated_seconds
            out["estimated_seconds"] = None if seconds is None else _json_number(seconds, 3)
        return out


def estimate(model: Any, *, engine: str = "auto", probes: int = 1000, seed: int = 0,
             time_limit: float | None = None, remaining: int | None = None,
             **options: Any) -> TreeEstimate:
    """Knuth's estimate of the tree ``engine`` searches on ``model`` from ``probes`` random
    walks (seeded: the same seed gives the same estimate).  ``remaining``: each walk ends when
    that many pieces remain (tilings; other models: that many choices above the deepest
    possible) and the rest below it is searched, which also measures the engine's rate and so
    the time a search would take.  ``time_limit``: seconds after which no walk goes on (fewer
    probes, ``stop_reason`` says so).  Further options shape the search as for ``solve``.  A
    Ctrl-C or SIGTERM ends the walks with those done; before the first it raises
    ``KeyboardInterrupt``.  Engines with a search tree only (those that split: not
    ``cpsat``, ``alldiff`` or the edge-matching ``auto``, whose race picks an engine)."""
    from ..engines.dispatch import AUTO, check_options, check_run_options, family_of
    from . import splitter
    from .job import Job, tree
    from .plan import deadline
    from .plan import estimate as knuth
    from ..signals import StopSignals

    family = family_of(model)
    name = AUTO.get(family, engine) if engine == "auto" else engine
    if family == "edge_matching" and name == "auto":
        raise InputError("a Monte-Carlo estimate is of one engine's tree: name it (cp, edges "
                         "or backtrack; auto races them on the board instead)")
    if whole(probes, "probes") < 1:
        raise InputError(f"probes must be at least 1, got {probes}")
    if whole(seed, "seed") < 0:
        raise InputError(f"seed must be at least 0, got {seed}")
    check_run_options({"time_limit": time_limit})
    check_options(family, name, options)
    if splitter(family, name) is None:
        raise EngineUnavailable(f"a Monte-Carlo estimate needs a search tree; the {name} "
                                f"engine has none")
    t = tree(Job(family, name, model, options))
    stop = None
    if remaining is not None:
        top = model.n_pieces if family == "tiling" else t.max_depth
        if not 0 <= whole(remaining, "remaining") < top:
            raise InputError(f"remaining must be between 0 and {top - 1}, got {remaining}")
        stop = top - remaining
    with StopSignals() as signals:
        est = knuth(t, [], probes, seed, stop, seconds=time_limit,
                    cancel=deadline(time_limit, lambda: signals.raised is not None))
    if est.probes == 0 and signals.raised is not None:
        raise KeyboardInterrupt
    reason = COMPLETE if est.probes == probes else \
        INTERRUPTED if signals.raised is not None else TIME_LIMIT
    return TreeEstimate(**vars(est), name=getattr(model, "name", ""), family=family,
                        engine=name, asked=probes, stop_reason=reason, seed=seed,
                        remaining=remaining)


def _json_number(x: float, digits: int) -> float | None:
    """``x`` rounded, or None (JSON null) for an estimate past the float range."""
    return round(x, digits) if math.isfinite(x) else None
