"""Benchmark suite ``em-alldiff``: the ColorPair rules against the paper's section 6.3 models.

Benoist & Bourreau compare their BasicCP with Choco models: 4-edge consistency with the
complete AllDifferent (27% fewer nodes on average, Table 2), and the same with edge-colour
variables ("edge filtering", far fewer nodes).  This suite runs our engines on the same boards:
the brute force, the CP engine of sections 2 to 5.1 (BasicCP: ColorPair rules, patterns,
MinExpectedGap) with and without preemption, the full CP engine, the ``alldiff`` engine in each
of its forms and the compiled ``edges`` engine with its tile rules or the complete
AllDifferent, under the paper's minDomain and under its own dom/ddeg.  Node counts are
the point; the ``alldiff`` engine is pure Python and its seconds say only that.  Counts must
agree (the run stops if not).  A last table runs the ``edges`` engine on the ``em`` suite's
instances against the brute force, each run limited to ``CPKIT_BENCH_EM_SECONDS`` (default 60).
"""

from __future__ import annotations

import tempfile
from pathlib import Path

from . import Table, progress
from .edge_matching import (BENOIST, PAPER_EDGE_FILTERING, PUBLISHED, RECORDED, _bound,
                            _instances, _over, _rate, search_seconds)

BASIC = dict(backjump=False, shared_edge=False, cycles=False)
CONFIGS: list[tuple[str, str, dict]] = [
    ("brute force", "backtrack", {}),
    ("BasicCP (sections 2-5.1)", "cp", BASIC),
    ("BasicCP without preemption", "cp", dict(BASIC, preemption=False)),
    ("full CP engine", "cp", {}),
    ("4-edge consistency alone", "alldiff", dict(alldifferent=False)),
    ("4-edge consistency + AllDifferent (6.3)", "alldiff", {}),
    ("+ edge filtering (6.3, third model)", "alldiff", dict(edges=True)),
    ("edges engine: edge filtering + AllDifferent, minDomain (the third model compiled)",
     "edges", dict(alldifferent=True, branching="min-domain")),
    ("edges engine: edge filtering + tile rules, minDomain", "edges",
     dict(branching="min-domain")),
    ("edges engine: edge filtering + tile rules, dom/ddeg (default)", "edges", {}),
    ("edges engine: edge filtering + AllDifferent, dom/ddeg", "edges", dict(alldifferent=True)),
]
#: The ``edges`` engine's configurations in the last table.
COMPILED: list[tuple[str, dict]] = [
    ("tile rules (default)", {}),
    ("complete AllDifferent", dict(alldifferent=True)),
    ("tile rules, 2 workers", dict(workers=2)),
    ("tile rules, shave 2", dict(shave=2)),
]
#: (side, border colours, inner colours, seed): boards the Python model enumerates in seconds.
GENERATED = [(5, 3, 4, 50), (5, 3, 3, 51), (6, 5, 6, 53), (6, 4, 6, 2)]
#: Paper instances the edge-filtering model finishes in about a minute each.
PAPER = ["E_10_7", "E_9_4"]


def _engines_table(quick: bool) -> Table:
    from cpkit.models.em_generator import generate
    from cpkit.engines.dispatch import solve

    rows = []
    boards = GENERATED[:1 if quick else None]
    for number, (n, b, i, s) in enumerate(boards, 1):
        puzzle = generate(n, border_colours=b, inner_colours=i, seed=s)
        progress(f"{puzzle.name}, every engine", number, len(boards))
        counts = set()
        base = None
        for label, engine, options in CONFIGS:
            r = solve(puzzle, engine=engine, count_only=True, **options)
            counts.add(r.count)
            if len(counts) > 1:
                raise RuntimeError(f"{puzzle.name}: {label} counted {r.count}, others {counts}")
            base = base or r.stats.nodes
            rows.append([puzzle.name, label, r.count, r.stats.nodes,
                         r.stats.extra.get("propagated"), r.seconds,
                         f"{base / r.stats.nodes:,.1f}" if r.stats.nodes else None])
    return Table(
        "Nodes of the ColorPair engines and of the section 6.3 models (all solutions, one corner "
        "fixed)",
        ["instance", "engine", "solutions", "nodes", "propagated", "search s",
         "brute-force / nodes"], rows,
        ["`nodes` are placements made by branching, `propagated` those forced by propagation.  "
         "The 6.3 models branch on the cell with the fewest orientations (minDomain, as the "
         "paper's Choco models) unless the row says dom/ddeg (fewest orientations per empty "
         "neighbour), the ColorPair engines by patterns and MinExpectedGap, so the "
         "comparison is of whole engines, as in the paper's Table 2 (BasicCP O(1) against "
         "Choco 4-edges: 27% fewer nodes for Choco on average).  Generated boards: "
         + ", ".join(f"`cpkit generate edge-matching --size {n} --border-colors {b} "
                     f"--inner-colors {i} --seed {s}`" for n, b, i, s in GENERATED) + "."])


def _paper_table() -> Table | None:
    from cpkit.io.edge_matching import read_edge_matching
    from cpkit.engines.dispatch import solve

    rows = []
    for label in PAPER:
        matches = sorted(BENOIST.glob(f"{label}.*")) if BENOIST.is_dir() else []
        if not matches:
            continue
        puzzle = read_edge_matching(matches[0])
        brute = solve(puzzle, engine="backtrack", count_only=True).stats.nodes \
            if label not in PUBLISHED else PUBLISHED[label][1]
        r = solve(puzzle, engine="alldiff", edges=True, count_only=True)
        paper_nodes, paper_seconds = PAPER_EDGE_FILTERING[label]
        rows.append([label, r.count, r.complete, r.stats.nodes, r.stats.extra["propagated"],
                     r.seconds, paper_nodes, paper_seconds, r.stats.nodes / paper_nodes,
                     f"{brute / r.stats.nodes:,.1f}"])
    if not rows:
        return None
    return Table(
        "The edge-filtering model on the paper's instances, beside its Table 2",
        ["instance", "solutions", "complete", "nodes", "propagated", "search s", "paper nodes",
         "paper s", "nodes / paper nodes", "brute-force / nodes"], rows,
        ["Ours: `cpkit match FILE --engine alldiff --edge-filtering` (Python).  The paper's: "
         "Choco with 4-edge consistency, the complete AllDifferent and edge-colour variables "
         "(Java, 3 GHz PC, 2008).  Brute-force nodes: ours, complete."])


def _compiled_table(quick: bool, folder: Path, seconds: float) -> Table:
    from cpkit.api import solve as split_solve
    from cpkit.io.edge_matching import read_edge_matching
    from cpkit.engines.dispatch import solve

    found, notes = _instances(quick, folder)
    rows = []
    for number, (label, path) in enumerate(found, 1):
        progress(f"{label}, compiled edge filtering", number, len(found))
        puzzle = read_edge_matching(path)
        if label in PUBLISHED:
            brute, brute_done, how, brute_count = PUBLISHED[label][1], True, " (published)", None
        elif label in RECORDED:
            brute_count, brute = RECORDED[label]
            brute_done, how = True, " (recorded)"
        else:
            b = solve(puzzle, engine="backtrack", count_only=True, time_limit=seconds)
            brute, brute_done, how = b.stats.nodes, b.complete, ""
            brute_count = b.count if b.complete else None
        paper = PAPER_EDGE_FILTERING.get(label)
        for config, options in COMPILED:
            # A split run goes through the public front (``cpkit.solve``), which plans it.
            run = split_solve if "workers" in options else solve
            r = run(puzzle, engine="edges", count_only=True, time_limit=seconds, **options)
            if r.complete and brute_count is not None and brute_count != r.count:
                raise RuntimeError(f"{label}: edges ({config}) counted {r.count}, brute force "
                                   f"{brute_count}")
            trials = r.stats.extra["shave_trials"]
            if r.complete:
                how_now = how if brute_done else " (lower bound)"
                ratio = _over(brute, how_now, r.stats.nodes)
                total = _over(brute, how_now, r.stats.nodes + trials) if trials else None
            else:
                ratio = total = None
            rows.append([label, f"{puzzle.width}x{puzzle.height}", config,
                         _bound(r.count, r.complete), r.complete, r.stats.nodes,
                         r.stats.extra["propagated"], trials, r.seconds,
                         _rate(r.stats.nodes, r.seconds), paper[0] if paper else None,
                         f"{r.stats.nodes / paper[0]:.2f}" if paper and r.complete else None,
                         _bound(brute, brute_done), ratio, total])
    return Table(
        "The compiled edge-filtering engine (`--engine edges`) on the `em` suite's instances, "
        "against the brute force",
        ["instance", "board", "edges engine", "solutions", "complete", "nodes", "propagated",
         "shave trials", "search s",
         "nodes/s", "paper's edge-filtering nodes", "nodes / paper nodes",
         "brute-force nodes", "brute-force / edges nodes",
         "brute-force / (nodes + shave trials)"], rows,
        notes + [f"Each run limited to {seconds:g} s (`CPKIT_BENCH_EM_SECONDS`); a row whose "
                 "`complete` is no hit it.  Edge filtering with the tile rules or with Régin's "
                 "complete AllDifferent (`--alldifferent`), dom/ddeg branching, one corner "
                 "fixed; `2 workers` splits the default run over two processes (`--workers "
                 "2`: the same nodes; wall-clock search seconds, worker start-up apart); `shave "
                 "2` adds singleton tests on the cells of at most two orientations (`--shave 2`; "
                 "its trials are placements too, counted apart from the nodes).  Brute-force "
                 "nodes: the published count (em-benchmarks README) where there is one, else "
                 "ours, recorded earlier (`RECORDED` in benchmarks/edge_matching.py: the "
                 "generated 8x8, over two workers) or run under the same limit (a lower bound "
                 "if it hit it).  The paper's nodes: Table 2's Choco model "
                 "(4-edge consistency, the complete AllDifferent, edge-colour variables)."])


def alldiff_suite(quick: bool = False) -> list[Table]:
    seconds = search_seconds(60)
    tables = [_engines_table(quick)]
    paper = None if quick else _paper_table()
    with tempfile.TemporaryDirectory() as tmp:
        compiled = _compiled_table(quick, Path(tmp), seconds)
    return tables + ([paper] if paper else []) + [compiled]
