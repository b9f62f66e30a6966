"""Assign initializer: given values."""

from __future__ import annotations

import numpy as np

from ..._core.creation import to_array
from ..._core.tensor import Tensor
from .initializer import Initializer


class Assign(Initializer):
    """The values of ``value`` (a NumPy array, a list or tuple, or a Tensor), cast to the
    parameter's dtype; it must have as many elements as the parameter (they are laid out
    in the parameter's shape, row-major)."""

    def __init__(self, value, name=None):
        if not isinstance(value, (np.ndarray, list, tuple, Tensor)):
            raise TypeError(f"The type of 'value' in Assign must be numpy.ndarray, list, tuple "
                            f"or Tensor, but received {type(value).__name__}.")
        self._value = value.numpy() if isinstance(value, Tensor) else np.array(value)

    def _draw(self, shape, dtype):
        if self._value.size != int(np.prod(shape)):
            raise ValueError(f"Assign: the value of shape {list(self._value.shape)} has "
                             f"{self._value.size} elements, but the tensor to initialize has "
                             f"shape {list(shape)}")
        return Tensor._wrap(to_array(self._value.reshape(shape), dtype))
