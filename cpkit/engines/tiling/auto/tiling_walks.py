"""The walks of ``--engine auto``'s choice (``tiling_autoconfig``): from an estimated option
to a neighbouring one estimated shorter, one step at a time while the estimates fall.  The
schedule (``climbs``: how many levels of E, or S, above F), the switch above the default
(``higher``: FILA from more pieces) and below it (``deeper``: DLX placing more pieces
first).
"""

from __future__ import annotations

from dataclasses import replace

from ....models.tiling import Puzzle
from ..fila import fila_probe, fila_search as fila
from ..hybrid import hybrid_search as hybrid
from .tiling_prober import WORDS, Estimate, Option, Prober, shortest
from .tiling_schedules import DEFAULT_F_LEVELS, default_letters

#: ``deeper`` looks this many levels down from the best switch so far.
LOOK_DEEPER = 2


def climb(prober: Prober, base: Option, letter: str, start: int) -> Estimate | None:
    """The best schedule ``letter`` down to some level and F below it (with the orientation,
    switch and piece of ``base``), found by walking the number of F levels from ``start`` one
    step at a time while the estimate improves (its cost is near unimodal in that number: more
    F levels make nodes cheaper and more numerous)."""
    at = base.fila_at

    def at_levels(f_levels: int) -> Estimate | None:
        if not 0 <= f_levels <= at:
            return None
        return prober.estimate(replace(base, letters=letter * (at - f_levels) + "f" * f_levels))

    here = at_levels(start)
    if here is None:
        return None
    for step in (1, -1):
        f_levels = start
        while True:
            there = at_levels(f_levels + step)
            if there is None or there.seconds >= here.seconds:
                break
            here, f_levels = there, f_levels + step
        if f_levels != start:
            break                           # it improved one way: the other way is worse
    return here


def climbs(prober: Prober, top: Estimate) -> Estimate:
    """``top``, or the best of the E and the S climbs from it if better.  E's climb starts
    from the default 3D schedule (``DEFAULT_F_LEVELS`` of F, most often estimated already);
    S's from one level of S, where its estimates are cheapest: each level of S is a fit check
    per candidate image at every node, in the probes as in the search (on the 2 x 4 x 8 box
    the climb from three levels of F took nine estimates and 0.17 s to end at two levels of
    S)."""
    at = top.option.fila_at
    found = [top, climb(prober, top.option, "e", min(DEFAULT_F_LEVELS, at)),
             climb(prober, top.option, "s", max(at - 1, 0))]
    return min((e for e in found if e is not None), key=lambda e: e.seconds)


def higher(prober: Prober, top: Estimate, puzzle: Puzzle, finer: Prober | None = None
           ) -> Estimate:
    """``top``, or a switch above it, where DLX hands over sooner and FILA searches more than
    one word of open cells (up to ``WORDS``): one piece higher at a time while the best of
    ``top``'s letters with one more level, F alone and the default schedule is estimated
    shorter.  The default switch is the last whose open cells fit one word, but on puzzles of
    more cells DLX's levels above it can cost more than FILA's would (search and choice, in
    one run): a 9 x 8 box cut into hexominoes 0.33 s handing over at 10 pieces, 0.22 s with
    FILA from the first piece (12); a 2 x 6 x 6 box cut into hexacubes 0.87 s (F alone at
    10) against 0.49 s (E, then F, at 11); a 3 x 4 x 6 box of hexacubes 6.9 s against 2.5 s
    (F alone at 10 and 11).  The
    estimates of higher switches scatter more (FILA's trees are deeper): another 3 x 4 x 6
    box, 13 s at 10 pieces and 27 s at 11, was estimated at 29 and 23 s, and at 29 and 40 s
    by ``finer`` estimates, twice as many nodes drawn; so where the search is estimated long
    enough to pay for them (``REFINE_FROM``), a step up is taken only if ``finer`` agrees."""
    while True:
        at = top.option.fila_at + 1
        cells = hybrid.largest_volume(puzzle, at)
        if at > puzzle.n_pieces or cells > WORDS * fila.WORD:
            return top
        fila_probe.jit_seconds(fila.words_for(cells))
        schedules = dict.fromkeys([top.option.letters[:1] + top.option.letters, "f" * at,
                                   default_letters(puzzle, at)])
        up = shortest(prober, [replace(top.option, fila_at=at, letters=letters)
                               for letters in schedules])
        if up is None or up.seconds >= top.seconds or \
                finer is not None and confirmed(up, top, finer) is top:
            return top
        top = up


def _shorter(a: Estimate | None, b: Estimate | None) -> bool:
    return a is not None and (b is None or a.seconds < b.seconds)


def confirmed(up: Estimate, below: Estimate | None, finer: Prober) -> Estimate:
    """``up``, a higher switch estimated shorter than ``below`` (the best at a lower one), if
    ``finer`` estimates agree; else ``below``: the coarse estimates of higher switches
    scatter more (``higher``'s text).  On the 13 x 13 diamond of pentominoes and tetrominoes
    FILA from 15 pieces was estimated shorter than E, then F, at the default and moved the
    stages after it (the piece stage) to a switch the finer estimates then left."""
    if below is None or _shorter(finer.estimate(up.option), finer.estimate(below.option)):
        return up
    return below


def closest(estimates, top: Estimate, within: float, most: int) -> list[Estimate]:
    """The ``most`` shortest of ``estimates`` (None for none) within ``within`` times
    ``top``, shortest first."""
    return sorted((e for e in estimates if e is not None and e.seconds <= within * top.seconds),
                  key=lambda e: e.seconds)[:most]


def finest(close: list[Estimate], finer: Prober) -> tuple[Estimate, Estimate] | None:
    """Of ``close``, the one ``finer`` estimates shortest (the first on a tie): its estimate
    in ``close`` and its finer one; None if ``finer`` can estimate none."""
    fine = [(f, e) for e, f in ((e, finer.estimate(e.option)) for e in close) if f is not None]
    if not fine:
        return None
    f, e = min(fine, key=lambda pair: pair[0].seconds)
    return e, f


def settled(prober: Prober, top: Estimate, options: list[Option], finer: Prober,
            within: float, most: int) -> Estimate:
    """``top``, the least of ``prober``'s estimates of ``options``, or the estimate of another
    of them that ``finer`` finds shorter, among the ``most`` closest within ``within`` times
    ``top``: a near tie of coarse estimates is their noise, which finer ones settle.  The
    estimate returned is ``prober``'s, so that the stages after compare like with like; with
    no other option that close, nothing is estimated again."""
    close = closest((prober.estimate(o) for o in options), top, within, most)
    found = finest(close, finer) if len(close) > 1 else None
    return found[0] if found is not None else top


def deeper(prober: Prober, top: Estimate) -> Estimate:
    """DLX handing over ``LOOK_DEEPER`` levels deeper at most, the best of them kept if
    shorter than ``top``, and again from there.  One level is not enough to look at: on the
    8 x 8 with a 2 x 2 hole at a corner's side, E from 12, 11 and 10 pieces is estimated
    0.79, 0.85 and 0.62 s, and searches in 0.40, 0.39 and 0.24 s."""
    while True:
        option, looked = top.option, []
        for _ in range(LOOK_DEEPER):
            if option.fila_at <= 1:
                break
            option = replace(option, fila_at=option.fila_at - 1, letters=option.letters[1:])
            if not prober.within_reach(option):
                break
            looked.append(prober.estimate(option))
        best = min(filter(None, looked), key=lambda e: e.seconds, default=None)
        if best is None or best.seconds >= top.seconds:
            return top
        top = best
