"""The exact-cover engines.  DLX lives here rather than under ``tiling/``: a tiling is solved as
the exact cover its puzzle compiles to, so one kernel serves both families (the tiling record
adds the tiling front's filters and heuristics)."""
