"""Reduction, search and sort kernels."""

import numpy as np

from ._registry import kernel


def axes(axis, ndim):
    """Paddle's axis argument (None, int or sequence; [] means all) as a NumPy axis tuple."""
    if axis is None or (isinstance(axis, (list, tuple)) and len(axis) == 0):
        return None
    if isinstance(axis, (int, np.integer)):
        return (int(axis) % max(ndim, 1),) if ndim else None
    return tuple(int(a) % ndim for a in axis) if ndim else None


@kernel
def sum_(x, axis=None, dtype=None, keepdim=False):
    """Sum of x over axis; integer/bool input sums to int64 unless dtype says otherwise."""
    if dtype is None and x.dtype.kind in "biu":
        dtype = np.int64
    return np.sum(x, axis=axes(axis, x.ndim), dtype=dtype, keepdims=keepdim)
