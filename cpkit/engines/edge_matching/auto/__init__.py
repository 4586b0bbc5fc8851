"""``--engine auto`` for edge matching: a race of ``cp``, ``edges`` and ``backtrack`` on the
board, then the one estimated to finish first."""
