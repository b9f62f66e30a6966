"""CPU kernels of the conv family: NumPy-level glue around ``_conv.pyx``.

Convolutions and pooling.
"""

KERNELS: dict = {}
