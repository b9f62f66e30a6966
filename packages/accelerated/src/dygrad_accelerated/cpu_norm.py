"""CPU kernels of the norm family: NumPy-level glue around ``_norm.pyx``.

Batch norm and layer norm, forward and backward.
"""

KERNELS: dict = {}
