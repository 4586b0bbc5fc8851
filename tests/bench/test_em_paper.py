"""The em-paper suite judges the hundredfold from runs that may hit their limit: a bound may only
decide the verdict when it points the right way."""

from types import SimpleNamespace

import pytest

from benchmarks.em_paper import BENOIST, paper_files, ratio_bound, solutions_text


@pytest.mark.parametrize("brute, brute_exact, nodes, nodes_exact, expected", [
    (1_000_000, True, 5_000, True, ("200.0", "yes")),
    (1_000_000, True, 20_000, True, ("50.0", "no")),
    # the brute force stopped early: its nodes only grow, so the ratio is a lower bound
    (1_000_000, False, 5_000, True, (">= 200.0", "yes")),
    (1_000_000, False, 20_000, True, (">= 50.0", "open")),
    # the other search stopped early: its nodes only grow, so the ratio is an upper bound
    (1_000_000, True, 20_000, False, ("<= 50.0", "no")),
    (1_000_000, True, 5_000, False, ("<= 200.0", "open")),
    (1_000_000, False, 5_000, False, ("", "open")),
    (1_000, True, 0, True, ("inf", "yes")),
    (1_000, True, 0, False, ("", "open")),
])
def test_a_ratio_bound_decides_only_what_it_can(brute, brute_exact, nodes, nodes_exact, expected):
    assert ratio_bound(brute, brute_exact, nodes, nodes_exact) == expected


@pytest.mark.skipif(not BENOIST.is_dir(),
                    reason="the paper's instances are missing (CPKIT_EM_BENCHMARKS)")
def test_all_48_paper_instances_are_found_in_board_then_number_order():
    labels = [label for label, _ in paper_files()]
    assert len(labels) == 48
    assert labels[:5] == ["E_7_1", "E_7_2", "E_7_3", "E_7_4", "E_8_1"]
    assert labels[5:7] == ["E_9_1", "E_9_2"] and labels[-1] == "E_10_26"
    assert [label for label, _ in paper_files(["E_10_7", "E_9_4"])] == ["E_9_4", "E_10_7"]


def _result(count, complete):
    return SimpleNamespace(count=count, complete=complete)


def test_the_solutions_shown_are_those_of_the_searches_that_finished():
    # the brute force stopped at 46 of E_7_4's 224; the CP engine finished
    assert solutions_text("E_7_4", [_result(46, False), _result(224, True)]) == "224"
    assert solutions_text("E_9_1", [_result(2, False), _result(0, False)]) == ">= 2"
    with pytest.raises(RuntimeError, match="E_7_1: the engines that finished disagree"):
        solutions_text("E_7_1", [_result(1, True), _result(2, True)])


def test_the_generated_suite_tallies_each_board_once_per_engine(monkeypatch):
    """``em-generated`` on one small board: every engine finishes, so every ratio is exact and
    its verdict is yes or no, and the solutions shown are the brute force's count."""
    import cpkit
    from benchmarks import em_paper
    from cpkit.models.em_generator import generate

    monkeypatch.setattr(em_paper, "MORE_GENERATED", [(5, 3, 5, 1)])
    monkeypatch.setenv("CPKIT_BENCH_EM_SECONDS", "60")
    table, tally = em_paper.generated_suite()
    (row,) = table.rows
    brute = cpkit.solve(generate(5, border_colours=3, inner_colours=5, seed=1),
                        engine="backtrack", count_only=True)
    assert row[:5] == ["gen_5_b3i5_s1", "5x5", "b3i5", f"{brute.count:,}",
                       f"{brute.stats.nodes:,}"]
    assert "(limit hit)" not in " ".join(row)
    assert [r[:3] for r in tally.rows] == [[name, "generated", 1] for name, _ in em_paper.CONFIGS]
    assert all(r[3] + r[4] == 1 and r[5] == 0 for r in tally.rows)
    assert "--size 5 --border-colors 3 --inner-colors 5 --seed 1" in table.notes[0]
