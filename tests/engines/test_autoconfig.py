"""The automatic configuration of ``--engine auto``: orientation, switch and schedule."""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np
import pytest

from cpkit.models import reorient, symmetry, tiling_generator
from cpkit.models.polyforms import PENTOMINOES
from cpkit.models.tiling import Piece, Puzzle
from cpkit.models.geometry import group
from cpkit.result import verify_tiling
from cpkit.engines.tiling.auto import tiling_autoconfig as autoconfig, tiling_prober
from cpkit.engines.tiling.auto import tiling_walks as walks
from cpkit.engines.tiling.auto import tiling_auto_search as auto_search
from cpkit.engines.dispatch import solve
from cpkit.engines.tiling import tiling_front as tiling
from cpkit.engines.tiling.hybrid import hybrid_search as hybrid
from cpkit.engines.tiling.hybrid.hybrid_started import Started

#: A quarter turn in the plane, an axis permutation with a mirror, a mirror.
TURNS = [((0, -1, 0), (1, 0, 0), (0, 0, 1)), ((0, 0, -1), (1, 0, 0), (0, 1, 0)),
         ((-1, 0, 0), (0, 1, 0), (0, 0, 1))]


def turned_files(puzzle):
    """The puzzle as drawn and as files turned or mirrored the ways ``TURNS`` say (those that
    keep a flat puzzle flat in z)."""
    out = [puzzle]
    for matrix in TURNS:
        turn = reorient.Turn.of(np.array(matrix), puzzle.box)
        if puzzle.dimension == 2 and turn.box[2] != 1:
            continue
        out.append(reorient.turned(puzzle, turn))
    return out


def chosen(puzzle, search_first=False):
    choice = autoconfig.choose(puzzle, {"unique": "rotation"}, search_first=search_first)
    key = {k for t, k in reorient.distinct(choice.candidate.puzzle) if t.is_identity}
    return key, choice.config.fila_at, str(choice.config.schedule), choice


@pytest.mark.parametrize("name", ["pentominoes_12x5.txt", "pentominoes_2x3x10.txt",
                                  "somacube.txt"])
def test_every_drawing_of_a_puzzle_gets_the_same_search(tiling_instance, name):
    """A puzzle and its files turned or mirrored get the same oriented puzzle, switch and
    schedule: the same search, whatever way the file draws it."""
    puzzle = tiling_instance(name)
    first = chosen(puzzle)[:3]
    for drawn in turned_files(puzzle)[1:]:
        assert chosen(drawn)[:3] == first


def test_every_drawing_of_a_puzzle_gets_the_same_estimates(tiling_instance):
    """Every estimate of the choice is the same for every drawing of the puzzle, those of
    orientations whose fronts are carried through a turn too.  The 2 x 4 x 8 box's first
    orientation turns onto itself, so several turns carry its front onto another orientation;
    taken from the file's frame, the turn (and so the images the carried front keeps of the
    constrained piece) depended on the drawing, and so did the configuration chosen."""
    puzzle = tiling_instance("pentominoes_l_2x4x8.txt")
    drawings = turned_files(puzzle) + [reorient.turned(puzzle, c.turn)
                                       for c in autoconfig.candidates(puzzle)[:2]]
    seen = [sorted((str(e.option), e.seconds) for e in chosen(drawn)[3].estimates)
            for drawn in drawings]
    assert len(seen[0]) > 10 and all(s == seen[0] for s in seen)


def test_the_long_side_goes_along_y(tiling_instance):
    """Filled along its short side (de Bruijn's order), the 12 x 5 takes a few per cent of
    the fits it takes filled along the long side, as the estimates see: the choice turns the
    box drawn 12 wide."""
    puzzle = tiling_instance("pentominoes_12x5.txt")
    wide = reorient.turned(puzzle, reorient.Turn.of(np.array(TURNS[0]), puzzle.box))
    assert wide.box == (12, 5, 1)
    choice = chosen(wide)[3]
    assert choice.candidate.puzzle.box == (5, 12, 1) and not choice.candidate.turn.is_identity
    cands = autoconfig.candidates(wide)
    assert [c.puzzle.box for c in cands] == [(5, 12, 1), (12, 5, 1)]
    prober = tiling_prober.Prober(cands, {"unique": "rotation"}, True)
    at = choice.config.fila_at
    estimates = [prober.estimate(tiling_prober.Option(k, at, "f" * at)).seconds
                 for k in (0, 1)]
    assert estimates[1] > 10 * estimates[0]


@pytest.mark.parametrize("name, count", [("pentominoes_20x3.txt", 2), ("somacube.txt", 480),
                                         ("pentominoes_onesided_30x3.txt", 46)])
def test_counts_and_solutions_stay_in_the_files_frame(tiling_instance, name, count):
    """Turned files count as the bundled one, and every solution returned is a tiling of the
    file as drawn (turned back from the orientation searched)."""
    for drawn in turned_files(tiling_instance(name)):
        result = solve(drawn, unique="rotation")
        assert result.complete and result.count == count == len(result.solutions)
        assert all(verify_tiling(drawn, t) == [] for t in result.solutions)


def dissection(box, pieces, name) -> Puzzle:
    """A box cut into the polycubes ``pieces`` (cells as cut), to be packed again."""
    return Puzzle([Piece(chr(ord("A") + k), tuple(cells)) for k, cells in enumerate(pieces)],
                  box=box, name=name)


#: Nine hexacubes cut at random from the 3 x 3 x 6 box: 15 packings up to rotation, 120 in
#: all.  polycube 1.2.1 with its redundancy filter (``-r#``) finds 15 as drawn here and 14 in
#: the file turned the way ``TURNS[1]`` turns it, and 120 without the filter.
BOX_3X3X6 = [
    [(0, 1, 0), (1, 1, 0), (2, 0, 0), (2, 0, 1), (2, 1, 0), (2, 2, 0)],
    [(0, 0, 0), (0, 0, 1), (0, 0, 2), (0, 0, 3), (1, 0, 0), (1, 0, 1)],
    [(0, 2, 0), (1, 1, 1), (1, 2, 0), (1, 2, 1), (1, 2, 2), (1, 2, 3)],
    [(2, 0, 2), (2, 0, 3), (2, 1, 1), (2, 1, 2), (2, 2, 1), (2, 2, 2)],
    [(0, 0, 4), (0, 0, 5), (1, 0, 2), (1, 0, 3), (1, 0, 4), (1, 1, 2)],
    [(1, 2, 4), (1, 2, 5), (2, 1, 4), (2, 2, 3), (2, 2, 4), (2, 2, 5)],
    [(0, 1, 2), (0, 1, 3), (0, 1, 4), (1, 1, 3), (1, 1, 4), (2, 1, 3)],
    [(0, 1, 5), (1, 0, 5), (1, 1, 5), (2, 0, 4), (2, 0, 5), (2, 1, 5)],
    [(0, 1, 1), (0, 2, 1), (0, 2, 2), (0, 2, 3), (0, 2, 4), (0, 2, 5)]]


def test_a_dissection_counts_alike_in_every_drawing():
    """Counted up to rotation, each drawing of the cut box gives the eighth of its packings
    (the box's eight rotations; none maps a packing onto itself), whatever piece the
    redundancy filter constrains in the orientation searched."""
    puzzle = dissection((3, 3, 6), BOX_3X3X6, "hexacubes_3x3x6")
    for drawn in turned_files(puzzle):
        raw = solve(drawn, unique="raw", count_only=True)
        result = solve(drawn, unique="rotation", count_only=True)
        assert raw.complete and raw.count == 120
        assert result.complete and result.count == 15


def test_orientation_file_searches_the_puzzle_as_drawn(tiling_instance):
    puzzle = tiling_instance("pentominoes_12x5.txt")
    wide = reorient.turned(puzzle, reorient.Turn.of(np.array(TURNS[0]), puzzle.box))
    as_drawn = solve(wide, orientation="file", count_only=True)
    chosen_ = solve(wide, count_only=True)
    assert as_drawn.count == chosen_.count == 1010
    assert "orientation" not in as_drawn.stats.extra
    assert chosen_.stats.extra["orientation"].startswith("turned")
    assert as_drawn.stats.fits > 10 * chosen_.stats.fits


def test_a_run_stopped_at_its_first_solutions_searches_the_puzzle_as_drawn(tiling_instance):
    """The choice prices the whole tree, not the way to a first solution: a run with a limit
    makes no choice and finds the solutions ``orientation="file"`` finds, in its order."""
    puzzle = tiling_instance("pentominoes_12x5.txt")
    wide = reorient.turned(puzzle, reorient.Turn.of(np.array(TURNS[0]), puzzle.box))
    first = solve(wide, limit=3)
    assert "orientation" not in first.stats.extra and "choice_seconds" not in first.stats.extra
    assert first.solutions == solve(wide, orientation="file", limit=3).solutions
    assert first.count == 3 and all(verify_tiling(wide, t) == [] for t in first.solutions)


def test_candidates_are_each_orientation_once(tiling_instance):
    """The 2 x 5 x 6 box: six orientations (which side goes along which axis; pentominoes are
    their own mirror images in space), best geometry first: the thinnest side along z."""
    cands = autoconfig.candidates(tiling_instance("pentominoes_2x5x6.txt"))
    boxes = [c.puzzle.box for c in cands]
    assert len(boxes) == 6 == len(set(boxes))
    assert boxes[0] == (5, 6, 2)
    assert all(any(np.array_equal(np.array(c.turn.matrix), m) for m in group("mirror"))
               for c in cands)


def test_a_glance_settles_a_tiny_puzzle_and_only_a_tiny_one(tiling_instance):
    """The Soma cube (milliseconds of search) and the 15 x 4 (60 ms with DLX placing the X
    first, 20 ms without), a rectangle, are configured by the glance alone: one coarse
    estimate per switch (and for the Soma cube's solid pieces, of F alone and of the
    default).  The 12 x 5 (0.12 to 0.23 s) goes on to the full estimates."""
    soma = chosen(tiling_instance("somacube.txt"))[3]
    at = soma.config.fila_at
    assert sorted(e.option.letters for e in soma.estimates) == \
        sorted(["f" * at, autoconfig.default_letters(soma.candidate.puzzle, at)])
    assert soma.chosen.seconds < autoconfig.GLANCE_BELOW
    flat = chosen(tiling_instance("pentominoes_15x4.txt"))[3]
    assert sorted(e.option.fila_at for e in flat.estimates) == [11, 12]
    assert flat.chosen.seconds < autoconfig.GLANCE_BELOW
    long_one = chosen(tiling_instance("pentominoes_12x5.txt"))[3]
    assert long_one.chosen.seconds >= autoconfig.GLANCE_BELOW
    glance = tiling_prober.Prober(autoconfig.candidates(long_one.candidate.puzzle),
                                  {"unique": "rotation"}, True,
                                  sampled=autoconfig.GLANCE_SAMPLED,
                                  population=autoconfig.GLANCE_POPULATION)
    assert long_one.chosen.seconds != glance.estimate(long_one.chosen.option).seconds


def test_a_glance_at_f_alone_settles_a_small_box_without_the_default(tiling_instance):
    """In a box of flat pieces the glance looks at F alone (the search begun) before the
    default, E then F: the 2 x 3 x 10 box of pentominoes, tens of milliseconds of search with
    F alone, is configured by that one glance, and the default, a slower search there, is not
    estimated at all."""
    box = chosen(tiling_instance("pentominoes_2x3x10.txt"))[3]
    assert [e.option.letters for e in box.estimates] == ["f" * box.config.fila_at]
    assert box.chosen.seconds < autoconfig.GLANCE_BELOW
    assert str(box.config.schedule) == f"s:f={box.config.fila_at}"


def holed_square() -> Puzzle:
    """The 12 pentominoes on the 8 x 8 square without the cells (2, 2), (2, 5), (5, 2) and
    (5, 5): 21 solutions."""
    holes = {(2, 2, 0), (2, 5, 0), (5, 2, 0), (5, 5, 0)}
    filler = Piece("*", tuple(sorted(holes)), True)
    return Puzzle([Piece(name, tuple(cells)) for name, cells in PENTOMINOES.items()]
                  + [filler], box=(8, 8, 1), name="holed_square")


def test_a_short_flat_puzzle_gets_the_schedule_four_drawn_nodes_estimate_shorter():
    """On the square with four holes the glance (two nodes drawn at the switch) puts F alone
    ahead of E, then F; estimates from four nodes put it the other way round, and the search
    says they are right: E, then F, makes a tenth of F alone's nodes.  Counts agree with
    DLX's."""
    puzzle = holed_square()
    choice = chosen(puzzle)[3]
    at = choice.config.fila_at
    assert str(choice.config.schedule) == f"s:e={at}:f=3"
    glance = tiling_prober.Prober(autoconfig.candidates(puzzle), {"unique": "rotation"}, True,
                                  sampled=autoconfig.GLANCE_SAMPLED,
                                  population=autoconfig.GLANCE_POPULATION)
    glances = {e.option.letters[0]: glance.estimate(e.option).seconds
               for e in choice.estimates if e.option.fila_at == at}
    closer = {e.option.letters[0]: e.seconds for e in choice.estimates
              if e.option.fila_at == at}
    assert glances["f"] < glances["e"] and closer["e"] < closer["f"]
    assert choice.chosen.seconds == closer["e"]
    searches = {h: solve(choice.candidate.puzzle, engine="hybrid", fila_at=at, heuristic=h,
                         count_only=True) for h in (f"s:f={at}", f"s:e={at}:f=3")}
    assert searches[f"s:e={at}:f=3"].stats.nodes * 5 < searches[f"s:f={at}"].stats.nodes
    counts = {r.count for r in searches.values()}
    counts.add(solve(puzzle, engine="dlx", count_only=True).count)
    counts.add(solve(puzzle, count_only=True).count)
    assert counts == {21}



@pytest.mark.parametrize("name, first_piece", [("pentominoes_12x5.txt", True),
                                               ("pentominoes_10x6.txt", False)])
def test_a_flat_puzzle_gets_fila_from_the_first_piece_where_estimates_find_it_shorter(
        tiling_instance, name, first_piece):
    """DLX places the constrained X first by default; FILA from the first piece (no DLX)
    searches the 12 x 5 with half the nodes and the 10 x 6 with eight times as many.  The
    choice estimates both and takes the one the search says is shorter; counts agree."""
    puzzle = tiling_instance(name)
    choice = chosen(puzzle)[3]
    oriented = choice.candidate.puzzle
    at = choice.config.fila_at
    assert (at == oriented.n_pieces) == first_piece
    searches = {n: solve(oriented, engine="hybrid", fila_at=n, heuristic=f"s:f={n}",
                         count_only=True) for n in (oriented.n_pieces - 1, oriented.n_pieces)}
    assert min(searches, key=lambda n: searches[n].stats.nodes) == at
    assert len({r.count for r in searches.values()}) == 1


def test_descents_that_all_end_early_are_drawn_again(tiling_instance):
    """The one-sided pentominoes in 18 x 5 (686,628 solutions, minutes of search): DLX places
    6 of the 18 pieces before the switch, and the glance's first four descents all end before
    it.  They are drawn again until two reach it, so the glance sees a long search and the
    full estimates run (one round alone estimated the search above the switch: 0.08 s)."""
    puzzle = tiling_instance("pentominoes_onesided_18x5.txt")
    prober = tiling_prober.Prober(autoconfig.candidates(puzzle), {"unique": "rotation"}, True,
                                  sampled=autoconfig.GLANCE_SAMPLED)
    at = hybrid.auto_config(prober.cands[0].puzzle, False, True).fila_at
    frontier = prober.frontier(0, at)
    assert len(frontier.paths) >= autoconfig.GLANCE_SAMPLED
    choice = chosen(puzzle)[3]
    assert choice.chosen.seconds > 10 * autoconfig.GLANCE_BELOW
    assert len(choice.estimates) > 1


def test_no_switch_deeper_than_the_estimates_reach(tiling_instance):
    """The PT pieces in the 13 x 13 diamond (17 pieces): DLX hands over at 13 by default,
    where 3,750 nodes are estimated.  Deeper switches (7,538 nodes at 12, 14,358 at 11) were
    estimated at 3.6 and 4.9 s and searched in 8.6 and 12.3 s; E at 13 with the I piece
    constrained, 4.2 s.  No switch beyond ``DEEPEST_FRONTIER`` nodes is estimated deeper than
    the default (those above it are ``higher``'s), and the choice stays at 13."""
    puzzle = tiling_instance("pt12_diamond.txt")
    choice = chosen(puzzle)[3]
    assert choice.config.fila_at == 13
    assert all(e.option.fila_at >= 13 for e in choice.estimates)
    prober = tiling_prober.Prober(autoconfig.candidates(puzzle), {"unique": "rotation"}, True)
    assert not prober.within_reach(tiling_prober.Option(0, 12, "f" * 12))
    deep = prober.frontier(0, 12).weights.sum()
    assert deep > tiling_prober.DEEPEST_FRONTIER


def test_mirror_twins_search_alike_and_only_one_is_estimated(tiling_instance, monkeypatch):
    """The one-sided 30 x 3 has two regions (3 wide, 30 wide), each with the pieces and
    their mirror images: the twins' whole searches make the same nodes, so the choice
    estimates one of each pair, keeps the first, and goes on with its search.  (Its search,
    0.12 s, is estimated near ``ORIENT_FROM``: the stage is made to run here whatever side of
    it the estimate falls, at the default switch: FILA from higher switches, estimated
    shorter, would end the choice before it; and with the rule's piece, which the search
    begun first constrains.)"""
    monkeypatch.setattr(autoconfig, "ORIENT_FROM", 0.1)
    monkeypatch.setattr(autoconfig, "FEWEST_FROM", math.inf)
    monkeypatch.setattr(autoconfig, "flat_switches",
                        lambda puzzle, at: [tiling_prober.Option(0, at, "f" * at)])
    puzzle = tiling_instance("pentominoes_onesided_30x3.txt")
    cands = autoconfig.candidates(puzzle)
    assert [c.puzzle.box for c in cands] == [(3, 30, 1)] * 2 + [(30, 3, 1)] * 2
    assert autoconfig.unlike(cands) == [0, 2]
    twins = [solve(cands[k].puzzle, count_only=True, orientation="file") for k in (0, 1)]
    assert twins[0].count == twins[1].count == 46
    assert twins[0].stats.nodes == twins[1].stats.nodes
    choice = autoconfig.choose(puzzle, {"unique": "rotation"})
    assert {e.option.orientation for e in choice.estimates} == {0, 2}
    assert choice.chosen.option.orientation == 0 and choice.started is not None


@pytest.mark.parametrize("factor, orientation", [(0.9, 0), (0.8, 1)])
def test_another_orientation_must_be_clearly_faster_to_replace_the_first(
        tiling_instance, monkeypatch, factor, orientation):
    """The 12 x 5 with its other orientation's estimates made ``factor`` times the first's:
    a tenth faster is within the estimates' noise and the first is kept, with its search
    begun; a fifth faster wins.  (At the default switch only: FILA from the first piece,
    estimated shorter, would not reach the orientation stage nor go on with the search; and
    with the rule's piece, which the search begun first constrains.)"""
    monkeypatch.setattr(autoconfig, "FEWEST_FROM", math.inf)
    monkeypatch.setattr(autoconfig, "flat_switches",
                        lambda puzzle, at: [tiling_prober.Option(0, at, "f" * at)])
    monkeypatch.setattr(autoconfig, "higher", lambda prober, top, puzzle, finer=None: top)
    real = tiling_prober.Prober.estimate

    def estimate(self, option):
        if option.orientation == 0:
            return real(self, option)
        first = real(self, replace(option, orientation=0))
        return tiling_prober.Estimate(option, factor * first.seconds, first.subproblems)

    monkeypatch.setattr(tiling_prober.Prober, "estimate", estimate)
    choice = autoconfig.choose(tiling_instance("pentominoes_12x5.txt"), {"unique": "rotation"})
    assert choice.chosen.option.orientation == orientation
    assert (choice.started is not None) == (orientation == 0)


@pytest.mark.parametrize("name, unique", [("somacube.txt", "rotation"),
                                          ("pentominoes_2x3x10.txt", "rotation"),
                                          ("pentominoes_20x3.txt", "mirror")])
def test_a_front_carried_through_a_turn_counts_as_one_made_there(tiling_instance, name,
                                                                 unique):
    """The estimates of every orientation but the first run on the first's front carried
    through the turn: its filters keep the images the filters keep when run there, and a
    search on it counts as a search on a front made there (the 20 x 3 in mirror mode checks
    each solution found: the flips of its chiral pieces are not piece symmetries)."""
    puzzle = tiling_instance(name)
    cands = autoconfig.candidates(puzzle)
    options = {"unique": unique}
    prober = tiling_prober.Prober(cands, options, nof=True)
    first = prober.front(0)
    filters_only = [tiling.prepare(c.puzzle, unique=unique, redundancy=None) for c in cands]
    for k in range(1, len(cands)):
        carried = prober.front(k)
        assert (k, None) in prober.shared.turned
        turn = reorient.correspond(cands[0].puzzle, cands[0].turn, cands[k].puzzle,
                                   cands[k].turn)
        assert np.array_equal(filters_only[0].keep[turn.image_of], filters_only[k].keep)
        assert carried.plan.order == first.plan.order and carried.keep.sum() == first.keep.sum()
        assert carried.check == first.check == (unique == "mirror")
        made_there = tiling.prepare(cands[k].puzzle, unique=unique)
        counts = [tiling.solve(cands[k].puzzle, hybrid.solve_tiling, engine_name="hybrid",
                               unique=unique, prepared=front, count_only=True).count
                  for front in (carried, made_there)]
        assert counts[0] == counts[1] > 0


@pytest.mark.parametrize("name, count", [("pentominoes_20x3.txt", 2), ("somacube.txt", 480)])
def test_a_puzzle_its_first_nodes_finish_is_not_estimated(tiling_instance, name, count):
    """The 20 x 3 and the Soma cube take fewer nodes than the search begun before any
    estimate: nothing is estimated, and the run is that search."""
    result = solve(tiling_instance(name), count_only=True)
    assert result.complete and result.count == count
    assert result.stats.extra["searched_first"] == result.stats.nodes
    assert result.stats.nodes <= autoconfig.FIRST_NODES + 5000
    assert result.stats.extra["estimated_seconds"] is None
    assert result.stats.extra["configurations_estimated"] == 0


def test_a_run_that_only_counts_begins_its_search_without_keeping_solutions(
        tiling_instance):
    """The Soma cube's search begun first finishes it (480 solutions): for a run that only
    counts it keeps none of them and counts as many, and one that lists them gets all 480
    from a search begun keeping them; a search begun only counting cannot be gone on with
    by a run that lists."""
    puzzle = tiling_instance("somacube.txt")
    counting = autoconfig.choose(puzzle, {"unique": "rotation"}, store=False)
    assert counting.started.search.finished and counting.started.search.found == []
    assert counting.started.search.solutions == 480
    with pytest.raises(AssertionError):
        counting.started.go_on(None, store=True)
    assert solve(puzzle, count_only=True).count == 480
    listed = solve(puzzle)
    assert listed.count == len(listed.solutions) == 480
    assert listed.stats.extra["searched_first"] == listed.stats.nodes


def test_a_small_box_goes_on_with_the_search_begun_first(tiling_instance):
    """The 2 x 3 x 10 box is estimated fastest F alone at the default switch, the way the
    search begins in 3D too: the run goes on with it and counts what it counts without."""
    puzzle = tiling_instance("pentominoes_2x3x10.txt")
    choice = autoconfig.choose(puzzle, {"unique": "rotation"})
    assert choice.started is not None and set(choice.chosen.option.letters) == {"f"}
    result = solve(puzzle, count_only=True)
    assert result.count == 24 and result.stats.extra["searched_first"] >= autoconfig.FIRST_NODES


#: Nine pentacubes cut at random from the 3 x 3 x 5 box: 878 packings up to rotation.
BOX_3X3X5 = [
    [(0, 0, 3), (0, 0, 4), (0, 1, 4), (1, 0, 2), (1, 0, 3)],
    [(0, 1, 1), (0, 1, 2), (0, 1, 3), (0, 2, 3), (0, 2, 4)],
    [(0, 0, 0), (0, 0, 1), (0, 0, 2), (0, 1, 0), (0, 2, 0)],
    [(0, 2, 1), (0, 2, 2), (1, 1, 2), (1, 2, 2), (2, 2, 2)],
    [(1, 0, 4), (1, 1, 3), (1, 1, 4), (2, 1, 4), (2, 2, 4)],
    [(1, 2, 3), (1, 2, 4), (2, 1, 2), (2, 1, 3), (2, 2, 3)],
    [(2, 0, 1), (2, 0, 2), (2, 0, 3), (2, 0, 4), (2, 1, 1)],
    [(1, 0, 1), (1, 1, 1), (1, 2, 1), (2, 2, 0), (2, 2, 1)],
    [(1, 0, 0), (1, 1, 0), (1, 2, 0), (2, 0, 0), (2, 1, 0)]]


def test_a_puzzle_of_solid_pieces_has_f_alone_and_the_default_glanced_at_together():
    """Pieces that span all three axes: the search begins F alone, as for flat pieces, and
    F alone and the default, E, then F, are both glanced at before either is kept (glanced
    at first and short, the default was kept alone: this box searched in 0.069 s so, 0.048 s
    F alone).  Here F alone is glanced shorter and kept, and the run goes on with the nodes
    searched first, counting what a search without them counts."""
    puzzle = dissection((3, 3, 5), BOX_3X3X5, "pentacubes_3x3x5")
    choice = autoconfig.choose(puzzle, {"unique": "rotation"})
    at = choice.config.fila_at
    assert choice.started is not None and str(choice.started.config.schedule) == f"s:f={at}"
    glanced = {e.option.letters: e.seconds for e in choice.estimates}
    assert set(glanced) == {"f" * at, autoconfig.default_letters(puzzle, at)}
    assert glanced["f" * at] == min(glanced.values()) < autoconfig.GLANCE_BELOW
    assert autoconfig.same_search(choice.config, choice.started.config)
    result = solve(puzzle, count_only=True)
    assert result.count == 878 and result.stats.extra["searched_first"] >= autoconfig.FIRST_NODES
    assert solve(puzzle, engine="hybrid", fila_at=at, heuristic=f"s:e={at}:f=3",
                 count_only=True).count == 878


def test_a_box_of_solid_pieces_is_searched_with_its_longest_side_along_z():
    """Pieces that span all three axes: the orientation ranked first has the longest side
    along z and the shortest along x, whatever way the file draws the box, and there the
    default search makes fewer nodes than in any other orientation (931,327 against 995,486
    to 1,055,076; the rule for flat pieces would put the box 3 wide, 5 deep, 3 high)."""
    puzzle = dissection((3, 3, 5), BOX_3X3X5, "pentacubes_3x3x5")
    for drawn in turned_files(puzzle):
        assert autoconfig.candidates(drawn)[0].puzzle.box == (3, 3, 5)
    nodes: dict[tuple, int] = {}
    for cand in autoconfig.candidates(puzzle):
        run = solve(cand.puzzle, engine="hybrid", count_only=True)
        assert run.count == 878
        box = cand.puzzle.box
        nodes[box] = min(nodes.get(box, run.stats.nodes), run.stats.nodes)
    assert nodes[(3, 3, 5)] < min(n for box, n in nodes.items() if box != (3, 3, 5))


def test_the_piece_stage_tries_close_pieces_with_both_schedules_in_3d(monkeypatch):
    """In 3D each piece the piece stage tries is estimated with F alone, and those within
    ``PIECE_CLOSE`` of the best F alone also with the default, E, then F (the two interact: a
    box whose stages kept F alone searched 2.3 times as long as with E, then F, and another
    piece constrained); a piece far behind F alone is not estimated with E (three to five
    times the cost)."""
    monkeypatch.setattr(autoconfig, "GLANCE_BELOW", 0.0)
    monkeypatch.setattr(autoconfig, "PIECE_FROM", 0.0)
    puzzle = dissection((3, 3, 5), BOX_3X3X5, "pentacubes_3x3x5")

    def stage(close: float) -> tuple[dict, set]:
        monkeypatch.setattr(autoconfig, "PIECE_CLOSE", close)
        estimates = autoconfig.choose(puzzle, {"unique": "rotation"},
                                      search_first=False).estimates
        pieced = [e.option for e in estimates if e.option.piece is not None]
        k, at = pieced[0].orientation, max(o.fila_at for o in pieced)
        alone: dict = {}
        with_e = set()
        for e in estimates:
            o = e.option
            if o.orientation != k or o.fila_at not in (at, at - 1):
                continue
            if set(o.letters) == {"f"}:
                alone[o.piece] = min(alone.get(o.piece, math.inf), e.seconds)
            elif o.piece is not None:
                with_e.add(o.piece)
        return alone, with_e

    alone, with_e = stage(math.inf)
    assert with_e == set(alone) - {None} and len(with_e) > 1
    ranked = sorted(alone[p] for p in with_e)
    between = math.sqrt(ranked[0] * ranked[-1]) / min(alone.values())
    alone, with_e = stage(between)
    assert with_e == {p for p, s in alone.items()
                      if p is not None and s <= between * min(alone.values())}
    assert 0 < len(with_e) < len(set(alone) - {None})


def test_the_piece_stage_keeps_an_option_with_e_estimated_already():
    """A piece far behind under F alone is not estimated with E, but an option with E that
    the stages before estimated (the rule's piece, None) stays in the comparison: it costs
    nothing to keep."""
    option = tiling_prober.Option
    seconds = {(None, "f"): 3.0, ("A", "f"): 1.0, ("B", "f"): 1.5,
               (None, "e"): 0.5, ("A", "e"): 0.8, ("B", "e"): 0.9}

    class _ByPiece:
        def __init__(self):
            self.made = {}

        def estimate(self, o):
            kind = "f" if set(o.letters) == {"f"} else "e"
            self.made[o] = tiling_prober.Estimate(o, seconds[o.piece, kind], 1)
            return self.made[o]

    options = [option(0, 10, letters, piece) for piece in (None, "A", "B")
               for letters in ("f" * 10, "e" * 7 + "fff")]
    prober = _ByPiece()
    kept = autoconfig.with_close_pieces(prober, options)
    assert {(o.piece, o.letters[0]) for o in kept} == \
        {(None, "f"), ("A", "f"), ("B", "f"), ("A", "e"), ("B", "e")}
    prober = _ByPiece()
    prober.estimate(options[1])             # None with E, estimated before the stage
    kept = autoconfig.with_close_pieces(prober, options)
    assert options[1] in kept and len(kept) == len(options)


def test_fewest_kept_takes_the_piece_of_fewest_images_only_well_under_the_rules(
        tiling_instance):
    """Under ``PIECE_FROM`` one estimate more: F alone with the piece whose images the filter
    keeps fewest of (the 12 x 5's X, 10 images, in place of the rule's F), taken only under
    ``KEEP`` times the rule's; never for a schedule with E (an estimate with E costs three to
    five times one F alone) or an option whose piece is set already."""
    puzzle = tiling_instance("pentominoes_12x5.txt")
    cands = autoconfig.candidates(puzzle)[:1]
    option = tiling_prober.Option

    class _Stub:
        def __init__(self, seconds):
            self.cands, self.seconds, self.asked = cands, seconds, []

        def front(self, k, piece=None):
            return tiling.prepare(cands[k].puzzle, engine_name="auto",
                                  engine_fn=hybrid.solve_tiling, unique="rotation")

        def estimate(self, o):
            self.asked.append(o.piece)
            return tiling_prober.Estimate(o, self.seconds, 1)

    top = tiling_prober.Estimate(option(0, 12, "f" * 12), 1.0, 1)
    assert autoconfig.pieces_to_try(cands[0].puzzle, "rotation")[0] == "X"
    assert _Stub(0.5).front(0).plan.piece == "F"
    taken = autoconfig.fewest_kept(_Stub(0.8), top, "rotation")
    assert taken.option == option(0, 12, "f" * 12, "X")
    assert autoconfig.fewest_kept(_Stub(0.9), top, "rotation") is top
    for kept in (replace(top, option=option(0, 12, "e" * 9 + "fff")),
                 replace(top, option=option(0, 12, "f" * 12, "P"))):
        stub = _Stub(0.1)
        assert autoconfig.fewest_kept(stub, kept, "rotation") is kept and not stub.asked


def test_a_box_searched_under_half_a_second_gets_the_piece_of_fewest_images():
    """A 2 x 6 x 6 box cut into hexacubes (``cpkit generate tiling --box 2x6x6 --piece-size 6
    --seed 27``), estimated under ``PIECE_FROM``: the filter's rule constrains A (40 images
    kept), the choice D (8), and the search it runs makes under a third of the nodes (a
    quarter: 825,401 against 3,302,220), the same count."""
    puzzle = tiling_generator.generate((2, 6, 6), 6, seed=27)
    unique = {"unique": "rotation"}
    chosen = autoconfig.choose(puzzle, unique)
    assert chosen.chosen.seconds < autoconfig.PIECE_FROM and chosen.redundancy == "D"
    ranked = dict(symmetry.piece_choices(chosen.candidate.puzzle, "rotation"))
    assert chosen.front.plan.piece == "D" and ranked["D"] == min(ranked.values())
    config = dict(heuristic=str(chosen.config.schedule), fila_at=chosen.config.fila_at,
                  count_only=True, unique="rotation")
    runs = [solve(chosen.candidate.puzzle, engine="hybrid", redundancy=piece, **config)
            for piece in ("auto", "D")]
    assert runs[0].stats.extra["constrained_piece"] == "A"
    assert runs[0].count == runs[1].count == 10
    assert 3 * runs[1].stats.nodes < runs[0].stats.nodes


def test_the_piece_stage_takes_its_pick_only_where_finer_estimates_agree(monkeypatch):
    """A 2 x 6 x 6 box cut into hexacubes (``cpkit generate tiling --box 2x6x6 --piece-size 6
    --seed 44``): the piece stage's pick, D with F alone at 10 pieces, is estimated shorter
    than E, then F, at 11 with the rule's piece, and finer estimates put it longer; the
    choice keeps the configuration it had, whose search makes under a quarter of the pick's
    nodes (2.5 against 21.5 million), the same count.  Taken without the confirmation."""
    puzzle = tiling_generator.generate((2, 6, 6), 6, seed=44)
    kept = autoconfig.choose(puzzle, {"unique": "rotation"})
    confirm_from = autoconfig.CONFIRM_FROM
    monkeypatch.setattr(autoconfig, "CONFIRM_FROM", math.inf)
    taken = autoconfig.choose(puzzle, {"unique": "rotation"})
    assert kept.chosen.option.piece is None and taken.chosen.option.piece == "D"
    assert confirm_from <= taken.chosen.seconds < kept.chosen.seconds
    runs = [solve(c.candidate.puzzle, engine="hybrid", heuristic=str(c.config.schedule),
                  fila_at=c.config.fila_at, redundancy=c.redundancy, count_only=True,
                  unique="rotation") for c in (kept, taken)]
    assert runs[1].stats.extra["constrained_piece"] == "D"
    assert runs[0].count == runs[1].count == 295
    assert 4 * runs[0].stats.nodes < runs[1].stats.nodes


def test_a_near_tie_of_switches_is_settled_by_finer_estimates(monkeypatch):
    """A 13 x 6 box cut into hexominoes (``cpkit generate tiling --box 13x6 --piece-size 6
    --seed 31``): FILA from 11 and from 12 pieces are estimated within ``REFINE_WITHIN`` of
    each other, 11 the shorter; finer estimates put 12 well ahead, and the choice, handing
    over there, searches in under half the nodes the choice at 11 makes (5.1 against 13.9
    million), the same count.  Without the settling the choice stays at 11."""
    puzzle = tiling_generator.generate((13, 6), 6, seed=31)
    settled = autoconfig.choose(puzzle, {"unique": "rotation"})
    by_switch = {e.option.fila_at: e.seconds for e in settled.estimates
                 if e.option.orientation == 0 and e.option.piece is None and
                 set(e.option.letters) == {"f"}}
    assert by_switch[11] < by_switch[12] <= autoconfig.REFINE_WITHIN * by_switch[11]
    monkeypatch.setattr(autoconfig, "SETTLE_FROM", math.inf)
    coarse = autoconfig.choose(puzzle, {"unique": "rotation"})
    assert (settled.config.fila_at, coarse.config.fila_at) == (12, 11)
    runs = [solve(c.candidate.puzzle, engine="hybrid", heuristic=str(c.config.schedule),
                  fila_at=c.config.fila_at, redundancy=c.redundancy, count_only=True,
                  unique="rotation") for c in (settled, coarse)]
    assert runs[0].count == runs[1].count == 525
    assert 2 * runs[0].stats.nodes < runs[1].stats.nodes


@pytest.mark.parametrize("unique, count_only", [("rotation", True), ("rotation", False),
                                                ("mirror", False)])
def test_a_run_goes_on_with_the_search_begun_before_the_choice(tiling_instance, unique,
                                                               count_only):
    """The 10 x 6 is not finished by the first nodes and the choice keeps their
    configuration: the run goes on with that search, and finds what a run without it finds,
    in the same order, in as many nodes (its solutions so far handed over, or dropped by a
    run that only counts; in mirror mode each is checked as it is handed over)."""
    puzzle = tiling_instance("pentominoes_10x6.txt")
    runs = []
    for first in (True, False):
        choice = autoconfig.choose(puzzle, {"unique": unique}, search_first=first)
        runs.append(auto_search._solve(puzzle, hybrid.solve_tiling, choice, "auto", unique,
                                       {"unique": unique}, None, None, count_only, None, {}))
    went_on, fresh = runs
    assert went_on.stats.extra["searched_first"] >= autoconfig.FIRST_NODES
    assert fresh.stats.extra["searched_first"] == 0
    assert went_on.count == fresh.count == 2339 and went_on.stats.nodes == fresh.stats.nodes
    assert went_on.solutions == fresh.solutions and len(fresh.solutions) == \
        (0 if count_only else 2339)


class _Priced:
    """A prober whose estimates are given by switch (and letters, the same for all); a
    switch it has no estimate for is out of reach."""

    def __init__(self, by_switch):
        self.by_switch = by_switch
        self.asked = []

    def estimate(self, option):
        self.asked.append(option.fila_at)
        seconds = self.by_switch.get(option.fila_at)
        return None if seconds is None else tiling_prober.Estimate(option, seconds, 1)

    def within_reach(self, option):
        return option.fila_at in self.by_switch


@pytest.mark.parametrize("by_switch, chosen_at", [
    ({12: 0.79, 11: 0.85, 10: 0.62, 9: 1.31}, 10),        # past a rise to a fall below it
    ({12: 0.8, 11: 0.7, 10: 0.75, 9: 0.6, 8: 0.9, 7: 1.0}, 9),    # and again from there
    ({12: 0.8, 11: 0.9, 10: 0.85, 9: 0.1}, 12),           # two levels down, no further
    ({12: 0.8, 11: 0.6}, 11),                             # the next out of reach
])
def test_dlx_hands_over_deeper_where_one_or_two_levels_down_is_estimated_shorter(
        by_switch, chosen_at):
    """``deeper`` looks one and two levels below the best switch so far and moves to the
    best of them if shorter: the estimates of the 8 x 8 with a 2 x 2 hole at a corner's side
    rise one level down and fall two levels down (E from 10 pieces searched 0.24 s, from 12
    0.40 s)."""
    at = max(by_switch)
    top = tiling_prober.Estimate(tiling_prober.Option(0, at, "e" * (at - 3) + "fff"),
                                 by_switch[at], 1)
    found = walks.deeper(_Priced(by_switch), top)
    assert found.option.fila_at == chosen_at
    assert found.option.letters == ("e" * (at - 3) + "fff")[at - chosen_at:]


@pytest.mark.parametrize("by_switch, finer, chosen_at", [
    ({10: 1.0, 11: 0.6, 12: 0.7}, None, 11),            # up one piece, not two
    ({10: 1.0, 11: 0.6, 12: 0.5}, None, 12),            # FILA from the first piece
    ({10: 1.0, 11: 1.1, 12: 0.5}, None, 10),            # the walk stops at the first rise
    ({10: 1.0, 11: 0.6, 12: 0.5}, {10: 1.0, 11: 1.2}, 10),   # the finer estimates disagree
])
def test_a_switch_above_the_default_is_taken_where_estimated_shorter(by_switch, finer,
                                                                     chosen_at):
    """``higher`` walks the switch up from the default one piece at a time while the
    estimates fall (and the finer ones agree, where given), on a 9 x 8 box of twelve
    hexominoes whose default hands over at 10 pieces (60 cells, one word); 72 cells, all 12
    pieces, fit two words."""
    from cpkit.models.tiling_generator import generate

    puzzle = generate((9, 8), 6, seed=1)
    assert hybrid.latest_fila_at(puzzle, 64) == 10
    top = tiling_prober.Estimate(tiling_prober.Option(0, 10, "f" * 10), by_switch[10], 1)
    found = walks.higher(_Priced(by_switch), top, puzzle,
                              _Priced(finer) if finer is not None else None)
    assert found.option.fila_at == chosen_at
    assert len(found.option.letters) == chosen_at


def test_the_walk_up_ends_at_three_words_or_at_the_first_piece(tiling_instance):
    """Estimates that fall at every switch: the walk goes up to the last switch whose open
    cells fit ``WORDS`` (three) words (the 35 hexominoes in the 15 x 14 parallelogram, 210
    cells: 32 pieces, 192 cells), or to FILA from the first piece (the 9 x 8 box, 72
    cells)."""
    from cpkit.models.tiling_generator import generate

    falling = {a: 1.0 / a for a in range(1, 40)}
    for puzzle, last in ((tiling_instance("hexominoes_15x14_parallelogram.txt"), 32),
                         (generate((9, 8), 6, seed=1), 12)):
        at = hybrid.latest_fila_at(puzzle, 64)
        prober = _Priced(falling)
        top = tiling_prober.Estimate(tiling_prober.Option(0, at, "f" * at), falling[at], 1)
        assert walks.higher(prober, top, puzzle).option.fila_at == last
        assert max(hybrid.largest_volume(puzzle, a) for a in prober.asked) <= 3 * 64


def test_a_box_of_more_than_64_cells_can_hand_over_above_one_word():
    """A 9 x 8 box cut into twelve hexominoes (``cpkit generate tiling --box 9x8
    --piece-size 6 --seed 1``): the choice hands over above the last switch whose open cells
    fit one word (10 pieces), estimated shorter, and counts what the hybrid counts at its
    default switch."""
    from cpkit.models.tiling_generator import generate

    puzzle = generate((9, 8), 6, seed=1)
    choice = autoconfig.choose(puzzle, {"unique": "rotation"})
    assert choice.config.fila_at > hybrid.latest_fila_at(choice.candidate.puzzle, 64)
    auto = solve(puzzle, engine="auto", count_only=True)
    default = solve(puzzle, engine="hybrid", count_only=True)
    assert auto.count == default.count > 0
    assert auto.stats.extra["fila_at"] == choice.config.fila_at


def test_a_flat_puzzle_of_more_than_one_word_is_estimated_at_every_switch_up_to_two_words(
        tiling_instance):
    """A 12 x 7 box cut into twelve heptominoes (``cpkit generate tiling --box 12x7
    --piece-size 7 --seed 4``, 84 cells): the default hands over at 9 pieces, the last switch
    whose open cells fit one word; every switch up to the whole puzzle (two words) is
    estimated in full, with no glance (its two nodes drawn put the default at 0.09 s, searched
    in 0.43 s), and the choice hands over higher (FILA from the first piece, 0.09 s), counting
    what the hybrid counts at its default switch.  The 10 x 6, of one word, is offered its
    default and FILA from the first piece alone, as before."""
    from cpkit.models.tiling_generator import generate

    puzzle = generate((12, 7), 7, seed=4)
    first = autoconfig.candidates(puzzle)[0].puzzle
    at = hybrid.auto_config(first, True).fila_at
    assert at == hybrid.latest_fila_at(first, 64) < 12 and autoconfig.beyond_word(first, at)
    assert [o.fila_at for o in autoconfig.flat_switches(first, at)] == list(range(at, 13))
    choice = autoconfig.choose(puzzle, {"unique": "rotation"})
    assert choice.config.fila_at > at
    assert {e.option.fila_at for e in choice.estimates} == set(range(at, 13))
    auto = solve(puzzle, engine="auto", count_only=True)
    default = solve(puzzle, engine="hybrid", count_only=True)
    assert auto.count == default.count > 0
    small = autoconfig.candidates(tiling_instance("pentominoes_10x6.txt"))[0].puzzle
    at = hybrid.auto_config(small, True).fila_at
    assert not autoconfig.beyond_word(small, at)
    assert [o.fila_at for o in autoconfig.flat_switches(small, at)] == [11, 12]


def test_a_flat_puzzle_beyond_a_word_short_from_the_top_is_searched_so_at_once():
    """A 12 x 8 box cut into twelve octominoes (``cpkit generate tiling --box 12x8
    --piece-size 8 --seed 4``, 96 cells): FILA from the first piece is estimated under
    ``TOP_BELOW`` before anything else, and searched at once (the search first and the other
    switches' estimates took 70 ms for 3 ms of search), counting what the hybrid counts at
    its default switch.  The 12 x 7 box of heptominoes of the test above, estimated over it
    from the top, goes on to every switch."""
    from cpkit.models.tiling_generator import generate

    puzzle = generate((12, 8), 8, seed=4)
    first = autoconfig.candidates(puzzle)[0].puzzle
    at = hybrid.auto_config(first, True).fila_at
    assert autoconfig.beyond_word(first, at)
    choice = autoconfig.choose(puzzle, {"unique": "rotation"})
    assert choice.config.fila_at == puzzle.n_pieces
    assert [e.option.fila_at for e in choice.estimates] == [puzzle.n_pieces]
    assert choice.chosen.seconds < autoconfig.TOP_BELOW and choice.started is None
    auto = solve(puzzle, engine="auto", count_only=True)
    default = solve(puzzle, engine="hybrid", count_only=True)
    assert auto.count == default.count > 0
    longer = autoconfig.choose(generate((12, 7), 7, seed=4), {"unique": "rotation"})
    assert max(e.seconds for e in longer.estimates
               if e.option.fila_at == 12) >= autoconfig.TOP_BELOW
    assert len(longer.estimates) > 1


def test_a_flat_puzzle_estimated_long_from_the_top_skips_the_search_first_and_thin_switches():
    """A 15 x 10 box cut into fifteen decominoes (``cpkit generate tiling --box 15x10
    --piece-size 10 --seed 3``): FILA from the first piece is estimated over ``TOP_BELOW``,
    so the choice goes on, without the search first (it never finished on such boxes), to
    the switches from the top down to the first whose sample is thin; none below it is
    estimated, and the count is FILA from the first piece's."""
    from cpkit.models.tiling_generator import generate

    puzzle = generate((15, 10), 10, seed=3)
    cands = autoconfig.candidates(puzzle)
    first = cands[0].puzzle
    at = hybrid.auto_config(first, True).fila_at
    switches = autoconfig.flat_switches(first, at)
    prober = tiling_prober.Prober(cands, {"unique": "rotation"}, True)
    kept = autoconfig.reaching(prober, switches)
    lowest = kept[0].fila_at
    assert at < lowest < puzzle.n_pieces and kept == switches[switches.index(kept[0]):]
    assert prober.frontier(0, lowest - 1).thin and not prober.frontier(0, lowest).thin
    choice = autoconfig.choose(puzzle, {"unique": "rotation"})
    assert choice.started is None and choice.report()["searched_first"] == 0
    top = [e for e in choice.estimates if e.option == switches[-1]]
    assert top and top[0].seconds >= autoconfig.TOP_BELOW
    assert min(e.option.fila_at for e in choice.estimates) >= lowest
    auto = solve(puzzle, engine="auto", count_only=True)
    fila = solve(puzzle, engine="hybrid", fila_at=puzzle.n_pieces, count_only=True)
    assert auto.count == fila.count > 0


def test_a_thin_sample_gives_no_estimate_and_the_choice_hands_over_where_draws_reach():
    """A 14 x 10 box cut into fourteen decominoes (``cpkit generate tiling --box 14x10
    --piece-size 10 --seed 1``): no random DLX descent of the default switch's sample reaches
    it (6 pieces left: most of them die above), so the figure would be the DLX levels alone,
    0.07 s, for a search of 2.2 s; it gives no estimate, and the choice hands over where the
    draws reach (0.2 s), counting what FILA from the first piece counts."""
    from cpkit.models.tiling_generator import generate

    puzzle = generate((14, 10), 10, seed=1)
    cands = autoconfig.candidates(puzzle)
    first = cands[0].puzzle
    at = hybrid.auto_config(first, True).fila_at
    prober = tiling_prober.Prober(cands, {"unique": "rotation"}, True)
    assert prober.frontier(0, at).thin
    assert prober.estimate(tiling_prober.Option(0, at, "f" * at)) is None
    whole = tiling_prober.Option(0, 12, "f" * 12)
    assert not prober.frontier(0, 12).thin and prober.estimate(whole) is not None
    # Every switch up to the whole puzzle is offered: 140 cells, three words.
    assert [o.fila_at for o in autoconfig.flat_switches(first, at)] == list(range(at, 15))
    choice = autoconfig.choose(puzzle, {"unique": "rotation"})
    assert choice.config.fila_at > at
    auto = solve(puzzle, engine="auto", count_only=True)
    fila = solve(puzzle, engine="hybrid", fila_at=puzzle.n_pieces, count_only=True)
    assert auto.count == fila.count > 0


def test_the_search_begun_first_stops_after_its_subproblems():
    """``hybrid_started.Started`` bounded by its subproblems stops soon after handing over
    that many (a 12 x 10 box of decominoes finished its first 50,000 nodes after 1,715
    hand-overs, 0.5 s), and a run that goes on with it counts what a fresh search counts."""
    from cpkit.models.tiling_generator import generate

    puzzle = generate((12, 10), 10, seed=3)
    first = autoconfig.candidates(puzzle)[0].puzzle
    front = tiling.prepare(first, engine_name="auto", engine_fn=hybrid.solve_tiling,
                           unique="rotation")
    config = hybrid.auto_config(first, True)
    bounded = Started.run(first, config, front.keep, 50_000, 100)
    assert 100 <= bounded.search.subproblems < 400 and not bounded.search.finished
    assert bounded.nodes < 50_000
    whole = Started.run(first, config, front.keep, 50_000)
    assert whole.search.subproblems > 1_000
    going_on = hybrid.solve_tiling(first, fila_at=config.fila_at, keep=front.keep,
                                   constrained=True, count_only=True, started=bounded)
    fresh = hybrid.solve_tiling(first, fila_at=config.fila_at, keep=front.keep,
                                constrained=True, count_only=True)
    assert going_on.count == fresh.count > 0


def test_a_flat_puzzle_estimated_over_half_a_second_gets_its_piece_by_estimates(monkeypatch):
    """A 9 x 8 box cut into twelve hexominoes (``cpkit generate tiling --box 9x8
    --piece-size 6 --seed 3``, 82 solutions) is estimated between ``PIECE_FROM`` and 2 s:
    the piece stage estimates other pieces constrained, and the one it takes searches in
    fewer than half the nodes the rule's piece takes (2.0 against 12.2 million), with
    the same count."""
    from cpkit.models.tiling_generator import generate

    puzzle = generate((9, 8), 6, seed=3)
    choice = autoconfig.choose(puzzle, {"unique": "rotation"})
    ruled = [e for e in choice.estimates if e.option.piece is None]
    assert autoconfig.PIECE_FROM <= min(e.seconds for e in ruled) < 2.0
    assert choice.chosen.option.piece is not None
    auto = solve(puzzle, engine="auto", count_only=True)
    monkeypatch.setattr(autoconfig, "PIECE_FROM", 2.0)
    assert autoconfig.choose(puzzle, {"unique": "rotation"}).chosen.option.piece is None
    before = solve(puzzle, engine="auto", count_only=True)
    assert auto.count == before.count == 82
    assert 2 * auto.stats.nodes < before.stats.nodes
