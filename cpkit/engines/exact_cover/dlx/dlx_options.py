"""The DLX engine's options, for tilings and for exact covers."""

from __future__ import annotations

from dataclasses import dataclass

from ...options import option
from ...tiling import tiling_options as shared


@dataclass(frozen=True)
class DlxTilingOptions:
    heuristic: str | None = shared.heuristic("s")
    volume_trigger: int | None = shared.volume_trigger()
    parity_trigger: int | None = shared.parity_trigger()


@dataclass(frozen=True)
class DlxCoverOptions:
    heuristic: str = option("s", "dlx engine: s: item with fewest options (Knuth's MRV); f: "
                                 "first item in order (default: s)", choices=("s", "f"))
