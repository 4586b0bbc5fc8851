"""``cpkit tile PUZZLE``: find, count or enumerate the tilings of a polycube definition file."""

from __future__ import annotations

import argparse
import sys

from ..io.polycube import read_polycube
from ..io.solutions import format_stats_table, format_tiling
from ..search import supported
from ..search.tiling import UNIQUE_MODES
from . import long_runs
from .common import HelpFormatter, add_run_options, announce_compiles, finish, positive_int


def add_parser(sub) -> None:
    p = sub.add_parser(
        "tile", help="solve a tiling puzzle (polycube definition file)",
        description="Find, count or enumerate the tilings of a polyomino/polycube puzzle given "
                    "as a polycube definition file (docs/formats.md).  Solutions are printed "
                    "as letter grids, z-layers side by side, top row first.",
        formatter_class=HelpFormatter)
    p.add_argument("puzzle", metavar="PUZZLE", help="polycube definition file")
    p.add_argument("--engine", default="auto", choices=["auto"] + supported("tiling"),
                   help="search engine (auto: the fastest that applies)")
    p.add_argument("--unique", default="rotation", choices=UNIQUE_MODES,
                   help="what counts as distinct: raw (every symmetric copy), rotation (up to "
                        "the region's rotations, flips of a flat puzzle included), mirror (also "
                        "up to reflections, when the piece set allows them)")
    p.add_argument("-r", "--redundancy", default="auto", metavar="PIECE",
                   help="rotational-redundancy filter: 'auto' picks the piece to constrain, a "
                        "piece name forces it, 'none' constrains nothing (every raw solution is "
                        "found and checked); counts are exact either way")
    p.add_argument("--heuristic", default="s", metavar="SPEC",
                   help="DLX ordering heuristic or schedule: s (min-fit), f (first hole), x, y, "
                        "z, r (radial), a[@DEG] (angular); e.g. 'x:s=20' switches to s when "
                        "20 pieces remain")
    filters = p.add_argument_group(
        "filters and triggers",
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
    filters.add_argument("--volume-trigger", type=positive_int, metavar="N",
                         help="DLX: backtrack when an open region's volume cannot be filled")
    filters.add_argument("--parity-trigger", type=positive_int, metavar="N",
                         help="DLX: backtrack when the open cells' parity cannot be reached")
    p.add_argument("--mirror", action="store_true",
                   help="pieces may also be turned into their mirror images (3D reflections)")
    p.add_argument("--puzzle-index", type=positive_int, metavar="K",
                   help="solve only the K-th puzzle of a file holding several")
    p.add_argument("--show", type=int, metavar="N", default=None,
                   help="print at most N solutions (default: all, or none with --count-only)")
    p.add_argument("--stats", action="store_true",
                   help="print placements per number of pieces remaining (as polycube does)")
    p.add_argument("--render", metavar="FILE",
                   help="draw the first solution to FILE (.png or .svg; see 'cpkit render')")
    add_run_options(p)
    long_runs.add_options(p)
    p.set_defaults(run=run)


def _render_first(puzzle, first: list, options: dict, out: str) -> None:
    """Draw the first solution (searched for separately if the run only counted)."""
    from ..render import render_tiling
    from ..search import solve

    if not first:
        quick = {k: v for k, v in options.items() if k not in ("on_solution", "time_limit")}
        quick.update(limit=1, count_only=False)
        first = solve(puzzle, **quick).solutions
    if first:
        render_tiling(puzzle, first[0], out)
    else:
        print(f"cpkit: {puzzle.name}: no solution to render", file=sys.stderr)


def run(args) -> int:
    from ..models.tiling import Puzzle

    from ..errors import InputError

    puzzles = list(enumerate(read_polycube(args.puzzle)))
    if args.puzzle_index is not None:
        if args.puzzle_index > len(puzzles):
            raise InputError(f"the file holds {len(puzzles)} puzzle(s), not {args.puzzle_index}",
                             args.puzzle)
        puzzles = [puzzles[args.puzzle_index - 1]]
    if (args.checkpoint or args.resume) and len(puzzles) > 1:
        raise InputError("the file holds several puzzles; choose one with --puzzle-index for a "
                         "checkpointed run", args.puzzle)
    if args.render:
        from ..render import check_output

        check_output(args.render)
    announce_compiles()
    status = 0
    for index, puzzle in puzzles:
        if args.mirror:
            puzzle = Puzzle(puzzle.pieces, box=puzzle.box, mirror=True, name=puzzle.name)
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

        if args.engine == "cpsat" and args.heuristic != "s":
            from ..errors import InputError
            raise InputError("--heuristic applies to the dlx engine, not cpsat")

        options = dict(engine=args.engine, unique=args.unique, limit=args.limit,
                       time_limit=args.time_limit, count_only=args.count_only or show == 0,
                       redundancy=None if args.redundancy == "none" else args.redundancy,
                       volume_filter=False if args.no_volume_filter else
                       (args.volume_filter or True),
                       parity_filter=False if args.no_parity_filter else
                       (args.parity_filter or True),
                       fit_filter=args.fit_filter)
        if args.engine in ("auto", "dlx"):
            options["heuristic"] = args.heuristic
        for name in ("volume_trigger", "parity_trigger"):
            if getattr(args, name) is not None:
                options[name] = getattr(args, name)
        if not options["count_only"]:
            options["on_solution"] = on_solution
        if args.monte_carlo:
            status = max(status, long_runs.monte_carlo(puzzle, args, options, puzzle.n_pieces))
            continue
        result = long_runs.solve(puzzle, args, options, args.puzzle, index,
                                 {"mirror": bool(args.mirror)})
        if args.render:
            _render_first(puzzle, first, options, args.render)
        if args.stats and result.stats.fits_by_remaining:
            print(format_stats_table(result.stats.fits_by_remaining,
                                     result.stats.attempts_by_remaining))
        state = "complete" if result.complete else f"stopped early ({result.stop_reason})"
        note = result.stats.extra.get("proof")
        proof = f" (proved by {note}, no search needed)" if note else ""
        text = (f"{puzzle.name}: {result.count:,} solutions ({result.unique}){proof}, {state}; "
                f"engine {result.engine}, {result.stats.fits:,} fits, "
                f"search {result.seconds:.3f} s, jit {result.jit_seconds:.2f} s")
        status = max(status, finish(result, args.json, text))
    return status
