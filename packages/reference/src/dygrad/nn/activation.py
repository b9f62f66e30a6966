"""Activation layers: each calls its paddle.nn.functional counterpart."""

from __future__ import annotations

from . import functional as F
from .layer import Layer


class _Activation(Layer):
    """An activation with no settings but an optional ``name`` (shown in the repr)."""

    _fn = None

    def __init__(self, name=None):
        super().__init__()
        self._name = name

    def forward(self, x):
        return self._fn(x, name=self._name)

    def extra_repr(self):
        return f"name={self._name}" if self._name else ""


class ReLU(_Activation):
    """max(x, 0), elementwise."""

    _fn = staticmethod(F.relu)


class Sigmoid(_Activation):
    """1 / (1 + exp(-x)), elementwise."""

    _fn = staticmethod(F.sigmoid)


class Tanh(_Activation):
    """tanh(x), elementwise."""

    _fn = staticmethod(F.tanh)


class _SoftmaxBase(Layer):
    _fn = None

    def __init__(self, axis=-1, name=None):
        super().__init__()
        self._axis = axis
        self._name = name

    def forward(self, x):
        return self._fn(x, self._axis, name=self._name)

    def extra_repr(self):
        return f"axis={self._axis}" + (f", name={self._name}" if self._name else "")


class Softmax(_SoftmaxBase):
    """softmax(x) along ``axis``."""

    _fn = staticmethod(F.softmax)


class LogSoftmax(_SoftmaxBase):
    """log(softmax(x)) along ``axis``."""

    _fn = staticmethod(F.log_softmax)

__all__ = ["ReLU", "Sigmoid", "Tanh", "Softmax", "LogSoftmax"]
