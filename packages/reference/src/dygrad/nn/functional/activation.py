"""Activation functions (paddle.nn.functional): each is one op of the table, except the
composites rrelu (uniform + where), glu and maxout."""

from __future__ import annotations

import numpy as np

from ... import tensor as T
from ..._core.autograd import no_grad
from ..._core.dispatch import ops
from ..._core.ops.nn import check_float
from ..._core.optable import Meta
from ..._core.tensor import Tensor
from ...tensor.creation import convert_dtype
from ...tensor.manipulation import _checked
from ._check import check_tensor


def relu(x, name=None):
    """max(x, 0), elementwise."""
    return ops.relu(x if isinstance(x, Tensor) else check_tensor(x, "relu"))


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


def relu6(x, name=None):
    """min(max(x, 0), 6), elementwise."""
    return ops.relu6(check_tensor(x, "relu6"))


def leaky_relu(x, negative_slope=0.01, name=None):
    """x where x > 0, ``negative_slope * x`` elsewhere."""
    return ops.leaky_relu(check_tensor(x, "leaky_relu"), negative_slope=float(negative_slope))


def prelu(x, weight, data_format="NCHW", name=None):
    """x where x > 0, ``weight * x`` elsewhere. ``weight`` (x's dtype) is 1-D with one
    value, or one per channel: axis 1, or the last axis when ``data_format`` is
    channel-last ('NLC', 'NHWC', 'NDHWC')."""
    check_tensor(x, "prelu")
    check_tensor(weight, "prelu", "weight")
    return _checked("prelu", x, weight, data_format=data_format)


def elu(x, alpha=1.0, name=None):
    """x where x > 0, ``alpha * (exp(x) - 1)`` elsewhere."""
    return ops.elu(check_tensor(x, "elu"), alpha=float(alpha))


def selu(x, scale=1.0507009873554804934193349852946, alpha=1.6732632423543772848170429916717,
         name=None):
    """``scale * x`` where x > 0, ``scale * alpha * (exp(x) - 1)`` elsewhere; scale must be
    greater than 1 and alpha at least 0."""
    return _checked("selu", check_tensor(x, "selu"), scale=float(scale), alpha=float(alpha))


def celu(x, alpha=1.0, name=None):
    """``max(0, x) + min(0, alpha * (exp(x / alpha) - 1))``; alpha must not be 0."""
    return _checked("celu", check_tensor(x, "celu"), alpha=float(alpha))


def gelu(x, approximate=False, name=None):
    """``x * Phi(x)`` with Phi the standard normal CDF; ``approximate=True`` (or 'tanh')
    uses ``x/2 * (1 + tanh(sqrt(2/pi) * (x + 0.044715 x^3)))``."""
    if isinstance(approximate, str):
        if approximate not in ("tanh", "none"):
            raise ValueError(f"gelu: approximate must be True, False, 'tanh' or 'none', got "
                             f"{approximate!r}")
        approximate = approximate == "tanh"
    return ops.gelu(check_tensor(x, "gelu"), approximate=bool(approximate))


def silu(x, name=None):
    """``x * sigmoid(x)``, elementwise."""
    return ops.silu(check_tensor(x, "silu"))


def swish(x, name=None):
    """``x * sigmoid(x)``: Paddle's swish is silu (its beta is fixed at 1)."""
    return ops.silu(check_tensor(x, "swish"))


def hardswish(x, name=None):
    """``x * min(max(x + 3, 0), 6) / 6``, elementwise."""
    return ops.hardswish(check_tensor(x, "hardswish"))


def hardsigmoid(x, slope=0.1666667, offset=0.5, name=None):
    """``min(max(slope * x + offset, 0), 1)``, elementwise."""
    return ops.hardsigmoid(check_tensor(x, "hardsigmoid"), slope=float(slope),
                           offset=float(offset))


def mish(x, name=None):
    """``x * tanh(softplus(x))``, elementwise."""
    return ops.mish(check_tensor(x, "mish"))


def softplus(x, beta=1, threshold=20, name=None):
    """``log(1 + exp(beta * x)) / beta``, and x itself where ``beta * x > threshold``."""
    return ops.softplus(check_tensor(x, "softplus"), beta=float(beta), threshold=float(threshold))


def hardtanh(x, min=-1.0, max=1.0, name=None):
    """x clipped to [min, max]."""
    return ops.hardtanh(check_tensor(x, "hardtanh"), min=float(min), max=float(max))


def softsign(x, name=None):
    """``x / (1 + |x|)``, elementwise."""
    return ops.softsign(check_tensor(x, "softsign"))


def tanhshrink(x, name=None):
    """``x - tanh(x)``, elementwise."""
    return ops.tanh_shrink(check_tensor(x, "tanhshrink"))


def log_sigmoid(x, name=None):
    """``log(sigmoid(x)) = -log(1 + exp(-x))``, computed stably."""
    return ops.logsigmoid(check_tensor(x, "log_sigmoid"))


def hardshrink(x, threshold=0.5, name=None):
    """x where ``|x| >= threshold``, else 0."""
    return ops.hardshrink(check_tensor(x, "hardshrink"), threshold=float(threshold))


def softshrink(x, threshold=0.5, name=None):
    """``x - threshold`` above threshold, ``x + threshold`` below -threshold, else 0;
    threshold must be at least 0."""
    return _checked("softshrink", check_tensor(x, "softshrink"), threshold=float(threshold))


def thresholded_relu(x, threshold=1.0, value=0.0, name=None):
    """x where ``x > threshold``, else ``value``."""
    return ops.thresholded_relu(check_tensor(x, "thresholded_relu"), threshold=float(threshold),
                                value=float(value))


def rrelu(x, lower=1.0 / 8.0, upper=1.0 / 3.0, training=True, name=None):
    """Randomized leaky ReLU: x where x >= 0, else ``a * x`` with a drawn uniformly from
    [lower, upper] for each element when training (from the engine's generator), and
    ``a = (lower + upper) / 2`` otherwise."""
    check_tensor(x, "rrelu")
    check_float("rrelu", Meta(tuple(x.shape), x._data.dtype))
    if not 0 <= lower <= 1:
        raise ValueError(f"rrelu: lower must be in [0, 1], got {lower}")
    if not 0 <= upper <= 1:
        raise ValueError(f"rrelu: upper must be in [0, 1], got {upper}")
    if upper < lower:
        raise ValueError(f"rrelu: upper must be greater than lower, got lower {lower}, "
                         f"upper {upper}")
    if not training:
        return ops.leaky_relu(x, negative_slope=(lower + upper) / 2)
    slope = ops.uniform(shape=tuple(x.shape), dtype=x._data.dtype, min=float(lower),
                        max=float(upper))
    return ops.where(ops.greater_equal(x, ops.full_like(x)), x, ops.multiply(slope, x))


def glu(x, axis=-1, name=None):
    """The gated linear unit: x split in two halves a, b along ``axis``; a * sigmoid(b)."""
    check_tensor(x, "glu")
    if x.shape[axis] % 2:
        raise ValueError(f"glu: axis {axis} of x (shape {x.shape}) must have an even size")
    a, b = T.chunk(x, 2, axis=axis)
    return ops.multiply(a, ops.sigmoid(b))


def maxout(x, groups, axis=1, name=None):
    """The maximum over each run of ``groups`` consecutive channels of a 4-D x: channel axis
    1 (``axis`` 1) or 3 (``axis`` 3 or -1), whose size must divide by groups."""
    check_tensor(x, "maxout")
    if x.ndim != 4:
        raise ValueError(f"maxout: x must be 4-D, got shape {x.shape}")
    if axis not in (1, -1, 3):
        raise ValueError(f"maxout: axis must be 1, -1 or 3, got {axis}")
    axis %= 4
    if x.shape[axis] % groups:
        raise ValueError(f"maxout: the channels of x ({x.shape[axis]}, axis {axis}) must "
                         f"divide by groups ({groups})")
    shape = x.shape[:axis] + [x.shape[axis] // groups, groups] + x.shape[axis + 1:]
    return T.max(T.reshape(x, shape), axis=axis + 1)



def gumbel_softmax(x, temperature=1.0, hard=False, axis=-1, name=None):
    """softmax((x + g) / temperature) along ``axis``, g Gumbel noise -log(-log(u)) with u
    uniform in (0, 1) from the engine's generator. With ``hard``, the one-hot vectors of
    its argmax, differentiated as the soft sample (the straight-through estimator)."""
    check_tensor(x, "gumbel_softmax")
    check_float("gumbel_softmax", Meta(tuple(x.shape), x._data.dtype))
    if not temperature > 0:
        raise ValueError(f"gumbel_softmax: temperature must be greater than 0, got "
                         f"{temperature}")
    if not -x.ndim <= axis < x.ndim:
        raise ValueError(f"gumbel_softmax: axis must be in [-{x.ndim}, {x.ndim}) for x of "
                         f"shape {x.shape}, got {axis}")
    u = ops.uniform(shape=tuple(x.shape), dtype=x._data.dtype,
                    min=float(np.finfo(x._data.dtype).tiny), max=1.0)
    noise = ops.scale(ops.log(ops.scale(ops.log(u), scale=-1.0)), scale=-1.0)
    soft = ops.softmax(ops.scale(ops.add(x, noise), scale=1.0 / temperature), axis=int(axis))
    if not hard:
        return soft
    axis %= x.ndim
    classes = T.reshape(T.arange(x.shape[axis]), [-1] + [1] * (x.ndim - 1 - axis))
    one_hot = T.cast(T.argmax(soft, axis=axis, keepdim=True) == classes, soft.dtype)
    with no_grad():  # a copy outside the graph (detach() shares the static Variable)
        soft_value = ops.scale(soft, scale=1.0)
    return one_hot + (soft - soft_value)  # forward: exactly one-hot; backward: soft's


__all__ = ["relu", "sigmoid", "tanh", "softmax", "log_softmax", "relu6", "leaky_relu", "prelu",
           "elu", "selu", "celu", "gelu", "silu", "swish", "hardswish", "hardsigmoid", "mish",
           "softplus", "hardtanh", "softsign", "tanhshrink", "log_sigmoid", "hardshrink", "softshrink",
           "thresholded_relu", "rrelu", "glu", "maxout", "gumbel_softmax"]
