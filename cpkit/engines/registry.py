"""Every engine of cpkit, one record each: the one place where an engine is registered.

An ``EngineRecord`` names, as dotted paths imported on first use (so that OR-Tools is loaded
only when CP-SAT runs, and ``cpkit --version`` compiles no kernel): the function that solves a
model of its family (``solve``), the ``prepare(model, options)`` of its splitter for split runs
(``split``, None for an engine that runs in one process), and the dataclass of its own options
(``options``: defaults and help text, from which the command line is built; see
``cpkit.engines.options``).  ``ENGINES``, ``SPLITTERS`` and ``AUTO`` are views of ``RECORDS``.

Adding an engine is one folder under ``cpkit/engines/<family>/`` and one line below
(CONTRIBUTING.md).
"""

from __future__ import annotations

from dataclasses import dataclass
from importlib import import_module
from typing import Any, Callable

from ..errors import EngineUnavailable


@dataclass(frozen=True)
class EngineRecord:
    family: str
    name: str
    solve: str
    description: str
    options: str = "cpkit.engines.options:NoOptions"
    split: str | None = None

    def solve_function(self) -> Callable[..., Any]:
        return load(self.solve)

    def options_class(self) -> type:
        return load(self.options)

    def splitter(self) -> Callable[[Any, dict[str, Any]], Any] | None:
        return None if self.split is None else load(self.split)


def load(target: str) -> Any:
    """The object at ``module:attribute``."""
    module, _, attr = target.partition(":")
    return getattr(import_module(module), attr)


_E = "cpkit.engines."
RECORDS: tuple[EngineRecord, ...] = (
    EngineRecord("tiling", "dlx", _E + "exact_cover.dlx.dlx_search:solve_tiling",
                 "dancing links", _E + "exact_cover.dlx.dlx_options:DlxTilingOptions",
                 _E + "exact_cover.dlx.dlx_split:prepare"),
    EngineRecord("tiling", "fila", _E + "tiling.fila.fila_search:solve_tiling",
                 "FILA alone, at most 256 free cells", _E + "tiling.fila.fila_options:FilaOptions",
                 _E + "tiling.hybrid.hybrid_split:prepare_fila"),
    EngineRecord("tiling", "hybrid", _E + "tiling.hybrid.hybrid_search:solve_tiling",
                 "DLX places the first pieces, FILA the last --fila-at",
                 _E + "tiling.hybrid.hybrid_options:HybridOptions",
                 _E + "tiling.hybrid.hybrid_split:prepare_hybrid"),
    EngineRecord("tiling", "auto", _E + "tiling.hybrid.hybrid_search:solve_tiling",
                 "a hybrid configuration chosen from the puzzle's geometry and estimates of "
                 "candidate searches, in the orientation they favour; see docs/algorithms.md",
                 _E + "tiling.auto.tiling_auto_options:TilingAutoOptions",
                 _E + "tiling.hybrid.hybrid_split:prepare"),
    EngineRecord("tiling", "cpsat", _E + "cpsat.cpsat_search:solve_tiling", "OR-Tools CP-SAT"),
    EngineRecord("exact_cover", "dlx", _E + "exact_cover.dlx.dlx_search:solve_cover",
                 "dancing links", _E + "exact_cover.dlx.dlx_options:DlxCoverOptions",
                 _E + "exact_cover.dlx.dlx_split:prepare"),
    EngineRecord("exact_cover", "cpsat", _E + "cpsat.cpsat_search:solve_cover",
                 "OR-Tools CP-SAT"),
    EngineRecord("edge_matching", "auto", _E + "edge_matching.auto.em_auto_search:solve",
                 "races cp, edges and backtrack on the board for a moment and goes on with the "
                 "one estimated to finish first (the JSON says which, in engine and "
                 "engine_reason)"),
    EngineRecord("edge_matching", "cp", _E + "edge_matching.cp.em_cp_search:solve",
                 "ColorPair constraint propagation",
                 _E + "edge_matching.cp.em_cp_options:CpOptions",
                 _E + "edge_matching.em_split:prepare_cp"),
    EngineRecord("edge_matching", "backtrack",
                 _E + "edge_matching.backtrack.em_backtrack_search:solve", "brute force",
                 split=_E + "edge_matching.em_split:prepare_backtrack"),
    EngineRecord("edge_matching", "cpsat", _E + "cpsat.cpsat_search:solve_edge_matching",
                 "OR-Tools CP-SAT"),
    EngineRecord("edge_matching", "alldiff", _E + "edge_matching.alldiff.em_alldiff_search:solve",
                 "the paper's section 6.3 model (4-edge consistency and the complete "
                 "AllDifferent, pure Python: for node counts on small boards)",
                 _E + "edge_matching.alldiff.em_alldiff_options:AlldiffOptions"),
    EngineRecord("edge_matching", "edges", _E + "edge_matching.edges.em_edges_search:solve",
                 "edge filtering compiled (a colour domain per edge, arc consistency, smallest "
                 "domain first)", _E + "edge_matching.edges.em_edges_options:EdgesOptions",
                 _E + "edge_matching.em_split:prepare_edges"),
    EngineRecord("edge_matching", "python_backtrack",
                 _E + "edge_matching.python_backtrack.em_python_backtrack:solve",
                 "the brute force in plain Python (a reference: slow, for small boards)"),
)

#: What ``engine="auto"`` means for each family.
AUTO: dict[str, str] = {"tiling": "auto", "exact_cover": "dlx", "edge_matching": "auto"}

#: ``(family, name)`` -> the record.
BY_KEY: dict[tuple[str, str], EngineRecord] = {(r.family, r.name): r for r in RECORDS}
#: ``(family, name)`` -> the dotted path of its solve function.
ENGINES: dict[tuple[str, str], str] = {key: r.solve for key, r in BY_KEY.items()}
#: ``(family, name)`` -> the dotted path of its splitter's ``prepare``, for splittable engines.
SPLITTERS: dict[tuple[str, str], str] = {key: r.split for key, r in BY_KEY.items()
                                         if r.split is not None}


def record(family: str, name: str) -> EngineRecord:
    """The record of engine ``name`` of ``family`` ("auto" as ``AUTO`` says)."""
    if name == "auto":
        name = AUTO.get(family, "")
    found = BY_KEY.get((family, name))
    if found is None:
        raise EngineUnavailable(f"no engine {name!r} for {family.replace('_', ' ')} models; "
                                f"available: {', '.join(supported(family))}")
    return found


def supported(family: str) -> list[str]:
    """Engine names available for a family."""
    return sorted(name for fam, name in BY_KEY if fam == family)


def family_records(family: str) -> list[EngineRecord]:
    return [r for r in RECORDS if r.family == family]
