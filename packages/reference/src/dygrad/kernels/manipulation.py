"""Shape, layout, joining, splitting, indexing, gathering and scattering kernels."""

import numpy as np

from .._core.ops.manipulation import reshape_target
from ._registry import kernel


@kernel
def cast(x, dtype=None):
    """x converted to dtype"""
    return x.astype(dtype)


@kernel
def reshape(x, shape=None):
    """x with a new shape (0 keeps a dimension, one -1 is inferred)"""
    return np.reshape(x, reshape_target(x.shape, shape))


@kernel
def broadcast_to(x, shape=None):
    """x broadcast to shape (-1 keeps a dimension); a copy, never a read-only view"""
    lead = len(shape) - x.ndim
    target = tuple(x.shape[i - lead] if d == -1 else d for i, d in enumerate(shape))
    return np.broadcast_to(x, target).copy()
