"""Generic exact cover with primary and secondary items and multiplicities.

An ``ExactCover`` is a 0/1 matrix given by rows (Knuth's *options*) over columns (*items*):

- a *primary* item ``i`` must be covered exactly ``need[i]`` times (1 for a cell, the number of
  copies for a piece that comes in several identical copies);
- a *secondary* item may be covered at most once.

Options are stored row-wise in CSR form (``option_ptr``, ``option_items``): the items of option
``k`` are ``option_items[option_ptr[k]:option_ptr[k+1]]``, primary items numbered ``0..P-1`` and
secondary items ``P..P+S-1``.  Tilings compile to this; so can anything else (``cpkit cover``).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ..errors import InputError
from .arrays import CoverArrays


@dataclass
class ExactCover:
    primary: list[str]
    secondary: list[str]
    option_ptr: np.ndarray                 # int64, length n_options + 1
    option_items: np.ndarray               # int32 item indices
    need: np.ndarray | None = None         # int32 per primary item; default all ones
    option_labels: list[str] | None = None
    name: str = ""
    _arrays: CoverArrays | None = field(default=None, repr=False, compare=False)
    #: False: the options are known to be well formed (``restricted``), not checked again.
    checked: bool = field(default=True, repr=False, compare=False, kw_only=True)

    def __post_init__(self) -> None:
        self.option_ptr = np.ascontiguousarray(self.option_ptr, dtype=np.int64)
        self.option_items = np.ascontiguousarray(self.option_items, dtype=np.int32)
        if self.need is None:
            self.need = np.ones(len(self.primary), dtype=np.int32)
        need = np.asarray(self.need)
        # One entry per primary item: numpy spread need=[2] over every item (a wrong count).
        if need.shape != (len(self.primary),):
            raise InputError(f"need must have one entry per primary item ({len(self.primary)}), "
                             f"got shape {need.shape}")
        if need.size and (need.dtype.kind not in "iu" or need.max() >= 2**31):
            raise InputError("need must hold whole numbers below 2**31")
        self.need = np.ascontiguousarray(need, dtype=np.int32)
        if self.checked:
            self._validate()

    @classmethod
    def from_rows(cls, primary, secondary, rows, need=None, labels=None, name="") -> "ExactCover":
        """Build from a list of item-index lists."""
        lengths = np.fromiter((len(r) for r in rows), dtype=np.int64, count=len(rows))
        ptr = np.zeros(len(rows) + 1, dtype=np.int64)
        np.cumsum(lengths, out=ptr[1:])
        items = np.fromiter((i for r in rows for i in r), dtype=np.int32, count=int(ptr[-1]))
        return cls(list(primary), list(secondary), ptr, items, need, labels, name)

    # ------------------------------------------------------------------ queries
    @property
    def n_primary(self) -> int:
        return len(self.primary)

    @property
    def n_items(self) -> int:
        return len(self.primary) + len(self.secondary)

    @property
    def n_options(self) -> int:
        return len(self.option_ptr) - 1

    def option(self, k: int) -> np.ndarray:
        return self.option_items[self.option_ptr[k]:self.option_ptr[k + 1]]

    def max_depth(self) -> int:
        """An upper bound on the number of options in a solution (each covers a primary item)."""
        return int(self.need.sum())

    def _validate(self) -> None:
        n, p = self.n_items, self.n_primary
        if len(set(self.primary) | set(self.secondary)) != n:
            raise InputError("item names must be distinct")
        if self.option_ptr[0] != 0 or np.any(np.diff(self.option_ptr) < 0):
            raise InputError("malformed option pointer array")
        if self.option_ptr[-1] != len(self.option_items):
            raise InputError("option pointer array does not match the item list")
        if len(self.option_items) and (self.option_items.min() < 0 or self.option_items.max() >= n):
            raise InputError("an option names an item that does not exist")
        if np.any(self.need < 1):
            raise InputError("every primary item must be needed at least once")
        lengths = np.diff(self.option_ptr)
        if np.any(lengths == 0):
            raise InputError(f"option {int(np.argmin(lengths)) + 1} is empty")
        if self.n_options:
            owner = np.repeat(np.arange(self.n_options, dtype=np.int64), lengths)
            has_primary = np.maximum.reduceat((self.option_items < p).astype(np.int8),
                                              self.option_ptr[:-1])
            if not np.all(has_primary):
                raise InputError(f"option {int(np.argmin(has_primary)) + 1} has no primary item")
            keys = owner * n + self.option_items
            uniq, counts = np.unique(keys, return_counts=True)
            if np.any(counts > 1):
                raise InputError(f"option {int(uniq[np.argmax(counts)] // n) + 1} names an item twice")

    # ------------------------------------------------------------------ compilation
    def arrays(self) -> CoverArrays:
        """The dancing-links arrays (built once, then copied by each search)."""
        if self._arrays is None:
            self._arrays = CoverArrays.build(self.n_primary, self.n_items, self.option_ptr,
                                             self.option_items, self.need)
        return self._arrays

    def restricted(self, keep: np.ndarray) -> "ExactCover":
        """The same cover with only the options whose mask entry in ``keep`` is True.  Not
        checked again (``checked``): options taken from a checked cover are well formed, and
        ``--engine auto`` restricts a puzzle's cover for every front it estimates."""
        keep = np.asarray(keep, dtype=bool)
        idx = np.flatnonzero(keep)
        all_lengths = np.diff(self.option_ptr)
        ptr = np.zeros(len(idx) + 1, dtype=np.int64)
        np.cumsum(all_lengths[idx], out=ptr[1:])
        items = self.option_items[np.repeat(keep, all_lengths)]
        labels = [self.option_labels[k] for k in idx] if self.option_labels else None
        return ExactCover(self.primary, self.secondary, ptr, items, self.need.copy(), labels,
                          self.name, checked=False)
