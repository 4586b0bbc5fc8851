"""numba imported without two probes cpkit does not need: installed by ``cpkit/__init__``, in
effect when numba is first imported (by whichever module needs it first; ``cpkit --version``
and the other commands that run no kernel never import it).

While its ``__init__`` runs, numba imports ``scipy`` only to check that it is at least 1.0
(cpkit's own requirement is newer) and ``yaml`` only to read a ``.numba_config.yaml`` in the
current folder, if there is one.  Without them a whole ``cpkit tile`` of the 10 x 6
pentominoes takes 13 ms less (median of 30 runs each, 0.502 s against 0.515 s), where
polycube's whole process takes about 1 s.  So during numba's own
import they read as missing (``yaml`` only when no such config file is there: numba then reads
it as usual), and afterwards they import as usual: cpkit's optimiser imports scipy when it
needs it, Dask imports yaml.  Nothing else changes: numba looks for SciPy's BLAS again when a
kernel needs it (``runtime.jit`` hides that probe too, while kernels load).

This module must not import numba.
"""

from __future__ import annotations

import contextlib
import importlib.abc
import importlib.machinery
import os
import sys
from types import ModuleType
from typing import Callable, Iterator

#: numba's configuration file, read from the current folder (numba.core.config).
NUMBA_CONFIG_FILE = ".numba_config.yaml"


def hidden_while_importing() -> list[str]:
    """The modules numba's import need not see (``missing`` leaves alone those imported
    already)."""
    return ["scipy"] + ([] if os.path.isfile(NUMBA_CONFIG_FILE) else ["yaml"])


@contextlib.contextmanager
def missing(names: list[str]) -> Iterator[None]:
    """Within the block, ``names`` (modules not imported yet) import as missing; afterwards
    they import as usual."""
    hidden = [name for name in names if name not in sys.modules]
    for name in hidden:
        sys.modules[name] = None  # type: ignore[assignment]
    try:
        yield
    finally:
        for name in hidden:
            if name in sys.modules and sys.modules[name] is None:
                del sys.modules[name]


class _HidingLoader(importlib.abc.Loader):
    """numba's own loader, run with ``hidden_while_importing`` read as missing."""

    def __init__(self, loader: importlib.abc.Loader):
        self.loader = loader

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType | None:
        return self.loader.create_module(spec)

    def exec_module(self, module: ModuleType) -> None:
        with missing(hidden_while_importing()):
            self.loader.exec_module(module)
        callbacks = list(_after)
        _after.clear()
        for callback in callbacks:
            callback()


class _NumbaFinder(importlib.abc.MetaPathFinder):
    """Finds numba as the other finders do, once, and gives it ``_HidingLoader``."""

    def find_spec(self, name: str, path=None, target=None):  # type: ignore[no-untyped-def]
        if name != "numba":
            return None
        uninstall()
        spec = importlib.machinery.PathFinder.find_spec(name, path)
        if spec is not None and spec.loader is not None:
            spec.loader = _HidingLoader(spec.loader)
        return spec


_FINDER = _NumbaFinder()
#: Called once numba's import is done (``after_import``).
_after: list[Callable[[], None]] = []


def after_import(callback: Callable[[], None]) -> Callable[[], None]:
    """Have ``callback`` called once numba is imported (now if it is); returns a function
    that cancels it if it has not run."""
    if "numba" in sys.modules:
        callback()
        return lambda: None
    install()
    _after.append(callback)
    return lambda: _after.remove(callback) if callback in _after else None


def install() -> None:
    """Have numba's first import skip the probes (nothing to do once numba is imported)."""
    if "numba" not in sys.modules and _FINDER not in sys.meta_path:
        sys.meta_path.insert(0, _FINDER)


def uninstall() -> None:
    if _FINDER in sys.meta_path:
        sys.meta_path.remove(_FINDER)
