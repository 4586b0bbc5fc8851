"""Exceptions raised by cpkit.

The CLI turns every ``CpkitError`` into one line on standard error and exit status 2; the API
lets them propagate.  ``InputError`` carries the file and line where the input went wrong so the
message reads like a compiler diagnostic (``file:line: what is wrong``).
"""

from __future__ import annotations


class CpkitError(Exception):
    """Base class of every error cpkit reports to its users."""


class InputError(CpkitError, ValueError):
    """Malformed or inconsistent input: a file, a model built through the API, or an option."""

    def __init__(self, message: str, path: str | None = None, line: int | None = None):
        self.message = message
        self.path = path
        self.line = line
        super().__init__(str(self))

    def __str__(self) -> str:
        if self.path is not None and self.line is not None:
            return f"{self.path}:{self.line}: {self.message}"
        if self.path is not None:
            return f"{self.path}: {self.message}"
        return self.message

    def located(self, path: str | None, line: int | None = None) -> "InputError":
        """The same error, attributed to ``path:line`` unless it already names a place."""
        if self.path is not None:
            return self
        return InputError(self.message, path, self.line if line is None else line)


class InfeasibleError(CpkitError):
    """The model is proven to have no solution before any search (e.g. by a parity argument)."""


class EngineUnavailable(CpkitError):
    """The requested engine or option does not apply to this model, or is not implemented."""


def whole(value, what: str) -> int:
    """``value`` as an int if it is a whole number (a bool is not), else ``InputError`` naming
    ``what``: ``int(2.7)`` would quietly take a 2.7 for a 2, ``int("a")`` fail with Python's own
    message."""
    import numbers

    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise InputError(f"{what} must be a whole number, got {value!r}")
    return int(value)
