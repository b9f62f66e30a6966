"""Neural-network kernels: activations, softmax, dropout, embedding."""

import math

import numpy as np

from .._core.ops.nn import dropout_scale
from ._registry import kernel
from .elementwise import erf, sigmoid


@kernel
def relu(x):
    """max(x, 0)"""
    return np.maximum(x, 0).astype(x.dtype, copy=False)


@kernel
def relu_grad(out, out_grad):
    """out_grad where out > 0, else 0"""
    return np.where(out > 0, out_grad, 0).astype(out_grad.dtype, copy=False)


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


# ---------------------------------------------------------------------------
# activations (floating-point x only: an integer x is refused, and dispatch then raises
# the row's own error)
# ---------------------------------------------------------------------------

def _float(x):
    """x itself, unless it is not floating-point."""
    if x.dtype.kind != "f":
        raise TypeError(f"expected a floating-point array, got {x.dtype}")
    return x


@kernel
def relu6(x):
    """min(max(x, 0), 6)"""
    return np.clip(_float(x), 0, 6)


@kernel
def leaky_relu(x, negative_slope=0.01):
    """x where x > 0, negative_slope * x elsewhere"""
    return np.where(_float(x) > 0, x, x * negative_slope)


@kernel
def elu(x, alpha=1.0):
    """x where x > 0, alpha * (exp(x) - 1) elsewhere"""
    return np.where(_float(x) > 0, x, alpha * np.expm1(np.minimum(x, 0)))


@kernel
def selu(x, scale=1.0507009873554804934193349852946, alpha=1.6732632423543772848170429916717):
    """scale * (x where x > 0, alpha * (exp(x) - 1) elsewhere)"""
    return scale * np.where(_float(x) > 0, x, alpha * np.expm1(np.minimum(x, 0)))


@kernel
def celu(x, alpha=1.0):
    """max(0, x) + min(0, alpha * (exp(x / alpha) - 1))"""
    neg = alpha * np.expm1(np.minimum(_float(x), 0) / alpha)
    return np.maximum(x, 0) + np.minimum(neg, 0)


@kernel
def gelu(x, approximate=False):
    """x * Phi(x); approximate: x/2 * (1 + tanh(sqrt(2/pi) * (x + 0.044715 x^3)))"""
    if approximate:
        return 0.5 * x * (1 + np.tanh(math.sqrt(2 / math.pi) * (_float(x) + 0.044715 * x ** 3)))
    return 0.5 * x * (1 + erf(_float(x) / math.sqrt(2)))


@kernel
def silu(x):
    """x * sigmoid(x)"""
    return _float(x) * sigmoid(x)


@kernel
def hardswish(x):
    """x * min(max(x + 3, 0), 6) / 6"""
    return _float(x) * np.clip(x + 3, 0, 6) / 6


@kernel
def hardsigmoid(x, slope=0.1666667, offset=0.5):
    """min(max(slope * x + offset, 0), 1)"""
    return np.clip(_float(x) * slope + offset, 0, 1)


@kernel
def softplus(x, beta=1.0, threshold=20.0):
    """x where beta * x > threshold, log(1 + exp(beta * x)) / beta elsewhere"""
    bx = _float(x) * beta
    return np.where(bx > threshold, x, np.logaddexp(0, bx) / beta)


@kernel
def mish(x):
    """x * tanh(softplus(x))"""
    return _float(x) * np.tanh(np.logaddexp(0, x))


@kernel
def hardtanh(x, min=-1.0, max=1.0):
    """min(max(x, min), max)"""
    return np.minimum(np.maximum(_float(x), min), max)


@kernel
def softsign(x):
    """x / (1 + |x|)"""
    return _float(x) / (1 + np.abs(x))


@kernel
def tanh_shrink(x):
    """x - tanh(x)"""
    return _float(x) - np.tanh(x)


@kernel
def logsigmoid(x):
    """log(sigmoid(x)) = -log(1 + exp(-x))"""
    return -np.logaddexp(0, -_float(x))


@kernel
def hardshrink(x, threshold=0.5):
    """x where |x| >= threshold, else 0"""
    return _float(x) * (np.abs(x) >= threshold)


@kernel
def softshrink(x, threshold=0.5):
    """x - threshold above threshold, x + threshold below -threshold, else 0"""
    return np.where(np.abs(_float(x)) > threshold, x - np.sign(x) * threshold, 0).astype(x.dtype)


@kernel
def thresholded_relu(x, threshold=1.0, value=0.0):
    """x where x > threshold, else value"""
    return np.where(_float(x) > threshold, x, value).astype(x.dtype)


@kernel
def prelu(x, weight, data_format="NCHW"):
    """x where x > 0, weight * x elsewhere (weight: one value, or one per channel)"""
    if weight.dtype != _float(x).dtype:
        raise TypeError(f"weight has dtype {weight.dtype}, x has {x.dtype}")
    if weight.size == 1:
        return np.where(x > 0, x, x * weight.reshape(()))
    shape = [1] * x.ndim
    shape[1 if data_format[1] == "C" else -1] = weight.size
    return np.where(x > 0, x, x * weight.reshape(shape))


@kernel
def dropout(x, p=0.5, training=True, mode="upscale_in_train", axis=None, *, rng):
    """(x * mask * scale, mask) with mask keeping each element with probability 1 - p"""
    if training and p > 0:
        shape = x.shape if axis is None else tuple(d if i in axis else 1
                                                   for i, d in enumerate(x.shape))
        mask = np.broadcast_to(rng.random(shape) >= p, x.shape).astype(np.uint8)
    else:
        mask = np.ones(x.shape, np.uint8)
    return (_float(x) * mask * dropout_scale(p, training, mode)).astype(x.dtype), mask


def _ids(x, n):
    """x (int ids), checked to lie in [0, n)."""
    if x.dtype.kind not in "iu":
        raise TypeError(f"ids must be integers, got {x.dtype}")
    if x.size and (x.min() < 0 or x.max() >= n):
        raise ValueError(f"embedding: the ids must be in [0, {n}) (the number of rows of "
                         f"weight), got values in [{x.min()}, {x.max()}]")
    return x


@kernel
def embedding(x, weight, padding_idx=None):
    """weight[x], with zero rows where x == padding_idx"""
    out = _float(weight)[_ids(x, weight.shape[0])]
    if padding_idx is not None:
        out[x == padding_idx] = 0
    return out


@kernel
def embedding_grad(x, out_grad, num_embeddings=0, padding_idx=None):
    """zeros [num_embeddings, dim] with out_grad's rows added at the ids x"""
    out = np.zeros((num_embeddings, out_grad.shape[-1]), out_grad.dtype)
    np.add.at(out, _ids(x, num_embeddings).ravel(), out_grad.reshape(-1, out_grad.shape[-1]))
    if padding_idx is not None:
        out[padding_idx] = 0
    return out
