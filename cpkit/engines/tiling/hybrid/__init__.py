"""The DLX-to-FILA hybrid: DLX places the first pieces, FILA the last ones; its splitter serves
the ``fila``, ``hybrid`` and ``auto`` engines."""
