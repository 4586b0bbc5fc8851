"""``cpkit tile PUZZLE``: find, count or enumerate the tilings of a polycube definition file."""

from __future__ import annotations

from ..io.polycube import read_polycube
from ..io.solutions import format_stats_table, format_tiling
from ..result import count_phrase
from ..engines.tiling.tiling_front import UNIQUE_MODES
from ..engines.tiling.tiling_options import FILTERS_AND_TRIGGERS
from . import long_runs
from . import SUMMARIES
from .engine_flags import add_engine_arguments, add_engine_group, engine_options
from .common import (HelpFormatter, add_run_options, announce_compiles, finish, nodes_phrase,
                     non_negative_int, planning_phrase, positive_int, render_first)


def add_parser(sub) -> None:
    p = sub.add_parser(
        "tile", help=SUMMARIES["tile"],
        description="Find, count or enumerate the tilings of a polyomino/polycube puzzle given "
                    "as a polycube definition file (docs/formats.md).  Solutions are printed "
                    "as letter grids, z-layers side by side, top row first.",
        formatter_class=HelpFormatter)
    p.add_argument("puzzle", metavar="PUZZLE", help="polycube definition file")
    add_engine_arguments(p, "tiling", first=("dlx", "fila", "hybrid", "cpsat", "auto"),
                         placed=(FILTERS_AND_TRIGGERS,))
    p.add_argument("--unique", default="rotation", choices=UNIQUE_MODES,
                   help="what counts as distinct: raw (every symmetric copy), rotation (up to "
                        "the region's rotations, flips of a flat puzzle included), mirror (also "
                        "up to reflections, when the piece set allows them)")
    p.add_argument("-r", "--redundancy", default="auto", metavar="PIECE",
                   help="rotational-redundancy filter: 'auto' picks the piece to constrain, a "
                        "piece name forces it, 'none' constrains nothing (every raw solution is "
                        "found and checked); counts are exact either way")
    filters = p.add_argument_group(
        FILTERS_AND_TRIGGERS,
        "Image filters drop images that cannot be in a solution; triggers backtrack during the "
        "search.  N means 'while at least N pieces remain'.  Counts never depend on them.")
    filters.add_argument("--volume-filter", type=positive_int, metavar="N", default=None,
                         help="re-apply the volume filter after each placement while N pieces "
                              "remain (DLX; default: once, before the search)")
    filters.add_argument("--no-volume-filter", action="store_true",
                         help="switch the volume filter off")
    filters.add_argument("--parity-filter", type=positive_int, metavar="N", default=None,
                         help="re-apply the parity filter after each placement while N pieces "
                              "remain (DLX; default: once, before the search)")
    filters.add_argument("--no-parity-filter", action="store_true",
                         help="switch the parity filter off")
    filters.add_argument("--fit-filter", action="store_true",
                         help="before the search, drop images after which a hole or a piece "
                              "has no fit, repeated until nothing changes")
    add_engine_group(p, filters)        # --volume-trigger, --parity-trigger (DLX's options)
    p.add_argument("--mirror", action="store_true",
                   help="pieces may also be turned into their mirror images (3D reflections)")
    p.add_argument("--puzzle-index", type=positive_int, metavar="K",
                   help="solve only the K-th puzzle of a file holding several")
    p.add_argument("--show", type=non_negative_int, metavar="N", default=None,
                   help="print at most N solutions (default: all, or none with --count-only)")
    p.add_argument("--stats", action="store_true",
                   help="print attempts, fits and no-fits per number of pieces remaining, and "
                        "per target (as the FILA paper's Tables 2-5)")
    p.add_argument("--render", metavar="FILE",
                   help="draw the first solution to FILE (.png or .svg; see 'cpkit render')")
    add_run_options(p)
    long_runs.add_options(p)
    p.set_defaults(run=run)


def run(args) -> int:
    from ..models.tiling import Puzzle

    from ..errors import InputError

    puzzles = list(enumerate(read_polycube(args.puzzle)))
    if args.puzzle_index is not None:
        if args.puzzle_index > len(puzzles):
            raise InputError(f"the file holds {len(puzzles)} puzzle(s), not {args.puzzle_index}",
                             args.puzzle)
        puzzles = [puzzles[args.puzzle_index - 1]]
    if (args.checkpoint is not None or args.resume is not None) and len(puzzles) > 1:
        raise InputError("the file holds several puzzles; choose one with --puzzle-index for a "
                         "checkpointed run", args.puzzle)
    if args.stats and args.engine == "cpsat":
        raise InputError("--stats counts the fits of the dlx, fila and hybrid engines; cpsat "
                         "makes none")
    if args.render is not None:
        from ..render import check_output

        check_output(args.render)
    if args.mirror and any(puzzle.one_sided for _, puzzle in puzzles):
        raise InputError("--mirror does not apply to a one-sided puzzle (oneSide in the file: "
                         "its pieces may not be turned over)", args.puzzle)
    announce_compiles()
    status = 0
    for index, puzzle in puzzles:
        if args.mirror:
            puzzle = Puzzle(puzzle.pieces, box=puzzle.box, mirror=True,
                            one_sided=puzzle.one_sided, name=puzzle.name)
        show = 0 if args.count_only else args.show
        shown = [0]
        first = []

        def on_solution(tiling, puzzle=puzzle, shown=shown, show=show, first=first):
            if not first:
                first.append(tiling)
            if show is not None and shown[0] >= show:
                return
            shown[0] += 1
            print(f"solution {shown[0]}:\n{format_tiling(puzzle, tiling)}\n", flush=True)

        options = dict(engine=args.engine, unique=args.unique, limit=args.limit,
                       time_limit=args.time_limit, count_only=args.count_only or show == 0,
                       redundancy=None if args.redundancy == "none" else args.redundancy,
                       volume_filter=False if args.no_volume_filter else
                       (args.volume_filter or True),
                       parity_filter=False if args.no_parity_filter else
                       (args.parity_filter or True),
                       fit_filter=args.fit_filter)
        options.update(engine_options(args))
        if not options["count_only"]:
            options["on_solution"] = on_solution
        if args.monte_carlo:
            status = max(status, long_runs.monte_carlo(puzzle, args, options, puzzle.n_pieces))
            if status == 130:
                break
            continue
        result = long_runs.solve(puzzle, args, options, args.puzzle, index,
                                 {"mirror": bool(args.mirror)})
        if args.render is not None:
            from ..render import render_tiling

            render_first(puzzle, result, first, options, args.render, render_tiling)
        if args.stats and result.stats.fits_by_remaining:
            print(format_stats_table(result.stats.fits_by_remaining,
                                     result.stats.attempts_by_remaining))
            detail = configuration_line(result)
            if detail:
                print(detail)
            for note in result.stats.extra.get("notes", ()):
                print(f"note: {note}")
        state = "complete" if result.complete else f"stopped early ({result.stop_reason})"
        note = result.stats.extra.get("proof")
        proof = f" (proved by {note}, no search needed)" if note else ""
        text = (f"{puzzle.name}: {count_phrase(result.count)} ({result.unique}){proof}, {state}; "
                f"engine {result.engine}, {search_effort(result)}, "
                f"search {result.seconds:.3f} s{planning_phrase(result)}{choice_phrase(result)}, "
                f"jit {result.jit_seconds:.2f} s")
        status = max(status, finish(result, args.json, text))
    return status


def choice_phrase(result) -> str:
    """The automatic configuration's choice in the summary line (``, choosing 0.04 s``): the
    filters of the orientations it compared and its estimates, which the search seconds leave
    out."""
    seconds = result.stats.extra.get("choice_seconds")
    return "" if seconds is None else f", choosing {seconds:.2f} s"


def search_effort(result) -> str:
    """Fits and no-fits for the compiled engines; CP-SAT places no pieces one by one, so its
    effort is its branch count (the JSON's ``nodes``)."""
    if result.engine == "cpsat":
        return nodes_phrase(result)
    return f"{result.stats.fits:,} fits, {result.stats.no_fits:,} no-fits"


def configuration_line(result) -> str:
    """What the hybrid / automatic configuration did, for --stats."""
    options, extra = result.options, result.stats.extra
    if "fila_at" not in options:
        return ""
    parts = [f"heuristic {options['heuristic']}", f"FILA when {options['fila_at']} pieces "
             f"remain", f"NOF {'on' if options.get('nof') else 'off'}"]
    if "orientation" in extra:
        parts.insert(0, f"puzzle {extra['orientation']}")
    if "max_subproblem_cells" in extra:
        parts.append(f"{extra['fila_subproblems']:,} FILA subproblem(s) of at most "
                     f"{extra['max_subproblem_cells']} cells")
    elif "fila_subproblems" in extra:
        parts.append(f"{extra['fila_subproblems']:,} FILA subproblem(s) compiled")
    if extra.get("heuristic_checks"):
        parts.append(f"{extra['heuristic_checks']:,} fit checks by the E/S heuristics")
    return "configuration: " + "; ".join(parts)
