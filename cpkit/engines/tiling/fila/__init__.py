"""FILA: image lists over a bit-mask board (the FILA paper), its kernel and its estimates of a
search's figures by stratified sampling (``fila_probe``)."""
