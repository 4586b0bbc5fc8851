"""Warming the kernels: a signal that comes while numba compiles waits for the compiler."""

from __future__ import annotations

import itertools
import os
import signal

import pytest

from cpkit.engines.runtime import jit
from cpkit import signals
from cpkit.signals import InterruptFlag

_names = itertools.count()


@pytest.fixture(autouse=True)
def fresh_state(monkeypatch):
    monkeypatch.setattr(signals, "_handed_on", [None], raising=False)
    monkeypatch.setattr(jit, "on_slow_compile", None)


def compile_receiving(signals: int, steps: list[str]):
    """A stand-in for a compile that gets ``signals`` Ctrl-Cs on its way; ``steps`` says how far
    it got (a KeyboardInterrupt raised inside it stops it where it is)."""
    def fn() -> None:
        for _ in range(signals):
            os.kill(os.getpid(), signal.SIGINT)
            steps.append("signalled")
        steps.append("compiled")
    return fn


def test_a_ctrl_c_while_compiling_comes_once_the_compiler_is_done():
    steps: list[str] = []
    with pytest.raises(KeyboardInterrupt):
        jit.warm(f"test {next(_names)}", compile_receiving(1, steps))
    assert steps == ["signalled", "compiled"]
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler


def test_the_held_ctrl_c_sets_a_running_search_flag_and_the_next_compile_stops_at_a_second():
    """Under a search's flag the held signal only raises the flag (the search then stops and
    reports); a signal in a later compile of the same run (the hybrid compiles DLX, then FILA)
    is the second Ctrl-C and stops at once."""
    first: list[str] = []
    second: list[str] = []
    with InterruptFlag() as interrupt:
        jit.warm(f"test {next(_names)}", compile_receiving(1, first))
        assert interrupt.raised and first == ["signalled", "compiled"]
        with pytest.raises(KeyboardInterrupt):
            jit.warm(f"test {next(_names)}", compile_receiving(1, second))
    assert second == []


def test_a_second_ctrl_c_stops_the_compile_at_once():
    steps: list[str] = []
    with pytest.raises(KeyboardInterrupt):
        jit.warm(f"test {next(_names)}", compile_receiving(2, steps))
    assert steps == ["signalled"]


def test_a_second_ctrl_c_swallowed_inside_the_compiler_still_stops():
    """LLVM calls back into Python while numba compiles; a KeyboardInterrupt raised in such a
    callback is printed as ignored and lost.  The second Ctrl-C must still end the run."""
    def fn() -> None:
        os.kill(os.getpid(), signal.SIGINT)
        try:
            os.kill(os.getpid(), signal.SIGINT)
        except KeyboardInterrupt:
            pass                                    # what the callback's caller does with it

    with pytest.raises(KeyboardInterrupt):
        jit.warm(f"test {next(_names)}", fn)


def test_a_compile_broken_by_the_second_ctrl_c_is_reported_as_the_interruption():
    def fn() -> None:
        os.kill(os.getpid(), signal.SIGINT)
        try:
            os.kill(os.getpid(), signal.SIGINT)
        except KeyboardInterrupt:
            raise RuntimeError("no compiled object yet") from None   # as numba's cache does

    with pytest.raises(KeyboardInterrupt):
        jit.warm(f"test {next(_names)}", fn)


def test_an_ignored_signal_stays_ignored_while_compiling():
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        steps: list[str] = []
        jit.warm(f"test {next(_names)}", compile_receiving(1, steps))
        assert steps == ["signalled", "compiled"]
        assert signal.getsignal(signal.SIGINT) is signal.SIG_IGN
    finally:
        signal.signal(signal.SIGINT, previous)
