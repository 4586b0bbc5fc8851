"""Compiling (or loading from cache) the numba kernels, timed apart from the search.

Each engine registers a warm-up function that calls its kernels once on a tiny input with the
exact argument types of a real run.  The first call in a process compiles or loads the machine
code; its duration is reported as ``jit_seconds`` and never counted as search time.  If it takes
long (a cold cache), the hook ``on_slow_compile`` is told so the CLI can say what is happening.
"""

from __future__ import annotations

import os
import sys
import threading
import time
from typing import Callable

from ...signals import signals_wait_for_the_compiler

#: Called with a message when a warm-up is still running after ``SLOW_AFTER`` seconds.
on_slow_compile: Callable[[str], None] | None = None
SLOW_AFTER = 1.0

_warmed: dict[str, float] = {}

#: Set by the command line: load numba's implementations without its BLAS probe (see
#: ``_load_numba_without_blas_probe``).  Off for the library, whose caller may compile
#: numba functions of their own that need BLAS.
skip_blas_probe = False


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
            if skip_blas_probe and not _warmed:
                _load_numba_without_blas_probe()
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


def _load_numba_without_blas_probe() -> None:
    """Load numba's CPU implementations with ``scipy.linalg`` hidden.

    Before its first compile or cache load in a process, numba imports every implementation it
    has; one of them imports ``scipy.linalg`` only to learn whether ``np.dot`` and friends can
    call BLAS.  That import is 0.15 s, a fifth of a whole ``cpkit tile`` process on a small
    puzzle, and cpkit's kernels call no BLAS.  Hidden, numba records that it has no BLAS
    (``np.dot`` in a kernel would then fail to type, which the kernel tests would show);
    ``scipy`` stays importable for the rest of the process (the optimiser's assignment uses it).
    """
    blas = "scipy.linalg.cython_blas"
    if blas in sys.modules:
        return
    from numba.core.registry import cpu_target

    sys.modules[blas] = None  # type: ignore[assignment]
    try:
        cpu_target.target_context.refresh()
    finally:
        del sys.modules[blas]
