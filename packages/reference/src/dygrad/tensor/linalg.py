"""Matrix products and linear algebra of the tensor API (paddle.tensor.linalg)."""

from __future__ import annotations

from .._core.dispatch import as_operands, ops

__all__ = ["matmul"]
METHODS = ["matmul"]


def matmul(x, y, transpose_x=False, transpose_y=False, name=None):
    """Matrix product with Paddle's 1-D, batch-broadcasting and transpose rules."""
    x, y = as_operands("matmul", x, y)
    return ops.matmul(x, y, transpose_x=bool(transpose_x), transpose_y=bool(transpose_y))
