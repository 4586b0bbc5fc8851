from __future__ import annotations

import signal
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
TILING = ROOT / "instances" / "tiling"
EDGE_MATCHING = ROOT / "instances" / "edge_matching"

# A shell without job control starts its background commands (`bash .ci/run &`, `nohup ... &`)
# with SIGINT ignored, and every process they start inherits that: the tests that press Ctrl-C
# on a cpkit run then waited a minute for a run that never saw it.  A handler here (not SIG_IGN)
# is reset to the default in the processes the tests start, as it is under a terminal.
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)


@pytest.fixture
def tiling_instance():
    from cpkit.io.polycube import read_polycube

    def load(name: str):
        return read_polycube(TILING / name)[0]

    return load


@pytest.fixture
def em_instance():
    from cpkit.io.edge_matching import read_edge_matching

    def load(name: str):
        return read_edge_matching(EDGE_MATCHING / name)

    return load


def unsolvable_board():
    """A generated 5 x 5 board with one colour moved from the first inner tile to the second
    and one of the second's to the first (every colour count stays even): it has no solution,
    so a search's deepest node is a partial board (the brute force fills 22 cells at most)."""
    from cpkit.models.edge_matching import EdgeMatchingPuzzle
    from cpkit.models.em_generator import generate

    planted = generate(5, border_colours=3, inner_colours=4, seed=4)
    tiles = [list(t) for t in planted.tiles]
    a, b = [k for k, t in enumerate(tiles) if 0 not in t][:2]
    moved = tiles[a][0]
    side = next(s for s in range(4) if tiles[b][s] != moved)
    tiles[a][0], tiles[b][side] = tiles[b][side], moved
    return EdgeMatchingPuzzle(tiles, 5, n_colours=planted.n_colours, name="unsolvable_5")


from hypothesis import settings  # noqa: E402

# Deterministic examples (the same cases on every run and in CI) and no per-example deadline:
# the first example of a run may include numba compilation.
settings.register_profile("cpkit", derandomize=True, deadline=None, print_blob=True)
settings.load_profile("cpkit")
