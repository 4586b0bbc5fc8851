"""Hypothesis strategies for random small puzzles and exact covers."""

from __future__ import annotations

from hypothesis import strategies as st

from cpkit.models.geometry import neighbours
from cpkit.models.tiling import Piece, Puzzle


@st.composite
def exact_covers(draw, max_items: int = 7, max_rows: int = 12):
    """(n_primary, n_items, rows, need): random 0/1 matrices, some items needed twice."""
    n_primary = draw(st.integers(1, max_items))
    n_secondary = draw(st.integers(0, 2))
    n_items = n_primary + n_secondary
    rows = draw(st.lists(
        st.sets(st.integers(0, n_items - 1), min_size=1, max_size=min(4, n_items)),
        min_size=1, max_size=max_rows))
    rows = [sorted(r) for r in rows if any(i < n_primary for i in r)]
    if not rows:
        rows = [[0]]
    need = [draw(st.sampled_from([1, 1, 1, 2])) for _ in range(n_primary)]
    return n_primary, n_items, rows, need


@st.composite
def puzzles(draw, max_cells: int = 14):
    """A random solvable puzzle: a random connected region in a small 2D or 3D box, cut into
    random connected pieces (so at least one tiling exists); some pieces stationary, some
    shapes repeated, sometimes one-sided or with mirror images allowed."""
    three_d = draw(st.booleans())
    box = (draw(st.integers(2, 4)), draw(st.integers(2, 4)), draw(st.integers(2, 3)) if three_d else 1)
    all_cells = [(x, y, z) for z in range(box[2]) for y in range(box[1]) for x in range(box[0])]
    size = draw(st.integers(4, min(max_cells, len(all_cells))))
    if len(all_cells) <= max_cells and draw(st.booleans()):
        size = len(all_cells)
    start = draw(st.sampled_from(all_cells))
    region = [start]
    in_box = set(all_cells)
    while len(region) < size:
        frontier = sorted({nb for c in region for nb in neighbours(c)
                           if nb in in_box and nb not in region})
        region.append(draw(st.sampled_from(frontier)))
    # Cut the region into connected pieces by random growth from random seeds.
    unassigned = set(region)
    pieces_cells: list[list] = []
    while unassigned:
        seed = draw(st.sampled_from(sorted(unassigned)))
        target = draw(st.integers(1, 5))
        piece = [seed]
        unassigned.discard(seed)
        while len(piece) < target:
            frontier = sorted({nb for c in piece for nb in neighbours(c) if nb in unassigned})
            if not frontier:
                break
            nb = draw(st.sampled_from(frontier))
            piece.append(nb)
            unassigned.discard(nb)
        pieces_cells.append(piece)
    pieces = []
    for k, cells in enumerate(pieces_cells):
        stationary = len(pieces_cells) > 2 and draw(st.integers(0, 5)) == 0
        pieces.append(Piece(f"p{k}", tuple(cells), stationary))
    if all(p.stationary for p in pieces):
        pieces[0] = Piece(pieces[0].name, pieces[0].cells, False)
    mode = draw(st.sampled_from(["free", "free", "mirror", "one_sided"]))
    if mode == "one_sided" and box[2] != 1:
        mode = "free"
    kwargs = dict(one_sided=mode == "one_sided", mirror=mode == "mirror", name="random")
    if len(region) == len(all_cells):
        return Puzzle(pieces, box=box, **kwargs)           # the box minus stationary pieces
    free = [c for p in pieces if not p.stationary for c in p.cells]
    return Puzzle(pieces, region=free, **kwargs)           # an arbitrary cell set


#: Colour counts (each of border and inner, by the board's longer side) for which every
#: edge-matching engine counts all solutions within a second or two: fewer colours, inner ones
#: above all, give boards with up to millions of solutions.
EM_COLOURS = {2: (1, 3), 3: (2, 4), 4: (3, 6), 5: (4, 7), 6: (5, 8)}


@st.composite
def edge_matching_puzzles(draw, sides=(4, 5, 6), oblong: bool = True, hints: bool = True):
    """A random generated edge-matching puzzle (``cpkit.models.em_generator.plant``): side from
    ``sides``, sometimes oblong (one side shorter by one), colour counts in ``EM_COLOURS``, and
    sometimes a hint taken from the planted solution."""
    from cpkit.models.edge_matching import Hint
    from cpkit.models.em_generator import plant

    width = draw(st.sampled_from(sides))
    height = width - 1 if oblong and width > 3 and draw(st.integers(0, 3)) == 0 else width
    low, high = EM_COLOURS[width]
    border = draw(st.integers(low, high))
    inner = draw(st.integers(low, high))
    seed = draw(st.integers(0, 10 ** 6))
    puzzle, planted = plant(width, height, border_colours=border, inner_colours=inner, seed=seed)
    if hints and draw(st.integers(0, 3)) == 0:
        x, y = draw(st.integers(0, width - 1)), draw(st.integers(0, height - 1))
        tile, rotation = planted.at(x, y)
        puzzle = puzzle.with_hints([Hint(x, y, tile, rotation)])
    return puzzle
