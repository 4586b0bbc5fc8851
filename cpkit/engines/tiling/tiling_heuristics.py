"""Ordering heuristics for DLX and FILA, and their schedules.

A heuristic picks the column (a hole to fill or a piece to place) to branch on:

- ``s``  min-fit: the column with the fewest options (Knuth's S; polycube's default);
- ``f``  first hole: the lowest-numbered open cell (cells are numbered x fastest, then y, then z);
- ``x``, ``y``, ``z``: the open cell with the smallest coordinate, ties by fewest options;
- ``r``  radial: the open cell farthest from the centre of the region's bounding box;
- ``a[@DEG]`` angular: the open cell with the smallest angle about the centre in the x-y plane,
  measured counter-clockwise from DEG degrees (default 0).

As in polycube, every heuristic but ``s`` first takes any column with zero or one option left
(a dead end or a forced move).  A trailing ``!`` (``f!``) drops that override and follows the
order strictly, which is what de Bruijn's algorithm and FILA's F heuristic do.

FILA (``cpkit.engines.tiling.fila.fila_search``) targets cells only: ``f``, ``x``, ``y``, ``z``, ``r`` and ``a`` are
fixed orders there (always strict, ties by cell number; ``!`` changes nothing), ``e`` picks among
the holes with fewest open neighbours the one with fewest fits, and ``s`` the hole with fewest
fits.  ``e`` exists only in FILA.

A *schedule* switches heuristics by the number of pieces remaining, in polycube's notation:
``x:s=20`` uses ``x`` from the start and ``s`` once 20 pieces remain; an entry without ``=N``
is active from the start, and if every entry has one, ``s`` is used until the first applies.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

import numpy as np

from ...errors import InputError
from ..exact_cover.dlx.dlx_layout import H_KEYED, H_KEYED_STRICT, H_MINFIT

LETTERS = "sfxyzrae"
DLX_LETTERS = "sfxyzra"
FILA_LETTERS = "fxyzraes"
#: Heuristics that target cells in an order fixed in advance (FILA's POF applies to them).
FIXED_ORDER = "fxyzra"
_ENTRY = re.compile(r"^(?P<letter>[a-z])(?P<strict>!?)(?:@(?P<arg>-?\d+(?:\.\d+)?))?(?:=(?P<at>\d+))?$")


@dataclass(frozen=True)
class Heuristic:
    letter: str
    strict: bool = False
    arg: float | None = None

    def __str__(self) -> str:
        arg = "" if self.arg is None else f"@{self.arg:g}"
        return f"{self.letter}{'!' if self.strict else ''}{arg}"


@dataclass(frozen=True)
class Schedule:
    """``entries[k] = (heuristic, remaining)``: active once ``remaining`` pieces or fewer remain;
    sorted by decreasing ``remaining``; the first entry has ``remaining = None`` (from the start)."""

    entries: tuple[tuple[Heuristic, int | None], ...]

    def at(self, remaining: int) -> int:
        """Index of the entry active when ``remaining`` pieces remain."""
        active = 0
        for k, (_, at) in enumerate(self.entries):
            if at is None or remaining <= at:
                active = k
        return active

    def __str__(self) -> str:
        return ":".join(str(h) if at is None else f"{h}={at}" for h, at in self.entries)

    def part(self, low: int, high: int) -> "Schedule":
        """The entries active for some number of pieces remaining in ``low..high``, the first
        one active from the start: the schedule one engine of a hybrid run follows."""
        used = sorted({self.at(n) for n in range(low, high + 1)})
        entries = [self.entries[k] for k in used] or [self.entries[self.at(high)]]
        return Schedule(((entries[0][0], None),) + tuple(entries[1:]))

    def check(self, allowed: str, engine: str) -> None:
        """Raise ``InputError`` if an entry uses a letter ``engine`` does not accept."""
        for h, _ in self.entries:
            if h.letter not in allowed:
                raise InputError(f"heuristic {h.letter!r} is not available to {engine}, which "
                                 f"accepts {', '.join(allowed)}")


def parse_schedule(spec: str, allowed: str = LETTERS, engine: str = "") -> Schedule:
    """Parse ``--heuristic``; raise ``InputError`` with the accepted syntax on a bad spec, and
    name ``engine`` when a known letter is one it does not accept."""
    entries: list[tuple[Heuristic, int | None]] = []
    for part in str(spec).strip().split(":"):
        m = _ENTRY.match(part.strip())
        if m and engine and m.group("letter") in LETTERS and m.group("letter") not in allowed:
            raise InputError(f"heuristic {m.group('letter')!r} in {spec!r} is not available to "
                             f"{engine}, which accepts {', '.join(allowed)}")
        if not m or m.group("letter") not in allowed:
            raise InputError(f"bad heuristic {part!r} in {spec!r}: expected one of "
                             f"{', '.join(allowed)} (optionally 'a@DEG', a trailing '!', and "
                             f"'=N' to start when N pieces remain), e.g. 'x:s=20'")
        if m.group("arg") is not None and m.group("letter") != "a":
            raise InputError(f"heuristic {m.group('letter')!r} takes no @argument")
        h = Heuristic(m.group("letter"), bool(m.group("strict")),
                      float(m.group("arg")) if m.group("arg") is not None else None)
        at = int(m.group("at")) if m.group("at") is not None else None
        entries.append((h, at))
    starts = [e for e in entries if e[1] is None]
    if len(starts) > 1:
        raise InputError(f"heuristic schedule {spec!r}: only one entry may lack '=N'")
    timed = sorted((e for e in entries if e[1] is not None), key=lambda e: -e[1])
    if len({at for _, at in timed}) != len(timed):
        raise InputError(f"heuristic schedule {spec!r}: two entries start at the same count")
    head = starts or [(Heuristic("s"), None)]
    return Schedule(tuple(head + timed))


def _kind(h: Heuristic) -> int:
    if h.letter == "s":
        return H_MINFIT
    return H_KEYED_STRICT if h.strict else H_KEYED


def cell_keys(h: Heuristic, coords: np.ndarray) -> np.ndarray:
    """The sort key of each cell (row of ``coords``) under ``h``; smaller is chosen first."""
    n = len(coords)
    c = coords.astype(np.float64)
    if h.letter in ("s", "f"):
        return np.arange(n, dtype=np.float64)
    if h.letter in "xyz":
        return c[:, "xyz".index(h.letter)].copy()
    centre = (c.min(axis=0) + c.max(axis=0)) / 2.0
    if h.letter == "r":
        return -np.sqrt(((c - centre) ** 2).sum(axis=1))
    if h.letter == "a":
        start = math.radians(h.arg or 0.0)
        ang = np.arctan2(c[:, 1] - centre[1], c[:, 0] - centre[0])
        return np.mod(ang - start, 2 * math.pi)
    raise InputError(f"unknown heuristic {h.letter!r}")


def tables(schedule: Schedule, n_items: int, cell_coords: np.ndarray | None,
           levels: int, pieces: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Kernel tables: ``heur_of_level[l]``, ``heur_kind[h]``, ``heur_key[h, item]``.

    Items ``1..len(cell_coords)`` are cells; other items get an infinite key (never picked by a
    coordinate).  Without coordinates (a generic exact cover) the key is the item number.  Depth
    ``l`` has ``pieces - l`` pieces remaining.
    """
    n_h = len(schedule.entries)
    kind = np.array([_kind(h) for h, _ in schedule.entries], dtype=np.int32)
    key = np.full((n_h, n_items + 1), np.inf, dtype=np.float64)
    for k, (h, _) in enumerate(schedule.entries):
        if cell_coords is None:
            key[k, 1:] = np.arange(1, n_items + 1)
        else:
            key[k, 1:len(cell_coords) + 1] = cell_keys(h, cell_coords)
    of_level = np.array([schedule.at(pieces - l) for l in range(levels + 1)], dtype=np.int32)
    return of_level, kind, key
