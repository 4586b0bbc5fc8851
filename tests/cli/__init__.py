"""Helpers shared by the command-line tests."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time


def interrupted_summary(*args: str, after: float, sig: int = signal.SIGINT) -> dict:
    """Run ``python -m cpkit ARGS``, press Ctrl-C (or send ``sig``) after ``after`` seconds,
    check that it stops with exit status 130 and reports an interrupted run, and return its
    JSON summary."""
    proc = subprocess.Popen([sys.executable, "-m", "cpkit", *args],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env=dict(os.environ, PYTHONUNBUFFERED="1"))
    time.sleep(after)
    proc.send_signal(sig)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    summary = json.loads(out.strip().splitlines()[-1])
    assert summary["complete"] is False and summary["stop_reason"] == "interrupted"
    return summary
