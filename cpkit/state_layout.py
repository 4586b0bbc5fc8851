"""Kernel state layouts: the named slots of a header or record, declared once as an ordered list.

A numba kernel keeps its state in flat arrays ("a pointer is an array index"): a header of
named slots (counters, switches, the offsets of sections), records of named fields (one per
cell, one per tile).  Numbered by hand, two names can share a slot or a slot can fall outside
its region without anything failing until a search goes wrong.  Here a layout is declared once,
in order; the offsets are generated from the list, checked when the module that declares it is
imported (distinct, inside the region, the region filled exactly by the fields and the declared
reserve: a gap is declared, never an accident), and bound as module constants by ``bind``, so
that numba reads plain ints at compile time, exactly as it did hand-written ones.

    CELL = fields("cell record", "C_ORI", "C_KNOWN", ("C_SIDE", 4))
    bind(globals(), CELL)          # C_ORI = 0, C_KNOWN = 1, C_SIDE = 2 (4 slots); CELL.end = 6
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Layout:
    """Named slots ``start .. end - 1`` of one region: each field's first slot and width, in the
    order declared, then ``reserve`` slots left free on purpose (for a later layout or growth)."""

    name: str
    start: int
    end: int
    reserve: int
    offsets: dict[str, int]
    widths: dict[str, int]

    def slots(self) -> dict[int, str]:
        """Every slot the fields take, to the field that takes it."""
        taken: dict[int, str] = {}
        for field, first in self.offsets.items():
            for slot in range(first, first + self.widths[field]):
                taken[slot] = field
        return taken

    def check(self) -> None:
        """Raise ``ValueError`` unless the fields take distinct slots inside ``start .. end - 1``
        and the slots they leave are exactly the last ``reserve``."""
        taken = self.slots()
        if sum(self.widths.values()) != len(taken):
            raise ValueError(f"{self.name}: two fields share a slot")
        outside = sorted(s for s in taken if not self.start <= s < self.end)
        if outside:
            raise ValueError(f"{self.name}: slots {outside} outside {self.start}..{self.end - 1}")
        free = [s for s in range(self.start, self.end) if s not in taken]
        if free != list(range(self.end - self.reserve, self.end)):
            raise ValueError(f"{self.name}: free slots {free} are not the declared reserve of "
                             f"{self.reserve} at the end of {self.start}..{self.end - 1}")


def fields(name: str, *spec: str | tuple[str, int], start: int = 0, reserve: int = 0,
           end: int | None = None) -> Layout:
    """The layout of ``spec`` (names, or ``(name, width)`` for a field of several slots) from
    ``start`` on, in order, then ``reserve`` free slots.  ``end``, when given, is where the
    region must end: the declaration fails if the fields and the reserve do not fill it."""
    offsets: dict[str, int] = {}
    widths: dict[str, int] = {}
    at = start
    for item in spec:
        field, width = (item, 1) if isinstance(item, str) else item
        if field in offsets:
            raise ValueError(f"{name}: {field} declared twice")
        if width < 1:
            raise ValueError(f"{name}: {field} has width {width}")
        offsets[field] = at
        widths[field] = width
        at += width
    filled = at + reserve
    if end is not None and filled != end:
        raise ValueError(f"{name}: the fields and a reserve of {reserve} end at {filled}, "
                         f"the region at {end}")
    layout = Layout(name, start, filled, reserve, offsets, widths)
    layout.check()
    return layout


def bind(namespace: dict, *layouts: Layout) -> None:
    """Bind every field of ``layouts`` as a constant of ``namespace`` (a module's ``globals()``),
    and add it to the module's ``__all__`` if it has one; a name bound twice is an error."""
    for layout in layouts:
        for field, offset in layout.offsets.items():
            if field in namespace:
                raise ValueError(f"{layout.name}: {field} is already bound")
            namespace[field] = offset
            if "__all__" in namespace:
                namespace["__all__"].append(field)
