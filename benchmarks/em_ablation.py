"""Ablation of the edge-matching CP engine (Benoist & Bourreau section 6.2); the comparison with
the brute force and CP-SAT on the hardest instances is the ``em-hard`` suite
(``benchmarks.em_hard``).

Every configuration enumerates all solutions of the same instances; the tables give the total
nodes and search time (JIT compile excluded) of each, and the change against the full engine,
next to the paper's figures.  Counts must agree across configurations (the run stops if not).
"""

from __future__ import annotations

from cpkit.result import count_phrase
from . import Table, progress
from .edge_matching import BENOIST

#: The engine as `cpkit match --engine cp` runs it, and the variants of the study.
FULL: dict = {}
VARIANTS: list[tuple[str, dict, str]] = [
    ("backjumping off", dict(backjump=False), "+50% nodes, +30% time"),
    ("preemption off", dict(preemption=False), "+24% nodes, time about equal"),
    ("instantiation rule off", dict(instantiation=False), ""),
    ("contradiction rule off", dict(contradiction=False), ""),
    ("remaining-tile rules off (shared edges, cycles)", dict(shared_edge=False, cycles=False),
     "+2% nodes and time"),
    ("shared-edge bound off", dict(shared_edge=False), ""),
    ("cycle detection off", dict(cycles=False), ""),
    ("opposite pairs off", dict(opposite=False), ""),
    ("shaving L=2", dict(shave=2), "Figure 7: shaving divides total time by 5 to 6"),
    ("shaving L=3", dict(shave=3), ""),
    ("shaving L=4", dict(shave=4), ""),
    ("shaving L=5", dict(shave=5), ""),
    ("shaving L=all", dict(shave="all"), ""),
]
HEURISTIC_PAPER = {"min-expected-offer": "-22.75% nodes, -16.25% time",
                   "min-expected-gap": "-38% nodes, -30.5% time",
                   "min-expected-ratio": "-33% nodes, -23.5% time"}


def instances(quick: bool):
    """The study's instances: the paper's 7x7 E_7_1 and E_7_2 when the folder of the paper's
    instances holds them, and generated boards (seeds named, so anyone can regenerate them)."""
    from cpkit.io.edge_matching import read_edge_matching
    from cpkit.models.em_generator import generate

    out = [generate(5, border_colours=3, inner_colours=6, seed=1),
           generate(6, 5, border_colours=3, inner_colours=6, seed=0)]
    if not quick:
        out.append(generate(6, border_colours=4, inner_colours=6, seed=2))
        for name in ("E_7_1.b6i6.nohint",):
            if (BENOIST / name).is_file():
                out.append(read_edge_matching(BENOIST / name))
    return out


def _run(puzzle, options: dict):
    from cpkit.engines.dispatch import solve

    return solve(puzzle, engine="cp", count_only=True, **options)


def _pct(value: float, base: float) -> str:
    return f"{100.0 * (value - base) / base:+.1f}%" if base else ""


def ablation_suite(quick: bool = False) -> list[Table]:
    puzzles = instances(quick)
    for p in puzzles[:1]:
        _run(p, FULL)                       # compile before timing
    runs: dict[str, list] = {}
    configs = [("full engine (default)", FULL, "")] + VARIANTS + [
        (f"heuristic {h}", dict(heuristic=h), HEURISTIC_PAPER.get(h, ""))
        for h in ("min-offer", "min-expected-offer", "min-expected-ratio")]
    for number, (label, options, _) in enumerate(configs, 1):
        progress(label, number, len(configs))
        runs[label] = [_run(p, options) for p in puzzles]
    counts = [r.count for r in runs["full engine (default)"]]
    for label, results in runs.items():
        if [r.count for r in results] != counts:
            raise AssertionError(f"{label}: counts {[r.count for r in results]} != {counts}")

    def totals(label):
        rs = runs[label]
        return sum(r.stats.nodes for r in rs), sum(r.seconds for r in rs)

    base_nodes, base_time = totals("full engine (default)")
    rows = []
    for label, options, paper in configs:
        if label.startswith("heuristic"):
            continue
        nodes, secs = totals(label)
        trials = sum(r.stats.extra.get("shave_trials", 0) for r in runs[label])
        rows.append([label, nodes, trials, secs, round(nodes / secs) if secs else 0,
                     _pct(nodes, base_nodes), _pct(secs, base_time), paper])
    ablation = Table(
        "Each component off, and shaving limits, against the full engine (sums over the "
        "instances)",
        ["configuration", "nodes", "shaving trials", "search s", "nodes/s", "nodes vs full",
         "time vs full", "paper (section 6.2)"], rows,
        ["Instances: " + ", ".join(f"{p.name} ({count_phrase(c)})" for p, c in zip(puzzles, counts))
         + ".  Counts are identical in every configuration (checked by the run).  Nodes are "
           "branching placements; shaving trials (placements tried and taken back) are counted "
           "apart.  The paper's percentages are the change when the component is removed from "
           "its best engine; ours likewise, except shaving, which the full engine does not use "
           "(rows: shaving added)."])
    base_h_nodes, base_h_time = totals("heuristic min-offer")
    hrows = []
    for h in ("min-expected-offer", "min-expected-gap", "min-expected-ratio"):
        label = "full engine (default)" if h == "min-expected-gap" else f"heuristic {h}"
        nodes, secs = totals(label)
        hrows.append([h, nodes, secs, _pct(nodes, base_h_nodes), _pct(secs, base_h_time),
                      HEURISTIC_PAPER[h]])
    heuristics = Table(
        "Pair heuristics against MinOffer (sums over the same instances; the rest of the "
        "engine as by default)",
        ["heuristic", "nodes", "search s", "nodes vs MinOffer", "time vs MinOffer",
         "paper (Table 1)"],
        [["min-offer", base_h_nodes, base_h_time, "", "", ""]] + hrows)
    return [ablation, heuristics]
