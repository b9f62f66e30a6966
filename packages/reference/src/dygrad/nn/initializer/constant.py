"""Constant initializer."""

from __future__ import annotations

from ..._core.dispatch import ops
from .initializer import Initializer


class Constant(Initializer):
    """Every element is ``value`` (biases start at Constant(0.0))."""

    def __init__(self, value=0.0):
        self._value = float(value)

    def _draw(self, shape, dtype):
        return ops.full(shape=shape, fill_value=self._value, dtype=dtype)
