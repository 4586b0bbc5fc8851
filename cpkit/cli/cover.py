"""``cpkit cover FILE``: exact covers of a problem in Knuth's dlx1 format."""

from __future__ import annotations

from ..io.dlx_format import read_dlx
from ..search import supported
from . import long_runs
from .common import HelpFormatter, add_run_options, announce_compiles, finish


def add_parser(sub) -> None:
    p = sub.add_parser(
        "cover", help="solve an exact cover problem in Knuth's dlx1 format",
        description="Count or list the exact covers of a dlx1 file: the item line (primary "
                    "items, then '|' and secondary items), then one option per line; '|' "
                    "starts a comment line.  Each solution is printed as its options, one per "
                    "line, followed by a blank line.",
        formatter_class=HelpFormatter)
    p.add_argument("file", metavar="FILE", help="dlx1 input file")
    p.add_argument("--engine", default="auto", choices=["auto"] + supported("exact_cover"),
                   help="search engine")
    p.add_argument("--heuristic", default="s", choices=["s", "f"],
                   help="s: item with fewest options (Knuth's MRV); f: first item in order")
    add_run_options(p)
    long_runs.add_options(p)
    p.set_defaults(run=run)


def run(args) -> int:
    cover = read_dlx(args.file)
    announce_compiles()
    options = dict(engine=args.engine, limit=args.limit, time_limit=args.time_limit,
                   count_only=args.count_only)
    if args.engine in ("auto", "dlx"):
        options["heuristic"] = args.heuristic
    if args.monte_carlo:
        return long_runs.monte_carlo(cover, args, options, None)
    result = long_runs.solve(cover, args, options, args.file)
    if not args.count_only:
        for k, rows in enumerate(result.solutions, start=1):
            body = "\n".join(cover.option_labels[r] for r in rows)
            print(f"solution {k}:\n{body}\n")
    state = "complete" if result.complete else f"stopped early ({result.stop_reason})"
    text = (f"{cover.name}: {result.count:,} exact covers, {state}; engine {result.engine}, "
            f"{result.stats.nodes:,} nodes, search {result.seconds:.3f} s")
    return finish(result, args.json, text)
