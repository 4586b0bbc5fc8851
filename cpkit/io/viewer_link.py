"""Links of the community's Eternity II board viewer (e2.bucas.name), the form in which boards
are shared: ``https://e2.bucas.name/#puzzle=NAME&board_w=16&board_h=16&board_edges=...``.

``board_edges`` holds four letters per cell, cells top row first and left to right, sides
north, east, south, west; ``aaaa`` is an empty cell.  A letter is a colour: with
``motifs_order=jblackwood`` letter ``a + k`` is colour ``k`` (``a`` the grey frame), the
numbering of Heule's and Blackwood's piece files; without it the viewer's own order, in which
colours 0..22 of that numbering are the letters of ``DEFAULT_ORDER``.  Both were read off the
five record boards published with their links (each board's colours against its link's letters:
one letter per colour throughout, the same table for the four links without
``motifs_order``), and the tests check them on all five.  Other parameters (``board_pieces``,
``board_types``, display options) are ignored: a link's board is its colours, and the tiles are
found from them (``cpkit.models.board.board_from_colours``).

cpkit writes ``motifs_order=jblackwood``, so colour ``k`` of any puzzle is letter ``a + k``
(colours 0..25).
"""

from __future__ import annotations

import string
from urllib.parse import parse_qs, quote, urlencode

import numpy as np

from ..errors import InputError
from ..models.board import EMPTY, Board, board_from_colours
from ..models.edge_matching import EdgeMatchingPuzzle, check_board_size

VIEWER = "https://e2.bucas.name/"
#: Colour k is letter ORDERS[order][k]; None is the viewer's default order.
ORDERS = {"jblackwood": string.ascii_lowercase, None: "abglqejotchmrfkpudinsvw"}
DEFAULT_ORDER = ORDERS[None]
#: The order cpkit writes.
WRITTEN_ORDER = "jblackwood"


def is_link(text: str) -> bool:
    """True if ``text`` holds a viewer link (its ``board_edges`` parameter)."""
    return "board_edges=" in text


def check_linkable(puzzle: EdgeMatchingPuzzle) -> None:
    """``InputError`` unless the viewer's letters can show every colour of ``puzzle``."""
    letters = ORDERS[WRITTEN_ORDER]
    if puzzle.n_colours >= len(letters):
        raise InputError(f"the viewer's links have {len(letters)} letters, for colours 0.."
                         f"{len(letters) - 1}; this puzzle has colours 0..{puzzle.n_colours}")


def format_link(puzzle: EdgeMatchingPuzzle, board: Board, name: str | None = None) -> str:
    """The viewer's link showing ``board`` (a ``Board`` or ``BoardSolution`` of ``puzzle``)."""
    check_linkable(puzzle)
    letters = ORDERS[WRITTEN_ORDER]
    shown = Board.of(board).colours(puzzle)
    edges = "".join(letters[c] if c != EMPTY else "a" for c in shown.ravel())
    query = urlencode([("puzzle", name or puzzle.name or "cpkit"), ("board_w", puzzle.width),
                       ("board_h", puzzle.height), ("board_edges", edges),
                       ("motifs_order", WRITTEN_ORDER)], quote_via=quote)
    return f"{VIEWER}#{query}"


def _parameters(text: str, path: str) -> dict[str, str]:
    """The link's parameters: after ``#`` or ``?`` in a whole link, or the text itself when it
    holds the parameters alone (as the community's record files do).  Whitespace is dropped, so
    a link broken over lines still reads."""
    text = "".join(text.split())
    for mark in "#?":
        if mark in text:
            text = text.split(mark, 1)[1]
            break
    params = {k: v[-1] for k, v in parse_qs(text, keep_blank_values=True).items()}
    missing = [k for k in ("board_w", "board_h", "board_edges") if k not in params]
    if missing:
        raise InputError(f"not a board viewer link: no {', '.join(missing)} parameter", path)
    return params


def parse_link(text: str, path: str = "<link>") -> np.ndarray:
    """The colours a link shows, ``[row, column, side]`` (row 0 on top; north, east, south,
    west), -1 on the sides of an empty cell; ``InputError`` naming the file otherwise."""
    params = _parameters(text, path)
    size = []
    for key in ("board_w", "board_h"):
        value = params[key]
        if not value.isascii() or not value.isdigit():
            raise InputError(f"{key} must be a whole number, got {value!r}", path)
        size.append(int(value))
    width, height = size
    try:
        check_board_size(width, height)
    except InputError as exc:
        raise exc.located(path) from None
    order = params.get("motifs_order") or None
    if order not in ORDERS:
        known = ", ".join(k for k in ORDERS if k)
        raise InputError(f"unknown motifs_order {order!r}: cpkit reads links in the viewer's "
                         f"own order (no motifs_order) and in {known}", path)
    colour_of = {letter: k for k, letter in enumerate(ORDERS[order])}
    edges = params["board_edges"]
    if len(edges) != 4 * width * height:
        raise InputError(f"board_edges has {len(edges)} letters; a {width} x {height} board "
                         f"needs {4 * width * height} (four a cell)", path)
    bad = next((ch for ch in edges if ch not in colour_of), None)
    if bad is not None:
        raise InputError(f"board_edges holds {bad!r}, which is no colour of the "
                         f"{order or 'default'} order (letters {ORDERS[order][0]}.."
                         f"{ORDERS[order][-1]})", path)
    colours = np.array([colour_of[ch] for ch in edges], dtype=np.int64)
    colours = colours.reshape(height, width, 4)
    colours[(colours == 0).all(axis=2)] = EMPTY
    return colours


def board_from_link(puzzle: EdgeMatchingPuzzle, text: str, path: str = "<link>") -> Board:
    """The board of ``puzzle`` a link shows: each cell's four colours matched to a tile of the
    puzzle (a link names colours, not tiles)."""
    try:
        return board_from_colours(puzzle, parse_link(text, path))
    except InputError as exc:
        raise exc.located(path) from None
