"""Uniform initializer."""

from __future__ import annotations

from ..._core.dispatch import ops
from .initializer import Initializer


class Uniform(Initializer):
    """Values drawn uniformly from [low, high)."""

    def __init__(self, low=-1.0, high=1.0, name=None):
        if low > high:
            raise ValueError(f"Uniform: low ({low}) must not be greater than high ({high})")
        self._low, self._high = float(low), float(high)

    def _draw(self, shape, dtype):
        return ops.uniform(shape=shape, dtype=dtype, min=self._low, max=self._high, seed=0)
