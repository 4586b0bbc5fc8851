"""Compiling (or loading from cache) the numba kernels, timed apart from the search.

Each engine registers a warm-up function that calls its kernels once on a tiny input with the
exact argument types of a real run.  The first call in a process compiles or loads the machine
code; its duration is reported as ``jit_seconds`` and never counted as search time.  If it takes
long (a cold cache), the hook ``on_slow_compile`` is told so the CLI can say what is happening.
"""

from __future__ import annotations

import os
import threading
import time
from typing import Callable

from ...signals import signals_wait_for_the_compiler

#: Called with a message when a warm-up is still running after ``SLOW_AFTER`` seconds.
on_slow_compile: Callable[[str], None] | None = None
SLOW_AFTER = 1.0

_warmed: dict[str, float] = {}


def cache_dir() -> str:
    return os.environ.get("NUMBA_CACHE_DIR", "")


def warm(name: str, fn: Callable[[], None]) -> float:
    """Run ``fn`` once per process; return the seconds it took then, 0.0 afterwards."""
    if name in _warmed:
        return 0.0
    timer = None
    if on_slow_compile is not None:
        message = (f"compiling the {name} kernels (first run only; cached in "
                   f"{cache_dir() or 'the numba cache'})...")
        timer = threading.Timer(SLOW_AFTER, on_slow_compile, args=(message,))
        timer.daemon = True
        timer.start()
    start = time.perf_counter()
    try:
        with signals_wait_for_the_compiler(on_slow_compile):
            fn()
    finally:
        if timer is not None:
            timer.cancel()
    seconds = time.perf_counter() - start
    _warmed[name] = seconds
    return seconds


def warmed_seconds() -> float:
    """Seconds spent so far in this process compiling or loading kernels."""
    return sum(_warmed.values())
