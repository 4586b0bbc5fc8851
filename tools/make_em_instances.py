"""Write instances/edge_matching/: generated edge-matching puzzles and their solution counts.

Run from the repository root: ``.venv/bin/python tools/make_em_instances.py``.  Each puzzle is
written by ``cpkit generate edge-matching`` (so the files are exactly what the command makes for
the recorded parameters; a test checks it), then counted by the three engines; the counts go to
``manifest.json`` only if all three agree.  Counts are up to rotation of the board (the default
of ``cpkit match``) and raw.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "instances" / "edge_matching"
ENGINES = ("cp", "backtrack", "cpsat")

#: (width, height, border colours, inner colours, seed): 4x4 to 7x7, two oblong boards, colour
#: counts from the few (many solutions) to the paper's ratio (one or a few).
SET = [
    (4, 4, 2, 3, 2), (4, 4, 3, 4, 3), (5, 4, 3, 4, 1), (5, 5, 3, 4, 3), (5, 5, 4, 5, 1),
    (6, 5, 4, 6, 3), (6, 6, 4, 5, 3), (6, 6, 5, 6, 2), (6, 6, 6, 6, 2), (7, 7, 6, 7, 1),
    (7, 7, 7, 7, 2), (7, 7, 7, 7, 3),
]


def generate(width: int, height: int, border: int, inner: int, seed: int) -> Path:
    from cpkit.models.em_generator import generate as make

    name = make(width, height, border_colours=border, inner_colours=inner, seed=seed).name
    path = OUT / f"{name}.txt"
    subprocess.run([sys.executable, "-m", "cpkit", "generate", "edge-matching", "--size",
                    str(width), "--height", str(height), "--border-colors", str(border),
                    "--inner-colors", str(inner), "--seed", str(seed), "-o", str(path)],
                   check=True)
    return path


def count(path: Path) -> dict[str, int]:
    from cpkit import load
    from cpkit.engines.dispatch import solve

    puzzle = load(path)
    counts = {}
    for engine in ENGINES:
        result = solve(puzzle, engine=engine, count_only=True)
        assert result.complete, (path.name, engine)
        counts[engine] = result.count
    if len(set(counts.values())) != 1:
        raise SystemExit(f"{path.name}: the engines disagree: {counts}")
    rotation = counts["cp"]
    raw = solve(puzzle, engine="backtrack", unique="raw", count_only=True).count
    return {"rotation": rotation, "raw": raw}


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    manifest = {}
    for width, height, border, inner, seed in SET:
        path = generate(width, height, border, inner, seed)
        manifest[path.name] = {
            "generate": {"size": width, "height": height, "border_colors": border,
                         "inner_colors": inner, "seed": seed},
            "counts": count(path), "agreed_by": list(ENGINES)}
        print(path.name, manifest[path.name]["counts"], flush=True)
    (OUT / "manifest.json").write_text(json.dumps(manifest, indent=2) + "\n")


if __name__ == "__main__":
    main()
