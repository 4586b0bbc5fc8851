"""The tiling cost model's prices fitted to measured searches (a tool, not a suite).

``python -m benchmarks.tiling_prices OUT``: searches each configuration of ``RUNS`` (a bundled
puzzle, one of its orientations as ``--engine auto`` lists them, a switch and FILA's letters per
level), cut at ``LIMIT`` seconds, twice with hand-overs from Python and twice by the compiled
loop (the faster of each pair kept), in this process with the kernels loaded; measures DLX alone
on three puzzles; then fits the prices of ``tiling_cost_model.Prices`` by non-negative least
squares, weighted by relative error, and prints them with each search's measured and predicted
seconds under the fitted prices and under those in use.  The figures go to ``OUT`` (JSON);
``python -m benchmarks.tiling_prices --fit OUT`` fits them again without searching.

The figures of a search come from its result: attempts and fits per level (``stats``), the
heuristic's fit checks, hand-overs and list entries; the nodes where E or S chose a target are
the fits one level up (or the hand-overs, at the switch).  Searches under 5 ms are left out of
the fit (their time is mostly fixed costs).  DLX's price is taken from DLX alone: the hybrid's
searches make too few DLX placements to tell it from the hand-overs'.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np

#: (file, orientation index, switch, letters from the switch down).
RUNS: tuple[tuple[str, int, int, str], ...] = (
    ("pentominoes_10x6.txt", 0, 11, "f" * 11), ("pentominoes_10x6.txt", 1, 11, "f" * 11),
    ("pentominoes_10x6.txt", 0, 10, "f" * 10), ("pentominoes_10x6.txt", 0, 9, "f" * 9),
    ("pentominoes_10x6.txt", 0, 11, "e" * 8 + "fff"),
    ("pentominoes_12x5.txt", 0, 11, "f" * 11), ("pentominoes_12x5.txt", 1, 11, "f" * 11),
    ("pentominoes_15x4.txt", 0, 11, "f" * 11), ("pentominoes_20x3.txt", 1, 11, "f" * 11),
    ("pentominoes_onesided_30x3.txt", 0, 12, "f" * 12),
    ("pentominoes_onesided_30x3.txt", 2, 12, "f" * 12),
    ("pentominoes_onesided_30x3.txt", 0, 11, "f" * 11),
    ("pentominoes_8x8_centre_hole.txt", 0, 11, "e" * 8 + "fff"),
    ("pentominoes_8x8_centre_hole.txt", 0, 11, "f" * 11),
    ("pentominoes_2x3x10.txt", 0, 11, "f" * 11),
    ("pentominoes_2x3x10.txt", 2, 11, "e" * 8 + "fff"),
    ("pentominoes_2x5x6.txt", 0, 11, "f" * 11), ("pentominoes_2x5x6.txt", 0, 11, "e" * 8 + "fff"),
    ("pentominoes_2x5x6.txt", 3, 11, "ss" + "f" * 9),
    ("pentominoes_3x4x5.txt", 0, 10, "e" * 7 + "fff"), ("pentominoes_3x4x5.txt", 0, 10, "f" * 10),
    ("pentominoes_3x4x5.txt", 0, 11, "sss" + "f" * 8),
    ("pentominoes_3x4x5.txt", 0, 9, "e" * 7 + "ff"),
    ("somacube.txt", 0, 6, "f" * 6), ("somacube.txt", 0, 6, "eeefff"),
    ("tetriscube.txt", 0, 10, "e" * 7 + "fff"), ("tetriscube.txt", 0, 10, "f" * 10),
    ("tetriscube.txt", 0, 9, "e" * 6 + "fff"),
    ("bedlamcube.txt", 0, 11, "e" * 8 + "fff"), ("bedlamcube.txt", 0, 11, "ssss" + "f" * 7),
    ("pentominoes_square_8x8.txt", 0, 12, "e" * 9 + "fff"),
    ("pentominoes_square_8x8.txt", 0, 12, "f" * 12),
    ("pentominoes_l_2x4x8.txt", 0, 11, "f" * 11),
    ("pentominoes_l_2x4x8.txt", 0, 11, "ss" + "f" * 9),
    ("pentominoes_l_2x4x8.txt", 0, 10, "f" * 10),
)
#: Puzzles DLX searches alone, for its price per placement.
DLX_ALONE = ("pentominoes_10x6.txt", "pentominoes_2x3x10.txt", "tetriscube.txt")
#: Seconds a search runs at most.
LIMIT = 3.0
#: Searches shorter than this are left out of the fit.
SHORTEST = 0.005
#: The fitted columns, in the order of ``Prices``' fields (hand-overs from Python and by the
#: loop apart; DLX's placements priced from DLX alone).
COLUMNS = ("attempts", "fits", "checks", "e_nodes", "s_nodes", "python_handovers",
           "looped_handovers", "list_entries")


def figures(result, fila_at: int, letters: str) -> dict[str, int]:
    """The operations a hybrid search made (see the module docstring)."""
    fits, attempts = result.stats.fits_by_remaining, result.stats.attempts_by_remaining
    extra = result.stats.extra
    handovers = extra["fila_subproblems"]
    chose = {"e": 0, "s": 0, "f": 0}
    for level, letter in enumerate(letters):
        remaining = fila_at - level
        chose[letter] += handovers if remaining == fila_at else fits[remaining + 1]
    return {"attempts": sum(attempts[1:fila_at + 1]), "fits": sum(fits[1:fila_at + 1]),
            "checks": extra.get("heuristic_checks", 0), "e_nodes": chose["e"],
            "s_nodes": chose["s"], "dlx_fits": sum(fits[fila_at + 1:]),
            "handovers": handovers, "list_entries": extra.get("list_entries", 0)}


def measure() -> dict:
    """Every search of ``RUNS`` both ways, and DLX alone."""
    from cpkit.engines.dispatch import solve
    from cpkit.engines.tiling.auto.tiling_schedules import schedule_of
    from cpkit.engines.tiling.auto.tiling_candidates import candidates
    from cpkit.engines.tiling.fila import fila_search as fila
    from cpkit.engines.tiling.hybrid import hybrid_fused, hybrid_search
    from cpkit.io.polycube import read_polycube

    from .tiling import INSTANCES

    for words in range(1, fila.MAX_WORDS + 1):
        hybrid_search.loop_jit_seconds(words)          # loaded: the loop from the first
    rows = []
    for name, k, fila_at, letters in RUNS:
        puzzle = candidates(read_polycube(INSTANCES / name)[0])[k].puzzle
        for looped in (False, True):
            hybrid_fused.ENABLED = looped
            best = min((solve(puzzle, engine="hybrid", heuristic=schedule_of(fila_at, letters),
                              fila_at=fila_at, count_only=True, time_limit=LIMIT)
                        for _ in range(2)), key=lambda r: r.seconds)
            row = {"puzzle": name, "orientation": k, "fila_at": fila_at, "letters": letters,
                   "looped": looped, "seconds": best.seconds, **figures(best, fila_at, letters)}
            print(json.dumps(row), flush=True)
            rows.append(row)
    hybrid_fused.ENABLED = True
    dlx = []
    for name in DLX_ALONE:
        puzzle = candidates(read_polycube(INSTANCES / name)[0])[0].puzzle
        best = min((solve(puzzle, engine="dlx", count_only=True, time_limit=LIMIT)
                    for _ in range(2)), key=lambda r: r.seconds)
        dlx.append({"puzzle": name, "seconds": best.seconds, "nodes": best.stats.nodes})
        print(json.dumps(dlx[-1]), flush=True)
    return {"searches": rows, "dlx_alone": dlx}


def dlx_price(dlx: list[dict]) -> float:
    """Seconds per placement of DLX alone: the median over the puzzles measured."""
    return float(np.median([d["seconds"] / d["nodes"] for d in dlx]))


def design(rows: list[dict]) -> np.ndarray:
    """The operations of each search, one column per fitted price (``COLUMNS``)."""
    out = np.zeros((len(rows), len(COLUMNS)))
    for i, r in enumerate(rows):
        values = dict(r, python_handovers=0 if r["looped"] else r["handovers"],
                      looped_handovers=r["handovers"] if r["looped"] else 0)
        out[i] = [values[c] for c in COLUMNS]
    return out


def fit(rows: list[dict], dlx_fit: float) -> np.ndarray:
    """The prices of ``COLUMNS`` (seconds per operation) that fit the searches' seconds, less
    their DLX placements at ``dlx_fit``, by non-negative least squares on relative errors."""
    from scipy.optimize import nnls

    seconds = np.array([r["seconds"] for r in rows])
    rest = seconds - dlx_seconds(rows, dlx_fit)
    kept = seconds >= SHORTEST
    weight = 1.0 / seconds[kept]
    prices, _ = nnls(design(rows)[kept] * weight[:, None], rest[kept] * weight)
    return prices


def dlx_seconds(rows: list[dict], dlx_fit: float) -> np.ndarray:
    """Each search's DLX placements at ``dlx_fit`` seconds each."""
    return dlx_fit * np.array([r["dlx_fits"] for r in rows])


def predicted(rows: list[dict], prices: np.ndarray, dlx_fit: float) -> np.ndarray:
    return design(rows) @ prices + dlx_seconds(rows, dlx_fit)


def in_use(rows: list[dict]) -> np.ndarray:
    """The seconds the prices in use give (``tiling_cost_model``, as the choice prices)."""
    from cpkit.engines.tiling.auto import tiling_cost_model as cost_model
    from cpkit.engines.tiling.fila import fila_probe_kernel as P

    out = []
    for r in rows:
        work = np.zeros(P.N_FIGURES)
        for column, key in ((P.W_ATTEMPTS, "attempts"), (P.W_FITS, "fits"),
                            (P.W_CHECKS, "checks"), (P.W_E_NODES, "e_nodes"),
                            (P.W_S_NODES, "s_nodes")):
            work[column] = r[key]
        out.append(cost_model.fila_seconds(work) + cost_model.handover_seconds(
            r["dlx_fits"], r["handovers"], r["list_entries"]))
    return np.array(out)


def report(data: dict) -> None:
    rows = data["searches"]
    dlx_fit = dlx_price(data["dlx_alone"])
    prices = fit(rows, dlx_fit)
    print(f"dlx_fit: {dlx_fit * 1e9:.1f} ns (DLX alone)")
    for column, price in zip(COLUMNS, prices):
        print(f"{column}: {price * 1e9:.2f} ns")
    seconds = np.array([r["seconds"] for r in rows])
    new, old = predicted(rows, prices, dlx_fit), in_use(rows)
    for r, s, a, b in zip(rows, seconds, new, old):
        print(f"{r['puzzle']} #{r['orientation']} at {r['fila_at']} {r['letters']} "
              f"{'loop' if r['looped'] else 'python'}: {s:.3f} s, fitted {a / s:.2f}, "
              f"in use {b / s:.2f}")
    kept = seconds >= SHORTEST
    for label, p in (("fitted", new), ("in use", old)):
        err = np.abs(p[kept] / seconds[kept] - 1)
        print(f"{label}: relative error at most {err.max():.2f}, median {np.median(err):.2f}")


def main(argv: list[str]) -> None:
    if argv[:1] == ["--fit"]:
        report(json.loads(Path(argv[1]).read_text()))
        return
    data = measure()
    Path(argv[0]).write_text(json.dumps(data, indent=1))
    report(data)


if __name__ == "__main__":
    main(sys.argv[1:])
