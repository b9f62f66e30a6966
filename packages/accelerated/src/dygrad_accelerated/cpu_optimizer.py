"""CPU kernels of the optimizer family: NumPy-level glue around ``_optimizer.pyx``.

The optimizers' update rules (sgd_, momentum_, adam_, ...), one fused pass per parameter.
"""

KERNELS: dict = {}
