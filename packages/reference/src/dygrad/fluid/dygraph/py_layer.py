"""``fluid.PyLayer`` (Paddle 1.4): a layer whose forward and backward are NumPy code.

Subclass it with two staticmethods: ``forward(inputs)`` gets the inputs as a list of NumPy
arrays and returns an array (or a list of them); ``backward(inputs)`` gets one list holding
the inputs, then the outputs, then the gradients of the outputs (all NumPy arrays), and
returns the gradient of each input. Calling an instance on Variables returns the list of
output Variables, recorded in the graph through :class:`dygrad.autograd.PyLayer`.
"""

from __future__ import annotations

import numpy as np

from ..._core.creation import to_tensor
from ..._core.tensor import Tensor
from ...autograd import PyLayer as _PyLayer

__all__ = ["PyLayer"]


def _as_list(value):
    return list(value) if isinstance(value, (list, tuple)) else [value]


class _NumpyFunction(_PyLayer):
    """Runs a 1.x PyLayer's NumPy forward and backward as a 2.x PyLayer."""

    @staticmethod
    def forward(ctx, layer_cls, *inputs):
        arrays = [x.numpy() for x in inputs]
        outs = [np.asarray(o) for o in _as_list(layer_cls.forward(arrays))]
        ctx.layer_cls, ctx.arrays, ctx.outs = layer_cls, arrays, outs
        return tuple(to_tensor(o) for o in outs)

    @staticmethod
    def backward(ctx, *grads):
        douts = [g.numpy() for g in grads]
        result = _as_list(ctx.layer_cls.backward(ctx.arrays + ctx.outs + douts))
        return tuple(to_tensor(np.asarray(g)) for g in result)


class PyLayer:
    """Base class of 1.x NumPy layers (see the module docstring)."""

    def __init__(self):
        pass

    @staticmethod
    def forward(inputs):
        raise NotImplementedError("PyLayer subclasses define forward(inputs) (NumPy arrays)")

    @staticmethod
    def backward(inputs):
        raise NotImplementedError("PyLayer subclasses define backward(inputs) (inputs, "
                                  "outputs and output gradients as NumPy arrays)")

    def __call__(self, *inputs):
        for i, x in enumerate(inputs):
            if not isinstance(x, Tensor):
                raise TypeError(f"{type(self).__name__}: input {i} must be a Variable, got "
                                f"{type(x).__name__}")
        return _as_list(_NumpyFunction.apply(type(self), *inputs))
