"""Planning a split run (``cpkit.parallel.plan``) on trees Knuth's estimator cannot size in a
float, and on trees whose probes are slow: the plan still comes out, in bounded time."""

from __future__ import annotations

import math
import time

from cpkit.parallel import plan
from cpkit.parallel.protocol import Probe

#: A 16 x 16 board's walk: 256 levels of 30 candidates, 30**256 ~ 1e378 nodes.
HUGE = [30] * 256


class FakeTree:
    """Probes that take ``seconds`` each and walk the degrees ``degrees``."""

    max_depth = len(HUGE)

    def __init__(self, degrees: list[int], seconds: float = 0.0, count: int = 0):
        self.degrees, self.seconds, self.count = degrees, seconds, count
        self.probes = 0

    def probe(self, path, rand, stop_depth=None, cancel=None) -> Probe:
        self.probes += 1
        if self.seconds:
            time.sleep(self.seconds)
        return Probe(list(self.degrees), count=self.count)


def test_a_walk_past_the_float_range_estimates_infinity_not_nan():
    nodes, solutions = Probe(HUGE).estimate()
    assert nodes == math.inf and solutions == 0.0
    assert Probe(HUGE + [0]).estimate() == (math.inf, 0.0)      # a dead end below
    assert Probe(HUGE, count=1).estimate() == (math.inf, math.inf)
    assert Probe([2, 3], nodes=5, count=1).estimate() == (2 + 6 + 6 * 5, 6)


def test_an_infinite_estimate_plans_the_most_subproblems():
    est = plan.estimate(FakeTree(HUGE), [], 10)
    assert est.nodes == math.inf and est.nodes_error == math.inf
    assert est.solutions == 0.0 and not math.isnan(est.solutions_error)
    target, nodes = plan.subproblem_target(FakeTree(HUGE), 2)
    assert target == plan.MAX_SUBPROBLEMS and nodes == math.inf


def test_a_small_tree_still_gets_enough_subproblems_per_worker():
    target, nodes = plan.subproblem_target(FakeTree([2, 2, 2]), 2)
    assert nodes == 2 + 4 + 8 and target == 2 * plan.MIN_PER_WORKER


def test_estimates_stop_probing_when_their_time_is_up():
    tree = FakeTree([2, 2], seconds=0.02)
    est = plan.estimate(tree, [], 1000, seconds=0.1)
    assert 2 <= est.probes == tree.probes < 20 and est.nodes == 6.0
    assert plan.estimate(FakeTree([2, 2], seconds=0.02), [], 2, seconds=0.0).probes == 2


def test_subproblem_sizes_fill_the_unprobed_paths_with_the_mean():
    tree = FakeTree([3], seconds=0.02)
    paths = [[k] for k in range(500)]
    sizes = plan.subproblem_sizes(tree, paths, seconds=0.1)
    assert len(sizes) == 500 and sizes == [3.0] * 500
    assert tree.probes < 100            # not 500 paths times the probes each affords


def test_a_cancelled_estimate_keeps_the_walks_made_before_and_drops_the_one_cut_short():
    tree = FakeTree([2, 3])
    est = plan.estimate(tree, [], 100, cancel=lambda: tree.probes >= 3)
    assert tree.probes == 3 and est.probes == 2           # the third walk ended after the cut
    assert est.nodes == 2 + 6 and est.nodes_error == 0.0
    assert plan.estimate(FakeTree([2]), [], 100, cancel=lambda: True).probes == 0


class EndlessWalks(FakeTree):
    """Walks that never end unless cancelled (a 16 x 16 board shaved at every node: one walk
    takes minutes), asking ``cancel`` every 10 ms as the trees do between levels."""

    def probe(self, path, rand, stop_depth=None, cancel=None) -> Probe | None:
        self.probes += 1
        while not (cancel is not None and cancel()):
            time.sleep(0.01)
        return None


def test_planning_a_tree_whose_walks_never_end_stops_on_time_and_on_cancel():
    began = time.perf_counter()
    target, nodes = plan.subproblem_target(EndlessWalks([2]), 2, seconds=0.1)
    assert time.perf_counter() - began < 2
    assert target == 2 * plan.MIN_PER_WORKER and math.isnan(nodes)
    began = time.perf_counter()
    target, _ = plan.subproblem_target(EndlessWalks([2]), 2, seconds=1000,
                                       cancel=lambda: time.perf_counter() - began > 0.2)
    assert time.perf_counter() - began < 2 and target == 2 * plan.MIN_PER_WORKER
    began = time.perf_counter()
    sizes = plan.subproblem_sizes(EndlessWalks([2]), [[0], [1], [2]], seconds=0.1)
    assert time.perf_counter() - began < 2 and sizes == [1.0, 1.0, 1.0]


def test_the_node_rate_is_timed_on_the_exhaustive_parts_only():
    class HalfSearched(FakeTree):
        """Every other walk reaches the exhaustive part: 50 nodes in 1 ms; walking takes 10."""

        def probe(self, path, rand, stop_depth=None, cancel=None) -> Probe:
            self.probes += 1
            time.sleep(0.01)
            if self.probes % 2:
                return Probe([2])
            return Probe([2], nodes=50, seconds=0.001)

    est = plan.estimate(HalfSearched([2]), [], 10)
    assert est.exhaustive_parts == 5 and est.exhaustive_nodes == 250
    assert math.isclose(est.exhaustive_seconds, 0.005) and est.seconds >= 0.1


class LayeredTree:
    """A tree whose frontier at depth d holds ``sizes[d - 1]`` open nodes (a 16 x 16 board's
    under the cp engine: 3, 6, 42, 363, 2,064, 11,868, 87,449)."""

    def __init__(self, sizes: list[int]):
        self.sizes = sizes
        self.max_depth = len(sizes)
        self.searched: list[int] = []       # the open nodes each frontier search met

    def frontier(self, depth, store, cancel=None, max_paths=None):
        from cpkit.parallel.protocol import Frontier, Part

        size = self.sizes[depth - 1]
        met = size if max_paths is None else min(size, max_paths + 1)
        self.searched.append(met)
        return Frontier(depth, [[k] for k in range(met)], Part(complete=met == size))


def test_a_planned_split_keeps_the_depth_above_a_manyfold_overshoot():
    """The shallowest depth with 20,000 subproblems held 87,449 (a 4.9 MB checkpoint); the one
    above holds 11,868, plenty for the workers.  A target the user gave is met as asked, and
    the overshoot is taken when the depth above has too few for the workers."""
    tree = LayeredTree([3, 6, 42, 363, 2064, 11868, 87449])
    assert len(plan.split(tree, 20_000, False, enough=32).paths) == 11868
    assert len(plan.split(tree, 20_000, False).paths) == 87449
    assert len(plan.split(tree, 20_000, False, enough=20_000).paths) == 87449
    assert len(plan.split(LayeredTree([3, 6, 42, 363, 2064, 11868, 60_000]), 20_000, False,
                          enough=32).paths) == 60_000


def test_a_planned_split_stops_searching_a_frontier_it_will_not_keep():
    """The 15 x 14 hexomino parallelogram's depth 5 (227,023 subproblems) took 13 s of its 14 s
    of planning, all thrown away for depth 4's 15,785: that search now ends past
    ``MAX_OVERSHOOT``.  A frontier the plan might keep is searched whole."""
    tree = LayeredTree([12, 101, 1110, 15785, 227_023])
    assert len(plan.split(tree, 20_000, False, enough=16).paths) == 15785
    assert tree.searched == [12, 101, 1110, 15785, plan.MAX_OVERSHOOT + 1]
    tree = LayeredTree([12, 101, 1110, 15785, 227_023])
    assert len(plan.split(tree, 20_000, False, enough=20_000).paths) == 227_023
    assert tree.searched[-1] == 227_023
    tree = LayeredTree([12, 101, 1110, 15785, 227_023])
    assert len(plan.split(tree, 20_000, False).paths) == 227_023
    assert tree.searched[-1] == 227_023


class PricedTree(FakeTree):
    """A tree that says itself whether it is worth splitting."""

    def __init__(self, degrees: list[int], verdict: bool | None):
        super().__init__(degrees)
        self.verdict = verdict

    def worth_splitting(self) -> bool | None:
        return self.verdict


def test_a_tree_that_prices_itself_decides_its_split_without_walks():
    for verdict in (True, False):
        tree = PricedTree([2, 2, 2], verdict)
        assert plan.too_small_to_split(tree, 10, 1.0, lambda: False) == (not verdict, None)
        assert tree.probes == 0
    tree = PricedTree([2, 2, 2], None)          # no opinion: Knuth's estimate, 14 nodes
    small, sized = plan.too_small_to_split(tree, 15, 1.0, lambda: False)
    assert small and sized.nodes == 14 and tree.probes == 200
    assert not plan.too_small_to_split(PricedTree([2, 2, 2], None), 14, 1.0, lambda: False)[0]
    target, nodes = plan.subproblem_target(tree, 2, whole=sized)
    assert nodes == 14 and tree.probes == 200 and target == 2 * plan.MIN_PER_WORKER
