"""``cpkit render PUZZLE -o FILE``: draw a solution of a tiling or edge-matching puzzle (PNG or
SVG).  Either kind is solved first, up to the requested solution, and that solution drawn; the
kind is told from the file's content as ``cpkit.load`` does."""

from __future__ import annotations

import sys

from ..io.edge_matching import looks_like_edge_matching
from ..io.polycube import read_polycube
from ..io.text import read_text
from ..engines.tiling.tiling_front import UNIQUE_MODES
from . import SUMMARIES
from .common import HelpFormatter, announce_compiles, positive_float, positive_int


def add_parser(sub) -> None:
    p = sub.add_parser(
        "render", help=SUMMARIES["render"],
        description="Solve a tiling puzzle (polycube definition file) or an edge-matching "
                    "puzzle (any layout 'cpkit match' reads) up to its K-th solution and draw "
                    "that solution: a flat puzzle as a grid of lettered, coloured cells; a 3D "
                    "puzzle as its z-layers side by side and an isometric view; an "
                    "edge-matching board as tiles of four coloured triangles labelled with "
                    "their numbers in the file (found by the cp engine).  "
                    "The format follows the output file's extension (.png or .svg).  Needs "
                    "matplotlib (pip install 'cpkit[render]').",
        formatter_class=HelpFormatter)
    p.add_argument("puzzle", metavar="PUZZLE",
                   help="polycube definition file or edge-matching puzzle file")
    p.add_argument("-o", "--output", metavar="FILE", required=True,
                   help="picture to write (.png or .svg)")
    p.add_argument("--solution", type=positive_int, metavar="K", default=1,
                   help="draw the K-th solution found")
    p.add_argument("--unique", default="rotation", choices=UNIQUE_MODES,
                   help="counting mode the solutions are enumerated in (see 'cpkit tile')")
    p.add_argument("--view", default="auto", choices=["auto", "layers", "iso", "both"],
                   help="3D puzzles: z-layers, isometric view, or both (auto: both for 3D)")
    p.add_argument("--no-letters", action="store_true",
                   help="do not print piece names (edge matching: tile numbers)")
    p.add_argument("--puzzle-index", type=positive_int, metavar="K",
                   help="draw the K-th puzzle of a file holding several")
    p.add_argument("--time-limit", type=positive_float, metavar="S",
                   help="give up after S seconds of search if solution K is not found by then")
    p.set_defaults(run=run)


def run(args) -> int:
    from ..errors import InputError
    from ..render import check_output, check_view, render_tiling
    from ..engines.dispatch import solve

    check_output(args.output)
    text = read_text(args.puzzle)
    if not text.strip():
        raise InputError("the file is empty (expected a polycube definition or an "
                         "edge-matching puzzle)", args.puzzle)
    if looks_like_edge_matching(text):
        return _render_edge_matching(args)
    puzzles = read_polycube(args.puzzle)
    k = (args.puzzle_index or 1) - 1
    if k >= len(puzzles):
        raise InputError(f"the file holds {len(puzzles)} puzzle(s), not {k + 1}", args.puzzle)
    puzzle = puzzles[k]
    check_view(args.view, puzzle.box[2])
    announce_compiles()
    result = solve(puzzle, unique=args.unique, limit=args.solution, time_limit=args.time_limit)
    if not _found(result, args, puzzle.name, args.unique):
        return 1
    render_tiling(puzzle, result.solutions[args.solution - 1], args.output, view=args.view,
                  letters=not args.no_letters,
                  title=f"{puzzle.name}, solution {args.solution}")
    print(f"wrote {args.output}")
    return 0


def _render_edge_matching(args) -> int:
    from ..errors import InputError
    from ..io.edge_matching import read_edge_matching
    from ..render import render_edge_matching
    from ..engines.dispatch import solve

    if args.puzzle_index is not None:
        raise InputError("--puzzle-index applies to tiling files (an edge-matching file holds "
                         "one puzzle)")
    if args.unique == "mirror":
        raise InputError("edge-matching boards count up to rotation or raw, not mirror")
    if args.view != "auto":
        raise InputError("--view applies to 3D tiling puzzles, not to edge-matching boards")
    puzzle = read_edge_matching(args.puzzle)
    announce_compiles()
    result = solve(puzzle, engine="cp", unique=args.unique, limit=args.solution,
                   time_limit=args.time_limit)
    if not _found(result, args, puzzle.name, result.unique):
        return 1
    render_edge_matching(puzzle, result.solutions[args.solution - 1], args.output,
                         numbers=not args.no_letters,
                         title=f"{puzzle.name}, solution {args.solution}")
    print(f"wrote {args.output}")
    return 0


def _found(result, args, name: str, unique: str) -> bool:
    """Whether the search reached solution K; if not, why: a Ctrl-C is an interruption (exit
    130), the time limit a failure to draw (False: exit 1), a finished search with fewer
    solutions a wrong K (exit 2)."""
    from ..errors import InputError
    from ..result import INTERRUPTED

    if len(result.solutions) >= args.solution:
        return True
    if result.stop_reason == INTERRUPTED:
        raise KeyboardInterrupt
    if not result.complete:
        print(f"cpkit: {name}: {len(result.solutions)} solution(s) found in "
              f"{result.seconds:.1f} s, not {args.solution}; nothing drawn", file=sys.stderr)
        return False
    raise InputError(f"{name} has {result.count} solution(s) ({unique}); there is no solution "
                     f"{args.solution}", args.puzzle)
