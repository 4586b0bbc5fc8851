"""The FILA engine's options."""

from __future__ import annotations

from dataclasses import dataclass

from .. import tiling_options as shared


@dataclass(frozen=True)
class FilaOptions:
    heuristic: str | None = shared.heuristic("f")
    nof: bool | None = shared.nof()
