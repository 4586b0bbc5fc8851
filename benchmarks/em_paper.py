"""Benchmark suite ``em-paper``: brute-force nodes per branching node on every one of the paper's
48 instances (the target: at least 100 times fewer nodes than the brute-force backtracker on
the paper's instances and on generated 7x7 to 9x9 boards), for the ColorPair CP engine by
default and with shaving on every cell, and for the edge-filtering engine with and without
shaving.

The ``em`` suite measures 13 of the 48 (the ten of the paper's Table 2 and the 7x7 and 8x8
boards); this one all 48, and the ``em`` suite's generated 7x7 to 9x9 boards, the criterion's
other set.  The criterion is about the whole set, and the set is uneven: on some high-colour 9x9
and 10x10 boards the brute force's column scan from the fixed corner needs a few hundred thousand
nodes, on others billions.  Every run has a time limit; where one side of a ratio hit it, the
ratio is a bound, and the verdict says whether the bound already decides the hundredfold.

``em-generated`` (``generated_suite``) makes the same measurements on nine generated boards,
three of each size from 7x7 to 9x9, where ``em-paper`` has one of each.
"""

from __future__ import annotations

from pathlib import Path

from . import Table, progress
from .edge_matching import BENOIST, GENERATED, brute_force_nodes, search_seconds

#: The searches set against the brute force: label, ``cpkit.solve`` options.  Shaving runs are
#: split over two processes (the benchmark machine's cores) as in the ``em`` suite.
CONFIGS = [
    ("CP", {"engine": "cp"}),
    ("CP --shave all", {"engine": "cp", "shave": "all", "workers": 2}),
    ("edges", {"engine": "edges"}),
    ("edges --shave 2", {"engine": "edges", "shave": 2, "workers": 2}),
]
#: The hundredfold of the paper (section 3), cpkit's target for its engines.
FACTOR = 100
QUICK = ["E_10_7", "E_9_4"]
#: The two sets of boards the hundredfold is asked of.
PAPER, OURS = "the paper's", "generated"


def paper_files(names: list[str] | None = None) -> list[tuple[str, Path]]:
    """``(instance, file)`` of the paper's instances found in ``BENOIST``, by board size then
    number (E_7_1 ... E_10_26); only ``names`` if given."""
    found = []
    for path in BENOIST.glob("E_*_*.*"):
        label = path.name.split(".")[0]
        if names is None or label in names:
            _, side, number = label.split("_")
            found.append(((int(side), int(number)), label, path))
    return [(label, path) for _, label, path in sorted(found)]


def ratio_bound(brute: float, brute_exact: bool, nodes: float, nodes_exact: bool,
                factor: float = FACTOR, digits: int = 1) -> tuple[str, str]:
    """``brute / nodes`` as text, and whether it is at least ``factor``: "yes", "no" or "open".

    A search that hit its limit gives a lower bound on its nodes, so the ratio is a lower bound
    when the brute force stopped early, an upper bound when the other search did, and unknown
    when both did.  A complete search with no branching node at all beats any factor.  The
    same holds for times (``em-speed``): a run that hit its limit took at least that long.
    """
    if not nodes_exact and not brute_exact:
        return "", "open"
    if nodes == 0:
        return ("inf", "yes") if nodes_exact else ("", "open")
    value = brute / nodes
    text = f"{value:,.{digits}f}"
    if brute_exact and nodes_exact:
        return text, "yes" if value >= factor else "no"
    if nodes_exact:  # the brute force stopped early: at least this much
        return f">= {text}", "yes" if value >= factor else "open"
    return f"<= {text}", "no" if value < factor else "open"


def solutions_text(label: str, results) -> str:
    """The count of the searches that finished (they must agree), else the most any found."""
    finished = {r.count for r in results if r.complete}
    if len(finished) > 1:
        raise RuntimeError(f"{label}: the engines that finished disagree: {sorted(finished)}")
    if finished:
        return f"{finished.pop():,}"
    return f">= {max(r.count for r in results):,}"


def limit_and_files(quick: bool) -> tuple[float, list[tuple[str, Path]]]:
    """Each search's time limit (``CPKIT_BENCH_EM_SECONDS``) and the instances to run."""
    return search_limit(quick), paper_files(QUICK if quick else None)


def search_limit(quick: bool) -> float:
    """Each search's time limit: ``CPKIT_BENCH_EM_SECONDS``, else 5 s quick and 60 s in full."""
    return search_seconds(5 if quick else 60)


def missing() -> list[Table]:
    """What a suite reports when the paper's instances are not there."""
    return [Table("The paper's instances", ["note"], [[
        f"not found in `{BENOIST}` (set `CPKIT_EM_BENCHMARKS`): nothing was measured"]])]


def _measure(boards, limit: float, kinds: tuple[str, ...]) -> tuple[list[list], list[list]]:
    """Run the brute force and every ``CONFIGS`` search on ``boards`` (``(kind, label, puzzle,
    colours)``): the table's rows, and the tally of verdicts by engine and kind of board."""
    from cpkit.api import solve

    rows = []
    tally = {(kind, label): {"yes": 0, "no": 0, "open": 0}
             for kind in kinds for label, _ in CONFIGS}
    for number, (kind, label, puzzle, colours) in enumerate(boards, 1):
        progress(label, number, len(boards))
        bt = solve(puzzle, engine="backtrack", count_only=True, time_limit=limit)
        brute, brute_exact, source = brute_force_nodes(label, bt)
        results, cells = [bt], []
        for name, options in CONFIGS:
            result = solve(puzzle, count_only=True, time_limit=limit, **options)
            results.append(result)
            text, verdict = ratio_bound(brute, brute_exact, result.stats.nodes, result.complete)
            tally[kind, name][verdict] += 1
            cells += [f"{result.stats.nodes:,}" + ("" if result.complete else " (limit hit)"),
                      text]
        rows.append([label, f"{puzzle.width}x{puzzle.height}", colours,
                     solutions_text(label, results), f"{brute:,}{source}"] + cells)
    summary = []
    for kind in kinds:
        n = sum(1 for board in boards if board[0] == kind)
        summary += [[name, kind, n] + [tally[kind, name][v] for v in ("yes", "no", "open")]
                    for name, _ in CONFIGS if n]
    return rows, summary


def _columns() -> list[str]:
    columns = ["instance", "board", "colours", "solutions", "brute-force nodes"]
    for name, _ in CONFIGS:
        columns += [f"{name} nodes", f"brute force / {name}"]
    return columns


def _tally_table(summary: list[list]) -> Table:
    return Table(f"Instances with at least {FACTOR} times fewer nodes than the brute force",
                 ["engine", "boards", "instances", f">= {FACTOR}x", f"< {FACTOR}x", "undecided"],
                 summary,
                 ["`undecided`: a run hit its limit before the ratio was settled either way."])


def _generate_command(boards: list[tuple[int, int, int, int]]) -> str:
    return ", ".join(f"`cpkit generate edge-matching --size {n} --border-colors {b} "
                     f"--inner-colors {i} --seed {k}`" for n, b, i, k in boards)


def _generated(boards: list[tuple[int, int, int, int]]) -> list[tuple]:
    from cpkit.models.em_generator import generate

    out = []
    for side, border, inner, seed in boards:
        puzzle = generate(side, border_colours=border, inner_colours=inner, seed=seed)
        out.append((OURS, puzzle.name, puzzle, f"b{border}i{inner}"))
    return out


#: The common part of the two suites' notes on their runs.
RUN_NOTES = ("the file's corner hint fixed (the generated boards have none: a corner tile is "
             "fixed, as cpkit counts up to rotation).  `colours`: frame and inner colours.  "
             "`solutions`: the count of every search that finished (>= the most any search "
             "found if none did).  Brute-force nodes: the column scan of the `em` suite, ours "
             "when it finished, else the published count (em-benchmarks README) or ours "
             "recorded earlier (`RECORDED` in benchmarks/edge_matching.py), else the nodes "
             "made before the limit (a lower bound).  `nodes` are placements made by branching "
             "(shaving trials are not counted).  A ratio marked >= or <= is a bound (one side "
             "hit its limit); none is given when both did.  The suite stops if two engines "
             "that finished count differently.")


def paper_suite(quick: bool = False) -> list[Table]:
    from cpkit.io.edge_matching import read_edge_matching

    limit, files = limit_and_files(quick)
    if not files:
        return missing()
    boards = [(PAPER, label, read_edge_matching(path), path.name.split(".")[1])
              for label, path in files]
    boards += [] if quick else _generated(GENERATED)
    rows, summary = _measure(boards, limit, (PAPER, OURS))
    return [
        Table("Brute-force nodes per branching node on the paper's instances and on generated "
              "7x7 to 9x9 boards", _columns(), rows, [
                  f"Each search limited to {limit:g} s (`CPKIT_BENCH_EM_SECONDS`; the shaving "
                  f"runs over two processes, wall clock), all solutions, " + RUN_NOTES +
                  (f"  Generated boards (the `em` suite's): {_generate_command(GENERATED)}."
                   if not quick else "")]),
        _tally_table(summary),
    ]


#: ``em-generated``: three boards of each size, with the colours of the ``em`` suite's boards
#: (the paper's ratios), seeds 1 to 3.
MORE_GENERATED = [(side, border, inner, seed) for side, border, inner, _ in GENERATED
                  for seed in (1, 2, 3)]


def generated_suite(quick: bool = False) -> list[Table]:
    """The other set of boards, wider: the ``em-paper`` measurements on nine generated boards
    (``em-paper`` has one of each size)."""
    limit = search_limit(quick)
    chosen = MORE_GENERATED[:1] if quick else MORE_GENERATED
    rows, summary = _measure(_generated(chosen), limit, (OURS,))
    return [
        Table("Brute-force nodes per branching node on generated 7x7 to 9x9 boards", _columns(),
              rows, [f"Each search limited to {limit:g} s (`CPKIT_BENCH_EM_SECONDS`; the "
                     f"shaving runs over two processes, wall clock), all solutions, " +
                     RUN_NOTES + f"  Boards: {_generate_command(chosen)}."]),
        _tally_table(summary),
    ]
