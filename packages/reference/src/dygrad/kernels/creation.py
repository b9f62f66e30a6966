"""Creation kernels: constants, ranges and random numbers."""

import numpy as np

from ._registry import kernel


@kernel
def full(shape=None, fill_value=0.0, dtype=None):
    """A new array of shape filled with fill_value"""
    return np.full(tuple(shape), fill_value, dtype=dtype)


@kernel
def full_like(x, fill_value=0.0, dtype=None):
    """A new array like x filled with fill_value"""
    return np.full(x.shape, fill_value, dtype=x.dtype if dtype is None else dtype)
