"""Compiling (or loading from cache) the numba kernels, timed apart from the search.

Each engine registers a warm-up function that calls its kernels once on a tiny input with the
exact argument types of a real run.  The first call in a process compiles or loads the machine
code; its duration is reported as ``jit_seconds`` and never counted as search time.  If it takes
long (a cold cache), the hook ``on_slow_compile`` is told so the CLI can say what is happening.
"""

from __future__ import annotations

import os
import signal
import sys
import threading
import time
from contextlib import contextmanager
from typing import Callable, Iterator

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
        with _signals_wait_for_the_compiler():
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


#: The handler that was last handed a held signal and let the run go on (a search's stop flag):
#: a signal for it in a later compile (the hybrid compiles DLX, then FILA) is its second one.
_handed_on: list[Callable | None] = [None]


@contextmanager
def _signals_wait_for_the_compiler() -> Iterator[None]:
    """Hold a Ctrl-C or SIGTERM that comes while numba compiles until the compiler is done, then
    hand it to the handler that was set, as if it came then (a search stops at once and reports,
    a command ends with "interrupted").  Raised inside the compiler, the KeyboardInterrupt can
    land in one of LLVM's callbacks, which leaves numba's library half built: the run then fails
    with a traceback instead of stopping.  A second signal stops at once, for a user who will not
    wait (a compile it breaks is reported as the interruption it is).  Signals that are ignored
    or left to their default action (a split run's worker, a library caller's SIGTERM) and other
    threads are left alone."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = {sig: signal.getsignal(sig) for sig in (signal.SIGINT, signal.SIGTERM)}
    previous = {sig: handler for sig, handler in previous.items() if callable(handler)}
    held: list[int] = []
    stopping_now = False

    def hold(signum, frame) -> None:
        nonlocal stopping_now
        held.append(signum)
        if len(held) > 1 or previous[signum] == _handed_on[0]:
            stopping_now = True
            raise KeyboardInterrupt
        if on_slow_compile is not None:
            on_slow_compile("stopping once the kernels are compiled (Ctrl-C again to stop now)")

    def drop_held_interrupt(unraisable) -> None:
        if not (held and isinstance(unraisable.exc_value, KeyboardInterrupt)):
            previous_hook(unraisable)

    for sig in previous:
        signal.signal(sig, hold)
    previous_hook, sys.unraisablehook = sys.unraisablehook, drop_held_interrupt
    try:
        yield
    except Exception:
        if stopping_now:
            raise KeyboardInterrupt from None
        raise
    finally:
        sys.unraisablehook = previous_hook
        for sig, handler in previous.items():
            signal.signal(sig, handler)
    if stopping_now:                            # its KeyboardInterrupt went to a callback
        raise KeyboardInterrupt
    if held:
        previous[held[0]](held[0], None)       # if it raises, the run ends here
        _handed_on[0] = previous[held[0]]      # it did not (it set a search's stop flag)
