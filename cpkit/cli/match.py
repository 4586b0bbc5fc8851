"""``cpkit match FILE``: find, count or enumerate the solutions of an edge-matching puzzle."""

from __future__ import annotations

import sys

from ..io.boards import format_board
from ..io.edge_matching import FORMATS, read_edge_matching
from ..io.viewer_link import check_linkable, format_link
from ..models.edge_matching import UNIQUE_MODES
from ..result import count_phrase
from . import long_runs
from . import SUMMARIES
from ..engines.options import engines_phrase
from ..engines.registry import family_records
from .engine_flags import add_engine_arguments, engine_options, given_flags
from .common import (HelpFormatter, add_run_options, announce_compiles, finish, node_units,
                     nodes_phrase, non_negative_int, planning_phrase, render_first)


def add_parser(sub) -> None:
    p = sub.add_parser(
        "match", help=SUMMARIES["match"],
        description="Find, count or enumerate the solutions of an edge-matching puzzle "
                    "(docs/formats.md: the native format of Benoist's benchmarks, Heule's "
                    "layout (hint count, hints, tiles), Gallicchio's .puz ('W H', tiles) and "
                    "headerless tile lists such as Brendan Owen's sets; detected).  Solutions "
                    "are printed as a board, top row first, each cell as tile/rotation (tiles "
                    "numbered from 1 as in the file; rotation r puts the tile's side r north): "
                    "a board file, which 'cpkit score' reads.  A run of cp, backtrack or edges "
                    "that ends without a solution prints the deepest partial board it reached "
                    "instead ('.' on empty cells).",
        formatter_class=HelpFormatter)
    p.add_argument("puzzle", metavar="FILE", help="edge-matching puzzle file")
    add_engine_arguments(p, "edge_matching",
                         first=("auto", "cp", "backtrack", "cpsat", "alldiff", "edges"))
    p.add_argument("--first", action="store_true", help="stop at the first solution")
    p.add_argument("--unique", default="rotation", choices=UNIQUE_MODES,
                   help="rotation: each solution once up to the board's rotations (one corner "
                        "tile is fixed); raw: every rotated copy.  With hints in the file, the "
                        "hints fix the board and both count the solutions respecting them")
    p.add_argument("--ignore-hints", action="store_true",
                   help="drop the hints given in the file")
    p.add_argument("--format", default="auto", choices=("auto",) + FORMATS,
                   help="file layout (auto: detected from the numbers on the first lines)")
    p.add_argument("--link", action="store_true",
                   help="after every board printed, the link that shows it in the "
                        "community's board viewer (e2.bucas.name; 'cpkit score' reads it back)")
    p.add_argument("--show", type=non_negative_int, metavar="N", default=None,
                   help="print at most N solutions (default: all, or none with --count-only)")
    p.add_argument("--colours", action="store_true",
                   help="print each cell's four colours (north.east.south.west) instead of "
                        "tile/rotation")
    p.add_argument("--render", metavar="FILE",
                   help="draw the first solution to FILE (.png or .svg; see 'cpkit render'), "
                        "or, if none was found, the deepest partial board")
    best = p.add_argument_group(
        "the best board (an anytime optimiser, for boards without a solution in reach)")
    best.add_argument("--maximize", choices=("edges", "tiles"), default=None,
                      help="instead of solutions, look for the best board until --time-limit "
                           "or Ctrl-C: the most matched edges on a full board (edges), or the "
                           "most tiles placed with no mismatch (tiles); prints the best board, "
                           "its score and, with --render, a picture with mismatched edges "
                           "marked.  Uses --workers (default all cores), --scheduler, "
                           "--checkpoint, --resume, --progress")
    best.add_argument("--seed", type=non_negative_int, metavar="S", default=None,
                      help="with --maximize: random seed of the first worker (the others "
                           "take S+1, S+2, ...; default 0)")
    add_run_options(p)
    long_runs.add_options(p, edge_matching=True)
    p.set_defaults(run=run)


def run(args) -> int:
    from ..errors import InputError
    from ..engines.dispatch import solve

    puzzle = read_edge_matching(args.puzzle, format=args.format, ignore_hints=args.ignore_hints)
    if args.maximize:
        return _maximize(args, puzzle)
    if args.seed is not None:
        raise InputError("--seed goes with --maximize")
    if args.resume:
        from ..optimise.checkpoint import is_maximize_checkpoint

        if is_maximize_checkpoint(args.resume):
            raise InputError("the checkpoint comes from a run of --maximize: resume it with "
                             "the same --maximize", args.resume)
    engine_options_given = engine_options(args)
    if args.first and args.limit is not None:
        raise InputError(f"--first and --limit {args.limit} both say when to stop: give one")
    if args.render is not None:
        from ..render import check_output

        check_output(args.render)
    if args.link:
        check_linkable(puzzle)
    announce_compiles()
    show = 0 if args.count_only else args.show
    shown = [0]
    first: list = []

    def printed(board) -> str:
        """A board as printed: its grid, then its viewer link with ``--link``."""
        text = format_board(board, puzzle, args.colours)
        return f"{text}\n{format_link(puzzle, board)}" if args.link else text

    def on_solution(solution) -> None:
        if not first:
            first.append(solution)
        if show is not None and shown[0] >= show:
            return
        shown[0] += 1
        print(f"solution {shown[0]}:\n{printed(solution)}\n", flush=True)

    options = dict(engine=args.engine, unique=args.unique, limit=args.limit, first=args.first,
                   time_limit=args.time_limit, count_only=args.count_only or show == 0)
    if not options["count_only"]:
        options["on_solution"] = on_solution
    options.update(engine_options_given)
    splittable = [r.name for r in family_records("edge_matching") if r.split is not None]
    single = args.engine not in splittable and args.engine != "auto"
    if single and (args.monte_carlo or args.workers not in (None, 1)):
        raise InputError(f"the {args.engine} engine runs in one process; --workers, "
                         f"--monte-carlo, --checkpoint and --scheduler apply to "
                         f"{engines_phrase(splittable)}")
    if args.engine == "alldiff" and args.progress is not None:
        raise InputError("the alldiff engine reports no progress while it searches; --progress "
                         "applies to the other engines")
    if args.monte_carlo:
        return long_runs.monte_carlo(puzzle, args, options, None)
    if args.engine == "alldiff" and all(given is None for given in (
            args.scheduler, args.checkpoint, args.resume)):
        result = solve(puzzle, **options)
    else:
        result = long_runs.solve(puzzle, args, options, args.puzzle, 0,
                                 {"format": args.format, "ignore_hints": args.ignore_hints})
    # A run without a solution shows the deepest partial board instead (compiled engines).
    partial = result.partial if result.count == 0 else None
    reached = "" if partial is None else f"{partial.filled} of {puzzle.n_cells} cells"
    if args.render is not None:
        from ..render import render_edge_matching

        if partial is not None:
            render_edge_matching(puzzle, partial, args.render,
                                 title=f"{puzzle.name}: deepest partial board ({reached})")
            print(f"cpkit: {puzzle.name}: no solution; drew the deepest partial board to "
                  f"{args.render}", file=sys.stderr)
        else:
            render_first(puzzle, result, first, options, args.render, render_edge_matching)
    state = "complete" if result.complete else f"stopped early ({result.stop_reason})"
    extra = result.stats.extra
    propagated = f", {extra['propagated']:,} propagated" if "propagated" in extra else ""
    if partial is not None and show != 0:
        print(f"deepest partial board ({reached}):\n{printed(partial)}\n", flush=True)
    deepest = "" if partial is None else f", deepest {reached}"
    rate = f"{extra.get('nodes_per_s', 0):,} {node_units(result)[1]}"
    # Why auto chose the engine goes above the summary, which stays the last line.
    why = f"engine {result.engine} chosen by auto: {extra['engine_reason']}\n" \
        if "engine_reason" in extra else ""
    text = (f"{why}{puzzle.name}: {count_phrase(result.count)} ({result.unique}), {state}"
            f"{deepest}; engine {result.engine}, {nodes_phrase(result)}{propagated}, search "
            f"{result.seconds:.3f} s ({rate}){planning_phrase(result)}, "
            f"jit {result.jit_seconds:.2f} s")
    return finish(result, args.json, text)


def _maximize(args, puzzle) -> int:
    """``--maximize``: the anytime optimiser (``cpkit.optimise``), its best board printed."""
    import json

    from ..errors import InputError
    from ..optimise import maximize
    from ..parallel.checkpoint import model_identity
    from ..result import INTERRUPTED

    searching = {"--first": args.first, "--limit": args.limit is not None,
                 "--count-only": args.count_only, "--show": args.show is not None,
                 "--engine": args.engine != "auto", "--monte-carlo": args.monte_carlo,
                 "--subproblems": args.subproblems is not None,
                 "--unique": args.unique != "rotation",
                 **{flag.flag: True for flag in given_flags(args)}}
    used = [flag for flag, given in searching.items() if given]
    if used:
        raise InputError(f"{', '.join(used)} appl{'ies' if len(used) == 1 else 'y'} to the "
                         f"search for solutions, not to --maximize")
    if args.render:
        from ..render import check_output

        check_output(args.render)
    if args.link:
        check_linkable(puzzle)
    announce_compiles()
    source = None
    if args.checkpoint or args.resume:
        source = model_identity(args.puzzle)
        source.update(format=args.format, ignore_hints=args.ignore_hints)
    result = maximize(puzzle, args.maximize, time_limit=args.time_limit,
                      seed=args.seed or 0, workers=args.workers, scheduler=args.scheduler,
                      checkpoint=args.checkpoint, resume=args.resume,
                      checkpoint_every=args.checkpoint_every,
                      progress=long_runs.progress_mode(args), source=source)
    unit = "tiles placed" if args.maximize == "tiles" else "edges matched"
    if result.board is not None:
        text = format_board(result.board, puzzle, args.colours)
        link = format_link(puzzle, result.board) if args.link else None
        print(f"best board ({result.score} of {result.max_score} {unit}):\n{text}"
              + (f"\n{link}" if link else "") + "\n", flush=True)
        if args.render:
            from ..render import render_edge_matching

            render_edge_matching(puzzle, result.board, args.render, mark_mismatches=True,
                                 title=f"{puzzle.name}: {result.score} of {result.max_score} "
                                       f"{unit}")
            print(f"cpkit: drew the best board to {args.render}", file=sys.stderr)
    state = "a perfect board" if result.complete else f"stopped ({result.stop_reason})"
    other = (f"{result.matched_edges} of {result.inner_edges} edges matched"
             if args.maximize == "tiles" else
             f"{result.tiles_placed} of {result.cells} tiles placed")
    best = ("no board found" if result.board is None else
            f"best {result.score} of {result.max_score} {unit} ({other}), found after "
            f"{result.seconds_to_best:.1f} s")
    if args.json:
        summary = result.summary()
        if result.board is not None and args.link:
            summary["link"] = format_link(puzzle, result.board)
        print(json.dumps(summary))
    else:
        print(f"{puzzle.name}: {best}; {state}; {result.workers} worker"
              f"{'s' if result.workers > 1 else ''}, {result.nodes:,} nodes, "
              f"{result.moves:,} moves, search {result.seconds:.1f} s (CPU "
              f"{result.cpu_seconds:.1f} s), jit {result.jit_seconds:.2f} s")
    sys.stdout.flush()
    if result.stop_reason == INTERRUPTED:
        return 130
    if result.checkpoint_error:
        from . import CHECKPOINT_NOT_SAVED

        print(f"cpkit: warning: {result.checkpoint_error}; the best board above is not in the "
              f"checkpoint (the file holds the one written before)", file=sys.stderr)
        return CHECKPOINT_NOT_SAVED
    return 0
