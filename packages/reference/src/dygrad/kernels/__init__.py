"""The reference engine: one short NumPy kernel per op of the table, written to be read.

Kernels take NumPy arrays and the op's attributes (keyword arguments with the table's
defaults) and return NumPy arrays (or a tuple of them). They never touch autograd.
One module per family, mirroring :mod:`dygrad._core.ops`.
"""

from __future__ import annotations

from .._core.engine import Engine
from . import (  # noqa: F401
    conv,
    creation,
    elementwise,
    linalg,
    loss,
    manipulation,
    nn,
    norm,
    optimizer,
    reduction,
)
from ._registry import KERNELS


class ReferenceEngine(Engine):
    """Plain NumPy on the CPU."""

    name = "reference"
    kernels = KERNELS

    def kernel_source(self, op_name: str) -> str:
        return "reference"
