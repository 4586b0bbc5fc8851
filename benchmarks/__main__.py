"""``python -m benchmarks SUITE``: run a named benchmark suite, print it, record it.

Run from a cpkit checkout (``make bench SUITE=...`` does): the suites are not part of the
installed package.  Bad input (an unknown suite, a results file that cannot be written, a
mistyped environment variable) ends with one line and exit status 2, before the suite runs.
"""

from __future__ import annotations

import argparse
import sys
import textwrap
from pathlib import Path

from cpkit.cli.common import HelpFormatter
from cpkit.errors import CpkitError, InputError
from cpkit.io.text import check_writable

from . import ROOT, SUITES, run_suite

#: Where a suite writes, relative to the repository (``ROOT``) unless given.
RESULTS = Path("benchmarks") / "results"
TABLES = Path("docs") / "benchmarks.md"

ENVIRONMENT = (
    "environment:\n"
    "  CPKIT_EM_BENCHMARKS      folder of the paper's instances (Benoist & Bourreau's 48 boards;\n"
    "                           default ../shared/em-benchmarks/benoist beside the checkout)\n"
    "  CPKIT_ETERNITY2          folder of the Eternity II files (pieces, clue puzzles, variants;\n"
    "                           default ../shared/em-benchmarks/eternity2 beside the checkout)\n"
    "  CPKIT_POLYCUBE_SOURCES   sources of polycube 1.2.1, built by tiling-vs-polycube (default\n"
    "                           ../shared/reference/polycube-1.2.1 beside the checkout)\n"
    "  CPKIT_BENCH_EM_SECONDS   each search's time limit in em, em-alldiff, em-paper,\n"
    "                           em-generated, em-speed (default 60 s), em-rate (20 s) and\n"
    "                           em-auto (20 s, half for a first solution); less with --quick\n"
    "  CPKIT_BENCH_JOBS         boards measured at once by em-auto (default 1)\n"
    "  CPKIT_BENCH_TILING_SEED  the seed of tiling-vs-polycube's boxes cut at random (default 1)\n"
    "  CPKIT_BENCH_E2_SECONDS   e2: the one-core runs (default 60 s)\n"
    "  CPKIT_BENCH_E2_ABLATION  e2: the ablation's runs (default the same)\n"
    "  CPKIT_BENCH_E2_LONG      e2: the runs on all cores (default 600 s)\n"
    "  CPKIT_BENCH_E2_CLOCK=cpu e2: count the one-core runs' seconds as CPU time\n"
    "A suite whose outside data is missing says so in its table and measures the rest.")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks",
        description=textwrap.fill(
            "Run one of cpkit's benchmark suites from a checkout: print its tables, write the "
            "figures as JSON and replace the suite's section of docs/benchmarks.md.  Ctrl-C or "
            "SIGTERM ends the whole suite and writes nothing.", 78) + "\n\nsuites:\n"
            + textwrap.fill(", ".join(sorted(SUITES)), 78, initial_indent="  ",
                            subsequent_indent="  "),
        epilog=ENVIRONMENT,
        formatter_class=type("Formatter", (HelpFormatter, argparse.RawDescriptionHelpFormatter),
                             {}))
    parser.add_argument("suite", choices=sorted(SUITES), metavar="SUITE",
                        help="suite to run (one of those listed above)")
    parser.add_argument("--json", metavar="FILE", default=None,
                        help=f"where to write the figures (default: {RESULTS}/SUITE.json)")
    parser.add_argument("--markdown", metavar="FILE", default=None,
                        help=f"markdown file whose section for this suite is replaced "
                             f"(default: {TABLES})")
    parser.add_argument("--no-write", action="store_true", help="only print the tables")
    parser.add_argument("--quick", action="store_true",
                        help="smaller instances, for checking that the suite runs")
    return parser


def run(args: argparse.Namespace) -> int:
    json_path = markdown = None
    if not args.no_write:
        json_path = args.json or str(ROOT / RESULTS / f"{args.suite}.json")
        markdown = args.markdown or str(ROOT / TABLES)
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


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return run(args)
    except CpkitError as exc:
        print(f"benchmarks: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("benchmarks: interrupted: nothing written", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
