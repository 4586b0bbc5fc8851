"""Running an engine on a model: ``solve`` picks the family from the model's type, the engine
from ``registry``, and checks every option against what the engine and the family's front
take."""

from __future__ import annotations

import inspect
import numbers
from typing import Any, Callable

from ..errors import EngineUnavailable, InputError, whole
from ..result import Result
from .registry import AUTO, ENGINES, record, supported  # noqa: F401 (re-exported)


def family_of(model: Any) -> str:
    from ..models.exact_cover import ExactCover
    from ..models.tiling import Puzzle

    if isinstance(model, Puzzle):
        return "tiling"
    if isinstance(model, ExactCover):
        return "exact_cover"
    family = getattr(model, "family", None)
    if isinstance(family, str):
        return family
    raise EngineUnavailable(f"cpkit cannot solve a {type(model).__name__}")


def engine_function(family: str, name: str) -> Callable[..., Result]:
    """The solve function of engine ``name`` of ``family`` (imported now)."""
    return record(family, name).solve_function()


def solve(model: Any, *, engine: str = "auto", **options: Any) -> Result:
    family = family_of(model)
    check_run_options(options)
    name = AUTO.get(family, engine) if engine == "auto" else engine
    fn = check_options(family, name, options)
    if family == "tiling":
        if name == "auto":
            from .tiling.auto import tiling_auto_search as auto

            return auto.solve(model, fn, **options)
        from .tiling import tiling_front as tiling

        return tiling.solve(model, fn, engine_name=name, **options)
    if family == "edge_matching":
        from .edge_matching import em_front as edge_matching

        return edge_matching.solve(model, fn, **options)
    unique = options.pop("unique", None)
    if family == "exact_cover" and unique not in (None, "raw"):
        raise EngineUnavailable("exact covers have no symmetry to count up to; use unique='raw'")
    return fn(model, **options)


def _front(family: str, name: str = "") -> tuple[Callable[..., Any] | None, tuple[str, ...],
                                               tuple[str, ...]]:
    """The family's front for engine ``name`` (None for exact covers), the names it takes that
    no signature shows, and the engine parameters it fills in itself."""
    if family == "tiling":
        from .tiling import tiling_front as tiling

        if name == "auto":
            from .tiling.auto import tiling_auto_search as auto

            return auto.solve, tiling.FRONT_BUILT, tiling.FRONT_SUPPLIED
        return tiling.solve, tiling.FRONT_BUILT, tiling.FRONT_SUPPLIED
    if family == "edge_matching":
        from .edge_matching import em_front as edge_matching

        return edge_matching.solve, (), edge_matching.FRONT_SUPPLIED
    return None, ("unique",), ()


def check_options(family: str, name: str, options: dict[str, Any]) -> Callable[..., Result]:
    """The function of engine ``name`` (not "auto" but for tilings) of ``family``, once every
    option was found to be taken by it or by the family's front (here and in split runs, whose
    own preparation would otherwise fail with Python's TypeError on a misspelt keyword)."""
    fn = engine_function(family, name)
    front, extra, supplied = _front(family, name)
    _check_options(name, options, *filter(None, (fn, front)), extra=extra, supplied=supplied)
    return fn


#: Keywords that steer a run rather than shape its search.
RUN_CONTROLS = frozenset({"limit", "time_limit", "count_only", "first", "on_solution",
                          "on_progress"})


def option_defaults(family: str, name: str) -> dict[str, Any]:
    """The default of every option that shapes the search of engine ``name``: the keyword
    parameters of the engine and of the family's front, less ``RUN_CONTROLS`` and what the
    front fills in.  An option left out and the same option given at its default then compare
    equal (a checkpoint made with ``heuristic`` unset was refused to a run that gave the dlx
    engine's default "s")."""
    front, _, supplied = _front(family, name)
    defaults: dict[str, Any] = {}
    for fn in filter(None, (engine_function(family, name), front)):
        for p in inspect.signature(fn).parameters.values():
            if p.kind is p.KEYWORD_ONLY and p.default is not p.empty and \
                    p.name not in RUN_CONTROLS and p.name not in supplied:
                defaults.setdefault(p.name, p.default)
    return defaults


def check_run_options(options: dict[str, Any]) -> None:
    """``InputError`` for a limit, time limit or callback that every family would misuse, or
    for ``on_solution`` with ``count_only`` (here and in split runs: ``parallel.runner``):
    exact covers took ``limit=0`` as a finished search of no solution and ``limit=-1`` as none,
    and a string reached the engines as a raw TypeError."""
    limit, time_limit = options.get("limit"), options.get("time_limit")
    if limit is not None:
        if whole(limit, "limit") < 1:
            raise InputError(f"limit must be at least 1, got {limit}")
    if time_limit is not None:
        if isinstance(time_limit, bool) or not isinstance(time_limit, numbers.Real):
            raise InputError(f"time_limit must be a number of seconds, got {time_limit!r}")
        if not time_limit > 0:
            raise InputError(f"time_limit must be positive, got {time_limit}")
    for key in ("on_solution", "on_progress"):
        if options.get(key) is not None and not callable(options[key]):
            raise InputError(f"{key} must be a function, got {options[key]!r}")
    if options.get("count_only") and options.get("on_solution") is not None:
        # Edge matching used to stream them and tilings to drop them; split runs keep none.
        raise InputError("count_only keeps no solution for on_solution to receive; give "
                         "on_solution alone (a run that streams keeps none in its result)")


def _check_options(name: str, options: dict[str, Any], *takers: Callable[..., Any],
                   extra: tuple[str, ...] = (), supplied: tuple[str, ...] = ()) -> None:
    """``EngineUnavailable`` naming any option that neither the engine nor the family's front
    takes (a misspelt or misplaced keyword would otherwise surface as Python's TypeError from
    deep inside).  ``extra``: names taken on the way that no signature shows; ``supplied``:
    names in a signature that the front fills in itself, so a caller may not."""
    taken = set(extra).union(*(inspect.signature(fn).parameters for fn in takers))
    unknown = sorted(set(options) - (taken - set(supplied)))
    if unknown:
        raise EngineUnavailable(f"the {name} engine takes no option "
                                f"{', '.join(repr(k) for k in unknown)}")
