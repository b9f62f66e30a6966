"""Activation functions (paddle.nn.functional): each is one op of the table."""

from __future__ import annotations

from ..._core.dispatch import ops
from ...tensor.creation import convert_dtype
from ._check import check_tensor


def relu(x, name=None):
    """max(x, 0), elementwise."""
    return ops.relu(check_tensor(x, "relu"))


def sigmoid(x, name=None):
    """1 / (1 + exp(-x)), elementwise."""
    return ops.sigmoid(check_tensor(x, "sigmoid"))


def tanh(x, name=None):
    """The hyperbolic tangent, elementwise."""
    return ops.tanh(check_tensor(x, "tanh"))


def _cast_first(x, dtype, api):
    check_tensor(x, api)
    if dtype is None:
        return x
    d = convert_dtype(dtype)
    return x if x._data.dtype == d else ops.cast(x, dtype=d)


def softmax(x, axis=-1, dtype=None, name=None):
    """exp(x) / sum(exp(x)) along ``axis``; with ``dtype``, x is cast to it first."""
    return ops.softmax(_cast_first(x, dtype, "softmax"), axis=int(axis))


def log_softmax(x, axis=-1, dtype=None, name=None):
    """log(softmax(x)) along ``axis``, computed stably; with ``dtype``, x is cast first."""
    return ops.log_softmax(_cast_first(x, dtype, "log_softmax"), axis=int(axis))

__all__ = ["relu", "sigmoid", "tanh", "softmax", "log_softmax"]
