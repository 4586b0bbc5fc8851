"""The public front door: ``cpkit.load``, and the options ``cpkit.solve`` refuses the same way
in one process and in split runs."""

from __future__ import annotations

import numpy as np
import pytest

import cpkit
from cpkit.errors import EngineUnavailable, InputError
from cpkit.io.dlx_format import read_dlx, write_dlx
from cpkit.io.polycube import read_polycube
from cpkit.models.exact_cover import ExactCover

from .conftest import EDGE_MATCHING, TILING

BOARD = EDGE_MATCHING / "gen_4_b2i3_s2.txt"


def test_a_dlx_file_loads_as_an_exact_cover_and_counts_as_cpkit_cover_does(tmp_path):
    path = tmp_path / "p20x3.dlx"
    with path.open("w") as out:
        write_dlx(read_polycube(TILING / "pentominoes_20x3.txt")[0].exact_cover(), out)
    cover = cpkit.load(path)
    assert isinstance(cover, ExactCover)
    assert cpkit.count(path) == cpkit.count(read_dlx(path)) == 8     # raw: 2 up to symmetry
    other = tmp_path / "p20x3.txt"
    other.write_text(path.read_text())
    assert isinstance(cpkit.load(other, format="dlx1"), ExactCover)


def test_index_picks_a_puzzle_of_a_multi_puzzle_file_and_nothing_else(tmp_path):
    text = (TILING / "pentominoes_20x3.txt").read_text() + (TILING / "somacube.txt").read_text()
    both = tmp_path / "two.txt"
    both.write_text(text)
    names = [cpkit.load(both, index=k).name for k in (0, 1)]
    assert names == [p.name for p in read_polycube(both)] and names[0] != names[1]
    for path, index, holds in ((both, 2, 2), (both, -1, 2), (BOARD, 1, 1)):
        with pytest.raises(InputError, match=f"holds {holds} puzzle"):
            cpkit.load(path, index=index)


def test_an_unknown_format_is_named():
    with pytest.raises(InputError, match="unknown file format 'dlx'.*dlx1"):
        cpkit.load(BOARD, format="dlx")


def _tiling():
    return read_polycube(TILING / "pentominoes_20x3.txt")[0]


@pytest.mark.parametrize("workers", [None, 2])
@pytest.mark.parametrize("model, engine, options", [
    (_tiling, "dlx", dict(keep=np.ones(3, dtype=bool))),
    (_tiling, "auto", dict(engine_name="dlx")),
    (_tiling, "auto", dict(on_images=print)),
    (_tiling, "dlx", dict(heuristik="s")),
    (lambda: cpkit.load(BOARD), "cp", dict(roots=[])),
    (lambda: _tiling().exact_cover(), "dlx", dict(heuristik="s")),
])
def test_options_the_front_sets_or_no_one_takes_are_refused_by_name(model, engine, options,
                                                                   workers):
    """A split run refuses them as one process does (its preparation failed with Python's
    TypeError on any of them, and a keyword the front passes itself clashed in one process)."""
    with pytest.raises(EngineUnavailable, match=f"takes no option '{next(iter(options))}'"):
        cpkit.solve(model(), engine=engine, workers=workers, **options)


@pytest.mark.parametrize("workers", [None, 2])
@pytest.mark.parametrize("model", [_tiling, lambda: cpkit.load(BOARD)])
def test_count_only_with_on_solution_is_refused(model, workers):
    """Edge matching streamed solutions then, tilings and split runs dropped them."""
    with pytest.raises(InputError, match="count_only keeps no solution"):
        cpkit.solve(model(), count_only=True, on_solution=print, workers=workers)


def test_estimate_brackets_the_count_and_is_what_monte_carlo_prints():
    """Knuth's estimate of the 10 x 6's DLX tree (its leaves: the 2,339 tilings up to rotation;
    probes end when 8 pieces remain and search the rest) is within four standard errors of the
    count, and ``--monte-carlo --json`` prints the same figures for the same seed."""
    import json
    import subprocess
    import sys

    path = TILING / "pentominoes_10x6.txt"
    est = cpkit.estimate(path, engine="dlx", probes=300, seed=3, remaining=8)
    assert est.probes == 300 and est.stop_reason == "complete" and est.solutions_error > 0
    assert abs(est.solutions - 2339) <= 4 * est.solutions_error
    out = subprocess.run([sys.executable, "-m", "cpkit", "tile", str(path), "--engine", "dlx",
                          "--monte-carlo", "300", "--mc-seed", "3", "--mc-remaining", "8", "--json"],
                         capture_output=True, text=True, check=True).stdout
    timed = ("probe_seconds", "nodes_per_s", "estimated_seconds")    # measured, so differ
    printed = json.loads(out.splitlines()[-1])
    assert {k: v for k, v in printed.items() if k not in timed} == \
        {k: v for k, v in est.summary().items() if k not in timed}
    assert set(printed) == set(est.summary())


def test_estimate_refuses_an_engine_without_a_tree():

    board = EDGE_MATCHING / "gen_4_b2i3_s2.txt"
    with pytest.raises(EngineUnavailable, match="cpsat engine has none"):
        cpkit.estimate(board, engine="cpsat", probes=5)
    with pytest.raises(InputError, match="one engine's tree"):
        cpkit.estimate(board, probes=5)
    with pytest.raises(InputError, match="probes must be at least 1"):
        cpkit.estimate(board, engine="cp", probes=0)
