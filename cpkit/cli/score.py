"""``cpkit score BOARD --puzzle FILE``: the matched edges of an edge-matching board."""

from __future__ import annotations

import json
from pathlib import Path

from ..io.edge_matching import FORMATS
from . import SUMMARIES
from .common import HelpFormatter


def add_parser(sub) -> None:
    p = sub.add_parser(
        "score", help=SUMMARIES["score"],
        description="Score a board of an edge-matching puzzle as the Eternity II community "
                    "does: the edges between two cells whose tiles show the same colour, out "
                    "of all the board's inner edges (480 on 16 x 16).  Also printed: the "
                    "tiles placed, every mismatched edge, and the puzzle's hints.  A board "
                    "that uses a tile twice, breaks a hint or shows grey anywhere but towards "
                    "the frame is refused with its cell named (exit status 2).  BOARD is a "
                    "board file (the grid 'cpkit match' prints: rows top first of "
                    "tile/rotation, '.' on an empty cell; docs/formats.md) or a file holding "
                    "a link of the community's board viewer (e2.bucas.name), whose colours "
                    "are matched to the puzzle's tiles.",
        formatter_class=HelpFormatter)
    p.add_argument("board", metavar="BOARD", help="board file or file holding a viewer link")
    p.add_argument("--puzzle", metavar="FILE", required=True,
                   help="the puzzle the board is a board of (any layout 'cpkit match' reads)")
    p.add_argument("--format", default="auto", choices=("auto",) + FORMATS,
                   help="layout of the puzzle file (auto: detected)")
    p.add_argument("--ignore-hints", action="store_true",
                   help="do not check the puzzle's hints")
    p.add_argument("--link", action="store_true",
                   help="also print the board's viewer link")
    p.add_argument("--json", action="store_true",
                   help="print one JSON line instead (score, max_score, tiles_placed, cells, "
                        "mismatches, hints, hints_placed)")
    p.set_defaults(run=run)


def run(args) -> int:
    from ..api import score
    from ..errors import InputError
    from ..io.boards import load_board
    from ..io.edge_matching import read_edge_matching
    from ..io.viewer_link import format_link

    puzzle = read_edge_matching(args.puzzle, format=args.format, ignore_hints=args.ignore_hints)
    board = load_board(args.board, puzzle)
    try:
        result = score(board, puzzle)
    except InputError as exc:
        raise exc.located(args.board) from None
    name = Path(args.board).name.split(".")[0]
    link = format_link(puzzle, board, name) if args.link else None
    if args.json:
        summary = {"board": name, "puzzle": puzzle.name, **result.summary()}
        if link:
            summary["link"] = link
        print(json.dumps(summary))
        return 0
    hints = (f"; hints: {result.hints_placed} of {result.hints} placed, all respected"
             if result.hints else "")
    print(f"{name}: {result.score} of {result.max_score} edges matched; "
          f"{result.tiles_placed} of {result.cells} tiles placed{hints} (puzzle {puzzle.name})")
    if result.mismatches:
        print(f"mismatched edges ({len(result.mismatches)}):")
        for m in result.mismatches:
            print(f"  {m.describe()}")
    if link:
        print(link)
    return 0
