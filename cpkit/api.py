"""The public API behind ``cpkit.load``, ``cpkit.solve``, ``cpkit.count``, ``cpkit.estimate``,
``cpkit.score`` and ``cpkit.maximize``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from .errors import InputError, whole
from .result import Result


def load(path: str | Path, *, index: int = 0, format: str = "auto", ignore_hints: bool = False):
    """Read a model from a file.  ``format="dlx1"``, or a ``.dlx`` file under "auto", gives an
    ``ExactCover`` (Knuth's dlx1 format, as ``cpkit cover`` reads it); otherwise the content
    tells the kind: a polycube definition file (``D:`` ... ``~D``) gives a tiling ``Puzzle``
    (``index`` picks one puzzle of a file that holds several), a file of whole numbers an
    ``EdgeMatchingPuzzle`` (``format``: its layout or "auto"; ``ignore_hints`` drops its hints).
    The other kinds hold one model each, so for them ``index`` must be 0."""
    from .io.dlx_format import read_dlx
    from .io.edge_matching import FORMATS, looks_like_edge_matching, read_edge_matching
    from .io.polycube import read_polycube
    from .io.text import read_text

    if format not in ("auto", "dlx1", *FORMATS):
        raise InputError(f"unknown file format {format!r}; expected auto, dlx1 or an "
                         f"edge-matching layout ({', '.join(FORMATS)})", str(path))
    if format == "dlx1" or (format == "auto" and Path(path).suffix.lower() == ".dlx"):
        models = [read_dlx(path)]
    elif format != "auto" or looks_like_edge_matching(read_text(path)):
        models = [read_edge_matching(path, format=format, ignore_hints=ignore_hints)]
    else:
        models = read_polycube(path)
    if not 0 <= whole(index, "index") < len(models):
        raise InputError(f"the file holds {len(models)} puzzle(s): index must be 0 to "
                         f"{len(models) - 1}, got {index!r}", str(path))
    return models[index]


def _as_model(model_or_path):
    if isinstance(model_or_path, (str, Path)):
        return load(model_or_path)
    return model_or_path


def solve(model, *, engine: str = "auto", workers: int | None = None, client: Any = None,
          **options: Any) -> Result:
    """Solve ``model`` (or the model in a file) with ``engine`` (the engines of each family are
    listed in ``cpkit.engines.registry``).

    ``workers=N`` splits the search over N local processes, ``client`` (a
    ``dask.distributed.Client``) over a Dask cluster; counts equal the sequential run's, and so
    do the node statistics except the edge-matching CP engine's, whose subproblems may break ties
    differently and cannot backjump across a split (``cpkit.engines.edge_matching.em_split``).  Code that
    uses worker processes must be importable without side effects (the usual
    ``if __name__ == "__main__":`` guard), as processes are spawned.  Further split-run
    options: ``checkpoint``, ``resume``, ``subproblems``.
    """
    from .engines.dispatch import solve as _solve

    if workers is None and client is None and not options.get("checkpoint") \
            and not options.get("resume"):
        return _solve(_as_model(model), engine=engine, **options)
    from .parallel.runner import run

    if workers is None and client is None:
        workers = 1
    source = options.pop("source", None)
    if source is None and isinstance(model, (str, Path)):
        from .parallel.checkpoint import model_identity

        source = model_identity(model)
    return run(_as_model(model), engine=engine, workers=workers, client=client, source=source,
               **options)


def count(model_or_path, *, unique: str | None = None, engine: str = "auto",
          workers: int | None = None, client: Any = None, **options: Any) -> int:
    """The exact number of solutions (tilings: up to rotation unless ``unique`` says otherwise);
    raises ``CpkitError`` if the search could not finish.  ``workers`` and ``client`` as for
    ``solve``."""
    from .errors import CpkitError

    if unique is not None:
        options["unique"] = unique
    result = solve(model_or_path, engine=engine, workers=workers, client=client,
                   count_only=True, **options)
    if not result.complete:
        raise CpkitError(f"the search stopped early ({result.stop_reason}) after "
                         f"{result.count} solutions; the count is not exact")
    return result.count


def estimate(model_or_path, *, engine: str = "auto", probes: int = 1000, seed: int = 0,
             time_limit: float | None = None, remaining: int | None = None, **options: Any):
    """Knuth's Monte-Carlo estimate of the search tree ``engine`` would walk on the model (or
    the model in a file), from ``probes`` seeded random walks, without searching it: a
    ``cpkit.parallel.monte_carlo.TreeEstimate`` (``nodes``, ``solutions`` and their standard
    errors, ``estimated_seconds`` with ``remaining``; ``summary()`` is ``cpkit ...
    --monte-carlo N --json``'s line).  ``remaining``: walks end when that many pieces remain
    and search the rest, which measures the engine's speed; ``time_limit``: no walk goes on
    after it.  Further options shape the search as for ``solve``."""
    from .parallel.monte_carlo import estimate as knuth

    return knuth(_as_model(model_or_path), engine=engine, probes=probes, seed=seed,
                 time_limit=time_limit, remaining=remaining, **options)


def score(board, puzzle, *, format: str = "auto", ignore_hints: bool = False):
    """The score of an edge-matching board (``cpkit.models.score.Score``: ``score`` matched
    edges of ``max_score``, ``tiles_placed``, ``mismatches``, hints), as ``cpkit score``
    prints it.  ``board`` is a ``Board``, a ``BoardSolution`` (a solution of ``cpkit.solve``)
    or the path of a board file or of a file holding a viewer link; ``puzzle`` an
    ``EdgeMatchingPuzzle`` or the path of its file (``format``, ``ignore_hints`` as for
    ``load``).  A board that breaks a rule raises ``InputError`` naming the cell."""
    from .io.boards import load_board
    from .io.edge_matching import read_edge_matching
    from .models.score import score_board

    if isinstance(puzzle, (str, Path)):
        puzzle = read_edge_matching(puzzle, format=format, ignore_hints=ignore_hints)
    elif ignore_hints:
        puzzle = puzzle.without_hints()
    if not isinstance(board, (str, Path)):
        return score_board(puzzle, board)
    try:
        return score_board(puzzle, load_board(board, puzzle))
    except InputError as exc:
        raise exc.located(str(board)) from None


def maximize(puzzle, objective: str = "edges", *, time_limit: float | None = None,
             seed: int = 0, workers: int | None = None, client: Any = None,
             checkpoint: str | None = None, resume: str | None = None,
             checkpoint_every: float = 60.0, format: str = "auto", ignore_hints: bool = False,
             **options: Any):
    """The best board of an edge-matching puzzle within ``time_limit`` seconds (or until
    Ctrl-C), as ``cpkit match --maximize`` finds it: the most matched edges on a full board
    (``objective="edges"``) or the most tiles placed with no mismatch (``"tiles"``).  Returns a
    ``cpkit.optimise.MaximizeResult`` (``board``, ``score``, ``max_score``, ``tiles_placed``,
    ``seconds_to_best``, ...).  ``puzzle``: an ``EdgeMatchingPuzzle`` or the path of its file
    (checkpoints need the path).  ``workers``: local processes (default all cores), or a Dask
    ``client``; ``seed``: the first worker's (the others take the next ones).  Further options
    of ``cpkit.optimise.maximize``: ``config`` (methods, schedule), ``epoch``, ``progress``."""
    from .io.edge_matching import read_edge_matching
    from .optimise import maximize as run

    source = options.pop("source", None)
    if isinstance(puzzle, (str, Path)):
        if source is None and (checkpoint or resume):
            from .parallel.checkpoint import model_identity

            source = model_identity(puzzle)
            source.update(format=format, ignore_hints=ignore_hints)
        puzzle = read_edge_matching(puzzle, format=format, ignore_hints=ignore_hints)
    return run(puzzle, objective, time_limit=time_limit, seed=seed, workers=workers,
               client=client, checkpoint=checkpoint, resume=resume,
               checkpoint_every=checkpoint_every, source=source, **options)
