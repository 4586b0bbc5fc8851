"""The automatic configuration of a tiling search (``--engine auto``).

What the search costs depends on things the file does not choose on purpose: the orientation
in which the puzzle is drawn (cells are numbered x fastest, so FILA's F fills along the file's
x axis, and every tie in DLX and E is broken in that order), the point where DLX hands over to
FILA, and FILA's heuristic at each level.  The 10 x 6 pentominoes drawn 10 wide take ten times
as many fits as drawn 6 wide; the 2 x 5 x 6 box fifteen times as many in its worst orientation
as in its best.  So ``choose`` decides all three from the puzzle itself:

1. **Candidates.**  Every turn and mirror image of the puzzle (``models.reorient``) that gives
   a different search: two for a rectangle, one for a square or a cube of achiral pieces, up
   to twelve for a box of three different sides and chiral pieces (``tiling_candidates``).
   They are the same set for a puzzle and any turn of its file, and are ranked by their
   geometry alone: the shortest side along z, filled last, the middle one along x, filled
   first; where a piece spans all three axes, the longest along z and the shortest along x.
2. **Estimates** (``tiling_prober``).  A configuration (orientation, switch, FILA letters per
   level, constrained piece) is estimated on the subproblems DLX hands over: up to
   ``SAMPLED`` nodes of the switch depth are drawn by random DLX descents (more rounds of them
   while too few reach it), each subproblem compiled, and the figures of searching it with the
   letters estimated by a population of ``POPULATION`` nodes per level (``fila_probe``), then
   priced in seconds (``cost_model``).
3. **From the top**: a flat puzzle whose highest switch is two pieces or more above the
   default has F alone there estimated first, and searched at once if under ``TOP_BELOW``;
   if not, the switches are estimated from the top down to the first whose sample is thin
   (``reaching``), with no search first.
4. **The search first** (otherwise): F alone at the default switch (``first_config``), on
   the geometric first orientation, runs ``FIRST_NODES`` nodes (or ``FIRST_SUBPROBLEMS``
   hand-overs, or work priced at ``FIRST_PRICED`` seconds) before any estimate
   (``hybrid_started.Started``); a puzzle that finishes there needs no choice, and a run
   whose choice keeps that configuration goes on with it.
   The estimates of the other orientations run on the first's front carried through the turn
   (``Prober.front``); the orientation chosen gets its own (``Prober.prepared``).
5. **Stages**, each only if the estimated search is long enough for its probes to pay: a
   glance (coarse estimates of F alone, the search begun first, and of the default schedule,
   on the geometric first orientation, and of FILA from the first piece for a flat puzzle,
   ``flat_switches``; the first under ``GLANCE_BELOW`` seconds is what runs, where a piece
   is solid the shorter of F alone and the default, both glanced at; the schedule of a flat
   one with holes then settled by ``flat_schedule``; a flat puzzle of more than one
   word, ``beyond_word``, is not glanced at), the default
   schedule (``hybrid.auto_config``: F alone, de Bruijn's fill order, in 2D; E, then F for
   the last three pieces, in 3D) on the geometric first orientation, beside the switches
   above it for a flat puzzle (FILA from the first piece, or every switch up to ``WORDS``
   words of open cells) and E, then F, with holes, the switch it finds shorter kept by the
   stages after (over ``REFINE_FROM`` one above the default only where finer estimates
   agree, ``confirmed``; from ``SETTLE_FROM``, a near tie settled by finer estimates,
   ``settled``), and F alone there over ``TINY`` seconds; over ``HIGHER_FROM``,
   switches above it, on up to ``WORDS`` words of open cells, one piece higher at a time while
   that pays (``higher``), the switch found kept by the stages after; over ``ORIENT_FROM``
   seconds, F alone on every
   orientation (glanced at first, estimated only within ``SCREEN`` times the best; another
   replaces the first only under ``KEEP`` times its estimate), then the default on the best
   (E, then F, for a 2D puzzle); from ``FEWEST_FROM`` to ``PIECE_FROM``, F alone with the
   piece of fewest kept images constrained in place of the rule's (``fewest_kept``); over
   ``PIECE_FROM``, the piece the redundancy filter constrains:
   the three whose images it keeps fewest of and its rule's first choice (the Bedlam cube's
   D, two images, against the rule's K, nine: a third of the estimated search), each with
   DLX handing over at once or one piece later (the two interact), and in 3D with F alone
   and, within ``PIECE_CLOSE`` of the best F alone, with the default schedule (so do they),
   a pick from ``CONFIRM_FROM`` to ``REFINE_FROM`` taken only where finer estimates agree
   (``confirmed``);
   over ``SWITCH_FROM``, DLX one or two levels deeper at a time while that pays
   (``tiling_walks.deeper``; DLX's min-fit over cells and pieces prunes the top of the tree
   better than FILA's cell heuristics: polycube hands over with ten pieces left); over
   ``SCHEDULE_FROM``, E, or S, down to a level and F below, the level found by a climb
   (``climbs``); over ``REFINE_FROM``, the closest options estimated again,
   ``REFINE_SCALE`` times as finely, and the finer estimates decide.  No switch deeper than
   the default is estimated where more than ``DEEPEST_FRONTIER`` (``tiling_prober``) nodes
   are estimated to be handed over: so few drawn nodes cannot speak for so many.

Everything is seeded and ranked by estimates and keys only (never by the clock), so a puzzle
gets the same configuration on every run and for every turn or mirror image of its file.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field, replace
from typing import Any

from ....models.symmetry import piece_choices
from ....models.tiling import Puzzle
from .tiling_candidates import Candidate, candidates, solid_pieces, unlike
from ..fila import fila_probe, fila_search as fila
from ..hybrid import hybrid_search as hybrid
from ..hybrid.hybrid_started import Started
from ...runtime import jit
from .. import tiling_front as tiling
from ...runtime.driver import check_setup
from . import tiling_cost_model as cost_model
from .tiling_prober import WORDS, Estimate, Option, Prober, in_search, shortest
from .tiling_schedules import config_of, default_letters, first_config
from .tiling_walks import climbs, closest, confirmed, deeper, finest, higher, settled

#: The glance: one estimate of the default configuration from this many nodes at the switch
#: and this population, before anything else.  A puzzle it puts under ``GLANCE_BELOW`` seconds
#: is searched so configured at once: the glance comes within a factor of two of the full
#: estimate, so the stages from ``ORIENT_FROM`` would not run, and the full estimates of F
#: alone and of the default would only rank the two again.  They ranked them as the glances
#: did on all ten boxes where both were made (the bundled ones and random dissections of 40
#: to 72 cells into polycubes), and cost 7 to 10 ms where the searches took 15 to 100 ms: on
#: the Soma cube (3 ms of search) the full estimate cost 4 ms, on the 15 x 4 (75 ms) 6 ms.
GLANCE_SAMPLED = 2
GLANCE_POPULATION = 50
GLANCE_BELOW = 0.125
#: Nodes drawn at the switch by the estimates that choose a short flat puzzle's schedule
#: (``flat_schedule``).
FLAT_SAMPLED = 4
#: The orientation stage estimates finely only the orientations whose glance is within this
#: factor of the best estimate so far (a glance comes within a factor of two of the fine
#: estimate on the bundled puzzles).
SCREEN = 4.0
#: Another orientation replaces the geometric first only if estimated under this share of
#: it: the first's search is begun and its front made, and estimates of orientations that
#: search alike differ by more than their searches (the one-sided 30 x 3's mirror twins, now
#: estimated once: 0.24 against 0.27 s estimated, 0.150 against 0.152 s searched).
KEEP = 0.85
#: A flat puzzle whose highest switch (``flat_switches``) is two pieces or more above the
#: default and estimated under this many seconds (``from_the_top``, before anything else) is
#: searched so at once.  On boxes of 96 to 150 cells cut into octominoes to decominoes the
#: search first ran 0.02-0.4 s before it stopped unfinished (100 hand-overs of subproblems of
#: a word of open cells) and each switch below the top cost 5-45 ms to estimate: 0.06-0.65 s
#: of choice for 2-25 ms of search, nearly always FILA from the first piece.  The top's
#: estimate came at 0.7 to 3.3 times its search on 93 flat puzzles of more than a word; none
#: estimated under 0.05 s searched longer than 0.03 s.  One piece above the default (boxes
#: of 66 to 70 cells cut into hexominoes and heptominoes) the search first finished in 5-30
#: ms on most, and the top's estimate cost about what it saved.
TOP_BELOW = 0.05
#: Estimated search seconds from which each further stage is worth its probes.
TINY = 0.02
ORIENT_FROM = 0.25
SCHEDULE_FROM = 1.0
#: The piece stage (up to ten estimates, 0.04-0.16 s) pays from here: on ten of twelve boxes
#: of 66 to 84 cells cut into hexominoes, estimated at 0.5 to 2 s, the piece it found took
#: 0.34 to 0.88 of the rule's piece's search and choice (a 9 x 8 box 0.56 -> 0.19 s, six
#: times fewer nodes), 1.05 and 1.13 on the other two; 1.20 and 1.27 on two boxes of
#: octominoes, 0.95 and 1.08 on two of hexacubes.  Under 0.5 s it lost its cost on five of
#: the seven boxes where it ran.
PIECE_FROM = 0.5
#: Under ``PIECE_FROM``, from here, one estimate more: the piece whose images the filter keeps
#: fewest of, constrained instead of the rule's (``fewest_kept``; 3-34 ms, so not for
#: searches estimated shorter).
FEWEST_FROM = 0.1
#: The piece stage estimates a piece with E, then F, only if its estimate F alone is within
#: this factor of the best piece's.  On 33 boxes cut into pentacubes and hexacubes, the
#: stage's pick was always a piece within 1.5 of the best F alone; the farthest, on a 3 x 4 x 6
#: box of hexacubes, E, then F, with a piece 1.47 times the best F alone (estimated 11.1 s;
#: the best F alone 16.1 s).  E's gain over F alone differs by piece by up to three times
#: (0.47 to 1.42 there), hence the margin.
PIECE_CLOSE = 2.0
#: The piece stage's pick replaces the configuration so far only where ``finer`` estimates
#: agree (``confirmed``), if estimated from this many seconds to ``REFINE_FROM`` (from there
#: the refinement estimates the closest options finely anyway).  Its estimates are the
#: least of up to twenty coarse ones, many at switches whose hundreds of subproblems eight
#: drawn nodes stand for, and the least of noisy numbers is low: on a 2 x 6 x 6 box of
#: hexacubes (seed 44) D, F alone at 10, was estimated at 0.42 s against 0.54 s for E, then
#: F at 11 (finer: 1.3 and 0.57 s) and searched in 0.88 s against 0.30 s.  On 381 puzzles
#: (boxes cut at random, boxes with holes, the bundled ones) a pick in that range was
#: confirmed on 23 and turned down on 5, each of which then searched in 0.32 to 0.85 of the
#: pick's time; a confirmation costs two finer estimates, 8 to 58 ms (median 28).  Over
#: 2 s the finer estimates did no better than the coarse: of four picks they turned down,
#: two searched 0.69 and 0.75 times as long as the pick, two 1.14 and 1.31 times (the PT
#: diamond, 5.3 s against 4.0 s).
CONFIRM_FROM = 0.25
#: From here to ``REFINE_FROM``, the first comparison of switches (a flat puzzle's, beside E,
#: then F, where it has holes) is settled by ``finer`` estimates of the options within
#: ``REFINE_WITHIN`` of the least (``tiling_walks.settled``): at switches handing over
#: hundreds of subproblems for eight drawn nodes, coarse estimates a few per cent apart say
#: nothing of their order, and every stage after builds on the switch.  A 13 x 6 box of
#: hexominoes (seed 31) had 11 and 12 pieces estimated at 0.316 and 0.322 s (finer: 1.42 and
#: 0.47 s), searched F alone in 0.73 and 0.34 s.  On 417 puzzles (those screened for
#: ``CONFIRM_FROM``, the benchmark's) it compared on 22, at 9-22 ms, and changed five
#: configurations: the 13 x 6 as drawn and turned and a 9 x 8 box of seed 73, searched in
#: 0.32 and 0.33 of the time; a 9 x 8 box of seed 28, drawn both ways, in 2.9 times (0.098
#: against 0.28 s: the switch it left was the one where the piece of fewest images paid).
SETTLE_FROM = 0.25
#: DLX one or two levels deeper (``tiling_walks.deeper``) pays from here: on 171 puzzles
#: (the bundled ones, boxes cut at random, the 8 x 8 and other boxes with holes, tetracubes
#: and tetrominoes) it made two to six estimates more (10-40 ms) on eleven and changed the
#: configuration of seven that search in under 2 s, all of the 8 x 8 with holes: search and
#: choice 0.69 to 1.06 times as long (a 2 x 2 hole at a corner's side: E from 10 pieces,
#: 0.45 against 0.61 s).
SWITCH_FROM = 0.5
REFINE_FROM = 2.0
#: Estimated search seconds from which switches above the default are estimated (``higher``).
HIGHER_FROM = 0.25
#: The refinement re-estimates the options within this factor of the best (at most
#: ``REFINED``), drawing ``REFINE_SCALE`` times as many nodes, each population as much larger.
REFINE_WITHIN = 1.3
REFINED = 3
REFINE_SCALE = 2
#: Nodes searched before any estimate (``first_config``, on the geometric first
#: orientation): a puzzle they finish is not estimated (the 20 x 3 takes 33,000 nodes, 2 ms,
#: the Soma cube 26,000, 3 ms, where the glance alone took 5-10 ms), and a run that chooses
#: that configuration goes on with them; one that chooses another loses them (2-5 ms).
FIRST_NODES = 50_000
#: ... or until it has handed this many subproblems to FILA: boxes cut into decominoes
#: finished in the first nodes after 1,100 to 1,700 hand-overs (0.5-0.8 s), where FILA from 12
#: pieces searched them in 0.02-0.3 s; the bundled puzzles and the boxes cut into pentominoes
#: to heptominoes that finished in them handed over 40 at most.
FIRST_SUBPROBLEMS = 100
#: ... or until its work is priced at this many seconds (``cost_model.searched_seconds``,
#: the estimates' prices: the bound is the same on every machine).  Where nodes are dear
#: (boxes of hexacubes handing over at ten pieces: 0.5-0.8 microseconds each under E, then
#: F, the search begun first when this bound was set) 50,000 nodes took 35-80 ms, lost
#: wherever the choice then chose another configuration;
#: bounded so, 9-12 ms: on 30 boxes searched in 0.1-0.3 s (seeds 3-17, cut into pentacubes,
#: hexacubes and hexominoes to decominoes) search and choice took 0.935 of their time
#: (geometric mean; 2 x 4 x 9 boxes of hexacubes 0.66-0.69).  The 20 x 3 and the Soma cube
#: finish under it (priced at 2 and 4 ms), and so did 14 of the 15 boxes of that set that
#: finished in 50,000 nodes; the other, a 3 x 3 x 6 box of hexacubes (34,389 nodes), stopped
#: at 14,000, was chosen the same configuration and went on with them (1.09 of its time).
FIRST_PRICED = 0.030


@dataclass
class Choice:
    """What ``--engine auto`` runs: the candidate (orientation, front) and the hybrid
    configuration, with every estimate made on the way, the seconds spent choosing (the
    chosen front's preparation left out: every search makes one) and, apart from them, those
    spent compiling or loading kernels (but the chosen front's own, which it reports)."""

    candidate: Candidate
    front: tiling.Front
    redundancy: str | None
    config: hybrid.Config
    chosen: Estimate | None = None
    estimates: list[Estimate] = field(default_factory=list)
    seconds: float = 0.0
    jit_seconds: float = 0.0
    started: Started | None = None

    def describe(self) -> str:
        turn = self.candidate.turn
        return "as drawn" if turn.is_identity else f"turned ({turn.describe()})"

    def report(self) -> dict[str, Any]:
        """Figures for the result's statistics, the same keys whatever the choice did:
        ``searched_first``, the nodes searched before the choice that the run went on with
        (0: none), and ``estimated_seconds``, the estimate of the configuration chosen (None:
        none was estimated)."""
        return {"orientation": self.describe(), "choice_seconds": round(self.seconds, 6),
                "searched_first": self.started.nodes if self.started is not None else 0,
                "estimated_seconds": round(self.chosen.seconds, 6)
                if self.chosen is not None else None,
                "configurations_estimated": len(self.estimates)}


def same_search(a: hybrid.Config, b: hybrid.Config) -> bool:
    """Whether two configurations search alike (whatever the reason given for them)."""
    return (a.fila_at, str(a.schedule), a.nof) == (b.fila_at, str(b.schedule), b.nof)


def pieces_to_try(puzzle: Puzzle, unique: str) -> list[str]:
    """The pieces the piece stage estimates: the three whose images the redundancy filter
    keeps fewest of (the tree's top level is that many nodes), and the filter's own first
    choice by its rule (``symmetry.piece_choices``)."""
    ranked = piece_choices(puzzle, unique)
    fewest = [name for name, _ in sorted(ranked, key=lambda choice: choice[1])[:3]]
    return fewest + [name for name, _ in ranked[:1] if name not in fewest]


def with_close_pieces(prober: Prober, options: list[Option]) -> list[Option]:
    """The piece stage's ``options`` worth estimating: each piece F alone, and the other
    schedules only for the pieces whose best estimate F alone is within ``PIECE_CLOSE`` times
    the best piece's, or where estimated already.  An estimate with E costs three to five
    times one of F alone (its image lists are listed at every cell of an image, not at its
    first): 70-85% of the stage."""
    alone = [o for o in options if set(o.letters) == {"f"}]
    if not alone or len(alone) == len(options):
        return options
    by_piece: dict[str | None, float] = {}
    for estimate in filter(None, (prober.estimate(o) for o in alone)):
        piece = estimate.option.piece
        by_piece[piece] = min(by_piece.get(piece, math.inf), estimate.seconds)
    fastest = min(by_piece.values(), default=math.inf)
    return [o for o in options if o in alone or o in prober.made or
            by_piece.get(o.piece, math.inf) <= PIECE_CLOSE * fastest]


def fewest_kept(prober: Prober, top: Estimate, unique: str) -> Estimate:
    """``top``, or ``top`` with the piece whose images the redundancy filter keeps fewest of
    constrained in place of its rule's (``symmetry.piece_choices``), if that is estimated
    under ``KEEP`` times ``top``; only for F alone (an estimate with E costs three to five
    times as much).  DLX places the constrained piece first, so its kept images are the
    tree's first level; the rule, tuned on the bundled puzzles (the Tetris Cube's L, twelve
    images, searched in a third of the time of its G, eight), is no guide on others: on 33
    puzzles searched in 0.05 to 25 s as configured (boxes cut at random into pentacubes,
    hexacubes and hexominoes, 8 x 8 boxes with holes), the piece of fewest images took 0.25
    to 2.9 times the rule's piece's time.  Under 1 s, where the two differed by over 1.3
    times (21 files), one estimate of 3-34 ms so compared picked the faster on 18 and kept
    the rule's piece on the other three: the 2 x 6 x 6 box of seed 27, 0.19 s with the rule's
    A (40 images), 0.047 s with D (8); the 12 x 5 pentominoes, 0.084 s with the rule's F,
    0.18 s with X (10), kept."""
    if top.option.piece is not None or set(top.option.letters) != {"f"}:
        return top
    k = top.option.orientation
    fewest = pieces_to_try(prober.cands[k].puzzle, unique)[:1]
    if not fewest or fewest[0] == prober.front(k).plan.piece:
        return top
    other = prober.estimate(replace(top.option, piece=fewest[0]))
    return other if other is not None and other.seconds < KEEP * top.seconds else top


def flat_switches(puzzle: Puzzle, at: int) -> list[Option]:
    """F alone at the default switch ``at`` and, for a flat puzzle whose constrained piece
    DLX places first (``hybrid.auto_config``), at every switch above it whose open cells fit
    ``WORDS`` words: the choice estimates them all.  Either end can search several times
    faster than the other: FILA from the first piece took 0.12 s on the 12 x 5 pentominoes,
    0.022 s on the 15 x 4, 3.2 ms on a 13 x 5 with a plus cut out of its middle (0.23, 0.051
    and 15 ms with DLX placing the X, or the F, first), and 0.60 s on the 10 x 6 (0.073 s).
    The estimates ranked the two as the searches did on 13 of 14 flat puzzles, the other a
    near tie (the 8 x 8 with four holes: 0.037 against 0.040 s), at 1 to 2 ms for FILA from
    the first piece (one subproblem, the whole puzzle).  On a puzzle of more than one word
    (``beyond_word``) the default is the last switch on one word and the ones above are
    searched on two: on boxes of 70 to 84 cells cut into hexominoes and heptominoes they
    searched up to seven times faster (a 14 x 6 box 4.9 s at 10 pieces, 0.70 s at 14), and
    the lowest estimate among them chose a switch within 1.25 times the fastest on 31 of 34
    such puzzles (F alone, one orientation).  Not in 3D, where no box was estimated faster
    from the first piece (the 2 x 5 x 6 30 times slower, the Soma cube 1.6, the Bedlam cube
    a tie) and the switches above the default are ``higher``'s."""
    options = [Option(0, at, "f" * at)]
    if puzzle.dimension == 2:
        for up in range(at + 1, puzzle.n_pieces + 1):
            if hybrid.largest_volume(puzzle, up) > WORDS * fila.WORD:
                break
            options.append(Option(0, up, "f" * up))
    return options


def beyond_word(puzzle: Puzzle, at: int) -> bool:
    """Whether the switch above the default ``at`` needs more than one word of open cells: the
    glance's two nodes drawn at the default then speak for too few of its subproblems (boxes
    of 72 and 84 cells cut into hexominoes and heptominoes were glanced at 0.05 and 0.09 s
    and searched in 0.34 and 0.42 s), so such a flat puzzle is estimated fully at once."""
    return at < puzzle.n_pieces and hybrid.largest_volume(puzzle, at + 1) > fila.WORD


def from_the_top(prober: Prober, puzzle: Puzzle, switches: list[Option]) -> Estimate | None:
    """The estimate of F alone at the highest of ``switches`` (``flat_switches``: FILA from
    the first piece where the puzzle fits ``WORDS`` words), made before the search first where
    that switch is two pieces or more above the default: there both the search first and the
    other switches' estimates are dear (``TOP_BELOW``)."""
    load_probes(puzzle, switches[-1].fila_at)
    return prober.estimate(switches[-1])


def load_probes(puzzle: Puzzle, fila_at: int) -> None:
    """The estimates' kernels for the words of open cells the switch at ``fila_at`` leaves
    (loaded once per process, ``jit.warm``)."""
    fila_probe.jit_seconds(fila.words_for(hybrid.largest_volume(puzzle, fila_at)))


def reaching(prober: Prober, switches: list[Option]) -> list[Option]:
    """``switches`` (``flat_switches``) without those below the highest whose sample is thin
    (``Frontier.thin``) under one that is not: a deeper switch's descents go through its
    levels and die there as often.  Each thin sample costs every round of draws for no
    estimate (23-65 ms each on 31 of 57 boxes cut into hexominoes to decominoes whose top
    was estimated over ``TOP_BELOW``, up to four on one)."""
    reached = False
    for k in range(len(switches) - 1, -1, -1):
        drawn = prober.frontier(0, switches[k].fila_at)
        if drawn is not None and drawn.thin and reached:
            return switches[k + 1:]
        reached = reached or drawn is not None and not drawn.thin
    return switches


def flat_schedule(switches: list[Option], closer: Prober, puzzle: Puzzle) -> Estimate | None:
    """The schedule of a flat puzzle with holes or notches (free cells short of its box)
    whose glance is short: F alone at each of ``switches`` (``flat_switches``; the search
    begun first, which a tie keeps) or E, then F for the last three pieces at the first,
    whichever ``closer`` estimates shortest (None if none can be estimated).  A rectangle
    keeps F alone, de Bruijn's fill along the short side: there E, then F, searched at best
    0.77 times as long (the 12 x 5) and up to four times (the L tetromino's 16 x 4), and the
    estimates' 7 ms put the 15 x 4 at 1.26 times the search of its best orientation.
    ``closer`` draws ``FLAT_SAMPLED`` nodes at the switch where the glance drew two, at about
    the glance's cost: two nodes had the 8 x 8 with four holes at (2, 2), (2, 5), (5, 2) and
    (5, 5) the wrong way round (0.016 s for F alone, 0.024 s for E, then F; searched in 0.041
    and 0.014 s), four the right way (0.071 and 0.031 s).  The holes are what E's count of
    open neighbours sees and F's fill order does not (the 8 x 8 with its centre hole: 0.155
    against 0.022 s)."""
    return shortest(closer, with_holes(switches, puzzle))


def with_holes(switches: list[Option], puzzle: Puzzle) -> list[Option]:
    """The options of a flat puzzle with holes: F alone at each of ``switches``, and E, then
    F for the last three pieces at the first (the search begun first)."""
    at = switches[0].fila_at
    return switches[:1] + [replace(switches[0], letters=default_letters(puzzle, at, 3))] + \
        switches[1:]


def choose(puzzle: Puzzle, front_options: dict[str, Any], nof: bool | None = None,
           search_first: bool = True, store: bool = True) -> Choice:
    """The orientation and configuration ``--engine auto`` runs (see the module's text);
    ``search_first``: search ``FIRST_NODES`` first (a choice made without, to look at the
    estimates alone, may choose another configuration for a puzzle they finish); ``store``:
    whether the search begun first keeps its solutions (not for a run that only counts, unless
    the front checks each: the Soma cube's 480 cost 1.4 ms of a 2-ms search, each found under
    a hand-over going back to Python)."""
    start = time.perf_counter()
    compiled = jit.warmed_seconds()
    cands = candidates(puzzle)
    first = cands[0].puzzle
    use_nof = len(first.shapes) > 1 if nof is None else bool(nof)
    prober = Prober(cands, front_options, use_nof)
    front = prober.front(0)
    constrained = front.plan is not None and front.plan.piece is not None
    at = hybrid.auto_config(first, constrained, use_nof).fila_at

    started: Started | None = None

    def finish(chosen: Estimate | None) -> Choice:
        k, piece = (chosen.option.orientation, chosen.option.piece) if chosen is not None \
            else (0, None)
        chosen_front = prober.prepared(k, piece)
        if chosen is None:
            config = hybrid.auto_config(cands[k].puzzle, constrained, use_nof)
            if started is not None and started.search.finished:
                config = replace(started.config, reason=f"{config.reason}, finished in the "
                                                        f"first {started.nodes:,} nodes")
        else:
            config = config_of(chosen.option.fila_at, chosen.option.letters, use_nof,
                               "chosen by estimates")
        made = [e for e in prober.made.values() if e is not None]
        compiling = jit.warmed_seconds() - compiled
        # The chosen front's own preparation is every search's (``prep_seconds``), not the
        # choice's, and so are the search begun first and its building if the run goes on
        # with it.
        prep = chosen_front.extra.get("prep_seconds", 0.0)
        go_on = started if started is not None and k == 0 and piece is None and \
            same_search(config, started.config) else None
        return Choice(cands[k], chosen_front, prober.redundancy(piece), config, chosen,
                      made, time.perf_counter() - start - compiling - prep
                      - (go_on.seconds + go_on.built_in if go_on else 0.0),
                      compiling - chosen_front.jit_seconds, go_on)

    def best(options: list[Option]) -> Estimate | None:
        return shortest(prober, options)

    if at <= 0 or front.proof is not None:
        return finish(None)
    fill, default = "f" * at, default_letters(first, at)
    switches = flat_switches(first, at)
    flat = default == fill          # F alone is the default schedule
    from_top = search_first and flat and len(switches) > 2
    if from_top:
        top = from_the_top(prober, first, switches)
        if top is not None and top.seconds < TOP_BELOW:
            return finish(top)
        switches = reaching(prober, switches)
    elif search_first:
        started = Started.run(first, first_config(first, constrained, use_nof), front.keep,
                              FIRST_NODES, FIRST_SUBPROBLEMS, store=store or front.check,
                              enough=lambda search: cost_model.searched_seconds(search)
                              >= FIRST_PRICED, **in_search(front))
        check_setup()
        if started.search.finished:
            return finish(None)
    fila_probe.jit_seconds()        # the estimates' kernels: loaded only for a choice
    holed = flat and first.n_cells < math.prod(first.box)
    glance = Prober(cands, front_options, use_nof, shared=prober.shared,
                    sampled=GLANCE_SAMPLED, population=GLANCE_POPULATION)
    # The search begun, F alone (``first_config``), is glanced at first: where it is short,
    # the default's estimates cost more than they win (the 2 x 3 x 10 box of pentominoes: 12
    # ms of them for 30 ms of search).  A flat puzzle's FILA from the first piece is glanced at
    # beside it (``switches``).  Where a piece is solid, both are glanced at before either is
    # kept: E, then F, searches some small boxes of solid pieces faster (2 x 5 x 5 boxes of
    # pentacubes, 0.12 against 0.15 s), F alone most of them (0.3 to 0.7 of the time).
    if flat and beyond_word(first, at):
        glances = []
        load_probes(first, switches[-1].fila_at)
    elif flat:
        glances = [switches]
    elif solid_pieces(first):
        glances = [switches + [Option(0, at, default)]]
    else:
        glances = [switches, [Option(0, at, default)]]
    glanced: Estimate | None = None
    for options in glances:
        glanced = min(filter(None, [glanced] + [glance.estimate(o) for o in options]),
                      key=lambda e: e.seconds, default=None)
        if glanced is not None and glanced.seconds < GLANCE_BELOW:
            prober.made.update(glance.made)
            if holed:
                closer = Prober(cands, front_options, use_nof, shared=prober.shared,
                                sampled=FLAT_SAMPLED, population=GLANCE_POPULATION)
                glanced = flat_schedule(switches, closer, first) or glanced
                prober.made.update(closer.made)
            return finish(glanced)
    # A flat puzzle with holes has E, then F, estimated beside F alone here too: FILA from
    # the first piece can bring F alone under the stages where E is (the 8 x 8 with its
    # centre hole: 0.15 s estimated, 0.079 s searched, where E, then F, searches in 0.022 s).
    # The finer estimates of the switches above the default, the walk up and the refinement
    # at the end: one prober, so that an option they look at is estimated once.
    finer = Prober(cands, front_options, use_nof, REFINE_SCALE, prober.shared)
    if holed:
        options = with_holes(switches, first)
    else:
        options = switches if flat else [Option(0, at, default)]
    top = best(options)
    if top is None:
        return finish(None)
    if top.option.fila_at > at and top.seconds >= REFINE_FROM:
        top = confirmed(top, best([o for o in options if o.fila_at == at]), finer)
    elif SETTLE_FROM <= top.seconds < REFINE_FROM:
        top = settled(prober, top, options, finer, REFINE_WITHIN, REFINED)
    at = top.option.fila_at
    fill, default = "f" * at, default_letters(first, at)
    if top.seconds >= TINY and not flat:
        top = best([top.option, Option(0, at, fill)]) or top
    if top.seconds >= HIGHER_FROM:
        top = higher(prober, top, first, finer if top.seconds >= REFINE_FROM else None)
        # The switches the walk did not take stay out of the stages after it: their coarse
        # estimates crowded the refinement's three (a 3 x 4 x 6 box of hexacubes left its
        # own orientation, 2.0 s of search, for one of 2.5 s).
        for option in [o for o in prober.made if o.fila_at > top.option.fila_at]:
            del prober.made[option]
        at = top.option.fila_at
        fill, default = "f" * at, default_letters(first, at)
    own = unlike(cands)
    if top.seconds >= ORIENT_FROM and len(own) > 1:
        # Each orientation glanced at first (one of mirror twins): one whose glance is far
        # behind is not estimated again (the 12 x 5 drawn 12 wide, the one-sided 30 x 3 drawn
        # 30 wide: ten times the other orientation's search).
        turns = [Option(k, at, fill) for k in own]
        near = [o for o in turns
                if (g := glance.estimate(o)) is None or g.seconds <= SCREEN * top.seconds]
        home = best([top.option] + [o for o in near if o.orientation == 0]) or top
        away = best([o for o in near if o.orientation != 0])
        top = away if away is not None and away.seconds < KEEP * home.seconds else home
        prober.made.update({o: e for o, e in glance.made.items() if o not in prober.made})
        if not flat:
            top = best([top.option, replace(top.option, letters=default)]) or top
    if top.seconds >= ORIENT_FROM and flat:
        top = best([top.option, replace(top.option, letters=default_letters(first, at, 3))]) \
            or top
    pieces_free = front_options.get("redundancy", "auto") == "auto" and constrained
    unique = front_options.get("unique", "rotation")
    if FEWEST_FROM <= top.seconds < PIECE_FROM and pieces_free:
        top = fewest_kept(prober, top, unique)
    if top.seconds >= PIECE_FROM and pieces_free:
        # Each piece with DLX placing one more piece too: the two interact (a constrained X
        # in the 3 x 4 x 5 box is the worst choice handing over at once, the best one level
        # later).  In 3D, each with F alone and, if close under it (``with_close_pieces``),
        # with the default, E, then F: piece and schedule interact too (a 3 x 4 x 6 box cut
        # into hexacubes searched in 7.3 s with E, then F, and its F piece constrained; the
        # stages before it had kept F alone, 17 s, estimated shorter than E, then F, with the
        # rule's piece, and no piece beat it F alone).
        k, letters = top.option.orientation, top.option.letters
        names = [None] + [name for name in pieces_to_try(cands[k].puzzle, unique)
                          if name != prober.front(k).plan.piece]
        schedules = list(dict.fromkeys([letters, fill, default])) \
            if letters in (fill, default) else [letters]
        options = [replace(top.option, piece=name, fila_at=at - d, letters=sched[d:])
                   for name in names for d in (0, 1) for sched in schedules if at - d > 0]
        options = [o for o in options if o.fila_at == at or prober.within_reach(o)]
        found = best(with_close_pieces(prober, options))
        if found is not None and found.option != top.option:
            top = confirmed(found, top, finer) \
                if CONFIRM_FROM <= found.seconds < REFINE_FROM else found
    if top.seconds >= SWITCH_FROM:
        top = deeper(prober, top)
    if top.seconds >= SCHEDULE_FROM:
        top = climbs(prober, top)
    if top.seconds >= REFINE_FROM:
        # The estimates are skewed (most fall short of their mean, a few far above it), so
        # options that came close are estimated again, more finely, and the finer estimates
        # decide: S for one or two levels then F on the 2 x 4 x 8 box was estimated under F
        # alone (3.1 and 3.4 s against 4.1 s) and took more (4.65 s against 4.2 s); finer,
        # 6.1 and 6.0 s against 5.1 s.  Three options, not two: F alone came third.
        close = closest(prober.made.values(), top, REFINE_WITHIN, REFINED)
        if len(close) > 1:
            found = finest(close, finer)
            top = found[1] if found is not None else top
            prober.made.update(finer.made)
    return finish(top)
