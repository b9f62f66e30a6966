"""Neural-network ops: activations, softmax, dropout, embedding (and its gradient)."""

from __future__ import annotations

import math

import numpy as np

from ..autograd import sum_to
from ..dispatch import ops
from ..dtype import from_numpy
from ..optable import Meta, OpDef, normalize_axes, register, same_meta


def _relu_grad(ctx, g):
    """Gradient passes where the output is positive (one fused row)."""
    return ops.relu_grad(ctx["out"], g)


register(OpDef("relu", ("x",), same_meta, "max(x, 0)", grad=_relu_grad, saves=("out",)))


def _relu_grad_meta(out, out_grad):
    if tuple(out_grad.shape) != tuple(out.shape):
        raise ValueError(f"relu_grad: out_grad has shape {list(out_grad.shape)} but out has "
                         f"{list(out.shape)}")
    if out_grad.dtype.kind != "f":
        raise TypeError(f"relu_grad: out_grad must be a floating-point tensor, got "
                        f"{from_numpy(out_grad.dtype).name}")
    return Meta(tuple(out_grad.shape), out_grad.dtype)


def _relu_grad_grad(ctx, gg):
    """Linear in out_grad with the same mask; piecewise constant in out (no gradient)."""
    return None, ops.relu_grad(ctx["out"], gg)


register(OpDef("relu_grad", ("out", "out_grad"), _relu_grad_meta,
               "relu's input gradient from its output: out_grad where out > 0, else 0",
               grad=_relu_grad_grad, saves=("out",), outputs=("x_grad",)))


def _softmax_meta_for(op):
    def meta(x, axis=-1):
        if x.dtype.kind != "f":
            raise TypeError(f"{op}: x must be a floating-point tensor (float16, float32 or "
                            f"float64), got {from_numpy(x.dtype).name}; pass dtype='float32' "
                            f"to cast it first")
        normalize_axes(axis, len(x.shape), op)
        return Meta(x.shape, x.dtype)
    return meta


def _softmax_grad(ctx, g):
    """With y = softmax(x): dx = y * (g - sum(g * y, axis))."""
    out, axis = ctx["out"], ctx.attrs["axis"]
    dot = ops.sum(ops.multiply(g, out), axis=axis, keepdim=True)
    return ops.multiply(out, ops.subtract(g, dot))


register(OpDef("softmax", ("x",), _softmax_meta_for("softmax"),
               "exp(x) / sum(exp(x)) along axis (computed stably, as exp(x - max(x)))",
               attrs={"axis": -1}, grad=_softmax_grad, saves=("out",)))


def _log_softmax_grad(ctx, g):
    """With y = log_softmax(x): dx = g - exp(y) * sum(g, axis)."""
    out, axis = ctx["out"], ctx.attrs["axis"]
    return ops.subtract(g, ops.multiply(ops.exp(out), ops.sum(g, axis=axis, keepdim=True)))


register(OpDef("log_softmax", ("x",), _softmax_meta_for("log_softmax"),
               "x - log(sum(exp(x))) along axis (computed stably)",
               attrs={"axis": -1}, grad=_log_softmax_grad, saves=("out",)))


# ---------------------------------------------------------------------------
# activations: floating-point inputs only (Paddle has no integer kernels for them)
# ---------------------------------------------------------------------------

def check_float(op, x, arg="x"):
    """TypeError naming the op, the argument and its dtype unless it is floating-point."""
    if x.dtype.kind != "f":
        raise TypeError(f"{op}: {arg} must be a floating-point tensor (float16, float32 or "
                        f"float64), got {from_numpy(x.dtype).name}; cast it first, e.g. "
                        f"{arg}.astype('float32')")


def _float_meta_for(op, check=None, defaults=None):
    """infer_meta of an activation: a float x gives an output like it; ``check(**attrs)``
    validates the attributes (``defaults`` filled in)."""
    def meta(x, **attrs):
        check_float(op, x)
        if check is not None:
            check(**{**defaults, **attrs})
        return Meta(x.shape, x.dtype)
    return meta


def _c(x, value):
    """A constant tensor like x."""
    return ops.full_like(x, fill_value=value)


def _step(cond, like):
    """The boolean tensor ``cond`` as 1.0 / 0.0 in like's dtype (a piecewise derivative)."""
    return ops.cast(cond, dtype=like._data.dtype)


def _inside(x, low, high):
    """1.0 where low < x < high, else 0.0."""
    return _step(ops.logical_and(ops.greater_than(x, _c(x, low)), ops.less_than(x, _c(x, high))), x)


def _activation(name, doc, grad, saves=("x",), attrs=None, check=None):
    """Register an elementwise activation of a float x (attributes validated by ``check``)."""
    attrs = attrs or {}
    register(OpDef(name, ("x",), _float_meta_for(name, check, attrs), doc, attrs=attrs,
                   grad=grad, saves=saves))


def _relu6_grad(ctx, g):
    """g where 0 < x < 6."""
    return ops.multiply(g, _inside(ctx["x"], 0.0, 6.0))


_activation("relu6", "min(max(x, 0), 6)", _relu6_grad)


def _leaky_relu_grad(ctx, g):
    """g where x > 0, negative_slope * g elsewhere."""
    s = ctx.attrs["negative_slope"]
    x = ctx["x"]
    return ops.multiply(g, ops.scale(_step(ops.greater_than(x, _c(x, 0.0)), x),
                                     scale=1.0 - s, bias=s))


_activation("leaky_relu", "x where x > 0, negative_slope * x elsewhere", _leaky_relu_grad,
            attrs={"negative_slope": 0.01})


def _elu_grad(ctx, g):
    """g where x > 0, g * alpha * exp(x) elsewhere."""
    x, alpha = ctx["x"], ctx.attrs["alpha"]
    return ops.where(ops.greater_than(x, _c(x, 0.0)), g,
                     ops.multiply(g, ops.scale(ops.exp(x), scale=alpha)))


_activation("elu", "x where x > 0, alpha * (exp(x) - 1) elsewhere", _elu_grad,
            attrs={"alpha": 1.0})


def _check_selu(scale, alpha):
    if scale <= 1.0:
        raise ValueError(f"selu: scale must be greater than 1.0, got {scale}")
    if alpha < 0:
        raise ValueError(f"selu: alpha must be no less than zero, got {alpha}")


def _selu_grad(ctx, g):
    """scale * g where x > 0, scale * alpha * exp(x) * g elsewhere."""
    x, a = ctx["x"], ctx.attrs
    return ops.scale(ops.where(ops.greater_than(x, _c(x, 0.0)), g,
                               ops.multiply(g, ops.scale(ops.exp(x), scale=a["alpha"]))),
                     scale=a["scale"])


_activation("selu", "scale * (x where x > 0, alpha * (exp(x) - 1) elsewhere)", _selu_grad,
            attrs={"scale": 1.0507009873554804934193349852946,
                   "alpha": 1.6732632423543772848170429916717}, check=_check_selu)


def _check_celu(alpha):
    if alpha == 0:
        raise ZeroDivisionError("celu: alpha cannot be 0")


def _celu_grad(ctx, g):
    """g where x > 0, g * exp(x / alpha) elsewhere."""
    x, alpha = ctx["x"], ctx.attrs["alpha"]
    return ops.where(ops.greater_than(x, _c(x, 0.0)), g,
                     ops.multiply(g, ops.exp(ops.scale(x, scale=1.0 / alpha))))


_activation("celu", "max(0, x) + min(0, alpha * (exp(x / alpha) - 1))", _celu_grad,
            attrs={"alpha": 1.0}, check=_check_celu)

_GELU_C = math.sqrt(2.0 / math.pi)


def _gelu_grad(ctx, g):
    """exact: Phi(x) + x * phi(x); tanh form: with t = tanh(c (x + 0.044715 x^3)),
    (1 + t) / 2 + x (1 - t^2) c (1 + 3 * 0.044715 x^2) / 2."""
    x = ctx["x"]
    if ctx.attrs["approximate"]:
        x2 = ops.multiply(x, x)
        t = ops.tanh(ops.scale(ops.multiply(x, ops.scale(x2, scale=0.044715, bias=1.0)),
                               scale=_GELU_C))
        dt = ops.scale(ops.multiply(t, t), scale=-1.0, bias=1.0)
        du = ops.scale(x2, scale=3 * 0.044715 * _GELU_C, bias=_GELU_C)
        d = ops.add(ops.scale(t, scale=0.5, bias=0.5),
                    ops.scale(ops.multiply(x, ops.multiply(dt, du)), scale=0.5))
    else:
        cdf = ops.scale(ops.erf(ops.scale(x, scale=1 / math.sqrt(2.0))), scale=0.5, bias=0.5)
        pdf = ops.scale(ops.exp(ops.scale(ops.multiply(x, x), scale=-0.5)),
                        scale=1 / math.sqrt(2 * math.pi))
        d = ops.add(cdf, ops.multiply(x, pdf))
    return ops.multiply(g, d)


_activation("gelu", "x * Phi(x) (Phi: the standard normal CDF); with approximate, "
            "x/2 * (1 + tanh(sqrt(2/pi) * (x + 0.044715 x^3)))", _gelu_grad,
            attrs={"approximate": False})


def _silu_grad(ctx, g):
    """s (1 + x (1 - s)) with s = sigmoid(x)."""
    x = ctx["x"]
    s = ops.sigmoid(x)
    return ops.multiply(g, ops.multiply(s, ops.scale(ops.multiply(x, ops.scale(s, scale=-1.0,
                                                                                bias=1.0)),
                                                     bias=1.0)))


_activation("silu", "x * sigmoid(x) (also paddle's swish)", _silu_grad)


def _hardswish_grad(ctx, g):
    """(2x + 3) / 6 where -3 < x < 3, 1 where x >= 3, 0 elsewhere."""
    x = ctx["x"]
    d = ops.add(ops.multiply(_inside(x, -3.0, 3.0), ops.scale(x, scale=1 / 3, bias=0.5)),
                _step(ops.greater_equal(x, _c(x, 3.0)), x))
    return ops.multiply(g, d)


_activation("hardswish", "x * min(max(x + 3, 0), 6) / 6", _hardswish_grad)


def _hardsigmoid_grad(ctx, g):
    """slope * g where 0 < out < 1."""
    return ops.multiply(g, ops.scale(_inside(ctx["out"], 0.0, 1.0), scale=ctx.attrs["slope"]))


_activation("hardsigmoid", "min(max(slope * x + offset, 0), 1)", _hardsigmoid_grad,
            saves=("out",), attrs={"slope": 0.1666667, "offset": 0.5})


def _softplus_grad(ctx, g):
    """g where beta * x > threshold, g * sigmoid(beta * x) elsewhere."""
    x, a = ctx["x"], ctx.attrs
    bx = ops.scale(x, scale=a["beta"])
    return ops.where(ops.greater_than(bx, _c(x, a["threshold"])), g,
                     ops.multiply(g, ops.sigmoid(bx)))


_activation("softplus", "x where beta * x > threshold, log(1 + exp(beta * x)) / beta elsewhere",
            _softplus_grad, attrs={"beta": 1.0, "threshold": 20.0})


def _mish_grad(ctx, g):
    """t + x (1 - t^2) sigmoid(x) with t = tanh(softplus(x))."""
    x = ctx["x"]
    t = ops.tanh(ops.softplus(x))
    dt = ops.scale(ops.multiply(t, t), scale=-1.0, bias=1.0)
    return ops.multiply(g, ops.add(t, ops.multiply(x, ops.multiply(dt, ops.sigmoid(x)))))


_activation("mish", "x * tanh(softplus(x))", _mish_grad)


def _hardtanh_grad(ctx, g):
    """g where min < x < max."""
    return ops.multiply(g, _inside(ctx["x"], ctx.attrs["min"], ctx.attrs["max"]))


_activation("hardtanh", "min(max(x, min), max)", _hardtanh_grad,
            attrs={"min": -1.0, "max": 1.0})


def _softsign_grad(ctx, g):
    """g / (1 + |x|)^2"""
    d = ops.scale(ops.abs(ctx["x"]), bias=1.0)
    return ops.divide(g, ops.multiply(d, d))


_activation("softsign", "x / (1 + |x|)", _softsign_grad)


def _tanh_shrink_grad(ctx, g):
    """g * tanh(x)^2"""
    t = ops.tanh(ctx["x"])
    return ops.multiply(g, ops.multiply(t, t))


_activation("tanh_shrink", "x - tanh(x)", _tanh_shrink_grad)

def _logsigmoid_grad(ctx, g):
    """g * sigmoid(-x)"""
    return ops.multiply(g, ops.sigmoid(ops.neg(ctx["x"])))


_activation("logsigmoid", "log(sigmoid(x)) = -softplus(-x), computed stably", _logsigmoid_grad)


def _hardshrink_grad(ctx, g):
    """g where |x| >= threshold."""
    x = ctx["x"]
    return ops.multiply(g, _step(ops.greater_equal(ops.abs(x), _c(x, ctx.attrs["threshold"])), x))


def _softshrink_grad(ctx, g):
    """g where |x| > threshold."""
    x = ctx["x"]
    return ops.multiply(g, _step(ops.greater_than(ops.abs(x), _c(x, ctx.attrs["threshold"])), x))


_activation("hardshrink", "x where |x| >= threshold, else 0", _hardshrink_grad,
            attrs={"threshold": 0.5})


def _check_softshrink(threshold):
    if threshold < 0:
        raise ValueError(f"softshrink: threshold must be no less than zero, got {threshold}")


_activation("softshrink", "x - threshold where x > threshold, x + threshold where "
            "x < -threshold, else 0", _softshrink_grad, attrs={"threshold": 0.5},
            check=_check_softshrink)


def _thresholded_relu_grad(ctx, g):
    """g where x > threshold."""
    x = ctx["x"]
    return ops.multiply(g, _step(ops.greater_than(x, _c(x, ctx.attrs["threshold"])), x))


_activation("thresholded_relu", "x where x > threshold, else value", _thresholded_relu_grad,
            attrs={"threshold": 1.0, "value": 0.0})


def _prelu_shape(x_shape, n, data_format):
    """The shape weight (n values) takes to broadcast against x: one value for all, or one
    per channel (axis 1, or the last axis for channel-last formats)."""
    if n == 1:
        return (1,) * len(x_shape)
    shape = [1] * len(x_shape)
    shape[1 if data_format[1] == "C" else -1] = n
    return tuple(shape)


PRELU_FORMATS = ("NC", "NCL", "NCHW", "NCDHW", "NLC", "NHWC", "NDHWC")


def _prelu_meta(x, weight, data_format="NCHW"):
    check_float("prelu", x)
    if weight.dtype != x.dtype:
        raise ValueError(f"prelu: weight must have x's dtype {from_numpy(x.dtype).name}, got "
                         f"{from_numpy(weight.dtype).name}")
    if data_format not in PRELU_FORMATS:
        raise ValueError(f"prelu: data_format must be one of {', '.join(PRELU_FORMATS)}, got "
                         f"{data_format!r}")
    if len(weight.shape) > 1:
        raise ValueError(f"prelu: weight must be 0-D or 1-D, got shape {list(weight.shape)}")
    n = int(np.prod(weight.shape))
    if n != 1:
        if len(x.shape) < 2:
            raise ValueError(f"prelu: x must have at least 2 dimensions when weight has "
                             f"{n} values (one per channel), got shape {list(x.shape)}")
        c = x.shape[1 if data_format[1] == "C" else -1]
        if n != c:
            raise ValueError(f"prelu: weight has {n} values but x (shape {list(x.shape)}, "
                             f"{data_format}) has {c} channels; give one value or one per "
                             f"channel")
    return Meta(x.shape, x.dtype)


def _prelu_grad(ctx, g):
    """dx = g where x > 0, weight * g elsewhere; dweight = sum of g * x where x <= 0 over
    the positions sharing the weight value."""
    x, weight, w_shape = ctx["x"], ctx["weight"], ctx.shape("weight")
    shape = _prelu_shape(ctx.shape("x"), int(np.prod(w_shape)), ctx.attrs["data_format"])
    neg = _step(ops.less_equal(x, _c(x, 0.0)), x)
    dx = dw = None
    if ctx.needs("x"):
        dx = ops.multiply(g, ops.add(ops.scale(neg, scale=-1.0, bias=1.0),
                                     ops.multiply(neg, ops.reshape(weight, shape=shape))))
    if ctx.needs("weight"):
        dw = ops.reshape(sum_to(ops.multiply(g, ops.multiply(x, neg)), shape),
                         shape=tuple(w_shape))
    return dx, dw


register(OpDef("prelu", ("x", "weight"), _prelu_meta,
               "x where x > 0, weight * x elsewhere; weight has one value, or one per channel "
               "(axis 1, or the last axis for channel-last data_format)",
               attrs={"data_format": "NCHW"}, grad=_prelu_grad, saves=("x", "weight")))


# ---------------------------------------------------------------------------
# dropout
# ---------------------------------------------------------------------------

DROPOUT_MODES = ("upscale_in_train", "downscale_in_infer")


def dropout_scale(p, training, mode):
    """The factor dropout multiplies the kept elements by: 1 / (1 - p) when training in
    'upscale_in_train' mode (0 when p is 1: nothing is kept), 1 - p at inference in
    'downscale_in_infer' mode, else 1."""
    if mode == "upscale_in_train":
        return (1.0 / (1.0 - p) if p < 1 else 0.0) if training else 1.0
    return 1.0 if training else 1.0 - p


def _dropout_meta(x, p=0.5, training=True, mode="upscale_in_train", axis=None):
    check_float("dropout", x)
    if not 0 <= p <= 1:
        raise ValueError(f"dropout: p must be between 0 and 1, got {p}")
    if mode not in DROPOUT_MODES:
        raise ValueError(f"dropout: mode must be 'downscale_in_infer' or 'upscale_in_train', "
                         f"got {mode!r}")
    for a in axis or ():
        if not 0 <= a < len(x.shape):
            raise ValueError(f"dropout: axis values must be >= 0 and less than the rank of x "
                             f"({len(x.shape)}), got {a}")
    return Meta(x.shape, x.dtype), Meta(x.shape, np.dtype(np.uint8))


def _dropout_grad(ctx, g, _mask_grad=None):
    """g * mask, times the factor the kept elements were scaled by."""
    a = ctx.attrs
    keep = ops.cast(ctx["mask"], dtype=g._data.dtype)
    return ops.multiply(g, ops.scale(keep, scale=dropout_scale(a["p"], a["training"], a["mode"])))


register(OpDef("dropout", ("x",), _dropout_meta,
               "(x * mask * scale, mask): when training, mask (uint8) keeps each element with "
               "probability 1 - p (one draw shared along the axes not in ``axis``), else it is "
               "all ones; scale is 1 / (1 - p) when training in 'upscale_in_train' mode, "
               "1 - p at inference in 'downscale_in_infer' mode, else 1",
               attrs={"p": 0.5, "training": True, "mode": "upscale_in_train", "axis": None},
               grad=_dropout_grad, saves=("mask",), outputs=("out", "mask"),
               nondiff_outputs=("mask",), random=True))


# ---------------------------------------------------------------------------
# embedding: a row lookup, and its gradient (scatter-add), which is a row too
# ---------------------------------------------------------------------------

def _check_ids(op, x):
    if x.dtype not in (np.dtype(np.int32), np.dtype(np.int64)):
        raise TypeError(f"{op}: x (the ids) must be an int32 or int64 tensor, got "
                        f"{from_numpy(x.dtype).name}")


def _check_padding_idx(op, padding_idx, n):
    if padding_idx is not None and not 0 <= padding_idx < n:
        raise ValueError(f"{op}: padding_idx must be in [0, {n}) (the number of rows), got "
                         f"{padding_idx}")


def _embedding_meta(x, weight, padding_idx=None):
    _check_ids("embedding", x)
    if len(weight.shape) != 2:
        raise ValueError(f"embedding: weight must be 2-D [num_embeddings, embedding_dim], got "
                         f"shape {list(weight.shape)}")
    check_float("embedding", weight, "weight")
    _check_padding_idx("embedding", padding_idx, weight.shape[0])
    return Meta(tuple(x.shape) + (weight.shape[1],), weight.dtype)


def _embedding_grad(ctx, g):
    """The rows of g added into a zero table at the ids (none at padding_idx)."""
    return None, ops.embedding_grad(ctx["x"], g, num_embeddings=ctx.shape("weight")[0],
                                    padding_idx=ctx.attrs["padding_idx"])


register(OpDef("embedding", ("x", "weight"), _embedding_meta,
               "weight[x]: the row of weight for each id of x (zeros for ids equal to "
               "padding_idx); ids must be in [0, num_embeddings)",
               attrs={"padding_idx": None}, grad=_embedding_grad, saves=("x",)))


def _embedding_grad_meta(x, out_grad, num_embeddings=0, padding_idx=None):
    _check_ids("embedding_grad", x)
    if tuple(out_grad.shape[:-1]) != tuple(x.shape) or len(out_grad.shape) != len(x.shape) + 1:
        raise ValueError(f"embedding_grad: out_grad must have shape {list(x.shape)} + "
                         f"[embedding_dim], got {list(out_grad.shape)}")
    _check_padding_idx("embedding_grad", padding_idx, num_embeddings)
    return Meta((num_embeddings, out_grad.shape[-1]), out_grad.dtype)


def _embedding_grad_grad(ctx, gg):
    """Scatter-add's gradient is the lookup of the same ids."""
    return None, ops.embedding(ctx["x"], gg, padding_idx=ctx.attrs["padding_idx"])


register(OpDef("embedding_grad", ("x", "out_grad"), _embedding_grad_meta,
               "The weight gradient of embedding: a [num_embeddings, dim] table of zeros with "
               "each row of out_grad added at its id of x (nothing at padding_idx)",
               attrs={"num_embeddings": 0, "padding_idx": None}, grad=_embedding_grad_grad,
               saves=("x",)))
