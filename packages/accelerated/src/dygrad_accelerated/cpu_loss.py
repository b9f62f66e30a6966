"""CPU kernels of the loss family: NumPy-level glue around ``_loss.pyx``.

Losses: softmax with cross-entropy and its gradient.
"""

KERNELS: dict = {}
