"""Normal (Gaussian) initializer."""

from __future__ import annotations

from ..._core.dispatch import ops
from .initializer import Initializer


class Normal(Initializer):
    """Values drawn from N(mean, std^2)."""

    def __init__(self, mean=0.0, std=1.0, name=None):
        self._mean, self._std = float(mean), float(std)

    def _draw(self, shape, dtype):
        return ops.gaussian(shape=shape, mean=self._mean, std=self._std, seed=0, dtype=dtype)
