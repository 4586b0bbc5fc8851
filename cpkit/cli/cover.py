"""``cpkit cover FILE``: exact covers of a problem in Knuth's dlx1 format."""

from __future__ import annotations

from ..io.dlx_format import read_dlx
from ..engines.registry import AUTO
from .engine_flags import add_engine_arguments, engine_options
from . import long_runs
from . import SUMMARIES
from .common import (HelpFormatter, add_run_options, announce_compiles, finish,
                     nodes_phrase, planning_phrase)


def add_parser(sub) -> None:
    p = sub.add_parser(
        "cover", help=SUMMARIES["cover"],
        description="Count or list the exact covers of a dlx1 file: the item line (primary "
                    "items, then '|' and secondary items), then one option per line; '|' "
                    "starts a comment line.  Each solution is printed as its options, one per "
                    "line, followed by a blank line.",
        formatter_class=HelpFormatter)
    p.add_argument("file", metavar="FILE", help="dlx1 input file")
    add_engine_arguments(p, "exact_cover", first=("dlx",), extra=("auto",))
    add_run_options(p)
    long_runs.add_options(p)
    p.set_defaults(run=run)


def run(args) -> int:
    from ..errors import InputError

    engine = {"auto": AUTO["exact_cover"]}.get(args.engine, args.engine)
    given = engine_options(args, engine)
    cover = read_dlx(args.file)
    announce_compiles()
    shown = [0]

    def on_solution(rows) -> None:
        # Printed as found, as ``tile`` and ``match`` do: 15 queens has 2,279,184 covers,
        # and keeping them all to print at the end took 394 MB in ten seconds.
        shown[0] += 1
        body = "\n".join(cover.option_labels[r] for r in rows)
        print(f"solution {shown[0]}:\n{body}\n", flush=True)

    options = dict(engine=args.engine, limit=args.limit, time_limit=args.time_limit,
                   count_only=args.count_only)
    if not args.count_only:
        options["on_solution"] = on_solution
    options.update(given)
    if args.monte_carlo:
        return long_runs.monte_carlo(cover, args, options, None)
    result = long_runs.solve(cover, args, options, args.file)
    state = "complete" if result.complete else f"stopped early ({result.stop_reason})"
    covers = "exact cover" if result.count == 1 else "exact covers"
    text = (f"{cover.name}: {result.count:,} {covers}, {state}; engine {result.engine}, "
            f"{nodes_phrase(result)}, search {result.seconds:.3f} s{planning_phrase(result)}")
    return finish(result, args.json, text)
