"""``cpkit tile PUZZLE``: find, count or enumerate the tilings of a polycube definition file."""

from __future__ import annotations

import argparse

from ..io.polycube import read_polycube
from ..io.solutions import format_stats_table, format_tiling
from ..search import supported
from ..search.tiling import UNIQUE_MODES
from .common import add_run_options, announce_compiles, finish, positive_int


def add_parser(sub) -> None:
    p = sub.add_parser(
        "tile", help="solve a tiling puzzle (polycube definition file)",
        description="Find, count or enumerate the tilings of a polyomino/polycube puzzle given "
                    "as a polycube definition file (docs/formats.md).  Solutions are printed "
                    "as letter grids, z-layers side by side, top row first.",
        formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    p.add_argument("puzzle", metavar="PUZZLE", help="polycube definition file")
    p.add_argument("--engine", default="auto", choices=["auto"] + supported("tiling"),
                   help="search engine (auto: the fastest that applies)")
    p.add_argument("--unique", default="raw", choices=UNIQUE_MODES,
                   help="what counts as distinct: raw (every symmetric copy), rotation, mirror")
    p.add_argument("--heuristic", default="s", metavar="SPEC",
                   help="DLX ordering heuristic or schedule: s (min-fit), f (first hole), x, y, "
                        "z, r (radial), a[@DEG] (angular); e.g. 'x:s=20' switches to s when "
                        "20 pieces remain")
    p.add_argument("--mirror", action="store_true",
                   help="pieces may also be turned into their mirror images (3D reflections)")
    p.add_argument("--puzzle-index", type=positive_int, metavar="K",
                   help="solve only the K-th puzzle of a file holding several")
    p.add_argument("--show", type=int, metavar="N", default=None,
                   help="print at most N solutions (default: all, or none with --count-only)")
    p.add_argument("--stats", action="store_true",
                   help="print placements per number of pieces remaining (as polycube does)")
    add_run_options(p)
    p.set_defaults(run=run)


def run(args) -> int:
    from ..models.tiling import Puzzle
    from ..search import solve

    puzzles = read_polycube(args.puzzle)
    if args.puzzle_index is not None:
        if args.puzzle_index > len(puzzles):
            from ..errors import InputError
            raise InputError(f"the file holds {len(puzzles)} puzzle(s), not {args.puzzle_index}",
                             args.puzzle)
        puzzles = [puzzles[args.puzzle_index - 1]]
    announce_compiles()
    status = 0
    for puzzle in puzzles:
        if args.mirror:
            puzzle = Puzzle(puzzle.pieces, box=puzzle.box, mirror=True, name=puzzle.name)
        show = 0 if args.count_only else args.show
        shown = [0]

        def on_solution(tiling, puzzle=puzzle, shown=shown, show=show):
            if show is not None and shown[0] >= show:
                return
            shown[0] += 1
            print(f"solution {shown[0]}:\n{format_tiling(puzzle, tiling)}\n", flush=True)

        options = dict(engine=args.engine, unique=args.unique, limit=args.limit,
                       time_limit=args.time_limit, count_only=args.count_only or show == 0)
        if args.engine in ("auto", "dlx"):
            options["heuristic"] = args.heuristic
        if not options["count_only"]:
            options["on_solution"] = on_solution
        result = solve(puzzle, **options)
        if args.stats and result.stats.fits_by_remaining:
            print(format_stats_table(result.stats.fits_by_remaining,
                                     result.stats.attempts_by_remaining))
        state = "complete" if result.complete else f"stopped early ({result.stop_reason})"
        text = (f"{puzzle.name}: {result.count:,} solutions ({result.unique}), {state}; "
                f"engine {result.engine}, {result.stats.fits:,} fits, "
                f"search {result.seconds:.3f} s, jit {result.jit_seconds:.2f} s")
        status = max(status, finish(result, args.json, text))
    return status
