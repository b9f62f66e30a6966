"""Xavier (Glorot) initializers: the scale follows fan_in + fan_out.

XavierUniform draws from U(-limit, limit) with limit = gain * sqrt(6 / (fan_in + fan_out));
XavierNormal from N(0, std^2) with std = gain * sqrt(2 / (fan_in + fan_out)). The fans come
from the tensor's shape (see ``Initializer._compute_fans``) unless given.
"""

from __future__ import annotations

import math

from ..._core.dispatch import ops
from .initializer import Initializer


class _Xavier(Initializer):
    def __init__(self, fan_in=None, fan_out=None, gain=1.0, name=None):
        self._fan_in, self._fan_out, self._gain = fan_in, fan_out, float(gain)

    def _fans_sum(self, shape) -> float:
        f_in, f_out = self._compute_fans(shape)
        fan_in = f_in if self._fan_in is None else self._fan_in
        fan_out = f_out if self._fan_out is None else self._fan_out
        return 0.0 if 0 in (fan_in, fan_out) else float(fan_in + fan_out)


class XavierUniform(_Xavier):
    """U(-limit, limit), limit = gain * sqrt(6 / (fan_in + fan_out)) (Linear's default)."""

    def _draw(self, shape, dtype):
        total = self._fans_sum(shape)
        limit = self._gain * math.sqrt(6.0 / total) if total else 0.0
        return ops.uniform(shape=shape, dtype=dtype, min=-limit, max=limit, seed=0)


class XavierNormal(_Xavier):
    """N(0, std^2), std = gain * sqrt(2 / (fan_in + fan_out))."""

    def _draw(self, shape, dtype):
        total = self._fans_sum(shape)
        std = self._gain * math.sqrt(2.0 / total) if total else 0.0
        return ops.gaussian(shape=shape, mean=0.0, std=std, seed=0, dtype=dtype)
