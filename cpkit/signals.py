"""Stopping a run: what Ctrl-C (SIGINT) and SIGTERM do, in one place.

A run stops on a signal with what it has found, never with a traceback, and a second Ctrl-C
always breaks out.  Four layers take part, each with its own handler, stacked while the run
goes on (an inner one hands the first signal to the one outside it):

- ``sigterm_as_ctrl_c``: the ``cpkit`` command makes SIGTERM (``kill``, ``timeout``, a batch
  scheduler) stop a run as Ctrl-C does (exit status 130); a library caller's SIGTERM keeps its
  default action.
- ``StopSignals``: the coordinator of a split run, the optimiser and the Monte-Carlo estimate
  record the first signal and stop handing out work; two SIGINTs within half a second are one
  interruption (``timeout -s INT`` signals the process group).
- ``InterruptFlag``: the loop around a resumable kernel (``engines.runtime.driver``) sets a flag
  that ends the search at the next slice, so the solutions found so far are reported.
- ``signals_wait_for_the_compiler``: a signal that comes while numba compiles is held until the
  compiler is done (raised inside LLVM it leaves numba's library half built), then handed on.
"""

from __future__ import annotations

import signal
import sys
import threading
import time
from contextlib import contextmanager
from typing import Any, Callable, Iterator


def sigterm_as_ctrl_c():
    """Make SIGTERM (``kill``, ``timeout``, a batch scheduler) stop a run as Ctrl-C does: the
    search reports what it found, exit status 130.  Returns the handler to restore."""
    if threading.current_thread() is not threading.main_thread():
        return None
    previous = signal.getsignal(signal.SIGTERM)
    if previous is signal.SIG_IGN:
        return None
    signal.signal(signal.SIGTERM, signal.default_int_handler)
    return previous


class StopSignals:
    """While active, SIGINT and SIGTERM set ``raised`` instead of killing the coordinator; a
    second SIGINT raises KeyboardInterrupt as usual, unless it came within ``SAME_SECONDS`` of
    the first: ``timeout -s INT`` signals the process and its group, so the coordinator gets
    two at once, and one run in six lost its report to the second.  The first is also handed
    to a handler of the caller's that was set before (as ``InterruptFlag`` does: a
    benchmark suite ends on it)."""

    #: SIGINTs this close together are one interruption, not a second Ctrl-C.
    SAME_SECONDS = 0.5

    def __init__(self) -> None:
        self.raised: str | None = None
        self._previous: dict[int, Any] = {}
        self._first = 0.0

    def __enter__(self) -> "StopSignals":
        if threading.current_thread() is threading.main_thread():
            for sig in (signal.SIGINT, signal.SIGTERM):
                self._previous[sig] = signal.getsignal(sig)
                signal.signal(sig, self._handle)
        return self

    def _handle(self, signum, frame) -> None:
        now = time.monotonic()
        if self.raised and signum == signal.SIGINT and now - self._first > self.SAME_SECONDS:
            raise KeyboardInterrupt
        if not self.raised:
            self._first = now
            self.raised = signal.Signals(signum).name
            outer = self._previous.get(signum)
            if callable(outer) and outer is not signal.default_int_handler:
                outer(signum, frame)

    def stopped(self) -> bool:
        """Whether a stop signal came (a ``cancel`` for the searches and probes)."""
        return self.raised is not None

    def __exit__(self, *exc) -> None:
        for sig, handler in self._previous.items():
            signal.signal(sig, handler)


class InterruptFlag:
    """While active, SIGINT sets a flag instead of raising KeyboardInterrupt inside the loop, so
    that the solutions found so far are reported; so does SIGTERM where a handler was already
    set for it (the CLI sets one, so that ``kill``, ``timeout`` or a batch scheduler stop a run
    as Ctrl-C does; a library caller's SIGTERM keeps ending the process).

    A second signal raises KeyboardInterrupt, so a user can always break out.  The first is also
    handed to a flag-setting handler that was active before (a split run's coordinator, around
    the frontier search; the tiling front, around its set-up), so that the run too knows it was
    interrupted; and a flag entered after such a handler was raised starts raised, so a search
    whose set-up saw the Ctrl-C stops after its first slice.  An ignored signal stays ignored: a
    split run's worker leaves stopping to its coordinator.
    """

    def __init__(self) -> None:
        self.raised = False
        self._previous: dict[int, object] = {}

    def __enter__(self) -> "InterruptFlag":
        if threading.current_thread() is threading.main_thread():
            for sig in (signal.SIGINT, signal.SIGTERM):
                previous = signal.getsignal(sig)
                if previous is signal.SIG_IGN or (sig == signal.SIGTERM and
                                                  not callable(previous)):
                    continue
                self._previous[sig] = previous
                signal.signal(sig, self._handle)
                if getattr(getattr(previous, "__self__", None), "raised", None):
                    self.raised = True
        return self

    def _handle(self, signum, frame) -> None:
        if self.raised:
            signal.signal(signum, signal.default_int_handler)
            raise KeyboardInterrupt
        self.raised = True
        outer = self._previous.get(signum)
        if callable(outer) and outer is not signal.default_int_handler:
            outer(signum, frame)

    def __exit__(self, *exc) -> None:
        for sig, handler in self._previous.items():
            signal.signal(sig, handler)


#: The handler that was last handed a held signal and let the run go on (a search's stop flag):
#: a signal for it in a later compile (the hybrid compiles DLX, then FILA) is its second one.
_handed_on: list[Callable | None] = [None]


@contextmanager
def signals_wait_for_the_compiler(
        on_message: Callable[[str], None] | None = None) -> Iterator[None]:
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
        if on_message is not None:
            on_message("stopping once the kernels are compiled (Ctrl-C again to stop now)")

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
