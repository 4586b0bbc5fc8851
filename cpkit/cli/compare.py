"""``cpkit compare FILE... --engines A,B,...``: engines side by side on the user's own puzzles.

Each engine runs on each file in a process of its own (``python -m cpkit tile|match|cover FILE
--engine E --json``, one worker), so that one engine's memory, compiled kernels or crash never
weigh on another's figures, and every run is exactly the run a user would make by hand.  The
table gives, per run, the solutions, whether the search finished, the search seconds (compiling
apart), the whole process's seconds, the nodes and their rate.  The runs of a file that finished
must agree on the count: if they do not, the table says so and the exit status is 1 (a finding
worth a bug report, not a failure of the comparison).
"""

from __future__ import annotations

import json
import math
import shlex
import subprocess
import sys
import time
from dataclasses import asdict, dataclass, field
from typing import Any

from ..errors import InputError
from . import SUMMARIES
from .common import HelpFormatter, positive_float, positive_int

#: The subcommand that solves each family.
COMMANDS = {"tiling": "tile", "edge_matching": "match", "exact_cover": "cover"}
#: Exit status when the finished runs of a file disagree on its count.
DISAGREE = 1


def add_parser(sub) -> None:
    p = sub.add_parser(
        "compare", help=SUMMARIES["compare"],
        description="Run each named engine on each FILE, one process per run and one worker "
                    "each, and print one table: solutions, complete or why stopped, search "
                    "seconds, compile seconds, whole-process seconds, nodes and nodes per "
                    "second.  The family of each file (tiling, edge matching, exact cover) is "
                    "read from its content, as 'cpkit tile', 'match' and 'cover' read it.  An "
                    "engine given as NAME:ARGS passes ARGS (shell-quoted) to that run only, "
                    "e.g. --engines 'cp,cp:--heuristic scan,backtrack'.  Exit status 1 when "
                    "the runs of a file that finished disagree on its count.",
        formatter_class=HelpFormatter)
    p.add_argument("files", metavar="FILE", nargs="+", help="puzzle files")
    p.add_argument("--engines", metavar="LIST",
                   help="comma-separated engines, each NAME or NAME:ARGS (default: every "
                        "engine of the file's family)")
    p.add_argument("--time-limit", type=positive_float, metavar="S", default=60.0,
                   help="seconds each run may search")
    p.add_argument("--limit", type=positive_int, metavar="N",
                   help="stop each run after N solutions (default: count them all)")
    p.add_argument("--json", action="store_true",
                   help="print one JSON object (runs, agree) instead of the table")
    p.set_defaults(run=run)


@dataclass
class Run:
    """One engine on one file, as its process reported it."""

    file: str
    family: str
    engine: str
    args: list[str] = field(default_factory=list)
    solutions: int | None = None
    complete: bool = False
    stop_reason: str | None = None
    seconds: float | None = None
    jit_seconds: float | None = None
    wall_seconds: float | None = None
    nodes: int | None = None
    nodes_per_s: float | None = None
    exit_status: int | None = None
    error: str | None = None

    @property
    def label(self) -> str:
        return " ".join([self.engine, *self.args])


def parse_engines(text: str, families: dict[str, list[str]]) -> list[tuple[str, list[str]]]:
    """``[(engine, extra arguments)]`` from ``--engines``.  ``families`` maps each family of
    the files compared to its engines: a name must be an engine of at least one of them (each
    file then runs the names of its own family, so that ``--engines dlx,cp,cpsat`` compares a
    tiling and a board in one call)."""
    specs = []
    for item in text.split(","):
        name, _, extra = item.strip().partition(":")
        if not name:
            raise InputError(f"--engines: an empty engine name in {text!r}")
        if not any(name in engines for engines in families.values()):
            kinds = " or ".join(f.replace("_", " ") for f in families)
            known = sorted({e for engines in families.values() for e in engines})
            raise InputError(f"--engines: no engine {name!r} for {kinds} puzzles; "
                             f"available: {', '.join(known)}")
        try:
            specs.append((name, shlex.split(extra)))
        except ValueError as exc:
            raise InputError(f"--engines: cannot read the arguments of {item!r}: {exc}") \
                from None
    return specs


def family_of_file(path: str) -> str:
    """The family of the puzzle in ``path`` (a bad file raises its own ``file:line:`` error)."""
    from ..api import load
    from ..engines.dispatch import family_of

    return family_of(load(path))


def command_line(r: Run, args) -> list[str]:
    line = [sys.executable, "-m", "cpkit", COMMANDS[r.family], r.file, "--engine", r.engine,
            "--count-only", "--json", "--time-limit", repr(args.time_limit), "--workers", "1"]
    if args.limit:
        line += ["--limit", str(args.limit)]
    return line + r.args


def execute(r: Run, args) -> Run:
    """Run ``r`` in its own process and fill in what it reported.  A Ctrl-C (or SIGTERM, which
    ``cpkit.cli`` turns into one) stops the run as it would stop by hand, and is raised again
    once its summary is read."""
    began = time.perf_counter()
    proc = subprocess.Popen(command_line(r, args), stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    interrupted = False
    try:
        out, err = proc.communicate()
    except KeyboardInterrupt:
        interrupted = True
        proc.terminate()                    # the run's own handler prints its summary
        out, err = proc.communicate()
    r.wall_seconds = time.perf_counter() - began
    r.exit_status = proc.returncode
    summary = _last_json(out)
    if summary is None:
        messages = [line for line in err.splitlines() if not line.startswith("cpkit: compiling")]
        r.error = messages[-1] if messages else f"exit status {proc.returncode}, no summary"
    else:
        r.solutions = summary.get("solutions")
        r.complete = bool(summary.get("complete"))
        r.stop_reason = summary.get("stop_reason")
        r.seconds = summary.get("seconds")
        r.jit_seconds = summary.get("jit_seconds")
        r.nodes = summary.get("nodes")
        # Edge-matching summaries carry their rate; the others' is their nodes over seconds.
        r.nodes_per_s = summary.get("nodes_per_s")
        if r.nodes_per_s is None and r.nodes and r.seconds:
            r.nodes_per_s = r.nodes / r.seconds
    if interrupted:
        raise KeyboardInterrupt
    return r


def _last_json(out: str) -> dict[str, Any] | None:
    for line in reversed(out.splitlines()):
        if line.startswith("{"):
            try:
                return json.loads(line)
            except ValueError:
                return None
    return None


def disagreements(runs: list[Run]) -> list[str]:
    """The files whose finished runs counted different numbers of solutions.  Runs stopped by
    ``--limit`` are not counts and are left out."""
    counts: dict[str, set[int]] = {}
    for r in runs:
        if r.complete and r.stop_reason is None and r.solutions is not None:
            counts.setdefault(r.file, set()).add(r.solutions)
    return [f for f, c in counts.items() if len(c) > 1]


def table(runs: list[Run]) -> str:
    head = ("file", "engine", "solutions", "complete", "search s", "jit s", "process s",
            "nodes", "nodes/s")
    rows = [head]
    for r in runs:
        if r.error is not None:
            rows.append((r.file, r.label, "error", r.error, "", "", _seconds(r.wall_seconds),
                         "", ""))
            continue
        rows.append((r.file, r.label, f"{r.solutions:,}",
                     "yes" if r.complete else (r.stop_reason or "no"),
                     _seconds(r.seconds), _seconds(r.jit_seconds), _seconds(r.wall_seconds),
                     "" if r.nodes is None else f"{r.nodes:,}",
                     "" if not r.nodes_per_s else f"{r.nodes_per_s:,.0f}"))
    widths = [max(len(str(row[k])) for row in rows) for k in range(len(head))]
    right = {2, 4, 5, 6, 7, 8}
    lines = ["  ".join(str(cell).rjust(w) if k in right else str(cell).ljust(w)
                       for k, (cell, w) in enumerate(zip(row, widths))).rstrip()
             for row in rows]
    lines.insert(1, "  ".join("-" * w for w in widths))
    return "\n".join(lines)


def _progress(r: Run) -> str:
    if r.error is not None:
        return r.error
    state = "complete" if r.complete else f"stopped ({r.stop_reason})"
    return f"{r.solutions:,} solutions, {state}, {_seconds(r.wall_seconds)} s"


def _seconds(value: float | None) -> str:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return ""
    return f"{value:.3f}"


def run(args) -> int:
    from ..engines.dispatch import supported

    files = [(path, family_of_file(path)) for path in args.files]
    families = {family: sorted({*supported(family), "auto"}) for _, family in files}
    specs = None if args.engines is None else parse_engines(args.engines, families)
    plan: list[Run] = []
    for path, family in files:
        for name, extra in specs or [(name, []) for name in supported(family)]:
            if name in families[family]:
                plan.append(Run(path, family, name, extra))
    done: list[Run] = []
    interrupted = False
    for r in plan:
        try:
            done.append(execute(r, args))
        except KeyboardInterrupt:
            done.append(r)
            interrupted = True
            break
        if not args.json:
            print(f"cpkit: {r.file}: {r.label}: {_progress(r)}", file=sys.stderr, flush=True)
    split = disagreements(done)
    if args.json:
        print(json.dumps({"runs": [asdict(r) for r in done], "agree": not split,
                          "disagree": split, "complete": not interrupted}))
    else:
        print(table(done))
        for path in split:
            print(f"{path}: the runs that finished disagree on the count")
        if interrupted:
            print("interrupted: the runs after the last row were not made")
    if interrupted:
        return 130
    return DISAGREE if split else 0
