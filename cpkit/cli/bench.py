"""``cpkit bench SUITE``: run a named benchmark suite, print it, record it."""

from __future__ import annotations

from pathlib import Path

from ..bench import SUITES, run_suite
from ..errors import InputError
from ..io.text import check_writable
from . import SUMMARIES
from .common import HelpFormatter


def add_parser(sub) -> None:
    p = sub.add_parser(
        "bench", help=SUMMARIES["bench"],
        description="Run a benchmark suite, print its tables, write the figures as JSON and "
                    "update the suite's section of docs/benchmarks.md (when run from a cpkit "
                    "checkout).  Ctrl-C or SIGTERM ends the whole suite and writes nothing.",
        epilog="Environment: CPKIT_BENCH_EM_SECONDS sets each search's time limit in the "
               "suites em, em-alldiff, em-paper, em-generated, em-speed (default 60 s) and "
               "em-rate (20 s), less with --quick; CPKIT_EM_BENCHMARKS is the folder of the "
               "paper's instances (default ../shared/em-benchmarks/benoist beside the "
               "checkout).  Suite e2: CPKIT_BENCH_E2_SECONDS (one-core runs, 60 s), "
               "CPKIT_BENCH_E2_ABLATION (the ablation's runs, default the same), "
               "CPKIT_BENCH_E2_LONG (the runs on all cores, 600 s), CPKIT_BENCH_E2_CLOCK=cpu "
               "(count the one-core runs' seconds as CPU time).",
        formatter_class=HelpFormatter)
    p.add_argument("suite", choices=sorted(SUITES), help="suite to run")
    p.add_argument("--json", metavar="FILE", default=None,
                   help="where to write the figures (default: benchmarks/results/SUITE.json)")
    p.add_argument("--markdown", metavar="FILE", default="docs/benchmarks.md",
                   help="markdown file whose section for this suite is replaced")
    p.add_argument("--no-write", action="store_true", help="only print the tables")
    p.add_argument("--quick", action="store_true",
                   help="smaller instances, for checking that the suite runs")
    p.set_defaults(run=run)


def run(args) -> int:
    json_path = None if args.no_write else (args.json or f"benchmarks/results/{args.suite}.json")
    markdown = None
    if not args.no_write and Path(args.markdown).parent.is_dir():
        markdown = args.markdown
    # Before the suite, which can take an hour: its figures were lost to a path it could not
    # write, with a traceback.
    if json_path:
        try:
            Path(json_path).parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise InputError(f"cannot write the figures: {exc.strerror}", json_path) from None
        check_writable(json_path, "the figures")
    if markdown:
        check_writable(markdown, "the tables")
    run_suite(args.suite, json_path, markdown, quick=args.quick)
    return 0
