"""``cpkit generate KIND``: make puzzle instances."""

from __future__ import annotations

import sys

from . import SUMMARIES
from .common import HelpFormatter, positive_int


def add_parser(sub) -> None:
    p = sub.add_parser("generate", help=SUMMARIES["generate"],
                       description="Generate puzzle instances.", formatter_class=HelpFormatter)
    kinds = p.add_subparsers(dest="kind", metavar="KIND")
    kinds.required = True
    em = kinds.add_parser(
        "edge-matching", help="a random edge-matching puzzle with a known solution",
        description="A random edge-matching puzzle made as Benoist & Bourreau made theirs: "
                    "random colours on the edges of a solved board (frame-ring edges from the "
                    "border palette 1..B, all other inner edges from B+1..B+I), tiles shuffled "
                    "and turned.  Written in the native format; the same seed gives the same "
                    "puzzle.",
        formatter_class=HelpFormatter)
    em.add_argument("--size", type=positive_int, required=True, metavar="N",
                    help="board width (and height, unless --height is given)")
    em.add_argument("--height", type=positive_int, metavar="M", help="board height")
    em.add_argument("--border-colors", "--border-colours", dest="border", type=positive_int,
                    required=True, metavar="B", help="colours of the frame-ring edges")
    em.add_argument("--inner-colors", "--inner-colours", dest="inner", type=positive_int,
                    required=True, metavar="I", help="colours of the other inner edges")
    em.add_argument("--seed", type=int, required=True, metavar="S", help="random seed")
    em.add_argument("-o", "--output", metavar="FILE", help="write here (default: stdout)")
    em.set_defaults(run=run_edge_matching)
    tl = kinds.add_parser(
        "tiling", help="a box cut at random into different pieces of one size",
        description="A random tiling puzzle: the box cut into connected pieces of the given "
                    "number of cells, no two alike under rotation, then turned at random and "
                    "shuffled.  The cut is a solution, so the puzzle has at least one.  Written "
                    "in the polycube format (cpkit tile reads it; so does polycube); the same "
                    "box, size and seed give the same puzzle.",
        formatter_class=HelpFormatter)
    tl.add_argument("--box", required=True, metavar="WxH[xD]",
                    help="the box, e.g. 3x4x5 (solid) or 11x6 (flat)")
    tl.add_argument("--piece-size", type=positive_int, required=True, metavar="N",
                    help="cells per piece (the box's cells must be a multiple of it)")
    tl.add_argument("--seed", type=int, required=True, metavar="S", help="random seed")
    tl.add_argument("-o", "--output", metavar="FILE", help="write here (default: stdout)")
    tl.set_defaults(run=run_tiling)


def run_edge_matching(args) -> int:
    from ..io.edge_matching import format_native
    from ..io.text import write_atomically
    from ..models.em_generator import generate

    puzzle = generate(args.size, args.height, border_colours=args.border,
                      inner_colours=args.inner, seed=args.seed)
    text = format_native(puzzle)
    if args.output is not None:
        write_atomically(args.output, text, "the puzzle")
        print(f"wrote {args.output}: {puzzle.describe()}", file=sys.stderr)
    else:
        sys.stdout.write(text)
    return 0


def run_tiling(args) -> int:
    import io

    from ..io.polycube import write_polycube
    from ..io.text import write_atomically
    from ..models.tiling_generator import generate, parse_box

    puzzle = generate(parse_box(args.box), args.piece_size, seed=args.seed)
    out = io.StringIO()
    write_polycube(puzzle, out, comment=f"{puzzle.name}: cpkit generate tiling --box "
                                        f"{args.box} --piece-size {args.piece_size} --seed "
                                        f"{args.seed}\n{len(puzzle.pieces)} pieces, each "
                                        f"different under rotation; at least one solution")
    if args.output is not None:
        write_atomically(args.output, out.getvalue(), "the puzzle")
        print(f"wrote {args.output}: {puzzle.name}, {len(puzzle.pieces)} pieces of "
              f"{args.piece_size} cells", file=sys.stderr)
    else:
        sys.stdout.write(out.getvalue())
    return 0
