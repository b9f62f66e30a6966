"""Normal (Gaussian) and truncated normal initializers."""

from __future__ import annotations

from ..._core.dispatch import ops
from .initializer import Initializer


class Normal(Initializer):
    """Values drawn from N(mean, std^2)."""

    def __init__(self, mean=0.0, std=1.0, name=None):
        self._mean, self._std = float(mean), float(std)

    def _draw(self, shape, dtype):
        return ops.gaussian(shape=shape, mean=self._mean, std=self._std, seed=0, dtype=dtype)


class TruncatedNormal(Initializer):
    """Values drawn from N(mean, std^2) restricted to [a, b] (``a`` and ``b`` are values,
    not multiples of std, as in Paddle): draws outside are redrawn, rounds of whole-tensor
    draws until none is left (a few rounds for the default [-2, 2] with std 1)."""

    _MAX_ROUNDS = 100  # then the rest (an interval of negligible mass) is clipped to [a, b]

    def __init__(self, mean=0.0, std=1.0, a=-2.0, b=2.0, name=None):
        if a > b:
            raise ValueError(f"TruncatedNormal: a ({a}) must not be greater than b ({b})")
        self._mean, self._std, self._a, self._b = float(mean), float(std), float(a), float(b)

    def _draw(self, shape, dtype):
        def gaussian():
            return ops.gaussian(shape=shape, mean=self._mean, std=self._std, seed=0,
                                dtype=dtype)

        low = ops.full(shape=(), fill_value=self._a, dtype=dtype)
        high = ops.full(shape=(), fill_value=self._b, dtype=dtype)
        x = gaussian()
        for _ in range(self._MAX_ROUNDS):
            outside = ops.logical_or(ops.less_than(x, low), ops.greater_than(x, high))
            if not bool(ops.any(outside)):
                break
            x = ops.where(outside, gaussian(), x)
        return ops.clip(x, min=self._a, max=self._b)
