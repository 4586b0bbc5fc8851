"""Edge-matching benchmark suite ``em``: the ColorPair CP engine against the brute force (numba and
plain C), CP-SAT and the paper's published figures, and with shaving on
every cell against the same brute force.

Instances: the paper's (the folder ``CPKIT_EM_BENCHMARKS`` names, not part of the repository; the
suite says so when the folder is missing) and generated 7x7 to 9x9 boards with the paper's
colour ratios.  Every engine runs under a time limit; a row that hit it says "no" under
"complete" and its counts are lower bounds.  The limits scale with ``CPKIT_BENCH_EM_SECONDS``
(the CP engine's limit; the three baselines get a third of it each).
"""

from __future__ import annotations

import math
import os
import subprocess
import tempfile
from pathlib import Path

from cpkit.errors import InputError
from . import ROOT, Table, progress
from .tiling import c_reference, cold_jit_seconds

#: Data outside the repository, each folder found beside the checkout unless its environment
#: variable names another: the paper's 48 instances, and the Eternity II files as the community
#: publishes them (pieces, clue puzzles, variants, record boards, Owen's sets).
BENOIST = Path(os.environ.get("CPKIT_EM_BENCHMARKS",
                              ROOT.parent / "shared" / "em-benchmarks" / "benoist"))
ETERNITY2 = Path(os.environ.get("CPKIT_ETERNITY2",
                                ROOT.parent / "shared" / "em-benchmarks" / "eternity2"))


def search_seconds(default: float) -> float:
    """Each search's time limit in an edge-matching suite: ``CPKIT_BENCH_EM_SECONDS`` if set, else
    the suite's ``default``.  Checked here, before the suite starts, so that a mistyped value ends
    with one line (exit status 2) rather than a traceback or an hour's run that stops at once."""
    text = os.environ.get("CPKIT_BENCH_EM_SECONDS", "").strip()
    if not text:
        return float(default)
    try:
        seconds = float(text)
    except ValueError:
        seconds = float("nan")
    if not math.isfinite(seconds) or seconds <= 0:
        raise InputError(f"CPKIT_BENCH_EM_SECONDS must be a positive number of seconds, "
                         f"got {text!r}")
    return seconds


#: Benoist & Bourreau, Table 2 (BasicCP O(1), Java, 3 GHz PC, 2008): nodes, seconds.
PAPER_TABLE2 = {
    "E_7_1": (13_285_760, 68), "E_7_2": (7_808_848, 38), "E_9_13": (6_242_786, 32),
    "E_9_3": (6_865_888, 38), "E_9_4": (4_858_100, 26), "E_10_16": (2_149_082, 12),
    "E_10_17": (4_408_684, 24), "E_10_5": (13_388_596, 68), "E_10_7": (5_521_750, 34),
    "E_10_8": (19_494_856, 96),
}
#: The same table's strongest model: Choco with 4-edge consistency, the complete AllDifferent and
#: edge-colour variables ("edge filtering", section 6.3): nodes, seconds.
PAPER_EDGE_FILTERING = {
    "E_7_1": (193_257, 468), "E_7_2": (128_327, 319), "E_9_13": (41_849, 521),
    "E_9_3": (22_942, 428), "E_9_4": (5_017, 79), "E_10_16": (9_814, 303),
    "E_10_17": (7_186, 239), "E_10_5": (12_429, 440), "E_10_7": (3_999, 159),
    "E_10_8": (22_527, 785),
}
#: em-benchmarks/README.md: solutions and brute-force nodes (row scan, hinted corner fixed).
PUBLISHED = {"E_7_1": (1, 159_156_828), "E_7_2": (8, 1_076_409_673),
             "E_7_3": (12, 3_236_732_504), "E_7_4": (224, 16_285_381_547)}
#: Brute-force searches too long for a bench run, recorded from cpkit's own (`cpkit match FILE
#: --engine backtrack --count-only --workers 2`: 42 s for gen_8_b7i8_s1, 1,681 s for E_9_8,
#: 87 s for gen_8_b7i8_s2, 47 s for gen_8_b7i8_s3, 316 s for gen_9_b9i10_s3 on the AMD EPYC
#: of docs/benchmarks.md; a split run makes the sequential nodes): solutions and nodes.
RECORDED = {"gen_8_b7i8_s1": (4, 3_669_575_239), "E_9_8": (4, 62_178_639_314),
            "gen_8_b7i8_s2": (1, 4_444_949_138), "gen_8_b7i8_s3": (2, 2_888_149_909),
            "gen_9_b9i10_s3": (4, 19_237_874_642)}

PAPER_SET = ["E_7_1", "E_7_2", "E_7_3", "E_7_4", "E_8_1", "E_9_3", "E_9_4", "E_9_13", "E_10_5",
             "E_10_7", "E_10_8", "E_10_16", "E_10_17"]
#: (side, border colours, inner colours, seed): the paper's ratios (E_7 b6i6, E_8 b8i8,
#: E_9 about b9i10).
GENERATED = [(7, 6, 6, 11), (8, 7, 8, 1), (9, 9, 10, 1)]
#: The shaving table's runs are split over this many processes (the benchmark machine's cores).
SHAVE_WORKERS = 2


def run_c_reference(binary: Path, path: Path, seconds: float) -> dict[str, float]:
    out = subprocess.run([str(binary), str(path), str(seconds)], check=True, capture_output=True,
                         text=True).stdout
    return {k: float(v) for k, v in (kv.split("=") for kv in out.split())}


def with_symmetry_hint(puzzle, path: Path, folder: Path) -> Path:
    """A file of ``puzzle`` whose hints are the root cpkit searches (``path`` itself if the puzzle
    has hints): without hints cpkit fixes a corner tile (counting up to rotation), which the C
    reference, knowing only the file's hints, would not."""
    from cpkit.io.edge_matching import write_native
    from cpkit.models.edge_matching import EdgeMatchingPuzzle

    if puzzle.hints:
        return path
    (root,) = puzzle.symmetry_roots("rotation")
    fixed = folder / f"{path.stem}.hinted.txt"
    write_native(EdgeMatchingPuzzle(puzzle.tiles, puzzle.width, puzzle.height, hints=root,
                                    n_colours=puzzle.n_colours, name=puzzle.name), fixed)
    return fixed


def _instances(quick: bool, folder: Path) -> tuple[list[tuple[str, Path]], list[str]]:
    """``(label, file)`` pairs (generated boards are written to ``folder``), and notes."""
    from cpkit.io.edge_matching import write_native
    from cpkit.models.em_generator import generate

    notes = []
    names = ["E_7_1"] if quick else PAPER_SET
    found = []
    if BENOIST.is_dir():
        for name in names:
            matches = sorted(BENOIST.glob(f"{name}.*"))
            if matches:
                found.append((name, matches[0]))
    else:
        notes.append(f"**The paper's instances were not found** (looked in `{BENOIST}`; set "
                     f"`CPKIT_EM_BENCHMARKS`): only generated boards were measured.")
    for side, border, inner, seed in (GENERATED[:1] if quick else GENERATED):
        puzzle = generate(side, border_colours=border, inner_colours=inner, seed=seed)
        path = folder / f"{puzzle.name}.txt"
        write_native(puzzle, path)
        found.append((puzzle.name, path))
    return found, notes


def brute_force_nodes(label: str, result) -> tuple[int, bool, str]:
    """The brute force's nodes over the whole search of ``label``, whether that figure is exact,
    and where it comes from: ``result`` if it finished, else the published count, else one
    recorded earlier (``RECORDED``), else ``result``'s nodes so far (a lower bound)."""
    if result.complete:
        return result.stats.nodes, True, ""
    if label in PUBLISHED:
        return PUBLISHED[label][1], True, " (published)"
    if label in RECORDED:
        return RECORDED[label][1], True, " (recorded)"
    return result.stats.nodes, False, " (lower bound)"


def _bound(count: int, complete: bool) -> str:
    return f"{count:,}" if complete else f">= {count:,}"


def _over(brute: int, how: str, nodes: int | None) -> str | None:
    """Brute-force nodes per node of another search (None when that search is unknown)."""
    return f"{brute / nodes:,.1f}{how}" if nodes else None


def _rate(nodes: float, seconds: float) -> int | None:
    return round(nodes / seconds) if seconds > 0 else None


def em_suite(quick: bool = False) -> list[Table]:
    from cpkit.api import solve as split_solve
    from cpkit.io.edge_matching import read_edge_matching
    from cpkit.engines.dispatch import solve

    cp_limit = search_seconds(10 if quick else 60)
    base_limit = cp_limit / 3
    binary = c_reference("em_bt_ref")
    cp_rows, bt_rows, scan_rows, shave_rows, sat_rows = [], [], [], [], []
    with tempfile.TemporaryDirectory() as tmp:
        instances, notes = _instances(quick, Path(tmp))
        for number, (label, path) in enumerate(instances, 1):
            progress(label, number, len(instances))
            puzzle = read_edge_matching(path)
            cp = solve(puzzle, engine="cp", count_only=True, time_limit=cp_limit)
            bt = solve(puzzle, engine="backtrack", count_only=True, time_limit=base_limit)
            scan = solve(puzzle, engine="cp", count_only=True, time_limit=base_limit,
                         heuristic="scan")
            shaved = split_solve(puzzle, engine="cp", count_only=True, time_limit=cp_limit,
                                 shave="all", workers=SHAVE_WORKERS)
            c = (run_c_reference(binary, with_symmetry_hint(puzzle, path, Path(tmp)),
                                 base_limit) if binary else None)
            sat = solve(puzzle, engine="cpsat", count_only=True, time_limit=base_limit)
            paper_nodes, paper_seconds = PAPER_TABLE2.get(label, (None, None))
            extra = cp.stats.extra
            cp_rows.append([
                label, f"{puzzle.width}x{puzzle.height}", _bound(cp.count, cp.complete),
                cp.complete, cp.stats.nodes, extra["propagated"], cp.seconds,
                _rate(cp.stats.nodes, cp.seconds), paper_nodes, paper_seconds,
                cp.stats.nodes / paper_nodes if paper_nodes and cp.complete else None])
            published = PUBLISHED.get(label, (None, None))[1]
            brute, _, how = brute_force_nodes(label, bt)
            ratio = _over(brute, how, cp.stats.nodes if cp.complete else None)
            scan_rows.append([
                label, _bound(scan.count, scan.complete), scan.complete, scan.stats.nodes,
                scan.stats.extra["propagated"], scan.seconds, _rate(scan.stats.nodes, scan.seconds),
                _over(brute, how, scan.stats.nodes if scan.complete else None), ratio,
                _over(brute, how, PAPER_EDGE_FILTERING.get(label, (None,))[0])])
            for other in (cp, bt):
                if shaved.complete and other.complete and shaved.count != other.count:
                    raise RuntimeError(f"{label}: CP with shaving counted {shaved.count}, "
                                       f"{other.engine} {other.count}")
            trials = shaved.stats.extra["shave_trials"]
            done = shaved.complete
            shave_rows.append([
                label, _bound(shaved.count, done), done,
                shaved.stats.nodes, trials, shaved.seconds, shaved.stats.extra["cpu_seconds"],
                cp.seconds if cp.complete else None,
                _over(brute, how, shaved.stats.nodes if done else None),
                _over(brute, how, shaved.stats.nodes + trials if done else None)])
            c_rate = _rate(c["nodes"], c["seconds"]) if c else None
            bt_rate = _rate(bt.stats.nodes, bt.seconds)
            paper_ratio = f"{published / paper_nodes:,.1f}" if published and paper_nodes else None
            bt_rows.append([
                label, _bound(bt.count, bt.complete), bt.complete, bt.stats.nodes, bt.seconds,
                bt_rate, c and int(c["nodes"]), c and c["seconds"], c_rate,
                bt_rate / c_rate if c_rate and bt_rate else None, ratio, paper_ratio])
            sat_rows.append([
                label, _bound(sat.count, sat.complete), sat.complete, sat.stats.nodes,
                sat.seconds, _rate(sat.stats.nodes, sat.seconds),
                cp.seconds if cp.complete else None,
                (sat.seconds / cp.seconds) if sat.complete and cp.complete and cp.seconds > 0
                else None])
    jit = cold_jit_seconds("cpkit.engines.edge_matching.cp.em_cp_search")
    limits = (f"Time limits: CP {cp_limit:g} s, each baseline {base_limit:g} s "
              f"(`CPKIT_BENCH_EM_SECONDS` sets the CP limit, the baselines get a third).  A row "
              f"whose `complete` is no hit its limit: its counts are lower bounds.")
    return [
        Table("ColorPair CP search (min-expected-gap, all rules), count with the hinted corner "
              "fixed, beside the paper's Table 2",
              ["instance", "board", "solutions", "complete", "nodes", "propagated",
               "search s", "nodes/s", "paper nodes", "paper s", "nodes / paper nodes"],
              cp_rows,
              notes + [limits,
                       f"`nodes` are placements made by branching; `propagated` those forced "
                       f"by the instantiation rule.  The paper's figures are BasicCP O(1) (no "
                       f"backjumping, no shaving) in Java on a 3 GHz PC (2008).  Compiling the "
                       f"CP kernels from an empty numba cache took {jit:.1f} s (not included)."]),
        Table("Brute force: cpkit's numba backtracker against plain C of the same design "
              "(`benchmarks/em_bt_ref.c`), and brute-force nodes per CP node",
              ["instance", "solutions", "complete", "nodes", "search s", "nodes/s",
               "C nodes", "C s", "C nodes/s", "nodes/s vs C", "brute-force / CP nodes",
               "published brute-force / paper CP nodes"],
              bt_rows,
              ["Both scan the board column by column from the bottom-left corner with candidate "
               "lists by (west, south) colours and fix the same corner tile (the C program gets "
               "it as a hint where the file has none); they make the same nodes, so the rates "
               "compare directly (same run, same limit).  `brute-force / CP nodes` divides the "
               "brute-force nodes of the whole search (ours when complete, else the published "
               "figure, else ours recorded earlier, `RECORDED` in benchmarks/edge_matching.py, "
               "else a lower bound) by the CP engine's.  The paper says its model can "
               "cut nodes a hundredfold against brute force (section 3, against doc_smith's "
               "backtracker); the last column puts the published brute-force nodes of this "
               "design (em-benchmarks README) over the paper's own Table 2 nodes." if binary else
               "No C compiler: the C reference was not run."]),
        Table("CP in the brute force's cell order (`--heuristic scan`): what propagation "
              "alone saves",
              ["instance", "solutions", "complete", "nodes", "propagated", "search s",
               "nodes/s", "brute-force / scan CP nodes", "brute-force / CP nodes (default)",
               "brute-force / paper's edge-filtering nodes"],
              scan_rows,
              [f"The full CP engine, branching on the first empty cell of the brute force's "
               f"column scan (no patterns, no pair heuristic), each run limited to "
               f"{base_limit:g} s.  With the same order every CP node is a brute-force node, "
               f"so the first ratio is the propagation's own saving; the next one (the "
               f"default engine's, from the table above) adds what the dynamic cell order "
               f"saves or costs.  The last column divides the same brute-force nodes by the "
               f"nodes of the paper's strongest model (Table 2, section 6.3: Choco with "
               f"4-edge consistency, the complete AllDifferent and edge-colour variables, "
               f"dynamic order), the most filtering any model of the paper does."]),
        Table("ColorPair CP search with shaving on every cell (`--shave all`), against the "
              "brute force",
              ["instance", "solutions", "complete", "nodes", "shave trials",
               f"search s ({SHAVE_WORKERS} workers)", "CPU s", "one process without shaving, s",
               "brute-force / nodes",
               "brute-force / (nodes + shave trials)"],
              shave_rows,
              [f"The full CP engine of the first table with shaving, one of the components "
               f"the paper's section 6.2 evaluates for its engine (the CP O(1) of Figure 5, "
               f"where it claims the hundredfold): before each branching every value of every "
               f"empty cell that demands a colour pair is tried and dropped if its propagation "
               f"fails (L = all, the setting with the fewest nodes in its Figure 7).  Split "
               f"over {SHAVE_WORKERS} processes (`--workers {SHAVE_WORKERS}`) under the first "
               f"table's limit ({cp_limit:g} s, wall clock), so that the hardest boards "
               f"finish; `CPU s` adds up the searching processes' time, to set beside the "
               f"one-process search "
               f"without shaving (first table).  A split run's CP nodes can differ from one "
               f"process's by a few per cent (no backjump crosses a split).  Trials are "
               f"placements made and taken back, counted apart from the nodes; the last column "
               f"counts them as nodes too.  Brute-force nodes as in the second table."]),
        Table("CP-SAT enumeration (tile and edge-colour variables, a table per cell, "
              "AllDifferent)",
              ["instance", "solutions", "complete", "branches", "search s", "branches/s",
               "CP search s", "CP-SAT s / CP s"],
              sat_rows,
              ["One worker (`num_workers = 1`), `enumerate_all_solutions`.  CP-SAT's nodes are "
               "its branches (`num_branches`), counted by its own rules: its rate sits beside "
               "the others for scale, not as a like-for-like figure."]),
    ]


#: The configurations of ``em-rate``: the engine the node-rate target is set for is the paper's
#: sections 2 to 5.1 (ColorPair rules, patterns, pair heuristics); backjumping and the
#: remaining-tile rules come on top and cost time per node.
RATE_CONFIGS = [
    ("full engine (default)", {}),
    ("no backjumping", dict(backjump=False)),
    ("sections 2-5.1 (no backjumping, no remaining-tile rules)",
     dict(backjump=False, shared_edge=False, cycles=False)),
]
#: 8x8 boards of the rate target: the paper's E_8_1 and generated ones of its colour ratio.
RATE_GENERATED = [(8, 7, 8, 1), (8, 8, 8, 1)]


def rate_suite(quick: bool = False) -> list[Table]:
    """CP node rate (one core) on 8x8 boards, by engine configuration, each run under the same
    time limit (``CPKIT_BENCH_EM_SECONDS``, default 20 s)."""
    from cpkit.io.edge_matching import read_edge_matching
    from cpkit.models.em_generator import generate
    from cpkit.engines.dispatch import solve

    limit = search_seconds(3 if quick else 20)
    puzzles = [generate(side, border_colours=b, inner_colours=i, seed=s)
               for side, b, i, s in RATE_GENERATED[:1 if quick else None]]
    matches = sorted(BENOIST.glob("E_8_1.*")) if BENOIST.is_dir() else []
    if matches and not quick:
        puzzles.insert(0, read_edge_matching(matches[0]))
    solve(puzzles[0], engine="cp", count_only=True, time_limit=0.5)    # compile before timing
    rows = []
    for number, puzzle in enumerate(puzzles, 1):
        progress(puzzle.name, number, len(puzzles))
        for label, options in RATE_CONFIGS:
            r = solve(puzzle, engine="cp", count_only=True, time_limit=limit, **options)
            rows.append([puzzle.name, label, _bound(r.count, r.complete), r.complete,
                         r.stats.nodes, r.stats.extra["propagated"], r.seconds,
                         _rate(r.stats.nodes, r.seconds)])
    return [Table(
        "CP node rate on 8x8 boards by engine configuration (one core)",
        ["instance", "configuration", "solutions", "complete", "nodes", "propagated", "search s",
         "nodes/s"], rows,
        [f"Each run stops after {limit:g} s (`CPKIT_BENCH_EM_SECONDS`) or when complete; "
         "nodes are branching placements, `propagated` the placements the instantiation rule "
         "forced.  The target is 1,000,000 nodes/s on 8x8 boards for the engine of "
         "the paper's sections 2 to 5.1; the paper's Java ran 100,000.  Generated boards: "
         + ", ".join(f"`cpkit generate edge-matching --size {s} --border-colors {b} "
                     f"--inner-colors {i} --seed {k}`" for s, b, i, k in RATE_GENERATED) + "."])]
