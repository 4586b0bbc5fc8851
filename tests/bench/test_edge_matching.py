"""The em suite's C reference searches the tree cpkit's brute force searches, so its node rate
compares directly with ours (a hintless board once gave it no corner to fix: 3.5x the nodes)."""

import pytest

from benchmarks.edge_matching import run_c_reference, search_seconds, with_symmetry_hint
from benchmarks.tiling import c_reference
from cpkit.io.edge_matching import read_edge_matching
from cpkit.engines.dispatch import solve
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


@pytest.mark.parametrize("text", ["abc", "0", "-3", "inf", "nan"])
def test_a_time_limit_that_is_not_a_positive_number_ends_the_suite_before_it_starts(
        text, monkeypatch, capsys, tmp_path):
    from benchmarks.__main__ import main

    monkeypatch.setenv("CPKIT_BENCH_EM_SECONDS", text)
    figures = tmp_path / "em-speed.json"
    assert main(["em-speed", "--quick", "--json", str(figures),
                 "--markdown", str(tmp_path / "benchmarks.md")]) == 2
    err = capsys.readouterr().err
    assert err == (f"benchmarks: error: CPKIT_BENCH_EM_SECONDS must be a positive number of "
                   f"seconds, got {text!r}\n")
    assert not figures.exists()


def test_the_time_limit_comes_from_the_environment_or_the_suite(monkeypatch):
    monkeypatch.delenv("CPKIT_BENCH_EM_SECONDS", raising=False)
    assert search_seconds(20) == 20.0
    monkeypatch.setenv("CPKIT_BENCH_EM_SECONDS", " 2.5 ")
    assert search_seconds(20) == 2.5
