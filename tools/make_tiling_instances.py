#!/usr/bin/env python3
"""Write instances/tiling/*.txt and manifest.json from the piece shapes in cpkit.models.

Usage: python tools/make_tiling_instances.py [--check]
With --check, exit 1 if a bundled file differs from what would be written.
"""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from cpkit.io.polycube import write_polycube  # noqa: E402
from cpkit.models.catalog import bundled  # noqa: E402

OUT = ROOT / "instances" / "tiling"

# Published solution counts ("rotation": distinct up to the region's rotations, flips of a flat
# puzzle included; "mirror": also up to reflection; "raw": every symmetric copy).  Sources:
# Busche, "Solving Polyomino and Polycube Puzzles" (seed 001) and "FILA" (seed 000); the three
# boxes the 12 pentominoes fill, the 8x8 square with its centre 2x2 hole (Dudeney's board,
# whose flips are rotations in space) and Scott's 8x8 of the pentominoes and the square
# tetromino (Haselgrove's 16,146) have the classical counts (Gardner, "Mathematical Games").
PUBLISHED = {
    "pentominoes_10x6.txt": {"raw": 9356, "rotation": 2339},
    "pentominoes_12x5.txt": {"rotation": 1010},
    "pentominoes_15x4.txt": {"rotation": 368},
    "pentominoes_20x3.txt": {"raw": 8, "rotation": 2},
    "pentominoes_onesided_30x3.txt": {"rotation": 46},
    "pentominoes_3x4x5.txt": {"mirror": 3940},
    "pentominoes_2x5x6.txt": {"mirror": 264},
    "pentominoes_2x3x10.txt": {"mirror": 12},
    "pentominoes_8x8_centre_hole.txt": {"rotation": 65},
    "pentominoes_square_8x8.txt": {"rotation": 16146},
    "pentominoes_l_2x4x8.txt": {},
    "pentominoes_l_16x4.txt": {},
    "pentominoes_onesided_18x5.txt": {"rotation": 686628},
    "tetriscube.txt": {"rotation": 9839},
    "somacube.txt": {"raw": 11520, "rotation": 480, "mirror": 240},
    "bedlamcube.txt": {"rotation": 19186},
    "pt12_diamond.txt": {},
    "hexominoes_15x14_parallelogram.txt": {},
    "hexominoes_box_in_diamond.txt": {},
}

# Counts we computed ourselves where none is published for the very region we bundle: found by
# two engines (DLX and the hybrid) with different constrained pieces (the symmetric X, which
# needs the canonical-form check, and the asymmetric Y), and checked in docs/benchmarks.md.
_MIRROR_PAIRS = ("Twice the published count up to rotation and reflection: the pentominoes are "
                 "their own mirror images in space, and no packing is its own mirror image.")
COMPUTED = {
    "pentominoes_3x4x5.txt": ({"rotation": 7880}, _MIRROR_PAIRS),
    "pentominoes_2x5x6.txt": ({"rotation": 528}, _MIRROR_PAIRS),
    "pentominoes_2x3x10.txt": ({"rotation": 24}, _MIRROR_PAIRS),
    "pentominoes_l_2x4x8.txt": ({"rotation": 9468},
                                "No published count is known to us: cpkit's, which polycube "
                                "1.2.1 also finds (python -m benchmarks tiling-vs-polycube)."),
    "pentominoes_l_16x4.txt": ({"rotation": 9521},
                               "No published count is known to us: cpkit's (the hybrid with X "
                               "constrained and DLX with Y constrained agree; 38,084 raw), which "
                               "polycube 1.2.1 also finds."),
    "pt12_diamond.txt": ({"rotation": 7302},
                         "The FILA paper's PT case (51,184 solutions) uses a 13x13 diamond whose "
                         "5 removed centre cells the text does not give; this is the diamond "
                         "minus the plus-shaped centre, a different region."),
}


def render() -> dict[str, str]:
    files = {}
    for name, (puzzle, comment) in bundled().items():
        buf = io.StringIO()
        write_polycube(puzzle, buf, comment=f"{comment}\nWritten by tools/make_tiling_instances.py "
                                            f"from the shapes in cpkit/models/polyforms.py.")
        files[name] = buf.getvalue()
    manifest = {name: {"counts": PUBLISHED[name]} for name in files}
    for name, (counts, note) in COMPUTED.items():
        manifest[name].update({"computed": counts, "note": note})
    files["manifest.json"] = json.dumps(manifest, indent=2, sort_keys=True) + "\n"
    return files


def main() -> int:
    files = render()
    if "--check" in sys.argv[1:]:
        stale = [n for n, text in files.items()
                 if not (OUT / n).exists() or (OUT / n).read_text() != text]
        for n in stale:
            print(f"stale: instances/tiling/{n}")
        return 1 if stale else 0
    OUT.mkdir(parents=True, exist_ok=True)
    for name, text in files.items():
        (OUT / name).write_text(text)
        print(f"wrote instances/tiling/{name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
