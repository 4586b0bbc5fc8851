"""Replay edge matching's ``auto`` race on recorded searches, to compare race policies fast.

The race (``cpkit/engines/edge_matching/auto/em_auto_search.py``) decides from each engine's
own progress: its seconds, its explored share and its solutions, read after each slice.  An
engine's progress does not depend on the other engines, so each engine's search is recorded
alone once per board, and the race's own code is then replayed on the records on a virtual
clock: a turn of the race advances the engine along its record and the clock by the seconds
the record took.  A replay of the whole ``em-auto`` set takes a second, where the suite takes an
hour, so a policy (the race's constants) is compared on every board, and on boards it was not
chosen on (``--seed``), before it is measured for real.

    python tools/em_race_replay.py record DIR [--seed S] [--cap 12] [--part K/N]
    python tools/em_race_replay.py replay DIR [--first] [--set NAME=VALUE ...] [--verbose]

``record`` writes one file per board of ``benchmarks/em_auto`` (the paper's boards and the
generated ones; ``--seed S``: the generated boards with seed S instead, and no paper boards),
each engine's search up to ``--cap`` seconds or four times the best engine so far plus one
second.  ``replay`` races on each board the best engine finishes within 6 s (5 s for the
first solution: the records end at 12 s) and prints the boards over the suite's target and
the geometric mean of the race over the best engine (``--verbose``: each board's best engine
and the race's seconds too).  ``--set JUDGE_AFTER_SECONDS=0.05`` replays with a constant of
the race changed.

The replay is as good as the records: slices of 2 to 10 ms, so a race of milliseconds is
replayed coarsely, and an engine replayed past its record is taken as making no progress.
"""

from __future__ import annotations

import argparse
import glob
import math
import pickle
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks import em_auto  # noqa: E402
from cpkit.engines.edge_matching.auto import em_auto_entrants as entrants  # noqa: E402
from cpkit.engines.edge_matching.auto import em_auto_search as race  # noqa: E402
from cpkit.engines.runtime import driver  # noqa: E402

#: The modules whose clocks (their ``time``) the replay sets to its own.
CLOCKED = (race, entrants, driver)

#: A record's slices: about this long (seconds) over the first 0.2 s, then ``LATE_SLICE``.
EARLY_SLICE, LATE_SLICE = 0.002, 0.01
#: Boards judged: the best engine within this many seconds (counting, first solution).
JUDGED_WITHIN = {False: 6.0, True: 5.0}
#: The race's time limits, as the ``em-auto`` suite's with ``CPKIT_BENCH_EM_SECONDS=10``
#: (more where the target allows more).
LIMITS = {False: 10.0, True: 5.0}


def record_board(puzzle, cap: float) -> dict:
    """Each engine's search of ``puzzle`` alone (the race's own entrants, those that can take
    the board): after every slice, (seconds, nodes, explored share, solutions, finished), up
    to ``cap`` seconds or four times the best so far plus 1."""
    race.jit_seconds()              # kernels loaded (or compiled) before any clock starts
    field, _ = race._entrants(puzzle, puzzle.symmetry_roots("rotation"), store=False)
    engines, best = {}, math.inf
    for entrant in field:
        chain, budget = entrant.chain, entrant.budget
        limit, spent, finished, rows = min(cap, 4 * best + 1), 0.0, False, []
        while not finished and spent < limit:
            start = entrants.cpu_seconds()      # the race's measure of a turn
            finished, _ = chain.step(1 << 62, budget)
            took = entrants.cpu_seconds() - start
            spent += took
            rows.append((spent, chain.total("nodes"), chain.explored(),
                         chain.total("solutions"), finished))
            target = EARLY_SLICE if spent < 0.2 else LATE_SLICE
            scale = 2.0 if took < target / 2 else (0.5 if took > target else 1.0)
            budget = int(min(1 << 26, max(1, budget * scale)))
        engines[entrant.engine] = rows
        if finished:
            best = min(best, spent)
    return engines


class Clock:
    """The virtual clock the race reads (in place of the ``time`` module): the wall clock and
    the processor clock of the race's thread (its turns' measure) are one here."""

    now = 0.0

    @staticmethod
    def perf_counter() -> float:
        return Clock.now

    thread_time = perf_counter


class ReplayedChain:
    """An engine's recorded search, as the ``RootChain`` the race drives."""

    def __init__(self, rows: list[tuple]):
        self.rows, self.at = rows, -1
        self.seconds, self.nodes, self.share, self.solutions, self.finished = \
            0.0, 0, 0.0, 0, False

    def explored(self) -> float:
        return self.share

    def total(self, what: str) -> int:
        return self.nodes if what == "nodes" else self.solutions

    def progress(self) -> dict[str, int]:
        return {"nodes": self.nodes, "solutions": self.solutions, "deepest": 0}

    def step(self, max_new: int, budget: int) -> tuple[bool, int]:
        """On to the first row past ``budget`` more nodes, ``max_new`` more solutions or the
        end; past the record, the clock goes on at the record's last rate and nothing else."""
        if self.at >= len(self.rows) - 1:
            last = self.rows[-1]
            Clock.now += budget * last[0] / max(last[1], 1)
            return False, 0
        before, k = self.solutions, self.at + 1
        while k < len(self.rows) - 1:
            row = self.rows[k]
            if row[4] or row[1] >= self.nodes + budget or row[3] - before >= max_new:
                break
            k += 1
        Clock.now += self.rows[k][0] - self.seconds
        self.at = k
        self.seconds, self.nodes, self.share, self.solutions, self.finished = self.rows[k]
        return bool(self.finished), self.solutions - before


def best_seconds(engines: dict, first: bool) -> dict[str, float]:
    """Each engine's seconds to its end (or first solution), where its record reaches it."""
    out = {}
    for engine, rows in engines.items():
        done = [r[0] for r in rows if (r[3] >= 1 if first else r[4])]
        if done:
            out[engine] = done[0]
    return out


def replay(engines: dict, first: bool, time_limit: float) -> tuple[float | None, str]:
    """The race's seconds on the recorded board (None: not done within ``time_limit``) and
    the engine it ended with (the race and the driver read the virtual clock meanwhile)."""
    clocks = [module.time for module in CLOCKED]
    for module in CLOCKED:
        module.time = Clock
    try:
        return _replay(engines, first, time_limit)
    finally:
        for module, clock in zip(CLOCKED, clocks):
            module.time = clock


def _replay(engines: dict, first: bool, time_limit: float) -> tuple[float | None, str]:
    Clock.now = 0.0
    field = [race.Entrant(engine, dict(options), ReplayedChain(engines[engine]), [],
                          budget=race.FIRST_NODES.get(engine, 1 << 10))
             for engine, options in race.CANDIDATES if engine in engines]
    limit = 1 if first else None
    decision = race.race(field, limit=limit, time_limit=time_limit, stop=lambda: False)
    if decision.finished or decision.stopped:
        return (None if decision.stopped else Clock.now), decision.winner.engine
    winner, _, stopped = race._watch(field, decision, decision.reason, limit=limit,
                                     time_limit=time_limit, began=0.0, relay=None,
                                     on_progress=None, share=race.RACE_SHARE)
    return (Clock.now if stopped in ("complete", "limit") else None), winner.engine


def judge(files: list[str], first: bool, verbose: bool = False) -> tuple[list[str], float]:
    """The boards the race takes over the suite's target on, and its geometric mean over the
    best engine."""
    misses, logs = [], []
    for path in files:
        board = pickle.loads(Path(path).read_bytes())
        best = best_seconds(board["engines"], first)
        if not best or min(best.values()) > JUDGED_WITHIN[first]:
            continue
        fastest = min(best, key=best.get)
        allowed = em_auto.allowed(best[fastest])
        seconds, engine = replay(board["engines"], first, max(LIMITS[first], allowed))
        over = seconds is None or seconds > allowed
        if over:
            misses.append(board["label"])
        if seconds is not None:
            logs.append(math.log(max(seconds, 1e-4) / max(best[fastest], 1e-4)))
        if verbose:
            shown = "-" if seconds is None else f"{seconds:.3f}"
            print(f"{board['label']:20s} best {fastest:9s} {best[fastest]:7.3f}  auto "
                  f"{engine:9s} {shown:>7s}{'  over' if over else ''}")
    return misses, math.exp(sum(logs) / len(logs)) if logs else math.nan


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    rec = sub.add_parser("record", help="record each engine's search on each board")
    rec.add_argument("folder", type=Path)
    rec.add_argument("--seed", type=int, help="generated boards of this seed only")
    rec.add_argument("--cap", type=float, default=12.0)
    rec.add_argument("--part", default="0/1", help="K/N: every N-th board from the K-th")
    rep = sub.add_parser("replay", help="replay the race on the records")
    rep.add_argument("folder", type=Path)
    rep.add_argument("--first", action="store_true", help="to the first solution")
    rep.add_argument("--set", action="append", default=[], metavar="NAME=VALUE")
    rep.add_argument("--verbose", action="store_true")
    args = parser.parse_args()
    if args.command == "record":
        args.folder.mkdir(parents=True, exist_ok=True)
        k, n = map(int, args.part.split("/"))
        for i, (label, puzzle, colours) in enumerate(boards(args.seed)):
            if i % n == k:
                engines = record_board(puzzle, args.cap)
                (args.folder / f"{label}.pkl").write_bytes(pickle.dumps(
                    {"label": label, "colours": colours, "engines": engines}))
                print(label, {e: round(rows[-1][0], 3) for e, rows in engines.items()},
                      flush=True)
        return 0
    for item in args.set:
        name, value = item.split("=")
        setattr(race, name, float(value))
    misses, mean = judge(sorted(glob.glob(str(args.folder / "*.pkl"))), args.first,
                         args.verbose)
    print(f"over the target on {len(misses)}: {', '.join(misses) or '-'}; geometric mean "
          f"over the best {mean:.3f}")
    return 0


def boards(seed: int | None) -> list[tuple]:
    """``em_auto.boards``, or its generated boards with another seed."""
    if seed is None:
        return em_auto.boards(False)
    from cpkit.models.em_generator import generate

    return [(p.name, p, f"b{frame}i{inner}") for side, pairs in em_auto.GRID.items()
            for frame, inner in pairs
            for p in [generate(side, border_colours=frame, inner_colours=inner, seed=seed)]]


if __name__ == "__main__":
    sys.exit(main())
