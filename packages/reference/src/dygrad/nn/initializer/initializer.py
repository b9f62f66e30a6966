"""The initializer base class, fan computation and recommended gains (as Paddle's).

An initializer fills a tensor with values drawn from the current engine's generator (so
``dygrad.seed(n)`` makes model initialization reproducible). It runs the table's random
and creation ops under ``no_grad``: no gradient is ever recorded.
"""

from __future__ import annotations

import math

import numpy as np

from ..._core.autograd import no_grad
from ..._core.tensor import Tensor


class Initializer:
    """Base class: ``init(param)`` fills ``param`` in place; subclasses say how in
    :meth:`_generate`."""

    def __call__(self, param, block=None):
        """Fill ``param`` (a Tensor or Parameter) in place with fresh values; ``block`` is
        Paddle's static-graph argument and is ignored. Returns None, as Paddle's eager mode."""
        if not isinstance(param, Tensor):
            raise TypeError(f"{type(self).__name__}: expected a Tensor to initialize, got "
                            f"{type(param).__name__}")
        param._data[...] = self._generate(tuple(param._data.shape), param._data.dtype)
        param._bump()

    def _generate(self, shape: tuple, dtype: np.dtype):
        """A new engine array of ``shape`` and ``dtype`` holding the initial values."""
        with no_grad():
            return self._draw(tuple(int(d) for d in shape), np.dtype(dtype))._data

    def _draw(self, shape: tuple, dtype: np.dtype) -> Tensor:
        raise NotImplementedError(f"{type(self).__name__} does not say how to draw values")

    @staticmethod
    def _compute_fans(shape) -> tuple:
        """(fan_in, fan_out) as Paddle computes them: a Linear weight [in, out] gives
        (in, out); a conv weight [out_c, in_c, *kernel] gives (in_c * k, out_c * k) with k
        the kernel's size; 1-D shapes give (n, n) and 0-D (1, 1)."""
        shape = list(shape)
        if len(shape) == 0:
            return 1, 1
        if len(shape) == 1:
            return shape[0], shape[0]
        if len(shape) == 2:
            return shape[0], shape[1]
        receptive_field = int(np.prod(shape[2:]))
        return shape[1] * receptive_field, shape[0] * receptive_field


_GAINS = {"sigmoid": 1.0, "linear": 1.0, "conv1d": 1.0, "conv2d": 1.0, "conv3d": 1.0,
          "conv1d_transpose": 1.0, "conv_transpose1d": 1.0, "conv2d_transpose": 1.0,
          "conv_transpose2d": 1.0, "conv3d_transpose": 1.0, "conv_transpose3d": 1.0,
          "tanh": 5.0 / 3, "relu": math.sqrt(2.0), "selu": 3.0 / 4}


def calculate_gain(nonlinearity: str, param=None) -> float:
    """The recommended gain for a nonlinearity (leaky_relu's ``param`` is its negative
    slope, 0.01 by default)."""
    if nonlinearity == "leaky_relu":
        slope = 0.01 if param is None else float(param)
        return math.sqrt(2.0 / (1 + slope ** 2))
    if nonlinearity not in _GAINS:
        raise ValueError(f"nonlinearity function {nonlinearity} is not supported now.")
    return _GAINS[nonlinearity]


_global = {"weight": None, "bias": None}


def set_global_initializer(weight_init, bias_init=None):
    """Make ``weight_init`` (``bias_init``) the initializer of every parameter (bias)
    created afterwards, in place of the layers' defaults; an initializer given through a
    ParamAttr still wins. ``set_global_initializer(None)`` restores the defaults."""
    for arg, value in (("weight_init", weight_init), ("bias_init", bias_init)):
        if value is not None and not isinstance(value, Initializer):
            raise TypeError(f"The type of '{arg}' in set_global_initializer must be "
                            f"Initializer or None, but received {type(value).__name__}.")
    _global["weight"], _global["bias"] = weight_init, bias_init


def _global_weight_initializer():
    return _global["weight"]


def _global_bias_initializer():
    return _global["bias"]
