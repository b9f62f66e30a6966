"""dygrad-accelerated: the same engine protocol as dygrad's reference engine, compiled.

Installing this package registers the engine ``accelerated`` (entry point group
``dygrad.engines``), which dygrad then selects by default; ``DYGRAD_ENGINE=reference`` or
``dygrad.set_engine('reference')`` switch back. Every op of dygrad's table has a kernel here:
Cython where it pays, NumPy where NumPy is already at the limit, and otherwise the
reference kernel, said so in ``python -m dygrad_accelerated.coverage``.
"""

import os

__version__ = "0.1.0"

# OpenMP's idle threads sleep instead of spinning after each parallel loop: on a machine with
# few cores a spinning thread holds the core that the batch pool's thread needs (LeNet on two
# threads trained 25-50% slower than on one; ``threads.py``). The OpenMP runtime reads this
# when it loads with the first compiled module below; a value the user set wins.
os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")

from .engine import AcceleratedEngine  # noqa: E402

__all__ = ["AcceleratedEngine", "__version__"]
