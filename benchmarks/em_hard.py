"""The hardest edge-matching instances: the full CP engine against the brute force and CP-SAT,
all solutions (Benoist & Bourreau section 6.1).

"Hard" means the brute-force backtracker needs over a minute to enumerate the board.  The
paper's 7x7 boards E_7_3 and E_7_4 are such boards (E_7_1 and E_7_2 take it 5 and 30 s).  The
generated boards are the two of 25 random 7x7 boards with the paper's colours (6 frame, 6 inner;
seeds 0 to 24) that took it over a minute: 150 s was not enough for either, while every other
seed finished within 58 s.  Generated 8x8 to 10x10 boards of the paper's colour ratios take the
brute force seconds at most (its column scan from the fixed corner is strong on them), so none
qualifies.  Each run takes one core; the three engines run one after the other on each board.
"""

from __future__ import annotations

from . import Table, progress
from .edge_matching import BENOIST

PAPER_HARD = ["E_7_3.b6i6.nohint", "E_7_4.b6i6.nohint"]
#: (side, frame colours, inner colours, seed) of the generated boards.
GENERATED_HARD = [(7, 6, 6, 8), (7, 6, 6, 13)]
#: The quick run: a board every engine finishes in seconds.
QUICK = [(6, 4, 6, 2)]


def hard_instances(quick: bool):
    from cpkit.io.edge_matching import read_edge_matching
    from cpkit.models.em_generator import generate

    out = [] if quick else [read_edge_matching(BENOIST / n) for n in PAPER_HARD
                            if (BENOIST / n).is_file()]
    for side, border, inner, seed in (QUICK if quick else GENERATED_HARD):
        out.append(generate(side, border_colours=border, inner_colours=inner, seed=seed))
    return out


def hard_suite(quick: bool = False) -> list[Table]:
    """One table.  CP-SAT gets 1.5 times the CP engine's time (at least a minute, at most the
    limit): enough to show which of the two is faster without spending hours on CP-SAT."""
    from cpkit.engines.dispatch import solve

    limit = 60.0 if quick else 900.0
    rows = []
    puzzles = hard_instances(quick)
    for number, puzzle in enumerate(puzzles, 1):
        progress(puzzle.name, number, len(puzzles))
        cp_ = solve(puzzle, engine="cp", count_only=True, time_limit=limit)
        bt = solve(puzzle, engine="backtrack", count_only=True, time_limit=limit)
        sat_limit = min(limit, max(60.0, 1.5 * cp_.seconds))
        sat = solve(puzzle, engine="cpsat", count_only=True, time_limit=sat_limit)
        if cp_.complete and bt.complete and cp_.count != bt.count:
            raise AssertionError(f"{puzzle.name}: CP counts {cp_.count}, the brute force "
                                 f"{bt.count}")

        def shown(r):
            return f"{r.seconds:.1f}" + ("" if r.complete else " (limit hit)")

        def ratio(r):
            sign = "" if r.complete else ">= "
            return f"{sign}{r.seconds / cp_.seconds:.1f}x" if cp_.complete and cp_.seconds else ""

        rows.append([puzzle.name, cp_.count if cp_.complete else None, cp_.stats.nodes,
                     shown(cp_), bt.stats.nodes, shown(bt), shown(sat), ratio(bt), ratio(sat)])
    generated = "; ".join(
        f"gen_{side}_b{border}i{inner}_s{seed}: `cpkit generate edge-matching --size {side} "
        f"--border-colors {border} --inner-colors {inner} --seed {seed}`"
        for side, border, inner, seed in (QUICK if quick else GENERATED_HARD))
    return [Table(
        "Hardest instances: full CP engine against the brute force and CP-SAT (all solutions)",
        ["instance", "solutions", "CP nodes", "CP s", "brute-force nodes", "brute-force s",
         "CP-SAT s", "brute force / CP", "CP-SAT / CP"], rows,
        [f"Time limit {limit:.0f} s for CP and the brute force; CP-SAT gets 1.5 times CP's time "
         "(at least 60 s).  A ratio marked >= is a lower bound (the other engine hit its limit). "
         " E_7_*: Benoist's instances (the paper's); " + generated + "."
         + ("" if quick else "  The generated boards are those of seeds 0-24 (7x7, 6 frame "
            "and 6 inner colours) on which the brute force needed over a minute.")])]
