"""The option fields several tiling engines share (``--heuristic``, ``--nof``, ``--fila-at``, the
backtrack triggers), declared once so that the command line shows each flag once with one help
text."""

from __future__ import annotations

from typing import Any

from ..options import option, positive_int

HEURISTIC_HELP = (
    "ordering heuristic or schedule, in polycube's notation: 'x:s=20' uses x and switches to s "
    "when 20 pieces remain.  DLX: s (min-fit), f (first hole), x, y, z (smallest coordinate), "
    "r (radial), a[@DEG] (angular), a trailing '!' to follow the order strictly.  FILA: f and "
    "the other fixed orders, e (fewest open neighbours, then fewest fits), s (fewest fits).  In "
    "a hybrid run the entries active above --fila-at go to DLX, the others to FILA, e.g. "
    "'s:e=11:f=3' (default: dlx s, fila f, hybrid and auto chosen automatically)")


def heuristic(default: str | None) -> Any:
    return option(default, HEURISTIC_HELP, metavar="SPEC")


def nof() -> Any:
    return option(None, "FILA's neighbour occupancy filtering: image lists per occupancy of "
                        "the target's face neighbours; never changes fits, saves no-fits "
                        "(default: on, except for puzzles of identical pieces)", negatable=True)


def fila_at() -> Any:
    return option(None, "hybrid/auto: switch from DLX to FILA when N pieces remain (N >= the "
                        "number of pieces: FILA from the start; 0: DLX only; default: the "
                        "latest point where the free cells fit a 64-bit word)",
                  parse=int, metavar="N")


#: The help section of the triggers: the command line lists them with the image filters.
FILTERS_AND_TRIGGERS = "filters and triggers"
#: Said when an engine without DLX is given a trigger.
TRIGGERS_RUN_IN_DLX = "backtrack triggers run inside DLX"


def volume_trigger() -> Any:
    return option(None, "DLX: backtrack when an open region's volume cannot be filled",
                  parse=positive_int, metavar="N", group=FILTERS_AND_TRIGGERS,
                  why=TRIGGERS_RUN_IN_DLX)


def parity_trigger() -> Any:
    return option(None, "DLX: backtrack when the open cells' parity cannot be reached",
                  parse=positive_int, metavar="N", group=FILTERS_AND_TRIGGERS,
                  why=TRIGGERS_RUN_IN_DLX)
