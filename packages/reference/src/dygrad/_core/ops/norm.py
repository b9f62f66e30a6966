"""Normalization ops: batch_norm and layer_norm, each with a fused gradient row.

The forward rows also return their statistics (non-differentiable outputs): batch_norm the
updated running mean/variance and the batch mean / inverse standard deviation it used,
layer_norm the mean and variance of each normalized slice. A fused gradient row
(``batch_norm_grad``, ``layer_norm_grad``) computes the closed-form input, weight and bias
gradients from them in one kernel, and the forward rule calls it for first derivatives.
Under ``create_graph`` the rule writes the same formulas in differentiable ops instead,
recomputing the statistics from x, so higher derivatives are exact; the fused rows
themselves are not differentiable.

Group, instance and local response normalization are composites in ``nn.functional``.
"""

from __future__ import annotations

import math

from ..autograd import grad_mode
from ..dispatch import ops
from ..dtype import from_numpy
from ..optable import Meta, OpDef, register

# ---------------------------------------------------------------------------
# helpers shared by the rows (and by the reference kernels, which import them)
# ---------------------------------------------------------------------------

DATA_FORMATS = ("NC", "NCL", "NCHW", "NCDHW", "NLC", "NHWC", "NDHWC")


def channel_axis(op, data_format, ndim) -> int:
    """The axis of the channels: 1 for channel-first layouts, the last for the others."""
    if data_format not in DATA_FORMATS:
        raise ValueError(f"{op}: data_format must be one of {', '.join(map(repr, DATA_FORMATS))}, "
                         f"got {data_format!r}")
    return 1 if data_format[1] == "C" else ndim - 1


def uses_global_stats(training, use_global_stats) -> bool:
    """Paddle's rule: the running statistics when use_global_stats, and by default (None)
    when not training; otherwise the batch's own statistics."""
    return (not training) if use_global_stats is None else bool(use_global_stats)


def batch_axes(ndim, c) -> tuple:
    """The axes batch statistics reduce (all but the channel axis ``c``)."""
    return tuple(i for i in range(ndim) if i != c)


def channel_shape(ndim, c) -> tuple:
    """The shape that broadcasts a per-channel vector against x."""
    return tuple(-1 if i == c else 1 for i in range(ndim))


def _check_float(op, x, arg="x"):
    if x.dtype.kind != "f":
        raise TypeError(f"{op}: {arg} must be a floating-point tensor (float16, float32 or "
                        f"float64), got {from_numpy(x.dtype).name}; cast it first")


def _check_vectors(op, x, size, why, **vectors):
    """Each named vector has shape [size] and x's dtype."""
    for arg, v in vectors.items():
        if tuple(v.shape) != (size,):
            raise ValueError(f"{op}: {arg} must have shape [{size}] ({why}), got "
                             f"{list(v.shape)}")
        if v.dtype != x.dtype:
            raise TypeError(f"{op}: {arg} has dtype {from_numpy(v.dtype).name} but x has "
                            f"{from_numpy(x.dtype).name}; they must match")


# ---------------------------------------------------------------------------
# batch_norm
# ---------------------------------------------------------------------------

def _batch_norm_meta(x, running_mean, running_var, weight, bias, momentum=0.9, epsilon=1e-5,
                     training=False, data_format="NCHW", use_global_stats=None):
    op = "batch_norm"
    _check_float(op, x)
    if not 2 <= len(x.shape) <= 5:
        raise ValueError(f"{op}: x must have 2 to 5 dimensions, got shape {list(x.shape)}")
    c = x.shape[channel_axis(op, data_format, len(x.shape))]
    _check_vectors(op, x, c, f"the channels of x with shape {list(x.shape)} and data_format "
                   f"{data_format!r}", running_mean=running_mean, running_var=running_var,
                   weight=weight, bias=bias)
    stat = Meta((c,), x.dtype)
    return Meta(tuple(x.shape), x.dtype), stat, stat, stat, stat


def _batch_norm_grad(ctx, g, *_):
    """The fused closed form, or under create_graph the same in differentiable ops. With
    running statistics the op is an affine map of x, also differentiable in them."""
    a = ctx.attrs
    glob = uses_global_stats(a["training"], a["use_global_stats"])
    if grad_mode.enabled:
        return _batch_norm_grad_graph(ctx, g, glob)
    w, inv_std = ctx["weight"], ctx["saved_inv_std"]
    dx, dw, db = ops.batch_norm_grad(ctx["x"], w, ctx["saved_mean"], inv_std, g,
                                     data_format=a["data_format"], use_global_stats=glob)
    if not glob or not (ctx.needs("running_mean") or ctx.needs("running_var")):
        return dx, None, None, dw, db
    return (dx, *_running_stats_grads(ops.multiply(w, inv_std), inv_std, dw, db), dw, db)


def _running_stats_grads(scale, inv_std, dw, db):
    """With running statistics, out = scale * (x - mean) + bias (scale = weight * inv_std,
    inv_std = 1 / sqrt(var + epsilon)): d mean = -scale * sum(g), d var = -scale * inv_std
    / 2 * sum(g * xhat), the sums being db and dw."""
    return (ops.neg(ops.multiply(scale, db)),
            ops.multiply(ops.scale(ops.multiply(scale, inv_std), scale=-0.5), dw))


def _batch_norm_grad_graph(ctx, g, glob):
    """batch_norm's gradient in ops of the table (differentiable again)."""
    x, w, a = ctx["x"], ctx["weight"], ctx.attrs
    ndim = len(ctx.shape("x"))
    c = channel_axis("batch_norm", a["data_format"], ndim)
    axes, shape = batch_axes(ndim, c), channel_shape(ndim, c)
    if glob:
        rm, rv = ctx["running_mean"], ctx["running_var"]
        inv_std = ops.rsqrt(ops.scale(rv, bias=a["epsilon"]))
        xhat = ops.multiply(ops.subtract(x, ops.reshape(rm, shape=shape)),
                            ops.reshape(inv_std, shape=shape))
        scale = ops.multiply(w, inv_std)
        dx = ops.multiply(g, ops.reshape(scale, shape=shape))
        dw = ops.sum(ops.multiply(g, xhat), axis=axes)
        db = ops.sum(g, axis=axes)
        return (dx, *_running_stats_grads(scale, inv_std, dw, db), dw, db)
    xhat, inv_std = _standardize(x, axes, a["epsilon"])
    dx = _normalized_input_grad(ops.multiply(g, ops.reshape(w, shape=shape)), xhat, inv_std, axes)
    return (dx, None, None, ops.sum(ops.multiply(g, xhat), axis=axes), ops.sum(g, axis=axes))


def _standardize(x, axes, epsilon):
    """(x - mean) / sqrt(var + epsilon) over axes, and 1 / sqrt(var + epsilon) (kept dims)."""
    centered = ops.subtract(x, ops.mean(x, axis=axes, keepdim=True))
    var = ops.mean(ops.square(centered), axis=axes, keepdim=True)
    inv_std = ops.rsqrt(ops.scale(var, bias=epsilon))
    return ops.multiply(centered, inv_std), inv_std


def _normalized_input_grad(gxhat, xhat, inv_std, axes):
    """dx of xhat = standardize(x) given dxhat: inv_std * (dxhat - mean(dxhat) -
    xhat * mean(dxhat * xhat)), the means over the normalized axes."""
    mean_g = ops.mean(gxhat, axis=axes, keepdim=True)
    mean_gx = ops.mean(ops.multiply(gxhat, xhat), axis=axes, keepdim=True)
    return ops.multiply(inv_std, ops.subtract(ops.subtract(gxhat, mean_g),
                                              ops.multiply(xhat, mean_gx)))


register(OpDef(
    "batch_norm", ("x", "running_mean", "running_var", "weight", "bias"), _batch_norm_meta,
    "weight * (x - mean) / sqrt(var + epsilon) + bias per channel, with the batch's mean and "
    "biased variance (training) or the running ones (use_global_stats; by default when not "
    "training). Also returns the new running mean/variance (momentum * running + "
    "(1 - momentum) * batch statistic; unchanged with running statistics) and the mean and "
    "inverse standard deviation it used.",
    attrs={"momentum": 0.9, "epsilon": 1e-5, "training": False, "data_format": "NCHW",
           "use_global_stats": None},
    grad=_batch_norm_grad,
    saves=("x", "running_mean", "running_var", "weight", "saved_mean", "saved_inv_std"),
    outputs=("out", "mean_out", "variance_out", "saved_mean", "saved_inv_std"),
    nondiff_outputs=("mean_out", "variance_out", "saved_mean", "saved_inv_std")))


def _batch_norm_grad_meta(x, weight, saved_mean, saved_inv_std, out_grad, data_format="NCHW",
                          use_global_stats=False):
    op = "batch_norm_grad"
    _check_float(op, x)
    c = x.shape[channel_axis(op, data_format, len(x.shape))]
    _check_vectors(op, x, c, "the channels of x", weight=weight, saved_mean=saved_mean,
                   saved_inv_std=saved_inv_std)
    if tuple(out_grad.shape) != tuple(x.shape):
        raise ValueError(f"{op}: out_grad has shape {list(out_grad.shape)} but x has "
                         f"{list(x.shape)}")
    stat = Meta((c,), x.dtype)
    return Meta(tuple(x.shape), x.dtype), stat, stat


register(OpDef(
    "batch_norm_grad", ("x", "weight", "saved_mean", "saved_inv_std", "out_grad"),
    _batch_norm_grad_meta,
    "batch_norm's x, weight and bias gradients in closed form, from the mean and inverse "
    "standard deviation the forward used (batch statistics unless use_global_stats, where "
    "the op is affine in x). Not differentiable: batch_norm's rule uses ops under "
    "create_graph.",
    attrs={"data_format": "NCHW", "use_global_stats": False},
    outputs=("x_grad", "weight_grad", "bias_grad")))


# ---------------------------------------------------------------------------
# layer_norm
# ---------------------------------------------------------------------------

def _layer_norm_meta(x, weight, bias, epsilon=1e-5, begin_norm_axis=1):
    op = "layer_norm"
    _check_float(op, x)
    ndim = len(x.shape)
    if not 0 < begin_norm_axis < ndim:
        raise ValueError(f"{op}: begin_norm_axis must be in [1, {ndim - 1}] for x with shape "
                         f"{list(x.shape)} (at least one leading dimension stays), got "
                         f"{begin_norm_axis}")
    right = math.prod(x.shape[begin_norm_axis:])
    _check_vectors(op, x, right, f"the size of the normalized dimensions "
                   f"{list(x.shape[begin_norm_axis:])} of x", weight=weight, bias=bias)
    stat = Meta((math.prod(x.shape[:begin_norm_axis]),), x.dtype)
    return Meta(tuple(x.shape), x.dtype), stat, stat


def _layer_norm_grad(ctx, g, *_):
    """The fused closed form, or under create_graph the same in differentiable ops."""
    a = ctx.attrs
    x, w = ctx["x"], ctx["weight"]
    if not grad_mode.enabled:
        return ops.layer_norm_grad(x, w, ctx["mean"], ctx["variance"], g, **a)
    shape = ctx.shape("x")
    rows = (math.prod(shape[:a["begin_norm_axis"]]), -1)
    g2 = ops.reshape(g, shape=rows)
    xhat, inv_std = _standardize(ops.reshape(x, shape=rows), (1,), a["epsilon"])
    dx = _normalized_input_grad(ops.multiply(g2, w), xhat, inv_std, (1,))
    return (ops.reshape(dx, shape=shape), ops.sum(ops.multiply(g2, xhat), axis=0),
            ops.sum(g2, axis=0))


register(OpDef(
    "layer_norm", ("x", "weight", "bias"), _layer_norm_meta,
    "weight * (x - mean) / sqrt(var + epsilon) + bias, the mean and biased variance taken "
    "over the dimensions from begin_norm_axis on (weight and bias are flat, of their total "
    "size). Also returns the mean and variance of each of the leading positions (flat).",
    attrs={"epsilon": 1e-5, "begin_norm_axis": 1},
    grad=_layer_norm_grad, saves=("x", "weight", "mean", "variance"),
    outputs=("out", "mean", "variance"), nondiff_outputs=("mean", "variance")))


def _layer_norm_grad_meta(x, weight, mean, variance, out_grad, epsilon=1e-5, begin_norm_axis=1):
    out, stat, _ = _layer_norm_meta(x, weight, weight, epsilon, begin_norm_axis)
    _check_vectors("layer_norm_grad", x, stat.shape[0], "the leading positions of x",
                   mean=mean, variance=variance)
    if tuple(out_grad.shape) != tuple(x.shape):
        raise ValueError(f"layer_norm_grad: out_grad has shape {list(out_grad.shape)} but x "
                         f"has {list(x.shape)}")
    return out, Meta(tuple(weight.shape), x.dtype), Meta(tuple(weight.shape), x.dtype)


register(OpDef(
    "layer_norm_grad", ("x", "weight", "mean", "variance", "out_grad"), _layer_norm_grad_meta,
    "layer_norm's x, weight and bias gradients in closed form, from the forward's mean and "
    "variance. Not differentiable: layer_norm's rule uses ops under create_graph.",
    attrs={"epsilon": 1e-5, "begin_norm_axis": 1},
    outputs=("x_grad", "weight_grad", "bias_grad")))
