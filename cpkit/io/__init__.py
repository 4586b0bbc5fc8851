"""Reading and writing files: every puzzle, board and solution format cpkit takes or prints.

``text`` is the one reader every input goes through (size limits, devices refused, UTF-8 errors
at their line); ``polycube`` (tiling definitions), ``dlx_format`` (Knuth's exact covers),
``edge_matching`` (native, Heule, ``.puz`` and headerless layouts), ``boards`` and
``viewer_link`` (boards as files and as the community viewer's links), ``solutions`` (how
solutions print).  Nothing here searches; every error is an ``InputError`` with ``file:line``.
"""
