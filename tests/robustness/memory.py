"""A process's peak resident memory, as the robustness tests bound it."""

from __future__ import annotations

import resource


def peak_mb(pid: int | str = "self") -> float:
    """The peak resident memory of process ``pid`` (this one by default) in MB: the kernel's
    high-water mark of its own memory (``VmHWM``).  Not ``ru_maxrss``: Linux carries that over
    ``exec`` from the process that started this one, so a driver started by a pytest process of
    700 MB reported 700 MB (``ru_maxrss`` is the fallback for this process where ``/proc`` is
    missing)."""
    try:
        with open(f"/proc/{pid}/status") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        if pid != "self":
            raise
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
