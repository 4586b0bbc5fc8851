"""The paper's section 6.3 models (4-edge consistency, complete AllDifferent, edge filtering),
pure Python: node counts on small boards."""
