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
                        ready: str | None = None, searching: str | None = None) -> dict:
    """Run ``python -m cpkit ARGS``, press Ctrl-C (or send ``sig``) after ``after`` seconds,
    check that it stops with exit status 130 and reports an interrupted run, and return its
    JSON summary.  With ``ready`` the seconds count from the first line of standard output
    that contains it, with ``searching`` from the first such line of standard error (a progress
    line of ``--progress S``): a run that loads or compiles its kernels first may not have
    started searching after a fixed time on a busy machine."""
    proc = subprocess.Popen([sys.executable, "-m", "cpkit", *args],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env=dict(os.environ, PYTHONUNBUFFERED="1"))
    # Read from the descriptors, so that ``communicate`` misses nothing.
    head = {proc.stdout: b"", proc.stderr: b""}
    stream, wanted = (proc.stdout, ready) if searching is None else (proc.stderr, searching)
    deadline = time.time() + 120
    while wanted is not None and wanted not in head[stream].decode():
        if time.time() > deadline or proc.poll() is not None:
            proc.kill()
            raise AssertionError(f"no line with {wanted!r} yet: {head[stream][-300:]}")
        if select.select([stream], [], [], 0.5)[0]:
            head[stream] += os.read(stream.fileno(), 1 << 16)
    time.sleep(after)
    proc.send_signal(sig)
    out, err = proc.communicate(timeout=60)
    out, err = head[proc.stdout].decode() + out, head[proc.stderr].decode() + err
    assert proc.returncode == 130, err
    summary = json.loads(out.strip().splitlines()[-1])
    assert summary["complete"] is False and summary["stop_reason"] == "interrupted"
    return summary
