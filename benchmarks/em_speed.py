"""Benchmark suite ``em-speed``: which engine enumerates the paper's 48 instances fastest, one
core each: the ColorPair CP engine (``cpkit match``'s default), the compiled edge-filtering
engine, and that engine with shaving on the cells of at most two orientations.

``em-paper`` counts nodes, and nodes are not time: the CP engine makes a node in well under a
microsecond, the edge-filtering engine in 5 to 35 microseconds, so the fewest nodes need not be
the fastest run.  This suite asks the user's question, "which engine should I run?", in
seconds of search (JIT compilation apart) under one time limit.  A run that hit the limit gives
a lower bound on its time, so a ratio of two times is a bound when one of them did.
"""

from __future__ import annotations

import math

from . import Table, progress
from .em_paper import limit_and_files, missing, ratio_bound, solutions_text

#: Label, ``cpkit.engines.dispatch.solve`` options; the first is the reference the others are set against.
CONFIGS = [
    ("CP", {"engine": "cp"}),
    ("edges", {"engine": "edges"}),
    ("edges --shave 2", {"engine": "edges", "shave": 2}),
]


def fastest(times: list[tuple[str, float, bool]]) -> str:
    """The label of the quickest run that finished (``(label, seconds, finished)``), or "" when
    none did: a run that hit the limit took at least as long as any that finished."""
    done = [(seconds, label) for label, seconds, finished in times if finished]
    return min(done)[1] if done else ""


def geometric_mean(values: list[float]) -> float | None:
    """Of positive ``values``; None for none."""
    return math.exp(sum(map(math.log, values)) / len(values)) if values else None


def speed_suite(quick: bool = False) -> list[Table]:
    from cpkit.io.edge_matching import read_edge_matching
    from cpkit.engines.dispatch import solve

    limit, files = limit_and_files(quick)
    if not files:
        return missing()
    reference = CONFIGS[0][0]
    others = [label for label, _ in CONFIGS[1:]]
    tally = {label: {"finished": 0, "fastest": 0, "yes": 0, "no": 0, "open": 0, "ratios": [],
                     "jit": 0.0} for label, _ in CONFIGS}
    rows = []
    for number, (name, path) in enumerate(files, 1):
        progress(name, number, len(files))
        puzzle = read_edge_matching(path)
        runs = {}
        for label, options in CONFIGS:
            runs[label] = solve(puzzle, count_only=True, time_limit=limit, **options)
            tally[label]["finished"] += runs[label].complete
            tally[label]["jit"] = max(tally[label]["jit"], runs[label].jit_seconds)
        times = [(label, r.seconds, r.complete) for label, r in runs.items()]
        winner = fastest(times)
        if winner:
            tally[winner]["fastest"] += 1
        cells = [f"{r.seconds:.2f}" if r.complete else f">= {r.seconds:.0f}"
                 for r in runs.values()]
        base = runs[reference]
        for label in others:
            text, verdict = ratio_bound(base.seconds, base.complete, runs[label].seconds,
                                        runs[label].complete, factor=1, digits=2)
            cells.append(text)
            tally[label][verdict] += 1
            if base.complete and runs[label].complete and min(base.seconds,
                                                              runs[label].seconds) > 0:
                tally[label]["ratios"].append(base.seconds / runs[label].seconds)
        rows.append([name, f"{puzzle.width}x{puzzle.height}", path.name.split(".")[1],
                     solutions_text(name, list(runs.values()))] + cells + [winner])
    columns = (["instance", "board", "colours", "solutions"]
               + [f"{label} s" for label, _ in CONFIGS]
               + [f"{reference} s / {label} s" for label in others] + ["fastest"])
    summary = []
    for label, _ in CONFIGS:
        t = tally[label]
        mean = geometric_mean(t["ratios"])
        versus = (["", "", "", ""] if label == reference else
                  [t["yes"], t["no"], t["open"], "" if mean is None else f"{mean:.2f}"])
        summary.append([label, len(files), t["finished"], t["fastest"]] + versus
                       + [f"{t['jit']:.2f}"])
    return [
        Table("Search seconds on the paper's instances, one core each (all solutions)", columns,
              rows, [
                  f"Each search limited to {limit:g} s (`CPKIT_BENCH_EM_SECONDS`), one process, "
                  f"the file's corner hint fixed, counting only; `>= T`: the run hit the limit.  "
                  f"Seconds are search time, JIT compilation or cache loading apart.  A ratio "
                  f"above 1 means the engine of its column was faster than {reference}; marked "
                  f">= or <= it is a bound (one run hit the limit), and none is given when both "
                  f"did.  `fastest`: the quickest run that finished.  The suite stops if two "
                  f"engines that finished count differently."]),
        Table(f"Which engine is faster, against {reference}",
              ["engine", "instances", "finished", "fastest on", f"faster than {reference}",
               f"slower than {reference}", "undecided", f"geometric mean of {reference} s / s",
               "jit s (most)"], summary,
              [f"The geometric mean is over the instances both it and {reference} finished.  "
               f"`jit s`: the longest kernel load of the engine in this run (from the numba "
               f"cache, or compiling into it)."]),
    ]
