"""cpkit's benchmark suites: run, print, and record the numbers (``python -m benchmarks SUITE``).

The suites live in the repository, not in the installed package: they measure cpkit against the
C reference programs beside them (``benchmarks/*.c``), write their figures into
``benchmarks/results/`` and their tables into ``docs/benchmarks.md``, all found from this
folder (``ROOT``).  Data from outside the repository comes from the environment variables
listed by ``python -m benchmarks --help``.

A suite is a function returning a list of ``Table``s.  ``run_suite`` prints them, writes the raw
figures as JSON, and replaces the suite's section of ``docs/benchmarks.md`` (between
``<!-- bench:NAME -->`` and ``<!-- /bench:NAME -->``), headed by the machine it ran on, so that
every number in the docs can be regenerated with one command.
"""

from __future__ import annotations

import datetime as _dt
import json
import os
import platform
import re
import signal
import sys
import threading
import time
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field
from importlib import import_module
from pathlib import Path
from typing import Any

from cpkit.errors import InputError

#: The repository's root: the suites read its instances and C references, and write its
#: results and docs.
ROOT = Path(__file__).resolve().parent.parent

SUITES: dict[str, str] = {
    "tiling-dlx": "benchmarks.tiling:dlx_suite",
    "tiling-filters": "benchmarks.tiling:filters_suite",
    "parallel": "benchmarks.parallel:parallel_suite",
    "em": "benchmarks.edge_matching:em_suite",
    "tiling-fila": "benchmarks.fila:fila_suite",
    "tiling-vs-polycube": "benchmarks.tiling_vs_polycube:tiling_vs_polycube_suite",
    "em-ablation": "benchmarks.em_ablation:ablation_suite",
    "em-hard": "benchmarks.em_hard:hard_suite",
    "em-rate": "benchmarks.edge_matching:rate_suite",
    "em-alldiff": "benchmarks.em_alldiff:alldiff_suite",
    "em-paper": "benchmarks.em_paper:paper_suite",
    "em-generated": "benchmarks.em_paper:generated_suite",
    "em-speed": "benchmarks.em_speed:speed_suite",
    "em-auto": "benchmarks.em_auto:auto_suite",
    "jit": "benchmarks.jit:jit_suite",
    "e2": "benchmarks.e2:e2_suite",
}


@dataclass
class Table:
    title: str
    columns: list[str]
    rows: list[list[Any]]
    notes: list[str] = field(default_factory=list)
    #: Raw figures for the JSON record only (not printed).
    figures: list[Any] = field(default_factory=list)

    def markdown(self) -> str:
        out = [f"### {self.title}", "", "| " + " | ".join(self.columns) + " |",
               "| " + " | ".join("---" for _ in self.columns) + " |"]
        for row in self.rows:
            out.append("| " + " | ".join(_cell(v) for v in row) + " |")
        if self.notes:
            out.append("")
            out.extend(self.notes)
        return "\n".join(out)


def _cell(v: Any) -> str:
    if isinstance(v, bool):
        return "yes" if v else "no"
    if isinstance(v, int):
        return f"{v:,}"
    if isinstance(v, float):
        return f"{v:.3f}" if abs(v) < 1000 else f"{v:,.0f}"
    return "" if v is None else str(v)


def machine() -> dict[str, Any]:
    """CPU model, cores and software versions, for the record."""
    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo") as fh:
            for line in fh:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    import numba
    import numpy

    return {"cpu": cpu, "cores": os.cpu_count(), "python": platform.python_version(),
            "numba": numba.__version__, "numpy": numpy.__version__,
            "date": _dt.date.today().isoformat()}


#: The suite being run and when it started, for ``progress``.
_RUNNING: dict[str, Any] = {"name": "bench", "start": time.perf_counter()}


def progress(what: str, number: int | None = None, total: int | None = None) -> None:
    """Say on standard error what the suite measures now and how long it has run: suites take
    minutes to hours and print their tables only at the end (standard output stays the
    tables alone)."""
    where = [f"{number} of {total}"] if number is not None and total is not None else []
    where.append(f"{time.perf_counter() - _RUNNING['start']:.0f} s so far")
    print(f"{_RUNNING['name']}: {what} ({', '.join(where)})", file=sys.stderr, flush=True)


@contextmanager
def _signals_end_the_suite():
    """Ctrl-C or SIGTERM ends the whole suite, and nothing is written.  A search takes the
    signal to stop and report what it found, right for a run but not for a measurement: the
    suite went on, with the cut search in its table as if it had hit its time limit.  Searches
    hand the signal on to a handler set before them, this one, which raises KeyboardInterrupt."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def stop(signum, frame) -> None:
        raise KeyboardInterrupt

    previous = {sig: signal.getsignal(sig) for sig in (signal.SIGINT, signal.SIGTERM)}
    for sig in previous:
        signal.signal(sig, stop)
    try:
        yield
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)


def run_suite(name: str, json_path: str | None = None, markdown_path: str | None = None,
              quick: bool = False) -> list[Table]:
    if name not in SUITES:
        raise InputError(f"unknown benchmark suite {name!r}; available: {', '.join(SUITES)}")
    module, _, attr = SUITES[name].partition(":")
    _RUNNING.update(name=name, start=time.perf_counter())
    with _signals_end_the_suite():
        tables: list[Table] = getattr(import_module(module), attr)(quick=quick)
    info = machine()
    header = (f"Measured {info['date']} on {info['cpu']} ({info['cores']} cores), Python "
              f"{info['python']}, numba {info['numba']}, numpy {info['numpy']}; "
              f"`python -m benchmarks {name}{' --quick' if quick else ''}`.")
    text = "\n\n".join([header] + [t.markdown() for t in tables])
    print(text)
    if json_path:
        Path(json_path).parent.mkdir(parents=True, exist_ok=True)
        Path(json_path).write_text(json.dumps(
            {"suite": name, "machine": info, "tables": [asdict(t) for t in tables]}, indent=2))
    if markdown_path:
        update_markdown(Path(markdown_path), name, text)
    return tables


def update_markdown(path: Path, name: str, body: str) -> None:
    """Replace (or append) the section of suite ``name`` in a markdown file."""
    start, end = f"<!-- bench:{name} -->", f"<!-- /bench:{name} -->"
    block = f"{start}\n{body}\n{end}"
    text = path.read_text() if path.exists() else "# Benchmarks\n"
    pattern = re.compile(re.escape(start) + r".*?" + re.escape(end), re.S)
    if pattern.search(text):
        text = pattern.sub(lambda _: block, text)
    else:
        text = text.rstrip("\n") + f"\n\n## `{name}`\n\n{block}\n"
    path.write_text(text)
