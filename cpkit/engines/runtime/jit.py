"""Compiling (or loading from cache) the numba kernels, timed apart from the search.

Each engine registers a warm-up function that calls its kernels once on a tiny input with the
exact argument types of a real run.  The first call in a process compiles or loads the machine
code; its duration is reported as ``jit_seconds`` and never counted as search time.  If it takes
long (a cold cache), the hook ``on_slow_compile`` is told so the CLI can say what is happening.
"""

from __future__ import annotations

import contextlib
import os
import sys
import threading
import time
from typing import Callable, Iterator

from ..._numba_import import after_import, missing
from ...signals import signals_wait_for_the_compiler

#: Called with a message when a warm-up is still running after ``SLOW_AFTER`` seconds.
on_slow_compile: Callable[[str], None] | None = None
SLOW_AFTER = 1.0

_warmed: dict[str, float] = {}

#: Set by the command line: load cached kernels the lean way (``_lean_cache_loads``), without
#: numba's BLAS probe.  Off for the library, whose caller may compile numba functions of their
#: own that need BLAS.
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
            if skip_blas_probe:
                with _without_blas_probe(), _once_numba_is_imported(_lean_cache_loads,
                                                                    _lean_environments):
                    fn()
            else:
                fn()
    finally:
        if timer is not None:
            timer.cancel()
    seconds = time.perf_counter() - start
    _warmed[name] = seconds
    return seconds


def is_warm(name: str) -> bool:
    """Whether ``warm(name, ...)`` has run in this process (its kernels cost nothing more)."""
    return name in _warmed


def warmed_seconds() -> float:
    """Seconds spent so far in this process compiling or loading kernels."""
    return sum(_warmed.values())


@contextlib.contextmanager
def _once_numba_is_imported(*contexts: Callable[[], contextlib.AbstractContextManager]
                            ) -> Iterator[None]:
    """Within the block, ``contexts`` entered as soon as numba is imported (at once if it is):
    a warm-up whose kernels all come from extensions built ahead of time (``cpkit._aot``)
    never imports it, and the lean loads below only patch numba."""
    with contextlib.ExitStack() as stack:
        cancel = after_import(lambda: [stack.enter_context(c()) for c in contexts])
        try:
            yield
        finally:
            cancel()


@contextlib.contextmanager
def _without_blas_probe() -> Iterator[None]:
    """Hide ``scipy.linalg`` from numba while kernels load or compile.

    The first time numba imports its array implementations (``numba.np.arraymath``: when a
    cached kernel that uses one of them loads, or when anything compiles), it imports
    ``scipy.linalg`` only to learn whether ``np.dot`` and friends can call BLAS.  That import is
    0.15-0.3 s, a fifth of a whole ``cpkit tile`` process on a small puzzle, and cpkit's kernels
    call no BLAS.  Hidden, numba records that it has no BLAS (``np.dot`` in a kernel would then
    fail to type, which the kernel tests would show); ``scipy`` stays importable for the rest of
    the process (the optimiser's assignment uses it).
    """
    with missing(["scipy.linalg.cython_blas"]):
        yield


@contextlib.contextmanager
def _lean_cache_loads() -> Iterator[None]:
    """Load cached kernels without first installing every implementation numba has.

    Before each load from its cache numba "refreshes" its target: it imports and registers all
    its typing and lowering implementations (0.2-0.3 s on the first load in a process), which a
    compile needs and a load does not: a cached kernel is machine code linked with what it
    calls.  A load needs only numba's runtime (NRT), which the refresh would also have started.
    A cache miss still compiles as usual: the compiler refreshes the target itself.  If numba's
    cache no longer has the parts this relies on, loads go the usual way.
    """
    from numba.core import caching
    from numba.core.runtime import rtsys

    usual = caching.Cache.load_overload
    if not all(hasattr(caching.Cache, part)
               for part in ("_load_overload", "_guard_against_spurious_io_errors")):
        yield
        return

    def load_overload(self, sig, target_context):  # type: ignore[no-untyped-def]
        rtsys.initialize(target_context)
        with self._guard_against_spurious_io_errors():
            return self._load_overload(sig, target_context)

    caching.Cache.load_overload = load_overload
    try:
        yield
    finally:
        caching.Cache.load_overload = usual


@contextlib.contextmanager
def _lean_environments() -> Iterator[None]:
    """Load cached kernels without importing the modules their environments name.

    A cached kernel that allocates arrays carries the environments of numba's implementations
    it calls, each naming the module that implements them (``numba.np.arrayobj``,
    ``numba.np.arraymath``), and numba rebuilds each by importing that module for its
    globals: 40-45 ms of every process that loads the filters' or DLX's kernels, nearly half
    of their loading.  Only object-mode code reads an environment's globals
    (``numba.core.pylowering``), and cpkit has none (no ``objmode``, no object mode), so an
    environment whose module is not imported yet, and which holds no constants, is rebuilt
    with its module's name alone.  Environments with constants are rebuilt as usual.
    """
    from numba.core import environment

    usual = getattr(environment, "_rebuild_env", None)
    if usual is None or not hasattr(environment, "lookup_environment"):
        yield
        return

    def rebuild(modname, consts, env_name):  # type: ignore[no-untyped-def]
        env = environment.lookup_environment(env_name)
        if env is not None:
            return env
        if modname in sys.modules or len(consts):
            return usual(modname, consts, env_name)
        env = environment.Environment({"__name__": modname})
        env.env_name = env_name
        environment.Environment._memo[env_name] = env
        return env

    environment._rebuild_env = rebuild
    try:
        yield
    finally:
        environment._rebuild_env = usual
