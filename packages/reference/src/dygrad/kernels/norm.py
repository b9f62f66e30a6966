"""Normalization kernels: batch_norm, layer_norm and their fused gradients."""

import numpy as np

from .._core.ops.norm import batch_axes, channel_axis, channel_shape, uses_global_stats
from .._core.optable import TABLE
from ._registry import kernel


def _validate(op, *inputs, **attrs):
    """NumPy would broadcast a wrong-sized weight or average ints: check with the row."""
    TABLE[op].infer_meta(*inputs, **attrs)


@kernel
def batch_norm(x, running_mean, running_var, weight, bias, momentum=0.9, epsilon=1e-5,
               training=False, data_format="NCHW", use_global_stats=None):
    """per-channel (x - mean) / sqrt(var + epsilon) * weight + bias; new running stats"""
    _validate("batch_norm", x, running_mean, running_var, weight, bias, data_format=data_format)
    c = channel_axis("batch_norm", data_format, x.ndim)
    if uses_global_stats(training, use_global_stats):
        mean, var = running_mean, running_var
        new_mean, new_var = running_mean.copy(), running_var.copy()
    else:
        mean, var = x.mean(axis=batch_axes(x.ndim, c)), x.var(axis=batch_axes(x.ndim, c))
        new_mean = momentum * running_mean + (1 - momentum) * mean
        new_var = momentum * running_var + (1 - momentum) * var
    inv_std = 1 / np.sqrt(var + epsilon)
    shape = channel_shape(x.ndim, c)
    out = (x - mean.reshape(shape)) * (weight * inv_std).reshape(shape) + bias.reshape(shape)
    return (out.astype(x.dtype, copy=False), new_mean.astype(x.dtype, copy=False),
            new_var.astype(x.dtype, copy=False), np.array(mean, dtype=x.dtype),
            inv_std.astype(x.dtype, copy=False))


@kernel
def batch_norm_grad(x, weight, saved_mean, saved_inv_std, out_grad, data_format="NCHW",
                    use_global_stats=False):
    """closed-form dx, dweight, dbias of batch_norm"""
    _validate("batch_norm_grad", x, weight, saved_mean, saved_inv_std, out_grad,
              data_format=data_format)
    c = channel_axis("batch_norm_grad", data_format, x.ndim)
    axes, shape = batch_axes(x.ndim, c), channel_shape(x.ndim, c)
    inv_std = saved_inv_std.reshape(shape)
    xhat = (x - saved_mean.reshape(shape)) * inv_std
    dbias = out_grad.sum(axis=axes)
    dweight = (out_grad * xhat).sum(axis=axes)
    scale = weight.reshape(shape) * inv_std
    if use_global_stats:
        dx = out_grad * scale
    else:
        n = x.size // x.shape[c]
        dx = scale * (out_grad - (dbias.reshape(shape) + xhat * dweight.reshape(shape)) / n)
    return dx.astype(x.dtype, copy=False), dweight, dbias


def _rows(x, begin_norm_axis):
    """x as a matrix: one row per leading position, the normalized dimensions as columns."""
    return x.reshape(int(np.prod(x.shape[:begin_norm_axis])), -1)


@kernel
def layer_norm(x, weight, bias, epsilon=1e-5, begin_norm_axis=1):
    """(x - mean) / sqrt(var + epsilon) * weight + bias over the trailing dimensions"""
    _validate("layer_norm", x, weight, bias, begin_norm_axis=begin_norm_axis)
    x2 = _rows(x, begin_norm_axis)
    mean, var = x2.mean(axis=1), x2.var(axis=1)
    out = (x2 - mean[:, None]) / np.sqrt(var[:, None] + epsilon) * weight + bias
    return out.reshape(x.shape).astype(x.dtype, copy=False), mean, var


@kernel
def layer_norm_grad(x, weight, mean, variance, out_grad, epsilon=1e-5, begin_norm_axis=1):
    """closed-form dx, dweight, dbias of layer_norm"""
    _validate("layer_norm_grad", x, weight, mean, variance, out_grad,
              begin_norm_axis=begin_norm_axis)
    x2, g2 = _rows(x, begin_norm_axis), _rows(out_grad, begin_norm_axis)
    inv_std = (1 / np.sqrt(variance + epsilon))[:, None]
    xhat = (x2 - mean[:, None]) * inv_std
    gx = g2 * weight
    dx = inv_std * (gx - gx.mean(axis=1, keepdims=True)
                    - xhat * (gx * xhat).mean(axis=1, keepdims=True))
    return (dx.reshape(x.shape).astype(x.dtype, copy=False), (g2 * xhat).sum(axis=0),
            g2.sum(axis=0))
