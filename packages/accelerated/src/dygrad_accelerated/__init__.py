"""dygrad-accelerated: the same engine protocol as dygrad's reference engine, compiled.

Installing this package registers the engine ``accelerated`` (entry point group
``dygrad.engines``), which dygrad then selects by default; ``DYGRAD_ENGINE=reference`` or
``dygrad.set_engine('reference')`` switch back. Every op of dygrad's table has a kernel here:
Cython where it pays, NumPy where NumPy is already at the limit, and otherwise the
reference kernel, said so in ``python -m dygrad_accelerated.coverage``.
"""

__version__ = "0.1.0"

from .engine import AcceleratedEngine  # noqa: E402

__all__ = ["AcceleratedEngine", "__version__"]
