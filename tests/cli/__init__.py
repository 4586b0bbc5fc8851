"""Helpers shared by the command-line tests."""

from __future__ import annotations

import json
import os
import select
import signal
import subprocess
import sys
import time


def interrupted_summary(*args: str, after: float, sig: int = signal.SIGINT,
                        ready: str | None = None) -> dict:
    """Run ``python -m cpkit ARGS``, press Ctrl-C (or send ``sig``) after ``after`` seconds,
    check that it stops with exit status 130 and reports an interrupted run, and return its
    JSON summary.  With ``ready`` the seconds count from the first line of standard output
    that starts with it (a run that compiles its kernels first may find nothing in a fixed
    time on a busy machine)."""
    proc = subprocess.Popen([sys.executable, "-m", "cpkit", *args],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env=dict(os.environ, PYTHONUNBUFFERED="1"))
    head = b""              # read from the descriptor, so that ``communicate`` misses nothing
    deadline = time.time() + 120
    while ready is not None and not any(line.startswith(ready)
                                        for line in head.decode().splitlines()):
        if time.time() > deadline or proc.poll() is not None:
            proc.kill()
            raise AssertionError(f"no line starting {ready!r} on standard output: {head[-300:]}")
        if select.select([proc.stdout], [], [], 0.5)[0]:
            head += os.read(proc.stdout.fileno(), 1 << 16)
    time.sleep(after)
    proc.send_signal(sig)
    out, err = proc.communicate(timeout=60)
    out = head.decode() + out
    assert proc.returncode == 130, err
    summary = json.loads(out.strip().splitlines()[-1])
    assert summary["complete"] is False and summary["stop_reason"] == "interrupted"
    return summary
