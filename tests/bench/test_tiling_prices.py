"""The tool that fits the tiling cost model's prices (``benchmarks.tiling_prices``)."""

from __future__ import annotations

import numpy as np

from benchmarks import tiling_prices as tp
from cpkit.engines.dispatch import solve


def test_the_fit_recovers_the_prices_the_seconds_were_made_with():
    rng = np.random.default_rng(3)
    true = np.array([5e-9, 15e-9, 9e-9, 70e-9, 110e-9, 57e-6, 20e-6, 22e-9])
    rows = []
    for i in range(40):
        counts = rng.integers(10**3, 10**8, size=len(tp.COLUMNS) + 1)
        looped = bool(i % 2)
        rows.append({"attempts": int(counts[0]), "fits": int(counts[1]),
                     "checks": int(counts[2]) * (i % 3 > 0),
                     "e_nodes": int(counts[3]) * (i % 3 == 1),
                     "s_nodes": int(counts[4]) * (i % 3 == 2),
                     "handovers": int(counts[5]) // 1000, "looped": looped,
                     "list_entries": int(counts[6]), "dlx_fits": int(counts[7]) // 1000})
    dlx_fit = 2.4e-6
    for r in rows:
        r["seconds"] = float(tp.design([r])[0] @ true + dlx_fit * r["dlx_fits"])
    assert np.allclose(tp.fit(rows, dlx_fit), true, rtol=1e-6)
    assert np.allclose(tp.predicted(rows, true, dlx_fit), [r["seconds"] for r in rows])


def test_a_searchs_figures_split_its_placements_between_dlx_and_fila(tiling_instance):
    puzzle = tiling_instance("somacube.txt")
    result = solve(puzzle, engine="hybrid", heuristic="s:e=6:f=3", fila_at=6, count_only=True)
    f = tp.figures(result, 6, "eeefff")
    assert f["fits"] + f["dlx_fits"] == result.stats.nodes
    assert f["e_nodes"] > f["handovers"] > 0 and f["s_nodes"] == 0
    assert f["attempts"] >= f["fits"]
