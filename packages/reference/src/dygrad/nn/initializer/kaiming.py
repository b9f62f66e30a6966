"""Kaiming (He) initializers: the scale follows fan_in (or fan_out) and the nonlinearity.

KaimingUniform draws from U(-limit, limit) with limit = gain * sqrt(3 / fan); KaimingNormal
from N(0, std^2) with std = gain / sqrt(fan); ``gain = calculate_gain(nonlinearity,
negative_slope)`` and ``fan`` is fan_in (mode='fan_in') or fan_out (mode='fan_out').
"""

from __future__ import annotations

import math

from ..._core.dispatch import ops
from .initializer import Initializer, calculate_gain


class _Kaiming(Initializer):
    def __init__(self, fan_in=None, negative_slope=0.0, nonlinearity="relu", mode="fan_in"):
        if mode not in ("fan_in", "fan_out"):
            raise ValueError(f"The mode of KaimingNormal/KaimingUniform should be 'fan_in' or "
                             f"'fan_out', but got {mode!r}")
        if mode == "fan_out" and fan_in is not None:
            raise ValueError("KaimingNormal/KaimingUniform: mode='fan_out' takes the fan from "
                             "the tensor's shape, but fan_in is set. Please set fan_in to None.")
        self._fan_in, self._mode = fan_in, mode
        self._gain = calculate_gain(nonlinearity, negative_slope)

    def _fan(self, shape) -> float:
        f_in, f_out = self._compute_fans(shape)
        if self._mode == "fan_out":
            return float(f_out)
        return float(f_in if self._fan_in is None else self._fan_in)


class KaimingUniform(_Kaiming):
    """U(-limit, limit), limit = gain * sqrt(3 / fan)."""

    def _draw(self, shape, dtype):
        fan = self._fan(shape)
        limit = self._gain * math.sqrt(3.0 / fan) if fan else 0.0
        return ops.uniform(shape=shape, dtype=dtype, min=-limit, max=limit, seed=0)


class KaimingNormal(_Kaiming):
    """N(0, std^2), std = gain / sqrt(fan)."""

    def _draw(self, shape, dtype):
        fan = self._fan(shape)
        std = self._gain / math.sqrt(fan) if fan else 0.0
        return ops.gaussian(shape=shape, mean=0.0, std=std, seed=0, dtype=dtype)
