from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
TILING = ROOT / "instances" / "tiling"
EDGE_MATCHING = ROOT / "instances" / "edge_matching"


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


from hypothesis import settings  # noqa: E402

# Deterministic examples (the same cases on every run and in CI) and no per-example deadline:
# the first example of a run may include numba compilation.
settings.register_profile("cpkit", derandomize=True, deadline=None, print_blob=True)
settings.load_profile("cpkit")
