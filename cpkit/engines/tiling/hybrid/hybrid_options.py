"""The hybrid engine's options (the automatic configuration's too: ``tiling.auto``)."""

from __future__ import annotations

from dataclasses import dataclass

from .. import tiling_options as shared


@dataclass(frozen=True)
class HybridOptions:
    heuristic: str | None = shared.heuristic(None)
    fila_at: int | None = shared.fila_at()
    nof: bool | None = shared.nof()
    volume_trigger: int | None = shared.volume_trigger()
    parity_trigger: int | None = shared.parity_trigger()
