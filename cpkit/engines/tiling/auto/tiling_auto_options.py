"""The automatic tiling configuration's options: the hybrid's, and the orientation."""

from __future__ import annotations

from dataclasses import dataclass

from ...options import option
from ..hybrid.hybrid_options import HybridOptions


@dataclass(frozen=True)
class TilingAutoOptions(HybridOptions):
    orientation: str = option(
        "auto", "auto: search the puzzle turned (or mirrored) as its geometry and estimates of "
                "the candidate searches suggest, whatever way the file draws it (solutions are "
                "printed as the file draws them); file: search it as drawn (default: auto; as "
                "drawn when --heuristic or --fila-at is given, which may name the file's axes, "
                "and for --limit N in one process: the choice prices the whole search, not the "
                "first solutions)", choices=("auto", "file"))
