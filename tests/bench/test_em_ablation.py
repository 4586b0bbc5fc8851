"""The section 6.2 study (`python -m benchmarks em-ablation --quick`): every configuration counts
the same solutions (the suite raises otherwise), and its rows measure what their labels say."""

from benchmarks.em_ablation import VARIANTS, ablation_suite


def test_the_quick_study_runs_every_configuration_on_the_same_counts():
    ablation, heuristics = ablation_suite(quick=True)
    labels = [row[0] for row in ablation.rows]
    assert labels == ["full engine (default)"] + [label for label, _, _ in VARIANTS]
    by_label = {row[0]: row for row in ablation.rows}
    full_nodes = by_label["full engine (default)"][1]
    for label, options, _ in VARIANTS:
        nodes, trials = by_label[label][1], by_label[label][2]
        if "shave" in options:
            assert trials > 0 and nodes < full_nodes, label
        else:
            assert trials == 0, label
    # A forced placement becomes a branching node without the instantiation rule.
    assert by_label["instantiation rule off"][1] > full_nodes
    gap = next(row for row in heuristics.rows if row[0] == "min-expected-gap")
    assert gap[1] == full_nodes
