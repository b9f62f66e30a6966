"""Neural-network kernels: activations, softmax, losses."""

import numpy as np

from ._registry import kernel


@kernel
def relu(x):
    """max(x, 0)"""
    return np.maximum(x, 0).astype(x.dtype, copy=False)


def _shifted(x, axis):
    """x - max(x) along axis (a 0-D x is one element), the stable start of (log-)softmax."""
    a = x.reshape(x.shape or (1,))
    return a - np.max(a, axis=axis, keepdims=True, initial=-np.inf)


@kernel
def softmax(x, axis=-1):
    """exp(x) / sum(exp(x)) along axis"""
    e = np.exp(_shifted(x, axis))
    return (e / np.sum(e, axis=axis, keepdims=True)).reshape(x.shape)


@kernel
def log_softmax(x, axis=-1):
    """x - log(sum(exp(x))) along axis"""
    s = _shifted(x, axis)
    with np.errstate(divide="ignore"):  # log(0) only along an empty axis (no output)
        return (s - np.log(np.sum(np.exp(s), axis=axis, keepdims=True))).reshape(x.shape)
