"""The ``tiling-fila`` suite: the FILA paper's Table 1 configurations, FILA against a plain C
dancing-links program, and where FILA's time goes."""

from __future__ import annotations

from typing import Any

from . import Table, progress
from .tiling import _puzzle, c_reference, cold_jit_seconds, run_c_reference

# FILA Table 1 (seed 000; polycube 2.0 on a 2.9 GHz i3, one thread): row -> (fits, no-fits,
# seconds).  Seconds are whole-program run times.
SEED_TABLE_1 = {
    "P1": (892_247, 0, 2.082), "P2": (768_356, 0, 1.754), "P3": (1_000_250, 0, 2.050),
    "P4": (2_091_215, 13_106_789, 0.168), "P5": (2_091_215, 4_682_886, 0.157),
    "TC1": (30_255_329, 0, 112.951), "TC2": (48_705_459, 1_093_916_558, 22.206),
    "TC3": (80_346_268, 1_526_897_959, 19.945), "TC4": (80_346_268, 393_143_352, 17.007),
    "PT1": (207_341_751, 0, 645.529), "PT2": (78_145_746, 0, 182.362),
    "PT3": (153_069_413, 1_094_305_862, 70.218), "PT4": (185_469_244, 1_203_943_050, 67.707),
    "PT5": (185_469_244, 291_191_337, 60.625),
}

_OFF = dict(volume_filter=False, parity_filter=False)

# Our configuration of each row: (puzzle, polycube command-line options, engine, options).
# -r: redundancy filter (automatic piece; L for the Tetris Cube, as in the seed), -V: volume
# filter once (-V13: re-applied while 13 pieces remain), -o: heuristic schedule, -f N: FILA
# when N pieces remain, -n: NOF.
TABLE_1 = [
    ("P1", "pentominoes_10x6.txt", "-r", "dlx", dict(_OFF)),
    ("P2", "pentominoes_10x6.txt", "-r -V", "dlx",
     dict(volume_filter=True, parity_filter=False)),
    ("P3", "pentominoes_10x6.txt", "-r -V -of=11", "dlx",
     dict(volume_filter=True, parity_filter=False, heuristic="s:f=11")),
    ("P4", "pentominoes_10x6.txt", "-r -V -of=11 -f11", "hybrid",
     dict(volume_filter=True, parity_filter=False, heuristic="s:f=11", fila_at=11, nof=False)),
    ("P5", "pentominoes_10x6.txt", "-r -V -of=11 -f11 -n", "hybrid",
     dict(volume_filter=True, parity_filter=False, heuristic="s:f=11", fila_at=11, nof=True)),
    ("TC1", "tetriscube.txt", "-rL", "dlx", dict(_OFF, redundancy="L")),
    ("TC2", "tetriscube.txt", "-rL -f11 -oe=11", "hybrid",
     dict(_OFF, redundancy="L", heuristic="s:e=11", fila_at=11, nof=False)),
    ("TC3", "tetriscube.txt", "-rL -f11 -oe=11:f=3", "hybrid",
     dict(_OFF, redundancy="L", heuristic="s:e=11:f=3", fila_at=11, nof=False)),
    ("TC4", "tetriscube.txt", "-rL -f11 -oe=11:f=3 -n", "hybrid",
     dict(_OFF, redundancy="L", heuristic="s:e=11:f=3", fila_at=11, nof=True)),
    ("PT1", "pt12_diamond.txt", "-r", "dlx", dict(_OFF)),
    ("PT2", "pt12_diamond.txt", "-r -V13", "dlx", dict(volume_filter=13, parity_filter=False)),
    ("PT3", "pt12_diamond.txt", "-r -V13 -f13 -oe=13", "hybrid",
     dict(volume_filter=13, parity_filter=False, heuristic="s:e=13", fila_at=13, nof=False)),
    ("PT4", "pt12_diamond.txt", "-r -V13 -f13 -oe=13:f=3", "hybrid",
     dict(volume_filter=13, parity_filter=False, heuristic="s:e=13:f=3", fila_at=13, nof=False)),
    ("PT5", "pt12_diamond.txt", "-r -V13 -f13 -oe=13:f=3 -n", "hybrid",
     dict(volume_filter=13, parity_filter=False, heuristic="s:e=13:f=3", fila_at=13, nof=True)),
]
QUICK_ROWS = ("P1", "P2", "P3", "P4", "P5")
#: PT1 (DLX alone on the diamond) takes many minutes; it runs only when asked for by name.
SLOW_ROWS = ("PT1",)

# Table 2 of the polycube 1.x paper (seed 001, 2.5 GHz P4): DLX min-fit, then de Bruijn's
# algorithm (our FILA with F, no NOF).  row -> (puzzle, options, attempts, fits, seconds).
SEED_TABLE_2 = [
    ("P-13", "pentominoes_10x6.txt",
     dict(volume_filter=True, parity_filter=False, heuristic="s:f=11", fila_at=11, nof=False),
     15_198_004, 2_091_215, 0.510),
    ("OP-1", "pentominoes_onesided_30x3.txt",
     dict(_OFF, heuristic="s:f=12", fila_at=12, nof=False), 38_479_316, 7_060_175, 3.611),
    ("OP-2", "pentominoes_onesided_30x3.txt",
     dict(volume_filter=True, parity_filter=False, heuristic="s:f=12", fila_at=12, nof=False),
     1_930_304, 668_117, 0.411),
]


def _solve(name: str, engine: str, options: dict[str, Any], **more: Any):
    from cpkit.engines.dispatch import solve

    shown = ", ".join(f"{k}={v}" for k, v in {**options, **more}.items())
    progress(f"{name}, {engine}{' ' + shown if shown else ''}")
    return solve(_puzzle(name), engine=engine, count_only=True, **options, **more)


def table_1(quick: bool) -> Table:
    rows = []
    for label, name, polycube, engine, options in TABLE_1:
        if (quick and label not in QUICK_ROWS) or label in SLOW_ROWS:
            continue
        r = _solve(name, engine, options)
        seed = SEED_TABLE_1[label]
        rows.append([label, polycube, f"{r.engine} {r.options.get('heuristic', '')}".strip(),
                     r.stats.extra.get("constrained_piece") or "-", r.count, r.stats.fits,
                     r.stats.no_fits, r.seconds, r.jit_seconds, seed[0], seed[1], seed[2]])
    return Table(
        "FILA Table 1 configurations (counts up to rotation)",
        ["row", "polycube options", "cpkit engine and schedule", "piece", "solutions", "fits",
         "no-fits", "search s", "jit s", "seed fits", "seed no-fits", "seed s"],
        rows,
        ["Seed times are polycube 2.0's whole-program run times on a 2.9 GHz i3 (one thread); "
         "ours are search seconds on the machine above (JIT apart).  P1-P5 reproduce the seed's "
         "search exactly (same cell numbering, same X images, same trees).  For the Tetris Cube "
         "our redundancy filter keeps, per orbit of L's images, the one with the smallest cell "
         "numbers while polycube fixes one orientation, so the trees (and fits) differ a little. "
         " PT1 (DLX alone on the diamond, minutes) is left out."])


def speed_tables(quick: bool) -> list[Table]:
    """FILA against the plain C DLX on the raw 10x6 matrix, and our best configurations against
    polycube 2.0's published times."""
    from cpkit.engines.tiling.fila import fila_search as fila

    raw = _puzzle("pentominoes_20x3.txt" if quick else "pentominoes_10x6.txt")
    binary = c_reference()
    rows = []
    c = run_c_reference(binary, raw.exact_cover()) if binary else None
    for nof in (True, False):
        r = fila.solve_tiling(raw, heuristic="f", nof=nof, count_only=True)
        rows.append([raw.name, f"cpkit FILA, F, NOF {'on' if nof else 'off'}", r.count,
                     r.stats.fits, r.stats.no_fits, r.seconds,
                     r.seconds / c["seconds"] if c else None])
    if c:
        rows.append([raw.name, "plain C dlx (benchmarks/dlx_ref.c)", int(c["solutions"]),
                     int(c["nodes"]), 0, c["seconds"], 1.0])
    first = Table(
        "FILA against plain C dancing links, raw counts (every image, no filters)",
        ["puzzle", "program", "solutions", "fits", "no-fits", "search s", "time / C dlx"],
        rows,
        ["Both search the same exact-cover matrix (all bounded images), measured in this run; "
         "the target is a ratio of at most 0.2.  FILA with F is de Bruijn's search: its fits "
         "and attempts equal the seed's Table 2 row P-4."])
    best = []
    targets = [("pentominoes_20x3.txt", 2, None)] if quick else \
        [("pentominoes_10x6.txt", 2339, 0.157), ("tetriscube.txt", 9839, 17.007)]
    for name, count, published in targets:
        options = dict(redundancy="L") if name == "tetriscube.txt" else {}
        r = _solve(name, "auto", options)
        best.append([r.name, f"{r.engine} {r.options.get('heuristic')}, NOF "
                             f"{'on' if r.options.get('nof') else 'off'}", r.count, r.stats.fits,
                     r.stats.no_fits, r.seconds, r.stats.fits / max(r.seconds, 1e-9),
                     published, r.seconds / published if published else None])
    second = Table(
        "Our default configuration (--engine auto) against polycube 2.0's best published times",
        ["puzzle", "configuration", "solutions", "fits", "no-fits", "search s", "fits / s",
         "polycube 2.0 s", "time / polycube"],
        best,
        ["polycube 2.0's times are its best published configurations (FILA Table 1, P5 and "
         "TC4) on a 2.9 GHz i3, whole-program run time; the goal is a ratio below 1 on this "
         "machine.  Counts are up to rotation; the Tetris Cube constrains L (Westen's piece), "
         "as the seed does."])
    return [first, second]


def profile_table(quick: bool) -> Table:
    """Where the time goes: per level of the P5 and TC4 searches, as the seed's Tables 3 and 5
    (attempts, fits and no-fits per target = per level / fits at the level above)."""
    rows = []
    plan = [("P5", "pentominoes_10x6.txt", TABLE_1[4][4])]
    if not quick:
        plan.append(("TC4", "tetriscube.txt", TABLE_1[8][4]))
    for label, name, options in plan:
        r = _solve(name, "hybrid", options)
        att, fit = r.stats.attempts_by_remaining, r.stats.fits_by_remaining
        top = len(fit) - 1
        for n in range(top, 0, -1):
            targets = 1 if n == top else fit[n + 1]
            rows.append([label, n, att[n], fit[n], att[n] - fit[n],
                         att[n] / targets if targets else None,
                         fit[n] / targets if targets else None,
                         (att[n] - fit[n]) / targets if targets else None])
        rows.append([label, "total", r.stats.attempts, r.stats.fits, r.stats.no_fits,
                     f"{r.stats.fits / max(r.seconds, 1e-9) / 1e6:.1f} M fits/s",
                     f"{r.stats.attempts / max(r.seconds, 1e-9) / 1e6:.1f} M attempts/s",
                     f"{r.stats.extra.get('heuristic_checks', 0):,} E-heuristic fit checks"])
    return Table(
        "Where the time goes: statistics per number of pieces remaining (P5, TC4)",
        ["row", "pieces left", "attempts", "fits", "no-fits", "attempts / target",
         "fits / target", "no-fits / target"],
        rows,
        ["Targets at a level are the fits of the level above (one at the top).  P5's figures "
         "are the seed's Table 3 exactly.  The E heuristic's own fit checks (counting fits at "
         "candidate cells) are not attempts; they are counted apart in the total line."])


def table_2(quick: bool) -> Table:
    rows = []
    for label, name, options, attempts, fits, seconds in SEED_TABLE_2:
        if quick and label != "P-13":
            continue
        r = _solve(name, "hybrid", options)
        rows.append([label, r.name, r.options.get("heuristic"),
                     r.stats.extra.get("constrained_piece") or "-", r.count, r.stats.attempts,
                     r.stats.fits, r.seconds, attempts, fits, seconds])
    return Table(
        "Busche's Table 2 rows with DLX then de Bruijn (FILA with F, no NOF)",
        ["row", "puzzle", "schedule", "piece", "solutions", "attempts", "fits", "search s",
         "seed attempts", "seed fits", "seed s"],
        rows,
        ["P-13 is P4 under another name and reproduces exactly.  OP-1/OP-2 (one-sided 30x3, "
         "DLX until 12 pieces remain, with the volume filter for OP-2) do not: the seed does "
         "not say which piece its redundancy filter constrained, and polycube 1.x's DLX broke "
         "min-fit ties in its own column order, so the DLX levels (and the subproblems handed "
         "over) differ; the counts agree."])


def fila_suite(quick: bool = False) -> list[Table]:
    tables = [table_1(quick)] + speed_tables(quick) + [profile_table(quick), table_2(quick)]
    jit = cold_jit_seconds("cpkit.engines.tiling.fila.fila_search")
    tables[0].notes.append(f"Compiling the FILA kernels (one-word occupancy) from an empty "
                           f"numba cache took {jit:.2f} s; `jit s` is loading them from the "
                           f"cache in this process.")
    return tables
