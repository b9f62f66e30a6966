"""Matrix product and linear-algebra kernels."""

import numpy as np

from ._registry import kernel


@kernel
def matmul(x, y, transpose_x=False, transpose_y=False):
    """op(x) @ op(y) with Paddle's 1-D rules (transposes apply to matrices only)"""
    if transpose_x and x.ndim > 1:
        x = np.swapaxes(x, -1, -2)
    if transpose_y and y.ndim > 1:
        y = np.swapaxes(y, -1, -2)
    return np.matmul(x, y)
