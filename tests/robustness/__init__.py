"""Robustness as a user meets it: each test runs ``python -m cpkit`` the way a shell does and
checks what comes back (exit status, the one message, files left as they were), on inputs and
situations that lose data or run away when handled badly: checkpoints over other files, full
disks, closed pipes, devices, endless inputs, set-ups that outgrow the time limit."""

from __future__ import annotations

import json
import os
import resource
import select
import subprocess
import sys
import time
from pathlib import Path
from typing import Callable

from tests.conftest import ROOT

#: Lines of standard error that say why a run is slow to start, not what went wrong.
NOTES = ("cpkit: compiling", "cpkit: stopping once the kernels are compiled")


def cpkit(*args: str) -> list[str]:
    return [sys.executable, "-m", "cpkit", *map(str, args)]


def run(*args: str, timeout: float = 120, limits: dict[int, int] | None = None,
        **popen) -> subprocess.CompletedProcess:
    """``cpkit ARGS`` to its end (``limits``: resource limits of the process, e.g. the
    largest file it may write)."""
    preexec = None if not limits else _limit(limits)
    popen.setdefault("capture_output", "stdout" not in popen)
    return subprocess.run(cpkit(*args), text=True, cwd=ROOT, timeout=timeout,
                          preexec_fn=preexec, **popen)


def start(*args: str, **popen) -> subprocess.Popen:
    popen.setdefault("stdout", subprocess.PIPE)
    popen.setdefault("stderr", subprocess.PIPE)
    return subprocess.Popen(cpkit(*args), text=True, cwd=ROOT,
                            env=dict(os.environ, PYTHONUNBUFFERED="1"), **popen)


def _limit(limits: dict[int, int]) -> Callable[[], None]:
    def apply() -> None:
        for which, value in limits.items():
            resource.setrlimit(which, (value, value))
    return apply


def messages(stderr: str) -> list[str]:
    """The lines of standard error that are messages (not the compiling notes)."""
    return [line for line in stderr.strip().splitlines() if line and not line.startswith(NOTES)]


def one_line(stderr: str, *words: str) -> str:
    """The one message line of ``stderr`` (no traceback), checked to hold ``words``."""
    lines = messages(stderr)
    assert len(lines) == 1 and lines[0].startswith("cpkit: "), stderr
    assert "Traceback" not in stderr and "Exception ignored" not in stderr, stderr
    for word in words:
        assert word in lines[0], (word, lines[0])
    return lines[0]


def refused(proc: subprocess.CompletedProcess, *words: str) -> str:
    """Exit status 2 and one ``cpkit: error:`` line holding ``words``."""
    assert proc.returncode == 2, (proc.returncode, proc.stdout[-500:], proc.stderr)
    line = one_line(proc.stderr, *words)
    assert line.startswith("cpkit: error: "), line
    return line


def summary(out: str) -> dict:
    return json.loads(out.strip().splitlines()[-1])


def wait_for(condition: Callable[[], bool], proc: subprocess.Popen | None = None,
             seconds: float = 120, step: float = 0.005) -> bool:
    """Poll ``condition`` until it holds (True), the time is up or ``proc`` ended (False)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        if proc is not None and proc.poll() is not None:
            return condition()
        time.sleep(step)
    return False


def read_line(stream, seconds: float) -> str | None:
    """The first line from a pipe within ``seconds``, or None."""
    deadline = time.monotonic() + seconds
    data = b""
    while b"\n" not in data:
        left = deadline - time.monotonic()
        if left <= 0 or not select.select([stream], [], [], left)[0]:
            return None
        chunk = os.read(stream.fileno(), 1)
        if not chunk:
            return None
        data += chunk
    return data.decode()


def monominoes(path: Path, side: int) -> Path:
    """``side`` x ``side`` box of ``side``² identical monominoes: one tiling."""
    lines = [f"D:xDim={side}:yDim={side}:zDim=1"]
    lines += [f"C:name=m{k}:layout=0 0 0" for k in range(side * side)]
    path.write_text("\n".join(lines + ["~D", ""]))
    return path
