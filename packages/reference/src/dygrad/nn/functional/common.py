"""paddle.nn.functional: linear, bilinear, dropout (and its 2-D, 3-D and alpha forms),
pad and zeropad2d, cosine_similarity, label_smooth."""

from __future__ import annotations

import numbers

from ... import tensor as T
from ..._core import dispatch as _dispatch
from ..._core import program as _program
from ..._core.autograd import grad_mode
from ..._core.dispatch import ops
from ..._core.ops.nn import DROPOUT_MODES, check_float
from ..._core.optable import Meta
from ..._core.tensor import Tensor
from ...tensor.manipulation import pad
from ._check import check_tensor


def linear(x, weight, bias=None, name=None):
    """x @ weight + bias, with weight of shape [in_features, out_features] (Paddle's layout)
    and bias of shape [out_features]; x is [..., in_features]."""
    if not (isinstance(x, Tensor) and isinstance(weight, Tensor)):
        check_tensor(x, "linear")
        check_tensor(weight, "linear", "weight")
    if bias is None:
        return T.matmul(x, weight)
    # one op (fused_linear_activation, one node) in eager mode while gradients are recorded
    # and no debugging mode is on, for float operands of one dtype whose shapes agree;
    # otherwise matmul and add, so the errors, the tape's cut marks (under no_grad), anomaly
    # checks and profiles name those two ops, as before (written out here: a W2 step's cost)
    if isinstance(bias, Tensor) and grad_mode.enabled and not _program.state.static and \
            _dispatch._debug is None:
        xd, wd, bd = x._data, weight._data, bias._data
        dt = xd.dtype
        if dt == wd.dtype == bd.dtype and dt.kind == "f" and wd.ndim == 2 and \
                bd.shape == wd.shape[1:] and xd.shape[-1:] == wd.shape[:1]:
            return ops.fused_linear_activation(x, weight, bias)
    return T.add(T.matmul(x, weight), check_tensor(bias, "linear", "bias"))


def bilinear(x1, x2, weight, bias=None, name=None):
    """out[b, o] = sum_ij x1[b, i] * weight[o, i, j] * x2[b, j] + bias[0, o], with x1
    [batch, in1_features], x2 [batch, in2_features], weight [out_features, in1, in2] and
    bias [1, out_features]."""
    for t, arg in ((x1, "x1"), (x2, "x2"), (weight, "weight")):
        check_tensor(t, "bilinear", arg)
    if x1.ndim != 2 or x2.ndim != 2 or weight.ndim != 3:
        raise ValueError(f"bilinear: x1 and x2 must be 2-D and weight 3-D, got shapes "
                         f"{x1.shape}, {x2.shape} and {weight.shape}")
    if x1.shape[0] != x2.shape[0]:
        raise ValueError(f"bilinear: x1 and x2 must have the same batch size, got shapes "
                         f"{x1.shape} and {x2.shape}")
    if weight.shape[1:] != [x1.shape[1], x2.shape[1]]:
        raise ValueError(f"bilinear: weight must have shape [out_features, {x1.shape[1]}, "
                         f"{x2.shape[1]}] for x1 {x1.shape} and x2 {x2.shape}, got "
                         f"{weight.shape}")
    out = T.einsum("bi,oij,bj->bo", x1, weight, x2)
    if bias is None:
        return out
    check_tensor(bias, "bilinear", "bias")
    if bias.shape != [1, weight.shape[0]]:
        raise ValueError(f"bilinear: bias must have shape [1, {weight.shape[0]}], got "
                         f"{bias.shape}")
    return T.add(out, bias)


# ---------------------------------------------------------------------------
# dropout
# ---------------------------------------------------------------------------

def _probability(p, api):
    if isinstance(p, Tensor):
        p = p.item()
    if not isinstance(p, numbers.Real) or isinstance(p, bool):
        raise TypeError(f"{api}: p must be a number or a Tensor, got {type(p).__name__}")
    if not 0 <= p <= 1:
        raise ValueError(f"{api}: p must be between 0 and 1, got {p}")
    return float(p)


def _dropout_axes(axis, ndim):
    """Paddle's ``axis`` of dropout (None, an int or a list of ints in [0, ndim)) as a
    sorted tuple, or None."""
    if axis is None:
        return None
    axes = [axis] if isinstance(axis, numbers.Integral) else axis
    if not isinstance(axes, (list, tuple)) or not all(
            isinstance(a, numbers.Integral) for a in axes):
        raise TypeError(f"dropout: axis must be an int or a list of ints, got {axis!r}")
    if len(axes) > ndim:
        raise ValueError(f"dropout: axis {list(axes)} has more entries than x has dimensions "
                         f"({ndim})")
    for a in axes:
        if not 0 <= a < ndim:
            raise ValueError(f"dropout: axis values must be >= 0 and less than the rank of x "
                             f"({ndim}), got {a}")
    return tuple(sorted({int(a) for a in axes}))


def dropout(x, p=0.5, axis=None, training=True, mode="upscale_in_train", name=None):
    """Zero each element of x with probability ``p`` when ``training``; with ``axis``, one
    draw is shared by all the elements that differ only along the other axes.

    mode 'upscale_in_train' (default) scales the kept elements by 1 / (1 - p) when
    training and returns x unchanged at inference; 'downscale_in_infer' keeps them as they
    are when training and returns x * (1 - p) at inference. The masks come from the
    engine's generator: ``paddle.seed(n)`` makes them reproducible."""
    check_tensor(x, "dropout")
    p = _probability(p, "dropout")
    if mode not in DROPOUT_MODES:
        raise ValueError(f"dropout: mode must be 'downscale_in_infer' or 'upscale_in_train', "
                         f"got {mode!r}")
    out, _ = ops.dropout(x, p=p, training=bool(training), mode=mode,
                         axis=_dropout_axes(axis, x.ndim))
    return out


def _channel_dropout(x, p, training, data_format, api, formats):
    """Dropout of whole feature maps: one draw per (sample, channel)."""
    check_tensor(x, api)
    ndim = len(formats[0])
    if x.ndim != ndim:
        raise ValueError(f"{api}: x must be {ndim}-D ({' or '.join(formats)}), got shape "
                         f"{x.shape}")
    if data_format not in formats:
        raise ValueError(f"{api}: data_format must be {' or '.join(map(repr, formats))}, got "
                         f"{data_format!r}")
    return dropout(x, p=p, axis=[0, 1 if data_format == formats[0] else ndim - 1],
                   training=training, mode="upscale_in_train")


def dropout2d(x, p=0.5, training=True, data_format="NCHW", name=None):
    """Zero whole channels of a 4-D x with probability ``p`` (upscaling the others by
    1 / (1 - p)) when training; x unchanged otherwise."""
    return _channel_dropout(x, p, training, data_format, "dropout2d", ("NCHW", "NHWC"))


def dropout3d(x, p=0.5, training=True, data_format="NCDHW", name=None):
    """Zero whole channels of a 5-D x with probability ``p`` (upscaling the others by
    1 / (1 - p)) when training; x unchanged otherwise."""
    return _channel_dropout(x, p, training, data_format, "dropout3d", ("NCDHW", "NDHWC"))


_SELU_ALPHA = 1.6732632423543772848170429916717
_SELU_SCALE = 1.0507009873554804934193349852946


def alpha_dropout(x, p=0.5, training=True, name=None):
    """Dropout for SELU networks: when training, dropped elements become
    -selu_scale * selu_alpha and the result is scaled and shifted (a * y + b) so that zero
    mean and unit variance are kept; x unchanged otherwise."""
    check_tensor(x, "alpha_dropout")
    p = _probability(p, "alpha_dropout")
    if not training:
        return x
    if p == 1:
        return ops.scale(x, scale=0.0)
    alpha_p = -_SELU_ALPHA * _SELU_SCALE
    a = ((1 - p) * (1 + p * alpha_p ** 2)) ** -0.5
    b = -a * alpha_p * p
    kept, mask = ops.dropout(x, p=p, training=True, mode="downscale_in_infer")
    dropped = ops.scale(ops.cast(mask, dtype=x._data.dtype), scale=-alpha_p, bias=alpha_p)
    return ops.scale(ops.add(kept, dropped), scale=a, bias=b)


def zeropad2d(x, padding, data_format="NCHW", name=None):
    """Pad the spatial axes of a 4-D x with zeros: padding [left, right, top, bottom]."""
    return pad(x, padding, mode="constant", value=0.0, data_format=data_format)


# ---------------------------------------------------------------------------
# similarity and targets
# ---------------------------------------------------------------------------

def cosine_similarity(x1, x2, axis=1, eps=1e-8):
    """sum(x1 * x2) / sqrt(max(sum(x1^2) * sum(x2^2), eps^2)) along ``axis`` (x1 and x2
    broadcast)."""
    check_tensor(x1, "cosine_similarity", "x1")
    check_tensor(x2, "cosine_similarity", "x2")
    w12 = T.sum(T.multiply(x1, x2), axis=axis)
    w1 = T.sum(T.multiply(x1, x1), axis=axis)
    w2 = T.sum(T.multiply(x2, x2), axis=axis)
    return T.divide(w12, T.sqrt(T.clip(T.multiply(w1, w2), min=eps * eps)))


def label_smooth(label, prior_dist=None, epsilon=0.1, name=None):
    """(1 - epsilon) * label + epsilon * prior_dist, with prior_dist uniform over the last
    axis (1 / num_classes) unless given ([num_classes] or [1, num_classes])."""
    check_tensor(label, "label_smooth", "label")
    if not 0 <= epsilon <= 1:
        raise ValueError(f"label_smooth: epsilon must be between 0 and 1, got {epsilon}")
    check_float("label_smooth", Meta(tuple(label.shape), label._data.dtype), "label")
    smoothed = ops.scale(label, scale=1.0 - epsilon)
    if prior_dist is None:
        return ops.scale(smoothed, bias=epsilon / label.shape[-1])
    check_tensor(prior_dist, "label_smooth", "prior_dist")
    return T.add(smoothed, ops.scale(prior_dist, scale=float(epsilon)))


__all__ = ["linear", "bilinear", "dropout", "dropout2d", "dropout3d", "alpha_dropout", "pad",
           "zeropad2d", "cosine_similarity", "label_smooth"]
