"""``--engine auto`` for edge matching: the race counts as every engine does, hands out the
winner's solutions only, decides by the estimated time to go, and a split run records its
choice in the checkpoint so that a resumed run keeps it."""

from __future__ import annotations

import json
import math
import time

import numpy as np
import pytest

import cpkit
from cpkit.models.edge_matching import BoardSolution, EdgeMatchingPuzzle
from cpkit.models.em_generator import generate
from cpkit.result import verify_board
from cpkit.engines.edge_matching.auto import em_auto_relay, em_auto_search as em_auto
from cpkit.engines.dispatch import solve
from cpkit.engines.edge_matching import em_share_kernel

ENGINES = ("backtrack", "cp", "edges")


def tree_share(branches: list[tuple[int, int]]) -> float:
    """``em_share_kernel.tree_share`` of branches given as (done, total) pairs."""
    done = np.array([d for d, _ in branches], dtype=np.int64)
    total = np.array([t for _, t in branches], dtype=np.int64)
    return em_share_kernel.tree_share(done, total)


def test_the_share_of_a_tree_behind_a_depth_first_position():
    assert tree_share([]) == 0.0
    assert tree_share([(1, 4)]) == 0.25                     # one of four subtrees done
    assert tree_share([(2, 4), (1, 2)]) == pytest.approx(0.5 + 0.25 * 0.5)
    assert tree_share([(0, 3), (0, 0), (5, 5)]) == 0.0      # a node with no branch ends it


@pytest.mark.kernel
@pytest.mark.parametrize("n, border, inner, seed, unique", [
    (5, 3, 4, 3, "rotation"), (5, 2, 4, 7, "raw"), (6, 4, 5, 101, "rotation"),
    (6, 8, 5, 101, "rotation"), (4, 2, 3, 1, "raw"),
])
def test_auto_counts_as_the_brute_force(n, border, inner, seed, unique):
    puzzle = generate(n, border_colours=border, inner_colours=inner, seed=seed)
    brute = solve(puzzle, engine="backtrack", unique=unique, count_only=True)
    auto = solve(puzzle, unique=unique, count_only=True)           # engine="auto", the default
    assert auto.complete and auto.count == brute.count
    assert auto.engine in ENGINES and auto.stats.extra["engine_reason"]
    assert set(auto.stats.extra["engine_race"]["engines"]) == set(ENGINES)
    if auto.engine == "backtrack":                                  # the same search, whole
        assert auto.stats.nodes == brute.stats.nodes


@pytest.mark.kernel
@pytest.mark.parametrize("cores", [1, 2])
def test_counting_only_the_race_makes_no_solution(monkeypatch, cores):
    """A board of many solutions (4,096 here; 334,080 on the 5 x 5 with 2 frame and 3 inner
    colours) is counted as fast as its search: no engine in the race, nor the helper, makes
    a board of each solution it finds (the result's deepest board is one per search)."""
    puzzle = generate(5, border_colours=3, inner_colours=3, seed=1)
    brute = solve(puzzle, engine="backtrack", count_only=True)
    made = []
    board = EdgeMatchingPuzzle.solution_from_orientations
    monkeypatch.setattr(EdgeMatchingPuzzle, "solution_from_orientations",
                        lambda *args: made.append(args) or board(*args))
    auto = em_auto.solve_on(puzzle, cores=cores, count_only=True)
    assert auto.complete and auto.count == brute.count == 4096
    assert len(made) <= 2


@pytest.mark.kernel
def test_auto_hands_out_the_winners_solutions_once_each():
    puzzle = generate(5, border_colours=3, inner_colours=3, seed=4)
    everything = solve(puzzle, engine="backtrack")
    streamed = []
    result = solve(puzzle, on_solution=streamed.append)
    assert result.count == everything.count == len(streamed) == len(set(streamed))
    assert all(verify_board(puzzle, s) == [] for s in streamed)
    two = solve(puzzle, limit=2)
    assert two.count == 2 == len(two.solutions) and two.stop_reason == "limit"
    assert solve(puzzle, first=True, count_only=True).count == 1


def test_auto_gives_edge_filtering_its_turn_before_the_brute_force_has_searched_long():
    """On a 7 x 7 board with 8 frame colours and 6 inner ones edge filtering ends the count in
    about a thousand nodes (15 ms here), the brute force needs 15 million (0.5 s): ``auto``
    answers with ``edges``, and by then the brute force has searched under a tenth of its tree
    (a solo that ignored the others' estimates ran it for 0.2 s, 6 million nodes).  Nodes, not
    seconds: a loaded machine slows both engines alike."""
    puzzle = generate(7, border_colours=8, inner_colours=6, seed=1)
    brute = solve(puzzle, engine="backtrack", count_only=True)
    auto = solve(puzzle, count_only=True)
    assert auto.complete and auto.count == brute.count
    assert auto.engine == "edges", auto.stats.extra["engine_reason"]
    raced = auto.stats.extra["engine_race"]["engines"]["backtrack"]["nodes"]
    assert raced < brute.stats.nodes / 10


class VirtualClock:
    """The clocks of the race in the tests of its logic (the ``clock`` fixture): time passes
    only as the fake searches make nodes, so that these tests decide as the logic does,
    whatever else the machine runs, and at once."""

    def __init__(self):
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


CLOCK = VirtualClock()


@pytest.fixture
def clock(monkeypatch) -> VirtualClock:
    """The wall clock and the thread's processor clock both read ``CLOCK``, from zero."""
    CLOCK.now = 0.0
    monkeypatch.setattr(time, "perf_counter", CLOCK)
    monkeypatch.setattr(time, "thread_time", CLOCK)
    return CLOCK


class FakeChain:
    """A search of ``total`` nodes, each taking ``NODE_SECONDS`` on the ``clock``, that reports
    the share of its tree done as ``reported`` times the truth (an estimate that errs)."""

    NODE_SECONDS = 1e-7

    def __init__(self, total: int, reported: float = 1.0):
        self.total_nodes, self.reported, self.done = total, reported, 0

    def step(self, room: int, budget: int) -> tuple[bool, int]:
        assert time.perf_counter is CLOCK, "a fake search runs on the clock fixture"
        made = min(budget, self.total_nodes - self.done)
        CLOCK.now += made * self.NODE_SECONDS
        self.done += made
        return self.done >= self.total_nodes, 0

    def explored(self) -> float:
        return min(1.0, self.reported * self.done / self.total_nodes)

    def total(self, what: str) -> int:
        return self.done if what == "nodes" else 0

    def progress(self) -> dict[str, int]:
        return {"nodes": self.done, "solutions": 0, "deepest": 0}


def entrant(engine: str, total: int, reported: float = 1.0) -> em_auto.Entrant:
    kept: list = []
    return em_auto.Entrant(engine, {}, FakeChain(total, reported), kept, budget=1,
                           relay=[kept.append])


def test_the_race_goes_on_with_the_least_estimated_time_to_go(clock):
    # Time is nodes here: "cp" needs the fewest (one second), the others ten and a hundred.
    field = [entrant("backtrack", 10**9), entrant("cp", 10**7), entrant("edges", 10**8)]
    decision = em_auto.race(field, limit=None, time_limit=None, stop=lambda: False)
    assert decision.winner.engine == "cp" and not decision.finished
    assert "least estimated time" in decision.reason


def test_the_race_ends_when_an_engine_finishes_and_at_the_time_limit(clock):
    field = [entrant("backtrack", 10**9), entrant("cp", 50)]
    decision = em_auto.race(field, limit=None, time_limit=None, stop=lambda: False)
    assert decision.finished and decision.winner.engine == "cp"
    field = [entrant("backtrack", 10**12), entrant("cp", 10**12)]
    decision = em_auto.race(field, limit=None, time_limit=0.05, stop=lambda: False)
    assert decision.stopped and not decision.interrupted
    decision = em_auto.race([entrant("backtrack", 10**12)], limit=None, time_limit=None,
                            stop=lambda: True)
    assert decision.stopped and decision.interrupted


class EarlyLuck(FakeChain):
    """A search whose first ``early`` nodes read as ``reported`` times their share of the
    tree, and the rest truly: the depth-first share of a tree whose first branches are
    small."""

    def __init__(self, total: int, reported: float, early: int):
        super().__init__(total, reported)
        self.early = early

    def explored(self) -> float:
        scale = self.reported if self.done < self.early else 1.0
        return min(1.0, scale * self.done / self.total_nodes)


def test_the_race_judges_no_engine_on_its_first_tens_of_milliseconds(clock):
    """``cp`` reads twenty times further on than it is for its first 60 ms (about a second to
    go, where it needs 20 s); ``edges`` needs 5 s and says so.  Judged after 30 ms each, the
    race picked ``cp``.  With a leader a second from the end each engine has
    ``JUDGE_AFTER_SECONDS`` first, by when ``cp``'s estimate has come down to the truth, and
    ``edges`` is picked."""
    field = [em_auto.Entrant("cp", {}, EarlyLuck(2 * 10**8, 20.0, 6 * 10**5), [], budget=1),
             entrant("edges", 5 * 10**7)]
    decision = em_auto.race(field, limit=None, time_limit=None, stop=lambda: False)
    assert decision.winner.engine == "edges", decision.reason
    assert field[0].seconds >= em_auto.JUDGE_AFTER_SECONDS


def test_an_engine_that_overruns_its_estimate_is_raced_again(clock):
    """``cp`` claims a hundred times the share of its tree it has searched, so the race picks
    it (ten seconds of search) over the brute force (0.5 s: more than its solo); watched, it
    overruns its estimate and the resumed race lets the brute force finish.  What the wrong
    pick costs is bounded: ``cp``'s windows double at each overrun and the brute force gets
    half of each as its make-up turn once the floor has grown to a whole share, so ``cp``
    spends at most about four times the brute force's 0.5 s."""
    field = [entrant("backtrack", 5 * 10**6), entrant("cp", 10**8, reported=100.0)]
    began = time.perf_counter()
    decision = em_auto.race(field, limit=None, time_limit=None, stop=lambda: False)
    assert decision.winner.engine == "cp" and not decision.finished
    winner, reason, stopped = em_auto._watch(
        field, decision, decision.reason, limit=None, time_limit=None, began=began,
        relay=None, on_progress=None, share=em_auto.RACE_SHARE)
    assert winner.engine == "backtrack" and stopped == "complete" and "overran" in reason
    assert time.perf_counter() - began < 3.0


def test_an_estimate_that_falls_short_is_scaled_by_how_far(clock):
    """``cp`` claims ten times the share of its tree it has searched: alone for twice its
    estimated time to go, it does not finish, and its estimates are from then on twice as long
    as its share says (E_9_11: edge filtering estimated 0.36 s to go, overran 0.71 s, then
    0.4 s to go again, and was picked again over a brute force that needed 0.4 s)."""
    cp = entrant("cp", 10**7, reported=10.0)
    cp.turn(0.02, None, lambda: False)
    promised = cp.estimate()
    outcome = em_auto._alone(cp, 2 * promised, None, None)
    assert outcome.stop_reason == "time_limit" and not cp.finished
    assert cp.skew == pytest.approx(2.0)
    share = cp.chain.explored()
    assert cp.estimate() == pytest.approx(2.0 * (cp.seconds / share - cp.seconds))


def test_after_an_overrun_the_most_promising_engine_makes_up_first(clock):
    """``cp``, picked, overruns its window; of the others, edge filtering (a short tree) takes
    its make-up turn first and finishes there, before the brute force (a hundred seconds to go)
    has searched again."""
    field = [entrant("backtrack", 10**9), entrant("cp", 10**7, reported=20.0),
             entrant("edges", 2 * 10**5)]
    for e in field:
        e.turn(0.005, None, lambda: False)
    brute_force_seconds = field[0].seconds
    decision = em_auto.Decision(field[1], "cp picked", 0.0, False)
    winner, reason, stopped = em_auto._watch(
        field, decision, decision.reason, limit=None, time_limit=None,
        began=time.perf_counter(), relay=None, on_progress=None, share=em_auto.RACE_SHARE)
    assert winner.engine == "edges" and stopped == "complete" and "make-up" in reason
    assert field[0].seconds == brute_force_seconds


def test_the_relay_passes_each_solution_once_and_no_more_than_the_limit():
    def board(k: int) -> BoardSolution:
        return BoardSolution(1, 1, (k,), (0,))
    passed: list[BoardSolution] = []
    relay = em_auto.Relay(passed.append, limit=3)
    first, second = entrant("cp", 1), entrant("edges", 1)
    first.solutions.extend([board(1), board(2)])
    relay.follow(first)
    first.relay[0](board(2))
    relay.keep(first)
    first.relay[0](board(5))                    # kept, not passed on
    second.solutions.extend([board(1), board(3)])
    relay.follow(second)
    second.relay[0](board(4))
    assert [b.tiles[0] for b in passed] == [1, 2, 3]
    assert first.solutions == [board(5)]


def test_a_run_in_one_process_hands_out_every_engines_solutions_during_the_race(monkeypatch):
    """While no engine is followed, each engine's solutions go out as found, once each (and
    are kept for the engine the run follows, which hands out only those not seen); once the
    relay can remember no more, they only wait."""
    def board(k: int) -> BoardSolution:
        return BoardSolution(1, 1, (k,), (0,))
    passed: list[BoardSolution] = []
    relay = em_auto.Relay(passed.append, limit=None, during_races=True)
    first, second = entrant("cp", 1), entrant("edges", 1)
    relay.keep(first)
    relay.keep(second)
    first.relay[0](board(1))
    second.relay[0](board(2))
    second.relay[0](board(1))
    assert [b.tiles[0] for b in passed] == [1, 2] and second.solutions == [board(2), board(1)]
    monkeypatch.setattr(em_auto_relay, "WATCHED_SOLUTIONS", 2)
    first.relay[0](board(3))                    # the relay is full: kept, not passed on
    assert [b.tiles[0] for b in passed] == [1, 2] and first.solutions == [board(1), board(3)]
    relay.follow(first)
    assert [b.tiles[0] for b in passed] == [1, 2, 3]


@pytest.mark.kernel
def test_the_races_solutions_go_out_before_the_engine_is_chosen(monkeypatch):
    monkeypatch.setattr(em_auto, "SOLO_SECONDS", (0.0, 0.0))      # a race that decides at once
    monkeypatch.setattr(em_auto, "MIN_TURN_SECONDS", 0.0)
    monkeypatch.setattr(em_auto, "JUDGE_AFTER_SECONDS", 0.0)
    monkeypatch.setattr(em_auto, "RACE_SHARE", 0.0)
    decided: list[bool] = []
    race = em_auto.race

    def watched(*args, **kwargs):
        decision = race(*args, **kwargs)
        decided.append(True)
        return decision

    monkeypatch.setattr(em_auto, "race", watched)
    printed: list[tuple[bool, BoardSolution]] = []
    puzzle = generate(5, border_colours=3, inner_colours=3, seed=2)     # 4,362 solutions
    brute = solve(puzzle, engine="backtrack")
    result = solve(puzzle, on_solution=lambda s: printed.append((bool(decided), s)))
    boards = [s for _, s in printed]
    assert printed and not printed[0][0]
    assert result.count == brute.count == len(boards) == len(set(boards))
    assert set(boards) == set(brute.solutions)
    # Stopped during the race: what every engine found went out, once each, and counts.
    crowded = generate(5, border_colours=2, inner_colours=2, seed=1)    # 534 million
    seen: list[BoardSolution] = []
    monkeypatch.setattr(em_auto, "RACE_SHARE", 100.0)     # a race the time limit stops,
    monkeypatch.setattr(em_auto, "MAX_LEAD", 1.0)         # however far one engine leads
    stopped = solve(crowded, on_solution=seen.append, time_limit=0.5)
    assert stopped.stop_reason == "time_limit" and "during the race" in \
        stopped.stats.extra["engine_reason"]
    assert len(seen) == len(set(seen)) == stopped.count > 0
    assert all(verify_board(crowded, s) == [] for s in seen[:50])


@pytest.mark.kernel
def test_the_estimated_time_to_go_of_a_real_search_shrinks_to_nothing():
    puzzle = generate(6, border_colours=4, inner_colours=5, seed=101)
    field, _ = em_auto._entrants(puzzle, puzzle.symmetry_roots("rotation"), store=False)
    brute = field[0]
    shares = []
    while not brute.finished:
        brute.turn(0.01, None, lambda: False)
        shares.append(brute.chain.explored())
    assert brute.estimate() == 0.0 and shares[-1] == 1.0
    assert all(0.0 <= s <= 1.0 for s in shares) and not math.isinf(brute.seconds)


@pytest.mark.kernel
def test_a_split_run_records_the_engine_auto_chose_and_a_resumed_run_keeps_it(
        tmp_path, monkeypatch):
    # A race that decides at once, and a split even for a short search.
    monkeypatch.setattr(em_auto, "SOLO_SECONDS", (0.0, 0.0))
    monkeypatch.setattr(em_auto, "GLIMPSE_SECONDS", 0.0)
    monkeypatch.setattr(em_auto, "MIN_TURN_SECONDS", 0.0)
    monkeypatch.setattr(em_auto, "JUDGE_AFTER_SECONDS", 0.0)
    monkeypatch.setattr(em_auto, "RACE_SHARE", 0.0)
    monkeypatch.setattr(em_auto, "STAY_BELOW", 0.0)
    puzzle = generate(6, border_colours=4, inner_colours=5, seed=101)
    path = tmp_path / "board.txt"
    from cpkit.io.edge_matching import format_native

    path.write_text(format_native(puzzle))
    ck = tmp_path / "run.ck"
    brute = solve(puzzle, engine="backtrack", count_only=True)
    first = cpkit.solve(str(path), count_only=True, workers=1, checkpoint=str(ck))
    assert first.count == brute.count and first.engine in ENGINES
    assert first.stats.extra["engine_reason"] and "subproblems" in first.stats.extra
    saved = json.loads(ck.read_text())
    assert saved["options"]["engine"] == first.engine
    assert saved["engine_reason"] == first.stats.extra["engine_reason"]
    again = cpkit.solve(str(path), count_only=True, workers=1, resume=str(ck))
    assert again.engine == first.engine and again.count == brute.count
    assert again.stats.extra["engine_reason"].startswith("resumed from the checkpoint")


def test_engines_far_behind_make_up_little_for_an_estimate_a_little_short(clock):
    """The brute force, picked, needs three seconds where it promised well under one; the
    other engines are a hundred seconds from the end.  After its overrun each makes up a
    quarter of a make-up turn (the least share; it doubles if the estimate falls short
    again), not a whole one: on E_10_24 whole turns took the 4.8 s the brute force then
    lacked to finish in time."""
    field = [entrant("backtrack", 3 * 10**7, reported=5.0), entrant("cp", 10**9),
             entrant("edges", 10**9)]
    for e in field:
        e.turn(0.02, None, lambda: False)
    window = em_auto.OVERRUN * field[0].estimate()
    decision = em_auto.Decision(field[0], "backtrack picked", 0.0, False)
    winner, reason, stopped = em_auto._watch(
        field, decision, decision.reason, limit=None, time_limit=None,
        began=time.perf_counter(), relay=None, on_progress=None, share=em_auto.RACE_SHARE)
    assert winner.engine == "backtrack" and stopped == "complete" and "overran" in reason
    made_up = sum(e.seconds for e in field[1:]) - 0.04      # their turns after the first
    assert made_up < 0.75 * em_auto.MAKE_UP * window


@pytest.mark.kernel
def test_a_split_run_hands_out_the_races_solutions_before_it_splits(monkeypatch):
    """The engine picked found solutions during the race: a split run prints them at once (on
    a board with millions of solutions its first subproblem never ended, and ``--show 1``
    printed nothing until the run was stopped), and never again; the count stays the whole
    count."""
    from cpkit.parallel import plan

    monkeypatch.setattr(em_auto, "SOLO_SECONDS", (0.0, 0.0))      # a race that decides at once
    monkeypatch.setattr(em_auto, "MIN_TURN_SECONDS", 0.0)
    monkeypatch.setattr(em_auto, "JUDGE_AFTER_SECONDS", 0.0)
    monkeypatch.setattr(em_auto, "RACE_SHARE", 0.0)
    monkeypatch.setattr(em_auto, "STAY_BELOW", 0.0)
    monkeypatch.setattr(em_auto, "HELPED_STAY_BELOW", 0.0)
    seen: list[BoardSolution] = []
    at_split: list[int] = []
    split = plan.split

    def watched(*args, **kwargs):
        at_split.append(len(seen))
        return split(*args, **kwargs)

    monkeypatch.setattr(plan, "split", watched)
    # Solutions everywhere (534 million): every engine finds some in its first turn.
    crowded = generate(5, border_colours=2, inner_colours=2, seed=1)
    three = cpkit.solve(crowded, workers=2, subproblems=8, max_stored=3, time_limit=3,
                        on_solution=seen.append)
    assert at_split == [3] and len(set(seen)) == 3 and "subproblems" in three.stats.extra
    assert all(verify_board(crowded, s) == [] for s in seen)
    if three.engine != "cp":                # its split runs need not keep the sequential order
        assert seen == solve(crowded, engine=three.engine, limit=3).solutions
    # Every solution once, whichever engine was picked and whatever it had found (384
    # solutions, half a second of the brute force: the race decides long before).
    seen.clear()
    puzzle = generate(6, border_colours=3, inner_colours=5, seed=1)
    brute = solve(puzzle, engine="backtrack")
    every = cpkit.solve(puzzle, workers=2, subproblems=8, on_solution=seen.append)
    assert "subproblems" in every.stats.extra
    assert every.count == brute.count == len(seen) == len(set(seen))
    assert set(seen) == set(brute.solutions) and every.solutions == []
