"""The edge-matching engines (``cp``, ``edges``, ``backtrack``, ``alldiff``, ``auto``,
``python_backtrack``) and what they share: the family's front (``em_front``: roots, counting
modes, the resumable search protocol) and the splitter of the numba engines (``em_split``)."""
