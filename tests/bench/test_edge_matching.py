"""The em suite's C reference searches the tree cpkit's brute force searches, so its node rate
compares directly with ours (a hintless board once gave it no corner to fix: 3.5x the nodes)."""

import pytest

from cpkit.bench.edge_matching import run_c_reference, with_symmetry_hint
from cpkit.bench.tiling import c_reference
from cpkit.io.edge_matching import read_edge_matching
from cpkit.search import solve
from tests.conftest import EDGE_MATCHING


@pytest.fixture(scope="module")
def binary():
    built = c_reference("em_bt_ref")
    if built is None:
        pytest.skip("no C compiler: the C reference cannot be built")
    return built


@pytest.mark.parametrize("name", ["gen_6_b5i6_s2.txt", "gen_7_b6i7_s1.txt"])
def test_c_reference_makes_the_brute_force_nodes_on_hintless_boards(binary, name, tmp_path):
    path = EDGE_MATCHING / name
    puzzle = read_edge_matching(path)
    assert not puzzle.hints
    ours = solve(puzzle, engine="backtrack", count_only=True)
    c = run_c_reference(binary, with_symmetry_hint(puzzle, path, tmp_path), 60)
    assert c["complete"] == 1
    assert (int(c["solutions"]), int(c["nodes"])) == (ours.count, ours.stats.nodes)


def test_a_hinted_board_goes_to_the_c_reference_unchanged(tmp_path):
    path = EDGE_MATCHING / "gen_6_b5i6_s2.txt"
    hinted = with_symmetry_hint(read_edge_matching(path), path, tmp_path)
    assert with_symmetry_hint(read_edge_matching(hinted), hinted, tmp_path) == hinted
