"""Worker configurations side by side on Eternity II, on a placements budget (not a suite).

``python -m benchmarks.e2_configs OUT PUZZLES NODES SEEDS CONFIGS``: one worker (``Anytime``)
per seed, puzzle and configuration, in that nesting (every configuration runs on a seed
before the next seed starts, so a change of the machine's load falls on all alike), each
until the scan has made ``NODES`` placements.  With ``pace`` "work" (the default here) the
run of a seed is the same on any machine and under any load: configurations are told apart
by their seeds alone, not by the noise of the clock.  ``PUZZLES``: comma-separated paths under the
Eternity II folder without ``.native`` (``pieces/e2_clues5``); ``SEEDS``: comma-separated;
``CONFIGS``: a JSON object, label to ``Config`` fields, ``total``/``start``/``power``/
``tighten`` for the ``Schedule``, and ``cpu_seconds`` for a budget in CPU seconds instead
(for ``pace`` "clock").  One JSON line per run is printed and appended to ``OUT``; every
board is scored again by ``score_board``.
"""

from __future__ import annotations

import json
import os
import sys
import time
from dataclasses import asdict, replace

from cpkit.io.edge_matching import read_edge_matching
from cpkit.models.score import score_board
from cpkit.optimise.anytime import Anytime, Config, warm
from cpkit.optimise.schedule import Schedule

from .edge_matching import ETERNITY2

SCHEDULE_FIELDS = ("total", "start", "power", "tighten")


def make_config(spec: dict) -> Config:
    spec = {k: v for k, v in spec.items() if k != "cpu_seconds"}
    schedule = {k: spec.pop(k) for k in SCHEDULE_FIELDS if k in spec}
    config = Config(**{"pace": "work", **spec})
    return replace(config, schedule=Schedule(**schedule)) if schedule else config


def one_run(puzzle, seed: int, spec: dict, nodes: int) -> dict:
    worker = Anytime(puzzle, "edges", seed, make_config(spec))
    cpu, wall = time.process_time(), time.perf_counter()
    if "cpu_seconds" in spec:
        limit = float(spec["cpu_seconds"])
        worker.run(float("inf"), cancel=lambda: time.process_time() - cpu >= limit)
    else:
        worker.run(float("inf"), nodes=nodes)
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    if worker.best is not None:
        checked = score_board(puzzle, worker.tables.board(worker.best)).score
        if checked != worker.best_score:
            raise AssertionError(f"the worker says {worker.best_score}, the board {checked}")
    r = worker.report()
    score = worker.best_score if worker.best is not None else None
    return {"seed": seed, "nodes": r["nodes"], "score": score, "moves": r["moves"],
            "restarts": r["restarts"], "boards": r["boards"],
            "best_at": round(r["best_at"], 1), "cpu": round(cpu, 1), "wall": round(wall, 1),
            "gains": r["gains"], "schedule": asdict(worker.schedule),
            "load": round(os.getloadavg()[0], 2)}


def main(argv: list[str]) -> None:
    out, names, nodes, seeds, specs = argv
    nodes, seeds, specs = int(float(nodes)), [int(s) for s in seeds.split(",")], json.loads(specs)
    warm()
    puzzles = {n: read_edge_matching(ETERNITY2 / f"{n}.native") for n in names.split(",")}
    for seed in seeds:
        for name, puzzle in puzzles.items():
            for label, spec in specs.items():
                row = {"label": label, "puzzle": name, **one_run(puzzle, seed, spec, nodes)}
                print(json.dumps(row), flush=True)
                with open(out, "a") as f:
                    f.write(json.dumps(row) + "\n")


if __name__ == "__main__":
    main(sys.argv[1:])
