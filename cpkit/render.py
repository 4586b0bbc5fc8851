"""Pictures of solutions (matplotlib; PNG or SVG by the output file's extension).

- ``render_tiling``: a tiling as a grid of coloured, lettered cells with thick lines between
  pieces; a 3D tiling as its z-layers side by side (z = 0 on the left, as the text output) and
  an isometric view of the filled box.
- ``render_board``: an edge-matching board given as an int array ``[rows, cols, 4]`` of edge
  colours (north, east, south, west; row 0 at the top; colour 0 is the grey frame), each tile as
  four triangles meeting in its centre, optionally with tile numbers; ``render_edge_matching``
  draws a solution of an ``EdgeMatchingPuzzle`` that way, or a partial board (a search's
  deepest node), its empty cells (-1 on every side) left white.

matplotlib is an optional dependency (``pip install 'cpkit[render]'``, installed by ``make
demo``): solving never needs it, and it is large.  Figures are built with
``matplotlib.figure.Figure`` directly (no pyplot), so rendering never opens a window or touches
global state.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from .errors import InputError
from .io.text import check_writable

FORMATS = (".png", ".svg")
FRAME_GREY = "#9a9a9a"
EMPTY = "#ffffff"
NO_TILE = -1                # the edge colours of an empty cell (a partial board)
CELL_INCHES = 0.45


def _matplotlib():
    try:
        import matplotlib
    except ImportError:
        raise InputError("drawing needs matplotlib: pip install 'cpkit[render]' "
                         "(make demo installs it)") from None
    return matplotlib


def check_output(path: str | Path) -> None:
    """Fail early (before a long search) on an output file cpkit cannot write."""
    if not str(path):
        raise InputError(f"an empty file name: give a {' or '.join(FORMATS)} file to draw to")
    suffix = Path(path).suffix.lower()
    if suffix not in FORMATS:
        raise InputError(f"cannot draw to {path}: the file name must end in "
                         f"{' or '.join(FORMATS)}")
    parent = Path(path).parent
    if str(parent) and not parent.is_dir():
        raise InputError(f"cannot draw to {path}: no directory {parent}")
    check_writable(path, "the picture")
    _matplotlib()


def palette(n: int) -> list:
    """``n`` distinguishable fill colours (tab10, the light tones of tab20, tab20b, hues)."""
    _matplotlib()
    from matplotlib import colormaps

    colours = list(colormaps["tab10"].colors) + list(colormaps["tab20"].colors[1::2]) + \
        list(colormaps["tab20b"].colors)
    if n > len(colours):
        hsv = colormaps["hsv"]
        colours += [hsv(k / (n - len(colours))) for k in range(n - len(colours))]
    return colours[:n]


def _figure(width: float, height: float):
    _matplotlib()
    from matplotlib.figure import Figure

    return Figure(figsize=(max(width, 1.0), max(height, 1.0)))


def _save(fig, out: str | Path) -> None:
    check_output(out)
    try:
        fig.savefig(out, bbox_inches="tight",
                    dpi=150 if Path(out).suffix.lower() == ".png" else None)
    except OSError as exc:
        raise InputError(f"cannot write the picture: {exc.strerror}", str(out)) from None


# ---------------------------------------------------------------------------- tilings
def _piece_colours(puzzle) -> dict[str, Any]:
    names = [p.name for p in puzzle.pieces]
    order = list(dict.fromkeys(names))
    colours = dict(zip(order, palette(len(order))))
    for p in puzzle.stationary_pieces:
        colours[p.name] = FRAME_GREY
    return colours


def _draw_layer(ax, grid: dict, z: int, box: tuple[int, int, int], colours: dict,
                letters: bool) -> None:
    """One z-layer: cells filled by piece, thick lines where neighbouring cells differ."""
    from matplotlib.patches import Rectangle

    X, Y, _ = box
    for x in range(X):
        for y in range(Y):
            name = grid.get((x, y, z))
            if name is None:
                continue
            ax.add_patch(Rectangle((x, y), 1, 1, facecolor=colours[name], edgecolor="#00000022",
                                   linewidth=0.5))
            if letters:
                ax.text(x + 0.5, y + 0.5, name, ha="center", va="center",
                        fontsize=9, color="#111111")
    for x in range(X + 1):
        for y in range(Y + 1):
            here = grid.get((x, y, z))
            if y < Y and grid.get((x - 1, y, z)) != here and \
                    (here is not None or grid.get((x - 1, y, z)) is not None):
                ax.plot([x, x], [y, y + 1], color="black", linewidth=2, solid_capstyle="round")
            if x < X and grid.get((x, y - 1, z)) != here and \
                    (here is not None or grid.get((x, y - 1, z)) is not None):
                ax.plot([x, x + 1], [y, y], color="black", linewidth=2, solid_capstyle="round")
    ax.set_xlim(-0.1, X + 0.1)
    ax.set_ylim(-0.1, Y + 0.1)
    ax.set_aspect("equal")
    ax.axis("off")


def _draw_isometric(ax, grid: dict, box: tuple[int, int, int], colours: dict) -> None:
    X, Y, Z = box
    filled = np.zeros((X, Y, Z), dtype=bool)
    faces = np.empty((X, Y, Z), dtype=object)
    for (x, y, z), name in grid.items():
        filled[x, y, z] = True
        faces[x, y, z] = colours[name]
    ax.voxels(filled, facecolors=faces, edgecolor="#222222", linewidth=0.4)
    ax.set_box_aspect((X, Y, Z))
    ax.view_init(elev=30, azim=-60)
    ax.set_axis_off()


def check_view(view: str, depth: int) -> None:
    """Refuse an isometric view of a flat puzzle (there is nothing to see in it but the
    layer) before the search rather than after."""
    if depth == 1 and view in ("iso", "both"):
        raise InputError(f"--view {view} draws 3D puzzles; this one is flat (use layers or "
                         f"auto)")


def render_tiling(puzzle, tiling, out: str | Path, *, view: str = "auto",
                  letters: bool = True, title: str | None = None) -> None:
    """Draw ``tiling`` of ``puzzle`` to ``out``.  ``view``: ``layers``, ``iso`` or ``both``
    (3D only; ``auto``: layers for flat puzzles, both for 3D)."""
    if view not in ("auto", "layers", "iso", "both"):
        raise InputError(f"unknown view {view!r}; expected auto, layers, iso or both")
    check_output(out)
    grid = tiling.grid(puzzle)
    X, Y, Z = puzzle.box
    colours = _piece_colours(puzzle)
    check_view(view, Z)
    if view == "auto":
        view = "layers" if Z == 1 else "both"
    layers = Z if view in ("layers", "both") else 0
    iso = Z > 1 and view in ("iso", "both")
    panels = layers + (1 if iso else 0)
    widths = [X] * layers + ([max(X, Y, Z) * 1.6] if iso else [])
    fig = _figure(CELL_INCHES * (sum(widths) + panels), CELL_INCHES * max(Y, 3) + 0.6)
    spec = fig.add_gridspec(1, panels, width_ratios=widths)
    for z in range(layers):
        ax = fig.add_subplot(spec[0, z])
        _draw_layer(ax, grid, z, puzzle.box, colours, letters)
        if Z > 1:
            ax.set_title(f"z = {z}", fontsize=9)
    if iso:
        _draw_isometric(fig.add_subplot(spec[0, panels - 1], projection="3d"), grid,
                        puzzle.box, colours)
    fig.suptitle(title if title is not None else puzzle.name, fontsize=11)
    _save(fig, out)


# ---------------------------------------------------------------------------- edge matching
def _check_board(colours: np.ndarray, numbers: np.ndarray | None) -> np.ndarray:
    board = np.asarray(colours)
    if board.ndim != 3 or board.shape[2] != 4 or board.shape[0] < 1 or board.shape[1] < 1:
        raise InputError(f"a board is an array [rows, cols, 4] of edge colours, got shape "
                         f"{board.shape}")
    if not np.issubdtype(board.dtype, np.integer) or board.min() < NO_TILE:
        raise InputError("edge colours must be non-negative integers (-1 on all four sides: "
                         "an empty cell)")
    unset = board == NO_TILE
    if (unset.any(axis=2) != unset.all(axis=2)).any():
        raise InputError("a cell is empty (-1) on some sides only")
    if numbers is not None and np.asarray(numbers).shape != board.shape[:2]:
        raise InputError(f"tile numbers must be an array [rows, cols], got shape "
                         f"{np.asarray(numbers).shape}")
    return board


def _vivid(n: int) -> list:
    """``n`` fill colours without the palette's greys, which would read as the frame."""
    from matplotlib.colors import to_rgb

    extra = 0
    while True:
        colours = [c for c in palette(n + extra) if np.ptp(to_rgb(c)) > 0.08]
        if len(colours) >= n:
            return colours[:n]
        extra += n - len(colours)


def broken_edges(colours: np.ndarray) -> list[tuple[int, int, int]]:
    """The mismatched edges of a board ``[rows, cols, 4]`` (-1 on empty cells) as ``(row,
    column, side)``, side 1 (east) or 2 (south) of the cell on its north or west."""
    board = np.asarray(colours)
    out = []
    for side, a, b in ((1, board[:, :-1, 1], board[:, 1:, 3]),
                       (2, board[:-1, :, 2], board[1:, :, 0])):
        for r, c in zip(*np.nonzero((a != NO_TILE) & (b != NO_TILE) & (a != b))):
            out.append((int(r), int(c), side))
    return out


def render_board(colours: np.ndarray, out: str | Path, *, numbers: np.ndarray | None = None,
                 title: str = "", marked: list[tuple[int, int, int]] = ()) -> None:
    """Draw an edge-matching board (see the module docstring) to ``out``; the edges in
    ``marked`` (``broken_edges``) as thick red lines."""
    from matplotlib.patches import Polygon

    board = _check_board(colours, numbers)
    check_output(out)
    rows, cols, _ = board.shape
    fills = [FRAME_GREY] + _vivid(max(int(board.max()), 0))
    fig = _figure(CELL_INCHES * 1.4 * cols + 0.4, CELL_INCHES * 1.4 * rows + 0.6)
    ax = fig.add_subplot(1, 1, 1)
    for r in range(rows):
        y = rows - 1 - r                       # row 0 at the top
        for c in range(cols):
            centre = (c + 0.5, y + 0.5)
            corners = {"nw": (c, y + 1), "ne": (c + 1, y + 1), "se": (c + 1, y), "sw": (c, y)}
            sides = [("nw", "ne"), ("ne", "se"), ("se", "sw"), ("sw", "nw")]   # N E S W
            empty = bool(board[r, c, 0] == NO_TILE)       # drawn as its outline only
            for k, (a, b) in enumerate(() if empty else sides):
                ax.add_patch(Polygon([corners[a], corners[b], centre], closed=True,
                                     facecolor=fills[int(board[r, c, k])], edgecolor="#333333",
                                     linewidth=0.4))
            ax.add_patch(Polygon([corners["nw"], corners["ne"], corners["se"], corners["sw"]],
                                 closed=True, fill=False, edgecolor="black", linewidth=1.2))
            if numbers is not None and not empty:
                ax.text(c + 0.5, y + 0.5, str(int(np.asarray(numbers)[r, c])), ha="center",
                        va="center", fontsize=7,
                        bbox={"boxstyle": "round,pad=0.15", "facecolor": "white",
                              "edgecolor": "none", "alpha": 0.8})
    for r, c, side in marked:
        y = rows - 1 - r
        if side == 1:
            xs, ys = (c + 1, c + 1), (y, y + 1)
        else:
            xs, ys = (c, c + 1), (y, y)
        ax.plot(xs, ys, color="red", linewidth=3.0, solid_capstyle="butt", zorder=5)
    ax.set_xlim(-0.05, cols + 0.05)
    ax.set_ylim(-0.05, rows + 0.05)
    ax.set_aspect("equal")
    ax.axis("off")
    if title:
        ax.set_title(title, fontsize=11)
    _save(fig, out)


def render_edge_matching(puzzle, solution, out: str | Path, *, numbers: bool = True,
                         title: str | None = None, mark_mismatches: bool = False) -> None:
    """Draw ``solution`` (a ``BoardSolution`` or a ``Board``) of an edge-matching ``puzzle``
    to ``out``, each tile labelled with its number in the file (from 1) unless ``numbers`` is
    false, and with ``mark_mismatches`` every mismatched edge in red."""
    from .models.board import Board

    if isinstance(solution, Board):
        solution = solution.to_solution()
    colours = puzzle.board_colours(solution)
    tiles = None
    if numbers:
        tiles = np.array([[solution.at(x, y)[0] + 1 for x in range(puzzle.width)]
                          for y in range(puzzle.height - 1, -1, -1)])
    render_board(colours, out, numbers=tiles, title=puzzle.name if title is None else title,
                 marked=broken_edges(colours) if mark_mismatches else ())
