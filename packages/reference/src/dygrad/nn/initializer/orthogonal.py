"""Orthogonal initializer."""

from __future__ import annotations

import numpy as np

from ..._core.dispatch import ops
from .initializer import Initializer


class Orthogonal(Initializer):
    """A (semi-)orthogonal matrix times ``gain``: the tensor seen as [shape[0],
    prod(shape[1:])] has orthonormal rows (or columns, whichever are fewer). It is the Q
    of the QR decomposition of a standard normal draw, with Q's columns signed by R's
    diagonal so that the result is uniformly distributed."""

    def __init__(self, gain=1.0, name=None):
        if gain is None:
            raise ValueError("Orthogonal: gain should not be None")
        self._gain = float(gain)

    def _draw(self, shape, dtype):
        if len(shape) < 2:
            raise ValueError(f"Orthogonal: only a tensor with 2 or more dimensions can be "
                             f"initialized, got shape {list(shape)}")
        rows, cols = shape[0], int(np.prod(shape[1:]))
        normal = ops.gaussian(shape=(max(rows, cols), min(rows, cols)), mean=0.0, std=1.0,
                              seed=0, dtype=dtype)
        q, r = ops.qr(normal, mode="reduced")
        q = ops.multiply(q, ops.sign(ops.diag(r)))
        if rows < cols:
            q = ops.transpose(q, perm=(1, 0))
        return ops.scale(ops.reshape(q, shape=shape), scale=self._gain)
