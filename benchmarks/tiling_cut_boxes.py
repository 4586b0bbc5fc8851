"""Boxes cut at random (``cpkit generate tiling``) in the ``tiling-vs-polycube`` suite: puzzles
neither program was tuned on, a new set for each seed (``CPKIT_BENCH_TILING_SEED``).

Each box is run as generated and turned, cpkit and polycube side by side as the bundled
puzzles are (``tiling_vs_polycube.side_by_side``, the same targets).  No count is published,
so the programs are checked against each other: where their counts up to rotation differ, both
count every solution (cpkit ``--unique raw``, polycube without its redundancy filter ``-r#``)
and the row shows those counts, which say which of the two was right.  Where they show
polycube's ``-r#`` count wrong (``fewer_than_orbits``), that run found the wrong answer and is
no reference for speed: the target compares cpkit with polycube's run of every solution.
"""

from __future__ import annotations

import os
from pathlib import Path

from cpkit.errors import InputError

from . import Table, progress
from . import polycube_ref as ref

#: (box, cells per piece): flat and solid boxes whose searches take polycube 0.1 s to a minute
#: with seed 1 (and cpkit up to 15 s); the 14 x 10 box of decominoes (140 cells) has the
#: largest pieces, whose DLX nodes and hand-overs to FILA cost most.
BOXES = [((11, 6), 6), ((9, 8), 6), ((14, 5), 7), ((14, 10), 10), ((3, 3, 6), 6),
         ((3, 4, 4), 6), ((2, 5, 5), 5), ((2, 5, 6), 5), ((2, 6, 6), 6), ((3, 4, 6), 6)]
#: Each process's limit here: another seed may cut a box into a puzzle of hours.
TIMEOUT = 100.0


def seed() -> int:
    """``CPKIT_BENCH_TILING_SEED``, by default 1."""
    text = os.environ.get("CPKIT_BENCH_TILING_SEED", "1").strip()
    try:
        return int(text)
    except ValueError:
        raise InputError(f"CPKIT_BENCH_TILING_SEED must be a whole number, got {text!r}") \
            from None


def files(folder: Path) -> list[tuple[str, str, Path, object]]:
    """(label, variant, file, puzzle) for each box as generated and turned; a box the seed
    cannot cut is left out, with the reason as its label's variant."""
    from cpkit.io.polycube import write_polycube
    from cpkit.models.tiling_generator import generate

    from .tiling_vs_polycube import TURN_2D, TURN_3D, write_turned

    out = []
    for box, size in BOXES:
        try:
            puzzle = generate(box, size, seed=seed())
        except InputError as error:
            out.append((f"{'x'.join(map(str, box))}, pieces of {size}", str(error), None, None))
            continue
        path = folder / f"{puzzle.name}.txt"
        with open(path, "w") as fh:
            write_polycube(puzzle, fh, comment=f"{puzzle.name}: cpkit generate tiling")
        matrix = TURN_2D if puzzle.dimension == 2 else TURN_3D
        turned = write_turned(puzzle, matrix, folder, f"{puzzle.name}_turned.txt")
        out.append((puzzle.name, "as generated", path, puzzle))
        out.append((puzzle.name, "turned", turned, puzzle))
    return out


def raw_runs(binary: Path, path: Path, dimension: int):
    """Both programs counting every solution (no redundancy filter): cpkit's run and
    polycube's."""
    from .tiling_vs_polycube import run_cpkit

    mine = run_cpkit(path, "--unique", "raw", timeout=TIMEOUT)
    flags = tuple(f for f in ref.flags_for(dimension) if f != "-r#")
    return mine, ref.run(binary, path, flags, TIMEOUT)


def raw_phrase(mine, theirs) -> str:
    """Both programs' counts of every solution, as a phrase."""
    def shown(count):
        return "not finished" if count is None else f"{count:,}"

    return f"cpkit {shown(mine.count)}, polycube {shown(theirs.count)}"


def fewer_than_orbits(puzzle, theirs: int | None, raw_mine, raw_theirs) -> bool:
    """Whether polycube's count up to rotation, ``theirs``, is certainly wrong: both programs
    count the same solutions in all, and ``theirs`` is fewer than the fewest classes they can
    fall into (a class holds at most as many solutions as the box has rotations onto itself).
    A count above that bound is left unjudged: symmetric solutions would allow it."""
    from cpkit.models.symmetry import puzzle_symmetries

    if None in (theirs, raw_mine.count, raw_theirs.count) or raw_mine.count != raw_theirs.count:
        return False
    return theirs * len(puzzle_symmetries(puzzle, "rotation")) < raw_mine.count


def cut_table(binary: Path | None, folder: Path) -> Table:
    from .tiling_vs_polycube import _configuration, side_by_side, target

    runs = files(folder)
    rows = []
    counted: dict[str, int | None] = {}
    for number, (label, variant, path, puzzle) in enumerate(runs, 1):
        if path is None:
            rows.append([label, variant] + [None] * 11)
            continue
        progress(f"{label}, {variant}", number, len(runs))
        mine, theirs = side_by_side(binary, path, puzzle.dimension, TIMEOUT)
        if variant == "turned" and mine.count is not None and \
                counted.get(label) not in (None, mine.count):
            raise RuntimeError(f"cpkit counts {mine.count} on {path.name} and "
                               f"{counted[label]} as generated")
        counted.setdefault(label, mine.count)
        differ = theirs is not None and None not in (mine.count, theirs.count) and \
            mine.count != theirs.count
        every, reference, why = "", theirs, ""
        if differ:
            raw_mine, raw_theirs = raw_runs(binary, path, puzzle.dimension)
            every = raw_phrase(raw_mine, raw_theirs)
            if fewer_than_orbits(puzzle, theirs.count, raw_mine, raw_theirs):
                reference = raw_theirs
                why = f" (polycube wrong with -r#; without it {raw_theirs.seconds:.3f} s)"
        ratio, what, met = target(mine, reference)
        rows.append([label, variant, mine.count, theirs.count if theirs else None, every,
                     mine.seconds, mine.search_seconds,
                     (f"> {theirs.seconds:.0f}" if theirs.timed_out else theirs.seconds)
                     if theirs else None,
                     ratio, what and what + why, met,
                     mine.figures.get("orientation", ""), _configuration(mine)])
    return Table(
        f"Boxes cut at random (seed {seed()}), cpkit against polycube 1.2.1",
        ["puzzle", "file", "cpkit count", "polycube count", "every solution (where they "
         "differ)", "cpkit whole s", "cpkit search s", "polycube whole s", "target ratio",
         "target", "met", "orientation", "cpkit configuration"], rows,
        [f"`cpkit generate tiling --box B --piece-size N --seed {seed()}` (the puzzle's name "
         f"says B and N); the seed is `CPKIT_BENCH_TILING_SEED`.  Runs, flags and targets as "
         f"in the table above; each process limited to {TIMEOUT:g} s (`> limit`: polycube "
         f"stopped, the ratio a bound).  Counts up to rotation; where the two programs' "
         f"differ, `every solution` gives each one's count of all solutions, rotations "
         f"included (cpkit `--unique raw`, polycube without `-r#`): the count up to rotation "
         f"is that over the box's rotations, where no solution is symmetric.  Where those "
         f"counts show polycube's count up to rotation wrong (below the fewest classes they "
         f"can fall into, the count of every solution over the box's rotations), its run "
         f"with `-r#` is no reference: the target compares cpkit with its run without `-r#` "
         f"(its seconds in the target column)."])
