"""What a hybrid search costs, in seconds, from the figures it makes.

The automatic configuration (``cpkit.engines.tiling.auto.tiling_autoconfig``) estimates the figures of candidate
searches (``cpkit.engines.tiling.fila.fila_probe``) and compares them in seconds, so that a schedule making
fewer nodes at a dearer price (S's fit checks, DLX's link updates) is weighed fairly against a
cheap one making many.  The prices are per operation, fitted by least squares (weighted by
relative error) to the CPU time of 27 searches of 10 bundled puzzles in various orientations and
schedules, complete or cut at 3 s (the 10 x 6, 12 x 5, 2 x 5 x 6, 2 x 3 x 10 and 3 x 4 x 5
pentomino boxes, the Tetris, Bedlam and Soma cubes, the one-sided 30 x 3; AMD EPYC, 2 cores
shared); the fit is within 20 % on all but the sub-0.1 s runs, whose time is mostly fixed
costs.  Only ratios matter for the choice, so the machine's own speed does not.

The engine is faster than these prices say: measured by ``python -m
benchmarks.tiling_prices`` (which searches 35 configurations and fits the prices), they
overestimate every search by 1.5 to 2.2 times (up to 3.6 where the compiled loop hands over
most of the subproblems).  They are kept because the choice's stages are set in their seconds,
and because a list entry priced at twice its cost makes up for the estimates' shortfall at deep
switches (the Tetris Cube handing over at 9 pieces: half the attempts it makes, estimated at the
default sampling).  Refitting them needs the estimates made honest first.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..fila import fila_layout as L


@dataclass(frozen=True)
class Prices:
    """Seconds per operation."""

    attempt: float = 10.0e-9        # an image tested against the occupancy
    fit: float = 24.3e-9            # an image placed (and taken back)
    check: float = 8.5e-9           # a fit counted by E or S while choosing the target
    e_node: float = 134e-9          # E's choice at a node, besides its checks
    s_node: float = 298e-9          # S's choice at a node, besides its checks
    dlx_fit: float = 4.43e-6        # an option placed by DLX (covering, hiding, triggers)
    subproblem: float = 98e-6       # a hand-over to FILA: Python glue and compiling the lists
    list_entry: float = 43e-9       # an entry of a subproblem's image lists, built once


PRICES = Prices()


def fila_seconds(figures, prices: Prices = PRICES) -> float:
    """The search seconds of FILA figures (``_fila_probe`` columns, a total or an estimate)."""
    return (prices.attempt * figures[L.W_ATTEMPTS] + prices.fit * figures[L.W_FITS]
            + prices.check * figures[L.W_CHECKS] + prices.e_node * figures[L.W_E_NODES]
            + prices.s_node * figures[L.W_S_NODES])


def handover_seconds(dlx_fits: float, subproblems: float, list_entries: float,
                     prices: Prices = PRICES) -> float:
    """The seconds of the DLX levels above the switch and of handing their nodes to FILA."""
    return (prices.dlx_fit * dlx_fits + prices.subproblem * subproblems
            + prices.list_entry * list_entries)


def searched_seconds(search, prices: Prices = PRICES) -> float:
    """The priced seconds of what a hybrid search has done so far (``HybridSearch.work``):
    the automatic configuration bounds the search it begins first by them, so that the bound
    is the same on every machine and a node dear to search counts for more than a cheap one."""
    dlx_fits, subproblems, list_entries, figures = search.work()
    return handover_seconds(dlx_fits, subproblems, list_entries, prices) + \
        fila_seconds(figures, prices)
