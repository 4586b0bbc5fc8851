"""Kernels compiled ahead of time: the machine code of the kernels every default tiling run
calls, built once per version of the sources into extension modules that a run loads without
asking numba to load or compile anything.

Why.  A whole ``cpkit tile`` process on the 10 x 6 pentominoes took about 0.6 s, of which
numba's loading of the seven cached kernels the run calls was about 0.09 s (numba sets up its
target for the first, then 6-8 ms each) and the search 0.09 s.  Taken from extensions built by
numba's ``pycc`` from the very same functions, the loading is about 0.009 s, the search as
fast, the counts and nodes the same (CHANGELOG, 2026-12-05).  And a process whose kernels all
come from extensions never imports numba (0.15-0.2 s of the start): the engines' Python side
reads its constants from layout modules and finds its JIT kernels through ``KERNELS`` only
when a call needs one.

What.  ``KERNELS`` names each kernel by its module and function.  ``build`` runs the engines'
warm-ups (so the argument types are a real run's), then compiles every signature numba made
for each kernel into an extension of its own (one extension for all of them failed to type
DLX's search), and writes ``manifest.json`` beside them: the sources' fingerprint and each
export's argument types (and the processor's key: the extensions are built for it).
``Kernel(name)`` is a callable that runs the extension when the manifest belongs
to these sources and this processor and the arguments are exactly the types it was built
for, and the JIT kernel otherwise.  The check is not optional: an extension reads its
arrays as the types it was built for, whatever they are (an int64 array passed where it was
built for int32 crashed the interpreter), where the JIT kernel would compile another version.

The JIT kernels stay the reference and the fallback: under numba's bounds checking (the kernel
tests), with ``CPKIT_AOT=0``, for a signature not built (occupancies of more than two words),
on sources changed since the build, and wherever ``pycc`` or a C compiler is missing (``build``
then says so and builds nothing).  ``make`` builds the extensions (``python -m
cpkit.engines.tiling.tiling_ahead``); a build for sources already built does nothing.

This module must not import numba at import time, nor may the modules of a default tiling
run (``tests/test_aot.py`` checks that such a run leaves it unimported).
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.machinery
import importlib.util
import json
import os
import sys
import sysconfig
import time
from pathlib import Path
from typing import Any, Callable

import numpy as np

from ._numba_cache import fingerprint

#: The kernels a default tiling run calls from Python: name -> (module, function).
KERNELS: dict[str, tuple[str, str]] = {
    "volume_filter": ("cpkit.propagators.tiling_filter_kernels", "volume_filter_kernel"),
    "dlx_search": ("cpkit.engines.exact_cover.dlx.dlx_kernel", "search"),
    "dlx_descend": ("cpkit.engines.exact_cover.dlx.dlx_kernel", "descend"),
    "dlx_active_options": ("cpkit.engines.exact_cover.dlx.dlx_kernel", "active_options"),
    "fila_search": ("cpkit.engines.tiling.fila.fila_kernel", "search"),
    "fila_lists": ("cpkit.engines.tiling.fila.fila_lists", "build_lists"),
    "fila_sample": ("cpkit.engines.tiling.fila.fila_probe_kernel", "sample"),
    "hybrid_run": ("cpkit.engines.tiling.hybrid.hybrid_kernel", "run"),
    "redundancy_check": ("cpkit.propagators.tiling_filter_kernels", "counted"),
}

MANIFEST = "manifest.json"
PREFIX = "_cpkit_aot_"


def folder() -> Path:
    """Where the extensions of these sources live: beside numba's cache (``cpkit/__init__``
    sets ``NUMBA_CACHE_DIR`` before anything of cpkit runs)."""
    return Path(os.environ["NUMBA_CACHE_DIR"]) / "aot"


def enabled() -> bool:
    """Whether extensions may be used at all: not under numba's bounds checking (the kernel
    tests check the JIT kernels) and not when ``CPKIT_AOT=0``."""
    return os.environ.get("CPKIT_AOT", "1") != "0" and \
        os.environ.get("NUMBA_BOUNDSCHECK", "0") in ("", "0")


#: ``enabled()`` when cpkit was imported (the environment is read once, not at every call).
ENABLED = enabled()
#: Set by ``build`` while the warm-ups run: every call takes the JIT kernel.
_jit_only = False


# ----------------------------------------------------------------------------- argument types
def describe(numba_type: Any) -> Any:
    """An argument type as the manifest keeps it: ``["array", dtype, ndim, writeable]``
    (C-contiguous, aligned), ``["tuple", n]`` (of integers), ``["items", [type, ...]]`` (a
    tuple of these types: the subproblem the hybrid's loop carries between calls), ``"int"``,
    ``"bool"`` or ``"float"``."""
    from numba import types

    if isinstance(numba_type, types.Array):
        if numba_type.layout != "C" or not numba_type.aligned:
            raise ValueError(f"not a C-contiguous aligned array: {numba_type}")
        return ["array", str(np.dtype(numba_type.dtype.name)), numba_type.ndim,
                bool(numba_type.mutable)]
    if isinstance(numba_type, types.UniTuple) and isinstance(numba_type.dtype, types.Integer):
        return ["tuple", numba_type.count]
    if isinstance(numba_type, types.BaseTuple):
        return ["items", [describe(t) for t in numba_type.types]]
    if isinstance(numba_type, types.Boolean):
        return "bool"
    if isinstance(numba_type, types.Integer):
        return "int"
    if isinstance(numba_type, types.Float):
        return "float"
    raise ValueError(f"no ahead-of-time argument for {numba_type}")


def matches(spec: list[Any], args: tuple[Any, ...]) -> bool:
    """Whether ``args`` are exactly the types ``spec`` describes."""
    return _checks(spec)(args)


#: numpy's flags an argument array must have (``ndarray.flags.num``): C-contiguous, aligned;
#: and writeable where the kernel was built for a writeable array.
_C_CONTIGUOUS, _ALIGNED, _WRITEABLE = 0x1, 0x100, 0x400


def _checks(spec: list[Any]) -> Callable[[tuple[Any, ...]], bool]:
    """A check of a call's arguments against ``spec``, made once per export: a few hundred
    nanoseconds an argument (a call of FILA's estimates has 33), where the choice of a tiling
    run calls the kernels about a thousand times."""
    kinds: list[tuple[int, Any, int, int]] = []
    for want in spec:
        if isinstance(want, list) and want[0] == "array":
            flags = _C_CONTIGUOUS | _ALIGNED | (_WRITEABLE if want[3] else 0)
            kinds.append((0, np.dtype(want[1]).num, want[2], flags))
        elif isinstance(want, list) and want[0] == "items":
            kinds.append((5, _checks(want[1]), 0, 0))
        elif isinstance(want, list):
            kinds.append((1, want[1], 0, 0))
        else:
            kinds.append(({"bool": 2, "int": 3, "float": 4}[want], 0, 0, 0))
    n = len(kinds)
    ndarray, integer, floating, np_bool = np.ndarray, np.integer, np.floating, np.bool_
    mask = _C_CONTIGUOUS | _ALIGNED | _WRITEABLE

    def check(args: tuple[Any, ...]) -> bool:
        if len(args) != n:
            return False
        for (kind, a, b, c), arg in zip(kinds, args):
            if kind == 0:
                if type(arg) is not ndarray or arg.dtype.num != a or arg.ndim != b or \
                        (arg.flags.num & mask) != c:
                    return False
            elif kind == 3:
                if type(arg) is bool or not isinstance(arg, (int, integer)):
                    return False
            elif kind == 2:
                if not isinstance(arg, (bool, np_bool)):
                    return False
            elif kind == 1:
                if type(arg) is not tuple or len(arg) != a or \
                        not all(isinstance(x, (int, integer)) for x in arg):
                    return False
            elif kind == 5:
                if type(arg) is not tuple or not a(arg):
                    return False
            elif not isinstance(arg, (float, int, floating, integer)):
                return False
        return True

    return check


# ----------------------------------------------------------------------------- loading
class Kernel:
    """A kernel called from Python: its extension for arguments of a type built ahead, the JIT
    kernel (``jitted``: by default ``KERNELS[name]``, imported only when first called, so that
    a run its extensions serve never imports numba) for any other."""

    def __init__(self, name: str, jitted: Callable[..., Any] | None = None):
        self.name = name
        self._jitted = jitted
        self._built: list[tuple[list[Any], Callable[..., Any]]] | None = None
        self._checked: list[tuple[Callable[[tuple[Any, ...]], bool], Callable[..., Any]]] = []

    @property
    def jitted(self) -> Callable[..., Any]:
        """The JIT kernel (its module imported on first use)."""
        if self._jitted is None:
            module, function = KERNELS[self.name]
            self._jitted = getattr(importlib.import_module(module), function)
        return self._jitted

    def built(self) -> list[tuple[list[Any], Callable[..., Any]]]:
        """The extensions of this kernel: (argument types, function), loaded on first use."""
        if self._built is None:
            self.take(_load(self.name))
        return self._built

    def ahead(self) -> list[list[Any]]:
        """The argument types its extensions take in this process (none where they are not
        used: under bounds checking, ``CPKIT_AOT=0``, or not built for these sources), read
        from the manifest: the extensions load on the first call, which a warm-up makes."""
        if not ENABLED or _jit_only:
            return []
        if self._built is not None:
            return [spec for spec, _ in self._built]
        return [e["args"] for e in _read_manifest().get("kernels", {}).get(self.name, [])]

    def take(self, exports: list[tuple[list[Any], Callable[..., Any]]]) -> None:
        """Use ``exports`` (argument types, function) as this kernel's extensions."""
        self._built = exports
        self._checked = [(_checks(spec), fn) for spec, fn in exports]

    def __call__(self, *args: Any) -> Any:
        if ENABLED and not _jit_only:
            if self._built is None:
                self.built()
            for check, fn in self._checked:
                if check(args):
                    return fn(*args)
        return self.jitted(*args)


_manifest: dict[str, Any] | None = None


def _read_manifest() -> dict[str, Any]:
    """The manifest of ``folder()`` if it belongs to these sources, else an empty one."""
    global _manifest
    if _manifest is None:
        _manifest = {}
        try:
            data = json.loads((folder() / MANIFEST).read_text())
        except (OSError, ValueError):
            data = {}
        if data.get("fingerprint") == fingerprint() and \
                data.get("suffix") == _suffix() and data.get("machine") == machine():
            _manifest = data
    return _manifest


def _load(name: str) -> list[tuple[list[Any], Callable[..., Any]]]:
    out = []
    for export in _read_manifest().get("kernels", {}).get(name, []):
        module_name = PREFIX + export["name"]
        path = folder() / (module_name + _suffix())
        try:
            spec = importlib.util.spec_from_file_location(module_name, path)
            if spec is None or spec.loader is None:
                continue
            module = importlib.util.module_from_spec(spec)
            spec.loader.exec_module(module)
        except (ImportError, OSError):
            continue
        out.append((export["args"], getattr(module, export["name"])))
    return out


def _suffix() -> str:
    return sysconfig.get_config_var("EXT_SUFFIX") or ".so"


def machine() -> str:
    """A key of this machine's processor: the extensions are built for the processor they are
    built on (``target_cpu = "host"``), and a cache folder can be shared between machines (a
    home directory on a cluster), where another processor's could stop on an illegal
    instruction.  The kernel's own description of the processor and its features, where it
    has one (Linux: ``/sys/devices/system/cpu/modalias``, 0.1 ms to read), else LLVM's name
    for it and its features (loading ``llvmlite`` for them took 35 ms, as much as the rest of
    the kernels' loading)."""
    try:
        with open(MODALIAS) as fh:
            key = fh.read()
    except OSError:
        from llvmlite import binding

        key = f"{binding.get_host_cpu_name()}|{binding.get_host_cpu_features().flatten()}"
    return hashlib.sha256(key.encode()).hexdigest()[:16]


#: The processor's type and features, as Linux describes them to module loaders.
MODALIAS = "/sys/devices/system/cpu/modalias"


# ----------------------------------------------------------------------------- building
def build(warm: Callable[[], None], names: list[str] | None = None,
          quiet: bool = False) -> list[str]:
    """Build the extensions of ``names`` (default: every kernel of ``KERNELS``) for these
    sources into ``folder()``, after ``warm()`` has run the engines' warm-ups through their
    JIT kernels (so every signature a run uses is compiled and known); returns the exports
    built (none if already built, or if numba's ``pycc`` or a C compiler is missing: then a
    message says so)."""
    say = (lambda _: None) if quiet else (lambda m: print(f"cpkit: {m}", file=sys.stderr))
    names = list(KERNELS) if names is None else names
    here = folder()
    sources = fingerprint()
    done = _read_manifest()
    if done and all(n in done.get("kernels", {}) for n in names):
        return []
    try:
        from numba.pycc import CC
    except ImportError as e:
        say(f"kernels not built ahead of time (numba.pycc: {e}); the JIT kernels serve")
        return []
    global _jit_only
    _jit_only = True
    try:
        warm()
    finally:
        _jit_only = False
    try:
        here.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        say(f"kernels not built ahead of time ({e}); the JIT kernels serve")
        return []
    kernels: dict[str, list[dict[str, Any]]] = {}
    start = time.perf_counter()
    for name in names:
        module, function = KERNELS[name]
        dispatcher = getattr(importlib.import_module(module), function)
        for i, sig in enumerate(dispatcher.signatures):
            export = f"{name}_{i}"
            cres = dispatcher.overloads[sig]
            cc = CC(PREFIX + export)
            cc.output_dir = str(here)
            cc.target_cpu = "host"
            cc.verbose = False
            try:
                args = [describe(t) for t in sig]
                cc.export(export, cres.signature)(dispatcher.py_func)
                cc.compile()
            except Exception as e:      # no compiler, no Python headers, a typing quirk
                say(f"kernel {export} not built ahead of time ({type(e).__name__}: "
                    f"{str(e).splitlines()[0] if str(e) else ''}); its JIT kernel serves")
                continue
            kernels.setdefault(name, []).append({"name": export, "args": args})
    manifest = {"fingerprint": sources, "suffix": _suffix(), "machine": machine(),
                "kernels": kernels}
    (here / MANIFEST).write_text(json.dumps(manifest, indent=1))
    global _manifest
    _manifest = None
    built = [e["name"] for exports in kernels.values() for e in exports]
    say(f"{len(built)} kernels built ahead of time in {time.perf_counter() - start:.0f} s "
        f"({here})")
    return built
