"""The ColorPair engine's options: its search order, its rules and its search strength."""

from __future__ import annotations

from dataclasses import dataclass

from ...options import option
from .. import em_options as shared

#: The order by default: chosen per board (``em_cp_search.order_for``) between the paper's pair
#: heuristic and the brute force's scan.
AUTO_ORDER = "auto"
DEFAULT_HEURISTIC = AUTO_ORDER
#: Every order by name: ``auto``, the paper's four pair heuristics, ``scan`` (the kernel's
#: ``HEURISTICS`` numbers the last five; a test checks that they agree).
HEURISTICS = (AUTO_ORDER, "min-offer", "min-expected-offer", "min-expected-gap",
              "min-expected-ratio", "scan")
#: ``auto`` scans when an inner cell with two known sides expects fewer candidates than this.
SCAN_BELOW = 1.8
DEFAULT_BACKJUMP = True
DEFAULT_SHARED_EDGE = True

RULES = "ColorPair rules (cp engine; counts never change)"
STRENGTH = "search strength (cp engine; counts never change)"


@dataclass(frozen=True)
class CpOptions:
    heuristic: str = option(
        DEFAULT_HEURISTIC,
        "cp: the order of the search.  auto (default): scan when an inner cell with two known "
        f"sides expects fewer than {SCAN_BELOW:g} candidates (a tight interior), else "
        "min-expected-gap; the paper's pair heuristics (which pair to branch on when no "
        "pattern applies): min-offer, min-expected-offer, min-expected-gap, "
        "min-expected-ratio; scan: no patterns, no pairs, the brute force's column-by-column "
        "cell order", choices=HEURISTICS)
    shave: int | str = shared.shave()
    preemption: bool = option(True, "do not preempt tiles when a pair has as many tiles as "
                                    "demands", group=RULES)
    instantiation: bool = option(True, "do not place the single tile left for a single "
                                       "demanding cell", group=RULES)
    contradiction: bool = option(True, "do not fail when a pair has fewer tiles than demands",
                                 group=RULES)
    opposite: bool = option(True, "only clockwise colour pairs, no opposite pairs", group=RULES)
    backjump: bool = option(DEFAULT_BACKJUMP, "backtrack chronologically: no explanations, no "
                                              "conflict-directed backjumping", group=STRENGTH)
    shared_edge: bool = option(DEFAULT_SHARED_EDGE, "no shared-edge bound h(M) on the sides "
                                                    "left of each colour", group=STRENGTH)
    cycles: bool = option(True, "no detection of rings of frame tiles closed too early",
                          group=STRENGTH)
